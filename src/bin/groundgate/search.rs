//! `groundgate search`: the one-index JSON Lines contract `{"id","query"}` → `{"id","hits"}` (kept
//! byte for byte), and otherwise the `search` tool over one or more indexes (see tools.rs).

use std::path::Path;

use groundgate::{Index, protocol};

use crate::timings::Timings;

/// `search --index X --jsonl` without `--tool`: BM25 hits of one index, as before the tools.
pub fn legacy_jsonl(path: &Path, k: usize, timings: bool) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = crate::index_file::read(path)?;
    let index = Index::open(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut clock = Timings::default();
    protocol::serve(std::io::stdin().lock(), &mut out, |id, body| {
        Ok(clock.time(|| protocol::hits_reply(&index, id, &body, k)))
    })?;
    if timings {
        eprintln!("{}", clock.summary());
    }
    Ok(())
}
