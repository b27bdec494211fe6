//! Plain-export ABI for hosts without JS glue (wasmtime, wasmer, Go/Python/.NET embedders): C
//! functions over linear memory, JSON in and JSON out, **no imports**. Feature `abi`; built by
//! `./build.sh` into `pkg/abi/groundgate.wasm`. Conversion only: every call goes to [`Engine`].
//!
//! Calling convention (all integers are wasm `i32` except the clock's `i64`):
//!
//! 1. `gg_alloc(len) -> ptr` reserves `len` bytes; the host writes a UTF-8 string or index bytes
//!    there and passes `(ptr, len)` to a call. Every `(ptr, len)` argument must lie inside one live
//!    allocation, or the call fails with `invalid_argument` (never reads outside it). `(0, 0)` is an
//!    empty argument (options left out). `gg_free(ptr)` releases an allocation (status 1 if `ptr`
//!    is not one).
//! 2. Calls return a status: `0` = ok, `1` = error. The result — the value as JSON on success, the
//!    error `{"code","message"}` on failure — is at `gg_result_ptr()` for `gg_result_len()` bytes,
//!    owned by the module and valid until the next call.
//! 3. `gg_engine_new(config)` returns an engine handle (≥ 1), or 0 on error (the result holds it).
//!    Handles count up and are never reused; `gg_engine_free` returns the engine's memory, so a
//!    host may make an engine per request.
//!
//! | call | arguments | result JSON |
//! |---|---|---|
//! | `gg_abi_version()` | — | returns [`ABI_VERSION`] |
//! | `gg_engine_new` | config JSON | returns the handle |
//! | `gg_engine_free` | handle | `null` |
//! | `gg_set_clock` | handle, ms: i64 | `null` |
//! | `gg_add_instance` | handle, name, index bytes, options JSON | the index's meta |
//! | `gg_remove_instance` | handle, name | `null` |
//! | `gg_instances` | handle | `["name", …]` |
//! | `gg_info` | handle, name | the index's meta |
//! | `gg_ask` | handle, prompt, options JSON | the `ask` answer (as the CLI's `ask --jsonl`) |
//! | `gg_search` | handle, instance, query, k | hits |
//! | `gg_clear_session` | handle, session | `null` |
//! | `gg_rules` | lang | the rules text as a JSON string |
//! | `gg_call_tool` (feature `tools`) | handle, tool name, arguments JSON | the tool's result (docs/tools.md) |
//! | `gg_tool_definitions` | — | the tools' definitions |
//! | `gg_handle_line` | handle, a JSON Lines request `{"id","tool","arguments"}` | status 0; the reply line (`{"id","result"}` or `{"id","error"}`; empty for a blank line) as raw bytes, not wrapped |
//!
//! Arguments are read in place, never copied before their checks, and index bytes are copied only
//! after a check that the copy fits: an argument too large for the module's memory is
//! `invalid_argument`. Any other allocation that fails (the host filled the memory with its own
//! `gg_alloc`s) aborts the module, as every wasm32 allocation failure does: instantiate it again.
//!
//! There is no clock import: an engine's clock stands at 0 ms until `gg_set_clock`, or a call
//! passes `now_ms` in its options (session dedup needs one of them; the deadline gate never fires
//! on a stopped clock). Single-threaded, like every wasm32-unknown-unknown module.

// The C exports need `#[unsafe(no_mangle)]` (an exported symbol name is unsafe to declare: it may
// clash); nothing else in this module is unsafe.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::engine::{AskOptions, Config, Engine, FixedClock, InstanceOptions};
use crate::{Error, Result};

/// Version of this calling convention; bumped on any incompatible change.
pub const ABI_VERSION: u32 = 1;

/// Status returned by a call that succeeded.
const OK: i32 = 0;
/// Status returned by a call that failed; the result holds the error.
const FAILED: i32 = 1;

#[derive(Default)]
struct State {
    allocs: Allocs,
    engines: Engines,
    /// The last call's result.
    result: Vec<u8>,
}

/// Live allocations sorted by start address; each buffer is at least one byte, so addresses
/// differ. A call reads its arguments in place (borrowed next to the engine it runs, never
/// copied): a 2 GiB argument is refused by the call's own size check, not by a failed copy that
/// would abort the module. A sorted vector, not a map, so that room for a new record is reserved
/// fallibly: `gg_alloc` on a full memory returns 0 instead of aborting.
#[derive(Default)]
struct Allocs(Vec<(usize, Vec<u8>)>);

/// Live engines by handle. A freed engine leaves the map, so memory follows the live engines however
/// many come and go; handles count up from 1 and are never reused (a stale handle cannot reach a
/// newer engine), up to `i32::MAX` — the ABI passes them as wasm `i32`.
#[derive(Default)]
struct Engines {
    live: BTreeMap<u32, Engine>,
    /// The last handle issued (0: none yet).
    issued: u32,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

impl Allocs {
    /// The bytes at `(ptr, len)`, which must lie inside one live allocation.
    fn bytes(&self, ptr: usize, len: usize, what: &'static str) -> Result<&[u8]> {
        if len == 0 {
            return Ok(&[]);
        }
        let outside = || Error::invalid(what, format!("({ptr}, {len}) is not inside a gg_alloc allocation"));
        let at = self.0.partition_point(|(base, _)| *base <= ptr).checked_sub(1).ok_or_else(outside)?;
        let (base, buf) = (self.0[at].0, &self.0[at].1);
        let start = ptr - base;
        let end = start.checked_add(len).ok_or_else(outside)?;
        buf.get(start..end).ok_or_else(outside)
    }

    fn text(&self, ptr: usize, len: usize, what: &'static str) -> Result<&str> {
        std::str::from_utf8(self.bytes(ptr, len, what)?)
            .map_err(|e| Error::invalid(what, format!("not UTF-8: {e}")))
    }

    /// Options JSON; an empty argument gives the defaults.
    fn options<T: DeserializeOwned + Default>(
        &self,
        ptr: usize,
        len: usize,
        what: &'static str,
    ) -> Result<T> {
        let bytes = self.bytes(ptr, len, what)?;
        if bytes.is_empty() {
            return Ok(T::default());
        }
        // An array would bind the fields by position (serde reads a struct from a sequence),
        // past the unknown-field check: options are an object, as on the other faces.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(Error::invalid(what, "must be a JSON object"));
        }
        serde_json::from_slice(bytes).map_err(|e| Error::invalid(what, e.to_string()))
    }
}

impl Engines {
    fn get(&mut self, handle: u32) -> Result<&mut Engine> {
        self.live.get_mut(&handle).ok_or_else(|| not_live(handle))
    }

    /// Keep `engine` under a new handle.
    fn insert(&mut self, engine: Engine) -> Result<u32> {
        let handle = self.issued.checked_add(1).filter(|&h| h <= i32::MAX as u32).ok_or_else(|| {
            Error::invalid("engine", "every engine handle has been issued: instantiate the module again")
        })?;
        self.issued = handle;
        self.live.insert(handle, engine);
        Ok(handle)
    }

    fn remove(&mut self, handle: u32) -> Result<()> {
        self.live.remove(&handle).map(drop).ok_or_else(|| not_live(handle))
    }
}

fn not_live(handle: u32) -> Error {
    Error::invalid("engine", format!("{handle} is not a live engine handle"))
}

impl State {
    fn set_result(&mut self, outcome: Result<Vec<u8>>) -> i32 {
        let (status, bytes) = match outcome {
            Ok(json) => (OK, json),
            Err(e) => (FAILED, json(&e.report()).unwrap_or_default()),
        };
        self.result = bytes;
        status
    }
}

/// Index bytes copied into the engine's shared buffer, once the copy is known to fit.
fn shared_bytes(bytes: &[u8]) -> Result<std::sync::Arc<[u8]>> {
    crate::engine::check_room_for_index(bytes.len(), "index bytes")?;
    Ok(std::sync::Arc::from(bytes))
}

fn json<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(|e| Error::invalid("result", e.to_string()))
}

/// Run one call against the state and store its result; returns the status.
fn call(f: impl FnOnce(&mut State) -> Result<Vec<u8>>) -> i32 {
    STATE.with(|s| {
        let mut state = s.borrow_mut();
        let outcome = f(&mut state);
        state.set_result(outcome)
    })
}

/// The calling convention's version ([`ABI_VERSION`]).
#[unsafe(no_mangle)]
pub extern "C" fn gg_abi_version() -> u32 {
    ABI_VERSION
}

/// Reserve `len` bytes (zeroed) for the host to write into; returns their address, 0 if the
/// buffer or its record does not fit (never an abort).
#[unsafe(no_mangle)]
pub extern "C" fn gg_alloc(len: usize) -> usize {
    let mut buf = Vec::new();
    if buf.try_reserve_exact(len.max(1)).is_err() {
        return 0;
    }
    buf.resize(len.max(1), 0);
    let ptr = buf.as_ptr() as usize;
    STATE.with(|s| {
        let allocs = &mut s.borrow_mut().allocs.0;
        if allocs.try_reserve(1).is_err() {
            return 0;
        }
        let at = allocs.partition_point(|(base, _)| *base < ptr);
        allocs.insert(at, (ptr, buf));
        ptr
    })
}

/// Release an allocation made by [`gg_alloc`]; status 1 if `ptr` is not one.
#[unsafe(no_mangle)]
pub extern "C" fn gg_free(ptr: usize) -> i32 {
    STATE.with(|s| {
        let allocs = &mut s.borrow_mut().allocs.0;
        match allocs.binary_search_by_key(&ptr, |(base, _)| *base) {
            Ok(at) => {
                allocs.remove(at);
                OK
            }
            Err(_) => FAILED,
        }
    })
}

/// Address of the last call's result.
#[unsafe(no_mangle)]
pub extern "C" fn gg_result_ptr() -> usize {
    STATE.with(|s| s.borrow().result.as_ptr() as usize)
}

/// Length in bytes of the last call's result.
#[unsafe(no_mangle)]
pub extern "C" fn gg_result_len() -> usize {
    STATE.with(|s| s.borrow().result.len())
}

/// A new engine from a config JSON (empty = defaults); its handle, or 0 on error.
#[unsafe(no_mangle)]
pub extern "C" fn gg_engine_new(config_ptr: usize, config_len: usize) -> u32 {
    let mut handle = 0;
    call(|st| {
        let config: Config = st.allocs.options(config_ptr, config_len, "config")?;
        let mut engine = Engine::new(config)?;
        engine.set_clock(Box::new(FixedClock(0)));
        handle = st.engines.insert(engine)?;
        json(&handle)
    });
    handle
}

/// Drop an engine and everything it holds.
#[unsafe(no_mangle)]
pub extern "C" fn gg_engine_free(engine: u32) -> i32 {
    call(|st| {
        st.engines.remove(engine)?;
        json(&())
    })
}

/// Stop the engine's clock at `ms` milliseconds since the Unix epoch.
#[unsafe(no_mangle)]
pub extern "C" fn gg_set_clock(engine: u32, ms: u64) -> i32 {
    call(|st| {
        st.engines.get(engine)?.set_clock(Box::new(FixedClock(ms)));
        json(&())
    })
}

/// Load an instance from index bytes; the result is the index's meta.
#[unsafe(no_mangle)]
pub extern "C" fn gg_add_instance(
    engine: u32,
    name_ptr: usize,
    name_len: usize,
    bytes_ptr: usize,
    bytes_len: usize,
    options_ptr: usize,
    options_len: usize,
) -> i32 {
    call(|st| {
        let name = st.allocs.text(name_ptr, name_len, "name")?;
        let opts: InstanceOptions = st.allocs.options(options_ptr, options_len, "options")?;
        let bytes = shared_bytes(st.allocs.bytes(bytes_ptr, bytes_len, "index bytes")?)?;
        let engine = st.engines.get(engine)?;
        engine.add_instance(name, bytes, opts)?;
        json(engine.index(name)?.meta())
    })
}

/// Unload an instance.
#[unsafe(no_mangle)]
pub extern "C" fn gg_remove_instance(engine: u32, name_ptr: usize, name_len: usize) -> i32 {
    call(|st| {
        let name = st.allocs.text(name_ptr, name_len, "name")?;
        st.engines.get(engine)?.remove_instance(name)?;
        json(&())
    })
}

/// Loaded instance names.
#[unsafe(no_mangle)]
pub extern "C" fn gg_instances(engine: u32) -> i32 {
    call(|st| json(&st.engines.get(engine)?.instance_names()))
}

/// An instance's meta (name, title, counts, settings).
#[unsafe(no_mangle)]
pub extern "C" fn gg_info(engine: u32, name_ptr: usize, name_len: usize) -> i32 {
    call(|st| {
        let name = st.allocs.text(name_ptr, name_len, "name")?;
        json(st.engines.get(engine)?.index(name)?.meta())
    })
}

/// The `ask` answer for a prompt; options JSON `{session?, format?, now_ms?}` (empty = defaults).
#[unsafe(no_mangle)]
pub extern "C" fn gg_ask(
    engine: u32,
    prompt_ptr: usize,
    prompt_len: usize,
    options_ptr: usize,
    options_len: usize,
) -> i32 {
    call(|st| {
        let prompt = st.allocs.text(prompt_ptr, prompt_len, "prompt")?;
        let opts: AskOptions = st.allocs.options(options_ptr, options_len, "options")?;
        json(&st.engines.get(engine)?.ask(prompt, &opts)?)
    })
}

/// The best `k` hits of one instance for `query` (no gates).
#[unsafe(no_mangle)]
pub extern "C" fn gg_search(
    engine: u32,
    instance_ptr: usize,
    instance_len: usize,
    query_ptr: usize,
    query_len: usize,
    k: u32,
) -> i32 {
    call(|st| {
        let instance = st.allocs.text(instance_ptr, instance_len, "instance")?;
        let query = st.allocs.text(query_ptr, query_len, "query")?;
        json(&st.engines.get(engine)?.search(instance, query, k as usize)?)
    })
}

/// Forget what a session has been shown.
#[unsafe(no_mangle)]
pub extern "C" fn gg_clear_session(engine: u32, session_ptr: usize, session_len: usize) -> i32 {
    call(|st| {
        let session = st.allocs.text(session_ptr, session_len, "session")?;
        st.engines.get(engine)?.clear_session(session)?;
        json(&())
    })
}

/// The delivery rules for an agent's instructions (`ko` or `en`), as a JSON string.
#[unsafe(no_mangle)]
pub extern "C" fn gg_rules(lang_ptr: usize, lang_len: usize) -> i32 {
    call(|st| json(crate::deliver::rules::rules(st.allocs.text(lang_ptr, lang_len, "lang")?)?))
}

/// Call a pull tool; the result is the tool's JSON (docs/tools.md).
#[cfg(feature = "tools")]
#[unsafe(no_mangle)]
pub extern "C" fn gg_call_tool(
    engine: u32,
    name_ptr: usize,
    name_len: usize,
    args_ptr: usize,
    args_len: usize,
) -> i32 {
    call(|st| {
        let name = st.allocs.text(name_ptr, name_len, "tool")?;
        let args = st.allocs.text(args_ptr, args_len, "arguments")?;
        Ok(crate::tools::call_str(st.engines.get(engine)?, name, args)?.into_bytes())
    })
}

/// The tools' definitions (name, title, description, JSON Schemas, annotations).
#[cfg(feature = "tools")]
#[unsafe(no_mangle)]
pub extern "C" fn gg_tool_definitions() -> i32 {
    call(|_| Ok(crate::tools::schema::DEFINITIONS_JSON.as_bytes().to_vec()))
}

/// One JSON Lines tool request → its reply line (the `protocol` contract); status 1 only for a bad
/// handle or argument buffer.
#[cfg(feature = "tools")]
#[unsafe(no_mangle)]
pub extern "C" fn gg_handle_line(engine: u32, line_ptr: usize, line_len: usize) -> i32 {
    call(|st| {
        let line = st.allocs.bytes(line_ptr, line_len, "line")?;
        Ok(crate::protocol::handle_line(st.engines.get(engine)?, line).into_bytes())
    })
}

#[cfg(test)]
mod tests {
    //! The ABI called natively, as a host would: through allocations and results only.

    use super::*;

    /// Copy `bytes` into a fresh allocation, as a host writes into linear memory.
    fn put(bytes: &[u8]) -> (usize, usize) {
        let ptr = gg_alloc(bytes.len());
        STATE.with(|s| {
            let mut st = s.borrow_mut();
            let at = st.allocs.0.binary_search_by_key(&ptr, |(base, _)| *base).unwrap();
            st.allocs.0[at].1[..bytes.len()].copy_from_slice(bytes);
        });
        (ptr, bytes.len())
    }

    fn result() -> serde_json::Value {
        STATE.with(|s| {
            let st = s.borrow();
            assert_eq!(st.result.as_ptr() as usize, gg_result_ptr());
            assert_eq!(st.result.len(), gg_result_len());
            serde_json::from_slice(&st.result).unwrap()
        })
    }

    fn fixture() -> Vec<u8> {
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1/excerpts.ggi")).unwrap()
    }

    #[test]
    fn a_host_session_end_to_end() {
        assert_eq!(gg_abi_version(), 1);
        let cfg = put(br#"{"top_k":3}"#);
        let h = gg_engine_new(cfg.0, cfg.1);
        assert!(h >= 1, "{}", result());
        let name = put(b"x");
        let idx = put(&fixture());
        let opts = put(br#"{"sufficiency":0}"#);
        assert_eq!(gg_add_instance(h, name.0, name.1, idx.0, idx.1, opts.0, opts.1), OK, "{}", result());
        assert_eq!(result()["name"], "excerpts");
        assert_eq!(gg_free(idx.0), OK);
        assert_eq!(gg_instances(h), OK);
        assert_eq!(result(), serde_json::json!(["x"]));

        let prompt = put("대한민국의 주권은 누구에게 있나요? #x".as_bytes());
        assert_eq!(gg_ask(h, prompt.0, prompt.1, 0, 0), OK, "{}", result());
        let answer = result();
        assert_eq!(answer["route"], "push", "{answer}");
        assert_eq!(answer["evidence"][0]["article"], "제1조", "{answer}");
        let q = put("거주 이전의 자유".as_bytes());
        assert_eq!(gg_search(h, name.0, name.1, q.0, q.1, 2), OK);
        assert_eq!(result()[0]["article"], "제14조");

        let lang = put(b"ko");
        assert_eq!(gg_rules(lang.0, lang.1), OK);
        assert!(result().as_str().unwrap().contains("근거"));
        assert_eq!(gg_remove_instance(h, name.0, name.1), OK);
        assert_eq!(gg_engine_free(h), OK);
        assert_eq!(gg_instances(h), FAILED);
        assert_eq!(result()["code"], "invalid_argument");
    }

    #[test]
    fn engines_come_and_go_in_bounded_memory_and_handles_are_never_reused() {
        let first = gg_engine_new(0, 0);
        assert_eq!(gg_engine_free(first), OK);
        let mut last = first;
        for _ in 0..500 {
            let h = gg_engine_new(0, 0);
            assert!(h > last, "handle {h} after {last}");
            assert_eq!(gg_engine_free(h), OK);
            last = h;
        }
        STATE.with(|s| assert!(s.borrow().engines.live.is_empty()));
        // A freed handle stays dead although newer engines live.
        let live = gg_engine_new(0, 0);
        assert_eq!(gg_instances(first), FAILED);
        assert_eq!(result()["code"], "invalid_argument");
        assert_eq!(gg_instances(live), OK);
        // The last handle a wasm i32 holds, then a typed error (nothing kept), never a wrap to 0.
        STATE.with(|s| s.borrow_mut().engines.issued = i32::MAX as u32 - 1);
        assert_eq!(gg_engine_new(0, 0), i32::MAX as u32);
        assert_eq!(gg_engine_new(0, 0), 0);
        assert_eq!(result()["code"], "invalid_argument");
        assert!(result()["message"].as_str().unwrap().contains("instantiate"), "{}", result());
        STATE.with(|s| assert_eq!(s.borrow().engines.live.len(), 2));
        assert_eq!(gg_instances(live), OK);
    }

    #[test]
    fn bad_arguments_are_typed_errors() {
        let h = gg_engine_new(0, 0);
        assert!(h >= 1);
        let buf = put(b"abc");
        // Past the end of an allocation, before any allocation, an unknown handle, bad UTF-8.
        assert_eq!(gg_ask(h, buf.0, 4, 0, 0), FAILED);
        assert!(result()["message"].as_str().unwrap().contains("gg_alloc"));
        assert_eq!(gg_ask(h, 8, 1, 0, 0), FAILED);
        assert_eq!(gg_ask(h, buf.0 + 1, usize::MAX, 0, 0), FAILED);
        assert_eq!(gg_ask(999, buf.0, 3, 0, 0), FAILED);
        assert_eq!(gg_ask(0, buf.0, 3, 0, 0), FAILED);
        let bad = put(&[0xff, 0xfe]);
        assert_eq!(gg_ask(h, bad.0, bad.1, 0, 0), FAILED);
        assert!(result()["message"].as_str().unwrap().contains("UTF-8"));
        // Bad options, corrupt index bytes, unknown instance, double free.
        let opts = put(br#"{"sesion":"a"}"#);
        assert_eq!(gg_ask(h, buf.0, buf.1, opts.0, opts.1), FAILED);
        assert_eq!(result()["code"], "invalid_argument");
        let name = put(b"y");
        let idx = fixture();
        let half = put(&idx[..idx.len() / 2]);
        assert_eq!(gg_add_instance(h, name.0, name.1, half.0, half.1, 0, 0), FAILED);
        assert_eq!(result()["code"], "truncated");
        assert_eq!(gg_add_instance(h, name.0, name.1, buf.0, buf.1, 0, 0), FAILED);
        assert_eq!(result()["code"], "bad_magic");
        assert_eq!(gg_info(h, name.0, name.1), FAILED);
        assert_eq!(gg_free(buf.0), OK);
        assert_eq!(gg_free(buf.0), FAILED);
        let cfg = put(br#"{"top_k":"many"}"#);
        assert_eq!(gg_engine_new(cfg.0, cfg.1), 0);
        assert_eq!(result()["code"], "invalid_argument");
        // Options and config are objects: an array would bind fields by position (verify: false).
        let whole = put(&idx);
        let by_position = put(br#" [null,null,[],false]"#);
        assert_eq!(
            gg_add_instance(h, name.0, name.1, whole.0, whole.1, by_position.0, by_position.1),
            FAILED
        );
        assert_eq!(result()["message"], "invalid options: must be a JSON object");
        let cfg = put(b"[1,1,1]");
        assert_eq!(gg_engine_new(cfg.0, cfg.1), 0);
        assert_eq!(result()["code"], "invalid_argument");
        // A session id ask would refuse is refused by clear too.
        assert_eq!(gg_clear_session(h, 0, 0), FAILED);
        assert_eq!(result()["code"], "invalid_argument");
    }

    #[cfg(feature = "tools")]
    #[test]
    fn tools_through_the_abi() {
        let h = gg_engine_new(0, 0);
        let (name, idx) = (put(b"x"), put(&fixture()));
        assert_eq!(gg_add_instance(h, name.0, name.1, idx.0, idx.1, 0, 0), OK);
        let tool = put(b"read");
        let args = put(r#"{"instance":"x","source":"constitution","article":"제14조"}"#.as_bytes());
        assert_eq!(gg_call_tool(h, tool.0, tool.1, args.0, args.1), OK, "{}", result());
        assert!(result()["text"].as_str().unwrap().contains("거주"));
        let bad = put(br#"{"instance":"x","source":"constitution","article":"999"}"#);
        assert_eq!(gg_call_tool(h, tool.0, tool.1, bad.0, bad.1), FAILED);
        assert_eq!(result()["code"], "invalid_argument");
        let nope = put(b"rm");
        assert_eq!(gg_call_tool(h, nope.0, nope.1, 0, 0), FAILED);
        assert_eq!(gg_tool_definitions(), OK);
        assert_eq!(result().as_array().unwrap().len(), 5);
        let line =
            put(r#"{"id":7,"tool":"search","arguments":{"query":"거주 이전의 자유","k":1}}"#.as_bytes());
        assert_eq!(gg_handle_line(h, line.0, line.1), OK);
        assert_eq!(result()["id"], 7);
        assert_eq!(result()["result"]["results"][0]["article"], "제14조");
        let junk = put(&[0xff, b'{']);
        assert_eq!(gg_handle_line(h, junk.0, junk.1), OK);
        assert_eq!(result()["error"]["code"], "invalid_argument");
    }

    #[test]
    fn zero_length_allocations_have_distinct_addresses() {
        let a = gg_alloc(0);
        let b = gg_alloc(0);
        assert_ne!(a, b);
        assert!(a != 0 && b != 0);
        assert_eq!(gg_free(a), OK);
        assert_eq!(gg_free(b), OK);
    }
}
