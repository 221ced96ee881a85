//! Floating-point values in the model (docs/src/llvm.md, "Floating point").
//!
//! A value of an IEEE-754 format (`half`, `bfloat`, `float`, `double`) is
//! its bit pattern, held like an integer of the format's width: the low
//! bits of the 64-bit value are the pattern, and every operation here reads
//! only them and zero-extends its result. So `bitcast`, loads and stores,
//! phis and selects of floats are those of integers.
//!
//! Each operation is exact IEEE-754 with round-to-nearest-even, computed
//! with Rust's `f32`/`f64` (`half` and `bfloat` through `f32`, rounded once
//! more to their format: exact for `+ - * / sqrt`, as `f32` has at least
//! `2p + 2` bits of precision for both). **NaN results** (LangRef,
//! "Behavior of Floating-Point NaN values"): a NaN's bits are its value
//! wherever it is moved (loads, stores, `bitcast`, `select`, phis,
//! [`FUn::Bits`]); `fneg`, `fabs` and `copysign` change only the sign bit,
//! also of a NaN. An arithmetic operation with a NaN operand yields that
//! operand unchanged (LangRef's "unchanged NaN propagation"; of two NaNs
//! the one with the smaller bits, so commuted operands agree), a product
//! or quotient with the other operand's sign folded in (so `x * -1.0` is
//! `fneg x`), `fsub a, b` being `fadd a, (fneg b)`; a conversion keeps the
//! NaN's sign and payload (shifted to the format). A NaN made from
//! non-NaN operands (`inf - inf`) is the format's canonical quiet NaN
//! (`0x7fc00000` for `float`). Each is one of the choices LangRef allows,
//! taken alike in the reference and the target, and the choice under which
//! LLVM's folds (`x * 1.0` to `x`, `fsub -0.0, x` to `fneg x`,
//! `fptrunc (fpext x)` to `x`, commuted operands) keep every bit.
//!
//! Conversions to integers (`fptosi`, `fptoui`) round toward zero; a value
//! out of the integer's range (or NaN) is poison in LangRef, and 0 here.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// `name` as a string that lives for the program (the names of float
/// operators, a finite set, for [`crate::BinOp::symbol`]).
pub(crate) fn intern(name: String) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(n) = names.get(name.as_str()) {
        return n;
    }
    let n: &'static str = Box::leak(name.into_boxed_str());
    names.insert(n);
    n
}

/// A floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FTy {
    /// IEEE binary16.
    Half,
    /// bfloat16 (8 exponent bits, 7 fraction bits).
    BFloat,
    /// IEEE binary32.
    Float,
    /// IEEE binary64.
    Double,
}

/// `fcmp`'s predicates (LangRef): `o` ordered (neither is NaN), `u`
/// unordered (either is NaN, or the relation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // The variants are LLVM's keywords.
pub enum FPred {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

/// A floating-point operation of one operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FUn {
    /// `fneg`: the sign bit flipped (of a NaN too).
    Neg(FTy),
    /// `llvm.fabs`.
    Abs(FTy),
    /// `llvm.sqrt`.
    Sqrt(FTy),
    /// `llvm.canonicalize`: the value itself, a NaN made canonical.
    Canon(FTy),
    /// The value's bits unchanged (NaN payloads too): how a float read
    /// from memory, a parameter or an atomic's result enters the model
    /// (the marker from which path enumeration gives it float values).
    Bits(FTy),
    /// `fptosi` to `iN`: the result sign-extended.
    ToSi(FTy, u8),
    /// `fptoui` to `iN`: the result zero-extended.
    ToUi(FTy, u8),
    /// `sitofp` from `iN` (its low `N` bits, signed).
    FromSi(u8, FTy),
    /// `uitofp` from `iN` (its low `N` bits, unsigned).
    FromUi(u8, FTy),
    /// `fpext` / `fptrunc` from the first format to the second.
    Convert(FTy, FTy),
}

/// A floating-point operation of two operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FBin {
    /// `fadd`.
    Add(FTy),
    /// `fsub`.
    Sub(FTy),
    /// `fmul`.
    Mul(FTy),
    /// `fdiv`.
    Div(FTy),
    /// `frem` (C's `fmod`).
    Rem(FTy),
    /// `llvm.minnum` (a NaN operand gives the other).
    MinNum(FTy),
    /// `llvm.maxnum`.
    MaxNum(FTy),
    /// `llvm.minimum` (IEEE 754-2019 `minimum`: a NaN operand gives a NaN,
    /// `-0.0` is below `+0.0`).
    Minimum(FTy),
    /// `llvm.maximum`.
    Maximum(FTy),
    /// `llvm.copysign`: the first's magnitude with the second's sign.
    CopySign(FTy),
    /// `fcmp`: 1 or 0.
    Cmp(FPred, FTy),
    /// `llvm.fma` of `float`: `fma(a, b, c)` is `Fma(a, (b << 32) | c)`,
    /// one rounding.
    Fma32,
}

impl FTy {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FTy::Half | FTy::BFloat => 16,
            FTy::Float => 32,
            FTy::Double => 64,
        }
    }

    /// LLVM's name.
    pub fn name(self) -> &'static str {
        match self {
            FTy::Half => "half",
            FTy::BFloat => "bfloat",
            FTy::Float => "float",
            FTy::Double => "double",
        }
    }

    /// The format LLVM calls `name`.
    pub fn from_name(name: &str) -> Option<FTy> {
        [FTy::Half, FTy::BFloat, FTy::Float, FTy::Double]
            .into_iter()
            .find(|t| t.name() == name)
    }

    /// Exponent and fraction bits.
    fn layout(self) -> (u32, u32) {
        match self {
            FTy::Half => (5, 10),
            FTy::BFloat => (8, 7),
            FTy::Float => (8, 23),
            FTy::Double => (11, 52),
        }
    }

    /// The mask of the format's bits.
    pub fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }

    /// The sign bit.
    pub fn sign_bit(self) -> u64 {
        1u64 << (self.bits() - 1)
    }

    /// The one NaN of the model.
    pub fn canonical_nan(self) -> u64 {
        let (e, m) = self.layout();
        (((1u64 << e) - 1) << m) | (1u64 << (m - 1))
    }

    /// Whether the low bits of `v` are a NaN.
    pub fn is_nan(self, v: u64) -> bool {
        let (e, m) = self.layout();
        let exp = (v >> m) & ((1u64 << e) - 1);
        exp == (1u64 << e) - 1 && v & ((1u64 << m) - 1) != 0
    }

    /// The exact value of the low bits of `v`, as an `f64`.
    pub fn decode(self, v: u64) -> f64 {
        let v = v & self.mask();
        match self {
            FTy::Double => f64::from_bits(v),
            FTy::Float => f64::from(f32::from_bits(v as u32)),
            FTy::BFloat => f64::from(f32::from_bits((v as u32) << 16)),
            FTy::Half => {
                let sign = if v & 0x8000 != 0 { -1.0 } else { 1.0 };
                let exp = (v >> 10) & 0x1f;
                let frac = (v & 0x3ff) as f64;
                sign * match exp {
                    0 => frac * 2f64.powi(-24),
                    31 if frac == 0.0 => f64::INFINITY,
                    31 => f64::NAN,
                    e => (1024.0 + frac) * 2f64.powi(e as i32 - 25),
                }
            }
        }
    }

    /// `x` rounded to this format (to nearest, ties to even), as its bits;
    /// a NaN is the canonical NaN.
    pub fn round(self, x: f64) -> u64 {
        if x.is_nan() {
            return self.canonical_nan();
        }
        match self {
            FTy::Double => return x.to_bits(),
            FTy::Float => return u64::from((x as f32).to_bits()),
            _ => {}
        }
        let (e, m) = self.layout();
        let sign = if x.is_sign_negative() {
            self.sign_bit()
        } else {
            0
        };
        let a = x.abs();
        let inf = ((1u64 << e) - 1) << m;
        if a.is_infinite() {
            return sign | inf;
        }
        if a == 0.0 {
            return sign;
        }
        let bias = (1i32 << (e - 1)) - 1;
        let emin = 1 - bias;
        // The exponent of `a` (`a` is at least 2^-1074; anything that small
        // rounds to zero in these formats).
        let exp = ((a.to_bits() >> 52) as i32 - 1023).max(emin);
        let scaled = a * 2f64.powi(m as i32 - exp);
        let mut q = scaled.round_ties_even() as u64;
        let mut exp = exp;
        if q >= 1u64 << (m + 1) {
            q >>= 1;
            exp += 1;
        }
        if q < 1u64 << m {
            return sign | q;
        }
        let biased = exp + bias;
        if biased >= (1 << e) - 1 {
            return sign | inf;
        }
        sign | ((biased as u64) << m) | (q - (1u64 << m))
    }
}

impl FPred {
    /// Every predicate, in LangRef's order.
    pub const ALL: [FPred; 16] = [
        FPred::False,
        FPred::Oeq,
        FPred::Ogt,
        FPred::Oge,
        FPred::Olt,
        FPred::Ole,
        FPred::One,
        FPred::Ord,
        FPred::Ueq,
        FPred::Ugt,
        FPred::Uge,
        FPred::Ult,
        FPred::Ule,
        FPred::Une,
        FPred::Uno,
        FPred::True,
    ];

    /// LLVM's keyword.
    pub fn name(self) -> &'static str {
        match self {
            FPred::False => "false",
            FPred::Oeq => "oeq",
            FPred::Ogt => "ogt",
            FPred::Oge => "oge",
            FPred::Olt => "olt",
            FPred::Ole => "ole",
            FPred::One => "one",
            FPred::Ord => "ord",
            FPred::Ueq => "ueq",
            FPred::Ugt => "ugt",
            FPred::Uge => "uge",
            FPred::Ult => "ult",
            FPred::Ule => "ule",
            FPred::Une => "une",
            FPred::Uno => "uno",
            FPred::True => "true",
        }
    }

    /// The predicate LLVM calls `name`.
    pub fn from_name(name: &str) -> Option<FPred> {
        FPred::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The predicate's value from the facts: unordered (either is NaN),
    /// and when ordered whether `a < b`, `a == b`, `a > b`.
    pub fn holds(self, unordered: bool, lt: bool, eq: bool, gt: bool) -> bool {
        let u = unordered;
        match self {
            FPred::False => false,
            FPred::True => true,
            FPred::Ord => !u,
            FPred::Uno => u,
            FPred::Oeq => !u && eq,
            FPred::Ogt => !u && gt,
            FPred::Oge => !u && (gt || eq),
            FPred::Olt => !u && lt,
            FPred::Ole => !u && (lt || eq),
            FPred::One => !u && !eq,
            FPred::Ueq => u || eq,
            FPred::Ugt => u || gt,
            FPred::Uge => u || gt || eq,
            FPred::Ult => u || lt,
            FPred::Ule => u || lt || eq,
            FPred::Une => u || !eq,
        }
    }
}

/// An operation of `ty` on `f32` (for `float`, `half`, `bfloat`) or `f64`,
/// rounded to `ty`.
fn arith(ty: FTy, x: u64, y: u64, f32op: fn(f32, f32) -> f32, f64op: fn(f64, f64) -> f64) -> u64 {
    match ty {
        FTy::Double => ty.round(f64op(ty.decode(x), ty.decode(y))),
        _ => ty.round(f64::from(f32op(ty.decode(x) as f32, ty.decode(y) as f32))),
    }
}

/// The value of `fcmp pred` on `x` and `y` (1 or 0).
pub fn compare(pred: FPred, ty: FTy, x: u64, y: u64) -> bool {
    let (a, b) = (ty.decode(x), ty.decode(y));
    let unordered = a.is_nan() || b.is_nan();
    pred.holds(unordered, a < b, a == b, a > b)
}

/// The NaN an operation with NaN operands `x` and `y` yields, if either
/// is one: the NaN operand (of two, the smaller bits), with the other
/// operand's sign folded in where `sign` (products and quotients).
fn propagated(t: FTy, x: u64, y: u64, sign: bool) -> Option<u64> {
    let (x, y) = (x & t.mask(), y & t.mask());
    let (n, other) = match (t.is_nan(x), t.is_nan(y)) {
        (false, false) => return None,
        (true, false) => (x, y),
        (false, true) => (y, x),
        (true, true) => (x.min(y), x.max(y)),
    };
    Some(if sign { n ^ (other & t.sign_bit()) } else { n })
}

/// A NaN of format `from` as a NaN of format `to`: sign and payload kept
/// (the payload shifted to the new fraction's top; quiet if none is left).
pub fn convert_nan(from: FTy, to: FTy, v: u64) -> u64 {
    let (_, mf) = from.layout();
    let (_, mt) = to.layout();
    let frac = v & ((1u64 << mf) - 1);
    let frac = if mt >= mf {
        frac << (mt - mf)
    } else {
        frac >> (mf - mt)
    };
    let frac = if frac == 0 { 1u64 << (mt - 1) } else { frac };
    let sign = if v & from.sign_bit() != 0 {
        to.sign_bit()
    } else {
        0
    };
    sign | (to.canonical_nan() & !((1u64 << mt) - 1)) | frac
}

/// The model's value of a floating-point operation of two operands.
pub fn binary(op: FBin, x: i64, y: i64) -> i64 {
    let (x, y) = (x as u64, y as u64);
    let nan = match op {
        FBin::Add(t) | FBin::Rem(t) | FBin::Minimum(t) | FBin::Maximum(t) => {
            propagated(t, x, y, false)
        }
        FBin::Mul(t) | FBin::Div(t) => propagated(t, x, y, true),
        FBin::MinNum(t) | FBin::MaxNum(t) if t.is_nan(x) && t.is_nan(y) => {
            propagated(t, x, y, false)
        }
        _ => None,
    };
    if let Some(n) = nan {
        return n as i64;
    }
    let r = match op {
        FBin::Add(t) => arith(t, x, y, |a, b| a + b, |a, b| a + b),
        FBin::Sub(t) => return binary(FBin::Add(t), x as i64, unary(FUn::Neg(t), y as i64)),
        FBin::Mul(t) => arith(t, x, y, |a, b| a * b, |a, b| a * b),
        FBin::Div(t) => arith(t, x, y, |a, b| a / b, |a, b| a / b),
        FBin::Rem(t) => arith(t, x, y, |a, b| a % b, |a, b| a % b),
        FBin::MinNum(t) => arith(t, x, y, f32::min, f64::min),
        FBin::MaxNum(t) => arith(t, x, y, f32::max, f64::max),
        FBin::Minimum(t) | FBin::Maximum(t) => {
            let (a, b) = (t.decode(x), t.decode(y));
            let max = matches!(op, FBin::Maximum(_));
            // Equal values: the zeros' signs decide (`-0.0 < +0.0`).
            let pick_x = if a == b {
                (x & t.sign_bit() == 0) == max
            } else {
                (a > b) == max
            };
            if pick_x {
                x & t.mask()
            } else {
                y & t.mask()
            }
        }
        FBin::CopySign(t) => {
            let s = t.sign_bit();
            (x & t.mask() & !s) | (y & s)
        }
        FBin::Cmp(p, t) => u64::from(compare(p, t, x, y)),
        FBin::Fma32 => {
            let t = FTy::Float;
            let (b, c) = ((y >> 32) & t.mask(), y & t.mask());
            if let Some(n) = propagated(t, x, b, true) {
                return n as i64;
            }
            if t.is_nan(c) {
                return c as i64;
            }
            let a = f32::from_bits(x as u32);
            let b = f32::from_bits(b as u32);
            let c = f32::from_bits(c as u32);
            t.round(f64::from(a.mul_add(b, c)))
        }
    };
    r as i64
}

/// The model's value of a floating-point operation of one operand.
pub fn unary(op: FUn, v: i64) -> i64 {
    let v = v as u64;
    let r = match op {
        FUn::Canon(t) if t.is_nan(v) => t.canonical_nan(),
        FUn::Canon(t) | FUn::Bits(t) => v & t.mask(),
        FUn::Neg(t) => (v ^ t.sign_bit()) & t.mask(),
        FUn::Abs(t) => v & t.mask() & !t.sign_bit(),
        FUn::Sqrt(t) | FUn::Convert(t, _) if t.is_nan(v) => match op {
            FUn::Convert(_, to) => convert_nan(t, to, v),
            _ => v & t.mask(),
        },
        FUn::Sqrt(FTy::Double) => FTy::Double.round(FTy::Double.decode(v).sqrt()),
        FUn::Sqrt(t) => t.round(f64::from((t.decode(v) as f32).sqrt())),
        FUn::Convert(from, to) => to.round(from.decode(v)),
        FUn::ToSi(t, n) => {
            let x = t.decode(v).trunc();
            let n = i32::from(n.clamp(1, 64));
            let lim = 2f64.powi(n - 1);
            if x.is_nan() || x < -lim || x >= lim {
                0
            } else {
                x as i64 as u64
            }
        }
        FUn::ToUi(t, n) => {
            let x = t.decode(v).trunc();
            let lim = 2f64.powi(i32::from(n.clamp(1, 64)));
            if x.is_nan() || x < 0.0 || x >= lim {
                0
            } else {
                x as u64
            }
        }
        FUn::FromSi(n, t) => {
            let x = crate::expr::unary(crate::UnOp::SExt(n.min(63)), v as i64);
            let x = if n >= 64 { v as i64 } else { x };
            match t {
                FTy::Double => (x as f64).to_bits(),
                // `i64 as f32` rounds once; a value of 2^24 or more is
                // infinite in `half` either way.
                _ => t.round(f64::from(x as f32)),
            }
        }
        FUn::FromUi(n, t) => {
            let x = if n >= 64 {
                v
            } else {
                crate::expr::unary(crate::UnOp::ZExt(n), v as i64) as u64
            };
            match t {
                FTy::Double => (x as f64).to_bits(),
                _ => t.round(f64::from(x as f32)),
            }
        }
    };
    r as i64
}

impl FUn {
    /// The name in the IR text form (`fneg.float`, `fptosi.float.i32`).
    pub fn name(self) -> String {
        match self {
            FUn::Neg(t) => format!("fneg.{}", t.name()),
            FUn::Abs(t) => format!("fabs.{}", t.name()),
            FUn::Sqrt(t) => format!("sqrt.{}", t.name()),
            FUn::Canon(t) => format!("canon.{}", t.name()),
            FUn::Bits(t) => format!("bits.{}", t.name()),
            FUn::ToSi(t, n) => format!("fptosi.{}.i{n}", t.name()),
            FUn::ToUi(t, n) => format!("fptoui.{}.i{n}", t.name()),
            FUn::FromSi(n, t) => format!("sitofp.i{n}.{}", t.name()),
            FUn::FromUi(n, t) => format!("uitofp.i{n}.{}", t.name()),
            FUn::Convert(a, b) => format!("fpconv.{}.{}", a.name(), b.name()),
        }
    }
}

impl FBin {
    /// The name in the IR text form (`fadd.float`, `fcmp.olt.float`).
    pub fn name(self) -> String {
        let (op, t) = match self {
            FBin::Add(t) => ("fadd", t),
            FBin::Sub(t) => ("fsub", t),
            FBin::Mul(t) => ("fmul", t),
            FBin::Div(t) => ("fdiv", t),
            FBin::Rem(t) => ("frem", t),
            FBin::MinNum(t) => ("minnum", t),
            FBin::MaxNum(t) => ("maxnum", t),
            FBin::Minimum(t) => ("minimum", t),
            FBin::Maximum(t) => ("maximum", t),
            FBin::CopySign(t) => ("copysign", t),
            FBin::Cmp(p, t) => return format!("fcmp.{}.{}", p.name(), t.name()),
            FBin::Fma32 => return "fma.float.packed".into(),
        };
        format!("{op}.{}", t.name())
    }

    /// Whether `op(a, b) == op(b, a)` for all `a` and `b` (of two NaN
    /// operands, the result is the same one either way).
    pub fn commutes(self) -> bool {
        match self {
            FBin::Add(_)
            | FBin::Mul(_)
            | FBin::MinNum(_)
            | FBin::MaxNum(_)
            | FBin::Minimum(_)
            | FBin::Maximum(_) => true,
            FBin::Cmp(p, _) => matches!(
                p,
                FPred::False
                    | FPred::True
                    | FPred::Oeq
                    | FPred::One
                    | FPred::Ord
                    | FPred::Ueq
                    | FPred::Une
                    | FPred::Uno
            ),
            _ => false,
        }
    }
}

/// The values enumeration tries for a free float of `t`, few because
/// every read of one multiplies the paths: 0, -1, a value whose square
/// rounds (`1 + 2^-12`, so that fusing `x*x - 1` shows), a value with a
/// full significand (`0.1`, so that two roundings differ from one), NaN
/// (where ordered and unordered comparisons differ).
pub fn interesting(t: FTy) -> Vec<i64> {
    let vals = [0.0, -1.0, 1.0 + 2f64.powi(-12), 0.1, f64::NAN];
    vals.iter().map(|v| t.round(*v) as i64).collect()
}

/// Whether any function of `m` computes on floating-point values.
pub fn in_module(m: &crate::Module) -> bool {
    m.functions.iter().any(|f| {
        f.blocks.iter().any(|b| {
            b.exprs().iter().any(|e| {
                e.any(&mut |x| {
                    matches!(
                        x,
                        crate::Expr::Unary(crate::UnOp::F(_), _)
                            | crate::Expr::Binary(crate::BinOp::F(_), _, _)
                    )
                })
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const F1: i64 = 0x3f80_0000;

    #[test]
    fn float_arithmetic_is_ieee() {
        assert_eq!(binary(FBin::Add(FTy::Float), F1, F1), 0x4000_0000);
        // A NaN operand is the result, its payload kept; a NaN made of
        // numbers is canonical; sign operations flip a NaN's sign.
        let nan = 0x7f80_0001;
        let f = FTy::Float;
        assert_eq!(binary(FBin::Add(f), nan, F1), nan);
        assert_eq!(binary(FBin::Add(f), F1, nan), nan);
        assert_eq!(binary(FBin::Add(f), 0x7f80_0000, 0xff80_0000), 0x7fc0_0000);
        assert_eq!(unary(FUn::Neg(f), nan), 0xff80_0001);
        // x * -1.0 is fneg x, fsub -0.0, x is fneg x, x * 1.0 is x.
        assert_eq!(binary(FBin::Mul(f), nan, 0xbf80_0000), 0xff80_0001);
        assert_eq!(binary(FBin::Sub(f), 0x8000_0000, nan), 0xff80_0001);
        assert_eq!(binary(FBin::Mul(f), nan, F1), nan);
        // Two NaNs: the smaller bits, either order.
        let q = 0x7fc0_1234;
        assert_eq!(binary(FBin::Add(f), q, nan), nan);
        assert_eq!(binary(FBin::Add(f), nan, q), nan);
        // minimum/maximum: -0.0 below +0.0, a NaN operand propagated.
        assert_eq!(binary(FBin::Maximum(f), 0x8000_0000, 0), 0);
        assert_eq!(binary(FBin::Minimum(f), 0, 0x8000_0000), 0x8000_0000);
        assert_eq!(binary(FBin::Maximum(f), F1, nan), nan);
        assert_eq!(binary(FBin::Minimum(f), F1, 0xbf80_0000), 0xbf80_0000);
        // fptrunc (fpext x) is x.
        let d = unary(FUn::Convert(f, FTy::Double), q);
        assert!(FTy::Double.is_nan(d as u64));
        assert_eq!(unary(FUn::Convert(FTy::Double, f), d), q);
        assert_eq!(unary(FUn::Neg(FTy::Float), F1), 0xbf80_0000);
        // -0.0 == 0.0, NaN is unordered.
        assert_eq!(binary(FBin::Cmp(FPred::Oeq, FTy::Float), 0x8000_0000, 0), 1);
        assert_eq!(binary(FBin::Cmp(FPred::Olt, FTy::Float), nan, F1), 0);
        assert_eq!(binary(FBin::Cmp(FPred::Ult, FTy::Float), nan, F1), 1);
        // fma rounds once: (1 + 2^-12)^2 - 1.
        let x = 0x3f80_0800i64;
        let m = binary(FBin::Mul(FTy::Float), x, x);
        let unfused = binary(FBin::Add(FTy::Float), m, 0xbf80_0000);
        let fused = binary(FBin::Fma32, x, (x << 32) | 0xbf80_0000);
        assert_ne!(unfused, fused);
    }

    #[test]
    fn half_and_bfloat_round_once() {
        // 1.0 + 1.0 in half; 65504 + 16 overflows to infinity.
        assert_eq!(binary(FBin::Add(FTy::Half), 0x3c00, 0x3c00), 0x4000);
        assert_eq!(binary(FBin::Add(FTy::Half), 0x7bff, 0x4c00), 0x7c00);
        assert_eq!(FTy::Half.round(2f64.powi(-24)), 1);
        assert_eq!(FTy::Half.round(2f64.powi(-26)), 0);
        assert_eq!(FTy::Half.decode(0x0001), 2f64.powi(-24));
        assert_eq!(FTy::BFloat.round(1.0), 0x3f80);
        assert_eq!(unary(FUn::Convert(FTy::Float, FTy::Half), F1), 0x3c00);
        for bits in 0..=0xffffu64 {
            let t = FTy::Half;
            if !t.is_nan(bits) {
                assert_eq!(t.round(t.decode(bits)), bits, "{bits:#x}");
            }
            let b = FTy::BFloat;
            if !b.is_nan(bits) {
                assert_eq!(b.round(b.decode(bits)), bits, "{bits:#x}");
            }
        }
    }

    #[test]
    fn conversions() {
        assert_eq!(unary(FUn::ToSi(FTy::Float, 32), 0xc0a0_0000), -5);
        assert_eq!(unary(FUn::ToSi(FTy::Float, 8), 0x4400_0000), 0); // 512: poison
        assert_eq!(unary(FUn::FromSi(32, FTy::Float), 0xffff_ffff), 0xbf80_0000);
        assert_eq!(unary(FUn::FromUi(32, FTy::Float), 0xffff_ffff), 0x4f80_0000);
        assert_eq!(
            unary(FUn::Convert(FTy::Float, FTy::Double), F1),
            1f64.to_bits() as i64
        );
    }
}
