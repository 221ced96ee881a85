//! Inline assembly (LangRef, "Inline Assembler Expressions"; issue 20).
//!
//! A call of inline assembly is an opaque call: what the assembly does is
//! unknown, except what its attributes say. convcheck maps it exactly as a
//! call to an external function the module only declares
//! (`super::calls`, steps 3 and 5), whose identity is the assembly itself:
//! its flags (`sideeffect`, `alignstack`, `inteldialect`, `unwind`), its
//! text and its constraints, whitespace outside the strings normalised
//! ([`identity`]). The same assembly in the reference and the target is
//! the same function, another text or other constraints another one. Its
//! name, for labels and oracles, is `asm.` and a 64-bit FNV-1a hash of the
//! identity in hexadecimal ([`name`]): a function of the text alone, so
//! that reports are deterministic and a name never holds quotes.
//!
//! - `convergent` at the call site (clang puts it on every `asm` statement
//!   of CUDA, HIP and OpenCL): a convergent operation labelled by that
//!   name, its arguments observed;
//! - `memory(none)` or `readnone`, not `sideeffect`, not convergent, with
//!   a result: a function of its arguments (`super::pure_calls`), so
//!   EarlyCSE merging two such calls is the same value;
//! - any other: a varying oracle named after it, read at every call with a
//!   result (a `sideeffect` assembly's call is never a pure value).
//!
//! The uniformity oracle (`convcheck uniformity`) leaves inline assembly
//! outside the model, as before.
//!
//! A non-convergent call that may have effects (`sideeffect`, or no
//! `memory(none)`/`memory(read)`) is an observed event with its arguments,
//! as an external call's is ([`super::effects`]); its effects on memory
//! are not modelled.
#![deny(unsafe_code)]

use convcheck_ir::{CallKind, Expr, Inst, OpKind, OracleClass};

use super::calls::{bundle_token, reads_always};
use super::func::{value_type, FnMapper};
use super::{plain, span_at, R};
use crate::inst::{Call, Instruction};
use crate::types::Type;
use crate::value::Value;

impl FnMapper<'_> {
    /// A call of the inline assembly `text` (see the module documentation).
    pub(super) fn asm_call(
        &mut self,
        inst: &Instruction,
        c: &Call,
        text: &str,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        let m = self.ctx.m;
        if !matches!(c.ret_ty, Type::Void) {
            value_type(&c.ret_ty, "an inline assembly result", line)?;
        }
        for a in &c.args {
            value_type(&a.ty, "an inline assembly argument", line)?;
        }
        // The uniformity oracle (`MapOptions::opaque_calls`) leaves inline
        // assembly out: LLVM's uniformity analysis takes some of it for
        // uniform by its constraints (AMDGPU's `=s`), which the model does
        // not read, so a finding there would be the model's ignorance.
        if self.ctx.opts.opaque_calls {
            return super::unsup("inline assembly", line);
        }
        let token = bundle_token(c, line)?;
        let shown = name(text);
        let span = span_at(inst.span.line, inst.span.col);
        let side_effects = has_side_effects(text);
        // A call with a result reads its oracle every time it runs unless
        // it is a pure value: `memory(none)` and no `sideeffect`.
        let reads = !matches!(c.ret_ty, Type::Void) && (side_effects || reads_always(c, m));
        if c.is_convergent(m) {
            let o = self.t.oracle(&shown, OracleClass::Varying, span);
            let args = self.observed_args(c, line)?;
            let kind = CallKind::Op(o);
            let op = self.op(shown.clone(), OpKind::Call(kind), inst);
            self.mark_memory_none(op, c);
            return self.push_call(inst, op, kind, shown, args, token, reads, out);
        }
        if let Some(leader) = inst.result.as_ref().and_then(|r| self.pure_leaders.get(r)) {
            if self.used(inst) {
                let e = Expr::Var(plain(leader));
                self.set(inst, &shown, e, out)?;
            }
            return Ok(());
        }
        if super::pure_calls::covered(c, m) {
            let o = self.t.oracle(&shown, OracleClass::Function, span);
            let args = self.observed_args(c, line)?;
            let kind = CallKind::Plain(o);
            let op = self.op(shown.clone(), OpKind::Call(kind), inst);
            return self.push_call(inst, op, kind, shown, args, token, false, out);
        }
        if !self.ctx.opts.calls_as_oracles && super::effects::may_have_effects(c, m) {
            self.effect_events(inst, c, &shown, out)?;
            self.clobbers(inst, c, &shown, out)?;
        }
        let o = self.t.oracle(&shown, OracleClass::Varying, span);
        let args = self.args(c, line)?;
        let kind = CallKind::Plain(o);
        let op = self.op(shown.clone(), OpKind::Call(kind), inst);
        self.push_call(inst, op, kind, shown, args, token, reads, out)
    }
}

/// The identity of an inline assembly callee: its text with every run of
/// whitespace outside the strings made one space, and none before a comma.
pub(crate) fn identity(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut space = false;
    for ch in text.trim().chars() {
        if quoted {
            out.push(ch);
            if ch == '"' {
                quoted = false;
            }
            continue;
        }
        if ch.is_whitespace() {
            space = true;
            continue;
        }
        if space && ch != ',' {
            out.push(' ');
        }
        space = false;
        if ch == '"' {
            quoted = true;
        }
        out.push(ch);
    }
    out
}

/// The name of an inline assembly callee: `asm.` and the FNV-1a hash of
/// its [`identity`], 16 hexadecimal digits.
pub(crate) fn name(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in identity(text).bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("asm.{h:016x}")
}

/// Whether an inline assembly callee says `sideeffect`.
pub(crate) fn has_side_effects(text: &str) -> bool {
    flags(text).any(|w| w == "sideeffect")
}

/// The words between `asm` and the assembly string.
fn flags(text: &str) -> impl Iterator<Item = &str> {
    let head = text.split('"').next().unwrap_or("");
    head.split_whitespace().skip(1)
}

/// The name of a call's callee for grouping calls of one function: the
/// callee's name, or an inline assembly callee's [`name`].
pub(crate) fn callee_key(c: &Call) -> Option<String> {
    match &c.callee {
        Value::InlineAsm(t) => Some(name(t)),
        _ => c.callee_name().map(str::to_string),
    }
}

/// The text of an inline assembly callee, if the call has one.
pub(crate) fn text(c: &Call) -> Option<&str> {
    match &c.callee {
        Value::InlineAsm(t) => Some(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_normalises_whitespace_outside_strings_only() {
        let a = "asm sideeffect \"addl $1,  $0\", \"=r,r\"";
        let b = "asm   sideeffect \"addl $1,  $0\" , \"=r,r\"";
        assert_eq!(identity(a), identity(b));
        assert_eq!(name(a), name(b));
        let c = "asm sideeffect \"addl $1, $0\", \"=r,r\"";
        assert_ne!(name(a), name(c), "the text inside the string counts");
        let d = "asm \"addl $1,  $0\", \"=r,r\"";
        assert_ne!(name(a), name(d), "the flags count");
        let e = "asm sideeffect \"addl $1,  $0\", \"=r,0\"";
        assert_ne!(name(a), name(e), "the constraints count");
        assert!(has_side_effects(a) && !has_side_effects(d));
        assert!(!has_side_effects("asm \"sideeffect\", \"\""));
        assert_eq!(name(a).len(), 4 + 16);
    }
}
