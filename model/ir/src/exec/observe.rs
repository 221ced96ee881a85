//! What single-thread behaviour compares (DESIGN.md 2.7, property 1): a
//! thread's observable events, in sequenced-before order. Both engines call
//! this, so that the explicit engine's comparison and the symbolic engine's
//! replay of a model cannot read a run differently.
//!
//! **Observable**: observation points and convergent calls by label, with
//! the values of their arguments (what a ballot votes, which lane a
//! shuffle reads, an explicit mask); data-carrying barriers with their
//! predicate; stores with their space and address (and, for the
//! byte-addressed memory of LLVM IR, width and stored value); loads whose
//! value is used; volatile loads. A convergent operation that accesses no
//! memory (`memory(none)`) is observed with its arguments and its order
//! against the other convergent operations, not against memory accesses
//! ([`observable`]: two projections).
//!
//! **Not observable** (DESIGN.md 2.7):
//!
//! - *A call as such.* A real call runs its body, whose events are the
//!   call's effects; the call itself is no event, so inlining a call and
//!   deleting a call to a function without effects change nothing
//!   (LLVM's `Inline/convergence-inline.ll`, InstCombine deleting calls to
//!   empty helpers).
//! - *A plain barrier.* A barrier orders memory and makes threads wait;
//!   its removal or move is judged by the hazards it leaves (a race,
//!   barrier divergence; `crate::hazards`) and by the values loads read
//!   (another phase's), not by the missing event, so a barrier that guards
//!   nothing may go. Exception: a module whose memory holds no values (the
//!   kernel language's element arrays, [`barriers_by_hazards`]) keeps its
//!   plain barriers observable, unless a barrier-removal pass may drop
//!   them. Data-carrying barriers return a value and stay observable.
//! - *A load that is not volatile, where memory holds values* (the
//!   byte-addressed accesses of LLVM IR, `super::memory`): its value is
//!   all it gives, and the value is compared wherever it goes (a branch, an
//!   argument, a store), so GVN forwarding a store to a load, or a partial
//!   unswitch that no longer needs a load, change nothing. A load that
//!   reads another element, another barrier phase, through an alias or
//!   with another width reads another location's value.
//! - *A load of the kernel language's arrays whose value nothing uses.* Its
//!   memory holds no values, so every other load stays in the sequence
//!   with its space and address, in its place: the order against barriers
//!   and the thread's own stores is what shows a read moved across a write
//!   it should see, or pointed at another element. (A first version left
//!   every load out; a red-team review found five ways that answered
//!   `preserved` for a wrong target: another element, a whole barrier
//!   phase, aliases the address model does not see through a generic
//!   pointer, a parameter or a narrower access. `tests/loads.rs` keeps
//!   them, on the kernel language and on LLVM IR.)
//!
//! Loads count for hazards whatever they are: races are computed from every
//! access, used or not. `docs/src/soundness.md` states the rule.

use super::{EventKind, Trace};
use crate::expr::Access;
use crate::ops::{BarrierKind, Space};
use crate::Module;
use std::fmt;

mod choices;
pub use choices::{choice_constants, choice_names, choice_settings};

/// Which events count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observe {
    /// Plain barriers count too: only to say that two runs differ in those
    /// alone (single-thread behaviour leaves them out).
    pub plain_barriers: bool,
    /// Every load counts too (unused ones, and the byte-addressed loads
    /// whose value is all that matters): only to say that two runs differ
    /// in those alone.
    pub unused_loads: bool,
    /// Non-atomic, non-volatile stores to byte-addressed shared and global
    /// memory are compared by the bytes each segment leaves
    /// ([`canonical_stores`]; [`Obs::Byte`]); `false`: one by one, as
    /// events with their address, width and value, only to say that two
    /// runs differ in those alone.
    pub stores_by_bytes: bool,
}

impl Observe {
    /// The comparison of property 1 for runs of `module`: unused loads left
    /// out; plain barriers left out where memory holds values
    /// ([`barriers_by_hazards`]) or a barrier-removal pass may drop them.
    pub fn behaviour(module: &Module, drop_plain_barriers: bool) -> Observe {
        Observe {
            plain_barriers: !drop_plain_barriers && !barriers_by_hazards(module),
            unused_loads: false,
            stores_by_bytes: true,
        }
    }

    /// Whether property 2 compares the convergence of `e` (matched by label
    /// and occurrence): an observation point, a convergent call, a
    /// data-carrying barrier, and a plain barrier where this comparison
    /// observes plain barriers. Never a real call (a call is not an event,
    /// its effects are).
    pub fn compares(&self, e: &super::Event) -> bool {
        match &e.kind {
            EventKind::Op { .. } => true,
            EventKind::Barrier { kind, .. } => *kind != BarrierKind::Plain || self.plain_barriers,
            _ => false,
        }
    }

    /// Every event the comparison of property 1 leaves out counts too
    /// (plain barriers, unused loads): a stronger comparison, to tell
    /// runs that differ only in what is not observable.
    pub fn everything() -> Observe {
        Observe {
            plain_barriers: true,
            unused_loads: true,
            stores_by_bytes: false,
        }
    }
}

/// One observable event.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Obs {
    /// An observation point or a convergent operation, by label, with its
    /// arguments.
    Op {
        /// The label.
        label: String,
        /// The arguments' values.
        args: Vec<i64>,
        /// Bit `i`: argument `i` is poison (its value is 0; [`refines`]).
        poison: u64,
    },
    /// A barrier, by label; a data-carrying one with its predicate (0 or
    /// 1).
    Barrier {
        /// The label.
        label: String,
        /// The predicate, for data-carrying barriers.
        predicate: Option<i64>,
    },
    /// A memory access.
    Mem {
        /// Whether it writes.
        write: bool,
        /// The space.
        space: Space,
        /// The index (an element's) or byte address.
        addr: i64,
        /// Element or bytes, volatile or not.
        access: Access,
        /// What a byte-addressed store writes.
        value: Option<i64>,
        /// Bit 0: the stored value is poison (`value` is 0; [`refines`]).
        poison: u64,
    },
    /// Undefined behaviour, where the run stopped (the last event of a run
    /// with [`Trace::ub`]): a reference run with it is not compared, so a
    /// target run that shows it where the reference's does not differs.
    Ub(String),
    /// A convergent operation that accesses no memory
    /// ([`crate::OpInfo::memory_none`]), by label, with its arguments:
    /// shown as [`Obs::Op`] is, never equal to one.
    OpNoMemory {
        /// The label.
        label: String,
        /// The arguments' values.
        args: Vec<i64>,
        /// As [`Obs::Op`]'s.
        poison: u64,
    },
    /// Where the second projection of a run starts (see [`observable`]).
    Projection,
    /// A byte that non-atomic, non-volatile stores to byte-addressed
    /// shared or global memory left in a segment of the run: the last
    /// value the thread wrote to it between two synchronisation points
    /// ([`canonical_stores`]).
    Byte {
        /// The segment: how many synchronisation points came before.
        seg: u32,
        /// The byte address.
        addr: i64,
        /// The byte (0 where poison).
        value: u8,
        /// The store that wrote it stored poison ([`refines`]).
        poison: bool,
        /// The width of the store that wrote it, for reports only (not
        /// compared).
        width: u32,
        /// The address of the store that wrote it, for reports only (not
        /// compared).
        start: i64,
    },
}

impl fmt::Display for Obs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Obs::Op { label, args, .. } | Obs::OpNoMemory { label, args, .. }
                if args.is_empty() =>
            {
                write!(f, "{label}")
            }
            Obs::Op {
                label,
                args,
                poison,
            }
            | Obs::OpNoMemory {
                label,
                args,
                poison,
            } => {
                let a: Vec<String> = args
                    .iter()
                    .enumerate()
                    .map(|(i, v)| shown(*v, *poison, i))
                    .collect();
                write!(f, "{label}({})", a.join(", "))
            }
            Obs::Barrier {
                label,
                predicate: Some(p),
            } => write!(f, "{label}({p})"),
            Obs::Barrier { label, .. } => write!(f, "{label}"),
            Obs::Mem {
                write,
                space,
                addr,
                access,
                value,
                ..
            } if *write && access.is_call_event() => {
                // A call to an external function that may have effects
                // (the LLVM front end's `to_ir::effects`): `call @f` at
                // offset 0 when it has no arguments, argument `i` at
                // offset `8 * (i + 1)`.
                let place = super::memory::place(*space, *addr);
                let object = place.split('[').next().unwrap_or(&place);
                let offset = *addr as u64 & 0xffff_ffff;
                match (offset, value) {
                    (0, _) => write!(f, "{object}"),
                    (o, Some(v)) => write!(f, "{object} (argument {}) = {v}", o / 8 - 1),
                    (o, None) => write!(f, "{object} (argument {})", o / 8 - 1),
                }
            }
            Obs::Mem {
                write,
                space,
                addr,
                access,
                value,
                poison,
            } => {
                let what = match (*write, access.atomic != 0) {
                    (true, false) => "store",
                    (false, false) => "load",
                    (true, true) => "store atomic",
                    (false, true) => "load atomic",
                };
                let volatile = if access.volatile { "volatile " } else { "" };
                if access.bytes == 0 {
                    write!(f, "{volatile}{what} {}[{addr}]", space.name())?;
                } else {
                    let place = super::memory::place(*space, *addr);
                    write!(f, "{volatile}{what} {place}:{}", access.bytes)?;
                }
                match value {
                    Some(v) => write!(f, " = {}", shown(*v, *poison, 0)),
                    None => Ok(()),
                }
            }
            Obs::Byte {
                seg,
                addr,
                value,
                poison,
                width,
                start,
            } => {
                // Shown as byte `k` of the store that wrote it (`@g[4]:4
                // byte 1`), so that reports name the element.
                let w = (*width).clamp(1, 8);
                let k = addr.wrapping_sub(*start);
                let place = super::memory::place(Space::Global, *start);
                let v = if *poison {
                    "poison".to_string()
                } else {
                    value.to_string()
                };
                write!(
                    f,
                    "store {place}:{w} byte {k} (the last a {width}-byte store left there \
                     before synchronisation point {}) = {v}",
                    seg + 1
                )
            }
            Obs::Ub(why) => write!(f, "undefined behaviour ({why})"),
            Obs::Projection => write!(f, "|"),
        }
    }
}

/// An observed value as a report shows it: `poison` where bit `i` of
/// `poison` is set.
fn shown(v: i64, poison: u64, i: usize) -> String {
    if i < 64 && poison >> i & 1 == 1 {
        "poison".into()
    } else {
        v.to_string()
    }
}

/// Whether the target's observable event `b` is one the reference's `a`
/// allows (LangRef's refinement, as Alive2 reads it; DESIGN.md 2.7): equal,
/// except that an observed value that is poison in the reference (a stored
/// value, a convergent operation's argument) allows any value in the
/// target, poison included. A target's poison value where the
/// reference's is defined is not allowed.
pub fn event_refines(a: &Obs, b: &Obs) -> bool {
    let values = |x: &[i64], px: u64, y: &[i64], py: u64| {
        x.len() == y.len()
            && x.iter().zip(y).enumerate().all(|(i, (u, v))| {
                let bit = |p: u64| i < 64 && p >> i & 1 == 1;
                bit(px) || (!bit(py) && u == v)
            })
    };
    match (a, b) {
        (
            Obs::Op {
                label: l1,
                args: a1,
                poison: p1,
            },
            Obs::Op {
                label: l2,
                args: a2,
                poison: p2,
            },
        )
        | (
            Obs::OpNoMemory {
                label: l1,
                args: a1,
                poison: p1,
            },
            Obs::OpNoMemory {
                label: l2,
                args: a2,
                poison: p2,
            },
        ) => l1 == l2 && values(a1, *p1, a2, *p2),
        (
            Obs::Mem {
                write: w1,
                space: s1,
                addr: d1,
                access: x1,
                value: v1,
                poison: p1,
            },
            Obs::Mem {
                write: w2,
                space: s2,
                addr: d2,
                access: x2,
                value: v2,
                poison: p2,
            },
        ) => {
            (w1, s1, d1, x1) == (w2, s2, d2, x2)
                && match (v1, v2) {
                    (Some(u), Some(v)) => values(&[*u], *p1, &[*v], *p2),
                    (None, None) => true,
                    _ => false,
                }
        }
        (
            Obs::Byte {
                seg: s1,
                addr: d1,
                value: v1,
                poison: p1,
                ..
            },
            Obs::Byte {
                seg: s2,
                addr: d2,
                value: v2,
                poison: p2,
                ..
            },
        ) => s1 == s2 && d1 == d2 && (*p1 || (!*p2 && v1 == v2)),
        _ => a == b,
    }
}

/// Whether the target's observable sequence `b` is one the reference's
/// `a` allows: the same length, each event allowed ([`event_refines`]).
/// Equal sequences always are.
pub fn refines(a: &[Obs], b: &[Obs]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| event_refines(x, y))
}

/// Whether plain barriers of `module` are judged by the hazards they leave
/// alone: true unless some access is an element of the kernel language's
/// arrays, whose memory holds no values (a load's value is its oracle's
/// next one), so that the barrier's place in the sequence is what shows a
/// load moved across another thread's write. Where memory holds values
/// (the byte-addressed accesses of LLVM IR), such a load reads another
/// phase's value, and a moved barrier that lets two threads meet at one
/// address in one phase is a race.
pub fn barriers_by_hazards(module: &Module) -> bool {
    !module.functions.iter().any(|f| {
        f.blocks.iter().any(|b| {
            b.exprs().iter().any(|e| {
                e.any(&mut |x| {
                    matches!(x,
                        crate::Expr::Load { access, .. } | crate::Expr::Store { access, .. }
                            if access.bytes == 0)
                })
            })
        })
    })
}

/// The labels of the convergent operations that access no memory
/// ([`crate::OpInfo::memory_none`]) in every module of `modules` that has
/// an operation of that label: the modules of one check (a reference and
/// the stages after it) agree on them through [`keep_memory_none`].
///
/// Why: the IR parser of LLVM gives an intrinsic the attributes of its
/// definition whatever the file declares, so opt's output declares
/// `llvm.dx.wave.reduce.umax.i32` `memory(none)` where LLVM's own test
/// (`SimpleLoopUnswitch/convergent-controlled.ll`) declares it
/// `{ convergent }` alone. Read as written, the same call would be an
/// operation that accesses no memory in the target only, and the two
/// runs would differ in that alone. Where the modules disagree, the call
/// is taken as one that may access memory in all of them: its order
/// against memory accesses stays observed.
pub fn memory_none_everywhere<'a>(
    modules: impl IntoIterator<Item = &'a Module>,
) -> std::collections::BTreeSet<String> {
    let mut yes = std::collections::BTreeSet::new();
    let mut no = std::collections::BTreeSet::new();
    for m in modules {
        for op in &m.ops {
            if op.memory_none {
                yes.insert(op.label.clone());
            } else if op.is_convergent() {
                no.insert(op.label.clone());
            }
        }
    }
    yes.retain(|l| !no.contains(l));
    yes
}

/// Clears [`crate::OpInfo::memory_none`] on every op of `m` whose label is
/// not in `labels` ([`memory_none_everywhere`]).
pub fn keep_memory_none(m: &mut Module, labels: &std::collections::BTreeSet<String>) {
    for op in &mut m.ops {
        if op.memory_none && !labels.contains(&op.label) {
            op.memory_none = false;
        }
    }
}

/// The observable events of `t`, a run of `module`, as one sequence that
/// two runs have equal exactly when they behave alike.
///
/// **Operations that access no memory.** LangRef: a `memory(none)` call
/// reads and writes no memory, so its order against loads and stores is
/// not observable; its arguments, its order against the other convergent
/// operations and its convergence are. A run with such an operation
/// ([`Obs::OpNoMemory`]) is compared as two projections: every event but
/// those operations, then [`Obs::Projection`], then the convergent
/// operations alone (barriers as observed included) in their order. Two
/// runs are alike iff both projections are equal: a store may move across
/// a `memory(none)` call, two such calls may not swap, nor may one move
/// across another convergent operation. A run without one is its single
/// sequence as before (its second projection would be a subsequence of
/// the first). The symbolic product compares the same two projections
/// (`convcheck_smt`, `product::symex`).
///
/// **Calls that access only inaccessible memory**
/// ([`Access::EXTERNAL_CALL_INACCESSIBLE`]) are compared the same way: in
/// the second projection alone, with every other call's events
/// ([`Access::is_call_event`]), so a store may move across such a call,
/// while two calls may not swap.
pub fn observable(module: &Module, t: &Trace, how: Observe) -> Vec<Obs> {
    let all = events(module, t, how);
    // Only in the second projection: operations that access no memory,
    // calls that access only inaccessible memory.
    let second_only = |o: &Obs| {
        matches!(o, Obs::OpNoMemory { .. })
            || matches!(o, Obs::Mem { write: true, access, .. }
                if access.atomic == Access::EXTERNAL_CALL_INACCESSIBLE)
    };
    if !all.iter().any(second_only) {
        return all;
    }
    let mut out: Vec<Obs> = all.iter().filter(|o| !second_only(o)).cloned().collect();
    out.push(Obs::Projection);
    out.extend(all.into_iter().filter(|o| {
        matches!(
            o,
            Obs::Op { .. } | Obs::OpNoMemory { .. } | Obs::Barrier { .. }
        ) || matches!(o, Obs::Mem { write: true, access, .. } if access.is_call_event())
    }));
    out
}

/// Whether `access` is a plain store of `canonical_stores`: non-atomic,
/// non-volatile, of bytes of shared, global or generic memory.
pub fn plain_store(space: Space, write: bool, access: Access) -> bool {
    write && access.bytes > 0 && !access.volatile && access.atomic == 0 && space != Space::Local
}

/// Whether a trace event ends a segment of plain stores
/// ([`canonical_stores`]): a barrier (a plain one too), a fence, a
/// convergent operation that may access memory, an atomic write (a
/// read-modify-write, a `store atomic`), a volatile access, an access of
/// the kernel language's elements, a call's event (but not one of a call
/// that accesses only inaccessible memory). A non-volatile load of bytes
/// (atomic or not: such loads are no events, and LLVM deletes an unused
/// one) and a plain store do not.
fn ends_segment(module: &Module, e: &super::Event) -> bool {
    match &e.kind {
        EventKind::Op { .. } => !module.op(e.sid).is_some_and(|o| o.memory_none),
        EventKind::Barrier { .. } | EventKind::Fence => true,
        EventKind::Mem {
            space,
            write,
            access,
            ..
        } => {
            let quiet_load = !*write && access.bytes > 0 && !access.volatile;
            let inaccessible = *write && access.atomic == Access::EXTERNAL_CALL_INACCESSIBLE;
            !(plain_store(*space, *write, *access) || quiet_load || inaccessible)
        }
        EventKind::Call(_) | EventKind::Stmt | EventKind::Block(_) => false,
    }
}

/// The observable events of `t` in the order the thread ran them.
///
/// **Plain stores** (DESIGN.md 2.7 as revised for review3 H17): another
/// thread sees a non-atomic, non-volatile store only after
/// synchronisation (else it races, which the hazard check judges), and
/// the host sees memory at the end; so what such stores to shared, global
/// or generic memory show is, at each synchronisation point of the thread
/// ([`ends_segment`], and the end of the run), the last value written to
/// each byte since the previous one. Under [`Observe::stores_by_bytes`]
/// each such store is split into byte writes, and each *segment* (the
/// stores between two synchronisation points) is shown as the bytes it
/// left, in address order, with the segment's number ([`Obs::Byte`]),
/// before the event that ends it: two runs compare equal where every
/// segment writes the same set of bytes with the same last values,
/// whatever the widths, order or overwritten stores (SROA's per-field
/// split of a `memcpy`, DSE, LICM's promotion of a location updated in a
/// loop). This function is the canonical form; the symbolic product
/// compares the same maps (`convcheck_smt`, `query::segments`), and the
/// product's replay calls this function.
fn events(module: &Module, t: &Trace, how: Observe) -> Vec<Obs> {
    let raw = raw_events(module, t, how);
    if !how.stores_by_bytes {
        return raw.into_iter().map(|(_, o)| o).collect();
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut seg = 0u32;
    // The current segment's bytes: address to (value, poison, width).
    let mut bytes: std::collections::BTreeMap<i64, (u8, bool, u32, i64)> = Default::default();
    let flush = |out: &mut Vec<Obs>, bytes: &mut std::collections::BTreeMap<_, _>, seg: u32| {
        for (addr, (value, poison, width, start)) in std::mem::take(bytes) {
            out.push(Obs::Byte {
                seg,
                addr,
                value,
                poison,
                width,
                start,
            });
        }
    };
    let mut raw = raw.into_iter().peekable();
    for (i, e) in t.events.iter().enumerate() {
        let obs = raw.next_if(|(j, _)| *j == Some(i)).map(|(_, o)| o);
        if let EventKind::Mem {
            space,
            write,
            addr,
            access,
            ..
        } = &e.kind
        {
            if plain_store(*space, *write, *access) {
                if let Some(Obs::Mem { value, poison, .. }) = obs {
                    let v = value.unwrap_or(0) as u64;
                    for k in 0..access.bytes.min(8) {
                        let at = addr.wrapping_add(i64::from(k));
                        let b = (v >> (8 * k)) as u8;
                        bytes.insert(at, (b, poison & 1 == 1, access.bytes, *addr));
                    }
                }
                continue;
            }
        }
        if ends_segment(module, e) {
            flush(&mut out, &mut bytes, seg);
            seg += 1;
        }
        out.extend(obs);
    }
    // The end of the run (undefined behaviour included) ends the last.
    flush(&mut out, &mut bytes, seg);
    out.extend(raw.map(|(_, o)| o));
    out
}

/// The observable events of `t` in the order the thread ran them, each
/// with the index of its trace event (`None`: the undefined behaviour the
/// run stopped at), stores one by one.
fn raw_events(module: &Module, t: &Trace, how: Observe) -> Vec<(Option<usize>, Obs)> {
    let mut unused = t.unused_loads.iter().copied().peekable();
    let mut poisoned = t.poison.iter().copied().peekable();
    t.events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let dead = unused.next_if_eq(&i).is_some();
            let mut poison = 0u64;
            while let Some((_, a)) = poisoned.next_if(|&(j, _)| j == i) {
                if a < 64 {
                    poison |= 1 << a;
                }
            }
            match &e.kind {
                EventKind::Op { args } if module.op(e.sid).is_some_and(|o| o.memory_none) => {
                    Some(Obs::OpNoMemory {
                        label: module.label(e.sid).to_string(),
                        args: args.clone(),
                        poison,
                    })
                }
                EventKind::Op { args } => Some(Obs::Op {
                    label: module.label(e.sid).to_string(),
                    args: args.clone(),
                    poison,
                }),
                EventKind::Barrier { kind, predicate } => {
                    let plain = *kind == BarrierKind::Plain;
                    (!plain || how.plain_barriers).then(|| Obs::Barrier {
                        label: module.label(e.sid).to_string(),
                        predicate: predicate.map(|p| i64::from(p != 0)),
                    })
                }
                EventKind::Mem {
                    space,
                    write,
                    addr,
                    access,
                    value,
                } => {
                    (*write || access.volatile || (access.bytes == 0 && !dead) || how.unused_loads)
                        .then_some(Obs::Mem {
                            write: *write,
                            space: *space,
                            addr: *addr,
                            access: *access,
                            value: *value,
                            poison,
                        })
                }
                EventKind::Call(_) | EventKind::Stmt | EventKind::Fence | EventKind::Block(_) => {
                    None
                }
            }
            .map(|o| (Some(i), o))
        })
        .chain(t.ub.iter().map(|why| (None, Obs::Ub(why.clone()))))
        .collect()
}

/// The sentence for the first difference of two observable sequences of
/// thread `tid` (reference `a`, target `b`); where both have a second
/// projection ([`observable`]) and only that differs, the sentence counts
/// convergent operations.
pub fn describe_difference(a: &[Obs], b: &[Obs], tid: u32) -> String {
    let split = |s: &[Obs]| -> (Vec<Obs>, Vec<Obs>) {
        match s.iter().position(|o| *o == Obs::Projection) {
            Some(i) => (s[..i].to_vec(), s[i + 1..].to_vec()),
            None => (
                s.to_vec(),
                s.iter()
                    .filter(|o| matches!(o, Obs::Op { .. } | Obs::Barrier { .. }))
                    .cloned()
                    .collect(),
            ),
        }
    };
    let ((a1, a2), (b1, b2)) = (split(a), split(b));
    if !refines(&a1, &b1) {
        return first_difference(&a1, &b1, tid, "event");
    }
    first_difference(&a2, &b2, tid, "convergent operation")
}

fn first_difference(a: &[Obs], b: &[Obs], tid: u32, what: &str) -> String {
    let k = a
        .iter()
        .zip(b)
        .take_while(|(x, y)| event_refines(x, y))
        .count();
    match (a.get(k), b.get(k)) {
        (Some(x), Some(y)) => format!(
            "{what} {} of thread {tid} is `{x}` in the reference but `{y}` in the target",
            k + 1
        ),
        (Some(x), None) => format!(
            "thread {tid} stops before `{x}` ({what} {}) in the target",
            k + 1
        ),
        (None, Some(y)) => format!(
            "thread {tid} has an extra `{y}` ({what} {}) in the target",
            k + 1
        ),
        (None, None) => "the event sequences differ".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(value: i64, poison: u64) -> Obs {
        Obs::Mem {
            write: true,
            space: Space::Global,
            addr: 8,
            access: Access::bytes(4),
            value: Some(value),
            poison,
        }
    }

    fn vote(args: Vec<i64>, poison: u64) -> Obs {
        Obs::Op {
            label: "ballot".into(),
            args,
            poison,
        }
    }

    /// LangRef's refinement of observed values: a reference's poison allows
    /// anything, a target's poison where the reference's value is defined
    /// is not allowed, defined values must be equal.
    #[test]
    fn an_observed_value_is_refined_by_its_definedness() {
        assert!(event_refines(&store(0, 1), &store(7, 0)));
        assert!(event_refines(&store(0, 1), &store(0, 1)));
        assert!(!event_refines(&store(7, 0), &store(0, 1)));
        assert!(!event_refines(&store(0, 0), &store(0, 1)));
        assert!(event_refines(&store(7, 0), &store(7, 0)));
        assert!(!event_refines(&store(7, 0), &store(6, 0)));
        // Per argument: the second is poison in the reference only.
        assert!(event_refines(&vote(vec![1, 0], 2), &vote(vec![1, 5], 0)));
        assert!(!event_refines(&vote(vec![1, 0], 2), &vote(vec![2, 5], 0)));
        assert!(!event_refines(&vote(vec![1, 0], 0), &vote(vec![1, 0], 2)));
        // The address is never excused.
        let mut other = store(7, 0);
        if let Obs::Mem { addr, .. } = &mut other {
            *addr = 12;
        }
        assert!(!event_refines(&store(0, 1), &other));
        // Sequences: the same length, each event refined.
        assert!(refines(
            &[store(0, 1), store(5, 0)],
            &[store(9, 0), store(5, 0)]
        ));
        assert!(!refines(
            &[store(0, 1), store(5, 0)],
            &[store(9, 0), store(6, 0)]
        ));
        assert!(!refines(&[store(0, 1)], &[store(0, 1), store(5, 0)]));
    }
}
