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
// Each file keeps its own `mod common;`, so a helper module is compiled
// once per file that uses it, as it was with a binary per file.
#![allow(clippy::duplicate_mod)]

#[path = "product.rs"]
mod product;
#[path = "product_keys.rs"]
mod product_keys;
#[path = "simulation.rs"]
mod simulation;
#[path = "simulation_hoist.rs"]
mod simulation_hoist;
#[path = "simulation_llvm.rs"]
mod simulation_llvm;
#[path = "simulation_loads.rs"]
mod simulation_loads;
#[path = "simulation_memory.rs"]
mod simulation_memory;
#[path = "smt.rs"]
mod smt;
#[path = "uniform_invariant.rs"]
mod uniform_invariant;
