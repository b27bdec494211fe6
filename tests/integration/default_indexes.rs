//! The four default instances, built by `./build.sh` from the package registries. `./build.sh test`
//! sets GG_INDEXES and GG_INSTANCES; a plain `cargo test` on a machine without them skips this.

use serde_json::Value;

use crate::util::groundgate;

#[test]
fn default_indexes_answer_the_search_contract() {
    let (Ok(dir), Ok(names)) = (std::env::var("GG_INDEXES"), std::env::var("GG_INSTANCES")) else {
        eprintln!("GG_INDEXES not set: default indexes not checked (./build.sh test checks them)");
        return;
    };
    let queries: &[(&str, &str, &str)] = &[
        ("rnd", "연구수당 상한", "manual_"),
        ("constitution", "농지 소작 금지", "constitution"),
        ("lohelp", "찾기 도구 모음", "ko/text/"),
        ("pyfaq", "Why must dictionary keys be immutable?", "design"),
    ];
    let mut checked = 0;
    for name in names.split_whitespace() {
        let path = format!("{dir}/{name}.ggi");
        let (_, q, source_prefix) = queries.iter().find(|(n, _, _)| *n == name).expect("known instance");
        let line = format!("{{\"id\": \"{name}\", \"query\": \"{q}\"}}\n");
        let out = groundgate(&["search", "--index", &path, "--k", "4", "--jsonl"], &line);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
        let hits = v["hits"].as_array().expect("hits");
        assert!(!hits.is_empty(), "{name}: no hits for {q}");
        assert!(
            hits[0]["source"].as_str().expect("source").starts_with(source_prefix),
            "{name}: {}",
            hits[0]
        );
        let info = groundgate(&["info", "--index", &path], "");
        assert!(info.status.success(), "{name}: info failed");
        checked += 1;
    }
    assert!(checked > 0, "GG_INSTANCES named no instance");
}
