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
    "specificity_hit",
    "specificity_first",
    "everyday",
    "coverage_specific",
    "creation",
    "phrasing",
    "article_ask",
];

/// Number of features.
pub const COUNT: usize = 19;

/// Position of the `phrasing` feature (instance-independent; `calibrate --fit-phrasing` replaces
/// it with out-of-fold values).
pub const PHRASING: usize = 17;

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

/// What the gate reads in the prompt itself (not in the hits) for one instance.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Signals {
    /// The query holds one of the instance's anchor words.
    pub anchor: bool,
    /// The prompt asks to produce something ([`creation_request`](super::router::creation_request)).
    pub creation: bool,
    /// The prompt's [`phrasing`](super::phrasing) feature.
    pub phrasing: f64,
    /// The prompt asks for a statute article ([`asks_article`](super::router::asks_article)).
    pub article_ask: bool,
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

/// What the features need to know of one word of the query.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Word {
    /// The largest IDF among its terms (see the module doc for unknown words).
    weight: f64,
    /// The instance knows at least one of its terms.
    known: bool,
    /// Its specificity in −1..1 ([`specificity`]); 0 for an unknown word.
    specificity: f64,
    /// One of its terms is in one of the top hits / in the first.
    in_top: bool,
    /// … in the first hit.
    in_first: bool,
    /// Unknown and not Hangul: a foreign topic word (rust, kubernetes).
    foreign: bool,
}

/// A word's specificity: how much more common it is in the instance's chunks than in general
/// text, in Zipf units — log10 of its share of chunks per term of an average chunk (a frequency
/// per word, like Zipf's), per billion, minus its general Zipf frequency — clamped to
/// ±[`SPECIFICITY_RANGE`] and scaled to −1..1: above 0 a word the documents use more than everyday
/// text does (연구수당, 셀, dict), below 0 an everyday word (morning, 점심). `df` is the chunk count
/// of its rarest term, `zipf` the general frequency of its rarest term (a bigram stands for every
/// word containing it).
fn specificity(df: u32, zipf: f64, per_term: f64) -> f64 {
    let zipf_here = (df.max(1) as f64 / per_term).log10() + 9.0;
    (zipf_here - zipf).clamp(-SPECIFICITY_RANGE, SPECIFICITY_RANGE) / SPECIFICITY_RANGE
}

/// A word's rarest term: (least chunk count, least general Zipf) over its known terms.
type Rarest = Option<(u32, f64)>;

/// The words of `query` (by word number; `None` for a number no token has), each term's facts
/// looked up once.
fn words(
    query: &[Token],
    hits: &[HitTerms<'_>],
    n_chunks: u32,
    avg_len: f64,
    facts: &dyn Fn(&str) -> Option<TermFacts>,
) -> (Vec<Option<Word>>, f64) {
    let unknown = bm25::idf(n_chunks, 0) as f64;
    let unknown_hangul = bm25::idf(n_chunks, (n_chunks / UNKNOWN_HANGUL_DF_DIV).max(1)) as f64;
    let per_term = n_chunks.max(1) as f64 * avg_len.max(1.0);
    let n = query.iter().map(|t| t.word as usize + 1).max().unwrap_or(0);
    // Per word: the word, and (least df, least general Zipf) over its known terms.
    let mut words: Vec<Option<(Word, Rarest)>> = vec![None; n];
    // Whether each token is its term's first in the query: one sort, not a scan of the terms seen
    // before each (quadratic in a long prompt).
    let mut order: Vec<usize> = (0..query.len()).collect();
    crate::sort::sort_by(&mut order, |&a, &b| query[a].term.cmp(&query[b].term)); // ties in query order
    let mut first = vec![false; query.len()];
    for (k, &i) in order.iter().enumerate() {
        first[i] = k == 0 || query[order[k - 1]].term != query[i].term;
    }
    // The attainable maximum: every term of the query matched once in a chunk of average length
    // scores its IDF (BM25 at tf = 1, dl = avgdl); an unknown term counts at its word's weight.
    // Each distinct term's part of it, in query order: its IDF, or the word whose weight it takes.
    let mut parts: Vec<Result<f64, usize>> = Vec::new();
    for (t, &first_time) in query.iter().zip(&first) {
        let fact = facts(&t.term);
        let hangul = t.term.chars().all(korean::is_hangul_syllable);
        let w = match fact {
            Some(f) => f.idf,
            None if hangul => unknown_hangul,
            None => unknown,
        };
        let in_top = hits.iter().any(|h| h.terms.contains(&t.term.as_str()));
        let in_first = hits.first().is_some_and(|h| h.terms.contains(&t.term.as_str()));
        let Some(slot) = words.get_mut(t.word as usize) else { continue };
        let (e, dz) = slot.get_or_insert((
            Word {
                weight: 0.0,
                known: false,
                specificity: 0.0,
                in_top: false,
                in_first: false,
                foreign: false,
            },
            None,
        ));
        e.weight = e.weight.max(w);
        e.in_top |= in_top;
        e.in_first |= in_first;
        e.foreign |= fact.is_none() && !hangul;
        if let Some(f) = fact {
            e.known = true;
            let z = f.level.map_or(NO_BACKGROUND_ZIPF, |l| super::background::zipf(l).unwrap_or(0.0));
            let d = dz.get_or_insert((f.df, z));
            d.0 = d.0.min(f.df);
            d.1 = d.1.min(z);
            if first_time {
                parts.push(Ok(f.idf));
            }
        } else if first_time {
            parts.push(Err(t.word as usize));
        }
    }
    let words: Vec<Option<Word>> = words
        .into_iter()
        .map(|slot| {
            slot.map(|(mut w, dz)| {
                w.specificity = dz.map_or(0.0, |(df, z)| specificity(df, z, per_term));
                w
            })
        })
        .collect();
    let mut attainable = 0.0;
    for part in parts {
        attainable +=
            part.unwrap_or_else(|word| words.get(word).copied().flatten().map_or(0.0, |w| w.weight));
    }
    (words, attainable)
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
        signals: Signals,
    ) -> Features {
        let Signals { anchor, creation, phrasing, article_ask } = signals;
        let (words, attainable) = words(query, hits, n_chunks, avg_len, facts);
        let words: Vec<Word> = words.into_iter().flatten().collect();
        let total: f64 = words.iter().map(|w| w.weight).sum();
        let share = |pick: &dyn Fn(&Word) -> bool| {
            if total > 0.0 {
                words.iter().filter(|w| pick(w)).map(|w| w.weight).sum::<f64>() / total
            } else {
                0.0
            }
        };
        let top = hits.first().map_or(0.0, |h| h.score);
        let last = hits.last().map_or(0.0, |h| h.score);
        // The share of the top hits from the top hit's source, and at its location (page, article,
        // heading): agreement.
        let same_as_first = |same: &dyn Fn(&HitTerms<'_>, &HitTerms<'_>) -> bool| match hits.first() {
            Some(h) => hits.iter().filter(|x| same(x, h)).count() as f64 / hits.len() as f64,
            None => 0.0,
        };
        let same = same_as_first(&|x, h| x.location[0] == h.location[0]);
        let agreement = same_as_first(&|x, h| x.location == h.location);
        let n_words = words.len();
        let known: Vec<&Word> = words.iter().filter(|w| w.known).collect();
        let counted = n_words.max(1) as f64;
        let spec_sum: f64 = known.iter().map(|w| w.specificity).sum();
        let spec_max = known.iter().map(|w| w.specificity).fold(0.0f64, f64::max);
        let spec_hit = |pick: &dyn Fn(&Word) -> bool| {
            words.iter().filter(|w| pick(w)).map(|w| w.specificity.max(0.0)).sum::<f64>() / counted
        };
        let everyday = known.iter().filter(|w| w.specificity <= 0.0).count() as f64 / counted;
        // Coverage where a word weighs its IDF times how specific it is (an unknown word not made
        // of Hangul — a foreign topic word — counts as fully specific).
        let specific_weight =
            |w: &Word| w.weight * (0.2 + if w.foreign { 1.0 } else { w.specificity.max(0.0) });
        let spec_total: f64 = words.iter().map(specific_weight).sum();
        let spec_cov = if spec_total > 0.0 {
            words.iter().filter(|w| w.in_top).map(specific_weight).sum::<f64>() / spec_total
        } else {
            0.0
        };
        Features([
            if attainable > 0.0 { top / attainable } else { 0.0 },
            share(&|w| w.in_top),
            share(&|w| w.in_first),
            (1.0 + top).ln(),
            if top > 0.0 { (top - last) / top } else { 0.0 },
            same,
            if total > 0.0 { share(&|w| !w.known) } else { 1.0 },
            if anchor { 1.0 } else { 0.0 },
            (1.0 + n_words as f64).ln(),
            agreement,
            spec_sum / counted,
            spec_max,
            spec_hit(&|w| w.in_top),
            spec_hit(&|w| w.in_first),
            everyday,
            spec_cov,
            if creation { 1.0 } else { 0.0 },
            phrasing,
            // Asked for an article, and the top hits have articles to cite.
            if article_ask && hits.iter().any(|h| h.location[2] != crate::index::strings::NONE) {
                1.0
            } else {
                0.0
            },
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
        let f = Features::compute(
            &q,
            &hits,
            1000,
            10.0,
            &idf,
            Signals { anchor: true, creation: false, phrasing: 0.5, article_ask: true },
        );
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
        // Specific words found in the hits: 연구수당 (1.0) in the first and in the top, 상한 (0.25)
        // in the top only; over 3 words.
        assert!((f.0[12] - 1.25 / 3.0).abs() < 1e-9, "{f:?}");
        assert!((f.0[13] - 1.0 / 3.0).abs() < 1e-9, "{f:?}");
        // No known word is more common here than in general text.
        assert_eq!(f.0[14], 0.0);
        // Coverage by specific weight: kubernetes (foreign, unknown) weighs its IDF × 1.2.
        let sw = 2.0 * 1.2 + 3.0 * 0.45 + unknown * 1.2;
        assert!((f.0[15] - (2.0 * 1.2 + 3.0 * 0.45) / sw).abs() < 1e-9, "{f:?}");
        assert_eq!(f.0[17], 0.5);
        // Asked for an article, and the hits have one (string id 0).
        assert_eq!(f.0[18], 1.0);
        // Not asked: 0 on the same hits; asked, but no hit has an article: 0.
        let not_asked = Signals { anchor: true, creation: false, phrasing: 0.5, article_ask: false };
        assert_eq!(Features::compute(&q, &hits, 1000, 10.0, &idf, not_asked).0[18], 0.0);
        let none = crate::index::strings::NONE;
        let plain: Vec<HitTerms<'_>> =
            hits.iter().map(|h| HitTerms { location: [0, 1, none, none, none], ..h.clone() }).collect();
        let asked = Signals { article_ask: true, ..not_asked };
        assert_eq!(Features::compute(&q, &plain, 1000, 10.0, &idf, asked).0[18], 0.0);
        // Nothing found: zeros, the unknown share is all.
        let f = Features::compute(
            &q,
            &[],
            1000,
            10.0,
            &|_| None,
            Signals { anchor: false, creation: true, phrasing: -1.0, article_ask: true },
        );
        assert_eq!(f.0[16], 1.0);
        assert_eq!(f.0[17], -1.0);
        // No hits: no article to cite.
        assert_eq!(f.0[18], 0.0);
        assert_eq!(NAMES[PHRASING], "phrasing");
        assert_eq!(f.0[0], 0.0);
        assert!((f.0[6] - 1.0).abs() < 1e-9);
    }
}
