//! Runs every convergence miscompile of `examples/llvm-findings/` (issue 25,
//! docs/src/findings.md section 13): each file names its pipeline
//! (`; PIPELINE:`), optional extra `convcheck check` arguments (`; ARGS:`)
//! and the verdict on opt-22 (`; EXPECT:`), and may name the verdict on
//! opt-19 (`; EXPECT-opt-19:`), a control where the older opt does not make
//! the transform. Each run must end with that verdict and exit code (1 for
//! violated, 0 for preserved/proved). Skips, saying why, when the opt is absent.

mod common;
use common::{convcheck, have, root};

/// A finding's header lines.
struct Finding {
    file: String,
    pipeline: String,
    args: Vec<String>,
    expect: String,
    expect19: Option<String>,
}

/// The value of the header line `; KEY: value`, if any.
fn header(text: &str, key: &str) -> Option<String> {
    let prefix = format!("; {key}:");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix).map(|v| v.trim().to_string()))
}

/// Every `.ll` of `examples/llvm-findings`, sorted by name.
fn findings() -> Vec<Finding> {
    let dir = root().join("examples/llvm-findings");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/llvm-findings exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read");
            let file = format!(
                "examples/llvm-findings/{}",
                p.file_name().unwrap().to_string_lossy()
            );
            let need = |k: &str| header(&text, k).unwrap_or_else(|| panic!("{file}: no `; {k}:`"));
            Finding {
                pipeline: need("PIPELINE"),
                expect: need("EXPECT"),
                args: header(&text, "ARGS")
                    .map(|a| a.split_whitespace().map(String::from).collect())
                    .unwrap_or_default(),
                expect19: header(&text, "EXPECT-opt-19"),
                file,
            }
        })
        .collect()
}

/// Runs `convcheck check` on one finding with `opt_bin` and asserts `expect`.
fn check(f: &Finding, opt_bin: &str, expect: &str) {
    let mut args = vec![
        "check",
        f.file.as_str(),
        "--opt",
        f.pipeline.as_str(),
        "--opt-bin",
        opt_bin,
    ];
    args.extend(f.args.iter().map(String::as_str));
    let (code, out, err) = convcheck(&args);
    let verdict = out
        .lines()
        .find(|l| l.starts_with("verdict: "))
        .unwrap_or_else(|| panic!("{}: no verdict\n{out}\n{err}", f.file));
    assert!(
        verdict.starts_with(&format!("verdict: {expect}")),
        "{} with {opt_bin}: expected {expect}, got `{verdict}`\n{out}\n{err}",
        f.file
    );
    let want = i32::from(expect == "violated");
    assert_eq!(code, want, "{} with {opt_bin}: exit code\n{out}", f.file);
    if expect == "violated" {
        assert!(
            out.contains("counterexample"),
            "{}: no trace\n{out}",
            f.file
        );
    }
}

#[test]
fn every_finding_has_its_verdict_on_opt_22() {
    let all = findings();
    assert!(all.len() >= 2, "the findings are missing");
    if !have("opt-22", "every_finding_has_its_verdict_on_opt_22") {
        return;
    }
    for f in &all {
        check(f, "opt-22", &f.expect);
    }
}

#[test]
fn controls_on_opt_19() {
    if !have("opt-19", "controls_on_opt_19") {
        return;
    }
    for f in findings() {
        if let Some(e) = &f.expect19 {
            check(&f, "opt-19", e);
        }
    }
}
