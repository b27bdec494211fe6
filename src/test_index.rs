//! Tiny indexes for unit tests: texts as the chunks of one source, in order (chunk i = texts[i]).

use crate::corpus::{Chunk, Source};
use crate::index::IndexBuilder;
use crate::text::AnalyzerSettings;

/// The bytes of an index holding `texts` as the chunks of one source `s`, default analyzer.
pub(crate) fn of_texts<T: AsRef<str>>(texts: &[T]) -> Vec<u8> {
    let mut b = IndexBuilder::new("t", AnalyzerSettings::default());
    let s = b.add_source(Source { id: "s".into(), ..Default::default() }).unwrap();
    for t in texts {
        b.add_chunk(Chunk { source: s, text: t.as_ref().into(), ..Default::default() }).unwrap();
    }
    b.build().unwrap()
}
