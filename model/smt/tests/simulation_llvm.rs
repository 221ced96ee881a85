//! The simulation engine (`convcheck_smt::simulation`, issue 22) on small
//! LLVM IR functions written for these tests, in the shapes LLVM's
//! convergent tests exercise: convergence-control anchors and loops
//! unrolled by a factor. Each form the engine proves has a mutant that
//! breaks the form's side condition and must not be proved (and which
//! the interpreter or the bounded product shows wrong, or which is
//! wrong by the semantics the form rests on, as each case says).

use convcheck_smt::simulation::{prove, SimAnswer, SimOptions};

fn module(text: &str) -> convcheck_ir::Module {
    let m = convcheck_llvm::parse_module(text, "test.ll").unwrap_or_else(|e| panic!("{e}"));
    convcheck_llvm::to_ir::to_module(&m, "test.ll").module
}

const DECLS: &str = "
declare void @f() convergent
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
";

/// The simulation's answer for function `name` of `reference` against
/// the same function of `target` (both completed with the declarations).
fn sim(reference: &str, target: &str, name: &str) -> SimAnswer {
    let r = module(&format!("{reference}\n{DECLS}"));
    let t = module(&format!("{target}\n{DECLS}"));
    let (rf, tf) = (r.function(name).unwrap(), t.function(name).unwrap());
    prove(&r, rf, &t, tf, &SimOptions::default())
}

fn proved(a: &SimAnswer) -> bool {
    matches!(a, SimAnswer::Proved(_))
}

/// A loop of three iterations under an anchor in the entry block, and the
/// same loop fully unrolled (LoopUnroll keeps the heart, now in no cycle).
const ANCHORED_LOOP: &str = "
define void @k() {
entry:
  %a = call token @llvm.experimental.convergence.anchor()
  br label %h
h:
  %x = phi i32 [ 0, %entry ], [ %inc, %h ]
  %t = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %a) ]
  call void @f() [ \"convergencectrl\"(token %t) ]
  %inc = add nsw i32 %x, 1
  %c = icmp eq i32 %inc, 3
  br i1 %c, label %exit, label %h
exit:
  ret void
}";

fn unrolled(anchor: &str, ctl: [&str; 3]) -> String {
    format!(
        "
define void @k() {{
entry:
  %a = call token @llvm.experimental.convergence.{anchor}()
  br label %h
h:
  %t = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %a) ]
  call void @f() [ \"convergencectrl\"(token {}) ]
  call void @f() [ \"convergencectrl\"(token {}) ]
  call void @f() [ \"convergencectrl\"(token {}) ]
  ret void
}}",
        ctl[0], ctl[1], ctl[2]
    )
}

#[test]
fn anchors_in_no_cycle() {
    // Fully unrolled: each iteration's call keeps its anchor's choice and
    // the heart's count (now 0 in every copy, one site per iteration).
    let a = sim(ANCHORED_LOOP, &unrolled("anchor", ["%t", "%t", "%t"]), "k");
    assert!(proved(&a), "{a:?}");
    // The function unchanged.
    let a = sim(ANCHORED_LOOP, ANCHORED_LOOP, "k");
    assert!(proved(&a), "{a:?}");
    // Mutant of the side condition "matched calls hang from anchors of
    // one name": the reference under `entry` (determined: the calls of
    // one iteration always converge), the target under an anchor (the
    // implementation may keep them apart, which the reference does not
    // allow). The erased keys are equal; the renamed labels are not.
    let entry_ref = ANCHORED_LOOP.replace("convergence.anchor", "convergence.entry");
    let a = sim(&entry_ref, &entry_ref, "k");
    assert!(proved(&a), "{a:?}");
    let a = sim(&entry_ref, &unrolled("anchor", ["%t", "%t", "%t"]), "k");
    assert!(!proved(&a), "entry replaced by an anchor proved: {a:?}");
    eprintln!("entry -> anchor: {a:?}");
    // Mutant of "the anchor is in no cycle": the target's anchor moved
    // into the loop, a fresh choice per iteration (a thread's first call
    // may then converge with another's second, which the reference's heart
    // forbids). The erased programs are the same loop.
    let inside = ANCHORED_LOOP
        .replace("  %a = call token @llvm.experimental.convergence.anchor()\n", "")
        .replace(
            "%t = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %a) ]",
            "%t = call token @llvm.experimental.convergence.anchor()",
        );
    assert!(inside.contains("h:\n  %x = phi i32 [ 0, %entry ], [ %inc, %h ]\n  %t = call token @llvm.experimental.convergence.anchor()"), "{inside}");
    let a = sim(ANCHORED_LOOP, &inside, "k");
    assert!(
        matches!(&a, SimAnswer::NotFound(w) if w.contains("anchors in cycles")),
        "anchor moved into the loop: {a:?}"
    );
}
