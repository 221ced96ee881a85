//! proptest strategies.
//!
//! Every strategy draws a byte vector and turns it into a value with the
//! generators of this crate, so proptest's shrinking works on the bytes:
//! it removes bytes and moves them toward zero, and since a zero or missing
//! byte always means the smallest choice ([`crate::draw`]), the program
//! shrinks while every shrunk value is still valid by construction.

use crate::cfg_gen::{generate_cfg, CfgCase, CfgConfig};
use crate::config::Config;
use crate::generate;
use arbitrary::{Arbitrary, Unstructured};
use convcheck_ir::scenario::Scenario;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::File;
use proptest::prelude::*;

/// How many bytes a strategy draws: enough for the default configuration's
/// largest programs.
pub const BYTES: usize = 4096;

/// Byte vectors of up to `max` bytes.
pub fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..=max)
}

/// Kernels generated with `config`.
pub fn kernel(config: Config) -> impl Strategy<Value = File> {
    bytes(BYTES).prop_map(move |b| generate(&config, &mut Unstructured::new(&b)))
}

/// Swarm kernels: a configuration drawn from the first bytes, then a
/// kernel generated with it from the rest.
pub fn swarm_kernel() -> impl Strategy<Value = (Config, File)> {
    bytes(BYTES).prop_map(|b| {
        let mut u = Unstructured::new(&b);
        let config = Config::arbitrary(&mut u).unwrap_or_default();
        let file = generate(&config, &mut u);
        (config, file)
    })
}

/// Random CFG cases: one-function IR modules, no kernel (see
/// [`crate::cfg_gen`]).
pub fn cfg_case(config: CfgConfig) -> impl Strategy<Value = CfgCase> {
    bytes(512).prop_map(move |b| generate_cfg(&config, &mut Unstructured::new(&b)))
}

/// A kernel and a scenario of `threads` threads for it (lists of up to 4
/// values per oracle and thread).
pub fn kernel_and_scenario(
    config: Config,
    threads: u32,
) -> impl Strategy<Value = (File, Scenario)> {
    (bytes(BYTES), bytes(512)).prop_map(move |(kb, sb)| {
        let file = generate(&config, &mut Unstructured::new(&kb));
        let k = match Kernel::new("generated.c", file.clone()) {
            Ok(k) => k,
            Err(d) => panic!("generated kernel rejected: {d}"),
        };
        let s = crate::scenario::scenario(&k.module(), threads, 4, &mut Unstructured::new(&sb));
        (file, s)
    })
}
