//! The one check pipeline (DESIGN.md section 3): input adapters build a
//! [`Plan`], the engines decide its stages ([`decide`]), and the answer is
//! one [`Report`] that `check`, `fuzz`, `corpus`, `demo`, `bench`, the
//! explorer and the fuzz oracles all render the same way.
//!
//! - **Adapters** ([`kernel`], [`llvm`]) read the inputs (kernel files, IR
//!   text, LLVM IR, clang's output, the dumps of an `opt` pipeline) and
//!   build, once, the functions to check: each with its reference (the
//!   source level of a kernel, or a CFG's own semantics) and its stages
//!   (the lowering, a target file, each pass that changed it), a stage
//!   already decided where no engine needs to run (a static rule of tokens
//!   broken, a function outside the model).
//! - **Engines** decide the other stages behind one interface
//!   ([`decide::Engine`]): the structural proof, the explicit enumeration,
//!   the symbolic product; a policy orders them ([`decide`]).
//! - **Budgets**: the functions of a file share the time budget (each gets
//!   the time left divided by the functions still to check), so that one
//!   slow function leaves the others a share.

pub mod decide;
pub mod kernel;
pub mod llvm;

use crate::config::{CheckJob, Engine, Reference};
use crate::engine::{whole_seconds_up, Allowance, Budget, Outcome};
use crate::error::{Error, Result};
use crate::report::{FunctionReport, Replay, Report, Reproduce};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{Bounds, Program};
use convcheck_ir::{FuncId, Module};
use convcheck_lang::exec::SourceProgram;
use std::rc::Rc;
use std::time::Instant;

/// A side's code: the source level of a kernel, or a CFG program.
pub enum Code {
    /// Seed 000's source-level semantics.
    Source(SourceProgram),
    /// A CFG: maximal convergence, or tokens where present.
    Cfg(CfgProgram),
}

impl Code {
    /// The program to run.
    pub fn program(&self) -> &dyn Program {
        match self {
            Code::Source(s) => s,
            Code::Cfg(c) => c,
        }
    }

    /// The module whose op and oracle tables name the code's instances.
    pub fn module(&self) -> &Module {
        match self {
            Code::Source(s) => &s.module,
            Code::Cfg(c) => &c.module,
        }
    }

    /// The CFG program, when the code is one.
    pub fn cfg(&self) -> Option<&CfgProgram> {
        match self {
            Code::Cfg(c) => Some(c),
            Code::Source(_) => None,
        }
    }
}

/// A function of some code.
#[derive(Clone)]
pub struct Entry {
    /// The code (shared by every function of one module).
    pub code: Rc<Code>,
    /// The function.
    pub func: FuncId,
}

impl Entry {
    /// The engines' view of this side.
    pub fn side(&self) -> crate::engine::Side<'_> {
        crate::engine::Side {
            program: self.code.program(),
            cfg: self.code.cfg(),
            entry: self.func,
        }
    }
}

/// What a stage compares.
pub enum Target {
    /// The stage's function, to be decided by the engines.
    Code(Entry),
    /// Decided without running anything: a static rule of tokens broken
    /// (violated) or the function outside the model (inconclusive).
    Decided(Outcome),
}

/// One stage of a function's pipeline.
pub struct StagePlan {
    /// `lower`, `target file`, a pass, a pass of `opt` with its number.
    pub name: String,
    /// What the step said it did.
    pub notes: Vec<String>,
    /// The target's level, for the title of its table.
    pub level: String,
    /// What is compared.
    pub target: Target,
    /// What the step may remove.
    pub allow: Allowance,
    /// How an opt stage is reproduced.
    pub reproduce: Option<Reproduce>,
    /// The module the stage's runs are of (for its table).
    pub module: Module,
    /// Why a passing verdict of this stage is inconclusive all the same:
    /// a change the model cannot judge (an atomic ordering weakened,
    /// `crate::llvm::orderings`). A violation the engines find stands.
    pub ceiling: Option<String>,
    /// Why a violation the engines find in this stage is inconclusive all
    /// the same: a function of local linkage called only directly, checked
    /// alone with its arguments free though its callers constrain them
    /// (review2 G6; its callers' own checks stand).
    pub interprocedural: Option<String>,
}

/// One function to check.
pub struct FunctionPlan {
    /// The function's plain name.
    pub name: String,
    /// The reference semantics.
    pub reference_kind: Reference,
    /// The reference, or why it has no semantics to compare with.
    pub reference: std::result::Result<Entry, String>,
    /// The stages in order (possibly none, when the reference has no
    /// semantics: the stages of the report then say why).
    pub stages: Vec<StagePlan>,
    /// For a kernel at the source level: the kernel lowered with tokens
    /// from its source structure, which stands in for the source level in
    /// the product (see [`kernel::token_stand_in`]).
    pub stand_in: Option<Entry>,
    /// Stages of the report decided before any comparison (the reference
    /// outside the model, ...), put before the compared ones.
    pub decided: Vec<crate::report::Stage>,
    /// For a target kernel file at the source level: its token stand-in,
    /// so that the product can decide what the explicit engine's inexact
    /// domains leave open (issue 20 class m).
    pub target_stand_in: Option<Entry>,
}

/// Which procedure orders the engines (DESIGN.md 2.7; docs/src/checking.md
/// "Engines").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Stage by stage, the symbolic product first (after a quick explicit
    /// search), the explicit engine for what it does not model: kernel
    /// files under `auto` and `smt`.
    Staged,
    /// The structural proof, then every open stage in one explicit batch
    /// on one stream of scenarios, the product around it (before it under
    /// `smt`, after it for what it left inconclusive under `auto`): LLVM IR,
    /// and every input under `explicit`.
    Batch {
        /// Whether the structural proof runs.
        prove: bool,
        /// Whether the check only looks for counterexamples (a fuzz
        /// campaign): a stage the explicit engine alone preserved with
        /// inexact value domains then stays preserved (no counterexample
        /// among the values tried) instead of inconclusive
        /// (`decide::batch`, issue 20 class m).
        search_only: bool,
    },
}

/// Everything a check needs besides its inputs.
pub struct Plan {
    /// The reference file as given.
    pub file: String,
    /// The target file, for `check SRC TGT`.
    pub target_file: Option<String>,
    /// The functions.
    pub functions: Vec<FunctionPlan>,
    /// Functions defined on one side only.
    pub not_compared: Vec<String>,
    /// How counterexamples are replayed.
    pub replay: Replay,
    /// Notes about the whole check (the front end's command, the
    /// pipeline's), put first on the first stage of the first function.
    pub notes: Vec<String>,
    /// How the engines are ordered.
    pub policy: Policy,
    /// Time spent in external tools while building the plan.
    pub tool_times: ToolTimes,
}

/// Time spent in external tools.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToolTimes {
    /// In clang.
    pub clang: std::time::Duration,
    /// In opt.
    pub opt: std::time::Duration,
}

/// How a check runs: its engine choice and budgets.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Which engine decides.
    pub engine: Engine,
    /// The budgets; the time budget counts from `budget.start`.
    pub budget: Budget,
    /// The LLVM tools and pipeline.
    pub llvm: crate::llvm::LlvmOptions,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            engine: Engine::Auto,
            budget: Budget::default(),
            llvm: crate::llvm::LlvmOptions::default(),
        }
    }
}

/// Where a check is, for a progress display (the binary shows it on a
/// terminal; the library never writes to one).
pub trait Progress {
    /// What the check is doing now, one line.
    fn report(&self, what: &str);
}

/// No progress display.
pub struct Silent;

impl Progress for Silent {
    fn report(&self, _: &str) {}
}

impl<F: Fn(&str)> Progress for F {
    fn report(&self, what: &str) {
        self(what)
    }
}

/// The bounds of a job.
pub fn bounds_of(job: &CheckJob) -> Bounds {
    Bounds {
        max_iters: job.max_iters,
        fuel: job.fuel,
        max_paths: job.max_paths,
        ..Bounds::default()
    }
}

/// Runs the check `job` asks for.
pub fn check(job: &CheckJob, settings: &Settings, progress: &dyn Progress) -> Result<Report> {
    let plan = if crate::llvm::applies(job, &settings.llvm) {
        llvm::plan(job, settings)?
    } else {
        kernel::plan(job, settings.engine)?
    };
    Ok(run(plan, job, settings, progress))
}

/// Decides every function of `plan`.
pub fn run(plan: Plan, job: &CheckJob, settings: &Settings, progress: &dyn Progress) -> Report {
    let budget = settings.budget;
    let deadline = budget.timeout.map(|t| budget.start + t);
    let count = plan.functions.len();
    let mut functions = Vec::new();
    for (k, f) in plan.functions.into_iter().enumerate() {
        // Each function gets the time left divided by the functions still
        // to check (whole seconds rounded up).
        let own = match deadline {
            Some(d) if count > 1 => {
                let now = Instant::now();
                let share = d.saturating_duration_since(now) / (count - k) as u32;
                Budget {
                    start: now,
                    timeout: Some(whole_seconds_up(share)),
                    ..budget
                }
            }
            _ => budget,
        };
        let mut fr = decide::function(&f, plan.policy, job, settings.engine, &own, progress);
        fr.budget = budget;
        if own.timeout != budget.timeout {
            let timed_out = |s: &&mut crate::report::Stage| matches!(&s.outcome, Outcome::Inconclusive(w) if w.contains("time budget"));
            if let Some(s) = fr.stages.iter_mut().find(timed_out) {
                s.notes.push(format!(
                    "this function's share of the time budget: {} s of {} s (the functions of a \
                     file share --timeout)",
                    own.timeout.map_or(0.0, |t| t.as_secs_f64()),
                    budget.timeout.map_or(0.0, |t| t.as_secs_f64())
                ));
                fr.share = own.timeout;
            }
        }
        if functions.is_empty() {
            if let Some(s) = fr.stages.first_mut() {
                let mut n = plan.notes.clone();
                n.append(&mut s.notes);
                s.notes = n;
            }
        }
        functions.push(fr);
    }
    Report {
        file: plan.file,
        target_file: plan.target_file,
        functions,
        not_compared: plan.not_compared,
        replay: plan.replay,
    }
}

/// An empty function report for `name` (no stage yet).
pub(crate) fn empty_report(
    name: &str,
    reference: Reference,
    job: &CheckJob,
    budget: &Budget,
) -> FunctionReport {
    FunctionReport {
        function: name.to_string(),
        reference,
        threads: job.threads,
        bounds: bounds_of(job),
        coverage: None,
        budget: *budget,
        share: None,
        stages: Vec::new(),
    }
}

/// `Error::usage` for "nothing to check".
pub(crate) fn nothing_to_check(why: impl Into<String>) -> Error {
    Error::usage(format!("nothing to check: {}", why.into()))
}

/// Checks kernels already read with `config` and `engine` under the
/// default budget; `file` names the reference in the report and its replay
/// lines. `fuzz`, `demo`, `bench`, the corpus and the explorer call it.
pub fn check_kernels(
    file: &str,
    kernel: convcheck_lang::sema::Kernel,
    target: Option<convcheck_lang::sema::Kernel>,
    config: &crate::config::CheckConfig,
    settings: &Settings,
) -> Result<Report> {
    kernels(file, kernel, target, config, settings, false)
}

/// [`check_kernels`] for a campaign that only looks for counterexamples
/// (`fuzz`): see [`Plan::search_only`].
pub fn search_kernels(
    file: &str,
    kernel: convcheck_lang::sema::Kernel,
    target: Option<convcheck_lang::sema::Kernel>,
    config: &crate::config::CheckConfig,
    settings: &Settings,
) -> Result<Report> {
    kernels(file, kernel, target, config, settings, true)
}

/// [`check_kernels`], or [`search_kernels`] when `search_only`.
fn kernels(
    file: &str,
    kernel: convcheck_lang::sema::Kernel,
    target: Option<convcheck_lang::sema::Kernel>,
    config: &crate::config::CheckConfig,
    settings: &Settings,
    search_only: bool,
) -> Result<Report> {
    let job = CheckJob::of(file, config);
    let plan = kernel::plan_kernels(file, kernel, target, &job, settings.engine)?;
    let plan = if search_only {
        plan.search_only()
    } else {
        plan
    };
    Ok(run(plan, &job, settings, &Silent))
}

impl Plan {
    /// The plan of a check that only looks for counterexamples (a fuzz
    /// campaign): under the batch policy, a stage the explicit engine alone
    /// preserved with inexact value domains stays preserved, which counts
    /// "no counterexample among the values tried", instead of inconclusive.
    pub fn search_only(mut self) -> Plan {
        if let Policy::Batch { search_only, .. } = &mut self.policy {
            *search_only = true;
        }
        self
    }
}

/// Settings with the engine `engine` and the default budgets.
pub fn with_engine(engine: Engine) -> Settings {
    Settings {
        engine,
        ..Settings::default()
    }
}
