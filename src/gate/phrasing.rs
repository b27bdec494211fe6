//! How a prompt is *phrased*, as evidence of what it is: a question or pasted sentence about
//! documents, or a request to the assistant itself (write code, fix an error, draft a mail, chat).
//!
//! The prompt's character 2- and 3-grams (after [`normalize`](crate::text::normalize), whitespace
//! runs as one space, the first [`MAX_CHARS`] characters) are looked up in a table of naive-Bayes
//! log-odds fitted on labelled prompts ([`Phrasing::fit`]; `groundgate calibrate --fit-phrasing`):
//! "줘", "나요", "rror", "()" … The mean weight of the grams found is one feature of the gate
//! (`phrasing`), instance-independent, computed once per prompt. Grams the documents themselves
//! use ([`topic_grams`]: held by ≥ [`TOPIC_SHARE`] of an instance's chunks) are left out: they
//! would teach the table the default instances' topics, and the feature must mean the same on a
//! user's own documents. Figures (5-fold and the held-out test set) in docs/gate-bench.md.
//!
//! The table bundled with the library ([`Phrasing::bundled`], data/gate/phrasing.tsv) is fitted on
//! the project's labelled prompts. Weights are stored as integers in 1/[`SCALE`] units, so a
//! prompt's feature is an exact integer sum and one division: the same on every platform.

use std::collections::{BTreeSet, HashMap, HashSet};
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
/// A gram held by at least this share of an instance's chunks is the documents' vocabulary (a
/// topic), not phrasing: left out of the table, so the feature carries over to other documents
/// (see [`topic_grams`]).
pub const TOPIC_SHARE: f64 = 0.005;
/// Laplace smoothing of the per-class counts.
const SMOOTHING: f64 = 1.0;

/// A table of gram weights (log-odds that a prompt containing the gram is about documents).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Phrasing {
    /// Prior log-odds (domain prompts over unrelated ones among those fitted), in 1/SCALE units.
    bias: i32,
    /// (gram as its [`key`], weight), sorted by key — that is, by gram —, no gram twice: a
    /// prompt's grams are looked up by binary search over integers (no hash map in the browser
    /// build).
    grams: Vec<(u64, i32)>,
}

/// A gram of up to 3 characters as one integer: each character + 1 in [`CHAR_BITS`] bits (a
/// `char` is below 2²¹ − 1), the first highest; a 2-gram's third field is 0. Distinct grams,
/// distinct keys, in the grams' own order (code point by code point, a 2-gram before the 3-grams
/// it starts).
fn key(gram: &str) -> u64 {
    let (k, n) = gram.chars().fold((0u64, 0), |(k, n), c| ((k << CHAR_BITS) | (c as u64 + 1), n + 1));
    k << (CHAR_BITS * (3 - n.min(3)))
}

/// Bits a character takes in a [`key`].
const CHAR_BITS: u32 = 21;

/// The gram a [`key`] packs.
fn gram(key: u64) -> String {
    let fields = [2 * CHAR_BITS, CHAR_BITS, 0].map(|shift| (key >> shift) as u32 & ((1 << CHAR_BITS) - 1));
    fields.iter().take_while(|&&f| f != 0).filter_map(|&f| char::from_u32(f - 1)).collect()
}

/// The distinct 2- and 3-grams of a prompt.
pub fn grams(prompt: &str) -> BTreeSet<String> {
    distinct(&folded(prompt, MAX_CHARS)).into_iter().map(str::to_string).collect()
}

/// The distinct 2- and 3-grams of a document's whole text (for [`topic_grams`]).
fn text_grams(text: &str) -> BTreeSet<String> {
    distinct(&folded(text, usize::MAX)).into_iter().map(str::to_string).collect()
}

/// The text as the grams read it: normalised, whitespace runs as one space, trimmed, at most
/// `max` characters.
fn folded(prompt: &str, max: usize) -> String {
    let mut text = String::with_capacity(prompt.len().min(4 * MAX_CHARS));
    let (mut n, mut space) = (0, true);
    for c in normalize(prompt).chars() {
        if n == max {
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
    crate::sort::sort(&mut out);
    out.dedup();
    out
}

/// Of `candidates`, the grams that are some collection's vocabulary: held by at least
/// [`TOPIC_SHARE`] of its texts. Each item of `collections` is one instance's chunk texts.
pub fn topic_grams<I, T>(candidates: &BTreeSet<String>, collections: I) -> HashSet<String>
where
    I: IntoIterator<Item = T>,
    T: IntoIterator<Item = String>,
{
    let mut topic = HashSet::new();
    for texts in collections {
        let mut df: HashMap<&str, u32> = HashMap::new();
        let mut n = 0u32;
        for text in texts {
            n += 1;
            for g in text_grams(&text) {
                if let Some(g) = candidates.get(&g) {
                    *df.entry(g.as_str()).or_default() += 1;
                }
            }
        }
        let min = (TOPIC_SHARE * n as f64).max(1.0);
        topic.extend(df.into_iter().filter(|(_, c)| *c as f64 >= min).map(|(g, _)| g.to_string()));
    }
    topic
}

/// data/gate/phrasing.tsv as the build embeds it: from its `bias` line on, without the comment
/// header (what wrote the table, from which prompts) that only a reader of the file needs — the
/// header is evaluated away at compile time, ~0.4 KB gzipped off the browser wasm.
const BUNDLED: &str = {
    const FILE: &[u8] = include_bytes!("../../data/gate/phrasing.tsv");
    const START: usize = body_start(FILE);
    const BODY: [u8; FILE.len() - START] = tail(FILE);
    match std::str::from_utf8(&BODY) {
        Ok(text) => text,
        Err(_) => panic!("data/gate/phrasing.tsv is not UTF-8"),
    }
};

/// Where a table's first line that is neither a comment nor empty starts.
const fn body_start(file: &[u8]) -> usize {
    let mut at = 0;
    while at < file.len() && (file[at] == b'#' || file[at] == b'\n') {
        while at < file.len() && file[at] != b'\n' {
            at += 1;
        }
        at += 1;
    }
    if at > file.len() { file.len() } else { at }
}

/// The last `N` bytes of `file`.
const fn tail<const N: usize>(file: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = file[file.len() - N + i];
        i += 1;
    }
    out
}

impl Phrasing {
    /// The table bundled with the library (data/gate/phrasing.tsv), parsed once.
    pub fn bundled() -> &'static Phrasing {
        static TABLE: OnceLock<Phrasing> = OnceLock::new();
        TABLE.get_or_init(|| {
            // The file is part of the build and checked by a unit test; an unreadable copy would
            // only switch the feature off (every prompt scores the prior).
            Phrasing::parse(BUNDLED).unwrap_or_default()
        })
    }

    /// Fit a table on prompts labelled as about documents (`true`) or not, leaving out the grams
    /// `topic` names (the documents' own words: [`topic_grams`]).
    pub fn fit(samples: &[(&str, bool)], topic: &HashSet<String>) -> Phrasing {
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
        let mut grams = Vec::new();
        for (g, c) in counts {
            let w = (rate(c[1], 1) / rate(c[0], 0)).ln();
            if c[0] + c[1] >= MIN_PROMPTS && w.abs() >= MIN_WEIGHT && !topic.contains(&g) {
                grams.push((key(&g), quantise(w)));
            }
        }
        // Distinct grams (the map's keys), distinct keys: sorted by key alone is a total order.
        grams.sort_unstable_by_key(|g| g.0);
        let prior = if n[0] > 0 && n[1] > 0 { (n[1] as f64 / n[0] as f64).ln() } else { 0.0 };
        Phrasing { bias: quantise(prior), grams }
    }

    /// The prompt's score: prior + the weights of its grams, in natural-log odds (naive Bayes:
    /// overconfident, as the grams overlap).
    pub fn score(&self, prompt: &str) -> f64 {
        let (sum, _) = self.sum(prompt);
        sum as f64 / SCALE as f64
    }

    /// The gate feature: the mean weight of the prompt's grams found in the table, 0 when none is
    /// (the naive sum grows with the prompt's length; the mean says how the prompt reads; the
    /// judges carry their own prior). Exact integer arithmetic, one division.
    pub fn feature(&self, prompt: &str) -> f64 {
        let (sum, found) = self.sum(prompt);
        (sum - self.bias as i64) as f64 / (SCALE as i64 * found.max(1)) as f64
    }

    /// Prior + the weights of the prompt's distinct grams found in the table, and how many were.
    /// A gram the prompt repeats counts once: each table entry is marked when found.
    fn sum(&self, prompt: &str) -> (i64, i64) {
        let mut found = vec![false; self.grams.len()];
        let mut look = |k: u64| {
            if let Ok(at) = self.grams.binary_search_by_key(&k, |e| e.0) {
                found[at] = true;
            }
        };
        // The last two characters as a key's first two fields, and how many there were.
        let (mut last, mut n) = (0u64, 0);
        let char_mask = (1 << CHAR_BITS) - 1;
        for c in folded(prompt, MAX_CHARS).chars() {
            let c = c as u64 + 1;
            if n >= 2 {
                look((last << CHAR_BITS) | c);
            }
            if n >= 1 {
                look((last & char_mask) << (2 * CHAR_BITS) | c << CHAR_BITS);
            }
            last = (last & char_mask) << CHAR_BITS | c;
            n += 1;
        }
        let hits = self.grams.iter().zip(&found).filter(|e| *e.1);
        hits.fold((self.bias as i64, 0), |(sum, n), (k, _)| (sum + k.1 as i64, n + 1))
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
    /// in a gram a space is written `\s` and a backslash `\\`).
    pub fn to_tsv(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!("bias\t{}\n", self.bias));
        for (k, w) in &self.grams {
            let g = gram(*k);
            out.push_str(&format!("{}\t{w}\n", g.replace('\\', "\\\\").replace(' ', "\\s")));
        }
        out
    }

    /// Parse [`to_tsv`](Self::to_tsv)'s format.
    pub fn parse(tsv: &str) -> Result<Phrasing> {
        let bad = |line: usize, why: &str| Error::invalid("phrasing", format!("line {}: {why}", line + 1));
        let mut table = Phrasing::default();
        let mut seen_bias = false;
        for (i, line) in tsv.lines().enumerate() {
            // Comments only before the bias line: after it, a gram may start with '#'.
            if !seen_bias && (line.starts_with('#') || line.is_empty()) {
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
            if !seen_bias {
                return Err(bad(i, "the bias line comes first"));
            }
            let g = unescape(key).ok_or_else(|| bad(i, "a bad escape (\\s or \\\\)"))?;
            let n = g.chars().count();
            if !(2..=3).contains(&n) {
                return Err(bad(i, "a gram is 2 or 3 characters"));
            }
            let k = self::key(&g);
            match table.grams.binary_search_by_key(&k, |e| e.0) {
                Ok(_) => return Err(bad(i, "a gram is listed twice")),
                Err(at) => table.grams.insert(at, (k, w)),
            }
        }
        if !seen_bias {
            return Err(Error::invalid("phrasing", "no bias line"));
        }
        Ok(table)
    }
}

fn unescape(key: &str) -> Option<String> {
    let mut out = String::with_capacity(key.len());
    let mut chars = key.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push(' '),
            Some('\\') => out.push('\\'),
            _ => return None,
        }
    }
    Some(out)
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
        let t = Phrasing::fit(&samples, &HashSet::new());
        assert!(!t.is_empty());
        assert!(t.score("연구개발비 기준") > 0.0);
        assert!(t.score("초안 써줘") < 0.0);
        assert!(t.feature("초안 써줘") < 0.0 && t.feature("연구개발비 기준") > 0.0);
        assert_eq!(t.feature("zzz"), 0.0, "no gram found");
        assert!(t.score("zzz") > 0.0 - 1e-9, "the prior: as many of each");
        // The documents' own words are topic, not phrasing: left out.
        let docs = vec![vec!["연구개발비 정산".to_string()]];
        let topic = topic_grams(&grams("연구개발비 기준 써줘"), docs);
        assert!(topic.contains("연구") && topic.contains("개발비") && !topic.contains("써줘"));
        let t2 = Phrasing::fit(&samples, &topic);
        assert_eq!(t2.feature("연구개발비"), 0.0);
        assert!(t2.feature("초안 써줘") < 0.0);
        let back = Phrasing::parse(&t.to_tsv("test\ntable")).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn grams_with_comment_marks_spaces_and_backslashes_round_trip() {
        let mut grams = Vec::new();
        for (g, w) in [("#x", 1), ("c#", 2), ("a b", -3), ("\\s", 4), ("␠x", 5), ("\\\\", 6)] {
            grams.push((g.to_string(), w));
        }
        let t = Phrasing::new(3, grams);
        assert_eq!(Phrasing::parse(&t.to_tsv("a comment")).unwrap(), t);
    }

    impl Phrasing {
        /// A table of `grams` (distinct, each 2 or 3 characters) and `bias`.
        fn new(bias: i32, grams: Vec<(String, i32)>) -> Phrasing {
            let mut grams: Vec<(u64, i32)> = grams.iter().map(|(g, w)| (key(g), *w)).collect();
            grams.sort_unstable_by_key(|g| g.0);
            Phrasing { bias, grams }
        }
    }

    /// The sum as it was computed before the keys: every distinct gram of the prompt looked up by
    /// string.
    fn sum_by_strings(t: &Phrasing, prompt: &str) -> (i64, i64) {
        let table: Vec<(String, i32)> = t.grams.iter().map(|&(k, w)| (gram(k), w)).collect();
        let mut sum = t.bias as i64;
        let mut found = 0;
        for g in distinct(&folded(prompt, MAX_CHARS)) {
            if let Some((_, w)) = table.iter().find(|(x, _)| x == g) {
                sum += *w as i64;
                found += 1;
            }
        }
        (sum, found)
    }

    #[test]
    fn keyed_sum_is_the_sum_over_distinct_grams() {
        let t = Phrasing::bundled();
        // 2- and 3-grams that share their first characters, a character at the top of the range.
        let small = Phrasing::new(1, vec![("ab".into(), 2), ("aba".into(), 3), ("b\u{10FFFF}".into(), 5)]);
        assert_eq!(small.sum("abab"), (1 + 2 + 3, 2), "ab twice counts once");
        assert_eq!(small.sum("xb\u{10FFFF}"), (1 + 5, 1));
        assert_ne!(key("ab"), key("ab\0"));
        // In the grams' order, the keys are sorted (what the binary search needs).
        assert!(t.grams.windows(2).all(|w| w[0].0 < w[1].0));
        for g in ["ab", "aba", "b\u{10FFFF}", "가나", "\0a"] {
            assert_eq!(gram(key(g)), g);
        }
        assert!(key("ab") < key("aba") && key("abz") < key("ac") && key("z\u{10FFFF}") < key("\u{10FFFF}a"));
        assert_eq!(small.sum("a"), (1, 0));
        assert_eq!(small.sum("\u{10FFFF}\u{10FFFF}b\u{10FFFF}"), (1 + 5, 1));
        let mut g = crate::test_bits::Bits(11);
        let alphabet: Vec<char> = "요줘 나있어?ab() 써알려주세\n가".chars().collect();
        for len in 0..400u64 {
            let prompt: String =
                (0..len % 97).map(|_| alphabet[(g.next() % alphabet.len() as u64) as usize]).collect();
            assert_eq!(t.sum(&prompt), sum_by_strings(t, &prompt), "{prompt:?}");
            assert_eq!(small.sum(&prompt), sum_by_strings(&small, &prompt), "{prompt:?}");
        }
        for line in include_str!("../../data/gate/phrasing.tsv").lines() {
            assert_eq!(t.sum(line), sum_by_strings(t, line), "{line:?}");
        }
    }

    #[test]
    fn bad_tables_are_refused() {
        for bad in [
            "",
            "bias\tx",
            "bias\t1\nabcd\t2",
            "bias\t1\nab\t1\nab\t2",
            "bias\t1\nab",
            "bias\t99999999",
            "ab\t1\nbias\t1",
            "bias\t1\na\\x\t1",
        ] {
            assert!(Phrasing::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bundled_table_parses_and_is_not_empty() {
        let t = Phrasing::parse(include_str!("../../data/gate/phrasing.tsv")).unwrap();
        assert!(t.len() > 100);
        assert_eq!(&t, Phrasing::bundled());
        // The embedded copy is the file from its bias line on.
        let file = include_str!("../../data/gate/phrasing.tsv");
        assert!(BUNDLED.starts_with("bias\t") && file.ends_with(BUNDLED) && file.len() > BUNDLED.len());
    }

    #[test]
    fn the_header_ends_at_the_first_line_that_is_not_a_comment() {
        assert_eq!(body_start(b""), 0);
        assert_eq!(body_start(b"bias\t1\n"), 0);
        assert_eq!(body_start(b"# a\n\n# b\nbias\t1\n#x\t2\n"), 9);
        assert_eq!(body_start(b"# only a comment"), 16);
        assert_eq!(tail::<3>(b"abcdef"), *b"def");
    }
}
