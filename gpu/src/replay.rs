//! Replaying recorded hardware logs against the model, without a GPU.
//!
//! For every kernel of a [`Recording`], every variant (how it was
//! compiled) and every model level that applies to the variant
//! ([`levels_of`]), each scenario runs in the model once (runs are shared
//! by the variants that need the same level) and is compared with each
//! variant's logs ([`crate::compare`]). The report has one
//! [`KernelResult`] per (kernel, variant, level) and the summary table of
//! the fixture's README per (variant, level) ([`SummaryRow`]).
//!
//! Nothing is left out silently: a kernel whose file cannot be read, a
//! level whose CFG cannot be built (no `opt` for the `-O2` copy) and a
//! scenario the model cannot run within its fuel are listed with the
//! reason, and counted in the summary's `not_compared`.

use crate::compare::{compare, hw_event, Comparison, HwEvent, PairCounts};
use crate::model::{Level, ModelCode, ModelRun, Subject};
use crate::record::{KernelEntry, Recording, ResultLine};
use crate::tools::Tools;
use crate::GpuError;
use convcheck_ir::scenario::{Scenario, ThreadValues};
use serde::Serialize;
use std::collections::BTreeMap;

/// What to replay, and how.
#[derive(Clone, Debug)]
pub struct ReplayConfig {
    /// Instructions one model thread may execute.
    pub fuel: u64,
    /// `opt`, for variants whose CFG went through a pipeline.
    pub tools: Tools,
    /// Only kernels whose id, or file name, or `file:function`, is listed
    /// (all when empty).
    pub only: Vec<String>,
    /// Keep every scenario's comparison and model run (for tables); off,
    /// only the counts are kept.
    pub keep_scenarios: bool,
    /// Replay only every n-th kernel (1: all), for quick samples.
    pub sample_every: usize,
    /// Threads replaying kernels in parallel (at least 1).
    pub jobs: usize,
}

impl Default for ReplayConfig {
    fn default() -> ReplayConfig {
        ReplayConfig {
            fuel: crate::model::DEFAULT_FUEL,
            tools: Tools::default(),
            only: Vec::new(),
            keep_scenarios: false,
            sample_every: 1,
            jobs: 1,
        }
    }
}

/// One scenario of a kernel under one variant and level.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioResult {
    /// Index in the kernel's scenarios.
    pub scen: usize,
    /// The comparison (absent when the model could not run it).
    pub comparison: Option<Comparison>,
    /// Why it was not compared.
    pub error: Option<String>,
    /// The model's run and the hardware's logs, when kept.
    #[serde(skip)]
    pub detail: Option<(ModelRun, Vec<Vec<HwEvent>>)>,
}

/// One kernel under one variant and one model level.
#[derive(Clone, Debug, Serialize)]
pub struct KernelResult {
    /// The kernel's id.
    pub id: String,
    /// Its file, relative to the recording.
    pub file: String,
    /// Its function.
    pub function: String,
    /// The variant.
    pub variant: String,
    /// The model level.
    pub level: String,
    /// Pair counts over its scenarios.
    pub pairs: PairCounts,
    /// Scenarios compared.
    pub scenarios: usize,
    /// Scenarios whose single-thread behaviour was the model's.
    pub same_behaviour: usize,
    /// Scenarios in which some thread's log was cut.
    pub cut: usize,
    /// Why the kernel (or some scenarios) could not be compared.
    pub errors: Vec<String>,
    /// Each scenario.
    pub details: Vec<ScenarioResult>,
}

impl KernelResult {
    /// Identical: every scenario compared, same single-thread behaviour,
    /// no merge and no split.
    pub fn identical(&self) -> bool {
        self.errors.is_empty()
            && self.same_behaviour == self.scenarios
            && self.pairs.identical()
            && self.cut == 0
    }
}

/// One row of the summary table: a variant against a model level.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SummaryRow {
    /// The variant.
    pub variant: String,
    /// The model level.
    pub level: String,
    /// Pair counts over every kernel.
    pub pairs: PairCounts,
    /// Kernels compared.
    pub kernels: usize,
    /// Kernels identical ([`KernelResult::identical`]).
    pub kernels_identical: usize,
    /// Scenarios compared.
    pub scenarios: usize,
    /// Scenarios with the model's single-thread behaviour.
    pub same_behaviour: usize,
    /// Kernels or scenarios that could not be compared.
    pub not_compared: usize,
}

/// A replay's report.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayReport {
    /// The recording's folder.
    pub dir: String,
    /// One row per (variant, level), in order of the variants.
    pub summary: Vec<SummaryRow>,
    /// One result per (kernel, variant, level).
    pub kernels: Vec<KernelResult>,
}

/// The model levels a variant is compared with: the source level (kernel
/// files), and the CFG the variant compiled. A variant recorded by
/// convcheck names its pipeline; the fixture's names say it (`O0/...`:
/// the lowered CFG; `O2/...`: after `opt -O2`; `nvcc...`: nvcc's own CFG,
/// which the model does not have, so the source level only).
pub fn levels_of(rec: &Recording, variant: &str, has_source: bool) -> Vec<Level> {
    let mut out = Vec::new();
    if has_source {
        out.push(Level::Source);
    }
    if let Some(v) = rec.manifest.variants.get(variant) {
        out.push(Level::Cfg {
            pipeline: v.pipeline.clone(),
        });
    } else if variant.starts_with("O0/") {
        out.push(Level::Cfg { pipeline: None });
    } else if let Some(rest) = variant.strip_prefix('O') {
        let lvl: String = rest.chars().take_while(|c| *c != '/').collect();
        if matches!(lvl.as_str(), "1" | "2" | "3" | "s" | "z") {
            out.push(Level::Cfg {
                pipeline: Some(format!("default<O{lvl}>")),
            });
        }
    }
    out
}

/// The scenario of a manifest entry for the model.
pub fn scenario_of(k: &KernelEntry, scen: usize) -> Scenario {
    Scenario {
        threads: k.scenarios[scen]
            .threads
            .iter()
            .map(|m| ThreadValues(m.clone()))
            .collect(),
    }
}

/// Whether the config selects kernel `k`.
fn selected(cfg: &ReplayConfig, k: &KernelEntry) -> bool {
    if cfg.only.is_empty() {
        return true;
    }
    let base = std::path::Path::new(&k.file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    cfg.only.iter().any(|o| {
        o == &k.id
            || o == &k.file
            || o == base
            || *o == format!("{}:{}", k.file, k.function)
            || *o == format!("{base}:{}", k.function)
    })
}

/// Replays `rec` (see the module documentation).
pub fn replay(rec: &Recording, cfg: &ReplayConfig) -> ReplayReport {
    let variants = rec.variants();
    let mut by_kernel: BTreeMap<&str, Vec<&ResultLine>> = BTreeMap::new();
    for r in &rec.results {
        by_kernel.entry(r.id.as_str()).or_default().push(r);
    }
    let every = cfg.sample_every.max(1);
    let kernels: Vec<&KernelEntry> = rec
        .manifest
        .kernels
        .iter()
        .filter(|k| selected(cfg, k))
        .enumerate()
        .filter(|(i, _)| i % every == 0)
        .map(|(_, k)| k)
        .collect();
    let jobs = cfg.jobs.max(1);
    let mut per_kernel: Vec<Vec<KernelResult>> = vec![Vec::new(); kernels.len()];
    std::thread::scope(|s| {
        let chunks: Vec<(usize, &mut [Vec<KernelResult>])> = {
            let size = kernels.len().div_ceil(jobs).max(1);
            per_kernel
                .chunks_mut(size)
                .enumerate()
                .map(|(i, c)| (i * size, c))
                .collect()
        };
        for (start, chunk) in chunks {
            let kernels = &kernels;
            let by_kernel = &by_kernel;
            let variants = &variants;
            s.spawn(move || {
                for (j, slot) in chunk.iter_mut().enumerate() {
                    let k = kernels[start + j];
                    let lines = by_kernel.get(k.id.as_str()).map_or(&[][..], Vec::as_slice);
                    *slot = replay_kernel(rec, k, lines, variants, cfg);
                }
            });
        }
    });
    let results: Vec<KernelResult> = per_kernel.into_iter().flatten().collect();
    let mut summary: Vec<SummaryRow> = Vec::new();
    for v in &variants {
        let mut levels: Vec<String> = Vec::new();
        for r in results.iter().filter(|r| &r.variant == v) {
            if !levels.contains(&r.level) {
                levels.push(r.level.clone());
            }
        }
        for l in levels {
            let mut row = SummaryRow {
                variant: v.clone(),
                level: l.clone(),
                ..SummaryRow::default()
            };
            for r in results.iter().filter(|r| &r.variant == v && r.level == l) {
                row.pairs.add(&r.pairs);
                row.kernels += 1;
                row.kernels_identical += usize::from(r.identical());
                row.scenarios += r.scenarios;
                row.same_behaviour += r.same_behaviour;
                row.not_compared += r.errors.len();
            }
            summary.push(row);
        }
    }
    ReplayReport {
        dir: rec.dir.display().to_string(),
        summary,
        kernels: results,
    }
}

/// Replays one kernel: every variant of `lines` at each of its levels.
fn replay_kernel(
    rec: &Recording,
    k: &KernelEntry,
    lines: &[&ResultLine],
    variants: &[String],
    cfg: &ReplayConfig,
) -> Vec<KernelResult> {
    let path = rec.dir.join(&k.file);
    let subject = std::fs::read_to_string(&path)
        .map_err(|e| GpuError::Input(format!("{}: cannot read: {e}", path.display())))
        .and_then(|text| Subject::from_text(&k.file, &text, Some(&k.function)));
    let mut codes: BTreeMap<Level, Result<ModelCode, String>> = BTreeMap::new();
    let mut runs: BTreeMap<(Level, usize), Result<ModelRun, String>> = BTreeMap::new();
    let mut out = Vec::new();
    for v in variants {
        let mine: Vec<&&ResultLine> = lines.iter().filter(|r| &r.variant == v).collect();
        if mine.is_empty() {
            continue;
        }
        let levels = match &subject {
            Ok(s) => levels_of(rec, v, s.has_source()),
            Err(_) => vec![Level::Source],
        };
        for level in levels {
            let mut kr = KernelResult {
                id: k.id.clone(),
                file: k.file.clone(),
                function: k.function.clone(),
                variant: v.clone(),
                level: level.name(),
                pairs: PairCounts::default(),
                scenarios: 0,
                same_behaviour: 0,
                cut: 0,
                errors: Vec::new(),
                details: Vec::new(),
            };
            let subject = match &subject {
                Ok(s) => s,
                Err(e) => {
                    kr.errors.push(e.to_string());
                    out.push(kr);
                    continue;
                }
            };
            let code = codes
                .entry(level.clone())
                .or_insert_with(|| subject.code(&level, &cfg.tools).map_err(|e| e.to_string()));
            let code = match code {
                Ok(c) => c,
                Err(e) => {
                    kr.errors.push(e.clone());
                    out.push(kr);
                    continue;
                }
            };
            for r in &mine {
                let run = runs
                    .entry((level.clone(), r.scen))
                    .or_insert_with(|| code.run(&scenario_of(k, r.scen), cfg.fuel));
                let hw: Vec<Vec<HwEvent>> = r
                    .events
                    .iter()
                    .map(|t| t.iter().map(hw_event).collect())
                    .collect();
                match run {
                    Ok(run) => {
                        let c = compare(&k.labels, &hw, &r.logn, run);
                        kr.scenarios += 1;
                        kr.same_behaviour += usize::from(c.same_behaviour());
                        kr.cut += usize::from(!c.cut.is_empty());
                        kr.pairs.add(&c.pairs);
                        kr.details.push(ScenarioResult {
                            scen: r.scen,
                            comparison: Some(c),
                            error: None,
                            detail: cfg.keep_scenarios.then(|| (run.clone(), hw)),
                        });
                    }
                    Err(e) => {
                        let msg = format!("scenario {}: the model's run stopped: {e}", r.scen);
                        kr.errors.push(msg.clone());
                        kr.details.push(ScenarioResult {
                            scen: r.scen,
                            comparison: None,
                            error: Some(msg),
                            detail: None,
                        });
                    }
                }
            }
            if !cfg.keep_scenarios {
                for d in &mut kr.details {
                    if let Some(c) = &mut d.comparison {
                        c.split_columns.clear();
                        c.merged_columns.clear();
                        c.merged_numbers.clear();
                        c.split_numbers.clear();
                    }
                }
            }
            out.push(kr);
        }
    }
    out
}
