//! The decision log: every answer says, per instance, what each gate saw and decided, and
//! [`Funnel`] turns a file of such records into the field report's funnel (`groundgate stats`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::decimal::Decimal;
use crate::gate::Judgement;

/// What happened to one instance for one prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The prompt is over the length limit; no index was opened.
    TooLong,
    /// The prompt has too few words; no index was opened.
    TooFewWords,
    /// The prompt is only a greeting, thanks or an acknowledgement
    /// ([`is_small_talk`](crate::gate::small_talk::is_small_talk)); no index was opened.
    SmallTalk,
    /// The relevance judge found the prompt unrelated to the instance's documents.
    NotRelevant,
    /// The prompt is pasted document text, not a question (router verdict): relevant, pulled.
    NotAQuestion,
    /// The search found nothing.
    NoHits,
    /// Relevant, but the sufficiency judge found the evidence not good enough to push.
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

impl Outcome {
    /// The outcome's name as it appears in JSON (`too_few_words`, `not_relevant` …).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::TooLong => "too_long",
            Outcome::TooFewWords => "too_few_words",
            Outcome::SmallTalk => "small_talk",
            Outcome::NotRelevant => "not_relevant",
            Outcome::NotAQuestion => "not_a_question",
            Outcome::NoHits => "no_hits",
            Outcome::Insufficient => "insufficient",
            Outcome::Deadline => "deadline",
            Outcome::AllDeduplicated => "all_deduplicated",
            Outcome::NoBudget => "no_budget",
            Outcome::Injected => "injected",
        }
    }
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
    /// Forced by a user tag (both judges bypassed).
    pub forced: bool,
    /// The instance has something to say about the prompt (even if not enough to inject).
    pub relevant: bool,
    /// The judges' inputs and verdicts (absent when the index was not searched).
    pub gate: Option<Judgement>,
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
            gate: None,
            scores: Vec::new(),
            chars: 0,
            budget: 0,
            elapsed_ms: 0,
            dedup_skipped: Vec::new(),
        }
    }

    /// One line for the detailed context format.
    pub fn summary(&self) -> String {
        let mut s = self.outcome.name().to_string();
        if self.forced {
            s.push_str(", forced");
        }
        if !self.anchors.is_empty() {
            s.push_str(&format!(", anchors {}", self.anchors.join("/")));
        }
        if let Some(g) = &self.gate {
            s.push_str(&format!(
                ", top {}, relevance {} (≥ {}), sufficiency {} (≥ {})",
                Decimal(g.top_score),
                Decimal(g.relevance),
                Decimal(g.relevance_threshold),
                Decimal(g.sufficiency),
                Decimal(g.sufficiency_threshold)
            ));
            if let Some(name) = &g.outside_name {
                s.push_str(&format!(", names {name} (never in the documents)"));
            }
            if g.other_language {
                s.push_str(", written without Hangul (the readers write Korean)");
            }
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
    /// Skipped: small talk (a greeting, thanks or an acknowledgement).
    pub small_talk: usize,
    /// No instance found the prompt relevant (and nothing forced): skipped as unrelated.
    pub not_relevant: usize,
    /// At least one instance found the prompt relevant (unforced).
    pub relevant: usize,
    /// At least one instance found its evidence sufficient to push (unforced).
    pub sufficient: usize,
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
    /// The verdicts of the records that carry one (`ask --jsonl` lines, a hook's log): push, pull
    /// and skip, in that order; a bare decision log has none.
    pub routes: [usize; 3],
}

/// The verdicts [`Funnel::routes`] counts, in its order.
pub const ROUTES: [&str; 3] = ["push", "pull", "skip"];

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
        if any(Outcome::SmallTalk) {
            self.small_talk += 1;
            return;
        }
        if !log.forced.is_empty() {
            self.forced += 1;
        }
        let judged = |f: fn(&Judgement) -> bool| {
            log.instances.iter().any(|i| !i.forced && i.gate.as_ref().is_some_and(f))
        };
        if judged(|g| g.relevant) {
            self.relevant += 1;
        } else if log.forced.is_empty() {
            self.not_relevant += 1;
        }
        if judged(|g| g.sufficient) {
            self.sufficient += 1;
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
            ("small talk", self.small_talk),
            ("not relevant", self.not_relevant),
            ("relevant", self.relevant),
            ("sufficient", self.sufficient),
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
        if self.routes.iter().any(|&n| n > 0) {
            out.push_str("routes:");
            for (route, n) in ROUTES.iter().zip(self.routes) {
                out.push_str(&format!("  {route} {n} ({:.1}%)", pct(n)));
            }
            out.push('\n');
        }
        out
    }
}

/// [`Funnel`] over a JSON Lines file (`ask --jsonl` output, a hook's `--log`, bare decision logs),
/// with what was not counted: an error line (a prompt refused, not decided), any other line without
/// a decision log, or a line not JSON at all (a log a hook appends to can end in a half-written
/// line) is skipped and reported, never fatal.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunnelReport {
    /// The funnel of the lines read.
    pub funnel: Funnel,
    /// Error lines (`{"id", "error"}`): prompts refused before any decision.
    pub errors: usize,
    /// Line numbers (1-based) of the other JSON lines without a decision log (`{}`, `null`, a
    /// record of another kind).
    pub without_log: Vec<usize>,
    /// Line numbers (1-based) of the lines that are not JSON.
    pub not_json: Vec<usize>,
}

impl FunnelReport {
    /// Read every non-blank line of `text`: a decision log, or a record holding one under `log`.
    pub fn read(text: &str) -> FunnelReport {
        let mut r = FunnelReport::default();
        let text = crate::text::without_bom(text);
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                r.not_json.push(n + 1);
                continue;
            };
            let error = v.get("error").is_some_and(serde_json::Value::is_object);
            let route = v.get("route").and_then(|r| ROUTES.iter().position(|&k| r == k));
            let log = match v {
                serde_json::Value::Object(mut o) => o.remove("log").unwrap_or(serde_json::Value::Object(o)),
                other => other,
            };
            match serde_json::from_value(log) {
                Ok(l) => {
                    r.funnel.add(&l);
                    if let Some(i) = route {
                        r.funnel.routes[i] += 1;
                    }
                }
                Err(_) if error => r.errors += 1,
                Err(_) => r.without_log.push(n + 1),
            }
        }
        r
    }

    /// [`Funnel::render`] and a line for each kind of line skipped.
    pub fn render(&self) -> String {
        let mut out = self.funnel.render();
        let lines = |n: usize| count(n, "line");
        if self.errors > 0 {
            out.push_str(&format!("({} skipped: error lines, prompts refused)\n", lines(self.errors)));
        }
        if let Some(first) = self.without_log.first() {
            out.push_str(&format!(
                "({} without a decision log skipped, the first at line {first})\n",
                lines(self.without_log.len())
            ));
        }
        if let Some(first) = self.not_json.first() {
            out.push_str(&format!(
                "({} not JSON skipped, the first at line {first}: a line cut short?)\n",
                lines(self.not_json.len())
            ));
        }
        out
    }
}

/// `1 line`, `2 lines`: a count and an English noun in the number it takes (the CLI's readable
/// output uses it too).
pub fn count(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skipped(outcome: Outcome) -> DecisionLog {
        DecisionLog {
            prompt_chars: 11,
            words: 2,
            forced: Vec::new(),
            instances: vec![InstanceLog::skipped("a", outcome), InstanceLog::skipped("b", outcome)],
            injected_chars: 0,
            answered: 0,
            elapsed_ms: 0,
        }
    }

    #[test]
    fn the_funnel_counts_each_prompt_gate_skip_once_at_its_own_step() {
        let mut f = Funnel::default();
        for o in [Outcome::TooLong, Outcome::TooFewWords, Outcome::SmallTalk, Outcome::SmallTalk] {
            f.add(&skipped(o));
        }
        assert_eq!((f.prompts, f.too_long, f.too_few_words, f.small_talk), (4, 1, 1, 2));
        assert_eq!((f.not_relevant, f.relevant, f.injected), (0, 0, 0));
        assert!(f.render().contains("small talk                 2   50.0%"), "{}", f.render());
        // The name in the JSON log is the one `stats` reads back.
        let json = serde_json::to_string(&skipped(Outcome::SmallTalk)).expect("json");
        assert!(json.contains("\"outcome\":\"small_talk\""), "{json}");
        assert_eq!(serde_json::from_str::<DecisionLog>(&json).expect("back"), skipped(Outcome::SmallTalk));
        assert_eq!(Outcome::SmallTalk.name(), "small_talk");
    }

    #[test]
    fn a_funnel_report_counts_what_it_skips_and_never_fails() {
        let log = serde_json::to_string(&skipped(Outcome::TooLong)).unwrap();
        let text =
            format!("{log}\n{{\"id\":1,\"log\":{log}}}\n\n{{\"id\":2,\"error\":{{}}}}\n[1]\n{{\"id\":3,\"lo");
        let r = FunnelReport::read(&text);
        assert_eq!(
            (r.funnel.prompts, r.funnel.too_long, r.errors, r.without_log.clone(), r.not_json.clone()),
            (2, 2, 1, vec![5], vec![6])
        );
        let shown = r.render();
        assert!(shown.starts_with("prompts                    2\n"), "{shown}");
        assert!(
            shown.ends_with(
                "(1 line skipped: error lines, prompts refused)\n\
                 (1 line without a decision log skipped, the first at line 5)\n\
                 (1 line not JSON skipped, the first at line 6: a line cut short?)\n"
            ),
            "{shown}"
        );
        assert_eq!(FunnelReport::read("").render(), Funnel::default().render());
        // A byte-order mark before the first line does not cost that line.
        let bom = FunnelReport::read(&format!("\u{feff}{log}\n{log}\n"));
        assert_eq!((bom.funnel.prompts, bom.not_json.len()), (2, 0));
    }

    #[test]
    fn the_verdicts_of_records_that_carry_one_are_counted() {
        let log = serde_json::to_string(&skipped(Outcome::TooLong)).unwrap();
        let record = |route: &str| format!("{{\"id\":1,\"route\":{route},\"log\":{log}}}\n");
        let text =
            ["\"push\"", "\"pull\"", "\"pull\"", "\"skip\"", "\"other\"", "3"].map(record).concat() + &log;
        let r = FunnelReport::read(&text);
        assert_eq!((r.funnel.prompts, r.funnel.routes), (7, [1, 2, 1]));
        assert!(
            r.render().contains("routes:  push 1 (14.3%)  pull 2 (28.6%)  skip 1 (14.3%)\n"),
            "{}",
            r.render()
        );
        // Bare decision logs carry no verdict: no line for it.
        assert!(!FunnelReport::read(&log).render().contains("routes"));
    }
}
