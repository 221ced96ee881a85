//! The explicit refinement engine (DESIGN.md 2.7, 2.8).
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
//!    converges a pair the target keeps apart, every larger one does too).
//!
//! Scenarios are built from per-thread reference paths (enumerated once per
//! thread index); the target is run on the same oracle values. Pairs of
//! paths are tried shortest first, so the first counterexample found is a
//! smallest one (fewest threads: single-thread differences are reported
//! with one thread; then shortest paths).
//!
//! Bounds are never silent: paths cut by `max-iters` are outside the
//! bounds and counted; a reference or target run that exceeds a bound
//! whatever its decisions, or a path set that exceeds `max-paths`, makes
//! the verdict `inconclusive` with the bound named.

use convcheck_ir::convergence::{check_assignment, relate_events, ChoiceVar};
use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Program;
use convcheck_ir::exec::{run_thread, Bounds, Event, EventKind, Stop, Trace};
use convcheck_ir::hazards::hazards;
use convcheck_ir::key::Rel;
use convcheck_ir::paths::{compatible, enumerate, Path};
use convcheck_ir::scenario::{ThreadValues, ValuesSource};
use convcheck_ir::{BarrierKind, FuncId, Module};
use std::collections::BTreeMap;

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

    fn run(&self, tid: u32, group: u32, values: &ThreadValues, fuel: u64) -> Result<Trace, String> {
        let bounds = Bounds {
            max_iters: u32::MAX,
            fuel,
            ..Bounds::default()
        };
        let mut src = ValuesSource(values);
        let (trace, res) = run_thread(self.program, self.entry, tid, group, bounds, &mut src);
        match res {
            Ok(()) => Ok(trace),
            Err(Stop::Cut(w) | Stop::OutOfBounds(w)) => Err(w),
            Err(Stop::Need { .. }) => Err("internal: value source ran dry".into()),
        }
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
    /// The scenario: one entry per thread.
    pub threads: Vec<ThreadValues>,
    /// Thread indices (`tid`) of those threads.
    pub tids: Vec<u32>,
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
        /// Scenarios (thread pairs) checked.
        pairs: usize,
        /// Paths cut by `max-iters` (outside the bounds).
        cut: usize,
    },
    /// A counterexample.
    Violated(Box<Finding>),
    /// A bound stopped the check before an answer.
    Inconclusive(String),
}

/// Observable events for single-thread behaviour.
fn observable(side: &Side, t: &Trace, allow: Allowance) -> Vec<String> {
    t.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Op | EventKind::Call(_) => Some(side.label(e)),
            EventKind::Barrier { kind, predicate } => {
                if allow == Allowance::Barriers && *kind == BarrierKind::Plain {
                    None
                } else {
                    Some(match predicate {
                        Some(p) => format!("{}({})", side.label(e), i64::from(*p != 0)),
                        None => side.label(e),
                    })
                }
            }
            EventKind::Mem { space, write, addr } => Some(format!(
                "{} {}[{addr}]",
                if *write { "store" } else { "load" },
                space.name()
            )),
            EventKind::Stmt | EventKind::Fence | EventKind::Block(_) => None,
        })
        .collect()
}

/// Convergent operation instances of a run keyed by (label, occurrence).
type Matched = BTreeMap<(String, usize), usize>;

/// Convergent operation instances of a run keyed by (label, occurrence).
fn matched(side: &Side, t: &Trace, allow: Allowance) -> Matched {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for (i, e) in t.events.iter().enumerate() {
        if !e.is_convergent_op() {
            continue;
        }
        if allow == Allowance::Barriers
            && matches!(
                e.kind,
                EventKind::Barrier {
                    kind: BarrierKind::Plain,
                    ..
                }
            )
        {
            continue;
        }
        let l = side.label(e);
        let n = count.entry(l.clone()).or_insert(0);
        out.insert((l, *n), i);
        *n += 1;
    }
    out
}

/// Bounds and group size of a check.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Enumeration bounds.
    pub bounds: Bounds,
    /// Threads in the group (`N`); pairs are drawn from these.
    pub group: u32,
}

/// Compares `target` against `reference`.
pub fn compare(reference: &Side, target: &Side, allow: Allowance, limits: Limits) -> Outcome {
    let group = limits.group.max(1);
    let mut sets = Vec::new();
    let mut cut = 0;
    for tid in 0..group {
        let set = enumerate(
            reference.program,
            reference.entry,
            tid,
            group,
            limits.bounds,
        );
        if let Some(why) = &set.incomplete {
            return Outcome::Inconclusive(format!("reference: {why}"));
        }
        cut += set.cut;
        sets.push(set);
    }
    // Convergence, races and barrier divergence are decided by pairs of
    // threads (DESIGN.md 2.2), so every pair of thread indices is tried with
    // every pair of their paths; `N` in the kernel is the group size.
    let mut targets: Vec<Vec<Result<Trace, String>>> = Vec::new();
    for set in &sets {
        targets.push(
            set.paths
                .iter()
                .map(|p| {
                    target.run(
                        p.tid,
                        group,
                        &p.values(reference.module()),
                        limits.bounds.fuel,
                    )
                })
                .collect(),
        );
    }
    // Single-thread behaviour, shortest paths first.
    let mut singles: Vec<(usize, usize)> = Vec::new();
    for (s, set) in sets.iter().enumerate() {
        for i in 0..set.paths.len() {
            singles.push((s, i));
        }
    }
    singles.sort_by_key(|&(s, i)| (sets[s].paths[i].trace.events.len(), s, i));
    for &(s, i) in &singles {
        let p = &sets[s].paths[i];
        let t = match &targets[s][i] {
            Ok(t) => t,
            Err(why) => return Outcome::Inconclusive(format!("target, thread {}: {why}", p.tid)),
        };
        let (a, b) = (
            observable(reference, &p.trace, allow),
            observable(target, t, allow),
        );
        if a != b {
            let k = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            let message = match (a.get(k), b.get(k)) {
                (Some(x), Some(y)) => format!(
                    "event {} of thread {} is `{x}` in the reference but `{y}` in the target",
                    k + 1,
                    p.tid
                ),
                (Some(x), None) => format!(
                    "thread {} stops before `{x}` (event {}) in the target",
                    p.tid,
                    k + 1
                ),
                (None, Some(y)) => format!(
                    "thread {} has an extra `{y}` (event {}) in the target",
                    p.tid,
                    k + 1
                ),
                (None, None) => "the event sequences differ".into(),
            };
            return Outcome::Violated(Box::new(Finding {
                property: Property::SingleThreadBehaviour,
                threads: vec![p.values(reference.module())],
                tids: vec![p.tid],
                message,
                operation: None,
                reference: vec![p.trace.clone()],
                target: vec![t.clone()],
            }));
        }
    }
    // Convergence, over pairs of paths, shortest first.
    let mut pairs: Vec<(usize, usize, usize, usize)> = Vec::new();
    for s0 in 0..sets.len() {
        for s1 in s0 + 1..sets.len() {
            for i in 0..sets[s0].paths.len() {
                for j in 0..sets[s1].paths.len() {
                    if compatible(reference.module(), &sets[s0].paths[i], &sets[s1].paths[j]) {
                        pairs.push((s0, i, s1, j));
                    }
                }
            }
        }
    }
    let len = |s: usize, i: usize| sets[s].paths[i].trace.events.len();
    pairs.sort_by_key(|&(s0, i, s1, j)| (len(s0, i) + len(s1, j), s0, s1, i, j));
    // Matched instances of every path, computed once.
    let rmatch: Vec<Vec<Matched>> = sets
        .iter()
        .map(|set| {
            set.paths
                .iter()
                .map(|p| matched(reference, &p.trace, allow))
                .collect()
        })
        .collect();
    let tmatch: Vec<Vec<Matched>> = targets
        .iter()
        .map(|ts| {
            ts.iter()
                .map(|t| {
                    t.as_ref()
                        .map(|t| matched(target, t, allow))
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect();
    let mut undecided = None;
    for &(s0, i, s1, j) in &pairs {
        let (p, q) = (&sets[s0].paths[i], &sets[s1].paths[j]);
        let (Ok(tp), Ok(tq)) = (&targets[s0][i], &targets[s1][j]) else {
            continue;
        };
        let maps = [
            &rmatch[s0][i],
            &rmatch[s1][j],
            &tmatch[s0][i],
            &tmatch[s1][j],
        ];
        let finding = |property, message, operation| {
            Outcome::Violated(Box::new(Finding {
                property,
                threads: vec![p.values(reference.module()), q.values(reference.module())],
                tids: vec![p.tid, q.tid],
                message,
                operation,
                reference: vec![p.trace.clone(), q.trace.clone()],
                target: vec![tp.clone(), tq.clone()],
            }))
        };
        match convergence_differs(reference, [p, q], [tp, tq], maps) {
            Diff::Same => {}
            Diff::Undecided(why) => {
                undecided.get_or_insert(why);
            }
            Diff::Differs(message, op) => return finding(Property::Convergence, message, op),
        }
        if let Some((property, message, op)) =
            hazards_differ(reference, target, [&p.trace, &q.trace], [tp, tq])
        {
            return finding(property, message, op);
        }
    }
    if let Some(why) = undecided {
        return Outcome::Inconclusive(why);
    }
    Outcome::Preserved {
        pairs: pairs.len(),
        cut,
    }
}

enum Diff {
    Same,
    Differs(String, Option<At>),
    Undecided(String),
}

/// What [`hazards_differ`] reports: the property, a sentence, and the
/// operation it is about.
type HazardDiff = (Property, String, Option<At>);

/// Hazard preservation (DESIGN.md 2.7 item 3) and the results of
/// data-carrying barriers (part of single-thread behaviour): if the
/// reference scenario has no race and no barrier divergence, neither may
/// the target; every thread must observe the same data-barrier results.
fn hazards_differ(
    reference: &Side,
    target: &Side,
    r: [&Trace; 2],
    t: [&Trace; 2],
) -> Option<HazardDiff> {
    let touches = |tr: &[&Trace; 2]| {
        tr.iter().any(|x| {
            x.events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Mem { .. } | EventKind::Barrier { .. }))
        })
    };
    if !touches(&r) && !touches(&t) {
        return None;
    }
    let rr: [&[Event]; 2] = [&r[0].events, &r[1].events];
    let tt: [&[Event]; 2] = [&t[0].events, &t[1].events];
    let rh = hazards(reference.module(), &rr);
    let th = hazards(target.module(), &tt);
    if rh.is_hazard_free() && !th.is_hazard_free() {
        if let Some(race) = th.races.first() {
            let site = &race.second.site;
            return Some((
                Property::Hazards,
                format!(
                    "the target races on {}[{}]: thread {} {} at line {} and thread {} {} at line {} in one barrier phase; \
                     the reference does not",
                    race.space.name(),
                    race.addr,
                    race.first.thread,
                    if race.first.write { "writes" } else { "reads" },
                    race.first.site.line,
                    race.second.thread,
                    if race.second.write { "writes" } else { "reads" },
                    race.second.site.line
                ),
                Some(At::of(target.module(), Which::Target, site.sid)),
            ));
        }
        if let Some(d) = th.divergence.first() {
            let at =
                d.at.as_ref()
                    .map(|s| At::of(target.module(), Which::Target, s.sid));
            return Some((
                Property::Hazards,
                format!("the target has barrier divergence ({d:?}); the reference does not"),
                at,
            ));
        }
    }
    // With barrier divergence in the reference the barriers' results are
    // undefined there, so there is nothing to compare.
    if !rh.divergence.is_empty() {
        return None;
    }
    for thread in 0..2 {
        let a: Vec<i64> = rh.observed(thread).iter().map(|x| x.2).collect();
        let b: Vec<i64> = th.observed(thread).iter().map(|x| x.2).collect();
        if a != b {
            return Some((
                Property::SingleThreadBehaviour,
                format!("thread {thread} observes data-carrying barrier results {a:?} in the reference but {b:?} in the target"),
                None,
            ));
        }
    }
    None
}

/// Compares the two threads' convergence; returns what differs and at
/// which operation.
fn convergence_differs(
    reference: &Side,
    paths: [&Path; 2],
    traces: [&Trace; 2],
    maps: [&Matched; 4],
) -> Diff {
    let rm = [maps[0], maps[1]];
    let tm = [maps[2], maps[3]];
    let at = |e: &Event| At::of(reference.module(), Which::Reference, e.sid);
    let mut forced: Vec<(ChoiceVar, ChoiceVar)> = Vec::new();
    let mut kept_apart: Vec<(usize, usize)> = Vec::new();
    let mut open_target = None;
    for (ka, &a) in rm[0] {
        // Only instances of the same operation can be converged.
        let same_label = rm[1].range((ka.0.clone(), 0)..(ka.0.clone(), usize::MAX));
        for (kb, &b) in same_label {
            let (ra, rb) = (&paths[0].trace.events[a], &paths[1].trace.events[b]);
            let r = relate_events(ra, rb);
            let (Some(&ta), Some(&tb)) = (tm[0].get(ka), tm[1].get(kb)) else {
                continue;
            };
            let t = relate_events(&traces[0].events[ta], &traces[1].events[tb]);
            let what = |c: bool| if c { "converged" } else { "not converged" };
            let describe = |rc: bool, tc: bool| {
                format!(
                    "`{}` (occurrence {} in tid {}, {} in tid {}) is {} in the reference but {} in the target",
                    ka.0,
                    ka.1 + 1,
                    paths[0].tid,
                    kb.1 + 1,
                    paths[1].tid,
                    what(rc),
                    what(tc)
                )
            };
            match (&r, &t) {
                (_, Rel::Open(_)) => {
                    open_target.get_or_insert(at(ra));
                }
                (Rel::Converged, Rel::Apart) => {
                    return Diff::Differs(describe(true, false), Some(at(ra)))
                }
                (Rel::Apart, Rel::Converged) => {
                    return Diff::Differs(describe(false, true), Some(at(ra)))
                }
                (Rel::Open(pairs), Rel::Converged) => {
                    forced.extend(pairs.iter().map(|&(x, y)| ((0, x), (1, y))))
                }
                (Rel::Open(_), Rel::Apart) => kept_apart.push((a, b)),
                _ => {}
            }
        }
    }
    if let Some(op) = open_target {
        // The target leaves convergence implementation-defined too; deciding
        // inclusion of the two sets is not implemented, so such scenarios
        // make the verdict inconclusive rather than pass.
        return Diff::Undecided(format!(
            "the target leaves convergence at `{}` (line {}) implementation-defined (an anchor); \
             inclusion of its relations in the reference's is not decided",
            op.label, op.line
        ));
    }
    if forced.is_empty() && kept_apart.is_empty() {
        return Diff::Same;
    }
    let runs: [&[Event]; 2] = [&paths[0].trace.events, &paths[1].trace.events];
    match check_assignment(&runs, &forced) {
        Err(v) => Diff::Differs(
            format!(
                "the target converges instances whose implementation-defined convergence the reference \
                 cannot choose that way ({v:?})"
            ),
            None,
        ),
        Ok(classes) => {
            for (a, b) in kept_apart {
                if classes.class[0][a] == classes.class[1][b] {
                    let e = &paths[0].trace.events[a];
                    let l = reference.label(e);
                    return Diff::Differs(
                        format!(
                            "the target keeps two instances of `{l}` apart, but every allowed reference \
                             relation that matches its other converged pairs converges them"
                        ),
                        Some(at(e)),
                    );
                }
            }
            Diff::Same
        }
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
