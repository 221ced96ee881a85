//! Issue 20, class l: convcheck's reader and LLVM's verifier agree on
//! every `.ll` file of the repository. Each file is read with
//! `convcheck_llvm::parse_module` (which applies the verifier's rules of
//! `wellformed.rs`) and checked with `opt-19 -passes=verify`; a file one
//! accepts and the other rejects is a disagreement. Files whose RUN lines
//! say they are meant to fail (`not opt`, `-verify` tests of invalid IR)
//! count the same way: both must reject them. Skips, with the reason
//! printed, when `opt-19` is absent. Also one small module per rule,
//! rejected by both with LLVM's message.
#![deny(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn have_opt() -> bool {
    Command::new("opt-19").arg("--version").output().is_ok()
}

fn opt_accepts(path: &Path) -> (bool, String) {
    let out = Command::new("opt-19")
        .args(["-passes=verify", "-disable-output"])
        .arg(path)
        .output()
        .expect("opt-19 runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn every_ll(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                every_ll(&p, out);
            }
        } else if name.ends_with(".ll") {
            out.push(p);
        }
    }
}

#[test]
fn the_reader_and_opt_agree_on_every_ll_file_of_the_repository() {
    if !have_opt() {
        eprintln!("skipped: opt-19 is not installed");
        return;
    }
    let mut files = Vec::new();
    every_ll(&root(), &mut files);
    files.sort();
    assert!(files.len() > 20, "{files:?}");
    let mut disagree = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a readable file");
        let ours = convcheck_llvm::parse_module(&text, &f.to_string_lossy());
        let (theirs, why) = opt_accepts(f);
        if ours.is_ok() != theirs {
            disagree.push(format!(
                "{}: convcheck {}, opt-19 {}",
                f.strip_prefix(root()).unwrap_or(f).display(),
                match &ours {
                    Ok(_) => "accepts".to_string(),
                    Err(e) => format!("rejects ({})", e.to_string().lines().next().unwrap_or("")),
                },
                if theirs {
                    "accepts".to_string()
                } else {
                    format!("rejects ({})", why.lines().next().unwrap_or(""))
                }
            ));
        }
    }
    eprintln!(
        "{} .ll files, {} disagreements",
        files.len(),
        disagree.len()
    );
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

#[test]
fn each_rule_is_rejected_by_both_with_llvms_message() {
    let cases = [
        (
            "define void @f() {\nentry:\n  br label %entry\n}\n",
            "Entry block to function must not have predecessors!",
        ),
        (
            "define i32 @f() {\nentry:\n  %x = add i32 %x, 1\n  ret i32 %x\n}\n",
            "Only PHI nodes may reference their own value!",
        ),
        (
            "define void @f(i32 %v) {\nentry:\n  switch i32 %v, label %a [ i32 1, label %a\n i32 1, label %b ]\na:\n  ret void\nb:\n  ret void\n}\n",
            "duplicate case value in switch",
        ),
        (
            "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %b\nb:\n  %p = phi i32 [ 0, %entry ], [ 1, %a ], [ 2, %b ]\n  ret i32 %p\n}\n",
            "PHINode should have one entry for each predecessor of its parent basic block!",
        ),
        (
            "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  %y = add i32 1, 2\n  br label %b\nb:\n  %z = add i32 %y, 1\n  ret i32 %z\n}\n",
            "Instruction does not dominate all uses!",
        ),
    ];
    let dir = std::env::temp_dir().join(format!("convcheck-wellformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for (i, (ir, message)) in cases.iter().enumerate() {
        let err = convcheck_llvm::parse_module(ir, "case.ll")
            .expect_err(message)
            .to_string();
        assert!(err.contains(message), "case {i}: {err}");
        if have_opt() {
            let path = dir.join(format!("case{i}.ll"));
            std::fs::write(&path, ir).expect("written");
            let (ok, why) = opt_accepts(&path);
            assert!(!ok && why.contains(message), "case {i}: opt-19 says {why}");
        }
    }
    // A valid module with a phi, a loop and a use in a dominated block.
    let valid = "define i32 @f(i32 %n) {\nentry:\n  %a = add i32 %n, 1\n  br label %loop\nloop:\n  %i = phi i32 [ 0, %entry ], [ %j, %loop ]\n  %j = add i32 %i, %a\n  %c = icmp slt i32 %j, %n\n  br i1 %c, label %loop, label %exit\nexit:\n  ret i32 %j\n}\n";
    assert!(convcheck_llvm::parse_module(valid, "valid.ll").is_ok());
}
