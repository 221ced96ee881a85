//! The symbolic check's reports: the explicit engine's layout with the
//! product's bounds and stage lines (text, JSON, SARIF).

use super::{StageDetail, SymbolicReport, MAX_COPIES};
use crate::check::{render_json, render_sarif, render_text};
use crate::config::Reference;
use crate::engine::Outcome as EngineOutcome;
use convcheck_smt::product::{self, Preserved, Proof};
use serde_json::json;
use std::fmt::Write;

/// The bounds of a symbolic check, one line each.
pub fn bounds_lines(r: &SymbolicReport) -> Vec<String> {
    let b = &r.report.bounds;
    let mut out = vec![
        "engine: smt (two symbolic threads, reference and target in one z3 query)".to_string(),
    ];
    out.push(if r.report.threads > 0 {
        format!(
            "group (fixed): N={}, every pair of distinct tids",
            r.report.threads
        )
    } else {
        "groups: every N >= 2 and every pair of distinct tids".to_string()
    });
    out.push("values: every 64-bit value of every oracle and parameter".to_string());
    out.push(format!(
        "max-iters={}: iterations 0 to {} of every cycle of the reference per iteration of its parent; the \
         target is unrolled as far as the reference's runs need (up to {} times that)",
        b.max_iters,
        b.max_iters,
        product::TARGET_ITERS_FACTOR
    ));
    for (i, d) in r.details.iter().enumerate() {
        let name = &r.report.stages[i].name;
        match d {
            StageDetail::Symbolic(p) => out.push(product_bound_line(i, name, p)),
            StageDetail::Explicit => {
                let against = match (i, r.report.reference) {
                    (0, Reference::Source) => "source level",
                    (_, Reference::Source) => "against the CFG of stage 1",
                    _ => "against the reference CFG",
                };
                out.push(format!(
                    "stage {} ({name}): explicit engine ({against}), its bounds:",
                    i + 1
                ));
                out.extend(
                    crate::render::bounds_lines(&r.report)
                        .into_iter()
                        .map(|l| format!("  {l}")),
                );
            }
            StageDetail::Other => {}
        }
    }
    out.push(format!(
        "budgets: time {} s, {} block copies per program, solver memory {} MiB; fuel={} (replay)",
        r.timeout.as_secs_f64(),
        crate::engine::grouped(MAX_COPIES as u64),
        crate::engine::grouped(r.report.budget.solver_memory_mb),
        b.fuel
    ));
    out
}

/// The bound line of stage `i` (called `name`) that the product decided.
pub(crate) fn product_bound_line(i: usize, name: &str, p: &Preserved) -> String {
    match &p.proof {
        Proof::Structure { merged } => format!(
            "stage {} ({name}): no bound: proved by structure ({merged} straight-line edge{} merged)",
            i + 1,
            if *merged == 1 { "" } else { "s" }
        ),
        Proof::Simulation { nodes, steps } => format!(
            "stage {} ({name}): no bound: proved by simulation ({nodes} pairs of program points, {steps} steps checked)",
            i + 1
        ),
        proof => format!(
            "stage {} ({name}): max-iters={} per cycle of the reference: {}; target unrolled to {} \
             iterations per cycle, which no run left; {}",
            i + 1,
            p.max_iters,
            match &p.cut {
                Some(c) => format!("cut runs outside the bounds (first: {c})"),
                None => "cut nothing".to_string(),
            },
            p.target_iters + 1,
            match proof {
                Proof::Matching { pairs, rounds } => {
                    format!("proof by matching ({pairs} pairs, {rounds} rounds)")
                }
                _ => "proof by one query".to_string(),
            }
        ),
    }
}

/// The text report: the explicit engine's layout with the symbolic bounds
/// and stage lines; the counterexample section is the explicit engine's.
pub fn render_symbolic_text(r: &SymbolicReport) -> String {
    let report = &r.report;
    let mut out = String::new();
    out.push_str(&crate::render::header_line(report));
    let _ = writeln!(out, "bounds:");
    for line in bounds_lines(r) {
        let _ = writeln!(out, "  {line}");
    }
    for (i, s) in report.stages.iter().enumerate() {
        let against = match (&r.details[i], report.reference) {
            (StageDetail::Explicit, _) => " (explicit engine)",
            (_, Reference::Source) if i == 0 && r.quick.contains(&i) => " (explicit engine)",
            (_, Reference::Source) if i == 0 => " (against the source level through its token CFG)",
            (_, Reference::Source) => " (against the CFG of stage 1)",
            _ => "",
        };
        let line = match &s.outcome {
            EngineOutcome::Preserved { .. } if r.proved(i) => {
                "proved (every iteration count)".to_string()
            }
            EngineOutcome::Preserved { pairs, .. } => match &r.details[i] {
                StageDetail::Symbolic(p) => format!("preserved (within max-iters={})", p.max_iters),
                _ => format!(
                    "preserved ({} scenarios)",
                    crate::engine::grouped(*pairs as u64)
                ),
            },
            EngineOutcome::Violated(_) => "VIOLATED".to_string(),
            EngineOutcome::Inconclusive(why) => format!("inconclusive: {why}"),
        };
        let _ = writeln!(out, "stage {}: {}{against}: {line}", i + 1, s.name);
        for n in &s.notes {
            let _ = writeln!(out, "  note: {n}");
        }
    }
    let explicit = render_text(report);
    if let Some(start) = explicit.find("\ncounterexample (") {
        let end = explicit[start..]
            .find("\nverdict:")
            .map_or(explicit.len(), |e| start + e);
        let section = &explicit[start..end];
        // The reference table of a product stage is the CFG it was
        // compared with.
        let label = report
            .first_broken()
            .and_then(|(i, _)| r.against.get(i).copied().flatten());
        match label {
            Some(l) => out.push_str(
                &section.replace("reference (source level)", &format!("reference ({l})")),
            ),
            None => out.push_str(section),
        }
    }
    match report.first_broken() {
        Some((i, s)) => {
            let _ = writeln!(
                out,
                "\nverdict: {} (first at stage {}: {})",
                r.verdict(),
                i + 1,
                s.name
            );
        }
        None => {
            let _ = writeln!(out, "\nverdict: {}", r.verdict());
        }
    }
    out
}

fn bounds_json(r: &SymbolicReport) -> serde_json::Value {
    let stages: Vec<serde_json::Value> = r
        .details
        .iter()
        .enumerate()
        .map(|(i, d)| match d {
            StageDetail::Symbolic(p) => json!({
                "stage": r.report.stages[i].name,
                "unbounded": p.proof.is_unbounded(),
                "max_iters": p.max_iters,
                "target_iters": p.target_iters,
                "cut": p.cut,
                "proof": match p.proof {
                    Proof::Structure { .. } => "structure",
                    Proof::Simulation { .. } => "simulation",
                    Proof::Matching { .. } => "matching",
                    Proof::Query => "query",
                },
            }),
            StageDetail::Explicit => json!({
                "stage": r.report.stages[i].name,
                "explicit": crate::render::bounds_json(&r.report),
            }),
            StageDetail::Other => json!({"stage": r.report.stages[i].name}),
        })
        .collect();
    json!({
        "engine": "smt",
        "max_iters": r.report.bounds.max_iters,
        "fuel": r.report.bounds.fuel,
        "group_fixed": r.report.threads > 0,
        "values": "all 64-bit",
        "stages": stages,
        "budgets": {
            "timeout_secs": r.timeout.as_secs_f64(),
            "max_copies": MAX_COPIES,
            "solver_memory_mb": r.report.budget.solver_memory_mb,
        },
    })
}

/// The JSON report: the explicit engine's object with the symbolic
/// verdicts and bounds.
pub fn render_symbolic_json(r: &SymbolicReport) -> serde_json::Value {
    let mut v = render_json(&r.report);
    v["verdict"] = json!(r.verdict().as_str());
    v["engine"] = json!("smt");
    v["bounds"] = bounds_json(r);
    if let Some(stages) = v["stages"].as_array_mut() {
        for (i, s) in stages.iter_mut().enumerate() {
            s["verdict"] = json!(r.stage_verdict(i));
            if let Some(o) = s.as_object_mut() {
                if !matches!(r.details.get(i), Some(StageDetail::Explicit)) {
                    o.remove("scenarios");
                    o.remove("cut_paths");
                }
            }
        }
    }
    v
}

/// The SARIF report with the symbolic verdicts and bounds.
pub fn render_symbolic_sarif(r: &SymbolicReport) -> serde_json::Value {
    let mut v = render_sarif(&r.report);
    let props = &mut v["runs"][0]["properties"];
    props["verdict"] = json!(r.verdict().as_str());
    props["bounds"] = bounds_json(r);
    if let Some(stages) = props["stages"].as_array_mut() {
        for (i, s) in stages.iter_mut().enumerate() {
            s["verdict"] = json!(r.stage_verdict(i));
        }
    }
    v
}
