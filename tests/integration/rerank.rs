//! Reranking (issue 15) over the excerpt index: the Korean REBEL prompt pinned as a snapshot, the
//! five recorded replies in tests/data/rebel applied (or refused) with citations intact, the
//! composite and RRF over real chunks.

use std::path::PathBuf;

use groundgate::Index;
use groundgate::rerank::composite::{self, CompositeOptions, Weights};
use groundgate::rerank::fusion::{self, ChunkRef};
use groundgate::rerank::rebel::{self, Lang, PromptDoc};
use groundgate::search::{self, Hit};

use crate::util::{data_dir, excerpt_index};

/// The worked example of docs/rerank.md.
const QUERY: &str = "기술료 납부 기한";

fn weights() -> Weights {
    Weights { depth: 1.0, diversity: 1.0, clarity: 1.0, authority: 0.5, recency: 0.5 }
}

fn rebel_dir() -> PathBuf {
    data_dir().join("rebel")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(rebel_dir().join(name)).expect("recorded file")
}

fn hits() -> Vec<Hit> {
    let index = Index::open(excerpt_index()).expect("open");
    search::search(&index, QUERY, 4).expect("search")
}

fn docs(hits: &[Hit]) -> Vec<PromptDoc> {
    hits.iter().map(|h| PromptDoc::of_hit("excerpts", h)).collect()
}

/// Compare with a checked-in snapshot; `GG_BLESS=1` rewrites it.
fn snapshot(name: &str, got: &str) {
    let path = rebel_dir().join(name);
    if std::env::var_os("GG_BLESS").is_some() {
        std::fs::write(&path, got).expect("bless");
    }
    let want = std::fs::read_to_string(&path).expect("snapshot (GG_BLESS=1 to write it)");
    assert_eq!(got, want, "{name} changed; review and rerun with GG_BLESS=1");
}

#[test]
fn korean_prompts_match_their_snapshots() {
    let h = hits();
    assert_eq!(h.iter().map(|h| h.chunk).collect::<Vec<_>>(), [4, 2, 5, 3], "the example's BM25 order");
    snapshot("prompt_one_turn_ko.txt", &rebel::one_turn(QUERY, &docs(&h), &weights(), Lang::Ko).unwrap());
    snapshot("prompt_two_turn_1_ko.txt", &rebel::two_turn_criteria(QUERY, Lang::Ko).unwrap());
    let criteria = rebel::parse_criteria(&read("reply_3_two_turn_1.txt")).unwrap();
    snapshot(
        "prompt_two_turn_2_ko.txt",
        &rebel::rerank_prompt(QUERY, &docs(&h), &criteria, Lang::Ko).unwrap(),
    );
}

#[test]
fn recorded_replies_are_applied_with_citations_intact() {
    let h = hits();
    let one = rebel::default_criteria(&weights(), Lang::Ko);
    let chunks = |v: &[Hit]| v.iter().map(|h| h.chunk).collect::<Vec<_>>();

    // 1: a Korean one-turn reply in order.
    let got = rebel::rerank_with(&h, &read("reply_1_one_turn_ko.txt"), &one).unwrap();
    assert_eq!(chunks(&got), [4, 2, 5, 3]);
    // 2: the model's listed order disagrees with its own scores; the composite decides.
    let r = rebel::parse_reply(&read("reply_2_one_turn_ko_order.txt"), h.len(), &one).unwrap();
    assert_eq!(r.order(), [1, 0, 2, 3]);
    let got = rebel::rerank_with(&h, &read("reply_2_one_turn_ko_order.txt"), &one).unwrap();
    assert_eq!(chunks(&got), [2, 4, 5, 3]);
    // Citations and texts travel unchanged.
    for g in &got {
        let orig = h.iter().find(|x| x.chunk == g.chunk).unwrap();
        assert_eq!(g, orig);
    }
    // 3 + 4: the two-turn strategy.
    let criteria = rebel::parse_criteria(&read("reply_3_two_turn_1.txt")).unwrap();
    let names: Vec<&str> = criteria.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["deadline_specificity", "legal_basis", "procedure"]);
    let got = rebel::rerank_with(&h, &read("reply_4_two_turn_2.txt"), &criteria).unwrap();
    assert_eq!(chunks(&got), [2, 4, 5, 3]);
    // 5: cut off mid-block; 6: a 0–10 scale used for a 0–5 criterion.
    for (file, kind) in [("reply_5_truncated.txt", "unclosed"), ("reply_6_out_of_range.txt", "out_of_range")]
    {
        let e = rebel::parse_reply(&read(file), h.len(), &one).unwrap_err();
        assert_eq!(e.kind(), kind, "{file}: {e}");
        let e = rebel::rerank_with(&h, &read(file), &one).unwrap_err();
        assert_eq!((e.code(), e.to_string().contains(kind)), ("invalid_argument", true), "{e}");
    }
    // A reply to another prompt (more documents) names unknown ids.
    let e = rebel::parse_reply(&read("reply_1_one_turn_ko.txt"), 3, &one).unwrap_err();
    assert_eq!(e.kind(), "unknown_id");
}

#[test]
fn composite_and_fusion_over_real_chunks() {
    let index = Index::open(excerpt_index()).expect("open");
    let terms = search::query_terms(&index, QUERY);
    let pool = search::top_k(&index, &terms, composite::DEFAULT_POOL).unwrap();
    let opts = CompositeOptions { weights: weights(), ..Default::default() };
    let got = composite::rerank(&index, &terms, &pool, &opts).unwrap();
    assert_eq!(got.len(), pool.len());
    let mut a: Vec<u32> = got.iter().map(|c| c.chunk).collect();
    let mut b: Vec<u32> = pool.iter().map(|s| s.chunk).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "a permutation of the pool");
    for c in &got {
        let p = c.properties;
        for v in [p.depth, p.diversity, p.clarity, p.authority, p.recency] {
            assert!((0.0..=5.0).contains(&v), "{c:?}");
        }
        assert!((0.0..=10.0).contains(&c.relevance));
    }
    // The same call gives the same bytes.
    let again = composite::rerank(&index, &terms, &pool, &opts).unwrap();
    assert_eq!(serde_json::to_string(&got).unwrap(), serde_json::to_string(&again).unwrap());

    // A host's list by references; a reference from another build is refused.
    let text = |c: u32| index.chunk(c).unwrap().text;
    let theirs = vec![ChunkRef::of("excerpts", 2, &text(2)), ChunkRef::of("excerpts", 0, &text(0))];
    let fused = fusion::fuse_instance(&index, "excerpts", &pool, &theirs, fusion::DEFAULT_K).unwrap();
    assert_eq!(fused[0].reference.chunk, 2, "rank 2 in ours and 1 in theirs beats rank 1 in ours alone");
    let stale = vec![ChunkRef { check: theirs[0].check ^ 1, ..theirs[0].clone() }];
    let e = fusion::fuse_instance(&index, "excerpts", &pool, &stale, 60).unwrap_err();
    assert!(e.to_string().contains("stale"), "{e}");
}

#[test]
fn ask_reorders_evidence_and_refuses_bad_references() {
    use groundgate::rerank::RerankOptions;
    use groundgate::{AskOptions, Config, Engine, InstanceOptions};
    let mut e = Engine::new(Config::default()).expect("engine");
    e.set_clock(Box::new(groundgate::engine::FixedClock(0)));
    e.add_instance("excerpts", excerpt_index().to_vec(), InstanceOptions::default()).expect("add");
    let prompt = "#excerpts 기술료 납부 기한은 언제까지인가요?";
    let plain = e.ask(prompt, &AskOptions::default()).expect("ask");
    assert!(!plain.evidence.is_empty());
    // The host ranks the engine's last candidate of the top 4 first: it is injected first.
    let index = Index::open(excerpt_index()).expect("open");
    let ranking = groundgate::search::Ranking::DEFAULT;
    let terms = groundgate::search::weighted_terms(&index, "기술료 납부 기한은 언제까지인가요?", ranking);
    let ours = groundgate::search::rank(&index, &terms, 4, ranking).expect("rank");
    let last = ours.last().expect("candidates").chunk;
    assert_ne!(last, ours[0].chunk, "the host's pick is not ours already");
    let host = ChunkRef::of("excerpts", last, &index.chunk(last).unwrap().text);
    let r = RerankOptions { ranking: vec![host.clone()], k: Some(1), ..Default::default() };
    let fused = e.ask(prompt, &AskOptions { rerank: Some(r), ..Default::default() }).expect("ask");
    assert_eq!(fused.route, plain.route, "the judges see the BM25 top k either way");
    assert_eq!(fused.log.instances[0].scores, plain.log.instances[0].scores);
    assert_eq!(fused.evidence[0].text, index.chunk(last).unwrap().text.trim());
    // Options cross JSON as hosts send them.
    let opts: AskOptions = serde_json::from_str(&format!(
        r#"{{"rerank": {{"ranking": ["{host}"], "weights": {{"diversity": 1}}, "today": "2026-11"}}}}"#
    ))
    .expect("json options");
    assert!(e.ask(prompt, &opts).is_ok());
    for bad in [
        r#"{"rerank": {"ranking": ["nowhere:1:00000000"]}}"#,
        r#"{"rerank": {"ranking": ["excerpts:3:00000000"]}}"#,
        r#"{"rerank": {"pool": 0, "weights": {}}}"#,
        r#"{"rerank": {"weights": {"depth": -1}}}"#,
        r#"{"rerank": {"weights": {}, "today": "soon"}}"#,
    ] {
        let opts: AskOptions = serde_json::from_str(bad).expect("json");
        let err = e.ask(prompt, &opts).unwrap_err();
        assert_eq!(err.code(), "invalid_argument", "{bad}: {err}");
    }
    assert!(serde_json::from_str::<AskOptions>(r#"{"rerank": {"ranking": ["x"]}}"#).is_err());

    // The detailed format explains each item's position; the short one stays as it was.
    let w = Weights { depth: 0.0, diversity: 1.0, clarity: 0.0, authority: 0.0, recency: 0.0 };
    let r = RerankOptions { ranking: vec![host], weights: Some(w), ..Default::default() };
    let detailed = AskOptions {
        rerank: Some(r.clone()),
        format: groundgate::deliver::Format::Detailed,
        ..Default::default()
    };
    let a = e.ask(prompt, &detailed).expect("ask");
    let line = a.evidence[0].rerank.as_deref().expect("explained");
    assert!(
        line.starts_with("rerank: rrf ") && line.contains("· composite ") && line.contains("1·diversity"),
        "{line}"
    );
    assert!(a.context.contains(line), "{}", a.context);
    assert!(a.evidence.iter().map(|x| x.chars).sum::<usize>() <= Config::default().instance_budget as usize);
    let short = e.ask(prompt, &AskOptions { rerank: Some(r), ..Default::default() }).expect("ask");
    assert!(short.evidence.iter().all(|x| x.rerank.is_none()) && !short.context.contains("rerank:"));
    assert!(!serde_json::to_string(&plain).unwrap().contains("\"rerank\""));
}

#[test]
fn cli_prints_the_prompt_and_applies_a_reply() {
    use crate::util::{excerpt_index_file, groundgate};
    let idx = excerpt_index_file("rebel.ggi");
    let idx = idx.to_str().expect("path");
    let w = r#"{"depth": 1, "diversity": 1, "clarity": 1, "authority": 0.5, "recency": 0.5}"#;
    let out = groundgate(&["rebel", "--index", idx, "--weights", w, "--", QUERY], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The same bytes as the library (and the snapshot), but the instance is the index's name.
    let docs: Vec<PromptDoc> = hits().iter().map(|h| PromptDoc::of_hit("excerpts", h)).collect();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        rebel::one_turn(QUERY, &docs, &weights(), Lang::Ko).unwrap()
    );
    let reply = rebel_dir().join("reply_2_one_turn_ko_order.txt");
    let out =
        groundgate(&["rebel", "--index", idx, "--weights", w, "--reply", reply.to_str().unwrap(), QUERY], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let chunks: Vec<u64> = lines.iter().map(|l| l["chunk"].as_u64().unwrap()).collect();
    assert_eq!(chunks, [2, 4, 5, 3]);
    assert_eq!(lines[0]["rank"], 1);
    let bad = rebel_dir().join("reply_5_truncated.txt");
    let out = groundgate(&["rebel", "--index", idx, "--reply", bad.to_str().unwrap(), QUERY], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unclosed"));
    let crit = rebel_dir().join("reply_3_two_turn_1.txt");
    let out = groundgate(&["rebel", "--index", idx, "--criteria", crit.to_str().unwrap(), QUERY], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("legal_basis=S"));
    let out = groundgate(&["rebel", "--index", idx, "--criteria-prompt", QUERY], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("<criteria>"));
    let out = groundgate(&["rebel", "--index", idx, "--weights", r#"{"depth": 99}"#, QUERY], "");
    assert_eq!(out.status.code(), Some(1));
}
