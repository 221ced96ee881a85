//! The domain analysis of one module (see the documentation of
//! `scenario::domains`): locals followed flow-insensitively, counters for
//! `max_iters + 1` rounds, and every comparison, switch, truth value and
//! memory index turned into facts about the subjects it depends on.

use super::absval::*;
use super::{Facts, Subject, ValueFacts};
use crate::cfg::{InstKind, Module, Term};
use crate::expr::{AssignOp, BinOp, Expr, UnOp};
use crate::ops::{CallKind, FuncId, Space};
use std::collections::{BTreeMap, BTreeSet};

/// The analysis of one module.
pub(super) struct Analysis<'m> {
    module: &'m Module,
    max_iters: u32,
    /// Values of locals: (function, name).
    env: BTreeMap<(FuncId, String), Av>,
    /// Locals still growing after the last round (counters).
    counters: BTreeSet<(FuncId, String)>,
    /// Values returned by each function.
    rets: BTreeMap<FuncId, Av>,
    /// Values passed to each parameter (function, index).
    args: BTreeMap<(FuncId, usize), Av>,
    pub(super) facts: ValueFacts,
    /// Whether comparisons are recorded (the last pass only).
    record: bool,
    /// Indices of shared and global accesses.
    indices: BTreeMap<Space, Vec<(Av, String)>>,
    /// The functions analysed (those an entry can call); `None` for all.
    pub(super) only: Option<BTreeSet<FuncId>>,
    /// Whether every value assigned to a local is a narrow view
    /// (`sextN`/`zextN`, `N < 64`): a comparison of such a local at 64 bits
    /// reads the view, not the full value.
    views: BTreeMap<(FuncId, String), bool>,
}

impl<'m> Analysis<'m> {
    /// A fresh analysis of `module`, counters followed for `max_iters + 1`
    /// rounds.
    pub(super) fn new(module: &'m Module, max_iters: u32) -> Analysis<'m> {
        Analysis {
            module,
            max_iters,
            env: BTreeMap::new(),
            counters: BTreeSet::new(),
            rets: BTreeMap::new(),
            args: BTreeMap::new(),
            facts: ValueFacts::default(),
            record: false,
            indices: BTreeMap::new(),
            only: None,
            views: BTreeMap::new(),
        }
    }

    pub(super) fn run(&mut self) {
        // Locals to a fixpoint, counters for max_iters + 1 rounds.
        let rounds = self.max_iters.saturating_add(1).min(64);
        let mut stable = false;
        for _ in 0..rounds {
            let before = (self.env.clone(), self.rets.clone(), self.args.clone());
            self.pass();
            if (self.env.clone(), self.rets.clone(), self.args.clone()) == before {
                stable = true;
                break;
            }
        }
        if !stable {
            // The locals that would still grow are counters.
            let before = self.env.clone();
            let saved = (self.env.clone(), self.rets.clone(), self.args.clone());
            self.pass();
            for (k, v) in &self.env {
                if before.get(k) != Some(v) {
                    self.counters.insert(k.clone());
                }
            }
            (self.env, self.rets, self.args) = saved;
        }
        self.record = true;
        self.pass();
        // Every pair of shared (and of global) indices is compared by the
        // race check of two threads.
        let indices = std::mem::take(&mut self.indices);
        for list in indices.values() {
            for i in 0..list.len() {
                for j in i..list.len() {
                    self.compare(&list[i].0, &list[j].0, Cmp::Eq, &list[i].1);
                }
            }
        }
    }

    /// One pass over every instruction of every function.
    fn pass(&mut self) {
        let module = self.module;
        for (f, cfg) in module.functions.iter().enumerate() {
            if self.only.as_ref().is_some_and(|o| !o.contains(&f)) {
                continue;
            }
            for (i, p) in cfg.params.iter().enumerate() {
                let mut v = Av::new();
                if let Some(&o) = cfg.param_oracles.get(i) {
                    v.insert(self.oracle(o));
                }
                if let Some(a) = self.args.get(&(f, i)) {
                    v.extend(a.iter().cloned());
                }
                self.join(f, p, v);
            }
            for block in &cfg.blocks {
                for inst in &block.insts {
                    match &inst.kind {
                        InstKind::Eval(e) => {
                            self.eval(f, e);
                        }
                        InstKind::SetLocal { name, value } => {
                            self.note_view(f, name, value.as_ref());
                            let v = match value {
                                Some(e) => self.eval(f, e),
                                None => konst(0),
                            };
                            self.join(f, name, v);
                        }
                        InstKind::Phi { name, incoming } => {
                            for (_, e) in incoming {
                                self.note_view(f, name, Some(e));
                                let v = self.eval(f, e);
                                self.join(f, name, v);
                            }
                        }
                        InstKind::Observe | InstKind::Token { .. } => {}
                    }
                }
                match &block.term {
                    Term::CondBr { cond, els, .. } => {
                        let fresh = cfg
                            .blocks
                            .get(*els)
                            .is_some_and(|b| b.name.starts_with(super::FRESH_BLOCK));
                        if !fresh {
                            self.truth(f, cond);
                        }
                    }
                    Term::Switch { value, cases, .. } => {
                        let v = self.eval(f, value);
                        self.full_read(f, value, &v);
                        let text = self.text(value);
                        for (c, _) in cases {
                            self.compare(&v, &konst(*c), Cmp::Eq, &text);
                        }
                    }
                    Term::Ret(Some(e)) => {
                        let v = self.eval(f, e);
                        let r = self.rets.entry(f).or_default();
                        r.extend(v);
                        let n = normal(std::mem::take(r));
                        *r = n;
                    }
                    Term::Ret(None) | Term::Br(_) | Term::Unreachable => {}
                }
            }
        }
    }

    /// Whether `e` reads the end of memory of objects of unknown origin.
    fn is_end(&self, e: &Expr) -> bool {
        matches!(e, Expr::Oracle(o) if self
            .module
            .oracles
            .get(*o)
            .is_some_and(|i| i.name == crate::exec::UNKNOWN_END))
    }

    fn oracle(&self, o: usize) -> Alt {
        match self.module.oracles.get(o) {
            Some(info) => Alt::Lin(Subject::Oracle(info.name.clone()), 1, 0),
            None => Alt::Unknown(BTreeSet::new()),
        }
    }

    fn join(&mut self, f: FuncId, name: &str, v: Av) {
        let e = self.env.entry((f, name.to_string())).or_default();
        e.extend(v);
        let n = normal(std::mem::take(e));
        *e = n;
    }

    fn text(&self, e: &Expr) -> String {
        crate::print::expr(self.module, e)
    }

    /// `e` used as a truth value.
    fn truth(&mut self, f: FuncId, e: &Expr) {
        let v = self.eval(f, e);
        let text = self.text(e);
        self.compare(&v, &konst(0), Cmp::Eq, &text);
    }

    /// The possible values of `e` in function `f`; records comparisons on
    /// the recording pass.
    fn eval(&mut self, f: FuncId, e: &Expr) -> Av {
        match e {
            Expr::Const(c) => konst(*c),
            Expr::Tid => BTreeSet::from([Alt::Lin(Subject::Tid, 1, 0)]),
            Expr::GroupSize => BTreeSet::from([Alt::Lin(Subject::Group, 1, 0)]),
            Expr::Var(n) => {
                let key = (f, n.clone());
                let v = self.env.get(&key).cloned().unwrap_or_else(|| konst(0));
                if self.counters.contains(&key) {
                    // A counter: its values in the first iterations are
                    // known, later ones are not; a subject compared with
                    // it is marked (see `compare1`).
                    let mut out = v;
                    out.insert(Alt::Unknown(BTreeSet::from([Subject::Oracle(
                        COUNTER.to_string(),
                    )])));
                    return normal(out);
                }
                v
            }
            Expr::Oracle(o) => BTreeSet::from([self.oracle(*o)]),
            Expr::Unary(op, a) => {
                let v = self.eval(f, a);
                match op {
                    UnOp::Not => {
                        let text = self.text(a);
                        self.compare(&v, &konst(0), Cmp::Eq, &text);
                        boolean()
                    }
                    UnOp::Neg => map_lin(
                        &v,
                        |m, c| Some((m.wrapping_neg(), c.wrapping_neg())),
                        i64::wrapping_neg,
                    ),
                    UnOp::BitNot => map_lin(
                        &v,
                        |m, c| Some((m.wrapping_neg(), c.wrapping_neg().wrapping_sub(1))),
                        |x| !x,
                    ),
                    UnOp::SExt(n) | UnOp::ZExt(n) => {
                        // A narrow view of a linear value: followed as the
                        // value itself, with the view noted so that values
                        // equal only in their low bits, and the view's wrap
                        // points, are tried (`Facts::narrow`).
                        if *n < 64 && self.record {
                            for a in &v {
                                if let Alt::Lin(s, m, c) = a {
                                    let (s, m, c) = (s.clone(), *m, *c);
                                    self.facts(&s).narrow.insert((u32::from(*n), m, c));
                                }
                            }
                        }
                        let op = *op;
                        map_lin(&v, |m, c| Some((m, c)), move |x| crate::expr::unary(op, x))
                    }
                    // A float entering the model (a load, a parameter):
                    // its subject takes float values.
                    UnOp::F(crate::float::FUn::Canon(t) | crate::float::FUn::Bits(t)) => {
                        if self.record {
                            for a in &v {
                                if let Alt::Lin(s, 1, 0) = a {
                                    let s = s.clone();
                                    let points = crate::float::interesting(*t);
                                    self.facts(&s).points.extend(points);
                                }
                            }
                        }
                        let op = *op;
                        map_lin(&v, |_, _| None, move |x| crate::expr::unary(op, x))
                    }
                    // Floats: no linear view; constants fold.
                    UnOp::F(_) => {
                        let op = *op;
                        map_lin(&v, |_, _| None, move |x| crate::expr::unary(op, x))
                    }
                }
            }
            Expr::Binary(BinOp::ULe, a, b) if self.is_end(b) => {
                // An address checked against the end of memory of objects
                // of unknown origin (`crate::exec::UNKNOWN_END`): not a
                // value to enumerate; the explicit engine compares the
                // reference's reach with the target's. One subject plus a
                // constant changes neither's order; anything else is
                // inexact, and two such subjects are (`end_bases`).
                let x = self.eval(f, a);
                if self.record {
                    let text = self.text(e);
                    for alt in &x {
                        match alt {
                            Alt::Lin(s, m, _) if *m == 1 || *m == -1 => {
                                self.facts.end_bases.insert(s.clone());
                            }
                            Alt::Lin(s, ..) => {
                                self.facts(s)
                                    .inexact
                                    .insert(format!("{text} (an ordering of a multiple)"));
                            }
                            Alt::Unknown(t) => {
                                for s in t {
                                    if s.name() != COUNTER {
                                        self.facts(s).inexact.insert(format!(
                                            "{text} (through arithmetic the analysis does not \
                                             invert)"
                                        ));
                                    }
                                }
                            }
                            Alt::Const(_) => {}
                        }
                    }
                }
                boolean()
            }
            Expr::Binary(op, a, b) => {
                let x = self.eval(f, a);
                let y = self.eval(f, b);
                if let Some(kind) = cmp_of(*op) {
                    if only_constants(&y) {
                        self.full_read(f, a, &x);
                    }
                    if only_constants(&x) {
                        self.full_read(f, b, &y);
                    }
                    let text = self.text(e);
                    self.compare(&x, &y, kind, &text);
                    return boolean();
                }
                match op {
                    BinOp::And | BinOp::Or => {
                        let ta = self.text(a);
                        let tb = self.text(b);
                        self.compare(&x, &konst(0), Cmp::Eq, &ta);
                        self.compare(&y, &konst(0), Cmp::Eq, &tb);
                        boolean()
                    }
                    _ => arith(*op, &x, &y),
                }
            }
            Expr::Select(c, a, b) => {
                self.truth(f, c);
                let mut v = self.eval(f, a);
                v.extend(self.eval(f, b));
                normal(v)
            }
            Expr::Call { kind, args, .. } => {
                let vals: Vec<Av> = args.iter().map(|a| self.eval(f, a)).collect();
                match *kind {
                    CallKind::Real(g) => {
                        for (i, v) in vals.into_iter().enumerate() {
                            let e = self.args.entry((g, i)).or_default();
                            e.extend(v);
                            let n = normal(std::mem::take(e));
                            *e = n;
                        }
                        self.rets.get(&g).cloned().unwrap_or_else(|| konst(0))
                    }
                    CallKind::Op(o) => {
                        // A convergent operation's arguments are observed.
                        for (v, a) in vals.iter().zip(args) {
                            let text = self.text(a);
                            self.observed(v, &text);
                        }
                        BTreeSet::from([self.oracle(o)])
                    }
                    CallKind::Plain(o) | CallKind::Oracle(o) => BTreeSet::from([self.oracle(o)]),
                    CallKind::Barrier(b, result) => {
                        if b != crate::ops::BarrierKind::Plain {
                            // The predicate is observed as a truth value.
                            for (v, a) in vals.iter().zip(args) {
                                let text = self.text(a);
                                self.compare(v, &konst(0), Cmp::Eq, &text);
                            }
                        }
                        match result {
                            Some(o) => BTreeSet::from([self.oracle(o)]),
                            None => konst(0),
                        }
                    }
                    CallKind::Fence => konst(0),
                }
            }
            Expr::Load {
                space,
                index,
                value,
                ..
            } => {
                let i = self.eval(f, index);
                self.index(*space, i, index);
                match value {
                    Some(o) => BTreeSet::from([self.oracle(*o)]),
                    None => konst(0),
                }
            }
            Expr::Store {
                space,
                index,
                value,
                access,
                ..
            } => {
                let i = self.eval(f, index);
                self.index(*space, i, index);
                let v = self.eval(f, value);
                // A byte-addressed store's value is observed in shared
                // and global memory (private memory is thread state; the
                // kernel language's element stores write no value). The
                // value an atomic leaves is its operand's and result's.
                if access.bytes > 0
                    && *space != Space::Local
                    && access.atomic != crate::expr::Access::VALUE_AFTER
                {
                    let text = self.text(value);
                    self.observed(&v, &text);
                }
                v
            }
            Expr::Assign { var, op, value } => {
                let v = self.eval(f, value);
                let old = self
                    .env
                    .get(&(f, var.clone()))
                    .cloned()
                    .unwrap_or_else(|| konst(0));
                let new = match op {
                    AssignOp::Set => v,
                    AssignOp::Add => arith(BinOp::Add, &old, &v),
                    AssignOp::Sub => arith(BinOp::Sub, &old, &v),
                    AssignOp::Mul => arith(BinOp::Mul, &old, &v),
                };
                self.join(f, var, new.clone());
                new
            }
        }
    }

    /// An access's index: addresses are observed (single-thread behaviour)
    /// and, in shared and global memory, compared between threads.
    fn index(&mut self, space: Space, i: Av, e: &Expr) {
        if !self.record {
            return;
        }
        let text = self.text(e);
        self.compare(&i, &konst(0), Cmp::Eq, &text);
        if space != Space::Local {
            self.indices.entry(space).or_default().push((i, text));
        }
    }

    /// A value the comparison of two runs observes (a stored value, an
    /// argument of a convergent operation): its two programs' versions
    /// are compared for every value of the subjects it depends on, and the
    /// analysis knows neither which value of the other program it is
    /// compared with nor which values tell them apart (`x` against `y`,
    /// `x` against `-x`, `ctpop(x)` against the count of x's low half).
    /// Every oracle it depends on is inexact; so are the thread index and
    /// the group size where they reach it through arithmetic the analysis
    /// does not invert (as in an address), not where they reach it as
    /// `tid + c` (every index of the groups tried is tried).
    fn observed(&mut self, v: &Av, text: &str) {
        if !self.record {
            return;
        }
        let counter = Subject::Oracle(COUNTER.to_string());
        for a in v {
            let (subjects, linear): (Vec<&Subject>, bool) = match a {
                Alt::Const(_) => continue,
                Alt::Lin(s, m, _) => (vec![s], *m == 1 || *m == -1),
                Alt::Unknown(t) => (t.iter().collect(), false),
            };
            for s in subjects {
                if *s == counter || (linear && matches!(s, Subject::Tid | Subject::Group)) {
                    continue;
                }
                self.facts(s).inexact.insert(format!(
                    "{text} (an observed value: stored or an argument of a convergent operation)"
                ));
            }
        }
    }

    /// Notes whether `value`, assigned to local `name`, is a narrow view.
    fn note_view(&mut self, f: FuncId, name: &str, value: Option<&Expr>) {
        let view = value.is_some_and(|e| self.is_view(f, e));
        let e = self.views.entry((f, name.to_string())).or_insert(true);
        *e &= view;
    }

    /// Whether `e` reads a narrow view (`sextN`/`zextN`, `N < 64`, or a
    /// local only ever assigned such views).
    fn is_view(&self, f: FuncId, e: &Expr) -> bool {
        match e {
            Expr::Unary(UnOp::SExt(n) | UnOp::ZExt(n), _) => *n < 64,
            Expr::Var(n) => self.views.get(&(f, n.clone())).copied().unwrap_or(false),
            _ => false,
        }
    }

    /// Records that the subjects `e` (with the values `v`) is a linear
    /// function of are compared with a constant at their full 64 bits, when
    /// `e` is no narrow view (`Facts::full`).
    fn full_read(&mut self, f: FuncId, e: &Expr, v: &Av) {
        if !self.record || self.is_view(f, e) {
            return;
        }
        for a in v {
            if let Alt::Lin(s, ..) = a {
                let s = s.clone();
                self.facts(&s).full = true;
            }
        }
    }

    fn facts(&mut self, s: &Subject) -> &mut Facts {
        self.facts.subjects.entry(s.clone()).or_default()
    }

    /// Records the comparison of two abstract values.
    fn compare(&mut self, x: &Av, y: &Av, kind: Cmp, text: &str) {
        if !self.record {
            return;
        }
        for a in x {
            for b in y {
                self.compare1(a, b, kind, text);
                self.compare1(b, a, kind, text);
            }
        }
    }

    /// Records what `a` compared with `b` says about `a`'s subject.
    fn compare1(&mut self, a: &Alt, b: &Alt, kind: Cmp, text: &str) {
        let counter = Subject::Oracle(COUNTER.to_string());
        match (a, b) {
            (Alt::Lin(s, m, c), Alt::Const(k)) => {
                let ordered = kind != Cmp::Eq;
                if ordered && *m != 1 && *m != -1 {
                    self.facts(s)
                        .inexact
                        .insert(format!("{text} (an ordering of a multiple)"));
                    return;
                }
                let x0 = inverse(*m).wrapping_mul(k.wrapping_sub(*c));
                let f = self.facts(s);
                f.points.insert(x0);
                if ordered {
                    f.ordered = true;
                    f.cuts.insert(x0);
                    f.cuts.insert(x0.wrapping_add(1));
                    // Where `m*x + c` wraps, the ordering of `x` is not
                    // that of the value.
                    let wrap = match kind {
                        Cmp::Signed => {
                            if *m == 1 {
                                i64::MIN.wrapping_sub(*c)
                            } else {
                                c.wrapping_sub(i64::MIN).wrapping_add(1)
                            }
                        }
                        _ => {
                            if *m == 1 {
                                c.wrapping_neg()
                            } else {
                                c.wrapping_add(1)
                            }
                        }
                    };
                    if kind == Cmp::Unsigned || *c != 0 || *m != 1 {
                        f.cuts.insert(wrap);
                    }
                }
            }
            (Alt::Lin(s, m1, c1), Alt::Lin(t, m2, c2)) => {
                let ordered = kind != Cmp::Eq;
                if (*m1 != 1 && *m1 != -1) || (*m2 != 1 && *m2 != -1) {
                    self.facts(s)
                        .inexact
                        .insert(format!("{text} (a comparison of multiples)"));
                    return;
                }
                // Only the first of the two symmetric calls records the
                // link.
                if s <= t {
                    self.facts
                        .links
                        .insert((s.clone(), *m1, *c1, t.clone(), *m2, *c2, ordered));
                }
                self.facts(s);
                self.facts(t);
            }
            (Alt::Lin(s, ..), Alt::Unknown(t)) => {
                if t.contains(&counter) {
                    // A loop bound: compared with a counter, whose values
                    // in the first max_iters + 1 iterations are known
                    // constants (recorded by the Const alternatives).
                    let f = self.facts(s);
                    f.counter = true;
                    f.ordered = true;
                } else {
                    self.facts(s).inexact.insert(format!(
                        "{text} (compared with a value the analysis does not follow)"
                    ));
                }
            }
            (Alt::Unknown(t), _) => {
                for s in t {
                    if *s == counter {
                        continue;
                    }
                    self.facts(s).inexact.insert(format!(
                        "{text} (through arithmetic the analysis does not invert)"
                    ));
                }
            }
            (Alt::Const(_), _) => {}
        }
    }
}

/// Whether every alternative of `v` is a constant.
fn only_constants(v: &Av) -> bool {
    v.iter().all(|a| matches!(a, Alt::Const(_)))
}

/// The pseudo-subject that marks a loop counter in an abstract value.
const COUNTER: &str = "#counter";

/// The functions `entry` can call, itself included: values that matter to
/// the other functions of a module do not matter to a check of `entry`.
pub(super) fn reachable(module: &Module, entry: FuncId) -> BTreeSet<FuncId> {
    let mut out = BTreeSet::new();
    let mut work = vec![entry];
    while let Some(f) = work.pop() {
        if !out.insert(f) {
            continue;
        }
        let Some(cfg) = module.functions.get(f) else {
            continue;
        };
        let mut exprs: Vec<&Expr> = Vec::new();
        for block in &cfg.blocks {
            for inst in &block.insts {
                match &inst.kind {
                    InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => exprs.push(e),
                    InstKind::Phi { incoming, .. } => exprs.extend(incoming.iter().map(|(_, e)| e)),
                    _ => {}
                }
            }
            match &block.term {
                Term::CondBr { cond: e, .. }
                | Term::Switch { value: e, .. }
                | Term::Ret(Some(e)) => exprs.push(e),
                _ => {}
            }
        }
        for e in exprs {
            e.walk(&mut |x| {
                if let Expr::Call {
                    kind: CallKind::Real(g),
                    ..
                } = x
                {
                    work.push(*g);
                }
            });
        }
    }
    out
}
