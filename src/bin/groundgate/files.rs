//! Files the CLI reads whole besides indexes — labels, engine settings, decision logs, REBEL
//! criteria and replies — and the files it writes: the path in every message, an operating-system
//! error worded as the npm bin words it ([`io_error`]), and a device refused before it is read (a
//! `--labels /dev/zero` would otherwise be read until memory runs out). Pipes and process
//! substitutions (`--labels <(…)`) are read as files are.

use std::path::Path;

use groundgate::os_message;

/// An I/O error with the path it is about ([`os_message`]'s words).
pub fn io_error(path: &Path, e: &std::io::Error) -> String {
    format!("{}: {}", path.display(), os_message(e))
}

/// The bytes of the file at `path`, or a message naming the path.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, &e))?;
    if is_device(&meta) {
        return Err(format!("{}: a device, not a file", path.display()));
    }
    std::fs::read(path).map_err(|e| io_error(path, &e))
}

/// The UTF-8 text of the file at `path` ([`read`]); other bytes are an error naming the path and
/// the offset of the first bad byte.
pub fn read_text(path: &Path) -> Result<String, String> {
    String::from_utf8(read(path)?).map_err(|e| {
        format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(unix)]
fn is_device(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_char_device() || meta.file_type().is_block_device()
}

#[cfg(not(unix))]
fn is_device(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_refused_before_any_read() {
        #[cfg(unix)]
        assert_eq!(read(Path::new("/dev/zero")).unwrap_err(), "/dev/zero: a device, not a file");
        assert!(read(Path::new("/no/such/file")).unwrap_err().starts_with("/no/such/file: "));
    }

    #[test]
    fn text_names_the_path_and_the_first_bad_byte() {
        let dir = std::env::temp_dir().join(format!("gg-input-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("labels.jsonl");
        std::fs::write(&p, b"{}\n\xff").unwrap();
        assert_eq!(
            read_text(&p).unwrap_err(),
            format!("{}: not UTF-8 text (invalid byte at offset 3)", p.display())
        );
        std::fs::write(&p, "{\"prompt\": \"헌법\"}\n").unwrap();
        assert_eq!(read_text(&p).unwrap(), "{\"prompt\": \"헌법\"}\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
