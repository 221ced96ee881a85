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
#![deny(unsafe_code)]

use std::collections::HashSet;

use convcheck_ir::{BinOp as IrBin, Expr, Inst, InstKind, OpInfo, OpKind, UnOp};

use super::func::FnMapper;
use super::plain;
use crate::attrs::Attribute;
use crate::module::{Function, Module, Param};
use crate::value::Name;

/// A parameter's `range(iN a, b)`: `(N, a, size)` with `size = (b - a) mod
/// 2^N`, non-zero; `None` without one, or for a full or unreadable range.
pub(crate) fn of(p: &Param, m: &Module) -> Option<(u32, i64, u64)> {
    let value = m.resolve_attrs(&p.attrs).find_map(|a| match a {
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

/// Whether `f` is called by a function of `m`.
fn called(f: &Function, m: &Module) -> bool {
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
    f.params
        .iter()
        .filter(|p| of(p, m).is_some() && !(narrow && m.has_attr(&p.attrs, "noundef")))
        .map(|p| p.name.clone())
        .collect()
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
                let moved = Expr::Binary(IrBin::Sub, Box::new(var), Box::new(Expr::Const(a)));
                let moved = if n < 64 {
                    Expr::Unary(UnOp::ZExt(n as u8), Box::new(moved))
                } else {
                    moved
                };
                let v = Expr::Binary(
                    IrBin::ULt,
                    Box::new(moved),
                    Box::new(Expr::Const(size as i64)),
                );
                (self.shadow(&p.name), v)
            } else {
                continue;
            };
            let sid = self.t.op(OpInfo {
                label: format!("range of %{x}"),
                span,
                kind: OpKind::Stmt,
                func: self.fid,
                memory_none: false,
            });
            out.push(Inst {
                kind: InstKind::SetLocal {
                    name,
                    value: Some(value),
                },
                sid,
                token: None,
            });
        }
        out
    }
}
