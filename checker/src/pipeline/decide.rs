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
//! (max-iters 1, 100 ms) runs first, then the product; a product
//! counterexample is replaced by the explicit engine's smallest one when
//! that is found within two seconds, and a stage the product does not
//! model goes to the explicit engine. The first stage at the source level
//! without a stand-in is the explicit engine's, with half the time budget.
//!
//! **Batch** ([`Policy::Batch`], LLVM IR, and every input under
//! `explicit`): the structural proof first (LLVM IR); then, under `smt`,
//! the product on each open stage; the explicit engine on every stage
//! still open, on one stream of scenarios (half the time left under
//! `auto`, so that the product can still decide what it leaves
//! inconclusive); under `auto`, the product on each stage the explicit
//! engine left inconclusive, and a short counterexample search by the
//! product (a tenth of the budget) on each stage it preserved while
//! listing untried values or capped group sizes.

use super::{empty_report, Entry, FunctionPlan, Policy, Progress, StagePlan, Target};
use crate::config::{CheckJob, Engine as EngineChoice, Reference};
use crate::engine::{Allowance, Budget, Coverage, Limits, Outcome, DEFAULT_TIMEOUT};
use crate::engines::search::{QUICK, REFINE};
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
    match policy {
        Policy::Staged => staged(&mut fr, f, reference, job, engine, budget, progress),
        Policy::Batch { prove } => {
            batch(&mut fr, f, reference, job, engine, budget, prove, progress)
        }
    }
    fr
}

/// The product engine of a job.
fn product(job: &CheckJob, budget: &Budget) -> Product {
    Product {
        max_iters: job.max_iters,
        threads: job.threads,
        memory_mb: budget.solver_memory_mb,
    }
}

#[allow(clippy::too_many_arguments)]
fn staged(
    fr: &mut FunctionReport,
    f: &FunctionPlan,
    reference: &Entry,
    job: &CheckJob,
    engine: EngineChoice,
    budget: &Budget,
    progress: &dyn Progress,
) {
    let config = job.config();
    let timeout = budget.timeout.unwrap_or(DEFAULT_TIMEOUT);
    let deadline = budget.start + timeout;
    let auto = engine == EngineChoice::Auto;
    let at_source = f.reference_kind == Reference::Source;
    let quick = QuickSearch {
        config: &config,
        budget: *budget,
        plan: &QUICK,
    };
    let refine = QuickSearch {
        config: &config,
        budget: *budget,
        plan: &REFINE,
    };
    let product = product(job, budget);
    let silent = |_: &crate::engine::Progress| {};
    // What the later stages are compared with: the reference CFG, or the
    // first stage's CFG at the source level.
    let mut base: Option<Entry> = reference.code.cfg().map(|_| reference.clone());
    let count = f.stages.len();
    for (i, s) in f.stages.iter().enumerate() {
        progress.report(&format!("stage {} of {count} ({})", i + 1, s.name));
        let target = match &s.target {
            Target::Code(e) => e,
            Target::Decided(o) => {
                fr.stages.push(stage_of(
                    s,
                    Decided {
                        outcome: o.clone(),
                        method: Method::Static,
                        against: None,
                        reference: reference.code.module().clone(),
                        notes: Vec::new(),
                    },
                ));
                continue;
            }
        };
        let d = if i == 0 && at_source {
            first_at_source(
                f,
                reference,
                target,
                s.allow,
                auto,
                budget,
                deadline,
                timeout,
                (&quick, &refine, &product),
                fr,
            )
        } else {
            let Some(b) = base.clone() else {
                continue;
            };
            let q = Query {
                reference: &b,
                target,
                allow: s.allow,
                deadline,
            };
            let against = at_source.then_some(BASE);
            let module = b.code.module().clone();
            let found = if auto {
                match quick.decide(&q) {
                    Answer::Decided(o, m) => Some((o, m)),
                    Answer::Unknown { .. } => None,
                }
            } else {
                None
            };
            match found {
                Some((outcome, method)) => Decided {
                    outcome,
                    method,
                    against,
                    reference: module,
                    notes: vec![QUICK_NOTE.into()],
                },
                None => {
                    let mut notes = Vec::new();
                    let (mut outcome, mut method) = match product.decide(&q) {
                        Answer::Decided(o, m) => (o, m),
                        Answer::Unknown { why, budget: true } => {
                            (Outcome::Inconclusive(why), Method::Static)
                        }
                        Answer::Unknown { why, budget: false } if auto => {
                            // Not modelled by the product: the explicit
                            // engine with the time left.
                            let rest = Budget {
                                timeout: Some(deadline.saturating_duration_since(Instant::now())),
                                ..*budget
                            };
                            let explicit = Explicit {
                                limits: limits(job),
                                budget: rest,
                                progress: &silent,
                            };
                            let c = explicit.batch(&b, &[(target, s.allow)]);
                            if fr.coverage.is_none() {
                                fr.coverage = Some(c.coverage);
                            }
                            notes.push(format!("{why}: decided by the explicit engine"));
                            let o =
                                c.outcomes.into_iter().next().unwrap_or_else(|| {
                                    Outcome::Inconclusive("not compared".into())
                                });
                            (o, Method::Explicit)
                        }
                        Answer::Unknown { why, .. } => (Outcome::Inconclusive(why), Method::Static),
                    };
                    if auto
                        && matches!(outcome, Outcome::Violated(_))
                        && !matches!(method, Method::Explicit)
                    {
                        if let Answer::Decided(o, _) = refine.decide(&q) {
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
        };
        fr.stages.push(stage_of(s, d));
        if i == 0 && at_source {
            base = Some(target.clone()).filter(|t| t.code.cfg().is_some());
        }
    }
}

/// The first stage of a check at the source level under the staged policy.
#[allow(clippy::too_many_arguments)]
fn first_at_source(
    f: &FunctionPlan,
    reference: &Entry,
    target: &Entry,
    allow: Allowance,
    auto: bool,
    budget: &Budget,
    deadline: Instant,
    timeout: Duration,
    (quick, refine, product): (&QuickSearch, &QuickSearch, &Product),
    fr: &mut FunctionReport,
) -> Decided {
    let source_module = reference.code.module().clone();
    let q = Query {
        reference,
        target,
        allow,
        deadline,
    };
    if auto {
        if let Answer::Decided(outcome, method) = quick.decide(&q) {
            return Decided {
                outcome,
                method,
                against: None,
                reference: source_module,
                notes: vec![QUICK_NOTE.into()],
            };
        }
    }
    if let (Some(stand_in), Some(_)) = (&f.stand_in, target.code.cfg()) {
        let sq = Query {
            reference: stand_in,
            target,
            allow,
            deadline: budget.start + timeout / 2,
        };
        if let Answer::Decided(outcome, method) = product.decide(&sq) {
            if auto && matches!(outcome, Outcome::Violated(_)) {
                if let Answer::Decided(o, _) = refine.decide(&q) {
                    return Decided {
                        outcome: o,
                        method: Method::QuickSearch,
                        against: None,
                        reference: source_module,
                        notes: vec![STAND_IN_NOTE.into()],
                    };
                }
            }
            return Decided {
                outcome,
                method,
                against: Some(STAND_IN),
                reference: stand_in.code.module().clone(),
                notes: vec![STAND_IN_NOTE.into()],
            };
        }
    }
    // The explicit engine, with half the time budget: the later stages
    // need the rest.
    let half = Budget {
        timeout: Some(timeout / 2),
        ..*budget
    };
    let silent = |_: &crate::engine::Progress| {};
    let explicit = Explicit {
        limits: Limits {
            bounds: fr.bounds,
            group: fr.threads,
        },
        budget: half,
        progress: &silent,
    };
    let c = explicit.batch(reference, &[(target, allow)]);
    fr.coverage = Some(c.coverage);
    Decided {
        outcome: c
            .outcomes
            .into_iter()
            .next()
            .unwrap_or_else(|| Outcome::Inconclusive("not compared".into())),
        method: Method::Explicit,
        against: None,
        reference: source_module,
        notes: Vec::new(),
    }
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

#[allow(clippy::too_many_arguments)]
fn batch(
    fr: &mut FunctionReport,
    f: &FunctionPlan,
    reference: &Entry,
    job: &CheckJob,
    engine: EngineChoice,
    budget: &Budget,
    prove: bool,
    progress: &dyn Progress,
) {
    let name = &f.name;
    let module = reference.code.module().clone();
    // The product needs a CFG reference with one cycle hierarchy.
    let several = reference.code.cfg().is_some_and(|p| {
        convcheck_ir::cycles::all_hierarchies(&p.module.functions[reference.func], 2).len() > 1
    });
    let use_product =
        reference.code.cfg().is_some() && !several && engine != EngineChoice::Explicit;
    let deadline = budget
        .timeout
        .map(|t| budget.start + t)
        .unwrap_or_else(|| Instant::now() + DEFAULT_TIMEOUT);
    let product = product(job, budget);
    let mut decided: Vec<Option<Decided>> = Vec::new();
    for s in &f.stages {
        let d = match &s.target {
            Target::Decided(o) => Some(Decided {
                outcome: o.clone(),
                method: Method::Static,
                against: None,
                reference: module.clone(),
                notes: Vec::new(),
            }),
            Target::Code(t) if prove => {
                let q = Query {
                    reference,
                    target: t,
                    allow: s.allow,
                    deadline,
                };
                match Structure.decide(&q) {
                    Answer::Decided(outcome, method) => Some(Decided {
                        outcome,
                        method,
                        against: None,
                        reference: module.clone(),
                        notes: Vec::new(),
                    }),
                    Answer::Unknown { .. } => None,
                }
            }
            Target::Code(_) => None,
        };
        decided.push(d);
    }
    let mut notes: Vec<Vec<String>> = vec![Vec::new(); f.stages.len()];
    let query = |j: usize, deadline: Instant| -> Option<(Query, &StagePlan)> {
        let s = &f.stages[j];
        match &s.target {
            Target::Code(t) => Some((
                Query {
                    reference,
                    target: t,
                    allow: s.allow,
                    deadline,
                },
                s,
            )),
            Target::Decided(_) => None,
        }
    };
    if use_product && engine == EngineChoice::Smt {
        for j in 0..f.stages.len() {
            if decided[j].is_some() {
                continue;
            }
            let Some((q, _)) = query(j, deadline) else {
                continue;
            };
            progress.report(&format!("@{name}: symbolic product"));
            match product.decide(&q) {
                Answer::Decided(outcome, method) => {
                    let mut n = Vec::new();
                    if matches!(outcome, Outcome::Violated(_)) {
                        n.push(FOUND_NOTE.to_string());
                    }
                    decided[j] = Some(Decided {
                        outcome,
                        method,
                        against: None,
                        reference: module.clone(),
                        notes: n,
                    });
                }
                Answer::Unknown { why, budget: true } => {
                    decided[j] = Some(Decided {
                        outcome: Outcome::Inconclusive(why),
                        method: Method::Static,
                        against: None,
                        reference: module.clone(),
                        notes: Vec::new(),
                    });
                }
                Answer::Unknown { why, .. } => {
                    notes[j].push(format!("{why}: decided by the explicit engine"));
                }
            }
        }
    }
    // The explicit engine on the stages still open.
    let open: Vec<usize> = (0..f.stages.len())
        .filter(|&j| decided[j].is_none())
        .collect();
    let explicit_budget = if use_product && engine == EngineChoice::Auto {
        explicit_share(budget, deadline)
    } else {
        *budget
    };
    let report_progress = |p: &crate::engine::Progress| {
        progress.report(&format!(
            "@{name}: {} {}",
            p.phase,
            crate::engine::grouped(p.done)
        ))
    };
    let explicit = Explicit {
        limits: limits(job),
        budget: explicit_budget,
        progress: &report_progress,
    };
    let targets: Vec<(&Entry, Allowance)> = open
        .iter()
        .filter_map(|&j| match &f.stages[j].target {
            Target::Code(t) => Some((t, f.stages[j].allow)),
            Target::Decided(_) => None,
        })
        .collect();
    if !targets.is_empty() {
        let c = explicit.batch(reference, &targets);
        let gap = gaps(&c.coverage);
        fr.coverage = Some(c.coverage);
        for (&j, o) in open.iter().zip(c.outcomes) {
            let Some((q, _)) = query(j, deadline) else {
                continue;
            };
            let mut n = std::mem::take(&mut notes[j]);
            let (outcome, method) = match (&o, use_product && engine == EngineChoice::Auto) {
                (Outcome::Inconclusive(why), true) => {
                    progress.report(&format!("@{name}: symbolic product"));
                    match product.decide(&q) {
                        Answer::Decided(p @ Outcome::Preserved { .. }, m) => {
                            n.push(format!("{why}: decided by the symbolic product"));
                            (p, m)
                        }
                        Answer::Decided(v, m) => {
                            n.push(format!("{why}: {FOUND_NOTE}"));
                            (v, m)
                        }
                        Answer::Unknown { why: w, .. } => (
                            Outcome::Inconclusive(format!(
                                "{why}; the symbolic product: {}",
                                w.strip_prefix("smt: ").unwrap_or(&w)
                            )),
                            Method::Explicit,
                        ),
                    }
                }
                (Outcome::Preserved { .. }, true) if gap.is_some() => {
                    // The explicit engine left values or group sizes
                    // untried (its report lists them): the product, which
                    // tries every value and group size, looks for a
                    // counterexample there under a tenth of the time
                    // budget; what it proves or cannot decide leaves the
                    // explicit verdict as it is.
                    progress.report(&format!("@{name}: symbolic product"));
                    let short =
                        deadline.min(Instant::now() + budget.timeout.unwrap_or_default() / 10);
                    let sq = Query {
                        deadline: short,
                        ..q
                    };
                    match product.decide(&sq) {
                        Answer::Decided(v @ Outcome::Violated(_), m) => {
                            n.push(format!(
                                "the explicit engine found none ({}): {FOUND_NOTE}",
                                gap.as_deref().unwrap_or_default()
                            ));
                            (v, m)
                        }
                        _ => (o, Method::Explicit),
                    }
                }
                _ => (o, Method::Explicit),
            };
            decided[j] = Some(Decided {
                outcome,
                method,
                against: None,
                reference: module.clone(),
                notes: n,
            });
        }
    }
    for (j, s) in f.stages.iter().enumerate() {
        let mut d = decided[j].take().unwrap_or_else(|| Decided {
            outcome: Outcome::Inconclusive("not compared".into()),
            method: Method::Static,
            against: None,
            reference: module.clone(),
            notes: Vec::new(),
        });
        let mut n = std::mem::take(&mut notes[j]);
        n.append(&mut d.notes);
        d.notes = n;
        fr.stages.push(stage_of(s, d));
    }
}
