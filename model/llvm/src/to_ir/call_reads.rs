//! What a call that only reads its arguments' memory returns (issue 20,
//! review F1).
//!
//! LangRef (`memory(argmem: read)`, `argmemonly readonly`): the callee
//! reads only memory based on its pointer arguments and writes none, so
//! its result may depend on its arguments and on what those objects hold
//! at the call, and on nothing else; LLVM merges two such calls with the
//! same arguments where no write may come between (EarlyCSE, GVN), and
//! deletes one whose result is unused. A non-convergent direct call of an
//! external function that reads only its arguments' memory
//! ([`reads_only_arguments`]), whose result is used, and each of whose
//! pointer arguments is rooted in one known object (an alloca kept in
//! memory, a variable global that is not an element array) of at most
//! [`MAX_BYTES`] bytes, is mapped as the function oracle
//! `CALLEE.mem` (`convcheck_ir::OracleClass::Function`, as the calls of
//! `super::pure_calls`) of its arguments and of every byte of those
//! objects, read at the call in chunks of 8, 4, 2 and 1 bytes from the
//! lowest offset (as `super::mem_intrinsics` reads): so a target that
//! changes what the object holds before the call changes the result
//! (`c-private-slot-read-by-argmem-read-call-value-changed`, violated),
//! while one that deletes a store the call does not read, or merges two
//! calls with the same memory, does not. A constant global's bytes cannot
//! change within a module and are not read; the oracle's name carries a
//! hash of their initializers ([`constants_tag`], review2 G13).
//!
//! Any other used call that may read argument, inaccessible or other
//! memory (`memory(read)`, no attributes, a pointer of unknown origin, a
//! larger object), convergent or not (review2 G2), is mapped by
//! [`FnMapper::read_plan`]: its result is the function oracle
//! `CALLEE.reads` of (for a call that may write or is convergent, an
//! event) the event's fresh value, its arguments, (for a call that is no
//! event) the version of the memory other than private
//! (`super::memory_version`), and the bytes of its arguments' objects
//! (where it may read argument memory) and of the allocas captured before
//! it (`super::capture`); private memory it may read whose bytes are not
//! known (also a caller's captured alloca or a generic pointer parameter
//! in a function the module calls: review2 G1) is outside the model
//! (docs/src/semantics.md, "Calls that may read any memory").
#![deny(unsafe_code)]

use convcheck_ir::{Access, Expr, Inst, InstKind, OpKind, OracleClass, Space};

use super::effects::{ARGMEM, INACCESSIBLE, OTHER};
use super::func::FnMapper;
use super::{unsup, R};
use crate::attrs::Attribute;
use crate::inst::{Call, InstKind as K, Instruction};
use crate::module::Module;
use crate::types::Type;
use crate::value::{Name, TypedValue};

/// An object a call reads: its space, base address, size and name.
type Object = (Space, i64, u64, String);

/// What a pointer argument is rooted in.
enum Arg {
    /// A constant global (its name): nothing that can change within a
    /// module, but its initializer names the call's oracle
    /// ([`constants_tag`]).
    Skip(String),
    /// One known object of a known size.
    Known(Object),
    /// Memory of this space not known (a parameter, a loaded address, a
    /// `select` of two objects, an element array).
    Unknown(Space),
}

/// What a call reads besides its arguments ([`FnMapper::read_plan`]).
pub(super) struct ReadPlan {
    /// The objects whose bytes its result depends on.
    objects: Vec<Object>,
    /// Whether it depends on the version of the memory other than private.
    version: bool,
    /// The constant globals it may read through its arguments.
    constants: Vec<String>,
    /// Whether it may read any constant global (other memory).
    all_constants: bool,
}

impl ReadPlan {
    /// The suffix of its oracle's name ([`constants_tag`]).
    pub(super) fn tag(&self, m: &Module) -> String {
        constants_tag(
            m,
            (!self.all_constants).then_some(self.constants.as_slice()),
        )
    }
}

/// A tag of the initializers of the constant globals a call may read
/// (`only` those named, else every one of the module), `#` and an FNV-1a
/// hash, or empty where there is none: the suffix of the call's oracle.
/// A constant cannot change within a module, so its bytes are not read
/// as the call's inputs, but the target's module may hold another
/// initializer (review2 G13): two modules whose constants differ name the
/// call's oracle differently, so its results differ (and the structural
/// rule sees two oracles). A possible false alarm where an unread
/// constant changed, never a false proof.
pub(crate) fn constants_tag(m: &Module, only: Option<&[String]>) -> String {
    let mut items: Vec<String> = m
        .globals
        .iter()
        .filter(|g| g.is_constant && g.initializer.is_some() && !g.externally_initialized)
        .filter(|g| {
            only.is_none_or(|o| {
                o.iter().any(|n| {
                    n.trim_start_matches('@') == g.name.to_string().trim_start_matches('@')
                })
            })
        })
        .map(|g| format!("{}={:?}:{:?}", g.name, g.ty, g.initializer))
        .collect();
    if items.is_empty() {
        return String::new();
    }
    items.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in items.join("\n").bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("#{h:016x}")
}

/// The largest object whose bytes a call's result depends on.
pub(crate) const MAX_BYTES: u64 = 64;

/// Whether one list of function attributes lets a call access only
/// argument memory (`memory(argmem: ...)` with every other location
/// `none`, `argmemonly`, `readnone`); attributes that say nothing of
/// locations leave every location.
fn only_argmem(attrs: &[Attribute], m: &Module) -> bool {
    m.resolve_attrs(attrs).any(|a| match a {
        Attribute::Flag(n) => matches!(n.as_str(), "argmemonly" | "readnone"),
        Attribute::Valued { name, value } if name == "memory" => {
            value.split(',').all(|part| match part.split_once(':') {
                Some((loc, acc)) => loc.trim() == "argmem" || acc.trim() == "none",
                None => part.trim() == "none",
            })
        }
        _ => false,
    })
}

/// Whether `c` writes no memory and reads only memory based on its
/// pointer arguments (the call site's or the callee's statement).
pub(crate) fn reads_only_arguments(c: &Call, m: &Module) -> bool {
    if super::asm::text(c).is_some() || !c.bundles.is_empty() || !c.is_writenone(m) {
        return false;
    }
    only_argmem(&c.fn_attrs, m)
        || c.callee
            .as_global()
            .and_then(|n| m.function_by_name(n))
            .is_some_and(|f| only_argmem(&f.attrs, m))
}

impl FnMapper<'_> {
    /// The object pointer `tv` is rooted in (see [`Arg`]).
    fn one_object(&self, tv: &TypedValue, line: u32) -> R<Arg> {
        let (space, name, global) = self.location(tv);
        if let Some(g) = global {
            if g.elements {
                return Ok(Arg::Unknown(space));
            }
            if g.constant {
                return Ok(Arg::Skip(name));
            }
            let Some(gv) = self.ctx.m.global(name.trim_start_matches('@')) else {
                return Ok(Arg::Unknown(space));
            };
            let (size, _) = self.ctx.layout.size_align(&gv.ty, line)?;
            return Ok(Arg::Known((space, g.base, size, name)));
        }
        if space == Space::Local && name.starts_with('%') {
            let alloca = self
                .alloca_base
                .iter()
                .find(|(n, _)| format!("%{n}") == name)
                .map(|(n, _)| *n);
            if let Some(n) = alloca {
                if let Some(o) = self.alloca_object(n, line)? {
                    return Ok(Arg::Known(o));
                }
            }
        }
        Ok(Arg::Unknown(space))
    }

    /// The alloca `n` kept in memory as an object, when its size is a
    /// constant.
    fn alloca_object(&self, n: &Name, line: u32) -> R<Option<Object>> {
        let (Some(inst), Some(&base)) = (self.defs.get(n), self.alloca_base.get(n)) else {
            return Ok(None);
        };
        let K::Alloca(al) = &inst.kind else {
            return Ok(None);
        };
        let count = match &al.count {
            None => 1,
            Some(c) => match c.value.as_int().and_then(|n| u64::try_from(n).ok()) {
                Some(n) => n,
                None => return Ok(None),
            },
        };
        let (size, _) = self.ctx.layout.size_align(&al.ty, line)?;
        Ok(Some((
            Space::Local,
            base,
            size.saturating_mul(count),
            format!("%{n}"),
        )))
    }

    /// The objects the pointer arguments of `c` are rooted in, as (space,
    /// base address, size, name), when every one is a known object of at
    /// most [`MAX_BYTES`] bytes (constant globals left out); `None`
    /// otherwise.
    fn argument_objects(&self, c: &Call, line: u32) -> R<Option<(Vec<Object>, Vec<String>)>> {
        let mut out = Vec::new();
        let mut constants = Vec::new();
        for a in &c.args {
            if !matches!(a.ty, Type::Ptr { .. }) {
                continue;
            }
            let tv = TypedValue {
                ty: a.ty.clone(),
                value: a.value.clone(),
            };
            let object = match self.one_object(&tv, line)? {
                Arg::Skip(n) => {
                    constants.push(n);
                    continue;
                }
                Arg::Unknown(_) => return Ok(None),
                Arg::Known(o) => o,
            };
            if object.2 > MAX_BYTES {
                return Ok(None);
            }
            if !out.contains(&object) {
                out.push(object);
            }
        }
        Ok(Some((out, constants)))
    }

    /// What a used call of an external function that may read argument
    /// or other memory, and that [`Self::call_reading_arguments`] did
    /// not map, reads (issue 20, review F1, the general case): the bytes
    /// of each pointer argument's object and, when it may read other
    /// memory, of every captured alloca, where known and at most
    /// [`MAX_BYTES`]; and, for a call that writes nothing (no event), the
    /// version of the memory other than private
    /// ([`super::memory_version`]) where it may read such memory. `None`
    /// when it reads nothing of the kind (an event call that may read no
    /// private memory: its events pin the rest). Private memory it may
    /// read that is not known (a private pointer parameter, an alloca
    /// larger than [`MAX_BYTES`] or of a computed size) is outside the
    /// model: a result independent of it could hide a changed store.
    pub(super) fn read_plan(
        &mut self,
        inst: &Instruction,
        c: &Call,
        event: bool,
    ) -> R<Option<ReadPlan>> {
        let m = self.ctx.m;
        let line = inst.line();
        if self.ctx.opts.calls_as_oracles || inst.result.is_none() || !self.used(inst) {
            return Ok(None);
        }
        let bits = super::effects::reads(c, m);
        if bits & (ARGMEM | INACCESSIBLE | OTHER) == 0 {
            return Ok(None);
        }
        // Inaccessible memory is written only by calls that may write it,
        // which are events and counted in the version (review2 L4).
        let mut plan = ReadPlan {
            objects: Vec::new(),
            version: bits & INACCESSIBLE != 0,
            constants: Vec::new(),
            all_constants: bits & OTHER != 0,
        };
        let mut unknown: Option<String> = None;
        let called = super::ranges::called(self.f, m);
        let add = |plan: &mut ReadPlan, unknown: &mut Option<String>, arg: Arg| match arg {
            Arg::Skip(n) => {
                if !plan.constants.contains(&n) {
                    plan.constants.push(n);
                }
            }
            Arg::Known(o) if o.2 <= MAX_BYTES => {
                if !plan.objects.contains(&o) {
                    plan.objects.push(o);
                }
            }
            Arg::Known(o) if o.0 == Space::Local => {
                unknown.get_or_insert(format!("{}, of {} bytes", o.3, o.2));
            }
            Arg::Known(_) | Arg::Unknown(Space::Global | Space::Shared) => plan.version = true,
            Arg::Unknown(Space::Local) => {
                unknown.get_or_insert("a private pointer of unknown origin".into());
            }
        };
        // The arguments' objects only where it may read argument memory
        // (`memory(read, argmem: none)` may not read an uncaptured
        // argument's object: review2 L2).
        for a in c.args.iter().filter(|_| bits & ARGMEM != 0) {
            if !matches!(a.ty, Type::Ptr { .. }) {
                continue;
            }
            let tv = TypedValue {
                ty: a.ty.clone(),
                value: a.value.clone(),
            };
            let arg = self.one_object(&tv, line)?;
            if called && a.ty == (Type::Ptr { addrspace: 0 }) && matches!(arg, Arg::Unknown(_)) {
                // A generic pointer of unknown origin in a function the
                // module calls may point to a caller's private memory
                // (every CUDA alloca passed on is one: review2 G1).
                unknown.get_or_insert(
                    "a generic pointer of unknown origin, in a function the module calls".into(),
                );
            }
            add(&mut plan, &mut unknown, arg);
        }
        if bits & OTHER != 0 {
            plan.version = true;
            let reachable = self.captured_at(inst);
            let mut captured: Vec<&Name> = self
                .alloca_base
                .iter()
                .filter(|(_, b)| reachable.contains(b))
                .map(|(n, _)| *n)
                .collect();
            captured.sort_by_key(|n| n.to_string());
            for n in captured {
                let arg = match self.alloca_object(n, line)? {
                    Some(o) => Arg::Known(o),
                    None => Arg::Unknown(Space::Local),
                };
                add(&mut plan, &mut unknown, arg);
            }
            if let Some(p) = self.f.params.iter().find(|p| {
                p.ty == (Type::Ptr { addrspace: 5 })
                    || (called && p.ty == (Type::Ptr { addrspace: 0 }))
            }) {
                unknown.get_or_insert(format!("the private or generic parameter %{}", p.name));
            }
            if called && super::capture::callers_capture(self.f, m) {
                // A caller's captured alloca (review2 G1).
                unknown.get_or_insert("an alloca of a caller, captured".into());
            }
        }
        if let Some(what) = unknown {
            let callee = c
                .callee
                .as_global()
                .map(|n| n.to_string())
                .unwrap_or_default();
            return unsup(
                format!(
                    "a call of @{callee} whose result may depend on private memory \
                     whose bytes are not known ({what}): a result independent of it \
                     could hide a changed store"
                ),
                line,
            );
        }
        if event {
            plan.version = false;
        }
        if plan.version && !self.ctx.versioned {
            // Not reached: `memory_version::needed` finds every such call.
            return unsup(
                "a call that reads memory in a module without its version",
                line,
            );
        }
        let constants = !plan.tag(m).is_empty();
        Ok((plan.version || !plan.objects.is_empty() || constants).then_some(plan))
    }

    /// The values a call's result depends on besides its arguments, read
    /// at `inst` by `plan`: the memory version, then the objects' bytes.
    pub(super) fn plan_reads(
        &mut self,
        inst: &Instruction,
        label: &str,
        plan: &ReadPlan,
        out: &mut Vec<Inst>,
    ) -> Vec<Expr> {
        let mut args = Vec::new();
        if plan.version {
            args.push(self.version_now(inst));
        }
        args.extend(self.object_bytes(inst, label, &plan.objects, out));
        args
    }

    /// Maps `c` as the function oracle of its arguments and its argument
    /// objects' bytes (see the module documentation), if it is such a
    /// call; `Ok(false)` leaves it to the caller.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_reading_arguments(
        &mut self,
        inst: &Instruction,
        c: &Call,
        label: &str,
        oracle_name: &str,
        shown: &str,
        token: Option<String>,
        out: &mut Vec<Inst>,
    ) -> R<bool> {
        let line = inst.line();
        if self.ctx.opts.calls_as_oracles
            || !self.used(inst)
            || !reads_only_arguments(c, self.ctx.m)
        {
            return Ok(false);
        }
        let Some((objects, constants)) = self.argument_objects(c, line)? else {
            return Ok(false);
        };
        if inst.result.is_none() {
            return Ok(false);
        }
        let span = super::span_at(inst.span.line, inst.span.col);
        let tag = constants_tag(self.ctx.m, Some(&constants));
        let mut args = self.observed_args(c, line)?;
        let bytes = self.object_bytes(inst, label, &objects, out);
        args.extend(bytes);
        let o = self.t.oracle(
            &format!("{oracle_name}.mem{tag}"),
            OracleClass::Function,
            span,
        );
        let kind = convcheck_ir::CallKind::Plain(o);
        let op = self.op(label.to_string(), OpKind::Call(kind), inst);
        self.push_call(inst, op, kind, shown.to_string(), args, token, false, out)?;
        Ok(true)
    }

    /// Every byte of `objects`, loaded at `inst` into locals in chunks of
    /// 8, 4, 2 and 1 bytes from the lowest offset: the locals.
    fn object_bytes(
        &mut self,
        inst: &Instruction,
        label: &str,
        objects: &[Object],
        out: &mut Vec<Inst>,
    ) -> Vec<Expr> {
        let span = super::span_at(inst.span.line, inst.span.col);
        let result = inst.result.as_ref().map(super::plain).unwrap_or_default();
        let mut args = Vec::new();
        let mut k = 0;
        for (space, base, size, name) in objects {
            let (space, base, size) = (*space, *base, *size);
            let mut off = 0u64;
            while off < size {
                let w = [8u64, 4, 2, 1]
                    .into_iter()
                    .find(|w| off + w <= size)
                    .unwrap_or(1);
                let op = self.op(
                    format!("{label} (reads {name})"),
                    OpKind::Mem {
                        space,
                        write: false,
                    },
                    inst,
                );
                let value = Some(self.t.oracle(name, OracleClass::Varying, span));
                let local = format!("convcheck.{result}.mem{k}");
                k += 1;
                out.push(Inst {
                    kind: InstKind::SetLocal {
                        name: local.clone(),
                        value: Some(Expr::Load {
                            op,
                            space,
                            index: Box::new(Expr::Const(base + off as i64)),
                            value,
                            access: Access {
                                bytes: w as u32,
                                volatile: false,
                                atomic: 0,
                            },
                        }),
                    },
                    sid: op,
                    token: None,
                });
                args.push(Expr::Var(local));
                off += w;
            }
        }
        args
    }
}
