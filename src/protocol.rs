//! The JSON Lines contract shared by every `--jsonl` loop (CLI `ask`, `search`, the tools), the
//! ABI's `gg_handle_line` and JS `Engine.handleLine` (the MCP server's way in).
//!
//! * Input is bytes split at `\n` (a trailing `\r` is dropped), read with a bound: a line over
//!   [`MAX_LINE_BYTES`] is not kept in memory, only counted. Blank lines are skipped.
//! * Every other line gives **exactly one** output line, in order: the caller's reply, or an error
//!   line `{"id", "error": {"code", "message"}}` when the line is not UTF-8, not JSON, not an
//!   object, too long, or misses a field. The loop goes on after a bad line.
//! * `id` (any JSON value) is echoed as given; `null` when absent or unreadable.
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
        /// The echoed id.
        id: Value,
        /// The rest of the object.
        body: Map<String, Value>,
    },
    /// A line that cannot be a request.
    Bad {
        /// The id when it could be read, else null.
        id: Value,
        /// Why.
        error: Error,
    },
}

/// Read line number `n` (1-based, for messages) of `line` (without its `\n`); `len` is its
/// length in bytes when it was longer than what was kept.
pub fn parse(line: &[u8], n: usize, len: usize) -> Parsed {
    if len > MAX_LINE_BYTES {
        let e = Error::invalid("line", format!("line {n} is {len} bytes, at most {MAX_LINE_BYTES}"));
        return Parsed::Bad { id: Value::Null, error: e };
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = match std::str::from_utf8(line) {
        Ok(t) => t,
        Err(e) => {
            let e = Error::invalid("line", format!("line {n} is not UTF-8: {e}"));
            return Parsed::Bad { id: Value::Null, error: e };
        }
    };
    if text.trim().is_empty() {
        return Parsed::Blank;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(mut body)) => {
            let id = body.remove("id").unwrap_or(Value::Null);
            Parsed::Request { id, body }
        }
        Ok(_) => Parsed::Bad {
            id: Value::Null,
            error: Error::invalid("line", format!("line {n} is not a JSON object")),
        },
        Err(e) => Parsed::Bad {
            id: Value::Null,
            error: Error::invalid("line", format!("line {n} is not JSON: {e}")),
        },
    }
}

/// `{"id": id, "result": result}` with `result` already JSON text.
pub fn reply(id: &Value, result: &str) -> String {
    format!("{{\"id\":{},\"result\":{result}}}", id_json(id))
}

/// `{"id": id, "error": {"code", "message"}}`.
pub fn error_reply(id: &Value, e: &Error) -> String {
    let report = serde_json::to_string(&e.report()).unwrap_or_else(|_| "{}".into());
    format!("{{\"id\":{},\"error\":{report}}}", id_json(id))
}

fn id_json(id: &Value) -> String {
    serde_json::to_string(id).unwrap_or_else(|_| "null".into())
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
    mut handle: impl FnMut(&Value, Map<String, Value>) -> io::Result<String>,
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
    let report = |e: &Error| serde_json::to_string(&e.report()).unwrap_or_else(|_| "{}".into());
    let bad = |e: &Error| raw_reply("null", "error", &report(e));
    if line.len() > MAX_LINE_BYTES {
        return bad(&Error::invalid(
            "line",
            format!("line is {} bytes, at most {MAX_LINE_BYTES}", line.len()),
        ));
    }
    let text = match std::str::from_utf8(line) {
        Ok(t) => t.trim(),
        Err(e) => return bad(&Error::invalid("line", format!("line is not UTF-8: {e}"))),
    };
    if text.is_empty() {
        return String::new();
    }
    if !text.starts_with('{') {
        return bad(&Error::invalid("line", "line is not a JSON object"));
    }
    let id = match serde_json::from_str::<IdOnly>(text) {
        Ok(x) => x.id.map_or("null", RawValue::get).to_string(),
        Err(e) => return bad(&Error::invalid("line", format!("line is not JSON: {e}"))),
    };
    let error = |e: &Error| raw_reply(&id, "error", &report(e));
    let req = match serde_json::from_str::<ToolLine>(text) {
        Ok(r) => r,
        Err(e) => return error(&Error::invalid("line", e.to_string())),
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
    }
}
