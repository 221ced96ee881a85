//! Short searches of the explicit engine inside a symbolic check: the
//! quick search before the product, and the refinement of a product
//! counterexample into the smallest one.

use crate::config::CheckConfig;
use crate::engine::{
    compare_stages_one_stream, Allowance, Budget, Limits, Outcome as EngineOutcome, Side,
};
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
    let target = Side {
        program: target.program,
        cfg: target.cfg,
        entry: target.entry,
    };
    explicit_search_stages(reference, &[(target, allow)], a, budget, deadline, plan)
        .into_iter()
        .next()
        .flatten()
}

/// [`explicit_search`] on several stages against one reference, on one
/// stream of scenarios (the reference's paths enumerated once, each pair
/// compared with every stage): a counterexample per stage, or `None`.
/// The plan's time cap and event cap are per stage, so `n` stages share
/// `n` times each; a stage whose counterexample is found is one the
/// search of that stage alone finds too (the same pairs in the same
/// order, smallest first), and a stage with none is left to the engines
/// after it, as a search that finds nothing decides nothing.
pub fn explicit_search_stages(
    reference: &Side,
    targets: &[(Side, Allowance)],
    a: &CheckConfig,
    budget: &Budget,
    deadline: Instant,
    plan: &SearchPlan,
) -> Vec<Option<EngineOutcome>> {
    let mut found: Vec<Option<EngineOutcome>> = targets.iter().map(|_| None).collect();
    let n = u32::try_from(targets.len()).unwrap_or(u32::MAX).max(1);
    for &small in plan.iters {
        if small > a.max_iters {
            break;
        }
        let open: Vec<usize> = (0..targets.len()).filter(|&i| found[i].is_none()).collect();
        if open.is_empty() {
            break;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let quick = Budget {
            start: Instant::now(),
            timeout: Some(left.min(plan.time.saturating_mul(n))),
            max_pairs: budget.max_pairs,
            max_events: budget
                .max_events
                .min(plan.max_events.saturating_mul(n as usize)),
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
        let stages: Vec<(Side, Allowance)> = open
            .iter()
            .map(|&i| {
                let (t, allow) = &targets[i];
                (
                    Side {
                        program: t.program,
                        cfg: t.cfg,
                        entry: t.entry,
                    },
                    *allow,
                )
            })
            .collect();
        // On one stream: under its short time budget every stage advances
        // through the smallest pairs together (engine::stages, chunks).
        let c = compare_stages_one_stream(reference, &stages, limits, &quick, &mut |_| {});
        for (&i, o) in open.iter().zip(c.outcomes) {
            if let o @ EngineOutcome::Violated(_) = o {
                found[i] = Some(o);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use convcheck_ir::exec::cfg::CfgProgram;
    use convcheck_lang::lower::lower;

    /// The batched search finds, stage by stage, what the search of each
    /// stage alone finds: seed 000's loops against themselves (nothing)
    /// and against SimplifyCFG without `keep-loops` (`loop_nest` folded
    /// into one cycle: a counterexample at max-iters 1), in one batch.
    #[test]
    fn a_batch_finds_what_each_stage_alone_finds() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/seed/ambiguity-source.c"
        );
        let kernel = crate::load_kernel(path).expect("the seed");
        let plain = CfgProgram::new(lower(&kernel, false));
        let mut folded = lower(&kernel, false);
        convcheck_transforms::lookup("simplifycfg<no-keep-loops>")
            .expect("the pass")
            .run(&mut folded)
            .expect("it runs");
        let folded = CfgProgram::new(folded);
        let a = CheckConfig {
            threads: 2,
            max_iters: 2,
            ..CheckConfig::default()
        };
        let budget = Budget::default();
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut violated = 0;
        for entry in 0..plain.module.functions.len() {
            let r = Side::cfg(&plain, entry);
            let stages = [
                (Side::cfg(&plain, entry), Allowance::Exact),
                (Side::cfg(&folded, entry), Allowance::Exact),
                (Side::cfg(&plain, entry), Allowance::Exact),
            ];
            let batch = explicit_search_stages(&r, &stages, &a, &budget, deadline, &QUICK);
            for ((t, allow), found) in stages.iter().zip(&batch) {
                let alone = explicit_search(&r, t, *allow, &a, &budget, deadline, &QUICK);
                assert_eq!(found.is_some(), alone.is_some(), "function {entry}");
                if let (Some(EngineOutcome::Violated(x)), Some(EngineOutcome::Violated(y))) =
                    (found, &alone)
                {
                    assert_eq!(x.message, y.message, "function {entry}");
                    violated += 1;
                }
            }
            assert!(batch[0].is_none() && batch[2].is_none(), "function {entry}");
        }
        // `loop_nest` folded: the one stage with a counterexample.
        assert_eq!(violated, 1);
    }
}
