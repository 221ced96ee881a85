//! Value domains (DESIGN.md 2.2): the integers worth trying for every
//! oracle, for the thread index and for the group size.
//!
//! Values are 64-bit integers, so a checker cannot try them all; it tries
//! one value from every class of values that no expression of the program
//! can tell apart. [`ValueFacts::of`] reads a module's expressions and
//! collects, for every *subject* (an oracle by name, `tid`, `N`):
//!
//! - **cuts** from comparisons with constants. An expression that is an
//!   invertible function of one subject, `a*x + b` with `a` odd (`x + 3`,
//!   `5 - x`, `-x`, `~x`, `3*x` under wrapping arithmetic; `x ^ c` is not
//!   covered), compared (`==`, `!=`, `<`, `<=`, `>`, `>=`, and their
//!   unsigned forms), switched on, or used as a truth value (compared with
//!   0) against a constant `c` has the solution `x0` of `a*x + b == c`.
//!   Equality needs `x0` and one other value; an ordering also needs the
//!   values on both sides of `x0` (cuts at `x0` and `x0 + 1`) and, where
//!   the wrapping of `a*x + b` breaks monotonicity, the wrap point. An
//!   ordering of `a*x + b` with `|a| > 1` is not covered.
//! - **links** between subjects compared with each other (`v < w`,
//!   `tid == N - 1`, and every pair of `shared` or `global` indices, which
//!   the two threads' accesses compare for races). Linked subjects share
//!   their points of interest (shifted by the offsets), so that the two
//!   threads or the two oracles can be made less, equal and greater.
//! - **locals** flow-insensitively: a local's value is any value assigned
//!   to it anywhere in its function (declarations, assignments, phis,
//!   arguments of calls for parameters, returned values for call results).
//!   A local assigned from itself (`i = i + 1`) is a counter: it is
//!   followed for `max_iters + 1` rounds, which gives its values in the
//!   first `max_iters + 1` iterations of a loop; an oracle compared with it
//!   (a loop bound `i < n`) is marked `counter`: its domain reaches the
//!   iteration bound and no further.
//! - **inexact** uses: a subject that reaches a comparison, a switch, a
//!   truth value or an index through anything else (`v % 4`, `v & 2`,
//!   `v * 2`, `v + w`, a division, a shift, a local whose values are not
//!   known, an ordering of `3*v`) is noted with the expression, and the
//!   check lists it among its bounds: the domain tried may miss a value
//!   that matters.
//!
//! [`ValueFacts::domains`] turns facts into values: with only equalities,
//! every point and one value that is none of them; with orderings, one
//! value of every interval between cuts (0 or 1 when the interval holds
//! them, else the end nearest 0). The truth value of a condition `c` gives
//! `{0, 1}`; `v == 2` gives `{0, 2}`; `v < 2 || v == 5` gives
//! `{1, 2, 4, 5, 6}`. `sextN`/`zextN` are taken as the identity (exact for
//! values that fit in `N` bits, which is what an LLVM `iN` holds).

use crate::cfg::{InstKind, Module, Term};
use crate::expr::{AssignOp, BinOp, Expr, UnOp};
use crate::ops::{CallKind, FuncId, Space};
use std::collections::{BTreeMap, BTreeSet};

/// What a domain is the domain of.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Subject {
    /// An oracle, by name (names match oracles across modules).
    Oracle(String),
    /// The thread index.
    Tid,
    /// The group size.
    Group,
}

impl Subject {
    /// The subject's name in reports (`cond1`, `tid`, `N`).
    pub fn name(&self) -> &str {
        match self {
            Subject::Oracle(n) => n,
            Subject::Tid => "tid",
            Subject::Group => "N",
        }
    }
}

/// What the program's expressions say about one subject.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Values compared for equality (solutions of `a*x + b == c`).
    pub points: BTreeSet<i64>,
    /// Cuts of orderings: a cut at `t` separates `t - 1` from `t`.
    pub cuts: BTreeSet<i64>,
    /// Whether an ordering involves the subject.
    pub ordered: bool,
    /// Whether the subject is compared with a loop counter.
    pub counter: bool,
    /// Uses the analysis does not cover, as expression texts.
    pub inexact: BTreeSet<String>,
}

/// A comparison between two subjects: `a1*x + b1` against `a2*y + b2`
/// (`a1`, `a2` are 1 or -1), and whether it orders them.
pub type Link = (Subject, i64, i64, Subject, i64, i64, bool);

/// Facts about every subject of one or more modules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValueFacts {
    /// Facts per subject.
    pub subjects: BTreeMap<Subject, Facts>,
    /// Comparisons between subjects.
    pub links: BTreeSet<Link>,
}

/// The values to try, per subject.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Domains {
    /// Values per subject, ascending; a subject without an entry has the
    /// single value 0.
    pub values: BTreeMap<Subject, Vec<i64>>,
    /// Subjects whose values stop at the iteration bound (compared with a
    /// loop counter).
    pub counters: BTreeSet<Subject>,
    /// Subjects whose domain may miss a value that matters, with the uses
    /// the analysis does not cover.
    pub inexact: BTreeMap<Subject, BTreeSet<String>>,
}

impl Domains {
    /// The values of `s` (at least one).
    pub fn of(&self, s: &Subject) -> Vec<i64> {
        self.values.get(s).cloned().unwrap_or_else(|| vec![0])
    }
}

/// One possible value of an expression.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Alt {
    /// A constant.
    Const(i64),
    /// `a*x + b` for subject `x`, `a` odd.
    Lin(Subject, i64, i64),
    /// A value the analysis does not follow, depending on these subjects.
    Unknown(BTreeSet<Subject>),
}

/// The possible values of an expression (a union of alternatives).
type Av = BTreeSet<Alt>;

/// More alternatives than this are merged into one unknown value.
const MAX_ALTS: usize = 64;

fn unknown(subjects: BTreeSet<Subject>) -> Av {
    BTreeSet::from([Alt::Unknown(subjects)])
}

fn konst(c: i64) -> Av {
    BTreeSet::from([Alt::Const(c)])
}

fn boolean() -> Av {
    BTreeSet::from([Alt::Const(0), Alt::Const(1)])
}

/// The subjects an abstract value depends on.
fn taint(v: &Av) -> BTreeSet<Subject> {
    let mut out = BTreeSet::new();
    for a in v {
        match a {
            Alt::Const(_) => {}
            Alt::Lin(s, ..) => {
                out.insert(s.clone());
            }
            Alt::Unknown(t) => out.extend(t.iter().cloned()),
        }
    }
    out
}

/// Caps the number of alternatives and merges unknown ones.
fn normal(v: Av) -> Av {
    let unknowns: Vec<&Alt> = v
        .iter()
        .filter(|a| matches!(a, Alt::Unknown(_)))
        .collect();
    if v.len() <= MAX_ALTS && unknowns.len() <= 1 {
        return v;
    }
    if v.len() > MAX_ALTS {
        return unknown(taint(&v));
    }
    let mut t = BTreeSet::new();
    for a in &unknowns {
        if let Alt::Unknown(s) = a {
            t.extend(s.iter().cloned());
        }
    }
    let mut out: Av = v
        .into_iter()
        .filter(|a| !matches!(a, Alt::Unknown(_)))
        .collect();
    out.insert(Alt::Unknown(t));
    out
}

/// The inverse of an odd number modulo 2^64.
fn inverse(a: i64) -> i64 {
    // Newton's iteration: each step doubles the number of correct bits.
    let mut x = a;
    for _ in 0..6 {
        x = x.wrapping_mul(2i64.wrapping_sub(a.wrapping_mul(x)));
    }
    x
}

/// Applies a unary operation to each alternative.
fn map_lin(v: &Av, f: impl Fn(i64, i64) -> Option<(i64, i64)>, c: impl Fn(i64) -> i64) -> Av {
    let mut out = BTreeSet::new();
    for a in v {
        match a {
            Alt::Const(x) => {
                out.insert(Alt::Const(c(*x)));
            }
            Alt::Lin(s, a, b) => match f(*a, *b) {
                Some((a2, b2)) => {
                    out.insert(Alt::Lin(s.clone(), a2, b2));
                }
                None => {
                    out.insert(Alt::Unknown(BTreeSet::from([s.clone()])));
                }
            },
            Alt::Unknown(t) => {
                out.insert(Alt::Unknown(t.clone()));
            }
        }
    }
    normal(out)
}

/// `x op y` on two abstract values, for the arithmetic the analysis
/// inverts.
fn arith(op: BinOp, x: &Av, y: &Av) -> Av {
    let mut out = BTreeSet::new();
    for a in x {
        for b in y {
            out.insert(arith1(op, a, b));
        }
    }
    normal(out)
}

fn arith1(op: BinOp, a: &Alt, b: &Alt) -> Alt {
    use Alt::*;
    let both = || {
        let mut t = taint(&BTreeSet::from([a.clone()]));
        t.extend(taint(&BTreeSet::from([b.clone()])));
        Unknown(t)
    };
    match (op, a, b) {
        (_, Const(x), Const(y)) => Const(crate::expr::binary(op, *x, *y)),
        (BinOp::Add, Lin(s, m, c), Const(k)) | (BinOp::Add, Const(k), Lin(s, m, c)) => {
            Lin(s.clone(), *m, c.wrapping_add(*k))
        }
        (BinOp::Sub, Lin(s, m, c), Const(k)) => Lin(s.clone(), *m, c.wrapping_sub(*k)),
        (BinOp::Sub, Const(k), Lin(s, m, c)) => Lin(s.clone(), m.wrapping_neg(), k.wrapping_sub(*c)),
        (BinOp::Mul, Lin(s, m, c), Const(k)) | (BinOp::Mul, Const(k), Lin(s, m, c))
            if k & 1 == 1 =>
        {
            Lin(s.clone(), m.wrapping_mul(*k), c.wrapping_mul(*k))
        }
        _ => both(),
    }
}

/// What a comparison asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    /// Equality (`==`, `!=`, switch cases, truth values, addresses).
    Eq,
    /// A signed ordering.
    Signed,
    /// An unsigned ordering.
    Unsigned,
}

fn cmp_of(op: BinOp) -> Option<Cmp> {
    Some(match op {
        BinOp::Eq | BinOp::Ne => Cmp::Eq,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Cmp::Signed,
        BinOp::ULt | BinOp::ULe | BinOp::UGt | BinOp::UGe => Cmp::Unsigned,
        _ => return None,
    })
}

/// The analysis of one module.
struct Analysis<'m> {
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
    facts: ValueFacts,
    /// Whether comparisons are recorded (the last pass only).
    record: bool,
    /// Indices of shared and global accesses.
    indices: BTreeMap<Space, Vec<(Av, String)>>,
}

impl ValueFacts {
    /// The facts of `module`, with counters followed for `max_iters + 1`
    /// iterations.
    pub fn of(module: &Module, max_iters: u32) -> ValueFacts {
        let mut a = Analysis {
            module,
            max_iters,
            env: BTreeMap::new(),
            counters: BTreeSet::new(),
            rets: BTreeMap::new(),
            args: BTreeMap::new(),
            facts: ValueFacts::default(),
            record: false,
            indices: BTreeMap::new(),
        };
        a.run();
        // The group has at least two threads, and thread indices are
        // non-negative.
        let group = a.facts.subjects.entry(Subject::Group).or_default();
        group.cuts.insert(2);
        group.points.insert(2);
        a.facts
            .subjects
            .entry(Subject::Tid)
            .or_default()
            .cuts
            .insert(0);
        a.facts
    }

    /// Adds the facts of another module (the other side of a comparison:
    /// oracles are matched by name).
    pub fn merge(&mut self, other: &ValueFacts) {
        for (s, f) in &other.subjects {
            let mine = self.subjects.entry(s.clone()).or_default();
            mine.points.extend(f.points.iter().copied());
            mine.cuts.extend(f.cuts.iter().copied());
            mine.ordered |= f.ordered;
            mine.counter |= f.counter;
            mine.inexact.extend(f.inexact.iter().cloned());
        }
        self.links.extend(other.links.iter().cloned());
    }

    /// The values to try for every subject.
    pub fn domains(&self) -> Domains {
        let mut facts = self.subjects.clone();
        // Linked subjects share their points of interest, shifted through
        // the comparison, so that both sides can be less, equal and
        // greater. One round of sharing: points of `y` become points of `x`.
        let before = facts.clone();
        for (x, a1, b1, y, a2, b2, ordered) in &self.links {
            for (s, (p, q), (other, (ao, bo))) in [
                (x, (*a1, *b1), (y, (*a2, *b2))),
                (y, (*a2, *b2), (x, (*a1, *b1))),
            ] {
                let mut values: BTreeSet<i64> = before
                    .get(other)
                    .map(|f| f.points.iter().copied().chain(f.cuts.iter().copied()).collect())
                    .unwrap_or_default();
                values.insert(0);
                let f = facts.entry(s.clone()).or_default();
                for v in values {
                    // p*s + q == ao*v + bo
                    let target = ao.wrapping_mul(v).wrapping_add(bo);
                    let x0 = p.wrapping_mul(target.wrapping_sub(q));
                    f.points.insert(x0);
                    if *ordered {
                        f.cuts.insert(x0);
                        f.cuts.insert(x0.wrapping_add(1));
                    }
                }
                f.ordered |= *ordered;
                if let Some(o) = before.get(other) {
                    if o.counter {
                        f.counter = true;
                    }
                }
            }
        }
        let mut out = Domains::default();
        for (s, f) in &facts {
            let mut values = if f.ordered {
                let mut cuts = f.cuts.clone();
                for &p in &f.points {
                    cuts.insert(p);
                    cuts.insert(p.wrapping_add(1));
                }
                representatives(&cuts)
            } else {
                let mut v: BTreeSet<i64> = f.points.clone();
                if !v.is_empty() {
                    let other = (0..).find(|x| !v.contains(x)).unwrap_or(0);
                    v.insert(other);
                }
                v.into_iter().collect()
            };
            match s {
                Subject::Tid => values.retain(|&v| v >= 0),
                Subject::Group => values.retain(|&v| v >= 2),
                Subject::Oracle(_) => {}
            }
            if values.is_empty() {
                values.push(if *s == Subject::Group { 2 } else { 0 });
            }
            if f.counter {
                out.counters.insert(s.clone());
            }
            if !f.inexact.is_empty() {
                out.inexact.insert(s.clone(), f.inexact.clone());
            }
            out.values.insert(s.clone(), values);
        }
        out
    }
}

/// One value of every interval between consecutive cuts.
fn representatives(cuts: &BTreeSet<i64>) -> Vec<i64> {
    let mut bounds: Vec<i64> = cuts.iter().copied().filter(|&c| c != i64::MIN).collect();
    bounds.sort_unstable();
    let mut out = Vec::new();
    let mut lo = i64::MIN;
    for c in bounds.iter().copied().chain(std::iter::once(i64::MAX)) {
        // The interval [lo, hi].
        let hi = if c == i64::MAX && bounds.last() != Some(&i64::MAX) {
            i64::MAX
        } else {
            c - 1
        };
        if lo <= hi {
            out.push(if lo <= 0 && 0 <= hi {
                0
            } else if lo <= 1 && 1 <= hi {
                1
            } else if hi < 0 {
                hi
            } else {
                lo
            });
        }
        if c == i64::MAX {
            if bounds.last() == Some(&i64::MAX) {
                out.push(i64::MAX);
            }
            break;
        }
        lo = c;
    }
    out.sort_unstable();
    out.dedup();
    out
}

impl Analysis<'_> {
    fn run(&mut self) {
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
                            let v = match value {
                                Some(e) => self.eval(f, e),
                                None => konst(0),
                            };
                            self.join(f, name, v);
                        }
                        InstKind::Phi { name, incoming } => {
                            for (_, e) in incoming {
                                let v = self.eval(f, e);
                                self.join(f, name, v);
                            }
                        }
                        InstKind::Observe | InstKind::Token { .. } => {}
                    }
                }
                match &block.term {
                    Term::CondBr { cond, .. } => self.truth(f, cond),
                    Term::Switch { value, cases, .. } => {
                        let v = self.eval(f, value);
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
                    UnOp::SExt(_) | UnOp::ZExt(_) => {
                        let op = *op;
                        map_lin(&v, |m, c| Some((m, c)), move |x| crate::expr::unary(op, x))
                    }
                }
            }
            Expr::Binary(op, a, b) => {
                let x = self.eval(f, a);
                let y = self.eval(f, b);
                if let Some(kind) = cmp_of(*op) {
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
                    CallKind::Op(o) | CallKind::Plain(o) | CallKind::Oracle(o) => {
                        BTreeSet::from([self.oracle(o)])
                    }
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
                ..
            } => {
                let i = self.eval(f, index);
                self.index(*space, i, index);
                self.eval(f, value)
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
                    self.facts(s)
                        .inexact
                        .insert(format!("{text} (compared with a value the analysis does not follow)"));
                }
            }
            (Alt::Unknown(t), _) => {
                for s in t {
                    if *s == counter {
                        continue;
                    }
                    self.facts(s)
                        .inexact
                        .insert(format!("{text} (through arithmetic the analysis does not invert)"));
                }
            }
            (Alt::Const(_), _) => {}
        }
    }
}

/// The pseudo-subject that marks a loop counter in an abstract value.
const COUNTER: &str = "#counter";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_is_an_inverse() {
        for a in [1i64, 3, 5, -1, -3, 12345679, i64::MAX] {
            assert_eq!(a.wrapping_mul(inverse(a)), 1, "{a}");
        }
    }

    #[test]
    fn representatives_cover_every_interval() {
        let cuts: BTreeSet<i64> = [2, 3].into_iter().collect();
        assert_eq!(representatives(&cuts), vec![0, 2, 3]);
        let cuts: BTreeSet<i64> = [-5, -4, 7].into_iter().collect();
        assert_eq!(representatives(&cuts), vec![-6, -5, 0, 7]);
        assert_eq!(representatives(&BTreeSet::new()), vec![0]);
        let cuts: BTreeSet<i64> = [i64::MAX].into_iter().collect();
        assert_eq!(representatives(&cuts), vec![0, i64::MAX]);
    }
}
