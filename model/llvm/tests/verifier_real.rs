//! The static rules of convergence control tokens
//! (`convcheck_llvm::verify::convergence`) against `opt-19
//! -passes=verify` on real modules: every data file and every LLVM IR
//! example, as written and after several opt-19 pipelines (run with
//! `-disable-verify`, so that a module LLVM's own verifier would refuse is
//! printed too). Where LLVM accepts a module, convcheck reports no broken
//! rule (a broken rule in a stage is a `violated` verdict, so this is the
//! false-alarm direction); where LLVM's first complaint is a convergence
//! rule, convcheck's first message is the same. Skips with a printed
//! reason when opt-19 is absent.
#![deny(unsafe_code)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const PIPELINES: &[&str] = &[
    "loop-unroll",
    "simplifycfg",
    "jump-threading",
    "gvn",
    "default<O2>",
];

/// The messages of LLVM's convergence verifier (and the dominance of a
/// token, which LLVM's general verifier words differently).
fn is_convergence_rule(first_line: &str) -> bool {
    [
        "Entry intrinsic",
        "Loop intrinsic",
        "Entry or anchor intrinsic",
        "Convergence control token",
        "Convergence token used",
        "Convergence region is not well-nested.",
        "Cycle heart must dominate",
        "Two static convergence token uses",
        "Cannot mix controlled and uncontrolled",
        "The 'convergencectrl' bundle",
    ]
    .iter()
    .any(|p| first_line.starts_with(p))
}

fn inputs() -> Vec<PathBuf> {
    let mut v = common::data_files();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/llvm");
    let mut ex: Vec<PathBuf> = std::fs::read_dir(&examples)
        .expect("examples/llvm")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    ex.sort();
    v.extend(ex);
    v
}

/// LLVM's verdict on a module: `None` when it accepts, else its first line.
fn llvm_verify(opt: &Path, file: &Path) -> Option<String> {
    let out = Command::new(opt)
        .args(["-passes=verify", "-disable-output"])
        .arg(file)
        .output()
        .expect("opt-19 runs");
    if out.status.success() {
        return None;
    }
    let err = String::from_utf8_lossy(&out.stderr);
    Some(err.lines().next().unwrap_or_default().to_string())
}

#[test]
fn static_rules_agree_with_llvm_on_real_modules() {
    let Some(opt) = common::tool("opt-19") else {
        println!("skipping static_rules_agree_with_llvm_on_real_modules: opt-19 is not installed (apt-get install -y llvm-19)");
        return;
    };
    let dir = common::scratch("verifier_real");
    let (mut modules, mut accepted, mut rejected) = (0, 0, 0);
    for input in inputs() {
        let stem = input
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        let mut files = vec![(input.clone(), "as written".to_string())];
        for (k, p) in PIPELINES.iter().enumerate() {
            let out = dir.join(format!("{stem}.{k}.ll"));
            let run = Command::new(&opt)
                .args(["-S", &format!("-passes={p}"), "-disable-verify", "-o"])
                .arg(&out)
                .arg(&input)
                .output()
                .expect("opt-19 runs");
            if run.status.success() {
                files.push((out, format!("after {p}")));
            }
        }
        for (file, what) in files {
            let text = std::fs::read_to_string(&file).expect("read");
            let name = format!("{} ({what})", input.display());
            let m = convcheck_llvm::parse_module(&text, &name)
                .unwrap_or_else(|e| panic!("{name}: the reader refuses what opt-19 printed: {e}"));
            let ours = convcheck_llvm::verify::convergence(&m);
            modules += 1;
            match llvm_verify(&opt, &file) {
                None => {
                    assert!(
                        ours.is_empty(),
                        "{name}: LLVM accepts it, convcheck says {ours:?}"
                    );
                    accepted += 1;
                }
                Some(first) if is_convergence_rule(&first) => {
                    assert_eq!(
                        ours.first().map(|v| v.message.as_str()),
                        Some(first.as_str()),
                        "{name}: {ours:?}"
                    );
                    rejected += 1;
                }
                Some(_) => {}
            }
        }
    }
    println!("{modules} modules: {accepted} accepted by both, {rejected} refused by both with the same first rule");
    assert!(accepted >= 50, "{accepted}");
    assert!(rejected >= 2, "{rejected}");
}
