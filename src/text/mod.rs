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
