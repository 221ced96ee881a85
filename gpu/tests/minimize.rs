//! Minimization of `fuzz --gpu` on the simulated device (a test double that
//! never rejoins diverged threads, `convcheck_gpu::runner`): a generated
//! kernel whose threads leave a loop at different iterations differs (the
//! device splits what the model rejoins after the loop) and is shrunk to a
//! small kernel that still differs in the same way, checked by running the
//! result again; a kernel without a difference is not touched; a budget
//! cut is reported. No GPU and no LLVM tool is needed.

use convcheck_gpu::minimize::{
    difference_of, minimize, minimize_differing, shows, DiffKind, MinimizeConfig,
};
use convcheck_gpu::runner::{Runner, SimulatedDevice};
use convcheck_gpu::session::{generated, live_on, GpuConfig};

/// The default config with less fuel: a generated loop that spins on its
/// drawn values is given up sooner (generated loops end within a few
/// hundred instructions otherwise).
fn cfg() -> GpuConfig {
    GpuConfig {
        fuel: 20_000,
        ..GpuConfig::default()
    }
}

/// The first of seed 1's generated kernels with a loop whose comparison on
/// the simulated device differs.
fn differing_loop_kernel() -> (String, String) {
    let cfg = cfg();
    for (file, text) in generated(1, 40) {
        if !(text.contains("for (") || text.contains("while (")) || !text.contains("break") {
            continue;
        }
        // A kernel whose loop spins on the drawn values is not a candidate.
        let Ok(rep) = live_on(&[(file.clone(), text.clone())], &cfg, &SimulatedDevice) else {
            continue;
        };
        let id = rep.replay.kernels[0].id.clone();
        if difference_of(&rep.replay, &id).is_some() {
            return (file, text);
        }
    }
    panic!("no generated kernel of seed 1 with a loop differs on the simulated device");
}

#[test]
fn a_divergent_loop_exit_is_minimized_and_still_differs() {
    let (file, text) = differing_loop_kernel();
    let cfg = cfg();
    let dev = SimulatedDevice;
    let rep = live_on(&[(file.clone(), text.clone())], &cfg, &dev).unwrap();
    let id = rep.replay.kernels[0].id.clone();
    let target = difference_of(&rep.replay, &id).unwrap();
    // The double never merges and never changes single-thread behaviour.
    assert_eq!(target.kind, DiffKind::Split, "{text}");
    let m = minimize(
        &file,
        &text,
        &cfg,
        &dev,
        &target,
        &MinimizeConfig { max_runs: 400 },
    )
    .unwrap();
    println!(
        "{file}: {} -> {} statements in {} device runs:\n{}",
        m.statements_before, m.statements_after, m.runs, m.text
    );
    assert!(!m.budget_cut, "{} runs", m.runs);
    assert!(
        m.statements_after * 2 <= m.statements_before && m.statements_after <= 12,
        "{} -> {} statements:\n{}",
        m.statements_before,
        m.statements_after,
        m.text
    );
    // The split comes from threads leaving the loop apart: the loop stays.
    assert!(
        m.text.contains("for (") || m.text.contains("while ("),
        "{}",
        m.text
    );
    // The minimized kernel, run again, still shows the split at that level.
    let again = live_on(&[(file.clone(), m.text.clone())], &cfg, &dev).unwrap();
    assert!(shows(&again.replay, &id, &target), "{}", m.text);
}

#[test]
fn a_kernel_without_a_difference_is_not_touched() {
    let text = "void same() {\n  ... // A\n  ... // B\n}\n";
    let files = vec![("same.c".to_string(), text.to_string())];
    let cfg = cfg();
    let rep = live_on(&files, &cfg, &SimulatedDevice).unwrap();
    assert!(rep.replay.kernels.iter().all(|k| k.identical()));
    let m = minimize_differing(
        &files,
        &rep.replay,
        &cfg,
        &SimulatedDevice,
        &MinimizeConfig::default(),
    );
    assert!(m.minimized.is_empty() && m.failed.is_empty());
}

#[test]
fn the_budget_cut_is_reported() {
    let (file, text) = differing_loop_kernel();
    let dir = tempfile::tempdir().unwrap();
    let cfg = GpuConfig {
        record: Some(dir.path().to_path_buf()),
        ..cfg()
    };
    let files = vec![(file.clone(), text)];
    let rep = live_on(&files, &cfg, &SimulatedDevice).unwrap();
    let m = minimize_differing(
        &files,
        &rep.replay,
        &cfg,
        &SimulatedDevice,
        &MinimizeConfig { max_runs: 2 },
    );
    assert_eq!(m.minimized.len(), 1, "{:?}", m.failed);
    let k = &m.minimized[0];
    assert!(k.budget_cut && k.runs == 2, "{k:?}");
    assert!(k.text.contains("cut by the budget"));
    // Written beside the original in the record folder.
    let stem = file.trim_end_matches(".c");
    let path = dir.path().join("kernels").join(format!("{stem}.min.c"));
    assert_eq!(
        k.written.as_deref(),
        Some(path.display().to_string().as_str())
    );
    assert!(dir.path().join("kernels").join(&file).exists());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), k.text);
    let table = convcheck_gpu::render::minimized_table(&m);
    assert!(
        table.contains("2 of 2 (budget cut: not minimal)"),
        "{table}"
    );
    assert!(SimulatedDevice.name().contains("test double"));
}
