//! Lowercasing, exactly as Rust's `str::to_lowercase` and `char::to_lowercase`, from compact tables.
//!
//! Why not std's: its lowercase table is one `(char, u32)` pair per mapped character (1,462 pairs,
//! 11.7 KB of data; 4.3 KB gzipped in the browser wasm) plus 4 KB of code, while the mappings come
//! in runs (`A..Z` → `+32`, `Ā Ă Ą …` → every second `+1`): [`case_tables`](super::case_tables)
//! stores 185 runs. The Final_Sigma rule of `str::to_lowercase` (`Σ` → `ς` at the end of a word) needs
//! the Case_Ignorable and Cased properties, stored as ranges beside them.
//!
//! The tables are generated from the compiling toolchain's std (`cargo test --lib text::case --
//! --ignored --nocapture gen_tables` prints them), and the tests compare every code point and the
//! sigma rule's every class against std: a Rust with a newer Unicode fails them until the tables are
//! made again.

use super::case_tables::{CASE_IGNORABLE, CASED_NOT_IGNORABLE, LOWER_RUNS};

/// The lowercase of `c` (one character, or two for `İ`), as `char::to_lowercase`.
pub fn lower_char(c: char) -> Lower {
    if c.is_ascii() {
        return Lower([c.to_ascii_lowercase(), '\0'], 0);
    }
    if ('\u{A7F6}'..='\u{FF20}').contains(&c) {
        // No character between Latin Extended-D and the fullwidth capitals has a lowercase
        // mapping: every Hangul syllable returns at once (the test checks every code point).
        return Lower([c, '\0'], 0);
    }
    if c == '\u{130}' {
        // The one multi-character lowercase mapping: İ → i + combining dot above.
        return Lower(['i', '\u{307}'], 0);
    }
    Lower([lookup(c), '\0'], 0)
}

/// The lowercase characters of one character ([`lower_char`]).
#[derive(Debug, Clone)]
pub struct Lower([char; 2], usize);

impl Iterator for Lower {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let c = *self.0.get(self.1)?;
        if c == '\0' && self.1 > 0 {
            return None;
        }
        self.1 += 1;
        Some(c)
    }
}

/// One-character mapping from the runs (not for ASCII or `İ`).
fn lookup(c: char) -> char {
    let cp = c as u32;
    // The last run starting at or before `cp`.
    let i = LOWER_RUNS.partition_point(|&(head, _)| head & 0x1F_FFFF <= cp);
    let Some(&(head, delta)) = i.checked_sub(1).and_then(|i| LOWER_RUNS.get(i)) else { return c };
    let start = head & 0x1F_FFFF;
    let len = (head >> 21 & 0x7F) + 1;
    let stride = (head >> 28) + 1;
    let off = cp - start;
    if !off.is_multiple_of(stride) || off / stride >= len {
        return c;
    }
    char::from_u32(cp.wrapping_add_signed(delta)).unwrap_or(c)
}

/// Push the lowercase of `c` ([`lower_char`]).
pub fn push_lower(out: &mut String, c: char) {
    out.extend(lower_char(c));
}

/// `text` lowercased, as `str::to_lowercase` (Final_Sigma included).
pub fn lowercase(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == 'Σ' {
            out.push(sigma(text, i));
        } else {
            push_lower(&mut out, c);
        }
    }
    out
}

/// `Σ` at byte `i` of `text`: `ς` at the end of a word (cased letters before it and none after it,
/// skipping case-ignorable characters), else `σ` (Unicode §3.13, Final_Sigma).
fn sigma(text: &str, i: usize) -> char {
    let before = text.get(..i).unwrap_or("");
    let after = text.get(i + 'Σ'.len_utf8()..).unwrap_or("");
    if ignorable_then_cased(before.chars().rev()) && !ignorable_then_cased(after.chars()) {
        'ς'
    } else {
        'σ'
    }
}

/// Whether the first character that is not case-ignorable is cased.
fn ignorable_then_cased(mut chars: impl Iterator<Item = char>) -> bool {
    chars.find(|&c| !in_ranges(CASE_IGNORABLE, c)).is_some_and(|c| in_ranges(CASED_NOT_IGNORABLE, c))
}

/// Whether `c` is in the sorted ranges (each `start | (len − 1) << 21`).
fn in_ranges(ranges: &[u32], c: char) -> bool {
    let cp = c as u32;
    let i = ranges.partition_point(|&r| r & 0x1F_FFFF <= cp);
    i.checked_sub(1).and_then(|i| ranges.get(i)).is_some_and(|&r| cp - (r & 0x1F_FFFF) <= r >> 21)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_chars() -> impl Iterator<Item = char> {
        (0..=0x10FFFFu32).filter_map(char::from_u32)
    }

    /// The sigma rule's classes of `c` from std itself: (case-ignorable, cased and not ignorable).
    fn std_classes(c: char) -> (bool, bool) {
        let sigma = |s: String| s.to_lowercase().chars().nth(1) == Some('σ');
        let (alone, then_cased) = (sigma(format!("aΣ{c}")), sigma(format!("aΣ{c}a")));
        (then_cased && !alone, alone)
    }

    #[test]
    fn every_char_lowercases_as_std() {
        for c in all_chars() {
            assert!(lower_char(c).eq(c.to_lowercase()), "{:?}", c);
        }
    }

    #[test]
    fn sigma_classes_match_std() {
        for c in all_chars() {
            let (ignorable, cased) = std_classes(c);
            assert_eq!(in_ranges(CASE_IGNORABLE, c), ignorable, "ignorable {:?}", c);
            assert_eq!(in_ranges(CASED_NOT_IGNORABLE, c), cased, "cased {:?}", c);
        }
    }

    #[test]
    fn strings_lowercase_as_std() {
        let cases = [
            "",
            "ΣΑΣ",
            "ὈΔΥΣΣΕΎΣ",
            "aΣ",
            "Σa",
            "Σ",
            "aΣ.",
            "a\u{301}Σ\u{301}",
            "aΣ'a",
            "aΣ' b",
            "ΑΣ\u{345}",
            "İstanbul ÉCOLE Ǆ ǅ ΣΣ",
            "감리원 ABC ＡＢＣ Straße ΣΑΣ. ΌΣΟΣ",
            "\u{10400}\u{1E900}Ω K Å",
        ];
        for s in cases {
            assert_eq!(lowercase(s), s.to_lowercase(), "{s:?}");
        }
        // Σ between every class pair.
        let probes = ['a', 'A', '\'', '\u{301}', '\u{345}', ' ', '1', '가', 'Σ', '.'];
        for &x in &probes {
            for &y in &probes {
                for s in [format!("{x}Σ{y}"), format!("{x}{y}Σ"), format!("Σ{x}{y}"), format!("a{x}Σ{y}b")]
                {
                    assert_eq!(lowercase(&s), s.to_lowercase(), "{s:?}");
                }
            }
        }
    }

    /// Ranges of a predicate over all code points, each `start | (len − 1) << 21`.
    fn ranges(pred: impl Fn(char) -> bool) -> Vec<u32> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for c in all_chars().filter(|&c| pred(c)) {
            let cp = c as u32;
            match out.last_mut() {
                Some((s, n)) if *s + *n == cp && *n < 2048 => *n += 1,
                _ => out.push((cp, 1)),
            }
        }
        out.into_iter().map(|(s, n)| s | (n - 1) << 21).collect()
    }

    /// Prints src/text/case_tables.rs from this toolchain's std.
    #[test]
    #[ignore = "generator: run with --ignored --nocapture and save the output"]
    fn gen_tables() {
        let mut runs: Vec<(u32, u32, u32, i64)> = Vec::new(); // start, len, stride, delta
        for c in all_chars().filter(|c| !c.is_ascii() && *c != '\u{130}') {
            let mut l = c.to_lowercase();
            let (Some(m), None) = (l.next(), l.next()) else { panic!("multi-char {c:?}") };
            if m == c {
                continue;
            }
            let (cp, delta) = (c as u32, m as i64 - c as i64);
            if let Some(r) = runs.last_mut() {
                let next = r.0 + r.1 * r.2;
                if r.3 == delta && r.1 == 1 && (cp == r.0 + 1 || cp == r.0 + 2) {
                    r.2 = cp - r.0;
                    r.1 = 2;
                    continue;
                }
                if r.3 == delta && r.1 > 1 && cp == next && r.1 < 128 {
                    r.1 += 1;
                    continue;
                }
            }
            runs.push((cp, 1, 1, delta));
        }
        println!(
            "//! Tables of [`super::case`], generated from std by its `gen_tables` test: do not edit.\n"
        );
        println!("/// Lowercase runs: `(start | (len − 1) << 21 | (stride − 1) << 28, delta)`.");
        println!("#[rustfmt::skip]\npub(super) const LOWER_RUNS: &[(u32, i32)] = &[");
        for (s, n, st, d) in &runs {
            assert!(*st <= 2 && *n <= 128);
            println!("    (0x{:08X}, {}),", s | (n - 1) << 21 | (st - 1) << 28, d);
        }
        println!("];\n");
        for (name, doc, pred) in [
            ("CASE_IGNORABLE", "Case_Ignorable", Box::new(|c| std_classes(c).0) as Box<dyn Fn(char) -> bool>),
            ("CASED_NOT_IGNORABLE", "Cased and not Case_Ignorable", Box::new(|c| std_classes(c).1)),
        ] {
            let r = ranges(pred);
            println!("/// {doc}: ranges `start | (len − 1) << 21`.");
            println!("#[rustfmt::skip]\npub(super) const {name}: &[u32] = &[");
            for chunk in r.chunks(8) {
                let line: Vec<String> = chunk.iter().map(|v| format!("0x{v:08X}")).collect();
                println!("    {},", line.join(", "));
            }
            println!("];\n");
        }
    }
}
