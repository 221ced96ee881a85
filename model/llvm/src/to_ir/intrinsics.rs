//! The integer intrinsics as exact expressions of the model's own operators
//! (LangRef "Bit Manipulation Intrinsics", "Arithmetic with Saturation
//! Intrinsics"; issue 21 item 1).
//!
//! Every intrinsic here is written with the operators both engines already
//! share (`+`, `&`, `lshr`, `ult`, `select`, ...), so the explicit
//! interpreter and the z3 encoding give it the same value by construction:
//! no engine has a rule of its own for it. Each expansion is linear in the
//! operand's width `N` (at most 128 copies of an operand, which is a local
//! or a constant, never an expression with effects). `ctpop` and `cttz`
//! add bit fields pairwise (six 64-bit additions instead of 64): z3
//! bit-blasts every `+` at 64 bits, and the sum of 64 terms cost the
//! simulation engine its whole work budget on a `cttz.i64` (about 6 s).
//!
//! | intrinsic | expression (`x` the operand, `x'` its zero extension from `N` bits) |
//! | --- | --- |
//! | `llvm.ctpop.iN(x)` | `popcount(x & (2^N - 1))`: halving sums of bit fields (Hacker's Delight 5-1), a few additions |
//! | `llvm.ctlz.iN(x, z)` | `Σ_{k<N} (x' ult 2^k)` (`N` at `x = 0`) |
//! | `llvm.cttz.iN(x, z)` | `popcount(((x & -x) - 1) & (2^N - 1))` (`N` at `x = 0`) |
//! | `llvm.bswap.iN(x)` | bytes moved one by one |
//! | `llvm.bitreverse.iN(x)` | bits moved one by one |
//! | `llvm.fshl.iN(a, b, s)` | `s' == 0 ? a : (a << s') \| (b' lshr (N - s'))`, `s' = s' mod N` |
//! | `llvm.fshr.iN(a, b, s)` | `s' == 0 ? b : (b' lshr s') \| (a << (N - s'))` |
//! | `llvm.uadd.sat.iN(a, b)` | `(a + b)' ult a' ? -1 : a + b` |
//! | `llvm.usub.sat.iN(a, b)` | `a' ult b' ? 0 : a - b` |
//! | `llvm.sadd.sat.iN(a, b)` | on signed overflow (`sextN((r ^ a) & (r ^ b)) < 0`, `r = a + b`) the bound of `a`'s sign, else `r` |
//! | `llvm.ssub.sat.iN(a, b)` | likewise with `sextN((a ^ b) & (a ^ r)) < 0`, `r = a - b` |
//!
//! | `llvm.{s,u}{add,sub,mul}.with.overflow.iN(a, b)` | `{ r, o }` ([`expand_overflow`]): `r` the wrapped result; `o` as the saturating forms' test for `add`/`sub`; for `mul` up to 32 bits the exact 64-bit product does not fit `N` bits, above 32 bits `a != 0 & (r / a != b)` |
//!
//! The NVVM spellings `llvm.nvvm.popc.i`/`.ll`, `llvm.nvvm.clz.i`/`.ll`
//! and `llvm.nvvm.brev32`/`64` are the same operations (their result of
//! `clz(0)` is the width, as `ctlz` with `z = false`).
//!
//! **Poison.** `ctlz` and `cttz` with `is_zero_poison = true` are poison at
//! `x = 0`: the value computed there is `N`, and the result's shadow says
//! it is poison (`super::poison`), so a branch on it or a store of it
//! there is undefined behaviour; a target that turns a defined
//! `cttz(x, false)` into `cttz(x, true)` where `x` may be 0 and stores it
//! is caught (`examples/semantics/int-cttz-zero-poison-added`).
//! The result is exact below bit 7 and above it 0, so it is its own
//! zero extension.
#![deny(unsafe_code)]

use convcheck_ir::{BinOp, Expr};

use super::values::{bin, sext, zext, Norm};

/// An integer intrinsic the model computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntOp {
    /// `llvm.ctpop`
    Ctpop,
    /// `llvm.ctlz`
    Ctlz,
    /// `llvm.cttz`
    Cttz,
    /// `llvm.bswap`
    Bswap,
    /// `llvm.bitreverse`
    Bitreverse,
    /// `llvm.fshl`
    Fshl,
    /// `llvm.fshr`
    Fshr,
    /// `llvm.uadd.sat`, `llvm.sadd.sat`
    AddSat { signed: bool },
    /// `llvm.usub.sat`, `llvm.ssub.sat`
    SubSat { signed: bool },
}

impl IntOp {
    /// How many integer operands the expansion reads (a trailing `i1`
    /// flag, as `ctlz`'s, is not one).
    pub fn operands(self) -> usize {
        match self {
            IntOp::Ctpop | IntOp::Ctlz | IntOp::Cttz | IntOp::Bswap | IntOp::Bitreverse => 1,
            IntOp::AddSat { .. } | IntOp::SubSat { .. } => 2,
            IntOp::Fshl | IntOp::Fshr => 3,
        }
    }
}

/// The integer intrinsic called `stem` (the name without its `.iN` type
/// suffix), if the model computes it.
pub(crate) fn int_op(stem: &str) -> Option<IntOp> {
    Some(match stem {
        "llvm.ctpop" | "llvm.nvvm.popc.i" | "llvm.nvvm.popc.ll" => IntOp::Ctpop,
        "llvm.ctlz" | "llvm.nvvm.clz.i" | "llvm.nvvm.clz.ll" => IntOp::Ctlz,
        "llvm.cttz" => IntOp::Cttz,
        "llvm.bswap" => IntOp::Bswap,
        "llvm.bitreverse" | "llvm.nvvm.brev32" | "llvm.nvvm.brev64" => IntOp::Bitreverse,
        "llvm.fshl" => IntOp::Fshl,
        "llvm.fshr" => IntOp::Fshr,
        "llvm.uadd.sat" => IntOp::AddSat { signed: false },
        "llvm.sadd.sat" => IntOp::AddSat { signed: true },
        "llvm.usub.sat" => IntOp::SubSat { signed: false },
        "llvm.ssub.sat" => IntOp::SubSat { signed: true },
        _ => return None,
    })
}

/// The arithmetic of an `llvm.*.with.overflow` intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overflow {
    Add,
    Sub,
    Mul,
}

/// The `llvm.*.with.overflow` intrinsic called `stem` (without its `.iN`
/// suffix): its arithmetic and whether it is signed.
pub(crate) fn overflow_op(stem: &str) -> Option<(Overflow, bool)> {
    Some(match stem {
        "llvm.sadd.with.overflow" => (Overflow::Add, true),
        "llvm.uadd.with.overflow" => (Overflow::Add, false),
        "llvm.ssub.with.overflow" => (Overflow::Sub, true),
        "llvm.usub.with.overflow" => (Overflow::Sub, false),
        "llvm.smul.with.overflow" => (Overflow::Mul, true),
        "llvm.umul.with.overflow" => (Overflow::Mul, false),
        _ => return None,
    })
}

/// The two fields of `llvm.{s,u}{add,sub,mul}.with.overflow.iN(x, y)`
/// (LangRef): the wrapped result (its low `N` bits are the value) and the
/// overflow flag, 0 or 1.
pub(crate) fn expand_overflow(
    op: Overflow,
    signed: bool,
    n: u32,
    x: Expr,
    y: Expr,
) -> (Expr, Expr) {
    let n = n.clamp(1, 64);
    let z = |e: Expr| zext(e, n, Norm::default());
    let s = |e: Expr| sext(e, n, Norm::default());
    match (op, signed) {
        (Overflow::Add, false) => {
            let r = bin(BinOp::Add, x.clone(), y);
            let o = bin(BinOp::ULt, z(r.clone()), z(x));
            (r, o)
        }
        (Overflow::Sub, false) => {
            let r = bin(BinOp::Sub, x.clone(), y.clone());
            (r, bin(BinOp::ULt, z(x), z(y)))
        }
        (Overflow::Add | Overflow::Sub, true) => {
            let add = op == Overflow::Add;
            let r = bin(
                if add { BinOp::Add } else { BinOp::Sub },
                x.clone(),
                y.clone(),
            );
            let crossed = if add {
                bin(
                    BinOp::BitAnd,
                    bin(BinOp::BitXor, r.clone(), x),
                    bin(BinOp::BitXor, r.clone(), y),
                )
            } else {
                bin(
                    BinOp::BitAnd,
                    bin(BinOp::BitXor, x.clone(), y),
                    bin(BinOp::BitXor, x, r.clone()),
                )
            };
            (r, bin(BinOp::Lt, s(crossed), c(0)))
        }
        (Overflow::Mul, false) if n <= 32 => {
            let p = bin(BinOp::Mul, z(x), z(y));
            let o = bin(
                BinOp::Ne,
                bin(BinOp::LShr, p.clone(), c(i64::from(n))),
                c(0),
            );
            (p, o)
        }
        (Overflow::Mul, true) if n <= 32 => {
            let p = bin(BinOp::Mul, s(x), s(y));
            (p.clone(), bin(BinOp::Ne, s(p.clone()), p))
        }
        (Overflow::Mul, false) => {
            // `a·b mod 2^N` divided by `a` is `b` exactly when `a·b < 2^N`.
            let (a, b) = (z(x), z(y));
            let r = bin(BinOp::Mul, a.clone(), b.clone());
            let back = bin(BinOp::UDiv, z(r.clone()), a.clone());
            let o = bin(
                BinOp::BitAnd,
                bin(BinOp::Ne, a, c(0)),
                bin(BinOp::Ne, back, b),
            );
            (r, o)
        }
        (Overflow::Mul, true) => {
            // Likewise signed; `MIN / -1` is 0 to both engines
            // (`convcheck_ir::expr::binary`), so `a = -1, b = MIN` (the
            // product wraps to MIN) overflows as it must.
            let (a, b) = (s(x), s(y));
            let r = bin(BinOp::Mul, a.clone(), b.clone());
            let back = bin(BinOp::Div, s(r.clone()), a.clone());
            let o = bin(
                BinOp::BitAnd,
                bin(BinOp::Ne, a, c(0)),
                bin(BinOp::Ne, back, b),
            );
            (r, o)
        }
    }
}

fn c(v: i64) -> Expr {
    Expr::Const(v)
}

fn select(t: Expr, a: Expr, b: Expr) -> Expr {
    match t {
        Expr::Const(0) => b,
        Expr::Const(_) => a,
        t => Expr::Select(Box::new(t), Box::new(a), Box::new(b)),
    }
}

/// `Σ terms` (0 when empty), folding constants.
fn sum(terms: impl IntoIterator<Item = Expr>) -> Expr {
    terms
        .into_iter()
        .reduce(|a, b| bin(BinOp::Add, a, b))
        .unwrap_or(c(0))
}

/// `x`'s bits `k..k+len` moved to `to`: `((x lshr k) & mask) << to`.
fn field(x: &Expr, k: u32, len: u32, to: u32) -> Expr {
    let mask = if len >= 64 {
        -1
    } else {
        ((1u64 << len) - 1) as i64
    };
    let bits = bin(
        BinOp::BitAnd,
        bin(BinOp::LShr, x.clone(), c(i64::from(k))),
        c(mask),
    );
    bin(BinOp::Shl, bits, c(i64::from(to)))
}

/// The number of set bits of `y`, whose bits from `n` up are 0, by the
/// halving sums of Hacker's Delight 5-1 (a few additions instead of `n`:
/// z3 bit-blasts each `+` at 64 bits).
fn popcount(y: Expr, n: u32) -> Expr {
    let m = |p: u64| c(p as i64);
    let half = |y: Expr, k: u32, mask: u64| {
        bin(
            BinOp::Add,
            bin(BinOp::BitAnd, y.clone(), m(mask)),
            bin(BinOp::BitAnd, bin(BinOp::LShr, y, c(i64::from(k))), m(mask)),
        )
    };
    let mut y = half(y, 1, 0x5555_5555_5555_5555);
    if n > 2 {
        y = half(y, 2, 0x3333_3333_3333_3333);
    }
    if n > 4 {
        y = half(y, 4, 0x0f0f_0f0f_0f0f_0f0f);
    }
    for k in [8u32, 16, 32] {
        if n > k {
            y = bin(BinOp::Add, y.clone(), bin(BinOp::LShr, y, c(i64::from(k))));
        }
    }
    bin(BinOp::BitAnd, y, c(0x7f))
}

/// The expression of `op` on operands `args` of width `n` (1 to 64), or
/// why it has none (a width `bswap` does not take).
pub(crate) fn expand(op: IntOp, n: u32, args: &[Expr]) -> Result<Expr, String> {
    let n = n.clamp(1, 64);
    let x = args.first().cloned().unwrap_or(c(0));
    let y = args.get(1).cloned().unwrap_or(c(0));
    let all = if n >= 64 {
        -1
    } else {
        ((1u64 << n) - 1) as i64
    };
    Ok(match op {
        IntOp::Ctpop => popcount(bin(BinOp::BitAnd, x, c(all)), n),
        IntOp::Ctlz => {
            let xz = zext(x, n, Norm::default());
            // `1 << 63` is 2^63 to the unsigned comparison.
            sum((0..n).map(|k| bin(BinOp::ULt, xz.clone(), c(1i64 << k))))
        }
        // The bits below the lowest set bit, counted: `(x & -x) - 1` in
        // `N` bits is `2^t - 1` for `t` trailing zeros, and all ones (`N`)
        // at `x = 0`.
        IntOp::Cttz => {
            let low = bin(BinOp::BitAnd, x.clone(), bin(BinOp::Sub, c(0), x));
            popcount(bin(BinOp::BitAnd, bin(BinOp::Sub, low, c(1)), c(all)), n)
        }
        IntOp::Bswap => {
            if n % 16 != 0 {
                return Err(format!(
                    "llvm.bswap on i{n} (LangRef: a multiple of 16 bits)"
                ));
            }
            let bytes = n / 8;
            (0..bytes)
                .map(|i| field(&x, 8 * i, 8, 8 * (bytes - 1 - i)))
                .reduce(|a, b| bin(BinOp::BitOr, a, b))
                .unwrap_or(c(0))
        }
        IntOp::Bitreverse => (0..n)
            .map(|i| field(&x, i, 1, n - 1 - i))
            .reduce(|a, b| bin(BinOp::BitOr, a, b))
            .unwrap_or(c(0)),
        IntOp::Fshl | IntOp::Fshr => {
            let s = args.get(2).cloned().unwrap_or(c(0));
            let sz = zext(s, n, Norm::default());
            let amount = if n.is_power_of_two() {
                bin(BinOp::BitAnd, sz, c(i64::from(n) - 1))
            } else {
                bin(BinOp::URem, sz, c(i64::from(n)))
            };
            let rest = bin(BinOp::Sub, c(i64::from(n)), amount.clone());
            let (a, b) = (x, zext(y, n, Norm::default()));
            let (zero, shifted) = if op == IntOp::Fshl {
                let hi = bin(BinOp::Shl, a.clone(), amount.clone());
                let lo = bin(BinOp::LShr, b, rest);
                (a, bin(BinOp::BitOr, hi, lo))
            } else {
                let lo = bin(BinOp::LShr, b.clone(), amount.clone());
                let hi = bin(BinOp::Shl, a, rest);
                (b, bin(BinOp::BitOr, hi, lo))
            };
            select(bin(BinOp::Eq, amount, c(0)), zero, shifted)
        }
        IntOp::AddSat { signed: false } => {
            let r = bin(BinOp::Add, x.clone(), y);
            let wrapped = bin(
                BinOp::ULt,
                zext(r.clone(), n, Norm::default()),
                zext(x, n, Norm::default()),
            );
            select(wrapped, c(all), r)
        }
        IntOp::SubSat { signed: false } => {
            let below = bin(
                BinOp::ULt,
                zext(x.clone(), n, Norm::default()),
                zext(y.clone(), n, Norm::default()),
            );
            select(below, c(0), bin(BinOp::Sub, x, y))
        }
        IntOp::AddSat { signed: true } | IntOp::SubSat { signed: true } => {
            let add = matches!(op, IntOp::AddSat { .. });
            let r = bin(
                if add { BinOp::Add } else { BinOp::Sub },
                x.clone(),
                y.clone(),
            );
            let crossed = if add {
                bin(
                    BinOp::BitAnd,
                    bin(BinOp::BitXor, r.clone(), x.clone()),
                    bin(BinOp::BitXor, r.clone(), y),
                )
            } else {
                bin(
                    BinOp::BitAnd,
                    bin(BinOp::BitXor, x.clone(), y),
                    bin(BinOp::BitXor, x.clone(), r.clone()),
                )
            };
            let overflow = bin(BinOp::Lt, sext(crossed, n, Norm::default()), c(0));
            let min = if n >= 64 {
                i64::MIN
            } else {
                -(1i64 << (n - 1))
            };
            let max = if n >= 64 {
                i64::MAX
            } else {
                (1i64 << (n - 1)) - 1
            };
            let negative = bin(BinOp::Lt, sext(x, n, Norm::default()), c(0));
            select(overflow, select(negative, c(min), c(max)), r)
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use convcheck_ir::expr::{binary, unary};

    /// The value of a closed expression, with the model's own arithmetic
    /// (what both engines compute for these operators).
    pub(crate) fn eval(e: &Expr) -> i64 {
        match e {
            Expr::Const(v) => *v,
            Expr::Unary(op, a) => unary(*op, eval(a)),
            Expr::Binary(op, a, b) => binary(*op, eval(a), eval(b)),
            Expr::Select(t, a, b) => {
                if eval(t) != 0 {
                    eval(a)
                } else {
                    eval(b)
                }
            }
            other => panic!("not closed: {other:?}"),
        }
    }

    fn run(op: IntOp, n: u32, args: &[i64]) -> u64 {
        let args: Vec<Expr> = args.iter().map(|v| c(*v)).collect();
        let e = expand(op, n, &args).unwrap();
        let v = eval(&e) as u64;
        if n >= 64 {
            v
        } else {
            v & ((1u64 << n) - 1)
        }
    }

    /// Against Rust's own bit operations on the edge values of each width.
    #[test]
    fn expansions_agree_with_rust() {
        for v in [
            0u64,
            1,
            2,
            0x80,
            0x8000_0000,
            0xffff_ffff,
            0x00f0_1230,
            u64::MAX,
            1 << 63,
        ] {
            let v32 = v as u32;
            let x = v as i64;
            assert_eq!(run(IntOp::Ctpop, 32, &[x]), u64::from(v32.count_ones()));
            assert_eq!(run(IntOp::Ctpop, 64, &[x]), u64::from(v.count_ones()));
            assert_eq!(run(IntOp::Ctlz, 32, &[x]), u64::from(v32.leading_zeros()));
            assert_eq!(run(IntOp::Ctlz, 64, &[x]), u64::from(v.leading_zeros()));
            assert_eq!(run(IntOp::Cttz, 32, &[x]), u64::from(v32.trailing_zeros()));
            assert_eq!(run(IntOp::Cttz, 64, &[x]), u64::from(v.trailing_zeros()));
            assert_eq!(run(IntOp::Bswap, 32, &[x]), u64::from(v32.swap_bytes()));
            assert_eq!(run(IntOp::Bswap, 64, &[x]), v.swap_bytes());
            assert_eq!(
                run(IntOp::Bitreverse, 32, &[x]),
                u64::from(v32.reverse_bits())
            );
            assert_eq!(run(IntOp::Bitreverse, 64, &[x]), v.reverse_bits());
            for w in [0u64, 1, 0x7fff_ffff, 0x8000_0000, u64::MAX] {
                let (w32, y) = (w as u32, w as i64);
                assert_eq!(
                    run(IntOp::AddSat { signed: false }, 32, &[x, y]),
                    u64::from(v32.saturating_add(w32))
                );
                assert_eq!(
                    run(IntOp::SubSat { signed: false }, 32, &[x, y]),
                    u64::from(v32.saturating_sub(w32))
                );
                assert_eq!(
                    run(IntOp::AddSat { signed: true }, 32, &[x, y]),
                    u64::from((v32 as i32).saturating_add(w32 as i32) as u32)
                );
                assert_eq!(
                    run(IntOp::SubSat { signed: true }, 32, &[x, y]),
                    u64::from((v32 as i32).saturating_sub(w32 as i32) as u32)
                );
                assert_eq!(
                    run(IntOp::AddSat { signed: true }, 64, &[x, y]),
                    (x.saturating_add(y)) as u64
                );
                assert_eq!(
                    run(IntOp::SubSat { signed: true }, 64, &[x, y]),
                    (x.saturating_sub(y)) as u64
                );
                assert_eq!(
                    run(IntOp::AddSat { signed: false }, 64, &[x, y]),
                    v.saturating_add(w)
                );
                for s in [0i64, 1, 7, 31, 32, 33, 63, 64, -1] {
                    let s32 = (s as u32) % 32;
                    let fl = if s32 == 0 {
                        v32
                    } else {
                        (v32 << s32) | (w32 >> (32 - s32))
                    };
                    let fr = if s32 == 0 {
                        w32
                    } else {
                        (w32 >> s32) | (v32 << (32 - s32))
                    };
                    assert_eq!(
                        run(IntOp::Fshl, 32, &[x, y, s]),
                        u64::from(fl),
                        "fshl {v:#x} {w:#x} {s}"
                    );
                    assert_eq!(
                        run(IntOp::Fshr, 32, &[x, y, s]),
                        u64::from(fr),
                        "fshr {v:#x} {w:#x} {s}"
                    );
                    let s64 = (s as u64) % 64;
                    let fl = if s64 == 0 {
                        v
                    } else {
                        (v << s64) | (w >> (64 - s64))
                    };
                    assert_eq!(run(IntOp::Fshl, 64, &[x, y, s]), fl);
                }
            }
        }
    }

    /// The counting expansions at every width from 1 to 64, on edge and
    /// pseudo-random values held both zero- and sign-extended (the bits
    /// above `N` must not count), against Rust's own counts.
    #[test]
    fn counts_agree_with_rust_at_every_width() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut values = vec![0u64, 1, 2, 3, 0x80, 0x8000_0000, u64::MAX, 1 << 63];
        for _ in 0..40 {
            // splitmix64
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            values.push(z ^ (z >> 31));
        }
        for n in 1..=64u32 {
            let mask = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            for &v in &values {
                for shift in [0, 1, n / 2, n.saturating_sub(1)] {
                    let low = (v >> shift) & mask;
                    let sext = if n == 64 || low >> (n - 1) == 0 {
                        low
                    } else {
                        low | !mask
                    };
                    for held in [low, sext] {
                        let x = held as i64;
                        let what = format!("i{n} {low:#x} held as {held:#x}");
                        assert_eq!(
                            run(IntOp::Ctpop, n, &[x]),
                            u64::from(low.count_ones()),
                            "ctpop {what}"
                        );
                        let tz = if low == 0 { n } else { low.trailing_zeros() };
                        assert_eq!(run(IntOp::Cttz, n, &[x]), u64::from(tz), "cttz {what}");
                        let lz = low.leading_zeros() - (64 - n);
                        assert_eq!(run(IntOp::Ctlz, n, &[x]), u64::from(lz), "ctlz {what}");
                    }
                }
            }
        }
    }

    /// `with.overflow` against Rust's `overflowing_*` at 8, 32 and 64
    /// bits (8 and 32 take the exact-product form of `mul`, 64 the
    /// division form, also tried at 40 bits through `i64` values).
    #[test]
    fn overflow_fields_agree_with_rust() {
        let ops = [Overflow::Add, Overflow::Sub, Overflow::Mul];
        let edge = [
            0i64,
            1,
            -1,
            2,
            3,
            i64::MIN,
            i64::MAX,
            0x7fff_ffff,
            -0x8000_0000,
            0x1_0000_0001,
            0x7f,
            0x80,
            0x5a5a_1234,
        ];
        let garbage = 0x3c00_0000_0000_0000i64;
        for &a in &edge {
            for &b in &edge {
                for op in ops {
                    for signed in [false, true] {
                        let run = |n: u32| {
                            // High bits above N are garbage to the width rule.
                            let g = if n < 64 { garbage } else { 0 };
                            let (mask, shift) = if n < 64 {
                                ((1i64 << n) - 1, 64 - n)
                            } else {
                                (-1, 0)
                            };
                            let (x, y) = ((a & mask) | g, (b & mask) | g);
                            let (r, o) = expand_overflow(op, signed, n, c(x), c(y));
                            let r = eval(&r) & mask;
                            let r = if signed { (r << shift) >> shift } else { r };
                            (r, eval(&o))
                        };
                        let want8 = {
                            let (x, y) = (a as u8, b as u8);
                            let (r, o) = match (op, signed) {
                                (Overflow::Add, false) => x.overflowing_add(y),
                                (Overflow::Sub, false) => x.overflowing_sub(y),
                                (Overflow::Mul, false) => x.overflowing_mul(y),
                                (Overflow::Add, true) => {
                                    let (r, o) = (x as i8).overflowing_add(y as i8);
                                    (r as u8, o)
                                }
                                (Overflow::Sub, true) => {
                                    let (r, o) = (x as i8).overflowing_sub(y as i8);
                                    (r as u8, o)
                                }
                                (Overflow::Mul, true) => {
                                    let (r, o) = (x as i8).overflowing_mul(y as i8);
                                    (r as u8, o)
                                }
                            };
                            (
                                if signed {
                                    i64::from(r as i8)
                                } else {
                                    i64::from(r)
                                },
                                i64::from(o),
                            )
                        };
                        let want32 = {
                            let (x, y) = (a as u32, b as u32);
                            let (r, o) = match (op, signed) {
                                (Overflow::Add, false) => x.overflowing_add(y),
                                (Overflow::Sub, false) => x.overflowing_sub(y),
                                (Overflow::Mul, false) => x.overflowing_mul(y),
                                (Overflow::Add, true) => {
                                    let (r, o) = (x as i32).overflowing_add(y as i32);
                                    (r as u32, o)
                                }
                                (Overflow::Sub, true) => {
                                    let (r, o) = (x as i32).overflowing_sub(y as i32);
                                    (r as u32, o)
                                }
                                (Overflow::Mul, true) => {
                                    let (r, o) = (x as i32).overflowing_mul(y as i32);
                                    (r as u32, o)
                                }
                            };
                            (
                                if signed {
                                    i64::from(r as i32)
                                } else {
                                    i64::from(r)
                                },
                                i64::from(o),
                            )
                        };
                        let want64 = {
                            let (x, y) = (a as u64, b as u64);
                            let (r, o) = match (op, signed) {
                                (Overflow::Add, false) => x.overflowing_add(y),
                                (Overflow::Sub, false) => x.overflowing_sub(y),
                                (Overflow::Mul, false) => x.overflowing_mul(y),
                                (Overflow::Add, true) => {
                                    let (r, o) = a.overflowing_add(b);
                                    (r as u64, o)
                                }
                                (Overflow::Sub, true) => {
                                    let (r, o) = a.overflowing_sub(b);
                                    (r as u64, o)
                                }
                                (Overflow::Mul, true) => {
                                    let (r, o) = a.overflowing_mul(b);
                                    (r as u64, o)
                                }
                            };
                            (r as i64, i64::from(o))
                        };
                        let what = format!("{op:?} signed={signed} {a:#x} {b:#x}");
                        assert_eq!(run(8), want8, "i8 {what}");
                        assert_eq!(run(32), want32, "i32 {what}");
                        assert_eq!(run(64), want64, "i64 {what}");
                        // 40 bits: the division forms against i128 arithmetic.
                        let (m40, s40) = ((1i64 << 40) - 1, 24);
                        let (x40, y40) = (a & m40, b & m40);
                        let (xs, ys) = ((x40 << s40) >> s40, (y40 << s40) >> s40);
                        let (xv, yv) = if signed {
                            (i128::from(xs), i128::from(ys))
                        } else {
                            (i128::from(x40), i128::from(y40))
                        };
                        let exact = match op {
                            Overflow::Add => xv + yv,
                            Overflow::Sub => xv - yv,
                            Overflow::Mul => xv * yv,
                        };
                        let fits = if signed {
                            (-(1i128 << 39)..(1i128 << 39)).contains(&exact)
                        } else {
                            (0..(1i128 << 40)).contains(&exact)
                        };
                        let low = (exact as i64) & m40;
                        let low = if signed { (low << s40) >> s40 } else { low };
                        assert_eq!(run(40), (low, i64::from(!fits)), "i40 {what}");
                    }
                }
            }
        }
    }

    /// Garbage above bit `N` of an operand changes nothing.
    #[test]
    fn high_bits_of_operands_are_ignored() {
        let garbage = 0x5a5a_0000_0000_0000i64;
        for op in [
            IntOp::Ctpop,
            IntOp::Ctlz,
            IntOp::Cttz,
            IntOp::Bswap,
            IntOp::Bitreverse,
        ] {
            assert_eq!(
                run(op, 32, &[0x10 | garbage]),
                run(op, 32, &[0x10]),
                "{op:?}"
            );
            assert_eq!(run(op, 16, &[garbage]), run(op, 16, &[0]), "{op:?}");
        }
    }
}
