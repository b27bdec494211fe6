//! Test support: crafted index files. CRC32 is public, so the checksums stop accidents, not intent:
//! these helpers change bytes and then recompute every checksum, as a forger would, so that tests
//! and fuzz targets reach the decoders behind the CRC checks (tests/integration/forged.rs,
//! fuzz/fuzz_targets/open_search.rs). Nothing in the library calls them.

use super::format::{self, ENTRY_LEN, HEADER_LEN, MAX_SECTIONS, read_u32};
use crate::error::Result;

/// Recompute, in place, the CRC of every section-table entry that lies inside `bytes`, then the
/// header CRC. Lenient by design: whatever the table says (overlapping, out-of-range or unknown
/// sections), every checksum that can be made to match is made to match; entries outside the file
/// are left as they are.
pub fn fix_checksums(bytes: &mut [u8]) {
    let Some(count) = read_u32(bytes, 12) else { return };
    let count = count.min(MAX_SECTIONS) as usize;
    for i in 0..count {
        let at = HEADER_LEN + ENTRY_LEN * i;
        let (Some(offset), Some(len)) = (read_u32(bytes, at + 4), read_u32(bytes, at + 8)) else { break };
        let (offset, len) = (offset as usize, len as usize);
        let Some(crc) = offset.checked_add(len).and_then(|end| bytes.get(offset..end)).map(format::crc32)
        else {
            continue;
        };
        if let Some(field) = bytes.get_mut(at + 12..at + 16) {
            field.copy_from_slice(&crc.to_le_bytes());
        }
    }
    if bytes.len() < HEADER_LEN {
        return;
    }
    let table_end = (HEADER_LEN + ENTRY_LEN * count).min(bytes.len());
    let mut h = super::crc::Crc32::new();
    h.update(&bytes[..16]);
    h.update(&bytes[HEADER_LEN..table_end]);
    let crc = h.finalize();
    bytes[16..20].copy_from_slice(&crc.to_le_bytes());
}

/// The file with section `id`'s bytes replaced by `mutate`'s (which may also change their length),
/// re-framed with every checksum recomputed. Every other section is copied as it is; the format
/// version is kept. An error if `bytes` are not a well-framed index or have no such section.
pub fn mutate_section(bytes: &[u8], id: u32, mutate: impl FnOnce(&mut Vec<u8>)) -> Result<Vec<u8>> {
    let mut sections: Vec<(u32, Vec<u8>)> =
        format::raw_sections(bytes)?.into_iter().map(|(i, d)| (i, d.to_vec())).collect();
    let Some((_, data)) = sections.iter_mut().find(|(i, _)| *i == id) else {
        return Err(crate::Error::invalid("section", format!("no section {id}")));
    };
    mutate(data);
    let raw: Vec<(u32, &[u8])> = sections.iter().map(|(i, d)| (*i, d.as_slice())).collect();
    Ok(format::write_raw(format::version(bytes), &raw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::format::{SectionId, read_table, verify, write};

    fn sample() -> Vec<u8> {
        write(&SectionId::ALL.iter().map(|&id| (id, vec![id as u8; 5])).collect::<Vec<_>>())
    }

    #[test]
    fn fixed_checksums_verify() {
        let mut v = sample();
        let last = v.len() - 1;
        v[last] ^= 0xFF;
        v[20] ^= 0x01; // an id in the table: the header CRC no longer matches either
        assert!(verify(&v).is_err());
        fix_checksums(&mut v);
        assert!(read_table(&v).is_err(), "section 1 was renamed 0: meta is missing");
        v[20] ^= 0x01;
        fix_checksums(&mut v);
        verify(&v).unwrap();
        // Short or empty input is left alone, not a panic.
        for n in [0, 3, 15, 19, 21] {
            fix_checksums(&mut v.clone()[..n.min(v.len())]);
        }
    }

    #[test]
    fn mutated_sections_verify_with_their_new_length() {
        let v = sample();
        let out = mutate_section(&v, SectionId::Text as u32, |d| d.extend_from_slice(b"more")).unwrap();
        verify(&out).unwrap();
        let text = read_table(&out).unwrap().into_iter().find(|s| s.id == SectionId::Text).unwrap();
        assert_eq!(&out[text.offset..text.offset + text.len], &[7, 7, 7, 7, 7, b'm', b'o', b'r', b'e']);
        assert!(mutate_section(&v, 99, |_| {}).is_err());
    }
}
