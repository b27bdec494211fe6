//! Floats as decimal text, exactly as core's `Display` prints them (`{}` of an `f64`: the
//! shortest digits that read back to the same value, positional notation, `NaN`, `inf`, `-inf`,
//! `-0`), but through zmij's shortest-digits writer, which serde_json links anyway.
//!
//! Why: core's float `Display` brings its whole `flt2dec` (Grisu and Dragon, shortest and exact,
//! bignum arithmetic) into the browser wasm. groundgate's outputs that print a float (the detailed
//! format's score line, the gate summary, error messages) go through [`Decimal`] instead, so the
//! browser build does not link it (docs/peer-bench.md, web size). The conversion itself has one
//! home: vendor/serde_core, whose `Unexpected::Float` (serde's "floating point `1.5`" in error
//! messages) prints core's text from zmij's digits (vendor/serde_core/PATCHED.md); [`Decimal`]
//! takes the number out of that text. The tests compare with core's output over hundreds of
//! thousands of values.

use std::fmt;

/// An `f64` printed as core's `Display` prints it (`format!("{}", x)`), padded by the formatter's
/// width and fill like a string. There is no `f32` form: print `Decimal(f64::from(x))`, exact
/// though not the `f32`'s shortest digits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decimal<F>(pub F);

impl fmt::Display for Decimal<f64> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The patched serde_core prints `Unexpected::Float` as "floating point `…`" with core's
        // text inside, ".0" appended when that has no decimal point (core's shortest digits never
        // end in a zero after the point, so a ".0" at the end is always that suffix).
        let text = serde::de::Unexpected::Float(self.0).to_string();
        let inner = text.strip_prefix("floating point `").and_then(|t| t.strip_suffix('`')).unwrap_or(&text);
        let inner = if self.0.is_finite() { inner.strip_suffix(".0").unwrap_or(inner) } else { inner };
        f.pad(inner)
    }
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
    fn padding_follows_the_formatter() {
        assert_eq!(format!("{:>6}|{:<5}|", Decimal(1.5f64), Decimal(-0.0f64)), "   1.5|-0   |");
    }

    #[test]
    fn exponents_become_positional() {
        for (x, text) in [
            (1e20, "100000000000000000000"),
            (1.5e-7, "0.00000015"),
            (-125.0, "-125"),
            (-0.0, "-0"),
            (10.0, "10"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(Decimal(x).to_string(), text);
        }
    }

    #[test]
    fn ties_go_to_the_larger_magnitude() {
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
