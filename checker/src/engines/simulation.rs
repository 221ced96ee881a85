//! The simulation engine (issue 22): a relation between the reference's
//! and the target's program points, found and re-checked by
//! `convcheck_smt::simulation`, proves a stage for every iteration count
//! (docs/src/proofs.md, "Simulation"). It proves what the structural rule
//! cannot (inverted conditions, duplicated blocks, renamed values, phis);
//! where it finds no relation it answers unknown, never violated: the
//! bounded engines decide the stage then.

use super::{Answer, Engine, Query, Unknown};
use crate::engine::{Allowance, Outcome};
use crate::report::Method;
use convcheck_smt::simulation::{prove_programs, SimAnswer, SimOptions};
use std::time::{Duration, Instant};

/// The longest a simulation search may take on one stage.
pub const MAX_TIME: Duration = Duration::from_secs(5);

/// The simulation engine, within half the time left before the query's
/// deadline (at most [`MAX_TIME`]). Half, not a tenth: the functions of a
/// file share `--timeout` (60 s over LLVM's 48 functions of
/// `nontrivial-unswitch.ll` is 2 s each), a tenth of that is shorter than
/// most proofs take on this machine, and a proof found early leaves the
/// rest of the time to the functions after it; a search that finds no
/// relation mostly ends early (a pair of paths whose events differ).
pub struct Simulation {
    /// z3's memory budget in MiB.
    pub memory_mb: u64,
}

impl Engine for Simulation {
    fn decide(&self, q: &Query) -> Answer {
        let (Some(r), Some(t)) = (q.reference.code.cfg(), q.target.code.cfg()) else {
            return Answer::Unknown(Unknown::unsupported("simulation: compares two CFGs"));
        };
        let left = q.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Answer::Unknown(Unknown::time("simulation: time budget reached"));
        }
        let opts = SimOptions {
            timeout: (left / 2).min(MAX_TIME),
            allow_barrier_removal: q.allow == Allowance::Barriers,
            memory_mb: self.memory_mb,
            ..SimOptions::default()
        };
        match prove_programs(r, q.reference.func, t, q.target.func, &opts) {
            SimAnswer::Proved(c) => Answer::Decided(
                Outcome::Preserved { pairs: 0, cut: 0 },
                Method::Simulation {
                    nodes: c.nodes.len(),
                    steps: c.edges,
                },
            ),
            SimAnswer::NotFound(why) => Answer::Unknown(Unknown::incomplete(format!(
                "simulation: no relation found: {why}"
            ))),
            SimAnswer::Unknown(why) => Answer::Unknown(Unknown::time(format!("simulation: {why}"))),
        }
    }
}
