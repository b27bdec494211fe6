//! The compact index: one file per instance.
//!
//! [`IndexBuilder`] turns sources and chunks into bytes (deterministic for the same input);
//! [`Index`] opens those bytes without copying or decoding them whole and answers term, chunk and
//! source lookups. The byte layout is documented in [`format`] (the container), [`postings`],
//! [`strings`] and [`records`], and in ARCHITECTURE.md.

pub mod crc;
pub mod forge;
pub mod format;
pub mod parts;
pub mod postings;
pub mod ranked;
mod reader;
pub mod records;
pub mod strings;
pub mod text;
pub mod weights;
mod writer;

use serde::{Deserialize, Serialize};

pub use format::{MAGIC, MIN_VERSION, VERSION};
pub use reader::{CitationIds, Index, TermInfo};
pub use text::TextCodec;
pub use writer::IndexBuilder;

use crate::search::Bm25Params;
use crate::text::AnalyzerSettings;

/// Index-wide settings and statistics (the `meta` section, bincode-encoded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexMeta {
    /// Instance name, e.g. `rnd`.
    pub name: String,
    /// Human-readable title.
    pub title: String,
    /// What the instance holds.
    pub description: String,
    /// How the documents were analyzed; queries must be analyzed the same way.
    pub analyzer: AnalyzerSettings,
    /// BM25 parameters.
    pub bm25: Bm25Params,
    /// Minimum top BM25 score for the sufficiency gate (calibrated per instance).
    pub sufficiency: f32,
    /// Number of chunks.
    pub chunks: u32,
    /// Number of sources.
    pub sources: u32,
    /// Sum of chunk lengths in terms (for the average length in BM25).
    pub total_terms: u64,
    /// Tool that wrote the file, e.g. `groundgate 0.1.0`.
    pub generator: String,
    /// CRC32 over all chunk texts: tells two builds of different input apart.
    pub content_crc: u32,
}

impl IndexMeta {
    /// Average chunk length in terms.
    pub fn avg_len(&self) -> f32 {
        if self.chunks == 0 { 0.0 } else { (self.total_terms as f64 / self.chunks as f64) as f32 }
    }
}

/// The same index with `model` stored as its gate model (section `gate`, replacing any earlier
/// one). Every other section — unknown ones included — is copied byte for byte. Checks every
/// checksum first.
pub fn with_gate_model(bytes: &[u8], model: &crate::gate::GateModel) -> crate::Result<Vec<u8>> {
    use bincode::Options;
    model.check().map_err(|e| crate::Error::invalid("gate model", e))?;
    format::verify(bytes)?;
    let encoded = bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .serialize(model)
        .map_err(|e| crate::Error::invalid("gate model", e.to_string()))?;
    let gate = format::SectionId::Gate as u32;
    let mut sections: Vec<(u32, &[u8])> =
        format::raw_sections(bytes)?.into_iter().filter(|(id, _)| *id != gate).collect();
    sections.push((gate, &encoded));
    Ok(format::write_raw(format::version(bytes), &sections))
}
