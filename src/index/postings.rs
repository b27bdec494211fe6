//! Block-compressed postings.
//!
//! A term's postings are its (chunk id, term frequency) pairs in increasing chunk order, cut into
//! blocks of [`BLOCK`] pairs (the last block may be shorter). Each block is
//!
//! ```text
//! u8 doc_bits   u8 tf_bits   ⌈n·doc_bits/8⌉ bytes of gaps   ⌈n·tf_bits/8⌉ bytes of (tf − 1)
//! ```
//!
//! where gap = chunk − previous chunk − 1 (the previous chunk of the first pair is −1) and values
//! are bit-packed least significant bit first. A list's length (its document frequency) is stored
//! in the term info, so the decoder knows how many pairs to read and when the list must end.
//! The decoder checks every byte it reads, the bit widths (≤ 32), that chunk ids stay below the
//! number of chunks, and that the list uses exactly the bytes allotted to it.

use crate::error::{Error, Result};

/// Pairs per block.
pub const BLOCK: usize = 128;

fn bits_needed(max: u32) -> u8 {
    (32 - max.leading_zeros()) as u8
}

fn pack(values: &[u32], bits: u8, out: &mut Vec<u8>) {
    let mut acc: u64 = 0;
    let mut filled = 0u32;
    for &v in values {
        acc |= (v as u64) << filled;
        filled += bits as u32;
        while filled >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            filled -= 8;
        }
    }
    if filled > 0 {
        out.push(acc as u8);
    }
}

fn packed_len(n: usize, bits: u8) -> usize {
    (n * bits as usize).div_ceil(8)
}

/// Unpack `out.len()` values of `bits` bits each (missing bytes read as 0; the caller checks
/// lengths). The bytes are first copied into a zero-padded stack buffer, so each value is one
/// unaligned 64-bit read, a shift and a mask, with no per-byte loop (bits ≤ 32, so a value and its
/// bit offset, ≤ 7, fit one read).
fn unpack(bytes: &[u8], bits: u8, out: &mut [u32]) {
    if bits == 0 {
        out.fill(0);
        return;
    }
    let mut buf = [0u8; 4 * BLOCK + 8];
    let len = bytes.len().min(4 * BLOCK);
    buf[..len].copy_from_slice(&bytes[..len]);
    let mask = if bits == 32 { u32::MAX as u64 } else { (1u64 << bits) - 1 };
    let bits = bits as usize;
    for (i, slot) in out.iter_mut().take(BLOCK).enumerate() {
        let at = i * bits;
        // at / 8 ≤ (BLOCK − 1) · 32 / 8 < 4 · BLOCK: the 8 bytes lie inside the buffer.
        let word = match buf.get(at / 8..at / 8 + 8) {
            Some(w) => u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
            None => 0,
        };
        *slot = ((word >> (at % 8)) & mask) as u32;
    }
}

/// Encode one term's postings (`docs` strictly increasing, `tfs` ≥ 1, same length) onto `out`.
pub fn encode(docs: &[u32], tfs: &[u32], out: &mut Vec<u8>) {
    let mut prev: i64 = -1;
    let mut gaps = Vec::with_capacity(BLOCK);
    let mut tf1 = Vec::with_capacity(BLOCK);
    for (dblock, tblock) in docs.chunks(BLOCK).zip(tfs.chunks(BLOCK)) {
        gaps.clear();
        tf1.clear();
        for (&d, &t) in dblock.iter().zip(tblock) {
            gaps.push((d as i64 - prev - 1) as u32);
            prev = d as i64;
            tf1.push(t.saturating_sub(1));
        }
        let db = bits_needed(gaps.iter().copied().max().unwrap_or(0));
        let tb = bits_needed(tf1.iter().copied().max().unwrap_or(0));
        out.push(db);
        out.push(tb);
        pack(&gaps, db, out);
        pack(&tf1, tb, out);
    }
}

/// Decode `df` postings from exactly `bytes`, calling `f(chunk, tf)` for each, in order.
/// Chunk ids must stay below `n_chunks`.
pub fn decode(bytes: &[u8], df: usize, n_chunks: u32, f: impl FnMut(u32, u32)) -> Result<()> {
    decode_upto(bytes, df, n_chunks, u32::MAX, f)
}

/// [`decode`], stopping at the end of the block that passes chunk `upto` (for callers that want
/// a few known chunks: the rest of the list is not read, nor its length checked).
pub fn decode_upto(
    bytes: &[u8],
    df: usize,
    n_chunks: u32,
    upto: u32,
    mut f: impl FnMut(u32, u32),
) -> Result<()> {
    decode_blocks(bytes, df, n_chunks, upto, |docs, tfs| {
        for (&d, &t) in docs.iter().zip(tfs) {
            f(d, t);
        }
    })
}

/// [`decode_upto`] a block at a time: `f(chunks, tfs)` gets each block's chunk ids (increasing,
/// all below `n_chunks`) and term frequencies (≥ 1), the same length. The hot loop of scoring.
pub fn decode_blocks(
    bytes: &[u8],
    df: usize,
    n_chunks: u32,
    upto: u32,
    mut f: impl FnMut(&[u32], &[u32]),
) -> Result<()> {
    let err = |d: String| Error::corrupt("postings", d);
    let mut at = 0usize;
    let mut left = df;
    let mut next: u64 = 0; // next allowed chunk id
    let mut gaps = [0u32; BLOCK];
    let mut tf1 = [0u32; BLOCK];
    while left > 0 {
        let n = left.min(BLOCK);
        let (db, tb) = match bytes.get(at..at + 2) {
            Some(h) => (h[0], h[1]),
            None => return Err(err(format!("block header missing at byte {at}"))),
        };
        if db > 32 || tb > 32 {
            return Err(err(format!("bit width {db}/{tb} over 32")));
        }
        at += 2;
        let (dl, tl) = (packed_len(n, db), packed_len(n, tb));
        let dbytes = bytes.get(at..at + dl).ok_or_else(|| err("gap bytes cut short".into()))?;
        let tbytes = bytes.get(at + dl..at + dl + tl).ok_or_else(|| err("tf bytes cut short".into()))?;
        at += dl + tl;
        unpack(dbytes, db, &mut gaps[..n]);
        unpack(tbytes, tb, &mut tf1[..n]);
        // Gaps → chunk ids in place (u64 sums: no overflow); the ids increase, so checking the
        // last against the chunk count checks them all.
        for (g, t) in gaps[..n].iter_mut().zip(tf1[..n].iter_mut()) {
            let doc = next + *g as u64;
            if doc >= n_chunks as u64 {
                return Err(err(format!("chunk id {doc} ≥ chunk count {n_chunks}")));
            }
            *g = doc as u32;
            *t = t.saturating_add(1);
            next = doc + 1;
        }
        f(&gaps[..n], &tf1[..n]);
        left -= n;
        if next > upto as u64 {
            return Ok(());
        }
    }
    if at != bytes.len() {
        return Err(err(format!("list uses {at} of its {} bytes", bytes.len())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(docs: &[u32], tfs: &[u32]) {
        let mut buf = Vec::new();
        encode(docs, tfs, &mut buf);
        let mut got = Vec::new();
        decode(&buf, docs.len(), u32::MAX, |d, t| got.push((d, t))).unwrap();
        let want: Vec<_> = docs.iter().copied().zip(tfs.iter().copied()).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn round_trips() {
        round_trip(&[0], &[1]);
        round_trip(&[5, 6, 7, 1000, 70000], &[1, 2, 300, 1, 9]);
        let docs: Vec<u32> = (0..1000).map(|i| i * 7 + (i % 5)).collect();
        let tfs: Vec<u32> = (0..1000).map(|i| 1 + i % 13).collect();
        round_trip(&docs, &tfs);
        round_trip(&[u32::MAX - 1], &[u32::MAX]);
    }

    #[test]
    fn dense_lists_pack_small() {
        let docs: Vec<u32> = (0..256).collect();
        let tfs = vec![1; 256];
        let mut buf = Vec::new();
        encode(&docs, &tfs, &mut buf);
        assert_eq!(buf.len(), 4); // two blocks, headers only: gaps and tfs need 0 bits
    }

    #[test]
    fn corrupt_lists_are_errors() {
        let mut buf = Vec::new();
        encode(&[1, 2, 3], &[1, 1, 1], &mut buf);
        assert!(decode(&buf[..1], 3, 10, |_, _| {}).is_err());
        assert!(decode(&buf, 200, 10, |_, _| {}).is_err());
        assert!(decode(&buf, 3, 2, |_, _| {}).is_err());
        let mut extra = buf.clone();
        extra.push(0);
        assert!(decode(&extra, 3, 10, |_, _| {}).is_err());
        assert!(decode(&[40, 0, 0], 1, 10, |_, _| {}).is_err());
    }

    #[test]
    fn decode_upto_stops_after_the_block_that_passes_the_bound() {
        let docs: Vec<u32> = (0..1000).map(|i| i * 3).collect();
        let tfs = vec![1; docs.len()];
        let mut buf = Vec::new();
        encode(&docs, &tfs, &mut buf);
        let mut got = Vec::new();
        decode_upto(&buf, docs.len(), u32::MAX, 400, |d, _| got.push(d)).unwrap();
        // 400 lies in the second block (chunks 384…765): both blocks, nothing after.
        assert_eq!(got, docs[..2 * BLOCK]);
        let mut all = Vec::new();
        decode_upto(&buf, docs.len(), u32::MAX, u32::MAX, |d, _| all.push(d)).unwrap();
        assert_eq!(all, docs);
    }
}
