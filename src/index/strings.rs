//! The string table: every title, location label, link and anchor word, stored once.
//!
//! ```text
//! u32 count   (count + 1) × u32 end-exclusive offsets into the bytes (first is 0)   bytes (UTF-8)
//! ```
//!
//! Records refer to strings by id; [`NONE`] means "absent". Lookups check bounds, order and UTF-8.

use std::collections::HashMap;

use super::format::read_u32;
use crate::error::{Error, Result};

/// String id meaning "no value".
pub const NONE: u32 = u32::MAX;

/// Builds a string table, interning equal strings to one id (ids in order of first use).
#[derive(Default)]
pub struct StringsWriter {
    ids: HashMap<String, u32>,
    list: Vec<String>,
}

impl StringsWriter {
    /// Id for `s`, adding it if new.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.list.len() as u32;
        self.ids.insert(s.to_string(), id);
        self.list.push(s.to_string());
        id
    }

    /// Id for an optional string ([`NONE`] for `None`).
    pub fn intern_opt(&mut self, s: Option<&str>) -> u32 {
        s.map_or(NONE, |s| self.intern(s))
    }

    /// The section bytes.
    pub fn finish(self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(self.list.len() as u32).to_le_bytes());
        let mut end = 0u32;
        out.extend_from_slice(&end.to_le_bytes());
        for s in &self.list {
            end += s.len() as u32;
            out.extend_from_slice(&end.to_le_bytes());
        }
        for s in &self.list {
            out.extend_from_slice(s.as_bytes());
        }
        out
    }
}

/// A view of a string table section.
#[derive(Debug, Clone, Copy)]
pub struct Strings<'a> {
    bytes: &'a [u8],
    count: u32,
}

impl<'a> Strings<'a> {
    /// Check the table's frame (count and offsets size) — O(1).
    pub fn new(bytes: &'a [u8]) -> Result<Strings<'a>> {
        let count = read_u32(bytes, 0).ok_or_else(|| Error::corrupt("strings", "missing count"))?;
        let need = 4 + 4 * (count as u64 + 1);
        if need > bytes.len() as u64 {
            return Err(Error::corrupt("strings", format!("{count} strings need {need} bytes of offsets")));
        }
        Ok(Strings { bytes, count })
    }

    /// Number of strings.
    pub fn len(&self) -> u32 {
        self.count
    }

    /// True when there are no strings.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// String `id`, `Ok(None)` for [`NONE`].
    pub fn get(&self, id: u32) -> Result<Option<&'a str>> {
        if id == NONE {
            return Ok(None);
        }
        if id >= self.count {
            return Err(Error::corrupt("strings", format!("string id {id} ≥ count {}", self.count)));
        }
        let base = 4 + 4 * (self.count as usize + 1);
        let at = 4 + 4 * id as usize;
        // In u64: a sum that wraps a 32-bit `usize` (wasm) must fail as it does natively.
        let (start, end) = match (read_u32(self.bytes, at), read_u32(self.bytes, at + 4)) {
            (Some(s), Some(e)) => (base as u64 + u64::from(s), base as u64 + u64::from(e)),
            _ => return Err(Error::corrupt("strings", "offset table cut short")),
        };
        let raw = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(s, e)| self.bytes.get(s..e))
            .ok_or_else(|| Error::corrupt("strings", format!("string {id} spans {start}..{end}")))?;
        std::str::from_utf8(raw)
            .map(Some)
            .map_err(|_| Error::corrupt("strings", format!("string {id} is not UTF-8")))
    }

    /// String `id`, or an error when it is absent.
    pub fn required(&self, id: u32, what: &'static str) -> Result<&'a str> {
        self.get(id)?.ok_or_else(|| Error::corrupt("strings", format!("{what} missing")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interns_and_reads() {
        let mut w = StringsWriter::default();
        let a = w.intern("감리원");
        let b = w.intern("page");
        assert_eq!(w.intern("감리원"), a);
        assert_eq!(w.intern_opt(None), NONE);
        let bytes = w.finish();
        let s = Strings::new(&bytes).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s.get(a).unwrap(), Some("감리원"));
        assert_eq!(s.get(b).unwrap(), Some("page"));
        assert_eq!(s.get(NONE).unwrap(), None);
        assert!(s.get(2).is_err());
    }

    #[test]
    fn corrupt_tables_are_errors() {
        let mut w = StringsWriter::default();
        w.intern("ab");
        let mut bytes = w.finish();
        assert!(Strings::new(&bytes[..6]).is_err());
        bytes[8] = 200; // end offset past the bytes
        assert!(Strings::new(&bytes).unwrap().get(0).is_err());
        let mut w = StringsWriter::default();
        w.intern("가");
        let mut bytes = w.finish();
        let n = bytes.len();
        bytes[n - 1] = 0xFF; // invalid UTF-8
        assert!(Strings::new(&bytes).unwrap().get(0).is_err());
    }
}
