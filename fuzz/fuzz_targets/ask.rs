//! Fuzz `Engine::ask` on valid indexes: prompts (with forcing tags), options (as the JSON a host
//! sends and as fields), sessions (export, import of fuzzed session text, clear), the engine
//! settings, and the clock. Nothing may panic; typed errors are fine. The same answer twice for the
//! same call and state is checked too (determinism).
#![no_main]

use groundgate::{AskOptions, Config, Engine, InstanceOptions};
use groundgate::deliver::SessionState;
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

static CONSTITUTION: &[u8] = include_bytes!("../../indexes/constitution.ggi");
static PYFAQ: &[u8] = include_bytes!("../../indexes/pyfaq.ggi");

#[derive(Arbitrary, Debug)]
enum Step {
    /// ask with options parsed from host JSON (as JS `ask(prompt, options)` and the CLI do).
    AskJson { prompt: String, options: String },
    /// ask with options built field by field (always well-typed; values hostile).
    Ask { prompt: String, tag: u8, session: Option<String>, detailed: bool, now_ms: Option<u64> },
    /// A stored session state read back (fuzzed text), then exported.
    Import { session: String, state: String },
    Export { session: String },
    Clear { session: String },
    Clock { ms: u64 },
    Search { instance: u8, query: String, k: u16 },
}

#[derive(Arbitrary, Debug)]
struct Input {
    config: Option<String>,
    sufficiency: Option<f64>,
    relevance: Option<f64>,
    anchors: Vec<String>,
    steps: Vec<Step>,
}

const NAMES: [&str; 3] = ["constitution", "pyfaq", "nope"];

fuzz_target!(|input: Input| {
    let config = input.config.as_deref().and_then(|c| serde_json::from_str::<Config>(c).ok()).unwrap_or_default();
    let Ok(mut engine) = Engine::new(config) else { return };
    engine.set_clock(Box::new(groundgate::engine::FixedClock(1_000_000)));
    let opts = InstanceOptions { sufficiency: input.sufficiency, relevance: input.relevance, anchors: input.anchors };
    let _ = engine.add_instance("constitution", CONSTITUTION, opts.clone());
    let _ = engine.add_instance("pyfaq", PYFAQ, InstanceOptions::default());
    for step in input.steps.into_iter().take(16) {
        match step {
            Step::AskJson { prompt, options } => {
                if let Ok(o) = serde_json::from_str::<AskOptions>(&options) {
                    let _ = engine.ask(&prompt, &o);
                }
            }
            Step::Ask { prompt, tag, session, detailed, now_ms } => {
                let prompt = match tag % 4 {
                    0 => prompt,
                    n => format!("#{} {prompt}", NAMES[n as usize - 1]),
                };
                let mut o = AskOptions { session, now_ms, ..Default::default() };
                if detailed {
                    o.format = groundgate::deliver::Format::Detailed;
                }
                let first = engine.ask(&prompt, &AskOptions { session: None, ..o.clone() });
                let again = engine.ask(&prompt, &AskOptions { session: None, ..o.clone() });
                match (first, again) {
                    (Ok(a), Ok(b)) => assert_eq!(
                        serde_json::to_string(&a).ok(),
                        serde_json::to_string(&b).ok(),
                        "same call, same state, different answer"
                    ),
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                    _ => panic!("same call, same state: one answer and one error"),
                }
                let _ = engine.ask(&prompt, &o);
            }
            Step::Import { session, state } => {
                if let Ok(s) = SessionState::parse(&session, &state) {
                    let _ = engine.import_session(&s);
                }
            }
            Step::Export { session } => {
                if let Ok(s) = engine.export_session(&session) {
                    let text = s.to_text();
                    let back = SessionState::parse(&session, &text).expect("an exported state reads back");
                    assert_eq!(back, s);
                }
            }
            Step::Clear { session } => engine.clear_session(&session),
            Step::Clock { ms } => engine.set_clock(Box::new(groundgate::engine::FixedClock(ms))),
            Step::Search { instance, query, k } => {
                let _ = engine.search(NAMES[instance as usize % 3], &query, k as usize);
            }
        }
    }
});
