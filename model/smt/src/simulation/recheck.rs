//! The re-check of a simulation relation (its certificate), apart from the
//! search that found it: fresh symbols, a fresh solver per query, no
//! candidate guessed or dropped. A relation is a list of nodes, each a pair
//! of locations and an invariant (a conjunction of atoms); it proves the
//! target refines the reference iff every condition below holds.
//!
//! 1. **Start.** The launch node (both entries, the launch states) is in
//!    the relation.
//! 2. **Non-vacuity.** Every node's invariant is satisfiable.
//! 3. **Closure.** From every node, for every pair of segment paths
//!    feasible under its invariant: the pair is not a difference
//!    ([`super::obligations::classify`]); its events are equal and it
//!    records the same used loads; the locations it reaches form a node
//!    of the relation whose invariant holds of the post-states. Each pair
//!    is one query: invariant, guards and the negated obligation must be
//!    unsatisfiable.
//! 4. **Progress.** Every cycle of the product's edges moves both
//!    programs: the edges where only the reference moves, and those where
//!    only the target moves, form no cycle. So a run of the reference that
//!    ends is matched by a run of the target that ends with the same
//!    events (the product's run cannot stutter forever), and a run that
//!    does not end is matched event for event.
//! 5. **Convergence** (DESIGN.md 2.3, 2.7 property 2). Two instances of a
//!    convergent operation in two threads are converged iff they are
//!    instances of the same site (block, instruction, operation) with the
//!    same cycle counts (`product::unroll`: copies are keys). Every pair
//!    of paired convergent events is an *occurrence*: its sites in both
//!    programs, its cycle counts in both, and the condition under which
//!    it happens. For every two occurrences of one label, taken in two
//!    independent copies of the symbols (two threads, each in a state of
//!    its node's invariant, with its own oracle streams, id and group
//!    size): equal reference keys iff equal target keys. Since the
//!    product pairs each thread's `k`-th instance of a label in both
//!    programs, matched instances are then converged in the target iff
//!    they are in the reference. Hazards follow from events and
//!    convergence (`product::support`).

use super::atoms::Atom;
use super::exec::{Ev, Exec, Shared, Site, Thread};
use super::obligations::{
    classify, compared, counts_grow, events_equal, loads_covered, memories_equal, next_defined,
    settle, Step,
};
use super::search::{node_state, satisfies, trivially_true};
use super::side::{Loc, Side};
use super::solve::{Work, Z3};
use super::{Fail, SimOptions};
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;
use z3::ast::{Ast, Bool, Dynamic, BV};

/// One node of a relation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelNode {
    /// The launch node (both entries, before anything ran).
    pub init: bool,
    /// The reference's and the target's locations.
    pub loc: [Loc; 2],
    /// The invariant.
    pub atoms: Vec<Atom>,
    /// Per program, the pending loads (block, instruction) that its
    /// segments from here treat as unobservable; the used-load obligations
    /// check that they are never used.
    pub silent: [BTreeSet<(usize, usize)>; 2],
    /// Whether its segments are long ones (`exec::Exec::long`).
    pub long: bool,
    /// Whether its segments take byte-addressed loads as accesses only,
    /// not events (`exec::Exec::accesses`).
    pub accesses: bool,
}

/// Which conditions the re-check checks: all of them, except in the
/// theorem tests' mutants (`proofs/tests/simulation.rs`), which turn one
/// off at a time and show that what it keeps out is then proved wrongly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conditions {
    /// 1: the launch node is in the relation.
    pub launch: bool,
    /// 2: every node's invariant is satisfiable.
    pub vacuity: bool,
    /// 3: the pairs of paths are not differences and their events are
    /// equal.
    pub events: bool,
    /// 3: the used loads are settled.
    pub used: bool,
    /// 3: the invariants are carried over.
    pub invariants: bool,
    /// 4: every cycle of the product moves both programs.
    pub progress: bool,
    /// 5: matched convergent instances are converged alike.
    pub convergence: bool,
    /// 3: after every step the two programs' memories are equal (what
    /// lets every node hold one memory for both; `memory`).
    pub memory: bool,
    /// 3: every byte-addressed load of the target reads bytes that the
    /// reference accesses in the same step (hazards;
    /// `obligations::loads_covered`).
    pub loads: bool,
}

impl Default for Conditions {
    fn default() -> Conditions {
        Conditions {
            launch: true,
            vacuity: true,
            events: true,
            used: true,
            invariants: true,
            progress: true,
            convergence: true,
            memory: true,
            loads: true,
        }
    }
}

/// What the re-check counted.
#[derive(Clone, Debug, Default)]
pub(crate) struct Checked {
    pub edges: usize,
    pub vacuous: usize,
    /// Paired convergent sites: reference, target.
    pub sites: Vec<(Site, Site)>,
    pub queries: usize,
    /// Queries answered without z3's search (`Z3::saved`).
    pub saved: usize,
    pub occurrences: usize,
}

struct Occurrence {
    node: usize,
    label: String,
    site: [Site; 2],
    cyc: [Vec<BV>; 2],
    ctx: Bool,
}

fn all(parts: Vec<Bool>) -> Bool {
    match parts.as_slice() {
        [] => Bool::from_bool(true),
        _ => Bool::and(&parts),
    }
}

fn eq_all(a: &[BV], b: &[BV]) -> Bool {
    all(a.iter().zip(b).map(|(x, y)| x.eq(y)).collect())
}

fn label_of(e: &Ev) -> &str {
    match &e.kind {
        super::exec::EvKind::Conv { label, .. } | super::exec::EvKind::Mem { label, .. } => label,
    }
}

/// A cycle of the edges `(from, to)`, if they have one (its nodes).
fn cycle(n: usize, edges: &[(usize, usize)]) -> Option<Vec<usize>> {
    let mut succ = vec![Vec::new(); n];
    for &(a, b) in edges {
        succ[a].push(b);
    }
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    for s in 0..n {
        if state[s] != 0 {
            continue;
        }
        let mut stack = vec![(s, 0usize)];
        state[s] = 1;
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if let Some(&w) = succ[v].get(i) {
                top.1 += 1;
                match state[w] {
                    1 => {
                        let from = stack.iter().position(|e| e.0 == w).unwrap_or(0);
                        return Some(stack[from..].iter().map(|e| e.0).collect());
                    }
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    None
}

/// Checks `rel` (see the module documentation).
pub(crate) fn recheck(
    sides: [&Side; 2],
    sh: &Shared,
    rel: &[RelNode],
    opts: &SimOptions,
    deadline: Instant,
    work: Work,
    on: Conditions,
) -> Result<Checked, Fail> {
    let thr = Thread::new(0);
    let names = sh.names.len();
    let none = BTreeSet::new();
    let exec = |w: usize, silent: &BTreeSet<(usize, usize)>, long: bool, accesses: bool| Exec {
        side: sides[w],
        sh,
        thr: &thr,
        max_paths: opts.max_paths,
        silent: silent.clone(),
        long,
        accesses,
    };
    let mut out = Checked::default();
    // A solver of its own, apart from the search's.
    let mut z3 = Z3::new(deadline, work);
    let not_found = |s: String| Fail::NotFound(format!("re-check: {s}"));
    // 1. The launch node.
    let index: HashMap<(bool, Loc, Loc), usize> = rel
        .iter()
        .enumerate()
        .map(|(i, n)| ((n.init, n.loc[0], n.loc[1]), i))
        .collect();
    let entry = [sides[0].entry(), sides[1].entry()];
    if on.launch && !index.contains_key(&(true, entry[0], entry[1])) {
        return Err(not_found("the relation has no launch node".into()));
    }
    // Fresh states.
    let mut states = Vec::new();
    let mut consts: Vec<Vec<Dynamic>> = Vec::new();
    for (i, n) in rel.iter().enumerate() {
        if n.init {
            let r = exec(0, &none, false, false)
                .launch(names)
                .map_err(Fail::NotFound)?;
            let t = exec(1, &none, false, false)
                .launch(names)
                .map_err(Fail::NotFound)?;
            states.push([r, t]);
            consts.push(Vec::new());
        } else {
            let (s, c) = node_state(&format!("c{i}"), sides, n.loc, names, sh.clobbers);
            states.push(s);
            consts.push(c);
        }
    }
    let inv = |i: usize, s: [&super::exec::TState; 2]| -> Result<Bool, Fail> {
        let mut parts = Vec::new();
        for a in &rel[i].atoms {
            parts.push(a.holds(s).ok_or_else(|| {
                not_found(format!(
                    "the invariant of node {i} names what its state lacks: {a}"
                ))
            })?);
        }
        Ok(all(parts))
    };
    let mut moves: Vec<(usize, usize, Step)> = Vec::new();
    let mut occs: Vec<Occurrence> = Vec::new();
    for (i, n) in rel.iter().enumerate() {
        let s = [&states[i][0], &states[i][1]];
        let ctx = inv(i, s)?;
        let exact = all(n.atoms.iter().filter_map(|a| a.exact(s)).collect());
        // Models of the node's invariant found so far: a pair of paths one
        // of them runs along is feasible (the model is the witness)
        // without a query.
        let mut models: Vec<z3::Model> = Vec::new();
        // 2. Non-vacuity.
        if on.vacuity {
            match z3.sat(&[&ctx], "a node's invariant")? {
                None => {
                    return Err(not_found(format!(
                        "the invariant of node {i} is unsatisfiable"
                    )))
                }
                Some(m) => models.push(m),
            }
        }
        // 3. Closure.
        let pr = exec(0, &n.silent[0], n.long, n.accesses)
            .segment(n.loc[0], states[i][0].clone())
            .map_err(Fail::NotFound)?;
        let pt = exec(1, &n.silent[1], n.long, n.accesses)
            .segment(n.loc[1], states[i][1].clone())
            .map_err(Fail::NotFound)?;
        for r in &pr {
            for t in &pt {
                let guards = all(vec![r.guard(), t.guard()]);
                if models.iter().rev().take(8).any(|m| satisfies(m, &guards)) {
                    z3.saved += 1;
                } else {
                    match z3.sat(&[&ctx, &guards], "a pair of paths")? {
                        None => continue,
                        Some(m) => models.push(m),
                    }
                }
                // The target's `ub` path where the reference's next
                // segment cannot be defined: vacuous
                // (`obligations::next_defined`).
                let next = next_defined(r, t, |loc, st| {
                    exec(0, &BTreeSet::new(), n.long, n.accesses)
                        .segment(loc, st)
                        .ok()
                });
                if let Some(d) = next {
                    let why = "the reference's next segment";
                    if z3.sat(&[&ctx, &guards, &d], why)?.is_none() {
                        out.vacuous += 1;
                        continue;
                    }
                }
                let (step, to) = match classify(n.loc, r, t) {
                    Ok(c) => c,
                    Err(_) if !on.events => continue,
                    Err(e) => {
                        return Err(not_found(format!(
                            "{e} (reference at {}, target at {})",
                            sides[0].describe(n.loc[0]),
                            sides[1].describe(n.loc[1])
                        )))
                    }
                };
                if step == Step::Vacuous {
                    out.vacuous += 1;
                }
                let (er, et) = compared(step, r, t);
                let (used, post) = settle(step, r, t, [&states[i][0], &states[i][1]]);
                let events = match events_equal(er, et) {
                    Ok(e) if on.events => e,
                    Ok(_) | Err(_) if !on.events => Bool::from_bool(true),
                    Ok(e) => e,
                    Err(e) => return Err(not_found(e)),
                };
                let used = if on.used { used } else { Bool::from_bool(true) };
                let mut obligation = vec![events, used];
                let mut names: Vec<String> = vec!["equal events".into(), "equal used loads".into()];
                if on.memory && sh.memory_state() {
                    obligation.push(memories_equal(step, &post));
                    names.push("equal memories".into());
                }
                if on.loads && sh.races {
                    obligation.push(loads_covered(step, r, t));
                    names.push("the target's loads read what the reference accesses".into());
                }
                if let Some(locs) = to {
                    let Some(&j) = index.get(&(false, locs[0], locs[1])) else {
                        return Err(not_found(format!(
                            "node {i} steps to {} / {}, which is not in the relation",
                            sides[0].describe(locs[0]),
                            sides[1].describe(locs[1])
                        )));
                    };
                    let (post_r, post_t) = (&post[0], &post[1]);
                    for a in rel[j].atoms.iter().filter(|_| on.invariants) {
                        obligation.push(a.holds([post_r, post_t]).ok_or_else(|| {
                            not_found(format!(
                                "the invariant of node {j} names what its state lacks: {a}"
                            ))
                        })?);
                        names.push(format!("the invariant `{a}` of node {j}"));
                    }
                    moves.push((i, j, step));
                }
                // An obligation true by z3's rewriting alone (equivalence-
                // preserving) needs no query.
                let whole = all(obligation.clone());
                let differs = if trivially_true(&whole) {
                    z3.saved += 1;
                    None
                } else {
                    let grow = counts_grow([&states[i][0], &states[i][1]], &post);
                    z3.sat(&[&ctx, &guards, &grow, &whole.not()], "a step")?
                };
                if let Some(m) = differs {
                    // The first part the model falsifies, else the first
                    // it does not evaluate to true (the equality of two
                    // memories after clobbers, lambda terms, may not
                    // evaluate to a constant).
                    let value = |o: &Bool| m.eval(o, true).and_then(|v| v.as_bool());
                    let broken = obligation
                        .iter()
                        .zip(&names)
                        .find(|(o, _)| value(o) == Some(false))
                        .or_else(|| {
                            obligation
                                .iter()
                                .zip(&names)
                                .find(|(o, _)| value(o) != Some(true))
                        })
                        .map_or("?", |(_, n)| n.as_str());
                    return Err(not_found(format!(
                        "a step from node {i} ({} / {}) breaks {broken}",
                        sides[0].describe(n.loc[0]),
                        sides[1].describe(n.loc[1])
                    )));
                }
                out.edges += 1;
                for (a, b) in er.iter().zip(et) {
                    if a.convergent() {
                        occs.push(Occurrence {
                            node: i,
                            label: label_of(a).to_string(),
                            site: [a.site, b.site],
                            cyc: [a.cyc.clone(), b.cyc.clone()],
                            ctx: all(vec![ctx.clone(), guards.clone(), exact.clone()]),
                        });
                    }
                }
            }
        }
    }
    // 4. Progress.
    let only = |f: fn(Step) -> bool| -> Vec<(usize, usize)> {
        moves
            .iter()
            .filter(|m| f(m.2))
            .map(|m| (m.0, m.1))
            .collect()
    };
    let show = |c: Vec<usize>| -> String {
        c.iter()
            .map(|&i| {
                format!(
                    "{} / {}",
                    sides[0].describe(rel[i].loc[0]),
                    sides[1].describe(rel[i].loc[1])
                )
            })
            .collect::<Vec<_>>()
            .join(" -> ")
    };
    if let Some(c) = cycle(rel.len(), &only(|s| s == Step::RefOnly)).filter(|_| on.progress) {
        return Err(not_found(format!(
            "the reference may run forever while the target waits (a cycle of reference-only steps: {})",
            show(c)
        )));
    }
    if let Some(c) = cycle(rel.len(), &only(|s| s == Step::TgtOnly)).filter(|_| on.progress) {
        return Err(not_found(format!(
            "the target may run forever while the reference waits (a cycle of target-only steps: {})",
            show(c)
        )));
    }
    // 5. Convergence.
    out.occurrences = occs.len();
    let thread_syms = |t: &Thread| -> Vec<Dynamic> {
        vec![
            Dynamic::from_ast(&t.th),
            Dynamic::from_ast(&t.tid),
            Dynamic::from_ast(&t.n),
        ]
    };
    let copy = |o: &Occurrence, k: usize| -> (Bool, [Vec<BV>; 2]) {
        let mut from = consts[o.node].clone();
        from.extend(thread_syms(&thr));
        let to: Vec<Dynamic> = from
            .iter()
            .map(|d| {
                let name = d.decl().name();
                Dynamic::new_const(format!("{name}@{k}"), &d.get_sort())
            })
            .collect();
        let pairs: Vec<(&Dynamic, &Dynamic)> = from.iter().zip(&to).collect();
        let sub = |b: &BV| b.substitute(&pairs);
        (
            o.ctx.substitute(&pairs),
            [
                o.cyc[0].iter().map(sub).collect(),
                o.cyc[1].iter().map(sub).collect(),
            ],
        )
    };
    let copies: Vec<[(Bool, [Vec<BV>; 2]); 2]> =
        occs.iter().map(|o| [copy(o, 1), copy(o, 2)]).collect();
    for a in (0..occs.len()).filter(|_| on.convergence) {
        for b in a..occs.len() {
            let (x, y) = (&occs[a], &occs[b]);
            if x.label != y.label {
                continue;
            }
            let same = [x.site[0] == y.site[0], x.site[1] == y.site[1]];
            if !same[0] && !same[1] {
                continue;
            }
            let (c1, k1) = &copies[a][0];
            let (c2, k2) = &copies[b][1];
            let eq = [eq_all(&k1[0], &k2[0]), eq_all(&k1[1], &k2[1])];
            let differ = match same {
                [true, true] => eq[0].eq(&eq[1]).not(),
                [true, false] => eq[0].clone(),
                _ => eq[1].clone(),
            };
            if z3.sat(&[c1, c2, &differ], "convergence")?.is_some() {
                return Err(not_found(format!(
                    "convergence: two threads' instances of `{}` ({} and {} in the reference, {} and {} in the target) may be converged in one program and not in the other",
                    x.label,
                    sides[0].block_name(x.site[0].block),
                    sides[0].block_name(y.site[0].block),
                    sides[1].block_name(x.site[1].block),
                    sides[1].block_name(y.site[1].block),
                )));
            }
        }
    }
    let mut sites: Vec<(Site, Site)> = occs.iter().map(|o| (o.site[0], o.site[1])).collect();
    sites.sort();
    sites.dedup();
    out.sites = sites;
    out.queries = z3.queries;
    out.saved = z3.saved;
    Ok(out)
}
