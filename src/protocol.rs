//! The JSON Lines contract shared by every `--jsonl` loop (CLI `ask`, `search`, the tools), the
//! ABI's `gg_handle_line` and JS `Engine.handleLine` (the MCP server's way in).
//!
//! * Input is bytes split at `\n` (a trailing `\r` is dropped), read with a bound: a line over
//!   [`MAX_LINE_BYTES`] is not kept in memory, only counted. Blank lines are skipped.
//! * Every other line gives **exactly one** output line, in order: the caller's reply, or an error
//!   line `{"id", "error": {"code", "message"}}` when the line is not UTF-8, not JSON, not an
//!   object, too long, or misses a field. The loop goes on after a bad line.
//! * `id` (any JSON value) is echoed as written — a number keeps its digits (`1.5e3`, integers past
//!   2^64), an object its key order; `null` when absent or unreadable.
//!
//! Tool requests are `{"id", "tool", "arguments"}`; a loop bound to one tool (`groundgate grep
//! --jsonl`) also takes the arguments at the top level (`{"id", "text"}`). Replies are
//! `{"id", "result"}` with the tool's JSON as `tools::call_json` spells it (feature `tools`).

use std::io::{self, BufRead, Write};

#[cfg(feature = "tools")]
use serde::Deserialize;
#[cfg(feature = "tools")]
use serde_json::value::RawValue;
use serde_json::{Map, Value};

#[cfg(feature = "tools")]
use crate::engine::Engine;
use crate::error::{Error, Result};
#[cfg(feature = "tools")]
use crate::tools;

/// Longest line accepted, in bytes (1 MiB).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One input line, read.
#[derive(Debug)]
pub enum Parsed {
    /// Empty or whitespace only: no output.
    Blank,
    /// A JSON object; `id` taken out of it.
    Request {
        /// The id's JSON text as the line writes it, to echo.
        id: String,
        /// The rest of the object.
        body: Map<String, Value>,
    },
    /// A line that cannot be a request.
    Bad {
        /// The id's JSON text when it could be read, else `null`.
        id: String,
        /// Why.
        error: Error,
    },
}

/// Read line number `n` (1-based, for messages) of `line` (without its `\n`); `len` is its
/// length in bytes when it was longer than what was kept.
pub fn parse(line: &[u8], n: usize, len: usize) -> Parsed {
    let (line, len) = without_cr(line, len);
    if len > MAX_LINE_BYTES {
        return Parsed::Bad { id: "null".into(), error: too_long(&format!("line {n}"), len) };
    }
    let text = match std::str::from_utf8(line) {
        Ok(t) => t,
        Err(e) => {
            let e = Error::invalid("line", format!("line {n} is not UTF-8: {e}"));
            return Parsed::Bad { id: "null".into(), error: e };
        }
    };
    // A byte-order mark opens the input of some editors and Windows shells: not part of line 1.
    let text = if n == 1 { crate::text::without_bom(text) } else { text };
    if text.trim().is_empty() {
        return Parsed::Blank;
    }
    let fixed = lone_surrogates_replaced(text);
    let text = fixed.as_deref().unwrap_or(text);
    match serde_json::from_str::<Line>(text) {
        Ok(Line::Object(mut body, repeated)) => {
            // A key given twice is refused (the id echoed unless it is the one given twice).
            let id = match body.remove("id") {
                Some(id) if repeated.as_deref() != Some("id") => id_text(text, &id),
                _ => "null".into(),
            };
            match repeated {
                Some(key) => Parsed::Bad {
                    id,
                    error: Error::invalid(
                        "line",
                        format!("line {n} gives {key:?} twice: which one is meant?"),
                    ),
                },
                None => Parsed::Request { id, body },
            }
        }
        Ok(Line::Other) => Parsed::Bad {
            id: "null".into(),
            error: Error::invalid("line", format!("line {n} is not a JSON object")),
        },
        Err(e) => Parsed::Bad {
            id: "null".into(),
            error: Error::invalid("line", format!("line {n} is not JSON: {e}")),
        },
    }
}

/// A line's JSON read once: an object's members with the first key it gives twice (serde_json
/// keeps the last value silently, so `{"id":1,"id":2}` would answer as 2), or any other value.
enum Line {
    Object(Map<String, Value>, Option<String>),
    Other,
}

impl<'de> serde::Deserialize<'de> for Line {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Members;
        type Got<E> = std::result::Result<Line, E>;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = Line;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Got<A::Error> {
                let (mut body, mut repeated) = (Map::new(), None);
                while let Some(key) = map.next_key::<String>()? {
                    let value = map.next_value::<Value>()?;
                    if body.contains_key(&key) {
                        repeated.get_or_insert(key);
                    } else {
                        body.insert(key, value);
                    }
                }
                Ok(Line::Object(body, repeated))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Got<A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Line::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Got<E> {
                Ok(Line::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Got<E> {
                Ok(Line::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Got<E> {
                Ok(Line::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Got<E> {
                Ok(Line::Other)
            }
            fn visit_str<E>(self, _: &str) -> Got<E> {
                Ok(Line::Other)
            }
            fn visit_unit<E>(self) -> Got<E> {
                Ok(Line::Other)
            }
        }
        d.deserialize_any(Members)
    }
}

/// `text` with every `\uD800`–`\uDFFF` escape that is not half of a surrogate pair written as
/// `\uFFFD`, or `None` when it has none. JavaScript's `JSON.stringify` writes a string's lone
/// surrogates as such escapes, which JSON parsers (serde_json) refuse; the JS API receives the same
/// strings with U+FFFD in their place, so a line answers as the call does.
pub(crate) fn lone_surrogates_replaced(text: &str) -> Option<String> {
    if !text.contains("\\u") {
        return None;
    }
    let b = text.as_bytes();
    let unit = |at: usize| -> Option<u32> {
        let digits = b.get(at + 2..at + 6).filter(|_| b.get(at + 1) == Some(&b'u'))?;
        let digits = std::str::from_utf8(digits).ok().filter(|d| d.bytes().all(|c| c.is_ascii_hexdigit()))?;
        u32::from_str_radix(digits, 16).ok()
    };
    let (mut out, mut copied, mut i) = (String::new(), 0, 0);
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        match unit(i) {
            Some(0xD800..=0xDBFF) if matches!(unit(i + 6), Some(0xDC00..=0xDFFF)) => i += 12,
            Some(0xD800..=0xDFFF) => {
                out.push_str(&text[copied..i]);
                out.push_str("\\ufffd");
                i += 6;
                copied = i;
            }
            Some(_) => i += 6,
            None => i += 2, // a one-character escape: \\, \", \n …
        }
    }
    (copied > 0).then(|| out + &text[copied..])
}

/// A line as [`read_line`] kept it (`len`: its full length) without a trailing `\r`, when the whole
/// line was kept and so its end is seen: the bytes and the length that the bound applies to. An
/// over-long line's length counts a `\r` it may end with (its end was not kept).
fn without_cr(line: &[u8], len: usize) -> (&[u8], usize) {
    match line.strip_suffix(b"\r") {
        Some(l) if len == line.len() => (l, len - 1),
        _ => (line, len.max(line.len())),
    }
}

/// The error for a line of `len` bytes, over [`MAX_LINE_BYTES`] (`what`: "line 3", "line").
fn too_long(what: &str, len: usize) -> Error {
    Error::invalid("line", format!("{what} is {len} bytes, at most {MAX_LINE_BYTES}"))
}

/// The JSON text of the id `value` that the object line `text` holds, as written there: serde_json's
/// tree would write `1.5e3` as `1500.0`, an integer past 2^64 as a float and an object's keys
/// sorted, so a host pairing replies by id could miss its own. A line with the key twice (the
/// tree keeps the last) or a build without `tools` (no raw values) writes the value itself.
fn id_text(text: &str, value: &Value) -> String {
    #[cfg(feature = "tools")]
    if let Ok(IdOnly { id: Some(raw) }) = serde_json::from_str::<IdOnly>(text) {
        return raw.get().to_string();
    }
    let _ = text;
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// `{"id": id, "result": result}` with `id` and `result` already JSON text.
pub fn reply(id: &str, result: &str) -> String {
    format!("{{\"id\":{id},\"result\":{result}}}")
}

/// `{"id": id, "error": {"code", "message"}}` with `id` already JSON text.
pub fn error_reply(id: &str, e: &Error) -> String {
    let report = serde_json::to_string(&e.report()).unwrap_or_else(|_| "{}".into());
    format!("{{\"id\":{id},\"error\":{report}}}")
}

/// `{"id": id, …}`: the fields of the JSON object `object` after the id (already JSON text).
#[cfg(feature = "tools")]
fn with_id(id: &str, object: &str) -> String {
    match object.strip_prefix('{').map(str::trim_start) {
        Some("}") | None => format!("{{\"id\":{id}}}"),
        Some(rest) => format!("{{\"id\":{id},{rest}"),
    }
}

/// A string field of a request, or an error naming it.
pub fn field<'a>(body: &'a Map<String, Value>, name: &'static str) -> Result<&'a str> {
    body.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| Error::invalid(name, format!("each line needs a string \"{name}\"")))
}

/// Read the next line into `buf` (without `\n`), keeping at most [`MAX_LINE_BYTES`] + 2 bytes of
/// it; its full length, or `None` at the end of input.
pub fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<usize>> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(len));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        let room = (MAX_LINE_BYTES + 2).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        len += part.len();
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(len));
        }
    }
}

/// Serve `input` line by line: `handle(id, body)` makes the output line of a request; bad lines
/// get an error line; blank lines nothing. Each output line is flushed (hosts wait for it).
pub fn serve<R: BufRead, W: Write>(
    mut input: R,
    out: &mut W,
    mut handle: impl FnMut(&str, Map<String, Value>) -> io::Result<String>,
) -> io::Result<()> {
    let mut buf = Vec::new();
    let mut n = 0;
    while let Some(len) = read_line(&mut input, &mut buf)? {
        n += 1;
        let text = match parse(&buf, n, len) {
            Parsed::Blank => continue,
            Parsed::Request { id, body } => handle(&id, body)?,
            Parsed::Bad { id, error } => error_reply(&id, &error),
        };
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(())
}

#[cfg(feature = "tools")]
/// The result JSON of a tool request: the tool is `body["tool"]`, else `tool`; the arguments are
/// `body["arguments"]`, else the rest of the body.
pub fn tool_result(engine: &Engine, mut body: Map<String, Value>, tool: Option<&str>) -> Result<String> {
    let name = match body.remove("tool") {
        Some(Value::String(s)) => s,
        Some(_) => return Err(Error::invalid("tool", "must be a string")),
        None => tool
            .map(str::to_string)
            .ok_or_else(|| Error::invalid("tool", "each line needs a string \"tool\""))?,
    };
    let args = match body.remove("arguments") {
        Some(a) if body.is_empty() => a,
        Some(_) => {
            return Err(Error::invalid(
                "arguments",
                "give the arguments under \"arguments\" or at the top level, not both",
            ));
        }
        None => Value::Object(body),
    };
    tools::call_json(engine, &name, &args)
}

/// What each line of a `--jsonl` loop may leave out: the defaults the command line gives (`ask
/// --session --format`, `search --k …`). JS `Engine.askLine` / `toolLine` take them as an object.
#[cfg(feature = "tools")]
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LineDefaults {
    /// `ask`: the session id for dedup (a line's `"session"` overrides it).
    pub session: Option<String>,
    /// `ask`: the context format.
    pub format: crate::deliver::Format,
    /// Tools: the tool of a line without `"tool"` (`groundgate search --jsonl`: `search`).
    pub tool: Option<String>,
    /// Tools: arguments added to a line without `"arguments"`, where the line does not give them.
    pub arguments: Map<String, Value>,
}

#[cfg(feature = "tools")]
impl LineDefaults {
    /// Refuse what no line could be answered with (an empty session), before the first line.
    pub fn check(&self) -> Result<()> {
        match &self.session {
            Some(s) => crate::deliver::session::check_id(s),
            None => Ok(()),
        }
    }
}

#[cfg(feature = "tools")]
/// One `ask` request `{"prompt", "session"?, "rerank"?}` (its id taken out) → its reply line, or
/// the error line: a slip of one of its keys (within two edits of one, in any case), a prompt that
/// is not a string, a session that is neither a string nor null, a rerank that is not
/// [`RerankOptions`](crate::rerank::RerankOptions) (docs/rerank.md).
pub fn ask_reply(
    engine: &mut Engine,
    id: &str,
    body: &Map<String, Value>,
    defaults: &LineDefaults,
) -> String {
    let answer = (|| {
        if let Some((key, meant)) = body.keys().find_map(|k| misspelt(k).map(|m| (k, m))) {
            return Err(Error::invalid(
                "line",
                format!(
                    "unknown field {}: did you mean \"{meant}\"? (an ask line holds \"id\", \"prompt\", \
                     \"session\"? and \"rerank\"?; other keys are ignored)",
                    crate::error::shown(key, 64)
                ),
            ));
        }
        let prompt = field(body, "prompt")?;
        let session = match body.get("session") {
            None | Some(Value::Null) => defaults.session.clone(),
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(Error::invalid("session", "must be a string")),
        };
        let rerank = match body.get("rerank") {
            None | Some(Value::Null) => None,
            Some(r) => {
                Some(serde_json::from_value(r.clone()).map_err(|e| Error::invalid("rerank", e.to_string()))?)
            }
        };
        let opts =
            crate::engine::AskOptions { session, format: defaults.format, rerank, ..Default::default() };
        let answer = engine.ask(prompt, &opts)?;
        let answer = serde_json::to_string(&answer).map_err(|e| Error::invalid("result", e.to_string()))?;
        Ok(with_id(id, &answer))
    })();
    answer.unwrap_or_else(|e| error_reply(id, &e))
}

#[cfg(feature = "tools")]
/// The ask line's field that `key` looks like a slip of ("sesion", "Session", "promt"), if it is
/// not that field itself. Other keys are ignored, so a labels file (`"kind"`, `"gold"` …) can be
/// asked as it is; a slip would be an answer without what the line asked for (no session: no
/// dedup).
fn misspelt(key: &str) -> Option<&'static str> {
    let folded: Vec<char> = key.to_lowercase().chars().collect();
    ["prompt", "session", "rerank"].into_iter().find(|field| {
        key != *field && crate::tools::locate::distance(&folded, &field.chars().collect::<Vec<_>>()) <= 2
    })
}

#[cfg(feature = "tools")]
/// One tool request (its id taken out) → its reply line `{"id","result"}` or the error line: the
/// tool is the line's `"tool"`, else `defaults.tool`; a line without `"arguments"` gets
/// `defaults.arguments` where it does not give them ([`tool_result`]).
pub fn tool_reply(
    engine: &Engine,
    id: &str,
    mut body: Map<String, Value>,
    defaults: &LineDefaults,
) -> String {
    if !body.contains_key("arguments") {
        for (k, v) in &defaults.arguments {
            body.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    match tool_result(engine, body, defaults.tool.as_deref()) {
        Ok(json) => reply(id, &json),
        Err(e) => error_reply(id, &e),
    }
}

#[cfg(feature = "tools")]
/// One request `{"query"}` of the one-index `search --jsonl` contract (its id taken out) → `{"id",
/// "hits"}` with the BM25 top `k` of `index` ([`search::search`](crate::search::search)), or the
/// error line.
pub fn hits_reply<D: AsRef<[u8]> + Clone>(
    index: &crate::Index<D>,
    id: &str,
    body: &Map<String, Value>,
    k: usize,
) -> String {
    if let Some(other) = body.keys().find(|key| key.as_str() != "query") {
        let e = Error::invalid(
            "line",
            format!(
                "{} is not a field of a search line, which holds \"id\" and \"query\" (the number of \
                 hits is the caller's k); the search tool's arguments (k, instance, detailed) go \
                 through the tool contract: `search --jsonl --tool`, `Engine.toolLine`",
                crate::error::shown(other, 64)
            ),
        );
        return error_reply(id, &e);
    }
    let hits = field(body, "query").and_then(|q| crate::search::search(index, q, k));
    hits.and_then(|hits| {
        let hits = serde_json::to_string(&hits).map_err(|e| Error::invalid("result", e.to_string()))?;
        Ok(format!("{{\"id\":{id},\"hits\":{hits}}}"))
    })
    .unwrap_or_else(|e| error_reply(id, &e))
}

#[cfg(feature = "tools")]
/// Line `n` (1-based) of a loop, as text → its output line (`""` for a blank line): `reply` for a
/// request, the error line for a line that is not one ([`parse`]). For hosts that read lines
/// themselves (JS `Engine.askLine`, `toolLine`); the bytes' bound and UTF-8 are theirs to check.
pub fn line_reply(line: &str, n: usize, reply: impl FnOnce(&str, Map<String, Value>) -> String) -> String {
    match parse(line.as_bytes(), n, line.len()) {
        Parsed::Blank => String::new(),
        Parsed::Request { id, body } => reply(&id, body),
        Parsed::Bad { id, error } => error_reply(&id, &error),
    }
}

#[cfg(feature = "tools")]
/// The id of a request line, whatever else it holds.
#[derive(Deserialize)]
struct IdOnly<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
}

#[cfg(feature = "tools")]
/// A tool request line, `{"id", "tool", "arguments"}`, read without building a JSON tree.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolLine<'a> {
    #[serde(borrow, default)]
    #[allow(dead_code)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

#[cfg(feature = "tools")]
fn raw_reply(id: &str, key: &str, body: &str) -> String {
    format!("{{\"id\":{id},\"{key}\":{body}}}")
}

#[cfg(feature = "tools")]
/// One tool request line `{"id", "tool", "arguments"}` → one reply line `{"id", "result"}` or
/// `{"id", "error"}` (`""` for a blank line): what `Engine.handleLine` and `gg_handle_line`
/// return, and what `groundgate tool --jsonl` writes. The id is echoed as written.
pub fn handle_line(engine: &Engine, line: &[u8]) -> String {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    handle(engine, line, line.len())
}

#[cfg(feature = "tools")]
/// [`handle_line`] of a line [`read_line`] kept at most [`MAX_LINE_BYTES`] + 2 bytes of: `len` is
/// its full length (an over-long line's error names it, not what was kept).
pub fn handle_read_line(engine: &Engine, line: &[u8], len: usize) -> String {
    let (line, len) = without_cr(line, len);
    handle(engine, line, len)
}

#[cfg(feature = "tools")]
/// A request line without its line end; `len`: its full length.
fn handle(engine: &Engine, line: &[u8], len: usize) -> String {
    let report = |e: &Error| serde_json::to_string(&e.report()).unwrap_or_else(|_| "{}".into());
    let bad = |e: &Error| raw_reply("null", "error", &report(e));
    if len > MAX_LINE_BYTES {
        return bad(&too_long("line", len));
    }
    // A byte-order mark (the first line of some editors' and Windows shells' input) is not text.
    let text = match std::str::from_utf8(line) {
        Ok(t) => crate::text::without_bom(t).trim(),
        Err(e) => return bad(&Error::invalid("line", format!("line is not UTF-8: {e}"))),
    };
    if text.is_empty() {
        return String::new();
    }
    if !text.starts_with('{') {
        return bad(&Error::invalid("line", "line is not a JSON object"));
    }
    let fixed = lone_surrogates_replaced(text);
    let text = fixed.as_deref().unwrap_or(text);
    let id = match serde_json::from_str::<IdOnly>(text) {
        Ok(x) => x.id.map_or("null", RawValue::get).to_string(),
        Err(e) => return bad(&Error::invalid("line", format!("line is not JSON: {e}"))),
    };
    let error = |e: &Error| raw_reply(&id, "error", &report(e));
    let req = match serde_json::from_str::<ToolLine>(text) {
        Ok(r) => r,
        Err(e) => return error(&Error::invalid("line", crate::error::json_message(&e))),
    };
    let Some(tool) = req.tool else {
        return error(&Error::invalid("tool", "each line needs a string \"tool\""));
    };
    match tools::call_str(engine, &tool, req.arguments.map_or("", RawValue::get)) {
        Ok(json) => raw_reply(&id, "result", &json),
        Err(e) => error(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(input: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        serve(input, &mut out, |id, body| Ok(reply(id, &Value::Object(body).to_string()))).unwrap();
        String::from_utf8(out).unwrap().lines().map(str::to_string).collect()
    }

    #[test]
    fn a_key_given_twice_is_refused_wherever_it_stands() {
        let out = served(
            b"{\"id\":9,\"id\":10,\"q\":\"a\"}\n{\"id\":11,\"q\":\"a\",\"q\":\"b\"}\n\
              {\"q\":\"a\",\"id\":12,\"id\":13}\n{\"id\":14,\"q\":{\"a\":1,\"a\":2}}\n",
        );
        assert_eq!(out.len(), 4);
        assert!(
            out[0].starts_with("{\"id\":null,\"error\"") && out[0].contains("line 1 gives \\\"id\\\" twice"),
            "{}",
            out[0]
        );
        assert!(
            out[1].starts_with("{\"id\":11,\"error\"") && out[1].contains("gives \\\"q\\\" twice"),
            "{}",
            out[1]
        );
        assert!(out[2].starts_with("{\"id\":null,\"error\""), "{}", out[2]);
        // Only the line's own keys: a value's inner object is the tool's to read.
        assert_eq!(out[3], "{\"id\":14,\"result\":{\"q\":{\"a\":2}}}");
    }

    #[test]
    fn one_line_out_per_line_in_whatever_it_holds() {
        let mut input = b"{\"id\":1,\"q\":\"a\"}\n\n  \r\n".to_vec();
        input.extend_from_slice(b"{\"id\":2,\"q\":\"\xff\"}\n"); // not UTF-8
        input.extend_from_slice(b"not json\n[1]\n{\"id\":\"x\"}\r\n");
        input.extend_from_slice(&vec![b'a'; MAX_LINE_BYTES + 10]);
        input.extend_from_slice(b"\n{\"id\":9}");
        let lines = served(&input);
        assert_eq!(lines.len(), 7, "{lines:?}");
        assert_eq!(lines[0], r#"{"id":1,"result":{"q":"a"}}"#);
        assert!(
            lines[1].contains("not UTF-8")
                && lines[1].starts_with(r#"{"id":null,"error":{"code":"invalid_argument""#)
        );
        assert!(lines[2].contains("not JSON"));
        assert!(lines[3].contains("not a JSON object"));
        assert_eq!(lines[4], r#"{"id":"x","result":{}}"#);
        assert!(lines[5].contains("1048586 bytes"), "{}", lines[5]);
        assert_eq!(lines[6], r#"{"id":9,"result":{}}"#);
        // The last line has no newline and still gets its answer.
        assert_eq!(served(b"{\"id\":9}"), vec![r#"{"id":9,"result":{}}"#]);
        // A byte-order mark before the first line is not part of it; elsewhere it is bad JSON.
        let lines = served(b"\xef\xbb\xbf{\"id\":1}\n\xef\xbb\xbf{\"id\":2}\n");
        assert_eq!(lines[0], r#"{"id":1,"result":{}}"#);
        assert!(lines[1].contains("not JSON"), "{}", lines[1]);
    }

    #[test]
    fn a_trailing_cr_is_dropped_only_where_the_line_end_was_kept() {
        // Kept whole: the `\r` is the line end's, not counted.
        assert_eq!(without_cr(b"ab\r", 3), (&b"ab"[..], 2));
        assert_eq!(without_cr(b"ab", 2), (&b"ab"[..], 2));
        assert_eq!(without_cr(b"\r", 1), (&b""[..], 0));
        // Cut short: the kept bytes may end in `\r` mid-line; the full length is the bound's.
        assert_eq!(without_cr(b"ab\r", 10), (&b"ab\r"[..], 10));
        assert_eq!(without_cr(b"ab", 10), (&b"ab"[..], 10));
        // Exactly the bound with `\r\n` is in; one more byte is out, named by its length.
        let mut line = vec![b'a'; MAX_LINE_BYTES];
        line.push(b'\r');
        assert_eq!(without_cr(&line, line.len()).1, MAX_LINE_BYTES);
        line.insert(0, b'a');
        let (_, len) = without_cr(&line, line.len());
        assert_eq!(len, MAX_LINE_BYTES + 1);
        assert!(too_long("line", len).to_string().contains(&format!("line is {} bytes", MAX_LINE_BYTES + 1)));
    }

    #[test]
    fn a_line_of_exactly_the_bound_may_end_in_cr_lf() {
        let mut line = b"{\"id\":1,\"q\":\"".to_vec();
        line.resize(MAX_LINE_BYTES - 2, b'a');
        line.extend_from_slice(b"\"}");
        let mut input = line.clone();
        input.extend_from_slice(b"\r\n");
        input.extend_from_slice(&line);
        input.extend_from_slice(b"a\r\n");
        let lines = served(&input);
        assert!(lines[0].starts_with(r#"{"id":1,"result""#), "{}", &lines[0][..80]);
        assert!(lines[1].contains(&format!("line 2 is {} bytes", MAX_LINE_BYTES + 1)), "{}", lines[1]);
    }

    #[cfg(feature = "tools")]
    fn engine() -> Engine {
        let bytes =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1/excerpts.ggi")).unwrap();
        let mut e = Engine::new(Default::default()).unwrap();
        e.add_instance("x", bytes, Default::default()).unwrap();
        e.set_clock(Box::new(crate::engine::FixedClock(0)));
        e
    }

    #[cfg(feature = "tools")]
    #[test]
    fn a_request_line_may_begin_with_a_byte_order_mark() {
        let e = engine();
        let plain = handle_line(&e, br#"{"id":7,"tool":"sources"}"#);
        assert!(plain.starts_with(r#"{"id":7,"result":"#), "{plain}");
        assert_eq!(handle_line(&e, "\u{feff}{\"id\":7,\"tool\":\"sources\"}\n".as_bytes()), plain);
    }

    #[cfg(feature = "tools")]
    #[test]
    fn ask_lines_check_every_field_and_echo_the_id() {
        let mut e = engine();
        let d = LineDefaults { session: Some("s".into()), ..Default::default() };
        let mut ask = |line: &str| line_reply(line, 1, |id, body| ask_reply(&mut e, id, &body, &d));
        let first = ask(r#"{"id":[1],"prompt":"대한민국의 주권은 누구에게 있나요?"}"#);
        assert!(first.starts_with(r#"{"id":[1],"route":"push""#), "{first}");
        // The default session dedups the same evidence; a line's own session does not share it.
        let again = ask(r#"{"id":2,"prompt":"대한민국의 주권은 누구에게 있나요?"}"#);
        assert!(again.contains("all_deduplicated"), "{again}");
        let own = ask(r#"{"id":3,"prompt":"대한민국의 주권은 누구에게 있나요?","session":"t"}"#);
        assert!(own.contains(r#""dedup_skipped":[]"#), "{own}");
        for (line, why) in [
            (r#"{"id":4,"prompt":"주권","session":7}"#, "invalid session: must be a string"),
            (r#"{"id":4,"prompt":"주권","rerank":"x"}"#, "invalid rerank: invalid type: string"),
            (r#"{"id":4,"prompt":5}"#, "invalid prompt: each line needs a string"),
            (
                r#"{"id":4,"prompt":"주권","sesion":"t"}"#,
                r#"unknown field \"sesion\": did you mean \"session\"?"#,
            ),
            (
                r#"{"id":4,"prompt":"주권","Session":"t"}"#,
                r#"unknown field \"Session\": did you mean \"session\"?"#,
            ),
            (r#"{"id":4,"promt":"주권"}"#, r#"unknown field \"promt\": did you mean \"prompt\"?"#),
            (r#"{"id":4,"prompt":"주권","re_rank":{}}"#, r#"did you mean \"rerank\"?"#),
        ] {
            let out = ask(line);
            assert!(
                out.starts_with(r#"{"id":4,"error":{"code":"invalid_argument""#) && out.contains(why),
                "{out}"
            );
        }
        // Other keys are ignored: a labels file is asked as it is.
        let labelled =
            ask(r#"{"id":5,"prompt":"주권","kind":"question","gold":[{"source":"c"}],"polite":true}"#);
        assert!(labelled.starts_with(r#"{"id":5,"route":"#), "{labelled}");
        assert_eq!(ask("  "), "");
        assert!(ask("[1]").contains("line 1 is not a JSON object"));
        // The id as written: digits, key order and spacing inside it kept, on answers and errors.
        for id in ["1.5e3", "18446744073709551616", r#"{"z":1,"a":[2, 3]}"#, r#""\u00e9""#, "-0"] {
            let out = ask(&format!(r#"{{"prompt":"주권", "id": {id} }}"#));
            assert!(out.starts_with(&format!(r#"{{"id":{id},"route":"#)), "{out}");
            let bad = ask(&format!(r#"{{"id":{id},"prompt":1}}"#));
            assert!(bad.starts_with(&format!(r#"{{"id":{id},"error":"#)), "{bad}");
        }
        // Twice in one line: refused (which one was meant?), without an id to echo.
        assert!(ask(r#"{"id":1,"id":2.50,"prompt":"주권"}"#).starts_with(r#"{"id":null,"error":"#));
    }

    #[test]
    fn lone_surrogate_escapes_read_as_the_replacement_character() {
        let fix = |t: &str| lone_surrogates_replaced(t);
        assert_eq!(fix(r#"{"p":"a\ud800b"}"#).as_deref(), Some(r#"{"p":"a\ufffdb"}"#));
        assert_eq!(fix(r#"{"p":"\udc00\uD800\u0041"}"#).as_deref(), Some(r#"{"p":"\ufffd\ufffd\u0041"}"#));
        assert_eq!(
            fix(r#"{"p":"\ud83d\ude00 \\ud800 \u00e9"}"#),
            None,
            "a pair, an escaped backslash, a BMP escape"
        );
        assert_eq!(fix(r#"{"p":"\ud8"}"#), None, "a short escape is the parser's to refuse");
        match parse(br#"{"id":3,"prompt":"\ud800 \uc8fc\uad8c"}"#, 1, 0) {
            Parsed::Request { id, body } => {
                assert_eq!(id, "3");
                assert_eq!(body["prompt"], "\u{fffd} 주권");
            }
            other => panic!("{other:?}"),
        }
    }

    #[cfg(feature = "tools")]
    #[test]
    fn tool_lines_take_the_loops_defaults_and_hits_lines_the_historic_shape() {
        let e = engine();
        let d = LineDefaults {
            tool: Some("search".into()),
            arguments: serde_json::from_str(r#"{"k":1}"#).unwrap(),
            ..Default::default()
        };
        let tool = |line: &str| line_reply(line, 3, |id, body| tool_reply(&e, id, body, &d));
        let one = tool(r#"{"id":1,"query":"주권"}"#);
        assert!(
            one.starts_with(r#"{"id":1,"result":{"query":"주권""#) && one.matches(r#""rank":"#).count() == 1,
            "{one}"
        );
        assert!(tool(r#"{"id":1,"query":"대통령","k":3}"#).matches(r#""rank":"#).count() == 3);
        assert!(tool(r#"{"id":1,"tool":"grep","arguments":{"text":"주권"}}"#).contains(r#""matches":["#));
        assert!(tool("nope").contains("line 3 is not JSON"));
        let index = crate::Index::open(
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1/excerpts.ggi")).unwrap(),
        )
        .unwrap();
        let hits =
            line_reply(r#"{"id":"q","query":"대통령"}"#, 1, |id, body| hits_reply(&index, id, &body, 2));
        assert!(
            hits.starts_with(r#"{"id":"q","hits":[{"rank":1,"#) && hits.matches(r#""rank":"#).count() == 2,
            "{hits}"
        );
        let big =
            line_reply(r#"{"id":123456789012345678901234567890,"query":"대통령"}"#, 1, |id, body| {
                hits_reply(&index, id, &body, 1)
            });
        assert!(big.starts_with(r#"{"id":123456789012345678901234567890,"hits":[{"rank":1,"#), "{big}");
        let none = line_reply(r#"{"id":"q"}"#, 1, |id, body| hits_reply(&index, id, &body, 2));
        assert!(none.contains(r#"invalid query: each line needs a string \"query\""#), "{none}");
        // A field of the tool contract is refused with the line's id, not silently ignored.
        let k = line_reply(r#"{"id":7,"query":"대통령","k":1}"#, 1, |id, body| {
            hits_reply(&index, id, &body, 2)
        });
        assert!(
            k.starts_with(
                r#"{"id":7,"error":{"code":"invalid_argument","message":"invalid line: \"k\" is not a field"#
            ),
            "{k}"
        );
    }
}
