//! The checker's library API: what a check is asked ([`CheckConfig`]) and
//! what it answers ([`Verdict`]), independent of the command line.
//!
//! The CLI (`cli.rs`) converts its arguments into a `CheckConfig`; `fuzz`,
//! `bench`, `demo`, the fuzz oracles, the corpus and the explorer build one
//! directly, starting from [`CheckConfig::default`]. The budgets of a check
//! (time, pairs, memory) are [`crate::engine::Budget`], given to
//! [`crate::check::run_check_budgeted`]; [`crate::check::run_check_on`]
//! uses the default budget.

use crate::{EXIT_INCONCLUSIVE, EXIT_OK, EXIT_VIOLATION};

/// The semantics the reference runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reference {
    /// The kernel's source-level convergence (lowering is checked too).
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

    /// The exit code of DESIGN.md section 4.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Proved | Verdict::Preserved => EXIT_OK,
            Verdict::Violated => EXIT_VIOLATION,
            Verdict::Inconclusive => EXIT_INCONCLUSIVE,
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
