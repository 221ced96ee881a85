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
use crate::engine::{
    compare_any_hierarchy, Allowance, Finding, Limits, Outcome as EngineOutcome, Side,
};
use crate::{load_kernel, Outcome, EXIT_INCONCLUSIVE, EXIT_OK, EXIT_USAGE, EXIT_VIOLATION};
use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{Bounds, Event, Trace};
use convcheck_ir::table::{self, Table};
use convcheck_ir::Module;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_transforms::{lookup, Contract, Pass};
use serde_json::json;
use std::fmt::Write;

/// The semantics the reference runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Reference {
    /// The kernel's source-level convergence (lowering is checked too).
    Source,
    /// The lowered CFG's own semantics.
    Cfg,
}

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
    /// `preserved`, `violated` or `inconclusive`: the first stage that is
    /// not preserved decides.
    pub fn verdict(&self) -> &'static str {
        // A violation is definite even after an inconclusive stage.
        if self
            .stages
            .iter()
            .any(|s| matches!(s.outcome, EngineOutcome::Violated(_)))
        {
            "violated"
        } else if self
            .stages
            .iter()
            .any(|s| matches!(s.outcome, EngineOutcome::Inconclusive(_)))
        {
            "inconclusive"
        } else {
            "preserved"
        }
    }

    fn exit_code(&self) -> i32 {
        match self.verdict() {
            "violated" => EXIT_VIOLATION,
            "inconclusive" => EXIT_INCONCLUSIVE,
            _ => EXIT_OK,
        }
    }

    /// The first violated stage, else the first inconclusive one.
    fn first_broken(&self) -> Option<(usize, &StageReport)> {
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
    run_check_on(kernel, target_kernel, a)
}

/// Runs a check on kernels already loaded (`a.src` and `a.tgt` only name
/// them in the report).
pub fn run_check_on(
    kernel: Kernel,
    target_kernel: Option<Kernel>,
    a: &CheckArgs,
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
        file: a.src.clone(),
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

/// Builds the two tables of a finding.
fn tables(report: &CheckReport, f: &Finding) -> Result<(Table, Table), String> {
    let rows: Vec<String> = f.tids.iter().map(|t| format!("tid {t}")).collect();
    let runs = |ts: &[Trace]| -> Vec<Vec<Event>> { ts.iter().map(|t| t.events.clone()).collect() };
    let (r, t) = (runs(&f.reference), runs(&f.target));
    let rr: Vec<&[Event]> = r.iter().map(Vec::as_slice).collect();
    let tt: Vec<&[Event]> = t.iter().map(Vec::as_slice).collect();
    Ok((
        table::build(&report.reference_module, rows.clone(), &rr)?,
        table::build(&report.target_module, rows, &tt)?,
    ))
}

/// Two renderings next to each other, or one after the other if wide.
fn side_by_side(left_title: &str, left: &str, right_title: &str, right: &str) -> String {
    let l: Vec<&str> = std::iter::once(left_title).chain(left.lines()).collect();
    let r: Vec<&str> = std::iter::once(right_title).chain(right.lines()).collect();
    let w = l.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    let rw = r.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    if w + rw + 4 > 120 {
        for line in l.iter().chain(std::iter::once(&"")).chain(r.iter()) {
            let _ = writeln!(out, "  {line}");
        }
        return out;
    }
    for k in 0..l.len().max(r.len()) {
        let a = l.get(k).copied().unwrap_or("");
        let b = r.get(k).copied().unwrap_or("");
        let pad = w - a.chars().count();
        let _ = writeln!(out, "  {a}{}    {b}", " ".repeat(pad));
    }
    out
}

fn replay(report: &CheckReport, f: &Finding) -> String {
    let mut s = format!(
        "convcheck run {} --function {}",
        report.file, report.function
    );
    for t in &f.threads {
        let _ = write!(s, " --thread '{}'", t.render());
    }
    s
}

/// The text report.
pub fn render_text(report: &CheckReport) -> String {
    let mut out = String::new();
    let reference = match report.reference {
        Reference::Source => "source level",
        Reference::Cfg => "CFG level",
    };
    let _ = writeln!(
        out,
        "convcheck check: {} `{}`, reference: {reference}, threads: {}, bounds: max-iters={} fuel={} max-paths={}",
        report.file,
        report.function,
        report.threads,
        report.bounds.max_iters,
        report.bounds.fuel,
        report.bounds.max_paths
    );
    for (i, s) in report.stages.iter().enumerate() {
        let line = match &s.outcome {
            EngineOutcome::Preserved { pairs, cut } => {
                format!("preserved ({pairs} scenarios; {cut} paths outside the bounds)")
            }
            EngineOutcome::Violated(_) => "VIOLATED".to_string(),
            EngineOutcome::Inconclusive(why) => format!("inconclusive: {why}"),
        };
        let _ = writeln!(out, "stage {}: {}: {line}", i + 1, s.name);
        for n in &s.notes {
            let _ = writeln!(out, "  note: {n}");
        }
    }
    if let Some((i, s)) = report.first_broken() {
        if let EngineOutcome::Violated(f) = &s.outcome {
            let _ = writeln!(out, "\ncounterexample (stage {}: {}):", i + 1, s.name);
            let prop = match f.property {
                crate::engine::Property::Convergence => "convergence",
                crate::engine::Property::SingleThreadBehaviour => "single-thread behaviour",
                crate::engine::Property::Hazards => "hazard-freedom",
            };
            let at = f
                .operation
                .as_ref()
                .map(|(l, line)| format!(" at `{l}` (line {line})"))
                .unwrap_or_default();
            let _ = writeln!(out, "  {prop}{at}: {}", f.message);
            let _ = writeln!(out, "  scenario:");
            for (t, v) in f.tids.iter().zip(&f.threads) {
                let _ = writeln!(out, "    tid {t}: {}", v.render());
            }
            match tables(report, f) {
                Ok((r, t)) => out.push_str(&side_by_side(
                    &format!("reference ({reference})"),
                    &r.render(),
                    &format!("target ({})", s.target_level),
                    &t.render(),
                )),
                Err(e) => {
                    let _ = writeln!(out, "  (tables unavailable: {e})");
                }
            }
            let _ = writeln!(out, "  replay: {}", replay(report, f));
        }
        let _ = writeln!(
            out,
            "\nverdict: {} (first at stage {}: {})",
            report.verdict(),
            i + 1,
            s.name
        );
    } else {
        let _ = writeln!(out, "\nverdict: preserved");
    }
    out
}

fn finding_json(report: &CheckReport, stage: usize, f: &Finding) -> serde_json::Value {
    let (rt, tt) = match tables(report, f) {
        Ok((r, t)) => (r.to_json(), t.to_json()),
        Err(e) => (json!({ "error": e }), json!(null)),
    };
    json!({
        "stage": report.stages[stage].name,
        "property": f.property,
        "message": f.message,
        "operation": f.operation.as_ref().map(|(l, line)| json!({"label": l, "line": line})),
        "threads": f.tids.iter().zip(&f.threads).map(|(t, v)| json!({"tid": t, "values": v.0})).collect::<Vec<_>>(),
        "reference_table": rt,
        "target_table": tt,
        "replay": replay(report, f),
    })
}

/// The JSON report (DESIGN.md section 4).
pub fn render_json(report: &CheckReport) -> serde_json::Value {
    let stages: Vec<serde_json::Value> = report
        .stages
        .iter()
        .map(|s| {
            let (verdict, extra) = match &s.outcome {
                EngineOutcome::Preserved { pairs, cut } => {
                    ("preserved", json!({"scenarios": pairs, "cut_paths": cut}))
                }
                EngineOutcome::Violated(_) => ("violated", json!({})),
                EngineOutcome::Inconclusive(w) => ("inconclusive", json!({"reason": w})),
            };
            let mut v = json!({"name": s.name, "verdict": verdict, "notes": s.notes});
            if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
                for (k, x) in e {
                    o.insert(k.clone(), x.clone());
                }
            }
            v
        })
        .collect();
    let counterexample = report.first_broken().and_then(|(i, s)| match &s.outcome {
        EngineOutcome::Violated(f) => Some(finding_json(report, i, f)),
        _ => None,
    });
    json!({
        "verdict": report.verdict(),
        "file": report.file,
        "function": report.function,
        "reference": match report.reference { Reference::Source => "source", Reference::Cfg => "cfg" },
        "threads": report.threads,
        "bounds": report.bounds,
        "stages": stages,
        "counterexample": counterexample,
    })
}

/// The SARIF 2.1.0 report: one result per violated stage, at the kernel
/// line of the failing operation.
pub fn render_sarif(report: &CheckReport) -> serde_json::Value {
    let mut results = Vec::new();
    for s in &report.stages {
        if let EngineOutcome::Violated(f) = &s.outcome {
            let line = f.operation.as_ref().map_or(1, |o| o.1.max(1));
            let rule = match f.property {
                crate::engine::Property::Convergence => "convergence",
                crate::engine::Property::SingleThreadBehaviour => "single-thread-behaviour",
                crate::engine::Property::Hazards => "hazards",
            };
            results.push(json!({
                "ruleId": rule,
                "level": "error",
                "message": {"text": format!("{}: {}", s.name, f.message)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": report.file},
                    "region": {"startLine": line}
                }}],
            }));
        }
    }
    json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "convcheck",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": [
                    {"id": "convergence", "shortDescription": {"text": "A transform changed which threads execute a convergent operation together"}},
                    {"id": "single-thread-behaviour", "shortDescription": {"text": "A transform changed a thread's observable events"}},
                    {"id": "hazards", "shortDescription": {"text": "A transform introduced a race or barrier divergence"}}
                ]
            }},
            "results": results,
        }]
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
fn count_paths(program: &dyn convcheck_ir::exec::Program, entry: usize, a: &CheckArgs) -> usize {
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
