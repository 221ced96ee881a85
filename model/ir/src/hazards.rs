//! Hazards of one scenario (DESIGN.md 2.6): barrier divergence, races, and
//! the values that data-carrying barriers return.
//!
//! [`hazards`] takes the traces of every thread of a group (source or CFG
//! level, it only reads [`Event`]s) and decides:
//!
//! - **Barrier divergence.** Each thread's *barrier sequence* is the list of
//!   its [`EventKind::Barrier`] instances in order (fences are not
//!   barriers). Every thread must execute the same sequence of static
//!   barriers, and the `k`-th barrier instances of two threads must be
//!   converged ([`Rel::Converged`] under [`relate_events`]; an
//!   implementation-defined pair, [`Rel::Open`], does not count as
//!   converged because some allowed relation separates it). Every thread is
//!   compared with thread 0; since converged-with is key equality, two
//!   threads that both agree with thread 0 agree with each other, so this
//!   finds every divergence. The first position where thread `t` and thread
//!   0 part is reported once, classified as [`DivergenceKind`]: one thread's
//!   run ends while the other waits (`Left`), one goes on to a barrier the
//!   other only reaches later (`Skipped`), one runs a barrier it already ran
//!   while the other waits elsewhere (`Repeated`), both wait at unrelated
//!   barriers (`Different`), or both reach the same barrier as their `k`-th
//!   but the instances are not converged (`NotConverged`).
//! - **Phases.** A thread's barrier instances cut its run into phases:
//!   phase `k` holds the events after its `k`-th barrier (from 0, phase 0
//!   starts at the launch) and before its `k+1`-th. Fences do not cut.
//! - **Races.** Two accesses by different threads to the same address of
//!   `shared` or `global` memory, at least one a write, in the same phase
//!   race. Phase `k` of two threads is only compared while their barrier
//!   sequences agree up to it: for threads whose sequences first part at
//!   position `d`, phases `0..=d` are compared (the accesses of phase `d`
//!   follow their last common barrier and precede no common barrier); what
//!   happens after a barrier divergence is undefined and reported as the
//!   divergence alone. `local` memory is private to each thread and never
//!   races; two atomics ([`crate::Access::atomic`]) never race. Accesses
//!   race when they overlap: an element is its index, a
//!   byte-addressed access every byte it covers (a race is reported at
//!   the first thread's access).
//! - **Data-carrying barriers.** `__syncthreads_count(p)` returns the number
//!   of participating threads whose predicate is non-zero, `_and` whether
//!   all are, `_or` whether any is (1 or 0). The participants of an
//!   instance are the threads whose instances at the same position of
//!   their barrier sequences are converged with it; [`BarrierValue`]
//!   records them, their predicates and the result each of them observes,
//!   so that a checker can compare the values of two programs. When the
//!   group has a barrier divergence the value is still computed over the
//!   converged participants, and `complete` says whether every thread of
//!   the group took part.
//!
//! Everything in a [`HazardReport`] is sorted, so equal runs give equal
//! reports.

use crate::convergence::relate_events;
use crate::exec::{Event, EventKind};
use crate::key::Rel;
use crate::ops::{BarrierKind, OpId, Space};
use crate::Module;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A static operation (a barrier or a memory access) as reports name it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Site {
    /// Its static id.
    #[serde(skip)]
    pub sid: OpId,
    /// Its label (`__syncthreads`, `shared@4`, a `// NAME`).
    pub label: String,
    /// The line it starts on.
    pub line: u32,
    /// The column it starts on.
    pub col: u32,
}

impl Site {
    /// The site of op `sid` of `module`.
    pub fn of(module: &Module, sid: OpId) -> Site {
        match module.op(sid) {
            Some(n) => Site {
                sid,
                label: n.label.clone(),
                line: n.span.start.line,
                col: n.span.start.col,
            },
            // Only a CFG from elsewhere could name an unknown operation.
            None => Site {
                sid,
                label: format!("#{}", sid.0),
                line: 0,
                col: 0,
            },
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` (line {})", self.label, self.line)
    }
}

/// One side of a race.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Access {
    /// The thread.
    pub thread: usize,
    /// Whether it writes.
    pub write: bool,
    /// The access.
    pub site: Site,
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.write { "writes" } else { "reads" };
        write!(f, "thread {} {what} at {}", self.thread, self.site)
    }
}

/// Two conflicting accesses in the same phase.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Race {
    /// The phase (the number of barriers both threads passed before).
    pub phase: usize,
    /// The memory space (`shared` or `global`).
    pub space: Space,
    /// The address.
    pub addr: i64,
    /// The access of the lower-numbered thread.
    pub first: Access,
    /// The access of the higher-numbered thread.
    pub second: Access,
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "race on {} in phase {}: {} and {}",
            crate::exec::memory::place(self.space, self.addr),
            self.phase,
            self.first,
            self.second
        )
    }
}

/// How two threads' barrier sequences part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DivergenceKind {
    /// `thread`'s run ends (it leaves the kernel, or the barriers are in a
    /// branch it did not take) while `other` waits at `other_at`.
    Left,
    /// `thread` goes on to `at`, which `other` reaches only after
    /// `other_at`: `thread` skips `other_at`.
    Skipped,
    /// `thread` waits again at `at`, a barrier it already passed, while
    /// `other` waits at `other_at`.
    Repeated,
    /// The two threads wait at unrelated barriers.
    Different,
    /// Both reach the same barrier at this position, but the two instances
    /// are not converged (for example in different iterations of a loop).
    NotConverged,
    /// As `NotConverged`, but convergence of the two instances is
    /// implementation-defined (seed 000): some allowed relation keeps them
    /// apart, so the barrier is not guaranteed to synchronise them.
    ImplementationDefined,
}

/// A barrier divergence between two threads.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct BarrierDivergence {
    /// The position in the barrier sequences (from 0) where they part.
    pub position: usize,
    /// The thread the report is about (the one that leaves, skips,
    /// repeats).
    pub thread: usize,
    /// How.
    pub kind: DivergenceKind,
    /// The barrier `thread` is at (`None`: its run has ended).
    pub at: Option<Site>,
    /// The thread it is compared with.
    pub other: usize,
    /// The barrier `other` is at (`None`: its run has ended).
    pub other_at: Option<Site>,
}

impl fmt::Display for BarrierDivergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (t, o, k) = (self.thread, self.other, self.position);
        let site = |s: &Option<Site>| match s {
            Some(s) => s.to_string(),
            None => "the end of its run".to_string(),
        };
        let (at, other_at) = (site(&self.at), site(&self.other_at));
        match self.kind {
            DivergenceKind::Left => write!(
                f,
                "barrier divergence: thread {t} leaves after {k} barrier(s) while thread {o} waits at {other_at}"
            ),
            DivergenceKind::Skipped => write!(
                f,
                "barrier divergence: thread {t} skips {other_at}, where thread {o} waits, and waits at {at} (barrier #{k})"
            ),
            DivergenceKind::Repeated => write!(
                f,
                "barrier divergence: thread {t} repeats {at} while thread {o} waits at {other_at} (barrier #{k})"
            ),
            DivergenceKind::Different => write!(
                f,
                "barrier divergence: thread {t} waits at {at} while thread {o} waits at {other_at} (barrier #{k})"
            ),
            DivergenceKind::NotConverged => write!(
                f,
                "barrier divergence: threads {t} and {o} reach {at} as barrier #{k}, but the two instances are not converged"
            ),
            DivergenceKind::ImplementationDefined => write!(
                f,
                "barrier divergence: threads {t} and {o} reach {at} as barrier #{k}, but whether the two instances are converged is implementation-defined"
            ),
        }
    }
}

/// The value one instance of a data-carrying barrier returns.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct BarrierValue {
    /// The position in the participants' barrier sequences.
    pub position: usize,
    /// The barrier.
    pub site: Site,
    /// Which builtin.
    pub kind: BarrierKind,
    /// The participating threads, ascending.
    pub participants: Vec<usize>,
    /// Their predicates, in the order of `participants`.
    pub predicates: Vec<i64>,
    /// What every participant observes.
    pub result: i64,
    /// Whether every thread of the group took part.
    pub complete: bool,
}

/// The hazards of one scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct HazardReport {
    /// Number of threads.
    pub threads: usize,
    /// Number of barrier instances of each thread.
    pub barriers: Vec<usize>,
    /// Races, sorted.
    pub races: Vec<Race>,
    /// Barrier divergences (at most one per thread other than 0), sorted.
    pub divergence: Vec<BarrierDivergence>,
    /// Values of data-carrying barrier instances, sorted.
    pub values: Vec<BarrierValue>,
}

impl HazardReport {
    /// Whether the scenario has neither a race nor a barrier divergence.
    pub fn is_hazard_free(&self) -> bool {
        self.races.is_empty() && self.divergence.is_empty()
    }

    /// The values of data-carrying barriers that thread `t` observes, in
    /// the order of its barrier sequence: (position, barrier, value).
    pub fn observed(&self, t: usize) -> Vec<(usize, &Site, i64)> {
        let mut v: Vec<(usize, &Site, i64)> = self
            .values
            .iter()
            .filter(|b| b.participants.contains(&t))
            .map(|b| (b.position, &b.site, b.result))
            .collect();
        v.sort_by_key(|x| x.0);
        v
    }
}

/// One thread's barrier instances: (event index, barrier event).
fn barrier_seq(run: &[Event]) -> Vec<(usize, &Event)> {
    run.iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::Barrier { .. }))
        .collect()
}

/// How the `k`-th barriers of two threads relate: `None` if they agree.
fn part_at(a: Option<&Event>, b: Option<&Event>) -> Option<()> {
    match (a, b) {
        (None, None) => None,
        (Some(x), Some(y)) if x.sid == y.sid && relate_events(x, y) == Rel::Converged => None,
        _ => Some(()),
    }
}

/// The first position where the barrier sequences of two threads part, or
/// `None` when they agree entirely.
fn first_parting(a: &[(usize, &Event)], b: &[(usize, &Event)]) -> Option<usize> {
    let n = a.len().max(b.len());
    (0..n).find(|&k| part_at(a.get(k).map(|x| x.1), b.get(k).map(|x| x.1)).is_some())
}

/// Classifies the parting of thread `t` from thread `r` at position `k`.
fn classify(
    module: &Module,
    k: usize,
    (r, rs): (usize, &[(usize, &Event)]),
    (t, ts): (usize, &[(usize, &Event)]),
) -> BarrierDivergence {
    let site = |e: &Event| Site::of(module, e.sid);
    let x = rs.get(k).map(|p| p.1);
    let y = ts.get(k).map(|p| p.1);
    let report =
        |thread, kind, at: Option<&Event>, other, other_at: Option<&Event>| BarrierDivergence {
            position: k,
            thread,
            kind,
            at: at.map(site),
            other,
            other_at: other_at.map(site),
        };
    let has = |seq: &[(usize, &Event)], range: std::ops::Range<usize>, sid: OpId| {
        seq.get(range).unwrap_or(&[]).iter().any(|p| p.1.sid == sid)
    };
    match (x, y) {
        (Some(x), None) => report(t, DivergenceKind::Left, None, r, Some(x)),
        (None, Some(y)) => report(r, DivergenceKind::Left, None, t, Some(y)),
        (Some(x), Some(y)) if x.sid == y.sid => {
            let kind = match relate_events(x, y) {
                Rel::Open(_) => DivergenceKind::ImplementationDefined,
                _ => DivergenceKind::NotConverged,
            };
            report(t, kind, Some(y), r, Some(x))
        }
        (Some(x), Some(y)) => {
            if has(ts, 0..k, y.sid) {
                report(t, DivergenceKind::Repeated, Some(y), r, Some(x))
            } else if has(rs, 0..k, x.sid) {
                report(r, DivergenceKind::Repeated, Some(x), t, Some(y))
            } else if has(rs, k + 1..rs.len(), y.sid) {
                report(t, DivergenceKind::Skipped, Some(y), r, Some(x))
            } else if has(ts, k + 1..ts.len(), x.sid) {
                report(r, DivergenceKind::Skipped, Some(x), t, Some(y))
            } else {
                report(t, DivergenceKind::Different, Some(y), r, Some(x))
            }
        }
        // Unreachable: `first_parting` never stops where both have ended.
        (None, None) => report(t, DivergenceKind::Left, None, r, None),
    }
}

/// The phase of every event of a run (the number of barriers before it).
fn phases(run: &[Event]) -> Vec<usize> {
    let mut p = 0;
    run.iter()
        .map(|e| {
            let here = p;
            if matches!(e.kind, EventKind::Barrier { .. }) {
                p += 1;
            }
            here
        })
        .collect()
}

/// What the race search needs of one run, computed once per run rather
/// than once per scenario it takes part in (the explicit engine pairs
/// every path of one thread with every path of the other): its shared
/// and global accesses by barrier phase and address, and its atomic
/// accesses. It depends on the run's events, their kinds and the barriers
/// among them, not on their dynamic-instance keys, so a run and its most
/// converged reading (`settle` in the checker) have the same one.
#[derive(Clone, Debug, Default)]
pub struct RunAccesses {
    by_phase: Vec<BTreeMap<MemKey, Vec<(StaticAccess, MemKey)>>>,
    atomic: BTreeSet<OpId>,
}

impl RunAccesses {
    /// The accesses of `run`.
    pub fn of(run: &[Event]) -> RunAccesses {
        RunAccesses {
            by_phase: accesses_by_phase(run),
            atomic: run
                .iter()
                .filter_map(|e| match e.kind {
                    EventKind::Mem { access, .. } if access.atomic != 0 => Some(e.sid),
                    _ => None,
                })
                .collect(),
        }
    }
}

/// The hazards of a scenario whose thread `t` produced `runs[t]`.
pub fn hazards(module: &Module, runs: &[&[Event]]) -> HazardReport {
    let accesses: Vec<RunAccesses> = runs.iter().map(|r| RunAccesses::of(r)).collect();
    let refs: Vec<&RunAccesses> = accesses.iter().collect();
    hazards_of(module, runs, &refs)
}

/// [`hazards`] with each run's [`RunAccesses`] given (`accesses[t]` must
/// be `RunAccesses::of(runs[t])`, or of a run with the same events up to
/// their keys).
pub fn hazards_of(module: &Module, runs: &[&[Event]], accesses: &[&RunAccesses]) -> HazardReport {
    debug_assert_eq!(runs.len(), accesses.len());
    let seqs: Vec<Vec<(usize, &Event)>> = runs.iter().map(|r| barrier_seq(r)).collect();
    let mut report = HazardReport {
        threads: runs.len(),
        barriers: seqs.iter().map(Vec::len).collect(),
        ..HazardReport::default()
    };
    // Barrier divergence, every thread against thread 0.
    if let Some(s0) = seqs.first() {
        for (t, st) in seqs.iter().enumerate().skip(1) {
            if let Some(k) = first_parting(s0, st) {
                report
                    .divergence
                    .push(classify(module, k, (0, s0), (t, st)));
            }
        }
    }
    report.divergence.sort();
    report.races = races(module, accesses, &seqs);
    report.values = values(module, &seqs);
    report
}

type MemKey = (Space, i64);

/// A static access in one phase: its id and whether it writes.
type StaticAccess = (OpId, bool);

/// A race up to its phase: the two threads, the address, both accesses.
type RaceKey = (usize, usize, MemKey, StaticAccess, StaticAccess);

/// Shared and global accesses of one run, by phase and address (each
/// byte of a byte-addressed access, with the access's first address;
/// elements by their index).
fn accesses_by_phase(run: &[Event]) -> Vec<BTreeMap<MemKey, Vec<(StaticAccess, MemKey)>>> {
    let ph = phases(run);
    let mut out: Vec<BTreeMap<MemKey, Vec<(StaticAccess, MemKey)>>> = Vec::new();
    for (e, &p) in run.iter().zip(&ph) {
        if let EventKind::Mem {
            space,
            write,
            addr,
            access,
            ..
        } = e.kind
        {
            if space == Space::Local {
                continue;
            }
            if out.len() <= p {
                out.resize_with(p + 1, BTreeMap::new);
            }
            // A byte address names one location whatever the space it is
            // reached through (a generic pointer to shared memory).
            let key_space = if access.bytes > 0 {
                Space::Global
            } else {
                space
            };
            for i in 0..access.extent() {
                let list = out[p].entry((key_space, addr.wrapping_add(i))).or_default();
                if !list.contains(&((e.sid, write), (space, addr))) {
                    list.push(((e.sid, write), (space, addr)));
                }
            }
        }
    }
    out
}

fn races(module: &Module, runs: &[&RunAccesses], seqs: &[Vec<(usize, &Event)>]) -> Vec<Race> {
    let by_phase: Vec<_> = runs.iter().map(|r| &r.by_phase).collect();
    // Atomics never race with each other (DESIGN.md 2.6): an operation is
    // atomic or not whichever run executes it.
    let atomic = |sid: &OpId| runs.iter().any(|r| r.atomic.contains(sid));
    // One race per (threads, address, pair of accesses), at its first phase.
    let mut found: BTreeMap<RaceKey, usize> = BTreeMap::new();
    for t in 0..runs.len() {
        for u in t + 1..runs.len() {
            let last = first_parting(&seqs[t], &seqs[u]).unwrap_or(seqs[t].len());
            for p in 0..=last {
                let (Some(a), Some(b)) = (by_phase[t].get(p), by_phase[u].get(p)) else {
                    continue;
                };
                for (key, xs) in a {
                    let Some(ys) = b.get(key) else { continue };
                    for &(x, start) in xs {
                        for &(y, _) in ys {
                            if (x.1 || y.1) && !(atomic(&x.0) && atomic(&y.0)) {
                                found.entry((t, u, start, x, y)).or_insert(p);
                            }
                        }
                    }
                }
            }
        }
    }
    let mut out: Vec<Race> = found
        .into_iter()
        .map(|((t, u, (space, addr), x, y), phase)| Race {
            phase,
            space,
            addr,
            first: Access {
                thread: t,
                write: x.1,
                site: Site::of(module, x.0),
            },
            second: Access {
                thread: u,
                write: y.1,
                site: Site::of(module, y.0),
            },
        })
        .collect();
    out.sort();
    out
}

fn values(module: &Module, seqs: &[Vec<(usize, &Event)>]) -> Vec<BarrierValue> {
    let n = seqs.len();
    let longest = seqs.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for k in 0..longest {
        // Partition the threads' k-th instances into convergence classes.
        let mut classes: Vec<Vec<(usize, &Event)>> = Vec::new();
        for (t, seq) in seqs.iter().enumerate() {
            let Some(&(_, e)) = seq.get(k) else { continue };
            let EventKind::Barrier { kind, .. } = e.kind else {
                continue;
            };
            if kind == BarrierKind::Plain {
                continue;
            }
            let home = classes.iter_mut().find(|c| {
                let rep = c[0].1;
                rep.sid == e.sid && relate_events(rep, e) == Rel::Converged
            });
            match home {
                Some(c) => c.push((t, e)),
                None => classes.push(vec![(t, e)]),
            }
        }
        for c in classes {
            let rep = c[0].1;
            let EventKind::Barrier { kind, .. } = rep.kind else {
                continue;
            };
            let participants: Vec<usize> = c.iter().map(|p| p.0).collect();
            let predicates: Vec<i64> = c
                .iter()
                .map(|p| match p.1.kind {
                    EventKind::Barrier { predicate, .. } => predicate.unwrap_or(0),
                    _ => 0,
                })
                .collect();
            let set: Vec<bool> = predicates.iter().map(|&p| p != 0).collect();
            let result = match kind {
                BarrierKind::Count => set.iter().filter(|&&b| b).count() as i64,
                BarrierKind::And => i64::from(set.iter().all(|&b| b)),
                BarrierKind::Or => i64::from(set.iter().any(|&b| b)),
                BarrierKind::Plain => 0,
            };
            out.push(BarrierValue {
                position: k,
                site: Site::of(module, rep.sid),
                kind,
                complete: participants.len() == n,
                participants,
                predicates,
                result,
            });
        }
    }
    out.sort_by(|a, b| {
        (a.position, &a.site, &a.participants).cmp(&(b.position, &b.site, &b.participants))
    });
    out
}

/// Thread pairs with a race, for quick checks: the set of
/// (lower thread, higher thread, space, address).
pub fn racing_addresses(report: &HazardReport) -> BTreeSet<(usize, usize, Space, i64)> {
    report
        .races
        .iter()
        .map(|r| (r.first.thread, r.second.thread, r.space, r.addr))
        .collect()
}
