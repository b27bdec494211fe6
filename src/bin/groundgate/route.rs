//! `groundgate route-eval` and `groundgate rules`.

use std::path::{Path, PathBuf};

use groundgate::eval::route::{Case, evaluate};
use serde_json::Value;

/// `groundgate route-eval --labels FILE… [--index …]`: the router's accuracy over labelled prompts.
pub fn eval(files: &[PathBuf], indexes: &[PathBuf], misses: usize) -> Result<(), Box<dyn std::error::Error>> {
    let mut cases = Vec::new();
    for labels in files {
        cases.extend(read_cases(labels)?);
    }
    let mut engine =
        if indexes.is_empty() { None } else { Some(crate::ask::engine(indexes, None, Some(0))?) };
    let report = evaluate(&cases, engine.as_mut())?;
    crate::out(format_args!("{}", report.render(misses)))?;
    Ok(())
}

/// The cases of one label file; a line without an `id` is named `FILE:N` after its file and line
/// (unique across several files).
fn read_cases(labels: &Path) -> Result<Vec<Case>, Box<dyn std::error::Error>> {
    let text = crate::files::read_text(labels)?;
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", labels.display(), n + 1))?;
        let get = |k: &str| v[k].as_str().map(str::to_string);
        let kind = get("kind").ok_or_else(|| format!("{}:{}: no \"kind\"", labels.display(), n + 1))?;
        if !["question", "sentence", "unrelated"].contains(&kind.as_str()) {
            return Err(format!(
                "{}:{}: kind {kind:?} is not question, sentence or unrelated",
                labels.display(),
                n + 1
            )
            .into());
        }
        cases.push(Case {
            id: get("id").unwrap_or_else(|| format!("{}:{}", labels.display(), n + 1)),
            prompt: get("prompt").ok_or_else(|| format!("{}:{}: no \"prompt\"", labels.display(), n + 1))?,
            kind,
            polite: v["polite"].as_bool().unwrap_or(false),
        });
    }
    Ok(cases)
}

pub fn rules(lang: &str) -> Result<(), Box<dyn std::error::Error>> {
    crate::out(format_args!("{}", groundgate::deliver::rules::rules(lang)?))?;
    Ok(())
}
