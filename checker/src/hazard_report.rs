//! Text and JSON rendering of a scenario's hazards (DESIGN.md 2.6): races,
//! barrier divergence, and the values of data-carrying barriers, as
//! `convcheck run` prints them after the trace table.
//!
//! The text form is a `hazards:` section, one line per finding, or the
//! single line `hazards: no race, no barrier divergence`. The JSON form is
//! the object under `"hazards"`:
//!
//! ```text
//! { "race_free": bool, "divergence_free": bool,
//!   "barriers": [count per thread],
//!   "races": [{ "space", "addr", "phase", "threads": [t, u],
//!               "accesses": [{ "thread", "write", "label", "line", "col" } x2],
//!               "message" }],
//!   "barrier_divergence": [{ "position", "kind", "thread", "at", "other",
//!                            "other_at", "message" }],
//!   "barrier_values": [{ "position", "kind", "label", "line", "col",
//!                        "participants", "predicates", "result", "complete" }] }
//! ```
//!
//! `at` / `other_at` are `{ "label", "line", "col" }` or `null` (the
//! thread's run has ended). Everything is in the model's sorted order
//! ([`convcheck_ir::hazards`]), so equal runs print equal reports.

use convcheck_ir::hazards::{Access, HazardReport, Site};
use serde_json::{json, Value};
use std::fmt::Write;

fn site(s: &Site) -> Value {
    json!({"label": s.label, "line": s.line, "col": s.col})
}

fn access(a: &Access) -> Value {
    json!({
        "thread": a.thread,
        "write": a.write,
        "label": a.site.label,
        "line": a.site.line,
        "col": a.site.col,
    })
}

fn list(v: &[usize]) -> String {
    v.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `"hazards"` object of `run --format json`.
pub fn to_json(h: &HazardReport) -> Value {
    let races: Vec<Value> = h
        .races
        .iter()
        .map(|r| {
            json!({
                "space": r.space,
                "addr": r.addr,
                "phase": r.phase,
                "threads": [r.first.thread, r.second.thread],
                "accesses": [access(&r.first), access(&r.second)],
                "message": r.to_string(),
            })
        })
        .collect();
    let divergence: Vec<Value> = h
        .divergence
        .iter()
        .map(|d| {
            json!({
                "position": d.position,
                "kind": d.kind,
                "thread": d.thread,
                "at": d.at.as_ref().map(site),
                "other": d.other,
                "other_at": d.other_at.as_ref().map(site),
                "message": d.to_string(),
            })
        })
        .collect();
    let values: Vec<Value> = h
        .values
        .iter()
        .map(|v| {
            json!({
                "position": v.position,
                "kind": v.kind,
                "label": v.site.label,
                "line": v.site.line,
                "col": v.site.col,
                "participants": v.participants,
                "predicates": v.predicates,
                "result": v.result,
                "complete": v.complete,
            })
        })
        .collect();
    json!({
        "race_free": h.races.is_empty(),
        "divergence_free": h.divergence.is_empty(),
        "barriers": h.barriers,
        "races": races,
        "barrier_divergence": divergence,
        "barrier_values": values,
    })
}

/// The `hazards:` section of `run`'s text output (ends with a newline).
pub fn to_text(h: &HazardReport) -> String {
    const CLEAN: &str = "no race, no barrier divergence";
    if h.is_hazard_free() && h.values.is_empty() {
        return format!("hazards: {CLEAN}\n");
    }
    let mut out = String::from("hazards:\n");
    if h.is_hazard_free() {
        let _ = writeln!(out, "  {CLEAN}");
    }
    for r in &h.races {
        let _ = writeln!(out, "  {r}");
    }
    for d in &h.divergence {
        let _ = writeln!(out, "  {d}");
    }
    for v in &h.values {
        let preds: Vec<String> = v.predicates.iter().map(i64::to_string).collect();
        let partial = if v.complete {
            ""
        } else {
            " (not every thread took part)"
        };
        let kind = serde_json::to_value(v.kind)
            .ok()
            .and_then(|k| k.as_str().map(str::to_string))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  barrier #{} {} returns {}: {kind} over threads {} with predicates {}{partial}",
            v.position,
            v.site,
            v.result,
            list(&v.participants),
            preds.join(", "),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use convcheck_ir::exec::run_scenario;
    use convcheck_ir::hazards::hazards;
    use convcheck_ir::scenario::{Scenario, ThreadValues};
    use convcheck_lang::sema::Kernel;

    fn report(src: &str, threads: usize) -> HazardReport {
        let k = Kernel::parse("t.c", src).expect("parses");
        let entry = k.entry(None).expect("entry");
        let sc = Scenario {
            threads: vec![ThreadValues::default(); threads],
        };
        let program = convcheck_lang::exec::SourceProgram::new(&k).expect("compiles");
        let traces = run_scenario(&program, entry, &sc, 1000).expect("runs");
        let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
        hazards(&program.module, &runs)
    }

    #[test]
    fn a_clean_run_is_one_line() {
        let h = report("void k() {\n  shared[tid] = 1;\n  __syncthreads();\n}\n", 2);
        assert_eq!(to_text(&h), "hazards: no race, no barrier divergence\n");
        let j = to_json(&h);
        assert_eq!(j["race_free"], json!(true));
        assert_eq!(j["barriers"], json!([1, 1]));
    }

    #[test]
    fn races_divergence_and_values_are_listed() {
        let src = "void k() {\n  shared[0] = tid;\n  int c = __syncthreads_count(tid);\n  if (tid == 0) {\n    __syncthreads();\n  }\n}\n";
        let h = report(src, 2);
        assert_eq!(
            to_text(&h),
            "hazards:\n  \
             race on shared[0] in phase 0: thread 0 writes at `shared[0]` (line 2) and thread 1 writes at `shared[0]` (line 2)\n  \
             barrier divergence: thread 1 leaves after 1 barrier(s) while thread 0 waits at `__syncthreads` (line 5)\n  \
             barrier #0 `__syncthreads_count` (line 3) returns 1: count over threads 0, 1 with predicates 0, 1\n"
        );
        let j = to_json(&h);
        assert_eq!(j["races"][0]["threads"], json!([0, 1]));
        assert_eq!(j["races"][0]["space"], json!("shared"));
        assert_eq!(j["barrier_divergence"][0]["kind"], json!("left"));
        assert_eq!(j["barrier_divergence"][0]["at"], Value::Null);
        assert_eq!(j["barrier_divergence"][0]["other_at"]["line"], json!(5));
        assert_eq!(j["barrier_values"][0]["kind"], json!("count"));
        assert_eq!(j["barrier_values"][0]["result"], json!(1));
    }
}
