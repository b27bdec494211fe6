//! The anchor gate: open an instance's index only when the prompt names its domain.
//!
//! An anchor is a word or phrase (감리원, 연구개발비, LibreOffice). It is analyzed with the index's
//! analyzer, and it matches a prompt when *all* its terms occur among the prompt's terms — so a
//! particle (감리원이), spacing (연구 개발비) or full-width letters do not hide it. Anchors come from
//! the manifest and from [`derive`], which picks an instance's distinctive words at build time.

use std::collections::{BTreeMap, HashSet};

use crate::sort;
use crate::text::{Analyzer, korean};

/// Analyzed anchors of one instance.
#[derive(Debug, Clone, Default)]
pub struct AnchorSet {
    /// Each anchor's terms (sorted, never empty: [`AnchorSet::new`] drops an anchor without terms)
    /// and the anchor, ordered by the terms: a prompt's terms find the anchors that begin with them
    /// without a pass over every anchor.
    anchors: Vec<(Vec<String>, String)>,
}

impl AnchorSet {
    /// Analyze `anchors` with `analyzer`; anchors that give no terms are dropped.
    pub fn new(analyzer: &Analyzer, anchors: &[String]) -> Self {
        let mut list: Vec<(Vec<String>, String)> = anchors
            .iter()
            .filter_map(|a| {
                let mut terms = analyzer.terms(a);
                sort::sort(&mut terms);
                terms.dedup();
                (!terms.is_empty()).then(|| (terms, a.clone()))
            })
            .collect();
        sort::sort(&mut list);
        list.dedup();
        AnchorSet { anchors: list }
    }

    /// Number of anchors.
    pub fn len(&self) -> usize {
        self.anchors.len()
    }

    /// True when the instance has no anchors (the gate then passes every prompt).
    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
    }

    /// The anchors whose terms all occur in `prompt_terms` (sorted, as [`slice::binary_search`]
    /// needs), in sorted order.
    pub fn matches(&self, prompt_terms: &[&str]) -> Vec<String> {
        let mut found = Vec::new();
        for &p in prompt_terms {
            // The anchors whose first term is `p`; the rest of their terms must be there too.
            let from = self.anchors.partition_point(|(terms, _)| terms[0].as_str() < p);
            for (terms, a) in self.anchors[from..].iter().take_while(|(terms, _)| terms[0] == p) {
                if terms[1..].iter().all(|t| prompt_terms.binary_search(&t.as_str()).is_ok()) {
                    found.push(a.clone());
                }
            }
        }
        sort::sort(&mut found);
        found.dedup();
        found
    }
}

/// Generic words that headings use in every domain; never derived as anchors.
const GENERIC: &[&str] = &[
    "개념",
    "개요",
    "경우",
    "관련",
    "구분",
    "구성",
    "기간",
    "기본",
    "기준",
    "기타",
    "내용",
    "대상",
    "목적",
    "목차",
    "방법",
    "범위",
    "부록",
    "사례",
    "사용",
    "사항",
    "서식",
    "설명",
    "예시",
    "요약",
    "운영",
    "원칙",
    "일반",
    "적용",
    "절차",
    "정의",
    "제출",
    "주요",
    "질문",
    "참고",
    "처리",
    "추가",
    "현황",
    "확인",
    "자주",
    "묻는",
    "관리",
    "방식",
    "변경",
    "선택",
    "설정",
    "실행",
    "기능",
    "사용법",
    "보기",
    "도움말",
    "안내",
];

/// Derive up to `n` anchor words from an instance's headings, titles and glossary terms: the
/// stripped words that recur there (in at least two distinct headings), most frequent first,
/// without generic heading words. Hangul words need two syllables or more, others four letters.
pub fn derive<'a>(headings: impl IntoIterator<Item = &'a str>, n: usize) -> Vec<String> {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    for h in headings {
        if !seen.insert(h.to_string()) {
            continue;
        }
        let mut words: Vec<String> = h
            .split(|c: char| !(c.is_alphanumeric()))
            .filter_map(|w| {
                let w = crate::text::lowercase(w);
                if w.chars().all(korean::is_hangul_syllable) {
                    let s = korean::strip(&w);
                    (s.chars().count() >= 2).then(|| s.to_string())
                } else if w.chars().all(|c| c.is_ascii_alphabetic()) && w.len() >= 4 {
                    (!crate::text::english::is_stop_word(&w)).then_some(w)
                } else {
                    None
                }
            })
            .filter(|w| !GENERIC.contains(&w.as_str()))
            .collect();
        sort::sort(&mut words);
        words.dedup();
        for w in words {
            *count.entry(w).or_default() += 1;
        }
    }
    let mut ranked: Vec<(String, usize)> = count.into_iter().filter(|(_, c)| *c >= 2).collect();
    // The words are the map's keys, distinct: no ties, the order sort_unstable_by gave.
    sort::sort_by(&mut ranked, |a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.into_iter().take(n).map(|(w, _)| w).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms<'a>(a: &Analyzer, s: &str, buf: &'a mut Vec<String>) -> Vec<&'a str> {
        *buf = a.terms(s);
        let mut t: Vec<&str> = buf.iter().map(String::as_str).collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    #[test]
    fn particles_spacing_and_width_do_not_hide_an_anchor() {
        let a = Analyzer::default();
        let set = AnchorSet::new(&a, &["감리원".into(), "연구개발비".into(), "LibreOffice".into()]);
        let mut buf = Vec::new();
        assert_eq!(set.matches(&terms(&a, "감리원이 되려면?", &mut buf)), ["감리원"]);
        assert_eq!(set.matches(&terms(&a, "연구 개발비를 쓰려면", &mut buf)), ["연구개발비"]);
        assert_eq!(set.matches(&terms(&a, "ＬｉｂｒｅＯｆｆｉｃｅ 설치", &mut buf)), ["LibreOffice"]);
        assert!(set.matches(&terms(&a, "감리 업무", &mut buf)).is_empty());
    }

    #[test]
    fn matches_are_every_anchor_whose_terms_all_occur_in_name_order() {
        let a = Analyzer::default();
        // Anchors sharing first terms (연구…), one-term ones, and one whose terms the prompts never
        // hold all of.
        let list: Vec<String> = ["연구개발비", "연구", "연구수당", "개발비", "감리원", "연구실 안전", "수당"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let set = AnchorSet::new(&a, &list);
        let mut buf = Vec::new();
        for prompt in ["연구개발비와 연구수당", "연구실 안전 수당", "감리원", "개발비 수당 연구", "무관한 말"]
        {
            let t = terms(&a, prompt, &mut buf);
            // The rule, anchor by anchor, in name order.
            let mut want: Vec<String> = set
                .anchors
                .iter()
                .filter(|(ts, _)| ts.iter().all(|x| t.binary_search(&x.as_str()).is_ok()))
                .map(|(_, name)| name.clone())
                .collect();
            want.sort();
            assert_eq!(set.matches(&t), want, "{prompt}");
        }
        assert_eq!(set.matches(&terms(&a, "연구개발비와 연구수당", &mut buf)).len(), 5);
    }

    #[test]
    fn derives_recurring_domain_words() {
        let heads =
            ["연구수당 사용기준", "연구수당은 계상", "학생인건비 개요", "학생인건비 지급", "개요", "정의"];
        let d = derive(heads.iter().copied(), 10);
        assert_eq!(d, ["연구수당", "학생인건비"]);
    }
}
