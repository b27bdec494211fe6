//! Glossaries (term → definition) → one document whose blocks are entries.
//!
//! Two layouts: tab-separated `term<TAB>definition` lines (`#` starts a comment), or JSON Lines
//! `{"term": …, "definition": …}`. Each entry becomes a block with the term as its heading, so it
//! is chunked on its own and cited by term; the index records which chunk defines which term.

use serde::Deserialize;

use super::Document;
use crate::corpus::{Location, Source};
use crate::error::{Error, Result};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    term: String,
    definition: String,
}

/// Parse a glossary (`jsonl` selects the JSON Lines layout) into a document with source id `id`.
pub fn parse(text: &str, id: &str, jsonl: bool) -> Result<Document> {
    let mut doc = Document {
        source: Source {
            id: id.to_string(),
            title: id.to_string(),
            kind: "glossary".into(),
            ..Default::default()
        },
        blocks: Vec::new(),
        keywords: Vec::new(),
        section_titles: Vec::new(),
        chapters: Vec::new(),
    };
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || (!jsonl && line.starts_with('#')) {
            continue;
        }
        let at = || format!("{id}:{}", n + 1);
        let (term, def) = if jsonl {
            let e: Entry = serde_json::from_str(line).map_err(|e| Error::input(at(), e.to_string()))?;
            (e.term, e.definition)
        } else {
            let (t, d) =
                line.split_once('\t').ok_or_else(|| Error::input(at(), "expected term<TAB>definition"))?;
            (t.to_string(), d.to_string())
        };
        let term = term.trim().to_string();
        if term.is_empty() || def.trim().is_empty() {
            return Err(Error::input(at(), "empty term or definition"));
        }
        let loc = Location { heading: Some(term.clone()), ..Default::default() };
        doc.push(&format!("{term}: {}", def.trim()), &loc);
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts() {
        let d = parse("# c\n간접비\t연구개발 공통 경비\n", "g", false).unwrap();
        assert_eq!(d.blocks[0].location.heading.as_deref(), Some("간접비"));
        assert_eq!(d.blocks[0].text, "간접비: 연구개발 공통 경비");
        let d = parse(r#"{"term":"3책5공","definition":"동시 수행 과제 수 제한"}"#, "g", true).unwrap();
        assert_eq!(d.source.kind, "glossary");
        assert!(parse("no tab here", "g", false).is_err());
    }
}
