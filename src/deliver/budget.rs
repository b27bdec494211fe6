//! Character budgets: how much evidence each instance may inject, and cutting to fit.
//!
//! Field report, PART 03: 1,800 characters per instance; when several instances answer, 3,600 in
//! total split evenly, and what a short answer leaves unused goes to the longer ones. [`allocate`]
//! does that by water-filling; [`fit`] cuts evidence text at a sentence boundary. Within an
//! instance, hits whose texts do not all fit share its budget by [`allocate_weighted`] (each in
//! proportion to its score over the best, to the engine's `share_power`), and a hit cut to its
//! share keeps its best passage ([`segments`], [`window`]): the run of whole sentences or lines
//! that holds most of the query's weight, so a long first hit does not crowd out the later ones
//! and a cut does not drop the part that matched.

use crate::text::sentences;

/// Budgets for instances that want `demands[i]` characters: each gets at most `per_instance`, all
/// together at most `total`, and an instance that needs less than an even share leaves the rest to
/// the others. The result never exceeds a demand, `per_instance`, or (summed) `total`.
pub fn allocate(demands: &[usize], per_instance: usize, total: usize) -> Vec<usize> {
    // No weights: every instance weighs 1.
    allocate_weighted(demands, &[], per_instance, total)
}

/// [`allocate`] with shares in proportion to `weights` (integers, so that every platform splits
/// alike): an instance gets at most `weights[i] / Σ weights` of what is left when its turn comes,
/// turns taken by `demand / weight` ascending, so that what one leaves unused goes to the others in
/// proportion to theirs. A weight of 0 counts as 1; weights above 2³⁰ count as 2³⁰.
pub fn allocate_weighted(
    demands: &[usize],
    weights: &[u64],
    per_instance: usize,
    total: usize,
) -> Vec<usize> {
    // In u64 with every factor bounded (budgets to u32::MAX characters, weights to 2³⁰), so no
    // product overflows and no 128-bit division is linked into the wasm.
    const MAX_WEIGHT: u64 = 1 << 30;
    let caps: Vec<u64> = demands.iter().map(|&d| d.min(per_instance).min(u32::MAX as usize) as u64).collect();
    let w: Vec<u64> =
        (0..caps.len()).map(|i| weights.get(i).copied().unwrap_or(1).clamp(1, MAX_WEIGHT)).collect();
    let mut order: Vec<usize> = (0..caps.len()).collect();
    // cap / weight ascending, compared as cap_a · w_b < cap_b · w_a; ties by index.
    crate::sort::sort_by(&mut order, |&a, &b| (caps[a] * w[b], a).cmp(&(caps[b] * w[a], b)));
    let mut out = vec![0; caps.len()];
    let mut remaining = total.min(u32::MAX as usize) as u64;
    let mut weight_left: u64 = w.iter().sum();
    for &i in &order {
        let share = remaining * w[i] / weight_left.max(1);
        let got = caps[i].min(share);
        out[i] = got as usize;
        remaining -= got;
        weight_left -= w[i];
    }
    out
}

/// A share weight for [`allocate_weighted`]: `x` (taken into 0..=1, NaN as 0: a probability, a
/// score over the best) to the power `power`, in millionths — integers, so that every platform
/// splits alike.
// Not `clamp`: NaN must weigh 0, and `clamp` keeps NaN (and links a panic message).
#[allow(clippy::manual_clamp)]
pub fn power_weight(x: f64, power: u32) -> u64 {
    let x = x.max(0.0).min(1.0);
    ((0..power).fold(1.0f64, |w, _| w * x) * 1_000_000.0).round() as u64
}

/// The longest prefix of `text` made of whole sentences that has at most `max` characters;
/// `None` when not even the first sentence fits.
pub fn fit(text: &str, max: usize) -> Option<&str> {
    if text.chars().count() <= max {
        return Some(text);
    }
    let mut end = 0;
    let mut chars = 0;
    for s in sentences(text) {
        let n = s.chars().count();
        if chars + n > max {
            break;
        }
        chars += n;
        end += s.len();
    }
    let cut = text[..end].trim_end();
    (!cut.is_empty()).then_some(cut)
}

/// `text` split into sentences (as [`fit`] cuts) and, inside a sentence, at line breaks: the units a
/// [`window`] is made of. A piece without a letter (a list number "3. ", a bullet) goes with the
/// piece after it. Concatenated they give `text` back.
pub fn segments(text: &str) -> Vec<&str> {
    let mut cuts = Vec::new();
    let mut at = 0;
    for s in sentences(text) {
        let mut rest = s;
        while let Some(i) = rest.find('\n') {
            at += i + 1;
            cuts.push(at);
            rest = &rest[i + 1..];
        }
        at += rest.len();
        if !rest.is_empty() {
            cuts.push(at);
        }
    }
    let mut out = Vec::new();
    let mut from = 0;
    for (k, &to) in cuts.iter().enumerate() {
        let last = k + 1 == cuts.len();
        // A syllable first: `is_alphabetic` searches Unicode's tables for every non-ASCII letter.
        if last
            || text[from..to].chars().any(|c| crate::text::korean::is_hangul_syllable(c) || c.is_alphabetic())
        {
            out.push(&text[from..to]);
            from = to;
        }
    }
    out
}

/// The best passage of at most `max` characters: the run of consecutive `segments` `[start, end)`
/// whose `weights` sum highest (counted without the run's trailing whitespace). A run starts at a
/// segment that weighs something where one fits, so the matched sentence comes first and what
/// follows it (often the answer) is kept; on a tie the earliest run wins; when nothing weighs
/// anything, the head.
/// `None` when no segment fits.
pub fn window(segments: &[&str], weights: &[f64], max: usize) -> Option<(usize, usize)> {
    let chars: Vec<usize> = segments.iter().map(|s| s.chars().count()).collect();
    let trailing: Vec<usize> =
        segments.iter().map(|s| s.chars().rev().take_while(|c| c.is_whitespace()).count()).collect();
    let weight = |i: usize| weights.get(i).copied().unwrap_or(0.0);
    let best = |matched_start: bool| {
        let mut best: Option<(f64, usize, usize)> = None;
        for start in 0..segments.len() {
            if matched_start && weight(start) <= 0.0 {
                continue;
            }
            let (mut used, mut sum) = (0usize, 0.0f64);
            let mut end = start;
            while end < segments.len() && used + (chars[end] - trailing[end]) <= max {
                used += chars[end];
                sum += weight(end);
                end += 1;
            }
            if end > start && best.is_none_or(|(w, _, _)| sum > w) {
                best = Some((sum, start, end));
            }
        }
        best.map(|(_, s, e)| (s, e))
    };
    // No matched segment fits (or none matched): the best run from any start.
    best(true).or_else(|| best(false))
}

/// The part of `text` that fits in `max` characters: all of it, or its best passage ([`window`]
/// over its [`segments`], each weighed by `weigh`), trimmed; `None` when not even one segment fits.
/// The passage is a verbatim slice of `text`.
pub fn passage<'t>(text: &'t str, max: usize, weigh: &dyn Fn(&str) -> f64) -> Option<&'t str> {
    if text.chars().count() <= max {
        return Some(text);
    }
    let segments = segments(text);
    let weights: Vec<f64> = segments.iter().map(|s| weigh(s)).collect();
    let (start, end) = window(&segments, &weights, max)?;
    let from: usize = segments[..start].iter().map(|s| s.len()).sum();
    let to: usize = from + segments[start..end].iter().map(|s| s.len()).sum::<usize>();
    let cut = text[from..to].trim();
    (!cut.is_empty()).then_some(cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_evenly_and_redistributes() {
        assert_eq!(allocate(&[2000], 1800, 3600), [1800]);
        assert_eq!(allocate(&[2000, 2000], 1800, 3600), [1800, 1800]);
        assert_eq!(allocate(&[2000, 2000, 2000], 1800, 3600), [1200, 1200, 1200]);
        assert_eq!(allocate(&[500, 2000, 2000], 1800, 3600), [500, 1550, 1550]);
        assert_eq!(allocate(&[300, 400, 2000, 2000], 1800, 3600), [300, 400, 1450, 1450]);
        assert_eq!(allocate(&[], 1800, 3600), Vec::<usize>::new());
    }

    #[test]
    fn power_weights_are_millionths_of_a_clamped_power() {
        assert_eq!(power_weight(0.5, 2), 250_000);
        assert_eq!(power_weight(0.5, 0), 1_000_000);
        assert_eq!(power_weight(1.7, 3), 1_000_000);
        assert_eq!(power_weight(-1.0, 1), 0);
        assert_eq!(power_weight(f64::NAN, 2), 0);
    }

    #[test]
    fn weighted_shares_follow_the_weights_and_pass_on_what_is_left() {
        // Equal weights: the even split.
        assert_eq!(allocate_weighted(&[2000, 2000, 2000], &[5, 5, 5], 1800, 3600), [1200, 1200, 1200]);
        // 4 : 1 — the first takes four fifths, up to its demand.
        assert_eq!(allocate_weighted(&[4000, 4000], &[4, 1], 3600, 3600), [2880, 720]);
        // What a short, heavy instance leaves goes to the others.
        assert_eq!(allocate_weighted(&[500, 4000], &[9, 1], 3600, 3600), [500, 3100]);
        // Capped by `per_instance`: the rest goes to the lighter one.
        assert_eq!(allocate_weighted(&[4000, 4000], &[9, 1], 2000, 3600), [2000, 1600]);
        // A weight of 0 counts as 1; missing weights too.
        assert_eq!(allocate_weighted(&[1000, 1000], &[0, 1], 3600, 1000), [500, 500]);
        assert_eq!(allocate_weighted(&[1000, 1000], &[], 3600, 1000), [500, 500]);
        assert_eq!(allocate_weighted(&[], &[], 3600, 1000), Vec::<usize>::new());
    }

    /// `count` random cases: (demands, per-instance, total, the seed they came from).
    fn cases(mut seed: u64, count: usize) -> Vec<(Vec<usize>, usize, usize, u64)> {
        (0..count)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let n = (seed >> 60) as usize % 5;
                let demands: Vec<usize> = (0..n).map(|i| ((seed >> (i * 12)) % 4000) as usize).collect();
                (demands, 1 + (seed >> 20) as usize % 2500, 1 + (seed >> 33) as usize % 5000, seed)
            })
            .collect()
    }

    /// The field report's even water-filling, written out on its own: the smallest cap first,
    /// each taking at most an even share of what is left.
    fn even_reference(demands: &[usize], per: usize, total: usize) -> Vec<usize> {
        let caps: Vec<usize> = demands.iter().map(|&d| d.min(per)).collect();
        let mut order: Vec<usize> = (0..caps.len()).collect();
        order.sort_by_key(|&i| (caps[i], i));
        let (mut out, mut left) = (vec![0; caps.len()], total);
        for (k, &i) in order.iter().enumerate() {
            out[i] = caps[i].min(left / (order.len() - k));
            left -= out[i];
        }
        out
    }

    #[test]
    fn equal_weights_are_the_even_split() {
        for (demands, per, total, seed) in cases(11, 3000) {
            let want = even_reference(&demands, per, total);
            assert_eq!(allocate(&demands, per, total), want);
            let w = 1 + (seed >> 40) % 1_000_000;
            assert_eq!(allocate_weighted(&demands, &vec![w; demands.len()], per, total), want);
        }
    }

    #[test]
    fn never_exceeds_any_limit() {
        for (demands, per, total, seed) in cases(7, 5000) {
            let weights: Vec<u64> = (0..demands.len()).map(|i| (seed >> (i * 7)) % 1_000_001).collect();
            for got in [allocate(&demands, per, total), allocate_weighted(&demands, &weights, per, total)] {
                assert!(got.iter().sum::<usize>() <= total);
                for (g, d) in got.iter().zip(&demands) {
                    assert!(*g <= *d && *g <= per);
                }
            }
        }
    }

    #[test]
    fn fits_whole_sentences_only() {
        let t = "첫 문장이다. 둘째 문장이다. 셋째.";
        assert_eq!(fit(t, 100), Some(t));
        assert_eq!(fit(t, 17), Some("첫 문장이다. 둘째 문장이다."));
        assert_eq!(fit(t, 8), Some("첫 문장이다."));
        assert_eq!(fit(t, 3), None);
    }

    #[test]
    fn segments_give_the_text_back() {
        let t = "첫 문장이다. 둘째 줄\n셋째 줄\n\n넷째.";
        let segs = segments(t);
        assert_eq!(segs.concat(), t);
        assert_eq!(segs, ["첫 문장이다. ", "둘째 줄\n", "셋째 줄\n", "\n넷째."]);
        let list = "기한은 다음과 같다.\n3. 근거 규정을 따른다. 4. 납부한다.";
        assert_eq!(segments(list), ["기한은 다음과 같다.\n", "3. 근거 규정을 따른다. ", "4. 납부한다."]);
        assert_eq!(segments("1. 2. "), ["1. 2. "]);
    }

    #[test]
    fn the_window_keeps_the_heaviest_run_that_fits() {
        let segs = ["aaaa. ", "bbbb. ", "cccc. ", "dddd."];
        // Two segments fit (5 + 6 chars, the last one's trailing space not counted).
        assert_eq!(window(&segs, &[0.0, 1.0, 2.0, 0.0], 11), Some((1, 3)));
        assert_eq!(window(&segs, &[3.0, 0.0, 0.0, 0.0], 11), Some((0, 2)));
        // The run starts at a matched segment: what follows the match is kept.
        assert_eq!(window(&segs, &[0.0, 1.0, 0.0, 0.0], 11), Some((1, 3)));
        // A tie keeps the earliest run; nothing weighs anything: the head.
        assert_eq!(window(&segs, &[0.0; 4], 11), Some((0, 2)));
        assert_eq!(window(&segs, &[0.0, 1.0, 0.0, 1.0], 5), Some((1, 2)));
        assert_eq!(window(&segs, &[1.0; 4], 4), None);
        assert_eq!(window(&[], &[], 10), None);
    }

    #[test]
    fn wide_and_lone_whitespace_is_counted_in_characters() {
        // U+3000 and U+00A0 are several bytes each: the window counts characters.
        let t = "가나다라마바.\u{3000}\u{3000}\u{3000}사아자차카타파하.";
        assert_eq!(passage(t, 1, &|_| 0.0), None);
        assert_eq!(passage(t, 7, &|_| 0.0), Some("가나다라마바."));
        assert_eq!(window(&["\u{3000}"], &[0.0], 5), Some((0, 1)));
        // A run of only whitespace takes no room (the passage trims it away).
        assert_eq!(window(&["\u{a0}\u{a0}", "가나"], &[0.0, 1.0], 0), Some((0, 1)));
        let lines = "첫째 줄\n\u{a0}\n셋째 줄 내용이 길다";
        let got = passage(lines, 5, &|s| if s.contains('셋') { 1.0 } else { 0.0 });
        assert_eq!(got, Some("첫째 줄"));
        for max in 0..40 {
            for t in [t, lines, "\u{3000}\u{3000}", "  \n \n  "] {
                if let Some(p) = passage(t, max, &|s| s.chars().count() as f64) {
                    assert!(p.chars().count() <= max && t.contains(p), "{t:?} {max} → {p:?}");
                }
            }
        }
    }
}
