//! The `nsw` and `nuw` flags of a `mul` wider than 32 bits (LangRef,
//! "mul Instruction": the result is poison where the product overflows
//! `iN`, signed or unsigned; issue 20 class e). The model computes in 64
//! bits, so the exact product of two operands of 33 to 64 bits may not
//! fit: [`fits`] says where it does without a wider word.
//!
//! - A constant operand `c` (the common case: `mul nsw i64 %i, 4`): the
//!   other operand lies in the interval whose products with `c` are `iN`
//!   values, computed here in 128 bits (`[ceil(MIN/c), floor(MAX/c)]`,
//!   the bounds swapped for a negative `c`; unsigned: `x <= UMAX / c`).
//!   A comparison, cheap for every engine.
//! - Two variables: the 64-bit product divided by one operand gives the
//!   other back (and, signed, not `MIN * -1`), and the product is an
//!   `iN` value.
#![deny(unsafe_code)]

use convcheck_ir::{BinOp as IrBin, Expr, UnOp};

use crate::value::Value;

fn bin(op: IrBin, a: Expr, b: Expr) -> Expr {
    super::values::bin(op, a, b)
}

/// `e`, an `iN` value, extended to 64 bits as the model keeps it.
fn extend(e: Expr, w: u32, signed: bool) -> Expr {
    if w >= 64 {
        e
    } else if signed {
        Expr::Unary(UnOp::SExt(w as u8), Box::new(e))
    } else {
        Expr::Unary(UnOp::ZExt(w as u8), Box::new(e))
    }
}

/// The constant `v` read as an `iN` value, signed or unsigned.
fn constant(v: &Value, w: u32, signed: bool) -> Option<i128> {
    let Value::Int(i) = v else { return None };
    let shift = 128 - w;
    Some(if signed {
        (i << shift) >> shift
    } else {
        ((*i as u128) << shift >> shift) as i128
    })
}

/// Floor and ceiling of `a / b` in 128 bits (`b != 0`).
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

/// Where `a * b` (the operands `lhs`, `rhs` of type `iN`, `32 < N <= 64`,
/// and `a`, `b` their values extended to 64 bits, signed for `nsw`) is an
/// `iN` value: where the flag holds.
pub(crate) fn fits(a: Expr, b: Expr, lhs: &Value, rhs: &Value, w: u32, signed: bool) -> Expr {
    let (lo, hi): (i128, i128) = if signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    };
    let known = constant(rhs, w, signed)
        .map(|c| (a.clone(), c))
        .or_else(|| constant(lhs, w, signed).map(|c| (b.clone(), c)));
    if let Some((x, c)) = known {
        if c == 0 {
            return Expr::Const(1);
        }
        let (from, to) = if c > 0 {
            (ceil_div(lo, c), floor_div(hi, c))
        } else {
            (ceil_div(hi, c), floor_div(lo, c))
        };
        // The operand's own range, so that the bounds fit 64 bits.
        let (from, to) = (from.max(lo), to.min(hi));
        if from > to {
            return Expr::Const(0);
        }
        return if signed {
            bin(
                IrBin::And,
                bin(IrBin::Ge, x.clone(), Expr::Const(from as i64)),
                bin(IrBin::Ge, Expr::Const(to as i64), x),
            )
        } else {
            bin(IrBin::UGe, Expr::Const(to as u64 as i64), x)
        };
    }
    let r = bin(IrBin::Mul, a.clone(), b.clone());
    let b_zero = bin(IrBin::Eq, b.clone(), Expr::Const(0));
    let fits64 = if signed {
        let back = bin(IrBin::Eq, bin(IrBin::Div, r.clone(), b.clone()), a.clone());
        let min_by_minus_one = bin(
            IrBin::And,
            bin(IrBin::Eq, a, Expr::Const(i64::MIN)),
            bin(IrBin::Eq, b, Expr::Const(-1)),
        );
        bin(
            IrBin::Or,
            b_zero,
            bin(
                IrBin::And,
                back,
                bin(IrBin::Eq, min_by_minus_one, Expr::Const(0)),
            ),
        )
    } else {
        bin(
            IrBin::Or,
            b_zero,
            bin(IrBin::Eq, bin(IrBin::UDiv, r.clone(), b), a),
        )
    };
    let narrow = bin(IrBin::Eq, extend(r.clone(), w, signed), r);
    bin(IrBin::And, fits64, narrow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_ir::intrinsics::tests::eval;

    /// Against 128-bit arithmetic, for constants and for variables.
    #[test]
    fn agrees_with_wide_arithmetic() {
        let samples: [i128; 12] = [
            0,
            1,
            -1,
            2,
            3,
            4,
            -4,
            1 << 31,
            (1 << 32) + 1,
            (1 << 62) - 1,
            i64::MAX as i128,
            i64::MIN as i128,
        ];
        for w in [40u32, 64] {
            for signed in [false, true] {
                let (lo, hi): (i128, i128) = if signed {
                    (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
                } else {
                    (0, (1i128 << w) - 1)
                };
                for &x in &samples {
                    for &y in &samples {
                        let xv = constant(&Value::Int(x), w, signed).unwrap_or(0);
                        let yv = constant(&Value::Int(y), w, signed).unwrap_or(0);
                        let want = xv.checked_mul(yv).is_some_and(|p| (lo..=hi).contains(&p));
                        let ex = Expr::Const(xv as i64);
                        let ey = Expr::Const(yv as i64);
                        // A variable times a constant, and two variables.
                        let c = fits(
                            ex.clone(),
                            ey.clone(),
                            &Value::Undef,
                            &Value::Int(y),
                            w,
                            signed,
                        );
                        let v = fits(ex, ey, &Value::Undef, &Value::Undef, w, signed);
                        assert_eq!(eval(&c) != 0, want, "{w} {signed} {x} * const {y}");
                        assert_eq!(eval(&v) != 0, want, "{w} {signed} {x} * {y}");
                    }
                }
            }
        }
    }
}
