//! Random IR functions: maximal-convergence keys against LLVM's relational
//! definition solved by z3 (`oracles::keys_vs_relational`).
#![no_main]

use convcheck_generators::ArbCfg;

libfuzzer_sys::fuzz_target!(|c: ArbCfg| {
    convcheck_generators::oracles::keys_vs_relational(&c.case);
});
