//! The pull tools on every CLI face: human output, `--jsonl` (one line out per line in, errors per
//! line, invalid UTF-8 and huge lines included), `tool --jsonl`, `tools`, and byte parity with the
//! library.

use groundgate::{Engine, InstanceOptions, tools};
use serde_json::{Value, json};

use crate::util::{excerpt_index, excerpt_index_file, groundgate};

fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out).lines().map(|l| serde_json::from_str(l).expect("json line")).collect()
}

#[test]
fn subcommands_print_readable_text() {
    let idx = excerpt_index_file("tools-human.ggi");
    let p = idx.to_str().expect("path");
    let out = groundgate(&["search", "--index", p, "--index", p, "거주", "이전의", "자유"], "");
    // The same index twice is two instances with the same name: a clear error.
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{p}: the same index is given twice")), "{err}");
    let copy = excerpt_index_file("tools-human-copy.ggi");
    let q = copy.to_str().expect("path");
    let out = groundgate(&["search", "--index", p, "--index", q, "거주"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{q}: an index named \"excerpts\" is already loaded from {p}")), "{err}");
    let out = groundgate(&["search", "--index", p, "거주", "이전의", "자유"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("constitution  제14조"));
    let out = groundgate(&["grep", "--index", p, "행복을 추구할 권리"], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("«행복을 추구할 권리»"));
    let out = groundgate(
        &["read", "--index", p, "--instance", "excerpts", "--source", "constitution", "--article", "14"],
        "",
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("거주·이전의 자유"));
    let out = groundgate(
        &["read", "--index", p, "--instance", "excerpts", "--source", "constitution", "--article", "99"],
        "",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nearby"));
    let out = groundgate(&["sources", "--index", p], "");
    let all = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(all.contains("notice-2026-01"));
    // The lists' lengths are shown, never cut: no truncation note on a one-page list.
    assert!(!all.contains("truncated") && !all.contains("more source"), "{all}");
    let out = groundgate(&["sources", "--index", p, "--offset", "1"], "");
    let rest = String::from_utf8_lossy(&out.stdout);
    assert_eq!(rest.lines().count() + 1, all.lines().count(), "{rest}");
    assert!(all.ends_with(&*rest), "{all}\n{rest}");
    let out = groundgate(&["sources", "--index", p, "--offset", "99"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid offset: 99 is past the last source"));
    let out =
        groundgate(&["links", "--index", p, "--instance", "excerpts", "--source", "notice-2026-01"], "");
    assert!(String::from_utf8_lossy(&out.stdout).contains("attachment.pdf"));
    let out = groundgate(&["tools"], "");
    let defs: Value = serde_json::from_slice(&out.stdout).expect("definitions");
    assert_eq!(defs, tools::definitions());
}

#[test]
fn jsonl_gives_one_line_per_line_whatever_comes_in() {
    let idx = excerpt_index_file("tools-jsonl.ggi");
    let p = idx.to_str().expect("path");
    let mut input = b"{\"id\":1,\"text\":\"\xed\x96\x89\xeb\xb3\xb5\xec\x9d\x84 \xec\xb6\x94\xea\xb5\xac\xed\x95\xa0\"}\n\n".to_vec();
    input.extend_from_slice(b"{\"id\":2,\"text\":\"\xff\xfe\"}\n"); // not UTF-8
    input.extend_from_slice(b"nope\n{\"id\":3}\n{\"id\":4,\"text\":\"x\",\"limit\":0}\n");
    input.extend_from_slice(format!("{{\"id\":5,\"text\":\"{}\"}}\n", "가".repeat(400_000)).as_bytes()); // > 1 MiB
    input.extend_from_slice(b"{\"id\":6,\"arguments\":{\"text\":\"\xec\x9e\x90\xec\x9c\xa0\"}}");
    let out = crate::util::groundgate_bytes(&["grep", "--index", p, "--jsonl"], &input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let l = lines(&out.stdout);
    assert_eq!(l.len(), 7, "{l:?}");
    assert_eq!(l[0]["id"], 1);
    assert!(l[0]["result"]["total"].as_u64().expect("total") >= 1);
    assert!(l[1]["error"]["message"].as_str().expect("m").contains("UTF-8"));
    assert_eq!((l[2]["id"].clone(), l[2]["error"]["code"].clone()), (Value::Null, json!("invalid_argument")));
    assert_eq!((l[3]["id"].clone(), l[3]["error"]["code"].clone()), (json!(3), json!("invalid_argument")));
    assert!(l[4]["error"]["message"].as_str().expect("m").contains("limit"));
    assert!(l[5]["error"]["message"].as_str().expect("m").contains("bytes"));
    assert!(l[6]["result"]["total"].as_u64().expect("total") >= 1, "{}", l[6]);

    // ask --jsonl: a bad line no longer ends the run.
    let mut input = b"{\"id\":1,\"prompt\":\"\xff\"}\n".to_vec();
    input.extend_from_slice("{\"id\":2,\"prompt\":\"대한민국의 주권은 누구에게 있나요?\"}\n".as_bytes());
    let out = crate::util::groundgate_bytes(&["ask", "--index", p, "--now", "0", "--jsonl"], &input);
    let l = lines(&out.stdout);
    assert_eq!(l.len(), 2);
    assert_eq!(l[0]["error"]["code"], "invalid_argument");
    assert_eq!(l[1]["id"], 2);
    assert!(l[1]["route"].is_string());
}

#[test]
fn cli_results_are_the_library_bytes() {
    let idx = excerpt_index_file("tools-parity.ggi");
    let p = idx.to_str().expect("path");
    let mut engine = Engine::new(Default::default()).expect("engine");
    engine.add_instance("excerpts", excerpt_index().to_vec(), InstanceOptions::default()).expect("add");
    let calls = [
        ("search", json!({"query": "대한민국 주권", "k": 3, "detailed": true})),
        ("search", json!({"query": "Ctrl F find bar"})),
        ("grep", json!({"text": "모든 국민은", "limit": 3})),
        ("sources", json!({})),
        ("read", json!({"instance": "excerpts", "source": "constitution", "article": "제1조", "around": 2})),
        ("links", json!({"instance": "excerpts", "source": "notice-2026-01"})),
        ("read", json!({"instance": "excerpts", "source": "nope"})),
    ];
    let input: String = calls
        .iter()
        .enumerate()
        .map(|(i, (t, a))| json!({"id": i, "tool": t, "arguments": a}).to_string() + "\n")
        .collect();
    let out = groundgate(&["tool", "--index", p, "--jsonl"], &input);
    let text = String::from_utf8(out.stdout).expect("utf8");
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got.len(), calls.len());
    for (i, (t, a)) in calls.iter().enumerate() {
        let want = match tools::call_json(&engine, t, a) {
            Ok(json) => groundgate::protocol::reply(&i.to_string(), &json),
            Err(e) => groundgate::protocol::error_reply(&i.to_string(), &e),
        };
        assert_eq!(got[i], want, "{t} {a}");
    }
    // search --jsonl with --tool takes search arguments at the top level.
    let out = groundgate(
        &["search", "--index", p, "--jsonl", "--tool", "--k", "2"],
        "{\"id\":9,\"query\":\"대한민국 주권\"}\n",
    );
    let l = lines(&out.stdout);
    assert_eq!(l[0]["result"]["results"].as_array().expect("results").len(), 2);
}
