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

/// Unpack `out.len()` values of `bits` bits each from the start of `bytes` (missing bytes read as
/// 0; bytes after the packed values may follow and are not used: the caller checks lengths). Each
/// value is one unaligned 64-bit little-endian read, a shift and a mask (bits ≤ 32, so a value and
/// its bit offset, ≤ 7, fit one read). Widths up to 8 (most gaps and term frequencies) read eight
/// values from one 64-bit word: eight values fill exactly `bits` bytes. Only values whose 8-byte
/// window runs past the end of `bytes` are read through a zero-padded copy; callers pass the bytes
/// that follow the block too ([`decode_blocks_in`]), so that is rare.
fn unpack(bytes: &[u8], bits: u8, out: &mut [u32]) {
    if bits == 0 {
        out.fill(0);
        return;
    }
    let mask = if bits == 32 { u32::MAX as u64 } else { (1u64 << bits) - 1 };
    let bits = bits as usize;
    let mut done = 0;
    if bits <= 8 {
        // Group g is the 64-bit word at byte g·bits (no division, no per-value window).
        let mut at = 0;
        for group in out.chunks_exact_mut(8) {
            let Some(&[a, b, c, d, e, f, g, h]) = bytes.get(at..at + 8) else { break };
            let word = u64::from_le_bytes([a, b, c, d, e, f, g, h]);
            for (j, slot) in group.iter_mut().enumerate() {
                *slot = ((word >> (j * bits)) & mask) as u32;
            }
            at += bits;
            done += 8;
        }
    }
    for (i, slot) in out.iter_mut().enumerate().skip(done) {
        let at = i * bits;
        let word = match bytes.get(at / 8..at / 8 + 8) {
            Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
            _ => padded_word(bytes, at / 8),
        };
        *slot = ((word >> (at % 8)) & mask) as u32;
    }
}

/// The little-endian 64-bit word at byte `from` of `bytes`, bytes past the end read as 0.
#[cold]
fn padded_word(bytes: &[u8], from: usize) -> u64 {
    let mut w = [0u8; 8];
    for (d, s) in w.iter_mut().zip(bytes.get(from..).unwrap_or(&[])) {
        *d = *s;
    }
    u64::from_le_bytes(w)
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
    decode_blocks_in(bytes, bytes.len(), df, n_chunks, upto, &mut f)
}

/// [`decode_blocks`] of the list `data[..len]`, where `data` may go on past the list (the rest of
/// the postings section): the unpacking reads its 64-bit words across the list's end instead of
/// through a padded copy, and uses no bit from there. The same checks, against `len`.
///
/// `f` is a trait object: one copy of the decoder serves every caller (a call per block of
/// [`BLOCK`] postings; each generic caller was another copy in the wasm).
pub fn decode_blocks_in(
    data: &[u8],
    len: usize,
    df: usize,
    n_chunks: u32,
    upto: u32,
    f: &mut dyn FnMut(&[u32], &[u32]),
) -> Result<()> {
    let bytes = data.get(..len).unwrap_or(data);
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
        if at + dl > bytes.len() {
            return Err(err("gap bytes cut short".into()));
        }
        if at + dl + tl > bytes.len() {
            return Err(err("tf bytes cut short".into()));
        }
        // From `data`: the words may reach past the block (values use only its bits).
        unpack(data.get(at..).unwrap_or(&[]), db, &mut gaps[..n]);
        unpack(data.get(at + dl..).unwrap_or(&[]), tb, &mut tf1[..n]);
        at += dl + tl;
        // Gaps → chunk ids in place (u64 sums: no overflow); the ids increase, so checking the
        // last against the chunk count checks them all (before `f` sees any). Two loops: the
        // running sum is serial, the tf one vectorises.
        for g in gaps[..n].iter_mut() {
            let doc = next + *g as u64;
            *g = doc as u32;
            next = doc + 1;
        }
        for t in tf1[..n].iter_mut() {
            *t = t.saturating_add(1);
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
    fn bytes_after_the_list_change_nothing() {
        // decode_blocks_in reads words across the list's end: whatever follows (here all ones)
        // gives the same postings, and the list must still use exactly its bytes.
        let mut x: u32 = 7;
        for df in [1usize, 5, 8, 9, 100, 127, 128, 129, 300, 1000] {
            let step = if df % 2 == 0 { 8 } else { 300 }; // gaps of 4 and of 9 bits
            let docs: Vec<u32> = (0..df as u32).map(|i| i * step + i % 7).collect();
            let tfs: Vec<u32> = (0..df)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    1 + (x >> 16) % 40
                })
                .collect();
            let mut buf = Vec::new();
            encode(&docs, &tfs, &mut buf);
            let len = buf.len();
            let mut want = Vec::new();
            decode_blocks(&buf, df, u32::MAX, u32::MAX, |d, t| want.push((d.to_vec(), t.to_vec()))).unwrap();
            for extra in [0usize, 1, 7, 8, 64] {
                let mut data = buf.clone();
                data.extend(std::iter::repeat_n(0xFF, extra));
                let mut got = Vec::new();
                decode_blocks_in(&data, len, df, u32::MAX, u32::MAX, &mut |d, t| {
                    got.push((d.to_vec(), t.to_vec()))
                })
                .unwrap();
                assert_eq!(got, want, "df {df}, {extra} bytes after");
                if len > 2 {
                    assert!(
                        decode_blocks_in(&data, len - 1, df, u32::MAX, u32::MAX, &mut |_, _| {}).is_err()
                    );
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
