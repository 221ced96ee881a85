//! The SimplifyCFG steps, loop unswitching and the uniformity analysis on
//! their own: what each rewrites (or refuses), checked on the CFG, apart
//! from the checker's verdicts (those are in the corpus). Kernels are
//! parsed and lowered with `convcheck-lang` (a dev-dependency only); the
//! passes see the lowered module alone.

use convcheck_ir::Module;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_transforms::{lookup, uniformity};

fn kernel(src: &str) -> Kernel {
    Kernel::parse("t.c", src).unwrap_or_else(|d| panic!("{d}"))
}

fn run(k: &Kernel, pass: &str) -> (Module, Vec<String>) {
    let mut m = lower(k, false);
    let notes = lookup(pass).expect("pass").run(&mut m).expect("runs");
    (m, notes)
}

#[test]
fn uniformity_sources_and_propagation() {
    let k = kernel(
        "void k(int n) {\n  int a = n;\n  int b = tid;\n  int c = 0;\n  if (tid < 2) {\n    c = 1;\n  }\n  if (uniform(u)) {\n    ... // U\n  }\n  if (a) {\n    ... // A\n  }\n  if (b) {\n    ... // B\n  }\n  if (c) {\n    ... // C\n  }\n  if (v) {\n    ... // V\n  }\n}\n",
    );
    let m = lower(&k, false);
    let cfg = &m.functions[0];
    let u = uniformity::analyse(&m, cfg);
    // a comes from a kernel argument; b from tid; c is assigned under a
    // divergent branch (sync dependence).
    assert!(!u.divergent_vars.contains("a"));
    assert!(u.divergent_vars.contains("b"));
    assert!(u.divergent_vars.contains("c"));
    let branch_of = |label: &str| {
        cfg.blocks
            .iter()
            .position(|b| {
                b.term
                    .succs()
                    .iter()
                    .any(|&s| cfg.blocks[s].insts.iter().any(|i| m.label(i.sid) == label))
            })
            .expect("branch")
    };
    assert!(!u.is_divergent_branch(branch_of("U")));
    assert!(!u.is_divergent_branch(branch_of("A")));
    assert!(u.is_divergent_branch(branch_of("B")));
    assert!(u.is_divergent_branch(branch_of("C")));
    assert!(u.is_divergent_branch(branch_of("V")));
}

#[test]
fn temporal_divergence_makes_loop_values_divergent() {
    let k = kernel("void k() {\n  int x = 0;\n  while (c) {\n    x = x + 1;\n  }\n  if (x) { ... // X\n  }\n}\n");
    let m = lower(&k, false);
    let u = uniformity::analyse(&m, &m.functions[0]);
    assert!(u.divergent_vars.contains("x"));
}

#[test]
fn merge_block_and_forward_empty() {
    let k = kernel("void k() {\n  ... // A\nnext:\n  ... // B\n}\n");
    let before = lower(&k, false).functions[0].blocks.len();
    let (m, notes) = run(&k, "simplifycfg.merge-block");
    assert!(notes.iter().any(|n| n.contains("merged")), "{notes:?}");
    assert!(m.functions[0].blocks.len() < before);
    // keep-loops keeps an empty loop header; the late run folds it.
    let nest = kernel("void k() {\n  do {\n    do {\n      ... // B\n    } while (c1);\n    ... // C\n  } while (c2);\n}\n");
    let (_, kept) = run(&nest, "simplifycfg.forward-empty<keep-loops>");
    assert!(!kept.iter().any(|n| n.contains("%do.body to")), "{kept:?}");
    let (_, folded) = run(&nest, "simplifycfg.forward-empty");
    assert!(
        folded
            .iter()
            .any(|n| n.contains("forwarded empty %do.body")),
        "{folded:?}"
    );
}

#[test]
fn hoist_and_sink_refuse_divergent_convergent_moves() {
    let div = kernel("void k() {\n  if (c) {\n    ballot();\n    ... // T\n  } else {\n    ballot();\n    ... // E\n  }\n}\n");
    assert!(run(&div, "simplifycfg.hoist").1.is_empty());
    assert_eq!(run(&div, "simplifycfg.hoist.unsafe").1.len(), 1);
    let uni = kernel("void k() {\n  if (uniform(c)) {\n    ballot();\n    ... // T\n  } else {\n    ballot();\n    ... // E\n  }\n}\n");
    assert_eq!(run(&uni, "simplifycfg.hoist").1.len(), 1);
    // Differently named operations are not identical, even if the call is.
    let named = kernel("void k() {\n  if (uniform(c)) {\n    ballot(); // X\n  } else {\n    ballot(); // Y\n  }\n}\n");
    assert!(run(&named, "simplifycfg.hoist").1.is_empty());
    let sink = kernel("void k() {\n  if (c) {\n    ... // T\n    ballot();\n  } else {\n    ... // E\n    ballot();\n  }\n}\n");
    assert!(run(&sink, "simplifycfg.sink").1.is_empty());
    assert_eq!(run(&sink, "simplifycfg.sink.unsafe").1.len(), 1);
}

#[test]
fn unswitch_only_when_allowed() {
    let div = kernel("void k() {\n  while (c) {\n    ... // L\n    if (invariant(d)) {\n      ... // T\n    }\n  }\n}\n");
    assert!(run(&div, "loop-unswitch").1.is_empty());
    let (m, notes) = run(&div, "loop-unswitch.unsafe");
    assert!(
        notes.iter().any(|n| n.contains("cloned the loop")),
        "{notes:?}"
    );
    assert!(m.functions[0]
        .blocks
        .iter()
        .any(|b| b.name.ends_with(".us")));
    // Varying conditions are not loop-invariant: never unswitched.
    let var = kernel("void k() {\n  while (c) {\n    if (d) {\n      ... // T\n    }\n  }\n}\n");
    assert!(run(&var, "loop-unswitch.unsafe").1.is_empty());
    // A kernel argument is uniform and invariant: unswitched by the safe pass.
    let uni = kernel("void k(int f) {\n  while (c) {\n    ... // L\n    if (f) {\n      ... // T\n    }\n  }\n}\n");
    assert!(!run(&uni, "loop-unswitch").1.is_empty());
}
