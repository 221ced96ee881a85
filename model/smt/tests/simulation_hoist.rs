//! The simulation engine on nontrivial loop unswitching that hoists an
//! inner loop out of its parent (issue 22; the shapes of LLVM's
//! `SimpleLoopUnswitch/nontrivial-unswitch.ll`, `hoist_inner_loop0` and
//! `hoist_inner_loop1`, written again here with opt-19's output of
//! `simple-loop-unswitch<nontrivial>` as the target). Three candidate
//! forms make them provable: the low bit of an `i1` local
//! (`Atom::VarBit`: the unswitched condition, which `!= 0` does not
//! state), long segments (`Exec::long`: the unswitched copy of the inner
//! loop runs once and is no cycle, so the reference's header must not be
//! a cut the target lacks) and pending loads kept apart and owed
//! (`Atom::PendApart`, `Atom::OwedPend`; an LCSSA phi uses a load the
//! reference uses later, in the hoisted loop). LLVM's functions never
//! return (their outer loop has no exit), so the bounded engines decide
//! nothing about them (every run leaves max-iters): the cross-check is
//! that the bounded product finds no counterexample. Each mutant of
//! `hoist_inner_loop1` (the unswitched condition inverted, a changed
//! stored value, a dropped store, a duplicated store) is not proved, and
//! the bounded product refutes the same mutant of a variant whose outer
//! loop exits (on which the simulation proves nothing either way:
//! "Left to do" in docs/src/proofs.md), so each is wrong.
//!
//! `@c` and `@cond` are declared as LLVM declares them, so every call is
//! an effect event (DESIGN.md 2.7 item 1) and the unswitched condition is
//! the result of one; `effect_events_are_related_and_their_mutants_are_not_proved`
//! checks that the simulation relates such events only where both
//! programs make the same calls in the same order with equal arguments.
//! Such a call may also write any memory: `hoist_inner_loop1`, whose
//! loads read what the calls may have written, is proved with them too
//! (`effectful_calls_and_used_loads_are_proved`: loads read fresh values
//! per epoch), and its mutants are checked with the calls declared
//! `memory(read)`.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_smt::product::{compare_at, ProductOptions};
use convcheck_smt::simulation::{prove, SimAnswer, SimOptions};
use convcheck_smt::Answer;
use std::time::Duration;

/// The declarations of LLVM's test, without attributes: every call is an
/// effectful event (DESIGN 2.7, `to_ir/effects.rs`) that may write any
/// memory, and the results of `@c` and `@cond` are values read afresh at
/// every call.
const EFFECTFUL: &str = "declare i32 @c()\ndeclare i1 @cond()\ndeclare void @sink1(i32)";

/// The same calls declared `willreturn memory(read)`: no event and no write
/// (without `willreturn` a call may not return and is an event; the
/// functions that load memory were checked so before the simulation
/// modelled what such a call writes,
/// [`effectful_calls_and_used_loads_are_proved`]).
const READ_ONLY: &str =
    "declare i32 @c() willreturn memory(read)\ndeclare i1 @cond() willreturn memory(read)\ndeclare void @sink1(i32)";

thread_local! {
    static DECLS: std::cell::Cell<&'static str> = const { std::cell::Cell::new(EFFECTFUL) };
}

/// Runs `f` with the calls declared `memory(read)`.
fn read_only<T>(f: impl FnOnce() -> T) -> T {
    DECLS.with(|d| d.set(READ_ONLY));
    let out = f();
    DECLS.with(|d| d.set(EFFECTFUL));
    out
}

fn module(text: &str) -> convcheck_ir::Module {
    let decls = DECLS.with(|d| d.get());
    let text = format!("{text}\n{decls}\n");
    let m = convcheck_llvm::parse_module(&text, "test.ll").unwrap_or_else(|e| panic!("{e}"));
    convcheck_llvm::to_ir::to_module(&m, "test.ll").module
}

/// The simulation's answer for function `k`, with a generous timeout and
/// an unbounded work budget (so that the load of the machine running the
/// tests does not decide).
fn sim(reference: &str, target: &str) -> SimAnswer {
    let (r, t) = (module(reference), module(target));
    let (rf, tf) = (r.function("k").unwrap(), t.function("k").unwrap());
    let opts = SimOptions {
        timeout: Duration::from_secs(120),
        work: 1 << 40,
        ..SimOptions::default()
    };
    prove(&r, rf, &t, tf, &opts)
}

fn proved(a: &SimAnswer) -> bool {
    matches!(a, SimAnswer::Proved(_))
}

/// The bounded product's answer at max-iters 2: `Some(true)` for a
/// counterexample, `Some(false)` for none within the bound, `None` when
/// it did not finish.
fn product(reference: &str, target: &str) -> Option<bool> {
    product_at(reference, target, 2)
}

fn product_at(reference: &str, target: &str, max_iters: u32) -> Option<bool> {
    let (r, t) = (module(reference), module(target));
    let (rf, tf) = (r.function("k").unwrap(), t.function("k").unwrap());
    let opts = ProductOptions {
        max_iters,
        timeout: Duration::from_secs(120),
        ..ProductOptions::default()
    };
    match compare_at(&CfgProgram::new(r), &CfgProgram::new(t), [rf, tf], &opts) {
        Answer::Counterexample(_) => Some(true),
        Answer::Unknown(_) => None,
        _ => Some(false),
    }
}

/// `hoist_inner_loop0`: three nested loops, the innermost unswitched on
/// an `i1` read in the middle one's header; no memory.
const HOIST0: &str = "
define void @k() {
entry:
  br label %a.header
a.header:
  br label %b.header
b.header:
  %v1 = call i1 @cond()
  br label %c.header
c.header:
  call i32 @c()
  br i1 %v1, label %b.latch, label %c.latch
c.latch:
  %v2 = call i1 @cond()
  br i1 %v2, label %c.header, label %b.latch
b.latch:
  %v3 = call i1 @cond()
  br i1 %v3, label %b.header, label %a.latch
a.latch:
  br label %a.header
exit:
  ret void
}";

/// opt-19's output for [`HOIST0`]. (No mutant: the function has no
/// observable event and never returns, so every transform that keeps it
/// from returning preserves it.)
const HOIST0_TARGET: &str = "
define void @k() {
entry:
  br label %a.header
a.header:
  br label %b.header
b.header:
  %v1 = call i1 @cond()
  %v1.fr = freeze i1 %v1
  br i1 %v1.fr, label %b.header.split.us, label %b.header.split
b.header.split.us:
  br label %c.header.us
c.header.us:
  %0 = call i32 @c()
  br label %b.latch.split.us
b.latch.split.us:
  br label %b.latch
b.header.split:
  br label %c.header
c.header:
  %1 = call i32 @c()
  br label %c.latch
c.latch:
  %v2 = call i1 @cond()
  br i1 %v2, label %c.header, label %b.latch.split
b.latch.split:
  br label %b.latch
b.latch:
  %v3 = call i1 @cond()
  br i1 %v3, label %b.header, label %a.latch
a.latch:
  br label %a.header
exit:
  ret void
}";

/// `hoist_inner_loop1`: the same nest with loads in the outer headers and
/// stores of them in the inner loop, which unswitching hoists out of the
/// middle loop (its condition false, it never returns there).
fn hoist1(exit: bool) -> String {
    format!(
        "
define void @k(ptr %ptr) {{
entry:
  br label %a.header
a.header:
  %x.a = load i32, ptr %ptr
  br label %b.header
b.header:
  %x.b = load i32, ptr %ptr
  %v1 = call i1 @cond()
  br label %c.header
c.header:
  call i32 @c()
  br i1 %v1, label %b.latch, label %c.latch
c.latch:
  store i32 %x.a, ptr %ptr
  store i32 %x.b, ptr %ptr
  %v2 = call i1 @cond()
  br i1 %v2, label %c.header, label %a.exit.c
b.latch:
  %v3 = call i1 @cond()
  br i1 %v3, label %b.header, label %a.exit.b
a.exit.c:
  br label %a.latch
a.exit.b:
  br label %a.latch
a.latch:
{}
exit:
  ret void
}}",
        a_latch(exit)
    )
}

/// The outer latch: LLVM's (`exit` false: a loop that never ends) or one
/// that may leave the loop, so that runs end and the bounded engines
/// compare them.
fn a_latch(exit: bool) -> &'static str {
    if exit {
        "  %v4 = call i1 @cond()\n  br i1 %v4, label %a.header, label %exit"
    } else {
        "  br label %a.header"
    }
}

/// opt-19's output for [`hoist1`] with `branch` (the unswitched branch's
/// successors) and `stores` (the hoisted loop's two stores) spliced in.
fn hoist1_target(branch: &str, stores: &str, exit: bool) -> String {
    format!(
        "
define void @k(ptr %ptr) {{
entry:
  br label %a.header
a.header:
  %x.a = load i32, ptr %ptr, align 4
  br label %b.header
b.header:
  %x.b = load i32, ptr %ptr, align 4
  %v1 = call i1 @cond()
  %v1.fr = freeze i1 %v1
  br i1 %v1.fr, {branch}
b.header.split.us:
  br label %c.header.us
c.header.us:
  %0 = call i32 @c()
  br label %b.latch.split.us
b.latch.split.us:
  br label %b.latch
b.header.split:
  %x.b.lcssa = phi i32 [ %x.b, %b.header ]
  br label %c.header
c.header:
  %1 = call i32 @c()
  br label %c.latch
c.latch:
{stores}
  %v2 = call i1 @cond()
  br i1 %v2, label %c.header, label %a.exit.c
b.latch:
  %v3 = call i1 @cond()
  br i1 %v3, label %b.header, label %a.exit.b
a.exit.c:
  br label %a.latch
a.exit.b:
  br label %a.latch
a.latch:
{}
exit:
  ret void
}}",
        a_latch(exit)
    )
}

const BRANCH: &str = "label %b.header.split.us, label %b.header.split";
const STORES: &str = "  store i32 %x.a, ptr %ptr, align 4
  store i32 %x.b.lcssa, ptr %ptr, align 4";

#[test]
fn hoisted_inner_loops_are_proved() {
    let a = sim(HOIST0, HOIST0_TARGET);
    assert!(proved(&a), "hoist_inner_loop0: {a:?}");
    assert_ne!(product(HOIST0, HOIST0_TARGET), Some(true));
    read_only(|| {
        let target = hoist1_target(BRANCH, STORES, false);
        let a = sim(&hoist1(false), &target);
        assert!(proved(&a), "hoist_inner_loop1: {a:?}");
        // The bounded product finds no counterexample, for these and for
        // the variant whose runs end (which it compares within its bound).
        assert_ne!(product(&hoist1(false), &target), Some(true));
        let ending = hoist1_target(BRANCH, STORES, true);
        assert_ne!(product_at(&hoist1(true), &ending, 1), Some(true));
    });
}

/// With LLVM's own declarations, `hoist_inner_loop1`'s calls may write the
/// memory its loads read: each load after a call reads a fresh value per
/// epoch (`to_ir/effects.rs`; the simulation's `memory`: the number of
/// such calls in each state, equal in both programs at every node), and
/// the function is proved as with the calls declared `memory(read)`; the
/// bounded product finds no counterexample, and the inverted condition is
/// not proved.
#[test]
fn effectful_calls_and_used_loads_are_proved() {
    let target = hoist1_target(BRANCH, STORES, false);
    let a = sim(&hoist1(false), &target);
    assert!(proved(&a), "hoist_inner_loop1: {a:?}");
    assert_ne!(product(&hoist1(false), &target), Some(true));
    let swapped = "label %b.header.split, label %b.header.split.us";
    let a = sim(&hoist1(false), &hoist1_target(swapped, STORES, false));
    assert!(!proved(&a), "the unswitched condition inverted: {a:?}");
}

#[test]
fn hoisting_mutants_are_not_proved() {
    let swapped = "label %b.header.split, label %b.header.split.us";
    let mutants = [
        (
            "the unswitched condition inverted",
            swapped,
            STORES.to_string(),
        ),
        // (Not `%x.a` for `%x.b.lcssa`: the two loads read one location
        // with no store between them, so they are equal and that target
        // is correct; nor the two stores swapped, for the same reason.)
        (
            "a changed stored value",
            BRANCH,
            format!(
                "  %m = add i32 %x.b.lcssa, 1\n{}",
                STORES.replace("i32 %x.b.lcssa", "i32 %m")
            ),
        ),
    ];
    // Declared `memory(read)`, as the function the mutants change is
    // proved (`hoisted_inner_loops_are_proved`).
    read_only(|| {
        // Dropping the store of `%x.b.lcssa` leaves the bytes the segment
        // leaves unchanged (`%x.b` is reloaded from what `%x.a` stored, so
        // the two are equal in every run): not proved by the simulation,
        // which compares stores one by one, and no counterexample for the
        // product, which compares the bytes each segment leaves.
        let dropped = hoist1_target(BRANCH, "  store i32 %x.a, ptr %ptr, align 4", true);
        assert!(!proved(&sim(
            &hoist1(false),
            &hoist1_target(BRANCH, "  store i32 %x.a, ptr %ptr, align 4", false)
        )));
        assert_ne!(product_at(&hoist1(true), &dropped, 1), Some(true));
        // So does storing `%x.a` once more after both stores.
        let again = format!("{STORES}\n  store i32 %x.a, ptr %ptr, align 4");
        assert!(!proved(&sim(
            &hoist1(false),
            &hoist1_target(BRANCH, &again, false)
        )));
        assert_ne!(
            product_at(&hoist1(true), &hoist1_target(BRANCH, &again, true), 1),
            Some(true)
        );
        for (what, branch, stores) in mutants {
            let a = sim(&hoist1(false), &hoist1_target(branch, &stores, false));
            assert!(!proved(&a), "hoist_inner_loop1, {what}: proved: {a:?}");
            assert_eq!(
                product_at(&hoist1(true), &hoist1_target(branch, &stores, true), 1),
                Some(true),
                "hoist_inner_loop1 with an exit, {what}: the product finds no counterexample"
            );
        }
    });
}

/// [`HOIST0`] with an argument: the inner loop passes `@c`'s result to
/// `@sink1`, an effectful call whose argument is observed (`call @sink1
/// (argument 0)`); `exit` as in [`a_latch`].
fn sink(exit: bool) -> String {
    format!(
        "
define void @k() {{
entry:
  br label %a.header
a.header:
  br label %b.header
b.header:
  %v1 = call i1 @cond()
  br label %c.header
c.header:
  %x = call i32 @c()
  br i1 %v1, label %b.latch, label %c.latch
c.latch:
  call void @sink1(i32 %x)
  %v2 = call i1 @cond()
  br i1 %v2, label %c.header, label %b.latch
b.latch:
  %v3 = call i1 @cond()
  br i1 %v3, label %b.header, label %a.latch
a.latch:
{}
exit:
  ret void
}}",
        a_latch(exit)
    )
}

/// opt-19's output of `simple-loop-unswitch<nontrivial>` for [`sink`],
/// with the hoisted loop's `c.latch` calls (`calls`) spliced in.
fn sink_target(calls: &str, exit: bool) -> String {
    format!(
        "
define void @k() {{
entry:
  br label %a.header
a.header:
  br label %b.header
b.header:
  %v1 = call i1 @cond()
  %v1.fr = freeze i1 %v1
  br i1 %v1.fr, label %b.header.split.us, label %b.header.split
b.header.split.us:
  br label %c.header.us
c.header.us:
  %x.us = call i32 @c()
  br label %b.latch.split.us
b.latch.split.us:
  br label %b.latch
b.header.split:
  br label %c.header
c.header:
  %x = call i32 @c()
  br label %c.latch
c.latch:
{calls}
  br i1 %v2, label %c.header, label %b.latch.split
b.latch.split:
  br label %b.latch
b.latch:
  %v3 = call i1 @cond()
  br i1 %v3, label %b.header, label %a.latch
a.latch:
{}
exit:
  ret void
}}",
        a_latch(exit)
    )
}

const CALLS: &str = "  call void @sink1(i32 %x)\n  %v2 = call i1 @cond()";

/// Calls of external functions that may have effects are events in the
/// thread's order with their arguments (DESIGN.md 2.7 item 1): unswitching
/// on a call's result (`%v1 = call i1 @cond()`, whose event comes before
/// the result is read) is proved, LLVM's declarations as they are, and
/// each mutant of the effect events (a call dropped, two calls swapped, an
/// argument changed, a call duplicated) is not proved and is refuted by
/// the bounded product on the variant that exits.
#[test]
fn effect_events_are_related_and_their_mutants_are_not_proved() {
    for exit in [false, true] {
        let a = sim(&sink(exit), &sink_target(CALLS, exit));
        assert!(proved(&a), "sink (exit {exit}): {a:?}");
    }
    let mutants = [
        ("a call dropped", "  %v2 = call i1 @cond()"),
        (
            "two calls swapped",
            "  %v2 = call i1 @cond()\n  call void @sink1(i32 %x)",
        ),
        (
            "an argument changed",
            "  %m = add i32 %x, 1\n  call void @sink1(i32 %m)\n  %v2 = call i1 @cond()",
        ),
        (
            "a call duplicated",
            "  call void @sink1(i32 %x)\n  call void @sink1(i32 %x)\n  %v2 = call i1 @cond()",
        ),
    ];
    for (what, calls) in mutants {
        for exit in [false, true] {
            let a = sim(&sink(exit), &sink_target(calls, exit));
            assert!(!proved(&a), "sink (exit {exit}), {what}: proved: {a:?}");
        }
        assert_eq!(
            product_at(&sink(true), &sink_target(calls, true), 1),
            Some(true),
            "sink with an exit, {what}: the product finds no counterexample"
        );
    }
}
