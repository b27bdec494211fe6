//! Structure-aware chunking.
//!
//! A chunk never spans two locations: consecutive blocks with the same [`Location`] are packed
//! together, and a new page, article, section or heading starts a new chunk. Within a location,
//! text is split into sentences (after `.`, `?`, `!`, `。` followed by white space, and at blank
//! lines) and sentences are packed greedily up to [`ChunkOptions::max_chars`]; a sentence longer
//! than that is cut at the last space before the limit. Every chunk records its character range in
//! the source's extracted text (blocks joined by `\n`).

use super::Document;
use crate::corpus::{Chunk, Location};
use crate::text::sentences;

/// Chunk size limits, in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkOptions {
    /// Largest chunk. Greedy packing then gives chunks of about 0.75–1.0 × this.
    pub max_chars: usize,
}

impl Default for ChunkOptions {
    fn default() -> Self {
        ChunkOptions { max_chars: 450 }
    }
}

/// Cut a piece longer than `max` characters at spaces (or anywhere, when there is none).
fn hard_split(piece: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = piece;
    // Whether more than `max` characters are left: a look `max` characters ahead, not a count of
    // the whole rest (which made a long piece quadratic).
    while let Some((cut_byte, _)) = rest.char_indices().nth(max) {
        let window = &rest[..cut_byte];
        let at = window
            .rfind(char::is_whitespace)
            .filter(|&i| i > 0)
            .map(|i| i + window[i..].chars().next().map_or(1, char::len_utf8))
            .unwrap_or(cut_byte);
        out.push(&rest[..at]);
        rest = &rest[at..];
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

struct Packer<'a> {
    opts: ChunkOptions,
    source: u32,
    out: &'a mut Vec<Chunk>,
    text: String,
    chars: usize,
    start: usize,
    location: Location,
}

impl Packer<'_> {
    fn flush(&mut self) {
        let text = self.text.trim();
        if !text.is_empty() {
            let lead = self.text.chars().take_while(|c| c.is_whitespace()).count();
            let len = text.chars().count();
            let start = self.start + lead;
            self.out.push(Chunk {
                source: self.source,
                text: text.to_string(),
                location: self.location.clone(),
                start: start as u32,
                end: (start + len) as u32,
            });
        }
        self.start += self.chars;
        self.text.clear();
        self.chars = 0;
    }

    fn add(&mut self, piece: &str) {
        let n = piece.chars().count();
        if self.chars > 0 && self.chars + n > self.opts.max_chars {
            self.flush();
        }
        self.text.push_str(piece);
        self.chars += n;
    }
}

/// Cut a document into chunks whose `source` field is `source`.
pub fn chunk_document(doc: &Document, source: u32, opts: ChunkOptions) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut p = Packer {
        opts,
        source,
        out: &mut out,
        text: String::new(),
        chars: 0,
        start: 0,
        location: doc.blocks.first().map(|b| b.location.clone()).unwrap_or_default(),
    };
    for (i, block) in doc.blocks.iter().enumerate() {
        if block.location != p.location {
            p.flush();
            p.location = block.location.clone();
        }
        if i > 0 {
            // The block separator belongs to the extracted text but not to any chunk.
            if p.chars == 0 {
                p.start += 1;
            } else {
                p.add("\n");
            }
        }
        for s in sentences(&block.text) {
            for piece in hard_split(s, opts.max_chars) {
                p.add(piece);
            }
        }
    }
    p.flush();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Source;
    use crate::ingest::Block;

    fn doc(blocks: &[(&str, Option<u32>)]) -> Document {
        Document {
            source: Source::default(),
            blocks: blocks
                .iter()
                .map(|(t, p)| Block {
                    text: t.to_string(),
                    location: Location { page: *p, ..Default::default() },
                })
                .collect(),
            keywords: Vec::new(),
            section_titles: Vec::new(),
            chapters: Vec::new(),
        }
    }

    #[test]
    fn never_crosses_a_page_and_respects_max() {
        let long = "가나다라마바사 아자차카. ".repeat(150);
        let d = doc(&[(&long, Some(1)), ("짧은 둘째 쪽.", Some(2))]);
        let chunks = chunk_document(&d, 0, ChunkOptions::default());
        assert!(chunks.len() > 3);
        for c in &chunks {
            assert!(c.text.chars().count() <= 450, "{}", c.text.chars().count());
        }
        let last = chunks.last().unwrap();
        assert_eq!(last.location.page, Some(2));
        assert_eq!(last.text, "짧은 둘째 쪽.");
        assert!(chunks[..chunks.len() - 1].iter().all(|c| c.location.page == Some(1)));
    }

    #[test]
    fn offsets_point_into_the_extracted_text() {
        let d = doc(&[("Alpha beta. Gamma delta.", Some(1)), ("Epsilon.", Some(1)), ("Zeta.", Some(2))]);
        let full: String = d.blocks.iter().map(|b| b.text.as_str()).collect::<Vec<_>>().join("\n");
        let chars: Vec<char> = full.chars().collect();
        for c in chunk_document(&d, 0, ChunkOptions::default()) {
            let slice: String = chars[c.start as usize..c.end as usize].iter().collect();
            assert_eq!(slice, c.text);
        }
    }

    #[test]
    fn hard_splits_a_run_without_sentence_ends() {
        let t = "word ".repeat(200);
        let d = doc(&[(&t, None)]);
        let chunks = chunk_document(&d, 0, ChunkOptions { max_chars: 100 });
        assert!(chunks.iter().all(|c| c.text.chars().count() <= 100));
        assert_eq!(chunks.iter().map(|c| c.text.split_whitespace().count()).sum::<usize>(), 200);
        let nospace = "가".repeat(250);
        let d = doc(&[(&nospace, None)]);
        assert_eq!(chunk_document(&d, 0, ChunkOptions { max_chars: 100 }).len(), 3);
    }
}
