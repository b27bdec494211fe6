//! Field weighting: chunks whose heading holds the query's words rank higher.
//!
//! A chunk's heading (a manual page's section title, a statute article's title, an FAQ's question)
//! is indexed with its text, so BM25 counts a heading word like any other. [`rescore`] re-reads the
//! heading of an instance's best `depth` chunks (from the chunk record: no text decoding) and
//! multiplies each score by `1 + weight · h`, where `h` ∈ [0, 1] is the share of the query's
//! weight (Σ weight · idf of its terms the index has) found among the heading's terms. Only
//! `+ − × ÷` on f32: the same scores natively and in wasm.
//!
//! A statute article without a title has its label (제20조) as heading, and a label counts only
//! when the query cites it ("헌법 제20조", "헌법 20조": [`cites`]), then as the whole query: the
//! article comes first, not 제129조 "… 20일 …". `ask`'s judges read the labels alone
//! ([`Heading::ARTICLES`]); headings in general cost them (docs/gate-bench.md).

use serde::{Deserialize, Serialize};

use super::{Lookups, Scored};
use crate::error::Result;
use crate::text::Analyzer;

/// The heading re-scoring of an instance's best chunks ([`rescore`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Heading {
    /// Best chunks re-scored.
    pub depth: usize,
    /// Score multiplier of a chunk whose heading holds every query term (`1 + weight`).
    pub weight: f32,
    /// Read only statute article labels, and a label only when the query cites it
    /// ([`cites`]): what `ask`'s judges use (headings in general cost them, docs/gate-bench.md).
    #[serde(default)]
    pub articles_only: bool,
}

impl Heading {
    /// What [`Ranking::DEFAULT`](super::Ranking::DEFAULT) uses (chosen on tuning data,
    /// docs/tools-bench.md).
    pub const DEFAULT: Heading = Heading { depth: 50, weight: 1.0, articles_only: false };
    /// Article labels only, cited ones ([`cites`]).
    pub const ARTICLES: Heading = Heading { articles_only: true, ..Heading::DEFAULT };
}

/// Re-score the first `h.depth` of `ranked` (best first, ties by chunk id) by the share of the
/// weighted query `terms` in their headings and re-sort them; the rest follow unchanged (the bonus
/// never lowers a score, so they stay below).
pub fn rescore<D: AsRef<[u8]> + Clone>(
    lookups: &Lookups<'_, D>,
    terms: &[(String, f32)],
    ranked: &mut [Scored],
    h: Heading,
) -> Result<()> {
    // Labels alone, and no number in the query: no label can be cited ([`cites`]), so neither
    // the query's terms nor any chunk record need be read (`ask` runs this for every instance).
    if h.weight <= 0.0 || (h.articles_only && !terms.iter().any(|(t, _)| is_number(t))) {
        return Ok(());
    }
    let index = lookups.index();
    let mut weighted: Vec<(&str, f32)> = Vec::with_capacity(terms.len());
    let mut total = 0f32;
    for (t, w) in terms {
        if let Some(info) = lookups.term(t)? {
            weighted.push((t, w * info.idf));
            total += w * info.idf;
        }
    }
    if total <= 0.0 {
        return Ok(());
    }
    let analyzer = Analyzer::new(index.meta().analyzer);
    let n = h.depth.min(ranked.len());
    // A section's chunks share its heading: each distinct heading is analysed once.
    let mut seen: Vec<(String, f32)> = Vec::new();
    for s in ranked[..n].iter_mut() {
        // A statute article's label (제20조) heads it when it has no title, and is the only
        // heading read with `articles_only`: a prompt that cites the article finds it first, not a
        // chunk that merely shares the number (20일).
        let location = index.chunk_record(s.chunk)?.location;
        let (heading, article) = match (location.heading, location.article) {
            (Some(heading), _) if !h.articles_only => (heading, false),
            (_, Some(label)) => (label, true),
            _ => continue,
        };
        let got = match seen.iter().find(|(x, _)| *x == heading) {
            Some(&(_, got)) => got,
            None => {
                let mut ht = analyzer.terms(&heading);
                crate::sort::sort(&mut ht);
                ht.dedup();
                let mut got = 0f32;
                if article {
                    // A citation names the article outright: the whole query, whatever else it
                    // says (a number weighs little against 헌법 in it).
                    if cites(&ht, &weighted) {
                        got = total;
                    }
                } else {
                    for (t, w) in &weighted {
                        if ht.binary_search_by(|x| x.as_str().cmp(t)).is_ok() {
                            got += w;
                        }
                    }
                }
                seen.push((heading, got));
                got
            }
        };
        s.score *= 1.0 + h.weight * (got / total);
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

/// Does a query (its `weighted` terms) cite the article whose label has the terms `label` (sorted,
/// distinct)? Then the article's chunks score `1 + weight` times their BM25, as if their heading
/// held the whole query. Every term of the label but the prefix 제 is the query's: "헌법 20조" and
/// "제20조" cite 제20조, while "20일" or "100만원" (no 조) cite nothing. An article is cited by its
/// number: [`rescore`] reads no label for a query without one.
fn cites(label: &[String], weighted: &[(&str, f32)]) -> bool {
    label.iter().filter(|t| *t != "제").all(|t| weighted.iter().any(|(q, _)| q == t))
}

/// A term of digits (an article's number: the analyzer splits a digit run from letters).
fn is_number(term: &str) -> bool {
    term.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Chunk, Location, Source};
    use crate::index::{Index, IndexBuilder};
    use crate::search::{Ranking, rank, weighted_terms};
    use crate::text::AnalyzerSettings;

    #[test]
    fn a_heading_holding_the_query_ranks_first() {
        let mut b = IndexBuilder::new("t", AnalyzerSettings::default());
        let s = b.add_source(Source { id: "s".into(), ..Default::default() }).unwrap();
        let at = |page, heading: &str| Location {
            page: Some(page),
            heading: Some(heading.to_string()),
            ..Default::default()
        };
        // The same text on two pages; only page 2's heading names the query's words.
        for (page, heading) in [(1, "연구장비 구입"), (2, "간접비 비율"), (3, "출장 여비")] {
            let text = if page == 3 { "출장 여비 정산" } else { "간접비 비율 산정 기준" };
            b.add_chunk(Chunk {
                source: s,
                text: text.into(),
                location: at(page, heading),
                ..Default::default()
            })
            .unwrap();
        }
        let bytes = b.build().unwrap();
        let idx = Index::open(&bytes[..]).unwrap();
        let off = Ranking { heading: None, feedback: None, background: None, ..Ranking::DEFAULT };
        let q = weighted_terms(&idx, "간접비 비율", off);
        let plain = rank(&idx, &q, 10, off).unwrap();
        let on = Ranking { heading: Some(Heading::DEFAULT), ..off };
        let with = rank(&idx, &q, 10, on).unwrap();
        assert_eq!(with.iter().map(|s| s.chunk).collect::<Vec<_>>(), [1, 0]);
        let of = |v: &[Scored], c| v.iter().find(|s| s.chunk == c).unwrap().score;
        // Every query term is in page 2's heading: × (1 + 1); none in page 1's: unchanged.
        assert_eq!(of(&with, 1), of(&plain, 1) * 2.0);
        assert_eq!(of(&with, 0), of(&plain, 0));
        // Weight 0 changes nothing.
        let zero = Ranking { heading: Some(Heading { weight: 0.0, ..Heading::DEFAULT }), ..off };
        assert_eq!(rank(&idx, &q, 10, zero).unwrap(), plain);
    }

    #[test]
    fn a_cited_article_ranks_first_and_a_shared_number_alone_cites_nothing() {
        let mut b = IndexBuilder::new("t", AnalyzerSettings::default());
        let s = b.add_source(Source { id: "헌법".into(), ..Default::default() }).unwrap();
        let articles = [
            ("제20조", "제20조 ① 모든 국민은 종교의 자유를 가진다."),
            ("제129조", "제129조 제안된 헌법개정안은 대통령이 20일 이상의 기간 이를 공고하여야 한다."),
            ("제130조", "제130조 ① 국회는 헌법개정안이 공고된 날로부터 60일 이내에 의결하여야 한다."),
        ];
        for (label, text) in articles {
            let location = Location { article: Some(label.into()), ..Default::default() };
            b.add_chunk(Chunk { source: s, text: text.into(), location, ..Default::default() }).unwrap();
        }
        let bytes = b.build().unwrap();
        let idx = Index::open(&bytes[..]).unwrap();
        let off = Ranking { heading: None, feedback: None, background: None, ..Ranking::DEFAULT };
        let chunks = |v: Vec<Scored>| v.iter().map(|s| s.chunk).collect::<Vec<_>>();
        for heading in [Heading::ARTICLES, Heading::DEFAULT] {
            let on = Ranking { heading: Some(heading), ..off };
            for cited in ["헌법 제20조 보여줘", "헌법 20조"] {
                let q = weighted_terms(&idx, cited, on);
                assert_eq!(chunks(rank(&idx, &q, 1, off).unwrap()), [1], "{cited}: BM25 alone");
                assert_eq!(chunks(rank(&idx, &q, 1, on).unwrap()), [0], "{cited}: {heading:?}");
            }
            // The number without 조 cites no article: the scores are BM25's.
            let q = weighted_terms(&idx, "공고 기간 20일", on);
            assert_eq!(rank(&idx, &q, 10, on).unwrap(), rank(&idx, &q, 10, off).unwrap());
        }
    }
}
