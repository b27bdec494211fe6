//! Character budgets: how much evidence each instance may inject, and cutting to fit.
//!
//! Field report, PART 03: 1,800 characters per instance; when several instances answer, 3,600 in
//! total split evenly, and what a short answer leaves unused goes to the longer ones. [`allocate`]
//! does that by water-filling; [`fit`] cuts evidence text at a sentence boundary.

use crate::text::sentences;

/// Budgets for instances that want `demands[i]` characters: each gets at most `per_instance`, all
/// together at most `total`, and an instance that needs less than an even share leaves the rest to
/// the others. The result never exceeds a demand, `per_instance`, or (summed) `total`.
pub fn allocate(demands: &[usize], per_instance: usize, total: usize) -> Vec<usize> {
    let caps: Vec<usize> = demands.iter().map(|&d| d.min(per_instance)).collect();
    let mut order: Vec<usize> = (0..caps.len()).collect();
    // (cap, index) is unique: no ties, the order sort_unstable_by_key gave.
    crate::sort::sort_by(&mut order, |&a, &b| (caps[a], a).cmp(&(caps[b], b)));
    let mut out = vec![0; caps.len()];
    let mut remaining = total;
    for (k, &i) in order.iter().enumerate() {
        let share = remaining / (order.len() - k);
        out[i] = caps[i].min(share);
        remaining -= out[i];
    }
    out
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
    fn never_exceeds_any_limit() {
        let mut seed = 7u64;
        for _ in 0..5000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let n = (seed >> 60) as usize % 5;
            let demands: Vec<usize> = (0..n).map(|i| ((seed >> (i * 12)) % 4000) as usize).collect();
            let (per, total) = (1 + (seed >> 20) as usize % 2500, 1 + (seed >> 33) as usize % 5000);
            let got = allocate(&demands, per, total);
            assert!(got.iter().sum::<usize>() <= total);
            for (g, d) in got.iter().zip(&demands) {
                assert!(*g <= *d && *g <= per);
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
}
