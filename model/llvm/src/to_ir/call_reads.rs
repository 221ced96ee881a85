//! What a call that only reads its arguments' memory returns (issue 20,
//! review F1).
//!
//! LangRef (`memory(argmem: read)`, `argmemonly readonly`): the callee
//! reads only memory based on its pointer arguments and writes none, so
//! its result may depend on its arguments and on what those objects hold
//! at the call, and on nothing else; LLVM merges two such calls with the
//! same arguments where no write may come between (EarlyCSE, GVN), and
//! deletes one whose result is unused. A non-convergent direct call of an
//! external function that reads only its arguments' memory
//! ([`reads_only_arguments`]), whose result is used, and each of whose
//! pointer arguments is rooted in one known object (an alloca kept in
//! memory, a variable global that is not an element array) of at most
//! [`MAX_BYTES`] bytes, is mapped as the function oracle
//! `CALLEE.mem` (`convcheck_ir::OracleClass::Function`, as the calls of
//! `super::pure_calls`) of its arguments and of every byte of those
//! objects, read at the call in chunks of 8, 4, 2 and 1 bytes from the
//! lowest offset (as `super::mem_intrinsics` reads): so a target that
//! changes what the object holds before the call changes the result
//! (`c-private-slot-read-by-argmem-read-call-value-changed`, violated),
//! while one that deletes a store the call does not read, or merges two
//! calls with the same memory, does not. A constant global's bytes cannot
//! change and are not read.
//!
//! Any other call that may read memory (`memory(read)`, a pointer of
//! unknown origin, a larger object) still reads one fresh value per call,
//! independent of memory (docs/src/semantics.md, "Doubtful or left").
#![deny(unsafe_code)]

use convcheck_ir::{Access, Expr, Inst, InstKind, OpKind, OracleClass, Space};

use super::func::FnMapper;
use super::R;
use crate::attrs::Attribute;
use crate::inst::{Call, InstKind as K, Instruction};
use crate::module::Module;
use crate::types::Type;
use crate::value::TypedValue;

/// An object a call reads: its space, base address, size and name.
type Object = (Space, i64, u64, String);

/// The largest object whose bytes a call's result depends on.
pub(crate) const MAX_BYTES: u64 = 64;

/// Whether one list of function attributes lets a call access only
/// argument memory (`memory(argmem: ...)` with every other location
/// `none`, `argmemonly`, `readnone`); attributes that say nothing of
/// locations leave every location.
fn only_argmem(attrs: &[Attribute], m: &Module) -> bool {
    m.resolve_attrs(attrs).any(|a| match a {
        Attribute::Flag(n) => matches!(n.as_str(), "argmemonly" | "readnone"),
        Attribute::Valued { name, value } if name == "memory" => {
            value.split(',').all(|part| match part.split_once(':') {
                Some((loc, acc)) => loc.trim() == "argmem" || acc.trim() == "none",
                None => part.trim() == "none",
            })
        }
        _ => false,
    })
}

/// Whether `c` writes no memory and reads only memory based on its
/// pointer arguments (the call site's or the callee's statement).
pub(crate) fn reads_only_arguments(c: &Call, m: &Module) -> bool {
    if super::asm::text(c).is_some() || !c.bundles.is_empty() || !c.is_writenone(m) {
        return false;
    }
    only_argmem(&c.fn_attrs, m)
        || c.callee
            .as_global()
            .and_then(|n| m.function_by_name(n))
            .is_some_and(|f| only_argmem(&f.attrs, m))
}

impl FnMapper<'_> {
    /// The objects the pointer arguments of `c` are rooted in, as (space,
    /// base address, size, name), when every one is a known object of at
    /// most [`MAX_BYTES`] bytes (constant globals left out); `None`
    /// otherwise.
    fn argument_objects(&self, c: &Call, line: u32) -> R<Option<Vec<Object>>> {
        let mut out = Vec::new();
        for a in &c.args {
            if !matches!(a.ty, Type::Ptr { .. }) {
                continue;
            }
            let tv = TypedValue {
                ty: a.ty.clone(),
                value: a.value.clone(),
            };
            let (space, name, global) = self.location(&tv);
            let object = if let Some(g) = global {
                if g.elements {
                    return Ok(None);
                }
                if g.constant {
                    continue;
                }
                let Some(gv) = self.ctx.m.global(name.trim_start_matches('@')) else {
                    return Ok(None);
                };
                let (size, _) = self.ctx.layout.size_align(&gv.ty, line)?;
                (space, g.base, size, name)
            } else if space == Space::Local && name.starts_with('%') {
                let alloca = self
                    .defs
                    .iter()
                    .find(|(n, _)| format!("%{n}") == name)
                    .map(|(_, i)| *i);
                let (Some(inst), Some(&base)) = (
                    alloca,
                    self.alloca_base
                        .iter()
                        .find(|(n, _)| format!("%{n}") == name)
                        .map(|(_, b)| b),
                ) else {
                    return Ok(None);
                };
                let K::Alloca(al) = &inst.kind else {
                    return Ok(None);
                };
                let count = match &al.count {
                    None => 1,
                    Some(c) => match c.value.as_int().and_then(|n| u64::try_from(n).ok()) {
                        Some(n) => n,
                        None => return Ok(None),
                    },
                };
                let (size, _) = self.ctx.layout.size_align(&al.ty, line)?;
                (space, base, size.saturating_mul(count), name)
            } else {
                return Ok(None);
            };
            if object.2 > MAX_BYTES {
                return Ok(None);
            }
            if !out.contains(&object) {
                out.push(object);
            }
        }
        Ok(Some(out))
    }

    /// Maps `c` as the function oracle of its arguments and its argument
    /// objects' bytes (see the module documentation), if it is such a
    /// call; `Ok(false)` leaves it to the caller.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_reading_arguments(
        &mut self,
        inst: &Instruction,
        c: &Call,
        label: &str,
        oracle_name: &str,
        shown: &str,
        token: Option<String>,
        out: &mut Vec<Inst>,
    ) -> R<bool> {
        let line = inst.line();
        if self.ctx.opts.calls_as_oracles
            || !self.used(inst)
            || !reads_only_arguments(c, self.ctx.m)
        {
            return Ok(false);
        }
        let Some(objects) = self.argument_objects(c, line)? else {
            return Ok(false);
        };
        let Some(result) = inst.result.as_ref() else {
            return Ok(false);
        };
        let span = super::span_at(inst.span.line, inst.span.col);
        let mut args = self.observed_args(c, line)?;
        let mut k = 0;
        for (space, base, size, name) in objects {
            let mut off = 0u64;
            while off < size {
                let w = [8u64, 4, 2, 1]
                    .into_iter()
                    .find(|w| off + w <= size)
                    .unwrap_or(1);
                let op = self.op(
                    format!("{label} (reads {name})"),
                    OpKind::Mem {
                        space,
                        write: false,
                    },
                    inst,
                );
                let value = Some(self.t.oracle(&name, OracleClass::Varying, span));
                let local = format!("convcheck.{}.mem{k}", super::plain(result));
                k += 1;
                out.push(Inst {
                    kind: InstKind::SetLocal {
                        name: local.clone(),
                        value: Some(Expr::Load {
                            op,
                            space,
                            index: Box::new(Expr::Const(base + off as i64)),
                            value,
                            access: Access {
                                bytes: w as u32,
                                volatile: false,
                                atomic: 0,
                            },
                        }),
                    },
                    sid: op,
                    token: None,
                });
                args.push(Expr::Var(local));
                off += w;
            }
        }
        let o = self
            .t
            .oracle(&format!("{oracle_name}.mem"), OracleClass::Function, span);
        let kind = convcheck_ir::CallKind::Plain(o);
        let op = self.op(label.to_string(), OpKind::Call(kind), inst);
        self.push_call(inst, op, kind, shown.to_string(), args, token, false, out)?;
        Ok(true)
    }
}
