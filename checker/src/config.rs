//! The checker's library API: what a check is asked ([`CheckConfig`],
//! [`CheckJob`]) and what it answers ([`Verdict`]), independent of the
//! command line.
//!
//! The binary (`src/bin/convcheck/cli.rs`) converts its arguments into
//! these types; `fuzz`, `bench`, `demo`, the fuzz oracles, the corpus and
//! the explorer build them directly, starting from their `Default`. The budgets of a check
//! (time, pairs, memory) are [`crate::engine::Budget`], given to
//! [`crate::check::run_check_budgeted`]; [`crate::check::run_check_on`]
//! uses the default budget.

use crate::Status;

/// The semantics the reference runs at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reference {
    /// The kernel's source-level convergence (lowering is checked too).
    #[default]
    Source,
    /// The lowered CFG's own semantics.
    Cfg,
}

/// What to check and within which bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckConfig {
    /// The kernel entry (default: the only function no other calls).
    pub function: Option<String>,
    /// The pipeline: pass names with options (`simplifycfg<keep-loops>`).
    pub passes: Vec<String>,
    /// Lower with convergence-control tokens placed from the source.
    pub tokens: bool,
    /// The reference semantics.
    pub reference: Reference,
    /// Threads in the group (`N` in the kernel) when the group is fixed;
    /// 0 (the default) for every group size `N >= 2`: the verdict then
    /// holds for every group size and every pair of thread indices
    /// (DESIGN.md 2.2).
    pub threads: u32,
    /// Largest iteration number of any loop execution in a scenario.
    pub max_iters: u32,
    /// Instructions one thread may execute.
    pub fuel: u64,
    /// Paths per thread before the check is inconclusive.
    pub max_paths: usize,
}

impl Default for CheckConfig {
    fn default() -> CheckConfig {
        CheckConfig {
            function: None,
            passes: Vec::new(),
            tokens: false,
            reference: Reference::Source,
            threads: 0,
            max_iters: DEFAULT_MAX_ITERS,
            fuel: 100_000,
            max_paths: 20_000,
        }
    }
}

/// How a report is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    #[default]
    Text,
    /// One JSON object.
    Json,
    /// SARIF 2.1.0, for code-scanning front ends.
    Sarif,
}

/// Which engine decides a check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The symbolic product for every stage it models, the explicit engine
    /// for a stage it does not (an anchor, a removed barrier's hazards,
    /// recursion), never for one it ran out of budget on.
    #[default]
    Auto,
    /// Explicit enumeration of scenarios and paths ([`crate::engine`]).
    Explicit,
    /// The symbolic two-thread product solved by z3
    /// ([`crate::symbolic`]); on LLVM IR the explicit engine decides what
    /// it does not model.
    Smt,
}

/// A check as the `check` command asks for it: the files, the check's
/// configuration and how to print the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckJob {
    /// The reference file (kernel language, LLVM IR, or a C/CUDA/OpenCL
    /// source with a front end).
    pub src: String,
    /// Optionally, a second file: the target.
    pub tgt: Option<String>,
    /// The kernel entry, or the LLVM function to check.
    pub function: Option<String>,
    /// The pipeline of convcheck's own passes.
    pub passes: Vec<String>,
    /// Lower with convergence-control tokens placed from the source.
    pub tokens: bool,
    /// The reference semantics.
    pub reference: Reference,
    /// The group size when it is fixed; 0 for every group size `N >= 2`.
    pub threads: u32,
    /// Largest iteration number of any loop execution in a scenario.
    pub max_iters: u32,
    /// Instructions one thread may execute.
    pub fuel: u64,
    /// Paths per thread index before the check is inconclusive.
    pub max_paths: usize,
    /// How the report is printed.
    pub format: Format,
}

impl Default for CheckJob {
    fn default() -> CheckJob {
        let c = CheckConfig::default();
        CheckJob {
            src: String::new(),
            tgt: None,
            function: c.function,
            passes: c.passes,
            tokens: c.tokens,
            reference: c.reference,
            threads: c.threads,
            max_iters: c.max_iters,
            fuel: c.fuel,
            max_paths: c.max_paths,
            format: Format::Text,
        }
    }
}

impl CheckJob {
    /// The job of checking `src` with configuration `c`.
    pub fn of(src: &str, c: &CheckConfig) -> CheckJob {
        CheckJob {
            src: src.to_string(),
            tgt: None,
            function: c.function.clone(),
            passes: c.passes.clone(),
            tokens: c.tokens,
            reference: c.reference,
            threads: c.threads,
            max_iters: c.max_iters,
            fuel: c.fuel,
            max_paths: c.max_paths,
            format: Format::Text,
        }
    }

    /// The check's configuration.
    pub fn config(&self) -> CheckConfig {
        CheckConfig {
            function: self.function.clone(),
            passes: self.passes.clone(),
            tokens: self.tokens,
            reference: self.reference,
            threads: self.threads,
            max_iters: self.max_iters,
            fuel: self.fuel,
            max_paths: self.max_paths,
        }
    }
}

/// The default iteration bound: iterations 0 to 8 of every loop
/// execution (a loop whose fifth iteration differs is examined with room
/// to spare).
pub const DEFAULT_MAX_ITERS: u32 = 8;

/// The answer of a check (DESIGN.md 2.7, "Verdicts").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Holds for every execution, with no bound.
    Proved,
    /// No counterexample within the listed bounds.
    Preserved,
    /// A counterexample, replayable.
    Violated,
    /// A budget ran out, or the input uses what the model does not cover.
    Inconclusive,
}

impl Verdict {
    /// The verdict's name in reports (`"violated"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Proved => "proved",
            Verdict::Preserved => "preserved",
            Verdict::Violated => "violated",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// What the verdict means for a command's answer.
    pub fn status(self) -> Status {
        match self {
            Verdict::Proved | Verdict::Preserved => Status::Holds,
            Verdict::Violated => Status::Found,
            Verdict::Inconclusive => Status::Inconclusive,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Verdict {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}
