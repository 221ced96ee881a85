//! The symbolic product on LLVM functions (issue 10: one engine for every
//! IR the front ends produce). The explicit engine enumerates each
//! thread's paths and stops at its path, pair and time budgets on loops
//! whose exits read loaded values or parameters; the product
//! (`convcheck_smt::product`) decides many of those within the same
//! bounds. Its counterexamples are replayed by the interpreter on the
//! two functions as read, so their tables are the explicit engine's.
//!
//! Which engine runs first is `check --engine`: `auto` (the default)
//! runs the explicit engine with half of the remaining time and gives the
//! product the stages it left inconclusive; `smt` runs the product first
//! and the explicit engine on what the product does not model; `explicit`
//! never runs the product. docs/src/llvm.md says why the explicit engine
//! stays first under `auto`.

use crate::config::CheckConfig;
use crate::engine::{Allowance, Finding};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_smt::product::{self, Preserved, ProductOptions};
use convcheck_smt::Answer;
use std::time::Instant;

/// What the product said of one stage.
pub(super) enum Decision {
    /// No counterexample within the bounds.
    Preserved(Preserved),
    /// A replayed counterexample.
    Violated(Box<Finding>),
    /// Not decided: why (a budget, or a construct the product does not
    /// model).
    Unknown(String),
}

/// The progress line while the product runs (a z3 query blocks its
/// thread, so a ticker thread shows it on a terminal after a second).
pub(super) fn ticker(tty: bool, function: &str) -> crate::symbolic::Ticker {
    let t = crate::symbolic::Ticker::start(tty);
    t.set(format!("@{function}: symbolic product"));
    t
}

/// Compares function `tentry` of `target` with function `ref_entry` of
/// `reference` by the product, until `deadline`.
pub(super) fn decide(
    (reference, ref_entry): (&CfgProgram, usize),
    (target, tentry): (&CfgProgram, usize),
    allow: Allowance,
    a: &CheckConfig,
    (deadline, memory_mb): (Instant, u64),
) -> Decision {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Decision::Unknown("time budget reached".into());
    }
    let opts = ProductOptions {
        max_iters: a.max_iters,
        group: (a.threads > 0).then_some(a.threads),
        allow_barrier_removal: allow == Allowance::Barriers,
        timeout: left,
        max_copies: crate::symbolic::MAX_COPIES,
        memory_mb,
    };
    match product::compare_at(reference, target, [ref_entry, tentry], &opts) {
        Answer::Proved(p) => Decision::Preserved(p),
        Answer::Counterexample(c) => {
            Decision::Violated(Box::new(crate::symbolic::finding_of(c, &reference.module)))
        }
        Answer::Unknown(why) => Decision::Unknown(why),
    }
}
