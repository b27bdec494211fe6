//! `groundgate search`: the one-index JSON Lines contract `{"id","query"}` → `{"id","hits"}` (kept
//! byte for byte), and otherwise the `search` tool over one or more indexes (see tools.rs).

use std::path::PathBuf;

use groundgate::search::{self, Hit};
use groundgate::{Index, protocol};
use serde::Serialize;
use serde_json::Value;

use crate::timings::Timings;

/// One historic output line; fields in contract order.
#[derive(Serialize)]
struct Reply<'a> {
    id: &'a Value,
    hits: Vec<Hit>,
}

/// `search --index X --jsonl` without `--tool`: BM25 hits of one index, as before the tools.
pub fn legacy_jsonl(path: &PathBuf, k: usize, timings: bool) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let index = Index::open(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut clock = Timings::default();
    protocol::serve(std::io::stdin().lock(), &mut out, |id, body| {
        let r = protocol::field(&body, "query").and_then(|q| clock.time(|| search::search(&index, q, k)));
        Ok(match r {
            Ok(hits) => serde_json::to_string(&Reply { id, hits }).map_err(std::io::Error::other)?,
            Err(e) => protocol::error_reply(id, &e),
        })
    })?;
    if timings {
        eprintln!("{}", clock.summary());
    }
    Ok(())
}
