//! The quick explicit search before the simulation on a stage that
//! changes the loop nest (the batch policy, `batch.rs`; docs/src/llvm.md,
//! "Engines on LLVM IR").

use super::{Decided, Decider, QUICK_NOTE};
use crate::engine::Allowance;
use crate::engines::search::QUICK;
use crate::engines::{Answer, Engine, Query, Structure};
use crate::pipeline::Entry;

impl Decider<'_> {
    /// Under `auto`, where the product applies (as `batch::quick_first`):
    /// the quick explicit search on a stage whose cycles nest unlike those
    /// of the stage before it (`before`, else the reference) and unlike
    /// the reference's, when no structural rule proves it, *before* its
    /// simulation. A pass that changes the loop nest is where convergence
    /// breaks (seed 000's `loop_nest`: the late SimplifyCFG folds the
    /// outer loop into the inner one), and there the simulation's search
    /// and re-check run to the end, twice (against the stage before it
    /// and against the reference), before failing at the convergence
    /// condition: 0.14 to 0.24 s of z3 where the quick search finds the
    /// counterexample in under a millisecond (docs/src/performance.md,
    /// "Seed 000 through `default<O2>`: where the time went"). Only a
    /// counterexample decides (a stage it finds one in has no simulation
    /// relation: the simulation is sound), and it is the one the quick
    /// search after the simulation would have found (the same pairs in
    /// the same order, `search::explicit_search_stages`); finding nothing
    /// leaves the stage to the simulation as before. Other stages are not
    /// searched first: on a stage the simulation proves the search would
    /// be wasted work.
    pub(super) fn searched_first(
        &self,
        target: &Entry,
        allow: Allowance,
        before: Option<&Entry>,
        last: Option<&Entry>,
        product: bool,
    ) -> Option<Decided> {
        if !product || !self.auto() {
            return None;
        }
        let nest = |e: &Entry| {
            e.code.cfg().and_then(|p| p.cycles.get(e.func)).map(|c| {
                let mut d: Vec<usize> = c.cycles.iter().map(|c| c.depth).collect();
                d.sort_unstable();
                d
            })
        };
        let own = nest(target)?;
        let reference = self.reference;
        if nest(before.unwrap_or(reference)).as_ref() == Some(&own)
            || nest(reference).as_ref() == Some(&own)
        {
            return None;
        }
        let q = |r| Query {
            reference: r,
            target,
            allow,
            deadline: self.deadline,
        };
        let structural = |r| matches!(Structure.decide(&q(r)), Answer::Decided(..));
        if (allow == Allowance::Exact && last.is_some_and(structural)) || structural(reference) {
            return None;
        }
        self.progress
            .report(&format!("@{}: quick explicit search", self.f.name));
        match self.search(&QUICK).decide(&q(reference)) {
            Answer::Decided(outcome, method) => Some(Decided {
                outcome,
                method,
                against: None,
                reference: reference.code.module().clone(),
                notes: vec![QUICK_NOTE.into()],
            }),
            Answer::Unknown(_) => None,
        }
    }
}
