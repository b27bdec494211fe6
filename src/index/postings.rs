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
/// lengths). Each value is one unaligned 64-bit little-endian read, a shift and a mask (bits ≤ 32,
/// so a value and its bit offset, ≤ 7, fit one read): read straight from `bytes` while 8 bytes
/// remain, and for the last few values from a 16-byte zero-padded copy of the tail.
fn unpack(bytes: &[u8], bits: u8, out: &mut [u32]) {
    if bits == 0 {
        out.fill(0);
        return;
    }
    let mask = if bits == 32 { u32::MAX as u64 } else { (1u64 << bits) - 1 };
    let bits = bits as usize;
    // Widths up to 8 (most gaps and term frequencies): eight values fill exactly `bits` bytes, so
    // group g is one 64-bit read at byte g·bits and eight shifts (no per-value window or check),
    // while the group is whole and its 8-byte read stays inside `bytes`.
    let mut start = 0;
    if bits <= 8 {
        let groups = match bytes.len().checked_sub(8) {
            Some(room) => (room / bits + 1).min(out.len() / 8),
            None => 0,
        };
        for (group, window) in out.chunks_exact_mut(8).zip(bytes.windows(8).step_by(bits)).take(groups) {
            let word = match *window {
                [a, b, c, d, e, f, g, h] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
                _ => 0,
            };
            for (j, slot) in group.iter_mut().enumerate() {
                *slot = ((word >> (j * bits)) & mask) as u32;
            }
        }
        start = groups * 8;
    }
    // Value i's window is bytes[i·bits/8 ..][..8]: inside `bytes` while i·bits ≤ (len − 8)·8.
    let fast = match bytes.len().checked_sub(8) {
        Some(room) => (room * 8 / bits + 1).min(out.len()).max(start),
        None => start,
    };
    let (head, tail) = out.split_at_mut(fast);
    for (i, slot) in head.iter_mut().enumerate().skip(start) {
        let at = i * bits;
        let word = match bytes.get(at / 8..at / 8 + 8) {
            Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
            _ => 0,
        };
        *slot = ((word >> (at % 8)) & mask) as u32;
    }
    if tail.is_empty() {
        return;
    }
    // The tail's values start at byte fast·bits/8 ≥ len − 8: at most 8 bytes, each value's window
    // ends within 16.
    let from = fast * bits / 8;
    let mut buf = [0u8; 24];
    let rest = bytes.get(from..).unwrap_or(&[]);
    let take = rest.len().min(16);
    buf[..take].copy_from_slice(&rest[..take]);
    for (j, slot) in tail.iter_mut().enumerate() {
        let at = (fast + j) * bits - from * 8;
        let word = match buf.get(at / 8..at / 8 + 8) {
            Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
            _ => 0,
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
        // last against the chunk count checks them all (before `f` sees any).
        for (g, t) in gaps[..n].iter_mut().zip(tf1[..n].iter_mut()) {
            let doc = next + *g as u64;
            *g = doc as u32;
            *t = t.saturating_add(1);
            next = doc + 1;
        }
        if next > n_chunks as u64 {
            return Err(err(format!("chunk id {} ≥ chunk count {n_chunks}", next - 1)));
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
    fn unpack_reads_every_width_and_length() {
        // Against a bit-by-bit reference, for every width and block length, with pseudo-random
        // values (the fast path, the padded tail and their seam).
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for bits in 0..=32u8 {
            for n in [0usize, 1, 2, 3, 7, 8, 9, 31, 64, 127, 128] {
                let values: Vec<u32> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        if bits == 0 { 0 } else { (x as u32) & (u32::MAX >> (32 - bits)) }
                    })
                    .collect();
                let mut packed = Vec::new();
                pack(&values, bits, &mut packed);
                assert_eq!(packed.len(), packed_len(n, bits));
                let mut got = vec![u32::MAX; n];
                unpack(&packed, bits, &mut got);
                assert_eq!(got, values, "bits {bits}, n {n}");
                // Missing bytes read as 0.
                if n > 0 && !packed.is_empty() {
                    let mut short = vec![u32::MAX; n];
                    unpack(&packed[..packed.len() - 1], bits, &mut short);
                    assert_eq!(short[..n - 1].iter().filter(|&&v| v == u32::MAX).count(), 0);
                }
            }
        }
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
