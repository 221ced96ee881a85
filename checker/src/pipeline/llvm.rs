//! The input adapter of LLVM IR (DESIGN.md 2.9 and section 4): `.ll`
//! files, real `opt` pipelines and the clang front end.
//!
//! - **Inputs.** A `.ll` file is read by `convcheck-llvm` and mapped to the
//!   IR; a function outside the model (floating point, vectors, indirect
//!   calls, ...) is checked as `inconclusive` with the construct named,
//!   never guessed. With `--frontend clang` a `.c`, `.cu` or `.cl` file is
//!   compiled by clang first ([`crate::llvm::frontend`]). A kernel-language
//!   file without `--frontend` is lowered by convcheck and written as LLVM
//!   IR, so `--opt` applies to it too.
//! - **Reference.** A `.ll` file's own CFG semantics (maximal convergence,
//!   or tokens where present), as LLVM's rules ask of a pass. With a
//!   kernel-language source and `--reference source` (the default), the
//!   source-level semantics of seed 000, and the lowering (convcheck's or
//!   clang's) is the first stage.
//! - **Targets.** `check A.ll B.ll` compares every function defined in both
//!   (as `alive-tv` does; `--function` for one). `--opt PIPELINE` runs `opt
//!   -passes=PIPELINE -print-changed=quiet -print-module-scope
//!   -opt-bisect-limit=-1` once ([`crate::llvm::dumps`]): every pass that
//!   changed a function is a stage of that function's check, so the first
//!   violated stage names the pass that broke the property, with its
//!   `-opt-bisect-limit` number to reproduce it.
//! - **Static rules.** A stage whose function breaks a static rule of
//!   convergence-control tokens that the reference keeps is violated, with
//!   the rule in the words of LLVM's verifier (`convcheck_ir::tokens`); its
//!   dynamic semantics is not compared (LLVM gives invalid IR none).

mod frontend;
mod opt;
mod start;
mod weak;

use super::{Code, Entry, FunctionPlan, Plan, Policy, Settings, StagePlan, Target};
use crate::config::{CheckJob, Reference};
use crate::engine::{Allowance, Finding, Outcome, Property};
use crate::error::{Error, Result};
use crate::llvm::{is_ll, Loaded};
use crate::report::{LlvmOrigin, Method, Replay, Reproduce, Stage};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::observe;
use convcheck_lang::sema::Kernel;
use opt::opt_stages;
pub use opt::pipeline;
use start::{load_source, lowered_ll, Start};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Duration;

/// The reference of a check.
enum Ref {
    /// An LLVM module's own CFG semantics.
    Ll(Box<Loaded>),
    /// A kernel's source-level semantics.
    Source(Box<Kernel>),
}

/// One target: a whole module after a step (a file, the lowering, a pass).
struct StageModule {
    name: String,
    loaded: Loaded,
    notes: Vec<String>,
    level: String,
    /// Whether the stage is kept for a function only when it changed it.
    only_if_changed: bool,
    /// What the stage may change (barriers, for a pass whose contract
    /// removes them).
    allow: Allowance,
    /// How the stage is reproduced on its own.
    reproduce: Option<Reproduce>,
}

/// The plan of a check through LLVM IR (see the module documentation).
pub fn plan(a: &CheckJob, settings: &Settings) -> Result<Plan> {
    let o = &settings.llvm;
    if a.tgt.is_none() && o.opt.is_none() && a.passes.is_empty() && o.frontend.is_none() {
        return Err(super::nothing_to_check(format!(
            "give a target file (`check {} B.ll`) or a pipeline (`--opt PIPELINE`)",
            a.src
        )));
    }
    if !a.passes.is_empty() {
        return Err(Error::usage(
            "--pass runs convcheck's own passes on kernel-language files; on LLVM IR use --opt \
             PIPELINE (a real opt pipeline)",
        ));
    }
    let timeout = Duration::from_secs(o.tool_timeout.max(1));
    let Start {
        reference,
        mut stages,
        mut last,
        mut notes,
        clang,
    } = load_source(a, o)?;
    // Against the source level, every module reads external calls as the
    // kernel language does: oracles without effects
    // (`LlvmOptions::calls_as_oracles`).
    let as_oracles;
    let o = if matches!(reference, Ref::Source(_)) {
        as_oracles = crate::llvm::LlvmOptions {
            calls_as_oracles: true,
            ..o.clone()
        };
        &as_oracles
    } else {
        o
    };
    if let Some(most) = last.mapped.module.max_group {
        if a.threads > most {
            return Err(Error::usage(format!(
                "--threads {}: {} has at most {most} threads in a group on its target \
                 (NVPTX and AMDGPU: 1024, or the kernel's amdgpu-flat-work-group-size); a \
                 larger group is no launch a GPU runs",
                a.threads, last.file
            )));
        }
    }
    let mut tool_times = super::ToolTimes {
        clang,
        ..Default::default()
    };
    let mut origin = LlvmOrigin {
        src: a.src.clone(),
        tgt: a.tgt.clone(),
        tokens: a.tokens,
        pipeline: None,
        front_end: notes
            .iter()
            .find_map(|n| n.strip_prefix("front end: "))
            .map(str::to_string),
        launch: crate::llvm::launch::flags(&o.gpu),
        clang_flags: if o.frontend.is_some() {
            let mut f = vec!["--frontend".to_string(), "clang".to_string()];
            f.extend(o.clang_flags());
            f
        } else {
            Vec::new()
        },
    };
    if let Some(t) = &a.tgt {
        let loaded = if is_ll(t) {
            crate::llvm::load_ll_with(t, &o.map_options())?
        } else {
            lowered_ll(&super::kernel::load_kernel(t)?, a.tokens)?
        };
        stages.push(StageModule {
            name: t.clone(),
            loaded: loaded.clone(),
            notes: Vec::new(),
            level: t.clone(),
            only_if_changed: false,
            allow: Allowance::Exact,
            reproduce: None,
        });
        last = loaded;
    }
    if stages.is_empty() && o.opt.is_none() {
        // `check F.c --frontend clang` whose reference fell back to clang's
        // own output: there is nothing to compare that output with.
        let why: Vec<String> = notes
            .iter()
            .filter(|n| frontend::is_fallback(n))
            .cloned()
            .collect();
        let why = if why.is_empty() {
            "the reference is clang's own output at the CFG level".to_string()
        } else {
            why.join("; ")
        };
        return Err(super::nothing_to_check(format!(
            "{why}; with no pipeline (`--opt PIPELINE`) or target file there is nothing to \
             compare it with"
        )));
    }
    let mut final_module = last.clone();
    // opt's message when it stopped before the end of the pipeline.
    let mut stopped: Option<String> = None;
    notes.extend(crate::llvm::launch::describe(&o.gpu));
    if let Some(p) = &o.opt {
        let p = &pipeline(p);
        let started = std::time::Instant::now();
        let ran = opt_stages(&last, p, o, timeout);
        tool_times.opt = started.elapsed();
        let (passes, output, shown, why) = ran?;
        stopped = why;
        notes.push(format!("pipeline: {shown}"));
        origin.pipeline = Some(shown);
        if passes.is_empty() {
            stages.push(StageModule {
                name: format!("opt -passes={p}"),
                loaded: output.clone(),
                notes: vec!["no pass changed the module".into()],
                level: "after opt".into(),
                only_if_changed: false,
                allow: Allowance::Exact,
                reproduce: None,
            });
        }
        stages.extend(passes);
        final_module = output;
    }
    let (names, not_compared) = names_to_check(a, &reference, &final_module, &mut notes)?;
    let no_memory = no_memory_labels(&reference, &stages);
    let programs = programs(&stages, &no_memory);
    let spurious = match &reference {
        Ref::Ll(l) => weak::Spurious::of(
            &l.mapped.module,
            stages.iter().map(|s| &s.loaded.mapped.module),
        ),
        Ref::Source(_) => weak::Spurious::default(),
    };
    notes.extend(spurious.notes());
    let reference_code = reference_code(&reference, &no_memory, &spurious)?;
    let mut functions = names
        .iter()
        .map(|name| function(name, &reference, &reference_code, &stages, &programs))
        .collect::<Result<Vec<_>>>()?;
    spurious.settle(&mut functions);
    if let Some(why) = &stopped {
        for f in functions.iter_mut().filter(|f| f.reference.is_ok()) {
            f.stages.push(not_finished(why, &final_module));
        }
    }
    Ok(Plan {
        file: a.src.clone(),
        target_file: a.tgt.clone(),
        functions,
        not_compared,
        replay: Replay::Llvm(origin),
        notes,
        policy: Policy::Batch {
            prove: true,
            search_only: false,
        },
        tool_times,
    })
}

/// The last stage of a check whose opt pipeline did not finish: opt
/// stopped (a pass it refused to run, its verifier on a broken module)
/// after printing the modules before, so what the pipeline would have
/// done after them is not checked, and the check cannot say `preserved`
/// of the pipeline (a violation at an earlier stage still decides it).
fn not_finished(why: &str, last: &Loaded) -> StagePlan {
    StagePlan {
        name: "the rest of the pipeline".into(),
        notes: Vec::new(),
        level: "after opt".into(),
        target: Target::Decided(Outcome::Inconclusive(format!(
            "opt stopped before the end of the pipeline ({why}): what it would have done after \
             the last module it printed is not checked"
        ))),
        allow: Allowance::Exact,
        reproduce: None,
        module: last.mapped.module.clone(),
        ceiling: None,
        interprocedural: None,
    }
}

/// The functions to check (defined in the reference and in the final
/// module, as alive-tv does, or the one named) and those defined on one
/// side only.
fn names_to_check(
    a: &CheckJob,
    reference: &Ref,
    final_module: &Loaded,
    notes: &mut Vec<String>,
) -> Result<(Vec<String>, Vec<String>)> {
    let ref_names: Vec<String> = match reference {
        Ref::Ll(l) => l.defined.clone(),
        Ref::Source(k) => k.functions.iter().map(|f| f.name.clone()).collect(),
    };
    let in_final = |n: &String| final_module.defined.contains(n);
    let names: Vec<String> = match &a.function {
        Some(wanted) => {
            // A plain or a mangled name, whichever the file has.
            let (f, how) = crate::llvm::names::resolve(&ref_names, wanted)
                .map_err(|e| Error::usage(format!("--function {wanted}: {}: {e}", a.src)))?;
            notes.extend(how);
            let f = &f;
            if !in_final(f) {
                return Err(Error::usage(format!(
                    "--function {f}: @{f} is not defined in the target ({})",
                    final_module.file
                )));
            }
            vec![f.clone()]
        }
        None => ref_names.iter().filter(|n| in_final(n)).cloned().collect(),
    };
    let not_compared: Vec<String> = ref_names
        .iter()
        .filter(|n| !in_final(n))
        .chain(
            final_module
                .defined
                .iter()
                .filter(|n| !ref_names.contains(n)),
        )
        .cloned()
        .collect();
    if names.is_empty() {
        return Err(Error::usage(format!(
            "no function is defined in both {} and {}",
            a.src, final_module.file
        )));
    }
    Ok((names, not_compared))
}

/// The labels of the convergent operations that every module of the
/// check marks as accessing no memory (`convcheck_ir::exec::observe::
/// memory_none_everywhere`: the modules must agree on them).
/// None against a kernel's source level, whose operations all may access
/// memory.
fn no_memory_labels(reference: &Ref, stages: &[StageModule]) -> BTreeSet<String> {
    match reference {
        Ref::Ll(l) => observe::memory_none_everywhere(
            std::iter::once(&l.mapped.module).chain(stages.iter().map(|s| &s.loaded.mapped.module)),
        ),
        Ref::Source(_) => BTreeSet::new(),
    }
}

/// `m` with only the `no_memory` labels marked as accessing no memory.
fn agreed(m: &convcheck_ir::Module, no_memory: &BTreeSet<String>) -> convcheck_ir::Module {
    let mut m = m.clone();
    observe::keep_memory_none(&mut m, no_memory);
    m
}

/// Each stage module's code, shared by its functions.
fn programs(stages: &[StageModule], no_memory: &BTreeSet<String>) -> Vec<Rc<Code>> {
    stages
        .iter()
        .map(|s| {
            Rc::new(Code::Cfg(CfgProgram::new(agreed(
                &s.loaded.mapped.module,
                no_memory,
            ))))
        })
        .collect()
}

/// The reference's code: the LLVM module's CFG program (its weak
/// `cmpxchg`s made strong where every stage made them so, [`weak`]), or the
/// kernel's source level.
fn reference_code(
    reference: &Ref,
    no_memory: &BTreeSet<String>,
    spurious: &weak::Spurious,
) -> Result<Rc<Code>> {
    Ok(Rc::new(match reference {
        Ref::Ll(l) => {
            let mut m = agreed(&l.mapped.module, no_memory);
            spurious.fix(&mut m);
            Code::Cfg(CfgProgram::new(m))
        }
        Ref::Source(k) => super::kernel::source_code(k)?,
    }))
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

/// A stage decided before any comparison (the reference outside the model
/// or breaking a static rule).
fn decided_stage(name: &str, outcome: Outcome, notes: Vec<String>, level: &str) -> Stage {
    let empty = convcheck_ir::Module {
        name: String::new(),
        max_group: None,
        ops: Vec::new(),
        oracles: Vec::new(),
        functions: Vec::new(),
    };
    Stage {
        name: name.to_string(),
        notes,
        level: level.to_string(),
        outcome,
        method: Method::Static,
        against: None,
        reference_module: empty.clone(),
        target_module: empty,
        reproduce: None,
        simulation: None,
    }
}

/// The stages of function `name`: those that have it and changed it, a
/// static rule broken or the function unmapped deciding a stage before
/// any comparison.
fn function(
    name: &str,
    reference: &Ref,
    reference_code: &Rc<Code>,
    stages: &[StageModule],
    programs: &[Rc<Code>],
) -> Result<FunctionPlan> {
    let mut plan = FunctionPlan {
        name: name.to_string(),
        reference_kind: Reference::Cfg,
        reference: Err(String::new()),
        stages: Vec::new(),
        stand_in: None,
        decided: Vec::new(),
        target_stand_in: None,
    };
    let (ref_entry, ref_body) = match reference {
        Ref::Ll(l) => match reference_entry(name, l, stages) {
            Ok(found) => found,
            Err((why, decided)) => {
                plan.decided = decided;
                plan.reference = Err(why);
                return Ok(plan);
            }
        },
        Ref::Source(k) => {
            plan.reference_kind = Reference::Source;
            (k.entry(Some(name)).map_err(Error::usage)?, None)
        }
    };
    plan.reference = Ok(Entry {
        code: reference_code.clone(),
        func: ref_entry,
    });
    let mut previous = ref_body;
    for (s, code) in stages.iter().zip(programs) {
        if !s.loaded.defined.iter().any(|d| d == name) {
            continue;
        }
        let body = s.loaded.bodies.get(name).cloned();
        if s.only_if_changed && body == previous {
            continue;
        }
        previous = body;
        let mut stage = stage_plan(s, stage_target(name, s, code), None);
        if let Ref::Ll(l) = reference {
            stage.ceiling = match (l.orderings.get(name), s.loaded.orderings.get(name)) {
                (Some(r), Some(t)) => t.weakened_from(r),
                _ => None,
            };
            let local = |l: &Loaded| l.callers_only.iter().any(|n| n == name);
            if local(l) && local(&s.loaded) {
                stage.interprocedural = Some(format!(
                    "interprocedural: @{name} has local linkage and is only called directly, so \
                     its callers constrain its arguments; checked alone its arguments are free, \
                     and a pass that uses what every caller passes (IPSCCP, dead argument \
                     elimination, argument promotion, specialization) would seem wrong. Its \
                     callers' checks judge it (docs/src/llvm.md, \"Interprocedural passes\")"
                ));
            }
        }
        plan.stages.push(stage);
    }
    if plan.stages.is_empty() {
        plan.stages.extend(unchanged(name, stages, programs));
    }
    Ok(plan)
}

/// Function `name` of an LLVM reference and its body as written, or why
/// it has no semantics to compare with and the stages that says so (the
/// static rules of tokens need no semantics: a step that breaks one that
/// the reference keeps is violated even when the reference is outside the
/// model).
#[allow(clippy::type_complexity)]
fn reference_entry(
    name: &str,
    l: &Loaded,
    stages: &[StageModule],
) -> std::result::Result<(usize, Option<String>), (String, Vec<Stage>)> {
    let read = |why: &str| {
        decided_stage(
            "read the reference",
            Outcome::Inconclusive(why.to_string()),
            Vec::new(),
            "CFG",
        )
    };
    let broken = l.violations.iter().find(|v| v.function == name);
    let Some(i) = l.index(name) else {
        let why = l
            .skipped(name)
            .unwrap_or_else(|| format!("@{name} is not mapped"));
        let mut decided = vec![read(&why)];
        if broken.is_none() {
            decided.extend(first_static_break(name, l.bodies.get(name), stages));
        }
        return Err((why, decided));
    };
    if let Some(v) = broken {
        let why = format!(
            "the reference breaks a static rule of convergence control tokens, so it has no \
             semantics to compare with: {} ({}, line {})",
            v.message, l.file, v.line
        );
        return Err((why.clone(), vec![read(&why)]));
    }
    Ok((i, l.bodies.get(name).cloned()))
}

/// What stage module `s` compares of function `name`: a broken static rule
/// decides the stage first (LLVM gives an invalid module no semantics),
/// even for a function outside the model; an unmapped function is
/// inconclusive; else the function's code.
fn stage_target(name: &str, s: &StageModule, code: &Rc<Code>) -> Target {
    let broken = s.loaded.violations.iter().find(|v| v.function == name);
    match (broken, s.loaded.index(name)) {
        (Some(e), _) => Target::Decided(Outcome::Violated(static_rule_finding(e, &s.loaded.file))),
        (_, None) => Target::Decided(Outcome::Inconclusive(
            s.loaded
                .skipped(name)
                .unwrap_or_else(|| format!("@{name} is not mapped")),
        )),
        (_, Some(i)) => Target::Code(Entry {
            code: code.clone(),
            func: i,
        }),
    }
}

/// When no step changed function `name`: the last module that has it, so
/// that the report still says what was checked.
fn unchanged(name: &str, stages: &[StageModule], programs: &[Rc<Code>]) -> Option<StagePlan> {
    let (s, code) = stages
        .iter()
        .zip(programs)
        .rev()
        .find(|(s, _)| s.loaded.defined.iter().any(|d| d == name))?;
    let i = s.loaded.index(name)?;
    let what = if s.only_if_changed {
        format!("the pipeline (no pass changed @{name})")
    } else {
        s.name.clone()
    };
    let target = Target::Code(Entry {
        code: code.clone(),
        func: i,
    });
    Some(stage_plan(s, target, Some(what)))
}

/// The plan of stage module `s` for one function; `renamed`, the name of a
/// stage that stands for a whole pipeline that did not change it.
fn stage_plan(s: &StageModule, target: Target, renamed: Option<String>) -> StagePlan {
    StagePlan {
        notes: if renamed.is_some() {
            Vec::new()
        } else {
            s.notes.clone()
        },
        name: renamed.unwrap_or_else(|| s.name.clone()),
        level: s.level.clone(),
        target,
        allow: s.allow,
        reproduce: s.reproduce.clone(),
        module: s.loaded.mapped.module.clone(),
        ceiling: None,
        interprocedural: None,
    }
}

/// The first stage that changed function `name` (its body differs from
/// the one before, starting from `reference`) and breaks a static rule of
/// tokens, as a violated stage.
fn first_static_break(
    name: &str,
    reference: Option<&String>,
    stages: &[StageModule],
) -> Option<Stage> {
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
            let mut st = decided_stage(
                &s.name,
                Outcome::Violated(static_rule_finding(e, &s.loaded.file)),
                s.notes.clone(),
                &s.level,
            );
            st.target_module = s.loaded.mapped.module.clone();
            return Some(st);
        }
    }
    None
}

/// The plan of a check of function `function` of LLVM IR already read
/// against convcheck's own passes (run on the mapped module), with the
/// module's own CFG semantics as the reference: the explorer's check of
/// LLVM IR, which runs no external tool. Each pass is a stage, and a pass
/// whose contract removes barriers may remove them.
pub fn plan_builtin_passes(loaded: &Loaded, function: &str, passes: &[String]) -> Result<Plan> {
    let mut stages = Vec::new();
    let mut allow = Allowance::Exact;
    let mut module = loaded.mapped.module.clone();
    for pass in super::kernel::passes(passes)? {
        let notes = pass
            .run(&mut module)
            .map_err(|e| Error::pass(format!("pass {}: {e}", pass.name())))?;
        if pass.contract() == convcheck_transforms::Contract::RemovesBarriers {
            allow = Allowance::Barriers;
        }
        let mut after = loaded.clone();
        after.file = format!("{} after {}", loaded.file, pass.name());
        after.text = String::new();
        after.mapped.module = module.clone();
        after.bodies = HashMap::new();
        after.violations = Vec::new();
        stages.push(StageModule {
            level: format!("after {}", pass.name()),
            name: pass.name(),
            loaded: after,
            notes: super::kernel::own_notes(notes, function),
            only_if_changed: false,
            allow,
            reproduce: None,
        });
    }
    let reference = Ref::Ll(Box::new(loaded.clone()));
    let no_memory = no_memory_labels(&reference, &stages);
    let programs = programs(&stages, &no_memory);
    let reference_code = reference_code(&reference, &no_memory, &weak::Spurious::default())?;
    let f = self::function(function, &reference, &reference_code, &stages, &programs)?;
    Ok(Plan {
        file: loaded.file.clone(),
        target_file: None,
        functions: vec![f],
        not_compared: Vec::new(),
        replay: Replay::None,
        notes: Vec::new(),
        policy: Policy::Batch {
            prove: false,
            search_only: false,
        },
        tool_times: Default::default(),
    })
}
