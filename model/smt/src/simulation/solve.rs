//! One z3 solver reused for many queries (push, assert, check, pop): z3
//! 4.8 spends most of a small query's time creating a solver and setting
//! its parameters (measured on the seed's `loop_continue` under
//! SimplifyCFG: 0.83 s with a solver per query, mostly `strcmp` and mutex
//! calls in z3's parameter tables). The timeout is set again only when the
//! time left falls below half of the one set, so a query never runs past
//! the deadline by more than the time left.

use super::Fail;
use std::time::Instant;
use z3::ast::Bool;
use z3::{Model, Params, SatResult, Solver};

pub(crate) struct Z3 {
    solver: Solver,
    deadline: Instant,
    limit_ms: u32,
    /// Queries so far.
    pub queries: usize,
}

impl Z3 {
    pub fn new(deadline: Instant) -> Z3 {
        Z3 {
            solver: Solver::new(),
            deadline,
            limit_ms: 0,
            queries: 0,
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
        let ms = u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1);
        if self.limit_ms == 0 || ms < self.limit_ms / 2 {
            let mut params = Params::new();
            params.set_u32("timeout", ms);
            self.solver.set_params(&params);
            self.limit_ms = ms;
        }
        self.queries += 1;
        self.solver.push();
        for p in parts {
            self.solver.assert(*p);
        }
        let r = self.solver.check();
        let out = match r {
            SatResult::Sat => Ok(self.solver.get_model()),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown => Err(Fail::Unknown(format!(
                "z3 ({what}): {}",
                self.solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into())
            ))),
        };
        self.solver.pop(1);
        out
    }
}
