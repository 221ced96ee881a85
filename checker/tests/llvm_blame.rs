//! Which pass a stage of `convcheck check --opt` names (issue 11): a pass
//! after which opt prints no module because it invalidated its unit (a
//! loop it deleted or fully unrolled) is a stage of its own, and each
//! stage's pass is the one that really changed the function, as opt-19
//! itself shows when stopped with `-opt-bisect-limit=N-1` and `N`; and
//! opt's dumps of functions with C labels (`L1:`) are read whole. Tests
//! that need `opt-19` or `clang-19` print why they skip when the tools are
//! absent.

mod common;
use common::{convcheck, have, root, temp};
use std::process::Command;

/// The body of `@function` (after its `define` line, whose attributes
/// module passes change, to its closing brace) in what opt-19 prints for
/// `pipeline` stopped after pass `n`.
fn function_after(input: &str, pipeline: &str, n: u64, function: &str) -> String {
    let out = Command::new("opt-19")
        .arg(format!("-passes={pipeline}"))
        .arg(format!("-opt-bisect-limit={n}"))
        .args(["-S", input, "-o", "-"])
        .output()
        .expect("opt-19 runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let start = text
        .lines()
        .position(|l| l.starts_with("define") && l.contains(&format!("@{function}(")))
        .unwrap_or_else(|| panic!("no @{function} in\n{text}"));
    text.lines()
        .skip(start + 1)
        .take_while(|l| *l != "}")
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `(pass, bisect number)` of every stage line of a text report.
fn stages(report: &str) -> Vec<(String, Option<u64>)> {
    report
        .lines()
        .filter_map(|l| l.strip_prefix("stage "))
        .filter_map(|l| l.split_once(": ").map(|(_, rest)| rest))
        .map(|rest| {
            let head = rest.rsplit_once("): ").map_or(rest, |(h, _)| h);
            // A stage proved against the stage before it says so after its
            // name: `NAME (opt-bisect N) (against the stage before it`.
            let head = head.split_once(") (against ").map_or(head, |(h, _)| h);
            match head.rsplit_once(" (opt-bisect ") {
                Some((pass, n)) => (pass.to_string(), n.parse().ok()),
                None => (head.to_string(), None),
            }
        })
        .collect()
}

/// Our own counted loop whose body only calls a convergent function.
const TWICE: &str = "; A counted loop of two iterations around a convergent call.\n\
declare void @sync() convergent nounwind\n\
\n\
define void @twice() convergent {\n\
entry:\n\
  br label %loop\n\
\n\
loop:\n\
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]\n\
  call void @sync()\n\
  %next = add i32 %i, 1\n\
  %more = icmp ult i32 %next, 2\n\
  br i1 %more, label %loop, label %done\n\
\n\
done:\n\
  ret void\n\
}\n";

#[test]
fn a_fully_unrolled_loop_is_the_unrollers_stage() {
    if !have("opt-19", "a_fully_unrolled_loop_is_the_unrollers_stage") {
        return;
    }
    // LoopFullUnrollPass deletes the loop it unrolls, and opt prints no
    // module after it; SimplifyCFG then merges the copies. Before issue
    // 11's fix the only stage was SimplifyCFG, credited with the unrolling.
    let input = temp("twice.ll", TWICE);
    let pipeline = "loop(loop-unroll-full),simplifycfg";
    let (code, out, err) = convcheck(&["check", &input, "--opt", pipeline]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        stages(&out),
        [
            (
                "LoopFullUnrollPass on loop %loop in function twice".to_string(),
                Some(3)
            ),
            ("SimplifyCFGPass on twice".to_string(), Some(4)),
        ],
        "{out}"
    );
    // opt-19 itself: pass 3 changed @twice (the loop is gone, the call is
    // there twice), and pass 4 changed it again.
    let before = function_after(&input, pipeline, 2, "twice");
    let unrolled = function_after(&input, pipeline, 3, "twice");
    let merged = function_after(&input, pipeline, 4, "twice");
    assert!(before.contains("phi i32"), "{before}");
    assert!(!unrolled.contains("phi i32"), "{unrolled}");
    assert_eq!(
        unrolled.matches("call void @sync()").count(),
        2,
        "{unrolled}"
    );
    assert_ne!(unrolled, merged);
}

#[test]
fn the_find_tid_loop_deleted_by_loop_deletion_is_its_stage() {
    let test = "the_find_tid_loop_deleted_by_loop_deletion_is_its_stage";
    if !have("opt-19", test) || !have("clang-19", test) {
        return;
    }
    let file = "examples/llvm/lane-loop.cu";
    let (code, out, err) = convcheck(&[
        "check",
        file,
        "--frontend",
        "clang",
        "--opt",
        "O2",
        "--reference",
        "cfg",
        "--function",
        "lane_sync",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let got = stages(&out);
    let numbers: Vec<u64> = got.iter().filter_map(|(_, n)| *n).collect();
    assert_eq!(numbers.len(), got.len(), "every stage has a number: {out}");
    let pass = |n: u64| {
        got.iter()
            .find(|(_, m)| *m == Some(n))
            .map(|(p, _)| p.split(" on ").next().unwrap_or("").to_string())
    };
    // SimpleLoopUnswitch (58) and LoopDeletion (62) invalidate their loop;
    // InstCombine (69) is the next pass that prints a module.
    assert_eq!(pass(58).as_deref(), Some("SimpleLoopUnswitchPass"), "{out}");
    assert_eq!(pass(62).as_deref(), Some("LoopDeletionPass"), "{out}");
    assert_eq!(pass(69).as_deref(), Some("InstCombinePass"), "{out}");
    // Every stage's pass changed the function, and no pass between two
    // stages did: opt-19 stopped at N-1 and N, and at each stage and just
    // before the next one.
    let (ll, _) = convcheck::llvm::frontend::compile(
        convcheck::llvm::Frontend::Clang,
        &root().join(file).display().to_string(),
        None,
        std::time::Duration::from_secs(60),
    )
    .expect("clang-19 compiles the example");
    let input = temp("lane-loop.ll", &ll);
    let f = "_Z9lane_syncPi";
    for w in numbers.windows(2) {
        let (n, next) = (w[0], w[1]);
        let at = function_after(&input, "default<O2>", n, f);
        assert_ne!(
            function_after(&input, "default<O2>", n - 1, f),
            at,
            "pass {n}"
        );
        assert_eq!(
            at,
            function_after(&input, "default<O2>", next - 1, f),
            "{n}..{next}"
        );
    }
}

#[test]
fn dumps_of_functions_with_c_labels_are_read_whole() {
    let test = "dumps_of_functions_with_c_labels_are_read_whole";
    if !have("opt-19", test) || !have("clang-19", test) {
        return;
    }
    // Blocks named after the C labels `L1` and `Done`: a capitalised word
    // ending in `:` once ended opt's last dump (exit 2, "expected '}' at
    // the end of the function body").
    let c = temp(
        "labels.c",
        "extern void A(void) __attribute__((convergent));\n\
         extern void B(void) __attribute__((convergent));\n\
         extern long c(void);\n\
         extern long get_local_id(int);\n\
         \n\
         void kernel(void) {\n\
         \x20 long i = 0;\n\
         L1:\n\
         \x20 A();\n\
         \x20 i = i + 1;\n\
         \x20 if (c() && i < 3)\n\
         \x20   goto L1;\n\
         Done:\n\
         \x20 B();\n\
         \x20 if (get_local_id(0) == i) {\n\
         \x20   i = i + 1;\n\
         \x20   goto Done;\n\
         \x20 }\n\
         }\n",
    );
    let pipeline = "simplifycfg<no-keep-loops>";
    let (code, out, err) = convcheck(&["check", &c, "--frontend", "clang", "--opt", pipeline]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        stages(&out),
        [("SimplifyCFGPass on kernel".to_string(), Some(1))],
        "{out}"
    );
    assert!(out.contains("verdict: proved"), "{out}");
    // opt-19's output has the labelled blocks, and blocks after them.
    let (ll, _) = convcheck::llvm::frontend::compile(
        convcheck::llvm::Frontend::Clang,
        &c,
        None,
        std::time::Duration::from_secs(60),
    )
    .expect("clang-19 compiles");
    let input = temp("labels.ll", &ll);
    let after = function_after(&input, pipeline, 1, "kernel");
    let labels: Vec<&str> = after
        .lines()
        .filter_map(|l| l.split_once(':').map(|(w, _)| w))
        .filter(|w| !w.contains(' ') && !w.is_empty())
        .collect();
    let l1 = labels.iter().position(|l| *l == "L1");
    assert!(l1.is_some_and(|k| k + 2 < labels.len()), "{labels:?}");
    assert!(labels.contains(&"Done"), "{labels:?}");
}

#[test]
fn seed_loops_through_o2_chain_their_proofs_and_blame_the_late_simplifycfg() {
    let test = "seed_loops_through_o2_chain_their_proofs_and_blame_the_late_simplifycfg";
    if !have("opt-19", test) {
        return;
    }
    // Seed 000's two loops as convcheck lowers them, through -O2 (issue
    // 22): every stage of `loop_continue` is proved, the later ones
    // against the stage before it (the proofs compose), and `loop_nest`
    // is violated first at the late SimplifyCFG (which folds the nest),
    // found by the quick explicit search before any long enumeration.
    let (code, ll, err) = convcheck(&["lower", "examples/seed/ambiguity-source.c", "--emit", "ll"]);
    assert_eq!(code, 0, "{err}");
    let input = temp("seed.ll", &ll);
    let (code, out, err) = convcheck(&["check", &input, "--opt", "default<O2>"]);
    assert_eq!(code, 1, "{out}{err}");
    let (cont, nest) = out
        .split_once("`loop_nest`")
        .unwrap_or_else(|| panic!("{out}"));
    assert!(cont.contains("verdict: proved"), "{out}");
    assert!(
        cont.contains("(against the stage before it): proved (every iteration count)"),
        "{out}"
    );
    assert!(
        nest.contains(
            "verdict: violated (first at stage 4: SimplifyCFGPass on loop_nest (opt-bisect 189))"
        ),
        "{out}"
    );
    assert!(
        nest.contains("counterexample found by the explicit engine at max-iters 1"),
        "{out}"
    );
    // Before the stage's violation no stage of the nest is left open.
    assert!(!nest.contains("inconclusive"), "{out}");
    // The named stage is the one opt-19 itself shows folding the nest: the
    // function after pass 188 has one more block than after 189.
    let blocks = |n| {
        function_after(&input, "default<O2>", n, "loop_nest")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with(' '))
            .count()
    };
    assert!(blocks(188) > blocks(189), "{out}");
}

/// `if (tid < 16) { sync(); out[tid] = 1 } else { sync(); out[tid] = 2 }`
/// with `@sync` convergent through its attribute group (review2 G5).
const BRANCHES: &str = "target triple = \"nvptx64-nvidia-cuda\"\n\
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0\n\
declare void @sync() #1\n\
\n\
define void @k(ptr addrspace(1) %out) {\n\
entry:\n\
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
  %c = icmp ult i32 %tid, 16\n\
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid\n\
  br i1 %c, label %a, label %b\n\
a:\n\
  call void @sync() #1\n\
  store i32 1, ptr addrspace(1) %p, align 4\n\
  br label %j\n\
b:\n\
  call void @sync() #1\n\
  store i32 2, ptr addrspace(1) %p, align 4\n\
  br label %j\n\
j:\n\
  ret void\n\
}\n\
attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }\n\
attributes #1 = { convergent nounwind }\n";

/// A wrong "opt" (review2 pipe/badopt2.sh): its first pass, printed as
/// `ForceFunctionAttrsPass on [module]`, only drops `convergent` from the
/// attribute groups; then the real opt-19 SimplifyCFG hoists the calls,
/// legally on its input.
const DROPS_CONVERGENT: &str = r#"#!/bin/bash
args=(); in=""; out=""; prev=""
for a in "$@"; do
  case "$a" in -passes=*) ;; *) if [ "$prev" = "-o" ]; then out="$a"; elif [ "$a" = "-o" ]; then :; elif [ "${a#-}" = "$a" ]; then in="$a"; else args+=("$a"); fi;; esac
  prev="$a"
done
d=$(mktemp -d)
opt-19 -passes=verify -S "$in" -o $d/mid.ll || exit 1
sed -i 's/attributes \(#[0-9]*\) = { convergent /attributes \1 = { /' $d/mid.ll
{ echo "*** IR Dump After ForceFunctionAttrsPass on [module] ***"; cat $d/mid.ll; } >&2
opt-19 '-passes=simplifycfg<hoist-common-insts;sink-common-insts>' "${args[@]}" $d/mid.ll -o "$out" 2>$d/e2 || { cat $d/e2 >&2; exit 1; }
sed 's/running pass (1)/running pass (2)/' $d/e2 >&2
rm -rf $d
"#;

#[test]
fn a_pass_that_changes_only_attributes_is_blamed_for_it() {
    if !have(
        "opt-19",
        "a_pass_that_changes_only_attributes_is_blamed_for_it",
    ) {
        return;
    }
    let src = temp("attr-only.ll", BRANCHES);
    let wrapper = temp("drops-convergent.sh", DROPS_CONVERGENT);
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let (code, out, err) = convcheck(&[
        "check",
        &src,
        "--function",
        "k",
        "--opt",
        "forceattrs,simplifycfg",
        "--opt-bin",
        &wrapper,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let first_violated = out
        .lines()
        .find(|l| l.starts_with("stage ") && l.to_lowercase().contains("violated"))
        .unwrap_or_else(|| panic!("no violated stage in\n{out}"));
    assert!(
        first_violated.contains("ForceFunctionAttrsPass"),
        "the attribute pass must be blamed: {first_violated}\n{out}"
    );
}

/// An internal `@h(x, p)`: `if (tid < x) sync(); *p = x`, called once by
/// the kernel with `x = 1024` (review2 G6). `STORE` is what `@h` stores.
fn internal_callee(store: &str) -> String {
    format!(
        "target triple = \"nvptx64-nvidia-cuda\"\n\
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
declare void @sync() #1\n\
\n\
define internal void @h(i32 %x, ptr addrspace(1) %p) noinline {{\n\
entry:\n\
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
  %c = icmp ult i32 %tid, %x\n\
  br i1 %c, label %a, label %b\n\
a:\n\
  call void @sync() #1\n\
  br label %b\n\
b:\n\
  store i32 {store}, ptr addrspace(1) %p\n\
  ret void\n\
}}\n\
\n\
define void @k(ptr addrspace(1) %out) {{\n\
entry:\n\
  call void @h(i32 1024, ptr addrspace(1) %out)\n\
  ret void\n\
}}\n\
attributes #1 = {{ convergent nounwind }}\n"
    )
}

#[test]
fn ipsccp_of_an_internal_callee_is_not_a_violation_and_a_wrong_callee_still_is() {
    if !have("opt-19", "ipsccp_of_an_internal_callee_is_not_a_violation") {
        return;
    }
    let src = temp("ip.ll", &internal_callee("%x"));
    let (code, out, err) = convcheck(&["check", &src, "--opt", "ipsccp"]);
    assert_ne!(code, 1, "{out}{err}");
    assert!(out.contains("interprocedural"), "{out}{err}");
    // A wrong callee (it stores x + 1 where x = 1024): the kernel's own
    // check still sees it.
    let wrong = temp("ip-wrong.ll", &internal_callee("1025"));
    let (code, out, err) = convcheck(&["check", &src, &wrong]);
    assert_eq!(code, 1, "{out}{err}");
}
