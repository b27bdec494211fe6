//! HTML pages → documents, with lol_html (a streaming rewriter: no DOM is built).
//!
//! Keeps the visible text only: everything inside `head`, `script`, `style`, `nav`, `aside`,
//! `noscript`, `template`, `svg`, `button`, `select`, `textarea`, any element with a `hidden`
//! attribute and the permalink marks documentation generators put in headings (`¶`, `#`:
//! `a.headerlink`, `a.header-anchor`, `a.hash-link`, `a.anchor-link`) is dropped (so are
//! attributes), and so is a page's `header` and `footer` — not an
//! `article`'s or `main`'s own, which hold its title and lead (`<article><header><h1>…`). The
//! page's keyword metadata (`<meta itemprop="keywords">`, `<meta name="keywords">`: LibreOffice
//! help marks each topic with its index entries so) becomes the document's
//! [`keywords`](Document::keywords), indexed, not shown. The title is `<title>`, else the first
//! `<h1>`. Headings `h1`–`h6` become the heading of the text that follows them. Block elements
//! break lines. Entities are decoded. Malformed HTML is read the way a browser would tolerate it;
//! it never fails the build unless lol_html itself refuses.

use std::cell::RefCell;
use std::rc::Rc;

use lol_html::html_content::{Element, TextChunk};
use lol_html::{HtmlRewriter, Settings, doc_text, element, end_tag};

use super::Document;
use crate::corpus::{Location, Source};
use crate::error::{Error, Result};

const SKIP: &str = "head, script, style, nav, aside, noscript, template, svg, button, select, textarea, \
                    [hidden], a.headerlink, a.header-anchor, a.hash-link, a.anchor-link";
/// Skipped outside an `article` or `main` only.
const PAGE_PARTS: &str = "header, footer";
/// Content whose `header` and `footer` are kept.
const CONTENT: &str = "article, main";
const BREAKS: &str = "p, div, br, li, dt, dd, tr, td, th, table, ul, ol, pre, section, article, \
                      blockquote, h1, h2, h3, h4, h5, h6, hr";

#[derive(Default)]
struct State {
    skip: u32,
    /// Depth inside [`CONTENT`] elements.
    content: u32,
    title: String,
    in_title: bool,
    heading: Option<String>,
    in_heading: bool,
    heading_buf: String,
    first_h1: Option<String>,
    buf: String,
    blocks: Vec<(String, Option<String>)>,
    keywords: Vec<String>,
}

impl State {
    fn flush(&mut self) {
        let text = std::mem::take(&mut self.buf);
        if !text.trim().is_empty() {
            self.blocks.push((text, self.heading.clone()));
        }
    }
}

/// Decode HTML character references (`&amp;`, `&#44592;`, `&#x1F600;`, and the common named ones).
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.char_indices().take(12).find(|&(_, c)| c == ';').map(|(j, _)| j);
        // A soft hyphen (`&shy;`) only marks where a word may break: it splits no word here.
        if rest.starts_with("&shy;") {
            rest = &rest["&shy;".len()..];
            continue;
        }
        let decoded = end.and_then(|j| {
            let name = &rest[1..j];
            let c = if let Some(num) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                u32::from_str_radix(num, 16).ok().and_then(char::from_u32)
            } else if let Some(num) = name.strip_prefix('#') {
                num.parse::<u32>().ok().and_then(char::from_u32)
            } else {
                match name {
                    "amp" | "AMP" => Some('&'),
                    "lt" | "LT" => Some('<'),
                    "gt" | "GT" => Some('>'),
                    "quot" | "QUOT" => Some('"'),
                    "laquo" => Some('«'),
                    "raquo" => Some('»'),
                    "bull" => Some('•'),
                    "reg" => Some('®'),
                    "trade" => Some('™'),
                    "deg" => Some('°'),
                    "plusmn" => Some('±'),
                    "sect" => Some('§'),
                    "larr" => Some('←'),
                    "uarr" => Some('↑'),
                    "darr" => Some('↓'),
                    "ensp" | "emsp" | "thinsp" => Some(' '),
                    "apos" => Some('\''),
                    "nbsp" => Some(' '),
                    "middot" => Some('·'),
                    "hellip" => Some('…'),
                    "ndash" => Some('–'),
                    "mdash" => Some('—'),
                    "lsquo" => Some('‘'),
                    "rsquo" => Some('’'),
                    "ldquo" => Some('“'),
                    "rdquo" => Some('”'),
                    "copy" => Some('©'),
                    "times" => Some('×'),
                    "rarr" => Some('→'),
                    _ => None,
                }
            };
            c.map(|c| (c, j + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Count `el` in the state's counter `field` (`skip`, `content`) until its end tag; an element
/// without content or self-closing counts nothing.
fn count_until_end(el: &mut Element, st: &Rc<RefCell<State>>, field: fn(&mut State) -> &mut u32) {
    if el.can_have_content() && !el.is_self_closing() {
        *field(&mut st.borrow_mut()) += 1;
        let s = st.clone();
        el.on_end_tag(end_tag!(move |_end| {
            let mut st = s.borrow_mut();
            let n = field(&mut st);
            *n = n.saturating_sub(1);
            Ok(())
        }))
        .ok();
    }
}

/// Parse one HTML page into a document whose source id is `id`.
pub fn parse(html: &str, id: &str) -> Result<Document> {
    let st = Rc::new(RefCell::new(State::default()));
    let (s1, s2, s3, s4, s5, s6) = (st.clone(), st.clone(), st.clone(), st.clone(), st.clone(), st.clone());
    let (s7, s8, s9) = (st.clone(), st.clone(), st.clone());
    let mut rewriter = HtmlRewriter::new(
        Settings {
            element_content_handlers: vec![
                element!("title", move |el| {
                    s1.borrow_mut().in_title = true;
                    let s = s1.clone();
                    el.on_end_tag(end_tag!(move |_end| {
                        s.borrow_mut().in_title = false;
                        Ok(())
                    }))
                    .ok();
                    Ok(())
                }),
                element!(SKIP, move |el| {
                    count_until_end(el, &s2, |st| &mut st.skip);
                    Ok(())
                }),
                element!(CONTENT, move |el| {
                    count_until_end(el, &s8, |st| &mut st.content);
                    Ok(())
                }),
                element!(PAGE_PARTS, move |el| {
                    if s9.borrow().content == 0 {
                        count_until_end(el, &s9, |st| &mut st.skip);
                    }
                    Ok(())
                }),
                element!(BREAKS, move |el| {
                    let mut st = s3.borrow_mut();
                    if st.skip == 0 {
                        st.buf.push('\n');
                    }
                    drop(st);
                    let s = s3.clone();
                    el.on_end_tag(end_tag!(move |_end| {
                        s.borrow_mut().buf.push('\n');
                        Ok(())
                    }))
                    .ok();
                    Ok(())
                }),
                element!(r#"meta[itemprop="keywords"], meta[name="keywords"]"#, move |el| {
                    if let Some(k) = el.get_attribute("content") {
                        let k = super::clean(&decode_entities(&k)).replace('\n', " ");
                        let mut st = s7.borrow_mut();
                        if !k.is_empty() && !st.keywords.contains(&k) {
                            st.keywords.push(k);
                        }
                    }
                    Ok(())
                }),
                element!("h1, h2, h3, h4, h5, h6", move |el| {
                    let is_h1 = el.tag_name() == "h1";
                    {
                        let mut st = s4.borrow_mut();
                        if st.skip > 0 {
                            return Ok(());
                        }
                        st.flush();
                        st.in_heading = true;
                        st.heading_buf.clear();
                    }
                    let s = s4.clone();
                    el.on_end_tag(end_tag!(move |_end| {
                        let mut st = s.borrow_mut();
                        st.in_heading = false;
                        let h = super::clean(&st.heading_buf).replace('\n', " ");
                        if !h.is_empty() {
                            if is_h1 && st.first_h1.is_none() {
                                st.first_h1 = Some(h.clone());
                            }
                            st.heading = Some(h);
                        }
                        Ok(())
                    }))
                    .ok();
                    Ok(())
                }),
            ],
            document_content_handlers: vec![doc_text!(move |t: &mut TextChunk| {
                let mut st = s5.borrow_mut();
                let txt = decode_entities(t.as_str());
                if st.in_title {
                    st.title.push_str(&txt);
                }
                if st.skip > 0 {
                    return Ok(());
                }
                if st.in_heading {
                    st.heading_buf.push_str(&txt);
                }
                st.buf.push_str(&txt);
                Ok(())
            })],
            ..Settings::new()
        },
        |_: &[u8]| {},
    );
    rewriter.write(html.as_bytes()).map_err(|e| Error::input(id, format!("HTML: {e}")))?;
    rewriter.end().map_err(|e| Error::input(id, format!("HTML: {e}")))?;
    let mut st = s6.borrow_mut();
    st.flush();
    let title = super::clean(&st.title).replace('\n', " ");
    let title = if title.is_empty() { st.first_h1.clone().unwrap_or_else(|| id.to_string()) } else { title };
    let mut doc = Document {
        source: Source { id: id.to_string(), title, kind: "page".into(), ..Default::default() },
        blocks: Vec::new(),
        keywords: std::mem::take(&mut st.keywords),
        section_titles: Vec::new(),
        chapters: Vec::new(),
    };
    for (text, heading) in std::mem::take(&mut st.blocks) {
        doc.push(&text, &Location { heading, ..Default::default() });
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_text_headings_and_title() {
        let html = r#"<html><head><title>찾기 &amp; 바꾸기</title><meta name="keywords" content="secret">
            <script>var x = "hidden";</script><style>p{}</style></head><body>
            <nav>menu</nav><h1>Find Bar</h1><p>The <b>Find</b> toolbar&nbsp;searches.</p>
            <span hidden="true">Command</span><span>Ctrl</span>
            <h2>Find Next</h2><p>Moves to the next match &#44592;</p></body></html>"#;
        let d = parse(html, "ko/find.html").unwrap();
        assert_eq!(d.source.title, "찾기 & 바꾸기");
        let all: String = d.blocks.iter().map(|b| b.text.clone()).collect::<Vec<_>>().join("|");
        assert!(!all.contains("secret") && !all.contains("hidden") && !all.contains("menu"));
        assert!(!all.contains("Command") && all.contains("Ctrl"));
        assert!(all.contains("The Find toolbar searches."));
        let last = d.blocks.last().unwrap();
        assert_eq!(last.location.heading.as_deref(), Some("Find Next"));
        assert!(last.text.contains("기"));
        assert_eq!(d.keywords, vec!["secret".to_string()]);
    }

    #[test]
    fn an_articles_own_header_is_kept_the_pages_is_not() {
        let html = r#"<body><header><p>Site banner</p></header>
            <main><article><header><h1>메일 설정</h1><p>Outlook에서 메일을 설정하는 방법입니다.</p></header>
            <p>본문</p><footer><p>작성: 정보팀</p></footer></article></main>
            <footer><p>Copyright</p></footer></body>"#;
        let d = parse(html, "mail.html").unwrap();
        let all: String = d.blocks.iter().map(|b| b.text.clone()).collect::<Vec<_>>().join("|");
        assert!(
            all.contains("Outlook에서 메일을 설정하는 방법입니다.") && all.contains("작성: 정보팀"),
            "{all}"
        );
        assert!(!all.contains("Site banner") && !all.contains("Copyright"), "{all}");
        assert_eq!(d.source.title, "메일 설정");
        assert!(d.blocks.iter().any(|b| b.location.heading.as_deref() == Some("메일 설정")));
    }

    #[test]
    fn permalink_marks_and_more_named_entities() {
        let html = r##"<body><h2>설치<a class="headerlink" href="#s" title="Permalink">¶</a></h2>
            <p>글&shy;자&shy;수 &raquo; 다음 &bull; LibreOffice&reg; &AMP; 30&deg;</p>
            <h3>요구 사항<a class="header-anchor" href="#r">#</a></h3><p>x</p></body>"##;
        let d = parse(html, "install.html").unwrap();
        let headings: Vec<&str> = d.blocks.iter().filter_map(|b| b.location.heading.as_deref()).collect();
        assert_eq!(headings, ["설치", "요구 사항"]);
        assert!(d.blocks[0].text.contains("글자수 » 다음 • LibreOffice® & 30°"), "{}", d.blocks[0].text);
    }

    #[test]
    fn keyword_metadata_is_kept_apart_from_the_text() {
        let html = r#"<body><div><meta itemprop="keywords" content="피벗 테이블, 데이터 파일럿 참조">
            <meta itemprop="keywords" content="셀;  병합">
            <meta itemprop="keywords" content="셀;  병합"><h1>데이터 파일럿</h1><p>본문</p></div></body>"#;
        let d = parse(html, "p.html").unwrap();
        assert_eq!(d.keywords, vec!["피벗 테이블, 데이터 파일럿 참조".to_string(), "셀; 병합".to_string()]);
        assert!(d.blocks.iter().all(|b| !b.text.contains("피벗")));
    }

    #[test]
    fn malformed_html_is_tolerated() {
        let d = parse("<p>unclosed <b>bold <div>text</p></span>&bogus; &#xZZ; <h2>Head", "x").unwrap();
        let all: String = d.blocks.iter().map(|b| b.text.clone()).collect();
        assert!(all.contains("unclosed bold") && all.contains("&bogus;"), "{all}");
        assert_eq!(d.source.title, "x");
        assert!(parse("", "empty").unwrap().blocks.is_empty());
    }
}
