//! One sort routine for every element type, so the browser wasm carries one copy of core's sort.
//!
//! Each `sort_by` / `sort_unstable` call on a new element type or comparator is its own copy of
//! core's sort (pdqsort or driftsort with their small-sort networks: 3–6 KB of wasm each). Here a
//! vector is sorted through a permutation of indices, ordered by one non-generic routine that
//! calls the comparator through `&dyn Fn`; only the few lines that apply the permutation are
//! generic. docs/peer-bench.md (web size) has the figures.
//!
//! The order is exactly `sort_by`'s (stable): indices are compared by the comparator, ties by
//! their position. So a call site may swap `v.sort_by(cmp)` for [`sort_by`] freely, and
//! `v.sort_unstable()` / `sort_unstable_by(cmp)` where elements that compare equal are identical
//! (plain `Ord` data: strings, integers, tuples of them) or the comparator has no ties (a unique
//! key in it): then every correct sort gives the same vector.

use std::cmp::Ordering;

/// Sort `v` by `cmp`, keeping elements that compare equal in their input order: the result of
/// `v.sort_by(cmp)`.
pub fn sort_by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = {
        let items = &v[..];
        permutation(items.len(), &|a, b| cmp(&items[a], &items[b]))
    };
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    // `order` holds every index once: each slot is taken exactly once.
    v.extend(order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)));
}

/// Sort `v` ascending: the result of `v.sort()` (and of `v.sort_unstable()` for types whose equal
/// values are identical).
pub fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_by(v, T::cmp);
}

/// The indices 0..n in the order of `cmp`, ties by index: the one monomorphised sort.
fn permutation(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&a, &b| cmp(a, b).then(a.cmp(&b)));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_bits::Bits;

    #[test]
    fn same_order_as_the_stable_sort() {
        let mut g = Bits(7);
        for len in [0, 1, 2, 3, 7, 20, 21, 33, 100, 1000, 5000] {
            // Few distinct keys: many ties, whose input order must survive.
            let v: Vec<(u8, u32)> = (0..len).map(|i| ((g.next() % 5) as u8, i)).collect();
            let mut want = v.clone();
            want.sort_by_key(|a| std::cmp::Reverse(a.0));
            let mut got = v.clone();
            sort_by(&mut got, |a, b| b.0.cmp(&a.0));
            assert_eq!(got, want, "len {len}");
            // Floats by total_cmp, descending, as the search and engine sort scores.
            let f: Vec<(f32, String)> =
                (0..len).map(|i| (((g.next() % 9) as f32) / 4.0, format!("t{}", i % 7))).collect();
            let mut want = f.clone();
            want.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut got = f;
            sort_by(&mut got, |a, b| b.0.total_cmp(&a.0));
            assert_eq!(got, want, "len {len}");
        }
    }

    #[test]
    fn same_result_as_sort_unstable_for_plain_data() {
        let mut g = Bits(11);
        for len in [0, 1, 2, 5, 17, 64, 300, 4000] {
            let s: Vec<String> = (0..len).map(|_| format!("{:x}", g.next() % 50)).collect();
            let mut want = s.clone();
            want.sort_unstable();
            let mut got = s;
            sort(&mut got);
            assert_eq!(got, want);
            let p: Vec<(String, Vec<String>)> =
                (0..len).map(|_| (format!("{}", g.next() % 9), vec![format!("{}", g.next() % 3)])).collect();
            let mut want = p.clone();
            want.sort_unstable();
            let mut got = p;
            sort(&mut got);
            assert_eq!(got, want);
        }
    }
}
