//! Short searches of the explicit engine inside a symbolic check: the
//! quick search before the product, and the refinement of a product
//! counterexample into the smallest one.

use crate::config::CheckConfig;
use crate::engine::{compare_stages, Allowance, Budget, Limits, Outcome as EngineOutcome, Side};
use convcheck_ir::exec::Bounds;
use std::time::{Duration, Instant};

/// How far a short explicit search looks: iteration bounds in order, its
/// time cap, and paths per thread.
pub struct SearchPlan {
    iters: &'static [u32],
    time: Duration,
    max_paths: Option<usize>,
    max_events: usize,
}

/// The refinement of a product counterexample: the explicit engine
/// reports the smallest scenario first (fewest iterations, smallest
/// values), the product whatever model z3 returns; it looks at max-iters
/// 1, then 2, for at most two seconds.
pub const REFINE: SearchPlan = SearchPlan {
    iters: &[1, 2],
    time: Duration::from_secs(2),
    max_paths: None,
    max_events: 2_000_000,
};

/// The quick search `auto` runs before the product on each stage: most
/// broken transforms already show at max-iters 1, where the explicit
/// engine finds the smallest counterexample in milliseconds, without
/// starting z3. A search that finds nothing decides nothing: the product
/// runs next.
pub const QUICK: SearchPlan = SearchPlan {
    iters: &[1],
    time: Duration::from_millis(100),
    max_paths: Some(500),
    max_events: 500_000,
};

/// A counterexample of the explicit engine under `plan`, or `None`.
pub fn explicit_search(
    reference: &Side,
    target: &Side,
    allow: Allowance,
    a: &CheckConfig,
    budget: &Budget,
    deadline: Instant,
    plan: &SearchPlan,
) -> Option<EngineOutcome> {
    for &small in plan.iters {
        if small > a.max_iters {
            break;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let quick = Budget {
            start: Instant::now(),
            timeout: Some(left.min(plan.time)),
            max_pairs: budget.max_pairs,
            max_events: budget.max_events.min(plan.max_events),
            ..*budget
        };
        let limits = Limits {
            bounds: Bounds {
                max_iters: small,
                fuel: a.fuel,
                max_paths: plan.max_paths.unwrap_or(a.max_paths).min(a.max_paths),
                ..Bounds::default()
            },
            group: a.threads,
        };
        let c = compare_stages(
            reference,
            &[(
                Side {
                    program: target.program,
                    cfg: target.cfg,
                    entry: target.entry,
                },
                allow,
            )],
            limits,
            &quick,
            &mut |_| {},
        );
        if let Some(o @ EngineOutcome::Violated(_)) = c.outcomes.into_iter().next() {
            return Some(o);
        }
    }
    None
}
