//! Two programs run on the same oracle values, and the two-thread
//! comparison of DESIGN.md 2.7 built from the interpreter's keys alone.
//!
//! A *scenario* for one thread is a stream of values per oracle (the
//! `k`-th evaluation of oracle `c` returns `stream[c][k]`; an invariant
//! oracle is read once). [`behaviours`] enumerates, depth first, every
//! assignment of streams (each value from the oracle's domain, each stream
//! at most `max_stream` long) that both programs need to run to their end
//! within the iteration bound, and returns the distinct pairs of runs
//! (reference run, target run). A scenario that leaves a bound in either
//! program is counted as cut, never compared.
//!
//! Because a thread's run depends only on its own values and id (DESIGN.md
//! 2.2), two threads are compared by taking any reference/target run pair
//! of thread 0 and any of thread 1. [`compare`] then checks, for that pair
//! of threads: (1) each thread's observable events (labels of convergent
//! operations, memory accesses with space and address) are unchanged;
//! (2) converged-with on matched convergent operations, matched by
//! (label, occurrence), is the same in reference and target, for every
//! pair of instances of one label (one per thread, any occurrences). A pair whose
//! reference runs read a uniform oracle at one converged site with
//! different values is not a scenario (DESIGN.md 2.2) and is skipped, as
//! is one whose threads read a uniform-invariant oracle with different
//! values in either program (one value for the whole run).

use convcheck_ir::exec::{
    run_thread, Bounds, Event, EventKind, OracleSource, Program, Stop, Trace,
};
use convcheck_ir::key::Key;
use convcheck_ir::ops::OracleId;
use convcheck_ir::Module;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Per-oracle value streams of one thread.
pub type Streams = BTreeMap<OracleId, Vec<i64>>;

struct StreamSource<'a>(&'a Streams);

impl OracleSource for StreamSource<'_> {
    fn value(&mut self, module: &Module, oracle: OracleId, k: u32) -> Result<i64, Stop> {
        let info = &module.oracles[oracle];
        let k = if info.class.is_invariant() {
            0
        } else {
            k as usize
        };
        match self.0.get(&oracle).and_then(|s| s.get(k)) {
            Some(v) => Ok(*v),
            None => Err(Stop::Need {
                oracle,
                domain: info.domain.clone(),
            }),
        }
    }
}

/// One thread's runs of both programs on the same values.
#[derive(Clone, Debug)]
pub struct Behaviour {
    /// The values (one witness; other streams may give the same runs).
    pub streams: Streams,
    /// The reference run.
    pub reference: Trace,
    /// The target run.
    pub target: Trace,
}

/// The runs of one thread id.
#[derive(Clone, Debug, Default)]
pub struct Behaviours {
    /// Distinct (reference, target) run pairs.
    pub runs: Vec<Behaviour>,
    /// Scenarios cut by a bound (iterations or stream length).
    pub cut: usize,
}

/// Bounds of the enumeration.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Iterations per loop execution (`Bounds::max_iters`).
    pub max_iters: u32,
    /// Values per oracle stream.
    pub max_stream: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_iters: 2,
            max_stream: 6,
        }
    }
}

fn run(p: &dyn Program, tid: u32, streams: &Streams, limits: Limits) -> Result<Trace, Stop> {
    let bounds = Bounds {
        max_iters: limits.max_iters,
        fuel: 2_000,
        ..Bounds::default()
    };
    let mut src = StreamSource(streams);
    let (trace, res) = run_thread(p, 0, tid, 2, bounds, &mut src);
    res.map(|()| trace)
}

/// What a run shows of a thread, for deduplication and for the
/// single-thread comparison: observable events with their keys.
fn fingerprint(module: &Module, t: &Trace) -> Vec<(String, Option<Key>)> {
    t.events
        .iter()
        .filter_map(|e| observable(module, e).map(|l| (l, Some(e.key.clone()))))
        .collect()
}

/// The observable label of an event: convergent operations by label,
/// memory accesses by space, direction and address, barriers by label.
pub fn observable(module: &Module, e: &Event) -> Option<String> {
    match &e.kind {
        EventKind::Mem {
            space, write, addr, ..
        } => Some(format!(
            "{}{}[{addr}]",
            if *write { "W " } else { "R " },
            space.name()
        )),
        _ if e.is_convergent_op() => Some(module.label(e.sid).to_string()),
        _ => None,
    }
}

/// Every behaviour of thread `tid` (ids matter when a program reads
/// `tid`).
pub fn behaviours(
    reference: &dyn Program,
    target: &dyn Program,
    tid: u32,
    limits: Limits,
) -> Behaviours {
    let mut out = Behaviours::default();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<Streams> = vec![Streams::new()];
    while let Some(s) = stack.pop() {
        let extend = |stack: &mut Vec<Streams>, oracle: OracleId, domain: &[i64]| -> bool {
            let len = s.get(&oracle).map_or(0, Vec::len);
            if len >= limits.max_stream {
                return false;
            }
            for v in domain.iter().rev() {
                let mut t = s.clone();
                t.entry(oracle).or_default().push(*v);
                stack.push(t);
            }
            true
        };
        let r = match run(reference, tid, &s, limits) {
            Ok(t) => t,
            Err(Stop::Need { oracle, domain }) => {
                if !extend(&mut stack, oracle, &domain) {
                    out.cut += 1;
                }
                continue;
            }
            Err(_) => {
                out.cut += 1;
                continue;
            }
        };
        let t = match run(target, tid, &s, limits) {
            Ok(t) => t,
            Err(Stop::Need { oracle, domain }) => {
                if !extend(&mut stack, oracle, &domain) {
                    out.cut += 1;
                }
                continue;
            }
            Err(_) => {
                out.cut += 1;
                continue;
            }
        };
        let fp = (
            fingerprint(reference.module(), &r),
            fingerprint(target.module(), &t),
            uniform_fingerprint(&r),
        );
        if seen.insert(fp) {
            out.runs.push(Behaviour {
                streams: s,
                reference: r,
                target: t,
            });
        }
    }
    out
}

/// The uniform reads of a run (they decide which pairs are scenarios).
fn uniform_fingerprint(t: &Trace) -> Vec<(String, i64)> {
    t.uniform
        .iter()
        .map(|(i, site)| (format!("{site:?}"), t.reads[*i].2))
        .collect()
}

/// Convergent operations of a run by (label, occurrence), with their keys.
pub fn matched(module: &Module, t: &Trace) -> HashMap<(String, u32), Key> {
    let mut count: HashMap<String, u32> = HashMap::new();
    let mut out = HashMap::new();
    for e in &t.events {
        if !e.is_convergent_op() {
            continue;
        }
        let l = module.label(e.sid).to_string();
        let c = count.entry(l.clone()).or_insert(0);
        out.insert((l, *c), e.key.clone());
        *c += 1;
    }
    out
}

/// Observable events of a run, in order.
pub fn observed(module: &Module, t: &Trace) -> Vec<String> {
    t.events
        .iter()
        .filter_map(|e| observable(module, e))
        .collect()
}

/// Why a target differs from its reference on one pair of threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// A thread's observable events changed.
    Behaviour {
        /// The thread.
        thread: usize,
        /// Reference events.
        reference: Vec<String>,
        /// Target events.
        target: Vec<String>,
    },
    /// Two matched instances are converged on one side only.
    Convergence {
        /// The label and occurrence of the operation in thread 0.
        op: (String, u32),
        /// The occurrence in thread 1.
        other: u32,
        /// Whether the reference converges the two threads' instances.
        reference: bool,
    },
}

/// Whether two threads' reference runs form a scenario (uniform oracles
/// read at converged sites agree), and the two threads read each
/// uniform-invariant oracle, in either program, with one value.
pub fn admissible(a: &Behaviour, b: &Behaviour) -> bool {
    if convcheck_ir::scenario::uniform_conflict(&a.reference, &b.reference).is_some() {
        return false;
    }
    convcheck_ir::scenario::whole_run_conflict(
        &[&a.reference, &a.target],
        &[&b.reference, &b.target],
    )
    .is_none()
}

/// Compares one pair of threads (DESIGN.md 2.7, items 1 and 2).
pub fn compare(
    reference: &Module,
    target: &Module,
    a: &Behaviour,
    b: &Behaviour,
) -> Option<Difference> {
    for (thread, x) in [a, b].into_iter().enumerate() {
        let r = observed(reference, &x.reference);
        let t = observed(target, &x.target);
        if r != t {
            return Some(Difference::Behaviour {
                thread,
                reference: r,
                target: t,
            });
        }
    }
    let (ra, rb) = (
        matched(reference, &a.reference),
        matched(reference, &b.reference),
    );
    let (ta, tb) = (matched(target, &a.target), matched(target, &b.target));
    // Every pair of instances of one label, one per thread, at any
    // occurrences: converged-with relates instances, not occurrences.
    let mut xs: Vec<_> = ra.keys().collect();
    xs.sort();
    for x in xs {
        let Some(tx) = ta.get(x) else { continue };
        let mut ys: Vec<_> = rb.iter().filter(|(y, _)| y.0 == x.0).collect();
        ys.sort();
        for (y, ry) in ys {
            let Some(ty) = tb.get(y) else { continue };
            let conv_ref = ra[x] == *ry;
            let conv_tgt = tx == ty;
            if conv_ref != conv_tgt {
                return Some(Difference::Convergence {
                    op: x.clone(),
                    other: y.1,
                    reference: conv_ref,
                });
            }
        }
    }
    None
}

/// The result of comparing two programs over every pair of threads.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Thread pairs compared.
    pub pairs: usize,
    /// Scenarios cut by a bound.
    pub cut: usize,
    /// The first difference, with the streams of both threads.
    pub difference: Option<(Difference, Streams, Streams)>,
}

/// Compares `reference` and `target` over every pair of behaviours of
/// threads 0 and 1.
pub fn check(reference: &dyn Program, target: &dyn Program, limits: Limits) -> Verdict {
    let b0 = behaviours(reference, target, 0, limits);
    let b1 = behaviours(reference, target, 1, limits);
    let mut v = Verdict {
        cut: b0.cut + b1.cut,
        ..Verdict::default()
    };
    for a in &b0.runs {
        for b in &b1.runs {
            if !admissible(a, b) {
                continue;
            }
            v.pairs += 1;
            if let Some(d) = compare(reference.module(), target.module(), a, b) {
                v.difference = Some((d, a.streams.clone(), b.streams.clone()));
                return v;
            }
        }
    }
    v
}

/// Every complete run of one program by thread `tid` (one per assignment
/// of streams that the run reads entirely), and the number of runs cut by
/// a bound. Unlike [`convcheck_ir::paths::enumerate`] it goes on past a
/// run that leaves the bounds whatever its values (a cycle without exit).
pub fn runs(program: &dyn Program, tid: u32, limits: Limits) -> (Vec<Trace>, usize) {
    let mut out = Vec::new();
    let mut cut = 0;
    let mut stack: Vec<Streams> = vec![Streams::new()];
    while let Some(s) = stack.pop() {
        match run(program, tid, &s, limits) {
            Ok(t) => out.push(t),
            Err(Stop::Need { oracle, domain }) => {
                if s.get(&oracle).map_or(0, Vec::len) >= limits.max_stream {
                    cut += 1;
                    continue;
                }
                for v in domain.iter().rev() {
                    let mut t = s.clone();
                    t.entry(oracle).or_default().push(*v);
                    stack.push(t);
                }
            }
            Err(_) => cut += 1,
        }
    }
    (out, cut)
}
