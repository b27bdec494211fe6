//! Korean statute text → one document with an article per block.
//!
//! Reads the plain-text layout of Korean laws (e.g. 대한민국헌법 in konlpy's `kolaw`) and of
//! company rules (사규, 취업규칙): the first non-empty line is the title (unless it is already an
//! article or a chapter: then the source id is); a line `제N장 …` (or `제N편`, `제N절`), alone or
//! with a short title, starts a section; a line `부칙`, `부칙 <…>` or `부칙(…)` starts the
//! supplementary provisions (whose articles restart at 제1조, so their section
//! `부칙 <헌법 제10호, 1987.10.29.>` tells them apart from the main text); a line starting `제N조`
//! or `제N조의M` (also `제 N 조`) starts an article, with an optional title in brackets — `(목적)`,
//! `【목적】`, `（목적）`, `[목적]` — taken as the heading. A line that only starts like one is text:
//! `제2절에 따른 …`, `부칙에 정한 …`, a wrapped reference (`제5조 각 호의 …`, `제2조 제1항에 따른
//! …`) or an article number not past the last one in its run (the main text, or one 부칙). Text
//! before the first article (the preamble) has the section `전문`. Lines may end in `\n`, `\r\n`
//! or `\r`.

use super::Document;
use crate::corpus::{Location, Source};

/// Words that, right after an article label, make it a reference carried over from the line
/// before (a wrapped sentence: "… 제5조 각 호의 어느 하나", "제2조 제1항에 따른 …", "제30조 단서에
/// 따른 …"), not an article's start.
const REFERENCE_WORDS: &[&str] = &[
    "각 호", "각호", "및 ", "또는 ", "중 ", "내지 ", "부터 ", "단서", "본문", "전단", "후단", "외의 ",
    "외에 ",
];

/// Spaces inside and around a label's number (`제 5 조` in company rules).
const SPACES: [char; 2] = [' ', '\u{3000}'];

/// Digits at the start of `s` after optional spaces: (number, the rest right after the digits).
fn number(s: &str) -> Option<(u32, &str)> {
    let s = s.trim_start_matches(SPACES);
    let d = s.chars().take_while(char::is_ascii_digit).count();
    if d == 0 {
        return None;
    }
    Some((s[..d].parse().ok()?, &s[d..]))
}

/// Parse an article label at the start of `line`: (`제N조` or `제N조의M`, rest of the line). Also
/// the layouts of company rules: `제 5 조 (휴일)`, `제1조【목적】`, `제4조（휴게）`, `제7조[임금]`.
pub fn article_label(line: &str) -> Option<(String, &str)> {
    article(line).map(|(label, _, rest)| (label, rest))
}

/// [`article_label`] with the label's number as (N, M) for `제N조의M` (M = 0 without it).
fn article(line: &str) -> Option<(String, (u32, u32), &str)> {
    let (num, rest) = number(line.trim_start().strip_prefix('제')?)?;
    let mut rest = rest.trim_start_matches(SPACES).strip_prefix('조')?;
    let mut label = format!("제{num}조");
    let mut sub = 0;
    if let Some((m, r)) = rest.strip_prefix('의').and_then(number) {
        label.push_str(&format!("의{m}"));
        sub = m;
        rest = r;
    }
    // "제3조에 따라" inside a sentence is a reference, not an article start; so is a wrapped line
    // that starts "제5조 각 호의" or "제2조 제1항에 따른".
    match rest.chars().next() {
        None | Some('(' | '①' | '【' | '（' | '[' | '〔') => Some((label, (num, sub), rest)),
        // "제6조.(연장근로)": a stray full stop before the heading.
        Some('.') if rest[1..].starts_with('(') => Some((label, (num, sub), &rest[1..])),
        Some(' ' | '\t' | '\u{3000}') => {
            let after = rest.trim_start();
            let reference = REFERENCE_WORDS.iter().any(|w| after.starts_with(w))
                || after
                    .strip_prefix('제')
                    .and_then(number)
                    .is_some_and(|(_, r)| r.trim_start_matches(SPACES).starts_with(['항', '호']));
            (!reference).then_some((label, (num, sub), rest))
        }
        _ => None,
    }
}

/// The heading in brackets right after an article label: `(목적)`, `【목적】`, `（휴게）`, `[임금]`.
fn article_heading(rest: &str) -> Option<String> {
    let rest = rest.trim_start();
    let close = match rest.chars().next()? {
        '(' => ')',
        '【' => '】',
        '（' => '）',
        '[' => ']',
        '〔' => '〕',
        _ => return None,
    };
    let inner = &rest[rest.chars().next()?.len_utf8()..];
    inner.split_once(close).map(|(h, _)| h.trim().to_string()).filter(|h| !h.is_empty())
}

/// A chapter, part or section line's unit (장, 편, 절) and title: `제1장 총강` → ('장', "총강"),
/// `제6장의2 직장 내 괴롭힘의 금지`, `제 1 장 총칙`, `제1장총칙`. A line that only starts like one
/// — `제2절에 따른 절차를 거쳐 신청하여야 한다.` — is not: the title must be short, not a
/// sentence, and not start with a particle when it follows the unit without a space.
fn chapter_parts(line: &str) -> Option<(char, &str)> {
    let (_, rest) = number(line.trim().strip_prefix('제')?)?;
    let mut chars = rest.trim_start_matches(SPACES).chars();
    let unit = chars.next().filter(|u| matches!(u, '장' | '편' | '절'))?;
    let mut title = chars.as_str();
    if let Some((_, r)) = title.strip_prefix('의').and_then(number) {
        title = r; // 제6장의2
    }
    let words = title.trim();
    let sentence = words.ends_with('.') || words.ends_with('다');
    let ok = words.is_empty()
        || (title.starts_with([' ', '\t', '\u{3000}']) && words.chars().count() <= 40 && !sentence)
        || (words.chars().count() <= 20
            && !sentence
            && !words.starts_with(['에', '을', '를', '이', '가', '은', '는', '와', '과', '로', '및']));
    ok.then_some((unit, words))
}

fn section_heading(line: &str) -> Option<String> {
    let t = line.trim();
    // 부칙 lines come as "부칙", "부칙 <헌법 제10호, 1987.10.29.>" or, copied from a web page,
    // "펼침  부칙 <…>  부칙보기"; "부칙에 정한 …" is a sentence.
    if let Some(i) = t.find("부칙") {
        let head = &t[..i];
        let next = t[i + "부칙".len()..].chars().next();
        if t.chars().count() <= 80
            && (head.trim().is_empty() || head.trim() == "펼침")
            && matches!(next, None | Some(' ' | '\t' | '\u{3000}' | '<' | '(' | '〈' | '（'))
        {
            let rest = t[i..].trim_end_matches("부칙보기").trim();
            return Some(rest.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    // Company rules space or bracket it: "부      칙", "[부칙]", "【부칙】", "< 부 칙 >".
    let compact: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.trim_matches(['[', ']', '【', '】', '<', '>', '‹', '›', '〈', '〉', '(', ')', '（', '）'])
        == "부칙"
    {
        return Some("부칙".to_string());
    }
    chapter_parts(t).map(|_| t.to_string())
}

/// The title words of a chapter or part heading (`제1장 총강` → `총강`); empty for 부칙 lines.
fn chapter_words(heading: &str) -> String {
    chapter_parts(heading)
        .map_or_else(String::new, |(_, words)| words.split_whitespace().collect::<Vec<_>>().join(" "))
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
    // The last article's number in this run of articles (the main text, or one 부칙): an article
    // label whose number is not past it is a wrapped reference, not an article (`제2조 …` after
    // 제3조).
    let mut last: Option<(u32, u32)> = None;
    // Lines end in \n, \r\n or (old Mac files) \r alone; blank lines carry nothing here.
    for line in text.split(['\n', '\r']) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if title.is_none() {
            title = Some(String::new());
            // The first line is the title, unless the text starts with its articles.
            if section_heading(t).is_none() && article(t).is_none() {
                title = Some(t.to_string());
                continue;
            }
        }
        if let Some(h) = section_heading(t) {
            doc.push(&buf, &loc);
            buf.clear();
            // The chapter's words ("제1장 총강" → 총강) go with its articles' chunks; 부칙 stays out
            // (its articles' text says what they are about).
            // A 절 (제1절 대통령) also carries its 장's words (제4장 정부).
            let own = chapter_words(&h);
            let is_part = chapter_parts(&h).is_some_and(|(unit, _)| unit == '절');
            let words = if is_part && !chapter.is_empty() { format!("{chapter} {own}") } else { own.clone() };
            if !is_part {
                chapter = own;
            }
            if !words.trim().is_empty() && !doc.section_titles.iter().any(|(s, _)| *s == h) {
                doc.section_titles.push((h.clone(), words));
            }
            if h.starts_with("부칙") {
                last = None; // a 부칙's articles restart at 제1조
            }
            loc = Location { section: Some(h), ..Default::default() };
            continue;
        }
        // A label with a bracketed heading (`제1조(목적)`) always starts an article: a 부칙 this
        // reader did not recognise, or a table of contents, restarts the run.
        if let Some((label, n, rest)) =
            article(t).filter(|&(_, n, rest)| article_heading(rest).is_some() || last.is_none_or(|l| n > l))
        {
            doc.push(&buf, &loc);
            buf.clear();
            last = Some(n);
            let section = loc.section.clone();
            loc = Location { article: Some(label), section, heading: article_heading(rest), page: None };
        }
        buf.push_str(t);
        buf.push('\n');
    }
    doc.push(&buf, &loc);
    doc.source.title = title.filter(|t| !t.is_empty()).unwrap_or_else(|| id.to_string());
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

    /// (article, section, heading) of each block.
    fn cites(d: &Document) -> Vec<(Option<String>, Option<String>, Option<String>)> {
        d.blocks
            .iter()
            .map(|b| (b.location.article.clone(), b.location.section.clone(), b.location.heading.clone()))
            .collect()
    }

    fn has(d: &Document, article: &str, text: &str) -> bool {
        d.blocks.iter().any(|b| b.location.article.as_deref() == Some(article) && b.text.contains(text))
    }

    #[test]
    fn sentences_that_start_like_a_heading_or_a_reference_stay_text() {
        let t = "근로휴가규정\n제1장 총칙\n제1조(목적) 목적으로 한다.\n제2조(정의) 뜻은 다음과 같다.\n\
                 제3조에 따른 휴가는 연 15일로 한다.\n제2장 휴가\n제3조(연차휴가) ① 15일을 받는다.\n\
                 제2절에 따른 절차를 거쳐 신청하여야 한다.\n③ 신청서는 인사팀에 제출한다.\n\
                 부칙에 정한 경과조치는 다음과 같다.\n제4조의2(특별휴가) 5일을 받는다.\n\
                 제5조 각 호의 어느 하나에 해당하는 자는 제외한다.\n제2조 제1항에 따른 서류를 붙인다.\n\
                 제2조 이 문장은 앞 조보다 번호가 작다.\n제5조(육아휴직) 최대 1년으로 한다.\n\
                 부칙 <제1호, 2024.1.1.>\n제1조(시행일) 2024년 1월 1일부터 시행한다.\n";
        let d = parse(t, "leave");
        let arts: Vec<String> = d.blocks.iter().filter_map(|b| b.location.article.clone()).collect();
        assert_eq!(arts, ["제1조", "제2조", "제3조", "제4조의2", "제5조", "제1조"]);
        assert!(has(&d, "제3조", "제2절에 따른 절차를 거쳐") && has(&d, "제3조", "③ 신청서는"));
        assert!(has(&d, "제3조", "부칙에 정한 경과조치"), "a sentence, not a 부칙 heading");
        assert!(has(&d, "제4조의2", "제5조 각 호의") && has(&d, "제4조의2", "제2조 제1항에 따른"));
        assert!(has(&d, "제4조의2", "제2조 이 문장은"), "a number not past the last article is a reference");
        assert_eq!(cites(&d)[4].1.as_deref(), Some("제2장 휴가"));
        assert_eq!(cites(&d).last().unwrap().1.as_deref(), Some("부칙 <제1호, 2024.1.1.>"));
        let sections: Vec<&str> = d.section_titles.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(sections, ["제1장 총칙", "제2장 휴가"]);
    }

    #[test]
    fn company_rule_layouts_and_a_text_without_a_title_line() {
        let t = "제1조【목적】 근로조건을 정한다.\r제2조 【적용범위】 모든 직원에게 적용한다.\r\
                 제4조（휴게） 1시간으로 한다.\r제 5 조 (휴일) 토요일과 일요일.\r제6조.(연장근로) 주 12시간.\r\
                 제7조[임금] 매월 25일.\r제8조\t(퇴직) 30일 전에 신청한다.\r";
        let d = parse(t, "reg");
        assert_eq!(d.source.title, "reg", "the first line is an article, not the title");
        let got: Vec<(String, String)> =
            cites(&d).into_iter().map(|(a, _, h)| (a.unwrap_or_default(), h.unwrap_or_default())).collect();
        let want = [
            ("제1조", "목적"),
            ("제2조", "적용범위"),
            ("제4조", "휴게"),
            ("제5조", "휴일"),
            ("제6조", "연장근로"),
            ("제7조", "임금"),
            ("제8조", "퇴직"),
        ];
        assert_eq!(got, want.map(|(a, h)| (a.to_string(), h.to_string())));
        assert!(has(&d, "제1조", "근로조건을 정한다"), "the first article's text is kept");
    }

    #[test]
    fn chapters_with_a_branch_number_or_no_space_spaced_supplements_and_unrecognised_restarts() {
        let t = "근로기준법\n제6장 안전과 보건\n제76조(안전) 보건.\n제6장의2 직장 내 괴롭힘의 금지\n\
                 제76조의2(직장 내 괴롭힘의 금지) 금지한다.\n제7장총칙\n제77조 제30조 단서에 따른 경우는 제외한다.\n\
                 제78조 다음.\n제 1 절 통칙\n제79조의 2(목적) 목적.\n부      칙\n제1조(시행일) 시행한다.\n\
                 [부칙]\n제1조(시행일) 다시 시행한다.\n제2조 경과조치.\n";
        let d = parse(t, "law");
        let got: Vec<(String, String)> =
            cites(&d).into_iter().map(|(a, s, _)| (a.unwrap_or_default(), s.unwrap_or_default())).collect();
        let want = [
            ("제76조", "제6장 안전과 보건"),
            ("제76조의2", "제6장의2 직장 내 괴롭힘의 금지"),
            ("제77조", "제7장총칙"),
            ("제78조", "제7장총칙"),
            ("제79조의2", "제 1 절 통칙"),
            ("제1조", "부칙"),
            ("제1조", "부칙"),
            ("제2조", "부칙"),
        ];
        assert_eq!(got, want.map(|(a, s)| (a.to_string(), s.to_string())));
        assert!(has(&d, "제77조", "제30조 단서에 따른"), "a reference, not 제30조");
        assert_eq!(d.blocks[4].location.heading.as_deref(), Some("목적"));
        assert_eq!(d.section_title("제6장의2 직장 내 괴롭힘의 금지"), Some("직장 내 괴롭힘의 금지"));
        assert_eq!(d.section_title("제 1 절 통칙"), Some("총칙 통칙"), "a 절 carries its 장's words");
        // An article with a heading always starts one, even when its number does not go up (a
        // table of contents first, then the text).
        let toc = parse(
            "사규\n제1조(목적)\n제2조(정의)\n제1조(목적) 이 규정은 목적이다.\n제2조(정의) 뜻이다.\n",
            "r",
        );
        assert!(has(&toc, "제1조", "이 규정은 목적이다") && has(&toc, "제2조", "뜻이다"));
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
