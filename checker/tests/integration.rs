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

#[path = "cli.rs"]
mod cli;
#[path = "corpus.rs"]
mod corpus;
#[path = "corpus_cmd.rs"]
mod corpus_cmd;
#[path = "determinism.rs"]
mod determinism;
#[path = "docs.rs"]
mod docs;
#[path = "engines.rs"]
mod engines;
#[path = "explore.rs"]
mod explore;
#[path = "explore_browser.rs"]
mod explore_browser;
#[path = "explore_clang.rs"]
mod explore_clang;
#[path = "frontend_cli.rs"]
mod frontend_cli;
#[path = "fuzz_dedup.rs"]
mod fuzz_dedup;
#[path = "fuzz_opt.rs"]
mod fuzz_opt;
#[path = "golden.rs"]
mod golden;
#[path = "gpu.rs"]
mod gpu;
#[path = "gpu_examples.rs"]
mod gpu_examples;
#[path = "int_intrinsics.rs"]
mod int_intrinsics;
#[path = "lit_run_lines.rs"]
mod lit_run_lines;
#[path = "llvm_blame.rs"]
mod llvm_blame;
#[path = "llvm_cli.rs"]
mod llvm_cli;
#[path = "llvm_convergent_survey.rs"]
mod llvm_convergent_survey;
#[path = "llvm_convergent_tests.rs"]
mod llvm_convergent_tests;
#[path = "llvm_engines.rs"]
mod llvm_engines;
#[path = "llvm_findings.rs"]
mod llvm_findings;
#[path = "llvm_known_miscompiles.rs"]
mod llvm_known_miscompiles;
#[path = "llvm_tests_style.rs"]
mod llvm_tests_style;
#[path = "loads.rs"]
mod loads;
#[path = "opt_args.rs"]
mod opt_args;
#[path = "oracles.rs"]
mod oracles;
#[path = "pass_cmd.rs"]
mod pass_cmd;
#[path = "replay.rs"]
mod replay;
#[path = "replay_llvm.rs"]
mod replay_llvm;
#[path = "reports.rs"]
mod reports;
#[path = "run_llvm.rs"]
mod run_llvm;
#[path = "sarif_schema.rs"]
mod sarif_schema;
#[path = "semantics.rs"]
mod semantics;
#[path = "simulation_reasons.rs"]
mod simulation_reasons;
#[path = "smt_cli.rs"]
mod smt_cli;
#[path = "stage_links.rs"]
mod stage_links;
#[path = "tables.rs"]
mod tables;
#[path = "tidy.rs"]
mod tidy;
#[path = "uniformity.rs"]
mod uniformity;
#[path = "uniformity_engines.rs"]
mod uniformity_engines;
#[path = "uniformity_llvm_tests.rs"]
mod uniformity_llvm_tests;
