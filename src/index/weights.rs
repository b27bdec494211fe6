//! Source weights: the optional `weights` section. A manifest may weigh some sources above (or
//! below) the rest (`[source_weights]`: the LibreOffice help's how-to guides over its menu
//! reference pages); the search ranking multiplies each chunk's BM25 score by its source's weight
//! ([`Ranking::source_weights`](crate::search::Ranking::source_weights)). Stored per chunk, so
//! that opening needs no pass over the chunk records:
//!
//! ```text
//! offset   size   field
//! 0        1      n: distinct weights (1–255)
//! 1        4 × n  the weights, f32 LE, each finite, > 0 and ≤ MAX_WEIGHT
//! 1 + 4n   1 × c  per chunk (c chunks), the index of its weight (< n)
//! ```
//!
//! An index whose chunks all weigh 1 has no such section. Added without a version bump (older
//! readers skip it and rank by BM25 alone).

/// The largest weight a source may have (and the smallest is above 0; [`check`]'s message says 10).
pub const MAX_WEIGHT: f32 = 10.0;

/// Whether `w` may be a source's weight: finite, above 0, at most [`MAX_WEIGHT`].
pub fn allowed(w: f32) -> bool {
    w > 0.0 && w <= MAX_WEIGHT
}

/// The section for these per-chunk weights, or `None` when every one is 1. Errors name what is
/// wrong: a weight outside [`allowed`] or more than 255 distinct weights.
pub fn encode(per_chunk: &[f32]) -> Result<Option<Vec<u8>>, String> {
    if per_chunk.iter().all(|&w| w == 1.0) {
        return Ok(None);
    }
    let mut table: Vec<f32> = Vec::new();
    let mut codes = Vec::with_capacity(per_chunk.len());
    for &w in per_chunk {
        if !allowed(w) {
            return Err(format!("weight {w}: use a number above 0 and at most {MAX_WEIGHT}"));
        }
        let code = match table.iter().position(|&t| t.to_bits() == w.to_bits()) {
            Some(i) => i,
            None if table.len() < 255 => {
                table.push(w);
                table.len() - 1
            }
            None => return Err("more than 255 distinct source weights".into()),
        };
        codes.push(code as u8);
    }
    let mut out = Vec::with_capacity(1 + 4 * table.len() + codes.len());
    out.push(table.len() as u8);
    for w in &table {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&codes);
    Ok(Some(out))
}

/// Check a `weights` section for `chunks` chunks; an error says what is wrong with it (a crafted
/// file with a valid checksum is refused here, never trusted). The messages are fixed strings:
/// the browser build links no formatting for them.
pub fn check(bytes: &[u8], chunks: u32) -> Result<(), &'static str> {
    let Some(&n) = bytes.first() else { return Err("empty") };
    if n == 0 {
        return Err("no weights");
    }
    if bytes.len() as u64 != 1 + 4 * n as u64 + chunks as u64 {
        return Err("length does not fit the weights and the chunk count");
    }
    let w = Weights { bytes };
    for i in 0..n {
        if !allowed(w.weight(i)) {
            return Err("a weight not above 0 and at most 10");
        }
    }
    if w.codes().iter().any(|&c| c >= n) {
        return Err("a chunk's weight past the table");
    }
    Ok(())
}

/// A checked `weights` section ([`check`]): per chunk, its source's weight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights<'a> {
    bytes: &'a [u8],
}

impl<'a> Weights<'a> {
    /// The section's bytes, which [`check`] accepted for the index's chunk count.
    pub(crate) fn checked(bytes: &'a [u8]) -> Weights<'a> {
        Weights { bytes }
    }

    /// Weight number `i` of the table (0 past it).
    fn weight(&self, i: u8) -> f32 {
        let at = 1 + 4 * i as usize;
        self.bytes.get(at..at + 4).map_or(0.0, |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// One byte a chunk: its weight's number.
    fn codes(&self) -> &'a [u8] {
        self.bytes.get(1 + 4 * *self.bytes.first().unwrap_or(&0) as usize..).unwrap_or(&[])
    }

    /// Chunk `chunk`'s weight (`None` past the last chunk).
    pub fn get(&self, chunk: u32) -> Option<f32> {
        self.codes().get(chunk as usize).map(|&c| self.weight(c))
    }

    /// Multiply each chunk's score in `scores` (dense by chunk id) by its weight.
    pub fn apply(&self, scores: &mut [f32]) {
        let mut table = [0f32; 256];
        for (i, w) in table.iter_mut().enumerate().take(*self.bytes.first().unwrap_or(&0) as usize) {
            *w = self.weight(i as u8);
        }
        for (s, &c) in scores.iter_mut().zip(self.codes()) {
            *s *= table[c as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_and_all_ones_need_no_section() {
        assert_eq!(encode(&[1.0, 1.0]), Ok(None));
        let w = [1.0, 1.3, 1.3, 1.0, 0.5];
        let bytes = encode(&w).unwrap().unwrap();
        assert_eq!(bytes.len(), 1 + 3 * 4 + 5);
        assert_eq!(check(&bytes, 5), Ok(()));
        let weights = Weights::checked(&bytes);
        assert_eq!(
            (0..6).map(|c| weights.get(c)).collect::<Vec<_>>(),
            [1.0, 1.3, 1.3, 1.0, 0.5].map(Some).into_iter().chain([None]).collect::<Vec<_>>()
        );
        let mut scores = [2.0, 2.0, 0.0, 3.0, 4.0];
        weights.apply(&mut scores);
        assert_eq!(scores, [2.0, 2.0 * 1.3, 0.0, 3.0, 2.0]);
    }

    #[test]
    fn bad_weights_are_refused_when_written() {
        for w in [0.0, -1.0, f32::NAN, f32::INFINITY, MAX_WEIGHT * 2.0] {
            assert!(encode(&[1.0, w]).unwrap_err().contains("weight"), "{w}");
        }
        let many: Vec<f32> = (1..=256).map(|i| i as f32 / 100.0).collect();
        assert!(encode(&many).unwrap_err().contains("255"));
    }

    #[test]
    fn a_crafted_section_is_refused_with_what_is_wrong() {
        let good = encode(&[1.0, 2.0]).unwrap().unwrap();
        assert_eq!(check(&good, 2), Ok(()));
        assert!(check(&good, 3).unwrap_err().contains("length"));
        assert!(check(&[], 0).unwrap_err().contains("empty"));
        assert!(check(&[0], 0).unwrap_err().contains("no weights"));
        let mut code = good.clone();
        *code.last_mut().unwrap() = 7;
        assert!(check(&code, 2).unwrap_err().contains("past the table"));
        for w in [f32::NAN, 0.0, -2.0, 11.0] {
            let mut bad = good.clone();
            bad[1..5].copy_from_slice(&w.to_le_bytes());
            assert!(check(&bad, 2).unwrap_err().contains("not above 0"), "{w}");
        }
    }
}
