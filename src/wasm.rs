//! wasm-bindgen bindings for JS hosts (browser, Node, VS Code). Conversion only: every call goes to
//! the plain-Rust API and its `Result` becomes a value or a JS `Error` whose `code` property is the
//! typed error's [`Error::code`](crate::Error::code).

use std::sync::Arc;

use wasm_bindgen::prelude::*;

use crate::{Error, Index, search};

fn js_error(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    // Setting a property on a fresh Error object cannot fail; ignore the impossible case.
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code().into());
    err.into()
}

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error(Error::invalid("result", e.to_string())))
}

/// An open index (the bytes of a `.ggi` file).
#[wasm_bindgen(js_name = Index)]
pub struct WasmIndex {
    index: Index<Arc<[u8]>>,
}

#[wasm_bindgen(js_class = Index)]
impl WasmIndex {
    /// Open index bytes (copied once into wasm memory; not decoded).
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: &[u8]) -> Result<WasmIndex, JsValue> {
        Index::open(Arc::<[u8]>::from(bytes)).map(|index| WasmIndex { index }).map_err(js_error)
    }

    /// Check every section's checksum; throws on corruption.
    pub fn verify(&self) -> Result<(), JsValue> {
        self.index.verify().map_err(js_error)
    }

    /// The best `k` hits for `query`, with citations (the `search --jsonl` hit objects).
    pub fn search(&self, query: &str, k: usize) -> Result<JsValue, JsValue> {
        let hits = search::search(&self.index, query, k).map_err(js_error)?;
        to_js(&hits)
    }

    /// The same hits as a JSON string, byte-identical to the native CLI's `hits` array.
    #[wasm_bindgen(js_name = searchJson)]
    pub fn search_json(&self, query: &str, k: usize) -> Result<String, JsValue> {
        let hits = search::search(&self.index, query, k).map_err(js_error)?;
        serde_json::to_string(&hits).map_err(|e| js_error(Error::invalid("result", e.to_string())))
    }

    /// Name, title, counts and settings.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        to_js(self.index.meta())
    }
}
