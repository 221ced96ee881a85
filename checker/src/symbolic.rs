//! `convcheck check --engine smt`: the checker's pipeline (lowering, passes,
//! a verdict per stage; DESIGN.md 2.7, section 4) decided by the symbolic
//! two-thread product of `convcheck_smt::product` (DESIGN.md 2.5, use 2)
//! instead of the explicit enumeration of [`crate::engine`].
//!
//! **What each stage is compared with.** The product engine compares two
//! CFG programs. With `--reference cfg` every stage is compared with the
//! lowered CFG of the reference kernel. With `--reference source` the
//! first stage (the lowering, or the target file) needs the source-level
//! semantics, which only the explicit engine runs: that stage is decided
//! by the explicit engine under the check's budget, and every later stage
//! is compared symbolically with the first stage's CFG. Within the bounds
//! the two steps compose: when the lowering is preserved (the CFG relates
//! instances as the source does) and a pass's output relates them as that
//! CFG does, it relates them as the source does. The explicit first stage
//! gets half the time budget, the symbolic stages the rest. A violation
//! against the CFG of stage 1 is a violation of the pipeline when the
//! source's convergence is determined (no implementation-defined region,
//! DESIGN.md 2.4): in that scenario either the lowering or the pass
//! changed what the source does; its tables show the CFG of stage 1 as
//! the reference. With implementation-defined regions in the source it
//! may be an alarm the source's set of relations allows (not yet told
//! apart).
//!
//! **Answers to verdicts.** A counterexample (already replayed by the
//! interpreter inside the engine) is `violated`, with the same trace
//! tables and replay lines as the explicit engine's
//! ([`crate::render`]); no counterexample within the bounds is
//! `preserved`, with the bounds listed (iterations per cycle of the
//! reference, how far the target was unrolled, what the bound cut); a
//! proof by structure ([`Proof::Structure`]) holds for every iteration
//! count and is `proved`; an unknown answer (a timeout, a construct the
//! engine does not model, a target that needs more unrolling) is
//! `inconclusive` with the engine's reason. The check's verdict is
//! `violated` if a stage is, else `inconclusive` if a stage is, else
//! `proved` if every stage is, else `preserved`. Exit codes, JSON and
//! SARIF are those of the explicit engine's reports, with the symbolic
//! bounds in `"bounds"` and `"engine": "smt"`.

pub mod cross;
mod progress;
pub(crate) mod render;
mod search;

pub use progress::Ticker;

pub use render::{bounds_lines, render_symbolic_json, render_symbolic_sarif, render_symbolic_text};
use search::{explicit_search, smallest_counterexample, QUICK};

use crate::check::{CheckReport, StageReport};
use crate::cli::{CheckArgs, ReportFormat};
use crate::config::{CheckConfig, Reference, Verdict};
use crate::engine::{
    compare_stages, Allowance, At, Budget, Coverage, Finding, Limits, Outcome as EngineOutcome,
    Property, Side, Which,
};
use crate::{load_kernel, Outcome};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Bounds;
use convcheck_ir::Module;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_smt::product::{self, Preserved, ProductOptions, Proof};
use convcheck_smt::Answer;
use std::time::{Duration, Instant};

/// Which engine decides a check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// The symbolic product for every stage it models, the explicit engine
    /// for a stage it does not (an anchor, a removed barrier's hazards,
    /// recursion), never for one it ran out of budget on.
    #[default]
    Auto,
    /// Explicit enumeration of scenarios and paths ([`crate::engine`]).
    Explicit,
    /// The symbolic two-thread product solved by z3 (this module); on
    /// LLVM IR the explicit engine decides what it does not model.
    Smt,
}

/// Whether an unknown answer of the product engine is a budget (time,
/// block copies), which the explicit engine would not do better on, rather
/// than a construct the product does not model.
pub(crate) fn is_budget(why: &str) -> bool {
    [
        "time budget",
        "timeout",
        "canceled",
        "block copies",
        "memory",
    ]
    .iter()
    .any(|w| why.contains(w))
}

/// Block copies per program the symbolic engine may build before a stage
/// is inconclusive (the engine's memory budget).
pub const MAX_COPIES: usize = 200_000;

/// How the symbolic engine decided a stage.
#[derive(Clone, Debug)]
pub enum StageDetail {
    /// Decided by the explicit engine (the source-level first stage).
    Explicit,
    /// The product engine's answer: preserved within bounds, or proved.
    Symbolic(Preserved),
    /// A counterexample or an unknown answer of the product engine.
    Other,
}

/// A check decided by the symbolic engine: the explicit engine's report
/// shape (stages, findings, modules) with how each stage was decided.
pub struct SymbolicReport {
    /// The report the renderers read; preserved stages carry no scenario
    /// counts.
    pub report: CheckReport,
    /// One entry per stage.
    pub details: Vec<StageDetail>,
    /// Per stage, what a counterexample's reference table shows when it
    /// is not the report's reference: `the CFG of stage 1` (later stages
    /// at the source level), `the token CFG of the source` (a lowering
    /// stage the product decided against the stand-in).
    pub against: Vec<Option<&'static str>>,
    /// Stages decided by the quick explicit search.
    pub quick: Vec<usize>,
    /// The time budget of the whole check.
    pub timeout: Duration,
}

impl SymbolicReport {
    /// Whether stage `i` was proved for every iteration count.
    pub fn proved(&self, i: usize) -> bool {
        matches!(
            self.details.get(i),
            Some(StageDetail::Symbolic(p)) if p.proof.is_unbounded()
        )
    }

    /// The verdict: the explicit rule, and `proved` when every stage is.
    pub fn verdict(&self) -> Verdict {
        match self.report.verdict() {
            Verdict::Preserved if (0..self.details.len()).all(|i| self.proved(i)) => {
                Verdict::Proved
            }
            v => v,
        }
    }

    fn stage_verdict(&self, i: usize) -> &'static str {
        match &self.report.stages[i].outcome {
            EngineOutcome::Preserved { .. } if self.proved(i) => "proved",
            EngineOutcome::Preserved { .. } => "preserved",
            EngineOutcome::Violated(_) => "violated",
            EngineOutcome::Inconclusive(_) => "inconclusive",
        }
    }
}

/// Runs the check described by `a` with the symbolic engine under
/// `budget` (its time budget; the pair and event budgets apply to an
/// explicit first stage only).
pub fn run_check(
    file: &str,
    kernel: Kernel,
    target_kernel: Option<Kernel>,
    a: &CheckConfig,
    budget: &Budget,
    engine: Engine,
    ticker: &Ticker,
) -> Result<SymbolicReport, Outcome> {
    let entry = kernel
        .entry(a.function.as_deref())
        .map_err(Outcome::usage)?;
    let mut passes = Vec::new();
    for p in &a.passes {
        passes.push(
            convcheck_transforms::lookup(p)
                .map_err(|e| Outcome::usage(format!("--pass {p}: {e}")))?,
        );
    }
    let bounds = Bounds {
        max_iters: a.max_iters,
        fuel: a.fuel,
        max_paths: a.max_paths,
        ..Bounds::default()
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
    let reference_cfg = CfgProgram::new(lower(&kernel, a.tokens));
    // The stages: (name, program, allowance, notes, level).
    let mut stages: Vec<(String, CfgProgram, Allowance, Vec<String>, String)> = Vec::new();
    let mut module: Module = lower(tk, a.tokens);
    let source_target_file =
        target_kernel.is_some() && a.reference == Reference::Source && passes.is_empty();
    if a.reference == Reference::Source || target_kernel.is_some() {
        let (name, level) = if source_target_file {
            ("target file".to_string(), "source level".to_string())
        } else {
            (format!("lower{tokens}"), format!("CFG{tokens}"))
        };
        stages.push((
            name,
            CfgProgram::new(module.clone()),
            Allowance::Exact,
            Vec::new(),
            level,
        ));
    }
    let mut allow = Allowance::Exact;
    for pass in &passes {
        let notes = pass
            .run(&mut module)
            .map_err(|e| Outcome::usage(format!("pass {}: {e}", pass.name())))?;
        let own = format!("@{}:", tk.functions[tentry].name);
        let notes: Vec<String> = notes
            .into_iter()
            .filter(|n| n.starts_with(&own) || !n.starts_with('@'))
            .collect();
        if pass.contract() == convcheck_transforms::Contract::RemovesBarriers {
            allow = Allowance::Barriers;
        }
        stages.push((
            pass.name(),
            CfgProgram::new(module.clone()),
            allow,
            notes,
            format!("after {}", pass.name()),
        ));
    }
    let timeout = budget.timeout.unwrap_or(crate::engine::DEFAULT_TIMEOUT);
    let deadline = budget.start + timeout;
    let mut outcomes: Vec<EngineOutcome> = Vec::new();
    let mut details: Vec<StageDetail> = Vec::new();
    let mut coverage = Coverage::default();
    let mut explicit_module = None;
    let mut stand_in_used = false;
    let mut against: Vec<Option<&'static str>> = Vec::new();
    // Stages whose counterexample the quick explicit search found.
    let mut quick: Vec<usize> = Vec::new();
    let mut fallback_notes: Vec<(usize, String)> = Vec::new();
    // The CFG the symbolic stages are compared with.
    let mut base: &CfgProgram = &reference_cfg;
    // The source level's code, and a second source file's, for the first
    // stage at the source reference (built once for its searches).
    let source_code = match a.reference {
        Reference::Source => Some(crate::Code::new(&kernel, None)?),
        Reference::Cfg => None,
    };
    let target_source_code = match source_target_file {
        true => Some(crate::Code::new(tk, None)?),
        false => None,
    };
    let count = stages.len();
    for (i, (name, program, allow, _, _)) in stages.iter().enumerate() {
        ticker.set(format!("stage {} of {count} ({name})", i + 1));
        if let (0, Some(code)) = (i, &source_code) {
            let source = Side {
                program: code.program(),
                cfg: None,
                entry,
            };
            let target_side = match &target_source_code {
                Some(t) => Side {
                    program: t.program(),
                    cfg: None,
                    entry: tentry,
                },
                None => Side::cfg(program, tentry),
            };
            if engine == Engine::Auto {
                let found =
                    explicit_search(&source, &target_side, *allow, a, budget, deadline, &QUICK);
                if let Some(o) = found {
                    explicit_module = Some(code.module().clone());
                    quick.push(i);
                    against.push(None);
                    outcomes.push(o);
                    details.push(StageDetail::Other);
                    base = program;
                    continue;
                }
            }
            if let Some(stand_in) = token_stand_in(&kernel, source_target_file) {
                let (mut outcome, detail) = symbolic_stage(
                    &stand_in,
                    program,
                    (entry, tentry),
                    a,
                    *allow,
                    (budget.start + timeout / 2, timeout, budget.solver_memory_mb),
                );
                if !matches!(outcome, EngineOutcome::Inconclusive(_)) {
                    stand_in_used = true;
                    let mut refined = false;
                    if engine == Engine::Auto && matches!(outcome, EngineOutcome::Violated(_)) {
                        let smaller = smallest_counterexample(
                            &source,
                            &target_side,
                            *allow,
                            a,
                            budget,
                            deadline,
                        );
                        if let Some(o) = smaller {
                            outcome = o;
                            explicit_module = Some(code.module().clone());
                            refined = true;
                        }
                    }
                    against.push((!refined).then_some("the token CFG of the source"));
                    outcomes.push(outcome);
                    details.push(detail);
                    base = program;
                    continue;
                }
            }
            let limits = Limits {
                bounds,
                group: a.threads,
            };
            // Half the time budget: the symbolic stages need the rest.
            let half = Budget {
                timeout: Some(timeout / 2),
                ..*budget
            };
            let c = compare_stages(
                &source,
                &[(target_side, *allow)],
                limits,
                &half,
                &mut |_| {},
            );
            coverage = c.coverage;
            explicit_module = Some(code.module().clone());
            outcomes.extend(c.outcomes);
            details.push(StageDetail::Explicit);
            against.push(None);
            base = program;
            continue;
        }
        if engine == Engine::Auto {
            let found = explicit_search(
                &Side::cfg(base, entry),
                &Side::cfg(program, tentry),
                *allow,
                a,
                budget,
                deadline,
                &QUICK,
            );
            if let Some(o) = found {
                quick.push(i);
                against.push((a.reference == Reference::Source).then_some("the CFG of stage 1"));
                outcomes.push(o);
                details.push(StageDetail::Other);
                continue;
            }
        }
        let (mut outcome, mut detail) = symbolic_stage(
            base,
            program,
            (entry, tentry),
            a,
            *allow,
            (deadline, timeout, budget.solver_memory_mb),
        );
        let unmodelled = match &outcome {
            EngineOutcome::Inconclusive(why) if !is_budget(why) => Some(why.clone()),
            _ => None,
        };
        if engine == Engine::Auto && matches!(outcome, EngineOutcome::Violated(_)) {
            if let Some(o) = smallest_counterexample(
                &Side::cfg(base, entry),
                &Side::cfg(program, tentry),
                *allow,
                a,
                budget,
                deadline,
            ) {
                outcome = o;
            }
        }
        if let (Engine::Auto, Some(why)) = (engine, unmodelled) {
            let rest = Budget {
                timeout: Some(deadline.saturating_duration_since(Instant::now())),
                ..*budget
            };
            let c = compare_stages(
                &Side::cfg(base, entry),
                &[(Side::cfg(program, tentry), *allow)],
                Limits {
                    bounds,
                    group: a.threads,
                },
                &rest,
                &mut |_| {},
            );
            if details.iter().all(|d| !matches!(d, StageDetail::Explicit)) {
                coverage = c.coverage;
            }
            if let Some(o) = c.outcomes.into_iter().next() {
                outcome = o;
                detail = StageDetail::Explicit;
                fallback_notes.push((i, format!("{why}: decided by the explicit engine")));
            }
        }
        against.push((a.reference == Reference::Source).then_some("the CFG of stage 1"));
        outcomes.push(outcome);
        details.push(detail);
    }
    let reference_module = explicit_module.unwrap_or_else(|| reference_cfg.module.clone());
    let stages: Vec<StageReport> = stages
        .into_iter()
        .zip(outcomes)
        .enumerate()
        .map(|(i, ((name, _, _, mut notes, level), outcome))| {
            if i == 0 && stand_in_used {
                notes.insert(0, STAND_IN_NOTE.to_string());
            }
            if quick.contains(&i) {
                notes.insert(0, QUICK_NOTE.to_string());
            }
            for (_, n) in fallback_notes.iter().filter(|(j, _)| *j == i) {
                notes.insert(0, n.clone());
            }
            StageReport {
                name,
                outcome,
                notes,
                target_level: level,
            }
        })
        .collect();
    let mut report = CheckReport {
        file: file.to_string(),
        function: kernel.functions[entry].name.clone(),
        reference: a.reference,
        bounds,
        threads: a.threads,
        stages,
        reference_module,
        target_module: tk.module(),
        paths: coverage.paths,
        coverage,
        budget: *budget,
        target_file: None,
    };
    report.coverage.fixed_group = a.threads > 0;
    Ok(SymbolicReport {
        report,
        details,
        against,
        quick,
        timeout,
    })
}

/// The note of a stage whose counterexample the quick explicit search
/// found before the product ran.
pub const QUICK_NOTE: &str =
    "counterexample found by the explicit engine at max-iters 1 (its quick \
search before the symbolic product)";

/// The note of a lowering stage decided against the token stand-in.
pub const STAND_IN_NOTE: &str = "reference: the source level, as the kernel's CFG lowered with \
convergence-control tokens (exact for kernels without implementation-defined regions or irreducible \
loops; docs/src/soundness.md)";

/// The CFG that stands in for the source level in a lowering stage: the
/// kernel lowered with tokens from its source structure (`--tokens`),
/// whose convergence is the source level's when the kernel has no
/// implementation-defined region (no anchor) and no irreducible loop
/// (checked on every example by `model/lang/tests/cfg.rs` and on seeded
/// random kernels against the explicit engine by
/// `tests/engines.rs::the_token_cfg_stands_in_for_the_source_level`).
/// `None` where that does not hold, or when the target is a second source
/// file.
fn token_stand_in(kernel: &Kernel, source_target_file: bool) -> Option<CfgProgram> {
    if source_target_file || !kernel.members.is_empty() || !kernel.irreducible.is_empty() {
        return None;
    }
    let program = CfgProgram::new(lower(kernel, true));
    let reducible = program
        .cycles
        .iter()
        .all(|c| c.cycles.iter().all(|y| y.is_reducible()));
    reducible.then_some(program)
}

/// A proof by a simulation relation (`convcheck_smt::simulation`) of a
/// stage the structural rule does not prove, within a tenth of the time
/// left (at most 5 s); `None` when none is found.
fn simulated(
    base: &CfgProgram,
    program: &CfgProgram,
    entries: (usize, usize),
    opts: &ProductOptions,
) -> Option<Preserved> {
    // The product proves by structure first (after erasing aligned
    // tokens), which is cheaper and says more.
    let erased = (
        product::tokens::erase_aligned(base),
        product::tokens::erase_aligned(program),
    );
    let (b, p) = (
        erased.0.as_ref().unwrap_or(base),
        erased.1.as_ref().unwrap_or(program),
    );
    if entries.0 == entries.1 && product::by_structure(b, p, entries.0).is_some() {
        return None;
    }
    let sim = convcheck_smt::simulation::SimOptions {
        timeout: (opts.timeout / 10).min(Duration::from_secs(5)),
        allow_barrier_removal: opts.allow_barrier_removal,
        memory_mb: opts.memory_mb,
        ..Default::default()
    };
    match convcheck_smt::simulation::prove_programs(base, entries.0, program, entries.1, &sim) {
        convcheck_smt::simulation::SimAnswer::Proved(c) => Some(Preserved {
            max_iters: opts.max_iters,
            target_iters: opts.max_iters,
            group: opts.group,
            cut: None,
            copies: [0, 0],
            events: [0, 0],
            proof: Proof::Simulation {
                nodes: c.nodes.len(),
                steps: c.edges,
            },
        }),
        _ => None,
    }
}

/// One stage decided by the product engine: `program` against `base`.
fn symbolic_stage(
    base: &CfgProgram,
    program: &CfgProgram,
    entries: (usize, usize),
    a: &CheckConfig,
    allow: Allowance,
    (deadline, timeout, memory_mb): (Instant, Duration, u64),
) -> (EngineOutcome, StageDetail) {
    let left = deadline.saturating_duration_since(Instant::now());
    let opts = ProductOptions {
        max_iters: a.max_iters,
        group: (a.threads > 0).then_some(a.threads),
        allow_barrier_removal: allow == Allowance::Barriers,
        timeout: left,
        max_copies: MAX_COPIES,
        memory_mb,
    };
    let answer = if left.is_zero() {
        Answer::Unknown(format!("time budget {} s reached", timeout.as_secs()))
    } else if let Some(p) = simulated(base, program, entries, &opts) {
        Answer::Proved(p)
    } else {
        product::compare_at(base, program, [entries.0, entries.1], &opts)
    };
    let (outcome, detail) = match answer {
        Answer::Proved(p) => (
            EngineOutcome::Preserved { pairs: 0, cut: 0 },
            StageDetail::Symbolic(p),
        ),
        Answer::Unknown(why) => (
            EngineOutcome::Inconclusive(format!("smt: {why}")),
            StageDetail::Other,
        ),
        Answer::Counterexample(c) => (
            EngineOutcome::Violated(Box::new(finding_of(c, &base.module))),
            StageDetail::Other,
        ),
    };
    (outcome, detail)
}

/// A replayed product counterexample as the explicit engine's finding
/// (`reference` is the module its reference runs are of).
pub(crate) fn finding_of(c: product::Counterexample, reference: &Module) -> Finding {
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

/// `convcheck check --engine smt` on the command line, for kernel-language
/// files (LLVM IR goes through `crate::llvm`, which runs the product too).
pub fn check_cli(a: &CheckArgs, budget: &Budget) -> Outcome {
    check_with(a, budget, Engine::Smt, false)
}

/// `convcheck check --engine smt`.
pub fn check_with(a: &CheckArgs, budget: &Budget, engine: Engine, tty: bool) -> Outcome {
    let kernel = match load_kernel(&a.src) {
        Ok(k) => k,
        Err(o) => return o,
    };
    let target_kernel = match &a.tgt {
        Some(t) => match load_kernel(t) {
            Ok(k) => Some(k),
            Err(o) => return o,
        },
        None => None,
    };
    let ticker = Ticker::start(tty);
    let result = run_check(
        &a.src,
        kernel,
        target_kernel,
        &a.config(),
        budget,
        engine,
        &ticker,
    );
    drop(ticker);
    let mut r = match result {
        Ok(r) => r,
        Err(o) => return o,
    };
    r.report.target_file.clone_from(&a.tgt);
    if r.report.stages.is_empty() {
        return Outcome::usage(
            "nothing to check: with --reference cfg give at least one --pass or a target file",
        );
    }
    let stdout = match a.format {
        ReportFormat::Text => render_symbolic_text(&r),
        ReportFormat::Json => format!("{}\n", render_symbolic_json(&r)),
        ReportFormat::Sarif => format!("{}\n", render_symbolic_sarif(&r)),
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code: r.verdict().exit_code(),
    }
}
