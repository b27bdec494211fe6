//! `--svg FILE` of audit, curve, calibrate and stats: write the chart `groundgate::eval::chart`
//! drew, and the short file names its note cites (the file and its folder, never the whole path),
//! so the same inputs give the same bytes on every machine.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The files as `folder/name` (the last two parts of each path), comma-separated.
pub fn names(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths
        .iter()
        .map(|p| {
            let parts: Vec<String> = p
                .components()
                .filter(|c| matches!(c, std::path::Component::Normal(_)))
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            parts[parts.len().saturating_sub(2)..].join("/")
        })
        .collect();
    names.join(", ")
}

/// Write `svg` to `path` (when asked) and say so on `out`.
pub fn write(
    out: &mut impl Write,
    path: Option<&Path>,
    svg: impl FnOnce() -> groundgate::Result<String>,
) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(path) = path {
        std::fs::write(path, svg()?).map_err(|e| crate::files::io_error(path, &e))?;
        writeln!(out, "\nchart written to {}", path.display())?;
    }
    Ok(())
}
