//! The symbolic refinement engine (`convcheck_smt::product`, DESIGN.md
//! 2.5 use 2) on the seed's examples and the classes of counterexample a
//! 0/1 checker misses: the loop_nest / simplifycfg violation, the
//! keep-loops variant and the identity proved by structure (and where that
//! proof must not apply), a hoist out of `if (v == 2)` (integer
//! values) and out of `if (tid == 2)` (thread ids), and what the engine
//! refuses (tokens, barrier removal, recursion) or cannot decide (a bound
//! that cuts every run).
//!
//! Every counterexample the engine returns was already replayed by the
//! interpreter inside `compare`; the tests replay it once more from its
//! scenario alone, and fail loudly on an internal `Unknown`.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread, Bounds};
use convcheck_ir::scenario::ValuesSource;
use convcheck_ir::{FuncId, Module};
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_smt::product::{
    compare, hunt_at, Counterexample, Preserved, ProductOptions, Proof, Property, WorkAccount,
};
use convcheck_smt::{Answer, Limit};
use std::time::Duration;

/// A kernel's module (lowered without tokens unless asked) and the id of
/// function `f`.
fn lowered(src: &str, f: &str, tokens: bool) -> (Module, FuncId) {
    let k = Kernel::parse("test.c", src).unwrap_or_else(|d| panic!("{d}"));
    let m = lower(&k, tokens);
    let id = m.function(f).expect("function exists");
    (m, id)
}

fn example(rel: &str) -> String {
    let path = format!("{}/../../examples/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).expect("example exists")
}

fn opts(max_iters: u32) -> ProductOptions {
    ProductOptions {
        max_iters,
        timeout: Duration::from_secs(120),
        ..ProductOptions::default()
    }
}

/// Runs `pass` on `f` of `src` and compares the result with the input.
fn check_pass(
    src: &str,
    f: &str,
    pass: &str,
    o: &ProductOptions,
) -> Answer<Preserved, Counterexample> {
    let (m, id) = lowered(src, f, false);
    let mut t = m.clone();
    let p = convcheck_transforms::lookup(pass).unwrap_or_else(|e| panic!("{e:?}"));
    p.run(&mut t).unwrap_or_else(|e| panic!("{e:?}"));
    compare(&CfgProgram::new(m), &CfgProgram::new(t), id, o)
}

/// The counterexample, after replaying it from its scenario alone: the
/// reference and the target runs of its threads are the ones it reports.
fn violated(
    a: Answer<Preserved, Counterexample>,
    reference: &CfgProgram,
    target: &CfgProgram,
    entry: FuncId,
) -> Counterexample {
    let c = match a {
        Answer::Counterexample(c) => c,
        Answer::Proved(p) => panic!("expected a counterexample, got preserved: {p:?}"),
        Answer::Unknown(why) => panic!("expected a counterexample, got unknown: {why}"),
    };
    let scenario = c.scenario();
    assert_eq!(scenario.threads.len(), c.group as usize);
    for (i, &tid) in c.tids.iter().enumerate() {
        let values = &scenario.threads[tid as usize];
        assert_eq!(values, &c.threads[i]);
        for (program, expected) in [(reference, &c.reference[i]), (target, &c.target[i])] {
            let bounds = Bounds {
                max_iters: u32::MAX,
                fuel: 1_000_000,
                ..Bounds::default()
            };
            let (trace, res) = run_thread(
                program,
                entry,
                tid,
                c.group,
                bounds,
                &mut ValuesSource(values),
            );
            assert!(res.is_ok(), "{res:?}");
            assert_eq!(
                trace.events, expected.events,
                "the replay of tid {tid} differs"
            );
        }
    }
    c
}

fn preserved(a: Answer<Preserved, Counterexample>) -> Preserved {
    match a {
        Answer::Proved(p) => p,
        Answer::Counterexample(c) => {
            panic!("expected preserved, got a counterexample: {}", c.message)
        }
        Answer::Unknown(why) => panic!("expected preserved, got unknown: {why}"),
    }
}

fn pass_programs(src: &str, f: &str, pass: &str) -> (CfgProgram, CfgProgram, FuncId) {
    let (m, id) = lowered(src, f, false);
    let mut t = m.clone();
    convcheck_transforms::lookup(pass)
        .expect("pass")
        .run(&mut t)
        .expect("pass runs");
    (CfgProgram::new(m), CfgProgram::new(t), id)
}

/// The identity is proved by structure: for every iteration count, with
/// no bound and nothing unrolled.
#[test]
fn the_identity_is_proved_for_every_iteration_count() {
    let src = example("seed/ambiguity-source.c");
    for f in ["loop_nest", "loop_continue"] {
        let (m, id) = lowered(&src, f, false);
        let p = CfgProgram::new(m);
        let r = preserved(compare(&p, &p, id, &opts(3)));
        assert!(matches!(r.proof, Proof::Structure { .. }), "{f}: {r:?}");
        assert_eq!(r.copies, [0, 0]);
    }
}

/// Block names and order do not matter to the structural proof.
#[test]
fn reordered_blocks_are_proved() {
    let src = example("seed/ambiguity-source.c");
    let (m, id) = lowered(&src, "loop_nest", false);
    let mut t = m.clone();
    let cfg = &mut t.functions[id];
    let n = cfg.blocks.len();
    // Block 0 stays the entry; the others are numbered backwards.
    let new = |b: usize| if b == 0 { 0 } else { n - b };
    let mut blocks = cfg.blocks.clone();
    for (b, block) in cfg.blocks.iter().enumerate() {
        let mut block = block.clone();
        block.term.map_succs(new);
        block.name = format!("renamed{b}");
        blocks[new(b)] = block;
    }
    cfg.blocks = blocks;
    let r = preserved(compare(
        &CfgProgram::new(m),
        &CfgProgram::new(t),
        id,
        &opts(3),
    ));
    assert!(matches!(r.proof, Proof::Structure { .. }), "{r:?}");
}

/// Where the structural rule must not apply: passes that fold a loop
/// header (the seed's loop_nest under `simplifycfg` and its
/// `forward-empty` step) or hoist a convergent operation are decided by
/// the bounded search, and it finds their counterexamples.
#[test]
fn the_structural_proof_does_not_apply_to_folded_loops_or_hoists() {
    let src = example("seed/ambiguity-source.c");
    for pass in ["simplifycfg", "simplifycfg.forward-empty"] {
        let (r, t, id) = pass_programs(&src, "loop_nest", pass);
        let c = violated(compare(&r, &t, id, &opts(3)), &r, &t, id);
        assert_eq!(c.property, Property::Convergence, "{pass}: {}", c.message);
    }
    let hoist = example("corpus/hoist-divergent.c");
    let (r, t, id) = pass_programs(&hoist, "k", "simplifycfg.hoist.unsafe");
    violated(compare(&r, &t, id, &opts(2)), &r, &t, id);
    // A safe pass that changes more than straight-line blocks is
    // preserved within bounds, not proved: the bound is named.
    let (r, t, id) = pass_programs(&src, "loop_continue", "simplifycfg");
    let p = preserved(compare(&r, &t, id, &opts(3)));
    assert!(!matches!(p.proof, Proof::Structure { .. }), "{p:?}");
    let cut = p.cut.expect("the loops can run past the bound");
    assert!(cut.contains("max-iters=3"), "{cut}");
}

#[test]
fn loop_nest_under_simplifycfg_is_violated() {
    let src = example("seed/ambiguity-source.c");
    let (r, t, id) = pass_programs(&src, "loop_nest", "simplifycfg");
    let c = violated(compare(&r, &t, id, &opts(8)), &r, &t, id);
    assert_eq!(c.property, Property::Convergence, "{}", c.message);
    assert!(c.message.contains("in the reference but"), "{}", c.message);
}

/// `keep-loops` only merges straight-line blocks in this function: proved
/// for every iteration count.
#[test]
fn loop_nest_under_simplifycfg_keep_loops_is_proved() {
    let src = example("seed/ambiguity-source.c");
    let a = check_pass(&src, "loop_nest", "simplifycfg<keep-loops>", &opts(8));
    let p = preserved(a);
    assert!(
        matches!(p.proof, Proof::Structure { merged } if merged > 0),
        "{p:?}"
    );
}

#[test]
fn loop_continue_under_simplifycfg_is_preserved() {
    let src = example("seed/ambiguity-source.c");
    preserved(check_pass(&src, "loop_continue", "simplifycfg", &opts(4)));
}

#[test]
fn hoisting_out_of_a_divergent_branch_is_caught_and_the_safe_hoist_is_not() {
    let src = example("corpus/hoist-divergent.c");
    let (r, t, id) = pass_programs(&src, "k", "simplifycfg.hoist.unsafe");
    let c = violated(compare(&r, &t, id, &opts(4)), &r, &t, id);
    assert_eq!(c.property, Property::Convergence);
    assert_eq!(c.group, 2, "the smallest group is preferred");
    preserved(check_pass(&src, "k", "simplifycfg.hoist", &opts(4)));
    // Under a uniform condition every thread takes the same arm.
    let uniform = example("corpus/hoist-uniform.c");
    preserved(check_pass(
        &uniform,
        "k",
        "simplifycfg.hoist.unsafe",
        &opts(4),
    ));
}

/// A checker that tries only 0 and 1 for `v` sends both threads into the
/// same arm of `if (v == 2)` and misses this.
#[test]
fn hoisting_out_of_if_v_equals_2_is_violated() {
    let src = "void k() {\n  ... // A\n  if (v == 2) {\n    ballot();\n    ... // T\n  } else {\n    ballot();\n    ... // E\n  }\n  ... // D\n}\n";
    let (r, t, id) = pass_programs(src, "k", "simplifycfg.hoist.unsafe");
    let c = violated(compare(&r, &t, id, &opts(2)), &r, &t, id);
    assert_eq!(c.property, Property::Convergence);
    let v: Vec<i64> = c.threads.iter().map(|t| t.0["v"][0]).collect();
    assert!(v.contains(&2) && v.iter().any(|x| *x != 2), "{v:?}");
}

/// Only thread 2 takes the branch: the group must have at least three
/// threads, and the engine finds one.
#[test]
fn hoisting_out_of_if_tid_equals_2_is_violated() {
    let src = "void k() {\n  ... // A\n  if (tid == 2) {\n    ballot();\n    ... // T\n  } else {\n    ballot();\n    ... // E\n  }\n  ... // D\n}\n";
    let (r, t, id) = pass_programs(src, "k", "simplifycfg.hoist.unsafe");
    let c = violated(compare(&r, &t, id, &opts(2)), &r, &t, id);
    assert_eq!(c.property, Property::Convergence);
    assert!(c.tids.contains(&2), "{:?}", c.tids);
    assert!(c.group >= 3);
    // With a group of two threads there is no thread 2.
    let two = ProductOptions {
        group: Some(2),
        ..opts(2)
    };
    preserved(compare(&r, &t, id, &two));
}

#[test]
fn a_changed_event_is_a_single_thread_difference() {
    let a = "void k() {\n  ... // A\n  if (c) {\n    ... // B\n  }\n}\n";
    let b = "void k() {\n  ... // A\n  if (c) {\n    ... // C\n  }\n}\n";
    let (ma, id) = lowered(a, "k", false);
    let (mb, _) = lowered(b, "k", false);
    let (r, t) = (CfgProgram::new(ma), CfgProgram::new(mb));
    let c = violated(compare(&r, &t, id, &opts(2)), &r, &t, id);
    assert_eq!(c.property, Property::SingleThreadBehaviour);
    assert_eq!(c.tids.len(), 1);
    assert!(
        c.message.contains("`B` in the reference but `C`"),
        "{}",
        c.message
    );
}

/// Tokens placed from the source keep the seed's divergent exit keyed by
/// the iteration the thread left in (`C` uses the loop's heart in the
/// exit block); the plain CFG converges the threads there. The engine
/// finds that difference both ways, and each counterexample replays on
/// the interpreter's token semantics.
#[test]
fn tokens_key_the_divergent_exit_by_its_iteration() {
    let src = example("seed/divergent-exit-source.c");
    let (mt, id) = lowered(&src, "loop_continue", true);
    let (mp, _) = lowered(&src, "loop_continue", false);
    let (t, p) = (CfgProgram::new(mt), CfgProgram::new(mp));
    for (r, g) in [(&t, &p), (&p, &t)] {
        let c = violated(compare(r, g, id, &opts(2)), r, g, id);
        assert_eq!(c.property, Property::Convergence, "{}", c.message);
    }
    // The token CFG against itself is proved, with or without its tokens
    // aligned with the cycles.
    let same = preserved(compare(&t, &t, id, &opts(2)));
    assert!(matches!(same.proof, Proof::Structure { .. }), "{same:?}");
}

/// In the seed's loop nest every operation uses the heart of its own
/// loop: the tokens are aligned, erased, and the token CFG is proved equal
/// to the plain one for every iteration count.
#[test]
fn aligned_tokens_are_maximal_convergence() {
    let src = example("seed/ambiguity-source.c");
    let (mt, id) = lowered(&src, "loop_nest", true);
    let (mp, _) = lowered(&src, "loop_nest", false);
    let (t, p) = (CfgProgram::new(mt), CfgProgram::new(mp));
    let proof = preserved(compare(&t, &p, id, &opts(2)));
    assert!(matches!(proof.proof, Proof::Structure { .. }), "{proof:?}");
}

/// Anchors (implementation-defined regions) are not modelled.
#[test]
fn anchors_are_unknown() {
    let src = example("seed/backwards-goto.c");
    let k = Kernel::parse("backwards-goto.c", &src).unwrap_or_else(|d| panic!("{d}"));
    let m = lower(&k, true);
    let has_anchor = m.functions.iter().any(|f| {
        f.blocks.iter().any(|b| {
            b.insts.iter().any(|i| {
                matches!(
                    i.kind,
                    convcheck_ir::InstKind::Token {
                        kind: convcheck_ir::TokenKind::Anchor,
                        ..
                    }
                )
            })
        })
    });
    assert!(has_anchor, "backwards-goto.c lowers with an anchor");
    let id = k.entry(None).expect("one entry");
    let p = CfgProgram::new(m);
    match compare(&p, &p, id, &opts(2)) {
        Answer::Unknown(why) => {
            assert!(why.why.contains("anchor"), "{why}");
            assert_eq!(why.limit, Limit::Unsupported);
        }
        other => panic!("expected unknown, got {other:?}"),
    }
}

/// Under a barrier-removal allowance, plain barriers are judged by the
/// hazards they leave, which the query does not encode: a target that
/// differs from the reference only in a plain barrier is `Unknown` (the
/// explicit engine judges it), and a target that keeps its barriers is
/// decided. Without the allowance the missing barrier is a change.
#[test]
fn a_removed_plain_barrier_is_left_to_the_hazards_under_the_allowance() {
    let src = "void k() {\n  shared[tid] = 1;\n  __syncthreads();\n  int x = shared[tid + 1];\n}\n";
    let tgt = "void k() {\n  shared[tid] = 1;\n  int x = shared[tid + 1];\n}\n";
    let (m, id) = lowered(src, "k", false);
    let (mt, _) = lowered(tgt, "k", false);
    let (p, q) = (CfgProgram::new(m), CfgProgram::new(mt));
    for allow in [false, true] {
        let o = ProductOptions {
            allow_barrier_removal: allow,
            ..opts(2)
        };
        match compare(&p, &q, id, &o) {
            Answer::Unknown(why) if allow => {
                assert!(
                    why.why.contains("judged by the hazards they leave"),
                    "{why}"
                );
                assert_eq!(why.limit, Limit::Unsupported);
            }
            Answer::Counterexample(_) if !allow => {}
            other => panic!("allow {allow}: got {other:?}"),
        }
        preserved(compare(&p, &p, id, &o));
    }
}

#[test]
fn a_bound_that_cuts_every_run_is_unknown_not_preserved() {
    let src = "void k() {\n  for (int i = 0; i < 10; i++) {\n    ... // B\n  }\n}\n";
    // The same loop with one more local: not the same program block for
    // block, so the bounded search decides it.
    let tgt = "void k() {\n  int z = 1;\n  for (int i = 0; i < 10; i++) {\n    ... // B\n  }\n}\n";
    let (m, id) = lowered(src, "k", false);
    let (mt, _) = lowered(tgt, "k", false);
    let (p, q) = (CfgProgram::new(m), CfgProgram::new(mt));
    match compare(&p, &q, id, &opts(3)) {
        Answer::Unknown(why) => {
            assert!(why.why.contains("no scenario within bounds"), "{why}");
            assert_eq!(why.limit, Limit::Size);
        }
        other => panic!("expected unknown, got {other:?}"),
    }
    let r = preserved(compare(&p, &q, id, &opts(10)));
    assert!(!matches!(r.proof, Proof::Structure { .. }));
    // The identity is proved by structure whatever the bound: the claim
    // is about every iteration count, so a bound that cuts every run does
    // not make it vacuous.
    assert!(matches!(
        preserved(compare(&p, &p, id, &opts(3))).proof,
        Proof::Structure { .. }
    ));
}

#[test]
fn a_tiny_timeout_is_unknown() {
    let src = example("seed/ambiguity-source.c");
    let (r, t, id) = pass_programs(&src, "loop_continue", "simplifycfg");
    let o = ProductOptions {
        timeout: Duration::from_millis(1),
        ..opts(16)
    };
    match compare(&r, &t, id, &o) {
        Answer::Unknown(why) => {
            assert!(matches!(why.limit, Limit::Time | Limit::Canceled), "{why}")
        }
        other => panic!("expected unknown, got {other:?}"),
    }
}

/// The encoding polls the deadline: a budget that runs out while the
/// unrolled programs are encoded ends the answer there, named, instead of
/// after the whole formula is built (`hoist_inner_loop4` of LLVM's
/// `nontrivial-unswitch.ll` took 8.8 s under `--timeout 2`, all of it
/// building the max-iters 8 formula).
#[test]
fn a_budget_spent_while_encoding_names_the_encoding() {
    let src = example("seed/ambiguity-source.c");
    let (r, t, id) = pass_programs(&src, "loop_nest", "simplifycfg");
    let o = ProductOptions {
        timeout: Duration::ZERO,
        ..opts(8)
    };
    match compare(&r, &t, id, &o) {
        Answer::Unknown(why) => {
            assert_eq!(why.limit, Limit::Time, "{why}");
            assert!(
                why.to_string()
                    .contains("ran out while encoding the unrolled programs (max-iters=8"),
                "{why}"
            );
        }
        other => panic!("expected unknown, got {other:?}"),
    }
}

/// The search alone (`hunt_at`, what the default engine runs on values
/// the explicit engine left untried) finds the counterexample `compare`
/// finds (it skips the search at max-iters 2),
/// and answers `Unknown`, never `Proved`, where there is none; a search
/// that its work budget stops is a cut (`Limit::Size`, naming the budget),
/// never "no counterexample found", and with the same budget it stops the
/// same way every time, having spent the same units of z3's work.
#[test]
fn the_search_alone_finds_counterexamples_and_proves_nothing() {
    let src = example("seed/ambiguity-source.c");
    let (r, t, id) = pass_programs(&src, "loop_nest", "simplifycfg");
    let c = violated(hunt_at(&r, &t, [id, id], &opts(8), &work(0)), &r, &t, id);
    assert_eq!(c.property, Property::Convergence, "{}", c.message);
    let c = violated(
        hunt_at(&r, &t, [id, id], &opts(8), &work(20_000_000)),
        &r,
        &t,
        id,
    );
    assert_eq!(c.property, Property::Convergence, "{}", c.message);
    let (r, t, id) = pass_programs(&src, "loop_continue", "simplifycfg");
    let all = work(0);
    match hunt_at(&r, &t, [id, id], &opts(4), &all) {
        Answer::Unknown(why) => {
            assert!(why.to_string().contains("no counterexample found"), "{why}")
        }
        other => panic!("expected unknown, got {other:?}"),
    }
    assert!(
        all.spent() > 1_000,
        "the whole search: {} units",
        all.spent()
    );
    let mut spent = Vec::new();
    for _ in 0..2 {
        let cut = work(1_000);
        match hunt_at(&r, &t, [id, id], &opts(4), &cut) {
            Answer::Unknown(why) => {
                assert_eq!(why.limit, convcheck_smt::Limit::Size, "{why}");
                assert!(
                    why.to_string()
                        .contains("more than 1000 units of z3's work"),
                    "{why}"
                );
            }
            other => panic!("expected a cut search, got {other:?}"),
        }
        spent.push(cut.spent());
    }
    assert_eq!(spent[0], spent[1], "the same budget spent the same way");
    // A budget the whole search fits in is not a cut.
    let enough = work(all.spent() * 2);
    match hunt_at(&r, &t, [id, id], &opts(4), &enough) {
        Answer::Unknown(why) => {
            assert!(why.to_string().contains("no counterexample found"), "{why}")
        }
        other => panic!("expected unknown, got {other:?}"),
    }
}

/// A budget of z3's work for a whole search (`hunt_at`).
fn work(units: u64) -> WorkAccount {
    WorkAccount::new(units)
}
