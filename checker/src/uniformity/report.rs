//! The report of `convcheck uniformity`: serde-derived data (the JSON
//! form) and its text rendering, computed apart from each other.

use super::printer::FunctionClaims;
use serde::Serialize;
use std::fmt::Write;

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The file examined.
    pub file: String,
    /// The opt command whose claims were examined.
    pub command: String,
    /// The target triple opt ran with.
    pub triple: String,
    /// `violated` (LLVM calls some value uniform that the model shows
    /// divergent), `holds` (every claim examined holds within the bounds)
    /// or `inconclusive` (no finding, but something was not examined).
    pub verdict: &'static str,
    /// The bounds that applied.
    pub bounds: Bounds,
    /// Findings over all functions.
    pub findings: usize,
    /// Per function, in module order.
    pub functions: Vec<FunctionReport>,
}

/// The bounds of the model's search.
#[derive(Clone, Debug, Serialize)]
pub struct Bounds {
    /// Iterations (from 0) of each cycle per iteration of its parent.
    pub max_iters: u32,
    /// The group size, or `null` for every group of two threads or more.
    pub group: Option<u32>,
    /// The wave both threads are in, if one was asked for.
    pub wave: Option<u32>,
    /// Values: 64-bit integers, an `iN` value compared in its `N` bits.
    pub values: &'static str,
    /// The time budget of the file, in seconds.
    pub timeout_secs: u64,
}

/// A value or branch and why it was not (fully) examined.
#[derive(Clone, Debug, Serialize)]
pub struct Note {
    /// The value (`%x`) or branch (`br in %b`).
    pub subject: String,
    /// Why.
    pub reason: String,
}

impl Note {
    /// A note.
    pub fn new(subject: &str, reason: &str) -> Note {
        Note {
            subject: subject.to_string(),
            reason: reason.to_string(),
        }
    }
}

/// One function.
#[derive(Clone, Debug, Serialize)]
pub struct FunctionReport {
    /// Its name, without `@`.
    pub name: String,
    /// The line of its `define`.
    pub line: u32,
    /// Why it was not examined, if it was not.
    pub reason: Option<String>,
    /// Values of integer or pointer type.
    pub values: usize,
    /// Conditional branches and switches.
    pub branches: usize,
    /// Values and branches LLVM calls uniform.
    pub llvm_uniform: usize,
    /// Values and branches LLVM calls divergent.
    pub llvm_divergent: usize,
    /// Of those LLVM calls uniform, how many the model shows uniform
    /// within the bounds.
    pub model_uniform: usize,
    /// Of those LLVM calls divergent, how many the model shows divergent.
    pub agree_divergent: usize,
    /// Values LLVM calls uniform that the model shows divergent.
    pub findings: Vec<Finding>,
    /// Values LLVM calls divergent that the model shows uniform in every
    /// scenario within the bounds (imprecision, not a bug).
    pub imprecise: Vec<String>,
    /// Values no two converged executions reach within the bounds.
    pub unreached: Vec<String>,
    /// Values the solver could not decide.
    pub unknown: Vec<Note>,
    /// Values not examined, and why.
    pub skipped: Vec<Note>,
    /// Cycle hierarchies examined (one for a reducible CFG).
    pub hierarchies: usize,
    /// Whether there are more hierarchies than were examined.
    pub hierarchies_capped: bool,
    /// What the iteration bound cut, if it cut some run.
    pub cut: Option<String>,
    /// LLVM's cycle lines (cycles with divergent exits, cycles assumed
    /// divergent).
    pub llvm_cycles: Vec<String>,
}

impl FunctionReport {
    /// An empty report of function `name`.
    pub fn new(name: &str, line: u32, claims: &FunctionClaims) -> FunctionReport {
        FunctionReport {
            name: name.to_string(),
            line,
            reason: None,
            values: 0,
            branches: 0,
            llvm_uniform: 0,
            llvm_divergent: 0,
            model_uniform: 0,
            agree_divergent: 0,
            findings: Vec::new(),
            imprecise: Vec::new(),
            unreached: Vec::new(),
            unknown: Vec::new(),
            skipped: Vec::new(),
            hierarchies: 0,
            hierarchies_capped: false,
            cut: None,
            llvm_cycles: claims.cycles.clone(),
        }
    }

    /// Whether something was not examined.
    pub fn incomplete(&self) -> bool {
        self.reason.is_some() || !self.unknown.is_empty() || !self.skipped.is_empty()
    }
}

/// An instruction that uses a value.
#[derive(Clone, Debug, Serialize)]
pub struct Use {
    /// Its line.
    pub line: u32,
    /// Its text.
    pub text: String,
}

/// A value LLVM calls uniform that two converged threads compute
/// differently.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// `%name`, or `br in %block`.
    pub value: String,
    /// `phi`, `value` or `branch`.
    pub kind: &'static str,
    /// Its block.
    pub block: String,
    /// Its line.
    pub line: u32,
    /// Its text.
    pub text: String,
    /// The instructions that use it.
    pub uses: Vec<Use>,
    /// The class of the finding (`phi-join`, `phi-join-at-cycle-exit`, ...;
    /// see `uniformity/trace.rs`), or `consequence` when an operand is
    /// itself a finding.
    pub class: String,
    /// The operand that is itself a finding, for a consequence.
    pub cause: Option<String>,
    /// The group size of the scenario.
    pub group: u32,
    /// The two threads.
    pub tids: [u32; 2],
    /// The values they get in one converged execution.
    pub values: [String; 2],
    /// Their inputs (oracle values by name).
    pub inputs: [String; 2],
    /// Whether a run of the scenario goes on past the iteration bound
    /// (the table shows the prefix examined).
    pub cut: bool,
    /// The cycle hierarchy the scenario was found under.
    pub hierarchy: String,
    /// The scenario as a trace table of block instances.
    pub table: BlockTable,
}

/// A trace table of block instances: a column is one converged instance.
#[derive(Clone, Debug, Serialize)]
pub struct BlockTable {
    /// One row per thread.
    pub rows: Vec<TableRow>,
}

/// One thread's row.
#[derive(Clone, Debug, Serialize)]
pub struct TableRow {
    /// `tid N`.
    pub thread: String,
    /// One cell per column: the block's name (with the value at the
    /// finding's instance), or `null`.
    pub cells: Vec<Option<String>>,
}

impl BlockTable {
    /// The table as aligned text, one line per thread.
    pub fn render(&self, indent: &str) -> String {
        let ncols = self.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
        let widths: Vec<usize> = (0..ncols)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|r| r.cells.get(c).and_then(|x| x.as_ref()))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(1)
            })
            .collect();
        let title = self.rows.iter().map(|r| r.thread.len()).max().unwrap_or(0);
        let mut out = String::new();
        for r in &self.rows {
            let mut line = format!("{indent}{:<title$} |", r.thread);
            for (c, w) in widths.iter().enumerate() {
                let cell = r.cells.get(c).and_then(|x| x.as_deref()).unwrap_or("");
                let _ = write!(line, " {cell:<w$} |");
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

impl Report {
    /// The report as text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "uniformity of {}", self.file);
        let _ = writeln!(out, "LLVM's claims: {}", self.command);
        let b = &self.bounds;
        let group = match b.group {
            Some(n) => format!("a group of {n} threads"),
            None => "every group of two threads or more".into(),
        };
        let wave = match b.wave {
            Some(w) => format!(" in one wave of {w} lanes"),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "bounds: max-iters {}, {group}{wave}, {} values, {} s",
            b.max_iters, b.values, b.timeout_secs
        );
        for f in &self.functions {
            out.push('\n');
            let _ = writeln!(out, "@{} (line {})", f.name, f.line);
            if let Some(r) = &f.reason {
                let _ = writeln!(out, "  {r}");
                if f.values + f.branches == 0 {
                    continue;
                }
            }
            let _ = writeln!(
                out,
                "  {} values and {} branches: LLVM calls {} uniform and {} divergent",
                f.values, f.branches, f.llvm_uniform, f.llvm_divergent
            );
            let _ = writeln!(
                out,
                "  the model: {} of the uniform ones uniform within bounds, {} divergent (findings); \
                 {} of the divergent ones divergent, {} uniform within bounds (imprecision)",
                f.model_uniform,
                f.findings.len(),
                f.agree_divergent,
                f.imprecise.len()
            );
            if f.hierarchies > 1 || f.hierarchies_capped {
                let _ = writeln!(
                    out,
                    "  cycle hierarchies examined: {}{}",
                    f.hierarchies,
                    if f.hierarchies_capped {
                        " (the cap; there may be more)"
                    } else {
                        ""
                    }
                );
            }
            if let Some(c) = &f.cut {
                let _ = writeln!(
                    out,
                    "  bound: runs longer than max-iters not examined ({c})"
                );
            }
            if !f.imprecise.is_empty() {
                let _ = writeln!(out, "  imprecise: {}", f.imprecise.join(", "));
            }
            if !f.unreached.is_empty() {
                let _ = writeln!(
                    out,
                    "  unreached by two converged threads within bounds: {}",
                    f.unreached.join(", ")
                );
            }
            for n in &f.unknown {
                let _ = writeln!(out, "  undecided: {}: {}", n.subject, n.reason);
            }
            for n in &f.skipped {
                let _ = writeln!(out, "  not examined: {}: {}", n.subject, n.reason);
            }
            for (k, x) in f.findings.iter().enumerate() {
                match &x.cause {
                    Some(c) => {
                        let _ = writeln!(
                            out,
                            "  finding {}: {} (a consequence of {c})",
                            k + 1,
                            x.value
                        );
                    }
                    None => {
                        let _ = writeln!(out, "  finding {}: {} ({})", k + 1, x.value, x.class);
                    }
                }
                let _ = writeln!(out, "    line {}: {}", x.line, x.text);
                let _ = writeln!(
                    out,
                    "    LLVM: uniform; the model: tid {} gets {} and tid {} gets {} in one \
                     converged execution (block %{})",
                    x.tids[0], x.values[0], x.tids[1], x.values[1], x.block
                );
                if x.uses.is_empty() {
                    let _ = writeln!(out, "    used by: nothing");
                } else {
                    let _ = writeln!(out, "    used by:");
                    for u in &x.uses {
                        let _ = writeln!(out, "      line {}: {}", u.line, u.text);
                    }
                }
                let _ = writeln!(
                    out,
                    "    scenario: a group of {}; tid {}: {}; tid {}: {}",
                    x.group,
                    x.tids[0],
                    if x.inputs[0].is_empty() {
                        "-"
                    } else {
                        &x.inputs[0]
                    },
                    x.tids[1],
                    if x.inputs[1].is_empty() {
                        "-"
                    } else {
                        &x.inputs[1]
                    },
                );
                if x.cut {
                    let _ = writeln!(
                        out,
                        "    (a run goes on past max-iters; the table shows the prefix examined)"
                    );
                }
                let _ = writeln!(out, "    cycles: {}", x.hierarchy);
                let _ = writeln!(
                    out,
                    "    block instances (one column is one converged instance):"
                );
                out.push_str(&x.table.render("      "));
            }
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "verdict: {} ({} finding{})",
            self.verdict,
            self.findings,
            if self.findings == 1 { "" } else { "s" }
        );
        out
    }
}
