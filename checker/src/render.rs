//! Reports of a check: text (trace tables side by side, the replay line),
//! JSON and SARIF 2.1.0 (DESIGN.md 2.8, section 4). Renderers read a
//! [`CheckReport`] and nothing else.

use crate::check::CheckReport;
use crate::config::Reference;
use crate::engine::{Finding, Outcome as EngineOutcome};
use convcheck_ir::exec::{Event, Trace};
use convcheck_ir::table::{self, Table};
use serde_json::json;
use std::fmt::Write;

/// Builds the two tables of a finding.
pub(crate) fn tables(report: &CheckReport, f: &Finding) -> Result<(Table, Table), String> {
    let rows: Vec<String> = f.tids.iter().map(|t| format!("tid {t}")).collect();
    let runs = |ts: &[Trace]| -> Vec<Vec<Event>> { ts.iter().map(|t| t.events.clone()).collect() };
    let (r, t) = (runs(&f.reference), runs(&f.target));
    let rr: Vec<&[Event]> = r.iter().map(Vec::as_slice).collect();
    let tt: Vec<&[Event]> = t.iter().map(Vec::as_slice).collect();
    Ok((
        table::build(&report.reference_module, rows.clone(), &rr)?,
        table::build(&report.target_module, rows, &tt)?,
    ))
}

/// Two renderings next to each other, or one after the other if wide.
fn side_by_side(left_title: &str, left: &str, right_title: &str, right: &str) -> String {
    let l: Vec<&str> = std::iter::once(left_title).chain(left.lines()).collect();
    let r: Vec<&str> = std::iter::once(right_title).chain(right.lines()).collect();
    let w = l.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    let rw = r.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    if w + rw + 4 > 120 {
        for line in l.iter().chain(std::iter::once(&"")).chain(r.iter()) {
            let _ = writeln!(out, "  {line}");
        }
        return out;
    }
    for k in 0..l.len().max(r.len()) {
        let a = l.get(k).copied().unwrap_or("");
        let b = r.get(k).copied().unwrap_or("");
        let pad = w - a.chars().count();
        let _ = writeln!(out, "  {a}{}    {b}", " ".repeat(pad));
    }
    out
}

fn replay(report: &CheckReport, f: &Finding) -> String {
    let mut s = format!(
        "convcheck run {} --function {}",
        report.file, report.function
    );
    for t in &f.threads {
        let _ = write!(s, " --thread '{}'", t.render());
    }
    s
}

/// The text report.
pub fn render_text(report: &CheckReport) -> String {
    let mut out = String::new();
    let reference = match report.reference {
        Reference::Source => "source level",
        Reference::Cfg => "CFG level",
    };
    let _ = writeln!(
        out,
        "convcheck check: {} `{}`, reference: {reference}, threads: {}, bounds: max-iters={} fuel={} max-paths={}",
        report.file,
        report.function,
        report.threads,
        report.bounds.max_iters,
        report.bounds.fuel,
        report.bounds.max_paths
    );
    for (i, s) in report.stages.iter().enumerate() {
        let line = match &s.outcome {
            EngineOutcome::Preserved { pairs, cut } => {
                format!("preserved ({pairs} scenarios; {cut} paths outside the bounds)")
            }
            EngineOutcome::Violated(_) => "VIOLATED".to_string(),
            EngineOutcome::Inconclusive(why) => format!("inconclusive: {why}"),
        };
        let _ = writeln!(out, "stage {}: {}: {line}", i + 1, s.name);
        for n in &s.notes {
            let _ = writeln!(out, "  note: {n}");
        }
    }
    if let Some((i, s)) = report.first_broken() {
        if let EngineOutcome::Violated(f) = &s.outcome {
            let _ = writeln!(out, "\ncounterexample (stage {}: {}):", i + 1, s.name);
            let prop = f.property.name();
            let at = f
                .operation
                .as_ref()
                .map(|a| format!(" at `{}` (line {})", a.label, a.line))
                .unwrap_or_default();
            let _ = writeln!(out, "  {prop}{at}: {}", f.message);
            let _ = writeln!(out, "  scenario:");
            for (t, v) in f.tids.iter().zip(&f.threads) {
                let _ = writeln!(out, "    tid {t}: {}", v.render());
            }
            match tables(report, f) {
                Ok((r, t)) => out.push_str(&side_by_side(
                    &format!("reference ({reference})"),
                    &r.render(),
                    &format!("target ({})", s.target_level),
                    &t.render(),
                )),
                Err(e) => {
                    let _ = writeln!(out, "  (tables unavailable: {e})");
                }
            }
            let _ = writeln!(out, "  replay: {}", replay(report, f));
        }
        let _ = writeln!(
            out,
            "\nverdict: {} (first at stage {}: {})",
            report.verdict(),
            i + 1,
            s.name
        );
    } else {
        let _ = writeln!(out, "\nverdict: preserved");
    }
    out
}

fn finding_json(report: &CheckReport, stage: usize, f: &Finding) -> serde_json::Value {
    let (rt, tt) = match tables(report, f) {
        Ok((r, t)) => (r.to_json(), t.to_json()),
        Err(e) => (json!({ "error": e }), json!(null)),
    };
    json!({
        "stage": report.stages[stage].name,
        "property": f.property,
        "message": f.message,
        "operation": f.operation.as_ref().map(|a| json!({"label": a.label, "line": a.line, "op": a.op.0, "side": a.side})),
        "threads": f.tids.iter().zip(&f.threads).map(|(t, v)| json!({"tid": t, "values": v.0})).collect::<Vec<_>>(),
        "reference_table": rt,
        "target_table": tt,
        "replay": replay(report, f),
    })
}

/// The JSON report (DESIGN.md section 4).
pub fn render_json(report: &CheckReport) -> serde_json::Value {
    let stages: Vec<serde_json::Value> = report
        .stages
        .iter()
        .map(|s| {
            let (verdict, extra) = match &s.outcome {
                EngineOutcome::Preserved { pairs, cut } => {
                    ("preserved", json!({"scenarios": pairs, "cut_paths": cut}))
                }
                EngineOutcome::Violated(_) => ("violated", json!({})),
                EngineOutcome::Inconclusive(w) => ("inconclusive", json!({"reason": w})),
            };
            let mut v = json!({"name": s.name, "verdict": verdict, "notes": s.notes});
            if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
                for (k, x) in e {
                    o.insert(k.clone(), x.clone());
                }
            }
            v
        })
        .collect();
    let counterexample = report.first_broken().and_then(|(i, s)| match &s.outcome {
        EngineOutcome::Violated(f) => Some(finding_json(report, i, f)),
        _ => None,
    });
    json!({
        "verdict": report.verdict().as_str(),
        "file": report.file,
        "function": report.function,
        "reference": match report.reference { Reference::Source => "source", Reference::Cfg => "cfg" },
        "threads": report.threads,
        "bounds": report.bounds,
        "stages": stages,
        "counterexample": counterexample,
    })
}

/// The SARIF 2.1.0 report: one result per violated stage, at the kernel
/// line of the failing operation.
pub fn render_sarif(report: &CheckReport) -> serde_json::Value {
    let mut results = Vec::new();
    for s in &report.stages {
        if let EngineOutcome::Violated(f) = &s.outcome {
            let line = f.operation.as_ref().map_or(1, |o| o.line.max(1));
            let rule = f.property.id();
            results.push(json!({
                "ruleId": rule,
                "level": "error",
                "message": {"text": format!("{}: {}", s.name, f.message)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": report.file},
                    "region": {"startLine": line}
                }}],
            }));
        }
    }
    json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "convcheck",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": [
                    {"id": "convergence", "shortDescription": {"text": "A transform changed which threads execute a convergent operation together"}},
                    {"id": "single-thread-behaviour", "shortDescription": {"text": "A transform changed a thread's observable events"}},
                    {"id": "hazards", "shortDescription": {"text": "A transform introduced a race or barrier divergence"}}
                ]
            }},
            "results": results,
        }]
    })
}
