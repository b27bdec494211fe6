//! The gate's record for one (prompt, instance) pair: the features it saw, what each judge said and
//! against which threshold. It is part of the decision log (`log.instances[].gate`), so every
//! decision can be replayed and audited.

use serde::{Deserialize, Serialize};

use super::features::Features;
use super::model::GateModel;

/// Both judges' verdicts on one instance's evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// Top BM25 score (rounded to 4 decimals).
    pub top_score: f64,
    /// The features, by name (rounded to 4 decimals).
    pub features: Features,
    /// Probability that the prompt is about this instance's documents.
    pub relevance: f64,
    /// Threshold for relevance.
    pub relevance_threshold: f64,
    /// Probability that the evidence is good enough to push.
    pub sufficiency: f64,
    /// Threshold for sufficiency.
    pub sufficiency_threshold: f64,
    /// The relevance judge said yes.
    pub relevant: bool,
    /// Both judges said yes: the evidence may be pushed (questions only).
    pub sufficient: bool,
}

impl Judgement {
    /// Judge `features` with `model`.
    pub fn new(model: &GateModel, top_score: f64, features: Features) -> Judgement {
        let features = features.rounded();
        let relevance = model.relevance.p(&features);
        let sufficiency = model.sufficiency.p(&features);
        // A threshold of 1 accepts nothing (even a p that rounds to 1).
        let yes = |p: f64, t: f64| t < 1.0 && p >= t;
        let relevant = yes(relevance, model.relevance.threshold);
        Judgement {
            top_score,
            features,
            relevance,
            relevance_threshold: model.relevance.threshold,
            sufficiency,
            sufficiency_threshold: model.sufficiency.threshold,
            relevant,
            sufficient: relevant && yes(sufficiency, model.sufficiency.threshold),
        }
    }
}
