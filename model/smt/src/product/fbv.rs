//! Floating-point operations in the symbolic engines (`convcheck_ir::float`
//! is their exact meaning; docs/src/llvm.md, "Floating point").
//!
//! The z3 crate (0.22) has no safe way from a bit-vector to a float, so
//! the arithmetic is not IEEE here but **uninterpreted**: `fadd.float(a, b)`
//! is a function of the operands' bits that z3 may choose freely, the same
//! function wherever it is applied. Every IEEE behaviour is one of its
//! interpretations, so a query without a counterexample proves the property
//! for IEEE too; a counterexample may hold only for a function IEEE is not,
//! so every one is replayed by the exact interpreter, and one that does not
//! replay makes the engine inconclusive (never a violation).
//!
//! What IEEE makes equal, the encoding makes equal by construction:
//! - commutative operations (`fadd`, `fmul`, `minnum`, `maxnum`, the first
//!   two operands of `fma`, the symmetric `fcmp` predicates) take their
//!   operands in a canonical order, so `a + b` and `b + a` are one term;
//! - `x - y` is `x + (-y)`, `x * 2.0` is `x + x`, `x * 1.0`, `x / 1.0`
//!   and `x + -0.0` are `x`, `x / 2.0` is `x * 0.5`: each exact in IEEE
//!   with the model's NaN results;
//! - operations on constants are computed exactly.
//!
//! `fcmp`, `fneg`, `fabs`, `copysign`, the canonical NaN and the NaN
//! results of every operation with a NaN operand (the operand propagated,
//! `convcheck_ir::float`) are exact bit-vector logic; only the values of
//! operations on numbers are uninterpreted.

use convcheck_ir::float::{self, FBin, FPred, FTy, FUn};
use z3::ast::{Bool, BV};
use z3::{FuncDecl, Sort};

/// The low bits of `x` that hold a value of `t`.
fn low(t: FTy, x: &BV) -> BV {
    if t.bits() == 64 {
        x.clone()
    } else {
        x.extract(t.bits() - 1, 0)
    }
}

/// `v` (of `t`'s width) zero-extended to 64 bits.
fn widen(t: FTy, v: BV) -> BV {
    if t.bits() == 64 {
        v
    } else {
        v.zero_ext(64 - t.bits())
    }
}

fn num(t: FTy, v: u64) -> BV {
    BV::from_u64(v & t.mask(), t.bits())
}

/// Whether `v` (of `t`'s width) is a NaN.
fn is_nan(t: FTy, v: &BV) -> Bool {
    let e_mask = num(t, exp_mask(t));
    let f_mask = num(t, frac_mask(t));
    Bool::and(&[
        v.bvand(&e_mask).eq(&e_mask),
        v.bvand(&f_mask).eq(num(t, 0)).not(),
    ])
}

fn exp_mask(t: FTy) -> u64 {
    // The canonical NaN is the exponent's bits plus the top fraction bit.
    let nan = t.canonical_nan();
    nan & !(frac_mask(t))
}

fn frac_mask(t: FTy) -> u64 {
    // The fraction is everything below the canonical NaN's lowest set bit,
    // and that bit.
    let nan = t.canonical_nan();
    let top = nan & nan.wrapping_neg();
    top | (top - 1)
}

/// `v` with a NaN made canonical.
fn canon(t: FTy, v: &BV) -> BV {
    is_nan(t, v).ite(&num(t, t.canonical_nan()), v)
}

/// Whether `a` or `b` (of `t`'s width) is a NaN, and then the NaN an
/// operation on them yields (`convcheck_ir::float::binary`): the NaN
/// operand, of two the smaller bits, with the other operand's sign folded
/// in where `sign`.
fn propagated(t: FTy, a: &BV, b: &BV, sign: bool) -> (Bool, BV) {
    let (na, nb) = (is_nan(t, a), is_nan(t, b));
    let both = Bool::and(&[na.clone(), nb.clone()]);
    let le = a.bvule(b);
    let n = both.ite(&le.ite(a, b), &na.ite(a, b));
    let n = if sign {
        let other = both.ite(&le.ite(b, a), &na.ite(b, a));
        n.bvxor(other.bvand(num(t, t.sign_bit())))
    } else {
        n
    };
    (Bool::or(&[na, nb]), n)
}

/// A NaN `v` of format `from` as a NaN of format `to`
/// (`convcheck_ir::float::convert_nan`).
fn convert_nan(from: FTy, to: FTy, v: &BV) -> BV {
    let m = |t: FTy| frac_mask(t).count_ones();
    let (mf, mt) = (m(from), m(to));
    let frac = v.extract(mf - 1, 0);
    let frac = if mt > mf {
        frac.concat(BV::from_u64(0, mt - mf))
    } else {
        frac.extract(mf - 1, mf - mt)
    };
    let frac = frac
        .eq(BV::from_u64(0, mt))
        .ite(&BV::from_u64(1 << (mt - 1), mt), &frac);
    let sign = v.extract(from.bits() - 1, from.bits() - 1);
    let exp = BV::from_u64(u64::MAX, to.bits() - 1 - mt);
    sign.concat(&exp).concat(&frac)
}

/// The constant value of a 64-bit numeral.
fn konst(x: &BV) -> Option<i64> {
    x.as_u64().map(|v| v as i64)
}

/// An uninterpreted function `name` of `args` (each `w` bits) to `w` bits.
fn uf(name: &str, w: u32, args: &[&BV]) -> BV {
    let sort = Sort::bitvector(w);
    let domain: Vec<&Sort> = args.iter().map(|_| &sort).collect();
    let f = FuncDecl::new(format!("convcheck.{name}"), &domain, &sort);
    let dyn_args: Vec<&dyn z3::ast::Ast> = args.iter().map(|a| *a as &dyn z3::ast::Ast).collect();
    f.apply(&dyn_args)
        .as_bv()
        .expect("an uninterpreted function of bit-vectors yields a bit-vector")
}

/// `(a, b)` in a canonical order.
fn ordered(a: BV, b: BV) -> (BV, BV) {
    let le = a.bvule(&b);
    (le.ite(&a, &b), le.ite(&b, &a))
}

/// `fcmp pred` on two values of `t`'s width, exactly.
fn compare(p: FPred, t: FTy, a: &BV, b: &BV) -> Bool {
    let sign = num(t, t.sign_bit());
    let mag = num(t, t.mask() & !t.sign_bit());
    let zero = num(t, 0);
    let unordered = Bool::or(&[is_nan(t, a), is_nan(t, b)]);
    let (ma, mb) = (a.bvand(&mag), b.bvand(&mag));
    let both_zero = Bool::and(&[ma.eq(&zero), mb.eq(&zero)]);
    let (na, nb) = (a.bvand(&sign).eq(&sign), b.bvand(&sign).eq(&sign));
    let eq = Bool::or(&[a.eq(b), both_zero.clone()]);
    // a < b for ordered values: different signs (not both zero), or the
    // magnitudes in the order of the common sign.
    let lt = Bool::and(&[
        both_zero.not(),
        Bool::or(&[
            Bool::and(&[na.clone(), nb.not()]),
            Bool::and(&[na.not(), nb.not(), ma.bvult(&mb)]),
            Bool::and(&[na, nb, mb.bvult(&ma)]),
        ]),
    ]);
    let gt = Bool::and(&[eq.not(), lt.not()]);
    let u = unordered;
    let f = Bool::from_bool(false);
    let t_ = Bool::from_bool(true);
    let ord = u.not();
    match p {
        FPred::False => f,
        FPred::True => t_,
        FPred::Ord => ord,
        FPred::Uno => u,
        FPred::Oeq => Bool::and(&[ord, eq]),
        FPred::Ogt => Bool::and(&[ord, gt]),
        FPred::Oge => Bool::and(&[ord, Bool::or(&[gt, eq])]),
        FPred::Olt => Bool::and(&[ord, lt]),
        FPred::Ole => Bool::and(&[ord, Bool::or(&[lt, eq])]),
        FPred::One => Bool::and(&[ord, eq.not()]),
        FPred::Ueq => Bool::or(&[u, eq]),
        FPred::Ugt => Bool::or(&[u, gt]),
        FPred::Uge => Bool::or(&[u, gt, eq]),
        FPred::Ult => Bool::or(&[u, lt]),
        FPred::Ule => Bool::or(&[u, lt, eq]),
        FPred::Une => Bool::or(&[u, eq.not()]),
    }
}

/// A floating-point operation of one operand on 64-bit values.
pub(crate) fn unary(op: FUn, x: &BV) -> BV {
    if let Some(c) = konst(x) {
        return BV::from_i64(float::unary(op, c), 64);
    }
    match op {
        FUn::Canon(t) => widen(t, canon(t, &low(t, x))),
        FUn::Bits(t) => widen(t, low(t, x)),
        FUn::Neg(t) => {
            let v = low(t, x);
            widen(t, v.bvxor(num(t, t.sign_bit())))
        }
        FUn::Abs(t) => {
            let v = low(t, x);
            widen(t, v.bvand(num(t, t.mask() & !t.sign_bit())))
        }
        FUn::Sqrt(t) => {
            let v = low(t, x);
            let r = uf(&format!("sqrt.{}", t.name()), t.bits(), &[&v]);
            widen(t, is_nan(t, &v).ite(&v, &r))
        }
        FUn::Convert(a, b) if a == b => widen(a, low(a, x)),
        // Any other operation: a function of the operand's 64 bits (the
        // integer ones read their low bits, the float ones the format's).
        _ => {
            let arg = match op {
                FUn::ToSi(t, _) | FUn::ToUi(t, _) | FUn::Convert(t, _) => widen(t, low(t, x)),
                FUn::FromSi(n, _) | FUn::FromUi(n, _) if n < 64 => {
                    x.extract(u32::from(n) - 1, 0).zero_ext(64 - u32::from(n))
                }
                _ => x.clone(),
            };
            let r = uf(&op.name(), 64, &[&arg]);
            match op {
                FUn::ToSi(_, n) if n < 64 => {
                    r.extract(u32::from(n) - 1, 0).sign_ext(64 - u32::from(n))
                }
                FUn::ToUi(_, n) if n < 64 => {
                    r.extract(u32::from(n) - 1, 0).zero_ext(64 - u32::from(n))
                }
                FUn::Convert(f, t) => {
                    let v = low(f, x);
                    let nan = convert_nan(f, t, &v);
                    widen(t, is_nan(f, &v).ite(&nan, &canon(t, &low(t, &r))))
                }
                FUn::FromSi(_, t) | FUn::FromUi(_, t) => widen(t, canon(t, &low(t, &r))),
                _ => r,
            }
        }
    }
}

/// A floating-point operation of two operands on 64-bit values.
pub(crate) fn binary(op: FBin, x: &BV, y: &BV) -> BV {
    if let (Some(a), Some(b)) = (konst(x), konst(y)) {
        return BV::from_i64(float::binary(op, a, b), 64);
    }
    let bits = |t: FTy, v: f64| BV::from_i64(t.round(v) as i64, 64);
    let is = |v: &BV, t: FTy, f: f64| konst(v).is_some_and(|c| (c as u64) & t.mask() == t.round(f));
    match op {
        FBin::Sub(t) => binary(FBin::Add(t), x, &unary(FUn::Neg(t), y)),
        FBin::Mul(t) if is(y, t, 2.0) => binary(FBin::Add(t), x, x),
        FBin::Mul(t) if is(x, t, 2.0) => binary(FBin::Add(t), y, y),
        FBin::Mul(t) if is(y, t, 1.0) => unary(FUn::Bits(t), x),
        FBin::Mul(t) if is(x, t, 1.0) => unary(FUn::Bits(t), y),
        FBin::Div(t) if is(y, t, 1.0) => unary(FUn::Bits(t), x),
        FBin::Div(t) if is(y, t, 2.0) => binary(FBin::Mul(t), x, &bits(t, 0.5)),
        FBin::Add(t) if is(y, t, -0.0) => unary(FUn::Bits(t), x),
        FBin::Add(t) if is(x, t, -0.0) => unary(FUn::Bits(t), y),
        FBin::Cmp(p, t) => {
            let r = compare(p, t, &low(t, x), &low(t, y));
            r.ite(&BV::from_i64(1, 64), &BV::from_i64(0, 64))
        }
        FBin::CopySign(t) => {
            let (a, b) = (low(t, x), low(t, y));
            let mag = a.bvand(num(t, t.mask() & !t.sign_bit()));
            let v = mag.bvor(b.bvand(num(t, t.sign_bit())));
            widen(t, v)
        }
        FBin::Fma32 => {
            let t = FTy::Float;
            let (a, b) = ordered(low(t, x), y.extract(63, 32));
            let c = y.extract(31, 0);
            let (nan_ab, n_ab) = propagated(t, &a, &b, true);
            let r = canon(t, &uf("fma.float", 32, &[&a, &b, &c]));
            widen(t, nan_ab.ite(&n_ab, &is_nan(t, &c).ite(&c, &r)))
        }
        FBin::Add(t)
        | FBin::Mul(t)
        | FBin::Div(t)
        | FBin::Rem(t)
        | FBin::MinNum(t)
        | FBin::MaxNum(t)
        | FBin::Minimum(t)
        | FBin::Maximum(t) => {
            let (a, b) = (low(t, x), low(t, y));
            let (a, b) = if op.commutes() { ordered(a, b) } else { (a, b) };
            let r = canon(t, &uf(&op.name(), t.bits(), &[&a, &b]));
            let (any, n) = propagated(t, &a, &b, matches!(op, FBin::Mul(_) | FBin::Div(_)));
            let r = match op {
                // A NaN operand gives the other; two NaNs, one of them.
                FBin::MinNum(_) | FBin::MaxNum(_) => {
                    let (na, nb) = (is_nan(t, &a), is_nan(t, &b));
                    let both = Bool::and(&[na.clone(), nb.clone()]);
                    both.ite(&n, &na.ite(&b, &nb.ite(&a, &r)))
                }
                _ => any.ite(&n, &r),
            };
            widen(t, r)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Ast;

    fn c(v: u64) -> BV {
        BV::from_u64(v, 64)
    }

    /// The exact parts agree with the interpreter on edge values, applied
    /// to terms that are not numerals (so the bit-vector logic runs).
    #[test]
    fn exact_parts_agree_with_the_interpreter() {
        let t = FTy::Float;
        let vals = [
            0u64,
            0x8000_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0xffc0_1234,
            1,
            0x8000_0001,
            0x7f7f_ffff,
        ];
        let zero = BV::new_const("zero", 64);
        let s = z3::Solver::new();
        s.assert(zero.eq(c(0)));
        s.check();
        let m = s.get_model().expect("a model");
        let opaque = |v: u64| c(v).bvadd(&zero);
        for &a in &vals {
            let d = FTy::Double;
            for op in [
                FUn::Neg(t),
                FUn::Abs(t),
                FUn::Canon(t),
                FUn::Bits(t),
                FUn::Convert(t, d),
            ] {
                if matches!(op, FUn::Convert(..)) && !t.is_nan(a) {
                    continue; // a number: uninterpreted
                }
                let want = float::unary(op, a as i64) as u64;
                let got = m
                    .eval(&unary(op, &opaque(a)), true)
                    .and_then(|v| v.as_u64());
                assert_eq!(got, Some(want), "{op:?} {a:#x}");
            }
            for &b in &vals {
                let mut ops: Vec<FBin> = FPred::ALL.iter().map(|p| FBin::Cmp(*p, t)).collect();
                ops.push(FBin::CopySign(t));
                if t.is_nan(a) || t.is_nan(b) {
                    // The NaN results of arithmetic are exact.
                    ops.extend([
                        FBin::Add(t),
                        FBin::Sub(t),
                        FBin::Mul(t),
                        FBin::Div(t),
                        FBin::Rem(t),
                        FBin::MinNum(t),
                        FBin::MaxNum(t),
                        FBin::Minimum(t),
                        FBin::Maximum(t),
                    ]);
                }
                for op in ops {
                    let want = float::binary(op, a as i64, b as i64) as u64;
                    let got = m
                        .eval(&binary(op, &opaque(a), &opaque(b)), true)
                        .and_then(|v| v.as_u64());
                    assert_eq!(got, Some(want), "{op:?} {a:#x} {b:#x}");
                }
            }
        }
        assert!(!is_nan(t, &BV::from_u64(0x7f80_0000, 32))
            .simplify()
            .as_bool()
            .unwrap_or(true));
    }

    /// Commuted operands and the exact rewrites give one term.
    #[test]
    fn ieee_equalities_hold_by_construction() {
        let t = FTy::Float;
        let (a, b) = (BV::new_const("a", 64), BV::new_const("b", 64));
        let s = z3::Solver::new();
        let two = c(0x4000_0000);
        let pairs = [
            (binary(FBin::Add(t), &a, &b), binary(FBin::Add(t), &b, &a)),
            (binary(FBin::Mul(t), &a, &two), binary(FBin::Add(t), &a, &a)),
            (
                binary(FBin::Sub(t), &c(0x8000_0000), &a),
                unary(FUn::Neg(t), &a),
            ),
            // NaN payloads included: x * 1.0 and x + -0.0 are x.
            (
                binary(FBin::Mul(t), &a, &c(0x3f80_0000)),
                unary(FUn::Bits(t), &a),
            ),
            (
                binary(FBin::Add(t), &c(0x8000_0000), &a),
                unary(FUn::Bits(t), &a),
            ),
        ];
        for (l, r) in pairs {
            s.push();
            s.assert(l.eq(&r).not());
            assert_eq!(s.check(), z3::SatResult::Unsat);
            s.pop(1);
        }
        // Non-commutative operations stay apart.
        s.assert(
            binary(FBin::Sub(t), &a, &b)
                .eq(binary(FBin::Sub(t), &b, &a))
                .not(),
        );
        assert_eq!(s.check(), z3::SatResult::Sat);
    }
}
