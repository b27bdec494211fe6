//! Bad index bytes: each kind of damage gives its typed error, and nothing panics.

use groundgate::index::format::{SectionId, read_table};
use groundgate::{Error, Index, search};

use crate::util::excerpt_index;

fn open(bytes: &[u8]) -> Result<Index<&[u8]>, Error> {
    Index::open(bytes)
}

#[test]
fn truncated_files_are_truncated_errors() {
    let bytes = excerpt_index();
    for cut in [8, 12, 19, 20, 60, bytes.len() / 2, bytes.len() - 1] {
        match open(&bytes[..cut]) {
            Err(Error::Truncated { expected, got, .. }) => assert!(expected > got, "cut {cut}"),
            other => panic!("cut at {cut}: expected Truncated, got {:?}", other.err()),
        }
    }
    assert!(matches!(open(&bytes[..3]), Err(Error::BadMagic { .. })));
    assert!(matches!(open(&[]), Err(Error::BadMagic { .. })));
}

#[test]
fn bit_flips_are_checksum_errors() {
    let bytes = excerpt_index();
    let table = read_table(bytes).expect("table");
    for s in &table {
        if s.len == 0 {
            continue;
        }
        let mut v = bytes.to_vec();
        v[s.offset + s.len / 2] ^= 0x10;
        let err = match open(&v) {
            Err(e) => e,
            Ok(index) => index.verify().expect_err("verify must notice the flip"),
        };
        match err {
            Error::Checksum { section, expected, got } => {
                assert_eq!(section, s.id.name());
                assert_ne!(expected, got);
            }
            other => panic!("flip in {}: expected Checksum, got {other:?}", s.id.name()),
        }
    }
    // A flip in the section table itself is caught by the header checksum.
    let mut v = bytes.to_vec();
    v[24] ^= 0x01;
    assert!(matches!(open(&v), Err(Error::Checksum { section: "header", .. })));
}

#[test]
fn wrong_magic_says_what_the_file_is_not() {
    let mut v = excerpt_index().to_vec();
    v[..4].copy_from_slice(b"PK\x03\x04");
    let e = open(&v).err().expect("error");
    assert!(matches!(e, Error::BadMagic { .. }));
    assert_eq!(e.code(), "bad_magic");
    assert!(e.to_string().contains("not a groundgate index"), "{e}");
}

#[test]
fn wrong_version_names_both_versions_and_the_fix() {
    for version in [0u32, groundgate::index::VERSION + 1, 99, u32::MAX] {
        let mut v = excerpt_index().to_vec();
        v[8..12].copy_from_slice(&version.to_le_bytes());
        match open(&v) {
            Err(e @ Error::UnsupportedVersion { got, .. }) => {
                assert_eq!(got, version);
                assert!(e.to_string().contains("rebuild"), "{e}");
            }
            other => panic!("version {version}: {:?}", other.err()),
        }
    }
}

#[test]
fn every_single_byte_corruption_is_an_error_or_a_valid_answer() {
    // Flip each byte in turn (stepping through large sections) and use the index fully: open,
    // search, read every hit. Nothing may panic.
    let bytes = excerpt_index();
    let step = (bytes.len() / 4000).max(1);
    let mut errors = 0;
    for at in (0..bytes.len()).step_by(step) {
        let mut v = bytes.to_vec();
        v[at] = v[at].wrapping_add(0x5b);
        if let Ok(index) = open(&v) {
            for q in ["기술료 정의", "대한민국 주권", "find toolbar", "indentation"] {
                let _ = search::search(&index, q, 5);
            }
            let _ = index.verify();
        } else {
            errors += 1;
        }
    }
    assert!(errors > 0);
}

#[test]
fn garbage_and_missing_sections_are_errors() {
    for n in [0usize, 1, 7, 8, 20, 100, 5000] {
        let junk: Vec<u8> = (0..n).map(|i| (i * 31 % 251) as u8).collect();
        assert!(open(&junk).is_err());
    }
    // A valid frame that lacks a required section.
    let frame = groundgate::index::format::write(&[(SectionId::Meta, vec![1, 2, 3])]);
    assert!(matches!(open(&frame), Err(Error::Corrupt { .. })));
}
