//! `groundgate search|grep|sources|read|links|tool|tools`: the pull tools over one or more indexes,
//! as readable text or JSON Lines (the contract: docs/tools.md). Conversion only: every call goes to
//! `groundgate::tools`.

use std::io::Write;
use std::path::PathBuf;

use groundgate::deliver::log::count;
use groundgate::{protocol, tools};
use serde_json::{Map, Value};

use crate::timings::Timings;

/// What every tool subcommand shares.
pub struct Common {
    pub indexes: Vec<PathBuf>,
    pub jsonl: bool,
    pub timings: bool,
}

/// Run tool `name` (None: `groundgate tool`, the tool named by each line). `args` are the
/// arguments from the command line; under `--jsonl` they are defaults for each line's.
pub fn run(
    name: Option<&str>,
    c: Common,
    args: Map<String, Value>,
) -> Result<(), Box<dyn std::error::Error>> {
    let engine = crate::ask::engine(&c.indexes, None, None)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if name.is_none() {
        // Exactly what Engine.handleLine and gg_handle_line answer.
        let mut clock = Timings::default();
        let mut input = std::io::stdin().lock();
        let mut buf = Vec::new();
        while let Some(len) = protocol::read_line(&mut input, &mut buf)? {
            let reply = clock.time(|| protocol::handle_read_line(&engine, &buf, len));
            if !reply.is_empty() {
                writeln!(out, "{reply}")?;
                out.flush()?;
            }
        }
        if c.timings {
            eprintln!("{}", clock.summary());
        }
        return Ok(());
    }
    if c.jsonl {
        let mut clock = Timings::default();
        let defaults = protocol::LineDefaults {
            tool: name.map(str::to_string),
            arguments: args.clone(),
            ..Default::default()
        };
        protocol::serve(std::io::stdin().lock(), &mut out, |id, body| {
            Ok(clock.time(|| protocol::tool_reply(&engine, id, body, &defaults)))
        })?;
        if c.timings {
            eprintln!("{}", clock.summary());
        }
        return Ok(());
    }
    let name = name.unwrap_or_default();
    let result = tools::call(&engine, name, &Value::Object(args))?;
    human(&mut out, name, &result)?;
    out.flush()?; // a write error (a full disk) is the command's error, not lost on drop
    Ok(())
}

/// `groundgate tools`: the definitions (JSON).
pub fn definitions() -> Result<(), Box<dyn std::error::Error>> {
    crate::out(format_args!("{}\n", serde_json::to_string_pretty(&tools::definitions())?))?;
    Ok(())
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

/// `p.3 제10조 §1-1 “heading” [2026-06]` from a citation object.
fn location(v: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(p) = v.get("page").and_then(Value::as_u64) {
        parts.push(format!("p.{p}"));
    }
    if let Some(a) = v.get("article").and_then(Value::as_str) {
        parts.push(a.to_string());
    }
    if let Some(x) = v.get("section").and_then(Value::as_str) {
        parts.push(format!("§{x}"));
    }
    if let Some(x) = v.get("heading").and_then(Value::as_str) {
        parts.push(format!("“{x}”"));
    }
    if let Some(d) = v.get("date").and_then(Value::as_str) {
        parts.push(format!("[{d}]"));
    }
    parts.join(" ")
}

fn snippet(text: &str, n: usize) -> String {
    text.replace('\n', " ").chars().take(n).collect()
}

fn items<'a>(v: &'a Value, k: &str) -> &'a [Value] {
    v.get(k).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn human(out: &mut impl Write, name: &str, r: &Value) -> std::io::Result<()> {
    match name {
        "search" => {
            writeln!(
                out,
                "query: {}   (instances: {})",
                s(r, "query"),
                items(r, "instances").iter().map(|i| i.as_str().unwrap_or("")).collect::<Vec<_>>().join(", ")
            )?;
            if items(r, "results").is_empty() {
                writeln!(out, "  (no hits)")?;
            }
            for h in items(r, "results") {
                let rank = h.get("rank").and_then(Value::as_u64).unwrap_or(0);
                writeln!(out, "{rank:>3}. {}  {}  {}", s(h, "instance"), s(h, "source"), location(h))?;
                if let Some(r) = h.get("ref").and_then(Value::as_str) {
                    // Detailed: the reference (what --fuse takes) and the scores.
                    writeln!(out, "     ref {r}  score {}  bm25 {}", h["score"], h["bm25"])?;
                }
                writeln!(out, "     {}", snippet(s(h, "text"), 110))?;
            }
        }
        "grep" => {
            let total = r.get("total").and_then(Value::as_u64).unwrap_or(0);
            let shown = items(r, "matches").len() as u64;
            let more = if shown < total { format!(", {shown} shown") } else { String::new() };
            writeln!(out, "text: {}   ({}{more})", s(r, "text"), count(total as usize, "matching chunk"))?;
            for m in items(r, "matches") {
                writeln!(out, "  {}  {}  {}", s(m, "instance"), s(m, "source"), location(m))?;
                let text: Vec<char> = s(m, "text").chars().collect();
                let at = text.iter().position(|&c| c == '«').unwrap_or(0);
                let from = at.saturating_sub(50);
                let piece: String = text[from..(at + 110).min(text.len())].iter().collect();
                writeln!(out, "     {}", piece.replace('\n', " "))?;
            }
        }
        "sources" => {
            for e in items(r, "sources") {
                let n = e.get("chunks").and_then(Value::as_u64).unwrap_or(0);
                let pages = match e.get("pages").and_then(Value::as_array) {
                    Some(p) if p.len() == 2 => format!(" pp.{}–{}", p[0], p[1]),
                    _ => String::new(),
                };
                let arts = items(e, "articles").len() as u64
                    + e.get("articles_more").and_then(Value::as_u64).unwrap_or(0);
                let heads = items(e, "headings").len() as u64
                    + e.get("headings_more").and_then(Value::as_u64).unwrap_or(0);
                writeln!(
                    out,
                    "{:<14} {:<28} {} [{}] {}{pages} {} {}",
                    s(e, "instance"),
                    s(e, "source"),
                    s(e, "title"),
                    s(e, "kind"),
                    count(n as usize, "chunk"),
                    count(arts as usize, "article"),
                    count(heads as usize, "heading")
                )?;
            }
        }
        "read" => {
            writeln!(out, "{} · {} · {}  {}", s(r, "instance"), s(r, "source"), s(r, "title"), location(r))?;
            for p in items(r, "before") {
                writeln!(out, "  (before, chunk {}) {}", p["chunk"], snippet(s(p, "text"), 200))?;
            }
            writeln!(out, "{}", s(r, "text"))?;
            for p in items(r, "after") {
                writeln!(out, "  (after, chunk {}) {}", p["chunk"], snippet(s(p, "text"), 200))?;
            }
        }
        "links" => {
            writeln!(out, "{} · {} · {}", s(r, "instance"), s(r, "source"), s(r, "title"))?;
            if items(r, "links").is_empty() {
                writeln!(out, "  (no links)")?;
            }
            for l in items(r, "links") {
                let to: Vec<String> = items(l, "resolved")
                    .iter()
                    .map(|t| format!("{}/{}", s(t, "instance"), s(t, "source")))
                    .collect();
                writeln!(
                    out,
                    "  {}{}",
                    s(l, "link"),
                    if to.is_empty() { String::new() } else { format!("  → {}", to.join(", ")) }
                )?;
            }
        }
        _ => writeln!(out, "{r}")?,
    }
    // `grep` prints its counts above; the others say what was cut.
    // `sources` shows the lists' lengths, never cut here: only sources left out are news.
    let more = r.get("sources_more").and_then(Value::as_u64).unwrap_or(0);
    if more > 0 {
        let next = r.get("next_offset").and_then(Value::as_u64).unwrap_or(0);
        writeln!(out, "({}: the next page is --offset {next})", count(more as usize, "more source"))?;
    } else if r.get("truncated").and_then(Value::as_bool) == Some(true) && !matches!(name, "grep" | "sources")
    {
        writeln!(out, "(truncated: a result is capped at 8,000 characters; the rest was left out)")?;
    }
    Ok(())
}
