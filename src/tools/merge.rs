//! Merging ranked lists from several instances into one ranking.
//!
//! Raw BM25 scores are not comparable across indexes (each has its own IDFs, lengths and query
//! terms it knows), so [`merge`] puts each instance's scores on a common scale first. The methods
//! are measured by `benches/tools.rs` and `benches/levers.rs` (docs/tools-bench.md);
//! [`Options::DEFAULT`] is the one chosen there on the tuning data.

use serde::{Deserialize, Serialize};

use crate::search::Scored;

/// How scores from different instances are made comparable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Raw BM25 scores as they are.
    Raw,
    /// Score ÷ the query's attainable maximum in that instance: Σ over the query's terms of
    /// idf·(k1 + 1), a term the instance lacks counted at the instance's largest idf.
    Attainable,
    /// Score ÷ the query's attainable maximum over the terms the instance has.
    AttainablePresent,
    /// Score ÷ the instance's top score.
    Top,
    /// (score − mean) ÷ standard deviation over the instance's retrieved list.
    ZScore,
    /// Reciprocal rank fusion, 1 ÷ (60 + rank).
    Rrf,
    /// Round robin by rank, instances ordered by their top score.
    Interleave,
    /// The attainable ratio calibrated by the instance's share of the query and its size:
    /// ratio × (n · [`List::about`])^½ × chunks^−⅛, monotone in the log-odds of a logistic model
    /// of "this hit is a gold location" over ln ratio, ln (n · about) and ln chunks fitted on the
    /// tuning data (docs/tools-bench.md, merge section, session 6; fitted power ratios 0.4–0.75
    /// and −0.1 to −0.15 measure the same). A small instance's ratios run lower (its idfs are
    /// capped by ln of its size) while its hits are more often the gold. [`Options::about`] does
    /// not apply (the share is in the calibration).
    Calibrated,
}

impl Method {
    /// Every method (what the bench compares).
    pub const ALL: [Method; 8] = [
        Method::Raw,
        Method::Attainable,
        Method::AttainablePresent,
        Method::Top,
        Method::ZScore,
        Method::Rrf,
        Method::Interleave,
        Method::Calibrated,
    ];
}

/// How each query term votes in an instance's share of the query ([`List::about`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Votes {
    /// One vote per term (round 2).
    Even,
    /// A term's vote weighs the fourth root of its largest document share over the instances:
    /// a term in a few chunks of one instance (a junk bigram, an everyday word a large manual uses
    /// now and then) counts less than a term that marks an instance. Measured in
    /// docs/tools-bench.md (merge section, session 6).
    Share,
}

/// Merge settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Scale.
    pub method: Method,
    /// Keep only the best chunk of each location (instance, source, page, article, heading).
    pub collapse: bool,
    /// Drop results whose normalised text equals a better one's.
    pub dedup: bool,
    /// How each instance ranks its chunks before merging.
    pub ranking: crate::search::Ranking,
    /// Weight λ of the instance's share of the query ([`List::about`]) in the merged score: each
    /// score is multiplied by `1 − λ + λ · n · about` (n instances; 1 when the query is spread evenly).
    pub about: f64,
    /// How the query's terms vote in [`List::about`].
    pub votes: Votes,
}

impl Options {
    /// What `search` uses (chosen on the tuning data, docs/tools-bench.md; `about` λ applies to
    /// the other methods).
    pub const DEFAULT: Options = Options {
        method: Method::Calibrated,
        collapse: true,
        dedup: true,
        ranking: crate::search::Ranking::DEFAULT,
        about: 0.75,
        votes: Votes::Share,
    };
}

/// One instance's ranked list and what normalisation needs to know of the query.
#[derive(Debug, Clone, PartialEq)]
pub struct List {
    /// Best first.
    pub hits: Vec<Scored>,
    /// Σ idf·(k1 + 1) over the query's terms the instance has.
    pub attainable_present: f32,
    /// The same with every missing term counted at the instance's largest idf.
    pub attainable_all: f32,
    /// How much the query is about this instance rather than the others, 0–1, summing to 1 over the
    /// instances: the mean over the query's terms (those some instance has), each weighted by its
    /// vote ([`Votes`]), of the term's document share in this instance (df ÷ chunks) over the sum
    /// of its shares in all instances.
    pub about: f64,
    /// Chunks in the instance.
    pub chunks: u32,
}

/// A merged result: which list, which hit, and its merged score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Merged {
    /// Position of the list (instance) in the input.
    pub list: usize,
    /// The hit.
    pub hit: Scored,
    /// Rank within its list (1-based).
    pub rank: u32,
    /// The comparable score.
    pub score: f64,
}

fn ratio(a: f32, b: f32) -> f64 {
    if b > 0.0 { a as f64 / b as f64 } else { 0.0 }
}

/// Merge `lists` by `method`, weighting instances by `about` ([`Options::about`]): best first, ties
/// by list then chunk (a total order).
pub fn merge(lists: &[List], method: Method, about: f64) -> Vec<Merged> {
    let mut out = Vec::new();
    let n_lists = lists.len() as f64;
    for (l, list) in lists.iter().enumerate() {
        let weight = match method {
            // IEEE square roots only (powers ½ and −⅛): the same bits natively and in wasm, and
            // no pow in the wasm.
            Method::Calibrated => {
                (n_lists * list.about).max(0.0).sqrt() / (list.chunks.max(1) as f64).sqrt().sqrt().sqrt()
            }
            // Rank order only (a weight would scale negative ranks the wrong way).
            Method::Interleave => 1.0,
            _ if about > 0.0 => 1.0 - about + about * n_lists * list.about,
            _ => 1.0,
        };
        let n = list.hits.len().max(1) as f64;
        let mean = list.hits.iter().map(|h| h.score as f64).sum::<f64>() / n;
        let var = list.hits.iter().map(|h| (h.score as f64 - mean).powi(2)).sum::<f64>() / n;
        let sd = var.sqrt();
        let top = list.hits.first().map_or(0.0, |h| h.score);
        for (i, h) in list.hits.iter().enumerate() {
            let rank = i as u32 + 1;
            let score = match method {
                Method::Raw => h.score as f64,
                Method::Attainable | Method::Calibrated => ratio(h.score, list.attainable_all),
                Method::AttainablePresent => ratio(h.score, list.attainable_present),
                Method::Top => ratio(h.score, top),
                Method::ZScore => {
                    if sd > 0.0 {
                        (h.score as f64 - mean) / sd
                    } else {
                        0.0
                    }
                }
                Method::Rrf => 1.0 / (60.0 + rank as f64),
                // Rank first; the top score orders instances within a rank (below).
                Method::Interleave => -(rank as f64),
            };
            out.push(Merged { list: l, hit: *h, rank, score: score * weight });
        }
    }
    let tops: Vec<f32> = lists.iter().map(|l| l.hits.first().map_or(0.0, |h| h.score)).collect();
    let order = |a: &Merged, b: &Merged| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| match method {
                Method::Interleave => tops[b.list].total_cmp(&tops[a.list]),
                _ => std::cmp::Ordering::Equal,
            })
            .then(a.list.cmp(&b.list))
            .then(a.hit.chunk.cmp(&b.hit.chunk))
    };
    // Binary insertion (a few hundred items; no sorting code in the wasm). The order is total.
    let mut sorted: Vec<Merged> = Vec::with_capacity(out.len());
    for m in out {
        let at = sorted.partition_point(|x| order(x, &m).is_lt());
        sorted.insert(at, m);
    }
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(scores: &[f32], att: f32) -> List {
        List {
            hits: scores.iter().enumerate().map(|(i, &s)| Scored { chunk: i as u32, score: s }).collect(),
            attainable_present: att,
            attainable_all: att,
            about: 0.5,
            chunks: 100,
        }
    }

    #[test]
    fn methods_order_as_documented() {
        // Instance 0 scores high in raw terms but covers little of its attainable maximum.
        let lists = [list(&[20.0, 18.0], 100.0), list(&[9.0, 3.0], 10.0)];
        let first = |m| merge(&lists, m, 0.0)[0].list;
        assert_eq!(first(Method::Raw), 0);
        assert_eq!(first(Method::Attainable), 1);
        let rrf = merge(&lists, Method::Rrf, 0.0);
        assert_eq!((rrf[0].list, rrf[1].list, rrf[0].rank, rrf[1].rank), (0, 1, 1, 1));
        let il = merge(&lists, Method::Interleave, 0.0);
        assert_eq!(il.iter().map(|m| m.list).collect::<Vec<_>>(), vec![0, 1, 0, 1]);
        // The instance share does not reorder an interleave (it used to scale −rank).
        let mut shared = lists.clone();
        (shared[0].about, shared[1].about) = (0.9, 0.1);
        let il = merge(&shared, Method::Interleave, 0.75);
        assert_eq!(il.iter().map(|m| m.list).collect::<Vec<_>>(), vec![0, 1, 0, 1]);
        assert_eq!(merge(&lists, Method::Top, 0.0)[0].score, 1.0);
        assert_eq!(merge(&[], Method::ZScore, 0.0), vec![]);
        // The query is mostly about instance 0: with λ = 1 its list wins despite a lower ratio.
        let mut about = [list(&[6.0], 10.0), list(&[9.0], 10.0)];
        (about[0].about, about[1].about) = (0.8, 0.2);
        assert_eq!(merge(&about, Method::Attainable, 0.0)[0].list, 1);
        let m = merge(&about, Method::Attainable, 1.0);
        assert_eq!((m[0].list, m[0].score), (0, 0.6 * 1.6));
        // Calibrated: the share under a square root, and the smaller instance ahead at equal ratio
        // and share.
        let c = merge(&about, Method::Calibrated, 0.75);
        assert_eq!(c[0].list, 0);
        assert!((c[0].score - 0.6 * 1.6f64.sqrt() * 100f64.powf(-0.125)).abs() < 1e-12, "{c:?}");
        let mut sized = [list(&[5.0], 10.0), list(&[5.0], 10.0)];
        (sized[0].chunks, sized[1].chunks) = (20_000, 150);
        assert_eq!(merge(&sized, Method::Calibrated, 0.0)[0].list, 1);
        assert_eq!(merge(&sized, Method::Attainable, 0.0)[0].list, 0);
    }
}
