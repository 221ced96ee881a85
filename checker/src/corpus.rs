//! The example corpus as data: tables every engine must reproduce
//! (`examples/corpus/tables.toml`) and the checker's expected verdicts
//! (`examples/corpus/expectations.toml`).
//!
//! One corpus serves every consumer: `convcheck demo` shows the seed's
//! tables from it, `checker/tests/tables.rs` runs each table at each of its
//! levels under the key engine and the relational engine, and
//! `checker/tests/corpus.rs` runs every verdict.
//!
//! An expectations file's case is a kernel-language file under
//! convcheck's passes, or LLVM: a `.ll` pair, or a source (`.ll`, `.c`,
//! `.cu`, `.hip`, `.cl`) through a real `opt` pipeline with the front end,
//! target and tool arguments of `check` (`opt`, `frontend`, `gpu`,
//! `clang_args`, `opt_args` keys). [`cases`] runs them, [`render`] prints
//! the outcome as text, JSON or SARIF.

mod cases;
mod render;

use crate::report::Invocation;
use crate::run::run_report_at;
use crate::run::Relation as Engine;
use crate::{Error, Output};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use serde::Deserialize;

/// The tables file, embedded so that `demo` needs no file.
pub const TABLES: &str = include_str!("../../examples/corpus/tables.toml");

/// A semantic level a table is expected at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Seed 000's source-level convergence.
    Source,
    /// The lowered CFG, maximal convergence.
    Cfg,
    /// The CFG lowered with convergence-control tokens.
    CfgTokens,
}

impl Level {
    /// The level's name in the tables file.
    pub fn name(self) -> &'static str {
        match self {
            Level::Source => "source",
            Level::Cfg => "cfg",
            Level::CfgTokens => "cfg-tokens",
        }
    }
}

/// One expected table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableCase {
    /// A short name.
    pub name: String,
    /// Where the table is printed (the seed, an LLVM document).
    pub source: String,
    /// The kernel, relative to `examples/`.
    pub kernel: String,
    /// The function.
    pub function: String,
    /// One `--thread` text per thread.
    pub threads: Vec<String>,
    /// The levels at which this is the table.
    pub levels: Vec<Level>,
    /// One row per thread, one label per column, "" for an empty cell.
    pub rows: Vec<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    table: Vec<TableCase>,
}

/// Reads a tables file.
pub fn tables(text: &str) -> Result<Vec<TableCase>, String> {
    toml::from_str::<TablesFile>(text)
        .map(|f| f.table)
        .map_err(|e| e.to_string())
}

impl TableCase {
    /// The scenario of the table.
    pub fn scenario(&self) -> Result<Scenario, String> {
        let threads = self
            .threads
            .iter()
            .map(|t| ThreadValues::parse(t))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Scenario { threads })
    }

    /// The expected rows as table labels (`None` for an empty cell).
    pub fn expected(&self) -> Vec<Vec<Option<String>>> {
        self.rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| (!c.is_empty()).then(|| c.clone()))
                    .collect()
            })
            .collect()
    }

    /// The table `engine` computes for this case at `level`, as labels.
    pub fn compute(
        &self,
        kernel: &Kernel,
        level: Level,
        engine: Engine,
    ) -> Result<Vec<Vec<Option<String>>>, Error> {
        let scenario = self.scenario().map_err(Error::usage)?;
        let program = match level {
            Level::Source => None,
            Level::Cfg => Some(CfgProgram::new(lower(kernel, false))),
            Level::CfgTokens => Some(CfgProgram::new(lower(kernel, true))),
        };
        let function = Some(self.function.as_str());
        let report = run_report_at(kernel, program.as_ref(), function, &scenario, 100_000)?;
        let report = match engine {
            Engine::Keys => report,
            Engine::Smt => crate::smt_run::smt_report(
                kernel,
                program.as_ref(),
                (function, &scenario, 100_000),
                report,
            )?,
        };
        Ok(report.table.labels())
    }
}

// ----- `convcheck corpus`: the expectation runner as a command -----

/// One expected verdict of an expectations file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The kernel, relative to the file's `root`.
    pub kernel: String,
    /// The function; `"*"` checks every function of the kernel, each
    /// against the same expectation; absent, the kernel's only entry.
    #[serde(default)]
    pub function: Option<String>,
    /// The pipeline.
    #[serde(default)]
    pub passes: Vec<String>,
    /// Lower with convergence-control tokens.
    #[serde(default)]
    pub tokens: bool,
    /// `source` (default) or `cfg`.
    #[serde(default)]
    pub reference: Option<String>,
    /// The expected verdict: `preserved` (met by `proved` too), `proved`,
    /// `violated` or `inconclusive`.
    pub verdict: String,
    /// The stage expected to break the property first.
    #[serde(default)]
    pub stage: Option<String>,
    /// The group size (default: the file's `threads`).
    #[serde(default)]
    pub threads: Option<u32>,
    /// The iteration bound (default: the file's `max_iters`).
    #[serde(default)]
    pub max_iters: Option<u32>,
    /// A second file, the target (`check SRC TGT`: a kernel file or LLVM
    /// IR), relative to the file's `root`.
    #[serde(default)]
    pub target: Option<String>,
    /// A real `opt -passes=` pipeline (`default<O2>`, `O2`,
    /// `simplifycfg`): the case is checked through LLVM IR
    /// (DESIGN.md 2.9), like `check --opt`.
    #[serde(default)]
    pub opt: Option<String>,
    /// `clang`: the file is a C, CUDA, HIP or OpenCL source compiled by
    /// clang first (`check --frontend clang`).
    #[serde(default)]
    pub frontend: Option<String>,
    /// The GPU clang compiles for (`nvptx64`, `amdgcn`, `spirv64`;
    /// `check --target`).
    #[serde(default)]
    pub gpu: Option<String>,
    /// Arguments for clang (`check --clang-arg`).
    #[serde(default)]
    pub clang_args: Vec<String>,
    /// Arguments for opt (`check --opt-arg`): a triple, cl::opts.
    #[serde(default)]
    pub opt_args: Vec<String>,
    /// Seconds this case's check may take (default: the file's
    /// `timeout`).
    #[serde(default)]
    pub timeout: Option<u64>,
    /// The launch's block shape, `"X[,Y[,Z]]"` (`check --block-dim`): the
    /// case's group is its threads (the file's `threads` does not apply).
    #[serde(default)]
    pub block_dim: Option<String>,
    /// The launch's grid shape, `"X[,Y[,Z]]"` (`check --grid-dim`).
    #[serde(default)]
    pub grid_dim: Option<String>,
    /// The warp size (`check --warp-size`).
    #[serde(default)]
    pub warp_size: Option<u32>,
}

impl Case {
    /// Whether the case is checked through LLVM IR: a `.ll` file or
    /// target, a front end, or an opt pipeline.
    pub fn is_llvm(&self) -> bool {
        crate::llvm::is_ll(&self.kernel)
            || self.target.as_deref().is_some_and(crate::llvm::is_ll)
            || self.frontend.is_some()
            || self.opt.is_some()
    }

    /// The case's pipeline in words: opt's, the target file of an LLVM
    /// pair, or convcheck's passes (`lower` for none).
    pub fn pipeline(&self) -> String {
        match (&self.opt, &self.target) {
            (Some(p), _) => format!("opt {p}"),
            (None, Some(t)) if self.is_llvm() => format!("target {t}"),
            _ if self.passes.is_empty() => "lower".to_string(),
            _ => self.passes.join(","),
        }
    }
}

/// An expectations file (`examples/corpus/expectations.toml` is one).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// The folder kernels are named relative to, relative to the file's
    /// own folder (default: the file's folder).
    #[serde(default)]
    pub root: Option<String>,
    /// The group size of every case (0 or absent: every `N >= 2`).
    #[serde(default)]
    pub threads: Option<u32>,
    /// The iteration bound of every case (default: `check`'s).
    #[serde(default)]
    pub max_iters: Option<u32>,
    /// Seconds each case's check may take (default: `check`'s
    /// `--timeout`).
    #[serde(default)]
    pub timeout: Option<u64>,
    /// The cases.
    #[serde(default)]
    pub case: Vec<Case>,
    /// Tables to reproduce, as in `examples/corpus/tables.toml`.
    #[serde(default)]
    pub table: Vec<TableCase>,
}

/// `path` with `.` and `dir/..` removed, lexically (`examples/corpus/../seed`
/// is `examples/seed`).
fn normalize(path: &std::path::Path) -> String {
    use std::path::Component;
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    let p: std::path::PathBuf = out.iter().collect();
    p.to_string_lossy().into_owned()
}

const VERDICTS: [&str; 4] = ["preserved", "proved", "violated", "inconclusive"];

/// What `corpus` is asked: an expectations file, or a kernel file whose
/// every function is checked (with the check's settings below).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CorpusArgs {
    /// An expectations file (`.toml`), or a kernel file.
    pub file: String,
    /// For a kernel file: passes to run.
    pub passes: Vec<String>,
    /// For a kernel file: lower with convergence-control tokens.
    pub tokens: bool,
    /// For a kernel file: the reference semantics.
    pub reference: crate::config::Reference,
    /// For a kernel file: the group size (default: every `N >= 2`).
    pub threads: Option<u32>,
    /// For a kernel file: the iteration bound.
    pub max_iters: Option<u32>,
    /// Output format.
    pub format: crate::config::Format,
    /// Cases checked at once (1: one after the other); the results keep
    /// the file's order.
    pub jobs: usize,
    /// The `opt` binary of every LLVM case (`None`: `check`'s default).
    pub opt_bin: Option<String>,
    /// The clang binary of every case with a front end (`None`: `check`'s
    /// default).
    pub clang_bin: Option<String>,
    /// Seconds each run of opt or clang may take (0: `check`'s default).
    pub tool_timeout: u64,
}

/// Reads an expectations file; returns it with the folder its kernels are
/// named relative to.
fn read_expectations(path: &str) -> Result<(Expectations, std::path::PathBuf), Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::usage(format!("{path}: cannot read: {e}")))?;
    let file: Expectations =
        toml::from_str(&text).map_err(|e| Error::usage(format!("{path}: {e}")))?;
    let dir = std::path::Path::new(path)
        .parent()
        .unwrap_or(std::path::Path::new(""));
    let root = dir.join(file.root.as_deref().unwrap_or("."));
    Ok((file, root))
}

/// A kernel file given instead of an expectations file: one case, every
/// function, no expectation.
fn one_kernel(a: &CorpusArgs) -> Expectations {
    let case = Case {
        kernel: a.file.clone(),
        function: Some("*".into()),
        passes: a.passes.clone(),
        tokens: a.tokens,
        reference: Some(
            if a.reference == crate::config::Reference::Cfg {
                "cfg"
            } else {
                "source"
            }
            .into(),
        ),
        verdict: String::new(),
        stage: None,
        threads: None,
        max_iters: None,
        target: None,
        opt: None,
        frontend: None,
        gpu: None,
        clang_args: Vec::new(),
        opt_args: Vec::new(),
        timeout: None,
        block_dim: None,
        grid_dim: None,
        warp_size: None,
    };
    Expectations {
        root: None,
        threads: a.threads,
        max_iters: a.max_iters,
        timeout: None,
        case: vec![case],
        table: Vec::new(),
    }
}

/// The `corpus` command: every case of an expectations file (or, given a
/// kernel file, every function of it under the given pipeline).
pub fn corpus(a: &CorpusArgs, inv: &Invocation) -> Result<Output, Error> {
    let (file, root) = if a.file.ends_with(".toml") {
        read_expectations(&a.file)?
    } else {
        (one_kernel(a), std::path::PathBuf::new())
    };
    if matches!(a.threads, Some(0 | 1)) || file.threads == Some(1) {
        return Err(Error::usage(
            "threads: a group needs at least 2 threads (omit it to check every group size)",
        ));
    }
    let run = cases::Runner {
        name: &a.file,
        root: &root,
        file: &file,
        keep_reports: a.format != crate::config::Format::Text,
        tools: cases::Tools {
            opt_bin: a.opt_bin.clone(),
            clang_bin: a.clang_bin.clone(),
            tool_timeout: a.tool_timeout,
        },
    };
    let mut results = Vec::new();
    for r in run_cases(&run, &file.case, a.jobs) {
        results.extend(r?);
    }
    let tables = run.tables()?;
    let outcome = render::Outcome::of(&file, results, tables);
    let text = match a.format {
        crate::config::Format::Text => outcome.text(),
        crate::config::Format::Json => outcome.json(&a.file, inv),
        crate::config::Format::Sarif => outcome.sarif(),
    };
    Ok(Output {
        text,
        status: outcome.status,
        remark: None,
    })
}

/// Every case's results, in the file's order, checked `jobs` at a time
/// (each worker takes the next case not yet taken).
fn run_cases(
    run: &cases::Runner,
    all: &[Case],
    jobs: usize,
) -> Vec<Result<Vec<cases::CaseResult>, Error>> {
    if jobs <= 1 || all.len() <= 1 {
        return all.iter().map(|c| run.case(c)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.min(all.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(c) = all.get(i) else { break };
                let r = run.case(c);
                done.lock().unwrap_or_else(|e| e.into_inner()).push((i, r));
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}
