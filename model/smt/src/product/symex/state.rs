//! A symbolic thread's state at one point of the unrolled program (its
//! guard, locals, oracle counters, event positions, barrier phase and store
//! log) and how states merge where paths join: every value an
//! if-then-else over the edge guards, which exclude each other.

use super::super::bv::{c64, choose, or_all};
use super::memory;
use std::collections::BTreeMap;
use z3::ast::{Bool, BV};

#[derive(Clone)]
pub(super) struct State {
    pub guard: Bool,
    pub locals: BTreeMap<String, BV>,
    pub counts: Vec<BV>,
    pub pos: BV,
    /// The position in the second projection (`super::Exec::event`):
    /// constant where there is none.
    pub pos2: BV,
    /// The visible positions (`super::event`): `pos` and `pos2` without
    /// the hidden events.
    pub vis: BV,
    pub vis2: BV,
    /// The segment of plain stores (`super::event`): synchronisation
    /// points passed.
    pub seg: BV,
    /// The barrier phase: barriers passed.
    pub phase: BV,
    /// The bytes stored so far (`memory`).
    pub log: memory::Log,
    /// The calls that may write memory so far (clobbers whose value is
    /// not 0), which name what a clobber leaves (`memory`).
    pub calls: BV,
}

/// Merges states reaching one point; each state's guard is its edge's.
pub(super) fn merge(states: Vec<State>, w: u32) -> State {
    if states.len() <= 1 {
        return states
            .into_iter()
            .next()
            .unwrap_or_else(|| unreachable_state(w, 0));
    }
    let guards: Vec<Bool> = states.iter().map(|s| s.guard.clone()).collect();
    let mut names: Vec<&String> = states.iter().flat_map(|s| s.locals.keys()).collect();
    names.sort();
    names.dedup();
    let mut locals = BTreeMap::new();
    for n in names {
        let vals: Vec<BV> = states
            .iter()
            .map(|s| s.locals.get(n).cloned().unwrap_or_else(|| c64(0)))
            .collect();
        locals.insert(n.clone(), choose(&guards, &vals));
    }
    let counts = (0..states[0].counts.len())
        .map(|i| {
            let vals: Vec<BV> = states.iter().map(|s| s.counts[i].clone()).collect();
            choose(&guards, &vals)
        })
        .collect();
    // One field of every state, chosen by the guards.
    let pick = |field: fn(&State) -> &BV| {
        choose(
            &guards,
            &states.iter().map(|s| field(s).clone()).collect::<Vec<_>>(),
        )
    };
    let pos = pick(|s| &s.pos);
    let pos2 = pick(|s| &s.pos2);
    let vis = pick(|s| &s.vis);
    let vis2 = pick(|s| &s.vis2);
    let seg = pick(|s| &s.seg);
    let phase = pick(|s| &s.phase);
    let log = memory::union(&states.iter().map(|s| &s.log).collect::<Vec<_>>());
    let calls = pick(|s| &s.calls);
    State {
        guard: or_all(&guards),
        locals,
        counts,
        pos,
        pos2,
        vis,
        vis2,
        seg,
        phase,
        log,
        calls,
    }
}

/// A state no path reaches (the merge of nothing).
pub(super) fn unreachable_state(w: u32, names: usize) -> State {
    State {
        guard: Bool::from_bool(false),
        locals: BTreeMap::new(),
        counts: vec![BV::from_u64(0, w); names],
        pos: BV::from_u64(0, w),
        pos2: BV::from_u64(0, w),
        vis: BV::from_u64(0, w),
        vis2: BV::from_u64(0, w),
        seg: BV::from_u64(0, w),
        phase: BV::from_u64(0, w),
        log: Default::default(),
        calls: BV::from_u64(0, w),
    }
}

/// `if cond then a else b`, field by field.
pub(super) fn merge2(cond: &Bool, a: State, b: State) -> State {
    let pick = |x: &BV, y: &BV| if x == y { x.clone() } else { cond.ite(x, y) };
    let mut names: Vec<&String> = a.locals.keys().chain(b.locals.keys()).collect();
    names.sort();
    names.dedup();
    let zero = c64(0);
    let locals = names
        .into_iter()
        .map(|n| {
            let x = a.locals.get(n).unwrap_or(&zero);
            let y = b.locals.get(n).unwrap_or(&zero);
            (n.clone(), pick(x, y))
        })
        .collect();
    State {
        guard: cond.ite(&a.guard, &b.guard),
        locals,
        counts: a
            .counts
            .iter()
            .zip(&b.counts)
            .map(|(x, y)| pick(x, y))
            .collect(),
        pos: pick(&a.pos, &b.pos),
        pos2: pick(&a.pos2, &b.pos2),
        vis: pick(&a.vis, &b.vis),
        vis2: pick(&a.vis2, &b.vis2),
        seg: pick(&a.seg, &b.seg),
        phase: pick(&a.phase, &b.phase),
        log: memory::union(&[&a.log, &b.log]),
        calls: pick(&a.calls, &b.calls),
    }
}
