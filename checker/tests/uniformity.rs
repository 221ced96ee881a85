//! The uniformity oracle (issue 23, DESIGN.md 2.10).
//!
//! Two kinds of tests. Without LLVM, claims are written by hand in the
//! printer's format and given to `check_with_printout`: a claim the model
//! must refute (data divergence, temporal divergence, a join) has to come
//! out as a finding, and one it must accept (a target rule such as
//! `readfirstlane`, a uniform load, a value from `undef`) must not. With
//! `opt-19` (and `opt-22` where installed), the binary runs on the
//! reproducers of `examples/uniformity/` and on a seeded campaign, whose
//! minimized reproducer is checked again by the command line.

mod common;

use common::{convcheck, have, temp};
use convcheck::uniformity::report::Report;
use convcheck::uniformity::{check_with_printout, UniformityConfig};

fn claims(text: &str, printout: &str) -> Report {
    check_with_printout("test.ll", text, printout, &UniformityConfig::default())
        .expect("the module and the printout read")
}

/// (value, class) of every finding.
fn findings(r: &Report) -> Vec<(String, String)> {
    r.functions
        .iter()
        .flat_map(|f| {
            f.findings
                .iter()
                .map(|x| (x.value.clone(), x.class.clone()))
        })
        .collect()
}

const DATA: &str = "define amdgpu_kernel void @f(i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %x = add i32 %tid, 1
  %y = add i32 %n, 1
  %f = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %tid)
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
";

#[test]
fn a_value_computed_from_the_thread_index_is_no_uniform_claim() {
    // LLVM never says this; a printout that does must be refuted.
    let p = "UniformityInfo for function 'f':\n\nBLOCK entry\nDEFINITIONS\n\
             \x20 DIVERGENT:   %tid = call i32 @llvm.amdgcn.workitem.id.x()\n\
             \x20              %x = add i32 %tid, 1\n\
             \x20              %y = add i32 %n, 1\n\
             \x20              %f = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %tid)\n\
             TERMINATORS\n               ret void\nEND BLOCK\n";
    let r = claims(DATA, p);
    assert_eq!(findings(&r), vec![("%x".into(), "value-input".into())]);
    assert_eq!(r.verdict, "violated");
    let f = &r.functions[0];
    // %y (an argument's) and %f (readfirstlane of a divergent value: a
    // target rule, taken from LLVM) are uniform.
    assert_eq!(f.model_uniform, 2, "{}", r.text());
}

const TEMPORAL: &str = "define amdgpu_kernel void @t(i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %count = phi i32 [ 0, %entry ], [ %next, %loop ]
  %next = add i32 %count, 1
  %stop = icmp uge i32 %next, %tid
  br i1 %stop, label %exit, label %loop
exit:
  %after = add i32 %count, %n
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
";

#[test]
fn a_use_outside_a_cycle_with_a_divergent_exit_is_temporally_divergent() {
    // %count and %next are uniform in each iteration; %after reads %count
    // from the iteration each thread left in.
    let p = "UniformityInfo for function 't':\n\nBLOCK entry\nDEFINITIONS\n\
             \x20 DIVERGENT:   %tid = call i32 @llvm.amdgcn.workitem.id.x()\nTERMINATORS\n\
             \x20              br label %loop\nEND BLOCK\n\nBLOCK loop\nDEFINITIONS\n\
             \x20              %count = phi i32 [ 0, %entry ], [ %next, %loop ]\n\
             \x20              %next = add i32 %count, 1\n\
             \x20 DIVERGENT:   %stop = icmp uge i32 %next, %tid\nTERMINATORS\n\
             \x20 DIVERGENT:   br i1 %stop, label %exit, label %loop\nEND BLOCK\n\n\
             BLOCK exit\nDEFINITIONS\n               %after = add i32 %count, %n\nTERMINATORS\n\
             \x20              ret void\nEND BLOCK\n";
    let r = claims(TEMPORAL, p);
    assert_eq!(
        findings(&r),
        vec![("%after".into(), "value-temporal-at-cycle-exit".into())],
        "{}",
        r.text()
    );
    let x = &r.functions[0].findings[0];
    // The two threads are converged at %exit after different iterations:
    // the table shows one more instance of %loop in one row.
    let loops: Vec<usize> = x
        .table
        .rows
        .iter()
        .map(|row| {
            row.cells
                .iter()
                .flatten()
                .filter(|c| c.as_str() == "loop")
                .count()
        })
        .collect();
    assert_ne!(loops[0], loops[1], "{}", r.text());
}

const JOIN: &str = "define amdgpu_kernel void @j(i32 %a) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp eq i32 %tid, 3
  br i1 %c, label %l, label %r
l:
  br label %m
r:
  br label %m
m:
  %p = phi i32 [ %a, %l ], [ 7, %r ]
  %same = phi i32 [ %a, %l ], [ %a, %r ]
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
";

#[test]
fn a_phi_at_a_divergent_join_is_divergent_unless_its_values_agree() {
    let p = "UniformityInfo for function 'j':\n\nBLOCK entry\nDEFINITIONS\n\
             \x20 DIVERGENT:   %tid = call i32 @llvm.amdgcn.workitem.id.x()\n\
             \x20 DIVERGENT:   %c = icmp eq i32 %tid, 3\nTERMINATORS\n\
             \x20 DIVERGENT:   br i1 %c, label %l, label %r\nEND BLOCK\n\n\
             BLOCK l\nDEFINITIONS\nTERMINATORS\n               br label %m\nEND BLOCK\n\n\
             BLOCK r\nDEFINITIONS\nTERMINATORS\n               br label %m\nEND BLOCK\n\n\
             BLOCK m\nDEFINITIONS\n               %p = phi i32 [ %a, %l ], [ 7, %r ]\n\
             \x20              %same = phi i32 [ %a, %l ], [ %a, %r ]\nTERMINATORS\n\
             \x20              ret void\nEND BLOCK\n";
    let r = claims(JOIN, p);
    assert_eq!(findings(&r), vec![("%p".into(), "phi-join".into())]);
    let x = &r.functions[0].findings[0];
    assert!(x.tids.contains(&3), "thread 3 takes %l: {}", r.text());
    assert_ne!(x.values[0], x.values[1]);
}

const MEMORY: &str = "define amdgpu_kernel void @m(ptr addrspace(1) %buf, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %buf, i32 %n
  %q = getelementptr i32, ptr addrspace(1) %buf, i32 %tid
  %u = load i32, ptr addrspace(1) %p
  %d = load i32, ptr addrspace(1) %q
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
";

#[test]
fn a_load_is_a_function_of_its_address_in_one_converged_instance() {
    // Claiming both loads (and both addresses) uniform: the tid-indexed
    // ones are findings, the others not.
    let p = "UniformityInfo for function 'm':\n\nBLOCK entry\nDEFINITIONS\n\
             \x20 DIVERGENT:   %tid = call i32 @llvm.amdgcn.workitem.id.x()\n\
             \x20              %p = getelementptr i32, ptr addrspace(1) %buf, i32 %n\n\
             \x20              %q = getelementptr i32, ptr addrspace(1) %buf, i32 %tid\n\
             \x20              %u = load i32, ptr addrspace(1) %p\n\
             \x20              %d = load i32, ptr addrspace(1) %q\nTERMINATORS\n\
             \x20              ret void\nEND BLOCK\n";
    let r = claims(MEMORY, p);
    let mut got: Vec<String> = findings(&r).into_iter().map(|f| f.0).collect();
    got.sort();
    assert_eq!(
        got,
        vec!["%d".to_string(), "%q".to_string()],
        "{}",
        r.text()
    );
}

#[test]
fn a_value_from_undef_is_not_examined() {
    let text = "define amdgpu_kernel void @u() {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %p = phi i32 [ undef, %entry ], [ 5, %a ]
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
";
    // LLVM's reading: undef may be taken as 5 (hasConstantOrUndefValue).
    let p = "UniformityInfo for function 'u':\n\nBLOCK entry\nDEFINITIONS\n\
             \x20 DIVERGENT:   %tid = call i32 @llvm.amdgcn.workitem.id.x()\n\
             \x20 DIVERGENT:   %c = icmp eq i32 %tid, 0\nTERMINATORS\n\
             \x20 DIVERGENT:   br i1 %c, label %a, label %b\nEND BLOCK\n\n\
             BLOCK a\nDEFINITIONS\nTERMINATORS\n               br label %b\nEND BLOCK\n\n\
             BLOCK b\nDEFINITIONS\n               %p = phi i32 [ undef, %entry ], [ 5, %a ]\n\
             TERMINATORS\n               ret void\nEND BLOCK\n";
    let r = claims(text, p);
    assert!(findings(&r).is_empty(), "{}", r.text());
    assert_eq!(r.verdict, "inconclusive");
    assert_eq!(r.functions[0].skipped[0].subject, "%p");
}

#[test]
fn bad_input_is_exit_2_with_its_place() {
    let bad = temp(
        "bad.ll",
        "define void @f() {\nentry:\n  %x = add i32 1\n}\n",
    );
    let (code, _, err) = convcheck(&["uniformity", &bad]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.ll:4:1:"), "{err}");
    let x86 = temp(
        "x86.ll",
        "target triple = \"x86_64-unknown-linux-gnu\"\ndefine void @f() {\n  ret void\n}\n",
    );
    let (code, _, err) = convcheck(&["uniformity", &x86]);
    assert_eq!(code, 2);
    assert!(err.contains("no divergent branches"), "{err}");
}

/// The findings of `convcheck uniformity FILE ARGS... --format json`.
fn run_json(file: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec!["uniformity", file, "--format", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = convcheck(&args);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, v)
}

fn values(v: &serde_json::Value) -> Vec<(String, String)> {
    v["functions"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| f["findings"].as_array().cloned().unwrap_or_default())
        .map(|x| {
            (
                x["value"].as_str().unwrap_or("").to_string(),
                x["class"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn opt_19_calls_the_phis_of_issue_137277_uniform() {
    if !have("opt-19", "opt_19_calls_the_phis_of_issue_137277_uniform") {
        return;
    }
    let (code, v) = run_json("examples/uniformity/join-long-arms.ll", &[]);
    assert_eq!(code, 1);
    assert_eq!(
        values(&v),
        vec![
            ("%div_a".into(), "phi-join".into()),
            ("%div_b".into(), "phi-join".into()),
            ("%div_c".into(), "phi-join".into()),
            ("%sum".into(), "consequence".into()),
        ]
    );
    if have(
        "opt-22",
        "opt_19_calls_the_phis_of_issue_137277_uniform (opt-22)",
    ) {
        let (code, v) = run_json(
            "examples/uniformity/join-long-arms.ll",
            &["--opt-bin", "opt-22"],
        );
        assert_eq!(code, 0, "opt-22 fixed the join search: {v}");
        assert!(values(&v).is_empty());
    }
}

#[test]
fn opt_19_and_opt_22_call_the_cycle_exit_phi_of_pr_216296_uniform() {
    let test = "opt_19_and_opt_22_call_the_cycle_exit_phi_of_pr_216296_uniform";
    for bin in ["opt-19", "opt-22"] {
        if !have(bin, test) {
            continue;
        }
        let (code, v) = run_json(
            "examples/uniformity/cycle-exit-constants.ll",
            &["--opt-bin", bin],
        );
        assert_eq!(code, 1, "{bin}");
        assert_eq!(
            values(&v),
            vec![("%acc".into(), "phi-join-at-cycle-exit".into())],
            "{bin}"
        );
    }
}

#[test]
fn no_finding_where_llvm_is_right() {
    if !have("opt-19", "no_finding_where_llvm_is_right") {
        return;
    }
    let (code, v) = run_json("examples/uniformity/agrees.ll", &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "holds");
}

#[test]
fn a_seeded_campaign_finds_and_minimizes_a_phi_after_a_cycle_exit() {
    if !have(
        "opt-19",
        "a_seeded_campaign_finds_and_minimizes_a_cycle_exit_phi",
    ) {
        return;
    }
    let marker = temp("campaign.txt", "");
    let dir = std::path::Path::new(&marker)
        .with_file_name("campaign")
        .display()
        .to_string();
    let (code, out, err) = convcheck(&[
        "fuzz",
        "--uniformity",
        "--seed",
        "3",
        "--count",
        "100",
        "--out",
        &dir,
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["functions"], 100);
    // opt-19 read every generated function (the generator's validity).
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(0), "{out}");
    assert_eq!(v["not_examined"], 0, "{out}");
    let class = "phi-join-after-cycle-exit";
    assert!(
        v["classes"]
            .as_array()
            .is_some_and(|cs| cs.iter().any(|c| c["class"] == class)),
        "{out}"
    );
    // The minimized reproducer shows the class again, through the CLI.
    let file = format!("{dir}/{class}-0.ll");
    let (code, again) = run_json(&file, &[]);
    assert_eq!(code, 1);
    assert!(values(&again).iter().any(|(_, c)| c == class), "{again}");
}

/// `--from` resumes a campaign: seed 3's run of 1,000 functions finds a
/// `phi-join` in `@f614` (docs/src/uniformity.md); the run of functions
/// 600 to 699 alone finds the same function, and examines only those 100.
#[test]
fn a_campaign_resumed_with_from_finds_what_the_whole_run_found_there() {
    let test = "a_campaign_resumed_with_from_finds_what_the_whole_run_found_there";
    if !have("opt-19", test) {
        return;
    }
    let (code, out, err) = convcheck(&[
        "fuzz",
        "--uniformity",
        "--seed",
        "3",
        "--from",
        "600",
        "--count",
        "700",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["functions"], 100, "{out}");
    let firsts: Vec<String> = v["classes"]
        .as_array()
        .expect("classes")
        .iter()
        .map(|c| format!("{} {}", c["class"].as_str().unwrap_or(""), c["first"]))
        .collect();
    assert!(
        firsts
            .iter()
            .any(|f| f.starts_with("phi-join ") && f.contains("f614")),
        "{firsts:?}"
    );
}

/// The 10^5 campaign's minimized cycle-exit phi (#216100's class): a
/// finding on opt-19 and still on opt-22.
#[test]
fn the_campaigns_cycle_exit_phi_is_a_finding_on_opt_19_and_opt_22() {
    let test = "the_campaigns_cycle_exit_phi_is_a_finding_on_opt_19_and_opt_22";
    let file = "examples/uniformity/minimized-phi-join-at-cycle-exit.ll";
    for opt in ["opt-19", "opt-22"] {
        if !have(opt, test) {
            continue;
        }
        let (code, v) = run_json(file, &["--opt-bin", opt]);
        assert_eq!(code, 1, "{opt}: {v}");
        assert_eq!(
            values(&v),
            vec![("%v2".into(), "phi-join-at-cycle-exit".into())],
            "{opt}: {v}"
        );
    }
}

#[test]
fn the_campaigns_reproducers_are_findings_on_opt_19_and_fixed_in_opt_22() {
    let test = "the_campaigns_reproducers_are_findings_on_opt_19_and_fixed_in_opt_22";
    if !have("opt-19", test) {
        return;
    }
    let cases = [
        ("examples/uniformity/minimized-phi-join.ll", "phi-join"),
        (
            "examples/uniformity/minimized-phi-join-after-cycle-exit.ll",
            "phi-join-after-cycle-exit",
        ),
    ];
    for (file, class) in cases {
        let (code, v) = run_json(file, &[]);
        assert_eq!(code, 1, "{file}");
        assert_eq!(values(&v), vec![("%v1".into(), class.into())], "{file}");
    }
    if have("opt-22", test) {
        for (file, _) in cases {
            let (code, v) = run_json(file, &["--opt-bin", "opt-22"]);
            assert_eq!(code, 0, "{file}: {v}");
        }
    }
}

/// A value of 63 bits (an odd width LLVM allows): the witness's values are
/// masked to the width without overflow (`(1 << 63) - 1` panicked before
/// 2026-11-28). `minimized-phi-join.ll` with its phi made `i63` is the
/// same finding.
#[test]
fn an_i63_phi_is_the_same_finding() {
    let test = "an_i63_phi_is_the_same_finding";
    if !have("opt-19", test) {
        return;
    }
    let text =
        std::fs::read_to_string(common::root().join("examples/uniformity/minimized-phi-join.ll"))
            .expect("the example");
    let changed = text.replace(
        "phi i32 [ 0, %bb2 ], [ 2, %bb6 ]",
        "phi i63 [ 0, %bb2 ], [ 2, %bb6 ]",
    );
    assert_ne!(text, changed, "the phi to change");
    let file = common::temp("phi-join-i63.ll", &changed);
    let (code, v) = run_json(&file, &[]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(values(&v), vec![("%v1".into(), "phi-join".into())]);
}
