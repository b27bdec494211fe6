//! The analyzer: text → index terms, the same for documents, queries and anchors.
//!
//! Steps: [`normalize`](super::normalize) (Hangul composition, width folding, lowercase); split into
//! words at every change between Hangul syllables, other letters/digits, and everything else
//! (`제1조의2` → 제, 1, 조의, 2); then per word:
//!
//! * **Hangul** — by [`KoreanMode`]: surface bigrams (the Anserini/Lucene CJK baseline), or bigrams of
//!   the word after [`korean::strip`](super::korean::strip) removed its particle or ending, optionally
//!   plus the stripped word itself. A one-syllable word (or stem) is its own term.
//! * **other letters/digits** — optional English stop-word removal and light stemming.
//!
//! The shipped default was chosen on the retrieval bench (`./build.sh bench`, ARCHITECTURE.md).
//! Every term remembers the index of the word it came from, so callers can count how many of a
//! query's *words* a hit covers, not how many of its bigrams.

use serde::{Deserialize, Serialize};

use super::{english, korean, normalize};

/// How Hangul words become terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum KoreanMode {
    /// Character bigrams of the surface word (the baseline: particles leak into bigrams).
    Bigram,
    /// The word with its particle/ending stripped, as one term.
    Stem,
    /// Character bigrams of the stripped word.
    StemBigram,
}

/// Analyzer settings; stored in every index so that queries are analyzed as the documents were.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalyzerSettings {
    /// How Hangul words become terms.
    pub korean: KoreanMode,
    /// Light English stemming ([`english::stem`]).
    pub english_stem: bool,
    /// Drop stop words ([`english::STOP_WORDS`], [`korean::STOP_WORDS`]).
    pub stop_words: bool,
    /// Also index the bigram that spans two adjacent Hangul words (the last syllable of one stem and
    /// the first of the next), so that 연구 수당 and 연구수당 share all their bigrams.
    pub join_words: bool,
}

impl AnalyzerSettings {
    /// The plain Hangul-bigram analyzer of `../shared/data/scripts/bm25_sanity.py`, kept as the
    /// baseline the bench compares against.
    pub const BASELINE: AnalyzerSettings = AnalyzerSettings {
        korean: KoreanMode::Bigram,
        english_stem: false,
        stop_words: false,
        join_words: false,
    };
}

impl Default for AnalyzerSettings {
    /// The shipped analyzer (chosen by measurement; see ARCHITECTURE.md).
    fn default() -> Self {
        AnalyzerSettings {
            korean: KoreanMode::StemBigram,
            english_stem: true,
            stop_words: true,
            join_words: true,
        }
    }
}

/// One index term and the word of the input it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The term.
    pub term: String,
    /// Index of the source word among the input's words (0-based, counting every word found,
    /// stop words included).
    pub word: u32,
}

/// Text → terms. Cheap to copy; holds only its settings (and, for queries, which words to skip).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Analyzer {
    settings: AnalyzerSettings,
    /// Skip colloquial filler words ([`korean::is_filler`]; queries only, never stored).
    fillers: bool,
    /// Skip words of courtesy ([`korean::is_courtesy`]; queries only, never stored).
    courtesy: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Hangul,
    Alnum,
    Other,
}

fn class(c: char) -> Class {
    if korean::is_hangul_syllable(c) {
        Class::Hangul
    } else if c.is_alphabetic() || c.is_ascii_digit() {
        Class::Alnum
    } else {
        Class::Other
    }
}

impl Analyzer {
    /// An analyzer with these settings.
    pub fn new(settings: AnalyzerSettings) -> Self {
        Analyzer { settings, fillers: false, courtesy: false }
    }

    /// The analyzer for a query: as the documents', skipping its words of courtesy (부탁드립니다,
    /// 감사합니다: [`korean::is_courtesy`]) with the join bigrams on either side of them.
    pub fn for_query(settings: AnalyzerSettings) -> Self {
        Analyzer { courtesy: true, ..Analyzer::new(settings) }
    }

    /// The same analyzer skipping a query's colloquial filler words (있어요, 돼 …:
    /// [`korean::is_filler`]) with the join bigrams on either side of them. For queries only:
    /// documents are always analyzed in full.
    pub fn without_fillers(self) -> Self {
        Analyzer { fillers: true, ..self }
    }

    /// The settings.
    pub fn settings(&self) -> AnalyzerSettings {
        self.settings
    }

    /// Analyze `text` into tokens, in order.
    pub fn analyze(&self, text: &str) -> Vec<Token> {
        let norm = normalize(text);
        let mut out = Vec::new();
        let mut word_no = 0u32;
        let mut prev_last: Option<char> = None;
        for (cls, word, spaced) in words(&norm) {
            match cls {
                Class::Hangul
                    if (self.fillers && korean::is_filler(word))
                        || (self.courtesy && korean::is_courtesy(word)) =>
                {
                    prev_last = None
                }
                Class::Hangul => {
                    let first = word.chars().next();
                    if let (true, true, Some(p), Some(f)) =
                        (self.settings.join_words, spaced, prev_last, first)
                    {
                        out.push(Token { term: format!("{p}{f}"), word: word_no });
                    }
                    prev_last = self.hangul(word, word_no, &mut out);
                }
                Class::Alnum if self.courtesy && english::is_courtesy(word) => prev_last = None,
                Class::Alnum => {
                    self.alnum(word, word_no, &mut out);
                    prev_last = None;
                }
                Class::Other => continue,
            }
            word_no += 1;
        }
        out
    }

    /// Just the terms of `text`.
    pub fn terms(&self, text: &str) -> Vec<String> {
        self.analyze(text).into_iter().map(|t| t.term).collect()
    }

    /// Emit a Hangul word's terms; returns the last syllable of its stem (for `join_words`).
    fn hangul(&self, word: &str, word_no: u32, out: &mut Vec<Token>) -> Option<char> {
        let mut push = |term: &str| out.push(Token { term: term.to_string(), word: word_no });
        let base = match self.settings.korean {
            KoreanMode::Bigram => word,
            KoreanMode::Stem => {
                let stem = korean::strip(word);
                push(stem);
                return stem.chars().next_back();
            }
            KoreanMode::StemBigram => korean::strip(word),
        };
        if self.settings.stop_words && korean::is_stop_word(base) {
            return None;
        }
        let last = base.chars().next_back();
        let idx: Vec<usize> = base.char_indices().map(|(i, _)| i).chain([base.len()]).collect();
        let n = idx.len() - 1;
        if n <= 1 {
            push(base);
            return last;
        }
        for w in idx.windows(3) {
            push(&base[w[0]..w[2]]);
        }
        last
    }

    fn alnum(&self, word: &str, word_no: u32, out: &mut Vec<Token>) {
        if self.settings.stop_words && english::is_stop_word(word) {
            return;
        }
        let term = if self.settings.english_stem { english::stem(word) } else { word.to_string() };
        out.push(Token { term, word: word_no });
    }
}

/// The words of `text` as the analyzer splits them, before they become terms: normalised
/// (lowercase), not stripped or stemmed. For matching whole names against a prompt
/// ([`names`](crate::gate::names)).
pub fn words_of(text: &str) -> Vec<String> {
    words(&normalize(text))
        .filter(|(cls, _, _)| *cls != Class::Other)
        .map(|(_, w, _)| w.to_string())
        .collect()
}

/// Split normalised text into (class, word, follows-the-previous-word-after-spaces-only) runs.
fn words(text: &str) -> impl Iterator<Item = (Class, &str, bool)> {
    let mut rest = text;
    let mut spaced = false;
    std::iter::from_fn(move || {
        loop {
            let mut it = rest.char_indices();
            let (_, first) = it.next()?;
            let cls = class(first);
            let end = it.find(|&(_, c)| class(c) != cls).map_or(rest.len(), |(i, _)| i);
            let (word, tail) = rest.split_at(end);
            rest = tail;
            if cls != Class::Other {
                let was = spaced;
                spaced = true;
                return Some((cls, word, was));
            }
            spaced = spaced && word.chars().all(|c| c == ' ');
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(settings: AnalyzerSettings, text: &str) -> Vec<String> {
        Analyzer::new(settings).terms(text)
    }

    #[test]
    fn baseline_matches_the_python_sanity_script() {
        // bm25_sanity.py: [0-9a-z]+ words whole, Hangul runs as bigrams, one syllable as itself.
        assert_eq!(
            terms(AnalyzerSettings::BASELINE, "감리원이 Python3 법"),
            ["감리", "리원", "원이", "python3", "법"]
        );
    }

    #[test]
    fn particles_do_not_hide_a_noun() {
        let a = Analyzer::default();
        let base = a.terms("감리원");
        for form in ["감리원이", "감리원을", "감리원에게는"] {
            assert_eq!(a.terms(form), base, "{form}");
        }
    }

    #[test]
    fn spacing_does_not_change_the_bigrams() {
        let a = Analyzer::default();
        let mut spaced = a.terms("연구 수당을");
        let mut joined = a.terms("연구수당");
        spaced.sort();
        joined.sort();
        assert_eq!(spaced, joined);
    }

    #[test]
    fn splits_classes_and_counts_words() {
        let a = Analyzer::default();
        let toks = a.analyze("제1조의2 the Keys");
        let words: Vec<_> = toks.iter().map(|t| (t.term.as_str(), t.word)).collect();
        assert_eq!(words, [("제", 0), ("1", 1), ("조의", 2), ("2", 3), ("key", 5)]);
    }

    #[test]
    fn decomposed_and_full_width_input_match() {
        let a = Analyzer::default();
        assert_eq!(a.terms("\u{1100}\u{1161}\u{11B7}\u{1105}\u{1175}"), a.terms("감리"));
        assert_eq!(a.terms("ＰＹＴＨＯＮ"), a.terms("python"));
    }

    #[test]
    fn a_query_can_skip_its_filler_words() {
        let a = Analyzer::new(AnalyzerSettings::default());
        let q = "영장 있어야 되는 거 맞지";
        assert!(a.terms(q).contains(&"있어".to_string()));
        let t = a.without_fillers().terms(q);
        assert!(t.contains(&"영장".to_string()) && t.contains(&"맞지".to_string()), "{t:?}");
        assert!(!t.iter().any(|x| x.contains('있') || x.contains('어')), "{t:?}");
        // Word numbers still count the skipped word.
        assert_eq!(a.without_fillers().analyze("영장 있어 맞지").last().map(|t| t.word), Some(2));
    }

    #[test]
    fn a_query_drops_its_words_of_courtesy_and_documents_keep_them() {
        let settings = AnalyzerSettings::default();
        let q = "협약 변경 절차 설명 부탁드립니다";
        let doc = Analyzer::new(settings).terms(q);
        assert!(doc.contains(&"드립".to_string()) && doc.contains(&"명부".to_string()), "{doc:?}");
        let query = Analyzer::for_query(settings).terms(q);
        // The word's bigrams and the join bigram before it are gone; the rest is as in a document.
        assert!(!query.iter().any(|x| x.contains('드') || x.contains('립') || x == "명부"), "{query:?}");
        assert_eq!(query, Analyzer::new(settings).terms("협약 변경 절차 설명"));
        // With the fillers skipped too, both go.
        let both = Analyzer::for_query(settings).without_fillers().terms("영장 있어요? 감사합니다");
        assert_eq!(both, Analyzer::new(settings).terms("영장"));
        // English alike: "please" gives no query terms; a document keeps it. Thanks stay (english.rs).
        let en = "Please explain file reading in Python, kindly";
        assert_eq!(
            Analyzer::for_query(settings).terms(en),
            Analyzer::new(settings).terms("explain file reading in Python")
        );
        assert_eq!(
            Analyzer::new(settings).terms(en).len(),
            Analyzer::for_query(settings).terms(en).len() + 2
        );
    }

    #[test]
    fn words_of_gives_the_normalised_words() {
        assert_eq!(words_of("프랑스의 대통령은 Running U.S."), ["프랑스의", "대통령은", "running", "u", "s"]);
        assert!(words_of(" …! ").is_empty());
    }

    #[test]
    fn empty_and_symbol_only_input_give_no_terms() {
        let a = Analyzer::default();
        assert!(a.terms("").is_empty());
        assert!(a.terms("?!… ①②").is_empty());
    }
}
