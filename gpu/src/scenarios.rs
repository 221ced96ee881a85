//! Scenarios for the hardware: per thread of the warp, a stream of values
//! for every oracle, drawn from the oracle's domain with a seed.
//!
//! Scenario `i` of seed `s` draws every value with its own probability of
//! being non-zero (0.3, 0.5, 0.7, 0.15, repeating), so loops that exit on
//! a zero end soon in some scenarios and run long in others; a value that
//! is not zero is drawn uniformly from the domain's other values. Every
//! stream has [`crate::instrument::Layout::stream_len`] values and reads 0
//! after them, on the hardware as in the model. The same seed gives the
//! same scenarios, byte for byte (SplitMix64, written out here so that the
//! stream does not depend on a crate's version).

use std::collections::BTreeMap;

/// The streams of one scenario: per thread, oracle name to values.
pub type Streams = Vec<BTreeMap<String, Vec<i64>>>;

/// SplitMix64: a small, well-mixed generator with a fixed definition.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The non-zero probabilities of successive scenarios, in percent.
const NONZERO_PERCENT: [u64; 4] = [30, 50, 70, 15];

/// `count` scenarios of `threads` threads for oracles `(name, domain)`.
pub fn generate(
    oracles: &[(String, Vec<i64>)],
    threads: u32,
    stream_len: u32,
    count: usize,
    seed: u64,
) -> Vec<Streams> {
    let mut rng = SplitMix(seed);
    (0..count)
        .map(|i| {
            let p = NONZERO_PERCENT[i % NONZERO_PERCENT.len()];
            (0..threads)
                .map(|_| {
                    oracles
                        .iter()
                        .map(|(name, domain)| {
                            let nonzero: Vec<i64> =
                                domain.iter().copied().filter(|&v| v != 0).collect();
                            let values = (0..stream_len)
                                .map(|_| {
                                    let pick_nonzero = rng.below(100) < p || !domain.contains(&0);
                                    if pick_nonzero && !nonzero.is_empty() {
                                        nonzero[rng.below(nonzero.len() as u64) as usize]
                                    } else {
                                        0
                                    }
                                })
                                .collect();
                            (name.clone(), values)
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The flat stream array of one scenario for the device: thread-major,
/// then oracle in `slots` order, then `stream_len` values (0 where a
/// thread has no value).
pub fn flatten(s: &Streams, slots: &[String], threads: u32, stream_len: u32) -> Vec<i64> {
    let k = stream_len as usize;
    let mut out = vec![0i64; threads as usize * slots.len().max(1) * k];
    for (t, m) in s.iter().enumerate().take(threads as usize) {
        for (o, name) in slots.iter().enumerate() {
            if let Some(vals) = m.get(name) {
                for (i, v) in vals.iter().take(k).enumerate() {
                    out[(t * slots.len().max(1) + o) * k + i] = *v;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_scenarios_and_values_come_from_the_domain() {
        let o = vec![("c".to_string(), vec![0, 1]), ("n".to_string(), vec![2, 5])];
        let a = generate(&o, 32, 16, 4, 7);
        assert_eq!(a, generate(&o, 32, 16, 4, 7));
        assert_ne!(a, generate(&o, 32, 16, 4, 8));
        for s in &a {
            assert_eq!(s.len(), 32);
            for t in s {
                assert!(t["c"].iter().all(|v| [0, 1].contains(v)));
                assert!(t["n"].iter().all(|v| [2, 5].contains(v)));
                assert_eq!(t["c"].len(), 16);
            }
        }
        // Scenarios differ in how often a value is not zero.
        let ones = |s: &Streams| s.iter().map(|t| t["c"].iter().sum::<i64>()).sum::<i64>();
        assert!(ones(&a[3]) < ones(&a[2]));
        let flat = flatten(&a[0], &["n".to_string(), "c".to_string()], 32, 16);
        assert_eq!(flat.len(), 32 * 2 * 16);
        assert_eq!(flat[..16], a[0][0]["n"][..]);
        assert_eq!(flat[16..32], a[0][0]["c"][..]);
    }
}
