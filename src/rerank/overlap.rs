//! Character shingles: how much of one text another repeats.
//!
//! Texts are compared on their letters and digits only (lowercased, spaces and punctuation
//! dropped), cut into overlapping windows of [`SHINGLE`] characters. This works the same for
//! Korean, which has no reliable word boundaries, and for English. Used by the composite's
//! diversity property and by the benches' "share of repeated text" figure.

/// Characters per shingle.
pub const SHINGLE: usize = 8;

/// The letters and digits of `text`, lowercased.
fn squashed(text: &str) -> Vec<char> {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(crate::text::case::lower_char).collect()
}

/// Hashes of the `SHINGLE`-character windows of `text` (FNV-1a; deterministic everywhere).
fn hashes(text: &str) -> Vec<u64> {
    let cs = squashed(text);
    if cs.len() < SHINGLE {
        return if cs.is_empty() { Vec::new() } else { vec![fnv(&cs)] };
    }
    cs.windows(SHINGLE).map(fnv).collect()
}

fn fnv(cs: &[char]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &c in cs {
        h ^= c as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The set of shingles of one text (sorted, distinct: no hash map in the wasm).
#[derive(Debug, Clone, Default)]
pub struct Shingles(Vec<u64>);

impl Shingles {
    /// The shingles of `text`.
    pub fn of(text: &str) -> Shingles {
        let mut s = Shingles::default();
        s.extend(hashes(text));
        s
    }

    /// Add shingles, keeping the list sorted and distinct (binary insertion: a few hundred per
    /// chunk, and no sort routine in the wasm).
    fn extend(&mut self, hs: impl IntoIterator<Item = u64>) {
        for h in hs {
            if let Err(at) = self.0.binary_search(&h) {
                self.0.insert(at, h);
            }
        }
    }

    fn contains(&self, h: &u64) -> bool {
        self.0.binary_search(h).is_ok()
    }

    /// Share (0–1) of `self`'s shingles that `other` also has: 1 when `self` is wholly repeated
    /// inside `other`. 0 for an empty text.
    pub fn contained_in(&self, other: &Shingles) -> f64 {
        if self.0.is_empty() {
            return 0.0;
        }
        self.0.iter().filter(|h| other.contains(h)).count() as f64 / self.0.len() as f64
    }

    /// The larger containment either way: near-duplicates, and a short text repeated inside a
    /// longer one, both score close to 1.
    pub fn overlap(&self, other: &Shingles) -> f64 {
        self.contained_in(other).max(other.contained_in(self))
    }
}

/// Share (0–1) of the shingle positions of `texts` (in order) that repeat a shingle of an
/// *earlier* text: 0 when no text repeats another, close to 1 when all but the first repeat it.
pub fn repeated_share<S: AsRef<str>>(texts: &[S]) -> f64 {
    let mut seen = Shingles::default();
    let (mut total, mut repeated) = (0usize, 0usize);
    for t in texts {
        let hs = hashes(t.as_ref());
        total += hs.len();
        repeated += hs.iter().filter(|h| seen.contains(h)).count();
        seen.extend(hs);
    }
    if total == 0 { 0.0 } else { repeated as f64 / total as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment_ignores_spacing_and_case() {
        let a = Shingles::of("연구개발비의 사용 기준은 다음과 같다.");
        let b = Shingles::of("연구개발비의  사용기준은 다음과 같다 — 그리고 더 많은 내용이 이어진다.");
        assert_eq!(a.contained_in(&b), 1.0);
        assert!(b.contained_in(&a) < 0.6);
        assert_eq!(a.overlap(&b), 1.0);
        let c = Shingles::of("Why are Python strings immutable?");
        assert_eq!(c.overlap(&Shingles::of("WHY are python strings immutable")), 1.0);
        assert_eq!(c.overlap(&a), 0.0);
        assert_eq!(Shingles::of("").contained_in(&a), 0.0);
    }

    #[test]
    fn repeated_share_counts_only_later_repeats() {
        assert_eq!(repeated_share(&["가나다라마바사아자차", "카타파하가나다라마바"]), 0.0);
        let same = "대한민국의 주권은 국민에게 있다";
        assert_eq!(repeated_share(&[same, same]), 0.5);
        assert_eq!(repeated_share::<&str>(&[]), 0.0);
        let r = repeated_share(&[same, "다른 문장이 여기에 있다", same]);
        assert!(r > 0.3 && r < 0.5, "{r}");
    }
}
