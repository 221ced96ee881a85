//! Calls to external functions that may have effects (DESIGN.md 2.7, item
//! 1: "calls to external functions that may have effects" are observable;
//! issue 20).
//!
//! A call to a function the module only declares, or of inline assembly,
//! that is not convergent (a convergent call is already an event with its
//! arguments), is no builtin or intrinsic the model knows, and may have
//! effects ([`may_have_effects`]: neither the call site nor the callee says
//! `readnone`, `readonly` or a `memory(...)` without `write`; inline
//! assembly that says `sideeffect` always may) is written, before its
//! result's oracle is read, as one **atomic store per argument**
//! ([`convcheck_ir::Access::EXTERNAL_CALL`]) to a pseudo-object of global
//! memory named after the callee, `call @f` (`call asm.HASH` for inline
//! assembly): argument `i` at byte offset `8 * (i + 1)` (so that no two
//! arguments overlap), its value as a store would write it (an integer's
//! `N` bits, a pointer's address, a float's bits), labelled `call @f
//! (argument i)`; a call without arguments stores one byte 0 at offset 0,
//! labelled `call @f`. Reports print these events so (`call @ext
//! (argument 0) = 5`, `convcheck_ir::exec::observe`). Every engine already observes stores with their
//! object, offset, width and value, in the thread's order, so deleting
//! such a call, changing an argument, reordering two calls or running one
//! on another path changes the thread's events; no engine needed a new
//! kind of event.
//!
//! Why an atomic store: two threads' calls write the same pseudo-location,
//! and atomics never race with each other (DESIGN.md 2.6); an atomic of
//! this operation leaves no value in the thread's memory, so a load never
//! reads what it "wrote", and no load of a program can address the
//! pseudo-object anyway (its base is a hash of its name, `call @f`, which
//! no global, alloca or parameter has). Barriers and phases are
//! untouched. The atomic-orderings ceiling (`checker/src/llvm/orderings.rs`)
//! reads LLVM instructions, not these events, so it does not see them.
//!
//! The call's effects on memory (what it writes, what later loads read)
//! are still not modelled: only that it happened, and with which
//! arguments.
#![deny(unsafe_code)]

use convcheck_ir::{Access, Expr, Inst, InstKind, OpKind, Space};

use super::func::FnMapper;
use super::memory::base_of;
use super::R;
use crate::inst::{Call, Instruction};
use crate::module::Module;
use crate::types::Type;

/// Whether a non-convergent call of an external function or of inline
/// assembly may have effects (see the module documentation).
pub(crate) fn may_have_effects(c: &Call, m: &Module) -> bool {
    if super::asm::text(c).is_some_and(super::asm::has_side_effects) {
        return true;
    }
    !c.is_writenone(m)
}

impl FnMapper<'_> {
    /// The events of a call to the external function shown as `callee`
    /// (`@f`, or inline assembly's `asm.HASH`) that may have effects: one
    /// atomic store per argument to the pseudo-object `call CALLEE`.
    pub(super) fn effect_events(
        &mut self,
        inst: &Instruction,
        c: &Call,
        callee: &str,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        let object = format!("call {callee}");
        let base = base_of(&object);
        let space = Space::Global;
        let mut stores = Vec::new();
        for (i, a) in c.args.iter().enumerate() {
            let e = self.value(&a.value, &a.ty, line)?;
            let bits = match &a.ty {
                Type::Int(n) => *n,
                Type::Ptr { addrspace } => 8 * self.ctx.layout.pointer_bytes(*addrspace) as u32,
                ty => super::func::width_of(ty),
            };
            let value = super::values::zext(e, bits, Default::default());
            let bytes = bits.div_ceil(8).clamp(1, 8);
            stores.push((
                format!("{object} (argument {i})"),
                8 * (i as i64 + 1),
                value,
                bytes,
            ));
        }
        if stores.is_empty() {
            stores.push((object.clone(), 0, Expr::Const(0), 1));
        }
        for (label, offset, value, bytes) in stores {
            let op = self.op(label, OpKind::Mem { space, write: true }, inst);
            out.push(Inst {
                kind: InstKind::Eval(Expr::Store {
                    op,
                    space,
                    index: Box::new(Expr::Const(base + offset)),
                    value: Box::new(value),
                    access: Access {
                        bytes,
                        volatile: false,
                        atomic: Access::EXTERNAL_CALL,
                    },
                }),
                sid: op,
                token: None,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which calls may have effects, by their attributes (LangRef,
    /// `memory`): each call of `@k` in order.
    #[test]
    fn effects_follow_the_memory_attributes() {
        let src = "declare void @plain(i32)\n\
                   declare void @none(i32) memory(none)\n\
                   declare void @read(i32) memory(read)\n\
                   declare void @argread(ptr) memory(argmem: read)\n\
                   declare void @inacc(i32) memory(argmem: read, inaccessiblemem: write)\n\
                   declare void @errno(i32) memory(errnomem: write)\n\
                   declare void @ro(i32) readonly\n\
                   declare void @rn(i32) readnone\n\
                   declare void @rw(ptr) memory(argmem: readwrite)\n\
                   define void @k(ptr %p) {\n\
                   entry:\n\
                   \x20 call void @plain(i32 1)\n\
                   \x20 call void @none(i32 1)\n\
                   \x20 call void @read(i32 1)\n\
                   \x20 call void @argread(ptr %p)\n\
                   \x20 call void @inacc(i32 1)\n\
                   \x20 call void @errno(i32 1)\n\
                   \x20 call void @ro(i32 1)\n\
                   \x20 call void @rn(i32 1)\n\
                   \x20 call void @rw(ptr %p)\n\
                   \x20 call void @plain(i32 1) memory(read)\n\
                   \x20 call void asm sideeffect \"nop;\", \"\"() memory(none)\n\
                   \x20 call void asm \"nop;\", \"\"() memory(none)\n\
                   \x20 call void asm \"nop;\", \"\"()\n\
                   \x20 ret void\n\
                   }\n";
        let m = crate::parse_module(src, "t.ll").expect("parses");
        let k = m.function("k").expect("@k");
        let got: Vec<bool> = k.calls().map(|(_, c)| may_have_effects(c, &m)).collect();
        let want = [
            true, false, false, false, true, true, false, false, true, false, true, false, true,
        ];
        assert_eq!(got, want);
    }
}
