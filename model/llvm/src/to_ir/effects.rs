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
//! **What such a call writes** ([`writes`], [`FnMapper::clobbers`]). A
//! call that may write memory (LangRef, `memory`: the call site's and the
//! callee's statements both hold; no statement is "any memory") is
//! followed by *clobbers* (`Access::CLOBBER_OBJECT`, `Access::CLOBBER_ALL`,
//! `convcheck_ir::exec::memory`): every byte the call may write reads a
//! fresh value afterwards, until the thread writes it again, in every
//! engine:
//!
//! - `memory(none)`, `memory(read)`, `readonly`, `readnone`: nothing (and
//!   no event, unless the call is not `willreturn`: it may not return,
//!   `super::calls`, review3 H14);
//! - only `inaccessiblemem` (memory no pointer of the module reaches):
//!   nothing, but the call is an event;
//! - `argmem` and not `other` (`argmemonly`, `memory(argmem: write)`):
//!   the object of each pointer argument that is not `readonly` or
//!   `readnone` (an object is an address's high 32 bits; LangRef's
//!   "based on" keeps an access inside its object);
//! - anything else (no statement, `memory(write)`, `other` or `errnomem`
//!   written; target-specific locations are taken as `other`): all shared
//!   and global memory, the private objects of pointer arguments, and every
//!   alloca kept in memory whose address a capture that may run before
//!   the call may have captured (`super::capture`): stored, passed to a
//!   call that may capture it,
//!   converted to an integer, returned, and the object of each private
//!   pointer parameter of the caller (which may have captured it). An
//!   alloca that is only loaded, stored, indexed and compared stays the
//!   thread's own.
//!
//! A pointer argument not of private type whose root is not one known
//! object (a `select` of an alloca and a global, a parameter, a loaded
//! address) has its object clobbered in private memory as well. A call of
//! a function the module defines whose body may (transitively) call
//! something that may write any memory ([`body_may_write_anything`]) is
//! followed by clobbers of the caller's captured allocas and private
//! pointer parameters ([`FnMapper::defined_call_clobbers`]).
//!
//! So a load moved above such a call, or a store's value forwarded across
//! it, is caught, and a call that writes only inaccessible memory, or a
//! pointer argument's object, leaves other memory as it was.
#![deny(unsafe_code)]

use std::collections::HashSet;

use convcheck_ir::{Access, Expr, Inst, InstKind, OpKind, Space};

use super::func::FnMapper;
use super::memory::base_of;
use super::R;
use crate::attrs::Attribute;
use crate::inst::{Call, Instruction};
use crate::module::{Function, Module};
use crate::types::Type;
use crate::value::{Name, TypedValue, Value};

/// Which memory a call that may have effects may write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Writes {
    /// None that a pointer of the module reaches (`inaccessiblemem`).
    Nothing,
    /// The objects of its pointer arguments (`argmem`).
    Arguments,
    /// Any memory: shared, global, its arguments' and captured allocas.
    Everything,
}

pub(crate) const ARGMEM: u8 = 1;
pub(crate) const INACCESSIBLE: u8 = 2;
pub(crate) const OTHER: u8 = 4;

/// The kinds of memory one list of function attributes lets a call write
/// (bits [`ARGMEM`], [`INACCESSIBLE`], [`OTHER`]); every statement holds.
fn written_by(attrs: &[Attribute], m: &Module) -> u8 {
    let mut bits = ARGMEM | INACCESSIBLE | OTHER;
    for a in m.resolve_attrs(attrs) {
        bits &= match a {
            Attribute::Flag(n) => match n.as_str() {
                "readnone" | "readonly" => 0,
                "argmemonly" => ARGMEM,
                "inaccessiblememonly" => INACCESSIBLE,
                "inaccessiblemem_or_argmemonly" => ARGMEM | INACCESSIBLE,
                _ => ARGMEM | INACCESSIBLE | OTHER,
            },
            Attribute::Valued { name, value } if name == "memory" => memory_writes(value),
            _ => ARGMEM | INACCESSIBLE | OTHER,
        };
    }
    bits
}

/// The kinds of memory one list of function attributes lets a call read
/// (bits [`ARGMEM`], [`INACCESSIBLE`], [`OTHER`]); every statement holds.
fn read_by(attrs: &[Attribute], m: &Module) -> u8 {
    let mut bits = ARGMEM | INACCESSIBLE | OTHER;
    for a in m.resolve_attrs(attrs) {
        bits &= match a {
            Attribute::Flag(n) => match n.as_str() {
                "readnone" | "writeonly" => 0,
                "argmemonly" => ARGMEM,
                "inaccessiblememonly" => INACCESSIBLE,
                "inaccessiblemem_or_argmemonly" => ARGMEM | INACCESSIBLE,
                _ => ARGMEM | INACCESSIBLE | OTHER,
            },
            Attribute::Valued { name, value } if name == "memory" => {
                memory_bits(value, |a| matches!(a, "read" | "readwrite"))
            }
            _ => ARGMEM | INACCESSIBLE | OTHER,
        };
    }
    bits
}

/// Which memory a direct call of an external function may read (bits
/// [`ARGMEM`], [`INACCESSIBLE`], [`OTHER`]): what its call site's and its
/// callee's statements both allow.
pub(crate) fn reads(c: &Call, m: &Module) -> u8 {
    let mut bits = read_by(&c.fn_attrs, m);
    if let Some(f) = c.callee.as_global().and_then(|n| m.function_by_name(n)) {
        bits &= read_by(&f.attrs, m);
    }
    bits
}

/// The kinds of memory `memory(VALUE)` lets a call write: a bare access is
/// every location's, `LOC: ACCESS` one location's; `errnomem`, `other` and
/// any location this reader does not know count as other memory.
fn memory_writes(value: &str) -> u8 {
    memory_bits(value, |a| matches!(a, "write" | "readwrite"))
}

/// The kinds of memory `memory(VALUE)` gives an access that `access`
/// accepts (as [`memory_writes`]).
fn memory_bits(value: &str, access: impl Fn(&str) -> bool) -> u8 {
    let writes = |a: &str| access(a.trim());
    let mut default = false;
    let mut each: Vec<(&str, bool)> = Vec::new();
    for part in value.split(',') {
        match part.split_once(':') {
            Some((loc, acc)) => each.push((loc.trim(), writes(acc))),
            None => default = writes(part),
        }
    }
    let of = |loc: &str| {
        each.iter()
            .find(|(l, _)| *l == loc)
            .map_or(default, |(_, w)| *w)
    };
    let mut bits = 0;
    if of("argmem") {
        bits |= ARGMEM;
    }
    if of("inaccessiblemem") {
        bits |= INACCESSIBLE;
    }
    let other_named = each
        .iter()
        .any(|(l, w)| *w && !matches!(*l, "argmem" | "inaccessiblemem"));
    if of("other") || of("errnomem") || other_named {
        bits |= OTHER;
    }
    bits
}

/// Whether a call accesses (reads or writes) only memory no pointer of the
/// module reaches: `memory(inaccessiblemem: ...)` and nothing else, or
/// `inaccessiblememonly`, at the call site or on the callee. Its events
/// are then ordered against the other calls and the convergent
/// operations alone (`Access::EXTERNAL_CALL_INACCESSIBLE`), so a store
/// may move across it. Inline assembly that says `sideeffect` is never
/// taken so.
fn accesses_only_inaccessible(c: &Call, m: &Module) -> bool {
    if super::asm::text(c).is_some() {
        return false;
    }
    let only = |attrs: &[Attribute]| {
        m.resolve_attrs(attrs).any(|a| match a {
            Attribute::Flag(n) => n == "inaccessiblememonly",
            Attribute::Valued { name, value } if name == "memory" => {
                let mut any = false;
                let ok = value.split(',').all(|part| match part.split_once(':') {
                    Some((loc, acc)) => {
                        let none = acc.trim() == "none";
                        any |= loc.trim() == "inaccessiblemem" && !none;
                        loc.trim() == "inaccessiblemem" || none
                    }
                    None => part.trim() == "none",
                });
                ok && any
            }
            _ => false,
        })
    };
    only(&c.fn_attrs)
        || c.callee
            .as_global()
            .and_then(|n| m.function_by_name(n))
            .is_some_and(|f| only(&f.attrs))
}

/// Which memory a call of an external function or of inline assembly
/// that may have effects may write (see the module documentation).
pub(crate) fn writes(c: &Call, m: &Module) -> Writes {
    let mut bits = written_by(&c.fn_attrs, m);
    if let Some(f) = c.callee.as_global().and_then(|n| m.function_by_name(n)) {
        bits &= written_by(&f.attrs, m);
    }
    if bits & OTHER != 0 {
        Writes::Everything
    } else if bits & ARGMEM != 0 {
        Writes::Arguments
    } else {
        Writes::Nothing
    }
}

/// Whether argument `i` of `c` is `readonly` or `readnone` (at the call
/// site or in the callee's declaration): the callee writes nothing through
/// it.
fn read_only_argument(c: &Call, i: usize, m: &Module) -> bool {
    argument_states(c, i, m, |a| a.is("readonly") || a.is("readnone"))
}

/// Whether an attribute of argument `i` of `c`, at the call site or in the
/// callee's declaration, satisfies `what`.
fn argument_states(c: &Call, i: usize, m: &Module, what: impl Fn(&Attribute) -> bool) -> bool {
    let states = |attrs: &[Attribute]| m.resolve_attrs(attrs).any(&what);
    c.args.get(i).is_some_and(|a| states(&a.attrs))
        || c.callee
            .as_global()
            .and_then(|n| m.function_by_name(n))
            .and_then(|f| f.params.get(i))
            .is_some_and(|p| states(&p.attrs))
}

/// Whether argument `i` of `c` is not captured (`nocapture`,
/// `captures(none)`, at the call site or in the declaration), or `c` is an
/// intrinsic that captures no pointer (`llvm.memcpy`, `llvm.lifetime.*`,
/// ...).
pub(crate) fn not_captured(c: &Call, i: usize, m: &Module) -> bool {
    if let Some(n) = c.callee_name() {
        if n.starts_with("llvm.mem")
            || n.starts_with("llvm.lifetime.")
            || super::builtins::classify(n, None) == Some(super::builtins::Builtin::Drop)
        {
            return true;
        }
    }
    argument_states(c, i, m, |a| {
        a.is("nocapture")
            || matches!(a, Attribute::Valued { name, value }
                if name == "captures" && value.trim() == "none")
    })
}

/// Whether the body of the defined function `f`, or of a function it
/// calls, has a call that may write any memory (`Writes::Everything`): a
/// call of inline assembly or of a declared function that may have
/// effects and is no builtin or intrinsic the model knows, or an indirect
/// call. Over-approximates: a convergent or pure call counts as the
/// attributes say.
pub(crate) fn body_may_write_anything<'m>(
    f: &'m Function,
    m: &'m Module,
    seen: &mut HashSet<&'m Name>,
) -> bool {
    if !seen.insert(&f.name) {
        return false;
    }
    for (_, c) in f.calls() {
        let name = match &c.callee {
            Value::InlineAsm(_) => {
                if may_have_effects(c, m) && writes(c, m) == Writes::Everything {
                    return true;
                }
                continue;
            }
            Value::Global(n) => n,
            _ => return true,
        };
        let Some(g) = m.function_by_name(name) else {
            return true;
        };
        if g.is_definition {
            if body_may_write_anything(g, m, seen) {
                return true;
            }
            continue;
        }
        let plain = super::plain(name);
        let dim = c.args.first().and_then(|a| a.value.as_int());
        if plain.starts_with("llvm.")
            || super::builtins::classify(&plain, dim).is_some()
            || super::crosslane::convergent(&plain)
            || super::crosslane::memory_none(&plain)
        {
            continue;
        }
        if may_have_effects(c, m) && writes(c, m) == Writes::Everything {
            return true;
        }
    }
    false
}

/// Whether a non-convergent call of an external function or of inline
/// assembly may have effects (see the module documentation).
pub(crate) fn may_have_effects(c: &Call, m: &Module) -> bool {
    if super::asm::text(c).is_some_and(super::asm::has_side_effects) {
        return true;
    }
    !c.is_writenone(m)
}

impl FnMapper<'_> {
    /// The clobbers after a call that may have effects (see the module
    /// documentation): the first says 1 (a new call), the others 0.
    pub(super) fn clobbers(
        &mut self,
        inst: &Instruction,
        c: &Call,
        callee: &str,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let writes = writes(c, self.ctx.m);
        if writes == Writes::Nothing {
            return Ok(());
        }
        let line = inst.line();
        // (space, address expression, whole memory)
        let mut targets: Vec<(Space, Expr, bool)> = Vec::new();
        if writes == Writes::Everything {
            targets.push((Space::Global, Expr::Const(0), true));
        }
        for (i, a) in c.args.iter().enumerate() {
            if !matches!(a.ty, Type::Ptr { .. }) {
                continue;
            }
            if writes == Writes::Arguments && read_only_argument(c, i, self.ctx.m) {
                continue;
            }
            let tv = TypedValue {
                ty: a.ty.clone(),
                value: a.value.clone(),
            };
            let (space, base, global) = self.location(&tv);
            // A pointer not of private type whose root is not one known
            // object (a `select` or phi of an alloca and a global, a
            // loaded address, ...) may point to a private object: its
            // object is clobbered in both kinds of memory (issue 20, F4).
            let one_object = global.is_some() || space == Space::Local || base == "null";
            let addr = self.ptr_lin(&a.value, line, 0)?.expr();
            if !one_object {
                let t = (Space::Local, addr.clone(), false);
                if !targets.contains(&t) {
                    targets.push(t);
                }
            }
            if writes == Writes::Everything && space != Space::Local {
                continue;
            }
            targets.push((space, addr, false));
        }
        if writes == Writes::Everything {
            for t in self.private_clobbers(inst, line)? {
                if !targets.contains(&t) {
                    targets.push(t);
                }
            }
        }
        self.push_clobbers(
            inst,
            &format!("call {callee} (writes memory)"),
            targets,
            out,
        );
        Ok(())
    }

    /// One clobber per target (`space`, address, whether it is all memory
    /// of the space), labelled `label`.
    fn push_clobbers(
        &mut self,
        inst: &Instruction,
        label: &str,
        targets: Vec<(Space, Expr, bool)>,
        out: &mut Vec<Inst>,
    ) {
        for (k, (space, addr, all)) in targets.into_iter().enumerate() {
            let op = self.op(label.to_string(), OpKind::Mem { space, write: true }, inst);
            let atomic = if all {
                Access::CLOBBER_ALL
            } else {
                Access::CLOBBER_OBJECT
            };
            out.push(Inst {
                kind: InstKind::Eval(Expr::Store {
                    op,
                    space,
                    index: Box::new(addr),
                    value: Box::new(Expr::Const(i64::from(k == 0))),
                    access: Access {
                        bytes: 8,
                        volatile: false,
                        atomic,
                    },
                }),
                sid: op,
                token: None,
            });
        }
    }

    /// The private memory a call that may write any memory may write
    /// besides its arguments': every alloca whose address may have been
    /// captured, and the object of each private (`addrspace(5)`) pointer
    /// parameter, which the caller may have captured (issue 20, F3).
    fn private_clobbers(&mut self, inst: &Instruction, line: u32) -> R<Vec<(Space, Expr, bool)>> {
        let mut out: Vec<(Space, Expr, bool)> = self
            .captured_at(inst)
            .into_iter()
            .map(|b| (Space::Local, Expr::Const(b), false))
            .collect();
        for p in &self.f.params {
            if p.ty == (Type::Ptr { addrspace: 5 }) {
                let addr = self.ptr_lin(&Value::Local(p.name.clone()), line, 0)?.expr();
                out.push((Space::Local, addr, false));
            }
        }
        Ok(out)
    }

    /// The clobbers after a call to the function `callee` the module
    /// defines, when its body may (transitively) call something that may
    /// write any memory ([`body_may_write_anything`]): the caller's
    /// captured allocas and private pointer parameters, which the callee's
    /// own clobbers do not name (capture is found per function; issue 20,
    /// F2). Shared and global memory the callee's clobbers already cover.
    pub(super) fn defined_call_clobbers(
        &mut self,
        inst: &Instruction,
        callee: &Name,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        if self.ctx.opts.calls_as_oracles {
            return Ok(());
        }
        let Some(f) = self.ctx.m.function_by_name(callee) else {
            return Ok(());
        };
        if !body_may_write_anything(f, self.ctx.m, &mut HashSet::new()) {
            return Ok(());
        }
        let targets = self.private_clobbers(inst, inst.line())?;
        let label = format!("call @{} (writes memory)", super::plain(callee));
        self.push_clobbers(inst, &label, targets, out);
        Ok(())
    }

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
        let atomic = if accesses_only_inaccessible(c, self.ctx.m) {
            Access::EXTERNAL_CALL_INACCESSIBLE
        } else {
            Access::EXTERNAL_CALL
        };
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
                        atomic,
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

    /// Which memory each call may write (LangRef, `memory`; both the call
    /// site's and the callee's statements hold), and which calls access
    /// only inaccessible memory.
    #[test]
    fn writes_follow_the_memory_attributes() {
        let src = "declare void @plain(i32)\n\
                   declare void @inacc(i32) memory(inaccessiblemem: readwrite)\n\
                   declare void @argw(ptr) memory(argmem: write)\n\
                   declare void @argw_inacc(ptr) memory(argmem: readwrite, inaccessiblemem: write)\n\
                   declare void @other(i32) memory(other: write)\n\
                   declare void @errno(i32) memory(errnomem: write)\n\
                   declare void @argonly(ptr) argmemonly\n\
                   declare void @write(i32) memory(write)\n\
                   declare void @mixed(i32) memory(read, inaccessiblemem: write)\n\
                   define void @k(ptr %p) {\n\
                   entry:\n\
                   \x20 call void @plain(i32 1)\n\
                   \x20 call void @inacc(i32 1)\n\
                   \x20 call void @argw(ptr %p)\n\
                   \x20 call void @argw_inacc(ptr %p)\n\
                   \x20 call void @other(i32 1)\n\
                   \x20 call void @errno(i32 1)\n\
                   \x20 call void @argonly(ptr %p)\n\
                   \x20 call void @write(i32 1)\n\
                   \x20 call void @mixed(i32 1)\n\
                   \x20 call void @plain(i32 1) memory(argmem: write)\n\
                   \x20 call void @plain(i32 1) memory(inaccessiblemem: write)\n\
                   \x20 ret void\n\
                   }\n";
        let m = crate::parse_module(src, "t.ll").expect("parses");
        let k = m.function("k").expect("@k");
        let got: Vec<(Writes, bool)> = k
            .calls()
            .map(|(_, c)| (writes(c, &m), accesses_only_inaccessible(c, &m)))
            .collect();
        use Writes::*;
        let want = [
            (Everything, false),
            (Nothing, true),
            (Arguments, false),
            (Arguments, false),
            (Everything, false),
            (Everything, false),
            (Arguments, false),
            (Everything, false),
            (Nothing, false),
            (Arguments, false),
            (Nothing, true),
        ];
        assert_eq!(got, want);
    }

    /// Which defined functions' bodies may (transitively) call something
    /// that may write any memory: not one that calls only a `memory(read)`
    /// or an `argmem` function, or a builtin; one that calls, through
    /// another defined function, a function without attributes.
    #[test]
    fn bodies_that_may_write_anything() {
        let src = "declare void @ext()\n\
                   declare void @rd() memory(read)\n\
                   declare void @argw(ptr) memory(argmem: write)\n\
                   declare i32 @llvm.amdgcn.workitem.id.x()\n\
                   define void @reads(ptr %p) {\n\
                   entry:\n\
                   \x20 call void @rd()\n\
                   \x20 call void @argw(ptr %p)\n\
                   \x20 %t = call i32 @llvm.amdgcn.workitem.id.x()\n\
                   \x20 ret void\n\
                   }\n\
                   define void @writes() {\n\
                   entry:\n\
                   \x20 call void @ext()\n\
                   \x20 ret void\n\
                   }\n\
                   define void @outer() {\n\
                   entry:\n\
                   \x20 call void @reads(ptr null)\n\
                   \x20 call void @outer()\n\
                   \x20 call void @writes()\n\
                   \x20 ret void\n\
                   }\n";
        let m = crate::parse_module(src, "t.ll").expect("parses");
        let got: Vec<bool> = ["reads", "writes", "outer"]
            .iter()
            .map(|n| {
                let f = m.function(n).expect("defined");
                body_may_write_anything(f, &m, &mut HashSet::new())
            })
            .collect();
        assert_eq!(got, [false, true, true]);
    }
}
