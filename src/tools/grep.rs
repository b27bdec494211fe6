//! `grep {text, instance?, limit?, detailed?}`: exact phrase match after normalisation (Hangul
//! composition, width, exotic spaces, case; every whitespace run matches one space), with the
//! matched span marked.
//!
//! Candidates come from the index: a phrase's *inner* words (not the first, not the last) are whole
//! words wherever the phrase occurs, so the terms the analyzer makes of them (without cross-word
//! joins) are terms of every chunk that contains the phrase; their postings are intersected and only
//! those chunks are read. A phrase of one or two words (whose edge words may be parts of longer
//! words in the text) is checked against every chunk of the instance.

use serde::{Deserialize, Serialize};

use super::cap::Budget;
use crate::corpus::Citation;
use crate::engine::Engine;
use crate::error::Result;
use crate::text::{Analyzer, normalize};

/// Longest phrase, in characters.
pub const MAX_TEXT_CHARS: usize = 500;
/// Default number of matches.
pub const DEFAULT_LIMIT: u32 = 20;
/// Largest `limit`.
pub const MAX_LIMIT: u32 = 100;

/// Marks around the matched span.
pub const OPEN: char = '«';
/// Closes the matched span.
pub const CLOSE: char = '»';

/// Arguments of `grep`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Args {
    /// The phrase.
    pub text: String,
    /// Instance name (default: all).
    #[serde(default)]
    pub instance: Option<String>,
    /// Most matches returned (1..=100, default 20).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Add chunk ids and candidate counts.
    #[serde(default)]
    pub detailed: bool,
}

/// One matching chunk.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    /// Instance name.
    pub instance: String,
    /// Source, location, date and link.
    #[serde(flatten)]
    pub cite: Citation,
    /// The chunk text, every occurrence wrapped in « ».
    pub text: String,
    /// Character offset of the first occurrence in the unmarked chunk text.
    pub start: u32,
    /// End (exclusive) of the first occurrence.
    pub end: u32,
    /// Occurrences in this chunk.
    pub count: u32,
    /// Chunk id (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk: Option<u32>,
}

/// The result of `grep`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    /// The phrase as given.
    pub text: String,
    /// Matching chunks, instance by instance in load order, chunks in order (at most `limit`).
    pub matches: Vec<Match>,
    /// Matching chunks in all (also those past `limit`).
    pub total: u32,
    /// Whether matches were left out (past `limit` or the output cap) or text was cut.
    pub truncated: bool,
    /// Chunks read and checked (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<u32>,
}

/// Normalised text and, per normalised character, the original character range it came from.
pub struct Mapped {
    /// Normalised characters, whitespace runs as one space.
    pub chars: Vec<char>,
    /// Original `[start, end)` character offsets of each normalised character.
    pub spans: Vec<(u32, u32)>,
}

fn is_trailing_jamo(c: char) -> bool {
    matches!(c as u32, 0x1161..=0x1175 | 0x11A8..=0x11C2)
}

/// Normalise `text` keeping the map back to its characters: clusters (a character and the vowel or
/// final jamo that follow it) are normalised alone, which is what [`normalize`] does to them in
/// context.
pub fn mapped(text: &str) -> Mapped {
    let orig: Vec<char> = text.chars().collect();
    let mut chars: Vec<char> = Vec::with_capacity(orig.len());
    let mut spans: Vec<(u32, u32)> = Vec::with_capacity(orig.len());
    let mut i = 0;
    while i < orig.len() {
        let mut j = i + 1;
        while j < orig.len() && is_trailing_jamo(orig[j]) {
            j += 1;
        }
        let cluster: String = orig[i..j].iter().collect();
        for c in normalize(&cluster).chars() {
            let c = if c.is_whitespace() { ' ' } else { c };
            if c == ' ' && chars.last() == Some(&' ') {
                if let Some(s) = spans.last_mut() {
                    s.1 = j as u32;
                }
                continue;
            }
            chars.push(c);
            spans.push((i as u32, j as u32));
        }
        i = j;
    }
    Mapped { chars, spans }
}

/// The needle: normalised, whitespace runs as one space, trimmed.
fn needle(text: &str) -> Vec<char> {
    let m = mapped(text.trim());
    let mut c = m.chars;
    while c.last() == Some(&' ') {
        c.pop();
    }
    while c.first() == Some(&' ') {
        c.remove(0);
    }
    c
}

/// Original character ranges of every occurrence of `needle` in `text`.
pub fn find(text: &str, needle: &[char]) -> Vec<(u32, u32)> {
    let m = mapped(text);
    let n = needle.len();
    let mut out = Vec::new();
    if n == 0 || m.chars.len() < n {
        return out;
    }
    let mut i = 0;
    while i + n <= m.chars.len() {
        if m.chars[i..i + n] == *needle {
            out.push((m.spans[i].0, m.spans[i + n - 1].1));
            i += n;
        } else {
            i += 1;
        }
    }
    out
}

/// `text` with each range wrapped in « ».
fn mark(text: &str, ranges: &[(u32, u32)]) -> String {
    let mut out = String::with_capacity(text.len() + 4 * ranges.len());
    for (i, c) in text.chars().enumerate() {
        let i = i as u32;
        if ranges.iter().any(|r| r.0 == i) {
            out.push(OPEN);
        }
        out.push(c);
        if ranges.iter().any(|r| r.1 == i + 1) {
            out.push(CLOSE);
        }
    }
    out
}

/// The chunks of `index` that can contain the phrase, or `None` when the index cannot narrow it.
fn candidates(index: &super::locate::Idx, text: &str) -> Result<Option<Vec<u32>>> {
    let settings = crate::text::AnalyzerSettings { join_words: false, ..index.meta().analyzer };
    let tokens = Analyzer::new(settings).analyze(text);
    let Some(last) = tokens.iter().map(|t| t.word).max() else { return Ok(None) };
    // Word numbers count every word; the first and the last word of the phrase are edges.
    let mut terms: Vec<&str> = Vec::new();
    for t in tokens.iter().filter(|t| t.word > 0 && t.word < last) {
        if !terms.contains(&t.term.as_str()) {
            terms.push(&t.term);
        }
    }
    if terms.is_empty() {
        return Ok(None);
    }
    let mut set: Option<Vec<u32>> = None;
    for t in terms {
        let Some(info) = index.term(t)? else { return Ok(Some(Vec::new())) };
        let mut docs = Vec::with_capacity(info.df as usize);
        index.postings(&info, |d, _| docs.push(d))?;
        set = Some(match set {
            None => docs,
            Some(prev) => prev.into_iter().filter(|d| docs.binary_search(d).is_ok()).collect(),
        });
    }
    Ok(set)
}

/// Run `grep`.
pub fn run(engine: &Engine, a: &Args) -> Result<Output> {
    super::check_text("text", &a.text, MAX_TEXT_CHARS)?;
    let limit = a.limit.unwrap_or(DEFAULT_LIMIT);
    super::in_range("limit", limit as u64, 1, MAX_LIMIT as u64)?;
    let pattern = needle(&a.text);
    let mut budget = Budget::default();
    let (mut matches, mut total, mut checked) = (Vec::new(), 0u32, 0u32);
    for name in super::instances(engine, a.instance.as_deref())? {
        let index = engine.index(&name)?;
        let ids: Vec<u32> = match candidates(index, &a.text)? {
            Some(ids) => ids,
            None => (0..index.chunk_count()).collect(),
        };
        for id in ids {
            checked += 1;
            let chunk = index.chunk(id)?;
            let found = find(&chunk.text, &pattern);
            let Some(&(start, end)) = found.first() else { continue };
            total += 1;
            if matches.len() >= limit as usize {
                budget.mark();
                continue;
            }
            let Some(text) = budget.take(mark(&chunk.text, &found)) else { continue };
            matches.push(Match {
                instance: name.clone(),
                cite: Citation::new(index.source_head(chunk.source)?, chunk.location),
                text,
                start,
                end,
                count: found.len() as u32,
                chunk: a.detailed.then_some(id),
            });
        }
    }
    Ok(Output {
        text: a.text.clone(),
        matches,
        total,
        truncated: budget.truncated,
        candidates: a.detailed.then_some(checked),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_match_maps_back_to_the_original() {
        // Decomposed 감리원 (NFD), a full-width A, an ideographic space and a double space.
        let text =
            "가 \u{1100}\u{1161}\u{11B7}\u{1105}\u{1175}\u{110B}\u{116F}\u{11AB}은\u{3000}\u{3000}Ａ  b";
        let got = find(text, &needle("감리원은 a b"));
        assert_eq!(got.len(), 1);
        let (s, e) = got[0];
        let orig: Vec<char> = text.chars().collect();
        assert_eq!(s, 2);
        assert_eq!(e as usize, orig.len());
        assert_eq!(find("abc", &needle("x")), vec![]);
        assert_eq!(find("a a a", &needle("a")).len(), 3);
    }

    #[test]
    fn marks_every_occurrence() {
        let text = "연구수당과 연구수당";
        let r = find(text, &needle("연구수당"));
        assert_eq!(mark(text, &r), "«연구수당»과 «연구수당»");
    }
}
