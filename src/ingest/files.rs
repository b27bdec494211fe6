//! File access for ingestion: the few operations a build needs (what a path is, a folder's entries,
//! a file's text), behind [`Files`] so that the same pipeline runs natively over [`StdFs`]
//! (`std::fs`) and in wasm over files the host provides (the npm package's indexer hands Node's
//! `fs` to Rust). Every failure is an [`Error::Input`] naming the path.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result, os_message};

/// What a path names (symlinks followed, as `Path::is_file`/`is_dir` do).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// Nothing, or something else (a socket, a broken link…).
    Other,
}

/// File access for a build.
pub trait Files {
    /// What `path` is.
    fn kind(&self, path: &Path) -> Kind;
    /// The entries of directory `dir` as `dir.join(name)`, in any order.
    fn list(&self, dir: &Path) -> Result<Vec<PathBuf>>;
    /// The bytes of file `path`.
    fn read(&self, path: &Path) -> Result<Vec<u8>>;

    /// The text of file `path` (UTF-8; anything else is an error, as `std::fs::read_to_string`),
    /// without a byte-order mark at its start ([`without_bom`](crate::text::without_bom)).
    fn read_to_string(&self, path: &Path) -> Result<String> {
        let mut text = String::from_utf8(self.read(path)?).map_err(|e| {
            let bytes = e.as_bytes();
            let why = if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
                "UTF-16 text, not UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)".to_string()
            } else {
                format!(
                    "not UTF-8 text (byte {} is not): convert it first — older Korean documents are \
                     often EUC-KR/CP949 (iconv -f CP949 -t UTF-8)",
                    e.utf8_error().valid_up_to()
                )
            };
            Error::input(path.display().to_string(), why)
        })?;
        let bom = text.len() - crate::text::without_bom(&text).len();
        text.drain(..bom);
        Ok(text)
    }
}

/// The machine's file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct StdFs;

impl Files for StdFs {
    fn kind(&self, path: &Path) -> Kind {
        if path.is_file() {
            Kind::File
        } else if path.is_dir() {
            Kind::Dir
        } else {
            Kind::Other
        }
    }

    fn list(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        let rd =
            std::fs::read_dir(dir).map_err(|e| Error::input(dir.display().to_string(), os_message(&e)))?;
        Ok(rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
    }

    fn read(&self, path: &Path) -> Result<Vec<u8>> {
        // A device or pipe (a manifest's thesaurus = ["/dev/zero"]) would be read until memory
        // runs out: only regular files are read (links followed); a missing one is the read's error.
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(Error::input(path.display().to_string(), "not a regular file"));
        }
        std::fs::read(path).map_err(|e| Error::input(path.display().to_string(), os_message(&e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_fs_kinds_lists_and_reads() {
        let dir = std::env::temp_dir().join(format!("gg-files-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.txt"), "한글").unwrap();
        std::fs::write(dir.join("bad.txt"), [0xff, 0xfe]).unwrap();
        let fs = StdFs;
        assert_eq!(fs.kind(&dir), Kind::Dir);
        assert_eq!(fs.kind(&dir.join("a.txt")), Kind::File);
        assert_eq!(fs.kind(&dir.join("missing")), Kind::Other);
        let mut got = fs.list(&dir).unwrap();
        got.sort();
        assert_eq!(got, vec![dir.join("a.txt"), dir.join("bad.txt"), dir.join("sub")]);
        assert_eq!(fs.read_to_string(&dir.join("a.txt")).unwrap(), "한글");
        std::fs::write(dir.join("bom.txt"), "\u{feff}한글\u{feff}").unwrap();
        assert_eq!(
            fs.read_to_string(&dir.join("bom.txt")).unwrap(),
            "한글\u{feff}",
            "only the mark at the start"
        );
        let e = fs.read_to_string(&dir.join("bad.txt")).unwrap_err();
        assert_eq!(e.code(), "input");
        assert!(e.to_string().contains("bad.txt"), "{e}");
        assert_eq!(fs.read(&dir.join("missing")).unwrap_err().code(), "input");
        // A folder or a device is not read (a device could be read for ever).
        assert!(fs.read(&dir).unwrap_err().to_string().contains("not a regular file"));
        #[cfg(unix)]
        assert!(
            fs.read(Path::new("/dev/zero"))
                .unwrap_err()
                .to_string()
                .contains("/dev/zero: not a regular file")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
