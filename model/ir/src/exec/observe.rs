//! What single-thread behaviour compares (DESIGN.md 2.7, property 1): a
//! thread's observable events, one string each, in sequenced-before order.
//! Both engines call this, so that the explicit engine's comparison and the
//! symbolic engine's replay of a model cannot read a run differently.
//!
//! Observable: observation points, convergent and real calls (by label),
//! barriers (data-carrying ones with their predicate; plain ones unless a
//! barrier-removal pass may drop them) and stores (space and address).
//!
//! **Loads are not observable**, except where the thread also stores to the
//! same address. A non-volatile load has no effect a thread or the world
//! can see: what matters is the value it returns, which the model gives by
//! the load's oracle and which every branch and store that uses it already
//! shows. The model does not carry values through memory, so the one thing
//! that value cannot show is the order of a load and the thread's own
//! store to the same address (a read moved across the write it should
//! see, or the other way): for every address the run both writes and
//! reads, the sequence ends with one entry giving the order of its
//! accesses (`order of shared[0]: store, load`). LLVM deletes, merges, hoists and sinks such loads
//! freely (SimpleLoopUnswitch drops a load its unswitched copy no longer
//! needs; LICM hoists one out of a loop), and counting them made those
//! pairs false alarms (issue 11). A load still takes part in hazards: the
//! races of `crate::hazards` are computed from every access, loads
//! included, so a load moved across a barrier into a race is still caught
//! (property 3). An unused load reads no oracle value in either engine, so
//! dropping it shifts no later read. `docs/src/soundness.md` states the
//! rule and its tests.

use super::{EventKind, Trace};
use crate::ops::{BarrierKind, Space};
use crate::Module;
use std::collections::BTreeMap;

/// Which events count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observe {
    /// Plain barriers are left out (a barrier-removal pass may drop them;
    /// data-carrying ones always count).
    pub drop_plain_barriers: bool,
    /// Loads count too: only to say that two runs differ in loads alone.
    pub loads: bool,
}

impl Observe {
    /// The comparison of property 1: loads left out, plain barriers kept
    /// unless `drop_plain_barriers`.
    pub fn behaviour(drop_plain_barriers: bool) -> Observe {
        Observe {
            drop_plain_barriers,
            loads: false,
        }
    }
}

/// The observable events of `t`, a run of `module`.
pub fn observable(module: &Module, t: &Trace, how: Observe) -> Vec<String> {
    let mut out: Vec<String> = t
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Op | EventKind::Call(_) => Some(module.label(e.sid).to_string()),
            EventKind::Barrier { kind, predicate } => {
                if how.drop_plain_barriers && *kind == BarrierKind::Plain {
                    None
                } else {
                    Some(match predicate {
                        Some(p) => format!("{}({})", module.label(e.sid), i64::from(*p != 0)),
                        None => module.label(e.sid).to_string(),
                    })
                }
            }
            EventKind::Mem { space, write, addr } => (*write || how.loads).then(|| {
                format!(
                    "{} {}[{addr}]",
                    if *write { "store" } else { "load" },
                    space.name()
                )
            }),
            EventKind::Stmt | EventKind::Fence | EventKind::Block(_) => None,
        })
        .collect();
    if !how.loads {
        // Per address the run writes, the order of its loads and stores.
        let mut order: BTreeMap<(Space, i64), Vec<&str>> = BTreeMap::new();
        for e in &t.events {
            if let EventKind::Mem {
                space,
                write: true,
                addr,
            } = e.kind
            {
                order.entry((space, addr)).or_default();
            }
        }
        for e in &t.events {
            if let EventKind::Mem { space, write, addr } = e.kind {
                if let Some(list) = order.get_mut(&(space, addr)) {
                    list.push(if write { "store" } else { "load" });
                }
            }
        }
        for ((space, addr), list) in order {
            if list.contains(&"load") {
                out.push(format!(
                    "order of {}[{addr}]: {}",
                    space.name(),
                    list.join(", ")
                ));
            }
        }
    }
    out
}

/// The sentence for the first difference of two observable sequences of
/// thread `tid` (reference `a`, target `b`).
pub fn describe_difference(a: &[String], b: &[String], tid: u32) -> String {
    let k = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let order = |x: &str| {
        x.strip_prefix("order of ")
            .and_then(|r| r.split_once(": "))
            .map(|(at, list)| (at.to_string(), list.to_string()))
    };
    if let (Some((at, x)), Some((at2, y))) = (
        a.get(k).and_then(|x| order(x)),
        b.get(k).and_then(|y| order(y)),
    ) {
        if at == at2 {
            return format!(
                "thread {tid} accesses {at} in the order `{x}` in the reference but `{y}` in the target"
            );
        }
    }
    match (a.get(k), b.get(k)) {
        (Some(x), Some(y)) => format!(
            "event {} of thread {tid} is `{x}` in the reference but `{y}` in the target",
            k + 1
        ),
        (Some(x), None) => format!(
            "thread {tid} stops before `{x}` (event {}) in the target",
            k + 1
        ),
        (None, Some(y)) => format!(
            "thread {tid} has an extra `{y}` (event {}) in the target",
            k + 1
        ),
        (None, None) => "the event sequences differ".into(),
    }
}
