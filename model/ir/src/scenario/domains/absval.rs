//! Abstract values of the domain analysis: an expression's possible values
//! as a union of constants, invertible linear functions `a*x + b` (`a` odd)
//! of one subject, and unknown values tainted by the subjects they depend
//! on. Arithmetic that keeps a value linear is followed; anything else
//! becomes unknown (and its comparisons are noted as inexact).

use super::Subject;
use crate::expr::BinOp;
use std::collections::BTreeSet;

/// One possible value of an expression.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Alt {
    /// A constant.
    Const(i64),
    /// `a*x + b` for subject `x`, `a` odd.
    Lin(Subject, i64, i64),
    /// A value the analysis does not follow, depending on these subjects.
    Unknown(BTreeSet<Subject>),
}

/// The possible values of an expression (a union of alternatives).
pub(super) type Av = BTreeSet<Alt>;

/// More alternatives than this are merged into one unknown value.
pub(super) const MAX_ALTS: usize = 64;

pub(super) fn unknown(subjects: BTreeSet<Subject>) -> Av {
    BTreeSet::from([Alt::Unknown(subjects)])
}

pub(super) fn konst(c: i64) -> Av {
    BTreeSet::from([Alt::Const(c)])
}

pub(super) fn boolean() -> Av {
    BTreeSet::from([Alt::Const(0), Alt::Const(1)])
}

/// The subjects an abstract value depends on.
pub(super) fn taint(v: &Av) -> BTreeSet<Subject> {
    let mut out = BTreeSet::new();
    for a in v {
        match a {
            Alt::Const(_) => {}
            Alt::Lin(s, ..) => {
                out.insert(s.clone());
            }
            Alt::Unknown(t) => out.extend(t.iter().cloned()),
        }
    }
    out
}

/// Caps the number of alternatives and merges unknown ones.
pub(super) fn normal(v: Av) -> Av {
    let unknowns: Vec<&Alt> = v.iter().filter(|a| matches!(a, Alt::Unknown(_))).collect();
    if v.len() <= MAX_ALTS && unknowns.len() <= 1 {
        return v;
    }
    if v.len() > MAX_ALTS {
        return unknown(taint(&v));
    }
    let mut t = BTreeSet::new();
    for a in &unknowns {
        if let Alt::Unknown(s) = a {
            t.extend(s.iter().cloned());
        }
    }
    let mut out: Av = v
        .into_iter()
        .filter(|a| !matches!(a, Alt::Unknown(_)))
        .collect();
    out.insert(Alt::Unknown(t));
    out
}

/// The inverse of an odd number modulo 2^64.
pub(super) fn inverse(a: i64) -> i64 {
    // Newton's iteration: each step doubles the number of correct bits.
    let mut x = a;
    for _ in 0..6 {
        x = x.wrapping_mul(2i64.wrapping_sub(a.wrapping_mul(x)));
    }
    x
}

/// Applies a unary operation to each alternative.
pub(super) fn map_lin(
    v: &Av,
    f: impl Fn(i64, i64) -> Option<(i64, i64)>,
    c: impl Fn(i64) -> i64,
) -> Av {
    let mut out = BTreeSet::new();
    for a in v {
        match a {
            Alt::Const(x) => {
                out.insert(Alt::Const(c(*x)));
            }
            Alt::Lin(s, a, b) => match f(*a, *b) {
                Some((a2, b2)) => {
                    out.insert(Alt::Lin(s.clone(), a2, b2));
                }
                None => {
                    out.insert(Alt::Unknown(BTreeSet::from([s.clone()])));
                }
            },
            Alt::Unknown(t) => {
                out.insert(Alt::Unknown(t.clone()));
            }
        }
    }
    normal(out)
}

/// `x op y` on two abstract values, for the arithmetic the analysis
/// inverts.
pub(super) fn arith(op: BinOp, x: &Av, y: &Av) -> Av {
    let mut out = BTreeSet::new();
    for a in x {
        for b in y {
            out.insert(arith1(op, a, b));
        }
    }
    normal(out)
}

pub(super) fn arith1(op: BinOp, a: &Alt, b: &Alt) -> Alt {
    use Alt::*;
    let both = || {
        let mut t = taint(&BTreeSet::from([a.clone()]));
        t.extend(taint(&BTreeSet::from([b.clone()])));
        Unknown(t)
    };
    match (op, a, b) {
        (_, Const(x), Const(y)) => Const(crate::expr::binary(op, *x, *y)),
        (BinOp::Add, Lin(s, m, c), Const(k)) | (BinOp::Add, Const(k), Lin(s, m, c)) => {
            Lin(s.clone(), *m, c.wrapping_add(*k))
        }
        (BinOp::Sub, Lin(s, m, c), Const(k)) => Lin(s.clone(), *m, c.wrapping_sub(*k)),
        (BinOp::Sub, Const(k), Lin(s, m, c)) => {
            Lin(s.clone(), m.wrapping_neg(), k.wrapping_sub(*c))
        }
        (BinOp::Mul, Lin(s, m, c), Const(k)) | (BinOp::Mul, Const(k), Lin(s, m, c))
            if k & 1 == 1 =>
        {
            Lin(s.clone(), m.wrapping_mul(*k), c.wrapping_mul(*k))
        }
        _ => both(),
    }
}

/// What a comparison asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cmp {
    /// Equality (`==`, `!=`, switch cases, truth values, addresses).
    Eq,
    /// A signed ordering.
    Signed,
    /// An unsigned ordering.
    Unsigned,
}

pub(super) fn cmp_of(op: BinOp) -> Option<Cmp> {
    Some(match op {
        BinOp::Eq | BinOp::Ne => Cmp::Eq,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Cmp::Signed,
        BinOp::ULt | BinOp::ULe | BinOp::UGt | BinOp::UGe => Cmp::Unsigned,
        _ => return None,
    })
}
