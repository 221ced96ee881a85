//! Pointer facts the IR states on values other than a function's own
//! parameters (issue 20 class f; red-team review2 G3, G8, G10b):
//!
//! - `nonnull` and `align A` on a call's result (at the call site, else on
//!   the callee's declaration; the callees [`super::ranges`] reads a result
//!   `range` of);
//! - `!nonnull` and `!align !{i64 A}` on a load of a pointer;
//! - `!noundef` on a load;
//! - `range`, `nonnull` and `align A` on a call's *argument*;
//! - the operand bundles of `llvm.assume` (LangRef "Assume Operand
//!   Bundles"; review3 H7): `"align"(ptr %p, i64 A[, i64 off])` and
//!   `"nonnull"(ptr %p)` are conditions of the run like the assume's `i1`
//!   (a false one is undefined behaviour), `"noundef"(v)` that `v` is
//!   defined, `"ignore"` nothing; any other tag (`dereferenceable`,
//!   `separate_storage`, ...) is outside the model (inconclusive, named),
//!   since ignoring it in a target could hide a less defined target.
//!
//! LangRef ("Parameter Attributes", "load"): a value that breaks such a
//! fact is poison; with `noundef` (or `!noundef`) too, undefined behaviour.
//! The mapping reads them as [`super::ranges`] reads `range`: a result that
//! may break its fact may be poison, with the shadow "the fact holds"
//! (`x != 0`, `x & (A - 1) == 0`) set after the instruction
//! ([`super::poison`]); poison propagates through pointer comparisons,
//! `ptrtoint`, selects and phis of pointers, and a stored poison pointer
//! is observed as poison (`super::poison`, "A poison value observed"). A `noundef` result or a
//! `!noundef` load that may be poison splits the block after it
//! (`ub.call.lineN`, `ub.load.lineN`); a `noundef` argument whose stated
//! fact fails is undefined behaviour at the call (`ub.call.lineN`).
//!
//! A target that adds such a fact is less defined than its reference where
//! the fact is false (caught); one that uses a fact its reference states
//! (InstCombine folding `icmp eq %v, null` of a `nonnull` value) is not a
//! violation. Not read: facts on an argument without `noundef` (the callee
//! gets poison; the model passes the value), and pointer poison through
//! `getelementptr` (an access through a poison address is not undefined
//! behaviour in the model).
#![deny(unsafe_code)]

use convcheck_ir::{BinOp as IrBin, Expr};

use super::func::FnMapper;
use super::R;

use crate::attrs::Attribute;
use crate::inst::{Call, InstKind, Instruction};
use crate::module::Module;
use crate::types::Type;

/// What a pointer is stated to be: non-null, aligned to `align` (a power
/// of two above 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PtrFacts {
    pub nonnull: bool,
    pub align: Option<u64>,
}

impl PtrFacts {
    fn any(self) -> Option<Self> {
        (self.nonnull || self.align.is_some()).then_some(self)
    }

    fn join(self, o: Self) -> Self {
        PtrFacts {
            nonnull: self.nonnull || o.nonnull,
            align: match (self.align, o.align) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            },
        }
    }
}

fn readable_align(a: u64) -> Option<u64> {
    (a.is_power_of_two() && a > 1 && a <= 1 << 32).then_some(a)
}

/// The `nonnull` and `align A` among `attrs`.
pub(crate) fn of_attrs(attrs: &[Attribute], m: &Module) -> PtrFacts {
    let align = m
        .resolve_attrs(attrs)
        .find_map(|a| match a {
            Attribute::Valued { name, value } if name == "align" => {
                value.trim().parse::<u64>().ok()
            }
            _ => None,
        })
        .and_then(readable_align);
    PtrFacts {
        nonnull: m.has_attr(attrs, "nonnull"),
        align,
    }
}

/// A pointer call result's facts (call site joined with the declaration),
/// for the callees whose result `range` is read (`super::ranges`).
pub(crate) fn of_call(c: &Call, m: &Module) -> Option<PtrFacts> {
    if !matches!(c.ret_ty, Type::Ptr { .. }) {
        return None;
    }
    let f = super::ranges::external(c, m)?;
    of_attrs(&c.ret_attrs, m)
        .join(of_attrs(&f.ret_attrs, m))
        .any()
}

/// Whether a call's result is `noundef` (call site or declaration).
pub(crate) fn call_noundef(c: &Call, m: &Module) -> bool {
    m.has_attr(&c.ret_attrs, "noundef")
        || super::ranges::external(c, m).is_some_and(|f| m.has_attr(&f.ret_attrs, "noundef"))
}

/// The text of a metadata attachment, a reference `!N` resolved.
fn attachment_node<'m>(inst: &'m Instruction, m: &'m Module, name: &str) -> Option<&'m str> {
    let text = inst.attachment(name)?.trim();
    let text = match text.strip_prefix('!').filter(|r| !r.starts_with('{')) {
        Some(id) => m.metadata.iter().find(|d| d.name == id)?.text.as_str(),
        None => text,
    };
    let text = text.trim();
    Some(text.strip_prefix("distinct").map_or(text, str::trim))
}

/// A pointer load's `!nonnull` and `!align !{i64 A}`.
pub(crate) fn of_load(inst: &Instruction, m: &Module) -> Option<PtrFacts> {
    let InstKind::Load(l) = &inst.kind else {
        return None;
    };
    if !matches!(l.ty, Type::Ptr { .. }) {
        return None;
    }
    let align = attachment_node(inst, m, "align")
        .and_then(|t| t.strip_prefix("!{")?.strip_suffix('}'))
        .and_then(|t| t.trim().strip_prefix("i64")?.trim().parse::<u64>().ok())
        .and_then(readable_align);
    PtrFacts {
        nonnull: inst.attachment("nonnull").is_some(),
        align,
    }
    .any()
}

/// Whether a load carries `!noundef`.
pub(crate) fn load_noundef(inst: &Instruction) -> bool {
    matches!(inst.kind, InstKind::Load(_)) && inst.attachment("noundef").is_some()
}

/// Where the pointer `x` has the facts `f`.
pub(crate) fn holds(x: Expr, f: PtrFacts) -> Expr {
    let mut parts = Vec::new();
    if f.nonnull {
        parts.push(Expr::binary(IrBin::Ne, x.clone(), Expr::Const(0)));
    }
    if let Some(a) = f.align {
        let low = Expr::binary(IrBin::BitAnd, x, Expr::Const(a as i64 - 1));
        parts.push(Expr::binary(IrBin::Eq, low, Expr::Const(0)));
    }
    super::poison::all(parts)
}

impl FnMapper<'_> {
    /// Where a call argument has the `range`, `nonnull` and `align` the
    /// call site states on it, and is defined (a pointer that may be
    /// poison by a fact); `None` without a stated fact.
    pub(crate) fn argument_facts_hold(
        &mut self,
        a: &crate::inst::Arg,
        line: u32,
    ) -> R<Option<Expr>> {
        let m = self.ctx.m;
        match &a.ty {
            Type::Int(_) => match super::ranges::stated_range(&a.attrs, m) {
                Some((n, lo, size)) => {
                    let x = self.value(&a.value, &a.ty, line)?;
                    Ok(Some(super::ranges::in_range(x, n, lo, size)))
                }
                None => Ok(None),
            },
            Type::Ptr { .. } => {
                let f = of_attrs(&a.attrs, m);
                let mut parts = vec![self.defined(&a.value)];
                if f.nonnull || f.align.is_some() {
                    let x = self.value(&a.value, &a.ty, line)?;
                    parts.push(holds(x, f));
                }
                parts.extend(self.known_object_facts(a, f, line)?);
                let e = super::poison::all(parts);
                Ok((e != Expr::Const(1)).then_some(e))
            }
            _ => Ok(None),
        }
    }

    /// The facts a call argument based on a known object (a global or an
    /// alloca of the module, [`super::bounds`]) breaks whatever its
    /// placement (review3 H9): `align A` above the object's stated
    /// alignment (the model's bases are multiples of 2^32, so `holds` alone
    /// took it as true; an object only `O`-aligned may lie at an odd
    /// multiple of `O`, as the access rule of `super::bounds` says), and
    /// `dereferenceable(N)` (or `_or_null`, on a pointer that is not null)
    /// where the `N` bytes from the argument leave the object.
    fn known_object_facts(&mut self, a: &crate::inst::Arg, f: PtrFacts, line: u32) -> R<Vec<Expr>> {
        let Some(super::bounds::Object::Known {
            base,
            size,
            align: oalign,
        }) = self.object_of(
            &crate::value::TypedValue {
                ty: a.ty.clone(),
                value: a.value.clone(),
            },
            line,
        )
        else {
            return Ok(Vec::new());
        };
        let mut parts = Vec::new();
        if let (Some(want), Some(o)) = (f.align, oalign) {
            if want > o {
                parts.push(Expr::Const(0));
            }
        }
        let m = self.ctx.m;
        let deref = m.resolve_attrs(&a.attrs).find_map(|at| match at {
            Attribute::Valued { name, value }
                if name == "dereferenceable" || name == "dereferenceable_or_null" =>
            {
                value.trim().parse::<u64>().ok()
            }
            _ => None,
        });
        if let (Some(n), Some(size)) = (deref.filter(|&n| n > 0), size) {
            match size.checked_sub(n) {
                Some(room) if room < (1 << 62) => {
                    let x = self.value(&a.value, &a.ty, line)?;
                    let off = Expr::binary(IrBin::Sub, x, Expr::Const(base));
                    parts.push(Expr::binary(IrBin::ULe, off, Expr::Const(room as i64)));
                }
                Some(_) => {}
                None => parts.push(Expr::Const(0)),
            }
        }
        Ok(parts)
    }

    /// Where one operand bundle of an `llvm.assume` holds (see the module
    /// documentation); a tag the model does not read is unsupported.
    pub(crate) fn assume_bundle_holds(
        &mut self,
        b: &crate::inst::OperandBundle,
        line: u32,
    ) -> R<Expr> {
        let outside = || super::unsup(format!("llvm.assume operand bundle \"{}\"", b.tag), line);
        match (b.tag.as_str(), b.inputs.as_slice()) {
            ("ignore", _) => Ok(Expr::Const(1)),
            ("noundef", [v]) => Ok(self.defined(&v.value)),
            ("nonnull", [p]) if matches!(p.ty, Type::Ptr { .. }) => {
                let x = self.value(&p.value, &p.ty, line)?;
                Ok(holds(
                    x,
                    PtrFacts {
                        nonnull: true,
                        align: None,
                    },
                ))
            }
            ("align", [p, a, rest @ ..]) if matches!(p.ty, Type::Ptr { .. }) && rest.len() <= 1 => {
                let Some(align) = a
                    .value
                    .as_int()
                    .and_then(|a| u64::try_from(a).ok())
                    .and_then(readable_align)
                else {
                    return match a.value.as_int() {
                        // Alignment 1 states nothing.
                        Some(1) => Ok(Expr::Const(1)),
                        _ => outside(),
                    };
                };
                let mut x = self.value(&p.value, &p.ty, line)?;
                if let Some(off) = rest.first() {
                    let o = self.value(&off.value, &off.ty, line)?;
                    x = Expr::binary(IrBin::Sub, x, o);
                }
                Ok(holds(
                    x,
                    PtrFacts {
                        nonnull: false,
                        align: Some(align),
                    },
                ))
            }
            _ => outside(),
        }
    }
}
