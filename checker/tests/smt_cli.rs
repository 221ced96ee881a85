//! `convcheck run --engine smt` prints the same table as the key engine on
//! every example, at the source and CFG levels, for the default scenario
//! of two threads and for a scenario of three.

mod common;

use common::main_with_args;
use convcheck_ir::scenario::Scenario;
use convcheck_lang::sema::Kernel;

fn examples() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["seed", "llvm"] {
        let full = format!("{}/../examples/{dir}", env!("CARGO_MANIFEST_DIR"));
        for e in std::fs::read_dir(full).expect("examples dir") {
            let path = e.expect("entry").path();
            // Of examples/llvm, only the example of LLVM's convergence
            // documents: the others are written for clang (`--frontend
            // clang`, model/llvm/tests/semantics.rs), and their loops on
            // oracles run to the z3 model's time limit in the default
            // scenario.
            let wanted = dir == "seed" || path.file_name().is_some_and(|n| n == "natural-loop.c");
            if path.extension().is_some_and(|x| x == "c") && wanted {
                out.push(path.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

/// The table part of `run --format json`.
fn table(args: &[String]) -> serde_json::Value {
    let mut all = vec!["convcheck".to_string(), "run".to_string()];
    all.extend(args.iter().cloned());
    all.extend(["--format".to_string(), "json".to_string()]);
    let out = main_with_args(all.clone());
    assert_eq!(out.code, 0, "{all:?}: {}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    serde_json::json!({
        "rows": v["rows"],
        "table": v["table"],
        "instances": v["instances"],
        "implementation_defined_columns": v["implementation_defined_columns"],
    })
}

#[test]
fn smt_and_keys_print_the_same_tables() {
    let mut compared = 0;
    for file in examples() {
        let src = std::fs::read_to_string(&file).expect("read");
        let k = Kernel::parse(&file, &src).expect("parses");
        let three: Vec<String> = Scenario::default_for(&k.module(), 3)
            .threads
            .iter()
            .flat_map(|t| ["--thread".to_string(), t.render()])
            .collect();
        for f in &k.functions {
            for level in ["source", "cfg"] {
                for scenario in [Vec::new(), three.clone()] {
                    let mut args = vec![
                        file.clone(),
                        "--function".into(),
                        f.name.clone(),
                        "--level".into(),
                        level.into(),
                    ];
                    args.extend(scenario);
                    let keys = table(&args);
                    args.extend(["--engine".into(), "smt".into()]);
                    let smt = table(&args);
                    assert_eq!(keys, smt, "{args:?}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 50, "{compared}");
}

#[test]
fn smt_engine_does_not_model_tokens() {
    let file = format!(
        "{}/../examples/seed/divergent-exit-source.c",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = main_with_args([
        "convcheck",
        "run",
        &file,
        "--level",
        "cfg",
        "--tokens",
        "--engine",
        "smt",
    ]);
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(out.stderr.contains("tokens"), "{}", out.stderr);
}
