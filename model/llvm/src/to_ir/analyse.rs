//! The index of one function before its mapping: definitions, uses,
//! blocks, and which allocas are promoted to locals (DESIGN.md 2.9,
//! "Memory": an alloca of an integer, pointer or float whose address is only
//! loaded from and stored to directly, with its own type, possibly through
//! `bitcast` / `addrspacecast` of it and besides `llvm.lifetime.*`, is the
//! `-O0` home of a source variable and becomes a local; volatile and
//! atomic accesses keep an alloca in memory). Allocas kept in memory get
//! their base from their name ([`super::memory::base_of`]); pointers that
//! yield no instruction (`getelementptr`, pointer casts, `inttoptr`) are
//! marked, so that their addresses are folded into their uses.
#![deny(unsafe_code)]

use std::collections::{HashMap, HashSet};

use super::func::FnMapper;
use super::{plain, R};
use crate::inst::{CastOp, InstKind as K, Instruction};
use crate::types::Type;
use crate::value::{Name, Value};

/// Every local value an instruction uses, with whether the use may let an
/// address escape (anything but the address of a load or store).
pub(crate) fn local_uses(k: &K) -> Vec<(&Name, bool)> {
    fn push<'v>(v: &'v Value, escapes: bool, out: &mut Vec<(&'v Name, bool)>) {
        if let Value::Local(n) = v {
            out.push((n, escapes));
        }
    }
    let mut out = Vec::new();
    match k {
        K::Phi(p) => p.incoming.iter().for_each(|(v, _)| push(v, true, &mut out)),
        K::Select(s) => {
            for v in [&s.cond.value, &s.if_true.value, &s.if_false.value] {
                push(v, true, &mut out);
            }
        }
        K::ICmp(c) => {
            push(&c.lhs, true, &mut out);
            push(&c.rhs, true, &mut out);
        }
        K::Binary(b) => {
            push(&b.lhs, true, &mut out);
            push(&b.rhs, true, &mut out);
        }
        K::Cast(c) => push(&c.value.value, true, &mut out),
        K::Freeze(tv) => push(&tv.value, true, &mut out),
        K::Alloca(a) => {
            if let Some(c) = &a.count {
                push(&c.value, true, &mut out);
            }
        }
        K::Load(l) => push(&l.ptr.value, false, &mut out),
        K::Store(s) => {
            push(&s.value.value, true, &mut out);
            push(&s.ptr.value, false, &mut out);
        }
        K::GetElementPtr(g) => {
            push(&g.base.value, true, &mut out);
            g.indices
                .iter()
                .for_each(|i| push(&i.value, true, &mut out));
        }
        K::Call(c) => {
            push(&c.callee, true, &mut out);
            c.args.iter().for_each(|a| push(&a.value, true, &mut out));
            for b in &c.bundles {
                b.inputs.iter().for_each(|i| push(&i.value, true, &mut out));
            }
        }
        K::CondBr { cond, .. } => push(cond, true, &mut out),
        K::Switch(s) => push(&s.value.value, true, &mut out),
        K::Ret(Some(tv)) => push(&tv.value, true, &mut out),
        K::Generic(g) => g.uses.iter().for_each(|n| out.push((n, true))),
        K::Br(_) | K::Ret(None) | K::Unreachable => {}
    }
    out
}

impl<'a> FnMapper<'a> {
    /// Indexes the function: definitions, uses, blocks, promoted allocas,
    /// pointers that yield no instruction, alloca bases.
    pub fn analyse(&mut self) -> R<()> {
        let f = self.f;
        for (i, b) in f.blocks.iter().enumerate() {
            self.blocks.insert(&b.name, i);
        }
        let mut escapes: HashSet<&Name> = HashSet::new();
        let mut casts_of: HashMap<&Name, Vec<&Name>> = HashMap::new();
        for (_, inst) in f.instructions() {
            if let Some(r) = &inst.result {
                self.defs.insert(r, inst);
            }
            // Intrinsics the mapping drops neither use values nor let
            // addresses escape.
            let dropped = inst
                .as_call()
                .and_then(|c| c.callee_name())
                .is_some_and(|n| {
                    super::builtins::classify(n, None) == Some(super::builtins::Builtin::Drop)
                        && self.ctx.m.function(n).is_some_and(|f| !f.is_definition)
                });
            for (n, esc) in local_uses(&inst.kind) {
                if dropped {
                    continue;
                }
                *self.uses.entry(n).or_insert(0) += 1;
                let is_ptr_cast = matches!(&inst.kind, K::Cast(c)
                    if matches!(c.op, CastOp::BitCast | CastOp::AddrSpaceCast)
                        && matches!(c.to, Type::Ptr { .. }));
                if is_ptr_cast {
                    if let Some(r) = &inst.result {
                        casts_of.entry(n).or_default().push(r);
                        continue;
                    }
                }
                if esc {
                    escapes.insert(n);
                }
            }
        }
        // A call that takes a dominating call's value reads through it:
        // the leader is used wherever a follower is.
        self.pure_leaders = super::pure_calls::leaders(f, self.ctx.m);
        for (follower, leader) in &self.pure_leaders {
            if self.uses.get(follower).copied().unwrap_or(0) > 0 {
                *self.uses.entry(leader).or_insert(0) += 1;
            }
        }
        // Loads and stores through each name, to check their types.
        let mut accesses: HashMap<&Name, Vec<(&Instruction, &Type, bool)>> = HashMap::new();
        for (_, inst) in f.instructions() {
            match &inst.kind {
                K::Load(l) => {
                    if let Value::Local(n) = &l.ptr.value {
                        let plain_access = l.atomic.is_none() && !l.volatile;
                        accesses
                            .entry(n)
                            .or_default()
                            .push((inst, &l.ty, plain_access));
                    }
                }
                K::Store(s) => {
                    if let Value::Local(n) = &s.ptr.value {
                        let plain_access = s.atomic.is_none() && !s.volatile;
                        accesses
                            .entry(n)
                            .or_default()
                            .push((inst, &s.value.ty, plain_access));
                    }
                }
                _ => {}
            }
        }
        // The allocas whose address may be captured, numbered in their
        // order in the function: such an alloca's base is named by its
        // number (`escaped_base_name`), not by its LLVM name (review2 G11).
        let captured = super::capture::captured_allocas(f, self.ctx.m);
        let mut escaped = 0usize;
        for (_, inst) in f.instructions() {
            let (Some(r), K::Alloca(a)) = (&inst.result, &inst.kind) else {
                continue;
            };
            let single = match &a.count {
                None => true,
                Some(tv) => tv.value.as_int() == Some(1),
            };
            // Integers, pointers and the float formats the model computes
            // on (a float slot holds its bits, as a float value does:
            // `super::floats`), so that clang -O0's `float` locals are
            // locals, not private memory.
            let scalar = matches!(&a.ty, Type::Int(n) if *n <= 64)
                || matches!(a.ty, Type::Ptr { .. })
                || super::floats::fty(&a.ty).is_some();
            // The alloca and every pointer cast of it, transitively.
            let mut aliases = vec![r];
            let mut k = 0;
            while k < aliases.len() && aliases.len() <= 64 {
                if let Some(cs) = casts_of.get(aliases[k]) {
                    aliases.extend(cs.iter().copied());
                }
                k += 1;
            }
            let promotable = single
                && scalar
                && !a.inalloca
                && aliases.len() <= 64
                && aliases.iter().all(|n| !escapes.contains(n))
                && aliases.iter().all(|n| {
                    accesses
                        .get(n)
                        .is_none_or(|v| v.iter().all(|(_, ty, ok)| *ok && *ty == &a.ty))
                });
            if promotable {
                let slot = plain(r);
                for n in &aliases {
                    self.promoted.insert(n, slot.clone());
                    for (inst, _, _) in accesses.get(n).map(Vec::as_slice).unwrap_or(&[]) {
                        if let K::Store(s) = &inst.kind {
                            self.stored
                                .entry(slot.clone())
                                .or_default()
                                .push(&s.value.value);
                        }
                    }
                }
            } else {
                self.virt.insert(r);
                let name = if captured.contains(r) {
                    escaped += 1;
                    escaped_base_name(&self.f.name, escaped - 1)
                } else {
                    format!("@{}.%{}", self.f.name, plain(r))
                };
                // In an address space of 32-bit pointers (amdgcn's
                // private `p5:32:32`), a base within them (review3 H16).
                let size = self.ctx.layout.size_align(&a.ty, inst.line()).ok();
                let count = match &a.count {
                    None => Some(1),
                    Some(c) => c.value.as_int().and_then(|n| u64::try_from(n).ok()),
                };
                let size = size.zip(count).and_then(|((s, _), n)| s.checked_mul(n));
                let narrow = super::layout::narrow(
                    self.ctx.layout,
                    a.addrspace.unwrap_or(0),
                    Some(size.unwrap_or(u64::MAX)),
                );
                let base = super::layout::base_in(&name, narrow);
                self.alloca_base.insert(r, base);
                if aliases.len() <= 64 && aliases.iter().all(|n| !escapes.contains(n)) {
                    self.sealed.push(base);
                }
            }
        }
        self.capture_sites = super::capture::CaptureSites::new(f, self.ctx.m, &self.alloca_base);
        let mut captured: Vec<i64> = self
            .alloca_base
            .iter()
            .filter(|(n, _)| captured.contains(**n))
            .map(|(_, b)| *b)
            .collect();
        captured.sort_unstable();
        self.captured = captured;
        for (_, inst) in f.instructions() {
            let Some(r) = &inst.result else { continue };
            if self.promoted.contains_key(r) {
                continue;
            }
            match &inst.kind {
                K::GetElementPtr(_) => {
                    self.virt.insert(r);
                }
                K::Cast(c)
                    if matches!(c.op, CastOp::BitCast | CastOp::AddrSpaceCast)
                        && matches!(c.to, Type::Ptr { .. })
                        && matches!(c.value.ty, Type::Ptr { .. }) =>
                {
                    self.virt.insert(r);
                }
                K::Cast(c) if c.op == CastOp::IntToPtr && matches!(c.to, Type::Ptr { .. }) => {
                    self.virt.insert(r);
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The object name whose base the `k`-th alloca of `f` (in the function's
/// order) whose address may be captured has: its order, not its LLVM
/// name, so that a pass that deletes or renames other allocas (SROA
/// promoting the `-O0` slots of parameters) moves no captured address,
/// and a stored copy of the address is the same (review2 G11; LangRef
/// lets the implementation choose an alloca's address). The space in the
/// name keeps it apart from every unquoted LLVM name.
pub(crate) fn escaped_base_name(f: &Name, k: usize) -> String {
    format!("@{f}.%<escaped alloca {k}>")
}
