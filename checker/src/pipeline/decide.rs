//! How the engines decide a function's stages (docs/src/checking.md,
//! "Engines"; docs/src/llvm.md, "Engines on LLVM IR").
//!
//! Why this file is long: the decider's policies (staged, batch) share its
//! state and the helpers that turn an engine's answer into a stage; the
//! batch itself is in `decide/batch.rs`.
//!
//! **Staged** ([`Policy::Staged`], kernel files under `auto` and `smt`):
//! stage by stage. A stage is compared with the check's reference when the
//! reference is a CFG; at the source level the first stage (the lowering,
//! or a target file) is compared with the source (through the kernel's
//! token CFG in the product, which stands in for the source level when the
//! kernel has no implementation-defined region or irreducible loop), and
//! every later stage with the CFG of the first stage (within the bounds
//! the two steps compose: when the lowering relates instances as the
//! source does and a pass's output relates them as that CFG does, it
//! relates them as the source does). Under `auto` a quick explicit search
//! (max-iters 1, 100 ms) runs first, then (where the structural rule does
//! not apply) the simulation engine (10 million units of z3's work, at most
//! 8 s of CPU, within the time left), then the product; a product
//! counterexample is replaced by the explicit engine's smallest one when
//! that is found within two seconds, and a stage the product does not
//! model goes to the explicit engine. The first stage at the source level
//! without a stand-in is the explicit engine's, with half the time budget.
//!
//! **Batch** ([`Policy::Batch`], LLVM IR, and every input under
//! `explicit`): the structural proof first (LLVM IR), and where it does
//! not apply, under `auto` and `smt`, the simulation engine (10 million
//! units of z3's work, at most 8 s of CPU; [`FUNCTION_WORK`] per
//! function, all of it, and 16 s, for a function's only stage;
//! [`AFTER_BUDGET_WORK`] per attempt once that ran out, none
//! after [`AFTER_BUDGET_MISSES`] such attempts in a row ran out too); a
//! stage the structural rule relates to the
//! stage before it takes that stage's verdict (`batch::LINKED_NOTE`); a
//! stage whose cycles nest unlike the stage before it and the reference's
//! gets the quick explicit search before its simulation
//! (`Decider::searched_first`, `decide/first.rs`);
//! then, under `auto`, the quick explicit search
//! (max-iters 1, 100 ms per stage) on the open stages, all on one stream;
//! under `smt`,
//! the product on each open stage; the explicit engine on every stage
//! still open, on one stream of scenarios (half the time left under
//! `auto`, so that the product can still decide what it leaves
//! inconclusive); under `auto`, the product on each stage the explicit
//! engine left inconclusive, and a short counterexample search by the
//! product (`product::hunt_at`, all its z3 queries within
//! `batch::hunt_work` of the budget, 2 million units of z3's work at the
//! default 60 s, and a tenth of the time, at least 6 s) on the stages it
//! preserved while listing untried values or capped group sizes: the
//! last of them first, the earlier ones only where that one is violated.

use super::{empty_report, Entry, FunctionPlan, Policy, Progress, StagePlan, Target};
use crate::config::{CheckConfig, CheckJob, Engine as EngineChoice, Reference};
use crate::engine::{Allowance, Budget, Limits, Outcome, DEFAULT_TIMEOUT};
use crate::engines::search::{QUICK, REFINE};
use crate::engines::simulation::Simulation;
use crate::engines::{Answer, Engine, Explicit, Product, Query, QuickSearch};
use crate::report::{FunctionReport, Method, Stage};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Instant;

mod batch;
mod first;
use batch::gaps;

/// The note of a stage whose counterexample the quick explicit search
/// found before the product ran.
pub const QUICK_NOTE: &str = "counterexample found by the explicit engine at max-iters 1 (its \
quick search before the symbolic product)";

/// The note of a lowering stage decided against the token stand-in.
pub const STAND_IN_NOTE: &str = "reference: the source level, as the kernel's CFG lowered with \
convergence-control tokens (exact for kernels without implementation-defined regions or \
irreducible loops; docs/src/soundness.md)";

/// The note of a stage whose counterexample the product found.
pub const FOUND_NOTE: &str =
    "counterexample found by the symbolic product (replayed by the interpreter)";

/// The note of a stage proved against the stage before it.
pub const CHAINED_NOTE: &str = "proved against the stage before it, which is proved against the \
reference for every iteration count: the two proofs compose (equal events wherever the program \
compared with is defined, the same converged-with; both are transitive)";

/// What a stage proved against the stage before it was compared with.
const LAST: &str = "the stage before it";

/// What the table of a stage compared with the first stage's CFG shows.
const BASE: &str = "the CFG of stage 1";

/// What the table of a stage compared with the token stand-in shows.
const STAND_IN: &str = "the source level through its token CFG";

/// One stage as decided, before it becomes a report's stage.
struct Decided {
    outcome: Outcome,
    method: Method,
    /// What it was compared with, when not the reference.
    against: Option<&'static str>,
    /// The module of what it was compared with.
    reference: convcheck_ir::Module,
    /// Notes on how it was decided, before the stage's own.
    notes: Vec<String>,
}

fn stage_of(plan: &StagePlan, d: Decided, simulation: Option<String>) -> Stage {
    let mut notes = d.notes;
    notes.extend(plan.notes.iter().cloned());
    // A change the model cannot judge: a pass is not a verdict.
    let outcome = match (d.outcome, &plan.ceiling) {
        (Outcome::Preserved { .. }, Some(why)) => Outcome::Inconclusive(why.clone()),
        (o, _) => o,
    };
    let outcome = match (outcome, &plan.interprocedural) {
        (Outcome::Violated(_), Some(why)) => Outcome::Inconclusive(why.clone()),
        (o, _) => o,
    };
    Stage {
        name: plan.name.clone(),
        notes,
        level: plan.level.clone(),
        outcome,
        method: d.method,
        against: d.against.map(str::to_string),
        reference_module: d.reference,
        target_module: plan.module.clone(),
        reproduce: plan.reproduce.clone(),
        simulation,
    }
}

/// The limits of a job.
fn limits(job: &CheckJob) -> Limits {
    Limits {
        bounds: super::bounds_of(job),
        group: job.threads,
    }
}

/// The iteration bound a check raises its own to, at most, when every
/// run of a reference was out of the bound ([`function`]).
pub const RAISED_MAX_ITERS: u32 = 32;

/// What a stage says when every run of its reference was out of the
/// iteration bound, whatever the oracles (the explicit engine's words).
const ALL_CUT: &str = "whatever its oracles";

/// Decides every stage of `f` under `policy`. Under the batch policy, a
/// check whose stages are inconclusive because every run of the reference
/// left the iteration bound (a loop of LLVM's tests that runs 12 times or
/// more) is decided again with the bound doubled, up to
/// [`RAISED_MAX_ITERS`] and within the same time budget; the report's
/// bounds are the raised ones, with a note. A larger bound only adds
/// scenarios, so a verdict at it holds at the smaller one too.
pub fn function(
    f: &FunctionPlan,
    policy: Policy,
    job: &CheckJob,
    engine: EngineChoice,
    budget: &Budget,
    progress: &dyn Progress,
) -> FunctionReport {
    let all_cut = |fr: &FunctionReport| {
        fr.stages
            .iter()
            .filter(|s| matches!(&s.outcome, Outcome::Inconclusive(w) if w.contains(ALL_CUT)))
            .count()
    };
    let memo = SimMemo::default();
    let mut fr = function_once(f, policy, job, engine, budget, progress, &memo);
    if !matches!(policy, Policy::Batch { .. }) {
        return fr;
    }
    let deadline = budget.start + budget.timeout.unwrap_or(DEFAULT_TIMEOUT);
    let mut raised = job.clone();
    let mut improved = false;
    while all_cut(&fr) > 0
        && raised.max_iters < RAISED_MAX_ITERS
        && std::time::Instant::now() < deadline
    {
        let from = raised.max_iters;
        raised.max_iters = (from.max(1) * 2).min(RAISED_MAX_ITERS);
        let again = function_once(f, policy, &raised, engine, budget, progress, &memo);
        if all_cut(&again) >= all_cut(&fr) && again.verdict() == fr.verdict() {
            continue;
        }
        fr = again;
        improved = true;
        if let Some(first) = fr.stages.first_mut() {
            first.notes.insert(
                0,
                format!(
                    "max-iters raised from {} to {}: at {} every run of the reference left \
                     its loops' bound whatever its oracles",
                    job.max_iters, raised.max_iters, job.max_iters
                ),
            );
        }
    }
    if !improved && raised.max_iters > job.max_iters {
        if let Some(first) = fr.stages.first_mut() {
            first.notes.insert(
                0,
                format!(
                    "max-iters raised up to {} did not bring any run of the reference within \
                     the bound",
                    raised.max_iters
                ),
            );
        }
    }
    fr
}

/// [`function`] at `job`'s bounds.
fn function_once(
    f: &FunctionPlan,
    policy: Policy,
    job: &CheckJob,
    engine: EngineChoice,
    budget: &Budget,
    progress: &dyn Progress,
    memo: &SimMemo,
) -> FunctionReport {
    let mut fr = empty_report(&f.name, f.reference_kind, job, budget);
    fr.stages.extend(f.decided.iter().cloned());
    let Ok(reference) = &f.reference else {
        return fr;
    };
    let config = job.config();
    let d = Decider {
        f,
        reference,
        job,
        config: &config,
        engine,
        budget,
        progress,
        deadline: budget.start + budget.timeout.unwrap_or(DEFAULT_TIMEOUT),
        memo,
        misses: RefCell::new(Vec::new()),
    };
    match policy {
        Policy::Staged => d.staged(&mut fr),
        Policy::Batch { prove, search_only } => d.batch(&mut fr, prove, search_only),
    }
    fr
}

/// The decision of one function's stages: what it is asked and with which
/// budget.
struct Decider<'a> {
    f: &'a FunctionPlan,
    reference: &'a Entry,
    job: &'a CheckJob,
    config: &'a CheckConfig,
    engine: EngineChoice,
    budget: &'a Budget,
    progress: &'a dyn Progress,
    /// When the function's time budget runs out.
    deadline: Instant,
    /// The simulation's budget and answers for this function.
    memo: &'a SimMemo,
    /// Why the simulation attempts of the stage being decided found no
    /// proof, with what they compared against (taken by the stage).
    misses: RefCell<Vec<(&'static str, String)>>,
}

/// The simulation's budget and answers on one function, kept across the
/// checks of [`function`] at raised iteration bounds (a simulation proof
/// does not depend on the bounds, so its answer is not sought again).
struct SimMemo {
    /// The units of z3's work the simulation may still do on this
    /// function's stages ([`FUNCTION_WORK`] in all).
    left: Cell<u64>,
    /// Whether a simulation attempt of this function has run out of its
    /// work budget (the later attempts then get [`AFTER_BUDGET_WORK`]).
    spent_out: Cell<bool>,
    /// How many attempts in a row, since the budget first ran out, ran out
    /// of their own [`AFTER_BUDGET_WORK`] too (from [`AFTER_BUDGET_MISSES`]
    /// on, the later stages are not simulated).
    short: Cell<u32>,
    /// Per comparison (what is compared with, the target, whether
    /// barriers may be removed: by address in the function's plan), the
    /// outcome and method of a proof, or why none was found.
    answers: RefCell<HashMap<SimKey, SimFound>>,
}

/// A comparison the simulation was asked ([`SimMemo::answers`]).
type SimKey = (usize, usize, bool);

/// What the simulation found on one comparison: a proof's outcome and
/// method, or why there is none.
type SimFound = Result<(Outcome, Method), String>;

impl Default for SimMemo {
    fn default() -> SimMemo {
        SimMemo {
            left: Cell::new(FUNCTION_WORK),
            spent_out: Cell::new(false),
            short: Cell::new(0),
            answers: RefCell::new(HashMap::new()),
        }
    }
}

/// The units of z3's work the simulation may do on all the stages of one
/// function together (each attempt at most `engines::simulation::WORK`):
/// under `default<O2>` a function has up to 27 stages, and a stage the
/// simulation cannot relate to the reference used to spend the whole
/// per-stage budget every time (`examples/gpu` `grid_stride`: 40 to 47 s,
/// most of it in ten simulations that found nothing; docs/src/
/// performance.md, "The simulation's share of a pipeline").
pub const FUNCTION_WORK: u64 = 2 * crate::engines::simulation::WORK;

/// The units of z3's work a simulation attempt gets once an earlier
/// attempt on the same function ran out of its budget: a stage further
/// down the pipeline is further from the reference, and a relation the
/// full budget did not find for an earlier stage is seldom found for a
/// later one; a cheap proof (a short relation) still is.
pub const AFTER_BUDGET_WORK: u64 = crate::engines::simulation::WORK / 10;

/// After this many attempts in a row with [`AFTER_BUDGET_WORK`] that ran
/// out of it (a pipeline whose early stage the simulation could not
/// relate: every later stage carries that stage's change), the later
/// stages of the function are not simulated, and say so. `early_exit`
/// under `default<O2>`: after EarlyCSE's stage ran out of its 10 million
/// units, each of the next ten attempts ran out of its million
/// (docs/src/performance.md, "Values reused across an event").
pub const AFTER_BUDGET_MISSES: u32 = 2;

/// Why the stage's simulation attempts found no proof, one per attempt,
/// for the report (`None` where none ran, or one proved the stage).
fn misses_text(misses: Vec<(&'static str, String)>, proved: bool) -> Option<String> {
    if proved || misses.is_empty() {
        return None;
    }
    if let [(_, why)] = misses.as_slice() {
        return Some(why.clone());
    }
    Some(
        misses
            .into_iter()
            .map(|(against, why)| format!("against {against}: {why}"))
            .collect::<Vec<_>>()
            .join("; "),
    )
}

/// Whether the product's structural rule proves `target` (tokens aligned
/// with the cycles erased first, as the product does): the product then
/// decides the stage at once, by structure, and the simulation is not
/// needed.
fn by_structure(reference: &Entry, target: &Entry) -> bool {
    use convcheck_smt::product::{self, tokens};
    let (Some(r), Some(t)) = (reference.code.cfg(), target.code.cfg()) else {
        return false;
    };
    if reference.func != target.func {
        return false;
    }
    let (er, et) = (tokens::erase_aligned(r), tokens::erase_aligned(t));
    product::by_structure(
        er.as_ref().unwrap_or(r),
        et.as_ref().unwrap_or(t),
        reference.func,
    )
    .is_some()
}

/// Whether the structural rule relates the query's two CFGs as they are
/// (`engines::structure::proved` without its second attempt up to
/// canonicalization): the product then decides the stage at once, by
/// structure. A stage related only up to canonicalization is still
/// simulated here: the staged policy (`later_stage`) goes on to the
/// product, whose own rule does not canonicalize.
fn as_they_are(q: &Query) -> bool {
    let (Some(r), Some(t)) = (q.reference.code.cfg(), q.target.code.cfg()) else {
        return false;
    };
    crate::engines::structure::proved_with(
        &r.module,
        q.reference.func,
        &t.module,
        q.target.func,
        |_| None,
    )
    .is_some()
}

/// Whether `m` proves a stage for every iteration count.
fn unbounded(m: &Method) -> bool {
    matches!(m, Method::Structure { .. } | Method::Simulation { .. })
}

/// The explicit engine's progress, ignored.
fn silent(_: &crate::engine::Progress) {}

impl Decider<'_> {
    fn auto(&self) -> bool {
        self.engine == EngineChoice::Auto
    }

    fn at_source(&self) -> bool {
        self.f.reference_kind == Reference::Source
    }

    /// The product engine of the check.
    fn product(&self) -> Product {
        Product {
            max_iters: self.job.max_iters,
            threads: self.job.threads,
            memory_mb: self.budget.solver_memory_mb,
        }
    }

    /// A simulation proof of `target` against `reference` where the
    /// structural rule does not apply (at most `engines::simulation::WORK`
    /// units of z3's work, from the function's share [`FUNCTION_WORK`];
    /// at most 8 s of CPU, within the time left; `None` when no relation is
    /// found, with why in `misses` under `against`).
    fn simulated(
        &self,
        reference: &Entry,
        target: &Entry,
        allow: Allowance,
        against: &'static str,
    ) -> Option<Decided> {
        let q = Query {
            reference,
            target,
            allow,
            deadline: self.deadline,
        };
        // The simulation compares two CFGs: not run (no reason to give)
        // against the source level.
        if self.engine == EngineChoice::Explicit
            || reference.code.cfg().is_none()
            || target.code.cfg().is_none()
            || as_they_are(&q)
            || by_structure(reference, target)
        {
            return None;
        }
        let miss = |why: String| self.misses.borrow_mut().push((against, why));
        let decided = |outcome: Outcome, method: Method| Decided {
            outcome,
            method,
            against: None,
            reference: reference.code.module().clone(),
            notes: Vec::new(),
        };
        let key = (
            reference as *const Entry as usize,
            target as *const Entry as usize,
            allow == Allowance::Barriers,
        );
        let known = self.memo.answers.borrow().get(&key).cloned();
        match known {
            Some(Ok((outcome, method))) => return Some(decided(outcome, method)),
            Some(Err(why)) => {
                miss(why);
                return None;
            }
            None => {}
        }
        let left = self.memo.left.get();
        if left == 0 {
            miss(format!(
                "skipped: the function's share of the simulation's work ({} million units of \
                 z3's work over its stages) is spent",
                FUNCTION_WORK / 1_000_000
            ));
            return None;
        }
        if self.memo.short.get() >= AFTER_BUDGET_MISSES {
            miss(format!(
                "skipped: {AFTER_BUDGET_MISSES} attempts in a row on this function's earlier \
                 stages ran out of their {} million units of z3's work after its first attempt \
                 to do so",
                AFTER_BUDGET_WORK / 1_000_000
            ));
            return None;
        }
        let after_budget = self.memo.spent_out.get();
        // A function's only stage (a target file, or a pipeline of which
        // one pass changed the function) leaves no later stage to starve:
        // it may take the function's whole share ([`FUNCTION_WORK`]), and
        // the CPU time cap grows with it (`simulation::max_time`).
        // Every other attempt gets at most one stage's budget.
        let work = if after_budget {
            left.min(AFTER_BUDGET_WORK)
        } else if self.f.stages.len() == 1 {
            left
        } else {
            left.min(crate::engines::simulation::WORK)
        };
        self.progress
            .report(&format!("@{}: simulation", self.f.name));
        let memory_mb = self.budget.solver_memory_mb;
        let a = (Simulation { memory_mb, work }).attempt(&q);
        self.progress.report(&format!(
            "@{}: simulation against {against}: {} units of z3's work of {work}, {}",
            self.f.name,
            a.spent,
            match &a.answer {
                Answer::Decided(..) => "proved",
                Answer::Unknown(_) => "no proof",
            }
        ));
        self.memo.left.set(left.saturating_sub(a.spent));
        let answer = match a.answer {
            Answer::Decided(outcome, method) => Ok((outcome, method)),
            Answer::Unknown(why) => {
                if why.is_budget() {
                    self.memo.spent_out.set(true);
                }
                Err(a.miss.unwrap_or(why.why))
            }
        };
        let short = after_budget && matches!(&answer, Err(w) if w.starts_with("budget"));
        self.memo
            .short
            .set(if short { self.memo.short.get() + 1 } else { 0 });
        self.memo.answers.borrow_mut().insert(key, answer.clone());
        match answer {
            Ok((outcome, method)) => Some(decided(outcome, method)),
            Err(why) => {
                miss(why);
                None
            }
        }
    }

    /// Why the stage just decided found no simulation proof (see
    /// [`misses_text`]).
    fn take_misses(&self, proved: bool) -> Option<String> {
        misses_text(std::mem::take(&mut *self.misses.borrow_mut()), proved)
    }

    /// A short explicit search under `plan`.
    fn search(&self, plan: &'static crate::engines::search::SearchPlan) -> QuickSearch<'_> {
        QuickSearch {
            config: self.config,
            budget: *self.budget,
            plan,
        }
    }

    /// The explicit engine with `budget`.
    fn explicit(&self, budget: Budget) -> Explicit<'_> {
        Explicit {
            limits: limits(self.job),
            budget,
            progress: &silent,
        }
    }

    /// A stage decided without an engine.
    fn static_stage(&self, outcome: &Outcome) -> Decided {
        Decided {
            outcome: outcome.clone(),
            method: Method::Static,
            against: None,
            reference: self.reference.code.module().clone(),
            notes: Vec::new(),
        }
    }

    // ----- the staged policy -----

    /// Stage by stage (see the module documentation).
    fn staged(&self, fr: &mut FunctionReport) {
        // What the later stages are compared with: the reference CFG, or
        // the first stage's CFG at the source level.
        let mut base: Option<Entry> = self.reference.code.cfg().map(|_| self.reference.clone());
        let count = self.f.stages.len();
        for (i, s) in self.f.stages.iter().enumerate() {
            self.progress
                .report(&format!("stage {} of {count} ({})", i + 1, s.name));
            let target = match &s.target {
                Target::Code(e) => e,
                Target::Decided(o) => {
                    fr.stages.push(stage_of(s, self.static_stage(o), None));
                    continue;
                }
            };
            let d = if i == 0 && self.at_source() {
                self.first_at_source(target, s.allow, fr)
            } else {
                let Some(b) = base.clone() else {
                    continue;
                };
                self.later_stage(&b, target, s.allow, fr)
            };
            let sim = self.take_misses(unbounded(&d.method));
            fr.stages.push(stage_of(s, d, sim));
            if i == 0 && self.at_source() {
                base = Some(target.clone()).filter(|t| t.code.cfg().is_some());
            }
        }
    }

    /// The first stage of a check at the source level: the quick search
    /// (under `auto`), then the product against the token stand-in, else
    /// the explicit engine with half the time budget.
    fn first_at_source(
        &self,
        target: &Entry,
        allow: Allowance,
        fr: &mut FunctionReport,
    ) -> Decided {
        let reference = self.reference;
        let source_module = reference.code.module().clone();
        let q = Query {
            reference,
            target,
            allow,
            deadline: self.deadline,
        };
        if self.auto() {
            if let Answer::Decided(outcome, method) = self.search(&QUICK).decide(&q) {
                return Decided {
                    outcome,
                    method,
                    against: None,
                    reference: source_module,
                    notes: vec![QUICK_NOTE.into()],
                };
            }
        }
        let timeout = self.budget.timeout.unwrap_or(DEFAULT_TIMEOUT);
        if let (Some(stand_in), Some(_)) = (&self.f.stand_in, target.code.cfg()) {
            let sq = Query {
                reference: stand_in,
                target,
                allow,
                deadline: self.budget.start + timeout / 2,
            };
            if let Some(d) = self.simulated(stand_in, target, allow, STAND_IN) {
                return Decided {
                    against: Some(STAND_IN),
                    notes: vec![STAND_IN_NOTE.into()],
                    ..d
                };
            }
            if let Answer::Decided(outcome, method) = self.product().decide(&sq) {
                return self.refined_or(outcome, method, &q, stand_in, source_module);
            }
        }
        // The explicit engine, with half the time budget: the later stages
        // need the rest.
        let half = Budget {
            timeout: Some(timeout / 2),
            ..*self.budget
        };
        let c = self.explicit(half).batch(reference, &[(target, allow)]);
        let outcome = first_outcome(c.outcomes);
        let gap = gaps(&c.coverage);
        fr.coverage = Some(c.coverage);
        if let (Some(gap), Outcome::Preserved { .. }) = (gap, &outcome) {
            if let Some(d) = self.stand_ins_found(allow, &gap) {
                return d;
            }
        }
        Decided {
            outcome,
            method: Method::Explicit,
            against: None,
            reference: source_module,
            notes: Vec::new(),
        }
    }

    /// A target kernel file preserved by the explicit engine with values
    /// or group sizes untried (`gap`): under `auto` and `smt`, the product
    /// compares the two kernels' token stand-ins (each the source level of
    /// its kernel; issue 20 class m: a stage whose domains are not exact
    /// goes to the product) with a tenth of the time budget, as the batch
    /// policy's search after the explicit engine. Only a counterexample
    /// changes the verdict.
    fn stand_ins_found(&self, allow: Allowance, gap: &str) -> Option<Decided> {
        let (Some(r), Some(t)) = (&self.f.stand_in, &self.f.target_stand_in) else {
            return None;
        };
        if self.engine == EngineChoice::Explicit {
            return None;
        }
        self.progress
            .report(&format!("@{}: symbolic product", self.f.name));
        let short = self
            .deadline
            .min(Instant::now() + self.budget.timeout.unwrap_or(DEFAULT_TIMEOUT) / 10);
        let q = Query {
            reference: r,
            target: t,
            allow,
            deadline: short,
        };
        match self.product().decide(&q) {
            Answer::Decided(o @ Outcome::Violated(_), m) => Some(Decided {
                outcome: o,
                method: m,
                against: Some(STAND_IN),
                reference: r.code.module().clone(),
                notes: vec![
                    format!("the explicit engine found none ({gap}): {FOUND_NOTE}"),
                    STAND_IN_NOTE.into(),
                ],
            }),
            _ => None,
        }
    }

    /// The product's answer against the token stand-in; a counterexample is
    /// replaced (under `auto`) by the explicit engine's smallest one against
    /// the source level when that is found quickly.
    fn refined_or(
        &self,
        outcome: Outcome,
        method: Method,
        q: &Query,
        stand_in: &Entry,
        source_module: convcheck_ir::Module,
    ) -> Decided {
        if self.auto() && matches!(outcome, Outcome::Violated(_)) {
            if let Answer::Decided(o, _) = self.search(&REFINE).decide(q) {
                return Decided {
                    outcome: o,
                    method: Method::QuickSearch,
                    against: None,
                    reference: source_module,
                    notes: vec![STAND_IN_NOTE.into()],
                };
            }
        }
        Decided {
            outcome,
            method,
            against: Some(STAND_IN),
            reference: stand_in.code.module().clone(),
            notes: vec![STAND_IN_NOTE.into()],
        }
    }

    /// A stage compared with `base` (the reference CFG, or the first
    /// stage's CFG at the source level): the quick search (under `auto`),
    /// then the product, the explicit engine for what the product does not
    /// model (under `auto`).
    fn later_stage(
        &self,
        base: &Entry,
        target: &Entry,
        allow: Allowance,
        fr: &mut FunctionReport,
    ) -> Decided {
        let q = Query {
            reference: base,
            target,
            allow,
            deadline: self.deadline,
        };
        let against = self.at_source().then_some(BASE);
        let module = base.code.module().clone();
        if self.auto() {
            if let Answer::Decided(outcome, method) = self.search(&QUICK).decide(&q) {
                return Decided {
                    outcome,
                    method,
                    against,
                    reference: module,
                    notes: vec![QUICK_NOTE.into()],
                };
            }
        }
        if let Some(d) = self.simulated(base, target, allow, "the reference") {
            return Decided { against, ..d };
        }
        let mut notes = Vec::new();
        let (mut outcome, mut method) = match self.product().decide(&q) {
            Answer::Decided(o, m) => (o, m),
            Answer::Unknown(why) if !why.is_budget() && self.auto() => {
                // Not modelled by the product: the explicit engine with the
                // time left.
                let rest = Budget {
                    timeout: Some(self.deadline.saturating_duration_since(Instant::now())),
                    ..*self.budget
                };
                let c = self.explicit(rest).batch(base, &[(target, allow)]);
                if fr.coverage.is_none() {
                    fr.coverage = Some(c.coverage);
                }
                notes.push(format!("{why}: decided by the explicit engine"));
                (first_outcome(c.outcomes), Method::Explicit)
            }
            Answer::Unknown(why) => (Outcome::Inconclusive(why.why), Method::Static),
        };
        if self.auto()
            && matches!(outcome, Outcome::Violated(_))
            && !matches!(method, Method::Explicit)
        {
            if let Answer::Decided(o, _) = self.search(&REFINE).decide(&q) {
                outcome = o;
                method = Method::QuickSearch;
            }
        }
        Decided {
            outcome,
            method,
            against,
            reference: module,
            notes,
        }
    }
}

/// The one outcome of a one-stage comparison.
fn first_outcome(outcomes: Vec<Outcome>) -> Outcome {
    outcomes
        .into_iter()
        .next()
        .unwrap_or_else(|| Outcome::Inconclusive("not compared".into()))
}
