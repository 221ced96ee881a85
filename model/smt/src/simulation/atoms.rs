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
//! iteration), and the pending loads of the two programs the same (the
//! same oracle evaluation, or none).

use super::exec::{Pend, TState};
use super::side::{Loc, Side};
use std::fmt;
use z3::ast::{Ast, Bool, BV};

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
        }
    }
}

fn bv64(v: i64) -> BV {
    BV::from_i64(v, 64)
}

fn pend_eq(a: &Pend, b: &Pend) -> Bool {
    let same = Bool::and(&[a.o.eq(&b.o), a.k.eq(&b.k)]);
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
        })
    }
}

/// The numeral a term simplifies to, if any.
pub(crate) fn numeral(v: &BV) -> Option<i64> {
    v.simplify().as_u64().map(|u| u as i64)
}

/// The candidate atoms of the node at `locs`, first reached with states
/// `post` (constants are guessed from them).
pub(crate) fn candidates(
    sides: [&Side; 2],
    locs: [Loc; 2],
    post: [&TState; 2],
    names: usize,
) -> Vec<Atom> {
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
            if let Some(c) = post[w].vars.get(x).and_then(numeral) {
                if c != 0 {
                    out.push(Atom::VarConst(w, x.clone(), c));
                }
            }
        }
        for (i, c) in post[w].cyc.iter().enumerate() {
            if let Some(c) = numeral(c) {
                out.push(Atom::CycConst(w, i, c));
            }
        }
        for x in post[w].pend.keys() {
            out.push(Atom::PendOff(w, x.clone()));
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
    out
}
