//! The symbolic refinement engine (DESIGN.md 2.5 use 2, 2.7): "is there a
//! scenario in which the target changes a thread's observable events or
//! relates matched instances differently from the reference?" as one SMT
//! problem over two symbolic threads running both programs, unrolled to a
//! bound per cycle.
//!
//! [`compare`] takes two CFG programs (each with its cycle hierarchy) and
//! the entry function, and answers
//!
//! - `Proved(`[`Preserved`]`)`: no counterexample within the bounds it
//!   lists, for every group size `N >= 2` (or the fixed one), every pair of
//!   distinct thread ids and every 64-bit oracle value; the reference
//!   bound that cut some behaviour, if one did, is named;
//! - `Counterexample(`[`Counterexample`]`)`: a concrete scenario, replayed
//!   by the explicit interpreter, that breaks single-thread behaviour or
//!   convergence;
//! - `Unknown(reason)`: a timeout, a resource limit, an input the engine
//!   does not model (tokens, recursion, barrier removal with plain
//!   barriers), a run that stops out of bounds (`unreachable`), a target
//!   that needs more iterations than the engine unrolled it to, no
//!   scenario within bounds at all, or an internal error (a model that
//!   does not replay). Never a pass.
//!
//! How it works:
//!
//! 1. [`unroll`]: each function is unrolled along its cycle hierarchy into
//!    block copies keyed by the iteration counts of the enclosing cycles;
//!    a copy *is* a maximal-convergence key (cross-checked against the
//!    interpreter by `tests/product_keys.rs`), so converged-with is
//!    equality of copies.
//! 2. `symex`: each of the two threads runs each program symbolically over
//!    the copies; oracle streams are uninterpreted functions of (name,
//!    thread, evaluation index) shared by both programs (a
//!    uniform-invariant oracle of the reference has one stream for both
//!    threads, `streams`, and each reads it at index 0: one value); every
//!    observable event gets a guard, a position and a site.
//! 3. `query`: single-thread behaviour and convergence as one formula
//!    linear in the events (a chosen position per thread and the
//!    descriptors of the events there), with the scenario's constraints
//!    (distinct ids below `N`, uniform oracles equal in converged
//!    instances of the reference).
//! 4. `replay`: a model becomes a scenario, both programs run on it, and
//!    the interpreter names the property that fails.
//!
//! 0. `structure`: when the target is the reference up to block names and
//!    order and merged straight-line chains, the answer is `Proved` with
//!    [`Proof::Structure`], which holds for every iteration count (an
//!    unbounded verdict); nothing is unrolled.
//!
//! Counterexamples are searched for at max-iters 1 and 2 first (under a
//! work bound): one found there is one at every larger bound. A search
//! alone ([`hunt_at`]) skips max-iters 2.
//!
//! Bounds, in the order they are decided (every query under the overall
//! timeout, each check with what remains of it): the reference must have
//! some run within bounds (else `Unknown`, never a vacuous pass); a
//! violation within bounds is searched for; if the target can leave its
//! unrolling where the reference stays within `max_iters`, the target is
//! unrolled further (its bound doubles, up to [`TARGET_ITERS_FACTOR`] times
//! `max_iters + 1`) and the query is built again; a run that gets stuck is
//! `Unknown`; finally whether the bound cut some reference run is decided
//! and reported.
//!
//! What is not modelled is listed in `support` and answers `Unknown`.
//! Uniform oracles are LLVM's (equal in one converged dynamic instance),
//! which differs from the explicit engine's path pairing (equal at equal
//! evaluation counts; `convcheck_ir::paths::compatible`): a scenario the
//! explicit engine pairs may not be one this engine allows, and the
//! other way around.

pub mod tokens;
pub mod uniform;
pub mod unroll;

pub(crate) mod bv;
mod canon;
mod check;
mod confirm;
mod fbv;
mod hunt;
mod matching;
mod query;
mod replay;
mod streams;
mod structure;
mod support;
mod symex;

use crate::{Answer, Limit, Unknown};
pub use check::WorkAccount;
use check::{check, check_limited, memory_watermark};
pub use confirm::NO_VISIBLE_DIFFERENCE;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Trace;
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::{FuncId, OpId};
pub use hunt::{hunt_at, NO_COUNTEREXAMPLE};
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};
use z3::ast::{Bool, BV};
use z3::{FuncDecl, Model, Sort};

/// How far the target may be unrolled, in multiples of `max_iters + 1`
/// iterations per cycle: a transform that merges a loop nest into one
/// cycle needs about the product of the nest's bounds.
pub const TARGET_ITERS_FACTOR: u32 = 16;

/// The work (units of z3's resource counter) the monolithic query gets
/// before the proof by matching takes over. A resource limit rather than
/// a time, so that whether the quick query decides does not depend on the
/// machine or its load (a wall-clock budget made the seed's loop_nest
/// under `simplifycfg` a counterexample on an idle machine and a timeout
/// on a loaded one). Measured on that check at max-iters 8: the query
/// finds the counterexample with about 1.7 million units (0.7 s on the
/// machine of docs/src/performance.md); the seed's loop_nest under
/// `simplifycfg<keep-loops>` needs minutes from max-iters 3 on, while
/// matching decides it in under a second.
const QUICK_RLIMIT: u32 = 5_000_000;

/// Options of one comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProductOptions {
    /// Iterations (from 0) of each cycle per iteration of its parent that
    /// the reference may start; runs that start more are outside the
    /// bounds, and the answer says whether there were any.
    pub max_iters: u32,
    /// The group size, or `None` for every `N >= 2`.
    pub group: Option<u32>,
    /// Whether the transform may remove plain barriers (a barrier-removal
    /// pass's contract): plain barriers then leave single-thread behaviour
    /// and convergence, and a model that differs only in them is `Unknown`
    /// (the explicit engine judges the hazards they leave).
    pub allow_barrier_removal: bool,
    /// The budget of the whole comparison.
    pub timeout: Duration,
    /// At most this many block copies per program (over both threads and
    /// inlined calls); more is `Unknown`.
    pub max_copies: usize,
    /// The memory z3 may hold, in MiB (at most 4095); past it the
    /// comparison is `Unknown` with the memory budget named.
    pub memory_mb: u64,
}

impl Default for ProductOptions {
    fn default() -> ProductOptions {
        ProductOptions {
            max_iters: 8,
            group: None,
            allow_barrier_removal: false,
            timeout: Duration::from_secs(60),
            max_copies: 200_000,
            memory_mb: Z3_MEMORY_MB,
        }
    }
}

/// The property a counterexample breaks (DESIGN.md 2.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// A thread's observable events changed.
    SingleThreadBehaviour,
    /// Matched convergent instances are converged in one program and not
    /// in the other.
    Convergence,
}

/// No counterexample within the bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preserved {
    /// The reference's bound on iterations per cycle.
    pub max_iters: u32,
    /// How far the target was unrolled (its runs all stayed within it).
    pub target_iters: u32,
    /// The fixed group size, if any.
    pub group: Option<u32>,
    /// What the reference's bound cut, if it cut anything (one example).
    pub cut: Option<String>,
    /// Block copies executed symbolically: reference, target.
    pub copies: [usize; 2],
    /// Observable event records of one thread: reference, target.
    pub events: [usize; 2],
    /// How the absence of a counterexample was proved.
    pub proof: Proof,
}

/// How [`compare`] proved that no counterexample exists within bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The monolithic query was unsatisfiable.
    Query,
    /// By structure, for every iteration count (no bound): the target is
    /// the reference up to block names and order and the merging of
    /// straight-line chains (see the `structure` module).
    Structure {
        /// Straight-line edges contracted, over both programs.
        merged: usize,
    },
    /// By matching events (see the `matching` module): pairs in the
    /// matching and refinement rounds.
    Matching {
        /// Pairs of event records.
        pairs: usize,
        /// Solver calls that found new pairs.
        rounds: usize,
    },
}

/// A scenario that breaks a property, replayed by the interpreter.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// Which property.
    pub property: Property,
    /// The group size.
    pub group: u32,
    /// The thread ids involved: one for single-thread behaviour, two for
    /// convergence.
    pub tids: Vec<u32>,
    /// Their oracle values, by name, in evaluation order.
    pub threads: Vec<ThreadValues>,
    /// What went wrong, in one sentence.
    pub message: String,
    /// The reference op it is about, if one.
    pub op: Option<OpId>,
    /// The reference runs of those threads.
    pub reference: Vec<Trace>,
    /// The target runs.
    pub target: Vec<Trace>,
}

impl Counterexample {
    /// The whole group as a scenario: the involved threads at their ids,
    /// every other thread with no values (all zero).
    pub fn scenario(&self) -> Scenario {
        let mut threads = vec![ThreadValues::default(); self.group as usize];
        for (t, v) in self.tids.iter().zip(&self.threads) {
            if let Some(slot) = threads.get_mut(*t as usize) {
                *slot = v.clone();
            }
        }
        Scenario { threads }
    }
}

/// The terms both programs share: the counter width, the thread ids, the
/// group size and the oracle streams (per name, per thread).
pub(crate) struct Globals {
    pub w: u32,
    /// Where a run's events are compared as two projections (either
    /// program has a convergent operation that accesses no memory,
    /// `convcheck_ir::OpInfo::memory_none`): the position of the second's
    /// first event, above every position of the first (`symex`).
    pub second: Option<u64>,
    pub tid: [BV; 2],
    pub n: BV,
    /// The largest group size tried: the reference's
    /// `Module::max_group` ([`max_group`]), else `u32::MAX`.
    pub max_group: u64,
    pub streams: Vec<[FuncDecl; 2]>,
}

/// The largest group size of a check over `programs` (the reference
/// first): the reference's `max_group` (a launch on its target cannot
/// have more threads; DESIGN.md 2.9), not a smaller one a target states
/// (a target that narrows it states a fact the reference does not give:
/// review3 H6); where the reference states none, the smallest any of
/// them states; else `u32::MAX`.
pub(crate) fn max_group(programs: &[&CfgProgram]) -> u64 {
    programs
        .first()
        .and_then(|p| p.module.max_group)
        .or_else(|| programs.iter().filter_map(|p| p.module.max_group).min())
        .map_or(u64::from(u32::MAX), u64::from)
}

/// The structural rule alone (the `structure` module): `Some(contracted
/// edges)` when it proves `target` equivalent to `reference` from `entry`
/// for every iteration count, `None` when it does not apply. [`compare`]
/// answers `Proved` with [`Proof::Structure`] exactly when this is `Some`
/// and both programs are within what the engine models.
pub fn by_structure(reference: &CfgProgram, target: &CfgProgram, entry: FuncId) -> Option<usize> {
    structure::same_up_to_straight_line(reference, target, entry)
}

/// The modules' functions in the canonical form of the `canon` module
/// (inverted branch conditions oriented one way, empty blocks that head no
/// cycle bypassed, locals renamed in walk order), each run of which runs
/// the same events with the same convergence; `None` where a function
/// keeps a convergence-control token or the bypass would change its cycle
/// nest. The structural rule applied to two canonical forms
/// ([`by_structure`]) proves the two modules equivalent.
pub fn canonicalize(m: &convcheck_ir::Module) -> Option<convcheck_ir::Module> {
    canon::canonicalize(m)
}

/// The bypass of empty blocks of the `canon` module with its side
/// condition weakened (headers bypassed too): the unsound mutant the
/// tests must catch. Not for use outside tests.
#[doc(hidden)]
pub fn canonicalize_mutant_bypass_headers(
    m: &convcheck_ir::Module,
) -> Option<convcheck_ir::Module> {
    canon::canonicalize_with(m, false)
}

/// Compares `target` against `reference` from function `entry` of both.
pub fn compare(
    reference: &CfgProgram,
    target: &CfgProgram,
    entry: FuncId,
    opts: &ProductOptions,
) -> Answer<Preserved, Counterexample> {
    compare_at(reference, target, [entry, entry], opts)
}

/// Compares function `entries[1]` of `target` against function
/// `entries[0]` of `reference` (two modules that number their functions
/// differently, as two LLVM files do). The structural rule applies only
/// where the entries agree (it compares function ids).
pub fn compare_at(
    reference: &CfgProgram,
    target: &CfgProgram,
    entries: [FuncId; 2],
    opts: &ProductOptions,
) -> Answer<Preserved, Counterexample> {
    compare_mode(reference, target, entries, opts, None)
}

/// [`compare_at`], or [`hunt_at`] with its work budget when `hunt` is
/// `Some`.
fn compare_mode(
    reference: &CfgProgram,
    target: &CfgProgram,
    entries: [FuncId; 2],
    opts: &ProductOptions,
    hunt: Option<&WorkAccount>,
) -> Answer<Preserved, Counterexample> {
    let deadline = Instant::now() + opts.timeout;
    if let Some(n) = opts.group {
        if n < 2 {
            return Answer::Unknown(Unknown::unsupported(format!(
                "a group of {n} thread(s) has no pair of threads to compare"
            )));
        }
    }
    for (p, side, entry) in [
        (reference, "reference", entries[0]),
        (target, "target", entries[1]),
    ] {
        if p.module.functions.get(entry).is_none() {
            return Answer::Unknown(Unknown::incomplete(format!("{side}: no function {entry}")));
        }
        if let Some(why) = support::unsupported(p, entry, side) {
            return Answer::Unknown(Unknown::unsupported(why));
        }
    }
    // Tokens aligned with the cycle hierarchy key operations as maximal
    // convergence does: erased, the programs are compared (and proved by
    // structure) as plain CFGs.
    let erased = (
        tokens::erase_aligned(reference),
        tokens::erase_aligned(target),
    );
    let reference = erased.0.as_ref().unwrap_or(reference);
    let target = erased.1.as_ref().unwrap_or(target);
    let same_entry = (entries[0] == entries[1]).then_some(entries[0]);
    if let Some(merged) =
        same_entry.and_then(|e| structure::same_up_to_straight_line(reference, target, e))
    {
        return Answer::Proved(Preserved {
            max_iters: opts.max_iters,
            target_iters: opts.max_iters,
            group: opts.group,
            cut: None,
            copies: [0, 0],
            events: [0, 0],
            proof: Proof::Structure { merged },
        });
    }
    // Counterexamples are looked for at small bounds first: a scenario
    // whose reference runs stay within max-iters 1 (or 2) stays within
    // every larger bound, so its counterexample is one at the asked bound
    // too, and the small queries are cheap. Measured on the seed's
    // loop_nest under `simplifycfg`: the search at max-iters 14 alone did
    // not finish in 120 s, while the counterexample at max-iters 1 takes
    // under 0.1 s. They only search (what they prove is not an answer at
    // the asked bound), each z3 query within QUICK_RLIMIT units of work and
    // half the time: a count, not a time share, picks the counterexample
    // reported, whatever the load (docs/src/determinism.md).
    // A search alone ([`hunt_at`]) skips max-iters 2: on clang's kernels
    // it cost more than the search at the asked bound (`reduce_int` after
    // SROA: 8.5 s of 20). It keeps max-iters 1, which finds the
    // counterexample of checker/tests/determinism.rs at once where the
    // search at the asked bound alone ran out of its time share.
    let smalls: &[u32] = if hunt.is_some() { &[1] } else { &[1, 2] };
    if opts.max_iters > 2 {
        let small_deadline = deadline.min(Instant::now() + opts.timeout / 2);
        for &small in smalls {
            let o = ProductOptions {
                max_iters: small,
                ..*opts
            };
            let (d, r) = (small_deadline, QUICK_RLIMIT);
            let found = search(reference, target, entries, &o, d, true, r, hunt);
            if let Answer::Counterexample(c) = found {
                return Answer::Counterexample(c);
            }
        }
    }
    search(
        reference,
        target,
        entries,
        opts,
        deadline,
        hunt.is_some(),
        0,
        hunt,
    )
}

/// The bounded search at `opts.max_iters`, unrolling the target further
/// while some scenario needs it; a search's queries within `account`.
fn search(
    reference: &CfgProgram,
    target: &CfgProgram,
    entries: [FuncId; 2],
    opts: &ProductOptions,
    deadline: Instant,
    hunt: bool,
    rlimit: u32,
    account: Option<&WorkAccount>,
) -> Answer<Preserved, Counterexample> {
    let cap = TARGET_ITERS_FACTOR.saturating_mul(opts.max_iters.saturating_add(1));
    let mut target_iters = opts.max_iters;
    loop {
        match attempt(
            reference,
            target,
            entries,
            opts,
            target_iters,
            deadline,
            hunt,
            rlimit,
            account,
        ) {
            Step::Done(a) => return a,
            Step::TargetCut(why) => {
                if target_iters >= cap {
                    return Answer::Unknown(Unknown::new(
                        Limit::Size,
                        format!(
                            "the target needs more iterations than the engine unrolls it to ({why}) \
                             in a scenario where the reference stays within max-iters={}",
                            opts.max_iters
                        ),
                    ));
                }
                target_iters = target_iters.saturating_mul(2).saturating_add(1).min(cap);
            }
        }
    }
}

enum Step {
    Done(Answer<Preserved, Counterexample>),
    TargetCut(String),
}

/// The default of [`ProductOptions::memory_mb`].
pub const Z3_MEMORY_MB: u64 = 4000;

/// The first description whose guard holds in the model.
fn which(model: &Model, list: &[(Bool, String)]) -> Option<String> {
    list.iter()
        .find(|(g, _)| replay::holds(model, g))
        .map(|(_, d)| d.clone())
}

fn attempt(
    reference: &CfgProgram,
    target: &CfgProgram,
    entries: [FuncId; 2],
    opts: &ProductOptions,
    target_iters: u32,
    deadline: Instant,
    hunt: bool,
    rlimit: u32,
    account: Option<&WorkAccount>,
) -> Step {
    let unknown = |u: Unknown| Step::Done(Answer::Unknown(u));
    // Oracle names of both modules, matched by name.
    let names: Vec<String> = reference
        .module
        .oracles
        .iter()
        .chain(&target.module.oracles)
        .map(|o| o.name.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let name_of = |p: &CfgProgram| -> Vec<usize> {
        p.module
            .oracles
            .iter()
            .map(|o| names.binary_search(&o.name).unwrap_or(0))
            .collect()
    };
    let mut progs = [
        symex::Prog::new(
            reference,
            opts.max_iters,
            opts.max_copies,
            name_of(reference),
        ),
        symex::Prog::new(target, target_iters, opts.max_copies, name_of(target)),
    ];
    for p in &mut progs {
        p.deadline = Some(deadline);
    }
    let mut longest = 0u64;
    for (p, &entry) in progs.iter_mut().zip(&entries) {
        match p.path_bound(entry, &mut HashMap::new()) {
            Ok(b) => longest = longest.max(b),
            Err(e) => return unknown(e),
        }
    }
    // Counters and positions never exceed `longest`; one more bit keeps
    // `K < len` comparisons free of wrap-around.
    let w = query::width_for(longest.saturating_add(2))
        .saturating_add(1)
        .min(64);
    // Two projections: one more bit, its top one marking the second's
    // positions.
    let no_memory = |p: &CfgProgram| {
        p.module.ops.iter().any(|o| o.memory_none) || support::inaccessible_calls(p)
    };
    let (w, second) = if no_memory(reference) || no_memory(target) {
        if w >= 64 {
            return unknown(Unknown::new(
                Limit::Size,
                "the runs are too long for positions in two projections".to_string(),
            ));
        }
        (w + 1, Some(1u64 << w))
    } else {
        (w, None)
    };
    let counter = Sort::bitvector(w);
    let value = Sort::bitvector(64);
    let g = Globals {
        w,
        second,
        tid: [BV::fresh_const("tid0", 64), BV::fresh_const("tid1", 64)],
        n: BV::fresh_const("N", 64),
        max_group: max_group(&[reference, target]),
        streams: streams::streams(&names, &reference.module, &counter, &value),
    };
    let mut tags = symex::Tags::default();
    let mut runs: Vec<[symex::Run; 2]> = Vec::new();
    for (p, prog) in progs.iter_mut().enumerate() {
        let mut pair = Vec::new();
        for t in 0..2 {
            match symex::Exec::new(&g, &mut tags, prog, t, p == 0).run(entries[p]) {
                Ok(r) => pair.push(r),
                Err(e) => return unknown(e),
            }
        }
        let (Some(b), Some(a)) = (pair.pop(), pair.pop()) else {
            return unknown(Unknown::incomplete("internal: missing run"));
        };
        runs.push([a, b]);
    }
    let (Some(tr), Some(rr)) = (runs.pop(), runs.pop()) else {
        return unknown(Unknown::incomplete("internal: missing runs"));
    };
    let runs = [rr, tr];
    let sites = [progs[0].site_count(), progs[1].site_count()];
    let mut q = match query::build(&g, &runs, opts.group, tags.list.len(), sites, deadline) {
        Ok(q) => q,
        Err(e) => return unknown(e),
    };
    q.memory_mb = memory_watermark(opts.memory_mb);
    q.work = account.cloned();
    let ask = |a: &[&Bool]| {
        let a: Vec<Bool> = a.iter().map(|b| (*b).clone()).collect();
        check_limited(&q, &a, deadline, rlimit)
    };
    // 1. Some reference run is within bounds (no vacuous proof). A search
    // asks it too: with it skipped (it can take seconds on 64-bit address
    // arithmetic), checker/tests/gpu_examples.rs reported wave_vote's known
    // false alarm (issue 20 class h) in two runs out of two.
    match ask(&[&q.ref_ok]) {
        Err(e) => return unknown(e),
        Ok(None) => {
            let why = match ask(&[&q.ref_in_bounds]) {
                Err(e) => return unknown(e),
                Ok(None) => format!(
                    "no scenario within bounds: every run of the reference leaves max-iters={}",
                    opts.max_iters
                ),
                Ok(Some(m)) => format!(
                    "no scenario within bounds: every reference run within max-iters={} stops out of bounds or has undefined behaviour ({})",
                    opts.max_iters,
                    which(&m, &runs[0][0].stuck)
                        .or_else(|| which(&m, &runs[0][1].stuck))
                        .or_else(|| which(&m, &runs[0][0].ub))
                        .or_else(|| which(&m, &runs[0][1].ub))
                        .unwrap_or_default()
                ),
            };
            return unknown(Unknown::new(Limit::Size, why));
        }
        Ok(Some(_)) => {}
    }
    // 2. A violation within bounds, or a proof, by the monolithic query
    // under a short budget: it decides small programs and finds most
    // counterexamples at once (DESIGN.md 2.5); larger proofs go by
    // matching (step 5).
    let main = [&q.ref_ok, &q.tgt_ok, &q.violated];
    let ctx = confirm::Ctx {
        q: &q,
        g: &g,
        runs: &runs,
        names: &names,
        replay: replay::Replay {
            reference,
            target,
            entries,
            max_iters: opts.max_iters,
            target_iters,
            allow: opts.allow_barrier_removal,
        },
        group: opts.group,
        deadline,
        rlimit,
        reference,
        target,
    };
    let confirm = |model: Model| ctx.confirm(model);
    // 2a. The target has undefined behaviour where the reference is
    // defined (and within bounds): a violation (DESIGN.md 2.7).
    match ask(&[&q.ref_defined, &q.tgt_ub]) {
        Err(e) => return unknown(e),
        Ok(Some(model)) => return confirm(model),
        Ok(None) => {}
    }
    let a: Vec<Bool> = main.iter().map(|b| (*b).clone()).collect();
    let mut proof = None;
    // A search with a work bound of its own asks within it: per query (the
    // small searches), or all its queries within one budget ([`hunt_at`]).
    let quick = if hunt && rlimit > 0 {
        rlimit
    } else if hunt && account.is_some_and(|a| a.total() > 0) {
        0
    } else {
        QUICK_RLIMIT
    };
    match check_limited(&q, &a, deadline, quick) {
        Ok(Some(model)) => return confirm(model),
        Ok(None) => proof = Some(Proof::Query),
        // Out of its work budget: the proof goes by matching below; a
        // search asks again with the time left. A search cut otherwise is
        // cut, never "none found" (docs/src/determinism.md).
        Err(e) if hunt && e.limit == Limit::Size && rlimit == 0 => match check(&q, &a, deadline) {
            Ok(Some(model)) => return confirm(model),
            Ok(None) => proof = Some(Proof::Query),
            Err(e) => return unknown(e),
        },
        Err(e) if hunt => return unknown(e),
        Err(_) => {}
    }
    // 3. The target leaves its unrolling where the reference does not.
    match ask(&[&q.ref_ok, &q.tgt_cut]) {
        Err(e) => return unknown(e),
        Ok(Some(m)) => {
            let why = which(&m, &runs[1][0].cut)
                .or_else(|| which(&m, &runs[1][1].cut))
                .unwrap_or_default();
            return Step::TargetCut(why);
        }
        Ok(None) => {}
    }
    // A search stops here: what follows proves.
    if hunt {
        return unknown(Unknown::incomplete(
            "no counterexample found (a search, not a proof)",
        ));
    }
    // 4. A run within bounds that stops out of bounds.
    match ask(&[&q.ref_in_bounds, &q.stuck]) {
        Err(e) => return unknown(e),
        Ok(Some(m)) => {
            let why = runs
                .iter()
                .flat_map(|per| per.iter())
                .find_map(|r| which(&m, &r.stuck))
                .unwrap_or_default();
            return unknown(Unknown::new(
                Limit::Size,
                format!("a run stops out of bounds: {why}"),
            ));
        }
        Ok(None) => {}
    }
    // 5. The proof by matching, and the monolithic query with all the
    // time left if it does not go through.
    if proof.is_none() {
        let by = |a: &[Bool]| check(&q, a, deadline);
        match matching::prove(&q, &runs, &by) {
            matching::Matching::Proved { pairs, rounds } => {
                proof = Some(Proof::Matching { pairs, rounds })
            }
            matching::Matching::Witness(model) => return confirm(model),
            matching::Matching::Failed(why) => match check(&q, &a, deadline) {
                Ok(Some(model)) => return confirm(model),
                Ok(None) => proof = Some(Proof::Query),
                Err(e) => {
                    return unknown(Unknown::new(
                        e.limit,
                        format!("{e} (the proof by matching failed: {why})"),
                    ))
                }
            },
        }
    }
    // 5. The assumptions of the proof are satisfiable.
    match ask(&[&q.ref_ok, &q.tgt_ok]) {
        Err(e) => return unknown(e),
        Ok(None) => {
            return unknown(Unknown::incomplete(
                "internal: no scenario satisfies the assumptions of the proof",
            ))
        }
        Ok(Some(_)) => {}
    }
    // 6. What the reference's bound cut.
    let cut = match ask(&[&q.ref_cut]) {
        Err(e) => return unknown(e),
        Ok(None) => None,
        Ok(Some(m)) => which(&m, &runs[0][0].cut).or_else(|| which(&m, &runs[0][1].cut)),
    };
    let count = |p: usize| runs[p][0].events.len();
    Step::Done(Answer::Proved(Preserved {
        max_iters: opts.max_iters,
        target_iters,
        group: opts.group,
        cut,
        copies: [progs[0].copies, progs[1].copies],
        events: [count(0), count(1)],
        proof: proof.unwrap_or(Proof::Query),
    }))
}
