//! A site's table of contents → the chapter headings each page sits under.
//!
//! A table of contents is a nested HTML list: a list item's `<label>` (or its text before a nested
//! `<ul>`) heads the pages linked inside that list. Help systems ship it as a page or, like the
//! LibreOffice help (`ko/contents.js`), as a JavaScript string holding that HTML. [`parse`] reads
//! either (line continuations `\` and escaped quotes of a JS string are undone) with a small tag
//! scanner: for each `<a href>` it gives the link target (without `?query` and `#fragment`) and the
//! labels of the lists it is nested in, outermost first. A page linked several times gets every
//! place's labels. Used by the manifest's `contents` key, which matches each link to a source id
//! as written, or from the site's root (`/guide/b.html`, `./a.html`) or from the table's own
//! folder (`../guide/b.html`); the labels are indexed with the page's chunks, never shown as their
//! text.

/// Every linked page with the labels of the lists it sits in, outermost first, in the order the
/// links come (a page linked twice appears twice).
pub fn parse(text: &str) -> Vec<(String, Vec<String>)> {
    let text = text.replace("\\\r\n", "").replace("\\\n", "").replace("\\'", "'").replace("\\\"", "\"");
    let mut out = Vec::new();
    // Labels of the open lists (None: a list without a label).
    let mut open: Vec<Option<String>> = Vec::new();
    // The label of the list item being read: its `<label>`, else its text so far (None once a
    // nested list has opened or the item has closed).
    let mut pending: Option<String> = None;
    let mut item_text: Option<String> = None;
    let mut rest = text.as_str();
    while let Some(lt) = rest.find('<') {
        if let Some(t) = item_text.as_mut() {
            t.push_str(&rest[..lt]);
            t.push(' ');
        }
        rest = &rest[lt..];
        let Some(gt) = rest.find('>') else { break };
        let tag = &rest[1..gt];
        let after = &rest[gt + 1..];
        let name = tag.split(|c: char| c.is_whitespace() || c == '/').find(|s| !s.is_empty()).unwrap_or("");
        let closing = tag.starts_with('/');
        match (name.to_ascii_lowercase().as_str(), closing) {
            ("ul" | "ol", false) => {
                let label = pending.take().or_else(|| item_text.take().map(|t| decode(&t)));
                open.push(label.filter(|l| !l.is_empty()));
                item_text = None;
            }
            ("ul" | "ol", true) => {
                open.pop();
                (pending, item_text) = (None, None);
            }
            ("li", false) => (pending, item_text) = (None, Some(String::new())),
            ("li", true) => (pending, item_text) = (None, None),
            ("label", false) => {
                let end = after.find('<').unwrap_or(after.len());
                let label = decode(&after[..end]);
                pending = (!label.is_empty()).then_some(label);
            }
            ("a", false) => {
                if let Some(href) = attr(tag, "href") {
                    let target = href.split(['?', '#']).next().unwrap_or("").to_string();
                    if !target.is_empty() {
                        out.push((target, open.iter().flatten().cloned().collect()));
                    }
                }
            }
            _ => {}
        }
        rest = after;
    }
    out
}

/// The value of attribute `name` in a tag's text (quoted with `"` or `'`).
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = tag;
    while let Some(i) = rest.find(name) {
        let before_ok = i == 0 || rest[..i].ends_with(char::is_whitespace);
        let tail = rest[i + name.len()..].trim_start();
        if before_ok && let Some(v) = tail.strip_prefix('=') {
            let v = v.trim_start();
            let q = v.chars().next()?;
            if q == '"' || q == '\'' {
                let v = &v[1..];
                return v.find(q).map(|e| &v[..e]);
            }
        }
        rest = &rest[i + name.len()..];
    }
    None
}

/// Text with the common character references decoded and white space collapsed.
fn decode(s: &str) -> String {
    let s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'");
    s.replace("&amp;", "&").split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_get_the_labels_of_their_lists() {
        let js = "document.getElementById(\"Contents\").innerHTML='\\\n    <ul><li><input type=\"checkbox\" id=\"02\"><label for=\"02\">Text Documents (Writer)</label><ul>\\\n    <li><input type=\"checkbox\" id=\"0201\"><label for=\"0201\">텍스트 문서의 표</label><ul>\\\n    <li><a target=\"_top\" href=\"ko/text/swriter/guide/table_cellmerge.html?DbPAR=WRITER\">셀 병합</a></li>\\\n    </ul></li>\\\n    <li><a href=\"ko/text/swriter/main0000.html#top\">시작</a></li>\\\n    </ul></li></ul>\\\n<a href='x.html'>x</a>';";
        let got = parse(js);
        assert_eq!(
            got,
            [
                (
                    "ko/text/swriter/guide/table_cellmerge.html".to_string(),
                    vec!["Text Documents (Writer)".to_string(), "텍스트 문서의 표".to_string()]
                ),
                ("ko/text/swriter/main0000.html".to_string(), vec!["Text Documents (Writer)".to_string()]),
                ("x.html".to_string(), vec![]),
            ]
        );
    }

    #[test]
    fn an_html_outline_labels_by_the_item_text() {
        let html = "<ul><li><a href=\"ch1.html\">Chapter <b>one</b></a><ul><li><a href=\"s1.html#x\">Part</a></li></ul></li></ul>";
        assert_eq!(
            parse(html),
            [("ch1.html".to_string(), vec![]), ("s1.html".to_string(), vec!["Chapter one".to_string()])]
        );
    }

    #[test]
    fn broken_markup_gives_what_it_can() {
        assert_eq!(parse(""), []);
        assert_eq!(
            parse("<ul><label>a &amp; b</label><ul><a href=\"p\">"),
            [("p".to_string(), vec!["a & b".to_string()])]
        );
        assert_eq!(parse("</ul></ul><a href=\"q\"><a hre"), [("q".to_string(), vec![])]);
    }
}
