//! The uniform-invariant oracle class (issue 20 class n) in the symbolic
//! engines: loop unswitching on `uniform(invariant(sel))` keeps every
//! thread in one copy of the loop, so the product proves it within its
//! bounds; the same rewrite on a merely invariant condition
//! (`loop-unswitch.unsafe`) is a convergence violation, and on a merely
//! uniform one (a hand-written target, since no pass does it) a
//! single-thread violation. What the simulation engine answers is
//! asserted too.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{FuncId, Module, OracleClass};
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_smt::product::{compare, Counterexample, Preserved, ProductOptions, Property};
use convcheck_smt::simulation::{prove, SimAnswer, SimOptions};
use convcheck_smt::Answer;
use std::time::Duration;

/// Seed 001's loop: a uniform invariant selector inside a loop with a
/// convergent operation on one side. `MARK` is replaced by the marker
/// under test.
const LOOP: &str = "void k() {
  while (more) {
    ... // L
    if (MARK) {
      ballot(); // K
    } else {
      ... // M
    }
  }
  ... // X
}
";

fn kernel(mark: &str) -> String {
    LOOP.replace("MARK", mark)
}

fn lowered(src: &str) -> (Module, FuncId) {
    let k = Kernel::parse("test.c", src).unwrap_or_else(|d| panic!("{d}"));
    let m = lower(&k, false);
    let id = m.function("k").expect("function exists");
    (m, id)
}

fn opts() -> ProductOptions {
    ProductOptions {
        max_iters: 3,
        timeout: Duration::from_secs(60),
        ..ProductOptions::default()
    }
}

/// `pass` on `k` of `src`: the module before, after, and the notes.
fn run_pass(src: &str, pass: &str) -> (Module, Module, FuncId, Vec<String>) {
    let (m, id) = lowered(src);
    let mut t = m.clone();
    let p = convcheck_transforms::lookup(pass).unwrap_or_else(|e| panic!("{e:?}"));
    let notes = p.run(&mut t).unwrap_or_else(|e| panic!("{e:?}"));
    (m, t, id, notes)
}

fn product(r: &Module, t: &Module, id: FuncId) -> Answer<Preserved, Counterexample> {
    compare(
        &CfgProgram::new(r.clone()),
        &CfgProgram::new(t.clone()),
        id,
        &opts(),
    )
}

#[test]
fn both_nestings_of_the_markers_are_one_class() {
    for mark in ["uniform(invariant(sel))", "invariant(uniform(sel))"] {
        let (m, _) = lowered(&kernel(mark));
        let o = m.oracle("sel").expect("sel is an oracle");
        assert_eq!(m.oracles[o].class, OracleClass::UniformInvariant, "{mark}");
    }
}

#[test]
fn unswitching_on_a_uniform_invariant_condition_is_preserved() {
    let (r, t, id, notes) = run_pass(&kernel("uniform(invariant(sel))"), "loop-unswitch");
    assert!(
        notes.iter().any(|n| n.contains("unswitched")),
        "the safe pass unswitches: {notes:?}"
    );
    match product(&r, &t, id) {
        Answer::Proved(_) => {}
        other => panic!("expected preserved: {other:?}"),
    }
}

#[test]
fn the_safe_pass_refuses_a_merely_invariant_condition() {
    let (_, _, _, notes) = run_pass(&kernel("invariant(sel)"), "loop-unswitch");
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn unswitching_on_a_merely_invariant_condition_is_caught() {
    let (r, t, id, notes) = run_pass(&kernel("invariant(sel)"), "loop-unswitch.unsafe");
    assert!(notes.iter().any(|n| n.contains("unswitched")), "{notes:?}");
    match product(&r, &t, id) {
        Answer::Counterexample(c) => assert_eq!(c.property, Property::Convergence, "{c:?}"),
        other => panic!("expected a counterexample: {other:?}"),
    }
}

/// No pass unswitches a merely uniform condition (it is not
/// loop-invariant); written by hand, the unswitched loop reads `sel` once
/// where the reference reads a fresh uniform value every iteration. The
/// operations are calls, labelled by their callee in both copies.
#[test]
fn unswitching_on_a_merely_uniform_condition_is_caught() {
    let reference = "void k() {
  while (more) {
    body();
    if (uniform(sel)) {
      ballot();
    } else {
      other();
    }
  }
}
";
    let target = "void k() {
  if (uniform(sel)) {
    while (more) {
      body();
      ballot();
    }
  } else {
    while (more) {
      body();
      other();
    }
  }
}
";
    let (r, id) = lowered(reference);
    let (t, _) = lowered(target);
    match product(&r, &t, id) {
        Answer::Counterexample(c) => {
            assert_eq!(c.property, Property::SingleThreadBehaviour, "{c:?}")
        }
        other => panic!("expected a counterexample: {other:?}"),
    }
}

/// The simulation engine relates the reference's loop to both copies of
/// the target's, each under the selector's value (a condition over the
/// uniform-invariant oracle, which never changes); with the selector one
/// value in every thread, the re-check's two threads sit in the same copy
/// and convergence holds. A merely invariant selector has no relation (the
/// bounded engines find the violation).
#[test]
fn what_the_simulation_says() {
    let (r, t, id, _) = run_pass(&kernel("uniform(invariant(sel))"), "loop-unswitch");
    let a = prove(&r, id, &t, id, &SimOptions::default());
    let SimAnswer::Proved(c) = &a else {
        panic!("expected a simulation proof: {a:?}");
    };
    assert!(
        c.nodes
            .iter()
            .any(|n| n.invariant.iter().any(|i| i.contains("`sel`"))),
        "{:?}",
        c.nodes
    );
    let (r, t, id, _) = run_pass(&kernel("invariant(sel)"), "loop-unswitch.unsafe");
    let b = prove(&r, id, &t, id, &SimOptions::default());
    assert!(!matches!(b, SimAnswer::Proved(_)), "{b:?}");
}
