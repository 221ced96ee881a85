//! `convcheck check`: a kernel, a pipeline of passes, a verdict per stage
//! (DESIGN.md 2.7, 2.8, section 4).
//!
//! With `--reference source` (the default for kernels) the first stage is
//! the lowering itself, so a lowering that changes convergence (a divergent
//! loop exit without tokens) is caught; every later stage is the output of
//! one more pass, compared with the same reference. With `--reference cfg`
//! the reference is the lowered CFG's own semantics (what LLVM's rules ask
//! of a pass). The report names the first stage that broke a property and
//! shows a smallest counterexample as two trace tables, reference and
//! target, side by side, plus a `convcheck run` line that replays it.
//!
//! `check SRC TGT` compares two kernel files: TGT (with any passes) is the
//! target, matched to SRC by operation labels and oracle names.

use crate::cli::{CheckArgs, ReportFormat};
pub use crate::config::{CheckConfig, Reference, Verdict};
use crate::engine::{compare_any_hierarchy, Allowance, Limits, Outcome as EngineOutcome, Side};
pub use crate::render::{render_json, render_sarif, render_text};
use crate::{load_kernel, Outcome, EXIT_USAGE};
use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Bounds;
use convcheck_ir::Module;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_transforms::{lookup, Contract, Pass};

/// One stage's result.
pub struct StageReport {
    /// `lower`, or the pass name.
    pub name: String,
    /// The outcome.
    pub outcome: EngineOutcome,
    /// What the pass said it did.
    pub notes: Vec<String>,
    /// The target's level, for the table title.
    pub target_level: String,
}

/// A whole check.
pub struct CheckReport {
    /// The reference file.
    pub file: String,
    /// The entry function.
    pub function: String,
    /// The reference semantics.
    pub reference: Reference,
    /// Bounds used.
    pub bounds: Bounds,
    /// Group size.
    pub threads: u32,
    /// Stages in order.
    pub stages: Vec<StageReport>,
    /// The reference's module (its op and oracle tables name the
    /// reference's instances).
    pub reference_module: Module,
    /// The target's module (its tables name the target's instances).
    pub target_module: Module,
    /// Reference paths of thread 0 within the bounds.
    pub paths: usize,
}

impl CheckReport {
    /// The verdict: violated if any stage is (a violation is definite even
    /// after an inconclusive stage), else inconclusive if any stage is, else
    /// preserved.
    pub fn verdict(&self) -> Verdict {
        if self
            .stages
            .iter()
            .any(|s| matches!(s.outcome, EngineOutcome::Violated(_)))
        {
            Verdict::Violated
        } else if self
            .stages
            .iter()
            .any(|s| matches!(s.outcome, EngineOutcome::Inconclusive(_)))
        {
            Verdict::Inconclusive
        } else {
            Verdict::Preserved
        }
    }

    fn exit_code(&self) -> i32 {
        self.verdict().exit_code()
    }

    /// The first violated stage, else the first inconclusive one.
    pub(crate) fn first_broken(&self) -> Option<(usize, &StageReport)> {
        let mut stages = self.stages.iter().enumerate();
        stages
            .clone()
            .find(|(_, s)| matches!(s.outcome, EngineOutcome::Violated(_)))
            .or_else(|| stages.find(|(_, s)| matches!(s.outcome, EngineOutcome::Inconclusive(_))))
    }
}

/// Runs the check described by the arguments.
pub fn run_check(a: &CheckArgs) -> Result<CheckReport, Outcome> {
    let kernel = load_kernel(&a.src)?;
    let target_kernel = match &a.tgt {
        Some(t) => Some(load_kernel(t)?),
        None => None,
    };
    run_check_on(&a.src, kernel, target_kernel, &a.config())
}

/// Runs a check on kernels already loaded; `file` names the reference in
/// the report and its replay lines. This is the one pipeline that `check`,
/// `fuzz`, `bench`, `demo` and the corpus call.
pub fn run_check_on(
    file: &str,
    kernel: Kernel,
    target_kernel: Option<Kernel>,
    a: &CheckConfig,
) -> Result<CheckReport, Outcome> {
    let entry = kernel
        .entry(a.function.as_deref())
        .map_err(Outcome::usage)?;
    let mut passes: Vec<Box<dyn Pass>> = Vec::new();
    for p in &a.passes {
        passes.push(lookup(p).map_err(|e| Outcome::usage(format!("--pass {p}: {e}")))?);
    }
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
    let reference_program = match a.reference {
        Reference::Source => None,
        Reference::Cfg => Some(CfgProgram::new(lower(&kernel, a.tokens))),
    };
    let reference_code = crate::Code::new(&kernel, reference_program.as_ref())?;
    let reference = Side {
        program: reference_code.program(),
        cfg: reference_program.as_ref(),
        entry,
    };
    let tk = target_kernel.as_ref().unwrap_or(&kernel);
    let tentry = match &target_kernel {
        Some(t) => t
            .entry(Some(&kernel.functions[entry].name))
            .or_else(|_| t.entry(None))
            .map_err(Outcome::usage)?,
        None => entry,
    };
    let mut stages = Vec::new();
    let tokens = if a.tokens { " --tokens" } else { "" };
    // Stage 0: the target program before any pass.
    let mut module: Module = lower(tk, a.tokens);
    let compare_with = |program: &dyn convcheck_ir::exec::Program, allow| {
        let target = Side {
            program,
            cfg: None,
            entry: tentry,
        };
        compare_any_hierarchy(&reference, &target, allow, limits, HIERARCHY_CAP)
    };
    if target_kernel.is_some() && a.reference == Reference::Source && passes.is_empty() {
        let code = crate::Code::new(tk, None)?;
        stages.push(StageReport {
            name: "target file".into(),
            outcome: compare_with(code.program(), Allowance::Exact),
            notes: Vec::new(),
            target_level: "source level".into(),
        });
    } else if a.reference == Reference::Source || target_kernel.is_some() {
        let program = CfgProgram::new(module.clone());
        stages.push(StageReport {
            name: format!("lower{tokens}"),
            outcome: compare_with(&program, Allowance::Exact),
            notes: Vec::new(),
            target_level: format!("CFG{tokens}"),
        });
    }
    let mut allow = Allowance::Exact;
    for pass in &passes {
        let notes = pass
            .run(&mut module)
            .map_err(|e| Outcome::usage(format!("pass {}: {e}", pass.name())))?;
        // Notes on other functions of the file are not about this check.
        let own = format!("@{}:", tk.functions[tentry].name);
        let notes: Vec<String> = notes
            .into_iter()
            .filter(|n| n.starts_with(&own) || !n.starts_with('@'))
            .collect();
        if pass.contract() == Contract::RemovesBarriers {
            allow = Allowance::Barriers;
        }
        let program = CfgProgram::new(module.clone());
        stages.push(StageReport {
            name: pass.name(),
            outcome: compare_with(&program, allow),
            notes,
            target_level: format!("after {}", pass.name()),
        });
    }
    Ok(CheckReport {
        file: file.to_string(),
        function: kernel.functions[entry].name.clone(),
        reference: a.reference,
        bounds,
        threads: a.threads,
        stages,
        reference_module: reference_code.module().clone(),
        target_module: tk.module(),
        paths: count_paths(reference_code.program(), entry, a),
    })
}

/// The `check` command.
pub fn check(a: &CheckArgs) -> Outcome {
    let report = match run_check(a) {
        Ok(r) => r,
        Err(o) => return o,
    };
    let stdout = match a.format {
        ReportFormat::Text => render_text(&report),
        ReportFormat::Json => format!("{}\n", render_json(&report)),
        ReportFormat::Sarif => format!("{}\n", render_sarif(&report)),
    };
    let code = if report.stages.is_empty() {
        EXIT_USAGE
    } else {
        report.exit_code()
    };
    if report.stages.is_empty() {
        return Outcome::usage(
            "nothing to check: with --reference cfg give at least one --pass or a target file",
        );
    }
    Outcome {
        stdout,
        stderr: String::new(),
        code,
    }
}

/// Reference paths per thread index at the check's bounds (for reports and
/// benchmarks).
fn count_paths(program: &dyn convcheck_ir::exec::Program, entry: usize, a: &CheckConfig) -> usize {
    let bounds = Bounds {
        max_iters: a.max_iters,
        fuel: a.fuel,
        max_paths: a.max_paths,
        ..Bounds::default()
    };
    convcheck_ir::paths::enumerate(program, entry, 0, a.threads, bounds)
        .paths
        .len()
}
