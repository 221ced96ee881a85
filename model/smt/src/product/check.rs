//! The product's satisfiability checks: one query under the time left,
//! z3's memory budget and, where asked, a count of z3's resource units
//! (a bound that, unlike a time, gives the same answer under any load).

use super::query;
use crate::{Limit, Unknown};
use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;
use z3::ast::Bool;
use z3::{Model, Params, SatResult, Solver, StatisticsValue};

/// A budget of z3's work (units of its resource counter, `rlimit`) shared
/// by every query of one search ([`super::hunt_at`]): each query runs with
/// z3's `rlimit` at most what is left, and what it spent (read off the
/// counter before and after it) is taken from what is left. z3 counts the
/// same units for the same queries on any machine and under any load, so
/// where this budget is what stops a search, the search stops the same way
/// on every run.
#[derive(Clone, Debug)]
pub struct WorkAccount {
    total: u64,
    left: Rc<Cell<u64>>,
}

impl WorkAccount {
    /// A budget of `units` (0: no bound).
    pub fn new(units: u64) -> WorkAccount {
        WorkAccount {
            total: units,
            left: Rc::new(Cell::new(if units == 0 { u64::MAX } else { units })),
        }
    }

    /// The units the budget started with (0: no bound).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The units spent so far (counted with or without a bound).
    pub fn spent(&self) -> u64 {
        let start = if self.total == 0 {
            u64::MAX
        } else {
            self.total
        };
        start.saturating_sub(self.left.get())
    }

    fn limited(&self) -> bool {
        self.total > 0
    }

    /// Why a search stopped with the budget spent.
    pub(super) fn out(&self) -> Unknown {
        Unknown::new(
            Limit::Size,
            format!(
                "work budget: the search did more than {} units of z3's work",
                self.total
            ),
        )
    }
}

/// z3's resource counter (32 bits in its statistics: differences are
/// taken modulo 2^32).
fn counter(s: &Solver) -> u32 {
    match s.get_statistics().value("rlimit count") {
        Some(StatisticsValue::UInt(n)) => n,
        Some(StatisticsValue::Double(d)) => d as u64 as u32,
        None => 0,
    }
}

/// A satisfiability check under the remaining time: `Ok(Some(model))`,
/// `Ok(None)` for unsat, `Err(reason)` for unknown.
pub(super) fn check(
    q: &query::Query,
    assumptions: &[Bool],
    deadline: Instant,
) -> Result<Option<Model>, Unknown> {
    check_limited(q, assumptions, deadline, 0)
}

/// Sets z3's `memory_high_watermark` (in bytes, an unsigned 32-bit
/// parameter in z3 4.8.12, so at most 4095 MiB) to `mb` MiB: past it, a
/// query answers unknown (`memout`). Process-wide, as z3 keeps it.
pub(super) fn memory_watermark(mb: u64) -> u64 {
    let mb = mb.clamp(1, 4095);
    z3::set_global_param("memory_high_watermark", &(mb << 20).to_string());
    mb
}

/// [`check`] with at most `rlimit` units of z3's resource counter (0 for
/// no limit), and within the query's [`WorkAccount`] where it has one: a
/// bound on the work that, unlike a timeout, gives the same answer on
/// every machine and under any load.
pub(super) fn check_limited(
    q: &query::Query,
    assumptions: &[Bool],
    deadline: Instant,
    rlimit: u32,
) -> Result<Option<Model>, Unknown> {
    let Some(account) = &q.work else {
        return check_once(q, assumptions, deadline, rlimit);
    };
    let left = account.left.get();
    if account.limited() && left == 0 {
        return Err(account.out());
    }
    let own = if rlimit == 0 { u32::MAX } else { rlimit };
    let bound = u32::try_from(left).unwrap_or(u32::MAX).min(own);
    let bound = if account.limited() || rlimit > 0 {
        bound
    } else {
        0
    };
    let before = counter(&q.solver);
    let r = check_once(q, assumptions, deadline, bound);
    let spent = u64::from(counter(&q.solver).wrapping_sub(before));
    account.left.set(left.saturating_sub(spent));
    match r {
        // The account's bound, not the query's own, stopped it.
        Err(e) if e.limit == Limit::Size && account.limited() && u64::from(bound) == left => {
            account.left.set(0);
            Err(account.out())
        }
        r => r,
    }
}

/// One query within `rlimit` units (0 for no limit) and the time left.
fn check_once(
    q: &query::Query,
    assumptions: &[Bool],
    deadline: Instant,
    rlimit: u32,
) -> Result<Option<Model>, Unknown> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(Unknown::time("timeout: the time budget ran out"));
    }
    let memory_mb = q.memory_mb;
    let mut params = Params::new();
    params.set_u32(
        "timeout",
        u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1),
    );
    params.set_u32("rlimit", rlimit);
    q.solver.set_params(&params);
    let r = q.solver.check_assumptions(assumptions);
    match r {
        SatResult::Sat => q
            .solver
            .get_model()
            .map(Some)
            .ok_or_else(|| Unknown::incomplete("internal: z3 said sat but gave no model")),
        SatResult::Unsat => Ok(None),
        SatResult::Unknown => {
            let why = q
                .solver
                .get_reason_unknown()
                .unwrap_or_else(|| "unknown".into());
            let reason = Unknown::from_z3(&why);
            // z3 4.8 reports its resource counter running out as
            // "canceled" (or, very early in a check, plain "unknown": on
            // these decidable bit-vector queries nothing else gives it):
            // with a counter set, that is the work budget.
            // (Unless the time ran out first, which z3 4.8 reports the same
            // way.)
            let timed_out = Instant::now() >= deadline;
            let reason = if timed_out && reason.limit == Limit::Canceled {
                Unknown::time("timeout: the time budget ran out")
            } else if rlimit > 0
                && (matches!(reason.limit, Limit::Canceled | Limit::Size) || why == "unknown")
            {
                Unknown::new(
                    Limit::Size,
                    format!("resource budget: the query did more than {rlimit} units of z3's work"),
                )
            } else {
                reason
            };
            Err(if reason.limit == Limit::Memory {
                Unknown::new(
                    Limit::Memory,
                    format!("memory budget: z3 reached {memory_mb} MiB (--max-solver-memory)"),
                )
            } else {
                reason
            })
        }
    }
}
