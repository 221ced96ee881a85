//! Measures how many kernels per second the generator makes.
//!
//! `cargo run --release -p convcheck-generators --example throughput`
//! prints, for the default and swarm configurations, the rate of
//! `generate_tree` (the tree alone), `generate` (tree, print and parse
//! back for spans) and `generate` followed by `Kernel::new`, plus random
//! CFG cases. The figures are recorded in docs/src/fuzzing.md.

use arbitrary::Unstructured;
use convcheck_generators::draw::{seed_bytes, Draw, SEED_BYTES};
use convcheck_generators::kernel::generate_tree;
use convcheck_generators::*;
use convcheck_lang::sema::Kernel;
use std::time::{Duration, Instant};

/// Runs `f(seed)` for seeds 0, 1, ... for about `secs` seconds; returns
/// the rate per second and the number of runs.
fn rate(secs: f64, mut f: impl FnMut(u64)) -> (f64, u64) {
    let start = Instant::now();
    let mut n = 0;
    while start.elapsed() < Duration::from_secs_f64(secs) {
        for _ in 0..16 {
            f(n);
            n += 1;
        }
    }
    (n as f64 / start.elapsed().as_secs_f64(), n)
}

fn main() {
    let secs = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let config = Config::default();
    // Seed bytes are made outside the timed loops where possible.
    let bytes: Vec<Vec<u8>> = (0..256).map(|s| seed_bytes(s, SEED_BYTES)).collect();
    let report = |what: &str, (r, n): (f64, u64)| println!("{what:<44} {r:>10.0} /s ({n} runs)");
    report(
        "generate_tree, default config",
        rate(secs, |s| {
            let b = &bytes[(s % 256) as usize];
            std::hint::black_box(generate_tree(&config, Draw::new(&mut Unstructured::new(b))));
        }),
    );
    report(
        "generate (with spans), default config",
        rate(secs, |s| {
            std::hint::black_box(generate_seeded(&config, s));
        }),
    );
    let trees: Vec<_> = bytes
        .iter()
        .map(|b| generate_tree(&config, Draw::new(&mut Unstructured::new(b))))
        .collect();
    report(
        "print + parse of a default kernel",
        rate(secs, |s| {
            std::hint::black_box(analysis::respan(&trees[(s % 256) as usize]).is_ok());
        }),
    );
    report(
        "seed_bytes (16 KiB)",
        rate(secs, |s| {
            std::hint::black_box(seed_bytes(s, SEED_BYTES));
        }),
    );
    report(
        "generate + Kernel::new, default config",
        rate(secs, |s| {
            let f = generate_seeded(&config, s);
            std::hint::black_box(Kernel::new("g.c", f).is_ok());
        }),
    );
    report(
        "generate (with spans), swarm config",
        rate(secs, |s| {
            std::hint::black_box(generate_swarm(s));
        }),
    );
    report(
        "random CFG case, default CfgConfig",
        rate(secs, |s| {
            let b = &bytes[(s % 256) as usize];
            let c = cfg_gen::generate_cfg(
                &cfg_gen::CfgConfig::default(),
                &mut Unstructured::new(&b[..512]),
            );
            std::hint::black_box(c);
        }),
    );
    let mut stmts = 0usize;
    for s in 0..1000 {
        stmts += analysis::statement_count(&generate_seeded(&config, s));
    }
    println!(
        "mean statements per default kernel: {:.1}",
        stmts as f64 / 1000.0
    );
}
