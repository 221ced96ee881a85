//! The explicit refinement engine (DESIGN.md 2.2, 2.7, 2.8).
//!
//! A transform maps a reference program to a target. It is correct within
//! bounds `B` iff for every scenario within `B`:
//!
//! 1. **single-thread behaviour**: each thread's sequence of observable
//!    events (convergent operations by label, memory accesses by space,
//!    direction and address, data-carrying barriers with their predicate) is
//!    unchanged, except what the pass's contract lets it remove;
//! 2. **convergence**: instances matched by (thread, label, occurrence) are
//!    related by the target as some relation the reference allows: equal to
//!    the reference's where it is determined; where the reference has choice
//!    variables, the target's relation must be a member of the set, decided
//!    exactly by the smallest assignment of choices that the target's
//!    converged pairs force (adding equalities only merges classes and adds
//!    convergence-before edges, so if that assignment breaks a constraint or
//!    converges a pair the target keeps apart, every larger one does too);
//! 3. **hazard-freedom**: if the reference has no race and no barrier
//!    divergence in the scenario, neither has the target (judged per pair
//!    of threads, implementation-defined barriers read in their most
//!    converged way: see `relate`).
//!
//! **Scenarios.** A scenario is a group size, a pair of distinct thread
//! indices and every value their oracles read. The group sizes, indices
//! and values tried are those that matter to some expression of either
//! program (`space`, from `convcheck_ir::scenario::domains`); unless the
//! group is fixed ([`Limits::group`]), they cover every group size `N >= 2`
//! and every pair of indices. Each thread's reference paths are enumerated
//! once per (group size, index), shortest first. The target runs on the
//! values of each reference path; the values it reads that the reference
//! path does not (an oracle only the target reads, a further evaluation)
//! are free and enumerated too, so a reference path can have several
//! target runs. A pair of reference paths is one scenario if their uniform
//! reads agree at equal read sites (DESIGN.md 2.2).
//!
//! **Order.** Single-thread behaviour is checked first, shortest paths
//! first; then pairs of threads by group size, then by the summed length
//! of their paths. All stages of a pipeline are checked on the same
//! stream of scenarios, and the check stops at the first counterexample,
//! which is therefore a smallest one (fewest threads, smallest group,
//! shortest paths); the stages it did not finish say so.
//!
//! **Bounds** are never silent ([`Coverage`]): runs cut by `max-iters` are
//! counted; if every run after some decisions is cut, that behaviour is
//! not examined and the verdict is inconclusive (unless the decision is a
//! loop bound, whose larger values are then listed as outside the
//! bounds); a reference or target run that exceeds a bound whatever its
//! decisions, a path set over `max-paths`, and the budgets (time, pairs,
//! stored events: [`Budget`]) make the verdict inconclusive with the
//! bound named. A violation found before a bound was reached is still a
//! violation. `Preserved` means every scenario within the listed bounds
//! was compared, and nothing else.

mod pairs;
mod relate;
pub mod space;
mod stages;

use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Program;
use convcheck_ir::exec::{Bounds, Event, Trace};
use convcheck_ir::scenario::ThreadValues;
use convcheck_ir::{FuncId, Module};
pub use space::Space;
pub use stages::{compare_stages, compare_stages_one_stream, grouped, FINISH_OTHERS_UP_TO};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One side of a comparison: the code to run (at any level) and its entry.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    /// The code: its module's op and oracle tables name its instances.
    pub program: &'a dyn Program,
    /// The same code as a CFG program when it is one, so that the other
    /// cycle hierarchies of an irreducible CFG can be tried.
    pub cfg: Option<&'a CfgProgram>,
    /// The entry function.
    pub entry: FuncId,
}

impl<'a> Side<'a> {
    /// A CFG program's side.
    pub fn cfg(program: &'a CfgProgram, entry: FuncId) -> Side<'a> {
        Side {
            program,
            cfg: Some(program),
            entry,
        }
    }

    /// The module of the code.
    pub fn module(&self) -> &'a Module {
        self.program.module()
    }

    fn label(&self, e: &Event) -> String {
        self.module().label(e.sid).to_string()
    }
}
/// What may disappear from single-thread behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// Nothing.
    Exact,
    /// Plain barriers (not data-carrying ones).
    Barriers,
}

/// The property a counterexample breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Property {
    /// A thread's observable events changed.
    SingleThreadBehaviour,
    /// The set of communicating threads changed.
    Convergence,
    /// A race or barrier divergence appeared.
    Hazards,
}

impl Property {
    /// The property's name in text reports (`single-thread behaviour`).
    pub fn name(self) -> &'static str {
        match self {
            Property::Convergence => "convergence",
            Property::SingleThreadBehaviour => "single-thread behaviour",
            Property::Hazards => "hazard-freedom",
        }
    }

    /// The property's rule id in JSON and SARIF (`single-thread-behaviour`).
    pub fn id(self) -> &'static str {
        match self {
            Property::Convergence => "convergence",
            Property::SingleThreadBehaviour => "single-thread-behaviour",
            Property::Hazards => "hazards",
        }
    }
}

/// Which program of a comparison an operation belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Which {
    /// The reference.
    Reference,
    /// The target.
    Target,
}

/// Where a finding happened: an op of one of the two modules, with its
/// label and line as that module's op table gives them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct At {
    /// Which program's module the op id belongs to.
    pub side: Which,
    /// The op.
    pub op: convcheck_ir::OpId,
    /// Its label.
    pub label: String,
    /// The line it starts on (0 when unknown).
    pub line: u32,
}

impl At {
    /// Op `op` of `module`, on side `side`.
    pub fn of(module: &Module, side: Which, op: convcheck_ir::OpId) -> At {
        At {
            side,
            op,
            label: module.label(op).to_string(),
            line: module.line(op),
        }
    }
}

/// A failing scenario.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Which property.
    pub property: Property,
    /// The scenario: the values each thread reads (reference and target
    /// together), one entry per thread of `tids`.
    pub threads: Vec<ThreadValues>,
    /// Thread indices (`tid`) of those threads.
    pub tids: Vec<u32>,
    /// The group size `N` of the scenario.
    pub group: u32,
    /// What went wrong, in one sentence.
    pub message: String,
    /// The operation it happened at.
    pub operation: Option<At>,
    /// The reference runs of the scenario.
    pub reference: Vec<Trace>,
    /// The target runs.
    pub target: Vec<Trace>,
}

/// The outcome of one comparison.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Every scenario within bounds passes.
    Preserved {
        /// Scenarios (pairs of reference paths) checked.
        pairs: usize,
        /// Reference runs cut by `max-iters` (outside the bounds).
        cut: usize,
    },
    /// A counterexample.
    Violated(Box<Finding>),
    /// A bound stopped the check before an answer.
    Inconclusive(String),
}

/// Bounds and group size of a check.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Enumeration bounds.
    pub bounds: Bounds,
    /// The group size `N` when it is fixed; 0 for every group size `N >= 2`
    /// (the group sizes and thread indices that matter are tried).
    pub group: u32,
}

/// The budgets of a check (DESIGN.md section 5): reaching one ends the
/// check as inconclusive, with the budget named.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// When the check started (the time budget counts from here).
    pub start: Instant,
    /// Wall-clock time the check may take.
    pub timeout: Option<Duration>,
    /// Pairs of reference paths the check may examine.
    pub max_pairs: u64,
    /// Recorded events that the kept paths and target runs may hold
    /// together (about 100 bytes each): the memory budget.
    pub max_events: usize,
    /// The memory the z3 solver of the symbolic product may hold, in MiB
    /// (its own memory budget; z3's `memory_high_watermark`).
    pub solver_memory_mb: u64,
}

/// `d` rounded up to whole seconds (time budgets are printed in seconds).
pub fn whole_seconds_up(d: Duration) -> Duration {
    Duration::from_secs(d.as_secs() + u64::from(d.subsec_nanos() > 0))
}

/// The default time budget: 60 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The default pair budget.
pub const DEFAULT_MAX_PAIRS: u64 = 100_000_000;

/// The default memory budget in recorded events (about 100 bytes each;
/// measured peaks in docs/src/soundness.md).
pub const DEFAULT_MAX_EVENTS: usize = 15_000_000;

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            start: Instant::now(),
            timeout: Some(DEFAULT_TIMEOUT),
            solver_memory_mb: convcheck_smt::product::Z3_MEMORY_MB,
            max_pairs: DEFAULT_MAX_PAIRS,
            max_events: DEFAULT_MAX_EVENTS,
        }
    }
}

/// Where a running check is, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// What it is doing (`reference paths`, `target runs`, `pairs`).
    pub phase: &'static str,
    /// How much of it is done.
    pub done: u64,
    /// Out of how much (0 when unknown).
    pub total: u64,
}

/// What a check covered and which bounds cut what (DESIGN.md 2.7: every
/// bound that cut something is named with how much it cut).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Coverage {
    /// Group sizes tried, each with its thread indices.
    pub groups: Vec<(u32, Vec<u32>)>,
    /// Whether the group size was fixed.
    pub fixed_group: bool,
    /// The values tried per oracle (only oracles read with more than one
    /// value, and `tid` / `N` when they matter).
    pub domains: BTreeMap<String, Vec<i64>>,
    /// Loop bounds (oracles compared with a loop counter) and the smallest
    /// value whose runs all need more than `max-iters` iterations.
    pub loop_bounds: BTreeMap<String, Option<i64>>,
    /// Oracles whose domain may miss a value, with the expressions the
    /// analysis does not cover.
    pub inexact: BTreeMap<String, Vec<String>>,
    /// What the caps on group sizes and indices left out.
    pub capped: Vec<String>,
    /// Reference paths within bounds, over all group sizes and indices.
    pub paths: usize,
    /// Reference runs cut by `max-iters`.
    pub cut: usize,
    /// Why the first of them was cut.
    pub cut_reason: Option<String>,
    /// Target runs cut by the target's iteration bound.
    pub target_cut: usize,
    /// Pairs of reference paths (candidate scenarios) in all.
    pub pairs_total: u64,
    /// Pairs examined before the check ended.
    pub pairs_examined: u64,
    /// Pairs examined that are scenarios (their uniform reads agree).
    pub scenarios: u64,
    /// The budget that ended the check, if one did.
    pub budget: Option<String>,
    /// Reference paths dropped because their run has undefined behaviour
    /// (they constrain nothing: LangRef), over all group sizes and
    /// indices.
    pub reference_ub: u64,
    /// The first of them: group size, thread index and what the run did.
    pub reference_ub_first: Option<String>,
}

/// The outcome of every stage, and what the check covered.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// One outcome per target, in order.
    pub outcomes: Vec<Outcome>,
    /// The scenarios tried and the bounds that cut them.
    pub coverage: Coverage,
}

/// Compares `target` against `reference` with the default budget.
pub fn compare(reference: &Side, target: &Side, allow: Allowance, limits: Limits) -> Outcome {
    compare_stages(
        reference,
        &[(*target, allow)],
        limits,
        &Budget::default(),
        &mut |_| {},
    )
    .outcomes
    .swap_remove(0)
}

/// Like [`compare`], with the reference's cycle hierarchy left open: an
/// irreducible CFG has several cycle hierarchies, each a different
/// maximal-convergence relation (LLVM ConvergenceAndUniformity), and an
/// implementation may follow any one of them. The target is preserved if
/// it refines the reference under some hierarchy of the entry function
/// (at most `limit` are tried); otherwise the violation under LLVM's own
/// hierarchy is reported. With a source-level or reducible reference this
/// is [`compare`].
pub fn compare_any_hierarchy(
    reference: &Side,
    target: &Side,
    allow: Allowance,
    limits: Limits,
    limit: usize,
) -> Outcome {
    compare_any_hierarchy_within(reference, target, allow, limits, limit, &Budget::default())
}

/// [`compare_any_hierarchy`] within `budget`: every hierarchy tried
/// shares it (its time budget ends at one deadline for all of them), so
/// that an irreducible reference with several hierarchies does not spend
/// the budget once per hierarchy.
pub fn compare_any_hierarchy_within(
    reference: &Side,
    target: &Side,
    allow: Allowance,
    limits: Limits,
    limit: usize,
    budget: &Budget,
) -> Outcome {
    let one = |r: &Side| {
        compare_stages(r, &[(*target, allow)], limits, budget, &mut |_| {})
            .outcomes
            .swap_remove(0)
    };
    let first = one(reference);
    let Some(program) = reference.cfg else {
        return first;
    };
    if !matches!(first, Outcome::Violated(_)) {
        return first;
    }
    let cfg = &program.module.functions[reference.entry];
    // One more than the limit, to know whether the limit cut anything.
    let all = convcheck_ir::cycles::all_hierarchies(cfg, limit.saturating_add(1));
    let capped = all.len() > limit;
    let mut unknown = None;
    for h in all.iter().take(limit).skip(1) {
        let mut alt = program.clone();
        alt.cycles[reference.entry] = h.clone();
        let side = Side::cfg(&alt, reference.entry);
        match one(&side) {
            Outcome::Preserved { pairs, cut } => return Outcome::Preserved { pairs, cut },
            Outcome::Inconclusive(why) => unknown = unknown.or(Some(why)),
            Outcome::Violated(_) => {}
        }
    }
    // A hierarchy the budget cut may still be refined by the target: the
    // violation under the others is no verdict.
    if let Some(why) = unknown {
        return Outcome::Inconclusive(format!(
            "violated under LLVM's cycle hierarchy, but another hierarchy of the irreducible \
             reference was not decided: {why}"
        ));
    }
    if capped {
        return Outcome::Inconclusive(format!(
            "the reference CFG has more than {limit} cycle hierarchies (the hierarchy cap) and \
             the target refines none of the first {limit}"
        ));
    }
    first
}

/// Checks one pass on a module with the module itself as reference (what a
/// fuzz run and the fuzz oracle do for every program): runs the pass and
/// compares under the pass's contract. A pass that fails to run is
/// reported as inconclusive.
pub fn check_pass_against_cfg(
    module: &Module,
    entry: FuncId,
    pass: &dyn convcheck_transforms::Pass,
    limits: Limits,
) -> Outcome {
    let reference_program = CfgProgram::new(module.clone());
    let mut m = module.clone();
    if let Err(e) = pass.run(&mut m) {
        return Outcome::Inconclusive(format!("the pass failed: {e}"));
    }
    let allow = if pass.contract() == convcheck_transforms::Contract::RemovesBarriers {
        Allowance::Barriers
    } else {
        Allowance::Exact
    };
    let target_program = CfgProgram::new(m);
    let reference = Side::cfg(&reference_program, entry);
    let target = Side::cfg(&target_program, entry);
    compare_any_hierarchy(&reference, &target, allow, limits, HIERARCHY_CAP)
}
