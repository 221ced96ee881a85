//! The example corpus as data: tables every engine must reproduce
//! (`examples/corpus/tables.toml`) and the checker's expected verdicts
//! (`examples/corpus/expectations.toml`).
//!
//! One corpus serves every consumer: `convcheck demo` shows the seed's
//! tables from it, `checker/tests/tables.rs` runs each table at each of its
//! levels under the key engine and the relational engine, and
//! `checker/tests/corpus.rs` runs every verdict.

use crate::report::Invocation;
use crate::run::run_report_at;
use crate::run::Relation as Engine;
use crate::{Error, Output, Status};
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
    /// The expected verdict: `preserved`, `violated` or `inconclusive`.
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
    /// A second kernel file, the target (`check SRC TGT`), relative to the
    /// file's `root`.
    #[serde(default)]
    pub target: Option<String>,
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

/// One case's outcome.
struct CaseResult {
    kernel: String,
    function: String,
    case: Case,
    verdict: String,
    stage: Option<String>,
    ok: bool,
    detail: String,
    report: Option<serde_json::Value>,
}

const VERDICTS: [&str; 3] = ["preserved", "violated", "inconclusive"];

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
}

/// The `corpus` command: every case of an expectations file (or, given a
/// kernel file, every function of it under the given pipeline).
pub fn corpus(a: &CorpusArgs, inv: &Invocation) -> Result<Output, Error> {
    use crate::config::Format as ReportFormat;
    let (file, root) = if a.file.ends_with(".toml") {
        let text = match std::fs::read_to_string(&a.file) {
            Ok(t) => t,
            Err(e) => return Err(Error::usage(format!("{}: cannot read: {e}", a.file))),
        };
        let file: Expectations = match toml::from_str(&text) {
            Ok(f) => f,
            Err(e) => return Err(Error::usage(format!("{}: {e}", a.file))),
        };
        let dir = std::path::Path::new(&a.file)
            .parent()
            .unwrap_or(std::path::Path::new(""));
        let root = dir.join(file.root.as_deref().unwrap_or("."));
        (file, root)
    } else {
        // A kernel file: every function, no expectation.
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
        };
        let file = Expectations {
            root: None,
            threads: a.threads,
            max_iters: a.max_iters,
            case: vec![case],
            table: Vec::new(),
        };
        (file, std::path::PathBuf::new())
    };
    if matches!(a.threads, Some(0 | 1)) || file.threads == Some(1) {
        return Err(Error::usage(
            "threads: a group needs at least 2 threads (omit it to check every group size)",
        ));
    }
    let path_of = |k: &str| -> String {
        if root.as_os_str().is_empty() {
            k.to_string()
        } else {
            normalize(&root.join(k))
        }
    };
    let mut results: Vec<CaseResult> = Vec::new();
    for c in &file.case {
        if !c.verdict.is_empty() && !VERDICTS.contains(&c.verdict.as_str()) {
            return Err(Error::usage(format!(
                "{}: case {}: verdict `{}` is not one of {}",
                a.file,
                c.kernel,
                c.verdict,
                VERDICTS.join(", ")
            )));
        }
        let path = path_of(&c.kernel);
        let kernel = crate::load_kernel(&path)?;
        let target = match &c.target {
            Some(t) => Some(crate::load_kernel(&path_of(t))?),
            None => None,
        };
        let functions: Vec<Option<String>> = match c.function.as_deref() {
            Some("*") => kernel
                .functions
                .iter()
                .map(|f| Some(f.name.clone()))
                .collect(),
            other => vec![other.map(str::to_string)],
        };
        let reference = match c.reference.as_deref() {
            None | Some("source") => crate::config::Reference::Source,
            Some("cfg") => crate::config::Reference::Cfg,
            Some(r) => {
                return Err(Error::usage(format!(
                    "{}: case {}: reference `{r}` is not source or cfg",
                    a.file, c.kernel
                )))
            }
        };
        for function in functions {
            let config = crate::config::CheckConfig {
                function: function.clone(),
                passes: c.passes.clone(),
                tokens: c.tokens,
                reference,
                threads: c.threads.or(file.threads).unwrap_or(0),
                max_iters: c
                    .max_iters
                    .or(file.max_iters)
                    .unwrap_or(crate::config::DEFAULT_MAX_ITERS),
                ..crate::config::CheckConfig::default()
            };
            let settings = crate::pipeline::with_engine(crate::config::Engine::Explicit);
            let report = crate::pipeline::check_kernels(
                &path,
                kernel.clone(),
                target.clone(),
                &config,
                &settings,
            )?;
            let verdict = report.verdict().as_str().to_string();
            let fr = &report.functions[0];
            let broken = fr
                .stages
                .iter()
                .find(|s| !matches!(s.outcome, crate::engine::Outcome::Preserved { .. }))
                .map(|s| s.name.clone());
            let nothing = fr.stages.is_empty();
            let (ok, detail) = if nothing {
                (
                    false,
                    "nothing to check: with reference cfg give at least one pass".to_string(),
                )
            } else if c.verdict.is_empty() {
                (
                    verdict != "violated" && verdict != "inconclusive",
                    String::new(),
                )
            } else if verdict != c.verdict {
                (false, format!("expected {}, got {verdict}", c.verdict))
            } else if c.stage.is_some() && broken != c.stage {
                (
                    false,
                    format!(
                        "expected stage {}, got {}",
                        c.stage.as_deref().unwrap_or("-"),
                        broken.as_deref().unwrap_or("none")
                    ),
                )
            } else {
                (true, String::new())
            };
            let why = fr.first_broken().and_then(|(_, s)| match &s.outcome {
                crate::engine::Outcome::Inconclusive(w) => Some(w.clone()),
                crate::engine::Outcome::Violated(f) => Some(f.message.clone()),
                _ => None,
            });
            let detail = match (detail.is_empty(), why) {
                (true, Some(w)) if c.verdict.is_empty() => w,
                (false, Some(w)) => format!("{detail}: {w}"),
                (_, _) => detail,
            };
            results.push(CaseResult {
                kernel: path.clone(),
                function: fr.function.clone(),
                case: c.clone(),
                verdict,
                stage: broken,
                ok,
                detail,
                report: (a.format != ReportFormat::Text)
                    .then(|| crate::report::json::value(&report, &Invocation::default())),
            });
        }
    }
    // Tables: each at each level, under the key engine.
    let mut tables: Vec<(String, String, bool, String)> = Vec::new();
    for t in &file.table {
        let path = path_of(&t.kernel);
        let kernel = crate::load_kernel(&path)?;
        for &level in &t.levels {
            let (ok, detail) = match t.compute(&kernel, level, Engine::Keys) {
                Ok(got) if got == t.expected() => (true, String::new()),
                Ok(got) => (false, format!("expected {:?}, got {got:?}", t.rows)),
                Err(e) => (false, e.to_string()),
            };
            tables.push((t.name.clone(), level.name().to_string(), ok, detail));
        }
    }
    let failed = results.iter().filter(|r| !r.ok).count() + tables.iter().filter(|t| !t.2).count();
    let expectations = !file.case.iter().all(|c| c.verdict.is_empty());
    let code = if !expectations && file.table.is_empty() {
        // No expectation: the worst verdict decides, as for `check`.
        if results.iter().any(|r| r.verdict == "violated") {
            Status::Found
        } else if results.iter().any(|r| r.verdict != "preserved") {
            Status::Inconclusive
        } else {
            Status::Holds
        }
    } else if failed > 0 {
        Status::Found
    } else {
        Status::Holds
    };
    let count = |v: &str| results.iter().filter(|r| r.verdict == v).count();
    let summary = if !expectations && file.table.is_empty() {
        format!(
            "{} function{}: {} preserved, {} violated, {} inconclusive",
            results.len(),
            if results.len() == 1 { "" } else { "s" },
            count("preserved"),
            count("violated"),
            count("inconclusive")
        )
    } else {
        format!(
            "{} case{} and {} table{}: {} as expected, {failed} not",
            results.len(),
            if results.len() == 1 { "" } else { "s" },
            tables.len(),
            if tables.len() == 1 { "" } else { "s" },
            results.len() + tables.len() - failed
        )
    };
    let stdout = match a.format {
        ReportFormat::Text => {
            let mut out = String::new();
            for r in &results {
                let mark = match (r.ok, r.case.verdict.is_empty()) {
                    (true, _) => "ok  ",
                    (false, true) => "BAD ",
                    (false, false) => "FAIL",
                };
                let passes = if r.case.passes.is_empty() {
                    "lower".to_string()
                } else {
                    r.case.passes.join(",")
                };
                let tokens = if r.case.tokens { " --tokens" } else { "" };
                let stage = r
                    .stage
                    .as_deref()
                    .map(|s| format!(" at {s}"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "{mark} {} `{}` [{passes}{tokens}] reference {}: {}{stage}",
                    r.kernel,
                    r.function,
                    r.case.reference.as_deref().unwrap_or("source"),
                    r.verdict
                ));
                if !r.detail.is_empty() {
                    out.push_str(&format!(" ({})", r.detail));
                }
                out.push('\n');
            }
            for (name, level, ok, detail) in &tables {
                let mark = if *ok { "ok  " } else { "FAIL" };
                out.push_str(&format!("{mark} table {name} at {level}"));
                if !detail.is_empty() {
                    out.push_str(&format!(" ({detail})"));
                }
                out.push('\n');
            }
            out.push_str(&summary);
            out.push('\n');
            out
        }
        ReportFormat::Json => {
            let v = serde_json::json!({
                "tool": crate::report::json::Tool::this(),
                "command_line": inv.command_line,
                "file": a.file,
                "verdict": if code == Status::Holds { "passed" } else { "failed" },
                "summary": summary,
                "cases": results.iter().map(|r| serde_json::json!({
                    "kernel": r.kernel,
                    "function": r.function,
                    "passes": r.case.passes,
                    "tokens": r.case.tokens,
                    "reference": r.case.reference.as_deref().unwrap_or("source"),
                    "expected": (!r.case.verdict.is_empty()).then_some(&r.case.verdict),
                    "expected_stage": r.case.stage,
                    "verdict": r.verdict,
                    "stage": r.stage,
                    "ok": r.ok,
                    "detail": r.detail,
                    "report": r.report,
                })).collect::<Vec<_>>(),
                "tables": tables.iter().map(|(n, l, ok, d)| serde_json::json!({"name": n, "level": l, "ok": ok, "detail": d})).collect::<Vec<_>>(),
            });
            format!("{v}\n")
        }
        ReportFormat::Sarif => format!("{}\n", corpus_sarif(&results, &tables, code.code())),
    };
    Ok(Output {
        text: stdout,
        status: code,
        remark: None,
    })
}

/// The SARIF log of a corpus run: an `error` result (rule `expectation`)
/// per case or table that did not meet its expectation, a `warning`
/// (rule `inconclusive`) per inconclusive case that expected otherwise is
/// already an error; without expectations, every violated function is an
/// error and every inconclusive one a warning.
fn corpus_sarif(
    results: &[CaseResult],
    tables: &[(String, String, bool, String)],
    code: i32,
) -> serde_json::Value {
    use crate::report::sarif::sarif_uri;
    let mut out = Vec::new();
    for r in results.iter().filter(|r| !r.ok) {
        let (rule, level) = if r.case.verdict.is_empty() {
            if r.verdict == "violated" {
                ("violation", "error")
            } else {
                ("inconclusive", "warning")
            }
        } else {
            ("expectation", "error")
        };
        out.push(serde_json::json!({
            "ruleId": rule,
            "level": level,
            "message": {"text": format!("`{}` [{}]: {}: {}", r.function, r.case.passes.join(","), r.verdict, r.detail)},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": sarif_uri(&r.kernel)}, "region": {"startLine": 1}}}],
        }));
    }
    for (name, level, _, detail) in tables.iter().filter(|t| !t.2) {
        out.push(serde_json::json!({
            "ruleId": "expectation",
            "level": "error",
            "message": {"text": format!("table {name} at {level}: {detail}")},
        }));
    }
    serde_json::json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "convcheck",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": [
                    {"id": "expectation", "shortDescription": {"text": "A corpus case did not get its expected verdict"}},
                    {"id": "violation", "shortDescription": {"text": "A transform does not preserve convergence or hazard-freedom"}},
                    {"id": "inconclusive", "shortDescription": {"text": "The check did not reach an answer"}},
                ],
            }},
            "invocations": [{"executionSuccessful": true, "exitCode": code}],
            "results": out,
        }]
    })
}
