//! The CLI contracts: `search --jsonl` field names, per-line errors, `build` and `info`.

use serde_json::Value;

use crate::util::{data_dir, excerpt_index_file, groundgate};

const HIT_KEYS: [&str; 12] = [
    "rank", "score", "chunk", "source", "title", "page", "article", "section", "heading", "date", "link",
    "text",
];

#[test]
fn search_jsonl_contract() {
    let idx = excerpt_index_file("cli.ggi");
    let input = "{\"id\": 1, \"query\": \"대한민국 주권\"}\n\n{\"id\": \"b\", \"query\": \"\"}\nnot json\n{\"id\": 3}\n";
    let out = groundgate(&["search", "--index", idx.to_str().expect("path"), "--k", "3", "--jsonl"], input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let raw = String::from_utf8(out.stdout).expect("utf8");
    let lines: Vec<Value> = raw.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    // Field order is part of the contract: check it on the raw text of the first hit.
    let first = raw.lines().next().expect("line");
    assert!(first.starts_with("{\"id\":1,\"hits\":[{\"rank\":1,\"score\":"), "{first}");
    let mut at = 0;
    for key in HIT_KEYS {
        let pos = first[at..].find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("{key} out of order"));
        at += pos;
    }
    assert_eq!(lines.len(), 4);
    let hits = lines[0]["hits"].as_array().expect("hits");
    assert!(!hits.is_empty() && hits.len() <= 3);
    assert_eq!(lines[0]["id"], 1);
    for h in hits {
        let obj = h.as_object().expect("object");
        let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        let mut want = HIT_KEYS.to_vec();
        keys.sort_unstable();
        want.sort_unstable();
        assert_eq!(keys, want, "field names are the contract");
    }
    assert_eq!(hits[0]["article"], "제1조");
    assert_eq!(hits[0]["rank"], 1);
    assert_eq!(lines[1]["id"], "b");
    assert_eq!(lines[1]["error"]["code"], "invalid_argument");
    assert_eq!(lines[2]["error"]["code"], "invalid_argument");
    assert_eq!(lines[3]["id"], 3);
    assert!(lines[3]["error"]["message"].as_str().expect("message").contains("query"));
}

#[test]
fn search_table_and_bad_index() {
    let idx = excerpt_index_file("table.ggi");
    let out = groundgate(&["search", "--index", idx.to_str().expect("path"), "거주", "이전의", "자유"], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(text.contains("제14조"), "{text}");
    let bad = idx.with_extension("bad");
    std::fs::write(&bad, b"not an index at all").expect("write");
    let out = groundgate(&["search", "--index", bad.to_str().expect("path"), "x"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a groundgate index"));
}

#[test]
fn build_and_info() {
    let out_path = std::env::temp_dir().join(format!("gg-cli-build-{}.ggi", std::process::id()));
    let manifest = data_dir().join("excerpts.toml");
    let out = groundgate(
        &[
            "build",
            "--manifest",
            manifest.to_str().expect("p"),
            "--out",
            out_path.to_str().expect("p"),
            "--quiet",
        ],
        "",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).expect("utf8");
    for word in ["documents", "chunks", "terms", "bytes"] {
        assert!(summary.contains(word), "{summary}");
    }
    let out = groundgate(&["info", "--index", out_path.to_str().expect("p")], "");
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).expect("utf8").contains("checksums     ok"));
}
