//! The four default instances, built by `./build.sh` from the package registries. These tests are
//! `#[ignore]`d for a plain `cargo test`; `./build.sh test` sets GG_INDEXES and GG_INSTANCES and runs
//! them with `--include-ignored`, and without those variables they fail rather than pass unchecked.

use serde_json::Value;

use crate::util::groundgate;

fn env() -> (String, String) {
    match (std::env::var("GG_INDEXES"), std::env::var("GG_INSTANCES")) {
        (Ok(d), Ok(n)) => (d, n),
        _ => panic!("GG_INDEXES and GG_INSTANCES must name the default indexes (./build.sh test sets them)"),
    }
}

#[test]
#[ignore = "needs the default indexes: ./build.sh test runs it"]
fn default_indexes_answer_the_search_contract() {
    let (dir, names) = env();
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

#[test]
#[ignore = "needs the default indexes: ./build.sh test runs it"]
fn the_default_gate_routes_the_three_kinds_of_prompt() {
    let (dir, names) = env();
    let names: Vec<&str> = names.split_whitespace().collect();
    if !["rnd", "constitution"].iter().all(|n| names.contains(n)) {
        panic!("this test needs the rnd and constitution instances; GG_INSTANCES = {names:?}");
    }
    let mut args = vec!["ask".to_string(), "--now".into(), "0".into(), "--jsonl".into(), "--index".into()];
    args.extend(names.iter().map(|n| format!("{dir}/{n}.ggi")));
    let input = concat!(
        "{\"id\": 1, \"prompt\": \"연구수당은 얼마까지 계상할 수 있나요?\"}\n",
        "{\"id\": 2, \"prompt\": \"대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 나온다.\"}\n",
        "{\"id\": 3, \"prompt\": \"오늘 날씨 어때\"}\n",
        "{\"id\": 4, \"prompt\": \"안녕하세요 반갑습니다\"}\n",
        "{\"id\": 5, \"prompt\": \"헌법 20조\"}\n",
        "{\"id\": 6, \"prompt\": \"연구수당최대몇프로\"}\n",
        "{\"id\": 7, \"prompt\": \"Write a JavaScript function that groups a list of objects by a key\"}\n",
    );
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = groundgate(&argv, input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!((v[0]["route"].as_str(), v[0]["kind"].as_str()), (Some("push"), Some("question")), "{}", v[0]);
    assert!(v[0]["evidence"][0]["source"].as_str().is_some_and(|s| s.starts_with("manual_")), "{}", v[0]);
    assert_eq!((v[1]["route"].as_str(), v[1]["kind"].as_str()), (Some("pull"), Some("sentence")), "{}", v[1]);
    assert_eq!(v[1]["hints"][0]["tool"], "search", "{}", v[1]);
    assert_eq!(v[1]["hints"][0]["arguments"]["instance"], "constitution", "{}", v[1]);
    assert!(v[1]["evidence"].as_array().is_some_and(Vec::is_empty));
    assert_eq!(
        (v[2]["route"].as_str(), v[2]["kind"].as_str()),
        (Some("skip"), Some("unrelated")),
        "{}",
        v[2]
    );
    // A greeting ends like a document sentence; it is small talk, asked of no index.
    assert_eq!(
        (v[3]["route"].as_str(), v[3]["reasons"][0].as_str()),
        (Some("skip"), Some("small_talk")),
        "{}",
        v[3]
    );
    assert_eq!(v[3]["log"]["instances"][0]["outcome"], "small_talk", "{}", v[3]);
    // A cited article comes first: not 제129조 "… 20일 …", nor another instance's page with a 20.
    assert_eq!(v[4]["route"], "push", "{}", v[4]);
    assert_eq!(
        (v[4]["evidence"][0]["instance"].as_str(), v[4]["evidence"][0]["article"].as_str()),
        (Some("constitution"), Some("제20조")),
        "{}",
        v[4]
    );
    // Korean typed without spaces is a question of three words, not one.
    assert_eq!((v[5]["route"].as_str(), v[5]["kind"].as_str()), (Some("push"), Some("question")), "{}", v[5]);
    assert_eq!(v[5]["evidence"][0]["instance"], "rnd", "{}", v[5]);
    // An English coding task is about none of the Korean instances (their readers write Korean),
    // whatever English words the LibreOffice help carries.
    assert!(v[6]["evidence"].as_array().is_some_and(Vec::is_empty), "{}", v[6]);
    for l in v[6]["log"]["instances"].as_array().expect("instances") {
        let korean = ["rnd", "constitution", "lohelp"].contains(&l["instance"].as_str().unwrap_or(""));
        assert_eq!(l["gate"]["other_language"].as_bool().unwrap_or(false), korean, "{l}");
    }
}
