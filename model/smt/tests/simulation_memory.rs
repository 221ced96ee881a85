//! The simulation engine with stores (issue 22): a thread's loads read what
//! it stored in the phase, byte by byte, else the location's free value
//! (DESIGN.md 2.6; `convcheck_smt::simulation`'s `memory`). Each node of a
//! relation holds one memory for both programs, and every step must leave
//! the two memories equal. What the form proves, and its mutants: a
//! changed stored value, stores reordered across a load, a dropped store,
//! a load that reads the wrong bytes; each is not proved, and the bounded
//! product (an independent engine, its own `symex` memory) finds each
//! wrong. The re-check's `memory` condition alone refuses a changed store
//! (with the events turned off), and without it the same relation is
//! accepted, so the condition is not vacuous.

mod sim_pair;

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_smt::simulation::{
    check_relation, check_relation_with, find_relation, Conditions, SimAnswer, SimOptions,
};
use sim_pair::proved;

fn module(text: &str) -> convcheck_ir::Module {
    // `@f` and `@cond` write no memory: `@f` a convergent operation that
    // observes its argument, `@cond` a value read afresh at each call
    // (`memory(read)`), and neither a clobber (a call that may write
    // memory makes later loads read fresh values, which the simulation
    // refuses).
    sim_pair::module_with(
        text,
        "declare void @f(i32) convergent willreturn memory(none)\ndeclare i1 @cond() willreturn memory(read)\n",
    )
}

fn sim(reference: &str, target: &str) -> SimAnswer {
    sim_pair::prove_k(module(reference), module(target))
}

/// Whether the bounded product finds a counterexample (max-iters 2).
fn product_refutes(reference: &str, target: &str) -> bool {
    sim_pair::refuted_k(module(reference), module(target))
}

/// A body stored into memory and read back: `BODY` is spliced into the
/// entry block; `%v` must be defined there, and is passed to `@f`.
fn straight(body: &str) -> String {
    format!(
        "
define void @k(ptr %p, i32 %x, i32 %y) {{
entry:
{body}
  call void @f(i32 %v)
  ret void
}}"
    )
}

#[test]
fn loads_read_the_threads_stores() {
    // The loads of both programs read one memory: an inverted condition
    // on a value loaded after a store is proved.
    let branch = |cmp: &str, arms: &str| {
        format!(
            "
define void @k(ptr %p, i32 %x) {{
entry:
  store i32 %x, ptr %p, align 4
  %l = load i32, ptr %p, align 4
  %c = icmp {cmp} i32 %l, 0
  br i1 %c, {arms}
then:
  call void @f(i32 0)
  br label %exit
exit:
  ret void
}}"
        )
    };
    let reference = branch("eq", "label %then, label %exit");
    let target = branch("ne", "label %exit, label %then");
    let a = sim(&reference, &target);
    assert!(proved(&a), "{a:?}");
    assert!(!product_refutes(&reference, &target));
    // After a store, a second load of the location reads the store, not
    // what the first load read; a target that assumes the two agree is
    // wrong. (Not proved; but the relation also forgets, at the node
    // after each event, what a program's own loads read, so this case
    // does not tell the memory model from the free-value one.)
    let twice = |assume: bool| {
        straight(&format!(
            "  %l1 = load i32, ptr %p, align 4\n  store i32 7, ptr %p, align 4\n  %l2 = load i32, ptr %p, align 4\n  %c = icmp eq i32 %l1, {}\n  %z = zext i1 %c to i32\n  %d = sub i32 %l2, %l2\n  %v = add i32 %z, %d",
            if assume { "%l1" } else { "%l2" }
        ))
    };
    let a = sim(&twice(false), &twice(true));
    assert!(
        !proved(&a),
        "a load across a store read as the first: {a:?}"
    );
    assert!(product_refutes(&twice(false), &twice(true)));
}

#[test]
fn store_mutants_are_not_proved() {
    let reference = straight(
        "  store i32 1, ptr %p, align 4\n  %l = load i32, ptr %p, align 4\n  store i32 2, ptr %p, align 4\n  %v = add i32 %l, 0",
    );
    let mutants = [
        (
            "changed last stored value",
            "  store i32 1, ptr %p, align 4\n  %l = load i32, ptr %p, align 4\n  store i32 3, ptr %p, align 4\n  %v = add i32 %l, 0",
        ),
        (
            "stores reordered across a load",
            "  store i32 1, ptr %p, align 4\n  store i32 2, ptr %p, align 4\n  %l = load i32, ptr %p, align 4\n  %v = add i32 %l, 0",
        ),
        (
            "dropped store",
            "  store i32 1, ptr %p, align 4\n  %l = load i32, ptr %p, align 4\n  %v = add i32 %l, 0",
        ),
    ];
    assert!(proved(&sim(&reference, &reference)));
    // A store another store overwrites before any synchronisation point
    // is not observable (plain stores are compared by the bytes each
    // segment leaves, `convcheck_ir::exec::observe`): storing 3 instead of
    // 1 there, with `%v` computed to the same value, is no difference for
    // the product; the simulation, which compares stores one by one, does
    // not prove it either.
    let overwritten = straight(
        "  store i32 3, ptr %p, align 4\n  %l = load i32, ptr %p, align 4\n  store i32 2, ptr %p, align 4\n  %v = sub i32 %l, 2",
    );
    assert!(!proved(&sim(&reference, &overwritten)));
    assert!(!product_refutes(&reference, &overwritten));
    for (what, body) in mutants {
        let target = straight(body);
        let a = sim(&reference, &target);
        assert!(!proved(&a), "{what} proved: {a:?}");
        assert!(
            product_refutes(&reference, &target),
            "{what}: the product finds no counterexample"
        );
    }
}

/// In a loop: the relation's nodes hold one memory for both programs.
/// The re-check's `memory` condition alone (events off) refuses a target
/// that stores another value, and accepts it without the condition.
#[test]
fn the_memory_condition_is_not_vacuous() {
    let looped = |stored: &str| {
        format!(
            "
define void @k(ptr %p, i32 %x) {{
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %n, %h ]
  store i32 {stored}, ptr %p, align 4
  %l = load i32, ptr %p, align 4
  call void @f(i32 %l)
  %n = add i32 %i, 1
  %c = call i1 @cond()
  br i1 %c, label %h, label %exit
exit:
  ret void
}}"
        )
    };
    let reference = looped("%i");
    let a = sim(&reference, &reference);
    assert!(proved(&a), "{a:?}");
    let wrong = looped("%x");
    assert!(!proved(&sim(&reference, &wrong)));
    assert!(product_refutes(&reference, &wrong));
    let (r, t) = (
        CfgProgram::new(module(&reference)),
        CfgProgram::new(module(&wrong)),
    );
    let f = r.module.function("k").unwrap();
    let opts = SimOptions::default();
    let rel = find_relation(&r, f, &r, f, &opts).expect("the identity has a relation");
    assert!(check_relation(&r, f, &r, f, &rel, &opts).is_ok());
    assert!(check_relation(&r, f, &t, f, &rel, &opts).is_err());
    let no_events = Conditions {
        events: false,
        ..Conditions::default()
    };
    let refused = check_relation_with(&r, f, &t, f, &rel, &opts, no_events);
    assert!(
        matches!(&refused, Err(w) if w.contains("equal memories")),
        "{refused:?}"
    );
    let neither = Conditions {
        memory: false,
        ..no_events
    };
    assert!(check_relation_with(&r, f, &t, f, &rel, &opts, neither).is_ok());
}

/// What a call that may write memory leaves (issue 20's clobbers, issue
/// 22): `@w1`, `@w2` may write anything (no attribute: a clobber of all
/// memory), `@wa` its argument's object (`memory(argmem: readwrite)`); a
/// load after such a call reads a fresh value per location and epoch
/// (the number of such calls so far), the same in both programs.
fn clobbering(body: &str) -> String {
    format!(
        "@g = global i32 0\n@h = global i32 0\n{}\ndeclare void @w1()\ndeclare void @w2()\ndeclare void @wa(ptr) memory(argmem: readwrite)\n",
        straight(body)
    )
}

#[test]
fn clobber_mutants_are_not_proved() {
    let reference = clobbering(
        "  store i32 %x, ptr @g, align 4\n  call void @w1()\n  %l = load i32, ptr @g, align 4\n  call void @w2()\n  %l2 = load i32, ptr @g, align 4\n  %d = sub i32 %l2, %l2\n  %v = add i32 %l, %d",
    );
    let a = sim(&reference, &reference);
    assert!(proved(&a), "{a:?}");
    let mutants = [
        (
            "a load moved across a call that may write it",
            "  store i32 %x, ptr @g, align 4\n  %l = load i32, ptr @g, align 4\n  call void @w1()\n  call void @w2()\n  %l2 = load i32, ptr @g, align 4\n  %d = sub i32 %l2, %l2\n  %v = add i32 %l, %d",
        ),
        (
            "a call dropped",
            "  store i32 %x, ptr @g, align 4\n  %l = load i32, ptr @g, align 4\n  call void @w2()\n  %l2 = load i32, ptr @g, align 4\n  %d = sub i32 %l2, %l2\n  %v = add i32 %l, %d",
        ),
        (
            "the stored value forwarded past the call",
            "  store i32 %x, ptr @g, align 4\n  call void @w1()\n  %l = load i32, ptr @g, align 4\n  call void @w2()\n  %l2 = load i32, ptr @g, align 4\n  %d = sub i32 %l2, %l2\n  %e = sub i32 %l, %l\n  %y2 = add i32 %x, %e\n  %v = add i32 %y2, %d",
        ),
        (
            "two calls swapped",
            "  store i32 %x, ptr @g, align 4\n  call void @w2()\n  %l = load i32, ptr @g, align 4\n  call void @w1()\n  %l2 = load i32, ptr @g, align 4\n  %d = sub i32 %l2, %l2\n  %v = add i32 %l, %d",
        ),
        (
            "the stored value forwarded past a call that writes its object",
            "  store i32 %x, ptr @g, align 4\n  call void @w1()\n  %l = load i32, ptr @g, align 4\n  call void @w2()\n  store i32 %y, ptr @g, align 4\n  call void @wa(ptr @g)\n  %l2 = load i32, ptr @g, align 4\n  %d = sub i32 %l2, %l2\n  %v = add i32 %l, %d",
        ),
    ];
    // Without stores, where loads read the free values of their locations
    // directly: the value of one epoch taken for the next one's, and of
    // the epoch before an object's clobber for the one after (what the
    // simulation proved before it modelled clobbers).
    let loads = |second: &str, v: &str| {
        clobbering(&format!(
            "  call void @w1()\n  %l = load i32, ptr @g, align 4\n  {second}\n  %l2 = load i32, ptr @g, align 4\n  {v}"
        ))
    };
    let (first, second) = (
        "%d = sub i32 %l2, %l2\n  %v = add i32 %l, %d",
        "%d = sub i32 %l, %l\n  %v = add i32 %l2, %d",
    );
    for call in ["call void @w2()", "call void @wa(ptr @g)"] {
        let (r, t) = (loads(call, first), loads(call, second));
        assert!(proved(&sim(&r, &r)));
        let a = sim(&r, &t);
        assert!(
            !proved(&a),
            "{call}: one epoch's value taken for the next's: {a:?}"
        );
        assert!(
            product_refutes(&r, &t),
            "{call}: the product finds no counterexample"
        );
    }
    // (The last one's reference: the same, with the load's value used.)
    let object_ref = clobbering(
        "  store i32 %x, ptr @g, align 4\n  call void @w1()\n  %l = load i32, ptr @g, align 4\n  call void @w2()\n  store i32 %y, ptr @g, align 4\n  call void @wa(ptr @g)\n  %l2 = load i32, ptr @g, align 4\n  %d = sub i32 %l2, %y\n  %v = add i32 %l, %d",
    );
    for (i, (what, body)) in mutants.into_iter().enumerate() {
        let r = if i == mutants.len() - 1 {
            &object_ref
        } else {
            &reference
        };
        let target = clobbering(body);
        let a = sim(r, &target);
        assert!(!proved(&a), "{what} proved: {a:?}");
        assert!(
            product_refutes(r, &target),
            "{what}: the product finds no counterexample"
        );
    }
}

/// Loop unswitching with a call in the loop and loads after it (like
/// `nontrivial-unswitch.ll`'s functions): proved, the epochs related
/// through the loop; the mutant that loads before the call in one copy
/// is not, and the product refutes it. The target is what opt-19's
/// `simple-loop-unswitch<nontrivial>` makes of the reference, by hand.
#[test]
fn unswitched_loop_with_calls_and_loads() {
    let reference = "
define void @k(ptr %p, i1 %c0) {
entry:
  br label %h
h:
  call void @w1()
  %l = load i32, ptr %p, align 4
  br i1 %c0, label %a, label %b
a:
  call void @f(i32 %l)
  br label %latch
b:
  %m = add i32 %l, 1
  call void @f(i32 %m)
  br label %latch
latch:
  %c = call i1 @cond()
  br i1 %c, label %h, label %exit
exit:
  ret void
}
declare void @w1()
";
    let target = "
define void @k(ptr %p, i1 %c0) {
entry:
  br i1 %c0, label %h.us, label %h
h.us:
  call void @w1()
  %l.us = load i32, ptr %p, align 4
  call void @f(i32 %l.us)
  %c.us = call i1 @cond()
  br i1 %c.us, label %h.us, label %exit
h:
  call void @w1()
  %l = load i32, ptr %p, align 4
  %m = add i32 %l, 1
  call void @f(i32 %m)
  %c = call i1 @cond()
  br i1 %c, label %h, label %exit
exit:
  ret void
}
declare void @w1()
";
    let a = sim(reference, target);
    assert!(proved(&a), "{a:?}");
    // The mutant: the unswitched copy loads before the call.
    let early = target.replace(
        "  call void @w1()\n  %l.us = load i32, ptr %p, align 4\n",
        "  %l.us = load i32, ptr %p, align 4\n  call void @w1()\n",
    );
    assert!(!proved(&sim(reference, &early)));
    assert!(product_refutes(reference, &early));
}

/// The bytes' epochs are part of the `memory` condition: with the events
/// turned off, the re-check refuses a target whose call in the loop
/// writes one object where the reference's writes all memory (the other
/// objects' bytes keep older epochs), and accepts it without the
/// condition.
#[test]
fn the_epoch_condition_is_not_vacuous() {
    let looped = |call: &str| {
        format!(
            "
define void @k(ptr %p, i32 %x) {{
entry:
  br label %h
h:
  {call}
  %l = load i32, ptr %p, align 4
  call void @f(i32 %l)
  %c = call i1 @cond()
  br i1 %c, label %h, label %exit
exit:
  ret void
}}
declare void @w1()
declare void @wa(ptr) memory(argmem: readwrite)
@g = global i32 0"
        )
    };
    let reference = looped("call void @w1()");
    let dropped = looped("call void @wa(ptr @g)");
    let (r, t) = (
        CfgProgram::new(module(&reference)),
        CfgProgram::new(module(&dropped)),
    );
    let f = r.module.function("k").unwrap();
    let opts = SimOptions::default();
    let rel = find_relation(&r, f, &r, f, &opts).expect("the identity has a relation");
    assert!(check_relation(&r, f, &r, f, &rel, &opts).is_ok());
    let no_events = Conditions {
        events: false,
        ..Conditions::default()
    };
    let refused = check_relation_with(&r, f, &t, f, &rel, &opts, no_events);
    assert!(
        matches!(&refused, Err(w) if w.contains("equal memories")),
        "{refused:?}"
    );
    let neither = Conditions {
        memory: false,
        ..no_events
    };
    let accepted = check_relation_with(&r, f, &t, f, &rel, &opts, neither);
    assert!(accepted.is_ok(), "{accepted:?}");
}
