//! The decision log: every answer says, per instance, what each gate saw and decided, and
//! [`Funnel`] turns a file of such records into the field report's funnel (`groundgate stats`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::gate::Sufficiency;

/// What happened to one instance for one prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The prompt is over the length limit; no index was opened.
    TooLong,
    /// The prompt has too few words; no index was opened.
    TooFewWords,
    /// None of the instance's anchors is in the prompt.
    NoAnchor,
    /// The prompt is not a question (router verdict); the index was searched for hints only.
    NotAQuestion,
    /// The search found nothing.
    NoHits,
    /// The evidence failed the sufficiency gate.
    Insufficient,
    /// The instance did not answer within its deadline.
    Deadline,
    /// Every candidate had already been injected in this session.
    AllDeduplicated,
    /// The instance's budget was too small for even one sentence of evidence.
    NoBudget,
    /// Evidence was injected.
    Injected,
}

/// One instance's record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstanceLog {
    /// Instance name.
    pub instance: String,
    /// Final outcome.
    pub outcome: Outcome,
    /// The anchors found in the prompt.
    pub anchors: Vec<String>,
    /// Forced by a user tag (anchor and sufficiency gates bypassed).
    pub forced: bool,
    /// The instance has something to say about the prompt (even if not enough to inject).
    pub relevant: bool,
    /// The sufficiency gate's inputs and verdict (absent when the index was not searched).
    pub sufficiency: Option<Sufficiency>,
    /// Scores of the hits considered, best first.
    pub scores: Vec<f64>,
    /// Characters injected.
    pub chars: usize,
    /// Characters allowed.
    pub budget: usize,
    /// Milliseconds spent, by the engine's clock.
    pub elapsed_ms: u64,
    /// Chunks skipped because this session already had them.
    pub dedup_skipped: Vec<u32>,
}

impl InstanceLog {
    /// A record for an instance that was not searched.
    pub fn skipped(instance: &str, outcome: Outcome) -> Self {
        InstanceLog {
            instance: instance.to_string(),
            outcome,
            anchors: Vec::new(),
            forced: false,
            relevant: false,
            sufficiency: None,
            scores: Vec::new(),
            chars: 0,
            budget: 0,
            elapsed_ms: 0,
            dedup_skipped: Vec::new(),
        }
    }

    /// One line for the detailed context format.
    pub fn summary(&self) -> String {
        let mut s = format!("{:?}", self.outcome).to_lowercase();
        if self.forced {
            s.push_str(", forced");
        }
        if !self.anchors.is_empty() {
            s.push_str(&format!(", anchors {}", self.anchors.join("/")));
        }
        if let Some(g) = &self.sufficiency {
            s.push_str(&format!(
                ", top {} (≥ {}), coverage {} (≥ {})",
                g.top_score, g.threshold, g.coverage, g.min_coverage
            ));
        }
        s.push_str(&format!(", {}/{} chars", self.chars, self.budget));
        s
    }
}

/// The whole record for one prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionLog {
    /// Prompt length in characters.
    pub prompt_chars: usize,
    /// Words in the prompt.
    pub words: usize,
    /// Instances forced by tags.
    pub forced: Vec<String>,
    /// Per instance.
    pub instances: Vec<InstanceLog>,
    /// Characters injected in all.
    pub injected_chars: usize,
    /// Instances that injected evidence.
    pub answered: usize,
    /// Milliseconds spent, by the engine's clock.
    pub elapsed_ms: u64,
}

/// The funnel over many decision logs (field report, PART 02).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Funnel {
    /// Prompts seen.
    pub prompts: usize,
    /// Skipped: over the length limit.
    pub too_long: usize,
    /// Skipped: too few words.
    pub too_few_words: usize,
    /// No instance's anchor in the prompt (and nothing forced).
    pub no_anchor: usize,
    /// At least one instance passed the anchor gate.
    pub passed_anchor: usize,
    /// At least one instance passed the sufficiency gate (unforced).
    pub passed_sufficiency: usize,
    /// At least one instance forced by a tag.
    pub forced: usize,
    /// At least one instance injected evidence.
    pub injected: usize,
    /// Injections by number of instances answering (1, 2, 3, …).
    pub instances_per_injection: BTreeMap<usize, usize>,
    /// Instances dropped at their deadline.
    pub deadline: usize,
    /// Chunks skipped by session dedup.
    pub dedup_skipped: usize,
    /// Characters injected in all.
    pub injected_chars: usize,
}

impl Funnel {
    /// Add one prompt's record.
    pub fn add(&mut self, log: &DecisionLog) {
        self.prompts += 1;
        let any = |o: Outcome| log.instances.iter().any(|i| i.outcome == o);
        if any(Outcome::TooLong) {
            self.too_long += 1;
            return;
        }
        if any(Outcome::TooFewWords) {
            self.too_few_words += 1;
            return;
        }
        if !log.forced.is_empty() {
            self.forced += 1;
        }
        let anchored = log.instances.iter().any(|i| !i.forced && i.outcome != Outcome::NoAnchor);
        if anchored {
            self.passed_anchor += 1;
        } else if log.forced.is_empty() {
            self.no_anchor += 1;
        }
        if log.instances.iter().any(|i| !i.forced && i.sufficiency.as_ref().is_some_and(|s| s.passed)) {
            self.passed_sufficiency += 1;
        }
        if log.answered > 0 {
            self.injected += 1;
            *self.instances_per_injection.entry(log.answered).or_default() += 1;
        }
        self.deadline += log.instances.iter().filter(|i| i.outcome == Outcome::Deadline).count();
        self.dedup_skipped += log.instances.iter().map(|i| i.dedup_skipped.len()).sum::<usize>();
        self.injected_chars += log.injected_chars;
    }

    /// A readable table, with each step's share of all prompts.
    pub fn render(&self) -> String {
        let pct = |n: usize| if self.prompts == 0 { 0.0 } else { 100.0 * n as f64 / self.prompts as f64 };
        let mut out = format!("prompts              {:>7}\n", self.prompts);
        for (label, n) in [
            ("too long", self.too_long),
            ("too few words", self.too_few_words),
            ("no anchor", self.no_anchor),
            ("passed anchor", self.passed_anchor),
            ("passed sufficiency", self.passed_sufficiency),
            ("forced by tag", self.forced),
            ("injected", self.injected),
        ] {
            out.push_str(&format!("{label:<20} {n:>7}  {:>5.1}%\n", pct(n)));
        }
        out.push_str("instances per injection:");
        for (k, v) in &self.instances_per_injection {
            out.push_str(&format!("  {k}: {v}"));
        }
        out.push('\n');
        out.push_str(&format!(
            "deadline drops {}, dedup skips {}, characters injected {} (mean {:.0} per injection)\n",
            self.deadline,
            self.dedup_skipped,
            self.injected_chars,
            if self.injected == 0 { 0.0 } else { self.injected_chars as f64 / self.injected as f64 }
        ));
        out
    }
}
