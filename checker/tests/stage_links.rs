//! A stage of an LLVM pipeline that is the stage before it up to names,
//! block order and merged straight-line chains takes that stage's verdict
//! (bounded or not) instead of being decided again
//! (`checker/src/pipeline/decide/batch.rs`, `LINKED_NOTE`): TailCallElim
//! only marks calls `tail` after InstCombine's preserved (not proved)
//! stage of a function with loads and a barrier, which the simulation
//! refuses; InstCombine's own stage is decided by an engine.

mod common;
use common::{convcheck, have, temp};

const KERNEL: &str = r#"declare void @llvm.nvvm.barrier0() convergent
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @use(i32)

@buf = addrspace(3) global [4 x i32] zeroinitializer

define void @k(i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [4 x i32], ptr addrspace(3) @buf, i32 0, i32 %t
  %a = add i32 %n, 0
  store i32 %a, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %v = load i32, ptr addrspace(3) @buf
  %c = icmp ne i32 %v, 0
  br i1 %c, label %then, label %exit
then:
  call void @use(i32 %v)
  br label %exit
exit:
  ret void
}
"#;

const NOTE: &str = "the stage before it up to names, block order and merged straight-line chains";

#[test]
fn a_stage_equal_to_the_one_before_takes_its_verdict() {
    if !have(
        "opt-19",
        "a_stage_equal_to_the_one_before_takes_its_verdict",
    ) {
        return;
    }
    let file = temp("linked.ll", KERNEL);
    let (code, out, err) = convcheck(&["check", &file, "--opt", "instcombine,tailcallelim"]);
    assert_eq!(code, 0, "{out}{err}");
    let stage2 = out
        .split("stage 2: TailCallElimPass")
        .nth(1)
        .unwrap_or_else(|| panic!("no TailCallElim stage: {out}"));
    assert!(
        stage2.starts_with(" on k (opt-bisect 2): preserved"),
        "{out}"
    );
    assert!(stage2.contains(NOTE), "{out}");
    // InstCombine's own stage is decided by an engine, not linked.
    let stage1 = out.split("stage 2:").next().unwrap_or_default();
    assert!(
        stage1.contains("InstCombinePass on k (opt-bisect 1): preserved"),
        "{out}"
    );
    assert!(!stage1.contains(NOTE), "{out}");
}

/// `KERNEL` with a loop whose counter is used after it: LCSSA gives the
/// use a one-incoming phi and InstCombine folds it again (`default<O2>`
/// runs LCSSA, LoopSimplify, InstCombine and SimplifyCFG again and again,
/// each undoing what another did, on `examples/gpu`'s kernels). The
/// structural rule does not undo the one-incoming phi, so the adjacent
/// stages are not linked, and each of the last two is an earlier stage
/// again.
const LOOP: &str = r#"declare void @llvm.nvvm.barrier0() convergent
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @use(i32)

@buf = addrspace(3) global [4 x i32] zeroinitializer

define void @k(i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [4 x i32], ptr addrspace(3) @buf, i32 0, i32 %t
  %m = add i32 %n, 0
  %c0 = icmp sgt i32 %m, 0
  br i1 %c0, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  store i32 %i, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %v = load i32, ptr addrspace(3) @buf
  call void @use(i32 %v)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %m
  br i1 %c, label %loop, label %after
after:
  call void @use(i32 %i1)
  br label %exit
exit:
  ret void
}
"#;

/// A stage that is an earlier stage than the one before it up to names
/// (InstCombine's second stage is its first, with LCSSA's between them;
/// LCSSA's second is its first) takes that stage's verdict, and its
/// simulation is skipped; the first two stages are decided on their own.
#[test]
fn a_stage_equal_to_an_earlier_one_takes_its_verdict() {
    if !have(
        "opt-19",
        "a_stage_equal_to_an_earlier_one_takes_its_verdict",
    ) {
        return;
    }
    let file = temp("twin.ll", LOOP);
    let (code, out, err) = convcheck(&[
        "check",
        &file,
        "--opt",
        "instcombine,lcssa,instcombine,lcssa",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let stage = |n: usize| {
        out.split(&format!("stage {n}: "))
            .nth(1)
            .and_then(|s| s.split("\nstage ").next())
            .unwrap_or_else(|| panic!("no stage {n}: {out}"))
            .to_string()
    };
    // The verdict line of a stage after its pass's name.
    let verdict = |s: &str| {
        s.lines()
            .next()
            .unwrap_or_default()
            .split("): ")
            .nth(1)
            .unwrap_or_default()
            .to_string()
    };
    let (one, two, three, four) = (stage(1), stage(2), stage(3), stage(4));
    assert!(
        one.starts_with("InstCombinePass on k (opt-bisect 1): preserved ("),
        "{out}"
    );
    assert!(
        two.starts_with("LCSSAPass on k (opt-bisect 2): preserved ("),
        "{out}"
    );
    assert!(
        three.starts_with("InstCombinePass on k (opt-bisect 3): "),
        "{out}"
    );
    assert!(four.starts_with("LCSSAPass on k (opt-bisect 4): "), "{out}");
    for (later, earlier, n) in [(&three, &one, 1), (&four, &two, 2)] {
        assert!(
            later.contains(&format!(
                "note: stage {n} up to names, block order and merged straight-line chains"
            )),
            "{out}"
        );
        assert!(
            later.contains(&format!("skipped: stage {n} up to names")),
            "{out}"
        );
        // The same verdict and count of scenarios as the stage an engine
        // decided.
        assert_eq!(verdict(later), verdict(earlier), "{out}");
    }
    for s in [&one, &two] {
        assert!(!s.contains("up to names"), "{out}");
    }
}
