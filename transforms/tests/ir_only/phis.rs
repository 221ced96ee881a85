//! One case per phi rule of the passes: merge-block, forward-empty, sink
//! and unswitch keep every phi's values right or leave the spot alone; a
//! phi at a divergent join is divergent; a phi after another instruction
//! is refused by name.

use super::support::*;
use convcheck_ir::exec::EventKind;
use convcheck_ir::{BinOp, Expr, InstKind, Module, OpId, Space, Term};
use convcheck_transforms::{lookup, uniformity};

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
        access: convcheck_ir::Access::ELEMENT,
        value: None,
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
