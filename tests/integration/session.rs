//! Session state across processes: what one engine showed a session, exported and imported into a
//! fresh engine (as a Claude Code hook does between prompts), is not shown again.

use groundgate::corpus::{Chunk, Location, Source};
use groundgate::deliver::SessionState;
use groundgate::engine::FixedClock;
use groundgate::{AnalyzerSettings, AskOptions, Config, IndexBuilder, Route};

use crate::ask::{Q, engine_with, instance};

fn in_session(sid: &str) -> AskOptions {
    AskOptions { session: Some(sid.into()), ..AskOptions::default() }
}

#[test]
fn exported_state_carries_dedup_to_a_new_engine() {
    let bytes = instance("a", 24, 300);
    let mut first = engine_with(&[("a", bytes.clone())], Config::default());
    let shown = first.ask(Q, &in_session("s1")).expect("ask");
    assert_eq!(shown.route, Route::Push);
    let state = first.export_session("s1").expect("export");
    assert!(!state.shown.is_empty());
    let text = state.to_text();

    // A new process: a fresh engine, the state read back from its stored text.
    let mut second = engine_with(&[("a", bytes.clone())], Config::default());
    let back = SessionState::parse("s1", &text).expect("parse");
    assert_eq!(second.import_session(&back).expect("import"), state.shown.len());
    let again = second.ask(Q, &in_session("s1")).expect("ask");
    let texts: Vec<&str> = shown.evidence.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(again.log.instances[0].dedup_skipped.len(), state.shown.len());
    assert!(again.evidence.iter().all(|e| !texts.contains(&e.text.as_str())));
    // The exported state now holds both prompts' chunks.
    assert!(second.export_session("s1").expect("export").shown.len() > state.shown.len());

    // Another session in the new engine is unaffected; past the window the import keeps nothing.
    let other = second.ask(Q, &in_session("s2")).expect("ask");
    assert!(other.log.instances[0].dedup_skipped.is_empty());
    let mut late = engine_with(&[("a", bytes)], Config::default());
    late.set_clock(Box::new(FixedClock(1_000_000 + Config::default().dedup_window_ms)));
    assert_eq!(late.import_session(&back).expect("import"), 0);
    assert!(late.export_session("s1").expect("export").shown.is_empty());
}

/// A state stamped a window or more ahead of the clock (a host that wrote microseconds once) is
/// dropped whole: neither its chunks nor their long lines hide anything from the next prompt.
#[test]
fn a_state_far_ahead_of_the_clock_hides_nothing() {
    // The decree line repeats on three pages: a shown chunk's lines would be left out of the others.
    let config = Config { evidence_k: 2, top_k: 2, ..Config::default() };
    let q = "감리원 보수교육 이수 시간";
    let mut first = engine_with(&[("m", repeating_manual())], config.clone());
    first.ask(q, &in_session("s")).expect("ask");
    let state = first.export_session("s").expect("export");
    assert_eq!(state.shown.len(), 2);
    // The first chunk as it was shown; the second stamped in microseconds.
    let mut ahead = state.clone();
    ahead.shown[1].at_ms = ahead.shown[1].at_ms.max(1) * 1_000_000;
    let mut only_first = state.clone();
    only_first.shown.truncate(1);
    let answer = |s: &SessionState| {
        let mut e = engine_with(&[("m", repeating_manual())], config.clone());
        assert_eq!(e.import_session(s).expect("import"), 1);
        e.ask(q, &in_session("s")).expect("ask")
    };
    assert_eq!(answer(&ahead).context, answer(&only_first).context, "the far-ahead chunk hides nothing");
}

#[test]
fn bad_session_state_is_a_typed_error() {
    let mut e = engine_with(&[("a", instance("a", 2, 100))], Config::default());
    assert_eq!(e.export_session("").unwrap_err().code(), "invalid_argument");
    let bad = SessionState { session: "x".repeat(300), shown: vec![] };
    assert_eq!(e.import_session(&bad).unwrap_err().code(), "invalid_argument");
}

const DECREE: &str = "감리원은 매년 16시간 이상의 보수교육을 이수하여야 한다.";

/// A manual of these pages (pages 1, 2, …), then pages of other matters.
fn manual(pages: Vec<String>) -> Vec<u8> {
    let mut b = IndexBuilder::new("m", AnalyzerSettings::default());
    let source = Source {
        id: "manual".into(),
        title: "감리 매뉴얼".into(),
        kind: "manual".into(),
        date: None,
        link: None,
        links: vec![],
    };
    let s = b.add_source(source).expect("source");
    for (i, text) in pages.into_iter().enumerate() {
        let location = Location { page: Some(i as u32 + 1), ..Default::default() };
        b.add_chunk(Chunk { source: s, text, location, start: 0, end: 0 }).expect("chunk");
    }
    for k in 0..20 {
        let text = format!("예산 집행 회계 보고서 작성 절차 {k}번 항목을 확인한다.");
        b.add_chunk(Chunk { source: s, text, ..Default::default() }).expect("filler");
    }
    b.build().expect("build")
}

/// A manual that quotes one decree line on several pages (as the R&D manuals do).
fn repeating_manual() -> Vec<u8> {
    manual(vec![
        format!("제3장 감리원 교육\n{DECREE}\n교육 과정은 협회가 정한다."),
        format!("부록 관련 법령\n{DECREE}\n감리원 교육 이수 확인서는 협회가 발급한다."),
        format!("{DECREE}\n보수교육을 이수하지 아니한 감리원은 업무를 할 수 없다."),
        "감리원 교육 이수 여부는 발주청이 확인한다.".to_string(),
    ])
}

#[test]
fn a_line_the_session_was_shown_is_not_shown_again_from_another_chunk() {
    let config = Config { evidence_k: 2, top_k: 2, ..Config::default() };
    let mut e = engine_with(&[("m", repeating_manual())], config.clone());
    let q = "감리원 보수교육 이수 시간";
    let first = e.ask(q, &in_session("s")).expect("ask");
    assert_eq!(first.route, Route::Push);
    let shown: Vec<&str> = first.evidence.iter().flat_map(|e| e.text.lines()).map(str::trim).collect();
    assert!(shown.contains(&DECREE), "{shown:?}");
    let lines = |a: &groundgate::Answer| -> Vec<String> {
        a.evidence.iter().flat_map(|e| e.text.lines().map(|l| l.trim().to_string())).collect()
    };
    // Without a session, the next chunks repeat the decree; in the session, only their own lines.
    let fresh = e.ask(q, &AskOptions::default()).expect("ask");
    assert_eq!(lines(&fresh), lines(&first), "no session: the same answer");
    let again = e.ask(q, &in_session("s")).expect("ask");
    assert!(!again.evidence.is_empty(), "{again:?}");
    for line in lines(&again) {
        assert!(line.chars().count() < 20 || !shown.contains(&line.as_str()), "shown again: {line}");
    }
    // The same across processes: the stored state brings the chunks, and with them their lines.
    let state = SessionState::parse("s", &{
        let mut one = engine_with(&[("m", repeating_manual())], config.clone());
        one.ask(q, &in_session("s")).expect("ask");
        one.export_session("s").expect("export").to_text()
    })
    .expect("parse");
    let mut other = engine_with(&[("m", repeating_manual())], config);
    other.import_session(&state).expect("import");
    assert_eq!(lines(&other.ask(q, &in_session("s")).expect("ask")), lines(&again));
}

#[test]
fn a_hit_whose_every_line_was_shown_is_skipped_as_deduplicated() {
    const SECOND: &str = "보수교육을 이수하지 아니한 감리원은 업무를 할 수 없다.";
    // The same two lines, in two orders, on two pages.
    let bytes = manual(vec![format!("{DECREE}\n{SECOND}"), format!("{SECOND}\n{DECREE}")]);
    let config = Config { evidence_k: 1, ..Config::default() };
    let mut e = engine_with(&[("m", bytes)], config);
    let q = "감리원 보수교육 이수 시간";
    let first = e.ask(q, &in_session("s")).expect("ask");
    assert_eq!((first.route, first.evidence.len()), (Route::Push, 1));
    let again = e.ask(q, &in_session("s")).expect("ask");
    let log = &again.log.instances[0];
    assert_eq!(log.outcome, groundgate::deliver::Outcome::AllDeduplicated, "{again:?}");
    assert_eq!(log.dedup_skipped.len(), 2, "one chunk shown, one whose lines were: {log:?}");
    assert_eq!(again.route, Route::Pull);
    assert!(again.evidence.is_empty() && again.context.is_empty(), "{again:?}");
}
