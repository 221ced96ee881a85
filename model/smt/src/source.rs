//! Source level: seed 000's converged-with written relationally, without
//! keys.
//!
//! **Instances.** Seed 000 speaks of *executions of statements* as dynamic
//! instances. The trace records some of them (conditions, jumps,
//! observation points, calls, barriers, memory accesses: each
//! [`Event`] with the static statement or expression `sid`); the engine adds
//! the others it needs, read off the event sequence and the static
//! structure of the kernel ([`convcheck_lang::sema::NodeInfo::chain`], the key scopes
//! of every statement):
//!
//! - an *iteration start* of every reducible iteration statement `L`: for
//!   `while` and `for` just before each evaluation of the condition (the
//!   condition opens an iteration, seed 000 "Iteration Statement", `for` as
//!   its `while` rewriting); for `do`-`while` at the loop's entry and, after
//!   an evaluation of the condition, just before the next instance inside
//!   the loop (the condition closes an iteration; when the loop continues
//!   the next iteration starts right after it);
//! - an *execution start* of every member of an implementation-defined
//!   region (goto cycles, iteration statements entered from outside, and
//!   `noconvergent` statements; seed 000 "Cycles", "Jump Statements", "The
//!   noconvergent Statement"), and of every evaluation of the condition of
//!   an irreducible iteration statement. A member restarts when a `goto`
//!   jumps to its label.
//!
//! **The definition** is maximal convergence (LLVM, as in [`super::cfg`])
//! with the reducible iteration statements as the cycles and their
//! iteration starts as the header instances, plus the choices of DESIGN.md
//! 2.4. For instances `X1`, `X2` of the same statement in two threads:
//!
//! ```text
//! X1 ~ X2 <=> for every reducible loop L enclosing X: every iteration start of L
//!               strictly before X1 is convergence-before X2 and vice versa
//!               (without assuming X1 ~ X2)
//!             /\ for every region member M enclosing X: the starts of the executions
//!               of M that contain X1 and X2 are converged
//!             /\ the calls that started the two invocations are converged
//! ```
//!
//! and an execution start of a member (a *choice*) may be converged only
//! if the same clause holds for its enclosing scopes (`=>` instead of
//! `<=>`). Together with the axioms (one instance per thread per class,
//! transitivity, convergence-before acyclic) this is exactly DESIGN.md 2.4:
//! each execution of a member is a fresh choice; substatements of converged
//! member executions converge by the usual rules; instances of distinct calls
//! never converge.
//!
//! Why iteration starts and not keys: in structured code the key of an
//! instance is its statement plus the iteration vector of its enclosing
//! loops (seed 000 "Iteration Statement"). The clause says the same without
//! counting: if both threads are in iteration `n` of the same execution of
//! `L`, the starts of iterations `0..n` are converged pairwise and each is
//! convergence-before the other thread's instance; if one thread is in a
//! later iteration, its start of that iteration is convergence-before
//! nothing the other thread did up to its instance, since the only
//! converged pairs there are in earlier iterations. Threads that left the
//! loop however they left it (break, a false condition, a goto) converge
//! after it because the loop does not enclose what follows (seed 000: "after
//! a loop however they left it").
//!
//! Calls: the entry invocations of all threads are converged; a callee's
//! instances are converged only if the calls that started their invocations
//! are (seed 000, Function body). The whole group is one problem, so the
//! acyclicity of convergence-before spans calls.

use super::cfg::{solve_unique, NotUnique};
use super::encode::{Check, Enc, Inst, Stat};
use super::events::place;
use super::{describe_pairs, Answer, Ix, Options, PairRel, Relation, Unknown};
use convcheck_ir::exec::{Event, EventKind};
use convcheck_lang::sema::{Kernel, Scope};
use convcheck_lang::syntax::ast::{StmtId, StmtKind};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use z3::ast::Bool;

/// A candidate converged-with relation on matched convergent operations:
/// the listed pairs are converged, every other pair of instances of one
/// convergent operation in two threads is apart.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Target {
    /// Converged pairs of (thread, event index) in the source runs.
    pub converged: Vec<(Ix, Ix)>,
}

/// Why a relation is not one the source allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotMember {
    /// The axioms alone are unsatisfiable (a bug in the model).
    Vacuous,
    /// The target names something that is not a pair of instances of one
    /// convergent operation in two threads.
    Invalid(String),
    /// No assignment of the choices gives the target; these facts of the
    /// target (an unsat core, `true` for converged) contradict the source's
    /// semantics together.
    Conflict {
        /// The conflicting facts.
        core: Vec<(Ix, Ix, bool)>,
    },
}

impl fmt::Display for NotMember {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotMember::Vacuous => write!(f, "the axioms are unsatisfiable"),
            NotMember::Invalid(why) => write!(f, "invalid target: {why}"),
            NotMember::Conflict { core } => write!(
                f,
                "no choice of the source gives this relation; conflicting facts: {}",
                describe_pairs(core)
            ),
        }
    }
}

/// The classification of every pair of instances of one statement in two
/// threads.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Classification {
    /// Every pair, keys `(a, b)` with `a < b`.
    pub pairs: BTreeMap<(Ix, Ix), PairRel>,
    /// How many satisfiability checks it took.
    pub queries: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LoopKind {
    /// `while`, `for`: the condition opens each iteration.
    Head,
    /// `do`-`while`: the condition closes each iteration.
    Tail,
}

/// Static facts the builder needs.
struct Statics {
    /// The key scopes of the instruction that records each event's sid.
    chains: HashMap<StmtId, Vec<Scope>>,
    /// Expressions evaluated in the head of a loop (condition, step).
    head_exprs: HashMap<StmtId, StmtId>,
    /// Iteration statements.
    loops: HashMap<StmtId, LoopKind>,
    /// `goto` statements whose label is a region member: the depth at which
    /// the jump restarts the member.
    restarts: HashMap<StmtId, usize>,
}

fn head_chain(kernel: &Kernel, s: StmtId) -> Vec<Scope> {
    let mut c = kernel.node(s).chain.clone();
    if kernel.irreducible.contains(&s) {
        c.push(Scope::Irreducible(s));
        c.push(Scope::Cond(s));
    } else {
        c.push(Scope::Loop(s));
    }
    c
}

fn statics(kernel: &Kernel) -> Statics {
    let mut st = Statics {
        chains: HashMap::new(),
        head_exprs: HashMap::new(),
        loops: HashMap::new(),
        restarts: HashMap::new(),
    };
    for f in kernel.file.functions() {
        let mut labels: HashMap<&str, StmtId> = HashMap::new();
        f.body.walk(&mut |s| {
            if let StmtKind::Label { label, .. } = &s.kind {
                labels.insert(label.as_str(), s.id);
            }
        });
        f.body.walk(&mut |s| {
            let chain = if s.is_loop() {
                st.loops.insert(
                    s.id,
                    if matches!(s.kind, StmtKind::DoWhile { .. }) {
                        LoopKind::Tail
                    } else {
                        LoopKind::Head
                    },
                );
                head_chain(kernel, s.id)
            } else {
                kernel.node(s.id).chain.clone()
            };
            for e in convcheck_lang::sema::stmt_exprs(s) {
                e.walk(&mut |x| {
                    if let Some(id) = convcheck_lang::sema::expr_id(x) {
                        st.chains.insert(id, chain.clone());
                        if s.is_loop() {
                            st.head_exprs.insert(id, s.id);
                        }
                    }
                });
            }
            st.chains.insert(s.id, chain);
            if let StmtKind::Goto(l) = &s.kind {
                if let Some(&lab) = labels.get(l.as_str()) {
                    if kernel.members.contains(&lab) {
                        let depth = kernel.node(lab).chain.len().saturating_sub(1);
                        st.restarts.insert(s.id, depth);
                    }
                }
            }
        });
    }
    st
}

fn iter_stat(l: StmtId) -> Stat {
    (3 << 56) | u64::from(l.0)
}

fn exec_stat(s: Scope) -> Stat {
    match s {
        Scope::Member(m) => (4 << 56) | u64::from(m.0),
        Scope::Cond(l) => (5 << 56) | u64::from(l.0),
        Scope::Loop(l) | Scope::Irreducible(l) => (6 << 56) | u64::from(l.0),
    }
}

fn event_stat(sid: StmtId) -> Stat {
    u64::from(sid.0)
}

/// The instances of the group and, per event, its instance and whether it
/// lies in an implementation-defined region.
struct Built {
    insts: Vec<Vec<Inst>>,
    event_inst: Vec<Vec<usize>>,
    open: Vec<Vec<bool>>,
}

#[derive(Default)]
struct Frame {
    /// Active scopes, outermost first, with the execution-start instance of
    /// members and irreducible conditions.
    scopes: Vec<(Scope, Option<usize>)>,
    /// A do-while whose condition was the frame's last instance.
    after_cond: Option<StmtId>,
    /// Depth to restart at, after a goto to a member's label.
    restart: Option<usize>,
    /// Instances of the calls that opened this invocation and its callers.
    calls: Vec<usize>,
    /// Whether the call that opened it is in an implementation-defined
    /// region.
    open: bool,
}

impl Frame {
    /// Headers and enclosing executions of an instance inside the first
    /// `depth` scopes.
    fn context(&self, depth: usize) -> (Vec<Stat>, Vec<usize>) {
        let mut headers = Vec::new();
        let mut within = self.calls.clone();
        for (s, m) in &self.scopes[..depth] {
            match s {
                Scope::Loop(l) => headers.push(iter_stat(*l)),
                Scope::Member(_) | Scope::Cond(_) => within.extend(*m),
                Scope::Irreducible(_) => {}
            }
        }
        (headers, within)
    }
}

fn build(kernel: &Kernel, runs: &[&[Event]]) -> Result<Built, String> {
    let st = statics(kernel);
    let module = convcheck_lang::lower::lower(kernel, false);
    let mut out = Built {
        insts: Vec::new(),
        event_inst: Vec::new(),
        open: Vec::new(),
    };
    for run in runs {
        let placed = place(&module, run)?;
        let mut frames: HashMap<usize, Frame> = HashMap::new();
        let mut insts: Vec<Inst> = Vec::new();
        let mut ev_inst: Vec<usize> = Vec::with_capacity(run.len());
        let mut ev_open: Vec<bool> = Vec::with_capacity(run.len());
        for (i, e) in run.iter().enumerate() {
            let p = &placed[i];
            let frame = frames.entry(p.frame).or_insert_with(|| Frame {
                calls: p.calls.iter().map(|&c| ev_inst[c]).collect(),
                open: p.calls.last().is_some_and(|&c| ev_open[c]),
                ..Frame::default()
            });
            let chain = st
                .chains
                .get(&e.sid)
                .cloned()
                .unwrap_or_else(|| kernel.node(e.sid).chain.clone());
            let mut common = frame
                .scopes
                .iter()
                .zip(&chain)
                .take_while(|(a, b)| a.0 == **b)
                .count();
            if let Some(d) = frame.restart.take() {
                common = common.min(d);
            }
            let cond_of = match e.kind {
                EventKind::Stmt if st.loops.contains_key(&e.sid) => Some(e.sid),
                _ => None,
            };
            let mut new_iter: Option<usize> = None;
            if let Some(l) = cond_of {
                if kernel.irreducible.contains(&l) {
                    if let Some(pos) = chain.iter().position(|s| *s == Scope::Cond(l)) {
                        common = common.min(pos);
                    }
                } else if st.loops.get(&l) == Some(&LoopKind::Head) {
                    if let Some(pos) = chain.iter().position(|s| *s == Scope::Loop(l)) {
                        if common > pos {
                            new_iter = Some(pos);
                        }
                    }
                }
            }
            if let Some(l) = frame.after_cond {
                if st.head_exprs.get(&e.sid) != Some(&l) {
                    frame.after_cond = None;
                    if let Some(pos) = chain.iter().position(|s| *s == Scope::Loop(l)) {
                        if common > pos {
                            new_iter = Some(pos);
                        }
                    }
                }
            }
            if let Some(pos) = new_iter {
                frame.scopes.truncate(pos + 1);
                common = pos + 1;
                let (headers, within) = frame.context(pos + 1);
                insts.push(Inst {
                    stat: iter_stat(match chain[pos] {
                        Scope::Loop(l) => l,
                        _ => return Err("internal: iteration start outside a loop".into()),
                    }),
                    event: None,
                    headers,
                    within,
                    free: false,
                });
            } else {
                frame.scopes.truncate(common);
            }
            for (k, s) in chain.iter().enumerate().skip(common) {
                match *s {
                    Scope::Loop(l) => {
                        frame.scopes.push((*s, None));
                        let (headers, within) = frame.context(k + 1);
                        insts.push(Inst {
                            stat: iter_stat(l),
                            event: None,
                            headers,
                            within,
                            free: false,
                        });
                    }
                    Scope::Member(_) | Scope::Cond(_) => {
                        let (headers, within) = frame.context(k);
                        insts.push(Inst {
                            stat: exec_stat(*s),
                            event: None,
                            headers,
                            within,
                            free: true,
                        });
                        frame.scopes.push((*s, Some(insts.len() - 1)));
                    }
                    Scope::Irreducible(_) => frame.scopes.push((*s, None)),
                }
            }
            let (headers, within) = frame.context(frame.scopes.len());
            let open = frame.open
                || frame
                    .scopes
                    .iter()
                    .any(|(s, _)| matches!(s, Scope::Member(_) | Scope::Cond(_)));
            insts.push(Inst {
                stat: event_stat(e.sid),
                event: Some(i),
                headers,
                within,
                free: false,
            });
            ev_inst.push(insts.len() - 1);
            ev_open.push(open);
            if let Some(l) = cond_of {
                if !kernel.irreducible.contains(&l) && st.loops.get(&l) == Some(&LoopKind::Tail) {
                    frame.after_cond = Some(l);
                }
            }
            if let Some(&d) = st.restarts.get(&e.sid) {
                frame.restart = Some(d);
            }
        }
        out.insts.push(insts);
        out.event_inst.push(ev_inst);
        out.open.push(ev_open);
    }
    Ok(out)
}

/// Every pair of events of one statement in two threads, as instance pairs
/// with their event pair.
fn event_pairs(enc: &Enc) -> Vec<(Ix, Ix, Ix, Ix)> {
    enc.pairs()
        .filter_map(|(a, b, _)| {
            let ea = enc.insts[a.0][a.1].event?;
            let eb = enc.insts[b.0][b.1].event?;
            Some((a, b, (a.0, ea), (b.0, eb)))
        })
        .collect()
}

/// For every pair of instances of one statement in two threads: converged
/// in every relation the source allows, in none, or open. Decided by z3
/// alone (one check per value not yet seen in a model).
pub fn source_relation(kernel: &Kernel, runs: &[&[Event]]) -> Answer<Classification> {
    source_relation_with(kernel, runs, Options::default())
}

/// [`source_relation`] with explicit options.
pub fn source_relation_with(
    kernel: &Kernel,
    runs: &[&[Event]],
    options: Options,
) -> Answer<Classification> {
    let built = match build(kernel, runs) {
        Ok(b) => b,
        Err(e) => return Answer::Unknown(Unknown::incomplete(e)),
    };
    let enc = Enc::new(built.insts, options);
    let mut queries = 1;
    let mut seen: HashMap<(Ix, Ix), (bool, bool)> = HashMap::new();
    let record = |m: &z3::Model, seen: &mut HashMap<(Ix, Ix), (bool, bool)>| {
        for (a, b, v) in enc.pairs() {
            let e = seen.entry((a, b)).or_insert((false, false));
            if Enc::value(m, v) {
                e.0 = true;
            } else {
                e.1 = true;
            }
        }
    };
    match enc.check(&[]) {
        Check::Sat(m) => record(&m, &mut seen),
        Check::Unsat(_) => {
            return Answer::Counterexample("the axioms are unsatisfiable".into());
        }
        Check::Unknown(why) => return Answer::Unknown(why),
    }
    let pairs = event_pairs(&enc);
    for &(a, b, _, _) in &pairs {
        let (t, f) = seen.get(&(a, b)).copied().unwrap_or((false, false));
        if t && f {
            continue;
        }
        let Some(lit) = enc.literal(a, b, !t) else {
            continue;
        };
        queries += 1;
        match enc.check(&[lit]) {
            Check::Sat(m) => record(&m, &mut seen),
            Check::Unsat(_) => {}
            Check::Unknown(why) => return Answer::Unknown(why),
        }
    }
    let mut out = BTreeMap::new();
    for (a, b, ea, eb) in pairs {
        let rel = match seen.get(&(a, b)).copied().unwrap_or((false, false)) {
            (true, true) => PairRel::Open,
            (true, false) => PairRel::Converged,
            _ => PairRel::Apart,
        };
        out.insert((ea, eb), rel);
    }
    Answer::Proved(Classification {
        pairs: out,
        queries,
    })
}

/// The relation a trace table shows (DESIGN.md 2.8,
/// [`convcheck_ir::table`]): the allowed relation in which every choice is
/// made apart, which must be unique; and for every event whether it lies in
/// an implementation-defined region (its own statement, or the call that
/// started its invocation).
pub fn source_table_relation(
    kernel: &Kernel,
    runs: &[&[Event]],
) -> Answer<(Relation, Vec<Vec<bool>>), NotUnique> {
    let built = match build(kernel, runs) {
        Ok(b) => b,
        Err(e) => return Answer::Unknown(Unknown::incomplete(e)),
    };
    let open = built.open.clone();
    let enc = Enc::new(built.insts, Options::default());
    let free: Vec<Bool> = enc
        .pairs()
        .filter(|(a, _, _)| enc.insts[a.0][a.1].free)
        .map(|(_, _, v)| v.not())
        .collect();
    for f in &free {
        enc.solver.assert(f);
    }
    match solve_unique(&enc) {
        Answer::Proved(rel) => Answer::Proved((enc.on_events(&rel), open)),
        Answer::Counterexample(c) => Answer::Counterexample(c),
        Answer::Unknown(w) => Answer::Unknown(w),
    }
}

/// Membership (DESIGN.md 2.5, 2.7): is there an assignment of the source's
/// choices whose converged-with relation, restricted to convergent
/// operations, is exactly `target`? `Proved` carries the whole relation of
/// one such assignment.
pub fn is_member(
    kernel: &Kernel,
    runs: &[&[Event]],
    target: &Target,
) -> Answer<Relation, NotMember> {
    is_member_with(kernel, runs, target, Options::default())
}

/// [`is_member`] with explicit options.
pub fn is_member_with(
    kernel: &Kernel,
    runs: &[&[Event]],
    target: &Target,
    options: Options,
) -> Answer<Relation, NotMember> {
    let op = |x: Ix| -> Option<&Event> {
        runs.get(x.0)
            .and_then(|r| r.get(x.1))
            .filter(|e| e.is_convergent_op())
    };
    let mut want: BTreeSet<(Ix, Ix)> = BTreeSet::new();
    for &(a, b) in &target.converged {
        match (op(a), op(b)) {
            (Some(x), Some(y)) if x.sid == y.sid && a.0 != b.0 => {
                want.insert(if a <= b { (a, b) } else { (b, a) });
            }
            _ => {
                return Answer::Counterexample(NotMember::Invalid(format!(
                "t{}.{} and t{}.{} are not instances of one convergent operation in two threads",
                a.0, a.1, b.0, b.1
            )))
            }
        }
    }
    let built = match build(kernel, runs) {
        Ok(b) => b,
        Err(e) => return Answer::Unknown(Unknown::incomplete(e)),
    };
    let enc = Enc::new(built.insts, options);
    match enc.check(&[]) {
        Check::Sat(_) => {}
        Check::Unsat(_) => return Answer::Counterexample(NotMember::Vacuous),
        Check::Unknown(why) => return Answer::Unknown(why),
    }
    let mut tracks = Vec::new();
    let mut named: HashMap<String, (Ix, Ix, bool)> = HashMap::new();
    for (a, b, ea, eb) in event_pairs(&enc) {
        if op(ea).is_none() || op(eb).is_none() {
            continue;
        }
        let v = want.contains(&(ea, eb));
        let Some(lit) = enc.literal(a, b, v) else {
            continue;
        };
        let t = Bool::fresh_const("target");
        enc.solver.assert(t.implies(&lit));
        named.insert(t.to_string(), (ea, eb, v));
        tracks.push(t);
    }
    match enc.check(&tracks) {
        Check::Sat(m) => Answer::Proved(enc.on_events(&enc.relation(&m))),
        Check::Unsat(core) => {
            let mut c: Vec<(Ix, Ix, bool)> = core
                .iter()
                .filter_map(|b| named.get(&b.to_string()).copied())
                .collect();
            c.sort();
            Answer::Counterexample(NotMember::Conflict { core: c })
        }
        Check::Unknown(why) => Answer::Unknown(why),
    }
}
