//! `llvm.memcpy`, `llvm.memmove` and `llvm.memset`, and their `.inline`
//! variants (LangRef, "Standard C/C++ Library Intrinsics"; issue 20).
//!
//! With a constant length `n` (at most [`MAX_BYTES`]) each is the memory
//! accesses it stands for, in the memory model of `super::memory` (DESIGN
//! 2.6): the `n` bytes in chunks of 8, 4, 2 and 1 bytes from the lowest
//! offset ([`chunks`]: 16 bytes are two 8-byte accesses, 6 are 4 and 2),
//! each a load or a store of that width at the pointer plus its offset,
//! labelled and located as a `load` or `store` through that pointer is.
//! So InstCombine's `memcpy` of 4 bytes turned into a `load i32` and a
//! `store i32` is the same accesses; a target that copies another length,
//! or stores another byte, stores other values or at other places.
//!
//! - `memcpy(d, s, n, v)`: the loads of every chunk of `s`, then the
//!   stores of their values to `d`. Source and destination must be equal
//!   or not overlap (LangRef): where they overlap and differ the call is
//!   undefined behaviour, a block `ub.memcpy-overlap.lineN`
//!   ([`FnMapper::mem_overlap`]), so such a run of the reference
//!   constrains nothing.
//! - `memmove(d, s, n, v)`: the same accesses (every load before every
//!   store: a copy through a temporary), overlap allowed.
//! - `memset(d, b, n, v)`: stores of `b` repeated in every byte of each
//!   chunk. Where `d` is not private memory the byte is observed, as a
//!   stored value is (a poison byte is the model's undefined behaviour
//!   for a poison value stored, `super::poison`).
//! - `v` (`isvolatile`, an immediate) makes every access volatile, so
//!   observed.
//!
//! A `memcpy` or `memset` whose length is a value `n` is a loop
//! ([`FnMapper::mem_loop`], `super::poison::Pieces::loop_to`): a counter
//! `convcheck.memcpy.lineN.i` from 0, a header `memcpy.lineN.header` that
//! goes on while it is below `n` (unsigned), a body `memcpy.lineN.body`
//! that copies (or sets) the byte at the counter and counts; the
//! iteration bound cuts it, and the report names the cut. A `memmove` of
//! such a length, and a constant length longer than [`MAX_BYTES`], are
//! outside the model.
//! Private memory (an `alloca` passed to one of them is not promoted: its
//! address is used by a call) is thread state, shared and global memory as
//! any access; a load from a `constant` global with an initializer reads
//! the initializer.
#![deny(unsafe_code)]

use convcheck_ir::{Access, BinOp as IrBin, Expr, Inst, InstKind, OpKind, OracleClass, Space};

use super::func::FnMapper;
use super::values::{bin, zext, Norm};
use super::{span_at, unsup, R};
use crate::inst::{Call, InstKind as K, Instruction};
use crate::types::Type;
use crate::value::{TypedValue, Value};

/// The longest constant length mapped, in bytes.
pub const MAX_BYTES: u64 = 256;

/// Which memory intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MemIntrinsic {
    /// `llvm.memcpy`, `llvm.memcpy.inline`.
    Copy,
    /// `llvm.memmove`.
    Move,
    /// `llvm.memset`, `llvm.memset.inline`.
    Set,
}

/// The memory intrinsic `name` is, if one (not the element-wise atomic
/// variants, which stay outside the model).
pub(crate) fn which(name: &str) -> Option<MemIntrinsic> {
    let (kind, rest) = if let Some(r) = name.strip_prefix("llvm.memcpy.") {
        (MemIntrinsic::Copy, r)
    } else if let Some(r) = name.strip_prefix("llvm.memmove.") {
        (MemIntrinsic::Move, r)
    } else if let Some(r) = name.strip_prefix("llvm.memset.") {
        (MemIntrinsic::Set, r)
    } else {
        return None;
    };
    let rest = match kind {
        MemIntrinsic::Move => rest,
        _ => rest.strip_prefix("inline.").unwrap_or(rest),
    };
    // The overloaded types: `p0.p0.i64`, `p3.i32`.
    let typed = rest.starts_with('p') && rest[1..].starts_with(|c: char| c.is_ascii_digit());
    typed.then_some(kind)
}

/// The chunks of an access of `n` bytes: (offset, width), widths 8, 4, 2
/// and 1 from offset 0, the widest that fits what is left.
pub(crate) fn chunks(n: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut off = 0;
    while off < n {
        let left = n - off;
        let w = [8u64, 4, 2, 1]
            .into_iter()
            .find(|w| *w <= left)
            .unwrap_or(1);
        out.push((off, w as u32));
        off += w;
    }
    out
}

/// `b` (a byte) in each of `w` bytes.
fn repeated(b: Expr, w: u32) -> Expr {
    let mut ones: i64 = 0;
    for k in 0..w.min(8) {
        ones |= 1 << (8 * k);
    }
    bin(IrBin::Mul, b, Expr::Const(ones))
}

/// The parts of a call of a memory intrinsic: destination, source (or the
/// byte), the constant length and whether it is volatile.
struct Parts {
    dst: TypedValue,
    src: TypedValue,
    len: u64,
    volatile: bool,
}

fn typed(a: &crate::inst::Arg) -> TypedValue {
    TypedValue {
        ty: a.ty.clone(),
        value: a.value.clone(),
    }
}

/// The length of a call of a memory intrinsic.
enum Len {
    /// A constant, at most [`MAX_BYTES`].
    Const(u64),
    /// A value (its operand).
    Var(TypedValue),
}

/// The parts of a call whose length is a constant (else outside the
/// model, named).
fn parts(c: &Call, name: &str, line: u32) -> R<Parts> {
    let (p, len) = parts_any(c, name, line)?;
    match len {
        Len::Const(n) => Ok(Parts { len: n, ..p }),
        Len::Var(_) => unsup(format!("{name} with a length that is not a constant"), line),
    }
}

/// The parts of a call, its length constant or not (`Parts::len` 0 for
/// the latter).
fn parts_any(c: &Call, name: &str, line: u32) -> R<(Parts, Len)> {
    let [dst, src, len, vol] = c.args.as_slice() else {
        return unsup(format!("{name} with other than four arguments"), line);
    };
    let len = match len.value.as_int() {
        Some(n) if (0..=i128::from(MAX_BYTES)).contains(&n) => Len::Const(n as u64),
        Some(n) => {
            return unsup(
                format!("{name} of {n} bytes (more than {MAX_BYTES}, the most mapped)"),
                line,
            )
        }
        None if matches!(len.ty, Type::Int(n) if n <= 64)
            && matches!(len.value, Value::Local(_)) =>
        {
            Len::Var(typed(len))
        }
        None => return unsup(format!("{name} with a length that is not a constant"), line),
    };
    let volatile = match vol.value {
        Value::Int(v) => v != 0,
        _ => return unsup(format!("{name} whose isvolatile is not a constant"), line),
    };
    if !matches!(dst.ty, Type::Ptr { .. }) || !matches!(src.ty, Type::Ptr { .. } | Type::Int(8)) {
        return unsup(format!("{name} on operands of other types"), line);
    }
    let p = Parts {
        dst: typed(dst),
        src: typed(src),
        len: 0,
        volatile,
    };
    Ok((p, len))
}

/// A call of a memory intrinsic with a length that is not a constant, as
/// a loop (see the module documentation): what goes before it, its
/// condition and its body.
pub(crate) struct MemLoop {
    /// Sets the byte counter to 0.
    pub prelude: Vec<Inst>,
    /// `i < n`, unsigned.
    pub cond: Expr,
    /// One byte, then `i + 1`.
    pub body: Vec<Inst>,
    /// The loop's name (`memcpy.lineN`).
    pub label: String,
}

impl FnMapper<'_> {
    /// A call of the memory intrinsic `name` (see the module
    /// documentation).
    pub(super) fn mem_intrinsic(
        &mut self,
        inst: &Instruction,
        c: &Call,
        name: &str,
        kind: MemIntrinsic,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        if !c.bundles.is_empty() {
            return unsup(format!("an operand bundle on {name}"), line);
        }
        let p = parts(c, name, line)?;
        let pieces = chunks(p.len);
        match kind {
            MemIntrinsic::Set => {
                let byte = self.value(&p.src.value, &p.src.ty, line)?;
                let byte = zext(byte, 8, Norm::default());
                for (off, w) in pieces {
                    self.store_at(
                        inst,
                        &p.dst,
                        Expr::Const(off as i64),
                        w,
                        repeated(byte.clone(), w),
                        p.volatile,
                        out,
                    )?;
                }
            }
            MemIntrinsic::Copy | MemIntrinsic::Move => {
                let mut values = Vec::new();
                for (k, &(off, w)) in pieces.iter().enumerate() {
                    let local = format!("convcheck.{}.line{line}.{k}", kind_name(kind));
                    self.load_at(
                        inst,
                        &p.src,
                        Expr::Const(off as i64),
                        w,
                        p.volatile,
                        &local,
                        out,
                    )?;
                    values.push(Expr::Var(local));
                }
                for ((off, w), v) in pieces.into_iter().zip(values) {
                    self.store_at(inst, &p.dst, Expr::Const(off as i64), w, v, p.volatile, out)?;
                }
            }
        }
        Ok(())
    }

    /// The address `ptr + off`, in the pointer width of `ptr`'s address
    /// space.
    fn address_at(&mut self, ptr: &TypedValue, off: Expr, line: u32) -> R<Expr> {
        let p = self.ptr_lin(&ptr.value, line, 0)?.expr();
        if off == Expr::Const(0) {
            return Ok(p);
        }
        let moved = bin(IrBin::Add, p.clone(), off);
        let space = ptr.ty.addrspace().unwrap_or(0);
        Ok(if self.ctx.layout.pointer_bytes(space) <= 4 {
            super::memory::wrap32(p, moved)
        } else {
            moved
        })
    }

    /// A load of `w` bytes at `ptr + off` into the local `local`.
    #[allow(clippy::too_many_arguments)]
    fn load_at(
        &mut self,
        inst: &Instruction,
        ptr: &TypedValue,
        off: Expr,
        w: u32,
        volatile: bool,
        local: &str,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        let (space, base, global) = self.location(ptr);
        if global.as_ref().is_some_and(|g| g.elements) {
            return unsup("a memory intrinsic on an element array", line);
        }
        let addr = self.address_at(ptr, off, line)?;
        let span = span_at(inst.span.line, inst.span.col);
        let label = format!("load {base}");
        let table = match global.filter(|g| g.constant && !volatile) {
            Some(g) => self.table_read(&g, &base, addr.clone(), u64::from(w), span),
            None => None,
        };
        if let Some(e) = table {
            // Constant memory returns its initializer: a value, no event.
            let sid = self.stmt_op(&label, inst);
            out.push(Inst {
                kind: InstKind::SetLocal {
                    name: local.to_string(),
                    value: Some(e),
                },
                sid,
                token: None,
            });
            return Ok(());
        }
        let op = self.op(
            label,
            OpKind::Mem {
                space,
                write: false,
            },
            inst,
        );
        let value = Some(self.t.oracle(&base, OracleClass::Varying, span));
        let e = Expr::Load {
            op,
            space,
            index: Box::new(addr),
            value,
            access: Access {
                bytes: w,
                volatile,
                atomic: 0,
            },
        };
        out.push(Inst {
            kind: InstKind::SetLocal {
                name: local.to_string(),
                value: Some(e),
            },
            sid: op,
            token: None,
        });
        Ok(())
    }

    /// A store of `value` (its low `w` bytes) at `ptr + off`.
    #[allow(clippy::too_many_arguments)]
    fn store_at(
        &mut self,
        inst: &Instruction,
        ptr: &TypedValue,
        off: Expr,
        w: u32,
        value: Expr,
        volatile: bool,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        let (space, base, global) = self.location(ptr);
        if global.as_ref().is_some_and(|g| g.elements) {
            return unsup("a memory intrinsic on an element array", line);
        }
        let addr = self.address_at(ptr, off, line)?;
        let value = zext(value, 8 * w, Norm::default());
        let op = self.op(
            format!("store {base}"),
            OpKind::Mem { space, write: true },
            inst,
        );
        out.push(Inst {
            kind: InstKind::Eval(Expr::Store {
                op,
                space,
                index: Box::new(addr),
                value: Box::new(value),
                access: Access {
                    bytes: w,
                    volatile,
                    atomic: 0,
                },
            }),
            sid: op,
            token: None,
        });
        Ok(())
    }

    /// A call of `llvm.memcpy` or `llvm.memset` whose length is a value,
    /// as a loop of one byte per iteration (`None` for any other
    /// instruction; `llvm.memmove` of such a length is outside the model).
    pub fn mem_loop(&mut self, inst: &Instruction) -> R<Option<MemLoop>> {
        if self.ctx.opts.opaque_calls {
            return Ok(None);
        }
        let K::Call(c) = &inst.kind else {
            return Ok(None);
        };
        let Some(name) = c.callee_name() else {
            return Ok(None);
        };
        let Some(kind) = which(name) else {
            return Ok(None);
        };
        if self.ctx.m.function(name).is_some_and(|f| f.is_definition) || !c.bundles.is_empty() {
            return Ok(None);
        }
        let line = inst.line();
        let Ok((p, Len::Var(len))) = parts_any(c, name, line) else {
            return Ok(None);
        };
        if kind == MemIntrinsic::Move {
            return unsup(format!("{name} with a length that is not a constant"), line);
        }
        let label = format!("{}.line{line}", kind_name(kind));
        let i = format!("convcheck.{label}.i");
        let sid = self.stmt_op(&format!("{} count", kind_name(kind)), inst);
        let prelude = vec![Inst {
            kind: InstKind::SetLocal {
                name: i.clone(),
                value: Some(Expr::Const(0)),
            },
            sid,
            token: None,
        }];
        let n = self.value(&len.value, &len.ty, line)?;
        let n = zext(n, super::func::width_of(&len.ty), Norm::default());
        let cond = bin(IrBin::ULt, Expr::Var(i.clone()), n);
        let mut body = Vec::new();
        let at = Expr::Var(i.clone());
        match kind {
            MemIntrinsic::Set => {
                let byte = self.value(&p.src.value, &p.src.ty, line)?;
                let byte = zext(byte, 8, Norm::default());
                self.store_at(inst, &p.dst, at, 1, byte, p.volatile, &mut body)?;
            }
            _ => {
                let local = format!("convcheck.{label}.byte");
                self.load_at(inst, &p.src, at.clone(), 1, p.volatile, &local, &mut body)?;
                let v = Expr::Var(local);
                self.store_at(inst, &p.dst, at, 1, v, p.volatile, &mut body)?;
            }
        }
        let sid = self.stmt_op(&format!("{} count", kind_name(kind)), inst);
        body.push(Inst {
            kind: InstKind::SetLocal {
                name: i.clone(),
                value: Some(bin(IrBin::Add, Expr::Var(i), Expr::Const(1))),
            },
            sid,
            token: None,
        });
        Ok(Some(MemLoop {
            prelude,
            cond,
            body,
            label,
        }))
    }

    /// For a `memcpy` of a constant length: the condition under which its
    /// source and destination are equal or do not overlap, and the name of
    /// the block of undefined behaviour where they do (LangRef).
    pub fn mem_overlap(&mut self, inst: &Instruction) -> Option<(Expr, String)> {
        if self.ctx.opts.unchecked_poison || self.ctx.opts.opaque_calls {
            return None;
        }
        let K::Call(c) = &inst.kind else {
            return None;
        };
        let name = c.callee_name()?;
        if which(name) != Some(MemIntrinsic::Copy)
            || self.ctx.m.function(name).is_some_and(|f| f.is_definition)
        {
            return None;
        }
        let (p, len) = parts_any(c, name, inst.line()).ok()?;
        let n = match len {
            Len::Const(0) => return None,
            Len::Const(n) => Expr::Const(n as i64),
            Len::Var(v) => {
                let e = self.value(&v.value, &v.ty, inst.line()).ok()?;
                zext(e, super::func::width_of(&v.ty), Norm::default())
            }
        };
        // Two distinct objects (globals, allocas) never overlap.
        if self.based_on_an_object(&p.dst)
            && self.based_on_an_object(&p.src)
            && self.location(&p.dst).1 != self.location(&p.src).1
        {
            return None;
        }
        // Nor do a parameter's pointee and an alloca of the function
        // (review3 H10: SROA moves the alloca, the scenario's parameter
        // landed in it in the target only).
        if self.parameter_and_alloca(&p.dst, &p.src) || self.parameter_and_alloca(&p.src, &p.dst) {
            return None;
        }
        let d = self.ptr_lin(&p.dst.value, inst.line(), 0).ok()?.expr();
        let s = self.ptr_lin(&p.src.value, inst.line(), 0).ok()?.expr();
        let equal = bin(IrBin::Eq, d.clone(), s.clone());
        let before = bin(IrBin::ULe, bin(IrBin::Add, d.clone(), n.clone()), s.clone());
        let after = bin(IrBin::ULe, bin(IrBin::Add, s, n), d);
        let ok = bin(IrBin::Or, equal, bin(IrBin::Or, before, after));
        Some((ok, format!("ub.memcpy-overlap.line{}", inst.line())))
    }
}

fn kind_name(k: MemIntrinsic) -> &'static str {
    match k {
        MemIntrinsic::Copy => "memcpy",
        MemIntrinsic::Move => "memmove",
        MemIntrinsic::Set => "memset",
    }
}

/// Whether `space` is private memory (its stores are not observed).
pub(crate) fn is_private(space: Space) -> bool {
    space == Space::Local
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_chunks() {
        assert_eq!(which("llvm.memcpy.p0.p0.i64"), Some(MemIntrinsic::Copy));
        assert_eq!(
            which("llvm.memcpy.inline.p0.p0.i32"),
            Some(MemIntrinsic::Copy)
        );
        assert_eq!(which("llvm.memmove.p3.p1.i64"), Some(MemIntrinsic::Move));
        assert_eq!(which("llvm.memset.p0.i64"), Some(MemIntrinsic::Set));
        assert_eq!(which("llvm.memset.inline.p0.i64"), Some(MemIntrinsic::Set));
        assert_eq!(
            which("llvm.memcpy.element.unordered.atomic.p0.p0.i32"),
            None
        );
        assert_eq!(which("llvm.memset.element.unordered.atomic.p0.i32"), None);
        assert_eq!(which("llvm.memcpy"), None);
        assert_eq!(chunks(0), vec![]);
        assert_eq!(chunks(4), vec![(0, 4)]);
        assert_eq!(chunks(7), vec![(0, 4), (4, 2), (6, 1)]);
        assert_eq!(chunks(16), vec![(0, 8), (8, 8)]);
        let total: u64 = chunks(MAX_BYTES).iter().map(|c| u64::from(c.1)).sum();
        assert_eq!(total, MAX_BYTES);
    }
}
