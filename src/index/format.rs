//! The container: magic, version, section table, CRC32 per section.
//!
//! ```text
//! offset  size      field
//! 0       8         magic  89 'G' 'G' 'I' 0D 0A 1A 0A   (PNG-style: catches text-mode transfers)
//! 8       4         format version, u32 LE               (see VERSION)
//! 12      4         section count n, u32 LE
//! 16      4         CRC32 of bytes 0..16 and of the section table
//! 20      16 × n    section table: id u32, offset u32, length u32, crc32 u32 (all LE)
//! …                 section bytes, in table order, each starting at its offset
//! ```
//!
//! Opening reads only this header and the table (O(sections)); a section's CRC is checked when the
//! reader needs it to be trusted (the FST dictionary, at open) or when [`verify`] is called. Unknown
//! section ids are skipped, so a later minor version may add sections that older readers ignore.

use crate::error::{Error, Result};

/// The first eight bytes of every index.
pub const MAGIC: [u8; 8] = [0x89, b'G', b'G', b'I', b'\r', b'\n', 0x1A, b'\n'];

/// The format version this build writes.
///
/// Compatibility policy: a reader accepts versions `MIN_VERSION..=VERSION`. Adding a section is
/// backwards compatible (no bump: readers skip unknown ids); changing the bytes of an existing
/// section bumps the version. Old versions are frozen as fixtures in `tests/fixtures/`.
///
/// History: 1 — chunk text stored as plain UTF-8; 2 — chunk text in LZ4 blocks
/// ([`text`](super::text)); 3 — chunk text in the Hangul two-byte code by default (gzip-friendly,
/// cheap to decode; see [`text`](super::text)); 4 — the record tables (term info, chunks, sources)
/// in byte planes, and term info without the idf column (computed from the document frequency at
/// lookup; see [`records`](super::records)): rnd.ggi 46 KB smaller gzipped; 5 — chunk text in the
/// ranked character code by default ([`ranked`](super::ranked)): rnd.ggi 44 KB smaller gzipped,
/// 0.4 MB smaller raw.
pub const VERSION: u32 = 5;
/// The oldest format version this build reads.
pub const MIN_VERSION: u32 = 1;

pub(crate) const HEADER_LEN: usize = 20;
pub(crate) const ENTRY_LEN: usize = 16;
/// Most sections a file may declare (a sanity bound for the table read).
pub(crate) const MAX_SECTIONS: u32 = 64;

/// The sections of an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u32)]
pub enum SectionId {
    /// bincode-encoded [`IndexMeta`](super::IndexMeta).
    Meta = 1,
    /// FST term dictionary: term bytes → term ordinal.
    Terms = 2,
    /// Per term ordinal: postings offset u32, document frequency u32 (in byte planes since v4;
    /// v1–v3 add the idf as f32 and store rows; see [`records`](super::records)).
    TermInfo = 3,
    /// Block-compressed postings (see [`postings`](super::postings)).
    Postings = 4,
    /// Per chunk: length in terms, u16 LE.
    DocLens = 5,
    /// Per chunk: nine u32 fields (see [`records`](super::records); byte planes since v4).
    Chunks = 6,
    /// The chunk texts: concatenated UTF-8 (v1), LZ4 blocks (v2; see [`text`](super::text)).
    Text = 7,
    /// The string table (see [`strings`](super::strings)).
    Strings = 8,
    /// Per source: six u32 string ids (byte planes since v4).
    Sources = 9,
    /// Anchor words: u32 string ids.
    Anchors = 10,
    /// Glossary: (term string id u32, chunk id u32) pairs.
    Glossary = 11,
    /// Optional: the gate model fitted by `groundgate calibrate --write`, bincode-encoded
    /// [`GateModel`](crate::gate::GateModel). Added without a version bump (older readers skip it).
    Gate = 12,
    /// Optional: per term ordinal, one byte — how common the term is in general text (a
    /// [`background`](crate::gate::background) level: Zipf × 20, 0 = not in the general word
    /// lists). Added without a version bump (older readers skip it).
    Background = 13,
    /// Optional: the names (countries, programming languages) the documents never mention, sorted, one per line (UTF-8, each
    /// line ended by `\n`; [`names`](crate::gate::names)). Added without a version bump (older
    /// readers skip it).
    Names = 14,
    /// Optional: the own names of a kind the documents are about (python in the Python FAQ) and
    /// that kind's names they never mention, which count only when a prompt names no own one
    /// ([`names::encode_guarded`](crate::gate::names::encode_guarded)). Added without a version
    /// bump (older readers skip it).
    GuardedNames = 15,
    /// Optional: per chunk, the weight of its source in the search ranking
    /// ([`weights`](super::weights)). Added without a version bump (older readers skip it).
    Weights = 16,
    /// Optional: the language the documents' readers write their prompts in, as its code (`ko`:
    /// a prompt without a Hangul syllable is not about these documents; [`script`](crate::gate::script)).
    /// Added without a version bump (older readers skip it).
    PromptLanguage = 17,
}

impl SectionId {
    /// All sections, in the order the writer lays them out.
    pub const ALL: [SectionId; 11] = [
        SectionId::Meta,
        SectionId::Terms,
        SectionId::TermInfo,
        SectionId::Postings,
        SectionId::DocLens,
        SectionId::Chunks,
        SectionId::Text,
        SectionId::Strings,
        SectionId::Sources,
        SectionId::Anchors,
        SectionId::Glossary,
    ];

    /// The section's name, used in error messages.
    pub fn name(self) -> &'static str {
        match self {
            SectionId::Meta => "meta",
            SectionId::Terms => "terms",
            SectionId::TermInfo => "term_info",
            SectionId::Postings => "postings",
            SectionId::DocLens => "doc_lens",
            SectionId::Chunks => "chunks",
            SectionId::Text => "text",
            SectionId::Strings => "strings",
            SectionId::Sources => "sources",
            SectionId::Anchors => "anchors",
            SectionId::Glossary => "glossary",
            SectionId::Gate => "gate",
            SectionId::Background => "background",
            SectionId::Names => "names",
            SectionId::GuardedNames => "guarded_names",
            SectionId::Weights => "weights",
            SectionId::PromptLanguage => "prompt_language",
        }
    }

    /// Sections a file may have (readers check their CRC before use).
    pub const OPTIONAL: [SectionId; 6] = [
        SectionId::Gate,
        SectionId::Background,
        SectionId::Names,
        SectionId::GuardedNames,
        SectionId::Weights,
        SectionId::PromptLanguage,
    ];

    fn from_u32(v: u32) -> Option<SectionId> {
        SectionId::ALL.into_iter().chain(SectionId::OPTIONAL).find(|s| *s as u32 == v)
    }
}

/// One entry of the section table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    /// Which section.
    pub id: SectionId,
    /// Byte offset from the start of the file.
    pub offset: usize,
    /// Length in bytes.
    pub len: usize,
    /// CRC32 (IEEE) of the section bytes.
    pub crc: u32,
}

/// Read a little-endian u32 at `at`.
pub(crate) fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// CRC32 (IEEE) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut h = super::crc::Crc32::new();
    h.update(bytes);
    h.finalize()
}

/// Frame sections into a file of the current [`VERSION`]. Sections are laid out in the order given.
pub fn write(sections: &[(SectionId, Vec<u8>)]) -> Vec<u8> {
    write_version(VERSION, sections)
}

/// The format version of bytes that [`read_table`] accepted.
pub fn version(bytes: &[u8]) -> u32 {
    read_u32(bytes, 8).unwrap_or(0)
}

/// [`write`] with an explicit version (to rewrite an older file without changing its layout).
pub fn write_version(version: u32, sections: &[(SectionId, Vec<u8>)]) -> Vec<u8> {
    let raw: Vec<(u32, &[u8])> = sections.iter().map(|(id, b)| (*id as u32, b.as_slice())).collect();
    write_raw(version, &raw)
}

/// Frame sections given by raw id (unknown ids included, so a rewrite keeps sections this build
/// does not know).
pub fn write_raw(version: u32, sections: &[(u32, &[u8])]) -> Vec<u8> {
    let table_len = ENTRY_LEN * sections.len();
    let mut offset = HEADER_LEN + table_len;
    let mut table = Vec::with_capacity(table_len);
    for (id, bytes) in sections {
        table.extend_from_slice(&id.to_le_bytes());
        table.extend_from_slice(&(offset as u32).to_le_bytes());
        table.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        table.extend_from_slice(&crc32(bytes).to_le_bytes());
        offset += bytes.len();
    }
    let mut out = Vec::with_capacity(offset);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(sections.len() as u32).to_le_bytes());
    let mut h = super::crc::Crc32::new();
    h.update(&out);
    h.update(&table);
    out.extend_from_slice(&h.finalize().to_le_bytes());
    out.extend_from_slice(&table);
    for (_, bytes) in sections {
        out.extend_from_slice(bytes);
    }
    out
}

/// Every section of checked bytes by raw id, in file order — known or not. Call after
/// [`read_table`] accepted the bytes; entries outside the file are an error.
pub fn raw_sections(bytes: &[u8]) -> Result<Vec<(u32, &[u8])>> {
    read_table(bytes)?;
    let mut out = Vec::with_capacity(entries(bytes).len());
    for (id, offset, len, _) in entries(bytes) {
        let data = offset
            .checked_add(len)
            .and_then(|end| bytes.get(offset..end))
            .ok_or_else(|| Error::corrupt("section table", format!("section {id} lies outside the file")))?;
        out.push((id, data));
    }
    out.sort_by_key(|(_, d)| d.as_ptr() as usize);
    Ok(out)
}

/// The section table's entries as stored, known ids or not: (raw id, offset, length, CRC32). Only
/// the header's count bounds them: call it on bytes whose table [`read_table`] checked.
fn entries(bytes: &[u8]) -> impl ExactSizeIterator<Item = (u32, usize, usize, u32)> + '_ {
    let count = read_u32(bytes, 12).unwrap_or(0).min(MAX_SECTIONS) as usize;
    (0..count).map(move |i| {
        let field = |k: usize| read_u32(bytes, HEADER_LEN + ENTRY_LEN * i + 4 * k).unwrap_or(0);
        (field(0), field(1) as usize, field(2) as usize, field(3))
    })
}

/// Parse and check the header and section table. Cheap: touches only the first
/// `20 + 16 × sections` bytes. Every required section must be present once and lie inside the file.
pub fn read_table(bytes: &[u8]) -> Result<Vec<Section>> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(Error::BadMagic { got: bytes.iter().take(8).copied().collect() });
    }
    let trunc =
        |what, expected: usize| Error::Truncated { what, expected: expected as u64, got: bytes.len() as u64 };
    let version = read_u32(bytes, 8).ok_or_else(|| trunc("header", HEADER_LEN))?;
    if !(MIN_VERSION..=VERSION).contains(&version) {
        return Err(Error::UnsupportedVersion { min: MIN_VERSION, max: VERSION, got: version });
    }
    let count = read_u32(bytes, 12).ok_or_else(|| trunc("header", HEADER_LEN))?;
    let stored_crc = read_u32(bytes, 16).ok_or_else(|| trunc("header", HEADER_LEN))?;
    if count > MAX_SECTIONS {
        return Err(Error::corrupt("header", format!("{count} sections declared, at most {MAX_SECTIONS}")));
    }
    let table_end = HEADER_LEN + ENTRY_LEN * count as usize;
    let table = bytes.get(HEADER_LEN..table_end).ok_or_else(|| trunc("section table", table_end))?;
    let mut h = super::crc::Crc32::new();
    h.update(&bytes[..16]);
    h.update(table);
    let got = h.finalize();
    if got != stored_crc {
        return Err(Error::Checksum { section: "header", expected: stored_crc, got });
    }
    let mut sections: Vec<Section> = Vec::with_capacity(count as usize);
    for (raw, offset, len, crc) in entries(bytes) {
        let Some(id) = SectionId::from_u32(raw) else { continue };
        let end = offset.checked_add(len).ok_or_else(|| Error::corrupt(id.name(), "length overflows"))?;
        if offset < table_end {
            return Err(Error::corrupt(id.name(), format!("offset {offset} overlaps the header")));
        }
        if end > bytes.len() {
            return Err(Error::Truncated { what: id.name(), expected: end as u64, got: bytes.len() as u64 });
        }
        if sections.iter().any(|s| s.id == id) {
            return Err(Error::corrupt(id.name(), "section appears twice"));
        }
        sections.push(Section { id, offset, len, crc });
    }
    for id in SectionId::ALL {
        if !sections.iter().any(|s| s.id == id) {
            return Err(Error::corrupt(id.name(), "required section missing"));
        }
    }
    Ok(sections)
}

/// Check one section's CRC32 against the table.
pub fn check_crc(bytes: &[u8], section: &Section) -> Result<()> {
    let data = bytes.get(section.offset..section.offset + section.len).ok_or(Error::Truncated {
        what: section.id.name(),
        expected: (section.offset + section.len) as u64,
        got: bytes.len() as u64,
    })?;
    let got = crc32(data);
    if got != section.crc {
        return Err(Error::Checksum { section: section.id.name(), expected: section.crc, got });
    }
    Ok(())
}

/// Check the whole file: the header and table ([`read_table`]), every section's CRC32 (sections
/// this build does not know included), and that nothing follows the last section (bytes appended
/// to an index are not part of it, and a file that carries them was altered).
pub fn verify(bytes: &[u8]) -> Result<()> {
    read_table(bytes)?;
    let mut end = HEADER_LEN + ENTRY_LEN * entries(bytes).len();
    for (raw, offset, len, stored) in entries(bytes) {
        let name = SectionId::from_u32(raw).map_or("(unknown id)", SectionId::name);
        let data = offset.checked_add(len).and_then(|e| bytes.get(offset..e));
        let data = data.ok_or_else(|| Error::corrupt(name, "lies outside the file"))?;
        let got = crc32(data);
        if got != stored {
            return Err(Error::Checksum { section: name, expected: stored, got });
        }
        end = end.max(offset + len);
    }
    if bytes.len() > end {
        let extra = bytes.len() - end;
        return Err(Error::corrupt("file end", format!("{extra} bytes follow the last section")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let sections: Vec<_> = SectionId::ALL.iter().map(|&id| (id, vec![id as u8; 3])).collect();
        write(&sections)
    }

    #[test]
    fn round_trip() {
        let bytes = sample();
        let table = read_table(&bytes).unwrap();
        assert_eq!(table.len(), SectionId::ALL.len());
        verify(&bytes).unwrap();
        let s = table[4];
        assert_eq!(&bytes[s.offset..s.offset + s.len], &[SectionId::DocLens as u8; 3]);
    }

    #[test]
    fn typed_errors() {
        let bytes = sample();
        assert!(matches!(read_table(b"PK\x03\x04"), Err(Error::BadMagic { .. })));
        assert!(matches!(read_table(&bytes[..10]), Err(Error::Truncated { .. })));
        let mut v = bytes.clone();
        v[8] = 7;
        assert!(matches!(read_table(&v), Err(Error::UnsupportedVersion { got: 7, .. })));
        let mut v = bytes.clone();
        v[20] ^= 1; // section table bit flip
        assert!(matches!(read_table(&v), Err(Error::Checksum { section: "header", .. })));
        let mut v = bytes.clone();
        let last = v.len() - 1;
        v[last] ^= 0x40;
        assert!(matches!(verify(&v), Err(Error::Checksum { section: "glossary", .. })));
        assert!(matches!(read_table(&bytes[..bytes.len() - 1]), Err(Error::Truncated { .. })));
    }

    #[test]
    fn verify_reads_the_whole_file() {
        // Bytes appended after the last section: the table still reads, verify refuses them.
        let mut v = sample();
        v.extend_from_slice(b"garbage");
        read_table(&v).unwrap();
        assert!(matches!(verify(&v), Err(Error::Corrupt { section: "file end", .. })));
        // A section this build does not know is skipped by readers, but its checksum counts.
        let mut raw: Vec<(u32, Vec<u8>)> = SectionId::ALL.iter().map(|&id| (id as u32, vec![1])).collect();
        raw.push((999, b"later".to_vec()));
        let raw: Vec<(u32, &[u8])> = raw.iter().map(|(id, b)| (*id, b.as_slice())).collect();
        let unknown = write_raw(VERSION, &raw);
        verify(&unknown).unwrap();
        let mut v = unknown.clone();
        let last = v.len() - 1;
        v[last] ^= 1;
        assert!(matches!(verify(&v), Err(Error::Checksum { section: "(unknown id)", .. })));
    }
}
