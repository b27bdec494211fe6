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
//! (`10` or `"10"` → `제10조`) or a label. Consecutive or scattered records of one source form one document
//! in order of first appearance. The source's fields (`title`, `kind`, `date`, `link`, `links`)
//! come from its first record: a later record repeats the title and may leave the optional ones
//! out, and one that gives another value is an error naming both lines (a value would otherwise be
//! dropped unseen) — unless the `[[input]]` sets that field for every source (`kind`, `date`,
//! `link`), which the records' values then do not decide. Blank lines are skipped; a malformed
//! line is an error naming its line number.

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

/// Parse JSON Lines `text` (read from `origin`, for messages) into documents. `set_by_input`
/// names the source fields the `[[input]]` sets itself (`"kind"`, `"date"`, `"link"`): records may
/// differ on those.
pub fn parse(text: &str, origin: &str, set_by_input: &[&str]) -> Result<Vec<Document>> {
    let mut docs: Vec<Document> = Vec::new();
    // Each source's document and the line that named it first, by id (a scan of `docs` per record
    // made many sources quadratic).
    let mut seen: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{origin}:{}", n + 1);
        // Half a surrogate pair (JSON.stringify of a broken string) reads as U+FFFD, as in `--jsonl`.
        let fixed = crate::protocol::lone_surrogates_replaced(line);
        let mut r: Record = serde_json::from_str(fixed.as_deref().unwrap_or(line))
            .map_err(|e| Error::input(at(), e.to_string()))?;
        if r.source.trim().is_empty() {
            return Err(Error::input(at(), "empty \"source\""));
        }
        let article = match r.article.take() {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Number(n)) if n.is_u64() => Some(format!("제{n}조")),
            // "3" as 3: an article number, whichever way the converter wrote it.
            Some(serde_json::Value::String(s))
                if !s.trim().is_empty() && s.trim().bytes().all(|b| b.is_ascii_digit()) =>
            {
                Some(format!("제{}조", s.trim()))
            }
            Some(serde_json::Value::String(s)) => Some(s),
            Some(other) => {
                return Err(Error::input(
                    at(),
                    format!("\"article\" must be a whole number or a string, got {other}"),
                ));
            }
        };
        let i = match seen.get(&r.source) {
            Some(&(i, first)) => {
                if let Some(field) = differs(&docs[i].source, &r, set_by_input) {
                    return Err(Error::input(
                        at(),
                        format!(
                            "source {:?}: its \"{field}\" differs from line {first}'s (a source's title, \
                             kind, date, link and links are given once: repeat them or leave the \
                             optional ones out)",
                            r.source
                        ),
                    ));
                }
                i
            }
            None => {
                seen.insert(r.source.clone(), (docs.len(), n + 1));
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
        let loc = Location { page: r.page, article, section: r.section, heading: r.heading };
        docs[i].push(&r.text, &loc);
    }
    Ok(docs)
}

/// The first source field a later record of `source` sets otherwise (an optional field left out
/// sets nothing; a field in `set_by_input` is the input's to set).
fn differs(source: &Source, r: &Record, set_by_input: &[&str]) -> Option<&'static str> {
    let kind = r.kind.as_deref().is_some_and(|k| k != source.kind);
    let date = r.date.is_some() && r.date != source.date;
    let link = r.link.is_some() && r.link != source.link;
    let links = !r.links.is_empty() && r.links != source.links;
    [(r.title != source.title, "title"), (kind, "kind"), (date, "date"), (link, "link"), (links, "links")]
        .into_iter()
        .find(|&(d, name)| d && !set_by_input.contains(&name))
        .map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_records_by_source() {
        let t = r#"{"source":"a","title":"A","text":"one","page":1,"article":3}

{"source":"b","title":"B","text":"two","kind":"faq","links":["x"]}
{"source":"a","title":"A","text":"three","article":"제4조의2"}"#;
        let d = parse(t, "in.jsonl", &[]).unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].blocks.len(), 2);
        assert_eq!(d[0].blocks[0].location.article.as_deref(), Some("제3조"));
        assert_eq!(d[0].blocks[1].location.article.as_deref(), Some("제4조의2"));
        let one = |article: &str| {
            let line = format!(r#"{{"source":"a","title":"A","text":"t","article":{article}}}"#);
            parse(&line, "x.jsonl", &[]).map(|d| d[0].blocks[0].location.article.clone())
        };
        assert_eq!(one(r#""3""#).unwrap().as_deref(), Some("제3조"));
        assert_eq!(one(r#""Article 3""#).unwrap().as_deref(), Some("Article 3"));
        assert!(one("3.5").is_err() && one("-1").is_err());
        assert_eq!(one(r#""  ""#).unwrap().as_deref(), Some("  "), "blank is no number");
        assert_eq!(d[1].source.kind, "faq");
        assert_eq!(d[1].source.links, ["x"]);
    }

    #[test]
    fn a_later_record_may_repeat_its_source_fields_but_not_change_them() {
        let first = r#"{"source":"a","title":"A","text":"one","kind":"faq","date":"2026-01","link":"u","links":["x"]}"#;
        let same = format!("{first}\n{}", r#"{"source":"a","title":"A","text":"two","kind":"faq"}"#);
        let d = parse(&same, "in.jsonl", &[]).unwrap();
        assert_eq!((d.len(), d[0].blocks.len(), d[0].source.date.as_deref()), (1, 2, Some("2026-01")));
        for (later, field) in [
            (r#"{"source":"a","title":"B","text":"two"}"#, "\"title\""),
            (r#"{"source":"a","title":"A","text":"two","kind":"manual"}"#, "\"kind\""),
            (r#"{"source":"a","title":"A","text":"two","date":"2026-02"}"#, "\"date\""),
            (r#"{"source":"a","title":"A","text":"two","link":"v"}"#, "\"link\""),
            (r#"{"source":"a","title":"A","text":"two","links":["y"]}"#, "\"links\""),
        ] {
            let e = parse(&format!("{first}\n\n{later}"), "in.jsonl", &[]).unwrap_err().to_string();
            assert!(e.contains("in.jsonl:3") && e.contains(field) && e.contains("line 1"), "{e}");
        }
        // A field the input sets for every source is not the records' to decide.
        let links =
            format!("{first}\n{}", r#"{"source":"a","title":"A","text":"two","link":"v","date":"2027"}"#);
        assert!(parse(&links, "f", &["link", "date"]).is_ok());
        assert!(parse(&links, "f", &["link"]).unwrap_err().to_string().contains("\"date\""));
        // The first record without a kind is a "document": a later one may say so.
        let t = "{\"source\":\"a\",\"title\":\"A\",\"text\":\"1\"}\n{\"source\":\"a\",\"title\":\"A\",\"text\":\"2\",\"kind\":\"document\"}";
        assert!(parse(t, "f", &[]).is_ok());
    }

    #[test]
    fn bad_lines_name_their_line() {
        let e =
            parse("{\"source\":\"a\",\"title\":\"A\",\"text\":\"x\"}\n{oops", "f.jsonl", &[]).unwrap_err();
        assert!(e.to_string().contains("f.jsonl:2"), "{e}");
        assert!(parse(r#"{"source":"a","title":"A"}"#, "f", &[]).is_err());
        assert!(parse(r#"{"source":"a","title":"A","text":"x","pgae":1}"#, "f", &[]).is_err());
        // Half a surrogate pair is no bad line: U+FFFD, as the `--jsonl` loops read it.
        let d = parse(r#"{"source":"a","title":"A\udc00","text":"x\ud800y"}"#, "f", &[]).unwrap();
        assert_eq!((d[0].source.title.as_str(), d[0].blocks[0].text.as_str()), ("A\u{fffd}", "x\u{fffd}y"));
    }
}
