//! Router evaluation: accuracy, confusion matrix and the misrouted inputs over labelled prompts.
//!
//! Labels are `question`, `sentence` or `unrelated`. Two measures:
//!
//! * **form** — the router's question/sentence decision on the text alone
//!   ([`classify`](crate::gate::router::classify)); an `unrelated` label counts as question form
//!   (chat and coding requests are questions a person typed). This is the accuracy the router is
//!   held to, and it needs no index.
//! * **kind and route** — with an engine, the full verdict (`question`/`sentence`/`unrelated`,
//!   push/pull/skip); the report counts sentences that were pushed evidence (must be none).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::{AskOptions, Engine, Route};
use crate::error::Result;
use crate::gate::router::{Form, classify};

/// One labelled prompt.
#[derive(Debug, Clone)]
pub struct Case {
    /// Identifier.
    pub id: String,
    /// The prompt.
    pub prompt: String,
    /// `question`, `sentence` or `unrelated`.
    pub kind: String,
    /// A polite request (~주세요, please …).
    pub polite: bool,
}

/// A misrouted input.
#[derive(Debug, Clone, Serialize)]
pub struct Miss {
    /// Identifier.
    pub id: String,
    /// The prompt (first 120 characters).
    pub prompt: String,
    /// Expected label.
    pub expected: String,
    /// What the router said.
    pub got: String,
    /// Signals and gate reasons.
    pub reasons: Vec<String>,
}

/// The evaluation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// Labelled prompts.
    pub cases: usize,
    /// Form decided right.
    pub form_correct: usize,
    /// Form confusion: (expected form, got form) → count.
    pub form_confusion: BTreeMap<(String, String), usize>,
    /// Polite requests.
    pub polite: usize,
    /// Polite requests classified as questions.
    pub polite_correct: usize,
    /// Form misses.
    pub form_misses: Vec<Miss>,
    /// With an engine: (expected kind, got kind) → count.
    pub kind_confusion: BTreeMap<(String, String), usize>,
    /// With an engine: route counts per expected kind.
    pub routes: BTreeMap<(String, String), usize>,
    /// With an engine: sentences that were pushed evidence.
    pub sentences_pushed: Vec<Miss>,
}

fn form_name(f: Form) -> &'static str {
    match f {
        Form::Question => "question",
        Form::Sentence => "sentence",
    }
}

fn clip(s: &str) -> String {
    s.chars().take(120).collect()
}

/// Evaluate the router on `cases`; with `engine`, the full verdict too.
pub fn evaluate(cases: &[Case], mut engine: Option<&mut Engine>) -> Result<Report> {
    let mut r = Report { cases: cases.len(), ..Report::default() };
    for c in cases {
        let want = if c.kind == "sentence" { "sentence" } else { "question" };
        let v = classify(&c.prompt);
        let got = form_name(v.form);
        *r.form_confusion.entry((want.to_string(), got.to_string())).or_default() += 1;
        if got == want {
            r.form_correct += 1;
        } else {
            r.form_misses.push(Miss {
                id: c.id.clone(),
                prompt: clip(&c.prompt),
                expected: want.into(),
                got: got.into(),
                reasons: v.signals.clone(),
            });
        }
        if c.polite {
            r.polite += 1;
            r.polite_correct += usize::from(v.form == Form::Question);
        }
        if let Some(e) = engine.as_deref_mut() {
            let a = e.ask(&c.prompt, &AskOptions::default())?;
            let kind = serde_json::to_value(a.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let route = serde_json::to_value(a.route)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            *r.kind_confusion.entry((c.kind.clone(), kind.clone())).or_default() += 1;
            *r.routes.entry((c.kind.clone(), route)).or_default() += 1;
            if c.kind == "sentence" && a.route == Route::Push {
                r.sentences_pushed.push(Miss {
                    id: c.id.clone(),
                    prompt: clip(&c.prompt),
                    expected: "pull".into(),
                    got: "push".into(),
                    reasons: a.reasons,
                });
            }
        }
    }
    Ok(r)
}

impl Report {
    /// Form accuracy.
    pub fn form_accuracy(&self) -> f64 {
        if self.cases == 0 { 0.0 } else { self.form_correct as f64 / self.cases as f64 }
    }

    /// A readable report.
    pub fn render(&self, max_misses: usize) -> String {
        let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
        let mut out = format!(
            "form accuracy {}/{} = {:.1}%   polite requests → question {}/{} = {:.1}%\n",
            self.form_correct,
            self.cases,
            100.0 * self.form_accuracy(),
            self.polite_correct,
            self.polite,
            pct(self.polite_correct, self.polite)
        );
        out.push_str("form confusion (expected → got):\n");
        for ((w, g), n) in &self.form_confusion {
            out.push_str(&format!("  {w:<9} → {g:<9} {n}\n"));
        }
        if !self.kind_confusion.is_empty() {
            out.push_str("kind confusion with the engine (expected → got):\n");
            for ((w, g), n) in &self.kind_confusion {
                out.push_str(&format!("  {w:<9} → {g:<9} {n}\n"));
            }
            out.push_str("routes by expected kind:\n");
            for ((w, g), n) in &self.routes {
                out.push_str(&format!("  {w:<9} → {g:<5} {n}\n"));
            }
            out.push_str(&format!("sentences routed push: {}\n", self.sentences_pushed.len()));
            for m in &self.sentences_pushed {
                out.push_str(&format!("  PUSHED {}  {}  {:?}\n", m.id, m.prompt, m.reasons));
            }
        }
        out.push_str(&format!("misrouted ({}, first {max_misses}):\n", self.form_misses.len()));
        for m in self.form_misses.iter().take(max_misses) {
            out.push_str(&format!(
                "  {} expected {} got {}: {}  {:?}\n",
                m.id, m.expected, m.got, m.prompt, m.reasons
            ));
        }
        out
    }
}
