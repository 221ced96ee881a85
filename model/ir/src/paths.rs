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
//! keeps only pairs of paths that agree on every uniform oracle at equal
//! evaluation counts.
//!
//! Bounds: runs cut because their decisions took a loop past `max_iters`
//! are outside the bounds and counted in [`PathSet::cut`]; runs that exceed
//! a bound whatever their decisions, and the `max_paths` limit, make the set
//! incomplete ([`PathSet::incomplete`]), which callers report as
//! inconclusive.

use crate::exec::{run_thread, Bounds, OracleSource, Program, Stop, Trace};
use crate::ops::{FuncId, OracleClass, OracleId};
use crate::scenario::ThreadValues;
use crate::Module;
use std::collections::BTreeMap;

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
        let mut map: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        for &(o, _, v) in &self.trace.reads {
            map.entry(module.oracles[o].name.clone())
                .or_default()
                .push(v);
        }
        ThreadValues(map)
    }

    /// The values read from each uniform oracle, in order.
    pub fn uniform_reads(&self, module: &Module) -> BTreeMap<OracleId, Vec<i64>> {
        let mut map: BTreeMap<OracleId, Vec<i64>> = BTreeMap::new();
        for &(o, _, v) in &self.trace.reads {
            if module.oracles[o].class == OracleClass::Uniform {
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
}

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
            Err(Stop::OutOfBounds(why)) => {
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

/// Whether two paths can be two threads of one scenario: they agree on
/// every uniform oracle at equal evaluation counts.
pub fn compatible(module: &Module, a: &Path, b: &Path) -> bool {
    let ua = a.uniform_reads(module);
    let ub = b.uniform_reads(module);
    ua.iter().all(|(o, va)| match ub.get(o) {
        Some(vb) => va.iter().zip(vb).all(|(x, y)| x == y),
        None => true,
    })
}
