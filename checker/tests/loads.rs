//! Loads are not observable events of a thread, races still count
//! (`convcheck_ir::exec::observe`, docs/src/soundness.md "Loads"): a dead
//! load dropped by the target is no violation, under every engine and on
//! LLVM IR; a load moved before the barrier that ordered it is a race; a
//! dropped store is still a change of single-thread behaviour.

mod common;
use common::{convcheck, temp};

const KERNEL: &str = "examples/soundness/loads.c";
const KERNEL_TARGET: &str = "examples/soundness/loads-target.c";
const LL: &str = "examples/soundness/llvm/loads-src.ll";
const LL_TARGET: &str = "examples/soundness/llvm/loads-tgt.ll";

fn check(src: &str, tgt: &str, function: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec![
        "check",
        src,
        tgt,
        "--function",
        function,
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = convcheck(&args);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, v)
}

#[test]
fn a_dropped_dead_load_is_no_violation_under_every_engine() {
    for engine in ["auto", "explicit", "smt"] {
        let (code, v) = check(KERNEL, KERNEL_TARGET, "dead_load", &["--engine", engine]);
        assert_eq!(code, 0, "{engine}: {v}");
        assert_eq!(v["verdict"], "preserved", "{engine}: {v}");
    }
    let (code, v) = check(LL, LL_TARGET, "dead_load", &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "preserved", "{v}");
}

#[test]
fn a_load_moved_before_its_barrier_races() {
    for (src, tgt) in [(KERNEL, KERNEL_TARGET), (LL, LL_TARGET)] {
        let (code, v) = check(src, tgt, "late_read", &[]);
        assert_eq!(code, 1, "{src}: {v}");
        assert_eq!(v["verdict"], "violated", "{src}: {v}");
        let c = &v["counterexample"];
        assert_eq!(c["property"], "hazards", "{src}: {c}");
        assert!(
            c["message"]
                .as_str()
                .is_some_and(|m| m.contains("races on shared[0]")),
            "{src}: {c}"
        );
    }
}

#[test]
fn a_dropped_store_is_still_a_change() {
    let text = std::fs::read_to_string(common::root().join(KERNEL)).expect("example");
    let no_store = temp("no-store.c", &text.replace("  shared[tid] = 1;\n", ""));
    let (code, v) = check(KERNEL, &no_store, "late_read", &[]);
    assert_eq!(code, 1, "{v}");
    let c = &v["counterexample"];
    assert_eq!(c["property"], "single-thread-behaviour", "{c}");
    assert!(
        c["message"]
            .as_str()
            .is_some_and(|m| m.contains("store shared[")),
        "{c}"
    );
}

/// The model carries no values through memory, so a load's order against
/// the thread's own store to the same address is what shows a read moved
/// across the write it should see: such loads stay observable.
#[test]
fn a_read_moved_before_its_own_write_is_a_change() {
    for (src, tgt) in [(KERNEL, KERNEL_TARGET), (LL, LL_TARGET)] {
        for engine in ["auto", "explicit", "smt"] {
            let (code, v) = check(src, tgt, "read_own_write", &["--engine", engine]);
            assert_eq!(code, 1, "{src} {engine}: {v}");
            let c = &v["counterexample"];
            assert_eq!(
                c["property"], "single-thread-behaviour",
                "{src} {engine}: {c}"
            );
            assert!(
                c["message"].as_str().is_some_and(|m| m
                    .contains(" in the order `store, load` in the reference but `load, store`")),
                "{src} {engine}: {c}"
            );
        }
    }
}
