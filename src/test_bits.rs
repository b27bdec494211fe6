//! A small deterministic generator for unit tests (xorshift64*): the same values on every run and
//! platform, so property tests over many values stay reproducible.

/// The generator's state; seed it with any non-zero value.
pub(crate) struct Bits(pub(crate) u64);

impl Bits {
    /// The next 64 pseudo-random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}
