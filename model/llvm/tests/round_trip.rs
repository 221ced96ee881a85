//! convcheck IR written as LLVM IR and read back (`write::module_text`,
//! then `to_ir::to_module`): every example kernel (seed 000's, the hazard
//! corpus, the pass corpus, LLVM's), lowered with and without tokens, the
//! modules mapped from the compiler output in `tests/data`, and random
//! CFGs. Each must read back to the same CFG (blocks, successors,
//! convergent operations by label, tokens) and behave the same (trace
//! tables and observable events on the same scenarios); with `opt-19`
//! installed, the text must pass `opt-19 -passes=verify` and the same must
//! hold after a trip through `opt-19 -S`.
#![deny(unsafe_code)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::ir::assert_same;
use convcheck_ir::Module;
use convcheck_llvm::{parse_module, write::module_text};
use proptest::prelude::*;

/// The mapping without poison checks: the writer keeps locals in allocas,
/// whose loads the default mapping reads as undefined before a store and
/// guards with blocks of undefined behaviour (`to_ir::poison`), which a
/// round trip of the writer is not about. External calls are read as
/// oracles (`calls_as_oracles`): the writer prints a call's effect event
/// as the atomic store it is, which would read back as a store beside the
/// call's own event.
fn to_module(m: &convcheck_llvm::Module, name: &str) -> convcheck_llvm::to_ir::Mapped {
    let opts = convcheck_llvm::to_ir::MapOptions {
        unchecked_poison: true,
        calls_as_oracles: true,
        ..Default::default()
    };
    convcheck_llvm::to_ir::to_module_with(m, name, &opts)
}

/// Writes `m`, reads it back, and checks that nothing was skipped.
fn read_back(text: &str, what: &str) -> Module {
    let parsed = parse_module(text, what).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    let mapped = to_module(&parsed, what);
    assert!(
        mapped.skipped.is_empty(),
        "{what}: skipped {:?}\n{text}",
        mapped.skipped
    );
    mapped.module
}

/// `opt-19 ARGS in -o out` on `text`; `None` without opt-19.
fn opt(args: &[&str], text: &str, dir: &Path, stem: &str) -> Option<Result<String, String>> {
    let bin = common::tool("opt-19")?;
    let input = dir.join(format!("{stem}.ll"));
    let output = dir.join(format!("{stem}.opt.ll"));
    std::fs::write(&input, text).expect("scratch file");
    let out = Command::new(bin)
        .args(args)
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .expect("opt-19 runs");
    if !out.status.success() {
        return Some(Err(String::from_utf8_lossy(&out.stderr).into_owned()));
    }
    Some(Ok(std::fs::read_to_string(&output).unwrap_or_default()))
}

/// The whole check on one module.
fn check(m: &Module, what: &str, dir: &Path, stem: &str) -> bool {
    let text = module_text(m);
    let back = read_back(&text, what);
    assert_same(m, &back, &format!("{what} (written and read back)"));
    // The text form of the IR reads the mapped module back too.
    let cir = convcheck_ir::print::module_text(&back);
    let reparsed = convcheck_ir::parse::parse_module(what, &cir)
        .unwrap_or_else(|e| panic!("{what}: the IR text of the read-back module: {e:?}\n{cir}"));
    assert_eq!(reparsed, back, "{what}: IR text round trip");
    let Some(verified) = opt(&["-passes=verify", "-S"], &text, dir, stem) else {
        return false;
    };
    if let Err(e) = verified {
        panic!("{what}: opt-19 -passes=verify rejects the text:\n{e}\n{text}");
    }
    let through = opt(&["-S"], &text, dir, &format!("{stem}.s"))
        .expect("opt-19 ran once")
        .unwrap_or_else(|e| panic!("{what}: opt-19 -S: {e}"));
    let back2 = read_back(&through, what);
    assert_same(m, &back2, &format!("{what} (through opt-19 -S)"));
    true
}

fn example_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut out = Vec::new();
    for dir in ["seed", "hazards", "corpus", "llvm"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "c") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_example_kernel_round_trips() {
    let dir = common::scratch("round_trip_examples");
    let files = example_files();
    assert!(files.len() >= 30, "found only {} examples", files.len());
    let mut with_opt = 0;
    let mut modules = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(path).expect("readable example");
        let kernel = convcheck_lang::sema::Kernel::parse(&name, &src)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        for tokens in [false, true] {
            let m = convcheck_lang::lower::lower(&kernel, tokens);
            let stem = format!(
                "{}{}",
                name.trim_end_matches(".c"),
                if tokens { ".tok" } else { "" }
            );
            modules += 1;
            if check(&m, &stem, &dir, &stem) {
                with_opt += 1;
            }
        }
    }
    if with_opt == 0 {
        println!("opt-19 not found: checked {modules} modules without opt-19 -passes=verify");
    } else {
        assert_eq!(with_opt, modules);
    }
}

#[test]
fn modules_mapped_from_compiler_output_round_trip() {
    let dir = common::scratch("round_trip_data");
    for path in common::data_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let m = to_module(&common::parse_data(&name), &name).module;
        check(&m, &name, &dir, name.trim_end_matches(".ll"));
    }
}

/// Random successor lists: `n` blocks, each with 0 to 3 successors, any
/// block (the entry included) a possible target.
fn successors() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (1usize..7).prop_flat_map(|n| prop::collection::vec(prop::collection::vec(0..n, 0..4), n))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random CFGs (irreducible ones, entries with predecessors, switches)
    /// read back to the same CFG; no opt-19 here, to keep it fast.
    #[test]
    fn random_cfgs_round_trip(succ in successors()) {
        let m = convcheck_ir::build::module_of(convcheck_ir::build::cfg_from_successors(&succ));
        let text = module_text(&m);
        let back = read_back(&text, "random");
        assert_same(&m, &back, "random CFG");
    }
}
