//! One function of `check` on LLVM IR against every stage that has it:
//! the stages that changed it, static rules first, the rest compared with
//! the reference on one stream of scenarios (`crate::engine`).

use super::product::{self, Decision};
use super::{FunctionCheck, Ref, StageModule};
use crate::check::{CheckReport, StageReport};
use crate::config::{CheckConfig, Reference};
use crate::engine::{
    compare_any_hierarchy, compare_stages, Allowance, Budget, Comparison, Coverage, Finding,
    Limits, Outcome as EngineOutcome, Progress, Property, Side,
};
use crate::symbolic::Engine;
use crate::Outcome;
use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Bounds;
use convcheck_ir::Module;
use convcheck_smt::product::Preserved;
use std::time::Instant;

/// The note of a stage whose counterexample the product found.
const FOUND_NOTE: &str =
    "counterexample found by the symbolic product (replayed by the interpreter)";

/// A stage's outcome before the comparison: a static-rule violation or an
/// unmapped function decide it without running anything.
enum Pre {
    Compare,
    Done(EngineOutcome),
}

/// The finding of a stage that breaks a static rule of tokens.
fn static_rule_finding(e: &convcheck_llvm::verify::Violation, file: &str) -> Box<Finding> {
    Box::new(Finding {
        property: Property::Convergence,
        threads: Vec::new(),
        tids: Vec::new(),
        group: 0,
        message: format!(
            "static rule of convergence control tokens broken: {} ({file}, line {})",
            e.message, e.line
        ),
        operation: None,
        reference: Vec::new(),
        target: Vec::new(),
    })
}

/// The first stage that changed function `name` (its body differs from
/// the one before, starting from `reference`) and breaks a static rule of
/// tokens, as a violated stage.
fn first_static_break(
    name: &str,
    reference: Option<&String>,
    stages: &[StageModule],
) -> Option<StageReport> {
    let mut previous = reference.cloned();
    for s in stages {
        if !s.loaded.defined.iter().any(|d| d == name) {
            continue;
        }
        let body = s.loaded.bodies.get(name).cloned();
        if s.only_if_changed && body == previous {
            continue;
        }
        previous = body;
        if let Some(e) = s.loaded.violations.iter().find(|v| v.function == name) {
            return Some(StageReport {
                name: s.name.clone(),
                outcome: EngineOutcome::Violated(static_rule_finding(e, &s.loaded.file)),
                notes: s.notes.clone(),
                target_level: s.level.clone(),
            });
        }
    }
    None
}

/// Checks function `name` against every stage that has it. With `prove`,
/// a stage that the structural rule proves equivalent to an LLVM
/// reference ([`super::structure`]) is `proved` for every iteration count
/// and left out of the bounded comparison.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_function(
    file: &str,
    name: &str,
    reference: &Ref,
    stages: &[StageModule],
    a: &CheckConfig,
    (budget, engine, tty): (&Budget, Engine, bool),
    prove: bool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<FunctionCheck, Outcome> {
    let bounds = Bounds {
        max_iters: a.max_iters,
        fuel: a.fuel,
        max_paths: a.max_paths,
        ..Bounds::default()
    };
    let limits = Limits {
        bounds,
        group: a.threads,
    };
    let empty = || CheckReport {
        file: file.to_string(),
        function: name.to_string(),
        reference: a.reference,
        bounds,
        threads: a.threads,
        stages: Vec::new(),
        reference_module: empty_module(),
        target_module: empty_module(),
        paths: 0,
        coverage: Coverage::default(),
        budget: *budget,
        target_file: None,
    };
    // The reference side.
    let (ref_program, ref_code, ref_entry, ref_body, ref_tokens_ok, reference_kind);
    match reference {
        Ref::Ll(l) => {
            let Some(i) = l.index(name) else {
                let why = l
                    .skipped(name)
                    .unwrap_or_else(|| format!("@{name} is not mapped"));
                let mut r = empty();
                r.reference = Reference::Cfg;
                r.stages.push(StageReport {
                    name: "read the reference".into(),
                    outcome: EngineOutcome::Inconclusive(why),
                    notes: Vec::new(),
                    target_level: "CFG".into(),
                });
                // The static rules of tokens need no semantics: a step that
                // breaks one that the reference keeps is violated even when
                // the reference is outside the model.
                if !l.violations.iter().any(|v| v.function == name) {
                    if let Some(broken) = first_static_break(name, l.bodies.get(name), stages) {
                        r.stages.push(broken);
                    }
                }
                return Ok(FunctionCheck::new(r));
            };
            ref_program = Some(CfgProgram::new(l.mapped.module.clone()));
            ref_code = None;
            ref_entry = i;
            ref_body = l.bodies.get(name).cloned();
            ref_tokens_ok = !l.violations.iter().any(|v| v.function == name);
            if let Some(v) = l.violations.iter().find(|v| v.function == name) {
                let mut r = empty();
                r.reference = Reference::Cfg;
                r.stages.push(StageReport {
                    name: "read the reference".into(),
                    outcome: EngineOutcome::Inconclusive(format!(
                        "the reference breaks a static rule of convergence control tokens, so \
                         it has no semantics to compare with: {} ({}, line {})",
                        v.message, l.file, v.line
                    )),
                    notes: Vec::new(),
                    target_level: "CFG".into(),
                });
                return Ok(FunctionCheck::new(r));
            }
            reference_kind = Reference::Cfg;
        }
        Ref::Source(k) => {
            ref_entry = k.entry(Some(name)).map_err(Outcome::usage)?;
            ref_code = Some(crate::Code::new(k, None)?);
            ref_program = None;
            ref_body = None;
            ref_tokens_ok = true;
            reference_kind = Reference::Source;
        }
    }
    let reference_side = match (&ref_program, &ref_code) {
        (Some(p), _) => Side::cfg(p, ref_entry),
        (None, Some(c)) => Side {
            program: c.program(),
            cfg: None,
            entry: ref_entry,
        },
        (None, None) => return Err(Outcome::usage("no reference")),
    };
    // The stages that have this function (and changed it, for passes).
    let mut kept: Vec<(&StageModule, Pre, Option<String>)> = Vec::new();
    let mut programs: Vec<(CfgProgram, usize, Allowance)> = Vec::new();
    let mut previous = ref_body.clone();
    for s in stages {
        if !s.loaded.defined.iter().any(|d| d == name) {
            continue;
        }
        let body = s.loaded.bodies.get(name).cloned();
        if s.only_if_changed && body == previous {
            continue;
        }
        previous = body;
        // A broken static rule decides the stage first (LLVM gives an
        // invalid module no semantics), even for a function outside the
        // model.
        let broken = s.loaded.violations.iter().find(|v| v.function == name);
        let pre = match (broken, s.loaded.index(name)) {
            (Some(e), _) if ref_tokens_ok => Pre::Done(EngineOutcome::Violated(
                static_rule_finding(e, &s.loaded.file),
            )),
            (_, None) => Pre::Done(EngineOutcome::Inconclusive(
                s.loaded
                    .skipped(name)
                    .unwrap_or_else(|| format!("@{name} is not mapped")),
            )),
            (_, Some(i)) => {
                programs.push((CfgProgram::new(s.loaded.mapped.module.clone()), i, s.allow));
                Pre::Compare
            }
        };
        kept.push((s, pre, None));
    }
    if kept.is_empty() {
        // No step changed the function: compare the last module that has
        // it, so that the report still says what was checked.
        if let Some(s) = stages
            .iter()
            .rev()
            .find(|s| s.loaded.defined.iter().any(|d| d == name))
        {
            if let Some(i) = s.loaded.index(name) {
                programs.push((CfgProgram::new(s.loaded.mapped.module.clone()), i, s.allow));
                let what = if s.only_if_changed {
                    format!("the pipeline (no pass changed @{name})")
                } else {
                    s.name.clone()
                };
                kept.push((s, Pre::Compare, Some(what)));
            }
        }
    }
    // Stages proved for every iteration count (by structure or by a
    // simulation relation) need no bounded comparison. A simulation gets at
    // most a tenth of the time left per stage, and 5 s.
    let sim_time = |left: std::time::Duration| (left / 10).min(std::time::Duration::from_secs(5));
    let proofs: Vec<Option<super::structure::Unbounded>> = programs
        .iter()
        .map(|(p, i, _)| match &ref_program {
            Some(r) if prove => {
                let left = budget
                    .timeout
                    .map(|t| (budget.start + t).saturating_duration_since(Instant::now()))
                    .unwrap_or(crate::engine::DEFAULT_TIMEOUT);
                super::structure::proved(&r.module, ref_entry, &p.module, *i, sim_time(left))
            }
            _ => None,
        })
        .collect();
    // The stages left for a bounded comparison, in order.
    let open: Vec<(&CfgProgram, usize, Allowance)> = programs
        .iter()
        .zip(&proofs)
        .filter(|(_, proof)| proof.is_none())
        .map(|((p, i, allow), _)| (p, *i, *allow))
        .collect();
    let several = ref_program.as_ref().is_some_and(|p| {
        convcheck_ir::cycles::all_hierarchies(&p.module.functions[ref_entry], 2).len() > 1
    });
    // The product needs a CFG reference with one cycle hierarchy.
    let product_ref = ref_program
        .as_ref()
        .filter(|_| !several && engine != Engine::Explicit);
    let deadline = budget
        .timeout
        .map(|t| budget.start + t)
        .unwrap_or_else(|| Instant::now() + crate::engine::DEFAULT_TIMEOUT);
    let mut decided: Vec<Option<EngineOutcome>> = vec![None; open.len()];
    let mut symbolic: Vec<Option<Preserved>> = vec![None; open.len()];
    let mut notes: Vec<Vec<String>> = vec![Vec::new(); open.len()];
    if let (Some(r), Engine::Smt) = (product_ref, engine) {
        for (j, &(p, i, allow)) in open.iter().enumerate() {
            let _ticker = product::ticker(tty, name);
            match product::decide(
                (r, ref_entry),
                (p, i),
                allow,
                a,
                (deadline, budget.solver_memory_mb),
            ) {
                Decision::Preserved(pr) => {
                    decided[j] = Some(EngineOutcome::Preserved { pairs: 0, cut: 0 });
                    symbolic[j] = Some(pr);
                }
                Decision::Violated(f) => {
                    decided[j] = Some(EngineOutcome::Violated(f));
                    notes[j].push(FOUND_NOTE.into());
                }
                Decision::Unknown(why) if crate::symbolic::is_budget(&why) => {
                    decided[j] = Some(EngineOutcome::Inconclusive(format!("smt: {why}")));
                }
                Decision::Unknown(why) => {
                    notes[j].push(format!("smt: {why}: decided by the explicit engine"))
                }
            }
        }
    }
    let sides: Vec<(Side, Allowance)> = open
        .iter()
        .zip(&decided)
        .filter(|(_, d)| d.is_none())
        .map(|(&(p, i, allow), _)| {
            (
                Side {
                    program: p,
                    cfg: None,
                    entry: i,
                },
                allow,
            )
        })
        .collect();
    // Under `auto` the explicit engine has half of the time left, so that
    // the product can still decide what it leaves inconclusive.
    let explicit_budget = match (product_ref, engine) {
        (Some(_), Engine::Auto) => {
            let left = deadline.saturating_duration_since(Instant::now());
            let elapsed = budget.start.elapsed();
            // Whole seconds (the budget's messages print them) where that
            // still gives the explicit engine time.
            let exact = elapsed + left / 2;
            let whole = std::time::Duration::from_secs(exact.as_secs());
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
        _ => *budget,
    };
    let budget = &explicit_budget;
    let explicit_used = !sides.is_empty();
    let comparison = if sides.is_empty() {
        Comparison {
            outcomes: Vec::new(),
            coverage: Coverage::default(),
        }
    } else if several {
        let mut c = compare_stages(&reference_side, &sides[..1], limits, budget, progress);
        c.outcomes = sides
            .iter()
            .map(|(t, allow)| {
                compare_any_hierarchy(&reference_side, t, *allow, limits, HIERARCHY_CAP)
            })
            .collect();
        c
    } else {
        compare_stages(&reference_side, &sides, limits, budget, progress)
    };
    // What the explicit engine's coverage left untried, if anything.
    let gaps = {
        let c = &comparison.coverage;
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
    };
    let mut explicit = comparison.outcomes.into_iter();
    let mut merged: Vec<EngineOutcome> = Vec::new();
    for (j, d) in decided.into_iter().enumerate() {
        let mut o = d.unwrap_or_else(|| {
            explicit
                .next()
                .unwrap_or_else(|| EngineOutcome::Inconclusive("not compared".into()))
        });
        if let (Some(r), Engine::Auto, EngineOutcome::Inconclusive(why)) = (product_ref, engine, &o)
        {
            let (p, i, allow) = open[j];
            let _ticker = product::ticker(tty, name);
            o = match product::decide(
                (r, ref_entry),
                (p, i),
                allow,
                a,
                (deadline, budget.solver_memory_mb),
            ) {
                Decision::Preserved(pr) => {
                    notes[j].push(format!("{why}: decided by the symbolic product"));
                    symbolic[j] = Some(pr);
                    EngineOutcome::Preserved { pairs: 0, cut: 0 }
                }
                Decision::Violated(f) => {
                    notes[j].push(format!("{why}: {FOUND_NOTE}"));
                    EngineOutcome::Violated(f)
                }
                Decision::Unknown(w) => {
                    EngineOutcome::Inconclusive(format!("{why}; the symbolic product: {w}"))
                }
            };
        } else if let (Some(r), Engine::Auto, EngineOutcome::Preserved { .. }, Some(gap)) =
            (product_ref, engine, &o, &gaps)
        {
            // The explicit engine left values or group sizes untried (its
            // report lists them): the product, which tries every value and
            // group size, looks for a counterexample there, under a tenth
            // of the time budget; what it proves or cannot decide leaves
            // the explicit verdict as it is.
            let (p, i, allow) = open[j];
            let _ticker = product::ticker(tty, name);
            let short = deadline.min(Instant::now() + budget.timeout.unwrap_or_default() / 10);
            if let Decision::Violated(f) = product::decide(
                (r, ref_entry),
                (p, i),
                allow,
                a,
                (short, budget.solver_memory_mb),
            ) {
                notes[j].push(format!(
                    "the explicit engine found none ({gap}): {FOUND_NOTE}"
                ));
                o = EngineOutcome::Violated(f);
            }
        }
        merged.push(o);
    }
    let mut outcomes = merged.into_iter();
    let mut symbolic = symbolic.into_iter();
    let mut side_notes = notes.into_iter();
    let mut report = empty();
    report.reference = reference_kind;
    report.reference_module = reference_side.module().clone();
    report.paths = comparison.coverage.paths;
    report.coverage = comparison.coverage;
    let mut modules: Vec<Module> = Vec::new();
    let mut proved = Vec::new();
    let mut by_product = Vec::new();
    let mut proof_of = proofs.into_iter();
    for (s, pre, renamed) in kept {
        let mut extra = Vec::new();
        let mut product_proof = None;
        let (outcome, proof) = match pre {
            Pre::Done(o) => (o, None),
            Pre::Compare => match proof_of.next().flatten() {
                Some(proof) => (EngineOutcome::Preserved { pairs: 0, cut: 0 }, Some(proof)),
                None => {
                    product_proof = symbolic.next().flatten();
                    extra = side_notes.next().unwrap_or_default();
                    (
                        outcomes
                            .next()
                            .unwrap_or_else(|| EngineOutcome::Inconclusive("not compared".into())),
                        None,
                    )
                }
            },
        };
        proved.push(proof);
        by_product.push(product_proof);
        modules.push(s.loaded.mapped.module.clone());
        let mut notes = if renamed.is_some() {
            Vec::new()
        } else {
            s.notes.clone()
        };
        notes.splice(0..0, extra);
        report.stages.push(StageReport {
            name: renamed.unwrap_or_else(|| s.name.clone()),
            outcome,
            notes,
            target_level: s.level.clone(),
        });
    }
    // The target tables are built from the module of the stage they show.
    let shown = report.first_broken().map(|(i, _)| i);
    if let Some(m) = shown.and_then(|i| modules.get(i)).or(modules.last()) {
        report.target_module = m.clone();
    }
    Ok(FunctionCheck {
        report,
        proved,
        by_product,
        explicit_used,
        modules,
    })
}

fn empty_module() -> Module {
    Module {
        name: String::new(),
        ops: Vec::new(),
        oracles: Vec::new(),
        functions: Vec::new(),
    }
}
