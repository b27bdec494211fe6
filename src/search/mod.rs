//! BM25 top-k search over an [`Index`].
//!
//! [`search`] analyzes the query with the index's own analyzer, scores every chunk that contains a
//! query term with [`bm25::term_score`] (term-at-a-time into a dense accumulator), and returns the
//! best `k` as [`Hit`]s carrying their citation. Ties are broken by chunk id, so results are the
//! same on every platform.

pub mod bm25;
pub mod fields;
pub mod lookups;

use serde::{Deserialize, Serialize};

pub use bm25::Bm25Params;
pub use fields::Heading;
pub use lookups::Lookups;

use crate::corpus::Citation;
use crate::error::{Error, Result};
use crate::index::{Index, TermInfo};
use crate::text::Analyzer;

/// The field report's 8.0, stored as the legacy `sufficiency` of an index's meta (round 1's BM25
/// threshold; the gate's judges do not use it).
pub const DEFAULT_SUFFICIENCY: f32 = 8.0;
/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 20_000;
/// Largest k accepted.
pub const MAX_K: usize = 1_000;

/// A chunk and its score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    /// Chunk id.
    pub chunk: u32,
    /// BM25 score.
    pub score: f32,
}

/// One search result with its citation (the `search --jsonl` contract).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    /// 1-based rank.
    pub rank: u32,
    /// BM25 score, rounded to 4 decimals (so that JSON is the same from Rust and from JS).
    pub score: f64,
    /// Chunk id within the index.
    pub chunk: u32,
    /// Source, location, reference date and link.
    #[serde(flatten)]
    pub cite: Citation,
    /// The chunk text.
    pub text: String,
}

fn check_args(query: &str, k: usize) -> Result<()> {
    if query.trim().is_empty() {
        return Err(Error::invalid("query", "empty; pass some words to search for"));
    }
    let n = query.chars().count();
    if n > MAX_QUERY_CHARS {
        return Err(Error::invalid("query", format!("{n} characters, at most {MAX_QUERY_CHARS}")));
    }
    if k == 0 || k > MAX_K {
        return Err(Error::invalid("k", format!("{k}; must be 1..={MAX_K}")));
    }
    Ok(())
}

/// The distinct terms of `query` under the index's analyzer, sorted.
pub fn query_terms<D: AsRef<[u8]> + Clone>(index: &Index<D>, query: &str) -> Vec<String> {
    let mut terms = Analyzer::new(index.meta().analyzer).terms(query);
    crate::sort::sort(&mut terms);
    terms.dedup();
    terms
}

/// Score `terms` (distinct) against every chunk; the best `k`, best first.
///
/// Term at a time into a dense accumulator (one f32 per chunk), terms in the given order, so a
/// chunk's score is the same f32 sum on every platform. Which chunks were touched is tracked only
/// when the query's postings are few next to the chunk count; otherwise the accumulator is scanned
/// (no per-posting bookkeeping in the hot loop).
pub fn top_k<D: AsRef<[u8]> + Clone>(index: &Index<D>, terms: &[String], k: usize) -> Result<Vec<Scored>> {
    let (acc, touched) = accumulate(&Lookups::none(index), terms.iter().map(|t| (t.as_str(), 1.0)))?;
    Ok(best(&acc, touched.as_deref(), k))
}

/// Every chunk's BM25 score for `terms` (distinct, each with a weight multiplying its idf; weight
/// 1 gives plain BM25 bit for bit), dense by chunk id, and the chunks touched when they were
/// tracked (`None`: scan the accumulator).
fn accumulate<'a, D: AsRef<[u8]> + Clone>(
    lookups: &Lookups<'_, D>,
    terms: impl Iterator<Item = (&'a str, f32)>,
) -> Result<(Vec<f32>, Option<Vec<u32>>)> {
    let mut infos = Vec::new();
    for (t, weight) in terms {
        if let Some(info) = lookups.term(t)? {
            infos.push((info, weight));
        }
    }
    score_terms(lookups.index(), &infos)
}

/// [`accumulate`]'s scoring, once its terms are looked up (one copy of the hot loop, whatever
/// iterator the terms came from).
fn score_terms<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    infos: &[(TermInfo, f32)],
) -> Result<(Vec<f32>, Option<Vec<u32>>)> {
    let p = index.meta().bm25;
    // Per chunk, computed at open: the hot loop reads one f32 per posting. The tf part is
    // computed for every posting, tf = 1 included (same bits as a per-chunk tf = 1 table): 60 % of
    // a long question's postings have tf > 1, so a branch on tf = 1 was mispredicted often and cost
    // more than the division it saved.
    let norms = index.length_norms();
    let n = norms.len();
    let postings: u64 = infos.iter().map(|(i, _)| i.df as u64).sum();
    // Tracking touched chunks costs a branch and a store per posting; scanning costs one compare
    // per chunk. Track only when postings are under a quarter of the chunks.
    let track = postings < n as u64 / 4;
    let mut acc = vec![0f32; n];
    let mut touched: Vec<u32> = Vec::new();

    for (info, weight) in infos {
        let mut missing = None;
        let idf = info.idf * weight;
        let acc = &mut acc[..n];
        // A kept list: its tf parts were computed once (same function, same bits), chunks checked.
        if let Some(list) = index.tf_parts(info)? {
            if track {
                for &(doc, part) in list.iter() {
                    if let Some(a) = acc.get_mut(doc as usize) {
                        if *a == 0.0 {
                            touched.push(doc);
                        }
                        *a += idf * part;
                    }
                }
            } else {
                for &(doc, part) in list.iter() {
                    if let Some(a) = acc.get_mut(doc as usize) {
                        *a += idf * part;
                    }
                }
            }
            continue;
        }
        index.postings_blocks(info, |docs, tfs| {
            // Two loops, so that the common one has no per-posting bookkeeping; `d < n` is the
            // one bounds check (acc and norms both have length n).
            if track {
                for (&doc, &tf) in docs.iter().zip(tfs) {
                    let d = doc as usize;
                    if d >= n {
                        missing.get_or_insert(doc);
                        continue;
                    }
                    if acc[d] == 0.0 {
                        touched.push(doc);
                    }
                    acc[d] += idf * bm25::tf_part(p, tf, norms[d]);
                }
            } else {
                for (&doc, &tf) in docs.iter().zip(tfs) {
                    let d = doc as usize;
                    if d >= n {
                        missing.get_or_insert(doc);
                        continue;
                    }
                    // = bm25::weight(p, idf, tf, norm), bit for bit.
                    acc[d] += idf * bm25::tf_part(p, tf, norms[d]);
                }
            }
        })?;
        if let Some(doc) = missing {
            return Err(crate::index::parts::outside(doc));
        }
    }
    Ok((acc, track.then_some(touched)))
}

/// Best first, ties by chunk id: the total order of [`best`]'s results.
fn order(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.score.total_cmp(&a.score).then(a.chunk.cmp(&b.chunk))
}

/// Over this k ([`rank`] reads 200 to collapse locations), [`best`] starts from [`floor`].
const NARROW: usize = 32;

/// A score under which `k` chunks of `acc` (among `touched` when tracked) score at least as
/// high, so no chunk under it is among the k best: [`best`]'s first bar. From a histogram of the
/// scores' top 12 bits (sign, exponent, 3 bits of mantissa: positive f32s order as their bits),
/// the lower edge of the highest bucket at which the counts from the top reach k; 0 when fewer
/// score, or when a score is NaN (a crafted index). With it a long question's ~700 candidates
/// give ~220 binary insertions into rank's list of 200 instead of ~450 (a memmove each: 9 % of
/// a wasm `ask`). A chunk listed twice in `touched` counts twice, as it is offered twice.
fn floor(acc: &[f32], touched: Option<&[u32]>, k: usize) -> f32 {
    let mut counts = vec![0u32; 2048];
    let mut count = |score: f32| {
        // Positive: the sign bit is clear, so under 2048.
        if score > 0.0
            && let Some(c) = counts.get_mut((score.to_bits() >> 20) as usize)
        {
            *c += 1;
        }
        score.is_nan()
    };
    let nan = match touched {
        Some(touched) => {
            touched.iter().fold(false, |nan, &c| count(acc.get(c as usize).copied().unwrap_or(0.0)) | nan)
        }
        None => acc.iter().fold(false, |nan, &score| count(score) | nan),
    };
    if nan {
        return 0.0;
    }
    let mut seen = 0usize;
    for (bucket, &c) in counts.iter().enumerate().rev() {
        seen += c as usize;
        if seen >= k {
            return f32::from_bits((bucket as u32) << 20);
        }
    }
    0.0
}

/// The best `k` chunks by `acc` (among `touched` when tracked), best first, ties by chunk id.
fn best(acc: &[f32], touched: Option<&[u32]>, k: usize) -> Vec<Scored> {
    // Best first, ties by chunk id: a total order. The k best are kept sorted as they come
    // (binary insertion; k is small), which gives exactly what a full sort would. Every term's
    // contribution is positive (idf > 0, weights > 0), so a chunk with a score was touched.
    best_from(acc, touched, k, if k > NARROW { floor(acc, touched, k) } else { 0.0 })
}

/// [`best`] with a first bar: no chunk under `bar` may be among the k best.
fn best_from(acc: &[f32], touched: Option<&[u32]>, k: usize, bar: f32) -> Vec<Scored> {
    // Keep `s` if it is among the k best so far; returns the new bar (the k-th score once k are
    // kept: anything below cannot enter).
    fn offer(scored: &mut Vec<Scored>, k: usize, s: Scored, bar: f32) -> f32 {
        if scored.len() == k && scored.last().is_some_and(|w| order(&s, w).is_ge()) {
            return bar;
        }
        let at = scored.partition_point(|b| order(b, &s).is_lt());
        scored.insert(at, s);
        scored.truncate(k);
        if scored.len() == k { scored.last().map_or(0.0, |w| w.score) } else { bar }
    }
    let mut scored: Vec<Scored> = Vec::with_capacity(k + 1);
    // Most chunks score 0 or under the bar: one compare, no call. A score passes when it is
    // positive and not under the bar; the bar is never negative, so that is "not under
    // max(bar, the least positive f32)" (a NaN bar, from a crafted index, counts as 0), and a NaN
    // score passes, as it always did.
    let cut = |bar: f32| if bar > 0.0 { bar } else { f32::from_bits(1) };
    let mut bar = cut(bar);
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(a < b)`, not `a >= b`: a NaN score passes.
    let passes = |score: f32, bar: f32| !(score < bar);
    match touched {
        Some(touched) => {
            for &chunk in touched {
                let score = acc.get(chunk as usize).copied().unwrap_or(0.0);
                if passes(score, bar) {
                    bar = cut(offer(&mut scored, k, Scored { chunk, score }, bar));
                }
            }
        }
        None => {
            // Eight chunks at a time: one branch for a group none of which passes (the common
            // case once the bar has risen), then chunk by chunk in order as before.
            let mut base = 0u32;
            for group in acc.chunks(8) {
                if group.iter().fold(false, |any, &score| any | passes(score, bar)) {
                    for (j, &score) in group.iter().enumerate() {
                        if passes(score, bar) {
                            bar = cut(offer(&mut scored, k, Scored { chunk: base + j as u32, score }, bar));
                        }
                    }
                }
                base += 8;
            }
        }
    }
    scored
}

/// How an instance ranks chunks beyond plain BM25 ([`rank`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Ranking {
    /// Weight of a query term that only exists as the bigram spanning two words (the last syllable
    /// of one and the first of the next, `AnalyzerSettings::join_words`): "우리 과제" gives 리과,
    /// which matches by accident more often than not. 1 = as any term.
    pub join_weight: f32,
    /// Keep only the best chunk of each location (same citation: source, page, article, section,
    /// heading), so that one page's chunks do not fill the top k.
    pub collapse: bool,
    /// A query's colloquial filler words (있어요, 있어야, 돼 …: `text::korean::is_filler`) give no
    /// terms; documents are indexed in full either way.
    #[serde(default)]
    pub fillers: bool,
    /// Query terms common in general text weigh less ([`Background`]); `None`: every term weighs 1.
    pub background: Option<Background>,
    /// A second pass with terms of the first pass's best chunks when the first pass is weak
    /// ([`Feedback`]); `None`: one pass.
    pub feedback: Option<Feedback>,
    /// The best chunks re-scored by how much of the query their heading holds ([`Heading`]);
    /// `None`: BM25 order.
    #[serde(default)]
    pub heading: Option<Heading>,
    /// Each chunk's score multiplied by its source's weight, when the index stores weights
    /// ([`Index::chunk_weights`]; a manifest's `[source_weights]`); `false`: BM25 alone.
    #[serde(default)]
    pub source_weights: bool,
}

/// Pseudo-relevance feedback, only when the first pass is weak: when the best chunk's score is
/// under `below` × the query's attainable maximum (Σ weight · idf · (k1 + 1) over the query's
/// terms the index has), the `terms` terms found in at least two of the first pass's `depth` best
/// chunks (not in the query), by count × idf, are added at `weight` and the instance ranks again.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Feedback {
    /// Share of the attainable maximum under which the first pass is weak.
    pub below: f32,
    /// First-pass chunks read.
    pub depth: usize,
    /// Terms added at most.
    pub terms: usize,
    /// Weight of an added term (times its idf, as a query term's weight).
    pub weight: f32,
}

impl Feedback {
    /// What [`Ranking::DEFAULT`] uses (chosen on the devset, docs/tools-bench.md).
    pub const DEFAULT: Feedback = Feedback { below: 0.17, depth: 3, terms: 10, weight: 0.3 };
}

/// How a query term's weight falls with how everyday it is: its commonness x = its Zipf frequency
/// in general text (the index's background level ÷ 20, [`Index::background_level`]) plus its idf ÷
/// ln 10, which is about −log10 of its share of the instance's chunks. x is large for a term common
/// in general text and rare in the documents (우리, 알려, 방법 in the R&D manuals), small for the
/// documents' own words (회의비, 연구수당) and for words general text also rarely uses. Weight 1 up to
/// x = `from`, then linearly down to `floor` at x = `to` and beyond. A term general text does not
/// know (level 0) or an index without the background section keeps 1. Only `+ − × ÷` on stored
/// values: the same f32 natively and in wasm.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Background {
    /// Commonness up to which a term keeps its full weight.
    pub from: f32,
    /// Commonness from which a term weighs `floor`.
    pub to: f32,
    /// Weight of the most everyday terms (0–1).
    pub floor: f32,
}

impl Background {
    /// What [`Ranking::DEFAULT`] uses (chosen on the devset, docs/tools-bench.md).
    pub const DEFAULT: Background = Background { from: 8.0, to: 10.0, floor: 0.5 };

    /// The weight of a term of background `level` and inverse document frequency `idf`.
    pub fn weight(&self, level: u8, idf: f32) -> f32 {
        if level == 0 {
            return 1.0;
        }
        let x = level as f32 / 20.0 + idf / core::f32::consts::LN_10;
        if x <= self.from {
            1.0
        } else if x >= self.to || self.to <= self.from {
            self.floor
        } else {
            1.0 - (x - self.from) / (self.to - self.from) * (1.0 - self.floor)
        }
    }
}

impl Ranking {
    /// What the `search` tool uses, and what the gate's judges are meant to see (chosen on the
    /// devset, docs/tools-bench.md).
    pub const DEFAULT: Ranking = Ranking {
        join_weight: 0.75,
        collapse: true,
        fillers: true,
        background: Some(Background::DEFAULT),
        feedback: Some(Feedback::DEFAULT),
        heading: Some(Heading::DEFAULT),
        source_weights: true,
    };
    /// Plain BM25: [`top_k`].
    pub const BM25: Ranking = Ranking {
        join_weight: 1.0,
        collapse: false,
        fillers: false,
        background: None,
        feedback: None,
        heading: None,
        source_weights: false,
    };
}

/// Candidates read to fill the top k with distinct locations.
const COLLAPSE_DEPTH: usize = 200;

/// The distinct terms of `query` under the index's analyzer, sorted, each with its weight under
/// `r` (1, or [`Ranking::join_weight`] for a bigram that only spans two words).
pub fn weighted_terms<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    query: &str,
    r: Ranking,
) -> Vec<(String, f32)> {
    weigh(&Lookups::none(index), &QueryTerms::new(index.meta().analyzer, query, r), r)
}

/// A query's distinct terms under one analyzer's settings and a ranking's analysis (`fillers`,
/// and which terms are join-only bigrams when `join_weight` discounts them), sorted: what
/// [`weigh`] weighs. The same for every index with those settings, so `ask` makes it once for
/// all of them.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryTerms {
    terms: Vec<String>,
    /// Per term: it exists only as the bigram spanning two words (empty when not discounted).
    join_only: Vec<bool>,
}

impl QueryTerms {
    /// `query` analyzed with `settings` as ranking `r` reads it.
    pub fn new(settings: crate::text::AnalyzerSettings, query: &str, r: Ranking) -> Self {
        let analyzer =
            |s| if r.fillers { Analyzer::for_query(s).without_fillers() } else { Analyzer::for_query(s) };
        let mut terms = analyzer(settings).terms(query);
        crate::sort::sort(&mut terms);
        terms.dedup();
        // The terms the words give on their own (no join bigrams), sorted: a query term not among
        // them exists only as a join bigram.
        let join_only = if r.join_weight != 1.0 && settings.join_words {
            let mut plain =
                analyzer(crate::text::AnalyzerSettings { join_words: false, ..settings }).terms(query);
            crate::sort::sort(&mut plain);
            terms.iter().map(|t| plain.binary_search(t).is_err()).collect()
        } else {
            Vec::new()
        };
        QueryTerms { terms, join_only }
    }

    /// The distinct terms, sorted.
    pub fn terms(&self) -> &[String] {
        &self.terms
    }
}

/// Each of `q`'s terms with its weight under `r` in the index of `lookups`: [`Ranking::join_weight`]
/// for a join-only bigram, times the background weight of a term common in general text.
pub fn weigh<D: AsRef<[u8]> + Clone>(
    lookups: &Lookups<'_, D>,
    q: &QueryTerms,
    r: Ranking,
) -> Vec<(String, f32)> {
    let index = lookups.index();
    q.terms
        .iter()
        .enumerate()
        .map(|(n, t)| {
            let mut w = if q.join_only.get(n).copied().unwrap_or(false) { r.join_weight } else { 1.0 };
            if let Some(bg) = r.background {
                // A lookup error is left to the scoring pass, which reports it.
                if let Some(i) = lookups.term(t).ok().flatten()
                    && let Some(level) = index.background_level(i.ordinal)
                {
                    w *= bg.weight(level, i.idf);
                }
            }
            (t.clone(), w)
        })
        .collect()
}

/// The instance's ranking for the weighted query `terms` ([`weighted_terms`]) under `r`: best
/// first, at most `k`.
pub fn rank<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    terms: &[(String, f32)],
    k: usize,
    r: Ranking,
) -> Result<Vec<Scored>> {
    rank_in(&Lookups::none(index), terms, k, r)
}

/// [`rank`] with the terms' lookups shared ([`Lookups`]).
pub fn rank_in<D: AsRef<[u8]> + Clone>(
    lookups: &Lookups<'_, D>,
    terms: &[(String, f32)],
    k: usize,
    r: Ranking,
) -> Result<Vec<Scored>> {
    let index = lookups.index();
    let (mut acc, mut touched) = accumulate(lookups, terms.iter().map(|(t, w)| (t.as_str(), *w)))?;
    // Put back on the query's own scale (what merging instances divides by) after a second pass.
    let mut scale = None;
    if let Some(f) = r.feedback {
        let first = best(&acc, touched.as_deref(), f.depth.max(1));
        if let Some(more) = feedback_terms(lookups, terms, &first, f)?.filter(|m| !m.is_empty()) {
            // The added terms' scores on top of the first pass's (one more accumulator, added
            // chunk by chunk: the same f32 sums everywhere).
            let (extra, _) = accumulate(lookups, more.iter().map(|(t, w)| (t.as_str(), *w)))?;
            for (a, b) in acc.iter_mut().zip(&extra) {
                *a += *b;
            }
            // The chunks either pass touched: a scan of the accumulator finds them in chunk order,
            // as a merged list of both would (and the wasm needs no sort of chunk ids).
            touched = None;
            // The second pass's scores × the query's attainable maximum ÷ the expanded query's.
            let (own, added) = (attainable(lookups, terms)?, attainable(lookups, &more)?);
            if own + added > 0.0 {
                scale = Some(own / (own + added));
            }
        }
    }
    if r.source_weights
        && let Some(weights) = index.chunk_weights()
    {
        // One f32 product a chunk (a chunk without a score stays at 0); the weights are > 0 and
        // finite, checked at open.
        weights.apply(&mut acc);
    }
    let depth = if r.collapse { COLLAPSE_DEPTH.max(k) } else { k };
    let mut ranked = best(&acc, touched.as_deref(), depth.max(r.heading.map_or(0, |h| h.depth)));
    if let Some(h) = r.heading {
        fields::rescore(lookups, terms, &mut ranked, h)?;
    }
    let mut ranked =
        if r.collapse { collapse(index, ranked, k)? } else { ranked.into_iter().take(k).collect() };
    if let Some(scale) = scale {
        for s in &mut ranked {
            s.score *= scale;
        }
    }
    Ok(ranked)
}

/// `s` with its score divided by its chunk's source weight ([`Index::chunk_weights`]; unchanged
/// without weights): the score [`rank`] gave it before weighing.
pub fn unweighted<D: AsRef<[u8]> + Clone>(index: &Index<D>, s: Scored) -> Scored {
    match index.chunk_weights().and_then(|w| w.get(s.chunk)) {
        Some(w) => Scored { score: s.score / w, ..s },
        None => s,
    }
}

/// Σ weight · idf · (k1 + 1) over the weighted `terms` the index has.
fn attainable<D: AsRef<[u8]> + Clone>(lookups: &Lookups<'_, D>, terms: &[(String, f32)]) -> Result<f32> {
    let k1 = lookups.index().meta().bm25.k1 + 1.0;
    let mut sum = 0f32;
    for (t, w) in terms {
        if let Some(i) = lookups.term(t)? {
            sum += w * i.idf * k1;
        }
    }
    Ok(sum)
}

/// The terms a weak first pass (`first`, best first) adds under `f`, or `None` when it is strong.
fn feedback_terms<D: AsRef<[u8]> + Clone>(
    lookups: &Lookups<'_, D>,
    terms: &[(String, f32)],
    first: &[Scored],
    f: Feedback,
) -> Result<Option<Vec<(String, f32)>>> {
    let index = lookups.index();
    let attainable = attainable(lookups, terms)?;
    let Some(top) = first.first() else { return Ok(None) };
    if attainable <= 0.0 || top.score >= f.below * attainable || first.len() < 2 {
        return Ok(None);
    }
    let analyzer = Analyzer::new(index.meta().analyzer);
    // Each chunk's distinct terms, sorted.
    let mut lists: Vec<Vec<String>> = Vec::with_capacity(first.len());
    for s in first {
        let mut ts = analyzer.terms(&index.chunk(s.chunk)?.text);
        crate::sort::sort(&mut ts);
        ts.dedup();
        lists.push(ts);
    }
    // Per term, in term order: in how many of the chunks (a merge of the sorted lists).
    let mut at = vec![0usize; lists.len()];
    let mut cands: Vec<(f32, String)> = Vec::new();
    while let Some(t) = lists.iter().zip(&at).filter_map(|(l, &i)| l.get(i)).min() {
        let mut c = 0u32;
        for (l, i) in lists.iter().zip(at.iter_mut()) {
            if l.get(*i) == Some(t) {
                c += 1;
                *i += 1;
            }
        }
        if c < 2 || terms.iter().any(|(q, _)| q == t) {
            continue;
        }
        if let Some(i) = index.term(t)? {
            cands.push((c as f32 * i.idf, t.clone()));
        }
    }
    crate::sort::sort_by(&mut cands, |a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    Ok(Some(cands.into_iter().take(f.terms).map(|(_, t)| (t, f.weight)).collect()))
}

/// The first `k` of `ranked` whose location is not that of an earlier one.
fn collapse<D: AsRef<[u8]> + Clone>(index: &Index<D>, ranked: Vec<Scored>, k: usize) -> Result<Vec<Scored>> {
    let mut seen: Vec<[u32; 5]> = Vec::with_capacity(k);
    let mut out = Vec::with_capacity(k);
    for s in ranked {
        if out.len() == k {
            break;
        }
        let key = index.chunk_key(s.chunk)?;
        if !seen.contains(&key) {
            seen.push(key);
            out.push(s);
        }
    }
    Ok(out)
}

/// Round a score to 4 decimals, in f64 (deterministic everywhere).
pub fn round4(score: f32) -> f64 {
    (score as f64 * 10_000.0).round() / 10_000.0
}

/// Turn a scored chunk into a [`Hit`] with its citation.
pub fn hit<D: AsRef<[u8]> + Clone>(index: &Index<D>, rank: u32, s: Scored) -> Result<Hit> {
    let chunk = index.chunk(s.chunk)?;
    let source = index.source_head(chunk.source)?;
    Ok(Hit {
        rank,
        score: round4(s.score),
        chunk: s.chunk,
        cite: Citation::new(source, chunk.location),
        text: chunk.text,
    })
}

/// Search `index` for `query`; the best `k` hits with citations.
pub fn search<D: AsRef<[u8]> + Clone>(index: &Index<D>, query: &str, k: usize) -> Result<Vec<Hit>> {
    check_args(query, k)?;
    let terms = query_terms(index, query);
    top_k(index, &terms, k)?.into_iter().enumerate().map(|(i, s)| hit(index, i as u32 + 1, s)).collect()
}

/// [`search`]'s ranked chunks before they become [`Hit`]s, for a host that builds its hits
/// another way ([`Index::citation_ids`] and [`Index::chunk_text_utf16`]: the wasm hit objects);
/// the same arguments checked, the same chunks in the same order.
pub fn search_scored<D: AsRef<[u8]> + Clone>(index: &Index<D>, query: &str, k: usize) -> Result<Vec<Scored>> {
    check_args(query, k)?;
    top_k(index, &query_terms(index, query), k)
}

/// One query term's contribution to one chunk's score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermScore {
    /// The term.
    pub term: String,
    /// Its BM25 contribution, rounded to 4 decimals.
    pub score: f64,
}

/// For each chunk in `chunks`, the query terms it contains and what each contributed, in term order.
pub fn explain<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    terms: &[String],
    chunks: &[u32],
) -> Result<Vec<Vec<TermScore>>> {
    explain_in(&Lookups::none(index), terms, chunks)
}

/// [`explain`] with the terms' lookups shared ([`Lookups`]).
pub fn explain_in<D: AsRef<[u8]> + Clone>(
    lookups: &Lookups<'_, D>,
    terms: &[String],
    chunks: &[u32],
) -> Result<Vec<Vec<TermScore>>> {
    let index = lookups.index();
    let mut out: Vec<Vec<TermScore>> = vec![Vec::new(); chunks.len()];
    let Some(&last) = chunks.iter().max() else { return Ok(out) };
    // The chunks in id order, each with its first place in `chunks` (a repeated chunk is explained
    // at its first place only): each term's (chunk, part) pairs, also in id order, are searched
    // for them in one sweep.
    let mut wanted: Vec<(u32, usize)> = Vec::with_capacity(chunks.len());
    for (i, &c) in chunks.iter().enumerate() {
        // Lists are short (evidence, a page of hits): insertion keeps them sorted.
        let at = wanted.partition_point(|w| w.0 < c);
        if wanted.get(at).is_none_or(|w| w.0 != c) {
            wanted.insert(at, (c, i));
        }
    }
    for t in terms {
        let Some(info) = lookups.term(t)? else { continue };
        // The listed chunks' tf parts: from the term's kept list when scoring has kept it (`ask`
        // explains the chunks its ranking chose), else decoded up to the last listed chunk. idf ×
        // part is `term_score`'s own product (the part from the tf and the chunk's length norm):
        // the same bits. Few chunks are listed (a ranking's top and its evidence): each is found
        // by a binary search from the one before.
        let list = match index.kept_parts(&info) {
            Some(list) => list,
            None => std::sync::Arc::new(index.tf_parts_upto(&info, last)?),
        };
        let mut from = 0;
        for &(c, i) in &wanted {
            from += list[from..].partition_point(|e| e.0 < c);
            if let Some(&(_, part)) = list.get(from).filter(|e| e.0 == c) {
                out[i].push(TermScore { term: t.clone(), score: round4(info.idf * part) });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Chunk, Location, Source};
    use crate::index::IndexBuilder;
    use crate::text::AnalyzerSettings;

    #[test]
    fn a_weak_first_pass_adds_terms_of_its_best_chunks() {
        let bytes = crate::test_index::of_texts(&[
            "밥값 회의비 식비 정산",   // 0: the query's word and the feedback terms
            "회의비 식비 정산 기준",   // 1: the feedback terms only
            "밥값 회의비 식비 영수증", // 2
            "장비 구입 절차",          // 3
            "식비 회의비 정산 사례",   // 4
            "출장 여비",               // 5
        ]);
        let idx = Index::open(&bytes[..]).unwrap();
        let r = Ranking { feedback: None, background: None, collapse: false, ..Ranking::DEFAULT };
        let q = weighted_terms(&idx, "밥값", r);
        let one = rank(&idx, &q, 10, r).unwrap();
        let mut first: Vec<u32> = one.iter().map(|s| s.chunk).collect();
        first.sort_unstable();
        assert_eq!(first, [0, 2]);
        // Weak (any first pass is under 10 × its attainable maximum): 회의비 and 식비 are in both
        // first-pass chunks and come in at 0.5; the chunks with them join the ranking after those.
        let f = Feedback { below: 10.0, depth: 3, terms: 10, weight: 0.5 };
        let two = rank(&idx, &q, 10, Ranking { feedback: Some(f), ..r }).unwrap();
        let ids: Vec<u32> = two.iter().map(|s| s.chunk).collect();
        assert_eq!(ids.len(), 4, "{two:?}");
        assert!(ids[..2].contains(&0) && ids[..2].contains(&2) && ids[2..].contains(&1), "{two:?}");
        assert!(ids.contains(&4) && !ids.contains(&3), "{two:?}");
        // Scores stay on the query's own scale: no better than the attainable maximum allows.
        let own = attainable(&Lookups::none(&idx), &q).unwrap();
        assert!(two.iter().all(|s| s.score <= own), "{two:?} {own}");
        // Strong (nothing is under 0 × the maximum): one pass, the same ranking.
        let strong = Feedback { below: 0.0, ..f };
        assert_eq!(rank(&idx, &q, 10, Ranking { feedback: Some(strong), ..r }).unwrap(), one);
    }

    #[test]
    fn explain_gives_each_listed_chunk_its_terms_in_term_order() {
        let texts: Vec<String> = (0..300u32)
            .map(|i| {
                format!(
                    "회의 {} {}",
                    if i % 3 == 0 { "식비" } else { "장비" },
                    if i % 7 == 0 { "정산 정산" } else { "" }
                )
            })
            .collect();
        let bytes = crate::test_index::of_texts(&texts);
        let idx = Index::open(&bytes[..]).unwrap();
        let terms = query_terms(&idx, "회의 식비 정산 없는말");
        // Unsorted, a repeat (explained at its first place only), chunks in several blocks.
        let chunks = [299u32, 0, 7, 150, 7, 3, 298];
        let got = explain(&idx, &terms, &chunks).unwrap();
        let (p, avg) = (idx.meta().bm25, idx.meta().avg_len());
        for (i, &c) in chunks.iter().enumerate() {
            let mut want = Vec::new();
            if chunks.iter().position(|&x| x == c) == Some(i) {
                for t in &terms {
                    let Some(info) = idx.term(t).unwrap() else { continue };
                    let mut tf = None;
                    idx.postings(&info, |d, f| {
                        if d == c {
                            tf = Some(f)
                        }
                    })
                    .unwrap();
                    if let Some(tf) = tf {
                        let dl = idx.doc_len(c).unwrap() as f32;
                        want.push(TermScore {
                            term: t.clone(),
                            score: round4(bm25::term_score(p, info.idf, tf, dl, avg)),
                        });
                    }
                }
            }
            assert_eq!(got[i], want, "chunk {c} at {i}");
        }
        assert!(got[2].len() == 3 && got[4].is_empty(), "{got:?}");
        // Once scoring has kept the common terms' lists, explaining reads them: the same answer,
        // and each kept pair's idf × part is `term_score`'s value bit for bit.
        assert_eq!(idx.kept_postings(), 0);
        top_k(&idx, &terms, 10).unwrap();
        assert!(idx.kept_postings() >= 300, "{}", idx.kept_postings());
        assert_eq!(explain(&idx, &terms, &chunks).unwrap(), got);
        let mut cut_short = 0;
        for t in &terms {
            let Some(info) = idx.term(t).unwrap() else { continue };
            let Some(list) = idx.kept_parts(&info) else { continue };
            // Decoding now gives the kept list, and a prefix of it up to a chunk's block.
            assert_eq!(idx.tf_parts_upto(&info, u32::MAX).unwrap(), *list);
            let head = idx.tf_parts_upto(&info, 150).unwrap();
            assert!(
                list.starts_with(&head)
                    && head.last().is_some_and(|e| e.0 >= 150 || head.len() == list.len())
            );
            cut_short += usize::from(head.len() < list.len());
            let mut tfs = Vec::new();
            idx.postings(&info, |d, f| tfs.push((d, f))).unwrap();
            assert_eq!(list.len(), tfs.len());
            for (&(d, part), &(d2, tf)) in list.iter().zip(&tfs) {
                let dl = idx.doc_len(d).unwrap() as f32;
                let want = bm25::term_score(p, info.idf, tf, dl, avg);
                assert_eq!((d, (info.idf * part).to_bits()), (d2, want.to_bits()), "{t}");
            }
        }
        assert!(cut_short > 0);
    }

    #[test]
    fn kept_lists_score_the_same_bits_as_decoding() {
        // 300 chunks, common terms in every chunk (kept: df ≥ MIN_DF, more postings than a
        // quarter of the chunks, so not tracked) and rare ones (decoded), tf 1 to 3.
        let texts: Vec<String> = (0..300u32)
            .map(|i| {
                format!(
                    "회의 {} {}",
                    "식비 ".repeat(1 + i as usize % 3),
                    if i % 50 == 0 { "정산" } else { "장비" }
                )
            })
            .collect();
        let bytes = crate::test_index::of_texts(&texts);
        let idx = Index::open(&bytes[..]).unwrap();
        let terms = query_terms(&idx, "회의 식비 정산 장비");
        let (p, avg) = (idx.meta().bm25, idx.meta().avg_len());
        let mut want = vec![0f32; 300];
        for t in &terms {
            let Some(info) = idx.term(t).unwrap() else { continue };
            idx.postings(&info, |d, tf| {
                let dl = idx.doc_len(d).unwrap() as f32;
                want[d as usize] += bm25::term_score(p, info.idf, tf, dl, avg);
            })
            .unwrap();
        }
        assert_eq!(idx.kept_postings(), 0);
        let first = top_k(&idx, &terms, 300).unwrap();
        let kept = idx.kept_postings();
        assert!(kept >= 600, "{kept}");
        // Again, from the kept lists alone.
        assert_eq!(top_k(&idx, &terms, 300).unwrap(), first);
        assert_eq!(idx.kept_postings(), kept);
        for s in &first {
            assert_eq!(s.score.to_bits(), want[s.chunk as usize].to_bits(), "chunk {}", s.chunk);
        }

        // Few postings next to the chunks (tracked), kept lists among them: the bits of the
        // per-posting reference, and lists equal to the decoded postings.
        let texts: Vec<String> = (0..1000u32)
            .map(|i| {
                if i % 25 == 0 {
                    format!("식비 {}", "회의 ".repeat(1 + i as usize % 4))
                } else {
                    "장비".into()
                }
            })
            .collect();
        let bytes = crate::test_index::of_texts(&texts);
        let (fresh, idx) = (Index::open(&bytes[..]).unwrap(), Index::open(&bytes[..]).unwrap());
        let terms = query_terms(&idx, "회의 식비");
        let first = top_k(&idx, &terms, 50).unwrap();
        assert!(idx.kept_postings() >= 80 && first.len() == 40, "{} {}", idx.kept_postings(), first.len());
        assert_eq!(top_k(&idx, &terms, 50).unwrap(), first);
        let (p, avg) = (idx.meta().bm25, idx.meta().avg_len());
        let mut want = vec![0f32; 1000];
        for t in &terms {
            let Some(info) = fresh.term(t).unwrap() else { continue };
            fresh
                .postings(&info, |d, tf| {
                    want[d as usize] +=
                        bm25::term_score(p, info.idf, tf, fresh.doc_len(d).unwrap() as f32, avg)
                })
                .unwrap();
        }
        for s in &first {
            assert_eq!(s.score.to_bits(), want[s.chunk as usize].to_bits(), "chunk {}", s.chunk);
        }
        for t in &terms {
            let Some(info) = idx.term(t).unwrap() else { continue };
            let list = idx.tf_parts(&info).unwrap().unwrap();
            let mut want = Vec::new();
            fresh
                .postings(&info, |d, tf| {
                    want.push((d, bm25::tf_part(idx.meta().bm25, tf, idx.length_norms()[d as usize])))
                })
                .unwrap();
            assert_eq!(&list[..], &want[..], "{t}");
        }
    }

    #[test]
    fn threads_sharing_an_index_keep_each_list_once_and_score_alike() {
        let texts: Vec<String> = (0..400u32)
            .map(|i| format!("회의 {} 장비 {}", "식비 ".repeat(1 + i as usize % 3), i % 7))
            .collect();
        let bytes = crate::test_index::of_texts(&texts);
        let queries = ["회의 식비", "장비 식비 3", "회의 장비", "식비 5 6"];
        // Each query alone, on an index of its own: the reference.
        let want: Vec<Vec<Scored>> = queries
            .iter()
            .map(|q| {
                let fresh = Index::open(&bytes[..]).unwrap();
                top_k(&fresh, &query_terms(&fresh, q), 20).unwrap()
            })
            .collect();
        let shared = Index::open(&bytes[..]).unwrap();
        std::thread::scope(|s| {
            for t in 0..4 {
                let (shared, queries, want) = (&shared, &queries, &want);
                s.spawn(move || {
                    for round in 0..50 {
                        let i = (t + round) % queries.len();
                        assert_eq!(top_k(shared, &query_terms(shared, queries[i]), 20).unwrap(), want[i]);
                    }
                });
            }
        });
        // Every scored term of 32 postings or more kept, each once, whatever thread was first.
        let mut terms: Vec<String> = queries.iter().flat_map(|q| query_terms(&shared, q)).collect();
        terms.sort();
        terms.dedup();
        let held: usize = terms
            .iter()
            .filter_map(|t| shared.term(t).unwrap())
            .filter(|i| i.df >= crate::index::parts::MIN_DF)
            .map(|i| i.df as usize)
            .sum();
        assert!(held >= 1200 && shared.kept_postings() == held, "{held} {}", shared.kept_postings());
    }

    #[test]
    fn the_floor_changes_nothing_but_the_work() {
        let mut g = crate::test_bits::Bits(11);
        for n in [0usize, 1, 40, 200, 2126, 5000] {
            // Few distinct scores (many ties, broken by chunk id), zeros, a spread of magnitudes.
            let acc: Vec<f32> = (0..n)
                .map(|_| match g.next() % 10 {
                    0..=3 => 0.0,
                    4 => 7.25,
                    5 => (g.next() % 1000) as f32 / 997.0,
                    _ => (g.next() % 100_000) as f32 / 13.0,
                })
                .collect();
            let mut touched: Vec<u32> =
                (0..n as u32).filter(|&c| acc[c as usize] != 0.0 || c % 5 == 0).collect();
            if let Some(&c) = touched.get(3) {
                touched.push(c); // a chunk listed twice
            }
            for k in [33usize, 50, 200, 1000] {
                for t in [None, Some(&touched[..])] {
                    let wide = best(&acc, t, k);
                    assert_eq!(wide, best_from(&acc, t, k, 0.0), "n {n} k {k} tracked {}", t.is_some());
                    if n > 1000 {
                        assert!(floor(&acc, t, k) > 0.0);
                    }
                }
            }
        }
        // A NaN (crafted index): no floor, every chunk offered as before.
        assert_eq!(floor(&[1.0, f32::NAN, 2.0], None, 1), 0.0);
        assert_eq!(best(&[1.0, f32::NAN, 2.0], None, 40).len(), 3);
    }

    #[test]
    fn best_is_a_full_sort_of_the_positive_and_nan_scores_cut_to_k() {
        // Zeros of both signs, negatives, the least positive f32, NaNs (a crafted index), ties.
        let odd = [
            0.0,
            -0.0,
            -1.5,
            f32::from_bits(1),
            f32::NAN,
            -f32::NAN,
            3.0,
            3.0,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let mut g = crate::test_bits::Bits(5);
        for n in [0usize, 1, 7, 9, 64, 300] {
            let acc: Vec<f32> = (0..n)
                .map(|_| {
                    if g.next().is_multiple_of(3) {
                        odd[(g.next() % odd.len() as u64) as usize]
                    } else {
                        (g.next() % 50) as f32 / 7.0
                    }
                })
                .collect();
            let mut all: Vec<Scored> = (0..n as u32)
                .map(|chunk| Scored { chunk, score: acc[chunk as usize] })
                .filter(|s| s.score > 0.0 || s.score.is_nan())
                .collect();
            all.sort_by(order);
            let touched: Vec<u32> = (0..n as u32).collect();
            for k in [1usize, 2, 5, 10, 40] {
                let want: Vec<(u32, u32)> =
                    all.iter().take(k).map(|s| (s.chunk, s.score.to_bits())).collect();
                for t in [None, Some(&touched[..])] {
                    let got: Vec<(u32, u32)> =
                        best(&acc, t, k).iter().map(|s| (s.chunk, s.score.to_bits())).collect();
                    assert_eq!(got, want, "n {n} k {k} tracked {}", t.is_some());
                }
            }
        }
    }

    #[test]
    fn everyday_query_terms_weigh_less() {
        let bg = Background::DEFAULT;
        // x = level / 20 + idf / ln 10: 1 up to 8, floor from 10, linear between.
        assert_eq!(bg.weight(0, 30.0), 1.0);
        assert_eq!(bg.weight(100, 2.0 * core::f32::consts::LN_10), 1.0); // x = 5 + 2 = 7
        assert_eq!(bg.weight(120, 0.0), 1.0); // x = 6
        assert_eq!(bg.weight(200, 0.0), 0.5); // x = 10
        assert_eq!(bg.weight(255, 9.0), 0.5);
        let mid = bg.weight(180, 0.0); // x = 9: halfway
        assert!((mid - 0.75).abs() < 1e-6, "{mid}");
        // In an index: 우리 is common in general text and rare in the chunks, 회의 is neither.
        let mut b = IndexBuilder::new("t", AnalyzerSettings::default());
        let s = b.add_source(Source { id: "s".into(), ..Default::default() }).unwrap();
        for i in 0..40 {
            let text = if i == 0 { "우리 회의".to_string() } else { format!("회의 식비 {i}") };
            b.add_chunk(Chunk { source: s, text, ..Default::default() }).unwrap();
        }
        b.background([("우리".to_string(), 140u8), ("회의".to_string(), 100u8)].into_iter().collect());
        let bytes = b.build().unwrap();
        let idx = Index::open(&bytes[..]).unwrap();
        let w = weighted_terms(&idx, "우리 회의", Ranking::DEFAULT);
        let of = |t: &str| w.iter().find(|(u, _)| u == t).map(|x| x.1).unwrap();
        let idf = |t: &str| idx.term(t).unwrap().unwrap().idf;
        assert_eq!(of("우리"), Background::DEFAULT.weight(140, idf("우리")));
        assert!(of("우리") < 1.0 && of("회의") == 1.0, "{w:?}");
        // Plain BM25 weighs every term 1.
        assert!(weighted_terms(&idx, "우리 회의", Ranking::BM25).iter().all(|(_, x)| *x == 1.0));
    }

    #[test]
    fn collapse_keeps_the_best_chunk_of_each_location() {
        let mut b = IndexBuilder::new("t", AnalyzerSettings::default());
        let s = b.add_source(Source { id: "s".into(), ..Default::default() }).unwrap();
        let at = |page| Location { page: Some(page), ..Default::default() };
        for (text, page) in
            [("감리원 교육 기준 감리원", 1), ("감리원 교육", 1), ("감리원 자격", 2), ("계약 절차", 3)]
        {
            b.add_chunk(Chunk { source: s, text: text.into(), location: at(page), ..Default::default() })
                .unwrap();
        }
        // Context words are indexed with the chunk but not stored as its text.
        b.add_chunk_with_context(
            Chunk { source: s, text: "계약 기간".into(), location: at(4), ..Default::default() },
            "감리원".into(),
        )
        .unwrap();
        let bytes = b.build().unwrap();
        let idx = Index::open(&bytes[..]).unwrap();
        let terms = weighted_terms(&idx, "감리원 교육", Ranking::DEFAULT);
        let plain_terms = query_terms(&idx, "감리원 교육");
        let plain =
            rank(&idx, &weighted_terms(&idx, "감리원 교육", Ranking::BM25), 10, Ranking::BM25).unwrap();
        assert_eq!(plain, top_k(&idx, &plain_terms, 10).unwrap());
        assert_eq!(plain.iter().map(|s| s.chunk).collect::<Vec<_>>(), [1, 0, 2, 4]);
        let collapsed = rank(&idx, &terms, 10, Ranking::DEFAULT).unwrap();
        assert_eq!(collapsed.iter().map(|s| s.chunk).collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(collapsed[0].chunk, plain[0].chunk);
        assert_eq!(rank(&idx, &terms, 2, Ranking::DEFAULT).unwrap().len(), 2);
        assert_eq!(idx.chunk(4).unwrap().text, "계약 기간");
        // The join bigram 원교 (감리원 교육) is weighted by join_weight; the others keep 1.
        let r = Ranking { join_weight: 0.25, ..Ranking::DEFAULT };
        let w = weighted_terms(&idx, "감리원 교육", r);
        assert!(w.iter().any(|(t, x)| t == "원교" && *x == 0.25), "{w:?}");
        assert!(w.iter().filter(|(t, _)| t != "원교").all(|(_, x)| *x == 1.0));
        assert_eq!(w.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>(), plain_terms);
    }
}
