//! Term proximity: chunks where the query's adjacent words occur near each other rank higher.
//!
//! BM25 scores a bag of terms: "통합관리계정 … 학생인건비" far apart in a long page scores like the
//! two side by side. [`rescore`] re-reads the stored text of an instance's best `depth` chunks
//! (cheap at ~50) and multiplies each score by `1 + weight · p`, where `p` ∈ [0, 1] is the share
//! of the query's adjacent word pairs found close together in the chunk, each pair weighted by the
//! lighter of its two words (weight · idf of the word's heaviest term). A query word *occurs* at a
//! word of the chunk when at least half of its terms (its bigrams, for a Hangul word) are terms of
//! that chunk word; two words `d` words apart count `1 − (d − 1) / window` (0 and 1 apart: 1; the
//! same chunk word holds both in a compound such as 학생인건비통합관리계정), in either order.
//! Only `+ − × ÷` on f32: the same scores natively and in wasm.

use serde::{Deserialize, Serialize};

use super::Scored;
use crate::error::Result;
use crate::index::Index;
use crate::text::{Analyzer, AnalyzerSettings};

/// The proximity re-scoring of an instance's best chunks ([`rescore`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Proximity {
    /// Best chunks re-scored.
    pub depth: usize,
    /// Words apart at which a pair stops counting (1: only adjacent words count).
    pub window: u32,
    /// Score multiplier of a chunk holding every pair adjacent (`1 + weight`).
    pub weight: f32,
}

impl Proximity {
    /// The setting measured first (docs/tools-bench.md; not in [`Ranking::DEFAULT`](super::Ranking::DEFAULT)).
    pub const DEFAULT: Proximity = Proximity { depth: 50, window: 3, weight: 0.3 };
}

/// A query word: its distinct terms and its weight.
struct Word {
    terms: Vec<String>,
    weight: f32,
}

/// The query's words that have terms in the index, in query order, with their weights
/// (weight · idf of the heaviest term, from the weighted query `terms`).
fn query_words<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    analyzer: Analyzer,
    query: &str,
    terms: &[(String, f32)],
) -> Result<Vec<Word>> {
    let mut words: Vec<(u32, Word)> = Vec::new();
    for tok in analyzer.analyze(query) {
        let Some((_, w)) = terms.iter().find(|(t, _)| *t == tok.term) else { continue };
        let Some(info) = index.term(&tok.term)? else { continue };
        let weight = w * info.idf;
        match words.last_mut() {
            Some((no, word)) if *no == tok.word => {
                if !word.terms.contains(&tok.term) {
                    word.terms.push(tok.term);
                }
                if weight > word.weight {
                    word.weight = weight;
                }
            }
            _ => words.push((tok.word, Word { terms: vec![tok.term], weight })),
        }
    }
    Ok(words.into_iter().map(|(_, w)| w).collect())
}

/// The proximity share `p` ∈ [0, 1] of a chunk whose words' terms are `chunk` (word number, term;
/// in order) for the query `words`.
fn share(words: &[Word], chunk: &[(u32, &str)], window: u32) -> f32 {
    // Per query word, the chunk words where it occurs (ascending).
    let at: Vec<Vec<u32>> = words
        .iter()
        .map(|w| {
            let need = w.terms.len().div_ceil(2);
            let mut out: Vec<u32> = Vec::new();
            let mut i = 0;
            while i < chunk.len() {
                let no = chunk[i].0;
                let mut j = i;
                let mut found = 0;
                while j < chunk.len() && chunk[j].0 == no {
                    j += 1;
                }
                for t in &w.terms {
                    if chunk[i..j].iter().any(|(_, c)| c == t) {
                        found += 1;
                    }
                }
                if found >= need {
                    out.push(no);
                }
                i = j;
            }
            out
        })
        .collect();
    let (mut got, mut total) = (0f32, 0f32);
    for (p, pair) in words.windows(2).enumerate() {
        let weight = if pair[0].weight < pair[1].weight { pair[0].weight } else { pair[1].weight };
        total += weight;
        // The smallest distance between an occurrence of each (both lists ascending).
        let (a, b) = (&at[p], &at[p + 1]);
        let (mut i, mut j, mut best) = (0, 0, u32::MAX);
        while i < a.len() && j < b.len() {
            best = best.min(a[i].abs_diff(b[j]));
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        if best <= window {
            let d = best.max(1);
            got += weight * (1.0 - (d - 1) as f32 / window.max(1) as f32);
        }
    }
    if total > 0.0 { got / total } else { 0.0 }
}

/// Re-score the first `p.depth` of `ranked` (best first, ties by chunk id) by proximity to the
/// query's words and re-sort them; the rest follow unchanged (they score no more than the last
/// re-scored one did before its bonus, which never lowers a score). `query` is the query text,
/// `terms` its weighted terms ([`weighted_terms`](super::weighted_terms)), `settings` and `fillers`
/// how they were analyzed.
pub fn rescore<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    query: &str,
    terms: &[(String, f32)],
    fillers: bool,
    ranked: &mut [Scored],
    p: Proximity,
) -> Result<()> {
    // Word by word, without the bigrams spanning two words (their words are what is compared).
    let settings = AnalyzerSettings { join_words: false, ..index.meta().analyzer };
    let analyzer = if fillers { Analyzer::new(settings).without_fillers() } else { Analyzer::new(settings) };
    let words = query_words(index, analyzer, query, terms)?;
    if words.len() < 2 || p.weight <= 0.0 {
        return Ok(());
    }
    let n = p.depth.min(ranked.len());
    let plain = Analyzer::new(settings);
    for s in ranked[..n].iter_mut() {
        let tokens = plain.analyze(&index.chunk(s.chunk)?.text);
        let chunk: Vec<(u32, &str)> = tokens.iter().map(|t| (t.word, t.term.as_str())).collect();
        s.score *= 1.0 + p.weight * share(&words, &chunk, p.window);
    }
    // Best first, ties by chunk id (binary insertion: n is small, no sorting code in the wasm).
    let mut sorted: Vec<Scored> = Vec::with_capacity(n);
    for s in ranked[..n].iter() {
        let at = sorted.partition_point(|b| b.score > s.score || (b.score == s.score && b.chunk < s.chunk));
        sorted.insert(at, *s);
    }
    ranked[..n].copy_from_slice(&sorted);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Chunk, Source};
    use crate::index::IndexBuilder;
    use crate::search::{Ranking, rank, weighted_terms};

    fn index(texts: &[&str]) -> Vec<u8> {
        let mut b = IndexBuilder::new("t", AnalyzerSettings::default());
        let s = b.add_source(Source { id: "s".into(), ..Default::default() }).unwrap();
        for t in texts {
            b.add_chunk(Chunk { source: s, text: (*t).into(), ..Default::default() }).unwrap();
        }
        b.build().unwrap()
    }

    #[test]
    fn adjacent_query_words_rank_first() {
        // Same terms, same lengths (the commas keep a bigram spanning 간접비 비율 out of both):
        // plain BM25 ties and orders by chunk id; proximity puts the chunk with the two side by
        // side first.
        let bytes = index(&[
            "간접비 산정 기준 정산 절차, 비율 안내",
            "간접비, 비율 산정 기준 정산 절차 안내",
            "장비 구입 절차 안내 기준 검수 일정",
        ]);
        let idx = Index::open(&bytes[..]).unwrap();
        let off = Ranking {
            proximity: None,
            feedback: None,
            background: None,
            collapse: false,
            ..Ranking::DEFAULT
        };
        let q = weighted_terms(&idx, "간접비 비율", off);
        let plain = rank(&idx, "간접비 비율", &q, 10, off).unwrap();
        assert_eq!(plain.iter().map(|s| s.chunk).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(plain[0].score, plain[1].score);
        let on = Ranking { proximity: Some(Proximity::DEFAULT), ..off };
        let near = rank(&idx, "간접비 비율", &q, 10, on).unwrap();
        assert_eq!(near.iter().map(|s| s.chunk).collect::<Vec<_>>(), [1, 0]);
        // Adjacent: the full bonus; 5 words apart (beyond the window of 3): none.
        assert_eq!(near[0].score, plain[0].score * 1.3);
        assert_eq!(near[1].score, plain[1].score);
        // A one-word query has no pairs: nothing changes.
        let one = weighted_terms(&idx, "간접비", off);
        assert_eq!(rank(&idx, "간접비", &one, 10, on).unwrap(), rank(&idx, "간접비", &one, 10, off).unwrap());
    }

    #[test]
    fn pairs_count_by_distance_in_either_order_and_inside_compounds() {
        let w = |t: &[&str], weight| Word { terms: t.iter().map(|s| s.to_string()).collect(), weight };
        let words = [w(&["연구", "구수", "수당"], 1.0), w(&["상한"], 1.0)];
        // 상한 two words before 연구수당: distance 2 of window 3 → 1 − 1/3.
        let chunk = [(0, "상한"), (1, "금액"), (2, "연구"), (2, "구수"), (2, "수당")];
        assert!((share(&words, &chunk, 3) - 2.0 / 3.0).abs() < 1e-6);
        // Two of 연구수당's three bigrams (at least half) are enough; one is not.
        let two = [(0, "연구"), (0, "수당"), (1, "상한")];
        assert_eq!(share(&words, &two, 3), 1.0);
        let one = [(0, "연구"), (1, "상한")];
        assert_eq!(share(&words, &one, 3), 0.0);
        // Both in one compound word: adjacent.
        let compound = [(0, "연구"), (0, "구수"), (0, "수당"), (0, "상한")];
        assert_eq!(share(&words, &compound, 3), 1.0);
        // Pairs weigh by their lighter word.
        let three = [w(&["가나"], 1.0), w(&["다라"], 3.0), w(&["마바"], 3.0)];
        let only_second = [(0, "가나"), (9, "다라"), (10, "마바")];
        assert_eq!(share(&three, &only_second, 3), 3.0 / 4.0);
    }
}
