//! The pull tools: what an agent calls when `ask` says **pull** — `search`, `grep`, `sources`,
//! `read` and `links` over an [`Engine`]'s instances (the contract: docs/tools.md).
//!
//! One module per tool; [`call`] and [`call_json`] dispatch a tool by name with JSON arguments,
//! [`definitions`] describes every tool (JSON Schemas for input and output, annotations). Every
//! face — CLI, wasm-bindgen `Engine.callTool`, the ABI's `gg_call_tool`, JSON Lines — goes through
//! [`call_json`], so the bytes are the same everywhere. Results are capped ([`cap`]).

pub mod cap;
pub mod grep;
pub mod links;
pub(crate) mod locate;
pub mod merge;
pub mod read;
pub mod schema;
pub mod search;
pub mod sources;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use schema::definitions;

use crate::engine::Engine;
use crate::error::{Error, Result};

/// The tool names, in the order [`definitions`] lists them.
pub const NAMES: [&str; 5] = ["search", "grep", "sources", "read", "links"];

/// Call tool `name` with `args` (a JSON object); the result as a JSON value.
pub fn call(engine: &Engine, name: &str, args: &Value) -> Result<Value> {
    serde_json::from_str(&call_json(engine, name, args)?).map_err(|e| Error::invalid("result", e.to_string()))
}

/// Call tool `name` with `args`; the result as JSON text, fields in contract order.
pub fn call_json(engine: &Engine, name: &str, args: &Value) -> Result<String> {
    call_str(engine, name, &args.to_string())
}

/// Call tool `name` with arguments given as JSON text (empty or `null`: no arguments); the result
/// as JSON text. What every face calls, so the bytes — errors included — are the same everywhere.
pub fn call_str(engine: &Engine, name: &str, args: &str) -> Result<String> {
    match name {
        "search" => to_json(&search::run(engine, &parse(name, args)?)?),
        "grep" => to_json(&grep::run(engine, &parse(name, args)?)?),
        "sources" => to_json(&sources::run(engine, &parse(name, args)?)?),
        "read" => to_json(&read::run(engine, &parse(name, args)?)?),
        "links" => to_json(&links::run(engine, &parse(name, args)?)?),
        _ => Err(Error::invalid(
            "tool",
            format!("{} is not a tool; tools: {}", crate::error::shown(name, 64), NAMES.join(", ")),
        )),
    }
}

/// Read a tool's arguments from JSON text (unknown fields and wrong types are `invalid_argument`;
/// the message leaves out serde_json's line and column, which depend on how the caller spaced it).
pub(crate) fn parse<T: DeserializeOwned>(tool: &str, args: &str) -> Result<T> {
    let trimmed = args.trim();
    let text = if trimmed.is_empty() || trimmed == "null" { "{}" } else { trimmed };
    if !text.starts_with('{') {
        return Err(Error::invalid("arguments", format!("{tool}: expected a JSON object")));
    }
    serde_json::from_str(text).map_err(|e| {
        let msg = crate::error::json_message(&e);
        let msg = match culprit::<T>(text, &msg) {
            Some((field, msg)) => format!("{tool}: {field}: {msg}"),
            None => format!("{tool}: {msg}"),
        };
        // The tools' counts are u32: said in words (their own ranges are checked after parsing);
        // only serde's closing words, not a value quoted before them.
        let msg = match msg.strip_suffix("expected u32") {
            Some(head) => format!("{head}{WHOLE_NUMBER}"),
            None => msg,
        };
        Error::invalid("arguments", msg)
    })
}

/// What a tool's count (k, page, chunk, limit …) must be, where serde would say "u32".
const WHOLE_NUMBER: &str = "expected a whole number from 0 to 4294967295";

/// The field a type error of serde's (`invalid type: integer `5`, expected a string`) is about,
/// which its message does not say, with the message to show: the object is written again in key
/// order, and the field whose removal changes that object's error (to another, or to none) is the
/// one its error is about. Only on the error path; `None` when no single field is to blame.
fn culprit<T: DeserializeOwned>(text: &str, msg: &str) -> Option<(String, String)> {
    let type_error =
        |m: &str| ["invalid type", "invalid value", "invalid length"].iter().any(|p| m.starts_with(p));
    if !type_error(msg) {
        return None;
    }
    // The fields as they are written (no `Value` tree: it would add its code to the wasm).
    let fields: std::collections::BTreeMap<String, &serde_json::value::RawValue> =
        serde_json::from_str(text).ok()?;
    let error_without = |skip: Option<&str>| -> Option<String> {
        let kept: Vec<String> = fields
            .iter()
            .filter(|(k, _)| Some(k.as_str()) != skip)
            .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap_or_default(), v.get()))
            .collect();
        let e = serde_json::from_str::<T>(&format!("{{{}}}", kept.join(","))).err()?;
        Some(crate::error::json_message(&e))
    };
    let all = error_without(None).filter(|m| type_error(m))?;
    let key = fields.keys().find(|k| error_without(Some(k)).as_ref() != Some(&all))?;
    Some((key.clone(), all))
}

fn to_json<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::invalid("result", e.to_string()))
}

/// Check that `n` lies in `lo..=hi`.
fn in_range(what: &'static str, n: u64, lo: u64, hi: u64) -> Result<()> {
    if n < lo || n > hi {
        return Err(Error::invalid(what, format!("{n}; must be {lo}..={hi}")));
    }
    Ok(())
}

/// Check a required string: non-empty (after trimming) and at most `max` characters.
fn check_text(what: &'static str, s: &str, max: usize) -> Result<()> {
    if s.trim().is_empty() {
        return Err(Error::invalid(what, "empty"));
    }
    let n = s.chars().count();
    if n > max {
        return Err(Error::invalid(what, format!("{n} characters, at most {max}")));
    }
    Ok(())
}

/// The instances a call covers: the named one (checked) or all, in load order.
fn instances(engine: &Engine, instance: Option<&str>) -> Result<Vec<String>> {
    match instance {
        Some(name) => {
            engine.index(name)?;
            Ok(vec![name.to_string()])
        }
        None => {
            engine.check_loaded()?;
            Ok(engine.instance_names())
        }
    }
}

#[cfg(test)]
mod tests;
