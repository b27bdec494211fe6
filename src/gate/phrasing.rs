//! How a prompt is *phrased*, as evidence of what it is: a question or pasted sentence about
//! documents, or a request to the assistant itself (write code, fix an error, draft a mail, chat).
//!
//! The prompt's character 2- and 3-grams (after [`normalize`](crate::text::normalize),
//! whitespace runs as one space, the first [`MAX_CHARS`] characters) are looked up in a table of
//! naive-Bayes log-odds fitted on labelled prompts ([`Phrasing::fit`]; `groundgate calibrate
//! --fit-phrasing`): "짜줘", "써 ", "rror", "에 대해" … Their mean is one feature of the gate
//! (`phrasing`), instance-independent, computed once per prompt. It catches what word lists miss —
//! the project's labelled prompts, 5-fold: unrelated prompts accepted at the same recall 11.3% →
//! 8.5%; docs/gate-bench.md.
//!
//! The table bundled with the library ([`Phrasing::bundled`], data/gate/phrasing.tsv) is fitted on
//! the project's labelled prompts. Weights are stored as integers in 1/[`SCALE`] units, so a
//! prompt's score is an exact integer sum: the same on every platform.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::text::normalize;

/// Only the prompt's first this many characters are read (a pasted log adds nothing after it).
pub const MAX_CHARS: usize = 300;
/// Stored weights are in 1/this units of a natural-log odds.
pub const SCALE: i32 = 16;
/// A gram enters the table when this many labelled prompts contain it …
const MIN_PROMPTS: u32 = 3;
/// … and its log-odds is at least this far from 0.
const MIN_WEIGHT: f64 = 1.0;
/// Laplace smoothing of the per-class counts.
const SMOOTHING: f64 = 1.0;

/// A table of gram weights (log-odds that a prompt containing the gram is about documents).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Phrasing {
    /// Prior log-odds (domain prompts over unrelated ones among those fitted), in 1/SCALE units.
    bias: i32,
    grams: HashMap<String, i32>,
}

/// The distinct 2- and 3-grams of a prompt.
pub fn grams(prompt: &str) -> BTreeSet<String> {
    distinct(&folded(prompt)).into_iter().map(str::to_string).collect()
}

/// The prompt as the grams read it: normalised, whitespace runs as one space, trimmed, at most
/// [`MAX_CHARS`] characters.
fn folded(prompt: &str) -> String {
    let mut text = String::with_capacity(prompt.len().min(4 * MAX_CHARS));
    let (mut n, mut space) = (0, true);
    for c in normalize(prompt).chars() {
        if n == MAX_CHARS {
            break;
        }
        if c.is_whitespace() {
            if space {
                continue;
            }
            text.push(' ');
            space = true;
        } else {
            text.push(c);
            space = false;
        }
        n += 1;
    }
    text.truncate(text.trim_end().len());
    text
}

/// The distinct 2- and 3-character slices of `text` (borrowed: no allocation per gram).
fn distinct(text: &str) -> Vec<&str> {
    let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
    let mut out = Vec::with_capacity(2 * bounds.len());
    for n in [2, 3] {
        for w in bounds.windows(n + 1) {
            out.push(&text[w[0]..w[n]]);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

impl Phrasing {
    /// The table bundled with the library (data/gate/phrasing.tsv), parsed once.
    pub fn bundled() -> &'static Phrasing {
        static TABLE: OnceLock<Phrasing> = OnceLock::new();
        TABLE.get_or_init(|| {
            // The file is part of the build and checked by a unit test; an unreadable copy would
            // only switch the feature off (every prompt scores the prior).
            Phrasing::parse(include_str!("../../data/gate/phrasing.tsv")).unwrap_or_default()
        })
    }

    /// Fit a table on prompts labelled as about documents (`true`) or not.
    pub fn fit(samples: &[(&str, bool)]) -> Phrasing {
        let mut counts: HashMap<String, [u32; 2]> = HashMap::new();
        let mut n = [0u32; 2];
        for (prompt, domain) in samples {
            let y = *domain as usize;
            n[y] += 1;
            for g in grams(prompt) {
                counts.entry(g).or_default()[y] += 1;
            }
        }
        let rate = |c: u32, y: usize| (c as f64 + SMOOTHING) / (n[y] as f64 + 2.0 * SMOOTHING);
        let mut grams = HashMap::new();
        for (g, c) in counts {
            let w = (rate(c[1], 1) / rate(c[0], 0)).ln();
            if c[0] + c[1] >= MIN_PROMPTS && w.abs() >= MIN_WEIGHT {
                grams.insert(g, quantise(w));
            }
        }
        let prior = if n[0] > 0 && n[1] > 0 { (n[1] as f64 / n[0] as f64).ln() } else { 0.0 };
        Phrasing { bias: quantise(prior), grams }
    }

    /// The prompt's score: prior + the weights of its grams, in natural-log odds (naive Bayes:
    /// overconfident, as the grams overlap).
    pub fn score(&self, prompt: &str) -> f64 {
        let (sum, _) = self.sum(prompt);
        sum as f64 / SCALE as f64
    }

    /// The gate feature: the score per gram found in the table (the naive sum grows with the
    /// prompt's length; the mean says how the prompt reads). Exact integer arithmetic, one division.
    pub fn feature(&self, prompt: &str) -> f64 {
        let (sum, found) = self.sum(prompt);
        sum as f64 / (SCALE as i64 * found.max(1)) as f64
    }

    fn sum(&self, prompt: &str) -> (i64, i64) {
        let mut sum = self.bias as i64;
        let mut found = 0;
        for g in distinct(&folded(prompt)) {
            if let Some(&w) = self.grams.get(g) {
                sum += w as i64;
                found += 1;
            }
        }
        (sum, found)
    }

    /// Number of grams in the table.
    pub fn len(&self) -> usize {
        self.grams.len()
    }

    /// The table has no grams.
    pub fn is_empty(&self) -> bool {
        self.grams.is_empty()
    }

    /// The table as TSV (`#` comment lines first, then `bias\tN` and `gram\tweight` sorted by gram;
    /// a gram's spaces are written as `␠`).
    pub fn to_tsv(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!("bias\t{}\n", self.bias));
        let mut rows: Vec<(&String, &i32)> = self.grams.iter().collect();
        rows.sort();
        for (g, w) in rows {
            out.push_str(&format!("{}\t{w}\n", g.replace(' ', "␠")));
        }
        out
    }

    /// Parse [`to_tsv`](Self::to_tsv)'s format.
    pub fn parse(tsv: &str) -> Result<Phrasing> {
        let bad = |line: usize, why: &str| Error::invalid("phrasing", format!("line {}: {why}", line + 1));
        let mut table = Phrasing::default();
        let mut seen_bias = false;
        for (i, line) in tsv.lines().enumerate() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let (key, w) = line.split_once('\t').ok_or_else(|| bad(i, "expected gram<TAB>weight"))?;
            let w: i32 = w.parse().map_err(|_| bad(i, "the weight is not an integer"))?;
            if w.unsigned_abs() > 1 << 16 {
                return Err(bad(i, "the weight is out of range"));
            }
            if key == "bias" {
                table.bias = w;
                seen_bias = true;
                continue;
            }
            let g = key.replace('␠', " ");
            let n = g.chars().count();
            if !(2..=3).contains(&n) {
                return Err(bad(i, "a gram is 2 or 3 characters"));
            }
            if table.grams.insert(g, w).is_some() {
                return Err(bad(i, "a gram is listed twice"));
            }
        }
        if !seen_bias {
            return Err(Error::invalid("phrasing", "no bias line"));
        }
        Ok(table)
    }
}

fn quantise(w: f64) -> i32 {
    (w * SCALE as f64).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grams_are_normalised_and_whitespace_folded() {
        let g = grams("  Ａb\t\n c ");
        let want: BTreeSet<String> = ["ab", "b ", " c", "ab ", "b c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(g, want);
        assert!(grams("x").is_empty());
        assert_eq!(grams(&"가".repeat(5000)).len(), 2);
    }

    #[test]
    fn fitted_table_separates_its_classes_and_round_trips() {
        let samples: Vec<(&str, bool)> = vec![
            ("연구개발비 정산 기준이 뭔가요", true),
            ("연구개발비 집행 기준 알려 주세요", true),
            ("연구개발비 사용 기준이 궁금해요", true),
            ("이메일 초안 써줘", false),
            ("보고서 초안 써줘", false),
            ("공지문 초안 써줘", false),
        ];
        let t = Phrasing::fit(&samples);
        assert!(!t.is_empty());
        assert!(t.score("연구개발비 기준") > 0.0);
        assert!(t.score("초안 써줘") < 0.0);
        assert!(t.feature("초안 써줘") < 0.0 && t.feature("연구개발비 기준") > 0.0);
        assert_eq!(t.feature("zzz"), t.score("zzz"), "no gram found: the prior");
        let back = Phrasing::parse(&t.to_tsv("test\ntable")).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn bad_tables_are_refused() {
        for bad in
            ["", "bias\tx", "bias\t1\nabcd\t2", "bias\t1\nab\t1\nab\t2", "bias\t1\nab", "bias\t99999999"]
        {
            assert!(Phrasing::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bundled_table_parses_and_is_not_empty() {
        let t = Phrasing::parse(include_str!("../../data/gate/phrasing.tsv")).unwrap();
        assert!(t.len() > 100);
        assert_eq!(&t, Phrasing::bundled());
    }
}
