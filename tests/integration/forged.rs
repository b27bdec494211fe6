//! Crafted index files: bytes of each section changed and every checksum recomputed (CRC32 is
//! public), then open + verify + search + every chunk/source/anchor/glossary/gate read + ask +
//! every pull tool. Any outcome but a panic is fine: an answer or a typed error. The count of
//! panics (caught with `catch_unwind`) must be 0.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use groundgate::index::forge::{fix_checksums, mutate_section};
use groundgate::index::format::{SectionId, raw_sections};
use groundgate::{AskOptions, Engine, Index, InstanceOptions, search, tools};

use crate::util::excerpt_index;

/// xorshift64*: a seeded, dependency-free generator (the variants must be the same every run).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

/// Values that trip decoders: zero, ones, sign bits, lengths, counts.
const EDGE: [u32; 10] = [0, 1, 2, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, u32::MAX];

/// One mutation of a section's bytes: flips, edge values, u32 fields, cuts and growth.
fn mutate(rng: &mut Rng, data: &mut Vec<u8>) {
    let n = data.len();
    match rng.below(8) {
        0 if n > 0 => {
            let at = rng.below(n);
            data[at] ^= 1 << rng.below(8);
        }
        1 if n > 0 => {
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(n);
                data[at] = rng.next() as u8;
            }
        }
        2 if n >= 4 => {
            let at = rng.below(n / 4) * 4; // aligned: most fields are u32 LE
            let v = EDGE[rng.below(EDGE.len())];
            data[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        3 if n >= 4 => {
            let at = rng.below(n - 3);
            let v = (rng.next() as u32) % (2 * n as u32 + 2);
            data[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        4 if n > 0 => {
            let at = rng.below(n);
            data[at] = [0x00, 0xFF, 0x80, 0x7F, 0xC0, 0x40][rng.below(6)];
        }
        5 if n > 0 => data.truncate(rng.below(n)),
        6 => {
            for _ in 0..1 + rng.below(64) {
                data.push(rng.next() as u8);
            }
        }
        _ if n >= 2 => {
            // Swap two spans: plausible values in implausible places.
            let (a, b) = (rng.below(n), rng.below(n));
            let len = rng.below(16).min(n - a.max(b));
            for k in 0..len {
                data.swap(a + k, b + k);
            }
        }
        _ => data.push(0),
    }
}

/// Everything a host can do with an index. Returns how many calls answered (the rest erred).
fn exercise(bytes: &[u8]) -> usize {
    let mut answered = 0;
    let mut tally = |ok: bool| answered += ok as usize;
    let Ok(index) = Index::open(bytes) else { return 0 };
    tally(index.verify().is_ok());
    for q in ["대한민국 주권", "거주 이전의 자유", "python list", "제1조", "찾기 도구 모음", "tuple"]
    {
        if let Ok(hits) = search::search(&index, q, 10) {
            tally(true);
            for h in hits {
                tally(index.chunk(h.chunk).is_ok());
            }
        }
    }
    for c in 0..index.chunk_count().min(200) {
        tally(index.chunk(c).is_ok());
        tally(index.chunk_key(c).is_ok());
        tally(index.doc_len(c).is_ok());
    }
    for s in 0..index.source_count().min(50) {
        tally(index.source(s).is_ok());
    }
    tally(index.anchors().is_ok());
    tally(index.glossary().is_ok());
    tally(index.gate_model().is_ok());
    let Ok(mut engine) = Engine::new(Default::default()) else { return answered };
    if engine.add_instance("forged", Arc::<[u8]>::from(bytes), InstanceOptions::default()).is_err() {
        return answered;
    }
    let session = AskOptions { session: Some("s".into()), now_ms: Some(1_000), ..Default::default() };
    for p in [
        "대한민국의 주권은 누구에게 있나요?",
        "거주·이전의 자유는 어떻게 보장되나요?",
        "Why are tuples immutable?",
    ] {
        tally(engine.ask(p, &AskOptions::default()).is_ok());
        tally(engine.ask(p, &session).is_ok());
    }
    let args = [
        ("search", r#"{"query":"대한민국 주권","k":20,"detailed":true}"#.to_string()),
        ("grep", r#"{"text":"자유","limit":50}"#.to_string()),
        ("sources", "{}".to_string()),
        ("read", r#"{"instance":"forged","source":"constitution","article":"1","around":2}"#.to_string()),
        ("read", r#"{"instance":"forged","source":"constitution","chunk":0}"#.to_string()),
        ("links", r#"{"instance":"forged","source":"constitution"}"#.to_string()),
    ];
    for (tool, a) in &args {
        tally(tools::call_str(&engine, tool, a).is_ok());
    }
    // Every source by its id, read and linked (ids come from the forged strings).
    for s in 0..index.source_count().min(20) {
        if let Ok(src) = index.source(s) {
            let id = serde_json::to_string(&src.id).unwrap_or_default();
            tally(
                tools::call_str(&engine, "read", &format!(r#"{{"instance":"forged","source":{id}}}"#))
                    .is_ok(),
            );
            tally(
                tools::call_str(&engine, "links", &format!(r#"{{"instance":"forged","source":{id}}}"#))
                    .is_ok(),
            );
        }
    }
    answered
}

/// The guarded names section [`base`] carries.
fn base_guarded() -> String {
    "python\n\nrust\n러스트\n".to_string()
}

/// A weights section for the excerpt index: every third chunk weighs 1.5, the rest 1.
fn base_weights(bytes: &[u8]) -> Vec<u8> {
    let chunks = Index::open(bytes).expect("excerpts").chunk_count();
    let per_chunk: Vec<f32> = (0..chunks).map(|c| if c % 3 == 0 { 1.5 } else { 1.0 }).collect();
    groundgate::index::weights::encode(&per_chunk).expect("weights").expect("not all 1")
}

/// The excerpt index with a gate section, a guarded names section, a weights section and a
/// prompt language section (so sections 12, 15, 16 and 17 are forged too; the build writes 13 and
/// 14).
fn base() -> Vec<u8> {
    let model = groundgate::gate::GateModel::default();
    let bytes = groundgate::index::with_gate_model(excerpt_index(), &model).expect("gate section");
    let guarded =
        groundgate::gate::names::encode_guarded(&["python".into()], &["rust".into(), "러스트".into()]);
    let id = SectionId::GuardedNames as u32;
    let weights = base_weights(&bytes);
    let mut sections = raw_sections(&bytes).expect("sections");
    let language = SectionId::PromptLanguage as u32;
    sections.retain(|s| s.0 != id && s.0 != SectionId::Weights as u32 && s.0 != language);
    sections.push((id, &guarded));
    sections.push((SectionId::Weights as u32, &weights));
    sections.push((language, b"ko"));
    groundgate::index::format::write_raw(groundgate::index::format::version(&bytes), &sections)
}

/// `bytes` is refused at open as corrupt, the error naming `section`; `what` names the forgery.
fn refused_at_open(bytes: &[u8], section: &str, what: &str) {
    let Err(e) = Index::open(bytes) else { panic!("{what} opened") };
    assert_eq!(e.code(), "corrupt", "{what}: {e}");
    assert!(e.to_string().contains(section), "{what}: {e}");
}

#[test]
fn forged_sections_never_panic() {
    let base = base();
    let sections: Vec<u32> = raw_sections(&base).expect("sections").iter().map(|(id, _)| *id).collect();
    // Every section the format knows, the optional ones (gate, background, names) included.
    let known = SectionId::ALL.len() + SectionId::OPTIONAL.len();
    assert_eq!(sections.len(), known, "the base must have every section: {sections:?}");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut variants, mut panics, mut opened) = (0, 0, 0);
    // A panic's message goes to stderr through the hook; keep the output readable: count instead.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for &id in &sections {
        // The term dictionary (an FST, section 2) gets more: its decoder is the least checked.
        let rounds = if id == 2 { 120 } else { 40 };
        for round in 0..rounds {
            let bytes = mutate_section(&base, id, |d| {
                for _ in 0..1 + round % 3 {
                    mutate(&mut rng, d);
                }
            })
            .expect("re-framed");
            variants += 1;
            opened += Index::open(bytes.as_slice()).is_ok() as usize;
            if catch_unwind(AssertUnwindSafe(|| exercise(&bytes))).is_err() {
                panics += 1;
                eprintln!("panic: section {id}, round {round}");
            }
        }
    }
    // Whole-file mutations too (table entries included), with every checksum fixed after.
    for round in 0..120 {
        let mut bytes = base.clone();
        for _ in 0..1 + round % 4 {
            let at = rng.below(bytes.len());
            bytes[at] = rng.next() as u8;
        }
        fix_checksums(&mut bytes);
        variants += 1;
        opened += Index::open(bytes.as_slice()).is_ok() as usize;
        if catch_unwind(AssertUnwindSafe(|| exercise(&bytes))).is_err() {
            panics += 1;
            eprintln!("panic: whole file, round {round}");
        }
    }
    std::panic::set_hook(hook);
    eprintln!("forged variants: {variants}, opened: {opened}, panics: {panics}");
    assert!(variants >= 400);
    assert!(opened >= 200, "most variants must get past the checksums: {opened} of {variants}");
    assert_eq!(panics, 0, "{panics} of {variants} forged files panicked");
}

#[test]
fn the_unforged_base_answers() {
    // The exercise is not vacuous: on the valid file nearly every call answers.
    let n = exercise(&base());
    assert!(n > 50, "{n}");
}

#[test]
fn a_gate_model_fitted_for_another_feature_count_is_refused_by_name() {
    // An older build's model (10 features: two judges of 10 weights, bias and threshold).
    let bytes =
        mutate_section(&base(), SectionId::Gate as u32, |d| d.truncate(2 * (10 + 2) * 8)).expect("re-framed");
    let index = Index::open(bytes.as_slice()).expect("the gate section is read when used");
    let e = index.gate_model().expect_err("a 10-feature model");
    assert_eq!(e.code(), "corrupt", "{e}");
    assert!(e.to_string().contains("calibrate --write"), "{e}");
    let mut engine = Engine::new(groundgate::Config::default()).expect("engine");
    let e = engine.add_instance("old", bytes, InstanceOptions::default()).expect_err("refused");
    assert!(e.to_string().contains("calibrate --write"), "{e}");
}

#[test]
fn a_prompt_language_the_gate_cannot_tell_is_refused_with_valid_checksums() {
    assert!(Index::open(base().as_slice()).expect("base").korean_prompts());
    for forged in [&b"en"[..], b"", b"ko\n", b"kor", &[0xFF, 0xFE]] {
        let bytes = mutate_section(&base(), SectionId::PromptLanguage as u32, |d| *d = forged.to_vec())
            .expect("re-framed");
        refused_at_open(&bytes, "prompt_language", &format!("prompt language {forged:?}"));
    }
}

#[test]
fn a_names_section_out_of_order_or_not_utf8_is_refused_with_valid_checksums() {
    let base = base();
    assert!(Index::open(base.as_slice()).expect("base").outside_names().count() > 300);
    let swap = |d: &mut Vec<u8>| {
        // Put the last name first: no longer sorted.
        let text = String::from_utf8(d.clone()).expect("utf-8");
        let mut lines: Vec<&str> = text.lines().collect();
        lines.rotate_right(1);
        *d = lines.iter().flat_map(|l| l.bytes().chain([b'\n'])).collect();
    };
    for forge in [&swap as &dyn Fn(&mut Vec<u8>), &|d: &mut Vec<u8>| d[0] = 0xFF, &|d: &mut Vec<u8>| {
        d.pop();
    }] {
        let bytes = mutate_section(&base, SectionId::Names as u32, forge).expect("re-framed");
        refused_at_open(&bytes, "names", "a forged names section");
    }
}

#[test]
fn a_guarded_names_section_without_its_parts_is_refused_with_valid_checksums() {
    let base = base();
    let index = Index::open(base.as_slice()).expect("base");
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    assert_eq!(index.outside_name(&words(&["러스트", "코드"])), Some("러스트"));
    assert_eq!(index.outside_name(&words(&["rust", "python"])), None, "the own name lifts the guard");
    // No empty line, an empty part on either side, guarded names out of order, not UTF-8.
    let no_split = base_guarded().replace("\n\n", "\n");
    let mut bad_utf8 = base_guarded().into_bytes();
    bad_utf8[0] = 0xFF;
    for forged in [
        no_split.into_bytes(),
        b"python\n\n".to_vec(),
        b"\n\nrust\n".to_vec(),
        b"python\n\nzz\naa\n".to_vec(),
        bad_utf8,
    ] {
        let bytes = mutate_section(&base, SectionId::GuardedNames as u32, |d| *d = forged.clone())
            .expect("re-framed");
        refused_at_open(&bytes, "guarded_names", "a forged guarded_names section");
    }
}

#[test]
fn a_weights_section_that_does_not_fit_is_refused_with_valid_checksums() {
    let base = base();
    let index = Index::open(base.as_slice()).expect("base");
    let weights = index.chunk_weights().expect("weights");
    assert_eq!((weights.get(0), weights.get(1)), (Some(1.5), Some(1.0)));
    // Weights: [1.5, 1.0] after the count byte, then one code a chunk.
    let nan = |d: &mut Vec<u8>| d[1..5].copy_from_slice(&f32::NAN.to_le_bytes());
    let zero = |d: &mut Vec<u8>| d[5..9].copy_from_slice(&0f32.to_le_bytes());
    let code = |d: &mut Vec<u8>| *d.last_mut().expect("codes") = 2;
    let short = |d: &mut Vec<u8>| {
        d.pop();
    };
    let count = |d: &mut Vec<u8>| d[0] = 0;
    for forge in [&nan as &dyn Fn(&mut Vec<u8>), &zero, &code, &short, &count] {
        let bytes = mutate_section(&base, SectionId::Weights as u32, forge).expect("re-framed");
        refused_at_open(&bytes, "weights", "a forged weights section");
    }
}

#[test]
fn bm25_parameters_the_writer_never_writes_are_refused_with_valid_checksums() {
    // k1 (1.2) and b (0.75) are f32s in the bincode meta; out of the writer's clamp, scores were
    // 0, negative or infinite and a search answered wrongly (or `calibrate` never ended).
    let base = base();
    for (from, to) in [(1.2f32, 3.5f32), (1.2, -1.0), (1.2, 3e38), (0.75, 1.5), (0.75, -1e30)] {
        let bytes = mutate_section(&base, SectionId::Meta as u32, |d| {
            let at = d.windows(4).position(|w| w == from.to_le_bytes()).expect("the parameter in meta");
            d[at..at + 4].copy_from_slice(&to.to_le_bytes());
        })
        .expect("re-framed");
        refused_at_open(&bytes, "meta", &format!("k1/b {from} → {to}"));
    }
}

#[test]
fn an_anchor_listed_twice_is_refused_with_valid_checksums() {
    // A few anchors listed millions of times made every load analyse each copy (gigabytes).
    let base = base();
    assert!(!Index::open(base.as_slice()).expect("base").anchors().expect("anchors").is_empty());
    let bytes = mutate_section(&base, SectionId::Anchors as u32, |d| {
        let first = d[..4].to_vec();
        d.extend(first);
    })
    .expect("re-framed");
    let e = Index::open(bytes.as_slice()).expect("opens").anchors().expect_err("a repeated anchor");
    assert_eq!(e.code(), "corrupt", "{e}");
    let mut engine = Engine::new(groundgate::Config::default()).expect("engine");
    let e = engine.add_instance("x", bytes, Default::default()).expect_err("refused");
    assert!(e.to_string().contains("anchors"), "{e}");
}

#[test]
fn a_stored_idf_out_of_its_range_is_refused_with_valid_checksums() {
    // Formats before v4 store each term's idf (start, df, idf: 12 bytes a term); a negative or huge
    // one gave an empty or wrong answer.
    let v3 = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v3/excerpts.ggi"))
        .expect("v3 fixture");
    let query = "주권";
    assert!(
        !groundgate::search::search(&Index::open(v3.as_slice()).expect("v3"), query, 3)
            .expect("hits")
            .is_empty()
    );
    for idf in [-1.0f32, 3e38] {
        let bytes = mutate_section(&v3, SectionId::TermInfo as u32, |d| {
            for term in d.chunks_exact_mut(12) {
                term[8..12].copy_from_slice(&idf.to_le_bytes());
            }
        })
        .expect("re-framed");
        let index = Index::open(bytes.as_slice()).expect("opens");
        let e = groundgate::search::search(&index, query, 3).expect_err("a forged idf");
        assert_eq!(e.code(), "corrupt", "{e}");
        assert!(e.to_string().contains("term_info"), "{e}");
    }
}

#[test]
fn a_citation_reads_its_source_without_splitting_the_links() {
    // A crafted file can give every source one string of millions of links; split for every
    // source a search hit or a listing touched, `links` took 12 GB. Citations and listings read
    // the source's head and count its links.
    let index = Index::open(excerpt_index()).expect("excerpts");
    let mut with_links = 0;
    for n in 0..index.source_count() {
        let (full, head) = (index.source(n).expect("source"), index.source_head(n).expect("head"));
        assert!(head.links.is_empty());
        assert_eq!(index.link_count(n).expect("count"), full.links.len());
        assert_eq!(
            (head.id, head.title, head.kind, head.date, head.link),
            (full.id, full.title, full.kind, full.date, full.link)
        );
        with_links += usize::from(!full.links.is_empty());
    }
    assert!(with_links > 0, "the excerpts have a source with links");
}

/// Field `k` of record `i` in a table of `fields` u32 fields stored as byte planes.
fn set_plane(data: &mut [u8], fields: usize, i: usize, k: usize, value: u32) {
    let count = data.len() / (4 * fields);
    for (p, b) in value.to_le_bytes().into_iter().enumerate() {
        data[(4 * k + p) * count + i] = b;
    }
}

/// The two files of tests/node/forged32.test.mjs, on the excerpt index: offsets that wrap a 32-bit
/// `usize` (wasm) are refused natively with the message the wasm builds now give too.
#[test]
fn offsets_that_wrap_32_bits_are_refused_with_the_message_wasm_gives() {
    let base = excerpt_index();
    let n = Index::open(base).expect("excerpts").chunk_count() as usize;
    // LZ4 text (group 1) claiming 0x3FFFFFFF blocks, every chunk pointing at a 10-byte block.
    let first = 4 * (n as u32 + 1);
    let lz4 = mutate_section(base, SectionId::Text as u32, |d| {
        d.clear();
        d.extend(1u32.to_le_bytes());
        d.extend(0x3FFF_FFFFu32.to_le_bytes());
        (0..=n as u32).for_each(|b| d.extend((first + 10 * b).to_le_bytes()));
        (0..n).for_each(|_| d.extend(b"\x10A\x01\x00\x50PWNED"));
    })
    .and_then(|b| {
        mutate_section(&b, SectionId::Chunks as u32, |d| {
            (0..n).for_each(|c| {
                set_plane(d, 9, c, 0, first + 10 * c as u32);
                set_plane(d, 9, c, 1, 10);
            })
        })
    })
    .expect("forged");
    let index = Index::open(&lz4).expect("the frame is sound");
    let e = index.chunk(0).expect_err("lz4 wrap");
    assert!(e.to_string().starts_with("corrupt index (text): chunk 0: block table cut short;"), "{e}");
    // Two strings appended; the first source's title reads the second, whose offsets pass 2³².
    let strings = mutate_section(base, SectionId::Strings as u32, |d| {
        let count = u32::from_le_bytes(d[..4].try_into().unwrap());
        let old_base = 4 + 4 * (count as usize + 1);
        let ends: Vec<u32> = (0..=count as usize)
            .map(|i| u32::from_le_bytes(d[4 + 4 * i..8 + 4 * i].try_into().unwrap()))
            .collect();
        let text = d[old_base..].to_vec();
        let new_base = 4 + 4 * (count as u64 + 3);
        let wrap = (1u64 << 32) - new_base + 4;
        d.clear();
        d.extend((count + 2).to_le_bytes());
        ends.iter().for_each(|e| d.extend(e.to_le_bytes()));
        d.extend((wrap as u32).to_le_bytes());
        d.extend((wrap as u32 + 4).to_le_bytes());
        d.extend(text);
    })
    .and_then(|b| {
        let sections = raw_sections(base).expect("sections");
        let table = sections.iter().find(|s| s.0 == SectionId::Strings as u32).expect("strings").1;
        let title = groundgate::index::strings::Strings::new(table).expect("strings").len() + 1;
        mutate_section(&b, SectionId::Sources as u32, |d| set_plane(d, 6, 0, 1, title))
    })
    .expect("forged");
    let index = Index::open(&strings).expect("the frame is sound");
    let e = index.source(0).expect_err("strings wrap");
    assert!(e.to_string().contains("spans 4294967300..4294967304;"), "{e}");
}
