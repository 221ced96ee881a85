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
//! **Objects and addresses** (DESIGN.md 2.6). Pointers are integers: an
//! object's *base* plus a byte offset. Objects are named by what they are,
//! never by their position: a global `@g` has the base `tag(g) · 2^32`, an
//! alloca kept in memory `tag(f.%a) · 2^32`, where `tag` is a 31-bit hash
//! of the name (never 0; in an address space of 32-bit pointers a 15-bit
//! tag times 2^16, within them: `super::layout::narrow`, review3 H16), so
//! a pass that deletes or reorders globals moves no address; an alloca
//! whose address may be captured is named by its order among those (`super::analyse::escaped_base_name`), so that SROA
//! renumbering it moves no stored address. The arrays
//! `@convcheck.shared`, `@convcheck.global` and `@convcheck.local` that
//! [`crate::write`] prints have base 0 and hold elements. `getelementptr` adds its byte offset ([`super::layout`]), in
//! the pointer width of its address space: with the datalayout's
//! `p3:32:32` an offset wraps within the low 32 bits and keeps the object
//! (`(p & ~0xffffffff) | ((p + d) & 0xffffffff)`), so a GEP whose index an
//! optimisation narrowed to `i32` gives the same address. Casts keep the
//! address; `inttoptr` takes the object back from the `ptrtoint` its
//! integer came from (provenance), when there is one.
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
//! **Accesses** carry their width in bytes and whether they are volatile,
//! and the interpreter gives them values (`convcheck_ir::exec::memory`):
//! private memory is thread state, a load of shared or global memory reads
//! the thread's own writes of the barrier phase or a free value named by
//! the location and the phase, a store writes its value (normalised to its
//! width, so that it is compared). A load from a `constant` global with an
//! initializer (not `externally_initialized`) reads the initializer
//! ([`super::constants`]): a pure value, no event. Labels are `load @buf`
//! and `store @buf`. `atomicrmw` and `cmpxchg` are [`super::atomics`];
//! `load atomic` and `store atomic` (every ordering and sync scope) are
//! loads and stores as above, labelled `load atomic @buf` and `store
//! atomic @buf`, with an atomic access ([`super::atomics::LOAD_ATOMIC`],
//! [`super::atomics::STORE_ATOMIC`]): two atomics never race, an atomic
//! and a plain access by two threads in one phase do, and a barrier
//! orders them as it orders plain accesses. A `store atomic` leaves its
//! value in the thread's memory as a plain store does; a `load atomic`
//! reads as a plain load does (the thread's own writes of the phase, else
//! the location's free value). Orderings are not modelled (see
//! [`super::atomics`]); an unused `load atomic` is as an unused load (LLVM
//! keeps one of ordering `monotonic` or stronger, so a target that deleted
//! it would not be caught).
#![deny(unsafe_code)]

use std::collections::{HashMap, HashSet};

use convcheck_ir::{Access, Expr, Inst, InstKind, OpKind, OracleClass, Space};

use super::conventions::attachment;
use super::func::{value_type, FnMapper};
use super::values::{sext, Lin};
use super::{plain, span_at, unsup, R};
use crate::inst::{CastOp, InstKind as K, Instruction, Load, Store};
use crate::module::Module;
use crate::types::Type;
use crate::value::{ConstOp, Name, TypedValue, Value};

/// What the mapping knows of a global variable.
#[derive(Clone, Debug)]
pub(crate) struct GlobalInfo {
    /// Its base address.
    pub base: i64,
    /// Its space.
    pub space: Space,
    /// One of the element arrays [`crate::write`] prints.
    pub elements: bool,
    /// The bytes of a constant's initializer (`None` for a variable, or an
    /// initializer [`super::constants`] does not read).
    pub table: Option<Vec<super::constants::Byte>>,
    /// Whether it is a constant with an initializer (its loads read the
    /// initializer, or a free value where `table` is `None`).
    pub constant: bool,
    /// Its size in bytes, for a definition (`None` for an external
    /// declaration, whose size another module gives: `extern __shared__`
    /// arrays are `[0 x T]`), and its alignment: the written one, `None`
    /// where none is written ([`super::bounds`]).
    pub size: Option<u64>,
    /// See `size`.
    pub align: Option<u64>,
}

/// Every global variable of the module.
pub(crate) struct Globals {
    by_name: HashMap<Name, GlobalInfo>,
    /// The internal constants whose address the module lets go somewhere
    /// other than a load (a call argument, a store): a pointer of unknown
    /// origin may point into them (review3 H8), in name order.
    pub(super) escaped_tables: Vec<(Name, GlobalInfo)>,
}

/// The base of the object named `name` (`convcheck_ir::exec::memory::object_base`).
pub(crate) fn base_of(name: &str) -> i64 {
    convcheck_ir::exec::memory::object_base(name)
}

impl Globals {
    pub fn new(m: &Module, layout: &super::layout::Layout) -> Globals {
        let mut by_name = HashMap::new();
        // Bases are given out in sorted-name order, so that a tag
        // collision resolves the same way in two modules with the same
        // globals (`object_base`).
        let narrow = |g: &crate::module::GlobalVar| {
            let size = layout.size_align(&g.ty, g.span.line).ok().map(|(s, _)| s);
            super::layout::narrow(layout, g.addrspace, size)
        };
        let mut names: Vec<(String, bool)> = m
            .globals
            .iter()
            .map(|g| (format!("@{}", g.name), narrow(g)))
            .collect();
        names.sort();
        for (n, narrow) in &names {
            super::layout::base_in(n, *narrow);
        }
        for g in &m.globals {
            let written = match &g.name {
                Name::Named(n) => n.strip_prefix("convcheck.").and_then(Space::from_name),
                Name::Numbered(_) => None,
            };
            let info = match written {
                Some(space) => GlobalInfo {
                    base: 0,
                    space,
                    elements: true,
                    table: None,
                    constant: false,
                    size: None,
                    align: None,
                },
                None => GlobalInfo {
                    base: super::layout::base_in(&format!("@{}", g.name), narrow(g)),
                    space: space_of(g.addrspace),
                    elements: false,
                    table: None,
                    // An internal global nothing may write reads its
                    // initializer as a constant does (`never_written`).
                    constant: (g.is_constant || super::never_written::never_written(m, g))
                        && g.initializer.is_some()
                        && !g.externally_initialized,
                    size: None,
                    align: g.align,
                },
            };
            let mut info = info;
            if !info.elements {
                if let Ok((size, _)) = layout.size_align(&g.ty, g.span.line) {
                    if g.initializer.is_some() {
                        info.size = Some(size);
                    }
                    // Its alignment is the written one: unwritten, LLVM's
                    // own (the datalayout's preferred alignment, 16 for
                    // large globals on some targets) may exceed the
                    // type's, so it is not known here.
                }
            }
            by_name.insert(g.name.clone(), info);
        }
        // The tables of constants (a constant may hold another global's
        // address).
        let bases: HashMap<String, i64> = by_name
            .iter()
            .map(|(n, i)| (n.to_string(), i.base))
            .collect();
        for g in &m.globals {
            let Some(info) = by_name.get_mut(&g.name) else {
                continue;
            };
            if !info.constant {
                continue;
            }
            if let Some(init) = &g.initializer {
                let base = |n: &str| bases.get(n).copied();
                info.table = super::constants::bytes(layout, &g.ty, init, &base);
                if info.table.is_none() {
                    // A table it cannot read (review3 H11): its location
                    // carries a hash of the initializer, so that another
                    // module with another initializer reads other free
                    // values at a computed offset (and `table_read` names
                    // a known offset's value with the same hash).
                    let tag = super::call_reads::constants_tag(m, Some(&[g.name.to_string()]));
                    info.base = super::layout::base_in(&format!("@{}{tag}", g.name), narrow(g));
                }
            }
        }
        let escaped_tables = super::never_written::escaped_tables(m, &by_name);
        Globals {
            by_name,
            escaped_tables,
        }
    }

    fn get(&self, n: &Name) -> Option<&GlobalInfo> {
        self.by_name.get(n)
    }
}

/// `p`'s object (its high 32 bits) with `x`'s low 32 bits as the offset:
/// an address computed in an address space of 32-bit pointers.
pub(super) fn wrap32(p: Expr, x: Expr) -> Expr {
    use convcheck_ir::BinOp;
    let hi = super::values::bin(BinOp::BitAnd, p, Expr::Const(!0xffff_ffff));
    let lo = super::values::bin(BinOp::BitAnd, x, Expr::Const(0xffff_ffff));
    super::values::bin(BinOp::BitOr, hi, lo)
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

impl<'a> FnMapper<'a> {
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
                Some(info) => Lin::konst(info.base),
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
                    value,
                    ..
                }) => {
                    let n = value_type(&value.ty, "inttoptr", line)?;
                    let e = self.value(&value.value, &value.ty, line)?;
                    Lin::of(super::values::zext(e, n, Default::default()))
                }
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
            K::Cast(c) if c.op == CastOp::IntToPtr => self.int_to_ptr(c, at, depth + 1)?,
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
        let Type::Ptr { addrspace } = base.ty else {
            return unsup(format!("vectors (getelementptr on {})", base.ty), line);
        };
        let lin = self.gep_offsets(source_ty, base, indices, line, depth)?;
        // In an address space of 32-bit pointers, the offset wraps within
        // the low 32 bits and the object stays.
        if self.ctx.layout.pointer_bytes(addrspace) <= 4 {
            let p = self.ptr_lin(&base.value, line, depth)?.expr();
            return Ok(Lin::of(wrap32(p, lin.expr())));
        }
        Ok(lin)
    }

    fn gep_offsets(
        &mut self,
        source_ty: &Type,
        base: &TypedValue,
        indices: &[TypedValue],
        line: u32,
        depth: u32,
    ) -> R<Lin> {
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

    /// `inttoptr`: the integer's value, on the object of the `ptrtoint` it
    /// came from when there is one (its provenance: the object's base in
    /// the high 32 bits, the integer's low 32 bits as the offset), else the
    /// integer itself (zero-extended from its width).
    fn int_to_ptr(&mut self, c: &crate::inst::Cast, line: u32, depth: u32) -> R<Lin> {
        let n = value_type(&c.value.ty, "inttoptr", line)?;
        let x = self.value(&c.value.value, &c.value.ty, line)?;
        match self.provenance(&c.value.value, 0) {
            Some(q) => {
                let p = self.ptr_lin(&q, line, depth)?.expr();
                Ok(Lin::of(wrap32(p, x)))
            }
            None => Ok(Lin::of(super::values::zext(x, n, Default::default()))),
        }
    }

    /// The pointer an integer's value came from through `ptrtoint` (and
    /// integer arithmetic, casts and `freeze` on the way), if one.
    pub(crate) fn provenance(&self, v: &Value, depth: u32) -> Option<Value> {
        if depth > 32 {
            return None;
        }
        let Value::Local(n) = v else { return None };
        let inst = self.defs.get(n)?;
        match &inst.kind {
            K::Cast(c) if c.op == CastOp::PtrToInt => Some(c.value.value.clone()),
            K::Cast(c) if matches!(c.op, CastOp::ZExt | CastOp::SExt | CastOp::Trunc) => {
                self.provenance(&c.value.value, depth + 1)
            }
            K::Freeze(tv) => self.provenance(&tv.value, depth + 1),
            K::Binary(b) => {
                let l = self.provenance(&b.lhs, depth + 1);
                let r = self.provenance(&b.rhs, depth + 1);
                match (l, r) {
                    (Some(q), None) | (None, Some(q)) => Some(q),
                    _ => None,
                }
            }
            _ => None,
        }
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
                // An incoming whose root is not found makes the merge
                // unknown (review3 H2: `phi [@a, inttoptr (i64 C)]` is not
                // `@a`); a value already visited (a cycle) is skipped.
                let merge = |roots: Vec<Option<Option<Root>>>| -> Option<Root> {
                    let roots: Vec<Option<Root>> = roots.into_iter().flatten().collect();
                    if roots.iter().any(Option::is_none) {
                        return Some(Root::Value(n.clone()));
                    }
                    let known: Vec<Root> = roots.into_iter().flatten().collect();
                    match known.first() {
                        None => None,
                        Some(r) if known.iter().all(|x| x == r) => Some(r.clone()),
                        Some(_) => Some(Root::Value(n.clone())),
                    }
                };
                let sub = |v: &Value, seen: &mut HashSet<Name>| -> Option<Option<Root>> {
                    let revisit = matches!(v, Value::Local(x) if seen.contains(x));
                    let r = self.root(v, depth + 1, seen);
                    (r.is_some() || !revisit).then_some(r)
                };
                match &inst.kind {
                    K::Alloca(_) => Some(Root::Alloca(n.clone())),
                    K::GetElementPtr(g) => self.root(&g.base.value, depth + 1, seen),
                    K::Cast(c) if matches!(c.op, CastOp::BitCast | CastOp::AddrSpaceCast) => {
                        self.root(&c.value.value, depth + 1, seen)
                    }
                    K::Cast(c) if c.op == CastOp::IntToPtr => {
                        match self.provenance(&c.value.value, 0) {
                            Some(q) => self.root(&q, depth + 1, seen),
                            None => me,
                        }
                    }
                    K::Freeze(tv) => self.root(&tv.value, depth + 1, seen),
                    K::Phi(p) => merge(p.incoming.iter().map(|(v, _)| sub(v, seen)).collect()),
                    K::Select(s) => merge(vec![
                        sub(&s.if_true.value, seen),
                        sub(&s.if_false.value, seen),
                    ]),
                    K::Load(l) => match &l.ptr.value {
                        Value::Local(p) if self.promoted.contains_key(p) => {
                            let slot = &self.promoted[p];
                            let stored: Vec<&Value> =
                                self.stored.get(slot).cloned().unwrap_or_default();
                            merge(stored.iter().map(|v| sub(v, seen)).collect())
                        }
                        _ => me,
                    },
                    _ => me,
                }
            }
            _ => None,
        }
    }

    /// The object `ptr` is based on (its provenance), for the bounds and
    /// alignment of an access through it ([`super::bounds`]).
    pub(crate) fn object_of(&self, ptr: &TypedValue, line: u32) -> Option<super::bounds::Object> {
        use super::bounds::Object;
        match self.root(&ptr.value, 0, &mut HashSet::new())? {
            Root::Global(g) => {
                let info = self.ctx.globals.get(&g)?;
                if info.elements {
                    return Some(Object::Elements);
                }
                Some(Object::Known {
                    base: info.base,
                    size: info.size,
                    align: info.align,
                })
            }
            Root::Alloca(a) => {
                let base = *self.alloca_base.get(&a)?;
                let K::Alloca(al) = &self.defs.get(&a)?.kind else {
                    return None;
                };
                let (size, _) = self.ctx.layout.size_align(&al.ty, line).ok()?;
                let count = match &al.count {
                    None => Some(1),
                    Some(c) => c.value.as_int().and_then(|n| u64::try_from(n).ok()),
                };
                Some(Object::Known {
                    base,
                    size: count.and_then(|n| size.checked_mul(n)),
                    // Unwritten, LLVM gives an alloca its preferred
                    // alignment, which may exceed the type's: not known.
                    align: al.align,
                })
            }
            Root::Value(n) => Some(Object::Unknown(n)),
            Root::Null => None,
        }
    }

    /// Whether `ptr`'s root is a parameter of the function, and whether it
    /// is an alloca ([`super::fresh`]).
    pub(crate) fn rooted_at(&self, ptr: &TypedValue) -> (bool, bool) {
        match self.root(&ptr.value, 0, &mut HashSet::new()) {
            Some(Root::Value(n)) => (self.f.params.iter().any(|p| p.name == n), false),
            Some(Root::Alloca(_)) => (false, true),
            _ => (false, false),
        }
    }

    /// Whether `ptr` is based on an alloca or a global (its root), not on
    /// a value of unknown origin ([`super::fresh`]).
    pub(crate) fn based_on_an_object(&self, ptr: &TypedValue) -> bool {
        matches!(
            self.root(&ptr.value, 0, &mut HashSet::new()),
            Some(Root::Alloca(_) | Root::Global(_))
        )
    }

    /// Where an access through `ptr` goes: its space, the base name for
    /// labels, and what the mapping knows of a global root.
    pub(crate) fn location(&self, ptr: &TypedValue) -> (Space, String, Option<GlobalInfo>) {
        let by_type = space_of(ptr.ty.addrspace().unwrap_or(0));
        match self.root(&ptr.value, 0, &mut HashSet::new()) {
            Some(Root::Global(g)) => match self.ctx.globals.get(&g) {
                Some(info) => (info.space, format!("@{g}"), Some(info.clone())),
                None => (by_type, format!("@{g}"), None),
            },
            Some(Root::Alloca(a)) => (Space::Local, format!("%{a}"), None),
            Some(Root::Value(n)) => (by_type, format!("%{n}"), None),
            Some(Root::Null) => (by_type, "null".into(), None),
            None => (by_type, format!("{}[?]", by_type.name()), None),
        }
    }

    /// Whether `ptr`'s origin is unknown (a parameter, a loaded pointer, a
    /// call's result: no global, alloca or null it is based on).
    pub(super) fn unknown_origin(&self, ptr: &TypedValue) -> bool {
        matches!(
            self.root(&ptr.value, 0, &mut HashSet::new()),
            Some(Root::Value(_)) | None
        )
    }

    /// A load: a promoted local's value, a constant's initializer, or an
    /// access.
    pub fn load(&mut self, inst: &Instruction, l: &Load, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        value_type(&l.ty, "a load", line)?;
        if let Value::Local(p) = &l.ptr.value {
            if let Some(slot) = self.promoted.get(p).cloned() {
                if self.used(inst) {
                    let label = format!("load %{slot}");
                    let e = self.slot_read(inst, &l.ty, slot);
                    self.set(inst, &label, e, out)?;
                }
                return Ok(());
            }
        }
        self.unknown_private_access(inst, &l.ptr, "load")?;
        let (space, base, global) = self.location(&l.ptr);
        let size = self.ctx.layout.store_size(&l.ty, line)?;
        let elements = global.as_ref().is_some_and(|g| g.elements);
        let used = self.used(inst);
        // Under `MapOptions::every_value` (the uniformity oracle) a load's
        // value is named after its result, so findings name LLVM's values.
        let name = match (&inst.result, self.ctx.opts.every_value) {
            (Some(r), true) => format!("%{}", plain(r)),
            _ => attachment(self.ctx.m, inst, "convcheck.oracle").unwrap_or(base.clone()),
        };
        let span = span_at(inst.span.line, inst.span.col);
        if let Some(g) = global.as_ref().filter(|g| g.constant && !l.volatile) {
            // Constant memory returns its initializer: a value, no event
            // (a table it cannot read, at an address it cannot tell, is
            // read as memory, below).
            if !used {
                return Ok(());
            }
            let addr = self.ptr_lin(&l.ptr.value, line, 0)?.expr();
            if let Some(e) = self.table_read(g, &name, addr, size, span) {
                let label = format!("load {base}");
                self.set(inst, &label, e, out)?;
                return Ok(());
            }
        }
        if elements && l.atomic.is_some() {
            return unsup("atomics (load atomic of an element array)", line);
        }
        let index = self.access_index(&l.ptr, size, elements, line)?;
        let (atomic, what) = match l.atomic {
            Some(_) => (super::atomics::LOAD_ATOMIC, "load atomic"),
            None => (0, "load"),
        };
        let label = attachment(self.ctx.m, inst, "convcheck.label")
            .unwrap_or_else(|| format!("{what} {base}"));
        let op = self.op(
            label,
            OpKind::Mem {
                space,
                write: false,
            },
            inst,
        );
        let value = used.then(|| self.t.oracle(&name, OracleClass::Varying, span));
        let access = if elements {
            Access::ELEMENT
        } else {
            Access {
                bytes: size.min(8) as u32,
                volatile: l.volatile,
                atomic,
            }
        };
        let mut e = Expr::Load {
            op,
            space,
            index: Box::new(index),
            value,
            access,
        };
        if used && !l.volatile && l.atomic.is_none() && !elements {
            e = self.escaped_table_read(&l.ptr, e, size, line, span)?;
        }
        let e = self.mem_uninit_read(inst, &l.ptr, e);
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
        value_type(&s.value.ty, "a stored value", line)?;
        if let Value::Local(p) = &s.ptr.value {
            if let Some(slot) = self.promoted.get(p).cloned() {
                let value = self.value(&s.value.value, &s.value.ty, line)?;
                let sid = self.stmt_op(&format!("store %{slot}"), inst);
                out.push(Inst {
                    kind: InstKind::SetLocal {
                        name: slot.clone(),
                        value: Some(value),
                    },
                    sid,
                    token: None,
                });
                self.slot_stored(&slot, &s.value.value, inst, out);
                return Ok(());
            }
        }
        self.unknown_private_access(inst, &s.ptr, "store")?;
        let (space, base, global) = self.location(&s.ptr);
        let elements = global.as_ref().is_some_and(|g| g.elements);
        let size = self.ctx.layout.store_size(&s.value.ty, line)?;
        // The stored value is compared: its width's bits alone.
        let value = if elements {
            self.value(&s.value.value, &s.value.ty, line)?
        } else {
            let e = self.value(&s.value.value, &s.value.ty, line)?;
            let bits = match &s.value.ty {
                Type::Int(n) => *n,
                Type::Ptr { addrspace } => 8 * self.ctx.layout.pointer_bytes(*addrspace) as u32,
                ty => super::func::width_of(ty),
            };
            super::values::zext(e, bits, Default::default())
        };
        // Shared and global memory observe the value with its definedness
        // (`FnMapper::observed_value`); private memory is thread state.
        let value = if space == convcheck_ir::Space::Local {
            value
        } else {
            self.observed_value(&s.value.value, &s.value.ty, value, false)
        };
        if elements && s.atomic.is_some() {
            return unsup("atomics (store atomic of an element array)", line);
        }
        let index = self.access_index(&s.ptr, size, elements, line)?;
        let (atomic, what) = match s.atomic {
            Some(_) => (super::atomics::STORE_ATOMIC, "store atomic"),
            None => (0, "store"),
        };
        let label = attachment(self.ctx.m, inst, "convcheck.label")
            .unwrap_or_else(|| format!("{what} {base}"));
        let op = self.op(label, OpKind::Mem { space, write: true }, inst);
        let access = if elements {
            Access::ELEMENT
        } else {
            Access {
                bytes: size.min(8) as u32,
                volatile: s.volatile,
                atomic,
            }
        };
        out.push(Inst {
            kind: InstKind::Eval(Expr::Store {
                op,
                space,
                index: Box::new(index),
                value: Box::new(value),
                access,
            }),
            sid: op,
            token: None,
        });
        Ok(())
    }

    /// The byte address of an access of `size` bytes (not an element).
    pub(crate) fn access_address(&mut self, ptr: &TypedValue, size: u64, line: u32) -> R<Expr> {
        self.access_index(ptr, size, false, line)
    }

    /// The index of an element of the arrays [`crate::write`] prints, or
    /// the byte address of any other access.
    fn access_index(&mut self, ptr: &TypedValue, size: u64, elements: bool, line: u32) -> R<Expr> {
        if !matches!(ptr.ty, Type::Ptr { .. }) {
            return unsup(format!("vectors (an access through {})", ptr.ty), line);
        }
        if size > 8 {
            return unsup(format!("an access of {size} bytes"), line);
        }
        let lin = self.ptr_lin(&ptr.value, line, 0)?;
        Ok(if elements {
            lin.index(size)
        } else {
            lin.expr()
        })
    }
}
