//! Proof by matching: the way the engine proves *preserved* without
//! reasoning about whole paths.
//!
//! The monolithic query of [`super::query`] is exact, but refuting it makes
//! the solver show, path by path, that the event at a chosen position is
//! pinned down: measured on the seed's loop_nest under
//! `simplifycfg<keep-loops>`, its time grows about tenfold per iteration
//! of the bound (0.17 s, 2.2 s, 21 s, 222 s for max-iters 1 to 4). The
//! facts below are each local to a pair of events, so the solver proves
//! them quickly (about a hundred in 0.1 s at max-iters 10 on the same
//! example), and together they imply both properties.
//!
//! Let `E` and `F` be the event records of thread 0 in the reference and
//! the target, each with guard `g`, position `pos`, a static tag and an
//! address or predicate. A *matching* is a set `M` of pairs `(e, f)` with
//! equal tags; `e` and `f` are *aligned* when both happen at the same
//! position: `A(e, f) = g_e /\ g_f /\ pos_e = pos_f`. Within bounds
//! (`ref_ok /\ tgt_ok`), the engine proves
//!
//! 1. *coverage*: every `e` implies `OR_{(e,f) in M} A(e, f)`, and every
//!    `f` implies `OR_{(e,f) in M} A(e, f)`;
//! 2. *data*: `A(e, f)` implies equal values (addresses, arguments) and
//!    predicates.
//!
//! Since a run has one event per position, 1 and 2 say the sequences are
//! equal: single-thread behaviour holds, for thread 0 and, the encoding
//! being symmetric in the two threads, for thread 1. Then the event at a
//! position is the same in both programs up to `M`, and convergence can
//! only differ through a *conflict*: thread 0 aligned on sites `(a, b)`
//! and thread 1 on `(a, b')` with `b != b'` (converged in the reference,
//! not in the target), or on `(a, b)` and `(a', b)` with `a != a'`. The
//! last query asks whether a conflict is reachable; when the sites of `M`
//! form a bijection there is none to ask about.
//!
//! `M` is found by refinement: a model of "some event is not covered" is a
//! scenario whose aligned events give new pairs, or, when the two
//! sequences differ in it, a counterexample. Every query runs under the
//! caller's deadline; a query the solver cannot decide makes the proof
//! fail, and the caller falls back to the monolithic query.

use super::query::Query;
use super::replay::holds;
use super::symex::{Ev, Run};
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::{Bool, BV};
use z3::Model;

/// The outcome of a matching proof.
pub(crate) enum Matching {
    /// Both properties hold within bounds.
    Proved {
        /// Pairs in the matching.
        pairs: usize,
        /// Refinement rounds (solver calls finding new pairs).
        rounds: usize,
    },
    /// A scenario (within bounds) in which a property fails.
    Witness(Model),
    /// The proof did not go through (the reason); not an answer.
    Failed(String),
}

/// At most this many refinement rounds.
const MAX_ROUNDS: usize = 20_000;

fn or_all(terms: &[Bool]) -> Bool {
    match terms {
        [] => Bool::from_bool(false),
        [one] => one.clone(),
        _ => Bool::or(terms),
    }
}

fn aligned(e: &Ev, f: &Ev) -> Bool {
    Bool::and(&[e.guard.clone(), f.guard.clone(), e.pos.eq(&f.pos)])
}

fn value(model: &Model, v: &BV) -> Option<u64> {
    model.eval(v, true).and_then(|x| x.as_u64())
}

/// The active events of a run in a model, by position.
fn active(model: &Model, events: &[Ev]) -> BTreeMap<u64, usize> {
    let mut out = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        if holds(model, &e.guard) {
            if let Some(p) = value(model, &e.pos) {
                out.insert(p, i);
            }
        }
    }
    out
}

/// Whether two aligned events carry the same data in a model.
fn same_data(model: &Model, e: &Ev, f: &Ev) -> bool {
    // LangRef's refinement of observed values (`Ev::defined`).
    let addr = e.vals.len() == f.vals.len()
        && e.vals.iter().zip(&f.vals).enumerate().all(|(i, (a, b))| {
            let def = |x: &Ev| x.defined_at(i).is_none_or(|d| holds(model, d));
            !def(e) || (def(f) && value(model, a) == value(model, b))
        });
    let pred = match (&e.pred, &f.pred) {
        (Some(a), Some(b)) => holds(model, a) == holds(model, b),
        (None, None) => true,
        _ => false,
    };
    addr && pred
}

/// A satisfiability question under assumptions: `Ok(Some(model))`,
/// `Ok(None)` for unsat, `Err(reason)` for unknown.
pub(crate) type Check<'a> = dyn Fn(&[Bool]) -> Result<Option<Model>, crate::Unknown> + 'a;

/// Proves single-thread behaviour and convergence by matching (see the
/// module documentation). `check` answers a satisfiability question under
/// the given assumptions (besides the query's definitions).
pub(crate) fn prove(q: &Query, runs: &[[Run; 2]; 2], check: &Check) -> Matching {
    let (re, te) = (&runs[0][0].events, &runs[1][0].events);
    if runs[0][1].events.len() != re.len() || runs[1][1].events.len() != te.len() {
        return Matching::Failed("internal: the two threads' encodings differ in shape".into());
    }
    // The matching, both ways.
    let mut of_ref: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); re.len()];
    let mut of_tgt: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); te.len()];
    let mut rounds = 0;
    loop {
        if rounds >= MAX_ROUNDS {
            return Matching::Failed(format!("more than {MAX_ROUNDS} refinement rounds"));
        }
        let mut uncovered = Vec::new();
        for (i, e) in re.iter().enumerate() {
            let cov: Vec<Bool> = of_ref[i].iter().map(|&j| aligned(e, &te[j])).collect();
            uncovered.push(Bool::and(&[e.guard.clone(), or_all(&cov).not()]));
        }
        for (j, f) in te.iter().enumerate() {
            let cov: Vec<Bool> = of_tgt[j].iter().map(|&i| aligned(&re[i], f)).collect();
            uncovered.push(Bool::and(&[f.guard.clone(), or_all(&cov).not()]));
        }
        let lit = Bool::fresh_const("uncovered");
        q.solver.assert(lit.implies(or_all(&uncovered)));
        let model = match check(&[q.ref_ok.clone(), q.tgt_ok.clone(), lit]) {
            Err(e) => return Matching::Failed(format!("coverage: {e}")),
            Ok(None) => break,
            Ok(Some(m)) => m,
        };
        rounds += 1;
        let (ar, at) = (active(&model, re), active(&model, te));
        let positions: BTreeSet<u64> = ar.keys().chain(at.keys()).copied().collect();
        let mut added = false;
        for p in positions {
            match (ar.get(&p), at.get(&p)) {
                (Some(&i), Some(&j)) if re[i].tag == te[j].tag => {
                    if !same_data(&model, &re[i], &te[j]) {
                        return Matching::Witness(model);
                    }
                    if of_ref[i].insert(j) {
                        of_tgt[j].insert(i);
                        added = true;
                    }
                }
                // The sequences differ in this scenario.
                _ => return Matching::Witness(model),
            }
        }
        if !added {
            return Matching::Failed("internal: a coverage model added no pair".into());
        }
    }
    let pairs: Vec<(usize, usize)> = of_ref
        .iter()
        .enumerate()
        .flat_map(|(i, js)| js.iter().map(move |&j| (i, j)))
        .collect();
    // Data of aligned pairs.
    let differs: Vec<Bool> = pairs
        .iter()
        .filter(|&&(i, j)| {
            !re[i].vals.is_empty()
                || re[i].pred.is_some()
                || !te[j].vals.is_empty()
                || te[j].pred.is_some()
        })
        .map(|&(i, j)| {
            let (e, f) = (&re[i], &te[j]);
            let mut d = Vec::new();
            for (k, (a, b)) in e.vals.iter().zip(&f.vals).enumerate() {
                // LangRef's refinement of observed values (`Ev::defined`).
                let differs = a.eq(b).not();
                d.push(match (e.defined_at(k), f.defined_at(k)) {
                    (None, None) => differs,
                    (de, df) => {
                        let t = Bool::from_bool(true);
                        let (de, df) = (de.unwrap_or(&t), df.unwrap_or(&t));
                        Bool::and(&[de.clone(), Bool::or(&[df.not(), differs])])
                    }
                });
            }
            if let (Some(a), Some(b)) = (&e.pred, &f.pred) {
                d.push(a.eq(b).not());
            }
            Bool::and(&[aligned(e, f), or_all(&d)])
        })
        .collect();
    if !differs.is_empty() {
        let lit = Bool::fresh_const("data");
        q.solver.assert(lit.implies(or_all(&differs)));
        match check(&[q.ref_ok.clone(), q.tgt_ok.clone(), lit]) {
            Err(e) => return Matching::Failed(format!("data: {e}")),
            Ok(Some(m)) => return Matching::Witness(m),
            Ok(None) => {}
        }
    }
    // Conflicts of convergence.
    match conflicts(q, runs, &pairs) {
        None => {}
        Some(conflict) => {
            let lit = Bool::fresh_const("conflict");
            q.solver.assert(lit.implies(conflict));
            match check(&[q.ref_ok.clone(), q.tgt_ok.clone(), lit]) {
                Err(e) => return Matching::Failed(format!("convergence: {e}")),
                Ok(Some(m)) => return Matching::Witness(m),
                Ok(None) => {}
            }
        }
    }
    Matching::Proved {
        pairs: pairs.len(),
        rounds,
    }
}

/// The formula "some convergence conflict happens", or `None` when the
/// matched sites form a bijection.
fn conflicts(q: &Query, runs: &[[Run; 2]; 2], pairs: &[(usize, usize)]) -> Option<Bool> {
    // Aligned pairs of convergent events, by (reference site, target site).
    let mut by_sites: BTreeMap<(u32, u32), Vec<(usize, usize)>> = BTreeMap::new();
    for &(i, j) in pairs {
        let (e, f) = (&runs[0][0].events[i], &runs[1][0].events[j]);
        if e.convergent && f.convergent {
            by_sites.entry((e.site, f.site)).or_default().push((i, j));
        }
    }
    let mut partners_of_ref: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut partners_of_tgt: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for &(a, b) in by_sites.keys() {
        partners_of_ref.entry(a).or_default().push(b);
        partners_of_tgt.entry(b).or_default().push(a);
    }
    // Thread t is aligned on sites (a, b).
    let on = |t: usize, a: u32, b: u32| -> Bool {
        let list = &by_sites[&(a, b)];
        or_all(
            &list
                .iter()
                .map(|&(i, j)| aligned(&runs[0][t].events[i], &runs[1][t].events[j]))
                .collect::<Vec<_>>(),
        )
    };
    let mut out = Vec::new();
    // One site of one program, several of the other: each thread's
    // partner of it is named by a selector; a conflict is two threads on
    // that site with different partners.
    for (one_is_ref, partners) in [(true, &partners_of_ref), (false, &partners_of_tgt)] {
        for (&x, others) in partners {
            if others.len() < 2 {
                continue;
            }
            let mut at = Vec::new();
            let mut sel = Vec::new();
            for t in 0..2 {
                let s = BV::fresh_const("partner", q.site_w);
                let mut any = Vec::new();
                for &y in others {
                    let (a, b) = if one_is_ref { (x, y) } else { (y, x) };
                    let here = on(t, a, b);
                    q.solver
                        .assert(here.implies(s.eq(BV::from_u64(u64::from(y), q.site_w))));
                    any.push(here);
                }
                at.push(or_all(&any));
                sel.push(s);
            }
            out.push(Bool::and(&[
                at[0].clone(),
                at[1].clone(),
                sel[0].eq(&sel[1]).not(),
            ]));
        }
    }
    if out.is_empty() {
        None
    } else {
        Some(or_all(&out))
    }
}
