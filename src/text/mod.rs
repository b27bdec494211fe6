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
pub use normalize::{compose_hangul, normalize};
pub use sentence::sentences;

/// `c.is_alphanumeric()`, a Hangul syllable answered first: std searches Unicode's tables for every
/// character outside ASCII, and Korean prompts are mostly syllables (all of them letters).
#[inline]
pub fn is_alphanumeric(c: char) -> bool {
    korean::is_hangul_syllable(c) || c.is_alphanumeric()
}

/// `text` without the byte-order mark a Windows editor may put at its start (U+FEFF): a file's
/// first line then reads as the editor shows it (a label, a log line, a document's title).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    #[test]
    fn is_alphanumeric_is_std_for_every_char() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(super::is_alphanumeric(c), c.is_alphanumeric(), "{:?}", c);
        }
    }
}
