//! The uniformity oracle (DESIGN.md 2.10, issue 23): LLVM's
//! UniformityAnalysis, which every GPU pass trusts, checked against the
//! model.
//!
//! **Definition.** A value is *dynamically divergent* when two threads
//! converged at one execution of its definition (maximal convergence, or
//! tokens where present: the interpreter's keys) can get different values
//! (LLVM ConvergenceAndUniformity, "Uniformity": "the output of two
//! converged dynamic instances is uniform if and only if it compares
//! equal"). LLVM's claims hold for every cycle hierarchy, so every
//! hierarchy is examined.
//!
//! **Direction.** A value or branch LLVM calls *uniform* that a two-thread
//! scenario shows divergent is a *finding* (the analysis is wrong, and
//! every pass that trusted it may miscompile). A value LLVM calls
//! *divergent* that the model shows uniform in every scenario within the
//! bounds is *imprecision*, counted, never a finding.
//!
//! The pieces: [`printer`] runs `opt -passes='print<uniformity>'` and reads
//! its claims; `model` maps the function, takes LLVM's word on its inputs,
//! asks the symbolic two-thread query (`convcheck_smt::product::uniform`)
//! about every value and branch, and replays each divergence in the
//! interpreter; `trace` draws the scenario and names the finding's class;
//! [`report`] is the report; [`fuzz`] the campaign over random functions
//! (`convcheck fuzz --uniformity`; the functions come from
//! `convcheck_generators::uniform_fn`).
//!
//! Library code: a config in, a typed result out, nothing printed.

pub mod fuzz;
mod model;
pub mod printer;
pub mod report;
mod trace;

use crate::Error;
use report::{Bounds, Report};
use std::time::{Duration, Instant};

/// The triple opt runs with when neither the module nor the user names
/// one.
pub const DEFAULT_TRIPLE: &str = "amdgcn-amd-amdhsa";

/// What to examine and within which bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformityConfig {
    /// Only this function (every defined function when `None`).
    pub function: Option<String>,
    /// The target triple opt runs with (`None`: the module's own, else
    /// [`DEFAULT_TRIPLE`]).
    pub triple: Option<String>,
    /// The opt binary (`None`: `opt-19`, else `opt` on the PATH).
    pub opt_bin: Option<String>,
    /// Iterations (from 0) of each cycle per iteration of its parent that
    /// the model's runs may start. Default 3.
    pub max_iters: u32,
    /// The group size, or `None` for every group of two threads or more.
    pub group: Option<u32>,
    /// The wave size, when the two threads must be in one wave of that
    /// many lanes (`None`: any two threads of the group).
    pub wave: Option<u32>,
    /// The time budget of the whole file (opt and every function).
    /// Default 120 s.
    pub timeout: Duration,
    /// z3's memory budget in MiB. Default 4000.
    pub memory_mb: u64,
    /// Whether the values LLVM calls divergent are examined too, to count
    /// imprecision. Default on.
    pub imprecision: bool,
    /// Whether values no two converged threads execute within the bounds
    /// are told apart from uniform ones (one more query per uniform
    /// value). Default on.
    pub unreached: bool,
    /// The work one query may do, in units of z3's resource counter, or 0
    /// for the time budget alone. A campaign sets it, so that what is
    /// undecided does not depend on the machine's load. Default 0.
    pub rlimit: u32,
}

impl Default for UniformityConfig {
    fn default() -> UniformityConfig {
        UniformityConfig {
            function: None,
            triple: None,
            opt_bin: None,
            max_iters: 3,
            group: None,
            wave: None,
            timeout: Duration::from_secs(120),
            memory_mb: convcheck_smt::product::Z3_MEMORY_MB,
            imprecision: true,
            unreached: true,
            rlimit: 0,
        }
    }
}

/// The opt binary to run.
pub fn opt_binary(config: &UniformityConfig) -> Result<String, Error> {
    match &config.opt_bin {
        Some(b) if crate::llvm::tools::available(b) => Ok(b.clone()),
        Some(b) => Err(Error::tool(format!("--opt-bin {b}: cannot run it"))),
        None => crate::llvm::tools::find(&["opt-19", "opt"], "for uniformity").map_err(Error::tool),
    }
}

/// Whether LLVM's uniformity analysis does anything for `triple`: on a
/// target without branch divergence opt calls every value uniform.
fn divergent_target(triple: &str) -> bool {
    ["amdgcn", "r600", "nvptx", "spirv"]
        .iter()
        .any(|p| triple.starts_with(p))
}

/// Examines the file `file` whose text is `text`: runs opt and compares
/// its claims with the model.
pub fn check_text(file: &str, text: &str, config: &UniformityConfig) -> Result<Report, Error> {
    let start = Instant::now();
    let llvm = convcheck_llvm::parse_module(text, file).map_err(Error::input)?;
    let triple = config
        .triple
        .clone()
        .or_else(|| llvm.triple.clone())
        .unwrap_or_else(|| DEFAULT_TRIPLE.to_string());
    if !divergent_target(&triple) {
        return Err(Error::usage(format!(
            "{file}: target {triple} has no divergent branches in LLVM (opt calls every value \
             uniform there); name a GPU target with --mtriple, such as {DEFAULT_TRIPLE}"
        )));
    }
    let bin = opt_binary(config)?;
    let printout = printer::run(&bin, &triple, text, file, config.timeout).map_err(Error::tool)?;
    compare(file, text, &llvm, &printout, &triple, config, start)
}

/// Compares `text` with claims given as the text opt's
/// `print<uniformity>` prints (`printout`), without running opt: claims
/// recorded elsewhere, or written by hand in tests.
pub fn check_with_printout(
    file: &str,
    text: &str,
    printout: &str,
    config: &UniformityConfig,
) -> Result<Report, Error> {
    let start = Instant::now();
    let llvm = convcheck_llvm::parse_module(text, file).map_err(Error::input)?;
    let triple = config
        .triple
        .clone()
        .or_else(|| llvm.triple.clone())
        .unwrap_or_else(|| DEFAULT_TRIPLE.to_string());
    let functions =
        printer::parse(printout).map_err(|e| Error::input(format!("the printout: {e}")))?;
    let printout = printer::Printout {
        command: "(a printout given to convcheck)".into(),
        functions,
    };
    compare(file, text, &llvm, &printout, &triple, config, start)
}

/// The model's side for every function (see [`check_text`]).
fn compare(
    file: &str,
    text: &str,
    llvm: &convcheck_llvm::Module,
    printout: &printer::Printout,
    triple: &str,
    config: &UniformityConfig,
    start: Instant,
) -> Result<Report, Error> {
    let opts = convcheck_llvm::to_ir::MapOptions {
        every_value: true,
        opaque_calls: true,
        undef_oracle: true,
        unchecked_poison: true,
        ..Default::default()
    };
    let mapped = convcheck_llvm::to_ir::to_module_with(llvm, file, &opts);
    let functions: Vec<&convcheck_llvm::Function> = llvm
        .defined_functions()
        .filter(|f| {
            config
                .function
                .as_deref()
                .is_none_or(|n| convcheck_llvm::to_ir::plain_name(&f.name) == n)
        })
        .collect();
    if let (Some(n), true) = (&config.function, functions.is_empty()) {
        let names: Vec<String> = llvm
            .defined_functions()
            .map(|f| convcheck_llvm::to_ir::plain_name(&f.name))
            .collect();
        return Err(Error::usage(format!(
            "{file}: no function named `{n}` (functions: {})",
            names.join(", ")
        )));
    }
    let lines: Vec<&str> = text.lines().collect();
    let deadline = start + config.timeout;
    let mut reports = Vec::new();
    for (k, f) in functions.iter().enumerate() {
        let name = convcheck_llvm::to_ir::plain_name(&f.name);
        let Some(claims) = printout.functions.iter().find(|c| c.name == name) else {
            let mut r = report::FunctionReport::new(&name, f.span.line, &Default::default());
            r.reason = Some("not examined: opt printed no uniformity for it".into());
            reports.push(r);
            continue;
        };
        // Each function gets an equal share of the time left.
        let left = deadline.saturating_duration_since(Instant::now());
        let share = left / (functions.len() - k) as u32;
        let input = model::Input {
            function: f,
            mapped: &mapped,
            claims,
            lines: &lines,
        };
        let limits = model::Limits {
            max_iters: config.max_iters,
            group: config.group,
            wave: config.wave,
            timeout: share,
            memory_mb: config.memory_mb,
            imprecision: config.imprecision,
            unreached: config.unreached,
            rlimit: config.rlimit,
        };
        reports.push(model::examine(&input, &limits));
    }
    let findings: usize = reports.iter().map(|r| r.findings.len()).sum();
    let verdict = if findings > 0 {
        "violated"
    } else if reports.iter().any(|r| r.incomplete()) || reports.is_empty() {
        "inconclusive"
    } else {
        "holds"
    };
    Ok(Report {
        file: file.to_string(),
        command: printout.command.clone(),
        triple: triple.to_string(),
        verdict,
        bounds: Bounds {
            max_iters: config.max_iters,
            group: config.group,
            wave: config.wave,
            values: "64-bit",
            timeout_secs: config.timeout.as_secs(),
        },
        findings,
        functions: reports,
    })
}

/// Examines the file at `path`.
pub fn check_file(path: &str, config: &UniformityConfig) -> Result<Report, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::io(format!("{path}: cannot read: {e}")))?;
    check_text(path, &text, config)
}
