//! What the engine compares for one scenario (DESIGN.md 2.7): observable
//! events of one thread, matched convergent instances of two threads, and
//! the hazards of two threads.
//!
//! **Hazards with implementation-defined convergence.** Where a key holds
//! choice variables (a goto cycle, an irreducible loop at the source
//! level, an anchor), the program denotes a set of relations. For hazards
//! the engine reads such a run in its most converged way: two instances
//! whose keys differ only in choice variables of the same regions are
//! taken as converged ([`settle`]). A reference that still has a race or
//! a barrier divergence read that way has one in every relation it
//! allows, and masks that scenario (that pair of runs) only; a reference
//! whose only hazard is an implementation-defined barrier does not mask
//! anything, since an implementation may converge it. A target with a
//! race or a barrier divergence in its most converged reading, in a
//! scenario where the reference has none, breaks hazard-freedom.
//!
//! **A target with implementation-defined convergence.** Where the target
//! relates a matched pair through choice variables (an anchor), it denotes
//! a set of relations too, and it refines the reference when each of them
//! is one the reference allows on the matched instances. The relations the
//! target allows are enumerated (every assignment of the choice pairs its
//! matched instances read that meets DESIGN.md 2.4, depth first, at most
//! [`MAX_TARGET_CHOICES`] steps and [`MAX_TARGET_WORK`] events examined
//! per pair of runs, else the scenario is
//! undecided and the check inconclusive), and each is checked against the
//! reference as a determined target is. This is done when the reference
//! is a CFG program too (LLVM IR, `--reference cfg`), and both sides'
//! constraints are taken over convergent operations only, as LLVM defines
//! convergence-before: block instances and statements have no convergence
//! LLVM specifies, so they never converge there (`only_ops`). Against a
//! source-level reference, whose statements' convergence is seed 000's,
//! such a scenario stays undecided.

use super::{At, Property, Side, Which};
use convcheck_ir::convergence::{check_assignment, relate_events, ChoiceVar};
use convcheck_ir::exec::observe::{Obs, Observe};
use convcheck_ir::exec::{Event, EventKind, Trace};
use convcheck_ir::hazards::{hazards_of, HazardReport, RunAccesses};
use convcheck_ir::key::{Atom, Key, Rel};

use super::Allowance;

/// Observable events for single-thread behaviour (unused loads and calls
/// as such left out; see `convcheck_ir::exec::observe`).
pub(super) fn observable(side: &Side, t: &Trace, how: Observe) -> Vec<Obs> {
    convcheck_ir::exec::observe::observable(side.module(), t, how)
}

/// What property 1 observes of runs of `side` under `allow`
/// (`Observe::behaviour`). It walks the whole module, so a comparison
/// computes it once per side and allowance, not once per run: under
/// `default<O2>` it was 15% of `early_exit`'s explicit engine, called for
/// every target run and every reference path of every stage.
pub(super) fn behaviour(side: &Side, allow: Allowance) -> Observe {
    Observe::behaviour(side.module(), allow == Allowance::Barriers)
}

/// Labels as small numbers, shared by both sides of a comparison (the
/// sides are matched by label text).
#[derive(Default)]
pub(super) struct Labels {
    ids: std::collections::HashMap<String, u32>,
    names: Vec<String>,
}

impl Labels {
    /// The number of `label`.
    pub(super) fn id(&mut self, label: &str) -> u32 {
        if let Some(&i) = self.ids.get(label) {
            return i;
        }
        let i = self.names.len() as u32;
        self.ids.insert(label.to_string(), i);
        self.names.push(label.to_string());
        i
    }

    /// The label numbered `id`.
    pub(super) fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    /// The label number of every op of `side`'s module.
    pub(super) fn of_ops(&mut self, side: &Side) -> Vec<u32> {
        side.module()
            .ops
            .iter()
            .map(|o| self.id(&o.label))
            .collect()
    }
}

/// Convergent operation instances of a run: (label, occurrence, event
/// index), sorted.
#[derive(Clone, Debug, Default)]
pub(super) struct Matched(Vec<(u32, u32, u32)>);

impl Matched {
    fn get(&self, label: u32, occurrence: u32) -> Option<usize> {
        self.0
            .binary_search_by_key(&(label, occurrence), |&(l, o, _)| (l, o))
            .ok()
            .map(|k| self.0[k].2 as usize)
    }
}

/// Convergent operation instances of a run keyed by (label, occurrence);
/// `labels` numbers the ops of the run's module. Only the instances whose
/// convergence property 2 compares (`Observe::compares`: not real calls,
/// plain barriers only where they are observable).
/// `how` is [`behaviour`] of `side` under the comparison's allowance.
pub(super) fn matched(labels: &[u32], t: &Trace, how: Observe) -> Matched {
    let mut count: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (i, e) in t.events.iter().enumerate() {
        if !how.compares(e) {
            continue;
        }
        let l = labels.get(e.sid.0 as usize).copied().unwrap_or(u32::MAX);
        let n = count.entry(l).or_insert(0);
        out.push((l, *n, i as u32));
        *n += 1;
    }
    out.sort_unstable();
    Matched(out)
}

/// Whether some event of a run has a key with choice variables (an
/// implementation-defined convergence, which [`settle`] reads in its most
/// converged way). Computed once per run: [`settle`] is asked for every
/// pair of runs of every stage.
pub(super) fn has_open_key(t: &Trace) -> bool {
    t.events.iter().any(|e| e.key.is_open())
}

/// Whether a run has a memory access or a barrier (the only events
/// hazards are about).
pub(super) fn touches(t: &Trace) -> bool {
    t.events
        .iter()
        .any(|e| matches!(e.kind, EventKind::Mem { .. } | EventKind::Barrier { .. }))
}

/// How the convergence of two threads compares.
pub(super) enum Diff {
    /// Every matched pair is related alike.
    Same,
    /// A difference, with the operation it is at.
    Differs(String, Option<At>),
    /// The target leaves convergence implementation-defined.
    Undecided(String),
}

/// Compares the two threads' convergence; `refs` are the reference runs
/// (with their thread indices), `traces` the target runs, `maps` the
/// matched instances of the two reference runs, then the two target runs.
pub(super) fn convergence_differs(
    reference: &Side,
    labels: &Labels,
    refs: [(&Trace, u32); 2],
    traces: [&Trace; 2],
    maps: [&Matched; 4],
) -> Diff {
    let (r0, r1) = (&maps[0].0, &maps[1].0);
    let (t0, t1) = (maps[2], maps[3]);
    let at = |e: &Event| At::of(reference.module(), Which::Reference, e.sid);
    let mut forced: Vec<(ChoiceVar, ChoiceVar)> = Vec::new();
    let mut kept_apart: Vec<(usize, usize)> = Vec::new();
    let mut open_target: Vec<OpenPair> = Vec::new();
    // Both lists are sorted by label: walk the labels they share. Only
    // instances of the same operation can be converged.
    let (mut x, mut y) = (0, 0);
    while x < r0.len() && y < r1.len() {
        let (la, lb) = (r0[x].0, r1[y].0);
        if la < lb {
            x += 1;
            continue;
        }
        if lb < la {
            y += 1;
            continue;
        }
        let xe = x + r0[x..].iter().take_while(|m| m.0 == la).count();
        let ye = y + r1[y..].iter().take_while(|m| m.0 == la).count();
        if (xe - x) * (ye - y) > 16 {
            let (ga, gb) = (&r0[x..xe], &r1[y..ye]);
            let target = [(t0, traces[0]), (t1, traces[1])];
            if let Some(first) = first_difference(refs, target, la, ga, gb) {
                let (oa, a, ob, rc) = first;
                let ra = &refs[0].0.events[a];
                return Diff::Differs(
                    format!(
                        "`{}` (occurrence {} in tid {}, {} in tid {}) is {} in the reference but {} in the target",
                        labels.name(la),
                        oa + 1,
                        refs[0].1,
                        ob + 1,
                        refs[1].1,
                        if rc { "converged" } else { "not converged" },
                        if rc { "not converged" } else { "converged" },
                    ),
                    Some(at(ra)),
                );
            }
            if !group_is_open(refs, target, la, ga, gb) {
                x = xe;
                y = ye;
                continue;
            }
        }
        for &(_, oa, a) in &r0[x..xe] {
            for &(_, ob, b) in &r1[y..ye] {
                let (a, b) = (a as usize, b as usize);
                let (ra, rb) = (&refs[0].0.events[a], &refs[1].0.events[b]);
                let r = relate_events(ra, rb);
                let (Some(ta), Some(tb)) = (t0.get(la, oa), t1.get(la, ob)) else {
                    continue;
                };
                let t = relate_events(&traces[0].events[ta], &traces[1].events[tb]);
                let what = |c: bool| if c { "converged" } else { "not converged" };
                let describe = |rc: bool, tc: bool| {
                    format!(
                        "`{}` (occurrence {} in tid {}, {} in tid {}) is {} in the reference but {} in the target",
                        labels.name(la),
                        oa + 1,
                        refs[0].1,
                        ob + 1,
                        refs[1].1,
                        what(rc),
                        what(tc)
                    )
                };
                match (&r, &t) {
                    (_, Rel::Open(_)) => open_target.push(OpenPair {
                        reference: r.clone(),
                        events: [a, b],
                        target: [ta, tb],
                        label: la,
                        occurrences: [oa, ob],
                    }),
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
        x = xe;
        y = ye;
    }
    let runs: [&[Event]; 2] = [&refs[0].0.events, &refs[1].0.events];
    if let (Some(p), None) = (open_target.first(), reference.cfg) {
        // A reference at the source level: its statements' convergence is
        // part of seed 000's convergence-before, which the enumeration
        // below (LLVM's, on convergent operations) does not take; inclusion
        // is not decided there.
        let op = at(&refs[0].0.events[p.events[0]]);
        return Diff::Undecided(format!(
            "the target leaves convergence at `{}` (line {}) implementation-defined (an anchor); \
             inclusion of its relations in the reference's is not decided",
            op.label, op.line
        ));
    }
    if !open_target.is_empty() {
        let ctx = Open {
            reference,
            labels,
            refs,
            traces,
            forced: &forced,
            kept_apart: &kept_apart,
        };
        return ctx.decide(&open_target);
    }
    if forced.is_empty() && kept_apart.is_empty() {
        return Diff::Same;
    }
    match reference_allows(reference, runs, &forced, &kept_apart) {
        Ok(()) => Diff::Same,
        Err((message, at)) => Diff::Differs(message, at),
    }
}

/// Whether some relation the reference allows converges the choice
/// variables `forced` (pairs the target converges) and keeps the instance
/// pairs `kept_apart` (event indices in the two reference runs) apart:
/// the finest assignment that makes `forced` equal is allowed and keeps
/// them apart, since more equalities only merge more classes.
fn reference_allows(
    reference: &Side,
    runs: [&[Event]; 2],
    forced: &[(ChoiceVar, ChoiceVar)],
    kept_apart: &[(usize, usize)],
) -> Result<(), (String, Option<At>)> {
    match check_assignment(&runs, forced) {
        Err(v) => Err((
            format!(
                "the target converges instances whose implementation-defined convergence the reference \
                 cannot choose that way ({v:?})"
            ),
            None,
        )),
        Ok(classes) => {
            for &(a, b) in kept_apart {
                if classes.class[0][a] == classes.class[1][b] {
                    let e = &runs[0][a];
                    let l = reference.label(e);
                    return Err((
                        format!(
                            "the target keeps two instances of `{l}` apart, but every allowed reference \
                             relation that matches its other converged pairs converges them"
                        ),
                        Some(At::of(reference.module(), Which::Reference, e.sid)),
                    ));
                }
            }
            Ok(())
        }
    }
}

/// A run as the constraints on anchors see it (LLVM's convergence-before):
/// only convergent operations have a convergence LLVM defines. Other
/// instances (block instances, statements, memory accesses) keep their
/// place in the thread's order but are never converged with another
/// thread's, which an implementation may always choose and which
/// constrains nothing: their keys become a choice that no assignment
/// makes equal.
fn only_ops(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .map(|e| {
            if e.is_convergent_op() {
                e.clone()
            } else {
                Event {
                    sid: e.sid,
                    kind: e.kind.clone(),
                    key: Key(vec![Atom::Choice {
                        scope: e.sid,
                        seq: u32::MAX,
                    }]),
                }
            }
        })
        .collect()
}

/// At most this many assignments of the target's choice variables are
/// tried per pair of runs (each is checked against the constraints of
/// DESIGN.md 2.4); beyond it the scenario stays undecided.
pub const MAX_TARGET_CHOICES: usize = 20_000;

/// And at most this many events examined by those steps (each step checks
/// the constraints over both target runs), so that long runs take fewer
/// steps.
pub const MAX_TARGET_WORK: usize = 4_000_000;

/// A matched pair of instances whose target relation is open.
struct OpenPair {
    /// The reference's relation.
    reference: Rel,
    /// Event indices in the two reference runs.
    events: [usize; 2],
    /// Event indices in the two target runs.
    target: [usize; 2],
    label: u32,
    occurrences: [u32; 2],
}

/// What deciding open target relations needs.
struct Open<'a> {
    reference: &'a Side<'a>,
    labels: &'a Labels,
    refs: [(&'a Trace, u32); 2],
    traces: [&'a Trace; 2],
    /// From the determined target relations: choice pairs of the
    /// reference the target converges, and pairs it keeps apart.
    forced: &'a [(ChoiceVar, ChoiceVar)],
    kept_apart: &'a [(usize, usize)],
}

impl Open<'_> {
    /// The target leaves the relation of `open` implementation-defined (an
    /// anchor): every relation it allows (every assignment of its choice
    /// variables that meets DESIGN.md 2.4, enumerated) must be one the
    /// reference allows on the matched instances, together with the
    /// determined pairs. Pairs of choice variables that no matched pair
    /// reads are left distinct: making them equal changes no matched
    /// relation and only adds constraints, so every relation the target
    /// allows on matched pairs is one of those enumerated.
    fn decide(&self, open: &[OpenPair]) -> Diff {
        let target = [
            only_ops(&self.traces[0].events),
            only_ops(&self.traces[1].events),
        ];
        let tr: [&[Event]; 2] = [&target[0], &target[1]];
        let reference = [
            only_ops(&self.refs[0].0.events),
            only_ops(&self.refs[1].0.events),
        ];
        let rr: [&[Event]; 2] = [&reference[0], &reference[1]];
        let mut vars: Vec<(ChoiceVar, ChoiceVar)> = Vec::new();
        for p in open {
            if let Rel::Open(pairs) = relate_events(&tr[0][p.target[0]], &tr[1][p.target[1]]) {
                for (x, y) in pairs {
                    let v = ((0, x), (1, y));
                    if !vars.contains(&v) {
                        vars.push(v);
                    }
                }
            }
        }
        vars.sort_unstable();
        // Depth-first over the variables: equal or distinct, an equality
        // kept only when the target's constraints still hold (they only
        // fail more with more equalities).
        let mut seen: std::collections::BTreeSet<Vec<bool>> = Default::default();
        let mut checks = 0usize;
        let mut stack: Vec<(usize, Vec<(ChoiceVar, ChoiceVar)>)> = vec![(0, Vec::new())];
        while let Some((k, equal)) = stack.pop() {
            if k == vars.len() {
                let Ok(classes) = check_assignment(&tr, &equal) else {
                    continue;
                };
                let converged: Vec<bool> = open
                    .iter()
                    .map(|p| classes.class[0][p.target[0]] == classes.class[1][p.target[1]])
                    .collect();
                if !seen.insert(converged.clone()) {
                    continue;
                }
                if let Err((message, at)) = self.allowed(rr, open, &converged, &equal) {
                    return Diff::Differs(message, at);
                }
                continue;
            }
            checks += 1;
            let work = checks.saturating_mul(tr[0].len() + tr[1].len());
            if checks > MAX_TARGET_CHOICES || work > MAX_TARGET_WORK {
                let p = &open[0];
                let at = At::of(
                    self.reference.module(),
                    Which::Reference,
                    self.refs[0].0.events[p.events[0]].sid,
                );
                return Diff::Undecided(format!(
                    "the target leaves convergence at `{}` (line {}) implementation-defined (an anchor) \
                     with more assignments of its choices than the checker compares (at most \
                     {MAX_TARGET_CHOICES} steps, {MAX_TARGET_WORK} events examined, per pair of runs)",
                    at.label, at.line
                ));
            }
            stack.push((k + 1, equal.clone()));
            let mut with = equal;
            with.push(vars[k]);
            if check_assignment(&tr, &with).is_ok() {
                stack.push((k + 1, with));
            }
        }
        Diff::Same
    }

    /// Whether the reference allows the target relation that converges the
    /// open pairs marked in `converged` (`equal` is the target's
    /// assignment, for the message).
    fn allowed(
        &self,
        runs: [&[Event]; 2],
        open: &[OpenPair],
        converged: &[bool],
        equal: &[(ChoiceVar, ChoiceVar)],
    ) -> Result<(), (String, Option<At>)> {
        let mut forced = self.forced.to_vec();
        let mut kept_apart = self.kept_apart.to_vec();
        let choice = if equal.is_empty() {
            "with every anchor instance of one thread apart from the other's".to_string()
        } else {
            format!(
                "with {} pair{} of anchor instances converged",
                equal.len(),
                if equal.len() == 1 { "" } else { "s" }
            )
        };
        for (p, &tc) in open.iter().zip(converged) {
            let at = || {
                Some(At::of(
                    self.reference.module(),
                    Which::Reference,
                    runs[0][p.events[0]].sid,
                ))
            };
            let what = |c: bool| if c { "converged" } else { "not converged" };
            let differs = |rc: bool| {
                format!(
                    "`{}` (occurrence {} in tid {}, {} in tid {}) is {} in the reference but {} in the \
                     target {choice} (the target leaves it implementation-defined through an anchor)",
                    self.labels.name(p.label),
                    p.occurrences[0] + 1,
                    self.refs[0].1,
                    p.occurrences[1] + 1,
                    self.refs[1].1,
                    what(rc),
                    what(!rc),
                )
            };
            match (&p.reference, tc) {
                (Rel::Converged, false) => return Err((differs(true), at())),
                (Rel::Apart, true) => return Err((differs(false), at())),
                (Rel::Open(pairs), true) => {
                    forced.extend(pairs.iter().map(|&(x, y)| ((0, x), (1, y))))
                }
                (Rel::Open(_), false) => kept_apart.push((p.events[0], p.events[1])),
                _ => {}
            }
        }
        reference_allows(self.reference, runs, &forced, &kept_apart)
    }
}

/// The instances of one label in one run of each thread: (occurrence,
/// event index) of the reference, and the target's matched event.
type Group<'a> = &'a [(u32, u32, u32)];

/// Whether some instance of label `la`, in the reference or the target,
/// has a key with choice variables (the general comparison is needed).
fn group_is_open(
    refs: [(&Trace, u32); 2],
    target: [(&Matched, &Trace); 2],
    la: u32,
    ga: Group,
    gb: Group,
) -> bool {
    [(0, ga), (1, gb)].iter().any(|&(k, g)| {
        g.iter().any(|&(_, o, e)| {
            refs[k].0.events[e as usize].key.is_open()
                || target[k]
                    .0
                    .get(la, o)
                    .is_some_and(|t| target[k].1.events[t].key.is_open())
        })
    })
}

/// The first pair (in the order of the pairwise comparison: thread 0's
/// instances, then thread 1's) of instances of label `la` that the
/// reference and the target relate differently, when no key of the group
/// is open: by hashing keys, in time linear in the instances rather than
/// quadratic (a loop nest with a barrier has hundreds of instances of it
/// per thread). Returns (occurrence in thread 0, its reference event,
/// occurrence in thread 1, whether the reference converges them).
fn first_difference(
    refs: [(&Trace, u32); 2],
    target: [(&Matched, &Trace); 2],
    la: u32,
    ga: Group,
    gb: Group,
) -> Option<(u32, usize, u32, bool)> {
    use std::collections::HashMap;
    if group_is_open(refs, target, la, ga, gb) {
        return None;
    }
    // An instance's identity: its operation and key (converged iff equal).
    fn id(t: &Trace, e: usize) -> (convcheck_ir::OpId, &Key) {
        let ev = &t.events[e];
        (ev.sid, &ev.key)
    }
    // Thread 1's instances by reference identity and by target identity.
    let mut by_ref: HashMap<_, Vec<usize>> = HashMap::new();
    let mut by_tgt: HashMap<_, Vec<usize>> = HashMap::new();
    let mut tgt_of: Vec<Option<usize>> = Vec::with_capacity(gb.len());
    for (k, &(_, o, e)) in gb.iter().enumerate() {
        let t = target[1].0.get(la, o);
        tgt_of.push(t);
        if let Some(t) = t {
            by_ref.entry(id(refs[1].0, e as usize)).or_default().push(k);
            by_tgt.entry(id(target[1].1, t)).or_default().push(k);
        }
    }
    for &(_, oa, a) in ga {
        let Some(ta) = target[0].0.get(la, oa) else {
            continue;
        };
        let (ra, tka) = (id(refs[0].0, a as usize), id(target[0].1, ta));
        // Converged in the reference, apart in the target.
        let apart = by_ref.get(&ra).and_then(|ks| {
            ks.iter()
                .copied()
                .find(|&k| tgt_of[k].is_some_and(|t| id(target[1].1, t) != tka))
        });
        // Apart in the reference, converged in the target.
        let merged = by_tgt.get(&tka).and_then(|ks| {
            ks.iter()
                .copied()
                .find(|&k| id(refs[1].0, gb[k].2 as usize) != ra)
        });
        let first = match (apart, merged) {
            (Some(p), Some(q)) => Some((p.min(q), p <= q)),
            (Some(p), None) => Some((p, true)),
            (None, Some(q)) => Some((q, false)),
            (None, None) => None,
        };
        if let Some((k, rc)) = first {
            return Some((oa, a as usize, gb[k].1, rc));
        }
    }
    None
}

/// A run read in its most converged way: every choice variable of a
/// region is taken as equal to every other of the same region (see the
/// module documentation). Runs without choice variables are returned as
/// they are.
/// `open` is [`has_open_key`] of the run.
pub(super) fn settle(events: &[Event], open: bool) -> std::borrow::Cow<'_, [Event]> {
    if !open {
        return std::borrow::Cow::Borrowed(events);
    }
    std::borrow::Cow::Owned(
        events
            .iter()
            .map(|e| Event {
                sid: e.sid,
                kind: e.kind.clone(),
                key: Key(e
                    .key
                    .0
                    .iter()
                    .map(|a| match a {
                        Atom::Choice { scope, .. } => Atom::Sid(*scope),
                        other => *other,
                    })
                    .collect()),
            })
            .collect(),
    )
}

/// What [`hazards_differ`] reports: the property, a sentence, and the
/// operation it is about.
pub(super) type HazardDiff = (Property, String, Option<At>);

/// The hazards of a reference scenario in its most converged reading
/// (`ra[k]` is [`RunAccesses::of`] reference path `r[k]`): what
/// [`hazards_differ`] compares each target scenario with.
/// `open[k]` is [`has_open_key`] of `r[k]`.
pub(super) fn reference_hazards(
    reference: &Side,
    r: [&Trace; 2],
    ra: [&RunAccesses; 2],
    open: [bool; 2],
) -> HazardReport {
    let (r0, r1) = (settle(&r[0].events, open[0]), settle(&r[1].events, open[1]));
    let rr: [&[Event]; 2] = [&r0, &r1];
    hazards_of(reference.module(), &rr, &ra)
}

/// Hazard preservation (DESIGN.md 2.7 item 3) and the results of
/// data-carrying barriers (part of single-thread behaviour), for one pair
/// of threads: if the reference has no race and no barrier divergence in
/// its most converged reading, neither may the target; every thread must
/// observe the same data-barrier results.
///
/// `rh` is the reference's [`reference_hazards`] for the scenario (one
/// report serves every stage and every pair of target runs of it);
/// `ta[k]` is [`RunAccesses::of`] target run `t[k]`, computed once per run;
/// `open[k]` its [`has_open_key`].
pub(super) fn hazards_differ(
    target: &Side,
    tids: [u32; 2],
    rh: &HazardReport,
    t: [&Trace; 2],
    ta: [&RunAccesses; 2],
    open: [bool; 2],
) -> Option<HazardDiff> {
    if !rh.is_hazard_free() {
        // A hazard in every relation the reference allows: this scenario
        // constrains nothing (and the barriers' results are undefined).
        return None;
    }
    let (t0, t1) = (settle(&t[0].events, open[0]), settle(&t[1].events, open[1]));
    let tt: [&[Event]; 2] = [&t0, &t1];
    let th = hazards_of(target.module(), &tt, &ta);
    if let Some(race) = th.races.first() {
        let site = &race.second.site;
        return Some((
            Property::Hazards,
            format!(
                "the target races on {}[{}]: tid {} {} at line {} and tid {} {} at line {} in one barrier phase; \
                 the reference does not",
                race.space.name(),
                race.addr,
                tids[race.first.thread.min(1)],
                if race.first.write { "writes" } else { "reads" },
                race.first.site.line,
                tids[race.second.thread.min(1)],
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
            format!(
                "the target has barrier divergence between tid {} (thread 0) and tid {} (thread 1): {d}; \
                 the reference does not",
                tids[0], tids[1]
            ),
            at,
        ));
    }
    for thread in 0..2 {
        let a: Vec<i64> = rh.observed(thread).iter().map(|x| x.2).collect();
        let b: Vec<i64> = th.observed(thread).iter().map(|x| x.2).collect();
        if a != b {
            return Some((
                Property::SingleThreadBehaviour,
                format!(
                    "tid {} observes data-carrying barrier results {a:?} in the reference but {b:?} in the target",
                    tids[thread]
                ),
                None,
            ));
        }
    }
    None
}
