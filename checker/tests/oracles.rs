//! The checker's fuzz oracle on seeded kernels (the `safe_passes`
//! cargo-fuzz target runs the same function on libFuzzer's inputs).

use convcheck_generators::{generate_seeded, Config};

/// Regression: on these seeds the oracle first flagged `branch-dist.fixed`
/// because the engine compared data-carrying barrier results in a scenario
/// where the reference already had barrier divergence (results undefined
/// there); the engine now compares them only in hazard-free reference
/// scenarios (`engine::hazards_differ`).
#[test]
fn safe_passes_are_never_flagged_on_seeded_kernels() {
    for seed in 0..60u64 {
        convcheck::oracles::safe_passes(&generate_seeded(&Config::default(), seed));
    }
    let loops = convcheck::fuzz::fuzz_config();
    for seed in 0..40u64 {
        convcheck::oracles::safe_passes(&generate_seeded(&loops, seed));
    }
}
