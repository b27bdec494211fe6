//! # groundgate
//!
//! Decide, for each prompt an editor or agent is about to send to its model, whether to **push**
//! cited evidence into it now or let the agent **pull** (search) for itself — from compact,
//! precompiled BM25 indexes that run in WebAssembly.
//!
//! This crate is the whole engine; the wasm bindings and the CLI only convert.
//!
//! * [`text`] — normalisation and the dictionary-free Korean + English analyzer.
//! * [`corpus`] — sources, locations and chunks.
//! * [`decimal`] — floats as text, as core's `Display` prints them, without core's float formatter.
//! * [`index`] — the versioned, checksummed index format: [`IndexBuilder`] writes, [`Index`] reads.
//! * [`search`] — BM25 top-k with citations.
//! * [`sort`] — one sort routine for every element type (a smaller wasm), in `sort_by`'s order.
//! * [`rerank`] — the REBEL composite, REBEL prompts and their reply parser, RRF fusion.
//! * [`gate`] — the anchor and sufficiency gates.
//! * [`deliver`] — budgets and their sharing, the cited context block, session dedup, the decision log.
//! * [`protocol`] — the JSON Lines contract of every `--jsonl` loop and `handleLine`.
//! * `tools` (feature `tools`, on with `cli`) — the pull tools (search, grep, sources, read, links)
//!   over an [`Engine`].
//! * [`engine`] — [`Engine`]: several instances and `ask`, the push pipeline.
//! * `abi` (feature `abi`) — plain C exports, JSON in and out, for wasm hosts without JS glue.
//! * `ingest` (feature `ingest`; not in the runtime wasm) — HTML, Markdown/reST, plain text, JSON Lines,
//!   statutes, manuals and glossaries → chunks; manifests; file access behind `ingest::files::Files`.
//! * `wasm_indexer` (feature `indexer`) — the indexer as its own wasm module for the npm package's
//!   `groundgate build`, reading files through the host.
//!
//! ```
//! use groundgate::{corpus::{Chunk, Source}, IndexBuilder, Index, search, AnalyzerSettings};
//!
//! let mut b = IndexBuilder::new("demo", AnalyzerSettings::default());
//! let s = b.add_source(Source { id: "law".into(), title: "감리법".into(), kind: "statute".into(),
//!     ..Default::default() })?;
//! b.add_chunk(Chunk { source: s, text: "감리원은 교육을 받아야 한다.".into(), ..Default::default() })?;
//! b.add_chunk(Chunk { source: s, text: "사업자는 계약을 체결한다.".into(), ..Default::default() })?;
//! let bytes = b.build()?;
//! let index = Index::open(&bytes[..])?;          // zero-copy over the byte slice
//! let hits = search::search(&index, "감리원이 받을 교육", 4)?;
//! assert_eq!(hits[0].chunk, 0);
//! # Ok::<(), groundgate::Error>(())
//! ```
//!
//! Memory: an open index holds its bytes and a few hundred bytes of metadata; a search allocates
//! one f32 per chunk. The FST term dictionary is checksummed at open and decoded only through
//! checked paths (a crafted file with valid CRCs is an error, not a panic); all other sections are
//! bounds-checked on access and fully checked by [`Index::verify`].

#![deny(missing_docs)]
// No unsafe code in the library; the plain C exports (abi: `no_mangle` is unsafe to declare) and one
// copy in the wasm bindings allow it where they stand, with the reason.
#![deny(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

#[cfg(feature = "abi")]
pub mod abi;
pub mod corpus;
pub mod decimal;
pub mod deliver;
pub mod engine;
mod error;
pub mod eval;
pub mod gate;
pub mod index;
#[cfg(feature = "ingest")]
pub mod ingest;
#[cfg(any(feature = "wasm", feature = "indexer"))]
mod js_bytes;
pub mod protocol;
pub mod rerank;
pub mod search;
pub mod sort;
#[cfg(test)]
mod test_bits;
#[cfg(test)]
mod test_index;
pub mod text;
#[cfg(feature = "tools")]
pub mod tools;
#[cfg(feature = "wasm")]
mod wasm;
#[cfg(feature = "indexer")]
mod wasm_indexer;

pub use engine::{Answer, AskOptions, Config, Engine, InstanceOptions, Route};
pub use error::{Error, ErrorReport, Result, os_message};
pub use index::{Index, IndexBuilder, IndexMeta};
pub use text::{Analyzer, AnalyzerSettings};
