//! The R&D manual JSON layout → one document per manual.
//!
//! Layout (PyPI `korean-rnd-regs-mcp`, `manual_*.json`):
//! `{meta: {source_title, edition, manual_basis_date?, source_url?, …}, sections: [{id,
//! section_title, chapter_title, pages: [{printed_page, text}]}]}`.
//! Each page of each section is a block located at its printed page, with the section id as
//! `section` and the section title as `heading`. The reference date is `manual_basis_date` when the
//! manual states one, else the edition `YY.M` read as `20YY-MM` (the manuals' editions are named
//! after their publication month).

use serde::Deserialize;

use super::Document;
use crate::corpus::{Location, Source};
use crate::error::{Error, Result};

#[derive(Deserialize)]
struct Manual {
    meta: Meta,
    sections: Vec<Section>,
}

#[derive(Deserialize)]
struct Meta {
    source_title: String,
    edition: Option<String>,
    manual_basis_date: Option<String>,
    source_url: Option<String>,
}

#[derive(Deserialize)]
struct Section {
    id: String,
    section_title: Option<String>,
    chapter_title: Option<String>,
    pages: Vec<Page>,
}

#[derive(Deserialize)]
struct Page {
    printed_page: Option<u32>,
    text: String,
}

/// `26.7` → `2026-07`.
fn edition_date(edition: &str) -> Option<String> {
    let (y, m) = edition.trim().split_once('.')?;
    let (y, m): (u32, u32) = (y.parse().ok()?, m.parse().ok()?);
    (y < 100 && (1..=12).contains(&m)).then(|| format!("20{y:02}-{m:02}"))
}

/// Parse one manual's JSON into a document with source id `id`.
pub fn parse(json: &str, id: &str) -> Result<Document> {
    let m: Manual = serde_json::from_str(json).map_err(|e| Error::input(id, format!("manual JSON: {e}")))?;
    let date = m.meta.manual_basis_date.clone().or_else(|| m.meta.edition.as_deref().and_then(edition_date));
    let mut doc = Document {
        source: Source {
            id: id.to_string(),
            title: m.meta.source_title,
            kind: "manual".into(),
            date,
            link: m.meta.source_url,
            links: Vec::new(),
        },
        blocks: Vec::new(),
        keywords: Vec::new(),
        section_titles: Vec::new(),
        chapters: Vec::new(),
    };
    for s in &m.sections {
        let chapter = s.chapter_title.as_deref().map(str::trim).unwrap_or_default();
        if !chapter.is_empty() && s.section_title.as_deref().map(str::trim) != Some(chapter) {
            doc.section_titles.push((s.id.clone(), chapter.to_string()));
        }
        for p in &s.pages {
            let loc = Location {
                page: p.printed_page,
                article: None,
                section: Some(s.id.clone()),
                heading: s.section_title.clone().filter(|t| !t.trim().is_empty()),
            };
            doc.push(&p.text, &loc);
        }
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_become_located_blocks() {
        let j = r#"{"meta":{"source_title":"기술료 매뉴얼","edition":"26.7","manual_basis_date":null,"x":1},
            "sections":[{"id":"b2-1-1","section_title":"정의","chapter_title":"개요","pages":[
              {"printed_page":1,"partial":true,"text":"기술료란 \n대가이다."},{"printed_page":2,"text":"둘째 쪽"}]}]}"#;
        let d = parse(j, "manual_b2").unwrap();
        assert_eq!(d.source.date.as_deref(), Some("2026-07"));
        assert_eq!(d.blocks.len(), 2);
        assert_eq!(d.blocks[0].location.page, Some(1));
        assert_eq!(d.blocks[0].location.section.as_deref(), Some("b2-1-1"));
        assert_eq!(d.blocks[0].text, "기술료란\n대가이다.");
        assert_eq!(d.section_title("b2-1-1"), Some("개요"));
        assert!(parse("{}", "x").is_err());
    }

    #[test]
    fn editions() {
        assert_eq!(edition_date("25.12").as_deref(), Some("2025-12"));
        assert_eq!(edition_date("v2"), None);
    }
}
