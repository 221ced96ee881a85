//! Allocas are fresh objects (LangRef: memory an `alloca` allocates is
//! reached only through pointers based on it; DESIGN.md 2.6, issue 20
//! class h). Object bases are `tag(name) * 2^32` (`super::memory`) and a
//! parameter is a free 64-bit value, so without a constraint the product
//! may aim a parameter (plus an index) into an alloca kept in memory: a
//! load through it then reads the bytes the thread stored in that slot,
//! which a target where SROA removed the slot reads as a free value
//! (HIP's `-O0` wave vote under `default<O2>` was such a false alarm).
//!
//! So an access whose address is not based on an alloca or a global (a
//! parameter, a loaded pointer) is undefined behaviour where it lands in
//! a *sealed* alloca of the function: one kept in memory whose address
//! (or a cast of it) goes nowhere but its own loads and stores, so that no
//! pointer can be based on it. The block before the access branches on
//! `addr >> 32` being none of their tags, else to a block of undefined
//! behaviour named `ub.fresh-objects.lineN` ([`FRESH_BLOCK`]): such a
//! scenario of the reference constrains nothing, and a target without the
//! slot, which has no such test, is more defined. The domain analysis
//! (`convcheck_ir::scenario::domains`) leaves these tests out: the values
//! they would need (addresses inside an alloca) are never those of the
//! reference's defined runs.
#![deny(unsafe_code)]

use convcheck_ir::{BinOp as IrBin, Expr};

use super::func::FnMapper;
use crate::inst::{InstKind as K, Instruction};
use crate::value::TypedValue;

pub use convcheck_ir::scenario::domains::FRESH_BLOCK;

impl FnMapper<'_> {
    /// Whether `ptr` is based on a parameter of the function (its root,
    /// through promoted slots too), and `other` on one of the function's
    /// allocas: memory an `alloca` allocates did not exist when the
    /// arguments were passed, so no pointer based on a parameter reaches
    /// it (LangRef, pointer aliasing rules; review3 H10).
    pub(crate) fn parameter_and_alloca(&self, ptr: &TypedValue, other: &TypedValue) -> bool {
        self.rooted_at(ptr).0 && self.rooted_at(other).1
    }

    /// For an access through a pointer of unknown origin in a function
    /// with sealed allocas: the condition under which it lands in none of
    /// them, and the name of the block of undefined behaviour.
    pub fn fresh_access(&mut self, inst: &Instruction) -> Option<(Expr, String)> {
        if self.ctx.opts.unchecked_poison || self.sealed.is_empty() {
            return None;
        }
        let (ptr, ty) = match &inst.kind {
            K::Load(l) => (&l.ptr, &l.ty),
            K::Store(s) => (&s.ptr, &s.value.ty),
            _ => return None,
        };
        if let crate::value::Value::Local(n) = &ptr.value {
            if self.promoted.contains_key(n) {
                return None;
            }
        }
        if self.based_on_an_object(ptr) {
            return None;
        }
        let addr = self.ptr_lin(&ptr.value, inst.line(), 0).ok()?.expr();
        let size = self.ctx.layout.store_size(ty, inst.line()).ok()?;
        // Its first and its last byte (an access may straddle two objects).
        let last = Expr::Binary(
            IrBin::Add,
            Box::new(addr.clone()),
            Box::new(Expr::Const((size.max(1) - 1) as i64)),
        );
        // An object's bytes share the address's high 32 bits, or bits 16
        // and up for an object of a 32-bit address space (review3 H16).
        let shr = |e: Expr, k: i64| Expr::Binary(IrBin::Shr, Box::new(e), Box::new(Expr::Const(k)));
        let mut tags: Vec<(i64, i64)> = self
            .sealed
            .iter()
            .map(|&b| {
                let k = if (0..1 << 32).contains(&b) { 16 } else { 32 };
                (k, b >> k)
            })
            .collect();
        tags.sort_unstable();
        tags.dedup();
        let ok = tags
            .into_iter()
            .flat_map(|(k, t)| {
                [addr.clone(), last.clone()].map(|end| {
                    Expr::Binary(IrBin::Ne, Box::new(shr(end, k)), Box::new(Expr::Const(t)))
                })
            })
            .reduce(|a, b| Expr::Binary(IrBin::And, Box::new(a), Box::new(b)))?;
        Some((ok, format!("{FRESH_BLOCK}.line{}", inst.line())))
    }
}
