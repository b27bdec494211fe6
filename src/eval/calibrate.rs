//! Threshold calibration: pick an instance's sufficiency threshold from labelled prompts.
//!
//! BM25 scores depend on the corpus and the analyzer, so the field report's 8.0 does not carry over.
//! Given prompts labelled with the instance that should answer them (or none), [`calibrate`] runs
//! the anchor gate, the search and the coverage test for every prompt, then chooses the lowest
//! threshold at which at most `max_fp` of the negatives (prompts this instance should not answer)
//! would still get evidence. It reports the positives' pass rate at that threshold and the whole
//! curve, so the choice can be checked.

use serde::Serialize;

use crate::deliver::Outcome;
use crate::engine::{AskOptions, Config, Engine, InstanceOptions};
use crate::error::Result;

/// (instance, its top score when the anchor and coverage tests pass).
type Passing = (String, Option<f64>);

/// One labelled prompt.
#[derive(Debug, Clone)]
pub struct Labelled {
    /// The prompt.
    pub prompt: String,
    /// The instance that should answer it, if any.
    pub instance: Option<String>,
}

/// One point of the curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    /// Threshold.
    pub threshold: f64,
    /// Positives that would get evidence.
    pub positives: usize,
    /// Negatives that would get evidence.
    pub negatives: usize,
}

/// The calibration of one instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// Instance.
    pub instance: String,
    /// Chosen threshold.
    pub threshold: f64,
    /// Positive prompts.
    pub positives: usize,
    /// Negative prompts.
    pub negatives: usize,
    /// Positives that get evidence at the threshold.
    pub positives_passing: usize,
    /// Negatives that get evidence at the threshold.
    pub negatives_passing: usize,
    /// The curve over every distinct candidate threshold.
    pub curve: Vec<Point>,
}

/// Calibrate every instance of `engine` (whose own thresholds are ignored) on `labels`.
pub fn calibrate(
    engine_bytes: &[(String, Vec<u8>)],
    config: &Config,
    labels: &[Labelled],
    max_fp: f64,
) -> Result<Vec<Calibration>> {
    let mut engine = Engine::new(config.clone())?;
    for (name, bytes) in engine_bytes {
        engine.add_instance(
            name,
            bytes.clone(),
            InstanceOptions { sufficiency: Some(f32::MIN), anchors: Vec::new() },
        )?;
    }
    // For each prompt and instance: the top score when anchors and coverage pass, else None.
    let mut rows: Vec<(Option<String>, Vec<Passing>)> = Vec::new();
    for l in labels {
        let a = engine.ask(&l.prompt, &AskOptions::default())?;
        let per = a
            .log
            .instances
            .iter()
            .map(|i| {
                let pass = i
                    .sufficiency
                    .as_ref()
                    .filter(|s| i.outcome != Outcome::NoAnchor && s.coverage + 1e-9 >= s.min_coverage);
                (i.instance.clone(), pass.map(|s| s.top_score))
            })
            .collect();
        rows.push((l.instance.clone(), per));
    }
    let mut out = Vec::new();
    for (name, _) in engine_bytes {
        let mut pos: Vec<Option<f64>> = Vec::new();
        let mut neg: Vec<Option<f64>> = Vec::new();
        for (label, per) in &rows {
            let score = per.iter().find(|(n, _)| n == name).and_then(|(_, s)| *s);
            if label.as_deref() == Some(name.as_str()) { pos.push(score) } else { neg.push(score) }
        }
        let mut cands: Vec<f64> = pos.iter().chain(&neg).flatten().copied().collect();
        cands.push(0.0);
        cands.sort_by(f64::total_cmp);
        cands.dedup();
        let count = |v: &[Option<f64>], t: f64| v.iter().filter(|s| s.is_some_and(|s| s >= t)).count();
        let curve: Vec<Point> = cands
            .iter()
            .map(|&t| Point { threshold: t, positives: count(&pos, t), negatives: count(&neg, t) })
            .collect();
        let allowed = (max_fp * neg.len() as f64).floor() as usize;
        // The lowest threshold meeting the false-positive budget keeps the most positives; then move
        // up to the middle of the range that keeps exactly those positives (a margin on both sides).
        let low = curve.iter().find(|p| p.negatives <= allowed).copied();
        let chosen = match low {
            Some(low) => {
                let high = curve
                    .iter()
                    .rev()
                    .find(|p| p.positives == low.positives)
                    .map_or(low.threshold, |p| p.threshold);
                let t = ((low.threshold + high) / 2.0 * 100.0).round() / 100.0;
                Point { threshold: t, positives: count(&pos, t), negatives: count(&neg, t) }
            }
            None => {
                Point { threshold: cands.last().copied().unwrap_or(0.0) + 0.01, positives: 0, negatives: 0 }
            }
        };
        out.push(Calibration {
            instance: name.clone(),
            threshold: chosen.threshold,
            positives: pos.len(),
            negatives: neg.len(),
            positives_passing: chosen.positives,
            negatives_passing: chosen.negatives,
            curve,
        });
    }
    Ok(out)
}
