//! A query's dictionary entries in one index, looked up once and shared by the passes that read
//! them. `ask` ranks, explains and judges every instance with the same query terms; each pass
//! looked each term up again (an FST walk and an idf logarithm, ~9 % of a native `ask`).

use crate::error::Result;
use crate::index::{Index, TermInfo};

/// Term lookups in `index`: the query's terms, found once (sorted by term); any other term is
/// looked up in the index when asked for.
pub struct Lookups<'i, D> {
    index: &'i Index<D>,
    found: Vec<(String, Option<TermInfo>)>,
}

impl<'i, D: AsRef<[u8]> + Clone> Lookups<'i, D> {
    /// No term looked up in advance: every [`Lookups::term`] asks the index.
    pub fn none(index: &'i Index<D>) -> Self {
        Lookups { index, found: Vec::new() }
    }

    /// `terms` looked up now: a query's term set, sorted and without repeats (otherwise nothing is
    /// looked up in advance). A term the dictionary cannot read is left to be looked up, and
    /// reported, by the pass that needs it.
    pub fn new(index: &'i Index<D>, terms: &[&str]) -> Self {
        if !terms.is_sorted_by(|a, b| a < b) {
            return Lookups::none(index);
        }
        let found =
            terms.iter().filter_map(|t| index.term(t).ok().map(|info| (t.to_string(), info))).collect();
        Lookups { index, found }
    }

    /// The index these lookups are in.
    pub fn index(&self) -> &'i Index<D> {
        self.index
    }

    /// `term`'s dictionary entry: what [`Index::term`] gives, from the lookups made in advance
    /// when it is among them.
    pub fn term(&self, term: &str) -> Result<Option<TermInfo>> {
        match self.found.binary_search_by(|(t, _)| t.as_str().cmp(term)) {
            Ok(at) => Ok(self.found[at].1),
            Err(_) => self.index.term(term),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_give_what_the_index_gives() {
        let bytes = crate::test_index::of_texts(&["감리원 교육 과정", "연구비 정산", "감리원 배치"]);
        let idx = Index::open(&bytes[..]).unwrap();
        let terms = ["감리", "없는말", "교육", "정산"];
        let mut sorted = terms;
        sorted.sort();
        // Unsorted or repeated terms: nothing looked up in advance, the same answers.
        let repeated = ["교육", "교육", "정산"];
        for given in [&terms[..], &sorted[..], &repeated[..], &[][..]] {
            let l = Lookups::new(&idx, given);
            for t in terms.iter().chain(&["배치", "리원", "zzz"]) {
                assert_eq!(l.term(t).unwrap(), idx.term(t).unwrap(), "{t}");
            }
        }
        assert_eq!(Lookups::none(&idx).term("감리").unwrap(), idx.term("감리").unwrap());
        assert!(idx.term("감리").unwrap().is_some() && idx.term("없는말").unwrap().is_none());
    }
}
