//! The stream of scenarios of a check (DESIGN.md 2.2, 2.7): the reference
//! paths of every (group size, thread index), the target runs of each on
//! every stage, single-thread behaviour path by path, then pairs of paths
//! by group size and summed length, each compared by `relate`. See the
//! documentation of `crate::engine` for the order and the bounds.

use super::pairs::{agree, buckets, Sites, Uniform};
use super::relate::{
    convergence_differs, hazards_differ, matched, observable, touches, Diff, Labels, Matched,
};
use super::{
    Allowance, Budget, Comparison, Coverage, Finding, Limits, Outcome, Progress, Property, Side,
    Space,
};
use convcheck_ir::exec::Bounds;
use convcheck_ir::paths::{explore, Exploration, Explore, Path};
use convcheck_ir::scenario::domains::Subject;
use convcheck_ir::scenario::{uniform_conflict, ThreadValues};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

mod params;

/// After the first counterexample, the other stages are finished when the
/// check has at most this many pairs of paths.
pub const FINISH_OTHERS_UP_TO: u64 = 1_000_000;

/// Thousands separators: `123,456`.
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// When the reference paths are incomplete (a bound that makes the check
/// inconclusive), the smallest this many pairs are still searched for a
/// counterexample (a violation found within the bounds is definite), and
/// the check then ends: searching every pair would take long and could
/// not make the verdict `preserved`.
pub const SEARCH_WHEN_INCOMPLETE: u64 = 20_000;

/// A pair of paths waiting in the pair queue: (summed length, set of the
/// first thread, set of the second, path of the first, position among
/// its partners in the second).
type PairNode = (usize, usize, usize, usize, usize);

/// The target runs of one reference path on one stage.
#[derive(Default)]
struct Runs {
    /// Target paths: the reference's values plus the target's own reads.
    paths: Vec<Path>,
    /// Whether some of them read values the reference path does not give.
    extended: bool,
    /// Matched convergent instances of each.
    matched: Vec<Matched>,
    /// Whether each touches memory or a barrier.
    touches: Vec<bool>,
}

/// The reference paths of one (group size, thread index).
struct Set {
    group: u32,
    tid: u32,
    x: Exploration,
    /// Matched convergent instances of each path.
    matched: Vec<Matched>,
    /// The values each path reads.
    values: Vec<ThreadValues>,
    /// The uniform reads of each path.
    uniform: Vec<Uniform>,
    /// Whether each touches memory or a barrier.
    touches: Vec<bool>,
}

/// How a stage stands while the check runs.
#[derive(Default)]
struct StageState {
    violated: Option<Box<Finding>>,
    problem: Option<String>,
    undecided: Option<String>,
}

/// Compares every target (the stages of a pipeline) against `reference`
/// on one stream of scenarios (see the module documentation). `progress`
/// is told where the check is from time to time.
pub fn compare_stages(
    reference: &Side,
    stages: &[(Side, Allowance)],
    limits: Limits,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
) -> Comparison {
    let mut modules = vec![(reference.module(), reference.entry)];
    modules.extend(stages.iter().map(|s| (s.0.module(), s.0.entry)));
    let space = Space::new(&modules, limits.bounds.max_iters, limits.group);
    let mut cov = Coverage {
        groups: space.groups.clone(),
        fixed_group: space.fixed,
        capped: space.capped.clone(),
        ..Coverage::default()
    };
    for (s, v) in &space.domains.values {
        let shown = match s {
            Subject::Oracle(_) => v.len() > 1,
            Subject::Tid | Subject::Group => false,
        };
        if shown {
            cov.domains.insert(s.name().to_string(), v.clone());
        }
    }
    for s in &space.domains.counters {
        if let Subject::Oracle(n) = s {
            cov.loop_bounds.insert(n.clone(), None);
        }
    }
    for (s, uses) in &space.domains.inexact {
        cov.inexact
            .insert(s.name().to_string(), uses.iter().cloned().collect());
    }
    let deadline = budget.timeout.map(|t| budget.start + t);
    let timeout_text = budget
        .timeout
        .map(|t| format!("{} s", t.as_secs_f64()))
        .unwrap_or_default();
    let time_up = || deadline.is_some_and(|d| Instant::now() >= d);
    let stop =
        || -> Option<String> { time_up().then(|| format!("time budget {timeout_text} reached")) };
    let outcome_all = |cov: Coverage, why: String| Comparison {
        outcomes: stages
            .iter()
            .map(|_| Outcome::Inconclusive(why.clone()))
            .collect(),
        coverage: cov,
    };

    // Labels as numbers, shared by every side.
    let mut labels = Labels::default();
    let rlabels = labels.of_ops(reference);
    let tlabels: Vec<Vec<u32>> = stages.iter().map(|(t, _)| labels.of_ops(t)).collect();
    let mut sites = Sites::default();
    // Reference paths, per group size and thread index.
    let rtable = space.table(reference.module());
    let rcounters = space.counters(reference.module());
    let mut events = 0usize;
    let mut sets: Vec<Set> = Vec::new();
    let mut reference_problem: Option<String> = None;
    let mut param_cuts: Vec<String> = Vec::new();
    let total_sets: u64 = space.groups.iter().map(|g| g.1.len() as u64).sum();
    // The reference paths may hold half the memory budget: the target runs
    // of the paths kept need the rest, or a reference that fills the
    // budget would leave no counterexample findable among its paths.
    for (n, ids) in &space.groups {
        for &tid in ids {
            progress(&Progress {
                phase: "reference paths",
                done: sets.len() as u64,
                total: total_sets,
            });
            let mut x = explore(
                reference.program,
                reference.entry,
                tid,
                *n,
                &Explore {
                    domains: &rtable,
                    counters: &rcounters,
                    given: None,
                    bounds: limits.bounds,
                    max_events: (budget.max_events / 2).saturating_sub(events),
                    stop: &stop,
                },
            );
            // A loop out of the bounds because of a parameter's value cuts
            // the scenarios with that value (`params`).
            if params::out_whatever(&x) || (x.incomplete.is_none() && x.unexamined.is_some()) {
                let setting = params::Setting {
                    space: &space,
                    domains: &rtable,
                    counters: &rcounters,
                    bounds: limits.bounds,
                    max_events: (budget.max_events / 2).saturating_sub(events),
                    stop: &stop,
                };
                if let Some(sp) =
                    params::split(reference.program, reference.entry, tid, *n, &setting)
                {
                    x = sp.x;
                    cov.cut += sp.cut.len();
                    if cov.cut_reason.is_none() {
                        cov.cut_reason = Some(format!(
                            "the parameter values {} (N={n}, tid {tid}: {})",
                            sp.cut[0], sp.why
                        ));
                    }
                    for c in sp.cut {
                        if !param_cuts.contains(&c) {
                            param_cuts.push(c);
                        }
                    }
                    for (name, v) in sp.values {
                        let e = cov.domains.entry(name).or_default();
                        e.extend(v);
                        e.sort_unstable();
                        e.dedup();
                    }
                }
            }
            events += x.events;
            cov.paths += x.paths.len();
            cov.cut += x.cut;
            if cov.cut_reason.is_none() {
                cov.cut_reason.clone_from(&x.cut_reason);
            }
            for (o, v) in &x.beyond {
                let name = reference.module().oracles[*o].name.clone();
                let e = cov.loop_bounds.entry(name).or_insert(None);
                *e = Some(e.map_or(*v, |w| w.min(*v)));
            }
            let why = x
                .incomplete
                .clone()
                .map(|w| format!("reference, N={n}: {w}"))
                .or_else(|| {
                    x.unexamined
                        .clone()
                        .map(|w| format!("reference, N={n}, tid {tid}: {w}"))
                });
            if let Some(w) = why {
                reference_problem.get_or_insert(w);
            }
            let values = x
                .paths
                .iter()
                .map(|p| p.values(reference.module()))
                .collect();
            let matched = stages
                .first()
                .map(|(_, allow)| {
                    x.paths
                        .iter()
                        .map(|p| matched(reference, &rlabels, &p.trace, *allow))
                        .collect()
                })
                .unwrap_or_default();
            let uniform = x.paths.iter().map(|p| sites.of(&p.trace)).collect();
            let touches = x.paths.iter().map(|p| touches(&p.trace)).collect();
            sets.push(Set {
                group: *n,
                tid,
                x,
                matched,
                values,
                uniform,
                touches,
            });
            if time_up() {
                let why =
                    format!("time budget {timeout_text} reached while enumerating reference paths");
                cov.budget = Some(why.clone());
                return outcome_all(cov, why);
            }
        }
    }
    if !param_cuts.is_empty() {
        let shown: Vec<&str> = param_cuts.iter().take(8).map(String::as_str).collect();
        let more = param_cuts.len().saturating_sub(shown.len());
        cov.capped.push(format!(
            "scenarios with the parameter values {}{} (a loop leaves max-iters={} whatever the \
             other oracles)",
            shown.join("; "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            limits.bounds.max_iters
        ));
    }
    // Matched instances depend on the allowance; stages with another one
    // get their own copy.
    let rmatched: Vec<Vec<Vec<Matched>>> = stages
        .iter()
        .map(|(_, allow)| {
            if Some(allow) == stages.first().map(|s| &s.1) {
                Vec::new()
            } else {
                sets.iter()
                    .map(|set| {
                        set.x
                            .paths
                            .iter()
                            .map(|p| matched(reference, &rlabels, &p.trace, *allow))
                            .collect()
                    })
                    .collect()
            }
        })
        .collect();
    let ref_matched = |stage: usize, set: usize, i: usize| -> &Matched {
        if rmatched[stage].is_empty() {
            &sets[set].matched[i]
        } else {
            &rmatched[stage][set][i]
        }
    };

    // Target runs of every reference path, on every stage.
    let mut states: Vec<StageState> = stages.iter().map(|_| StageState::default()).collect();
    let target_bounds = Bounds {
        // A target may merge a loop nest into one cycle (the merged header
        // then counts the iterations of both): it gets the product of the
        // reference's bounds, roughly, before its runs are cut.
        max_iters: (limits.bounds.max_iters.saturating_add(1))
            .saturating_mul(16)
            .saturating_sub(1),
        ..limits.bounds
    };
    let total_runs = (stages.len() * cov.paths) as u64;
    let mut done_runs = 0u64;
    let mut runs: Vec<Vec<Vec<Runs>>> = Vec::new();
    for (s, (target, allow)) in stages.iter().enumerate() {
        let table = space.table(target.module());
        let counters = space.counters(target.module());
        let mut per_set = Vec::new();
        for set in &sets {
            let mut per_path = Vec::new();
            for (i, _) in set.x.paths.iter().enumerate() {
                if done_runs % 256 == 0 {
                    progress(&Progress {
                        phase: "target runs",
                        done: done_runs,
                        total: total_runs,
                    });
                }
                done_runs += 1;
                let x = explore(
                    target.program,
                    target.entry,
                    set.tid,
                    set.group,
                    &Explore {
                        domains: &table,
                        counters: &counters,
                        given: Some(&set.values[i]),
                        bounds: target_bounds,
                        max_events: budget.max_events.saturating_sub(events),
                        stop: &stop,
                    },
                );
                events += x.events;
                cov.target_cut += x.cut;
                let problem = x
                    .incomplete
                    .clone()
                    .or_else(|| x.unexamined.clone())
                    .map(|w| format!("target, N={}, tid {}: {w}", set.group, set.tid));
                if let Some(w) = problem {
                    if w.contains("budget") {
                        cov.budget = Some(w.clone());
                        return outcome_all(cov, w);
                    }
                    states[s].problem.get_or_insert(w);
                }
                let extended = x.paths.iter().any(|p| !p.decisions.is_empty());
                let matched = x
                    .paths
                    .iter()
                    .map(|p| matched(target, &tlabels[s], &p.trace, *allow))
                    .collect();
                let touches = x.paths.iter().map(|p| touches(&p.trace)).collect();
                per_path.push(Runs {
                    paths: x.paths,
                    extended,
                    matched,
                    touches,
                });
            }
            per_set.push(per_path);
        }
        runs.push(per_set);
        if time_up() {
            let why = format!("time budget {timeout_text} reached while running the targets");
            cov.budget = Some(why.clone());
            return outcome_all(cov, why);
        }
    }

    // The scenario's values: the reference path's, then the target's own.
    let scenario_values = |p: &ThreadValues, t: &Path, target: &Side| -> ThreadValues {
        let mut v = p.clone();
        for (name, list) in t.values(target.module()).0 {
            let e = v.0.entry(name).or_default();
            if list.len() > e.len() {
                *e = list;
            }
        }
        v
    };

    // Single-thread behaviour, shortest paths first.
    let mut singles: Vec<(usize, usize)> = Vec::new();
    for (k, set) in sets.iter().enumerate() {
        for i in 0..set.x.paths.len() {
            singles.push((k, i));
        }
    }
    singles.sort_by_key(|&(k, i)| (sets[k].x.paths[i].trace.events.len(), sets[k].group, k, i));
    // After a first counterexample the other stages go on while the
    // stream is small (a deterministic rule: the result never depends on
    // the machine's speed), so that small checks report every stage.
    let finish_others = |pairs_total: u64| pairs_total <= FINISH_OTHERS_UP_TO;
    let mut first_violation: Option<usize> = None;
    let mut live: Vec<bool> = stages.iter().map(|_| true).collect();
    'singles: for &(k, i) in &singles {
        let set = &sets[k];
        let p = &set.x.paths[i];
        for (s, (target, allow)) in stages.iter().enumerate() {
            if !live[s] {
                continue;
            }
            let a = observable(reference, &p.trace, *allow);
            for t in &runs[s][k][i].paths {
                let b = observable(target, &t.trace, *allow);
                if a != b {
                    states[s].violated = Some(Box::new(Finding {
                        property: Property::SingleThreadBehaviour,
                        threads: vec![scenario_values(&set.values[i], t, target)],
                        tids: vec![set.tid],
                        group: set.group,
                        message: convcheck_ir::exec::observe::describe_difference(&a, &b, set.tid),
                        operation: None,
                        reference: vec![p.trace.clone()],
                        target: vec![t.trace.clone()],
                    }));
                    first_violation.get_or_insert(s);
                    live[s] = false;
                    break;
                }
            }
        }
        if first_violation.is_some() && !live.iter().any(|&l| l) {
            break 'singles;
        }
    }

    // Pairs of threads: per group size, every pair of its indices, pairs of
    // paths by their summed length; each path only with the other thread's
    // paths of its signature (`pairs::buckets`).
    let mut partners: HashMap<(usize, usize), super::pairs::Buckets> = HashMap::new();
    for (n, ids) in &space.groups {
        let idx = |tid: u32| {
            sets.iter()
                .position(|s| s.group == *n && s.tid == tid)
                .unwrap_or(0)
        };
        for a in 0..ids.len() {
            for b in a + 1..ids.len() {
                let (x, y) = (idx(ids[a]), idx(ids[b]));
                let bk = buckets(&sets[x].uniform, &sets[y].uniform);
                cov.pairs_total += bk.pairs();
                partners.insert((x, y), bk);
            }
        }
    }
    let mut budget_hit: Option<String> = None;
    if first_violation.is_some() && !finish_others(cov.pairs_total) {
        live.iter_mut().for_each(|l| *l = false);
    }
    if live.iter().any(|&l| l) {
        'groups: for (n, ids) in &space.groups {
            let idx = |tid: u32| {
                sets.iter()
                    .position(|s| s.group == *n && s.tid == tid)
                    .unwrap_or(0)
            };
            let len = |k: usize, i: usize| sets[k].x.paths[i].trace.events.len();
            // (summed length, set a, set b, i, j), smallest first.
            let mut heap: BinaryHeap<Reverse<PairNode>> = BinaryHeap::new();
            for a in 0..ids.len() {
                for b in a + 1..ids.len() {
                    let (x, y) = (idx(ids[a]), idx(ids[b]));
                    let Some(bk) = partners.get(&(x, y)) else {
                        continue;
                    };
                    for i in 0..sets[x].x.paths.len() {
                        if let Some(&j) = bk.partners(i).first() {
                            heap.push(Reverse((len(x, i) + len(y, j), x, y, i, 0)));
                        }
                    }
                }
            }
            while let Some(Reverse((_, x, y, i, k))) = heap.pop() {
                let list = partners.get(&(x, y)).map_or(&[][..], |bk| bk.partners(i));
                let Some(&j) = list.get(k) else {
                    continue;
                };
                if let Some(&next) = list.get(k + 1) {
                    heap.push(Reverse((len(x, i) + len(y, next), x, y, i, k + 1)));
                }
                cov.pairs_examined += 1;
                if cov.pairs_examined % 4096 == 0 {
                    progress(&Progress {
                        phase: "pairs",
                        done: cov.pairs_examined,
                        total: cov.pairs_total,
                    });
                    if time_up() {
                        budget_hit = Some(format!(
                            "time budget {timeout_text} reached after {} of {} pairs",
                            grouped(cov.pairs_examined),
                            grouped(cov.pairs_total)
                        ));
                        break 'groups;
                    }
                }
                if reference_problem.is_some() && cov.pairs_examined > SEARCH_WHEN_INCOMPLETE {
                    // The verdict is already inconclusive (the reference
                    // paths are not all the paths within the bounds): the
                    // smallest pairs were searched for a counterexample,
                    // the rest would cost without changing the answer.
                    break 'groups;
                }
                if cov.pairs_examined > budget.max_pairs {
                    budget_hit = Some(format!(
                        "pair budget of {} pairs reached (of {})",
                        grouped(budget.max_pairs),
                        grouped(cov.pairs_total)
                    ));
                    break 'groups;
                }
                let (p, q) = (&sets[x].x.paths[i], &sets[y].x.paths[j]);
                if !agree(&sets[x].uniform[i], &sets[y].uniform[j]) {
                    continue;
                }
                let ref_touches = sets[x].touches[i] || sets[y].touches[j];
                cov.scenarios += 1;
                for (s, (target, _)) in stages.iter().enumerate() {
                    if !live[s] {
                        continue;
                    }
                    let (rp, rq) = (&runs[s][x][i], &runs[s][y][j]);
                    for (e0, tp) in rp.paths.iter().enumerate() {
                        for (e1, tq) in rq.paths.iter().enumerate() {
                            if (rp.extended || rq.extended)
                                && uniform_conflict(&tp.trace, &tq.trace).is_some()
                            {
                                continue;
                            }
                            let finding = |property, message, operation| {
                                Box::new(Finding {
                                    property,
                                    threads: vec![
                                        scenario_values(&sets[x].values[i], tp, target),
                                        scenario_values(&sets[y].values[j], tq, target),
                                    ],
                                    tids: vec![p.tid, q.tid],
                                    group: *n,
                                    message,
                                    operation,
                                    reference: vec![p.trace.clone(), q.trace.clone()],
                                    target: vec![tp.trace.clone(), tq.trace.clone()],
                                })
                            };
                            let maps = [
                                ref_matched(s, x, i),
                                ref_matched(s, y, j),
                                &rp.matched[e0],
                                &rq.matched[e1],
                            ];
                            match convergence_differs(
                                reference,
                                &labels,
                                [(&p.trace, p.tid), (&q.trace, q.tid)],
                                [&tp.trace, &tq.trace],
                                maps,
                            ) {
                                Diff::Same => {}
                                Diff::Undecided(why) => {
                                    states[s].undecided.get_or_insert(why);
                                }
                                Diff::Differs(message, op) => {
                                    states[s].violated =
                                        Some(finding(Property::Convergence, message, op));
                                }
                            }
                            let hazards_matter = ref_touches || rp.touches[e0] || rq.touches[e1];
                            if states[s].violated.is_none() && hazards_matter {
                                if let Some((property, message, op)) = hazards_differ(
                                    reference,
                                    target,
                                    [p.tid, q.tid],
                                    [&p.trace, &q.trace],
                                    [&tp.trace, &tq.trace],
                                ) {
                                    states[s].violated = Some(finding(property, message, op));
                                }
                            }
                            if states[s].violated.is_some() {
                                first_violation.get_or_insert(s);
                                live[s] = false;
                                if !finish_others(cov.pairs_total) {
                                    break 'groups;
                                }
                            }
                            if !live[s] {
                                break;
                            }
                        }
                        if !live[s] {
                            break;
                        }
                    }
                }
                if !live.iter().any(|&l| l) {
                    break 'groups;
                }
            }
        }
    }
    if let Some(b) = &budget_hit {
        cov.budget = Some(b.clone());
    }
    let examined = format!(
        "{} of {} pairs",
        grouped(cov.pairs_examined),
        grouped(cov.pairs_total)
    );
    let outcomes = states
        .into_iter()
        .enumerate()
        .map(|(s, st)| {
            if let Some(f) = st.violated {
                return Outcome::Violated(f);
            }
            if let Some(v) = first_violation.filter(|_| !finish_others(cov.pairs_total)) {
                return Outcome::Inconclusive(format!(
                    "not finished: the check stops at its first counterexample (stage {}), \
                     found after {examined}",
                    v + 1
                ));
            }
            if let Some(b) = &budget_hit {
                return Outcome::Inconclusive(b.clone());
            }
            if let Some(w) = &reference_problem {
                return Outcome::Inconclusive(w.clone());
            }
            if let Some(w) = st.problem.or(st.undecided) {
                return Outcome::Inconclusive(w);
            }
            let _ = s;
            if cov.scenarios == 0 {
                // A check that compared nothing proves nothing (DESIGN.md
                // 2.7): say so rather than pass.
                return Outcome::Inconclusive(
                    "no scenario within the bounds: no two thread paths can run together \
                     (every pair disagrees on a uniform value), so nothing was compared"
                        .into(),
                );
            }
            Outcome::Preserved {
                pairs: cov.scenarios as usize,
                cut: cov.cut,
            }
        })
        .collect();
    Comparison {
        outcomes,
        coverage: cov,
    }
}
