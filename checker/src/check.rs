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
//! target, matched to SRC by operation labels and oracle names; an oracle
//! only one side reads is a free value like any other.
//!
//! All stages are compared on one stream of scenarios
//! ([`crate::engine::compare_stages`]), under the budgets of
//! [`Budget`] (time, pairs, stored events); the report lists the bounds
//! that applied and what they cut ([`Coverage`]). On a terminal, a check
//! that takes more than a second shows a progress line on standard error.

pub use crate::config::{
    CheckConfig, CheckJob as CheckArgs, Format as ReportFormat, Reference, Verdict,
};
use crate::engine::{
    compare_any_hierarchy, compare_stages, Allowance, Budget, Comparison, Coverage, Limits,
    Outcome as EngineOutcome, Progress, Side,
};
pub use crate::render::{render_json, render_sarif, render_text};
use crate::{load_kernel, Outcome};
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
    /// Reference paths within the bounds, over every group size and
    /// thread index tried.
    pub paths: usize,
    /// What the check covered and which bounds cut what.
    pub coverage: Coverage,
    /// The budgets it ran under.
    pub budget: Budget,
    /// The target file, for `check SRC TGT`.
    pub target_file: Option<String>,
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

/// Runs the check described by the arguments, with the default budget.
pub fn run_check(a: &CheckArgs) -> Result<CheckReport, Outcome> {
    run_check_with(a, &Budget::default(), &mut |_| {})
}

/// Runs the check described by the arguments under `budget`.
pub fn run_check_with(
    a: &CheckArgs,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
) -> Result<CheckReport, Outcome> {
    let kernel = load_kernel(&a.src)?;
    let target_kernel = match &a.tgt {
        Some(t) => Some(load_kernel(t)?),
        None => None,
    };
    let mut report =
        run_check_budgeted(&a.src, kernel, target_kernel, &a.config(), budget, progress)?;
    report.target_file.clone_from(&a.tgt);
    Ok(report)
}

/// Runs a check on kernels already loaded with the default budget; `file`
/// names the reference in the report and its replay lines. This is the one
/// pipeline that `check`, `fuzz`, `bench`, `demo` and the corpus call.
pub fn run_check_on(
    file: &str,
    kernel: Kernel,
    target_kernel: Option<Kernel>,
    a: &CheckConfig,
) -> Result<CheckReport, Outcome> {
    run_check_budgeted(
        file,
        kernel,
        target_kernel,
        a,
        &Budget::default(),
        &mut |_| {},
    )
}

/// [`run_check_on`] under `budget`, telling `progress` where it is.
pub fn run_check_budgeted(
    file: &str,
    kernel: Kernel,
    target_kernel: Option<Kernel>,
    a: &CheckConfig,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
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
    let tokens = if a.tokens { " --tokens" } else { "" };
    // The targets, stage by stage: (name, program, allowance, notes, level).
    struct Stage<'c> {
        name: String,
        code: StageCode<'c>,
        allow: Allowance,
        notes: Vec<String>,
        level: String,
    }
    enum StageCode<'c> {
        Source(crate::Code<'c>),
        Cfg(CfgProgram),
    }
    let mut targets: Vec<Stage> = Vec::new();
    // Stage 0: the target program before any pass.
    let mut module: Module = lower(tk, a.tokens);
    if target_kernel.is_some() && a.reference == Reference::Source && passes.is_empty() {
        targets.push(Stage {
            name: "target file".into(),
            code: StageCode::Source(crate::Code::new(tk, None)?),
            allow: Allowance::Exact,
            notes: Vec::new(),
            level: "source level".into(),
        });
    } else if a.reference == Reference::Source || target_kernel.is_some() {
        targets.push(Stage {
            name: format!("lower{tokens}"),
            code: StageCode::Cfg(CfgProgram::new(module.clone())),
            allow: Allowance::Exact,
            notes: Vec::new(),
            level: format!("CFG{tokens}"),
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
        targets.push(Stage {
            name: pass.name(),
            code: StageCode::Cfg(CfgProgram::new(module.clone())),
            allow,
            notes,
            level: format!("after {}", pass.name()),
        });
    }
    let sides: Vec<(Side, Allowance)> = targets
        .iter()
        .map(|t| {
            let program: &dyn convcheck_ir::exec::Program = match &t.code {
                StageCode::Source(c) => c.program(),
                StageCode::Cfg(p) => p,
            };
            (
                Side {
                    program,
                    cfg: None,
                    entry: tentry,
                },
                t.allow,
            )
        })
        .collect();
    // An irreducible CFG reference has several cycle hierarchies, each a
    // relation an implementation may follow: each stage is then compared
    // on its own, under any of them (at most HIERARCHY_CAP).
    let several = reference_program.as_ref().is_some_and(|p| {
        convcheck_ir::cycles::all_hierarchies(&p.module.functions[entry], 2).len() > 1
    });
    let comparison = if several && !sides.is_empty() {
        let mut c: Comparison = compare_stages(&reference, &sides[..1], limits, budget, progress);
        c.outcomes = sides
            .iter()
            .map(|(t, allow)| compare_any_hierarchy(&reference, t, *allow, limits, HIERARCHY_CAP))
            .collect();
        c
    } else {
        compare_stages(&reference, &sides, limits, budget, progress)
    };
    let stages: Vec<StageReport> = targets
        .into_iter()
        .zip(comparison.outcomes)
        .map(|(t, outcome)| StageReport {
            name: t.name,
            outcome,
            notes: t.notes,
            target_level: t.level,
        })
        .collect();
    Ok(CheckReport {
        file: file.to_string(),
        function: kernel.functions[entry].name.clone(),
        reference: a.reference,
        bounds,
        threads: a.threads,
        stages,
        reference_module: reference_code.module().clone(),
        target_module: tk.module(),
        paths: comparison.coverage.paths,
        coverage: comparison.coverage,
        budget: *budget,
        target_file: None,
    })
}

/// The `check` command: the arguments, the budgets, and whether a
/// progress line may be shown (standard error is a terminal).
pub fn check(a: &CheckArgs) -> Outcome {
    check_with(a, &Budget::default(), false)
}

/// The `check` command under `budget`; with `tty`, a check that takes more
/// than a second shows its progress on standard error.
pub fn check_with(a: &CheckArgs, budget: &Budget, tty: bool) -> Outcome {
    let start = std::time::Instant::now();
    let mut shown = false;
    let mut last = start;
    let mut progress = |p: &Progress| {
        if !tty {
            return;
        }
        let now = std::time::Instant::now();
        if now.duration_since(start).as_secs_f64() < 1.0
            || now.duration_since(last).as_millis() < 200
        {
            return;
        }
        last = now;
        shown = true;
        use std::io::Write as _;
        let total = if p.total > 0 {
            format!(" of {}", crate::engine::grouped(p.total))
        } else {
            String::new()
        };
        let _ = write!(
            std::io::stderr(),
            "\r\x1b[Kconvcheck check: {} {}{total} ({:.0} s)",
            p.phase,
            crate::engine::grouped(p.done),
            now.duration_since(start).as_secs_f64()
        );
    };
    let result = run_check_with(a, budget, &mut progress);
    if shown {
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
    let report = match result {
        Ok(r) => r,
        Err(o) => return o,
    };
    if report.stages.is_empty() {
        return Outcome::usage(
            "nothing to check: with --reference cfg give at least one --pass or a target file",
        );
    }
    let stdout = match a.format {
        ReportFormat::Text => render_text(&report),
        ReportFormat::Json => format!("{}\n", render_json(&report)),
        ReportFormat::Sarif => format!("{}\n", render_sarif(&report)),
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code: report.exit_code(),
    }
}
