//! The three rules that give LLVM's own tests of convergent operations a
//! verdict (issue 11, docs/src/llvm.md "LLVM's convergent tests"), on
//! small functions of our own through the binary:
//!
//! 1. a function a file leaves alone (up to line numbers, other functions
//!    and merged straight-line blocks) is `proved` by structure, even with
//!    an anchor and a loop no bound covers; a changed one is not;
//! 2. a target whose convergence is implementation-defined (an anchor) is
//!    decided by enumerating the relations it allows: an unrolled anchor
//!    loop (by hand and by real opt-19) is preserved, an `entry` token
//!    replaced by an anchor is violated;
//! 3. a loop out of the bounds because of a parameter's value cuts the
//!    scenarios with that value, listed among the bounds, while the other
//!    values are compared (and a target wrong for one of them is caught);
//!    when every value is cut the bound is raised (doubled, up to 32),
//!    and past that the check stays inconclusive.
//!
//! Tests that need `opt-19` print why they skip when it is absent.

mod common;
use common::{convcheck, have, root, temp};
use std::process::Command;

/// `opt-19 ARGS -S IN` into a temporary file.
fn opt(args: &[&str], input: &str, name: &str) -> String {
    let out = Command::new("opt-19")
        .args(args)
        .args(["-S", input])
        .output()
        .expect("opt-19 runs");
    assert!(
        out.status.success(),
        "opt-19 {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    temp(name, &String::from_utf8_lossy(&out.stdout))
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

const DECLS: &str = "declare void @f() convergent
declare void @g()
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.entry()
";

/// An anchor in a loop whose trip count is a parameter: the bounded check
/// cannot cover `n = 0` (2^32 iterations).
const ANCHORED: &str = "
define void @anchored(i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %a = call token @llvm.experimental.convergence.anchor()
  call void @f() [ \"convergencectrl\"(token %a) ]
  br label %body

body:
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
";

/// The same function after another one (other op numbers and lines), with
/// `loop` and `body` merged into one block.
const ANCHORED_MERGED: &str = "
define void @other() {
entry:
  call void @g()
  ret void
}

define void @anchored(i32 %n) {
entry:
  br label %loop

loop:                                             ; merged with body
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %a = call token @llvm.experimental.convergence.anchor()
  call void @f() [ \"convergencectrl\"(token %a) ]
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
";

/// The call hoisted out of the loop: a thread that loops twice calls it
/// once.
const ANCHORED_HOISTED: &str = "
define void @anchored(i32 %n) {
entry:
  %a = call token @llvm.experimental.convergence.anchor()
  call void @f() [ \"convergencectrl\"(token %a) ]
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
";

#[test]
fn an_unchanged_function_with_an_anchor_is_proved() {
    let a = temp("anchored.ll", &format!("{DECLS}{ANCHORED}"));
    let b = temp("anchored-merged.ll", &format!("{DECLS}{ANCHORED_MERGED}"));
    let (code, out, err) = convcheck(&["check", &a, &b]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("no bound: proved by structure (1 straight-line edge merged)"),
        "{out}"
    );
    assert!(out.contains(": proved (every iteration count)"), "{out}");
    assert!(out.contains("\nverdict: proved\n"), "{out}");
    assert!(
        out.contains("not compared (defined on one side only): @other"),
        "{out}"
    );
    let (code, out, _) = convcheck(&["check", &a, &b, "--format", "json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["verdict"], "proved", "{out}");
    assert_eq!(v["stages"][0]["verdict"], "proved", "{out}");
    assert_eq!(v["stages"][0]["proof"]["kind"], "structure", "{out}");
    assert_eq!(v["stages"][0]["proof"]["merged_edges"], 1, "{out}");
    assert_eq!(v["bounds"]["stages"][0]["proof"], "structure", "{out}");
    assert_eq!(v["bounds"]["stages"][0]["unbounded"], true, "{out}");
    let (_, out, _) = convcheck(&["check", &a, &b, "--format", "sarif"]);
    let v = json(&out);
    assert_eq!(v["runs"][0]["properties"]["verdict"], "proved", "{out}");
    assert_eq!(
        v["runs"][0]["properties"]["stages"][0]["verdict"], "proved",
        "{out}"
    );
    // The module as opt-19 prints it back is the same function too.
    if have("opt-19", "an_unchanged_function_with_an_anchor_is_proved") {
        let back = opt(&["-passes=verify"], &a, "anchored-opt.ll");
        let (code, out, err) = convcheck(&["check", &a, &back]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("\nverdict: proved\n"), "{out}");
    }
}

#[test]
fn a_changed_function_is_not_proved_by_structure() {
    let a = temp("anchored.ll", &format!("{DECLS}{ANCHORED}"));
    let b = temp("anchored-hoisted.ll", &format!("{DECLS}{ANCHORED_HOISTED}"));
    let (code, out, err) = convcheck(&["check", &a, &b]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!out.contains("proved"), "{out}");
    assert!(out.contains("verdict: violated"), "{out}");
    // Unrolled by hand (below): equivalent, but not by structure.
    let a = temp("unroll.ll", &format!("{DECLS}{UNROLL_ME}"));
    let b = temp("unrolled.ll", &format!("{DECLS}{UNROLLED_BY_HAND}"));
    let (code, out, err) = convcheck(&["check", &a, &b, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v = json(&out);
    assert_eq!(v["verdict"], "preserved", "{out}");
    assert!(v["stages"][0].get("proof").is_none(), "{out}");
    assert!(
        v["stages"][0]["scenarios"].as_u64().unwrap_or(0) > 0,
        "{out}"
    );
}

/// An irreducible cycle (two entries, `left` and `right`) with a
/// convergent call in it, as `nontrivial-unswitch.ll`'s
/// `test_no_unswitch_unstructured_cfg` has one.
const IRREDUCIBLE: &str = "
define void @irreducible(i1 %c, i32 %n) {
entry:
  br i1 %c, label %left, label %right

left:
  %i = phi i32 [ 0, %entry ], [ %j, %right ]
  call void @f()
  %i1 = add i32 %i, 1
  %l = icmp slt i32 %i1, %n
  br i1 %l, label %right, label %exit

right:
  %j = phi i32 [ 0, %entry ], [ %i1, %left ]
  %j1 = add i32 %j, 2
  %r = icmp slt i32 %j1, %n
  br i1 %r, label %left, label %exit

exit:
  ret void
}
";

/// The structural rule refuses an irreducible cycle (its header is a
/// choice), but two equal canonical modules are one program: the
/// function as written again (comments, alignment stated) is proved; with
/// its blocks laid out in another order (which may choose another header)
/// it is not proved, nor with a changed condition.
#[test]
fn an_unchanged_irreducible_function_is_proved() {
    let a = temp("irreducible.ll", &format!("{DECLS}{IRREDUCIBLE}"));
    let same = IRREDUCIBLE.replace("left:\n", "left:                ; preds = %entry, %right\n");
    let b = temp("irreducible-same.ll", &format!("{DECLS}{same}"));
    let (code, out, err) = convcheck(&["check", &a, &b]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("no bound: proved by structure (0 straight-line edges merged)"),
        "{out}"
    );
    assert!(out.contains("\nverdict: proved\n"), "{out}");
    let left = IRREDUCIBLE.find("left:").unwrap();
    let right = IRREDUCIBLE.find("right:").unwrap();
    let exit = IRREDUCIBLE.find("exit:").unwrap();
    let swapped = format!(
        "{}{}{}{}",
        &IRREDUCIBLE[..left],
        &IRREDUCIBLE[right..exit],
        &IRREDUCIBLE[left..right],
        &IRREDUCIBLE[exit..]
    );
    let changed = IRREDUCIBLE.replace("%l = icmp slt", "%l = icmp sgt");
    for (name, text) in [
        ("irreducible-swapped.ll", swapped),
        ("irreducible-changed.ll", changed),
    ] {
        let b = temp(name, &format!("{DECLS}{text}"));
        let (_, out, err) = convcheck(&["check", &a, &b, "--timeout", "10"]);
        assert!(!out.contains("proved"), "{name}: {out}{err}");
    }
}

/// A loop of four iterations, one anchor per iteration.
const UNROLL_ME: &str = "
define void @unroll_me() {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %a = call token @llvm.experimental.convergence.anchor()
  call void @f() [ \"convergencectrl\"(token %a) ]
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 4
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
";

/// The same loop unrolled twice: two anchors per iteration.
const UNROLLED_BY_HAND: &str = "
define void @unroll_me() {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %a = call token @llvm.experimental.convergence.anchor()
  call void @f() [ \"convergencectrl\"(token %a) ]
  %b = call token @llvm.experimental.convergence.anchor()
  call void @f() [ \"convergencectrl\"(token %b) ]
  %next = add i32 %i, 2
  %done = icmp eq i32 %next, 4
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
";

#[test]
fn anchor_choices_are_decided() {
    let a = temp("unroll.ll", &format!("{DECLS}{UNROLL_ME}"));
    let b = temp("unrolled.ll", &format!("{DECLS}{UNROLLED_BY_HAND}"));
    let (code, out, err) = convcheck(&["check", &a, &b]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\nverdict: preserved\n"), "{out}");
    // An `entry` token converges every thread at the call; an anchor lets
    // the implementation keep them apart.
    let entry = temp(
        "entry.ll",
        &format!(
            "{DECLS}
define void @controlled() convergent {{
entry:
  %t = call token @llvm.experimental.convergence.entry()
  call void @f() [ \"convergencectrl\"(token %t) ]
  ret void
}}
"
        ),
    );
    let anchor = temp(
        "anchor.ll",
        &format!(
            "{DECLS}
define void @controlled() convergent {{
entry:
  %t = call token @llvm.experimental.convergence.anchor()
  call void @f() [ \"convergencectrl\"(token %t) ]
  ret void
}}
"
        ),
    );
    let (code, out, err) = convcheck(&["check", &entry, &anchor]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("is converged in the reference but not converged in the target")
            && out.contains("through an anchor"),
        "{out}"
    );
    // The other way round the target is more determined than the
    // reference, which allows converging every thread: preserved.
    let (code, out, err) = convcheck(&["check", &anchor, &entry]);
    assert_eq!(code, 0, "{out}{err}");
    // Real opt-19 unrolls the loop fully: four anchors in a row.
    if have("opt-19", "anchor_choices_are_decided") {
        let out_ll = opt(&["-passes=loop-unroll"], &a, "unroll-opt.ll");
        let text = std::fs::read_to_string(&out_ll).expect("read");
        assert_eq!(text.matches("call void @f()").count(), 4, "{text}");
        let (code, out, err) = convcheck(&["check", &a, &out_ll]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("\nverdict: preserved\n"), "{out}");
    }
}

/// A loop that runs `2 * n` times: `n = 0` is 2^32 iterations, `n = 5`
/// is ten, past max-iters 8, whatever the other oracles are. The pragma
/// asks LLVM to unroll it twice.
const TWICE: &str = "
define void @twice(i32 %n) {
entry:
  %count = mul i32 %n, 2
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @f()
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %count
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!\"llvm.loop.unroll.count\", i32 2}
";

/// `TWICE` unrolled twice by hand; with `calls` calls per iteration.
fn twice_unrolled(calls: usize) -> String {
    format!(
        "
define void @twice(i32 %n) {{
entry:
  %count = mul i32 %n, 2
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
{}  %next = add i32 %i, 2
  %done = icmp eq i32 %next, %count
  br i1 %done, label %exit, label %loop

exit:
  ret void
}}
",
        "  call void @f()\n".repeat(calls)
    )
}

#[test]
fn a_parameter_bounded_loop_cuts_its_scenarios() {
    let a = temp("twice.ll", &format!("{DECLS}{TWICE}"));
    let b = temp(
        "twice-unrolled.ll",
        &format!("{DECLS}{}", twice_unrolled(2)),
    );
    // Under `auto` the simulation proves the unrolling for every `n`
    // (issue 22: `ref %i = tgt %i + 1`, `%count mod 2 = 0`); the bounded
    // engine's cuts are what this test is about.
    let (code, out, err) = convcheck(&["check", &a, &b]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\nverdict: proved\n"), "{out}");
    // Under the explicit engine alone the domain of `n` is inexact (the
    // analysis does not invert `zext`), so the stage is inconclusive
    // (issue 20 class m), and the cuts are in its report.
    let (code, out, err) = convcheck(&["check", &a, &b, "--engine", "explicit"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains(
            "not tried: scenarios with the parameter values n=0; n=5; n=6; n=7; n=8 (a loop \
             leaves max-iters=8 whatever the other oracles)"
        ),
        "{out}"
    );
    assert!(
        out.contains("values: n in {0, 1, 2, 3, 4, 5, 6, 7, 8}"),
        "{out}"
    );
    assert!(out.contains("inconclusive: inexact domains of n"), "{out}");
    let (_, out, _) = convcheck(&["check", &a, &b, "--format", "json", "--engine", "explicit"]);
    let v = json(&out);
    assert!(
        v["bounds"]["cut"]["max_iters"].as_u64().unwrap_or(0) > 0,
        "{out}"
    );
    assert!(
        v["bounds"]["not_tried"][0]
            .as_str()
            .is_some_and(|s| s.contains("n=0")),
        "{out}"
    );
    // One call per unrolled iteration is half the calls: the values kept
    // still catch it.
    let bad = temp("twice-bad.ll", &format!("{DECLS}{}", twice_unrolled(1)));
    let (code, out, err) = convcheck(&["check", &a, &bad]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("thread 0 stops before `f`"), "{out}");
    // Real opt-19 unrolls it twice (the pragma) and is right.
    if have("opt-19", "a_parameter_bounded_loop_cuts_its_scenarios") {
        let out_ll = opt(&["-passes=loop-unroll"], &a, "twice-opt.ll");
        let text = std::fs::read_to_string(&out_ll).expect("read");
        assert_eq!(text.matches("call void @f()").count(), 2, "{text}");
        // Inconclusive under the explicit engine alone (`n` is inexact,
        // class m), with its cuts named; `auto` decides it.
        let (code, out, err) = convcheck(&["check", &a, &out_ll, "--engine", "explicit"]);
        assert_eq!(code, 3, "{out}{err}");
        let (code, auto, err) = convcheck(&["check", &a, &out_ll]);
        assert!(code == 0, "{auto}{err}");
        assert!(
            out.contains("not tried: scenarios with the parameter values n=0"),
            "{out}"
        );
    }
}

#[test]
fn a_loop_out_of_bounds_for_every_small_parameter_value_is_left_to_the_product() {
    // `12 * n` iterations: every value tried (0 to 8) is past max-iters.
    let a = temp(
        "twelve.ll",
        &format!(
            "{DECLS}{}",
            TWICE.replace("mul i32 %n, 2", "mul i32 %n, 12")
        ),
    );
    let b = temp(
        "twelve-unrolled.ll",
        &format!(
            "{DECLS}{}",
            twice_unrolled(2).replace("mul i32 %n, 2", "mul i32 %n, 12")
        ),
    );
    // The explicit engine alone raises its bound when every run left it:
    // at 16, `n = 1` runs 12 iterations and is compared. `n` reaches the
    // exit test through `12 * n`, which the domain analysis does not
    // invert, so alone it decides nothing (issue 20 class m).
    let (code, out, err) = convcheck(&["check", &a, &b, "--engine", "explicit"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("inexact domains of n"), "{out}");
    assert!(
        out.contains("max-iters raised from 8 to 16: at 8 every run of the reference left"),
        "{out}"
    );
    assert!(out.contains("max-iters=16: cut"), "{out}");
    // `64 * n` leaves even the raised bound (32) for every value: the
    // check stays inconclusive.
    let far =
        |name: &str, text: &str| temp(name, &text.replace("mul i32 %n, 12", "mul i32 %n, 64"));
    let a64 = far("sixty-four.ll", &std::fs::read_to_string(&a).unwrap());
    let b64 = far(
        "sixty-four-unrolled.ll",
        &std::fs::read_to_string(&b).unwrap(),
    );
    let (code, out, err) = convcheck(&["check", &a64, &b64, "--engine", "explicit"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("whatever its oracles"), "{out}");
    assert!(!out.contains("preserved"), "{out}");
    // FIXME (issue 22): under `auto` the simulation now proves this
    // unrolling for every `n` before the symbolic product runs, so the
    // product's answer here (it tries every 32-bit `n`: `12 * n` wraps to
    // at most 8 for some, n = 357913942 gives 8, and it compared those
    // runs and named what it cut, "preserved (within max-iters=8,
    // symbolic product)") is no longer reached; no engine choice runs the
    // product without the simulation.
    let (code, out, err) = convcheck(&["check", &a, &b]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\nverdict: proved\n"), "{out}");
    assert!(out.contains("simulation"), "{out}");
}

#[test]
fn a_loop_that_spins_when_a_flag_is_set_cuts_that_value() {
    let a = temp(
        "spin.ll",
        &format!(
            "{DECLS}
define void @spin(i1 %c) {{
entry:
  br label %loop

loop:
  call void @f()
  br i1 %c, label %loop, label %exit

exit:
  call void @g()
  ret void
}}
"
        ),
    );
    // The branch on the negated flag, successors swapped: the same
    // program, but not by structure.
    let b = temp(
        "spin-negated.ll",
        &format!(
            "{DECLS}
define void @spin(i1 %c) {{
entry:
  %stay = xor i1 %c, true
  br label %loop

loop:
  call void @f()
  br i1 %stay, label %exit, label %loop

exit:
  call void @g()
  ret void
}}
"
        ),
    );
    // The explicit engine cuts the spinning value (c=1: the loop leaves
    // max-iters whatever else happens) and says so; alone it cannot
    // decide.
    let (code, out, err) = convcheck(&["check", &a, &b, "--engine", "explicit"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("not tried: scenarios with the parameter values c=1"),
        "{out}"
    );
    assert!(out.contains("\nverdict: inconclusive"), "{out}");
    // The default engine's simulation relates the negated flag to the
    // flag (a candidate definition, `%stay = c xor 1`), which covers the
    // spinning runs too: proved for every iteration count.
    let (code, out, err) = convcheck(&["check", &a, &b]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("proved by simulation"), "{out}");
    assert!(out.contains("\nverdict: proved\n"), "{out}");
}

#[test]
fn a_later_violated_stage_has_its_own_target_table() {
    if !have("opt-19", "a_later_violated_stage_has_its_own_target_table") {
        return;
    }
    // Under -O2, SimplifyCFG folds loop_nest's outer header (violated) and
    // LoopUnroll changes the function again (violated too).
    let input = "model/llvm/tests/data/plain_kernels_O0.ll";
    let (code, out, err) = convcheck(&[
        "check",
        input,
        "--opt",
        "default<O2>",
        "--function",
        "loop_nest",
        "--max-iters",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v = json(&out);
    let stages = v["stages"].as_array().cloned().unwrap_or_default();
    let violated: Vec<&serde_json::Value> = stages
        .iter()
        .filter(|s| s["verdict"] == "violated")
        .collect();
    assert!(violated.len() >= 2, "{out}");
    let later = violated[1];
    let c = &later["counterexample"];
    assert!(c.get("target_table_unavailable").is_none(), "{out}");
    // The table is the one `convcheck run` prints for that stage's module
    // (opt stopped just after the pass) on the counterexample's values.
    let name = later["name"].as_str().unwrap_or_default();
    let n = name
        .rsplit("opt-bisect ")
        .next()
        .and_then(|x| x.trim_end_matches(')').parse::<u32>().ok())
        .unwrap_or_else(|| panic!("no bisect number in {name}"));
    let module = opt(
        &["-passes=default<O2>", &format!("-opt-bisect-limit={n}")],
        &root().join(input).to_string_lossy(),
        "after-pass.ll",
    );
    let mut args = vec![
        "run".to_string(),
        module,
        "--function".into(),
        "loop_nest".into(),
        "--group".into(),
        c["group"].to_string(),
        "--format".into(),
        "json".into(),
    ];
    let threads = c["threads"].as_array().cloned().unwrap_or_default();
    let tids: Vec<String> = threads.iter().map(|t| t["tid"].to_string()).collect();
    args.push("--tids".into());
    args.push(tids.join(","));
    for t in &threads {
        let values: Vec<String> = t["values"]
            .as_object()
            .map(|o| {
                o.iter()
                    .map(|(k, v)| {
                        let list: Vec<String> = v
                            .as_array()
                            .map(|a| a.iter().map(|x| x.to_string()).collect())
                            .unwrap_or_default();
                        format!("{k}={}", list.join(","))
                    })
                    .collect()
            })
            .unwrap_or_default();
        args.push("--thread".into());
        args.push(values.join(" "));
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, run, err) = convcheck(&refs);
    assert_eq!(code, 0, "{run}{err}");
    let r = json(&run);
    assert_eq!(c["target_table"]["table"], r["table"], "{out}\n{run}");
    assert_eq!(
        c["target_table"]["instances"], r["instances"],
        "{out}\n{run}"
    );
}
