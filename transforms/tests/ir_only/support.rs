//! Builders for modules written by hand from IR types (no front end), and
//! what the tests compare before and after a pass: one thread's observable
//! instances (convergent operations, barriers, memory accesses with their
//! addresses, which the tests use to observe values) in order, by label,
//! and that every phi has exactly one value per predecessor.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, EventKind};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::{
    BinOp, Block, BlockId, Cfg, Expr, Inst, InstKind, Module, OpId, OpInfo, OpKind, OracleClass,
    OracleInfo, Pos, Space, Span, Term,
};
use convcheck_transforms::lookup;

/// A span on one line of a made-up input.
pub(crate) fn line(l: u32) -> Span {
    Span::new(Pos { line: l, col: 1 }, Pos { line: l, col: 2 })
}

/// A one-function module named `name`: oracles `(name, class)` with the
/// domain `[0, 1]`, ops `(label, kind)` on lines 1, 2, ... in order, and
/// the blocks of function `k`.
pub(crate) fn module(
    name: &str,
    oracles: &[(&str, OracleClass)],
    ops: &[(&str, OpKind)],
    blocks: Vec<Block>,
) -> Module {
    Module {
        name: name.into(),
        max_group: None,
        ops: ops
            .iter()
            .enumerate()
            .map(|(i, (label, kind))| OpInfo {
                label: (*label).into(),
                span: line(i as u32 + 1),
                kind: *kind,
                func: 0,
                memory_none: false,
            })
            .collect(),
        oracles: oracles
            .iter()
            .map(|(n, class)| OracleInfo {
                name: (*n).into(),
                class: *class,
                domain: vec![0, 1],
                span: Span::default(),
            })
            .collect(),
        functions: vec![Cfg {
            name: "k".into(),
            params: Vec::new(),
            param_oracles: Vec::new(),
            blocks,
        }],
    }
}

/// A block created by op 0.
pub(crate) fn block(name: &str, insts: Vec<Inst>, term: Term) -> Block {
    Block {
        name: name.into(),
        insts,
        term,
        origin: Some(OpId(0)),
    }
}

/// An instruction of op `sid` without a token.
pub(crate) fn inst(sid: u32, kind: InstKind) -> Inst {
    Inst {
        kind,
        sid: OpId(sid),
        token: None,
    }
}

/// `#sid eval e`.
pub(crate) fn eval(sid: u32, e: Expr) -> Inst {
    inst(sid, InstKind::Eval(e))
}

/// `#sid set %name = e`.
pub(crate) fn set(sid: u32, name: &str, e: Expr) -> Inst {
    inst(
        sid,
        InstKind::SetLocal {
            name: name.into(),
            value: Some(e),
        },
    )
}

/// `#sid phi %name [v, %pred] ...`.
pub(crate) fn phi(sid: u32, name: &str, incoming: Vec<(BlockId, Expr)>) -> Inst {
    inst(
        sid,
        InstKind::Phi {
            name: name.into(),
            incoming,
        },
    )
}

/// `%name`.
pub(crate) fn var(name: &str) -> Expr {
    Expr::Var(name.into())
}

/// A store of 0 to `space[index]` by op `op`: what the tests observe values
/// with (the address is part of the instance).
pub(crate) fn store(op: u32, space: Space, index: Expr) -> Expr {
    Expr::Store {
        op: OpId(op),
        space,
        index: Box::new(index),
        value: Box::new(Expr::Const(0)),
        access: convcheck_ir::Access::ELEMENT,
    }
}

/// `a op b`.
pub(crate) fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}

/// One thread's observable instances in order, `(label, kind)`, with the
/// oracle values `values` (`--thread` text); block and statement instances
/// are left out, since passes move them by design.
pub(crate) fn behaviour(m: &Module, values: &str) -> Vec<(String, String)> {
    let entry = m.entry(None).expect("one kernel");
    let program = CfgProgram::new(m.clone());
    let sc = Scenario {
        threads: vec![ThreadValues::parse(values).expect("values")],
    };
    let traces = run_scenario(&program, entry, &sc, 10_000)
        .unwrap_or_else(|(t, why)| panic!("thread {t}: {why}\n{}", text(m)));
    traces[0]
        .events
        .iter()
        .filter(|e| !matches!(e.kind, EventKind::Block(_) | EventKind::Stmt))
        .map(|e| (m.label(e.sid).to_string(), format!("{:?}", e.kind)))
        .collect()
}

/// The module's text form, for failure messages.
pub(crate) fn text(m: &Module) -> String {
    convcheck_ir::print::module_text(m)
}

/// Every leading phi of every block of `m` has exactly one value per
/// predecessor, and no other (what the passes promise to keep).
pub(crate) fn assert_phis_match_preds(m: &Module) {
    for cfg in &m.functions {
        let preds = cfg.preds();
        for (b, block) in cfg.blocks.iter().enumerate() {
            for i in &block.insts {
                let InstKind::Phi { name, incoming } = &i.kind else {
                    break;
                };
                let mut from: Vec<BlockId> = incoming.iter().map(|(p, _)| *p).collect();
                from.sort_unstable();
                let mut want = preds[b].clone();
                want.sort_unstable();
                assert_eq!(
                    from,
                    want,
                    "phi %{name} in %{}: values from {from:?}, predecessors {want:?}\n{}",
                    block.name,
                    text(m)
                );
            }
        }
    }
}

/// Runs `pass` on a copy of `m`, checks that phis still match the edges
/// and that every scenario in `scenarios` behaves the same before and
/// after; returns the module after and the notes.
pub(crate) fn preserved(m: &Module, pass: &str, scenarios: &[&str]) -> (Module, Vec<String>) {
    let mut after = m.clone();
    let notes = lookup(pass)
        .expect("pass")
        .run(&mut after)
        .unwrap_or_else(|e| panic!("{pass}: {e}"));
    assert_phis_match_preds(&after);
    for s in scenarios {
        assert_eq!(
            behaviour(m, s),
            behaviour(&after, s),
            "{pass} changed the behaviour with `{s}`; notes {notes:?}\nbefore:\n{}\nafter:\n{}",
            text(m),
            text(&after)
        );
    }
    (after, notes)
}

// Modules with phis. Oracle 0 is `c` (varying), 1 is `d` (invariant), 2
// is `u` (uniform). Op 1 names phis and assignments; ops 2 to 4 are
// stores whose addresses show values (3 and 4 share the label "h"); op 5
// is the observation point "A".

pub(crate) const SCENARIOS: [&str; 5] = ["c=0 d=0", "c=0 d=1", "c=1 d=0", "c=1 d=1", "c=1,0,1 d=1"];

pub(crate) fn with_phis(blocks: Vec<Block>) -> Module {
    let global = OpKind::Mem {
        space: Space::Global,
        write: true,
    };
    module(
        "phis.cir",
        &[
            ("c", OracleClass::Varying),
            ("d", OracleClass::Invariant),
            ("u", OracleClass::Uniform),
        ],
        &[
            ("@k", OpKind::Stmt),
            ("x", OpKind::Stmt),
            ("g", global),
            ("h", global),
            ("h", global),
            ("A", OpKind::Observe),
        ],
        blocks,
    )
}

/// Observes `e` as the address of a store.
pub(crate) fn show(e: Expr) -> Inst {
    eval(2, store(2, Space::Global, e))
}

pub(crate) fn c() -> Expr {
    Expr::Oracle(0)
}

pub(crate) fn d() -> Expr {
    Expr::Oracle(1)
}

pub(crate) fn k(v: i64) -> Expr {
    Expr::Const(v)
}

pub(crate) fn has_phi(b: &Block) -> bool {
    b.insts
        .iter()
        .any(|i| matches!(i.kind, InstKind::Phi { .. }))
}

/// Every pass that changes blocks or edges, and branch-dist, which deletes
/// instructions.
pub(crate) const PASSES: [&str; 11] = [
    "simplifycfg",
    "simplifycfg<keep-loops>",
    "simplifycfg.merge-block",
    "simplifycfg.forward-empty",
    "simplifycfg.hoist",
    "simplifycfg.sink",
    "simplifycfg.sink.unsafe",
    "loop-unswitch",
    "loop-unswitch.unsafe",
    "branch-dist",
    "branch-dist.batch",
];

/// Runs every pass of [`PASSES`] on `m` and checks each keeps phis and
/// behaviour.
pub(crate) fn every_pass_preserves(m: &Module) {
    for pass in PASSES {
        preserved(m, pass, &SCENARIOS);
    }
}

/// One thread's behaviour within `fuel`, or `None` when the run does not
/// finish in it.
pub(crate) fn behaviour_within(
    m: &Module,
    values: &str,
    fuel: u64,
) -> Option<Vec<(String, String)>> {
    let program = CfgProgram::new(m.clone());
    let sc = Scenario {
        threads: vec![ThreadValues::parse(values).expect("values")],
    };
    let traces = run_scenario(&program, 0, &sc, fuel).ok()?;
    Some(
        traces[0]
            .events
            .iter()
            .filter(|e| !matches!(e.kind, EventKind::Block(_) | EventKind::Stmt))
            .map(|e| (m.label(e.sid).to_string(), format!("{:?}", e.kind)))
            .collect(),
    )
}
