//! Retrieval bench: MRR@10, Hit@10 (nDCG@10 where judgments are graded) of groundgate's analyzer
//! variants against the plain Hangul-bigram baseline, on every evaluation set in ../shared/data,
//! all measured in this run with the same BM25; then index size and build time of the default
//! instances.
//!
//! Run with `./build.sh bench` (or `cargo bench --bench retrieval`). Options after `--`:
//! `--sets korquad,rnd-faq,…` to run some sets only. Data: `$GG_DATA` or `../shared/data`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use groundgate::corpus::{Chunk, Source};
use groundgate::ingest::manifest::Manifest;
use groundgate::search::{self, Bm25Params};
use groundgate::text::{AnalyzerSettings, KoreanMode};
use groundgate::{Index, IndexBuilder};
use serde_json::Value;

type Qrels = HashMap<String, HashMap<String, f64>>;

struct Set {
    name: &'static str,
    docs: Vec<(String, String)>,
    queries: Vec<(String, String)>,
    qrels: Qrels,
    graded: bool,
    /// MRR@10 / Hit@10 that ../shared/data/README.md reports for the Python bigram script.
    reported: (f64, f64),
}

/// BM25 parameters, baseline metrics, shipped metrics.
type LuceneRow = (Bm25Params, Metrics, Metrics);

#[derive(Default, Clone, Copy)]
struct Metrics {
    mrr: f64,
    hit4: f64,
    hit10: f64,
    ndcg: f64,
}

fn read(p: &Path) -> String {
    std::fs::read(p)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn jsonl(p: &Path) -> Vec<Value> {
    read(p)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

fn s(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_default().to_string()
}

fn binary_qrels(pairs: impl IntoIterator<Item = (String, String)>) -> Qrels {
    let mut q: Qrels = HashMap::new();
    for (a, b) in pairs {
        q.entry(a).or_default().insert(b, 1.0);
    }
    q
}

fn load_sets(data: &Path) -> Vec<Set> {
    let mut sets = Vec::new();
    // KorQuAD 1.0 dev: question → its paragraph.
    let kq: Value =
        serde_json::from_str(&read(&data.join("via-fetch/korquad/KorQuAD_v1.0_dev.json"))).expect("korquad");
    let mut ctx: BTreeMap<String, String> = BTreeMap::new();
    let mut order = Vec::new();
    let (mut qs, mut pairs) = (Vec::new(), Vec::new());
    for a in kq["data"].as_array().into_iter().flatten() {
        for p in a["paragraphs"].as_array().into_iter().flatten() {
            let c = s(p, "context");
            let n = ctx.len();
            let cid = ctx.entry(c.clone()).or_insert_with(|| {
                order.push(c.clone());
                format!("c{n}")
            });
            let cid = cid.clone();
            for q in p["qas"].as_array().into_iter().flatten() {
                qs.push((s(q, "id"), s(q, "question")));
                pairs.push((s(q, "id"), cid.clone()));
            }
        }
    }
    let docs = order.iter().map(|c| (ctx[c].clone(), c.clone())).collect();
    sets.push(Set {
        name: "KorQuAD dev q→paragraph",
        docs,
        queries: qs,
        qrels: binary_qrels(pairs),
        graded: false,
        reported: (0.931, 0.991),
    });

    // R&D manual FAQ: question → its answer.
    let l = jsonl(&data.join("registry/pypi-korean-rnd-regs-mcp-0.61.0/rnd_manual_faq_ko.jsonl"));
    sets.push(Set {
        name: "R&D FAQ q→answer",
        docs: l.iter().map(|o| (s(o, "id"), s(o, "answer"))).collect(),
        queries: l.iter().map(|o| (s(o, "id"), s(o, "question"))).collect(),
        qrels: binary_qrels(l.iter().map(|o| (s(o, "id"), s(o, "id")))),
        graded: false,
        reported: (0.714, 0.927),
    });

    // Debian FAQ ko / en: question heading → its answer.
    for (lang, name, rep) in [
        ("ko", "Debian FAQ ko heading→answer", (0.352, 0.625)),
        ("en", "Debian FAQ en heading→answer", (0.410, 0.689)),
    ] {
        let l = jsonl(&data.join(format!("registry/deb-debian-faq-11.1/debian_faq_{lang}.jsonl")));
        let q: Vec<&Value> = l.iter().filter(|o| s(o, "heading").trim().ends_with('?')).collect();
        sets.push(Set {
            name,
            docs: l.iter().map(|o| (s(o, "id"), s(o, "answer"))).collect(),
            queries: q.iter().map(|o| (s(o, "id"), s(o, "heading"))).collect(),
            qrels: binary_qrels(q.iter().map(|o| (s(o, "id"), s(o, "id")))),
            graded: false,
            reported: rep,
        });
    }

    // Python FAQ: question heading → its answer.
    let l = jsonl(&data.join("registry/deb-python3.11-doc/python311_faq_en.jsonl"));
    let q: Vec<&Value> = l.iter().filter(|o| o["is_question"].as_bool() == Some(true)).collect();
    sets.push(Set {
        name: "Python FAQ heading→answer",
        docs: l.iter().map(|o| (s(o, "id"), s(o, "answer"))).collect(),
        queries: q.iter().map(|o| (s(o, "id"), s(o, "heading"))).collect(),
        qrels: binary_qrels(q.iter().map(|o| (s(o, "id"), s(o, "id")))),
        graded: false,
        reported: (0.597, 0.806),
    });

    // LibreOffice help: Korean index keyword → help page.
    let dir = data.join("registry/deb-libreoffice-help-ko");
    let docs: Vec<(String, String)> = jsonl(&dir.join("docs.jsonl"))
        .iter()
        .map(|x| (s(x, "id"), format!("{}\n{}", s(x, "title"), s(x, "text"))))
        .collect();
    let queries: Vec<(String, String)> = read(&dir.join("queries.tsv"))
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 3 && f[1] == "1").then(|| (f[0].to_string(), f[2].to_string()))
        })
        .collect();
    let qrels = binary_qrels(read(&dir.join("qrels.tsv")).lines().filter_map(|l| {
        let f: Vec<&str> = l.split('\t').collect();
        (f.len() >= 3).then(|| (f[0].to_string(), f[2].to_string()))
    }));
    sets.push(Set {
        name: "LibreOffice help ko keyword→page",
        docs,
        queries,
        qrels,
        graded: false,
        reported: (0.514, 0.767),
    });

    // Cranfield: graded judgments 1 (best) … 3 relevant; gain 4 − grade.
    let parse = |p: PathBuf| {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut field = String::new();
        for line in read(&p).lines() {
            if let Some(id) = line.strip_prefix(".I") {
                out.push((id.trim().to_string(), String::new()));
                field.clear();
            } else if line.starts_with('.') {
                field = line.trim().to_string();
            } else if (field == ".T" || field == ".W")
                && let Some(last) = out.last_mut()
            {
                last.1.push_str(line);
                last.1.push('\n');
            }
        }
        out
    };
    let docs = parse(data.join("via-fetch/cranfield/cran.all.1400"));
    let queries: Vec<(String, String)> = parse(data.join("via-fetch/cranfield/cran.qry"))
        .into_iter()
        .enumerate()
        .map(|(i, (_, t))| ((i + 1).to_string(), t))
        .collect();
    let mut qrels: Qrels = HashMap::new();
    for l in read(&data.join("via-fetch/cranfield/cranqrel")).lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() >= 3
            && let Ok(g) = f[2].parse::<i32>()
            && (1..=3).contains(&g)
        {
            qrels.entry(f[0].to_string()).or_default().insert(f[1].to_string(), (4 - g) as f64);
        }
    }
    let queries = queries.into_iter().filter(|(q, _)| qrels.contains_key(q)).collect();
    sets.push(Set {
        name: "Cranfield (grades 1–3)",
        docs,
        queries,
        qrels,
        graded: true,
        reported: (0.455, 0.833),
    });
    sets
}

fn build(docs: &[(String, String)], settings: AnalyzerSettings, p: Bm25Params) -> Vec<u8> {
    let mut b = IndexBuilder::new("bench", settings);
    b.bm25(p);
    let src = b
        .add_source(Source {
            id: "bench".into(),
            title: "bench".into(),
            kind: "bench".into(),
            ..Default::default()
        })
        .expect("source");
    for (_, text) in docs {
        b.add_chunk(Chunk { source: src, text: text.clone(), ..Default::default() }).expect("chunk");
    }
    b.build().expect("build")
}

fn evaluate(set: &Set, settings: AnalyzerSettings, p: Bm25Params) -> Metrics {
    let bytes = build(&set.docs, settings, p);
    let index = Index::open(&bytes[..]).expect("open");
    let mut m = Metrics::default();
    let mut n = 0.0;
    for (qid, q) in &set.queries {
        let Some(rel) = set.qrels.get(qid) else { continue };
        n += 1.0;
        let terms = search::query_terms(&index, q);
        let top = search::top_k(&index, &terms, 10).expect("search");
        let ids: Vec<&str> = top.iter().map(|s| set.docs[s.chunk as usize].0.as_str()).collect();
        if let Some(r) = ids.iter().position(|d| rel.contains_key(*d)) {
            m.mrr += 1.0 / (r as f64 + 1.0);
            m.hit10 += 1.0;
            if r < 4 {
                m.hit4 += 1.0;
            }
        }
        let dcg: f64 = ids
            .iter()
            .enumerate()
            .map(|(i, d)| rel.get(*d).copied().unwrap_or(0.0) / (i as f64 + 2.0).log2())
            .sum();
        let mut ideal: Vec<f64> = rel.values().copied().collect();
        ideal.sort_by(|a, b| b.total_cmp(a));
        let idcg: f64 = ideal.iter().take(10).enumerate().map(|(i, g)| g / (i as f64 + 2.0).log2()).sum();
        if idcg > 0.0 {
            m.ndcg += dcg / idcg;
        }
    }
    Metrics { mrr: m.mrr / n, hit4: m.hit4 / n, hit10: m.hit10 / n, ndcg: m.ndcg / n }
}

/// Print queries that variant `b` ranks worse than `a` (GG_DIFF=set-name-substring).
fn diff(set: &Set, a: AnalyzerSettings, b: AnalyzerSettings) {
    let p = Bm25Params::default();
    let (ba, bb) = (build(&set.docs, a, p), build(&set.docs, b, p));
    let (ia, ib) = (Index::open(&ba[..]).expect("open"), Index::open(&bb[..]).expect("open"));
    let rank = |index: &Index<&[u8]>, q: &str, rel: &HashMap<String, f64>| {
        let top = search::top_k(index, &search::query_terms(index, q), 10).expect("search");
        top.iter().position(|s| rel.contains_key(&set.docs[s.chunk as usize].0)).map_or(99, |r| r + 1)
    };
    let (mut worse, mut better) = (0, 0);
    for (qid, q) in &set.queries {
        let Some(rel) = set.qrels.get(qid) else { continue };
        let (ra, rb) = (rank(&ia, q, rel), rank(&ib, q, rel));
        if rb > ra {
            worse += 1;
            println!("{ra:>2} → {rb:>2}  {q}\n        {:?}", search::query_terms(&ib, q));
        } else if rb < ra {
            better += 1;
        }
    }
    println!("worse {worse}, better {better}");
}

fn main() {
    if let Ok(name) = std::env::var("GG_DIFF") {
        let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
        for set in load_sets(&data).iter().filter(|s| s.name.to_lowercase().contains(&name)) {
            diff(set, AnalyzerSettings::BASELINE, AnalyzerSettings::default());
        }
        return;
    }
    let args: Vec<String> = std::env::args().collect();
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--sets")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.split(',').map(str::to_lowercase).collect());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data = std::env::var_os("GG_DATA").map(PathBuf::from).unwrap_or_else(|| root.join("../shared/data"));
    if !data.is_dir() {
        eprintln!("retrieval bench: {} not found (set GG_DATA)", data.display());
        std::process::exit(2);
    }
    let variants: Vec<(&str, AnalyzerSettings)> = vec![
        ("bigram (baseline)", AnalyzerSettings::BASELINE),
        ("stem", AnalyzerSettings { korean: KoreanMode::Stem, ..AnalyzerSettings::default() }),
        (
            "stem-bigram",
            AnalyzerSettings {
                korean: KoreanMode::StemBigram,
                join_words: false,
                ..AnalyzerSettings::default()
            },
        ),
        (
            "stem-bigram+join",
            AnalyzerSettings {
                korean: KoreanMode::StemBigram,
                join_words: true,
                ..AnalyzerSettings::default()
            },
        ),
        ("sbj no-en-stem", AnalyzerSettings { english_stem: false, ..AnalyzerSettings::default() }),
        ("sbj no-stop", AnalyzerSettings { stop_words: false, ..AnalyzerSettings::default() }),
    ];
    let shipped = AnalyzerSettings::default();
    let arg = |name: &str| {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok())
    };
    let d = Bm25Params::default();
    let p = Bm25Params { k1: arg("--k1").unwrap_or(d.k1), b: arg("--b").unwrap_or(d.b) };
    println!(
        "Retrieval: MRR@10 / Hit@10 (nDCG@10 for graded sets); BM25 k1 {} b {}; every column measured in this run",
        p.k1, p.b
    );
    println!("shipped analyzer: {shipped:?}\n");
    print!("| set | docs | queries | reported py-bigram |");
    for (name, _) in &variants {
        print!(" {name} |");
    }
    println!(" shipped − baseline |");
    print!("|---|---:|---:|---|");
    for _ in &variants {
        print!("---|");
    }
    println!("---|");
    let mut all_better = true;
    let mut lucene: Option<(&str, [LuceneRow; 2])> = None;
    for set in load_sets(&data) {
        let key = set.name.to_lowercase();
        if let Some(o) = &only
            && !o.iter().any(|x| key.contains(x.as_str()))
        {
            continue;
        }
        let t = Instant::now();
        let results: Vec<Metrics> = variants.iter().map(|(_, v)| evaluate(&set, *v, p)).collect();
        print!(
            "| {} | {} | {} | {:.3} / {:.3} |",
            set.name,
            set.docs.len(),
            set.queries.len(),
            set.reported.0,
            set.reported.1
        );
        for m in &results {
            if set.graded {
                print!(" {:.3} / {:.3} / {:.3} |", m.mrr, m.hit10, m.ndcg);
            } else {
                print!(" {:.3} / {:.3} |", m.mrr, m.hit10);
            }
        }
        let base = results[0];
        let ship = variants.iter().position(|(_, v)| *v == shipped).map(|i| results[i]).unwrap_or_default();
        let better = ship.mrr > base.mrr && ship.hit10 >= base.hit10;
        all_better &= better;
        println!(
            " {:+.4} / {:+.4} {} |",
            ship.mrr - base.mrr,
            ship.hit10 - base.hit10,
            if better { "✓" } else { "✗" }
        );
        if set.name.starts_with("LibreOffice") {
            lucene = Some((
                set.name,
                [(0.9, 0.4), (1.2, 0.75)].map(|(k1, b)| {
                    let p = Bm25Params { k1, b };
                    (p, evaluate(&set, AnalyzerSettings::BASELINE, p), evaluate(&set, shipped, p))
                }),
            ));
        }
        eprintln!("  ({} in {:.1} s)", set.name, t.elapsed().as_secs_f64());
    }
    println!(
        "\nshipped analyzer beats the bigram baseline on every set (MRR higher, Hit@10 not lower): {}",
        if all_better { "yes" } else { "NO" }
    );
    if let Some((name, rows)) = lucene {
        println!(
            "\n{name}, Hit@4 / Hit@10 / MRR@10 beside Lucene (reported in ../shared/data/README.md, not run here):"
        );
        println!(
            "| BM25 | bigram (ours) | shipped (ours) | Lucene Nori (28 MB dictionary) | Lucene CJK bigrams |"
        );
        println!("|---|---|---|---|---|");
        for (p, b, s) in rows {
            let (nori, cjk) = if p.k1 < 1.0 {
                (".661 / .772 / .533", ".657 / .770 / .522")
            } else {
                (".647 / .772 / .517", "–")
            };
            println!(
                "| k1 {} b {} | {:.3} / {:.3} / {:.3} | {:.3} / {:.3} / {:.3} | {nori} | {cjk} |",
                p.k1, p.b, b.hit4, b.hit10, b.mrr, s.hit4, s.hit10, s.mrr
            );
        }
    }

    // Default instances: size and build time.
    println!(
        "\n| instance | documents | chunks | terms | text bytes | index bytes | index ÷ text | build s (median of 3) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for name in ["rnd", "constitution", "lohelp", "pyfaq"] {
        let path = root.join("indexes").join(format!("{name}.toml"));
        let Ok(m) = Manifest::load(&path) else { continue };
        let base = path.parent().unwrap_or(Path::new("."));
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..3 {
            let t = Instant::now();
            match m.build(base, |_, _| {}) {
                Ok(r) => last = Some(r),
                Err(e) => {
                    println!("| {name} | not built: {e} |");
                    break;
                }
            }
            times.push(t.elapsed().as_secs_f64());
        }
        if let Some((_, st)) = last {
            times.sort_by(f64::total_cmp);
            println!(
                "| {name} | {} | {} | {} | {} | {} | {:.2} | {:.2} |",
                st.documents,
                st.chunks,
                st.terms,
                st.text_bytes,
                st.bytes,
                st.bytes as f64 / st.text_bytes as f64,
                times[times.len() / 2]
            );
        }
    }
}
