//! Bytes and names from JS values that may be anything (feature `wasm` or `indexer`).
//!
//! A value that passes `instanceof Uint8Array` may still throw when read: a `Proxy` of one, a
//! subclass whose `length` getter throws, an array whose buffer was transferred (detached). js-sys's
//! `length()`, `copy_to` and `to_vec` call into JS without catching, so such a throw unwinds
//! through wasm: untyped, and while an `Engine` is borrowed (every later call then fails). Here
//! every read is one JS call that is caught: the length by the typed-array getter itself (not the
//! object's own, which a subclass may replace), the copy by `TypedArray.prototype.set`.

use wasm_bindgen::prelude::*;

use crate::error::Error;

#[wasm_bindgen(inline_js = r#"
const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get;
export function byteCount(v) {
  if (!(v instanceof Uint8Array)) throw new TypeError('not a Uint8Array');
  const n = typedLength.call(v);
  // A detached buffer reads as empty; copying from it throws.
  if (n === 0) Uint8Array.prototype.set.call(new Uint8Array(0), v);
  return n;
}
export function copyBytes(v, into) {
  Uint8Array.prototype.set.call(into, v);
}
export function stringsOf(v) {
  if (!Array.isArray(v)) return null;
  const out = [];
  for (let i = 0; i < v.length; i++) if (typeof v[i] === 'string') out.push(v[i]);
  return out;
}
"#)]
extern "C" {
    /// The length of a genuine `Uint8Array`; throws for anything else or a detached buffer.
    #[wasm_bindgen(js_name = byteCount, catch)]
    fn byte_count(v: &JsValue) -> Result<f64, JsValue>;
    /// Copy `v` (of `into`'s length) into `into`.
    #[wasm_bindgen(js_name = copyBytes, catch)]
    fn copy_bytes(v: &JsValue, into: &mut [u8]) -> Result<(), JsValue>;
    /// The string elements of a JS array as a new array (`null` for a value that is not one).
    #[cfg(feature = "indexer")]
    #[wasm_bindgen(js_name = stringsOf, catch)]
    fn strings_of(v: &JsValue) -> Result<JsValue, JsValue>;
}

/// How many bytes `v` holds, or the typed error naming `what` when it is not a `Uint8Array` that
/// can be read.
pub fn length(v: &JsValue, what: &'static str) -> Result<usize, Error> {
    match byte_count(v) {
        Ok(n) if n >= 0.0 && n.fract() == 0.0 => Ok(n as usize),
        _ => Err(unreadable(what)),
    }
}

/// Copy `v`'s bytes into `into`, which has [`length`]'s length.
pub fn copy(v: &JsValue, into: &mut [u8], what: &'static str) -> Result<(), Error> {
    if into.is_empty() {
        return Ok(());
    }
    copy_bytes(v, into).map_err(|_| unreadable(what))
}

/// `v`'s bytes as a `Vec`, or the typed error naming `what`.
pub fn to_vec(v: &JsValue, what: &'static str) -> Result<Vec<u8>, Error> {
    let mut out = vec![0; length(v, what)?];
    copy(v, &mut out, what)?;
    Ok(out)
}

/// The strings of the JS array `v` (other elements left out), or `None` when `v` is not an array
/// or cannot be read.
#[cfg(feature = "indexer")]
pub fn strings(v: &JsValue) -> Option<Vec<String>> {
    let array = strings_of(v).ok()?.dyn_into::<js_sys::Array>().ok()?;
    Some(array.iter().filter_map(|s| s.as_string()).collect())
}

fn unreadable(what: &'static str) -> Error {
    Error::invalid(
        what,
        "must be a Uint8Array (a Node Buffer is one) that can be read: not a Proxy of one, nor one whose buffer was transferred",
    )
}
