//! The gate's two judges: small logistic models over [`Features`].
//!
//! * **relevance** — is this prompt about this instance's documents at all? A prompt that no
//!   instance finds relevant is skipped (`unrelated`); a relevant one is at least pulled.
//! * **sufficiency** — is the evidence found good enough to push? (Fitted on whether the gold
//!   location ends up inside the injected text.)
//!
//! Each judge is `p = σ(b + Σ wᵢ·xᵢ)` compared with a threshold chosen for a target precision
//! (`groundgate calibrate`). [`GateModel::default`] is the model fitted on the project's labelled
//! data (docs/gate-bench.md); `calibrate --write` stores one fitted on a user's own labels in the
//! index (section `gate`), where it replaces the default for that instance.
//!
//! Fitting ([`Logistic::fit`]) is Newton's method on the L2-regularised log-loss with a fixed
//! iteration count: deterministic, no randomness, the same bits on every platform.

use serde::{Deserialize, Serialize};

use super::features::{COUNT, Features};
use crate::decimal::Decimal;

/// One logistic judge.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Logistic {
    /// Weight per feature, in [`features::NAMES`](super::features::NAMES) order.
    pub weights: [f64; COUNT],
    /// Intercept.
    pub bias: f64,
    /// The judge says yes when `p ≥ threshold`.
    pub threshold: f64,
}

/// Both judges of an instance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GateModel {
    /// Is the prompt about the instance's documents?
    pub relevance: Logistic,
    /// Is the evidence good enough to push?
    pub sufficiency: Logistic,
}

impl Logistic {
    /// Check that every number is finite and the threshold a probability (a model read from a
    /// file is bad input until checked).
    pub fn check(&self) -> Result<(), String> {
        if !self.weights.iter().chain([&self.bias]).all(|w| w.is_finite()) {
            return Err("a weight is not a finite number".into());
        }
        if !(0.0..=1.0).contains(&self.threshold) {
            return Err(format!("threshold {} is not in 0..=1", Decimal(self.threshold)));
        }
        Ok(())
    }
}

impl GateModel {
    /// Check both judges ([`Logistic::check`]).
    pub fn check(&self) -> Result<(), String> {
        self.relevance.check().map_err(|e| format!("relevance: {e}"))?;
        self.sufficiency.check().map_err(|e| format!("sufficiency: {e}"))
    }
}

impl Default for GateModel {
    /// The model fitted on the project's labelled prompts (the devset, benches/data and
    /// benches/data/train and benches/data/train2: 773 prompts) over the four default instances with `groundgate
    /// calibrate`'s default operating points; the command and its k-fold and held-out figures are
    /// in docs/gate-bench.md.
    // Fitted numbers, not approximations of π or e: a refit may land on any of them.
    #[allow(clippy::approx_constant)]
    fn default() -> Self {
        GateModel {
            relevance: Logistic {
                weights: [
                    1.491867, -1.858072, 2.228772, 1.680822, 1.399329, 1.811715, -1.676251, 2.924763,
                    -0.125553, -2.353046, 1.379465, 0.493805, 2.466892, 2.241874, -3.033991, 1.554333,
                    -2.499258, 1.249822, 3.065012,
                ],
                bias: -9.845214,
                threshold: 0.1773,
            },
            sufficiency: Logistic {
                weights: [
                    -0.490974, -0.005657, 1.371351, 1.503974, 1.937247, 1.69899, 0.188956, 0.698895,
                    0.031464, 0.426336, 2.623337, -0.515216, 1.938345, 1.699538, -1.130699, -0.141628, 0.0,
                    -0.143318, 3.163757,
                ],
                bias: -6.354931,
                threshold: 0.3808,
            },
        }
    }
}

fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

impl Logistic {
    /// The probability for `x`, rounded to 4 decimals (so that every platform decides alike: `exp`
    /// may differ in the last bit between libm implementations; rounding absorbs it).
    pub fn p(&self, x: &Features) -> f64 {
        let z = self.bias + self.weights.iter().zip(&x.0).map(|(w, v)| w * v).sum::<f64>();
        (sigmoid(z) * 10_000.0).round() / 10_000.0
    }

    /// Does the judge say yes for `x`? (A threshold of 1 accepts nothing.)
    pub fn yes(&self, x: &Features) -> bool {
        self.threshold < 1.0 && self.p(x) >= self.threshold
    }

    /// Fit on `(x, y)` pairs by Newton's method on the log-loss plus `l2`·|w|² (the intercept is not
    /// penalised). The threshold is left at 0.5; choose it with [`choose_threshold`].
    pub fn fit(data: &[(Features, bool)], l2: f64) -> Logistic {
        const D: usize = COUNT + 1;
        let mut w = [0.0f64; D]; // w[COUNT] is the bias
        let row = |x: &Features| {
            let mut r = [1.0f64; D];
            r[..COUNT].copy_from_slice(&x.0);
            r
        };
        for _ in 0..50 {
            let mut grad = [0.0f64; D];
            let mut hess = [[0.0f64; D]; D];
            for (x, y) in data {
                let r = row(x);
                let z: f64 = r.iter().zip(&w).map(|(a, b)| a * b).sum();
                let p = sigmoid(z);
                let g = p - if *y { 1.0 } else { 0.0 };
                let h = (p * (1.0 - p)).max(1e-9);
                for i in 0..D {
                    grad[i] += g * r[i];
                    for j in 0..D {
                        hess[i][j] += h * r[i] * r[j];
                    }
                }
            }
            for i in 0..COUNT {
                grad[i] += 2.0 * l2 * w[i];
                hess[i][i] += 2.0 * l2;
            }
            hess[COUNT][COUNT] += 1e-6;
            let Some(step) = solve(hess, grad) else { break };
            let mut moved = 0.0f64;
            for i in 0..D {
                w[i] -= step[i];
                moved = moved.max(step[i].abs());
            }
            if moved < 1e-10 {
                break;
            }
        }
        let mut weights = [0.0; COUNT];
        weights.copy_from_slice(&w[..COUNT]);
        Logistic { weights, bias: w[COUNT], threshold: 0.5 }
    }
}

/// Solve `a · x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve<const D: usize>(mut a: [[f64; D]; D], mut b: [f64; D]) -> Option<[f64; D]> {
    for col in 0..D {
        let piv = (col..D).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[piv][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        let pivot = a[col];
        for r in col + 1..D {
            let f = a[r][col] / pivot[col];
            for (x, p) in a[r].iter_mut().zip(&pivot).skip(col) {
                *x -= f * p;
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = [0.0; D];
    for r in (0..D).rev() {
        let s: f64 = (r + 1..D).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

/// The threshold with the best utility when a wrong acceptance costs `precision / (1 − precision)`
/// right ones — the operating point of a judge that should be right at least `precision` of the
/// time *at the margin* (0.5: accept whatever is more likely right than wrong). Ties go to the
/// higher threshold; `1.0` when accepting nothing is best. `scored` holds (p, is positive).
pub fn best_utility_threshold(scored: &[(f64, bool)], precision: f64) -> f64 {
    let cost = precision.clamp(0.0, 0.999) / (1.0 - precision.clamp(0.0, 0.999));
    // A probability that is not a number (features of a crafted index) is no threshold, and the
    // tie loop below would never move past it (NaN ≠ NaN): left out.
    let mut s: Vec<(f64, bool)> = scored.iter().copied().filter(|x| x.0.is_finite()).collect();
    s.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (mut utility, mut best_u, mut best) = (0.0f64, 0.0f64, 1.0);
    let mut i = 0;
    while i < s.len() {
        let p = s[i].0;
        while i < s.len() && s[i].0 == p {
            utility += if s[i].1 { 1.0 } else { -cost };
            i += 1;
        }
        if utility > best_u + 1e-12 {
            best_u = utility;
            best = p;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_that_is_not_a_number_is_no_threshold() {
        // NaN never equals itself: the tie loop once never moved past it.
        let scored = [(f64::NAN, true), (0.9, true), (0.5, true), (0.4, false), (f64::NAN, false)];
        assert_eq!(best_utility_threshold(&scored, 0.5), 0.5);
        assert_eq!(best_utility_threshold(&[(f64::NAN, true)], 0.5), 1.0);
    }

    fn f(a: f64, b: f64) -> Features {
        let mut x = [0.0; COUNT];
        x[0] = a;
        x[1] = b;
        Features(x)
    }

    #[test]
    fn fits_a_separable_direction_and_is_deterministic() {
        let mut data = Vec::new();
        for i in 0..40 {
            let v = i as f64 / 40.0;
            data.push((f(v, 0.5), v > 0.45));
        }
        let m = Logistic::fit(&data, 0.01);
        assert!(m.weights[0] > 1.0, "{m:?}");
        assert!(m.p(&f(0.9, 0.5)) > 0.9 && m.p(&f(0.1, 0.5)) < 0.1);
        assert_eq!(m, Logistic::fit(&data, 0.01));
    }

    #[test]
    fn threshold_for_an_operating_point() {
        let s = [(0.9, true), (0.8, true), (0.7, false), (0.6, true), (0.5, false), (0.4, false)];
        assert_eq!(best_utility_threshold(&s, 0.9), 0.8);
        assert_eq!(best_utility_threshold(&s, 0.5), 0.8);
        assert_eq!(best_utility_threshold(&s, 0.2), 0.6);
        assert_eq!(best_utility_threshold(&[(0.3, false)], 0.5), 1.0);
    }
}
