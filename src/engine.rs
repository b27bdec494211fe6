//! The engine: several instances (one index each) and `ask`, the routing and push pipeline.
//!
//! For each prompt ([`Engine::ask`]), in named steps:
//!
//! 1. [`check_prompt`] — bad input is an error (empty, over 1 MiB, a bad session id);
//! 2. tags (`#rnd` forces an instance) and the router's verdict on the prompt's *form* (question or
//!    pasted sentence, [`router`]);
//! 3. the prompt gate — over the length limit, under the word minimum, or only small talk (a
//!    greeting, thanks: [`small_talk`](crate::gate::small_talk)): skip at once;
//! 4. [`Engine::judge`] per instance — search the top k, compute the [`Features`], and ask the two
//!    judges of the instance's [`GateModel`]: is the prompt *about* this instance's documents
//!    (relevance), and is the evidence good enough to *push* (sufficiency)?
//! 5. [`decide`] — no instance relevant → skip (`unrelated`); pasted sentence → pull; question with
//!    sufficient evidence → push; question without → pull;
//! 6. [`Engine::deliver`] — budgets (per instance and shared), whole sentences, session dedup, the
//!    delimited cited `context` block;
//! 7. for pull, the next step as tool calls ([`pull_calls`]); the decision log records every value.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::corpus::Citation;
use crate::deliver::context::{self, Format};
use crate::deliver::log::{DecisionLog, InstanceLog, Outcome};
use crate::deliver::{SessionState, Sessions, budget, session};
use crate::error::{Error, Result, shown};
use crate::gate::features::{HitTerms, Signals, TermFacts};
use crate::gate::router::{self, Form, FormVerdict};
use crate::gate::{AnchorSet, Features, GateModel, Judgement};
use crate::index::Index;
use crate::search::{self, Hit, Scored, TermScore};
use crate::text::Analyzer;

/// Largest prompt accepted at all, in bytes (a longer one is an error, not a skip).
pub const MAX_PROMPT_BYTES: usize = 1 << 20;

/// Engine-wide settings. Every number of the field report is here and configurable. Counts are
/// `u32` on every target, so that a settings file is accepted or refused alike natively and in
/// wasm (a `usize` there is 32 bits).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Prompts longer than this many characters are skipped (1,500).
    pub max_prompt_chars: u32,
    /// Prompts with fewer words ([`word_count`]) are skipped (2).
    pub min_words: u32,
    /// Hits the judges consider per instance (4).
    pub top_k: u32,
    /// Hits an injecting instance offers its budget, best first (16: the budget curve's best on the
    /// training questions at 3,600 characters, docs/gate-bench.md; each hit cut to its matched
    /// passage when they do not all fit).
    pub evidence_k: u32,
    /// Characters per instance (3,600: the knee of the budget curve on the default instances,
    /// docs/gate-bench.md; the field report started at 1,800).
    pub instance_budget: u32,
    /// Characters for all instances together (3,600).
    pub total_budget: u32,
    /// When several instances inject, the total is shared in proportion to each one's relevance
    /// (the judge's probability) to this power (2: on the training questions gold pushed 284 → 291
    /// of 360, the same from 2 to 8; docs/gate-bench.md). 0 shares evenly, as the field report
    /// did; a forced instance counts as relevant with certainty. Within an instance whose hits do
    /// not all fit, each hit's share follows its score over the instance's best to the same power
    /// (2: on the training questions the answer hint's words in the evidence 73.0 → 76.7 %, gold
    /// pushed unchanged; docs/gate-bench.md, "Source lines").
    pub share_power: u32,
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
            evidence_k: 16,
            instance_budget: 3_600,
            total_budget: 3_600,
            share_power: 2,
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
        if self.evidence_k == 0 || self.evidence_k > 50 {
            return Err(Error::invalid("config.evidence_k", format!("{}; must be 1..=50", self.evidence_k)));
        }
        if self.share_power > 8 {
            return Err(Error::invalid("config.share_power", format!("{}; must be 0..=8", self.share_power)));
        }
        if self.tag_prefix.is_empty() || self.tag_prefix.chars().any(char::is_whitespace) {
            return Err(Error::invalid("config.tag_prefix", "must be non-empty, without spaces"));
        }
        Ok(())
    }
}

#[cfg(feature = "ingest")]
impl Config {
    /// Settings from a TOML file's text (`ask --config`, natively and in the npm bin), checked as
    /// [`Engine::new`] checks them. A refusal is one line: where (line and column of the TOML
    /// text) and what, e.g. `invalid config: line 1, column 1: unknown field `total_budgt`, …`.
    pub fn from_toml(text: &str) -> Result<Config> {
        let config: Config = toml::from_str(text).map_err(|e| {
            let at = e.span().and_then(|s| text.get(..s.start)).map_or(String::new(), |before| {
                let line = before.matches('\n').count() + 1;
                let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
                format!("line {line}, column {column}: ")
            });
            let what: Vec<&str> = e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            Error::invalid("config", format!("{at}{}", what.join("; ")))
        })?;
        config.check()?;
        Ok(config)
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
    /// Reorder each instance's candidates before the budget: RRF with the host's ranking, the
    /// composite (see [`crate::rerank::apply`]). The judges still see the BM25 top k.
    pub rerank: Option<crate::rerank::RerankOptions>,
}

/// Per-instance options of [`Engine::add_instance`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InstanceOptions {
    /// Override the sufficiency judge's threshold (a probability, 0–1; 0 pushes every relevant
    /// question, 1 pushes nothing unforced).
    pub sufficiency: Option<f64>,
    /// Override the relevance judge's threshold (a probability, 0–1).
    pub relevance: Option<f64>,
    /// Anchors in addition to the index's (anchors are one of the judges' features).
    pub anchors: Vec<String>,
    /// Check every section's checksum before the instance is added (default `true`), so that a
    /// file altered after it was written is refused at once, never served under a correct
    /// citation. `false` skips it for bytes the host has just verified ([`Index::verify`]).
    pub verify: bool,
}

impl Default for InstanceOptions {
    fn default() -> Self {
        Self { sufficiency: None, relevance: None, anchors: Vec::new(), verify: true }
    }
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
    model: GateModel,
}

/// A hit made ready for the budget ([`Engine::deliver`]): its score line (detailed format), its
/// text, and the characters it takes in full — its citation line, score line, text and line break
/// (`body`), and the source line it introduces when it is its instance's first hit from that
/// source (`intro`, else 0).
struct Prepared {
    score_line: Option<String>,
    text: String,
    body: usize,
    intro: usize,
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
    /// Characters this item takes in `context` (the source line it introduces, when it is the
    /// block's first item from its source; citation line; text).
    pub chars: usize,
    /// The (possibly cut) evidence text.
    pub text: String,
    /// Matched terms and their contributions (detailed format only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<Vec<TermScore>>,
    /// Why a rerank put it here (detailed format with the `rerank` option only; see
    /// [`crate::rerank::Ranked::line`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerank: Option<String>,
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

/// The next step of a pull: a call of one of the pull tools (`search`, `read` …), with arguments a
/// host can pass as they are.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// Tool name.
    pub tool: String,
    /// Its arguments.
    pub arguments: ToolArgs,
}

/// The arguments of a [`ToolCall`]; absent fields are left out of the JSON. (A typed struct, not a
/// JSON value: the same bytes everywhere and no JSON tree code in the wasm.)
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ToolArgs {
    /// Instance to search or read.
    pub instance: String,
    /// Source to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// What to search for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Page to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// Article to read (제N조).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article: Option<String>,
    /// Heading to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    /// Chunk to read (when the location has no page, article or heading).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk: Option<u32>,
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

/// The answer to one prompt (the `ask` contract, version 2).
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
    /// For a pull: the tool calls to make first (search the relevant instances, read their best
    /// locations). Empty otherwise.
    pub hints: Vec<ToolCall>,
    /// The block to put in front of the prompt (empty when nothing is injected).
    pub context: String,
    /// What each gate saw and decided.
    pub log: DecisionLog,
}

/// One instance's verdict on a prompt, with the hits it would inject.
struct Judged {
    log: InstanceLog,
    /// The hits to inject (session-deduplicated), with their matched terms.
    hits: Vec<(Hit, Vec<TermScore>, Option<String>)>,
}

/// How much of the query a segment of a hit's text holds: the summed contributions of the query
/// terms that matched the hit (`why`) and occur in the segment as normalised for matching (a term
/// is a stem, a word or a bigram of the text: a substring test, no analysis per segment).
fn passage_weight(segment: &str, why: &[TermScore]) -> f64 {
    let seg = crate::text::normalize(segment);
    why.iter().filter(|t| !t.term.is_empty() && seg.contains(t.term.as_str())).map(|t| t.score).sum()
}

/// Refuse `n` index bytes that a copy into memory could not hold, with room for what opening them
/// allocates besides (an eighth, and a megabyte): checked before the copy (then given back; the
/// allocator reuses it), since in wasm a failed allocation aborts the module for good. The wasm
/// bindings and the ABI call it before copying a host's index bytes.
#[cfg(any(feature = "wasm", feature = "abi"))]
pub(crate) fn check_room_for_index(n: usize, what: &'static str) -> Result<()> {
    if Vec::<u8>::new().try_reserve_exact(n.saturating_add(n / 8).saturating_add(1 << 20)).is_err() {
        return Err(Error::invalid(
            what,
            format!("{n} bytes do not fit in the wasm module's memory next to what it holds"),
        ));
    }
    Ok(())
}

/// The instance name rule, shared by the engine, manifests and tags: 1–64 ASCII letters, digits,
/// `-` or `_`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Count the words of `text` (runs of letters or digits). Korean is often typed without spaces
/// (연구수당최대몇프로): a run counts one word per three Hangul syllables in it, at least one.
pub fn word_count(text: &str) -> usize {
    let mut n = 0;
    let (mut in_word, mut syllables) = (false, 0);
    for c in text.chars() {
        let w = crate::text::is_alphanumeric(c);
        if w && !in_word {
            n += 1;
            syllables = 0;
        }
        if ('가'..='힣').contains(&c) {
            syllables += 1;
            // The 6th, 9th … syllable of a run starts another word.
            n += usize::from(syllables > 3 && syllables % 3 == 0);
        }
        in_word = w;
    }
    n
}

/// Step 1: reject what cannot be asked at all.
fn check_prompt(prompt: &str, opts: &AskOptions) -> Result<()> {
    if prompt.len() > MAX_PROMPT_BYTES {
        return Err(Error::invalid("prompt", format!("{} bytes, at most {MAX_PROMPT_BYTES}", prompt.len())));
    }
    if prompt.trim().is_empty() {
        return Err(Error::invalid("prompt", "empty"));
    }
    if let Some(s) = &opts.session {
        crate::deliver::session::check_id(s)?;
    }
    Ok(())
}

/// The query and what the router reads in it for the judges, once for every instance.
struct Said<'a> {
    /// The query (the prompt without its tags).
    query: &'a str,
    /// Its form: a question or a pasted sentence ([`router::classify`]).
    form: Form,
    /// The prompt without its form words ([`router::content_words`]).
    content: String,
    /// It asks to produce something ([`router::creation_request`]).
    creation: bool,
    /// How the prompt is phrased ([`Phrasing`](crate::gate::Phrasing): the `phrasing` feature).
    phrasing: f64,
    /// It asks for a statute article ([`router::asks_article`]).
    article_ask: bool,
    /// Its words, with and without particles, as names are looked up ([`crate::gate::names::forms`];
    /// a name the documents never mention overrules the judges).
    words: Vec<String>,
    /// It is written without Hangul ([`crate::gate::script`]: not about an instance whose readers
    /// write Korean).
    without_hangul: bool,
}

/// The query's terms under one analyzer's settings, made once for every instance with those
/// settings (the default instances share theirs).
struct Analysis {
    settings: crate::text::AnalyzerSettings,
    /// The query's distinct terms, sorted (a binary search where a hash set would link hashing
    /// code into the browser build), as [`GATE_RANKING`] weighs them: the judges read the same
    /// terms, as [`GATE_RANKING`] keeps filler words.
    ranked: search::QueryTerms,
    /// The content words' tokens ([`Said::content`]): the judges weigh these (the search sees the
    /// whole query); a bigram the shortened text joins across a dropped word is not one of the
    /// query's terms, so it is left out.
    content: Vec<crate::text::Token>,
}

impl Analysis {
    fn new(analyzer: &Analyzer, said: &Said<'_>) -> Self {
        let settings = analyzer.settings();
        let ranked = search::QueryTerms::new(settings, said.query, GATE_RANKING);
        let mut content = analyzer.analyze(&said.content);
        content.retain(|t| ranked.terms().binary_search(&t.term).is_ok());
        Analysis { settings, ranked, content }
    }
}

/// How `ask` ranks each instance for its judges and its evidence: the `search` tool's ranking
/// (one chunk per location, join-only bigrams discounted, everyday terms weighing less:
/// docs/tools-bench.md) without its second pass, which lifts weak unrelated prompts into
/// relevance (5-fold on the training prompts: unrelated prompts with evidence 14.6% with it, 10.3%
/// without; gold pushed 63.9% / 64.7%; docs/gate-bench.md), and without dropping filler words
/// (있어요, 돼요: the gate re-fitted with them pushed gold for 73.3% of the devset questions instead
/// of 77.5%, and the same share of held-out prompts within a question; folds unchanged), and
/// without the heading re-scoring (session 5: re-fitted with it, 5-fold on the 773 training prompts
/// gave gold pushed 70.4% against 71.0% without, unrelated prompts with evidence 13.0% against 11.6%)
/// but for statute articles the prompt cites ([`search::Heading::ARTICLES`]: "헌법 제20조" gets
/// 제20조 first, not 제129조 "… 20일 …").
/// An index's source weights order the candidates, but the judges read each one's score before
/// weighing ([`search::unweighted`]): on the tuning prompts that keeps the weights' gain in gold
/// pushed (283 → 289 of 341) without the unrelated prompts they lift (16 → 17 of 293 when the
/// judges read weighted scores; docs/gate-bench.md, session 18).
pub const GATE_RANKING: search::Ranking = search::Ranking {
    feedback: None,
    fillers: false,
    heading: Some(search::Heading::ARTICLES),
    ..search::Ranking::DEFAULT
};
// The judges read the ranking's terms ([`Analysis`]): both keep filler words.
const _: () = assert!(!GATE_RANKING.fillers);

/// Step 5: the route and kind from the prompt's form and the instances' verdicts. Only a prompt
/// no instance finds relevant is skipped; `kind` is the prompt's form otherwise.
fn decide(form: &FormVerdict, judged: &[Judged]) -> (Route, Kind) {
    let relevant = judged.iter().any(|j| j.log.relevant);
    let push = judged.iter().any(|j| j.log.outcome == Outcome::Injected);
    let kind = if form.form == Form::Sentence { Kind::Sentence } else { Kind::Question };
    if push {
        (Route::Push, kind)
    } else if !relevant {
        (Route::Skip, Kind::Unrelated)
    } else {
        (Route::Pull, kind)
    }
}

/// Step 7: the next step of a pull — search each relevant instance (most relevant first), then
/// read the best location each found.
fn pull_calls(query: &str, judged: &[(f64, &str, Option<&Hit>)]) -> Vec<ToolCall> {
    let mut calls = Vec::new();
    for (_, instance, _) in judged {
        calls.push(ToolCall {
            tool: "search".into(),
            arguments: ToolArgs {
                instance: instance.to_string(),
                query: Some(query.into()),
                ..Default::default()
            },
        });
    }
    for (_, instance, hit) in judged {
        let Some(h) = hit else { continue };
        let mut args = ToolArgs {
            instance: instance.to_string(),
            source: Some(h.cite.source.clone()),
            ..Default::default()
        };
        if let Some(p) = h.cite.page {
            args.page = Some(p);
        } else if let Some(a) = &h.cite.article {
            args.article = Some(a.clone());
        } else if let Some(x) = &h.cite.heading {
            args.heading = Some(x.clone());
        } else {
            args.chunk = Some(h.chunk);
        }
        calls.push(ToolCall { tool: "read".into(), arguments: args });
    }
    calls
}

/// Several instances and the push pipeline.
pub struct Engine {
    config: Config,
    instances: Vec<Instance>,
    sessions: Sessions,
    clock: Box<dyn Clock>,
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
    /// The instance's gate model is the one stored in the index (`calibrate --write`), else
    /// [`GateModel::default`]; `opts` may override its thresholds.
    pub fn add_instance(
        &mut self,
        name: &str,
        bytes: impl Into<Arc<[u8]>>,
        opts: InstanceOptions,
    ) -> Result<()> {
        if !valid_name(name) {
            return Err(Error::invalid(
                "instance name",
                format!("{}: use 1–64 ASCII letters, digits, - or _", shown(name, 64)),
            ));
        }
        if let Some(other) = self.instances.iter().find(|i| i.name.eq_ignore_ascii_case(name)) {
            let detail = if other.name == name {
                format!("{name:?} is already loaded")
            } else {
                // A `#tag` names an instance whatever its case: one of the two could not be forced.
                format!("{name:?} differs from the loaded {:?} only in case", other.name)
            };
            return Err(Error::invalid("instance name", detail));
        }
        for (what, t) in [("sufficiency", opts.sufficiency), ("relevance", opts.relevance)] {
            if t.is_some_and(|t| !(0.0..=1.0).contains(&t)) {
                return Err(Error::invalid(
                    if what == "sufficiency" { "options.sufficiency" } else { "options.relevance" },
                    "a probability threshold in 0..=1",
                ));
            }
        }
        let index = Index::open(bytes.into())?;
        if opts.verify {
            index.verify()?;
        }
        let analyzer = Analyzer::new(index.meta().analyzer);
        let mut words = index.anchors()?;
        words.extend(opts.anchors.iter().cloned());
        let anchors = AnchorSet::new(&analyzer, &words);
        let mut model = index.gate_model()?.unwrap_or_default();
        if let Some(t) = opts.sufficiency {
            model.sufficiency.threshold = t;
        }
        if let Some(t) = opts.relevance {
            model.relevance.threshold = t;
        }
        // Queries are analyzed without their words of courtesy, as `search` ranks them.
        let analyzer = Analyzer::for_query(analyzer.settings());
        self.instances.push(Instance { name: name.to_string(), index, analyzer, anchors, model });
        Ok(())
    }

    /// Remove an instance.
    pub fn remove_instance(&mut self, name: &str) -> Result<()> {
        let i = self.position(name)?;
        self.instances.remove(i);
        // Its chunk numbers mean nothing to an index loaded later under the same name.
        self.sessions.forget_instance(name);
        Ok(())
    }

    /// The error for a call that needs an instance when none is loaded (`ask`, the tools).
    pub fn check_loaded(&self) -> Result<()> {
        if self.instances.is_empty() {
            return Err(Error::invalid("instance", "no instance is loaded"));
        }
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

    /// An instance's gate model (as used: stored or default, with overrides).
    pub fn gate_model(&self, name: &str) -> Result<GateModel> {
        Ok(self.instances[self.position(name)?].model)
    }

    fn position(&self, name: &str) -> Result<usize> {
        self.instances.iter().position(|i| i.name == name).ok_or_else(|| {
            Error::invalid(
                "instance",
                format!(
                    "no instance named {}; loaded: {}",
                    shown(name, 64),
                    self.instance_names().join(", ")
                ),
            )
        })
    }

    /// Search one instance (no gates, no budget).
    pub fn search(&self, instance: &str, query: &str, k: usize) -> Result<Vec<Hit>> {
        search::search(&self.instances[self.position(instance)?].index, query, k)
    }

    /// Forget what a session has been shown. An id `ask` would refuse (empty, over 256 bytes) is
    /// refused here too, not taken as a session that was never there.
    pub fn clear_session(&mut self, session: &str) -> Result<()> {
        session::check_id(session)?;
        self.sessions.clear(session);
        Ok(())
    }

    /// What a session has been shown within the dedup window, for a host to store between
    /// processes (see [`crate::deliver::session`]).
    pub fn export_session(&self, session: &str) -> Result<SessionState> {
        self.sessions.export(session, self.clock.now_ms(), self.config.dedup_window_ms)
    }

    /// Merge a stored session state back (expired entries dropped); returns the entries kept. The
    /// long lines of its chunks count as shown with them (`deliver::session`); a chunk that is not
    /// in the loaded instances adds none.
    pub fn import_session(&mut self, state: &SessionState) -> Result<usize> {
        let (now, window) = (self.clock.now_ms(), self.config.dedup_window_ms);
        let kept = self.sessions.import(state, now, window)?;
        let mut lines: Vec<(u64, u64)> = Vec::new();
        for s in state.shown.iter().filter(|s| session::fresh(now, s.at_ms, window)) {
            if let Some(chunk) = self.index(&s.instance).ok().and_then(|index| index.chunk(s.chunk).ok()) {
                let at = s.at_ms.min(now);
                lines.extend(session::line_hashes(&context::neutralize(&chunk.text)).map(|h| (h, at)));
            }
        }
        self.sessions.add_lines(&state.session, &lines, now, window);
        Ok(kept)
    }

    /// Split forcing tags (`#rnd`) off the prompt: (query text, forced instance indexes).
    fn tags(&self, prompt: &str) -> (String, Vec<usize>) {
        let mut forced = Vec::new();
        // The prompt as written (its line breaks are signals for the router), less the tags.
        let mut kept = String::with_capacity(prompt.len());
        let mut from = 0;
        let mut rest = prompt;
        while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
            let len = rest[start..].find(char::is_whitespace).unwrap_or(rest.len() - start);
            let tok = &rest[start..start + len];
            let at = prompt.len() - rest.len() + start;
            rest = &rest[start + len..];
            let name = tok
                .strip_prefix(self.config.tag_prefix.as_str())
                .map(|n| n.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')));
            if let Some(i) =
                name.and_then(|n| self.instances.iter().position(|i| i.name.eq_ignore_ascii_case(n)))
            {
                if !forced.contains(&i) {
                    forced.push(i);
                }
                kept.push_str(&prompt[from..at]);
                from = at + len;
                // One space after a tag goes with it; a line break stays (a tag closing a line
                // takes the spaces before it instead).
                match prompt[from..].chars().next() {
                    Some('\n' | '\r') => kept.truncate(kept.trim_end_matches([' ', '\t']).len()),
                    Some(c) if c.is_whitespace() => from += c.len_utf8(),
                    _ => {}
                }
            }
        }
        kept.push_str(&prompt[from..]);
        (kept.trim().to_string(), forced)
    }

    /// Step 4: one instance's verdict on `query` — its features, both judges, and the hits it would
    /// inject (the top `evidence_k` not shown in this session yet).
    fn judge(
        &self,
        n: usize,
        said: &Said<'_>,
        analysis: &Analysis,
        forced: bool,
        opts: &AskOptions,
        now: u64,
    ) -> Result<(Judged, Option<Hit>)> {
        let cfg = &self.config;
        let inst = &self.instances[n];
        let t0 = self.clock.now_ms();
        let mut log = InstanceLog::skipped(&inst.name, Outcome::NoHits);
        log.forced = forced;
        let terms = analysis.ranked.terms();
        let term_set: Vec<&str> = terms.iter().map(String::as_str).collect();
        let content = &analysis.content;
        log.anchors = inst.anchors.matches(&term_set);
        // Ranking, explanation and the judges' features read the same terms: each is looked up once.
        let lookups = search::Lookups::new(&inst.index, &term_set);
        let extra = if opts.session.is_some() { 16 } else { 0 };
        let rerank = opts.rerank.as_ref().filter(|r| r.is_active());
        let pool = rerank.map_or(0, |r| r.pool());
        // The instance's ranking as the gate sees it ([`GATE_RANKING`]).
        let weighted = search::weigh(&lookups, &analysis.ranked, GATE_RANKING);
        let scored = search::rank_in(
            &lookups,
            &weighted,
            (cfg.top_k.max(cfg.evidence_k) as usize + extra).max(pool),
            GATE_RANKING,
        )?;
        // The judges see the top `top_k` as found (their scores before source weights); the
        // evidence takes up to `evidence_k`, skipping chunks this session has seen.
        let top: Vec<Scored> =
            scored.iter().take(cfg.top_k as usize).map(|s| search::unweighted(&inst.index, *s)).collect();
        // With a rerank, each candidate's explanation line (shown in the detailed format).
        #[cfg_attr(not(feature = "rerank"), allow(unused_mut))]
        let mut rerank_lines: Vec<(u32, String)> = Vec::new();
        // Without the feature `rerank` (the browser build) `RerankOptions::check` has refused an
        // active rerank before this point.
        let scored = match rerank {
            #[cfg(feature = "rerank")]
            Some(r) => {
                let ranked = crate::rerank::reorder_explained(&inst.index, &inst.name, terms, &scored, r)?;
                let w = r.weights.unwrap_or_default();
                rerank_lines = ranked.iter().map(|x| (x.chunk, x.line(&w))).collect();
                ranked.iter().map(|x| Scored { chunk: x.chunk, score: x.bm25 }).collect()
            }
            _ => scored,
        };
        let mut chosen: Vec<Scored> = Vec::new();
        for s in &scored {
            let seen = opts
                .session
                .as_deref()
                .is_some_and(|sid| self.sessions.seen(sid, &inst.name, s.chunk, now, cfg.dedup_window_ms));
            if seen {
                log.dedup_skipped.push(s.chunk);
            } else if chosen.len() < cfg.evidence_k as usize {
                chosen.push(*s);
            }
        }
        log.scores = top.iter().map(|s| search::round4(s.score)).collect();
        let mut ids: Vec<u32> = top.iter().chain(&chosen).map(|s| s.chunk).collect();
        crate::sort::sort(&mut ids);
        ids.dedup();
        let explained = search::explain_in(&lookups, terms, &ids)?;
        let why = |chunk: u32| -> Vec<TermScore> {
            ids.iter().position(|&c| c == chunk).map_or_else(Vec::new, |i| explained[i].clone())
        };
        let mut hit_terms = Vec::new();
        for s in &top {
            let at = ids.iter().position(|&c| c == s.chunk);
            hit_terms.push(HitTerms {
                score: s.score as f64,
                location: inst.index.chunk_key(s.chunk)?,
                terms: at.map_or_else(Vec::new, |i| explained[i].iter().map(|t| t.term.as_str()).collect()),
            });
        }
        let facts = |t: &str| {
            lookups.term(t).ok().flatten().map(|i| TermFacts {
                idf: i.idf as f64,
                df: i.df,
                level: inst.index.background_level(i.ordinal),
            })
        };
        let features = Features::compute(
            content,
            &hit_terms,
            inst.index.chunk_count(),
            inst.index.meta().avg_len() as f64,
            &facts,
            Signals {
                anchor: !log.anchors.is_empty(),
                creation: said.creation,
                phrasing: said.phrasing,
                article_ask: said.article_ask,
            },
        );
        let top_score = top.first().map_or(0.0, |s| search::round4(s.score));
        let outside = inst.index.outside_name(&said.words).map(str::to_string);
        let other_language = said.without_hangul && inst.index.korean_prompts();
        let verdict = Judgement::new(&inst.model, top_score, features, outside, other_language);
        let elapsed = self.clock.now_ms().saturating_sub(t0);
        log.elapsed_ms = elapsed;
        log.relevant = forced || (!top.is_empty() && verdict.relevant);
        log.outcome = if top.is_empty() {
            Outcome::NoHits
        } else if elapsed > cfg.deadline_ms {
            Outcome::Deadline
        } else if !log.relevant {
            Outcome::NotRelevant
        } else if said.form == Form::Sentence && !forced {
            Outcome::NotAQuestion
        } else if !forced && !verdict.sufficient {
            Outcome::Insufficient
        } else if chosen.is_empty() {
            Outcome::AllDeduplicated
        } else {
            Outcome::Injected
        };
        log.gate = Some(verdict);
        let best = match top.first() {
            Some(s) if log.relevant => Some(search::hit(&inst.index, 1, *s)?),
            _ => None,
        };
        let mut hits = Vec::new();
        if log.outcome == Outcome::Injected {
            for (rank, s) in chosen.iter().enumerate() {
                let line = rerank_lines.iter().find(|(c, _)| *c == s.chunk).map(|(_, l)| l.clone());
                hits.push((search::hit(&inst.index, rank as u32 + 1, *s)?, why(s.chunk), line));
            }
        }
        Ok((Judged { log, hits }, best))
    }

    /// Step 6: cut the injecting instances' hits to their budgets (water-filling share of the
    /// total), render the cited items, record them for session dedup. Returns the evidence and the
    /// rendered items; updates each instance's log (characters, budget, `no_budget`).
    fn deliver(
        &mut self,
        judged: &mut [Judged],
        opts: &AskOptions,
        now: u64,
        log: &mut DecisionLog,
    ) -> (Vec<Evidence>, Vec<String>) {
        let cfg = &self.config;
        // The long lines of the chunks this session was shown: a hit's own copies of them are
        // left out of its text (`deliver::session`).
        let seen = opts
            .session
            .as_deref()
            .map_or_else(Vec::new, |sid| self.sessions.lines(sid, now, cfg.dedup_window_ms));
        // Items and sources are numbered across instances: the demands count the widest number
        // any can get (there are never more sources than items).
        let widest = judged.iter().map(|j| j.hits.len()).sum::<usize>().max(1);
        // Per instance and hit: the score line (detailed format), the text, and what the item
        // takes in full (the source line when it is the instance's first hit from its source,
        // citation line, score line, text, line break).
        let mut prepared: Vec<Vec<Prepared>> = judged
            .iter()
            .map(|j| {
                let mut sources: Vec<&str> = Vec::new();
                j.hits
                    .iter()
                    .map(|(h, why, rerank)| {
                        let line = (opts.format == Format::Detailed).then(|| {
                            let mut l = context::score_line(h.score, why);
                            if let Some(r) = rerank {
                                l.push_str(&context::neutralize(r));
                                l.push('\n');
                            }
                            l
                        });
                        let mut text = context::neutralize(&h.text);
                        if !seen.is_empty() {
                            text = session::without_seen_lines(&text, &seen);
                        }
                        let intro = if sources.contains(&h.cite.source.as_str()) {
                            0
                        } else {
                            sources.push(&h.cite.source);
                            context::source_line(widest, &j.log.instance, &h.cite).chars().count()
                        };
                        let body = context::item_line(widest, widest, &h.cite).chars().count()
                            + line.as_ref().map_or(0, |l| l.chars().count())
                            + text.chars().count()
                            + 1;
                        Prepared { score_line: line, text, body, intro }
                    })
                    .collect()
            })
            .collect();
        let demands: Vec<usize> = prepared.iter().map(|p| p.iter().map(|x| x.body + x.intro).sum()).collect();
        // The shared total goes to the instances in proportion to relevance^share_power (a forced
        // instance counts as certain): the one the prompt is most likely about gets the most room.
        let weights: Vec<u64> = judged
            .iter()
            .map(|j| {
                let p = if j.log.forced { 1.0 } else { j.log.gate.as_ref().map_or(1.0, |g| g.relevance) };
                budget::power_weight(p, cfg.share_power)
            })
            .collect();
        let budgets = budget::allocate_weighted(
            &demands,
            &weights,
            cfg.instance_budget as usize,
            cfg.total_budget as usize,
        );
        let mut evidence = Vec::new();
        let mut items: Vec<String> = Vec::new();
        let mut shown: Vec<(String, u32)> = Vec::new();
        let mut shown_lines: Vec<u64> = Vec::new();
        let mut sources = context::Sources::default();
        // The most relevant instance's evidence comes first (ties: the order they were loaded).
        let mut order: Vec<usize> = (0..judged.len()).collect();
        crate::sort::sort_by(&mut order, |&a, &b| (weights[b], a).cmp(&(weights[a], b)));
        for i in order {
            let (j, allowed, prepared) = (&mut judged[i], budgets[i], std::mem::take(&mut prepared[i]));
            if j.hits.is_empty() {
                continue;
            }
            let name = j.log.instance.clone();
            let bodies: Vec<usize> = prepared.iter().map(|x| x.body).collect();
            let mut intros: Vec<usize> = prepared.iter().map(|x| x.intro).collect();
            // Each hit's weight: its score over the instance's best, to `share_power` (even shares
            // when a rerank has ordered the hits: its order, not BM25's, says which come first).
            let power = if opts.rerank.as_ref().is_some_and(|r| r.is_active()) { 0 } else { cfg.share_power };
            let best = j.hits.iter().map(|(h, _, _)| h.score).fold(0.0, f64::max);
            let hit_weights: Vec<u64> = j
                .hits
                .iter()
                .map(|(h, _, _)| budget::power_weight(if best > 0.0 { h.score / best } else { 1.0 }, power))
                .collect();
            let mut used = 0;
            let mut n_items = 0;
            let mut whole = 0;
            for (k, ((h, why, rerank), Prepared { score_line, text, .. })) in
                j.hits.iter().zip(prepared).enumerate()
            {
                let left = allowed.saturating_sub(used);
                // When the hits left do not all fit, each gets a share of what is left once their
                // source lines are set aside — in proportion to its weight (score², by default; a
                // short one leaves the rest to the longer ones) — plus its own source line; a hit
                // that cannot be cut to its share may take what is left, as the best hits did
                // before the others.
                let room = left.saturating_sub(intros[k..].iter().sum());
                let share = budget::allocate_weighted(&bodies[k..], &hit_weights[k..], room, room)
                    .first()
                    .copied()
                    .unwrap_or(0)
                    + intros[k];
                let known = sources.label(&name, &h.cite);
                let (label, intro) = match known {
                    Ok(label) => (label, String::new()),
                    Err(label) => (label, context::source_line(label, &name, &h.cite)),
                };
                let cite = context::item_line(items.len() + 1, label, &h.cite);
                let head = intro.chars().count()
                    + cite.chars().count()
                    + score_line.as_ref().map_or(0, |l| l.chars().count());
                let weigh = |segment: &str| passage_weight(segment, why);
                // A hit whose every line the session was shown has nothing left to show.
                let shown_whole = text.trim().is_empty();
                if shown_whole {
                    j.log.dedup_skipped.push(h.chunk);
                    whole += 1;
                }
                let fitted = [share, left]
                    .into_iter()
                    .filter(|&room| !shown_whole && head + 2 <= room)
                    .find_map(|room| budget::passage(&text, room - head - 1, &weigh));
                let Some(fitted) = fitted else {
                    // Skipped: the next hit from its source writes the source line, with its room.
                    if let Some(m) = (k + 1..j.hits.len()).find(|&m| j.hits[m].0.cite.source == h.cite.source)
                    {
                        intros[m] = intros[k];
                    }
                    continue;
                };
                if known.is_err() {
                    sources.name(&name, &h.cite);
                }
                let mut item = intro;
                item.push_str(&cite);
                if let Some(l) = &score_line {
                    item.push_str(l);
                }
                item.push_str(fitted);
                item.push('\n');
                let chars = item.chars().count();
                used += chars;
                n_items += 1;
                shown.push((name.clone(), h.chunk));
                // Shown: the chunk counts as seen whole, every long line of it (those left out of
                // `text` were seen already).
                if opts.session.is_some() {
                    shown_lines.extend(session::line_hashes(&text));
                }
                evidence.push(Evidence {
                    instance: name.clone(),
                    cite: h.cite.clone(),
                    score: h.score,
                    chars,
                    text: fitted.to_string(),
                    terms: (opts.format == Format::Detailed).then(|| why.clone()),
                    rerank: rerank.clone().filter(|_| opts.format == Format::Detailed),
                });
                items.push(item);
            }
            j.log.chars = used;
            j.log.budget = allowed;
            if n_items == 0 {
                // Every hit shown whole before is what dedup leaves, not what the budget cut.
                j.log.outcome =
                    if whole == j.hits.len() { Outcome::AllDeduplicated } else { Outcome::NoBudget };
            } else {
                log.answered += 1;
                log.injected_chars += used;
            }
        }
        if let Some(sid) = &opts.session
            && !shown.is_empty()
        {
            self.sessions.record(sid, &shown, &shown_lines, now, cfg.dedup_window_ms);
        }
        (evidence, items)
    }

    /// Decide and deliver evidence for `prompt` (the steps in the module docs).
    /// Without an instance there is nothing to judge the prompt against: an error, never a skip.
    pub fn ask(&mut self, prompt: &str, opts: &AskOptions) -> Result<Answer> {
        check_prompt(prompt, opts)?;
        self.check_loaded()?;
        if let Some(r) = &opts.rerank {
            r.check()?;
            for x in &r.ranking {
                self.position(&x.instance)?;
            }
        }
        let started = self.clock.now_ms();
        let now = opts.now_ms.unwrap_or(started);
        let (query, forced) = self.tags(prompt);
        let form = router::classify(&query);
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
        // Step 3: the prompt gate.
        let skip_all = if prompt_chars > self.config.max_prompt_chars as usize {
            Some((Outcome::TooLong, "too_long"))
        } else if words < self.config.min_words as usize {
            Some((Outcome::TooFewWords, "too_few_words"))
        } else if crate::gate::small_talk::is_small_talk(&query) {
            Some((Outcome::SmallTalk, "small_talk"))
        } else {
            None
        };
        if let Some((outcome, reason)) = skip_all {
            log.instances = self.instances.iter().map(|i| InstanceLog::skipped(&i.name, outcome)).collect();
            return Ok(Answer {
                route: Route::Skip,
                // Small talk is no pasted text, whatever its ending (반갑습니다).
                kind: if form.form == Form::Sentence && outcome != Outcome::SmallTalk {
                    Kind::Sentence
                } else {
                    Kind::Unrelated
                },
                confidence: form.confidence,
                reasons: vec![reason.into()],
                evidence: Vec::new(),
                hints: Vec::new(),
                context: String::new(),
                log,
            });
        }
        // Step 4: every instance's verdict.
        let mut judged = Vec::with_capacity(self.instances.len());
        let mut best_hits = Vec::with_capacity(self.instances.len());
        let said = Said {
            form: form.form,
            query: &query,
            content: router::content_words(&query),
            creation: router::creation_request(&query),
            phrasing: crate::gate::Phrasing::bundled().feature(&query),
            article_ask: router::asks_article(&query),
            words: crate::gate::names::forms(&query),
            without_hangul: crate::gate::script::without_hangul(&query),
        };
        let mut analyses: Vec<Analysis> = Vec::new();
        for n in 0..self.instances.len() {
            let analyzer = &self.instances[n].analyzer;
            let at = match analyses.iter().position(|a| a.settings == analyzer.settings()) {
                Some(at) => at,
                None => {
                    analyses.push(Analysis::new(analyzer, &said));
                    analyses.len() - 1
                }
            };
            let (j, best) = self.judge(n, &said, &analyses[at], forced.contains(&n), opts, now)?;
            judged.push(j);
            best_hits.push(best);
        }
        // Step 5 and 6.
        let (route, kind) = decide(&form, &judged);
        let (evidence, items) = if route == Route::Push {
            self.deliver(&mut judged, opts, now, &mut log)
        } else {
            Default::default()
        };
        // A push whose every item fell to the budget is a pull.
        let (route, kind) =
            if route == Route::Push && evidence.is_empty() { (Route::Pull, kind) } else { (route, kind) };
        log.instances = judged.iter().map(|j| j.log.clone()).collect();
        let context = context::block(&items, opts.format, &log.instances);
        // Step 7.
        let hints = if route == Route::Pull {
            let mut rel: Vec<(f64, &str, Option<&Hit>)> = judged
                .iter()
                .zip(&best_hits)
                .filter(|(j, _)| j.log.relevant)
                .map(|(j, b)| {
                    (j.log.gate.as_ref().map_or(1.0, |g| g.relevance), j.log.instance.as_str(), b.as_ref())
                })
                .collect();
            crate::sort::sort_by(&mut rel, |a, b| b.0.total_cmp(&a.0));
            pull_calls(query.trim(), &rel)
        } else {
            Vec::new()
        };
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
                Outcome::NotAQuestion => "relevant",
                _ => continue,
            };
            reasons.push(format!("{}:{r}", l.instance));
        }
        reasons.push(
            match (route, kind) {
                (Route::Skip, _) => "unrelated",
                (Route::Pull, Kind::Sentence) => "pull:sentence",
                (Route::Pull, _) => "pull:insufficient",
                (Route::Push, _) => "push",
            }
            .into(),
        );
        Ok(Answer { route, kind, confidence: form.confidence, reasons, evidence, hints, context, log })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::AnalyzerSettings;

    #[test]
    fn a_cut_keeps_the_passage_that_matched() {
        let a = Analyzer::new(AnalyzerSettings::default());
        let term = a.analyze("감리원").into_iter().next().expect("a term").term;
        let why = [TermScore { term, score: 2.0 }];
        let weigh = |seg: &str| passage_weight(seg, &why);
        let text = format!(
            "{}감리원은 교육을 이수한다. {}",
            "회계 자료를 정리한다. ".repeat(10),
            "결산을 한다. ".repeat(10)
        );
        // The passage starts at the sentence that matched and goes on as far as it fits.
        let cut = budget::passage(&text, 40, &weigh).expect("a passage");
        assert!(cut.starts_with("감리원은 교육을 이수한다.") && cut.chars().count() <= 40, "{cut:?}");
        assert!(cut.contains("결산을 한다."), "{cut:?}");
        assert_eq!(passage_weight("결산을 한다.", &why), 0.0);
        assert_eq!(passage_weight("감리원은 교육을 이수한다.", &why), 2.0);
        // Matching is on the normalised text: full width and case fold.
        let en = [TermScore { term: "thread".into(), score: 1.5 }];
        assert_eq!(passage_weight("Ｔｈｒｅａｄｓ run.", &en), 1.5);
    }

    #[test]
    fn an_altered_index_is_refused_at_add_unless_the_host_verified_it() {
        let bytes = crate::test_index::of_texts(&["대통령의 임기는 5년으로 하며, 중임할 수 없다."]);
        let mut altered = bytes.clone();
        let last = altered.len() - 1; // the last section's last byte: checksummed, read lazily
        altered[last] ^= 1;
        let mut e = Engine::new(Config::default()).expect("engine");
        let err = e.add_instance("t", altered.clone(), InstanceOptions::default()).expect_err("altered");
        assert_eq!(err.code(), "checksum", "{err}");
        assert!(e.instance_names().is_empty(), "nothing added");
        let skip = InstanceOptions { verify: false, ..InstanceOptions::default() };
        e.add_instance("t", altered, skip).expect("not checked when the host says so");
        e.add_instance("u", bytes, InstanceOptions::default()).expect("intact");
        let opts: InstanceOptions = serde_json::from_str(r#"{"anchors":["임기"]}"#).expect("options");
        assert!(opts.verify, "verify is on unless turned off");
    }

    #[test]
    fn names_that_differ_only_in_case_are_refused_and_removing_forgets_shown_chunks() {
        let bytes = crate::test_index::of_texts(&[
            "대통령의 임기는 5년으로 하며, 중임할 수 없다.",
            "국회의원의 임기는 4년으로 한다.",
        ]);
        let mut e = Engine::new(Config::default()).expect("engine");
        e.add_instance("probe", bytes.clone(), InstanceOptions::default()).expect("first");
        let err = e.add_instance("PROBE", bytes.clone(), InstanceOptions::default()).expect_err("case");
        assert!(err.to_string().contains("only in case"), "{err}");
        assert_eq!(e.clear_session("").expect_err("empty id").code(), "invalid_argument");
        let opts = AskOptions { session: Some("s".into()), ..AskOptions::default() };
        let shown = e.ask("#probe 대통령의 임기는 몇 년인가요?", &opts).expect("ask");
        assert!(!shown.evidence.is_empty());
        assert!(!e.export_session("s").expect("export").shown.is_empty());
        // Another index under the same name: its chunk numbers were never shown.
        e.remove_instance("probe").expect("remove");
        assert!(e.export_session("s").expect("export").shown.is_empty());
        let other =
            crate::test_index::of_texts(&["대통령의 임기가 끝나기 70일 내지 40일 전에 후임자를 선거한다."]);
        e.add_instance("probe", other, InstanceOptions::default()).expect("another index");
        let again = e.ask("#probe 대통령의 임기는 몇 년인가요?", &opts).expect("ask");
        assert!(again.log.instances[0].dedup_skipped.is_empty(), "{:?}", again.log.instances[0]);
    }

    #[test]
    fn asking_an_engine_without_instances_is_an_error() {
        let mut e = Engine::new(Config::default()).expect("engine");
        let err = e.ask("대통령의 임기는 몇 년인가요?", &AskOptions::default()).expect_err("no instance");
        assert_eq!(
            (err.code(), err.to_string()),
            ("invalid_argument", "invalid instance: no instance is loaded".into())
        );
    }

    #[cfg(feature = "ingest")]
    #[test]
    fn a_settings_file_is_read_or_refused_in_one_line() {
        let c = Config::from_toml("top_k = 6\ntag_prefix = \"@\"\n").expect("settings");
        assert_eq!((c.top_k, c.tag_prefix.as_str(), c.total_budget), (6, "@", 3_600));
        for (text, want) in [
            (
                "total_budgt = 1",
                "invalid config: line 1, column 1: unknown field `total_budgt`, expected one of",
            ),
            // The same refusal on every target: counts are u32 (a usize is 32 bits in wasm).
            (
                "min_words = 4294967296",
                "invalid config: line 1, column 13: invalid value: integer `4294967296`, expected u32",
            ),
            (
                "top_k = 4\nmin_words = \"x\"",
                "invalid config: line 2, column 13: invalid type: string \"x\", expected u32",
            ),
            ("top_k = [\n", "invalid config: line 2, column 1: invalid array; expected `]`"),
            ("top_k = 0", "invalid config.top_k: 0; must be 1..=50"),
            // Columns count characters, not bytes.
            ("tag_prefix = \"가나\" top_k = 1", "invalid config: line 1, column 19: "),
        ] {
            let e = Config::from_toml(text).expect_err(text).to_string();
            assert!(e.starts_with(want) && !e.contains('\n'), "{text:?}: {e}");
        }
    }

    #[test]
    fn korean_typed_without_spaces_counts_its_words() {
        for (text, words) in [
            ("hello, world!", 2),
            ("헌법", 1),
            ("안녕하세요", 1),
            ("학생인건비", 1),
            ("수고하셨습니다", 2),
            ("연구수당최대몇프로", 3),
            ("연구수당 최대 몇 프로?", 4),
            ("python3과 rust", 2),
        ] {
            assert_eq!(word_count(text), words, "{text}");
        }
    }
}
