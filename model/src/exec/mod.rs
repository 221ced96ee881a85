//! Per-thread execution (DESIGN.md 2.2) and the source-level key rules
//! (DESIGN.md 2.3, 2.4).
//!
//! A thread runs deterministically from its oracle values: [`run_thread`]
//! takes an [`OracleSource`] and returns the thread's [`Trace`], the sequence
//! of its dynamic instances in sequenced-before order, each with its
//! convergence [`Key`]. Nothing here looks at other threads: convergence of
//! two instances is decided afterwards from their keys alone, which is what
//! lets [`crate::paths`] enumerate per-thread paths once and compare them
//! pairwise.
//!
//! Keys are built from the key scopes of the executing instruction
//! ([`compile`]): entering a reducible loop pushes iteration 0, its latch
//! increments it; entering a member of an implementation-defined region
//! (or restarting it by a `goto` to its label) pushes a fresh choice variable.
//! A real call keys the callee's instances under the call instance's key
//! (seed 000, Function body: threads converged at a convergent call are
//! converged at the start of the callee; distinct calls never are).
//!
//! Bounds: `fuel` (instructions per thread), `max_depth` (calls) and, when
//! enumerating, `max_iters` (iterations of one loop execution, or executions
//! of one backwards `goto` in one invocation). A run that hits a bound stops
//! with a named reason; it is never cut silently.

pub mod cfg;
pub mod compile;

use crate::key::{Atom, Key};
use crate::sema::{BarrierKind, CallKind, FuncId, Kernel, OracleId, Scope};
use crate::syntax::ast::*;
use compile::{Instr, Op};
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
    /// function.
    Op,
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
        /// The index.
        addr: i64,
    },
}

/// One dynamic instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    /// Its static statement or expression.
    pub sid: StmtId,
    /// What it is.
    pub kind: EventKind,
    /// Its convergence key.
    pub key: Key,
}

impl Event {
    /// Whether the instance is a convergent operation (shown in trace
    /// tables, compared by the checker): an observation point, a
    /// convergent call, a real call or a barrier.
    pub fn is_convergent_op(&self) -> bool {
        matches!(
            self.kind,
            EventKind::Op | EventKind::Call(_) | EventKind::Barrier { .. }
        )
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
    fn value(&mut self, kernel: &Kernel, oracle: OracleId, k: u32) -> Result<i64, Stop>;
}

/// One thread's run.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Instances in sequenced-before order.
    pub events: Vec<Event>,
    /// Every oracle evaluation in order: (oracle, k, value).
    pub reads: Vec<(OracleId, u32, i64)>,
}

/// Runs one thread of the group from `entry`: at the source level when
/// `program` is `None`, else on the CFGs of `program`.
pub fn run_thread(
    kernel: &Kernel,
    program: Option<&cfg::CfgProgram>,
    entry: FuncId,
    tid: u32,
    group: u32,
    bounds: Bounds,
    source: &mut dyn OracleSource,
) -> (Trace, Result<(), Stop>) {
    let mut m = Machine {
        k: kernel,
        cfg: program,
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
    };
    let f = &kernel.functions[entry];
    let mut args = Vec::new();
    let mut res = Ok(());
    for &o in &f.param_oracles {
        match m.read(o) {
            Ok(v) => args.push(v),
            Err(e) => {
                res = Err(e);
                break;
            }
        }
    }
    if res.is_ok() {
        res = m.invoke(entry, args, Vec::new()).map(|_| ());
    }
    (m.trace, res)
}

/// A function invocation's local variables.
pub(crate) type Vars = HashMap<String, i64>;

struct Frame {
    scopes: Vec<(Scope, Atom, u32)>,
    vars: Vars,
    gotos: HashMap<usize, (u32, u32)>,
    prefix: Vec<Atom>,
}

struct Machine<'k, 's> {
    k: &'k Kernel,
    cfg: Option<&'k cfg::CfgProgram>,
    src: &'s mut dyn OracleSource,
    tid: i64,
    group: i64,
    bounds: Bounds,
    steps: u64,
    trace: Trace,
    counts: HashMap<OracleId, u32>,
    invariants: HashMap<OracleId, i64>,
    seq: u32,
    decisions: u32,
    depth: u32,
}

impl Machine<'_, '_> {
    /// Calls a function at the level being run.
    fn invoke(&mut self, f: FuncId, args: Vec<i64>, prefix: Vec<Atom>) -> Result<i64, Stop> {
        if self.cfg.is_some() {
            self.call_cfg(f, args, prefix)
        } else {
            self.call(f, args, prefix)
        }
    }

    fn read(&mut self, o: OracleId) -> Result<i64, Stop> {
        let info = &self.k.oracles[o];
        if info.class == OracleClass::Invariant {
            if let Some(v) = self.invariants.get(&o) {
                return Ok(*v);
            }
        }
        let k = *self.counts.get(&o).unwrap_or(&0);
        let v = self.src.value(self.k, o, k)?;
        self.counts.insert(o, k + 1);
        if info.class == OracleClass::Invariant {
            self.invariants.insert(o, v);
        }
        if info.domain.len() > 1 {
            self.decisions += 1;
        }
        self.trace.reads.push((o, k, v));
        Ok(v)
    }

    /// The key of the current statement execution, without its own atom:
    /// the invocation key, then one atom per key scope.
    fn base(frame: &Frame) -> Vec<Atom> {
        let mut atoms = frame.prefix.clone();
        atoms.extend(
            frame
                .scopes
                .iter()
                .filter(|s| !matches!(s.0, Scope::Irreducible(_)))
                .map(|s| s.1),
        );
        atoms
    }

    /// Records an instance of `sid` whose key is `base` plus `sid`.
    pub(crate) fn record(&mut self, base: &[Atom], sid: StmtId, kind: EventKind) -> Key {
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

    /// Moves into instruction `target`: leaves the scopes it is not in,
    /// enters those it is in (DESIGN.md 2.3, 2.4).
    fn enter(&mut self, frame: &mut Frame, code: &[Instr], target: usize, restart: Option<Scope>) {
        let Some(instr) = code.get(target) else {
            return;
        };
        let chain = &instr.chain;
        let mut common = frame
            .scopes
            .iter()
            .zip(chain.iter())
            .take_while(|(a, b)| a.0 == **b)
            .count();
        if let Some(r) = restart {
            if let Some(p) = chain.iter().position(|s| *s == r) {
                common = common.min(p);
            }
        }
        frame.scopes.truncate(common);
        for s in &chain[common..] {
            let atom = match *s {
                Scope::Loop(l) | Scope::Irreducible(l) => Atom::Iter { loop_id: l, n: 0 },
                Scope::Member(m) | Scope::Cond(m) => {
                    self.seq += 1;
                    Atom::Choice {
                        scope: m,
                        seq: self.seq,
                    }
                }
            };
            frame.scopes.push((*s, atom, self.decisions));
        }
    }

    fn line(&self, sid: StmtId) -> u32 {
        self.k.node(sid).span.start.line
    }

    fn call(&mut self, f: FuncId, args: Vec<i64>, prefix: Vec<Atom>) -> Result<i64, Stop> {
        self.depth += 1;
        if self.depth > self.bounds.max_depth {
            return Err(Stop::OutOfBounds(format!(
                "call depth exceeds max-depth={}",
                self.bounds.max_depth
            )));
        }
        let k = self.k;
        let func = &k.functions[f];
        let code = &func.code;
        let mut frame = Frame {
            scopes: Vec::new(),
            vars: func.params.iter().cloned().zip(args).collect(),
            gotos: HashMap::new(),
            prefix,
        };
        let mut pc = 0;
        self.enter(&mut frame, code, 0, None);
        loop {
            self.steps += 1;
            if self.steps > self.bounds.fuel {
                return Err(Stop::OutOfBounds(format!(
                    "fuel exhausted: more than {} steps",
                    self.bounds.fuel
                )));
            }
            let Some(instr) = code.get(pc) else {
                self.depth -= 1;
                return Ok(0);
            };
            let base = Self::base(&frame);
            if instr.event && !matches!(instr.op, Op::Observe) {
                self.record(&base, instr.sid, EventKind::Stmt);
            }
            let vars = &mut frame.vars;
            let mut restart = None;
            let next = match &instr.op {
                Op::Observe => {
                    self.record(&base, instr.sid, EventKind::Op);
                    pc + 1
                }
                Op::Nop => pc + 1,
                Op::Eval(e) => {
                    self.eval(vars, &base, e, false)?;
                    pc + 1
                }
                Op::SetLocal { name, value } => {
                    let v = match value {
                        Some(e) => self.eval(vars, &base, e, true)?,
                        None => 0,
                    };
                    vars.insert(name.clone(), v);
                    pc + 1
                }
                Op::Branch { cond, then, els } => {
                    let v = match cond {
                        Some(c) => self.eval(vars, &base, c, true)?,
                        None => 1,
                    };
                    if v != 0 {
                        *then
                    } else {
                        *els
                    }
                }
                Op::Switch {
                    value,
                    cases,
                    default,
                } => {
                    let v = self.eval(vars, &base, value, true)?;
                    cases
                        .iter()
                        .find(|(c, _)| *c == v)
                        .map(|(_, t)| *t)
                        .unwrap_or(*default)
                }
                Op::Jump {
                    target,
                    restart: r,
                    backward_goto,
                } => {
                    if *backward_goto {
                        let decisions = self.decisions;
                        let entry = frame.gotos.entry(pc).or_insert((0, decisions));
                        entry.0 += 1;
                        if entry.0 > self.bounds.max_iters {
                            let what = format!(
                                "the backwards goto at line {} runs more than max-iters={} times",
                                self.line(instr.sid),
                                self.bounds.max_iters
                            );
                            return Err(if entry.1 == decisions {
                                Stop::OutOfBounds(format!("{what} whatever its oracles"))
                            } else {
                                Stop::Cut(what)
                            });
                        }
                    }
                    restart = *r;
                    *target
                }
                Op::NextIter { loop_id, head } => {
                    let decisions = self.decisions;
                    let max = self.bounds.max_iters;
                    let line = self.line(*loop_id);
                    restart = Some(Scope::Cond(*loop_id));
                    let counted = |s: &Scope| {
                        *s == Scope::Loop(*loop_id) || *s == Scope::Irreducible(*loop_id)
                    };
                    if let Some(s) = frame.scopes.iter_mut().rev().find(|s| counted(&s.0)) {
                        if let Atom::Iter { n, .. } = &mut s.1 {
                            *n += 1;
                            if *n > max {
                                let what = format!(
                                    "the loop at line {line} starts iteration {} > max-iters={max}",
                                    *n
                                );
                                return Err(if s.2 == decisions {
                                    Stop::OutOfBounds(format!("{what} whatever its oracles"))
                                } else {
                                    Stop::Cut(what)
                                });
                            }
                        }
                    }
                    *head
                }
                Op::Return(e) => {
                    let v = match e {
                        Some(e) => self.eval(vars, &base, e, true)?,
                        None => 0,
                    };
                    self.depth -= 1;
                    return Ok(v);
                }
            };
            self.enter(&mut frame, code, next, restart);
            pc = next;
        }
    }

    /// Evaluates `e` in a statement execution whose key is `base`; calls
    /// and memory accesses inside it are recorded as instances keyed by
    /// `base` plus their own id.
    pub(crate) fn eval(
        &mut self,
        vars: &mut Vars,
        base: &[Atom],
        e: &Expr,
        want: bool,
    ) -> Result<i64, Stop> {
        Ok(match &e.kind {
            ExprKind::Int(v) => *v,
            ExprKind::Bool(b) => i64::from(*b),
            ExprKind::Tid => self.tid,
            ExprKind::GroupSize => self.group,
            ExprKind::Name(n) => match vars.get(n) {
                Some(v) => *v,
                None => match self.k.oracle_ids.get(n) {
                    Some(&o) => self.read(o)?,
                    None => 0,
                },
            },
            ExprKind::Dots => match self.k.dots.get(&e.span.start) {
                Some(&o) => self.read(o)?,
                None => 0,
            },
            ExprKind::Uniform(a) | ExprKind::Invariant(a) => self.eval(vars, base, a, want)?,
            ExprKind::Unary(op, a) => {
                let v = self.eval(vars, base, a, true)?;
                match op {
                    UnOp::Not => i64::from(v == 0),
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::BitNot => !v,
                }
            }
            ExprKind::Binary(BinOp::And, a, b) => {
                let x = self.eval(vars, base, a, true)?;
                i64::from(x != 0 && self.eval(vars, base, b, true)? != 0)
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                let x = self.eval(vars, base, a, true)?;
                i64::from(x != 0 || self.eval(vars, base, b, true)? != 0)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(vars, base, a, true)?;
                let y = self.eval(vars, base, b, true)?;
                binary(*op, x, y)
            }
            ExprKind::Cond(c, a, b) => {
                if self.eval(vars, base, c, true)? != 0 {
                    self.eval(vars, base, a, want)?
                } else {
                    self.eval(vars, base, b, want)?
                }
            }
            ExprKind::Load { space, index, id } => {
                let addr = self.eval(vars, base, index, true)?;
                let kind = EventKind::Mem {
                    space: *space,
                    write: false,
                    addr,
                };
                self.record(base, *id, kind);
                if want {
                    match self.k.oracle_ids.get(&self.k.node(*id).label) {
                        Some(&o) => self.read(o)?,
                        None => 0,
                    }
                } else {
                    0
                }
            }
            ExprKind::Assign { place, op, value } => {
                let v = self.eval(vars, base, value, true)?;
                match place {
                    Place::Var(name) => {
                        let old = *vars.get(name).unwrap_or(&0);
                        let new = assign(*op, old, v);
                        vars.insert(name.clone(), new);
                        new
                    }
                    Place::Mem { space, index, id } => {
                        let addr = self.eval(vars, base, index, true)?;
                        let kind = EventKind::Mem {
                            space: *space,
                            write: true,
                            addr,
                        };
                        self.record(base, *id, kind);
                        v
                    }
                }
            }
            ExprKind::Call { callee, args, id } => {
                let kind = self.k.calls.get(id).copied();
                match kind {
                    None => 0,
                    Some(CallKind::Oracle(o)) => self.read(o)?,
                    Some(CallKind::Real(f)) => {
                        let mut vals = Vec::new();
                        for a in args {
                            vals.push(self.eval(vars, base, a, true)?);
                        }
                        let key = self.record(base, *id, EventKind::Call(f));
                        self.invoke(f, vals, key.0)?
                    }
                    Some(CallKind::Op(o)) | Some(CallKind::Plain(o)) => {
                        for a in args {
                            self.eval(vars, base, a, false)?;
                        }
                        if matches!(kind, Some(CallKind::Op(_))) {
                            self.record(base, *id, EventKind::Op);
                        }
                        if want {
                            self.read(o)?
                        } else {
                            0
                        }
                    }
                    Some(CallKind::Barrier(b)) => {
                        let mut predicate = None;
                        for a in args {
                            let v = self.eval(vars, base, a, b != BarrierKind::Plain)?;
                            if b != BarrierKind::Plain {
                                predicate = Some(v);
                            }
                        }
                        let kind = EventKind::Barrier { kind: b, predicate };
                        self.record(base, *id, kind);
                        match (want, self.k.oracle_ids.get(callee)) {
                            (true, Some(&o)) if b != BarrierKind::Plain => self.read(o)?,
                            _ => 0,
                        }
                    }
                    Some(CallKind::Fence) => {
                        self.record(base, *id, EventKind::Fence);
                        0
                    }
                }
            }
        })
    }
}

/// The model's integer arithmetic on one binary operator: wrapping, with
/// division by zero defined as 0. Shared by execution and by passes that
/// fold constants, so both agree on every value.
pub fn binary(op: BinOp, x: i64, y: i64) -> i64 {
    match op {
        BinOp::Or => i64::from(x != 0 || y != 0),
        BinOp::And => i64::from(x != 0 && y != 0),
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        BinOp::BitAnd => x & y,
        BinOp::Eq => i64::from(x == y),
        BinOp::Ne => i64::from(x != y),
        BinOp::Lt => i64::from(x < y),
        BinOp::Le => i64::from(x <= y),
        BinOp::Gt => i64::from(x > y),
        BinOp::Ge => i64::from(x >= y),
        BinOp::Shl => x.wrapping_shl((y & 63) as u32),
        BinOp::Shr => x.wrapping_shr((y & 63) as u32),
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        // Division by zero is defined as 0 so that no input can trap the
        // model; kernels that divide by zero are outside its scope.
        BinOp::Div => x.checked_div(y).unwrap_or(0),
        BinOp::Rem => x.checked_rem(y).unwrap_or(0),
    }
}

fn assign(op: AssignOp, old: i64, v: i64) -> i64 {
    match op {
        AssignOp::Set => v,
        AssignOp::Add => old.wrapping_add(v),
        AssignOp::Sub => old.wrapping_sub(v),
        AssignOp::Mul => old.wrapping_mul(v),
    }
}

/// Runs every thread of a scenario with a fuel bound (no iteration bound:
/// the scenario's values decide how long loops run). Returns each thread's
/// trace, or the first thread that exceeded a bound and why.
pub fn run_scenario(
    kernel: &Kernel,
    program: Option<&cfg::CfgProgram>,
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
    for (t, values) in scenario.threads.iter().enumerate() {
        let mut src = crate::scenario::ValuesSource(values);
        let (trace, res) = run_thread(kernel, program, entry, t as u32, group, bounds, &mut src);
        match res {
            Ok(()) => traces.push(trace),
            Err(Stop::Cut(why)) | Err(Stop::OutOfBounds(why)) => return Err((t as u32, why)),
            Err(Stop::Need { .. }) => {
                return Err((t as u32, "internal: a value source ran dry".into()))
            }
        }
    }
    Ok(traces)
}
