//! The engines that decide a stage, behind one interface ([`Engine`]): a
//! reference and a target function (with what the target may remove) in,
//! an [`Answer`] out.
//!
//! - [`Structure`]: the structural rule (DESIGN.md 2.7 "proved"): the two
//!   functions are the same program up to renumbering and merged
//!   straight-line blocks, for every iteration count ([`structure`]).
//! - [`simulation::Simulation`]: a simulation relation between the two
//!   functions, found and re-checked by z3 (`convcheck_smt::simulation`):
//!   every iteration count, beyond what the structural rule accepts.
//! - [`Explicit`]: the explicit enumeration of scenarios and paths
//!   ([`crate::engine`]), within the check's bounds and budgets; it also
//!   decides several stages on one stream of scenarios ([`Explicit::batch`]).
//! - [`QuickSearch`]: the explicit engine at a small iteration bound for a
//!   short time ([`search`]): it finds counterexamples, never decides that
//!   a stage holds.
//! - [`Product`]: the symbolic two-thread product solved by z3
//!   (`convcheck_smt::product`), whose counterexamples are replayed by the
//!   interpreter.
//!
//! Which engines run, in which order and with which share of the time
//! budget, is the policy's ([`crate::pipeline::decide`]).

pub mod search;
pub mod simulation;
pub mod structure;

use crate::config::CheckConfig;
use crate::engine::{
    compare_any_hierarchy_within, compare_stages, Allowance, At, Budget, Comparison, Finding,
    Limits, Outcome, Property, Which,
};
use crate::pipeline::Entry;
use crate::report::bounds::MAX_COPIES;
use crate::report::Method;
use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::Module;
use convcheck_smt::product::{self, ProductOptions};
use convcheck_smt::Answer as SmtAnswer;
pub use convcheck_smt::{Limit, Unknown};
use std::time::Instant;

/// One stage to decide.
pub struct Query<'a> {
    /// What the stage is compared with.
    pub reference: &'a Entry,
    /// The stage's function.
    pub target: &'a Entry,
    /// What the target may remove.
    pub allow: Allowance,
    /// When the engine must have answered.
    pub deadline: Instant,
}

/// An engine's answer on one stage.
pub enum Answer {
    /// The stage holds (within the engine's bounds, or proved), or a
    /// counterexample: an outcome the report keeps, with how it was found.
    Decided(Outcome, Method),
    /// Not decided, and why: a budget (time, memory, size) that ran out,
    /// or an input the engine does not model ([`Unknown::is_budget`]).
    Unknown(Unknown),
}

/// An engine that decides a stage.
pub trait Engine {
    /// Decides `q`.
    fn decide(&self, q: &Query) -> Answer;
}

/// The structural rule.
pub struct Structure;

impl Engine for Structure {
    fn decide(&self, q: &Query) -> Answer {
        let (Some(r), Some(t)) = (q.reference.code.cfg(), q.target.code.cfg()) else {
            return Answer::Unknown(Unknown::unsupported(
                "the structural rule compares two CFGs",
            ));
        };
        match structure::proved(&r.module, q.reference.func, &t.module, q.target.func) {
            Some(merged) => Answer::Decided(
                Outcome::Preserved { pairs: 0, cut: 0 },
                Method::Structure { merged },
            ),
            None => Answer::Unknown(Unknown::incomplete("the structural rule does not apply")),
        }
    }
}

/// The explicit enumeration within `limits` and `budget` (its time budget
/// ends at the query's deadline at the latest).
pub struct Explicit<'p> {
    /// Bounds and group size.
    pub limits: Limits,
    /// The budgets.
    pub budget: Budget,
    /// Where the enumeration reports its progress.
    pub progress: &'p dyn Fn(&crate::engine::Progress),
}

impl Explicit<'_> {
    /// Decides every target against `reference` on one stream of scenarios
    /// (the smallest counterexample over all stages first); an irreducible
    /// CFG reference is compared under any of its cycle hierarchies (at
    /// most [`HIERARCHY_CAP`]).
    pub fn batch(&self, reference: &Entry, targets: &[(&Entry, Allowance)]) -> Comparison {
        let r = reference.side();
        let sides: Vec<_> = targets.iter().map(|(t, a)| (t.side(), *a)).collect();
        let mut progress = |p: &crate::engine::Progress| (self.progress)(p);
        let several = reference.code.cfg().is_some_and(|p| {
            convcheck_ir::cycles::all_hierarchies(&p.module.functions[reference.func], 2).len() > 1
        });
        if several && !sides.is_empty() {
            // Every stage under each hierarchy, all within the one budget
            // (its deadline is the check's), the coverage of the first.
            let mut c = compare_stages(&r, &sides[..1], self.limits, &self.budget, &mut progress);
            c.outcomes = sides
                .iter()
                .map(|(t, allow)| {
                    compare_any_hierarchy_within(
                        &r,
                        t,
                        *allow,
                        self.limits,
                        HIERARCHY_CAP,
                        &self.budget,
                    )
                })
                .collect();
            c
        } else {
            compare_stages(&r, &sides, self.limits, &self.budget, &mut progress)
        }
    }
}

impl Engine for Explicit<'_> {
    fn decide(&self, q: &Query) -> Answer {
        let mut c = self.batch(q.reference, &[(q.target, q.allow)]);
        match c.outcomes.swap_remove(0) {
            // The enumeration's own reasons (a budget, a scenario it could
            // not compare) reach the report as words only.
            Outcome::Inconclusive(why) => Answer::Unknown(Unknown::incomplete(why)),
            o => Answer::Decided(o, Method::Explicit),
        }
    }
}

/// The explicit engine's short searches (the quick search before the
/// product, the refinement of a product counterexample).
pub struct QuickSearch<'a> {
    /// The check's bounds.
    pub config: &'a CheckConfig,
    /// The check's budgets.
    pub budget: Budget,
    /// How far it looks.
    pub plan: &'a search::SearchPlan,
}

impl Engine for QuickSearch<'_> {
    fn decide(&self, q: &Query) -> Answer {
        match search::explicit_search(
            &q.reference.side(),
            &q.target.side(),
            q.allow,
            self.config,
            &self.budget,
            q.deadline,
            self.plan,
        ) {
            Some(o) => Answer::Decided(o, Method::QuickSearch),
            None => Answer::Unknown(Unknown::incomplete("no counterexample at a small bound")),
        }
    }
}

/// The symbolic product.
pub struct Product {
    /// Iterations per cycle of the reference.
    pub max_iters: u32,
    /// The group size, 0 for every `N >= 2`.
    pub threads: u32,
    /// z3's memory budget in MiB.
    pub memory_mb: u64,
}

impl Engine for Product {
    fn decide(&self, q: &Query) -> Answer {
        self.run(q, None)
    }
}

impl Product {
    /// A search for a counterexample alone ([`product::hunt_at`], all its
    /// z3 queries within `work`, units of z3's resource counter): a
    /// violation, or `Unknown` (none found, or a budget ran out).
    pub fn hunt(&self, q: &Query, work: &product::WorkAccount) -> Answer {
        self.run(q, Some(work))
    }

    /// [`Engine::decide`], or [`Product::hunt`] with its work budget.
    fn run(&self, q: &Query, hunt: Option<&product::WorkAccount>) -> Answer {
        let left = q.deadline.saturating_duration_since(Instant::now());
        let (Some(r), Some(t)) = (q.reference.code.cfg(), q.target.code.cfg()) else {
            return Answer::Unknown(Unknown::unsupported("smt: the product compares two CFGs"));
        };
        if left.is_zero() {
            return Answer::Unknown(Unknown::time("smt: time budget reached"));
        }
        let opts = ProductOptions {
            max_iters: self.max_iters,
            group: (self.threads > 0).then_some(self.threads),
            allow_barrier_removal: q.allow == Allowance::Barriers,
            timeout: left,
            max_copies: MAX_COPIES,
            memory_mb: self.memory_mb,
        };
        let entries = [q.reference.func, q.target.func];
        let answer = match hunt {
            Some(work) => product::hunt_at(r, t, entries, &opts, work),
            None => product::compare_at(r, t, entries, &opts),
        };
        match answer {
            SmtAnswer::Proved(p) => {
                Answer::Decided(Outcome::Preserved { pairs: 0, cut: 0 }, Method::Product(p))
            }
            SmtAnswer::Counterexample(c) => Answer::Decided(
                Outcome::Violated(Box::new(finding_of(c, &r.module))),
                Method::ProductCounterexample,
            ),
            SmtAnswer::Unknown(u) => Answer::Unknown(Unknown::new(u.limit, format!("smt: {u}"))),
        }
    }
}

/// A replayed product counterexample as the explicit engine's finding
/// (`reference` is the module its reference runs are of).
pub fn finding_of(c: product::Counterexample, reference: &Module) -> Finding {
    Finding {
        property: match c.property {
            product::Property::SingleThreadBehaviour => Property::SingleThreadBehaviour,
            product::Property::Convergence => Property::Convergence,
        },
        threads: c.threads,
        tids: c.tids,
        group: c.group,
        message: c.message,
        operation: c.op.map(|op| At::of(reference, Which::Reference, op)),
        reference: c.reference,
        target: c.target,
    }
}
