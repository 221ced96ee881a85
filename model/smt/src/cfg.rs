//! CFG level: LLVM's relational definition of *maximal converged-with*
//! (ConvergenceAndUniformity, "Maximal Convergence"; notes 1.3-1.4).
//!
//! For a cycle hierarchy ([`CycleInfo`]), dynamic instances `X1` and `X2`
//! of block `X`, produced by different threads, are converged iff
//!
//! - `X` is not contained in any cycle, or
//! - for every cycle `C` containing `X`, with header `H`: every instance
//!   `H1` of `H` strictly before `X1` in its thread is convergence-before
//!   `X2`, and every `H2` strictly before `X2` is convergence-before `X1`,
//!   both evaluated without assuming `X1 ~ X2`,
//!
//! where convergence-before is the closure of the three rules of the doc
//! (notes 1.3) and must stay a strict partial order, and converged-with is
//! transitive and symmetric over instances of the same block in different
//! threads. The encoding of these axioms, and why its convergence-before is
//! exactly the closure, is in the private `encode` module.
//!
//! The runs are one invocation of the function whose hierarchy is given,
//! per thread; only [`EventKind::Block`] events are read (other events are
//! ignored). [`maximal_convergence`] solves for converged-with and then
//! checks that the solution is unique (the negation of the solution found is
//! asserted; unsat means unique). [`agrees_with_keys`] checks that the key
//! rule of DESIGN.md 2.3 (two instances converged iff their keys are equal)
//! yields exactly that unique solution: first that the key relation
//! satisfies the axioms (if not, an unsat core names the key facts that
//! conflict), then that no other relation does.
//!
//! **Reading "without assuming `X1 ~ X2`".** Literally removing the one
//! pair `X1 ~ X2` before computing convergence-before ([`Reading::Pair`](super::Reading::Pair))
//! is enough for two threads, where the definition then has exactly one
//! solution, the key relation. With three threads it is not: on the
//! natural loop `n0 -> n1 -> n2 -> {n3, n1}, n3 -> {n4, n1}` (header `n1`),
//! with thread 2 leaving after two iterations and threads 0 and 1 after
//! three, a second acyclic solution converges thread 2's `n3` of iteration 1
//! with the `n3` of iteration 2 of threads 0 and 1. Each of the two pairs is
//! justified without itself through the other and the third thread
//! (`H ~ H' sb Y ~ X2`), but the two together, by transitivity, are
//! `X1 ~ X2`. The default, [`Reading::Class`](super::Reading::Class), computes convergence-before
//! without any converged-with edge into `X2` when `X1 ~ X2` holds (each
//! such edge puts `X2` in `X1`'s class); it coincides with `Pair` for two
//! threads and has, on every case tested, the key relation as its unique
//! solution for three (the encoding is in the private `encode` module).
//!
//! [`cfg_relation`] does the same for a whole program at the CFG level
//! (several functions, convergent operations inside blocks): a call's
//! callee instances are converged only if the calls are (DESIGN.md 2.4:
//! distinct calls never converge), and an operation's instances are
//! converged iff their block instances are. Programs with
//! convergence-control tokens are not modelled (an `Unknown` answer).

use super::encode::{Check, Enc, Inst, Stat};
use super::events::place;
use super::{describe_pairs, Answer, Ix, Options, Relation, Unknown};
use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{Event, EventKind};
use convcheck_ir::InstKind;
use convcheck_ir::OpId as StmtId;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use z3::ast::Bool;

/// Why a definition does not pin down one relation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotUnique {
    /// No relation satisfies the axioms.
    NoSolution,
    /// Two relations do.
    Several {
        /// One solution.
        first: Relation,
        /// Another one.
        second: Relation,
    },
}

impl fmt::Display for NotUnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotUnique::NoSolution => write!(f, "no converged-with relation satisfies the axioms"),
            NotUnique::Several { first, second } => write!(
                f,
                "two relations satisfy the axioms; they differ at {}",
                describe_pairs(&first.differences(second))
            ),
        }
    }
}

/// How the key relation and the relational definition disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disagreement {
    /// The axioms alone are unsatisfiable: any proof would be vacuous.
    Vacuous,
    /// The key relation is not a solution: these key facts (an unsat core,
    /// `true` for converged) contradict the definition together.
    KeysNotASolution {
        /// The conflicting facts.
        core: Vec<(Ix, Ix, bool)>,
    },
    /// The key relation is a solution but not the only one: another
    /// solution differs from it at these pairs (with the keys' value).
    NotUnique {
        /// Where the other solution differs.
        differs: Vec<(Ix, Ix, bool)>,
    },
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disagreement::Vacuous => write!(f, "the axioms are unsatisfiable"),
            Disagreement::KeysNotASolution { core } => write!(
                f,
                "the key relation violates the definition; conflicting key facts \
                 (thread.event, ~ converged, / apart): {}",
                describe_pairs(core)
            ),
            Disagreement::NotUnique { differs } => write!(
                f,
                "the key relation is not the only solution; another one differs at \
                 (keys' values): {}",
                describe_pairs(differs)
            ),
        }
    }
}

/// The static id of block `b` of function `f`.
fn block_stat(f: usize, b: usize) -> Stat {
    (1 << 56) | ((f as u64 & 0xff_ffff) << 32) | (b as u64 & 0xffff_ffff)
}

/// The static id of the `occ`-th instance of operation `sid` in one block
/// instance.
fn op_stat(sid: StmtId, occ: u32) -> Stat {
    (2 << 56) | ((u64::from(occ) & 0xff_ffff) << 32) | u64::from(sid.0)
}

fn block_insts(ci: &CycleInfo, run: &[Event]) -> Result<Vec<Inst>, String> {
    let mut out = Vec::new();
    for (i, e) in run.iter().enumerate() {
        if let EventKind::Block(b) = e.kind {
            let b = b as usize;
            let Some(cs) = ci.containing.get(b) else {
                return Err(format!("block {b} is not in the cycle hierarchy"));
            };
            out.push(Inst {
                stat: block_stat(0, b),
                event: Some(i),
                headers: cs
                    .iter()
                    .map(|&c| block_stat(0, ci.cycles[c].header))
                    .collect(),
                within: Vec::new(),
                free: false,
            });
        }
    }
    Ok(out)
}

/// Solves and checks uniqueness; the relation is over instances.
pub(crate) fn solve_unique(enc: &Enc) -> Answer<BTreeMap<(Ix, Ix), bool>, NotUnique> {
    let rel = match enc.check(&[]) {
        Check::Sat(m) => enc.relation(&m),
        Check::Unsat(_) => return Answer::Counterexample(NotUnique::NoSolution),
        Check::Unknown(why) => return Answer::Unknown(why),
    };
    let lits: Vec<Bool> = rel
        .iter()
        .filter_map(|(&(a, b), &v)| enc.literal(a, b, v))
        .collect();
    enc.solver.push();
    enc.solver.assert(Bool::and(&lits).not());
    let out = match enc.check(&[]) {
        Check::Unsat(_) => Answer::Proved(rel),
        Check::Sat(m) => {
            let other = enc.relation(&m);
            Answer::Counterexample(NotUnique::Several {
                first: enc.on_events(&rel),
                second: enc.on_events(&other),
            })
        }
        Check::Unknown(why) => Answer::Unknown(why),
    };
    enc.solver.pop(1);
    out
}

/// LLVM's maximal converged-with for `ci` over the runs (one invocation per
/// thread), if the definition has exactly one solution.
pub fn maximal_convergence(ci: &CycleInfo, runs: &[&[Event]]) -> Answer<Relation, NotUnique> {
    maximal_convergence_with(ci, runs, Options::default())
}

/// [`maximal_convergence`] with explicit options.
pub fn maximal_convergence_with(
    ci: &CycleInfo,
    runs: &[&[Event]],
    options: Options,
) -> Answer<Relation, NotUnique> {
    let mut insts = Vec::new();
    for r in runs {
        match block_insts(ci, r) {
            Ok(x) => insts.push(x),
            Err(e) => return Answer::Unknown(Unknown::incomplete(e)),
        }
    }
    let enc = Enc::new(insts, options);
    match solve_unique(&enc) {
        Answer::Proved(rel) => Answer::Proved(enc.on_events(&rel)),
        Answer::Counterexample(c) => Answer::Counterexample(c),
        Answer::Unknown(w) => Answer::Unknown(w),
    }
}

/// Whether the key relation on block instances (converged iff keys equal)
/// is the unique solution of LLVM's relational definition.
pub fn agrees_with_keys(ci: &CycleInfo, runs: &[&[Event]]) -> Answer<(), Disagreement> {
    agrees_with_keys_with(ci, runs, Options::default())
}

/// [`agrees_with_keys`] with explicit options.
pub fn agrees_with_keys_with(
    ci: &CycleInfo,
    runs: &[&[Event]],
    options: Options,
) -> Answer<(), Disagreement> {
    let mut insts = Vec::new();
    for r in runs {
        match block_insts(ci, r) {
            Ok(x) => insts.push(x),
            Err(e) => return Answer::Unknown(Unknown::incomplete(e)),
        }
    }
    let enc = Enc::new(insts, options);
    let event = |x: Ix| -> Ix { (x.0, enc.insts[x.0][x.1].event.unwrap_or(usize::MAX)) };
    // The key relation, one tracked literal per pair.
    let mut tracks = Vec::new();
    let mut lits = Vec::new();
    let mut named: HashMap<String, (Ix, Ix, bool)> = HashMap::new();
    let pairs: Vec<(Ix, Ix)> = enc.pairs().map(|(a, b, _)| (a, b)).collect();
    for (a, b) in pairs {
        let (ea, eb) = (event(a), event(b));
        let equal = runs[ea.0][ea.1].key == runs[eb.0][eb.1].key;
        let Some(lit) = enc.literal(a, b, equal) else {
            continue;
        };
        let t = Bool::fresh_const("key");
        enc.solver.assert(t.implies(&lit));
        named.insert(t.to_string(), (ea, eb, equal));
        tracks.push(t);
        lits.push(lit);
    }
    // The key relation must satisfy the axioms (which also shows that the
    // axioms are satisfiable, so the uniqueness proof below is not vacuous).
    match enc.check(&tracks) {
        Check::Sat(_) => {}
        Check::Unsat(core) => {
            match enc.check(&[]) {
                Check::Sat(_) => {}
                Check::Unsat(_) => return Answer::Counterexample(Disagreement::Vacuous),
                Check::Unknown(why) => return Answer::Unknown(why),
            }
            let mut c: Vec<(Ix, Ix, bool)> = core
                .iter()
                .filter_map(|b| named.get(&b.to_string()).copied())
                .collect();
            c.sort();
            return Answer::Counterexample(Disagreement::KeysNotASolution { core: c });
        }
        Check::Unknown(why) => return Answer::Unknown(why),
    }
    enc.solver.push();
    enc.solver.assert(Bool::and(&lits).not());
    let out = match enc.check(&[]) {
        Check::Unsat(_) => Answer::Proved(()),
        Check::Sat(m) => {
            let other = enc.relation(&m);
            let mut differs = Vec::new();
            for (&(a, b), &v) in &other {
                let (ea, eb) = (event(a), event(b));
                let equal = runs[ea.0][ea.1].key == runs[eb.0][eb.1].key;
                if v != equal {
                    differs.push((ea, eb, equal));
                }
            }
            Answer::Counterexample(Disagreement::NotUnique { differs })
        }
        Check::Unknown(why) => Answer::Unknown(why),
    };
    enc.solver.pop(1);
    out
}

/// Builds the instances of a whole program's runs at the CFG level.
fn program_insts(program: &CfgProgram, runs: &[&[Event]]) -> Result<Vec<Vec<Inst>>, String> {
    let tokens = program.module.functions.iter().any(|c| {
        c.blocks.iter().any(|b| {
            b.insts
                .iter()
                .any(|i| i.token.is_some() || matches!(i.kind, InstKind::Token { .. }))
        })
    });
    if tokens {
        return Err(
            "convergence-control tokens are not modelled by the SMT engine (maximal \
             convergence only)"
                .into(),
        );
    }
    let mut all = Vec::new();
    for run in runs {
        let placed = place(&program.module, run)?;
        // Per invocation: its current block instance and the occurrences
        // of each operation in it.
        let mut frames: HashMap<usize, (Option<usize>, HashMap<StmtId, u32>)> = HashMap::new();
        let mut insts = Vec::with_capacity(run.len());
        for (i, e) in run.iter().enumerate() {
            let p = &placed[i];
            let state = frames.entry(p.frame).or_default();
            let inst = match e.kind {
                EventKind::Block(b) => {
                    let b = b as usize;
                    let ci = program
                        .cycles
                        .get(p.func)
                        .ok_or_else(|| format!("no cycle hierarchy for function {}", p.func))?;
                    let cs = ci
                        .containing
                        .get(b)
                        .ok_or_else(|| format!("block {b} is not in the cycle hierarchy"))?;
                    state.0 = Some(i);
                    state.1.clear();
                    Inst {
                        stat: block_stat(p.func, b),
                        event: Some(i),
                        headers: cs
                            .iter()
                            .map(|&c| block_stat(p.func, ci.cycles[c].header))
                            .collect(),
                        within: p.calls.clone(),
                        free: false,
                    }
                }
                _ => {
                    let occ = state.1.entry(e.sid).or_insert(0);
                    let stat = op_stat(e.sid, *occ);
                    *occ += 1;
                    let mut within = p.calls.clone();
                    within.extend(state.0);
                    Inst {
                        stat,
                        event: Some(i),
                        headers: Vec::new(),
                        within,
                        free: false,
                    }
                }
            };
            insts.push(inst);
        }
        all.push(insts);
    }
    Ok(all)
}

/// Maximal convergence of a whole program's runs at the CFG level (one
/// entry invocation per thread, calls included), if unique. The relation
/// covers every pair of events of one static operation (blocks, and
/// operations inside them) in two threads.
pub fn cfg_relation(program: &CfgProgram, runs: &[&[Event]]) -> Answer<Relation, NotUnique> {
    cfg_relation_with(program, runs, Options::default())
}

/// [`cfg_relation`] with explicit options.
pub fn cfg_relation_with(
    program: &CfgProgram,
    runs: &[&[Event]],
    options: Options,
) -> Answer<Relation, NotUnique> {
    let insts = match program_insts(program, runs) {
        Ok(i) => i,
        Err(e) => return Answer::Unknown(Unknown::incomplete(e)),
    };
    let enc = Enc::new(insts, options);
    match solve_unique(&enc) {
        Answer::Proved(rel) => Answer::Proved(enc.on_events(&rel)),
        Answer::Counterexample(c) => Answer::Counterexample(c),
        Answer::Unknown(w) => Answer::Unknown(w),
    }
}
