//! The router's text signals: is this input a question a person typed, or pasted document text?
//!
//! The field report's sharpest finding: pasted document sentences, when pushed evidence, got the
//! gold source only 22 % of the time, and the wrong evidence made the model answer wrongly with
//! confidence. So sentences go to pull from the start. The report proposed signals but never
//! tested them; this module implements them as explicit, named rules (no trained model) and the
//! route-eval bench measures them.
//!
//! Signals, each reported by name when it fires:
//!
//! * sentence — `<pasted_content>` wrapper; several sentences or line-broken text; clause markers
//!   (제N조, ①, `1.`, `가.`); document endings on the last clause (~한다, ~하여야 한다, ~함, ~임,
//!   ~됨, ~할 것, ~습니다. …); quotation of the whole input; an English declarative sentence.
//! * question — a final `?`; interrogative endings (~나요, ~까요, ~습니까, ~는지, ~인가요 …);
//!   request endings a person types (~주세요, ~줘, ~해 줘, ~알려줘, ~부탁해요 …); question words
//!   (무엇, 어떻게, 몇, 왜 …; what, how, why …); English requests (explain …, please …); a short
//!   keyword query with no sentence ending (연구수당 상한).
//!
//! Strong signals decide alone; otherwise the signals are weighed, and a tie goes to question
//! (the safe side: a question that is pulled still gets an answer).

use serde::{Deserialize, Serialize};

/// The form of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// A question or request a person typed.
    Question,
    /// Pasted document text, a declarative or imperative sentence.
    Sentence,
}

/// The verdict on an input's form.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormVerdict {
    /// Question or sentence.
    pub form: Form,
    /// 0.5 (a coin toss) … 1.0 (a strong signal decided).
    pub confidence: f64,
    /// The signals that fired, e.g. `question:final_question_mark`, `sentence:document_ending`.
    pub signals: Vec<String>,
}

const QUESTION_WORDS_KO: &[&str] = &[
    "무엇",
    "뭐",
    "뭔",
    "뭘",
    "무슨",
    "어떻게",
    "어떤",
    "어떠",
    "어느",
    "어디",
    "언제",
    "왜",
    "누가",
    "누구",
    "몇",
    "얼마",
    "어째서",
    "어찌",
];

const QUESTION_WORDS_EN: &[&str] = &[
    "what", "how", "why", "when", "where", "who", "whom", "whose", "which", "can", "could", "is", "are",
    "do", "does", "did", "should", "would", "will", "may", "might", "shall", "am", "was", "were", "have",
    "has",
];

/// How a person opens an English question in the first person (I want to …, not sure whether …,
/// looking for a way to …): documents do not speak so. Matched on the input's first words.
const INTENT_OPENERS_EN: &[&str] = &[
    "i want",
    "i need",
    "i'd like",
    "i would like",
    "i'm trying",
    "i am trying",
    "trying to understand",
    "trying to figure",
    "i'm looking",
    "i am looking",
    "looking for",
    "i can't",
    "i cannot",
    "can't figure",
    "cannot figure",
    "not sure",
    "i'm not sure",
    "need help",
    "i'm wondering",
    "i am wondering",
    "wondering",
    "i wonder",
    "i was told",
    "i heard",
    "any idea",
    "any way",
    "is there a way",
];

const REQUEST_VERBS_EN: &[&str] = &[
    "explain",
    "tell",
    "show",
    "give",
    "list",
    "help",
    "find",
    "describe",
    "summarize",
    "summarise",
    "compare",
    "please",
    "define",
    "clarify",
    "recommend",
    "suggest",
    "walk",
    "teach",
    "look",
    "check",
    "write",
    "fix",
    "make",
    "create",
    "translate",
    "draft",
    "convert",
    "refactor",
    "plan",
    "proofread",
    "review",
];

/// Endings of a question, on the last word (after trailing punctuation is removed).
const QUESTION_ENDINGS: &[&str] = &[
    "나요",
    "까요",
    "까",
    "니까",
    "습니까",
    "ㅂ니까",
    "가요",
    "는지",
    "은지",
    "을지",
    "ㄹ지",
    "인지",
    "는가",
    "은가",
    "인가",
    "냐",
    "니",
    "죠",
    "지요",
    "을까",
    "ㄹ까",
    "래",
    "래요",
    "어때",
    "어때요",
    "인가요",
    "건가요",
    "건지",
    "되나",
    "되나요",
    "하나",
    "하나요",
    "되죠",
    "되니",
    "맞죠",
    "뭐야",
    "뭐지",
    "뭔가요",
    "거야",
    "건가",
    "려면",
    "으려면",
    // A clause that stops at its topic particle asks about the topic (…의 이름은? / 기한은).
    "은",
    "는",
    "은요",
    "는요",
    "이란",
    "란",
    "한가",
    "한가요",
];

/// Nouns that end a how-to request typed as a noun phrase (엑셀 합치는 법, 포트 찾는 명령어, 빔에는
/// 슬라이드만 나오게 하는 거, 조례를 만들 수 있는 헌법 근거).
const HOWTO_NOUNS: &[&str] = &[
    "법",
    "방법",
    // … 내주는 조항: the reader looks for the article that says so.
    "조항",
    "조문",
    "명령어",
    "패턴",
    "코드",
    "예제",
    "방안",
    "요령",
    "순서",
    "차이",
    "뜻",
    "의미",
    "거",
    "근거",
];

/// Last syllables of a casual verb ending (필요해, 받아, 이뤄져, 였어): not a bare noun.
const VERB_FINAL: &[char] = &[
    '아', '어', '해', '여', '져', '워', '와', '줘', '봐', '야', '지', '네', '래', '게', '고', '서', '냐',
    '니',
];

/// Polite or casual endings that end questions and statements alike (써도 돼요 / 좋아요): a weak
/// question signal, which a question word or a question mark confirms.
const AMBIGUOUS_ENDINGS: &[&str] = &[
    "요",
    "야",
    "돼",
    "해도",
    "있어",
    "없어",
    "맞아",
    "나",
    "지",
    "되지",
    "해도돼",
    "예요",
    "에요",
    "이에요",
];

/// Endings of a statement about something experienced or observed (좋았어요, 나왔네요, 같아요).
const STATEMENT_ENDINGS: &[&str] = &[
    "었어요",
    "았어요",
    "였어요",
    "했어요",
    "웠어요",
    "겠어요",
    "네요",
    "군요",
    "거든요",
    "같아요",
    "같네요",
    "더라고요",
    "더라구요",
    "었어",
    "았어",
    "했어",
    "었음",
    "았음",
    "했음",
    "드립니다",
    "드려요",
    "습니다만",
];

const REQUEST_ENDINGS: &[&str] = &[
    "주세요",
    "줘",
    "줘요",
    "주라",
    "주십시오",
    "주실래요",
    "주시겠어요",
    "주시오",
    "주셔요",
    "주실",
    "줄래",
    "줄래요",
    "부탁해",
    "부탁해요",
    "부탁드려요",
    "부탁드립니다",
    "부탁합니다",
    "싶어",
    "싶어요",
    "싶습니다",
    "싶은데",
    "싶은데요",
    "궁금해",
    "궁금해요",
    "궁금합니다",
    "궁금",
    // The inquiry forms of letters to an office (민원): asking, in the first person.
    "문의드립니다",
    "문의드려요",
    "문의합니다",
    "문의해요",
    "질문드립니다",
    "질문드려요",
    "질문합니다",
    "여쭙니다",
    "여쭤봅니다",
    "여쭤요",
    "여쭤봐요",
    "모르겠습니다",
    "모르겠어요",
    "모르겠어",
    "모르겠다",
    "모르겠네요",
    "헷갈립니다",
    "걱정됩니다",
    "걱정돼요",
    "걱정되네요",
    "걱정이에요",
    "걱정입니다",
    "헷갈려요",
    "헷갈려",
    "헷갈리네요",
    "궁금하네요",
    "궁금한데",
    "궁금한데요",
    "궁금하던데",
    "궁금합니다만",
    "싶네요",
    "싶음",
    "부탁",
    "알려줘",
    "해줘",
    "봐줘",
    "보여줘",
    "정리해줘",
    "설명해줘",
    "알려주세요",
    "해주세요",
    "볼래",
    "봐",
    "봐요",
    "해봐",
    "해봐요",
    "할래",
    "할래요",
];

/// Document endings: declarative or prescriptive forms of statutes, manuals and reports.
const DOCUMENT_ENDINGS: &[&str] = &[
    "다", "함", "임", "음", "됨", "것", "바람", "요함", "있음", "없음", "가능", "불가", "필요", "원칙",
    "경우", "해당", "포함", "제외", "등",
];

/// Verbal nouns that close the bullet sentences of official documents (… 우선 설정할 것을 권고,
/// … 제출 요망): on a long clause they mark pasted document text, not a keyword query.
const DOCUMENT_NOUNS: &[&str] =
    &["권고", "요망", "금지", "준수", "시행", "실시", "추진", "의무화", "허용", "통보", "조치", "명시"];

/// Verb forms that ask the assistant to produce something (써, 만들어, 번역해 …) when a request
/// ending follows (써 줘, 만들어주세요): a writing, coding or office task, not a question about
/// documents. 정리해 / 설명해 / 알려 / 요약해 / 바꿔 / 뽑아 / 그려 (and create / generate) are left
/// out: people ask documents that way too (관련 조항만 뽑아줘, Generate random numbers …).
const CREATE_STEMS: &[&str] = &["써", "작성해", "만들어", "짜", "번역해", "다듬어", "추천해", "지어"];
/// Request endings after a [`CREATE_STEMS`] form.
const CREATE_ENDINGS: &[&str] =
    &["줘", "줘요", "주세요", "줄래", "줄래요", "주실래요", "주시겠어요", "주라", "봐", "봐요"];
/// English verbs that open a request to produce something.
const CREATE_VERBS_EN: &[&str] = &["write", "translate", "draft", "compose", "proofread", "rewrite"];

/// Does the input ask the assistant to produce something — write, make, translate, draft (써 줘,
/// 코드 짜줘, 만들어 주세요, "Write a …", "Translate …", also after a topic label: "Python: write a
/// function …", "Excel 365: write a LAMBDA …")? Such a task is rarely answered by documents; the
/// gate weighs it as one feature (`creation`).
pub fn creation_request(input: &str) -> bool {
    let words: Vec<&str> = input.split_whitespace().map(strip_trailing).collect();
    // The first word opens the request, or the first after a label of up to four words.
    let label = input.split_whitespace().take(4).position(|w| w.ends_with(':')).map_or(0, |p| p + 1);
    for w in [words.first(), words.get(label)].into_iter().flatten() {
        if CREATE_VERBS_EN.contains(&w.trim_end_matches(',').to_ascii_lowercase().as_str()) {
            return true;
        }
    }
    let ends = |w: &str| {
        CREATE_ENDINGS
            .iter()
            .any(|e| w.strip_suffix(e).is_some_and(|r| CREATE_STEMS.iter().any(|s| r.ends_with(s))))
    };
    words.iter().enumerate().any(|(i, w)| {
        ends(w) || (i > 0 && CREATE_ENDINGS.contains(w) && ends(&format!("{}{w}", words[i - 1])))
    })
}

/// Whole words that only carry a Korean question's or request's form (있나요, 돼요, 알려줘), beyond
/// the ending lists above.
const FORM_WORDS_KO: &[&str] = &[
    "있나요",
    "있어요",
    "있을까요",
    "있는지",
    "없나요",
    "없어요",
    "해요",
    "돼요",
    "되요",
    "될까요",
    "되는지",
    "하는지",
    "맞나요",
    "맞아요",
    "맞죠",
    "좀",
    "혹시",
];

/// Verbs that only say "tell me" before a request ending (알려줘, 찾아 주세요, 설명해줘).
const FORM_STEMS: &[&str] = &["알려", "찾아", "보여", "설명", "정리", "가르쳐", "말해", "말"];

/// Is this word (trailing punctuation removed) only the form of a Korean question or request — a
/// question word (어떻게, 몇), a whole ending (되나요, 주세요), or a "tell me" verb with a request
/// ending (찾아줘, 설명해주세요: [`FORM_STEMS`])?
fn is_form_word(word: &str) -> bool {
    let w = strip_trailing(word);
    if w.is_empty() {
        return false;
    }
    let whole = |list: &[&str]| list.contains(&w);
    if whole(QUESTION_WORDS_KO)
        || whole(QUESTION_ENDINGS)
        || whole(AMBIGUOUS_ENDINGS)
        || whole(REQUEST_ENDINGS)
        || whole(FORM_WORDS_KO)
    {
        return true;
    }
    // A request ending after a form verb only (찾아줘, 설명해주세요, 알려 줘); 병합해줘 keeps 병합.
    match ends_with_any(w, REQUEST_ENDINGS) {
        Some(e) => {
            let stem = w[..w.len() - e.len()].trim_end_matches('해');
            stem.is_empty() || FORM_STEMS.contains(&stem)
        }
        None => false,
    }
}

/// The input without the words that only carry a Korean question's or request's form
/// ([`is_form_word`]): what the gate's judges weigh (the search itself sees the whole input). An
/// input made of form words alone is returned whole.
pub fn content_words(input: &str) -> String {
    // Joined by hand: `[&str]::join` would be a second copy of `join` next to `[String]`'s.
    let mut kept = String::with_capacity(input.len());
    for w in input.split_whitespace().filter(|w| !is_form_word(w)) {
        if !kept.is_empty() {
            kept.push(' ');
        }
        kept.push_str(w);
    }
    if kept.is_empty() { input.to_string() } else { kept }
}

fn strip_trailing(s: &str) -> &str {
    s.trim_end_matches(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '.' | '!'
                    | '?'
                    | '？'
                    | '~'
                    | '…'
                    | '"'
                    | '\''
                    | '”'
                    | '’'
                    | ')'
                    | ']'
                    | '」'
                    | '』'
                    | '^'
                    | ';'
                    | ':'
            )
            || (c as u32) >= 0x1F300
            || matches!(c, 'ㅠ' | 'ㅜ' | 'ㅎ' | 'ㅋ')
    })
}

fn last_word(s: &str) -> &str {
    s.rsplit(char::is_whitespace).next().unwrap_or(s)
}

fn ends_with_any(word: &str, list: &[&str]) -> Option<String> {
    list.iter().filter(|e| word.ends_with(**e)).max_by_key(|e| e.len()).map(|e| e.to_string())
}

/// Count sentence ends inside the text (., 다., ?, ! followed by more text).
fn sentence_ends(s: &str) -> usize {
    let chars: Vec<char> = s.trim().chars().collect();
    let mut n = 0;
    for (i, c) in chars.iter().enumerate() {
        if matches!(c, '.' | '?' | '!' | '。') {
            let next_is_space = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
            let prev_is_digit = i > 0 && chars[i - 1].is_ascii_digit();
            let next_is_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if next_is_space && !prev_is_digit && !next_is_digit {
                n += 1;
            }
        }
    }
    n
}

fn has_clause_marker(s: &str) -> bool {
    let t = s.trim_start();
    if t.chars().any(|c| ('\u{2460}'..='\u{2473}').contains(&c)) {
        return true;
    }
    if starts_with_article(t) {
        return true;
    }
    s.lines().any(|l| {
        let l = l.trim_start();
        let mut it = l.chars();
        match (it.next(), it.next()) {
            (Some(d), Some('.' | ')')) if d.is_ascii_digit() => it.next().is_some_and(char::is_whitespace),
            (Some(k), Some('.')) if "가나다라마바사아자차카타파하".contains(k) => true,
            (Some('-' | '•' | '∙' | '·' | '※' | '○' | '□' | '■'), _) => l.chars().count() > 20,
            _ => false,
        }
    })
}

/// Verbs of telling, explaining and answering, the stems of a request to the reader that is an
/// inquiry (알려 주시기 바랍니다) and not a document's instruction (기재해 주시기 바랍니다).
const TELL_STEMS: &[&str] = &["알려", "설명해", "설명", "답변해", "답변", "안내해", "가르쳐"];

/// An inquiry phrase of two or three words closing `body` ([`classify`]): …알려 주시기 바랍니다,
/// …알려주셨으면 합니다, …알려주시면 감사하겠습니다, 확인 요청드립니다, 문의가 있습니다. Official
/// letters and guides close with the same last words (기재해 주시기 바랍니다, 협조하여 주시면
/// 감사하겠습니다, 면제를 요청합니다), so the word before must ask to be *told*.
fn inquiry_phrase(body: &str) -> Option<String> {
    let hangul =
        |w: &str| -> String { w.chars().filter(|c| crate::text::korean::is_hangul_syllable(*c)).collect() };
    let mut words = body.split_whitespace().rev();
    let last = words.next()?;
    let prev = hangul(words.next()?);
    let before = words.next().map(hangul).unwrap_or_default();
    // The verb and its auxiliary, written together or apart: 알려주시기 / 알려 주시기.
    let tells = |aux: &[&str]| {
        aux.iter().any(|a| {
            prev.strip_suffix(*a).is_some_and(|stem| {
                let stem = if stem.is_empty() { before.as_str() } else { stem };
                TELL_STEMS.iter().any(|t| stem.ends_with(*t))
            })
        })
    };
    let found = match last {
        "바랍니다" | "바래요" => {
            tells(&["주시기", "해주시기"]) || matches!(prev.as_str(), "답변" | "안내" | "설명")
        }
        "합니다" | "해요" => tells(&["주셨으면", "줬으면"]) || prev == "알았으면",
        "감사하겠습니다" | "감사하겠어요" | "감사합니다" => tells(&["주시면", "주신다면"]),
        "요청드립니다" | "요청드려요" => {
            matches!(prev.as_str(), "확인" | "답변" | "설명" | "안내")
        }
        "있습니다" | "있어요" => matches!(prev.as_str(), "문의가" | "질문이"),
        _ => false,
    };
    found.then(|| format!("{prev} {last}"))
}

/// The ending of the first clause inside `text` (not at its end) that closes with a question
/// mark after a question or request ending (되나요?, 알려줘?), if any.
fn question_clause_inside(text: &str) -> Option<String> {
    let body = text.trim_end();
    let mut from = 0;
    while let Some(i) = body[from..].find(['?', '？']).map(|i| from + i) {
        let mark = body[i..].chars().next().map_or(1, char::len_utf8);
        from = i + mark;
        if body[from..].trim_start_matches(['?', '？', '!']).trim().is_empty() {
            return None;
        }
        let w: String = last_word(strip_trailing(&body[..i]))
            .chars()
            .filter(|c| crate::text::korean::is_hangul_syllable(*c))
            .collect();
        if let Some(e) = ends_with_any(&w, QUESTION_ENDINGS).or_else(|| ends_with_any(&w, REQUEST_ENDINGS)) {
            return Some(e);
        }
    }
    None
}

/// Does the prompt ask for a statute article — 조항, 조문, 몇 조, 제N조, "article N"? On an
/// instance whose hits carry articles this says the prompt asks *where in these documents*
/// (the gate's `article_ask` feature).
pub fn asks_article(input: &str) -> bool {
    let t: String = crate::text::lowercase(input);
    if t.contains("조항") || t.contains("조문") {
        return true;
    }
    let words: Vec<&str> =
        t.split(|c: char| !crate::text::is_alphanumeric(c)).filter(|w| !w.is_empty()).collect();
    words.windows(2).any(|w| {
        (w[0] == "몇" && w[1].starts_with('조'))
            || (w[0] == "article" && w[1].chars().all(|c| c.is_ascii_digit()))
            || (w[0] == "which" && w[1] == "article")
    }) || words.iter().any(|w| starts_with_article(w) || w.starts_with("몇조"))
}

/// Does `s` start with an article reference such as `제3조` (a statute citation)?
pub fn starts_with_article(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('제') else { return false };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with('조')
}

/// Classify the form of `input`.
pub fn classify(input: &str) -> FormVerdict {
    let mut q = 0.0f64;
    let mut s = 0.0f64;
    let mut sig: Vec<String> = Vec::new();
    let mut fire = |side: &str, name: &str, w: f64, q: &mut f64, s: &mut f64| {
        if side == "q" {
            *q += w;
            sig.push(format!("question:{name}"));
        } else {
            *s += w;
            sig.push(format!("sentence:{name}"));
        }
    };
    let text = input.trim();
    let lower = crate::text::lowercase(text);
    // Strong signals.
    if lower.contains("<pasted_content") || lower.contains("<pasted-content") {
        fire("s", "pasted_content", 10.0, &mut q, &mut s);
    }
    let mut body = strip_trailing(text);
    // A closing parenthetical is a citation or a note, not the clause's ending: …있음(…무관).
    if text.trim_end().ends_with(')')
        && let Some(i) = body.rfind('(')
    {
        body = strip_trailing(&body[..i]);
    }
    let n_words = body.split_whitespace().count();
    let final_q = text
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ')' | '”'))
        .ends_with(['?', '？']);
    if final_q {
        fire("q", "final_question_mark", 4.0, &mut q, &mut s);
    }
    // A question clause inside, then more text: context or details after the question (…줘도
    // 되나요? 수료생은 아니고 졸업 예정입니다). Pasted passages rarely ask; their several sentences
    // then say nothing about pasting.
    let asked_inside = if final_q { None } else { question_clause_inside(text) };
    if let Some(e) = &asked_inside {
        fire("q", &format!("question_clause_inside:{e}"), 4.0, &mut q, &mut s);
    } else if !final_q && text.contains(['?', '？']) {
        fire("q", "question_mark_inside", 2.5, &mut q, &mut s);
    }
    // A request before a colon, then the material it is about: "번역해줘: …", "Proofread: …".
    if let Some((head, _)) = text.split_once([':', '：']) {
        let h = strip_trailing(head);
        let hw: String =
            last_word(h).chars().filter(|c| crate::text::korean::is_hangul_syllable(*c)).collect();
        let first = crate::text::lowercase(h.split_whitespace().next().unwrap_or(""));
        if h.chars().count() <= 60
            && (ends_with_any(&hw, REQUEST_ENDINGS).is_some() || REQUEST_VERBS_EN.contains(&first.as_str()))
        {
            fire("q", "request_before_colon", 4.0, &mut q, &mut s);
        }
    }
    if text.chars().count() <= 200 {
        let clauses: Vec<&str> =
            text.split(['.', ',', '\n']).map(str::trim).filter(|c| !c.is_empty()).collect();
        if clauses.len() >= 2 {
            let hit = clauses[..clauses.len() - 1].iter().find_map(|c| {
                let w: String = last_word(strip_trailing(c))
                    .chars()
                    .filter(|ch| crate::text::korean::is_hangul_syllable(*ch))
                    .collect();
                ends_with_any(&w, REQUEST_ENDINGS)
            });
            if let Some(e) = hit {
                fire("q", &format!("request_then_details:{e}"), 3.0, &mut q, &mut s);
            }
        }
    }
    // Lines indented like code (a tab, four spaces) are code pasted into a question, not a
    // passage's lines.
    let lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(['\t']) && !l.starts_with("    "))
        .count();
    if lines >= 3 {
        fire("s", "line_broken_passage", 3.0, &mut q, &mut s);
    }
    let ends = sentence_ends(text);
    if ends >= 2 && !final_q && asked_inside.is_none() {
        fire("s", "several_sentences", 2.0, &mut q, &mut s);
    }
    if has_clause_marker(text) {
        fire("s", "clause_marker", 2.0, &mut q, &mut s);
    }
    let quoted = (text.starts_with('"') && text.ends_with('"'))
        || (text.starts_with('“') && text.ends_with('”'))
        || (text.starts_with('「') && text.ends_with('」'));
    if quoted && text.chars().count() > 12 {
        fire("s", "quotation", 3.0, &mut q, &mut s);
    }
    // Two-word inquiry phrases whose last word alone reads as a document's (…주시기 바랍니다,
    // 알려주셨으면 합니다, 문의가 있습니다): guides say 참고하시기 바랍니다 to their reader, so
    // 바랍니다 alone stays a document ending.
    if let Some(p) = inquiry_phrase(body) {
        fire("q", &format!("inquiry_phrase:{p}"), 4.5, &mut q, &mut s);
    }
    // The last clause.
    let last = last_word(body);
    let hangul_last =
        last.chars().rev().take_while(|c| crate::text::korean::is_hangul_syllable(*c)).count() > 0;
    if hangul_last {
        let lw: String = last.chars().filter(|c| crate::text::korean::is_hangul_syllable(*c)).collect();
        if let Some(e) = ends_with_any(&lw, REQUEST_ENDINGS) {
            fire("q", &format!("request_ending:{e}"), 4.0, &mut q, &mut s);
        } else if let Some(e) = ends_with_any(&lw, QUESTION_ENDINGS) {
            fire("q", &format!("question_ending:{e}"), 3.0, &mut q, &mut s);
        } else if let Some(e) = ends_with_any(&lw, STATEMENT_ENDINGS) {
            fire("s", &format!("statement_ending:{e}"), 2.0, &mut q, &mut s);
        } else if let Some(e) = ends_with_any(&lw, DOCUMENT_ENDINGS) {
            let w = if e == "다" && body.ends_with("다") && text.ends_with('.') { 3.5 } else { 2.5 };
            fire("s", &format!("document_ending:{e}"), w, &mut q, &mut s);
        } else if let Some(e) = ends_with_any(&lw, AMBIGUOUS_ENDINGS) {
            fire("q", &format!("ambiguous_ending:{e}"), 1.0, &mut q, &mut s);
        } else if (n_words >= 6 || body.chars().count() >= 35)
            && let Some(e) = DOCUMENT_NOUNS.iter().find(|n| lw.ends_with(**n))
        {
            // A long clause closed by an official document's verbal noun (… 설정할 것을 권고).
            fire("s", &format!("document_noun_ending:{e}"), 2.5, &mut q, &mut s);
        } else if let Some(e) = HOWTO_NOUNS
            .iter()
            .find(|n| lw.ends_with(**n))
            .filter(|n| !matches!(**n, "조항" | "조문") || sentence_ends(text) == 0)
        {
            fire("q", &format!("howto_noun:{e}"), 2.5, &mut q, &mut s);
        } else if lw.chars().next_back().is_some_and(|c| VERB_FINAL.contains(&c)) {
            fire("q", "casual_verb_ending", 1.0, &mut q, &mut s);
        } else if n_words >= 6 || body.chars().count() >= 35 {
            // A long clause ending in a bare noun: the bullet style of official documents
            // (… 정성평가 중심의 평가 실시). Short ones are keyword queries (below).
            fire("s", "noun_ending_statement", 2.0, &mut q, &mut s);
        }
    }
    // Question words anywhere (Korean: at a word start; English: the first word).
    let words: Vec<&str> =
        lower.split(|c: char| !crate::text::is_alphanumeric(c)).filter(|w| !w.is_empty()).collect();
    if let Some(w) = words.iter().find(|w| QUESTION_WORDS_KO.iter().any(|k| w.starts_with(k))) {
        fire("q", &format!("question_word:{w}"), 1.5, &mut q, &mut s);
    }
    let ascii_words: Vec<&&str> = words.iter().filter(|w| w.is_ascii()).collect();
    let mostly_english = ascii_words.len() * 2 > words.len() && !hangul_last;
    if mostly_english {
        let last_sentence = crate::text::lowercase(
            text.trim_end_matches(['.', ' ']).rsplit(['.', '!', '\n']).next().unwrap_or(""),
        );
        let last_first = last_sentence
            .split(|c: char| !crate::text::is_alphanumeric(c))
            .find(|w| !w.is_empty())
            .unwrap_or("");
        let opener = {
            let t = lower.trim_start().replace('’', "'");
            INTENT_OPENERS_EN.iter().find(|o| {
                t.strip_prefix(**o).is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ':', ',']))
            })
        };
        if let Some(o) = opener {
            fire("q", &format!("intent:{o}"), 3.0, &mut q, &mut s);
        } else if let Some(first) = words.first() {
            if REQUEST_VERBS_EN.contains(&last_first) && !REQUEST_VERBS_EN.contains(first) {
                fire("q", &format!("request:{last_first}"), 3.0, &mut q, &mut s);
            } else if QUESTION_WORDS_EN.contains(&last_first) && !QUESTION_WORDS_EN.contains(first) {
                fire("q", &format!("question_word:{last_first}"), 2.5, &mut q, &mut s);
            } else if QUESTION_WORDS_EN.contains(first) {
                fire("q", &format!("question_word:{first}"), 2.5, &mut q, &mut s);
            } else if REQUEST_VERBS_EN.contains(first) || words.contains(&"please") {
                fire("q", &format!("request:{first}"), 3.0, &mut q, &mut s);
            } else if text.ends_with('.') && words.len() >= 6 {
                fire("s", "english_declarative", 2.5, &mut q, &mut s);
            }
        }
    }
    // A short keyword query: no sentence ending at all.
    let n_chars = text.chars().count();
    if q == 0.0 && s == 0.0 && n_chars <= 40 && (1..=6).contains(&words.len()) {
        fire("q", "keyword_query", 1.0, &mut q, &mut s);
    }
    if n_chars > 300 && !final_q {
        fire("s", "long_passage", 1.5, &mut q, &mut s);
    }
    let form = if s > q { Form::Sentence } else { Form::Question };
    let total = q + s;
    let confidence = if total == 0.0 { 0.5 } else { 0.5 + 0.5 * (q - s).abs() / total };
    FormVerdict { form, confidence: (confidence * 1000.0).round() / 1000.0, signals: sig }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(s: &str) -> Form {
        classify(s).form
    }

    #[test]
    fn creation_requests() {
        for t in [
            "회의록 초안 좀 써 줘",
            "이메일 주소 검증하는 정규식 짜줘.",
            "슬로건 다섯 개 지어줘",
            "발표 자료 만들어 주세요",
            "Write a haiku about Mondays",
            "translate this into Korean: 안녕하세요",
            "Python: write a function that flattens a nested dictionary",
            "Power Pivot in Excel: write a DAX measure for year-over-year growth",
        ] {
            assert!(creation_request(t), "{t}");
        }
        for t in [
            "연구수당 상한 알려줘",
            "협약 변경 절차 정리해 줘",
            "연구노트는 꼭 써야 하나요?",
            "How do I write a function with output parameters?",
            "보고서를 써서 내야 하나요",
            "관련 조항만 뽑아줘",
            "Generate random numbers in Python",
            "Python: how do I write a function with output parameters?",
            "a very long question about many things before its colon: write it",
            "",
        ] {
            assert!(!creation_request(t), "{t}");
        }
    }

    #[test]
    fn content_words_drop_only_the_form() {
        assert_eq!(content_words("정당 해산 절차 조항 찾아줘"), "정당 해산 절차 조항");
        assert_eq!(
            content_words("연구실 운영비로 살 수 있는 것 좀 정리해 줄래?"),
            "연구실 운영비로 살 수 있는 것 정리해"
        );
        assert_eq!(content_words("협약은 며칠 안에 맺어야 하나요"), "협약은 며칠 안에 맺어야");
        assert_eq!(content_words("간접비 비율이 어떻게 돼요?"), "간접비 비율이");
        assert_eq!(content_words("설명해주세요 연구수당"), "연구수당");
        assert_eq!(content_words("셀 병합해줘"), "셀 병합해줘");
        assert_eq!(content_words("중복 값 삭제해 주세요"), "중복 값 삭제해");
        assert_eq!(content_words("PDF로 변환해줘"), "PDF로 변환해줘");
        // Content before a request ending stays (more than two syllables), English is untouched,
        // and a prompt of form words alone is kept whole.
        assert_eq!(content_words("계획서를수정해줘"), "계획서를수정해줘");
        assert_eq!(content_words("Explain the GIL, please"), "Explain the GIL, please");
        assert_eq!(content_words("어떻게 해요?"), "어떻게 해요?");
        assert_eq!(content_words(""), "");
    }

    #[test]
    fn questions_with_and_without_question_marks() {
        for q in [
            "감리원이 되려면 어떤 자격이 필요한가요?",
            "감리원이 되려면 어떤 자격이 필요한가요",
            "연구수당 상한",
            "제재처분 제척기간",
            "과제평가 방식에는 어떤 종류가 있는지 알려줘",
            "근로3권 내용 정리해줘",
            "협약은 며칠 안에 맺어야 하나요",
            "같은 죄로 두 번 처벌 못 받는다는 조항 몇 조야",
            "Why can't I use a list as a dict key",
            "looking for a way to copy an object in python.",
            "I want to convert a string to a number in python.",
            "Trying to understand why python strings are immutable.",
            "Not sure whether python has a ternary operator.",
            "Need help: python fails to start on windows with a missing dll.",
            "explain the GIL",
            "calc 행 높이 조절",
            "연구비 카드 대신 법인카드 써도 돼요",
            "지방자치단체가 자체 조례 같은 걸 만들 수 있는 헌법 근거",
            "발표할 때 내 노트북에는 메모가 보이고 빔에는 슬라이드만 나오게 하는 거",
            "대통령이 외국에 군대를 보낼 때 국회 동의를 받아야 한다는 조항",
            "정산 끝나고 돌려받는 돈이 있는 건지 아니면 더 내야 하는 건지 너무 걱정됩니다",
            "Python raises a TypeError when my handler runs:\n\n    def on_term():\n        cleanup()\n\nwhat am I doing wrong",
        ] {
            assert_eq!(form(q), Form::Question, "{q}: {:?}", classify(q));
        }
    }

    #[test]
    fn polite_requests_are_questions() {
        for q in [
            "제출 기한을 알려 주세요",
            "절차 좀 설명해 주시겠어요",
            "이거 정리 부탁드립니다",
            "근거 조항 찾아줘",
            "협약 변경 절차 문의드립니다.",
            "간접비 비율에 대해 여쭤봅니다.",
            "인건비 정산 방법 질문드립니다",
            "국교 조항이 있는지 알려주시면 감사하겠습니다.",
            "장비 구매를 어떻게 해야 할지 모르겠습니다.",
            "연구노트 작성 의무 관련해서 문의가 있습니다",
            "정산 서류 제출 기한이 언제인지 알려주셨으면 합니다",
            "장비비 집행 기준을 알려주시기 바랍니다",
            "연구장비 구매 시 검수 절차 안내 바랍니다",
            "학생인건비 통합관리 대상인지 확인 요청드립니다",
            "과제 협약 전에 연구비를 써도 되는 건지 헷갈립니다",
            "국회 해산 조항이 있는지 알고 싶네요",
            "제재처분 기준이 궁금하네요",
            "맞는지 확인 부탁",
        ] {
            assert_eq!(form(q), Form::Question, "{q}: {:?}", classify(q));
        }
    }

    #[test]
    fn document_sentences() {
        for s in [
            "주관연구개발기관은 단계 종료일로부터 3개월 안에 사용실적보고서를 제출하여야 한다.",
            "연구개발비는 연구개발기관의 재산이므로 법인카드를 사용하는 것이 원칙임.",
            "대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 나온다.",
            "제10조 모든 국민은 인간으로서의 존엄과 가치를 가지며, 행복을 추구할 권리를 가진다.",
            "<pasted_content>연구수당은 수정인건비의 20% 이내</pasted_content>",
            "참여연구자는 연구노트를 작성할 것",
            "흡연자분들은 발코니가 있는 방이면 발코니에서 흡연이 가능합니다.",
            "성과 평가는 정량 지표 대신 질적 지표를 중심으로 운영할 것을 권고",
            "자세한 사항은 전문기관의 공고문을 참고하시기 바랍니다.",
            "The interpreter looks the name up in the local namespace first, then in the globals.",
            "연구개발기관은 협약 변경이 필요한 경우 전문기관에 변경을 요청할 수 있습니다.",
            "이 법은 공포한 날부터 시행한다. 다만, 제3조의 개정규정은 부칙 제2조에 따른 조항",
        ] {
            assert_eq!(form(s), Form::Sentence, "{s}: {:?}", classify(s));
        }
    }

    #[test]
    fn a_question_clause_inside_makes_a_question() {
        let q = "석사 졸업을 앞둔 학생이 박사과정 합격 통지를 받았어요. 이 기간에 학생인건비 줘도 되나요? \
                 수료생은 아니고 졸업 예정입니다";
        assert_eq!(form(q), Form::Question, "{:?}", classify(q));
        assert!(classify(q).signals.iter().any(|x| x == "question:question_clause_inside:되나요"));
        // A question mark after a clause that does not ask keeps the weak signal only.
        let s = "연구개발비의 사용(인건비?)은 협약에 따른다. 정산은 종료 후 3개월 안에 한다.";
        assert_eq!(form(s), Form::Sentence, "{:?}", classify(s));
        assert_eq!(question_clause_inside("되나요?"), None);
        assert_eq!(question_clause_inside("되나요? "), None);
    }

    #[test]
    fn article_asks() {
        for q in [
            "같은 죄로 두 번 처벌 못 받는다는 조항 몇 조야?",
            "근거 조문 알려줘",
            "이건 몇 조에 나와?",
            "제37조 내용",
            "what does article 10 say",
            "Which article protects privacy?",
        ] {
            assert!(asks_article(q), "{q}");
        }
        for q in ["연구수당 상한", "조건부 서식", "articles of association template", "조사 방법"]
        {
            assert!(!asks_article(q), "{q}");
        }
    }

    #[test]
    fn signals_are_named_and_confidence_bounded() {
        let v = classify("기한을 알려 주세요?");
        assert!(v.signals.iter().any(|x| x.starts_with("question:final_question_mark")));
        assert!(v.signals.iter().any(|x| x.starts_with("question:request_ending")));
        assert!(v.confidence > 0.9 && v.confidence <= 1.0);
        assert_eq!(classify("").confidence, 0.5);
    }
}
