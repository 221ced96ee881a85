//! `lit`-style use of convcheck (docs/src/llvm.md, "In an LLVM test"):
//! every file of `examples/llvm/lit/` carries `RUN:` lines that pipe
//! `convcheck check %s ...` into FileCheck, as an LLVM regression test
//! does. This test runs them as lit would (`%s` the file, `%S` its
//! folder, `not` inverting an exit code, pipefail), with the binary
//! under test as `convcheck` and FileCheck-19 (or another version's) as
//! `FileCheck`, and shows
//! that a wrong CHECK line fails.

mod common;

use common::{have, root};
use std::path::Path;
use std::process::Command;

/// The `RUN:` lines of `text` (after `;` or `//` comments), joined where
/// one ends with `\`.
fn run_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        let Some((_, rest)) = line.split_once("RUN:") else {
            continue;
        };
        let rest = rest.trim();
        let (body, more) = match rest.strip_suffix('\\') {
            Some(b) => (b.trim_end(), true),
            None => (rest, false),
        };
        match out.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(body);
            }
            _ => out.push(body.to_string()),
        }
        open = more;
    }
    out
}

/// The FileCheck to use: FileCheck-19 (CI installs llvm-19-tools), else
/// another version's (FileCheck's syntax has not changed for these
/// tests), printing why the test skips when there is none.
fn filecheck(test: &str) -> Option<&'static str> {
    let found = ["FileCheck-19", "FileCheck-22", "FileCheck-14", "FileCheck"]
        .into_iter()
        .find(|t| {
            Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    if found.is_none() {
        println!("skipping {test}: no FileCheck (apt-get install -y llvm-19-tools)");
    }
    found
}

/// Runs one RUN line on `file` as lit would, with `fc` as FileCheck;
/// returns whether it passed and what it printed.
fn run(line: &str, file: &Path, fc: &str) -> (bool, String) {
    let bin = env!("CARGO_BIN_EXE_convcheck");
    let dir = file.parent().unwrap();
    let cmd = line
        .replace("%s", &file.display().to_string())
        .replace("%S", &dir.display().to_string());
    let script = format!(
        "set -o pipefail\nconvcheck() {{ {bin:?} \"$@\"; }}\nFileCheck() {{ {fc} \"$@\"; }}\n\
         not() {{ \"$@\"; test $? -ne 0; }}\n{cmd}\n"
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(root())
        .output()
        .expect("bash runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn run_lines_of_the_lit_examples_pass() {
    let test = "run_lines_of_the_lit_examples_pass";
    let Some(fc) = filecheck(test) else {
        return;
    };
    if !have("opt-19", test) || !have("clang-19", test) {
        return;
    }
    let dir = root().join("examples/llvm/lit");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut ran = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for line in run_lines(&text) {
            let (ok, out) = run(&line, f, fc);
            assert!(ok, "{}: RUN: {line}\n{out}", f.display());
            ran += 1;
        }
    }
    assert!(ran >= 3, "only {ran} RUN lines");
}

#[test]
fn a_wrong_check_line_fails() {
    let test = "a_wrong_check_line_fails";
    let Some(fc) = filecheck(test) else {
        return;
    };
    if !have("opt-19", test) {
        return;
    }
    let good = root().join("examples/llvm/lit/structurizecfg-amdgcn.ll");
    let text = std::fs::read_to_string(&good)
        .unwrap()
        .replace("; CHECK: verdict: proved", "; CHECK: verdict: violated");
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("wrong.ll");
    std::fs::write(&bad, text).unwrap();
    let lines = run_lines(&std::fs::read_to_string(&bad).unwrap());
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (ok, out) = run(&lines[0], &bad, fc);
    assert!(!ok, "{out}");
    assert!(out.contains("verdict: violated"), "{out}");
    // And `not` of a command that succeeds fails.
    let (ok, _) = run("not convcheck --version", &bad, fc);
    assert!(!ok);
}

#[test]
fn run_lines_are_read_as_lit_reads_them() {
    let text = "; RUN: a %s \\\n; RUN:   | b\n// RUN: c\n; CHECK: x\n";
    assert_eq!(run_lines(text), ["a %s | b", "c"]);
}
