//! How the engines decide a function's stages (docs/src/checking.md,
//! "Engines"; docs/src/llvm.md, "Engines on LLVM IR").
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
//! not apply) the simulation engine (half the time left, at most
//! 5 s), then the product; a product
//! counterexample is replaced by the explicit engine's smallest one when
//! that is found within two seconds, and a stage the product does not
//! model goes to the explicit engine. The first stage at the source level
//! without a stand-in is the explicit engine's, with half the time budget.
//!
//! **Batch** ([`Policy::Batch`], LLVM IR, and every input under
//! `explicit`): the structural proof first (LLVM IR), and where it does
//! not apply, under `auto` and `smt`, the simulation engine (half the
//! time left, at most 5 s); then, under `auto`, the quick explicit search
//! (max-iters 1, 100 ms) on each open stage; under `smt`,
//! the product on each open stage; the explicit engine on every stage
//! still open, on one stream of scenarios (half the time left under
//! `auto`, so that the product can still decide what it leaves
//! inconclusive); under `auto`, the product on each stage the explicit
//! engine left inconclusive, and a short counterexample search by the
//! product (a tenth of the budget) on each stage it preserved while
//! listing untried values or capped group sizes.

use super::{empty_report, Entry, FunctionPlan, Policy, Progress, StagePlan, Target};
use crate::config::{CheckConfig, CheckJob, Engine as EngineChoice, Reference};
use crate::engine::{Allowance, Budget, Coverage, Limits, Outcome, DEFAULT_TIMEOUT};
use crate::engines::search::{QUICK, REFINE};
use crate::engines::simulation::Simulation;
use crate::engines::{Answer, Engine, Explicit, Product, Query, QuickSearch, Structure};
use crate::report::{FunctionReport, Method, Stage};
use std::time::{Duration, Instant};

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

fn stage_of(plan: &StagePlan, d: Decided) -> Stage {
    let mut notes = d.notes;
    notes.extend(plan.notes.iter().cloned());
    Stage {
        name: plan.name.clone(),
        notes,
        level: plan.level.clone(),
        outcome: d.outcome,
        method: d.method,
        against: d.against.map(str::to_string),
        reference_module: d.reference,
        target_module: plan.module.clone(),
        reproduce: plan.reproduce.clone(),
    }
}

/// The limits of a job.
fn limits(job: &CheckJob) -> Limits {
    Limits {
        bounds: super::bounds_of(job),
        group: job.threads,
    }
}

/// Decides every stage of `f` under `policy`.
pub fn function(
    f: &FunctionPlan,
    policy: Policy,
    job: &CheckJob,
    engine: EngineChoice,
    budget: &Budget,
    progress: &dyn Progress,
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
    };
    match policy {
        Policy::Staged => d.staged(&mut fr),
        Policy::Batch { prove } => d.batch(&mut fr, prove),
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
    /// structural rule does not apply (half the time left, at most
    /// 5 s; `None` when no relation is found).
    fn simulated(&self, reference: &Entry, target: &Entry, allow: Allowance) -> Option<Decided> {
        let q = Query {
            reference,
            target,
            allow,
            deadline: self.deadline,
        };
        if self.engine == EngineChoice::Explicit
            || matches!(Structure.decide(&q), Answer::Decided(..))
            || by_structure(reference, target)
        {
            return None;
        }
        self.progress
            .report(&format!("@{}: simulation", self.f.name));
        let memory_mb = self.budget.solver_memory_mb;
        match (Simulation { memory_mb }).decide(&q) {
            Answer::Decided(outcome, method) => Some(Decided {
                outcome,
                method,
                against: None,
                reference: reference.code.module().clone(),
                notes: Vec::new(),
            }),
            Answer::Unknown(_) => None,
        }
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
                    fr.stages.push(stage_of(s, self.static_stage(o)));
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
            fr.stages.push(stage_of(s, d));
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
            if let Some(d) = self.simulated(stand_in, target, allow) {
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
        fr.coverage = Some(c.coverage);
        Decided {
            outcome: first_outcome(c.outcomes),
            method: Method::Explicit,
            against: None,
            reference: source_module,
            notes: Vec::new(),
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
        if let Some(d) = self.simulated(base, target, allow) {
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

    // ----- the batch policy -----

    /// The structural proof, the product first under `smt`, the explicit
    /// engine on one stream for what is open, and the product after it
    /// under `auto` (see the module documentation).
    fn batch(&self, fr: &mut FunctionReport, prove: bool) {
        let mut b = Batch {
            decided: self.f.stages.iter().map(|_| None).collect(),
            notes: vec![Vec::new(); self.f.stages.len()],
            product: self.product_applies(),
        };
        // The last stage's function when it was proved for every iteration
        // count (a later stage proved against it is proved against the
        // reference: the two proofs compose).
        let mut last: Option<&Entry> = None;
        for (j, s) in self.f.stages.iter().enumerate() {
            b.decided[j] = match &s.target {
                Target::Decided(o) => Some(self.static_stage(o)),
                Target::Code(t) if prove => last
                    .and_then(|l| self.chained(l, t, s.allow))
                    .or_else(|| self.proved(t, s.allow)),
                Target::Code(_) => None,
            };
            last = match (&s.target, &b.decided[j]) {
                (Target::Code(t), Some(d)) if unbounded(&d.method) => Some(t),
                _ => None,
            };
        }
        if b.product && self.auto() {
            self.quick_first(&mut b);
        }
        if b.product && self.engine == EngineChoice::Smt {
            self.product_first(&mut b);
        }
        self.explicit_batch(&mut b, fr);
        for (j, s) in self.f.stages.iter().enumerate() {
            let mut d = b.decided[j].take().unwrap_or_else(|| Decided {
                outcome: Outcome::Inconclusive("not compared".into()),
                ..self.static_stage(&Outcome::Preserved { pairs: 0, cut: 0 })
            });
            let mut n = std::mem::take(&mut b.notes[j]);
            n.append(&mut d.notes);
            d.notes = n;
            fr.stages.push(stage_of(s, d));
        }
    }

    /// Whether the product may decide stages: it needs a CFG reference
    /// with one cycle hierarchy, and an engine other than `explicit`.
    fn product_applies(&self) -> bool {
        let r = self.reference;
        let several = r.code.cfg().is_some_and(|p| {
            convcheck_ir::cycles::all_hierarchies(&p.module.functions[r.func], 2).len() > 1
        });
        r.code.cfg().is_some() && !several && self.engine != EngineChoice::Explicit
    }

    /// The query of stage `j`, when it compares code.
    fn query(&self, j: usize, deadline: Instant) -> Option<Query<'_>> {
        let s = &self.f.stages[j];
        match &s.target {
            Target::Code(t) => Some(Query {
                reference: self.reference,
                target: t,
                allow: s.allow,
                deadline,
            }),
            Target::Decided(_) => None,
        }
    }

    /// A proof of `target` against `last`, the stage before it, itself
    /// proved against the reference for every iteration count: by the
    /// structural rule (the pass changed nothing the proof depends on), or
    /// by a simulation relation between the two stages (a shorter distance
    /// than from the reference). The two proofs compose: each says that
    /// every thread's observable events are equal wherever the program it
    /// is compared with does not reach undefined behaviour, and that two
    /// threads' matched instances are converged in one iff in the other;
    /// both are transitive. Only for stages that may remove nothing (a
    /// removal is allowed against the reference, not against a stage).
    fn chained(&self, last: &Entry, target: &Entry, allow: Allowance) -> Option<Decided> {
        if allow != Allowance::Exact {
            return None;
        }
        let q = Query {
            reference: last,
            target,
            allow,
            deadline: self.deadline,
        };
        let (outcome, method) = match Structure.decide(&q) {
            Answer::Decided(o, m) => (o, m),
            Answer::Unknown(_) => {
                let d = self.simulated(last, target, allow)?;
                (d.outcome, d.method)
            }
        };
        Some(Decided {
            outcome,
            method,
            against: Some(LAST),
            reference: last.code.module().clone(),
            notes: vec![CHAINED_NOTE.into()],
        })
    }

    /// The structural proof of a stage, if it applies.
    fn proved(&self, target: &Entry, allow: Allowance) -> Option<Decided> {
        let q = Query {
            reference: self.reference,
            target,
            allow,
            deadline: self.deadline,
        };
        match Structure.decide(&q) {
            Answer::Decided(outcome, method) => Some(Decided {
                outcome,
                method,
                against: None,
                reference: self.reference.code.module().clone(),
                notes: Vec::new(),
            }),
            Answer::Unknown(_) => self.simulated(self.reference, target, allow),
        }
    }

    /// Under `auto`, where the reference has one cycle hierarchy (the
    /// quick search compares under that one; an irreducible reference is
    /// the full enumeration's, under each of its hierarchies): the quick
    /// explicit search (max-iters 1, at most 100 ms) on every open stage, before the full enumeration spends its
    /// share of the budget: a counterexample it finds decides the stage
    /// (seed 000's `loop_nest` through `default<O2>`: the late
    /// SimplifyCFG's violation in 0.2 s, where the enumeration at
    /// max-iters 8 ran 30 s before the product found it). Finding nothing
    /// decides nothing.
    fn quick_first(&self, b: &mut Batch) {
        for j in 0..self.f.stages.len() {
            if b.decided[j].is_some() {
                continue;
            }
            let Some(q) = self.query(j, self.deadline) else {
                continue;
            };
            if let Answer::Decided(outcome, method) = self.search(&QUICK).decide(&q) {
                b.decided[j] = Some(Decided {
                    outcome,
                    method,
                    against: None,
                    reference: self.reference.code.module().clone(),
                    notes: vec![QUICK_NOTE.into()],
                });
            }
        }
    }

    /// Under `smt`: the product on every open stage first; what it does
    /// not model is left to the explicit engine, with a note.
    fn product_first(&self, b: &mut Batch) {
        let module = self.reference.code.module();
        for j in 0..self.f.stages.len() {
            if b.decided[j].is_some() {
                continue;
            }
            let Some(q) = self.query(j, self.deadline) else {
                continue;
            };
            self.progress
                .report(&format!("@{}: symbolic product", self.f.name));
            b.decided[j] = match self.product().decide(&q) {
                Answer::Decided(outcome, method) => Some(Decided {
                    notes: if matches!(outcome, Outcome::Violated(_)) {
                        vec![FOUND_NOTE.to_string()]
                    } else {
                        Vec::new()
                    },
                    outcome,
                    method,
                    against: None,
                    reference: module.clone(),
                }),
                Answer::Unknown(why) if why.is_budget() => {
                    Some(self.static_stage(&Outcome::Inconclusive(why.why)))
                }
                Answer::Unknown(why) => {
                    b.notes[j].push(format!("{why}: decided by the explicit engine"));
                    None
                }
            };
        }
    }

    /// The explicit engine on every stage still open, on one stream of
    /// scenarios; under `auto` (with half the time left) the product
    /// decides what it leaves inconclusive and searches where it left
    /// values untried.
    fn explicit_batch(&self, b: &mut Batch, fr: &mut FunctionReport) {
        let open: Vec<usize> = (0..self.f.stages.len())
            .filter(|&j| b.decided[j].is_none())
            .collect();
        let targets: Vec<(&Entry, Allowance)> = open
            .iter()
            .filter_map(|&j| match &self.f.stages[j].target {
                Target::Code(t) => Some((t, self.f.stages[j].allow)),
                Target::Decided(_) => None,
            })
            .collect();
        if targets.is_empty() {
            return;
        }
        let after = b.product && self.auto();
        let budget = if after {
            explicit_share(self.budget, self.deadline)
        } else {
            *self.budget
        };
        let name = &self.f.name;
        let report = |p: &crate::engine::Progress| {
            self.progress.report(&format!(
                "@{name}: {} {}",
                p.phase,
                crate::engine::grouped(p.done)
            ))
        };
        let explicit = Explicit {
            limits: limits(self.job),
            budget,
            progress: &report,
        };
        let c = explicit.batch(self.reference, &targets);
        let gap = gaps(&c.coverage);
        fr.coverage = Some(c.coverage);
        for (&j, o) in open.iter().zip(c.outcomes) {
            let Some(q) = self.query(j, self.deadline) else {
                continue;
            };
            let mut notes = std::mem::take(&mut b.notes[j]);
            let (outcome, method) = if after {
                self.after_explicit(o, &q, gap.as_deref(), &mut notes)
            } else {
                (o, Method::Explicit)
            };
            b.decided[j] = Some(Decided {
                outcome,
                method,
                against: None,
                reference: self.reference.code.module().clone(),
                notes,
            });
        }
    }

    /// Under `auto`, the product after the explicit engine: on a stage it
    /// left inconclusive, and (under a tenth of the time budget) looking
    /// for a counterexample where it left values or group sizes untried;
    /// what the product proves or cannot decide there leaves the explicit
    /// verdict as it is.
    fn after_explicit(
        &self,
        o: Outcome,
        q: &Query,
        gap: Option<&str>,
        notes: &mut Vec<String>,
    ) -> (Outcome, Method) {
        match &o {
            Outcome::Inconclusive(why) => {
                self.progress
                    .report(&format!("@{}: symbolic product", self.f.name));
                match self.product().decide(q) {
                    Answer::Decided(p @ Outcome::Preserved { .. }, m) => {
                        notes.push(format!("{why}: decided by the symbolic product"));
                        (p, m)
                    }
                    Answer::Decided(v, m) => {
                        notes.push(format!("{why}: {FOUND_NOTE}"));
                        (v, m)
                    }
                    Answer::Unknown(w) => (
                        Outcome::Inconclusive(format!(
                            "{why}; the symbolic product: {}",
                            w.why.strip_prefix("smt: ").unwrap_or(&w.why)
                        )),
                        Method::Explicit,
                    ),
                }
            }
            Outcome::Preserved { .. } if gap.is_some() => {
                self.progress
                    .report(&format!("@{}: symbolic product", self.f.name));
                let short = self
                    .deadline
                    .min(Instant::now() + self.budget.timeout.unwrap_or_default() / 10);
                let sq = Query {
                    deadline: short,
                    reference: q.reference,
                    target: q.target,
                    allow: q.allow,
                };
                match self.product().decide(&sq) {
                    Answer::Decided(v @ Outcome::Violated(_), m) => {
                        notes.push(format!(
                            "the explicit engine found none ({}): {FOUND_NOTE}",
                            gap.unwrap_or_default()
                        ));
                        (v, m)
                    }
                    _ => (o, Method::Explicit),
                }
            }
            _ => (o, Method::Explicit),
        }
    }
}

/// The stages of a batch as they are decided.
struct Batch {
    decided: Vec<Option<Decided>>,
    /// Notes on how each stage was decided, before the others.
    notes: Vec<Vec<String>>,
    /// Whether the product may decide stages.
    product: bool,
}

/// The one outcome of a one-stage comparison.
fn first_outcome(outcomes: Vec<Outcome>) -> Outcome {
    outcomes
        .into_iter()
        .next()
        .unwrap_or_else(|| Outcome::Inconclusive("not compared".into()))
}

/// What the explicit engine's coverage left untried, if anything.
fn gaps(c: &Coverage) -> Option<String> {
    let mut g: Vec<String> = Vec::new();
    if !c.inexact.is_empty() {
        g.push(format!(
            "inexact domains of {}",
            c.inexact.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    if !c.capped.is_empty() {
        g.push("group sizes or indices capped".into());
    }
    (!g.is_empty()).then(|| g.join("; "))
}

/// Under `auto`, the explicit engine's share: half of the time left (whole
/// seconds where that still leaves it a quarter), so that the product can
/// still decide what it leaves inconclusive.
fn explicit_share(budget: &Budget, deadline: Instant) -> Budget {
    let left = deadline.saturating_duration_since(Instant::now());
    let elapsed = budget.start.elapsed();
    let exact = elapsed + left / 2;
    let whole = Duration::from_secs(exact.as_secs());
    let half = if whole > elapsed + left / 4 {
        whole
    } else {
        exact
    };
    Budget {
        timeout: Some(half),
        ..*budget
    }
}
