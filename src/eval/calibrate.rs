//! Calibration: fit the gate's two judges ([`GateModel`]) from labelled prompts, choose their
//! thresholds for target precisions, and measure the result honestly (k-fold: every figure on
//! prompts the model was not fitted on).
//!
//! For every labelled prompt ([`Label`](super::gold::Label)) and every instance, [`collect`] runs
//! the engine once to record the gate's [`Features`], and — for the instance that should answer —
//! once more with that instance alone and forced (its evidence injected whatever the judges say) to
//! record whether the gold location ends up inside the injected text. From these rows:
//!
//! * the **relevance** judge is fitted on every (prompt, instance) row: positive when the prompt is a
//!   question or pasted sentence that this instance should answer;
//! * the **sufficiency** judge is fitted on the questions' rows of instances that are (or should be)
//!   relevant: positive when the instance's injected evidence holds the gold location.
//!
//! Thresholds, by utility: relevance where a wrongly accepted unrelated prompt costs
//! `p/(1−p)` wrongly skipped domain prompts (`relevance_precision`, default 0.6: an unrelated
//! prompt with evidence costs 1.5 skipped domain prompts); sufficiency where a push whose evidence misses the gold costs `p/(1−p)` pushes that
//! hold it (`sufficiency_precision`, default 0.4: push first). [`simulate`] replays the routing decision on rows with a model and
//! gives the figures the gate is held to ([`Figures`]).

use std::collections::HashSet;

use serde::Serialize;

use super::gold::{Label, LabelKind};
use crate::engine::{AskOptions, Config, Engine, InstanceOptions};
use crate::error::Result;
use crate::gate::features::PHRASING;
use crate::gate::model::best_utility_threshold;
use crate::gate::router::{Form, classify};
use crate::gate::{Features, GateModel, Logistic, Phrasing};

/// One labelled prompt, as the gate sees it over every instance.
#[derive(Debug, Clone)]
pub struct Row {
    /// The label.
    pub label: Label,
    /// The instance that should answer (none for unrelated prompts).
    pub instance: Option<usize>,
    /// The router's form of the prompt.
    pub form: Form,
    /// Per instance: the gate's features (none when the prompt gate skipped it).
    pub features: Vec<Option<Features>>,
    /// Per instance: the prompt names something its documents never mention, or is written in
    /// another language than their readers write, which decides it whatever the judges say
    /// ([`Judgement`](crate::gate::Judgement)); the judges are still fitted on its features.
    pub outside: Vec<bool>,
    /// The gold location is in the top k of the instance that should answer (what the judges see).
    pub gold_in_top: bool,
    /// The gold location is among the hits that instance's evidence offers (`evidence_k`, before
    /// the budget cuts): the ceiling for the gate.
    pub gold_in_offered: bool,
    /// The gold location is inside that instance's injected text (forced).
    pub gold_injected: bool,
    /// Characters that instance injected (forced).
    pub injected_chars: usize,
}

/// Run the engine over `labels`: the rows the judges are fitted and measured on.
pub fn collect(instances: &[(String, Vec<u8>)], config: &Config, labels: &[Label]) -> Result<Vec<Row>> {
    let mut engine = Engine::new(config.clone())?;
    for (name, bytes) in instances {
        engine.add_instance(name, bytes.clone(), InstanceOptions::default())?;
    }
    let names: Vec<&str> = instances.iter().map(|(n, _)| n.as_str()).collect();
    // Each instance alone, for its forced evidence: what it injects does not depend on how the
    // current model judges the others (they would share the total budget).
    let mut solo = Vec::with_capacity(instances.len());
    for (name, bytes) in instances {
        let mut e = Engine::new(config.clone())?;
        // `engine` above checked these bytes' checksums.
        e.add_instance(name, bytes.clone(), InstanceOptions { verify: false, ..InstanceOptions::default() })?;
        solo.push(e);
    }
    let holder = super::gold::holders(instances)?;
    let mut rows = Vec::with_capacity(labels.len());
    for label in labels {
        let instance = if label.kind == LabelKind::Unrelated {
            None
        } else {
            let name = super::gold::reached(label, |l| l.instance_in(|s| holder.get(s).cloned()), instances)?;
            names.iter().position(|n| *n == name)
        };
        let a = engine.ask(&label.prompt, &AskOptions::default())?;
        let features = a.log.instances.iter().map(|l| l.gate.as_ref().map(|g| g.features)).collect();
        let outside = a
            .log
            .instances
            .iter()
            .map(|l| l.gate.as_ref().is_some_and(|g| g.outside_name.is_some() || g.other_language))
            .collect();
        let (mut gold_in_top, mut gold_in_offered) = (false, false);
        let (mut gold_injected, mut injected_chars) = (false, 0);
        if let Some(i) = instance {
            let forced = solo[i].ask(&format!("#{} {}", names[i], label.prompt), &AskOptions::default())?;
            gold_injected = label.hit(forced.evidence.iter().map(|e| &e.cite));
            injected_chars = forced.log.injected_chars;
            // The right instance's top k for the prompt, as the gate searches it, and the hits its
            // evidence offers (the ceiling).
            let index = engine.index(names[i])?;
            let ranking = crate::engine::GATE_RANKING;
            let terms = crate::search::weighted_terms(index, &label.prompt, ranking);
            let mut cites = Vec::new();
            for s in
                crate::search::rank(index, &terms, config.top_k.max(config.evidence_k) as usize, ranking)?
            {
                cites.push(crate::search::hit(index, 0, s)?.cite);
            }
            gold_in_top = label.hit(cites.iter().take(config.top_k as usize));
            gold_in_offered = label.hit(cites.iter().take(config.evidence_k.max(1) as usize));
        }
        rows.push(Row {
            label: label.clone(),
            instance,
            form: classify(&label.prompt).form,
            features,
            outside,
            gold_in_top,
            gold_in_offered,
            gold_injected,
            injected_chars,
        });
    }
    Ok(rows)
}

impl Row {
    /// Instance `i`'s features when its judges decide it (not skipped by the prompt gate, no name
    /// outside its documents, not in another language than their readers').
    fn judged(&self, i: usize) -> Option<&Features> {
        self.features.get(i)?.as_ref().filter(|_| !self.outside.get(i).copied().unwrap_or(false))
    }

    /// The features of every instance the judges decide.
    fn all_judged(&self) -> impl Iterator<Item = &Features> {
        (0..self.features.len()).filter_map(|i| self.judged(i))
    }
}

/// Fitting settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FitParams {
    /// L2 penalty on the weights.
    pub l2: f64,
    /// Share of relevant (prompt, instance) rows among those the relevance judge accepts.
    pub relevance_precision: f64,
    /// Share of pushed questions whose injected text holds the gold.
    pub sufficiency_precision: f64,
}

impl Default for FitParams {
    fn default() -> Self {
        // Sufficiency 0.4: "push first, pull when insufficient" (field report) — pushed evidence that
        // misses the gold costs little (the delivery rule says: say so, then search), a pull costs
        // the agent a tool round trip; chosen on the k-fold figures (docs/gate-bench.md: with the
        // 3,600-character top-8 evidence, 0.4 keeps gold pushed and pushes fewer unrelated prompts
        // than 0.3). Relevance 0.6: with up to 16 hits the sufficiency judge pushes nearly every
        // relevant question, so relevance alone keeps unrelated prompts out; on the k-fold figures
        // (773 prompts) 0.6 routes 92.2% right against 88.6% at 0.5 and 90.9% at 0.8.
        FitParams { l2: 0.05, relevance_precision: 0.6, sufficiency_precision: 0.4 }
    }
}

fn relevance_rows(rows: &[&Row]) -> Vec<(Features, bool)> {
    let mut out = Vec::new();
    for r in rows {
        for (i, f) in r.features.iter().enumerate() {
            if let Some(f) = f {
                out.push((*f, r.instance == Some(i)));
            }
        }
    }
    out
}

/// Fit both judges on `rows`.
pub fn fit(rows: &[&Row], p: FitParams) -> GateModel {
    let rel_data = relevance_rows(rows);
    let mut relevance = Logistic::fit(&rel_data, p.l2);
    relevance.threshold = routing_threshold(rows, &relevance, p.relevance_precision);
    // Sufficiency: questions; the right instance's row (gold injected or not) and every other
    // instance the relevance judge accepts (never gold).
    let mut suf_data = Vec::new();
    for r in rows.iter().filter(|r| r.label.kind == LabelKind::Question && !r.label.gold.is_empty()) {
        for (i, f) in r.features.iter().enumerate() {
            let Some(f) = f else { continue };
            if r.instance == Some(i) {
                suf_data.push((*f, r.gold_injected));
            } else if r.judged(i).is_some() && relevance.yes(f) {
                suf_data.push((*f, false));
            }
        }
    }
    let mut sufficiency = Logistic::fit(&suf_data, p.l2);
    let scored: Vec<(f64, bool)> = suf_data.iter().map(|(f, y)| (sufficiency.p(f), *y)).collect();
    sufficiency.threshold = best_utility_threshold(&scored, p.sufficiency_precision);
    GateModel { relevance, sufficiency }
}

/// The relevance threshold decided per *prompt*: a prompt is routed right when it is unrelated and
/// no instance accepts it, or it is a question/sentence and some instance does. A wrongly accepted
/// unrelated prompt costs `precision / (1 − precision)` wrongly skipped ones (0.5: plain accuracy).
/// The threshold is the middle of the best range of candidate values.
fn routing_threshold(rows: &[&Row], model: &Logistic, precision: f64) -> f64 {
    let cost = precision.clamp(0.0, 0.999) / (1.0 - precision.clamp(0.0, 0.999));
    // Per prompt: the highest relevance p over instances, and whether it should be accepted.
    let best: Vec<(f64, bool)> = rows
        .iter()
        .map(|r| {
            let p = r.all_judged().map(|f| model.p(f)).fold(0.0f64, f64::max);
            (p, r.label.kind != LabelKind::Unrelated && r.all_judged().next().is_some())
        })
        .collect();
    let mut cands: Vec<f64> = best.iter().map(|(p, _)| *p).chain([1.0]).collect();
    cands.sort_by(f64::total_cmp);
    cands.dedup();
    let utility = |t: f64| {
        best.iter()
            .map(|&(p, want)| match (p >= t, want) {
                (true, true) => 1.0,
                (true, false) => -cost,
                _ => 0.0,
            })
            .sum::<f64>()
    };
    let scores: Vec<f64> = cands.iter().map(|&t| utility(t)).collect();
    let top = scores.iter().copied().fold(f64::MIN, f64::max);
    let first = scores.iter().position(|&u| u >= top - 1e-9).unwrap_or(0);
    let last = first + scores[first..].iter().take_while(|&&u| u >= top - 1e-9).count() - 1;
    // Between the lowest value of the range and the next candidate above the range's last value.
    let hi = cands.get(last + 1).copied().unwrap_or(cands[last]);
    ((cands[first] + hi) / 2.0 * 10_000.0).round() / 10_000.0
}

/// The figures the gate is held to (issue 11's table), over some rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Figures {
    /// Domain questions.
    pub questions: usize,
    /// … that got evidence (pushed).
    pub questions_pushed: usize,
    /// Domain questions with gold locations (the gold figures' denominator).
    pub questions_gold: usize,
    /// … whose gold is inside the injected text (right instance pushed, gold in its evidence).
    pub questions_gold_pushed: usize,
    /// … whose gold is in the right instance's top k (what the judges see).
    pub questions_gold_in_top: usize,
    /// … whose gold is among the hits the right instance's evidence offers (the ceiling).
    pub questions_gold_offered: usize,
    /// Domain questions with gold locations that got evidence (denominator of "of those").
    pub questions_gold_pushed_of: usize,
    /// Pasted sentences.
    pub sentences: usize,
    /// … pushed evidence (must be none).
    pub sentences_pushed: usize,
    /// Unrelated prompts.
    pub unrelated: usize,
    /// … that got evidence.
    pub unrelated_pushed: usize,
    /// Prompts routed right: question → question form and push/pull; sentence → pull;
    /// unrelated → skip.
    pub routed_right: usize,
    /// Polite requests.
    pub polite: usize,
    /// … kept as questions (router form).
    pub polite_as_questions: usize,
    /// All prompts.
    pub prompts: usize,
}

impl Figures {
    fn pct(n: usize, d: usize) -> String {
        if d == 0 { "–".into() } else { format!("{:.1}%", 100.0 * n as f64 / d as f64) }
    }

    /// The figures as a Markdown table (`label` names the column).
    pub fn table(rows: &[(&str, Figures)]) -> String {
        let mut out = String::from("| figure |");
        for (l, _) in rows {
            out.push_str(&format!(" {l} |"));
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(rows.len()));
        out.push('\n');
        type Line = (&'static str, fn(&Figures) -> String);
        let lines: [Line; 9] = [
            ("domain questions that get evidence", |f| {
                format!(
                    "{} ({}/{})",
                    Figures::pct(f.questions_pushed, f.questions),
                    f.questions_pushed,
                    f.questions
                )
            }),
            ("… of those, gold inside the injected text", |f| {
                Figures::pct(f.questions_gold_pushed, f.questions_gold_pushed_of)
            }),
            ("domain questions with gold pushed", |f| {
                Figures::pct(f.questions_gold_pushed, f.questions_gold)
            }),
            ("gold in the right instance's top k (what the judges see)", |f| {
                Figures::pct(f.questions_gold_in_top, f.questions_gold)
            }),
            ("gold among the hits its evidence offers (ceiling)", |f| {
                Figures::pct(f.questions_gold_offered, f.questions_gold)
            }),
            ("unrelated prompts that get evidence", |f| {
                format!(
                    "{} ({}/{})",
                    Figures::pct(f.unrelated_pushed, f.unrelated),
                    f.unrelated_pushed,
                    f.unrelated
                )
            }),
            ("routing right", |f| {
                format!("{} ({}/{})", Figures::pct(f.routed_right, f.prompts), f.routed_right, f.prompts)
            }),
            ("polite requests kept as questions", |f| format!("{}/{}", f.polite_as_questions, f.polite)),
            ("pasted sentences pushed with evidence", |f| format!("{}/{}", f.sentences_pushed, f.sentences)),
        ];
        for (name, get) in lines {
            out.push_str(&format!("| {name} |"));
            for (_, f) in rows {
                out.push_str(&format!(" {} |", get(f)));
            }
            out.push('\n');
        }
        out
    }

    fn add(&mut self, o: &Figures) {
        self.questions += o.questions;
        self.questions_pushed += o.questions_pushed;
        self.questions_gold += o.questions_gold;
        self.questions_gold_pushed += o.questions_gold_pushed;
        self.questions_gold_pushed_of += o.questions_gold_pushed_of;
        self.questions_gold_in_top += o.questions_gold_in_top;
        self.questions_gold_offered += o.questions_gold_offered;
        self.sentences += o.sentences;
        self.sentences_pushed += o.sentences_pushed;
        self.unrelated += o.unrelated;
        self.unrelated_pushed += o.unrelated_pushed;
        self.routed_right += o.routed_right;
        self.polite += o.polite;
        self.polite_as_questions += o.polite_as_questions;
        self.prompts += o.prompts;
    }
}

/// Replay the routing decision on `rows` with `model` (the same rule as `Engine::ask`: skip when no
/// instance is relevant, pull sentences, push questions with sufficient evidence). Gold counts as
/// pushed when the right instance pushes and its (forced) evidence held the gold.
pub fn simulate(rows: &[&Row], model: &GateModel) -> Figures {
    let mut f = Figures::default();
    for r in rows {
        let n = r.features.len();
        let rel: Vec<bool> = (0..n).map(|i| r.judged(i).is_some_and(|x| model.relevance.yes(x))).collect();
        let suf: Vec<bool> = (0..n)
            .map(|i| r.judged(i).is_some_and(|x| model.relevance.yes(x) && model.sufficiency.yes(x)))
            .collect();
        let any_rel = rel.iter().any(|&b| b);
        let push = r.form == Form::Question && suf.iter().any(|&b| b);
        f.prompts += 1;
        if r.label.polite {
            f.polite += 1;
            f.polite_as_questions += (r.form == Form::Question) as usize;
        }
        match r.label.kind {
            LabelKind::Question => {
                f.questions += 1;
                let has_gold = !r.label.gold.is_empty();
                f.questions_gold += has_gold as usize;
                f.questions_gold_in_top += r.gold_in_top as usize;
                f.questions_gold_offered += r.gold_in_offered as usize;
                if push {
                    f.questions_pushed += 1;
                    f.questions_gold_pushed_of += has_gold as usize;
                    if r.instance.is_some_and(|i| suf[i]) && r.gold_injected {
                        f.questions_gold_pushed += 1;
                    }
                }
                f.routed_right += (r.form == Form::Question && any_rel) as usize;
            }
            LabelKind::Sentence => {
                f.sentences += 1;
                f.sentences_pushed += push as usize;
                f.routed_right += (r.form == Form::Sentence && any_rel) as usize;
            }
            LabelKind::Unrelated => {
                f.unrelated += 1;
                f.unrelated_pushed += push as usize;
                f.routed_right += (!any_rel) as usize;
            }
        }
    }
    f
}

/// k-fold cross-validation: rows are dealt into `k` folds in a fixed order that spreads every
/// (kind, instance) group over the folds; each fold is judged by a model fitted on the others.
/// The figures are summed over the held-out folds. With `phrasing` (the topic grams to leave out,
/// [`topic_grams`]) each fold also fits its own [`Phrasing`] table on its training rows — for
/// labels the bundled table was fitted on.
pub fn cross_validate(rows: &[Row], k: usize, p: FitParams, phrasing: Option<&HashSet<String>>) -> Figures {
    let k = k.max(2);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    // Group by kind and instance, then by a hash of the id (a fixed, data-independent shuffle).
    let key = |r: &Row| {
        let h = r
            .label
            .id
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        (r.label.kind, r.instance, h)
    };
    order.sort_by_key(|&i| key(&rows[i]));
    let fold_of: Vec<usize> = {
        let mut f = vec![0; rows.len()];
        for (pos, &i) in order.iter().enumerate() {
            f[i] = pos % k;
        }
        f
    };
    let mut total = Figures::default();
    for fold in 0..k {
        let train: Vec<&Row> =
            rows.iter().zip(&fold_of).filter(|(_, f)| **f != fold).map(|(r, _)| r).collect();
        let test: Vec<&Row> =
            rows.iter().zip(&fold_of).filter(|(_, f)| **f == fold).map(|(r, _)| r).collect();
        if let Some(topic) = phrasing {
            // The fold's table is fitted on its training rows only; they get out-of-fold values.
            let mut train: Vec<Row> = train.into_iter().cloned().collect();
            let table = phrasing_out_of_fold(&mut train, k, topic);
            let mut test: Vec<Row> = test.into_iter().cloned().collect();
            set_phrasing(&mut test, &table);
            let model = fit(&train.iter().collect::<Vec<_>>(), p);
            total.add(&simulate(&test.iter().collect::<Vec<_>>(), &model));
            continue;
        }
        let model = fit(&train, p);
        total.add(&simulate(&test, &model));
    }
    total
}

/// Fit a [`Phrasing`] table on every row's label and give each row the feature value of a table
/// fitted without it (`k` folds by position, so the judges are fitted on honest values); returns
/// the table fitted on all rows (the one to bundle).
pub fn phrasing_out_of_fold(rows: &mut [Row], k: usize, topic: &HashSet<String>) -> Phrasing {
    let k = k.max(2);
    let samples: Vec<(String, bool)> =
        rows.iter().map(|r| (r.label.prompt.clone(), r.label.kind != LabelKind::Unrelated)).collect();
    for fold in 0..k {
        let train: Vec<(&str, bool)> = samples
            .iter()
            .enumerate()
            .filter(|(i, _)| i % k != fold)
            .map(|(_, (s, y))| (s.as_str(), *y))
            .collect();
        let table = Phrasing::fit(&train, topic);
        for (_, r) in rows.iter_mut().enumerate().filter(|(i, _)| i % k == fold) {
            set_row_phrasing(r, &table);
        }
    }
    let all: Vec<(&str, bool)> = samples.iter().map(|(s, y)| (s.as_str(), *y)).collect();
    Phrasing::fit(&all, topic)
}

/// The grams of the rows' prompts that are the loaded instances' vocabulary
/// ([`phrasing::topic_grams`](crate::gate::phrasing::topic_grams)): left out of a fitted table.
pub fn topic_grams(instances: &[(String, Vec<u8>)], rows: &[Row]) -> Result<HashSet<String>> {
    let mut candidates = std::collections::BTreeSet::new();
    for r in rows {
        candidates.extend(crate::gate::phrasing::grams(&r.label.prompt));
    }
    let mut collections = Vec::with_capacity(instances.len());
    for (_, bytes) in instances {
        let index = crate::index::Index::open(&bytes[..])?;
        let texts: Result<Vec<String>> = (0..index.chunk_count()).map(|c| Ok(index.chunk(c)?.text)).collect();
        collections.push(texts?);
    }
    Ok(crate::gate::phrasing::topic_grams(&candidates, collections))
}

/// Set every row's `phrasing` feature from `table`.
pub fn set_phrasing(rows: &mut [Row], table: &Phrasing) {
    for r in rows {
        set_row_phrasing(r, table);
    }
}

fn set_row_phrasing(r: &mut Row, table: &Phrasing) {
    let v = table.feature(&r.label.prompt);
    for f in r.features.iter_mut().flatten() {
        f.0[PHRASING] = v;
    }
}

/// Precision/recall of one judge at a series of thresholds (the trade-off table `calibrate`
/// prints): (threshold, accepted, accepted positives, positives).
pub fn tradeoff(scored: &[(f64, bool)], thresholds: &[f64]) -> Vec<(f64, usize, usize, usize)> {
    let positives = scored.iter().filter(|(_, y)| *y).count();
    thresholds
        .iter()
        .map(|&t| {
            let acc: Vec<&(f64, bool)> = scored.iter().filter(|(p, _)| *p >= t).collect();
            (t, acc.len(), acc.iter().filter(|(_, y)| *y).count(), positives)
        })
        .collect()
}

/// (p, is positive) pairs.
pub type Scored = Vec<(f64, bool)>;

/// The relevance rows' (p, is relevant) and the sufficiency rows' (p, gold injected) under
/// `model`, for trade-off tables and charts.
pub fn scored_rows(rows: &[&Row], model: &GateModel) -> (Scored, Scored) {
    let rel = relevance_rows(rows).iter().map(|(f, y)| (model.relevance.p(f), *y)).collect();
    let mut suf = Vec::new();
    for r in rows.iter().filter(|r| r.label.kind == LabelKind::Question && !r.label.gold.is_empty()) {
        if let Some(i) = r.instance
            && let Some(f) = r.judged(i)
            && model.relevance.yes(f)
        {
            suf.push((model.sufficiency.p(f), r.gold_injected));
        }
    }
    (rel, suf)
}
