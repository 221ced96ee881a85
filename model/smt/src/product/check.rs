//! The product's satisfiability checks: one query under the time left,
//! z3's memory budget and, where asked, a count of z3's resource units
//! (a bound that, unlike a time, gives the same answer under any load).

use super::query;
use crate::{Limit, Unknown};
use std::time::Instant;
use z3::ast::Bool;
use z3::{Model, Params, SatResult};

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
/// no limit): a bound on the work that, unlike a timeout, gives the same
/// answer on every machine and under any load.
pub(super) fn check_limited(
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
