//! The one loop of `convcheck fuzz`, for every kind of target (a built-in
//! pass, an external command, a real `opt` pipeline): programs by seed (or
//! the given files), each examined by the target, a violation of a
//! generated program minimized while the target still finds the same one,
//! every program worth keeping written out as a case, a progress line, and
//! the counts the summary prints.

use super::{program_seed, FuzzArgs};
use crate::engine::Property;
use crate::pipeline::Progress;
use convcheck_generators::{generate_seeded, shrink_kernel, Config};
use convcheck_lang::syntax::ast::File;
use std::time::Instant;

/// What examining one program gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Examined {
    /// Every property kept.
    Preserved,
    /// A property broken; `class` tells violations apart while minimizing
    /// (the pass that broke it, for `--opt`).
    Violated {
        /// The property.
        property: Property,
        /// What else must stay the same while minimizing.
        class: Option<String>,
        /// One line: what was broken, where.
        what: String,
    },
    /// Not decided: why.
    Inconclusive(String),
    /// The command or a tool failed: never a verdict.
    Failed(String),
}

impl Examined {
    /// The kind of case it makes, if any.
    pub(super) fn kind(&self) -> Option<&'static str> {
        match self {
            Examined::Preserved => None,
            Examined::Violated { .. } => Some("violation"),
            Examined::Inconclusive(_) => Some("inconclusive"),
            Examined::Failed(_) => Some("failure"),
        }
    }

    /// One line for the summary and the case's header.
    pub(super) fn what(&self) -> String {
        match self {
            Examined::Preserved => String::new(),
            Examined::Violated { what, .. } => what.clone(),
            Examined::Inconclusive(w) | Examined::Failed(w) => w.clone(),
        }
    }
}

/// A program of the run: generated from a seed, or a file given with
/// `--input`.
pub(super) struct Candidate {
    /// Its index in the run (the seed's program number, or the input's).
    pub index: u64,
    /// The seed it was generated from.
    pub seed: Option<u64>,
    /// The program.
    pub file: File,
    /// The input file it was read from, and its text as written.
    pub input: Option<(String, String)>,
}

/// A program worth writing out: a violation (minimized), an inconclusive
/// program or a failure.
#[derive(Clone, Debug)]
pub(super) struct Found {
    /// `violation`, `inconclusive` or `failure`.
    pub kind: &'static str,
    pub index: u64,
    pub seed: Option<u64>,
    /// The property broken, or why the program is inconclusive or failed.
    pub what: String,
    pub statements_before: usize,
    pub statements_after: usize,
    /// The program's text as written (header comment included).
    pub text: String,
    /// The file it is (or would be) written to.
    pub file: String,
    pub report_text: String,
    pub report_json: serde_json::Value,
    /// The command that checks the written case again.
    pub recheck: String,
    /// The commands that made the case's files (`clang_command`, ...).
    pub commands: Vec<(&'static str, String)>,
    /// What went wrong while writing the case, or where its re-check
    /// disagrees with the run.
    pub notes: Vec<String>,
    /// What an external command was given and printed.
    pub exchanged: Option<(String, String)>,
    /// A violation's deduplication key (set by [`run`]).
    pub key: Option<super::dedup::Key>,
}

/// What a fuzz run checks programs against.
pub(super) trait Target {
    /// Examines one program (quickly: counting and minimizing).
    fn examine(&mut self, c: &Candidate, file: &File) -> Examined;

    /// The case of `c`, minimized to `small`, that examining gave `first`.
    fn case(&mut self, c: &Candidate, small: &File, first: &Examined) -> Found;

    /// The pass a violation without a class is blamed on.
    fn name(&self) -> String;
}

/// The counts of a run.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Counts {
    pub programs: u64,
    pub preserved: u64,
    pub violations: u64,
    pub inconclusive: u64,
    pub failures: u64,
}

impl Counts {
    /// The run's verdict: never `preserved` for a run whose commands
    /// failed (with every command failing nothing was examined: an error;
    /// with some, not everything was: inconclusive).
    pub(super) fn verdict(&self) -> &'static str {
        if self.violations > 0 {
            "violated"
        } else if self.failures > 0 && self.failures == self.programs {
            "error"
        } else if self.inconclusive > 0 || self.failures > 0 {
            "inconclusive"
        } else {
            "preserved"
        }
    }
}

/// A run: its counts, its cases and how long it took.
pub(super) struct Campaign {
    pub counts: Counts,
    pub found: Vec<Found>,
    pub secs: f64,
    pub shard: (u64, u64),
}

/// Runs `target` on the programs of `a` (see the module documentation).
pub(super) fn run(
    target: &mut dyn Target,
    a: &FuzzArgs,
    config: &Config,
    inputs: &[(String, String, File)],
    (shard, shards): (u64, u64),
    progress: &dyn Progress,
) -> Campaign {
    let start = Instant::now();
    let mut counts = Counts::default();
    let mut found: Vec<Found> = Vec::new();
    let (mut i, mut k) = (shard, 0usize);
    loop {
        let done = if inputs.is_empty() {
            a.count.is_some_and(|n| counts.programs >= n)
                || a.time
                    .is_some_and(|t| start.elapsed().as_secs_f64() >= t as f64)
        } else {
            k >= inputs.len()
        };
        if done {
            break;
        }
        let c = match inputs.get(k) {
            Some((path, text, f)) => {
                k += 1;
                Candidate {
                    index: k as u64 - 1,
                    seed: None,
                    file: f.clone(),
                    input: Some((path.clone(), text.clone())),
                }
            }
            None => {
                let seed = program_seed(a.seed, i);
                Candidate {
                    index: i,
                    seed: Some(seed),
                    file: generate_seeded(config, seed),
                    input: None,
                }
            }
        };
        let first = target.examine(&c, &c.file);
        match &first {
            Examined::Preserved => counts.preserved += 1,
            Examined::Violated { .. } => counts.violations += 1,
            Examined::Inconclusive(_) => counts.inconclusive += 1,
            Examined::Failed(_) => counts.failures += 1,
        }
        if let Some(kind) = first.kind() {
            let small = minimized(target, &c, &first);
            let mut case = target.case(&c, &small, &first);
            if let Examined::Violated {
                property, class, ..
            } = &first
            {
                case.key = Some(super::dedup::Key {
                    pass: class.clone().unwrap_or_else(|| target.name()),
                    property: property.name().to_string(),
                    nest: super::dedup::loop_nest(&small),
                    shape: super::dedup::shape(&small),
                });
            }
            found.push(case);
            if a.stop_at_first && kind == "violation" {
                counts.programs += 1;
                break;
            }
        }
        counts.programs += 1;
        i += shards;
        if counts.programs % 10 == 0 {
            let secs = start.elapsed().as_secs_f64();
            progress.report(&format!(
                "{} programs, {:.1}/s, {} violations, {} inconclusive, {} failures",
                counts.programs,
                counts.programs as f64 / secs.max(1e-9),
                counts.violations,
                counts.inconclusive,
                counts.failures
            ));
        }
    }
    Campaign {
        counts,
        found,
        secs: start.elapsed().as_secs_f64(),
        shard: (shard, shards),
    }
}

/// A generated program's violation, minimized while the target still
/// finds the same property broken (of the same class); any other program
/// as it is.
fn minimized(target: &mut dyn Target, c: &Candidate, first: &Examined) -> File {
    let Examined::Violated {
        property, class, ..
    } = first
    else {
        return c.file.clone();
    };
    if c.seed.is_none() {
        return c.file.clone();
    }
    shrink_kernel(&c.file, |g| {
        matches!(
            target.examine(c, g),
            Examined::Violated { property: p, class: k, .. } if p == *property && k == *class
        )
    })
}
