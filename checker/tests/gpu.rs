//! `convcheck gpu` and `convcheck fuzz --gpu` on the command line (issue
//! 24): without a CUDA driver they exit 3 with "no CUDA driver", never a
//! crash; `--replay` compares the H200 fixture's logs with the model (exit
//! 1 where the hardware merged, 0 where it only split); bad input is exit 2.

mod common;
use common::{convcheck, root};

fn fixture() -> Option<String> {
    let dir = root().join("../shared/hw/h200-2026-11-27");
    if dir.join("manifest.json.gz").is_file() {
        Some(dir.display().to_string())
    } else {
        println!("skipping: no H200 fixture at {}", dir.display());
        None
    }
}

/// Whether this machine has a CUDA driver (then the no-driver tests have
/// nothing to test and say so).
fn driver_present() -> bool {
    let present = convcheck_gpu::device::driver_present();
    if present {
        println!("skipping the no-driver checks: this machine has a CUDA driver");
    }
    present
}

#[test]
fn gpu_without_a_driver_exits_3_with_a_clear_message() {
    if driver_present() {
        return;
    }
    let (code, out, err) = convcheck(&["gpu", "examples/seed/sequential-loop.c"]);
    assert_eq!(code, 3, "stdout: {out}\nstderr: {err}");
    assert!(err.contains("no CUDA driver"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let (code, _, err) = convcheck(&["fuzz", "--gpu", "--count", "2"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no CUDA driver"), "{err}");
}

#[test]
fn bad_input_is_a_usage_error() {
    let (code, _, err) = convcheck(&["gpu"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--replay"), "{err}");
    let (code, _, err) = convcheck(&["gpu", "--replay", "examples/seed"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("manifest"), "{err}");
    let (code, _, err) = convcheck(&["gpu", "examples/seed/nope.c", "--ptxas-opt", "9"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn replay_of_loop_continue_finds_the_merge_and_sequential_loop_only_splits() {
    let Some(dir) = fixture() else { return };
    let (code, out, err) = convcheck(&[
        "gpu",
        "examples/seed/ambiguity-source.c",
        "--function",
        "loop_continue",
        "--replay",
        &dir,
        "--tables",
        "1",
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains("ambiguity_source.loop_continue (kernels/seed-ambiguity-source.c `loop_continue`) O0/ptxas-O0 vs source: merged, split"),
        "{out}"
    );
    // Both tables are printed, the hardware's with its merge marked.
    assert!(
        out.contains("the model (source):") && out.contains("| hardware |"),
        "{out}"
    );
    assert!(out.contains("| model "), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("| model") && l.contains(" M")),
        "{out}"
    );

    let (code, out, err) = convcheck(&[
        "gpu",
        "examples/seed/sequential-loop.c",
        "--replay",
        &dir,
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let rows = v["summary"].as_array().expect("summary rows");
    assert!(!rows.is_empty());
    for r in rows {
        assert_eq!(r["pairs"]["merges"], 0, "{r}");
        assert!(r["pairs"]["splits"].as_u64().unwrap() > 0, "{r}");
        assert_eq!(r["same_behaviour"], r["scenarios"], "{r}");
    }
}

/// `fuzz --gpu --simulated-device`: the test double (never rejoins diverged
/// threads) splits the first generated kernels; each is minimized under the
/// budget, written beside its original, and listed with its budget cut.
#[test]
fn fuzz_gpu_on_the_simulated_device_minimizes_and_reports_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().display().to_string();
    let (code, out, err) = convcheck(&[
        "fuzz",
        "--gpu",
        "--simulated-device",
        "--count",
        "2",
        "--min-runs",
        "3",
        "--out",
        &out_dir,
    ]);
    assert!(code == 0 || code == 3, "{code}: {err}\n{out}");
    assert!(out.contains("on simulated device (a test double"), "{out}");
    assert!(out.contains("minimized kernels"), "{out}");
    assert!(out.contains("3 of 3 (budget cut: not minimal)"), "{out}");
    let min = dir.path().join("kernels/gen-0000.min.c");
    assert!(out.contains(&min.display().to_string()), "{out}");
    let text = std::fs::read_to_string(&min).unwrap();
    assert!(text.starts_with("// minimized from gen-0000.c"), "{text}");
    // With --min-runs 0 nothing is minimized.
    let (_, out, _) = convcheck(&[
        "fuzz",
        "--gpu",
        "--simulated-device",
        "--count",
        "2",
        "--min-runs",
        "0",
    ]);
    assert!(!out.contains("minimized kernels"), "{out}");
}
