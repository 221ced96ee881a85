//! The statement generators of the choice table other than blocks:
//! simple operations, `if`, loops, `switch`, jumps, goto cycles, calls
//! (and the helper functions they create) and `[[clang::noconvergent]]`.
//! Each returns what it made with its path bound, within the budget it is
//! given (see the `kernel` module).

use super::build::*;
use super::*;

impl Gen<'_, '_, '_> {
    // ----- operations -----

    pub(super) fn op_kinds(&self, budget: f64) -> Vec<OpKind> {
        let c = self.cfg;
        let obs = self.obs_left();
        let mut v = Vec::new();
        if c.barriers && obs {
            v.push(OpKind::Barrier);
        }
        if c.data_barriers && obs {
            v.push(OpKind::DataBarrier);
        }
        if c.memory {
            v.push(OpKind::Store);
            v.push(OpKind::Fence);
            if budget >= 2.0 {
                v.push(OpKind::Load);
            }
        }
        if c.convergent_calls && obs {
            v.push(OpKind::ConvergentCall);
        }
        v
    }

    fn space(&mut self) -> Space {
        [Space::Shared, Space::Global, Space::Local][self.d.below(3)]
    }

    pub(super) fn operation(&mut self, budget: f64) -> (Stmt, f64) {
        let kinds = self.op_kinds(budget);
        match kinds[self.d.below(kinds.len())] {
            OpKind::Barrier => {
                let n = self.next_obs();
                (named(StmtKind::Expr(call("__syncthreads", vec![])), n), 1.0)
            }
            OpKind::DataBarrier => {
                let b = [
                    "__syncthreads_count",
                    "__syncthreads_and",
                    "__syncthreads_or",
                ][self.d.below(3)];
                let p = if self.d.chance(50) {
                    self.tid_cond()
                } else {
                    self.plain_value()
                };
                let n = self.next_obs();
                (named(StmtKind::Expr(call(b, vec![p])), n), 1.0)
            }
            OpKind::Store => {
                let space = self.space();
                let index = self.index();
                let value = self.plain_value();
                (assign(mem(space, index), AssignOp::Set, value), 1.0)
            }
            OpKind::Load => {
                // The loaded value is used, so the model reads it from an
                // oracle named after the access (DESIGN.md 2.6): a decision.
                let to = self.space();
                let from = self.space();
                let ti = self.index();
                let fi = self.index();
                let load = ex(ExprKind::Load {
                    space: from,
                    index: Box::new(fi),
                    id: Default::default(),
                });
                (assign(mem(to, ti), AssignOp::Set, load), 2.0)
            }
            OpKind::Fence => (st(StmtKind::Expr(call("__threadfence", vec![]))), 1.0),
            OpKind::ConvergentCall => {
                let f = ["ballot", "shuffle", "activemask"][self.d.below(3)];
                let n = self.next_obs();
                (named(StmtKind::Expr(call(f, vec![])), n), 1.0)
            }
        }
    }

    // ----- if -----

    pub(super) fn if_stmt(&mut self, ctx: Ctx, budget: f64) -> (Stmt, f64) {
        let (cond, q) = self.cond(budget);
        let inner = Ctx {
            depth: ctx.depth + 1,
            ..ctx
        };
        let (then, pt) = self.list(inner, budget / q, Vec::new(), true);
        let (els, pe) = if self.d.chance(40) {
            let (e, pe) = self.list(inner, budget / q, Vec::new(), true);
            (Some(compound(e)), pe)
        } else {
            (None, 1.0)
        };
        (if_(cond, compound(then), els), q * pt.max(pe))
    }

    // ----- loops -----

    pub(super) fn loop_kinds(&self, budget: f64) -> Vec<LoopKind> {
        let c = self.cfg;
        let decide = self.deciding() && while_paths(2.0, 1.0, self.iters()) <= budget;
        let mut v = Vec::new();
        if c.while_loops && decide {
            v.push(LoopKind::While);
        }
        if c.do_while_loops && decide && do_paths(2.0, 1.0, self.iters()) <= budget {
            v.push(LoopKind::DoWhile);
        }
        if c.for_loops && c.breaks && decide {
            v.push(LoopKind::ForBreak);
        }
        if c.for_loops && c.varying && decide {
            v.push(LoopKind::ForDots);
        }
        if c.for_loops && self.iters() >= 1 {
            v.push(LoopKind::Counted);
        }
        if c.for_loops && c.tid_bounds && self.iters() >= 1 {
            v.push(LoopKind::TidBounded);
        }
        v
    }

    /// The labels of the innermost block that are waiting to go into a
    /// loop, if this loop takes them.
    fn take_into_loop(&mut self) -> Vec<String> {
        if !self.top().pending.iter().any(|p| p.into_loop) || !self.d.chance(70) {
            return Vec::new();
        }
        let top = self.top_mut();
        let (take, keep): (Vec<Pending>, Vec<Pending>) = std::mem::take(&mut top.pending)
            .into_iter()
            .partition(|p| p.into_loop);
        top.pending = keep;
        take.into_iter().map(|p| p.label).collect()
    }

    /// The largest guard outcome count (2 or 4) for which `f(q, 1)` fits.
    fn guard_outcomes(&self, f: fn(f64, f64, u32) -> f64, budget: f64) -> f64 {
        if f(4.0, 1.0, self.iters()) <= budget {
            4.0
        } else {
            2.0
        }
    }

    pub(super) fn loop_stmt(&mut self, ctx: Ctx, budget: f64, direct: bool) -> (Stmt, f64) {
        let kinds = self.loop_kinds(budget);
        let kind = kinds[self.d.below(kinds.len())];
        let into = if direct {
            self.take_into_loop()
        } else {
            Vec::new()
        };
        let body_ctx = Ctx {
            depth: ctx.depth + 1,
            in_loop: true,
            breakable: true,
        };
        let i = self.iters();
        match kind {
            LoopKind::While | LoopKind::ForDots => {
                let (cond, q) = if kind == LoopKind::While {
                    let qmax = self.guard_outcomes(while_paths, budget);
                    self.guard(qmax, false).unwrap_or((ex(ExprKind::Dots), 2.0))
                } else {
                    (ex(ExprKind::Dots), 2.0)
                };
                let pb = solve(|p| while_paths(q, p, i), budget);
                let (body, p) = self.list(body_ctx, pb, into, false);
                let body = Box::new(compound(body));
                let s = if kind == LoopKind::While {
                    st(StmtKind::While { cond, body })
                } else {
                    st(StmtKind::For {
                        init: None,
                        cond: Some(cond),
                        step: None,
                        body,
                    })
                };
                (s, while_paths(q, p, i))
            }
            LoopKind::DoWhile => {
                let qmax = self.guard_outcomes(do_paths, budget);
                let (cond, q) = self.guard(qmax, false).unwrap_or((ex(ExprKind::Dots), 2.0));
                let pb = solve(|p| do_paths(q, p, i), budget);
                let (body, p) = self.list(body_ctx, pb, into, false);
                let body = Box::new(compound(body));
                (st(StmtKind::DoWhile { body, cond }), do_paths(q, p, i))
            }
            LoopKind::ForBreak if self.d.chance(50) => {
                // The exit test at the end of the body: `for (;;) { ...;
                // if (g) break; }` has the shape of a do-while, and nested
                // in another loop it gives an empty loop header, which
                // SimplifyCFG's late run folds (seed 000's loop_nest). A
                // body with a `continue` would skip the test, so it moves
                // to the front then.
                let qmax = self.guard_outcomes(do_paths, budget);
                let (g, q) = self.guard(qmax, true).unwrap_or((ex(ExprKind::Dots), 2.0));
                let pb = solve(|p| do_paths(q, p, i), budget);
                let (mut body, p) = self.list(body_ctx, pb, into, false);
                let exit = if_(g, st(StmtKind::Break), None);
                if body.iter().any(crate::analysis::continues_here) {
                    body.insert(0, exit);
                } else {
                    body.push(exit);
                }
                let s = st(StmtKind::For {
                    init: None,
                    cond: None,
                    step: None,
                    body: Box::new(compound(body)),
                });
                (s, do_paths(q, p, i).max(while_paths(q, p, i)))
            }
            LoopKind::ForBreak => {
                let qmax = self.guard_outcomes(while_paths, budget);
                let (g, q) = self.guard(qmax, true).unwrap_or((ex(ExprKind::Dots), 2.0));
                let pb = solve(|p| while_paths(q, p, i), budget);
                let first = if_(g, st(StmtKind::Break), None);
                let (body, p) = self.list_with(vec![first], body_ctx, pb, into, false);
                let s = st(StmtKind::For {
                    init: None,
                    cond: None,
                    step: None,
                    body: Box::new(compound(body)),
                });
                (s, while_paths(q, p, i))
            }
            LoopKind::Counted | LoopKind::TidBounded => {
                let k = self.d.range(1, i as usize) as u32;
                self.counters += 1;
                let v = format!("i{}", self.counters);
                self.f.counters.push(v.clone());
                // A thread-dependent bound runs one more iteration in the
                // second thread of a group of two, which the path estimate
                // counts.
                let (trips, bound) = if kind == LoopKind::TidBounded {
                    (k + 1, bin(BinOp::Add, tid(), int(i64::from(k))))
                } else {
                    (k, int(i64::from(k)))
                };
                let pb = budget.powf(1.0 / f64::from(trips)).max(1.0);
                // A test of the counter doubles the body's paths.
                let test = kind == LoopKind::TidBounded
                    && self.cfg.counter_tests
                    && pb >= 2.0
                    && self.d.chance(50);
                let (mut body, mut p) =
                    self.list(body_ctx, if test { pb / 2.0 } else { pb }, into, false);
                if test && self.obs_left() && self.fuel_left() {
                    let at = if self.d.chance(50) {
                        int(0)
                    } else if k == 1 {
                        tid()
                    } else {
                        bin(BinOp::Add, tid(), int(i64::from(k) - 1))
                    };
                    let obs = self.observe();
                    self.statements += 1;
                    body.push(if_(bin(BinOp::Eq, name(&v), at), obs, None));
                    p *= 2.0;
                }
                let s = st(StmtKind::For {
                    init: Some(Box::new(assign(
                        Place::Var(v.clone()),
                        AssignOp::Set,
                        int(0),
                    ))),
                    cond: Some(bin(BinOp::Lt, name(&v), bound)),
                    step: Some(ex(ExprKind::Assign {
                        place: Place::Var(v),
                        op: AssignOp::Add,
                        value: Box::new(int(1)),
                    })),
                    body: Box::new(compound(body)),
                });
                (s, p.powi(trips as i32))
            }
        }
    }

    // ----- switch -----

    pub(super) fn switch_stmt(&mut self, ctx: Ctx, budget: f64) -> (Stmt, f64) {
        let m = self.d.range(1, self.cfg.max_switch_cases.max(1));
        let outcomes = (m + 1) as f64;
        let (value, q) = if self.cfg.varying && outcomes <= budget && !self.d.chance(30) {
            self.oracles[3] += 1;
            (name(&format!("s{}", self.oracles[3])), outcomes)
        } else {
            (tid(), 1.0)
        };
        let with_default = self.d.chance(30);
        let inner = Ctx {
            depth: ctx.depth + 1,
            breakable: true,
            ..ctx
        };
        self.f.frames.push(Frame::default());
        let mut body = Vec::new();
        let mut paths = 1.0;
        for arm in 0..m {
            let mut stmts = Vec::new();
            self.items(
                inner,
                budget / q,
                &mut stmts,
                &mut paths,
                self.cfg.max_block_len,
            );
            if self.cfg.breaks && self.d.chance(60) {
                stmts.push(st(StmtKind::Break));
            }
            let first = if stmts.is_empty() {
                st(StmtKind::Empty)
            } else {
                stmts.remove(0)
            };
            let case = if with_default && arm + 1 == m {
                CaseLabel::Default
            } else {
                CaseLabel::Case(arm as i64)
            };
            body.push(st(StmtKind::Case {
                label: case,
                body: Box::new(first),
            }));
            body.extend(stmts);
        }
        self.close_frame(&mut body);
        let s = st(StmtKind::Switch {
            value,
            body: Box::new(compound(body)),
        });
        (s, q * paths)
    }

    // ----- jumps -----

    pub(super) fn jump_kinds(&self, ctx: Ctx) -> Vec<JumpKind> {
        let c = self.cfg;
        let mut v = Vec::new();
        if c.breaks && ctx.breakable {
            v.push(JumpKind::Break);
        }
        if c.continues && ctx.in_loop {
            v.push(JumpKind::Continue);
        }
        if c.returns {
            v.push(JumpKind::Return);
        }
        if c.forward_gotos {
            v.push(JumpKind::Goto);
        }
        v
    }

    fn jump(&mut self, kind: JumpKind) -> Stmt {
        match kind {
            JumpKind::Break => st(StmtKind::Break),
            JumpKind::Continue => st(StmtKind::Continue),
            JumpKind::Return => st(StmtKind::Return(None)),
            JumpKind::Goto => {
                let l = self.new_label();
                let n = self.f.frames.len();
                let idx = n - 1 - self.d.below(n);
                let into_loop = self.cfg.jumps_into_loops && self.d.chance(50);
                self.f.frames[idx].pending.push(Pending {
                    label: l.clone(),
                    into_loop,
                });
                st(StmtKind::Goto(l))
            }
        }
    }

    /// `if (c) jump;`.
    pub(super) fn guarded_jump(&mut self, ctx: Ctx, budget: f64) -> (Stmt, f64) {
        let kinds = self.jump_kinds(ctx);
        let kind = kinds[self.d.below(kinds.len())];
        let (cond, q) = self.cond(budget);
        let j = self.jump(kind);
        (if_(cond, j, None), q)
    }

    /// An unconditional jump, ending an `if` branch.
    pub(super) fn bare_jump(&mut self, ctx: Ctx) -> Option<Stmt> {
        let kinds = self.jump_kinds(ctx);
        if kinds.is_empty() || !self.fuel_left() {
            return None;
        }
        self.statements += 1;
        let kind = kinds[self.d.below(kinds.len())];
        Some(self.jump(kind))
    }

    /// `L: s1; ...; sn; if (G) goto L;` in the current block.
    pub(super) fn goto_cycle(&mut self, ctx: Ctx, budget: f64) -> (Vec<Stmt>, f64) {
        let i = self.iters();
        let qmax = self.guard_outcomes(do_paths, budget);
        let (g, q) = self.guard(qmax, false).unwrap_or((ex(ExprKind::Dots), 2.0));
        let l = self.new_label();
        let rb = solve(|p| do_paths(q, p, i), budget);
        let mut region = Vec::new();
        let mut rp = 1.0;
        let max = (self.cfg.max_block_len / 2).max(1);
        self.items(ctx, rb, &mut region, &mut rp, max);
        if region.is_empty() {
            region.push(if self.obs_left() {
                self.observe()
            } else {
                st(StmtKind::Empty)
            });
        }
        let first = region.remove(0);
        region.insert(0, label(&l, first));
        region.push(if_(g, st(StmtKind::Goto(l)), None));
        (region, do_paths(q, rp, i))
    }

    // ----- calls -----

    pub(super) fn call_stmt(&mut self, budget: f64) -> (Stmt, f64) {
        let fits: Vec<usize> = (0..self.helpers.len())
            .filter(|&h| self.helpers[h].paths <= budget)
            .collect();
        // Name the call first: the helper's body may use up the names.
        let n = self.next_obs();
        let create =
            self.helper_names < self.cfg.max_helpers && (fits.is_empty() || self.d.chance(40));
        let h = if create {
            self.new_helper(budget)
        } else {
            fits[self.d.below(fits.len())]
        };
        let args = if self.helpers[h].param {
            vec![self.plain_value()]
        } else {
            Vec::new()
        };
        let paths = self.helpers[h].paths;
        let c = call(&self.helpers[h].name, args);
        (named(StmtKind::Expr(c), n), paths)
    }

    fn new_helper(&mut self, budget: f64) -> usize {
        self.helper_names += 1;
        let name = format!("helper{}", self.helper_names);
        let param = self.d.chance(50).then(|| "x".to_string());
        let state = FnState {
            param: param.clone(),
            ..FnState::default()
        };
        let saved = std::mem::replace(&mut self.f, state);
        let (body, paths) = self.list(Ctx::TOP, budget, Vec::new(), false);
        let state = std::mem::replace(&mut self.f, saved);
        let has_param = param.is_some();
        self.done.push(function(&name, param, body, state.counters));
        self.helpers.push(Helper {
            name,
            param: has_param,
            paths,
        });
        self.helpers.len() - 1
    }

    // ----- noconvergent -----

    pub(super) fn noconvergent(&mut self, ctx: Ctx, budget: f64) -> (Stmt, f64) {
        let inner = Ctx {
            depth: ctx.depth + 1,
            ..ctx
        };
        let wrapped = if self.d.chance(50) {
            self.stmt(inner, budget, false, false)
                .and_then(|(mut v, p)| (v.len() == 1).then(|| (v.remove(0), p)))
        } else {
            None
        };
        let (body, p) = match wrapped {
            Some(x) => x,
            None => {
                let (list, p) = self.list(inner, budget, Vec::new(), false);
                (compound(list), p)
            }
        };
        (st(StmtKind::NoConvergent(Box::new(body))), p)
    }
}
