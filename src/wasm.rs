//! wasm-bindgen bindings for JS hosts (browser, Node, VS Code). Conversion only: every call goes to
//! the plain-Rust API and its `Result` becomes a value or a JS `Error` whose `code` property is the
//! typed error's [`Error::code`](crate::Error::code). Objects cross the boundary as JSON text: options
//! are `JSON.stringify`d and read by serde_json (the same checks as natively), results are serialized
//! by serde_json and `JSON.parse`d — one serializer in the module, and `ask` gives exactly the object
//! `askJson` spells (JSON with non-ASCII text crosses as UTF-16, made a string by the host's
//! `TextDecoder("utf-16le")`: [`json_to_js`]). Search hits are the exception for speed: every
//! string of a search's hits (the chunk texts decoded from the index straight into UTF-16, each
//! distinct citation string once) crosses as one UTF-16 string made by the host's
//! `TextDecoder("utf-16le")`, and the numbers of each hit as a list; a small JS function builds
//! the objects ([`hits_to_js`]: no JSON escaping of long texts in wasm, no JSON scan of them in
//! JS, no UTF-8 decoding, which V8 does ~7× slower for Korean). The objects are the same, keys in
//! the same order.

use std::sync::Arc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::decimal::Decimal;
use crate::engine::{AskOptions, Clock, Config, Engine, FixedClock, InstanceOptions};
use crate::js_bytes;
use crate::{Error, Index, search};
#[cfg(feature = "tools")]
use crate::{protocol, tools};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Engine settings; every field optional (defaults: `groundgate::Config`, README). */
export interface Config {
  max_prompt_chars?: number; min_words?: number; top_k?: number; evidence_k?: number; instance_budget?: number;
  total_budget?: number; share_power?: number; deadline_ms?: number; tag_prefix?: string;
  dedup_window_ms?: number;
}
export interface AskOptions {
  session?: string; format?: "short" | "detailed"; now_ms?: number;
  /** Reorder each instance's candidates before the budget (docs/rerank.md). */
  rerank?: RerankOptions;
}
/** RRF with the host's ranking (chunk references "instance:chunk:crc32hex"), then the REBEL composite. */
export interface RerankOptions {
  weights?: RerankWeights; today?: string; ranking?: string[]; k?: number; pool?: number;
  /** "rrf" (default): fuse `ranking` with BM25's; "order": take it as the order (a REBEL reply's). */
  mode?: "rrf" | "order";
}
export interface RerankWeights { depth?: number; diversity?: number; clarity?: number; authority?: number; recency?: number }
/** Judges' thresholds (probabilities 0–1; 0 accepts whatever is found, 1 nothing) and extra anchors. */
export interface InstanceOptions {
  sufficiency?: number; relevance?: number; anchors?: string[];
  /** Check every section's checksum first (default true): a file altered after it was written is refused with `checksum`. */
  verify?: boolean;
}
/** What each line of `askLine` / `toolLine` may leave out (the npm bin's command-line flags). */
export interface LineDefaults { session?: string; format?: "short" | "detailed"; tool?: string; arguments?: Record<string, unknown> }
/** Source, location, reference date and link of a piece of evidence. */
export interface Citation {
  source: string; title: string; page: number | null; article: string | null;
  section: string | null; heading: string | null; date: string | null; link: string | null;
}
export interface Hit extends Citation { rank: number; score: number; chunk: number; text: string }
export interface TermScore { term: string; score: number }
export interface Evidence extends Citation {
  instance: string; score: number; chars: number; text: string; terms?: TermScore[];
  /** Detailed format with the rerank option: why it stands here. */
  rerank?: string;
}
/** A pull's next step: a call of a pull tool with its arguments. */
export interface ToolCall { tool: "search" | "read" | "grep" | "sources" | "links"; arguments: Record<string, unknown> }
/** The gate's features for one (prompt, instance) pair (`gate::features::NAMES`, in order). */
export interface Features {
  norm_top: number; coverage: number; coverage_top1: number; log_top: number; margin: number;
  same_source: number; unknown_share: number; anchor: number; log_words: number; agreement: number;
  specificity: number; specificity_max: number; specificity_hit: number; specificity_first: number;
  everyday: number; coverage_specific: number; creation: number; phrasing: number; article_ask: number;
}
/** Both judges' values for one instance. */
export interface Judgement {
  top_score: number; features: Features; relevance: number; relevance_threshold: number;
  sufficiency: number; sufficiency_threshold: number; relevant: boolean; sufficient: boolean;
  /** A name in the prompt (a country, a programming language) the documents never mention: the
   *  instance is then not relevant, whatever the judges say. */
  outside_name?: string;
  /** The prompt is written without Hangul and the index says its readers write Korean (manifest
   *  `prompt_language = "ko"`): the instance is then not relevant, whatever the judges say. */
  other_language?: boolean;
}
export type Outcome = "too_long" | "too_few_words" | "small_talk" | "not_relevant" | "not_a_question" | "no_hits"
  | "insufficient" | "deadline" | "all_deduplicated" | "no_budget" | "injected";
export interface InstanceLog {
  instance: string; outcome: Outcome; anchors: string[]; forced: boolean; relevant: boolean;
  gate: Judgement | null; scores: number[]; chars: number; budget: number;
  elapsed_ms: number; dedup_skipped: number[];
}
export interface DecisionLog {
  prompt_chars: number; words: number; forced: string[]; instances: InstanceLog[];
  injected_chars: number; answered: number; elapsed_ms: number;
}
/** The `ask` contract. */
export interface Answer {
  route: "push" | "pull" | "skip"; kind: "question" | "sentence" | "unrelated"; confidence: number;
  reasons: string[]; evidence: Evidence[]; hints: ToolCall[]; context: string; log: DecisionLog;
}
export interface IndexMeta {
  name: string; title: string; description: string;
  analyzer: { korean: "Bigram" | "Stem" | "StemBigram"; english_stem: boolean; stop_words: boolean; join_words: boolean };
  bm25: { k1: number; b: number }; sufficiency: number; chunks: number; sources: number;
  total_terms: number; generator: string; content_crc: number;
}
/** Thrown by every method on bad input: `code` is the typed error's stable code. */
export interface GroundgateError extends Error {
  code: "bad_magic" | "unsupported_version" | "truncated" | "checksum" | "corrupt" | "input" | "invalid_argument";
}
"#;

#[cfg(feature = "tools")]
#[wasm_bindgen(typescript_custom_section)]
const TOOL_TYPES: &str = r#"
/** Pull tools (docs/tools.md). Arguments: */
export interface SearchArgs {
  query: string; instance?: string; k?: number; detailed?: boolean;
  /** A host's ranking to fuse by RRF: chunk references "instance:chunk:crc32", best first. */
  fuse?: string[]; fuse_k?: number;
}
export interface GrepArgs { text: string; instance?: string; limit?: number; detailed?: boolean }
/** `offset`: sources to skip (the previous result's `next_offset`), to page through a long list. */
export interface SourcesArgs { instance?: string; offset?: number }
export interface ReadArgs {
  instance?: string; source: string; page?: number; article?: string | number; heading?: string;
  chunk?: number; around?: number;
}
export interface LinksArgs { instance?: string; source: string }
/** Results: */
export interface SearchItem extends Citation {
  rank: number; instance: string; text: string; chunk?: number; ref?: string; score?: number; bm25?: number; terms?: TermScore[];
}
export interface SearchResult { query: string; instances: string[]; results: SearchItem[]; truncated: boolean }
export interface GrepMatch extends Citation { instance: string; text: string; start: number; end: number; count: number; chunk?: number }
export interface GrepResult { text: string; matches: GrepMatch[]; total: number; truncated: boolean; candidates?: number }
export interface SourceEntry {
  instance: string; source: string; title: string; kind: string; date: string | null; link: string | null;
  links: number; chunks: number; pages: [number, number] | null; articles: string[]; articles_more: number;
  headings: string[]; headings_more: number;
}
/** `sources_more`: sources after this page (0 when none); `next_offset`: the offset that lists them. */
export interface SourcesResult { sources: SourceEntry[]; truncated: boolean; sources_more: number; next_offset: number | null }
export interface ReadPart { chunk: number; page: number | null; article: string | null; section: string | null; heading: string | null; text: string }
export interface ReadResult extends Citation {
  instance: string; text: string; chunks: number[]; before: ReadPart[]; after: ReadPart[]; truncated: boolean;
}
export interface LinkTarget { instance: string; source: string; title: string; kind: string }
export interface LinksResult { instance: string; source: string; title: string; links: { link: string; resolved: LinkTarget[] }[]; truncated: boolean }
export type ToolName = "search" | "grep" | "sources" | "read" | "links";
/** A tool's definition (MCP-ready): JSON Schemas of input and output, annotations. */
export interface ToolDefinition {
  name: ToolName; title: string; description: string; inputSchema: object; outputSchema: object;
  annotations: { readOnlyHint: boolean; idempotentHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}
/** REBEL through the host's model (docs/rerank.md): `rebelPrompt` arguments. */
export interface RebelPromptArgs {
  query: string; instance?: string; k?: number; lang?: "ko" | "en"; weights?: RerankWeights;
  /** The model's reply to `Engine.rebelCriteriaPrompt`: build turn 2 from its criteria. */
  criteria_reply?: string;
}
export interface RebelCriterion { name: string; weight: number; definition: string }
export interface RebelDoc extends Citation { id: number; ref: string; instance: string; text: string }
/** Send `prompt` to the model; hand this object and the reply to `rerankWith`. */
export interface RebelPrompt { query: string; lang: "ko" | "en"; criteria: RebelCriterion[]; docs: RebelDoc[]; prompt: string }
export interface RerankedDoc extends RebelDoc { rank: number; relevance: number; scores: Record<string, number>; score: number }
/** `ranking` in the new order: `ask(prompt, {rerank: {ranking, mode: "order"}})` applies it. */
export interface Reranked { items: RerankedDoc[]; ranking: string[] }
export interface RrfArgs { lists: string[][]; k?: number }
export interface FusedRef { ref: string; score: number; ranks: (number | null)[] }
"#;

fn js_error(e: Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    // Setting a property on a fresh Error object cannot fail; ignore the impossible case.
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code().into());
    err.into()
}

/// `value` as a JS value: `JSON.parse` of its JSON ([`json_to_js`]).
fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    json_to_js(&to_json(value)?)
}

/// `JSON.parse(json)`, the text made a JS string by [`js_string`]: JSON with non-ASCII text
/// (Korean titles, headings, evidence) reaches JS as UTF-16 instead of through wasm-bindgen's
/// string passing, which decodes UTF-8: Node 20 makes the string from UTF-16 ~2.5× faster (a
/// search's ten hit heads, 3.1 KB of JSON: 6.1 µs → 2.5 µs). The same text, so the same value.
fn json_to_js(json: &str) -> Result<JsValue, JsValue> {
    json_parse(&js_string(json))
}

/// `text` as a JS string: through UTF-16 ([`js_text`]) when it is not ASCII and the host has a
/// `TextDecoder`, else by wasm-bindgen's UTF-8 passing. The same string either way. For the
/// methods that return JSON text (`askJson`, `callToolJson`, `handleLine`, `searchJson`).
fn js_string(text: &str) -> JsValue {
    if text.is_ascii() || !UTF16.with(Option::is_some) {
        return JsValue::from_str(text);
    }
    let mut units = Vec::new();
    crate::index::text::push_utf16(text, &mut units);
    js_text(&units)
}

/// Numbers per hit in [`hits_to_js`]'s layout: rank, score, chunk, page (−1: none), then a
/// start and an end in the strings for each of source, title, article, section, heading, date,
/// link and text (−1: none).
const HIT_FIELDS: usize = 20;

/// Ranked chunks of [`search::search_scored`] as JS objects equal to `JSON.parse` of
/// [`search::search`]'s hits (same keys, same order: `text` last). Every string of the hits — the
/// texts decoded from `index` straight into UTF-16, and each distinct citation string once (by its
/// id in the index: [`Index::citation_ids`]) — goes into one host string ([`js_text`]: one
/// `TextDecoder` call), and the objects are made in JS ([`hit_objects`]) from it and
/// [`HIT_FIELDS`] numbers a hit. Node 20, ten R&D hits: V8's `JSON.parse` of the heads' JSON took
/// ~24 µs, object literals over substrings take ~3. The citations are all read before the texts,
/// as when they were [`search::Hit`]s: the same first error.
fn hits_to_js<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    scored: &[search::Scored],
) -> Result<JsValue, JsValue> {
    let mut units: Vec<u16> = Vec::new();
    let mut nums: Vec<f64> = Vec::with_capacity(scored.len() * HIT_FIELDS);
    let mut seen = Vec::new();
    let cites = scored
        .iter()
        .map(|s| index.citation_ids(s.chunk, &mut seen))
        .collect::<Result<Vec<_>, Error>>()
        .map_err(js_error)?;
    // Each string id already in `units`, with its range: hits of one source share them.
    let mut placed: Vec<(u32, [f64; 2])> = Vec::new();
    for (i, (s, cite)) in scored.iter().zip(&cites).enumerate() {
        nums.extend([
            i as f64 + 1.0,
            search::round4(s.score),
            f64::from(s.chunk),
            cite.page.map_or(-1.0, f64::from),
        ]);
        for id in cite.strings {
            let range = match placed.iter().find(|p| p.0 == id) {
                Some(&(_, range)) => range,
                None => match seen.iter().find(|e| e.0 == id) {
                    Some(&(_, text)) => {
                        let start = units.len() as f64;
                        crate::index::text::push_utf16(text, &mut units);
                        let range = [start, units.len() as f64];
                        placed.push((id, range));
                        range
                    }
                    None => [-1.0; 2],
                },
            };
            nums.extend(range);
        }
        let start = units.len() as f64;
        index.chunk_text_utf16(s.chunk, &mut units).map_err(js_error)?;
        nums.extend([start, units.len() as f64]);
    }
    hit_objects(&js_text(&units), &nums)
}

// An ES module snippet; build.sh makes the Node build's copy CommonJS by rewriting each
// `export function f(` at a line start (keep that form).
#[wasm_bindgen(inline_js = r#"
export function hitObjects(all, f) {
  const s = (i) => (f[i] < 0 ? null : all.substring(f[i], f[i + 1]));
  const hits = [];
  for (let i = 0; i + 20 <= f.length; i += 20) {
    hits.push({
      rank: f[i], score: Number.isFinite(f[i + 1]) ? f[i + 1] : null, chunk: f[i + 2],
      source: s(i + 4), title: s(i + 6), page: f[i + 3] < 0 ? null : f[i + 3],
      article: s(i + 8), section: s(i + 10), heading: s(i + 12), date: s(i + 14), link: s(i + 16),
      text: s(i + 18),
    });
  }
  return hits;
}
export function finiteJson(value) {
  let bad = null;
  const fix = (s) => s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g, (m) => (m.length === 2 ? m : '\uFFFD'));
  // An object whose keys need fixing is written as one copy with fixed keys (the same copy on
  // every visit, so a cycle is still refused as one); keys that would become one are left to
  // serde_json to refuse.
  const copies = new WeakMap();
  const text = JSON.stringify(value, function (k, v) {
    const x = v instanceof Number || v instanceof String ? v.valueOf() : v;
    if (bad === null && typeof x === 'number' && !Number.isFinite(x)) bad = [String(k), `${x}, not a finite number`];
    if (bad === null && (typeof x === 'function' || typeof x === 'symbol')) bad = [String(k), `a ${typeof x}, which JSON cannot carry`];
    if (typeof x === 'string') return fix(x);
    if (x && typeof x === 'object' && !Array.isArray(x)) {
      if (copies.has(x)) return copies.get(x);
      const keys = Object.keys(x);
      const fixed = keys.map(fix);
      if (fixed.some((key, i) => key !== keys[i]) && new Set(fixed).size === keys.length) {
        const copy = Object.fromEntries(keys.map((key, i) => [fixed[i], x[key]]));
        copies.set(x, copy);
        return copy;
      }
    }
    return v;
  });
  return bad === null ? text : bad;
}
"#)]
extern "C" {
    /// The hit objects of [`hits_to_js`]: `all` the strings, `fields` [`HIT_FIELDS`] numbers a hit
    /// (a view of wasm memory, read before the call returns). Keys in [`search::Hit`]'s JSON order;
    /// a score that is not finite is `null`, as serde_json writes it.
    #[wasm_bindgen(js_name = hitObjects, catch)]
    fn hit_objects(all: &JsValue, fields: &[f64]) -> Result<JsValue, JsValue>;
    /// `JSON.stringify(value)`, or `[key, what it is]` for the first number that is not finite, or
    /// function or symbol (JSON would write it as `null` or leave it out, read as "not given"). A
    /// lone surrogate in a string value or an object key becomes U+FFFD, as wasm-bindgen passes a
    /// string argument (serde_json refuses its `\ud800` escape, naming an escape the caller never
    /// wrote).
    #[wasm_bindgen(js_name = finiteJson, catch)]
    fn finite_json(value: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen]
extern "C" {
    /// The host's `TextDecoder` (a global in browsers, Node, Deno and VS Code's hosts).
    type TextDecoder;
    #[wasm_bindgen(constructor, catch)]
    fn new(label: &str, options: &JsValue) -> Result<TextDecoder, JsValue>;
    /// `decode(view)`: the view is of wasm memory, read before the call returns.
    #[wasm_bindgen(method)]
    fn decode(this: &TextDecoder, units: &[u16]) -> JsValue;
    /// `JSON.parse` of a JS string (js-sys's takes a Rust `&str`, passed as UTF-8).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &JsValue) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// A UTF-16LE decoder, made once (`None` where the host has none: [`js_text`] falls back).
    static UTF16: Option<TextDecoder> = {
        // ignoreBOM: a leading U+FEFF is text, kept (as `JsValue::from_str` keeps it).
        let options = js_sys::Object::new();
        js_sys::Reflect::set(&options, &"ignoreBOM".into(), &true.into())
            .ok()
            .and_then(|_| TextDecoder::new("utf-16le", &options).ok())
    };
}

/// UTF-16 `units` as a JS string: V8 makes a string from UTF-16 ~7× faster than it decodes UTF-8
/// (Node 20, Korean text, `TextDecoder`), and a Hangul syllable is 2 bytes there instead of 3.
/// Where the host has no `TextDecoder`, through a Rust `String` (the same string).
fn js_text(units: &[u16]) -> JsValue {
    UTF16.with(|d| match d {
        Some(d) => d.decode(units),
        None => JsValue::from_str(&String::from_utf16_lossy(units)),
    })
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, JsValue> {
    serde_json::to_string(value).map_err(|e| js_error(Error::invalid("result", e.to_string())))
}

fn from_js<T: serde::de::DeserializeOwned + Default>(
    value: JsValue,
    what: &'static str,
) -> Result<T, JsValue> {
    match object_json(&value, what)? {
        None => Ok(T::default()),
        // Through JSON, so that serde's checks (unknown fields, types) apply exactly as natively.
        Some(json) => serde_json::from_str(&json)
            .map_err(|e| js_error(Error::invalid(what, crate::error::json_message(&e)))),
    }
}

/// An options or arguments object from JS as JSON text; `None` for `undefined` and `null`. Anything
/// but an object whose JSON is an object is the typed error naming it: an array would pass serde as
/// a sequence of fields, and a BigInt, a symbol, a function, a revoked Proxy or a throwing `toJSON`
/// or getter has no JSON (`JSON.stringify` is imported with `catch`: its exception is caught inside
/// the call and cannot unwind past the engine's borrow; `typeof` cannot throw). A number that is not
/// finite (NaN, ±Infinity), a function or a symbol anywhere inside is the typed error naming its
/// key: JSON has no such value, and `JSON.stringify`'s `null` (or nothing) would read as "not given".
fn object_json(value: &JsValue, what: &'static str) -> Result<Option<String>, JsValue> {
    object_json_or(value, what).map_err(js_error)
}

/// [`object_json`] with the library's error (for replies that carry it as a JSON line).
fn object_json_or(value: &JsValue, what: &'static str) -> Result<Option<String>, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !value.is_object() {
        return Err(Error::invalid(what, "must be an object"));
    }
    let json = finite_json(value).ok();
    if let Some(bad) = json.as_ref().filter(|j| j.is_object()) {
        let bad = js_sys::Array::from(bad);
        let part = |i| bad.get(i).as_string().unwrap_or_default();
        return Err(Error::invalid(what, format!("\"{}\" is {}", part(0), part(1))));
    }
    let json = match json {
        Some(j) => text_from_js(&j, what)?,
        None => None,
    };
    json.filter(|s| s.starts_with('{'))
        .map(Some)
        .ok_or_else(|| Error::invalid(what, "not a JSON-compatible object"))
}

// Every JS entry point takes its arguments as `JsValue` and checks them here: JS callers without
// TypeScript pass anything, and wasm-bindgen's glue for `&str`, `usize` or `&Uint8Array` parameters
// either traps on the wrong type (a number reaching the string copy) or throws while the engine is
// borrowed (the borrow is never released: every later call fails). A check in Rust, before any
// work, gives the typed `invalid_argument` error naming the argument and leaves the engine as it was.

/// Longest JS string read (UTF-16 units): far past every argument's own limit (prompts and lines:
/// 1 MiB), checked before wasm-bindgen copies a string into wasm memory — a 400-million-character
/// prompt grew that memory to 1.6 GB, which it never gives back, before its length was refused.
const MAX_JS_STRING: u32 = 1 << 24;

/// `v` as a Rust string when it is a JS string (None otherwise); one longer than
/// [`MAX_JS_STRING`] is the typed error naming it, and is never copied.
fn text_from_js(v: &JsValue, name: &'static str) -> Result<Option<String>, Error> {
    match v.dyn_ref::<js_sys::JsString>().map(js_sys::JsString::length) {
        Some(n) if n > MAX_JS_STRING => {
            Err(Error::invalid(name, "longer than any argument takes (16777216 characters at most)"))
        }
        _ => Ok(v.as_string()),
    }
}

/// A string argument from JS, or the typed error naming it.
fn string_arg(v: &JsValue, name: &'static str) -> Result<String, JsValue> {
    text_from_js(v, name).map_err(js_error)?.ok_or_else(|| js_error(Error::invalid(name, "must be a string")))
}

/// A count (`k`) from JS: a whole number 0..=2³²−1 (the callee checks its own range), or the typed
/// error naming it — NaN, ±Infinity, fractions, negatives, BigInts and non-numbers included.
fn count_arg(v: &JsValue, name: &'static str) -> Result<usize, JsValue> {
    count_or(v, name).map_err(js_error)
}

/// [`count_arg`] with the library's error (for replies that carry it as a JSON line).
fn count_or(v: &JsValue, name: &'static str) -> Result<usize, Error> {
    let n = v.as_f64().ok_or_else(|| Error::invalid(name, "must be a number"))?;
    if n.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&n) {
        return Err(Error::invalid(name, format!("{}: must be a whole number ≥ 0", Decimal(n))));
    }
    Ok(n as usize)
}

/// Index bytes from JS: a `Uint8Array` (a Node `Buffer` is one), or the typed error.
fn bytes_arg(v: &JsValue) -> Result<&js_sys::Uint8Array, JsValue> {
    v.dyn_ref::<js_sys::Uint8Array>().ok_or_else(|| {
        js_error(Error::invalid("bytes", "must be a Uint8Array (a Node Buffer is one) holding a .ggi file"))
    })
}

/// Copy index bytes from JS straight into the engine's shared buffer: one copy, not two (a `&[u8]`
/// argument would be copied into wasm memory first, then into the `Arc`). Read through
/// [`js_bytes`](crate::js_bytes), so a value that throws when read (a `Proxy`, a detached buffer) is
/// the typed error, and more bytes than wasm memory can still hold is `invalid_argument` too,
/// not a trap that leaves the module unusable.
#[allow(unsafe_code)] // `assume_init` of zeroed bytes (below): the one unsafe line in the bindings.
fn shared_bytes(bytes: &js_sys::Uint8Array) -> Result<Arc<[u8]>, JsValue> {
    let n = js_bytes::length(bytes, "bytes").map_err(js_error)?;
    crate::engine::check_room_for_index(n, "bytes").map_err(js_error)?;
    let zeroed = Arc::<[u8]>::new_zeroed_slice(n);
    // SAFETY: all-zero bytes are valid `u8`s.
    let mut shared = unsafe { zeroed.assume_init() };
    match Arc::get_mut(&mut shared) {
        Some(dst) => js_bytes::copy(bytes, dst, "bytes").map_err(js_error)?,
        // Unreachable (the Arc was just made); copy the slow way rather than fail.
        None => shared = Arc::from(js_bytes::to_vec(bytes, "bytes").map_err(js_error)?),
    }
    Ok(shared)
}

/// The host's clock (`Date.now()`).
struct JsClock;

impl Clock for JsClock {
    fn now_ms(&self) -> u64 {
        js_sys::Date::now() as u64
    }
}

/// Several instances and the push pipeline (see the crate's `Engine`).
#[wasm_bindgen(js_name = Engine)]
pub struct WasmEngine {
    engine: Engine,
}

#[wasm_bindgen(js_class = Engine)]
impl WasmEngine {
    /// A new engine; `config` is an optional object with any of `Config`'s fields.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Config")] config: JsValue,
    ) -> Result<WasmEngine, JsValue> {
        let config: Config = from_js(config, "config")?;
        let mut engine = Engine::new(config).map_err(js_error)?;
        engine.set_clock(Box::new(JsClock));
        Ok(WasmEngine { engine })
    }

    /// Fix the clock at `ms` (reproducible output, e.g. for parity tests); `undefined` restores
    /// `Date.now()`.
    #[wasm_bindgen(js_name = setClock)]
    pub fn set_clock(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] ms: JsValue,
    ) -> Result<(), JsValue> {
        if ms.is_undefined() || ms.is_null() {
            self.engine.set_clock(Box::new(JsClock));
            return Ok(());
        }
        // Milliseconds since the epoch, as `Date.now()` gives them: finite, ≥ 0, exact in an f64.
        let t = ms.as_f64().ok_or_else(|| js_error(Error::invalid("ms", "must be a number or undefined")))?;
        if !(0.0..=9_007_199_254_740_991.0).contains(&t) || t.fract() != 0.0 {
            return Err(js_error(Error::invalid(
                "ms",
                format!("{}: must be a whole number 0..=2⁵³−1 of milliseconds", Decimal(t)),
            )));
        }
        self.engine.set_clock(Box::new(FixedClock(t as u64)));
        Ok(())
    }

    /// Load an instance from index bytes, every checksum checked first; `options`:
    /// `{sufficiency?, relevance?, anchors?, verify?}` (`verify: false` skips the check).
    /// Arguments of the wrong JS type are an `invalid_argument` error, not a trap.
    #[wasm_bindgen(js_name = addInstance)]
    pub fn add_instance(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "InstanceOptions")] options: JsValue,
    ) -> Result<(), JsValue> {
        let name = string_arg(&name, "instance name")?;
        let bytes = bytes_arg(&bytes)?;
        let opts: InstanceOptions = from_js(options, "options")?;
        self.engine.add_instance(&name, shared_bytes(bytes)?, opts).map_err(js_error)?;
        self.warm_up(&name);
        Ok(())
    }

    /// Unload an instance.
    #[wasm_bindgen(js_name = removeInstance)]
    pub fn remove_instance(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> Result<(), JsValue> {
        self.engine.remove_instance(&string_arg(&name, "instance name")?).map_err(js_error)
    }

    /// Loaded instance names.
    pub fn instances(&self) -> Vec<String> {
        self.engine.instance_names()
    }

    /// An instance's name, title, counts and settings.
    #[wasm_bindgen(unchecked_return_type = "IndexMeta")]
    pub fn info(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] instance: JsValue,
    ) -> Result<JsValue, JsValue> {
        to_js(self.engine.index(&string_arg(&instance, "instance")?).map_err(js_error)?.meta())
    }

    /// Decide and deliver evidence (the `ask` contract); `options`: `{session?, format?, now_ms?}`.
    #[wasm_bindgen(unchecked_return_type = "Answer")]
    pub fn ask(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] prompt: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AskOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.answer(&string_arg(&prompt, "prompt")?, options)?)
    }

    /// The same answer as a JSON string, byte-identical to a line of the CLI's `ask --jsonl`
    /// (without its `id`).
    #[wasm_bindgen(js_name = askJson, unchecked_return_type = "string")]
    pub fn ask_json(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] prompt: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AskOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        Ok(js_string(&to_json(&self.answer(&string_arg(&prompt, "prompt")?, options)?)?))
    }

    /// Search one instance (no gates).
    #[wasm_bindgen(unchecked_return_type = "Hit[]")]
    pub fn search(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] instance: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (instance, query) = (string_arg(&instance, "instance")?, string_arg(&query, "query")?);
        let k = count_arg(&k, "k")?;
        let index = self.engine.index(&instance).map_err(js_error)?;
        hits_to_js(index, &search::search_scored(index, &query, k).map_err(js_error)?)
    }

    /// Forget what a session has been shown.
    #[wasm_bindgen(js_name = clearSession)]
    pub fn clear_session(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] session: JsValue,
    ) -> Result<(), JsValue> {
        self.engine.clear_session(&string_arg(&session, "session")?).map_err(js_error)
    }

    /// What `session` has been shown within the dedup window, as text to store between processes
    /// (`groundgate-session 1`, then `INSTANCE CHUNK AT_MS` lines); `importSession` reads it back.
    #[wasm_bindgen(js_name = exportSession)]
    pub fn export_session(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] session: JsValue,
    ) -> Result<String, JsValue> {
        Ok(self.engine.export_session(&string_arg(&session, "session")?).map_err(js_error)?.to_text())
    }

    /// Merge a stored session state (expired entries dropped); returns how many entries it keeps.
    #[wasm_bindgen(js_name = importSession)]
    pub fn import_session(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] session: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    ) -> Result<usize, JsValue> {
        let (session, state) = (string_arg(&session, "session")?, string_arg(&state, "state")?);
        let state = crate::deliver::SessionState::parse(&session, &state).map_err(js_error)?;
        self.engine.import_session(&state).map_err(js_error)
    }

    /// The delivery rules for an agent's instructions, `lang` = `ko` or `en`.
    pub fn rules(#[wasm_bindgen(unchecked_param_type = "string")] lang: JsValue) -> Result<String, JsValue> {
        crate::deliver::rules::rules(&string_arg(&lang, "lang")?).map(str::to_string).map_err(js_error)
    }
}

/// Whether this module has run its warm-up (once per module instance; wasm here is single-threaded).
static WARMED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl WasmEngine {
    /// The first time an instance is added: one search and one ask on the start of its first
    /// chunk, results dropped. JS engines compile wasm functions lazily, on their first call; this
    /// moves that compilation (~10–20 ms in Node) from the host's first real query into loading.
    /// Changes no state (no session) and cannot fail the caller.
    fn warm_up(&mut self, name: &str) {
        use std::sync::atomic::Ordering;
        if WARMED.swap(true, Ordering::Relaxed) {
            return;
        }
        let Ok(chunk) = self.engine.index(name).and_then(|i| i.chunk(0)) else { return };
        let prompt: String = chunk.text.chars().take(80).collect::<String>() + "?";
        if let Ok(index) = self.engine.index(name)
            && let Ok(hits) = search::search_scored(index, &prompt, 10)
        {
            let _ = hits_to_js(index, &hits);
        }
        if let Ok(answer) = self.engine.ask(&prompt, &AskOptions::default()) {
            let _ = to_js(&answer);
        }
    }

    /// Parse the JS options and ask (shared by `ask` and `askJson`).
    fn answer(&mut self, prompt: &str, options: JsValue) -> Result<crate::Answer, JsValue> {
        let opts: AskOptions = from_js(options, "options")?;
        self.engine.ask(prompt, &opts).map_err(js_error)
    }
}

/// The pull tools (feature `tools`; docs/tools.md).
#[cfg(feature = "tools")]
#[wasm_bindgen(js_class = Engine)]
impl WasmEngine {
    /// Call pull tool `name` (`search`, `grep`, `sources`, `read`, `links`) with an arguments
    /// object; the result object (docs/tools.md). Throws an `Error` with `code` on bad arguments.
    #[wasm_bindgen(js_name = callTool)]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        args: JsValue,
    ) -> Result<JsValue, JsValue> {
        json_to_js(&self.tool_json(&string_arg(&name, "tool name")?, args)?)
    }

    /// [`callTool`](Self::call_tool) with the result as JSON text, byte-identical to the native
    /// library and the CLI's `result`; the arguments as JSON text, or as an object (checked as
    /// `callTool` checks it: a number that is not finite is refused, not read as "not given").
    #[wasm_bindgen(js_name = callToolJson, unchecked_return_type = "string")]
    pub fn call_tool_json(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string | Record<string, unknown> | null")]
        args: JsValue,
    ) -> Result<JsValue, JsValue> {
        let name = string_arg(&name, "tool name")?;
        let json = match text_from_js(&args, "arguments").map_err(js_error)? {
            Some(json) => json,
            // Absent or null arguments are `{}`, as in `callTool` (docs/tools.md).
            None if args.is_object() || args.is_null() || args.is_undefined() => {
                object_json(&args, "arguments")?.unwrap_or_default()
            }
            None => return Err(js_error(Error::invalid("arguments", "must be JSON text or an object"))),
        };
        Ok(js_string(&tools::call_str(&self.engine, &name, &json).map_err(js_error)?))
    }

    /// Every tool's definition: name, title, description, inputSchema, outputSchema, annotations.
    #[wasm_bindgen(js_name = toolDefinitions, unchecked_return_type = "ToolDefinition[]")]
    pub fn tool_definitions() -> Result<JsValue, JsValue> {
        json_to_js(tools::schema::DEFINITIONS_JSON)
    }

    /// One JSON Lines request `{"id","tool","arguments"}` → its reply line `{"id","result"}` or
    /// `{"id","error"}` (`""` for a blank line); never throws on its input (a non-string is an error line);
    /// like every method, it throws after `free()`.
    #[wasm_bindgen(js_name = handleLine, unchecked_return_type = "string")]
    pub fn handle_line(&self, #[wasm_bindgen(unchecked_param_type = "string")] line: JsValue) -> JsValue {
        js_string(&match text_from_js(&line, "line") {
            Ok(Some(line)) => protocol::handle_line(&self.engine, line.as_bytes()),
            Ok(None) => protocol::error_reply(
                "null",
                &Error::invalid("line", "must be a string (one JSON Lines request)"),
            ),
            Err(e) => protocol::error_reply("null", &e),
        })
    }

    /// The evidence block for a `search` result (what `callTool('search')` returns; any object
    /// whose `results` are `{instance, source, title, page?, article?, section?, heading?, date?,
    /// link?, text}`): `ask`'s `context` layout — each source named once on an `[Sn]` line, `<`
    /// and `>` neutralised — with each result's text whole; `""` for no results. Throws an `Error`
    /// with `code` `invalid_argument` for anything else.
    #[wasm_bindgen(js_name = searchContext)]
    pub fn search_context(
        #[wasm_bindgen(unchecked_param_type = "SearchResult")] result: JsValue,
    ) -> Result<String, JsValue> {
        let json = object_json(&result, "result")?
            .ok_or_else(|| js_error(Error::invalid("result", "must be an object (a search result)")))?;
        tools::search::context(&json).map_err(js_error)
    }

    /// The funnel of a decision log file's text (`ask --jsonl` output, a hook's `--log`) as the
    /// native `groundgate stats` prints it (`deliver::FunnelReport`); lines not JSON are skipped
    /// and counted.
    pub fn funnel(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<String, JsValue> {
        Ok(crate::deliver::FunnelReport::read(&string_arg(&text, "text")?).render())
    }

    /// Line `n` (1-based) of `ask --jsonl` → its output line (`""` for a blank line): `{"id", …the
    /// answer}` or `{"id", "error"}`, as the native CLI writes it (`protocol::ask_reply`).
    /// `defaults`: `{session?, format?}`, what a line leaves out; defaults no line could be answered
    /// with (an empty session) give their error line even for a blank line. Never throws on its input (only
    /// after `free()`, as every method). The line is text:
    /// the host checks its bytes (at most 1 MiB, UTF-8), as the npm bin does.
    #[wasm_bindgen(js_name = askLine, unchecked_return_type = "string")]
    pub fn ask_line(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] line: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "LineDefaults")] defaults: JsValue,
    ) -> JsValue {
        line_out(&line, &n, defaults, |id, body, d| protocol::ask_reply(&mut self.engine, id, &body, d))
    }

    /// Line `n` (1-based) of a tool's `--jsonl` loop → its output line (`""` for a blank line):
    /// `{"id","result"}` or `{"id","error"}` (`protocol::tool_reply`). `defaults`: `{tool?,
    /// arguments?}`, the tool of a line without `"tool"` and arguments for a line without
    /// `"arguments"`. Never throws on its input (only after `free()`, as every method).
    #[wasm_bindgen(js_name = toolLine, unchecked_return_type = "string")]
    pub fn tool_line(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] line: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "LineDefaults")] defaults: JsValue,
    ) -> JsValue {
        line_out(&line, &n, defaults, |id, body, d| protocol::tool_reply(&self.engine, id, body, d))
    }

    /// The `search` tool: BM25 over one or all instances, merged.
    #[wasm_bindgen(js_name = searchTool, unchecked_return_type = "SearchResult")]
    pub fn search_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SearchArgs")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        json_to_js(&self.tool_json("search", args)?)
    }

    /// The `grep` tool: exact phrase after normalisation, matches marked « ».
    #[wasm_bindgen(unchecked_return_type = "GrepResult")]
    pub fn grep(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GrepArgs")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        json_to_js(&self.tool_json("grep", args)?)
    }

    /// The `sources` tool: every source and its locations.
    #[wasm_bindgen(unchecked_return_type = "SourcesResult")]
    pub fn sources(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "SourcesArgs")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        json_to_js(&self.tool_json("sources", args)?)
    }

    /// The `read` tool: the text at a location with its citation.
    #[wasm_bindgen(unchecked_return_type = "ReadResult")]
    pub fn read(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ReadArgs")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        json_to_js(&self.tool_json("read", args)?)
    }

    /// The `links` tool: a source's links, resolved to loaded sources.
    #[wasm_bindgen(unchecked_return_type = "LinksResult")]
    pub fn links(
        &self,
        #[wasm_bindgen(unchecked_param_type = "LinksArgs")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        json_to_js(&self.tool_json("links", args)?)
    }
}

/// REBEL through the host's model and RRF of host lists (feature `tools`; docs/rerank.md). The
/// logic is `rerank::host`; arguments cross as JSON like the tools'.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_class = Engine)]
impl WasmEngine {
    /// The REBEL rerank prompt over this engine's search results for `args.query` (one turn; with
    /// `criteria_reply`, turn 2 of the two-turn strategy). Send `.prompt` to the model, then pass
    /// the returned object and the reply to `rerankWith`.
    #[wasm_bindgen(js_name = rebelPrompt, unchecked_return_type = "RebelPrompt")]
    pub fn rebel_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RebelPromptArgs")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        let json = json_arg(&args, "arguments")?;
        json_to_js(&crate::rerank::host::prompt_json(&self.engine, &json).map_err(js_error)?)
    }

    /// Turn 1 of the two-turn strategy: the prompt asking the model for the query's criteria.
    #[wasm_bindgen(js_name = rebelCriteriaPrompt)]
    pub fn rebel_criteria_prompt(
        #[wasm_bindgen(unchecked_param_type = "{ query: string; lang?: \"ko\" | \"en\" }")] args: JsValue,
    ) -> Result<String, JsValue> {
        crate::rerank::host::criteria_prompt_json(&json_arg(&args, "arguments")?).map_err(js_error)
    }

    /// Apply the model's `reply` to `prompt` (what `rebelPrompt` returned): the documents in the
    /// reply's order with their scores, and `ranking` for `ask`'s `rerank: {ranking, mode:
    /// "order"}`. A malformed or partial reply throws `invalid_argument` naming the defect.
    #[wasm_bindgen(js_name = rerankWith, unchecked_return_type = "Reranked")]
    pub fn rerank_with(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RebelPrompt")] prompt: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] reply: JsValue,
    ) -> Result<JsValue, JsValue> {
        if prompt.is_undefined() || prompt.is_null() {
            return Err(js_error(Error::invalid("prompt", "missing: pass the object rebelPrompt returned")));
        }
        let prompt = json_arg(&prompt, "prompt")?;
        let reply = string_arg(&reply, "reply")?;
        json_to_js(&crate::rerank::host::apply_json(&self.engine, &prompt, &reply).map_err(js_error)?)
    }

    /// Reciprocal rank fusion of ranked lists of chunk references (`{lists, k?}`, k default 60).
    #[wasm_bindgen(unchecked_return_type = "FusedRef[]")]
    pub fn rrf(#[wasm_bindgen(unchecked_param_type = "RrfArgs")] args: JsValue) -> Result<JsValue, JsValue> {
        json_to_js(&crate::rerank::host::rrf_json(&json_arg(&args, "arguments")?).map_err(js_error)?)
    }
}

/// The output line of `askLine` / `toolLine`: `reply` to the request on a line whose arguments
/// check, else the error line.
#[cfg(feature = "tools")]
fn line_out(
    line: &JsValue,
    n: &JsValue,
    defaults: JsValue,
    reply: impl FnOnce(&str, serde_json::Map<String, serde_json::Value>, &protocol::LineDefaults) -> String,
) -> JsValue {
    js_string(&match line_args(line, n, defaults) {
        Ok((line, n, defaults)) => protocol::line_reply(&line, n, |id, body| reply(id, body, &defaults)),
        Err(e) => protocol::error_reply("null", &e),
    })
}

/// The arguments of `askLine` / `toolLine`, checked; the error is the error line's.
#[cfg(feature = "tools")]
fn line_args(
    line: &JsValue,
    n: &JsValue,
    defaults: JsValue,
) -> Result<(String, usize, protocol::LineDefaults), Error> {
    let line = text_from_js(line, "line")?
        .ok_or_else(|| Error::invalid("line", "must be a string (one JSON Lines request)"))?;
    let n = n.as_f64().filter(|n| n.fract() == 0.0 && (1.0..=f64::from(u32::MAX)).contains(n));
    let n = n.ok_or_else(|| Error::invalid("n", "must be the line's number, a whole number ≥ 1"))? as usize;
    let defaults = match object_json_or(&defaults, "defaults")? {
        None => protocol::LineDefaults::default(),
        Some(json) => serde_json::from_str(&json).map_err(|e| Error::invalid("defaults", e.to_string()))?,
    };
    defaults.check()?;
    Ok((line, n, defaults))
}

/// A JS arguments value as JSON text (`undefined`/`null`: empty, read as no arguments); anything
/// but an object is the typed error (one rule: [`object_json`]).
#[cfg(feature = "tools")]
fn json_arg(v: &JsValue, what: &'static str) -> Result<String, JsValue> {
    Ok(object_json(v, what)?.unwrap_or_default())
}

#[cfg(feature = "tools")]
impl WasmEngine {
    /// A tool call with JS arguments (through JSON, as natively); the result as JSON text.
    fn tool_json(&self, name: &str, args: JsValue) -> Result<String, JsValue> {
        let json = object_json(&args, "arguments")?.unwrap_or_default();
        tools::call_str(&self.engine, name, &json).map_err(js_error)
    }
}

/// An open index (the bytes of a `.ggi` file).
#[wasm_bindgen(js_name = Index)]
pub struct WasmIndex {
    index: Index<Arc<[u8]>>,
}

#[cfg(feature = "tools")]
#[wasm_bindgen(js_class = Index)]
impl WasmIndex {
    /// Line `n` (1-based) of the one-index `search --jsonl` contract → its output line (`""` for a
    /// blank line): `{"id","hits"}` with the top `k`, or `{"id","error"}`, as the native CLI writes
    /// it (`protocol::hits_reply`). Never throws on its input (only after `free()`); the host checks the
    /// line's bytes.
    #[wasm_bindgen(js_name = searchLine, unchecked_return_type = "string")]
    pub fn search_line(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] line: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
    ) -> JsValue {
        let k = count_or(&k, "k");
        js_string(&match line_args(&line, &n, JsValue::UNDEFINED) {
            // A bad `k` is this line's error, under the line's own id.
            Ok((line, n, _)) => protocol::line_reply(&line, n, |id, body| match k {
                Ok(k) => protocol::hits_reply(&self.index, id, &body, k),
                Err(e) => protocol::error_reply(id, &e),
            }),
            Err(e) => protocol::error_reply("null", &e),
        })
    }
}

#[wasm_bindgen(js_class = Index)]
impl WasmIndex {
    /// Open index bytes (copied once into wasm memory; not decoded).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<WasmIndex, JsValue> {
        Index::open(shared_bytes(bytes_arg(&bytes)?)?).map(|index| WasmIndex { index }).map_err(js_error)
    }

    /// Check every section's checksum; throws on corruption.
    pub fn verify(&self) -> Result<(), JsValue> {
        self.index.verify().map_err(js_error)
    }

    /// The best `k` hits for `query`, with citations (the `search --jsonl` hit objects).
    #[wasm_bindgen(unchecked_return_type = "Hit[]")]
    pub fn search(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (query, k) = (string_arg(&query, "query")?, count_arg(&k, "k")?);
        hits_to_js(&self.index, &search::search_scored(&self.index, &query, k).map_err(js_error)?)
    }

    /// The same hits as a JSON string, byte-identical to the native CLI's `hits` array.
    #[wasm_bindgen(js_name = searchJson, unchecked_return_type = "string")]
    pub fn search_json(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] k: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (query, k) = (string_arg(&query, "query")?, count_arg(&k, "k")?);
        Ok(js_string(&to_json(&search::search(&self.index, &query, k).map_err(js_error)?)?))
    }

    /// Name, title, counts and settings.
    #[wasm_bindgen(unchecked_return_type = "IndexMeta")]
    pub fn info(&self) -> Result<JsValue, JsValue> {
        to_js(self.index.meta())
    }
}
