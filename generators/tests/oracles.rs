//! Seeded smoke tests of the fuzz oracles: each runs the oracle a fuzz
//! target runs on a few hundred inputs made from seeds, so `cargo test`
//! exercises what `cargo fuzz run` does (regalloc2's habit).

use arbitrary::{Arbitrary, Unstructured};
use convcheck_generators::draw::seed_bytes;
use convcheck_generators::oracles;
use convcheck_generators::*;
use convcheck_lang::syntax::print;

/// Bytes for fuzz input `seed`, of a length that varies with the seed.
fn input(seed: u64) -> Vec<u8> {
    let len = 64 + (seed as usize * 97) % 4000;
    seed_bytes(seed, len)
}

#[test]
fn parse_kernel_oracle_on_generated_mutated_and_random_text() {
    for seed in 0..200u64 {
        let text = print(&generate_seeded(&Config::default(), seed));
        oracles::parse_round_trip(text.as_bytes());
        // Mutations: overwrite, delete and duplicate a few bytes.
        let mut bytes = text.into_bytes();
        let r = seed_bytes(seed ^ 0xA5A5, 16);
        for k in 0..4 {
            if bytes.is_empty() {
                break;
            }
            let at = usize::from(r[4 * k]) * bytes.len() / 256;
            match r[4 * k + 1] % 3 {
                0 => bytes[at] = b"{}();:?*/...ifgoto"[usize::from(r[4 * k + 2]) % 18],
                1 => {
                    bytes.remove(at);
                }
                _ => {
                    let b = bytes[at];
                    bytes.insert(at, b);
                }
            }
        }
        oracles::parse_round_trip(&bytes);
        oracles::parse_round_trip(&input(seed));
    }
}

#[test]
fn kernel_pipeline_oracle_on_seeded_swarm_kernels() {
    for seed in 0..200u64 {
        let data = input(seed);
        let k = ArbKernel::arbitrary(&mut Unstructured::new(&data)).unwrap();
        oracles::kernel_pipeline(&k.file, k.config.iteration_bound);
    }
}

#[test]
fn kernel_pipeline_oracle_on_default_kernels() {
    for seed in 0..150u64 {
        let f = generate_seeded(&Config::default(), seed);
        oracles::kernel_pipeline(&f, 2);
    }
}

#[test]
fn cycles_oracle_on_seeded_cfgs() {
    for seed in 0..400u64 {
        let data = input(seed);
        let c = ArbCfg::arbitrary(&mut Unstructured::new(&data)).unwrap();
        oracles::cycle_info(c.case.cfg());
        if seed < 150 {
            oracles::cfg_keys(&c.case);
        }
    }
}

#[test]
fn keys_vs_relational_oracle_on_seeded_cfgs() {
    for seed in 0..60u64 {
        let data = input(seed);
        let c = ArbCfg::arbitrary(&mut Unstructured::new(&data)).unwrap();
        oracles::keys_vs_relational(&c.case);
    }
}
