//! Frozen format-version fixtures: every version this build claims to read must still open and
//! give the same hits it gave when it was frozen (tests/fixtures/vN/). To freeze a new version:
//! `groundgate build --manifest tests/data/excerpts.toml --out tests/fixtures/vN/excerpts.ggi`, then
//! `groundgate search --index … --k 3 --jsonl < tests/fixtures/queries.jsonl > tests/fixtures/vN/expected.jsonl`.

use std::path::Path;

use groundgate::{Index, index, search};
use serde_json::Value;

#[test]
fn frozen_versions_still_read_and_rank_the_same() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let queries: Vec<Value> = std::fs::read_to_string(root.join("queries.jsonl"))
        .expect("queries")
        .lines()
        .map(|l| serde_json::from_str(l).expect("query json"))
        .collect();
    let mut versions = 0;
    for v in index::MIN_VERSION..=index::VERSION {
        let dir = root.join(format!("v{v}"));
        let bytes = std::fs::read(dir.join("excerpts.ggi")).unwrap_or_else(|e| panic!("fixture v{v}: {e}"));
        let idx = Index::open(&bytes[..]).expect("fixture opens");
        idx.verify().expect("fixture checksums");
        let expected = std::fs::read_to_string(dir.join("expected.jsonl")).expect("expected");
        // One expected line per query: a `zip` alone would stop at the shorter and check less.
        assert_eq!(expected.lines().count(), queries.len(), "v{v}: expected.jsonl vs queries.jsonl");
        assert!(!queries.is_empty());
        for (q, want) in queries.iter().zip(expected.lines()) {
            let hits = search::search(&idx, q["query"].as_str().expect("query"), 3).expect("search");
            let got = serde_json::json!({"id": q["id"], "hits": hits});
            let want: Value = serde_json::from_str(want).expect("expected json");
            assert_eq!(got, want, "v{v}, query {}", q["query"]);
        }
        versions += 1;
    }
    assert_eq!(versions, index::VERSION - index::MIN_VERSION + 1);
}
