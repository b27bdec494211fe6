//! JSON Lines records → documents: the generic format any converter can target.
//!
//! One JSON object per line:
//!
//! ```json
//! {"source": "manual_body", "title": "국가연구개발혁신법 매뉴얼", "text": "…",
//!  "page": 23, "article": "제10조", "section": "1-1", "heading": "정의",
//!  "date": "2026-06", "link": "https://…", "kind": "manual", "links": ["https://…/att.pdf"]}
//! ```
//!
//! `source`, `title` and `text` are required; the rest are optional. `article` may be a number
//! (`10` → `제10조`) or a label. Consecutive or scattered records of one source form one document
//! in order of first appearance; source fields are taken from its first record. Blank lines are
//! skipped; a malformed line is an error naming its line number.

use serde::Deserialize;

use super::Document;
use crate::corpus::{Location, Source};
use crate::error::{Error, Result};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    source: String,
    title: String,
    text: String,
    page: Option<u32>,
    article: Option<serde_json::Value>,
    section: Option<String>,
    heading: Option<String>,
    date: Option<String>,
    link: Option<String>,
    kind: Option<String>,
    #[serde(default)]
    links: Vec<String>,
}

/// Parse JSON Lines `text` (read from `origin`, for messages) into documents.
pub fn parse(text: &str, origin: &str) -> Result<Vec<Document>> {
    let mut docs: Vec<Document> = Vec::new();
    // Each source's document, by id (a scan of `docs` per record made many sources quadratic).
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{origin}:{}", n + 1);
        // Half a surrogate pair (JSON.stringify of a broken string) reads as U+FFFD, as in `--jsonl`.
        let fixed = crate::protocol::lone_surrogates_replaced(line);
        let r: Record = serde_json::from_str(fixed.as_deref().unwrap_or(line))
            .map_err(|e| Error::input(at(), e.to_string()))?;
        if r.source.trim().is_empty() {
            return Err(Error::input(at(), "empty \"source\""));
        }
        let article = match r.article {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) => Some(format!("제{n}조")),
            Some(serde_json::Value::String(s)) => Some(s),
            Some(other) => {
                return Err(Error::input(
                    at(),
                    format!("\"article\" must be a number or string, got {other}"),
                ));
            }
        };
        let loc = Location { page: r.page, article, section: r.section, heading: r.heading };
        let i = match seen.get(&r.source) {
            Some(&i) => i,
            None => {
                seen.insert(r.source.clone(), docs.len());
                docs.push(Document {
                    source: Source {
                        id: r.source,
                        title: r.title,
                        kind: r.kind.unwrap_or_else(|| "document".into()),
                        date: r.date,
                        link: r.link,
                        links: r.links,
                    },
                    blocks: Vec::new(),
                    keywords: Vec::new(),
                    section_titles: Vec::new(),
                    chapters: Vec::new(),
                });
                docs.len() - 1
            }
        };
        docs[i].push(&r.text, &loc);
    }
    Ok(docs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_records_by_source() {
        let t = r#"{"source":"a","title":"A","text":"one","page":1,"article":3}

{"source":"b","title":"B","text":"two","kind":"faq","links":["x"]}
{"source":"a","title":"A","text":"three","article":"제4조의2"}"#;
        let d = parse(t, "in.jsonl").unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].blocks.len(), 2);
        assert_eq!(d[0].blocks[0].location.article.as_deref(), Some("제3조"));
        assert_eq!(d[0].blocks[1].location.article.as_deref(), Some("제4조의2"));
        assert_eq!(d[1].source.kind, "faq");
        assert_eq!(d[1].source.links, ["x"]);
    }

    #[test]
    fn bad_lines_name_their_line() {
        let e = parse("{\"source\":\"a\",\"title\":\"A\",\"text\":\"x\"}\n{oops", "f.jsonl").unwrap_err();
        assert!(e.to_string().contains("f.jsonl:2"), "{e}");
        assert!(parse(r#"{"source":"a","title":"A"}"#, "f").is_err());
        assert!(parse(r#"{"source":"a","title":"A","text":"x","pgae":1}"#, "f").is_err());
        // Half a surrogate pair is no bad line: U+FFFD, as the `--jsonl` loops read it.
        let d = parse(r#"{"source":"a","title":"A\udc00","text":"x\ud800y"}"#, "f").unwrap();
        assert_eq!((d[0].source.title.as_str(), d[0].blocks[0].text.as_str()), ("A\u{fffd}", "x\u{fffd}y"));
    }
}
