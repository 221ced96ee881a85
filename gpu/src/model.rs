//! The model's side of the hardware oracle: a kernel under test (a
//! kernel-language function or an LLVM IR function), the code the model
//! runs for it at a level, and one scenario's run reduced to what the
//! hardware logs.
//!
//! Levels (DESIGN.md 2.3):
//!
//! - **source**: seed 000's keys on the kernel-language function (only for
//!   kernel files);
//! - **cfg**: maximal convergence (or tokens, where present) on the CFG the
//!   back end compiled: the lowered kernel, or the LLVM IR as given, after
//!   the `opt` pipeline when there was one (read back from `opt`'s output
//!   with `convcheck-llvm`).
//!
//! A run gives each thread's sequence of *logged* events: instances of the
//! operations the instrumentation logs ([`logged`]: observation points,
//! convergent operations and barriers; a real call of a defined function is
//! not an operation of its own and is not logged), each with its column in
//! the model's trace table (equal columns: converged) and whether its
//! convergence is implementation-defined (the table then shows one allowed
//! relation, every choice distinct).

use crate::tools::{self, Tools};
use crate::GpuError;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, EventKind, Program};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::table::{self, Table};
use convcheck_ir::{FuncId, Module, OpInfo, OpKind};
use convcheck_lang::exec::SourceProgram;
use convcheck_lang::sema::Kernel;

/// Instructions one thread may execute in a model run (the hardware's
/// streams end after `K` values, after which every oracle reads 0, so
/// generated loops end long before this).
pub const DEFAULT_FUEL: u64 = 1_000_000;

/// What the function under test is written in.
#[derive(Clone, Debug)]
pub enum Body {
    /// A kernel-language file.
    Kernel(Box<Kernel>),
    /// LLVM IR: its text and the IR `convcheck-llvm` maps it to.
    Llvm {
        /// The text as given.
        text: String,
        /// The mapped module.
        module: Box<Module>,
    },
}

/// A function under test.
#[derive(Clone, Debug)]
pub struct Subject {
    /// The file as given.
    pub file: String,
    /// The function that runs.
    pub function: String,
    /// Its code.
    pub body: Body,
}

/// A model level.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Seed 000's source-level semantics.
    Source,
    /// The CFG the back end compiled, after `pipeline` when given.
    Cfg {
        /// The `opt -passes=` pipeline, if any.
        pipeline: Option<String>,
    },
}

impl Level {
    /// The level's name in reports: `source`, `cfg`, `cfg after PIPELINE`.
    pub fn name(&self) -> String {
        match self {
            Level::Source => "source".into(),
            Level::Cfg { pipeline: None } => "cfg".into(),
            Level::Cfg { pipeline: Some(p) } => format!("cfg after {p}"),
        }
    }
}

/// Whether instances of `op` are logged by the instrumentation:
/// observation points, convergent external operations and barriers.
pub fn logged(op: &OpInfo) -> bool {
    match op.kind {
        OpKind::Observe => true,
        OpKind::Call(c) => matches!(
            c,
            convcheck_ir::CallKind::Op(_) | convcheck_ir::CallKind::Barrier(..)
        ),
        _ => false,
    }
}

/// The labels of the logged operations of `module`, each once, in op
/// order: the label table of the instrumentation.
pub fn logged_labels(module: &Module) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for op in &module.ops {
        if logged(op) && !out.contains(&op.label) {
            out.push(op.label.clone());
        }
    }
    out
}

impl Subject {
    /// A kernel-language function (`function`, or the file's entry).
    pub fn from_kernel(
        file: &str,
        text: &str,
        function: Option<&str>,
    ) -> Result<Subject, GpuError> {
        let kernel = Kernel::parse(file, text).map_err(|d| GpuError::Input(d.to_string()))?;
        let entry = kernel.entry(function).map_err(GpuError::Input)?;
        Ok(Subject {
            file: file.to_string(),
            function: kernel.functions[entry].name.clone(),
            body: Body::Kernel(Box::new(kernel)),
        })
    }

    /// An LLVM IR function (`function`, or the module's entry).
    pub fn from_llvm(file: &str, text: &str, function: Option<&str>) -> Result<Subject, GpuError> {
        let module = read_llvm(file, text)?;
        let entry = module
            .entry(function.map(|f| f.strip_prefix('@').unwrap_or(f)))
            .map_err(GpuError::Input)?;
        Ok(Subject {
            file: file.to_string(),
            function: module.functions[entry].name.clone(),
            body: Body::Llvm {
                text: text.to_string(),
                module: Box::new(module),
            },
        })
    }

    /// A subject from a file's text: LLVM IR when the name ends in `.ll`.
    pub fn from_text(file: &str, text: &str, function: Option<&str>) -> Result<Subject, GpuError> {
        if file.ends_with(".ll") {
            Subject::from_llvm(file, text, function)
        } else {
            Subject::from_kernel(file, text, function)
        }
    }

    /// Whether the source level exists (kernel files only).
    pub fn has_source(&self) -> bool {
        matches!(self.body, Body::Kernel(_))
    }

    /// The CFG as the back end first sees it: the lowered kernel (without
    /// tokens, as clang -O0 builds it) or the mapped LLVM IR.
    pub fn cfg(&self) -> Module {
        match &self.body {
            Body::Kernel(k) => convcheck_lang::lower::lower(k, false),
            Body::Llvm { module, .. } => (**module).clone(),
        }
    }

    /// The LLVM IR the back end is given before any pipeline: the lowered
    /// kernel written by `convcheck-llvm`, or the text as given.
    pub fn llvm_text(&self) -> String {
        match &self.body {
            Body::Kernel(_) => convcheck_llvm::write::module_text(&self.cfg()),
            Body::Llvm { text, .. } => text.clone(),
        }
    }

    /// The LLVM IR after `pipeline` (through `opt`), or as given.
    pub fn llvm_after(&self, pipeline: Option<&str>, tools: &Tools) -> Result<String, GpuError> {
        let text = self.llvm_text();
        match pipeline {
            None => Ok(text),
            Some(p) => tools::opt(tools, &text, p),
        }
    }

    /// The code the model runs at `level`.
    pub fn code(&self, level: &Level, tools: &Tools) -> Result<ModelCode, GpuError> {
        match (level, &self.body) {
            (Level::Source, Body::Kernel(k)) => {
                let entry = k.entry(Some(&self.function)).map_err(GpuError::Input)?;
                let p = SourceProgram::new(k).map_err(GpuError::Input)?;
                Ok(ModelCode {
                    program: Prepared::Source(Box::new(p)),
                    entry,
                })
            }
            (Level::Source, Body::Llvm { .. }) => Err(GpuError::Input(format!(
                "{}: LLVM IR has no source level",
                self.file
            ))),
            (Level::Cfg { pipeline: None }, _) => self.cfg_code(self.cfg()),
            (Level::Cfg { pipeline: Some(p) }, _) => {
                let text = self.llvm_after(Some(p), tools)?;
                let module = read_llvm(&format!("{} after {p}", self.file), &text)?;
                self.cfg_code(module)
            }
        }
    }

    fn cfg_code(&self, module: Module) -> Result<ModelCode, GpuError> {
        let entry = module
            .entry(Some(&self.function))
            .map_err(GpuError::Input)?;
        Ok(ModelCode {
            program: Prepared::Cfg(Box::new(CfgProgram::new(module))),
            entry,
        })
    }
}

/// Reads LLVM IR into the model's IR; a function outside the model is an
/// error naming the construct.
pub fn read_llvm(file: &str, text: &str) -> Result<Module, GpuError> {
    let parsed =
        convcheck_llvm::parse_module(text, file).map_err(|e| GpuError::Input(e.to_string()))?;
    // The instrumented kernel reads every external call's result from the
    // thread's stream and makes no call, so the model reads such calls as
    // oracles too, without effect events (`MapOptions::calls_as_oracles`).
    let opts = convcheck_llvm::to_ir::MapOptions {
        calls_as_oracles: true,
        ..Default::default()
    };
    let mapped = convcheck_llvm::to_ir::to_module_with(&parsed, file, &opts);
    if let Some(u) = mapped.skipped.first() {
        return Err(GpuError::Unsupported(format!("{file}: {u}")));
    }
    Ok(mapped.module)
}

enum Prepared {
    Source(Box<SourceProgram>),
    Cfg(Box<CfgProgram>),
}

/// The model's code for one subject at one level, ready to run scenarios.
pub struct ModelCode {
    program: Prepared,
    entry: FuncId,
}

/// One logged instance in the model's run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelEvent {
    /// The operation's label.
    pub label: String,
    /// Its column in the model's table (equal columns: converged).
    pub column: usize,
    /// Whether its convergence is implementation-defined.
    pub open: bool,
}

/// A scenario's run in the model.
#[derive(Clone, Debug)]
pub struct ModelRun {
    /// The trace table (every convergent operation, real calls included).
    pub table: Table,
    /// Each thread's logged events, in order.
    pub threads: Vec<Vec<ModelEvent>>,
}

impl ModelCode {
    /// The module whose op table names the code's operations.
    pub fn module(&self) -> &Module {
        match &self.program {
            Prepared::Source(p) => &p.module,
            Prepared::Cfg(p) => &p.module,
        }
    }

    fn program(&self) -> &dyn Program {
        match &self.program {
            Prepared::Source(p) => &**p,
            Prepared::Cfg(p) => &**p,
        }
    }

    /// Runs `scenario` (thread `t` has `tid` t, the group is the
    /// scenario's threads) with `fuel` instructions per thread. A thread
    /// that runs out of fuel makes the run fail with the reason.
    pub fn run(&self, scenario: &Scenario, fuel: u64) -> Result<ModelRun, String> {
        let module = self.module();
        // A stream of an oracle this code no longer reads (opt deleted the
        // read) is simply not read, on the hardware as in the model.
        let scenario = Scenario {
            threads: scenario
                .threads
                .iter()
                .map(|tv| {
                    ThreadValues(
                        tv.0.iter()
                            .filter(|(name, _)| module.oracle(name).is_some())
                            .map(|(n, v)| (n.clone(), v.clone()))
                            .collect(),
                    )
                })
                .collect(),
        };
        let traces = run_scenario(self.program(), self.entry, &scenario, fuel)
            .map_err(|(t, why)| format!("thread {t}: {why}"))?;
        let rows = (0..traces.len()).map(|t| format!("tid {t}")).collect();
        let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
        let table = table::build(module, rows, &runs)?;
        let mut threads = Vec::with_capacity(traces.len());
        for (t, row) in table.cells.iter().enumerate() {
            let mut evs: Vec<(usize, ModelEvent)> = Vec::new();
            for (col, cell) in row.iter().enumerate() {
                let Some(cell) = cell else { continue };
                let e = &traces[t].events[cell.event];
                let is_logged = matches!(e.kind, EventKind::Op { .. } | EventKind::Barrier { .. })
                    && module.op(e.sid).is_some_and(logged);
                if is_logged {
                    evs.push((
                        cell.event,
                        ModelEvent {
                            label: cell.label.clone(),
                            column: col,
                            open: cell.open,
                        },
                    ));
                }
            }
            evs.sort_by_key(|(i, _)| *i);
            threads.push(evs.into_iter().map(|(_, e)| e).collect());
        }
        Ok(ModelRun { table, threads })
    }
}
