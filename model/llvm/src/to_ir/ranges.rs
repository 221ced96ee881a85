//! `range` attributes on parameters (LangRef, "Parameter Attributes":
//! `range(<ty> <a>, <b>)`; DESIGN.md 2.7, "Inputs are constrained by the
//! attributes the IR states"; issue 20 class f).
//!
//! A parameter whose value is outside `[a, b)` (modulo `2^N`, so the range
//! may wrap) is poison. Two readings, by what the module says:
//!
//! - `noundef` too, in a function nothing in the module calls (the entry
//!   of a check): a caller that passes a value out of range has undefined
//!   behaviour, so such a scenario does not exist. The parameter is read
//!   into its range at the top of the entry block (`a + x urem (b - a)`, as
//!   the per-group values are, `super::groups`).
//! - otherwise: the parameter may be poison, with the shadow
//!   `(x - a) mod 2^N <u (b - a) mod 2^N` set at the top of the entry block
//!   ([`super::poison`]): where it reaches a branch, a divisor or a
//!   `noundef` argument, the run has undefined behaviour.
//!
//! A range the mapping cannot read (not `iN` with two integers, or empty)
//! is ignored, as before.
//!
//! **Pointers.** A pointer parameter of such a function with `nonnull` or
//! `align A` is read as a value that has them (`x & -A`, and `A` where
//! that is null). With `noundef` that is exact (a caller passing another
//! has undefined behaviour). Without it the value would be poison, which
//! the mapping does not track for pointers: reading it into the facts
//! instead leaves out only scenarios whose reference has a poison pointer,
//! where nearly every use (a branch on it, an access through it) is
//! undefined behaviour anyway, and a target that keeps the attribute reads
//! the same value; one that drops it could differ there (LLVM drops a
//! parameter's attributes only where it rewrites the signature).
//!
//! **Call results.** A `range` on the result of a call of an external
//! function (at the call site, else on its declaration; not `llvm.*`
//! intrinsics, whose values the mapping computes, nor thread and group
//! indices, which it bounds itself) makes the result poison out of range:
//! its shadow is the same in-range test, set after the call. With
//! `noundef` too (call site or declaration), a result out of range is
//! undefined behaviour at the call: the block is split after it
//! (`ub.call.lineN`). A target that drops the attributes (LLVM does where
//! it hoists a call) is more defined; one that adds them is less.
#![deny(unsafe_code)]

use std::collections::HashSet;

use convcheck_ir::{BinOp as IrBin, Expr, Inst, InstKind as IrKind, OpInfo, OpKind, Span, UnOp};

use super::func::FnMapper;
use super::plain;
use crate::attrs::Attribute;
use crate::inst::{Call, InstKind, Instruction};
use crate::module::{Function, Module, Param};
use crate::types::Type;
use crate::value::Name;

/// A parameter's `range(iN a, b)`: `(N, a, size)` with `size = (b - a) mod
/// 2^N`, non-zero; `None` without one, or for a full or unreadable range.
pub(crate) fn of(p: &Param, m: &Module) -> Option<(u32, i64, u64)> {
    stated(&p.attrs, m)
}

/// The `range(iN a, b)` among `attrs`, as [`of`].
pub(crate) fn stated_range(attrs: &[Attribute], m: &Module) -> Option<(u32, i64, u64)> {
    stated(attrs, m)
}

fn stated(attrs: &[Attribute], m: &Module) -> Option<(u32, i64, u64)> {
    let value = m.resolve_attrs(attrs).find_map(|a| match a {
        Attribute::Valued { name, value } if name == "range" => Some(value.as_str()),
        _ => None,
    })?;
    let (ty, rest) = value.trim().split_once(char::is_whitespace)?;
    let n: u32 = ty.strip_prefix('i')?.parse().ok()?;
    if n == 0 || n > 64 {
        return None;
    }
    let (a, b) = rest.split_once(',')?;
    let a: i128 = a.trim().parse().ok()?;
    let b: i128 = b.trim().parse().ok()?;
    let modulus: i128 = 1i128 << n;
    let size = (b - a).rem_euclid(modulus);
    if size == 0 {
        return None;
    }
    Some((n, a as i64, size as u64))
}

/// The callee a call declares its result by: an external function the
/// mapping reads as an oracle, or a function the module defines (whose
/// own `range` return attribute callers read: a value its `ret` returns
/// out of range is poison at the call); not an `llvm.*` intrinsic, whose
/// results the mapping computes, nor a thread or group index, which it
/// bounds itself, `super::groups`.
pub(crate) fn external<'m>(c: &Call, m: &'m Module) -> Option<&'m Function> {
    let name = c.callee.as_global()?;
    let f = m.function_by_name(name)?;
    let plain_name = plain(name);
    let builtin = super::builtins::classify(&plain_name, None).is_some()
        || c.args
            .first()
            .and_then(|a| a.value.as_int())
            .is_some_and(|d| super::builtins::classify(&plain_name, Some(d)).is_some());
    (!plain_name.starts_with("llvm.") && !builtin).then_some(f)
}

/// A call's result `range(iN a, b)` (LangRef, "Parameter Attributes": on
/// a return value, a value outside it is poison), at the call site or else
/// on the callee's declaration, for calls of [`external`] functions; for
/// an intrinsic or builtin call (whose value the mapping computes), the
/// call site's alone, checked against the computed value (review3 H1: a
/// narrower range than the intrinsic's own makes poison; the
/// declaration's range of an intrinsic is LLVM's own, always true).
pub(crate) fn of_call(c: &Call, m: &Module) -> Option<(u32, i64, u64)> {
    match external(c, m) {
        Some(f) => stated(&c.ret_attrs, m).or_else(|| stated(&f.ret_attrs, m)),
        None => {
            let name = c.callee.as_global()?;
            m.function_by_name(name)?;
            // Not on the reads of thread and group indices and sizes:
            // clang states their LLVM ranges there (`range(i32 0, 1024)`
            // on `tid.x`), which the model's values already keep, and the
            // test's constants, taken by the domain analysis, cut every
            // run of `examples/gpu/histogram.cu` (n = 1024). A narrower
            // range stated there is not read (a false proof left, written
            // in docs/src/semantics.md).
            let plain_name = plain(name);
            let dim = c.args.first().and_then(|a| a.value.as_int());
            use super::builtins::Builtin as B;
            if matches!(
                super::builtins::classify(&plain_name, dim),
                Some(
                    B::Tid
                        | B::GroupSize
                        | B::GlobalId
                        | B::PerGroup(..)
                        | B::GlobalSize
                        | B::ThreadIn(_)
                        | B::SizeIn(_)
                        | B::LaneId
                        | B::WarpSize
                )
            ) {
                return None;
            }
            stated(&c.ret_attrs, m)
        }
    }
}

/// A load's `!range` metadata (LangRef, "load": a loaded value outside
/// every `[a, b)` of the list is poison): its ranges as [`of`] gives one,
/// for an integer load; `None` without one, or for a list the mapping
/// cannot read (then it is ignored, as before).
pub(crate) fn of_load(inst: &Instruction, m: &Module) -> Option<Vec<(u32, i64, u64)>> {
    let InstKind::Load(l) = &inst.kind else {
        return None;
    };
    let Type::Int(w) = l.ty else {
        return None;
    };
    let text = inst.attachment("range")?.trim();
    let text = match text.strip_prefix('!').filter(|r| !r.starts_with('{')) {
        Some(id) => m.metadata.iter().find(|d| d.name == id)?.text.as_str(),
        None => text,
    };
    let text = text.trim();
    let text = text.strip_prefix("distinct").map_or(text, str::trim);
    let inner = text.strip_prefix("!{")?.strip_suffix('}')?;
    let mut bounds = Vec::new();
    for item in inner.split(',') {
        let (ty, v) = item.trim().split_once(char::is_whitespace)?;
        let n: u32 = ty.strip_prefix('i')?.parse().ok()?;
        if n != w || n == 0 || n > 64 {
            return None;
        }
        bounds.push(v.trim().parse::<i128>().ok()?);
    }
    if bounds.is_empty() || bounds.len() % 2 != 0 {
        return None;
    }
    let modulus: i128 = 1i128 << w;
    let mut out = Vec::new();
    for pair in bounds.chunks(2) {
        let size = (pair[1] - pair[0]).rem_euclid(modulus);
        if size == 0 {
            return None;
        }
        out.push((w, pair[0] as i64, size as u64));
    }
    Some(out)
}

/// Whether a ranged call's result is also `noundef` (at the call site or
/// on the declaration): then a value out of range is undefined behaviour
/// at the call.
pub(crate) fn call_noundef(c: &Call, m: &Module) -> bool {
    of_call(c, m).is_some()
        && (m.has_attr(&c.ret_attrs, "noundef")
            || external(c, m).is_some_and(|f| m.has_attr(&f.ret_attrs, "noundef")))
}

/// A pointer parameter's `nonnull` and `align A` (LangRef: a null or
/// misaligned value is poison, and with `noundef` a caller passing one has
/// undefined behaviour): the parameter read as a value that has them,
/// `x & -A`, and where that is null, `A`. `None` without either fact.
fn pointer_facts(p: &Param, m: &Module) -> Option<Expr> {
    if !matches!(p.ty, Type::Ptr { .. }) {
        return None;
    }
    let align = m
        .resolve_attrs(&p.attrs)
        .find_map(|a| match a {
            Attribute::Valued { name, value } if name == "align" => {
                value.trim().parse::<u64>().ok()
            }
            _ => None,
        })
        .filter(|a| a.is_power_of_two() && *a > 1 && *a <= 1 << 32);
    let nonnull = m.has_attr(&p.attrs, "nonnull");
    if align.is_none() && !nonnull {
        return None;
    }
    let mut v = Expr::Var(plain(&p.name));
    if let Some(a) = align {
        v = Expr::Binary(
            IrBin::BitAnd,
            Box::new(v),
            Box::new(Expr::Const(-(a as i64))),
        );
    }
    if nonnull {
        let zero = Expr::Binary(IrBin::Eq, Box::new(v.clone()), Box::new(Expr::Const(0)));
        v = Expr::Select(
            Box::new(zero),
            Box::new(Expr::Const(align.unwrap_or(1) as i64)),
            Box::new(v),
        );
    }
    Some(v)
}

/// Whether `f` is called by a function of `m`.
pub(crate) fn called(f: &Function, m: &Module) -> bool {
    m.defined_functions().any(|g| {
        g.calls()
            .any(|(_, c)| c.callee.as_global().is_some_and(|n| *n == f.name))
    })
}

/// The parameters read into their range (the first reading above).
fn narrowed(f: &Function, m: &Module) -> bool {
    !called(f, m)
}

/// The parameters of `f` that may be poison by their `range`: the seeds of
/// [`super::poison::maybe_poison`].
pub(crate) fn poison_seeds(f: &Function, m: &Module) -> HashSet<Name> {
    let narrow = narrowed(f, m);
    let params = f
        .params
        .iter()
        .filter(|p| of(p, m).is_some() && !(narrow && m.has_attr(&p.attrs, "noundef")))
        .map(|p| p.name.clone());
    let calls = f
        .blocks
        .iter()
        .flat_map(|b| &b.instructions)
        .filter_map(|i| match (&i.kind, &i.result) {
            (InstKind::Call(c), Some(r))
                if of_call(c, m).is_some() || super::facts::of_call(c, m).is_some() =>
            {
                Some(r.clone())
            }
            (InstKind::Load(_), Some(r))
                if of_load(i, m).is_some() || super::facts::of_load(i, m).is_some() =>
            {
                Some(r.clone())
            }
            _ => None,
        });
    params.chain(calls).collect()
}

/// `(x - a) mod 2^N <u size`: whether `x`, an `iN` value, is in range.
pub(crate) fn in_range(x: Expr, n: u32, a: i64, size: u64) -> Expr {
    let moved = Expr::Binary(IrBin::Sub, Box::new(x), Box::new(Expr::Const(a)));
    let moved = if n < 64 {
        Expr::Unary(UnOp::ZExt(n as u8), Box::new(moved))
    } else {
        moved
    };
    Expr::Binary(
        IrBin::ULt,
        Box::new(moved),
        Box::new(Expr::Const(size as i64)),
    )
}

impl FnMapper<'_> {
    /// The instructions at the top of the entry block that read ranged
    /// parameters into their range or set their shadows.
    pub fn range_prelude(&mut self) -> Vec<Inst> {
        let m = self.ctx.m;
        let narrow = narrowed(self.f, m);
        let span = super::span_at(self.f.span.line, self.f.span.col);
        let mut out = Vec::new();
        for p in &self.f.params {
            if let Some(v) = pointer_facts(p, m).filter(|_| narrow) {
                let label = format!("nonnull and align of %{}", plain(&p.name));
                out.push(self.set_local(label, span, plain(&p.name), v));
                continue;
            }
            let Some((n, a, size)) = of(p, m) else {
                continue;
            };
            let x = plain(&p.name);
            let var = Expr::Var(x.clone());
            let (name, value) = if narrow && m.has_attr(&p.attrs, "noundef") {
                let v = Expr::Binary(
                    IrBin::URem,
                    Box::new(var),
                    Box::new(Expr::Const(size as i64)),
                );
                let v = Expr::Binary(IrBin::Add, Box::new(v), Box::new(Expr::Const(a)));
                (x.clone(), v)
            } else if self.maybe.contains(&p.name) && !self.ctx.opts.unchecked_poison {
                (self.shadow(&p.name), in_range(var, n, a, size))
            } else {
                continue;
            };
            out.push(self.set_local(format!("range of %{x}"), span, name, value));
        }
        out
    }

    /// `name = value` at the top of the entry, an operation labelled
    /// `label` (a parameter read into what its attributes state).
    pub(super) fn set_local(
        &mut self,
        label: String,
        span: Span,
        name: String,
        value: Expr,
    ) -> Inst {
        let sid = self.t.op(OpInfo {
            label,
            span,
            kind: OpKind::Stmt,
            func: self.fid,
            memory_none: false,
        });
        Inst {
            kind: IrKind::SetLocal {
                name,
                value: Some(value),
            },
            sid,
            token: None,
        }
    }

    /// After a call whose result is `noundef` and has a `range` or pointer
    /// facts (`super::facts`), or a `!noundef` load whose value may be
    /// poison: the condition under which the run goes on (the result is
    /// defined).
    pub fn noundef_result(&self, inst: &crate::inst::Instruction) -> Option<Expr> {
        let r = inst.result.as_ref()?;
        if self.ctx.opts.unchecked_poison || !self.maybe.contains(r) {
            return None;
        }
        let m = self.ctx.m;
        let noundef = match &inst.kind {
            InstKind::Call(c) => {
                call_noundef(c, m)
                    || (super::facts::of_call(c, m).is_some() && super::facts::call_noundef(c, m))
            }
            // An unused load has no shadow (`super::poison`).
            InstKind::Load(_) => super::facts::load_noundef(inst) && self.used(inst),
            _ => false,
        };
        noundef.then(|| Expr::Var(self.shadow(r)))
    }
}
