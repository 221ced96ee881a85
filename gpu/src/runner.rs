//! The device step behind one trait: "run this kernel's scenarios and hand
//! back each launch's logs". [`Runner`] is implemented by the real GPU
//! ([`crate::device::Device`], through the CUDA driver) and by
//! [`SimulatedDevice`], a **test double** that lets the minimization of
//! `fuzz --gpu` ([`crate::minimize`]) and the comparison around it be
//! tested on machines without a GPU.
//!
//! The simulated device is not a model of any GPU. It runs the model's own
//! interpreter on the CFG the back end would compile (the lowered kernel,
//! after the `--opt` pipeline when there is one) and numbers the dynamic
//! instances the way a device that **never rejoins threads once they have
//! diverged** would: two threads execute an instance together only when
//! the model runs it together *and* every logged event before it was in
//! the same model columns for both. So wherever the model reconverges
//! threads after they took different paths (after an `if` whose arms log
//! something, after a loop whose threads leave at different iterations),
//! the simulated device splits them: a *split* in the comparison. Merges
//! and single-thread differences never occur on it. It takes no PTX, so
//! its tests need no LLVM tool. A scenario the model cannot run within
//! its fuel logs nothing (the comparison then reports it as not compared,
//! with the model's reason), where a GPU would time out.

use crate::compare::HwEvent;
use crate::device::{Device, Logs};
use crate::model::Level;
use crate::session::{measure, GpuConfig, Prepared};
use crate::GpuError;
use convcheck_ir::scenario::{Scenario, ThreadValues};
use std::collections::BTreeMap;

/// Something that runs a prepared kernel's scenarios: one [`Logs`] per
/// scenario, in order.
pub trait Runner {
    /// The device's name in reports.
    fn name(&self) -> String;
    /// Whether [`Runner::run`] needs the kernel's PTX (a GPU does; the
    /// simulated device does not, so its kernels skip `llc`).
    fn needs_ptx(&self) -> bool;
    /// Runs every scenario of `p` under `cfg`.
    fn run(&self, p: &Prepared, cfg: &GpuConfig) -> Result<Vec<Logs>, GpuError>;
}

impl Runner for Device {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn needs_ptx(&self) -> bool {
        true
    }

    fn run(&self, p: &Prepared, cfg: &GpuConfig) -> Result<Vec<Logs>, GpuError> {
        measure(p, cfg, self)
    }
}

/// The test double described in the module documentation.
#[derive(Clone, Debug, Default)]
pub struct SimulatedDevice;

/// Its name in reports: it says what it is.
pub const SIMULATED_NAME: &str =
    "simulated device (a test double that never rejoins diverged threads; not hardware)";

impl Runner for SimulatedDevice {
    fn name(&self) -> String {
        SIMULATED_NAME.to_string()
    }

    fn needs_ptx(&self) -> bool {
        false
    }

    fn run(&self, p: &Prepared, cfg: &GpuConfig) -> Result<Vec<Logs>, GpuError> {
        let level = Level::Cfg {
            pipeline: cfg.pipeline.as_deref().map(crate::tools::pass_pipeline),
        };
        let code = p.subject.code(&level, &cfg.tools)?;
        p.scenarios
            .iter()
            .map(|s| {
                let scenario = Scenario {
                    threads: s.iter().map(|m| ThreadValues(m.clone())).collect(),
                };
                // A scenario the model cannot run (a loop that spins on the
                // drawn values) logs nothing here; the comparison runs the
                // model again, fails the same way and reports the scenario
                // as not compared, with the model's reason.
                let Ok(run) = code.run(&scenario, cfg.fuel) else {
                    return Ok(Logs {
                        logn: vec![0; s.len()],
                        events: vec![Vec::new(); s.len()],
                        seconds: 0.0,
                    });
                };
                let events: Vec<Vec<(String, usize)>> = run
                    .threads
                    .iter()
                    .map(|evs| evs.iter().map(|e| (e.label.clone(), e.column)).collect())
                    .collect();
                never_rejoin(&events, &p.tables.labels, cfg.layout.log_entries)
            })
            .collect()
    }
}

/// Numbers the model's events (`events[t]`: thread t's `(label, column)`
/// in order) as a device that never rejoins diverged threads: one number
/// per (column, history of earlier columns); the log keeps `log_entries`
/// events per thread.
fn never_rejoin(
    events: &[Vec<(String, usize)>],
    labels: &[String],
    log_entries: u32,
) -> Result<Logs, GpuError> {
    // Column -> its events (thread, position), in thread order.
    let mut by_column: BTreeMap<usize, Vec<(usize, usize)>> = BTreeMap::new();
    for (t, evs) in events.iter().enumerate() {
        for (k, (_, col)) in evs.iter().enumerate() {
            by_column.entry(*col).or_default().push((t, k));
        }
    }
    let mut number: Vec<Vec<i64>> = events.iter().map(|e| vec![0; e.len()]).collect();
    let mut mask: Vec<Vec<u32>> = number
        .clone()
        .into_iter()
        .map(|v| vec![0; v.len()])
        .collect();
    let mut next = 0i64;
    for members in by_column.values() {
        let mut groups: BTreeMap<Vec<usize>, Vec<(usize, usize)>> = BTreeMap::new();
        for &(t, k) in members {
            let history: Vec<usize> = events[t][..k].iter().map(|(_, c)| *c).collect();
            groups.entry(history).or_default().push((t, k));
        }
        // Numbers in order of the group's lowest thread, as one lane per
        // instance takes them.
        let mut groups: Vec<Vec<(usize, usize)>> = groups.into_values().collect();
        groups.sort_by_key(|g| g[0].0);
        for g in groups {
            let m = g.iter().fold(0u32, |m, &(t, _)| m | 1u32 << (t % 32));
            for &(t, k) in &g {
                number[t][k] = next;
                mask[t][k] = m;
            }
            next += 1;
        }
    }
    let mut logs = Logs {
        logn: Vec::new(),
        events: Vec::new(),
        seconds: 0.0,
    };
    for (t, evs) in events.iter().enumerate() {
        logs.logn.push(evs.len() as u32);
        let mut out = Vec::new();
        for (k, (label, _)) in evs.iter().enumerate().take(log_entries as usize) {
            let l = labels.iter().position(|x| x == label).ok_or_else(|| {
                GpuError::Unsupported(format!("the simulated device: label {label} not logged"))
            })?;
            out.push([l as i64, number[t][k], i64::from(mask[t][k] as i32)]);
        }
        logs.events.push(out);
    }
    Ok(logs)
}

/// The hardware events of `logs` for thread `t` (for tests and tables).
pub fn thread_events(logs: &Logs, t: usize) -> Vec<HwEvent> {
    logs.events[t]
        .iter()
        .map(crate::compare::hw_event)
        .collect()
}
