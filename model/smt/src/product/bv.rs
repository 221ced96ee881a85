//! Bit-vector terms for the model's values (`convcheck_ir::expr`): 64-bit
//! wrapping arithmetic, comparisons 1 or 0, division and remainder by zero
//! 0 (and `i64::MIN / -1` is 0, as `checked_div` makes it), shifts modulo
//! 64, and the guard helpers symbolic execution merges states with
//! ([`super::symex`]).

use convcheck_ir::{BinOp, UnOp};
use z3::ast::{Bool, BV};

pub(crate) fn c64(v: i64) -> BV {
    BV::from_i64(v, 64)
}

/// The object an address is in (`convcheck_ir::exec::memory::object_key`):
/// its high 32 bits at or above `2^32`, `2^32` plus bits 16 to 31 in
/// `[2^31, 2^32)` (an object of a 32-bit address space), else 0.
pub(crate) fn object_key(addr: &BV) -> BV {
    let wide = addr.bvuge(c64(1 << 32));
    let narrow = addr.bvuge(c64(1 << 31));
    wide.ite(
        &addr.bvlshr(c64(32)),
        &narrow.ite(&addr.bvlshr(c64(16)).bvor(c64(1 << 32)), &c64(0)),
    )
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
}
