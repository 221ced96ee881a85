//! `convcheck run`: one kernel, one scenario, its trace table.

use crate::config::Format;
use crate::{load_kernel, Error, Output};
use convcheck_ir::cycles::all_hierarchies;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::run_scenario;
use convcheck_ir::hazards::{hazards, HazardReport};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::table::{self, Table};
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use std::fmt::Write;

use convcheck_ir::cycles::HIERARCHY_CAP as HIERARCHY_LIMIT;

/// Semantic levels of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Seed 000's source-level convergence.
    Source,
    /// The lowered CFG: LLVM's maximal convergence, or tokens.
    Cfg,
}

/// What computes converged-with in `run`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Relation {
    /// Convergence keys (DESIGN.md 2.3).
    #[default]
    Keys,
    /// The relational model in z3 (DESIGN.md 2.5).
    Smt,
}

/// What `run` is asked: a kernel or LLVM IR file, a scenario, a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunArgs {
    /// The kernel file, or a `.ll` file.
    pub file: String,
    /// The kernel entry (default: the only function no other calls).
    pub function: Option<String>,
    /// One thread's oracle values per entry, `name=v0,v1,... name2=...`,
    /// in `tid` order; empty for the default scenario (two threads).
    pub threads: Vec<String>,
    /// The thread indices of the rows (default `0,1,...`).
    pub tids: Vec<u32>,
    /// The group size `N` (default: the number of threads, or one more
    /// than the largest of `tids`).
    pub group: Option<u32>,
    /// Instructions one thread may execute before the run is inconclusive.
    pub fuel: u64,
    /// Which semantics (`None`: the file's own default, the source level
    /// for a kernel, the CFG for LLVM IR).
    pub level: Option<Level>,
    /// At the CFG level, lower with convergence-control tokens.
    pub tokens: bool,
    /// Output format (text or JSON).
    pub format: Format,
    /// What computes converged-with.
    pub engine: Relation,
    /// Passes to run on the lowered module first (CFG level).
    pub passes: Vec<String>,
    /// For a source compiled by clang (`--frontend clang`): the front end
    /// and its options; the run is of clang's output.
    pub llvm: crate::llvm::LlvmOptions,
}

impl Default for RunArgs {
    fn default() -> RunArgs {
        RunArgs {
            file: String::new(),
            function: None,
            threads: Vec::new(),
            tids: Vec::new(),
            group: None,
            fuel: 100_000,
            level: None,
            tokens: false,
            format: Format::Text,
            engine: Relation::Keys,
            passes: Vec::new(),
            llvm: crate::llvm::LlvmOptions::default(),
        }
    }
}

impl RunArgs {
    /// The level asked for, the source level by default.
    pub fn level(&self) -> Level {
        self.level.unwrap_or(Level::Source)
    }
}

/// A scenario's run: the values each thread read and the table.
pub struct RunReport {
    /// The values each thread actually read, in `tid` order.
    pub values: Vec<ThreadValues>,
    /// The trace table.
    pub table: Table,
    /// At the CFG level, how the cycle hierarchy was chosen and whether
    /// the table depends on it.
    pub hierarchy: Option<String>,
    /// Races, barrier divergence and data-carrying barrier values
    /// (DESIGN.md 2.6).
    pub hazards: HazardReport,
}

/// Runs `scenario` on `function` of `kernel` at the source level and
/// builds its table. Errors are outcomes to return.
pub fn run_report(
    kernel: &Kernel,
    function: Option<&str>,
    scenario: &Scenario,
    fuel: u64,
) -> Result<RunReport, Error> {
    run_report_at(kernel, None, function, scenario, fuel)
}

/// Like [`run_report`], on the CFGs of `program` when given. At the CFG
/// level the scenario is run under every cycle hierarchy (at most 16) and
/// the report says which one LLVM picks and whether the table is the same
/// under all of them.
pub fn run_report_at(
    kernel: &Kernel,
    program: Option<&CfgProgram>,
    function: Option<&str>,
    scenario: &Scenario,
    fuel: u64,
) -> Result<RunReport, Error> {
    let mut report = run_once(kernel, program, function, scenario, fuel)?;
    if let Some(p) = program {
        let entry = kernel.entry(function).map_err(Error::usage)?;
        let labels = report.table.labels();
        report.hierarchy = Some(hierarchy_note(p, entry, &labels, &mut |alt| {
            run_once(kernel, Some(alt), function, scenario, fuel)
        })?);
    }
    Ok(report)
}

/// The note on cycle hierarchies of a run at the CFG level: the hierarchy
/// LLVM picks (the program's own), and whether the table (`labels`) is the
/// same when the run is repeated (`rerun`) under each other hierarchy of
/// the entry function, at most [`HIERARCHY_LIMIT`]. `run` and the
/// explorer's runs in a chosen group both use it.
pub(crate) fn hierarchy_note(
    p: &CfgProgram,
    entry: convcheck_ir::FuncId,
    labels: &[Vec<Option<String>>],
    rerun: &mut dyn FnMut(&CfgProgram) -> Result<RunReport, Error>,
) -> Result<String, Error> {
    let cfg = &p.module.functions[entry];
    let all = all_hierarchies(cfg, HIERARCHY_LIMIT);
    let first = p.cycles[entry].describe(cfg);
    let mut note = if first.is_empty() {
        "no cycle".to_string()
    } else {
        format!("cycle hierarchy (LLVM's depth-first choice):\n{first}")
    };
    if all.len() > 1 {
        let mut differs = Vec::new();
        for h in &all[1..] {
            let mut alt = p.clone();
            alt.cycles[entry] = h.clone();
            let r = rerun(&alt)?;
            if r.table.labels() != labels {
                differs.push(h.describe(cfg));
            }
        }
        let capped = if all.len() >= HIERARCHY_LIMIT {
            "the first "
        } else {
            "all "
        };
        if differs.is_empty() {
            let _ = write!(
                note,
                "\nthe table is the same under {capped}{} cycle hierarchies",
                all.len()
            );
        } else {
            let _ = write!(
                note,
                "\nthe table differs under {} of {capped}{} cycle hierarchies, e.g. with\n{}",
                differs.len(),
                all.len(),
                differs[0]
            );
        }
    }
    Ok(note)
}

fn run_once(
    kernel: &Kernel,
    program: Option<&CfgProgram>,
    function: Option<&str>,
    scenario: &Scenario,
    fuel: u64,
) -> Result<RunReport, Error> {
    let entry = kernel.entry(function).map_err(Error::usage)?;
    let code = crate::Code::new(kernel, program)?;
    let module = code.module();
    scenario.validate(module).map_err(Error::usage)?;
    let traces = run_scenario(code.program(), entry, scenario, fuel)
        .map_err(|(t, why)| Error::inconclusive(format!("thread {t}: {why}")))?;
    not_a_scenario(module, &traces).map_err(Error::usage)?;
    let values = traces.iter().map(|tr| tr.values(module)).collect();
    let rows = (0..traces.len()).map(|t| format!("tid {t}")).collect();
    let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let table = table::build(module, rows, &runs).map_err(Error::internal)?;
    let hazards = hazards(module, &runs);
    Ok(RunReport {
        values,
        table,
        hierarchy: None,
        hazards,
    })
}

/// An error when two threads read a uniform oracle in one converged
/// dynamic instance, or a uniform-invariant one anywhere, with different
/// values: such values are no scenario of the kernel (DESIGN.md 2.2).
fn not_a_scenario(
    module: &convcheck_ir::Module,
    traces: &[convcheck_ir::exec::Trace],
) -> Result<(), String> {
    for (a, ta) in traces.iter().enumerate() {
        for (b, tb) in traces.iter().enumerate().skip(a + 1) {
            if let Some((o, v, w)) = convcheck_ir::scenario::uniform_conflict(ta, tb) {
                let info = &module.oracles[o];
                let at = if info.class == convcheck_ir::OracleClass::Uniform {
                    " in one converged dynamic instance"
                } else {
                    ""
                };
                return Err(format!(
                    "not a scenario: threads {a} and {b} read the {} oracle `{}`{at} as {v} and {w}",
                    info.class.name().replace('_', "-"),
                    info.name
                ));
            }
        }
    }
    Ok(())
}

/// The JSON object of `run --format json` (docs/src/cli.md): the table,
/// the file, function, level (`source`, `cfg` or `cfg-tokens`) and passes,
/// the cycle hierarchy note, the values each thread read (`tid` counted
/// from 0 in row order) and the hazards. The explorer answers the same
/// object.
pub fn run_json(
    report: &RunReport,
    file: &str,
    function: &str,
    level: &str,
    passes: &[String],
) -> serde_json::Value {
    let mut obj = report.table.to_json();
    obj["file"] = serde_json::json!(file);
    obj["function"] = serde_json::json!(function);
    obj["level"] = serde_json::json!(level);
    obj["passes"] = serde_json::json!(passes);
    if let Some(h) = &report.hierarchy {
        obj["cycle_hierarchy"] = serde_json::json!(h);
    }
    obj["threads"] = serde_json::json!(report
        .values
        .iter()
        .enumerate()
        .map(|(t, v)| serde_json::json!({"tid": t, "values": v.0}))
        .collect::<Vec<_>>());
    obj["hazards"] = crate::hazard_report::to_json(&report.hazards);
    obj
}

/// The group of `--tids` and `--group`, when either is given: `n` threads
/// (one per `--thread`) with distinct indices below the group size.
pub(crate) fn group_of(
    a: &RunArgs,
    n: usize,
) -> Result<Option<crate::explore::group::Group>, String> {
    if a.tids.is_empty() && a.group.is_none() {
        return Ok(None);
    }
    let tids: Vec<u32> = if a.tids.is_empty() {
        (0..n as u32).collect()
    } else {
        a.tids.clone()
    };
    if tids.len() != n {
        return Err(format!(
            "--tids gives {} thread indices for {n} threads (one --thread per row)",
            tids.len()
        ));
    }
    let mut sorted = tids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != tids.len() {
        return Err("--tids: thread indices must be distinct".into());
    }
    let largest = sorted.last().copied().unwrap_or(0);
    let size = a.group.unwrap_or(largest.saturating_add(1).max(n as u32));
    if size == 0 || largest >= size {
        return Err(format!(
            "--group {size}: every thread index must be below the group size (largest: {largest})"
        ));
    }
    Ok(Some(crate::explore::group::Group { tids, size }))
}

/// The `run` command: a kernel-language file, or LLVM IR (a `.ll` file,
/// [`crate::run_llvm`]).
pub fn run(a: &RunArgs) -> Result<Output, Error> {
    if crate::llvm::is_ll(&a.file) || a.llvm.frontend.is_some() {
        return crate::run_llvm::run(a);
    }
    let kernel = load_kernel(&a.file)?;
    let scenario = if a.threads.is_empty() {
        Scenario::default_for(&kernel.module(), a.tids.len().max(2) as u32)
    } else {
        let mut threads = Vec::new();
        for (t, text) in a.threads.iter().enumerate() {
            match ThreadValues::parse(text) {
                Ok(v) => threads.push(v),
                Err(e) => return Err(Error::usage(format!("--thread {t}: {e}"))),
            }
        }
        Scenario { threads }
    };
    if !a.passes.is_empty() && a.level() == Level::Source {
        return Err(Error::usage(
            "--pass transforms the CFG: use it with --level cfg",
        ));
    }
    let program = match a.level() {
        Level::Source => None,
        Level::Cfg => {
            let lowered = lower(&kernel, a.tokens);
            let stages = crate::apply_passes(&lowered, &a.passes)?;
            let module = stages.last().map_or(lowered, |s| s.2.clone());
            Some(CfgProgram::new(module))
        }
    };
    let level = match (a.level(), a.tokens) {
        (Level::Source, _) => "source",
        (Level::Cfg, false) => "cfg",
        (Level::Cfg, true) => "cfg-tokens",
    };
    let group = match group_of(a, scenario.threads.len()) {
        Ok(g) => g,
        Err(e) => return Err(Error::usage(e)),
    };
    let report = match &group {
        None => run_report_at(
            &kernel,
            program.as_ref(),
            a.function.as_deref(),
            &scenario,
            a.fuel,
        ),
        Some(g) => match kernel.entry(a.function.as_deref()) {
            Ok(entry) => crate::explore::group::run_in_group(
                &kernel,
                program.as_ref(),
                entry,
                &scenario.threads,
                g,
                a.fuel,
            ),
            Err(e) => Err(Error::usage(e)),
        },
    };
    let report = report?;
    let report = match a.engine {
        Relation::Keys => report,
        Relation::Smt => {
            let args = (a.function.as_deref(), &scenario, a.fuel);
            crate::smt_run::smt_report(&kernel, program.as_ref(), args, report)?
        }
    };
    let function = match kernel.entry(a.function.as_deref()) {
        Ok(f) => kernel.functions[f].name.clone(),
        Err(e) => return Err(Error::usage(e)),
    };
    let shown = Shown {
        file: &a.file,
        function: &function,
        level,
        passes: &a.passes,
        group: group.as_ref(),
    };
    Ok(render_run(&report, &shown, a.format))
}

/// What a run's output names besides its report.
pub(crate) struct Shown<'a> {
    /// The file as given.
    pub file: &'a str,
    /// The function that ran.
    pub function: &'a str,
    /// `source`, `cfg` or `cfg-tokens`.
    pub level: &'a str,
    /// The `--pass` pipeline.
    pub passes: &'a [String],
    /// The group of `--tids` and `--group`, when given.
    pub group: Option<&'a crate::explore::group::Group>,
}

/// The output of `run` in `format`: the header, the hierarchy note, the
/// values each thread read, the table and the hazards (text), or the
/// object of [`run_json`] (JSON).
pub(crate) fn render_run(report: &RunReport, shown: &Shown, format: Format) -> Output {
    let (file, function, level) = (shown.file, shown.function, shown.level);
    let group = shown.group;
    match format {
        Format::Json => {
            let mut obj = run_json(report, file, function, level, shown.passes);
            if let Some(g) = group {
                obj["group"] = serde_json::json!(g.size);
                if let Some(threads) = obj["threads"].as_array_mut() {
                    for (t, &tid) in threads.iter_mut().zip(&g.tids) {
                        t["tid"] = serde_json::json!(tid);
                    }
                }
            }
            Output::holds(format!("{obj}\n"))
        }
        Format::Text | Format::Sarif => {
            let mut out = String::new();
            let what = match level {
                "source" => "source level",
                "cfg" => "CFG level, maximal convergence",
                _ => "CFG level, convergence-control tokens",
            };
            let _ = writeln!(out, "{} `{}` ({what})", file, function);
            if !shown.passes.is_empty() {
                let _ = writeln!(out, "  after {}", shown.passes.join(", then "));
            }
            if let Some(h) = &report.hierarchy {
                for line in h.lines() {
                    let _ = writeln!(out, "  {line}");
                }
            }
            if let Some(g) = group {
                let _ = writeln!(out, "  group: N={}", g.size);
            }
            for (k, v) in report.values.iter().enumerate() {
                let tid = group.map_or(k as u32, |g| g.tids[k]);
                let _ = writeln!(out, "  tid {tid}: {}", v.render());
            }
            out.push_str(&report.table.render());
            out.push_str(&crate::hazard_report::to_text(&report.hazards));
            Output::holds(out)
        }
    }
}
