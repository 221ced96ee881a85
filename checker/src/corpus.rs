//! The example corpus as data: tables every engine must reproduce
//! (`examples/corpus/tables.toml`) and the checker's expected verdicts
//! (`examples/corpus/expectations.toml`).
//!
//! One corpus serves every consumer: `convcheck demo` shows the seed's
//! tables from it, `checker/tests/tables.rs` runs each table at each of its
//! levels under the key engine and the relational engine, and
//! `checker/tests/corpus.rs` runs every verdict.

use crate::cli::Engine;
use crate::run::run_report_at;
use crate::Outcome;
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
    ) -> Result<Vec<Vec<Option<String>>>, Outcome> {
        let scenario = self.scenario().map_err(Outcome::usage)?;
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
