//! The plain-export build under wasmtime: no imports, parity with the native CLI on the shared
//! parity set (≥ 500 prompts, byte-identical `ask` JSON), the frozen search fixture, and bad input
//! that must come back as typed errors — never a trap.
//!
//! Run by `./build.sh test` after `./build.sh` has built `pkg/abi/groundgate.wasm`, the CLI and the
//! default indexes (override the paths with GG_ABI_WASM, GG_CLI, GG_INDEXES).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use groundgate_wasmtime_tests::{Host, Reply, path_from_env, root};
use serde_json::Value;

fn wasm() -> PathBuf {
    let p = path_from_env("GG_ABI_WASM", "pkg/abi/groundgate.wasm");
    assert!(p.exists(), "{} is missing: run ./build.sh first", p.display());
    p
}

fn host() -> Host {
    Host::load(&wasm()).expect("instantiate with no imports")
}

/// The default indexes that exist, plus the frozen fixture.
fn indexes() -> Vec<PathBuf> {
    let dir = path_from_env("GG_INDEXES", "indexes");
    let mut out: Vec<PathBuf> = ["rnd", "constitution", "lohelp", "pyfaq"]
        .iter()
        .map(|n| dir.join(format!("{n}.ggi")))
        .filter(|p| p.exists())
        .collect();
    out.push(root().join("tests/fixtures/v1/excerpts.ggi"));
    out
}

fn cli(args: &[&str], input: &str) -> String {
    let bin = path_from_env("GG_CLI", "target/release/groundgate");
    let mut child = Command::new(&bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e} (run ./build.sh first)", bin.display()));
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{} {args:?} failed", bin.display());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_module_imports_nothing_and_reports_its_abi() {
    let engine = wasmtime::Engine::default();
    let module = wasmtime::Module::from_file(&engine, wasm()).unwrap();
    let imports: Vec<String> = module.imports().map(|i| format!("{}.{}", i.module(), i.name())).collect();
    assert!(imports.is_empty(), "imports: {imports:?}");
    assert_eq!(host().abi_version().unwrap(), 1);
}

#[test]
fn ask_is_byte_identical_to_the_native_cli_on_the_parity_set() {
    let prompts = std::fs::read_to_string(root().join("tests/fixtures/parity_prompts.jsonl")).unwrap();
    let lines: Vec<Value> = prompts.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines.len() >= 500, "only {} prompts", lines.len());
    let indexes = indexes();
    assert!(indexes.len() >= 2, "needs at least one default index: run ./build.sh");

    let mut args = vec!["ask", "--now", "0", "--jsonl", "--index"];
    let paths: Vec<String> = indexes.iter().map(|p| p.display().to_string()).collect();
    args.extend(paths.iter().map(String::as_str));
    let native = cli(&args, &prompts);
    let native: Vec<&str> = native.lines().collect();
    assert_eq!(native.len(), lines.len());

    let mut h = host();
    let engine = h.engine_new("").unwrap().unwrap();
    h.set_clock(engine, 0).unwrap().ok();
    for p in &indexes {
        let bytes = std::fs::read(p).unwrap();
        // Instances are named after the index, as the CLI names them.
        let meta: Value =
            serde_json::from_str(&h.add_instance(engine, "probe", &bytes, "").unwrap().ok()).unwrap();
        h.remove_instance(engine, "probe").unwrap().ok();
        h.add_instance(engine, meta["name"].as_str().unwrap(), &bytes, "").unwrap().ok();
    }
    let mut pushed = 0;
    for (line, want) in lines.iter().zip(&native) {
        let id = &line["id"];
        let prompt = line["prompt"].as_str().unwrap();
        let options = match line.get("session") {
            Some(s) => serde_json::json!({ "session": s }).to_string(),
            None => String::new(),
        };
        let got = match h.ask(engine, prompt, &options).unwrap() {
            Reply::Ok(json) => {
                pushed += usize::from(json.contains(r#""route":"push""#));
                format!(r#"{{"id":{id},{}"#, &json[1..])
            }
            Reply::Err(err) => format!(r#"{{"id":{id},"error":{err}}}"#),
        };
        assert_eq!(&got, want, "prompt {id}: {}", prompt.chars().take(60).collect::<String>());
    }
    assert!(pushed > 20, "the parity set must exercise injection ({pushed} pushed)");
}

#[test]
fn search_matches_the_frozen_fixture() {
    let fixtures = root().join("tests/fixtures");
    let queries = std::fs::read_to_string(fixtures.join("queries.jsonl")).unwrap();
    let expected = std::fs::read_to_string(fixtures.join("v1/expected.jsonl")).unwrap();
    let mut h = host();
    let engine = h.engine_new("").unwrap().unwrap();
    let bytes = std::fs::read(fixtures.join("v1/excerpts.ggi")).unwrap();
    h.add_instance(engine, "x", &bytes, "").unwrap().ok();
    let mut n = 0;
    for (q, want) in queries.lines().zip(expected.lines()) {
        let q: Value = serde_json::from_str(q).unwrap();
        let want: Value = serde_json::from_str(want).unwrap();
        let hits = h.search(engine, "x", q["query"].as_str().unwrap(), 3).unwrap().ok();
        assert_eq!(serde_json::from_str::<Value>(&hits).unwrap(), want["hits"], "{q}");
        n += 1;
    }
    assert!(n >= 5);
}

#[test]
fn the_api_round_trip() {
    let mut h = host();
    let engine = h.engine_new(r#"{"top_k":3}"#).unwrap().unwrap();
    let bytes = std::fs::read(root().join("tests/fixtures/v1/excerpts.ggi")).unwrap();
    let meta = h.add_instance(engine, "x", &bytes, r#"{"sufficiency":0}"#).unwrap().ok();
    assert!(meta.contains(r#""name":"excerpts""#), "{meta}");
    assert_eq!(h.instances(engine).unwrap().ok(), r#"["x"]"#);
    assert!(h.info(engine, "x").unwrap().ok().contains(r#""chunks":"#));
    let a: Value =
        serde_json::from_str(&h.ask(engine, "대한민국의 주권은 누구에게 있나요? #x", "").unwrap().ok())
            .unwrap();
    assert_eq!(a["route"], "push");
    assert_eq!(a["evidence"][0]["article"], "제1조");
    // Session dedup on the module's stopped clock; cleared sessions see the evidence again.
    let opts = r#"{"session":"s"}"#;
    let first: Value =
        serde_json::from_str(&h.ask(engine, "대한민국의 주권은 누구에게 있나요? #x", opts).unwrap().ok())
            .unwrap();
    let again: Value =
        serde_json::from_str(&h.ask(engine, "대한민국의 주권은 누구에게 있나요? #x", opts).unwrap().ok())
            .unwrap();
    assert!(!first["evidence"].as_array().unwrap().is_empty());
    assert_ne!(first["evidence"], again["evidence"]);
    h.clear_session(engine, "s").unwrap().ok();
    let cleared: Value =
        serde_json::from_str(&h.ask(engine, "대한민국의 주권은 누구에게 있나요? #x", opts).unwrap().ok())
            .unwrap();
    assert_eq!(first["evidence"], cleared["evidence"]);
    let rules: String = serde_json::from_str(&h.rules("ko").unwrap().ok()).unwrap();
    assert!(rules.contains("근거 배달 규칙"));
    h.remove_instance(engine, "x").unwrap().ok();
    assert_eq!(h.instances(engine).unwrap().ok(), "[]");
    h.engine_free(engine).unwrap().ok();
}

#[test]
fn engines_that_come_and_go_leave_the_memory_as_it_was() {
    // A host that makes an engine per request: once warm, each cycle frees what it allocated, so
    // the module's memory must not grow (it did by a slot per engine ever made: 50,000 engines
    // took 10 MB more).
    let mut h = host();
    let bytes = std::fs::read(root().join("tests/fixtures/v1/excerpts.ggi")).unwrap();
    let engine = h.engine_new("").unwrap().unwrap();
    h.add_instance(engine, "x", &bytes, "").unwrap().ok();
    h.ask(engine, "대한민국의 주권은 누구에게 있나요?", "").unwrap().ok();
    h.engine_free(engine).unwrap().ok();
    let warm = h.memory_bytes();
    let mut last = engine;
    for _ in 0..50_000 {
        let next = h.engine_new("").unwrap().unwrap();
        assert!(next > last, "handle {next} after {last}: handles count up, never reused");
        h.engine_free(next).unwrap().ok();
        last = next;
    }
    assert_eq!(h.memory_bytes(), warm, "memory grew over 50,000 engines made and freed");
}

#[test]
fn gg_alloc_on_a_full_memory_returns_0_and_the_module_lives_on() {
    // A host that allocates until it is refused: first large buffers, then ever smaller ones, down
    // to one byte — where the module's own record of the allocation is what no longer fits. Every
    // refusal is a 0, never an abort; once the host frees them, the module answers as before.
    let mut h = Host::load_limited(&wasm(), Some(32 << 20)).expect("instantiate");
    let engine = h.engine_new("").unwrap().unwrap();
    let mut held = Vec::new();
    let mut size: u32 = 1 << 20;
    while size > 0 {
        let ptr: u32 = h.raw("gg_alloc", size).expect("gg_alloc never traps");
        if ptr == 0 {
            size /= 2;
        } else {
            held.push(ptr);
        }
    }
    assert!(held.len() > 20, "{} allocations held", held.len());
    for ptr in held {
        assert_eq!(h.free(ptr).unwrap(), 0);
    }
    let bytes = std::fs::read(root().join("tests/fixtures/v1/excerpts.ggi")).unwrap();
    h.add_instance(engine, "x", &bytes, "").unwrap().ok();
    let a: Value =
        serde_json::from_str(&h.ask(engine, "대한민국의 주권은 누구에게 있나요?", "").unwrap().ok()).unwrap();
    assert_eq!(a["route"], "push");
}

#[test]
fn an_argument_too_large_to_copy_is_a_typed_error_not_an_abort() {
    // An embedder caps the module's memory at 256 MiB and passes a 150 MiB argument: copying it
    // would need more than the memory left, and a failed allocation aborts a wasm module for good.
    // Arguments are read in place and index bytes checked before their copy: typed errors, and the
    // module goes on answering.
    let mut h = Host::load_limited(&wasm(), Some(256 << 20)).expect("instantiate");
    let engine = h.engine_new("").unwrap().unwrap();
    let bytes = std::fs::read(root().join("tests/fixtures/v1/excerpts.ggi")).unwrap();
    h.add_instance(engine, "x", &bytes, "").unwrap().ok();
    let probe = h.ask(engine, "대한민국의 주권은 누구에게 있나요?", "").unwrap().ok();
    let big = 150u32 << 20;
    let ptr: u32 = h.raw("gg_alloc", big).unwrap();
    assert_ne!(ptr, 0, "gg_alloc of 150 MiB under a 256 MiB cap");
    let (name, name_len) = h.put(b"big").unwrap();
    let status: i32 = h.raw("gg_add_instance", (engine, name, name_len, ptr, big, 0u32, 0u32)).unwrap();
    assert_eq!(status, 1);
    let err = h.result().unwrap();
    assert!(err.contains("invalid_argument") && err.contains("do not fit"), "{err}");
    for export in ["gg_ask", "gg_call_tool"] {
        let status: i32 = h.raw(export, (engine, ptr, big, 0u32, 0u32)).unwrap();
        assert_eq!(status, 1, "{export}");
        assert!(h.result().unwrap().contains("invalid_argument"), "{export}");
    }
    let status: i32 = h.raw("gg_handle_line", (engine, ptr, big)).unwrap();
    assert_eq!(status, 0, "gg_handle_line answers with an error line");
    assert!(h.result().unwrap().contains("\"error\""));
    assert_eq!(h.free(ptr).unwrap(), 0);
    assert_eq!(h.ask(engine, "대한민국의 주권은 누구에게 있나요?", "").unwrap().ok(), probe);
}

#[test]
fn bad_input_is_a_typed_error_never_a_trap() {
    let mut h = host();
    let engine = h.engine_new("").unwrap().unwrap();
    let bytes = std::fs::read(root().join("tests/fixtures/v1/excerpts.ggi")).unwrap();

    // Index bytes: garbage, truncated at many points, every 97th byte flipped, a wrong version.
    assert_eq!(h.add_instance(engine, "x", b"not an index", "").unwrap().code(), "bad_magic");
    for cut in (0..bytes.len()).step_by(bytes.len() / 40) {
        let code = h.add_instance(engine, "x", &bytes[..cut.max(1)], "").unwrap().code();
        assert!(["bad_magic", "truncated", "corrupt"].contains(&code.as_str()), "cut {cut}: {code}");
    }
    for at in (0..bytes.len()).step_by(97) {
        let mut b = bytes.clone();
        b[at] ^= 0x5a;
        // Either a typed error at open or an index that loads (damage found later by verify()).
        if let Reply::Ok(_) = h.add_instance(engine, "y", &b, "").unwrap() {
            h.remove_instance(engine, "y").unwrap().ok();
        }
    }
    let mut v2 = bytes.clone();
    v2[8] = 6; // one past the newest version (5)
    assert_eq!(h.add_instance(engine, "x", &v2, "").unwrap().code(), "unsupported_version");

    // Names, options, prompts, handles.
    assert_eq!(h.add_instance(engine, "bad name!", &bytes, "").unwrap().code(), "invalid_argument");
    assert_eq!(h.add_instance(engine, "x", &bytes, "{not json").unwrap().code(), "invalid_argument");
    h.add_instance(engine, "x", &bytes, "").unwrap().ok();
    assert_eq!(h.add_instance(engine, "x", &bytes, "").unwrap().code(), "invalid_argument");
    assert_eq!(h.ask(engine, "", "").unwrap().code(), "invalid_argument");
    assert_eq!(h.ask(engine, &"가".repeat(400_000), "").unwrap().code(), "invalid_argument");
    assert_eq!(h.ask(engine, "연구수당 상한", r#"{"nonsense":1}"#).unwrap().code(), "invalid_argument");
    assert_eq!(h.search(engine, "nope", "연구수당", 3).unwrap().code(), "invalid_argument");
    assert_eq!(h.search(engine, "x", "연구수당", 0).unwrap().code(), "invalid_argument");
    assert_eq!(h.info(engine, "nope").unwrap().code(), "invalid_argument");
    assert_eq!(h.rules("fr").unwrap().code(), "invalid_argument");
    assert_eq!(h.ask(77, "연구수당 상한", "").unwrap().code(), "invalid_argument");
    assert!(h.engine_new(r#"{"top_k":0}"#).unwrap().unwrap_err().contains("invalid_argument"));

    // Raw pointers a careless host might pass: outside any allocation, past its end, not UTF-8.
    let status: i32 = h.raw("gg_ask", (engine, 16u32, 4u32, 0u32, 0u32)).unwrap();
    assert_eq!(status, 1);
    assert!(h.result().unwrap().contains("gg_alloc"));
    let (p, l) = h.put(b"abc").unwrap();
    let status: i32 = h.raw("gg_ask", (engine, p, l + 1, 0u32, 0u32)).unwrap();
    assert_eq!(status, 1);
    let status: i32 = h.raw("gg_ask", (engine, p, u32::MAX, 0u32, 0u32)).unwrap();
    assert_eq!(status, 1);
    let (bp, bl) = h.put(&[0xff, 0xfe, 0xfd]).unwrap();
    let status: i32 = h.raw("gg_ask", (engine, bp, bl, 0u32, 0u32)).unwrap();
    assert_eq!(status, 1);
    assert!(h.result().unwrap().contains("UTF-8"));
    assert_eq!(h.free(p).unwrap(), 0);
    assert_eq!(h.free(p).unwrap(), 1, "a double free is refused");
    assert_eq!(h.free(12345).unwrap(), 1);

    // After all that the engine still answers.
    let a: Value =
        serde_json::from_str(&h.ask(engine, "대한민국의 주권은 누구에게 있나요? #x", "").unwrap().ok())
            .unwrap();
    assert_eq!(a["evidence"][0]["article"], "제1조");
}

#[test]
fn tools_are_byte_identical_to_the_native_cli() {
    let lines = std::fs::read_to_string(root().join("tests/fixtures/tool_calls.jsonl")).unwrap();
    let paths = indexes();
    assert_eq!(paths.len(), 5, "needs the default indexes: run ./build.sh");
    let mut args: Vec<&str> = vec!["tool", "--jsonl"];
    for p in &paths {
        args.push("--index");
        args.push(p.to_str().unwrap());
    }
    let native = cli(&args, &lines);
    let native: Vec<&str> = native.lines().collect();
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(native.len(), lines.len());
    let mut h = host();
    let e = h.engine_new("").unwrap().unwrap();
    for p in &paths {
        let bytes = std::fs::read(p).unwrap();
        let name = p.file_stem().unwrap().to_str().unwrap();
        h.add_instance(e, name, &bytes, "").unwrap().ok();
    }
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(h.handle_line(e, line.as_bytes()).unwrap().ok(), native[i], "line {i}");
        let Ok(req) = serde_json::from_str::<Value>(line) else { continue };
        let (Some(tool), Some(a)) = (req["tool"].as_str(), req.get("arguments").filter(|a| a.is_object()))
        else {
            continue;
        };
        let reply: Value = serde_json::from_str(native[i]).unwrap();
        match h.call_tool(e, tool, &a.to_string()).unwrap() {
            Reply::Ok(json) => assert_eq!(format!("{{\"id\":{},\"result\":{json}}}", req["id"]), native[i]),
            Reply::Err(err) => {
                assert_eq!(serde_json::from_str::<Value>(&err).unwrap(), reply["error"], "line {i}")
            }
        }
    }
    let defs: Value = serde_json::from_str(&h.tool_definitions().unwrap().ok()).unwrap();
    assert_eq!(defs.as_array().unwrap().len(), 5);
    // Not UTF-8, a huge line, a pointer outside any allocation: replies or typed errors, no trap.
    let r = h.handle_line(e, &[0xff, b'{']).unwrap().ok();
    assert!(r.contains("UTF-8"), "{r}");
    let huge =
        format!("{{\"id\":1,\"tool\":\"grep\",\"arguments\":{{\"text\":\"{}\"}}}}", "a".repeat(2 << 20));
    assert!(h.handle_line(e, huge.as_bytes()).unwrap().ok().contains("bytes, at most"));
    let status: i32 = h.raw("gg_call_tool", (e, 8u32, 4u32, 0u32, 0u32)).unwrap();
    assert_eq!(status, 1);
}
