//! Session state across processes: what one engine showed a session, exported and imported into a
//! fresh engine (as a Claude Code hook does between prompts), is not shown again.

use groundgate::deliver::SessionState;
use groundgate::engine::FixedClock;
use groundgate::{AskOptions, Config, Route};

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

#[test]
fn bad_session_state_is_a_typed_error() {
    let mut e = engine_with(&[("a", instance("a", 2, 100))], Config::default());
    assert_eq!(e.export_session("").unwrap_err().code(), "invalid_argument");
    let bad = SessionState { session: "x".repeat(300), shown: vec![] };
    assert_eq!(e.import_session(&bad).unwrap_err().code(), "invalid_argument");
}
