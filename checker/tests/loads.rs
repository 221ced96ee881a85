//! A load whose value nothing uses is not an observable event of a thread;
//! every other load is, with its address and its place; races count every
//! access (`convcheck_ir::exec::observe`, docs/src/soundness.md "Loads").
//! A dead load dropped by the target is no violation, under every engine
//! and on LLVM IR (also when opt's DCE drops it); a used load moved before
//! its barrier, or before the thread's own store, changes single-thread
//! behaviour; an unused one moved before its barrier races; a dropped store
//! is still a change. The red-team cases of examples/soundness/llvm/redteam
//! (each answered `preserved` by a first version of the rule that left
//! every load out) are violated.

mod common;
use common::{convcheck, have, temp};

const KERNEL: &str = "examples/soundness/loads.c";
const KERNEL_TARGET: &str = "examples/soundness/loads-target.c";
const LL: &str = "examples/soundness/llvm/loads-src.ll";
const LL_TARGET: &str = "examples/soundness/llvm/loads-tgt.ll";
const BOTH: [(&str, &str); 2] = [(KERNEL, KERNEL_TARGET), (LL, LL_TARGET)];

fn check(src: &str, tgt: &str, function: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec!["check", src, tgt, "--format", "json"];
    if !function.is_empty() {
        args.extend_from_slice(&["--function", function]);
    }
    args.extend_from_slice(extra);
    let (code, out, err) = convcheck(&args);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, v)
}

/// The counterexample's property and message of a violated check.
fn violated(src: &str, tgt: &str, function: &str, extra: &[&str]) -> (String, String) {
    let (code, v) = check(src, tgt, function, extra);
    assert_eq!(code, 1, "{src} {function} {extra:?}: {v}");
    let c = &v["counterexample"];
    (
        c["property"].as_str().unwrap_or_default().to_string(),
        c["message"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn a_dropped_dead_load_is_no_violation_under_every_engine() {
    for (src, tgt) in BOTH {
        for engine in ["auto", "explicit", "smt"] {
            let (code, v) = check(src, tgt, "dead_load", &["--engine", engine]);
            assert_eq!(code, 0, "{src} {engine}: {v}");
            // `proved` where the simulation models the loads (no store,
            // no barrier in the function: DESIGN.md 2.6's free values).
            assert!(
                v["verdict"] == "preserved" || v["verdict"] == "proved",
                "{src} {engine}: {v}"
            );
        }
    }
}

/// A used load moved before its barrier reads another barrier phase: in
/// the kernel language, whose memory holds no values, the barrier's place
/// in the sequence shows it; on LLVM IR the value read does (the slot
/// other threads wrote in phase 0 is read in phase 0, where the thread's
/// value is another free value), and a thread's vote changes.
#[test]
fn a_used_load_moved_before_its_barrier_is_a_change() {
    let (property, message) = violated(KERNEL, KERNEL_TARGET, "late_read", &[]);
    assert_eq!(property, "single-thread-behaviour", "{message}");
    assert!(
        message.contains("but `load shared[0]` in the target"),
        "{message}"
    );
    for engine in ["auto", "explicit", "smt"] {
        let (property, message) = violated(LL, LL_TARGET, "late_read", &["--engine", engine]);
        assert!(
            property == "single-thread-behaviour" || property == "hazards",
            "{engine}: {property}: {message}"
        );
    }
}

#[test]
fn an_unused_load_moved_before_its_barrier_races() {
    for (src, tgt) in BOTH {
        for engine in ["auto", "explicit", "smt"] {
            let (property, message) = violated(src, tgt, "late_peek", &["--engine", engine]);
            assert_eq!(property, "hazards", "{src} {engine}: {message}");
            assert!(message.contains("races on shared[0]"), "{src}: {message}");
        }
    }
}

/// A read moved before the thread's own write: the kernel language shows
/// the load's new place; on LLVM IR the value read is no longer the
/// thread's own, and the vote it decides changes.
#[test]
fn a_read_moved_before_its_own_write_is_a_change() {
    for (src, tgt) in BOTH {
        for engine in ["auto", "explicit", "smt"] {
            let (property, message) = violated(src, tgt, "read_own_write", &["--engine", engine]);
            assert_eq!(property, "single-thread-behaviour", "{src} {engine}");
            let shown = if src == KERNEL {
                "load shared["
            } else {
                "`op`"
            };
            assert!(message.contains(shown), "{src} {engine}: {message}");
        }
    }
}

#[test]
fn a_dropped_store_is_still_a_change() {
    let text = std::fs::read_to_string(common::root().join(KERNEL)).expect("example");
    let no_store = temp("no-store.c", &text.replace("  shared[tid] = 1;\n", ""));
    let (property, message) = violated(KERNEL, &no_store, "late_read", &[]);
    assert_eq!(property, "single-thread-behaviour");
    assert!(message.contains("store shared["), "{message}");
}

/// The red-team pairs: each target reads another value than the
/// reference's, through another element, a moved phase, an alias the
/// address model does not see (a generic select, a parameter that may be
/// the global) or a narrower access; all violated under every engine.
#[test]
fn the_red_team_pairs_are_violated() {
    for name in ["cg", "ph", "gs", "gp", "ov"] {
        let a = format!("examples/soundness/llvm/redteam/{name}-a.ll");
        let b = format!("examples/soundness/llvm/redteam/{name}-b.ll");
        for engine in ["auto", "explicit", "smt"] {
            let (property, message) = violated(&a, &b, "", &["--engine", engine]);
            assert_eq!(
                property, "single-thread-behaviour",
                "{name} {engine}: {message}"
            );
        }
    }
}

/// A load added where another thread writes (`redteam/rl-b.ll`: thread
/// `tid` reads element `tid ^ 1`, unused) races: violated (hazard-freedom)
/// under every engine. Before the simulation's hazard condition
/// (`obligations::loads_covered`, issue 22) `--engine smt` answered
/// `proved`: the simulation, which it runs first on LLVM IR, compared no
/// unused load.
#[test]
fn a_load_added_where_another_thread_writes_races_under_every_engine() {
    let a = "examples/soundness/llvm/redteam/rl-a.ll";
    let b = "examples/soundness/llvm/redteam/rl-b.ll";
    for engine in ["auto", "explicit", "smt"] {
        let (property, message) = violated(a, b, "", &["--engine", engine]);
        assert_eq!(property, "hazards", "{engine}: {message}");
    }
}

/// opt's DCE deletes a load after the thread's own store to the same
/// address: no violation. Since the simulation models stores (issue 22)
/// it proves the stage for every iteration count (the load is unused, so
/// no event, and the stores are the same).
#[test]
fn dce_of_a_load_after_the_threads_own_store_is_no_violation() {
    if !have(
        "opt-19",
        "dce_of_a_load_after_the_threads_own_store_is_no_violation",
    ) {
        return;
    }
    let (code, out, err) = convcheck(&[
        "check",
        "examples/soundness/llvm/redteam/dl-a.ll",
        "--opt",
        "dce",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("verdict: proved"), "{out}");
    assert!(out.contains("proved by simulation"), "{out}");
}

/// Under the default engine, a stage the explicit engine preserved with
/// untried values or group sizes (listed in its report) is searched by the
/// symbolic product: these red-team pairs need a group of 257 threads or a
/// narrow-width value the explicit engine's domains miss.
#[test]
fn the_default_engine_searches_what_the_explicit_engine_left_untried() {
    for name in ["h_tlshr", "udiv8", "lshr16"] {
        let a = format!("examples/soundness/llvm/redteam/{name}-a.ll");
        let b = format!("examples/soundness/llvm/redteam/{name}-b.ll");
        let (code, v) = check(&a, &b, "", &[]);
        assert_eq!(code, 1, "{name}: {v}");
        let notes = v["stages"][0]["notes"].to_string();
        assert!(
            notes.contains("the explicit engine found none"),
            "{name}: {notes}"
        );
    }
}
