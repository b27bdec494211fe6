//! The budget curve (field report, PART 03): for labelled questions, the share whose gold location
//! is inside the injected text at each character budget, for the top 4 and the top 8, with the
//! characters actually injected — and the knee: the smallest budget that keeps (nearly) all of the
//! largest budget's gold.
//!
//! Each question is asked with its own instance forced (`#name`), so the curve measures the budget
//! alone, not the judges.

use serde::Serialize;

use super::gold::{Label, LabelKind};
use crate::engine::{AskOptions, Config, Engine, InstanceOptions};
use crate::error::{Error, Result};

/// One point of the curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    /// Characters per instance.
    pub budget: usize,
    /// Hits considered.
    pub top_k: usize,
    /// Questions measured.
    pub questions: usize,
    /// … whose gold is inside the injected text.
    pub gold_inside: usize,
    /// Mean characters injected.
    pub mean_chars: f64,
}

impl Point {
    /// Share of questions with the gold inside.
    pub fn rate(&self) -> f64 {
        if self.questions == 0 { 0.0 } else { self.gold_inside as f64 / self.questions as f64 }
    }
}

/// The curve over `budgets` × `tops` for the labelled questions with gold (their instance found
/// by `instance_of`, e.g. the instance holding the first gold source).
pub fn curve(
    instances: &[(String, Vec<u8>)],
    labels: &[Label],
    instance_of: impl Fn(&Label) -> Option<String>,
    budgets: &[usize],
    tops: &[usize],
) -> Result<Vec<Point>> {
    let questions = labels
        .iter()
        .filter(|l| l.kind == LabelKind::Question && !l.gold.is_empty())
        .map(|l| Ok((l, super::gold::reached(l, &instance_of, instances)?)))
        .collect::<Result<Vec<(&Label, String)>>>()?;
    if questions.is_empty() {
        return Err(Error::invalid(
            "labels",
            "no question with gold to measure (kind \"question\", a \"gold\" list)",
        ));
    }
    let mut out = Vec::new();
    // The first engine checks every checksum; the others take the same bytes as they are.
    let mut verify = true;
    for &top_k in tops {
        for &budget in budgets {
            if budget == 0 {
                return Err(Error::invalid("budgets", "a budget must be at least 1 character"));
            }
            let too_large = |what| Error::invalid(what, "at most 4,294,967,295");
            let chars = u32::try_from(budget).map_err(|_| too_large("budgets"))?;
            let k = u32::try_from(top_k).map_err(|_| too_large("tops"))?;
            let config = Config {
                instance_budget: chars,
                total_budget: chars,
                top_k: k,
                evidence_k: k,
                ..Config::default()
            };
            let mut engine = Engine::new(config)?;
            for (name, bytes) in instances {
                engine.add_instance(
                    name,
                    bytes.clone(),
                    InstanceOptions { verify, ..InstanceOptions::default() },
                )?;
            }
            verify = false;
            let (mut gold, mut chars) = (0usize, 0usize);
            for (l, inst) in &questions {
                let a = engine.ask(&format!("#{inst} {}", l.prompt), &AskOptions::default())?;
                gold += l.hit(a.evidence.iter().map(|e| &e.cite)) as usize;
                chars += a.log.injected_chars;
            }
            let n = questions.len();
            out.push(Point {
                budget,
                top_k,
                questions: n,
                gold_inside: gold,
                mean_chars: if n == 0 { 0.0 } else { chars as f64 / n as f64 },
            });
        }
    }
    Ok(out)
}

/// The knee of one top-k series: the smallest budget whose gold rate is within `slack` (e.g.
/// 0.01) of the series' best.
pub fn knee(points: &[Point], top_k: usize, slack: f64) -> Option<usize> {
    let series: Vec<&Point> = points.iter().filter(|p| p.top_k == top_k).collect();
    let best = series.iter().map(|p| p.rate()).fold(0.0f64, f64::max);
    let mut ok: Vec<&&Point> = series.iter().filter(|p| p.rate() + slack >= best).collect();
    ok.sort_by_key(|p| p.budget);
    ok.first().map(|p| p.budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(budget: usize, gold: usize) -> Point {
        Point { budget, top_k: 4, questions: 100, gold_inside: gold, mean_chars: 0.0 }
    }

    #[test]
    fn the_knee_is_the_smallest_budget_near_the_best() {
        let pts = [p(300, 12), p(600, 82), p(1200, 92), p(1800, 96), p(3600, 96)];
        assert_eq!(knee(&pts, 4, 0.005), Some(1800));
        assert_eq!(knee(&pts, 4, 0.05), Some(1200));
        assert_eq!(knee(&pts, 8, 0.01), None);
    }
}
