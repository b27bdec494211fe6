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
use crate::error::{Error, Result};
use crate::index::MAGIC;

/// What a build's `--out` path holds before the index is written over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing<'a> {
    /// Nothing.
    Missing,
    /// A regular file, with its first bytes (up to eight).
    File(&'a [u8]),
    /// A directory, a symbolic link, a device or a pipe.
    Other,
}

/// May a build write its index to `out` (named in the error as the user gave it)? Over nothing, an
/// empty file or an index (a file that starts with [`MAGIC`], whatever its version or state): never
/// over a directory, link, device or pipe (the rename would replace it with a file), nor over a
/// manifest, a document or any other file a slip of `--out` names (`--out indexes/rnd.toml`).
pub fn check_out(out: &str, existing: Existing) -> Result<()> {
    match existing {
        Existing::Missing => Ok(()),
        Existing::File(head) if head.is_empty() || head.starts_with(&MAGIC) => Ok(()),
        Existing::File(_) => Err(Error::invalid(
            "out",
            format!(
                "{out} exists and is not an index file (a manifest, a document?): name the index to write, \
                 or remove that file first"
            ),
        )),
        Existing::Other => Err(Error::invalid(
            "out",
            format!(
                "{out} exists and is not a regular file (a directory, link, device or pipe); name an index file"
            ),
        )),
    }
}

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

    /// Cut every label to [`MAX_LABEL_CHARS`](crate::corpus::MAX_LABEL_CHARS) characters
    /// ([`clip_label`](crate::corpus::clip_label)): the title, each block's location, the section
    /// titles (their sections and words), the keywords and chapters. The build does this first:
    /// labels are copied into (or indexed with) every chunk under them, so a runaway one (a page in
    /// a `#` line, a `<title>` of megabytes) made the build quadratic.
    pub fn clip_labels(&mut self) {
        use crate::corpus::clip_label;
        clip_label(&mut self.source.title);
        self.blocks.iter_mut().for_each(|b| b.location.clip_labels());
        for (section, words) in &mut self.section_titles {
            clip_label(section);
            clip_label(words);
        }
        self.keywords.iter_mut().chain(&mut self.chapters).for_each(clip_label);
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

    #[test]
    fn a_build_replaces_only_nothing_an_empty_file_or_an_index() {
        let mut index = MAGIC.to_vec();
        index.truncate(8);
        for ok in [Existing::Missing, Existing::File(b""), Existing::File(&index)] {
            assert!(check_out("x.ggi", ok).is_ok(), "{ok:?}");
        }
        let toml = check_out("indexes/rnd.toml", Existing::File(b"name = ")).unwrap_err();
        assert_eq!(toml.code(), "invalid_argument");
        assert!(toml.to_string().contains("indexes/rnd.toml exists and is not an index file"), "{toml}");
        let dev = check_out("/dev/null", Existing::Other).unwrap_err();
        assert!(dev.to_string().contains("/dev/null exists and is not a regular file"), "{dev}");
        assert!(check_out("x.ggi", Existing::File(&MAGIC[..7])).is_err(), "seven bytes of the header");
    }
}
