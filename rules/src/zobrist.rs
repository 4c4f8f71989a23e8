//! The one mixer behind every game's hash keys: SplitMix64, fixed so that
//! keys are the same in every build.

/// SplitMix64's increment (the golden ratio in 64 bits).
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijection on `u64` that mixes every bit.
#[inline]
pub(crate) const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step from `state`: the output for state `x` alone.
pub(crate) const fn splitmix64(x: u64) -> u64 {
    mix(x.wrapping_add(GOLDEN))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // SplitMix64 seeded with 0: its first output is 0xE220A8397B1DCDAF.
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_ne!(mix(1), mix(2));
    }
}
