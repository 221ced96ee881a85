//! The input adapter of kernel-language files: `check SRC [TGT] --pass
//! P...` (DESIGN.md 2.7, section 4).
//!
//! With `--reference source` (the default for kernels) the first stage is
//! the lowering itself, so a lowering that changes convergence (a
//! divergent loop exit without tokens) is caught; every later stage is the
//! output of one more pass. With `--reference cfg` the reference is the
//! lowered CFG's own semantics (what LLVM's rules ask of a pass).
//! `check SRC TGT` compares two kernel files: TGT (with any passes) is the
//! target, matched to SRC by operation labels and oracle names; an oracle
//! only one side reads is a free value like any other.

use super::{Code, Entry, FunctionPlan, Plan, Policy, StagePlan, Target};
use crate::config::{CheckJob, Engine, Reference};
use crate::engine::Allowance;
use crate::error::{Error, Result};
use crate::report::Replay;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_lang::exec::SourceProgram;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_transforms::{lookup, Contract, Pass};
use std::rc::Rc;

/// Reads a kernel file and analyses it; errors name file, line and
/// column.
pub fn load_kernel(path: &str) -> Result<Kernel> {
    let src = std::fs::read_to_string(path)
        .map_err(|e| Error::usage(format!("{path}: cannot read: {e}")))?;
    Kernel::parse(path, &src).map_err(|d| {
        let language = crate::llvm::frontend::Language::of(path);
        if language.is_gpu_source() {
            // A real CUDA, HIP or OpenCL file is rarely in the kernel
            // language's subset: say how to have clang read it.
            Error::input(format!(
                "{d}\nhint: {path} was read as convcheck's kernel language, a C subset; to \
                 compile it as {} with clang, add --frontend clang",
                language.name()
            ))
        } else {
            Error::from(d)
        }
    })
}

/// The source level of `kernel`.
pub fn source_code(kernel: &Kernel) -> Result<Code> {
    SourceProgram::new(kernel)
        .map(Code::Source)
        .map_err(|e| Error::usage(format!("{}: {e}", kernel.file_name)))
}

/// The passes named `names`, looked up.
pub fn passes(names: &[String]) -> Result<Vec<Box<dyn Pass>>> {
    names
        .iter()
        .map(|p| lookup(p).map_err(|e| Error::pass(format!("--pass {p}: {e}"))))
        .collect()
}

/// The notes of a pass about function `function` (notes about the other
/// functions of the file are not about this check).
pub fn own_notes(notes: Vec<String>, function: &str) -> Vec<String> {
    let own = format!("@{function}:");
    notes
        .into_iter()
        .filter(|n| n.starts_with(&own) || !n.starts_with('@'))
        .collect()
}

/// The CFG that stands in for the source level in the product: the kernel
/// lowered with tokens from its source structure (`--tokens`), whose
/// convergence is the source level's when the kernel has no
/// implementation-defined region (no anchor) and no irreducible loop
/// (checked on every example by `model/lang/tests/cfg.rs` and on seeded
/// random kernels against the explicit engine by
/// `tests/engines.rs::the_token_cfg_stands_in_for_the_source_level`).
/// `None` where that does not hold.
pub fn token_stand_in(kernel: &Kernel) -> Option<CfgProgram> {
    if !kernel.members.is_empty() || !kernel.irreducible.is_empty() {
        return None;
    }
    let program = CfgProgram::new(lower(kernel, true));
    let reducible = program
        .cycles
        .iter()
        .all(|c| c.cycles.iter().all(|y| y.is_reducible()));
    reducible.then_some(program)
}

/// The plan of a check of kernel files.
pub fn plan(job: &CheckJob, engine: Engine) -> Result<Plan> {
    let kernel = load_kernel(&job.src)?;
    let target = match &job.tgt {
        Some(t) => Some(load_kernel(t)?),
        None => None,
    };
    let mut plan = plan_kernels(&job.src, kernel, target, job, engine)?;
    plan.target_file.clone_from(&job.tgt);
    plan.replay = Replay::Kernel {
        file: job.src.clone(),
        target_file: job.tgt.clone(),
    };
    Ok(plan)
}

/// The stages of a check of kernel `tk`'s function `tentry`: the target
/// file at the source level (`check SRC TGT` at the source level with no
/// pass), or the lowering when the reference is the source level or a
/// target file is given; then the module after each pass, with the pass's
/// notes about the checked function.
fn stages(
    (tk, tentry): (&Kernel, convcheck_ir::FuncId),
    has_target: bool,
    source_target_file: bool,
    passes: &[Box<dyn Pass>],
    job: &CheckJob,
) -> Result<Vec<StagePlan>> {
    let tname = tk.functions[tentry].name.clone();
    let tokens = if job.tokens { " --tokens" } else { "" };
    let mut stages = Vec::new();
    let mut module = lower(tk, job.tokens);
    let stage = |name: String, code: Code, allow, notes, level: String| {
        let module = code.module().clone();
        StagePlan {
            name,
            notes,
            level,
            target: Target::Code(Entry {
                code: Rc::new(code),
                func: tentry,
            }),
            allow,
            reproduce: None,
            module,
            ceiling: None,
            interprocedural: None,
        }
    };
    if source_target_file {
        stages.push(stage(
            "target file".into(),
            source_code(tk)?,
            Allowance::Exact,
            Vec::new(),
            "source level".into(),
        ));
    } else if job.reference == Reference::Source || has_target {
        stages.push(stage(
            format!("lower{tokens}"),
            Code::Cfg(CfgProgram::new(module.clone())),
            Allowance::Exact,
            Vec::new(),
            format!("CFG{tokens}"),
        ));
    }
    let mut allow = Allowance::Exact;
    for pass in passes {
        let notes = pass
            .run(&mut module)
            .map_err(|e| Error::pass(format!("pass {}: {e}", pass.name())))?;
        if pass.contract() == Contract::RemovesBarriers {
            allow = Allowance::Barriers;
        }
        stages.push(stage(
            pass.name(),
            Code::Cfg(CfgProgram::new(module.clone())),
            allow,
            own_notes(notes, &tname),
            format!("after {}", pass.name()),
        ));
    }
    Ok(stages)
}

/// The plan of a check of kernels already read; `file` names the reference
/// in the report and its replay lines.
pub fn plan_kernels(
    file: &str,
    kernel: Kernel,
    target_kernel: Option<Kernel>,
    job: &CheckJob,
    engine: Engine,
) -> Result<Plan> {
    let entry = kernel
        .entry(job.function.as_deref())
        .map_err(Error::usage)?;
    let passes = passes(&job.passes)?;
    let reference_code = match job.reference {
        Reference::Source => source_code(&kernel)?,
        Reference::Cfg => Code::Cfg(CfgProgram::new(lower(&kernel, job.tokens))),
    };
    let tk = target_kernel.as_ref().unwrap_or(&kernel);
    let tentry = match &target_kernel {
        Some(t) => t
            .entry(Some(&kernel.functions[entry].name))
            .or_else(|_| t.entry(None))
            .map_err(Error::usage)?,
        None => entry,
    };
    let source_target_file =
        target_kernel.is_some() && job.reference == Reference::Source && passes.is_empty();
    let stages = stages(
        (tk, tentry),
        target_kernel.is_some(),
        source_target_file,
        &passes,
        job,
    )?;
    if stages.is_empty() {
        return Err(super::nothing_to_check(
            "with --reference cfg give at least one --pass or a target file",
        ));
    }
    let policy = match engine {
        Engine::Explicit => Policy::Batch {
            prove: false,
            search_only: false,
        },
        Engine::Auto | Engine::Smt => Policy::Staged,
    };
    let stand_in = (job.reference == Reference::Source)
        .then(|| token_stand_in(&kernel))
        .flatten()
        .map(|p| Entry {
            code: Rc::new(Code::Cfg(p)),
            func: entry,
        });
    let target_stand_in = source_target_file
        .then(|| token_stand_in(tk))
        .flatten()
        .map(|p| Entry {
            code: Rc::new(Code::Cfg(p)),
            func: tentry,
        });
    Ok(Plan {
        file: file.to_string(),
        target_file: None,
        functions: vec![FunctionPlan {
            name: kernel.functions[entry].name.clone(),
            reference_kind: job.reference,
            reference: Ok(Entry {
                code: Rc::new(reference_code),
                func: entry,
            }),
            stages,
            stand_in,
            decided: Vec::new(),
            target_stand_in,
        }],
        not_compared: Vec::new(),
        replay: Replay::Kernel {
            file: file.to_string(),
            target_file: None,
        },
        notes: Vec::new(),
        policy,
        tool_times: Default::default(),
    })
}
