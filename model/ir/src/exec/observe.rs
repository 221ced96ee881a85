//! What single-thread behaviour compares (DESIGN.md 2.7, property 1): a
//! thread's observable events, one string each, in sequenced-before order.
//! Both engines call this, so that the explicit engine's comparison and the
//! symbolic engine's replay of a model cannot read a run differently.
//!
//! Observable: observation points, convergent and real calls (by label),
//! barriers (data-carrying ones with their predicate; plain ones unless a
//! barrier-removal pass may drop them) and stores (space and address).
//!
//! **A load whose value nothing uses is not observable.** Such a load has
//! no effect a thread or the world can see, and LLVM deletes it freely
//! (DCE, a partial unswitch that no longer needs it). Every other load
//! stays in the sequence with its space and address, in its place: the
//! model carries no values through memory and matches a load's free value
//! by the location's name and occurrence, so the address and the order
//! against barriers and the thread's own stores are what show a read moved
//! across a write it should see, or pointed at another element. (A first
//! version left every load out; a red-team review found five ways that
//! answered `preserved` for a wrong target: another element, a whole
//! barrier phase, aliases the address model does not see through a
//! generic pointer, a parameter or a narrower access. `tests/loads.rs`
//! keeps them.) Loads also count for hazards: races are computed from
//! every access, used or not. `docs/src/soundness.md` states the rule.

use super::{EventKind, Trace};
use crate::ops::BarrierKind;
use crate::Module;

/// Which events count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observe {
    /// Plain barriers are left out (a barrier-removal pass may drop them;
    /// data-carrying ones always count).
    pub drop_plain_barriers: bool,
    /// Unused loads count too: only to say that two runs differ in those
    /// alone.
    pub unused_loads: bool,
}

impl Observe {
    /// The comparison of property 1: unused loads left out, plain barriers kept
    /// unless `drop_plain_barriers`.
    pub fn behaviour(drop_plain_barriers: bool) -> Observe {
        Observe {
            drop_plain_barriers,
            unused_loads: false,
        }
    }
}

/// The observable events of `t`, a run of `module`.
pub fn observable(module: &Module, t: &Trace, how: Observe) -> Vec<String> {
    let mut unused = t.unused_loads.iter().copied().peekable();
    t.events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let dead = unused.next_if_eq(&i).is_some();
            match &e.kind {
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
                EventKind::Mem { space, write, addr } => (*write || !dead || how.unused_loads)
                    .then(|| {
                        format!(
                            "{} {}[{addr}]",
                            if *write { "store" } else { "load" },
                            space.name()
                        )
                    }),
                EventKind::Stmt | EventKind::Fence | EventKind::Block(_) => None,
            }
        })
        .collect()
}

/// The sentence for the first difference of two observable sequences of
/// thread `tid` (reference `a`, target `b`).
pub fn describe_difference(a: &[String], b: &[String], tid: u32) -> String {
    let k = a.iter().zip(b).take_while(|(x, y)| x == y).count();
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
