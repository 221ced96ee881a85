//! Expressions, in the order and with the *wanted* values of the IR's
//! interpreter (see [`super::body`]): operators (`i1` results widened with
//! `zext`, divisions guarded so that dividing by zero gives 0 as in the
//! model), lazy operators and selects (with branches when the skipped side
//! has an effect), calls of every kind, memory accesses and assignments.
#![deny(unsafe_code)]

use std::fmt::Write as _;

use convcheck_ir::{BarrierKind, BinOp, CallKind, Expr, Space, Term, UnOp};

use super::body::{effect_free, Emitter};
use super::{global, local, Role};
use crate::to_ir::builtins_classify_plain_barrier;

impl Emitter<'_, '_> {
    /// Emits `e` and returns its `i64` operand (`0` for a value not wanted).
    pub(super) fn emit(&mut self, e: &Expr, want: bool, token: Option<&str>) -> String {
        match e {
            Expr::Const(v) => v.to_string(),
            Expr::Tid | Expr::GroupSize => {
                let name = if matches!(e, Expr::Tid) {
                    "convcheck.tid"
                } else {
                    "convcheck.group_size"
                };
                let callee = self
                    .w
                    .builtin_decl(name, "i64", "nounwind willreturn memory(none)");
                let t = self.tmp();
                self.line(format!("{t} = call i64 {}()", global(&callee)));
                t
            }
            Expr::Var(n) => {
                if let Some(p) = self.param.get(n) {
                    return p.clone();
                }
                match self.slot.get(n).cloned() {
                    Some(slot) => {
                        let t = self.tmp();
                        self.line(format!("{t} = load i64, ptr {slot}, align 8"));
                        t
                    }
                    None => "0".to_string(),
                }
            }
            Expr::Oracle(o) => self.oracle_read(*o),
            Expr::Unary(op, a) => {
                let x = self.emit(a, true, token);
                self.unary(*op, &x)
            }
            Expr::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let x = self.emit(a, true, token);
                if effect_free(b) {
                    let y = self.emit(b, true, token);
                    let (cx, cy, r, z) = (self.tmp(), self.tmp(), self.tmp(), self.tmp());
                    self.line(format!("{cx} = icmp ne i64 {x}, 0"));
                    self.line(format!("{cy} = icmp ne i64 {y}, 0"));
                    let i = if *op == BinOp::And { "and" } else { "or" };
                    self.line(format!("{r} = {i} i1 {cx}, {cy}"));
                    self.line(format!("{z} = zext i1 {r} to i64"));
                    return z;
                }
                self.lazy_logic(*op == BinOp::And, &x, b, token)
            }
            Expr::Binary(op, a, b) => {
                let x = self.emit(a, true, token);
                let y = self.emit(b, true, token);
                self.binary(*op, &x, &y)
            }
            Expr::Select(c, a, b) => {
                let cv = self.emit(c, true, token);
                let cc = self.tmp();
                self.line(format!("{cc} = icmp ne i64 {cv}, 0"));
                if effect_free(a) && effect_free(b) {
                    let av = self.emit(a, true, token);
                    let bv = self.emit(b, true, token);
                    let r = self.tmp();
                    self.line(format!("{r} = select i1 {cc}, i64 {av}, i64 {bv}"));
                    return r;
                }
                self.lazy_select(&cc, a, b, want, token)
            }
            Expr::Call {
                op,
                kind,
                callee,
                args,
            } => self.call(*op, *kind, callee, args, want, token),
            Expr::Load {
                op,
                space,
                index,
                value,
                access,
            } if access.bytes > 0 => {
                self.load_bytes(*op, *space, index, *value, *access, want, token)
            }
            Expr::Store {
                op,
                space,
                index,
                value,
                access,
            } if access.bytes > 0 => self.store_bytes(*op, *space, index, value, *access, token),
            Expr::Load {
                op,
                space,
                index,
                value,
                ..
            } => {
                let i = self.emit(index, true, token);
                let a = self.address(*space, &i);
                let t = self.tmp();
                let mut md = self.md_label(*op, "load", *space);
                let wanted = want && value.is_some();
                if let Some(o) = value.filter(|_| wanted) {
                    let name = self.w.m.oracles[o].name.clone();
                    if name != format!("@convcheck.{}", space.name()) {
                        let r = self.w.md(&name);
                        let _ = write!(md, ", !convcheck.oracle {r}");
                    }
                }
                let ptr = ptr_ty(*space);
                self.line(format!("{t} = load i64, {ptr} {a}, align 8{md}"));
                if wanted {
                    t
                } else {
                    "0".to_string()
                }
            }
            Expr::Store {
                op,
                space,
                index,
                value,
                ..
            } => {
                let v = self.emit(value, true, token);
                let i = self.emit(index, true, token);
                let a = self.address(*space, &i);
                let md = self.md_label(*op, "store", *space);
                let ptr = ptr_ty(*space);
                self.line(format!("store i64 {v}, {ptr} {a}, align 8{md}"));
                v
            }
            Expr::Assign { var, op, value } => {
                let v = self.emit(value, true, token);
                let Some(slot) = self.slot.get(var).cloned() else {
                    return v;
                };
                let new = match op {
                    convcheck_ir::AssignOp::Set => v,
                    other => {
                        let old = self.tmp();
                        self.line(format!("{old} = load i64, ptr {slot}, align 8"));
                        let b = match other {
                            convcheck_ir::AssignOp::Add => BinOp::Add,
                            convcheck_ir::AssignOp::Sub => BinOp::Sub,
                            _ => BinOp::Mul,
                        };
                        self.binary(b, &old, &v)
                    }
                };
                self.line(format!("store i64 {new}, ptr {slot}, align 8"));
                new
            }
        }
    }

    /// A byte-addressed load: `inttoptr` of the address (the reader takes
    /// an address without provenance as the integer it is), a load of the
    /// access's width, zero-extended.
    #[allow(clippy::too_many_arguments)]
    fn load_bytes(
        &mut self,
        op: convcheck_ir::OpId,
        space: Space,
        index: &Expr,
        value: Option<usize>,
        access: convcheck_ir::Access,
        want: bool,
        token: Option<&str>,
    ) -> String {
        let i = self.emit(index, true, token);
        let ptr = ptr_ty(space);
        let a = self.tmp();
        self.line(format!("{a} = inttoptr i64 {i} to {ptr}"));
        let mut md = self.md_label(op, "load", space);
        if let Some(o) = value {
            let name = self.w.m.oracles[o].name.clone();
            let r = self.w.md(&name);
            let _ = write!(md, ", !convcheck.oracle {r}");
        }
        let bits = 8 * access.bytes;
        let volatile = if access.volatile { "volatile " } else { "" };
        // An atomic load (`load atomic`) is written as one.
        let (atomic, ordering) = if access.atomic != 0 {
            ("atomic ", " monotonic")
        } else {
            ("", "")
        };
        let t = self.tmp();
        self.line(format!(
            "{t} = load {atomic}{volatile}i{bits}, {ptr} {a}{ordering}, align 1{md}"
        ));
        if !want {
            return "0".to_string();
        }
        if bits == 64 {
            return t;
        }
        let z = self.tmp();
        self.line(format!("{z} = zext i{bits} {t} to i64"));
        z
    }

    /// A byte-addressed store: the value truncated to the access's width,
    /// through `inttoptr` of the address.
    fn store_bytes(
        &mut self,
        op: convcheck_ir::OpId,
        space: Space,
        index: &Expr,
        value: &Expr,
        access: convcheck_ir::Access,
        token: Option<&str>,
    ) -> String {
        let v = self.emit(value, true, token);
        let i = self.emit(index, true, token);
        let ptr = ptr_ty(space);
        let a = self.tmp();
        self.line(format!("{a} = inttoptr i64 {i} to {ptr}"));
        let md = self.md_label(op, "store", space);
        let bits = 8 * access.bytes;
        let stored = if bits == 64 {
            v.clone()
        } else {
            let t = self.tmp();
            self.line(format!("{t} = trunc i64 {v} to i{bits}"));
            t
        };
        let volatile = if access.volatile { "volatile " } else { "" };
        // An atomic is written as an atomic store, which the reader leaves
        // outside the model (its operation lives in the label alone).
        let (atomic, ordering) = if access.atomic != 0 {
            ("atomic ", " monotonic")
        } else {
            ("", "")
        };
        self.line(format!(
            "store {atomic}{volatile}i{bits} {stored}, {ptr} {a}{ordering}, align 1{md}"
        ));
        v
    }

    fn oracle_read(&mut self, o: usize) -> String {
        let callee = self.w.oracle_decl(o);
        let t = self.tmp();
        self.line(format!("{t} = call i64 {}()", global(&callee)));
        t
    }

    fn md_label(&mut self, op: convcheck_ir::OpId, what: &str, space: Space) -> String {
        let label = self.w.m.label(op).to_string();
        if label == format!("{what} @convcheck.{}", space.name()) {
            return String::new();
        }
        let r = self.w.md(&label);
        format!(", !convcheck.label {r}")
    }

    fn address(&mut self, space: Space, index: &str) -> String {
        let k = match space {
            Space::Shared => 0,
            Space::Global => 1,
            Space::Local => 2,
        };
        self.w.uses_space[k] = true;
        let a = self.tmp();
        let ptr = ptr_ty(space);
        self.line(format!(
            "{a} = getelementptr i64, {ptr} @convcheck.{}, i64 {index}",
            space.name()
        ));
        a
    }

    fn unary(&mut self, op: UnOp, x: &str) -> String {
        let r = self.tmp();
        match op {
            UnOp::Not => {
                let c = self.tmp();
                self.line(format!("{c} = icmp eq i64 {x}, 0"));
                self.line(format!("{r} = zext i1 {c} to i64"));
            }
            UnOp::Neg => self.line(format!("{r} = sub i64 0, {x}")),
            UnOp::BitNot => self.line(format!("{r} = xor i64 {x}, -1")),
            UnOp::SExt(n) | UnOp::ZExt(n) => {
                let n = n.clamp(1, 63);
                let t = self.tmp();
                self.line(format!("{t} = trunc i64 {x} to i{n}"));
                let ext = if matches!(op, UnOp::SExt(_)) {
                    "sext"
                } else {
                    "zext"
                };
                self.line(format!("{r} = {ext} i{n} {t} to i64"));
            }
            UnOp::F(f) => return self.float_unary(f, x),
        }
        r
    }

    fn binary(&mut self, op: BinOp, x: &str, y: &str) -> String {
        if let BinOp::F(f) = op {
            return self.float_binary(f, x, y);
        }
        let cmp = |p: &str| Some(p.to_string());
        let pred = match op {
            BinOp::Eq => cmp("eq"),
            BinOp::Ne => cmp("ne"),
            BinOp::Lt => cmp("slt"),
            BinOp::Le => cmp("sle"),
            BinOp::Gt => cmp("sgt"),
            BinOp::Ge => cmp("sge"),
            BinOp::ULt => cmp("ult"),
            BinOp::ULe => cmp("ule"),
            BinOp::UGt => cmp("ugt"),
            BinOp::UGe => cmp("uge"),
            _ => None,
        };
        if let Some(p) = pred {
            let (c, r) = (self.tmp(), self.tmp());
            self.line(format!("{c} = icmp {p} i64 {x}, {y}"));
            self.line(format!("{r} = zext i1 {c} to i64"));
            return r;
        }
        let simple = match op {
            BinOp::Add => Some("add"),
            BinOp::Sub => Some("sub"),
            BinOp::Mul => Some("mul"),
            BinOp::BitAnd => Some("and"),
            BinOp::BitOr => Some("or"),
            BinOp::BitXor => Some("xor"),
            _ => None,
        };
        if let Some(i) = simple {
            let r = self.tmp();
            self.line(format!("{r} = {i} i64 {x}, {y}"));
            return r;
        }
        match op {
            BinOp::Shl | BinOp::Shr | BinOp::LShr => {
                let (m, r) = (self.tmp(), self.tmp());
                let i = match op {
                    BinOp::Shl => "shl",
                    BinOp::Shr => "ashr",
                    _ => "lshr",
                };
                self.line(format!("{m} = and i64 {y}, 63"));
                self.line(format!("{r} = {i} i64 {x}, {m}"));
                r
            }
            BinOp::Div | BinOp::Rem | BinOp::UDiv | BinOp::URem => {
                // The model divides by zero (and MIN by -1) to 0; LLVM
                // leaves both undefined, so they are guarded.
                let signed = matches!(op, BinOp::Div | BinOp::Rem);
                let bad = self.tmp();
                self.line(format!("{bad} = icmp eq i64 {y}, 0"));
                let bad = if signed {
                    let (m, n, o, any) = (self.tmp(), self.tmp(), self.tmp(), self.tmp());
                    self.line(format!("{m} = icmp eq i64 {x}, {}", i64::MIN));
                    self.line(format!("{n} = icmp eq i64 {y}, -1"));
                    self.line(format!("{o} = and i1 {m}, {n}"));
                    self.line(format!("{any} = or i1 {bad}, {o}"));
                    any
                } else {
                    bad
                };
                let (d, q, r) = (self.tmp(), self.tmp(), self.tmp());
                let i = match op {
                    BinOp::Div => "sdiv",
                    BinOp::Rem => "srem",
                    BinOp::UDiv => "udiv",
                    _ => "urem",
                };
                self.line(format!("{d} = select i1 {bad}, i64 1, i64 {y}"));
                self.line(format!("{q} = {i} i64 {x}, {d}"));
                self.line(format!("{r} = select i1 {bad}, i64 0, i64 {q}"));
                r
            }
            _ => "0".to_string(),
        }
    }

    fn new_block(&mut self, what: &str) -> String {
        self.lazy += 1;
        let base = format!("{}.lazy{}", self.cur, self.lazy);
        let _ = what;
        self.unique(&base)
    }

    /// `x && b` / `x || b` with branches, when `b` has effects.
    fn lazy_logic(&mut self, and: bool, x: &str, b: &Expr, token: Option<&str>) -> String {
        let c = self.tmp();
        self.line(format!("{c} = icmp ne i64 {x}, 0"));
        let from = self.cur.clone();
        let rhs = self.new_block("rhs");
        let join = self.new_block("join");
        let (t, f) = if and { (&rhs, &join) } else { (&join, &rhs) };
        self.line(format!("br i1 {c}, label {}, label {}", local(t), local(f)));
        self.start_block(&rhs);
        let y = self.emit(b, true, token);
        let (cy, zy) = (self.tmp(), self.tmp());
        self.line(format!("{cy} = icmp ne i64 {y}, 0"));
        self.line(format!("{zy} = zext i1 {cy} to i64"));
        let rhs_exit = self.cur.clone();
        self.line(format!("br label {}", local(&join)));
        self.start_block(&join);
        let r = self.tmp();
        let short = if and { 0 } else { 1 };
        self.line(format!(
            "{r} = phi i64 [ {short}, {} ], [ {zy}, {} ]",
            local(&from),
            local(&rhs_exit)
        ));
        r
    }

    /// `c ? a : b` with branches, when an arm has effects.
    fn lazy_select(
        &mut self,
        cc: &str,
        a: &Expr,
        b: &Expr,
        want: bool,
        token: Option<&str>,
    ) -> String {
        let then = self.new_block("then");
        let els = self.new_block("else");
        let join = self.new_block("join");
        self.line(format!(
            "br i1 {cc}, label {}, label {}",
            local(&then),
            local(&els)
        ));
        self.start_block(&then);
        let av = self.emit(a, want, token);
        let a_exit = self.cur.clone();
        self.line(format!("br label {}", local(&join)));
        self.start_block(&els);
        let bv = self.emit(b, want, token);
        let b_exit = self.cur.clone();
        self.line(format!("br label {}", local(&join)));
        self.start_block(&join);
        let r = self.tmp();
        self.line(format!(
            "{r} = phi i64 [ {av}, {} ], [ {bv}, {} ]",
            local(&a_exit),
            local(&b_exit)
        ));
        r
    }

    fn call(
        &mut self,
        op: convcheck_ir::OpId,
        kind: CallKind,
        callee: &str,
        args: &[Expr],
        want: bool,
        token: Option<&str>,
    ) -> String {
        let m = self.w.m;
        let label = m.label(op).to_string();
        match kind {
            CallKind::Oracle(o) => self.oracle_read(o),
            CallKind::Real(fid) => {
                let Some(g) = m.functions.get(fid) else {
                    return "0".to_string();
                };
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.emit(a, true, token));
                }
                vals.resize(g.params.len().max(vals.len()), "0".to_string());
                vals.truncate(g.params.len());
                let returns = g
                    .blocks
                    .iter()
                    .any(|b| matches!(b.term, Term::Ret(Some(_))));
                let attrs = self.site_attrs(&label, &g.name, None);
                let bundle = self.bundle(token);
                let list: Vec<String> = vals.iter().map(|v| format!("i64 {v}")).collect();
                let callee = global(&g.name);
                if returns {
                    let t = self.tmp();
                    self.line(format!(
                        "{t} = call i64 {callee}({}){attrs}{bundle}",
                        list.join(", ")
                    ));
                    t
                } else {
                    self.line(format!(
                        "call void {callee}({}){attrs}{bundle}",
                        list.join(", ")
                    ));
                    "0".to_string()
                }
            }
            CallKind::Op(o) | CallKind::Plain(o) => {
                let convergent = matches!(kind, CallKind::Op(_));
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.emit(a, false, token));
                }
                let (role, attrs) = if convergent {
                    (Role::Convergent, "convergent nounwind")
                } else {
                    (Role::Plain, "nounwind")
                };
                let g = self.w.group(attrs);
                let want_name = if callee.is_empty() { "f" } else { callee };
                let name = self
                    .w
                    .declare(want_name, role, |n| format!("declare i64 {n}(...) #{g}"));
                let oracle = m.oracles.get(o).map(|x| x.name.clone());
                let mut attrs = self.site_attrs(&label, &name, oracle.as_deref());
                if convergent && m.op(op).is_some_and(|x| x.memory_none) {
                    attrs.insert_str(0, " memory(none)");
                }
                let bundle = if convergent {
                    self.bundle(token)
                } else {
                    String::new()
                };
                let list: Vec<String> = vals.iter().map(|v| format!("i64 {v}")).collect();
                if !want {
                    // The reader reads the oracle of every non-void call to
                    // an external function; a call whose value the IR does
                    // not take is a `void` call (of the same `i64`
                    // declaration), which reads nothing.
                    self.line(format!(
                        "call void (...) {}({}){attrs}{bundle}",
                        global(&name),
                        list.join(", ")
                    ));
                    return "0".to_string();
                }
                let t = self.tmp();
                self.line(format!(
                    "{t} = call i64 (...) {}({}){attrs}{bundle}",
                    global(&name),
                    list.join(", ")
                ));
                t
            }
            CallKind::Barrier(BarrierKind::Plain, _) => {
                for a in args {
                    self.emit(a, false, token);
                }
                let keep = builtins_classify_plain_barrier(callee)
                    && !callee.starts_with("llvm.")
                    && !self.w.defined.contains(callee);
                let name = if keep {
                    self.w.builtin_decl(callee, "void", "convergent nounwind")
                } else {
                    self.w
                        .builtin_decl("llvm.nvvm.barrier0", "void", "convergent nounwind")
                };
                let attrs = self.site_attrs(&label, &name, None);
                let bundle = self.bundle(token);
                self.line(format!("call void {}(){attrs}{bundle}", global(&name)));
                "0".to_string()
            }
            CallKind::Barrier(b, result) => {
                let mut pred = "0".to_string();
                for a in args {
                    pred = self.emit(a, true, token);
                }
                let want_name = match b {
                    BarrierKind::Count => "__syncthreads_count",
                    BarrierKind::And => "__syncthreads_and",
                    _ => "__syncthreads_or",
                };
                let name = self
                    .w
                    .builtin_decl(want_name, "i64|i64", "convergent nounwind");
                let oracle = result
                    .and_then(|o| m.oracles.get(o))
                    .map(|x| x.name.clone());
                let attrs = self.site_attrs(&label, &name, oracle.as_deref());
                let bundle = self.bundle(token);
                if !(want && result.is_some()) {
                    // No value taken: a `void` call, from which the reader
                    // takes no result (as for external calls).
                    self.line(format!(
                        "call void {}(i64 {pred}){attrs}{bundle}",
                        global(&name)
                    ));
                    return "0".to_string();
                }
                let t = self.tmp();
                self.line(format!(
                    "{t} = call i64 {}(i64 {pred}){attrs}{bundle}",
                    global(&name)
                ));
                t
            }
            CallKind::Fence => {
                let name = self.w.builtin_decl("__threadfence", "void", "nounwind");
                let attrs = self.site_attrs(&label, &name, None);
                self.line(format!("call void {}(){attrs}", global(&name)));
                "0".to_string()
            }
        }
    }
}

fn ptr_ty(space: Space) -> &'static str {
    match space {
        Space::Shared => "ptr addrspace(3)",
        Space::Global => "ptr addrspace(1)",
        Space::Local => "ptr addrspace(5)",
    }
}
