//! Random IR functions (self-describing modules, no kernel): `CycleInfo`
//! against its definition, and maximal convergence keys under every
//! hierarchy (`oracles::cycle_info`, `oracles::cfg_keys`).
#![no_main]

use convcheck_generators::ArbCfg;

libfuzzer_sys::fuzz_target!(|c: ArbCfg| {
    convcheck_generators::oracles::cycle_info(c.case.cfg());
    convcheck_generators::oracles::cfg_keys(&c.case);
});
