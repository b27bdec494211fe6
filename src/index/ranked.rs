//! The *ranked character code* for chunk text (format v5's default, [`TextCodec::Ranked`]).
//!
//! An index's non-ASCII characters, ranked by how often its chunk texts use them, each get a code
//! by rank: the most frequent `one` of them one byte, the next ones two, so that a byte-oriented
//! compressor (HTTP gzip) sees the Korean syllables of a text as it sees ASCII letters — a Hangul
//! syllable in UTF-8 is three bytes, in the v3 Hangul two-byte code two, whose lead byte says little
//! about which syllable follows. Measured (gzip -9 of the concatenated chunk texts): rnd 372 KB
//! (UTF-8) / 340 KB (Hangul two-byte code) → 296 KB, and 1.68 MB / 1.20 MB → 0.79 MB raw; lohelp
//! 1,111 KB → 1,049 KB gzipped. Decoding is a table lookup per character.
//!
//! ```text
//! byte b                       meaning
//! 0x00 … 0x7F                  ASCII b
//! 0x80 … 0x80 + one − 1        the character of rank b − 0x80
//! 0x80 + one … 0xFE, then c    the character of rank one + (b − 0x80 − one) · 256 + c
//! 0xFF, then a UTF-8 sequence  that character (beyond the table: rare characters of very large corpora)
//! ```
//!
//! The table — `one` (u32 LE), the table's byte length (u32 LE), then its characters in rank order
//! as UTF-8 — leads the text section after the codec mark ([`super::text`]). `one` is the largest
//! count (≤ 127) whose code space, `one + (127 − one) · 256`, holds every ranked character; a table
//! longer than the code space at `one` = 0 (32,512 characters) is cut and the rest are escaped.
//! Every code is checked on decode: a rank past the table, a cut pair, an escape that is not one
//! non-ASCII UTF-8 character is refused (`None`), never a panic or a wrong character.

use crate::error::{Error, Result};

/// The escape lead byte: a UTF-8 sequence follows.
const ESCAPE: u8 = 0xFF;
/// Two-byte lead bytes end before the escape: 127 lead values in all (0x80 … 0xFE).
const LEADS: u32 = 127;
/// Most characters a table can code (`one` = 0: every lead a two-byte lead).
pub const MAX_TABLE: usize = (LEADS * 256) as usize;

/// The characters of one index's text by rank, and how many of them take one byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranked {
    chars: Vec<char>,
    one: u32,
    /// Each character as one UTF-16 unit, 0 for a character past U+FFFF (two units: the slow
    /// path) — the JS hosts' decode reads this table.
    units: Vec<u16>,
    /// Per first byte of a code, its UTF-16 unit when the byte is the whole code (ASCII, a one-byte
    /// code of a character below U+10000), else 0 (NUL, a pair's lead, the escape: the slow path).
    first: Box<[u16; 256]>,
}

/// The code space of a table whose first `one` characters take one byte.
fn capacity(one: u32) -> usize {
    (one + (LEADS - one) * 256) as usize
}

impl Ranked {
    /// The table for `texts`: every non-ASCII character, most frequent first (ties by code point),
    /// cut at [`MAX_TABLE`]. Deterministic for the same texts.
    pub fn of_texts<'a>(texts: impl Iterator<Item = &'a str>) -> Ranked {
        let mut all: Vec<char> = texts.flat_map(str::chars).filter(|c| !c.is_ascii()).collect();
        all.sort_unstable();
        let mut counted: Vec<(usize, char)> = Vec::new();
        for c in all {
            match counted.last_mut() {
                Some((n, last)) if *last == c => *n += 1,
                _ => counted.push((1, c)),
            }
        }
        counted.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let chars: Vec<char> = counted.into_iter().take(MAX_TABLE).map(|(_, c)| c).collect();
        Ranked::with(chars)
    }

    fn with(chars: Vec<char>) -> Ranked {
        let one = (0..=LEADS).rev().find(|&one| capacity(one) >= chars.len()).unwrap_or(0);
        Ranked::new(chars, one)
    }

    fn new(chars: Vec<char>, one: u32) -> Ranked {
        let units: Vec<u16> =
            chars.iter().map(|&c| if (c as u32) < 0x1_0000 { c as u16 } else { 0 }).collect();
        let mut first = Box::new([0u16; 256]);
        for (b, slot) in first.iter_mut().enumerate() {
            *slot = if b < 0x80 {
                b as u16
            } else {
                units.get(b - 0x80).copied().filter(|_| b - 0x80 < one as usize).unwrap_or(0)
            };
        }
        Ranked { chars, one, units, first }
    }

    /// The table as stored (see the module docs).
    pub fn header(&self) -> Vec<u8> {
        let table: String = self.chars.iter().collect();
        let mut out = Vec::with_capacity(8 + table.len());
        out.extend(self.one.to_le_bytes());
        out.extend((table.len() as u32).to_le_bytes());
        out.extend(table.as_bytes());
        out
    }

    /// Read a stored table from the start of `bytes`: the table and the length of its header.
    pub fn parse(bytes: &[u8]) -> Result<(Ranked, usize)> {
        let bad = |d: &'static str| Error::corrupt("text", d);
        let word = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let (Some(one), Some(len)) = (word(0), word(4)) else { return Err(bad("character table cut short")) };
        let len = len as usize;
        let table =
            bytes.get(8..).and_then(|b| b.get(..len)).ok_or_else(|| bad("character table cut short"))?;
        let table = std::str::from_utf8(table).map_err(|_| bad("character table not UTF-8"))?;
        let chars: Vec<char> = table.chars().collect();
        if chars.iter().any(char::is_ascii) || one > LEADS || chars.len() > capacity(one) {
            return Err(bad("character table with an ASCII character or more than its code space"));
        }
        Ok((Ranked::new(chars, one), 8 + len))
    }

    /// A coder for this table (the writer's side: a rank lookup by character).
    pub fn coder(&self) -> Coder<'_> {
        let mut by_char: Vec<(char, u32)> =
            self.chars.iter().enumerate().map(|(r, &c)| (c, r as u32)).collect();
        by_char.sort_unstable();
        Coder { table: self, by_char }
    }

    /// The character whose code starts at `src[i]` (not ASCII) and how many bytes the code takes.
    #[inline]
    fn at(&self, src: &[u8], i: usize) -> Option<(char, usize)> {
        let b = *src.get(i)? as u32;
        if b == ESCAPE as u32 {
            // One UTF-8 sequence: its lead byte says its length.
            let n = match *src.get(i + 1)? {
                0xC2..0xE0 => 2,
                0xE0..0xF0 => 3,
                0xF0..0xF5 => 4,
                _ => return None,
            };
            let c = std::str::from_utf8(src.get(i + 1..i + 1 + n)?).ok()?.chars().next()?;
            return Some((c, 1 + n));
        }
        let lead = b - 0x80;
        if lead < self.one {
            return Some((*self.chars.get(lead as usize)?, 1));
        }
        let r = self.one + (lead - self.one) * 256 + *src.get(i + 1)? as u32;
        Some((*self.chars.get(r as usize)?, 2))
    }

    /// Decode `src` (`None` if it is not valid code).
    pub fn decode(&self, src: &[u8]) -> Option<String> {
        // A byte gives at most 4 bytes of UTF-8 (one-byte codes of Hangul give 3): one allocation.
        let mut out = String::with_capacity(src.len() * 4);
        let mut i = 0;
        while let Some(&b) = src.get(i) {
            if b < 0x80 {
                out.push(b as char);
                i += 1;
            } else {
                let (c, n) = self.at(src, i)?;
                out.push(c);
                i += n;
            }
        }
        Some(out)
    }

    /// Decode `src` straight to UTF-16 code units appended to `out` (`None` if it is not valid
    /// code: exactly when [`Ranked::decode`] refuses it; `out` may then hold a partial decode,
    /// which the caller truncates). A byte never gives more than two UTF-16 units (a one-byte
    /// code of a character past U+FFFF), so `out` grows once, by twice the code's bytes, and is cut
    /// to length. The common codes (ASCII, a one-byte code of a character below U+10000) are one
    /// load each from a table by first byte; pairs one more.
    pub fn decode_utf16(&self, src: &[u8], out: &mut Vec<u16>) -> Option<()> {
        let mark = out.len();
        out.resize(mark + 2 * src.len(), 0);
        let dst = out.get_mut(mark..)?;
        let (mut i, mut o) = (0usize, 0usize);
        let one = self.one as usize;
        let first = &*self.first;
        loop {
            // A run of one-byte codes: a load and a store each, no bounds check (zipped slices;
            // `o` ≤ 2·`i`, so `dst[o..]` is never shorter than the rest of `src`).
            let mut run = 0;
            for (slot, &b) in dst.get_mut(o..)?.iter_mut().zip(src.get(i..)?) {
                let unit = first[b as usize];
                if unit == 0 {
                    break;
                }
                *slot = unit;
                run += 1;
            }
            i += run;
            o += run;
            let Some(&b) = src.get(i) else { break };
            let b = b as usize;
            if (0x80 + one..ESCAPE as usize).contains(&b) {
                let r = one + ((b - 0x80 - one) << 8) + *src.get(i + 1)? as usize;
                let unit = *self.units.get(r)?;
                if unit != 0 {
                    *dst.get_mut(o)? = unit;
                    i += 2;
                    o += 1;
                    continue;
                }
            }
            if b == 0 {
                *dst.get_mut(o)? = 0;
                i += 1;
                o += 1;
                continue;
            }
            // A character past U+FFFF (two units) or an escape.
            let (c, n) = self.at(src, i)?;
            for &u in c.encode_utf16(&mut [0u16; 2]).iter() {
                *dst.get_mut(o)? = u;
                o += 1;
            }
            i += n;
        }
        out.truncate(mark + o);
        Some(())
    }
}

/// Codes texts in one [`Ranked`] table.
#[derive(Debug)]
pub struct Coder<'a> {
    table: &'a Ranked,
    /// The table's characters sorted, each with its rank.
    by_char: Vec<(char, u32)>,
}

impl Coder<'_> {
    /// Append `text` in the table's code to `out`.
    pub fn code(&self, text: &str, out: &mut Vec<u8>) {
        let one = self.table.one;
        for ch in text.chars() {
            if ch.is_ascii() {
                out.push(ch as u8);
                continue;
            }
            match self.by_char.binary_search_by(|e| e.0.cmp(&ch)) {
                Ok(i) => {
                    let r = self.by_char[i].1;
                    if r < one {
                        out.push(0x80 + r as u8);
                    } else {
                        let r = r - one;
                        out.extend([(0x80 + one + r / 256) as u8, (r % 256) as u8]);
                    }
                }
                Err(_) => {
                    out.push(ESCAPE);
                    out.extend(ch.encode_utf8(&mut [0u8; 4]).as_bytes());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXTS: [&str; 5] = [
        "연구개발비 정산 기준 제1조의2",
        "mixed 한글 and ASCII ·— é 😀 힣가\u{feff}",
        "",
        "각",
        "연구 연구 연구 연",
    ];

    #[test]
    fn texts_round_trip_and_frequent_characters_take_one_byte() {
        let t = Ranked::of_texts(TEXTS.iter().copied());
        assert_eq!(t.chars[0], '연', "the most frequent first");
        assert_eq!(t.one, LEADS, "a small table: every rank one byte");
        let (back, len) = Ranked::parse(&t.header()).unwrap();
        assert_eq!((back, len), (t.clone(), t.header().len()));
        for text in TEXTS {
            let mut coded = Vec::new();
            t.coder().code(text, &mut coded);
            assert_eq!(t.decode(&coded).as_deref(), Some(text));
            let mut units = vec![7u16];
            t.decode_utf16(&coded, &mut units).unwrap();
            assert_eq!(units[1..], text.encode_utf16().collect::<Vec<_>>()[..]);
            assert_eq!(coded.len(), text.chars().count(), "one byte a character: {text}");
        }
    }

    #[test]
    fn large_tables_use_pairs_and_escapes() {
        // Every Hangul syllable once, 가 most often: more than the one-byte space, fewer than pairs.
        let all: String = ('가'..='힣').collect();
        let texts = [all.as_str(), "가가가"];
        let t = Ranked::of_texts(texts.iter().copied());
        assert_eq!(t.chars.len(), 11_172);
        assert!(t.one < LEADS && capacity(t.one) >= t.chars.len() && capacity(t.one + 1) < t.chars.len());
        let mut coded = Vec::new();
        t.coder().code(&all, &mut coded);
        assert_eq!(t.decode(&coded).as_deref(), Some(all.as_str()));
        // A character outside the table is escaped.
        let mut coded = Vec::new();
        t.coder().code("a😀가", &mut coded);
        assert_eq!(coded[1], ESCAPE);
        assert_eq!(t.decode(&coded).as_deref(), Some("a😀가"));
        // A table over the whole code space is cut: the rest escape.
        let many: String = (0x4E00u32..0x4E00 + MAX_TABLE as u32 + 10).filter_map(char::from_u32).collect();
        let t = Ranked::of_texts([many.as_str()].into_iter());
        assert_eq!((t.chars.len(), t.one), (MAX_TABLE, 0));
        let mut coded = Vec::new();
        t.coder().code(&many, &mut coded);
        assert_eq!(t.decode(&coded).as_deref(), Some(many.as_str()));
    }

    #[test]
    fn damage_is_refused_alike_in_both_decoders() {
        let t = Ranked::of_texts(TEXTS.iter().copied());
        let pair = Ranked::with(('가'..='힣').collect());
        let mut g = crate::test_bits::Bits(11);
        for round in 0..4000 {
            let table = if round % 2 == 0 { &t } else { &pair };
            let src: Vec<u8> = (0..g.next() % 24).map(|_| g.next() as u8).collect();
            let utf8 = table.decode(&src);
            let mut units = Vec::new();
            match (utf8, table.decode_utf16(&src, &mut units)) {
                (Some(s), Some(())) => assert_eq!(units, s.encode_utf16().collect::<Vec<_>>()),
                (None, None) => {}
                other => panic!("{src:?}: {other:?}"),
            }
        }
        for bad in
            [&[0x80 + LEADS as u8 - 1][..], &[ESCAPE][..], &[ESCAPE, b'a'][..], &[ESCAPE, 0xE2, 0x80][..]]
        {
            assert!(t.decode(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn crafted_tables_are_refused() {
        let t = Ranked::of_texts(TEXTS.iter().copied());
        let h = t.header();
        for cut in 0..h.len() {
            assert!(Ranked::parse(&h[..cut]).is_err(), "{cut}");
        }
        let mut ascii = h.clone();
        ascii[8] = b'a';
        ascii.truncate(9);
        ascii[4..8].copy_from_slice(&1u32.to_le_bytes());
        assert!(Ranked::parse(&ascii).is_err());
        let mut over = h.clone();
        over[0..4].copy_from_slice(&(LEADS + 1).to_le_bytes());
        assert!(Ranked::parse(&over).is_err());
        let big = Ranked::with(('가'..='힣').collect());
        let mut too_many = big.header();
        too_many[0..4].copy_from_slice(&LEADS.to_le_bytes());
        assert!(Ranked::parse(&too_many).unwrap_err().to_string().contains("code space"));
    }
}
