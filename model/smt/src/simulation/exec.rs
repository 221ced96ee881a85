//! Symbolic runs of one thread of one program between synchronisation
//! points: a *segment* starts at a location with a symbolic state and
//! follows every acyclic path until it executes an instruction with
//! observable events (it stops after it), enters a cycle header (a cut
//! point; it stops on entry, after the header's phis), returns, or gets
//! stuck.
//!
//! **The semantics** is the interpreter's (`convcheck_ir::exec`), written
//! again over bit-vectors: 64-bit wrapping values (`product::bv`); the
//! `k`-th evaluation of an oracle named `c` by a thread is `S_c(th, k)`
//! for an uninterpreted function `S_c` shared by both programs (oracles
//! match by name) and a thread symbol `th`; an invariant oracle is
//! `S_c(th, 0)` at every read, as the interpreter asks its source once
//! with `k = 0`, and a uniform-invariant one `S_c(0, 0)`, the same term in
//! every thread (the re-check's two copies of the symbols share it). Lazy `&&`, `||` and `select` evaluate their arms under a
//! guard: oracle counters advance by `ite(guard, 1, 0)`. Events under a
//! guard (a call or access inside a lazy arm) are not modelled.
//!
//! **Events** are what single-thread behaviour compares (DESIGN.md 2.7):
//! convergent operations (observation points, convergent calls, barriers,
//! by label, with the values of their arguments and a data barrier's
//! predicate), and memory accesses whose value is wanted (stores with
//! their address and value; loads with their address and the oracle
//! evaluation that gives their value, which identifies the load). A load
//! evaluated where its value is not wanted is never observable (the
//! interpreter marks it unused at once) and is not an event here. Fences
//! are not observable, but they end a segment of plain stores
//! (`convcheck_ir::exec::observe`): where a program has stores that can
//! race, a fence is refused. Stores compared one by one, in order, are
//! stricter than the segment comparison (same stores in the same order
//! between the same events leave the same bytes), so the simulation may
//! fail to prove what the bounded engines decide, never the opposite.
//!
//! **Used loads.** The interpreter leaves a load out of the observable
//! sequence when its value is never used: a load whose value is wanted
//! outside an assignment is used at once; one inside an assignment is
//! *pending* on the assigned local until the local is read (used) or
//! assigned again. Each state keeps, per local that can hold a pending
//! load, whether it does, which oracle evaluation that load was, and
//! whether the other program already used it (*owed*); every read of such
//! a local records the load as used (under the guard of the read), and a
//! pending owed load assigned over or left at the end is *lost*. The
//! relation settles the used loads of the two programs step by step
//! (`obligations::settle`).
//!
//! **Loads as accesses** (`Exec::accesses`, the search's first tries). A
//! byte-addressed load of shared or global memory is no observable event
//! of single-thread behaviour (`convcheck_ir::exec::observe`: its value
//! is all it gives, and the value is compared wherever it goes); with
//! `accesses` on, such a load is no event, used or not, reads no oracle
//! and does not end a segment: only its value (the location's, from the
//! state's memory) and its access (`Acc`, for the hazard condition
//! `obligations::loads_covered`) remain. With it off (the first tries),
//! each such load is an event as above: stronger than single-thread
//! behaviour asks, but the two programs then meet at every load, which
//! a target that stutters before reloading needs (a relation holds no
//! facts about memory contents).
//!
//! **Cycle counts** follow `product::unroll`: per cycle containing the
//! current block, the count of its header's instances since the most
//! recent instance of an enclosing header. A convergent operation's
//! maximal-convergence key is determined by its site and these counts.
//!
//! Why this file is long: the symbolic state of a thread, the evaluation
//! of expressions, loads and calls over it and the enumeration of a
//! segment's paths share one state type and its invariants; splitting
//! them is left for later (issue 22).

use super::side::{Loc, Side};
use crate::product::bv::{binary, c64, nonzero, truth, unary};
use convcheck_ir::{
    Access, AssignOp, BarrierKind, BinOp, CallKind, Expr, Inst, InstKind, OpId, OracleClass,
    OracleId, Space, Term,
};
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::{Array, Ast, Bool, BV};
use z3::{FuncDecl, Sort};

/// The symbols of one thread: its stream functions' thread argument, its
/// id and the group size.
#[derive(Clone, Debug)]
pub(crate) struct Thread {
    pub th: BV,
    pub tid: BV,
    pub n: BV,
}

impl Thread {
    /// Thread `k`'s symbols.
    pub fn new(k: usize) -> Thread {
        Thread {
            th: BV::new_const(format!("th{k}"), 8),
            tid: BV::new_const(format!("tid{k}"), 64),
            n: BV::new_const(format!("N{k}"), 64),
        }
    }
}

/// What both programs share: the oracle names and their stream functions.
pub(crate) struct Shared {
    pub names: Vec<String>,
    pub streams: Vec<FuncDecl>,
    /// Whether loads of values in memory are modelled: neither program
    /// passes a barrier or accesses memory atomically, so a load reads
    /// what the thread stored there (`memory`) or else its location's free
    /// value (`memory_name`).
    pub plain_memory: bool,
    /// Whether a program stores to memory: loads then read the state's
    /// memory (`TState::mem`); without stores they read the free value
    /// alone (the same answer, in smaller queries).
    pub stores: bool,
    /// Whether a program loads bytes from memory: else a clobber (what an
    /// external call may write, `Access::CLOBBER_OBJECT`) changes nothing.
    pub loads: bool,
    /// Whether clobbers are modelled (`memory`): memory is plain, a
    /// program loads bytes and one has a clobber. Loads then read the
    /// state's epochs (`TState::gens`) and, per epoch, the free values of
    /// `epochs`.
    pub clobbers: bool,
    /// Whether a program writes shared or global memory with a store that
    /// can race (not a clobber, not a call's event: the interpreter's
    /// hazards never race those): only then can a load race, and only then
    /// do the target's loads need the hazard condition
    /// (`obligations::loads_covered`).
    pub races: bool,
    /// Per name, the free values of its locations after clobbers:
    /// `G_i(th, addr, epoch)` (used for the memory names alone).
    pub epochs: Vec<FuncDecl>,
}

/// The name of the free values of `n`-byte locations of shared and global
/// memory (one address space of locations, as `exec::memory` names them).
pub(crate) fn memory_name(n: u32) -> String {
    format!("the free values of {n}-byte locations")
}

impl Shared {
    pub fn new(names: Vec<String>) -> Shared {
        let streams = names
            .iter()
            .enumerate()
            .map(|(i, _)| {
                FuncDecl::new(
                    format!("S{i}"),
                    &[&Sort::bitvector(8), &Sort::bitvector(64)],
                    &Sort::bitvector(64),
                )
            })
            .collect();
        let epochs = names
            .iter()
            .enumerate()
            .map(|(i, _)| {
                FuncDecl::new(
                    format!("G{i}"),
                    &[
                        &Sort::bitvector(8),
                        &Sort::bitvector(64),
                        &Sort::bitvector(64),
                    ],
                    &Sort::bitvector(64),
                )
            })
            .collect();
        Shared {
            names,
            streams,
            plain_memory: false,
            stores: false,
            loads: false,
            clobbers: false,
            races: false,
            epochs,
        }
    }

    /// Whether the states' memory (`TState::mem`, `calls`, `gens`) is
    /// modelled, so that each step must leave it equal in both programs.
    pub fn memory_state(&self) -> bool {
        self.stores || self.clobbers
    }

    /// `G_name(th, addr, gen)`: the free value of a location at an epoch.
    pub fn epoch_value(&self, name: usize, th: &BV, addr: &BV, gen: &BV) -> BV {
        self.epochs[name]
            .apply(&[th as &dyn Ast, addr as &dyn Ast, gen as &dyn Ast])
            .as_bv()
            .unwrap_or_else(|| c64(0))
    }

    /// The name index of an `n`-byte load's free values in `space`, when
    /// such loads are modelled.
    pub fn memory(&self, space: Space, n: u32, volatile: bool) -> Option<usize> {
        if !self.plain_memory || volatile || space == Space::Local {
            return None;
        }
        let name = memory_name(n.min(8));
        self.names.iter().position(|x| *x == name)
    }

    /// `S_name(th, k)`.
    pub fn value(&self, name: usize, th: &BV, k: &BV) -> BV {
        self.streams[name]
            .apply(&[th as &dyn Ast, k as &dyn Ast])
            .as_bv()
            .unwrap_or_else(|| c64(0))
    }
}

/// A pending load of a local: whether there is one, and which oracle
/// evaluation it was (name index and count).
#[derive(Clone, Debug)]
pub(crate) struct Pend {
    pub on: Bool,
    pub o: BV,
    pub k: BV,
    /// The other program has already used the load this one is pending
    /// with: this one must use it too before the local is assigned again
    /// or the run ends (see `obligations::settle`).
    pub owed: Bool,
    /// The load was treated as unobservable (silent): using it breaks the
    /// relation.
    pub silent: Bool,
}

/// A thread's state at a program point.
#[derive(Clone, Debug)]
pub(crate) struct TState {
    pub vars: BTreeMap<String, BV>,
    /// Evaluation counter per oracle name.
    pub cnt: Vec<BV>,
    /// Counts of the cycles containing the current block, outermost first.
    pub cyc: Vec<BV>,
    /// Pending loads per local that can hold one.
    pub pend: BTreeMap<String, Pend>,
    /// The bytes the thread wrote (`memory`).
    pub mem: Array,
    /// The calls that may write memory the thread made (`memory`, the
    /// epoch; counted only where `Shared::clobbers`).
    pub calls: BV,
    /// Per byte, the epoch of the newest clobber that covered it
    /// (`memory`).
    pub gens: Array,
}

/// Where an event comes from: block, instruction, position among the
/// instruction's events, and op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Site {
    pub block: usize,
    pub inst: usize,
    pub nth: usize,
    pub op: OpId,
}

/// An observable event.
#[derive(Clone, Debug)]
pub(crate) enum EvKind {
    /// A convergent operation.
    Conv {
        label: String,
        args: Vec<BV>,
        /// The arguments that may be poison, with where they are defined
        /// (`convcheck_ir::Expr::maybe_poison`; a poison argument is 0).
        defined: Vec<(usize, Bool)>,
        barrier: Option<BarrierKind>,
        pred: Option<BV>,
    },
    /// A memory access whose value is wanted (a load) or a store.
    Mem {
        label: String,
        space: Space,
        write: bool,
        addr: BV,
        /// The stored value (0 where it is poison).
        value: Option<BV>,
        /// Where the stored value is defined, if it may be poison
        /// (`convcheck_ir::Expr::maybe_poison`).
        defined: Option<Bool>,
        /// A load's oracle evaluation: name index and count.
        id: Option<(usize, BV)>,
        /// The width in bytes (0: an element of the kernel language's
        /// arrays).
        bytes: u32,
        /// A volatile access (LangRef: the number and order of volatile
        /// operations must not change; red-team finding F1: a volatile
        /// store made plain was proved). Volatile loads are not modelled.
        volatile: bool,
    },
}

#[derive(Clone, Debug)]
pub(crate) struct Ev {
    pub kind: EvKind,
    pub site: Site,
    /// The cycle counts at the event.
    pub cyc: Vec<BV>,
    /// A load whose value went to an assignment (pending on a local): the
    /// relation may treat it as unobservable (*silent*) when it is never
    /// used (the used-load obligations check that).
    pub pending: bool,
}

impl Ev {
    pub fn convergent(&self) -> bool {
        matches!(self.kind, EvKind::Conv { .. })
    }
}

/// How a segment ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// After an instruction with events, at the location following it.
    Event(Loc),
    /// On entry to a cycle header.
    Cut(Loc),
    /// At a `ret`.
    Ret,
    /// At `unreachable` (undefined behaviour).
    Unreachable,
    /// Out of the model: a phi without a value for the edge taken, a
    /// missing block.
    Stuck(String),
}

/// A load recorded as used: under `guard`, the evaluation `(o, k)`;
/// `owed` when the other program had used it first.
#[derive(Clone, Debug)]
pub(crate) struct Used {
    pub guard: Bool,
    pub o: BV,
    pub k: BV,
    pub owed: Bool,
}

/// One path of a segment.
#[derive(Clone, Debug)]
pub(crate) struct Path {
    /// Conjunction of the branch conditions taken.
    pub guard: Vec<Bool>,
    pub events: Vec<Ev>,
    pub used: Vec<Used>,
    /// Conditions under which a load the other program used is lost
    /// (its local assigned again, or the run ends, while it is pending).
    pub lost: Vec<Bool>,
    /// The accesses of shared and global memory (bytes, or elements of
    /// the kernel language's arrays), loads included (used or not): what
    /// the hazard condition compares
    /// (`obligations::loads_covered`).
    pub acc: Vec<Acc>,
    pub end: End,
    pub post: TState,
}

/// An access of shared or global memory (a load, or a store that is not a
/// call's event): under `guard` (a lazy operator's arm), `bytes` bytes at
/// `addr`, or (`bytes` 0) the element `addr` of the kernel language's
/// arrays.
#[derive(Clone, Debug)]
pub(crate) struct Acc {
    pub guard: Option<Bool>,
    pub space: Space,
    pub write: bool,
    pub addr: BV,
    pub bytes: u32,
}

impl Path {
    pub fn guard(&self) -> Bool {
        match self.guard.as_slice() {
            [] => Bool::from_bool(true),
            [g] => g.clone(),
            gs => Bool::and(gs),
        }
    }
}

fn name_bv(o: usize) -> BV {
    BV::from_u64(o as u64, 32)
}

/// Evaluation of one instruction's expressions.
struct Eval<'s, 'a> {
    side: &'s Side<'a>,
    sh: &'s Shared,
    thr: &'s Thread,
    st: TState,
    guard: Option<Bool>,
    frames: Vec<Loads>,
    used: Vec<Used>,
    lost: Vec<Bool>,
    acc: Vec<Acc>,
    events: Vec<Ev>,
    at: (usize, usize),
    silent: &'s BTreeSet<(usize, usize)>,
    /// Byte-addressed loads of shared and global memory are accesses
    /// only: no event, used or not, and no oracle read (their value is
    /// the location's). Otherwise (the first tries of a search) each is
    /// an event identified by its oracle evaluation, compared with the
    /// other program's and settled as a used load: stronger than
    /// single-thread behaviour asks (`exec::observe` leaves such loads
    /// out), but where segments end at loads the two programs meet at
    /// each load, and a target that reloads after a stutter needs no
    /// invariant about memory contents.
    accesses: bool,
}

type R<T> = Result<T, String>;

/// Loads evaluated into an assignment: (oracle name, count, silent).
type Loads = Vec<(usize, BV, bool)>;

impl Eval<'_, '_> {
    fn guard_bool(&self) -> Bool {
        self.guard.clone().unwrap_or_else(|| Bool::from_bool(true))
    }

    fn under<T>(&mut self, g: Bool, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let saved = self.guard.clone();
        self.guard = Some(match &saved {
            None => g,
            Some(s) => Bool::and(&[s.clone(), g]),
        });
        let r = f(self);
        self.guard = saved;
        r
    }

    fn read_local(&mut self, n: &str) -> R<BV> {
        let g = self.guard.clone();
        if let Some(p) = self.st.pend.get_mut(n) {
            let on = p.on.clone();
            let mut read = vec![on.clone()];
            read.extend(g.clone());
            // A silent load must never be used.
            let mut l = read.clone();
            l.push(p.silent.clone());
            self.lost.push(Bool::and(&l));
            read.push(p.silent.not());
            let used_guard = Bool::and(&read);
            self.used.push(Used {
                guard: used_guard,
                o: p.o.clone(),
                k: p.k.clone(),
                owed: p.owed.clone(),
            });
            p.on = match &g {
                None => Bool::from_bool(false),
                Some(g) => Bool::and(&[on, g.not()]),
            };
        }
        self.st.vars.get(n).cloned().ok_or_else(|| {
            format!(
                "internal: local %{n} read in block {} is not tracked",
                self.side.block_name(self.at.0)
            )
        })
    }

    /// Reads oracle `o`: its value and, for a counted read, (name, count).
    fn read(&mut self, o: OracleId) -> R<(BV, Option<(usize, BV)>)> {
        let name = *self
            .side
            .name_of
            .get(o)
            .ok_or_else(|| format!("internal: no oracle {o}"))?;
        if self.side.module.oracles[o].class == OracleClass::Invariant {
            return Ok((
                self.sh.value(name, &self.thr.th, &BV::from_u64(0, 64)),
                None,
            ));
        }
        if self.side.module.oracles[o].class == OracleClass::UniformInvariant {
            // One value for every thread: the stream at thread 0, index 0,
            // whatever the thread symbol (the class is the same in both
            // programs, so nothing else reads this stream).
            return Ok((
                self.sh
                    .value(name, &BV::from_u64(0, 8), &BV::from_u64(0, 64)),
                None,
            ));
        }
        let k = self.st.cnt[name].clone();
        let v = self.sh.value(name, &self.thr.th, &k);
        self.st.cnt[name] = match &self.guard {
            None => k.bvadd(BV::from_u64(1, 64)),
            Some(g) => k.bvadd(g.ite(&BV::from_u64(1, 64), &BV::from_u64(0, 64))),
        };
        Ok((v, Some((name, k))))
    }

    fn event(&mut self, op: OpId, kind: EvKind) -> R<()> {
        self.event_of(op, kind, false)
    }

    fn event_of(&mut self, op: OpId, kind: EvKind, pending: bool) -> R<()> {
        if self.guard.is_some() {
            return Err(format!(
                "not modelled by the simulation: `{}` runs under a lazy operator (in block {})",
                self.side.module.label(op),
                self.side.block_name(self.at.0)
            ));
        }
        let nth = self.events.len();
        self.events.push(Ev {
            kind,
            site: Site {
                block: self.at.0,
                inst: self.at.1,
                nth,
                op,
            },
            cyc: self.st.cyc.clone(),
            pending,
        });
        Ok(())
    }

    fn assign_loads(&mut self, name: &str, loads: Loads) -> R<()> {
        // A pending load the other program used is lost when its local is
        // assigned again.
        if let Some(p) = self.st.pend.get(name) {
            let mut l = vec![p.on.clone(), p.owed.clone()];
            l.extend(self.guard.clone());
            self.lost.push(Bool::and(&l));
        }
        match loads.as_slice() {
            [] => {
                let g = self.guard.clone();
                if let Some(p) = self.st.pend.get_mut(name) {
                    p.on = match g {
                        None => Bool::from_bool(false),
                        Some(g) => Bool::and(&[p.on.clone(), g.not()]),
                    };
                }
            }
            [(o, k, silent)] => match self.st.pend.get_mut(name) {
                Some(p) => {
                    *p = Pend {
                        on: Bool::from_bool(true),
                        o: name_bv(*o),
                        k: k.clone(),
                        owed: Bool::from_bool(false),
                        silent: Bool::from_bool(*silent),
                    }
                }
                None => return Err(format!("internal: %{name} holds a load but is not tracked")),
            },
            _ => {
                return Err(format!(
                    "not modelled by the simulation: several loads assigned to %{name} at once"
                ))
            }
        }
        Ok(())
    }

    /// A load as an event (`Eval::accesses` off, or an element of the
    /// kernel language's arrays): identified by its oracle evaluation
    /// `id`, pending on the local it is assigned to (or used at once),
    /// silent where the node says so; `v` is its value.
    fn load_event(
        &mut self,
        op: OpId,
        space: Space,
        addr: BV,
        id: Option<(usize, BV)>,
        bytes: u32,
        v: BV,
    ) -> R<BV> {
        let Some(id) = id else {
            return Err(format!(
                "not modelled by the simulation: a load whose value is an invariant oracle (`{}`)",
                self.side.module.label(op)
            ));
        };
        let pending = !self.frames.is_empty();
        let silent = pending && self.silent.contains(&self.at);
        if !silent {
            self.event_of(
                op,
                EvKind::Mem {
                    label: self.side.module.label(op).to_string(),
                    space,
                    write: false,
                    addr,
                    value: None,
                    defined: None,
                    id: Some(id.clone()),
                    bytes,
                    volatile: false,
                },
                pending,
            )?;
        }
        match self.frames.last_mut() {
            Some(f) => f.push((id.0, id.1, silent)),
            None => {
                let guard = self.guard_bool();
                self.used.push(Used {
                    guard,
                    o: name_bv(id.0),
                    k: id.1,
                    owed: Bool::from_bool(false),
                })
            }
        }
        Ok(v)
    }

    fn eval(&mut self, e: &Expr, want: bool) -> R<BV> {
        Ok(match e {
            Expr::Const(v) => c64(*v),
            Expr::Tid => self.thr.tid.clone(),
            Expr::GroupSize => self.thr.n.clone(),
            Expr::Var(n) => self.read_local(n)?,
            Expr::Oracle(o) => self.read(*o)?.0,
            Expr::Unary(op, a) => unary(*op, &self.eval(a, true)?),
            Expr::Binary(BinOp::And, a, b) => {
                let x = self.eval(a, true)?;
                let y = self.under(nonzero(&x), |s| s.eval(b, true))?;
                truth(&Bool::and(&[nonzero(&x), nonzero(&y)]))
            }
            Expr::Binary(BinOp::Or, a, b) => {
                let x = self.eval(a, true)?;
                let y = self.under(nonzero(&x).not(), |s| s.eval(b, true))?;
                truth(&Bool::or(&[nonzero(&x), nonzero(&y)]))
            }
            Expr::Binary(op @ (BinOp::UDiv | BinOp::URem), a, b)
                if crate::product::bv::below_2_32(a) && crate::product::bv::below_2_32(b) =>
            {
                let x = self.eval(a, true)?;
                let y = self.eval(b, true)?;
                crate::product::bv::narrow_division(*op, &x, &y)
            }
            Expr::Binary(op, a, b) => {
                let x = self.eval(a, true)?;
                let y = self.eval(b, true)?;
                binary(*op, &x, &y)
            }
            Expr::Select(c, a, b) => {
                let cv = nonzero(&self.eval(c, true)?);
                let x = self.under(cv.clone(), |s| s.eval(a, want))?;
                let y = self.under(cv.not(), |s| s.eval(b, want))?;
                cv.ite(&x, &y)
            }
            Expr::Load {
                op,
                space,
                index,
                value,
                access,
            } => {
                // Values in memory (DESIGN.md 2.6): where neither program
                // passes a barrier or accesses memory atomically
                // (`Shared::memory`), a shared or global load reads what the
                // thread stored there, else the free value of its location,
                // named by the address and the width alone: `S_mem:N(th,
                // addr)`, its low N bytes (after clobbers, per epoch).
                let memory = match access.bytes {
                    0 => None,
                    n => Some(self.sh.memory(*space, n, access.volatile).ok_or_else(|| {
                        format!(
                            "not modelled by the simulation: a load of values in memory where a program passes a barrier or accesses memory atomically, a volatile load, or a load of private memory (`{}`)",
                            self.side.module.label(*op)
                        )
                    })?),
                };
                if access.volatile {
                    // (A byte-addressed one is refused by `Shared::memory`
                    // above; an element's, unused, would be no event.)
                    return Err(format!(
                        "not modelled by the simulation: a volatile load (`{}`)",
                        self.side.module.label(*op)
                    ));
                }
                let addr = self.eval(index, true)?;
                if let Some(name) = memory {
                    // Such a load is no event (`exec::observe`: its value
                    // is all it gives, and the value is compared wherever
                    // it goes), used or not, and reads no oracle: the value
                    // is the location's. It is an access all the same,
                    // which the hazard condition compares
                    // (`obligations::loads_covered`).
                    self.acc.push(Acc {
                        guard: self.guard.clone(),
                        space: *space,
                        write: false,
                        addr: addr.clone(),
                        bytes: access.bytes,
                    });
                    if !want {
                        return Ok(c64(0));
                    }
                    let (sh, th) = (self.sh, &self.thr.th);
                    let v = if sh.clobbers {
                        // After clobbers: per byte, what the thread stored
                        // there, else the location's free value at the
                        // byte's epoch (`memory`).
                        let mem = sh.stores.then_some(&self.st.mem);
                        let free = |g: &BV| sh.epoch_value(name, th, &addr, g);
                        super::memory::load_clobbered(mem, &self.st.gens, &addr, &free, access.bytes)
                    } else if sh.stores {
                        // What the thread stored there, byte by byte, else
                        // the location's free value (`memory`).
                        let free = sh.value(name, th, &addr);
                        super::memory::load(&self.st.mem, &addr, &free, access.bytes)
                    } else {
                        let free = sh.value(name, th, &addr);
                        match access.bytes {
                            n if n >= 8 => free,
                            n => free.bvand(BV::from_u64((1u64 << (8 * n)) - 1, 64)),
                        }
                    };
                    if self.accesses {
                        return Ok(v);
                    }
                    // An event identified by its oracle evaluation; the
                    // oracle's read only counts the load.
                    let Some(o) = value else {
                        return Err(format!(
                            "not modelled by the simulation: a load without a value oracle (`{}`)",
                            self.side.module.label(*op)
                        ));
                    };
                    let (_, id) = self.read(*o)?;
                    return self.load_event(*op, *space, addr, id, access.bytes, v);
                }
                // An element of the kernel language's arrays is an access
                // too, used or not (silent, or unused at once), which the
                // hazard condition compares (`obligations::loads_covered`;
                // red-team finding F0: without it an unused load of an
                // element another thread writes, a race, was proved).
                if *space != Space::Local {
                    self.acc.push(Acc {
                        guard: self.guard.clone(),
                        space: *space,
                        write: false,
                        addr: addr.clone(),
                        bytes: 0,
                    });
                }
                if !want {
                    // Recorded by the interpreter but unused at once: no
                    // event (the access above is all it is).
                    return Ok(c64(0));
                }
                let Some(o) = value else {
                    return Err(format!(
                        "not modelled by the simulation: a load without a value oracle (`{}`)",
                        self.side.module.label(*op)
                    ));
                };
                // An element of the kernel language's arrays: its value is
                // its oracle's next one, and the load is an event
                // identified by that evaluation (name and count).
                let (v, id) = self.read(*o)?;
                self.load_event(*op, *space, addr, id, access.bytes, v)?
            }
            Expr::Store {
                op,
                space,
                index,
                value,
                access,
            } => {
                if access.bytes > 0 && *space == Space::Local {
                    return Err(format!(
                        "not modelled by the simulation: a store to private memory, which is \
                         thread state (`{}`)",
                        self.side.module.label(*op)
                    ));
                }
                // An external call's event (`Access::EXTERNAL_CALL`) is an
                // event alone: it never races and leaves nothing in memory.
                // (Ordered against every event here, including those of a
                // call that accesses only inaccessible memory: a stronger
                // comparison than the two projections of `exec::observe`.)
                let call_event = access.is_call_event();
                if access.is_clobber() && !self.sh.loads {
                    // What an external call may write (`Access::
                    // CLOBBER_OBJECT`): nothing reads memory in either
                    // function, so it changes nothing.
                    return Ok(c64(0));
                }
                if access.is_clobber() {
                    return self.clobber(*op, *space, index, value, *access);
                }
                if access.atomic != 0 && !call_event {
                    return Err(format!(
                        "not modelled by the simulation: an atomic (`{}`)",
                        self.side.module.label(*op)
                    ));
                }
                // A stored value that may be poison: its computed bits go
                // to memory, its definedness to the event.
                // (The bits are read under the definedness, as a `select`
                // reads its arm: where the value is poison they use no
                // load.)
                let (defined, value) = value.observed();
                let defined = match defined {
                    Some(d) => Some(nonzero(&self.eval(d, true)?)),
                    None => None,
                };
                let v = match &defined {
                    Some(d) => self.under(d.clone(), |s| s.eval(value, true))?,
                    None => self.eval(value, true)?,
                };
                let addr = self.eval(index, true)?;
                // The event's value is what is written: the low bytes.
                let written = match access.bytes {
                    0 | 8.. => v.clone(),
                    n => v.bvand(BV::from_u64((1u64 << (8 * n)) - 1, 64)),
                };
                let written = match &defined {
                    Some(d) => d.ite(&written, &c64(0)),
                    None => written,
                };
                self.event(
                    *op,
                    EvKind::Mem {
                        label: self.side.module.label(*op).to_string(),
                        space: *space,
                        write: true,
                        addr: addr.clone(),
                        value: Some(written),
                        defined,
                        id: None,
                        bytes: access.bytes,
                        volatile: access.volatile,
                    },
                )?;
                // (An element store too, F0: it covers the target's loads
                // of that element.)
                if !call_event && *space != Space::Local {
                    self.acc.push(Acc {
                        guard: None,
                        space: *space,
                        write: true,
                        addr: addr.clone(),
                        bytes: access.bytes,
                    });
                }
                if access.bytes > 0 && self.sh.stores && !call_event {
                    self.st.mem = super::memory::store(&self.st.mem, &addr, &v, access.bytes);
                }
                v
            }
            Expr::Assign { var, op, value } => {
                let old = if *op != AssignOp::Set {
                    self.read_local(var)?
                } else {
                    c64(0)
                };
                self.frames.push(Vec::new());
                let v = self.eval(value, true);
                let loads = self.frames.pop().unwrap_or_default();
                let v = v?;
                let new = match op {
                    AssignOp::Set => v,
                    AssignOp::Add => old.bvadd(&v),
                    AssignOp::Sub => old.bvsub(&v),
                    AssignOp::Mul => old.bvmul(&v),
                };
                let new = match &self.guard {
                    None => new,
                    Some(g) => {
                        let before = self.st.vars.get(var).cloned().unwrap_or_else(|| c64(0));
                        g.ite(&new, &before)
                    }
                };
                if self.guard.is_some() && !loads.is_empty() {
                    return Err("not modelled by the simulation: a load assigned under a lazy operator".into());
                }
                self.st.vars.insert(var.clone(), new.clone());
                self.assign_loads(var, loads)?;
                new
            }
            Expr::Call {
                op, kind, args, ..
            } => match *kind {
                CallKind::Oracle(o) => self.read(o)?.0,
                CallKind::Real(_) => {
                    return Err(format!(
                        "not modelled by the simulation: the call of `{}`, a function defined in the module",
                        self.side.module.label(*op)
                    ))
                }
                CallKind::Plain(o)
                    if self.side.module.oracles.get(o).is_some_and(|i| i.class == OracleClass::Function) =>
                {
                    // One value per argument list within a thread: an
                    // uninterpreted function of the thread and the
                    // arguments, shared by both programs.
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args {
                        vals.push(self.eval(a, true)?);
                    }
                    let th = self.thr.th.clone();
                    let mut domain = vec![z3::Sort::bitvector(th.get_size())];
                    domain.extend(vals.iter().map(|_| z3::Sort::bitvector(64)));
                    let sorts: Vec<&z3::Sort> = domain.iter().collect();
                    let name = &self.side.module.oracles[o].name;
                    let f = z3::FuncDecl::new(format!("fn.{name}"), &sorts, &z3::Sort::bitvector(64));
                    let mut refs: Vec<&dyn Ast> = vec![&th];
                    refs.extend(vals.iter().map(|v| v as &dyn Ast));
                    f.apply(&refs).as_bv().unwrap_or_else(|| c64(0))
                }
                CallKind::Op(o) | CallKind::Plain(o) => {
                    let mut vals = Vec::new();
                    let mut defined = Vec::new();
                    for (i, a) in args.iter().enumerate() {
                        let (d, a) = a.observed();
                        match d {
                            Some(d) => {
                                let d = nonzero(&self.eval(d, true)?);
                                let v = self.under(d.clone(), |s| s.eval(a, false))?;
                                vals.push(d.ite(&v, &c64(0)));
                                defined.push((i, d));
                            }
                            None => vals.push(self.eval(a, false)?),
                        }
                    }
                    if matches!(kind, CallKind::Op(_)) {
                        self.event(
                            *op,
                            EvKind::Conv {
                                label: self.side.module.label(*op).to_string(),
                                args: vals,
                                defined,
                                barrier: None,
                                pred: None,
                            },
                        )?;
                    }
                    if want {
                        self.read(o)?.0
                    } else {
                        c64(0)
                    }
                }
                CallKind::Barrier(b, result) => {
                    let mut pred = None;
                    for a in args {
                        let v = self.eval(a, b != BarrierKind::Plain)?;
                        if b != BarrierKind::Plain {
                            pred = Some(v);
                        }
                    }
                    self.event(
                        *op,
                        EvKind::Conv {
                            label: self.side.module.label(*op).to_string(),
                            args: Vec::new(),
                            defined: Vec::new(),
                            barrier: Some(b),
                            pred: pred.map(|p| truth(&nonzero(&p))),
                        },
                    )?;
                    match (want, result) {
                        (true, Some(o)) if b != BarrierKind::Plain => self.read(o)?.0,
                        _ => c64(0),
                    }
                }
                // A fence ends a segment of plain stores
                // (`convcheck_ir::exec::observe`): a store moved across
                // it differs, which events compared one by one do not
                // see. Refused where a program has such stores.
                CallKind::Fence if self.sh.races => {
                    return Err(
                        "not modelled by the simulation: a fence where a program stores to \
                         shared or global memory (stores are compared by the bytes each \
                         segment between synchronisation points leaves)"
                            .into(),
                    )
                }
                CallKind::Fence => c64(0),
            },
        })
    }

    /// A clobber (`memory`; the interpreter's `exec::memory`): a constant
    /// value other than 0 counts a call (the first clobber of each), then
    /// the clobber covers the object of its address, or all shared and
    /// global memory. Private memory is not modelled (its loads are
    /// refused), so a clobber of it only counts.
    fn clobber(
        &mut self,
        op: OpId,
        space: Space,
        index: &Expr,
        value: &Expr,
        access: Access,
    ) -> R<BV> {
        if !self.sh.clobbers || self.guard.is_some() {
            return Err(format!(
                "not modelled by the simulation: memory an external call may write (`{}`){}",
                self.side.module.label(op),
                if self.guard.is_some() {
                    " under a lazy operator"
                } else {
                    ""
                }
            ));
        }
        let v = self.eval(value, true)?;
        let addr = self.eval(index, true)?;
        if matches!(value, Expr::Const(c) if *c != 0) {
            self.st.calls = self.st.calls.bvadd(c64(1));
        }
        if space == Space::Local {
            return Ok(v);
        }
        let object = (access.atomic == Access::CLOBBER_OBJECT).then_some(&addr);
        let (mem, gens) =
            super::memory::clobber(&self.st.mem, &self.st.gens, object, &self.st.calls);
        self.st.mem = mem;
        self.st.gens = gens;
        Ok(v)
    }

    /// Evaluates `e` as the value assigned to `name` (a `SetLocal` or a phi).
    fn assigned(&mut self, e: Option<&Expr>) -> R<(BV, Loads)> {
        self.frames.push(Vec::new());
        let v = match e {
            Some(e) => self.eval(e, true),
            None => Ok(c64(0)),
        };
        let loads = self.frames.pop().unwrap_or_default();
        Ok((v?, loads))
    }
}

/// The symbolic executor of one program for one thread.
pub(crate) struct Exec<'s, 'a> {
    pub side: &'s Side<'a>,
    pub sh: &'s Shared,
    pub thr: &'s Thread,
    pub max_paths: usize,
    /// Loads (block, instruction) treated as unobservable when pending.
    pub silent: BTreeSet<(usize, usize)>,
    /// Long segments: a path passes a cycle header it has not passed yet
    /// in this segment and ends only on entry to one it has (or where the
    /// segment started), instead of on entry to every header. A loop that
    /// one program runs once under a condition (an unswitched or hoisted
    /// inner loop) is then one segment, not a cut that the other program,
    /// whose copy of the loop is no cycle, does not have.
    pub long: bool,
    /// Byte-addressed loads are accesses only (`Eval::accesses`), not
    /// events.
    pub accesses: bool,
}

struct Partial {
    loc: Loc,
    st: TState,
    guard: Vec<Bool>,
    used: Vec<Used>,
    lost: Vec<Bool>,
    acc: Vec<Acc>,
    /// The headers this path passed in its segment (`Exec::long`).
    passed: Vec<usize>,
}

impl Exec<'_, '_> {
    fn evaluator(&self, st: TState, at: (usize, usize)) -> Eval<'_, '_> {
        Eval {
            side: self.side,
            sh: self.sh,
            thr: self.thr,
            st,
            guard: None,
            frames: Vec::new(),
            used: Vec::new(),
            lost: Vec::new(),
            acc: Vec::new(),
            events: Vec::new(),
            at,
            silent: &self.silent,
            accesses: self.accesses,
        }
    }

    /// Runs one instruction that is not a terminator.
    fn instruction(&self, ev: &mut Eval<'_, '_>, inst: &Inst) -> R<()> {
        match &inst.kind {
            InstKind::Phi { .. } => {
                // Phis run on the edge into the block.
            }
            InstKind::Observe => ev.event(
                inst.sid,
                EvKind::Conv {
                    label: self.side.module.label(inst.sid).to_string(),
                    args: Vec::new(),
                    defined: Vec::new(),
                    barrier: None,
                    pred: None,
                },
            )?,
            InstKind::Eval(e) => {
                ev.eval(e, false)?;
            }
            InstKind::SetLocal { name, value } => {
                let (v, loads) = ev.assigned(value.as_ref())?;
                ev.st.vars.insert(name.clone(), v);
                ev.assign_loads(name, loads)?;
            }
            InstKind::Token { .. } => {
                return Err(
                    "not modelled by the simulation: convergence control tokens not aligned with the cycles"
                        .into(),
                )
            }
        }
        Ok(())
    }

    /// After the event of a call to an external function that may have
    /// effects, the call itself (the next instruction: its result read
    /// from its oracle, after the event, `to_ir/effects.rs`) runs in the
    /// same segment when it has no event of its own, so that the segment
    /// ends after the whole LLVM call. Without this, a program that waits
    /// (a stutter) after the event has not read the result yet while the
    /// other has, and no candidate relates a value read with one the other
    /// program is still to read: nontrivial unswitching on a call's result
    /// (`%v = call i1 @cond()`) found no relation. Only the call: the
    /// instructions after it stay in the next segment, as before (running
    /// them here too put one program's segment end past the other's where
    /// the two compute them differently, `add` against `add nuw`). The
    /// call is what the next segment would have run first, from the same
    /// state, so every run's events are the same; only where the segment
    /// ends moves.
    fn quiet_tail(&self, p: &mut Partial, block: &convcheck_ir::cfg::Block) {
        // The call's clobbers (`to_ir/effects.rs`: what it may write, which
        // reads fresh afterwards) come between its events and its result
        // read; they have no event, and are run here with the call.
        let mut at = p.loc.inst;
        while block.insts.get(at).is_some_and(clobber) {
            at += 1;
        }
        let Some(inst) = block.insts.get(at) else {
            return;
        };
        if !reads_a_call(inst) {
            return;
        }
        let (mut st, mut used, mut lost, mut acc) =
            (p.st.clone(), Vec::new(), Vec::new(), Vec::new());
        for i in p.loc.inst..=at {
            let mut ev = self.evaluator(st, (p.loc.block, i));
            if self.instruction(&mut ev, &block.insts[i]).is_err() || !ev.events.is_empty() {
                return;
            }
            st = ev.st;
            used.extend(ev.used);
            lost.extend(ev.lost);
            acc.extend(ev.acc);
        }
        p.st = st;
        p.used.extend(used);
        p.lost.extend(lost);
        p.acc.extend(acc);
        p.loc.inst = at + 1;
    }

    /// Every path of the segment from `loc` in state `st`.
    pub fn segment(&self, loc: Loc, st: TState) -> R<Vec<Path>> {
        let mut done = Vec::new();
        let starts_at_header = self.side.header.get(loc.block) == Some(&true)
            && self.side.first.get(loc.block) == Some(&loc.inst);
        let mut work = vec![Partial {
            loc,
            st,
            guard: Vec::new(),
            used: Vec::new(),
            lost: Vec::new(),
            acc: Vec::new(),
            passed: if starts_at_header {
                vec![loc.block]
            } else {
                Vec::new()
            },
        }];
        while let Some(p) = work.pop() {
            self.advance(p, &mut work, &mut done)?;
            if done.len() + work.len() > self.max_paths {
                return Err(format!(
                    "a segment from block {} has more than {} paths",
                    self.side.block_name(loc.block),
                    self.max_paths
                ));
            }
        }
        Ok(done)
    }

    /// Runs `p` until it ends (pushed to `done`) or branches (the branches
    /// pushed to `work`).
    fn advance(&self, mut p: Partial, work: &mut Vec<Partial>, done: &mut Vec<Path>) -> R<()> {
        let side = self.side;
        loop {
            let Some(block) = side.cfg.blocks.get(p.loc.block) else {
                done.push(finish(
                    p,
                    Vec::new(),
                    End::Stuck("a branch to a missing block".into()),
                ));
                return Ok(());
            };
            if p.loc.inst < block.insts.len() {
                let i = p.loc.inst;
                let inst = &block.insts[i];
                let mut ev = self.evaluator(p.st.clone(), (p.loc.block, i));
                self.instruction(&mut ev, inst)?;
                p.st = ev.st;
                p.used.extend(ev.used);
                p.lost.extend(ev.lost);
                p.acc.extend(ev.acc);
                p.loc.inst += 1;
                if !ev.events.is_empty() {
                    if effect_event(inst) {
                        self.quiet_tail(&mut p, block);
                    }
                    let end = End::Event(p.loc);
                    done.push(finish(p, ev.events, end));
                    return Ok(());
                }
                continue;
            }
            // The terminator.
            let b = p.loc.block;
            let mut ev = self.evaluator(p.st.clone(), (b, block.insts.len()));
            let succs: Vec<(usize, Option<Bool>)> = match &block.term {
                Term::Br(t) => vec![(*t, None)],
                Term::CondBr { cond, then, els } => {
                    let c = nonzero(&ev.eval(cond, true)?).simplify();
                    match c.as_bool() {
                        Some(true) => vec![(*then, None)],
                        Some(false) => vec![(*els, None)],
                        None if then == els => vec![(*then, None)],
                        None => vec![(*then, Some(c.clone())), (*els, Some(c.not()))],
                    }
                }
                Term::Switch {
                    value,
                    cases,
                    default,
                } => {
                    let v = ev.eval(value, true)?;
                    let mut out: Vec<(usize, Option<Bool>)> = Vec::new();
                    let mut seen: Vec<Bool> = Vec::new();
                    let mut targets: BTreeMap<usize, Vec<Bool>> = BTreeMap::new();
                    for (c, t) in cases {
                        // The first case with the value wins.
                        let hit = v.eq(c64(*c));
                        let mut g = vec![hit.clone()];
                        g.extend(seen.iter().map(|s| s.not()));
                        targets.entry(*t).or_default().push(Bool::and(&g));
                        seen.push(hit);
                    }
                    let none: Vec<Bool> = seen.iter().map(|s| s.not()).collect();
                    targets
                        .entry(*default)
                        .or_default()
                        .push(match none.as_slice() {
                            [] => Bool::from_bool(true),
                            _ => Bool::and(&none),
                        });
                    for (t, gs) in targets {
                        let g = if gs.len() == 1 {
                            gs[0].clone()
                        } else {
                            Bool::or(&gs)
                        }
                        .simplify();
                        match g.as_bool() {
                            Some(false) => {}
                            Some(true) => out.push((t, None)),
                            None => out.push((t, Some(g))),
                        }
                    }
                    out
                }
                Term::Ret(e) => {
                    if let Some(e) = e {
                        ev.eval(e, true)?;
                    }
                    if !ev.events.is_empty() {
                        return Err("not modelled by the simulation: events in a `ret`".into());
                    }
                    p.st = ev.st;
                    p.used.extend(ev.used);
                    p.lost.extend(ev.lost);
                    p.acc.extend(ev.acc);
                    done.push(finish(p, Vec::new(), End::Ret));
                    return Ok(());
                }
                Term::Unreachable => {
                    done.push(finish(p, Vec::new(), End::Unreachable));
                    return Ok(());
                }
            };
            if !ev.events.is_empty() {
                return Err(format!(
                    "not modelled by the simulation: events in the terminator of block {}",
                    side.block_name(b)
                ));
            }
            p.st = ev.st;
            p.used.extend(ev.used);
            p.lost.extend(ev.lost);
            p.acc.extend(ev.acc);
            let mut next = Vec::new();
            for (s, g) in succs {
                let mut q = Partial {
                    loc: p.loc,
                    st: p.st.clone(),
                    guard: p.guard.clone(),
                    used: p.used.clone(),
                    lost: p.lost.clone(),
                    acc: p.acc.clone(),
                    passed: p.passed.clone(),
                };
                if let Some(g) = g {
                    q.guard.push(g);
                }
                match self.enter(b, s, &mut q)? {
                    Some(end) => done.push(finish(q, Vec::new(), end)),
                    None => next.push(q),
                }
            }
            // Continue with the first branch here, the others later.
            let Some(first) = next.pop() else {
                return Ok(());
            };
            work.extend(next);
            p = first;
        }
    }

    /// Takes the edge `from -> to`: the phis, the cycle counts; `Some(end)`
    /// when the segment ends there (a header, a missing block, a phi
    /// without a value).
    fn enter(&self, from: usize, to: usize, q: &mut Partial) -> R<Option<End>> {
        let side = self.side;
        let Some(block) = side.cfg.blocks.get(to) else {
            return Ok(Some(End::Stuck("a branch to a missing block".into())));
        };
        let mut ev = self.evaluator(q.st.clone(), (to, 0));
        let mut sets = Vec::new();
        for inst in &block.insts[..side.first[to]] {
            let InstKind::Phi { name, incoming } = &inst.kind else {
                break;
            };
            let Some((_, e)) = incoming.iter().find(|(p, _)| *p == from) else {
                return Ok(Some(End::Stuck(format!(
                    "phi %{name} in block {} has no value for the edge from {}",
                    block.name,
                    side.block_name(from)
                ))));
            };
            let (v, loads) = ev.assigned(Some(e))?;
            sets.push((name.clone(), v, loads));
        }
        if !ev.events.is_empty() {
            return Err(format!(
                "not modelled by the simulation: events in the phis of block {}",
                block.name
            ));
        }
        for (name, v, loads) in sets {
            ev.st.vars.insert(name.clone(), v);
            ev.assign_loads(&name, loads)?;
        }
        q.st = ev.st;
        q.used.extend(ev.used);
        q.lost.extend(ev.lost);
        q.acc.extend(ev.acc);
        // Cycle counts (`product::unroll::step`, symbolically).
        // The counts of the cycles containing both blocks (a common
        // outermost prefix) carry over; cycles being entered start at 0.
        let (fc, tc) = (&side.chains[from], &side.chains[to]);
        let mut cyc = Vec::with_capacity(tc.len());
        let mut keep = true;
        for (j, c) in tc.iter().enumerate() {
            keep = keep && fc.get(j) == Some(c);
            cyc.push(match (keep, q.st.cyc.get(j)) {
                (true, Some(v)) => v.clone(),
                _ => BV::from_u64(0, 64),
            });
        }
        if side.header[to] {
            if let Some(last) = cyc.last_mut() {
                *last = last.bvadd(BV::from_u64(1, 64));
            }
        }
        q.st.cyc = cyc;
        q.loc = Loc {
            block: to,
            inst: side.first[to],
        };
        if side.header[to] && self.long && !q.passed.contains(&to) {
            q.passed.push(to);
            return Ok(None);
        }
        Ok(side.header[to].then_some(End::Cut(q.loc)))
    }

    /// The state at the launch: parameters read from their oracles,
    /// every other live local 0, counters 0 but for the parameters' reads,
    /// no pending load.
    pub fn launch(&self, names: usize) -> R<TState> {
        let side = self.side;
        let mut st = TState {
            vars: BTreeMap::new(),
            cnt: vec![BV::from_u64(0, 64); names],
            cyc: Vec::new(),
            pend: side
                .load_locals
                .keys()
                .map(|n| {
                    (
                        n.clone(),
                        Pend {
                            on: Bool::from_bool(false),
                            o: name_bv(0),
                            k: BV::from_u64(0, 64),
                            owed: Bool::from_bool(false),
                            silent: Bool::from_bool(false),
                        },
                    )
                })
                .collect(),
            mem: super::memory::empty(),
            calls: c64(0),
            gens: super::memory::no_gens(),
        };
        let mut ev = self.evaluator(st.clone(), (0, 0));
        let mut args = Vec::new();
        for &o in &side.cfg.param_oracles {
            args.push(ev.read(o)?.0);
        }
        st = ev.st;
        for l in side.live_at(side.entry()) {
            st.vars.insert(l.clone(), c64(0));
        }
        for (p, v) in side.cfg.params.iter().zip(args) {
            st.vars.insert(p.clone(), v);
        }
        for p in &side.cfg.params {
            st.vars.entry(p.clone()).or_insert_with(|| c64(0));
        }
        // The entry block's cycle counts (a header entry starts at 1).
        st.cyc = side.chains[0].iter().map(|_| BV::from_u64(0, 64)).collect();
        if side.header[0] {
            if let Some(last) = st.cyc.last_mut() {
                *last = BV::from_u64(1, 64);
            }
        }
        Ok(st)
    }
}

fn finish(p: Partial, events: Vec<Ev>, end: End) -> Path {
    let mut lost = p.lost;
    if end == End::Ret {
        // The run ends: a pending load the other program used is lost.
        for q in p.st.pend.values() {
            lost.push(Bool::and(&[q.on.clone(), q.owed.clone()]));
        }
    }
    Path {
        guard: p.guard,
        events,
        used: p.used,
        lost,
        acc: p.acc,
        end,
        post: p.st,
    }
}

/// Whether `inst` is the event of a call to an external function that may
/// have effects (`Access::EXTERNAL_CALL`).
fn effect_event(inst: &Inst) -> bool {
    matches!(
        &inst.kind,
        InstKind::Eval(Expr::Store { access, .. }) if access.atomic == Access::EXTERNAL_CALL
    )
}

/// Whether `inst` is a clobber: what a call may write reads a fresh value
/// afterwards (`Access::CLOBBER_OBJECT`, `Access::CLOBBER_ALL`).
fn clobber(inst: &Inst) -> bool {
    matches!(
        &inst.kind,
        InstKind::Eval(Expr::Store { access, .. })
            if access.atomic == Access::CLOBBER_OBJECT || access.atomic == Access::CLOBBER_ALL
    )
}

/// Whether `inst` evaluates a call of an external function (`CallKind::Plain`):
/// the instruction of the call whose effect events come before it.
fn reads_a_call(inst: &Inst) -> bool {
    let e = match &inst.kind {
        InstKind::Eval(e) => e,
        InstKind::SetLocal { value: Some(e), .. } => e,
        _ => return false,
    };
    let mut found = false;
    e.walk(&mut |x| {
        if matches!(
            x,
            Expr::Call {
                kind: CallKind::Plain(_),
                ..
            }
        ) {
            found = true;
        }
    });
    found
}
