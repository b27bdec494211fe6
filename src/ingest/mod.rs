//! Ingestion: documents in their own formats → sources and citable chunks (feature `ingest`; the
//! runtime wasm carries none of it — the separate indexer wasm, feature `indexer`, does, reading
//! files through the host via [`files::Files`]).
//!
//! Each format reader turns files into [`Document`]s — a [`Source`] plus a list of [`Block`]s
//! (paragraph-sized text with its [`Location`]). [`chunk::chunk_document`] then cuts blocks into
//! chunks of about 350–450 characters at sentence boundaries, never across a change of location
//! (page, article, section or heading). A [`manifest::Manifest`] names an instance's inputs and
//! settings; [`manifest::build_index`] runs the whole pipeline.
//!
//! Formats: [`html`] (lol_html), [`markup`] (Markdown, reStructuredText, plain text), [`jsonl`] (the
//! generic record format any converter can target), [`contents`] (a site's table of contents: the
//! chapters its pages sit under), [`statute`] (Korean statute text with 제N조
//! articles), [`manual`] (the R&D manual JSON layout), [`glossary`] (term → definition).

pub mod aliases;
pub mod chunk;
pub mod contents;
pub mod files;
pub mod glossary;
pub mod html;
pub mod jsonl;
pub mod manifest;
pub mod manual;
pub mod markup;
pub mod statute;

use crate::corpus::{Location, Source};

/// A paragraph-sized piece of a document with its location.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Block {
    /// The text.
    pub text: String,
    /// Where it stands.
    pub location: Location,
}

/// One source and its text, in reading order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Document {
    /// The citable source.
    pub source: Source,
    /// Its blocks.
    pub blocks: Vec<Block>,
    /// Index keywords the document declares about itself (a help page's keyword metadata): indexed
    /// with every chunk of the document, never shown as its text.
    pub keywords: Vec<String>,
    /// Words of the larger divisions a section belongs to, by section ([`Location::section`]): a
    /// manual section's chapter title, a statute's chapter (제N장 …). Indexed with every chunk of
    /// that section when the manifest's `[context] sections` is on, never shown as its text.
    pub section_titles: Vec<(String, String)>,
    /// The chapter headings the whole document sits under (a help page's place in the site's table
    /// of contents, [`contents`]): indexed with every chunk, never shown as its text.
    pub chapters: Vec<String>,
}

impl Document {
    /// The words [`section_titles`](Self::section_titles) holds for `section`.
    pub fn section_title(&self, section: &str) -> Option<&str> {
        self.section_titles.iter().find(|(s, _)| s == section).map(|(_, t)| t.as_str())
    }

    /// Append a block, skipping blank text.
    pub fn push(&mut self, text: &str, location: &Location) {
        let text = clean(text);
        if !text.is_empty() {
            self.blocks.push(Block { text, location: location.clone() });
        }
    }
}

/// Tidy extracted text: trim every line, drop trailing spaces, collapse runs of spaces and tabs,
/// and collapse runs of blank lines to one.
pub fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines() {
        let mut l = String::with_capacity(line.len());
        let mut space = false;
        for c in line.trim().chars() {
            if c == ' ' || c == '\t' || c == '\u{a0}' {
                space = true;
            } else {
                if space && !l.is_empty() {
                    l.push(' ');
                }
                space = false;
                l.push(c);
            }
        }
        if l.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { "\n" });
        }
        blank = false;
        out.push_str(&l);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_tidies_whitespace() {
        assert_eq!(clean("  a \t b  \n\n\n  c\r\n"), "a b\n\nc");
        assert_eq!(clean(" \n \n"), "");
    }
}
