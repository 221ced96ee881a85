//! The symbolic product on LLVM IR (issue 10: one engine for every IR the
//! front ends produce; `checker/src/llvm/product.rs`): `check A.ll B.ll
//! --engine smt` and `--engine explicit` agree on every function both
//! decide, over the LLVM pairs the repository ships (the narrow-width and
//! loads cases of examples/soundness/llvm, clang's and opt's outputs of
//! plain_kernels.c); the product decides stages itself (not everything
//! falls back) and finds counterexamples the interpreter replays.

mod common;
use common::convcheck;

const PAIRS: &[(&str, &str, &[&str])] = &[
    (
        "examples/soundness/llvm/trunc-src.ll",
        "examples/soundness/llvm/trunc-tgt.ll",
        &[],
    ),
    (
        "examples/soundness/llvm/trunc-hoist.ll",
        "examples/soundness/llvm/trunc-hoist-tgt.ll",
        &[],
    ),
    (
        "examples/soundness/llvm/trunc-tid.ll",
        "examples/soundness/llvm/trunc-tid-tgt.ll",
        &[],
    ),
    (
        "examples/soundness/llvm/w32-src.ll",
        "examples/soundness/llvm/w32-tgt.ll",
        &[],
    ),
    (
        "examples/soundness/llvm/loads-src.ll",
        "examples/soundness/llvm/loads-tgt.ll",
        &[],
    ),
    (
        "model/llvm/tests/data/plain_kernels_O0.ll",
        "model/llvm/tests/data/plain_kernels_O2.ll",
        &["--max-iters", "4"],
    ),
];

/// Per function: (name, verdict, decided by a symbolic engine: the product
/// or the simulation).
fn verdicts(src: &str, tgt: &str, extra: &[&str], engine: &str) -> Vec<(String, String, bool)> {
    let mut args = vec!["check", src, tgt, "--engine", engine, "--format", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = convcheck(&args);
    assert!((0..=3).contains(&code) && code != 2, "{src}: {out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let one = [v.clone()];
    let functions = v["functions"].as_array().map_or(&one[..], |f| &f[..]);
    functions
        .iter()
        .map(|f| {
            let by_product = f["stages"].as_array().is_some_and(|stages| {
                stages.iter().any(|s| {
                    // The symbolic engines: the product, and the
                    // simulation that runs before it under `smt`.
                    s["engine"] == "smt"
                        || s["engine"] == "simulation"
                        || s["notes"].as_array().is_some_and(|n| {
                            n.iter().any(|n| {
                                n.as_str().is_some_and(|n| {
                                    n.starts_with("counterexample found by the symbolic product")
                                })
                            })
                        })
                })
            });
            (
                f["function"].as_str().unwrap_or_default().to_string(),
                f["verdict"].as_str().unwrap_or_default().to_string(),
                by_product,
            )
        })
        .collect()
}

#[test]
fn product_and_explicit_engine_agree_on_llvm_pairs() {
    let (mut compared, mut product_preserved, mut product_violated) = (0, 0, 0);
    for (src, tgt, extra) in PAIRS {
        let explicit = verdicts(src, tgt, extra, "explicit");
        let smt = verdicts(src, tgt, extra, "smt");
        assert_eq!(explicit.len(), smt.len(), "{src}");
        for ((f, e, _), (g, s, by_product)) in explicit.iter().zip(&smt) {
            assert_eq!(f, g, "{src}");
            let decided = |v: &str| v != "inconclusive";
            if decided(e) && decided(s) {
                compared += 1;
                assert_eq!(
                    e == "violated",
                    s == "violated",
                    "{src} @{f}: explicit {e}, smt {s}"
                );
                if *by_product {
                    if s == "violated" {
                        product_violated += 1;
                    } else {
                        product_preserved += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "compared {compared}, decided by the product: {product_preserved} preserved, {product_violated} violated"
    );
    assert!(compared >= 12, "{compared}");
    // Pairs whose branches are inverted are proved by the structural rule
    // since it orients conditions one way (docs/src/proofs.md), before any
    // engine: fewer pairs are left for the product to decide.
    assert!(product_preserved >= 2, "{product_preserved}");
    assert!(product_violated >= 3, "{product_violated}");
}

/// The product's own verdict on a stage names the product in the text
/// report, with its bound line.
#[test]
fn a_stage_the_product_decides_says_so() {
    let (code, out, err) = convcheck(&[
        "check",
        "checker/tests/pairs/barrier_read.ll",
        "checker/tests/pairs/barrier_read_sub.ll",
        "--function",
        // Not `plain_kernels`: the simulation engine proves every function
        // of it before the product runs; it refuses a load after a barrier.
        "k",
        "--engine",
        "smt",
        "--max-iters",
        "4",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("preserved (within max-iters=4, symbolic product)"),
        "{out}"
    );
    assert!(
        out.contains("symbolic product (two symbolic threads"),
        "{out}"
    );
    assert!(
        out.contains("max-iters=4 per cycle of the reference"),
        "{out}"
    );
    // No stage used the explicit engine: its bound lines are not shown.
    assert!(!out.contains("pairs examined"), "{out}");
}

/// The functions of one file share `--timeout`: a slow first function
/// stops at its share and says so, and the next one still gets its
/// verdict (before, the first used the whole budget).
#[test]
fn the_functions_of_a_file_share_the_time_budget() {
    let (code, out, err) = convcheck(&[
        "check",
        "examples/soundness/llvm/share-src.ll",
        "examples/soundness/llvm/share-tgt.ll",
        "--timeout",
        "4",
        // The simulation engine proves `slow` for every iteration count
        // at once; the budget shared by the bounded engine is what this
        // test is about.
        "--engine",
        "explicit",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("@slow: inconclusive"), "{out}");
    assert!(out.contains("@fast: preserved"), "{out}");
    assert!(
        out.contains("this function's share of the time budget: 2 s of 4 s"),
        "{out}"
    );
    // The report lists the check's budget, not the share.
    assert!(out.contains("budgets: time 4 s"), "{out}");
}

/// z3's memory is budgeted too (`--max-solver-memory`, default
/// `convcheck_smt::product::Z3_MEMORY_MB`): past it a stage is
/// inconclusive with the budget named, exit 3, for kernels and LLVM IR;
/// out of range it is a usage error.
#[test]
fn the_solver_memory_budget_ends_a_stage_inconclusive() {
    let (code, out, err) = convcheck(&[
        "check",
        "examples/seed/ambiguity-source.c",
        "--function",
        "loop_continue",
        "--pass",
        "simplifycfg",
        "--engine",
        "smt",
        "--max-solver-memory",
        "1",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("inconclusive: smt: memory budget: z3 reached 1 MiB (--max-solver-memory)"),
        "{out}"
    );
    let (code, out, err) = convcheck(&[
        "check",
        "model/llvm/tests/data/plain_kernels_O0.ll",
        "model/llvm/tests/data/plain_kernels_O2.ll",
        "--function",
        "loop_nest",
        "--engine",
        "smt",
        "--max-solver-memory",
        "1",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("smt: memory budget: z3 reached 1 MiB"),
        "{out}"
    );
    for bad in ["0", "4096"] {
        let (code, _, err) = convcheck(&[
            "check",
            "examples/seed/ambiguity-source.c",
            "--pass",
            "simplifycfg",
            "--max-solver-memory",
            bad,
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--max-solver-memory"), "{err}");
    }
}
