//! The engine: several instances (one index each) and `ask`, the push pipeline.
//!
//! For each prompt, per instance (field report, PART 02): skip prompts over the length limit or
//! under the word minimum; open the index only if the prompt contains one of its anchors (or a user
//! tag such as `#rnd` forces it); search the top k; inject only if the sufficiency gate passes;
//! cut the evidence to the instance's share of the budget at sentence boundaries; drop an instance
//! that overran its deadline; skip chunks this session has already been shown. Every step is
//! recorded in the answer's decision log.

use std::collections::HashSet;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::corpus::Citation;
use crate::deliver::context::{self, Format};
use crate::deliver::log::{DecisionLog, InstanceLog, Outcome};
use crate::deliver::{Sessions, budget};
use crate::error::{Error, Result};
use crate::gate::router::{self, Form};
use crate::gate::{AnchorSet, sufficiency};
use crate::index::Index;
use crate::search::{self, Hit, TermScore};
use crate::text::Analyzer;

/// An instance is *relevant* (the prompt should be pulled rather than skipped) when its evidence
/// reaches this share of both the score threshold and the coverage requirement.
const RELEVANT_SHARE: f64 = 0.75;

/// An unknown Hangul word weighs, in the coverage test, like a word found in 1/this of the chunks.
const UNKNOWN_HANGUL_DF_DIV: u32 = 20;

/// Largest prompt accepted at all, in bytes (a longer one is an error, not a skip).
pub const MAX_PROMPT_BYTES: usize = 1 << 20;

/// Engine-wide settings. Every number of the field report is here and configurable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Prompts longer than this many characters are skipped (1,500).
    pub max_prompt_chars: usize,
    /// Prompts with fewer words are skipped (2).
    pub min_words: usize,
    /// Hits considered per instance (4).
    pub top_k: usize,
    /// Characters per instance (1,800).
    pub instance_budget: usize,
    /// Characters for all instances together (3,600).
    pub total_budget: usize,
    /// Fraction of query words the hits must cover (0.5).
    pub min_coverage: f32,
    /// Per-instance time limit in milliseconds (5,000).
    pub deadline_ms: u64,
    /// What starts a forcing tag (`#` as in `#rnd`).
    pub tag_prefix: String,
    /// Session dedup window in milliseconds (30 minutes).
    pub dedup_window_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_prompt_chars: 1_500,
            min_words: 2,
            top_k: 4,
            instance_budget: 1_800,
            total_budget: 3_600,
            min_coverage: 0.5,
            deadline_ms: 5_000,
            tag_prefix: "#".into(),
            dedup_window_ms: 30 * 60 * 1_000,
        }
    }
}

impl Config {
    fn check(&self) -> Result<()> {
        if self.top_k == 0 || self.top_k > 50 {
            return Err(Error::invalid("config.top_k", format!("{}; must be 1..=50", self.top_k)));
        }
        if !(0.0..=1.0).contains(&self.min_coverage) {
            return Err(Error::invalid(
                "config.min_coverage",
                format!("{}; must be 0..=1", self.min_coverage),
            ));
        }
        if self.tag_prefix.is_empty() || self.tag_prefix.chars().any(char::is_whitespace) {
            return Err(Error::invalid("config.tag_prefix", "must be non-empty, without spaces"));
        }
        Ok(())
    }
}

/// Per-call options of [`Engine::ask`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AskOptions {
    /// Session id for dedup.
    pub session: Option<String>,
    /// Context format.
    pub format: Format,
    /// The time, in ms since the epoch, for session dedup (default: the engine's clock).
    pub now_ms: Option<u64>,
}

/// Per-instance options of [`Engine::add_instance`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InstanceOptions {
    /// Override the index's sufficiency threshold.
    pub sufficiency: Option<f32>,
    /// Anchors in addition to the index's.
    pub anchors: Vec<String>,
}

/// A source of time in milliseconds. Injected so that tests (and hosts) control it.
pub trait Clock: Send + Sync {
    /// Milliseconds since an arbitrary, fixed origin (the Unix epoch for real clocks).
    fn now_ms(&self) -> u64;
}

/// A clock that always says the same time (deterministic output).
#[derive(Debug, Clone, Copy, Default)]
pub struct FixedClock(pub u64);

impl Clock for FixedClock {
    fn now_ms(&self) -> u64 {
        self.0
    }
}

/// The system clock (native builds).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
    }
}

struct Instance {
    name: String,
    index: Index<Arc<[u8]>>,
    analyzer: Analyzer,
    anchors: AnchorSet,
    threshold: f32,
}

/// One piece of injected evidence (the `ask` contract's `evidence` items).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    /// Instance name.
    pub instance: String,
    /// Source, location, reference date and link.
    #[serde(flatten)]
    pub cite: Citation,
    /// BM25 score.
    pub score: f64,
    /// Characters this item takes in `context` (citation line + text).
    pub chars: usize,
    /// The (possibly cut) evidence text.
    pub text: String,
    /// Matched terms and their contributions (detailed format only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<Vec<TermScore>>,
}

/// What the input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A question or request a person typed.
    Question,
    /// Pasted document text, a declarative or imperative sentence.
    Sentence,
    /// Nothing in any instance is relevant.
    Unrelated,
}

/// A search hint (pull routes): a citation without text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hint {
    /// Instance name.
    pub instance: String,
    /// Source, location, reference date and link.
    #[serde(flatten)]
    pub cite: Citation,
    /// BM25 score.
    pub score: f64,
}

impl Hint {
    fn of(instance: &str, h: &Hit) -> Hint {
        Hint { instance: instance.to_string(), cite: h.cite.clone(), score: h.score }
    }
}

/// Where the prompt should go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    /// Inject the evidence now.
    Push,
    /// Let the agent search for itself.
    Pull,
    /// Nothing to do.
    Skip,
}

/// The answer to one prompt (the `ask` contract).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// Routing verdict.
    pub route: Route,
    /// What the input is: a question, a pasted sentence, or unrelated to every instance.
    pub kind: Kind,
    /// How sure the router is of the input's form (0.5 … 1).
    pub confidence: f64,
    /// Why: the router's signals (`question:…`, `sentence:…`) and each instance's gate result.
    pub reasons: Vec<String>,
    /// Injected evidence, in context order (empty unless `route` is push).
    pub evidence: Vec<Evidence>,
    /// Search hints for a pull route: where the agent might look first. Not injected, no text.
    pub hints: Vec<Hint>,
    /// The block to put in front of the prompt (empty when nothing is injected).
    pub context: String,
    /// What each gate saw and decided.
    pub log: DecisionLog,
}

struct Candidate {
    inst: usize,
    hits: Vec<(Hit, Vec<TermScore>)>,
    log: InstanceLog,
}

/// Several instances and the push pipeline.
pub struct Engine {
    config: Config,
    instances: Vec<Instance>,
    sessions: Sessions,
    clock: Box<dyn Clock>,
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Count the words of `text` (runs of letters or digits).
pub fn word_count(text: &str) -> usize {
    let mut n = 0;
    let mut in_word = false;
    for c in text.chars() {
        let w = c.is_alphanumeric();
        if w && !in_word {
            n += 1;
        }
        in_word = w;
    }
    n
}

impl Engine {
    /// An engine with no instances. Native builds use the system clock; wasm hosts pass one.
    pub fn new(config: Config) -> Result<Engine> {
        config.check()?;
        #[cfg(not(target_arch = "wasm32"))]
        let clock: Box<dyn Clock> = Box::new(SystemClock);
        #[cfg(target_arch = "wasm32")]
        let clock: Box<dyn Clock> = Box::new(FixedClock(0));
        Ok(Engine { config, instances: Vec::new(), sessions: Sessions::default(), clock })
    }

    /// Replace the clock.
    pub fn set_clock(&mut self, clock: Box<dyn Clock>) {
        self.clock = clock;
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Add an instance from index bytes. Names are ASCII letters, digits, `-` and `_`, unique.
    pub fn add_instance(
        &mut self,
        name: &str,
        bytes: impl Into<Arc<[u8]>>,
        opts: InstanceOptions,
    ) -> Result<()> {
        if !valid_name(name) {
            return Err(Error::invalid(
                "instance name",
                format!("{name:?}: use 1–64 ASCII letters, digits, - or _"),
            ));
        }
        if self.instances.iter().any(|i| i.name == name) {
            return Err(Error::invalid("instance name", format!("{name:?} is already loaded")));
        }
        let index = Index::open(bytes.into())?;
        let analyzer = Analyzer::new(index.meta().analyzer);
        let mut words = index.anchors()?;
        words.extend(opts.anchors.iter().cloned());
        let anchors = AnchorSet::new(&analyzer, &words);
        let threshold = opts.sufficiency.unwrap_or(index.meta().sufficiency);
        if !threshold.is_finite() {
            return Err(Error::invalid("sufficiency", "must be a finite number"));
        }
        self.instances.push(Instance { name: name.to_string(), index, analyzer, anchors, threshold });
        Ok(())
    }

    /// Remove an instance.
    pub fn remove_instance(&mut self, name: &str) -> Result<()> {
        let i = self.position(name)?;
        self.instances.remove(i);
        Ok(())
    }

    /// Instance names, in the order added.
    pub fn instance_names(&self) -> Vec<String> {
        self.instances.iter().map(|i| i.name.clone()).collect()
    }

    /// An instance's index.
    pub fn index(&self, name: &str) -> Result<&Index<Arc<[u8]>>> {
        Ok(&self.instances[self.position(name)?].index)
    }

    fn position(&self, name: &str) -> Result<usize> {
        self.instances.iter().position(|i| i.name == name).ok_or_else(|| {
            Error::invalid(
                "instance",
                format!("no instance named {name:?}; loaded: {}", self.instance_names().join(", ")),
            )
        })
    }

    /// Search one instance (no gates, no budget).
    pub fn search(&self, instance: &str, query: &str, k: usize) -> Result<Vec<Hit>> {
        search::search(&self.instances[self.position(instance)?].index, query, k)
    }

    /// Forget what a session has been shown.
    pub fn clear_session(&mut self, session: &str) {
        self.sessions.clear(session);
    }

    /// Split forcing tags (`#rnd`) off the prompt: (query text, forced instance indexes).
    fn tags(&self, prompt: &str) -> (String, Vec<usize>) {
        let mut forced = Vec::new();
        let mut kept: Vec<&str> = Vec::new();
        for tok in prompt.split_whitespace() {
            let name = tok
                .strip_prefix(self.config.tag_prefix.as_str())
                .map(|n| n.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')));
            match name.and_then(|n| self.instances.iter().position(|i| i.name.eq_ignore_ascii_case(n))) {
                Some(i) => {
                    if !forced.contains(&i) {
                        forced.push(i);
                    }
                }
                None => kept.push(tok),
            }
        }
        (kept.join(" "), forced)
    }

    /// Decide and deliver evidence for `prompt`.
    pub fn ask(&mut self, prompt: &str, opts: &AskOptions) -> Result<Answer> {
        if prompt.len() > MAX_PROMPT_BYTES {
            return Err(Error::invalid(
                "prompt",
                format!("{} bytes, at most {MAX_PROMPT_BYTES}", prompt.len()),
            ));
        }
        if prompt.trim().is_empty() {
            return Err(Error::invalid("prompt", "empty"));
        }
        if let Some(s) = &opts.session
            && (s.is_empty() || s.len() > 256)
        {
            return Err(Error::invalid("session", "must be 1–256 bytes"));
        }
        let started = self.clock.now_ms();
        let now = opts.now_ms.unwrap_or(started);
        let cfg = self.config.clone();
        let (query, forced) = self.tags(prompt);
        let form = router::classify(&query);
        let mut hints: Vec<Hint> = Vec::new();
        let prompt_chars = prompt.chars().count();
        let words = word_count(&query);
        let mut log = DecisionLog {
            prompt_chars,
            words,
            forced: forced.iter().map(|&i| self.instances[i].name.clone()).collect(),
            instances: Vec::new(),
            injected_chars: 0,
            answered: 0,
            elapsed_ms: 0,
        };
        let skip_all = if prompt_chars > cfg.max_prompt_chars {
            Some((Outcome::TooLong, "too_long"))
        } else if words < cfg.min_words {
            Some((Outcome::TooFewWords, "too_few_words"))
        } else {
            None
        };
        if let Some((outcome, reason)) = skip_all {
            log.instances = self.instances.iter().map(|i| InstanceLog::skipped(&i.name, outcome)).collect();
            return Ok(Answer {
                route: Route::Skip,
                kind: if form.form == Form::Sentence { Kind::Sentence } else { Kind::Unrelated },
                confidence: form.confidence,
                reasons: vec![reason.into()],
                evidence: Vec::new(),
                hints: Vec::new(),
                context: String::new(),
                log,
            });
        }

        let mut candidates: Vec<Candidate> = Vec::new();
        for (n, inst) in self.instances.iter().enumerate() {
            let t0 = self.clock.now_ms();
            let is_forced = forced.contains(&n);
            let mut ilog = InstanceLog::skipped(&inst.name, Outcome::NoAnchor);
            ilog.forced = is_forced;
            let tokens = inst.analyzer.analyze(&query);
            let term_set: HashSet<&str> = tokens.iter().map(|t| t.term.as_str()).collect();
            ilog.anchors = inst.anchors.matches(&term_set);
            if !is_forced && !inst.anchors.is_empty() && ilog.anchors.is_empty() {
                log.instances.push(ilog);
                continue;
            }
            let mut terms: Vec<String> = term_set.iter().map(|t| t.to_string()).collect();
            terms.sort_unstable();
            let extra = if opts.session.is_some() { 16 } else { 0 };
            let scored = search::top_k(&inst.index, &terms, cfg.top_k + extra)?;
            let mut chosen = Vec::new();
            for s in &scored {
                let seen = opts.session.as_deref().is_some_and(|sid| {
                    self.sessions.seen(sid, &inst.name, s.chunk, now, cfg.dedup_window_ms)
                });
                if seen {
                    ilog.dedup_skipped.push(s.chunk);
                } else if chosen.len() < cfg.top_k {
                    chosen.push(*s);
                }
            }
            ilog.scores = chosen.iter().map(|s| search::round4(s.score)).collect();
            let ids: Vec<u32> = chosen.iter().map(|s| s.chunk).collect();
            let explained = search::explain(&inst.index, &terms, &ids)?;
            let matched: HashSet<&str> = explained.iter().flatten().map(|t| t.term.as_str()).collect();
            let top = scored.first().map_or(0.0, |s| search::round4(s.score));
            let n_chunks = inst.index.chunk_count();
            // A word the corpus does not know: a foreign topic word (rust, kubernetes) weighs the
            // most; an unknown Hangul word is more often an inflection the stripper missed
            // (받아야, 쪼개려면), so it weighs like a moderately common word.
            let unknown = search::bm25::idf(n_chunks, 0) as f64;
            let unknown_hangul =
                search::bm25::idf(n_chunks, (n_chunks / UNKNOWN_HANGUL_DF_DIV).max(1)) as f64;
            let idf_of = |t: &str| {
                inst.index.term(t).ok().flatten().map_or_else(
                    || {
                        if t.chars().all(crate::text::korean::is_hangul_syllable) {
                            unknown_hangul
                        } else {
                            unknown
                        }
                    },
                    |i| i.idf as f64,
                )
            };
            let verdict = sufficiency::judge(
                top,
                inst.threshold,
                sufficiency::coverage(&tokens, &matched, idf_of),
                cfg.min_coverage,
            );
            ilog.sufficiency = Some(verdict.clone());
            let elapsed = self.clock.now_ms().saturating_sub(t0);
            ilog.elapsed_ms = elapsed;
            // Relevant: the instance has something to say about the prompt, even if not enough
            // to inject (then the agent should pull rather than skip).
            ilog.relevant = is_forced
                || (!scored.is_empty()
                    && (verdict.passed
                        || (verdict.top_score >= RELEVANT_SHARE * verdict.threshold
                            && verdict.coverage >= RELEVANT_SHARE * verdict.min_coverage)));
            ilog.outcome = if scored.is_empty() {
                Outcome::NoHits
            } else if elapsed > cfg.deadline_ms {
                Outcome::Deadline
            } else if form.form == Form::Sentence && !is_forced {
                Outcome::NotAQuestion
            } else if !is_forced && !verdict.passed {
                Outcome::Insufficient
            } else if chosen.is_empty() {
                Outcome::AllDeduplicated
            } else {
                Outcome::Injected
            };
            let mut hits = Vec::new();
            for (rank, (s, why)) in chosen.iter().zip(explained).enumerate() {
                hits.push((search::hit(&inst.index, rank as u32 + 1, *s)?, why));
            }
            if ilog.outcome != Outcome::Injected {
                if ilog.relevant && matches!(ilog.outcome, Outcome::NotAQuestion | Outcome::Insufficient) {
                    hints.extend(hits.iter().map(|(h, _)| Hint::of(&inst.name, h)));
                }
                log.instances.push(ilog);
                continue;
            }
            log.instances.push(ilog.clone());
            candidates.push(Candidate { inst: n, hits, log: ilog });
        }

        // Budgets: render every candidate item in full, then share.
        let render = |inst: &str, h: &Hit, n: usize| context::citation_line(n, inst, &h.cite);
        let demands: Vec<usize> = candidates
            .iter()
            .map(|c| {
                c.hits
                    .iter()
                    .map(|(h, _)| {
                        render(&self.instances[c.inst].name, h, 9).chars().count()
                            + h.text.chars().count()
                            + 1
                    })
                    .sum()
            })
            .collect();
        let budgets = budget::allocate(&demands, cfg.instance_budget, cfg.total_budget);
        let mut evidence = Vec::new();
        let mut items = Vec::new();
        let mut injected: Vec<(String, Vec<(String, u32)>)> = Vec::new();
        for (c, &allowed) in candidates.iter_mut().zip(&budgets) {
            let name = self.instances[c.inst].name.clone();
            let mut used = 0;
            let mut chunks = Vec::new();
            for (h, why) in &c.hits {
                let cite = render(&name, h, items.len() + 1);
                let head = cite.chars().count()
                    + if opts.format == Format::Detailed {
                        context::score_line(h.score, why).chars().count()
                    } else {
                        0
                    };
                let room = allowed.saturating_sub(used);
                if head + 2 > room {
                    break;
                }
                let text = context::neutralize(&h.text);
                let Some(fitted) = budget::fit(&text, room - head - 1) else { break };
                let cut = fitted.len() < text.len();
                let mut item = cite;
                if opts.format == Format::Detailed {
                    item.push_str(&context::score_line(h.score, why));
                }
                item.push_str(fitted);
                item.push('\n');
                let chars = item.chars().count();
                used += chars;
                chunks.push((name.clone(), h.chunk));
                evidence.push(Evidence {
                    instance: name.clone(),
                    cite: h.cite.clone(),
                    score: h.score,
                    chars,
                    text: fitted.to_string(),
                    terms: (opts.format == Format::Detailed).then(|| why.clone()),
                });
                items.push(item);
                if cut {
                    break;
                }
            }
            c.log.chars = used;
            c.log.budget = allowed;
            if chunks.is_empty() {
                c.log.outcome = Outcome::NoBudget;
            } else {
                log.answered += 1;
                log.injected_chars += used;
                injected.push((name.clone(), chunks));
            }
            if let Some(slot) = log.instances.iter_mut().find(|l| l.instance == name) {
                *slot = c.log.clone();
            }
        }
        if let Some(sid) = &opts.session {
            let all: Vec<(String, u32)> = injected.into_iter().flat_map(|(_, v)| v).collect();
            if !all.is_empty() {
                self.sessions.record(sid, &all, now, cfg.dedup_window_ms);
            }
        }
        let context = context::block(&items, opts.format, &log.instances);
        log.elapsed_ms = self.clock.now_ms().saturating_sub(started);
        let mut reasons: Vec<String> = form.signals.clone();
        for l in &log.instances {
            let r = match l.outcome {
                Outcome::Injected if l.forced => "forced",
                Outcome::Injected => "sufficient",
                Outcome::Insufficient => "insufficient",
                Outcome::Deadline => "deadline",
                Outcome::AllDeduplicated => "already_injected",
                Outcome::NoBudget => "no_budget",
                Outcome::NoHits => "no_hits",
                Outcome::NotAQuestion => "not_a_question",
                _ => continue,
            };
            let r = format!("{}:{r}", l.instance);
            if !reasons.contains(&r) {
                reasons.push(r);
            }
        }
        if log.instances.iter().all(|l| l.outcome == Outcome::NoAnchor) {
            reasons.push("no_anchor".into());
        }
        let relevant = log.instances.iter().any(|l| l.relevant);
        let (route, kind) = if !evidence.is_empty() {
            (Route::Push, if form.form == Form::Sentence { Kind::Sentence } else { Kind::Question })
        } else if !relevant {
            reasons.push("unrelated".into());
            (Route::Skip, Kind::Unrelated)
        } else if form.form == Form::Sentence {
            reasons.push("pull:sentence".into());
            (Route::Pull, Kind::Sentence)
        } else {
            reasons.push("pull:insufficient".into());
            (Route::Pull, Kind::Question)
        };
        if route != Route::Pull {
            hints.clear();
        }
        Ok(Answer { route, kind, confidence: form.confidence, reasons, evidence, hints, context, log })
    }
}
