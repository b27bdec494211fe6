//! Markdown, reStructuredText and plain text → documents.
//!
//! Only structure that matters for citation is read: headings (Markdown `#`…`######` lines indented
//! less than four spaces, outside ```` ``` ```` and `~~~` fences; reST titles underlined, optionally
//! overlined, with a repeated punctuation character) become the heading of the paragraphs that
//! follow; paragraphs are separated by blank lines. The first heading is the document title (plain
//! text: the first line); a Markdown file's front matter (`---` … `---` at its start) is left out,
//! and its `title:` is the title. reST directive lines (`.. x::`) and comments are dropped;
//! everything else is kept as written.

use super::Document;
use crate::corpus::{Location, Source};

/// Which markup a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    /// Markdown (CommonMark-style ATX headings).
    Markdown,
    /// reStructuredText (underlined section titles).
    Rst,
    /// Plain text (paragraphs only).
    Text,
}

fn is_rst_rule(line: &str) -> bool {
    let t = line.trim_end();
    let mut chars = t.chars();
    match chars.next() {
        Some(c) if "=-~^\"'`#*+:.".contains(c) => t.len() >= 3 && chars.all(|x| x == c),
        _ => false,
    }
}

fn md_heading(line: &str) -> Option<&str> {
    // Four spaces (or a tab) in: an indented code block's line, not a heading.
    let indent: usize =
        line.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum();
    if indent >= 4 {
        return None;
    }
    let t = line.trim_start();
    let hashes = t.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
        Some(t[hashes..].trim().trim_end_matches('#').trim())
    } else {
        None
    }
}

/// A Markdown fence line's character and length (```` ``` ````, `~~~~`), when `line` is one.
fn fence(line: &str) -> Option<(char, usize)> {
    let t = line.trim_start();
    let c = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let n = t.chars().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

/// The lines of a Markdown front matter block at the start, if any: `---`, YAML `key:` lines,
/// `---`. A file that opens with a `---` rule over prose has none.
fn front_matter(lines: &[&str]) -> usize {
    let yaml_key = |l: &str| {
        let key = l.split(':').next().unwrap_or("");
        l.contains(':')
            && !key.is_empty()
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if lines.first().map(|l| l.trim_end()) != Some("---") || !lines.get(1).is_some_and(|l| yaml_key(l)) {
        return 0;
    }
    lines.iter().skip(1).position(|l| l.trim_end() == "---").map_or(0, |end| end + 2)
}

/// Parse `text` as `markup` into a document with source id `id`.
pub fn parse(text: &str, id: &str, markup: Markup) -> Document {
    let all: Vec<&str> = text.lines().collect();
    let front = if markup == Markup::Markdown { front_matter(&all) } else { 0 };
    let lines = &all[front..];
    let mut doc = Document {
        source: Source { id: id.to_string(), kind: "document".into(), ..Default::default() },
        blocks: Vec::new(),
        keywords: Vec::new(),
        section_titles: Vec::new(),
        chapters: Vec::new(),
    };
    let mut title: Option<String> = all[..front].iter().find_map(|l| {
        let v = l.strip_prefix("title:")?.trim().trim_matches(['"', '\'']).trim();
        (!v.is_empty()).then(|| v.to_string())
    });
    let mut loc = Location::default();
    let mut para = String::new();
    let mut in_fence: Option<(char, usize)> = None;
    let mut i = 0;
    let flush = |doc: &mut Document, para: &mut String, loc: &Location| {
        doc.push(para, loc);
        para.clear();
    };
    while i < lines.len() {
        let line = lines[i];
        let mut heading: Option<String> = None;
        match markup {
            Markup::Markdown => {
                match (in_fence, fence(line)) {
                    // A fence closes with its own character, at least as long.
                    (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n => in_fence = None,
                    (None, Some(f)) => in_fence = Some(f),
                    (None, None) => heading = md_heading(line).map(str::to_string),
                    _ => {}
                }
            }
            Markup::Rst => {
                let next = lines.get(i + 1).copied().unwrap_or("");
                let t = line.trim();
                if is_rst_rule(line) && !t.is_empty() && lines.get(i + 2).is_some_and(|l| is_rst_rule(l)) {
                    // Overlined title: rule, text, rule.
                    let txt = next.trim();
                    if !txt.is_empty() {
                        heading = Some(txt.to_string());
                        i += 2;
                    }
                } else if !t.is_empty()
                    && !is_rst_rule(line)
                    && is_rst_rule(next)
                    && next.trim().len() >= t.chars().count().min(3)
                {
                    heading = Some(t.to_string());
                    i += 1;
                } else if t.starts_with(".. ") || t == ".." {
                    // Directive or comment: skip it and its indented body only when it has no text.
                    flush(&mut doc, &mut para, &loc);
                    i += 1;
                    continue;
                }
            }
            Markup::Text => {}
        }
        if let Some(h) = heading {
            flush(&mut doc, &mut para, &loc);
            if title.is_none() {
                title = Some(h.clone());
            }
            loc.heading = Some(h.clone());
            para.push_str(&h);
            para.push('\n');
        } else if line.trim().is_empty() && in_fence.is_none() {
            flush(&mut doc, &mut para, &loc);
        } else {
            para.push_str(line);
            para.push('\n');
        }
        i += 1;
    }
    flush(&mut doc, &mut para, &loc);
    doc.source.title = title
        .or_else(|| doc.blocks.first().and_then(|b| b.text.lines().next()).map(str::to_string))
        .unwrap_or_else(|| id.to_string());
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_code_and_front_matter_give_no_headings() {
        let md = "---\ntitle: \"배포 안내\"\nauthor: 정보팀\n---\n# 배포\n\n~~~sh\n# 이것은 주석이다\n```\n# still code\n~~~\n\n\
                  롤백은 팀장 승인 후 한다.\n\n    # 들여쓴 코드 주석\n\n   # 절차\n\n승인 후 배포한다.\n";
        let d = parse(md, "deploy", Markup::Markdown);
        assert_eq!(d.source.title, "배포 안내", "front matter's title");
        let all: String = d.blocks.iter().map(|b| b.text.clone()).collect::<Vec<_>>().join("|");
        assert!(!all.contains("author:"), "front matter is not text: {all}");
        let headings: Vec<&str> = d.blocks.iter().filter_map(|b| b.location.heading.as_deref()).collect();
        assert!(headings.iter().all(|h| ["배포", "절차"].contains(h)), "{headings:?}");
        let rollback = d.blocks.iter().find(|b| b.text.contains("롤백은")).unwrap();
        assert_eq!(rollback.location.heading.as_deref(), Some("배포"));
        assert!(all.contains("# 이것은 주석이다") && all.contains("# 들여쓴 코드 주석"), "code stays text");
        let last = d.blocks.last().unwrap();
        assert_eq!(last.location.heading.as_deref(), Some("절차"));
        // Without front matter a `---` rule is text, and the first heading is the title.
        let d = parse("# Title\n\n---\n\nText.\n", "t", Markup::Markdown);
        assert_eq!(d.source.title, "Title");
        let d = parse("---\n## 절차\n\n본문이다...\n\n---\n끝.\n", "t", Markup::Markdown);
        let all: String = d.blocks.iter().map(|b| b.text.clone()).collect();
        assert!(
            all.contains("본문이다") && d.source.title == "절차",
            "a rule over prose is no front matter: {all}"
        );
    }

    #[test]
    fn rst_questions_become_headings() {
        let rst = "=====================\nDesign and History FAQ\n=====================\n\n.. only:: html\n\n   .. contents::\n\nWhy does Python use indentation?\n--------------------------------\n\nGuido believes that indentation is nice.\n\nSecond para.\n";
        let d = parse(rst, "design", Markup::Rst);
        assert_eq!(d.source.title, "Design and History FAQ");
        let last = d.blocks.last().unwrap();
        assert_eq!(last.location.heading.as_deref(), Some("Why does Python use indentation?"));
        assert!(d.blocks.iter().any(|b| b.text.contains("Guido believes")));
        assert!(!d.blocks.iter().any(|b| b.text.contains("contents::")));
    }

    #[test]
    fn markdown_headings_and_fences() {
        let md = "# Guide\n\nIntro.\n\n## 설치\n\n```sh\n# not a heading\n```\n\n설치 방법.";
        let d = parse(md, "guide", Markup::Markdown);
        assert_eq!(d.source.title, "Guide");
        assert!(
            d.blocks
                .iter()
                .any(|b| b.text.contains("# not a heading") && b.location.heading.as_deref() == Some("설치"))
        );
    }

    #[test]
    fn plain_text_paragraphs() {
        let d = parse("First line\nmore\n\nSecond", "t", Markup::Text);
        assert_eq!(d.source.title, "First line");
        assert_eq!(d.blocks.len(), 2);
    }
}
