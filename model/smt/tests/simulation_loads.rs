//! Byte-addressed loads as accesses only (issue 22; `simulation/exec.rs`,
//! `Eval::accesses`): where the tries with loads as events find no
//! relation, the simulation tries again with every load of shared or
//! global memory no event at all, as single-thread behaviour has it
//! (`convcheck_ir::exec::observe`: its value is all it gives, and the
//! value is compared wherever it goes). LLVM's nontrivial unswitching then
//! proves where the target uses a load at once through `freeze` that the
//! reference uses later or never (`nontrivial-unswitch.ll`'s `test7a`),
//! and where the unswitched copy drops a load whose value no longer
//! matters (`test32`). Each shape has a mutant that is not proved and that
//! the bounded product refutes. The hazard condition that comes with it
//! (`obligations::loads_covered`: a target's load reads bytes that the
//! reference accesses in the same step) is shown not vacuous: a load added
//! where another thread writes (a race, which the explicit engine reports:
//! `checker/tests/loads.rs`) is refused by it alone.

mod sim_pair;

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_smt::simulation::{
    check_relation, check_relation_with, find_relation, Conditions, SimAnswer, SimOptions,
};
use sim_pair::proved;

fn module(text: &str) -> convcheck_ir::Module {
    sim_pair::module_with(
        text,
        "declare void @f(i32)\ndeclare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n",
    )
}

fn sim(reference: &str, target: &str) -> SimAnswer {
    sim_pair::prove_k(module(reference), module(target))
}

/// Whether the bounded product finds a counterexample (max-iters 2).
fn product_refutes(reference: &str, target: &str) -> bool {
    sim_pair::refuted_k(module(reference), module(target))
}

/// `test7a`'s shape: the reference loads `%c` at every iteration and uses
/// it only on the way round (`%a`); the target unswitches on it at once,
/// through `freeze`. On a run that leaves at once the reference never
/// uses `%c`. `COND` is the location the target's condition loads.
fn freeze_unswitched(cond: &str) -> String {
    format!(
        "
define void @k(ptr %p, ptr %q, ptr %r) {{
entry:
  br label %h
h:
  %c = load i1, ptr {cond}, align 1
  %v = load i1, ptr %p, align 1
  %c.fr = freeze i1 %c
  br i1 %c.fr, label %h.us, label %h.split
h.us:
  br i1 %v, label %a.us, label %exit
a.us:
  call void @f(i32 1)
  br label %exit
h.split:
  br i1 %v, label %a, label %exit
a:
  call void @f(i32 1)
  br label %h
exit:
  ret void
}}"
    )
}

const FREEZE_REFERENCE: &str = "
define void @k(ptr %p, ptr %q, ptr %r) {
entry:
  br label %h
h:
  %c = load i1, ptr %q, align 1
  %v = load i1, ptr %p, align 1
  br i1 %v, label %a, label %exit
a:
  call void @f(i32 1)
  br i1 %c, label %exit, label %h
exit:
  ret void
}";

#[test]
fn a_load_used_at_once_through_freeze() {
    let target = freeze_unswitched("%q");
    let a = sim(FREEZE_REFERENCE, &target);
    assert!(proved(&a), "{a:?}");
    assert!(!product_refutes(FREEZE_REFERENCE, &target));
    // Mutant: the target unswitches on another location's value.
    let wrong = freeze_unswitched("%r");
    let a = sim(FREEZE_REFERENCE, &wrong);
    assert!(
        !proved(&a),
        "a condition loaded from another location: {a:?}"
    );
    assert!(product_refutes(FREEZE_REFERENCE, &wrong));
}

/// `test32`'s shape: the reference's `select` reads `%v1` at every
/// iteration; under `%x` false the `select` is false whatever `%v1`, and
/// the target's copy for that case no longer loads it. `GUARD` is the
/// value of `%x` under which the target's copy drops the load.
fn dropped_under(guard: &str) -> String {
    let (drop, keep) = if guard == "false" {
        ("entry.split.us", "entry.split")
    } else {
        ("entry.split", "entry.split.us")
    };
    format!(
        "
define void @k(ptr %p1, ptr %p3, i1 %x) {{
entry:
  %x.fr = freeze i1 %x
  br i1 %x.fr, label %entry.split, label %entry.split.us
{drop}:
  br label %h.us
h.us:
  call void @f(i32 2)
  %w.us = load i1, ptr %p3, align 1
  br i1 %w.us, label %h.us, label %exit
{keep}:
  br label %h
h:
  %v1 = load i1, ptr %p1, align 1
  %s = select i1 %v1, i1 true, i1 false
  br i1 %s, label %a, label %b
a:
  call void @f(i32 1)
  br label %latch
b:
  call void @f(i32 2)
  br label %latch
latch:
  %w = load i1, ptr %p3, align 1
  br i1 %w, label %h, label %exit
exit:
  ret void
}}"
    )
}

const DROPPED_REFERENCE: &str = "
define void @k(ptr %p1, ptr %p3, i1 %x) {
entry:
  br label %h
h:
  %v1 = load i1, ptr %p1, align 1
  %s = select i1 %v1, i1 %x, i1 false
  br i1 %s, label %a, label %b
a:
  call void @f(i32 1)
  br label %latch
b:
  call void @f(i32 2)
  br label %latch
latch:
  %w = load i1, ptr %p3, align 1
  br i1 %w, label %h, label %exit
exit:
  ret void
}";

#[test]
fn a_load_dropped_where_its_value_no_longer_matters() {
    let target = dropped_under("false");
    let a = sim(DROPPED_REFERENCE, &target);
    assert!(proved(&a), "{a:?}");
    assert!(!product_refutes(DROPPED_REFERENCE, &target));
    // Mutant: the load dropped where the `select` reads it (`%x` true).
    let wrong = dropped_under("true");
    let a = sim(DROPPED_REFERENCE, &wrong);
    assert!(!proved(&a), "a load dropped where it matters: {a:?}");
    assert!(product_refutes(DROPPED_REFERENCE, &wrong));
}

/// Each thread stores to its own element; `EXTRA` runs after the
/// convergent call, before the `ret`.
fn own_element(extra: &str) -> String {
    format!(
        "
define void @k(ptr addrspace(1) %p) {{
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 1, ptr addrspace(1) %a, align 4
  call void @f(i32 0)
{extra}  ret void
}}"
    )
}

/// A load added where another thread writes (thread `tid` reads element
/// `tid ^ 1`, which thread `tid ^ 1` stores in the same phase): a race
/// the reference does not have, and no event (its value is unused). The
/// re-check refuses the identity's relation (loads as accesses) for it by
/// the hazard condition alone, and accepts it with that condition off.
/// (The condition is per step: a load of the thread's own element added
/// after the call is refused too, a lost proof; the reference accesses
/// nothing in that step.)
#[test]
fn the_load_hazard_condition_is_not_vacuous() {
    let reference = own_element("");
    let racy = own_element(
        "  %o = xor i32 %tid, 1\n  %b = getelementptr i32, ptr addrspace(1) %p, i32 %o\n  %l = load i32, ptr addrspace(1) %b, align 4\n",
    );
    let a = sim(&reference, &racy);
    assert!(!proved(&a), "a racing load added: {a:?}");
    let (r, t) = (
        CfgProgram::new(module(&reference)),
        CfgProgram::new(module(&racy)),
    );
    let f = r.module.function("k").unwrap();
    let opts = SimOptions::default();
    let mut rel = find_relation(&r, f, &r, f, &opts).expect("the identity has a relation");
    for n in &mut rel {
        n.accesses = true;
    }
    assert!(check_relation(&r, f, &r, f, &rel, &opts).is_ok());
    let refused = check_relation(&r, f, &t, f, &rel, &opts);
    assert!(
        matches!(&refused, Err(w) if w.contains("the target's loads read what the reference accesses")),
        "{refused:?}"
    );
    let off = Conditions {
        loads: false,
        ..Conditions::default()
    };
    let accepted = check_relation_with(&r, f, &t, f, &rel, &opts, off);
    assert!(accepted.is_ok(), "{accepted:?}");
}

/// convcheck's element arrays (`@convcheck.shared`, as `convcheck lower
/// --emit ll` prints them): each thread stores its own element every
/// iteration, then a convergent call; `EXTRA` runs between the two.
fn element_loop(extra: &str) -> String {
    format!(
        "
@convcheck.shared = external addrspace(3) global [0 x i64]
define void @k(i64 inreg %n) #0 {{
entry:
  %t = call i64 @convcheck.tid()
  %a = getelementptr i64, ptr addrspace(3) @convcheck.shared, i64 %t
  br label %h
h:
  %i = phi i64 [ 0, %entry ], [ %i1, %b ]
  %c = icmp slt i64 %i, %n
  br i1 %c, label %b, label %x
b:
  store i64 %i, ptr addrspace(3) %a, align 8
{extra}  call void (...) @ballot()
  %i1 = add i64 %i, 1
  br label %h
x:
  ret void
}}
declare i64 @convcheck.tid() #1
declare i64 @ballot(...) #0
attributes #0 = {{ convergent nounwind }}
attributes #1 = {{ nounwind willreturn memory(none) }}
!convcheck.oracles = !{{!1, !2}}
!1 = !{{!\"ballot\", !\"varying\", !\"0,1\"}}
!2 = !{{!\"n\", !\"uniform\", !\"0,1\"}}
"
    )
}

/// Red-team finding F0: the hazard condition was vacuous for element
/// arrays (an element load pushed no access, used or not, and an element
/// store none either). A target that adds, at iteration 3 only, an unused
/// load of element `tid + 1`, which thread `tid + 1` writes every
/// iteration, races where the reference does not (`--engine explicit`:
/// "the target races on shared[1]"); it was proved. An unused load of
/// the thread's own element before the store, which the reference's
/// store in the same step covers, stays proved. (After the store it is
/// no longer proved: the relation's node lies between the store and the
/// load, so the reference accesses nothing in the load's step, the
/// per-step lost proof of `the_load_hazard_condition_is_not_vacuous`.)
#[test]
fn an_unused_element_load_is_an_access() {
    let reference = element_loop("");
    let racy = element_loop(
        "  %is3 = icmp eq i64 %i, 3\n  %off = select i1 %is3, i64 1, i64 0\n  %t2 = add i64 %t, %off\n  %a2 = getelementptr i64, ptr addrspace(3) @convcheck.shared, i64 %t2\n  %u = load i64, ptr addrspace(3) %a2, align 8\n",
    );
    let a = sim(&reference, &racy);
    assert!(!proved(&a), "an unused racing element load added: {a:?}");
    let own = element_loop("").replace(
        "  store i64 %i",
        "  %u = load i64, ptr addrspace(3) %a, align 8\n  store i64 %i",
    );
    let a = sim(&reference, &own);
    assert!(
        proved(&a),
        "an unused load of the thread's own element: {a:?}"
    );
}

/// `store` (volatile or not, `VOLATILE`) of the thread's id to its
/// element under `tid < 32`; the address is computed where `EARLY` says.
fn volatile_store(volatile: bool, early: bool) -> String {
    let gep = "  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid\n";
    let (e, t) = if early { (gep, "") } else { ("", gep) };
    let v = if volatile { "volatile " } else { "" };
    format!(
        "
define void @k(ptr addrspace(1) %p) {{
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, 32
{e}  br i1 %c, label %t, label %e
t:
{t}  store {v}i32 %tid, ptr addrspace(1) %a, align 4
  br label %e
e:
  call void @f(i32 0)
  ret void
}}"
    )
}

/// Red-team finding F1: a store's event did not carry `volatile`, so a
/// volatile store made plain (and the reverse) was proved; LangRef: the
/// number and order of volatile operations must not change (`--engine
/// explicit` says violated). The same store moved (the address computed
/// early) stays proved.
#[test]
fn volatility_is_part_of_a_stores_event() {
    for (rv, tv) in [(true, false), (false, true)] {
        let a = sim(&volatile_store(rv, false), &volatile_store(tv, true));
        assert!(!proved(&a), "volatile {rv} -> {tv}: {a:?}");
    }
    for v in [true, false] {
        let a = sim(&volatile_store(v, false), &volatile_store(v, true));
        assert!(proved(&a), "volatile {v} both: {a:?}");
    }
}
