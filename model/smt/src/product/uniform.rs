//! The uniformity query (DESIGN.md 2.10): "is there a scenario in which
//! two threads execute one definition in one converged dynamic instance
//! and get different values?", asked of one program (one function, one
//! cycle hierarchy) for each definition of a list.
//!
//! **Definition** (LLVM ConvergenceAndUniformity, "Uniformity"): the
//! output of a static instance is uniform iff it compares equal for every
//! pair of converged dynamic instances. Two threads are converged at an
//! execution of a definition iff its sites are equal: the copy of the
//! unrolled CFG ([`super::unroll`]: a copy *is* a maximal-convergence key)
//! or the token instance of a controlled instruction ([`super::tokens`]),
//! and the instruction's place. A value defined in a cycle and used
//! outside it is compared at each definition: the use outside is a
//! definition of its own, executed in converged instances by threads that
//! may have left the cycle in different iterations, which is LLVM's
//! *temporal divergence*.
//!
//! **Scenario.** Both threads run the entry function symbolically
//! (`super::symex`) with their values recorded ([`super::symex::Values`]):
//! thread ids `t0 != t1` below the group size `N >= 2` (or the fixed one);
//! uniform oracles equal at equal read sites (one converged instance);
//! oracles listed in `by_operands` equal at equal read sites *when the
//! operands of their load or call are equal* (a load from memory both
//! threads see, a call whose result is a function of its arguments); every
//! other oracle free per thread. Neither run may get stuck (reach
//! `unreachable`, undefined behaviour) within the bounds. A run may be cut
//! by `max_iters` (it goes on past the bound, unexamined): what both
//! threads executed before the cut is a prefix of a real execution, and a
//! loop that never ends is not undefined behaviour in LLVM IR unless the
//! function is `mustprogress`. Scenarios whose runs both end within the
//! bounds are preferred, and a witness says whether its runs were cut
//! ([`Witness::cut`]).
//!
//! **Values** are compared in their low `bits` bits ([`Target::bits`]):
//! the mapping from LLVM holds an `iN` value as any 64-bit value whose low
//! `N` bits are right.
//!
//! **Answers**, per definition: [`Verdict::Divergent`] with a scenario
//! (the caller replays it in the interpreter, which confirms it),
//! [`Verdict::Uniform`] (no such scenario within the bounds),
//! [`Verdict::Unreached`] (no two converged executions within the bounds
//! at all), or [`Verdict::Unknown`] (time, memory). The whole query fails
//! (`Err`) when the function is outside what the engine models, or when no
//! run of it ends within the bounds (never a vacuous "uniform").

use super::bv::or_all;
use super::replay::{decode, holds};
use super::symex::{Exec, Prog, Run, Tags};
use super::{memory_watermark, query::width_for, support, tokens, Globals, Z3_MEMORY_MB};
use crate::{Limit, Unknown};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::scenario::ThreadValues;
use convcheck_ir::{FuncId, OracleId};
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};
use z3::ast::{Bool, BV};
use z3::{Model, Params, SatResult, Solver, Sort};

/// Options of one uniformity query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformityOptions {
    /// Iterations (from 0) of each cycle per iteration of its parent that a
    /// run may start; longer runs are outside the bounds (and reported as
    /// cut when there are some).
    pub max_iters: u32,
    /// The group size, or `None` for every `N >= 2`.
    pub group: Option<u32>,
    /// The wave (subgroup) size, when the two threads must be in one wave
    /// of that many lanes (`tid0 / wave == tid1 / wave`): LLVM's
    /// uniformity is among the threads that execute together, which a
    /// target may take to be a wave. `None`: any two threads of the group.
    pub wave: Option<u32>,
    /// The budget of the whole query (every definition of it).
    pub timeout: Duration,
    /// At most this many block copies (over both threads); more fails the
    /// query.
    pub max_copies: usize,
    /// The memory z3 may hold, in MiB (at most 4095).
    pub memory_mb: u64,
    /// Whether a definition no scenario executes in two converged
    /// instances is told apart from a uniform one ([`Verdict::Unreached`];
    /// one more query per uniform definition). Default on.
    pub unreached: bool,
    /// The work each query may do, in units of z3's resource counter (0:
    /// only the time budget): unlike a time, the same on every machine
    /// and under any load, so that a campaign's answers do not depend on
    /// them. Default 0.
    pub rlimit: u32,
}

impl Default for UniformityOptions {
    fn default() -> UniformityOptions {
        UniformityOptions {
            max_iters: 3,
            group: None,
            wave: None,
            timeout: Duration::from_secs(60),
            max_copies: 200_000,
            memory_mb: Z3_MEMORY_MB,
            unreached: true,
            rlimit: 0,
        }
    }
}

/// One definition to examine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Its block.
    pub block: usize,
    /// Its instruction's index in the block; the block's length for the
    /// value its terminator branches on.
    pub inst: usize,
    /// How many low bits of the value are meaningful (1 to 64).
    pub bits: u32,
    /// Whether a divergence would be a finding: its witness is then made
    /// as readable as the solver allows (runs that end within the bounds,
    /// a small group), at the price of a few more queries.
    pub finding: bool,
}

/// A scenario read from a model: the two threads and their oracle values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The group size.
    pub group: u32,
    /// The two thread ids.
    pub tids: [u32; 2],
    /// Their oracle values, by name, in evaluation order.
    pub threads: [ThreadValues; 2],
    /// Whether a run of the scenario goes on past the iteration bound
    /// (only a prefix of it was examined).
    pub cut: bool,
}

/// What the query says of one definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No scenario within the bounds gives two converged executions
    /// different values.
    Uniform,
    /// No scenario within the bounds executes it in two converged
    /// instances at all.
    Unreached,
    /// A scenario that does (to be confirmed by replaying it).
    Divergent(Witness),
    /// The solver could not tell (the reason names the budget).
    Unknown(Unknown),
}

/// The answers of one query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answers {
    /// One verdict per target, in order.
    pub verdicts: Vec<Verdict>,
    /// What the iteration bound cut, if it cut some run (one example).
    pub cut: Option<String>,
    /// Block copies executed symbolically, over both threads.
    pub copies: usize,
}

/// Asks, for each of `targets` of function `entry`, whether two converged
/// executions can differ (see the module documentation).
pub fn uniformity(
    program: &CfgProgram,
    entry: FuncId,
    targets: &[Target],
    by_operands: &BTreeSet<OracleId>,
    opts: &UniformityOptions,
) -> Result<Answers, Unknown> {
    let deadline = Instant::now() + opts.timeout;
    if let Some(n) = opts.group {
        if n < 2 {
            return Err(Unknown::unsupported(format!(
                "a group of {n} thread(s) has no pair of threads to compare"
            )));
        }
    }
    if program.module.functions.get(entry).is_none() {
        return Err(Unknown::incomplete(format!(
            "internal: no function {entry}"
        )));
    }
    if let Some(why) = support::unsupported(program, entry, "the function") {
        return Err(Unknown::unsupported(why));
    }
    let erased = tokens::erase_aligned(program);
    let program = erased.as_ref().unwrap_or(program);
    let names: Vec<String> = program
        .module
        .oracles
        .iter()
        .map(|o| o.name.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let name_of: Vec<usize> = program
        .module
        .oracles
        .iter()
        .map(|o| names.binary_search(&o.name).unwrap_or(0))
        .collect();
    let mut prog = Prog::new(program, opts.max_iters, opts.max_copies, name_of);
    prog.deadline = Some(deadline);
    let longest = prog.path_bound(entry, &mut HashMap::new())?;
    let w = width_for(longest.saturating_add(2))
        .saturating_add(1)
        .min(64);
    let counter = Sort::bitvector(w);
    let value = Sort::bitvector(64);
    let g = Globals {
        w,
        second: None,
        tid: [BV::fresh_const("tid0", 64), BV::fresh_const("tid1", 64)],
        n: BV::fresh_const("N", 64),
        max_group: super::max_group(&[program]),
        streams: super::streams::streams(&names, &program.module, &counter, &value),
    };
    let mut tags = Tags::default();
    let mut runs = Vec::new();
    for t in 0..2 {
        runs.push(
            Exec::new(&g, &mut tags, &mut prog, t, true)
                .recording()
                .run(entry)?,
        );
    }
    let (Some(r1), Some(r0)) = (runs.pop(), runs.pop()) else {
        return Err(Unknown::incomplete("internal: missing run"));
    };
    let runs = [r0, r1];
    let q = Encoded::new(&g, &runs, by_operands, opts.group, opts.wave);
    shared_memory(&q.solver, &runs);
    memory_watermark(opts.memory_mb);
    let ask = |a: &[Bool]| solve(&q.solver, a, deadline, opts.memory_mb, opts.rlimit);
    // Some pair of runs is free of undefined behaviour within the bounds
    // (no vacuous answer).
    match ask(std::slice::from_ref(&q.ok)) {
        Err(e) => return Err(e),
        Ok(None) => {
            return Err(Unknown::new(
                Limit::Size,
                format!(
                    "no scenario within bounds: every pair of runs reaches undefined behaviour \
                     (`unreachable`) within max-iters={}",
                    opts.max_iters
                ),
            ))
        }
        Ok(Some(_)) => {}
    }
    let mut verdicts = Vec::new();
    for t in targets {
        let Some(differs) = q.differs(&runs, t) else {
            verdicts.push(Verdict::Unreached);
            continue;
        };
        let lit = Bool::fresh_const("differs");
        q.solver.assert(lit.implies(&differs));
        let v = match ask(&[q.ok.clone(), lit.clone()]) {
            Err(e) => Verdict::Unknown(e),
            Ok(None) if !opts.unreached => Verdict::Uniform,
            Ok(None) => {
                // Are two converged executions reachable at all?
                match q.reached(&runs, t) {
                    Some(both) => {
                        let l = Bool::fresh_const("reached");
                        q.solver.assert(l.implies(&both));
                        match ask(&[q.ok.clone(), l]) {
                            Ok(None) => Verdict::Unreached,
                            _ => Verdict::Uniform,
                        }
                    }
                    None => Verdict::Unreached,
                }
            }
            Ok(Some(model)) => {
                // Prefer runs that end within the bounds, then a group of
                // two threads, then a small one.
                let mut model = model;
                let mut base = vec![q.ok.clone(), lit.clone()];
                if !t.finding {
                    // Only whether it diverges matters.
                } else if let Ok(Some(m)) = ask(&[q.ok.clone(), lit.clone(), q.complete.clone()]) {
                    model = m;
                    base.push(q.complete.clone());
                }
                if opts.group.is_none() && t.finding {
                    for bound in [2u64, 64, 1024] {
                        let mut a = base.clone();
                        a.push(g.n.bvule(BV::from_u64(bound, 64)));
                        if let Ok(Some(m)) = ask(&a) {
                            model = m;
                            base = a;
                            break;
                        }
                    }
                }
                if t.finding {
                    // Small first values of every stream (the arguments
                    // among them), for a scenario one can read.
                    let mut a = base.clone();
                    a.push(small_inputs(&g));
                    if let Ok(Some(m)) = ask(&a) {
                        model = m;
                    }
                }
                let cut = holds(&model, &q.cut_f);
                match witness(&model, &g, &runs, &names, cut) {
                    Ok(w) => Verdict::Divergent(w),
                    Err(e) => Verdict::Unknown(Unknown::incomplete(e)),
                }
            }
        };
        verdicts.push(v);
    }
    let cut = match ask(&[q.ok.clone(), q.cut.clone()]) {
        Ok(Some(m)) => runs
            .iter()
            .flat_map(|r| r.cut.iter())
            .find(|(g, _)| holds(&m, g))
            .map(|(_, d)| d.clone()),
        _ => None,
    };
    Ok(Answers {
        verdicts,
        cut,
        copies: prog.copies,
    })
}

/// The solver with the scenario asserted, and the literals that select a
/// question.
struct Encoded {
    solver: Solver,
    /// Neither run is stuck within the bounds.
    ok: Bool,
    /// Neither run is cut by the iteration bound.
    complete: Bool,
    /// Some run is cut by the iteration bound.
    cut: Bool,
    /// The formula of [`Self::cut`], to read in a model.
    cut_f: Bool,
}

impl Encoded {
    fn new(
        g: &Globals,
        runs: &[Run; 2],
        by_operands: &BTreeSet<OracleId>,
        group: Option<u32>,
        wave: Option<u32>,
    ) -> Encoded {
        let solver = Solver::new_for_logic("QF_UFBV").unwrap_or_default();
        for run in runs {
            for d in &run.defs {
                solver.assert(d);
            }
        }
        let [t0, t1] = &g.tid;
        let n = &g.n;
        solver.assert(t0.eq(t1).not());
        solver.assert(t0.bvult(n));
        solver.assert(t1.bvult(n));
        match group {
            Some(size) => solver.assert(n.eq(BV::from_u64(u64::from(size), 64))),
            None => {
                solver.assert(n.bvuge(BV::from_u64(2, 64)));
                solver.assert(n.bvule(BV::from_u64(g.max_group, 64)));
            }
        }
        if let Some(w) = wave.filter(|w| *w > 0) {
            let w = BV::from_u64(u64::from(w), 64);
            solver.assert(t0.bvudiv(&w).eq(t1.bvudiv(&w)));
        }
        // Uniform oracles: equal in one converged instance.
        for (s0, name0, g0, v0) in &runs[0].uniform {
            for (s1, name1, g1, v1) in &runs[1].uniform {
                if s0 == s1 && name0 == name1 {
                    solver.assert(Bool::and(&[g0.clone(), g1.clone()]).implies(v0.eq(v1)));
                }
            }
        }
        // Oracles that are functions of their operands in one instance.
        for (s0, o0, g0, v0, ops0) in &runs[0].values.reads {
            if !by_operands.contains(o0) {
                continue;
            }
            for (s1, o1, g1, v1, ops1) in &runs[1].values.reads {
                if s0 != s1 || o0 != o1 || ops0.len() != ops1.len() {
                    continue;
                }
                let mut premise = vec![g0.clone(), g1.clone()];
                premise.extend(ops0.iter().zip(ops1).map(|(a, b)| a.eq(b)));
                solver.assert(Bool::and(&premise).implies(v0.eq(v1)));
            }
        }
        let any = |f: &dyn Fn(&Run) -> Vec<Bool>| -> Bool {
            or_all(&runs.iter().flat_map(f).collect::<Vec<_>>())
        };
        let cut = any(&|r| r.cut.iter().map(|c| c.0.clone()).collect());
        let stuck = any(&|r| r.stuck.iter().map(|c| c.0.clone()).collect());
        let ok = Bool::fresh_const("ok");
        solver.assert(ok.implies(stuck.not()));
        let complete = Bool::fresh_const("complete");
        solver.assert(complete.implies(cut.not()));
        let cut_l = Bool::fresh_const("cut");
        solver.assert(cut_l.implies(&cut));
        Encoded {
            solver,
            ok,
            complete,
            cut: cut_l,
            cut_f: cut,
        }
    }

    /// The executions of `t` by both threads at one site: (guard of thread
    /// 0, value, guard of thread 1, value).
    fn pairs<'r>(runs: &'r [Run; 2], t: &Target) -> Vec<(&'r Bool, &'r BV, &'r Bool, &'r BV)> {
        let place = (t.block, t.inst);
        let mut out = Vec::new();
        for (p0, s0, g0, v0) in &runs[0].values.defs {
            if *p0 != place {
                continue;
            }
            for (p1, s1, g1, v1) in &runs[1].values.defs {
                if *p1 == place && s1 == s0 {
                    out.push((g0, v0, g1, v1));
                }
            }
        }
        out
    }

    /// "Two converged executions of `t` differ in its low bits", or `None`
    /// when no site has an execution in both threads.
    fn differs(&self, runs: &[Run; 2], t: &Target) -> Option<Bool> {
        let bits = t.bits.clamp(1, 64);
        let low = |v: &BV| {
            if bits == 64 {
                v.clone()
            } else {
                v.extract(bits - 1, 0)
            }
        };
        let terms: Vec<Bool> = Self::pairs(runs, t)
            .into_iter()
            .map(|(g0, v0, g1, v1)| Bool::and(&[g0.clone(), g1.clone(), low(v0).eq(low(v1)).not()]))
            .collect();
        (!terms.is_empty()).then(|| or_all(&terms))
    }

    /// "Both threads execute `t` at one site".
    fn reached(&self, runs: &[Run; 2], t: &Target) -> Option<Bool> {
        let terms: Vec<Bool> = Self::pairs(runs, t)
            .into_iter()
            .map(|(g0, _, g1, _)| Bool::and(&[g0.clone(), g1.clone()]))
            .collect();
        (!terms.is_empty()).then(|| or_all(&terms))
    }
}

/// "The first two values of every stream of both threads are below 256".
fn small_inputs(g: &Globals) -> Bool {
    let mut parts = Vec::new();
    for per in &g.streams {
        for f in per {
            for k in 0..2 {
                if let Some(v) = f.apply(&[&BV::from_u64(k, g.w)]).as_bv() {
                    parts.push(v.bvult(BV::from_u64(256, 64)));
                }
            }
        }
    }
    if parts.is_empty() {
        Bool::from_bool(true)
    } else {
        Bool::and(&parts)
    }
}

/// A satisfiability check under the remaining time.
/// Memory that is not private is shared: the two threads read one value
/// from one location (space, width, byte address) in one barrier phase
/// that neither wrote. The symbolic execution gives each thread its own
/// free function of the location (`symex::memory`), which is right for a
/// check of one thread's behaviour against a transform, where other
/// threads' writes within the phase are unknown; LLVM's uniformity counts
/// a load from a uniform address as uniform because a concurrent write
/// would be a data race (undefined behaviour), so the oracle asks the same.
fn shared_memory(solver: &Solver, runs: &[Run; 2]) {
    // What a clobber leaves (a fresh value per thread) is not shared.
    for (g0, s0, w0, a0, p0, v0, c0) in &runs[0].free_reads {
        let (Some(p0), None) = (p0, c0) else { continue };
        for (g1, s1, w1, a1, p1, v1, c1) in &runs[1].free_reads {
            let (Some(p1), None) = (p1, c1) else { continue };
            if s0 != s1 || w0 != w1 {
                continue;
            }
            let same = Bool::and(&[g0.clone(), g1.clone(), a0.eq(a1), p0.eq(p1)]);
            solver.assert(same.implies(v0.eq(v1)));
        }
    }
}

fn solve(
    solver: &Solver,
    assumptions: &[Bool],
    deadline: Instant,
    memory_mb: u64,
    rlimit: u32,
) -> Result<Option<Model>, Unknown> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(Unknown::time("timeout: the time budget ran out"));
    }
    let mut params = Params::new();
    params.set_u32(
        "timeout",
        u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1),
    );
    params.set_u32("rlimit", rlimit);
    solver.set_params(&params);
    match solver.check_assumptions(assumptions) {
        SatResult::Sat => solver
            .get_model()
            .map(Some)
            .ok_or_else(|| Unknown::incomplete("internal: z3 said sat but gave no model")),
        SatResult::Unsat => Ok(None),
        SatResult::Unknown => {
            let why = solver
                .get_reason_unknown()
                .unwrap_or_else(|| "unknown".into());
            let reason = Unknown::from_z3(&why);
            Err(match reason.limit {
                Limit::Memory => Unknown::new(
                    Limit::Memory,
                    format!("memory budget: z3 reached {memory_mb} MiB"),
                ),
                Limit::Size if rlimit > 0 => Unknown::new(
                    Limit::Size,
                    format!("resource budget: the query did more than {rlimit} units of z3's work"),
                ),
                Limit::Time | Limit::Canceled => {
                    Unknown::new(reason.limit, "timeout: the time budget ran out")
                }
                _ => reason,
            })
        }
    }
}

fn witness(
    model: &Model,
    g: &Globals,
    runs: &[Run; 2],
    names: &[String],
    cut: bool,
) -> Result<Witness, String> {
    // `decode` reads one pair of threads per program (here one program,
    // run by both threads) up to their final counters; a run cut by the
    // bound has none, so its streams are read up to the last evaluation
    // it made.
    let pair: &[[Run; 2]] = std::slice::from_ref(runs);
    let mut d = decode(model, g, pair, names)?;
    for (i, run) in runs.iter().enumerate() {
        for (name, guard, after) in &run.values.counts {
            if !holds(model, guard) {
                continue;
            }
            let n = model
                .eval(after, true)
                .and_then(|x| x.as_u64())
                .ok_or("internal: the model has no evaluation count")?;
            let Some(label) = names.get(*name) else {
                continue;
            };
            let have = d.values[i].0.get(label).map_or(0, Vec::len) as u64;
            if n <= have {
                continue;
            }
            let f = &g.streams[*name][i];
            let list = d.values[i].0.entry(label.clone()).or_default();
            for k in have..n {
                let at = f
                    .apply(&[&BV::from_u64(k, g.w)])
                    .as_bv()
                    .ok_or("internal: stream sort")?;
                let v = model
                    .eval(&at, true)
                    .and_then(|x| x.as_u64())
                    .ok_or("internal: the model has no value for a read")?;
                list.push(v as i64);
            }
        }
    }
    Ok(Witness {
        group: d.group,
        tids: d.tids,
        threads: d.values,
        cut,
    })
}
