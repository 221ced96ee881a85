//! The poison of `getelementptr`'s flags (LangRef, "getelementptr";
//! issue 20).
//!
//! With `nusw` (and `inbounds`, which implies it) the multiplication of
//! an index, sign-extended to the pointer index width `W`, by its type's
//! size may not wrap in a signed sense; with `nuw`, not in an unsigned
//! sense (the index as an unsigned `W`-bit value); where it does, the
//! result is poison, and a load or a store through a poison address is
//! undefined behaviour. The mapping folds addresses into their accesses,
//! so the condition is taken at each load and store whose address is
//! computed by such a `getelementptr` (through others and pointer casts):
//! [`FnMapper::address_defined`], applied by `super::poison::runs_defined`
//! in every engine. Per index the condition is a range: `t` in
//! `[ceil(MIN/s), floor(MAX/s)]` (signed), `t mod 2^W <= UMAX/s`
//! (unsigned), for a constant size `s`.
//!
//! Not modelled (more defined than LangRef, so a target that relies on
//! them is not caught): the successive additions of the offsets and of
//! the base address, `inbounds`' bounds of the allocated object, an index
//! wider than `W` (truncated), constant indices, and the poison address's
//! other uses (stored as a value, compared, converted to an integer).
//! Indices that cannot wrap are left out: a constant size of 1, or an
//! index that is a `sext`/`zext` of at most 32 bits in a 64-bit index
//! width (clang's `idxprom`), so most accesses get no condition.
#![deny(unsafe_code)]

use convcheck_ir::{BinOp as IrBin, Expr};

use super::func::FnMapper;
use super::R;
use crate::inst::{CastOp, GetElementPtr, InstKind as K};
use crate::types::Type;
use crate::value::Value;

impl FnMapper<'_> {
    /// Where the address `ptr` of an access has no poison from a flag of a
    /// `getelementptr` that computes it (see the module documentation).
    pub(super) fn address_defined(&mut self, ptr: &Value, line: u32) -> R<Expr> {
        let mut parts = Vec::new();
        let mut v = ptr.clone();
        for _ in 0..32 {
            let Value::Local(n) = &v else { break };
            if self.promoted.contains_key(n) {
                break;
            }
            let Some(&inst) = self.defs.get(n) else { break };
            match &inst.kind {
                K::GetElementPtr(g) => {
                    parts.extend(self.gep_flag_conditions(g, line)?);
                    v = g.base.value.clone();
                }
                K::Cast(c) if matches!(c.op, CastOp::BitCast | CastOp::AddrSpaceCast) => {
                    v = c.value.value.clone();
                }
                _ => break,
            }
        }
        Ok(super::poison::all(parts))
    }

    /// Whether index `v` (of `n` bits) cannot make the product wrap in a
    /// `w`-bit index width whatever the size: a `sext` or `zext` of at
    /// most 32 bits where `w` is 64 and the size below 2^31.
    fn narrow_index(&self, v: &Value, w: u32, size: u64) -> bool {
        let Value::Local(n) = v else { return false };
        let Some(inst) = self.defs.get(n) else {
            return false;
        };
        matches!(&inst.kind, K::Cast(c)
            if matches!(c.op, CastOp::SExt | CastOp::ZExt)
                && matches!(c.value.ty, Type::Int(k) if k <= 32))
            && w == 64
            && size < (1 << 31)
    }

    /// The conditions under which the flags of `g` leave it defined.
    fn gep_flag_conditions(&mut self, g: &GetElementPtr, line: u32) -> R<Vec<Expr>> {
        let nuw = g.flags.iter().any(|f| f == "nuw");
        let nusw = g.flags.iter().any(|f| f == "nusw" || f == "inbounds");
        let Type::Ptr { addrspace } = g.base.ty else {
            return Ok(Vec::new());
        };
        let w = (self.ctx.layout.pointer_bytes(addrspace) * 8) as u32;
        if !(nuw || nusw) || !(8..=64).contains(&w) {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let mut ty = g.source_ty.clone();
        for (k, idx) in g.indices.iter().enumerate() {
            let Type::Int(n) = idx.ty else {
                return Ok(out);
            };
            let size = if k == 0 {
                self.ctx.layout.size_align(&ty, line)?.0
            } else {
                match self.ctx.layout.resolve(&ty).clone() {
                    Type::Array { elem, .. } => {
                        let s = self.ctx.layout.size_align(&elem, line)?.0;
                        ty = *elem;
                        s
                    }
                    // A struct's field index is a constant.
                    _ => return Ok(out),
                }
            };
            if matches!(idx.value, Value::Local(_))
                && n <= w
                && size > 1
                && size < (1 << 62)
                && !self.narrow_index(&idx.value, w, size)
            {
                let t = self.sv(&idx.value, &idx.ty, line)?;
                let s = size as i128;
                if nusw {
                    let min = -(1i128 << (w - 1));
                    let max = (1i128 << (w - 1)) - 1;
                    let lo = -((-min).div_euclid(s));
                    let hi = max.div_euclid(s);
                    out.push(Expr::binary(
                        IrBin::And,
                        Expr::binary(IrBin::Ge, t.clone(), Expr::Const(lo as i64)),
                        Expr::binary(IrBin::Le, t.clone(), Expr::Const(hi as i64)),
                    ));
                }
                if nuw {
                    let umax = if w == 64 {
                        u64::MAX as i128
                    } else {
                        (1i128 << w) - 1
                    };
                    let bound = (umax / s) as u64 as i64;
                    let u = if w == 64 {
                        t
                    } else {
                        Expr::binary(IrBin::BitAnd, t, Expr::Const(((1i128 << w) - 1) as i64))
                    };
                    out.push(Expr::binary(IrBin::ULe, u, Expr::Const(bound)));
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    /// The signed bounds `[ceil(MIN/s), floor(MAX/s)]` agree with 128-bit
    /// arithmetic at the edges, in 32 and 64 bits.
    #[test]
    fn signed_bounds_are_the_products_that_fit() {
        for w in [32u32, 64] {
            let min = -(1i128 << (w - 1));
            let max = (1i128 << (w - 1)) - 1;
            for s in [2i128, 3, 4, 12, 1000] {
                let lo = -((-min).div_euclid(s));
                let hi = max.div_euclid(s);
                assert!(lo * s >= min && (lo - 1) * s < min, "w={w} s={s}");
                assert!(hi * s <= max && (hi + 1) * s > max, "w={w} s={s}");
            }
        }
    }
}
