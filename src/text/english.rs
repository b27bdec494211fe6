//! English: light stemming and stop words.
//!
//! A light, conservative suffix stemmer in the spirit of Harman's S-stemmer (1991), extended with
//! `-ing`, `-ed`, `-ies`/`-ied` and a few derivational endings (`-ly` was tried and dropped: it
//! cost LibreOffice-help accuracy on the bench). It conflates the forms a user
//! types with the forms a document uses (keys/key, running/run, defined/define) without Porter's
//! over-stemming (university/universe). Index and query go through the same function, so consistency
//! matters more than linguistic accuracy. Written here (about 60 lines) instead of pulling in a
//! multi-language Snowball crate whose tables would dominate the wasm download.

/// Common English function words, never indexed: they carry no evidence and would inflate the
/// query-term coverage that the sufficiency gate measures.
pub const STOP_WORDS: &[&str] = &[
    "a", "about", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do",
    "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me",
    "my", "of", "on", "or", "our", "should", "so", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "to", "was", "we", "were", "what", "when", "where", "which", "who",
    "why", "will", "with", "would", "you", "your",
];

/// Is `word` (lowercase) a stop word?
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Is `word` (lowercase) the courtesy an English prompt wraps its request in ("please")? Skipped in
/// queries only ([`Analyzer::for_query`](super::Analyzer::for_query)), as Korean's
/// [`is_courtesy`](super::korean::is_courtesy): "… in Python, please" otherwise finds the FAQ's
/// "please contribute". Documents keep it. Thanks are not in the list, unlike Korean's: in English
/// they are mostly a turn of their own ("thanks, that worked!"), which without them would be a
/// bare "worked" that the judges read as a keyword query (measured: docs/gate-bench.md).
pub fn is_courtesy(word: &str) -> bool {
    matches!(word, "please" | "pls" | "plz" | "kindly")
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

fn has_vowel(s: &str) -> bool {
    s.bytes().any(is_vowel)
}

/// Undo a doubled final consonant left by `-ing`/`-ed` (runn → run), except l, s, z.
fn undouble(s: &str) -> &str {
    let b = s.as_bytes();
    let n = b.len();
    if n >= 3 && b[n - 1] == b[n - 2] && !is_vowel(b[n - 1]) && !matches!(b[n - 1], b'l' | b's' | b'z') {
        &s[..n - 1]
    } else {
        s
    }
}

/// Stem a lowercase ASCII word; other words are returned unchanged.
pub fn stem(word: &str) -> String {
    if !word.is_ascii() || word.len() <= 3 || word.bytes().any(|b| b.is_ascii_digit()) {
        return word.to_string();
    }
    let mut w: &str = word;
    let owned: String;
    // Plurals and third person.
    if let Some(s) = w.strip_suffix("ies").or_else(|| w.strip_suffix("ied")) {
        if s.len() >= 2 {
            owned = format!("{s}y");
            w = &owned;
        }
    } else if w.ends_with("sses") || w.ends_with("xes") || w.ends_with("ches") || w.ends_with("shes") {
        w = &w[..w.len() - 2];
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w = &w[..w.len() - 1];
    }
    // -ing / -ed / -ly, when a vowel stays in the stem.
    for suffix in ["ing", "ed"] {
        if let Some(s) = w.strip_suffix(suffix)
            && s.len() >= 3
            && has_vowel(s)
        {
            return undouble(s).trim_end_matches('e').to_string();
        }
    }
    // Derivational endings that users and documents swap freely.
    for (suffix, repl) in [("ational", "ate"), ("ization", "ize"), ("fulness", "ful"), ("iveness", "ive")] {
        if let Some(s) = w.strip_suffix(suffix)
            && s.len() >= 2
        {
            return format!("{s}{repl}").trim_end_matches('e').to_string();
        }
    }
    if w.len() > 4 { w.trim_end_matches('e').to_string() } else { w.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, STOP_WORDS);
        assert!(is_stop_word("the") && !is_stop_word("python"));
    }

    #[test]
    fn conflates_inflections() {
        assert_eq!(stem("keys"), stem("key"));
        assert_eq!(stem("running"), stem("run"));
        assert_eq!(stem("defined"), stem("define"));
        assert_eq!(stem("libraries"), stem("library"));
        assert_eq!(stem("classes"), stem("class"));
        assert_eq!(stem("shared"), stem("share"));
        assert_eq!(stem("sharing"), stem("share"));
    }

    #[test]
    fn leaves_short_and_non_ascii_words() {
        assert_eq!(stem("is"), "is");
        assert_eq!(stem("gas"), "gas");
        assert_eq!(stem("python3"), "python3");
        assert_eq!(stem("naïve"), "naïve");
        assert_eq!(stem("status"), "status");
    }
}
