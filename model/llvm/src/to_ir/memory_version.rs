//! The version of the memory other than private that a thread has written
//! (issue 20, review F1, the general case).
//!
//! A call that writes no memory and may read memory that is not private
//! (`memory(read)`, `readonly`; `memory(argmem: read)` on a pointer of
//! unknown origin) is no event, so where it stands among the thread's
//! stores to shared and global memory is not observed: a target that moves
//! such a store from before the call to after it (the stores the same
//! events in the same order) changes what the call may read, and with a
//! result that ignored memory this was `preserved`. Those stores, the
//! barriers, and every call that may write are events, so two runs whose
//! events agree up to a point have the same memory there (the free values
//! of what the thread did not write are shared by name); what is left is
//! the call's place among them. So in a module with such a call
//! ([`needed`]), the mapping keeps a count of the thread's writes to
//! memory other than private in a local, [`VERSION`] (0 until set, in the
//! entry of a check), increased after every mapped instruction that
//! writes shared or global memory (a store, an atomic, a memory
//! intrinsic, a clobber of a call) or is a barrier
//! ([`writes_shared_memory`]); a memory intrinsic of a variable length by
//! `n != 0` (review2 G12: it writes nothing at 0). A function the module
//! calls takes the caller's count as one more parameter, the last; after
//! a call of one that writes `k` times on every run ([`exact_writes`])
//! the caller's count grows by `k`, and after a call of any other one
//! whose body may write ([`body_may_write`]) the
//! caller's count is the function oracle `CALLEE.version` of the count
//! before and the arguments (review2 G9: not the count plus one, which
//! gave a callee that wrote nothing a write; the callee's events pin what
//! it wrote, so equal counts and arguments before mean equal writes).
//! Such a call's result is a function of the count read
//! at the call (`super::call_reads`), so it changes where the call moves
//! across a write, and two calls with no write between them (EarlyCSE,
//! GVN, LICM) read one value. A local, not memory: the simulation relates
//! locals and refuses private stores.
//!
//! An acquiring atomic load or fence counts as a write ([`acquires`]).
//!
//! Inlining a callee that may write changes the counts after it (a
//! possible false alarm where a later such call's result is observed;
//! never a false proof). A call that may read inaccessible memory reads
//! the count too: its writers are calls that may write, events that
//! count (review2 L4).
#![deny(unsafe_code)]

use std::collections::HashSet;

use convcheck_ir::{CallKind, Expr, Inst, InstKind, OpKind, Space};

use super::effects::{reads, ARGMEM, INACCESSIBLE, OTHER};
use super::func::FnMapper;
use crate::inst::{InstKind as K, Instruction};
use crate::module::{Function, Module};
use crate::value::Name;

/// The local (and, in a function the module calls, the last parameter)
/// that holds the count.
pub(crate) const VERSION: &str = "convcheck.memory.version";

/// Whether `m` has a call whose result the count may decide: a call of a
/// function the module only declares, not an intrinsic, not convergent
/// (a convergent call is an event), that writes no memory and may read
/// argument, inaccessible or other memory, whose
/// result is used (any result, with `every_value`: the mapping then takes
/// every value as used).
pub(crate) fn needed(m: &Module, every_value: bool) -> bool {
    m.defined_functions().any(|f| {
        let used: HashSet<&Name> = f
            .instructions()
            .flat_map(|(_, i)| super::analyse::local_uses(&i.kind))
            .map(|(n, _)| n)
            .collect();
        f.calls().any(|(i, c)| {
            if !i
                .result
                .as_ref()
                .is_some_and(|r| every_value || used.contains(r))
            {
                return false;
            }
            let Some(callee) = c.callee.as_global() else {
                return false;
            };
            let Some(decl) = m.function_by_name(callee) else {
                return false;
            };
            !decl.is_definition
                && !super::plain(callee).starts_with("llvm.")
                && !c.is_convergent(m)
                && c.is_writenone(m)
                && reads(c, m) & (ARGMEM | INACCESSIBLE | OTHER) != 0
        })
    })
}

/// Whether `insts` write shared or global memory or hold a barrier.
pub(crate) fn writes_shared_memory(insts: &[Inst]) -> bool {
    let mut e = |x: &Expr| match x {
        Expr::Store { space, .. } => *space != Space::Local,
        Expr::Call { kind, .. } => matches!(kind, CallKind::Barrier(..)),
        _ => false,
    };
    insts.iter().any(|i| match &i.kind {
        InstKind::Eval(x) => x.any(&mut e),
        InstKind::SetLocal { value: Some(x), .. } => x.any(&mut e),
        InstKind::Phi { incoming, .. } => incoming.iter().any(|(_, x)| x.any(&mut e)),
        _ => false,
    })
}

/// Whether `inst` acquires (an atomic load or `fence` with `acquire`,
/// `acq_rel` or `seq_cst`): the count grows after it too, so that a
/// reading call moved above it reads another value (review3 H5: after an
/// acquire that synchronises, the call must see the other thread's
/// writes; moving it above was `preserved`). Moving a reading call below
/// an acquire (legal in LLVM's memory model) is then an alarm: never a
/// false proof.
pub(crate) fn acquires(inst: &Instruction) -> bool {
    use crate::inst::Ordering as O;
    match &inst.kind {
        K::Load(l) => l
            .atomic
            .as_ref()
            .is_some_and(|a| matches!(a.ordering, O::Acquire | O::AcqRel | O::SeqCst)),
        K::Generic(g) if g.opcode == "fence" => g
            .operands
            .split(|c: char| c.is_whitespace() || c == ',')
            .any(|w| matches!(w, "acquire" | "acq_rel" | "seq_cst")),
        _ => false,
    }
}

/// Whether the body of `f`, or of a function it calls, may write memory
/// or wait at a barrier: a store, an atomic, a call of a declared function
/// that may write (a barrier, a memory intrinsic, anything without
/// `memory(read)`), an indirect call or inline assembly.
pub(crate) fn body_may_write<'m>(
    f: &'m Function,
    m: &'m Module,
    seen: &mut HashSet<&'m Name>,
) -> bool {
    if !seen.insert(&f.name) {
        return false;
    }
    f.instructions().any(|(_, i)| match &i.kind {
        K::Store(_) => true,
        K::Generic(g) => matches!(g.opcode.as_str(), "atomicrmw" | "cmpxchg" | "invoke"),
        K::Call(c) => match c.callee.as_global().and_then(|n| m.function_by_name(n)) {
            Some(g) if g.is_definition => body_may_write(g, m, seen),
            Some(_) => !c.is_writenone(m),
            None => true,
        },
        _ => false,
    })
}

/// The number of writes the body of `f` counts on every run, where it is
/// plain to see: one block, whose stores are to globals named directly
/// (each one write, as a store counts in the caller) and whose calls are
/// of declared functions that write nothing (no count); `None` otherwise
/// (the count after a call of `f` is then an oracle: review2 G9). So
/// inlining such a callee keeps the counts after it.
pub(crate) fn exact_writes(f: &Function, m: &Module) -> Option<i64> {
    let [block] = f.blocks.as_slice() else {
        return None;
    };
    let mut k = 0;
    for i in &block.instructions {
        match &i.kind {
            _ if acquires(i) => return None,
            K::Store(st) => match &st.ptr.value {
                crate::value::Value::Global(_) if st.ptr.ty.addrspace() != Some(5) => k += 1,
                _ => return None,
            },
            K::Call(c) => {
                let decl = c.callee.as_global().and_then(|n| m.function_by_name(n))?;
                if decl.is_definition
                    || super::plain(&decl.name).starts_with("llvm.")
                    || !c.is_writenone(m)
                {
                    return None;
                }
            }
            K::Generic(g) if !matches!(g.opcode.as_str(), "ret") => return None,
            _ => {}
        }
    }
    Some(k)
}

impl FnMapper<'_> {
    /// The count at `inst`.
    pub(super) fn version_now(&mut self, _inst: &Instruction) -> Expr {
        Expr::Var(VERSION.into())
    }

    /// The count increased, after `inst` (which writes shared or global
    /// memory).
    pub(super) fn version_bump(&mut self, inst: &Instruction) -> Inst {
        self.version_bump_if(inst, Expr::Const(1))
    }

    /// The count increased by `cond` (0 or 1), after `inst`: a memory
    /// intrinsic of a variable length writes where its length is not 0.
    pub(super) fn version_bump_if(&mut self, inst: &Instruction, cond: Expr) -> Inst {
        let sid = self.op("memory version", OpKind::Stmt, inst);
        Inst {
            kind: InstKind::SetLocal {
                name: VERSION.into(),
                value: Some(Expr::binary(
                    convcheck_ir::BinOp::Add,
                    Expr::Var(VERSION.into()),
                    cond,
                )),
            },
            sid,
            token: None,
        }
    }

    /// Whether this function takes the caller's count as its last
    /// parameter.
    pub(super) fn takes_version(&self) -> bool {
        self.ctx.versioned && super::ranges::called(self.f, self.ctx.m)
    }
}
