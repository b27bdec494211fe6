//! Router bench: builds the route-eval dev set from ../shared/data and benches/data, writes it to
//! target/route-eval/devset.jsonl, and evaluates the router on it — the form alone, and the full
//! verdict with the four default instances.
//!
//! The dev set: KorQuAD 1.0 dev and KLUE-STS questions, R&D FAQ and Debian FAQ (ko, en) questions,
//! KLUE-NLI premises, sentences from the R&D manuals and the constitution — with the final "?"
//! removed from every other question — plus the devset files (paraphrased questions, pasted
//! sentences, unrelated prompts) and the polite requests and unrelated prompts of benches/data.
//! Replay: `groundgate route-eval --labels target/route-eval/devset.jsonl --index indexes/*.ggi`.

use std::path::{Path, PathBuf};

use groundgate::engine::FixedClock;
use groundgate::eval::route::{Case, evaluate};
use groundgate::{Config, Engine, InstanceOptions};
use serde_json::{Value, json};

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn jsonl(p: &Path) -> Vec<Value> {
    read(p).lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("json")).collect()
}

struct Builder {
    cases: Vec<Case>,
    toggle: bool,
}

impl Builder {
    fn question(&mut self, id: String, q: &str, strip: bool) {
        let q = q.trim();
        let q = if strip && self.toggle { q.trim_end_matches(['?', '？']).trim_end() } else { q };
        if strip {
            self.toggle = !self.toggle;
        }
        self.cases.push(Case { id, prompt: q.to_string(), kind: "question".into(), polite: false });
    }

    fn sentence(&mut self, id: String, s: &str) {
        self.cases.push(Case { id, prompt: s.trim().to_string(), kind: "sentence".into(), polite: false });
    }
}

/// Sentences of a manual page: pieces ending in a document ending and a full stop.
fn page_sentences(text: &str) -> Vec<String> {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in flat.chars() {
        cur.push(ch);
        if ch == '.' && ["다.", "함.", "임.", "음.", "것.", "됨."].iter().any(|e| cur.ends_with(e)) {
            let s = cur
                .trim()
                .trim_start_matches(|c: char| !c.is_alphanumeric() && c != '「' && c != '(')
                .to_string();
            let n = s.chars().count();
            if (25..=200).contains(&n) && !s.contains('?') {
                out.push(s);
            }
            cur.clear();
        }
    }
    out
}

fn build(data: &Path, root: &Path) -> Vec<Case> {
    let mut b = Builder { cases: Vec::new(), toggle: true };
    // KorQuAD dev: every 20th question.
    let kq: Value =
        serde_json::from_str(&read(&data.join("via-fetch/korquad/KorQuAD_v1.0_dev.json"))).expect("korquad");
    let mut n = 0;
    for a in kq["data"].as_array().into_iter().flatten() {
        for p in a["paragraphs"].as_array().into_iter().flatten() {
            for q in p["qas"].as_array().into_iter().flatten() {
                if n % 20 == 0 {
                    b.question(format!("korquad-{n}"), q["question"].as_str().unwrap_or_default(), true);
                }
                n += 1;
            }
        }
    }
    // KLUE-STS: every sentence that ends in "?".
    let sts: Value =
        serde_json::from_str(&read(&data.join("via-fetch/klue/klue-sts-v1.1_dev.json"))).expect("sts");
    for (i, r) in sts.as_array().into_iter().flatten().enumerate() {
        for k in ["sentence1", "sentence2"] {
            let s = r[k].as_str().unwrap_or_default();
            if s.trim_end().ends_with('?') {
                b.question(format!("klue-sts-{i}-{k}"), s, true);
            }
        }
    }
    // R&D FAQ questions: every other one.
    let faq = jsonl(&data.join("registry/pypi-korean-rnd-regs-mcp-0.61.0/rnd_manual_faq_ko.jsonl"));
    for (i, o) in faq.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
        b.question(format!("rnd-faq-{i}"), o["question"].as_str().unwrap_or_default(), true);
    }
    // Debian FAQ ko and en: headings that are questions.
    for lang in ["ko", "en"] {
        for o in jsonl(&data.join(format!("registry/deb-debian-faq-11.1/debian_faq_{lang}.jsonl"))) {
            let h = o["heading"].as_str().unwrap_or_default();
            if h.trim_end().ends_with('?') {
                b.question(format!("debian-{lang}-{}", o["id"].as_str().unwrap_or_default()), h, true);
            }
        }
    }
    // KLUE-NLI: distinct premises, every third.
    let nli: Value =
        serde_json::from_str(&read(&data.join("via-fetch/klue/klue-nli-v1.1_dev.json"))).expect("nli");
    let mut seen = std::collections::BTreeSet::new();
    let mut k = 0;
    for r in nli.as_array().into_iter().flatten() {
        let p = r["premise"].as_str().unwrap_or_default();
        if seen.insert(p.to_string()) {
            if k % 3 == 0 {
                b.sentence(format!("klue-nli-{k}"), p);
            }
            k += 1;
        }
    }
    // Manual sentences: every 40th sentence of the seven manuals.
    let mut m = 0;
    for f in ["manual_body", "manual_b1", "manual_b2", "manual_b3", "manual_b4", "manual_case", "manual_eval"]
    {
        let d: Value = serde_json::from_str(&read(
            &data.join(format!("registry/pypi-korean-rnd-regs-mcp-0.61.0/{f}.json")),
        ))
        .expect("manual");
        for s in d["sections"].as_array().into_iter().flatten() {
            for p in s["pages"].as_array().into_iter().flatten() {
                for sent in page_sentences(p["text"].as_str().unwrap_or_default()) {
                    if m % 40 == 0 {
                        b.sentence(format!("{f}-{m}"), &sent);
                    }
                    m += 1;
                }
            }
        }
    }
    // Constitution: every other clause of the main text (lines starting 제N조 or ②…).
    let text = read(&data.join("registry/pypi-konlpy-0.6.0/kolaw/constitution.txt"));
    let mut c = 0;
    for line in text.lines().map(str::trim).filter(|l| l.chars().count() >= 15) {
        if line.contains("부칙") {
            break;
        }
        if line.starts_with('제') || line.starts_with(|ch: char| ('\u{2460}'..='\u{2473}').contains(&ch)) {
            if c % 2 == 0 {
                b.sentence(format!("constitution-{c}"), line);
            }
            c += 1;
        }
    }
    // The devset and benches/data.
    let dev = data.join("devset");
    for f in ["questions_ko.jsonl", "questions_en.jsonl", "sentences_ko.jsonl", "unrelated.jsonl"] {
        for v in jsonl(&dev.join(f)) {
            let prompt = v["prompt"].as_str().unwrap_or_default().to_string();
            let polite = ["주세요", "줘", "해줘", "알려줘"]
                .iter()
                .any(|e| prompt.trim_end_matches(['?', '.', ' ']).ends_with(e));
            b.cases.push(Case {
                id: v["id"].as_str().unwrap_or_default().into(),
                prompt,
                kind: v["kind"].as_str().unwrap_or_default().into(),
                polite,
            });
        }
    }
    for f in ["polite_requests.jsonl", "unrelated_prompts.jsonl"] {
        for v in jsonl(&root.join("benches/data").join(f)) {
            b.cases.push(Case {
                id: v["id"].as_str().unwrap_or_default().into(),
                prompt: v["prompt"].as_str().unwrap_or_default().into(),
                kind: v["kind"].as_str().unwrap_or_default().into(),
                polite: v["polite"].as_bool().unwrap_or(false),
            });
        }
    }
    b.cases
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data = std::env::var_os("GG_DATA").map(PathBuf::from).unwrap_or_else(|| root.join("../shared/data"));
    if !data.is_dir() {
        eprintln!("route bench: {} not found (set GG_DATA)", data.display());
        std::process::exit(2);
    }
    let cases = build(&data, &root);
    let dir = root.join("target/route-eval");
    std::fs::create_dir_all(&dir).expect("dir");
    let lines: String = cases
        .iter()
        .map(|c| {
            json!({"id": c.id, "kind": c.kind, "polite": c.polite, "prompt": c.prompt}).to_string() + "\n"
        })
        .collect();
    std::fs::write(dir.join("devset.jsonl"), lines).expect("write");
    let mut counts = std::collections::BTreeMap::new();
    for c in &cases {
        let src = c.id.split(['-', '_']).next().unwrap_or("").trim_end_matches(char::is_numeric).to_string();
        *counts.entry((c.kind.clone(), src)).or_insert(0usize) += 1;
    }
    println!("route-eval dev set: {} prompts → target/route-eval/devset.jsonl", cases.len());
    for ((k, s), n) in &counts {
        println!("  {k:<9} {s:<14} {n}");
    }
    let mut engine = Engine::new(Config::default()).expect("engine");
    engine.set_clock(Box::new(FixedClock(0)));
    for name in ["rnd", "constitution", "lohelp", "pyfaq"] {
        if let Ok(b) = std::fs::read(root.join(format!("indexes/{name}.ggi"))) {
            engine.add_instance(name, b, InstanceOptions::default()).expect("instance");
        }
    }
    let report = evaluate(&cases, Some(&mut engine)).expect("evaluate");
    println!();
    print!("{}", report.render(60));
}
