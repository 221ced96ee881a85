//! Calls (DESIGN.md 2.9, "Convergent operations"; LangRef "call", "Function
//! Attributes": `convergent`; "Convergence Control Intrinsics").
//!
//! In order of precedence, a direct call to `@f` is:
//!
//! 1. a call of a function the module defines: a real call
//!    (`CallKind::Real`), whatever its name, unless that function is itself
//!    skipped, which skips the caller;
//! 2. a function [`super::builtins`] knows by its (demangled) name: a
//!    convention of [`crate::write`] (`convcheck.tid`, `oracle.NAME`), an
//!    intrinsic (a token, dropped, `tid`, `N`, a barrier, a fence, a
//!    computed value), OpenCL's and CUDA's work-item functions, barriers
//!    and fences; and the memory accesses of `llvm.memcpy`, `llvm.memmove`
//!    and `llvm.memset` of a constant length ([`super::mem_intrinsics`]),
//!    whatever their declaration says;
//! 3. when the call site or the callee is `convergent` (attribute groups
//!    resolved): a convergent operation labelled by the callee's name,
//!    whose value is a varying oracle of that name (`CallKind::Op`), or an
//!    observation point when the declaration says `"convcheck.observe"`;
//!    its arguments are observed, each as the unsigned `iN` it is;
//! 4. any other intrinsic: outside the model;
//! 5. any other external function: a varying oracle named after the callee
//!    (`CallKind::Plain`), not a convergent operation. When it may have
//!    effects, the call is an observed event with its arguments
//!    ([`super::effects`]); its effects on memory are not modelled.
//!
//! Inline assembly is a call to an external function named after the
//! assembly, by steps 3 and 5 ([`super::asm`]).
//!
//! Callee names are shown by their demangled base name when they have one
//! (`_ZL5tid_xv` is `tid_x`, `_Z20sub_group_reduce_addi` is
//! `sub_group_reduce_add`). A `"convergencectrl"` operand bundle sets the
//! instruction's token; any other bundle is outside the model.
//!
//! **Reads.** A call to an external function (steps 3 and 5) whose result
//! type is not `void` reads its oracle every time it runs, whether or not
//! its value is used: the call still runs when a pass deletes the last use
//! of its value, so the read must not vanish with the use (the values read
//! after it would shift between the reference and the target). A `void`
//! call has no value and reads nothing. A call that is `readnone` or
//! `memory(none)` (at the call site or on the callee) is a pure value,
//! which LLVM may delete or duplicate freely: its oracle is read only when
//! its value is used, as the model's interpreter does for an unused value.
//! Unless it is `willreturn` (LangRef: else it may not return), such a
//! call, and a `memory(read)` one, is also an event with its arguments
//! (`super::effects`), ordered with the stores; a call that an identical
//! call dominates has none (review3 H14).
//! A convergent such call that is `willreturn` is marked `memory_none` in
//! the op table: its
//! order against memory accesses is not observed, only its order against
//! the other convergent operations (`convcheck_ir::exec::observe`).
//! The result of a data-carrying barrier (`__syncthreads_count`,
//! `llvm.nvvm.barrier0.popc`) follows the same rule; the values of the
//! other builtins (`tid`, the min/max intrinsics) are pure and taken only
//! when used.
#![deny(unsafe_code)]

use convcheck_ir::{
    BarrierKind, BinOp as IrBin, CallKind, Expr, Inst, InstKind, OpKind, OracleClass, UnOp,
};

use super::builtins::{classify, demangled_base, Builtin};
use super::conventions::{has_str_attr, str_attr};
use super::func::{value_type, width_of, FnMapper};
use super::values::{bin, sext, zext, Norm};
use super::{plain, span_at, unsup, R};
use crate::inst::{Call, Instruction};
use crate::types::Type;
use crate::value::Value;

impl FnMapper<'_> {
    /// Maps a call instruction.
    pub fn call(&mut self, inst: &Instruction, c: &Call, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        let callee = match &c.callee {
            Value::InlineAsm(text) => return self.asm_call(inst, c, text, out),
            Value::Global(n) => n,
            _ => return unsup("an indirect call", line),
        };
        let m = self.ctx.m;
        let Some(decl) = m.function_by_name(callee) else {
            return self.undeclared_call(inst, c, callee, out);
        };
        let name = plain(callee);
        let dim = c.args.first().and_then(|a| a.value.as_int());
        let defined = decl.is_definition;
        let opaque = self.ctx.opts.opaque_calls;
        // A function the module defines is what runs, whatever its name.
        // Opaque calls keep the builtins the model computes and make the
        // rest opaque values.
        let builtin = classify(&name, dim)
            .filter(|_| !defined)
            .filter(|b| !(opaque && matches!(b, Builtin::Unsupported(_))));
        if builtin == Some(Builtin::Drop) {
            return Ok(());
        }
        // `llvm.memcpy`, `llvm.memmove`, `llvm.memset` (whatever the
        // declaration says: LLVM gives an intrinsic its definition's
        // attributes): accesses of memory (`super::mem_intrinsics`).
        if let Some(k) = super::mem_intrinsics::which(&name).filter(|_| !defined && !opaque) {
            return self.mem_intrinsic(inst, c, &name, k, out);
        }
        let token = bundle_token(c, line)?;
        if let Some(Builtin::Token(kind)) = builtin {
            let Some(r) = &inst.result else {
                return unsup(format!("a {} token without a name", kind.name()), line);
            };
            let sid = self.op(name.as_str(), OpKind::Token, inst);
            out.push(Inst {
                kind: InstKind::Token {
                    kind,
                    name: plain(r),
                },
                sid,
                token,
            });
            return Ok(());
        }
        if !matches!(c.ret_ty, Type::Void) {
            value_type(&c.ret_ty, "a call's result", line)?;
        }
        for a in &c.args {
            value_type(&a.ty, "a call argument", line)?;
        }
        if let Some(b) = builtin {
            return self.builtin(inst, c, &name, b, token, out);
        }
        if opaque {
            return self.opaque_call(inst, c, &name, token, out);
        }
        let shown = demangled_base(&name).unwrap_or(&name).to_string();
        let label = str_attr(m, &c.fn_attrs, "convcheck.label")
            .or_else(|| str_attr(m, &decl.attrs, "convcheck.label"))
            .map_or_else(|| shown.clone(), str::to_string);
        let oracle_name = str_attr(m, &c.fn_attrs, "convcheck.oracle")
            .or_else(|| str_attr(m, &decl.attrs, "convcheck.oracle"))
            .map_or_else(|| shown.clone(), str::to_string);
        let span = span_at(inst.span.line, inst.span.col);
        if defined {
            if self.ctx.skipped.contains(callee) {
                return unsup(format!("a call to @{callee}, which is not mapped"), line);
            }
            let Some(&f) = self.ctx.ids.get(callee) else {
                return unsup(format!("a call to @{callee}, which is not mapped"), line);
            };
            let mut args = self.args(c, line)?;
            // The count after a callee that may write: a function oracle
            // `CALLEE.version` of the count before and the arguments, not
            // the count plus one (the callee may write nothing: review2 G9).
            let exact = super::memory_version::exact_writes(decl, m);
            let after = (self.ctx.versioned
                && exact.is_none()
                && super::memory_version::body_may_write(decl, m, &mut Default::default()))
            .then(|| {
                let mut vargs = vec![self.version_now(inst)];
                vargs.extend(args.iter().cloned());
                (vargs, format!("{} (memory version)", label))
            });
            if self.ctx.versioned {
                // The caller's count of writes (`super::memory_version`).
                args.push(self.version_now(inst));
            }
            let kind = CallKind::Real(f);
            let op = self.op(label, OpKind::Call(kind), inst);
            self.push_call(inst, op, kind, name.clone(), args, token, false, out)?;
            if let Some(k) = exact.filter(|&k| self.ctx.versioned && k > 0) {
                // A callee that writes `k` times on every run (its count
                // continues the caller's, so inlining it keeps the counts).
                let sid = self.op("memory version", OpKind::Stmt, inst);
                out.push(Inst {
                    kind: InstKind::SetLocal {
                        name: super::memory_version::VERSION.into(),
                        value: Some(Expr::binary(
                            convcheck_ir::BinOp::Add,
                            Expr::Var(super::memory_version::VERSION.into()),
                            Expr::Const(k),
                        )),
                    },
                    sid,
                    token: None,
                });
            }
            if let Some((vargs, vlabel)) = after {
                let o = self
                    .t
                    .oracle(&format!("{name}.version"), OracleClass::Function, span);
                let kind = CallKind::Plain(o);
                let op = self.op(vlabel, OpKind::Call(kind), inst);
                out.push(Inst {
                    kind: InstKind::SetLocal {
                        name: super::memory_version::VERSION.into(),
                        value: Some(Expr::Call {
                            op,
                            kind,
                            callee: format!("{name}.version"),
                            args: vargs,
                        }),
                    },
                    sid: op,
                    token: None,
                });
            }
            return self.defined_call_clobbers(inst, callee, out);
        }
        if c.is_convergent(m) || super::crosslane::convergent(&name) {
            if has_str_attr(m, &decl.attrs, "convcheck.observe") {
                let sid = self.op(label, OpKind::Observe, inst);
                out.push(Inst {
                    kind: InstKind::Observe,
                    sid,
                    token,
                });
                return Ok(());
            }
            let o = self.t.oracle(&oracle_name, OracleClass::Varying, span);
            let args = self.observed_args(c, line)?;
            let kind = CallKind::Op(o);
            let op = self.op(label.clone(), OpKind::Call(kind), inst);
            // Without `willreturn` it may not return (LangRef): its place
            // among the stores is observed (review3 H14).
            if c.will_return(m) {
                self.mark_memory_none(op, c);
            }
            if super::crosslane::memory_none(&name) {
                if let Some(info) = self.t.ops.get_mut(op.0 as usize) {
                    info.memory_none = true;
                }
            }
            let reads = reads_always(c, m);
            let callee = format!("@{shown}");
            // A convergent call that may read memory (clang declares every
            // external CUDA/HIP/OpenCL device function convergent; review2
            // G2): the convergent event as before, and its result the
            // function oracle `CALLEE.reads` of the event's fresh value,
            // its arguments and the bytes of the private objects it may
            // read (`super::call_reads`; the event pins its place among
            // the other events, so no memory version).
            let plan = if super::crosslane::convergent(&name)
                || super::crosslane::memory_none(&name)
                || name.starts_with("llvm.")
            {
                None
            } else {
                self.read_plan(inst, c, true)?
            };
            let memory = plan.as_ref().map(|p| self.plan_reads(inst, &label, p, out));
            let tag = plan.as_ref().map(|p| p.tag(m)).unwrap_or_default();
            let Some(memory) = memory else {
                self.push_call(inst, op, kind, shown, args, token, reads, out)?;
                // What it may write (`super::effects`): a convergent function
                // the module only declares may write memory as any other,
                // unless it is an operation the model knows (a shuffle, a
                // vote) or an intrinsic, whose attributes are LLVM's whatever
                // the file declares.
                if !self.ctx.opts.calls_as_oracles
                    && !super::crosslane::convergent(&name)
                    && !super::crosslane::memory_none(&name)
                    && !name.starts_with("llvm.")
                    && super::effects::may_have_effects(c, m)
                {
                    self.clobbers(inst, c, &callee, out)?;
                }
                return Ok(());
            };
            let local = call_local(inst, op, kind, shown.clone(), args, token, out);
            if !self.ctx.opts.calls_as_oracles && super::effects::may_have_effects(c, m) {
                self.clobbers(inst, c, &callee, out)?;
            }
            let mut args = vec![Expr::Var(local)];
            args.extend(self.observed_args(c, line)?);
            args.extend(memory);
            let o = self.t.oracle(
                &format!("{oracle_name}.reads{tag}"),
                OracleClass::Function,
                span,
            );
            let kind = CallKind::Plain(o);
            let op = self.op(label, OpKind::Call(kind), inst);
            return self.push_call(inst, op, kind, shown, args, None, false, out);
        }
        if name.starts_with("llvm.") {
            return unsup(format!("the intrinsic {name}"), line);
        }
        // A call that accesses no memory: a function of its arguments, and
        // a dominating call's value for the same arguments (`pure_calls`).
        if let Some(leader) = inst.result.as_ref().and_then(|r| self.pure_leaders.get(r)) {
            if self.used(inst) {
                let e = Expr::Var(plain(leader));
                self.set(inst, &label, e, out)?;
            }
            return Ok(());
        }
        // A call that is not `willreturn` may not return (LangRef), even
        // one that accesses no memory: an observed event with its
        // arguments, as a call with effects is, so that the target runs it
        // where, and with the stores before it, the reference does
        // (review3 H14). A call that an identical call dominates (above)
        // returns as that one did: no event.
        let hangs = !self.ctx.opts.calls_as_oracles && !c.will_return(m);
        if super::pure_calls::covered(c, m) {
            if hangs {
                self.effect_events(inst, c, &format!("@{shown}"), out)?;
            }
            // One value per argument list within a thread (each integer
            // argument as the unsigned `iN` it is, so that garbage above
            // its width is no other argument).
            let o = self.t.oracle(&oracle_name, OracleClass::Function, span);
            let args = self.observed_args(c, line)?;
            let kind = CallKind::Plain(o);
            let op = self.op(label, OpKind::Call(kind), inst);
            return self.push_call(inst, op, kind, shown, args, token, false, out);
        }
        // A call that reads only its arguments' memory: a function of its
        // arguments and of those objects' bytes (`super::call_reads`).
        if !hangs
            && self.call_reading_arguments(
                inst,
                c,
                &label,
                &oracle_name,
                &shown,
                token.clone(),
                out,
            )?
        {
            return Ok(());
        }
        let event =
            hangs || !self.ctx.opts.calls_as_oracles && super::effects::may_have_effects(c, m);
        // What else its result depends on: the bytes of the private
        // objects it may read, and the version of other memory
        // (`super::call_reads`, `super::memory_version`), read before it
        // may write.
        let plan = self.read_plan(inst, c, event)?;
        let reads_memory = plan.as_ref().map(|p| self.plan_reads(inst, &label, p, out));
        let tag = plan.as_ref().map(|p| p.tag(m)).unwrap_or_default();
        // A call that may have effects is observed with its arguments
        // (`super::effects`), before its value is read.
        if event {
            self.effect_events(inst, c, &format!("@{shown}"), out)?;
            self.clobbers(inst, c, &format!("@{shown}"), out)?;
        }
        let Some(memory) = reads_memory else {
            let o = self.t.oracle(&oracle_name, OracleClass::Varying, span);
            let args = self.args(c, line)?;
            let kind = CallKind::Plain(o);
            let op = self.op(label, OpKind::Call(kind), inst);
            let reads = reads_always(c, m);
            return self.push_call(inst, op, kind, shown, args, token, reads, out);
        };
        let mut args = Vec::new();
        if event {
            // One fresh value per call, as before, that the result depends
            // on with the memory: a call that may write is no function.
            let o = self.t.oracle(&oracle_name, OracleClass::Varying, span);
            let stream_args = self.args(c, line)?;
            let kind = CallKind::Plain(o);
            let op = self.op(label.clone(), OpKind::Call(kind), inst);
            let local = call_local(
                inst,
                op,
                kind,
                shown.clone(),
                stream_args,
                token.clone(),
                out,
            );
            args.push(Expr::Var(local));
        }
        args.extend(self.observed_args(c, line)?);
        args.extend(memory);
        let o = self.t.oracle(
            &format!("{oracle_name}.reads{tag}"),
            OracleClass::Function,
            span,
        );
        let kind = CallKind::Plain(o);
        let op = self.op(label, OpKind::Call(kind), inst);
        self.push_call(inst, op, kind, shown, args, token, false, out)
    }

    /// A call of an intrinsic the module does not declare (LLVM declares
    /// it implicitly, with no attributes): a builtin the model knows, an
    /// opaque value under [`super::MapOptions::opaque_calls`], else
    /// outside the model.
    fn undeclared_call(
        &mut self,
        inst: &Instruction,
        c: &Call,
        callee: &crate::value::Name,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        let name = plain(callee);
        if !name.starts_with("llvm.") {
            return unsup(
                format!("a call through @{callee}, which is not a function"),
                line,
            );
        }
        if !matches!(c.ret_ty, Type::Void) {
            value_type(&c.ret_ty, "a call's result", line)?;
        }
        for a in &c.args {
            value_type(&a.ty, "a call argument", line)?;
        }
        if !c.bundles.is_empty() {
            return unsup(format!("an operand bundle on the undeclared {name}"), line);
        }
        if let Some(k) = super::mem_intrinsics::which(&name).filter(|_| !self.ctx.opts.opaque_calls)
        {
            return self.mem_intrinsic(inst, c, &name, k, out);
        }
        let dim = c.args.first().and_then(|a| a.value.as_int());
        match classify(&name, dim) {
            Some(Builtin::Drop) => Ok(()),
            Some(Builtin::Unsupported(_)) | None if self.ctx.opts.opaque_calls => {
                self.opaque_call(inst, c, &name, None, out)
            }
            Some(Builtin::Token(_)) | Some(Builtin::Unsupported(_)) | None => {
                unsup(format!("the intrinsic {name}"), line)
            }
            Some(b) => self.builtin(inst, c, &name, b, None, out),
        }
    }

    /// A call as an opaque value ([`super::MapOptions::opaque_calls`]): an
    /// oracle read named after its result, convergent or not as the call
    /// is; without a result, a convergent event or nothing.
    pub(super) fn opaque_call(
        &mut self,
        inst: &Instruction,
        c: &Call,
        name: &str,
        token: Option<String>,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        let m = self.ctx.m;
        let convergent = c.is_convergent(m);
        let shown = demangled_base(name).unwrap_or(name).to_string();
        let span = span_at(inst.span.line, inst.span.col);
        let oracle_name = match &inst.result {
            Some(r) => format!("%{}", plain(r)),
            None if convergent => shown.clone(),
            None => return Ok(()),
        };
        let o = self.t.oracle(&oracle_name, OracleClass::Varying, span);
        // Integer arguments zero-extended from their width, so that equal
        // `iN` values are equal operands.
        let mut args = Vec::new();
        for a in &c.args {
            args.push(match &a.ty {
                Type::Int(_) => self.zv(&a.value, &a.ty, line)?,
                _ => self.value(&a.value, &a.ty, line)?,
            });
        }
        let kind = if convergent {
            CallKind::Op(o)
        } else {
            CallKind::Plain(o)
        };
        let op = self.op(shown.clone(), OpKind::Call(kind), inst);
        if convergent {
            self.mark_memory_none(op, c);
        }
        let reads = !matches!(c.ret_ty, Type::Void);
        self.push_call(inst, op, kind, shown, args, token, reads, out)
    }

    /// Marks convergent operation `op` as one that accesses no memory
    /// when the call or its callee says `memory(none)` or `readnone`
    /// (`convcheck_ir::OpInfo::memory_none`).
    pub(super) fn mark_memory_none(&mut self, op: convcheck_ir::OpId, c: &Call) {
        if c.is_readnone(self.ctx.m) {
            if let Some(info) = self.t.ops.get_mut(op.0 as usize) {
                info.memory_none = true;
            }
        }
    }

    pub(super) fn args(&mut self, c: &Call, line: u32) -> R<Vec<Expr>> {
        let mut out = Vec::new();
        for a in &c.args {
            out.push(self.value(&a.value, &a.ty, line)?);
        }
        Ok(out)
    }

    /// The arguments of a convergent operation, whose values are observed:
    /// each as the unsigned `iN` it is (`zextN`), so that the garbage the
    /// width rule allows above bit `N` is not taken for a difference.
    pub(super) fn observed_args(&mut self, c: &Call, line: u32) -> R<Vec<Expr>> {
        let mut out = Vec::new();
        for a in &c.args {
            let v = self.zv(&a.value, &a.ty, line)?;
            out.push(self.observed_value(&a.value, &a.ty, v, true));
        }
        Ok(out)
    }

    /// `%r = call ...` when the result is used (or, with `reads`, whenever
    /// the call has a result), else the call for its effect.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_call(
        &mut self,
        inst: &Instruction,
        op: convcheck_ir::OpId,
        kind: CallKind,
        callee: String,
        args: Vec<Expr>,
        token: Option<String>,
        reads: bool,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let e = Expr::Call {
            op,
            kind,
            callee,
            args,
        };
        let kind = match &inst.result {
            Some(r) if reads || self.used(inst) => InstKind::SetLocal {
                name: plain(r),
                value: Some(e),
            },
            _ => InstKind::Eval(e),
        };
        out.push(Inst {
            kind,
            sid: op,
            token,
        });
        Ok(())
    }

    fn builtin(
        &mut self,
        inst: &Instruction,
        c: &Call,
        name: &str,
        b: Builtin,
        token: Option<String>,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        let line = inst.line();
        let m = self.ctx.m;
        let span = span_at(inst.span.line, inst.span.col);
        let label = str_attr(m, &c.fn_attrs, "convcheck.label").map_or_else(
            || demangled_base(name).unwrap_or(name).to_string(),
            str::to_string,
        );
        let value = |s: &mut Self, e: Expr, out: &mut Vec<Inst>| -> R<()> {
            if s.used(inst) {
                s.set(inst, name, e, out)?;
            }
            Ok(())
        };
        match b {
            Builtin::Tid => {
                let e = self.thread_in(0, line);
                value(self, e, out)
            }
            Builtin::GroupSize => {
                let e = self.size_in(0, line);
                value(self, e, out)
            }
            Builtin::ThreadIn(dim) => {
                let e = self.thread_in(dim, line);
                value(self, e, out)
            }
            Builtin::SizeIn(dim) => {
                let e = self.size_in(dim, line);
                value(self, e, out)
            }
            Builtin::PerGroup(w, dim) => {
                let e = self.group_value(w, dim, line);
                value(self, e, out)
            }
            Builtin::GlobalId => {
                let g = self.group_value(super::groups::GroupValue::Id, 0, line);
                let (n, t) = (self.size_in(0, line), self.thread_in(0, line));
                let e = bin(IrBin::Add, bin(IrBin::Mul, g, n), t);
                value(self, e, out)
            }
            Builtin::GlobalSize => {
                let g = self.group_value(super::groups::GroupValue::Count, 0, line);
                let n = self.size_in(0, line);
                value(self, bin(IrBin::Mul, g, n), out)
            }
            Builtin::LaneId => {
                let w = self.warp_size(name, line)?;
                value(self, bin(IrBin::URem, Expr::Tid, Expr::Const(w)), out)
            }
            Builtin::WarpSize => {
                let w = self.warp_size(name, line)?;
                value(self, Expr::Const(w), out)
            }
            Builtin::Oracle(n) => {
                let o = self.t.oracle(&n, OracleClass::Varying, span);
                if self.used(inst) {
                    self.set(inst, name, Expr::Oracle(o), out)
                } else {
                    // The read still happens: it takes the oracle's next value.
                    let sid = self.stmt_op(name, inst);
                    out.push(Inst {
                        kind: InstKind::Eval(Expr::Oracle(o)),
                        sid,
                        token: None,
                    });
                    Ok(())
                }
            }
            Builtin::Barrier(kind) => {
                let mut args = Vec::new();
                let mut result = None;
                let mut reads = false;
                if kind != BarrierKind::Plain {
                    let Some(a) = c.args.first() else {
                        return unsup(
                            format!("the data-carrying barrier {name} without a predicate"),
                            line,
                        );
                    };
                    // The predicate is read as the unsigned iN it is, so that
                    // its test against zero is right.
                    let e = self.value(&a.value, &a.ty, line)?;
                    args.push(zext(e, width_of(&a.ty), Norm::default()));
                    reads = reads_always(c, m);
                    if reads || self.used(inst) {
                        let oracle = str_attr(m, &c.fn_attrs, "convcheck.oracle").map_or_else(
                            || demangled_base(name).unwrap_or(name).to_string(),
                            str::to_string,
                        );
                        result = Some(self.t.oracle(&oracle, OracleClass::Uniform, span));
                    }
                }
                let kind = CallKind::Barrier(kind, result);
                let op = self.op(label, OpKind::Call(kind), inst);
                self.push_call(inst, op, kind, name.to_string(), args, token, reads, out)
            }
            Builtin::Fence => {
                let kind = CallKind::Fence;
                let op = self.op(label, OpKind::Call(kind), inst);
                self.push_call(
                    inst,
                    op,
                    kind,
                    name.to_string(),
                    Vec::new(),
                    token,
                    false,
                    out,
                )
            }
            Builtin::MinMax { signed, less } => {
                let [a, b] = c.args.as_slice() else {
                    return unsup(format!("{name} with other than two arguments"), line);
                };
                let w = width_of(&a.ty);
                let x = self.value(&a.value, &a.ty, line)?;
                let y = self.value(&b.value, &b.ty, line)?;
                let (nx, ny) = (Norm::default(), Norm::default());
                let (cx, cy, op) = if signed {
                    (sext(x.clone(), w, nx), sext(y.clone(), w, ny), IrBin::Lt)
                } else {
                    (zext(x.clone(), w, nx), zext(y.clone(), w, ny), IrBin::ULt)
                };
                let test = bin(op, cx, cy);
                let (first, second) = if less { (x, y) } else { (y, x) };
                let e = Expr::Select(Box::new(test), Box::new(first), Box::new(second));
                value(self, e, out)
            }
            Builtin::Abs => {
                let Some(a) = c.args.first() else {
                    return unsup(format!("{name} without an argument"), line);
                };
                let w = width_of(&a.ty);
                let x = self.value(&a.value, &a.ty, line)?;
                let negative = bin(
                    IrBin::Lt,
                    sext(x.clone(), w, Norm::default()),
                    Expr::Const(0),
                );
                let e = Expr::Select(
                    Box::new(negative),
                    Box::new(Expr::Unary(UnOp::Neg, Box::new(x.clone()))),
                    Box::new(x),
                );
                value(self, e, out)
            }
            Builtin::Expect => {
                let Some(a) = c.args.first() else {
                    return unsup(format!("{name} without an argument"), line);
                };
                let x = self.value(&a.value, &a.ty, line)?;
                value(self, x, out)
            }
            Builtin::Int(op) => {
                if c.args.len() < op.operands() {
                    return unsup(format!("{name} with too few arguments"), line);
                }
                let w = width_of(&c.args[0].ty);
                let mut args = Vec::new();
                for a in &c.args[..op.operands()] {
                    args.push(self.value(&a.value, &a.ty, line)?);
                }
                match super::intrinsics::expand(op, w, &args) {
                    Ok(e) => value(self, e, out),
                    Err(what) => unsup(what, line),
                }
            }
            Builtin::Unsupported(what) => unsup(what, line),
            Builtin::Drop | Builtin::Token(_) => Ok(()),
        }
    }
}

/// Whether a call to an external function reads its oracle even when its
/// value is unused: it has a value and is not a pure one (see "Reads" in
/// the module documentation).
pub(super) fn reads_always(c: &Call, m: &crate::module::Module) -> bool {
    !matches!(c.ret_ty, Type::Void) && !c.is_readnone(m)
}

/// The convergence-control token of a call's `convergencectrl` bundle, if
/// it has one; any other operand bundle is outside the model.
pub(crate) fn bundle_token(c: &Call, line: u32) -> R<Option<String>> {
    let mut token = None;
    for b in &c.bundles {
        if b.tag != "convergencectrl" {
            return unsup(format!("the operand bundle \"{}\"", b.tag), line);
        }
        if let Some(Value::Local(t)) = b.inputs.first().map(|i| &i.value) {
            token = Some(plain(t));
        }
    }
    Ok(token)
}

/// Pushes a call's event, `op` of `kind` on `args`, as the value of the
/// local `convcheck.R.call` (`R` the call's result) and returns the
/// local's name: the event whose fresh value a reading call's result
/// depends on.
fn call_local(
    inst: &Instruction,
    op: convcheck_ir::OpId,
    kind: CallKind,
    callee: String,
    args: Vec<Expr>,
    token: Option<String>,
    out: &mut Vec<Inst>,
) -> String {
    let local = format!(
        "convcheck.{}.call",
        inst.result.as_ref().map(plain).unwrap_or_default()
    );
    out.push(Inst {
        kind: InstKind::SetLocal {
            name: local.clone(),
            value: Some(Expr::Call {
                op,
                kind,
                callee,
                args,
            }),
        },
        sid: op,
        token,
    });
    local
}
