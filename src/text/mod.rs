//! Text analysis: normalisation and the Korean + English analyzer.
//!
//! [`normalize`] maps equivalent code points to one form; [`Analyzer`] turns text into index terms
//! the same way for documents, queries and anchor words; [`korean`] and [`english`] hold the
//! language-specific pieces; [`case`] lowercases as std does, from compact tables.

mod analyzer;
pub mod case;
mod case_tables;
pub mod english;
pub mod korean;
mod normalize;
mod sentence;

pub use analyzer::{Analyzer, AnalyzerSettings, KoreanMode, Token, words_of};
pub use case::lowercase;
pub use normalize::normalize;
pub use sentence::sentences;

/// `text` without the byte-order mark a Windows editor may put at its start (U+FEFF): a file's
/// first line then reads as the editor shows it (a label, a log line, a document's title).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}
