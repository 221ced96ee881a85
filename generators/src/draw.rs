//! Where the generators' decisions come from.
//!
//! Every generator reads its decisions from an [`arbitrary::Unstructured`]
//! through [`Draw`], whose helpers are written so that **a zero byte, or no
//! byte at all, always means the smallest choice**: stop adding statements,
//! take the first (simplest) entry of a choice table, answer "no" to every
//! optional construct. So an exhausted or zeroed input yields the smallest
//! program, and shrinking the input toward zeros (as proptest and libFuzzer
//! do) shrinks the program, while every input still yields a valid one.
//!
//! Seeds: [`seed_bytes`] expands a `u64` into a byte buffer with SplitMix64
//! (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014). It is ten lines of our own, so the bytes for a
//! seed, and therefore the program, never change with a dependency's
//! version: same seed, same program, byte for byte (DESIGN.md section 5).

use arbitrary::Unstructured;

/// How many bytes [`seed_bytes`] makes for one program: more than any
/// program of the default configuration reads (about 1 to 3 KiB), so a
/// seeded program is never cut short by its input.
pub const SEED_BYTES: usize = 16 * 1024;

/// Expands `seed` into `len` pseudo-random bytes (SplitMix64).
pub fn seed_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        out.extend_from_slice(&z.to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Decision helpers over an [`Unstructured`]; none of them fails, and each
/// returns its smallest answer when the input is exhausted.
pub struct Draw<'u, 'd> {
    u: &'u mut Unstructured<'d>,
}

impl<'u, 'd> Draw<'u, 'd> {
    /// Wraps an input.
    pub fn new(u: &'u mut Unstructured<'d>) -> Draw<'u, 'd> {
        Draw { u }
    }

    /// One byte, 0 once the input is exhausted.
    pub fn byte(&mut self) -> u8 {
        let mut b = [0u8];
        match self.u.fill_buffer(&mut b) {
            Ok(()) => b[0],
            Err(_) => 0,
        }
    }

    /// True with probability about `percent`/100 on random input; false on
    /// a zero byte (for `percent < 100`).
    pub fn chance(&mut self, percent: u8) -> bool {
        let p = u32::from(percent.min(100));
        u32::from(self.byte()) * 100 >= (100 - p) * 256
    }

    /// A number in `0..n` (0 when `n <= 1`), 0 on a zero byte.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        if n <= 256 {
            return usize::from(self.byte()) % n;
        }
        let hi = usize::from(self.byte());
        let lo = usize::from(self.byte());
        (hi * 256 + lo) % n
    }

    /// A number in `lo..=hi`, `lo` on a zero byte.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        if hi <= lo {
            return lo;
        }
        lo + self.below(hi - lo + 1)
    }

    /// An index into `weights` drawn with those weights; entries of weight 0
    /// are never drawn. A zero byte draws the first entry of positive
    /// weight, so tables list their simplest entry first. `None` when every
    /// weight is 0.
    pub fn weighted(&mut self, weights: &[u32]) -> Option<usize> {
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return None;
        }
        let mut r = self.below(total as usize) as u32;
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return Some(i);
            }
            r -= w;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_input_gives_smallest_answers() {
        let data = [0u8; 8];
        let mut u = Unstructured::new(&data);
        let mut d = Draw::new(&mut u);
        assert!(!d.chance(99));
        assert_eq!(d.below(7), 0);
        assert_eq!(d.range(3, 9), 3);
        assert_eq!(d.weighted(&[0, 2, 5]), Some(1));
        let mut empty = Unstructured::new(&[]);
        let mut d = Draw::new(&mut empty);
        assert!(!d.chance(50));
        assert_eq!(d.weighted(&[1, 1]), Some(0));
    }

    #[test]
    fn seed_bytes_are_stable() {
        // SplitMix64's first output for seed 0 is 0xE220A8397B1DCDAF.
        assert_eq!(
            seed_bytes(0, 8),
            0xE220_A839_7B1D_CDAFu64.to_le_bytes().to_vec()
        );
        assert_eq!(seed_bytes(7, 100), seed_bytes(7, 100));
        assert_ne!(seed_bytes(7, 100), seed_bytes(8, 100));
    }
}
