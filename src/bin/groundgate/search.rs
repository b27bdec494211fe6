//! `groundgate search`: BM25 top-k with citations, as JSON Lines or a readable table.

use std::io::{BufRead, Write};
use std::path::Path;

use groundgate::search::{self, Hit};
use groundgate::{Error, ErrorReport, Index};
use serde::Serialize;
use serde_json::Value;

use crate::timings::Timings;

/// One output line; fields in contract order.
#[derive(Serialize)]
#[serde(untagged)]
enum Reply {
    Hits { id: Value, hits: Vec<Hit> },
    Error { id: Value, error: ErrorReport },
}

impl Reply {
    fn error(id: Value, e: &Error) -> Reply {
        Reply::Error { id, error: e.report() }
    }
}

pub fn run(
    path: &Path,
    k: usize,
    jsonl: bool,
    timings: bool,
    words: &[String],
) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    let index = Index::open(&bytes[..])?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if jsonl {
        let mut clock = Timings::default();
        for (n, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let reply = match serde_json::from_str::<Value>(&line) {
                Ok(v) => {
                    let id = v.get("id").cloned().unwrap_or(Value::Null);
                    match v.get("query").and_then(Value::as_str) {
                        Some(q) => match clock.time(|| search::search(&index, q, k)) {
                            Ok(hits) => Reply::Hits { id, hits },
                            Err(e) => Reply::error(id, &e),
                        },
                        None => {
                            Reply::error(id, &Error::invalid("query", "each line needs a string \"query\""))
                        }
                    }
                }
                Err(e) => Reply::error(
                    Value::Null,
                    &Error::invalid("line", format!("line {} is not JSON: {e}", n + 1)),
                ),
            };
            writeln!(out, "{}", serde_json::to_string(&reply)?)?;
        }
        if timings {
            eprintln!("{}", clock.summary());
        }
        return Ok(());
    }
    let queries: Vec<String> = if words.is_empty() {
        std::io::stdin().lock().lines().collect::<Result<_, _>>()?
    } else {
        vec![words.join(" ")]
    };
    for q in queries.iter().filter(|q| !q.trim().is_empty()) {
        writeln!(out, "query: {q}")?;
        let hits = search::search(&index, q, k)?;
        if hits.is_empty() {
            writeln!(out, "  (no hits)")?;
        }
        for h in &hits {
            writeln!(out, "{:>3}. {:>7.3}  {}  {}", h.rank, h.score, h.cite.source, location(h))?;
            let snippet: String = h.text.replace('\n', " ").chars().take(110).collect();
            writeln!(out, "     {snippet}")?;
        }
    }
    Ok(())
}

fn location(h: &Hit) -> String {
    let mut parts = Vec::new();
    if let Some(p) = h.cite.page {
        parts.push(format!("p.{p}"));
    }
    if let Some(a) = &h.cite.article {
        parts.push(a.clone());
    }
    if let Some(s) = &h.cite.section {
        parts.push(format!("§{s}"));
    }
    if let Some(x) = &h.cite.heading {
        parts.push(format!("“{x}”"));
    }
    if let Some(d) = &h.cite.date {
        parts.push(format!("[{d}]"));
    }
    parts.join(" ")
}
