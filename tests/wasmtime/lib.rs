//! A wasmtime host for groundgate's plain-export build (`pkg/abi/groundgate.wasm`, `src/abi.rs`):
//! what an embedder without JS glue writes — allocate, copy arguments in, call, read the JSON
//! result. The tests in `tests/` drive the real artifact through it.

use std::path::{Path, PathBuf};

use wasmtime::{Engine, Instance, Memory, Module, Store, StoreLimits, StoreLimitsBuilder, TypedFunc};

/// The repository root (two levels up from this crate).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A path from an environment variable, or a default under the repository root.
pub fn path_from_env(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| root().join(default))
}

/// The outcome of one call: the status and the result JSON text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Status 0: the value as JSON.
    Ok(String),
    /// Status 1: the `{"code","message"}` error object as JSON.
    Err(String),
}

impl Reply {
    /// The value, or a panic naming the error (for tests).
    pub fn ok(self) -> String {
        match self {
            Reply::Ok(s) => s,
            Reply::Err(e) => panic!("call failed: {e}"),
        }
    }

    /// The error's `code`, or a panic if the call succeeded (for tests).
    pub fn code(self) -> String {
        match self {
            Reply::Err(e) => {
                let v: serde_json::Value = serde_json::from_str(&e).expect("error JSON");
                v["code"].as_str().expect("code").to_string()
            }
            Reply::Ok(s) => panic!("expected an error, got {s}"),
        }
    }
}

type Ptr = u32;

/// One instantiated module and its exports.
pub struct Host {
    store: Store<StoreLimits>,
    memory: Memory,
    alloc: TypedFunc<u32, Ptr>,
    free: TypedFunc<Ptr, i32>,
    result_ptr: TypedFunc<(), Ptr>,
    result_len: TypedFunc<(), u32>,
    instance: Instance,
}

impl Host {
    /// Compile and instantiate the module with **no imports** (it must need none).
    pub fn load(path: &Path) -> wasmtime::Result<Host> {
        Host::load_limited(path, None)
    }

    /// [`Host::load`] with the module's linear memory capped at `memory` bytes (an embedder's
    /// limit; the module's allocations fail beyond it).
    pub fn load_limited(path: &Path, memory: Option<usize>) -> wasmtime::Result<Host> {
        let engine = Engine::default();
        let module = Module::from_file(&engine, path)?;
        let mut limits = StoreLimitsBuilder::new();
        if let Some(bytes) = memory {
            limits = limits.memory_size(bytes);
        }
        let mut store = Store::new(&engine, limits.build());
        store.limiter(|limits| limits);
        let instance = Instance::new(&mut store, &module, &[])?;
        let memory = instance
            .get_memory(&mut store, "memory")
            .ok_or_else(|| wasmtime::Error::msg("no exported memory"))?;
        Ok(Host {
            alloc: instance.get_typed_func(&mut store, "gg_alloc")?,
            free: instance.get_typed_func(&mut store, "gg_free")?,
            result_ptr: instance.get_typed_func(&mut store, "gg_result_ptr")?,
            result_len: instance.get_typed_func(&mut store, "gg_result_len")?,
            memory,
            instance,
            store,
        })
    }

    /// An exported function by name and signature.
    pub fn func<P: wasmtime::WasmParams, R: wasmtime::WasmResults>(
        &mut self,
        name: &str,
    ) -> wasmtime::Result<TypedFunc<P, R>> {
        self.instance.get_typed_func(&mut self.store, name)
    }

    /// Call an export with raw arguments (pointers included), returning its raw status.
    pub fn raw<P: wasmtime::WasmParams, R: wasmtime::WasmResults>(
        &mut self,
        name: &str,
        args: P,
    ) -> wasmtime::Result<R> {
        let f = self.func::<P, R>(name)?;
        f.call(&mut self.store, args)
    }

    /// Copy bytes into a fresh module allocation.
    pub fn put(&mut self, bytes: &[u8]) -> wasmtime::Result<(Ptr, u32)> {
        let len = u32::try_from(bytes.len())?;
        let ptr = self.alloc.call(&mut self.store, len)?;
        if ptr == 0 {
            return Err(wasmtime::Error::msg("gg_alloc: out of memory"));
        }
        self.memory.write(&mut self.store, ptr as usize, bytes)?;
        Ok((ptr, len))
    }

    /// Release an allocation; the module's status.
    pub fn free(&mut self, ptr: Ptr) -> wasmtime::Result<i32> {
        self.free.call(&mut self.store, ptr)
    }

    /// The last call's result as text.
    pub fn result(&mut self) -> wasmtime::Result<String> {
        let ptr = self.result_ptr.call(&mut self.store, ())? as usize;
        let len = self.result_len.call(&mut self.store, ())? as usize;
        let mut buf = vec![0; len];
        self.memory.read(&self.store, ptr, &mut buf)?;
        Ok(String::from_utf8(buf)?)
    }

    fn reply(&mut self, status: i32) -> wasmtime::Result<Reply> {
        let text = self.result()?;
        match status {
            0 => Ok(Reply::Ok(text)),
            1 => Ok(Reply::Err(text)),
            s => Err(wasmtime::Error::msg(format!("unknown status {s}"))),
        }
    }

    /// Call an export whose arguments are an optional handle followed by byte strings (each
    /// passed as pointer and length) and free the copies afterwards.
    fn call_with(&mut self, name: &str, handle: Option<u32>, args: &[&[u8]]) -> wasmtime::Result<Reply> {
        let mut ptrs = Vec::new();
        for a in args {
            ptrs.push(if a.is_empty() { (0, 0) } else { self.put(a)? });
        }
        let p = |i: usize| ptrs[i];
        let status: i32 = match (handle, args.len()) {
            (None, 1) => self.raw(name, (p(0).0, p(0).1))?,
            (Some(h), 0) => self.raw(name, h)?,
            (Some(h), 1) => self.raw(name, (h, p(0).0, p(0).1))?,
            (Some(h), 2) => self.raw(name, (h, p(0).0, p(0).1, p(1).0, p(1).1))?,
            (Some(h), 3) => self.raw(name, (h, p(0).0, p(0).1, p(1).0, p(1).1, p(2).0, p(2).1))?,
            _ => return Err(wasmtime::Error::msg("unsupported argument shape")),
        };
        for (ptr, len) in ptrs {
            if len > 0 {
                self.free(ptr)?;
            }
        }
        self.reply(status)
    }

    /// `gg_abi_version`.
    pub fn abi_version(&mut self) -> wasmtime::Result<u32> {
        self.raw("gg_abi_version", ())
    }

    /// The module's linear memory in bytes (it only grows).
    pub fn memory_bytes(&self) -> usize {
        self.memory.data_size(&self.store)
    }

    /// `gg_engine_new`: a handle, or the error.
    pub fn engine_new(&mut self, config: &str) -> wasmtime::Result<Result<u32, String>> {
        let (ptr, len) = if config.is_empty() { (0, 0) } else { self.put(config.as_bytes())? };
        let handle: u32 = self.raw("gg_engine_new", (ptr, len))?;
        if len > 0 {
            self.free(ptr)?;
        }
        Ok(if handle == 0 { Err(self.result()?) } else { Ok(handle) })
    }

    /// `gg_engine_free`.
    pub fn engine_free(&mut self, engine: u32) -> wasmtime::Result<Reply> {
        self.call_with("gg_engine_free", Some(engine), &[])
    }

    /// `gg_set_clock`.
    pub fn set_clock(&mut self, engine: u32, ms: u64) -> wasmtime::Result<Reply> {
        let status: i32 = self.raw("gg_set_clock", (engine, ms))?;
        self.reply(status)
    }

    /// `gg_add_instance`: the index meta, or the error.
    pub fn add_instance(
        &mut self,
        engine: u32,
        name: &str,
        bytes: &[u8],
        options: &str,
    ) -> wasmtime::Result<Reply> {
        self.call_with("gg_add_instance", Some(engine), &[name.as_bytes(), bytes, options.as_bytes()])
    }

    /// `gg_remove_instance`.
    pub fn remove_instance(&mut self, engine: u32, name: &str) -> wasmtime::Result<Reply> {
        self.call_with("gg_remove_instance", Some(engine), &[name.as_bytes()])
    }

    /// `gg_instances`.
    pub fn instances(&mut self, engine: u32) -> wasmtime::Result<Reply> {
        self.call_with("gg_instances", Some(engine), &[])
    }

    /// `gg_info`.
    pub fn info(&mut self, engine: u32, name: &str) -> wasmtime::Result<Reply> {
        self.call_with("gg_info", Some(engine), &[name.as_bytes()])
    }

    /// `gg_ask`: the answer JSON (as the CLI's `ask --jsonl`, without `id`), or the error.
    pub fn ask(&mut self, engine: u32, prompt: &str, options: &str) -> wasmtime::Result<Reply> {
        self.call_with("gg_ask", Some(engine), &[prompt.as_bytes(), options.as_bytes()])
    }

    /// `gg_search`.
    pub fn search(&mut self, engine: u32, instance: &str, query: &str, k: u32) -> wasmtime::Result<Reply> {
        let (ip, il) = self.put(instance.as_bytes())?;
        let (qp, ql) = if query.is_empty() { (0, 0) } else { self.put(query.as_bytes())? };
        let status: i32 = self.raw("gg_search", (engine, ip, il, qp, ql, k))?;
        self.free(ip)?;
        if ql > 0 {
            self.free(qp)?;
        }
        self.reply(status)
    }

    /// `gg_clear_session`.
    pub fn clear_session(&mut self, engine: u32, session: &str) -> wasmtime::Result<Reply> {
        self.call_with("gg_clear_session", Some(engine), &[session.as_bytes()])
    }

    /// `gg_call_tool`: a pull tool's result JSON, or the error.
    pub fn call_tool(&mut self, engine: u32, name: &str, args: &str) -> wasmtime::Result<Reply> {
        self.call_with("gg_call_tool", Some(engine), &[name.as_bytes(), args.as_bytes()])
    }

    /// `gg_handle_line`: the reply line to one JSON Lines tool request (`""` for a blank line).
    pub fn handle_line(&mut self, engine: u32, line: &[u8]) -> wasmtime::Result<Reply> {
        self.call_with("gg_handle_line", Some(engine), &[line])
    }

    /// `gg_tool_definitions`.
    pub fn tool_definitions(&mut self) -> wasmtime::Result<Reply> {
        let status: i32 = self.raw("gg_tool_definitions", ())?;
        self.reply(status)
    }

    /// `gg_rules`.
    pub fn rules(&mut self, lang: &str) -> wasmtime::Result<Reply> {
        self.call_with("gg_rules", None, &[lang.as_bytes()])
    }
}
