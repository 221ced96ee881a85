//! Memory: promoted allocas, addresses, spaces and the accesses themselves
//! (DESIGN.md 2.6, 2.9).
//!
//! **Promotion.** An alloca of an integer or pointer whose address is only
//! loaded from and stored to directly, with its own type (possibly through
//! `bitcast` / `addrspacecast` of it, and besides `llvm.lifetime.*`), is
//! the `-O0` home of a source variable: it becomes a local named after the
//! alloca, a store sets it and a load reads it, so `-O0` code runs like its
//! source. Volatile and atomic accesses keep an alloca in memory.
//!
//! **Addresses.** Pointers are integers: byte addresses. Global variable
//! number `k` (in module order) has the base `(k + 1) · 2^32`, so bases are
//! distinct and never null; an alloca kept in memory gets the next bases
//! after the globals, in function order; the arrays `@convcheck.shared`,
//! `@convcheck.global` and `@convcheck.local` that [`crate::write`] prints
//! have base 0. `getelementptr` adds its byte offset ([`super::layout`]),
//! casts keep the address. The index of an access is its address divided
//! by the access size, so `a[i]` of an `i32` array is `base/4 + i`.
//!
//! **Spaces.** An access whose address comes from a global or an alloca
//! (through any chain of `getelementptr`, casts, phis and selects that
//! agree, and promoted locals) is in that object's space: address space 3
//! is shared, 5 and allocas are local, every other (0 generic, 1 global, 4
//! constant) is global. An address of unknown origin (a parameter, a
//! loaded pointer) is in the space of the pointer's own address space.
//! Limitation: a generic pointer (address space 0) that is a parameter and
//! points to shared memory is taken as global.
//!
//! **Accesses.** A load is a read event; when its value is used it is a
//! free value, the oracle named after the location's base (`@buf`, `%p`),
//! so a read that only the target makes is still a free value. A store is
//! a write event. Labels are `load @buf` and `store @buf`. Atomic accesses
//! are outside the model.
#![deny(unsafe_code)]

use std::collections::{HashMap, HashSet};

use convcheck_ir::{Expr, Inst, InstKind, OpKind, OracleClass, Space};

use super::conventions::attachment;
use super::func::{value_type, FnMapper};
use super::values::{sext, Lin};
use super::{plain, span_at, unsup, R};
use crate::inst::{CastOp, InstKind as K, Instruction, Load, Store};
use crate::module::Module;
use crate::types::Type;
use crate::value::{ConstOp, Name, TypedValue, Value};

/// The base address and space of every global variable.
pub(crate) struct Globals {
    by_name: HashMap<Name, (i64, Space)>,
    /// The next free base (for allocas).
    pub next: i64,
}

impl Globals {
    pub fn new(m: &Module) -> Globals {
        let mut by_name = HashMap::new();
        for (k, g) in m.globals.iter().enumerate() {
            let written = match &g.name {
                Name::Named(n) => n.strip_prefix("convcheck.").and_then(Space::from_name),
                Name::Numbered(_) => None,
            };
            let entry = match written {
                Some(space) => (0, space),
                None => (((k as i64) + 1) << 32, space_of(g.addrspace)),
            };
            by_name.insert(g.name.clone(), entry);
        }
        Globals {
            by_name,
            next: ((m.globals.len() as i64) + 1) << 32,
        }
    }

    fn get(&self, n: &Name) -> Option<(i64, Space)> {
        self.by_name.get(n).copied()
    }
}

/// The space of an address space.
fn space_of(addrspace: u32) -> Space {
    match addrspace {
        3 => Space::Shared,
        5 => Space::Local,
        _ => Space::Global,
    }
}

/// Where an address comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Root {
    Global(Name),
    Alloca(Name),
    Value(Name),
    Null,
}

/// How deeply address chains are followed.
const MAX_CHAIN: u32 = 256;

/// How many values the search for an address's origin visits at most.
const MAX_ROOT_SEARCH: usize = 1024;

/// Every local value an instruction uses, with whether the use may let an
/// address escape (anything but the address of a load or store).
fn local_uses(k: &K) -> Vec<(&Name, bool)> {
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
        let mut next_base = self.ctx.globals.next;
        for (_, inst) in f.instructions() {
            let (Some(r), K::Alloca(a)) = (&inst.result, &inst.kind) else {
                continue;
            };
            let single = match &a.count {
                None => true,
                Some(tv) => tv.value.as_int() == Some(1),
            };
            let scalar =
                matches!(&a.ty, Type::Int(n) if *n <= 64) || matches!(a.ty, Type::Ptr { .. });
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
                self.alloca_base.insert(r, next_base);
                next_base = next_base.wrapping_add(1 << 32);
            }
        }
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
                _ => {}
            }
        }
        Ok(())
    }

    /// The byte address of a pointer operand.
    pub fn ptr_lin(&mut self, v: &Value, line: u32, depth: u32) -> R<Lin> {
        if depth > MAX_CHAIN {
            return unsup("an address computed through too long a chain", line);
        }
        Ok(match v {
            Value::Local(n) if self.virt.contains(n) => return self.def_lin(n, line, depth + 1),
            Value::Local(n) if self.promoted.contains_key(n) => {
                return unsup(format!("the address of %{n} used as a value"), line)
            }
            Value::Local(n) => Lin::of(Expr::Var(plain(n))),
            Value::Global(g) => match self.ctx.globals.get(g) {
                Some((base, _)) => Lin::konst(base),
                None => return unsup(format!("the address of the function @{g}"), line),
            },
            Value::Null | Value::Undef | Value::Poison | Value::ZeroInitializer => Lin::konst(0),
            Value::Int(i) => Lin::konst(*i as i64),
            Value::ConstExpr(c) => match c.structure() {
                Some(ConstOp::Gep {
                    source_ty,
                    base,
                    indices,
                    ..
                }) => self.gep_lin(&source_ty, &base, &indices, line, depth + 1)?,
                Some(ConstOp::Cast {
                    op: CastOp::AddrSpaceCast | CastOp::BitCast,
                    value,
                    ..
                }) => self.ptr_lin(&value.value, line, depth + 1)?,
                Some(ConstOp::Cast {
                    op: CastOp::IntToPtr,
                    ..
                }) => return unsup("inttoptr", line),
                _ => return unsup(format!("the constant expression '{}'", c.opcode), line),
            },
            other => {
                return unsup(
                    format!(
                        "the pointer constant {}",
                        super::func::short(&other.to_string())
                    ),
                    line,
                )
            }
        })
    }

    /// The address a pointer-producing instruction that yields no IR
    /// instruction computes.
    pub fn def_lin(&mut self, n: &Name, line: u32, depth: u32) -> R<Lin> {
        if let Some(l) = self.lin_memo.get(n) {
            return Ok(l.clone());
        }
        if depth > MAX_CHAIN {
            return unsup("an address computed through too long a chain", line);
        }
        let Some(&inst) = self.defs.get(n) else {
            return unsup(format!("the undefined value %{n}"), line);
        };
        let at = inst.line();
        let lin = match &inst.kind {
            K::Alloca(a) => {
                if let Some(c) = &a.count {
                    if c.value.as_int().is_none() {
                        return unsup("a dynamically sized alloca", at);
                    }
                }
                self.ctx.layout.size_align(&a.ty, at)?;
                Lin::konst(self.alloca_base.get(n).copied().unwrap_or(0))
            }
            K::GetElementPtr(g) => {
                self.gep_lin(&g.source_ty, &g.base, &g.indices, at, depth + 1)?
            }
            K::Cast(c) => self.ptr_lin(&c.value.value, at, depth + 1)?,
            _ => return unsup(format!("the address %{n}"), at),
        };
        self.lin_memo.insert(n.clone(), lin.clone());
        Ok(lin)
    }

    fn gep_lin(
        &mut self,
        source_ty: &Type,
        base: &TypedValue,
        indices: &[TypedValue],
        line: u32,
        depth: u32,
    ) -> R<Lin> {
        if !matches!(base.ty, Type::Ptr { .. }) {
            return unsup(format!("vectors (getelementptr on {})", base.ty), line);
        }
        let mut lin = self.ptr_lin(&base.value, line, depth)?;
        let mut ty = source_ty.clone();
        for (k, idx) in indices.iter().enumerate() {
            let n = match &idx.ty {
                Type::Int(n) if *n <= 64 => *n,
                other => return unsup(format!("a getelementptr index of type {other}"), line),
            };
            if k == 0 {
                let (size, _) = self.ctx.layout.size_align(&ty, line)?;
                lin = lin.plus(self.index_lin(idx, n, line)?.times(size as i64));
                continue;
            }
            let resolved = self.ctx.layout.resolve(&ty).clone();
            match resolved {
                Type::Array { elem, .. } => {
                    let (size, _) = self.ctx.layout.size_align(&elem, line)?;
                    lin = lin.plus(self.index_lin(idx, n, line)?.times(size as i64));
                    ty = *elem;
                }
                Type::Struct { .. } => {
                    let Some(f) = idx.const_sext() else {
                        return unsup("a struct field index that is not a constant", line);
                    };
                    let (off, fty) = self.ctx.layout.field(&resolved, f as i64, line)?;
                    lin = lin.plus(Lin::konst(off as i64));
                    ty = fty;
                }
                Type::Vector { .. } => {
                    return unsup(format!("vectors (getelementptr into {ty})"), line)
                }
                other => return unsup(format!("a getelementptr into {other}"), line),
            }
        }
        Ok(lin)
    }

    fn index_lin(&mut self, idx: &TypedValue, n: u32, line: u32) -> R<Lin> {
        let e = self.value(&idx.value, &idx.ty, line)?;
        Ok(Lin::of(sext(e, n, Default::default())))
    }

    /// Where the address `v` comes from.
    fn root(&self, v: &Value, depth: u32, seen: &mut HashSet<Name>) -> Option<Root> {
        if depth > MAX_CHAIN {
            return None;
        }
        match v {
            Value::Global(g) => Some(Root::Global(g.clone())),
            Value::Null | Value::Undef | Value::Poison | Value::ZeroInitializer => Some(Root::Null),
            Value::ConstExpr(c) => match c.structure()? {
                ConstOp::Gep { base, .. } => self.root(&base.value, depth + 1, seen),
                ConstOp::Cast { value, .. } => self.root(&value.value, depth + 1, seen),
                ConstOp::Binary { .. } => None,
            },
            Value::Local(n) => {
                // A cycle, or a search grown too wide, tells nothing.
                if seen.len() > MAX_ROOT_SEARCH || !seen.insert(n.clone()) {
                    return None;
                }
                let me = Some(Root::Value(n.clone()));
                let Some(inst) = self.defs.get(n) else {
                    return me;
                };
                let merge = |roots: Vec<Option<Root>>| -> Option<Root> {
                    let known: Vec<Root> = roots.into_iter().flatten().collect();
                    match known.first() {
                        None => None,
                        Some(r) if known.iter().all(|x| x == r) => Some(r.clone()),
                        Some(_) => Some(Root::Value(n.clone())),
                    }
                };
                match &inst.kind {
                    K::Alloca(_) => Some(Root::Alloca(n.clone())),
                    K::GetElementPtr(g) => self.root(&g.base.value, depth + 1, seen),
                    K::Cast(c) if matches!(c.op, CastOp::BitCast | CastOp::AddrSpaceCast) => {
                        self.root(&c.value.value, depth + 1, seen)
                    }
                    K::Freeze(tv) => self.root(&tv.value, depth + 1, seen),
                    K::Phi(p) => merge(
                        p.incoming
                            .iter()
                            .map(|(v, _)| self.root(v, depth + 1, seen))
                            .collect(),
                    ),
                    K::Select(s) => merge(vec![
                        self.root(&s.if_true.value, depth + 1, seen),
                        self.root(&s.if_false.value, depth + 1, seen),
                    ]),
                    K::Load(l) => match &l.ptr.value {
                        Value::Local(p) if self.promoted.contains_key(p) => {
                            let slot = &self.promoted[p];
                            let stored: Vec<&Value> =
                                self.stored.get(slot).cloned().unwrap_or_default();
                            merge(
                                stored
                                    .iter()
                                    .map(|v| self.root(v, depth + 1, seen))
                                    .collect(),
                            )
                        }
                        _ => me,
                    },
                    _ => me,
                }
            }
            _ => None,
        }
    }

    /// The space and the base name of an access through `ptr`.
    fn location(&self, ptr: &TypedValue) -> (Space, String) {
        let by_type = space_of(ptr.ty.addrspace().unwrap_or(0));
        match self.root(&ptr.value, 0, &mut HashSet::new()) {
            Some(Root::Global(g)) => match self.ctx.globals.get(&g) {
                Some((_, space)) => (space, format!("@{g}")),
                None => (by_type, format!("@{g}")),
            },
            Some(Root::Alloca(a)) => (Space::Local, format!("%{a}")),
            Some(Root::Value(n)) => (by_type, format!("%{n}")),
            Some(Root::Null) => (by_type, "null".into()),
            None => (by_type, format!("{}[?]", by_type.name())),
        }
    }

    /// A load: a promoted local's value, or a read event.
    pub fn load(&mut self, inst: &Instruction, l: &Load, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        if l.atomic.is_some() {
            return unsup("atomics (load atomic)", line);
        }
        value_type(&l.ty, "a load", line)?;
        if let Value::Local(p) = &l.ptr.value {
            if let Some(slot) = self.promoted.get(p).cloned() {
                if self.used(inst) {
                    let label = format!("load %{slot}");
                    self.set(inst, &label, Expr::Var(slot), out)?;
                }
                return Ok(());
            }
        }
        let (space, base) = self.location(&l.ptr);
        let index = self.access_index(&l.ptr, &l.ty, line)?;
        let label = attachment(self.ctx.m, inst, "convcheck.label")
            .unwrap_or_else(|| format!("load {base}"));
        let op = self.op(
            label,
            OpKind::Mem {
                space,
                write: false,
            },
            inst,
        );
        let used = self.used(inst);
        let value = if used {
            let name = match (&inst.result, self.ctx.opts.every_value) {
                (Some(r), true) => format!("%{}", plain(r)),
                _ => attachment(self.ctx.m, inst, "convcheck.oracle").unwrap_or(base),
            };
            let span = span_at(inst.span.line, inst.span.col);
            Some(self.t.oracle(&name, OracleClass::Varying, span))
        } else {
            None
        };
        let e = Expr::Load {
            op,
            space,
            index: Box::new(index),
            value,
        };
        let kind = if used {
            InstKind::SetLocal {
                name: plain(inst.result.as_ref().expect("a used load has a result")),
                value: Some(e),
            }
        } else {
            InstKind::Eval(e)
        };
        out.push(Inst {
            kind,
            sid: op,
            token: None,
        });
        Ok(())
    }

    /// A store: sets a promoted local, or a write event.
    pub fn store(&mut self, inst: &Instruction, s: &Store, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        if s.atomic.is_some() {
            return unsup("atomics (store atomic)", line);
        }
        value_type(&s.value.ty, "a stored value", line)?;
        let value = self.value(&s.value.value, &s.value.ty, line)?;
        if let Value::Local(p) = &s.ptr.value {
            if let Some(slot) = self.promoted.get(p).cloned() {
                let sid = self.stmt_op(&format!("store %{slot}"), inst);
                out.push(Inst {
                    kind: InstKind::SetLocal {
                        name: slot,
                        value: Some(value),
                    },
                    sid,
                    token: None,
                });
                return Ok(());
            }
        }
        let (space, base) = self.location(&s.ptr);
        let index = self.access_index(&s.ptr, &s.value.ty, line)?;
        let label = attachment(self.ctx.m, inst, "convcheck.label")
            .unwrap_or_else(|| format!("store {base}"));
        let op = self.op(label, OpKind::Mem { space, write: true }, inst);
        out.push(Inst {
            kind: InstKind::Eval(Expr::Store {
                op,
                space,
                index: Box::new(index),
                value: Box::new(value),
            }),
            sid: op,
            token: None,
        });
        Ok(())
    }

    fn access_index(&mut self, ptr: &TypedValue, ty: &Type, line: u32) -> R<Expr> {
        if !matches!(ptr.ty, Type::Ptr { .. }) {
            return unsup(format!("vectors (an access through {})", ptr.ty), line);
        }
        let lin = self.ptr_lin(&ptr.value, line, 0)?;
        let (size, _) = self.ctx.layout.size_align(ty, line)?;
        Ok(lin.index(size))
    }
}
