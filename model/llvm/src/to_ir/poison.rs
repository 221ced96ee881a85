//! Poison and the undefined behaviour it causes (LangRef, "Poison Values"
//! and "Undefined Values"; DESIGN.md 2.7).
//!
//! Every value that may be poison gets a *shadow*: an `i1` local that is 1
//! where the value is defined, set next to the value (a phi's shadow is a
//! phi of its incoming values' shadows). A value may be poison when
//!
//! - an instruction's poison-generating flag fails: `add`/`sub`/`mul`/`shl`
//!   `nsw` and `nuw` (`mul` wider than 32 bits: `super::wide_mul`), `udiv`/`sdiv`/`lshr`/`ashr` `exact`, `or disjoint`,
//!   `zext nneg`, `trunc nuw`/`nsw`, `icmp samesign`;
//! - a shift amount is the operand's width or more;
//! - an operand is `poison` or `undef`, or a value that may be poison
//!   (poison propagates through every instruction but `freeze`, through
//!   the chosen arm of a `select` and through phis).
//!
//! `undef` is treated as poison, which is exact where the value reaches a
//! branch (LangRef: branching on either is undefined behaviour) and more
//! undefined than LangRef elsewhere, except for the absorbing operands:
//! `and X, 0` and `mul X, 0` are 0 and `or X, -1` is -1 whatever `X` is,
//! so they are defined. A reference that is more undefined than LangRef
//! allows more targets, so where else this matters (an `icmp ult undef, 0`
//! is `false`, not undef) a check could pass that should fail: a known
//! limit, written in docs/src/semantics.md.
//!
//! Undefined behaviour happens where poison reaches an operation that
//! LangRef makes immediate undefined behaviour on it: a conditional branch
//! or a `switch`, the divisor of a division or remainder, an argument the
//! call site or the callee declares `noundef`, and `llvm.assume` (which is
//! also undefined behaviour where its condition is false). Before such an
//! instruction the block is split: its first part branches on the
//! definedness condition to a second part that goes on, or to a block
//! that ends in `unreachable`, named `ub.OPCODE.lineN` after the
//! instruction (a run that reaches it has undefined behaviour, as at
//! LLVM's `unreachable`).
//!
//! **A poison value observed.** A value stored to shared or global memory
//! is observed (DESIGN.md 2.7), and LangRef lets a target be more defined
//! than its reference, never less (Alive2's refinement). Storing poison
//! is no undefined behaviour: the stored value goes to the event with its
//! definedness ([`FnMapper::observed_value`], `Expr::maybe_poison`), and
//! every engine compares it so: where the reference's value is poison the
//! target's may be anything, poison included; where it is defined the
//! target's must be defined and equal. The run goes on, so a reference
//! run that stores poison still constrains what it observes later. The
//! integer arguments of a convergent operation are observed the same way.
//! Private memory is thread state, not observed, and takes poison as
//! before. A load of a location that holds a stored poison value reads
//! its computed bits (LangRef: poison; a known limit, named in
//! docs/src/semantics.md); the byte `memset` stores with a poison byte is
//! still undefined behaviour (`ub.call.lineN`).
//! `ctlz` and `cttz` with `is_zero_poison` are poison at 0.
//!
//! A load or store through an address whose `getelementptr` flags
//! (`nuw`, `nusw`, `inbounds`) fail is undefined behaviour too
//! (`super::gep_flags`).
//!
//! Not tracked: poison from memory (a load reads a value), from calls
//! (a call's result is defined, except out of a stated `range`,
//! `super::ranges`, or breaking a stated `nonnull`/`align`, `super::facts`), and from address arithmetic other than the index
//! products of `super::gep_flags`.
#![deny(unsafe_code)]

mod pieces;
pub(crate) use pieces::Pieces;

use std::collections::HashSet;

use convcheck_ir::{BinOp as IrBin, Expr, Inst, InstKind, OpKind, UnOp};

use super::func::{width_of, FnMapper};
use super::uninit::slot_shadow;
use super::{unsup, R};
use crate::inst::{BinOp, CastOp, InstKind as K, Instruction};
use crate::module::Function;
use crate::types::Type;
use crate::value::{Name, Value};

/// The values of `f` that may be poison (see the module documentation):
/// a fixed point over the function's instructions.
/// `seeds` are values that may be poison from the start (parameters with a
/// `range`, `super::ranges`).
pub(crate) fn maybe_poison(
    f: &Function,
    slots: &HashSet<&Name>,
    seeds: HashSet<Name>,
) -> HashSet<Name> {
    let mut maybe: HashSet<Name> = seeds;
    loop {
        let before = maybe.len();
        for b in &f.blocks {
            for inst in &b.instructions {
                let Some(r) = &inst.result else { continue };
                if !maybe.contains(r) && (slot_load(inst, slots) || may_be_poison(inst, &maybe)) {
                    maybe.insert(r.clone());
                }
            }
        }
        if maybe.len() == before {
            return maybe;
        }
    }
}

/// Whether `inst` is an integer load of a promoted slot: `undef` where
/// nothing was stored yet (LangRef: a load of memory never written reads
/// `undef`), else what was stored, poison included.
fn slot_load(inst: &Instruction, slots: &HashSet<&Name>) -> bool {
    matches!(&inst.kind, K::Load(l)
        if matches!(l.ty, Type::Int(_))
            && matches!(&l.ptr.value, Value::Local(p) if slots.contains(p)))
}

/// Whether an operand is poison, `undef`, or a value that may be poison.
fn undefined_operand(v: &Value, maybe: &HashSet<Name>) -> bool {
    match v {
        Value::Undef | Value::Poison => true,
        Value::Local(n) => maybe.contains(n),
        _ => false,
    }
}

/// Whether a shift amount may be the width `w` or more.
fn wide_amount(v: &Value, w: u32) -> bool {
    !matches!(v, Value::Int(a) if (*a as u64) < w as u64)
}

fn may_be_poison(inst: &Instruction, maybe: &HashSet<Name>) -> bool {
    let any = |vs: &[&Value]| vs.iter().any(|v| undefined_operand(v, maybe));
    // Pointers: only values that may be poison by a stated fact
    // (`super::facts`); an `undef` pointer constant is read as before.
    let ptr_any = |vs: &[&Value]| {
        vs.iter()
            .any(|v| matches!(v, Value::Local(n) if maybe.contains(n)))
    };
    match &inst.kind {
        K::Binary(b) => {
            if !matches!(b.ty, Type::Int(_)) {
                return false;
            }
            let w = width_of(&b.ty);
            let shift = matches!(b.op, BinOp::Shl | BinOp::LShr | BinOp::AShr);
            flag_fails(&b.flags, b.op, w)
                || (shift && wide_amount(&b.rhs, w))
                || (any(&[&b.lhs, &b.rhs]) && !absorbed(b.op, &b.lhs, &b.rhs, w))
        }
        K::Cast(c) => {
            matches!(
                c.op,
                CastOp::Trunc | CastOp::ZExt | CastOp::SExt | CastOp::BitCast
            ) && matches!(c.value.ty, Type::Int(_))
                && (any(&[&c.value.value]) || (c.op != CastOp::BitCast && !c.flags.is_empty()))
                // A pointer that may break a stated fact (`super::facts`).
                || (c.op == CastOp::PtrToInt && ptr_any(&[&c.value.value]))
        }
        K::ICmp(c) => match c.ty {
            Type::Int(_) => any(&[&c.lhs, &c.rhs]) || c.flags.iter().any(|f| f == "samesign"),
            Type::Ptr { .. } => ptr_any(&[&c.lhs, &c.rhs]),
            _ => false,
        },
        K::Select(s) => match s.if_true.ty {
            Type::Int(_) => any(&[&s.cond.value, &s.if_true.value, &s.if_false.value]),
            Type::Ptr { .. } => ptr_any(&[&s.cond.value, &s.if_true.value, &s.if_false.value]),
            _ => false,
        },
        K::Phi(p) => match p.ty {
            Type::Int(_) => p.incoming.iter().any(|(v, _)| undefined_operand(v, maybe)),
            Type::Ptr { .. } => ptr_any(&p.incoming.iter().map(|(v, _)| v).collect::<Vec<_>>()),
            _ => false,
        },
        K::Call(c) => zero_poison_count(c).is_some(),
        _ => false,
    }
}

/// The operand of `llvm.ctlz`/`llvm.cttz` with `is_zero_poison` true (or
/// not a constant): the result is poison where it is 0 (LangRef), and
/// where it is poison.
fn zero_poison_count(c: &crate::inst::Call) -> Option<&Value> {
    let name = c.callee_name()?;
    let counts = name.starts_with("llvm.ctlz.") || name.starts_with("llvm.cttz.");
    match c.args.as_slice() {
        [x, z] if counts && matches!(x.ty, Type::Int(_)) && !matches!(z.value, Value::Int(0)) => {
            Some(&x.value)
        }
        _ => None,
    }
}

/// Whether a flag of a binary operator can make its result poison.
fn flag_fails(flags: &[String], op: BinOp, w: u32) -> bool {
    flags.iter().any(|f| match f.as_str() {
        "nsw" | "nuw" => match op {
            BinOp::Add | BinOp::Sub | BinOp::Shl => true,
            BinOp::Mul => w <= 64,
            _ => false,
        },
        "exact" => matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr),
        "disjoint" => op == BinOp::Or,
        _ => false,
    })
}

/// `and X, 0`, `mul X, 0` and `or X, -1`: the result is the constant,
/// whatever `X` is (`undef` included), unless the constant side is itself
/// undefined.
fn absorbed(op: BinOp, a: &Value, b: &Value, w: u32) -> bool {
    let all_ones = |v: &Value| matches!(v, Value::Int(i) if (*i as u128) & mask(w) == mask(w));
    let zero = |v: &Value| matches!(v, Value::Int(0));
    let other_undef = |v: &Value| matches!(v, Value::Undef);
    match op {
        BinOp::And | BinOp::Mul => (zero(a) && other_undef(b)) || (zero(b) && other_undef(a)),
        BinOp::Or => (all_ones(a) && other_undef(b)) || (all_ones(b) && other_undef(a)),
        _ => false,
    }
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// The conjunction of `es`, constants folded.
pub(crate) fn all(es: Vec<Expr>) -> Expr {
    let mut kept: Vec<Expr> = Vec::new();
    for e in es {
        match e {
            Expr::Const(0) => return Expr::Const(0),
            Expr::Const(_) => {}
            e => kept.push(e),
        }
    }
    let mut it = kept.into_iter();
    let Some(first) = it.next() else {
        return Expr::Const(1);
    };
    it.fold(first, |a, b| Expr::binary(IrBin::And, a, b))
}

fn cmp(op: IrBin, a: Expr, b: Expr) -> Expr {
    super::values::bin(op, a, b)
}

fn un(op: UnOp, e: Expr) -> Expr {
    match e {
        Expr::Const(c) => Expr::Const(convcheck_ir::expr::unary(op, c)),
        e => Expr::Unary(op, Box::new(e)),
    }
}

impl<'a> FnMapper<'a> {
    /// The name of the shadow of a value that may be poison.
    pub fn shadow(&self, n: &Name) -> String {
        format!("{}.defined", super::plain(n))
    }

    /// Where an operand is defined: 1 for constants and values that cannot
    /// be poison, 0 for `poison` and `undef`, the shadow otherwise.
    pub fn defined(&self, v: &Value) -> Expr {
        match v {
            Value::Undef | Value::Poison => Expr::Const(0),
            Value::Local(n) if self.maybe.contains(n) => Expr::Var(self.shadow(n)),
            _ => Expr::Const(1),
        }
    }

    /// An observed value `e` of the operand `v` of type `ty` (a value
    /// stored to shared or global memory, an integer argument of a
    /// convergent operation) with its definedness
    /// (`convcheck_ir::Expr::maybe_poison`): poison there is no undefined
    /// behaviour, the engines compare it as LangRef asks.
    pub fn observed_value(&self, v: &Value, ty: &Type, e: Expr, arg: bool) -> Expr {
        // A convergent operation's arguments: the integer ones, as before.
        if self.ctx.opts.unchecked_poison || (arg && !matches!(ty, Type::Int(_))) {
            return e;
        }
        Expr::maybe_poison(self.defined(v), e)
    }

    /// Where the result of `inst` (one that may be poison) is defined;
    /// `None` for a phi (its shadow is a phi, [`Self::shadow_phi`]) and for
    /// results that cannot be poison.
    pub fn result_defined(&mut self, inst: &Instruction) -> R<Option<Expr>> {
        let Some(r) = &inst.result else {
            return Ok(None);
        };
        if self.ctx.opts.unchecked_poison || !self.maybe.contains(r) {
            return Ok(None);
        }
        let line = inst.line();
        Ok(Some(match &inst.kind {
            K::Binary(b) => {
                let w = width_of(&b.ty);
                if absorbed(b.op, &b.lhs, &b.rhs, w) {
                    return Ok(Some(Expr::Const(1)));
                }
                let mut parts = vec![self.defined(&b.lhs), self.defined(&b.rhs)];
                if matches!(b.op, BinOp::Shl | BinOp::LShr | BinOp::AShr) {
                    let s = self.zv(&b.rhs, &b.ty, line)?;
                    parts.push(cmp(IrBin::ULt, s, Expr::Const(w as i64)));
                }
                for f in &b.flags {
                    if let Some(c) = self.flag_holds(f, b.op, &b.ty, &b.lhs, &b.rhs, w, line)? {
                        parts.push(c);
                    }
                }
                all(parts)
            }
            K::Cast(c) => {
                let from = width_of(&c.value.ty);
                let to = width_of(&c.to);
                let mut parts = vec![self.defined(&c.value.value)];
                let a = self.value(&c.value.value, &c.value.ty, line)?;
                for f in &c.flags {
                    match (c.op, f.as_str()) {
                        (CastOp::ZExt, "nneg") => parts.push(cmp(
                            IrBin::Ge,
                            un(UnOp::SExt(from.min(63) as u8), a.clone()),
                            Expr::Const(0),
                        )),
                        (CastOp::Trunc, "nuw") => {
                            parts.push(cmp(IrBin::Eq, zx(a.clone(), from), zx(a.clone(), to)))
                        }
                        (CastOp::Trunc, "nsw") => {
                            parts.push(cmp(IrBin::Eq, sx(a.clone(), from), sx(a.clone(), to)))
                        }
                        _ => {}
                    }
                }
                all(parts)
            }
            K::ICmp(c) => {
                let mut parts = vec![self.defined(&c.lhs), self.defined(&c.rhs)];
                if c.flags.iter().any(|f| f == "samesign") {
                    let a = self.sv(&c.lhs, &c.ty, line)?;
                    let b = self.sv(&c.rhs, &c.ty, line)?;
                    parts.push(cmp(
                        IrBin::Eq,
                        cmp(IrBin::Lt, a, Expr::Const(0)),
                        cmp(IrBin::Lt, b, Expr::Const(0)),
                    ));
                }
                all(parts)
            }
            K::Load(l) => {
                let slot = match &l.ptr.value {
                    Value::Local(p) => self.promoted.get(p).map(|s| Expr::Var(slot_shadow(s))),
                    _ => None,
                };
                // `!range`: defined where the value is in one of its ranges
                // (`super::ranges::of_load`); an unused load has no value.
                let ranged = match super::ranges::of_load(inst, self.ctx.m) {
                    Some(ranges) if self.used(inst) => {
                        let x = self.value(&Value::Local(r.clone()), &l.ty, line)?;
                        let mut any: Option<Expr> = None;
                        for (n, a, size) in ranges {
                            let here = super::ranges::in_range(x.clone(), n, a, size);
                            any = Some(match any {
                                None => here,
                                Some(e) => Expr::binary(IrBin::Or, e, here),
                            });
                        }
                        any
                    }
                    _ => None,
                };
                // `!nonnull`, `!align` (`super::facts`).
                let ranged = match super::facts::of_load(inst, self.ctx.m) {
                    Some(f) if self.used(inst) => {
                        let x = self.value(&Value::Local(r.clone()), &l.ty, line)?;
                        Some(super::facts::holds(x, f))
                    }
                    _ => ranged,
                };
                match (slot, ranged) {
                    (None, None) => return Ok(None),
                    (Some(e), None) | (None, Some(e)) => e,
                    (Some(a), Some(b)) => all(vec![a, b]),
                }
            }
            K::Call(c) if zero_poison_count(c).is_some() => {
                let x = c.args[0].clone();
                let z = &c.args[1].value;
                let v = self.zv(&x.value, &x.ty, line)?;
                let mut parts = vec![self.defined(&x.value), self.defined(z)];
                let nonzero = cmp(IrBin::Ne, v, Expr::Const(0));
                match z {
                    Value::Int(_) => parts.push(nonzero),
                    _ => {
                        // `z` computed: poison at 0 only where it is true.
                        let zv = self.zv(z, &c.args[1].ty, line)?;
                        let off = cmp(IrBin::Eq, zv, Expr::Const(0));
                        parts.push(Expr::Binary(IrBin::Or, Box::new(off), Box::new(nonzero)));
                    }
                }
                // The call site's `range` too (review3 H1).
                if let Some((n, a, size)) = super::ranges::of_call(c, self.ctx.m) {
                    let x = self.value(&Value::Local(r.clone()), &c.ret_ty, line)?;
                    parts.push(super::ranges::in_range(x, n, a, size));
                }
                all(parts)
            }
            K::Call(c) => match super::ranges::of_call(c, self.ctx.m) {
                // A ranged result: defined where it is in its range.
                Some((n, a, size)) => {
                    let x = self.value(&Value::Local(r.clone()), &c.ret_ty, line)?;
                    super::ranges::in_range(x, n, a, size)
                }
                // A pointer result with `nonnull`/`align` (`super::facts`).
                None => match super::facts::of_call(c, self.ctx.m) {
                    Some(f) => {
                        let x = self.value(&Value::Local(r.clone()), &c.ret_ty, line)?;
                        super::facts::holds(x, f)
                    }
                    None => return Ok(None),
                },
            },
            K::Select(s) => {
                let c = self.cond(&s.cond.value, line)?;
                let arms = Expr::Select(
                    Box::new(c),
                    Box::new(self.defined(&s.if_true.value)),
                    Box::new(self.defined(&s.if_false.value)),
                );
                all(vec![self.defined(&s.cond.value), arms])
            }
            _ => return Ok(None),
        }))
    }

    /// Where a flag of a binary operator holds (`None` for flags that make
    /// no poison).
    #[allow(clippy::too_many_arguments)]
    fn flag_holds(
        &mut self,
        flag: &str,
        op: BinOp,
        ty: &Type,
        lhs: &Value,
        rhs: &Value,
        w: u32,
        line: u32,
    ) -> R<Option<Expr>> {
        let signed = flag == "nsw";
        Ok(Some(match (flag, op) {
            ("nsw" | "nuw", BinOp::Add | BinOp::Sub) => {
                let (a, b) = if signed {
                    (self.sv(lhs, ty, line)?, self.sv(rhs, ty, line)?)
                } else {
                    (self.zv(lhs, ty, line)?, self.zv(rhs, ty, line)?)
                };
                let irop = if op == BinOp::Add {
                    IrBin::Add
                } else {
                    IrBin::Sub
                };
                if w >= 64 {
                    // 64 bits: the overflow tests of two's complement.
                    let r = cmp(irop, a.clone(), b.clone());
                    match (signed, op) {
                        // Signed: the result's sign differs from both
                        // operands' (add) or from the first's, the operands'
                        // signs differing (sub).
                        (true, BinOp::Add) => cmp(
                            IrBin::Ge,
                            cmp(
                                IrBin::BitAnd,
                                cmp(IrBin::BitXor, a.clone(), r.clone()),
                                cmp(IrBin::BitXor, b, r),
                            ),
                            Expr::Const(0),
                        ),
                        (true, _) => cmp(
                            IrBin::Ge,
                            cmp(
                                IrBin::BitAnd,
                                cmp(IrBin::BitXor, a.clone(), b),
                                cmp(IrBin::BitXor, a, r),
                            ),
                            Expr::Const(0),
                        ),
                        (false, BinOp::Add) => cmp(IrBin::UGe, r, a),
                        (false, _) => cmp(IrBin::UGe, a, b),
                    }
                } else {
                    // The exact result fits in 64 bits: it is the operation
                    // of the extended operands, and it must be an `iN`.
                    let r = cmp(irop, a, b);
                    in_range(r, w, signed)
                }
            }
            ("nsw" | "nuw", BinOp::Mul) if w <= 32 => {
                let (a, b) = if signed {
                    (self.sv(lhs, ty, line)?, self.sv(rhs, ty, line)?)
                } else {
                    (self.zv(lhs, ty, line)?, self.zv(rhs, ty, line)?)
                };
                in_range(cmp(IrBin::Mul, a, b), w, signed)
            }
            ("nsw" | "nuw", BinOp::Mul) if w <= 64 => {
                let (a, b) = if signed {
                    (self.sv(lhs, ty, line)?, self.sv(rhs, ty, line)?)
                } else {
                    (self.zv(lhs, ty, line)?, self.zv(rhs, ty, line)?)
                };
                super::wide_mul::fits(a, b, lhs, rhs, w, signed)
            }
            ("nsw" | "nuw", BinOp::Shl) => {
                // No bit (signed: no bit unlike the sign) is shifted out:
                // shifting back gives the operand.
                let a = self.value(lhs, ty, line)?;
                let s = self.zv(rhs, ty, line)?;
                let shifted = cmp(IrBin::Shl, a.clone(), s.clone());
                if signed {
                    cmp(IrBin::Eq, cmp(IrBin::Shr, sx(shifted, w), s), sx(a, w))
                } else {
                    cmp(IrBin::Eq, cmp(IrBin::LShr, zx(shifted, w), s), zx(a, w))
                }
            }
            ("exact", BinOp::LShr | BinOp::AShr) => {
                // The bits shifted out are zero.
                let a = self.value(lhs, ty, line)?;
                let s = self.zv(rhs, ty, line)?;
                let low = cmp(
                    IrBin::Sub,
                    cmp(IrBin::Shl, Expr::Const(1), s),
                    Expr::Const(1),
                );
                cmp(IrBin::Eq, cmp(IrBin::BitAnd, a, low), Expr::Const(0))
            }
            ("exact", BinOp::UDiv) => {
                let a = self.zv(lhs, ty, line)?;
                let b = self.zv(rhs, ty, line)?;
                cmp(IrBin::Eq, cmp(IrBin::URem, a, b), Expr::Const(0))
            }
            ("exact", BinOp::SDiv) => {
                let a = self.sv(lhs, ty, line)?;
                let b = self.sv(rhs, ty, line)?;
                cmp(IrBin::Eq, cmp(IrBin::Rem, a, b), Expr::Const(0))
            }
            ("disjoint", BinOp::Or) => {
                let a = self.value(lhs, ty, line)?;
                let b = self.value(rhs, ty, line)?;
                cmp(IrBin::Eq, zx(cmp(IrBin::BitAnd, a, b), w), Expr::Const(0))
            }
            _ => return Ok(None),
        }))
    }

    /// The condition under which `inst` runs without undefined behaviour
    /// caused by poison (see the module documentation), when it is not
    /// always true.
    pub fn runs_defined(&mut self, inst: &Instruction) -> R<Option<Expr>> {
        if self.ctx.opts.unchecked_poison {
            return Ok(None);
        }
        let line = inst.line();
        let e = match &inst.kind {
            K::CondBr { cond, .. } => self.defined(cond),
            K::Switch(s) => self.defined(&s.value.value),
            K::Binary(b)
                if matches!(b.op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem) =>
            {
                self.defined(&b.rhs)
            }
            // A `noundef` return value that is poison is undefined
            // behaviour at the `ret` (LangRef, "Parameter Attributes").
            K::Ret(Some(v)) if self.ctx.m.has_attr(&self.f.ret_attrs, "noundef") => {
                if !matches!(v.ty, Type::Int(_) | Type::Ptr { .. }) {
                    return Ok(None);
                }
                self.defined(&v.value)
            }
            // An access through an address a `getelementptr`'s flag made
            // poison is undefined behaviour (`super::gep_flags`).
            // So is an access outside its object or misaligned
            // (`super::bounds`).
            K::Load(l) => all(vec![
                self.address_defined(&l.ptr.value, line)?,
                self.access_defined(inst)?,
            ]),
            K::Store(st) => {
                let address = all(vec![
                    self.address_defined(&st.ptr.value, line)?,
                    self.access_defined(inst)?,
                ]);
                // A stored value that may be poison is observed with its
                // definedness (`FnMapper::observed_value`), not undefined
                // behaviour.
                all(vec![address])
            }
            K::Call(c) => {
                let assume = c.callee.as_global().is_some_and(|n| n.is("llvm.assume"));
                let declared = c
                    .callee
                    .as_global()
                    .and_then(|n| self.ctx.m.function_by_name(n));
                let mem = c
                    .callee_name()
                    .and_then(super::mem_intrinsics::which)
                    .filter(|_| declared.is_some_and(|f| !f.is_definition));
                // Under the uniformity oracle's opaque calls a memory
                // intrinsic stores nothing (`super::mem_intrinsics`).
                let opaque = self.ctx.opts.opaque_calls;
                // The arguments of a convergent operation are observed with
                // their definedness (`FnMapper::observed_value`), as a stored
                // value is.
                // The byte `memset` stores to shared or global memory.
                let set_byte = !opaque
                    && mem == Some(super::mem_intrinsics::MemIntrinsic::Set)
                    && c.args.first().is_some_and(|d| {
                        let d = crate::value::TypedValue {
                            ty: d.ty.clone(),
                            value: d.value.clone(),
                        };
                        !super::mem_intrinsics::is_private(self.location(&d).0)
                    });
                let mut parts = Vec::new();
                for (i, a) in c.args.iter().enumerate() {
                    let noundef = self.ctx.m.has_attr(&a.attrs, "noundef")
                        || declared
                            .and_then(|f| f.params.get(i))
                            .is_some_and(|p| self.ctx.m.has_attr(&p.attrs, "noundef"));
                    let stored = set_byte && i == 1;
                    if (noundef || assume || stored) && matches!(a.ty, Type::Int(_)) {
                        parts.push(self.defined(&a.value));
                    }
                    // A `noundef` argument that breaks its stated `range`,
                    // `nonnull` or `align` is poison there: undefined
                    // behaviour (`super::facts`).
                    if noundef {
                        if let Some(c) = self.argument_facts_hold(a, line)? {
                            parts.push(c);
                        }
                    }
                }
                // A memory intrinsic outside its objects or misaligned
                // (`super::bounds`).
                if let (Some(kind), false) = (mem, opaque) {
                    parts.push(self.intrinsic_defined(c, kind, line)?);
                }
                if assume {
                    if let Some(a) = c.args.first() {
                        if matches!(a.value, Value::Local(_)) {
                            parts.push(self.cond(&a.value, line)?);
                        }
                    }
                    for b in &c.bundles {
                        parts.push(self.assume_bundle_holds(b, line)?);
                    }
                }
                all(parts)
            }
            _ => return Ok(None),
        };
        Ok((e != Expr::Const(1)).then_some(e))
    }
}

/// `sextN(e)` (N < 64), unnormalised operands.
fn sx(e: Expr, n: u32) -> Expr {
    if n >= 64 {
        e
    } else {
        un(UnOp::SExt(n as u8), e)
    }
}

/// `zextN(e)` (N < 64).
fn zx(e: Expr, n: u32) -> Expr {
    if n >= 64 {
        e
    } else {
        un(UnOp::ZExt(n as u8), e)
    }
}

/// Whether the exact result `r` of two extended `iN` operands is an `iN`
/// (signed or unsigned): extending its low `N` bits gives it back.
fn in_range(r: Expr, w: u32, signed: bool) -> Expr {
    let back = if signed {
        sx(r.clone(), w)
    } else {
        zx(r.clone(), w)
    };
    cmp(IrBin::Eq, back, r)
}

impl<'a> FnMapper<'a> {
    /// The shadow of `inst`'s result, if it may be poison: a phi after a
    /// phi, else a local set after the instruction.
    pub fn shadow_of(&mut self, inst: &Instruction, out: &mut Vec<Inst>) -> R<()> {
        let Some(r) = &inst.result else {
            return Ok(());
        };
        if self.ctx.opts.unchecked_poison || !self.maybe.contains(r) {
            return Ok(());
        }
        let name = self.shadow(r);
        let kind = if let K::Phi(p) = &inst.kind {
            let mut incoming = Vec::new();
            for (v, pred) in &p.incoming {
                let Some(&b) = self.blocks.get(pred) else {
                    return unsup(
                        format!("a phi predecessor %{pred} that is not a block"),
                        inst.line(),
                    );
                };
                incoming.push((b, self.defined(v)));
            }
            InstKind::Phi { name, incoming }
        } else {
            let Some(e) = self.result_defined(inst)? else {
                return Ok(());
            };
            InstKind::SetLocal {
                name,
                value: Some(e),
            }
        };
        let sid = self.op("defined", OpKind::Stmt, inst);
        out.push(Inst {
            kind,
            sid,
            token: None,
        });
        Ok(())
    }
}

/// Whether a value is `undef` or `poison`.
pub(crate) fn undefined(v: &Value) -> bool {
    matches!(v, Value::Undef | Value::Poison)
}

/// A branch or switch on `undef` or `poison`: undefined behaviour
/// (LangRef: "Branching on poison or undef is immediate UB").
pub(crate) fn undefined_branch(inst: &Instruction) -> bool {
    match &inst.kind {
        K::CondBr { cond, .. } => undefined(cond),
        K::Switch(s) => undefined(&s.value.value),
        _ => false,
    }
}

/// `call void @llvm.assume(i1 false)` (or `undef`, `poison`): undefined
/// behaviour where it runs. An assume of a computed condition constrains
/// nothing in the model (a target that adds an assume that can fail is not
/// caught; docs/src/semantics.md).
pub(crate) fn assumes_false(inst: &Instruction) -> bool {
    match &inst.kind {
        K::Call(c) => {
            c.callee.as_global().is_some_and(|n| n.is("llvm.assume"))
                && c.args
                    .first()
                    .is_some_and(|a| undefined(&a.value) || a.value == Value::Int(0))
        }
        _ => false,
    }
}
