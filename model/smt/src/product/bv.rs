//! Bit-vector terms for the model's values (`convcheck_ir::expr`): 64-bit
//! wrapping arithmetic, comparisons 1 or 0, division and remainder by zero
//! 0 (and `i64::MIN / -1` is 0, as `checked_div` makes it), shifts modulo
//! 64, and the guard helpers symbolic execution merges states with
//! ([`super::symex`]).

use convcheck_ir::{BinOp, Expr, UnOp};
use z3::ast::{Bool, BV};

pub(crate) fn c64(v: i64) -> BV {
    BV::from_i64(v, 64)
}

pub(crate) fn truth(b: &Bool) -> BV {
    b.ite(&c64(1), &c64(0))
}

pub(crate) fn nonzero(v: &BV) -> Bool {
    v.eq(c64(0)).not()
}

pub(crate) fn or_all(terms: &[Bool]) -> Bool {
    match terms {
        [] => Bool::from_bool(false),
        [one] => one.clone(),
        _ => Bool::or(terms),
    }
}

/// `ite(g1, v1, ite(g2, v2, ... vk))`, or the common value.
pub(crate) fn choose(guards: &[Bool], values: &[BV]) -> BV {
    let last = values.len() - 1;
    if values.iter().all(|v| *v == values[0]) {
        return values[0].clone();
    }
    let mut acc = values[last].clone();
    for i in (0..last).rev() {
        acc = guards[i].ite(&values[i], &acc);
    }
    acc
}

/// The model's unary arithmetic on bit-vectors (`convcheck_ir::expr::unary`).
pub(crate) fn unary(op: UnOp, x: &BV) -> BV {
    match op {
        UnOp::Not => truth(&x.eq(c64(0))),
        UnOp::Neg => x.bvneg(),
        UnOp::BitNot => x.bvnot(),
        UnOp::SExt(n) | UnOp::ZExt(n) => {
            let n = u32::from(n.clamp(1, 64));
            if n >= 64 {
                return x.clone();
            }
            let low = x.extract(n - 1, 0);
            if matches!(op, UnOp::SExt(_)) {
                low.sign_ext(64 - n)
            } else {
                low.zero_ext(64 - n)
            }
        }
        UnOp::F(f) => super::fbv::unary(f, x),
    }
}

/// Whether `e`'s value, read as unsigned, is below 2^32 by its form alone:
/// a zero extension from at most 32 bits, a constant, or arithmetic of
/// such values that stays below 2^32 (a remainder, a quotient, a mask).
pub(crate) fn below_2_32(e: &Expr) -> bool {
    fn below(e: &Expr) -> Option<u128> {
        match e {
            Expr::Const(c) => u128::try_from(*c).ok().map(|c| c + 1),
            Expr::Unary(UnOp::ZExt(n), _) if *n < 64 => Some(1u128 << n),
            Expr::Binary(BinOp::URem | BinOp::BitAnd, a, b) => match (below(a), below(b)) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
            Expr::Binary(BinOp::UDiv | BinOp::LShr, a, _) => below(a),
            Expr::Binary(BinOp::Add, a, b) => Some(below(a)? + below(b)? - 1),
            _ => None,
        }
    }
    below(e).is_some_and(|b| b <= 1 << 32)
}

/// `x udiv y` or `x urem y` where both are below 2^32
/// ([`below_2_32`]): the same value as [`binary`]'s, computed on 32 bits
/// (z3's circuit for a 64-bit division by a value it does not know is
/// about four times the size of a 32-bit one; a 2-D thread index,
/// `tid urem Nx`, took the product most of a minute).
pub(crate) fn narrow_division(op: BinOp, x: &BV, y: &BV) -> BV {
    let (a, b) = (x.extract(31, 0), y.extract(31, 0));
    let v = match op {
        BinOp::UDiv => a.bvudiv(&b),
        _ => a.bvurem(&b),
    };
    let zero = BV::from_u64(0, 32);
    b.eq(&zero).ite(&zero, &v).zero_ext(32)
}

/// The model's binary arithmetic on bit-vectors (`convcheck_ir::expr::binary`).
pub(crate) fn binary(op: BinOp, x: &BV, y: &BV) -> BV {
    let zero = c64(0);
    let amount = || y.bvand(c64(63));
    let y_zero = y.eq(&zero);
    match op {
        BinOp::Or => truth(&Bool::or(&[nonzero(x), nonzero(y)])),
        BinOp::And => truth(&Bool::and(&[nonzero(x), nonzero(y)])),
        BinOp::BitOr => x.bvor(y),
        BinOp::BitXor => x.bvxor(y),
        BinOp::BitAnd => x.bvand(y),
        BinOp::Eq => truth(&x.eq(y)),
        BinOp::Ne => truth(&x.eq(y).not()),
        BinOp::Lt => truth(&x.bvslt(y)),
        BinOp::Le => truth(&x.bvsle(y)),
        BinOp::Gt => truth(&x.bvsgt(y)),
        BinOp::Ge => truth(&x.bvsge(y)),
        BinOp::Shl => x.bvshl(amount()),
        BinOp::Shr => x.bvashr(amount()),
        BinOp::LShr => x.bvlshr(amount()),
        BinOp::Add => x.bvadd(y),
        BinOp::Sub => x.bvsub(y),
        BinOp::Mul => x.bvmul(y),
        // `checked_div` is None on division by zero and on MIN / -1.
        BinOp::Div => {
            let overflow = Bool::and(&[x.eq(c64(i64::MIN)), y.eq(c64(-1))]);
            Bool::or(&[y_zero, overflow]).ite(&zero, &x.bvsdiv(y))
        }
        // MIN % -1 is 0 in both; only the divisor 0 needs a case.
        BinOp::Rem => y_zero.ite(&zero, &x.bvsrem(y)),
        BinOp::ULt => truth(&x.bvult(y)),
        BinOp::ULe => truth(&x.bvule(y)),
        BinOp::UGt => truth(&x.bvugt(y)),
        BinOp::UGe => truth(&x.bvuge(y)),
        BinOp::UDiv => y_zero.ite(&zero, &x.bvudiv(y)),
        BinOp::URem => y_zero.ite(&zero, &x.bvurem(y)),
        BinOp::F(f) => super::fbv::binary(f, x, y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Ast;
    use z3::{SatResult, Solver};

    /// The bit-vector arithmetic agrees with the model's integer arithmetic
    /// on edge values.
    #[test]
    fn arithmetic_agrees_with_the_model() {
        let vals = [
            0i64,
            1,
            -1,
            2,
            7,
            -8,
            63,
            64,
            65,
            i64::MIN,
            i64::MAX,
            0x1_0000_0001,
        ];
        let solver = Solver::new();
        for op in BinOp::ALL {
            for &a in &vals {
                for &b in &vals {
                    let want = convcheck_ir::expr::binary(op, a, b);
                    let got = binary(op, &c64(a), &c64(b)).simplify();
                    assert_eq!(got.as_u64().map(|v| v as i64), Some(want), "{op:?} {a} {b}");
                }
            }
        }
        for op in [
            UnOp::Not,
            UnOp::Neg,
            UnOp::BitNot,
            UnOp::SExt(8),
            UnOp::ZExt(8),
            UnOp::SExt(32),
            UnOp::ZExt(1),
        ] {
            for &a in &vals {
                let want = convcheck_ir::expr::unary(op, a);
                let got = unary(op, &c64(a)).simplify();
                assert_eq!(got.as_u64().map(|v| v as i64), Some(want), "{op:?} {a}");
            }
        }
        assert_eq!(solver.check(), SatResult::Sat);
    }

    /// The 32-bit division gives the model's value wherever both operands
    /// are below 2^32 (edge values, and pairs from a fixed linear
    /// congruential sequence: z3 takes minutes to prove the two circuits
    /// equal symbolically); the bound reads the forms the thread index
    /// takes.
    #[test]
    fn narrow_division_is_the_division_below_2_32() {
        let mut vals = vec![
            0i64,
            1,
            2,
            3,
            7,
            1023,
            1024,
            65_537,
            0x7fff_ffff,
            0xffff_ffff,
        ];
        let mut r: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..30 {
            r = r
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            vals.push(((r >> 32) >> (r % 29)) as i64);
        }
        for op in [BinOp::UDiv, BinOp::URem] {
            for &a in &vals {
                for &b in &vals {
                    let want = convcheck_ir::expr::binary(op, a, b);
                    let got = narrow_division(op, &c64(a), &c64(b)).simplify();
                    assert_eq!(got.as_u64().map(|v| v as i64), Some(want), "{op:?} {a} {b}");
                }
            }
        }
        let z = |n: u8, e: Expr| Expr::Unary(UnOp::ZExt(n), Box::new(e));
        let bin = |op, a, b| Expr::Binary(op, Box::new(a), Box::new(b));
        assert!(below_2_32(&z(32, Expr::Tid)));
        assert!(below_2_32(&bin(
            BinOp::UDiv,
            z(32, Expr::Tid),
            z(32, Expr::GroupSize)
        )));
        assert!(below_2_32(&Expr::Const(0xffff_ffff)));
        assert!(!below_2_32(&Expr::Const(1 << 32)));
        assert!(!below_2_32(&Expr::Tid));
        assert!(!below_2_32(&z(33, Expr::Tid)));
        assert!(!below_2_32(&bin(
            BinOp::Add,
            z(32, Expr::Tid),
            Expr::Const(1)
        )));
        assert!(below_2_32(&bin(
            BinOp::Add,
            z(16, Expr::Tid),
            Expr::Const(1)
        )));
    }
}
