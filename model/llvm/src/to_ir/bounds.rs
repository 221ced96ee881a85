//! Out-of-bounds and misaligned accesses are undefined behaviour (LangRef,
//! "load", "store", "Pointer Aliasing Rules"; issue 20, red-team F5).
//!
//! The model's memory is a map of addresses, so an access outside its
//! object would read or write a location like any other; LangRef makes
//! it undefined behaviour. The condition is taken at each load and store
//! ([`FnMapper::access_defined`], applied by `super::poison::runs_defined`,
//! so every engine sees the same `ub.load.lineN`/`ub.store.lineN` block,
//! as for a `getelementptr` flag's poison):
//!
//! - **Bounds.** Where the address is based on a known object (a global
//!   variable defined in the module, of any address space, or an alloca
//!   kept in memory, through `getelementptr`, casts, phis and selects that
//!   agree, and `inttoptr` of a `ptrtoint`: the object's *provenance*,
//!   `super::memory`'s root; through a phi or `select` of two or more
//!   different known objects, the object the incoming edge or the
//!   condition chose, [`FnMapper::provenance_shadow`]), the bytes
//!   `[addr, addr + store size)` must lie inside it: `addr - base <= size(object) - store size`, unsigned
//!   (a negative offset is a large one). An external declaration's size is
//!   another module's (`extern __shared__ T s[]` is `[0 x T]`): not
//!   checked.
//! - **Alignment.** `align A` on the access (else the ABI alignment of the
//!   type) must divide the address. Bases are multiples of 2^32, so for a
//!   known object the offset must be a multiple of `A`, and where the
//!   object states its alignment `O` (a global's or an alloca's `align`;
//!   unwritten, LLVM gives it a preferred alignment that may exceed the
//!   type's, so none is assumed) `A` must be at most `O`: an object only `O`-aligned may be placed at an odd
//!   multiple of `O`, where a larger `A` fails (one placement is enough for
//!   the target to be less defined; a reference with such an access is
//!   taken as undefined in every placement, which is more permissive than
//!   LangRef and never a false alarm). An address of unknown origin (a
//!   parameter, a loaded pointer) must itself be a multiple of `A`; a
//!   parameter's `align N` is already in its value
//!   (`super::ranges::pointer_facts`).
//! - **Unknown origin** (`UNKNOWN_REGION`, `UNKNOWN_ALIGN`, on since
//!   2026-11-29). An address based on a value of unknown origin (a
//!   parameter, a loaded pointer, a call's result) must lie below one end
//!   `end` of absolute addresses, a free value of the scenario shared by
//!   the reference and the target (`address + size ule end`), or, for a
//!   parameter with `dereferenceable(N)`, in `[p, p + N)`
//!   ([`FnMapper::unknown_region`]). The explicit engine enumerates no
//!   value of `end`: `convcheck_ir::exec::UNKNOWN_END`.
//! - **Memory intrinsics** of a constant length: each pointer as an access
//!   of that length ([`FnMapper::intrinsic_defined`]); one of unknown
//!   origin is also undefined behaviour where it is null in address space
//!   0 or breaks a written `align` (LangRef; on whatever the two flags
//!   below say, review3 H10).
//!
//! Not modelled (more defined than LangRef: a target relying on them is
//! not caught): each unknown object's own bounds (one end for all, none below),
//! atomics (`atomicrmw`, `cmpxchg`), memory intrinsics of a variable
//! length and the pointer arguments of other calls, an object's lifetime,
//! and the element arrays `@convcheck.shared` etc. of the `.cir` form.
#![deny(unsafe_code)]

use convcheck_ir::{BinOp as IrBin, Expr, Inst, InstKind, OpKind, OracleClass};

use super::func::FnMapper;
use super::values::{bin, Lin};
use super::{plain, R};
use crate::inst::{InstKind as K, Instruction};
use crate::types::Type;
use crate::value::{Name, TypedValue, Value};

/// Whether accesses through values of unknown origin are checked against
/// the scenario's end of memory ([`FnMapper::unknown_region`]). The
/// explicit engine does not enumerate the end's values (the reference
/// reads the largest end and records its highest access, which the target
/// then reads as the scenario's end: `convcheck_ir::exec::UNKNOWN_END`);
/// the product and the simulation keep it as one free value. Off again
/// (2026-11-29, after the merges): on, it cost the product its
/// counterexample of `examples/launch/block-folded.ll` (z3's work budget),
/// the simulation its proofs of `test7a`/`test12a` of LLVM's
/// `nontrivial-unswitch.ll` (a target's `ub` block it does not relate), and
/// made dead loads of unknown origin inexact for the explicit engine.
const UNKNOWN_REGION: bool = false;

/// Whether an access through a value of unknown origin must be aligned
/// (no value of the scenario, only the address; off with the above).
const UNKNOWN_ALIGN: bool = false;

/// What the mapping knows of the object an access goes to.
pub(crate) enum Object {
    /// A global or an alloca: its base, its size (`None`: unknown) and its
    /// alignment (`None`: unknown).
    Known {
        base: i64,
        size: Option<u64>,
        align: Option<u64>,
    },
    /// One of the element arrays of the `.cir` form (indices, not bytes).
    Elements,
    /// A value of unknown origin (a parameter, a loaded pointer).
    Unknown(Name),
}

impl FnMapper<'_> {
    /// Where the load or store `inst` stays inside its object and is
    /// aligned (see the module documentation); `Const(1)` where nothing is
    /// known.
    pub(super) fn access_defined(&mut self, inst: &Instruction) -> R<Expr> {
        let line = inst.line();
        let (ptr, ty, align) = match &inst.kind {
            K::Load(l) => (&l.ptr, &l.ty, l.align),
            K::Store(s) => (&s.ptr, &s.value.ty, s.align),
            _ => return Ok(Expr::Const(1)),
        };
        if !matches!(ptr.ty, Type::Ptr { .. })
            || matches!(&ptr.value, Value::Local(p) if self.promoted.contains_key(p))
        {
            return Ok(Expr::Const(1));
        }
        let Ok(size) = self.ctx.layout.store_size(ty, line) else {
            return Ok(Expr::Const(1));
        };
        let Ok((_, abi)) = self.ctx.layout.size_align(ty, line) else {
            return Ok(Expr::Const(1));
        };
        let align = align.unwrap_or(abi);
        self.in_object(ptr, size, align, line)
    }

    /// Where an access of `size` bytes, `align`-aligned, through `ptr`
    /// stays inside its object and is aligned.
    fn in_object(&mut self, ptr: &TypedValue, size: u64, align: u64, line: u32) -> R<Expr> {
        let object = self.object_of(ptr, line);
        if matches!(object, None | Some(Object::Elements)) {
            return Ok(Expr::Const(1));
        }
        // An address it cannot compute is reported by the access itself.
        let Ok(lin) = self.ptr_lin(&ptr.value, line, 0) else {
            return Ok(Expr::Const(1));
        };
        let addr = lin.clone().expr();
        let mut parts = Vec::new();
        let aligned = |a: Expr| {
            bin(
                IrBin::Eq,
                bin(IrBin::BitAnd, a, Expr::Const(align as i64 - 1)),
                Expr::Const(0),
            )
        };
        match object {
            Some(Object::Known {
                base,
                size: osize,
                align: oalign,
            }) => parts.extend(in_known(&lin, base, osize, oalign, size, align)),
            Some(Object::Unknown(n)) => {
                parts.extend(self.through_choice(&n, &lin, size, align));
                if UNKNOWN_REGION {
                    parts.push(self.unknown_region(&n, &addr, size));
                }
                if UNKNOWN_ALIGN && align > 1 && align.is_power_of_two() && align <= 1 << 32 {
                    parts.push(aligned(addr));
                }
            }
            _ => {}
        }
        Ok(super::poison::all(parts))
    }

    /// Where an access of `size` bytes, `align`-aligned, at `lin`, based on
    /// the phi or `select` `n` of two or more different known objects,
    /// stays inside the object the incoming edge (the condition) chose and
    /// is aligned: for each object `k`, `%n.object != base(k)` or the
    /// access is inside `k` ([`FnMapper::provenance_shadow`]; review3 L2).
    /// Nothing for any other value.
    fn through_choice(&mut self, n: &Name, lin: &Lin, size: u64, align: u64) -> Vec<Expr> {
        let Some(objects) = self.choice_objects(n) else {
            return Vec::new();
        };
        let chosen = Expr::Var(format!("{}.object", plain(n)));
        let mut parts = Vec::new();
        for (base, osize, oalign) in objects {
            let inside = super::poison::all(in_known(lin, base, osize, oalign, size, align));
            let other = bin(IrBin::Ne, chosen.clone(), Expr::Const(base));
            parts.push(Expr::binary(IrBin::Or, other, inside));
        }
        parts
    }

    /// For a pointer phi or `select` `n` whose incomings are based on two
    /// or more different known objects, each incoming's object (base,
    /// size, alignment), `None` for an incoming of another origin, in the
    /// incomings' order; `None` for any other value.
    #[allow(clippy::type_complexity)]
    fn choice_objects(&self, n: &Name) -> Option<Vec<(i64, Option<u64>, Option<u64>)>> {
        let inst = *self.defs.get(n)?;
        let (ty, values): (&Type, Vec<&Value>) = match &inst.kind {
            K::Phi(p) => (&p.ty, p.incoming.iter().map(|(v, _)| v).collect()),
            K::Select(s) => (&s.if_true.ty, vec![&s.if_true.value, &s.if_false.value]),
            _ => return None,
        };
        if !matches!(ty, Type::Ptr { .. }) {
            return None;
        }
        let line = inst.line();
        let mut objects: Vec<(i64, Option<u64>, Option<u64>)> = Vec::new();
        for v in values {
            let tv = TypedValue {
                ty: ty.clone(),
                value: v.clone(),
            };
            if let Some(Object::Known { base, size, align }) = self.object_of(&tv, line) {
                if !objects.iter().any(|o| o.0 == base) {
                    objects.push((base, size, align));
                }
            }
        }
        (objects.len() >= 2).then_some(objects)
    }

    /// After a pointer phi or `select` of two or more different known
    /// objects ([`FnMapper::choice_objects`]), the base of the object its
    /// incoming edge or condition chose, `%n.object` (a phi of constants
    /// after the phi; `i64::MIN` for an incoming of another origin), which
    /// [`FnMapper::through_choice`] reads.
    pub(super) fn provenance_shadow(&mut self, inst: &Instruction, out: &mut Vec<Inst>) -> R<()> {
        let Some(n) = &inst.result else {
            return Ok(());
        };
        if self.choice_objects(n).is_none() {
            return Ok(());
        }
        let line = inst.line();
        let base_of = |this: &Self, ty: &Type, v: &Value| -> Expr {
            let tv = TypedValue {
                ty: ty.clone(),
                value: v.clone(),
            };
            match this.object_of(&tv, line) {
                Some(Object::Known { base, .. }) => Expr::Const(base),
                _ => Expr::Const(i64::MIN),
            }
        };
        let name = format!("{}.object", plain(n));
        let kind = match &inst.kind {
            K::Phi(p) => {
                let mut incoming = Vec::new();
                for (v, pred) in &p.incoming {
                    let Some(&b) = self.blocks.get(pred) else {
                        return super::unsup(
                            format!("a phi predecessor %{pred} that is not a block"),
                            line,
                        );
                    };
                    incoming.push((b, base_of(self, &p.ty, v)));
                }
                InstKind::Phi { name, incoming }
            }
            K::Select(s) => {
                let c = self.cond(&s.cond.value, line)?;
                let a = base_of(self, &s.if_true.ty, &s.if_true.value);
                let b = base_of(self, &s.if_false.ty, &s.if_false.value);
                InstKind::SetLocal {
                    name,
                    value: Some(Expr::Select(Box::new(c), Box::new(a), Box::new(b))),
                }
            }
            _ => return Ok(()),
        };
        let sid = self.op("object", OpKind::Stmt, inst);
        out.push(Inst {
            kind,
            sid,
            token: None,
        });
        Ok(())
    }

    /// Where an access of `size` bytes at `addr`, based on the value `n` of
    /// unknown origin (a parameter, a loaded pointer, a call's result),
    /// stays inside the memory the scenario gives such pointers: the
    /// absolute addresses below `end`, a free value of the scenario
    /// (`unknown-object.end`: uniform and invariant, the same in the
    /// reference and the target), or where `n`
    /// is a parameter with `dereferenceable(N)` (or `_or_null`), also
    /// `[n, n + N)`. Absolute addresses, not offsets from `n`, so that the
    /// reference and the target agree however they reached an address (a
    /// pointer kept in a private slot at `-O0` and the parameter itself
    /// after SROA). Alive2 gives each unknown object a symbolic size; one
    /// end for all is coarser and still catches a target that accesses
    /// an address the reference does not reach in the scenario.
    fn unknown_region(&mut self, n: &Name, addr: &Expr, size: u64) -> Expr {
        let f = self.f;
        let m = self.ctx.m;
        let span = super::span_at(f.span.line, f.span.col);
        let class = OracleClass::UniformInvariant;
        let end = Expr::Oracle(self.t.oracle(convcheck_ir::exec::UNKNOWN_END, class, span));
        // One comparison, `addr + size <= end` (unsigned; the end itself
        // on the right, as the explicit engine reads it: it records the
        // left side of the reference's as its reach, `convcheck_ir::exec::
        // UNKNOWN_END`). An address within `size` bytes of 2^64 wraps to
        // a small reach: no scenario worth a second comparison.
        let free = bin(
            IrBin::ULe,
            bin(IrBin::Add, addr.clone(), Expr::Const(size as i64)),
            end,
        );
        let deref = f
            .params
            .iter()
            .find(|p| p.name == *n && matches!(p.ty, Type::Ptr { .. }))
            .and_then(|p| {
                m.resolve_attrs(&p.attrs).find_map(|a| match a {
                    crate::attrs::Attribute::Valued { name, value }
                        if name == "dereferenceable" || name == "dereferenceable_or_null" =>
                    {
                        value.trim().parse::<u64>().ok()
                    }
                    _ => None,
                })
            });
        match deref {
            Some(d) if d >= size && d < (1 << 62) => {
                let off = bin(IrBin::Sub, addr.clone(), Expr::Var(plain(n)));
                Expr::binary(
                    IrBin::Or,
                    bin(IrBin::ULe, off, Expr::Const((d - size) as i64)),
                    free,
                )
            }
            _ => free,
        }
    }

    /// Where a memory intrinsic of a constant length (`llvm.memcpy`,
    /// `llvm.memmove`, `llvm.memset`) stays inside the objects it writes
    /// and reads, each pointer aligned to its own `align` attribute: it
    /// accesses `[p, p + len)` of each (LangRef), as the loads and stores
    /// it becomes ([`super::mem_intrinsics`]) do.
    pub(super) fn intrinsic_defined(
        &mut self,
        c: &crate::inst::Call,
        kind: super::mem_intrinsics::MemIntrinsic,
        line: u32,
    ) -> R<Expr> {
        use super::mem_intrinsics::MemIntrinsic;
        let Some(len) = c.args.get(2).and_then(|a| a.value.as_int()) else {
            return Ok(Expr::Const(1));
        };
        let Ok(len) = u64::try_from(len) else {
            return Ok(Expr::Const(1));
        };
        if len == 0 {
            return Ok(Expr::Const(1));
        }
        let pointers = match kind {
            MemIntrinsic::Set => 1,
            MemIntrinsic::Copy | MemIntrinsic::Move => 2,
        };
        let mut parts = Vec::new();
        for a in c.args.iter().take(pointers) {
            let align = self
                .ctx
                .m
                .resolve_attrs(&a.attrs)
                .find_map(|x| match x {
                    crate::attrs::Attribute::Valued { name, value } if name == "align" => {
                        value.trim().parse::<u64>().ok()
                    }
                    _ => None,
                })
                .unwrap_or(1);
            let ptr = TypedValue {
                ty: a.ty.clone(),
                value: a.value.clone(),
            };
            if matches!(&ptr.value, Value::Local(p) if self.promoted.contains_key(p)) {
                continue;
            }
            parts.push(self.in_object(&ptr, len, align, line)?);
            // A pointer of unknown origin: null is not dereferenceable in
            // address space 0, and an `align A` stated on the argument
            // that fails makes it poison (LangRef), undefined behaviour
            // here, whether or not `UNKNOWN_ALIGN` is on (InstCombine
            // states `noundef nonnull align A dereferenceable(N)` on such
            // an argument, review3 H10's stage 3 under `default<O2>`).
            if matches!(self.object_of(&ptr, line), Some(Object::Unknown(_))) {
                if let Ok(l) = self.ptr_lin(&ptr.value, line, 0) {
                    let null_valid = self.ctx.m.has_attr(&self.f.attrs, "null_pointer_is_valid");
                    if !null_valid && ptr.ty.addrspace().unwrap_or(0) == 0 {
                        parts.push(bin(IrBin::Ne, l.clone().expr(), Expr::Const(0)));
                    }
                    if align > 1 && align.is_power_of_two() && align <= 1 << 32 {
                        let low = bin(IrBin::BitAnd, l.expr(), Expr::Const(align as i64 - 1));
                        parts.push(bin(IrBin::Eq, low, Expr::Const(0)));
                    }
                }
            }
        }
        Ok(super::poison::all(parts))
    }
}

/// Where an access of `size` bytes, `align`-aligned, at `lin` stays inside
/// the known object at `base` of `osize` bytes, `oalign`-aligned (`None`:
/// unknown), and is aligned (see the module documentation).
fn in_known(
    lin: &Lin,
    base: i64,
    osize: Option<u64>,
    oalign: Option<u64>,
    size: u64,
    align: u64,
) -> Vec<Expr> {
    let mut parts = Vec::new();
    if let Some(osize) = osize {
        parts.push(match osize.checked_sub(size) {
            Some(room) if room < (1 << 62) => bin(
                IrBin::ULe,
                lin.clone().plus(Lin::konst(base.wrapping_neg())).expr(),
                Expr::Const(room as i64),
            ),
            Some(_) => Expr::Const(1),
            None => Expr::Const(0),
        });
    }
    if align > 1 && align.is_power_of_two() && align <= 1 << 32 {
        match oalign {
            Some(o) if align > o => parts.push(Expr::Const(0)),
            _ => parts.push(bin(
                IrBin::Eq,
                bin(
                    IrBin::BitAnd,
                    lin.clone().expr(),
                    Expr::Const(align as i64 - 1),
                ),
                Expr::Const(0),
            )),
        }
    }
    parts
}
