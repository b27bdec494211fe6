//! Unicode normalisation for matching.
//!
//! What a user types and what a PDF or web page stores often differ in code points, not in meaning:
//! Hangul arrives decomposed into conjoining jamo (NFD, common on macOS file systems and in some
//! PDF extractions), Latin letters arrive full-width, spaces arrive as ideographic or no-break spaces.
//! [`normalize`] maps each of those to one form and lowercases, so that the analyzer sees the same
//! characters either way.
//!
//! Why not the `unicode-normalization` crate: its composition tables add tens of kilobytes to the wasm
//! download, while the cases that matter for Korean and English search are algorithmic — Hangul
//! syllable composition (Unicode §3.12) and the full-width block — and fit in a few lines here. Other
//! scripts' combining sequences are left as they are (they are matched as written).

use super::case::push_lower;

const S_BASE: u32 = 0xAC00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;

/// Normalise `text` for matching: compose Hangul jamo into syllables, fold full-width ASCII and
/// exotic spaces, and lowercase. Idempotent.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Runs that normalisation leaves as they are — ASCII but capitals, precomposed syllables
    // (an LV syllable unless a trailing jamo follows) — are copied whole: most chunk text is such
    // runs, and a `push` a character was most of an `ask`'s normalising of evidence passages.
    let mut rest = text;
    loop {
        let keep = unchanged_prefix(rest);
        out.push_str(&rest[..keep]);
        rest = &rest[keep..];
        if rest.is_empty() {
            break;
        }
        let end = normalize_one(rest, &mut out);
        rest = &rest[end..];
    }
    out
}

/// How many bytes at the start of `text` [`normalize`] leaves as they are: ASCII but capitals,
/// and precomposed Hangul syllables, an LV syllable only when no trailing jamo follows it.
fn unchanged_prefix(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b < 0x80 {
            if b.is_ascii_uppercase() {
                break;
            }
            i += 1;
            continue;
        }
        // A three-byte sequence EA B0 80 … ED 9E A3 is a syllable U+AC00 … U+D7A3.
        let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else { break };
        let cp = c as u32;
        if !(S_BASE..S_BASE + L_COUNT * N_COUNT).contains(&cp) {
            break;
        }
        if (cp - S_BASE).is_multiple_of(T_COUNT)
            && text.get(i + 3..).and_then(|t| t.chars().next()).is_some_and(|t| {
                let tp = t as u32;
                tp > T_BASE && tp < T_BASE + T_COUNT
            })
        {
            break;
        }
        i += 3;
    }
    i
}

/// Normalise the characters at the start of `text` that [`unchanged_prefix`] stops at (one, or a
/// jamo sequence composed into one syllable) onto `out`; how many bytes were consumed.
fn normalize_one(text: &str, out: &mut String) -> usize {
    let mut chars = text.char_indices().peekable();
    let consumed =
        |chars: &mut std::iter::Peekable<std::str::CharIndices>| chars.peek().map_or(text.len(), |&(i, _)| i);
    if let Some((_, c)) = chars.next() {
        let cp = c as u32;
        // Leading consonant + vowel (+ trailing consonant) → one precomposed syllable.
        if (L_BASE..L_BASE + L_COUNT).contains(&cp)
            && let Some(&(_, v)) = chars.peek()
        {
            let vp = v as u32;
            if (V_BASE..V_BASE + V_COUNT).contains(&vp) {
                chars.next();
                let mut s = S_BASE + ((cp - L_BASE) * V_COUNT + (vp - V_BASE)) * T_COUNT;
                if let Some(&(_, t)) = chars.peek() {
                    let tp = t as u32;
                    if tp > T_BASE && tp < T_BASE + T_COUNT {
                        chars.next();
                        s += tp - T_BASE;
                    }
                }
                push_lower(out, char::from_u32(s).unwrap_or(c));
                return consumed(&mut chars);
            }
        }
        // A precomposed LV syllable followed by a trailing consonant → LVT.
        if (S_BASE..S_BASE + L_COUNT * N_COUNT).contains(&cp)
            && (cp - S_BASE).is_multiple_of(T_COUNT)
            && let Some(&(_, t)) = chars.peek()
        {
            let tp = t as u32;
            if tp > T_BASE && tp < T_BASE + T_COUNT {
                chars.next();
                out.push(char::from_u32(cp + tp - T_BASE).unwrap_or(c));
                return consumed(&mut chars);
            }
        }
        push_lower(out, fold_width(c));
    }
    consumed(&mut chars)
}

/// `text` with its conjoining Hangul jamo composed into syllables (Unicode §3.12, as NFC does for
/// Hangul) and nothing else changed: for names that must stay as written but match what a person
/// types — a source id from a macOS file name (NFD) is `보안규정` in jamo.
pub fn compose_hangul(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let cp = c as u32;
        let trailing =
            |t: Option<&char>| t.map(|&t| t as u32).filter(|&tp| tp > T_BASE && tp < T_BASE + T_COUNT);
        let syllable = if (L_BASE..L_BASE + L_COUNT).contains(&cp)
            && let Some(vp) =
                chars.peek().map(|&v| v as u32).filter(|vp| (V_BASE..V_BASE + V_COUNT).contains(vp))
        {
            chars.next();
            Some(S_BASE + ((cp - L_BASE) * V_COUNT + (vp - V_BASE)) * T_COUNT)
        } else if (S_BASE..S_BASE + L_COUNT * N_COUNT).contains(&cp) && (cp - S_BASE).is_multiple_of(T_COUNT)
        {
            Some(cp)
        } else {
            None
        };
        match syllable {
            Some(s) => {
                let t = trailing(chars.peek());
                if t.is_some() {
                    chars.next();
                }
                out.push(char::from_u32(s + t.map_or(0, |tp| tp - T_BASE)).unwrap_or(c));
            }
            None => out.push(c),
        }
    }
    out
}

/// Full-width ASCII → ASCII; ideographic, no-break and other spaces → a plain space.
fn fold_width(c: char) -> char {
    let cp = c as u32;
    match cp {
        0xFF01..=0xFF5E => char::from_u32(cp - 0xFF01 + 0x21).unwrap_or(c),
        0x3000 | 0x00A0 | 0x2000..=0x200A | 0x202F | 0x205F => ' ',
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_hangul_changes_nothing_else() {
        // 보안규정 in conjoining jamo (a macOS file name), with capitals and a full-width letter.
        let nfd = "Team-\u{1107}\u{1169}\u{110B}\u{1161}\u{11AB}\u{1100}\u{1172}\u{110C}\u{1165}\u{11BC} Ａ";
        assert_eq!(compose_hangul(nfd), "Team-보안규정 Ａ");
        assert_eq!(compose_hangul("가\u{11A8}"), "각", "an LV syllable and a trailing jamo");
        assert_eq!(compose_hangul("보안규정"), "보안규정");
        assert_eq!(compose_hangul("\u{1100}x\u{11A8}"), "\u{1100}x\u{11A8}", "lone jamo stay");
    }

    #[test]
    fn composes_conjoining_jamo() {
        // 감리원 written as conjoining jamo (NFD).
        let nfd = "\u{1100}\u{1161}\u{11B7}\u{1105}\u{1175}\u{110B}\u{116F}\u{11AB}";
        assert_eq!(normalize(nfd), "감리원");
        // LV syllable + trailing jamo.
        assert_eq!(normalize("\u{AC00}\u{11B7}"), "감");
    }

    #[test]
    fn folds_width_space_and_case() {
        assert_eq!(normalize("ＡＢＣ１２３\u{3000}Rust"), "abc123 rust");
        assert_eq!(normalize("ÉCOLE"), "école");
    }

    #[test]
    fn the_run_copy_is_the_character_by_character_form() {
        // Against the plain definition, one character at a time, on text mixing every case the
        // runs stop at (capitals, LV + trailing jamo, conjoining jamo, full-width, spaces).
        // The definition as it was written before the run copy: character by character.
        let reference = |text: &str| {
            let mut out = String::with_capacity(text.len());
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                let cp = c as u32;
                if (L_BASE..L_BASE + L_COUNT).contains(&cp)
                    && let Some(&v) = chars.peek()
                {
                    let vp = v as u32;
                    if (V_BASE..V_BASE + V_COUNT).contains(&vp) {
                        chars.next();
                        let mut s = S_BASE + ((cp - L_BASE) * V_COUNT + (vp - V_BASE)) * T_COUNT;
                        if let Some(&t) = chars.peek() {
                            let tp = t as u32;
                            if tp > T_BASE && tp < T_BASE + T_COUNT {
                                chars.next();
                                s += tp - T_BASE;
                            }
                        }
                        push_lower(&mut out, char::from_u32(s).unwrap_or(c));
                        continue;
                    }
                }
                if (S_BASE..S_BASE + L_COUNT * N_COUNT).contains(&cp)
                    && (cp - S_BASE).is_multiple_of(T_COUNT)
                    && let Some(&t) = chars.peek()
                {
                    let tp = t as u32;
                    if tp > T_BASE && tp < T_BASE + T_COUNT {
                        chars.next();
                        out.push(char::from_u32(cp + tp - T_BASE).unwrap_or(c));
                        continue;
                    }
                }
                push_lower(&mut out, fold_width(c));
            }
            out
        };
        let parts = [
            "감리원",
            "가\u{11B7}",
            "\u{1100}\u{1161}\u{11B7}",
            "\u{1100}\u{1161}",
            "ABC",
            "abc 1.",
            "ＡＢ",
            "\u{3000}",
            "É",
            "é",
            "😀",
            "\u{11B7}",
            "가",
            "힣",
            "\u{D7A4}",
            "\u{ABFF}",
            "\u{1161}",
        ];
        let mut g = crate::test_bits::Bits(3);
        for _ in 0..3000 {
            let text: String =
                (0..g.next() % 8).map(|_| parts[(g.next() % parts.len() as u64) as usize]).collect();
            assert_eq!(normalize(&text), reference(&text), "{text:?}");
        }
    }

    #[test]
    fn idempotent() {
        for s in ["감리원이", "Ｈｅｌｌｏ", "\u{1100}\u{1161}", "제1조 ① 대한민국"] {
            let once = normalize(s);
            assert_eq!(normalize(&once), once);
        }
    }
}
