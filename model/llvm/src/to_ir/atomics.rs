//! `atomicrmw` and `cmpxchg` (DESIGN.md 2.6: "atomics are events that never
//! race with each other; their results are free values named like loads";
//! issue 21 item 1).
//!
//! `%r = atomicrmw [volatile] OP ptr P, T V ORDERING` becomes
//!
//! - an event: a store of `V` (its bits: an integer's `N`, a float's bit
//!   pattern) at `P`'s address with an atomic access
//!   ([`convcheck_ir::Access::atomic`], the operation's number: [`INT_OPS`]
//!   from 1, then [`FLOAT_OPS`], so the event names it), labelled
//!   `atomicrmw OP @object`, so that a transform that duplicates, removes or
//!   reorders an atomic, changes its operation, its address or its operand
//!   changes the thread's events. Two atomics never race; an atomic and a
//!   plain access of the same location in one phase by two threads do;
//! - the value it leaves in the thread's memory: a second atomic event at
//!   the same address ([`VALUE_AFTER`], labelled `atomicrmw OP @object
//!   (value after)`, an access that keeps its value,
//!   [`convcheck_ir::Access::keeps_value`]) storing `OP(%r, V)` for the
//!   integer operations (`xchg`: `V`; `add`: `%r + V`; `max`: the signed
//!   maximum; `uinc_wrap`: `%r >=u V ? 0 : %r + 1`; ...), `V` for a
//!   float `xchg`, and the float operation of `%r` and `V` for `fadd`,
//!   `fsub`, `fmax` (`llvm.maxnum`), `fmin` (`llvm.minnum`), `fmaximum`
//!   (`llvm.maximum`) and `fminimum` (`llvm.minimum`), with the
//!   model's float bits ([`super::floats`]), where `%r` is the atomic's
//!   result below. So a later
//!   plain load of the location by the thread reads what the atomic left
//!   there where no other thread writes it in the phase (where one does,
//!   that load races with the other thread's atomic and is reported), and
//!   a pass that forwards the value loaded or stored before the atomic to
//!   a load after it is caught;
//! - its result `%r`, when the instruction has one: a varying oracle named
//!   after the label, read at every execution (used or not), so thread
//!   `t`'s `k`-th atomic of that label returns the same free value in the
//!   reference and the target, and any value at all. A float result
//!   (`fadd`, `fsub`, `fmax`, `fmin`, `fmaximum`, `fminimum`) is a free
//!   float as a float load's is (the float values of
//!   `docs/src/llvm.md`, its bits kept), so floats computed from it are
//!   floats as [`super::floats`] models them.
//!
//! `%r = cmpxchg [weak] [volatile] ptr P, T C, T V SUCCESS FAILURE` (`T` an
//! integer or a pointer; LLVM's verifier refuses floats, which clang
//! exchanges as integers of their bits: `bitcast`, [`super::floats`])
//! (LangRef: it loads the value at `P`, compares it with `C` and stores `V`
//! where they are equal; the result is `{ iN, i1 }`: the loaded value and
//! whether the store happened) becomes
//!
//! - two events at `P`'s address: the comparison value `C` (atomic
//!   operation [`CMPXCHG_COMPARE`], labelled `cmpxchg @object`) and the new
//!   value `V` ([`CMPXCHG_NEW`], labelled `cmpxchg @object (new value)`),
//!   so that a transform that changes either is caught. Both are writes to
//!   the hazard rules, whether the exchange succeeds or not (a failed
//!   `cmpxchg` only reads: a plain read of the location by another thread
//!   in the same phase is reported as a race with it in the reference and
//!   the target alike);
//! - its result as two fields, `%r.field0` and `%r.field1`, read by
//!   `extractvalue` ([`super::aggregates`]): the loaded value, a varying
//!   oracle named `cmpxchg @object` as an `atomicrmw`'s result, and the
//!   success flag `field0 == C` (as `N`-bit values). A **weak** `cmpxchg`
//!   "is allowed to fail spuriously" (LangRef): its flag is `field0 == C`
//!   and not a varying oracle `cmpxchg @object fails spuriously` (0 or 1),
//!   so a target that weakens a strong `cmpxchg` fails where the
//!   reference does not and is reported. The converse (a target that makes
//!   a weak `cmpxchg` strong, which LangRef allows) is a refinement: the
//!   oracle is then the reference's own choice, and the check makes the
//!   one a strong exchange can match, no spurious failure
//!   ([`super::spurious`]);
//! - the value it leaves in the thread's memory, as for `atomicrmw`
//!   ([`VALUE_AFTER`]): `field1 ? V : field0`.
//!
//! A pointer operand of `cmpxchg` is its address as an integer of the
//! pointer's width (DESIGN.md 2.6), and the loaded pointer a free value,
//! as a pointer loaded from memory is.
//!
//! `load atomic` and `store atomic` are loads and stores with an atomic
//! access ([`LOAD_ATOMIC`], [`STORE_ATOMIC`], `super::memory`).
//!
//! Orderings and sync scopes are not modelled (every ordering is at least
//! `monotonic`, which is all these events need; a target that weakens
//! `seq_cst` to `monotonic` is not caught). Read-modify-write atomics on
//! private memory, and `atomicrmw` and `cmpxchg` on vectors (`atomicrmw
//! fadd ptr P, <2 x half> V`) or `atomicrmw` on pointers are outside the
//! model (named).
#![deny(unsafe_code)]

use convcheck_ir::float::{FBin, FTy};
use convcheck_ir::{Access, BinOp, Expr, Inst, InstKind, OpKind, OracleClass, Space};

use super::conventions::attachment;
use super::func::{value_type, FnMapper};
use super::values::{bin, sext, zext, Norm};
use super::{plain, span_at, unsup, R};
use crate::inst::{Generic, Instruction};
use crate::types::{FloatKind, Type};
use crate::value::{TypedValue, Value};

/// The integer operations of `atomicrmw` (LangRef): atomic operations 1 to
/// 13 of the events.
const INT_OPS: [&str; 13] = [
    "xchg",
    "add",
    "sub",
    "and",
    "nand",
    "or",
    "xor",
    "max",
    "min",
    "umax",
    "umin",
    "uinc_wrap",
    "udec_wrap",
];

/// The floating-point operations of `atomicrmw` (LangRef; `fmaximum` and
/// `fminimum` since LLVM 20): atomic operations 14 to 19 (`xchg` of a
/// float is operation 1, as of an integer).
const FLOAT_OPS: [&str; 6] = ["fadd", "fsub", "fmax", "fmin", "fmaximum", "fminimum"];

/// The atomic operation of a `cmpxchg`'s comparison value.
pub(crate) const CMPXCHG_COMPARE: u8 = 20;
/// The atomic operation of a `cmpxchg`'s new value.
pub(crate) const CMPXCHG_NEW: u8 = 21;
/// The atomic operation of a `load atomic`.
pub(crate) const LOAD_ATOMIC: u8 = 22;
/// The atomic operation of a `store atomic`: it leaves its value in the
/// thread's memory ([`convcheck_ir::Access::KEEPS_VALUE`]).
pub(crate) const STORE_ATOMIC: u8 = convcheck_ir::Access::KEEPS_VALUE;
/// The atomic operation of the value a read-modify-write leaves in the
/// thread's memory (see the module documentation).
pub(crate) const VALUE_AFTER: u8 = convcheck_ir::Access::VALUE_AFTER;

/// An instruction's operand text split at top-level commas.
pub(super) fn split_top(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    for (i, ch) in text.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            '(' | '[' | '{' | '<' if !quoted => depth += 1,
            ')' | ']' | '}' | '>' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out
}

/// The event operation of `atomicrmw OP` on a value of type `ty`.
fn rmw_code(op: &str, ty: &Type) -> Option<u8> {
    let float = matches!(ty, Type::Float(_));
    if let Some(k) = INT_OPS.iter().position(|o| *o == op) {
        return (!float || op == "xchg").then_some(k as u8 + 1);
    }
    let k = FLOAT_OPS.iter().position(|o| *o == op)?;
    float.then_some((INT_OPS.len() + k) as u8 + 1)
}

/// The type at the start of an operand (`i32 %v`, `float 1.0`).
fn operand_type(word: &str) -> Option<Type> {
    if let Some(b) = word.strip_prefix('i').and_then(|b| b.parse::<u32>().ok()) {
        return Some(Type::Int(b));
    }
    FloatKind::from_keyword(word).map(Type::Float)
}

/// An atomic's parts, read from its operand text.
struct Parsed {
    volatile: bool,
    /// `weak` (of a `cmpxchg`).
    weak: bool,
    /// The operation word (`add`, `fadd`; empty for `cmpxchg`).
    op: String,
    ptr: TypedValue,
    /// The value operands with their types, in order.
    values: Vec<(Type, Value)>,
}

/// Reads `[weak] [volatile] [OP] ptr [addrspace(K)] P, T V[, T V2] ...`:
/// `values` value operands.
fn parse(g: &Generic, rmw: bool, values: usize, line: u32) -> R<Parsed> {
    let what = if rmw { "an atomicrmw" } else { "a cmpxchg" };
    let not_understood = || unsup(format!("atomics ({what} not understood)"), line);
    let parts = split_top(&g.operands);
    if parts.len() < 1 + values {
        return not_understood();
    }
    let mut words = parts[0].split_whitespace().peekable();
    let weak = !rmw && words.next_if_eq(&"weak").is_some();
    let volatile = words.next_if_eq(&"volatile").is_some();
    let op = if rmw {
        words.next().unwrap_or_default().to_string()
    } else {
        String::new()
    };
    if words.next() != Some("ptr") {
        return unsup(format!("atomics ({what} through a typed pointer)"), line);
    }
    let mut addrspace = 0;
    let mut rest: Vec<&str> = words.collect();
    if let Some(a) = rest.first().and_then(|w| w.strip_prefix("addrspace(")) {
        addrspace = a.trim_end_matches(')').parse().unwrap_or(0);
        rest.remove(0);
    }
    let mut local_uses = g.uses.iter();
    let mut global_uses = g.globals.iter();
    let ptr = match rest.as_slice() {
        [p] if p.starts_with('%') => match local_uses.next().cloned() {
            Some(n) => Value::Local(n),
            None => return not_understood(),
        },
        [p] if p.starts_with('@') => match global_uses.next() {
            Some(n) => Value::Global(n.clone()),
            None => return not_understood(),
        },
        ["null"] => Value::Null,
        _ => {
            return unsup(
                format!("atomics ({what} through a constant expression)"),
                line,
            )
        }
    };
    let mut vals = Vec::new();
    for part in &parts[1..=values] {
        let mut vwords = part.split_whitespace().peekable();
        let tw = vwords.next().unwrap_or_default();
        let tw = if tw.starts_with('<') { "vectors" } else { tw };
        let pointer = (tw == "ptr").then(|| {
            let space = vwords
                .next_if(|w| w.starts_with("addrspace("))
                .and_then(|w| w["addrspace(".len()..].trim_end_matches(')').parse().ok());
            Type::Ptr {
                addrspace: space.unwrap_or(0),
            }
        });
        let Some(ty) = pointer.or_else(|| operand_type(tw)) else {
            let shown = if rmw {
                format!("atomicrmw {op} on {tw}")
            } else {
                format!("cmpxchg on {tw}")
            };
            return unsup(format!("atomics ({shown})"), line);
        };
        let vtext = vwords.next().unwrap_or_default();
        let v = if vtext.starts_with('%') {
            match local_uses.next().cloned() {
                Some(n) => Value::Local(n),
                None => return not_understood(),
            }
        } else if vtext.starts_with('@') {
            match global_uses.next() {
                Some(n) => Value::Global(n.clone()),
                None => return not_understood(),
            }
        } else if vtext == "null" {
            Value::Null
        } else if vtext == "true" || vtext == "false" {
            Value::Int(i128::from(vtext == "true"))
        } else if matches!(ty, Type::Float(_)) {
            Value::Float(vtext.to_string())
        } else if let Ok(k) = vtext.parse::<i128>() {
            Value::Int(k)
        } else {
            return unsup(format!("atomics (an atomic operand {vtext})"), line);
        };
        vals.push((ty, v));
    }
    Ok(Parsed {
        volatile,
        weak,
        op,
        ptr: TypedValue {
            ty: Type::Ptr { addrspace },
            value: ptr,
        },
        values: vals,
    })
}

impl FnMapper<'_> {
    /// The location of an atomic: its space, its object's name and its
    /// byte address for an access of type `ty`.
    fn atomic_place(
        &mut self,
        ptr: &TypedValue,
        ty: &Type,
        line: u32,
    ) -> R<(Space, String, Expr, u64)> {
        let (space, base, global) = self.location(ptr);
        if space == Space::Local || global.as_ref().is_some_and(|g| g.elements) {
            return unsup("atomics on private memory", line);
        }
        let (size, _) = self.ctx.layout.size_align(ty, line)?;
        let index = self.access_address(ptr, size, line)?;
        Ok((space, base, index, size))
    }

    /// The event of an atomic: a store of `value` with operation `code`.
    #[allow(clippy::too_many_arguments)]
    fn atomic_event(
        &mut self,
        inst: &Instruction,
        label: String,
        space: Space,
        index: Expr,
        value: Expr,
        size: u64,
        volatile: bool,
        code: u8,
        out: &mut Vec<Inst>,
    ) {
        let sid = self.op(label, OpKind::Mem { space, write: true }, inst);
        out.push(Inst {
            kind: InstKind::Eval(Expr::Store {
                op: sid,
                space,
                index: Box::new(index),
                value: Box::new(value),
                access: Access {
                    bytes: size.min(8) as u32,
                    volatile,
                    atomic: code,
                },
            }),
            sid,
            token: None,
        });
    }

    /// The width of an atomic's operand in bits (a pointer's: its
    /// address space's).
    fn operand_bits(&self, ty: &Type, line: u32) -> R<u32> {
        match ty {
            Type::Ptr { addrspace } => Ok(8 * self.ctx.layout.pointer_bytes(*addrspace) as u32),
            _ => value_type(ty, "an atomic's operand", line),
        }
    }

    /// An operand's bits as the event's value (`N` bits, zero-extended).
    fn event_value(&mut self, ty: &Type, v: &Value, line: u32) -> R<Expr> {
        let bits = self.operand_bits(ty, line)?;
        let e = self.value(v, ty, line)?;
        Ok(zext(e, bits, Norm::default()))
    }

    /// The free value an atomic returns: a varying oracle named `label`
    /// (a free float of `ty`'s format for a float).
    fn atomic_result(&mut self, label: &str, ty: &Type, inst: &Instruction) -> Expr {
        let span = span_at(inst.span.line, inst.span.col);
        let o = self.t.oracle(label, OracleClass::Varying, span);
        match super::floats::fty(ty) {
            Some(t) => self.free_float(o, t),
            None => Expr::Oracle(o),
        }
    }

    /// Maps `atomicrmw` (see the module documentation).
    pub fn atomicrmw(&mut self, inst: &Instruction, g: &Generic, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        let p = parse(g, true, 1, line)?;
        let (vty, operand) = &p.values[0];
        let op = p.op.as_str();
        if let Type::Ptr { .. } = vty {
            return unsup(format!("atomics (atomicrmw {op} on ptr)"), line);
        }
        let Some(code) = rmw_code(op, vty) else {
            return unsup(format!("atomics (atomicrmw {op} on {vty})"), line);
        };
        let value = self.event_value(vty, operand, line)?;
        let (space, base, index, size) = self.atomic_place(&p.ptr, vty, line)?;
        let label = attachment(self.ctx.m, inst, "convcheck.label")
            .unwrap_or_else(|| format!("atomicrmw {op} {base}"));
        self.atomic_event(
            inst,
            label.clone(),
            space,
            index,
            value.clone(),
            size,
            p.volatile,
            code,
            out,
        );
        if let Some(r) = &inst.result {
            let e = self.atomic_result(&label, vty, inst);
            let sid = self.stmt_op(&label, inst);
            out.push(Inst {
                kind: InstKind::SetLocal {
                    name: plain(r),
                    value: Some(e),
                },
                sid,
                token: None,
            });
            let after = match vty {
                Type::Int(bits) => Some(int_after(op, *bits, Expr::Var(plain(r)), value.clone())),
                _ if op == "xchg" => Some(value.clone()),
                _ => super::floats::fty(vty)
                    .and_then(|t| float_after(op, t, Expr::Var(plain(r)), value.clone())),
            };
            if let Some(after) = after {
                let (space, _, index, size) = self.atomic_place(&p.ptr, vty, line)?;
                self.atomic_event(
                    inst,
                    format!("{label} (value after)"),
                    space,
                    index,
                    after,
                    size,
                    p.volatile,
                    VALUE_AFTER,
                    out,
                );
            }
        }
        Ok(())
    }

    /// Maps `cmpxchg` (see the module documentation): two events, then the
    /// result's fields.
    pub fn cmpxchg(&mut self, inst: &Instruction, g: &Generic, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        let p = parse(g, false, 2, line)?;
        let (cty, cmp) = &p.values[0];
        let (nty, new) = &p.values[1];
        if !matches!(cty, Type::Int(_) | Type::Ptr { .. }) {
            return unsup(format!("atomics (cmpxchg on {cty})"), line);
        }
        if cty != nty {
            return unsup("atomics (a cmpxchg not understood)", line);
        }
        let bits = self.operand_bits(cty, line)?;
        let compare = self.event_value(cty, cmp, line)?;
        let value = self.event_value(nty, new, line)?;
        let (space, base, index, size) = self.atomic_place(&p.ptr, cty, line)?;
        let label = attachment(self.ctx.m, inst, "convcheck.label")
            .unwrap_or_else(|| format!("cmpxchg {base}"));
        let new_label = format!("{label} (new value)");
        self.atomic_event(
            inst,
            label.clone(),
            space,
            index.clone(),
            compare.clone(),
            size,
            p.volatile,
            CMPXCHG_COMPARE,
            out,
        );
        self.atomic_event(
            inst,
            new_label,
            space,
            index.clone(),
            value.clone(),
            size,
            p.volatile,
            CMPXCHG_NEW,
            out,
        );
        let Some(r) = &inst.result else {
            return Ok(());
        };
        let r = plain(r);
        let loaded = self.atomic_result(&label, cty, inst);
        let old = super::aggregates::field(&r, 0);
        let sid = self.stmt_op(&label, inst);
        out.push(Inst {
            kind: InstKind::SetLocal {
                name: old.clone(),
                value: Some(loaded),
            },
            sid,
            token: None,
        });
        let old_bits = zext(Expr::Var(old.clone()), bits, Norm::default());
        let mut ok = bin(BinOp::Eq, old_bits, compare);
        if p.weak {
            let span = span_at(inst.span.line, inst.span.col);
            let name = format!("{label}{}", super::spurious::SPURIOUS);
            let o = self.t.oracle(&name, OracleClass::Varying, span);
            let held = bin(BinOp::Eq, Expr::Oracle(o), Expr::Const(0));
            ok = bin(BinOp::BitAnd, ok, held);
        }
        let flag = super::aggregates::field(&r, 1);
        self.norm.insert(flag.clone(), Norm::boolean());
        let sid = self.stmt_op(&label, inst);
        out.push(Inst {
            kind: InstKind::SetLocal {
                name: flag.clone(),
                value: Some(ok),
            },
            sid,
            token: None,
        });
        let after = Expr::Select(
            Box::new(Expr::Var(flag)),
            Box::new(value),
            Box::new(zext(Expr::Var(old), bits, Norm::default())),
        );
        self.atomic_event(
            inst,
            format!("{label} (value after)"),
            space,
            index,
            after,
            size,
            p.volatile,
            VALUE_AFTER,
            out,
        );
        Ok(())
    }
}

/// The value a float `atomicrmw OP` leaves at its location: `OP(r, v)`
/// for the loaded value `r` and the operand `v` (LangRef: `fmax` and `fmin`
/// are `llvm.maxnum` and `llvm.minnum`, `fmaximum` and `fminimum` are
/// `llvm.maximum` and `llvm.minimum`).
fn float_after(op: &str, t: FTy, r: Expr, v: Expr) -> Option<Expr> {
    let f = match op {
        "fadd" => FBin::Add(t),
        "fsub" => FBin::Sub(t),
        "fmax" => FBin::MaxNum(t),
        "fmin" => FBin::MinNum(t),
        "fmaximum" => FBin::Maximum(t),
        "fminimum" => FBin::Minimum(t),
        _ => return None,
    };
    Some(bin(BinOp::F(f), r, v))
}

/// The value `atomicrmw OP` leaves at its location on `N`-bit integers:
/// `OP(r, v)` for the loaded value `r` and the operand `v` (LangRef,
/// "atomicrmw"), as an unsigned `N`-bit value.
fn int_after(op: &str, bits: u32, r: Expr, v: Expr) -> Expr {
    let d = Norm::default();
    let (ur, uv) = (zext(r.clone(), bits, d), zext(v.clone(), bits, d));
    let (sr, sv) = (sext(r, bits, d), sext(v, bits, d));
    let pick = |c: Expr, a: &Expr, b: &Expr| {
        Expr::Select(Box::new(c), Box::new(a.clone()), Box::new(b.clone()))
    };
    let e = match op {
        "add" => bin(BinOp::Add, ur, uv),
        "sub" => bin(BinOp::Sub, ur, uv),
        "and" => bin(BinOp::BitAnd, ur, uv),
        "nand" => bin(BinOp::BitXor, bin(BinOp::BitAnd, ur, uv), Expr::Const(-1)),
        "or" => bin(BinOp::BitOr, ur, uv),
        "xor" => bin(BinOp::BitXor, ur, uv),
        "max" => pick(bin(BinOp::Gt, sr.clone(), sv.clone()), &ur, &uv),
        "min" => pick(bin(BinOp::Lt, sr, sv), &ur, &uv),
        "umax" => pick(bin(BinOp::ULt, uv.clone(), ur.clone()), &ur, &uv),
        "umin" => pick(bin(BinOp::ULt, ur.clone(), uv.clone()), &ur, &uv),
        // `r >=u v ? 0 : r + 1`
        "uinc_wrap" => pick(
            bin(BinOp::ULe, uv, ur.clone()),
            &Expr::Const(0),
            &bin(BinOp::Add, ur, Expr::Const(1)),
        ),
        // `r == 0 || r >u v ? v : r - 1`
        "udec_wrap" => {
            let wrap = bin(
                BinOp::BitOr,
                bin(BinOp::Eq, ur.clone(), Expr::Const(0)),
                bin(BinOp::ULt, uv.clone(), ur.clone()),
            );
            pick(wrap, &uv, &bin(BinOp::Sub, ur, Expr::Const(1)))
        }
        _ => uv,
    };
    zext(e, bits, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_split_at_top_level_commas() {
        assert_eq!(
            split_top("add ptr addrspace(3) %p, i32 1 syncscope(\"a,b\") monotonic, align 4"),
            vec![
                "add ptr addrspace(3) %p",
                "i32 1 syncscope(\"a,b\") monotonic",
                "align 4"
            ]
        );
    }

    #[test]
    fn operations_are_numbered_by_type() {
        assert_eq!(rmw_code("add", &Type::Int(32)), Some(2));
        assert_eq!(rmw_code("xchg", &Type::Float(FloatKind::Float)), Some(1));
        assert_eq!(rmw_code("fadd", &Type::Float(FloatKind::Float)), Some(14));
        assert_eq!(
            rmw_code("fminimum", &Type::Float(FloatKind::Double)),
            Some(19)
        );
        assert_eq!(rmw_code("add", &Type::Float(FloatKind::Float)), None);
        assert_eq!(rmw_code("fadd", &Type::Int(32)), None);
        assert_eq!(rmw_code("frobnicate", &Type::Int(32)), None);
        assert!(CMPXCHG_COMPARE as usize > INT_OPS.len() + FLOAT_OPS.len());
    }

    #[test]
    fn every_float_operation_leaves_its_value() {
        // fmaximum of 1.0 and -0.0 left as 1.0, fminimum as -0.0; fsub
        // leaves old - operand.
        let t = FTy::Float;
        let left =
            |op: &str, r: i64, v: i64| match float_after(op, t, Expr::Const(r), Expr::Const(v)) {
                Some(Expr::Const(c)) => Some(c),
                other => panic!("{op}: {other:?}"),
            };
        assert_eq!(
            left("fmaximum", 0x3f80_0000, 0x8000_0000),
            Some(0x3f80_0000)
        );
        assert_eq!(
            left("fminimum", 0x3f80_0000, 0x8000_0000),
            Some(0x8000_0000)
        );
        assert_eq!(left("fsub", 0x3f80_0000, 0x3f80_0000), Some(0));
        for op in FLOAT_OPS {
            assert!(
                float_after(op, t, Expr::Const(0), Expr::Const(0)).is_some(),
                "{op}"
            );
        }
    }
}
