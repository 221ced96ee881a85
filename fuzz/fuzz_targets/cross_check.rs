//! Swarm-generated kernels through a pass of the registry (the first byte
//! picks it, safe or unsafe): the explicit and the symbolic engines must
//! not decide the check differently (`convcheck::oracles::cross`).
#![no_main]

use convcheck_generators::ArbKernel;

libfuzzer_sys::fuzz_target!(|input: (u8, ArbKernel)| {
    convcheck::oracles::cross::engines_agree(&input.1.file, input.0);
});
