//! The product's search for a counterexample alone ([`hunt_at`]): what the
//! default engine runs where the explicit engine preserved a stage while
//! leaving values untried, within one budget of z3's work for all its
//! queries ([`WorkAccount`]).

use super::{compare_mode, Counterexample, Preserved, ProductOptions, WorkAccount};
use crate::{Answer, Unknown};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::FuncId;

/// A search for a counterexample alone, as [`super::compare_at`] looks for
/// one at `opts.max_iters` (the monolithic query, the target unrolled
/// further where a scenario needs it), without the proof by matching: an
/// answer is a replayed `Counterexample`, or `Unknown` (none found, or a
/// budget ran out), never `Proved`. What a caller runs where another
/// engine has already decided the stage within its own domains and only a
/// missed counterexample would change the verdict (the default engine's
/// search of values the explicit engine left untried): the proof steps
/// cost the most and could change nothing there.
///
/// All its z3 queries share `work` (units of z3's resource counter; a
/// budget of 0 units bounds nothing, and still counts what was spent)
/// besides `opts.timeout`: where the work budget is what stops it, the
/// search ends the same way on every machine and under any load
/// (`Unknown` with [`crate::Limit::Size`], naming the budget). Its
/// encoding (unrolling, symbolic execution, the query's definitions) is
/// bounded by the time alone.
///
/// Unlike [`super::compare_at`], it does not first search at max-iters 2
/// (only at 1): a counterexample there is one at `opts.max_iters` too,
/// and on clang's kernels that search cost more than the one at the asked
/// bound (`reduce-int.cu` after SROA, 4 threads, max-iters 4: 20 s with
/// the searches at 1 and 2, 5.7 s without either;
/// docs/src/performance.md).
pub fn hunt_at(
    reference: &CfgProgram,
    target: &CfgProgram,
    entries: [FuncId; 2],
    opts: &ProductOptions,
    work: &WorkAccount,
) -> Answer<Preserved, Counterexample> {
    match compare_mode(reference, target, entries, opts, Some(work)) {
        Answer::Proved(_) => Answer::Unknown(Unknown::incomplete(NO_COUNTEREXAMPLE)),
        a => a,
    }
}

/// [`hunt_at`]'s reason when its search ended finding nothing (any other
/// `Unknown` of it is a search cut short).
pub const NO_COUNTEREXAMPLE: &str = "no counterexample found (a search, not a proof)";
