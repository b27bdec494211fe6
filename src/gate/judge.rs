//! The gate's record for one (prompt, instance) pair: the features it saw, what each judge said and
//! against which threshold, and the two rules above the judges — a prompt that names a country or
//! programming language the instance's documents never mention is not about them
//! ([`names`](super::names)), nor is one written in another language than the documents' readers
//! write ([`script`](super::script)). It is part of the decision log (`log.instances[].gate`), so every
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
    /// A name in the prompt that the documents never mention ([`names`](super::names)): then the
    /// prompt is not about this instance, whatever the judges say. Absent when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside_name: Option<String>,
    /// The prompt is written without Hangul and the documents' readers write Korean: then it is
    /// not about this instance, whatever the judges say ([`script`](super::script)). Absent when
    /// false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub other_language: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Judgement {
    /// Judge `features` with `model`; `outside_name` is a name in the prompt that the instance's
    /// documents never mention, if any; `other_language`: the prompt is not in the language the
    /// documents' readers write ([`script`](super::script)).
    pub fn new(
        model: &GateModel,
        top_score: f64,
        features: Features,
        outside_name: Option<String>,
        other_language: bool,
    ) -> Judgement {
        let features = features.rounded();
        let relevance = model.relevance.p(&features);
        let sufficiency = model.sufficiency.p(&features);
        // A threshold of 1 accepts nothing (even a p that rounds to 1).
        let yes = |p: f64, t: f64| t < 1.0 && p >= t;
        let relevant = outside_name.is_none() && !other_language && yes(relevance, model.relevance.threshold);
        Judgement {
            top_score,
            features,
            relevance,
            relevance_threshold: model.relevance.threshold,
            sufficiency,
            sufficiency_threshold: model.sufficiency.threshold,
            relevant,
            sufficient: relevant && yes(sufficiency, model.sufficiency.threshold),
            outside_name,
            other_language,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_the_documents_never_mention_overrules_the_judges() {
        let model = GateModel::default();
        let mut f = Features([1.0; super::super::features::COUNT]);
        f.0[16] = 0.0; // not a request to produce something
        let judged = Judgement::new(&model, 30.0, f, None, false);
        assert!(judged.relevant, "{judged:?}");
        let vetoed = Judgement::new(&model, 30.0, f, Some("프랑스".into()), false);
        assert!(!vetoed.relevant && !vetoed.sufficient);
        assert_eq!((vetoed.relevance, vetoed.sufficiency), (judged.relevance, judged.sufficiency));
        let json = serde_json::to_string(&vetoed).unwrap();
        assert!(json.ends_with(r#""outside_name":"프랑스"}"#), "{json}");
        assert!(!serde_json::to_string(&judged).unwrap().contains("outside_name"));
    }

    #[test]
    fn a_prompt_in_another_language_than_the_readers_overrules_the_judges() {
        let model = GateModel::default();
        let mut f = Features([1.0; super::super::features::COUNT]);
        f.0[16] = 0.0;
        let judged = Judgement::new(&model, 30.0, f, None, false);
        let vetoed = Judgement::new(&model, 30.0, f, None, true);
        assert!(judged.relevant && judged.sufficient, "{judged:?}");
        assert!(!vetoed.relevant && !vetoed.sufficient);
        assert_eq!((vetoed.relevance, vetoed.sufficiency), (judged.relevance, judged.sufficiency));
        let json = serde_json::to_string(&vetoed).unwrap();
        assert!(json.ends_with(r#""other_language":true}"#), "{json}");
        assert!(!serde_json::to_string(&judged).unwrap().contains("other_language"));
        let back: Judgement = serde_json::from_str(&json).unwrap();
        assert_eq!(back, vetoed);
    }
}
