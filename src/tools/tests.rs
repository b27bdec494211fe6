//! The tools on small indexes: the frozen excerpt index (tests/fixtures/v1, built from tests/data)
//! and a two-source index built here.

use serde_json::{Value, json};

use super::*;
use crate::corpus::{Chunk, Location, Source};
use crate::engine::InstanceOptions;
use crate::{AnalyzerSettings, IndexBuilder};

fn fixture() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1/excerpts.ggi")).unwrap()
}

/// An index whose one source is the attachment `notice-2026-01` links to, with one long chunk.
fn attachments() -> Vec<u8> {
    let mut b = IndexBuilder::new("att", AnalyzerSettings::default());
    let s = b
        .add_source(Source {
            id: "attachment".into(),
            title: "첨부 서식".into(),
            kind: "form".into(),
            link: Some("https://example.org/notice/2026-01/attachment.pdf".into()),
            ..Default::default()
        })
        .unwrap();
    let long = "연구비 집행 계획서 서식. ".repeat(700);
    b.add_chunk(Chunk {
        source: s,
        text: long,
        location: Location { page: Some(1), ..Default::default() },
        ..Default::default()
    })
    .unwrap();
    b.add_chunk(Chunk {
        source: s,
        text: "작성 요령: 회의비는 참석자를 적는다.".into(),
        location: Location { page: Some(2), ..Default::default() },
        ..Default::default()
    })
    .unwrap();
    b.build().unwrap()
}

fn engine() -> Engine {
    let mut e = Engine::new(Default::default()).unwrap();
    e.add_instance("x", fixture(), InstanceOptions::default()).unwrap();
    e.add_instance("att", attachments(), InstanceOptions::default()).unwrap();
    e
}

fn ok(e: &Engine, tool: &str, args: Value) -> Value {
    call(e, tool, &args).unwrap_or_else(|err| panic!("{tool} {args}: {err}"))
}

fn err(e: &Engine, tool: &str, args: Value) -> Error {
    call(e, tool, &args).expect_err(&format!("{tool} {args} should fail"))
}

#[test]
fn definitions_describe_every_tool() {
    let d = definitions();
    let names: Vec<&str> = d.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, NAMES);
    for t in d.as_array().unwrap() {
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        assert_eq!(t["outputSchema"]["type"], "object", "{t}");
        assert_eq!(t["annotations"]["readOnlyHint"], true);
        assert_eq!(t["annotations"]["idempotentHint"], true);
        assert!(t["description"].as_str().unwrap().len() > 40);
        assert!(!t["title"].as_str().unwrap().is_empty());
    }
}

#[test]
fn outputs_have_exactly_the_schema_fields() {
    let e = engine();
    let d = definitions();
    let calls = [
        ("search", json!({"query": "거주 이전의 자유"})),
        ("grep", json!({"text": "거주·이전의 자유"})),
        ("sources", json!({})),
        ("read", json!({"instance": "x", "source": "constitution", "article": 14})),
        ("links", json!({"instance": "x", "source": "notice-2026-01"})),
    ];
    for (i, (tool, args)) in calls.into_iter().enumerate() {
        let out = ok(&e, tool, args);
        let schema = &d[i]["outputSchema"];
        let mut got: Vec<&String> = out.as_object().unwrap().keys().collect();
        let mut want: Vec<&String> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| match v {
                Value::String(s) => s,
                _ => unreachable!(),
            })
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{tool}");
    }
}

#[test]
fn search_merges_instances_and_checks_arguments() {
    let e = engine();
    let out = ok(&e, "search", json!({"query": "거주 이전의 자유", "k": 3}));
    assert_eq!(out["instances"], json!(["x", "att"]));
    let r = &out["results"][0];
    assert_eq!(
        (r["instance"].as_str(), r["article"].as_str(), r["rank"].as_u64()),
        (Some("x"), Some("제14조"), Some(1))
    );
    assert!(r.get("score").is_none() && r.get("chunk").is_none(), "short format by default");
    let d = ok(&e, "search", json!({"query": "거주 이전의 자유", "k": 1, "detailed": true}));
    let r = &d["results"][0];
    assert!(r["score"].as_f64().unwrap() > 0.0 && r["bm25"].as_f64().unwrap() > 0.0);
    assert!(!r["terms"].as_array().unwrap().is_empty());
    // The chunk id opens the same text with read.
    let read = ok(&e, "read", json!({"instance": "x", "source": r["source"], "chunk": r["chunk"]}));
    assert_eq!(read["text"], r["text"]);
    let one = ok(&e, "search", json!({"query": "회의비", "instance": "att"}));
    assert!(one["results"].as_array().unwrap().iter().all(|r| r["instance"] == "att"));
    for bad in [
        json!({"query": "x", "k": 0}),
        json!({"query": "x", "k": 51}),
        json!({"query": "x", "k": "5"}),
        json!({"query": ""}),
        json!({"query": "가".repeat(20_001)}),
        json!({"query": "x", "instance": "nope"}),
        json!({"query": "x", "bogus": 1}),
        json!({}),
        json!([1]),
        json!("x"),
    ] {
        assert_eq!(err(&e, "search", bad.clone()).code(), "invalid_argument", "{bad}");
    }
    assert!(err(&e, "search", json!({"query": "x", "instance": "nope"})).to_string().contains("x, att"));
    assert_eq!(err(&e, "delete", json!({})).code(), "invalid_argument");
}

#[test]
fn grep_matches_after_normalisation_and_narrows_by_the_index() {
    let e = engine();
    // 행복을 추구할 권리 with the middle word in conjoining jamo (NFD) and a double space.
    let nfd = "행복을  \u{110E}\u{116E}\u{1100}\u{116E}\u{1112}\u{1161}\u{11AF} 권리";
    let out = ok(&e, "grep", json!({"text": nfd, "detailed": true}));
    assert_eq!(out["total"], 1, "{out}");
    let m = &out["matches"][0];
    assert_eq!(m["article"], "제10조");
    assert!(m["text"].as_str().unwrap().contains("«행복을 추구할 권리»"), "{m}");
    let plain = e.index("x").unwrap().chunk(m["chunk"].as_u64().unwrap() as u32).unwrap().text;
    let span: String = plain
        .chars()
        .skip(m["start"].as_u64().unwrap() as usize)
        .take((m["end"].as_u64().unwrap() - m["start"].as_u64().unwrap()) as usize)
        .collect();
    assert_eq!(span, "행복을 추구할 권리");
    // The inner word narrowed the candidates to the chunks holding its terms.
    let all = e.index("x").unwrap().chunk_count() + e.index("att").unwrap().chunk_count();
    assert!(out["candidates"].as_u64().unwrap() < all as u64 / 4, "{out}");
    // A one-word phrase is checked everywhere; limit caps the list, not the total.
    let many = ok(&e, "grep", json!({"text": "연구비", "limit": 1, "detailed": true}));
    assert_eq!(many["matches"].as_array().unwrap().len(), 1);
    assert!(many["total"].as_u64().unwrap() >= 2 && many["truncated"] == true, "{many}");
    assert_eq!(many["candidates"].as_u64().unwrap(), all as u64);
    assert_eq!(ok(&e, "grep", json!({"text": "없는 문장 입니다 정말"}))["total"], 0);
    for bad in [
        json!({"text": ""}),
        json!({"text": "a".repeat(501)}),
        json!({"text": "a", "limit": 0}),
        json!({"text": 5}),
    ] {
        assert_eq!(err(&e, "grep", bad.clone()).code(), "invalid_argument", "{bad}");
    }
}

#[test]
fn sources_list_locations() {
    let e = engine();
    let out = ok(&e, "sources", json!({"instance": "x"}));
    let list = out["sources"].as_array().unwrap();
    let c = list.iter().find(|s| s["source"] == "constitution").unwrap();
    assert_eq!(c["kind"], "statute");
    assert_eq!(c["articles"][0], "제1조");
    assert!(c["chunks"].as_u64().unwrap() >= 18);
    let n = list.iter().find(|s| s["source"] == "notice-2026-01").unwrap();
    assert_eq!((n["pages"].clone(), n["links"].clone()), (json!([3, 4]), json!(1)));
    assert_eq!(ok(&e, "sources", json!({}))["sources"].as_array().unwrap().len(), list.len() + 1);
    assert_eq!(out["sources_more"], 0);
    assert_eq!(out["next_offset"], json!(null));
    assert_eq!(err(&e, "sources", json!({"instance": 3})).code(), "invalid_argument");
}

#[test]
fn read_opens_locations_and_lists_nearby_ones() {
    let e = engine();
    let a =
        ok(&e, "read", json!({"instance": "x", "source": "constitution", "article": "제14조", "around": 1}));
    assert_eq!(a["article"], "제14조");
    assert!(a["text"].as_str().unwrap().contains("거주·이전의 자유"));
    assert_eq!((a["before"].as_array().unwrap().len(), a["after"].as_array().unwrap().len()), (1, 1));
    assert_eq!(
        ok(&e, "read", json!({"instance": "x", "source": "constitution", "article": 14}))["text"],
        a["text"]
    );
    let p = ok(&e, "read", json!({"instance": "x", "source": "notice-2026-01", "page": 4}));
    assert_eq!((p["page"].clone(), p["heading"].clone()), (json!(4), json!("회의비")));
    let h = ok(&e, "read", json!({"instance": "x", "source": "notice-2026-01", "heading": "집행 원칙"}));
    assert_eq!(h["page"], 3);
    let whole = ok(&e, "read", json!({"instance": "x", "source": "notice-2026-01"}));
    assert_eq!(whole["chunks"].as_array().unwrap().len(), 2);
    assert_eq!(whole["page"], Value::Null, "pages differ: no shared page");
    let missing = err(&e, "read", json!({"instance": "x", "source": "notice-2026-01", "page": 5}));
    assert!(missing.to_string().contains("nearby: 3, 4"), "{missing}");
    let art = err(&e, "read", json!({"instance": "x", "source": "constitution", "article": "제99조"}));
    // A numbered article's neighbours by number (the excerpt's articles run to 제15조, then
    // 제128–130조), not by spelling (제9조, 제99조 …), as numbers `article` takes.
    assert!(art.to_string().ends_with("nearby: 11, 12, 13, 14, 15, 128, 129, 130"), "{art}");
    let far = err(&e, "read", json!({"instance": "x", "source": "constitution", "article": 131}));
    assert!(far.to_string().ends_with("nearby: 11, 12, 13, 14, 15, 128, 129, 130"), "{far}");
    let low = err(&e, "read", json!({"instance": "x", "source": "constitution", "article": "제20조"}));
    assert!(low.to_string().ends_with("nearby: 8, 9, 10, 11, 12, 13, 14, 15"), "{low}");
    let src = err(&e, "read", json!({"instance": "x", "source": "constitutio"}));
    assert!(src.to_string().contains("constitution"), "{src}");
    // A megabyte of source id or heading is named by its first 120 characters, not echoed whole.
    let huge = "가".repeat(1 << 20);
    for bad in [
        json!({"instance": "x", "source": huge}),
        json!({"source": huge}),
        json!({"instance": "x", "source": "constitution", "heading": huge}),
    ] {
        let m = err(&e, "read", bad).to_string();
        assert!(
            m.chars().count() < 600 && m.contains(&format!("\"{}\"…", "가".repeat(120))),
            "{}",
            &m[..200]
        );
    }
    for bad in [
        json!({"instance": "x", "source": "constitution", "page": 1, "article": 1}),
        json!({"instance": "x", "source": "constitution", "around": 6}),
        json!({"instance": "x"}),
        json!({"instance": "x", "source": "constitution", "page": -1}),
        json!({"instance": "x", "source": "constitution", "chunk": 100000}),
    ] {
        assert_eq!(err(&e, "read", bad.clone()).code(), "invalid_argument", "{bad}");
    }
}

#[test]
fn long_text_is_cut_with_a_mark() {
    let e = engine();
    let r = ok(&e, "read", json!({"instance": "att", "source": "attachment", "around": 1}));
    let text = r["text"].as_str().unwrap();
    assert_eq!(r["truncated"], true);
    assert!(text.ends_with(cap::MARK));
    assert!(text.chars().count() <= cap::MAX_OUTPUT_CHARS);
    let s = ok(&e, "search", json!({"query": "연구비 집행 계획서", "instance": "att"}));
    let total: usize =
        s["results"].as_array().unwrap().iter().map(|r| r["text"].as_str().unwrap().chars().count()).sum();
    assert!(total <= cap::MAX_OUTPUT_CHARS && s["truncated"] == true, "{total}");
}

#[test]
fn links_resolve_to_loaded_sources() {
    let e = engine();
    let out = ok(&e, "links", json!({"instance": "x", "source": "notice-2026-01"}));
    let l = &out["links"][0];
    assert_eq!(l["link"], "https://example.org/notice/2026-01/attachment.pdf");
    assert_eq!(
        l["resolved"],
        json!([{"instance": "att", "source": "attachment", "title": "첨부 서식", "kind": "form"}])
    );
    let none = ok(&e, "links", json!({"instance": "x", "source": "constitution"}));
    assert_eq!(none["links"], json!([]));
    assert_eq!(err(&e, "links", json!({"instance": "x"})).code(), "invalid_argument");
}

#[test]
fn handle_line_is_the_protocol() {
    let e = engine();
    let r =
        crate::protocol::handle_line(&e, br#"{"id":"a","tool":"sources","arguments":{"instance":"att"}}"#);
    assert!(r.starts_with(r#"{"id":"a","result":{"sources":[{"instance":"att""#), "{r}");
    assert_eq!(crate::protocol::handle_line(&e, b"  "), "");
    let bad = crate::protocol::handle_line(&e, br#"{"id":2,"tool":"read","arguments":{}}"#);
    assert!(bad.starts_with(r#"{"id":2,"error":{"code":"invalid_argument""#), "{bad}");
    let top = crate::protocol::handle_line(
        &e,
        r#"{"id":3,"tool":"grep","arguments":{"text":"회의비"}}"#.as_bytes(),
    );
    assert!(top.contains("«회의비»"), "{top}");
    // Arguments belong under "arguments": a stray field is an error that keeps the id.
    let stray = crate::protocol::handle_line(&e, br#"{"id":[4],"tool":"sources","instance":"x"}"#);
    assert!(stray.starts_with(r#"{"id":[4],"error":"#), "{stray}");
    // … worded alike however the line is spaced: no serde position in the message.
    let spaced = crate::protocol::handle_line(&e, br#"{ "id" : [4], "tool" : "sources", "instance" : "x" }"#);
    assert_eq!(spaced, stray);
    assert!(
        stray.contains("expected one of `id`, `tool`, `arguments`\"") && !stray.contains("column"),
        "{stray}"
    );
    let no_tool = crate::protocol::handle_line(&e, br#"{"id":5}"#);
    assert!(no_tool.contains("needs a string"), "{no_tool}");
    assert!(crate::protocol::handle_line(&e, b"[1]").starts_with(r#"{"id":null,"error":"#));
    assert!(crate::protocol::handle_line(&e, b"\xff").contains("UTF-8"));
}

#[test]
fn search_fuses_a_host_ranking_by_rrf() {
    let e = engine();
    let q = json!({"query": "거주 이전의 자유", "k": 3, "detailed": true});
    let plain = ok(&e, "search", q.clone());
    let refs: Vec<String> =
        plain["results"].as_array().unwrap().iter().map(|r| r["ref"].as_str().unwrap().to_string()).collect();
    // A ref opens the same chunk: instance, chunk id, and the CRC32 of its text.
    let r0 = &plain["results"][0];
    assert_eq!(
        refs[0],
        format!("{}:{}:{:08x}", r0["instance"].as_str().unwrap(), r0["chunk"], {
            let idx = e.index("x").unwrap();
            crate::index::format::crc32(
                idx.chunk(r0["chunk"].as_u64().unwrap() as u32).unwrap().text.as_bytes(),
            )
        })
    );
    // The host ranks an attachment chunk BM25 did not find first, then BM25's third result.
    let att = e.index("att").unwrap();
    let host = crate::rerank::ChunkRef::of("att", 1, &att.chunk(1).unwrap().text).to_string();
    let mut args = q.clone();
    args["fuse"] = json!([host, refs[2]]);
    let fused = ok(&e, "search", args.clone());
    let got: Vec<&str> =
        fused["results"].as_array().unwrap().iter().map(|r| r["ref"].as_str().unwrap()).collect();
    // RRF, k = 60: refs[2] 1/63 + 1/62 beats refs[0] 1/61 beats the host's first 1/61 (a tie
    // broken by the better best rank, then by the first list).
    assert_eq!(got, [refs[2].as_str(), refs[0].as_str(), host.as_str()]);
    let s = |i: usize| fused["results"][i]["score"].as_f64().unwrap();
    assert_eq!(s(0), ((1.0 / 63.0 + 1.0 / 62.0) * 1e6f64).round() / 1e6);
    assert!(s(1) >= s(2));
    // No query term in the host's chunk: BM25 0 (and not -0.0, an empty float sum).
    assert_eq!(fused["results"][2]["bm25"].to_string(), "0.0");
    // fuse_k changes the scores; k = 0 makes the host's first as strong as BM25's first.
    args["fuse_k"] = json!(0);
    let k0 = ok(&e, "search", args.clone());
    let top2: Vec<(&Value, &Value)> =
        k0["results"].as_array().unwrap()[..2].iter().map(|r| (&r["ref"], &r["score"])).collect();
    assert_eq!(top2, [(&json!(refs[0]), &json!(1.0)), (&json!(host), &json!(1.0))]);
    // One instance: the other instance's references count for rank but are not returned.
    let mut one = args.clone();
    one["instance"] = json!("x");
    one["fuse_k"] = json!(60);
    let only_x = ok(&e, "search", one);
    assert!(only_x["results"].as_array().unwrap().iter().all(|r| r["instance"] == "x"));
    // Bad references and constants are typed errors naming what is wrong.
    let stale = format!("{}:{}:00000000", r0["instance"].as_str().unwrap(), r0["chunk"]);
    for (bad, says) in [
        (json!({"query": "x", "fuse": [stale]}), "stale"),
        (json!({"query": "x", "fuse": ["nope:1:00000000"]}), "no instance"),
        (json!({"query": "x", "fuse": ["x:99999:00000000"]}), "stale or from another index"),
        (json!({"query": "x", "fuse": ["garbage"]}), "instance:chunk:check"),
        (json!({"query": "x", "fuse": [refs[0], refs[0]]}), "twice"),
        (json!({"query": "x", "fuse": refs[0]}), "search: fuse: invalid type"),
        (json!({"query": "x", "fuse": [], "fuse_k": 1001}), "fuse_k"),
        (json!({"query": "x", "fuse_k": 5}), "without fuse"),
    ] {
        let e2 = err(&e, "search", bad.clone());
        assert_eq!(e2.code(), "invalid_argument", "{bad}");
        assert!(e2.to_string().contains(says), "{bad}: {e2}");
    }
    // An empty host list changes nothing but the scores' source.
    let mut empty = q.clone();
    empty["fuse"] = json!([]);
    let got: Vec<Value> =
        ok(&e, "search", empty)["results"].as_array().unwrap().iter().map(|r| r["ref"].clone()).collect();
    assert_eq!(
        got,
        plain["results"].as_array().unwrap().iter().map(|r| r["ref"].clone()).collect::<Vec<_>>()
    );
}

#[test]
fn read_and_links_find_the_source_without_an_instance() {
    let e = engine();
    let r = ok(&e, "read", json!({"source": "constitution", "article": 14}));
    assert_eq!(r["instance"], "x");
    assert_eq!(r, ok(&e, "read", json!({"instance": "x", "source": "constitution", "article": 14})));
    assert_eq!(ok(&e, "read", json!({"source": "attachment"}))["instance"], "att");
    let l = ok(&e, "links", json!({"source": "notice-2026-01"}));
    assert_eq!(l, ok(&e, "links", json!({"instance": "x", "source": "notice-2026-01"})));
    let none = err(&e, "read", json!({"source": "constitutio"}));
    assert_eq!(none.code(), "invalid_argument");
    assert!(
        none.to_string().contains(r#"no source "constitutio" in any loaded instance; nearby: constitution"#),
        "{none}"
    );
    // The same source in two instances: the caller must name one.
    let mut twice = engine();
    twice.add_instance("y", fixture(), InstanceOptions::default()).unwrap();
    for tool in ["read", "links"] {
        let both = err(&twice, tool, json!({"source": "constitution"}));
        assert_eq!(both.code(), "invalid_argument");
        assert!(
            both.to_string().contains(r#"source "constitution" is in several instances (x, y): name one"#),
            "{both}"
        );
        assert_eq!(ok(&twice, tool, json!({"instance": "y", "source": "constitution"}))["instance"], "y");
    }
    let empty = Engine::new(Default::default()).unwrap();
    let no = err(&empty, "read", json!({"source": "constitution"}));
    assert!(no.to_string().contains("no instance is loaded"), "{no}");
}

#[test]
fn a_search_result_given_back_renders_as_the_evidence_block() {
    let e = engine();
    for detailed in [false, true] {
        let out = ok(&e, "search", json!({"query": "회의비 자유", "k": 6, "detailed": detailed}));
        let results = out["results"].as_array().unwrap();
        assert!(results.len() >= 2, "{out}");
        let block = search::context(&out.to_string()).unwrap();
        // Every result whole, in order, each source named once before its first item.
        let mut at = 0;
        for (n, r) in results.iter().enumerate() {
            let text = crate::deliver::context::neutralize(r["text"].as_str().unwrap());
            let line = format!("[{}] S", n + 1);
            at += block[at..].find(&line).unwrap_or_else(|| panic!("{line} missing:\n{block}"));
            at += block[at..].find(&text).expect("text whole");
        }
        let mut sources: Vec<String> =
            results.iter().map(|r| format!("{}/{}", r["instance"], r["source"])).collect();
        sources.sort();
        sources.dedup();
        assert_eq!(block.lines().filter(|l| l.starts_with("[S")).count(), sources.len(), "{block}");
    }
    assert_eq!(search::context(r#"{"results": []}"#).unwrap(), "");
    for bad in [
        "{}",
        r#"{"results": {}}"#,
        r#"{"results": [{"instance": "x", "source": "s", "title": "t"}]}"#,
        r#"{"results": [{"source": "s", "title": "t", "text": "x"}]}"#,
        r#"{"results": [{"instance": "x", "source": "s", "title": "t", "text": "x", "page": -1}]}"#,
        "[]",
        "not json",
    ] {
        let e = search::context(bad).expect_err(bad);
        assert_eq!(e.code(), "invalid_argument", "{bad}: {e}");
        assert!(e.to_string().contains("result"), "{bad}: {e}");
    }
}

#[test]
fn a_badly_typed_argument_is_named() {
    let e = engine();
    for (tool, bad, says) in [
        ("search", json!({"query": 5}), "search: query: invalid type: integer `5`, expected a string"),
        ("search", json!({"query": "x", "k": "3"}), "search: k: invalid type: string \"3\""),
        (
            "search",
            json!({"query": "x", "k": -1}),
            "search: k: invalid value: integer `-1`, expected a whole number from 0 to 4294967295",
        ),
        ("grep", json!({"text": "x", "detailed": "yes"}), "grep: detailed: invalid type: string \"yes\""),
        (
            "read",
            json!({"source": "a", "page": "3"}),
            "read: page: invalid type: string \"3\", expected a whole number from 0 to 4294967295",
        ),
        ("sources", json!({"instance": 7}), "sources: instance: invalid type: integer `7`"),
        // A quoted value is shown as given.
        (
            "search",
            json!({"query": "x", "k": "expected u32"}),
            "search: k: invalid type: string \"expected u32\", expected a whole number from 0 to 4294967295",
        ),
        // Several bad fields: one of them, named with its own error.
        ("search", json!({"query": 5, "k": "3"}), "search: k: invalid type: string \"3\""),
        (
            "search",
            json!({"query": 5, "k": "3", "detailed": "y"}),
            "search: detailed: invalid type: string \"y\"",
        ),
    ] {
        let got = err(&e, tool, bad.clone());
        assert_eq!(got.code(), "invalid_argument", "{bad}");
        assert!(got.to_string().contains(says), "{bad}: {got}");
    }
    // An unknown field is named by serde itself, once.
    let got = err(&e, "search", json!({"query": "x", "kk": 1})).to_string();
    assert!(got.contains("search: unknown field `kk`"), "{got}");
    // Written out of key order, or with unknown fields beside a bad one: a field is named with
    // its own error, or none is named.
    for (text, want) in [
        (r#"{"query":5,"k":"3","detailed":"y"}"#, "search: detailed: invalid type: string \"y\""),
        (r#"{"query":5,"aa":1,"bb":1}"#, "search: invalid type: integer `5`"),
    ] {
        let got = crate::tools::call_str(&e, "search", text).unwrap_err().to_string();
        assert!(got.contains(want), "{text}: {got}");
    }
}

#[test]
fn sources_left_out_by_the_cap_are_counted() {
    // 300 sources with 100-character titles: about 30,000 characters, over the cap.
    let mut b = IndexBuilder::new("many", AnalyzerSettings::default());
    for i in 0..300 {
        let s = b
            .add_source(Source {
                id: format!("s{i}"),
                title: format!("{i:03} {}", "제목".repeat(48)),
                ..Default::default()
            })
            .unwrap();
        b.add_chunk(Chunk { source: s, text: format!("본문 {i}"), ..Default::default() }).unwrap();
    }
    let mut e = Engine::new(Default::default()).unwrap();
    e.add_instance("many", b.build().unwrap(), InstanceOptions::default()).unwrap();
    e.add_instance("x", fixture(), InstanceOptions::default()).unwrap();
    let all = ok(&e, "sources", json!({}));
    let listed = all["sources"].as_array().unwrap().len();
    let x_sources = ok(&e, "sources", json!({"instance": "x"}))["sources"].as_array().unwrap().len();
    assert!(listed < 300 && all["truncated"] == true, "{listed}");
    // Every source of both instances is either listed or counted.
    assert_eq!(all["sources_more"].as_u64().unwrap() as usize, 300 + x_sources - listed);
    assert_eq!(all["next_offset"], json!(listed));
    // Paging with next_offset lists every source once, in order, across both instances.
    let (mut seen, mut offset) = (Vec::new(), json!(null));
    loop {
        let page = ok(&e, "sources", json!({ "offset": offset }));
        let ids = page["sources"].as_array().unwrap();
        assert!(!ids.is_empty());
        seen.extend(ids.iter().map(|s| format!("{}/{}", s["instance"], s["source"])));
        assert_eq!(page["sources_more"].as_u64().unwrap() as usize, 300 + x_sources - seen.len());
        offset = page["next_offset"].clone();
        if offset.is_null() {
            break;
        }
        assert_eq!(offset, json!(seen.len()));
    }
    assert_eq!(seen.len(), 300 + x_sources);
    assert_eq!(seen[0], "\"many\"/\"s0\"");
    assert_eq!(seen[299], "\"many\"/\"s299\"");
    assert!(seen[300].starts_with("\"x\"/"));
    // One instance's own offsets start at 0; an offset past the last source is an error.
    let x_page = ok(&e, "sources", json!({"instance": "x", "offset": 1}));
    assert_eq!(x_page["sources"].as_array().unwrap().len(), x_sources - 1);
    assert_eq!(x_page["next_offset"], json!(null));
    let past = err(&e, "sources", json!({"instance": "x", "offset": x_sources}));
    assert_eq!(past.code(), "invalid_argument");
    assert!(past.to_string().contains(&format!("have {x_sources}")), "{past}");
    for bad in [json!(-1), json!(1.5), json!("2"), json!(4_294_967_296u64)] {
        assert_eq!(err(&e, "sources", json!({ "offset": bad })).code(), "invalid_argument");
    }
}
