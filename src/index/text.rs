//! The chunk texts (section `text`).
//!
//! Format v1 stores them concatenated as UTF-8. Format v2 starts with a `u32 group` and is either
//! plain (`group` = 0, then the concatenated UTF-8) or cuts the concatenation at every `group`th
//! chunk ([`GROUP`] = 8) and compresses each piece as one LZ4 block ([`TextCodec::Lz4`]; texts
//! shrink 1.6–2×, a lookup decompresses one block of a few kilobytes):
//!
//! ```text
//! u32 group   u32 blocks
//! (blocks + 1) × u32   start of each compressed block, relative to the data; the last = data length
//! (blocks + 1) × u32   start of each block's text in the uncompressed concatenation
//! …                    the compressed blocks
//! ```
//!
//! Chunk records keep the (offset, length) of their text in the uncompressed concatenation in both
//! versions. Every offset is checked on use and a block that does not decompress to exactly its
//! declared length is [`Error::Corrupt`].

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// How an index stores its chunk text.
///
/// `Lz4` makes the index about a third smaller on disk and in memory; `Plain` makes top-k hits a
/// little cheaper and gzips better (for indexes served over a compressed HTTP transfer, plain text
/// gives the smaller download). Measured in docs/peer-bench.md.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextCodec {
    /// LZ4 blocks of [`GROUP`] chunks (the default).
    #[default]
    Lz4,
    /// Uncompressed UTF-8.
    Plain,
}

/// Chunks per compressed block.
pub const GROUP: u32 = 4;

/// Largest uncompressed block the reader accepts (and the writer writes): a corrupt header cannot
/// make it allocate more.
pub const MAX_BLOCK: usize = 16 << 20;

/// The v2 section for the concatenated `text` whose chunk `i` starts at `starts[i]`. With LZ4,
/// fails if [`GROUP`] consecutive chunks hold more than [`MAX_BLOCK`] bytes.
pub fn encode(text: &[u8], starts: &[u32], codec: TextCodec) -> Result<Vec<u8>> {
    if codec == TextCodec::Plain {
        let mut out = Vec::with_capacity(4 + text.len());
        out.extend(0u32.to_le_bytes());
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

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The text of chunk `id`, at `off..off + len` of the uncompressed concatenation.
pub fn read(section: &[u8], version: u32, id: u32, off: u32, len: u32) -> Result<String> {
    let bad = |d: String| Error::corrupt("text", format!("chunk {id}: {d}"));
    let (off, len) = (off as usize, len as usize);
    let end = off.checked_add(len).ok_or_else(|| bad("text range overflows".into()))?;
    let group = if version < 2 { 0 } else { u32_at(section, 0).ok_or_else(|| bad("no header".into()))? };
    let bytes = if let Some(b) = id.checked_div(group) {
        let b = b as usize;
        let blocks = u32_at(section, 4).ok_or_else(|| bad("no block header".into()))? as usize;
        if b >= blocks {
            return Err(bad(format!("block {b} of {blocks}")));
        }
        let table = |k: usize| u32_at(section, 8 + 4 * k).map(|v| v as usize);
        let data_at = 8 + 8 * (blocks + 1);
        let field = |k| table(k).ok_or_else(|| bad("block table cut short".into()));
        let (c0, c1) = (field(b)?, field(b + 1)?);
        let (r0, r1) = (field(blocks + 1 + b)?, field(blocks + 2 + b)?);
        let packed = section
            .get(data_at + c0..data_at + c1.max(c0))
            .filter(|_| c1 >= c0)
            .ok_or_else(|| bad("compressed block out of range".into()))?;
        if r1 < r0 || off < r0 || end > r1 {
            return Err(bad(format!("text {off}..{end} outside its block {r0}..{r1}")));
        }
        // LZ4 expands at most ~255×: a larger claim is corruption, not a reason to allocate.
        if r1 - r0 > MAX_BLOCK || r1 - r0 > packed.len().saturating_mul(255) + 16 {
            return Err(bad(format!("block {b} claims {} bytes from {}", r1 - r0, packed.len())));
        }
        let mut raw = vec![0u8; r1 - r0];
        match lz4_flex::block::decompress_into(packed, &mut raw) {
            Ok(n) if n == raw.len() => {}
            Ok(n) => return Err(bad(format!("block {b} gave {n} bytes, not {}", raw.len()))),
            Err(e) => return Err(bad(format!("block {b}: {e}"))),
        }
        raw.truncate(end - r0);
        raw.drain(..off - r0);
        raw
    } else {
        let plain = if version < 2 { section } else { section.get(4..).unwrap_or(&[]) };
        plain.get(off..end).ok_or_else(|| bad("text out of range".into()))?.to_vec()
    };
    String::from_utf8(bytes).map_err(|_| bad("text is not UTF-8".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
                let got = read(&section, 2, i as u32, starts[i], t.len() as u32).unwrap();
                assert_eq!(&got, t);
                assert_eq!(read(&plain, 2, i as u32, starts[i], t.len() as u32).unwrap(), *t);
                assert_eq!(read(&text, 1, i as u32, starts[i], t.len() as u32).unwrap(), *t);
            }
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
            let _ = read(&s, 2, 9, starts[9], len);
        }
        for cut in 0..section.len() {
            let _ = read(&section[..cut], 2, 9, starts[9], len);
        }
        assert!(read(&section, 2, 9, starts[9], 10_000).is_err());
        assert!(read(&section, 2, 99, 0, 1).is_err());
        assert!(read(&section, 2, 9, u32::MAX, 2).is_err());
        // A header that claims a huge block is refused before any allocation.
        let mut huge = section.clone();
        let blocks = u32::from_le_bytes([huge[4], huge[5], huge[6], huge[7]]) as usize;
        let last_raw = 8 + 4 * (blocks + 1) + 4 * blocks;
        huge[last_raw..last_raw + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let err = read(&huge, 2, (blocks as u32 - 1) * GROUP, starts[(blocks - 1) * GROUP as usize], 1)
            .unwrap_err();
        assert!(err.to_string().contains("claims"), "{err}");
    }
}
