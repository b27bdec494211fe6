//! How common words are in general text, outside any instance's documents: the background that
//! tells a domain word (frequent in the documents, rare in general text — 연구수당, 피벗, dict) from
//! an everyday word (점심, 메뉴, email), for the gate's `specificity` feature.
//!
//! The word lists (`data/background/*.tsv`, from PyPI `wordfreq`; see its README) are analysed at
//! build time with the index's own analyzer. A term's frequency is the sum of the frequencies of
//! the words that produce it (a Hangul bigram stands for every word containing it), stored per
//! term as one byte — a *level*, Zipf × [`LEVEL_SCALE`] (Zipf = log10 of occurrences per billion
//! words), 0 for a term no listed word produces. The runtime reads levels from the index; nothing
//! here is in the wasm but [`zipf`].

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::text::Analyzer;

/// Levels per Zipf unit (a level is Zipf × this, rounded; 0 = not in the lists).
pub const LEVEL_SCALE: f64 = 20.0;

/// The Zipf frequency of a level (`None` for 0: in none of the general word lists).
pub fn zipf(level: u8) -> Option<f64> {
    (level > 0).then(|| level as f64 / LEVEL_SCALE)
}

/// The level of a frequency per word (a share of all words, e.g. 1e-5).
pub fn level(freq: f64) -> u8 {
    if freq.is_nan() || freq <= 0.0 {
        return 0;
    }
    ((freq.log10() + 9.0) * LEVEL_SCALE).round().clamp(1.0, 255.0) as u8
}

/// Parse a word list: one `word<TAB>zipf` per line (blank lines skipped); `origin` names the list
/// in errors.
pub fn parse(origin: &str, text: &str) -> Result<Vec<(String, f64)>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = || Error::input(format!("{origin}:{}", n + 1), "expected `word<TAB>zipf`");
        let (word, z) = line.split_once('\t').ok_or_else(bad)?;
        let z: f64 = z.trim().parse().map_err(|_| bad())?;
        if word.is_empty() || !(0.0..=12.0).contains(&z) {
            return Err(bad());
        }
        out.push((word.to_string(), z));
    }
    Ok(out)
}

/// Share of adjacent morpheme pairs that are written together (within one eojeol): the
/// [`term_levels`] estimate of a Hangul bigram that spans two morphemes. Korean lists count
/// morphemes (있, 는, 습니다), not the words a prompt is written in (있는), so a bigram across
/// a stem and its ending is produced by no listed word.
const WRITTEN_TOGETHER: f64 = 0.5;

/// A boundary estimate below this Zipf frequency is not stored (such a bigram is rare in general
/// text either way; the cut keeps the map at ~0.2 M entries).
const BOUNDARY_MIN_ZIPF: f64 = 2.0;

/// Term levels for an index analysed by `analyzer`: every word's frequency added to each term it
/// produces; a Hangul bigram `ab` also gets the frequency of morpheme `…a` followed by morpheme
/// `b…` (the listed words ending in `a` times those starting with `b`, times
/// [`WRITTEN_TOGETHER`]), so that 있는, 하는, 같은 count as the everyday words they are.
/// Deterministic (words in list order, sums in that order).
pub fn term_levels(analyzer: &Analyzer, words: &[(String, f64)]) -> BTreeMap<String, u8> {
    let mut freq: BTreeMap<String, f64> = BTreeMap::new();
    let mut ends: BTreeMap<char, f64> = BTreeMap::new();
    let mut starts: BTreeMap<char, f64> = BTreeMap::new();
    for (word, z) in words {
        let f = 10f64.powf(z - 9.0);
        let mut terms = analyzer.terms(word);
        terms.sort_unstable();
        terms.dedup();
        for t in terms {
            *freq.entry(t).or_default() += f;
        }
        if word.chars().all(crate::text::korean::is_hangul_syllable)
            && let (Some(first), Some(last)) = (word.chars().next(), word.chars().last())
        {
            *ends.entry(last).or_default() += f;
            *starts.entry(first).or_default() += f;
        }
    }
    let min = 10f64.powf(BOUNDARY_MIN_ZIPF - 9.0);
    for (&a, &fa) in &ends {
        for (&b, &fb) in &starts {
            let f = WRITTEN_TOGETHER * fa * fb;
            if f >= min {
                *freq.entry(format!("{a}{b}")).or_default() += f;
            }
        }
    }
    freq.into_iter().map(|(t, f)| (t, level(f))).collect()
}

/// The bundled Korean and English lists (`data/background/`), parsed.
#[cfg(feature = "ingest")]
pub fn bundled() -> Result<Vec<(String, f64)>> {
    let mut out = parse("data/background/ko.tsv", include_str!("../../data/background/ko.tsv"))?;
    out.extend(parse("data/background/en.tsv", include_str!("../../data/background/en.tsv"))?);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_zipf_and_reject_nothing_valid() {
        assert_eq!(level(0.0), 0);
        assert_eq!(level(f64::NAN), 0);
        assert_eq!(level(1e-5), 80); // Zipf 4
        assert_eq!(zipf(80), Some(4.0));
        assert_eq!(zipf(0), None);
        assert_eq!(level(1e5), 255);
    }

    #[test]
    fn parse_reports_the_bad_line() {
        assert_eq!(parse("t", "a\t3.5\n\nb\t4\n").unwrap(), [("a".to_string(), 3.5), ("b".to_string(), 4.0)]);
        let e = parse("t", "a\t3.5\nb 4\n").unwrap_err();
        assert!(e.to_string().contains("t:2"), "{e}");
        assert!(parse("t", "a\tNaN").is_err());
    }

    #[test]
    fn a_bigram_sums_the_words_that_contain_it() {
        let a = Analyzer::default();
        let words = vec![("연구".to_string(), 5.0), ("연구원".to_string(), 4.0)];
        let l = term_levels(&a, &words);
        // 연구 is produced by both words: 1e-4 + 1e-5.
        assert_eq!(l["연구"], level(1.1e-4));
        assert_eq!(l["구원"], level(1e-5));
    }

    #[test]
    fn a_bigram_across_two_morphemes_is_estimated_from_both() {
        let a = Analyzer::default();
        // Morphemes as Korean lists count them: 있는 is written, never listed.
        let words = vec![("있".to_string(), 7.0), ("는".to_string(), 7.0), ("연구".to_string(), 5.0)];
        let l = term_levels(&a, &words);
        // 있 ends 1e-2 of the words, 는 starts 1e-2: half of 1e-4 written together.
        assert_eq!(l["있는"], level(WRITTEN_TOGETHER * 1e-2 * 1e-2));
        // 구 (end of 연구, 1e-4) before 있 (1e-2): 5e-7, Zipf 2.7, kept; 구연 is 5e-9, not stored.
        assert_eq!(l["구있"], level(WRITTEN_TOGETHER * 1e-4 * 1e-2));
        assert!(!l.contains_key("구연"));
        // A listed word's bigram adds its boundary estimate, here none: no word ends in 연.
        assert_eq!(l["연구"], level(1e-4));
    }

    #[cfg(feature = "ingest")]
    #[test]
    fn the_bundled_lists_parse_and_know_common_words() {
        let words = bundled().unwrap();
        assert!(words.len() > 50_000);
        let l = term_levels(&Analyzer::default(), &words);
        assert!(l["방법"] > 100 && l["time"] > 100, "{:?} {:?}", l.get("방법"), l.get("time"));
    }
}
