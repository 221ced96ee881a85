//! What the simulation tests with memory share: the simulation's answer on
//! function `@k` of two modules, and whether the bounded product (an
//! independent engine, max-iters 2) refutes the pair, and the reading of a
//! program with the declarations a test file's programs need.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::Module;
use convcheck_smt::product::{compare_at, ProductOptions};
use convcheck_smt::simulation::{prove, SimAnswer, SimOptions};
use convcheck_smt::Answer;
use std::time::Duration;

/// The simulation's answer on `@k` of `r` against `@k` of `t`, at the
/// default options.
pub fn prove_k(r: Module, t: Module) -> SimAnswer {
    let (rf, tf) = (r.function("k").unwrap(), t.function("k").unwrap());
    prove(&r, rf, &t, tf, &SimOptions::default())
}

/// Whether the answer is a proof.
pub fn proved(a: &SimAnswer) -> bool {
    matches!(a, SimAnswer::Proved(_))
}

/// Whether the bounded product finds a counterexample to `@k` of `t`
/// against `@k` of `r` (max-iters 2).
pub fn refuted_k(r: Module, t: Module) -> bool {
    let (rf, tf) = (r.function("k").unwrap(), t.function("k").unwrap());
    let opts = ProductOptions {
        max_iters: 2,
        timeout: Duration::from_secs(60),
        ..ProductOptions::default()
    };
    let a = compare_at(&CfgProgram::new(r), &CfgProgram::new(t), [rf, tf], &opts);
    matches!(a, Answer::Counterexample(_))
}

/// The mapped module of the LLVM IR `text` with `declarations` appended.
pub fn module_with(text: &str, declarations: &str) -> Module {
    let text = format!("{text}\n{declarations}");
    let m = convcheck_llvm::parse_module(&text, "test.ll").unwrap_or_else(|e| panic!("{e}"));
    convcheck_llvm::to_ir::to_module(&m, "test.ll").module
}
