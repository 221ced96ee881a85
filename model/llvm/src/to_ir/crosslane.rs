//! Cross-lane intrinsics that LLVM makes `convergent` by their definition
//! (`IntrConvergent` in `IntrinsicsNVVM.td` and `IntrinsicsAMDGPU.td`),
//! whatever their declaration in a module says (issue 21 item 1).
//!
//! LLVM gives an intrinsic the attributes of its definition, not those of
//! the `declare` line, so LLVM's own tests and hand-written modules often
//! declare `@llvm.amdgcn.ds.swizzle` or `@llvm.nvvm.vote.uni.sync` with no
//! attributes at all, while opt prints them back with `convergent` (and,
//! for AMDGPU's, `memory(none)`). [`convergent`] names those operations,
//! so that such a call is the convergent operation it is in LLVM (a
//! warp or wave operation whose arguments are observed) instead of an
//! intrinsic outside the model; [`memory_none`] those of them that LLVM
//! defines as accessing no memory (`IntrNoMem`), so that the reference
//! and opt's output agree on them (`convcheck_ir::exec::observe::
//! memory_none_everywhere`). NVVM's warp operations access inaccessible
//! memory (`IntrInaccessibleMemOnly`): their order against loads and
//! stores stays observed, as it is for clang's declarations of them.
//!
//! Only operations whose definitions we have read are listed: an
//! intrinsic listed here that LLVM did not define as convergent would
//! make moves LLVM allows look like violations.
//!
//! `llvm.nvvm.match.all.sync.i32p` and `.i64p` (`__match_all_sync`,
//! PTX's `match.all.sync.b32`/`.b64`) return `{ i32, i1 }`: the warp's
//! `membermask` where every lane of it passed the same value, else 0, and
//! the predicate "every lane passed the same value". [`FnMapper::
//! match_all_call`] maps a call of either to the convergent operation
//! (its two arguments observed, its result a varying oracle named after
//! the intrinsic) and its result to two fields read by `extractvalue`
//! ([`super::aggregates`]): `%r.field0` the operation's value and
//! `%r.field1` `field0 != 0` (as `i32`). PTX requires the executing lane
//! to be in `membermask`, so a nonzero mask is returned exactly when the
//! predicate holds; a call whose lane is not in its mask is undefined in
//! PTX, and the model gives it the same pair.
#![deny(unsafe_code)]

use convcheck_ir::{BinOp, CallKind, Expr, Inst, InstKind, OpKind, OracleClass};

use super::calls::bundle_token;
use super::func::FnMapper;
use super::values::{bin, zext, Norm};
use super::{plain, span_at, unsup, R};
use crate::inst::{Call, Instruction};
use crate::types::Type;

/// NVVM's warp operations (prefixes): `shfl.sync` up, down, bfly and idx,
/// `vote` any, all, uni and ballot, `match` any and all, `activemask`,
/// `redux.sync`, and `bar.warp.sync` (`__syncwarp(mask)`: `IntrConvergent`
/// with no memory restriction, so its order against every load and store
/// is observed, and its mask is an observed argument; the lanes it
/// synchronizes are not used to order memory between threads, so a race
/// it would prevent between lanes of one warp is still reported, as for the
/// CUDA prelude's `__syncwarp`).
const NVVM: [&str; 6] = [
    "llvm.nvvm.shfl.sync.",
    "llvm.nvvm.vote.",
    "llvm.nvvm.match.",
    "llvm.nvvm.activemask",
    "llvm.nvvm.redux.sync.",
    "llvm.nvvm.bar.warp.sync",
];

/// AMDGPU's wave operations (names, or prefixes ending in `.`), all
/// `IntrNoMem`.
const AMDGPU: [&str; 17] = [
    "llvm.amdgcn.readfirstlane",
    "llvm.amdgcn.readlane",
    "llvm.amdgcn.writelane",
    "llvm.amdgcn.ballot",
    "llvm.amdgcn.inverse.ballot",
    "llvm.amdgcn.icmp",
    "llvm.amdgcn.fcmp",
    "llvm.amdgcn.ds.swizzle",
    "llvm.amdgcn.ds.bpermute",
    "llvm.amdgcn.ds.permute",
    "llvm.amdgcn.mov.dpp",
    "llvm.amdgcn.mov.dpp8",
    "llvm.amdgcn.update.dpp",
    "llvm.amdgcn.permlane16",
    "llvm.amdgcn.permlanex16",
    "llvm.amdgcn.permlane64",
    "llvm.amdgcn.wave.reduce.",
];

/// Whether `entry` names intrinsic `name`: the name itself or one of its
/// overloads (`llvm.amdgcn.readlane.i32`), or, for an entry ending in
/// `.`, any name it starts.
fn names(entry: &str, name: &str) -> bool {
    if entry.ends_with('.') {
        return name.starts_with(entry);
    }
    name == entry
        || name
            .strip_prefix(entry)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// Whether LLVM defines intrinsic `name` as convergent (see the module
/// documentation).
pub(crate) fn convergent(name: &str) -> bool {
    NVVM.iter().chain(AMDGPU.iter()).any(|e| names(e, name))
}

/// Whether LLVM defines intrinsic `name` as a convergent operation that
/// accesses no memory.
pub(crate) fn memory_none(name: &str) -> bool {
    AMDGPU.iter().any(|e| names(e, name))
}

/// The width of the value of NVVM's `match.all.sync` intrinsic `name`.
pub(crate) fn match_all(name: &str) -> Option<u32> {
    match name {
        "llvm.nvvm.match.all.sync.i32p" => Some(32),
        "llvm.nvvm.match.all.sync.i64p" => Some(64),
        _ => None,
    }
}

impl FnMapper<'_> {
    /// The width of the `match.all.sync` intrinsic that `c` calls (a
    /// declaration, not a function the module defines).
    pub(crate) fn match_all_of(&self, c: &Call) -> Option<u32> {
        let callee = c.callee.as_global()?;
        let m = self.ctx.m;
        if m.function_by_name(callee).is_some_and(|f| f.is_definition) {
            return None;
        }
        match_all(&plain(callee))
    }

    /// Maps a call of `llvm.nvvm.match.all.sync.i32p`/`i64p` (see the
    /// module documentation); false for any other call.
    pub(crate) fn match_all_call(
        &mut self,
        inst: &Instruction,
        c: &Call,
        out: &mut Vec<Inst>,
    ) -> R<bool> {
        let Some(bits) = self.match_all_of(c) else {
            return Ok(false);
        };
        let line = inst.line();
        let name = c.callee.as_global().map(plain).unwrap_or_default();
        let [mask, value] = c.args.as_slice() else {
            return unsup(format!("{name} with other than two arguments"), line);
        };
        if mask.ty != Type::Int(32) || value.ty != Type::Int(bits) {
            return unsup(format!("{name} on operands of another type"), line);
        }
        let token = bundle_token(c, line)?;
        let (m, v) = (
            self.zv(&mask.value, &mask.ty, line)?,
            self.zv(&value.value, &value.ty, line)?,
        );
        let args = vec![
            self.observed_value(&mask.value, &mask.ty, m, true),
            self.observed_value(&value.value, &value.ty, v, true),
        ];
        let span = span_at(inst.span.line, inst.span.col);
        let o = self.t.oracle(&name, OracleClass::Varying, span);
        let kind = CallKind::Op(o);
        let op = self.op(name.clone(), OpKind::Call(kind), inst);
        let e = Expr::Call {
            op,
            kind,
            callee: name.clone(),
            args,
        };
        // The operation runs and reads its value whether or not a field is
        // used (LLVM does not delete it: it accesses inaccessible memory).
        let Some(r) = &inst.result else {
            out.push(Inst {
                kind: InstKind::Eval(e),
                sid: op,
                token,
            });
            return Ok(true);
        };
        let r = plain(r);
        let mask_field = super::aggregates::field(&r, 0);
        out.push(Inst {
            kind: InstKind::SetLocal {
                name: mask_field.clone(),
                value: Some(e),
            },
            sid: op,
            token,
        });
        let m32 = zext(Expr::Var(mask_field), 32, Norm::default());
        let flag = bin(BinOp::Ne, m32, Expr::Const(0));
        let pred = super::aggregates::field(&r, 1);
        self.norm.insert(pred.clone(), Norm::boolean());
        let sid = self.stmt_op(&name, inst);
        out.push(Inst {
            kind: InstKind::SetLocal {
                name: pred,
                value: Some(flag),
            },
            sid,
            token: None,
        });
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overloads_are_named_and_neighbours_are_not() {
        for n in [
            "llvm.nvvm.shfl.sync.down.i32",
            "llvm.nvvm.vote.uni.sync",
            "llvm.nvvm.match.any.sync.i64",
            "llvm.nvvm.activemask",
            "llvm.nvvm.bar.warp.sync",
            "llvm.amdgcn.readlane",
            "llvm.amdgcn.readlane.i32",
            "llvm.amdgcn.ds.swizzle",
            "llvm.amdgcn.update.dpp.i32",
            "llvm.amdgcn.mov.dpp.i32",
            "llvm.amdgcn.mov.dpp8.i32",
            "llvm.amdgcn.permlanex16.i32",
            "llvm.amdgcn.wave.reduce.umax.i32",
        ] {
            assert!(convergent(n), "{n}");
        }
        for n in [
            "llvm.nvvm.read.ptx.sreg.tid.x",
            "llvm.nvvm.read.ptx.sreg.laneid",
            "llvm.nvvm.barrier.sync.cnt",
            "llvm.amdgcn.readlanes",
            "llvm.amdgcn.mbcnt.lo",
            "llvm.amdgcn.workitem.id.x",
            "llvm.ctpop.i32",
        ] {
            assert!(!convergent(n), "{n}");
        }
        assert!(memory_none("llvm.amdgcn.ds.swizzle"));
        assert_eq!(match_all("llvm.nvvm.match.all.sync.i64p"), Some(64));
        assert_eq!(match_all("llvm.nvvm.match.any.sync.i32"), None);
        assert!(!memory_none("llvm.nvvm.vote.ballot.sync"));
    }
}
