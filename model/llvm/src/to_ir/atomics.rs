//! `atomicrmw` (DESIGN.md 2.6: "atomics are events that never race with
//! each other; their results are free values named like loads"; issue 21
//! item 1).
//!
//! `%r = atomicrmw [volatile] OP ptr P, iN V ORDERING` becomes
//!
//! - an event: a store of `V` (its `N` bits) at `P`'s address with an
//!   atomic access ([`convcheck_ir::Access::atomic`], the operation's
//!   number in [`INT_OPS`] from 1, so the event names it), labelled
//!   `atomicrmw OP @object`, so that a transform that duplicates, removes or
//!   reorders an atomic, changes its operation, its address or its operand
//!   changes the thread's events. Two atomics never race; an atomic and a
//!   plain access of the same location in one phase by two threads do. It
//!   leaves no value in the thread's memory: a later plain load of the
//!   location reads what the model gives a load there (the thread's own
//!   earlier store of the phase, else the free value of the location), so
//!   a pass that forwarded a value across an atomic to the same location
//!   would not be caught (LLVM's passes do not: an atomic clobbers its
//!   location; FIXME(issue 21 item 1));
//! - its result `%r`, when the instruction has one: a varying oracle named
//!   after the label, read at every execution (used or not), so thread
//!   `t`'s `k`-th atomic of that label returns the same free value in the
//!   reference and the target, and any value at all.
//!
//! Orderings and sync scopes are not modelled (every ordering is at least
//! `monotonic`, which is all these events need). Atomics on private memory,
//! on floating point (`fadd`, `fmax`, ...) and `cmpxchg` (a `{iN, i1}`
//! result, read through `extractvalue`) are outside the model.
#![deny(unsafe_code)]

use convcheck_ir::{Access, Expr, Inst, InstKind, OpKind, OracleClass, Space};

use super::conventions::attachment;
use super::func::{value_type, FnMapper};
use super::{plain, span_at, unsup, R};
use crate::inst::{Generic, Instruction};
use crate::types::Type;
use crate::value::{TypedValue, Value};

/// The integer operations of `atomicrmw` (LangRef).
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

/// The operands of an `atomicrmw` split at top-level commas.
fn split_top(text: &str) -> Vec<&str> {
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

impl FnMapper<'_> {
    /// Maps `atomicrmw` (see the module documentation).
    pub fn atomicrmw(&mut self, inst: &Instruction, g: &Generic, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        let parts = split_top(&g.operands);
        let (Some(first), Some(second)) = (parts.first(), parts.get(1)) else {
            return unsup("atomics (an atomicrmw not understood)", line);
        };
        let mut words = first.split_whitespace().peekable();
        let volatile = words.next_if_eq(&"volatile").is_some();
        let op = words.next().unwrap_or_default().to_string();
        let Some(code) = INT_OPS.iter().position(|o| *o == op) else {
            return unsup(format!("atomics (atomicrmw {op})"), line);
        };
        // The operation is part of the event: `add` and `sub` of one
        // operand are different events.
        let code = code as u8 + 1;
        if words.next() != Some("ptr") {
            return unsup("atomics (an atomicrmw through a typed pointer)", line);
        }
        let mut addrspace = 0;
        let mut rest: Vec<&str> = words.collect();
        if let Some(a) = rest.first().and_then(|w| w.strip_prefix("addrspace(")) {
            addrspace = a.trim_end_matches(')').parse().unwrap_or(0);
            rest.remove(0);
        }
        let mut local_uses = g.uses.iter();
        let ptr = match rest.as_slice() {
            [p] if p.starts_with('%') => match local_uses.next() {
                Some(n) => Value::Local(n.clone()),
                None => return unsup("atomics (an atomicrmw not understood)", line),
            },
            [p] if p.starts_with('@') => match g.globals.first() {
                Some(n) => Value::Global(n.clone()),
                None => return unsup("atomics (an atomicrmw not understood)", line),
            },
            _ => return unsup("atomics (an atomicrmw through a constant expression)", line),
        };
        let mut vwords = second.split_whitespace();
        let ty = vwords.next().unwrap_or_default();
        let Some(bits) = ty.strip_prefix('i').and_then(|b| b.parse::<u32>().ok()) else {
            return unsup(format!("atomics (atomicrmw {op} on {ty})"), line);
        };
        let vty = Type::Int(bits);
        value_type(&vty, "an atomic's operand", line)?;
        let vtext = vwords.next().unwrap_or_default();
        let operand = if vtext.starts_with('%') {
            match local_uses.next() {
                Some(n) => Value::Local(n.clone()),
                None => return unsup("atomics (an atomicrmw not understood)", line),
            }
        } else if let Ok(k) = vtext.parse::<i128>() {
            Value::Int(k)
        } else if vtext == "true" || vtext == "false" {
            Value::Int(i128::from(vtext == "true"))
        } else {
            return unsup(format!("atomics (an atomicrmw of {vtext})"), line);
        };
        let ptr = TypedValue {
            ty: Type::Ptr { addrspace },
            value: ptr,
        };
        let (space, base, global) = self.location(&ptr);
        if space == Space::Local || global.as_ref().is_some_and(|g| g.elements) {
            return unsup("atomics on private memory", line);
        }
        let (size, _) = self.ctx.layout.size_align(&vty, line)?;
        let v = self.value(&operand, &vty, line)?;
        let value = super::values::zext(v, bits, Default::default());
        let index = self.access_address(&ptr, size, line)?;
        let label = attachment(self.ctx.m, inst, "convcheck.label")
            .unwrap_or_else(|| format!("atomicrmw {op} {base}"));
        let sid = self.op(label.clone(), OpKind::Mem { space, write: true }, inst);
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
        if let Some(r) = &inst.result {
            let span = span_at(inst.span.line, inst.span.col);
            let o = self.t.oracle(&label, OracleClass::Varying, span);
            let sid = self.stmt_op(&label, inst);
            out.push(Inst {
                kind: InstKind::SetLocal {
                    name: plain(r),
                    value: Some(Expr::Oracle(o)),
                },
                sid,
                token: None,
            });
        }
        Ok(())
    }
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
}
