//! Symbolic execution of one thread of one program over its unrolled CFG
//! (DESIGN.md 2.5, use 2): the guarded events, counters and exits that the
//! checking query ([`super::query`]) relates.
//!
//! **State.** At every point of the unrolled program a thread has a *path
//! condition* (the guard under which it is there), its locals as 64-bit
//! bit-vector terms, one evaluation counter per oracle name, and the
//! number of observable events so far (its *position*). Counters and
//! positions are bit-vectors of the width [`super::Globals::w`], wide
//! enough for every path. A state's values mean something only under its
//! guard, so effects advance counters unconditionally and merges choose by
//! guard: at a copy with several incoming edges every value is an
//! if-then-else over the edge guards (which exclude each other, a thread
//! taking one path), and lazy `&&`, `||` and `select` evaluate both arms
//! under their conditions and merge.
//!
//! **Values** follow `convcheck_ir::expr`: 64-bit wrapping arithmetic,
//! comparisons 1 or 0, division and remainder by zero 0 (and
//! `i64::MIN / -1` is 0, as `checked_div` makes it), shifts modulo 64. The
//! `k`-th evaluation of a varying or uniform oracle named `c` by thread `t`
//! is `V_c,t(k)` for an uninterpreted function `V_c,t` shared by the
//! reference and the target (oracles are matched by name); an invariant
//! oracle is `V_c,t(0)` at every evaluation, as the interpreter asks a
//! source once with `k = 0`. `tid` and `N` are the thread's id and the
//! group size, both bit-vectors.
//!
//! **Events.** Every convergent operation (observation point, convergent
//! call, barrier) and memory access is an event: its guard, its position,
//! a tag (the label, or the direction and space of an access; a
//! data-carrying barrier's tag differs from a plain one's), its values
//! (an access's address, a convergent operation's arguments) or
//! predicate, and its *site*: the copy, the instruction and the
//! op, plus the site of the enclosing call for an inlined callee. Sites
//! are numbered per program, the same numbers for both threads, so two
//! threads' instances are converged iff their sites are equal (see
//! [`super::unroll`]; the instruction and op complete the key as the
//! interpreter's `Inst` and `Sid` atoms do).
//!
//! **Exits.** An edge to a copy past the bound is a *cut* (the scenario is
//! outside the bounds); a phi without a value for the edge taken and a
//! branch to a block the CFG does not have are *stuck* (the interpreter
//! stops out of bounds there); `unreachable` is undefined behaviour (`ub`,
//! the interpreter's `Stop::Ub`). All are recorded with their guards and a
//! description, never dropped.
//!
//! Real calls are inlined: the callee's copies are executed under the
//! call's guard with the call's site as their invocation key. A call is no
//! event itself (DESIGN.md 2.7: its effects are), as in
//! `convcheck_ir::exec::observe`. Recursion
//! and tokens are refused before anything is built ([`super::support`]).

use super::bv::{c64, choose, nonzero, or_all};

mod eval;
mod event;
mod memory;
mod record;
mod state;
use super::unroll::{unroll, Target, Unrolled};
use super::Globals;
use crate::{Limit, Unknown};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{CallKind, Expr, FuncId, InstKind, Module, OpId, Space, Term};
pub(crate) use memory::FreeRead;
pub(crate) use record::Values;
use state::{merge, merge2, unreachable_state, State};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::time::Instant;
use z3::ast::{Ast, Bool, BV};

/// What an observable event is, as single-thread behaviour compares it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Tag {
    /// A convergent operation without a predicate, by label.
    Label(String),
    /// A convergent operation with arguments, by label and their number;
    /// the arguments' values are compared too.
    Args(String, usize),
    /// A data-carrying barrier, by label; its predicate is compared too.
    DataBarrier(String),
    /// A memory access: space, direction and access (element or bytes,
    /// volatile); its address (and a byte store's value) is compared too.
    Mem(Space, bool, convcheck_ir::Access),
    /// A convergent operation that accesses no memory, by label and the
    /// number of its arguments (never equal to a [`Tag::Args`]).
    OpNoMemory(String, usize),
}

/// Interned tags and labels, shared by both programs.
#[derive(Default)]
pub(crate) struct Tags {
    index: HashMap<Tag, u32>,
    pub list: Vec<Tag>,
}

impl Tags {
    pub fn id(&mut self, t: Tag) -> u32 {
        if let Some(&i) = self.index.get(&t) {
            return i;
        }
        let i = self.list.len() as u32;
        self.index.insert(t.clone(), i);
        self.list.push(t);
        i
    }
}

/// One observable event of a symbolic run.
#[derive(Clone, Debug)]
pub(crate) struct Ev {
    pub guard: Bool,
    pub pos: BV,
    /// The position among the visible events (`event`), `None` for a
    /// hidden one.
    pub vpos: Option<BV>,
    pub tag: u32,
    /// The label's id (as a [`Tag::Label`]) for convergent operations.
    pub label: u32,
    /// The values the event carries: an access's address, a convergent
    /// operation's arguments.
    pub vals: Vec<BV>,
    /// The values of `vals` that may be poison, with where they are
    /// defined (`convcheck_ir::Expr::maybe_poison`; a poison value is 0):
    /// the target's may differ only where the reference's is poison.
    pub defined: Vec<(usize, Bool)>,
    pub pred: Option<Bool>,
    pub site: u32,
    pub convergent: bool,
    /// For a plain store (`convcheck_ir::exec::observe::plain_store`):
    /// its segment (synchronisation points before it) and width. Such a
    /// store is hidden (`vpos` is `None`): the visible comparison compares
    /// the bytes each segment leaves (`super::query`).
    pub seg: Option<(BV, u32)>,
}

impl Ev {
    /// Where value `i` is defined: `None` where it cannot be poison.
    pub fn defined_at(&self, i: usize) -> Option<&Bool> {
        self.defined.iter().find(|(j, _)| *j == i).map(|(_, d)| d)
    }
}

/// One thread's symbolic run of one program.
pub(crate) struct Run {
    pub events: Vec<Ev>,
    /// The number of observable events at the exit (of the first
    /// projection, where there are two).
    pub len: BV,
    /// Where there are two projections ([`super::Globals::second`]): the
    /// position after the second's last event at the exit.
    pub len2: Option<BV>,
    /// [`Run::len`] and [`Run::len2`] counting visible events only
    /// (`event`).
    pub vlen: BV,
    pub vlen2: Option<BV>,
    /// Edges past the bound, with a description.
    pub cut: Vec<(Bool, String)>,
    /// Where the run stops out of bounds, with a description.
    pub stuck: Vec<(Bool, String)>,
    /// Where the run has undefined behaviour (`unreachable`) and stops,
    /// with a description (DESIGN.md 2.7: a reference run with it
    /// constrains nothing, a target run with it where the reference is
    /// defined is a violation).
    pub ub: Vec<(Bool, String)>,
    /// The comparisons of an address with the end of memory of pointers
    /// of unknown origin (`convcheck_ir::exec::UNKNOWN_END`): (guard where
    /// it is reached, `address + size`, the end). The run goes on as if
    /// each held (an end of `u64::MAX`); the query states where one fails
    /// (`query::build`: `ref_defined`, `tgt_ub`).
    pub reach: Vec<(Bool, BV, BV)>,
    /// Reads of uniform oracles: (read site, name, guard, value).
    pub uniform: Vec<(u32, usize, Bool, BV)>,
    /// Final evaluation counter of every oracle name.
    pub counts: Vec<BV>,
    /// Reads of invariant oracles: (name, guard).
    pub invariant: Vec<(usize, Bool)>,
    /// Definitions of the names given to merged values (`name = term`),
    /// to be asserted.
    pub defs: Vec<Bool>,
    /// The values of definitions and the operands of reads, when the run
    /// was asked to record them ([`Exec::recording`]); empty otherwise.
    pub values: Values,
    /// Reads of free memory locations (`memory`).
    pub free_reads: Vec<FreeRead>,
    /// Reads of function oracles (`convcheck_ir::OracleClass::Function`):
    /// (guard, oracle name, arguments, value).
    pub fn_reads: Vec<FnRead>,
}

/// A function oracle's read: (guard, oracle name, arguments, value).
pub(crate) type FnRead = (Bool, String, Vec<BV>, BV);

/// A program being encoded: its unrolled functions and site numbering,
/// shared by both threads.
pub(crate) struct Prog<'a> {
    pub program: &'a CfgProgram,
    pub bound: u32,
    pub max_nodes: usize,
    /// Oracle id to name index.
    pub name_of: Vec<usize>,
    unrolled: HashMap<FuncId, Rc<Unrolled>>,
    sites: HashMap<(Option<u32>, FuncId, Where, u32, OpId), u32>,
    /// The op of every site.
    pub site_ops: Vec<OpId>,
    read_sites: HashMap<(Option<u32>, FuncId, Where, u32, u32), u32>,
    def_sites: HashMap<(Option<u32>, FuncId, Where, u32), u32>,
    /// Block copies executed, over both threads and all inlined calls.
    pub copies: usize,
    /// When the encoding must stop (the engine's time budget): checked at
    /// every block copy, so that building a large formula does not run
    /// past the budget before z3 is even asked.
    pub deadline: Option<Instant>,
    /// Plain barriers are hidden events (`event`): the module's barriers
    /// are judged by the hazards they leave
    /// (`convcheck_ir::exec::observe::barriers_by_hazards`).
    pub hide_plain_barriers: bool,
}

impl<'a> Prog<'a> {
    pub fn new(
        program: &'a CfgProgram,
        bound: u32,
        max_nodes: usize,
        name_of: Vec<usize>,
    ) -> Prog<'a> {
        Prog {
            program,
            bound,
            max_nodes,
            name_of,
            unrolled: HashMap::new(),
            sites: HashMap::new(),
            site_ops: Vec::new(),
            read_sites: HashMap::new(),
            def_sites: HashMap::new(),
            copies: 0,
            deadline: None,
            hide_plain_barriers: convcheck_ir::exec::observe::barriers_by_hazards(&program.module),
        }
    }

    pub fn module(&self) -> &'a Module {
        &self.program.module
    }

    fn unrolled(&mut self, f: FuncId) -> Result<Rc<Unrolled>, Unknown> {
        if let Some(u) = self.unrolled.get(&f) {
            return Ok(u.clone());
        }
        let (Some(cfg), Some(ci)) = (
            self.program.module.functions.get(f),
            self.program.cycles.get(f),
        ) else {
            return Err(Unknown::incomplete(format!("internal: no function {f}")));
        };
        let u = Rc::new(unroll(cfg, ci, self.bound, self.max_nodes)?);
        self.unrolled.insert(f, u.clone());
        Ok(u)
    }

    fn site(&mut self, at: At, op: OpId) -> u32 {
        let key = (at.ctx, at.func, at.node, at.inst, op);
        if let Some(&s) = self.sites.get(&key) {
            return s;
        }
        let s = self.site_ops.len() as u32;
        self.sites.insert(key, s);
        self.site_ops.push(op);
        s
    }

    fn read_site(&mut self, at: At, position: u32) -> u32 {
        let key = (at.ctx, at.func, at.node, at.inst, position);
        let n = self.read_sites.len() as u32;
        *self.read_sites.entry(key).or_insert(n)
    }

    fn def_site(&mut self, at: At) -> u32 {
        let key = (at.ctx, at.func, at.node, at.inst);
        let n = self.def_sites.len() as u32;
        *self.def_sites.entry(key).or_insert(n)
    }

    /// The number of sites so far.
    pub fn site_count(&self) -> usize {
        self.site_ops.len()
    }

    /// An upper bound on the events and oracle reads of one run of `f`
    /// (every copy counted once, callees inlined): counters never exceed
    /// it. Also unrolls every function reachable from `f`, so that a bound
    /// too large for the budget is found before anything is encoded.
    pub fn path_bound(
        &mut self,
        f: FuncId,
        memo: &mut HashMap<FuncId, u64>,
    ) -> Result<u64, Unknown> {
        if let Some(&b) = memo.get(&f) {
            return Ok(b);
        }
        let un = self.unrolled(f)?;
        let cfg = &self.program.module.functions[f];
        let mut per_block: HashMap<usize, u64> = HashMap::new();
        let mut total: u64 = cfg.params.len() as u64;
        for node in &un.nodes {
            let w = match per_block.get(&node.block) {
                Some(&w) => w,
                None => {
                    let block = &cfg.blocks[node.block];
                    let mut w = block.insts.len() as u64 + 1;
                    let mut callees = Vec::new();
                    for e in block.exprs() {
                        e.walk(&mut |x| {
                            w += 1;
                            if let Expr::Call {
                                kind: CallKind::Real(g),
                                ..
                            } = x
                            {
                                callees.push(*g);
                            }
                        });
                    }
                    for g in callees {
                        w = w.saturating_add(self.path_bound(g, memo)?);
                    }
                    per_block.insert(node.block, w);
                    w
                }
            };
            total = total.saturating_add(w);
        }
        memo.insert(f, total);
        Ok(total)
    }
}

/// Where an instruction executes: the invocation (the site of its call),
/// the function, the copy and the instruction's index.
#[derive(Clone, Copy, Debug)]
struct At {
    ctx: Option<u32>,
    func: FuncId,
    /// The dynamic instance's identity within the invocation: `(0, mc,
    /// block)` for an uncontrolled instruction (its maximal-convergence
    /// copy, [`super::unroll::Node::mc`]), `(1, instance, block)` for one
    /// controlled by a token instance ([`super::tokens`]).
    node: Where,
    inst: u32,
}

/// See [`At::node`].
type Where = (u8, u32, usize);

/// The identity of instruction `i` of copy `n` (see [`At::node`]).
fn where_of(un: &Unrolled, n: usize, i: usize) -> Where {
    let node = &un.nodes[n];
    match node.controlled.get(i).copied().flatten() {
        Some(t) => (1, t, node.block),
        None => (0, node.mc, node.block),
    }
}

/// Executes one thread of one program.
pub(crate) struct Exec<'p, 'a> {
    pub g: &'p Globals,
    pub tags: &'p mut Tags,
    pub prog: &'p mut Prog<'a>,
    pub thread: usize,
    /// Whether this is the reference (whose uniform reads constrain the
    /// scenario).
    pub reference: bool,
    events: Vec<Ev>,
    cut: Vec<(Bool, String)>,
    stuck: Vec<(Bool, String)>,
    ub: Vec<(Bool, String)>,
    reach: Vec<(Bool, BV, BV)>,
    uniform: Vec<(u32, usize, Bool, BV)>,
    invariant: Vec<(usize, Bool)>,
    defs: Vec<Bool>,
    depth: u32,
    /// The recorded values, when recording ([`Self::recording`]).
    values: Option<Values>,
    /// The operands of the load or call whose oracle is read next.
    operands: Option<Vec<BV>>,
    /// The definedness of the next event's values (`Ev::defined`).
    observed: Vec<(usize, Bool)>,
    free_reads: Vec<FreeRead>,
    fn_reads: Vec<FnRead>,
    next_entry: u32,
}

/// The interpreter's call-depth bound (`Bounds::default().max_depth`).
const MAX_DEPTH: u32 = 32;

impl<'p, 'a> Exec<'p, 'a> {
    pub fn new(
        g: &'p Globals,
        tags: &'p mut Tags,
        prog: &'p mut Prog<'a>,
        thread: usize,
        reference: bool,
    ) -> Self {
        Exec {
            g,
            tags,
            prog,
            thread,
            reference,
            events: Vec::new(),
            cut: Vec::new(),
            stuck: Vec::new(),
            ub: Vec::new(),
            reach: Vec::new(),
            uniform: Vec::new(),
            invariant: Vec::new(),
            defs: Vec::new(),
            depth: 0,
            values: None,
            operands: None,
            observed: Vec::new(),
            free_reads: Vec::new(),
            fn_reads: Vec::new(),
            next_entry: 0,
        }
    }

    /// Runs the kernel from `entry`: its parameters come from their
    /// oracles, read at the launch.
    pub fn run(mut self, entry: FuncId) -> Result<Run, Unknown> {
        let module = self.prog.module();
        let Some(f) = module.functions.get(entry) else {
            return Err(Unknown::incomplete(format!(
                "internal: no function {entry}"
            )));
        };
        let names = self.g.streams.len();
        let mut st = State {
            guard: Bool::from_bool(true),
            locals: BTreeMap::new(),
            counts: vec![BV::from_u64(0, self.g.w); names],
            pos: BV::from_u64(0, self.g.w),
            pos2: BV::from_u64(self.g.second.unwrap_or(0), self.g.w),
            vis: BV::from_u64(0, self.g.w),
            vis2: BV::from_u64(self.g.second.unwrap_or(0), self.g.w),
            seg: BV::from_u64(0, self.g.w),
            phase: BV::from_u64(0, self.g.w),
            calls: BV::from_u64(0, self.g.w),
            log: Default::default(),
        };
        let launch = At {
            ctx: None,
            func: entry,
            node: (2, 0, usize::MAX),
            inst: 0,
        };
        let mut rp = 0;
        let mut args = Vec::new();
        for &o in &f.param_oracles {
            args.push(self.read(&mut st, launch, &mut rp, o)?);
        }
        let (end, _) = self.invoke(entry, args, st, None)?;
        Ok(Run {
            events: self.events,
            len: end.pos,
            len2: self.g.second.map(|_| end.pos2),
            vlen: end.vis,
            vlen2: self.g.second.map(|_| end.vis2),
            cut: self.cut,
            stuck: self.stuck,
            ub: self.ub,
            reach: self.reach,
            uniform: self.uniform,
            counts: end.counts,
            invariant: self.invariant,
            defs: self.defs,
            values: self.values.unwrap_or_default(),
            free_reads: self.free_reads,
            fn_reads: self.fn_reads,
        })
    }

    /// Executes one invocation of `f`; returns the state at its return
    /// (guarded by "it returned") and its value.
    fn invoke(
        &mut self,
        f: FuncId,
        args: Vec<BV>,
        st: State,
        ctx: Option<u32>,
    ) -> Result<(State, BV), Unknown> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Unknown::new(
                Limit::Size,
                format!("call depth exceeds {MAX_DEPTH}"),
            ));
        }
        let module = self.prog.module();
        let cfg = &module.functions[f];
        let un = self.prog.unrolled(f)?;
        self.prog.copies += un.nodes.len();
        if self.prog.copies > self.prog.max_nodes {
            return Err(Unknown::new(
                Limit::Size,
                format!(
                    "the unrolled programs exceed {} block copies (max-iters={})",
                    self.prog.max_nodes, self.prog.bound
                ),
            ));
        }
        let w = self.g.w;
        let names = st.counts.len();
        let caller_locals = st.locals.clone();
        let mut first = st;
        first.locals = cfg.params.iter().cloned().zip(args).collect();
        let mut incoming: Vec<Vec<State>> = vec![Vec::new(); un.nodes.len()];
        // The entry block has no predecessor: a phi there has no value.
        let first = self.phis(f, 0, None, first, ctx)?;
        incoming[0].push(first);
        let mut exits: Vec<(State, BV)> = Vec::new();
        for n in 0..un.nodes.len() {
            let states = std::mem::take(&mut incoming[n]);
            if states.is_empty() {
                continue;
            }
            if self.prog.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Unknown::time(format!(
                    "timeout: the time budget ran out while encoding the unrolled programs \
                     (max-iters={}, {} block copies so far)",
                    self.prog.bound, self.prog.copies
                )));
            }
            let node = &un.nodes[n];
            let block = &cfg.blocks[node.block];
            let merged = states.len() > 1;
            let mut s = merge(states, w);
            self.name_state(&mut s, merged);
            for (i, inst) in block.insts.iter().enumerate() {
                let at = At {
                    ctx,
                    func: f,
                    node: where_of(&un, n, i),
                    inst: i as u32,
                };
                let mut rp = 0;
                match &inst.kind {
                    InstKind::Phi { name, .. } => {
                        let v = s.locals.get(name).cloned().unwrap_or_else(|| c64(0));
                        let g = s.guard.clone();
                        self.record_def(at, (node.block, i), &g, &v);
                    }
                    InstKind::Observe => self.event(
                        &mut s,
                        at,
                        inst.sid,
                        Tag::Label(module.label(inst.sid).into()),
                        Vec::new(),
                        None,
                        true,
                    ),
                    InstKind::Eval(e) => {
                        self.eval(&mut s, at, &mut rp, e, false)?;
                    }
                    InstKind::SetLocal { name, value } => {
                        let v = match value {
                            Some(e) => self.eval(&mut s, at, &mut rp, e, true)?,
                            None => c64(0),
                        };
                        let g = s.guard.clone();
                        self.record_def(at, (node.block, i), &g, &v);
                        s.locals.insert(name.clone(), v);
                    }
                    // Token definitions are not events; their instances are
                    // static in the copies (`super::tokens`).
                    InstKind::Token { .. } => {}
                }
            }
            let at = At {
                ctx,
                func: f,
                node: (0, node.mc, node.block),
                inst: block.insts.len() as u32,
            };
            let mut rp = 0;
            // The condition of each distinct successor.
            let conds: Vec<(usize, Bool)> = match &block.term {
                Term::Br(t) => vec![(*t, Bool::from_bool(true))],
                Term::CondBr { cond, then, els } => {
                    let v = self.eval(&mut s, at, &mut rp, cond, true)?;
                    let g = s.guard.clone();
                    self.record_def(at, (node.block, block.insts.len()), &g, &v);
                    let c = nonzero(&v);
                    if then == els {
                        vec![(*then, Bool::from_bool(true))]
                    } else {
                        vec![(*then, c.clone()), (*els, c.not())]
                    }
                }
                Term::Switch {
                    value,
                    cases,
                    default,
                } => {
                    let v = self.eval(&mut s, at, &mut rp, value, true)?;
                    let g = s.guard.clone();
                    self.record_def(at, (node.block, block.insts.len()), &g, &v);
                    let mut per: Vec<(usize, Vec<Bool>)> = Vec::new();
                    let mut seen: Vec<i64> = Vec::new();
                    let mut none = Vec::new();
                    for &(c, t) in cases {
                        if seen.contains(&c) {
                            continue;
                        }
                        seen.push(c);
                        let hit = v.eq(c64(c));
                        none.push(hit.not());
                        match per.iter_mut().find(|p| p.0 == t) {
                            Some(p) => p.1.push(hit),
                            None => per.push((t, vec![hit])),
                        }
                    }
                    let dflt = if none.is_empty() {
                        Bool::from_bool(true)
                    } else {
                        Bool::and(&none)
                    };
                    match per.iter_mut().find(|p| p.0 == *default) {
                        Some(p) => p.1.push(dflt),
                        None => per.push((*default, vec![dflt])),
                    }
                    per.into_iter().map(|(t, cs)| (t, or_all(&cs))).collect()
                }
                Term::Ret(e) => {
                    let v = match e {
                        Some(e) => self.eval(&mut s, at, &mut rp, e, true)?,
                        None => c64(0),
                    };
                    exits.push((s, v));
                    continue;
                }
                Term::Unreachable => {
                    self.ub.push((
                        s.guard.clone(),
                        format!(
                            "the run reaches `unreachable` in block {} of `{}` (undefined behaviour)",
                            block.name, cfg.name
                        ),
                    ));
                    continue;
                }
            };
            for (to, target) in &node.succs {
                let cond = conds
                    .iter()
                    .find(|c| c.0 == *to)
                    .map(|c| c.1.clone())
                    .unwrap_or_else(|| Bool::from_bool(false));
                let mut es = s.clone();
                es.guard = Bool::and(&[s.guard.clone(), cond]);
                match target {
                    Target::Node(m) => {
                        let es = self.phis(f, *m, Some((node.block, &un)), es, ctx)?;
                        incoming[*m].push(es);
                    }
                    Target::Cut { header, iteration } => self.cut.push((
                        es.guard,
                        format!(
                            "the cycle headed by block {} of `{}` starts iteration {iteration} > max-iters={}",
                            cfg.blocks[*header].name, cfg.name, self.prog.bound
                        ),
                    )),
                    Target::Missing(b) => self.stuck.push((
                        es.guard,
                        format!("block {} of `{}` branches to block {b}, which does not exist", block.name, cfg.name),
                    )),
                }
            }
        }
        self.depth -= 1;
        let mut out = if exits.is_empty() {
            (unreachable_state(w, names), c64(0))
        } else {
            let guards: Vec<Bool> = exits.iter().map(|e| e.0.guard.clone()).collect();
            let values: Vec<BV> = exits.iter().map(|e| e.1.clone()).collect();
            let v = choose(&guards, &values);
            (merge(exits.into_iter().map(|e| e.0).collect(), w), v)
        };
        out.0.locals = caller_locals;
        Ok(out)
    }

    /// Names the guard of a copy, and its merged values, by fresh
    /// constants (their definitions go to the solver): terms stay small,
    /// and a model gives their values without evaluating terms.
    fn name_state(&mut self, s: &mut State, merged: bool) {
        let g = Bool::fresh_const("g");
        self.defs.push(g.eq(&s.guard));
        s.guard = g;
        if !merged {
            return;
        }
        let name = |v: &mut BV, prefix: &str, defs: &mut Vec<Bool>| {
            if v.is_const() {
                return;
            }
            let n = BV::fresh_const(prefix, v.get_size());
            defs.push(n.eq(&*v));
            *v = n;
        };
        name(&mut s.pos, "pos", &mut self.defs);
        name(&mut s.vis, "vis", &mut self.defs);
        name(&mut s.seg, "seg", &mut self.defs);
        if self.g.second.is_some() {
            name(&mut s.pos2, "pos2", &mut self.defs);
            name(&mut s.vis2, "vis2", &mut self.defs);
        }
        name(&mut s.phase, "phase", &mut self.defs);
        for c in s.counts.iter_mut() {
            name(c, "cnt", &mut self.defs);
        }
        for v in s.locals.values_mut() {
            name(v, "var", &mut self.defs);
        }
    }

    /// Evaluates the phis at the start of copy `m` for an edge from block
    /// `pred` (all operands first, then the assignments).
    fn phis(
        &mut self,
        f: FuncId,
        m: usize,
        pred: Option<(usize, &Rc<Unrolled>)>,
        mut st: State,
        ctx: Option<u32>,
    ) -> Result<State, Unknown> {
        let module = self.prog.module();
        let cfg = &module.functions[f];
        let block = match pred {
            Some((_, un)) => un.nodes[m].block,
            None => 0,
        };
        let mut sets = Vec::new();
        for (i, inst) in cfg.blocks[block].insts.iter().enumerate() {
            let InstKind::Phi { name, incoming } = &inst.kind else {
                break;
            };
            let Some((_, e)) = incoming.iter().find(|(p, _)| Some(*p) == pred.map(|p| p.0)) else {
                self.stuck.push((
                    st.guard.clone(),
                    format!(
                        "phi %{name} in block {} has no value for the edge taken",
                        cfg.blocks[block].name
                    ),
                ));
                st.guard = Bool::from_bool(false);
                return Ok(st);
            };
            let at = At {
                ctx,
                func: f,
                node: match pred {
                    Some((_, un)) => where_of(un, m, i),
                    None => (0, 0, 0),
                },
                inst: i as u32,
            };
            let mut rp = 0;
            let v = self.eval(&mut st, at, &mut rp, e, true)?;
            sets.push((name.clone(), v));
        }
        for (n, v) in sets {
            st.locals.insert(n, v);
        }
        Ok(st)
    }
}
