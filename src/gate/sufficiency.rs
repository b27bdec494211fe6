//! The sufficiency gate: inject only evidence that is strong and on topic.
//!
//! Two tests, both required (field report, PART 02): the top BM25 score reaches the instance's
//! threshold (stored in its index; calibrated per instance with `groundgate calibrate`), and the
//! hits *cover* at least a fraction (default ½) of the query's words — a word counts as covered
//! when any of its terms occurs in any of the top hits. Coverage is counted over words, not terms,
//! so a long Korean word split into four bigrams is one vote, as it is for the reader.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::text::Token;

/// The gate's inputs and verdict (part of the decision log).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sufficiency {
    /// Top BM25 score (rounded to 4 decimals).
    pub top_score: f64,
    /// Threshold it had to reach.
    pub threshold: f64,
    /// Fraction of query words covered by the hits.
    pub coverage: f64,
    /// Fraction required.
    pub min_coverage: f64,
    /// Both tests passed.
    pub passed: bool,
}

/// Fraction of the query's words (those that produced terms) with at least one term in `matched`.
pub fn coverage(query: &[Token], matched: &BTreeSet<&str>) -> f64 {
    let words: BTreeSet<u32> = query.iter().map(|t| t.word).collect();
    if words.is_empty() {
        return 0.0;
    }
    let covered: BTreeSet<u32> =
        query.iter().filter(|t| matched.contains(t.term.as_str())).map(|t| t.word).collect();
    covered.len() as f64 / words.len() as f64
}

/// Judge a search result.
pub fn judge(top_score: f64, threshold: f32, coverage: f64, min_coverage: f32) -> Sufficiency {
    let (threshold, min_coverage) = (threshold as f64, min_coverage as f64);
    Sufficiency {
        top_score,
        threshold,
        coverage: (coverage * 10_000.0).round() / 10_000.0,
        min_coverage,
        passed: top_score >= threshold && coverage + 1e-9 >= min_coverage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Analyzer;

    #[test]
    fn coverage_counts_words_not_bigrams() {
        let q = Analyzer::default().analyze("연구개발비 정산 python");
        let m: BTreeSet<&str> = ["연구", "구개"].into_iter().collect();
        assert!((coverage(&q, &m) - 1.0 / 3.0).abs() < 1e-9);
        let m: BTreeSet<&str> = ["정산", "python"].into_iter().collect();
        assert!((coverage(&q, &m) - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(coverage(&[], &m), 0.0);
    }

    #[test]
    fn both_tests_are_required() {
        assert!(judge(9.0, 8.0, 0.5, 0.5).passed);
        assert!(!judge(7.9, 8.0, 1.0, 0.5).passed);
        assert!(!judge(20.0, 8.0, 0.49, 0.5).passed);
    }
}
