//! The comparison against logs whose answer is known: logs written from the
//! model's own run (identical by construction), then changed the way real
//! hardware differs (two iterations joined: a merge; one instance cut in
//! two: a split; a thread that runs one more operation: single-thread
//! behaviour). Each change must be found, and only it. Also: convcheck's
//! own recording format written and read back gives the same replay.

use convcheck_gpu::compare::{compare, HwEvent};
use convcheck_gpu::model::{Level, ModelRun, Subject};
use convcheck_gpu::record::{
    KernelEntry, Manifest, Recording, ResultLine, ScenarioEntry, VariantInfo, FORMAT,
};
use convcheck_gpu::replay::{replay, ReplayConfig};
use convcheck_gpu::tools::Tools;
use convcheck_ir::scenario::{Scenario, ThreadValues};
use std::collections::BTreeMap;

const LOOP_CONTINUE: &str = "void loop_continue() {
  ... // A
  for (;;) {
    ... // B
    if (cond1)
      continue;
    ... // C
    if (cond2)
      continue;
    break;
  }
  ... // D
}
";

fn scenario() -> Scenario {
    // Thread t continues t times at the first test, then leaves.
    Scenario {
        threads: (0..6)
            .map(|t| {
                let mut m = BTreeMap::new();
                let mut c1 = vec![1; t];
                c1.push(0);
                m.insert("cond1".to_string(), c1);
                m.insert("cond2".to_string(), vec![0; 8]);
                ThreadValues(m)
            })
            .collect(),
    }
}

fn run(level: Level) -> ModelRun {
    let s = Subject::from_kernel("lc.c", LOOP_CONTINUE, None).expect("parses");
    s.code(&level, &Tools::default())
        .expect("code")
        .run(&scenario(), 10_000)
        .expect("runs")
}

/// The model's run as a hardware log: one number per model column.
fn as_hardware(run: &ModelRun, labels: &[String]) -> Vec<Vec<HwEvent>> {
    run.threads
        .iter()
        .map(|evs| {
            evs.iter()
                .map(|e| HwEvent {
                    label: labels.iter().position(|l| *l == e.label).expect("label"),
                    number: e.column as i64,
                    mask: 0,
                })
                .collect()
        })
        .collect()
}

fn labels() -> Vec<String> {
    ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_models_own_run_is_identical_at_both_levels() {
    for level in [Level::Source, Level::Cfg { pipeline: None }] {
        let r = run(level.clone());
        let hw = as_hardware(&r, &labels());
        let logn: Vec<u32> = hw.iter().map(|l| l.len() as u32).collect();
        let c = compare(&labels(), &hw, &logn, &r);
        assert!(c.same_behaviour(), "{level:?}: {:?}", c.behaviour);
        assert!(
            c.pairs.identical() && c.pairs.pairs > 0,
            "{level:?}: {:?}",
            c.pairs
        );
        assert_eq!(c.pairs.agree, c.pairs.pairs);
    }
}

#[test]
fn joining_two_iterations_is_a_merge_and_only_that() {
    let r = run(Level::Source);
    let l = labels();
    let mut hw = as_hardware(&r, &l);
    // Thread 1's second B (iteration 1) runs with thread 0's first B
    // (iteration 0), as the H200 does with loop_continue.
    let b = 1;
    let first_b0 = hw[0].iter().find(|e| e.label == b).unwrap().number;
    let second_b1 = hw[1].iter_mut().filter(|e| e.label == b).nth(1).unwrap();
    second_b1.number = first_b0;
    let logn: Vec<u32> = hw.iter().map(|l| l.len() as u32).collect();
    let c = compare(&l, &hw, &logn, &r);
    assert!(c.same_behaviour());
    assert!(c.pairs.merges > 0, "{:?}", c.pairs);
    assert!(!c.merged_columns.is_empty() && c.merged_numbers.iter().any(|(_, open)| !open));
}

#[test]
fn cutting_an_instance_in_two_is_a_split_and_changing_a_label_is_behaviour() {
    let r = run(Level::Cfg { pipeline: None });
    let l = labels();
    let mut hw = as_hardware(&r, &l);
    // D of thread 5 runs apart from the others' D.
    let d = 3;
    hw[5].iter_mut().find(|e| e.label == d).unwrap().number = 1_000;
    let logn: Vec<u32> = hw.iter().map(|l| l.len() as u32).collect();
    let c = compare(&l, &hw, &logn, &r);
    assert!(c.pairs.splits > 0 && c.pairs.merges == 0, "{:?}", c.pairs);
    assert!(c.split_numbers.contains(&1_000));
    // One more A in thread 2: single-thread behaviour differs there.
    hw[2].push(HwEvent {
        label: 0,
        number: 2_000,
        mask: 0,
    });
    let logn: Vec<u32> = hw.iter().map(|l| l.len() as u32).collect();
    let c = compare(&l, &hw, &logn, &r);
    assert_eq!(c.behaviour.len(), 1);
    assert_eq!(c.behaviour[0].tid, 2);
    assert_eq!(c.behaviour[0].model, None);
    assert_eq!(c.behaviour[0].hardware.as_deref(), Some("A"));
    // A cut log: the events past the cut are not a difference.
    let mut short = as_hardware(&r, &l);
    let full = short[4].len() as u32;
    short[4].truncate(2);
    let mut logn: Vec<u32> = short.iter().map(|l| l.len() as u32).collect();
    logn[4] = full;
    let c = compare(&l, &short, &logn, &r);
    assert_eq!(c.cut, vec![4]);
    assert!(c.same_behaviour());
}

#[test]
fn convcheck_format_round_trips_and_replays_like_the_model() {
    // A recording written in convcheck's format from the model's own runs:
    // read back, it replays as identical at both levels.
    let dir = tempfile::tempdir().expect("temp dir");
    let l = labels();
    let s = scenario();
    let r = run(Level::Cfg { pipeline: None });
    let hw = as_hardware(&r, &l);
    let events: Vec<Vec<[i64; 3]>> = hw
        .iter()
        .map(|t| t.iter().map(|e| [e.label as i64, e.number, -1]).collect())
        .collect();
    let manifest = Manifest {
        w: 6,
        no_max: None,
        k: 16,
        e: 512,
        format: Some(FORMAT.to_string()),
        variants: BTreeMap::from([(
            "ll/llc-O0/ptxas-O3".to_string(),
            VariantInfo {
                pipeline: None,
                llc: None,
                ptxas_opt: Some(3),
                device: Some("the model, as a stand-in".into()),
            },
        )]),
        kernels: vec![KernelEntry {
            id: "lc.loop_continue".into(),
            file: "kernels/lc.c".into(),
            function: "loop_continue".into(),
            labels: l.clone(),
            oracles: vec!["cond1".into(), "cond2".into()],
            domains: BTreeMap::new(),
            ptx: BTreeMap::new(),
            scenarios: vec![ScenarioEntry {
                threads: s.threads.iter().map(|t| t.0.clone()).collect(),
            }],
        }],
    };
    let results = vec![ResultLine {
        id: "lc.loop_continue".into(),
        variant: "ll/llc-O0/ptxas-O3".into(),
        scen: 0,
        logn: hw.iter().map(|t| t.len() as u32).collect(),
        events,
        s: None,
    }];
    Recording::write(
        dir.path(),
        &manifest,
        &results,
        &[("kernels/lc.c".into(), LOOP_CONTINUE.into())],
    )
    .expect("writes");
    let rec = Recording::read(dir.path()).expect("reads back");
    assert_eq!(rec.manifest, manifest);
    assert_eq!(rec.results, results);
    let rep = replay(&rec, &ReplayConfig::default());
    let cfg_row = rep
        .summary
        .iter()
        .find(|r| r.level == "cfg")
        .expect("cfg row");
    assert_eq!((cfg_row.kernels, cfg_row.kernels_identical), (1, 1));
    // The source level joins what maximal convergence joins here too
    // (no merge), but the rows are both present.
    assert!(rep.summary.iter().any(|r| r.level == "source"));
}
