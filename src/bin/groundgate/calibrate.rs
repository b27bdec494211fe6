//! `groundgate calibrate`: fit the gate's relevance and sufficiency judges from labelled prompts,
//! print the trade-off and the k-fold (held-out) figures, and optionally store the model in the
//! index files.

use std::io::Write;
use std::path::PathBuf;

use groundgate::eval::calibrate::{self, Figures, FitParams, Row};
use groundgate::eval::gold::parse_labels;
use groundgate::gate::features::NAMES;
use groundgate::{Config, Index};
use serde_json::json;

/// Options of `groundgate calibrate`.
pub struct Args {
    pub indexes: Vec<PathBuf>,
    pub labels: Vec<PathBuf>,
    pub folds: usize,
    pub params: FitParams,
    pub write: bool,
    pub dump: Option<PathBuf>,
    pub test: Vec<PathBuf>,
    pub svg: Option<PathBuf>,
    pub fit_phrasing: Option<PathBuf>,
}

/// Index files loaded as (instance name, bytes).
pub type Loaded = Vec<(String, Vec<u8>)>;

/// Load index files as (instance name, bytes).
pub fn load(indexes: &[PathBuf]) -> Result<Loaded, Box<dyn std::error::Error>> {
    let mut loaded = Vec::new();
    for p in indexes {
        let bytes = crate::index_file::read(p)?;
        let name = Index::open(&bytes[..]).map_err(|e| format!("{}: {e}", p.display()))?.meta().name.clone();
        loaded.push((name, bytes));
    }
    Ok(loaded)
}

/// Read and parse label files.
pub fn labels(paths: &[PathBuf]) -> Result<Vec<groundgate::eval::gold::Label>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    for p in paths {
        let text = crate::files::read_text(p)?;
        out.extend(parse_labels(&p.display().to_string(), &text)?);
    }
    Ok(out)
}

/// The options' own ranges, before any work: a non-finite or huge penalty makes the fit never
/// settle, more folds than prompts fit empty folds.
fn check(a: &Args, prompts: usize) -> Result<(), Box<dyn std::error::Error>> {
    let FitParams { l2, relevance_precision, sufficiency_precision } = a.params;
    if !(0.0..=1000.0).contains(&l2) {
        return Err(format!("--l2 {l2}: must be a number from 0 to 1000 (default 0.05)").into());
    }
    for (flag, p) in
        [("--relevance-precision", relevance_precision), ("--sufficiency-precision", sufficiency_precision)]
    {
        if !(p > 0.0 && p < 1.0) {
            return Err(format!("{flag} {p}: must be a probability between 0 and 1").into());
        }
    }
    if a.folds < 2 || a.folds > prompts.max(2) {
        return Err(
            format!("--folds {}: must be 2 to the number of labelled prompts ({prompts})", a.folds).into()
        );
    }
    Ok(())
}

pub fn run(a: Args) -> Result<(), Box<dyn std::error::Error>> {
    let loaded = load(&a.indexes)?;
    let set = labels(&a.labels)?;
    check(&a, set.len())?;
    if a.write && a.fit_phrasing.is_some() {
        return Err("--write with --fit-phrasing: the stored model would be fitted against a phrasing table \
                    the library does not use (it bundles data/gate/phrasing.tsv); calibrate --write without it"
            .into());
    }
    let mut rows = calibrate::collect(&loaded, &Config::default(), &set)?;
    let topic = match &a.fit_phrasing {
        Some(_) => Some(calibrate::topic_grams(&loaded, &rows)?),
        None => None,
    };
    let phrasing = match (&a.fit_phrasing, &topic) {
        (Some(path), Some(topic)) => {
            let table = calibrate::phrasing_out_of_fold(&mut rows, a.folds, topic);
            let files: Vec<String> = a.labels.iter().map(|p| p.display().to_string()).collect();
            let names: Vec<&str> = loaded.iter().map(|(n, _)| n.as_str()).collect();
            let comment = format!(
                "The gate's phrasing table (src/gate/phrasing.rs): naive-Bayes log-odds ×{} of character\n\
                 2-/3-grams, prompts about documents over unrelated ones, without the grams held by\n\
                 ≥ {}% of the chunks of an instance ({}). Written by\n\
                 `groundgate calibrate --fit-phrasing` from {} labelled prompts:\n{}",
                groundgate::gate::phrasing::SCALE,
                groundgate::gate::phrasing::TOPIC_SHARE * 100.0,
                names.join(", "),
                set.len(),
                files.join("\n")
            );
            std::fs::write(path, table.to_tsv(&comment)).map_err(|e| crate::files::io_error(path, &e))?;
            Some(table)
        }
        _ => None,
    };
    let all: Vec<&Row> = rows.iter().collect();
    let model = calibrate::fit(&all, a.params);
    let mut out = std::io::stdout().lock();
    let count = |k| set.iter().filter(|l| l.kind == k).count();
    use groundgate::eval::gold::LabelKind::*;
    writeln!(
        out,
        "{} labelled prompts ({} questions, {} sentences, {} unrelated) over {}\n",
        set.len(),
        count(Question),
        count(Sentence),
        count(Unrelated),
        loaded.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
    )?;
    match (&a.fit_phrasing, &phrasing) {
        (Some(path), Some(t)) => writeln!(
            out,
            "phrasing table: fitted on these labels ({} grams; out of fold for every figure and fit), written to {}\n",
            t.len(),
            path.display()
        )?,
        _ => writeln!(
            out,
            "phrasing table: the bundled one (data/gate/phrasing.tsv, fitted on the project's labelled prompts: \
             if these labels are among them, pass --fit-phrasing FILE for honest fold figures)\n"
        )?,
    }
    writeln!(
        out,
        "model fitted on all of them (relevance precision ≥ {}, sufficiency precision ≥ {}):\n",
        a.params.relevance_precision, a.params.sufficiency_precision
    )?;
    writeln!(out, "| judge | bias | {} | threshold |", NAMES.join(" | "))?;
    writeln!(out, "|---|---:|{}---:|", "---:|".repeat(NAMES.len()))?;
    for (name, j) in [("relevance", model.relevance), ("sufficiency", model.sufficiency)] {
        let w: Vec<String> = j.weights.iter().map(|w| format!("{w:.3}")).collect();
        writeln!(out, "| {name} | {:.3} | {} | {:.4} |", j.bias, w.join(" | "), j.threshold)?;
    }
    writeln!(out, "\nmodel (JSON): {}", serde_json::to_string(&model)?)?;
    let (rel, suf) = calibrate::scored_rows(&all, &model);
    writeln!(out, "\nsufficiency trade-off (questions whose right instance is judged relevant):\n")?;
    writeln!(out, "| threshold | pushed | gold inside | precision | recall |")?;
    writeln!(out, "|---:|---:|---:|---:|---:|")?;
    let ts: Vec<f64> = (1..=19).map(|i| i as f64 * 0.05).chain([model.sufficiency.threshold]).collect();
    let mut table = calibrate::tradeoff(&suf, &ts);
    table.sort_by(|x, y| x.0.total_cmp(&y.0));
    for (t, acc, tp, pos) in table {
        let mark = if t == model.sufficiency.threshold { " ←" } else { "" };
        writeln!(
            out,
            "| {t:.4}{mark} | {acc} | {tp} | {} | {} |",
            if acc == 0 { "–".into() } else { format!("{:.1}%", 100.0 * tp as f64 / acc as f64) },
            if pos == 0 { "–".into() } else { format!("{:.1}%", 100.0 * tp as f64 / pos as f64) }
        )?;
    }
    let fitted = calibrate::simulate(&all, &model);
    let held = calibrate::cross_validate(&rows, a.folds, a.params, topic.as_ref());
    let mut columns = vec![("held-out folds", held), ("fitted on all (optimistic)", fitted)];
    let mut test_rows = if a.test.is_empty() {
        Vec::new()
    } else {
        calibrate::collect(&loaded, &Config::default(), &labels(&a.test)?)?
    };
    if let Some(table) = &phrasing {
        calibrate::set_phrasing(&mut test_rows, table);
    }
    let test: Vec<&Row> = test_rows.iter().collect();
    if !a.test.is_empty() {
        columns.insert(0, ("test set (--test, never fitted on)", calibrate::simulate(&test, &model)));
    }
    writeln!(
        out,
        "\nfigures ({}-fold: each fold judged by a model fitted on the others; fitted on all):\n",
        a.folds
    )?;
    write!(out, "{}", Figures::table(&columns))?;
    if let Some(path) = &a.dump {
        let file = std::fs::File::create(path).map_err(|e| crate::files::io_error(path, &e))?;
        let mut f = std::io::BufWriter::new(file);
        let sets = rows.iter().map(|r| ("fit", r)).chain(test_rows.iter().map(|r| ("test", r)));
        for (set, r) in sets {
            let per: Vec<serde_json::Value> = r
                .features
                .iter()
                .zip(&loaded)
                .map(|(x, (n, _))| json!({"instance": n, "features": x}))
                .collect();
            writeln!(
                f,
                "{}",
                json!({"set": set, "id": r.label.id, "prompt": r.label.prompt, "kind": r.label.kind.as_str(),
                       "instance": r.instance.map(|i| loaded[i].0.clone()), "form": r.form,
                       "polite": r.label.polite, "gold_in_top": r.gold_in_top, "gold_in_offered": r.gold_in_offered,
                       "gold_injected": r.gold_injected, "injected_chars": r.injected_chars,
                       "instances": per})
            )?;
        }
        f.flush().map_err(|e| crate::files::io_error(path, &e))?; // a full disk is an error, not a short file
        writeln!(out, "\nrows written to {}", path.display())?;
    }
    let (test_rel, test_suf) = calibrate::scored_rows(&test, &model);
    crate::chart::write(&mut out, a.svg.as_deref(), || {
        use groundgate::eval::chart::{Judge, tradeoff};
        let (r, s) = (model.relevance.threshold, model.sufficiency.threshold);
        let mut judges = vec![
            Judge { name: "relevance, training prompts", scored: &rel, threshold: r },
            Judge { name: "sufficiency, training prompts", scored: &suf, threshold: s },
        ];
        let mut note = format!(
            "relevance: a row per (prompt, instance); sufficiency: a row per question whose instance is \
             judged relevant; the model is fitted on {} training prompts ({})",
            set.len(),
            crate::chart::names(&a.labels)
        );
        if !test.is_empty() {
            judges.push(Judge { name: "relevance, test set", scored: &test_rel, threshold: r });
            judges.push(Judge { name: "sufficiency, test set", scored: &test_suf, threshold: s });
            note.push_str(&format!(
                "; test set: {} prompts never fitted on ({})",
                test.len(),
                crate::chart::names(&a.test)
            ));
        }
        tradeoff(&judges, &note)
    })?;
    if a.write {
        for path in &a.indexes {
            let bytes = crate::index_file::read(path)?;
            let updated = groundgate::index::with_gate_model(&bytes, &model)?;
            std::fs::write(path, updated).map_err(|e| crate::files::io_error(path, &e))?;
            writeln!(out, "wrote the gate model into {}", path.display())?;
        }
    } else {
        writeln!(
            out,
            "\n(--write stores the model in the index files; without it they keep theirs or the default)"
        )?;
    }
    Ok(())
}
