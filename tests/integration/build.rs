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
    // An input that matches no file (a wrong format or pattern), even beside one that does: an
    // error naming it, not an index without its documents.
    std::fs::create_dir_all(dir.join("empty")).expect("dir");
    let p = write("e.toml", "name = \"x\"\n[[input]]\nformat = \"markdown\"\npath = \"empty\"\n");
    let e = Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect_err("no documents");
    assert_eq!(e.code(), "input");
    assert!(e.to_string().contains("empty: no file of this [[input]] (format \"markdown\") matches include [\"*.md\", \"*.markdown\"]"), "{e}");
    std::fs::create_dir_all(dir.join("txt")).expect("dir");
    write("txt/a.txt", "Some text.\n");
    let p = write(
        "f.toml",
        "name = \"x\"\n[[input]]\nformat = \"text\"\npath = \"txt\"\n[[input]]\nformat = \"markdown\"\npath = \"txt\"\n",
    );
    let e = Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect_err("second input empty");
    assert!(e.to_string().contains("txt: no file of this [[input]] (format \"markdown\")"), "{e}");
    // Text in another encoding: refused with the way to convert it.
    std::fs::create_dir_all(dir.join("enc")).expect("dir");
    std::fs::write(dir.join("enc/cp949.txt"), [0xc7, 0xd1, 0xb1, 0xb9, b'\n']).expect("write"); // 한국 in CP949
    let p = write("h.toml", "name = \"x\"\n[[input]]\nformat = \"text\"\npath = \"enc\"\n");
    let e = Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect_err("CP949");
    assert!(e.to_string().contains("cp949.txt: not UTF-8 text (byte 0 is not): convert it first"), "{e}");
    assert!(e.to_string().contains("iconv -f CP949 -t UTF-8"), "{e}");
    std::fs::write(dir.join("enc/cp949.txt"), [0xff, 0xfe, b'a', 0]).expect("write");
    let e = Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect_err("UTF-16");
    assert!(e.to_string().contains("UTF-16 text, not UTF-8"), "{e}");
    // An index built into its input folder is not read back as a document; a date may be a TOML
    // date without quotes.
    std::fs::write(dir.join("txt/built.ggi"), [0x47, 0x47, 0x49, 0xff, 0]).expect("write");
    let p = write(
        "i.toml",
        "name = \"x\"\n[[input]]\nformat = \"text\"\npath = \"txt\"\ninclude = [\"*\"]\ndate = 2024-01-01\n",
    );
    let docs = Manifest::load(&p).expect("parses").documents(&dir, |_, _| {}).expect("the .ggi is left out");
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].source.date.as_deref(), Some("2024-01-01"));
    let p = write("j.toml", "name = \"x\"\n[[input]]\nformat = \"text\"\npath = \"txt\"\ndate = 5\n");
    let e = Manifest::load(&p).expect_err("a number is no date");
    assert!(e.to_string().contains("date: write it as text"), "{e}");
    // A chunk size too small to hold a sentence: refused, not silently raised.
    let p = write(
        "l.toml",
        "name = \"x\"\n[chunking]\nmax_chars = 0\n[[input]]\nformat = \"text\"\npath = \"txt\"\n",
    );
    let e = Manifest::load(&p).expect_err("max_chars 0");
    assert!(e.to_string().contains("[chunking] max_chars = 0: at least 50"), "{e}");
    // A file name that is not UTF-8 (CP949 인사.txt): refused by name, not read under a garbled id.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::fs::create_dir_all(dir.join("cp949name")).expect("dir");
        let name = std::ffi::OsStr::from_bytes(b"\xc0\xce\xbb\xe7.txt");
        std::fs::write(dir.join("cp949name").join(name), "인사 규정.\n").expect("write");
        let p = write("k.toml", "name = \"x\"\n[[input]]\nformat = \"text\"\npath = \"cp949name\"\n");
        let e = Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect_err("CP949 name");
        assert!(e.to_string().contains("the file name is not UTF-8"), "{e}");
        // One the input does not read (the original .hwp beside the text) is no concern of it.
        std::fs::create_dir_all(dir.join("cp949other")).expect("dir");
        std::fs::write(
            dir.join("cp949other").join(std::ffi::OsStr::from_bytes(b"\xc0\xce\xbb\xe7.hwp")),
            [0u8; 4],
        )
        .expect("write");
        std::fs::write(dir.join("cp949other/a.txt"), "인사 규정.\n").expect("write");
        let p = write("k2.toml", "name = \"x\"\n[[input]]\nformat = \"text\"\npath = \"cp949other\"\n");
        Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect("the .hwp is not read");
    }
    // `id` names one file's source; on a folder it would be silently ignored.
    let p = write("g.toml", "name = \"x\"\n[[input]]\nformat = \"text\"\npath = \"txt\"\nid = \"mine\"\n");
    let e = Manifest::load(&p).expect("parses").build(&dir, |_, _| {}).expect_err("id on a folder");
    assert!(e.to_string().contains("`id` names the source of a one-file input"), "{e}");
}

#[test]
fn folder_inputs_name_their_sources_without_collisions_and_skip_hidden_files() {
    let dir = std::env::temp_dir().join(format!("gg-ids-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |name: &str, text: &[u8]| {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
        std::fs::write(&p, text).expect("write");
    };
    write("md/team-a/intro.md", b"# Intro A\n\nTeam A ships on Mondays.\n");
    write("md/team-b/intro.md", b"# Intro B\n\nTeam B ships on Fridays.\n");
    write("md/guide/setup.md", b"# Setup\n\nInstall the tool first.\n");
    write("md/draft/setup-old.md", b"# Old setup\n\nOutdated.\n");
    // Hidden: a macOS AppleDouble copy (not UTF-8) and a .git folder.
    write("md/._intro.md", &[0, 5, 22, 7, 0xff, 0xfe, 0, 0]);
    write("md/.git/notes.md", b"# Notes\n\nNot a document.\n");
    write("tx/policy.2023.txt", b"Leave is 15 days.\n");
    // 보안규정.txt as macOS names it (conjoining jamo): its id is the word as people type it.
    write(
        "nfd/\u{1107}\u{1169}\u{110B}\u{1161}\u{11AB}\u{1100}\u{1172}\u{110C}\u{1165}\u{11BC}.txt",
        "보안 규정.\n".as_bytes(),
    );
    write("tx/policy.2024.txt", b"Leave is 16 days.\n");
    let manifest = dir.join("m.toml");
    std::fs::write(
        &manifest,
        "name = \"x\"\n[[input]]\nformat = \"markdown\"\npath = \"md\"\nexclude = [\"draft/*\"]\n\
         [[input]]\nformat = \"text\"\npath = \"tx\"\n[[input]]\nformat = \"text\"\npath = \"nfd\"\n",
    )
    .expect("write");
    let m = Manifest::load(&manifest).expect("manifest");
    let docs = m.documents(&dir, |_, _| {}).expect("documents");
    let ids: Vec<&str> = docs.iter().map(|d| d.source.id.as_str()).collect();
    assert_eq!(ids, ["setup", "team-a/intro", "team-b/intro", "policy.2023", "policy.2024", "보안규정"]);
    // Two inputs that still give one id: refused, naming both files.
    write("more/setup.md", b"# Setup again\n\nElsewhere.\n");
    std::fs::write(
        &manifest,
        "name = \"x\"\n[[input]]\nformat = \"markdown\"\npath = \"md\"\n[[input]]\nformat = \"markdown\"\npath = \"more\"\n",
    )
    .expect("write");
    let e = Manifest::load(&manifest).expect("manifest").build(&dir, |_, _| {}).expect_err("one id twice");
    let msg = e.to_string();
    assert!(
        msg.contains("more/setup.md: source id \"setup\" is already the id of")
            && msg.contains("md/guide/setup.md"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
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

#[test]
fn table_of_contents_links_written_relative_or_from_the_root_still_name_their_pages() {
    let dir = std::env::temp_dir().join(format!("gg-toc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
        std::fs::write(&p, text).expect("write");
    };
    write("site/a.html", "<h1>감리원 자격</h1><p>감리원은 자격이 있어야 한다.</p>");
    write("site/guide/b.html", "<h1>절차</h1><p>감리 절차를 따른다.</p>");
    write("site/guide/c.html", "<h1>보고</h1><p>감리 결과를 보고한다.</p>");
    // Three ways to write a link: from the table's folder (./), from the site's root (/), and
    // up from a table kept in a folder of its own (../).
    write(
        "site/nav/toc.html",
        "<ul><li><label>감리 제도</label><ul><li><a href=\"../a.html\">자격</a></li>\
         <li><a href=\"/guide/b.html#top\">절차</a></li><li><a href=\"./../guide/c.html\">보고</a></li></ul></li></ul>",
    );
    std::fs::write(
        dir.join("m.toml"),
        "name = \"x\"\n[[input]]\nformat = \"html\"\npath = \"site\"\nexclude = [\"nav/*\"]\ncontents = \"site/nav/toc.html\"\n",
    )
    .expect("write");
    let docs =
        Manifest::load(&dir.join("m.toml")).expect("manifest").documents(&dir, |_, _| {}).expect("documents");
    let chapters: Vec<(&str, Vec<String>)> =
        docs.iter().map(|d| (d.source.id.as_str(), d.chapters.clone())).collect();
    let label = vec!["감리 제도".to_string()];
    assert_eq!(
        chapters,
        [("a.html", label.clone()), ("guide/b.html", label.clone()), ("guide/c.html", label)]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A runaway heading (a whole page in one `#` line) and title: the labels every hit carries are cut
/// to `MAX_LABEL_CHARS`, the last character `…`; the text under them is all there, in chunks.
#[test]
fn runaway_labels_are_cut_and_their_text_kept() {
    use groundgate::corpus::MAX_LABEL_CHARS;
    let dir = std::env::temp_dir().join(format!("gg-labels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let words = "가나다라 ".repeat(2_000);
    std::fs::write(dir.join("long.md"), format!("# {words}\n\nbody text under the heading.\n")).expect("md");
    std::fs::write(
        dir.join("page.html"),
        format!("<html><head><title>{words}</title></head><body><p>HTML body text.</p></body></html>"),
    )
    .expect("html");
    std::fs::write(
        dir.join("m.toml"),
        // The title as context of every chunk and an alias: each reads the labels as cut.
        "name = \"x\"\n[context]\ntitle = true\n[aliases]\nWriter = [\"라이터\"]\n\
         [[input]]\nformat = \"markdown\"\npath = \"long.md\"\n[[input]]\nformat = \"html\"\npath = \"page.html\"\n",
    )
    .expect("manifest");
    let m = Manifest::load(&dir.join("m.toml")).expect("manifest");
    let (bytes, _) = m.build(&dir, |_, _| {}).expect("build");
    let index = Index::open(bytes.as_slice()).expect("open");
    let chunks: Vec<_> = (0..index.chunk_count()).map(|c| index.chunk(c).expect("chunk")).collect();
    let heading = chunks[0].location.heading.clone().expect("heading");
    assert_eq!(heading.chars().count(), MAX_LABEL_CHARS);
    assert!(heading.ends_with('…'), "{heading}");
    assert!(chunks.iter().any(|c| c.text.contains("body text under the heading")));
    // The heading's own words are all still text.
    let stored: usize = chunks.iter().map(|c| c.text.matches("가나다라").count()).sum();
    assert!(stored >= 2_000, "{stored}");
    for s in 0..index.source_count() {
        let title = index.source(s).expect("source").title;
        assert!(title.chars().count() <= MAX_LABEL_CHARS, "{title}");
    }
    let hit = &search::search(&index, "HTML body text", 1).expect("search")[0];
    assert_eq!(hit.cite.title.chars().count(), MAX_LABEL_CHARS);
    std::fs::remove_dir_all(&dir).ok();
}

/// The page number the index keeps as its mark for "no page" is refused, not stored as none.
#[test]
fn the_no_page_mark_is_refused_as_a_page() {
    let dir = std::env::temp_dir().join(format!("gg-nopage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("m.toml"), "name = \"x\"\n[[input]]\nformat = \"jsonl\"\npath = \"r.jsonl\"\n")
        .expect("toml");
    for (page, ok) in [(u32::MAX, false), (u32::MAX - 1, true)] {
        let line =
            format!("{{\"source\":\"a\",\"title\":\"A\",\"text\":\"one two three\",\"page\":{page}}}\n");
        std::fs::write(dir.join("r.jsonl"), line).expect("jsonl");
        let built = Manifest::load(&dir.join("m.toml")).expect("manifest").build(&dir, |_, _| {});
        match built {
            Ok((bytes, _)) => {
                assert!(ok, "page {page} stored");
                let index = Index::open(bytes.as_slice()).expect("open");
                assert_eq!(index.chunk(0).expect("chunk").location.page, Some(page));
            }
            Err(e) => assert!(!ok && e.to_string().contains("past the last page"), "page {page}: {e}"),
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
