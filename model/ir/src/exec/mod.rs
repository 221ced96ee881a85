//! Per-thread execution (DESIGN.md 2.2): the machine that runs one thread
//! of a module, whatever the level of its code.
//!
//! A thread runs deterministically from its oracle values: [`run_thread`]
//! takes an [`OracleSource`] and returns the thread's [`Trace`], the
//! sequence of its dynamic instances in sequenced-before order, each with
//! its convergence [`Key`]. Nothing here looks at other threads:
//! convergence of two instances is decided afterwards from their keys
//! alone, which is what lets [`crate::paths`] enumerate per-thread paths
//! once and compare them pairwise.
//!
//! Why this file is long: the one thread machine (its state, steps, calls
//! and stops) with two additions made side by side this round, values in
//! memory (whose rules live in `memory.rs`) and the recording of values for
//! the uniformity oracle; the recording is the part to move out next.
//!
//! The code a thread runs comes from a [`Program`]: the IR's own CFGs
//! ([`cfg::CfgProgram`], maximal convergence and tokens), or a front end's
//! source-level semantics (the kernel language's statements and their
//! iteration keys). Both share this [`Machine`]: oracle reads, instance
//! recording, expression evaluation and the bounds.
//!
//! A real call keys the callee's instances under the call instance's key
//! (seed 000, Function body: threads converged at a convergent call are
//! converged at the start of the callee; distinct calls never are).
//!
//! Bounds: `fuel` (instructions per thread), `max_depth` (calls) and, when
//! enumerating, `max_iters` (iterations of one loop execution). A run that
//! hits a bound stops with a named reason; it is never cut silently. A
//! run's recorded trace is also capped in memory ([`MAX_TRACE_BYTES`] per
//! thread, [`MAX_SCENARIO_BYTES`] for a whole scenario), so a large fuel on
//! a loop that never ends stops with a message instead of exhausting the
//! machine.
//!
//! Uniform reads (DESIGN.md 2.2): a uniform oracle has one value per
//! converged dynamic instance of its evaluation (LLVM's uniformity), so
//! each uniform read is recorded with its [`ReadSite`]: the key of the
//! instruction execution that evaluates it, the expression it belongs to,
//! and the occurrence of that pair in the run. Two threads' reads with
//! equal sites must read equal values; a scenario is checked against that
//! after its runs ([`crate::scenario::uniform_conflict`]). A
//! uniform-invariant oracle is read once per thread (later reads return
//! that value, as for an invariant one) at one site shared by every
//! thread ([`ReadSite::whole_run`]), so all threads that read it read one
//! value.

pub mod cfg;
pub mod memory;
pub mod observe;

use crate::expr::{assign, binary, unary, Access, BinOp, Expr};
use crate::key::{Atom, Key};
use crate::ops::{BarrierKind, CallKind, FuncId, OpId, OracleClass, OracleId, Space};
use crate::Module;
use std::collections::HashMap;

/// Limits on one thread's run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Bounds {
    /// Iterations of one loop execution are numbered from 0; a run that
    /// would start iteration `max_iters + 1` is cut. The same bound limits
    /// how often one backwards `goto` runs in one invocation.
    pub max_iters: u32,
    /// Instructions one thread may execute.
    pub fuel: u64,
    /// Nested calls.
    pub max_depth: u32,
    /// Paths per thread that enumeration may produce.
    pub max_paths: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            max_iters: 3,
            fuel: 100_000,
            max_depth: 32,
            max_paths: 20_000,
        }
    }
}

/// What a dynamic instance is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A statement that is not a convergent operation (a branch, a jump).
    Stmt,
    /// An observation point `...` or a call to an undefined convergent
    /// function, with the values of its arguments (DESIGN.md 2.7: what a
    /// ballot votes, which lane a shuffle reads, an explicit mask).
    Op {
        /// The arguments' values, in order (none for an observation point).
        args: Vec<i64>,
    },
    /// A real call of a function defined in the file.
    Call(FuncId),
    /// A barrier, with the value of its predicate for data-carrying ones.
    Barrier {
        /// Which barrier.
        kind: BarrierKind,
        /// The predicate (`__syncthreads_count(p)` and friends).
        predicate: Option<i64>,
    },
    /// A fence.
    Fence,
    /// An instance of a CFG block (CFG level only), keyed by the block's
    /// maximal-convergence key; `sid` is the block's provenance.
    Block(u32),
    /// A memory access.
    Mem {
        /// Which array.
        space: Space,
        /// Whether it writes.
        write: bool,
        /// The index (an element's) or byte address.
        addr: i64,
        /// Element or bytes, volatile or not.
        access: Access,
        /// The value a byte-addressed store writes (its low bytes,
        /// zero-extended); `None` for loads and elements.
        value: Option<i64>,
    },
}

/// One dynamic instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    /// Its static statement or expression.
    pub sid: OpId,
    /// What it is.
    pub kind: EventKind,
    /// Its convergence key.
    pub key: Key,
}

impl Event {
    /// Whether the instance is a convergent operation (shown in trace
    /// tables): an observation point, a convergent call, a real call or a
    /// barrier.
    pub fn is_convergent_op(&self) -> bool {
        matches!(
            self.kind,
            EventKind::Op { .. } | EventKind::Call(_) | EventKind::Barrier { .. }
        )
    }

    /// Whether the instance is a convergent operation whose convergence
    /// property 2 of DESIGN.md 2.7 may compare (an observation point, a
    /// convergent call, a barrier; `observe::Observe::compares` decides
    /// for plain barriers). Not a real call: a call is not an event, its
    /// effects are (the callee's operations are compared, keyed under the
    /// call, so inlining a call or deleting one to an empty function
    /// changes nothing).
    pub fn is_compared_op(&self) -> bool {
        matches!(self.kind, EventKind::Op { .. } | EventKind::Barrier { .. })
    }
}

/// Why a run stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The run left the bounds because of the oracle values it was given
    /// (a loop iterated more than `max_iters` after a decision): the
    /// scenario is outside the bounds.
    Cut(String),
    /// The run exceeds a bound whatever its oracle values: fuel, call depth,
    /// or a loop whose iteration count does not depend on any decision.
    OutOfBounds(String),
    /// The run has undefined behaviour here (it reaches `unreachable`, or
    /// branches on `undef` or `poison`, DESIGN.md 2.7): it stops, and
    /// [`run_thread`] returns it as a complete run with [`Trace::ub`] set.
    Ub(String),
    /// An oracle value is needed that the source does not have (path
    /// enumeration extends its prefix with each value of `domain`).
    Need {
        /// The oracle.
        oracle: OracleId,
        /// The values to try.
        domain: Vec<i64>,
    },
}

/// Where a thread's oracle values come from.
pub trait OracleSource {
    /// The value of the `k`-th evaluation (from 0) of `oracle`. Invariant
    /// oracles are asked once, with `k == 0`.
    fn value(&mut self, module: &Module, oracle: OracleId, k: u32) -> Result<i64, Stop>;

    /// Whether the value just given for the `k`-th evaluation of `oracle`
    /// was a decision (one of several values path enumeration tries).
    /// Iteration bounds use the count of decisions to tell a loop cut by
    /// its values from one that exceeds the bound whatever they are.
    fn decided(&self, module: &Module, oracle: OracleId, _k: u32) -> bool {
        module.oracles[oracle].domain.len() > 1
    }

    /// The value of the free memory location `name` (`memory::location_name`:
    /// space, byte address, width and barrier phase), which a load of
    /// `oracle` reads (its domain is the values to try). A run asks once per
    /// name. The default is what the source gives the oracle's first
    /// evaluation (a source that knows no locations).
    fn memory(&mut self, module: &Module, oracle: OracleId, name: &str) -> Result<i64, Stop> {
        let _ = name;
        self.value(module, oracle, 0)
    }

    /// The values of free bytes of memory (`memory::location_name` of
    /// width 1), none read before in the run, that one load of `oracle`
    /// reads: `names` holds each byte's place in the load (0 the lowest)
    /// and its name. The default asks [`Self::memory`] once, by the first
    /// byte's name, and gives each byte its place's byte of that value:
    /// path enumeration decides one value of the load's domain for all of
    /// them. A source that knows the bytes by name gives them.
    fn memory_bytes(
        &mut self,
        module: &Module,
        oracle: OracleId,
        names: &[(u32, String)],
    ) -> Result<Vec<u8>, Stop> {
        let first = names.first().map(|(_, n)| n.as_str()).unwrap_or("");
        let v = self.memory(module, oracle, first)? as u64;
        Ok(names.iter().map(|(i, _)| (v >> (8 * i)) as u8).collect())
    }
}

/// The most a single thread's run may record (events, their keys and its
/// reads), in estimated bytes: 256 MiB.
pub const MAX_TRACE_BYTES: u64 = 256 << 20;

/// The most the runs of one scenario may record together: 1 GiB.
pub const MAX_SCENARIO_BYTES: u64 = 1 << 30;

/// Where a uniform oracle was read: the key of the evaluating instruction
/// execution, the expression (an identity stable for the lifetime of the
/// running program, compared only between runs of that program), and the
/// occurrence of this (key, expression) in the run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReadSite {
    /// The key of the instruction execution (without its own atom).
    pub key: Vec<Atom>,
    /// The expression read (0 for the kernel's parameters, which use
    /// `occurrence` for their position).
    pub expr: usize,
    /// How many earlier reads of this run had the same key and expression.
    pub occurrence: u32,
}

impl ReadSite {
    /// The one site of a `uniform_invariant` oracle `o`: every thread's
    /// first read of it, wherever it happens (the empty key, an expression
    /// identity no expression has, `o` as the occurrence).
    pub fn whole_run(o: OracleId) -> ReadSite {
        ReadSite {
            key: Vec::new(),
            expr: usize::MAX,
            occurrence: u32::try_from(o).unwrap_or(u32::MAX),
        }
    }
}

/// One thread's run.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Instances in sequenced-before order.
    pub events: Vec<Event>,
    /// The loads whose value nothing uses (indices into `events`, in
    /// order): single-thread behaviour leaves them out (`observe`).
    pub unused_loads: Vec<usize>,
    /// The observed values that are poison (`Expr::maybe_poison`): (index
    /// into `events`, argument) for a convergent operation's argument,
    /// (index, 0) for a stored value, in order. The event holds 0 there;
    /// `observe` compares them as LangRef asks (the target's value may be
    /// anything where the reference's is poison).
    pub poison: Vec<(usize, usize)>,
    /// Every oracle evaluation in order: (oracle, k, value).
    pub reads: Vec<(OracleId, u32, i64)>,
    /// Every free memory location read, in order: (name, value)
    /// (`memory`).
    pub memory: Vec<(String, i64)>,
    /// The reads of uniform oracles: (index in `reads`, where).
    pub uniform: Vec<(usize, ReadSite)>,
    /// When the run was cut by an iteration bound ([`Stop::Cut`]): the
    /// number of decisions made before the cut loop (or backwards `goto`)
    /// was entered. Every run that shares those first decisions enters the
    /// same loop execution.
    pub cut_since: Option<u32>,
    /// Where the run had undefined behaviour and stopped ([`Stop::Ub`]), if
    /// it did: a reference run with undefined behaviour constrains nothing,
    /// a target run with it where the reference is defined is a violation
    /// (`observe` adds it as the last observable event).
    pub ub: Option<String>,
    /// The highest end (`address + size`, unsigned) of the accesses
    /// through pointers of unknown origin the run checked against the end
    /// of memory [`UNKNOWN_END`], if any: the smallest end under which the
    /// run is defined. The explicit engine gives it to the target run as
    /// the scenario's end ([`Trace::values`]), so that it enumerates no
    /// value of the end (docs/src/semantics.md, "Out-of-bounds ...").
    pub reach: Option<u64>,
    /// Estimated bytes the run recorded (events with their keys, reads):
    /// keys grow with the depth of loop nests and with iterations of
    /// cycles at the CFG level, so the count of events alone
    /// underestimates long runs.
    pub bytes: u64,
    /// The value of every definition the run executed, in order, when the
    /// run was asked to record them ([`run_thread_recording`]; empty
    /// otherwise): what the uniformity oracle compares between threads.
    pub values: Vec<DefValue>,
}

/// One executed definition (CFG level): a local set by an instruction or a
/// phi, or the condition a terminator branches on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefValue {
    /// The key of the instruction execution: the block instance's key (or
    /// the token instance's, for a controlled instruction) plus the
    /// instruction's position. Two threads' executions are converged iff
    /// their keys are equal.
    pub key: Vec<Atom>,
    /// The block of the instruction.
    pub block: u32,
    /// The instruction's index in its block; the block's length for its
    /// terminator.
    pub inst: u32,
    /// The local defined, or `None` for a terminator's condition.
    pub name: Option<String>,
    /// The value (for a local of an `iN` LLVM value, only its low `N` bits
    /// are meaningful).
    pub value: i64,
}

/// Bytes of one unit of the memory budgets that count "recorded events".
pub const EVENT_UNIT_BYTES: u64 = 100;

impl Trace {
    /// The oracle values the run read, by name in evaluation order, and
    /// the value of every free memory location it read (`memory`): the
    /// run as one thread of a scenario.
    pub fn values(&self, module: &Module) -> crate::scenario::ThreadValues {
        let mut map: std::collections::BTreeMap<String, Vec<i64>> = Default::default();
        for &(o, _, v) in &self.reads {
            if let Some(info) = module.oracles.get(o) {
                map.entry(info.name.clone()).or_default().push(v);
            }
        }
        for (name, v) in &self.memory {
            map.insert(name.clone(), vec![*v]);
        }
        // The end of memory of pointers of unknown origin is the smallest
        // one under which the run is defined: its reach (0 when it
        // accessed nothing through them), whatever value it read.
        // (A run given another end, a target's, keeps it.)
        if module.oracles.iter().any(|o| o.name == UNKNOWN_END)
            && map.get(UNKNOWN_END).is_none_or(|v| v.first() == Some(&-1))
        {
            let end = self.reach.unwrap_or(0) as i64;
            map.insert(UNKNOWN_END.to_string(), vec![end]);
        }
        crate::scenario::ThreadValues(map)
    }

    /// The run's weight in units of the memory budget: its estimated bytes
    /// in [`EVENT_UNIT_BYTES`], and at least its number of events.
    pub fn weight(&self) -> usize {
        usize::try_from(self.bytes / EVENT_UNIT_BYTES)
            .unwrap_or(usize::MAX)
            .max(self.events.len())
    }
}

/// The code a [`Machine`] runs: a module's functions at some level.
pub trait Program {
    /// The module whose op and oracle tables name what the code does.
    fn module(&self) -> &Module;

    /// Runs one invocation of function `f` with `args`; `prefix` is the key
    /// of the call instance (empty for the kernel launch). Returns the
    /// function's value.
    fn call(
        &self,
        m: &mut Machine<'_>,
        f: FuncId,
        args: Vec<i64>,
        prefix: Vec<Atom>,
    ) -> Result<i64, Stop>;
}

/// Runs one thread of the group from `entry`.
pub fn run_thread(
    program: &dyn Program,
    entry: FuncId,
    tid: u32,
    group: u32,
    bounds: Bounds,
    source: &mut dyn OracleSource,
) -> (Trace, Result<(), Stop>) {
    run(program, entry, tid, group, bounds, source, false)
}

/// [`run_thread`], recording the value of every definition the entry
/// function executes in [`Trace::values`] (the CFG level's locals, phis and
/// branch conditions; calls into other functions record nothing).
pub fn run_thread_recording(
    program: &dyn Program,
    entry: FuncId,
    tid: u32,
    group: u32,
    bounds: Bounds,
    source: &mut dyn OracleSource,
) -> (Trace, Result<(), Stop>) {
    run(program, entry, tid, group, bounds, source, true)
}

fn run(
    program: &dyn Program,
    entry: FuncId,
    tid: u32,
    group: u32,
    bounds: Bounds,
    source: &mut dyn OracleSource,
    record_values: bool,
) -> (Trace, Result<(), Stop>) {
    let mut m = Machine {
        program,
        src: source,
        tid: i64::from(tid),
        group: i64::from(group),
        bounds,
        steps: 0,
        trace: Trace::default(),
        counts: HashMap::new(),
        invariants: HashMap::new(),
        seq: 0,
        decisions: 0,
        depth: 0,
        bytes: 0,
        sites: HashMap::new(),
        unused: Default::default(),
        assigning: Vec::new(),
        pending: HashMap::new(),
        record_values,
        memory: memory::Memory::default(),
        end_oracle: program
            .module()
            .oracles
            .iter()
            .position(|o| o.name == UNKNOWN_END),
    };
    let module = program.module();
    let mut args = Vec::new();
    let mut res = Ok(());
    if let Some(f) = module.functions.get(entry) {
        for &o in &f.param_oracles {
            // Parameters are read at the launch, where all threads are
            // converged: their site is the empty key.
            match m.read_at(o, &[], 0) {
                Ok(v) => args.push(v),
                Err(e) => {
                    res = Err(e);
                    break;
                }
            }
        }
    } else {
        res = Err(Stop::OutOfBounds(format!("internal: no function {entry}")));
    }
    if res.is_ok() {
        res = m.invoke(entry, args, Vec::new()).map(|_| ());
    }
    if let Err(Stop::Ub(why)) = res {
        m.trace.ub = Some(why);
        res = Ok(());
    }
    m.trace.bytes = m.bytes;
    m.trace.unused_loads = std::mem::take(&mut m.unused).into_iter().collect();
    (m.trace, res)
}

/// The oracle that is the end of the memory pointers of unknown origin
/// (parameters, loaded pointers, call results) may access: the LLVM
/// mapping checks each such access as `address + size ule end`
/// (`convcheck-llvm`'s `to_ir/bounds.rs`). Every engine reads it as an
/// oracle of the scenario, uniform and invariant; the explicit engine
/// does not enumerate it: the reference reads its domain's one value
/// (`u64::MAX`, the analysis's [`crate::scenario::domains`]), the machine
/// records the reference's highest such end ([`Trace::reach`]), and the
/// target reads that as the scenario's end, which leaves the target
/// undefined exactly where some value of the end defines the reference
/// and not the target (the end is compared with nothing else).
pub const UNKNOWN_END: &str = "unknown-object.end";

/// A function invocation's local variables.
pub type Vars = HashMap<String, i64>;

/// The state of one running thread, shared by every level.
pub struct Machine<'p> {
    program: &'p dyn Program,
    src: &'p mut dyn OracleSource,
    tid: i64,
    group: i64,
    /// The bounds of the run.
    pub bounds: Bounds,
    steps: u64,
    trace: Trace,
    counts: HashMap<OracleId, u32>,
    invariants: HashMap<OracleId, i64>,
    seq: u32,
    /// Oracle reads with more than one possible value so far: a bound
    /// reached with the same count as when the loop started is reached
    /// whatever the oracles (an out-of-bounds program, not a cut path).
    pub decisions: u32,
    depth: u32,
    /// Estimated bytes recorded so far (see [`MAX_TRACE_BYTES`]).
    bytes: u64,
    /// Occurrences of uniform read sites so far.
    sites: HashMap<(Vec<Atom>, usize), u32>,
    /// Loads whose value the run has not used (yet): event indices.
    unused: std::collections::BTreeSet<usize>,
    /// The loads evaluated into the value being assigned, innermost last.
    assigning: Vec<Vec<usize>>,
    /// Per local (call depth, name), the loads its value came from, until
    /// it is read.
    pending: HashMap<(u32, String), Vec<usize>>,
    /// Whether definitions of the entry function are recorded
    /// ([`Trace::values`]).
    record_values: bool,
    /// Private bytes, the phase's own writes, free locations read.
    memory: memory::Memory,
    /// The module's [`UNKNOWN_END`] oracle, if it has one.
    end_oracle: Option<OracleId>,
}

/// Estimated bytes of one recorded event with a key of `atoms` atoms.
fn event_bytes(atoms: usize) -> u64 {
    (std::mem::size_of::<Event>() + atoms * std::mem::size_of::<Atom>()) as u64
}

impl<'p> Machine<'p> {
    /// The module being run.
    pub fn module(&self) -> &'p Module {
        self.program.module()
    }

    /// Calls a function at the level being run, counting call depth.
    pub fn invoke(&mut self, f: FuncId, args: Vec<i64>, prefix: Vec<Atom>) -> Result<i64, Stop> {
        self.depth += 1;
        if self.depth > self.bounds.max_depth {
            return Err(Stop::OutOfBounds(format!(
                "call depth exceeds max-depth={}",
                self.bounds.max_depth
            )));
        }
        let program = self.program;
        let v = program.call(self, f, args, prefix)?;
        self.depth -= 1;
        Ok(v)
    }

    /// Counts one step against the fuel (and checks the memory cap).
    pub fn step(&mut self) -> Result<(), Stop> {
        self.charge(0)?;
        self.steps += 1;
        if self.steps > self.bounds.fuel {
            return Err(Stop::OutOfBounds(format!(
                "fuel exhausted: more than {} steps",
                self.bounds.fuel
            )));
        }
        Ok(())
    }

    /// A fresh choice variable's sequence number.
    pub fn fresh_choice(&mut self) -> u32 {
        self.seq += 1;
        self.seq
    }

    /// Counts `bytes` more recorded bytes against [`MAX_TRACE_BYTES`].
    fn charge(&mut self, bytes: u64) -> Result<(), Stop> {
        self.bytes += bytes;
        if self.bytes > MAX_TRACE_BYTES {
            return Err(Stop::OutOfBounds(format!(
                "the run's trace exceeds the memory cap of {} MiB per thread ({} instances recorded); \
                 lower the fuel or bound the loop",
                MAX_TRACE_BYTES >> 20,
                self.trace.events.len()
            )));
        }
        Ok(())
    }

    /// Records a non-instance event (a block instance at the CFG level).
    /// Recording counts against [`MAX_TRACE_BYTES`], checked at the next
    /// step.
    pub fn push_event(&mut self, e: Event) {
        self.bytes += event_bytes(e.key.0.len());
        self.trace.events.push(e);
    }

    /// The stop of a run cut by an iteration bound (`what` says which):
    /// `since` is the number of decisions made before the loop execution
    /// was entered; if the run made no decision at all, the bound is
    /// reached whatever the oracles and the run is out of bounds instead.
    pub fn cut(&mut self, what: String, since: u32) -> Stop {
        // With no decision at all, every run reaches the bound. With
        // decisions made only before the loop was entered (a loop bound
        // from a kernel parameter, `i < n`), the run is cut by those
        // values: path enumeration (`paths::explore`) then tells a loop
        // bound whose larger values are outside the bounds from a
        // fixed-count loop behind a guard, which leaves behaviour
        // unexamined.
        if self.decisions == 0 {
            Stop::OutOfBounds(format!("{what} whatever its oracles"))
        } else {
            self.trace.cut_since = Some(since);
            Stop::Cut(what)
        }
    }

    /// Reads oracle `o` outside any expression (its site is the empty
    /// key): the next value of a varying or uniform oracle, the one value
    /// of an invariant or uniform-invariant oracle.
    pub fn read(&mut self, o: OracleId) -> Result<i64, Stop> {
        self.read_at(o, &[], 0)
    }

    /// Reads oracle `o` for expression `expr` (an identity of the
    /// expression node) in an instruction execution keyed `base`.
    pub fn read_at(&mut self, o: OracleId, base: &[Atom], expr: usize) -> Result<i64, Stop> {
        let module = self.module();
        let Some(info) = module.oracles.get(o) else {
            return Err(Stop::OutOfBounds(format!("internal: no oracle {o}")));
        };
        if info.class.is_invariant() {
            if let Some(v) = self.invariants.get(&o) {
                return Ok(*v);
            }
        }
        let k = *self.counts.get(&o).unwrap_or(&0);
        let v = self.src.value(module, o, k)?;
        self.counts.insert(o, k + 1);
        if info.class.is_invariant() {
            self.invariants.insert(o, v);
        }
        if self.src.decided(module, o, k) {
            self.decisions += 1;
        }
        self.charge(16)?;
        if info.class == OracleClass::Uniform {
            let n = self.sites.entry((base.to_vec(), expr)).or_insert(0);
            let site = ReadSite {
                key: base.to_vec(),
                expr,
                occurrence: *n,
            };
            *n += 1;
            self.charge(event_bytes(base.len()))?;
            self.trace.uniform.push((self.trace.reads.len(), site));
        }
        if info.class == OracleClass::UniformInvariant {
            // One value for the whole run in every thread: the first (and
            // only asked) read has a site of its own that every thread
            // shares, whatever instance it happens in.
            self.charge(event_bytes(0))?;
            self.trace
                .uniform
                .push((self.trace.reads.len(), ReadSite::whole_run(o)));
        }
        self.trace.reads.push((o, k, v));
        Ok(v)
    }

    /// Whether oracle `o` is a function of its reading call's arguments
    /// ([`OracleClass::Function`]).
    fn is_function(&self, o: OracleId) -> bool {
        self.module()
            .oracles
            .get(o)
            .is_some_and(|i| i.class == OracleClass::Function)
    }

    /// Records an instance of `sid` whose key is `base` plus `sid` (counted
    /// against [`MAX_TRACE_BYTES`], checked at the next step).
    pub fn record(&mut self, base: &[Atom], sid: OpId, kind: EventKind) -> Key {
        self.bytes += event_bytes(base.len() + 1);
        let mut atoms = base.to_vec();
        atoms.push(Atom::Sid(sid));
        let key = Key(atoms);
        self.trace.events.push(Event {
            sid,
            kind,
            key: key.clone(),
        });
        key
    }

    /// Whether an observed value whose definedness is `defined`
    /// (`Expr::observed`) is poison.
    pub(super) fn poison_at(
        &mut self,
        vars: &mut Vars,
        base: &[Atom],
        defined: Option<&Expr>,
    ) -> Result<bool, Stop> {
        match defined {
            None => Ok(false),
            Some(d) => Ok(self.eval(vars, base, d, true)? == 0),
        }
    }

    /// A local is read: the loads its value came from are used.
    pub fn read_local(&mut self, name: &str) {
        // Most runs hold no pending load: no key to build.
        if self.pending.is_empty() {
            return;
        }
        if let Some(loads) = self.pending.remove(&(self.depth, name.to_string())) {
            for l in loads {
                self.unused.remove(&l);
            }
        }
    }

    /// A value to be assigned to a local is about to be evaluated.
    pub fn assign_begin(&mut self) {
        self.assigning.push(Vec::new());
    }

    /// The value evaluated since [`Self::assign_begin`] goes to `name`: the
    /// loads it came from are used when `name` is read (what `name` held
    /// before is gone).
    pub fn assign_end(&mut self, name: &str) {
        let loads = self.assigning.pop().unwrap_or_default();
        self.assign_loads(name, loads);
    }

    /// Ends [`Self::assign_begin`] without assigning: the loads evaluated.
    pub fn assigning_take(&mut self) -> Vec<usize> {
        self.assigning.pop().unwrap_or_default()
    }

    /// `name` now holds a value that came from `loads` (phis assign after
    /// all of a block's phis are read).
    pub fn assign_loads(&mut self, name: &str, loads: Vec<usize>) {
        if loads.is_empty() {
            // What `name` held before is gone; nothing to record.
            if !self.pending.is_empty() {
                self.pending.remove(&(self.depth, name.to_string()));
            }
            return;
        }
        self.pending.insert((self.depth, name.to_string()), loads);
    }

    /// Evaluates `e` in an instruction execution whose key is `base`; calls
    /// and memory accesses inside it are recorded as instances keyed by
    /// `base` plus their own op. `want` says whether the value is used: a
    /// load or a call whose value is not used reads no oracle.
    pub fn eval(
        &mut self,
        vars: &mut Vars,
        base: &[Atom],
        e: &Expr,
        want: bool,
    ) -> Result<i64, Stop> {
        Ok(match e {
            Expr::Const(v) => *v,
            Expr::Tid => self.tid,
            Expr::GroupSize => self.group,
            Expr::Var(n) => {
                self.read_local(n);
                *vars.get(n).unwrap_or(&0)
            }
            Expr::Oracle(o) => self.read_at(*o, base, site(e))?,
            Expr::Unary(op, a) => unary(*op, self.eval(vars, base, a, true)?),
            Expr::Binary(BinOp::And, a, b) => {
                let x = self.eval(vars, base, a, true)?;
                i64::from(x != 0 && self.eval(vars, base, b, true)? != 0)
            }
            Expr::Binary(BinOp::Or, a, b) => {
                let x = self.eval(vars, base, a, true)?;
                i64::from(x != 0 || self.eval(vars, base, b, true)? != 0)
            }
            Expr::Binary(BinOp::ULe, a, b)
                if self.end_oracle.is_some()
                    && matches!(**b, Expr::Oracle(o) if Some(o) == self.end_oracle) =>
            {
                // An access through a pointer of unknown origin checked
                // against the end of memory: its reach is recorded.
                let x = self.eval(vars, base, a, true)?;
                self.trace.reach = Some(self.trace.reach.map_or(x as u64, |r| r.max(x as u64)));
                let y = self.eval(vars, base, b, true)?;
                binary(BinOp::ULe, x, y)
            }
            Expr::Binary(op, a, b) => {
                let x = self.eval(vars, base, a, true)?;
                let y = self.eval(vars, base, b, true)?;
                binary(*op, x, y)
            }
            Expr::Select(c, a, b) => {
                if self.eval(vars, base, c, true)? != 0 {
                    self.eval(vars, base, a, want)?
                } else {
                    self.eval(vars, base, b, want)?
                }
            }
            Expr::Load {
                op,
                space,
                index,
                value,
                access,
            } => self.eval_load(vars, base, e, (*op, *space, index, *value, *access), want)?,
            Expr::Store {
                op,
                space,
                index,
                value,
                access,
            } => self.eval_store(vars, base, (*op, *space, index, value, *access))?,
            Expr::Assign { var, op, value } => {
                if *op != crate::expr::AssignOp::Set {
                    self.read_local(var);
                }
                self.assign_begin();
                let v = self.eval(vars, base, value, true);
                self.assign_end(var);
                let v = v?;
                let old = *vars.get(var).unwrap_or(&0);
                let new = assign(*op, old, v);
                vars.insert(var.clone(), new);
                new
            }
            Expr::Call { op, kind, args, .. } => match *kind {
                CallKind::Oracle(o) => self.read_at(o, base, site(e))?,
                CallKind::Real(f) => {
                    let mut vals = Vec::new();
                    for a in args {
                        vals.push(self.eval(vars, base, a, true)?);
                    }
                    let key = self.record(base, *op, EventKind::Call(f));
                    self.invoke(f, vals, key.0)?
                }
                CallKind::Op(o) => {
                    // A convergent operation's arguments are observed: their
                    // values are part of the event, with their definedness
                    // (`Expr::maybe_poison`).
                    let mut vals = Vec::with_capacity(args.len());
                    let mut poison = Vec::new();
                    for (i, a) in args.iter().enumerate() {
                        let (defined, a) = a.observed();
                        let v = self.eval(vars, base, a, true)?;
                        if self.poison_at(vars, base, defined)? {
                            poison.push((self.trace.events.len(), i));
                            vals.push(0);
                        } else {
                            vals.push(v);
                        }
                    }
                    self.record(base, *op, EventKind::Op { args: vals });
                    self.trace.poison.extend(poison);
                    if want {
                        self.read_at(o, base, site(e))?
                    } else {
                        0
                    }
                }
                CallKind::Plain(o) if self.is_function(o) => {
                    // One value per argument list within the thread: the
                    // free value named after the oracle and the arguments.
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args {
                        vals.push(self.eval(vars, base, a, true)?);
                    }
                    let name = memory::function_value_name(&self.module().oracles[o].name, &vals);
                    self.free_location(name, Some(o))?
                }
                CallKind::Plain(o) => {
                    for a in args {
                        self.eval(vars, base, a, false)?;
                    }
                    if want {
                        self.read_at(o, base, site(e))?
                    } else {
                        0
                    }
                }
                CallKind::Barrier(b, result) => {
                    let mut predicate = None;
                    for a in args {
                        let v = self.eval(vars, base, a, b != BarrierKind::Plain)?;
                        if b != BarrierKind::Plain {
                            predicate = Some(v);
                        }
                    }
                    let kind = EventKind::Barrier { kind: b, predicate };
                    self.record(base, *op, kind);
                    self.memory.barrier();
                    match (want, result) {
                        (true, Some(o)) if b != BarrierKind::Plain => {
                            self.read_at(o, base, site(e))?
                        }
                        _ => 0,
                    }
                }
                CallKind::Fence => {
                    self.record(base, *op, EventKind::Fence);
                    0
                }
            },
        })
    }

    /// The trace so far.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Records a definition's value when the run records them and the
    /// definition is in the entry function's invocation (call depth 1).
    pub fn record_value(&mut self, key: &[Atom], at: (u32, u32), name: Option<&str>, value: i64) {
        if !self.record_values || self.depth != 1 {
            return;
        }
        self.bytes += event_bytes(key.len());
        self.trace.values.push(DefValue {
            key: key.to_vec(),
            block: at.0,
            inst: at.1,
            name: name.map(str::to_string),
            value,
        });
    }
}

/// The identity of an expression node as a read site: its address in the
/// running program, which does not move while the program is borrowed.
/// Sites are only compared for equality between runs of one program.
fn site(e: &Expr) -> usize {
    e as *const Expr as usize
}

/// Runs every thread of a scenario with a fuel bound (no iteration bound:
/// the scenario's values decide how long loops run). Returns each thread's
/// trace, or the first thread that exceeded a bound and why.
pub fn run_scenario(
    program: &dyn Program,
    entry: FuncId,
    scenario: &crate::scenario::Scenario,
    fuel: u64,
) -> Result<Vec<Trace>, (u32, String)> {
    let bounds = Bounds {
        max_iters: u32::MAX,
        fuel,
        ..Bounds::default()
    };
    let group = scenario.threads.len() as u32;
    let mut traces = Vec::new();
    let mut total = 0u64;
    for (t, values) in scenario.threads.iter().enumerate() {
        let mut src = crate::scenario::ValuesSource(values);
        let (trace, res) = run_thread(program, entry, t as u32, group, bounds, &mut src);
        total += trace
            .events
            .iter()
            .map(|e| event_bytes(e.key.0.len()))
            .sum::<u64>();
        if total > MAX_SCENARIO_BYTES {
            return Err((
                t as u32,
                format!(
                    "the runs' traces exceed the memory cap of {} MiB for one scenario; lower the fuel",
                    MAX_SCENARIO_BYTES >> 20
                ),
            ));
        }
        match res {
            Ok(()) => traces.push(trace),
            Err(Stop::Cut(why) | Stop::OutOfBounds(why) | Stop::Ub(why)) => {
                return Err((t as u32, why))
            }
            Err(Stop::Need { .. }) => {
                return Err((t as u32, "internal: a value source ran dry".into()))
            }
        }
    }
    Ok(traces)
}
