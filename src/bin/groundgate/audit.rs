//! `groundgate audit` and `groundgate curve`: the anchor/relevance audit and the budget curve over
//! labelled prompts (field report, rule 5 and PART 03).

use std::io::Write;
use std::path::{Path, PathBuf};

use groundgate::Config;
use groundgate::eval::gold::holders;
use groundgate::eval::{audit, curve};

use crate::calibrate::{labels, load};
use crate::chart;

/// `groundgate audit`.
pub fn run_audit(
    indexes: &[PathBuf],
    label_files: &[PathBuf],
    write_anchors: Option<&PathBuf>,
    suggest: usize,
    svg: Option<&Path>,
) -> Result<(), Box<dyn std::error::Error>> {
    let loaded = load(indexes)?;
    let set = labels(label_files)?;
    let holder = holders(&loaded)?;
    let report =
        audit::audit(&loaded, &Config::default(), &set, |l| l.instance_in(|s| holder.get(s).cloned()))?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "| instance | prompts | relevant | sufficient | anchored |")?;
    writeln!(out, "|---|---:|---:|---:|---:|")?;
    let pct = |n: usize, d: usize| {
        if d == 0 { "–".to_string() } else { format!("{:.1}%", 100.0 * n as f64 / d as f64) }
    };
    for a in &report {
        writeln!(
            out,
            "| {} | {} | {} ({}) | {} ({}) | {} ({}) |",
            a.instance,
            a.prompts,
            a.relevant,
            pct(a.relevant, a.prompts),
            a.sufficient,
            pct(a.sufficient, a.prompts),
            a.anchored,
            pct(a.anchored, a.prompts)
        )?;
    }
    let mut toml = String::new();
    for a in &report {
        writeln!(out, "\n{}: {} filtered as not relevant", a.instance, a.filtered.len())?;
        for (id, p) in &a.filtered {
            let short: String = p.chars().take(80).collect();
            writeln!(out, "  {id}  {}", short.replace('\n', " "))?;
        }
        let words: Vec<String> =
            a.suggested.iter().take(suggest).map(|(w, n)| format!("{w} ({n})")).collect();
        writeln!(
            out,
            "  words that would have opened it: {}",
            if words.is_empty() { "–".into() } else { words.join(", ") }
        )?;
        let mut anchors = a.anchors.clone();
        anchors.extend(a.suggested.iter().take(suggest).map(|(w, _)| w.clone()));
        toml.push_str(&format!("# {}\nanchors = {}\n", a.instance, serde_json::to_string(&anchors)?));
    }
    if let Some(path) = write_anchors {
        std::fs::write(path, toml).map_err(|e| crate::files::io_error(path, &e))?;
        writeln!(
            out,
            "\nupdated anchor lists (manifest `anchors = [...]` lines) written to {}",
            path.display()
        )?;
    }
    let prompts: usize = report.iter().map(|a| a.prompts).sum();
    let note = format!(
        "{prompts} labelled prompts ({}); gate model as stored in the indexes",
        chart::names(label_files)
    );
    chart::write(&mut out, svg, || groundgate::eval::chart::audit(&report, &note))
}

/// `groundgate curve`.
pub fn run_curve(
    indexes: &[PathBuf],
    label_files: &[PathBuf],
    budgets: &[usize],
    tops: &[usize],
    svg: Option<&Path>,
) -> Result<(), Box<dyn std::error::Error>> {
    let loaded = load(indexes)?;
    let set = labels(label_files)?;
    let holder = holders(&loaded)?;
    let points = curve::curve(&loaded, &set, |l| l.instance_in(|s| holder.get(s).cloned()), budgets, tops)?;
    let mut out = std::io::stdout().lock();
    let n = points.first().map_or(0, |p| p.questions);
    writeln!(out, "{n} labelled questions with gold, each asked with its own instance forced\n")?;
    write!(out, "| budget |")?;
    for t in tops {
        write!(out, " top {t}: gold inside | top {t}: chars injected |")?;
    }
    writeln!(out, "\n|---:|{}", "---:|---:|".repeat(tops.len()))?;
    for b in budgets {
        write!(out, "| {b} |")?;
        for t in tops {
            if let Some(p) = points.iter().find(|p| p.budget == *b && p.top_k == *t) {
                write!(out, " {:.1}% | {:.0} |", 100.0 * p.rate(), p.mean_chars)?;
            }
        }
        writeln!(out)?;
    }
    for t in tops {
        if let Some(k) = curve::knee(&points, *t, 0.01) {
            writeln!(
                out,
                "\nknee (top {t}): {k} characters — the smallest budget within 1 point of the best"
            )?;
        }
    }
    let note = format!(
        "{n} labelled questions with gold ({}), each asked with its own instance forced",
        chart::names(label_files)
    );
    chart::write(&mut out, svg, || groundgate::eval::chart::curve(&points, 0.01, &note))
}
