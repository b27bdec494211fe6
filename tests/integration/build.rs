//! Building from every input format: citations survive into search hits; builds are deterministic.

use groundgate::index::TextCodec;
use groundgate::ingest::manifest::Manifest;
use groundgate::{Index, search};

use crate::util::{data_dir, excerpt_index};

fn index() -> Index<&'static [u8]> {
    Index::open(excerpt_index()).expect("open")
}

fn top(q: &str) -> search::Hit {
    search::search(&index(), q, 5)
        .expect("search")
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no hit for {q}"))
}

#[test]
fn builds_are_byte_identical() {
    let m = Manifest::load(&data_dir().join("excerpts.toml")).expect("manifest");
    let (a, _) = m.build(&data_dir(), |_, _| {}).expect("build");
    assert_eq!(a, excerpt_index());
    index().verify().expect("checksums");
}

#[test]
fn manual_pages_and_sections_are_cited() {
    let h = top("권리를 획득한 대가로 실시권자가 지급");
    assert_eq!(h.cite.source, "manual_b2");
    assert_eq!(h.cite.title, "국가연구개발사업 기술료 제도 매뉴얼");
    assert_eq!(h.cite.page, Some(1));
    assert_eq!(h.cite.section.as_deref(), Some("b2-1-1"));
    assert_eq!(h.cite.date.as_deref(), Some("2026-07"));
}

#[test]
fn statute_articles_chapters_and_supplement() {
    let h = top("대한민국의 주권은 누구에게 있나요");
    assert_eq!((h.cite.source.as_str(), h.cite.article.as_deref()), ("constitution", Some("제1조")));
    assert_eq!(h.cite.section.as_deref(), Some("제1장 총강"));
    assert_eq!(h.cite.date.as_deref(), Some("1987-10-29"));
    let h = top("거주 이전의 자유");
    assert_eq!(h.cite.article.as_deref(), Some("제14조"));
    let h = top("이 헌법은 1988년 2월 25일부터 시행");
    assert_eq!(h.cite.article.as_deref(), Some("제1조"));
    assert!(h.cite.section.as_deref().is_some_and(|s| s.starts_with("부칙")), "{:?}", h.cite.section);
}

#[test]
fn html_pages_keep_path_heading_and_link_and_drop_scripts() {
    let h = top("Find toolbar quickly search");
    assert_eq!(h.cite.source, "ko/text/shared/find_toolbar.html");
    assert_eq!(h.cite.title, "Find Bar");
    assert_eq!(
        h.cite.link.as_deref(),
        Some("https://help.libreoffice.org/7.4/ko/text/shared/find_toolbar.html")
    );
    let idx = index();
    for c in 0..idx.chunk_count() {
        let t = idx.chunk(c).expect("chunk").text;
        assert!(!t.contains("alert(1)") && !t.contains("flexsearch"), "script text indexed: {t}");
    }
}

#[test]
fn rst_headings_are_questions() {
    let h = top("why indentation for grouping statements");
    assert_eq!(h.cite.source, "design");
    assert_eq!(
        h.cite.heading.as_deref(),
        Some("Why does Python use indentation for grouping of statements?")
    );
}

#[test]
fn jsonl_records_and_glossary() {
    let h = top("연구비 카드 계좌이체");
    assert_eq!(
        (h.cite.source.as_str(), h.cite.page, h.cite.heading.as_deref()),
        ("notice-2026-01", Some(3), Some("집행 원칙"))
    );
    let src = index().source(index().chunk(h.chunk).expect("chunk").source).expect("source");
    assert_eq!(src.links, ["https://example.org/notice/2026-01/attachment.pdf"]);
    assert_eq!(src.kind, "notice");
    let h = top("3책5공");
    assert_eq!(h.cite.source, "glossary");
    let gl = index().glossary().expect("glossary");
    assert!(gl.iter().any(|(t, c)| t == "3책5공" && *c == h.chunk), "{gl:?}");
}

#[test]
fn chunks_stay_within_limits_and_one_location() {
    let idx = index();
    assert!(idx.chunk_count() > 10);
    for c in 0..idx.chunk_count() {
        let ch = idx.chunk(c).expect("chunk");
        assert!(ch.text.chars().count() <= 450, "chunk {c} has {} chars", ch.text.chars().count());
        assert!(ch.end > ch.start);
    }
    let anchors = idx.anchors().expect("anchors");
    assert_eq!(anchors, ["기술료", "헌법", "python"]);
    assert_eq!(idx.meta().sufficiency, 6.5);
}

#[test]
fn bad_manifests_are_input_errors() {
    let dir = std::env::temp_dir().join(format!("gg-manifest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p
    };
    let p = write("a.toml", "name = \"x\"\n[[input]]\nformat = \"pdf\"\npath = \".\"\n");
    // Refused when the manifest is read, naming the manifest and the input, not a file of it.
    let e = Manifest::load(&p).expect_err("unknown format");
    assert_eq!(e.code(), "input");
    assert!(
        e.to_string().contains("a.toml: [[input]] 1 (path \".\"): unknown format \"pdf\"; use html"),
        "{e}"
    );
    let p = write("b.toml", "name = \"x\"\n[[input]]\nformat = \"html\"\npath = \"missing\"\n");
    let e = Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect_err("missing path");
    assert!(e.to_string().contains("not found: fix the input's `path`"), "{e}");
    let p = write("c.toml", "name = \"bad name!\"\n[[input]]\nformat = \"html\"\npath = \".\"\n");
    assert!(Manifest::load(&p).is_err());
    let p = write("d.toml", "name = \"x\"\n");
    assert!(Manifest::load(&p).is_err());
    // Inputs that hold no document (a pattern that matches no file): an error, not an empty index.
    std::fs::create_dir_all(dir.join("empty")).expect("dir");
    let p = write("e.toml", "name = \"x\"\n[[input]]\nformat = \"markdown\"\npath = \"empty\"\n");
    let e = Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect_err("no documents");
    assert_eq!(e.code(), "input");
    assert!(e.to_string().contains("the inputs hold no documents"), "{e}");
}

#[test]
fn every_text_codec_gives_the_same_chunks_and_hits() {
    let build = |codec| {
        let mut m = Manifest::load(&data_dir().join("excerpts.toml")).expect("manifest");
        m.text = codec;
        m.build(&data_dir(), |_, _| {}).expect("build").0
    };
    let (plain, lz4) = (build(TextCodec::Plain), build(TextCodec::Lz4));
    let hangul = excerpt_index();
    assert!(lz4.len() < plain.len(), "lz4 {} vs plain {}", lz4.len(), plain.len());
    assert!(hangul.len() < plain.len(), "hangul {} vs plain {}", hangul.len(), plain.len());
    let a = Index::open(&plain[..]).expect("plain");
    for other in [&lz4[..], hangul] {
        let b = Index::open(other).expect("open");
        b.verify().expect("verifies");
        assert_eq!(a.chunk_count(), b.chunk_count());
        for id in 0..a.chunk_count() {
            assert_eq!(a.chunk(id).expect("plain chunk"), b.chunk(id).expect("chunk"));
        }
        for q in ["대한민국의 주권", "기술료 징수", "셀 병합"] {
            assert_eq!(search::search(&a, q, 5).expect("a"), search::search(&b, q, 5).expect("b"));
        }
    }
}

#[test]
fn aliases_find_the_pages_that_use_the_documents_word() {
    let mut m = Manifest::load(&data_dir().join("excerpts.toml")).expect("manifest");
    let plain = Index::open(excerpt_index()).expect("open");
    assert!(
        search::search(&plain, "리브레오피스", 5).expect("search").is_empty(),
        "no page says 리브레오피스"
    );
    m.aliases.insert("LibreOffice".into(), vec!["리브레오피스".into()]);
    let (bytes, _) = m.build(&data_dir(), |_, _| {}).expect("build");
    let with = Index::open(&bytes[..]).expect("open");
    let hits = search::search(&with, "리브레오피스", 50).expect("search");
    assert!(!hits.is_empty(), "리브레오피스 finds the pages that say LibreOffice");
    for h in &hits {
        let chunk = with.chunk(h.chunk).expect("chunk");
        let said = format!("{} {}", chunk.text, h.cite.title);
        assert!(said.to_lowercase().contains("libreoffice"), "{said}");
        // Indexed only: the stored text is the page's own.
        assert!(!chunk.text.contains("리브레오피스"));
    }
}
