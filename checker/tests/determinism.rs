//! Determinism of `convcheck check` (docs/src/determinism.md): the same
//! inputs give the same report, byte for byte, counterexample values
//! included, whichever run answers and however loaded the machine is,
//! as long as no time budget runs out. The runs are started at the same
//! time, so that they load the machine for each other: a choice that
//! depends on the wall clock (which query answers within a share of the
//! time) shows up as a different report.

mod common;

use common::{convcheck, have, reduce_int_after_sroa};

/// `reduce-int.cu` after SROA with its partial sum computed by `sub`
/// instead of `add nsw` (the pair of
/// `gpu_examples::counterexamples_name_objects_and_elements`), checked
/// three times at once under the default engine and under `--engine
/// smt`: the three JSON reports are identical. Under the default engine
/// the product's search gets a tenth of the budget, and its searches at
/// small bounds got a tenth of that (0.6 s): on a loaded machine the
/// max-iters 1 query ran past it and the counterexample came from
/// another query, with other values, in 1 run of 10. They are now
/// bounded by z3's resource counter instead.
#[test]
fn a_violated_check_prints_the_same_report_every_time() {
    let test = "a_violated_check_prints_the_same_report_every_time";
    if !have("clang-19", test) || !have("opt-19", test) {
        return;
    }
    let (_, reference, target) = reduce_int_after_sroa("det-reduce-int");
    for engine in ["auto", "smt"] {
        let args = [
            "check",
            reference.as_str(),
            target.as_str(),
            "--function",
            "reduce_int",
            "--engine",
            engine,
            "--threads",
            "2",
            "--grid-dim",
            "1",
            "--format",
            "json",
        ];
        let runs: Vec<(i32, String, String)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..3).map(|_| s.spawn(|| convcheck(&args))).collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a run"))
                .collect()
        });
        for (code, json, err) in &runs {
            assert_eq!(*code, 1, "--engine {engine}: {json}{err}");
            assert!(json.contains("\"counterexample\""), "{json}");
        }
        for (i, (_, json, _)) in runs.iter().enumerate().skip(1) {
            assert_eq!(
                json,
                &runs[0].1,
                "--engine {engine}: run {} printed another report than run 1",
                i + 1
            );
        }
    }
}
