//! wasm-bindgen bindings of the indexer (feature `indexer`): a separate wasm module, so the runtime
//! module keeps its size. Conversion only: the host (the npm package's `groundgate build`) hands over
//! its file system as three callbacks and Rust runs the same manifest pipeline as the native CLI
//! ([`Manifest::build_from`](crate::ingest::manifest::Manifest::build_from)), so the index bytes are
//! identical. Errors become JS `Error`s whose `code` is the typed error's code.

use std::path::{Path, PathBuf};

use wasm_bindgen::prelude::*;

use crate::Error;
use crate::index::TextCodec;
use crate::ingest::files::{Files, Kind};
use crate::ingest::manifest::Manifest;
use crate::js_bytes;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** The host's file system, synchronous (e.g. over Node's `fs`). Paths are as Rust joins them. */
export interface HostFiles {
  /** "file", "dir", or anything else for neither (missing, a socket…); symlinks followed. */
  kind(path: string): string;
  /** The names of a directory's entries, in any order. */
  list(path: string): string[];
  /** A file's bytes. */
  read(path: string): Uint8Array;
}
export interface BuildStats { name: string; documents: number; chunks: number; terms: number; bytes: number; text_bytes: number; anchors: number; note: string | null }
"#;

fn js_error(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    // Setting a property on a fresh Error object cannot fail; ignore the impossible case.
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code().into());
    err.into()
}

/// The message of a value a JS callback threw.
fn thrown(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "the host's file callback failed".to_string())
}

/// [`Files`] over the host's callbacks.
struct HostFiles {
    kind: js_sys::Function,
    list: js_sys::Function,
    read: js_sys::Function,
}

impl HostFiles {
    fn new(files: &JsValue) -> Result<HostFiles, JsValue> {
        let get = |name: &'static str| -> Result<js_sys::Function, JsValue> {
            js_sys::Reflect::get(files, &name.into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .ok_or_else(|| js_error(Error::invalid("files", format!("needs a function {name}(path)"))))
        };
        Ok(HostFiles { kind: get("kind")?, list: get("list")?, read: get("read")? })
    }

    fn call(&self, f: &js_sys::Function, path: &Path) -> crate::Result<JsValue> {
        let p = path.display().to_string();
        f.call1(&JsValue::NULL, &JsValue::from_str(&p)).map_err(|e| Error::input(p, thrown(&e)))
    }
}

impl Files for HostFiles {
    fn kind(&self, path: &Path) -> Kind {
        match self.call(&self.kind, path).ok().and_then(|v| v.as_string()).as_deref() {
            Some("file") => Kind::File,
            Some("dir") => Kind::Dir,
            _ => Kind::Other,
        }
    }

    fn list(&self, dir: &Path) -> crate::Result<Vec<PathBuf>> {
        let v = self.call(&self.list, dir)?;
        let names = js_bytes::strings(&v).ok_or_else(|| {
            Error::input(dir.display().to_string(), "list() did not return an array that can be read")
        })?;
        Ok(names.into_iter().map(|n| dir.join(n)).collect())
    }

    fn read(&self, path: &Path) -> crate::Result<Vec<u8>> {
        let v = self.call(&self.read, path)?;
        js_bytes::to_vec(&v, "bytes").map_err(|_| {
            Error::input(
                path.display().to_string(),
                "read() did not return bytes (a Uint8Array that can be read)",
            )
        })
    }
}

/// A built index: its bytes and what the build counted.
#[wasm_bindgen]
pub struct BuiltIndex {
    bytes: Vec<u8>,
    stats: String,
}

#[wasm_bindgen]
impl BuiltIndex {
    /// The index file's bytes (`.ggi`).
    #[wasm_bindgen(getter)]
    pub fn bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// `{name, documents, chunks, terms, bytes, text_bytes, anchors, note}` (`note`: a hint for
    /// the person who built it, or `null`; `BuildStats::note`).
    #[wasm_bindgen(getter, unchecked_return_type = "BuildStats")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        js_sys::JSON::parse(&self.stats)
    }
}

/// Build the index a manifest describes, reading the manifest and its inputs through `files`; `text`
/// overrides the manifest's chunk text storage (`"ranked"`, `"hangul"`, `"lz4"` or `"plain"`); `progress(done, total)` is
/// called after each input file.
#[wasm_bindgen(js_name = buildIndex)]
pub fn build_index(
    #[wasm_bindgen(unchecked_param_type = "string")] manifest: JsValue,
    #[wasm_bindgen(unchecked_param_type = "HostFiles")] files: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "(done: number, total: number) => void")]
    progress: JsValue,
) -> Result<BuiltIndex, JsValue> {
    // Every argument a `JsValue`, checked here: wasm-bindgen's own conversion of a `&str` or an
    // `Option<String>` traps on a number (a read out of bounds), of a function throws untyped.
    let manifest = manifest
        .as_string()
        .ok_or_else(|| js_error(Error::invalid("manifest", "must be a path (a string)")))?;
    let given = |v: &JsValue| !(v.is_undefined() || v.is_null());
    let text = match given(&text) {
        false => None,
        true => Some(text.as_string().ok_or_else(|| js_error(Error::invalid("text", "must be a string")))?),
    };
    let progress = match given(&progress) {
        false => None,
        true => Some(
            progress
                .dyn_into::<js_sys::Function>()
                .map_err(|_| js_error(Error::invalid("progress", "must be a function (done, total)")))?,
        ),
    };
    let fs = HostFiles::new(&files)?;
    let path = Path::new(&manifest);
    let mut m = Manifest::load_from(&fs, path).map_err(js_error)?;
    match text.as_deref() {
        None => {}
        Some("plain") => m.text = TextCodec::Plain,
        Some("lz4") => m.text = TextCodec::Lz4,
        Some("hangul") => m.text = TextCodec::Hangul,
        Some("ranked") => m.text = TextCodec::Ranked,
        Some(other) => {
            return Err(js_error(Error::invalid(
                "text",
                format!("{other:?}; use \"ranked\", \"hangul\", \"lz4\" or \"plain\""),
            )));
        }
    }
    let base = path.parent().unwrap_or(Path::new("."));
    let (bytes, stats) = m
        .build_from(&fs, base, |done, total| {
            if let Some(f) = &progress {
                // A failing progress callback does not stop the build.
                let _ = f.call2(&JsValue::NULL, &(done as f64).into(), &(total as f64).into());
            }
        })
        .map_err(js_error)?;
    let stats = serde_json::json!({
        "name": m.name, "documents": stats.documents, "chunks": stats.chunks, "terms": stats.terms,
        "bytes": stats.bytes, "text_bytes": stats.text_bytes, "anchors": stats.anchors,
        "note": stats.note(&m.name),
    })
    .to_string();
    Ok(BuiltIndex { bytes, stats })
}

/// Throw unless a build may write its index to `out` (`crate::ingest::check_out`): `kind` is what
/// is there — `"missing"`, `"file"` (then `head` holds its first bytes, up to eight) or anything else
/// for a directory, link, device or pipe.
#[wasm_bindgen(js_name = checkOut)]
pub fn check_out(
    #[wasm_bindgen(unchecked_param_type = "string")] out: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] kind: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Uint8Array")] head: JsValue,
) -> Result<(), JsValue> {
    use crate::ingest::Existing;
    let out = out.as_string().ok_or_else(|| js_error(Error::invalid("out", "must be a path (a string)")))?;
    let head = match head.is_undefined() || head.is_null() {
        true => Vec::new(),
        false => js_bytes::to_vec(&head, "head").map_err(js_error)?,
    };
    let existing = match kind.as_string().as_deref() {
        Some("missing") => Existing::Missing,
        Some("file") => Existing::File(&head),
        _ => Existing::Other,
    };
    crate::ingest::check_out(&out, existing).map_err(js_error)
}

/// Engine settings from a TOML file's text, checked, as JSON text for `new Engine(…)`: the same
/// reading and the same one-line errors as the native CLI's `ask --config` (`Config::from_toml`).
#[wasm_bindgen(js_name = configFromToml)]
pub fn config_from_toml(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<String, JsValue> {
    let text = text.as_string().ok_or_else(|| js_error(Error::invalid("text", "must be a string (TOML)")))?;
    let config = crate::engine::Config::from_toml(&text).map_err(js_error)?;
    serde_json::to_string(&config).map_err(|e| js_error(Error::invalid("config", e.to_string())))
}
