//! One function: blocks, instructions, operands (see [`super`] for the
//! decisions, [`super::values`] for the width rule).
//!
//! Every instruction that yields an IR instruction or a terminator gets an
//! op, in instruction order: labelled by the callee for calls, `load @buf`
//! / `store @buf` for memory, the opcode for the rest, with the LLVM line
//! in its span. A block's origin is its first op. Pointer arithmetic
//! (`getelementptr`, pointer casts, allocas that stay in memory) yields no
//! instruction: its address is folded into the accesses that use it
//! ([`super::memory`]), which is sound because an SSA value's operands
//! hold the same values at every use it dominates.
#![deny(unsafe_code)]

use std::collections::{HashMap, HashSet};

use convcheck_ir::{
    BinOp as IrBin, Block, BlockId, Cfg, Expr, FuncId, Inst, InstKind, OpId, OpInfo, OpKind,
    OracleClass, Term,
};

use super::conventions::{attachment, str_attr};
use super::layout::Layout;
use super::memory::Globals;
use super::poison::{assumes_false, undefined, undefined_branch, Pieces};
use super::values::{bin, sext, zext, Lin, Norm};
use super::{plain, span_at, unsup, Tables, Unsup, R};
use crate::inst::{BinOp, CastOp, InstKind as K, Instruction, IntPredicate};
use crate::module::{Function, Module};
use crate::types::Type;
use crate::value::{Name, Value};

/// What every function's mapping shares.
pub(crate) struct Ctx<'a> {
    pub m: &'a Module,
    pub layout: &'a Layout,
    pub globals: &'a Globals,
    /// The functions being mapped, with their ids.
    pub ids: &'a HashMap<&'a Name, FuncId>,
    /// The defined functions that are not mapped.
    pub skipped: &'a HashSet<&'a Name>,
    /// How to map.
    pub opts: &'a super::MapOptions,
    /// Whether the module keeps the version of the memory the thread has
    /// written ([`super::memory_version`]).
    pub versioned: bool,
}

/// The state of one function's mapping.
pub(crate) struct FnMapper<'a> {
    pub ctx: &'a Ctx<'a>,
    pub t: &'a mut Tables,
    pub f: &'a Function,
    pub fid: FuncId,
    /// Each result's defining instruction.
    pub defs: HashMap<&'a Name, &'a Instruction>,
    /// How often each local is used.
    pub uses: HashMap<&'a Name, u32>,
    /// Allocas (and casts of them) promoted to locals: the local's name.
    pub promoted: HashMap<&'a Name, String>,
    /// The values stored to each promoted local.
    pub stored: HashMap<String, Vec<&'a Value>>,
    /// The loads of a promoted local that may run before any store to it
    /// (`super::uninit`).
    pub uninit: HashSet<&'a Name>,
    /// The loads of allocas kept in memory that may read them unwritten
    /// (`super::uninit::memory_uninit`).
    pub mem_uninit: super::uninit::MemUninit<'a>,
    /// Pointers that yield no instruction, by name.
    pub virt: HashSet<&'a Name>,
    /// Their addresses, once computed.
    pub lin_memo: HashMap<Name, Lin>,
    /// The base address of each alloca kept in memory.
    pub alloca_base: HashMap<&'a Name, i64>,
    /// The bases of those whose address goes nowhere but their own
    /// accesses ([`super::fresh`]).
    pub sealed: Vec<i64>,
    /// The bases of allocas kept in memory whose address may be captured
    /// ([`super::effects`]): a call that may write any memory may write
    /// them.
    pub captured: Vec<i64>,
    /// Where they may have been captured ([`super::capture`]).
    pub capture_sites: super::capture::CaptureSites,
    /// What is known of locals' high bits.
    pub norm: HashMap<String, Norm>,
    pub blocks: HashMap<&'a Name, BlockId>,
    /// The first op made for the current block.
    pub origin: Option<OpId>,
    /// The values that may be poison ([`super::poison`]).
    pub maybe: HashSet<Name>,
    /// Calls that access no memory whose value is a dominating call's
    /// with the same arguments, by result: that call's result
    /// ([`super::pure_calls`]).
    pub pure_leaders: HashMap<&'a Name, &'a Name>,
}

/// Maps one function.
pub(crate) fn map_function(
    ctx: &Ctx<'_>,
    t: &mut Tables,
    f: &Function,
    fid: FuncId,
) -> Result<Cfg, Unsup> {
    let line = f.span.line;
    if f.varargs {
        return unsup("a variadic function", line);
    }
    match &f.ret_ty {
        Type::Void | Type::Ptr { .. } => {}
        Type::Int(n) if *n <= 64 => {}
        other => value_type(other, "the return value", line).map(|_| ())?,
    }
    let mut mapper = FnMapper {
        ctx,
        t,
        f,
        fid,
        defs: HashMap::new(),
        uses: HashMap::new(),
        promoted: HashMap::new(),
        uninit: HashSet::new(),
        mem_uninit: Default::default(),
        stored: HashMap::new(),
        virt: HashSet::new(),
        lin_memo: HashMap::new(),
        alloca_base: HashMap::new(),
        sealed: Vec::new(),
        captured: Vec::new(),
        capture_sites: Default::default(),
        norm: HashMap::new(),
        blocks: HashMap::new(),
        origin: None,
        maybe: HashSet::new(),
        pure_leaders: HashMap::new(),
    };
    mapper.analyse()?;
    mapper.uninit = super::uninit::uninit_loads(f, &mapper.promoted);
    if !ctx.opts.unchecked_poison {
        let kept: HashSet<&Name> = mapper.alloca_base.keys().copied().collect();
        mapper.mem_uninit = super::uninit::memory_uninit(f, &kept);
    }
    if !ctx.opts.unchecked_poison {
        let slots: HashSet<&Name> = mapper.promoted.keys().copied().collect();
        mapper.maybe =
            super::poison::maybe_poison(f, &slots, super::ranges::poison_seeds(f, ctx.m));
    }
    let mut params = Vec::new();
    let mut param_oracles = Vec::new();
    let kernel = ctx.m.is_kernel(f);
    for p in &f.params {
        value_type(&p.ty, "a parameter", p.span.line)?;
        let name = plain(&p.name);
        // A kernel's arguments are the same for every thread of the launch
        // (as GPUVerify assumes); `inreg` ones are uniform by the ABI.
        let class = if kernel || ctx.m.has_attr(&p.attrs, "inreg") {
            OracleClass::Uniform
        } else {
            OracleClass::Invariant
        };
        let oracle_name = str_attr(ctx.m, &p.attrs, "convcheck.oracle")
            .map_or_else(|| name.clone(), str::to_string);
        let o = mapper
            .t
            .oracle(&oracle_name, class, span_at(p.span.line, p.span.col));
        if let Some(t) = super::floats::fty(&p.ty) {
            mapper.float_domain(o, t);
        }
        params.push(name);
        param_oracles.push(o);
    }
    if mapper.takes_version() {
        let name = super::memory_version::VERSION.to_string();
        let o = mapper
            .t
            .oracle(&name, OracleClass::Invariant, span_at(line, f.span.col));
        params.push(name);
        param_oracles.push(o);
    }
    // The per-group values a kernel reads, at the top of its entry block,
    // and the promoted slots' definedness (undefined until stored).
    let mut group_prelude = mapper.group_prelude();
    group_prelude.extend(mapper.slot_prelude());
    group_prelude.extend(mapper.range_prelude());
    let mut pieces = Pieces::new(f.blocks.len());
    for (bi, b) in f.blocks.iter().enumerate() {
        mapper.origin = None;
        pieces.begin(bi);
        let mut insts = Vec::new();
        let mut term = None;
        // Undefined behaviour in the block (LangRef; DESIGN.md 2.7): from
        // there on the run stops, as at `unreachable`.
        let mut ub = false;
        for inst in &b.instructions {
            if let Some((ok, name)) = (!ub).then(|| mapper.fresh_access(inst)).flatten() {
                let (origin, ub_op) = mapper.split_ops(inst);
                pieces.split_to(&b.name, name, ok, &mut insts, origin, ub_op);
            }
            if let Some((ok, name)) = (!ub).then(|| mapper.mem_overlap(inst)).flatten() {
                let (origin, ub_op) = mapper.split_ops(inst);
                pieces.split_to(&b.name, name, ok, &mut insts, origin, ub_op);
            }
            // Poison reaching an instruction where it is undefined
            // behaviour: the block goes on only where it is defined.
            if !ub && !undefined_branch(inst) && !assumes_false(inst) {
                if let Some(ok) = mapper.runs_defined(inst)? {
                    let (origin, ub_op) = mapper.split_ops(inst);
                    pieces.split(&b.name, inst, ok, &mut insts, origin, ub_op);
                }
            }
            if inst.is_terminator() {
                let t = mapper.terminator(inst)?;
                term = Some(if ub || undefined_branch(inst) {
                    Term::Unreachable
                } else {
                    t
                });
            } else if !ub {
                mapper.mem_touched(inst, &mut insts);
                if let Some(l) = mapper.mem_loop(inst)? {
                    // A memory intrinsic of a length that is not a constant:
                    // a loop, between two parts of the block.
                    insts.extend(l.prelude);
                    if ctx.versioned && super::memory_version::writes_shared_memory(&l.body) {
                        // One write where it writes a byte (`n != 0`, the
                        // loop's condition at its first test): review2 G12.
                        let bump = mapper.version_bump_if(inst, l.cond.clone());
                        insts.push(bump);
                    }
                    let origin = mapper.origin.take();
                    let origin = origin.or_else(|| Some(mapper.op("defined", OpKind::Stmt, inst)));
                    let header_op = mapper.op(format!("{} header", l.label), OpKind::Stmt, inst);
                    let body_op = l.body.first().map(|i| i.sid).unwrap_or(header_op);
                    mapper.origin = None;
                    pieces.loop_to(
                        &b.name, &l.label, &mut insts, origin, l.cond, l.body, header_op, body_op,
                    );
                    continue;
                }
                let before = insts.len();
                mapper.instruction(inst, &mut insts)?;
                if ctx.versioned
                    && (super::memory_version::writes_shared_memory(&insts[before..])
                        || super::memory_version::acquires(inst))
                {
                    let bump = mapper.version_bump(inst);
                    insts.push(bump);
                }
                mapper.shadow_of(inst, &mut insts)?;
                mapper.provenance_shadow(inst, &mut insts)?;
                ub = assumes_false(inst);
                if let Some(ok) = mapper.noundef_result(inst) {
                    // A `noundef` result out of its `range`: undefined
                    // behaviour at the call (`super::ranges`).
                    let (origin, ub_op) = mapper.split_ops(inst);
                    pieces.split(&b.name, inst, ok, &mut insts, origin, ub_op);
                }
            }
        }
        let Some(term) = term else {
            return unsup("a block without a terminator", b.span.line);
        };
        pieces.end(
            Block {
                name: plain(&b.name),
                insts,
                term,
                origin: mapper.origin,
            },
            &b.name,
        );
    }
    let mut blocks = pieces.finish();
    let first = group_prelude.first().map(|i| i.sid);
    if let (Some(entry), Some(sid)) = (blocks.first_mut(), first) {
        entry.origin = Some(sid);
        entry.insts.splice(0..0, group_prelude);
    }
    let mut cfg = Cfg {
        name: plain(&f.name),
        params,
        param_oracles,
        blocks,
    };
    super::blocks::drop_written_entry(&mut cfg);
    Ok(cfg)
}

/// The width of a value of type `ty`: `iN` up to 64 bits, pointers as 64.
pub(crate) fn value_type(ty: &Type, what: &str, line: u32) -> R<u32> {
    match ty {
        Type::Int(n) if *n <= 64 => Ok(*n),
        Type::Int(n) => unsup(format!("i{n} ({what})"), line),
        Type::Ptr { .. } => Ok(64),
        Type::Float(_) => match super::floats::fty(ty) {
            Some(t) => Ok(t.bits()),
            None => unsup(format!("floating point ({what} of type {ty})"), line),
        },
        Type::Vector { .. } => unsup(format!("vectors ({what} of type {ty})"), line),
        Type::Array { .. } | Type::Struct { .. } | Type::Named(_) => {
            unsup(format!("aggregates ({what} of type {ty})"), line)
        }
        _ => unsup(format!("a value of type {ty} ({what})"), line),
    }
}

/// What a generic instruction's opcode is, for the message.
fn generic_construct(opcode: &str) -> String {
    let kind = match opcode {
        "fneg" | "fadd" | "fsub" | "fmul" | "fdiv" | "frem" | "fcmp" | "fptrunc" | "fpext"
        | "fptoui" | "fptosi" | "uitofp" | "sitofp" => "floating point",
        "extractelement" | "insertelement" | "shufflevector" => "vectors",
        "extractvalue" | "insertvalue" => "aggregates",
        "atomicrmw" | "cmpxchg" => "atomics",
        "invoke" | "landingpad" | "resume" | "catchswitch" | "catchpad" | "cleanuppad"
        | "catchret" | "cleanupret" => "exceptions",
        "indirectbr" | "callbr" => "indirect branches",
        "va_arg" => "variadic arguments",
        _ => return format!("the instruction '{opcode}'"),
    };
    format!("{kind} ({opcode})")
}

impl<'a> FnMapper<'a> {
    /// A new op of this function at `inst`; the block's origin if it is the
    /// block's first.
    pub fn op(&mut self, label: impl Into<String>, kind: OpKind, inst: &Instruction) -> OpId {
        let id = self.t.op(OpInfo {
            label: label.into(),
            span: span_at(inst.span.line, inst.span.col),
            kind,
            func: self.fid,
            memory_none: false,
        });
        self.origin.get_or_insert(id);
        id
    }

    /// The ops of a split before `inst` where it has undefined behaviour:
    /// the origin of the part that ends there and the op of the block of
    /// undefined behaviour (every block has an origin). A part with no op
    /// of its own (two splits in a row) gets one at the instruction.
    pub fn split_ops(&mut self, inst: &Instruction) -> (Option<OpId>, OpId) {
        let origin = self.origin.take();
        let ub_op = self.op("undefined behaviour", OpKind::Stmt, inst);
        let origin = origin.or_else(|| Some(self.op("defined", OpKind::Stmt, inst)));
        self.origin = None;
        (origin, ub_op)
    }

    /// A statement's op: its label from `!convcheck.label`, else `default`.
    pub fn stmt_op(&mut self, default: &str, inst: &Instruction) -> OpId {
        let label =
            attachment(self.ctx.m, inst, "convcheck.label").unwrap_or_else(|| default.to_string());
        self.op(label, OpKind::Stmt, inst)
    }

    /// Whether the result of `inst` is used (every result is, when every
    /// value is mapped: [`super::MapOptions::every_value`]).
    pub fn used(&self, inst: &Instruction) -> bool {
        inst.result.as_ref().is_some_and(|r| {
            self.ctx.opts.every_value || self.uses.get(r).copied().unwrap_or(0) > 0
        })
    }

    fn result_name(inst: &Instruction) -> R<String> {
        match &inst.result {
            Some(r) => Ok(plain(r)),
            None => unsup("an instruction whose result has no name", inst.line()),
        }
    }

    /// Pushes `%result = e` with a statement op labelled `label`.
    pub fn set(&mut self, inst: &Instruction, label: &str, e: Expr, out: &mut Vec<Inst>) -> R<()> {
        let name = Self::result_name(inst)?;
        let sid = self.stmt_op(label, inst);
        out.push(Inst {
            kind: InstKind::SetLocal {
                name,
                value: Some(e),
            },
            sid,
            token: None,
        });
        Ok(())
    }

    fn norm_of(&self, e: &Expr) -> Norm {
        match e {
            Expr::Var(n) => self.norm.get(n).copied().unwrap_or_default(),
            Expr::Const(c) => Norm::of_const(*c),
            _ => Norm::default(),
        }
    }

    /// An integer or pointer operand of type `ty`.
    pub fn value(&mut self, v: &Value, ty: &Type, line: u32) -> R<Expr> {
        if let Type::Ptr { .. } = ty {
            return Ok(self.ptr_lin(v, line, 0)?.expr());
        }
        let width = value_type(ty, "an operand", line)?;
        Ok(match v {
            Value::Local(n) => Expr::Var(plain(n)),
            Value::Int(i) => Expr::Const(*i as i64),
            Value::Undef | Value::Poison if self.ctx.opts.undef_oracle => {
                let o = self
                    .t
                    .oracle(super::UNDEF_ORACLE, OracleClass::Varying, span_at(line, 1));
                Expr::Oracle(o)
            }
            Value::Null | Value::Undef | Value::Poison | Value::ZeroInitializer => Expr::Const(0),
            Value::ConstExpr(c) => return self.const_int(c, width, line, 0),
            Value::Float(text) => return self.float_const(text, ty, line),
            other => return unsup(format!("the constant {}", short(&other.to_string())), line),
        })
    }

    /// `sextN` / `zextN` of an operand.
    pub fn sv(&mut self, v: &Value, ty: &Type, line: u32) -> R<Expr> {
        let e = self.value(v, ty, line)?;
        let n = self.norm_of(&e);
        Ok(sext(e, width_of(ty), n))
    }

    pub fn zv(&mut self, v: &Value, ty: &Type, line: u32) -> R<Expr> {
        let e = self.value(v, ty, line)?;
        let n = self.norm_of(&e);
        Ok(zext(e, width_of(ty), n))
    }

    /// A condition of type `i1`: `zext1(c)`.
    pub fn cond(&mut self, v: &Value, line: u32) -> R<Expr> {
        self.zv(v, &Type::Int(1), line)
    }

    fn instruction(&mut self, inst: &'a Instruction, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        match &inst.kind {
            K::Phi(p) => {
                value_type(&p.ty, "a phi", line)?;
                let name = Self::result_name(inst)?;
                let mut incoming = Vec::new();
                for (v, pred) in &p.incoming {
                    let Some(&b) = self.blocks.get(pred) else {
                        return unsup(
                            format!("a phi predecessor %{pred} that is not a block"),
                            line,
                        );
                    };
                    incoming.push((b, self.value(v, &p.ty, line)?));
                }
                let sid = self.stmt_op("phi", inst);
                out.push(Inst {
                    kind: InstKind::Phi { name, incoming },
                    sid,
                    token: None,
                });
            }
            K::Select(s) => {
                value_type(&s.cond.ty, "a select", line)?;
                value_type(&s.if_true.ty, "a select", line)?;
                let c = self.cond(&s.cond.value, line)?;
                let a = self.value(&s.if_true.value, &s.if_true.ty, line)?;
                let b = self.value(&s.if_false.value, &s.if_false.ty, line)?;
                let n = Norm::either(self.norm_of(&a), self.norm_of(&b));
                let e = Expr::Select(Box::new(c), Box::new(a), Box::new(b));
                self.set(inst, "select", e, out)?;
                self.note_norm(inst, n);
            }
            K::ICmp(c) => {
                value_type(&c.ty, "an icmp", line)?;
                let (op, signed) = match c.pred {
                    IntPredicate::Eq => (IrBin::Eq, false),
                    IntPredicate::Ne => (IrBin::Ne, false),
                    IntPredicate::Ult => (IrBin::ULt, false),
                    IntPredicate::Ule => (IrBin::ULe, false),
                    IntPredicate::Ugt => (IrBin::UGt, false),
                    IntPredicate::Uge => (IrBin::UGe, false),
                    IntPredicate::Slt => (IrBin::Lt, true),
                    IntPredicate::Sle => (IrBin::Le, true),
                    IntPredicate::Sgt => (IrBin::Gt, true),
                    IntPredicate::Sge => (IrBin::Ge, true),
                };
                let (a, b) = if signed {
                    (self.sv(&c.lhs, &c.ty, line)?, self.sv(&c.rhs, &c.ty, line)?)
                } else {
                    (self.zv(&c.lhs, &c.ty, line)?, self.zv(&c.rhs, &c.ty, line)?)
                };
                self.set(inst, "icmp", bin(op, a, b), out)?;
                self.note_norm(inst, Norm::boolean());
            }
            K::Binary(b) => {
                let w = value_type(&b.ty, &format!("'{}'", b.op.keyword()), line)?;
                let e = self.binary(b.op, &b.ty, &b.lhs, &b.rhs, w, line)?;
                self.set(inst, b.op.keyword(), e, out)?;
            }
            K::Cast(c) => self.cast(inst, c, out)?,
            K::Freeze(tv) => {
                value_type(&tv.ty, "a freeze", line)?;
                let e = if undefined(&tv.value) {
                    // `freeze undef` is an arbitrary value, fixed where it is
                    // frozen (LangRef): a free value named after the
                    // instruction, the program's own choice (a reference's
                    // is angelic, `OracleClass::Choice`); the reference and
                    // the target read one value when both freeze under that
                    // name, which the engines' search of the reference's
                    // other choices does not rely on.
                    let name = format!("freeze.{}", Self::result_name(inst)?);
                    let o = self.t.oracle(&name, OracleClass::Choice, span_at(line, 1));
                    Expr::Oracle(o)
                } else {
                    self.value(&tv.value, &tv.ty, line)?
                };
                let n = self.norm_of(&e);
                self.set(inst, "freeze", e, out)?;
                self.note_norm(inst, n);
            }
            K::Alloca(_) | K::GetElementPtr(_) => {
                // Promoted allocas become locals where they are stored to;
                // the address of the others is folded into their accesses.
                // It is computed here so that an address outside the model
                // is reported at its own line.
                if let Some(r) = &inst.result {
                    if self.virt.contains(r) {
                        let lin = self.def_lin(r, line, 0)?;
                        self.address_value(inst, lin, out)?;
                    }
                }
            }
            K::Load(l) => {
                self.load(inst, l, out)?;
                self.float_load(inst, &l.ty, out);
            }
            K::Store(s) => self.store(inst, s, out)?,
            K::Call(c) => {
                if !self.overflow_call(inst, c, out)?
                    && !self.float_call(inst, c, out)?
                    && !self.match_all_call(inst, c, out)?
                {
                    self.call(inst, c, out)?;
                }
            }
            K::Generic(g) if g.opcode == "fence" => {
                let label = attachment(self.ctx.m, inst, "convcheck.label")
                    .unwrap_or_else(|| "fence".to_string());
                let kind = convcheck_ir::CallKind::Fence;
                let op = self.op(label, OpKind::Call(kind), inst);
                out.push(Inst {
                    kind: InstKind::Eval(Expr::Call {
                        op,
                        kind,
                        callee: "fence".into(),
                        args: Vec::new(),
                    }),
                    sid: op,
                    token: None,
                });
            }
            K::Generic(g) if g.opcode == "atomicrmw" => self.atomicrmw(inst, g, out)?,
            K::Generic(g) if g.opcode == "cmpxchg" => self.cmpxchg(inst, g, out)?,
            K::Generic(g) if g.opcode == "extractvalue" => self.extractvalue(inst, g, out)?,
            K::Generic(g) => {
                if !self.float_inst(inst, g, out)? {
                    return unsup(generic_construct(&g.opcode), line);
                }
            }
            K::Br(_) | K::CondBr { .. } | K::Switch(_) | K::Ret(_) | K::Unreachable => {
                return unsup("a terminator in the middle of a block", line)
            }
        }
        Ok(())
    }

    /// The address a folded pointer computes, as a local of its own when
    /// every value is mapped (else nothing: its accesses fold it in).
    fn address_value(
        &mut self,
        inst: &Instruction,
        lin: super::values::Lin,
        out: &mut Vec<Inst>,
    ) -> R<()> {
        if self.ctx.opts.every_value {
            let label = inst.opcode().to_string();
            self.set(inst, &label, lin.expr(), out)?;
        }
        Ok(())
    }

    pub fn note_norm(&mut self, inst: &Instruction, n: Norm) {
        if n != Norm::default() {
            if let Some(r) = &inst.result {
                self.norm.insert(plain(r), n);
            }
        }
    }

    /// An integer binary operator (see [`super::values`] for the operands).
    pub fn binary(
        &mut self,
        op: BinOp,
        ty: &Type,
        lhs: &Value,
        rhs: &Value,
        w: u32,
        line: u32,
    ) -> R<Expr> {
        let plain2 = |s: &mut Self, op| -> R<Expr> {
            let a = s.value(lhs, ty, line)?;
            let b = s.value(rhs, ty, line)?;
            Ok(bin(op, a, b))
        };
        let amount = |s: &mut Self| -> R<Expr> {
            if w < 6 {
                s.zv(rhs, ty, line)
            } else {
                s.value(rhs, ty, line)
            }
        };
        Ok(match op {
            BinOp::Add => plain2(self, IrBin::Add)?,
            BinOp::Sub => plain2(self, IrBin::Sub)?,
            BinOp::Mul => plain2(self, IrBin::Mul)?,
            BinOp::And => plain2(self, IrBin::BitAnd)?,
            BinOp::Or => plain2(self, IrBin::BitOr)?,
            BinOp::Xor => plain2(self, IrBin::BitXor)?,
            BinOp::Shl => {
                let a = self.value(lhs, ty, line)?;
                bin(IrBin::Shl, a, amount(self)?)
            }
            BinOp::LShr => {
                let a = self.zv(lhs, ty, line)?;
                bin(IrBin::LShr, a, amount(self)?)
            }
            BinOp::AShr => {
                let a = self.sv(lhs, ty, line)?;
                bin(IrBin::Shr, a, amount(self)?)
            }
            BinOp::SDiv | BinOp::SRem => {
                let a = self.sv(lhs, ty, line)?;
                let b = self.sv(rhs, ty, line)?;
                let op = if op == BinOp::SDiv {
                    IrBin::Div
                } else {
                    IrBin::Rem
                };
                bin(op, a, b)
            }
            BinOp::UDiv | BinOp::URem => {
                let a = self.zv(lhs, ty, line)?;
                let b = self.zv(rhs, ty, line)?;
                let op = if op == BinOp::UDiv {
                    IrBin::UDiv
                } else {
                    IrBin::URem
                };
                bin(op, a, b)
            }
        })
    }

    fn cast(&mut self, inst: &Instruction, c: &crate::inst::Cast, out: &mut Vec<Inst>) -> R<()> {
        let line = inst.line();
        let from = &c.value.ty;
        let kw = c.op.keyword();
        let what = format!("'{kw}'");
        match c.op {
            CastOp::Trunc | CastOp::ZExt | CastOp::SExt => {
                let n = value_type(from, &what, line)?;
                let to = value_type(&c.to, &what, line)?;
                if !matches!(from, Type::Int(_)) || !matches!(c.to, Type::Int(_)) {
                    return unsup(format!("the instruction '{kw}' on {from}"), line);
                }
                let (e, norm) = match c.op {
                    CastOp::ZExt => (
                        self.zv(&c.value.value, from, line)?,
                        Norm {
                            zext_bits: Some(n),
                            sext_bits: Some(n + 1),
                        },
                    ),
                    CastOp::SExt => (
                        self.sv(&c.value.value, from, line)?,
                        Norm {
                            zext_bits: None,
                            sext_bits: Some(n),
                        },
                    ),
                    _ => (self.value(&c.value.value, from, line)?, Norm::default()),
                };
                let _ = to;
                self.set(inst, kw, e, out)?;
                self.note_norm(inst, norm);
            }
            CastOp::BitCast | CastOp::AddrSpaceCast => {
                value_type(from, &what, line)?;
                value_type(&c.to, &what, line)?;
                match (from, &c.to) {
                    (Type::Ptr { .. }, Type::Ptr { .. }) => {
                        if let Some(r) = &inst.result {
                            if self.virt.contains(r) {
                                let lin = self.def_lin(r, line, 0)?;
                                self.address_value(inst, lin, out)?;
                            }
                        }
                    }
                    (Type::Int(_) | Type::Float(_), Type::Int(_) | Type::Float(_))
                        if value_type(from, &what, line)? == value_type(&c.to, &what, line)? =>
                    {
                        let e = self.value(&c.value.value, from, line)?;
                        self.set(inst, kw, e, out)?;
                    }
                    _ => {
                        return unsup(
                            format!("the instruction '{kw}' from {from} to {}", c.to),
                            line,
                        )
                    }
                }
            }
            CastOp::PtrToInt => {
                value_type(&c.to, &what, line)?;
                let e = self.value(&c.value.value, from, line)?;
                self.set(inst, kw, e, out)?;
            }
            CastOp::IntToPtr => {
                // Pointer arithmetic: its address (with the provenance of
                // the integer, `super::memory`) is folded into its uses.
                value_type(from, &what, line)?;
                if let Some(r) = &inst.result {
                    if self.virt.contains(r) {
                        self.def_lin(r, line, 0)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn terminator(&mut self, inst: &Instruction) -> R<Term> {
        let line = inst.line();
        let block = |s: &Self, n: &Name| -> R<BlockId> {
            match s.blocks.get(n) {
                Some(&b) => Ok(b),
                None => unsup(format!("a branch to %{n}, which is not a block"), line),
            }
        };
        let term = match &inst.kind {
            K::Br(d) => Term::Br(block(self, d)?),
            K::CondBr {
                cond,
                if_true,
                if_false,
            } => Term::CondBr {
                cond: self.cond(cond, line)?,
                then: block(self, if_true)?,
                els: block(self, if_false)?,
            },
            K::Switch(s) => {
                let w = value_type(&s.value.ty, "a switch", line)?;
                let value = self.sv(&s.value.value, &s.value.ty, line)?;
                let mut cases = Vec::new();
                for c in &s.cases {
                    let v = crate::value::sext(c.value, w) as i64;
                    cases.push((v, block(self, &c.dest)?));
                }
                Term::Switch {
                    value,
                    cases,
                    default: block(self, &s.default)?,
                }
            }
            K::Ret(None) => Term::Ret(None),
            K::Ret(Some(tv)) => {
                value_type(&tv.ty, "the return value", line)?;
                Term::Ret(Some(self.value(&tv.value, &tv.ty, line)?))
            }
            K::Unreachable => Term::Unreachable,
            K::Generic(g) => return unsup(generic_construct(&g.opcode), line),
            _ => return unsup("a block that does not end in a terminator", line),
        };
        self.stmt_op(inst.opcode(), inst);
        Ok(term)
    }
}

/// The width of an integer or pointer type (64 for anything else).
pub(crate) fn width_of(ty: &Type) -> u32 {
    match ty {
        Type::Int(n) => (*n).min(64),
        Type::Float(_) => super::floats::fty(ty).map_or(64, |t| t.bits()),
        _ => 64,
    }
}

/// `s` cut to 40 characters, for messages.
pub(crate) fn short(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}
