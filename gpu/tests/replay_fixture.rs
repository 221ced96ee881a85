//! The replay of real hardware logs (issue 24, "Must show"): the H200
//! measurement in `../shared/hw/h200-2026-11-27` (beside the clone, as CI
//! lays it out) compared with the model by `convcheck_gpu::replay`.
//!
//! The fixture's README states its findings and its summary numbers; these
//! tests hold the replay to them. They compare two independent things: logs
//! of a real GPU and convcheck's interpreter. A fixture that is absent is a
//! printed skip; a missing `opt` skips only the `-O2` rows.

use convcheck_gpu::compare::HwEvent;
use convcheck_gpu::record::Recording;
use convcheck_gpu::replay::{replay, KernelResult, ReplayConfig, ReplayReport, SummaryRow};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/hw/h200-2026-11-27");
    if dir.join("manifest.json.gz").is_file() {
        Some(dir)
    } else {
        println!(
            "skipping: the H200 fixture is not at {} (CI lays shared/ beside the clone)",
            dir.display()
        );
        None
    }
}

fn have_opt() -> bool {
    let ok = ["opt-19", "opt"].iter().any(|b| {
        Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !ok {
        println!("skipping the -O2 rows: no opt-19 or opt (apt-get install -y llvm-19)");
    }
    ok
}

fn row<'a>(rep: &'a ReplayReport, variant: &str, level: &str) -> &'a SummaryRow {
    rep.summary
        .iter()
        .find(|r| r.variant == variant && r.level == level)
        .unwrap_or_else(|| panic!("no row {variant} / {level} in {:#?}", rep.summary))
}

fn kernel<'a>(rep: &'a ReplayReport, id: &str, variant: &str, level: &str) -> &'a KernelResult {
    rep.kernels
        .iter()
        .find(|k| k.id == id && k.variant == variant && k.level == level)
        .unwrap_or_else(|| panic!("no result for {id} {variant} {level}"))
}

/// The seed kernels with every scenario's detail kept.
fn seeds(dir: &Path) -> (Recording, ReplayReport) {
    let rec = Recording::read(dir).expect("the fixture reads");
    let only = rec
        .manifest
        .kernels
        .iter()
        .filter(|k| k.file.contains("seed-"))
        .map(|k| k.id.clone())
        .collect();
    let cfg = ReplayConfig {
        only,
        keep_scenarios: true,
        jobs: 2,
        ..ReplayConfig::default()
    };
    let rep = replay(&rec, &cfg);
    (rec, rep)
}

/// For each hardware instance number of `label` in one launch: the
/// occurrence of that label in each thread's own log (its iteration, in a
/// loop that runs the label once per iteration).
fn occurrences(hw: &[Vec<HwEvent>], label: usize) -> Vec<(i64, Vec<usize>)> {
    let mut out: Vec<(i64, Vec<usize>)> = Vec::new();
    for log in hw {
        for (k, e) in log.iter().filter(|e| e.label == label).enumerate() {
            match out.iter_mut().find(|(n, _)| *n == e.number) {
                Some((_, v)) => v.push(k),
                None => out.push((e.number, vec![k])),
            }
        }
    }
    out
}

#[test]
fn single_thread_behaviour_is_the_models_everywhere_in_the_seed_kernels() {
    let Some(dir) = fixture() else { return };
    let (_, rep) = seeds(&dir);
    assert!(!rep.kernels.is_empty());
    for k in &rep.kernels {
        if k.level.contains("default<O2>") && !have_opt() {
            continue;
        }
        assert!(
            k.errors.is_empty(),
            "{} {} {}: {:?}",
            k.id,
            k.variant,
            k.level,
            k.errors
        );
        assert_eq!(
            k.same_behaviour, k.scenarios,
            "{} {} {}: single-thread behaviour differs",
            k.id, k.variant, k.level
        );
        assert!(k.scenarios > 0);
    }
}

#[test]
fn sequential_branch_is_identical_on_the_llvm_path_and_split_under_nvcc() {
    let Some(dir) = fixture() else { return };
    let (rec, rep) = seeds(&dir);
    let id = "sequential_branch.foo";
    for (variant, level) in [
        ("O0/ptxas-O0", "source"),
        ("O0/ptxas-O0", "cfg"),
        ("O0/ptxas-O3", "cfg"),
    ] {
        let k = kernel(&rep, id, variant, level);
        assert!(k.identical(), "{id} {variant} {level}: {:?}", k.pairs);
    }
    if have_opt() {
        let k = kernel(&rep, id, "O2/ptxas-O3", "cfg after default<O2>");
        assert!(k.identical(), "{id} -O2: {:?}", k.pairs);
    }
    // nvcc does not rejoin after the if/else: D is split.
    let k = kernel(&rep, id, "nvcc-O3", "source");
    assert!(k.pairs.splits > 0 && k.pairs.merges == 0, "{:?}", k.pairs);
    assert!(rec.kernel(id).unwrap().labels.contains(&"D".to_string()));
    let d_split = k.details.iter().any(|s| {
        let (run, _) = s.detail.as_ref().unwrap();
        let c = s.comparison.as_ref().unwrap();
        c.split_columns.iter().any(|&col| {
            run.table
                .cells
                .iter()
                .any(|r| r[col].as_ref().is_some_and(|cell| cell.label == "D"))
        })
    });
    assert!(d_split, "nvcc-O3 splits sequential_branch at D");
}

#[test]
fn loop_continue_merges_instances_of_different_iterations() {
    let Some(dir) = fixture() else { return };
    let (rec, rep) = seeds(&dir);
    let id = "ambiguity_source.loop_continue";
    let labels = &rec.kernel(id).unwrap().labels;
    let b = labels.iter().position(|l| l == "B").unwrap();
    for level in ["source", "cfg"] {
        let k = kernel(&rep, id, "O0/ptxas-O0", level);
        assert!(k.pairs.merges > 0, "{level}: {:?}", k.pairs);
        // A merged hardware instance of B holds threads in different
        // iterations (B runs once per iteration of the loop): read from the
        // raw logs, independently of the model.
        let across = k.details.iter().any(|s| {
            let (_, hw) = s.detail.as_ref().unwrap();
            occurrences(hw, b).iter().any(|(_, its)| {
                let first = its[0];
                its.iter().any(|&i| i != first)
            })
        });
        assert!(across, "no instance of B joins two iterations");
        // And the model never joins different iterations: every merged
        // number is one the model splits by column.
        let merged = k
            .details
            .iter()
            .filter_map(|s| s.comparison.as_ref())
            .any(|c| c.merged_numbers.iter().any(|&(_, only_open)| !only_open));
        assert!(merged);
    }
}

#[test]
fn sequential_loop_is_split_at_c() {
    let Some(dir) = fixture() else { return };
    let (_, rep) = seeds(&dir);
    let id = "sequential_loop.foo";
    for (variant, level) in [("O0/ptxas-O0", "source"), ("O0/ptxas-O0", "cfg")] {
        let k = kernel(&rep, id, variant, level);
        assert!(k.pairs.splits > 0, "{variant} {level}: {:?}", k.pairs);
        let c_split = k.details.iter().any(|s| {
            let (run, _) = s.detail.as_ref().unwrap();
            let c = s.comparison.as_ref().unwrap();
            c.split_columns.iter().any(|&col| {
                run.table
                    .cells
                    .iter()
                    .any(|r| r[col].as_ref().is_some_and(|cell| cell.label == "C"))
            })
        });
        assert!(c_split, "{variant} {level}: C is not split");
    }
}

/// The README's summary table, reproduced: (variant, level, agree in
/// tenths of a percent, merges, splits, kernels identical).
const README: &[(&str, &str, u64, u64, u64, usize)] = &[
    ("O0/ptxas-O0", "source", 945, 25_444, 88_473, 184),
    ("O0/ptxas-O0", "cfg", 954, 49_577, 118_448, 174),
    (
        "O2/ptxas-O3",
        "cfg after default<O2>",
        954,
        46_283,
        121_210,
        173,
    ),
    ("nvcc-O3", "source", 925, 8_359, 24_470, 1),
];

#[test]
fn the_whole_fixture_reproduces_the_readme_table() {
    let Some(dir) = fixture() else { return };
    let rec = Recording::read(&dir).expect("the fixture reads");
    let opt = have_opt();
    let t = std::time::Instant::now();
    let rep = replay(
        &rec,
        &ReplayConfig {
            jobs: 2,
            ..ReplayConfig::default()
        },
    );
    println!(
        "whole fixture replayed in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    for &(variant, level, agree, merges, splits, identical) in README {
        if level.contains("O2") && !opt {
            continue;
        }
        let r = row(&rep, variant, level);
        let p = &r.pairs;
        let determined = p.pairs - p.open_together - p.open_apart;
        let tenths = (p.agree as f64 * 1000.0 / determined as f64).round() as u64;
        assert_eq!(
            (tenths, p.merges, p.splits, r.kernels_identical),
            (agree, merges, splits, identical),
            "{variant} / {level}"
        );
        assert_eq!(r.not_compared, 0, "{variant} / {level}");
        assert_eq!(r.same_behaviour, r.scenarios, "{variant} / {level}");
    }
}

/// The live run of this project's own `convcheck gpu` on an NVIDIA H200
/// (`scripts/gpu-measure.sh`, 2026-11-27; recordings of the seed kernels in
/// `gpu/tests/data/h200-live-2026-11-27`, 8 scenarios each, llc-19 at -O0
/// with ptxas -O0 and -O3, and `default<O2>` with llc -O2 and ptxas -O3),
/// replayed against the model: single-thread behaviour is the model's in
/// every scenario of every kernel; `thread-masks.c`'s `foo` is merged at
/// every level (1,636 pairs); `loop_continue` merges instances of
/// different iterations; `sequential-loop.c` is split; `switch.c` under
/// `default<O2>` is identical. docs/src/hardware.md, "The live run", has
/// the whole table.
#[test]
fn the_live_run_on_an_h200_replays_to_its_recorded_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/h200-live-2026-11-27");
    let opt = have_opt();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the live recordings")
        .map(|e| e.expect("an entry").path())
        .filter(|p| opt || !p.to_string_lossy().contains(".O2."))
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 28, "{dirs:?}");
    let mut counts = std::collections::BTreeMap::new();
    for dir in &dirs {
        let rec = Recording::read(dir).expect("a live recording reads");
        let rep = replay(&rec, &ReplayConfig::default());
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        for k in rep.kernels.iter().filter(|k| k.level == "source") {
            assert!(k.errors.is_empty(), "{name}: {:?}", k.errors);
            assert_eq!(k.scenarios, 8, "{name}");
            assert_eq!(
                k.same_behaviour, k.scenarios,
                "{name}: single-thread behaviour"
            );
            counts.insert(name.clone(), (k.pairs.merges, k.pairs.splits));
        }
    }
    let at = |n: &str| {
        *counts
            .get(n)
            .unwrap_or_else(|| panic!("no {n} in {counts:?}"))
    };
    for level in ["ll-O0.ptxas-O0", "ll-O0.ptxas-O3"] {
        assert_eq!(at(&format!("thread-masks.foo.{level}")), (1636, 0));
        assert!(at(&format!("ambiguity-source.loop_continue.{level}")).0 > 0);
        assert_eq!(at(&format!("sequential-loop.foo.{level}")), (0, 2053));
        assert_eq!(at(&format!("thread-masks.bar.{level}")), (0, 0));
    }
    if opt {
        assert_eq!(at("switch.foo.O2.ptxas-O3"), (0, 0));
        assert!(at("ambiguity-source.loop_continue.O2.ptxas-O3").0 > 0);
    }
}
