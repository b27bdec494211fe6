//! `search {query, instance?, k?, detailed?, fuse?, fuse_k?}`: BM25 over one or all instances,
//! merged so that scores from different instances are comparable ([`merge`](super::merge)),
//! near-identical texts dropped and several chunks of one location kept from crowding the top.
//!
//! With `fuse` — the host's own ranking (e.g. from its embedding search) as stable chunk
//! references `instance:chunk:crc32` ([`ChunkRef`]), best first — the merged BM25 ranking and the
//! host's are fused by reciprocal rank ([`rrf`], k = `fuse_k`, default 60) before the location
//! collapse, the dedup and the output cap. Every reference must name a loaded instance and a
//! chunk whose text is unchanged (else `invalid_argument`); references to instances the call does
//! not cover keep their rank in the host's list but are not returned. Detailed results carry each
//! chunk's `ref`, so a host can take its references from groundgate.

use serde::{Deserialize, Serialize};

use super::cap::Budget;
use super::merge::{self, List, Options, Votes};
use crate::corpus::Citation;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::rerank::fusion::{self, ChunkRef, rrf};
use crate::search::{self as bm25search, MAX_QUERY_CHARS, TermScore};
use crate::text::normalize;

/// Default number of results.
pub const DEFAULT_K: u32 = 5;
/// Largest `k`.
pub const MAX_K: u32 = 50;
/// Chunks retrieved per instance before merging.
const DEPTH: usize = 60;

/// Arguments of `search`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// What to search for.
    pub query: String,
    /// Instance name (default: all).
    #[serde(default)]
    pub instance: Option<String>,
    /// Number of results (1..=50, default 5).
    #[serde(default)]
    pub k: Option<u32>,
    /// Add chunk ids, references, scores and matched terms.
    #[serde(default)]
    pub detailed: bool,
    /// The host's ranking to fuse by RRF, best first.
    #[serde(default)]
    pub fuse: Option<Vec<ChunkRef>>,
    /// The RRF constant (default [`fusion::DEFAULT_K`]).
    #[serde(default)]
    pub fuse_k: Option<u32>,
}

/// Largest `fuse_k`.
pub const MAX_FUSE_K: u32 = 1_000;

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// 1-based rank.
    pub rank: u32,
    /// Instance name.
    pub instance: String,
    /// Source, location, date and link.
    #[serde(flatten)]
    pub cite: Citation,
    /// The chunk text.
    pub text: String,
    /// Chunk id within the instance (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk: Option<u32>,
    /// The chunk's stable reference `instance:chunk:crc32` (detailed), what `fuse` takes.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<ChunkRef>,
    /// The score that ranks results (detailed): the merged score, or the RRF score with `fuse`
    /// (6 decimals then, 4 otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// The instance's BM25 score (detailed), 4 decimals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bm25: Option<f64>,
    /// Matched query terms and their contributions (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<Vec<TermScore>>,
}

/// The result of `search`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    /// The query.
    pub query: String,
    /// Instances searched.
    pub instances: Vec<String>,
    /// Results, best first.
    pub results: Vec<Item>,
    /// Whether text was cut to the output cap.
    pub truncated: bool,
}

/// One result as [`context`] reads it back from a host: its instance, citation and text (the
/// other fields of an [`Item`] are ignored).
#[derive(Deserialize)]
struct Quoted {
    instance: String,
    #[serde(flatten)]
    cite: Citation,
    text: String,
}

/// What [`context`] reads: an [`Output`]'s `results`.
#[derive(Deserialize)]
struct Quotes {
    results: Vec<Quoted>,
}

/// The evidence block for a `search` result given back by a host as JSON (a pull that shows the
/// model what it found): [`context::hits_block`](crate::deliver::context::hits_block), the layout
/// of `ask`'s `context`, each result's text whole. A result without `instance`, `source`, `title`
/// or `text` is an `invalid_argument` error naming what is missing.
pub fn context(json: &str) -> Result<String> {
    let q: Quotes = serde_json::from_str(json).map_err(|e| Error::invalid("result", e.to_string()))?;
    Ok(crate::deliver::context::hits_block(
        q.results.iter().map(|r| (r.instance.as_str(), &r.cite, r.text.as_str())),
    ))
}

/// `ln x` for `x > 0` from `+ − × ÷` only, so that it is bit-identical natively and in wasm.
fn ln(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return 0.0;
    }
    let (mut m, mut e) = (x, 0i32);
    while m > 2.0 {
        m /= 2.0;
        e += 1;
    }
    while m < 1.0 {
        m *= 2.0;
        e -= 1;
    }
    // ln m = 2 atanh((m − 1)/(m + 1)), |y| ≤ 1/3.
    let y = (m - 1.0) / (m + 1.0);
    let (y2, mut term, mut sum) = (y * y, y, 0.0);
    for k in 0..40 {
        sum += term / (2 * k + 1) as f64;
        term *= y2;
    }
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

/// [`List::about`](merge::List::about) of each instance from its terms' document shares: each
/// term some instance has votes for the instances in proportion to its shares there; with
/// [`Votes::Share`] a vote weighs the fourth root of the term's largest share, so a term found in
/// a handful of one instance's chunks (a junk bigram, an everyday word the manuals use once) sways
/// the share less than a term that marks an instance (헌법 in a fifth of the statute's chunks).
fn about_shares(shares: &[Vec<(String, f64)>], votes: Votes) -> Vec<f64> {
    let mut about = vec![0.0; shares.len()];
    // The distinct terms some instance has, in first-seen order (deterministic; the sums below run
    // in this order), each with its first share in every instance — one pass with an ordered map,
    // so a query of thousands of terms costs n log n, not n².
    let mut index: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut table: Vec<Vec<Option<f64>>> = Vec::new();
    for (l, s) in shares.iter().enumerate() {
        for (t, x) in s {
            let i = *index.entry(t.as_str()).or_insert_with(|| {
                table.push(vec![None; shares.len()]);
                table.len() - 1
            });
            table[i][l].get_or_insert(*x);
        }
    }
    let mut total_votes = 0.0;
    for row in &table {
        let of = |l: usize| row[l].unwrap_or(0.0);
        let total: f64 = (0..shares.len()).map(of).sum();
        if total > 0.0 {
            let vote = match votes {
                Votes::Even => 1.0,
                // IEEE square roots: the same bits natively and in wasm.
                Votes::Share => (0..shares.len()).map(of).fold(0.0f64, f64::max).sqrt().sqrt(),
            };
            total_votes += vote;
            for (l, a) in about.iter_mut().enumerate() {
                *a += vote * of(l) / total;
            }
        }
    }
    if total_votes > 0.0 {
        for a in &mut about {
            *a /= total_votes;
        }
    }
    about
}

/// Run `search` with the default merge.
pub fn run(engine: &Engine, a: &Args) -> Result<Output> {
    run_with(engine, a, Options::DEFAULT)
}

/// Run `search` with merge settings `opts` (what the bench compares).
pub fn run_with(engine: &Engine, a: &Args, opts: Options) -> Result<Output> {
    super::check_text("query", &a.query, MAX_QUERY_CHARS)?;
    let k = a.k.unwrap_or(DEFAULT_K);
    super::in_range("k", k as u64, 1, MAX_K as u64)?;
    let names = super::instances(engine, a.instance.as_deref())?;
    let mut lists = Vec::new();
    let mut all_terms = Vec::new();
    // Per instance, per term of the query: the term's document share (df ÷ chunks), 0 if absent.
    let mut shares: Vec<Vec<(String, f64)>> = Vec::new();
    for name in &names {
        let index = engine.index(name)?;
        let weighted = bm25search::weighted_terms(index, &a.query, opts.ranking);
        let meta = index.meta();
        let k1 = meta.bm25.k1 as f64 + 1.0;
        let max_idf = ln(1.0 + (meta.chunks as f64 - 0.5) / 1.5);
        let (mut present, mut all) = (0.0f64, 0.0f64);
        let mut share = Vec::with_capacity(weighted.len());
        for (t, w) in &weighted {
            let w = *w as f64;
            match index.term(t)? {
                Some(info) => {
                    present += w * info.idf as f64 * k1;
                    all += w * info.idf as f64 * k1;
                    share.push((t.clone(), info.df as f64 / (meta.chunks as f64).max(1.0)));
                }
                None => all += w * max_idf * k1,
            }
        }
        shares.push(share);
        let hits = bm25search::rank(index, &weighted, DEPTH, opts.ranking)?;
        let terms: Vec<String> = weighted.into_iter().map(|(t, _)| t).collect();
        lists.push(List {
            hits,
            attainable_present: present as f32,
            attainable_all: all as f32,
            about: 0.0,
            chunks: meta.chunks,
        });
        all_terms.push(terms);
    }
    for (l, about) in about_shares(&shares, opts.votes).into_iter().enumerate() {
        lists[l].about = about;
    }
    let merged = merge::merge(&lists, opts.method, opts.about);
    // (instance position, chunk, ranking score, BM25 score), best first.
    let ranked: Vec<(usize, u32, f64, f32)> = match &a.fuse {
        None => {
            if a.fuse_k.is_some() {
                return Err(Error::invalid("fuse_k", "given without fuse"));
            }
            merged
                .iter()
                .map(|m| (m.list, m.hit.chunk, (m.score * 10_000.0).round() / 10_000.0, m.hit.score))
                .collect()
        }
        Some(theirs) => fused(engine, &names, &all_terms, &merged, theirs, a.fuse_k)?,
    };
    let mut budget = Budget::default();
    let mut results = Vec::new();
    // Linear sets: at most k + DEPTH entries, and no hashing code in the wasm.
    type Loc = (usize, String, Option<u32>, Option<String>, Option<String>);
    let mut seen_loc: Vec<Loc> = Vec::new();
    let mut seen_text: Vec<String> = Vec::new();
    for (list, chunk_id, score, bm25) in ranked {
        if results.len() == k as usize || budget.exhausted() {
            break;
        }
        let index = engine.index(&names[list])?;
        let chunk = index.chunk(chunk_id)?;
        let cite = Citation::new(index.source_head(chunk.source)?, chunk.location.clone());
        let reference = a.detailed.then(|| ChunkRef::of(&names[list], chunk_id, &chunk.text));
        if opts.collapse {
            let loc = (list, cite.source.clone(), cite.page, cite.article.clone(), cite.heading.clone());
            if seen_loc.contains(&loc) {
                continue;
            }
            seen_loc.push(loc);
        }
        if opts.dedup {
            let key: String = normalize(&chunk.text).chars().filter(|c| !c.is_whitespace()).collect();
            if seen_text.contains(&key) {
                continue;
            }
            seen_text.push(key);
        }
        let Some(text) = budget.take(chunk.text) else { break };
        let terms =
            if a.detailed { bm25search::explain(index, &all_terms[list], &[chunk_id])?.pop() } else { None };
        results.push(Item {
            rank: results.len() as u32 + 1,
            instance: names[list].clone(),
            cite,
            text,
            chunk: a.detailed.then_some(chunk_id),
            reference,
            score: a.detailed.then_some(score),
            bm25: a.detailed.then(|| bm25search::round4(bm25)),
            terms,
        });
    }
    Ok(Output { query: a.query.clone(), instances: names, results, truncated: budget.truncated })
}

/// The merged BM25 ranking fused with the host's `theirs` by RRF: (instance position in `names`,
/// chunk, RRF score, BM25 score), best first. Chunks only the host found get their BM25 score
/// computed (0 without a query term); references to loaded instances outside `names` count for
/// the ranks but are not returned.
fn fused(
    engine: &Engine,
    names: &[String],
    terms: &[Vec<String>],
    merged: &[merge::Merged],
    theirs: &[ChunkRef],
    k: Option<u32>,
) -> Result<Vec<(usize, u32, f64, f32)>> {
    let k = k.unwrap_or(fusion::DEFAULT_K);
    super::in_range("fuse_k", k as u64, 0, MAX_FUSE_K as u64)?;
    if theirs.len() > fusion::MAX_LIST {
        return Err(Error::invalid(
            "fuse",
            format!("{} references, at most {}", theirs.len(), fusion::MAX_LIST),
        ));
    }
    for r in theirs {
        let index = engine
            .index(&r.instance)
            .map_err(|_| Error::invalid("fuse", format!("{r}: no instance {:?} is loaded", r.instance)))?;
        r.verify(index)?;
    }
    let mut ours = Vec::with_capacity(merged.len());
    for m in merged {
        let index = engine.index(&names[m.list])?;
        ours.push(ChunkRef::of(&names[m.list], m.hit.chunk, &index.chunk(m.hit.chunk)?.text));
    }
    let mut out = Vec::new();
    for f in rrf(&[ours, theirs.to_vec()], k)? {
        let Some(list) = names.iter().position(|n| *n == f.reference.instance) else { continue };
        let chunk = f.reference.chunk;
        let bm25 = match merged.iter().find(|m| m.list == list && m.hit.chunk == chunk) {
            Some(m) => m.hit.score,
            None => {
                let index = engine.index(&names[list])?;
                let explained = bm25search::explain(index, &terms[list], &[chunk])?;
                // A fold from +0.0: an empty `sum` of floats is −0.0, which would print as -0.0.
                explained.first().map_or(0.0, |t| t.iter().fold(0.0f64, |a, s| a + s.score) as f32)
            }
        };
        out.push((list, chunk, f.score, bm25));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_matches_std_closely() {
        for x in [0.3, 1.0, 1.5, 2.0, 10.0, 12345.678, 1e9] {
            assert!((ln(x) - x.ln()).abs() < 1e-12, "{x}");
        }
        assert_eq!(ln(-1.0), 0.0);
    }

    #[test]
    fn about_shares_sum_to_one_over_known_terms() {
        let s = |v: &[(&str, f64)]| v.iter().map(|(t, x)| (t.to_string(), *x)).collect::<Vec<_>>();
        // "python" is common in instance 0 and rare in 1; "cell" only in 1; "zzz" nowhere.
        let shares = [s(&[("python", 0.3)]), s(&[("python", 0.1), ("cell", 0.2)])];
        let a = about_shares(&shares, Votes::Even);
        assert!((a[0] - 0.75 / 2.0).abs() < 1e-12 && (a[1] - (0.25 + 1.0) / 2.0).abs() < 1e-12, "{a:?}");
        assert_eq!(about_shares(&[s(&[]), s(&[])], Votes::Even), vec![0.0, 0.0]);
        // Votes by share: "python" votes with weight 0.3^¼ (its largest share), "cell" with 0.2^¼.
        let (wp, wc) = (0.3f64.sqrt().sqrt(), 0.2f64.sqrt().sqrt());
        let b = about_shares(&shares, Votes::Share);
        let want = [wp * 0.75 / (wp + wc), (wp * 0.25 + wc) / (wp + wc)];
        assert!((b[0] - want[0]).abs() < 1e-12 && (b[1] - want[1]).abs() < 1e-12, "{b:?}");
        // A term in few chunks of one instance votes less than one that marks another instance.
        let c = about_shares(&[s(&[("junk", 0.0005)]), s(&[("law", 0.2)])], Votes::Share);
        assert!(c[1] > 0.8 && (c[0] + c[1] - 1.0).abs() < 1e-12, "{c:?}");
        assert_eq!(about_shares(&[s(&[("junk", 0.0005)]), s(&[("law", 0.2)])], Votes::Even), vec![0.5, 0.5]);
    }
}
