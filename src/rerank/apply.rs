//! Reordering a candidate pool before the budget: the options `ask` takes
//! ([`RerankOptions`]) and [`reorder`], which runs RRF with the host's list and then the composite.
//!
//! The pool is one instance's BM25 top [`RerankOptions::pool`]. With a host `ranking`, the pool is
//! first fused with it by RRF ([`fusion::fuse_instance`]; the host's chunks that BM25 did not find
//! join the pool) — or, with [`Mode::Order`], taken as the order itself: the host's chunks of this
//! instance first, in its order, then the rest of the pool in BM25 order (how a REBEL reply's
//! order, [`super::host`], is applied before the budget). With composite `weights`, the (fused) pool is then re-scored by the composite,
//! whose relevance is the fused score when there was a fusion and the BM25 score otherwise. The
//! result keeps every chunk's BM25 score, so hits and evidence still report BM25.
//!
//! In `ask`, the gates' judges still see the BM25 top k as found (they are calibrated on BM25
//! scores and coverage): fusion and the composite change *which* chunks are injected and in what
//! order, not whether the prompt is pushed.

use serde::{Deserialize, Serialize};

use super::composite::{self, CompositeOptions, DEFAULT_POOL, Weights};
use super::fusion::{self, ChunkRef, DEFAULT_K, MAX_LIST};
use crate::error::{Error, Result};
use crate::index::Index;
use crate::search::{self, Scored};

/// Largest candidate pool.
pub const MAX_POOL: usize = 200;

/// How to reorder the candidates (an `ask` option).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RerankOptions {
    /// Re-score the pool by the composite with these weights.
    pub weights: Option<Weights>,
    /// The composite's reference date for recency (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`; default:
    /// the newest source date in the pool).
    pub today: Option<String>,
    /// The host's ranked chunk references (best first), fused by RRF.
    pub ranking: Vec<ChunkRef>,
    /// RRF constant (default [`DEFAULT_K`]).
    pub k: Option<u32>,
    /// Candidate pool per instance (default [`DEFAULT_POOL`], at most [`MAX_POOL`]).
    pub pool: Option<usize>,
    /// How the host's `ranking` is applied (default [`Mode::Rrf`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
}

/// How a host's ranking is applied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Fused with BM25's by reciprocal rank.
    #[default]
    Rrf,
    /// Taken as the order: the host's chunks first, in its order, then the rest of the pool in
    /// BM25 order (e.g. a REBEL reply's order; no composite on top).
    Order,
}

impl RerankOptions {
    /// Does it change anything?
    pub fn is_active(&self) -> bool {
        self.weights.is_some() || !self.ranking.is_empty()
    }

    /// The candidate pool size.
    pub fn pool(&self) -> usize {
        self.pool.unwrap_or(DEFAULT_POOL)
    }

    /// Check the sizes, the weights and the reference date.
    /// Without the feature `rerank` (left out of the browser build pkg/web) an active option is
    /// refused with `invalid_argument` instead of being ignored.
    pub fn check(&self) -> Result<()> {
        // A reference date is refused too: it has no use there, and checking it would link the
        // date parser into the browser build (+0.5 KB gzipped).
        #[cfg(not(feature = "rerank"))]
        if self.is_active() || self.today.is_some() {
            return Err(Error::invalid(
                "rerank",
                "reranking is not in this build (the browser build pkg/web leaves it out: use pkg/node, pkg/abi or the CLI)",
            ));
        }
        let pool = self.pool();
        if pool == 0 || pool > MAX_POOL {
            return Err(Error::invalid("rerank.pool", format!("{pool}; must be 1..={MAX_POOL}")));
        }
        if self.ranking.len() > MAX_LIST {
            return Err(Error::invalid(
                "rerank.ranking",
                format!("{} references, at most {MAX_LIST}", self.ranking.len()),
            ));
        }
        if let Some(w) = &self.weights {
            w.check()?;
        }
        #[cfg(feature = "rerank")]
        if let Some(t) = &self.today {
            super::composite::reference_month(t)?;
        }
        if self.mode == Some(Mode::Order) && self.weights.is_some() {
            return Err(Error::invalid(
                "rerank.mode",
                "\"order\" takes the host's ranking as the final order; leave out weights",
            ));
        }
        Ok(())
    }
}

/// One reordered candidate and why it stands there (for the detailed format).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ranked {
    /// Chunk id.
    pub chunk: u32,
    /// Its BM25 score (computed for chunks only the host found).
    pub bm25: f32,
    /// Its RRF score and its ranks (BM25, host), when there was a fusion.
    pub fused: Option<(f64, [Option<u32>; 2])>,
    /// Its composite, when there were weights.
    pub composite: Option<composite::Composite>,
    /// Its ranks (BM25, host) when the host's ranking was taken as the order ([`Mode::Order`]).
    pub order: Option<[Option<u32>; 2]>,
}

impl Ranked {
    /// One line explaining the position, e.g.
    /// `rerank: rrf 0.0325 (bm25 #2, host #1) · composite 14.2 = relevance 10 + 1·diversity 4.2`.
    pub fn line(&self, weights: &Weights) -> String {
        let mut parts: Vec<String> = Vec::new();
        let rank = |r: Option<u32>| r.map_or_else(|| "–".to_string(), |r| format!("#{r}"));
        if let Some([a, b]) = self.order {
            parts.push(format!("host order (bm25 {}, host {})", rank(a), rank(b)));
        }
        if let Some((score, [a, b])) = self.fused {
            parts.push(format!("rrf {score} (bm25 {}, host {})", rank(a), rank(b)));
        }
        if let Some(c) = &self.composite {
            let p = c.properties;
            let mut f = format!("composite {} = relevance {}", c.score, c.relevance);
            for ((name, w), v) in
                weights.named().iter().zip([p.depth, p.diversity, p.clarity, p.authority, p.recency])
            {
                if *w > 0.0 {
                    f.push_str(&format!(" + {w}·{name} {v}"));
                }
            }
            parts.push(f);
        }
        format!("rerank: {}", parts.join(" · "))
    }
}

/// Reorder one instance's BM25 `pool` (best first, for the distinct query `terms`) as `opts` say.
/// Returns the chunks in their new order with their BM25 scores.
pub fn reorder<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    instance: &str,
    terms: &[String],
    pool: &[Scored],
    opts: &RerankOptions,
) -> Result<Vec<Scored>> {
    Ok(reorder_explained(index, instance, terms, pool, opts)?
        .iter()
        .map(|r| Scored { chunk: r.chunk, score: r.bm25 })
        .collect())
}

/// [`reorder`] with each candidate's explanation.
pub fn reorder_explained<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    instance: &str,
    terms: &[String],
    pool: &[Scored],
    opts: &RerankOptions,
) -> Result<Vec<Ranked>> {
    opts.check()?;
    let mut list: Vec<Ranked> = pool
        .iter()
        .map(|s| Ranked { chunk: s.chunk, bm25: s.score, fused: None, composite: None, order: None })
        .collect();
    if !opts.ranking.is_empty() && opts.mode == Some(Mode::Order) {
        return host_order(index, instance, terms, pool, &opts.ranking);
    }
    if !opts.ranking.is_empty() {
        let fused = fusion::fuse_instance(index, instance, pool, &opts.ranking, opts.k.unwrap_or(DEFAULT_K))?;
        let extra: Vec<u32> =
            fused.iter().map(|f| f.reference.chunk).filter(|c| !pool.iter().any(|p| p.chunk == *c)).collect();
        let explained = search::explain(index, terms, &extra)?;
        list = fused
            .iter()
            .map(|f| {
                let chunk = f.reference.chunk;
                let bm25 = match pool.iter().find(|p| p.chunk == chunk) {
                    Some(p) => p.score,
                    // Chunks only the host found: their BM25 score, computed.
                    None => extra
                        .iter()
                        .position(|c| *c == chunk)
                        .map_or(0.0, |i| explained[i].iter().fold(0.0f64, |a, t| a + t.score) as f32),
                };
                let ranks = [f.ranks.first().copied().flatten(), f.ranks.get(1).copied().flatten()];
                Ranked { chunk, bm25, fused: Some((f.score, ranks)), composite: None, order: None }
            })
            .collect();
    }
    if let Some(weights) = opts.weights {
        let c = CompositeOptions { weights, today: opts.today.clone(), authority: Vec::new() };
        // Relevance from the fused score when there was a fusion, else from BM25.
        let input: Vec<Scored> = list
            .iter()
            .map(|r| Scored { chunk: r.chunk, score: r.fused.map_or(r.bm25, |f| f.0 as f32) })
            .collect();
        let ranked = composite::rerank(index, terms, &input, &c)?;
        let mut out = Vec::with_capacity(ranked.len());
        for comp in ranked {
            if let Some(r) = list.iter().find(|r| r.chunk == comp.chunk) {
                out.push(Ranked { composite: Some(comp), ..r.clone() });
            }
        }
        list = out;
    }
    Ok(list)
}

/// [`Mode::Order`]: the host's chunks of `instance` (verified) in the host's order, then the rest
/// of `pool` in BM25 order. A host's rank counts its whole list.
fn host_order<D: AsRef<[u8]> + Clone>(
    index: &Index<D>,
    instance: &str,
    terms: &[String],
    pool: &[Scored],
    ranking: &[ChunkRef],
) -> Result<Vec<Ranked>> {
    let bm25_rank = |chunk: u32| pool.iter().position(|p| p.chunk == chunk).map(|i| i as u32 + 1);
    let mut out: Vec<Ranked> = Vec::new();
    let mut extra: Vec<u32> = Vec::new();
    for (i, r) in ranking.iter().enumerate() {
        if r.instance != instance {
            continue;
        }
        r.verify(index)?;
        if out.iter().any(|x| x.chunk == r.chunk) {
            return Err(Error::invalid("ranking", format!("{r} appears twice in the supplied list")));
        }
        let bm25 = match bm25_rank(r.chunk) {
            Some(at) => pool[at as usize - 1].score,
            None => {
                extra.push(r.chunk);
                0.0
            }
        };
        let order = Some([bm25_rank(r.chunk), Some(i as u32 + 1)]);
        out.push(Ranked { chunk: r.chunk, bm25, fused: None, composite: None, order });
    }
    // Chunks only the host found: their BM25 score, computed.
    let explained = search::explain(index, terms, &extra)?;
    for (c, e) in extra.iter().zip(&explained) {
        if let Some(x) = out.iter_mut().find(|x| x.chunk == *c) {
            x.bm25 = e.iter().fold(0.0f64, |a, t| a + t.score) as f32;
        }
    }
    for (i, p) in pool.iter().enumerate() {
        if !out.iter().any(|x| x.chunk == p.chunk) {
            let order = Some([Some(i as u32 + 1), None]);
            out.push(Ranked { chunk: p.chunk, bm25: p.score, fused: None, composite: None, order });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Chunk, Source};
    use crate::{AnalyzerSettings, IndexBuilder};

    #[test]
    fn check_without_the_feature_refuses_an_active_option_only() {
        let idle = RerankOptions::default();
        assert!(idle.check().is_ok());
        let active = RerankOptions { weights: Some(Weights::default()), ..RerankOptions::default() };
        let got = active.check();
        if cfg!(feature = "rerank") {
            assert!(got.is_ok());
        } else {
            assert!(matches!(&got, Err(e) if e.code() == "invalid_argument"), "{got:?}");
        }
    }

    #[test]
    #[cfg(feature = "rerank")]
    fn fuses_then_rescores_and_keeps_bm25_scores() {
        let mut b = IndexBuilder::new("t", AnalyzerSettings::default());
        let s = b.add_source(Source { id: "s".into(), kind: "manual".into(), ..Default::default() }).unwrap();
        let texts = ["감리원 교육 기준", "감리원 교육 기준", "감리원 자격", "계약 체결 절차"];
        for t in texts {
            b.add_chunk(Chunk { source: s, text: t.into(), ..Default::default() }).unwrap();
        }
        let bytes = b.build().unwrap();
        let idx = Index::open(&bytes[..]).unwrap();
        let terms = search::query_terms(&idx, "감리원 교육");
        let pool = search::top_k(&idx, &terms, 20).unwrap();
        assert_eq!(pool.iter().map(|s| s.chunk).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(reorder(&idx, "t", &terms, &pool, &RerankOptions::default()).unwrap(), pool);
        // The host puts chunk 3 (no query term) first: it joins the pool with its BM25 score 0.
        let host = RerankOptions { ranking: vec![ChunkRef::of("t", 3, texts[3])], ..Default::default() };
        let got = reorder(&idx, "t", &terms, &pool, &host).unwrap();
        assert_eq!(got.iter().map(|s| s.chunk).collect::<Vec<_>>(), [0, 3, 1, 2]);
        assert!(got[1].score == 0.0 && got[1].score.is_sign_positive(), "{}", got[1].score);
        assert_eq!(got[0].score, pool[0].score);
        // Diversity moves the duplicate (chunk 1) below chunk 2.
        let w = Weights { depth: 0.0, diversity: 2.0, clarity: 0.0, authority: 0.0, recency: 0.0 };
        let comp = RerankOptions { weights: Some(w), ..Default::default() };
        let got = reorder(&idx, "t", &terms, &pool, &comp).unwrap();
        assert_eq!(got.iter().map(|s| s.chunk).collect::<Vec<_>>(), [0, 2, 1]);
        // Explained: both steps, one line each.
        let both = RerankOptions { weights: Some(w), ..host };
        let ex = reorder_explained(&idx, "t", &terms, &pool, &both).unwrap();
        assert_eq!(ex.len(), 4);
        let line = ex[0].line(&w);
        assert!(line.starts_with("rerank: rrf 0.016393 (bm25 #1, host –) · composite "), "{line}");
        assert!(line.contains(" + 2·diversity 5") && !line.contains("depth"), "{line}");
        assert_eq!(ex.iter().find(|r| r.chunk == 3).unwrap().fused.unwrap().1, [None, Some(1)]);
        // The host's order taken as it is (a REBEL reply): chunk 3, then 2, then the rest in BM25
        // order; the explanation names both ranks.
        let order = RerankOptions {
            ranking: vec![ChunkRef::of("t", 3, texts[3]), ChunkRef::of("t", 2, texts[2])],
            mode: Some(Mode::Order),
            ..Default::default()
        };
        let ex = reorder_explained(&idx, "t", &terms, &pool, &order).unwrap();
        assert_eq!(ex.iter().map(|r| r.chunk).collect::<Vec<_>>(), [3, 2, 0, 1]);
        assert_eq!(ex[1].bm25, pool[2].score);
        assert!(ex[0].bm25 == 0.0 && ex[0].bm25.is_sign_positive());
        assert_eq!(ex[1].line(&w), "rerank: host order (bm25 #3, host #2)");
        assert_eq!(ex[2].line(&w), "rerank: host order (bm25 #1, host –)");
        let twice = RerankOptions {
            ranking: vec![ChunkRef::of("t", 2, texts[2]), ChunkRef::of("t", 2, texts[2])],
            ..order.clone()
        };
        let stale = RerankOptions { ranking: vec![ChunkRef::of("t", 2, "old")], ..order.clone() };
        for bad in [
            RerankOptions { pool: Some(0), ..Default::default() },
            RerankOptions { pool: Some(999), ..Default::default() },
            RerankOptions { weights: Some(w), ..order.clone() },
            twice,
            stale,
        ] {
            assert_eq!(reorder(&idx, "t", &terms, &pool, &bad).unwrap_err().code(), "invalid_argument");
        }
    }
}
