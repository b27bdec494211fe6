//! Typed errors.
//!
//! Every failure a host can meet — bad index bytes, a wrong format version, a corrupt section, bad
//! input documents — is a variant of [`Error`] with the values that decided it and a message that says
//! how to fix it. Each variant has a stable machine-readable [`Error::code`] that crosses the wasm
//! boundary unchanged. Library code never panics on bad input; it returns one of these.

use std::fmt;

/// A groundgate error. Non-exhaustive: new variants may appear in minor releases.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The bytes do not start with the index magic. They are not a groundgate index (or were
    /// transferred in text mode). Fix: pass the `.ggi` file itself, read as binary.
    BadMagic {
        /// The first bytes found (at most 8).
        got: Vec<u8>,
    },
    /// The index was written in a format version this build cannot read. Fix: rebuild the index with
    /// this version of `groundgate build`, or use a groundgate release that reads `got`.
    UnsupportedVersion {
        /// Lowest version this build reads.
        min: u32,
        /// Highest version this build reads.
        max: u32,
        /// Version found in the file.
        got: u32,
    },
    /// The bytes end before a structure they announce. Usually an incomplete download or copy.
    /// Fix: fetch or copy the file again.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        expected: u64,
        /// Bytes available.
        got: u64,
    },
    /// A section's CRC32 does not match its bytes: the file was altered after it was written.
    /// Fix: rebuild or re-download the index.
    Checksum {
        /// The section whose checksum failed.
        section: &'static str,
        /// CRC32 stored in the section table.
        expected: u32,
        /// CRC32 of the bytes found.
        got: u32,
    },
    /// A structure inside the index is inconsistent (an offset out of range, a missing section, an
    /// unsorted list). The file is corrupt or was not written by groundgate. Fix: rebuild it.
    Corrupt {
        /// The section or structure concerned.
        section: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// Input documents could not be read or parsed while building an index. Fix: correct the input
    /// named in `detail`.
    Input {
        /// The file or record concerned.
        origin: String,
        /// What is wrong.
        detail: String,
    },
    /// A caller-supplied argument is out of range or malformed (empty query, k = 0, an unknown
    /// instance name …). Fix: as `detail` says.
    InvalidArgument {
        /// The argument's name.
        name: &'static str,
        /// What is wrong and what is accepted.
        detail: String,
    },
}

/// An [`Error`] as hosts see it: its stable code and its message (serialized in this field order).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ErrorReport {
    /// [`Error::code`].
    pub code: &'static str,
    /// The error's message (its `Display`).
    pub message: String,
}

impl Error {
    /// A stable, machine-readable code for the variant (for JSON and JS hosts).
    pub fn code(&self) -> &'static str {
        match self {
            Error::BadMagic { .. } => "bad_magic",
            Error::UnsupportedVersion { .. } => "unsupported_version",
            Error::Truncated { .. } => "truncated",
            Error::Checksum { .. } => "checksum",
            Error::Corrupt { .. } => "corrupt",
            Error::Input { .. } => "input",
            Error::InvalidArgument { .. } => "invalid_argument",
        }
    }

    /// The error as the `{"code", "message"}` object every host boundary (CLI JSON Lines, the
    /// plain-export ABI, JS exceptions) reports.
    pub fn report(&self) -> ErrorReport {
        ErrorReport { code: self.code(), message: self.to_string() }
    }

    pub(crate) fn corrupt(section: &'static str, detail: impl Into<String>) -> Error {
        Error::Corrupt { section, detail: detail.into() }
    }

    pub(crate) fn input(origin: impl Into<String>, detail: impl Into<String>) -> Error {
        Error::Input { origin: origin.into(), detail: bounded(detail.into()) }
    }

    /// An [`Error::InvalidArgument`].
    pub fn invalid(name: &'static str, detail: impl Into<String>) -> Error {
        Error::InvalidArgument { name, detail: bounded(detail.into()) }
    }
}

/// A serde_json error's message without its " at line L column C": where the caller's JSON text
/// put the culprit depends on how that text was spaced (or, from JS, on `JSON.stringify`).
#[cfg(any(feature = "tools", feature = "wasm"))]
pub(crate) fn json_message(e: &serde_json::Error) -> String {
    let mut msg = e.to_string();
    let tail = format!(" at line {} column {}", e.line(), e.column());
    if let Some(kept) = msg.strip_suffix(&tail).map(str::len) {
        msg.truncate(kept);
    }
    msg
}

/// An operating-system error as every face words it: the system's message with a lower-case first
/// letter and without Rust's " (os error N)" — "no such file or directory", as the npm bin words
/// Node's (`systemMessage` in www/npm/lib/load.js).
pub fn os_message(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => &text[..at],
        _ => &text,
    };
    let mut chars = text.chars();
    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
}

/// Most characters of an error's `detail`: a message that quotes what the caller passed (serde's
/// "unknown field `…`", a refused value) stays a line for a log, however large the input was.
pub const MAX_DETAIL_CHARS: usize = 1_000;

/// The byte offset after the first `max` characters of `text`, when it has more.
fn cut_at(text: &str, max: usize) -> Option<usize> {
    text.char_indices().nth(max).map(|(at, _)| at)
}

/// `detail` cut to [`MAX_DETAIL_CHARS`], with "…" where it was cut.
fn bounded(mut detail: String) -> String {
    if let Some(at) = cut_at(&detail, MAX_DETAIL_CHARS) {
        detail.truncate(at);
        detail.push('…');
    }
    detail
}

/// A caller's value as an error message echoes it, quoted (`{:?}`): whole up to `max` characters,
/// else its first `max` and "…" — a megabyte of source id or heading is not sent back to the caller
/// (or into an agent's context through MCP).
pub(crate) fn shown(value: &str, max: usize) -> String {
    match cut_at(value, max) {
        Some(at) => format!("{:?}…", &value[..at]),
        None => format!("{value:?}"),
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadMagic { got } => write!(
                f,
                "not a groundgate index: expected magic bytes {:?}, got {:?}; pass the .ggi file \
                 itself, read as binary",
                crate::index::MAGIC,
                got
            ),
            Error::UnsupportedVersion { min, max, got } => write!(
                f,
                "index format version {got} is not supported (this build reads {min}..={max}); \
                 rebuild the index with this version of `groundgate build`"
            ),
            Error::Truncated { what, expected, got } => write!(
                f,
                "index truncated while reading {what}: needed {expected} bytes, found {got}; the \
                 file is incomplete — copy or download it again"
            ),
            Error::Checksum { section, expected, got } => write!(
                f,
                "checksum mismatch in section {section}: stored {expected:#010x}, computed \
                 {got:#010x}; the file was altered after it was written — rebuild or re-download it"
            ),
            Error::Corrupt { section, detail } => {
                write!(f, "corrupt index ({section}): {detail}; rebuild the index with `groundgate build`")
            }
            Error::Input { origin, detail } => write!(f, "bad input {origin}: {detail}"),
            Error::InvalidArgument { name, detail } => write!(f, "invalid {name}: {detail}"),
        }
    }
}

impl std::error::Error for Error {}

/// Result with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_messages_say_how_to_fix() {
        let all = [
            Error::BadMagic { got: vec![1, 2] },
            Error::UnsupportedVersion { min: 1, max: 1, got: 9 },
            Error::Truncated { what: "header", expected: 10, got: 3 },
            Error::Checksum { section: "terms", expected: 1, got: 2 },
            Error::corrupt("postings", "x"),
            Error::input("a.html", "y"),
            Error::invalid("k", "z"),
        ];
        let mut codes: Vec<_> = all.iter().map(Error::code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        assert!(all[1].to_string().contains("rebuild"));
        assert!(all[2].to_string().contains("again"));
    }

    #[test]
    fn os_errors_read_as_the_npm_bin_words_them() {
        let missing = std::fs::read("/no/such/groundgate/file").unwrap_err();
        assert_eq!(os_message(&missing), "no such file or directory");
        assert_eq!(os_message(&std::io::Error::other("Custom text")), "custom text");
    }

    #[test]
    fn a_detail_quoting_a_huge_input_is_cut() {
        let huge = "x".repeat(10_000_000);
        let e = Error::invalid("options", format!("unknown field `{huge}`, expected `session`"));
        assert_eq!(e.to_string().chars().count(), "invalid options: ".len() + MAX_DETAIL_CHARS + 1);
        assert!(e.to_string().ends_with("xx…"));
        let short = Error::input("x.jsonl:3", "가".repeat(MAX_DETAIL_CHARS));
        assert!(!short.to_string().contains('…'), "{short}");
    }

    #[test]
    fn shown_quotes_and_cuts() {
        assert_eq!(shown("a\"b", 5), r#""a\"b""#);
        assert_eq!(shown("12345", 5), r#""12345""#);
        assert_eq!(shown("123456", 5), r#""12345"…"#);
        assert_eq!(shown(&"가".repeat(1000), 120).chars().count(), 123);
    }
}
