//! What one step of the product must satisfy: how a pair of segment ends
//! moves the two programs, and when the events and used loads of the two
//! segments agree.
//!
//! **Steps.** From a pair of locations the reference runs one segment and
//! the target one segment. Both end in events: the events must be equal
//! and both move (`Both`). Both enter cycle headers: both move. One ends
//! in an event (or a `ret`) while the other enters a header: the one at
//! the header moves, the other stays where it was (a *stutter*: its
//! segment runs again from the same state at the next pair). Both return:
//! the runs end together. An event against a `ret` is a difference of
//! single-thread behaviour. A reference path into `unreachable` is
//! undefined behaviour and constrains nothing (DESIGN.md 2.7); a target
//! path into `unreachable`, or any path out of the model, is no proof.
//!
//! **Used loads.** A load is observable only if its value is used
//! (`exec`). Loads are paired like every event, with the same oracle
//! evaluation, and [`settle`] makes sure a paired load is used in one
//! program iff it is in the other, whenever each program uses it.

use super::exec::{Acc, End, Ev, EvKind, Path, TState, Used};
use super::side::Loc;
use z3::ast::{Bool, BV};

/// How a step moves the two programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Both run their segment.
    Both,
    /// Only the reference runs its segment (the target stutters).
    RefOnly,
    /// Only the target runs its segment (the reference stutters).
    TgtOnly,
    /// Both return.
    Ret,
    /// The reference's path is undefined behaviour.
    Vacuous,
}

impl Step {
    /// Whether the reference's state moves.
    pub fn ref_moves(self) -> bool {
        matches!(self, Step::Both | Step::RefOnly)
    }

    /// Whether the target's state moves.
    pub fn tgt_moves(self) -> bool {
        matches!(self, Step::Both | Step::TgtOnly)
    }
}

/// The step of a feasible pair of paths from locations `at`, and the
/// locations it leads to; `Err` names a difference (or a path out of the
/// model).
pub(crate) fn classify(
    at: [Loc; 2],
    r: &Path,
    t: &Path,
) -> Result<(Step, Option<[Loc; 2]>), String> {
    use End::*;
    Ok(match (&r.end, &t.end) {
        (Unreachable, _) => (Step::Vacuous, None),
        (Stuck(why), _) => return Err(format!("the reference leaves the model: {why}")),
        (_, Stuck(why)) => return Err(format!("the target leaves the model: {why}")),
        (_, Unreachable) => {
            return Err("the target reaches `unreachable` where the reference is defined".into())
        }
        (Event(a), Event(b)) | (Cut(a), Cut(b)) => (Step::Both, Some([*a, *b])),
        (Event(_), Cut(b)) | (Ret, Cut(b)) => (Step::TgtOnly, Some([at[0], *b])),
        (Cut(a), Event(_)) | (Cut(a), Ret) => (Step::RefOnly, Some([*a, at[1]])),
        (Ret, Ret) => (Step::Ret, None),
        (Event(_), Ret) => {
            return Err("the reference has an event where the target returns".into());
        }
        (Ret, Event(_)) => {
            return Err("the target has an event where the reference returns".into());
        }
    })
}

/// The events that a step compares: both segments' for `Both`, none
/// otherwise.
pub(crate) fn compared<'p>(step: Step, r: &'p Path, t: &'p Path) -> (&'p [Ev], &'p [Ev]) {
    if step == Step::Both {
        (&r.events, &t.events)
    } else {
        (&[], &[])
    }
}

/// The formula saying that two event lists are equal, or `Err` when they
/// differ whatever the values (labels, kinds, counts).
pub(crate) fn events_equal(a: &[Ev], b: &[Ev]) -> Result<Bool, String> {
    if a.len() != b.len() {
        return Err(format!(
            "{} event(s) in the reference against {} in the target",
            a.len(),
            b.len()
        ));
    }
    let mut eqs = Vec::new();
    for (x, y) in a.iter().zip(b) {
        match (&x.kind, &y.kind) {
            (
                EvKind::Conv {
                    label: l1,
                    args: a1,
                    defined: f1,
                    barrier: b1,
                    pred: p1,
                },
                EvKind::Conv {
                    label: l2,
                    args: a2,
                    defined: f2,
                    barrier: b2,
                    pred: p2,
                },
            ) => {
                if l1 != l2 || b1 != b2 || a1.len() != a2.len() || p1.is_some() != p2.is_some() {
                    return Err(format!(
                        "`{l1}` in the reference against `{l2}` in the target"
                    ));
                }
                let at = |f: &[(usize, Bool)], i: usize| {
                    f.iter().find(|(j, _)| *j == i).map(|(_, d)| d.clone())
                };
                for (i, (u, v)) in a1.iter().zip(a2).enumerate() {
                    eqs.push(refined(at(f1, i), at(f2, i), u, v));
                }
                if let (Some(u), Some(v)) = (p1, p2) {
                    eqs.push(u.eq(v));
                }
            }
            (
                EvKind::Mem {
                    label: l1,
                    space: s1,
                    write: w1,
                    addr: d1,
                    value: v1,
                    defined: f1,
                    id: i1,
                    bytes: n1,
                    volatile: x1,
                },
                EvKind::Mem {
                    label: l2,
                    space: s2,
                    write: w2,
                    addr: d2,
                    value: v2,
                    defined: f2,
                    id: i2,
                    bytes: n2,
                    volatile: x2,
                },
            ) => {
                let same_name = match (i1, i2) {
                    (Some((o1, _)), Some((o2, _))) => o1 == o2,
                    (None, None) => true,
                    _ => false,
                };
                if x1 != x2 {
                    let v = |x: &bool| if *x { "volatile " } else { "" };
                    return Err(format!(
                        "{}`{l1}` in the reference against {}`{l2}` in the target",
                        v(x1),
                        v(x2)
                    ));
                }
                if l1 != l2
                    || s1 != s2
                    || w1 != w2
                    || n1 != n2
                    || !same_name
                    || v1.is_some() != v2.is_some()
                {
                    return Err(format!(
                        "`{l1}` in the reference against `{l2}` in the target"
                    ));
                }
                eqs.push(d1.eq(d2));
                if let (Some(u), Some(v)) = (v1, v2) {
                    eqs.push(refined(f1.clone(), f2.clone(), u, v));
                }
                if let (Some((_, k1)), Some((_, k2))) = (i1, i2) {
                    eqs.push(k1.eq(k2));
                }
            }
            (EvKind::Conv { label, .. }, EvKind::Mem { label: m, .. })
            | (EvKind::Mem { label: m, .. }, EvKind::Conv { label, .. }) => {
                return Err(format!(
                    "a convergent operation `{label}` against a memory access `{m}`"
                ));
            }
        }
    }
    Ok(match eqs.as_slice() {
        [] => Bool::from_bool(true),
        _ => Bool::and(&eqs),
    })
}

/// An observed value of the target (`v`, defined where `dt`) that the
/// reference's (`u`, defined where `dr`) allows: LangRef's refinement
/// (DESIGN.md 2.7): anything where the reference's is poison, else a
/// defined equal value. `None`: a value that cannot be poison.
fn refined(dr: Option<Bool>, dt: Option<Bool>, u: &BV, v: &BV) -> Bool {
    let eq = u.eq(v);
    match (dr, dt) {
        (None, None) => eq,
        (dr, dt) => {
            let target = match dt {
                Some(d) => Bool::and(&[d, eq]),
                None => eq,
            };
            match dr {
                Some(d) => d.implies(target),
                None => target,
            }
        }
    }
}

/// Hazards (DESIGN.md 2.6, 2.7 property 3): every byte-addressed load the
/// target makes in a step reads bytes that the reference accesses (loads
/// or stores, same space, same address, at least as wide) in the same
/// step, under the same conditions. Such a load is no event (`exec`), so
/// without this a target could read a location another thread writes
/// where the reference never reads it: a race the reference does not
/// have. With it, and with the stores equal (they are events), every race
/// of a target run is one of the related reference run: the simulation
/// is sought only where no function passes a barrier (one phase), so the
/// order of accesses within the run does not matter, only which bytes
/// each thread accesses. A step in which the target does not move reads
/// nothing of it; one in which only the target moves is covered by
/// nothing (the reference's loads of the segment it will run again are
/// not counted: a lost proof, never a wrong one).
pub(crate) fn loads_covered(step: Step, r: &Path, t: &Path) -> Bool {
    // Both return: both ran their last segment.
    let last = step == Step::Ret;
    if !(step.tgt_moves() || last) {
        return Bool::from_bool(true);
    }
    let refs: &[Acc] = if step.ref_moves() || last {
        &r.acc
    } else {
        &[]
    };
    let mut parts = Vec::new();
    for a in t.acc.iter().filter(|a| !a.write) {
        let cover: Vec<Bool> = refs
            .iter()
            // An element (`bytes` 0) is covered by an access of that
            // element, never by a byte-addressed one, nor bytes by it.
            .filter(|b| {
                b.space == a.space && (b.bytes == 0) == (a.bytes == 0) && b.bytes >= a.bytes
            })
            .map(|b| {
                let mut c = vec![b.addr.eq(&a.addr)];
                c.extend(b.guard.clone());
                Bool::and(&c)
            })
            .collect();
        let covered = or_all(cover);
        parts.push(match &a.guard {
            None => covered,
            Some(g) => g.implies(&covered),
        });
    }
    match parts.as_slice() {
        [] => Bool::from_bool(true),
        _ => Bool::and(&parts),
    }
}

/// The two memories after a step are equal (`super::memory`): the bytes
/// written, the epoch and the bytes' epochs, what lets the node it leads
/// to hold one memory for both programs. True where the runs end or the
/// reference is undefined.
pub(crate) fn memories_equal(step: Step, post: &[TState; 2]) -> Bool {
    match step {
        Step::Ret | Step::Vacuous => Bool::from_bool(true),
        _ => Bool::and(&[
            super::memory::equal(&post[0].mem, &post[1].mem),
            post[0].calls.eq(&post[1].calls),
            super::memory::equal(&post[0].gens, &post[1].gens),
        ]),
    }
}

/// No oracle counter wrapped around in a step: every post-state count is
/// at least its pre-state count. The engine's counts are 64-bit and taken
/// to stay below `2^64` (a thread reads no oracle `2^64` times; the same
/// assumption as the cycle counts', `atoms::Atom::exact`): a step adds 0 or
/// 1 per read, so without a wrap the count grows. Assumed (never checked)
/// by the search's weakening and the re-check's closure, so that a pending
/// load read before the current count (`atoms::Atom::PendBefore`) stays
/// apart from the loads read after it.
pub(crate) fn counts_grow(pre: [&TState; 2], post: &[TState; 2]) -> Bool {
    let mut parts = Vec::new();
    for w in 0..2 {
        for (a, b) in pre[w].cnt.iter().zip(&post[w].cnt) {
            if a != b {
                parts.push(b.bvuge(a));
            }
        }
    }
    match parts.as_slice() {
        [] => Bool::from_bool(true),
        _ => Bool::and(&parts),
    }
}

fn or_all(parts: Vec<Bool>) -> Bool {
    match parts.as_slice() {
        [] => Bool::from_bool(false),
        [one] => one.clone(),
        _ => Bool::or(&parts),
    }
}

/// The used loads of a step settled: the obligation, and the post-states
/// with the *owed* flags of the loads one program used first.
///
/// A load `u` (an oracle evaluation `(o, k)`) that one program uses in the
/// step, unless that program owed it (the other used it first), must be
/// used by the other program in the same step or be pending there at the
/// end of the step, which then owes it. A lost load (an owed one assigned
/// over, or pending at the end of the run) breaks the obligation. So every
/// load is used in both programs or in neither: the observable sequences,
/// which list exactly the used loads, agree.
pub(crate) fn settle(step: Step, r: &Path, t: &Path, pre: [&TState; 2]) -> (Bool, [TState; 2]) {
    let mut post = [
        if step.ref_moves() {
            r.post.clone()
        } else {
            pre[0].clone()
        },
        if step.tgt_moves() {
            t.post.clone()
        } else {
            pre[1].clone()
        },
    ];
    let none: [Used; 0] = [];
    let used: [&[Used]; 2] = [
        if step.ref_moves() { &r.used } else { &none },
        if step.tgt_moves() { &t.used } else { &none },
    ];
    let mut parts = Vec::new();
    for (w, p) in [(0, r), (1, t)] {
        let moves = if w == 0 {
            step.ref_moves()
        } else {
            step.tgt_moves()
        };
        if moves {
            parts.extend(p.lost.iter().map(|l| l.not()));
        }
    }
    for w in 0..2 {
        let other = 1 - w;
        for u in used[w] {
            let there = or_all(
                used[other]
                    .iter()
                    .map(|v| Bool::and(&[v.guard.clone(), v.o.eq(&u.o), v.k.eq(&u.k)]))
                    .collect(),
            );
            let fresh = Bool::and(&[u.guard.clone(), u.owed.not(), there.not()]);
            let mut pending = Vec::new();
            for q in post[other].pend.values_mut() {
                let c = Bool::and(&[q.on.clone(), q.o.eq(&u.o), q.k.eq(&u.k)]);
                pending.push(c.clone());
                q.owed = Bool::or(&[q.owed.clone(), Bool::and(&[fresh.clone(), c])]);
            }
            parts.push(fresh.implies(or_all(pending)));
        }
    }
    let obligation = match parts.as_slice() {
        [] => Bool::from_bool(true),
        _ => Bool::and(&parts),
    };
    (obligation, post)
}

/// Where the target's path ends in `unreachable` and the reference's in an
/// event or at a cycle header: the condition that the reference's *next*
/// segment, from where `r` ends and in the state it leaves, is defined
/// (the disjunction of its paths that do not end in `unreachable`);
/// `None` otherwise. A pair whose guards contradict it is one where the
/// reference's run has undefined behaviour as well (in its next segment),
/// which constrains nothing (DESIGN.md 2.7): the target's undefined
/// behaviour there is no difference. This is the side condition of the
/// target's `ub` blocks, among them the accesses through pointers of
/// unknown origin (`convcheck-llvm`'s `to_ir/bounds.rs`): a target that
/// accesses `p` earlier than the reference, which accesses it first thing
/// after a cycle header or an event (an unswitched loop's copy), is as
/// defined as the reference. `segment` runs the reference's segment from
/// a location and a state; a segment it cannot run is no argument (`None`).
pub(crate) fn next_defined(
    r: &Path,
    t: &Path,
    segment: impl FnOnce(Loc, super::exec::TState) -> Option<Vec<Path>>,
) -> Option<Bool> {
    if t.end != End::Unreachable {
        return None;
    }
    let (End::Event(at) | End::Cut(at)) = r.end else {
        return None;
    };
    let next = segment(at, r.post.clone())?;
    let defined: Vec<Bool> = next
        .iter()
        .filter(|p| p.end != End::Unreachable)
        .map(Path::guard)
        .collect();
    Some(match defined.as_slice() {
        [] => Bool::from_bool(false),
        [one] => one.clone(),
        _ => Bool::or(&defined),
    })
}
