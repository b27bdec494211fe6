//! Aliases: the words readers use for a name the documents write otherwise — 캘크 for Calc,
//! 리브레오피스 for LibreOffice — from the manifest's `[aliases]` table. A chunk that contains a
//! name is indexed with its aliases as context (indexed only, the stored text is unchanged), so a
//! question in the reader's words finds the pages that use the documents' word.
//!
//! A name matches case-insensitively; a name of ASCII letters and digits only as a whole word (Calc
//! in "LibreOffice Calc", not in "Calculate"), any other name as a substring.

use std::collections::BTreeMap;

/// Names and their aliases, in name order (deterministic builds).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Aliases {
    names: Vec<(String, Vec<String>)>,
}

impl Aliases {
    /// From the manifest table (name → aliases): names are matched lowercased, so names equal but
    /// for case are one entry (their aliases in table order); empty names and aliases are dropped.
    pub fn new(table: &BTreeMap<String, Vec<String>>) -> Self {
        let mut merged: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, aliases) in table {
            let name = name.trim().to_lowercase();
            if name.is_empty() {
                continue;
            }
            let list = merged.entry(name).or_default();
            for a in aliases.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
                if !list.iter().any(|x| x == a) {
                    list.push(a.to_string());
                }
            }
        }
        Aliases { names: merged.into_iter().filter(|(_, a)| !a.is_empty()).collect() }
    }

    /// True when there are no aliases.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The aliases of every name found in `texts`, in name order, each once, joined by newlines
    /// (empty when none).
    pub fn context(&self, texts: &[&str]) -> String {
        self.words(&self.found(texts))
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// The positions (in name order) of the names found in `texts`.
    pub fn found(&self, texts: &[&str]) -> Vec<usize> {
        if self.names.is_empty() {
            return Vec::new();
        }
        self.found_lowercase(&texts.iter().map(|t| t.to_lowercase()).collect::<Vec<_>>())
    }

    /// [`Aliases::found`] over texts already lowercased (`str::to_lowercase`), so that several
    /// tables can search the same texts lowercased once.
    pub fn found_lowercase(&self, lower: &[String]) -> Vec<usize> {
        (0..self.names.len()).filter(|&i| lower.iter().any(|t| contains_name(t, &self.names[i].0))).collect()
    }

    /// The aliases of the names at `found` (positions from [`Aliases::found`], ascending), each
    /// once, joined by newlines (empty when none).
    pub fn words(&self, found: &[usize]) -> String {
        let mut out: Vec<&str> = Vec::new();
        for (_, aliases) in found.iter().filter_map(|&i| self.names.get(i)) {
            for a in aliases {
                if !out.contains(&a.as_str()) {
                    out.push(a);
                }
            }
        }
        out.join("\n")
    }
}

/// Does lowercased `text` contain lowercased `name` (as a whole word when `name` is ASCII
/// alphanumeric)?
fn contains_name(text: &str, name: &str) -> bool {
    if !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return text.contains(name);
    }
    let bytes = text.as_bytes();
    let word = |i: usize| bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric());
    text.match_indices(name).any(|(i, m)| (i == 0 || !word(i - 1)) && !word(i + m.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aliases(pairs: &[(&str, &[&str])]) -> Aliases {
        Aliases::new(
            &pairs.iter().map(|(n, a)| (n.to_string(), a.iter().map(|s| s.to_string()).collect())).collect(),
        )
    }

    #[test]
    fn names_found_give_their_aliases() {
        let a = aliases(&[
            ("Calc", &["캘크", "칼크"]),
            ("LibreOffice", &["리브레오피스"]),
            ("Writer", &["라이터"]),
        ]);
        assert_eq!(a.context(&["LibreOffice Calc에서 셀을 병합합니다"]), "캘크\n칼크\n리브레오피스");
        assert_eq!(a.context(&["제목", "스프레드시트 (Calc) › 데이터"]), "캘크\n칼크");
        // A whole word only: Calculate is not Calc; nothing found gives nothing.
        assert_eq!(a.context(&["Calculate the sum", "calcium"]), "");
        assert_eq!(a.context(&[]), "");
    }

    #[test]
    fn found_names_give_their_words_in_name_order() {
        let a = aliases(&[("퇴직", &["그만두", "퇴사"]), ("변경", &["바꾸"]), ("사직", &["그만두"])]);
        assert_eq!(a.len(), 3);
        // Name order is 변경, 사직, 퇴직; a word two names share is given once.
        let found = a.found(&["퇴직 및 사직", "변경 없음"]);
        assert_eq!(found, [0, 1, 2]);
        assert_eq!(a.words(&found), "바꾸\n그만두\n퇴사");
        assert_eq!(a.words(&[2]), "그만두\n퇴사");
        assert_eq!(a.words(&[]), "");
        assert_eq!(a.words(&[9]), "", "a position past the names gives nothing");
        assert_eq!(a.context(&["퇴직"]), a.words(&a.found(&["퇴직"])));
    }

    #[test]
    fn hangul_names_match_inside_words_and_empty_entries_are_dropped() {
        let a = aliases(&[("연구개발비", &["연구비"]), (" ", &["x"]), ("빈", &[" "])]);
        assert_eq!(a.context(&["국가연구개발비의 사용"]), "연구비");
        assert!(aliases(&[("빈", &[""])]).is_empty());
        // Names equal but for case are one entry, in lowercased name order.
        let a = aliases(&[("Calc", &["캘크"]), ("calc", &["캘크", "칼크"]), ("Base", &["베이스"])]);
        assert_eq!(a.context(&["Base and Calc"]), "베이스\n캘크\n칼크");
    }
}
