//! Fixed-width records for chunks and sources: random access by id, no decoding at open.
//!
//! Chunk record, nine u32 LE (36 bytes): text offset, text length (bytes, into the text section),
//! source id, printed page (`u32::MAX` = none), article / section / heading string ids
//! ([`NONE`](super::strings::NONE) = none), start and end character offsets in the source text.
//!
//! Source record, six u32 LE (24 bytes): id, title, kind, date, link, links string ids; `links` is
//! one string with the links separated by `\n`.

use super::format::read_u32;
use crate::error::{Error, Result};

/// Bytes per chunk record.
pub const CHUNK_LEN: usize = 36;
/// Bytes per source record.
pub const SOURCE_LEN: usize = 24;
/// Page value meaning "no page".
pub const NO_PAGE: u32 = u32::MAX;

/// Append a record of u32 fields.
pub fn push(out: &mut Vec<u8>, fields: &[u32]) {
    for f in fields {
        out.extend_from_slice(&f.to_le_bytes());
    }
}

/// Read record `id` of `N` u32 fields from `bytes` (records of `4·N` bytes).
pub fn read<const N: usize>(bytes: &[u8], id: u32, section: &'static str) -> Result<[u32; N]> {
    let base = id as usize * 4 * N;
    let mut out = [0u32; N];
    for (k, slot) in out.iter_mut().enumerate() {
        *slot = read_u32(bytes, base + 4 * k)
            .ok_or_else(|| Error::corrupt(section, format!("record {id} out of range")))?;
    }
    Ok(out)
}
