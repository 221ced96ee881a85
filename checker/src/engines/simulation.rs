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
use convcheck_smt::simulation::{prove_programs_spent, SimAnswer, SimOptions, NOT_MODELLED};
use std::time::{Duration, Instant};

/// The work a simulation proof may do on one stage, in z3's resource
/// units (`SimOptions::work`; about 5 s of one core here): the budget that
/// decides, the same on every run and at every load.
pub const WORK: u64 = 10_000_000;

/// The most CPU time a simulation search may take on one stage
/// (`SimOptions::cpu_time`, the thread's CPU time, not the wall clock): a
/// safety net above what [`WORK`] takes (about 5 s of one core here;
/// LoopUnroll's `pragma_unroll`, 3.2 million units, 1 to 3 s of CPU).
/// Until 2026-11-29 this was a cap on the wall clock, which a loaded
/// machine reached first: at load 11 on 2 cores `early_exit`'s SROA stage
/// was cut after 2.1 million units (8 s of wall clock, 1 s of CPU) and
/// proved in the same units alone, so the verdict depended on the load.
/// The wall clock now bounds a proof only through [`wall`]: half of the
/// check's time left, or this much where that is less.
pub const MAX_TIME: Duration = Duration::from_secs(8);

/// The simulation engine, within its work budget (at most [`WORK`]), its
/// CPU time cap ([`max_time`]) and [`wall`], half of the time left before
/// the query's deadline (at least [`MAX_TIME`] of it). The work budget is
/// what decides; the wall clock only where the machine is loaded enough
/// for half of the time left to pass first. Never less than the time left
/// up to the cap: the functions of a file share `--timeout` (60 s over the
/// 12 functions of LoopUnroll's `convergent.controlled.ll` is 5 s each),
/// and with half or three quarters of that alone `pragma_unroll`'s proof
/// was cut at load 10, which made the survey's count depend on the load. A proof
/// found early leaves the rest of the time to the functions after it; a
/// search that finds no relation mostly ends early (a pair of paths whose
/// events differ).
pub struct Simulation {
    /// z3's memory budget in MiB.
    pub memory_mb: u64,
    /// The units of z3's work this proof may do (at most [`WORK`], or at
    /// most `pipeline::decide::FUNCTION_WORK` for a function's only stage:
    /// a function's stages share a budget, `pipeline::decide`).
    pub work: u64,
}

/// The CPU time cap of a proof that may do `work` units of z3's work:
/// [`MAX_TIME`] per [`WORK`], so that a function's only stage, which may
/// take the function's whole share of the work, is not cut by the cap
/// before its work budget.
pub fn max_time(work: u64) -> Duration {
    if work <= WORK {
        return MAX_TIME;
    }
    MAX_TIME.mul_f64(work as f64 / WORK as f64)
}

/// The wall-clock limit of an attempt with `left` of the check's time
/// left and a CPU time cap of `cap`: at least what the wall-clock cap was
/// before the cap was CPU time (`cap`, within the time left), and up to
/// half of the time left, so that on a machine loaded enough for a proof's
/// CPU seconds to take many more of wall clock the bounded engines keep
/// the other half (at load 17 on 2 cores, `grid_stride`'s three proofs of
/// 9.5 million units took 56 of its 60 s, and every stage after them was
/// left inconclusive). On a quiet machine it does not bind before the work
/// budget or the CPU cap.
pub fn wall(left: Duration, cap: Duration) -> Duration {
    left.min(cap.max(left / 2))
}

/// What one simulation attempt gave.
pub struct Attempt {
    /// The engine's answer.
    pub answer: Answer,
    /// Why no proof was found, in a few words for the report
    /// ([`miss`]); `None` when proved.
    pub miss: Option<String>,
    /// The units of z3's work spent.
    pub spent: u64,
}

/// The reason a simulation found no proof, as the report shows it:
/// `refused: ...` (a construct it does not model), `bound: ...` (more
/// program points or paths than it explores), `budget: ...` (its work or
/// time ran out) or `no relation: ...` (it explored what it models and
/// found no relation; the transform may still be correct).
pub fn miss(answer: &SimAnswer) -> Option<String> {
    match answer {
        SimAnswer::Proved(_) => None,
        SimAnswer::NotFound(why) if why.contains(NOT_MODELLED) => Some(format!(
            "refused: {}",
            why.replacen(&format!("{NOT_MODELLED}: "), "", 1)
        )),
        SimAnswer::NotFound(why) if why.contains("has more than") => Some(format!("bound: {why}")),
        SimAnswer::NotFound(why) => Some(format!("no relation: {why}")),
        SimAnswer::Unknown(why) => Some(format!(
            "budget: {}",
            why.strip_prefix("work budget: ")
                .or_else(|| why.strip_prefix("timeout: "))
                .unwrap_or(why)
        )),
    }
}

impl Simulation {
    /// One attempt, with why it found no proof and the work it spent.
    pub fn attempt(&self, q: &Query) -> Attempt {
        let (Some(r), Some(t)) = (q.reference.code.cfg(), q.target.code.cfg()) else {
            return Attempt {
                answer: Answer::Unknown(Unknown::unsupported("simulation: compares two CFGs")),
                miss: Some("refused: it compares two CFGs".into()),
                spent: 0,
            };
        };
        let left = q.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || self.work == 0 {
            let why = if left.is_zero() {
                "time budget reached"
            } else {
                "the function's share of z3's work is spent"
            };
            return Attempt {
                answer: Answer::Unknown(Unknown::time(format!("simulation: {why}"))),
                miss: Some(format!("budget: {why}")),
                spent: 0,
            };
        }
        convcheck_smt::simulation::set_thread_clock(thread_cpu);
        let opts = SimOptions {
            timeout: wall(left, max_time(self.work)),
            cpu_time: Some(max_time(self.work)),
            allow_barrier_removal: q.allow == Allowance::Barriers,
            memory_mb: self.memory_mb,
            work: self.work,
            ..SimOptions::default()
        };
        let (sim, spent) = prove_programs_spent(r, q.reference.func, t, q.target.func, &opts);
        let miss = miss(&sim);
        let answer = match sim {
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
        };
        Attempt {
            answer,
            miss,
            spent,
        }
    }
}

impl Engine for Simulation {
    fn decide(&self, q: &Query) -> Answer {
        self.attempt(q).answer
    }
}

/// The CPU time the calling thread has used (z3 works in the thread that
/// calls it): Linux's `/proc/thread-self/schedstat`, whose first field is
/// the thread's time on a CPU in nanoseconds; `None` where it cannot be
/// read (then the simulation's CPU cap counts the wall clock). Read here,
/// not in the model crates, which do no I/O.
pub(crate) fn thread_cpu() -> Option<std::time::Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(std::time::Duration::from_nanos(ns))
}

#[cfg(test)]
mod tests {
    /// The thread's clock counts CPU time, not waiting: 200 ms asleep add
    /// little, a busy loop adds.
    #[test]
    fn the_thread_clock_counts_cpu_time_not_waiting() {
        let Some(start) = super::thread_cpu() else {
            return; // (no /proc: the cap counts the wall clock)
        };
        std::thread::sleep(std::time::Duration::from_millis(200));
        let slept = super::thread_cpu().unwrap() - start;
        assert!(slept < std::time::Duration::from_millis(100), "{slept:?}");
        // Work until the clock says 60 ms more (it must move: at most 10 s
        // of wall clock on the busiest machine).
        let mut x = 0u64;
        let begin = std::time::Instant::now();
        let goal = start + slept + std::time::Duration::from_millis(60);
        while super::thread_cpu().unwrap() < goal {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            assert!(
                begin.elapsed() < std::time::Duration::from_secs(10),
                "the clock stands still"
            );
        }
    }
}
