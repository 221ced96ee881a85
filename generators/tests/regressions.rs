//! Bugs the generators' oracles found, each as a regression test.
//!
//! The bugs are in the model (files this crate does not own). Those fixed
//! are asserted fixed (all of them, today). A bug reported and not fixed
//! yet gets a `fixme_` test that asserts today's wrong behaviour with a
//! FIXME (rust-analyzer's habit: no `#[ignore]`): when a fix lands, the
//! test fails and its assertion is flipped. Each kernel was
//! minimized with `shrink_kernel` (or by libFuzzer) from the input named in
//! its comment.

use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread, Bounds, EventKind, Program};
use convcheck_ir::paths::enumerate;
use convcheck_ir::scenario::{ThreadValues, ValuesSource};
use convcheck_ir::{Block, Cfg, Expr, Term};
use convcheck_lang::exec::SourceProgram;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use std::collections::HashSet;

fn kernel(src: &str) -> Kernel {
    Kernel::parse("regression.c", src).unwrap()
}

/// Found by `kernel_pipeline` on swarm seeds 75, 86, 103, 195 (among
/// others) and by `cargo fuzz run kernel_pipeline`: the CFG of a function
/// that starts with a `switch` began at the switch's first case, so a
/// thread whose value selects no case ran it (thread 1 ran `O1` below).
/// The entry block, empty, was never noted in the emission order and
/// sorted last. Fixed in `cfg/lower.rs`, now `model/lang/src/lower.rs`
/// (the entry and the switch's block are noted); the fuzzer's second
/// input, a switch inside a noconvergent block, is the second kernel.
#[test]
fn a_leading_switch_keeps_the_entry_block() {
    let minimal = "void kernel() {\n  switch (tid) {\n    case 0:\n      ...; // O1\n  }\n}\n";
    let fuzzer = "void kernel() {\n  [[clang::noconvergent]]\n  {\n    switch (s1) {\n      case 0:\n        [[clang::noconvergent]]\n        __syncthreads(); // O1\n    }\n  }\n}\n";
    for (src, values) in [(minimal, ""), (fuzzer, "s1=1")] {
        let k = kernel(src);
        let module = lower(&k, false);
        assert_eq!(module.functions[0].blocks[0].name, "entry");
        let program = CfgProgram::new(module);
        let source = SourceProgram::new(&k).unwrap();
        let values = ThreadValues::parse(values).unwrap();
        let run = |program: &dyn Program| {
            let (trace, res) = run_thread(
                program,
                0,
                1,
                2,
                Bounds::default(),
                &mut ValuesSource(&values),
            );
            assert!(res.is_ok());
            trace.events.iter().filter(|e| e.is_convergent_op()).count()
        };
        // Thread 1 matches no case, at either level.
        assert_eq!(run(&program), 0, "{src}");
        assert_eq!(run(&source), 0, "{src}");
    }
}

/// Found by `kernel_pipeline` on default seed 3: with `--tokens`, a jump to
/// the inner of two labels on a member of an irreducible loop's body
/// bypasses the member's `anchor`, so the controlled operation uses a token
/// that was never defined.
///
/// Cause (`model/src/cfg/lower.rs`, now `model/lang/src/lower.rs`;
/// anchors of implementation-defined members): the anchor went at the start of the member (the outer label's
/// block), but `goto L1` enters the inner label's block after it. Fixed:
/// the anchor now goes in the block of the innermost label, after every
/// label and case that wraps the member's first statement.
#[test]
fn a_goto_to_an_inner_label_passes_the_anchor() {
    let src = "void kernel() {\n  goto L1;\n  while (...) {\n  L2:\n  L1:\n    if (tid < 1) {\n      shuffle(); // O3\n    }\n  }\n}\n";
    let k = kernel(src);
    let program = CfgProgram::new(lower(&k, true));
    let mut values = ThreadValues::default();
    values.0.insert("_L3".into(), vec![0]);
    let (_, res) = run_thread(
        &program,
        0,
        0,
        2,
        Bounds::default(),
        &mut ValuesSource(&values),
    );
    assert_eq!(res, Ok(()));
}

/// Found by `kernel_pipeline` (6 of 2000 kernels): the same bypass in a
/// goto cycle whose label sits under a `case`: after `goto L1` the
/// operation keeps the anchor token of the first execution, so thread 0
/// gets two instances of `O1` with the same key, converged with itself.
/// (`int i4 = 0;` stayed because the shrinking predicate excluded kernels
/// that start with a `switch`, which hit the first bug before its fix.)
#[test]
fn a_backward_goto_under_a_case_renews_the_anchor() {
    let src = "void kernel() {\n  int i4 = 0;\n  switch (tid) {\n    case 0:\n    L1:\n      ...; // O1\n      if (...)\n        goto L1;\n  }\n}\n";
    let k = kernel(src);
    let program = CfgProgram::new(lower(&k, true));
    let bounds = Bounds {
        max_iters: 2,
        ..Bounds::default()
    };
    let set = enumerate(&program, 0, 0, 2, bounds);
    let repeats = set.paths.iter().any(|p| {
        let mut seen = HashSet::new();
        p.trace
            .events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Op { .. }) && !seen.insert(&e.key))
    });
    // Fixed with the bug above: no path repeats a key.
    assert!(!repeats);
    // The source level has no such path.
    let src_set = enumerate(&SourceProgram::new(&k).unwrap(), 0, 0, 2, bounds);
    assert!(src_set.paths.iter().all(|p| {
        let mut seen = HashSet::new();
        p.trace.events.iter().all(|e| seen.insert((e.sid, &e.key)))
    }));
}

/// Found by the `cycles` oracle on CFGs with unreachable blocks: an edge
/// from an unreachable block made its target an entry of the cycle, where
/// LLVM's `GenericCycleInfoCompute::run` ignores unreachable predecessors
/// ("Ignore an unreachable predecessor. It will incorrectly cause Block to
/// be treated as a cycle entry."): the reducible loop {1, 2} below had two
/// entries and was called irreducible. Fixed in `cfg/cycles.rs`, now
/// `model/ir/src/cycles.rs` (`compute_with` counts only reachable
/// predecessors).
#[test]
fn unreachable_predecessors_are_not_cycle_entries() {
    let block = |name: &str, term| Block {
        name: name.into(),
        insts: Vec::new(),
        term,
        origin: None,
    };
    // The condition reads oracle 0; the cycle hierarchy never looks at it.
    let cond = || Expr::Oracle(0);
    // 0 -> 1 -> 2 -> {1, 4}; 3 (unreachable) -> 2.
    let cfg = Cfg {
        name: "f".into(),
        params: Vec::new(),
        param_oracles: Vec::new(),
        blocks: vec![
            block("entry", Term::Br(1)),
            block("header", Term::Br(2)),
            block(
                "latch",
                Term::CondBr {
                    cond: cond(),
                    then: 1,
                    els: 4,
                },
            ),
            block("dead", Term::Br(2)),
            block("exit", Term::Ret(None)),
        ],
    };
    let info = CycleInfo::compute(&cfg);
    assert_eq!(info.cycles.len(), 1);
    assert_eq!(info.cycles[0].entries, vec![1]);
    assert!(info.is_reducible());
    convcheck_generators::oracles::cycle_info(&cfg);
}

/// Found by `cargo fuzz run kernel_pipeline` (the first crash, after about
/// 6,500 runs; the fuzzer's input printed as the first kernel below, the
/// minimized one second): at the source level a backward `goto` to a label
/// on a statement without instructions (`;`, `{ }`) does not restart the
/// next member of the goto cycle when the `goto` is inside that member, so
/// the member's second execution has the key of the first: thread 0 is
/// converged with itself (the `if`'s two instances, and in the minimized
/// kernel the two `O1` instances, get one key).
///
/// Cause (`model/src/exec/compile.rs`, gotos, and `exec::Machine::enter`;
/// now `model/lang/src/exec/compile.rs` and `exec/source.rs`, `enter`):
/// the jump restarts `Scope::Member(label's statement)`, but a label whose
/// statement emits no instruction (`L1: ;`) has the pc of the next member,
/// whose chain holds `Member(next)`, not `Member(label)`; the `goto` is
/// already in `Member(next)`, so nothing was restarted. Fixed: a label's
/// statement now emits a no-op instruction with its own chain
/// (`Op::Nop`), so the `goto` lands in the label's member and restarts it.
#[test]
fn a_goto_to_an_empty_labelled_statement_restarts_its_member() {
    let fuzzer = "void kernel() {\n  ...; // O1\nL1:\n  ;\n  if (c1)\n    goto L1;\n}\n";
    let minimal = "void kernel() {\nL1:\n  ;\n  if (c1) {\n    ...; // O1\n    goto L1;\n  }\n}\n";
    // The second crash of the same target, once the first was skipped: the
    // labelled statement is an empty noconvergent block.
    let fuzzer2 = "void kernel() {\nL1:\n  [[clang::noconvergent]]\n  {\n  }\n  if (uniform(u1))\n    goto L1;\n}\n";
    for (src, kind) in [
        (fuzzer, EventKind::Stmt),
        (minimal, EventKind::Op { args: Vec::new() }),
        (fuzzer2, EventKind::Stmt),
    ] {
        let k = kernel(src);
        let bounds = Bounds {
            max_iters: 2,
            ..Bounds::default()
        };
        let set = enumerate(&SourceProgram::new(&k).unwrap(), 0, 0, 2, bounds);
        let repeats = set.paths.iter().any(|p| {
            let mut seen = HashSet::new();
            p.trace
                .events
                .iter()
                .any(|e| e.kind == kind && !seen.insert((e.sid, &e.key)))
        });
        // A thread never has two instances with one key.
        assert!(!repeats, "{src}");
    }
}
