//! Reports of a check: text (trace tables side by side, the replay line),
//! JSON and SARIF 2.1.0 (DESIGN.md 2.8, section 4). Renderers read a
//! [`CheckReport`] and nothing else.

use crate::check::CheckReport;
use crate::config::Reference;
use crate::engine::{grouped, Finding, Outcome as EngineOutcome};
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

/// The `convcheck run` line that replays a finding on `file` (whose
/// module is `module`): one `--thread` per thread of the group, in `tid`
/// order, with the values of the finding's threads (only the oracles the
/// file has) and none for the others.
fn replay_on(file: &str, function: &str, module: &convcheck_ir::Module, f: &Finding) -> String {
    let mut s = format!("convcheck run {file} --function {function}");
    let group = f.group.max(f.tids.iter().map(|t| t + 1).max().unwrap_or(1));
    for t in 0..group {
        let values = f
            .tids
            .iter()
            .position(|&u| u == t)
            .map(|k| {
                let mut v = f.threads[k].clone();
                v.0.retain(|name, _| module.oracle(name).is_some());
                v.render()
            })
            .unwrap_or_default();
        let _ = write!(s, " --thread '{values}'");
    }
    s
}

fn replay(report: &CheckReport, f: &Finding) -> String {
    replay_on(&report.file, &report.function, &report.reference_module, f)
}

/// The replay line of the target file (`check SRC TGT`), when it reads
/// values the reference does not.
fn replay_target(report: &CheckReport, f: &Finding) -> Option<String> {
    let file = report.target_file.as_deref()?;
    let extra = f.threads.iter().any(|t| {
        t.0.keys()
            .any(|name| report.reference_module.oracle(name).is_none())
    });
    extra.then(|| replay_on(file, &report.function, &report.target_module, f))
}

/// The bounds of a check and what they cut, one line each.
pub fn bounds_lines(report: &CheckReport) -> Vec<String> {
    let c = &report.coverage;
    let b = &report.bounds;
    let mut out = Vec::new();
    out.push(match &c.cut_reason {
        Some(why) if c.cut > 0 => format!(
            "max-iters={}: cut {} reference run{} (outside the bounds; first: {why})",
            b.max_iters,
            grouped(c.cut as u64),
            if c.cut == 1 { "" } else { "s" }
        ),
        _ => format!("max-iters={}: cut nothing", b.max_iters),
    });
    if c.target_cut > 0 {
        out.push(format!(
            "target iterations ({} per loop): cut {} target run{}",
            (b.max_iters + 1) * 16 - 1,
            grouped(c.target_cut as u64),
            if c.target_cut == 1 { "" } else { "s" }
        ));
    }
    let groups: Vec<String> = c
        .groups
        .iter()
        .map(|(n, ids)| {
            let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
            format!("N={n} (tid {})", ids.join(", "))
        })
        .collect();
    out.push(format!(
        "{}: {}",
        if c.fixed_group {
            "group (fixed)"
        } else {
            "groups (every N >= 2 and pair of tids, by the values that matter)"
        },
        groups.join("; ")
    ));
    for capped in &c.capped {
        out.push(format!("not tried: {capped}"));
    }
    if !c.domains.is_empty() {
        let d: Vec<String> = c
            .domains
            .iter()
            .map(|(name, v)| {
                let v: Vec<String> = v.iter().map(i64::to_string).collect();
                format!("{name} in {{{}}}", v.join(", "))
            })
            .collect();
        out.push(format!("values: {}", d.join("; ")));
    }
    for (name, beyond) in &c.loop_bounds {
        out.push(match beyond {
            Some(v) => format!(
                "loop bound `{name}`: values from {v} need more than max-iters={} iterations and are not examined",
                b.max_iters
            ),
            None => format!(
                "loop bound `{name}`: values up to the iteration bound (max-iters={})",
                b.max_iters
            ),
        });
    }
    for (name, uses) in &c.inexact {
        out.push(format!(
            "inexact domain of `{name}` (a value that matters may be missing): {}",
            uses.join("; ")
        ));
    }
    out.push(format!(
        "paths: {} reference path{} (max-paths={} per group size and tid); fuel={}",
        grouped(c.paths as u64),
        if c.paths == 1 { "" } else { "s" },
        b.max_paths,
        b.fuel
    ));
    let budget = &report.budget;
    out.push(format!(
        "budgets: time {}, {} pairs, {} stored events; {} of {} pairs examined{}",
        budget
            .timeout
            .map_or("none".to_string(), |t| format!("{} s", t.as_secs_f64())),
        grouped(budget.max_pairs),
        grouped(budget.max_events as u64),
        grouped(c.pairs_examined),
        grouped(c.pairs_total),
        c.budget
            .as_ref()
            .map(|w| format!(" ({w})"))
            .unwrap_or_default()
    ));
    out
}

/// The `"bounds"` object of the JSON and SARIF reports.
pub fn bounds_json(report: &CheckReport) -> serde_json::Value {
    let b = &report.bounds;
    let c = &report.coverage;
    let budget = &report.budget;
    json!({
        "max_iters": b.max_iters,
        "fuel": b.fuel,
        "max_depth": b.max_depth,
        "max_paths": b.max_paths,
        "cut": {"max_iters": c.cut, "target_iterations": c.target_cut, "first": c.cut_reason},
        "group_fixed": c.fixed_group,
        "groups": c.groups.iter().map(|(n, ids)| json!({"n": n, "tids": ids})).collect::<Vec<_>>(),
        "not_tried": c.capped,
        "domains": c.domains,
        "loop_bounds": c.loop_bounds,
        "inexact": c.inexact,
        "paths": c.paths,
        "pairs": {"total": c.pairs_total, "examined": c.pairs_examined, "scenarios": c.scenarios},
        "budgets": {
            "timeout_secs": budget.timeout.map(|t| t.as_secs_f64()),
            "max_pairs": budget.max_pairs,
            "max_events": budget.max_events,
            "reached": c.budget,
        },
    })
}

/// The text report.
pub fn render_text(report: &CheckReport) -> String {
    let mut out = String::new();
    let reference = match report.reference {
        Reference::Source => "source level",
        Reference::Cfg => "CFG level",
    };
    let threads = if report.threads == 0 {
        "every N >= 2".to_string()
    } else {
        format!("N={}", report.threads)
    };
    let _ = writeln!(
        out,
        "convcheck check: {} `{}`, reference: {reference}, threads: {threads}",
        report.file, report.function,
    );
    let _ = writeln!(out, "bounds:");
    for line in bounds_lines(report) {
        let _ = writeln!(out, "  {line}");
    }
    for (i, s) in report.stages.iter().enumerate() {
        let line = match &s.outcome {
            EngineOutcome::Preserved { pairs, .. } => format!(
                "preserved ({} scenario{})",
                grouped(*pairs as u64),
                if *pairs == 1 { "" } else { "s" }
            ),
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
            let _ = writeln!(out, "  scenario (N={}):", f.group);
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
            if let Some(t) = replay_target(report, f) {
                let _ = writeln!(out, "  replay the target: {t}");
            }
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
        "group": f.group,
        "threads": f.tids.iter().zip(&f.threads).map(|(t, v)| json!({"tid": t, "values": v.0})).collect::<Vec<_>>(),
        "reference_table": rt,
        "target_table": tt,
        "replay": replay(report, f),
        "replay_target": replay_target(report, f),
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
        "bounds": bounds_json(report),
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
            "properties": {
                "verdict": report.verdict().as_str(),
                "stages": report.stages.iter().map(|s| json!({
                    "name": s.name,
                    "verdict": match &s.outcome {
                        EngineOutcome::Preserved { .. } => "preserved",
                        EngineOutcome::Violated(_) => "violated",
                        EngineOutcome::Inconclusive(_) => "inconclusive",
                    },
                    "reason": match &s.outcome {
                        EngineOutcome::Inconclusive(w) => Some(w.clone()),
                        _ => None,
                    },
                })).collect::<Vec<_>>(),
                "bounds": bounds_json(report),
            },
        }]
    })
}
