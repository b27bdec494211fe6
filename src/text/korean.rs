//! Dictionary-free Korean suffix stripping.
//!
//! Korean writes a noun and its particle (josa) or a verb stem and its ending (eomi) as one
//! space-separated word: 감리원이, 감리원을, 감리원에게는; 제출하여야, 제출한다. A whitespace tokenizer
//! sees four different words where a reader sees one. [`strip`] removes the longest known particle or
//! ending from the end of a Hangul word, at most twice (기관들에게 → 기관들 → 기관), and never leaves
//! fewer syllables than the suffix allows:
//!
//! * a particle whose form depends on the preceding sound is only stripped after the right sound:
//!   이/은/을/으로 after a final consonant, 가/는/를/와 after a vowel, 로 after a vowel or ㄹ — so
//!   평가, 단가, 마을 and 경로 stay whole while 감리원이, 연구자가, 기술료로 lose their particle;
//! * one-syllable particles that also end many nouns (의, 도, 과, 만: 회의, 제도, 성과, 미만) and
//!   one-syllable verb endings (한, 할, 함, 임 …: 제한, 연구책임) are never stripped alone;
//! * longer suffixes (에서는, 하여야, 되었다 …) may leave a single syllable.
//!
//! The list is closed and short (about 150 entries) instead of a 20–30 MB morphological dictionary;
//! its worth is measured by the retrieval bench (ARCHITECTURE.md, "Analyzer").

/// What the syllable before a suffix must look like. Korean particles come in pairs chosen by the
/// preceding sound (이/가, 은/는, 을/를, 으로/로, 과/와): checking it keeps nouns that merely end in a
/// particle's syllable (평가, 단가, 마을, 경로) whole.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    /// Any syllable.
    Any,
    /// A syllable with a final consonant (batchim).
    Consonant,
    /// A syllable without a final consonant.
    Vowel,
    /// No final consonant, or final ㄹ (로 after 길, 물 …).
    VowelOrRieul,
}

/// Suffixes, tried longest first: (suffix, minimum syllables left, condition on the syllable
/// before). Single syllables that end many nouns (의, 도, 과, 만, 한, 임 …) are deliberately absent.
const SUFFIXES: &[(&str, usize, After)] = &[
    ("하여야한다", 1, After::Any),
    ("되어야한다", 1, After::Any),
    ("하여서는", 1, After::Any),
    ("하였으나", 1, After::Any),
    ("하였으며", 1, After::Any),
    ("해야하는", 1, After::Any),
    ("하였는지", 1, After::Any),
    ("하도록", 1, After::Any),
    ("되도록", 1, After::Any),
    ("으로부터", 1, After::Consonant),
    ("에서부터", 1, After::Any),
    ("에게서는", 1, After::Any),
    ("으로서는", 1, After::Consonant),
    ("으로써는", 1, After::Consonant),
    ("하였습니다", 1, After::Any),
    ("되었습니다", 1, After::Any),
    ("하였다", 1, After::Any),
    ("되었다", 1, After::Any),
    ("하여야", 1, After::Any),
    ("되어야", 1, After::Any),
    ("합니다", 1, After::Any),
    ("됩니다", 1, After::Any),
    ("입니다", 1, After::Any),
    ("습니다", 1, After::Any),
    ("인가요", 1, After::Any),
    ("한가요", 1, After::Any),
    ("하나요", 1, After::Any),
    ("되나요", 1, After::Any),
    ("할까요", 1, After::Any),
    ("될까요", 1, After::Any),
    ("하는지", 1, After::Any),
    ("되는지", 1, After::Any),
    ("인지요", 1, After::Any),
    ("에서는", 1, After::Any),
    ("에서도", 1, After::Any),
    ("에서의", 1, After::Any),
    ("에게는", 1, After::Any),
    ("에게도", 1, After::Any),
    ("에게서", 1, After::Any),
    ("으로는", 1, After::Consonant),
    ("으로도", 1, After::Consonant),
    ("으로서", 1, After::Consonant),
    ("으로써", 1, After::Consonant),
    ("이라는", 1, After::Any),
    ("이라고", 1, After::Any),
    ("이라도", 1, After::Any),
    ("까지는", 1, After::Any),
    ("부터는", 1, After::Any),
    ("에대한", 1, After::Any),
    ("에관한", 1, After::Any),
    ("에따라", 1, After::Any),
    ("에따른", 1, After::Any),
    ("하면서", 1, After::Any),
    ("되면서", 1, After::Any),
    ("시키는", 1, After::Any),
    ("시킨다", 1, After::Any),
    ("하거나", 1, After::Any),
    ("되거나", 1, After::Any),
    ("하기로", 1, After::Any),
    ("하려면", 1, After::Any),
    ("되려면", 1, After::Any),
    ("하는데", 1, After::Any),
    ("에서", 1, After::Any),
    ("에게", 1, After::Any),
    ("으로", 1, After::Consonant),
    ("부터", 1, After::Any),
    ("까지", 1, After::Any),
    ("처럼", 1, After::Any),
    ("보다", 1, After::Any),
    ("마다", 1, After::Any),
    ("이나", 2, After::Any),
    ("이며", 2, After::Any),
    ("이고", 2, After::Any),
    ("이란", 1, After::Consonant),
    ("이다", 2, After::Any),
    ("라는", 2, After::Any),
    ("라고", 2, After::Any),
    ("에는", 1, After::Any),
    ("에도", 1, After::Any),
    ("와의", 1, After::Any),
    ("과의", 1, After::Any),
    ("로서", 1, After::Any),
    ("로써", 1, After::Any),
    ("로는", 1, After::Any),
    ("로도", 1, After::Any),
    ("만을", 1, After::Any),
    ("만의", 1, After::Any),
    ("들이", 1, After::Any),
    ("들은", 1, After::Any),
    ("들을", 1, After::Any),
    ("들의", 1, After::Any),
    ("들에", 1, After::Any),
    ("하여", 1, After::Any),
    ("하고", 1, After::Any),
    ("하는", 1, After::Any),
    ("하며", 1, After::Any),
    ("하면", 1, After::Any),
    ("하지", 1, After::Any),
    ("하기", 1, After::Any),
    ("하게", 1, After::Any),
    ("한다", 1, After::Any),
    ("했다", 1, After::Any),
    ("해서", 1, After::Any),
    ("해야", 1, After::Any),
    ("해도", 1, After::Any),
    ("되는", 1, After::Any),
    ("되어", 1, After::Any),
    ("되며", 1, After::Any),
    ("되고", 1, After::Any),
    ("되면", 1, After::Any),
    ("되지", 1, After::Any),
    ("되기", 1, After::Any),
    ("된다", 1, After::Any),
    ("됐다", 1, After::Any),
    ("돼야", 1, After::Any),
    ("나요", 1, After::Any),
    ("까요", 1, After::Any),
    ("는지", 1, After::Any),
    ("인가", 2, After::Any),
    ("인지", 2, After::Any),
    ("인데", 2, After::Any),
    ("에요", 2, After::Any),
    ("예요", 2, After::Any),
    ("해줘", 1, After::Any),
    ("해요", 1, After::Any),
    ("해주", 1, After::Any),
    ("하다", 1, After::Any),
    ("되다", 1, After::Any),
    ("란", 1, After::Vowel),
    ("은", 1, After::Consonant),
    ("는", 1, After::Vowel),
    ("을", 1, After::Consonant),
    ("를", 1, After::Vowel),
    ("에", 1, After::Any),
    ("이", 1, After::Consonant),
    ("가", 1, After::Vowel),
    ("로", 1, After::VowelOrRieul),
    ("와", 1, After::Vowel),
    ("들", 2, After::Any),
];

fn fits(stem: &str, after: After) -> bool {
    let Some(last) = stem.chars().next_back().filter(|&c| is_hangul_syllable(c)) else {
        return after == After::Any;
    };
    let coda = (last as u32 - 0xAC00) % 28;
    match after {
        After::Any => true,
        After::Consonant => coda != 0,
        After::Vowel => coda == 0,
        After::VowelOrRieul => coda == 0 || coda == 8,
    }
}

/// Korean function words and the stems left by bare verb endings (하는지 → 하), never indexed.
/// Sorted (binary search).
pub const STOP_WORDS: &[&str] =
    &["것", "그", "되", "등", "때", "또", "또는", "및", "어떤", "어떻게", "없", "이", "있", "저", "하"];

/// Is `stem` a Korean stop word?
pub fn is_stop_word(stem: &str) -> bool {
    STOP_WORDS.binary_search(&stem).is_ok()
}

/// Colloquial endings a query's filler word may carry ([`is_filler`]).
const FILLER_ENDINGS: &[&str] = &["어요", "아요", "어야", "아야", "요"];
/// What a filler word is once its colloquial ending is gone: forms of 있다, 없다 and 되다.
const FILLER_STEMS: &[&str] = &["돼", "되", "없", "없어", "있", "있어"];

/// Is the Hangul `word` a colloquial form of 있다 / 없다 / 되다 (있어, 있어요, 있어야, 없어, 돼, 돼요)?
/// [`strip`] leaves such words as bigrams (있어, 어요) that match the few chunks written in the same
/// spoken style (a case book's questions, a help page's "있어야 합니다") instead of the subject of the
/// question. Only queries drop them (`search::Ranking::fillers`); documents are indexed as before.
pub fn is_filler(word: &str) -> bool {
    let base = FILLER_ENDINGS
        .iter()
        .find_map(|e| word.strip_suffix(e).filter(|rest| !rest.is_empty()))
        .unwrap_or(word);
    FILLER_STEMS.contains(&base)
}

/// Is the Hangul `word` the courtesy a prompt wraps its question in: a request made with 부탁
/// (부탁드립니다, 부탁해요), thanks (감사합니다, 고맙습니다) or a greeting (안녕하세요, 반갑습니다,
/// 수고 많으십니다)? Their bigrams (드립, 립니, 니다) match the few chunks that address the reader
/// ("알려드립니다") and nothing the question is about; a polite request's best hit in the R&D
/// manuals was such a chunk, and the gate found the request unrelated, and a greeting in front of a
/// Korean question cost a tenth of the pushed gold (docs/gate-bench.md, "Small talk"). Only these
/// finished forms: 부탁받은 (asked a favour), 감사하는 (auditing) and 안녕 (공공의 안녕: public
/// order) can be what a question is about. Queries drop them in every ranking
/// (`Analyzer::for_query`); documents are indexed as before.
pub fn is_courtesy(word: &str) -> bool {
    ["부탁드", "감사드", "고맙", "고마워", "안녕하", "반갑", "반가워", "수고하"]
        .iter()
        .any(|p| word.starts_with(p))
        || COURTESY.contains(&word)
}

/// [`is_courtesy`]'s forms of 부탁하다 and 감사하다 (the forms with 드리다 go by their prefix), and
/// 수고 (많으십니다): the greeting of an inquiry letter.
const COURTESY: &[&str] = &[
    "부탁합니다",
    "부탁해요",
    "부탁해",
    "부탁할게요",
    "부탁하며",
    "감사합니다",
    "감사하겠습니다",
    "감사해요",
    "감사했습니다",
    "수고",
    "수고많으십니다",
    "많으십니다",
    "많으세요",
    "많으셨습니다",
    "많으셨어요",
];

/// Is `c` a precomposed Hangul syllable (U+AC00–U+D7A3)?
pub fn is_hangul_syllable(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

/// Strip up to two particles or endings from a word of Hangul syllables. Returns a suffix of the
/// input's prefix (a sub-slice); the input itself when nothing applies.
pub fn strip(word: &str) -> &str {
    let once = strip_once(word);
    if once.len() == word.len() { once } else { strip_once(once) }
}

fn strip_once(word: &str) -> &str {
    let Some(&last) = word.as_bytes().last() else { return word };
    let syllables = word.chars().count();
    // Only the suffixes ending in the word's last byte can match, in list order: the same first
    // match as a scan of all 139 (a long prompt's evidence passages strip thousands of words).
    for &i in by_last_byte().get(last as usize).map_or(&[][..], Vec::as_slice) {
        let Some(&(suffix, min_left, after)) = SUFFIXES.get(i as usize) else { continue };
        if let Some(stem) = word.strip_suffix(suffix) {
            let left = syllables - suffix.chars().count();
            if left >= min_left && left > 0 && fits(stem, after) {
                return stem;
            }
        }
    }
    word
}

/// [`SUFFIXES`]' positions by their last byte, in list order (made at first use).
fn by_last_byte() -> &'static [Vec<u8>] {
    static INDEX: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = vec![Vec::new(); 256];
        for (i, (suffix, _, _)) in SUFFIXES.iter().enumerate() {
            if let (Some(&b), Ok(i)) = (suffix.as_bytes().last(), u8::try_from(i))
                && let Some(list) = index.get_mut(b as usize)
            {
                list.push(i);
            }
        }
        index
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_by_last_byte_finds_what_a_scan_finds() {
        // strip_once looks only at suffixes ending in the word's last byte: exact only if none is
        // empty and every one is indexed.
        assert!(SUFFIXES.iter().all(|(s, _, _)| !s.is_empty()) && SUFFIXES.len() <= 256);
        assert_eq!(by_last_byte().iter().map(Vec::len).sum::<usize>(), SUFFIXES.len());
        fn scan(word: &str) -> &str {
            let syllables = word.chars().count();
            for &(suffix, min_left, after) in SUFFIXES {
                if let Some(stem) = word.strip_suffix(suffix) {
                    let left = syllables - suffix.chars().count();
                    if left >= min_left && left > 0 && fits(stem, after) {
                        return stem;
                    }
                }
            }
            word
        }
        let stems = ["", "감리원", "법", "제출", "회의", "a", "연구기관", "사"];
        for stem in stems {
            for (suffix, _, _) in SUFFIXES {
                for tail in ["", "는", "을"] {
                    let w = format!("{stem}{suffix}{tail}");
                    assert_eq!(strip_once(&w), scan(&w), "{w}");
                }
            }
            assert_eq!(strip_once(stem), scan(stem), "{stem}");
        }
    }

    #[test]
    fn particles_do_not_hide_the_noun() {
        for w in ["감리원이", "감리원을", "감리원에게", "감리원에게는", "감리원은", "감리원으로"]
        {
            assert_eq!(strip(w), "감리원", "{w}");
        }
        assert_eq!(strip("연구기관들에게"), "연구기관");
        assert_eq!(strip("법은"), "법");
    }

    #[test]
    fn endings_leave_the_verbal_noun() {
        assert_eq!(strip("제출하여야"), "제출");
        assert_eq!(strip("제출한다"), "제출");
        assert_eq!(strip("지급되는"), "지급");
        assert_eq!(strip("사용하는"), "사용");
        assert_eq!(strip("연구자가"), "연구자");
        assert_eq!(strip("기술료로"), "기술료");
    }

    #[test]
    fn short_nouns_ending_like_particles_survive() {
        for w in [
            "회의",
            "정의",
            "차이",
            "정도",
            "경우",
            "기관",
            "법",
            "연구성과",
            "과제평가",
            "사용제한",
            "연구책임",
            "마을",
            "경로",
            "사전협의",
        ] {
            assert_eq!(strip(w), w);
        }
    }

    #[test]
    fn courtesy_is_requests_and_thanks_not_their_content_senses() {
        for w in [
            "부탁드립니다",
            "부탁드려요",
            "부탁해요",
            "부탁합니다",
            "감사합니다",
            "감사드리며",
            "고맙습니다",
            "고마워요",
            "안녕하세요",
            "안녕하십니까",
            "반갑습니다",
            "반가워요",
            "수고",
            "수고하세요",
            "많으십니다",
        ] {
            assert!(is_courtesy(w), "{w}");
            assert!(!is_filler(w), "{w}");
        }
        // 부탁받은 (asked a favour), 감사 / 감사하는 (an audit, auditing), 드립니다 alone, 안녕 (public
        // order), 수고비 (a fee), 많으신가요 (are there many).
        for w in [
            "부탁",
            "부탁받은",
            "감사",
            "감사하는",
            "감사원",
            "드립니다",
            "고마",
            "있어요",
            "안녕",
            "수고비",
            "많으신가요",
        ] {
            assert!(!is_courtesy(w), "{w}");
        }
    }

    #[test]
    fn fillers_are_colloquial_forms_of_three_verbs() {
        for w in ["있어", "있어요", "있어야", "없어", "없어요", "돼", "돼요", "있"] {
            assert!(is_filler(w), "{w}");
        }
        for w in ["있음", "없음", "영장", "어요", "요", "있나요", "되나요", "맞아요", "받아야"]
        {
            assert!(!is_filler(w), "{w}");
        }
    }

    #[test]
    fn hangul_range() {
        assert!(is_hangul_syllable('가') && is_hangul_syllable('힣'));
        assert!(!is_hangul_syllable('ㄱ') && !is_hangul_syllable('a'));
    }
}
