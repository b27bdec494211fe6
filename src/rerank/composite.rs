//! The deterministic composite (REBEL without a model): a BM25 candidate pool re-scored as
//!
//! ```text
//! composite = relevance (0–10) + Σ wᵢ · propertyᵢ (0–5)
//! ```
//!
//! with every property computed from what the index knows:
//!
//! | property | 0 … 5 |
//! |---|---|
//! | relevance (0–10) | the chunk's BM25 score over the pool's best, × 10 |
//! | depth | ¾ · the share of the query's IDF weight the chunk matches + ¼ · its length over the average length (capped at 1) |
//! | diversity | 1 − the chunk's largest repetition of an already chosen chunk: text overlap ([`overlap`](super::overlap)), the same place in the same source (≥ 0.6), the same source (≥ 0.2) |
//! | clarity | specificity: the share of the chunk's tokens that are query terms, over the pool's best |
//! | authority | the source's class from its `kind` ([`authority_class`]; overridable per kind) |
//! | recency | 5 − age in years against the reference date (default: the newest date in the pool); 0 without a date |
//!
//! Diversity depends on what is already chosen, so the order is built greedily (as maximal
//! marginal relevance does): each step takes the candidate with the highest composite given the
//! chunks chosen before it; ties go to the better BM25 rank. Each [`Composite`] carries its
//! properties, so the detailed format can explain every item.

use serde::{Deserialize, Serialize};

use super::overlap::Shingles;
use crate::corpus::{Chunk, Source};
use crate::error::{Error, Result};
use crate::index::Index;
use crate::search::{Scored, round4};
use crate::text::Analyzer;

/// Default candidate pool: the BM25 top 20.
pub const DEFAULT_POOL: usize = 20;

/// Weights of the secondary properties (each ≥ 0, at most [`MAX_WEIGHT`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    /// Depth of content.
    pub depth: f32,
    /// Diversity (no repetition of what is already chosen).
    pub diversity: f32,
    /// Clarity and specificity.
    pub clarity: f32,
    /// Authority of the source.
    pub authority: f32,
    /// Recency of the source.
    pub recency: f32,
}

/// Largest accepted weight.
pub const MAX_WEIGHT: f32 = 10.0;

impl Default for Weights {
    /// Tuned on the first half of the devset's questions (docs/rerank-bench.md): diversity 1, the
    /// others 0 — on these instances, where one instance's sources share a kind and a date, only
    /// diversity changed what reaches the model. Set the others per instance where sources differ.
    fn default() -> Self {
        Weights { depth: 0.0, diversity: 1.0, clarity: 0.0, authority: 0.0, recency: 0.0 }
    }
}

impl Weights {
    /// Check every weight is finite and in `0..=MAX_WEIGHT`.
    pub fn check(&self) -> Result<()> {
        for (name, w) in self.named() {
            if !(w.is_finite() && (0.0..=MAX_WEIGHT).contains(&w)) {
                return Err(Error::invalid("weights", format!("{name} = {w}; must be 0..={MAX_WEIGHT}")));
            }
        }
        Ok(())
    }

    /// (name, weight) in the fixed criterion order.
    pub fn named(&self) -> [(&'static str, f32); 5] {
        [
            ("depth", self.depth),
            ("diversity", self.diversity),
            ("clarity", self.clarity),
            ("authority", self.authority),
            ("recency", self.recency),
        ]
    }
}

/// Options of [`rerank`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CompositeOptions {
    /// Property weights.
    pub weights: Weights,
    /// The reference date for recency (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`); default: the newest
    /// source date in the pool.
    pub today: Option<String>,
    /// Authority class (0–5) per source kind, in addition to (and overriding) [`authority_class`].
    pub authority: Vec<(String, f32)>,
}

/// The 0–5 secondary properties of one candidate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Properties {
    /// Depth of content.
    pub depth: f64,
    /// Diversity given the chunks chosen before it.
    pub diversity: f64,
    /// Clarity and specificity.
    pub clarity: f64,
    /// Authority of the source.
    pub authority: f64,
    /// Recency of the source.
    pub recency: f64,
}

impl Properties {
    fn values(&self) -> [f64; 5] {
        [self.depth, self.diversity, self.clarity, self.authority, self.recency]
    }
}

/// One reranked candidate and why it stands where it does.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Composite {
    /// Chunk id.
    pub chunk: u32,
    /// Its BM25 score (4 decimals).
    pub bm25: f64,
    /// Its 1-based BM25 rank in the pool.
    pub bm25_rank: u32,
    /// Relevance, 0–10.
    pub relevance: f64,
    /// The secondary properties, 0–5 each.
    pub properties: Properties,
    /// `relevance + Σ wᵢ·propertyᵢ` (4 decimals).
    pub score: f64,
}

/// The authority class (0–5) of a source kind: statutes and regulations 5; manuals, standards and
/// guides 4; help pages, FAQs and case books 3; glossaries, generic documents and web pages 2;
/// anything else 1.
pub fn authority_class(kind: &str) -> f32 {
    match kind {
        "statute" | "law" | "regulation" | "decree" => 5.0,
        "manual" | "standard" | "guide" | "official" => 4.0,
        "help" | "faq" | "casebook" | "case" => 3.0,
        "glossary" | "document" | "page" => 2.0,
        _ => 1.0,
    }
}

/// The (year, month) of a reference date as `today` takes it: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`
/// with a day the month has, else `invalid_argument` — checked whether or not the composite runs,
/// so that a bad date is refused the same way with or without weights.
pub fn reference_month(today: &str) -> Result<(i32, i32)> {
    let bad = || Error::invalid("today", format!("{today:?}; write YYYY, YYYY-MM or YYYY-MM-DD"));
    let (y, m) = year_month(today).ok_or_else(bad)?;
    let parts: Vec<&str> = today.trim().split(['-', '.', '/']).collect();
    if parts.len() > 3 {
        return Err(bad());
    }
    if let Some(d) = parts.get(2) {
        let days = match m {
            2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        if !d.trim().parse::<i32>().is_ok_and(|d| (1..=days).contains(&d)) {
            return Err(bad());
        }
    }
    Ok((y, m))
}

/// A date as (year, month), from `YYYY`, `YYYY-MM`, `YYYY-MM-DD` or `YYYY.MM…`.
fn year_month(date: &str) -> Option<(i32, i32)> {
    let mut parts = date.trim().split(['-', '.', '/']);
    let y: i32 = parts.next()?.trim().parse().ok()?;
    let m: i32 = parts.next().and_then(|m| m.trim().parse().ok()).unwrap_or(1);
    ((1000..=9999).contains(&y) && (1..=12).contains(&m)).then_some((y, m))
}

fn months(ym: (i32, i32)) -> i32 {
    ym.0 * 12 + ym.1 - 1
}

struct Cand {
    scored: Scored,
    rank: u32,
    chunk: Chunk,
    source: Source,
    shingles: Shingles,
    base: Properties,
}

/// Rerank `pool` (BM25 results for the distinct query `terms`, best first) by the composite.
/// Returns every candidate, composite-best first.
pub fn rerank<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    terms: &[String],
    pool: &[Scored],
    opts: &CompositeOptions,
) -> Result<Vec<Composite>> {
    opts.weights.check()?;
    for (kind, class) in &opts.authority {
        if !(class.is_finite() && (0.0..=5.0).contains(class)) {
            return Err(Error::invalid("authority", format!("{kind} = {class}; must be 0..=5")));
        }
    }
    let today = opts.today.as_deref().map(reference_month).transpose()?;
    let analyzer = Analyzer::new(index.meta().analyzer);
    let avg = index.meta().avg_len().max(1.0) as f64;
    // IDF of each query term the index knows: the query's total weight.
    let mut idf: Vec<(&str, f64)> = Vec::new();
    for t in terms {
        if let Some(info) = index.term(t)? {
            idf.push((t.as_str(), info.idf.max(0.0) as f64));
        }
    }
    let total_idf: f64 = idf.iter().map(|x| x.1).sum();
    let best = pool.iter().map(|s| s.score).fold(0f32, f32::max) as f64;
    let mut cands = Vec::with_capacity(pool.len());
    let mut specificity = Vec::with_capacity(pool.len());
    for (i, s) in pool.iter().enumerate() {
        let chunk = index.chunk(s.chunk)?;
        let source = index.source_head(chunk.source)?;
        let tokens = analyzer.analyze(&chunk.text);
        let mut matched_idf = 0.0;
        for (t, w) in &idf {
            if tokens.iter().any(|k| k.term == *t) {
                matched_idf += w;
            }
        }
        let in_query = tokens.iter().filter(|k| idf.iter().any(|(t, _)| *t == k.term)).count();
        specificity.push(if tokens.is_empty() { 0.0 } else { in_query as f64 / tokens.len() as f64 });
        let coverage = if total_idf > 0.0 { matched_idf / total_idf } else { 0.0 };
        let len = index.doc_len(s.chunk)? as f64;
        let depth = 5.0 * (0.75 * coverage + 0.25 * (len / avg).min(1.0));
        let authority = opts
            .authority
            .iter()
            .find(|(k, _)| *k == source.kind)
            .map_or_else(|| authority_class(&source.kind), |(_, c)| *c) as f64;
        cands.push(Cand {
            scored: *s,
            rank: i as u32 + 1,
            shingles: Shingles::of(&chunk.text),
            base: Properties { depth, authority, ..Default::default() },
            chunk,
            source,
        });
    }
    let newest =
        today.or_else(|| cands.iter().filter_map(|c| c.source.date.as_deref().and_then(year_month)).max());
    let best_spec = specificity.iter().copied().fold(0.0, f64::max);
    for (c, spec) in cands.iter_mut().zip(&specificity) {
        c.base.clarity = if best_spec > 0.0 { 5.0 * spec / best_spec } else { 0.0 };
        c.base.recency = match (newest, c.source.date.as_deref().and_then(year_month)) {
            (Some(now), Some(d)) => (5.0 - (months(now) - months(d)).max(0) as f64 / 12.0).clamp(0.0, 5.0),
            _ => 0.0,
        };
    }
    let w = opts.weights.named().map(|(_, w)| w as f64);
    let mut chosen: Vec<usize> = Vec::with_capacity(cands.len());
    let mut out: Vec<Composite> = Vec::with_capacity(cands.len());
    let mut left: Vec<usize> = (0..cands.len()).collect();
    while !left.is_empty() {
        let mut pick: Option<(usize, f64, Properties)> = None;
        for (li, &ci) in left.iter().enumerate() {
            let c = &cands[ci];
            let mut redundancy: f64 = 0.0;
            for &o in &chosen {
                let o = &cands[o];
                let mut r = c.shingles.overlap(&o.shingles);
                if c.chunk.source == o.chunk.source {
                    r = r.max(0.2);
                    if same_place(&c.chunk, &o.chunk) {
                        r = r.max(0.6);
                    }
                }
                redundancy = redundancy.max(r);
            }
            let p = Properties { diversity: 5.0 * (1.0 - redundancy), ..c.base };
            let relevance = if best > 0.0 { 10.0 * c.scored.score as f64 / best } else { 0.0 };
            let score = relevance + p.values().iter().zip(&w).map(|(p, w)| p * w).sum::<f64>();
            // Strictly greater: ties keep the earlier (better BM25) candidate.
            if pick.as_ref().is_none_or(|(_, s, _)| score > *s) {
                pick = Some((li, score, p));
            }
        }
        let Some((li, score, p)) = pick else { break };
        let ci = left.remove(li);
        let c = &cands[ci];
        let relevance = if best > 0.0 { 10.0 * c.scored.score as f64 / best } else { 0.0 };
        out.push(Composite {
            chunk: c.scored.chunk,
            bm25: round4(c.scored.score),
            bm25_rank: c.rank,
            relevance: r4(relevance),
            properties: Properties {
                depth: r4(p.depth),
                diversity: r4(p.diversity),
                clarity: r4(p.clarity),
                authority: r4(p.authority),
                recency: r4(p.recency),
            },
            score: r4(score),
        });
        chosen.push(ci);
    }
    Ok(out)
}

fn r4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The same printed page, article or heading.
fn same_place(a: &Chunk, b: &Chunk) -> bool {
    let (x, y) = (&a.location, &b.location);
    (x.page.is_some() && x.page == y.page)
        || (x.article.is_some() && x.article == y.article && x.section == y.section)
        || (x.page.is_none() && x.article.is_none() && x.heading.is_some() && x.heading == y.heading)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_is_a_date_the_calendar_has() {
        for ok in ["2026", "2026-02", "2024-02-29", "2026.12.31", " 2026-1-5 "] {
            assert!(reference_month(ok).is_ok(), "{ok}");
        }
        for bad in [
            "garbage",
            "2024-02-30",
            "2023-02-29",
            "2026-04-31",
            "2026-13",
            "2026-12-00",
            "2026-12-01-01",
            "",
        ] {
            assert_eq!(reference_month(bad).unwrap_err().code(), "invalid_argument", "{bad}");
        }
    }
    use crate::corpus::Location;
    use crate::search::{query_terms, top_k};
    use crate::{AnalyzerSettings, IndexBuilder};

    fn index() -> Vec<u8> {
        let mut b = IndexBuilder::new("t", AnalyzerSettings::default());
        let law = b
            .add_source(Source {
                id: "law".into(),
                title: "법".into(),
                kind: "statute".into(),
                date: Some("2020-01".into()),
                ..Default::default()
            })
            .unwrap();
        let faq = b
            .add_source(Source {
                id: "faq".into(),
                title: "FAQ".into(),
                kind: "faq".into(),
                date: Some("2025-01".into()),
                ..Default::default()
            })
            .unwrap();
        let at = |p| Location { page: Some(p), ..Default::default() };
        let text = "연구개발비의 사용 기준은 연구개발기관의 장이 정한다. 연구개발비는 용도에 맞게 사용한다.";
        // Chunk 0 and 1: the same text on the same page (a repeated excerpt).
        for _ in 0..2 {
            b.add_chunk(Chunk { source: law, text: text.into(), location: at(3), ..Default::default() })
                .unwrap();
        }
        b.add_chunk(Chunk {
            source: faq,
            text: "간접비에 관한 질문: 간접비도 연구개발비에 포함되나요?".into(),
            location: at(9),
            ..Default::default()
        })
        .unwrap();
        b.add_chunk(Chunk {
            source: law,
            text: "사업자는 계약을 체결한다.".into(),
            location: at(4),
            ..Default::default()
        })
        .unwrap();
        b.build().unwrap()
    }

    fn run(opts: &CompositeOptions) -> Vec<Composite> {
        let bytes = index();
        let idx = Index::open(&bytes[..]).unwrap();
        let terms = query_terms(&idx, "연구개발비 사용 기준");
        let pool = top_k(&idx, &terms, DEFAULT_POOL).unwrap();
        rerank(&idx, &terms, &pool, opts).unwrap()
    }

    #[test]
    fn relevance_only_keeps_bm25_order() {
        let w = Weights { depth: 0.0, diversity: 0.0, clarity: 0.0, authority: 0.0, recency: 0.0 };
        let got = run(&CompositeOptions { weights: w, ..Default::default() });
        let ranks: Vec<u32> = got.iter().map(|c| c.bm25_rank).collect();
        assert_eq!(ranks, [1, 2, 3]);
        assert_eq!(got[0].relevance, 10.0);
        assert_eq!(got[0].score, 10.0);
    }

    #[test]
    fn diversity_demotes_the_repeated_excerpt() {
        let w = Weights { depth: 0.0, diversity: 2.0, clarity: 0.0, authority: 0.0, recency: 0.0 };
        let got = run(&CompositeOptions { weights: w, ..Default::default() });
        let chunks: Vec<u32> = got.iter().map(|c| c.chunk).collect();
        assert_eq!(chunks, [0, 2, 1], "{got:#?}");
        assert_eq!(got[0].properties.diversity, 5.0);
        assert_eq!(got[2].properties.diversity, 0.0);
        assert!(got.iter().all(|c| c.properties.depth > 0.0 && c.properties.depth <= 5.0));
    }

    #[test]
    fn authority_and_recency_come_from_the_source() {
        let got = run(&CompositeOptions {
            weights: Weights { depth: 0.0, diversity: 0.0, clarity: 0.0, authority: 1.0, recency: 0.0 },
            ..Default::default()
        });
        let faq = got.iter().find(|c| c.chunk == 2).unwrap();
        assert_eq!(faq.properties.authority, 3.0);
        assert_eq!(faq.properties.recency, 5.0, "newest in the pool");
        let law = got.iter().find(|c| c.chunk == 0).unwrap();
        assert_eq!(law.properties.authority, 5.0);
        assert_eq!(law.properties.recency, 0.0, "five years older");
        let got = run(&CompositeOptions {
            today: Some("2022-01-15".into()),
            authority: vec![("faq".into(), 5.0)],
            ..Default::default()
        });
        let law = got.iter().find(|c| c.chunk == 0).unwrap();
        assert_eq!(law.properties.recency, 3.0);
        assert_eq!(got.iter().find(|c| c.chunk == 2).unwrap().properties.authority, 5.0);
    }

    #[test]
    fn bad_options_are_typed_errors() {
        let bytes = index();
        let idx = Index::open(&bytes[..]).unwrap();
        let bad = [
            CompositeOptions { weights: Weights { depth: -1.0, ..Default::default() }, ..Default::default() },
            CompositeOptions {
                weights: Weights { recency: f32::NAN, ..Default::default() },
                ..Default::default()
            },
            CompositeOptions { today: Some("yesterday".into()), ..Default::default() },
            CompositeOptions { authority: vec![("faq".into(), 9.0)], ..Default::default() },
        ];
        for o in bad {
            assert_eq!(rerank(&idx, &[], &[], &o).unwrap_err().code(), "invalid_argument");
        }
        assert!(rerank(&idx, &[], &[], &CompositeOptions::default()).unwrap().is_empty());
        let ghost = [Scored { chunk: 99, score: 1.0 }];
        assert!(rerank(&idx, &[], &ghost, &CompositeOptions::default()).is_err());
    }

    #[test]
    fn dates_parse_loosely_but_safely() {
        assert_eq!(year_month("2026-06"), Some((2026, 6)));
        assert_eq!(year_month("1987-10-29"), Some((1987, 10)));
        assert_eq!(year_month("2024"), Some((2024, 1)));
        assert_eq!(year_month("2024.3."), Some((2024, 3)));
        assert_eq!(year_month("2024-13"), None);
        assert_eq!(year_month("soon"), None);
    }
}
