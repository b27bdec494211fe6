//! Korean statute text → one document with an article per block.
//!
//! Reads the plain-text layout of Korean laws (e.g. 대한민국헌법 in konlpy's `kolaw`): the first
//! non-empty line is the title; a line `제N장 …` (or `제N편`, `제N절`) starts a section; a line
//! `부칙 …` starts the supplementary provisions (whose articles restart at 제1조, so their section
//! `부칙 <헌법 제10호, 1987.10.29.>` tells them apart from the main text); a line starting `제N조` or `제N조의M` starts an article, with an optional title
//! in parentheses `제N조(목적)` taken as the heading. Text before the first article (the preamble)
//! has the section `전문`.

use super::Document;
use crate::corpus::{Location, Source};

/// Parse an article label at the start of `line`: (`제N조` or `제N조의M`, rest of the line).
pub fn article_label(line: &str) -> Option<(String, &str)> {
    let rest = line.trim_start().strip_prefix('제')?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let (num, rest) = rest.split_at(digits);
    let mut rest = rest.strip_prefix('조')?;
    let mut label = format!("제{num}조");
    if let Some(r) = rest.strip_prefix('의') {
        let d = r.chars().take_while(char::is_ascii_digit).count();
        if d > 0 {
            label.push('의');
            label.push_str(&r[..d]);
            rest = &r[d..];
        }
    }
    // "제3조에 따라" inside a sentence is a reference, not an article start.
    match rest.chars().next() {
        None | Some(' ' | '(' | '①' | '\u{3000}') => Some((label, rest)),
        _ => None,
    }
}

fn section_heading(line: &str) -> Option<String> {
    let t = line.trim();
    // 부칙 lines come as "부칙", "부칙 <헌법 제10호, 1987.10.29.>" or, copied from a web page,
    // "펼침  부칙 <…>  부칙보기".
    if let Some(i) = t.find("부칙") {
        let head = &t[..i];
        if t.chars().count() <= 80 && (head.trim().is_empty() || head.trim() == "펼침") {
            let rest = t[i..].trim_end_matches("부칙보기").trim();
            return Some(rest.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    let rest = t.strip_prefix('제')?;
    let d = rest.chars().take_while(char::is_ascii_digit).count();
    if d == 0 {
        return None;
    }
    let unit = rest[d..].chars().next()?;
    matches!(unit, '장' | '편' | '절').then(|| t.to_string())
}

/// The title words of a chapter or part heading (`제1장 총강` → `총강`); empty for 부칙 lines.
fn chapter_words(heading: &str) -> String {
    if heading.starts_with("부칙") {
        return String::new();
    }
    let mut words = heading.split_whitespace();
    words.next();
    words.collect::<Vec<_>>().join(" ")
}

/// Parse statute `text` into a document with source id `id`.
pub fn parse(text: &str, id: &str) -> Document {
    let mut doc = Document {
        source: Source { id: id.to_string(), kind: "statute".into(), ..Default::default() },
        blocks: Vec::new(),
        keywords: Vec::new(),
        section_titles: Vec::new(),
        chapters: Vec::new(),
    };
    let mut loc = Location { section: Some("전문".into()), ..Default::default() };
    let mut buf = String::new();
    let mut title: Option<String> = None;
    let mut chapter = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if title.is_none() {
            title = Some(t.to_string());
            continue;
        }
        if let Some(h) = section_heading(t) {
            doc.push(&buf, &loc);
            buf.clear();
            // The chapter's words ("제1장 총강" → 총강) go with its articles' chunks; 부칙 stays out
            // (its articles' text says what they are about).
            // A 절 (제1절 대통령) also carries its 장's words (제4장 정부).
            let own = chapter_words(&h);
            let is_part = h.split_whitespace().next().is_some_and(|w| w.ends_with('절'));
            let words = if is_part && !chapter.is_empty() { format!("{chapter} {own}") } else { own.clone() };
            if !is_part {
                chapter = own;
            }
            if !words.trim().is_empty() && !doc.section_titles.iter().any(|(s, _)| *s == h) {
                doc.section_titles.push((h.clone(), words));
            }
            loc = Location { section: Some(h), ..Default::default() };
            continue;
        }
        if let Some((label, rest)) = article_label(t) {
            doc.push(&buf, &loc);
            buf.clear();
            let heading = rest
                .trim_start()
                .strip_prefix('(')
                .and_then(|r| r.split_once(')'))
                .map(|(h, _)| h.to_string());
            let section = loc.section.clone();
            loc = Location { article: Some(label), section, heading, page: None };
        }
        buf.push_str(t);
        buf.push('\n');
    }
    doc.push(&buf, &loc);
    doc.source.title = title.unwrap_or_else(|| id.to_string());
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_carry_their_chapter() {
        let t = "헌법\n제4장 정부\n제1절 대통령\n제66조 ① 대통령은 국가의 원수이다.\n제5장 법원\n제101조 사법권\n";
        let d = parse(t, "c");
        assert_eq!(d.section_title("제4장 정부"), Some("정부"));
        assert_eq!(d.section_title("제1절 대통령"), Some("정부 대통령"));
        assert_eq!(d.section_title("제5장 법원"), Some("법원"));
    }

    #[test]
    fn labels() {
        assert_eq!(article_label("  제1조 ① 대한민국은").map(|x| x.0), Some("제1조".into()));
        assert_eq!(article_label("제10조의2(특례) 내용").map(|x| x.0), Some("제10조의2".into()));
        assert_eq!(article_label("제3조에 따라"), None);
        assert_eq!(article_label("제목"), None);
    }

    #[test]
    fn articles_chapters_and_supplement() {
        let t = "대한민국헌법\r\n\r\n전문 내용이다.\r\n       제1장 총강\r\n  제1조 ① 대한민국은 민주공화국이다.\r\n②주권은 국민에게 있다.\r\n  제2조 국민의 요건.\r\n\r\n 펼침  부칙 <헌법 제10호, 1987.10.29.>  부칙보기\r\n\r\n제1조 이 헌법은 시행한다.\r\n";
        let d = parse(t, "constitution");
        assert_eq!(d.source.title, "대한민국헌법");
        let arts: Vec<_> =
            d.blocks.iter().map(|b| (b.location.article.clone(), b.location.section.clone())).collect();
        assert_eq!(arts[0], (None, Some("전문".into())));
        assert_eq!(arts[1], (Some("제1조".into()), Some("제1장 총강".into())));
        assert!(d.blocks[1].text.contains("②주권은"));
        assert_eq!(d.section_title("제1장 총강"), Some("총강"));
        assert_eq!(d.section_titles.len(), 1);
        assert_eq!(arts[2].0.as_deref(), Some("제2조"));
        assert_eq!(arts[3], (Some("제1조".into()), Some("부칙 <헌법 제10호, 1987.10.29.>".into())));
    }
}
