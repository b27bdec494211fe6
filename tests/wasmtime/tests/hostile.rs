//! Hostile ABI calls (issue 14): a seeded random sequence of ≥ 2,000 calls of every export of
//! `pkg/abi/groundgate.wasm` with the arguments a careless or hostile host passes — pointers out of
//! range, null, past the end or into freed allocations, lengths up to 2³²−1, invalid UTF-8, bad
//! JSON, JSON of the wrong shape, garbage index bytes, unknown and freed engine handles, extreme
//! clocks and counts. After each call a probe `gg_ask` must answer byte for byte as before.
//! Counted: traps (a call that returns a wasmtime error), unknown statuses, a failing probe
//! (poisoned module), changed answers. All must be 0.

use std::path::PathBuf;

use groundgate_wasmtime_tests::{Host, Reply, path_from_env, root};

const CALLS: usize = 2_400;

fn wasm() -> PathBuf {
    let p = path_from_env("GG_ABI_WASM", "pkg/abi/groundgate.wasm");
    assert!(p.exists(), "{} is missing: run ./build.sh first", p.display());
    p
}

/// xorshift64*: the same sequence every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// Argument contents a host might send (none of them is the probe's instance name).
fn contents(index: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = [
        "",
        " ",
        "nope",
        "x y",
        "ko",
        "en",
        "search",
        "read",
        "rm",
        "#probe",
        "대한민국의 주권은?",
        "{}",
        "[]",
        "null",
        "42",
        "\"s\"",
        "{",
        "{\"nonsense\":1}",
        "{\"top_k\":0}",
        "{\"top_k\":1e9}",
        "{\"session\":5}",
        "{\"now_ms\":18446744073709551615}",
        "{\"now_ms\":-1}",
        "{\"format\":\"huge\"}",
        "{\"session\":\"s\",\"now_ms\":1}",
        "{\"rerank\":{\"k\":-1}}",
        "{\"sufficiency\":2}",
        "{\"anchors\":[null]}",
        "{\"query\":\"주권\",\"k\":1000000}",
        "{\"query\":\"\"}",
        "{\"instance\":\"probe\",\"source\":\"constitution\",\"chunk\":4294967295}",
        "{\"instance\":\"probe\",\"source\":\"constitution\",\"article\":\"1\",\"around\":1000000}",
        "{\"text\":\"자유\",\"limit\":0}",
        "{\"id\":1,\"tool\":\"sources\"}",
        "{\"id\":1e400,\"tool\":\"x\"}",
        "groundgate-session 1\nprobe 0 1\n",
        "groundgate-session 1\nprobe 4294967296 -1\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    out.push(vec![0xff, 0xfe, 0x00, 0x80]); // not UTF-8
    out.push(b"{\"session\":\"\xff\"}".to_vec());
    out.push(vec![0; 64]);
    out.push("가".repeat(400_000).into_bytes()); // over the prompt limit
    out.push(vec![b'{'; 2 << 20]); // over the line limit
    out.push(index[..index.len() / 3].to_vec());
    let mut flipped = index.to_vec();
    flipped[index.len() / 2] ^= 0x40;
    out.push(flipped);
    let mut v9 = index.to_vec();
    v9[8] = 9;
    out.push(v9);
    out
}

/// A probe: the same prompt, clock and options each time, answered by the probe engine.
fn probe(h: &mut Host, engine: u32) -> wasmtime::Result<Reply> {
    h.set_clock(engine, 0)?;
    h.ask(engine, "대한민국의 주권은 누구에게 있나요? #probe", "")
}

#[test]
fn hostile_calls_never_trap_and_leave_the_module_answering_as_before() {
    let index = std::fs::read(root().join("tests/fixtures/v1/excerpts.ggi")).unwrap();
    let mut h = Host::load(&wasm()).expect("instantiate");
    let engine = h.engine_new("").unwrap().unwrap();
    h.add_instance(engine, "probe", &index, r#"{"sufficiency":0,"relevance":0}"#).unwrap().ok();
    let other = h.engine_new("").unwrap().unwrap();
    let freed = h.engine_new("").unwrap().unwrap();
    h.engine_free(freed).unwrap().ok();
    let before = probe(&mut h, engine).unwrap().ok();

    // Live argument buffers (some freed by the calls themselves: then they are dangling pointers).
    let mut bufs: Vec<(u32, u32)> = contents(&index).iter().map(|c| h.put(c).unwrap()).collect();
    let (dangling, _) = h.put(b"freed").unwrap();
    h.free(dangling).unwrap();
    let memory_end = 1u32 << 26;

    let mut rng = Rng(0x1414_2026_0000_0001);
    let (mut traps, mut bad_status, mut poisoned, mut changed, mut ok, mut failed) =
        (vec![], vec![], vec![], 0, 0, 0);
    let exports = [
        "gg_alloc",
        "gg_free",
        "gg_result_ptr",
        "gg_result_len",
        "gg_engine_new",
        "gg_engine_free",
        "gg_set_clock",
        "gg_add_instance",
        "gg_remove_instance",
        "gg_instances",
        "gg_info",
        "gg_ask",
        "gg_search",
        "gg_clear_session",
        "gg_rules",
        "gg_call_tool",
        "gg_tool_definitions",
        "gg_handle_line",
        "gg_abi_version",
    ];
    let mut per_export = vec![0usize; exports.len()];
    for i in 0..CALLS {
        let which = if i < exports.len() { i } else { rng.below(exports.len()) };
        per_export[which] += 1;
        let name = exports[which];
        // A (pointer, length) argument: exact, off by one, into the middle, null, empty, random,
        // huge, dangling.
        let arg = |rng: &mut Rng| -> (u32, u32) {
            let (p, l) = bufs[rng.below(bufs.len())];
            match rng.below(10) {
                0..=3 => (p, l),
                4 => (p, l.wrapping_add(1)),
                5 => (p.wrapping_add(1), l.saturating_sub(1).max(1)),
                6 => (0, 0),
                7 => (
                    rng.pick(&[0, 1, 8, p, memory_end, u32::MAX - 3, u32::MAX]),
                    rng.pick(&[1, 4, l, u32::MAX]),
                ),
                8 => (p, rng.pick(&[u32::MAX, u32::MAX - p, 1 << 31])),
                _ => (dangling, rng.pick(&[0, 1, 5])),
            }
        };
        let handle = rng.pick(&[engine, engine, engine, other, freed, 0, 999, u32::MAX]);
        let (a, b, c) = (arg(&mut rng), arg(&mut rng), arg(&mut rng));
        let k = rng.pick(&[0u32, 1, 3, 1000, 1001, u32::MAX, 1 << 31]);
        let outcome: wasmtime::Result<i64> = match name {
            "gg_alloc" => {
                let len = rng.pick(&[0u32, 1, 7, 4096, 1 << 20, 1 << 31, u32::MAX - 7, u32::MAX]);
                h.raw::<u32, u32>(name, len).and_then(|p| {
                    // Keep small ones as arguments; release big ones (memory).
                    if p != 0 && len <= 4096 {
                        bufs.push((p, len.max(1)));
                    } else if p != 0 {
                        h.free(p)?;
                    }
                    Ok(0)
                })
            }
            "gg_free" => {
                let p = if rng.below(3) == 0 {
                    a.0
                } else {
                    rng.pick(&[0, 1, dangling, u32::MAX, a.0.wrapping_add(1)])
                };
                // Never free the buffers the probe needs: it allocates its own each time.
                h.raw::<u32, i32>(name, p).map(i64::from)
            }
            "gg_result_ptr" | "gg_result_len" | "gg_tool_definitions" | "gg_abi_version" => {
                h.raw::<(), i32>(name, ()).map(i64::from)
            }
            "gg_engine_new" => h.raw::<(u32, u32), u32>(name, a).map(|h| i64::from(h != 0)),
            "gg_engine_free" => {
                let hd = if handle == engine { other } else { handle };
                h.raw::<u32, i32>(name, hd).map(i64::from)
            }
            "gg_set_clock" => {
                let ms = rng.pick(&[0u64, 1, 1 << 53, u64::MAX, u64::MAX - 1, 1 << 63]);
                h.raw::<(u32, u64), i32>(name, (handle, ms)).map(i64::from)
            }
            "gg_add_instance" => h
                .raw::<(u32, u32, u32, u32, u32, u32, u32), i32>(name, (handle, a.0, a.1, b.0, b.1, c.0, c.1))
                .map(i64::from),
            "gg_remove_instance" | "gg_info" | "gg_clear_session" | "gg_handle_line" => {
                h.raw::<(u32, u32, u32), i32>(name, (handle, a.0, a.1)).map(i64::from)
            }
            "gg_instances" => h.raw::<u32, i32>(name, handle).map(i64::from),
            "gg_ask" | "gg_call_tool" => {
                h.raw::<(u32, u32, u32, u32, u32), i32>(name, (handle, a.0, a.1, b.0, b.1)).map(i64::from)
            }
            "gg_search" => h
                .raw::<(u32, u32, u32, u32, u32, u32), i32>(name, (handle, a.0, a.1, b.0, b.1, k))
                .map(i64::from),
            "gg_rules" => h.raw::<(u32, u32), i32>(name, a).map(i64::from),
            other => panic!("no case for {other}"),
        };
        let what = || format!("{i}: {name} handle {handle} args {a:?} {b:?} {c:?} k {k}");
        match outcome {
            Err(e) => {
                // A trapped instance is not to be trusted: nothing after it would mean anything.
                traps.push(format!("{}: {e}", what()));
                break;
            }
            // These return a value, not a status.
            Ok(_)
                if matches!(
                    name,
                    "gg_engine_new" | "gg_alloc" | "gg_result_ptr" | "gg_result_len" | "gg_abi_version"
                ) =>
            {
                ok += 1;
            }
            Ok(0) => ok += 1,
            Ok(1) => failed += 1,
            Ok(s) => bad_status.push(format!("{}: status {s}", what())),
        }
        match probe(&mut h, engine) {
            Ok(Reply::Ok(now)) if now == before => {}
            Ok(Reply::Ok(_)) => changed += 1,
            Ok(Reply::Err(e)) => {
                poisoned.push(format!("{}: {e}", what()));
                break;
            }
            Err(e) => {
                poisoned.push(format!("{}: probe trapped: {e}", what()));
                break;
            }
        }
    }
    eprintln!(
        "hostile ABI calls: {CALLS} ({} exports, each ≥ {} times); ok {ok}, typed errors {failed}, traps {}, \
         unknown statuses {}, poisoned {}, changed answers {changed}",
        exports.len(),
        per_export.iter().min().unwrap(),
        traps.len(),
        bad_status.len(),
        poisoned.len()
    );
    assert_eq!(traps, Vec::<String>::new(), "traps");
    assert_eq!(bad_status, Vec::<String>::new(), "statuses other than 0 and 1");
    assert_eq!(poisoned, Vec::<String>::new(), "poisoned module");
    assert_eq!(changed, 0, "changed answers");
    assert!(failed > 1000, "most hostile calls are typed errors ({failed})");
    assert!(per_export.iter().all(|&n| n >= 50), "every export is called often: {per_export:?}");
}
