//! The corpus model shared by ingestion, the index and search: sources, locations and chunks.
//!
//! A [`Source`] is one citable document (a manual, a statute, a help page, a FAQ file, a glossary).
//! A [`Chunk`] is a passage of about 350–450 characters cut from one source at paragraph or sentence
//! boundaries, never across a page or an article; it carries its [`Location`] so that every piece of
//! evidence can be cited; a [`Citation`] is what a reader is shown of both.

use serde::{Deserialize, Serialize};

/// One citable document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Stable identifier (a file stem, a page path …), unique within an index.
    pub id: String,
    /// Human-readable title.
    pub title: String,
    /// Kind / authority class, e.g. `statute`, `manual`, `help`, `faq`, `glossary`, `document`.
    pub kind: String,
    /// Reference date (the date the text is current to), as written by the source, e.g. `2026-06`.
    pub date: Option<String>,
    /// Where a reader can open the source.
    pub link: Option<String>,
    /// Links to attachments or related records.
    pub links: Vec<String>,
}

/// The most characters a stored label keeps: a source's title, a chunk's section, heading and
/// article. Labels go out with every hit, and a heading is indexed with (and, while chunking,
/// copied into) every chunk under it, so a runaway one (a whole page in a `#` line, a `<title>` of
/// megabytes) would make the build quadratic and every answer huge. The default indexes' longest is
/// 112 characters (a Python FAQ question).
pub const MAX_LABEL_CHARS: usize = 300;

/// Cut `label` to [`MAX_LABEL_CHARS`] characters, the last one `…`, when it is longer.
pub fn clip_label(label: &mut String) {
    if label.char_indices().nth(MAX_LABEL_CHARS).is_some() {
        let keep = label.char_indices().nth(MAX_LABEL_CHARS - 1).map_or(label.len(), |(at, _)| at);
        label.truncate(keep);
        label.push('…');
    }
}

/// What a label cut by [`clip_label`] keeps of the text it was cut from: without its `…` (a
/// label of exactly [`MAX_LABEL_CHARS`] ending in `…`); any other label as it is.
pub fn uncut_label(label: &str) -> &str {
    match label.strip_suffix('…') {
        Some(rest) if label.chars().count() == MAX_LABEL_CHARS => rest,
        _ => label,
    }
}

/// Where in its source a chunk stands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// Printed page number.
    pub page: Option<u32>,
    /// Statute article label, e.g. `제10조` or `제10조의2`.
    pub article: Option<String>,
    /// Section identifier or chapter, e.g. `1-1`, `제2장 국민의 권리와 의무`.
    pub section: Option<String>,
    /// Nearest heading (for FAQs, the question).
    pub heading: Option<String>,
}

impl Location {
    /// Cut the section, heading and article labels to [`MAX_LABEL_CHARS`] ([`clip_label`]).
    pub fn clip_labels(&mut self) {
        for label in [&mut self.section, &mut self.heading, &mut self.article].into_iter().flatten() {
            clip_label(label);
        }
    }
}

/// A passage of a source with its citation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunk {
    /// Index of the source in the index's source table.
    pub source: u32,
    /// The passage text.
    pub text: String,
    /// Where it stands in the source.
    pub location: Location,
    /// Character offset of the passage in the source's extracted text (start, inclusive).
    pub start: u32,
    /// Character offset of the passage in the source's extracted text (end, exclusive).
    pub end: u32,
}

/// A full citation: which source, where in it, as of when, and where to read it. Shared by search
/// hits, injected evidence and search hints (flattened into their JSON).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Citation {
    /// Source id.
    pub source: String,
    /// Source title.
    pub title: String,
    /// Printed page.
    pub page: Option<u32>,
    /// Article label (제N조).
    pub article: Option<String>,
    /// Section id or chapter.
    pub section: Option<String>,
    /// Nearest heading.
    pub heading: Option<String>,
    /// Reference date of the source.
    pub date: Option<String>,
    /// Link to the source.
    pub link: Option<String>,
}

impl Citation {
    /// The citation of a chunk at `location` in `source`.
    pub fn new(source: Source, location: Location) -> Self {
        Citation {
            source: source.id,
            title: source.title,
            page: location.page,
            article: location.article,
            section: location.section,
            heading: location.heading,
            date: source.date,
            link: source.link,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_is_cut_to_its_limit_by_characters_not_bytes() {
        for (unit, n) in
            [("가", MAX_LABEL_CHARS), ("a", MAX_LABEL_CHARS + 1), ("😀", MAX_LABEL_CHARS + 1), ("é", 1_000)]
        {
            let mut label = unit.repeat(n);
            clip_label(&mut label);
            let cut = n > MAX_LABEL_CHARS;
            assert_eq!(label.chars().count(), n.min(MAX_LABEL_CHARS), "{unit} × {n}");
            assert_eq!(label.ends_with('…'), cut, "{unit} × {n}");
            if cut {
                assert_eq!(label.trim_end_matches('…'), unit.repeat(MAX_LABEL_CHARS - 1));
            }
        }
        let mut loc =
            Location {
                heading: Some("h".repeat(301)), article: Some("제1조".into()), ..Default::default()
            };
        loc.clip_labels();
        assert_eq!(loc.heading.as_deref().map(|h| h.chars().count()), Some(MAX_LABEL_CHARS));
        assert_eq!(loc.heading.as_deref().map(uncut_label), Some("h".repeat(299).as_str()));
        assert_eq!(uncut_label("더 보기…"), "더 보기…");
        assert_eq!(loc.article.as_deref(), Some("제1조"));
    }
}
