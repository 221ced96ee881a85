//! One z3 solver reused for many queries (push, assert, check, pop): z3
//! 4.8 spends most of a small query's time creating a solver and setting
//! its parameters (measured on the seed's `loop_continue` under
//! SimplifyCFG: 0.83 s with a solver per query, mostly `strcmp` and mutex
//! calls in z3's parameter tables). The timeout is set again only when the
//! time left falls below half of the one set, so a query never runs past
//! the deadline by more than the time left.

//!
//! **Work.** Besides the wall clock, a proof may have a budget of z3's
//! *work* ([`Work`]: z3's resource counter, `rlimit`, which counts the
//! same for the same queries on any machine at any load). Each query's
//! work is read off the counter (`rlimit count`) before and after it and
//! taken from the budget, and every query runs with z3's `rlimit` set
//! from the budget alone (re-set only when the budget left falls below
//! half of the one set, like the timeout), so what the budget cuts is the
//! same on every run.
//!
//! **CPU time.** The work budget's safety net is a cap on the thread's
//! CPU time ([`Work::with_cpu`], `SimOptions::cpu_time`), checked before
//! every query and in the search's loops, not the wall clock: at a load
//! of 11 on two cores a proof of 2 million units (1 s of CPU) took 9 s of
//! wall clock, and the checker's former 8 s wall-clock cap cut it, so the
//! same stage was proved at load 2 and not at load 11 (docs/src/
//! performance.md, "The simulation's verdicts independent of the load").
//! The wall-clock deadline is then the caller's own budget alone.

use super::Fail;
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{Model, Params, SatResult, Solver, StatisticsValue};

/// Why a proof stopped when its work budget ran out.
pub(crate) const WORK_OUT: &str =
    "work budget: the proof did more than its units of z3's work (SimOptions::work)";

/// Why a proof stopped when its CPU time cap ran out.
pub(crate) const CPU_OUT: &str = "timeout: the proof's CPU time cap ran out (SimOptions::cpu_time)";

/// How the calling thread's CPU time is read (z3 works in the thread that
/// calls it), set once by the program ([`set_thread_clock`]: the checker
/// reads Linux's `/proc/thread-self/schedstat`; the model does no I/O).
static THREAD_CLOCK: std::sync::OnceLock<fn() -> Option<Duration>> = std::sync::OnceLock::new();

/// Sets how the calling thread's CPU time is read, once per process (later
/// calls change nothing). Unset, or where the function answers `None`, a
/// proof's CPU cap counts the wall clock, as before the cap was CPU time.
pub fn set_thread_clock(clock: fn() -> Option<Duration>) {
    let _ = THREAD_CLOCK.set(clock);
}

/// The CPU time the calling thread has used, by the clock the program set.
pub(crate) fn thread_cpu() -> Option<Duration> {
    THREAD_CLOCK.get().and_then(|clock| clock())
}

/// When a proof's CPU time cap runs out: the thread's CPU time at which it
/// does, or, where that cannot be read, the wall-clock instant (the cap
/// counted on the wall clock, as before the cap was CPU time).
#[derive(Clone, Copy, Debug)]
enum CpuCap {
    Cpu(Duration),
    Wall(Instant),
}

/// The work a proof may still do (z3's resource units; `u64::MAX`: no
/// budget) and its CPU time cap, shared by the search and the re-check.
#[derive(Clone, Debug)]
pub(crate) struct Work(Rc<Cell<u64>>, Option<CpuCap>);

impl Work {
    /// A budget of `units` (0: none) and at most `cpu` of the thread's CPU
    /// time from now (`None`: no cap but the caller's deadline).
    pub fn with_cpu(units: u64, cpu: Option<Duration>) -> Work {
        let cap = cpu.map(|c| match thread_cpu() {
            Some(now) => CpuCap::Cpu(now + c),
            None => CpuCap::Wall(Instant::now() + c),
        });
        Work(
            Rc::new(Cell::new(if units == 0 { u64::MAX } else { units })),
            cap,
        )
    }

    /// Whether the CPU time cap has run out.
    fn cpu_out(&self) -> bool {
        match self.1 {
            None => false,
            Some(CpuCap::Cpu(until)) => thread_cpu().is_some_and(|now| now >= until),
            Some(CpuCap::Wall(until)) => Instant::now() >= until,
        }
    }

    /// The units spent of a budget of `units` (0 when there was none).
    pub fn spent(&self, units: u64) -> u64 {
        if self.limited() {
            units.saturating_sub(self.0.get())
        } else {
            0
        }
    }

    fn limited(&self) -> bool {
        self.0.get() != u64::MAX
    }
}

pub(crate) struct Z3 {
    solver: Solver,
    deadline: Instant,
    limit_ms: u32,
    work: Work,
    /// The `rlimit` set (0: none).
    limit_work: u32,
    /// Queries so far.
    pub queries: usize,
    /// Queries answered without z3's search: by a model at hand or by
    /// rewriting (`search`, `recheck`).
    pub saved: usize,
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

impl Z3 {
    pub fn new(deadline: Instant, work: Work) -> Z3 {
        Z3 {
            solver: Solver::new(),
            deadline,
            limit_ms: 0,
            work,
            limit_work: 0,
            queries: 0,
            saved: 0,
        }
    }

    /// Asserts `b` in a new scope ([`Z3::pop`] ends it).
    pub fn push(&mut self, b: &Bool) {
        self.solver.push();
        self.solver.assert(b);
    }

    /// Ends the scope of the last [`Z3::push`].
    pub fn pop(&mut self) {
        self.solver.pop(1);
    }

    /// `Err` once the deadline has passed: for the search's own loops,
    /// between queries.
    pub fn in_time(&self) -> Result<(), Fail> {
        if Instant::now() >= self.deadline {
            return Err(Fail::Unknown("timeout: the time budget ran out".into()));
        }
        if self.work.cpu_out() {
            return Err(Fail::Unknown(CPU_OUT.into()));
        }
        Ok(())
    }

    /// Whether the assertions and `parts` are satisfiable: `Ok(Some(model))`
    /// when they are, `Ok(None)` when not, `Err` when z3 cannot tell or
    /// the deadline has passed.
    pub fn sat(&mut self, parts: &[&Bool], what: &str) -> Result<Option<Model>, Fail> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Fail::Unknown("timeout: the time budget ran out".into()));
        }
        // (A query itself is bounded by the work left, `rlimit`, and the
        // wall-clock deadline; the CPU cap is a net between queries.)
        if self.work.cpu_out() {
            return Err(Fail::Unknown(CPU_OUT.into()));
        }
        let ms = u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1);
        let limited = self.work.limited();
        let work_left = u32::try_from(self.work.0.get()).unwrap_or(u32::MAX);
        if limited && work_left == 0 {
            return Err(Fail::Unknown(WORK_OUT.into()));
        }
        let rework = limited && (self.limit_work == 0 || work_left < self.limit_work / 2);
        if self.limit_ms == 0 || ms < self.limit_ms / 2 || rework {
            let mut params = Params::new();
            params.set_u32("timeout", ms);
            if rework {
                self.limit_work = work_left;
            }
            if limited {
                params.set_u32("rlimit", self.limit_work);
            }
            self.solver.set_params(&params);
            self.limit_ms = ms;
        }
        self.queries += 1;
        self.solver.push();
        for p in parts {
            self.solver.assert(*p);
        }
        let before = if limited { counter(&self.solver) } else { 0 };
        let r = self.solver.check();
        if limited {
            let spent = u64::from(counter(&self.solver).wrapping_sub(before));
            self.work.0.set(self.work.0.get().saturating_sub(spent));
        }
        let out = match r {
            SatResult::Sat => Ok(self.solver.get_model()),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown => {
                let why = self
                    .solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into());
                // z3 4.8 reports its resource counter running out as
                // "canceled"; with a budget left that could not cover the
                // query, that is the work budget.
                if limited && why.contains("cancel") && Instant::now() < self.deadline {
                    self.work.0.set(0);
                    Err(Fail::Unknown(WORK_OUT.into()))
                } else {
                    Err(Fail::Unknown(format!("z3 ({what}): {why}")))
                }
            }
        };
        self.solver.pop(1);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The CPU time cap counts the thread's CPU time, not the wall clock:
    /// time spent waiting (what a loaded machine adds) does not run it
    /// out, work does. A cap on the wall clock fails the first half.
    #[test]
    fn the_cpu_cap_counts_cpu_time_not_waiting() {
        // A clock of this thread's own (other test threads read 0, a CPU
        // time that never grows): what it says is what the cap counts.
        thread_local! {
            static FAKE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        }
        fn fake() -> Option<Duration> {
            Some(Duration::from_millis(FAKE.with(std::cell::Cell::get)))
        }
        set_thread_clock(fake);
        if THREAD_CLOCK.get().map(|f| *f as usize)
            != Some(fake as fn() -> Option<Duration> as usize)
        {
            return; // (another test set the process's clock first)
        }
        let far = Instant::now() + Duration::from_secs(60);
        let z3 = Z3::new(far, Work::with_cpu(0, Some(Duration::from_millis(50))));
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            z3.in_time().is_ok(),
            "200 ms asleep ran out a 50 ms CPU cap"
        );
        FAKE.with(|c| c.set(60));
        match z3.in_time() {
            Err(Fail::Unknown(why)) => assert_eq!(why, CPU_OUT),
            _ => panic!("60 ms of CPU did not run out a 50 ms CPU cap"),
        }
    }
}
