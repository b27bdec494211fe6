//! Rerank bench (issue 15): on the devset's questions (Korean and English, each asked of the
//! instance that holds its first gold source), what reaches the model under three orderings of
//! the same BM25 candidate pool (top 20):
//!
//! * **BM25** alone;
//! * the **composite** ([`groundgate::rerank::composite`]) with weights tuned on the tuning half;
//! * **RRF** ([`groundgate::rerank::fusion`], k = 60) of BM25 with a genuinely different ranker
//!   implemented here: character 2- and 3-gram TF-IDF vectors (sublinear tf, smoothed idf, cosine)
//!   over every chunk of the instance, the way a host's own vector search would supply a list.
//!
//! Figures per ordering: gold in the top 4, gold inside the injected text (the top 4 cut to the
//! 1,800-character instance budget as `ask` cuts them: citation line + text, whole sentences), and
//! the share of repeated text in what is injected ([`groundgate::rerank::overlap::repeated_share`]).
//!
//! The devset files are shuffled (fixed seed); the first half of each is the tuning half (weight
//! grid, RRF k), the second half the report half; the held-out set (benches/data/heldout, written
//! apart from the code) is reported too. Run: `cargo bench --bench rerank`
//! (data: `$GG_DATA` or `../shared/data`; indexes: `indexes/*.ggi` from `./build.sh`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use groundgate::Index;
use groundgate::corpus::Citation;
use groundgate::deliver::{budget, context};
use groundgate::eval::gold::{Label, parse_labels};
use groundgate::rerank::composite::{self, CompositeOptions, DEFAULT_POOL, Weights};
use groundgate::rerank::fusion::{self, ChunkRef};
use groundgate::rerank::overlap::repeated_share;
use groundgate::search::{self, Scored};

const TOP: usize = 4;
const BUDGET: usize = 1_800;

type Idx = Index<Vec<u8>>;

/// Character n-gram TF-IDF vectors of every chunk of an instance.
struct NGrams {
    grams: HashMap<String, u32>,
    idf: Vec<f32>,
    docs: Vec<Vec<(u32, f32)>>,
}

fn grams_of(text: &str) -> HashMap<String, u32> {
    let cs: Vec<char> = text
        .split_whitespace()
        .flat_map(|w| std::iter::once(' ').chain(w.chars().flat_map(char::to_lowercase)))
        .chain(std::iter::once(' '))
        .collect();
    let mut out: HashMap<String, u32> = HashMap::new();
    for n in [2, 3] {
        for w in cs.windows(n) {
            if w.iter().filter(|c| **c != ' ').count() >= 2 {
                *out.entry(w.iter().collect()).or_default() += 1;
            }
        }
    }
    out
}

impl NGrams {
    fn new(index: &Idx) -> NGrams {
        let mut grams: HashMap<String, u32> = HashMap::new();
        let mut df: Vec<u32> = Vec::new();
        let mut raw: Vec<Vec<(u32, u32)>> = Vec::new();
        for c in 0..index.chunk_count() {
            let text = index.chunk(c).expect("chunk").text;
            let mut v: Vec<(u32, u32)> = grams_of(&text)
                .into_iter()
                .map(|(g, tf)| {
                    let n = grams.len() as u32;
                    let id = *grams.entry(g).or_insert(n);
                    if id as usize == df.len() {
                        df.push(0);
                    }
                    df[id as usize] += 1;
                    (id, tf)
                })
                .collect();
            v.sort_unstable();
            raw.push(v);
        }
        let n = raw.len() as f32;
        let idf: Vec<f32> = df.iter().map(|&d| ((1.0 + n) / (1.0 + d as f32)).ln() + 1.0).collect();
        let docs = raw
            .into_iter()
            .map(|v| {
                unit(v.into_iter().map(|(g, tf)| (g, (1.0 + (tf as f32).ln()) * idf[g as usize])).collect())
            })
            .collect();
        NGrams { grams, idf, docs }
    }

    /// The best `k` chunks by cosine with `query`, best first (ties by chunk id).
    fn top(&self, query: &str, k: usize) -> Vec<u32> {
        let q: HashMap<u32, f32> = unit(
            grams_of(query)
                .into_iter()
                .filter_map(|(g, tf)| {
                    self.grams.get(&g).map(|&id| (id, (1.0 + (tf as f32).ln()) * self.idf[id as usize]))
                })
                .collect(),
        )
        .into_iter()
        .collect();
        let mut scored: Vec<(f32, u32)> = self
            .docs
            .iter()
            .enumerate()
            .map(|(i, d)| (d.iter().filter_map(|(g, w)| q.get(g).map(|x| x * w)).sum::<f32>(), i as u32))
            .filter(|x| x.0 > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(k).map(|x| x.1).collect()
    }
}

fn unit(v: Vec<(u32, f32)>) -> Vec<(u32, f32)> {
    let norm = v.iter().map(|x| x.1 * x.1).sum::<f32>().sqrt();
    if norm == 0.0 { v } else { v.into_iter().map(|(g, w)| (g, w / norm)).collect() }
}

struct Query {
    label: Label,
    inst: usize,
    /// 0 devset tuning half, 1 devset report half, 2 held-out set.
    part: u8,
    terms: Vec<String>,
    pool: Vec<Scored>,
    ngram: Vec<u32>,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    n: usize,
    top4: usize,
    injected: usize,
    repeated: f64,
}

impl Tally {
    fn add(&mut self, index: &Idx, name: &str, label: &Label, order: &[u32]) {
        let chunks: Vec<(Citation, String)> = order
            .iter()
            .take(TOP)
            .map(|&c| {
                let ch = index.chunk(c).expect("chunk");
                (Citation::new(index.source(ch.source).expect("source"), ch.location), ch.text)
            })
            .collect();
        self.n += 1;
        self.top4 += label.hit(chunks.iter().map(|c| &c.0)) as usize;
        let mut used = 0;
        let mut injected: Vec<(&Citation, String)> = Vec::new();
        for (i, (cite, text)) in chunks.iter().enumerate() {
            let head = context::citation_line(i + 1, name, cite).chars().count();
            let room = BUDGET.saturating_sub(used);
            if head + 2 > room {
                break;
            }
            let text = context::neutralize(text);
            let Some(fitted) = budget::fit(&text, room - head - 1) else { break };
            used += head + fitted.chars().count() + 1;
            injected.push((cite, fitted.to_string()));
        }
        self.injected += label.hit(injected.iter().map(|x| x.0)) as usize;
        self.repeated += repeated_share(&injected.iter().map(|x| x.1.as_str()).collect::<Vec<_>>());
    }

    fn row(&self, name: &str) -> String {
        let pct = |x: usize| 100.0 * x as f64 / self.n.max(1) as f64;
        format!(
            "| {name} | {} | {:.1}% | {:.1}% | {:.2}% |",
            self.n,
            pct(self.top4),
            pct(self.injected),
            100.0 * self.repeated / self.n.max(1) as f64
        )
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Method {
    Bm25,
    Composite(Weights),
    Rrf(u32),
}

fn order(m: Method, index: &Idx, name: &str, q: &Query) -> Vec<u32> {
    match m {
        Method::Bm25 => q.pool.iter().map(|s| s.chunk).collect(),
        Method::Composite(w) => {
            let opts = CompositeOptions { weights: w, ..Default::default() };
            composite::rerank(index, &q.terms, &q.pool, &opts)
                .expect("rerank")
                .iter()
                .map(|c| c.chunk)
                .collect()
        }
        Method::Rrf(k) => {
            let theirs: Vec<ChunkRef> = q
                .ngram
                .iter()
                .map(|&c| ChunkRef::of(name, c, &index.chunk(c).expect("chunk").text))
                .collect();
            fusion::fuse_instance(index, name, &q.pool, &theirs, k)
                .expect("fuse")
                .iter()
                .map(|f| f.reference.chunk)
                .collect()
        }
    }
}

fn tally(m: Method, insts: &[(String, Idx)], qs: &[&Query]) -> Tally {
    let mut t = Tally::default();
    for q in qs {
        let (name, index) = &insts[q.inst];
        t.add(index, name, &q.label, &order(m, index, name, q));
    }
    t
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data = std::env::var_os("GG_DATA").map(PathBuf::from).unwrap_or_else(|| root.join("../shared/data"));
    let dev = data.join("devset");
    if !dev.is_dir() {
        eprintln!("rerank bench: {} not found (set GG_DATA)", dev.display());
        std::process::exit(2);
    }
    let mut insts: Vec<(String, Idx)> = Vec::new();
    for name in ["rnd", "constitution", "lohelp", "pyfaq"] {
        let p = root.join(format!("indexes/{name}.ggi"));
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e} (run ./build.sh)", p.display()));
        insts.push((name.to_string(), Index::open(bytes).expect("index")));
    }
    let sources: Vec<Vec<String>> = insts
        .iter()
        .map(|(_, ix)| (0..ix.source_count()).map(|s| ix.source(s).expect("source").id).collect())
        .collect();
    eprintln!("building character n-gram vectors …");
    let ngrams: Vec<NGrams> = insts.iter().map(|(_, ix)| NGrams::new(ix)).collect();
    let mut sets: Vec<(&str, Vec<Query>)> = Vec::new();
    let heldout = root.join("benches/data/heldout");
    for (set, dir, file) in [
        ("ko", &dev, "questions_ko.jsonl"),
        ("en", &dev, "questions_en.jsonl"),
        ("ko", &heldout, "questions_ko.jsonl"),
        ("en", &heldout, "questions_en.jsonl"),
    ] {
        let held = dir == &heldout;
        let path: &Path = &dir.join(file);
        let text = std::fs::read_to_string(path).expect("devset file");
        let labels = parse_labels(file, &text).expect("labels");
        let half = labels.len() / 2;
        let mut qs = Vec::new();
        for (i, label) in labels.into_iter().enumerate() {
            let Some(first) = label.gold.first() else { continue };
            let Some(inst) = sources.iter().position(|s| s.contains(&first.source)) else {
                eprintln!("{}: no instance holds {}", label.id, first.source);
                continue;
            };
            let index = &insts[inst].1;
            let terms = search::query_terms(index, &label.prompt);
            let pool = search::top_k(index, &terms, DEFAULT_POOL).expect("search");
            let ngram = ngrams[inst].top(&label.prompt, DEFAULT_POOL);
            qs.push(Query {
                label,
                inst,
                part: if held {
                    2
                } else if i < half {
                    0
                } else {
                    1
                },
                terms,
                pool,
                ngram,
            });
        }
        sets.push((set, qs));
    }
    let all: Vec<&Query> = sets.iter().flat_map(|s| s.1.iter()).collect();
    let part = |p: u8| -> Vec<&Query> { all.iter().copied().filter(|q| q.part == p).collect() };
    let (tune, report, held) = (part(0), part(1), part(2));

    // Tuning: the weight grid, best by gold inside the injected text, then least repeated text,
    // then the smallest total weight; RRF's k likewise.
    let steps = [0.0, 1.0, 2.0];
    let mut best: Option<(Weights, Tally)> = None;
    for &depth in &steps {
        for &diversity in &steps {
            for &clarity in &steps {
                for &authority in &[0.0, 1.0] {
                    for &recency in &[0.0, 1.0] {
                        let w = Weights { depth, diversity, clarity, authority, recency };
                        let t = tally(Method::Composite(w), &insts, &tune);
                        let sum = |w: &Weights| w.named().iter().map(|x| x.1).sum::<f32>();
                        let better = best.as_ref().is_none_or(|(bw, bt)| {
                            (t.injected, t.top4) > (bt.injected, bt.top4)
                                || (t.injected, t.top4) == (bt.injected, bt.top4)
                                    && (t.repeated < bt.repeated - 1e-9
                                        || (t.repeated - bt.repeated).abs() <= 1e-9 && sum(&w) < sum(bw))
                        });
                        if better {
                            best = Some((w, t));
                        }
                    }
                }
            }
        }
    }
    let Some((w, _)) = best else { return };
    let mut best_k = (fusion::DEFAULT_K, tally(Method::Rrf(fusion::DEFAULT_K), &insts, &tune));
    for k in [1, 10, 30, 100] {
        let t = tally(Method::Rrf(k), &insts, &tune);
        if (t.injected, t.top4) > (best_k.1.injected, best_k.1.top4) {
            best_k = (k, t);
        }
    }
    println!(
        "tuned on {} questions: composite weights depth {} · diversity {} · clarity {} · authority {} · recency {}; RRF k {}\n",
        tune.len(),
        w.depth,
        w.diversity,
        w.clarity,
        w.authority,
        w.recency,
        best_k.0
    );
    let methods: Vec<(String, Method)> = vec![
        ("BM25 alone".into(), Method::Bm25),
        ("composite, Weights::default()".into(), Method::Composite(Weights::default())),
        ("composite, tuned in this run".into(), Method::Composite(w)),
        (format!("RRF k = {} with char 2–3-gram TF-IDF", fusion::DEFAULT_K), Method::Rrf(fusion::DEFAULT_K)),
        (format!("RRF k = {} (tuned) with char 2–3-gram TF-IDF", best_k.0), Method::Rrf(best_k.0)),
        ("char 2–3-gram TF-IDF alone".into(), Method::Rrf(0)),
    ];
    for (title, part) in [
        ("devset, tuning half", &tune),
        ("devset, report half", &report),
        ("held-out set (benches/data/heldout)", &held),
    ] {
        println!("### {title}\n");
        println!(
            "| ordering | set | questions | gold in top 4 | gold inside injected text | repeated text injected |"
        );
        println!("|---|---|---:|---:|---:|---:|");
        for (name, m) in &methods {
            for set in ["ko", "en", "all"] {
                let qs: Vec<&Query> = part
                    .iter()
                    .copied()
                    .filter(|q| {
                        set == "all"
                            || sets.iter().any(|(s, v)| *s == set && v.iter().any(|x| std::ptr::eq(x, *q)))
                    })
                    .collect();
                let t = if *m == Method::Rrf(0) { ngram_alone(&insts, &qs) } else { tally(*m, &insts, &qs) };
                println!("{}", t.row(&format!("{name} | {set}")));
            }
        }
        println!();
    }
}

/// The n-gram ranker's own list (what the host would supply), for reference.
fn ngram_alone(insts: &[(String, Idx)], qs: &[&Query]) -> Tally {
    let mut t = Tally::default();
    for q in qs {
        let (name, index) = &insts[q.inst];
        t.add(index, name, &q.label, &q.ngram);
    }
    t
}
