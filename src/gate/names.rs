//! Names the documents never mention — countries and programming languages: a rule above the
//! gate's judges ([`Judgement`](super::Judgement)`::outside_name`).
//!
//! A prompt about another country's parliament shares most of its words with the constitution
//! (국회, 대통령, 임기), and a coding task in TypeScript most of its words with a manual (type,
//! dictionary, key); the one word that tells them apart is a name the documents never use.
//! `groundgate build` checks a bundled list of such names (`data/gate/names.txt`: country names in
//! Korean and English from the npm package `i18n-iso-countries`, programming language names from
//! `linguist-languages`; see `data/gate/README.md`) against the words of the instance's chunks
//! ([`Outside`]) and stores in the index (section `names`: sorted, one per line) the names none of
//! them holds — of the kinds the documents do not talk about at all: documents that name two
//! countries (the R&D manuals: 미국, 일본, 영국) may be asked about a third, so none of their
//! country names is stored, while the constitution, which names none, keeps them all. At `ask`
//! time the prompt's words ([`forms`]: 프랑스의, also as 프랑스) are looked up there: a hit means the
//! prompt names a country or language of a kind this instance's documents never speak of. The list
//! itself is not in the runtime wasm; only the lookup is.
//!
//! Documents that talk about a kind can still be *about one name of it*: the Python FAQ names
//! Java, Perl and C, but Python is in half of its chunks. There a name the documents never mention
//! (Rust, TypeScript, 러스트) says the prompt is about another language — unless the prompt also
//! names the documents' own one ("call Rust code from Python"). Such a kind's own name
//! ([`DOMINANT_SHARE`], [`DOMINANT_RATIO`]) and its unmentioned names are stored in a second
//! section (`guarded_names`, [`encode_guarded`]); [`Outside::finish`] says which go where.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::text::{korean, words_of};

/// The section's names at most (a crafted file cannot make the reader index more).
pub const MAX_NAMES: usize = 4096;
/// A stored name's bytes at most.
pub const MAX_NAME_BYTES: usize = 64;

/// A bundled name and its kind (`country`, `language`): a kind whose names the documents mention
/// is a topic of theirs, and then its other names say nothing ([`Outside::finish`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    /// What it names: `country` or `language` in the bundled list.
    pub kind: String,
    /// The name, normalised ([`one_word`]).
    pub name: String,
    /// What it is a spelling of (파이썬 → `python`): names with the same `of` are one name when
    /// the documents' mentions are counted. The name itself when the list gives none.
    pub of: String,
}

/// Parse a name list: one `kind<TAB>name[<TAB>of]` per line (`of`: the name it is another
/// spelling of), blank lines and `#` comments skipped; `origin` names the list in errors. A name
/// must be one word as [`words_of`] splits it.
pub fn parse(origin: &str, text: &str) -> Result<Vec<Name>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| Error::input(format!("{origin}:{}", n + 1), why.to_string());
        let (kind, rest) = line.split_once('\t').ok_or_else(|| bad("expected `kind<TAB>name`"))?;
        let (name, of) = rest.split_once('\t').unwrap_or((rest, rest));
        match (one_word(name), one_word(of)) {
            (Some(w), Some(of)) if w.len() <= MAX_NAME_BYTES && !kind.trim().is_empty() => {
                out.push(Name { kind: kind.trim().to_string(), name: w, of })
            }
            (None, _) => return Err(bad(&format!("{name:?} is not one word"))),
            _ => return Err(bad(&format!("{of:?} (what {name:?} spells) is not one word"))),
        }
    }
    Ok(out)
}

/// Particles [`korean::strip`] leaves on purpose (they end many nouns: 회의, 제도, 성과, 미만) but
/// that follow a name often: 프랑스의 대통령, 일본과 중국.
const NAME_PARTICLES: [&str; 4] = ["의", "도", "과", "만"];

/// The forms of a prompt's or document's words that can be a name: each word ([`words_of`]), and a
/// Hangul word also without its particle or ending ([`korean::strip`]: 미국은 → 미국) or without
/// one of [`NAME_PARTICLES`] (프랑스의 → 프랑스).
pub fn forms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in words_of(text) {
        let stem = korean::strip(&w);
        if stem.len() < w.len() {
            out.push(stem.to_string());
        }
        if let Some(stem) = NAME_PARTICLES.iter().find_map(|p| w.strip_suffix(p)).filter(|s| !s.is_empty()) {
            out.push(stem.to_string());
        }
        out.push(w);
    }
    out
}

/// `name` (normalised) if it is one word as the analyzer splits words ([`words_of`]'s first).
fn one_word(name: &str) -> Option<String> {
    let norm = crate::text::normalize(name.trim());
    (words_of(&norm).first() == Some(&norm)).then_some(norm)
}

/// The bundled names (`data/gate/names.txt`), parsed.
#[cfg(feature = "ingest")]
pub fn bundled() -> Result<Vec<Name>> {
    parse("data/gate/names.txt", include_str!("../../data/gate/names.txt"))
}

/// A kind of name is a topic of the documents when they mention this many of its names: one
/// mention may be an accident (a homograph: 이란 in "…이란 …을 말한다"), two are not. The R&D manuals
/// name 미국, 일본, 영국, so a question about joint research with a German university may well be
/// theirs; the constitution names no country, so a question about Germany's parliament is not.
pub const TOPIC_MENTIONS: usize = 2;

/// A name is a kind's own name in the documents (the Python FAQ's `python`) when at least this
/// share of the texts hold it ([`Outside::see`] counts texts: chunks) …
pub const DOMINANT_SHARE: f64 = 0.1;
/// … and at least this many times as many texts as any other name of its kind (the Python FAQ:
/// python 272 of 541 chunks, java 7; the LibreOffice help: python 2.7 % of its chunks, uno 1.2 %,
/// no own language).
pub const DOMINANT_RATIO: usize = 5;

/// What [`Outside::finish`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// Names the documents never mention, of the kinds they do not talk about (section `names`).
    pub outside: Vec<String>,
    /// The own names of the kinds the documents are about, all spellings (파이썬, python) …
    pub own: Vec<String>,
    /// … and those kinds' names the documents never mention: outside unless a prompt also names
    /// an own one (section `guarded_names`). Both empty when no kind has an own name.
    pub guarded: Vec<String>,
}

/// Which of a list of names an instance's documents never mention: [`see`](Outside::see) every
/// indexed text, then [`finish`](Outside::finish). A name is mentioned when a text holds it as a
/// word, with or without a particle ([`forms`]: 프랑스의 and 프랑스는 mention 프랑스; 프랑스어
/// does not), so a bigram that happens to span two words (…중 국회 → 중국) mentions nothing.
/// Spellings of one name (파이썬, python: [`Name::of`]) are mentioned together.
#[derive(Debug, Clone)]
pub struct Outside {
    /// Each name: its index in `of`.
    names: BTreeMap<String, usize>,
    /// Each name spelled (its `of`): its kind (an index into `kinds`) and how many texts hold it.
    of: Vec<(usize, usize)>,
    /// The kinds, in order of first appearance.
    kinds: Vec<String>,
    /// Texts seen.
    texts: usize,
}

impl Outside {
    /// Check `names`.
    pub fn new(names: &[Name]) -> Outside {
        let mut kinds: Vec<String> = Vec::new();
        let mut spelled: BTreeMap<&str, usize> = BTreeMap::new();
        let mut of = Vec::new();
        let mut map = BTreeMap::new();
        for n in names {
            let k = kinds.iter().position(|k| *k == n.kind).unwrap_or_else(|| {
                kinds.push(n.kind.clone());
                kinds.len() - 1
            });
            let i = *spelled.entry(n.of.as_str()).or_insert_with(|| {
                of.push((k, 0));
                of.len() - 1
            });
            map.entry(n.name.clone()).or_insert(i);
        }
        Outside { names: map, of, kinds, texts: 0 }
    }

    /// Note the names `text` (one chunk's) mentions.
    pub fn see(&mut self, text: &str) {
        self.texts += 1;
        let mut held: Vec<usize> = forms(text).iter().filter_map(|w| self.names.get(w).copied()).collect();
        held.sort_unstable();
        held.dedup();
        for i in held {
            self.of[i].1 += 1;
        }
    }

    /// The names no text mentioned, sorted, of the kinds the documents do not talk about (fewer
    /// than [`TOPIC_MENTIONS`] of its names mentioned); and of a kind they talk about that has an
    /// own name (held by [`DOMINANT_SHARE`] of the texts and [`DOMINANT_RATIO`] times as many as
    /// any other of the kind), its spellings and the kind's unmentioned names.
    pub fn finish(self) -> Found {
        let kinds = self.kinds.len();
        let mut mentioned = vec![0usize; kinds];
        // Per kind: the most and second most texts holding one of its names, and which name.
        let mut top: Vec<(usize, usize, usize)> = vec![(0, 0, usize::MAX); kinds];
        for (i, &(k, held)) in self.of.iter().enumerate() {
            mentioned[k] += (held > 0) as usize;
            let t = &mut top[k];
            if held > t.0 {
                *t = (held, t.0, i);
            } else if held > t.1 {
                t.1 = held;
            }
        }
        let own_of: Vec<Option<usize>> = top
            .iter()
            .map(|&(most, next, i)| {
                let dominant = most > 0
                    && most as f64 >= DOMINANT_SHARE * self.texts as f64
                    && most >= DOMINANT_RATIO * next.max(1);
                dominant.then_some(i)
            })
            .collect();
        let mut found = Found::default();
        for (name, i) in self.names {
            let (k, held) = self.of[i];
            let list = if own_of[k] == Some(i) {
                &mut found.own
            } else if held > 0 {
                continue;
            } else if mentioned[k] < TOPIC_MENTIONS {
                &mut found.outside
            } else if own_of[k].is_some() {
                &mut found.guarded
            } else {
                continue;
            };
            list.push(name);
        }
        if found.guarded.is_empty() {
            found.own.clear();
        }
        found
    }
}

/// The section bytes for sorted `names`.
pub fn encode(names: &[String]) -> Vec<u8> {
    names.iter().flat_map(|n| n.bytes().chain([b'\n'])).collect()
}

/// The `guarded_names` section for sorted `own` and `guarded` names (both not empty): the own
/// names as [`encode`] writes them, an empty line, then the guarded names.
pub fn encode_guarded(own: &[String], guarded: &[String]) -> Vec<u8> {
    let mut out = encode(own);
    out.push(b'\n');
    out.extend(encode(guarded));
    out
}

/// Check a `guarded_names` section ([`encode_guarded`]): where its guarded part starts, and the
/// name ranges of each part ([`ranges`], the guarded part's relative to its start). Both parts
/// must hold names.
#[allow(clippy::type_complexity)]
pub fn guarded_ranges(
    bytes: &[u8],
) -> std::result::Result<(usize, Vec<(u32, u32)>, Vec<(u32, u32)>), String> {
    let split = bytes.windows(2).position(|w| w == b"\n\n").ok_or("no empty line after the own names")?;
    let own = ranges(&bytes[..split + 1])?;
    let guarded = ranges(&bytes[split + 2..])?;
    if own.is_empty() || guarded.is_empty() {
        return Err("an empty part".into());
    }
    Ok((split + 2, own, guarded))
}

/// Check a `names` section and return each name's byte range in it: UTF-8, one name a line, each
/// line ended by a newline, names strictly increasing, at most [`MAX_NAMES`] of at most
/// [`MAX_NAME_BYTES`] bytes. Anything else is an error saying what is wrong.
pub fn ranges(bytes: &[u8]) -> std::result::Result<Vec<(u32, u32)>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 ({e})"))?;
    if !text.is_empty() && !text.ends_with('\n') {
        return Err("the last name has no newline".into());
    }
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut start = 0usize;
    let mut prev: Option<&str> = None;
    for line in text.split_terminator('\n') {
        if line.is_empty() || line.len() > MAX_NAME_BYTES {
            return Err(format!("name {} is {} bytes", out.len() + 1, line.len()));
        }
        if prev.is_some_and(|p| p >= line) {
            return Err(format!("names not in strictly increasing order at {line:?}"));
        }
        if out.len() == MAX_NAMES {
            return Err(format!("more than {MAX_NAMES} names"));
        }
        out.push((start as u32, (start + line.len()) as u32));
        start += line.len() + 1;
        prev = Some(line);
    }
    Ok(out)
}

/// Is `word` among the names whose `ranges` (from [`ranges`]) lie in `bytes`? Binary search.
pub fn contains(bytes: &[u8], ranges: &[(u32, u32)], word: &str) -> bool {
    ranges
        .binary_search_by(|&(a, b)| {
            bytes.get(a as usize..b as usize).unwrap_or_default().cmp(word.as_bytes())
        })
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[(&str, &str)]) -> Vec<Name> {
        list.iter()
            .map(|(k, n)| Name { kind: k.to_string(), name: one_word(n).unwrap(), of: one_word(n).unwrap() })
            .collect()
    }

    fn spelled(kind: &str, name: &str, of: &str) -> Name {
        Name { kind: kind.into(), name: name.into(), of: of.into() }
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parse_takes_kind_and_one_word_a_line_and_names_the_bad_line() {
        let got = parse("t", "# c\ncountry\t미국\n\nlanguage\t France \nlanguage\t파이썬\tPython\n").unwrap();
        let mut want = names(&[("country", "미국"), ("language", "france")]);
        want.push(spelled("language", "파이썬", "python"));
        assert_eq!(got, want);
        for bad in [
            "country\t미국\ncountry\tnew zealand\n",
            "country\t미국\n미국\n",
            "country\t미국\n\t미국\n",
            "country\t미국\nlanguage\t파이썬\tpy thon\n",
        ] {
            let e = parse("t", bad).unwrap_err();
            assert!(e.to_string().contains("t:2"), "{e}");
        }
    }

    #[test]
    fn a_dominant_name_guards_its_kinds_unmentioned_names() {
        let list = [
            names(&[
                ("language", "python"),
                ("language", "java"),
                ("language", "perl"),
                ("language", "rust"),
            ]),
            vec![spelled("language", "파이썬", "python"), spelled("language", "러스트", "rust")],
            names(&[("country", "프랑스")]),
        ]
        .concat();
        // Python in 8 of 10 texts, Java and Perl in one: languages are a topic, Python its own.
        let mut o = Outside::new(&list);
        for _ in 0..8 {
            o.see("python code");
        }
        o.see("java and perl");
        o.see("other");
        let found = o.finish();
        assert_eq!(found.outside, strings(&["프랑스"]));
        assert_eq!(found.own, strings(&["python", "파이썬"]), "every spelling of the own name");
        assert_eq!(found.guarded, strings(&["rust", "러스트"]));
        // 5× the next name is needed: Python 4, Java 1 is not enough.
        let mut o = Outside::new(&list);
        for _ in 0..4 {
            o.see("python code");
        }
        o.see("java and perl");
        for _ in 0..5 {
            o.see("other");
        }
        let found = o.finish();
        assert_eq!((found.own.len(), found.guarded.len()), (0, 0), "{found:?}");
        // A spelling mentioned counts for its name: 파이썬 in the texts mentions python, and two
        // names mentioned (python, java) make languages a topic, so rust is not stored outside.
        let mut o = Outside::new(&list);
        o.see("파이썬 코드");
        o.see("java");
        let found = o.finish();
        assert_eq!(found.outside, strings(&["프랑스"]));
    }

    #[test]
    fn guarded_sections_round_trip_and_refuse_crafted_bytes() {
        let bytes = encode_guarded(&strings(&["python", "파이썬"]), &strings(&["rust", "러스트"]));
        assert_eq!(bytes, "python\n파이썬\n\nrust\n러스트\n".as_bytes());
        let (start, own, guarded) = guarded_ranges(&bytes).unwrap();
        assert!(contains(&bytes[..start], &own, "파이썬") && !contains(&bytes[..start], &own, "rust"));
        assert!(
            contains(&bytes[start..], &guarded, "러스트") && !contains(&bytes[start..], &guarded, "python")
        );
        for bad in [&b"python\n"[..], b"\n\nrust\n", b"python\n\n", b"b\na\n\nrust\n", b"python\n\nrust", b""]
        {
            assert!(guarded_ranges(bad).is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn forms_take_particles_off_hangul_words() {
        assert_eq!(
            forms("프랑스의 미국은 회의 Japan"),
            ["프랑스", "프랑스의", "미국", "미국은", "회", "회의", "japan"]
        );
    }

    #[test]
    fn outside_keeps_the_names_no_text_holds_as_a_word() {
        let list =
            names(&[("country", "미국"), ("country", "프랑스"), ("country", "Japan"), ("country", "중국")]);
        let mut o = Outside::new(&[list, names(&[("country", "이란"), ("language", "rust")])].concat());
        // 미국은 mentions 미국; 프랑스어 and a bigram across words (…중 국회) mention nothing; 이를 is
        // 이 without its particle, not 이란 (which strip would also cut to 이).
        o.see("미국은 프랑스어를 …중 국회 이를");
        o.see("Rust");
        assert_eq!(o.finish().outside, ["japan", "이란", "중국", "프랑스"]);
    }

    #[test]
    fn a_kind_the_documents_talk_about_says_nothing() {
        let list =
            names(&[("country", "미국"), ("country", "일본"), ("country", "독일"), ("language", "java")]);
        // Two countries mentioned: countries are a topic here, so 독일 is not stored either.
        let mut o = Outside::new(&list);
        o.see("미국과 일본의 제도");
        assert_eq!(o.finish().outside, ["java"]);
        // One mention is not a topic.
        let mut o = Outside::new(&list);
        o.see("미국의 제도");
        assert_eq!(o.finish().outside, ["java", "독일", "일본"]);
    }

    #[test]
    fn ranges_round_trip_and_refuse_crafted_sections() {
        let names: Vec<String> = ["japan", "프랑스"].map(String::from).to_vec();
        let bytes = encode(&names);
        let r = ranges(&bytes).unwrap();
        assert_eq!(r.len(), 2);
        assert!(contains(&bytes, &r, "프랑스") && contains(&bytes, &r, "japan"));
        assert!(!contains(&bytes, &r, "미국") && !contains(&bytes, &r, "프랑"));
        assert_eq!(ranges(b"").unwrap(), []);
        let long = format!("{}\n", "x".repeat(MAX_NAME_BYTES + 1));
        for bad in [&b"b\na\n"[..], b"a\na\n", b"a\n\nb\n", b"a", b"\xff\n", long.as_bytes()] {
            assert!(ranges(bad).is_err(), "{bad:?}");
        }
        let many: Vec<u8> = (0..=MAX_NAMES).flat_map(|i| format!("{i:05}\n").into_bytes()).collect();
        assert!(ranges(&many).unwrap_err().contains("more than"));
    }

    #[cfg(feature = "ingest")]
    #[test]
    fn the_bundled_list_parses_and_is_sorted() {
        let list = bundled().unwrap();
        assert!(list.len() > 900, "{}", list.len());
        assert!(list.windows(2).all(|w| w[0].name < w[1].name));
        assert!(list.iter().all(|n| n.kind == "country" || n.kind == "language"));
        // Korean spellings of languages name the language they spell.
        assert!(list.contains(&spelled("language", "파이썬", "python")));
        let names: Vec<String> = list.into_iter().map(|n| n.name).collect();
        for name in ["프랑스", "japan", "javascript", "bash"] {
            assert!(names.contains(&name.to_string()), "{name}");
        }
        // Korea's own names and Korean homographs are left out (data/gate/make_names.py).
        for not in ["대한민국", "한국", "북한", "korea", "수단", "인도", "us", "shell", "make"] {
            assert!(!names.contains(&not.to_string()), "{not}");
        }
    }
}
