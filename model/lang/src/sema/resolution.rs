//! Name and call resolution: what each name and call means (variable,
//! oracle, real call, convergent operation, barrier, fence), the class of
//! every oracle, the names of anonymous oracles and load values, and the
//! values `switch` cases compare with.

use super::*;

const BARRIERS: &[(&str, BarrierKind)] = &[
    ("__syncthreads", BarrierKind::Plain),
    ("barrier", BarrierKind::Plain),
    ("work_group_barrier", BarrierKind::Plain),
    ("__syncthreads_count", BarrierKind::Count),
    ("__syncthreads_and", BarrierKind::And),
    ("__syncthreads_or", BarrierKind::Or),
];

const FENCES: &[&str] = &[
    "__threadfence",
    "__threadfence_block",
    "__threadfence_system",
    "mem_fence",
    "atomic_work_item_fence",
];

impl<'f> Analyser<'f> {
    /// An oracle whose name the analysis chose (an anonymous `...`, a
    /// load): used in another class already, the name gets the class as a
    /// suffix instead of being an error.
    pub(super) fn auto_oracle(&mut self, name: &str, class: OracleClass, span: Span) -> OracleId {
        let name = match self.oracle_ids.get(name) {
            Some(&id) if self.oracles[id].class != class => {
                format!("{name}:{}", class_name(class))
            }
            _ => name.to_string(),
        };
        self.oracle(&name, class, span)
    }

    /// The name of the next anonymous oracle of statement `stmt` (see the
    /// module documentation).
    pub(super) fn dot_name(&mut self, stmt: &Stmt) -> String {
        let what = match &stmt.kind {
            StmtKind::If { .. } => "if".to_string(),
            StmtKind::While { .. } => "while".to_string(),
            StmtKind::DoWhile { .. } => "do".to_string(),
            StmtKind::For { .. } => "for".to_string(),
            StmtKind::Switch { .. } => "switch".to_string(),
            StmtKind::Local { name, .. } => name.clone(),
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Assign {
                    place: Place::Var(v),
                    ..
                } => v.clone(),
                _ => "value".to_string(),
            },
            _ => "value".to_string(),
        };
        let n = self.dot_counts.entry(what.clone()).or_insert(0);
        *n += 1;
        format!("{what}#{n}")
    }

    pub(super) fn oracle(&mut self, name: &str, class: OracleClass, span: Span) -> OracleId {
        if let Some(&id) = self.oracle_ids.get(name) {
            let prev = self.oracles[id].class;
            if prev != class {
                let first = self.oracles[id].span.start;
                self.error(
                    span,
                    format!(
                        "oracle `{name}` is used as {} here but as {} at {}:{}",
                        class_name(class),
                        class_name(prev),
                        first.line,
                        first.col
                    ),
                );
            }
            return id;
        }
        let id = self.oracles.len();
        self.oracles.push(OracleInfo {
            name: name.to_string(),
            class,
            domain: vec![0, 1],
            span,
        });
        self.oracle_ids.insert(name.to_string(), id);
        id
    }

    /// Resolves names and calls; records nodes.
    pub(super) fn resolve<'a>(&mut self, fid: FuncId, f: &'a Function, facts: &FnFacts<'a>) {
        let mut stmts = Vec::new();
        f.body.walk(&mut |s| stmts.push(s));
        for s in stmts {
            let kind = match s.kind {
                StmtKind::Observe => NodeKind::Observe,
                _ => NodeKind::Stmt,
            };
            let mut label = s.name.clone().unwrap_or_default();
            if label.is_empty() && matches!(s.kind, StmtKind::Observe) {
                if let Some(p) = facts.parent.get(&s.id) {
                    if let StmtKind::Label { label: l, .. } = &p.kind {
                        label = l.clone();
                    }
                }
            }
            self.set_node(s.id, s.span, kind, fid, label);
            let top_call = top_call(s);
            let (conds, others) = split_exprs(s);
            for e in conds {
                self.resolve_expr(fid, e, facts, OracleClass::Varying, true, s, top_call);
            }
            for e in others {
                self.resolve_expr(fid, e, facts, OracleClass::Varying, false, s, top_call);
            }
            if let StmtKind::Switch { value, body } = &s.kind {
                let scrutinee = match &value.kind {
                    ExprKind::Name(n) if !facts.vars.contains(n) => self.oracle_ids.get(n).copied(),
                    ExprKind::Call { id, .. } => match self.calls.get(id) {
                        Some(CallKind::Oracle(o)) => Some(*o),
                        _ => None,
                    },
                    ExprKind::Dots => self.dots.get(&value.span.start).copied(),
                    _ => None,
                };
                let mut seen = BTreeSet::new();
                for c in switch_cases(body) {
                    if let StmtKind::Case { label, .. } = &c.kind {
                        if !seen.insert(*label) {
                            self.error(c.span, "duplicate `case` value in this `switch`");
                        }
                        if let (Some(o), CaseLabel::Case(v)) = (scrutinee, label) {
                            self.case_values.entry(o).or_default().insert(*v);
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::only_used_in_recursion)]
    pub(super) fn resolve_expr<'a>(
        &mut self,
        fid: FuncId,
        e: &Expr,
        facts: &FnFacts<'a>,
        class: OracleClass,
        in_cond: bool,
        stmt: &Stmt,
        top_call: Option<ExprId>,
    ) {
        let rec = |this: &mut Self, x: &Expr, class| {
            this.resolve_expr(fid, x, facts, class, in_cond, stmt, top_call)
        };
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::GroupSize => {}
            ExprKind::Tid => {
                if class.is_uniform() {
                    self.error(
                        e.span,
                        "`tid` inside `uniform(...)`: the thread index is not uniform",
                    );
                }
            }
            ExprKind::Name(n) => {
                if !facts.vars.contains(n) {
                    self.oracle(n, class, e.span);
                }
            }
            ExprKind::Dots => {
                let name = self.dot_name(stmt);
                let id = self.auto_oracle(&name, class, e.span);
                self.dots.insert(e.span.start, id);
            }
            ExprKind::Uniform(a) => rec(self, a, marked(class, OracleClass::Uniform)),
            ExprKind::Invariant(a) => rec(self, a, marked(class, OracleClass::Invariant)),
            ExprKind::Unary(_, a) => rec(self, a, class),
            ExprKind::Binary(_, a, b) => {
                rec(self, a, class);
                rec(self, b, class);
            }
            ExprKind::Cond(a, b, c) => {
                rec(self, a, class);
                rec(self, b, class);
                rec(self, c, class);
            }
            ExprKind::Load { space, index, id } => {
                let label = format!("{}[{}]", space.name(), crate::syntax::print_expr(index));
                // Values in memory are not modelled (DESIGN.md 2.6): a load
                // whose value is used reads an oracle named like the access.
                let o = self.auto_oracle(&label, class, e.span);
                self.load_oracles.insert(*id, o);
                let kind = NodeKind::Mem {
                    space: *space,
                    write: false,
                };
                self.set_node(*id, e.span, kind, fid, label);
                rec(self, index, class);
            }
            ExprKind::Assign { place, value, .. } => {
                match place {
                    Place::Var(v) => {
                        if !facts.vars.contains(v) {
                            self.error(
                                e.span,
                                format!("assignment to `{v}`, which is not a local or parameter"),
                            );
                        }
                    }
                    Place::Mem { space, index, id } => {
                        let label =
                            format!("{}[{}]", space.name(), crate::syntax::print_expr(index));
                        let kind = NodeKind::Mem {
                            space: *space,
                            write: true,
                        };
                        self.set_node(*id, e.span, kind, fid, label);
                        rec(self, index, class);
                    }
                }
                rec(self, value, class);
            }
            ExprKind::Call { callee, args, id } => {
                let kind = if let Some(&f) = self.funcs.get(callee) {
                    let want = self.file.functions().nth(f).map(|f| f.params.len());
                    if want != Some(args.len()) {
                        self.error(
                            e.span,
                            format!(
                                "`{callee}` takes {} argument(s), {} given",
                                want.unwrap_or(0),
                                args.len()
                            ),
                        );
                    }
                    CallKind::Real(f)
                } else if let Some((_, b)) = BARRIERS.iter().find(|(n, _)| n == callee) {
                    if *b != BarrierKind::Plain && args.len() != 1 {
                        self.error(
                            e.span,
                            format!("`{callee}` takes one argument (the predicate)"),
                        );
                    }
                    // The result of a data-carrying barrier is the same in
                    // every participating thread; when the value is used it
                    // is read from a uniform oracle named after the builtin.
                    let result = (*b != BarrierKind::Plain)
                        .then(|| self.oracle(callee, OracleClass::Uniform, e.span));
                    CallKind::Barrier(*b, result)
                } else if FENCES.contains(&callee.as_str()) {
                    CallKind::Fence
                } else if in_cond {
                    CallKind::Oracle(self.oracle(callee, class, e.span))
                } else {
                    let o = self.oracle(callee, OracleClass::Varying, e.span);
                    match self.externs.get(callee) {
                        Some(Convergence::NoConvergent) => CallKind::Plain(o),
                        _ => CallKind::Op(o),
                    }
                };
                self.calls.insert(*id, kind);
                let mut label = callee.clone();
                if top_call == Some(*id) {
                    if let Some(n) = &stmt.name {
                        label = n.clone();
                    }
                }
                self.set_node(*id, e.span, NodeKind::Call(kind), fid, label);
                if !matches!(kind, CallKind::Oracle(_)) {
                    for a in args {
                        rec(self, a, class);
                    }
                }
            }
        }
    }
}

/// The class of an oracle under `marker` (`uniform(...)` or
/// `invariant(...)`) inside an expression of class `outer`: the markers
/// add up, so `uniform(invariant(c))`, `invariant(uniform(c))` and
/// `uniform(c1 && invariant(c2))` (for `c2`) are uniform-invariant; a
/// marker repeated (`uniform(uniform(c))`) means what it means once.
fn marked(outer: OracleClass, marker: OracleClass) -> OracleClass {
    let uniform = outer.is_uniform() || marker.is_uniform();
    let invariant = outer.is_invariant() || marker.is_invariant();
    match (uniform, invariant) {
        (true, true) => OracleClass::UniformInvariant,
        (true, false) => OracleClass::Uniform,
        (false, true) => OracleClass::Invariant,
        (false, false) => OracleClass::Varying,
    }
}
