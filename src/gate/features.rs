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
    "specificity",
    "specificity_max",
];

/// Number of features.
pub const COUNT: usize = 12;

/// What the gate needs to know of one term of an instance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TermFacts {
    /// Its IDF in the instance.
    pub idf: f64,
    /// Chunks that contain it.
    pub df: u32,
    /// How common it is in general text ([`background`](super::background) level; `None` when the
    /// index has no background section).
    pub level: Option<u8>,
}

/// Zipf frequency assumed for a word when the index stores no background (a typical word).
const NO_BACKGROUND_ZIPF: f64 = 4.0;
/// A word's specificity is clamped to ±this (Zipf units) before scaling to −1..1.
const SPECIFICITY_RANGE: f64 = 4.0;

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
    facts: &dyn Fn(&str) -> Option<TermFacts>,
) -> Vec<Option<(f64, bool)>> {
    let unknown = bm25::idf(n_chunks, 0) as f64;
    let unknown_hangul = bm25::idf(n_chunks, (n_chunks / UNKNOWN_HANGUL_DF_DIV).max(1)) as f64;
    let n = query.iter().map(|t| t.word as usize + 1).max().unwrap_or(0);
    let mut words: Vec<Option<(f64, bool)>> = vec![None; n];
    for t in query {
        let (w, known) = match facts(&t.term) {
            Some(f) => (f.idf, true),
            None if t.term.chars().all(korean::is_hangul_syllable) => (unknown_hangul, false),
            None => (unknown, false),
        };
        let e = words[t.word as usize].get_or_insert((0.0, false));
        e.0 = e.0.max(w);
        e.1 |= known;
    }
    words
}

/// Per word of the query the instance knows: how much more common it is in the instance's
/// chunks than in general text, in Zipf units — log10 of its share of chunks per term of an
/// average chunk (a frequency per word, like Zipf's), per billion, minus its general Zipf
/// frequency — clamped to ±[`SPECIFICITY_RANGE`] and scaled to −1..1: above 0 a word the documents
/// use more than everyday text does (연구수당, 셀, dict), below 0 an everyday word (morning,
/// 점심). A word's share of chunks is that of its rarest term, its general frequency that of its
/// rarest term too (a bigram stands for every word containing it). Unknown words count 0.
/// Returns (mean over the query's words, max).
fn specificity(
    query: &[Token],
    weights: &[Option<(f64, bool)>],
    n_chunks: u32,
    avg_len: f64,
    facts: &dyn Fn(&str) -> Option<TermFacts>,
) -> (f64, f64) {
    // Per word: (least df, least background Zipf) over its known terms.
    let mut words: Vec<Option<(u32, f64)>> = vec![None; weights.len()];
    for t in query {
        let Some(f) = facts(&t.term) else { continue };
        let z = f.level.map_or(NO_BACKGROUND_ZIPF, |l| super::background::zipf(l).unwrap_or(0.0));
        if let Some(slot) = words.get_mut(t.word as usize) {
            let e = slot.get_or_insert((f.df, z));
            e.0 = e.0.min(f.df);
            e.1 = e.1.min(z);
        }
    }
    let counted = weights.iter().flatten().count().max(1) as f64;
    let per_term = n_chunks.max(1) as f64 * avg_len.max(1.0);
    let (mut sum, mut max) = (0.0f64, -1.0f64);
    for (df, z) in words.into_iter().flatten() {
        let zipf_here = (df.max(1) as f64 / per_term).log10() + 9.0;
        let s = (zipf_here - z).clamp(-SPECIFICITY_RANGE, SPECIFICITY_RANGE) / SPECIFICITY_RANGE;
        sum += s;
        max = max.max(s);
    }
    (sum / counted, max.max(0.0))
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
        avg_len: f64,
        facts: &dyn Fn(&str) -> Option<TermFacts>,
        anchor: bool,
    ) -> Features {
        let weights = word_weights(query, n_chunks, facts);
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
            attainable += facts(&t.term)
                .map(|f| f.idf)
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
        let (spec, spec_max) = specificity(query, &weights, n_chunks, avg_len, facts);
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
            spec,
            spec_max,
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
        let fact = |idf: f64, df: u32, level: u8| Some(TermFacts { idf, df, level: Some(level) });
        let idf = |t: &str| match t {
            "연구" | "구수" | "수당" => fact(2.0, 100, 0),
            "상한" => fact(3.0, 10, 100),
            _ => None,
        };
        let hits = [
            HitTerms { score: 9.0, location: [0, 1, 0, 0, 0], terms: vec!["연구", "구수", "수당"] },
            HitTerms { score: 3.0, location: [0, 2, 0, 0, 0], terms: vec!["상한"] },
        ];
        let f = Features::compute(&q, &hits, 1000, 10.0, &idf, true);
        let unknown = bm25::idf(1000, 0) as f64;
        let total = 2.0 + 3.0 + unknown;
        assert!((f.0[1] - 5.0 / total).abs() < 1e-9, "{f:?}");
        assert!((f.0[2] - 2.0 / total).abs() < 1e-9);
        assert!((f.0[6] - unknown / total).abs() < 1e-9);
        assert!((f.0[4] - 6.0 / 9.0).abs() < 1e-9);
        assert_eq!(f.0[5], 1.0);
        assert_eq!(f.0[9], 0.5);
        assert_eq!(f.0[7], 1.0);
        // Specificity, with 10 terms a chunk: 연구수당 is in 10% of chunks (Zipf 7 here) and in no
        // general word list (+7, clamped: 1); 상한 in 1% (Zipf 6 here) and Zipf 5 in general text
        // (+1: 0.25); kubernetes unknown (0).
        assert!((f.0[10] - (1.0 + 0.25) / 3.0).abs() < 1e-9, "{f:?}");
        assert_eq!(f.0[11], 1.0);
        // Nothing found: zeros, the unknown share is all.
        let f = Features::compute(&q, &[], 1000, 10.0, &|_| None, false);
        assert_eq!(f.0[0], 0.0);
        assert!((f.0[6] - 1.0).abs() < 1e-9);
    }
}
