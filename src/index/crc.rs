//! CRC-32 (IEEE 802.3, reflected polynomial `0xEDB88320`: the zlib / PNG / `crc32fast` checksum) of
//! the index container's sections and of the chunk texts.
//!
//! Slice-by-8 with its eight 256-entry tables computed once, at first use, instead of stored: the
//! `crc32fast` crate this replaces keeps sixteen such tables (16 KB) as static data, which in the
//! browser wasm is 16 KB of incompressible bytes in every download. Computing them costs a few
//! microseconds once per process. The values are the same as `crc32fast`'s (a test checks them
//! against it over many inputs and split points), so existing files and fixtures verify unchanged.

use std::sync::OnceLock;

/// The reflected IEEE polynomial.
const POLY: u32 = 0xEDB8_8320;

/// Slice-by-8 tables: `T[0]` is the byte-wise table, `T[k][b]` the CRC of byte `b` followed by `k`
/// zero bytes.
type Tables = [[u32; 256]; 8];

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Box<Tables>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Box::new([[0u32; 256]; 8]);
        for (b, slot) in (0u32..).zip(t[0].iter_mut()) {
            let mut c = b;
            for _ in 0..8 {
                c = if c & 1 == 1 { (c >> 1) ^ POLY } else { c >> 1 };
            }
            *slot = c;
        }
        for k in 1..8 {
            let (done, rest) = t.split_at_mut(k);
            let (first, prev) = (&done[0], &done[k - 1]);
            for (slot, &p) in rest[0].iter_mut().zip(prev.iter()) {
                *slot = (p >> 8) ^ first[(p & 0xFF) as usize];
            }
        }
        t
    })
}

/// A running CRC-32 over bytes fed in pieces ([`Crc32::update`]); the same value as over their
/// concatenation.
#[derive(Debug, Clone)]
pub struct Crc32 {
    /// The inverted running remainder.
    state: u32,
}

impl Default for Crc32 {
    fn default() -> Self {
        Self::new()
    }
}

impl Crc32 {
    /// The CRC of no bytes so far.
    pub fn new() -> Self {
        Self { state: !0 }
    }

    /// Feed more bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        let t = tables();
        let mut c = self.state;
        let mut blocks = bytes.chunks_exact(8);
        for b in &mut blocks {
            let lo = c ^ u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let hi = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
            c = t[7][(lo & 0xFF) as usize]
                ^ t[6][((lo >> 8) & 0xFF) as usize]
                ^ t[5][((lo >> 16) & 0xFF) as usize]
                ^ t[4][(lo >> 24) as usize]
                ^ t[3][(hi & 0xFF) as usize]
                ^ t[2][((hi >> 8) & 0xFF) as usize]
                ^ t[1][((hi >> 16) & 0xFF) as usize]
                ^ t[0][(hi >> 24) as usize];
        }
        for &b in blocks.remainder() {
            c = (c >> 8) ^ t[0][((c ^ b as u32) & 0xFF) as usize];
        }
        self.state = c;
    }

    /// The CRC of every byte fed so far.
    pub fn finalize(&self) -> u32 {
        !self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crc(bytes: &[u8]) -> u32 {
        let mut h = Crc32::new();
        h.update(bytes);
        h.finalize()
    }

    fn reference(bytes: &[u8]) -> u32 {
        let mut h = crc32fast::Hasher::new();
        h.update(bytes);
        h.finalize()
    }

    #[test]
    fn known_values() {
        assert_eq!(crc(b""), 0);
        assert_eq!(crc(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc(b"The quick brown fox jumps over the lazy dog"), 0x414F_A339);
    }

    #[test]
    fn same_as_crc32fast_for_every_length_and_split() {
        // Pseudo-random bytes (xorshift), all lengths 0..=300 around the 8-byte blocks, and the
        // same bytes fed in two pieces at every split point.
        let mut x = 0x9E37_79B9u32;
        let bytes: Vec<u8> = (0..300)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x >> 24) as u8
            })
            .collect();
        for n in 0..=bytes.len() {
            let want = reference(&bytes[..n]);
            assert_eq!(crc(&bytes[..n]), want, "length {n}");
            if n % 7 == 0 {
                for split in 0..=n {
                    let mut h = Crc32::new();
                    h.update(&bytes[..split]);
                    h.update(&bytes[split..n]);
                    assert_eq!(h.finalize(), want, "length {n} split {split}");
                }
            }
        }
        let text = "대한민국 헌법 제1조 ① 대한민국은 민주공화국이다. The constitution.".repeat(50);
        assert_eq!(crc(text.as_bytes()), reference(text.as_bytes()));
    }
}
