//! `groundgate calibrate`: choose each instance's sufficiency threshold from labelled prompts.

use std::io::Write;
use std::path::PathBuf;

use groundgate::eval::calibrate::{Labelled, calibrate};
use groundgate::{Config, Index};
use serde_json::Value;

pub fn run(
    indexes: &[PathBuf],
    labels: &PathBuf,
    max_fp: f64,
    write: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut loaded = Vec::new();
    for p in indexes {
        let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let name = Index::open(&bytes[..]).map_err(|e| format!("{}: {e}", p.display()))?.meta().name.clone();
        loaded.push((name, bytes));
    }
    let text = std::fs::read_to_string(labels).map_err(|e| format!("{}: {e}", labels.display()))?;
    let mut set = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", labels.display(), n + 1))?;
        let prompt =
            v["prompt"].as_str().ok_or_else(|| format!("{}:{}: no \"prompt\"", labels.display(), n + 1))?;
        set.push(Labelled {
            prompt: prompt.to_string(),
            instance: v["instance"].as_str().map(str::to_string),
        });
    }
    let result = calibrate(&loaded, &Config::default(), &set, max_fp)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} labelled prompts; at most {:.1}% of each instance's negatives may pass\n",
        set.len(),
        max_fp * 100.0
    )?;
    writeln!(out, "| instance | threshold | positives passing | negatives passing |")?;
    writeln!(out, "|---|---:|---:|---:|")?;
    for c in &result {
        writeln!(
            out,
            "| {} | {:.4} | {}/{} | {}/{} |",
            c.instance, c.threshold, c.positives_passing, c.positives, c.negatives_passing, c.negatives
        )?;
    }
    if write {
        for (c, path) in result.iter().zip(indexes) {
            let bytes = std::fs::read(path)?;
            let updated = groundgate::index::with_sufficiency(&bytes, c.threshold as f32)?;
            std::fs::write(path, updated)?;
            writeln!(out, "wrote threshold {:.4} into {}", c.threshold, path.display())?;
        }
    } else {
        writeln!(
            out,
            "\n(--write stores the thresholds in the index files; or put `sufficiency = …` in the manifests)"
        )?;
    }
    Ok(())
}
