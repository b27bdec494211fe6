//! Small talk: a prompt that is only a greeting, thanks, a farewell or an acknowledgement
//! ("hello, how are you?", "안녕하세요 반갑습니다", "ok thanks") asks nothing of any document.
//!
//! The judges cannot tell: "hello there" shares *hello* with the Python FAQ's hello-world pages
//! and was pushed their evidence; "안녕하세요 반갑습니다" ends like a document sentence and was
//! routed to pull. So the engine skips such a prompt before any index is searched (outcome
//! `small_talk`). The rule is narrow on purpose: every word must be one of the words below and at
//! least one of them a greeting, thanks or acknowledgement ([`CORE`]); one other word ("hello
//! *world*", "thanks, *how do I* …") and the prompt goes to the gate as before.

use crate::text::{korean, words_of};

/// Greetings, thanks, farewells and acknowledgements, separated by spaces: a prompt of small talk
/// holds one. Korean thanks, greetings and 부탁드립니다 go by [`korean::is_courtesy`].
const CORE: &str = "\
    afternoon awesome bye cheers evening goodbye greetings hello hey hi hiya howdy later morning nice \
    night nope ok okay please sup thank thanks thx ty welcome yeah yep yes 굿모닝 넵 안녕 안녕히 \
    알겠습니다 알겠어 알겠어요 오케이 좋아요";

/// Words that may stand beside them in small talk ("hello *there*", "*good* morning", "*how are
/// you*", "*잘 지내셨어요*"), separated by spaces.
const AROUND: &str = "\
    a again all am and are care day doing everyone fine folks for going good great guys help hope how i \
    is it lot meet much re s see so soon sounds take team the there to today too up very well what you \
    your 계세요 네 다들 많이 뵙겠습니다 여러분 오늘 오늘도 잘 정말 지내세요 \
    지내셨어요 지내요 진짜 처음 하세요";

/// Is `prompt` only small talk: every word one of [`CORE`] or [`AROUND`] (or a Korean greeting or
/// thanks), and at least one of them a greeting, thanks or acknowledgement?
pub fn is_small_talk(prompt: &str) -> bool {
    let mut core = false;
    for word in words_of(prompt) {
        let w = word.as_str();
        if listed(CORE, w) || korean::is_courtesy(w) {
            core = true;
        } else if !listed(AROUND, w) {
            return false;
        }
    }
    core
}

/// Is `word` one of the space-separated `list`? (A string, not a slice of strings: the browser
/// build is counted in bytes.)
fn listed(list: &str, word: &str) -> bool {
    list.split(' ').any(|w| w == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_single_spaced_words_and_apart() {
        for list in [CORE, AROUND] {
            assert!(list.split(' ').all(|w| !w.is_empty() && words_of(w) == [w]), "{list:?}");
        }
        assert!(CORE.split(' ').all(|w| !listed(AROUND, w)));
    }

    #[test]
    fn greetings_thanks_and_acknowledgements_are_small_talk() {
        for p in [
            "hello there",
            "Hello, how are you?",
            "hi! what's up",
            "Good morning, everyone",
            "thanks a lot for the help!",
            "ok thanks",
            "okay, see you soon",
            "good afternoon, hope you are well",
            "nice to meet you",
            "yes please",
            "you're welcome",
            "안녕하세요 반갑습니다",
            "안녕하세요? 잘 지내셨어요?",
            "잘 부탁드립니다",
            "수고하셨습니다",
            "네 알겠습니다",
            "좋아요 감사합니다",
            "고마워 정말",
            "오늘도 수고 많으셨어요",
        ] {
            assert!(is_small_talk(p), "{p}");
        }
    }

    #[test]
    fn a_word_of_substance_makes_it_a_prompt() {
        for p in [
            "hello world",
            "hello, how do I merge cells in Calc?",
            "thanks! what is the GIL?",
            "what is the help",
            "good night mode in Writer",
            "please explain the GIL",
            "how are you doing",
            "안녕하세요, 연구수당 상한이 궁금합니다",
            "감사 결과는 언제 나오나요",
            "수고비도 인건비로 잡나요?",
            "",
            "?!",
        ] {
            assert!(!is_small_talk(p), "{p}");
        }
    }
}
