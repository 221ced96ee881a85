//! Enumeration of every per-thread path within bounds (DESIGN.md 2.2).
//!
//! A thread's run depends only on its own oracle values, so the set of its
//! possible runs is a tree of decisions: each evaluation of an oracle whose
//! domain has more than one value branches. [`enumerate`] walks that tree
//! depth-first by re-running the thread with a growing prefix of decisions
//! (a run that needs one more value stops with [`Stop::Need`]). Each leaf is
//! a [`Path`]: the decisions, the scenario values they amount to, and the
//! trace.
//!
//! Uniform oracles are enumerated freely per thread; [`compatible`] then
//! keeps only pairs of paths that read equal values wherever they evaluate
//! a uniform oracle in the same converged dynamic instance (equal read
//! sites, DESIGN.md 2.2).
//!
//! Bounds: runs cut because their decisions took a loop past `max_iters`
//! are outside the bounds and counted in [`PathSet::cut`]; runs that exceed
//! a bound whatever their decisions, and the `max_paths` limit, make the set
//! incomplete ([`PathSet::incomplete`]), which callers report as
//! inconclusive.
//!
//! [`explore`] is the checker's enumeration: the values of each oracle
//! come from a domain table (the checker's [`crate::scenario::domains`]),
//! some reads may be fixed in advance (the reference's values, when the
//! target is run on them: its other reads are free), paths come shortest
//! first (so a cap keeps the shortest ones), a budget can stop it, and the
//! runs cut by `max_iters` are examined: if every run after some decisions
//! is cut, the behaviour those decisions lead to is not examined at all
//! ([`Exploration::unexamined`]), which makes a check inconclusive, unless
//! the decision is the value of a loop bound (an oracle compared with a
//! loop counter), whose larger values are then outside the bounds like
//! longer loops ([`Exploration::beyond`]).

use crate::exec::{run_thread, Bounds, OracleSource, Program, Stop, Trace};
use crate::ops::{FuncId, OracleId};
use crate::scenario::ThreadValues;
use crate::Module;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

/// One complete per-thread run within bounds.
#[derive(Clone, Debug)]
pub struct Path {
    /// The thread index it was run with.
    pub tid: u32,
    /// The value chosen at each decision, in order.
    pub decisions: Vec<i64>,
    /// The run.
    pub trace: Trace,
}

impl Path {
    /// The oracle values this path reads, as a thread of a scenario.
    pub fn values(&self, module: &Module) -> ThreadValues {
        self.trace.values(module)
    }

    /// The values read from each uniform oracle, in order.
    pub fn uniform_reads(&self, module: &Module) -> BTreeMap<OracleId, Vec<i64>> {
        let mut map: BTreeMap<OracleId, Vec<i64>> = BTreeMap::new();
        for &(o, _, v) in &self.trace.reads {
            if module.oracles[o].class.is_uniform() {
                map.entry(o).or_default().push(v);
            }
        }
        map
    }
}

/// Every path of one thread within bounds.
#[derive(Clone, Debug, Default)]
pub struct PathSet {
    /// The thread index.
    pub tid: u32,
    /// Complete paths, in depth-first order of ascending decisions.
    pub paths: Vec<Path>,
    /// Runs outside the bounds because of their decisions (loops past
    /// `max_iters`), with one example reason.
    pub cut: usize,
    /// The first reason a run was cut, if any.
    pub cut_reason: Option<String>,
    /// Why the set is not every path within bounds, if it is not.
    pub incomplete: Option<String>,
}

struct Prefix<'a> {
    decisions: &'a [i64],
    used: usize,
}

impl OracleSource for Prefix<'_> {
    fn value(&mut self, module: &Module, oracle: OracleId, _k: u32) -> Result<i64, Stop> {
        let domain = &module.oracles[oracle].domain;
        if domain.len() == 1 {
            return Ok(domain[0]);
        }
        match self.decisions.get(self.used) {
            Some(v) => {
                self.used += 1;
                Ok(*v)
            }
            None => Err(Stop::Need {
                oracle,
                domain: domain.clone(),
            }),
        }
    }

    fn memory(&mut self, module: &Module, oracle: OracleId, _name: &str) -> Result<i64, Stop> {
        // A free location is a decision over its load's domain.
        self.value(module, oracle, 0)
    }
}
// (`Prefix` decides by the module's own domains, the default of
// `OracleSource::decided`.)

/// Enumerates the paths of thread `tid` in a group of `group` threads.
pub fn enumerate(
    program: &dyn Program,
    entry: FuncId,
    tid: u32,
    group: u32,
    bounds: Bounds,
) -> PathSet {
    let mut set = PathSet {
        tid,
        ..PathSet::default()
    };
    let mut stack: Vec<Vec<i64>> = vec![Vec::new()];
    while let Some(prefix) = stack.pop() {
        let mut src = Prefix {
            decisions: &prefix,
            used: 0,
        };
        let (trace, res) = run_thread(program, entry, tid, group, bounds, &mut src);
        match res {
            Ok(()) => {
                if set.paths.len() >= bounds.max_paths {
                    set.incomplete = Some(format!(
                        "more than max-paths={} paths for thread {tid}",
                        bounds.max_paths
                    ));
                    break;
                }
                set.paths.push(Path {
                    tid,
                    decisions: prefix,
                    trace,
                });
            }
            Err(Stop::Need { domain, .. }) => {
                for v in domain.iter().rev() {
                    let mut p = prefix.clone();
                    p.push(*v);
                    stack.push(p);
                }
            }
            Err(Stop::Cut(why)) => {
                set.cut += 1;
                set.cut_reason.get_or_insert(why);
                // Runs cut at the iteration bound cost as much as paths;
                // they are bounded too, and say so.
                if set.cut > bounds.max_paths.saturating_mul(16) {
                    set.incomplete = Some(format!(
                        "more than {} runs of thread {tid} leave max-iters={} (max-paths={} times 16)",
                        bounds.max_paths.saturating_mul(16),
                        bounds.max_iters,
                        bounds.max_paths
                    ));
                    break;
                }
            }
            Err(Stop::OutOfBounds(why) | Stop::Ub(why)) => {
                set.incomplete = Some(format!("thread {tid}: {why}"));
                break;
            }
        }
    }
    if set.incomplete.is_none() && set.paths.is_empty() {
        set.incomplete = Some(format!(
            "thread {tid} has no path within the bounds ({})",
            set.cut_reason
                .clone()
                .unwrap_or_else(|| "every run was cut".into())
        ));
    }
    set
}

/// Whether two paths can be two threads of one scenario: wherever both
/// evaluate a uniform oracle in one converged dynamic instance (equal read
/// sites), they read the same value. The module is not needed since read
/// sites say everything; it is kept for callers.
pub fn compatible(_module: &Module, a: &Path, b: &Path) -> bool {
    crate::scenario::uniform_conflict(&a.trace, &b.trace).is_none()
}

/// What [`explore`] is given besides the program.
pub struct Explore<'a> {
    /// The values to try for each oracle of the program's module (by
    /// oracle id; a list of one value is not a decision).
    pub domains: &'a [Vec<i64>],
    /// Oracles compared with a loop counter (by oracle id): a value of one
    /// whose every run is cut is outside the bounds, not unexamined.
    pub counters: &'a [bool],
    /// Values fixed in advance, by oracle name and evaluation index: reads
    /// they cover are not decisions; other reads are.
    pub given: Option<&'a ThreadValues>,
    /// The run bounds (`max_iters`, `fuel`, `max_depth`, and `max_paths`:
    /// paths kept before the set is incomplete).
    pub bounds: Bounds,
    /// Recorded events the kept paths may hold together (a memory budget).
    pub max_events: usize,
    /// Asked before every run; `Some(reason)` stops the enumeration (a
    /// time budget).
    pub stop: &'a dyn Fn() -> Option<String>,
}

/// The result of [`explore`].
#[derive(Clone, Debug, Default)]
pub struct Exploration {
    /// Complete paths within bounds, shortest first.
    pub paths: Vec<Path>,
    /// Runs cut by `max_iters`.
    pub cut: usize,
    /// The first reason a run was cut.
    pub cut_reason: Option<String>,
    /// Why the paths are not every path within bounds (a run out of bounds
    /// whatever its values, `max_paths`, a budget).
    pub incomplete: Option<String>,
    /// Decisions after which every run is cut, so that the behaviour they
    /// lead to is not examined: a sentence naming the bound.
    pub unexamined: Option<String>,
    /// Values of loop bounds whose every run is cut: the smallest such
    /// value per oracle (the domain stops below it).
    pub beyond: BTreeMap<OracleId, i64>,
    /// Runs made (complete, cut and partial).
    pub runs: usize,
    /// Events the kept paths hold, weighted by their keys' size
    /// ([`Trace::weight`]).
    pub events: usize,
}

/// A value source that takes fixed values first, then decisions.
struct Decide<'a> {
    given: Option<&'a ThreadValues>,
    domains: &'a [Vec<i64>],
    decisions: &'a [i64],
    used: usize,
    /// The oracle of each decision made.
    oracles: Vec<OracleId>,
    last: bool,
}

impl Decide<'_> {
    /// The next decision over `oracle`'s domain.
    fn decide(&mut self, oracle: OracleId) -> Result<i64, Stop> {
        let domain = match self.domains.get(oracle) {
            Some(d) if !d.is_empty() => d,
            _ => return Ok(0),
        };
        if domain.len() == 1 {
            return Ok(domain[0]);
        }
        match self.decisions.get(self.used) {
            Some(v) => {
                self.used += 1;
                self.oracles.push(oracle);
                self.last = true;
                Ok(*v)
            }
            None => Err(Stop::Need {
                oracle,
                domain: domain.clone(),
            }),
        }
    }
}

impl OracleSource for Decide<'_> {
    fn value(&mut self, module: &Module, oracle: OracleId, k: u32) -> Result<i64, Stop> {
        self.last = false;
        if let Some(g) = self.given {
            let name = &module.oracles[oracle].name;
            if let Some(v) = g.0.get(name).and_then(|l| l.get(k as usize)) {
                return Ok(*v);
            }
        }
        self.decide(oracle)
    }

    fn decided(&self, _module: &Module, _oracle: OracleId, _k: u32) -> bool {
        self.last
    }

    fn memory(&mut self, _module: &Module, oracle: OracleId, name: &str) -> Result<i64, Stop> {
        self.last = false;
        if let Some(v) = self
            .given
            .and_then(|g| g.0.get(name))
            .and_then(|l| l.first())
        {
            return Ok(*v);
        }
        self.decide(oracle)
    }

    fn memory_bytes(
        &mut self,
        module: &Module,
        oracle: OracleId,
        names: &[(u32, String)],
    ) -> Result<Vec<u8>, Stop> {
        // Given bytes by name (a replayed scenario), else one decision
        // for all of them.
        let given: Option<Vec<u8>> = names
            .iter()
            .map(|(_, n)| {
                self.given
                    .and_then(|g| g.0.get(n))
                    .and_then(|l| l.first())
                    .map(|v| *v as u8)
            })
            .collect();
        match given {
            Some(b) => {
                self.last = false;
                Ok(b)
            }
            None => {
                let first = names.first().map(|(_, n)| n.as_str()).unwrap_or("");
                let v = self.memory(module, oracle, first)? as u64;
                Ok(names.iter().map(|(i, _)| (v >> (8 * i)) as u8).collect())
            }
        }
    }
}

/// Decisions (8 bytes each, with their vectors' overhead) held in the
/// search per recorded event (about 100 bytes) of the memory budget.
const DECISIONS_PER_EVENT: usize = 8;

/// One node of the search: shortest (partial) runs first; a completed run
/// waits in the queue with its full length, so paths come out in order.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Node {
    len: usize,
    done: bool,
    decisions: Vec<i64>,
}

/// Every path of thread `tid` in a group of `group` threads within the
/// bounds, shortest first (see the module documentation).
pub fn explore(
    program: &dyn Program,
    entry: FuncId,
    tid: u32,
    group: u32,
    x: &Explore,
) -> Exploration {
    let module = program.module();
    let mut out = Exploration::default();
    let mut queue: BinaryHeap<Reverse<(Node, usize)>> = BinaryHeap::new();
    // Completed traces wait here, by the index in the queue item.
    let mut waiting: HashMap<usize, Trace> = HashMap::new();
    let mut next_id = 0usize;
    // Events of the completed runs in `waiting`.
    let mut pending = 0usize;
    queue.push(Reverse((
        Node {
            len: 0,
            done: false,
            decisions: Vec::new(),
        },
        0,
    )));
    // Cut runs: their decisions, the number made before the cut loop
    // execution was entered, and the oracles of those.
    let mut cuts: Vec<(Vec<i64>, usize, Vec<OracleId>)> = Vec::new();
    let cut_cap = x.bounds.max_paths.saturating_mul(16);
    // Runs made (each re-runs the thread from its start): a kernel with
    // many decisions and long runs expands a large tree of partial runs
    // before its first path completes; this caps the work and the queue.
    let run_cap = x.bounds.max_paths.saturating_mul(16);
    // Decisions held by the queue and the cut runs, counted against the
    // memory budget at `DECISIONS_PER_EVENT` decisions per recorded event.
    let mut held = 0usize;
    while let Some(Reverse((node, id))) = queue.pop() {
        held = held.saturating_sub(node.decisions.len());
        if out.events + pending + held / DECISIONS_PER_EVENT > x.max_events {
            out.incomplete = Some(format!(
                "the memory budget: the runs of thread {tid} hold more than {} recorded events",
                x.max_events
            ));
            break;
        }
        if node.done {
            let Some(trace) = waiting.remove(&id) else {
                continue;
            };
            pending -= trace.weight();
            if out.paths.len() >= x.bounds.max_paths {
                out.incomplete = Some(format!(
                    "more than max-paths={} paths for thread {tid}",
                    x.bounds.max_paths
                ));
                break;
            }
            out.events += trace.weight();
            if out.events > x.max_events {
                out.incomplete = Some(format!(
                    "the memory budget: the paths of thread {tid} hold more than {} recorded events",
                    x.max_events
                ));
                break;
            }
            out.paths.push(Path {
                tid,
                decisions: node.decisions,
                trace,
            });
            continue;
        }
        if let Some(why) = (x.stop)() {
            out.incomplete = Some(why);
            break;
        }
        let mut src = Decide {
            given: x.given,
            domains: x.domains,
            decisions: &node.decisions,
            used: 0,
            oracles: Vec::new(),
            last: false,
        };
        if out.runs >= run_cap {
            out.incomplete = Some(format!(
                "more than {run_cap} runs of thread {tid} before its paths were complete \
                 (max-paths={} times 16)",
                x.bounds.max_paths
            ));
            break;
        }
        let (trace, res) = run_thread(program, entry, tid, group, x.bounds, &mut src);
        out.runs += 1;
        match res {
            Ok(()) => {
                next_id += 1;
                let len = trace.events.len();
                // Completed runs that wait for their turn count against the
                // memory budget too.
                pending += trace.weight();
                if out.events + pending > x.max_events {
                    out.incomplete = Some(format!(
                        "the memory budget: the runs of thread {tid} hold more than {} recorded events",
                        x.max_events
                    ));
                    break;
                }
                waiting.insert(next_id, trace);
                held += node.decisions.len();
                queue.push(Reverse((
                    Node {
                        len,
                        done: true,
                        decisions: node.decisions,
                    },
                    next_id,
                )));
            }
            Err(Stop::Need { domain, .. }) => {
                let len = trace.events.len();
                for v in domain {
                    let mut d = node.decisions.clone();
                    d.push(v);
                    held += d.len();
                    next_id += 1;
                    queue.push(Reverse((
                        Node {
                            len,
                            done: false,
                            decisions: d,
                        },
                        next_id,
                    )));
                }
            }
            Err(Stop::Cut(why)) => {
                out.cut += 1;
                out.cut_reason.get_or_insert(why);
                let since = (trace.cut_since.unwrap_or(0) as usize).min(node.decisions.len());
                let oracles = src.oracles[..since.min(src.oracles.len())].to_vec();
                held += node.decisions.len() + oracles.len();
                cuts.push((node.decisions, since, oracles));
                if out.cut > cut_cap {
                    out.incomplete = Some(format!(
                        "more than {cut_cap} runs of thread {tid} leave max-iters={} (max-paths={} times 16)",
                        x.bounds.max_iters, x.bounds.max_paths
                    ));
                    break;
                }
            }
            Err(Stop::OutOfBounds(why) | Stop::Ub(why)) => {
                out.incomplete = Some(format!("thread {tid}: {why}"));
                break;
            }
        }
    }
    if out.incomplete.is_none() && out.paths.is_empty() {
        out.incomplete = Some(format!(
            "thread {tid} has no path within the bounds ({})",
            out.cut_reason
                .clone()
                .unwrap_or_else(|| "every run was cut".into())
        ));
    }
    if out.incomplete.is_none() && !cuts.is_empty() {
        examine_cuts(module, x, &mut out, cuts);
    }
    out
}

/// Finds decisions after which every run is cut (see [`explore`]).
///
/// A run cut in a loop execution entered after decisions `P` is an
/// ordinary bounded cut when some other choice after `P` leaves that loop
/// execution within the bound: a run that starts with `P` and completes,
/// or is cut later in a loop entered before `P`'s end. If no run does, the
/// loop exceeds the bound whatever is decided inside it (a fixed-count
/// loop with decisions in its body), and everything after `P` is
/// unexamined.
fn examine_cuts(
    module: &Module,
    x: &Explore,
    out: &mut Exploration,
    cuts: Vec<(Vec<i64>, usize, Vec<OracleId>)>,
) {
    // Every run, sorted by decisions: complete ones with no `since`.
    let mut runs: Vec<(&[i64], Option<usize>)> = out
        .paths
        .iter()
        .map(|p| (p.decisions.as_slice(), None))
        .chain(
            cuts.iter()
                .map(|(d, since, _)| (d.as_slice(), Some(*since))),
        )
        .collect();
    runs.sort_unstable();
    // Whether a run that starts with `prefix` leaves the loop execution
    // entered after exactly `prefix` within the bound: it completes, or it
    // is cut later in a loop entered before (an enclosing loop, cut at its
    // latch). A cut in a loop entered after more decisions does not count:
    // that loop may be nested in this one.
    let leaves = |prefix: &[i64], since: usize| {
        let i = runs.partition_point(|(d, _)| *d < prefix);
        runs[i..]
            .iter()
            .take_while(|(d, _)| d.starts_with(prefix))
            .any(|(_, s)| s.is_none_or(|s| s < since))
    };
    let mut done: Vec<&[i64]> = out.paths.iter().map(|p| p.decisions.as_slice()).collect();
    done.sort_unstable();
    // Whether some complete path starts with `prefix`.
    let has = |prefix: &[i64]| {
        let i = done.partition_point(|d| *d < prefix);
        done.get(i).is_some_and(|d| d.starts_with(prefix))
    };
    let mut seen: std::collections::HashSet<(&[i64], usize)> = std::collections::HashSet::new();
    for (decisions, since, oracles) in &cuts {
        let prefix = &decisions[..*since];
        if !seen.insert((prefix, *since)) {
            continue;
        }
        if leaves(prefix, *since) {
            continue;
        }
        // The longest start that some complete path shares: the decision
        // after it leads only to this loop's cut runs.
        let j = (0..prefix.len())
            .rev()
            .find(|&j| has(&prefix[..j]))
            .unwrap_or(0);
        let Some(&o) = oracles.get(j) else {
            continue;
        };
        if x.counters.get(o).copied().unwrap_or(false) {
            let e = out.beyond.entry(o).or_insert(prefix[j]);
            *e = (*e).min(prefix[j]);
            continue;
        }
        if out.unexamined.is_none() {
            let decisions: Vec<String> = prefix[..=j]
                .iter()
                .zip(oracles)
                .map(|(v, o)| format!("{}={v}", module.oracles[*o].name))
                .collect();
            out.unexamined = Some(format!(
                "max-iters={} cuts every run of thread {} after the decisions {} ({}), so that \
                 behaviour is not examined at all; raise --max-iters",
                x.bounds.max_iters,
                out.paths.first().map_or(0, |p| p.tid),
                decisions.join(" "),
                out.cut_reason.clone().unwrap_or_default()
            ));
        }
    }
}
