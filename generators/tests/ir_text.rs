//! The IR's text form reads back to the module it was printed from:
//! `convcheck_ir::parse::parse_module(module_text(m)) == m`, for the
//! modules a generated kernel lowers to (with and without convergence
//! tokens) and for random IR functions of `cfg_gen`, whose fuzz cases
//! (`ArbCfg`) print as module files.
//!
//! This is what makes a module's text a replayable test file (fuzz cases
//! print it, `.cir` files are written by hand and by external passes): if
//! anything the printer writes is lost or changed on the way back, a
//! replayed case would not be the case that failed.

use arbitrary::{Arbitrary, Unstructured};
use convcheck_generators::{strategies, ArbCfg};
use convcheck_ir::parse::parse_module;
use convcheck_ir::print::module_text;
use convcheck_ir::Module;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use proptest::prelude::*;
use proptest::test_runner::Config as PtConfig;

/// Prints `m`, reads it back, and requires the same module.
fn round_trip(m: &Module) -> Result<(), TestCaseError> {
    let text = module_text(m);
    let back = match parse_module("printed.cir", &text) {
        Ok(back) => back,
        Err(d) => {
            return Err(TestCaseError::fail(format!(
                "the printed module does not read back:\n{d}\n--- text ---\n{text}"
            )))
        }
    };
    prop_assert!(
        back == *m,
        "the module read back differs from the one printed\n--- text ---\n{}\n--- read back, printed ---\n{}",
        text,
        module_text(&back)
    );
    Ok(())
}

proptest! {
    #![proptest_config(PtConfig { cases: 64, failure_persistence: None, ..PtConfig::default() })]

    #[test]
    fn lowered_kernels_print_and_read_back_equal((_, file) in strategies::swarm_kernel()) {
        let kernel = Kernel::new("generated.c", file).unwrap();
        for tokens in [false, true] {
            round_trip(&lower(&kernel, tokens))?;
        }
    }

    #[test]
    fn random_ir_functions_print_and_read_back_equal(bytes in strategies::bytes(600)) {
        // A swarm configuration, then the function, as libFuzzer draws them.
        let c = ArbCfg::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        round_trip(&c.case.module)?;
        // A fuzz case's `Debug` (a comment naming the configuration, then
        // the module) is a module file as it stands.
        let debug = format!("{c:?}");
        let back = parse_module("case.cir", &debug);
        prop_assert!(back.as_ref() == Ok(&c.case.module), "{:?}\n{}", back.err(), debug);
    }
}
