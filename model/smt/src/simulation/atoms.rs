//! The invariants a simulation relation may hold at a pair of program
//! points: conjunctions of *atoms* from a fixed vocabulary, found by
//! Houdini's elimination (every candidate that some edge does not carry
//! over is dropped until the rest are inductive).
//!
//! The vocabulary covers what passes keep equal or in step: a reference
//! local equal to a target local (renamed, recomputed, merged by phis), a
//! local equal to a constant or zero or non-zero (the path condition of a
//! duplicated block: an unswitched condition), the oracle counters of the
//! two programs in step (`cnt_r - cnt_t = d`, so both read the same
//! values), the cycle counts of the two programs in step (`cyc_r = cyc_t +
//! d`, the key of a convergent operation) or constant (an unrolled
//! iteration), the pending loads of the two programs the same (the
//! same oracle evaluation, or none), and the branch conditions of the path
//! that first reached a pair, restated over the locals they read when
//! those locals have not changed since, and over uniform-invariant oracles,
//! which never change ([`Pred`]: the condition a block
//! was duplicated under, as unswitching and jump threading do; `br i1 %c`
//! reads `zext1(c)`, which a plain `c != 0` would not state).

use super::exec::{Pend, TState, Thread};
use super::side::{Loc, Side};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use z3::ast::{Ast, Bool, Dynamic, BV};

/// A condition over the locals of a pair of states: a formula over
/// placeholder constants, one per `(program, local)` it reads.
#[derive(Clone, Debug)]
pub struct Pred {
    f: Bool,
    vars: Vec<(Which, String)>,
    text: String,
}

impl PartialEq for Pred {
    fn eq(&self, o: &Pred) -> bool {
        self.text == o.text
    }
}
impl Eq for Pred {}
impl PartialOrd for Pred {
    fn partial_cmp(&self, o: &Pred) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Pred {
    fn cmp(&self, o: &Pred) -> Ordering {
        self.text.cmp(&o.text)
    }
}
impl Hash for Pred {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.text.hash(h)
    }
}

fn placeholder(w: Which, x: &str) -> BV {
    BV::new_const(format!("{}.%{x}", side_name(w)), 64)
}

/// Which program: 0 the reference, 1 the target.
pub(crate) type Which = usize;

/// One candidate fact about a pair of states.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// The reference's local equals the target's.
    VarEq(String, String),
    /// A local equals a constant.
    VarConst(Which, String, i64),
    /// A local is zero (`true`) or non-zero (`false`).
    VarZero(Which, String, bool),
    /// `cnt_r[o] - cnt_t[o] = d` for oracle name `o`.
    CntDiff(usize, i64),
    /// `cyc_r[r] = cyc_t[t] + d`.
    CycAff(usize, usize, i64),
    /// A cycle count equals a constant.
    CycConst(Which, usize, i64),
    /// Both have a pending load on these locals, of the same evaluation,
    /// or neither has.
    PendEq(String, String),
    /// No pending load on this local.
    PendOff(Which, String),
    /// This local's pending load is not owed (`exec::Pend::owed`).
    OwedOff(Which, String),
    /// This local's pending load is owed iff there is one.
    OwedPend(Which, String),
    /// This local's pending load, if any, is not silent.
    SilentOff(Which, String),
    /// This local's pending load, if any, read its oracle (name index)
    /// before the current count: `k < cnt[o]`.
    PendBefore(Which, String, usize),
    /// A branch condition over unchanged locals.
    Pred(Rc<Pred>),
    /// `ref x = tgt y + d` (a loop unrolled by a factor: the reference's
    /// induction variable runs ahead of the target's inside an unrolled
    /// iteration).
    VarAff(String, String, i64),
    /// `x mod m = r` for a power of two `m` (the induction variable of a
    /// loop unrolled `m` times, and a trip count it divides).
    VarMod(Which, String, u64, u64),
    /// `cyc_r[r] = m * cyc_t[t] + d`, `0 <= -d < m` (the reference's
    /// iteration `m * i + j` is the target's iteration `i`, copy `j`).
    CycMul(usize, usize, i64, i64),
    /// `x <u c` (an induction variable below a constant trip count).
    VarUlt(Which, String, i64),
    /// The low bit of a local is 1 (`true`) or 0 (`false`): an `i1`
    /// branched on (`br i1 %c` reads `zext1(c)`, which [`Atom::VarZero`]
    /// does not state: the local's upper bits are free), the condition a
    /// loop was unswitched under where the relation pairs the unswitched
    /// copy with the reference's loop.
    VarBit(Which, String, bool),
    /// Two locals of one program do not hold the same pending load (one
    /// oracle evaluation): what lets a use of one leave the other's owed
    /// flag alone (`obligations::settle` matches pending loads by
    /// evaluation).
    PendApart(Which, String, String),
}

fn side_name(w: Which) -> &'static str {
    if w == 0 {
        "ref"
    } else {
        "tgt"
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::VarEq(x, y) => write!(f, "ref %{x} = tgt %{y}"),
            Atom::VarConst(w, x, c) => write!(f, "{} %{x} = {c}", side_name(*w)),
            Atom::VarZero(w, x, true) => write!(f, "{} %{x} = 0", side_name(*w)),
            Atom::VarZero(w, x, false) => write!(f, "{} %{x} != 0", side_name(*w)),
            Atom::CntDiff(o, 0) => write!(f, "reads of oracle #{o} in step"),
            Atom::CntDiff(o, d) => write!(f, "reads of oracle #{o}: ref = tgt + {d}"),
            Atom::CycAff(r, t, 0) => write!(f, "ref cycle count {r} = tgt cycle count {t}"),
            Atom::CycAff(r, t, d) => {
                write!(f, "ref cycle count {r} = tgt cycle count {t} + {d}")
            }
            Atom::CycConst(w, i, c) => write!(f, "{} cycle count {i} = {c}", side_name(*w)),
            Atom::PendEq(x, y) => write!(f, "pending loads of ref %{x} and tgt %{y} equal"),
            Atom::PendOff(w, x) => write!(f, "no pending load on {} %{x}", side_name(*w)),
            Atom::OwedOff(w, x) => write!(f, "{} %{x} owes no load", side_name(*w)),
            Atom::OwedPend(w, x) => {
                write!(f, "{} %{x} owes its pending load, if any", side_name(*w))
            }
            Atom::SilentOff(w, x) => write!(f, "{} %{x} holds no silent load", side_name(*w)),
            Atom::PendBefore(w, x, _) => {
                write!(f, "{} %{x} holds an earlier read, if any", side_name(*w))
            }
            Atom::Pred(p) => f.write_str(&p.text),
            Atom::VarAff(x, y, d) => write!(f, "ref %{x} = tgt %{y} + {d}"),
            Atom::VarMod(w, x, m, r) => write!(f, "{} %{x} mod {m} = {r}", side_name(*w)),
            Atom::CycMul(r, t, m, d) => {
                write!(f, "ref cycle count {r} = {m} * tgt cycle count {t} + {d}")
            }
            Atom::VarUlt(w, x, c) => write!(f, "{} %{x} <u {c}", side_name(*w)),
            Atom::VarBit(w, x, b) => {
                write!(f, "{} %{x} has low bit {}", side_name(*w), u8::from(*b))
            }
            Atom::PendApart(w, x, y) => write!(
                f,
                "{} %{x} and %{y} hold different pending loads, if any",
                side_name(*w)
            ),
        }
    }
}

fn bv64(v: i64) -> BV {
    BV::from_i64(v, 64)
}

fn pend_eq(a: &Pend, b: &Pend) -> Bool {
    let same = Bool::and(&[
        a.o.eq(&b.o),
        a.k.eq(&b.k),
        a.silent.eq(&b.silent),
        a.owed.eq(&b.owed),
    ]);
    Bool::and(&[a.on.eq(&b.on), a.on.implies(&same)])
}

impl Atom {
    /// The atom over a pair of states; `None` when a state lacks what it
    /// names (a local that is not live there).
    pub(crate) fn holds(&self, s: [&TState; 2]) -> Option<Bool> {
        Some(match self {
            Atom::VarEq(x, y) => s[0].vars.get(x)?.eq(s[1].vars.get(y)?),
            Atom::VarConst(w, x, c) => s[*w].vars.get(x)?.eq(bv64(*c)),
            Atom::VarZero(w, x, z) => {
                let e = s[*w].vars.get(x)?.eq(bv64(0));
                if *z {
                    e
                } else {
                    e.not()
                }
            }
            Atom::CntDiff(o, d) => s[0].cnt.get(*o)?.eq(s[1].cnt.get(*o)?.bvadd(bv64(*d))),
            Atom::CycAff(r, t, d) => s[0].cyc.get(*r)?.eq(s[1].cyc.get(*t)?.bvadd(bv64(*d))),
            Atom::CycConst(w, i, c) => s[*w].cyc.get(*i)?.eq(bv64(*c)),
            Atom::PendEq(x, y) => pend_eq(s[0].pend.get(x)?, s[1].pend.get(y)?),
            Atom::PendOff(w, x) => s[*w].pend.get(x)?.on.not(),
            Atom::OwedOff(w, x) => s[*w].pend.get(x)?.owed.not(),
            Atom::OwedPend(w, x) => {
                // Only where there is one: the flag of a load used since is
                // left as it was (`exec::Eval::read_local`) and means
                // nothing (`obligations::settle` reads it with `on`).
                let p = s[*w].pend.get(x)?;
                p.on.implies(&p.owed)
            }
            Atom::SilentOff(w, x) => {
                let p = s[*w].pend.get(x)?;
                p.on.implies(p.silent.not())
            }
            Atom::PendBefore(w, x, o) => {
                let p = s[*w].pend.get(x)?;
                p.on.implies(p.k.bvult(s[*w].cnt.get(*o)?))
            }
            Atom::Pred(p) => {
                let mut pairs = Vec::new();
                for (w, x) in &p.vars {
                    pairs.push((
                        Dynamic::from_ast(&placeholder(*w, x)),
                        Dynamic::from_ast(s[*w].vars.get(x)?),
                    ));
                }
                let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
                p.f.substitute(&refs)
            }
            Atom::VarAff(x, y, d) => s[0].vars.get(x)?.eq(s[1].vars.get(y)?.bvadd(bv64(*d))),
            Atom::VarMod(w, x, m, r) => s[*w]
                .vars
                .get(x)?
                .bvand(bv64(*m as i64 - 1))
                .eq(bv64(*r as i64)),
            Atom::CycMul(r, t, m, d) => {
                s[0].cyc
                    .get(*r)?
                    .eq(s[1].cyc.get(*t)?.bvmul(bv64(*m)).bvadd(bv64(*d)))
            }
            Atom::VarUlt(w, x, c) => s[*w].vars.get(x)?.bvult(bv64(*c)),
            Atom::VarBit(w, x, b) => s[*w]
                .vars
                .get(x)?
                .extract(0, 0)
                .eq(BV::from_u64(u64::from(*b), 1)),
            Atom::PendApart(w, x, y) => {
                let (p, q) = (s[*w].pend.get(x)?, s[*w].pend.get(y)?);
                let same = Bool::and(&[p.o.eq(&q.o), p.k.eq(&q.k)]);
                Bool::and(&[p.on.clone(), q.on.clone()]).implies(same.not())
            }
        })
    }

    /// What the convergence condition may assume besides the atom
    /// (`recheck`, condition 5): for [`Atom::CycMul`], that the target's
    /// count is below `2^64 / m`. Counts are 64-bit throughout the engine
    /// (a count is taken to stay below `2^64`), and the atom holds of the
    /// counts as natural numbers, not only modulo `2^64`: it is set up
    /// with small constants and every step adds 0 or 1 to a count or
    /// restarts it, so the two sides stay within `m` of each other's
    /// multiple; then `m * cyc_t + d = cyc_r < 2^64`.
    pub(crate) fn exact(&self, s: [&TState; 2]) -> Option<Bool> {
        match self {
            Atom::CycMul(_, t, m, _) => {
                let c = s[1].cyc.get(*t)?;
                Some(c.bvult(bv64((u64::MAX / *m as u64) as i64)))
            }
            _ => None,
        }
    }
}

/// The largest constant bound guessed ([`Atom::VarUlt`]).
const MAX_BOUND: i64 = 4096;

/// The bounds guessed for a local that holds a constant: every integer
/// constant `c` of the function in `2..=MAX_BOUND`, as `c` and `c + 1`,
/// the largest two (the trip count; each bound that fails costs a round
/// of weakening).
pub(crate) fn bounds(side: &Side) -> Vec<i64> {
    let mut out = std::collections::BTreeSet::new();
    for b in &side.cfg.blocks {
        for e in b.exprs() {
            e.walk(&mut |x| {
                if let convcheck_ir::Expr::Const(c) = x {
                    if (2..=MAX_BOUND).contains(c) {
                        out.insert(*c);
                        out.insert(*c + 1);
                    }
                }
            });
        }
    }
    out.into_iter().rev().take(2).collect()
}

/// The most locals that can hold a pending load for which
/// [`Atom::PendApart`] is guessed.
const MAX_APART: usize = 8;

/// The most `|d|` of a guessed [`Atom::VarAff`].
const MAX_AFF: i64 = 16;

/// The factors tried for [`Atom::VarMod`] and [`Atom::CycMul`].
const FACTORS: [u64; 3] = [2, 4, 8];

/// The affine candidates of a node first reached from `pre` to `post`
/// under the source's atoms `from`: the reference's pre-state terms
/// rewritten, through the source's equalities, as the target's, so that a
/// post-state difference that is a numeral is a guess (`ref x = tgt y +
/// d`, `cyc_r = m cyc_t + d`), and the residues of locals modulo small
/// powers of two.
fn affine(
    live: [&std::collections::BTreeSet<String>; 2],
    from: &[Atom],
    (pre, post): ([&TState; 2], [&TState; 2]),
    known: &Known,
    bounds: [Vec<i64>; 2],
) -> Vec<Atom> {
    let mut sub: Vec<(BV, BV)> = known.subst[0].clone();
    for a in from {
        let pair = match a {
            Atom::VarEq(x, y) => pre[0]
                .vars
                .get(x)
                .zip(pre[1].vars.get(y))
                .map(|(r, t)| (r.clone(), t.clone())),
            Atom::VarAff(x, y, d) => pre[0]
                .vars
                .get(x)
                .zip(pre[1].vars.get(y))
                .map(|(r, t)| (r.clone(), t.bvadd(bv64(*d)))),
            Atom::CycAff(r, t, d) => pre[0]
                .cyc
                .get(*r)
                .zip(pre[1].cyc.get(*t))
                .map(|(r, t)| (r.clone(), t.bvadd(bv64(*d)))),
            Atom::CycMul(r, t, m, d) => pre[0]
                .cyc
                .get(*r)
                .zip(pre[1].cyc.get(*t))
                .map(|(r, t)| (r.clone(), t.bvmul(bv64(*m)).bvadd(bv64(*d)))),
            _ => None,
        };
        // Only a pre-state symbol is rewritten (a launch state's values
        // are terms; rewriting a term inside others is no equation).
        if let Some(p) = pair.filter(|p| p.0.is_const()) {
            sub.push(p);
        }
    }
    let refs: Vec<(&BV, &BV)> = sub.iter().map(|(a, b)| (a, b)).collect();
    let tsub: Vec<(&BV, &BV)> = known.subst[1].iter().map(|(a, b)| (a, b)).collect();
    let r_of = |v: &BV| v.substitute(&refs);
    let t_of = |v: &BV| v.substitute(&tsub);
    let mut out = Vec::new();
    for x in live[0] {
        let Some(rx) = post[0].vars.get(x).map(r_of) else {
            continue;
        };
        for y in live[1] {
            let Some(ty) = post[1].vars.get(y).map(t_of) else {
                continue;
            };
            if let Some(d) = numeral(&rx.bvsub(&ty)) {
                if d != 0 && d.abs() <= MAX_AFF {
                    out.push(Atom::VarAff(x.clone(), y.clone(), d));
                }
            }
        }
    }
    for (r, cr) in post[0].cyc.iter().enumerate() {
        let cr = r_of(cr);
        for (t, ct) in post[1].cyc.iter().enumerate() {
            let ct = t_of(ct);
            for m in FACTORS {
                let m = m as i64;
                if let Some(d) = numeral(&cr.bvsub(ct.bvmul(bv64(m)))) {
                    if -m < d && d <= 0 {
                        out.push(Atom::CycMul(r, t, m, d));
                    }
                }
            }
        }
    }
    // Residues: of a constant, carried by a step that adds a numeral, or
    // zero (a trip count the factor divides); the search keeps what holds.
    for w in 0..2 {
        for x in live[w] {
            let Some(v) = post[w].vars.get(x) else {
                continue;
            };
            // A constant's bounds: the constants of the function above it
            // (a constant trip count), at pairs of cycle headers only.
            if let Some(c) = known.value(w, v).filter(|c| (0..=MAX_BOUND).contains(c)) {
                for &b in bounds[w].iter().filter(|&&b| b > c) {
                    out.push(Atom::VarUlt(w, x.clone(), b));
                }
            }
            for m in FACTORS {
                let mut r = known.value(w, v).map(|c| (c as u64) % m).unwrap_or(0);
                for a in from {
                    if let Atom::VarMod(w2, x2, m2, r2) = a {
                        let k = pre[w].vars.get(x2).and_then(|p| numeral(&v.bvsub(p)));
                        if let (true, Some(k)) = (*w2 == w && *m2 == m, k) {
                            r = (r2.wrapping_add(k as u64)) % m;
                        }
                    }
                }
                out.push(Atom::VarMod(w, x.clone(), m, r));
                if r != 0 {
                    out.push(Atom::VarMod(w, x.clone(), m, 0));
                }
            }
        }
    }
    out
}

/// The numeral a term simplifies to, if any.
pub(crate) fn numeral(v: &BV) -> Option<i64> {
    v.simplify().as_u64().map(|u| u as i64)
}

/// The conjuncts of `b` (its top-level `and`s split).
fn conjuncts(b: &Bool, out: &mut Vec<Bool>) {
    // Declarations are told apart by name: the numbering of z3-sys's
    // `DeclKind` need not match the system's libz3 (4.8.12).
    if b.is_app() && b.decl().name() == "and" {
        for c in b.children() {
            if let Some(c) = c.as_bool() {
                conjuncts(&c, out);
            }
        }
    } else {
        out.push(b.clone());
    }
}

/// The most nodes a candidate condition's tree may have.
const MAX_PRED_TREE: usize = 400;

/// Whether the tree of `d` has at most `*budget` nodes (counting them down;
/// the walk stops as soon as the budget is spent).
fn small(d: &Dynamic, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if !d.is_app() {
        return true;
    }
    d.children().iter().all(|c| small(c, budget))
}

/// Whether every leaf of `d` is a numeral, a truth value, a placeholder or
/// a thread's id or group size: no oracle stream (an application of a
/// function named `S<n>`, see `exec::Shared`) but a uniform-invariant
/// read, and no other constant.
fn closed(d: &Dynamic, allowed: &[String]) -> bool {
    if d.kind() == z3::AstKind::Numeral {
        return true;
    }
    if !d.is_app() {
        return false;
    }
    let name = d.decl().name();
    if d.is_const() {
        return name == "true" || name == "false" || allowed.contains(&name);
    }
    if is_stream(&name) {
        // A uniform-invariant read, `S_c(0, 0)`, is one value for the
        // whole run in every thread (`exec`): a condition over it never
        // changes. Any other read of a stream depends on the state.
        return run_constant(d);
    }
    d.children().iter().all(|c| closed(c, allowed))
}

/// Whether `name` is an oracle stream's (`S<n>`, see `exec::Shared`).
fn is_stream(name: &str) -> bool {
    name.starts_with('S') && name.len() > 1 && name[1..].chars().all(|c| c.is_ascii_digit())
}

/// Whether `d` is an application of a stream to numerals only: the read
/// of a uniform-invariant oracle, the only reads whose thread argument is
/// a numeral.
fn run_constant(d: &Dynamic) -> bool {
    d.is_app()
        && is_stream(&d.decl().name())
        && d.children()
            .iter()
            .all(|c| c.kind() == z3::AstKind::Numeral)
}

/// Whether some node of `d` is a read of a uniform-invariant oracle.
fn reads_run_constant(d: &Dynamic, budget: &mut usize) -> bool {
    if *budget == 0 || !d.is_app() {
        return false;
    }
    *budget -= 1;
    run_constant(d) || d.children().iter().any(|c| reads_run_constant(c, budget))
}

/// The branch conditions of a path into `locs`, restated over the locals
/// live there whose value the path did not change (`pre` and `post` are
/// the states before and after it), as predicate atoms of both polarities.
fn guard_preds(
    sides: [&Side; 2],
    locs: [Loc; 2],
    (pre, guards, post): ([&TState; 2], &[Bool], [&TState; 2]),
    eqs: &[(String, String)],
    thr: &Thread,
) -> Vec<Atom> {
    let mut pairs: Vec<(Dynamic, Dynamic)> = Vec::new();
    let mut named: Vec<(String, (Which, String))> = Vec::new();
    let mut kept: [Vec<&String>; 2] = [Vec::new(), Vec::new()];
    for w in 0..2 {
        for x in sides[w].live_at(locs[w]) {
            if let (Some(a), Some(b)) = (pre[w].vars.get(x), post[w].vars.get(x)) {
                if a == b && numeral(a).is_none() {
                    let ph = placeholder(w, x);
                    named.push((ph.decl().name(), (w, x.clone())));
                    pairs.push((Dynamic::from_ast(a), Dynamic::from_ast(&ph)));
                    kept[w].push(x);
                }
            }
        }
    }
    // A condition on one program's local that the source node's invariant
    // equates with a kept local of the other program is restated over it.
    for (x, y) in eqs {
        if let (true, Some(v)) = (kept[0].contains(&x), pre[1].vars.get(y)) {
            pairs.push((Dynamic::from_ast(v), Dynamic::from_ast(&placeholder(0, x))));
        }
        if let (true, Some(v)) = (kept[1].contains(&y), pre[0].vars.get(x)) {
            pairs.push((Dynamic::from_ast(v), Dynamic::from_ast(&placeholder(1, y))));
        }
    }
    let mut parts = Vec::new();
    for g in guards {
        conjuncts(g, &mut parts);
    }
    let defs = definitions(sides, locs, (pre, post), &pairs, &named, thr);
    if pairs.is_empty() {
        // With no kept local, only conditions on uniform-invariant oracles
        // (the same at every point of the run) can be restated.
        parts.retain(|g| reads_run_constant(&Dynamic::from_ast(g), &mut MAX_PRED_TREE.clone()));
        if parts.is_empty() {
            return defs;
        }
    }
    let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let mut allowed: Vec<String> = named.iter().map(|n| n.0.clone()).collect();
    allowed.push(thr.tid.decl().name());
    allowed.push(thr.n.decl().name());
    let mut out = Vec::new();
    for g in parts {
        let f = g.substitute(&refs).simplify();
        // A condition whose printed tree is large is no candidate: its text
        // (and `closed`'s walk) grows with the tree, not with z3's shared
        // graph, and a loop's guards can share exponentially.
        if f.as_bool().is_some()
            || !small(&Dynamic::from_ast(&f), &mut MAX_PRED_TREE.clone())
            || !closed(&Dynamic::from_ast(&f), &allowed)
        {
            continue;
        }
        let text = f.to_string();
        let vars: Vec<(Which, String)> = named
            .iter()
            .filter(|(n, _)| text.contains(n.as_str()))
            .map(|(_, v)| v.clone())
            .collect();
        for f in [f.clone(), f.not().simplify()] {
            let text = format!("when {f}");
            out.push(Atom::Pred(Rc::new(Pred {
                f,
                vars: vars.clone(),
                text,
            })));
        }
    }
    out.extend(defs);
    out
}

/// The locals live at `locs` that the path into them assigned, each
/// restated as its value over the locals the path left unchanged (`pairs`
/// maps their pre-state terms to placeholders named in `named`), as
/// predicate atoms `x = f(kept locals)`: a value computed before an event
/// and used after it (EarlyCSE's one `sext` for two addresses across a
/// load) is related to what the other program recomputes there. Only a
/// guess, as every candidate: the search keeps what every incoming step
/// establishes and the re-check checks it again.
fn definitions(
    sides: [&Side; 2],
    locs: [Loc; 2],
    (pre, post): ([&TState; 2], [&TState; 2]),
    pairs: &[(Dynamic, Dynamic)],
    named: &[(String, (Which, String))],
    thr: &Thread,
) -> Vec<Atom> {
    let mut out = Vec::new();
    if pairs.is_empty() {
        return out;
    }
    let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let mut allowed: Vec<String> = named.iter().map(|n| n.0.clone()).collect();
    allowed.push(thr.tid.decl().name());
    allowed.push(thr.n.decl().name());
    for w in 0..2 {
        for x in sides[w].live_at(locs[w]) {
            let Some(v) = post[w].vars.get(x) else {
                continue;
            };
            if pre[w].vars.get(x) == Some(v) || numeral(v).is_some() {
                continue;
            }
            let f = v.substitute(&refs).simplify();
            if !small(&Dynamic::from_ast(&f), &mut MAX_PRED_TREE.clone())
                || !closed(&Dynamic::from_ast(&f), &allowed)
            {
                continue;
            }
            let body = f.to_string();
            let mut vars: Vec<(Which, String)> = named
                .iter()
                .filter(|(n, _)| body.contains(n.as_str()))
                .map(|(_, v)| v.clone())
                .collect();
            vars.push((w, x.clone()));
            let def = placeholder(w, x).eq(&f);
            out.push(Atom::Pred(Rc::new(Pred {
                f: def,
                vars,
                text: format!("{} %{x} = {body}", side_name(w)),
            })));
        }
    }
    out
}

/// The constants the source node's candidates give its state's locals and
/// cycle counts: a post-state value over them is a constant too (an
/// induction variable and the cycle counts of a fully unrolled loop, one
/// target point per iteration). Only a guess: the search keeps what holds.
struct Known {
    subst: [Vec<(BV, BV)>; 2],
}

impl Known {
    fn of(from: &[Atom], pre: [&TState; 2]) -> Known {
        let mut subst: [Vec<(BV, BV)>; 2] = Default::default();
        for a in from {
            let (w, v, c) = match a {
                Atom::VarConst(w, x, c) => (*w, pre[*w].vars.get(x), *c),
                Atom::VarZero(w, x, true) => (*w, pre[*w].vars.get(x), 0),
                Atom::CycConst(w, i, c) => (*w, pre[*w].cyc.get(*i), *c),
                _ => continue,
            };
            if let Some(v) = v {
                subst[w].push((v.clone(), BV::from_i64(c, v.get_size())));
            }
        }
        Known { subst }
    }

    /// `v` of program `w` as a constant, if it is one given the source's
    /// constants.
    fn value(&self, w: usize, v: &BV) -> Option<i64> {
        numeral(v).or_else(|| {
            if self.subst[w].is_empty() {
                return None;
            }
            let refs: Vec<(&BV, &BV)> = self.subst[w].iter().map(|(a, b)| (a, b)).collect();
            numeral(&v.substitute(&refs))
        })
    }
}

/// The candidate atoms of the node at `locs`, first reached from states
/// `pre` along paths with `guards` to states `post` (constants and
/// conditions are guessed from them); with `guess_bounds`, constant
/// bounds too ([`Atom::VarUlt`]).
pub(crate) fn candidates(
    sides: [&Side; 2],
    locs: [Loc; 2],
    first: ([&TState; 2], &[Bool], [&TState; 2]),
    from: &[Atom],
    (names, guess_bounds): (usize, bool),
    thr: &Thread,
) -> Vec<Atom> {
    let eqs: Vec<(String, String)> = from
        .iter()
        .filter_map(|a| match a {
            Atom::VarEq(x, y) => Some((x.clone(), y.clone())),
            _ => None,
        })
        .collect();
    let post = first.2;
    let known = Known::of(from, first.0);
    let live = [sides[0].live_at(locs[0]), sides[1].live_at(locs[1])];
    let mut out = Vec::new();
    for x in live[0] {
        for y in live[1] {
            out.push(Atom::VarEq(x.clone(), y.clone()));
        }
    }
    for w in 0..2 {
        for x in live[w] {
            out.push(Atom::VarZero(w, x.clone(), true));
            out.push(Atom::VarZero(w, x.clone(), false));
            out.push(Atom::VarBit(w, x.clone(), true));
            out.push(Atom::VarBit(w, x.clone(), false));
            if let Some(c) = post[w].vars.get(x).and_then(|v| known.value(w, v)) {
                if c != 0 {
                    out.push(Atom::VarConst(w, x.clone(), c));
                }
            }
        }
        for (i, c) in post[w].cyc.iter().enumerate() {
            if let Some(c) = known.value(w, c) {
                out.push(Atom::CycConst(w, i, c));
            }
        }
        for (x, one) in &sides[w].load_locals {
            if let Some(o) = one {
                out.push(Atom::PendBefore(w, x.clone(), *o));
            }
        }
        // Pairs that may hold loads of one oracle (the same free values),
        // and only for a few locals: the atoms are quadratic in them, and
        // a function at -O0 has a local per load of every alloca.
        let keys: Vec<&String> = post[w].pend.keys().collect();
        if keys.len() <= MAX_APART {
            let oracle = |x: &String| sides[w].load_locals.get(x).copied().flatten();
            for (i, x) in keys.iter().enumerate() {
                for y in &keys[i + 1..] {
                    match (oracle(x), oracle(y)) {
                        (Some(a), Some(b)) if a != b => {}
                        _ => out.push(Atom::PendApart(w, (*x).clone(), (*y).clone())),
                    }
                }
            }
        }
        for x in post[w].pend.keys() {
            out.push(Atom::PendOff(w, x.clone()));
            out.push(Atom::OwedOff(w, x.clone()));
            out.push(Atom::OwedPend(w, x.clone()));
            out.push(Atom::SilentOff(w, x.clone()));
        }
    }
    for o in 0..names {
        for d in -2..=2 {
            out.push(Atom::CntDiff(o, d));
        }
    }
    for r in 0..post[0].cyc.len() {
        for t in 0..post[1].cyc.len() {
            for d in -2..=2 {
                out.push(Atom::CycAff(r, t, d));
            }
        }
    }
    for x in post[0].pend.keys() {
        for y in post[1].pend.keys() {
            out.push(Atom::PendEq(x.clone(), y.clone()));
        }
    }
    out.extend(affine(
        [live[0], live[1]],
        from,
        (first.0, post),
        &known,
        if guess_bounds && (0..2).all(|w| sides[w].header[locs[w].block]) {
            [bounds(sides[0]), bounds(sides[1])]
        } else {
            Default::default()
        },
    ));
    out.extend(guard_preds(sides, locs, first, &eqs, thr));
    // The source's conditions carry over while their locals stay live.
    out.extend(from.iter().filter(|a| matches!(a, Atom::Pred(_))).cloned());
    out.sort();
    out.dedup();
    out
}
