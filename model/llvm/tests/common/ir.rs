//! Comparing convcheck IR modules: their CFG shape (blocks, successors,
//! convergent operations by label, tokens) and what they do when run
//! (trace tables and each thread's observable events on a scenario).
#![deny(unsafe_code)]
#![allow(dead_code)] // Each test binary uses a different subset.

use std::collections::BTreeMap;

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, EventKind};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::{table, Cfg, Expr, InstKind, Module, OracleClass, Term};

/// One block's shape: name, terminator kind and successors, the labels of
/// its convergent operations in order, its token intrinsics in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockShape {
    pub name: String,
    pub term: String,
    pub succs: Vec<usize>,
    pub convergent: Vec<String>,
    pub tokens: Vec<String>,
}

/// A function's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnShape {
    pub name: String,
    pub params: usize,
    pub blocks: Vec<BlockShape>,
}

/// The labels of the convergent operations of an expression, in
/// evaluation order (pre-order is evaluation order for calls).
fn convergent_labels(m: &Module, e: &Expr, out: &mut Vec<String>) {
    e.walk(&mut |x| {
        if let Expr::Call { op, kind, .. } = x {
            if kind.is_convergent() {
                out.push(m.label(*op).to_string());
            }
        }
    });
}

/// The shape of every function of a module. A leading block named
/// `convcheck.entry` (which the writer adds and the reader keeps when it
/// holds parameter copies) is left out, successors renumbered.
pub fn shape(m: &Module) -> Vec<FnShape> {
    m.functions.iter().map(|f| fn_shape(m, f)).collect()
}

fn fn_shape(m: &Module, f: &Cfg) -> FnShape {
    let skip = usize::from(
        f.blocks
            .first()
            .is_some_and(|b| b.name == "convcheck.entry"),
    );
    let blocks = f
        .blocks
        .iter()
        .skip(skip)
        .map(|b| {
            let mut convergent = Vec::new();
            let mut tokens = Vec::new();
            for i in &b.insts {
                match &i.kind {
                    InstKind::Observe => convergent.push(m.label(i.sid).to_string()),
                    InstKind::Token { kind, .. } => tokens.push(kind.name().to_string()),
                    _ => {}
                }
                let exprs: Vec<&Expr> = match &i.kind {
                    InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => vec![e],
                    InstKind::Phi { incoming, .. } => incoming.iter().map(|x| &x.1).collect(),
                    _ => Vec::new(),
                };
                for e in exprs {
                    convergent_labels(m, e, &mut convergent);
                }
            }
            let (term, succs) = match &b.term {
                Term::Br(d) => ("br", vec![*d]),
                Term::CondBr { then, els, .. } => ("condbr", vec![*then, *els]),
                Term::Switch { cases, default, .. } => {
                    let mut seen = Vec::new();
                    let mut s = Vec::new();
                    for (v, d) in cases {
                        if !seen.contains(v) {
                            seen.push(*v);
                            s.push(*d);
                        }
                    }
                    s.push(*default);
                    ("switch", s)
                }
                Term::Ret(_) => ("ret", Vec::new()),
                Term::Unreachable => ("unreachable", Vec::new()),
            };
            BlockShape {
                name: b.name.clone(),
                term: term.to_string(),
                succs: succs.into_iter().map(|s| s - skip).collect(),
                convergent,
                tokens,
            }
        })
        .collect();
    FnShape {
        name: f.name.clone(),
        params: f.params.len(),
        blocks,
    }
}

/// Scenarios to run a module on: the default one with three threads, and
/// one that cycles through every oracle's domain (uniform oracles agree
/// across threads, invariant ones differ).
pub fn scenarios(m: &Module) -> Vec<Scenario> {
    let mut mixed = Vec::new();
    for t in 0..3usize {
        let mut map = BTreeMap::new();
        for (i, o) in m.oracles.iter().enumerate() {
            let d = if o.domain.is_empty() {
                vec![0, 1]
            } else {
                o.domain.clone()
            };
            let pick = |k: usize| d[k % d.len()];
            let vals: Vec<i64> = match o.class {
                OracleClass::Varying | OracleClass::Choice => {
                    (0..6).map(|k| pick(t * 3 + k * 7 + i)).collect()
                }
                OracleClass::Uniform => (0..6).map(|k| pick(k * 5 + i)).collect(),
                OracleClass::Invariant => vec![pick(t + i)],
                OracleClass::UniformInvariant => vec![pick(i)],
                // Named by argument lists: 0 for every list unless given.
                OracleClass::Function => Vec::new(),
            };
            map.insert(o.name.clone(), vals);
        }
        mixed.push(ThreadValues(map));
    }
    vec![Scenario::default_for(m, 3), Scenario { threads: mixed }]
}

/// A table's labels (`[row][column]`) and each thread's observable events.
pub type Behaviour = (Vec<Vec<Option<String>>>, Vec<Vec<String>>);

/// What a run of `entry` shows: the trace table's labels and, per thread,
/// its observable events (convergent operations by label, barriers with
/// their predicate as a boolean, memory accesses with space, direction and
/// address); or why it stopped.
pub fn behaviour(m: &Module, entry: &str, s: &Scenario) -> Result<Behaviour, String> {
    let f = m.entry(Some(entry))?;
    let program = CfgProgram::new(m.clone());
    let traces =
        run_scenario(&program, f, s, 2_000).map_err(|(t, why)| format!("thread {t}: {why}"))?;
    let rows: Vec<String> = (0..traces.len()).map(|t| format!("tid {t}")).collect();
    let runs: Vec<&[convcheck_ir::exec::Event]> =
        traces.iter().map(|t| t.events.as_slice()).collect();
    let table = table::build(m, rows, &runs)?;
    let events = traces
        .iter()
        .map(|t| {
            t.events
                .iter()
                .filter_map(|e| match &e.kind {
                    EventKind::Op { .. } | EventKind::Call(_) => Some(m.label(e.sid).to_string()),
                    EventKind::Barrier { predicate, .. } => Some(format!(
                        "{}({:?})",
                        m.label(e.sid),
                        predicate.map(|p| p != 0)
                    )),
                    EventKind::Mem {
                        space, write, addr, ..
                    } => Some(format!(
                        "{} {}[{addr}]",
                        if *write { "store" } else { "load" },
                        space.name()
                    )),
                    _ => None,
                })
                .collect()
        })
        .collect();
    Ok((table.labels(), events))
}

/// Panics unless `a` and `b` have the same shape and behave alike on the
/// scenarios of `a` (for every function as the entry). `what` names the
/// case in the message.
pub fn assert_same(a: &Module, b: &Module, what: &str) {
    let (sa, sb) = (shape(a), shape(b));
    assert_eq!(sa.len(), sb.len(), "{what}: number of functions");
    for (fa, fb) in sa.iter().zip(&sb) {
        assert_eq!(fa, fb, "{what}: the shape of @{}", fa.name);
    }
    assert_same_behaviour(a, b, what);
}

/// Panics unless `a` and `b` behave alike on the scenarios of `a`.
pub fn assert_same_behaviour(a: &Module, b: &Module, what: &str) {
    for s in scenarios(a) {
        for f in &a.functions {
            let ra = behaviour(a, &f.name, &s);
            let rb = behaviour(b, &f.name, &s);
            match (&ra, &rb) {
                (Ok(x), Ok(y)) => assert_eq!(
                    x,
                    y,
                    "{what}: @{} on {s:?}\nfirst:\n{}\nsecond:\n{}",
                    f.name,
                    convcheck_ir::print::module_text(a),
                    convcheck_ir::print::module_text(b)
                ),
                (Err(_), Err(_)) => {}
                _ => panic!("{what}: @{} on {s:?}: {ra:?} vs {rb:?}", f.name),
            }
        }
    }
}
