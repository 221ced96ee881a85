//! The outcome of a corpus run and its three renderings: one text line per
//! case and table with a summary, one JSON object, or a SARIF log whose
//! results are the cases that did not meet their expectation.

use super::cases::{CaseResult, TableResult};
use super::Expectations;
use crate::report::Invocation;
use crate::Status;

/// What a corpus run found.
pub(super) struct Outcome {
    /// One result per case and function.
    pub results: Vec<CaseResult>,
    /// One result per table and level.
    pub tables: Vec<TableResult>,
    /// Whether any case has an expectation (else the worst verdict
    /// decides the exit code, as for `check`).
    pub expectations: bool,
    /// The exit status.
    pub status: Status,
    /// The summary line.
    pub summary: String,
}

impl Outcome {
    /// The outcome of `results` and `tables` for `file`.
    pub(super) fn of(
        file: &Expectations,
        results: Vec<CaseResult>,
        tables: Vec<TableResult>,
    ) -> Outcome {
        let failed =
            results.iter().filter(|r| !r.ok).count() + tables.iter().filter(|t| !t.2).count();
        let expectations = !file.case.iter().all(|c| c.verdict.is_empty()) || !tables.is_empty();
        let count = |v: &str| results.iter().filter(|r| r.verdict == v).count();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let (status, summary) = if !expectations {
            // No expectation: the worst verdict decides, as for `check`.
            let status = if count("violated") > 0 {
                Status::Found
            } else if count("inconclusive") > 0 {
                Status::Inconclusive
            } else {
                Status::Holds
            };
            let summary = format!(
                "{} function{}: {} preserved, {} violated, {} inconclusive",
                results.len(),
                plural(results.len()),
                count("preserved") + count("proved"),
                count("violated"),
                count("inconclusive")
            );
            (status, summary)
        } else {
            let status = if failed > 0 {
                Status::Found
            } else {
                Status::Holds
            };
            let summary = format!(
                "{} case{} and {} table{}: {} as expected, {failed} not",
                results.len(),
                plural(results.len()),
                tables.len(),
                plural(tables.len()),
                results.len() + tables.len() - failed
            );
            (status, summary)
        };
        Outcome {
            results,
            tables,
            expectations,
            status,
            summary,
        }
    }

    /// One line per case and table, then the summary.
    pub(super) fn text(&self) -> String {
        let mut out = String::new();
        for r in &self.results {
            out.push_str(&case_line(r));
            out.push('\n');
        }
        for (name, level, ok, detail) in &self.tables {
            let mark = if *ok { "ok  " } else { "FAIL" };
            out.push_str(&format!("{mark} table {name} at {level}"));
            if !detail.is_empty() {
                out.push_str(&format!(" ({detail})"));
            }
            out.push('\n');
        }
        out.push_str(&self.summary);
        out.push('\n');
        out
    }

    /// One JSON object.
    pub(super) fn json(&self, file: &str, inv: &Invocation) -> String {
        let v = serde_json::json!({
            "tool": crate::report::json::Tool::this(),
            "command_line": inv.command_line,
            "file": file,
            "verdict": if self.status == Status::Holds { "passed" } else { "failed" },
            "summary": self.summary,
            "cases": self.results.iter().map(case_json).collect::<Vec<_>>(),
            "tables": self.tables.iter().map(|(n, l, ok, d)| {
                serde_json::json!({"name": n, "level": l, "ok": ok, "detail": d})
            }).collect::<Vec<_>>(),
        });
        format!("{v}\n")
    }

    /// The SARIF log: an `error` result (rule `expectation`) per case or
    /// table that did not meet its expectation; without expectations,
    /// every violated function is an error (rule `violation`) and every
    /// inconclusive one a warning (rule `inconclusive`).
    pub(super) fn sarif(&self) -> String {
        use crate::report::sarif::sarif_uri;
        let mut out = Vec::new();
        for r in self.results.iter().filter(|r| !r.ok) {
            let (rule, level) = if !self.expectations || r.case.verdict.is_empty() {
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
                "message": {"text": format!("`{}` [{}]: {}: {}", r.function, r.case.pipeline(), r.verdict, r.detail)},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": sarif_uri(&r.kernel)}, "region": {"startLine": 1}}}],
            }));
        }
        for (name, level, _, detail) in self.tables.iter().filter(|t| !t.2) {
            out.push(serde_json::json!({
                "ruleId": "expectation",
                "level": "error",
                "message": {"text": format!("table {name} at {level}: {detail}")},
            }));
        }
        let v = serde_json::json!({
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
                "invocations": [{"executionSuccessful": true, "exitCode": self.status.code()}],
                "results": out,
            }]
        });
        format!("{v}\n")
    }
}

/// A case's text line: mark, file, function, pipeline, reference,
/// verdict, the stage that broke it, and why.
fn case_line(r: &CaseResult) -> String {
    let mark = match (r.ok, r.case.verdict.is_empty()) {
        (true, _) => "ok  ",
        (false, true) => "BAD ",
        (false, false) => "FAIL",
    };
    let mut flags = String::new();
    if r.case.tokens {
        flags.push_str(" --tokens");
    }
    if let Some(g) = &r.case.gpu {
        flags.push_str(&format!(" --target {g}"));
    }
    for a in &r.case.clang_args {
        flags.push_str(&format!(" --clang-arg={a}"));
    }
    for a in &r.case.opt_args {
        flags.push_str(&format!(" --opt-arg={a}"));
    }
    let stage = r
        .stage
        .as_deref()
        .map(|s| format!(" at {s}"))
        .unwrap_or_default();
    let mut line = format!(
        "{mark} {} `{}` [{}{flags}] reference {}: {}{stage}",
        r.kernel,
        r.function,
        r.case.pipeline(),
        r.reference,
        r.verdict
    );
    if !r.detail.is_empty() {
        line.push_str(&format!(" ({})", r.detail));
    }
    line
}

/// A case's JSON object.
fn case_json(r: &CaseResult) -> serde_json::Value {
    serde_json::json!({
        "kernel": r.kernel,
        "function": r.function,
        "passes": r.case.passes,
        "opt": r.case.opt,
        "frontend": r.case.frontend,
        "gpu": r.case.gpu,
        "clang_args": r.case.clang_args,
        "opt_args": r.case.opt_args,
        "tokens": r.case.tokens,
        "reference": r.reference,
        "expected": (!r.case.verdict.is_empty()).then_some(&r.case.verdict),
        "expected_stage": r.case.stage,
        "verdict": r.verdict,
        "stage": r.stage,
        "ok": r.ok,
        "detail": r.detail,
        "report": r.report,
    })
}
