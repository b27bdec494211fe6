//! The anchor and relevance audit (field report, rule 5): run labelled prompts through the gate and
//! report, per instance, how many of its own prompts it found relevant and sufficient, which ones
//! it filtered out, and the words that would have opened it — the words of the filtered prompts
//! that the instance's index knows and that are not anchors yet, most frequent first. Anchors are
//! one of the judges' features, so adding them (to the manifest, then `calibrate`) helps exactly
//! these prompts.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::gold::{Label, LabelKind};
use crate::engine::{AskOptions, Config, Engine, InstanceOptions};
use crate::error::Result;
use crate::text::{Analyzer, korean};

/// One instance's audit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InstanceAudit {
    /// Instance name.
    pub instance: String,
    /// Labelled prompts (questions and sentences) this instance should answer.
    pub prompts: usize,
    /// … that its relevance judge accepted.
    pub relevant: usize,
    /// … whose evidence its sufficiency judge accepted.
    pub sufficient: usize,
    /// … that matched an anchor.
    pub anchored: usize,
    /// The prompts it found irrelevant: (id, prompt).
    pub filtered: Vec<(String, String)>,
    /// Words of the filtered prompts the index knows and the anchors lack: (word, prompts).
    pub suggested: Vec<(String, usize)>,
    /// The current anchors.
    pub anchors: Vec<String>,
}

/// The words of `prompt` an anchor could be made of: stripped Hangul words of two syllables or
/// more, other words of four letters or more (lowercased).
fn candidate_words(prompt: &str) -> Vec<String> {
    // Words split at non-letters and at every change between Hangul and other letters (calc에서).
    // Hangul written straight after other letters is their particle (calc에서): dropped.
    let mut pieces: Vec<String> = Vec::new();
    let mut prev: Option<bool> = None;
    let mut particle = false;
    for c in prompt.chars() {
        if !c.is_alphanumeric() {
            prev = None;
            particle = false;
            continue;
        }
        let h = korean::is_hangul_syllable(c);
        if prev != Some(h) {
            particle = h && prev == Some(false);
            pieces.push(String::new());
        }
        if let Some(last) = pieces.last_mut().filter(|_| !particle) {
            last.push(c);
        }
        prev = Some(h);
    }
    let mut out: Vec<String> = pieces
        .iter()
        .filter(|w| !w.is_empty())
        .filter_map(|w| {
            let w = w.to_lowercase();
            if w.chars().all(korean::is_hangul_syllable) {
                let s = korean::strip(&w);
                (s.chars().count() >= 2 && !korean::is_stop_word(s)).then(|| s.to_string())
            } else {
                (w.chars().count() >= 4 && w.chars().all(char::is_alphabetic)).then_some(w)
            }
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Audit every instance on `labels` (unrelated ones are skipped); `instance_of` names the instance
/// a label should reach.
pub fn audit(
    instances: &[(String, Vec<u8>)],
    config: &Config,
    labels: &[Label],
    instance_of: impl Fn(&Label) -> Option<String>,
) -> Result<Vec<InstanceAudit>> {
    let mut engine = Engine::new(config.clone())?;
    for (name, bytes) in instances {
        engine.add_instance(name, bytes.clone(), InstanceOptions::default())?;
    }
    let reach = labels
        .iter()
        .filter(|l| l.kind != LabelKind::Unrelated)
        .map(|l| Ok((l, super::gold::reached(l, &instance_of, instances)?)))
        .collect::<Result<Vec<(&Label, String)>>>()?;
    let mut out = Vec::new();
    for (name, bytes) in instances {
        let index = crate::Index::open(&bytes[..])?;
        let analyzer = Analyzer::new(index.meta().analyzer);
        let anchors = index.anchors()?;
        let anchor_set: HashSet<&str> = anchors.iter().map(String::as_str).collect();
        let mut a = InstanceAudit {
            instance: name.clone(),
            prompts: 0,
            relevant: 0,
            sufficient: 0,
            anchored: 0,
            filtered: Vec::new(),
            suggested: Vec::new(),
            anchors: anchors.clone(),
        };
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for (l, _) in reach.iter().filter(|(_, i)| i == name) {
            a.prompts += 1;
            let answer = engine.ask(&l.prompt, &AskOptions::default())?;
            let Some(log) = answer.log.instances.iter().find(|i| &i.instance == name) else { continue };
            a.anchored += usize::from(!log.anchors.is_empty());
            let gate = log.gate.as_ref();
            a.relevant += usize::from(gate.is_some_and(|g| g.relevant));
            a.sufficient += usize::from(gate.is_some_and(|g| g.sufficient));
            if gate.is_some_and(|g| g.relevant) {
                continue;
            }
            a.filtered.push((l.id.clone(), l.prompt.clone()));
            for w in candidate_words(&l.prompt) {
                let terms = analyzer.terms(&w);
                let known = !terms.is_empty() && terms.iter().all(|t| index.term(t).ok().flatten().is_some());
                if known && !anchor_set.contains(w.as_str()) {
                    *counts.entry(w).or_default() += 1;
                }
            }
        }
        let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
        ranked.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        a.suggested = ranked;
        out.push(a);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_words_are_stems_and_long_words() {
        assert_eq!(candidate_words("연구수당은 얼마 calc에서 ok"), ["calc", "얼마", "연구수당"]);
        assert_eq!(candidate_words("리브레오피스calc"), ["calc", "리브레오피스"]);
    }
}
