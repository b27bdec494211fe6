//! Labelled prompts and their gold locations: the one place that says what a label file holds and
//! when a citation hits the gold.
//!
//! A label file is JSON Lines, one prompt per line; the devset's own files
//! (`../shared/data/devset/*.jsonl`) are label files as they are:
//!
//! ```json
//! {"id": "dq089", "prompt": "연구수당 상한", "kind": "question",
//!  "gold": [{"source": "manual_body", "pages": [239, 241]}, {"source": "manual_case", "pages": [9]}]}
//! {"id": "ds005", "prompt": "대한민국의 주권은 …", "kind": "sentence",
//!  "gold": [{"source": "constitution", "articles": [1]}]}
//! {"id": "de019", "prompt": "Why can't I use a list as a dict key?", "kind": "question",
//!  "gold": [{"source": "design", "section": "Why must dictionary keys be immutable?"}]}
//! {"id": "du030", "prompt": "안녕하세요", "kind": "unrelated"}
//! ```
//!
//! * `prompt` (required); `id` (any JSON value, echoed as text; default: the line number);
//! * `kind`: `question`, `sentence` or `unrelated` (default: `question` when there is gold or an
//!   instance, else `unrelated`);
//! * `instance`: the instance that should answer (default: the instance holding the first gold
//!   source, resolved by the caller with [`Label::instance_in`]);
//! * `gold`: where the answer is stated — a `source` id and optionally `pages` (printed pages),
//!   `articles` (article numbers of the main text: a `제N조` citation outside any 부칙), or `section`
//!   / `heading` (the exact heading, or section id, of the cited chunk). A gold with only a source
//!   is hit by any chunk of that source;
//! * `polite`: a polite request (~주세요, please …), counted separately by the router evaluation.
//!
//! Other fields (`answer_hint`, `domain`, `variant` …) are ignored.

use serde::Deserialize;
use serde_json::Value;

use crate::corpus::Citation;
use crate::error::{Error, Result};

/// What a labelled prompt is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabelKind {
    /// A question or request about the documents.
    Question,
    /// Pasted document text.
    Sentence,
    /// A prompt no instance should answer.
    Unrelated,
}

impl LabelKind {
    /// The label as written in files.
    pub fn as_str(self) -> &'static str {
        match self {
            LabelKind::Question => "question",
            LabelKind::Sentence => "sentence",
            LabelKind::Unrelated => "unrelated",
        }
    }
}

/// One gold location.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Gold {
    /// Source id.
    pub source: String,
    /// Printed pages (any of them).
    pub pages: Vec<u32>,
    /// Article numbers of the main text (any of them).
    pub articles: Vec<u32>,
    /// Heading or section id of the cited chunk (the devset's `section`).
    #[serde(alias = "heading")]
    pub section: Option<String>,
}

impl Gold {
    /// Does a chunk cited as `c` state the answer?
    pub fn matches(&self, c: &Citation) -> bool {
        if c.source != self.source {
            return false;
        }
        if !self.pages.is_empty() && !c.page.is_some_and(|p| self.pages.contains(&p)) {
            return false;
        }
        if !self.articles.is_empty() {
            let supplementary = c.section.as_deref().is_some_and(|s| s.starts_with("부칙"));
            let n = c.article.as_deref().and_then(article_number);
            if supplementary || !n.is_some_and(|n| self.articles.contains(&n)) {
                return false;
            }
        }
        if let Some(s) = &self.section
            && c.heading.as_deref() != Some(s)
            && c.section.as_deref() != Some(s)
        {
            return false;
        }
        true
    }
}

/// The number of a plain article label (`제10조` → 10; `제10조의2` → none: another article).
pub fn article_number(label: &str) -> Option<u32> {
    label.strip_prefix('제')?.strip_suffix('조')?.parse().ok()
}

/// One labelled prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    /// Identifier (the file's `id`, or the line number).
    pub id: String,
    /// The prompt.
    pub prompt: String,
    /// What it is.
    pub kind: LabelKind,
    /// The instance that should answer, when the file names it.
    pub instance: Option<String>,
    /// Where the answer is stated (empty for unrelated prompts).
    pub gold: Vec<Gold>,
    /// A polite request.
    pub polite: bool,
}

impl Label {
    /// Is any of `cites` a gold location?
    pub fn hit<'a>(&self, mut cites: impl Iterator<Item = &'a Citation>) -> bool {
        cites.any(|c| self.gold.iter().any(|g| g.matches(c)))
    }

    /// The instance that should answer: the label's own, else the one `holder` names for the
    /// first gold source (e.g. a lookup of source ids in the loaded instances).
    pub fn instance_in(&self, holder: impl Fn(&str) -> Option<String>) -> Option<String> {
        if let Some(i) = &self.instance {
            return Some(i.clone());
        }
        holder(&self.gold.first()?.source)
    }
}

/// Which instance holds each source id (the first that does), for [`Label::instance_in`].
pub fn holders(instances: &[(String, Vec<u8>)]) -> Result<std::collections::BTreeMap<String, String>> {
    let mut out = std::collections::BTreeMap::new();
    for (name, bytes) in instances {
        let index = crate::Index::open(&bytes[..])?;
        for s in 0..index.source_count() {
            out.entry(index.source_head(s)?.id).or_insert_with(|| name.clone());
        }
    }
    Ok(out)
}

#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    id: Value,
    prompt: String,
    #[serde(default)]
    kind: Option<LabelKind>,
    #[serde(default)]
    instance: Option<String>,
    #[serde(default)]
    gold: Vec<Gold>,
    #[serde(default)]
    polite: bool,
}

/// The instance `label` should reach (`instance_of`), which must be one of `instances`: a label no
/// loaded instance holds is refused, naming it, as `calibrate` does, not left out of a figure.
pub fn reached(
    label: &Label,
    instance_of: impl Fn(&Label) -> Option<String>,
    instances: &[(String, Vec<u8>)],
) -> Result<String> {
    let name = instance_of(label).ok_or_else(|| {
        Error::invalid("labels", format!("{}: no loaded instance holds its gold source", label.id))
    })?;
    if !instances.iter().any(|(n, _)| *n == name) {
        return Err(Error::invalid("labels", format!("{}: instance {name:?} is not loaded", label.id)));
    }
    Ok(name)
}

/// Parse a label file (`origin` names it in errors). Blank lines are skipped; any other line that
/// is not a label is an [`Error::Input`] naming the line.
pub fn parse_labels(origin: &str, text: &str) -> Result<Vec<Label>> {
    let mut out = Vec::new();
    for (n, line) in crate::text::without_bom(text).lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // Half a surrogate pair (JSON.stringify of a broken string) reads as U+FFFD, as in `--jsonl`.
        let fixed = crate::protocol::lone_surrogates_replaced(line);
        let raw: Raw = serde_json::from_str(fixed.as_deref().unwrap_or(line))
            .map_err(|e| Error::input(format!("{origin}:{}", n + 1), e.to_string()))?;
        if raw.prompt.trim().is_empty() {
            return Err(Error::input(format!("{origin}:{}", n + 1), "empty prompt"));
        }
        // Refused here, naming the line, rather than by `ask` in the middle of a run.
        if raw.prompt.len() > crate::engine::MAX_PROMPT_BYTES {
            return Err(Error::input(
                format!("{origin}:{}", n + 1),
                format!(
                    "a prompt of {} bytes, at most {}",
                    raw.prompt.len(),
                    crate::engine::MAX_PROMPT_BYTES
                ),
            ));
        }
        if raw.gold.iter().any(|g| g.source.is_empty()) {
            return Err(Error::input(format!("{origin}:{}", n + 1), "a gold entry without \"source\""));
        }
        let id = match raw.id {
            Value::Null => (n + 1).to_string(),
            Value::String(s) => s,
            v => v.to_string(),
        };
        let kind = raw.kind.unwrap_or(if raw.gold.is_empty() && raw.instance.is_none() {
            LabelKind::Unrelated
        } else {
            LabelKind::Question
        });
        out.push(Label {
            id,
            prompt: raw.prompt,
            kind,
            instance: raw.instance,
            gold: raw.gold,
            polite: raw.polite,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cite(source: &str) -> Citation {
        Citation { source: source.into(), title: "t".into(), ..Default::default() }
    }

    #[test]
    fn parses_the_devset_shapes() {
        let text = r#"{"id": "dq089", "kind": "question", "route": "push", "prompt": "연구수당 상한", "gold": [{"source": "manual_body", "pages": [239, 241]}], "answer_hint": "x", "domain": "rnd_manual"}

{"id": "ds005", "kind": "sentence", "prompt": "주권은 국민에게 있다.", "gold": [{"source": "constitution", "articles": [1]}], "variant": "verbatim"}
{"id": "de019", "prompt": "dict key?", "gold": [{"source": "design", "section": "Why must dictionary keys be immutable?"}]}
{"id": 7, "prompt": "안녕하세요", "lang": "ko", "tags": ["very_short"]}"#;
        let l = parse_labels("t.jsonl", text).unwrap();
        assert_eq!(l.len(), 4);
        assert_eq!(l[0].gold[0].pages, [239, 241]);
        assert_eq!(l[1].kind, LabelKind::Sentence);
        assert_eq!(l[2].kind, LabelKind::Question);
        assert_eq!(l[3].kind, LabelKind::Unrelated);
        assert_eq!(l[3].id, "7");
    }

    #[test]
    fn bad_lines_name_their_line() {
        let e = parse_labels("t.jsonl", "{\"prompt\": \"a\"}\n{\"id\": 1}").unwrap_err();
        assert!(e.to_string().contains("t.jsonl:2"), "{e}");
        assert!(parse_labels("t", "{\"prompt\": \" \"}").is_err());
        assert!(parse_labels("t", "{\"prompt\": \"a\", \"gold\": [{\"pages\": [1]}]}").is_err());
        // A byte-order mark at the start is no bad line (a file saved by a Windows editor).
        assert_eq!(parse_labels("t", "\u{feff}{\"prompt\": \"a\"}\r\n").unwrap().len(), 1);
        let long = format!(
            "{{\"prompt\": \"a\"}}\n{{\"prompt\": \"{}\"}}",
            "a".repeat(crate::engine::MAX_PROMPT_BYTES + 1)
        );
        let broken = parse_labels("t", r#"{"prompt": "a\ud800b"}"#).unwrap();
        assert_eq!(broken[0].prompt, "a\u{fffd}b");
        let e = parse_labels("t", &long).unwrap_err();
        assert!(e.to_string().contains("t:2") && e.to_string().contains("1048577 bytes"), "{e}");
    }

    #[test]
    fn gold_matching() {
        let g = Gold { source: "manual_body".into(), pages: vec![239, 241], ..Default::default() };
        let mut c = cite("manual_body");
        assert!(!g.matches(&c));
        c.page = Some(241);
        assert!(g.matches(&c));
        c.source = "manual_case".into();
        assert!(!g.matches(&c));

        let art = Gold { source: "constitution".into(), articles: vec![10], ..Default::default() };
        let mut c = cite("constitution");
        c.article = Some("제10조".into());
        c.section = Some("제2장 국민의 권리와 의무".into());
        assert!(art.matches(&c));
        c.article = Some("제10조의2".into());
        assert!(!art.matches(&c));
        c.article = Some("제10조".into());
        c.section = Some("부칙".into());
        assert!(!art.matches(&c));

        let head = Gold { source: "design".into(), section: Some("Why?".into()), ..Default::default() };
        let mut c = cite("design");
        c.heading = Some("Why?".into());
        assert!(head.matches(&c));
        c.heading = Some("How?".into());
        assert!(!head.matches(&c));
        assert!(Gold { source: "design".into(), ..Default::default() }.matches(&c));
    }

    #[test]
    fn instance_resolution() {
        let l = parse_labels("t", r#"{"prompt": "p", "gold": [{"source": "design"}]}"#).unwrap();
        let holder = |s: &str| (s == "design").then(|| "pyfaq".to_string());
        assert_eq!(l[0].instance_in(holder).as_deref(), Some("pyfaq"));
    }
}
