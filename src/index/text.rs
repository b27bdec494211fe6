//! The chunk texts (section `text`).
//!
//! Format v1 stores them concatenated as UTF-8. Formats v2 and v3 start with a `u32 group`:
//!
//! * `group` = 0 — plain: the concatenated UTF-8 follows ([`TextCodec::Plain`]);
//! * `group` = [`HANGUL_MARK`] (v3 only) — the concatenation in the *Hangul two-byte* code
//!   ([`TextCodec::Hangul`], the default since v3): UTF-8, except that every precomposed Hangul
//!   syllable U+AC00…U+D7A3 is two bytes `0x80 + (s >> 8)`, `s & 0xFF` with `s` = code point −
//!   0xAC00 (lead bytes 0x80…0xAB can never start a UTF-8 character, so the code is unambiguous).
//!   Korean text shrinks by about a third, stays byte-aligned and repetitive, so HTTP gzip still
//!   finds its matches (measured on rnd: 1.68 MB UTF-8 → 1.20 MB; gzipped 372 KB → 340 KB, where
//!   LZ4 blocks gzip to 646 KB); a lookup decodes just its chunk in one pass;
//! * `group` = [`RANKED_MARK`] (v5 only) — the *ranked character code* ([`TextCodec::Ranked`], the
//!   default since v5; [`ranked`](super::ranked)): its character table, then the concatenation,
//!   each non-ASCII character one or two bytes by how often the index uses it (rnd: gzipped 340 KB
//!   → 296 KB, raw 1.20 MB → 0.79 MB against the Hangul code);
//! * otherwise — LZ4: the concatenation cut at every `group`th chunk ([`GROUP`] = 4), each piece
//!   one LZ4 block ([`TextCodec::Lz4`]; a lookup decompresses one block of a few kilobytes):
//!
//! ```text
//! u32 group   u32 blocks
//! (blocks + 1) × u32   start of each compressed block, relative to the data; the last = data length
//! (blocks + 1) × u32   start of each block's text in the uncompressed concatenation
//! …                    the compressed blocks
//! ```
//!
//! Chunk records keep the (offset, length) of their text in the stored concatenation (UTF-8, or
//! the Hangul code). Every offset is checked on use; a block that does not decompress to exactly
//! its declared length, a syllable code past U+D7A3, a cut sequence or text that is not UTF-8 is
//! [`Error::Corrupt`].

use serde::{Deserialize, Serialize};

pub use super::ranked::Coder;
use super::ranked::Ranked;
use crate::error::{Error, Result};

/// How an index stores its chunk text.
///
/// `Ranked` (the default) codes each non-ASCII character in one or two bytes by its rank in the
/// index: the smallest raw and gzipped file, one table lookup a character to decode. `Hangul`
/// stores Korean in two bytes a syllable (v3–v4's default). `Lz4` gzips worst and costs most per
/// hit; `Plain` is UTF-8 as is. Measured in docs/peer-bench.md.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextCodec {
    /// Non-ASCII characters ranked by frequency, one or two bytes each (format v5; the default).
    #[default]
    Ranked,
    /// UTF-8 with every Hangul syllable in two bytes (format v3).
    Hangul,
    /// LZ4 blocks of [`GROUP`] chunks.
    Lz4,
    /// Uncompressed UTF-8.
    Plain,
}

/// The `group` word that marks the Hangul two-byte code (v3).
pub const HANGUL_MARK: u32 = u32::MAX;
/// The `group` word that marks the ranked character code (v5).
pub const RANKED_MARK: u32 = u32::MAX - 1;
/// The first format version with the ranked character code.
pub const RANKED_SINCE: u32 = 5;

const SYLLABLE_FIRST: u32 = 0xAC00;
const SYLLABLE_LAST: u32 = 0xD7A3;

/// A chunk's text as stored: UTF-8, or the Hangul two-byte code for [`TextCodec::Hangul`]
/// (the ranked code needs its table: [`Coder::code`]). Coded character by character, so the stored
/// concatenation is the concatenation of the stored chunks.
pub fn store(text: &str, codec: TextCodec) -> std::borrow::Cow<'_, [u8]> {
    if codec != TextCodec::Hangul {
        return std::borrow::Cow::Borrowed(text.as_bytes());
    }
    let mut out = Vec::with_capacity(text.len());
    for ch in text.chars() {
        let c = ch as u32;
        if (SYLLABLE_FIRST..=SYLLABLE_LAST).contains(&c) {
            let s = c - SYLLABLE_FIRST;
            out.extend([0x80 + (s >> 8) as u8, s as u8]);
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Where a run outside the syllable code that starts at `i` ends: ASCII bytes and whole UTF-8
/// sequences (a lead byte ≥ 0xC0 carries its continuation bytes, which are the only other
/// 0x80…0xBF bytes), up to the next syllable pair or the end (possibly past it: the caller's
/// `get` refuses a sequence cut short).
fn run_end(src: &[u8], i: usize) -> usize {
    let mut j = i;
    while let Some(&b) = src.get(j) {
        match b {
            0x00..0x80 => j += 1,
            0x80..0xC0 => break,
            0xC0..0xE0 => j += 2,
            0xE0..0xF0 => j += 3,
            _ => j += 4,
        }
    }
    j
}

/// Decode Hangul two-byte code back to text (`None` if it is not valid code).
///
/// Builds the `String` directly, in one pass: a syllable pair becomes its `char`, a run of other
/// bytes (ASCII and UTF-8 sequences, which never start with 0x80…0xBF) is validated as UTF-8 on
/// its own and copied whole. No second validation pass over the output (measured: 3× faster than
/// decoding to bytes and then calling `String::from_utf8`).
fn unhangul(src: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(src.len() + src.len() / 2);
    let mut i = 0;
    while i < src.len() {
        // A run outside the syllable code ([`run_end`]).
        let j = run_end(src, i);
        if j > i {
            out.push_str(std::str::from_utf8(src.get(i..j)?).ok()?);
            i = j;
        }
        // Syllable pairs: 0x80 + (s >> 8), s & 0xFF.
        while let Some(&b) = src.get(i) {
            if !(0x80..0xC0).contains(&b) {
                break;
            }
            let c = SYLLABLE_FIRST + (((b as u32 - 0x80) << 8) | *src.get(i + 1)? as u32);
            if c > SYLLABLE_LAST {
                return None;
            }
            out.push(char::from_u32(c)?);
            i += 2;
        }
    }
    Some(out)
}

/// `text` as UTF-16 code units (`text.encode_utf16()`) appended to `out`, for hosts whose strings
/// are UTF-16 (JS). A text never has more units than UTF-8 bytes, so `out` grows once by the byte
/// count, the units are written by index and `out` is cut to length: no capacity check per unit
/// (collecting `encode_utf16` was 4 % of a wasm search, for the hits' ~3 KB of field JSON).
pub fn push_utf16(text: &str, out: &mut Vec<u16>) {
    let mark = out.len();
    out.resize(mark + text.len(), 0);
    let n = out.get_mut(mark..).and_then(|dst| utf16_into(text, dst)).unwrap_or(0);
    out.truncate(mark + n);
}

/// Write `text`'s UTF-16 units at the start of `dst`; how many (`None` if `dst` is too short,
/// which a `dst` of `text.len()` units never is).
fn utf16_into(text: &str, dst: &mut [u16]) -> Option<usize> {
    let mut o = 0;
    for ch in text.chars() {
        let c = ch as u32;
        if c < 0x1_0000 {
            *dst.get_mut(o)? = c as u16;
            o += 1;
        } else {
            let mut pair = [0u16; 2];
            for &u in ch.encode_utf16(&mut pair).iter() {
                *dst.get_mut(o)? = u;
                o += 1;
            }
        }
    }
    Some(o)
}

/// Chunks per compressed block.
pub const GROUP: u32 = 4;

/// Largest uncompressed block the reader accepts (and the writer writes): a corrupt header cannot
/// make it allocate more.
pub const MAX_BLOCK: usize = 16 << 20;

/// The v2/v3 section for the stored concatenation `text` (chunks coded by [`store`]) whose chunk
/// `i` starts at `starts[i]`. With LZ4,
/// fails if [`GROUP`] consecutive chunks hold more than [`MAX_BLOCK`] bytes.
pub fn encode(text: &[u8], starts: &[u32], codec: TextCodec) -> Result<Vec<u8>> {
    if codec == TextCodec::Ranked {
        return Err(Error::invalid("text", "the ranked code is written with its table (encode_ranked)"));
    }
    if codec != TextCodec::Lz4 {
        let mark = if codec == TextCodec::Hangul { HANGUL_MARK } else { 0 };
        let mut out = Vec::with_capacity(4 + text.len());
        out.extend(mark.to_le_bytes());
        out.extend_from_slice(text);
        return Ok(out);
    }
    let bounds: Vec<u32> =
        starts.iter().step_by(GROUP as usize).copied().chain(std::iter::once(text.len() as u32)).collect();
    let mut data = Vec::new();
    let mut packed = vec![0u32];
    for w in bounds.windows(2) {
        if (w[1] - w[0]) as usize > MAX_BLOCK {
            return Err(Error::input(
                "text",
                format!("{GROUP} chunks hold {} bytes, at most {MAX_BLOCK}", w[1] - w[0]),
            ));
        }
        data.extend(lz4_flex::block::compress(&text[w[0] as usize..w[1] as usize]));
        packed.push(data.len() as u32);
    }
    let mut out = Vec::with_capacity(8 + 8 * bounds.len() + data.len());
    out.extend(GROUP.to_le_bytes());
    out.extend((bounds.len() as u32 - 1).to_le_bytes());
    for v in packed.iter().chain(&bounds) {
        out.extend(v.to_le_bytes());
    }
    out.extend(data);
    Ok(out)
}

/// The v5 section for `text`, the concatenation of chunks coded with `table` ([`Coder::code`]).
pub fn encode_ranked(text: &[u8], table: &Ranked) -> Vec<u8> {
    let header = table.header();
    let mut out = Vec::with_capacity(4 + header.len() + text.len());
    out.extend(RANKED_MARK.to_le_bytes());
    out.extend(header);
    out.extend_from_slice(text);
    out
}

/// How an open index's text section is laid out: read from its header once, at open
/// ([`Layout::of`]); every chunk read goes through it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// v1: the concatenated UTF-8 is the section.
    Bare,
    /// v2+: a group word, then UTF-8 (0), the Hangul code (v3+), or LZ4 blocks.
    Grouped(u32),
    /// v5+: the ranked code, its table, and where the coded concatenation starts in the section.
    Ranked(Ranked, usize),
}

impl Layout {
    /// The layout of a text `section` in format `version`. A v5 ranked table is parsed and checked
    /// here; the other codecs are checked chunk by chunk, as they are read.
    pub fn of(section: &[u8], version: u32) -> Result<Layout> {
        if version < 2 {
            return Ok(Layout::Bare);
        }
        let group = u32_at(section, 0).ok_or_else(|| Error::corrupt("text", "no header"))?;
        if group == RANKED_MARK && version >= RANKED_SINCE {
            let (table, len) = Ranked::parse(section.get(4..).unwrap_or(&[]))?;
            return Ok(Layout::Ranked(table, 4 + len));
        }
        Ok(Layout::Grouped(group))
    }
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The stored bytes `off..end` of a concatenation that starts at byte `data` of `section` (chunk
/// `id`'s, for the error).
fn coded(section: &[u8], data: usize, id: u32, off: usize, end: usize) -> Result<&[u8]> {
    section.get(data..).and_then(|p| p.get(off..end)).ok_or_else(|| bad(id, "text out of range"))
}

/// The text of chunk `id`, at `off..off + len` of the stored (uncompressed) concatenation, from a
/// section laid out as `layout` says ([`Layout::of`] of the same section) in format `version`.
pub fn read(section: &[u8], layout: &Layout, version: u32, id: u32, off: u32, len: u32) -> Result<String> {
    let (off, end) = span(id, off, len)?;
    let group = match layout {
        Layout::Bare => 0,
        Layout::Grouped(g) => *g,
        Layout::Ranked(table, data) => {
            let coded = coded(section, *data, id, off, end)?;
            return table.decode(coded).ok_or_else(|| bad(id, "bad ranked character code"));
        }
    };
    if group == HANGUL_MARK && version >= 3 {
        let coded = coded(section, 4, id, off, end)?;
        return unhangul(coded).ok_or_else(|| bad(id, "bad Hangul two-byte code or UTF-8"));
    }
    let bytes = if let Some(b) = id.checked_div(group) {
        let b = b as usize;
        let blocks = u32_at(section, 4).ok_or_else(|| bad(id, "no block header"))? as usize;
        if b >= blocks {
            return Err(bad(id, &format!("block {b} of {blocks}")));
        }
        // The two tables (blocks + 1 entries each) must fit before any offset into them is
        // formed: then no sum below can wrap, with a 32-bit `usize` (wasm) as with a 64-bit one.
        if 8 + 8 * (blocks as u64 + 1) > section.len() as u64 {
            return Err(bad(id, "block table cut short"));
        }
        let table = |k: usize| u32_at(section, 8 + 4 * k).map(|v| v as usize);
        let data_at = 8 + 8 * (blocks + 1);
        let field = |k| table(k).ok_or_else(|| bad(id, "block table cut short"));
        let (c0, c1) = (field(b)?, field(b + 1)?);
        let (r0, r1) = (field(blocks + 1 + b)?, field(blocks + 2 + b)?);
        let packed = section
            .get(data_at..)
            .and_then(|data| data.get(c0..c1.max(c0)))
            .filter(|_| c1 >= c0)
            .ok_or_else(|| bad(id, "compressed block out of range"))?;
        if r1 < r0 || off < r0 || end > r1 {
            return Err(bad(id, &format!("text {off}..{end} outside its block {r0}..{r1}")));
        }
        // LZ4 expands at most ~255×: a larger claim is corruption, not a reason to allocate.
        if r1 - r0 > MAX_BLOCK || r1 - r0 > packed.len().saturating_mul(255).saturating_add(16) {
            return Err(bad(id, &format!("block {b} claims {} bytes from {}", r1 - r0, packed.len())));
        }
        let mut raw = vec![0u8; r1 - r0];
        match lz4_flex::block::decompress_into(packed, &mut raw) {
            Ok(n) if n == raw.len() => {}
            Ok(n) => return Err(bad(id, &format!("block {b} gave {n} bytes, not {}", raw.len()))),
            // lz4_flex's own message names the decoder's internals; one line of ours says enough
            // (and keeps its error formatting out of the browser build).
            Err(_) => return Err(bad(id, &format!("block {b} is not well-formed LZ4"))),
        }
        raw.truncate(end - r0);
        raw.drain(..off - r0);
        raw
    } else {
        let plain = if version < 2 { section } else { section.get(4..).unwrap_or(&[]) };
        plain.get(off..end).ok_or_else(|| bad(id, "text out of range"))?.to_vec()
    };
    String::from_utf8(bytes).map_err(|_| bad(id, "text is not UTF-8"))
}

/// `off..off + len` as `usize`, summed in `u32` so that a range past 4 GiB fails alike with a
/// 32-bit `usize` (wasm) and a 64-bit one.
fn span(id: u32, off: u32, len: u32) -> Result<(usize, usize)> {
    let end = off.checked_add(len).ok_or_else(|| bad(id, "text range overflows"))?;
    Ok((off as usize, end as usize))
}

/// The error of chunk `id`'s stored text (one copy for every way to read it).
#[cold]
fn bad(id: u32, d: &str) -> Error {
    Error::corrupt("text", format!("chunk {id}: {d}"))
}

/// [`read`] as UTF-16 code units appended to `out` (the same text, the same errors): straight
/// from the ranked character code (v5's default), through [`read`] for the other codecs.
pub fn read_utf16(
    section: &[u8],
    layout: &Layout,
    version: u32,
    id: u32,
    off: u32,
    len: u32,
    out: &mut Vec<u16>,
) -> Result<()> {
    let Layout::Ranked(table, data) = layout else {
        push_utf16(&read(section, layout, version, id, off, len)?, out);
        return Ok(());
    };
    let (off, end) = span(id, off, len)?;
    let coded = coded(section, *data, id, off, end)?;
    let mark = out.len();
    table.decode_utf16(coded, out).ok_or_else(|| {
        out.truncate(mark);
        bad(id, "bad ranked character code")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`read`] through the section's own layout.
    fn rd(section: &[u8], version: u32, id: u32, off: u32, len: u32) -> Result<String> {
        read(section, &Layout::of(section, version)?, version, id, off, len)
    }

    /// [`read_utf16`] through the section's own layout.
    fn rd16(section: &[u8], version: u32, id: u32, off: u32, len: u32, out: &mut Vec<u16>) -> Result<()> {
        read_utf16(section, &Layout::of(section, version)?, version, id, off, len, out)
    }

    fn sample(n: usize) -> (Vec<u8>, Vec<u32>, Vec<String>) {
        let texts: Vec<String> =
            (0..n).map(|i| format!("{i}번 청크: 연구개발비 정산 기준 {}", "가".repeat(i % 5))).collect();
        let (mut text, mut starts) = (Vec::new(), Vec::new());
        for t in &texts {
            starts.push(text.len() as u32);
            text.extend_from_slice(t.as_bytes());
        }
        (text, starts, texts)
    }

    #[test]
    fn every_chunk_reads_back() {
        for n in [1, 7, 8, 9, 17, 64] {
            let (text, starts, texts) = sample(n);
            let section = encode(&text, &starts, TextCodec::Lz4).unwrap();
            let plain = encode(&text, &starts, TextCodec::Plain).unwrap();
            assert!(section.len() < plain.len() || n < 8);
            for (i, t) in texts.iter().enumerate() {
                let got = rd(&section, 2, i as u32, starts[i], t.len() as u32).unwrap();
                assert_eq!(&got, t);
                assert_eq!(rd(&plain, 2, i as u32, starts[i], t.len() as u32).unwrap(), *t);
                assert_eq!(rd(&text, 1, i as u32, starts[i], t.len() as u32).unwrap(), *t);
            }
        }
    }

    #[test]
    fn hangul_code_round_trips_and_shrinks_korean() {
        let texts = ["연구개발비 정산 기준 제1조의2", "mixed 한글 and ASCII ·— é 😀 힣가", "", "각"];
        let (mut text, mut starts) = (Vec::new(), Vec::new());
        for t in texts {
            starts.push(text.len() as u32);
            text.extend_from_slice(&store(t, TextCodec::Hangul));
        }
        let section = encode(&text, &starts, TextCodec::Hangul).unwrap();
        assert!(store(texts[0], TextCodec::Hangul).len() < texts[0].len() * 3 / 4);
        for (i, t) in texts.iter().enumerate() {
            let len = store(t, TextCodec::Hangul).len() as u32;
            assert_eq!(rd(&section, 3, i as u32, starts[i], len).unwrap(), *t);
        }
        // Read as v2, the mark is not a codec: an error, never a panic or wrong text.
        assert!(rd(&section, 2, 0, starts[0], 3).is_err());
        // Damage: a syllable past U+D7A3, a cut pair, a cut UTF-8 sequence, every flipped byte.
        for bad in [&[0xAB, 0xFF][..], &[0x80][..], &[b'a', 0xE2, 0x80][..]] {
            let mut s = HANGUL_MARK.to_le_bytes().to_vec();
            s.extend_from_slice(bad);
            assert!(rd(&s, 3, 0, 0, bad.len() as u32).is_err(), "{bad:?}");
        }
        for at in 0..section.len() {
            let mut s = section.clone();
            s[at] ^= 0xa5;
            let _ = rd(&s, 3, 1, starts[1], 10);
        }
    }

    #[test]
    fn utf16_and_utf8_agree_on_random_code() {
        // Random stored bytes, mostly well-formed (ASCII, syllable pairs, UTF-8 sequences), some
        // not (pairs past U+D7A3, stray bytes, cut sequences): the UTF-16 decode succeeds exactly
        // when the UTF-8 one does, with the same text.
        let mut g = crate::test_bits::Bits(5);
        for round in 0..3000 {
            let mut coded = Vec::new();
            for _ in 0..(g.next() % 40) {
                match g.next() % 12 {
                    0..=3 => coded.push((g.next() % 0x80) as u8),
                    4..=8 => {
                        let s = (g.next() % 11_172) as u32;
                        coded.extend([0x80 + (s >> 8) as u8, s as u8]);
                    }
                    9 => coded
                        .extend("∙･😀é".chars().nth((g.next() % 4) as usize).unwrap().to_string().bytes()),
                    10 if round % 4 == 0 => coded.push((g.next() % 256) as u8),
                    _ => coded.push(b' '),
                }
            }
            let mut section = HANGUL_MARK.to_le_bytes().to_vec();
            section.extend_from_slice(&coded);
            let len = coded.len() as u32;
            let mut units = vec![9u16];
            let utf16 = rd16(&section, 3, 0, 0, len, &mut units);
            match rd(&section, 3, 0, 0, len) {
                Ok(t) => {
                    assert!(utf16.is_ok(), "{coded:?}");
                    assert_eq!(units[1..], t.encode_utf16().collect::<Vec<_>>()[..], "{coded:?}");
                }
                Err(_) => assert!(utf16.is_err() && units == [9], "{coded:?}"),
            }
        }
    }

    #[test]
    fn push_utf16_is_encode_utf16() {
        let texts =
            ["", "a", "ascii only", "연구개발비", "😀", "a😀b", "é·—\u{feff}힣가\u{10ffff}\u{ffff}", "\0x"];
        for t in texts {
            for prefix in [&[][..], &[1u16, 2, 3][..]] {
                let mut out = prefix.to_vec();
                push_utf16(t, &mut out);
                let want: Vec<u16> = prefix.iter().copied().chain(t.encode_utf16()).collect();
                assert_eq!(out, want, "{t:?}");
            }
        }
    }

    #[test]
    fn utf16_reads_the_same_text_and_refuses_the_same_damage() {
        let texts = ["연구개발비 정산 기준 제1조의2", "mixed 한글 and ASCII ·— é 😀 힣가\u{feff}", "", "각"];
        for codec in [TextCodec::Hangul, TextCodec::Plain, TextCodec::Lz4] {
            let (mut text, mut starts, mut lens) = (Vec::new(), Vec::new(), Vec::new());
            for t in texts {
                starts.push(text.len() as u32);
                let stored = store(t, codec);
                lens.push(stored.len() as u32);
                text.extend_from_slice(&stored);
            }
            let section = encode(&text, &starts, codec).unwrap();
            for (i, t) in texts.iter().enumerate() {
                let mut units = vec![7u16];
                rd16(&section, 3, i as u32, starts[i], lens[i], &mut units).unwrap();
                assert_eq!(units[1..], t.encode_utf16().collect::<Vec<_>>()[..], "{codec:?} {i}");
            }
            // Every damaged byte: UTF-16 succeeds exactly when UTF-8 does, with the same text.
            for at in 0..section.len() {
                let mut s = section.clone();
                s[at] ^= 0xa5;
                for (i, _) in texts.iter().enumerate() {
                    let utf8 = rd(&s, 3, i as u32, starts[i], lens[i]);
                    let mut units = Vec::new();
                    let utf16 = rd16(&s, 3, i as u32, starts[i], lens[i], &mut units);
                    match utf8 {
                        Ok(t) => assert_eq!(units, t.encode_utf16().collect::<Vec<_>>()),
                        Err(e) => {
                            assert_eq!((utf16.unwrap_err().to_string(), units.len()), (e.to_string(), 0))
                        }
                    }
                }
            }
        }
        for bad in [&[0xAB, 0xFF][..], &[0x80][..], &[b'a', 0xE2, 0x80][..], &[0xC3][..], &[0xFF, b'a'][..]] {
            let mut s = HANGUL_MARK.to_le_bytes().to_vec();
            s.extend_from_slice(bad);
            assert!(rd16(&s, 3, 0, 0, bad.len() as u32, &mut Vec::new()).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ranked_sections_read_back_and_refuse_damage_alike() {
        let texts = ["연구개발비 정산 기준 제1조의2", "mixed 한글 and ASCII ·— é 😀 힣가\u{feff}", "", "각"];
        let table = Ranked::of_texts(texts.iter().copied());
        let coder = table.coder();
        let (mut text, mut starts, mut lens) = (Vec::new(), Vec::new(), Vec::new());
        for t in texts {
            starts.push(text.len() as u32);
            let before = text.len();
            coder.code(t, &mut text);
            lens.push((text.len() - before) as u32);
        }
        let section = encode_ranked(&text, &table);
        assert!(encode(&text, &starts, TextCodec::Ranked).is_err(), "the ranked code needs its table");
        for (i, t) in texts.iter().enumerate() {
            assert_eq!(rd(&section, 5, i as u32, starts[i], lens[i]).unwrap(), *t);
            let mut units = vec![7u16];
            rd16(&section, 5, i as u32, starts[i], lens[i], &mut units).unwrap();
            assert_eq!(units[1..], t.encode_utf16().collect::<Vec<_>>()[..]);
        }
        // Read as v4, the mark is no codec: an error, never a panic or wrong text.
        assert!(rd(&section, 4, 0, starts[0], lens[0]).is_err());
        // Every damaged byte: the layout is refused at open, or both decoders agree.
        for at in 0..section.len() {
            let mut s = section.clone();
            s[at] ^= 0xa5;
            let Ok(layout) = Layout::of(&s, 5) else { continue };
            for i in 0..texts.len() {
                let utf8 = read(&s, &layout, 5, i as u32, starts[i], lens[i]);
                let mut units = Vec::new();
                let utf16 = read_utf16(&s, &layout, 5, i as u32, starts[i], lens[i], &mut units);
                match utf8 {
                    Ok(t) => assert_eq!(units, t.encode_utf16().collect::<Vec<_>>()),
                    Err(e) => assert_eq!((utf16.unwrap_err().to_string(), units.len()), (e.to_string(), 0)),
                }
            }
        }
        for cut in 0..section.len() {
            let _ = rd(&section[..cut], 5, 1, starts[1], lens[1]);
        }
    }

    #[test]
    fn damage_is_a_typed_error() {
        let (text, starts, texts) = sample(20);
        let section = encode(&text, &starts, TextCodec::Lz4).unwrap();
        let len = texts[9].len() as u32;
        for at in 0..section.len() {
            let mut s = section.clone();
            s[at] ^= 0xa5;
            // Any outcome but a panic: damaged bytes may still decode to some text.
            let _ = rd(&s, 2, 9, starts[9], len);
        }
        for cut in 0..section.len() {
            let _ = rd(&section[..cut], 2, 9, starts[9], len);
        }
        assert!(rd(&section, 2, 9, starts[9], 10_000).is_err());
        assert!(rd(&section, 2, 99, 0, 1).is_err());
        assert!(rd(&section, 2, 9, u32::MAX, 2).is_err());
        // A header that claims a huge block is refused before any allocation.
        let mut huge = section.clone();
        let blocks = u32::from_le_bytes([huge[4], huge[5], huge[6], huge[7]]) as usize;
        let last_raw = 8 + 4 * (blocks + 1) + 4 * blocks;
        huge[last_raw..last_raw + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let err =
            rd(&huge, 2, (blocks as u32 - 1) * GROUP, starts[(blocks - 1) * GROUP as usize], 1).unwrap_err();
        assert!(err.to_string().contains("claims"), "{err}");
    }
}
