//! Theorems about the convcheck model and its transforms, each discharged
//! by bounded exhaustion, by z3, or both, and each run as a test in
//! `tests/` (`docs/src/proofs.md` lists them with their domains):
//!
//! - `tests/keys.rs`: key well-formedness over every four-block CFG;
//! - `tests/keys_relational.rs`: theorem 1, the key rule of maximal
//!   convergence equals LLVM's relational definition;
//! - `tests/source_rules.rs`: theorem 2, source-level keys satisfy seed
//!   000's rules;
//! - `tests/branch_dist.rs`: theorem 3, which of seed 002's removal
//!   conditions are sound;
//! - `tests/simplifycfg.rs`: theorem 4;
//! - `tests/unswitch.rs`: theorem 5;
//! - `tests/hoist_sink.rs`: theorem 6;
//! - `tests/engine.rs`: theorem 7, second half, the symbolic and explicit
//!   engines agree;
//! - `tests/engine_rule.rs`: theorem 7, first half, the rule behind the
//!   symbolic engine's unbounded `proved` verdicts is sound;
//! - `tests/uniformity.rs`: theorem 8, uniformity is stable under
//!   convergence-preserving transforms.
//!
//! Every theorem prints `theorem NAME: proved over DOMAIN` and
//! `witness NAME: ...`, the instance or mutant that shows it is not
//! vacuous ([`report`]). The library holds what several theorems share:
//! the small CFGs ([`shapes`]), the two-program, two-thread comparison
//! built from the interpreter's keys ([`product`]) and an independent
//! implementation of LLVM's relational definition of maximal
//! converged-with for two threads ([`relational`]).

pub mod product;
pub mod relational;
pub mod report;
pub mod shapes;
