//! The reports of `check` on LLVM IR: one function as a kernel check
//! prints it (text, JSON, SARIF), several one after the other with a
//! summary, their JSON under `"functions"`, their SARIF results in one
//! run, and the exit code of the worst verdict.

use super::FunctionCheck;
use crate::check::{render_json, render_sarif, render_text, CheckReport};
use crate::cli::{CheckArgs, ReportFormat};
use crate::config::Verdict;
use crate::engine::Outcome as EngineOutcome;
use crate::Outcome;

fn worst(reports: &[FunctionCheck]) -> Verdict {
    let vs: Vec<Verdict> = reports.iter().map(|r| r.report.verdict()).collect();
    if vs.contains(&Verdict::Violated) {
        Verdict::Violated
    } else if vs.contains(&Verdict::Inconclusive) {
        Verdict::Inconclusive
    } else {
        Verdict::Preserved
    }
}

/// The text report of one function. A static-rule violation has no
/// scenario, tables or replay line: those lines of the kernel report are
/// left out.
fn text_of(report: &CheckReport) -> String {
    let text = render_text(report);
    let static_rule = report.first_broken().is_some_and(
        |(_, s)| matches!(&s.outcome, EngineOutcome::Violated(f) if f.tids.is_empty()),
    );
    // `convcheck run` reads kernel-language files: a replay line for LLVM
    // IR, or for a stage of opt, would not run.
    let runnable = !super::is_ll(&report.file);
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        if static_rule && line.contains("static rule of convergence control tokens broken") {
            // The rule and its line; no scenario, tables or replay.
            out.push_str(line);
            out.push('\n');
            skipping = true;
            continue;
        }
        if skipping {
            if line.is_empty() {
                skipping = false;
            } else {
                continue;
            }
        }
        if line.starts_with("  replay the target:") || (!runnable && line.starts_with("  replay:"))
        {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The JSON report of one function, without replay lines that would not
/// run (see [`text_of`]).
pub(super) fn json_of(report: &CheckReport) -> serde_json::Value {
    let mut v = render_json(report);
    if let Some(c) = v.get_mut("counterexample").and_then(|c| c.as_object_mut()) {
        if c.contains_key("replay_target") {
            c.insert("replay_target".into(), serde_json::Value::Null);
        }
        if super::is_ll(&report.file) && c.contains_key("replay") {
            c.insert("replay".into(), serde_json::Value::Null);
        }
    }
    v
}

pub(super) fn render(a: &CheckArgs, reports: &[FunctionCheck], only_one: &[String]) -> Outcome {
    let verdict = worst(reports);
    let stdout = if let [one] = reports {
        let mut s = match a.format {
            ReportFormat::Text => text_of(&one.report),
            ReportFormat::Json => format!("{}\n", json_of(&one.report)),
            ReportFormat::Sarif => format!("{}\n", render_sarif(&one.report)),
        };
        if a.format == ReportFormat::Text && !only_one.is_empty() {
            s.push_str(&format!(
                "not compared (defined on one side only): {}\n",
                only_one
                    .iter()
                    .map(|n| format!("@{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        s
    } else {
        match a.format {
            ReportFormat::Text => {
                let mut s = String::new();
                for r in reports {
                    s.push_str(&text_of(&r.report));
                    s.push('\n');
                }
                s.push_str(&format!("functions: {}\n", reports.len()));
                for r in reports {
                    let at = r
                        .report
                        .first_broken()
                        .map(|(i, st)| format!(" (first at stage {}: {})", i + 1, st.name))
                        .unwrap_or_default();
                    s.push_str(&format!(
                        "  @{}: {}{at}\n",
                        r.report.function,
                        r.report.verdict()
                    ));
                }
                if !only_one.is_empty() {
                    s.push_str(&format!(
                        "not compared (defined on one side only): {}\n",
                        only_one
                            .iter()
                            .map(|n| format!("@{n}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                s.push_str(&format!("verdict: {verdict}\n"));
                s
            }
            ReportFormat::Json => {
                let v = serde_json::json!({
                    "verdict": verdict.as_str(),
                    "file": a.src,
                    "functions": reports.iter().map(|r| json_of(&r.report)).collect::<Vec<_>>(),
                    "not_compared": only_one,
                });
                format!("{v}\n")
            }
            ReportFormat::Sarif => {
                let mut all = render_sarif(&reports[0].report);
                let mut results = Vec::new();
                let mut props = Vec::new();
                for r in reports {
                    let s = render_sarif(&r.report);
                    if let Some(rs) = s["runs"][0]["results"].as_array() {
                        results.extend(rs.iter().cloned());
                    }
                    props.push(serde_json::json!({
                        "function": r.report.function,
                        "verdict": r.report.verdict().as_str(),
                        "stages": s["runs"][0]["properties"]["stages"].clone(),
                    }));
                }
                all["runs"][0]["results"] = serde_json::Value::Array(results);
                all["runs"][0]["properties"]["verdict"] = verdict.as_str().into();
                all["runs"][0]["properties"]["functions"] = serde_json::Value::Array(props);
                format!("{all}\n")
            }
        }
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code: verdict.exit_code(),
    }
}
