//! The explicit refinement engine (DESIGN.md 2.2, 2.7, 2.8).
//!
//! A transform maps a reference program to a target. It is correct within
//! bounds `B` iff for every scenario within `B`:
//!
//! 1. **single-thread behaviour**: each thread's sequence of observable
//!    events (convergent operations by label, memory accesses by space,
//!    direction and address, data-carrying barriers with their predicate) is
//!    unchanged, except what the pass's contract lets it remove;
//! 2. **convergence**: instances matched by (thread, label, occurrence) are
//!    related by the target as some relation the reference allows: equal to
//!    the reference's where it is determined; where the reference has choice
//!    variables, the target's relation must be a member of the set, decided
//!    exactly by the smallest assignment of choices that the target's
//!    converged pairs force (adding equalities only merges classes and adds
//!    convergence-before edges, so if that assignment breaks a constraint or
//!    converges a pair the target keeps apart, every larger one does too);
//! 3. **hazard-freedom**: if the reference has no race and no barrier
//!    divergence in the scenario, neither has the target (judged per pair
//!    of threads, implementation-defined barriers read in their most
//!    converged way: see `relate`).
//!
//! **Scenarios.** A scenario is a group size, a pair of distinct thread
//! indices and every value their oracles read. The group sizes, indices
//! and values tried are those that matter to some expression of either
//! program (`space`, from `convcheck_ir::scenario::domains`); unless the
//! group is fixed ([`Limits::group`]), they cover every group size `N >= 2`
//! and every pair of indices. Each thread's reference paths are enumerated
//! once per (group size, index), shortest first. The target runs on the
//! values of each reference path; the values it reads that the reference
//! path does not (an oracle only the target reads, a further evaluation)
//! are free and enumerated too, so a reference path can have several
//! target runs. A pair of reference paths is one scenario if their uniform
//! reads agree at equal read sites (DESIGN.md 2.2).
//!
//! **Order.** Single-thread behaviour is checked first, shortest paths
//! first; then pairs of threads by group size, then by the summed length
//! of their paths. All stages of a pipeline are checked on the same
//! stream of scenarios, and the check stops at the first counterexample,
//! which is therefore a smallest one (fewest threads, smallest group,
//! shortest paths); the stages it did not finish say so.
//!
//! **Bounds** are never silent ([`Coverage`]): runs cut by `max-iters` are
//! counted; if every run after some decisions is cut, that behaviour is
//! not examined and the verdict is inconclusive (unless the decision is a
//! loop bound, whose larger values are then listed as outside the
//! bounds); a reference or target run that exceeds a bound whatever its
//! decisions, a path set over `max-paths`, and the budgets (time, pairs,
//! stored events: [`Budget`]) make the verdict inconclusive with the
//! bound named. A violation found before a bound was reached is still a
//! violation. `Preserved` means every scenario within the listed bounds
//! was compared, and nothing else.

mod relate;
pub mod space;

use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Program;
use convcheck_ir::exec::{Bounds, Event, Trace};
use convcheck_ir::exec::ReadSite;
use convcheck_ir::paths::{explore, Exploration, Explore, Path};
use convcheck_ir::scenario::domains::Subject;
use convcheck_ir::scenario::{uniform_conflict, ThreadValues};
use convcheck_ir::{FuncId, Module};
use relate::{
    convergence_differs, describe_difference, hazards_differ, matched, observable, touches, Diff,
    Labels, Matched,
};
pub use space::Space;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::time::{Duration, Instant};

/// One side of a comparison: the code to run (at any level) and its entry.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    /// The code: its module's op and oracle tables name its instances.
    pub program: &'a dyn Program,
    /// The same code as a CFG program when it is one, so that the other
    /// cycle hierarchies of an irreducible CFG can be tried.
    pub cfg: Option<&'a CfgProgram>,
    /// The entry function.
    pub entry: FuncId,
}

impl<'a> Side<'a> {
    /// A CFG program's side.
    pub fn cfg(program: &'a CfgProgram, entry: FuncId) -> Side<'a> {
        Side {
            program,
            cfg: Some(program),
            entry,
        }
    }

    /// The module of the code.
    pub fn module(&self) -> &'a Module {
        self.program.module()
    }

    fn label(&self, e: &Event) -> String {
        self.module().label(e.sid).to_string()
    }
}
/// What may disappear from single-thread behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// Nothing.
    Exact,
    /// Plain barriers (not data-carrying ones).
    Barriers,
}

/// The property a counterexample breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Property {
    /// A thread's observable events changed.
    SingleThreadBehaviour,
    /// The set of communicating threads changed.
    Convergence,
    /// A race or barrier divergence appeared.
    Hazards,
}

impl Property {
    /// The property's name in text reports (`single-thread behaviour`).
    pub fn name(self) -> &'static str {
        match self {
            Property::Convergence => "convergence",
            Property::SingleThreadBehaviour => "single-thread behaviour",
            Property::Hazards => "hazard-freedom",
        }
    }

    /// The property's rule id in JSON and SARIF (`single-thread-behaviour`).
    pub fn id(self) -> &'static str {
        match self {
            Property::Convergence => "convergence",
            Property::SingleThreadBehaviour => "single-thread-behaviour",
            Property::Hazards => "hazards",
        }
    }
}

/// Which program of a comparison an operation belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Which {
    /// The reference.
    Reference,
    /// The target.
    Target,
}

/// Where a finding happened: an op of one of the two modules, with its
/// label and line as that module's op table gives them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct At {
    /// Which program's module the op id belongs to.
    pub side: Which,
    /// The op.
    pub op: convcheck_ir::OpId,
    /// Its label.
    pub label: String,
    /// The line it starts on (0 when unknown).
    pub line: u32,
}

impl At {
    /// Op `op` of `module`, on side `side`.
    pub fn of(module: &Module, side: Which, op: convcheck_ir::OpId) -> At {
        At {
            side,
            op,
            label: module.label(op).to_string(),
            line: module.line(op),
        }
    }
}

/// A failing scenario.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Which property.
    pub property: Property,
    /// The scenario: the values each thread reads (reference and target
    /// together), one entry per thread of `tids`.
    pub threads: Vec<ThreadValues>,
    /// Thread indices (`tid`) of those threads.
    pub tids: Vec<u32>,
    /// The group size `N` of the scenario.
    pub group: u32,
    /// What went wrong, in one sentence.
    pub message: String,
    /// The operation it happened at.
    pub operation: Option<At>,
    /// The reference runs of the scenario.
    pub reference: Vec<Trace>,
    /// The target runs.
    pub target: Vec<Trace>,
}

/// The outcome of one comparison.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Every scenario within bounds passes.
    Preserved {
        /// Scenarios (pairs of reference paths) checked.
        pairs: usize,
        /// Reference runs cut by `max-iters` (outside the bounds).
        cut: usize,
    },
    /// A counterexample.
    Violated(Box<Finding>),
    /// A bound stopped the check before an answer.
    Inconclusive(String),
}

/// Bounds and group size of a check.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Enumeration bounds.
    pub bounds: Bounds,
    /// The group size `N` when it is fixed; 0 for every group size `N >= 2`
    /// (the group sizes and thread indices that matter are tried).
    pub group: u32,
}

/// The budgets of a check (DESIGN.md section 5): reaching one ends the
/// check as inconclusive, with the budget named.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// When the check started (the time budget counts from here).
    pub start: Instant,
    /// Wall-clock time the check may take.
    pub timeout: Option<Duration>,
    /// Pairs of reference paths the check may examine.
    pub max_pairs: u64,
    /// Recorded events that the kept paths and target runs may hold
    /// together (about 100 bytes each): the memory budget.
    pub max_events: usize,
}

/// The default time budget: 60 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The default pair budget.
pub const DEFAULT_MAX_PAIRS: u64 = 100_000_000;

/// The default memory budget in recorded events (about 1.5 GB).
pub const DEFAULT_MAX_EVENTS: usize = 15_000_000;

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            start: Instant::now(),
            timeout: Some(DEFAULT_TIMEOUT),
            max_pairs: DEFAULT_MAX_PAIRS,
            max_events: DEFAULT_MAX_EVENTS,
        }
    }
}

/// Where a running check is, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// What it is doing (`reference paths`, `target runs`, `pairs`).
    pub phase: &'static str,
    /// How much of it is done.
    pub done: u64,
    /// Out of how much (0 when unknown).
    pub total: u64,
}

/// What a check covered and which bounds cut what (DESIGN.md 2.7: every
/// bound that cut something is named with how much it cut).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Coverage {
    /// Group sizes tried, each with its thread indices.
    pub groups: Vec<(u32, Vec<u32>)>,
    /// Whether the group size was fixed.
    pub fixed_group: bool,
    /// The values tried per oracle (only oracles read with more than one
    /// value, and `tid` / `N` when they matter).
    pub domains: BTreeMap<String, Vec<i64>>,
    /// Loop bounds (oracles compared with a loop counter) and the smallest
    /// value whose runs all need more than `max-iters` iterations.
    pub loop_bounds: BTreeMap<String, Option<i64>>,
    /// Oracles whose domain may miss a value, with the expressions the
    /// analysis does not cover.
    pub inexact: BTreeMap<String, Vec<String>>,
    /// What the caps on group sizes and indices left out.
    pub capped: Vec<String>,
    /// Reference paths within bounds, over all group sizes and indices.
    pub paths: usize,
    /// Reference runs cut by `max-iters`.
    pub cut: usize,
    /// Why the first of them was cut.
    pub cut_reason: Option<String>,
    /// Target runs cut by the target's iteration bound.
    pub target_cut: usize,
    /// Pairs of reference paths (candidate scenarios) in all.
    pub pairs_total: u64,
    /// Pairs examined before the check ended.
    pub pairs_examined: u64,
    /// Pairs examined that are scenarios (their uniform reads agree).
    pub scenarios: u64,
    /// The budget that ended the check, if one did.
    pub budget: Option<String>,
}

/// The outcome of every stage, and what the check covered.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// One outcome per target, in order.
    pub outcomes: Vec<Outcome>,
    /// The scenarios tried and the bounds that cut them.
    pub coverage: Coverage,
}

/// Compares `target` against `reference` with the default budget.
pub fn compare(reference: &Side, target: &Side, allow: Allowance, limits: Limits) -> Outcome {
    compare_stages(
        reference,
        &[(*target, allow)],
        limits,
        &Budget::default(),
        &mut |_| {},
    )
    .outcomes
    .swap_remove(0)
}

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

/// A run's uniform reads by site number: (site, oracle, value), sorted.
type Uniform = Vec<(u32, usize, i64)>;

/// Numbers read sites, so that runs compare their uniform reads by
/// merging two sorted lists.
#[derive(Default)]
struct Sites(HashMap<ReadSite, u32>);

impl Sites {
    fn of(&mut self, t: &Trace) -> Uniform {
        let mut out: Uniform = t
            .uniform
            .iter()
            .filter_map(|(i, site)| {
                let &(o, _, v) = t.reads.get(*i)?;
                let n = self.0.len() as u32;
                let id = *self.0.entry(site.clone()).or_insert(n);
                Some((id, o, v))
            })
            .collect();
        out.sort_unstable();
        out
    }
}

/// Whether two runs agree on every uniform oracle they read at the same
/// site (DESIGN.md 2.2): they can be two threads of one scenario.
fn agree(a: &Uniform, b: &Uniform) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if a[i].1 == b[j].1 && a[i].2 != b[j].2 {
                    return false;
                }
                i += 1;
                j += 1;
            }
        }
    }
    true
}

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
    let mut modules = vec![reference.module()];
    modules.extend(stages.iter().map(|s| s.0.module()));
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
    let stop = || -> Option<String> {
        time_up().then(|| format!("time budget {timeout_text} reached"))
    };
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
    let total_sets: u64 = space.groups.iter().map(|g| g.1.len() as u64).sum();
    for (n, ids) in &space.groups {
        for &tid in ids {
            progress(&Progress {
                phase: "reference paths",
                done: sets.len() as u64,
                total: total_sets,
            });
            let x = explore(
                reference.program,
                reference.entry,
                tid,
                *n,
                &Explore {
                    domains: &rtable,
                    counters: &rcounters,
                    given: None,
                    bounds: limits.bounds,
                    max_events: budget.max_events.saturating_sub(events),
                    stop: &stop,
                },
            );
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
                        .map(|p| matched(&rlabels, &p.trace, *allow))
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
                let why = format!(
                    "time budget {timeout_text} reached while enumerating reference paths"
                );
                cov.budget = Some(why.clone());
                return outcome_all(cov, why);
            }
        }
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
                            .map(|p| matched(&rlabels, &p.trace, *allow))
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
                    .map(|p| matched(&tlabels[s], &p.trace, *allow))
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
                        message: describe_difference(&a, &b, set.tid),
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
    // paths by their summed length.
    for (n, ids) in &space.groups {
        let idx = |tid: u32| {
            sets.iter()
                .position(|s| s.group == *n && s.tid == tid)
                .unwrap_or(0)
        };
        for a in 0..ids.len() {
            for b in a + 1..ids.len() {
                let (x, y) = (idx(ids[a]), idx(ids[b]));
                cov.pairs_total +=
                    (sets[x].x.paths.len() as u64) * (sets[y].x.paths.len() as u64);
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
            let mut heap: BinaryHeap<Reverse<(usize, usize, usize, usize, usize)>> =
                BinaryHeap::new();
            for a in 0..ids.len() {
                for b in a + 1..ids.len() {
                    let (x, y) = (idx(ids[a]), idx(ids[b]));
                    for i in 0..sets[x].x.paths.len() {
                        if !sets[y].x.paths.is_empty() {
                            heap.push(Reverse((len(x, i) + len(y, 0), x, y, i, 0)));
                        }
                    }
                }
            }
            while let Some(Reverse((_, x, y, i, j))) = heap.pop() {
                if j + 1 < sets[y].x.paths.len() {
                    heap.push(Reverse((len(x, i) + len(y, j + 1), x, y, i, j + 1)));
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
                            let hazards_matter =
                                ref_touches || rp.touches[e0] || rq.touches[e1];
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

/// Like [`compare`], with the reference's cycle hierarchy left open: an
/// irreducible CFG has several cycle hierarchies, each a different
/// maximal-convergence relation (LLVM ConvergenceAndUniformity), and an
/// implementation may follow any one of them. The target is preserved if
/// it refines the reference under some hierarchy of the entry function
/// (at most `limit` are tried); otherwise the violation under LLVM's own
/// hierarchy is reported. With a source-level or reducible reference this
/// is [`compare`].
pub fn compare_any_hierarchy(
    reference: &Side,
    target: &Side,
    allow: Allowance,
    limits: Limits,
    limit: usize,
) -> Outcome {
    let first = compare(reference, target, allow, limits);
    let Some(program) = reference.cfg else {
        return first;
    };
    if !matches!(first, Outcome::Violated(_)) {
        return first;
    }
    let cfg = &program.module.functions[reference.entry];
    // One more than the limit, to know whether the limit cut anything.
    let all = convcheck_ir::cycles::all_hierarchies(cfg, limit.saturating_add(1));
    let capped = all.len() > limit;
    for h in all.iter().take(limit).skip(1) {
        let mut alt = program.clone();
        alt.cycles[reference.entry] = h.clone();
        let side = Side::cfg(&alt, reference.entry);
        if let Outcome::Preserved { pairs, cut } = compare(&side, target, allow, limits) {
            return Outcome::Preserved { pairs, cut };
        }
    }
    if capped {
        return Outcome::Inconclusive(format!(
            "the reference CFG has more than {limit} cycle hierarchies (the hierarchy cap) and \
             the target refines none of the first {limit}"
        ));
    }
    first
}

/// Checks one pass on a module with the module itself as reference (what a
/// fuzz run and the fuzz oracle do for every program): runs the pass and
/// compares under the pass's contract. A pass that fails to run is
/// reported as inconclusive.
pub fn check_pass_against_cfg(
    module: &Module,
    entry: FuncId,
    pass: &dyn convcheck_transforms::Pass,
    limits: Limits,
) -> Outcome {
    let reference_program = CfgProgram::new(module.clone());
    let mut m = module.clone();
    if let Err(e) = pass.run(&mut m) {
        return Outcome::Inconclusive(format!("the pass failed: {e}"));
    }
    let allow = if pass.contract() == convcheck_transforms::Contract::RemovesBarriers {
        Allowance::Barriers
    } else {
        Allowance::Exact
    };
    let target_program = CfgProgram::new(m);
    let reference = Side::cfg(&reference_program, entry);
    let target = Side::cfg(&target_program, entry);
    compare_any_hierarchy(&reference, &target, allow, limits, HIERARCHY_CAP)
}
