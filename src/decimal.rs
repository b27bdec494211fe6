//! Floats as decimal text, exactly as core's `Display` prints them (`{}` of an `f32` / `f64`:
//! the shortest digits that read back to the same value, positional notation, `NaN`, `inf`,
//! `-inf`, `-0`), but through zmij's shortest-digits writer, which serde_json links anyway.
//!
//! Why: core's float `Display` brings its whole `flt2dec` (Grisu and Dragon, shortest and exact,
//! bignum arithmetic) into the browser wasm. groundgate's outputs that print a float (the detailed
//! format's score line, the gate summary, error messages) go through [`Decimal`] instead, so the
//! browser build does not link it (docs/peer-bench.md, web size). The same text: the tests compare
//! with core's output over hundreds of thousands of values. vendor/serde_core prints serde's
//! `Unexpected::Float` the same way (its own copy of this conversion, tested likewise).

use std::fmt;

/// A float printed as core's `Display` prints it (`format!("{}", x)`), padded by the formatter's
/// width and fill like a string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decimal<F>(pub F);

impl fmt::Display for Decimal<f64> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&display(self.0, zmij::Buffer::new().format(self.0)))
    }
}

impl fmt::Display for Decimal<f32> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // An f32 is exactly an f64: the tie test below works on the same value.
        f.pad(&display(f64::from(self.0), zmij::Buffer::new().format(self.0)))
    }
}

/// `value` printed as core prints it, from zmij's text `z` of the same value (of its f32 when it
/// is one). zmij's text has the shortest digits that read back to the value, in exponent notation
/// for large and small magnitudes, or `NaN`, `inf`, `-inf`. Rewritten positionally (`1e20` →
/// `100000000000000000000`, `1.5e-7` → `0.00000015`, `-0.0` → `-0`), with one correction: when
/// the value lies exactly halfway between two shortest candidates, zmij takes the one with an even
/// last digit and core the larger magnitude (Grisu's digit generation starts from the upper bound
/// and stops on a tie), so a lower even candidate is stepped up by one unit in its last digit.
fn display(value: f64, z: &str) -> String {
    let (neg, body) = match z.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, z),
    };
    if !body.starts_with(|c: char| c.is_ascii_digit()) {
        return z.to_string();
    }
    let (mantissa, exp) = match body.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (body, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // The digits int ++ frac, with the decimal point `point` digits from their start.
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let mut point = int.len() as i32 + exp;
    let lead = digits.iter().take_while(|&&d| d == 0).count();
    digits.drain(..lead);
    point -= lead as i32;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    if !digits.is_empty() && below_by_half_unit(value.abs(), &digits, point) {
        step_up(&mut digits, &mut point);
    }
    let mut out = String::with_capacity(digits.len() + 8);
    if neg {
        out.push('-');
    }
    let n = digits.len() as i32;
    let text = |d: &[u8]| d.iter().map(|&b| char::from(b'0' + b)).collect::<String>();
    if digits.is_empty() {
        out.push('0');
    } else if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
        out.push_str(&text(&digits));
    } else if point >= n {
        out.push_str(&text(&digits));
        out.extend(std::iter::repeat_n('0', (point - n) as usize));
    } else {
        out.push_str(&text(&digits[..point as usize]));
        out.push('.');
        out.push_str(&text(&digits[point as usize..]));
    }
    out
}

/// Whether `v` (finite, ≥ 0) is exactly 0.d₁d₂…dₙ5 × 10^point: the digits plus half a unit in
/// their last place. Exact integer arithmetic on v = m·2^e; false where it cannot hold (the
/// numbers would not fit: such a v has no short decimal expansion).
fn below_by_half_unit(v: f64, digits: &[u8], point: i32) -> bool {
    let bits = v.to_bits();
    let (biased, frac) = ((bits >> 52) as i32, bits & ((1 << 52) - 1));
    let (m, e) = if biased == 0 { (frac, -1074) } else { (frac | 1 << 52, biased - 1075) };
    if m == 0 || digits.len() > 30 {
        return false;
    }
    // n·10^k with n = d₁…dₙ5 and k = point − len − 1.
    let n = digits.iter().fold(0u128, |a, &d| a * 10 + u128::from(d)) * 10 + 5;
    let k = point - digits.len() as i32 - 1;
    let shl = |x: u128, s: i32| -> Option<u128> {
        (s < 128 && (x == 0 || x.leading_zeros() as i32 >= s)).then(|| x << s)
    };
    let pow5 = |j: i32| -> Option<u128> { (0..j).try_fold(1u128, |p, _| p.checked_mul(5)) };
    let m = u128::from(m);
    if k >= 0 {
        // m·2^e = n·5^k·2^k
        let Some(r) = pow5(k).and_then(|p| p.checked_mul(n)) else { return false };
        let d = e - k;
        if d >= 0 { shl(m, d) == Some(r) } else { shl(r, -d) == Some(m) }
    } else {
        // m·5^j·2^(e+j) = n, j = −k
        let j = -k;
        let Some(p) = pow5(j).and_then(|p| p.checked_mul(m)) else { return false };
        let d = e + j;
        if d >= 0 { shl(p, d) == Some(n) } else { shl(n, -d) == Some(p) }
    }
}

/// Add one unit in the last place of the digits (999 → 1, one more place before the point).
fn step_up(digits: &mut Vec<u8>, point: &mut i32) {
    while let Some(d) = digits.pop() {
        if d < 9 {
            digits.push(d + 1);
            return;
        }
    }
    digits.push(1);
    *point += 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_bits::Bits;

    fn special_f64() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.3,
            1.5,
            2.5,
            100.0,
            1e15,
            1e16,
            1e17,
            1e21,
            1e22,
            1e23,
            1e-5,
            1e-7,
            5e-324,
            -5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            123456789.0,
            0.000123,
            8.0,
            0.1 + 0.2,
        ];
        for e in -30..=30 {
            v.push(10f64.powi(e));
            v.push(-(10f64.powi(e)) * 1.25);
            v.push(2f64.powi(e * 3));
        }
        for i in 0..2000 {
            v.push(i as f64 / 1000.0);
            v.push(i as f64 * 0.0001);
            v.push((i as f64).sqrt());
        }
        v
    }

    #[test]
    fn f64_text_is_cores_display() {
        let mut values = special_f64();
        let mut g = Bits(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200_000 {
            values.push(f64::from_bits(g.next())); // every exponent, NaNs and infinities included
        }
        for _ in 0..100_000 {
            // scores, thresholds, probabilities: small magnitudes with few digits
            let x = (g.next() % 10_000_000) as f64 / 10f64.powi((g.next() % 9) as i32);
            values.push(x);
            values.push((x * 1e4).round() / 1e4);
            values.push(1.0 / (1.0 + (-x).exp()));
        }
        for x in values {
            assert_eq!(Decimal(x).to_string(), format!("{x}"), "{:016x}", x.to_bits());
        }
    }

    #[test]
    fn f32_text_is_cores_display() {
        let mut values: Vec<f32> = special_f64().into_iter().map(|x| x as f32).collect();
        let mut g = Bits(0xD1B5_4A32_D192_ED03);
        for _ in 0..300_000 {
            values.push(f32::from_bits(g.next() as u32));
        }
        // every f32 with one in 4099 bit patterns: all exponents, dense in each
        values.extend((0..=u32::MAX).step_by(4099).map(f32::from_bits));
        for x in values {
            assert_eq!(Decimal(x).to_string(), format!("{x}"), "{:08x}", x.to_bits());
        }
    }

    #[test]
    fn padding_follows_the_formatter() {
        assert_eq!(format!("{:>6}|{:<5}|", Decimal(1.5f64), Decimal(-0.0f32)), "   1.5|-0   |");
    }

    #[test]
    fn exponents_become_positional() {
        assert_eq!(display(1e20, "1e20"), "100000000000000000000");
        assert_eq!(display(1.5e-7, "1.5e-7"), "0.00000015");
        assert_eq!(display(-125.0, "-1.25e2"), "-125");
        assert_eq!(display(-0.0, "-0.0"), "-0");
        assert_eq!(display(f64::NAN, "NaN"), "NaN");
        assert_eq!(display(f64::NEG_INFINITY, "-inf"), "-inf");
    }

    #[test]
    fn ties_go_to_the_larger_magnitude() {
        // 2⁻¹² = 0.000244140625 as f32: shortest 0.00024414062 and …63 are equally near.
        assert_eq!(Decimal(2f32.powi(-12)).to_string(), "0.00024414063");
        assert_eq!(Decimal(-(2f32.powi(-12))).to_string(), "-0.00024414063");
        assert_eq!(
            Decimal(f64::from_bits(0x4313_d27d_a8ac_08c1)) /* 1394865425023536.25 */
                .to_string(),
            "1394865425023536.3"
        );
        // not a tie: stays
        assert_eq!(Decimal(0.1f64).to_string(), "0.1");
    }

    #[test]
    fn dyadic_values_are_cores_display() {
        // Ties live among short binary fractions: m·2^e for small m, every exponent.
        for e in -160..=100 {
            for m in 1..600u32 {
                let x = f64::from(m) * 2f64.powi(e);
                assert_eq!(Decimal(x).to_string(), format!("{x}"), "{m}·2^{e}");
                let y = x as f32;
                assert_eq!(Decimal(y).to_string(), format!("{y}"), "{m}·2^{e} f32");
            }
        }
    }

    /// vendor/serde_core's `Unexpected::Float` text: upstream printed core's `{}` and ".0" when
    /// that has no decimal point; the patched crate prints through zmij.
    #[test]
    fn serde_unexpected_float_keeps_its_text() {
        let mut values = special_f64();
        let mut g = Bits(0x2545_F491_4F6C_DD1D);
        values.extend((0..200_000).map(|_| f64::from_bits(g.next())));
        for e in -80..=80 {
            values.extend((1..300u32).map(|m| f64::from(m) * 2f64.powi(e)));
        }
        for x in values {
            let core = format!("{x}");
            let upstream = if x.is_finite() && !core.contains('.') { core + ".0" } else { core };
            let patched = serde::de::Unexpected::Float(x).to_string();
            assert_eq!(patched, format!("floating point `{upstream}`"), "{:016x}", x.to_bits());
        }
    }
}
