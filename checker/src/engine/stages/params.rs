//! Loops bounded by a parameter (issue 11, rule 3).
//!
//! A kernel's parameters are read once, at the launch, so a parameter's
//! value is part of the scenario rather than a decision taken in the run.
//! When a value of one (`n = 0` in a loop that runs `n * 12` times, a set
//! `i1` that makes a loop spin) takes a loop past `max-iters` whatever the
//! other oracles are, the reference paths of that thread index are not
//! all the paths within the bounds, and the whole check used to be
//! inconclusive. Here the reference is explored again once per
//! combination of parameter values, each fixed in advance: a combination
//! whose runs leave the bounds whatever the other oracles are is cut like
//! a run past `max-iters` (counted and listed among the bounds), the
//! others give their paths as usual. Nothing changes when a combination's
//! paths are incomplete for another reason (a fixed-count loop behind a
//! guard, `max-paths`, a budget), when every combination is cut (nothing
//! would be compared), or when there are more than [`MAX_COMBINATIONS`].
//!
//! The values tried for a parameter are those of its domain, plus
//! `0..=max-iters` when its domain is inexact (what decides it is
//! arithmetic the analysis does not invert, such as `n * 2`), so that
//! small trip counts get a chance to run.

use crate::engine::Space;
use convcheck_ir::exec::Bounds;
use convcheck_ir::paths::{explore, Exploration, Explore};
use convcheck_ir::scenario::domains::Subject;
use convcheck_ir::scenario::ThreadValues;
use convcheck_ir::{FuncId, Module};

/// At most this many combinations of parameter values are explored.
pub const MAX_COMBINATIONS: usize = 64;

/// Whether an exploration stopped because a run leaves the bounds whatever
/// its oracles are (and for no other reason).
pub(super) fn out_whatever(x: &Exploration) -> bool {
    x.unexamined.is_none()
        && x.incomplete
            .as_deref()
            .is_some_and(|w| w.ends_with("whatever its oracles"))
}

/// The reference paths of one thread index, split by parameter values.
pub(super) struct Split {
    /// The paths of the combinations within the bounds, shortest first.
    pub x: Exploration,
    /// The combinations cut (`n=0, cond=1`).
    pub cut: Vec<String>,
    /// Why the first one was cut.
    pub why: String,
    /// The values tried per parameter with more than one.
    pub values: Vec<(String, Vec<i64>)>,
}

/// What [`split`] explores with besides the program.
pub(super) struct Setting<'a> {
    pub space: &'a Space,
    pub domains: &'a [Vec<i64>],
    pub counters: &'a [bool],
    pub bounds: Bounds,
    pub max_events: usize,
    pub stop: &'a dyn Fn() -> Option<String>,
}

/// Explores thread `tid` of a group of `group` once per combination of
/// the entry's parameter values (see the module documentation); `None`
/// when the rule does not apply.
pub(super) fn split(
    program: &dyn convcheck_ir::exec::Program,
    entry: FuncId,
    tid: u32,
    group: u32,
    s: &Setting,
) -> Option<Split> {
    let module: &Module = program.module();
    let f = module.functions.get(entry)?;
    let mut params: Vec<(String, Vec<i64>)> = Vec::new();
    for &o in &f.param_oracles {
        let name = module.oracles.get(o)?.name.clone();
        if params.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let mut values = s.domains.get(o).cloned().unwrap_or_else(|| vec![0]);
        if s.space
            .domains
            .inexact
            .contains_key(&Subject::Oracle(name.clone()))
        {
            values.extend(0..=i64::from(s.bounds.max_iters));
        }
        values.sort_unstable();
        values.dedup();
        params.push((name, values));
    }
    let count = params
        .iter()
        .try_fold(1usize, |acc, (_, v)| acc.checked_mul(v.len()))?;
    if params.is_empty() || !(2..=MAX_COMBINATIONS).contains(&count) {
        return None;
    }
    let mut out = Split {
        x: Exploration::default(),
        cut: Vec::new(),
        why: String::new(),
        values: params
            .iter()
            .filter(|(_, v)| v.len() > 1)
            .cloned()
            .collect(),
    };
    for k in 0..count {
        // The k-th combination, the first parameter varying slowest.
        let mut given = ThreadValues::default();
        let mut rest = k;
        let mut shown = Vec::new();
        for (name, values) in params.iter().rev() {
            let v = values[rest % values.len()];
            rest /= values.len();
            given.0.insert(name.clone(), vec![v]);
            if values.len() > 1 {
                shown.push(format!("{name}={v}"));
            }
        }
        shown.reverse();
        let x = explore(
            program,
            entry,
            tid,
            group,
            &Explore {
                domains: s.domains,
                counters: s.counters,
                given: Some(&given),
                bounds: s.bounds,
                max_events: s.max_events.saturating_sub(out.x.events),
                stop: s.stop,
            },
        );
        out.x.runs += x.runs;
        if out_whatever(&x) {
            if out.cut.is_empty() {
                out.why = x.incomplete.clone().unwrap_or_default();
            }
            out.cut.push(shown.join(" "));
            continue;
        }
        if x.incomplete.is_some() || x.unexamined.is_some() {
            return None;
        }
        out.x.events += x.events;
        out.x.cut += x.cut;
        if out.x.cut_reason.is_none() {
            out.x.cut_reason = x.cut_reason;
        }
        for (o, v) in x.beyond {
            let e = out.x.beyond.entry(o).or_insert(v);
            *e = (*e).min(v);
        }
        out.x.paths.extend(x.paths);
    }
    if out.x.paths.is_empty() || out.cut.is_empty() {
        return None;
    }
    out.x
        .paths
        .sort_by_key(|p| (p.trace.events.len(), p.decisions.clone()));
    Some(out)
}
