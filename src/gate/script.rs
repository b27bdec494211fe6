//! The language the documents' readers write their prompts in — a rule above the gate's judges
//! ([`Judgement`](super::Judgement)`::other_language`).
//!
//! A manifest may say who asks about its documents: `prompt_language = "ko"` (stored in the
//! index, section `prompt_language`). A prompt then written without a single Hangul syllable — an
//! English coding task, a code snippet — is not about these documents, whatever the judges say:
//! the judges see word matches, and the Korean LibreOffice help is more than half English by its
//! letters (untranslated passages, the API's names), so "In JavaScript, turn this list of objects
//! into a dictionary" and "React: how do I debounce a text input" were judged relevant to it and
//! got its pages as evidence. Korean is the only language the rule can tell today ([`LANGUAGES`]);
//! an index without the setting is never affected, nor is a prompt with any Hangul syllable.

/// The prompt languages a manifest may name.
pub const LANGUAGES: [&str; 1] = ["ko"];

/// Is `prompt` written without Hangul: Latin letters and not one Hangul syllable?
pub fn without_hangul(prompt: &str) -> bool {
    let mut latin = false;
    for c in prompt.chars() {
        if crate::text::korean::is_hangul_syllable(c) {
            return false;
        }
        latin |= c.is_ascii_alphabetic();
    }
    latin
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_without_hangul_has_latin_letters_and_no_syllable() {
        assert!(without_hangul("React: how do I debounce a text input?"));
        assert!(without_hangul("x = [1, 2]; x[0] += 1"));
        assert!(!without_hangul("VLOOKUP 함수 쓰는 법"));
        assert!(!without_hangul("헌법 제20조"));
        // No letters at all, or another script: nothing to say.
        assert!(!without_hangul("1 + 1 = ?"));
        assert!(!without_hangul("日本国憲法"));
        assert!(!without_hangul(""));
    }
}
