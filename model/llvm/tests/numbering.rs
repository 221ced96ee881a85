//! Numbered names that skip ahead (LLVM 19 reads `%0` then `%2`, and
//! prints them densely): the reader renumbers such a function the way
//! opt-19 prints it, so that the names the mapping takes from numbers
//! (parameters' oracles, promoted locals' labels) are the ones of opt's
//! output. Checked against opt-19 itself when it is installed.
#![deny(unsafe_code)]

mod common;

use std::process::Command;

use convcheck_llvm::{fuzzing, parse_module, to_ir};

const GAPPED: &str = "declare void @sync() convergent

define i32 @gapped(i32 %0, ptr %4) {
  %6 = load i32, ptr %4, align 4
  %9 = icmp eq i32 %6, %0
  br i1 %9, label %12, label %14

12:
  call void @sync()
  br label %14

14:
  %15 = phi i32 [ 0, %5 ], [ %0, %12 ]
  %20 = add i32 %15, %6
  ret i32 %20
}

define i32 @dense(i32 %x) {
  %1 = add i32 %x, 1
  ret i32 %1
}
";

#[test]
fn gaps_are_renumbered_as_llvm_prints_them() {
    let m = parse_module(GAPPED, "gapped.ll").expect("LLVM 19 reads it");
    fuzzing::check_tree(&m);
    let s = common::summary(&m, false);
    assert!(s.contains("define i32 @gapped(i32 %0, ptr %1) []"), "{s}");
    assert!(s.contains("  %2: %3=load %4=icmp br -> %5 %6"), "{s}");
    assert!(s.contains("  %6: %7=phi %8=add ret -> "), "{s}");
    // A function without gaps keeps its numbers.
    assert!(s.contains("  %0: %1=add ret -> "), "{s}");
    let mapped = to_ir::to_module(&m, "gapped.ll");
    assert!(mapped.skipped.is_empty(), "{:?}", mapped.skipped);
    let f = &mapped.module.functions[0];
    assert_eq!(f.params, ["0", "1"]);
}

#[test]
fn opt_prints_the_same_names() {
    let Some(opt) = common::tool("opt-19") else {
        println!("skipping opt_prints_the_same_names: opt-19 is not installed (apt-get install -y llvm-19)");
        return;
    };
    let dir = common::scratch("numbering");
    let path = dir.join("gapped.ll");
    std::fs::write(&path, GAPPED).expect("write");
    let out = Command::new(opt)
        .arg("-S")
        .arg(&path)
        .output()
        .expect("opt-19 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    let ours = parse_module(GAPPED, "gapped.ll").expect("reads");
    let theirs = parse_module(&printed, "gapped.ll").expect("reads opt's output");
    assert_eq!(
        common::summary(&ours, false),
        common::summary(&theirs, false),
        "opt printed:\n{printed}"
    );
    let (a, b) = (
        to_ir::to_module(&ours, "gapped.ll"),
        to_ir::to_module(&theirs, "gapped.ll"),
    );
    // A block of undefined behaviour is named after its instruction's line
    // (`ub.load.line4`), which opt's printing moves: the shapes agree but
    // for that number (the load through `%4` has a condition since
    // out-of-bounds accesses are undefined behaviour, `to_ir/bounds.rs`).
    let shape = |m: &convcheck_ir::Module| -> Vec<String> {
        fuzzing::cfg_shape(m)
            .into_iter()
            .map(|l| match l.find(".line") {
                Some(k) if l.trim_start().starts_with("ub.") => {
                    let rest = &l[k + 5..];
                    let digits = rest.chars().take_while(char::is_ascii_digit).count();
                    format!("{}.lineN{}", &l[..k], &rest[digits..])
                }
                _ => l,
            })
            .collect()
    };
    assert_eq!(shape(&a.module), shape(&b.module));
    let names = |m: &convcheck_ir::Module| -> Vec<String> {
        m.oracles.iter().map(|o| o.name.clone()).collect()
    };
    assert_eq!(names(&a.module), names(&b.module));
    for (x, y) in a.module.functions.iter().zip(&b.module.functions) {
        assert_eq!(x.params, y.params);
    }
}
