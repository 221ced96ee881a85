//! The bounds of a check and what they cut (DESIGN.md 2.7: every bound
//! that cut something is named with how much it cut; section 5: no bound
//! is silent), as text lines and as the `"bounds"` object of JSON and
//! SARIF.
//!
//! The explicit engine's lines (iterations, groups, values, paths, pairs)
//! appear when it decided some stage; the symbolic product's line (its
//! groups, values and budgets) when it decided or tried one; then one line
//! per stage that a proof or the product decided, with its own bound.

use super::{grouped, FunctionReport, Method};
use crate::engine::Coverage;
use convcheck_smt::product::{Preserved, Proof, TARGET_ITERS_FACTOR};
use serde::Serialize;
use std::collections::BTreeMap;

/// Block copies per program the symbolic product may build before a
/// stage is inconclusive (its memory budget besides z3's own).
pub const MAX_COPIES: usize = 200_000;

/// The explicit engine's bounds, one line each.
fn explicit_lines(fr: &FunctionReport, c: &Coverage) -> Vec<String> {
    let b = &fr.bounds;
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
            shown_uses(uses)
        ));
    }
    if c.reference_ub > 0 {
        out.push(format!(
            "undefined behaviour: {} reference path{} ha{} it and constrain{} nothing (LangRef); the first: {}",
            grouped(c.reference_ub),
            if c.reference_ub == 1 { "" } else { "s" },
            if c.reference_ub == 1 { "s" } else { "ve" },
            if c.reference_ub == 1 { "s" } else { "" },
            c.reference_ub_first.as_deref().unwrap_or("-")
        ));
    }
    out.push(format!(
        "paths: {} reference path{} (max-paths={} per group size and tid); fuel={}",
        grouped(c.paths as u64),
        if c.paths == 1 { "" } else { "s" },
        b.max_paths,
        b.fuel
    ));
    let budget = &fr.budget;
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

/// How many of an inexact domain's uses the text report shows: a real
/// kernel's `__activemask` can reach 70 conditions (one `(%m & K) == 0`
/// per bit width of `__ffs`), a line of several kilobytes; the JSON
/// report's `inexact` object keeps every one.
const SHOWN_USES: usize = 3;

/// The uses of one inexact domain for the text report: the first
/// [`SHOWN_USES`], then how many more there are and where to read them.
fn shown_uses(uses: &[String]) -> String {
    if uses.len() <= SHOWN_USES + 1 {
        return uses.join("; ");
    }
    format!(
        "{}; and {} more (`--format json` lists every one under `bounds.inexact`)",
        uses[..SHOWN_USES].join("; "),
        uses.len() - SHOWN_USES
    )
}

/// The bound line of stage `i` (called `name`) that the product decided.
pub fn product_line(i: usize, name: &str, p: &Preserved) -> String {
    match &p.proof {
        Proof::Structure { merged } => structure_line(i, name, *merged),
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

/// The bound line of a stage proved by structure.
fn structure_line(i: usize, name: &str, merged: usize) -> String {
    format!(
        "stage {} ({name}): no bound: proved by structure ({merged} straight-line edge{} merged)",
        i + 1,
        if merged == 1 { "" } else { "s" }
    )
}

/// The bound line of a stage proved by a simulation relation.
pub fn simulation_line(i: usize, name: &str, nodes: usize, steps: usize) -> String {
    format!(
        "stage {} ({name}): no bound: proved by simulation ({nodes} pairs of program points, \
         {steps} steps checked)",
        i + 1
    )
}

/// Whether the symbolic product decided or tried a stage of `fr`.
fn product_ran(fr: &FunctionReport) -> bool {
    fr.any(|m| matches!(m, Method::Product(_) | Method::ProductCounterexample))
        || fr.stages.iter().any(|s| {
            matches!(&s.outcome, crate::engine::Outcome::Inconclusive(w) if w.starts_with("smt:"))
        })
}

/// The symbolic product's lines: what it covers, its iteration bound and
/// its budgets.
fn product_summary(fr: &FunctionReport) -> Vec<String> {
    let group = match fr.threads {
        0 => "every N >= 2 and every pair of distinct tids".to_string(),
        n => format!("the group N={n} and every pair of distinct tids"),
    };
    let b = fr.bounds.max_iters;
    vec![
        format!(
            "symbolic product (two symbolic threads in one z3 query): {group}, every 64-bit \
             value of every oracle and parameter"
        ),
        format!(
            "max-iters={b}: iterations 0 to {b} of every cycle of the reference per iteration of \
             its parent; the target is unrolled as far as the reference's runs need (up to \
             {TARGET_ITERS_FACTOR} times that)"
        ),
        format!(
            "budgets: time {} s, {} block copies per program, solver memory {} MiB",
            fr.budget.timeout.map_or(0.0, |t| t.as_secs_f64()),
            grouped(MAX_COPIES as u64),
            grouped(fr.budget.solver_memory_mb)
        ),
    ]
}

/// Every bound line of a function's check.
pub fn lines(fr: &FunctionReport) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(c) = &fr.coverage {
        out.extend(explicit_lines(fr, c));
    }
    if product_ran(fr) {
        out.extend(product_summary(fr));
    }
    for (i, s) in fr.stages.iter().enumerate() {
        match &s.method {
            Method::Structure { merged } => out.push(structure_line(i, &s.name, *merged)),
            Method::Simulation { nodes, steps } => {
                out.push(simulation_line(i, &s.name, *nodes, *steps))
            }
            Method::Product(p) => out.push(product_line(i, &s.name, p)),
            Method::QuickSearch => out.push(format!(
                "stage {} ({}): counterexample found by the explicit engine's short search at \
                 max-iters 1 or 2 (a counterexample within a smaller bound is one within every \
                 larger one)",
                i + 1,
                s.name
            )),
            _ => {}
        }
    }
    if fr.stages.iter().all(|s| matches!(s.method, Method::Static)) {
        out.push(format!(
            "max-iters={}: no stage was compared (each was decided without running it)",
            fr.bounds.max_iters
        ));
    }
    out
}

/// The explicit engine's part of the `"bounds"` object.
#[derive(Serialize)]
pub struct ExplicitJson {
    cut: CutJson,
    groups: Vec<GroupJson>,
    not_tried: Vec<String>,
    domains: BTreeMap<String, Vec<i64>>,
    loop_bounds: BTreeMap<String, Option<i64>>,
    inexact: BTreeMap<String, Vec<String>>,
    /// Reference paths with undefined behaviour (dropped), and the first.
    reference_ub: u64,
    reference_ub_first: Option<String>,
    paths: usize,
    pairs: PairsJson,
}

#[derive(Serialize)]
struct CutJson {
    max_iters: usize,
    target_iterations: usize,
    first: Option<String>,
}

#[derive(Serialize)]
struct GroupJson {
    n: u32,
    tids: Vec<u32>,
}

#[derive(Serialize)]
struct PairsJson {
    total: u64,
    examined: u64,
    scenarios: u64,
}

#[derive(Serialize)]
struct BudgetsJson {
    timeout_secs: Option<f64>,
    max_pairs: u64,
    max_events: usize,
    solver_memory_mb: u64,
    max_copies: usize,
    /// The budget that ended the explicit engine, if one did.
    reached: Option<String>,
}

/// The bound of one stage that a proof or the product decided.
#[derive(Serialize)]
struct StageBoundJson {
    stage: String,
    engine: &'static str,
    unbounded: bool,
    proof: Option<&'static str>,
    merged_edges: Option<usize>,
    max_iters: Option<u32>,
    target_iters: Option<u32>,
    cut: Option<String>,
    bound: String,
}

/// The `"bounds"` object of JSON and SARIF reports.
#[derive(Serialize)]
pub struct BoundsJson {
    max_iters: u32,
    fuel: u64,
    max_depth: u32,
    max_paths: usize,
    group_fixed: bool,
    #[serde(flatten)]
    explicit: Option<ExplicitJson>,
    budgets: BudgetsJson,
    stages: Vec<StageBoundJson>,
}

impl BoundsJson {
    /// The bounds of `fr`.
    pub fn of(fr: &FunctionReport) -> BoundsJson {
        let b = &fr.bounds;
        let explicit = fr.coverage.as_ref().map(|c| ExplicitJson {
            cut: CutJson {
                max_iters: c.cut,
                target_iterations: c.target_cut,
                first: c.cut_reason.clone(),
            },
            groups: c
                .groups
                .iter()
                .map(|(n, ids)| GroupJson {
                    n: *n,
                    tids: ids.clone(),
                })
                .collect(),
            not_tried: c.capped.clone(),
            domains: c.domains.clone(),
            loop_bounds: c.loop_bounds.clone(),
            inexact: c.inexact.clone(),
            reference_ub: c.reference_ub,
            reference_ub_first: c.reference_ub_first.clone(),
            paths: c.paths,
            pairs: PairsJson {
                total: c.pairs_total,
                examined: c.pairs_examined,
                scenarios: c.scenarios,
            },
        });
        let stages = fr
            .stages
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match &s.method {
                Method::Structure { merged } => Some(StageBoundJson {
                    stage: s.name.clone(),
                    engine: "structure",
                    unbounded: true,
                    proof: Some("structure"),
                    merged_edges: Some(*merged),
                    max_iters: None,
                    target_iters: None,
                    cut: None,
                    bound: structure_line(i, &s.name, *merged),
                }),
                Method::Simulation { nodes, steps } => Some(StageBoundJson {
                    stage: s.name.clone(),
                    engine: "simulation",
                    unbounded: true,
                    proof: Some("simulation"),
                    merged_edges: None,
                    max_iters: None,
                    target_iters: None,
                    cut: None,
                    bound: simulation_line(i, &s.name, *nodes, *steps),
                }),
                Method::Product(p) => Some(StageBoundJson {
                    stage: s.name.clone(),
                    engine: "smt",
                    unbounded: matches!(p.proof, Proof::Structure { .. }),
                    proof: Some(match p.proof {
                        Proof::Structure { .. } => "structure",
                        Proof::Matching { .. } => "matching",
                        Proof::Query => "query",
                    }),
                    merged_edges: match p.proof {
                        Proof::Structure { merged } => Some(merged),
                        _ => None,
                    },
                    max_iters: Some(p.max_iters),
                    target_iters: Some(p.target_iters + 1),
                    cut: p.cut.clone(),
                    bound: product_line(i, &s.name, p),
                }),
                _ => None,
            })
            .collect();
        BoundsJson {
            max_iters: b.max_iters,
            fuel: b.fuel,
            max_depth: b.max_depth,
            max_paths: b.max_paths,
            group_fixed: fr.threads > 0,
            explicit,
            budgets: BudgetsJson {
                timeout_secs: fr.budget.timeout.map(|t| t.as_secs_f64()),
                max_pairs: fr.budget.max_pairs,
                max_events: fr.budget.max_events,
                solver_memory_mb: fr.budget.solver_memory_mb,
                max_copies: MAX_COPIES,
                reached: fr.coverage.as_ref().and_then(|c| c.budget.clone()),
            },
            stages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::shown_uses;

    fn uses(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("u{i}")).collect()
    }

    #[test]
    fn a_long_list_of_uses_is_cut_to_three_with_the_count_of_the_rest() {
        assert_eq!(shown_uses(&uses(2)), "u0; u1");
        // Four are shown whole: "and 1 more" would be no shorter.
        assert_eq!(shown_uses(&uses(4)), "u0; u1; u2; u3");
        assert_eq!(
            shown_uses(&uses(70)),
            "u0; u1; u2; and 67 more (`--format json` lists every one under `bounds.inexact`)"
        );
    }
}
