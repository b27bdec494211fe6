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
    // A field of the tool contract is refused on its line, not silently dropped.
    let input =
        "{\"id\": 1, \"query\": \"주권\", \"k\": 1}\n{\"id\": 2, \"query\": \"주권\", \"instance\": \"x\"}\n";
    let out = groundgate(&["search", "--index", idx.to_str().expect("path"), "--jsonl"], input);
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 2);
    for (line, field) in lines.iter().zip(["k", "instance"]) {
        let message = line["error"]["message"].as_str().expect("an error");
        assert!(message.contains(&format!("\"{field}\" is not a field of a search line")), "{message}");
    }
}

#[test]
fn ask_from_stdin_answers_every_line_it_can_and_names_the_others() {
    let idx = excerpt_index_file("stdin.ggi");
    let input = format!("헌법 개정 절차\n{}\n\n대통령 임기\n", "x".repeat(2 << 20));
    let out = groundgate(&["ask", "--index", idx.to_str().expect("path")], &input);
    let (text, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(text.matches("prompt:  ").count(), 2, "{text}");
    assert!(text.contains("prompt:  대통령 임기"), "the prompt after the bad line is answered");
    assert!(err.starts_with("groundgate: line 2: invalid prompt: 2097152 bytes"), "{err}");
    assert!(err.ends_with("groundgate: 1 of 3 prompts not answered (named above)\n"), "{err}");
}

#[test]
fn an_altered_index_is_refused_before_any_answer() {
    let idx = excerpt_index_file("altered.ggi");
    let bytes = std::fs::read(&idx).expect("read");
    let mut flipped = bytes.clone();
    let at = flipped.len() - 3;
    flipped[at] ^= 0x04;
    let mut appended = bytes;
    appended.extend_from_slice(b"extra");
    for (name, data, want) in [
        ("flipped.ggi", flipped, "checksum mismatch in section"),
        ("appended.ggi", appended, "5 bytes follow the last section"),
    ] {
        let path = idx.with_file_name(name);
        std::fs::write(&path, data).expect("write");
        let p = path.to_str().expect("path");
        for args in [
            &["ask", "--index", p, "--", "헌법 개정"][..],
            &["search", "--index", p, "주권"],
            &["grep", "--index", p, "주권"],
            &["sources", "--index", p],
            &["info", "--index", p],
        ] {
            let out = groundgate(args, "");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert!(out.stdout.is_empty() && err.contains(want), "{args:?}: {err}");
        }
    }
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
    // Refused from its first bytes, with its path: an endless file that is no index (read whole,
    // it would never end), for every command that opens an index.
    // A control character in a message is shown escaped (here in a path; from a crafted index,
    // in a source id): no terminal escape sequence reaches stderr.
    let out = groundgate(&["search", "--index", "\u{1b}[31mx.ggi", "x"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.starts_with("groundgate: \\u{1b}[31mx.ggi: ") && !err.contains('\u{1b}'),
        "{err}"
    );
    for args in [
        &["search", "--index", "/dev/zero", "x"][..],
        &["info", "--index", "/dev/zero"],
        &["chunks", "--index", "/dev/zero"],
    ] {
        let out = groundgate(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("/dev/zero: ") && err.contains("not a groundgate index"), "{args:?}: {err}");
    }
}

#[test]
fn operating_system_errors_are_worded_as_the_npm_bin_words_them() {
    // Lower case, without Rust's "(os error N)": the same line from both CLIs (tests/npm).
    let dir = std::env::temp_dir();
    let dir = dir.to_str().expect("path");
    for (args, want) in [
        (
            &["stats", "/no/such/log.jsonl"][..],
            "groundgate: /no/such/log.jsonl: no such file or directory\n".to_string(),
        ),
        (
            &["search", "--index", "/no/such/x.ggi", "x"],
            "groundgate: /no/such/x.ggi: no such file or directory\n".into(),
        ),
        (&["stats", dir], format!("groundgate: {dir}: is a directory\n")),
    ] {
        let out = groundgate(args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_device_given_as_a_file_is_refused_before_it_is_read() {
    // Read whole, /dev/zero would never end: labels, settings, logs, REBEL criteria and replies.
    let idx = excerpt_index_file("device.ggi");
    let idx = idx.to_str().expect("path");
    for args in [
        &["ask", "--index", idx, "--config", "/dev/zero", "x"][..],
        &["route-eval", "--labels", "/dev/zero", "--index", idx],
        &["calibrate", "--index", idx, "--labels", "/dev/zero"],
        &["audit", "--index", idx, "--labels", "/dev/zero"],
        &["curve", "--index", idx, "--labels", "/dev/zero"],
        &["stats", "/dev/zero"],
        &["rebel", "--index", idx, "--criteria", "/dev/zero", "헌법"],
        &["rebel", "--index", idx, "--reply", "/dev/zero", "헌법"],
    ] {
        let out = groundgate(args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "groundgate: /dev/zero: a device, not a file\n",
            "{args:?}"
        );
    }
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
    // An --out that is no regular file (a directory here; a pipe, device or link alike) is
    // refused before the build, not replaced by the index.
    let dir = std::env::temp_dir().join(format!("gg-cli-build-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let out = groundgate(
        &["build", "--manifest", manifest.to_str().expect("p"), "--out", dir.to_str().expect("p"), "--quiet"],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("not a regular file"), "{err}");
    assert!(dir.is_dir());
}

#[test]
fn ask_jsonl_contract_stats_and_calibrate() {
    let idx = excerpt_index_file("ask.ggi");
    let idx = idx.to_str().expect("path");
    // An empty prompt on the command line is an error with a message, not silence.
    let out = groundgate(&["ask", "--index", idx, "--", ""], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid prompt: empty"));
    // Human output names routes and outcomes as the JSON does.
    let out = groundgate(
        &["ask", "--index", idx, "--now", "0", "--", "대한민국의 주권은 누구에게 있나요? #excerpts"],
        "",
    );
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(text.contains("route:   push (question)") && text.contains("injected"), "{text}");
    let input = concat!(
        "{\"id\": 1, \"prompt\": \"대한민국의 주권은 누구에게 있나요? #excerpts\"}\n",
        "{\"id\": 2, \"prompt\": \"오늘 점심 뭐 먹을까\"}\n",
        "{\"id\": 3, \"prompt\": \"\"}\n",
        "{\"id\": 4, \"prompt\": \"헌법 제1조 주권 국민\", \"session\": \"s\"}\n",
        "{\"id\": 5, \"prompt\": \"헌법 제1조 주권 국민\", \"session\": \"s\"}\n",
    );
    let out = groundgate(&["ask", "--index", idx, "--now", "0", "--jsonl"], input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let raw = String::from_utf8(out.stdout).expect("utf8");
    let lines: Vec<&str> = raw.lines().collect();
    assert_eq!(lines.len(), 5);
    let mut at = 0;
    for key in ["id", "route", "kind", "reasons", "evidence", "context", "log"] {
        at += lines[0][at..]
            .find(&format!("\"{key}\":"))
            .unwrap_or_else(|| panic!("{key} missing or out of order"));
    }
    let v: Vec<Value> = lines.iter().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(v[0]["route"], "push");
    let ev = &v[0]["evidence"][0];
    for key in [
        "instance", "source", "title", "page", "article", "section", "heading", "date", "link", "score",
        "chars", "text",
    ] {
        assert!(ev.get(key).is_some(), "evidence lacks {key}");
    }
    assert_eq!(ev["article"], "제1조");
    assert!(v[0]["context"].as_str().expect("context").contains("[1] "));
    assert_eq!(v[1]["route"], "skip");
    assert_eq!(v[2]["error"]["code"], "invalid_argument");
    let skipped = v[4]["log"]["instances"][0]["dedup_skipped"].as_array().map_or(0, Vec::len);
    assert_eq!(v[3]["route"], "push", "{}", lines[3]);
    assert!(skipped > 0, "the second ask in session s must skip what the first showed");
    // stats reads that output.
    let log = std::env::temp_dir().join(format!("gg-ask-log-{}.jsonl", std::process::id()));
    std::fs::write(&log, &raw).expect("write");
    let out = groundgate(&["stats", log.to_str().expect("p")], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf8");
    for row in [
        "prompts                    4",
        "not relevant",
        "relevant",
        "sufficient",
        "forced by tag",
        "injected",
        "instances per injection",
    ] {
        assert!(text.contains(row), "{row} missing in\n{text}");
    }
    // calibrate on a few labelled prompts.
    let labels = std::env::temp_dir().join(format!("gg-labels-{}.jsonl", std::process::id()));
    std::fs::write(
        &labels,
        "{\"prompt\": \"대한민국의 주권은 누구에게 있나요\", \"instance\": \"excerpts\", \"gold\": [{\"source\": \"constitution\", \"articles\": [1]}]}\n\
         {\"prompt\": \"헌법 몇 조가 거주 이전의 자유야\", \"instance\": \"excerpts\", \"gold\": [{\"source\": \"constitution\", \"articles\": [14]}]}\n\
         {\"prompt\": \"python 점심 메뉴 추천\", \"instance\": null}\n",
    )
    .expect("labels");
    let out = groundgate(
        &["calibrate", "--index", idx, "--labels", labels.to_str().expect("p"), "--folds", "2"],
        "",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(text.contains("3 labelled prompts (2 questions, 0 sentences, 1 unrelated)"), "{text}");
    assert!(text.contains("| relevance |") && text.contains("held-out folds"), "{text}");
    // Options out of range are refused before any work (a NaN or huge penalty never settled; more
    // folds than prompts fitted empty ones for ever).
    for (flag, value, says) in [
        ("--l2", "NaN", "--l2 NaN"),
        ("--l2", "1e308", "--l2"),
        ("--folds", "1000000", "--folds 1000000"),
        ("--folds", "0", "--folds 0"),
        ("--relevance-precision", "1", "--relevance-precision"),
    ] {
        let out = groundgate(
            &["calibrate", "--index", idx, "--labels", labels.to_str().expect("p"), flag, value],
            "",
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(says), "{flag} {value}: {err}");
    }
    // --fit-phrasing writes the phrasing table fitted on the labels, in the bundled table's format.
    let table = std::env::temp_dir().join(format!("gg-phrasing-{}.tsv", std::process::id()));
    let l = labels.to_str().expect("p");
    let out = groundgate(
        &[
            "calibrate",
            "--index",
            idx,
            "--labels",
            l,
            "--folds",
            "2",
            "--fit-phrasing",
            table.to_str().expect("p"),
        ],
        "",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tsv = std::fs::read_to_string(&table).expect("phrasing table");
    assert!(tsv.contains("from 3 labelled prompts") && tsv.contains("\nbias\t"), "{tsv}");
    groundgate::gate::Phrasing::parse(&tsv).expect("parses");
    let _ = std::fs::remove_file(&table);
    // audit and curve on the same labels.
    let anchors = std::env::temp_dir().join(format!("gg-anchors-{}.toml", std::process::id()));
    let l = labels.to_str().expect("p");
    let out = groundgate(
        &["audit", "--index", idx, "--labels", l, "--write-anchors", anchors.to_str().expect("p")],
        "",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(text.contains("| excerpts | 2 |"), "{text}");
    assert!(std::fs::read_to_string(&anchors).expect("anchors").contains("anchors = ["));
    let out =
        groundgate(&["curve", "--index", idx, "--labels", l, "--budgets", "100,1800", "--top", "4"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(text.contains("| 1800 |") && text.contains("knee (top 4)"), "{text}");
    // A label no loaded instance holds is refused, naming it, as calibrate does (it was left out
    // of curve's and audit's figures without a word).
    let ghost = std::env::temp_dir().join(format!("gg-labels-ghost-{}.jsonl", std::process::id()));
    std::fs::write(
        &ghost,
        "{\"id\": \"g1\", \"prompt\": \"연구수당 한도\", \"gold\": [{\"source\": \"manual_body\", \"pages\": [1]}]}\n\
         {\"id\": \"g2\", \"prompt\": \"점심 메뉴\", \"kind\": \"unrelated\"}\n",
    )
    .expect("labels");
    for command in ["curve", "audit", "calibrate"] {
        let mut args = vec![command, "--index", idx, "--labels", ghost.to_str().expect("p")];
        if command == "calibrate" {
            args.extend(["--folds", "2"]);
        }
        let out = groundgate(&args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("g1: no loaded instance holds its gold source"),
            "{command}: {err}"
        );
    }
    let _ = std::fs::remove_file(&ghost);
    assert!(!groundgate(&["curve", "--index", idx, "--labels", l, "--budgets", "0"], "").status.success());
}

#[test]
fn rules_and_route_eval() {
    for (lang, needle) in [("ko", "근거 배달 규칙"), ("en", "Evidence delivery rules")] {
        let out = groundgate(&["rules", "--lang", lang], "");
        assert!(out.status.success());
        assert!(String::from_utf8(out.stdout).expect("utf8").contains(needle));
    }
    assert!(!groundgate(&["rules", "--lang", "fr"], "").status.success());
    let idx = excerpt_index_file("route.ggi");
    let labels = data_dir().join("route_labels.jsonl");
    let out = groundgate(
        &["route-eval", "--labels", labels.to_str().expect("p"), "--index", idx.to_str().expect("p")],
        "",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(text.contains("form accuracy 7/7 = 100.0%"), "{text}");
    assert!(text.contains("polite requests → question 2/2"), "{text}");
    assert!(text.contains("sentences routed push: 0"), "{text}");
    // Several label files, as calibrate, audit and curve take them: their prompts together.
    let l = labels.to_str().expect("p");
    let out = groundgate(&["route-eval", "--labels", l, l, "--index", idx.to_str().expect("p")], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(text.contains("form accuracy 14/14 = 100.0%"), "{text}");
}

#[test]
fn chunks_lists_every_chunk_with_its_citation() {
    let idx = excerpt_index_file("chunks.ggi");
    let out = groundgate(&["chunks", "--index", idx.to_str().expect("path")], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .expect("utf8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let index = groundgate::Index::open(crate::util::excerpt_index()).expect("open");
    assert_eq!(lines.len() as u32, index.chunk_count());
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["chunk"], i);
        let keys: Vec<&str> = l.as_object().expect("object").keys().map(String::as_str).collect();
        assert_eq!(keys.len(), HIT_KEYS.len() - 1, "{keys:?}");
        let text = index.chunk(i as u32).expect("chunk").text;
        assert_eq!(l["ref"], groundgate::rerank::ChunkRef::of("excerpts", i as u32, &text).to_string());
        assert_eq!(l["text"], index.chunk(i as u32).expect("chunk").text.as_str());
    }
    // The search fixture's 제14조 hit is the same chunk, with the same citation.
    let search = groundgate(
        &["search", "--index", idx.to_str().expect("path"), "--k", "1", "--jsonl"],
        "{\"id\":1,\"query\":\"거주 이전의 자유\"}\n",
    );
    let hit: Value = serde_json::from_slice(&search.stdout).expect("json");
    let hit = &hit["hits"][0];
    let line = &lines[hit["chunk"].as_u64().expect("chunk") as usize];
    for key in &HIT_KEYS[3..] {
        assert_eq!(line[key], hit[key], "{key}");
    }
}

#[test]
fn timings_go_to_stderr_and_leave_stdout_alone() {
    let idx = excerpt_index_file("timings.ggi");
    let p = idx.to_str().expect("path");
    let input = "{\"id\":1,\"query\":\"대한민국 주권\"}\n{\"id\":2,\"query\":\"거주 이전\"}\n";
    let plain = groundgate(&["search", "--index", p, "--jsonl"], input);
    let timed = groundgate(&["search", "--index", p, "--jsonl", "--timings"], input);
    assert_eq!(plain.stdout, timed.stdout);
    let t: Value = serde_json::from_slice(&timed.stderr).expect("json");
    assert_eq!(t["timings"]["calls"], 2);
    let asked = groundgate(
        &["ask", "--index", p, "--jsonl", "--timings", "--now", "0"],
        "{\"id\":1,\"prompt\":\"대한민국의 주권은?\"}\n",
    );
    assert!(asked.status.success());
    let t: Value = serde_json::from_slice(&asked.stderr).expect("json");
    assert_eq!(t["timings"]["calls"], 1);
    assert!(t["timings"]["median_us"].as_f64().expect("median") > 0.0);
    // --timings needs --jsonl.
    assert!(!groundgate(&["search", "--index", p, "--timings", "x"], "").status.success());
}

#[test]
fn misplaced_words_are_usage_errors() {
    let idx = excerpt_index_file("misplaced.ggi");
    let other = excerpt_index_file("misplaced2.ggi");
    let (idx, other) = (idx.to_str().expect("path"), other.to_str().expect("path"));
    let line = "{\"id\":1,\"query\":\"주권\",\"text\":\"주권\",\"prompt\":\"주권\"}\n";
    let cases: [(&[&str], &str); 22] = [
        // `--index a b`: b is read as a query word (each index needs its own --index).
        (&["search", "--index", idx, other, "주권"], "is an index file, not a word of the query"),
        (&["search", "--index", idx, other, "--jsonl"], "is an index file, not a word of the query"),
        // With --jsonl the input is stdin: a word would silently become every line's default.
        (&["search", "--index", idx, "--jsonl", "주권"], "with --jsonl the input comes from stdin"),
        (&["grep", "--index", idx, "--jsonl", "주권"], "with --jsonl the input comes from stdin"),
        (&["ask", "--index", idx, "--jsonl", "주권"], "with --jsonl the input comes from stdin"),
        // `ask --index a.ggi 주권은 누구에게`: --index takes every word up to the next flag.
        (&["ask", "--index", idx, "주권은 누구에게"], "'주권은 누구에게' is not an index file"),
        // A session no prompt could be asked with: refused before the first, not on every line.
        (&["ask", "--index", idx, "--jsonl", "--session", ""], "invalid session: must be 1–256 bytes"),
        (&["ask", "--index", idx, "--session", &"s".repeat(257)], "invalid session: must be 1–256 bytes"),
        // A location without its source, a language the rules are not written in, a stray word.
        (&["read", "--index", idx, "--article", "1"], "--source <SOURCE>"),
        (&["links", "--index", idx], "--source <SOURCE>"),
        (&["rules", "--lang", "fr"], "[possible values: ko, en]"),
        (&["rules", "ko"], "unexpected argument 'ko'"),
        (&["tools", "x"], "unexpected argument 'x'"),
        // Every numeric flag of the tools is a u32, as in the npm bin, within the tool's range:
        // refused before any line is read, not once per line.
        (&["grep", "--index", idx, "--limit", "4294967296", "주권"], "--limit"),
        (&["sources", "--index", idx, "--offset", "4294967296"], "--offset"),
        (&["search", "--index", idx, "--k", "4294967296", "주권"], "--k"),
        (&["grep", "--index", idx, "--jsonl", "--limit", "500"], "500 is not in 1..=100"),
        (&["read", "--index", idx, "--jsonl", "--around", "9"], "9 is not in 0..=5"),
        (&["search", "--index", idx, "--jsonl", "--k", "5000"], "5000 is not in 1..=1000"),
        (&["search", "--index", idx, "--k", "0", "주권"], "0 is not in 1..=1000"),
        (&["search", "--index", idx, "--jsonl", "--tool", "--k", "51"], "the search tool returns at most 50"),
        (&["search", "--index", idx, "--k", "51", "주권"], "the search tool returns at most 50"),
    ];
    // More input than a pipe holds: the child stops at the usage error without reading it, and the
    // helper sees a broken pipe (a usage error must not depend on who wins that race).
    let input = line.repeat(4000);
    for (args, want) in cases {
        let out = groundgate(args, &input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing runs");
    }
    // The same words in their places run.
    let out = groundgate(&["ask", "--index", idx, "--", "주권은 누구에게 있나요"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = groundgate(&["search", "--index", idx, "--jsonl", "--tool"], "{\"id\":1,\"query\":\"주권\"}\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"results\""));
    // Nothing to search for (no words, no --jsonl) is a usage error; `ask` reads its prompts from
    // stdin then, and none (or only blank lines) is an error, never a silent success.
    for (args, want) in [(["search", "--index", idx], "no query: "), (["grep", "--index", idx], "no text: ")]
    {
        let out = groundgate(&args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code() == Some(2) && err.contains(want), "{args:?}: {err}");
    }
    for stdin in ["", "\n  \n"] {
        let out = groundgate(&["ask", "--index", idx], stdin);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err, "groundgate: no prompt: give one after --, or one a line on stdin\n");
    }
}

#[test]
fn every_jsonl_loop_names_an_over_long_lines_full_length_and_goes_on() {
    let idx = excerpt_index_file("cli-long.ggi");
    let idx = idx.to_str().expect("path");
    let max = groundgate::protocol::MAX_LINE_BYTES;
    // A line 10 bytes over the bound, with a Windows line end, then a line each loop answers.
    let loops: [(&[&str], &str); 5] = [
        (&["search", "--index", idx, "--jsonl"], r#"{"id":2,"query":"주권"}"#),
        (&["search", "--index", idx, "--jsonl", "--tool"], r#"{"id":2,"query":"주권"}"#),
        (&["grep", "--index", idx, "--jsonl"], r#"{"id":2,"text":"주권"}"#),
        (
            &["ask", "--index", idx, "--jsonl", "--now", "0"],
            r#"{"id":2,"prompt":"대한민국의 주권은 누구에게 있나요?"}"#,
        ),
        (&["tool", "--index", idx], r#"{"id":2,"tool":"sources","arguments":{}}"#),
    ];
    for (args, good) in loops {
        let mut input = vec![b'a'; max + 10];
        input.extend_from_slice(b"\r\n");
        input.extend_from_slice(good.as_bytes());
        input.push(b'\n');
        let out = crate::util::groundgate_bytes(args, &input);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).expect("utf8");
        let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
        assert_eq!(lines.len(), 2, "{args:?}: one line out per line in");
        assert_eq!(lines[0]["error"]["code"], "invalid_argument", "{args:?}");
        let message = lines[0]["error"]["message"].as_str().expect("message");
        assert!(message.contains(&format!(" is {} bytes, at most {max}", max + 11)), "{args:?}: {message}");
        assert_eq!(lines[1]["id"], 2, "{args:?}");
        assert!(lines[1].get("error").is_none(), "{args:?}: {}", lines[1]);
    }
}

/// A reader that stopped before the output (`groundgate info … | head`): every subcommand ends
/// quietly with success, never a panic ("failed printing to stdout") or an error message.
#[test]
fn closed_stdout_is_a_quiet_success() {
    let idx = excerpt_index_file("closed-stdout.ggi");
    let p = idx.to_str().expect("path");
    let labels = std::env::temp_dir().join(format!("groundgate-closed-{}.jsonl", std::process::id()));
    std::fs::write(&labels, "{\"prompt\":\"대한민국의 주권은 누구에게 있나요?\",\"kind\":\"question\"}\n")
        .expect("labels");
    let l = labels.to_str().expect("path");
    let runs: [&[&str]; 12] = [
        &["info", "--index", p],
        &["chunks", "--index", p],
        &["sources", "--index", p],
        &["tools"],
        &["rules"],
        &["search", "--index", p, "주권"],
        &["grep", "--index", p, "주권"],
        &["read", "--index", p, "--source", "constitution", "--article", "1"],
        &["ask", "--index", p, "--", "대한민국의 주권은 누구에게 있나요?"],
        &["route-eval", "--labels", l],
        &["rebel", "--index", p, "--", "주권"],
        &["--help"],
    ];
    for args in runs {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = output_to(args, writer.into());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && err.is_empty(), "{args:?}: {:?} {err}", out.status);
    }
}

/// A write that fails otherwise (a full disk: `/dev/full`) is the command's error, exit 1 with the
/// system's message, never a success whose output was lost (the readable outputs were buffered
/// and their error dropped with the buffer).
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_not_a_lost_answer() {
    let idx = excerpt_index_file("full-disk.ggi");
    let p = idx.to_str().expect("path");
    let runs: [&[&str]; 8] = [
        &["sources", "--index", p],
        &["search", "--index", p, "주권"],
        &["grep", "--index", p, "주권"],
        &["read", "--index", p, "--source", "constitution", "--article", "1"],
        &["links", "--index", p, "--source", "constitution"],
        &["ask", "--index", p, "--", "대한민국의 주권은 누구에게 있나요?"],
        &["chunks", "--index", p],
        &["info", "--index", p],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let out = output_to(args, full.into());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("groundgate: ") && err.contains("space"), "{args:?}: {err}");
    }
}

/// Run the CLI with `args`, no stdin, stdout to `stdout`, stderr captured.
fn output_to(args: &[&str], stdout: std::process::Stdio) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_groundgate"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("run")
}
