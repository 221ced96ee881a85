//! The passes stand alone: modules written by hand from IR types, with no
//! kernel and no front end anywhere.
//!
//! - A small module goes through `simplifycfg` and `branch-dist`, which
//!   read everything they need (labels, lines, call kinds, oracle classes,
//!   the module's name) from the module itself.
//! - Modules with phis (what the LLVM front end makes) go through every
//!   pass that merges, bypasses or clones blocks: afterwards each phi has
//!   exactly one value per predecessor, and one thread's observable
//!   instances (convergent operations, barriers, memory accesses with
//!   their addresses, which the tests use to observe values) are the same
//!   as before, under every scenario tried. Where a rewrite cannot keep
//!   phis correct the pass leaves the spot alone; a phi after a non-phi
//!   instruction is refused with a named error.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, EventKind};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::{
    BarrierKind, BinOp, Block, BlockId, CallKind, Cfg, Expr, Inst, InstKind, Module, OpId, OpInfo,
    OpKind, OracleClass, OracleInfo, Pos, Space, Span, Term,
};
use convcheck_transforms::{lookup, uniformity};

/// A span on one line of a made-up input.
fn line(l: u32) -> Span {
    Span::new(Pos { line: l, col: 1 }, Pos { line: l, col: 2 })
}

/// A one-function module named `name`: oracles `(name, class)` with the
/// domain `[0, 1]`, ops `(label, kind)` on lines 1, 2, ... in order, and
/// the blocks of function `k`.
fn module(
    name: &str,
    oracles: &[(&str, OracleClass)],
    ops: &[(&str, OpKind)],
    blocks: Vec<Block>,
) -> Module {
    Module {
        name: name.into(),
        ops: ops
            .iter()
            .enumerate()
            .map(|(i, (label, kind))| OpInfo {
                label: (*label).into(),
                span: line(i as u32 + 1),
                kind: *kind,
                func: 0,
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
fn block(name: &str, insts: Vec<Inst>, term: Term) -> Block {
    Block {
        name: name.into(),
        insts,
        term,
        origin: Some(OpId(0)),
    }
}

/// An instruction of op `sid` without a token.
fn inst(sid: u32, kind: InstKind) -> Inst {
    Inst {
        kind,
        sid: OpId(sid),
        token: None,
    }
}

/// `#sid eval e`.
fn eval(sid: u32, e: Expr) -> Inst {
    inst(sid, InstKind::Eval(e))
}

/// `#sid set %name = e`.
fn set(sid: u32, name: &str, e: Expr) -> Inst {
    inst(
        sid,
        InstKind::SetLocal {
            name: name.into(),
            value: Some(e),
        },
    )
}

/// `#sid phi %name [v, %pred] ...`.
fn phi(sid: u32, name: &str, incoming: Vec<(BlockId, Expr)>) -> Inst {
    inst(
        sid,
        InstKind::Phi {
            name: name.into(),
            incoming,
        },
    )
}

/// `%name`.
fn var(name: &str) -> Expr {
    Expr::Var(name.into())
}

/// A store of 0 to `space[index]` by op `op`: what the tests observe values
/// with (the address is part of the instance).
fn store(op: u32, space: Space, index: Expr) -> Expr {
    Expr::Store {
        op: OpId(op),
        space,
        index: Box::new(index),
        value: Box::new(Expr::Const(0)),
    }
}

/// `a op b`.
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}

/// One thread's observable instances in order, `(label, kind)`, with the
/// oracle values `values` (`--thread` text); block and statement instances
/// are left out, since passes move them by design.
fn behaviour(m: &Module, values: &str) -> Vec<(String, String)> {
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
fn text(m: &Module) -> String {
    convcheck_ir::print::module_text(m)
}

/// Every leading phi of every block of `m` has exactly one value per
/// predecessor, and no other (what the passes promise to keep).
fn assert_phis_match_preds(m: &Module) {
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
fn preserved(m: &Module, pass: &str, scenarios: &[&str]) -> (Module, Vec<String>) {
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

/// ```text
/// entry:  #1 store shared[tid] = 0;   br ($c != 0), %then, %else
/// then:   br %join
/// else:   br %join
/// join:   #2 call barrier "B";  #3 observe "A";  br %exit
/// exit:   ret
/// ```
fn hand_built() -> Module {
    let c = Expr::Oracle(0);
    let barrier = Expr::Call {
        op: OpId(2),
        kind: CallKind::Barrier(BarrierKind::Plain, None),
        callee: "__syncthreads".into(),
        args: Vec::new(),
    };
    module(
        "hand.cir",
        &[("c", OracleClass::Varying)],
        &[
            ("@k", OpKind::Stmt),
            (
                "shared@2",
                OpKind::Mem {
                    space: Space::Shared,
                    write: true,
                },
            ),
            (
                "B",
                OpKind::Call(CallKind::Barrier(BarrierKind::Plain, None)),
            ),
            ("A", OpKind::Observe),
        ],
        vec![
            block(
                "entry",
                vec![eval(1, store(1, Space::Shared, Expr::Tid))],
                Term::CondBr {
                    cond: c,
                    then: 1,
                    els: 2,
                },
            ),
            block("then", Vec::new(), Term::Br(3)),
            block("else", Vec::new(), Term::Br(3)),
            block(
                "join",
                vec![eval(2, barrier), inst(3, InstKind::Observe)],
                Term::Br(4),
            ),
            block("exit", Vec::new(), Term::Ret(None)),
        ],
    )
}

#[test]
fn simplifycfg_runs_on_a_module_built_by_hand() {
    let m = hand_built();
    let mut after = m.clone();
    let notes = lookup("simplifycfg")
        .expect("pass")
        .run(&mut after)
        .expect("runs");
    assert_eq!(
        notes,
        vec![
            "@k: merged %exit into %join",
            "@k: forwarded empty %then to %join",
            "@k: forwarded empty %else to %join",
        ]
    );
    let names: Vec<&str> = after.functions[0]
        .blocks
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(names, vec!["entry", "join"]);
    // Both arms now branch straight to the join.
    assert!(matches!(
        after.functions[0].blocks[0].term,
        Term::CondBr {
            then: 1,
            els: 1,
            ..
        }
    ));
    for c in ["c=0", "c=1"] {
        assert_eq!(behaviour(&m, c), behaviour(&after, c), "{c}");
    }
}

#[test]
fn branch_dist_runs_on_a_module_built_by_hand() {
    let mut m = hand_built();
    let notes = lookup("branch-dist<dump>")
        .expect("pass")
        .run(&mut m)
        .expect("runs");
    // A write above, nothing below (the observation point is no access):
    // condition 2. The dump line names the module and the op's line.
    assert_eq!(
        notes,
        vec!["[hand.cir:3] Removed dead synch: Read above: 0, Write above: 1, Read below: 0, Write below: 0 in function k"]
    );
    let join = &m.functions[0].blocks[3];
    assert_eq!(join.insts.len(), 1);
    assert_eq!(join.insts[0].kind, InstKind::Observe);
}

// Modules with phis. Oracle 0 is `c` (varying), 1 is `d` (invariant), 2
// is `u` (uniform). Op 1 names phis and assignments; ops 2 to 4 are
// stores whose addresses show values (3 and 4 share the label "h").

const SCENARIOS: [&str; 5] = ["c=0 d=0", "c=0 d=1", "c=1 d=0", "c=1 d=1", "c=1,0,1 d=1"];

fn with_phis(blocks: Vec<Block>) -> Module {
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
        ],
        blocks,
    )
}

/// Observes `e` as the address of a store.
fn show(e: Expr) -> Inst {
    eval(2, store(2, Space::Global, e))
}

fn c() -> Expr {
    Expr::Oracle(0)
}

fn d() -> Expr {
    Expr::Oracle(1)
}

fn k(v: i64) -> Expr {
    Expr::Const(v)
}

fn has_phi(b: &Block) -> bool {
    b.insts
        .iter()
        .any(|i| matches!(i.kind, InstKind::Phi { .. }))
}

/// Every pass that changes blocks or edges, and branch-dist, which deletes
/// instructions.
const PASSES: [&str; 11] = [
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
fn every_pass_preserves(m: &Module) {
    for pass in PASSES {
        preserved(m, pass, &SCENARIOS);
    }
}

#[test]
fn merge_block_turns_single_entry_phis_into_assignments() {
    let m = with_phis(vec![
        block(
            "entry",
            vec![set(1, "a", k(1)), set(1, "b", k(2))],
            Term::Br(1),
        ),
        block(
            "b1",
            vec![
                phi(1, "x", vec![(0, var("b"))]),
                phi(1, "y", vec![(0, var("a"))]),
                show(bin(BinOp::Add, bin(BinOp::Mul, var("x"), k(10)), var("y"))),
            ],
            Term::Br(2),
        ),
        block(
            "h",
            vec![phi(1, "i", vec![(1, k(0)), (3, var("i2"))])],
            Term::CondBr {
                cond: bin(BinOp::Lt, var("i"), k(3)),
                then: 3,
                els: 4,
            },
        ),
        block(
            "latch",
            vec![
                show(var("i")),
                set(1, "i2", bin(BinOp::Add, var("i"), k(1))),
            ],
            Term::Br(2),
        ),
        block("exit", Vec::new(), Term::Ret(None)),
    ]);
    let (after, notes) = preserved(&m, "simplifycfg.merge-block", &SCENARIOS);
    assert_eq!(notes, vec!["@k: merged %b1 into %entry"]);
    let cfg = &after.functions[0];
    assert!(!has_phi(&cfg.blocks[0]), "{}", text(&after));
    // The loop header's value from %b1 now comes from %entry.
    assert_eq!(
        cfg.blocks[1].insts[0].kind,
        InstKind::Phi {
            name: "i".into(),
            incoming: vec![(0, k(0)), (2, var("i2"))],
        }
    );
    every_pass_preserves(&m);
}

#[test]
fn merge_block_leaves_phis_that_read_each_other() {
    // `a` and `b` swap: done together they exchange values, done one after
    // the other they would not.
    let m = with_phis(vec![
        block(
            "entry",
            vec![set(1, "a", k(1)), set(1, "b", k(2))],
            Term::Br(1),
        ),
        block(
            "b1",
            vec![
                phi(1, "a", vec![(0, var("b"))]),
                phi(1, "b", vec![(0, var("a"))]),
                show(bin(BinOp::Add, bin(BinOp::Mul, var("a"), k(10)), var("b"))),
            ],
            Term::Ret(None),
        ),
    ]);
    let (after, notes) = preserved(&m, "simplifycfg.merge-block", &SCENARIOS);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(after, m);
    assert_eq!(behaviour(&m, "")[0].1, format!("{:?}", mem(21)));
    every_pass_preserves(&m);
}

fn mem(addr: i64) -> EventKind {
    EventKind::Mem {
        space: Space::Global,
        write: true,
        addr,
    }
}

fn diamond_with_empty_else(phi_values: [i64; 2]) -> Module {
    with_phis(vec![
        block(
            "entry",
            Vec::new(),
            Term::CondBr {
                cond: c(),
                then: 1,
                els: 2,
            },
        ),
        block("then", vec![show(k(100))], Term::Br(3)),
        block("else", Vec::new(), Term::Br(3)),
        block(
            "join",
            vec![
                phi(1, "x", vec![(1, k(phi_values[0])), (2, k(phi_values[1]))]),
                show(var("x")),
            ],
            Term::Ret(None),
        ),
    ])
}

#[test]
fn forward_empty_gives_the_bypassed_value_to_each_predecessor() {
    let m = diamond_with_empty_else([1, 2]);
    let (after, notes) = preserved(&m, "simplifycfg.forward-empty", &SCENARIOS);
    assert_eq!(notes, vec!["@k: forwarded empty %else to %join"]);
    assert_eq!(
        after.functions[0].blocks[2].insts[0].kind,
        InstKind::Phi {
            name: "x".into(),
            incoming: vec![(1, k(1)), (0, k(2))],
        }
    );
    every_pass_preserves(&m);
}

fn triangle_with_empty_arm(direct: i64, bypassed: i64) -> Module {
    with_phis(vec![
        block(
            "entry",
            Vec::new(),
            Term::CondBr {
                cond: c(),
                then: 1,
                els: 2,
            },
        ),
        block("then", Vec::new(), Term::Br(2)),
        block(
            "join",
            vec![
                phi(1, "x", vec![(0, k(direct)), (1, k(bypassed))]),
                show(var("x")),
            ],
            Term::Ret(None),
        ),
    ])
}

#[test]
fn forward_empty_keeps_a_block_whose_edge_brings_another_value() {
    // %entry reaches %join directly (x = 1) and through the empty %then
    // (x = 2): bypassing %then would need two values on one edge (LLVM's
    // CanPropagatePredecessorsForPHIs).
    let m = triangle_with_empty_arm(1, 2);
    let (after, notes) = preserved(&m, "simplifycfg.forward-empty", &SCENARIOS);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(after, m);
    every_pass_preserves(&m);
    // With the same value on both edges it goes.
    let m = triangle_with_empty_arm(2, 2);
    let (after, notes) = preserved(&m, "simplifycfg.forward-empty", &SCENARIOS);
    assert_eq!(notes, vec!["@k: forwarded empty %then to %join"]);
    assert_eq!(
        after.functions[0].blocks[1].insts[0].kind,
        InstKind::Phi {
            name: "x".into(),
            incoming: vec![(0, k(2))],
        }
    );
    every_pass_preserves(&m);
}

/// Two arms that end in the same store to `h`, joined by a phi of `x`;
/// `index` is the store's address and `incoming` the phi's two values.
fn sink_case(index: Expr, incoming: [Expr; 2]) -> Module {
    let [a, b] = incoming;
    with_phis(vec![
        block(
            "entry",
            Vec::new(),
            Term::CondBr {
                cond: c(),
                then: 1,
                els: 2,
            },
        ),
        block(
            "p1",
            vec![
                set(1, "y", k(1)),
                eval(3, store(3, Space::Global, index.clone())),
            ],
            Term::Br(3),
        ),
        block(
            "p2",
            vec![set(1, "y", k(2)), eval(4, store(4, Space::Global, index))],
            Term::Br(3),
        ),
        block(
            "join",
            vec![phi(1, "x", vec![(1, a), (2, b)]), show(var("x"))],
            Term::Ret(None),
        ),
    ])
}

#[test]
fn sink_inserts_after_the_phis_and_never_past_one_it_reads() {
    let m = sink_case(k(5), [k(10), k(20)]);
    let (after, notes) = preserved(&m, "simplifycfg.sink", &SCENARIOS);
    assert_eq!(notes.len(), 1, "{notes:?}");
    let join = &after.functions[0].blocks[3];
    assert!(matches!(join.insts[0].kind, InstKind::Phi { .. }));
    assert_eq!(join.insts[1].sid, OpId(3));
    every_pass_preserves(&m);
    // The store reads `x`, which the phi sets: sinking it would change
    // its address.
    let m = sink_case(var("x"), [k(10), k(20)]);
    let (_, notes) = preserved(&m, "simplifycfg.sink", &SCENARIOS);
    assert!(notes.is_empty(), "{notes:?}");
    every_pass_preserves(&m);
    // A phi operand that reads an oracle would read it after the store
    // instead of before.
    let m = sink_case(k(5), [c(), k(20)]);
    let (_, notes) = preserved(&m, "simplifycfg.sink", &SCENARIOS);
    assert!(notes.is_empty(), "{notes:?}");
    every_pass_preserves(&m);
}

/// A counted loop (`i` counted by a header phi) whose body branches on
/// the invariant `d`, to a latch whose phi `j` tells which way it came;
/// the exit shows `i` through an exit phi. With `two_entries`, two blocks
/// enter the loop with different start values.
fn counted_loop(two_entries: bool) -> Module {
    let mut blocks = Vec::new();
    let base = if two_entries {
        blocks.push(block(
            "entry",
            Vec::new(),
            Term::CondBr {
                cond: c(),
                then: 1,
                els: 2,
            },
        ));
        blocks.push(block("a1", Vec::new(), Term::Br(3)));
        blocks.push(block("a2", Vec::new(), Term::Br(3)));
        3
    } else {
        blocks.push(block("entry", Vec::new(), Term::Br(1)));
        1
    };
    let (h, body, t, latch, exit) = (base, base + 1, base + 2, base + 3, base + 4);
    let starts = if two_entries {
        vec![(1, k(0)), (2, k(1))]
    } else {
        vec![(0, k(0))]
    };
    let mut incoming = starts;
    incoming.push((latch, var("i2")));
    blocks.push(block(
        "h",
        vec![phi(1, "i", incoming)],
        Term::CondBr {
            cond: bin(BinOp::Lt, var("i"), k(3)),
            then: body,
            els: exit,
        },
    ));
    blocks.push(block(
        "body",
        Vec::new(),
        Term::CondBr {
            cond: d(),
            then: t,
            els: latch,
        },
    ));
    blocks.push(block("t", vec![show(var("i"))], Term::Br(latch)));
    blocks.push(block(
        "latch",
        vec![
            phi(1, "j", vec![(body, k(0)), (t, k(1))]),
            show(bin(BinOp::Add, k(50), var("j"))),
            set(1, "i2", bin(BinOp::Add, var("i"), k(1))),
        ],
        Term::Br(h),
    ));
    blocks.push(block(
        "exit",
        vec![
            phi(1, "r", vec![(h, var("i"))]),
            show(bin(BinOp::Add, k(100), var("r"))),
        ],
        Term::Ret(None),
    ));
    with_phis(blocks)
}

#[test]
fn unswitch_moves_header_values_to_the_preheader_and_maps_the_clone() {
    let m = counted_loop(false);
    let (after, notes) = preserved(&m, "loop-unswitch", &SCENARIOS);
    assert_eq!(
        notes,
        vec!["@k: unswitched the loop at its header on the branch in %body (cloned the loop)"]
    );
    let cfg = &after.functions[0];
    let exit = cfg.block("exit").expect("exit");
    let (h, h_us) = (
        cfg.block("h").expect("h"),
        cfg.block("h.us").expect("clone"),
    );
    // The exit is reached from both copies of the header, with `i`.
    assert_eq!(
        cfg.blocks[exit].insts[0].kind,
        InstKind::Phi {
            name: "r".into(),
            incoming: vec![(h, var("i")), (h_us, var("i"))],
        }
    );
    every_pass_preserves(&m);
}

#[test]
fn unswitch_with_several_entries_puts_a_phi_in_the_preheader() {
    let m = counted_loop(true);
    let (after, notes) = preserved(&m, "loop-unswitch", &SCENARIOS);
    assert_eq!(notes.len(), 1, "{notes:?}");
    let cfg = &after.functions[0];
    let pre = cfg.block("h.us.pre").expect("preheader");
    assert_eq!(
        cfg.blocks[pre].insts[0].kind,
        InstKind::Phi {
            name: "i".into(),
            incoming: vec![(1, k(0)), (2, k(1))],
        }
    );
    let h = cfg.block("h").expect("h");
    let InstKind::Phi { incoming, .. } = &cfg.blocks[h].insts[0].kind else {
        panic!("{}", text(&after));
    };
    assert!(incoming.contains(&(pre, var("i"))), "{incoming:?}");
    every_pass_preserves(&m);
}

#[test]
fn trivial_unswitch_gives_the_exit_value_to_the_preheader() {
    let m = with_phis(vec![
        block("entry", vec![set(1, "i", k(0))], Term::Br(1)),
        block(
            "h",
            Vec::new(),
            Term::CondBr {
                cond: d(),
                then: 2,
                els: 3,
            },
        ),
        block(
            "body",
            vec![show(var("i")), set(1, "i", bin(BinOp::Add, var("i"), k(1)))],
            Term::CondBr {
                cond: bin(BinOp::Lt, var("i"), k(3)),
                then: 1,
                els: 4,
            },
        ),
        block(
            "exit",
            vec![phi(1, "r", vec![(1, k(7))]), show(var("r"))],
            Term::Ret(None),
        ),
        block("done", Vec::new(), Term::Ret(None)),
    ]);
    let (after, notes) = preserved(&m, "loop-unswitch", &SCENARIOS);
    assert_eq!(
        notes,
        vec!["@k: trivially unswitched the loop at %h on the branch in %h"]
    );
    let cfg = &after.functions[0];
    let pre = cfg.block("h.us.pre").expect("preheader");
    assert_eq!(
        cfg.blocks[3].insts[0].kind,
        InstKind::Phi {
            name: "r".into(),
            incoming: vec![(pre, k(7))],
        }
    );
    every_pass_preserves(&m);
}

#[test]
fn a_phi_at_a_divergent_join_is_divergent() {
    let join = |cond: Expr| {
        with_phis(vec![
            block(
                "entry",
                Vec::new(),
                Term::CondBr {
                    cond,
                    then: 1,
                    els: 2,
                },
            ),
            block("then", Vec::new(), Term::Br(3)),
            block("else", Vec::new(), Term::Br(3)),
            block(
                "join",
                vec![phi(1, "x", vec![(1, k(1)), (2, k(2))])],
                Term::Ret(None),
            ),
        ])
    };
    let m = join(c());
    assert!(uniformity::analyse(&m, &m.functions[0])
        .divergent_vars
        .contains("x"));
    let m = join(Expr::Oracle(2));
    assert!(uniformity::analyse(&m, &m.functions[0])
        .divergent_vars
        .is_empty());
}

#[test]
fn a_phi_after_another_instruction_is_refused_by_name() {
    let m = with_phis(vec![
        block("entry", Vec::new(), Term::Br(1)),
        block(
            "late",
            vec![show(k(1)), phi(1, "x", vec![(0, k(2))])],
            Term::Ret(None),
        ),
    ]);
    for pass in PASSES {
        let err = lookup(pass)
            .expect("pass")
            .run(&mut m.clone())
            .expect_err(pass)
            .to_string();
        assert!(
            err.contains("block %late") && err.contains("follows a non-phi instruction"),
            "{pass}: {err}"
        );
    }
}

/// A small deterministic random source (xorshift), so the sweep below
/// needs no generator crate and is the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize].clone()
    }
}

/// A random function of 2 to 7 blocks over the locals `a` and `b`: each
/// block but the entry may start with phis (one value per predecessor),
/// then sets, shows and stores of `h` at a fixed address (so hoist and
/// sink find identical instructions), and ends in a branch on `c`, `d` or
/// a local, a jump or a return.
fn random_module(rng: &mut Rng) -> Module {
    let n = 2 + rng.below(6) as usize;
    let locals = ["a", "b"];
    let value = |rng: &mut Rng| -> Expr {
        match rng.below(3) {
            0 => k(rng.below(4) as i64),
            1 => var(rng.pick(&locals)),
            _ => bin(BinOp::Add, var(rng.pick(&locals)), k(1)),
        }
    };
    let mut blocks: Vec<Block> = (0..n)
        .map(|b| {
            let mut insts = Vec::new();
            for _ in 0..rng.below(4) {
                insts.push(match rng.below(3) {
                    0 => set(1, rng.pick(&locals), value(rng)),
                    1 => show(value(rng)),
                    _ => eval(3, store(3, Space::Global, k(9))),
                });
            }
            let target = |rng: &mut Rng| rng.below(n as u64) as usize;
            let term = match rng.below(5) {
                0 => Term::Ret(None),
                1 => Term::Br(target(rng)),
                2 => Term::CondBr {
                    cond: c(),
                    then: target(rng),
                    els: target(rng),
                },
                3 => Term::CondBr {
                    cond: d(),
                    then: target(rng),
                    els: target(rng),
                },
                _ => Term::CondBr {
                    cond: bin(BinOp::Lt, var(rng.pick(&locals)), k(3)),
                    then: target(rng),
                    els: target(rng),
                },
            };
            block(&format!("b{b}"), insts, term)
        })
        .collect();
    let preds = Cfg {
        name: "k".into(),
        params: Vec::new(),
        param_oracles: Vec::new(),
        blocks: blocks.clone(),
    }
    .preds();
    for (b, block) in blocks.iter_mut().enumerate().skip(1) {
        if preds[b].is_empty() {
            continue;
        }
        let mut phis = Vec::new();
        for _ in 0..rng.below(3) {
            let incoming = preds[b].iter().map(|&p| (p, value(rng))).collect();
            phis.push(phi(1, rng.pick(&locals), incoming));
        }
        block.insts.splice(0..0, phis);
    }
    with_phis(blocks)
}

/// One thread's behaviour within `fuel`, or `None` when the run does not
/// finish in it.
fn behaviour_within(m: &Module, values: &str, fuel: u64) -> Option<Vec<(String, String)>> {
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

#[test]
fn random_functions_with_phis_keep_their_behaviour_under_every_pass() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut changed = std::collections::BTreeMap::<&str, usize>::new();
    let mut tp =
        std::collections::BTreeMap::<&str, (std::time::Duration, std::time::Duration)>::new();
    for case in 0..100 {
        let m = random_module(&mut rng);
        for pass in PASSES {
            let t0 = std::time::Instant::now();
            let mut after = m.clone();
            let notes = lookup(pass)
                .expect("pass")
                .run(&mut after)
                .unwrap_or_else(|e| panic!("case {case}, {pass}: {e}"));
            if !notes.is_empty() {
                *changed.entry(pass).or_default() += 1;
            }
            let t1 = std::time::Instant::now();
            tp.entry(pass).or_default().0 += t1 - t0;
            assert_phis_match_preds(&after);
            for s in SCENARIOS {
                // Runs that do not finish are left out; a pass may add a
                // block to a run (a preheader), hence the larger budget
                // after.
                let Some(before) = behaviour_within(&m, s, 2_000) else {
                    continue;
                };
                assert_eq!(
                    Some(before),
                    behaviour_within(&after, s, 10_000),
                    "case {case}, {pass}, `{s}`; notes {notes:?}\nbefore:\n{}\nafter:\n{}",
                    text(&m),
                    text(&after)
                );
            }
            tp.entry(pass).or_default().1 += t1.elapsed();
        }
    }
    eprintln!("{tp:#?}");
    // The sweep is not vacuous: every pass family rewrote some functions.
    for pass in [
        "simplifycfg",
        "simplifycfg.merge-block",
        "simplifycfg.forward-empty",
        "simplifycfg.hoist",
        "simplifycfg.sink",
        "loop-unswitch",
    ] {
        assert!(changed.get(pass).copied().unwrap_or(0) > 0, "{changed:?}");
    }
}
