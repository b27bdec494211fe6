//! Decoded postings kept after first use: a term's chunk ids with their BM25 tf parts.
//!
//! Scoring a term decodes its bit-packed postings and computes, per posting, the tf part of BM25
//! ([`bm25::tf_part`]: a division by the chunk's length norm). Both depend only on the index, so
//! an open [`Index`](super::Index) keeps the result for the terms it has scored — the common words
//! of a collection, which have the longest lists, come back in most queries — and scoring them
//! again reads one (chunk, part) pair per posting. Scores are the same bits either way: the part
//! is computed by the same function and multiplied by the idf at the same place.
//!
//! What is kept is bounded: only lists of at least [`MIN_DF`] postings (shorter ones decode in a
//! few nanoseconds), and at most [`BUDGET`] postings an index (8 bytes each: 8 MiB of postings,
//! plus a few dozen bytes a list). Once the budget is spent nothing more is kept and nothing is
//! evicted: which lists are kept depends on the order terms were first scored in, their results
//! never. Entries are shared (`Arc`, the list moved in, not copied): a caller scores without
//! holding the lock.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::Error;
use crate::search::bm25::{self, Bm25Params};

/// A list shorter than this is decoded at every use.
pub const MIN_DF: u32 = 32;
/// Postings kept per index at most (8 bytes each: 8 MiB of postings).
pub const BUDGET: usize = 1 << 20;

/// One posting: chunk id and its tf part.
pub type Part = (u32, f32);

/// The kept lists of one index, by term ordinal.
#[derive(Debug, Default)]
pub struct Parts {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    /// Sorted by term ordinal.
    lists: Vec<(u32, Arc<Vec<Part>>)>,
    /// Postings held in `lists`.
    held: usize,
}

impl Parts {
    /// The lists, locked (a panic while they were locked left them whole: taken as they are).
    fn kept(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept list of term `ordinal`, if any.
    pub fn get(&self, ordinal: u32) -> Option<Arc<Vec<Part>>> {
        let kept = self.kept();
        let i = kept.lists.binary_search_by_key(&ordinal, |e| e.0).ok()?;
        Some(kept.lists[i].1.clone())
    }

    /// Whether a list of `df` postings would be kept now.
    pub fn wants(&self, df: u32) -> bool {
        df >= MIN_DF && self.kept().held + df as usize <= BUDGET
    }

    /// Keep `list` for term `ordinal` (unless the budget is spent meanwhile); the list to score.
    pub fn keep(&self, ordinal: u32, list: Vec<Part>) -> Arc<Vec<Part>> {
        let list = Arc::new(list);
        let mut kept = self.kept();
        if kept.held + list.len() <= BUDGET
            && let Err(i) = kept.lists.binary_search_by_key(&ordinal, |e| e.0)
        {
            kept.lists.insert(i, (ordinal, list.clone()));
            kept.held += list.len();
        }
        list
    }

    /// Postings held (for memory figures).
    pub fn held(&self) -> usize {
        self.kept().held
    }
}

/// The error of a posting whose chunk has no length (past the `doc_lens` section).
#[cold]
pub fn outside(doc: u32) -> Error {
    Error::corrupt("doc_lens", format!("chunk {doc} out of range"))
}

/// The (chunk, tf part) pairs of one decoded block, appended to `out`; chunks at or past
/// `norms.len()` are returned as the first such chunk (the caller's error).
pub fn push_block(
    p: Bm25Params,
    norms: &[f32],
    docs: &[u32],
    tfs: &[u32],
    out: &mut Vec<Part>,
) -> Option<u32> {
    for (&doc, &tf) in docs.iter().zip(tfs) {
        match norms.get(doc as usize) {
            Some(&norm) => out.push((doc, bm25::tf_part(p, tf, norm))),
            None => return Some(doc),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_within_the_budget_and_in_order() {
        let parts = Parts::default();
        assert!(!parts.wants(MIN_DF - 1));
        assert!(parts.wants(MIN_DF));
        let a = parts.keep(7, vec![(1, 0.5); 40]);
        parts.keep(3, vec![(2, 0.25); 40]);
        assert_eq!(parts.get(7).as_deref(), Some(&*a));
        assert_eq!(parts.get(3).map(|l| l[0]), Some((2, 0.25)));
        assert_eq!(parts.get(5), None);
        assert_eq!(parts.held(), 80);
        // Kept once: a second keep of the same term adds nothing.
        parts.keep(7, vec![(1, 0.5); 40]);
        assert_eq!(parts.held(), 80);
        // Over the budget: returned for scoring, not kept.
        assert!(!parts.wants(BUDGET as u32));
        let big = parts.keep(9, vec![(0, 1.0); BUDGET]);
        assert_eq!(big.len(), BUDGET);
        assert_eq!(parts.get(9), None);
        assert_eq!(parts.held(), 80);
    }

    #[test]
    fn a_block_gives_the_tf_parts_and_stops_at_a_chunk_out_of_range() {
        let p = Bm25Params::default();
        let norms = [1.0, 2.0, 0.5];
        let mut out = Vec::new();
        assert_eq!(push_block(p, &norms, &[0, 2], &[1, 3], &mut out), None);
        assert_eq!(out, vec![(0, bm25::tf_part(p, 1, 1.0)), (2, bm25::tf_part(p, 3, 0.5))]);
        assert_eq!(push_block(p, &norms, &[1, 3, 2], &[1, 1, 1], &mut out), Some(3));
    }
}
