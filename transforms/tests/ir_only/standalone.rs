//! A module written by hand goes through `simplifycfg` and `branch-dist`,
//! which read everything they need (labels, lines, call kinds, oracle
//! classes, the module's name) from the module itself.

use super::support::*;
use convcheck_ir::{
    BarrierKind, CallKind, Expr, InstKind, Module, OpId, OpKind, OracleClass, Space, Term,
};
use convcheck_transforms::lookup;

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
