//! What the gate knows about one (prompt, instance) pair: a short vector of named features computed
//! from the query's terms and the instance's top hits. The relevance and sufficiency judges
//! ([`model`](super::model)) are small logistic models over these features.
//!
//! Every feature is scaled so that it means the same on any index (a normalised score, a share of
//! the query's weight …), so one model fitted on a few labelled instances carries over to others.
//! A word's *weight* is the largest IDF among its terms in this instance; a word the instance does
//! not know weighs as a term found in no chunk (a foreign topic word: rust, kubernetes), except an
//! unknown Hangul word, which is more often an inflection the stripper missed and weighs like a
//! moderately common word (found in 1 chunk in 20).

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::search::bm25;
use crate::text::{Token, korean};

/// An unknown Hangul word weighs like a word found in 1/this of the chunks.
const UNKNOWN_HANGUL_DF_DIV: u32 = 20;

/// Names of the features, in vector order (the `ask` log and `calibrate --dump` use them).
pub const NAMES: [&str; COUNT] = [
    "norm_top",
    "coverage",
    "coverage_top1",
    "log_top",
    "margin",
    "same_source",
    "unknown_share",
    "anchor",
    "log_words",
    "agreement",
];

/// Number of features.
pub const COUNT: usize = 10;

/// The feature vector of one (prompt, instance) pair; in JSON an object keyed by [`NAMES`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Features(pub [f64; COUNT]);

impl Serialize for Features {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(COUNT))?;
        for (name, v) in NAMES.iter().zip(&self.0) {
            m.serialize_entry(name, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Features {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = std::collections::BTreeMap::<String, f64>::deserialize(d)?;
        let mut f = [0.0; COUNT];
        for (slot, name) in f.iter_mut().zip(NAMES) {
            *slot = *m.get(name).ok_or_else(|| D::Error::custom(format!("feature {name:?} missing")))?;
        }
        Ok(Features(f))
    }
}

/// One hit as the features see it: its score, its source and the query terms it contains.
#[derive(Debug, Clone)]
pub struct HitTerms<'a> {
    /// BM25 score.
    pub score: f64,
    /// Where the chunk stands ([`Index::chunk_key`](crate::Index::chunk_key)): hits with equal
    /// keys share their citation.
    pub location: [u32; 5],
    /// Query terms the chunk contains.
    pub terms: Vec<&'a str>,
}

/// The weight of every word of `query` (by word number) and whether the instance knows it.
/// `idf` returns a term's IDF in the instance, `None` when the instance does not know it.
fn word_weights(
    query: &[Token],
    n_chunks: u32,
    idf: &dyn Fn(&str) -> Option<f64>,
) -> Vec<Option<(f64, bool)>> {
    let unknown = bm25::idf(n_chunks, 0) as f64;
    let unknown_hangul = bm25::idf(n_chunks, (n_chunks / UNKNOWN_HANGUL_DF_DIV).max(1)) as f64;
    let n = query.iter().map(|t| t.word as usize + 1).max().unwrap_or(0);
    let mut words: Vec<Option<(f64, bool)>> = vec![None; n];
    for t in query {
        let (w, known) = match idf(&t.term) {
            Some(i) => (i, true),
            None if t.term.chars().all(korean::is_hangul_syllable) => (unknown_hangul, false),
            None => (unknown, false),
        };
        let e = words[t.word as usize].get_or_insert((0.0, false));
        e.0 = e.0.max(w);
        e.1 |= known;
    }
    words
}

/// Share of the query's word weight covered by `hits` (a word is covered when any of its terms is
/// in any of the hits).
fn covered(query: &[Token], weights: &[Option<(f64, bool)>], hits: &[&HitTerms<'_>]) -> f64 {
    let total: f64 = weights.iter().flatten().map(|(w, _)| w).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let mut hit_word = vec![false; weights.len()];
    for t in query {
        if hits.iter().any(|h| h.terms.contains(&t.term.as_str())) {
            hit_word[t.word as usize] = true;
        }
    }
    let got: f64 =
        weights.iter().zip(&hit_word).filter(|(_, h)| **h).filter_map(|(w, _)| *w).map(|(w, _)| w).sum();
    got / total
}

impl Features {
    /// Compute the features of a query (its analyzed tokens) against an instance's top hits (best
    /// first; the first `k` count).
    pub fn compute(
        query: &[Token],
        hits: &[HitTerms<'_>],
        n_chunks: u32,
        idf: &dyn Fn(&str) -> Option<f64>,
        anchor: bool,
    ) -> Features {
        let weights = word_weights(query, n_chunks, idf);
        let total: f64 = weights.iter().flatten().map(|(w, _)| w).sum();
        let unknown: f64 = weights.iter().flatten().filter(|(_, k)| !k).map(|(w, _)| w).sum();
        // The attainable maximum: every term of the query matched once in a chunk of average
        // length scores its IDF (BM25 at tf = 1, dl = avgdl); unknown terms count at their weight.
        let mut seen: Vec<&str> = Vec::new();
        let mut attainable = 0.0;
        for t in query {
            if seen.contains(&t.term.as_str()) {
                continue;
            }
            seen.push(&t.term);
            attainable += idf(&t.term)
                .unwrap_or_else(|| weights.get(t.word as usize).copied().flatten().map_or(0.0, |(w, _)| w));
        }
        let top = hits.first().map_or(0.0, |h| h.score);
        let last = hits.last().map_or(0.0, |h| h.score);
        let all: Vec<&HitTerms<'_>> = hits.iter().collect();
        let first: Vec<&HitTerms<'_>> = hits.iter().take(1).collect();
        // The share of the top hits from the top hit's source, and at its location (page, article,
        // heading): agreement.
        let share = |same: &dyn Fn(&HitTerms<'_>, &HitTerms<'_>) -> bool| match hits.first() {
            Some(h) => hits.iter().filter(|x| same(x, h)).count() as f64 / hits.len() as f64,
            None => 0.0,
        };
        let same = share(&|x, h| x.location[0] == h.location[0]);
        let agreement = share(&|x, h| x.location == h.location);
        let n_words = weights.iter().flatten().count();
        Features([
            if attainable > 0.0 { top / attainable } else { 0.0 },
            covered(query, &weights, &all),
            covered(query, &weights, &first),
            (1.0 + top).ln(),
            if top > 0.0 { (top - last) / top } else { 0.0 },
            same,
            if total > 0.0 { unknown / total } else { 1.0 },
            if anchor { 1.0 } else { 0.0 },
            (1.0 + n_words as f64).ln(),
            agreement,
        ])
    }

    /// The features rounded to 4 decimals (for logs: the same text everywhere).
    pub fn rounded(&self) -> Features {
        let mut f = *self;
        for v in &mut f.0 {
            *v = (*v * 10_000.0).round() / 10_000.0;
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Analyzer;

    #[test]
    fn weights_coverage_and_scale() {
        let q = Analyzer::default().analyze("연구수당 상한 kubernetes");
        let idf = |t: &str| match t {
            "연구" | "구수" | "수당" => Some(2.0),
            "상한" => Some(3.0),
            _ => None,
        };
        let hits = [
            HitTerms { score: 9.0, location: [0, 1, 0, 0, 0], terms: vec!["연구", "구수", "수당"] },
            HitTerms { score: 3.0, location: [0, 2, 0, 0, 0], terms: vec!["상한"] },
        ];
        let f = Features::compute(&q, &hits, 1000, &idf, true);
        let unknown = bm25::idf(1000, 0) as f64;
        let total = 2.0 + 3.0 + unknown;
        assert!((f.0[1] - 5.0 / total).abs() < 1e-9, "{f:?}");
        assert!((f.0[2] - 2.0 / total).abs() < 1e-9);
        assert!((f.0[6] - unknown / total).abs() < 1e-9);
        assert!((f.0[4] - 6.0 / 9.0).abs() < 1e-9);
        assert_eq!(f.0[5], 1.0);
        assert_eq!(f.0[9], 0.5);
        assert_eq!(f.0[7], 1.0);
        // Nothing found: zeros, the unknown share is all.
        let f = Features::compute(&q, &[], 1000, &|_| None, false);
        assert_eq!(f.0[0], 0.0);
        assert!((f.0[6] - 1.0).abs() < 1e-9);
    }
}
