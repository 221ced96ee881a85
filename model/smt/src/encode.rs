//! The relational core shared by both levels: a finite candidate execution
//! (instances per thread in sequenced-before order), an unknown
//! converged-with relation, convergence-before as an explicit relation, and
//! the maximal-convergence clause (LLVM ConvergenceAndUniformity, "Maximal
//! Convergence"; notes 1.3-1.4; DESIGN.md 2.5).
//!
//! **Variables.** One Bool `conv(x, y)` per pair of instances of the same
//! static id in different threads (the relation is symmetric by
//! construction), and auxiliary Bools for convergence-before.
//!
//! **Axioms** (converged-with is "a transitive symmetric relation over
//! dynamic instances produced by different threads for the same static
//! instance"; convergence-before is a strict partial order):
//!
//! - *one partner per thread*: `conv(x, y) & conv(x, y')` is false for
//!   `y != y'` of one thread (transitivity would make `y ~ y'`, two
//!   instances of one thread);
//! - *transitivity* for three threads or more;
//! - *acyclicity*: with three threads or more, integer ranks (DESIGN.md
//!   2.5): `rank` strictly increases along sequenced-before and
//!   `conv(x, y) => rank(x) = rank(y)`; ranks exist iff the graph of
//!   sequenced-before edges and converged pairs has no cycle through a
//!   sequenced-before edge, which with transitivity is exactly "the closure
//!   of the three generating rules is irreflexive". With two threads, see
//!   below.
//!
//! **Convergence-before as an explicit relation** (general encoding). The
//! generating edges (notes 1.3): (E1) `p sb q`; (E2) `p sb q1 ~ q2` gives
//! `p -> q2`; (E3) `p1 ~ p2 sb q` gives `p1 -> q`; cb is their transitive
//! closure. Within one thread an acyclic cb is exactly sb. For `p` in thread
//! `i` and `q` in thread `j != i`, classifying the *last* edge of a path
//! into `q` and using that cb is monotone along sb (`cb(p, r)` and `r sb r'`
//! give `cb(p, r')`):
//!
//! ```text
//! cb(p,q) <=>  OR_{Y in T_i, p <sb Y} conv(Y, q)                      (E2, direct)
//!           \/ OR_{l != i,j} OR_{Y in T_l} conv(Y, q) /\ cb(p, pred Y)  (E2 after a path)
//!           \/ conv(p, pred q) \/ cb(p, pred q)                        (E3 direct, E1)
//!           \/ OR_{l != i,j} OR_{r in T_l} conv(r, pred q) /\ cb(p, r) (E3 after a path)
//! ```
//!
//! where `pred q` is the instance just before `q` in its thread (an E3 edge
//! through an earlier `Z <sb pred q` already gives `cb(p, pred q)`). Every
//! `cb(p, x)` on the right has `rank(x) < rank(q)`, so under the rank axiom
//! the equations are well-founded and have exactly one solution: the least
//! fixpoint, the true closure. Variables exist only for sources `p` that are
//! header instances, the only ones the clause asks about. The first two
//! lines are the *arrivals* at `q` through a converged-with edge of `q`;
//! the last two arrive through `pred q`.
//!
//! **Without assuming `X1 ~ X2`** ([`Reading`]). Let `R` be the candidate
//! relation (acyclic). In the equations of targets of rank below
//! `rank(X2)` no pair of `X`'s class occurs, so they keep their values
//! whatever is removed from that class; only the arrivals at `X2` itself
//! can use it. [`Reading::Pair`] removes the one pair `X1 ~ X2` (its
//! direct E2 term). [`Reading::Class`], the default, removes, when
//! `X1 ~ X2` holds, every arrival at `X2` through a converged-with edge of
//! `X2`: with transitivity each such edge `Y ~ X2` puts `X2` in `X1`'s
//! class, so using it is assuming `X1 ~ X2`; when `X1 ~ X2` does not hold,
//! nothing is removed. With two threads the only possible edge is `X1 ~ X2`
//! itself (one partner per thread), so the readings coincide. With three,
//! `Pair` admits relations where two pairs of one class justify each other
//! through the third thread (see [`super::cfg`]).
//!
//! **The clause.** Each instance carries the static ids of the headers it
//! is governed by and the instances it is *within* (enclosing calls, the
//! block instance of an operation, enclosing executions of
//! implementation-defined members). For a pair `(X1, X2)`:
//!
//! ```text
//! conv(X1,X2) <=> AND_{H in headers} ( AND_{H1 <sb X1} cb'(H1, X2) /\ AND_{H2 <sb X2} cb'(H2, X1) )
//!                 /\ AND_k conv(within_k(X1), within_k(X2))
//! ```
//!
//! with `cb'` convergence-before without assuming `X1 ~ X2`. With no header
//! and nothing enclosing (a block in no cycle) the pair is converged. A
//! *free* instance (the start of an execution of an implementation-defined
//! member: a choice, DESIGN.md 2.4) only gets `=>`: it may be converged
//! when the clause allows it, and need not be.
//!
//! **Two threads** (the fast path, cross-checked against the general
//! encoding by the tests). Unfolding the equations with two threads gives
//! the closed form of the notes: `cb(p, q)` iff some converged pair
//! `(y1, y2)` has `p <=sb y1` and `y2 <=sb q`, at least one strictly. With
//! `M(i, j)` = "some converged pair `(y1, y2)` has `y1 >= i` and
//! `y2 <= j`" (exact: `M(i,j) <=> conv(i,j) \/ M(i+1,j) \/ M(i,j-1)`, one
//! grid for all sources) and `N` the same with the threads swapped:
//!
//! - `cb'(H1, X2)` is `M(H1, X2 - 1)`, or, when `X1 ~ X2` does not hold,
//!   also `X2` converged with some `Y` after `H1`; the conjunction over all
//!   `H1 <sb X1` is the one for the last `H1`, since `M` is monotone;
//! - a cycle needs two converged pairs in crossed order, and no crossing
//!   means every generating edge goes forward in one total order, so
//!   acyclicity is `conv(x1, x2) => not M(x1 + 1, x2 - 1)`.

use super::{Ix, Options, Reading, Relation, Unknown};
use std::collections::{BTreeMap, HashMap, HashSet};
use z3::ast::{Bool, Int};
use z3::{Model, Params, SatResult, Solver};

/// The static identity of an instance (a block, a statement, a marker).
pub(crate) type Stat = u64;

/// One instance of the candidate execution.
#[derive(Clone, Debug)]
pub(crate) struct Inst {
    /// Its static identity: only instances with equal `stat` may converge.
    pub stat: Stat,
    /// The index of the event it stands for in the thread's run, `None` for
    /// the instances the engine adds (iteration and execution starts).
    pub event: Option<usize>,
    /// Static ids of the headers of every cycle containing it.
    pub headers: Vec<Stat>,
    /// Instances of the same thread (indices in its instance list) that
    /// must be converged with their counterparts for it to converge:
    /// enclosing calls, the enclosing block instance of an operation,
    /// enclosing executions of implementation-defined members.
    pub within: Vec<usize>,
    /// A choice: the clause only bounds it from above.
    pub free: bool,
}

/// The answer of one satisfiability check.
pub(crate) enum Check {
    Sat(Model),
    Unsat(Vec<Bool>),
    Unknown(Unknown),
}

/// An encoded candidate execution with all axioms asserted.
pub(crate) struct Enc {
    pub solver: Solver,
    pub insts: Vec<Vec<Inst>>,
    conv: BTreeMap<(Ix, Ix), Bool>,
}

fn norm(a: Ix, b: Ix) -> (Ix, Ix) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

fn or(terms: &[Bool]) -> Bool {
    match terms {
        [] => Bool::from_bool(false),
        [one] => one.clone(),
        _ => Bool::or(terms),
    }
}

fn and(terms: &[Bool]) -> Bool {
    match terms {
        [] => Bool::from_bool(true),
        [one] => one.clone(),
        _ => Bool::and(terms),
    }
}

/// Instances of every static id, per thread, ascending.
struct ByStat(Vec<HashMap<Stat, Vec<usize>>>);

impl ByStat {
    fn new(insts: &[Vec<Inst>]) -> ByStat {
        let mut by: Vec<HashMap<Stat, Vec<usize>>> = vec![HashMap::new(); insts.len()];
        for (t, run) in insts.iter().enumerate() {
            for (i, x) in run.iter().enumerate() {
                by[t].entry(x.stat).or_default().push(i);
            }
        }
        ByStat(by)
    }

    fn get(&self, t: usize, s: Stat) -> &[usize] {
        self.0[t].get(&s).map_or(&[], Vec::as_slice)
    }
}

impl Enc {
    /// Encodes `insts` (one list per thread) and asserts every axiom and
    /// the clause for every pair: the two-thread encoding for two threads
    /// unless `options.general`, the general one otherwise.
    pub fn new(insts: Vec<Vec<Inst>>, options: Options) -> Enc {
        let two = insts.len() == 2 && !options.general;
        // The two-thread encoding is propositional; QF_UF makes z3 skip
        // the arithmetic preprocessing, several times faster here.
        let solver = if two {
            Solver::new_for_logic("QF_UF").unwrap_or_default()
        } else {
            Solver::new()
        };
        let mut params = Params::new();
        params.set_u32("timeout", options.timeout_ms);
        solver.set_params(&params);
        let by = ByStat::new(&insts);
        let n = insts.len();
        let mut conv: BTreeMap<(Ix, Ix), Bool> = BTreeMap::new();
        for t in 0..n {
            for u in t + 1..n {
                for (i, x) in insts[t].iter().enumerate() {
                    for &j in by.get(u, x.stat) {
                        conv.insert(((t, i), (u, j)), Bool::fresh_const("conv"));
                    }
                }
            }
        }
        let enc = Enc {
            solver,
            insts,
            conv,
        };
        enc.partners(&by);
        if two {
            enc.two_threads(&by);
        } else {
            enc.general(&by, options.reading);
        }
        enc
    }

    /// One partner per thread, and transitivity.
    fn partners(&self, by: &ByStat) {
        let n = self.insts.len();
        for t in 0..n {
            for (i, x) in self.insts[t].iter().enumerate() {
                for u in (0..n).filter(|&u| u != t) {
                    let ps = by.get(u, x.stat);
                    for a in 0..ps.len() {
                        for b in a + 1..ps.len() {
                            if let (Some(p), Some(q)) =
                                (self.conv((t, i), (u, ps[a])), self.conv((t, i), (u, ps[b])))
                            {
                                self.solver.assert(Bool::and(&[p, q]).not());
                            }
                        }
                    }
                }
            }
        }
        for t in 0..n {
            for u in t + 1..n {
                for v in u + 1..n {
                    for (i, x) in self.insts[t].iter().enumerate() {
                        for &j in by.get(u, x.stat) {
                            for &k in by.get(v, x.stat) {
                                let (Some(ab), Some(bc), Some(ac)) = (
                                    self.conv((t, i), (u, j)),
                                    self.conv((u, j), (v, k)),
                                    self.conv((t, i), (v, k)),
                                ) else {
                                    continue;
                                };
                                self.solver.assert(Bool::and(&[ab, bc]).implies(ac));
                                self.solver.assert(Bool::and(&[ab, ac]).implies(bc));
                                self.solver.assert(Bool::and(&[ac, bc]).implies(ab));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The within-conditions of a pair.
    fn within(&self, a: Ix, b: Ix) -> Vec<Bool> {
        let (xa, xb) = (&self.insts[a.0][a.1], &self.insts[b.0][b.1]);
        if xa.within.len() != xb.within.len() {
            return vec![Bool::from_bool(false)];
        }
        xa.within
            .iter()
            .zip(&xb.within)
            .map(|(&wa, &wb)| {
                self.conv((a.0, wa), (b.0, wb))
                    .cloned()
                    .unwrap_or_else(|| Bool::from_bool(false))
            })
            .collect()
    }

    /// Asserts the clause of a pair from its two directions.
    fn clause(&self, a: Ix, b: Ix, forward: Vec<Bool>, backward: Vec<Bool>) {
        let v = &self.conv[&(a, b)];
        let within = self.within(a, b);
        let mut need = forward;
        need.extend(within.iter().cloned());
        self.solver.assert(v.implies(and(&need)));
        if !self.insts[a.0][a.1].free {
            let mut enough = backward;
            enough.extend(within);
            self.solver.assert(and(&enough).implies(v));
        }
    }

    /// The two-thread encoding (see the module documentation).
    fn two_threads(&self, by: &ByStat) {
        let (n0, n1) = (self.insts[0].len(), self.insts[1].len());
        // m[i][j] for i in 0..=n0, j in 0..=n1 stands for M(i, j - 1):
        // a converged pair (y0, y1) with y0 >= i and y1 <= j - 1. Row n0
        // and column 0 are false.
        let grid = |rows: usize, cols: usize, c: &dyn Fn(usize, usize) -> Option<Bool>| {
            let f = Bool::from_bool(false);
            let mut m = vec![vec![f.clone(); cols + 1]; rows + 1];
            for i in (0..rows).rev() {
                for j in 1..=cols {
                    let v = Bool::fresh_const("m");
                    let mut terms = vec![m[i + 1][j].clone(), m[i][j - 1].clone()];
                    terms.extend(c(i, j - 1));
                    self.solver.assert(v.iff(or(&terms)));
                    m[i][j] = v;
                }
            }
            m
        };
        let m = grid(n0, n1, &|i, j| self.conv((0, i), (1, j)).cloned());
        let nn = grid(n1, n0, &|j, i| self.conv((0, i), (1, j)).cloned());
        // M(i, j) with j possibly -1.
        let mref = |g: &Vec<Vec<Bool>>, i: usize, j: usize| -> Bool { g[i][j].clone() };
        for (&(a, b), v) in &self.conv {
            // No crossing pair.
            self.solver.assert(v.implies(mref(&m, a.1 + 1, b.1).not()));
            let (xa, xb) = (&self.insts[0][a.1], &self.insts[1][b.1]);
            let mut forward = Vec::new();
            let mut backward = Vec::new();
            for &h in &xa.headers {
                // The last instance of h strictly before each.
                if let Some(&h0) = by.get(0, h).iter().rev().find(|&&h0| h0 < a.1) {
                    let reach = mref(&m, h0, b.1);
                    // X2 converged with some Y after h0 (when X1 ~ X2 does
                    // not hold, a legitimate arrival).
                    let other: Vec<Bool> = by
                        .get(0, xb.stat)
                        .iter()
                        .filter(|&&y| y > h0)
                        .filter_map(|&y| self.conv((0, y), b).cloned())
                        .collect();
                    backward.push(Bool::or(&[reach.clone(), or(&other)]));
                    forward.push(reach);
                }
                if let Some(&h1) = by.get(1, h).iter().rev().find(|&&h1| h1 < b.1) {
                    let reach = mref(&nn, h1, a.1);
                    let other: Vec<Bool> = by
                        .get(1, xa.stat)
                        .iter()
                        .filter(|&&y| y > h1)
                        .filter_map(|&y| self.conv(a, (1, y)).cloned())
                        .collect();
                    backward.push(Bool::or(&[reach.clone(), or(&other)]));
                    forward.push(reach);
                }
            }
            self.clause(a, b, forward, backward);
        }
    }

    /// The general encoding: explicit convergence-before from every header
    /// instance, ranks for acyclicity.
    fn general(&self, by: &ByStat, reading: Reading) {
        let n = self.insts.len();
        let insts = &self.insts;
        // Ranks.
        let ranks: Vec<Vec<Int>> = insts
            .iter()
            .map(|run| (0..run.len()).map(|_| Int::fresh_const("rank")).collect())
            .collect();
        for r in &ranks {
            for w in r.windows(2) {
                self.solver.assert(w[0].lt(&w[1]));
            }
        }
        for (&(a, b), v) in &self.conv {
            self.solver
                .assert(v.implies(ranks[a.0][a.1].eq(&ranks[b.0][b.1])));
        }
        // Convergence-before from every source.
        let header_stats: HashSet<Stat> = insts
            .iter()
            .flatten()
            .flat_map(|x| x.headers.iter().copied())
            .collect();
        let sources: Vec<Ix> = insts
            .iter()
            .enumerate()
            .flat_map(|(t, run)| {
                run.iter()
                    .enumerate()
                    .filter(|(_, x)| header_stats.contains(&x.stat))
                    .map(move |(i, _)| (t, i))
            })
            .collect();
        let mut cbvars: HashMap<(Ix, Ix), Bool> = HashMap::new();
        for &p in &sources {
            for j in (0..n).filter(|&j| j != p.0) {
                for q in 0..insts[j].len() {
                    cbvars.insert((p, (j, q)), Bool::fresh_const("cb"));
                }
            }
        }
        // (arrivals with their partner, other terms) of every cb(p, q).
        type Terms = (Vec<(Ix, Bool)>, Vec<Bool>);
        let mut terms: HashMap<(Ix, Ix), Terms> = HashMap::new();
        for &p in &sources {
            let i = p.0;
            for j in (0..n).filter(|&j| j != i) {
                for qi in 0..insts[j].len() {
                    let q = (j, qi);
                    let qs = insts[j][qi].stat;
                    let mut arrivals = Vec::new();
                    for &y in by.get(i, qs) {
                        if y > p.1 {
                            if let Some(c) = self.conv((i, y), q) {
                                arrivals.push(((i, y), c.clone()));
                            }
                        }
                    }
                    let mut rest = Vec::new();
                    if qi > 0 {
                        let pq = (j, qi - 1);
                        rest.extend(self.conv(p, pq).cloned());
                        rest.push(cbvars[&(p, pq)].clone());
                    }
                    for l in (0..n).filter(|&l| l != i && l != j) {
                        for &y in by.get(l, qs) {
                            if let (true, Some(c)) = (y > 0, self.conv((l, y), q)) {
                                let t = Bool::and(&[c, &cbvars[&(p, (l, y - 1))]]);
                                arrivals.push(((l, y), t));
                            }
                        }
                        if qi > 0 {
                            for &r in by.get(l, insts[j][qi - 1].stat) {
                                if let Some(c) = self.conv((l, r), (j, qi - 1)) {
                                    rest.push(Bool::and(&[c, &cbvars[&(p, (l, r))]]));
                                }
                            }
                        }
                    }
                    let mut all: Vec<Bool> = arrivals.iter().map(|d| d.1.clone()).collect();
                    all.extend(rest.iter().cloned());
                    self.solver.assert(cbvars[&(p, q)].iff(or(&all)));
                    terms.insert((p, q), (arrivals, rest));
                }
            }
        }
        // cb from `h` to `q` without assuming `x ~ q` (`x` in h's thread).
        let without = |h: Ix, q: Ix, x: Ix| -> Bool {
            let (arrivals, rest) = &terms[&(h, q)];
            match reading {
                Reading::Pair => {
                    let mut t: Vec<Bool> = arrivals
                        .iter()
                        .filter(|(y, _)| *y != x)
                        .map(|d| d.1.clone())
                        .collect();
                    t.extend(rest.iter().cloned());
                    or(&t)
                }
                Reading::Class => {
                    let arr: Vec<Bool> = arrivals.iter().map(|d| d.1.clone()).collect();
                    let arr = match self.conv(x, q) {
                        Some(xq) => Bool::and(&[&xq.not(), &or(&arr)]),
                        None => or(&arr),
                    };
                    Bool::or(&[or(rest), arr])
                }
            }
        };
        for &(a, b) in self.conv.keys() {
            let xa = &insts[a.0][a.1];
            let mut conds = Vec::new();
            for &h in &xa.headers {
                for &h1 in by.get(a.0, h).iter().filter(|&&h1| h1 < a.1) {
                    conds.push(without((a.0, h1), b, a));
                }
                for &h2 in by.get(b.0, h).iter().filter(|&&h2| h2 < b.1) {
                    conds.push(without((b.0, h2), a, b));
                }
            }
            self.clause(a, b, conds.clone(), conds);
        }
    }

    /// The variable of a pair, if the two instances can converge at all.
    pub fn conv(&self, a: Ix, b: Ix) -> Option<&Bool> {
        self.conv.get(&norm(a, b))
    }

    /// Every pair and its variable.
    pub fn pairs(&self) -> impl Iterator<Item = (Ix, Ix, &Bool)> {
        self.conv.iter().map(|(&(a, b), v)| (a, b, v))
    }

    /// Checks satisfiability under `assumptions`; `unknown` keeps its
    /// reason.
    pub fn check(&self, assumptions: &[Bool]) -> Check {
        let r = if assumptions.is_empty() {
            self.solver.check()
        } else {
            self.solver.check_assumptions(assumptions)
        };
        match r {
            SatResult::Sat => match self.solver.get_model() {
                Some(m) => Check::Sat(m),
                None => Check::Unknown(Unknown::incomplete("z3 said sat but gave no model")),
            },
            SatResult::Unsat => Check::Unsat(self.solver.get_unsat_core()),
            SatResult::Unknown => Check::Unknown(Unknown::from_z3(
                &self
                    .solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into()),
            )),
        }
    }

    /// The value of a variable in a model.
    pub fn value(model: &Model, v: &Bool) -> bool {
        model
            .eval(v, true)
            .and_then(|b| b.as_bool())
            .unwrap_or(false)
    }

    /// The relation of a model, over instances.
    pub fn relation(&self, model: &Model) -> BTreeMap<(Ix, Ix), bool> {
        self.conv
            .iter()
            .map(|(&k, v)| (k, Enc::value(model, v)))
            .collect()
    }

    /// The literal that says `pair` has value `value`.
    pub fn literal(&self, a: Ix, b: Ix, value: bool) -> Option<Bool> {
        self.conv(a, b)
            .map(|v| if value { v.clone() } else { v.not() })
    }

    /// Maps a relation over instances to one over events (pairs of
    /// instances the engine added are dropped).
    pub fn on_events(&self, rel: &BTreeMap<(Ix, Ix), bool>) -> Relation {
        let mut out = BTreeMap::new();
        for (&(a, b), &v) in rel {
            if let (Some(ea), Some(eb)) = (self.insts[a.0][a.1].event, self.insts[b.0][b.1].event) {
                out.insert(norm((a.0, ea), (b.0, eb)), v);
            }
        }
        Relation { converged: out }
    }
}
