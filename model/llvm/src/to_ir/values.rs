//! The width rule and the expressions it needs.
//!
//! convcheck's values are 64-bit wrapping integers; LLVM's are `iN`. A value
//! of type `iN` with `N < 64` is held as *any* 64-bit value whose low `N`
//! bits are right. Addition, subtraction, multiplication, the bitwise
//! operators, `shl` and `trunc` compute the right low bits from right low
//! bits, so they need nothing. The operations whose result depends on the
//! high bits normalise their operands explicitly:
//!
//! | LLVM | operands as |
//! | --- | --- |
//! | `icmp slt/sle/sgt/sge`, `sdiv`, `srem`, `ashr` (value), `sext` | `sextN(x)` |
//! | `icmp eq/ne/ult/ule/ugt/uge`, `udiv`, `urem`, `lshr` (value), `zext` | `zextN(x)` |
//! | `br i1 c`, `select i1 c` | `zext1(c)` |
//! | `switch iN v` | `sextN(v)`, the case constants sign-extended from `N` |
//! | `getelementptr` indices | `sextN(i)` (LangRef: indices are sign-extended) |
//! | shift amounts, when `N < 6` | `zextN(s)` |
//!
//! Shift amounts need no normalisation from six bits up: the model shifts
//! by the amount modulo 64, which is the right amount whenever LLVM's
//! result is defined (an amount of `N` or more is poison, and poison may be
//! any value). Constants are normalised when the expression is built, and
//! a local known to be normal already (the result of an `icmp`, a `zext`
//! or a `sext`) is not wrapped again ([`Norm`]).
//!
//! Addresses are [`Lin`]: a linear form of byte offsets, so that the index
//! of an access (its byte address divided by the access size) stays an
//! exact expression whenever the offsets are multiples of that size, which
//! they are for every access through a `getelementptr` of its own type.
#![deny(unsafe_code)]

use convcheck_ir::expr::unary;
use convcheck_ir::{BinOp, Expr, UnOp};

/// What is known of a local's high bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Norm {
    /// The value is the zero extension of its low `k` bits.
    pub zext_bits: Option<u32>,
    /// The value is the sign extension of its low `k` bits.
    pub sext_bits: Option<u32>,
}

impl Norm {
    /// What is known of a constant.
    pub fn of_const(c: i64) -> Norm {
        let zext_bits = (c >= 0).then(|| (64 - c.leading_zeros()).max(1));
        let sext_bits =
            (1..=64u32).find(|&k| unary(UnOp::SExt(k.min(63) as u8), c) == c || k == 64);
        Norm {
            zext_bits,
            sext_bits,
        }
    }

    /// What holds of either of two values.
    pub fn either(a: Norm, b: Norm) -> Norm {
        let both = |x: Option<u32>, y: Option<u32>| Some(x?.max(y?));
        Norm {
            zext_bits: both(a.zext_bits, b.zext_bits),
            sext_bits: both(a.sext_bits, b.sext_bits),
        }
    }

    /// What an `icmp` (0 or 1) gives.
    pub fn boolean() -> Norm {
        Norm {
            zext_bits: Some(1),
            sext_bits: Some(2),
        }
    }
}

/// `x` read as a signed `iN`: `sextN(x)`, folded for constants and skipped
/// when `norm` says it is already.
pub(crate) fn sext(e: Expr, n: u32, norm: Norm) -> Expr {
    if n >= 64 || norm.sext_bits.is_some_and(|k| k <= n) {
        return e;
    }
    match e {
        Expr::Const(c) => Expr::Const(unary(UnOp::SExt(n as u8), c)),
        e => Expr::Unary(UnOp::SExt(n as u8), Box::new(e)),
    }
}

/// `x` read as an unsigned `iN`: `zextN(x)`, folded and skipped likewise.
pub(crate) fn zext(e: Expr, n: u32, norm: Norm) -> Expr {
    if n >= 64 || norm.zext_bits.is_some_and(|k| k <= n) {
        return e;
    }
    match e {
        Expr::Const(c) => Expr::Const(unary(UnOp::ZExt(n as u8), c)),
        e => Expr::Unary(UnOp::ZExt(n as u8), Box::new(e)),
    }
}

/// `a op b`, folding two constants with the model's own arithmetic.
pub(crate) fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    match (&a, &b) {
        (Expr::Const(x), Expr::Const(y)) if !matches!(op, BinOp::And | BinOp::Or) => {
            Expr::Const(convcheck_ir::expr::binary(op, *x, *y))
        }
        _ => Expr::binary(op, a, b),
    }
}

/// A byte address as a linear form: `k + Σ coef·term`, wrapping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lin {
    /// The terms, each a coefficient and an expression.
    pub terms: Vec<(i64, Expr)>,
    /// The constant part.
    pub k: i64,
}

impl Lin {
    /// The constant `k`.
    pub fn konst(k: i64) -> Lin {
        Lin {
            terms: Vec::new(),
            k,
        }
    }

    /// The expression `e` (a constant folds into `k`).
    pub fn of(e: Expr) -> Lin {
        match e {
            Expr::Const(c) => Lin::konst(c),
            e => Lin {
                terms: vec![(1, e)],
                k: 0,
            },
        }
    }

    /// `self + other`.
    pub fn plus(mut self, other: Lin) -> Lin {
        self.k = self.k.wrapping_add(other.k);
        for (c, e) in other.terms {
            match self.terms.iter_mut().find(|(_, x)| *x == e) {
                Some(t) => t.0 = t.0.wrapping_add(c),
                None => self.terms.push((c, e)),
            }
        }
        self.terms.retain(|(c, _)| *c != 0);
        self
    }

    /// `self · s`.
    pub fn times(mut self, s: i64) -> Lin {
        self.k = self.k.wrapping_mul(s);
        for t in &mut self.terms {
            t.0 = t.0.wrapping_mul(s);
        }
        self.terms.retain(|(c, _)| *c != 0);
        self
    }

    /// The form as an expression.
    pub fn expr(&self) -> Expr {
        let mut out: Option<Expr> = None;
        for (c, e) in &self.terms {
            let t = if *c == 1 {
                e.clone()
            } else {
                Expr::binary(BinOp::Mul, e.clone(), Expr::Const(*c))
            };
            out = Some(match out {
                None => t,
                Some(acc) => Expr::binary(BinOp::Add, acc, t),
            });
        }
        match out {
            None => Expr::Const(self.k),
            Some(e) if self.k == 0 => e,
            Some(e) => Expr::binary(BinOp::Add, e, Expr::Const(self.k)),
        }
    }

    /// The index of an access of `size` bytes at this address: the address
    /// divided by the size, exactly when every part is a multiple of it,
    /// else with the model's signed division.
    pub fn index(&self, size: u64) -> Expr {
        let s = size.max(1) as i64;
        if self.k % s == 0 && self.terms.iter().all(|(c, _)| c % s == 0) {
            Lin {
                terms: self.terms.iter().map(|(c, e)| (c / s, e.clone())).collect(),
                k: self.k / s,
            }
            .expr()
        } else {
            Expr::binary(BinOp::Div, self.expr(), Expr::Const(s))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_normalised_when_built() {
        assert_eq!(sext(Expr::Const(0xff), 8, Norm::default()), Expr::Const(-1));
        assert_eq!(zext(Expr::Const(-1), 8, Norm::default()), Expr::Const(255));
        assert_eq!(zext(Expr::Const(-1), 64, Norm::default()), Expr::Const(-1));
        let v = Expr::Var("x".into());
        assert_eq!(zext(v.clone(), 1, Norm::boolean()), v);
        assert_eq!(sext(v.clone(), 8, Norm::boolean()), v);
        assert_eq!(
            sext(v.clone(), 1, Norm::boolean()),
            Expr::Unary(UnOp::SExt(1), Box::new(v))
        );
    }

    #[test]
    fn indices_divide_exactly_when_they_can() {
        let i = Expr::Var("i".into());
        let a = Lin::konst(1 << 32).plus(Lin::of(i.clone()).times(4));
        assert_eq!(
            a.index(4),
            Expr::binary(BinOp::Add, i.clone(), Expr::Const((1i64 << 32) / 4))
        );
        let b = Lin::of(i.clone()).plus(Lin::konst(2));
        assert_eq!(
            b.index(4),
            Expr::binary(
                BinOp::Div,
                Expr::binary(BinOp::Add, i, Expr::Const(2)),
                Expr::Const(4)
            )
        );
    }
}
