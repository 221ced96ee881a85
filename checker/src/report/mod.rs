//! The one report of a check (DESIGN.md 2.7 "Verdicts", 2.8, section 4):
//! every input (kernel files, IR text, LLVM IR pairs, `--opt` dumps, the
//! clang front end) and every engine (structural proof, explicit
//! enumeration, symbolic product) answers a [`Report`], and one renderer
//! per format prints it: [`text`], [`json`] and [`sarif`].
//!
//! A report holds one [`FunctionReport`] per function checked (one for a
//! kernel's check; every function defined on both sides for LLVM IR). A
//! function's [`Stage`]s are the steps of its pipeline (the lowering, a
//! target file, each pass); each stage has the [`Outcome`] of the engine
//! that decided it, the [`Method`] (which engine, with its bounds or its
//! proof), and what its counterexample's reference table shows when that
//! is not the check's reference.
//!
//! **The verdict** is computed here and nowhere else ([`Stage::verdict`],
//! [`FunctionReport::verdict`], [`Report::verdict`]): a stage is `proved`
//! when a proof covers every iteration count, `preserved` when no
//! counterexample exists within the listed bounds, `violated` with a
//! replayed counterexample, `inconclusive` with the reason; a function is
//! `violated` if a stage is (a violation is definite even after an
//! inconclusive stage), else `inconclusive` if a stage is, else `proved`
//! if every stage is, else `preserved`; a report takes the worst of its
//! functions in that order.

pub mod bounds;
pub mod json;
pub mod naming;
pub mod replay;
pub mod sarif;
mod tables;
pub mod text;

use crate::config::{Reference, Verdict};
use crate::engine::{Budget, Coverage, Finding, Outcome};
use convcheck_ir::exec::Bounds;
use convcheck_ir::Module;
use convcheck_smt::product::{Preserved, Proof};
pub use replay::{LlvmOrigin, Replay, Reproduce};
use std::time::Duration;
pub use tables::{renumber, tables};

/// How a stage was decided.
#[derive(Clone, Debug)]
pub enum Method {
    /// The explicit enumeration of scenarios and paths (its coverage is the
    /// function's [`FunctionReport::coverage`]).
    Explicit,
    /// The explicit engine's short search at a small iteration bound (a
    /// counterexample it found; nothing else is decided by it).
    QuickSearch,
    /// The symbolic two-thread product, within its bounds (or proved, by
    /// the structural rule inside the product).
    Product(Preserved),
    /// The structural rule on the function as each side maps it: every
    /// iteration count (`merged`: straight-line edges merged).
    Structure {
        /// Straight-line edges the target merged.
        merged: usize,
    },
    /// A simulation relation between the two functions, found and
    /// re-checked by z3 (`convcheck_smt::simulation`): every iteration
    /// count.
    Simulation {
        /// Pairs of program points in the relation.
        nodes: usize,
        /// Steps of the relation checked.
        steps: usize,
    },
    /// No engine ran: a static rule of tokens decided it, or the function
    /// is outside the model, or the stage was not reached.
    Static,
    /// The product found the counterexample (replayed by the interpreter).
    ProductCounterexample,
}

impl Method {
    /// The engine's name in JSON (`explicit`, `smt`, `structure`,
    /// `simulation`, `static`).
    pub fn engine(&self) -> &'static str {
        match self {
            Method::Explicit | Method::QuickSearch => "explicit",
            Method::Product(_) | Method::ProductCounterexample => "smt",
            Method::Structure { .. } => "structure",
            Method::Simulation { .. } => "simulation",
            Method::Static => "static",
        }
    }
}

/// One step of a function's pipeline and how the check judged it.
#[derive(Clone, Debug)]
pub struct Stage {
    /// `lower`, `target file`, a pass name, or a pass of `opt` with its
    /// bisect number.
    pub name: String,
    /// What the pass said it did, and how the stage was decided.
    pub notes: Vec<String>,
    /// The target's level, for the title of its table (`CFG`, `after
    /// simplifycfg`).
    pub level: String,
    /// The answer of the engine that decided it.
    pub outcome: Outcome,
    /// Which engine, with its bounds or proof.
    pub method: Method,
    /// What the stage was compared with when it is not the check's
    /// reference (`the CFG of stage 1`), for its table's title.
    pub against: Option<String>,
    /// The module the counterexample's reference runs are of.
    pub reference_module: Module,
    /// The module the stage's target runs are of.
    pub target_module: Module,
    /// How a stage after a pass of `opt` is reproduced on its own.
    pub reproduce: Option<replay::Reproduce>,
    /// Why the simulation engine found no proof for every iteration count,
    /// where it ran and found none (`refused: ...`, `no relation: ...`,
    /// `bound: ...`, `budget: ...`, `skipped: ...`;
    /// `engines::simulation::miss`); `None` where it proved the stage or
    /// did not run.
    pub simulation: Option<String>,
}

impl Stage {
    /// Whether the stage holds for every iteration count.
    pub fn proved(&self) -> bool {
        matches!(self.outcome, Outcome::Preserved { .. })
            && match &self.method {
                Method::Structure { .. } | Method::Simulation { .. } => true,
                Method::Product(p) => matches!(p.proof, Proof::Structure { .. }),
                _ => false,
            }
    }

    /// The stage's verdict.
    pub fn verdict(&self) -> Verdict {
        match &self.outcome {
            Outcome::Preserved { .. } if self.proved() => Verdict::Proved,
            Outcome::Preserved { .. } => Verdict::Preserved,
            Outcome::Violated(_) => Verdict::Violated,
            Outcome::Inconclusive(_) => Verdict::Inconclusive,
        }
    }

    /// The finding of a violated stage.
    pub fn finding(&self) -> Option<&Finding> {
        match &self.outcome {
            Outcome::Violated(f) => Some(f),
            _ => None,
        }
    }
}

/// The check of one function.
#[derive(Clone, Debug)]
pub struct FunctionReport {
    /// The function (a kernel entry or an LLVM function, by its plain
    /// name).
    pub function: String,
    /// The reference semantics.
    pub reference: Reference,
    /// The group size when it is fixed; 0 for every `N >= 2`.
    pub threads: u32,
    /// The enumeration bounds of the check.
    pub bounds: Bounds,
    /// What the explicit engine covered, when it decided some stage.
    pub coverage: Option<Coverage>,
    /// The check's budgets.
    pub budget: Budget,
    /// This function's share of the time budget when the functions of a
    /// file share it and the share ran out.
    pub share: Option<Duration>,
    /// The stages in order.
    pub stages: Vec<Stage>,
}

impl FunctionReport {
    /// The function's verdict (see the module documentation).
    pub fn verdict(&self) -> Verdict {
        let has = |v: Verdict| self.stages.iter().any(|s| s.verdict() == v);
        if has(Verdict::Violated) {
            Verdict::Violated
        } else if has(Verdict::Inconclusive) {
            Verdict::Inconclusive
        } else if !self.stages.is_empty() && self.stages.iter().all(Stage::proved) {
            Verdict::Proved
        } else {
            Verdict::Preserved
        }
    }

    /// The first violated stage, else the first inconclusive one.
    pub fn first_broken(&self) -> Option<(usize, &Stage)> {
        let find = |v: Verdict| {
            self.stages
                .iter()
                .enumerate()
                .find(|(_, s)| s.verdict() == v)
        };
        find(Verdict::Violated).or_else(|| find(Verdict::Inconclusive))
    }

    /// Whether some stage was decided by `pred`.
    pub fn any(&self, pred: impl Fn(&Method) -> bool) -> bool {
        self.stages.iter().any(|s| pred(&s.method))
    }
}

/// A whole check: the files, the functions, and how its counterexamples
/// are replayed.
#[derive(Clone, Debug)]
pub struct Report {
    /// The reference file as given.
    pub file: String,
    /// The target file, for `check SRC TGT`.
    pub target_file: Option<String>,
    /// One entry per function checked.
    pub functions: Vec<FunctionReport>,
    /// Functions defined on one side only (not compared).
    pub not_compared: Vec<String>,
    /// How the counterexamples are replayed (`convcheck run` lines).
    pub replay: Replay,
}

impl Report {
    /// The worst verdict of the functions: violated, then inconclusive,
    /// then proved when every function is, else preserved.
    pub fn verdict(&self) -> Verdict {
        let vs: Vec<Verdict> = self.functions.iter().map(FunctionReport::verdict).collect();
        if vs.contains(&Verdict::Violated) {
            Verdict::Violated
        } else if vs.contains(&Verdict::Inconclusive) || vs.is_empty() {
            Verdict::Inconclusive
        } else if vs.iter().all(|v| *v == Verdict::Proved) {
            Verdict::Proved
        } else {
            Verdict::Preserved
        }
    }
}

/// A counterexample's message with its memory locations named as the
/// source names them ([`naming`]), and those locations.
pub fn named_message(fr: &FunctionReport, s: &Stage, f: &Finding) -> (String, Vec<naming::Place>) {
    let m = &s.reference_module;
    let own: Vec<&convcheck_ir::Cfg> = m
        .functions
        .iter()
        .filter(|c| c.name == fr.function)
        .collect();
    let cfgs = if own.is_empty() {
        m.functions.iter().collect()
    } else {
        own
    };
    let mut params: Vec<String> = Vec::new();
    for c in cfgs {
        for o in &c.param_oracles {
            if let Some(info) = m.oracles.get(*o) {
                if !params.contains(&info.name) {
                    params.push(info.name.clone());
                }
            }
        }
    }
    let values = naming::parameter_values(&params, &f.threads);
    let places = naming::places(&f.message, &values);
    (naming::named(&f.message, &places), places)
}

/// The context of a rendering that is not part of the check: the command
/// line that asked for it (JSON's `command_line`, SARIF's invocation).
#[derive(Clone, Debug, Default)]
pub struct Invocation {
    /// The words of the command line, the program by its file name.
    pub command_line: Option<Vec<String>>,
}

impl Invocation {
    /// The invocation of `args` (the first is the program, recorded by its
    /// file name so that a report does not depend on where the binary was
    /// built).
    pub fn of(mut args: Vec<String>) -> Invocation {
        if let Some(program) = args.first_mut() {
            if let Some(name) = std::path::Path::new(program.as_str()).file_name() {
                *program = name.to_string_lossy().into_owned();
            }
        }
        Invocation {
            command_line: Some(args),
        }
    }
}

/// Thousands separated by commas (`1,234,567`), as reports print counts.
pub fn grouped(n: u64) -> String {
    crate::engine::grouped(n)
}
