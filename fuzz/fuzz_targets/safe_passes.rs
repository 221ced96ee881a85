//! Swarm-generated kernels through every pass the registry calls safe:
//! none may be flagged by the checker (`convcheck::oracles::safe_passes`).
#![no_main]

use convcheck_generators::ArbKernel;

libfuzzer_sys::fuzz_target!(|k: ArbKernel| {
    convcheck::oracles::safe_passes(&k.file);
});
