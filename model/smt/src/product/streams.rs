//! The oracle streams both programs of a product read: uninterpreted
//! functions from an evaluation index to a value, per oracle name and per
//! thread, except that a uniform-invariant oracle has one function that
//! both threads read (at index 0): one value for the whole run, the same
//! in every thread.

use convcheck_ir::{Module, OracleClass};
use z3::{FuncDecl, Sort};

/// The oracle streams of `names`, per name one function per thread, except
/// that an oracle that `module` (the reference's, which defines the
/// scenarios) makes uniform-invariant gets one function for both threads:
/// read at index 0 by both, it is one value for the whole run.
pub(crate) fn streams(
    names: &[String],
    module: &Module,
    counter: &Sort,
    value: &Sort,
) -> Vec<[FuncDecl; 2]> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let shared = module
                .oracle(name)
                .is_some_and(|o| module.oracles[o].class == OracleClass::UniformInvariant);
            if shared {
                // z3 identifies a function by its name and signature: the
                // two declarations are one function.
                [0, 1].map(|_| FuncDecl::new(format!("v{i}"), &[counter], value))
            } else {
                [0, 1].map(|t| FuncDecl::new(format!("v{i}.t{t}"), &[counter], value))
            }
        })
        .collect()
}
