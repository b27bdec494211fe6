//! BM25 parameters and the scoring formula.

use serde::{Deserialize, Serialize};

/// Okapi BM25 parameters, stored in every index.
///
/// Defaults are the classic k1 = 1.2, b = 0.75 (Robertson & Zaragoza 2009; Lucene's defaults);
/// the bench also reports Lucene's tuned (0.9, 0.4).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bm25Params {
    /// Term-frequency saturation, clamped to `0.0..=3.0`.
    pub k1: f32,
    /// Length normalisation, clamped to `0.0..=1.0`.
    pub b: f32,
}

impl Default for Bm25Params {
    fn default() -> Self {
        Bm25Params { k1: 1.2, b: 0.75 }
    }
}

impl Bm25Params {
    /// The parameters with k1 and b clamped to their ranges (non-finite values become defaults).
    pub fn clamped(self) -> Self {
        let d = Bm25Params::default();
        let k1 = if self.k1.is_finite() { self.k1.clamp(0.0, 3.0) } else { d.k1 };
        let b = if self.b.is_finite() { self.b.clamp(0.0, 1.0) } else { d.b };
        Bm25Params { k1, b }
    }
}

/// Robertson–Spärck Jones IDF as in Lucene: `ln(1 + (N − df + 0.5) / (df + 0.5))`, never negative.
///
/// The logarithm is the `libm` crate's (pure Rust, only IEEE `+ − × ÷`), not the platform's: the
/// same bits natively and in wasm by construction (index format v4 computes the idf at lookup).
/// It gives the f32 bits the platform `ln` gave when v1–v3 indexes stored them (tested over every
/// document frequency of many collection sizes: src/index/reader.rs).
pub fn idf(n_docs: u32, df: u32) -> f32 {
    let (n, df) = (n_docs as f64, df as f64);
    libm::log(1.0 + (n - df + 0.5) / (df + 0.5)) as f32
}

/// Okapi BM25 term weight (Lucene's form, without the (k1 + 1) constant dropped):
/// `idf · (tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl)))`.
///
/// Uses only +, ·, / on f32, so it gives the same bits natively and in wasm. The idf multiplies
/// last: scoring computes [`tf_part`] per posting and multiplies by the term's idf.
#[inline(always)]
pub fn term_score(p: Bm25Params, idf: f32, tf: u32, doc_len: f32, avg_len: f32) -> f32 {
    weight(p, idf, tf, length_norm(p, doc_len, avg_len))
}

/// The length part of the BM25 denominator, `k1 · (1 − b + b · dl / avgdl)`: fixed per chunk, so
/// an open index computes it once per chunk ([`Index::length_norms`](crate::index::Index::length_norms)).
#[inline(always)]
pub fn length_norm(p: Bm25Params, doc_len: f32, avg_len: f32) -> f32 {
    let norm = if avg_len > 0.0 { doc_len / avg_len } else { 1.0 };
    p.k1 * (1.0 - p.b + p.b * norm)
}

/// [`term_score`] for a chunk whose [`length_norm`] is known: the same operations in the same
/// order, so the same bits.
#[inline(always)]
pub fn weight(p: Bm25Params, idf: f32, tf: u32, length_norm: f32) -> f32 {
    idf * tf_part(p, tf, length_norm)
}

/// The tf part of [`weight`]: `tf · (k1 + 1) / (tf + length_norm)`.
#[inline(always)]
pub fn tf_part(p: Bm25Params, tf: u32, length_norm: f32) -> f32 {
    let tf = tf as f32;
    tf * (p.k1 + 1.0) / (tf + length_norm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_formula() {
        // Hand-computed: idf(10, 2) = ln(1 + 8.5/2.5) = ln 4.4.
        let i = idf(10, 2);
        assert!((i - 4.4f32.ln()).abs() < 1e-6);
        let p = Bm25Params::default();
        let s = term_score(p, i, 3, 20.0, 10.0);
        let want = i * (3.0 * 2.2 / (3.0 + 1.2 * (0.25 + 0.75 * 2.0)));
        assert!((s - want).abs() < 1e-6);
    }

    #[test]
    fn saturates_and_clamps() {
        let p = Bm25Params::default();
        assert!(term_score(p, 1.0, 1000, 10.0, 10.0) < p.k1 + 1.0);
        let c = Bm25Params { k1: 9.0, b: f32::NAN }.clamped();
        assert_eq!((c.k1, c.b), (3.0, 0.75));
        assert!(idf(5, 5) > 0.0);
    }
}
