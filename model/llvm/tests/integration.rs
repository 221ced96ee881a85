//! Every integration test of this crate in one test binary.
//!
//! Each file beside this one is a module here (`#[path]`), not a test
//! binary of its own: cargo runs test binaries one after another, so a
//! binary with one long test left the machine's other core idle, and
//! every binary linked the library again. In one binary the harness
//! runs the tests of every file on the same threads
//! (docs/src/architecture.md, "Tests"). Run one file's tests with
//! `cargo test -p CRATE --test integration FILE::`; the tidy test checks
//! that every file beside this one is listed here.
#![deny(unsafe_code)]
// Each file keeps its own `mod common;`, so a helper module is compiled
// once per file that uses it, as it was with a binary per file.
#![allow(clippy::duplicate_mod)]

#[path = "compiler_output.rs"]
mod compiler_output;
#[path = "constructs.rs"]
mod constructs;
#[path = "errors.rs"]
mod errors;
#[path = "float_oracle.rs"]
mod float_oracle;
#[path = "fresh_compiler.rs"]
mod fresh_compiler;
#[path = "function_oracle.rs"]
mod function_oracle;
#[path = "module_level.rs"]
mod module_level;
#[path = "numbering.rs"]
mod numbering;
#[path = "robustness.rs"]
mod robustness;
#[path = "round_trip.rs"]
mod round_trip;
#[path = "semantics.rs"]
mod semantics;
#[path = "spurious.rs"]
mod spurious;
#[path = "tidy.rs"]
mod tidy;
#[path = "to_ir.rs"]
mod to_ir;
#[path = "uniform_invariant.rs"]
mod uniform_invariant;
#[path = "verifier.rs"]
mod verifier;
#[path = "verifier_agrees.rs"]
mod verifier_agrees;
#[path = "verifier_real.rs"]
mod verifier_real;
#[path = "write.rs"]
mod write;
