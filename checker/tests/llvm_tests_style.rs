//! `examples/llvm/convergent-passes-2.ll` through real opt-19 (issue 11):
//! convergent operations, with and without convergence-control tokens,
//! under the passes whose LLVM tests exercise them (LoopUnroll with unroll
//! pragmas, SimplifyCFG, JumpThreading, Sink, LICM, GVN, LoopDistribute,
//! SimpleLoopUnswitch). Each function goes through its pipeline with
//! `convcheck check FILE --opt PIPELINE --function F`: LLVM 19.1.7 keeps
//! these correct, so each must get a verdict and none may be violated,
//! and the stage line must show what opt did (the pass that changed the
//! function, or that no pass changed it), so that no check is vacuous.
//! One function is a transform LLVM 19.1.7 gets wrong (it speculates a
//! token-controlled convergent call), which convcheck must catch.
//!
//! Tests skip with a printed reason when opt-19 is not installed.

mod common;
use common::{convcheck, have, root};
use std::process::Command;

const FILE: &str = "examples/llvm/convergent-passes-2.ll";

/// (function, pipeline, what the first stage line must say).
const CASES: &[(&str, &str, &str)] = &[
    (
        "unroll_entry_token",
        "loop-unroll",
        "LoopUnrollPass on unroll_entry_token",
    ),
    (
        "unroll_pragma_divides",
        "loop-unroll",
        "LoopUnrollPass on unroll_pragma_divides",
    ),
    (
        "unroll_pragma_runtime",
        "loop-unroll",
        "LoopUnrollPass on unroll_pragma_runtime",
    ),
    (
        "simplifycfg_phi_after_barrier",
        "simplifycfg",
        "no pass changed @simplifycfg_phi_after_barrier",
    ),
    (
        "simplifycfg_token_both_sides",
        "simplifycfg<hoist-common-insts;sink-common-insts>",
        "no pass changed @simplifycfg_token_both_sides",
    ),
    (
        "jump_threading_barrier",
        "jump-threading",
        "no pass changed @jump_threading_barrier",
    ),
    ("sink_readnone", "sink", "stage 1: "),
    ("licm_readnone_used_after", "loop-mssa(licm)", "stage 1: "),
    ("gvn_readnone_in_branch", "gvn", "stage 1: "),
    ("distribute_with_call", "loop-distribute", "stage 1: "),
    (
        "unswitch_token_loop",
        "loop(simple-loop-unswitch<nontrivial>)",
        "stage 1: ",
    ),
];

#[test]
fn llvm_style_convergent_tests_get_a_verdict_and_no_violation() {
    if !have(
        "opt-19",
        "llvm_style_convergent_tests_get_a_verdict_and_no_violation",
    ) {
        return;
    }
    for &(f, pipeline, stage) in CASES {
        let (code, out, err) = convcheck(&["check", FILE, "--opt", pipeline, "--function", f]);
        assert_ne!(code, 1, "false alarm on @{f} under {pipeline}:\n{out}{err}");
        assert_eq!(code, 0, "no verdict on @{f} under {pipeline}:\n{out}{err}");
        // Preserved within the bounds, or proved for every iteration count
        // where opt left the function unchanged (up to names and order).
        assert!(
            out.contains("verdict: preserved") || out.contains("verdict: proved"),
            "@{f}: {out}"
        );
        let first = out
            .lines()
            .find(|l| l.starts_with("stage 1: "))
            .unwrap_or_default();
        assert!(
            first.contains(stage),
            "@{f} under {pipeline}: {first}\n{out}"
        );
    }
}

/// What the passes did, checked on opt-19's own output independently of
/// convcheck: the unrolled loops lost their back edge and gained calls, the
/// passes that must leave a function alone did, the distributed loop was
/// not versioned.
#[test]
fn opt_did_what_the_cases_say() {
    if !have("opt-19", "opt_did_what_the_cases_say") {
        return;
    }
    let body = |pipeline: &str, f: &str| -> String {
        let out = Command::new("opt-19")
            .args([&format!("-passes={pipeline}"), "-S", FILE])
            .current_dir(root())
            .output()
            .expect("opt-19 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let start = text
            .find(&format!("@{f}("))
            .unwrap_or_else(|| panic!("@{f} in opt's output"));
        let end = text[start..]
            .find("\n}\n")
            .map_or(text.len(), |e| start + e);
        text[start..end].to_string()
    };
    let calls = |b: &str| b.matches("call void @sync()").count();
    let unrolled = body("loop-unroll", "unroll_entry_token");
    assert_eq!(calls(&unrolled), 3, "{unrolled}");
    assert!(
        unrolled.contains("\"convergencectrl\"(token %h)"),
        "{unrolled}"
    );
    let pragma = body("loop-unroll", "unroll_pragma_divides");
    assert_eq!(calls(&pragma), 2, "{pragma}");
    let runtime = body("loop-unroll", "unroll_pragma_runtime");
    assert_eq!(calls(&runtime), 1, "no remainder loop: {runtime}");
    let barrier = body("simplifycfg", "simplifycfg_phi_after_barrier");
    assert_eq!(calls(&barrier), 2, "{barrier}");
    let both = body(
        "simplifycfg<hoist-common-insts;sink-common-insts>",
        "simplifycfg_token_both_sides",
    );
    assert_eq!(both.matches("call i32 @vote").count(), 2, "{both}");
    let distributed = body("loop-distribute", "distribute_with_call");
    assert!(!distributed.contains("ldist"), "{distributed}");
}

/// LLVM 19.1.7's SimplifyCFG speculates a `speculatable` convergent call
/// controlled by the entry token into the entry block: every thread runs
/// it, where only the threads with %c set did (LLVM's later tests expect
/// the call to stay in %then). convcheck blames SimplifyCFG, and the two
/// runs show the thread with %c clear executing the call only in the
/// target.
#[test]
fn speculated_convergent_call_is_caught() {
    if !have("opt-19", "speculated_convergent_call_is_caught") {
        return;
    }
    let (code, out, err) = convcheck(&[
        "check",
        FILE,
        "--opt",
        "simplifycfg",
        "--function",
        "speculate_token_call",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "verdict: violated (first at stage 1: SimplifyCFGPass on speculate_token_call"
        ),
        "{out}"
    );
    assert!(out.contains("pure_vote"), "{out}");
    // The same two threads on both sides: tid 0 with c=0, tid 1 with c=1.
    let threads = [
        "--thread",
        "c=0 x=0 pure_vote=0",
        "--thread",
        "c=1 x=0 pure_vote=0",
    ];
    let mut reference = vec!["run", FILE, "--function", "speculate_token_call"];
    reference.extend(threads);
    let (code, before, err) = convcheck(&reference);
    assert_eq!(code, 0, "{before}{err}");
    let dir = std::env::temp_dir().join(format!("convcheck-llvm-style-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let target = dir.join("speculated.ll");
    let opt = Command::new("opt-19")
        .args(["-passes=simplifycfg", "-S", FILE, "-o"])
        .arg(&target)
        .current_dir(root())
        .output()
        .expect("opt-19 runs");
    assert!(opt.status.success());
    let target = target.to_string_lossy().into_owned();
    let mut after_args = vec!["run", &target, "--function", "speculate_token_call"];
    after_args.extend(threads);
    let (code, after, err) = convcheck(&after_args);
    assert_eq!(code, 0, "{after}{err}");
    let row = |table: &str, tid: &str| -> String {
        table
            .lines()
            .find(|l| l.starts_with(&format!("| tid {tid} ")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(!row(&before, "0").contains("pure_vote"), "{before}");
    assert!(row(&before, "1").contains("pure_vote"), "{before}");
    assert!(row(&after, "0").contains("pure_vote"), "{after}");
    assert!(row(&after, "1").contains("pure_vote"), "{after}");
    // One column: the entry token converges the two instances.
    let header = after
        .lines()
        .find(|l| l.starts_with("|       | 1 "))
        .unwrap_or_default();
    assert!(!header.is_empty() && !header.contains(" 2 "), "{after}");
}

/// A target whose convergence regions overlap without nesting breaks a
/// static rule the reference keeps: `check` reports it violated with
/// LLVM's message, and `opt-19 -passes=verify` rejects the same module
/// with that message first.
#[test]
fn regions_that_stop_nesting_are_caught() {
    if !have("opt-19", "regions_that_stop_nesting_are_caught") {
        return;
    }
    let module = |first: &str, second: &str| {
        format!(
            "define void @swap(i1 %c) {{
entry:
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %then, label %join
then:
  call void @sync() [ \"convergencectrl\"(token %{first}) ]
  call void @sync() [ \"convergencectrl\"(token %{second}) ]
  br label %join
join:
  ret void
}}
declare void @sync() convergent
declare token @llvm.experimental.convergence.anchor()
"
        )
    };
    let dir = std::env::temp_dir().join(format!("convcheck-llvm-nesting-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let reference = dir.join("nested.ll");
    let target = dir.join("crossed.ll");
    std::fs::write(&reference, module("b", "a")).expect("write");
    std::fs::write(&target, module("a", "b")).expect("write");
    let verify = |p: &std::path::Path| {
        let out = Command::new("opt-19")
            .args(["-passes=verify", "-disable-output"])
            .arg(p)
            .output()
            .expect("opt-19 runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .next()
                .unwrap_or_default()
                .to_string(),
        )
    };
    assert_eq!(verify(&reference), (true, String::new()));
    assert_eq!(
        verify(&target),
        (false, "Convergence region is not well-nested.".to_string())
    );
    let (r, t) = (
        reference.to_string_lossy().into_owned(),
        target.to_string_lossy().into_owned(),
    );
    let (code, out, err) = convcheck(&["check", &r, &t]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("Convergence region is not well-nested."),
        "{out}"
    );
    assert!(out.contains("line 8"), "{out}");
}
