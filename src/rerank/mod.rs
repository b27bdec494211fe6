//! Reranking beyond BM25 (issue 15): the deterministic REBEL-style composite, REBEL prompts for a
//! host's model with a strict parser of its reply, and reciprocal rank fusion with a ranking the
//! host supplies.
//!
//! * [`composite`] — a BM25 candidate pool re-scored as `relevance (0–10) + Σ wᵢ·propertyᵢ (0–5)`
//!   from what the index knows (term coverage and length, repetition of already chosen chunks,
//!   query-term concentration, the source's authority class, its reference date).
//! * [`rebel`] — the one-turn and two-turn REBEL prompts (Korean and English) and the strict parser
//!   of the model's reply; [`rebel::rerank_with`] applies the parsed order.
//! * [`fusion`] — stable chunk references ([`fusion::ChunkRef`]) and RRF.
//! * [`apply`] — [`RerankOptions`] (an `ask` option) and [`reorder`]: RRF, then the composite,
//!   over one instance's candidate pool before the budget.
//! * [`overlap`] — character shingles: near-duplicate tests and the share of repeated text.
//! * [`host`] (feature `tools`) — REBEL over an engine's search results for a host's model: the
//!   prompt with its documents' references, the reply applied; RRF of host lists (JSON faces).
//!
//! Everything here is plain, deterministic Rust: the same inputs give the same order natively and
//! in wasm.

pub mod apply;
pub mod composite;
pub mod fusion;
#[cfg(feature = "tools")]
pub mod host;
pub mod overlap;
pub mod rebel;

pub use apply::{Mode, Ranked, RerankOptions, reorder, reorder_explained};
pub use composite::{Composite, CompositeOptions, Properties, Weights};
pub use fusion::{ChunkRef, Fused};
