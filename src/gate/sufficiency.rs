//! The sufficiency gate: inject only evidence that is strong and on topic.
//!
//! Two tests, both required (field report, PART 02): the top BM25 score reaches the instance's
//! threshold (stored in its index; calibrated per instance with `groundgate calibrate`), and the
//! hits *cover* at least a fraction (default ½) of the query's words — a word counts as covered
//! when any of its terms occurs in any of the top hits. Coverage is counted over words, not terms,
//! so a long Korean word split into four bigrams is one vote, as it is for the reader; and each
//! word's vote is weighted by its IDF in the instance, so that an off-topic prompt sharing only
//! common words (error, file, 사용) with a large corpus does not look covered.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::text::Token;

/// The gate's inputs and verdict (part of the decision log).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// Share of the query's words (those that produced terms) that have at least one term in
/// `matched`, each word weighted by `weight` of its most informative term (IDF: a word the corpus
/// does not know weighs most, so an off-topic prompt that shares only common words with the corpus
/// covers little). With a constant weight this is the plain fraction of words covered.
pub fn coverage(query: &[Token], matched: &HashSet<&str>, weight: impl Fn(&str) -> f64) -> f64 {
    // Indexed by word number, so the sums run in word order (deterministic bits).
    let n = query.iter().map(|t| t.word as usize + 1).max().unwrap_or(0);
    let mut words: Vec<Option<(f64, bool)>> = vec![None; n];
    for t in query {
        let w = weight(&t.term);
        let e = words[t.word as usize].get_or_insert((0.0, false));
        e.0 = e.0.max(w);
        e.1 |= matched.contains(t.term.as_str());
    }
    let total: f64 = words.iter().flatten().map(|(w, _)| w).sum();
    if total <= 0.0 {
        return 0.0;
    }
    words.iter().flatten().filter(|(_, c)| *c).map(|(w, _)| w).sum::<f64>() / total
}

/// Judge a search result.
pub fn judge(top_score: f64, threshold: f32, coverage: f64, min_coverage: f32) -> Sufficiency {
    let round = |x: f32| (x as f64 * 10_000.0).round() / 10_000.0;
    let (threshold, min_coverage) = (round(threshold), round(min_coverage));
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
        let m: HashSet<&str> = ["연구", "구개"].into_iter().collect();
        assert!((coverage(&q, &m, |_| 1.0) - 1.0 / 3.0).abs() < 1e-9);
        let m: HashSet<&str> = ["정산", "python"].into_iter().collect();
        assert!((coverage(&q, &m, |_| 1.0) - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(coverage(&[], &m, |_| 1.0), 0.0);
        // Weighted: covering only the common word counts for little.
        let w = |t: &str| if t == "python" { 9.0 } else { 1.0 };
        let m: HashSet<&str> = ["정산"].into_iter().collect();
        assert!((coverage(&q, &m, w) - 1.0 / 11.0).abs() < 1e-9);
    }

    #[test]
    fn both_tests_are_required() {
        assert!(judge(9.0, 8.0, 0.5, 0.5).passed);
        assert!(!judge(7.9, 8.0, 1.0, 0.5).passed);
        assert!(!judge(20.0, 8.0, 0.49, 0.5).passed);
    }
}
