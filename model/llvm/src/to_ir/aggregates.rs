//! Struct results read field by field: `cmpxchg`'s `{ iN, i1 }`
//! ([`super::atomics`]) and `llvm.{s,u}{add,sub,mul}.with.overflow.iN`'s
//! `{ iN, i1 }` ([`super::intrinsics::expand_overflow`]), NVVM's
//! `match.all.sync`'s `{ i32, i1 }` ([`super::crosslane`]), and
//! `extractvalue` of them (issue 21 item 1).
//!
//! The model has no aggregate values. An instruction with such a result
//! `%r` sets one local per field instead, `%r.field0` and `%r.field1`
//! ([`field`]), and `%x = extractvalue { iN, i1 } %r, K` reads `%r.fieldK`.
//! Any other use of `%r` (a `phi`, `select`, `store`, `ret`, call argument
//! or `insertvalue` of it) has an aggregate type and stays outside the
//! model, named, as do `extractvalue` of any other aggregate and with more
//! than one index.
//!
//! Poison: the fields of a `with.overflow` of operands that may be poison
//! are taken as defined, as the results of calls are
//! ([`super::poison`]'s "Not tracked").
#![deny(unsafe_code)]

use convcheck_ir::{Expr, Inst};

use super::func::{value_type, FnMapper};
use super::values::Norm;
use super::{plain, unsup, R};
use crate::inst::{Call, Generic, InstKind as K, Instruction};
use crate::types::Type;
use crate::value::{Name, Value};

/// The local that holds field `k` of the struct result `r`.
pub(crate) fn field(r: &str, k: usize) -> String {
    format!("{r}.field{k}")
}

/// The `with.overflow` intrinsic a call's callee names, with the width of
/// its `iN` suffix.
fn overflow_callee(name: &str) -> Option<(super::intrinsics::Overflow, bool, u32)> {
    let (stem, w) = name.rsplit_once(".i")?;
    let n = w.parse::<u32>().ok()?;
    let (op, signed) = super::intrinsics::overflow_op(stem)?;
    Some((op, signed, n))
}

impl<'a> FnMapper<'a> {
    /// Whether `name` is a struct result this module splits into fields.
    fn split_result(&self, name: &Name) -> bool {
        let Some(def) = self.defs.get(name) else {
            return false;
        };
        match &def.kind {
            K::Generic(g) => g.opcode == "cmpxchg",
            K::Call(c) => self.overflow_call_of(c).is_some() || self.match_all_of(c).is_some(),
            _ => false,
        }
    }

    /// The `with.overflow` intrinsic `c` calls (a declaration, not a
    /// function the module defines).
    fn overflow_call_of(&self, c: &Call) -> Option<(super::intrinsics::Overflow, bool, u32)> {
        let callee = c.callee.as_global()?;
        if self
            .ctx
            .m
            .function_by_name(callee)
            .is_some_and(|f| f.is_definition)
        {
            return None;
        }
        overflow_callee(&plain(callee))
    }

    /// Maps a call of `llvm.*.with.overflow.iN` to its two fields; false
    /// for any other call.
    pub(crate) fn overflow_call(
        &mut self,
        inst: &Instruction,
        c: &Call,
        out: &mut Vec<Inst>,
    ) -> R<bool> {
        let Some((op, signed, n)) = self.overflow_call_of(c) else {
            return Ok(false);
        };
        let line = inst.line();
        let name = c.callee.as_global().map(plain).unwrap_or_default();
        let [a, b] = c.args.as_slice() else {
            return unsup(format!("{name} with other than two arguments"), line);
        };
        if a.ty != Type::Int(n) || b.ty != Type::Int(n) {
            return unsup(format!("{name} on operands of another type"), line);
        }
        value_type(&a.ty, "an argument", line)?;
        let Some(r) = &inst.result else {
            return Ok(true);
        };
        let x = self.value(&a.value, &a.ty, line)?;
        let y = self.value(&b.value, &b.ty, line)?;
        let (value, flag) = super::intrinsics::expand_overflow(op, signed, n, x, y);
        let r = plain(r);
        let label = name.clone();
        for (k, e) in [(0, value), (1, flag)] {
            let sid = self.stmt_op(&label, inst);
            out.push(Inst {
                kind: convcheck_ir::InstKind::SetLocal {
                    name: field(&r, k),
                    value: Some(e),
                },
                sid,
                token: None,
            });
        }
        self.norm.insert(field(&r, 1), Norm::boolean());
        Ok(true)
    }

    /// Maps `extractvalue` of a split struct result (see the module
    /// documentation).
    pub(crate) fn extractvalue(
        &mut self,
        inst: &Instruction,
        g: &Generic,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        let outside = |what: &str| unsup(format!("aggregates (extractvalue {what})"), line);
        let parts = super::atomics::split_top(&g.operands);
        let [agg, index] = parts.as_slice() else {
            return outside("with more than one index");
        };
        let Ok(k) = index.parse::<usize>() else {
            return outside("not understood");
        };
        let [name] = g.uses.as_slice() else {
            return outside("of a constant");
        };
        if !agg.ends_with(&format!(" {}", Value::Local(name.clone()))) {
            return outside("not understood");
        }
        if !self.split_result(name) || k > 1 {
            return outside(&format!("of {}", Value::Local(name.clone())));
        }
        let src = field(&plain(name), k);
        let n = self.norm.get(&src).copied().unwrap_or_default();
        self.set(inst, "extractvalue", Expr::Var(src), out)?;
        self.note_norm(inst, n);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_intrinsics_by_name() {
        use super::super::intrinsics::Overflow;
        assert_eq!(
            overflow_callee("llvm.umul.with.overflow.i64"),
            Some((Overflow::Mul, false, 64))
        );
        assert_eq!(
            overflow_callee("llvm.sadd.with.overflow.i32"),
            Some((Overflow::Add, true, 32))
        );
        assert_eq!(overflow_callee("llvm.sadd.sat.i32"), None);
        assert_eq!(overflow_callee("llvm.sadd.with.overflow.v2i32"), None);
    }
}
