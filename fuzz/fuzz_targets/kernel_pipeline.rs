//! Swarm-generated kernels through the model's pipeline: sema, path
//! enumeration, keys, lowering (`oracles::kernel_pipeline`).
#![no_main]

use convcheck_generators::ArbKernel;

libfuzzer_sys::fuzz_target!(|k: ArbKernel| {
    convcheck_generators::oracles::kernel_pipeline(&k.file, k.config.iteration_bound);
});
