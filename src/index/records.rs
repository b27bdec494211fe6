//! Fixed-width records for term info, chunks and sources: random access by id, no decoding at open.
//!
//! Formats v1–v3 store a table row by row (record `id` is `4·N` bytes at `4·N·id`). Format v4
//! stores it in *byte planes*: for a table of `count` records of `N` u32 fields, byte `p` (0 = least
//! significant) of field `k` of record `id` is at `(4·k + p)·count + id`. The same bytes, reordered
//! so that gzip sees columns of similar bytes (the high bytes of offsets and ids are long runs):
//! measured on rnd.ggi, term info gzips 66 → 33 KB (with the idf column dropped) and chunk records
//! 28 → 15 KB; on lohelp.ggi chunk records 254 → 136 KB. A read is still `4·N` byte loads.
//!
//! Term info record, two u32 LE (v4; v1–v3 add a third, the idf as f32 bits): postings offset,
//! document frequency. The idf is computed from the document frequency when a term is looked up
//! ([`bm25::idf`](crate::search::bm25::idf)).
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

/// Reorder rows of `fields` u32 fields (as [`push`] appends them) into byte planes (format v4).
/// `rows.len()` must be a multiple of `4·fields`.
pub fn planes(rows: &[u8], fields: usize) -> Vec<u8> {
    let width = 4 * fields;
    let count = rows.len().checked_div(width).unwrap_or(0);
    let mut out = vec![0u8; count * width];
    for (id, row) in rows.chunks_exact(width).enumerate() {
        for (j, &b) in row.iter().enumerate() {
            out[j * count + id] = b;
        }
    }
    out
}

/// The error of a record past its table (one copy for every record width).
#[cold]
fn out_of_range(section: &'static str, id: u32) -> Error {
    Error::corrupt(section, format!("record {id} out of range"))
}

/// Read record `id` of `N` u32 fields from a table in byte planes ([`planes`]; `bytes.len()` is
/// `4·N·count`).
pub fn read_planes<const N: usize>(bytes: &[u8], id: u32, section: &'static str) -> Result<[u32; N]> {
    let count = bytes.len() / (4 * N);
    if id as usize >= count {
        return Err(out_of_range(section, id));
    }
    let id = id as usize;
    let mut out = [0u32; N];
    for (k, slot) in out.iter_mut().enumerate() {
        let mut v = [0u8; 4];
        for (p, b) in v.iter_mut().enumerate() {
            *b = bytes.get((4 * k + p) * count + id).copied().unwrap_or(0);
        }
        *slot = u32::from_le_bytes(v);
    }
    Ok(out)
}

/// Read record `id` of `N` u32 fields in the layout of format `version`: rows before v4, byte
/// planes from v4.
pub fn read_in<const N: usize>(
    version: u32,
    bytes: &[u8],
    id: u32,
    section: &'static str,
) -> Result<[u32; N]> {
    if version >= PLANES_SINCE { read_planes::<N>(bytes, id, section) } else { read::<N>(bytes, id, section) }
}

/// The first format version whose record tables are byte planes.
pub const PLANES_SINCE: u32 = 4;

/// Read record `id` of `N` u32 fields from `bytes` (records of `4·N` bytes).
pub fn read<const N: usize>(bytes: &[u8], id: u32, section: &'static str) -> Result<[u32; N]> {
    // Checked: `id · 4N` wraps a 32-bit `usize` (wasm) for a large id.
    let base = (id as usize).checked_mul(4 * N);
    let mut out = [0u32; N];
    for (k, slot) in out.iter_mut().enumerate() {
        let at = base.and_then(|b| b.checked_add(4 * k));
        *slot = at.and_then(|at| read_u32(bytes, at)).ok_or_else(|| out_of_range(section, id))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_read_back_every_field() {
        let mut rows = Vec::new();
        let recs: Vec<[u32; 3]> = (0..37u32).map(|i| [i * 70_001, u32::MAX - i, i << 24 | 5]).collect();
        for r in &recs {
            push(&mut rows, r);
        }
        let p = planes(&rows, 3);
        assert_eq!(p.len(), rows.len());
        for (id, r) in recs.iter().enumerate() {
            assert_eq!(read_planes::<3>(&p, id as u32, "t").unwrap(), *r);
            assert_eq!(read_in::<3>(4, &p, id as u32, "t").unwrap(), *r);
            assert_eq!(read_in::<3>(3, &rows, id as u32, "t").unwrap(), *r);
        }
        assert!(read_planes::<3>(&p, 37, "t").is_err());
        assert!(read_planes::<3>(&[], 0, "t").is_err());
        assert!(planes(&[], 3).is_empty());
    }
}
