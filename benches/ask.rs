//! `ask` bench: the push pipeline over all four default instances at once.
//!
//! * R&D FAQ questions (../shared/data, 343): share that get evidence, and among those, share whose
//!   gold page (the printed page of the answer's section that carries the question) is inside the
//!   injected text.
//! * devset (../shared/data/devset): paraphrased questions (Korean, English), pasted sentences and
//!   unrelated prompts, with gold locations.
//! * benches/data/unrelated_prompts.jsonl: 64 unrelated prompts written for this bench.
//!
//! Also writes every prompt as `ask --jsonl` input to target/ask-eval/*.jsonl, so the CLI and
//! `groundgate stats` can replay the run. Run with `./build.sh bench` or `cargo bench --bench ask`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use groundgate::deliver::Funnel;
use groundgate::engine::FixedClock;
use groundgate::{Answer, AskOptions, Config, Engine, InstanceOptions};
use serde_json::{Value, json};

/// Where the answer should come from.
#[derive(Clone, Debug)]
enum Gold {
    Pages(String, Vec<u64>),
    Article(u64),
    Source(String),
    Heading(String, String),
}

struct Item {
    id: String,
    prompt: String,
    gold: Vec<Gold>,
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn jsonl(p: &Path) -> Vec<Value> {
    read(p).lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("json")).collect()
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn gold_of(v: &Value) -> Vec<Gold> {
    let mut out = Vec::new();
    for g in v["gold"].as_array().into_iter().flatten() {
        let src = g["source"].as_str().unwrap_or_default().to_string();
        if let Some(p) = g["pages"].as_array() {
            out.push(Gold::Pages(src, p.iter().filter_map(Value::as_u64).collect()));
        } else if let Some(a) = g["articles"].as_array() {
            out.extend(a.iter().filter_map(Value::as_u64).map(Gold::Article));
        } else if let Some(h) = g["section"].as_str() {
            out.push(Gold::Heading(src, h.to_string()));
        } else {
            out.push(Gold::Source(src));
        }
    }
    out
}

fn hit_gold(answer: &Answer, gold: &[Gold]) -> bool {
    answer.evidence.iter().any(|e| {
        gold.iter().any(|g| match g {
            Gold::Pages(s, pages) => {
                &e.cite.source == s && e.cite.page.is_some_and(|p| pages.contains(&(p as u64)))
            }
            Gold::Article(n) => {
                e.cite.source == "constitution"
                    && e.cite.article.as_deref() == Some(&format!("제{n}조"))
                    && !e.cite.section.as_deref().unwrap_or("").starts_with("부칙")
            }
            Gold::Source(s) => &e.cite.source == s,
            Gold::Heading(s, h) => &e.cite.source == s && e.cite.heading.as_deref() == Some(h),
        })
    })
}

/// R&D FAQ: gold = the printed pages of the answer's section whose text carries the question.
fn rnd_faq(data: &Path) -> Vec<Item> {
    let dir = data.join("registry/pypi-korean-rnd-regs-mcp-0.61.0");
    let mut manuals: BTreeMap<String, Value> = BTreeMap::new();
    let mut out = Vec::new();
    for o in jsonl(&dir.join("rnd_manual_faq_ko.jsonl")) {
        let src = o["source"].as_str().unwrap_or_default().to_string();
        let m = manuals.entry(src.clone()).or_insert_with(|| {
            serde_json::from_str(&read(&dir.join(format!("{src}.json")))).expect("manual")
        });
        let q = o["question"].as_str().unwrap_or_default();
        let key: String = squash(q).chars().take(24).collect();
        let section = m["sections"].as_array().into_iter().flatten().find(|s| s["id"] == o["section"]);
        let pages: Vec<&Value> = section.and_then(|s| s["pages"].as_array()).into_iter().flatten().collect();
        let mut gold: Vec<u64> = pages
            .iter()
            .filter(|p| squash(p["text"].as_str().unwrap_or_default()).contains(&key))
            .filter_map(|p| p["printed_page"].as_u64())
            .collect();
        if gold.is_empty() {
            gold = pages.iter().filter_map(|p| p["printed_page"].as_u64()).collect();
        }
        out.push(Item {
            id: o["id"].as_str().unwrap_or_default().into(),
            prompt: q.into(),
            gold: vec![Gold::Pages(src, gold)],
        });
    }
    out
}

fn items(path: &Path) -> Vec<Item> {
    jsonl(path)
        .iter()
        .map(|v| Item {
            id: v["id"].as_str().unwrap_or_default().into(),
            prompt: v["prompt"].as_str().unwrap_or_default().into(),
            gold: gold_of(v),
        })
        .collect()
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data = std::env::var_os("GG_DATA").map(PathBuf::from).unwrap_or_else(|| root.join("../shared/data"));
    if !data.is_dir() {
        eprintln!("ask bench: {} not found (set GG_DATA)", data.display());
        std::process::exit(2);
    }
    let mut engine = Engine::new(Config::default()).expect("engine");
    engine.set_clock(Box::new(FixedClock(0)));
    let mut loaded = Vec::new();
    for name in ["rnd", "constitution", "lohelp", "pyfaq"] {
        let p = root.join(format!("indexes/{name}.ggi"));
        match std::fs::read(&p) {
            Ok(b) => {
                engine.add_instance(name, b, InstanceOptions::default()).expect("instance");
                loaded.push(name);
            }
            Err(_) => eprintln!("ask bench: {} missing (run ./build.sh)", p.display()),
        }
    }
    let dev = data.join("devset");
    let sets: Vec<(&str, Vec<Item>, bool)> = vec![
        ("R&D FAQ questions", rnd_faq(&data), true),
        ("devset questions ko", items(&dev.join("questions_ko.jsonl")), true),
        ("devset questions en", items(&dev.join("questions_en.jsonl")), true),
        ("devset sentences ko", items(&dev.join("sentences_ko.jsonl")), false),
        ("devset unrelated", items(&dev.join("unrelated.jsonl")), false),
        ("unrelated (benches/data)", items(&root.join("benches/data/unrelated_prompts.jsonl")), false),
    ];
    let out_dir = root.join("target/ask-eval");
    std::fs::create_dir_all(&out_dir).expect("out dir");
    // Calibration labels from the devset (the tuning set): questions name their instance,
    // unrelated prompts none. `groundgate calibrate --labels target/ask-eval/labels.jsonl …`
    let mut labels = String::new();
    for f in ["questions_ko.jsonl", "questions_en.jsonl", "unrelated.jsonl"] {
        for v in jsonl(&dev.join(f)) {
            let inst = match v["domain"].as_str() {
                Some("rnd_manual") => json!("rnd"),
                Some("constitution") => json!("constitution"),
                Some("libreoffice_help") => json!("lohelp"),
                Some("python_faq") => json!("pyfaq"),
                _ => Value::Null,
            };
            labels.push_str(&json!({"prompt": v["prompt"], "instance": inst}).to_string());
            labels.push('\n');
        }
    }
    std::fs::write(out_dir.join("labels.jsonl"), labels).expect("labels");
    let c = Config::default();
    println!(
        "ask over {} at once; Config::default() ({} / {} chars, judges on the top {}, evidence from up to {})\n",
        loaded.join(", "),
        c.instance_budget,
        c.total_budget,
        c.top_k,
        c.evidence_k
    );
    println!(
        "| set | prompts | got evidence | gold inside injected text (of those) | gold inside (of all) | push / pull / skip | median ask µs |"
    );
    println!("|---|---:|---:|---:|---:|---|---:|");
    let mut all = Funnel::default();
    for (name, set, has_gold) in &sets {
        let mut funnel = Funnel::default();
        let (mut got, mut gold_in) = (0usize, 0usize);
        let mut times = Vec::new();
        let mut lines = String::new();
        let mut misses = Vec::new();
        let mut routes = [0usize; 3];
        for it in set {
            let t = Instant::now();
            let a = engine.ask(&it.prompt, &AskOptions::default()).expect("ask");
            times.push(t.elapsed().as_nanos() as f64 / 1000.0);
            funnel.add(&a.log);
            all.add(&a.log);
            routes[match a.route {
                groundgate::Route::Push => 0,
                groundgate::Route::Pull => 1,
                groundgate::Route::Skip => 2,
            }] += 1;
            lines.push_str(&json!({"id": it.id, "prompt": it.prompt}).to_string());
            lines.push('\n');
            if !a.evidence.is_empty() {
                got += 1;
                if hit_gold(&a, &it.gold) {
                    gold_in += 1;
                } else if *has_gold {
                    misses.push(format!("    wrong  {}  {}", it.id, it.prompt));
                }
            } else if *has_gold {
                misses.push(format!("    none   {}  {}  ({})", it.id, it.prompt, a.reasons.join(",")));
            } else {
                // unrelated / sentences without evidence: fine for this bench.
            }
            if !*has_gold && !a.evidence.is_empty() && name.contains("unrelated") {
                misses.push(format!("    LEAK   {}  {}  ({})", it.id, it.prompt, a.reasons.join(",")));
            }
        }
        times.sort_by(f64::total_cmp);
        let n = set.len().max(1) as f64;
        let pct = |x: usize, d: usize| if d == 0 { 0.0 } else { 100.0 * x as f64 / d as f64 };
        println!(
            "| {name} | {} | {got} ({:.1}%) | {} | {} | {} / {} / {} | {:.0} |",
            set.len(),
            100.0 * got as f64 / n,
            if *has_gold { format!("{gold_in} ({:.1}%)", pct(gold_in, got)) } else { "–".into() },
            if *has_gold { format!("{:.1}%", pct(gold_in, set.len())) } else { "–".into() },
            routes[0],
            routes[1],
            routes[2],
            times.get(times.len() / 2).copied().unwrap_or(0.0)
        );
        let file = name.split_whitespace().collect::<Vec<_>>().join("_").replace(['(', ')', '/', '&'], "");
        std::fs::write(out_dir.join(format!("{file}.jsonl")), lines).expect("write");
        if std::env::var_os("GG_VERBOSE").is_some() {
            for m in misses.iter().take(40) {
                println!("{m}");
            }
            print!("{}", funnel.render());
        }
    }
    println!("\nfunnel over all prompts above:\n```\n{}```", all.render());
    println!(
        "replay: groundgate ask --index indexes/{{rnd,constitution,lohelp,pyfaq}}.ggi --jsonl < target/ask-eval/<set>.jsonl > log.jsonl; groundgate stats log.jsonl"
    );
}
