//! Deduplication of `convcheck fuzz --opt` findings (issue 25,
//! `checker/src/fuzz/dedup.rs`, docs/src/fuzzing.md "Deduplication"): the
//! shape drops conditions, names and assignments but keeps control
//! structure, the loop nest keeps only the loops; violations group by
//! blamed pass, property and loop nest, listing their shapes; and through
//! the real binary, clang-19 and opt-19, programs with the same
//! SimplifyCFG bug (in two shapes) are one distinct finding while a
//! program broken by another pass stays apart. Tests that need the tools print why they skip
//! when they are absent.

mod common;
use common::{convcheck, have};
use convcheck::fuzz::dedup::{distinct, loop_nest, shape, Key};
use serde_json::Value;
use std::path::PathBuf;

fn parse(text: &str) -> convcheck_lang::syntax::ast::File {
    convcheck_lang::syntax::parse("t.c", text).expect("parses")
}

#[test]
fn shape_drops_conditions_names_and_assignments() {
    let a = parse("void kernel() { do { do { } while (c2); ...; } while (c1); }");
    let b = parse(
        "void kernel() { int x = 0; do { do { x = 1; } while (!c7); ...; } while (c3 && tid < 1); }",
    );
    assert_eq!(shape(&a), "kernel{do(do() op)}");
    assert_eq!(shape(&a), shape(&b));
    // Another loop kind, another order: another shape.
    let c = parse("void kernel() { while (c1) { do { } while (c2); ...; } }");
    let d = parse("void kernel() { do { ...; do { } while (c2); } while (c1); }");
    assert_ne!(shape(&a), shape(&c));
    assert_ne!(shape(&a), shape(&d));
}

#[test]
fn shape_tells_loop_bounds_operations_and_functions_apart() {
    let tid = parse("void kernel() { for (i1 = 0; i1 < tid + 1; i1 += 1) { ...; } }");
    let k = parse("void kernel() { for (i1 = 0; i1 < 1; i1 += 1) { __syncthreads(); } }");
    assert_eq!(shape(&tid), "kernel{for-tid(op)}");
    assert_eq!(shape(&k), "kernel{for-k(call)}");
    let f = parse(
        "void h1() { if (c1) { shared[tid] = 1; } else { ...; } }\nvoid kernel() { h1(); switch (s1) { case 0: break; } }",
    );
    assert_eq!(
        shape(&f),
        "h1{if(mem)else(op)} kernel{call switch(case: break)}"
    );
}

#[test]
fn loop_nests_keep_only_loops() {
    let a = parse("void kernel() { do { do { } while (c2); ...; } while (c1); }");
    let b = parse("void kernel() { for (;;) { for (;;) { ...; if (c2) break; } if (c1) break; } }");
    let c = parse("void kernel() { if (c1) { while (c2) { ...; } } ...; while (c3) { } }");
    assert_eq!(loop_nest(&a), "kernel{loop(loop())}");
    assert_eq!(loop_nest(&a), loop_nest(&b));
    assert_ne!(shape(&a), shape(&b));
    assert_eq!(loop_nest(&c), "kernel{loop() loop()}");
    let d = parse("void h1() { ...; }\nvoid kernel() { h1(); }");
    assert_eq!(loop_nest(&d), "h1{} kernel{}");
}

#[test]
fn violations_group_by_pass_property_and_loop_nest() {
    let key = |pass: &str, property: &str, nest: &str, shape: &str| Key {
        pass: pass.into(),
        property: property.into(),
        nest: nest.into(),
        shape: shape.into(),
    };
    let nest = "kernel{loop(loop())}";
    let a = key(
        "SimplifyCFGPass",
        "convergence",
        nest,
        "kernel{do(do() op)}",
    );
    let a2 = key(
        "SimplifyCFGPass",
        "convergence",
        nest,
        "kernel{while(for...() op)}",
    );
    let other_pass = key("LICMPass", "convergence", nest, "kernel{do(do() op)}");
    let other_property = key("SimplifyCFGPass", "hazards", nest, "kernel{do(do() op)}");
    let other_nest = key(
        "SimplifyCFGPass",
        "convergence",
        "kernel{loop()}",
        "kernel{while(op)}",
    );
    let run = [
        (3, &a),
        (5, &other_pass),
        (7, &a2),
        (9, &other_nest),
        (11, &other_property),
        (13, &a),
    ];
    let d = distinct(run);
    assert_eq!(d.len(), 4, "{d:?}");
    assert_eq!(
        (d[0].pass.as_str(), d[0].count, d[0].first_program),
        ("SimplifyCFGPass", 3, 3)
    );
    assert_eq!(d[0].programs, vec![3, 7, 13]);
    assert_eq!(
        d[0].shapes,
        vec!["kernel{do(do() op)}", "kernel{while(for...() op)}"]
    );
    assert_eq!((d[1].pass.as_str(), d[1].count), ("LICMPass", 1));
    assert_eq!(
        (d[2].nest.as_str(), d[2].first_program),
        ("kernel{loop()}", 9)
    );
    assert_eq!(
        (d[3].property.as_str(), d[3].first_program),
        ("hazards", 11)
    );
    // The same run gives the same table.
    assert_eq!(d, distinct(run));
}

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "convcheck-fuzz-dedup-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Writes the kernel-language files and returns their paths.
fn kernels(dir: &std::path::Path, files: &[(&str, &str)]) -> Vec<String> {
    files
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            std::fs::write(&p, text).expect("write");
            p.display().to_string()
        })
        .collect()
}

/// Seed 000's loop nest twice, with other conditions, names and an
/// assignment in the second; a `for (;;)` nest; a diamond of two
/// convergent calls.
const NEST: &str =
    "void kernel() {\n  do {\n    do {\n    } while (c2);\n    ...; // O1\n  } while (c1);\n}\n";
const NEST_RENAMED: &str = "void kernel() {\n  int x = 0;\n  do {\n    do {\n      x = x + 1;\n    } while (!c7 && tid < 1);\n    ...; // O3\n  } while (c3);\n}\n";
const FOR_NEST: &str = "void kernel() {\n  for (;;) {\n    do {\n    } while (c2);\n    ...; // O1\n    if (c1) break;\n  }\n}\n";
const DIAMOND: &str =
    "void kernel() {\n  if (c1) {\n    ballot(); // O1\n  } else {\n    ballot(); // O2\n  }\n}\n";

fn run(pipeline: &str, inputs: &[String]) -> Value {
    let mut args = vec!["fuzz", "--opt", pipeline, "--format", "json"];
    for i in inputs {
        args.extend(["--input", i.as_str()]);
    }
    let (code, out, err) = convcheck(&args);
    assert_eq!(code, 1, "{out}{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Each distinct finding as (pass, count, first program, nest, shapes).
fn summary(v: &Value) -> Vec<(String, u64, u64, String, Value)> {
    v["distinct_findings"]
        .as_array()
        .expect("distinct_findings")
        .iter()
        .map(|d| {
            (
                d["pass"].as_str().unwrap_or("").to_string(),
                d["count"].as_u64().unwrap_or(0),
                d["first_program"].as_u64().unwrap_or(99),
                d["nest"].as_str().unwrap_or("").to_string(),
                d["shapes"].clone(),
            )
        })
        .collect()
}

#[test]
fn the_same_bug_twice_is_one_finding_and_passes_stay_apart() {
    if !(have(
        "clang-19",
        "the_same_bug_twice_is_one_finding_and_passes_stay_apart",
    ) && have(
        "opt-19",
        "the_same_bug_twice_is_one_finding_and_passes_stay_apart",
    )) {
        return;
    }
    let dir = folder("same");
    let inputs = kernels(
        &dir,
        &[
            ("nest.c", NEST),
            ("diamond.c", DIAMOND),
            ("nest-renamed.c", NEST_RENAMED),
            ("for-nest.c", FOR_NEST),
        ],
    );
    // GVNSink merges the diamond's two calls (finding 13.5); SimplifyCFG
    // without keep-loops folds the three nests (finding 6). Four
    // violations, two distinct findings: the nests are one, in two shapes.
    let v = run("sroa,gvn-sink,simplifycfg<no-keep-loops>", &inputs);
    assert_eq!(v["violations"].as_array().map(Vec::len), Some(4), "{v}");
    assert_eq!(
        summary(&v),
        vec![
            (
                "SimplifyCFGPass".into(),
                3,
                0,
                "kernel{loop(loop())}".into(),
                serde_json::json!(["kernel{do(do() op)}", "kernel{for;;(do() op if(break))}"])
            ),
            (
                "GVNSinkPass".into(),
                1,
                1,
                "kernel{}".into(),
                serde_json::json!(["kernel{if(call)else(call)}"])
            ),
        ],
        "{v}"
    );
    assert_eq!(
        v["distinct_findings"][0]["programs"],
        serde_json::json!([0, 2, 3])
    );
    // The text output prints the same table after the verdict.
    let mut args = vec!["fuzz", "--opt", "sroa,gvn-sink,simplifycfg<no-keep-loops>"];
    for i in &inputs {
        args.extend(["--input", i.as_str()]);
    }
    let (_, out, _) = convcheck(&args);
    assert!(
        out.contains(
            "verdict: violated\ndistinct findings: 2 (of 4 violations; key: blamed pass, property, loop nest)\n  \
             1. SimplifyCFGPass / convergence / nest `kernel{loop(loop())}`: 3 violations (first: program 0), 2 shapes\n       \
             `kernel{do(do() op)}`\n       `kernel{for;;(do() op if(break))}`\n  \
             2. GVNSinkPass / convergence / nest `kernel{}`: 1 violation (first: program 1), 1 shape\n"
        ),
        "{out}"
    );
    // A pipeline that keeps loops leaves only the diamond.
    let v = run("sroa,gvn-sink,simplifycfg<keep-loops>", &inputs);
    assert_eq!(
        summary(&v),
        vec![(
            "GVNSinkPass".into(),
            1,
            1,
            "kernel{}".into(),
            serde_json::json!(["kernel{if(call)else(call)}"])
        )],
        "{v}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn thread_bounded_loops_are_generated_and_pass_a_canonical_unroll() {
    if !(have(
        "clang-19",
        "thread_bounded_loops_are_generated_and_pass_a_canonical_unroll",
    ) && have(
        "opt-19",
        "thread_bounded_loops_are_generated_and_pass_a_canonical_unroll",
    )) {
        return;
    }
    // The preset makes `for (i = 0; i < tid + 1; ...)` loops: the seed's
    // programs through a canonicalizing prefix and LoopUnroll, checked with
    // the iterations the second thread runs. Every program decided.
    let (code, out, err) = convcheck(&[
        "fuzz",
        "--opt",
        "sroa,simplifycfg<keep-loops>,instcombine,loop(loop-rotate),loop-unroll",
        "--gen-config",
        "examples/fuzz/tid-counted.toml",
        "--max-iters",
        "2",
        "--seed",
        "25",
        "--count",
        "6",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["generator"]["tid_bounds"], "true", "{v}");
    assert_eq!(
        (v["preserved"].as_u64(), v["inconclusive"].as_u64()),
        (Some(6), Some(0)),
        "{v}"
    );
}
