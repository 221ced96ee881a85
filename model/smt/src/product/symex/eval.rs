//! Expressions of one thread, evaluated symbolically ([`super::Exec`]):
//! lazily where C is (`&&`, `||`, `?:` evaluate their second arm under
//! their condition and merge), oracle reads through the thread's counters,
//! calls as events or inlined invocations.

use super::super::bv::{binary, c64, nonzero, truth, unary};
use super::memory;
use super::{merge2, unreachable_state, At, Exec, State, Tag};
use crate::Unknown;
use convcheck_ir::{BarrierKind, BinOp, CallKind, Expr, OracleClass, OracleId, Space};
use z3::ast::{Bool, BV};

impl Exec<'_, '_> {
    /// Evaluates `e` lazily where C does; `want` says whether the value is
    /// used (a load or call whose value is unused reads no oracle).
    pub(super) fn eval(
        &mut self,
        st: &mut State,
        at: At,
        rp: &mut u32,
        e: &Expr,
        want: bool,
    ) -> Result<BV, Unknown> {
        Ok(match e {
            Expr::Const(v) => c64(*v),
            Expr::Tid => self.g.tid[self.thread].clone(),
            Expr::GroupSize => self.g.n.clone(),
            Expr::Var(n) => st.locals.get(n).cloned().unwrap_or_else(|| c64(0)),
            Expr::Oracle(o) => self.read(st, at, rp, *o)?,
            Expr::Unary(op, a) => {
                let x = self.eval(st, at, rp, a, true)?;
                unary(*op, &x)
            }
            Expr::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let x = nonzero(&self.eval(st, at, rp, a, true)?);
                // `b` runs only when `a` does not decide.
                let runs = if *op == BinOp::And {
                    x.clone()
                } else {
                    x.not()
                };
                let mut arm = st.clone();
                arm.guard = Bool::and(&[st.guard.clone(), runs.clone()]);
                let y = nonzero(&self.eval(&mut arm, at, rp, b, true)?);
                let before = std::mem::replace(st, unreachable_state(self.g.w, 0));
                *st = merge2(&runs, arm, before);
                truth(&runs.ite(
                    &y,
                    &(if *op == BinOp::And {
                        Bool::from_bool(false)
                    } else {
                        Bool::from_bool(true)
                    }),
                ))
            }
            Expr::Binary(BinOp::ULe, a, b) if self.is_end(b) => {
                // An access through a pointer of unknown origin checked
                // against the end of memory: recorded, and taken to hold
                // (an end of `u64::MAX`, under which every check does), so
                // that no path splits on it; the query states where it
                // fails (`Run::reach`).
                let x = self.eval(st, at, rp, a, true)?;
                let end = self.eval(st, at, rp, b, true)?;
                self.reach.push((st.guard.clone(), x, end));
                c64(1)
            }
            Expr::Binary(op @ (BinOp::UDiv | BinOp::URem), a, b)
                if super::super::bv::below_2_32(a) && super::super::bv::below_2_32(b) =>
            {
                let x = self.eval(st, at, rp, a, true)?;
                let y = self.eval(st, at, rp, b, true)?;
                super::super::bv::narrow_division(*op, &x, &y)
            }
            Expr::Binary(op, a, b) => {
                let x = self.eval(st, at, rp, a, true)?;
                let y = self.eval(st, at, rp, b, true)?;
                binary(*op, &x, &y)
            }
            Expr::Select(c, a, b) => {
                let x = nonzero(&self.eval(st, at, rp, c, true)?);
                let mut sa = st.clone();
                sa.guard = Bool::and(&[st.guard.clone(), x.clone()]);
                let va = self.eval(&mut sa, at, rp, a, want)?;
                let mut sb = st.clone();
                sb.guard = Bool::and(&[st.guard.clone(), x.not()]);
                let vb = self.eval(&mut sb, at, rp, b, want)?;
                *st = merge2(&x, sa, sb);
                x.ite(&va, &vb)
            }
            Expr::Load {
                op,
                space,
                index,
                value,
                access,
            } => {
                let addr = self.eval(st, at, rp, index, true)?;
                if access.bytes > 0 && *space == Space::Local {
                    // Private memory is thread state: no event, unless
                    // volatile (`exec::memory`: its offset in its object).
                    if access.volatile {
                        let offset = addr.bvand(c64(0xffff_ffff));
                        let tag = Tag::Mem(*space, false, *access);
                        self.event(st, at, *op, tag, vec![offset], None, false);
                    }
                    return Ok(if want {
                        self.load_bytes(st, *space, &addr, *access)
                    } else {
                        c64(0)
                    });
                }
                self.event(
                    st,
                    at,
                    *op,
                    Tag::Mem(*space, false, *access),
                    vec![addr.clone()],
                    None,
                    false,
                );
                match (want, value) {
                    (true, _) if access.bytes > 0 => self.load_bytes(st, *space, &addr, *access),
                    (true, Some(o)) => {
                        self.operands = Some(vec![addr]);
                        self.read(st, at, rp, *o)?
                    }
                    _ => c64(0),
                }
            }
            Expr::Store {
                op,
                space,
                index,
                value,
                access,
            } => {
                // A stored value that may be poison: its computed bits go
                // to memory, its definedness to the event.
                let (defined, value) = value.observed();
                let v = self.eval(st, at, rp, value, true)?;
                let defined = match defined {
                    Some(d) => Some(nonzero(&self.eval(st, at, rp, d, true)?)),
                    None => None,
                };
                let addr = self.eval(st, at, rp, index, true)?;
                if access.is_clobber() {
                    // No event: what an external call wrote (`memory`).
                    if matches!(*value, Expr::Const(c) if c != 0) {
                        st.calls = st.calls.bvadd(BV::from_u64(1, self.g.w));
                    }
                    self.clobber(st, *space, &addr, *access);
                    return Ok(v);
                }
                // An atomic leaves no value to read back (`exec::memory`),
                // unless it says it does (`Access::keeps_value`).
                if access.bytes > 0 && access.keeps_value() {
                    self.store_bytes(st, *space, &addr, *access, &v);
                    if *space == Space::Local {
                        if access.volatile {
                            let offset = addr.bvand(c64(0xffff_ffff));
                            let vals = vec![offset, memory::truncate(&v, access.bytes)];
                            let tag = Tag::Mem(*space, true, *access);
                            self.event(st, at, *op, tag, vals, None, false);
                        }
                        return Ok(v);
                    }
                }
                let mut vals = vec![addr];
                if access.bytes > 0 {
                    let bits = memory::truncate(&v, access.bytes);
                    match defined {
                        Some(d) => {
                            vals.push(d.ite(&bits, &c64(0)));
                            self.observed = vec![(1, d)];
                        }
                        None => vals.push(bits),
                    }
                }
                self.event(
                    st,
                    at,
                    *op,
                    Tag::Mem(*space, true, *access),
                    vals,
                    None,
                    false,
                );
                v
            }
            Expr::Assign { var, op, value } => {
                let v = self.eval(st, at, rp, value, true)?;
                let old = st.locals.get(var).cloned().unwrap_or_else(|| c64(0));
                let new = match op {
                    convcheck_ir::AssignOp::Set => v,
                    convcheck_ir::AssignOp::Add => old.bvadd(&v),
                    convcheck_ir::AssignOp::Sub => old.bvsub(&v),
                    convcheck_ir::AssignOp::Mul => old.bvmul(&v),
                };
                st.locals.insert(var.clone(), new.clone());
                new
            }
            Expr::Call { op, kind, args, .. } => match *kind {
                CallKind::Oracle(o) => self.read(st, at, rp, o)?,
                CallKind::Real(f) => {
                    let mut vals = Vec::new();
                    for a in args {
                        vals.push(self.eval(st, at, rp, a, true)?);
                    }
                    // The call is no event (its effects are): the site only
                    // keys the callee's instances.
                    let call_site = self.prog.site(at, *op);
                    let entry = std::mem::replace(st, unreachable_state(self.g.w, 0));
                    let (after, v) = self.invoke(f, vals, entry, Some(call_site))?;
                    *st = after;
                    v
                }
                CallKind::Op(o) => {
                    // Observed arguments (`convcheck_ir::exec::observe`).
                    let mut vals = Vec::with_capacity(args.len());
                    let mut observed = Vec::new();
                    for (i, a) in args.iter().enumerate() {
                        let (defined, a) = a.observed();
                        let v = self.eval(st, at, rp, a, true)?;
                        match defined {
                            Some(d) => {
                                let d = nonzero(&self.eval(st, at, rp, d, true)?);
                                vals.push(d.ite(&v, &c64(0)));
                                observed.push((i, d));
                            }
                            None => vals.push(v),
                        }
                    }
                    let label = self.prog.module().label(*op).to_string();
                    let tag = if vals.is_empty() {
                        Tag::Label(label)
                    } else {
                        Tag::Args(label, vals.len())
                    };
                    self.observed = observed;
                    self.event(st, at, *op, tag, vals.clone(), None, true);
                    if want {
                        self.operands = Some(vals);
                        self.read(st, at, rp, o)?
                    } else {
                        c64(0)
                    }
                }
                CallKind::Plain(o) if self.is_function(o) => {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args {
                        vals.push(self.eval(st, at, rp, a, true)?);
                    }
                    self.function_value(st, o, vals)?
                }
                CallKind::Plain(o) => {
                    let mut vals = Vec::new();
                    for a in args {
                        vals.push(self.eval(st, at, rp, a, false)?);
                    }
                    if want {
                        self.operands = Some(vals);
                        self.read(st, at, rp, o)?
                    } else {
                        c64(0)
                    }
                }
                CallKind::Barrier(b, result) => {
                    let mut predicate = None;
                    for a in args {
                        let v = self.eval(st, at, rp, a, b != BarrierKind::Plain)?;
                        if b != BarrierKind::Plain {
                            predicate = Some(nonzero(&v));
                        }
                    }
                    let label = self.prog.module().label(*op).to_string();
                    let tag = if predicate.is_some() {
                        Tag::DataBarrier(label)
                    } else {
                        Tag::Label(label)
                    };
                    self.event(st, at, *op, tag, Vec::new(), predicate, true);
                    // A barrier starts a new phase (`memory`).
                    st.phase = st.phase.bvadd(BV::from_u64(1, self.g.w));
                    match (want, result) {
                        (true, Some(o)) if b != BarrierKind::Plain => self.read(st, at, rp, o)?,
                        _ => c64(0),
                    }
                }
                // A fence orders memory; it is neither observable nor
                // convergent, but it ends a segment of plain stores
                // (`super::event`).
                CallKind::Fence => {
                    st.seg = st.seg.bvadd(BV::from_u64(1, self.g.w));
                    c64(0)
                }
            },
        })
    }

    /// Whether oracle `o` is a function of its reading call's arguments.
    /// Whether `e` reads the end of memory of pointers of unknown origin
    /// (`convcheck_ir::exec::UNKNOWN_END`).
    fn is_end(&self, e: &Expr) -> bool {
        matches!(e, Expr::Oracle(o) if self
            .prog
            .module()
            .oracles
            .get(*o)
            .is_some_and(|i| i.name == convcheck_ir::exec::UNKNOWN_END))
    }

    fn is_function(&self, o: OracleId) -> bool {
        self.prog
            .module()
            .oracles
            .get(o)
            .is_some_and(|i| i.class == OracleClass::Function)
    }

    /// The value of function oracle `o` for `args`: an uninterpreted
    /// function of the arguments per oracle name and thread, shared by the
    /// reference and the target (`fn.NAME.t0`), recorded for the replay.
    fn function_value(&mut self, st: &State, o: OracleId, args: Vec<BV>) -> Result<BV, Unknown> {
        let name = self.prog.module().oracles[o].name.clone();
        let bv64 = z3::Sort::bitvector(64);
        let domain: Vec<&z3::Sort> = args.iter().map(|_| &bv64).collect();
        let f = z3::FuncDecl::new(format!("fn.{name}.t{}", self.thread), &domain, &bv64);
        let refs: Vec<&dyn z3::ast::Ast> = args.iter().map(|a| a as &dyn z3::ast::Ast).collect();
        let v = f
            .apply(&refs)
            .as_bv()
            .ok_or_else(|| Unknown::incomplete("internal: function oracle sort"))?;
        self.fn_reads
            .push((st.guard.clone(), name, args, v.clone()));
        Ok(v)
    }

    /// Reads oracle `o`: the thread's next value of its stream (its one
    /// value for an invariant oracle), recorded as a uniform read or with
    /// its operands where asked.
    pub(super) fn read(
        &mut self,
        st: &mut State,
        at: At,
        rp: &mut u32,
        o: OracleId,
    ) -> Result<BV, Unknown> {
        let operands = self.operands.take();
        let module = self.prog.module();
        let Some(info) = module.oracles.get(o) else {
            return Err(Unknown::incomplete(format!("internal: no oracle {o}")));
        };
        let name = self.prog.name_of[o];
        let position = *rp;
        *rp += 1;
        let f = &self.g.streams[name][self.thread];
        let zero = BV::from_u64(0, self.g.w);
        if let Some(vals) = self.values.as_mut() {
            let after = if info.class.is_invariant() {
                BV::from_u64(1, self.g.w)
            } else {
                st.counts[name].bvadd(BV::from_u64(1, self.g.w))
            };
            vals.counts.push((name, st.guard.clone(), after));
        }
        // A uniform-invariant oracle reads the same stream in both
        // threads (`product::streams`): one value for the whole run.
        if info.class.is_invariant() {
            self.invariant.push((name, st.guard.clone()));
            return f
                .apply(&[&zero])
                .as_bv()
                .ok_or_else(|| Unknown::incomplete("internal: stream sort"));
        }
        let k = st.counts[name].clone();
        st.counts[name] = k.bvadd(BV::from_u64(1, self.g.w));
        let v = f
            .apply(&[&k])
            .as_bv()
            .ok_or_else(|| Unknown::incomplete("internal: stream sort"))?;
        if info.class == OracleClass::Uniform && self.reference {
            let site = self.prog.read_site(at, position);
            self.uniform.push((site, name, st.guard.clone(), v.clone()));
        }
        if let (Some(ops), true) = (operands, self.records(&at)) {
            let site = self.prog.read_site(at, position);
            if let Some(vals) = self.values.as_mut() {
                vals.reads.push((site, o, st.guard.clone(), v.clone(), ops));
            }
        }
        Ok(v)
    }
}
