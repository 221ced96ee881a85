//! Unbounded proofs by simulation (DESIGN.md 2.7 "proved"; issue 22 item
//! 1): translation validation in the style of Necula's for GCC, for
//! single-thread behaviour *and* maximal convergence.
//!
//! [`prove`] looks for a *simulation relation* between a reference and a
//! target function: pairs of program points (one per program), each with
//! an invariant relating the two programs' states. Every step of the
//! relation runs one *segment* in each program (from a point to its next
//! observable event, cycle header or return; `exec`) and must land on a
//! pair of the relation, with equal events, the same used loads, and the
//! invariant carried over; a program whose segment ends in an event while
//! the other's enters a cycle header waits (a stutter), and every cycle of
//! the relation must move both programs. A relation found this way proves,
//! for every iteration count and every value of every oracle, that each
//! thread's observable events are equal in both programs. Convergence is
//! proved on top (`recheck`, condition 5): the cycle counts of
//! `product::unroll` make a convergent operation's maximal-convergence
//! key a function of its site and the counts, and the relation must pair
//! sites and counts so that two threads' matched instances have equal
//! keys in the target iff they have in the reference. Hazards then follow
//! (`product::support`).
//!
//! What this covers, because a segment is a set of *paths* matched by
//! their feasibility under the invariant rather than a block matched to a
//! block: inverted conditions (InstCombine's `icmp ne` to `icmp eq` with
//! swapped successors), merged and split blocks, removed empty blocks that
//! head no cycle, blocks duplicated under conditions (jump threading,
//! unswitching: one reference point related to several target points, the
//! condition kept by the invariant), renamed and recomputed values and
//! phis, loops fully unrolled (each iteration a point of the target with
//! the reference's counts constant), loops unrolled by a factor `m` that
//! divides their trip count (`ref %x = tgt %x + j`, `x mod m = r`, the
//! reference's cycle count `m * tgt + j - m + 1` inside copy `j`; see
//! [`Atom`]), and convergence-control tokens aligned with the cycles,
//! anchors outside cycles included (`anchors`). Convergent operations duplicated
//! under a divergent condition, or whose cycle counts the transform
//! changes (a folded loop nest), have no relation: that is what breaks
//! convergence.
//!
//! **Answers.** `Proved(`[`Certificate`]`)` only after the relation the
//! search found ([`search`]) passed the re-check from scratch
//! ([`recheck`]): the launch pair, satisfiable invariants, closure,
//! progress and convergence. `NotFound(reason)` when no relation was found
//! (the transform may still be correct: the bounded engines decide).
//! `Unknown(reason)` when a budget ran out. Neither is a verdict.
//!
//! **Memory** (`memory`): where no program passes a barrier or accesses
//! memory atomically, loads of shared and global memory read what the
//! thread stored there, byte by byte, else the location's free value.
//! Every node holds one memory for both programs and each step must leave
//! the two memories equal; what a memory holds is not carried from node to
//! node (a target that relies on the value a store left, as a load folded
//! to it, is not proved).
//!
//! **Loads as accesses.** Where a program loads bytes, the search first
//! tries with byte-addressed loads as accesses only (`exec::Exec::
//! accesses`), as single-thread behaviour has them, and only where that
//! finds no relation again with such loads as events (compared, with the
//! used-load obligations: the two programs then meet at every load, which
//! a target that stutters before reloading needs). A target that uses a load at once through `freeze` where the
//! reference uses it later or never, or that no longer loads a value its
//! unswitched copy does not need, is proved. Hazards: where a program has
//! a store that can race, every load of the target must read bytes the
//! reference accesses in the same step (`obligations::loads_covered`),
//! since such a load is no event. (Before, an unused load was no event
//! either and nothing compared it: a target that added a load racing with
//! another thread's store was proved; `tests/simulation_loads.rs`. The
//! kernel language's element loads and stores are accesses too: without
//! them the condition was vacuous for element arrays, red-team F0.)
//!
//! Not modelled (answers `NotFound` with the construct named): calls of
//! functions defined in the module, convergence-control tokens that are
//! not aligned with the cycles (anchors inside cycles, a heart used after
//! its cycle is left), irreducible cycles, plain
//! barriers that the transform may remove, events under lazy operators,
//! loads in a function with a barrier (an unused load is no event, so a
//! load moved across a barrier, a race, would go unseen), private memory
//! (its stores are not events), atomics and volatile loads.

mod anchors;
mod atoms;
mod exec;
mod memory;
mod obligations;
mod recheck;
mod scan;
mod search;
mod side;
mod solve;
pub use solve::set_thread_clock;

pub use atoms::Atom;
pub use recheck::{Conditions, RelNode};
pub use side::Loc;

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{Expr, FuncId, Module, OracleClass};
use scan::{byte_loads, clobbers, for_each_expr, plain_memory, racing_stores, stores, unsupported};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// The words of every `NotFound` answer that refuses a construct the
/// simulation does not model (rather than finding no relation between
/// what it models): callers tell a refusal from a failed search by them.
pub const NOT_MODELLED: &str = "not modelled by the simulation";

/// Options of a simulation proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// The budget of the whole proof (search and re-check).
    pub timeout: Duration,
    /// At most this many pairs of program points.
    pub max_nodes: usize,
    /// At most this many paths in one segment of one program.
    pub max_paths: usize,
    /// Whether the transform may remove plain barriers (a barrier-removal
    /// pass's contract): then no relation is sought for a program with one.
    pub allow_barrier_removal: bool,
    /// The memory z3 may hold, in MiB (at most 4095).
    pub memory_mb: u64,
    /// The work the whole proof may do, in z3's resource units (its
    /// `rlimit` counter; 0: no budget but the timeout). Unlike the
    /// timeout, what it cuts is the same on every machine and at every
    /// load (`solve`): the checker sets it and a generous timeout.
    pub work: u64,
    /// A cap on the CPU time of the calling thread for the whole proof
    /// (`None`: none but `timeout`): the safety net of `work` that, unlike
    /// `timeout`, does not cut sooner on a loaded machine (`solve`). The
    /// checker sets it, with `timeout` the time left of its own budget.
    pub cpu_time: Option<Duration>,
}

impl Default for SimOptions {
    fn default() -> SimOptions {
        SimOptions {
            timeout: Duration::from_secs(10),
            max_nodes: 2000,
            max_paths: 4096,
            allow_barrier_removal: false,
            memory_mb: crate::product::Z3_MEMORY_MB,
            work: 0,
            cpu_time: None,
        }
    }
}

/// One node of a certificate, for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertNode {
    /// The reference's program point (`block` or `block:instruction`).
    pub reference: String,
    /// The target's.
    pub target: String,
    /// The invariant, one fact per entry.
    pub invariant: Vec<String>,
}

/// A simulation relation that passed the re-check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The relation as data (what [`recheck`] checks).
    pub relation: Vec<RelNode>,
    /// The relation for people.
    pub nodes: Vec<CertNode>,
    /// Steps checked.
    pub edges: usize,
    /// Pairs of convergent operations related, as `label (block)` in the
    /// reference and the target.
    pub sites: Vec<(String, String)>,
    /// Reference paths into `unreachable` (undefined behaviour, which
    /// constrains nothing).
    pub vacuous: usize,
    /// z3 queries, search and re-check.
    pub queries: usize,
    /// Queries not asked, search and re-check: a pair of paths that a
    /// model at hand runs along, a candidate that the edge's own run
    /// falsifies, an obligation true by z3's rewriting alone.
    pub saved: usize,
    /// z3's work units spent, search and re-check (0 where
    /// [`SimOptions::work`] set no budget: it is counted only then).
    pub work: u64,
}

/// The answer of a simulation proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimAnswer {
    /// A relation was found and re-checked: the target preserves
    /// single-thread behaviour, convergence and hazard-freedom for every
    /// execution.
    Proved(Certificate),
    /// No relation was found (not a verdict).
    NotFound(String),
    /// A budget ran out (not a verdict).
    Unknown(String),
}

/// Why a search or re-check stopped.
#[derive(Clone, Debug)]
pub(crate) enum Fail {
    NotFound(String),
    Unknown(String),
    /// Internal to the search: treat the pending load at (block,
    /// instruction) of program 0 or 1 as unobservable at the node and try
    /// again.
    Silence(usize, (usize, usize)),
}

/// The oracles function `f` of `p` reads.
fn used(p: &CfgProgram, f: FuncId) -> Vec<convcheck_ir::OracleInfo> {
    side::used_oracles(&p.module, f)
        .into_iter()
        .filter_map(|o| p.module.oracles.get(o))
        .cloned()
        .collect()
}

/// Looks for a simulation relation proving that function `tgt_fn` of
/// `target` preserves function `ref_fn` of `reference` (each module with
/// LLVM's cycle hierarchy; ops matched by label, oracles by name).
pub fn prove(
    reference: &Module,
    ref_fn: FuncId,
    target: &Module,
    tgt_fn: FuncId,
    opts: &SimOptions,
) -> SimAnswer {
    prove_programs(
        &CfgProgram::new(reference.clone()),
        ref_fn,
        &CfgProgram::new(target.clone()),
        tgt_fn,
        opts,
    )
}

/// Runs `f` on the two functions prepared ([`side::Side`]): tokens aligned
/// with the cycles erased (`anchors::erase_function`), what is not
/// modelled refused, the oracles the two read named once.
fn with_sides<T>(
    reference: &CfgProgram,
    ref_fn: FuncId,
    target: &CfgProgram,
    tgt_fn: FuncId,
    opts: &SimOptions,
    f: impl FnOnce([&side::Side; 2], &exec::Shared, &[String]) -> T,
) -> Result<T, SimAnswer> {
    let erase = |p: &CfgProgram, f: FuncId, side: &str| {
        anchors::erase_function(p, f)
            .map_err(|why| SimAnswer::NotFound(format!("{side}: {NOT_MODELLED}: {why}")))
    };
    let erased = (
        erase(reference, ref_fn, "reference")?,
        erase(target, tgt_fn, "target")?,
    );
    let reference = erased.0.as_ref().unwrap_or(reference);
    let target = erased.1.as_ref().unwrap_or(target);
    for (p, f, side) in [(reference, ref_fn, "reference"), (target, tgt_fn, "target")] {
        if let Some(why) = unsupported(p, f, opts.allow_barrier_removal) {
            return Err(SimAnswer::NotFound(format!(
                "{side}: {NOT_MODELLED}: {why}"
            )));
        }
    }
    // Oracle names of both modules, matched by name, with one class.
    let mut classes: BTreeMap<String, OracleClass> = BTreeMap::new();
    for o in used(reference, ref_fn).iter().chain(&used(target, tgt_fn)) {
        if let Some(c) = classes.insert(o.name.clone(), o.class) {
            if c != o.class {
                return Err(SimAnswer::NotFound(format!(
                    "the oracle `{}` is {} in one program and {} in the other",
                    o.name,
                    c.name(),
                    o.class.name()
                )));
            }
        }
    }
    let mut names: Vec<String> = classes.keys().cloned().collect();
    // Loads of values in memory, where neither function passes a barrier
    // or accesses memory atomically (`exec::Shared::memory`): what the
    // thread stored (`memory`), else one stream of free values per width.
    let plain = plain_memory(reference, ref_fn) && plain_memory(target, tgt_fn);
    if plain {
        let mut widths = BTreeSet::new();
        for (p, f) in [(reference, ref_fn), (target, tgt_fn)] {
            for_each_expr(p, f, &mut |e| {
                if let Expr::Load { access, .. } = e {
                    if access.bytes > 0 {
                        widths.insert(access.bytes.min(8));
                    }
                }
            });
        }
        names.extend(widths.into_iter().map(exec::memory_name));
        // Sorted: the sides find oracles' names by binary search.
        names.sort();
        names.dedup();
    }
    let mut shared = exec::Shared::new(names.clone());
    shared.plain_memory = plain;
    shared.stores = plain && (stores(reference, ref_fn) || stores(target, tgt_fn));
    shared.loads = byte_loads(reference, ref_fn) || byte_loads(target, tgt_fn);
    shared.races = racing_stores(reference, ref_fn) || racing_stores(target, tgt_fn);
    shared.clobbers =
        plain && shared.loads && (clobbers(reference, ref_fn) || clobbers(target, tgt_fn));
    let r = side::Side::new(reference, ref_fn, &names)
        .map_err(|e| SimAnswer::NotFound(format!("reference: {e}")))?;
    let t = side::Side::new(target, tgt_fn, &names)
        .map_err(|e| SimAnswer::NotFound(format!("target: {e}")))?;
    let mb = opts.memory_mb.clamp(1, 4095);
    z3::set_global_param("memory_high_watermark", &(mb << 20).to_string());
    Ok(f([&r, &t], &shared, &names))
}

/// The search alone: the relation it found, not re-checked (what the
/// re-check and the theorem tests' mutants take).
fn search_only(
    sides: [&side::Side; 2],
    shared: &exec::Shared,
    opts: &SimOptions,
    deadline: Instant,
    work: &solve::Work,
    long_only: bool,
    accesses: bool,
) -> Result<(Vec<RelNode>, usize, usize), Fail> {
    let thr = exec::Thread::new(0);
    let mut s = search::Search::new(sides, shared, &thr, opts, deadline, work.clone());
    s.long = long_only;
    s.accesses = accesses;
    if let Err(first) = s.run() {
        if long_only {
            return Err(first);
        }
        // A second try guessing constant bounds (a loop unrolled by a
        // factor of its constant trip count, whose target the bound keeps
        // from overflowing); the first answer stands if it fails too.
        if !matches!(first, Fail::NotFound(_)) {
            return Err(first);
        }
        // (Only where a bound can be guessed: without one the second try
        // would repeat the first.)
        let guessable = sides.iter().any(|s| !atoms::bounds(s).is_empty());
        let (spent, saved) = (s.z3.queries, s.z3.saved);
        s = search::Search::new(sides, shared, &thr, opts, deadline, work.clone());
        s.bounds = true;
        s.accesses = accesses;
        s.z3.queries = spent;
        s.z3.saved = saved;
        let second = guessable && s.run().is_ok();
        // Where neither the second try nor a third applies, the first
        // answer stands (not the relation of a search that was not run or
        // failed: its re-check would refuse it for the wrong reason,
        // "no launch node").
        if !second && !nests_differ(sides) {
            return Err(first);
        }
        if !second {
            // A third try with long segments (`exec::Exec::long`): a loop
            // that one program runs once under a condition is no cut.
            let (spent, saved) = (s.z3.queries, s.z3.saved);
            s = search::Search::new(sides, shared, &thr, opts, deadline, work.clone());
            s.long = true;
            s.accesses = accesses;
            s.z3.queries = spent;
            s.z3.saved = saved;
            s.run().map_err(|_| first)?;
        }
    }
    // Nodes no current edge reaches any more (their source was weakened or
    // silenced since) are not part of the relation.
    let relation: Vec<RelNode> = s
        .reachable()
        .into_iter()
        .map(|i| &s.nodes[i])
        .map(|n| RelNode {
            init: n.init,
            loc: n.loc,
            atoms: n.atoms.clone(),
            silent: n.silent.clone(),
            long: s.long,
            accesses: s.accesses,
        })
        .collect();
    Ok((relation, s.z3.queries, s.z3.saved))
}

/// Whether the two programs' cycles nest differently (the depths of their
/// headers differ as multisets): where a loop was hoisted out of its parent
/// or duplicated into no cycle. Only then are long segments tried
/// (`exec::Exec::long`): elsewhere (most stages of a pipeline) the try
/// would spend the budget that the bounded engines need after it.
fn nests_differ(sides: [&side::Side; 2]) -> bool {
    let depths = |s: &side::Side| {
        let mut d: Vec<usize> = (0..s.header.len())
            .filter(|&b| s.header[b])
            .map(|b| s.chains[b].len())
            .collect();
        d.sort_unstable();
        d
    };
    depths(sides[0]) != depths(sides[1])
}

/// The search's tries (`search_only`) and the re-check of what they found,
/// with byte-addressed loads as events or as accesses only
/// (`exec::Exec::accesses`): the relation, what the re-check counted, and
/// the search's queries (all, and those answered without z3).
fn attempt(
    [r, t]: [&side::Side; 2],
    shared: &exec::Shared,
    opts: &SimOptions,
    deadline: Instant,
    work: &solve::Work,
    accesses: bool,
) -> Result<(Vec<RelNode>, recheck::Checked, usize, usize), Fail> {
    let (mut relation, mut searched, mut saved) =
        search_only([r, t], shared, opts, deadline, work, false, accesses)?;
    let recheck = |relation: &[RelNode]| {
        recheck::recheck(
            [r, t],
            shared,
            relation,
            opts,
            deadline,
            work.clone(),
            Conditions::default(),
        )
    };
    let mut checked = recheck(&relation);
    // A relation of short segments that the re-check refuses (a
    // reference-only cycle: the reference's inner loop paired with the
    // target waiting at a header it lacks) is searched again with long
    // segments; the first answer stands if that fails too.
    if matches!(checked, Err(Fail::NotFound(_)))
        && !relation.iter().any(|n| n.long)
        && nests_differ([r, t])
    {
        if let Ok((rel, q, sv)) = search_only([r, t], shared, opts, deadline, work, true, accesses)
        {
            let again = recheck(&rel);
            if again.is_ok() {
                (relation, checked) = (rel, again);
                searched += q;
                saved += sv;
            }
        }
    }
    Ok((relation, checked?, searched, saved))
}

/// [`prove`] on programs with their chosen cycle hierarchies.
pub fn prove_programs(
    reference: &CfgProgram,
    ref_fn: FuncId,
    target: &CfgProgram,
    tgt_fn: FuncId,
    opts: &SimOptions,
) -> SimAnswer {
    prove_programs_spent(reference, ref_fn, target, tgt_fn, opts).0
}

/// [`prove_programs`], with the units of z3's work the proof spent,
/// whatever its answer (0 where [`SimOptions::work`] set no budget): what a
/// caller sharing one budget among several proofs takes from it.
pub fn prove_programs_spent(
    reference: &CfgProgram,
    ref_fn: FuncId,
    target: &CfgProgram,
    tgt_fn: FuncId,
    opts: &SimOptions,
) -> (SimAnswer, u64) {
    let deadline = Instant::now() + opts.timeout;
    let work = solve::Work::with_cpu(opts.work, opts.cpu_time);
    let run = |[r, t]: [&side::Side; 2], shared: &exec::Shared, names: &[String]| {
        // Where a program loads bytes, the tries with loads as accesses
        // only (`exec::Exec::accesses`) first, then, where they find no
        // proof, the same tries with loads as events (compared, with the
        // used-load obligations); elsewhere the second alone (no load,
        // nothing to choose). The first answer stands if both fail.
        let loads = shared.plain_memory && shared.loads;
        let mut tried = attempt([r, t], shared, opts, deadline, &work, loads);
        if loads && matches!(tried, Err(Fail::NotFound(_))) {
            if let Ok(x) = attempt([r, t], shared, opts, deadline, &work, false) {
                tried = Ok(x);
            }
        }
        let (relation, checked, searched, saved) = match tried {
            Ok(x) => x,
            Err(f) => return answer_of(f),
        };
        match checked {
            // Every step from the launch on is one where the reference
            // reaches undefined behaviour: the relation holds vacuously and
            // compares nothing, which is no proof (DESIGN.md 2.7).
            c if c.vacuous > 0 && c.vacuous >= c.edges => SimAnswer::NotFound(
                "every run of the reference reaches undefined behaviour: nothing to compare".into(),
            ),
            c => {
                let sides = [r, t];
                let site = |w: usize, st: &exec::Site| {
                    format!(
                        "{} ({})",
                        sides[w].module.label(st.op),
                        sides[w].block_name(st.block)
                    )
                };
                let nodes = relation
                    .iter()
                    .map(|n| CertNode {
                        reference: if n.init {
                            "launch".into()
                        } else {
                            r.describe(n.loc[0])
                        },
                        target: if n.init {
                            "launch".into()
                        } else {
                            t.describe(n.loc[1])
                        },
                        invariant: n.atoms.iter().map(|a| describe_atom(a, names)).collect(),
                    })
                    .collect();
                SimAnswer::Proved(Certificate {
                    nodes,
                    edges: c.edges,
                    sites: c
                        .sites
                        .iter()
                        .map(|(a, b)| (site(0, a), site(1, b)))
                        .collect(),
                    vacuous: c.vacuous,
                    queries: searched + c.queries,
                    saved: saved + c.saved,
                    work: work.spent(opts.work),
                    relation,
                })
            }
        }
    };
    let answer = match with_sides(reference, ref_fn, target, tgt_fn, opts, run) {
        Ok(a) | Err(a) => a,
    };
    (answer, work.spent(opts.work))
}

/// The relation the search finds, *not re-checked*: no proof by itself
/// (for [`check_relation_with`] and the theorem tests' mutants). `Err`
/// says why none was found.
pub fn find_relation(
    reference: &CfgProgram,
    ref_fn: FuncId,
    target: &CfgProgram,
    tgt_fn: FuncId,
    opts: &SimOptions,
) -> Result<Vec<RelNode>, String> {
    let deadline = Instant::now() + opts.timeout;
    let found = with_sides(
        reference,
        ref_fn,
        target,
        tgt_fn,
        opts,
        |sides, shared, _| {
            // As `prove_programs_spent` tries: where a program loads
            // bytes, loads as accesses only, then loads as events.
            let work = solve::Work::with_cpu(opts.work, opts.cpu_time);
            let loads = shared.plain_memory && shared.loads;
            let first = search_only(sides, shared, opts, deadline, &work, false, loads);
            if loads && matches!(first, Err(Fail::NotFound(_))) {
                if let Ok(x) = search_only(sides, shared, opts, deadline, &work, false, false) {
                    return Ok(x);
                }
            }
            first
        },
    );
    match found {
        Ok(Ok((relation, _, _))) => Ok(relation),
        Ok(Err(f)) => Err(describe_fail(f)),
        Err(a) => Err(format!("{a:?}")),
    }
}

/// Re-checks a relation (a certificate's data) from scratch: `Ok` with
/// the number of steps checked when it proves the target preserves the
/// reference.
pub fn check_relation(
    reference: &CfgProgram,
    ref_fn: FuncId,
    target: &CfgProgram,
    tgt_fn: FuncId,
    relation: &[RelNode],
    opts: &SimOptions,
) -> Result<usize, String> {
    check_relation_with(
        reference,
        ref_fn,
        target,
        tgt_fn,
        relation,
        opts,
        Conditions::default(),
    )
}

/// [`check_relation`] checking only the conditions `on` (the theorem
/// tests' mutants turn one off).
pub fn check_relation_with(
    reference: &CfgProgram,
    ref_fn: FuncId,
    target: &CfgProgram,
    tgt_fn: FuncId,
    relation: &[RelNode],
    opts: &SimOptions,
    on: Conditions,
) -> Result<usize, String> {
    let deadline = Instant::now() + opts.timeout;
    let checked = with_sides(
        reference,
        ref_fn,
        target,
        tgt_fn,
        opts,
        |sides, shared, _| {
            let work = solve::Work::with_cpu(opts.work, opts.cpu_time);
            recheck::recheck(sides, shared, relation, opts, deadline, work, on)
        },
    );
    match checked {
        Ok(Ok(c)) => Ok(c.edges),
        Ok(Err(f)) => Err(describe_fail(f)),
        Err(a) => Err(format!("{a:?}")),
    }
}

fn describe_fail(f: Fail) -> String {
    match f {
        Fail::NotFound(e) | Fail::Unknown(e) => e,
        Fail::Silence(..) => "internal: a silence request outside the search".into(),
    }
}

fn answer_of(f: Fail) -> SimAnswer {
    match f {
        Fail::NotFound(e) => SimAnswer::NotFound(e),
        Fail::Unknown(e) => SimAnswer::Unknown(e),
        Fail::Silence(..) => SimAnswer::NotFound("internal: a load left unsilenced".into()),
    }
}

fn describe_atom(a: &Atom, names: &[String]) -> String {
    match a {
        Atom::CntDiff(o, d) => {
            let n = names.get(*o).map_or("?", |s| s.as_str());
            if *d == 0 {
                format!("reads of `{n}` in step")
            } else {
                format!("reads of `{n}`: ref = tgt + {d}")
            }
        }
        // A uniform-invariant oracle's one value (`exec::Shared`) by name.
        Atom::Pred(_) => names.iter().enumerate().fold(a.to_string(), |t, (i, n)| {
            t.replace(
                &format!("(S{i} #x00 #x0000000000000000)"),
                &format!("`{n}`"),
            )
        }),
        other => other.to_string(),
    }
}
