//! Random kernels, IR functions and scenarios for convcheck (DESIGN.md
//! section 3).
//!
//! One generator, exposed three ways, so that property tests, quickcheck
//! and libFuzzer all draw the same programs:
//!
//! - [`generate`] turns a [`Config`] and an [`arbitrary::Unstructured`]
//!   into a kernel [`File`]; [`generate_seeded`] does it from a `u64` seed.
//!   Every file passes `Kernel::new`, has the single entry `kernel`, and
//!   its path enumeration stops within [`Config::iteration_bound`] and
//!   [`Config::max_paths`] (see [`kernel`] for how each is guaranteed).
//! - [`strategies`]: proptest strategies over byte vectors, so shrinking
//!   the bytes toward zero shrinks the program and keeps it valid;
//!   [`QcKernel`] implements `quickcheck::Arbitrary` (shrinking with
//!   [`shrink`]); [`ArbKernel`] implements `arbitrary::Arbitrary` with a
//!   swarm [`Config`] for libFuzzer.
//! - [`cfg_gen`] makes random IR functions, reducible or not, as complete
//!   self-describing `convcheck_ir::Module`s (op table, oracle table,
//!   blocks whose branches read oracles, observation points and convergent
//!   calls) that run, print and check without any kernel; [`ArbCfg`] is
//!   their `arbitrary::Arbitrary` form. [`scenario`] makes random
//!   scenarios for a module's oracles.
//!
//! [`shrink::shrink_kernel`] minimises a kernel while a predicate holds,
//! for counterexamples. [`oracles`] holds the checks the fuzz targets run
//! (each also run on seeded inputs under `cargo test`).
//!
//! Determinism: the same configuration and input bytes give the same
//! program, byte for byte; [`generate_seeded`] expands its seed with our own
//! SplitMix64 ([`draw::seed_bytes`]), so seeds stay stable across
//! dependency updates.

pub mod analysis;
pub mod arb;
pub mod cfg_gen;
pub mod config;
pub mod draw;
pub mod kernel;
pub mod oracles;
pub mod scenario;
pub mod shrink;
pub mod strategies;
pub mod uniform_fn;

pub use analysis::constructs;

pub use arb::{ArbCfg, ArbKernel, QcKernel};
pub use config::{Config, Construct};
pub use shrink::shrink_kernel;

use arbitrary::Unstructured;
use convcheck_lang::syntax::ast::File;

/// Generates a kernel from the decisions in `u`, with the spans of its
/// printed text (so trace-table labels such as `@12` and anonymous oracle
/// names such as `_L7` are the ones a user reading the text sees).
///
/// Never fails: an exhausted input makes the remaining choices the
/// smallest ones.
///
/// # Panics
///
/// If the model's printer writes text its parser does not read back, which
/// is a bug in the model worth the panic (the fuzz targets rely on it).
pub fn generate(config: &Config, u: &mut Unstructured<'_>) -> File {
    let tree = kernel::generate_tree(config, draw::Draw::new(u));
    match analysis::respan(&tree) {
        Ok(f) => f,
        Err(d) => panic!(
            "the printed text of a generated kernel does not parse:\n{d}\n--- text ---\n{}",
            convcheck_lang::syntax::print(&tree)
        ),
    }
}

/// Generates the kernel for `seed` (see [`draw::seed_bytes`]).
pub fn generate_seeded(config: &Config, seed: u64) -> File {
    let bytes = draw::seed_bytes(seed, draw::SEED_BYTES);
    generate(config, &mut Unstructured::new(&bytes))
}

/// The kernel for `seed` under a swarm configuration drawn from the same
/// seed: the configuration comes first, then the program.
pub fn generate_swarm(seed: u64) -> (Config, File) {
    let bytes = draw::seed_bytes(seed, draw::SEED_BYTES);
    let mut u = Unstructured::new(&bytes);
    let config: Config = u.arbitrary().unwrap_or_default();
    let file = generate(&config, &mut u);
    (config, file)
}
