//! What the uniformity query (`super::super::uniform`) needs from a
//! symbolic run besides its events: the value of every definition the
//! entry function executes, at its site, and the operands of every load and
//! call whose oracle it reads. Recorded only when asked
//! ([`Exec::recording`]), so the refinement query pays nothing for it.

use super::{At, Exec};
use convcheck_ir::OracleId;
use z3::ast::{Bool, BV};

/// What the uniformity query compares besides events: recorded only on
/// request, for the entry function's own invocation.
#[derive(Default)]
pub(crate) struct Values {
    /// Every executed definition: (its static place (block, instruction;
    /// the block's length for the terminator), its site (the copy and the
    /// place: equal sites of two threads are converged executions), guard,
    /// value). Terminators record the value they branch on.
    pub defs: Vec<((usize, usize), u32, Bool, BV)>,
    /// Every oracle read of a load or a call, with the load's address or
    /// the call's arguments: (read site, oracle, guard, value, operands).
    pub reads: Vec<(u32, OracleId, Bool, BV, Vec<BV>)>,
    /// Every oracle read of the run (whatever its class), as (stream name
    /// index, guard, evaluation count after it): a run cut by the bound
    /// has no final counters, and these give how many values of each
    /// stream it read.
    pub counts: Vec<(usize, Bool, BV)>,
}

impl Exec<'_, '_> {
    /// Records the values of the entry function's definitions and the
    /// operands of its reads ([`Run::values`]).
    pub fn recording(mut self) -> Self {
        self.values = Some(Values::default());
        self
    }

    /// Whether `at` is in the entry function's own invocation and values
    /// are recorded.
    pub(super) fn records(&self, at: &At) -> bool {
        self.values.is_some() && at.ctx.is_none() && self.depth == 1
    }

    pub(super) fn record_def(&mut self, at: At, place: (usize, usize), guard: &Bool, value: &BV) {
        if !self.records(&at) {
            return;
        }
        let site = self.prog.def_site(at);
        if let Some(v) = self.values.as_mut() {
            v.defs.push((place, site, guard.clone(), value.clone()));
        }
    }
}
