//! Retrieval levers bench: what the pull `search` tool and the gate's per-instance ranking find,
//! on the devset (tuning) and on benches/data/heldout (reporting only).
//!
//! Sets: the devset, benches/data/train and train2 (tuning; never `overlap_heldout.jsonl`), then
//! the two test sets benches/data/train3 and benches/data/heldout unless `GG_DEVONLY` is set. Figures per
//! set: gold in the `search` tool's top 5 over all four default instances (questions,
//! sentences), gold in the right instance's top 4 as the gate ranks it
//! (`groundgate::search::rank`), and the merge loss (gold in the right top 4, not in the top 5). `GG_INDEXES` picks the index directory (default `indexes/`);
//! `GG_DUMP=FILE` writes every miss with the gold's rank in the right instance and the top hits.
//! Run: `GG_DATA=../shared/data cargo bench --bench levers`.

use std::fmt::Write as _;
use std::path::PathBuf;

use groundgate::eval::gold::{Label, parse_labels};
use groundgate::search::Ranking;
use groundgate::tools::merge::Options;
use groundgate::tools::search;
use groundgate::{Engine, InstanceOptions};

const SETS: [&str; 3] = ["questions_ko", "questions_en", "sentences_ko"];

fn pct((a, n): (usize, usize)) -> String {
    if n == 0 { "—".into() } else { format!("{:5.1}% ({a}/{n})", 100.0 * a as f64 / n as f64) }
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data = std::env::var_os("GG_DATA").map(PathBuf::from).unwrap_or_else(|| root.join("../shared/data"));
    let dir = std::env::var_os("GG_INDEXES").map(PathBuf::from).unwrap_or_else(|| root.join("indexes"));
    let mut e = Engine::new(Default::default()).expect("engine");
    for name in ["rnd", "constitution", "lohelp", "pyfaq"] {
        let p = dir.join(format!("{name}.ggi"));
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e} (run ./build.sh)", p.display()));
        e.add_instance(name, bytes, InstanceOptions::default()).expect("instance");
    }
    let holder = |src: &str| -> Option<String> {
        e.instance_names().into_iter().find(|n| {
            let ix = e.index(n).expect("index");
            (0..ix.source_count()).any(|s| ix.source(s).map(|x| x.id == src).unwrap_or(false))
        })
    };
    // GG_BM25=1: plain BM25 per instance (no collapse), the round-1 ranking.
    let ranking = if std::env::var_os("GG_BM25").is_some() { Ranking::BM25 } else { Ranking::DEFAULT };
    let mut ranking = ranking;
    // GG_FILLERS=0: keep the query's colloquial filler words (있어요, 돼 …).
    if std::env::var_os("GG_FILLERS").is_some_and(|v| v == "0") {
        ranking.fillers = false;
    }
    // GG_JOIN=w: the weight of join-only bigrams in queries (tuning on the devset).
    if let Some(v) = std::env::var_os("GG_JOIN") {
        ranking.join_weight = v.to_string_lossy().parse().expect("GG_JOIN: a number");
    }
    // GG_BG=from,to,floor (or "off"): query terms everyday in general text and rare in the
    // documents weigh less (`search::Background`; tuning).
    if let Some(v) = std::env::var_os("GG_BG") {
        let v = v.to_string_lossy();
        ranking.background = if v == "off" {
            None
        } else {
            let p: Vec<&str> = v.split(',').collect();
            assert!(p.len() == 3, "GG_BG: from,to,floor");
            Some(groundgate::search::Background {
                from: p[0].parse().expect("GG_BG from"),
                to: p[1].parse().expect("GG_BG to"),
                floor: p[2].parse().expect("GG_BG floor"),
            })
        };
    }
    // GG_PRF=below,depth,terms,weight (or "off"; tuning): a second pass when the first is weak.
    if let Some(v) = std::env::var_os("GG_PRF").filter(|v| v != "off") {
        let v = v.to_string_lossy();
        let p: Vec<&str> = v.split(',').collect();
        assert!(p.len() == 4, "GG_PRF: below,depth,terms,weight");
        ranking.feedback = Some(groundgate::search::Feedback {
            below: p[0].parse().expect("GG_PRF below"),
            depth: p[1].parse().expect("GG_PRF depth"),
            terms: p[2].parse().expect("GG_PRF terms"),
            weight: p[3].parse().expect("GG_PRF weight"),
        });
    }
    if std::env::var_os("GG_PRF").is_some_and(|v| v == "off") {
        ranking.feedback = None;
    }
    // GG_HEAD=depth,weight (or "off"; tuning): heading re-scoring of the best chunks.
    if let Some(v) = std::env::var_os("GG_HEAD") {
        let v = v.to_string_lossy();
        ranking.heading = if v == "off" {
            None
        } else {
            let p: Vec<&str> = v.split(',').collect();
            assert!(p.len() == 2, "GG_HEAD: depth,weight");
            Some(groundgate::search::Heading {
                depth: p[0].parse().expect("GG_HEAD depth"),
                weight: p[1].parse().expect("GG_HEAD weight"),
                articles_only: false,
            })
        };
    }
    let mut opts = Options { ranking, ..Options::DEFAULT };
    // GG_ABOUT=λ: weight of the instance's share of the query in the merge (tuning on the devset).
    if let Some(v) = std::env::var_os("GG_ABOUT") {
        opts.about = v.to_string_lossy().parse().expect("GG_ABOUT: a number");
    }
    // GG_VOTES=even: every query term votes alike in the merge's instance share (round 2).
    if std::env::var_os("GG_VOTES").is_some_and(|v| v == "even") {
        opts.votes = groundgate::tools::merge::Votes::Even;
    }
    // GG_METHOD=attainable|calibrated|…: the merge's scale (`merge::Method`, snake case).
    if let Some(v) = std::env::var_os("GG_METHOD") {
        opts.method = serde_json::from_str(&format!("{:?}", v.to_string_lossy())).expect("GG_METHOD");
    }
    let mut dump = String::new();
    // GG_FEATS=FILE: per prompt and instance, the query's terms and the instance's top 60 as JSON
    // lines, for fitting and simulating merges offline (docs/tools-bench.md, merge section).
    let mut feats = std::env::var_os("GG_FEATS").map(|p| (p, String::new()));
    // A second engine for `ask` (the gate's relevance per instance, in the dump).
    let mut asker = Engine::new(Default::default()).expect("engine");
    if feats.is_some() {
        for name in ["rnd", "constitution", "lohelp", "pyfaq"] {
            let bytes = std::fs::read(dir.join(format!("{name}.ggi"))).expect("index");
            asker.add_instance(name, bytes, InstanceOptions::default()).expect("instance");
        }
    }
    // Per set and instance: (all-4 top 5 hits, right top 4 hits, prompts), questions and sentences apart.
    let mut per: std::collections::BTreeMap<(String, String), [usize; 3]> = Default::default();
    let mut sets = vec![
        ("devset", data.join("devset")),
        ("train", root.join("benches/data/train")),
        ("train2", root.join("benches/data/train2")),
    ];
    // GG_DEVONLY=1 while tuning (devset + both training sets): the test sets (train3, written in
    // session 6 and never tuned on, and held-out) are measured once per kept change.
    if std::env::var_os("GG_DEVONLY").is_none() {
        sets.push(("train3", root.join("benches/data/train3")));
        sets.push(("heldout", root.join("benches/data/heldout")));
    }
    for (set, dir) in sets {
        println!("{set}:");
        let (mut q5, mut q4, mut q_lost) = ((0, 0), (0, 0), 0);
        for f in SETS {
            // A set without a file (train2 has no pasted sentences) skips it.
            let Ok(text) = std::fs::read_to_string(dir.join(format!("{f}.jsonl"))) else { continue };
            let labels: Vec<Label> =
                parse_labels(f, &text).expect("labels").into_iter().filter(|l| !l.gold.is_empty()).collect();
            let (mut all5, mut right4, mut lost) = ((0, 0), (0, 0), 0);
            for l in &labels {
                let a = search::Args { query: l.prompt.clone(), k: Some(5), ..Default::default() };
                let out = search::run_with(&e, &a, opts).expect("search");
                let hit5 = l.hit(out.results.iter().map(|r| &r.cite));
                all5 = (all5.0 + hit5 as usize, all5.1 + 1);
                let inst = l.instance_in(|s| holder(s)).expect("instance");
                let ix = e.index(&inst).expect("index");
                let ranked = groundgate::search::rank(
                    ix,
                    &groundgate::search::weighted_terms(ix, &l.prompt, ranking),
                    60,
                    ranking,
                )
                .expect("ranked");
                let cites: Vec<_> =
                    ranked.iter().map(|s| groundgate::search::hit(ix, 0, *s).expect("hit").cite).collect();
                let rank = cites.iter().position(|c| l.gold.iter().any(|g| g.matches(c)));
                let hit4 = rank.is_some_and(|r| r < 4);
                right4 = (right4.0 + hit4 as usize, right4.1 + 1);
                // Merge loss: the right instance had the gold in its top 4, the merged top 5 not.
                lost += (hit4 && !hit5) as usize;
                let key = if f == "sentences_ko" { format!("{inst}/sent") } else { inst.clone() };
                let c = per.entry((set.to_string(), key)).or_default();
                c[0] += hit5 as usize;
                c[1] += hit4 as usize;
                c[2] += 1;
                if let Some((_, out)) = feats.as_mut() {
                    let answer = asker.ask(&l.prompt, &Default::default()).expect("ask");
                    let rel: Vec<(String, f64)> = answer
                        .log
                        .instances
                        .iter()
                        .map(|i| (i.instance.clone(), i.gate.as_ref().map_or(0.0, |g| g.relevance)))
                        .collect();
                    dump_prompt(out, &e, set, f, &inst, l, ranking, &rel);
                }
                if !hit5 || !hit4 {
                    let _ = writeln!(
                        dump,
                        "{set} {} [{}] all5={hit5} right-rank={} {:?}\n  gold {:?}",
                        l.id,
                        inst,
                        rank.map_or("-".into(), |r| (r + 1).to_string()),
                        l.prompt,
                        l.gold
                            .iter()
                            .map(|g| (&g.source, &g.pages, &g.articles, &g.section))
                            .collect::<Vec<_>>()
                    );
                    for r in out.results.iter().take(3) {
                        let t: String = r.text.chars().take(60).collect();
                        let _ = writeln!(
                            dump,
                            "  top5 {} {} p{:?} a{:?} h{:?} | {}",
                            r.instance,
                            r.cite.source,
                            r.cite.page,
                            r.cite.article,
                            r.cite.heading,
                            t.replace('\n', " ")
                        );
                    }
                    for c in cites.iter().take(3) {
                        let _ = writeln!(
                            dump,
                            "  right {} p{:?} a{:?} h{:?}",
                            c.source, c.page, c.article, c.heading
                        );
                    }
                }
            }
            println!(
                "  {f:<13} all-4 top 5 {}   right instance top 4 {}   merge loss {lost}",
                pct(all5),
                pct(right4)
            );
            if f != "sentences_ko" {
                q5 = (q5.0 + all5.0, q5.1 + all5.1);
                q4 = (q4.0 + right4.0, q4.1 + right4.1);
                q_lost += lost;
            }
        }
        println!(
            "  {:<13} all-4 top 5 {}   right instance top 4 {}   merge loss {q_lost}",
            "questions",
            pct(q5),
            pct(q4)
        );
    }
    println!("per instance (set instance all5 right4 n):");
    for ((set, inst), c) in &per {
        println!("  {set} {inst:<18} {:>3} {:>3} {:>3}", c[0], c[1], c[2]);
    }
    if let Some((p, out)) = feats {
        std::fs::write(p, out).expect("feats");
    }
    if let Some(p) = std::env::var_os("GG_DUMP") {
        std::fs::write(p, dump).expect("dump");
    }
}

/// One JSON line per prompt: its set, id, file, right instance and, per instance, the query's
/// weighted terms (weight, idf, df, background level) and the top 60 (score, location, text key,
/// gold).
#[allow(clippy::too_many_arguments)]
fn dump_prompt(
    out: &mut String,
    e: &Engine,
    set: &str,
    file: &str,
    inst: &str,
    l: &Label,
    ranking: Ranking,
    relevance: &[(String, f64)],
) {
    let mut per = Vec::new();
    for name in e.instance_names() {
        let ix = e.index(&name).expect("index");
        let meta = ix.meta();
        let weighted = groundgate::search::weighted_terms(ix, &l.prompt, ranking);
        let mut terms = Vec::new();
        for (t, w) in &weighted {
            let info = ix.term(t).expect("term");
            terms.push(serde_json::json!({
                "t": t, "w": w,
                "idf": info.as_ref().map(|i| i.idf),
                "df": info.as_ref().map(|i| i.df),
                "lv": info.as_ref().and_then(|i| ix.background_level(i.ordinal)),
            }));
        }
        let ranked = groundgate::search::rank(ix, &weighted, 60, ranking).expect("rank");
        let mut hits = Vec::new();
        for s in &ranked {
            let h = groundgate::search::hit(ix, 0, *s).expect("hit");
            let chunk = ix.chunk(s.chunk).expect("chunk");
            let key: String =
                groundgate::text::normalize(&chunk.text).chars().filter(|c| !c.is_whitespace()).collect();
            let mut hash: u64 = 0xcbf29ce484222325;
            for b in key.bytes() {
                hash = (hash ^ b as u64).wrapping_mul(0x100000001b3);
            }
            hits.push(serde_json::json!({
                "c": s.chunk, "s": s.score,
                "loc": format!("{}|{:?}|{:?}|{:?}", h.cite.source, h.cite.page, h.cite.article, h.cite.heading),
                "key": format!("{hash:016x}"),
                "g": l.gold.iter().any(|g| g.matches(&h.cite)),
            }));
        }
        per.push(serde_json::json!({
            "name": name, "chunks": meta.chunks, "k1": meta.bm25.k1, "terms": terms, "hits": hits,
            "rel": relevance.iter().find(|(n, _)| *n == name).map(|x| x.1),
        }));
    }
    let line = serde_json::json!({"set": set, "id": l.id, "file": file, "right": inst, "inst": per});
    out.push_str(&line.to_string());
    out.push('\n');
}
