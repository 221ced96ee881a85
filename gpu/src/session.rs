//! `convcheck gpu` and `convcheck fuzz --gpu` as library calls: prepare
//! kernels (instrument, `opt`, `llc`: no GPU needed), measure them on the
//! GPU (one launch of one warp per scenario), and turn the logs into a
//! [`Recording`] that [`crate::replay`] compares with the model, so a live
//! run and a replay share every line of the comparison.

use crate::device::{Device, Logs};
use crate::instrument::{instrument, Layout, Tables};
use crate::model::{logged_labels, Subject};
use crate::record::{
    KernelEntry, Manifest, Recording, ResultLine, ScenarioEntry, VariantInfo, FORMAT,
};
use crate::replay::{replay, ReplayConfig, ReplayReport};
use crate::runner::Runner;
use crate::scenarios::{flatten, generate, Streams};
use crate::tools::{self, Tools};
use crate::GpuError;
use convcheck_ir::scenario::ThreadValues;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How `convcheck gpu` runs.
#[derive(Clone, Debug)]
pub struct GpuConfig {
    /// The function to run (default: the file's entry).
    pub function: Option<String>,
    /// An `opt -passes=` pipeline the CFG goes through before `llc`.
    pub pipeline: Option<String>,
    /// `llc`'s optimization level (default: 0 without a pipeline, 2 with
    /// one, as the fixture compiled its -O0 and -O2 copies).
    pub llc_opt: Option<u32>,
    /// The PTX JIT's optimization level (ptxas `-O`), 0 to 4.
    pub ptxas_opt: u32,
    /// Scenarios drawn per kernel.
    pub scenarios: usize,
    /// Their seed.
    pub seed: u64,
    /// Explicit thread values (`--thread`, in `tid` order): one scenario
    /// with these instead of drawn ones; threads past the list read 0.
    pub threads: Vec<ThreadValues>,
    /// `opt` and `llc`.
    pub tools: Tools,
    /// Log and stream sizes.
    pub layout: Layout,
    /// Instructions one model thread may execute.
    pub fuel: u64,
    /// Seconds one launch may take.
    pub launch_timeout_secs: u64,
    /// Write the recording here.
    pub record: Option<PathBuf>,
    /// The GPU's ordinal.
    pub device: usize,
}

impl Default for GpuConfig {
    fn default() -> GpuConfig {
        GpuConfig {
            function: None,
            pipeline: None,
            llc_opt: None,
            ptxas_opt: 3,
            scenarios: 4,
            seed: 1,
            threads: Vec::new(),
            tools: Tools::default(),
            layout: Layout::default(),
            fuel: crate::model::DEFAULT_FUEL,
            launch_timeout_secs: 10,
            record: None,
            device: 0,
        }
    }
}

impl GpuConfig {
    /// The variant's name: pipeline, llc and ptxas levels.
    pub fn variant(&self) -> String {
        format!(
            "{}/llc-O{}/ptxas-O{}",
            self.pipeline
                .as_deref()
                .map_or("ll".to_string(), |p| format!(
                    "opt:{}",
                    tools::pass_pipeline(p)
                )),
            self.llc_level(),
            self.ptxas_opt
        )
    }

    fn llc_level(&self) -> u32 {
        self.llc_opt
            .unwrap_or(if self.pipeline.is_some() { 2 } else { 0 })
    }
}

/// A kernel ready for the GPU.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The function under test.
    pub subject: Subject,
    /// The file's text.
    pub text: String,
    /// Label and oracle tables.
    pub tables: Tables,
    /// The LLVM IR given to `llc` (instrumented).
    pub instrumented: String,
    /// `llc`'s PTX.
    pub ptx: String,
    /// Oracle streams the module holds.
    pub slots: usize,
    /// The scenarios.
    pub scenarios: Vec<Streams>,
}

/// Instruments and compiles `file` (its text given) for the GPU.
pub fn prepare(file: &str, text: &str, cfg: &GpuConfig) -> Result<Prepared, GpuError> {
    prepare_with(file, text, cfg, true)
}

/// [`prepare`], with `llc` run only when `compile` (a runner that takes no
/// PTX, [`crate::runner::SimulatedDevice`], leaves `ptx` empty).
pub fn prepare_with(
    file: &str,
    text: &str,
    cfg: &GpuConfig,
    compile: bool,
) -> Result<Prepared, GpuError> {
    let subject = Subject::from_text(file, text, cfg.function.as_deref())?;
    let cfg_module = subject.cfg();
    let mut tables = Tables {
        labels: logged_labels(&cfg_module),
        oracles: cfg_module.oracles.iter().map(|o| o.name.clone()).collect(),
    };
    let ll = subject.llvm_after(cfg.pipeline.as_deref(), &cfg.tools)?;
    let ins = instrument(&ll, file, &subject.function, &mut tables, cfg.layout)?;
    let ptx = if compile {
        tools::llc(&cfg.tools, &ins.text, cfg.llc_level())?
    } else {
        String::new()
    };
    let l = cfg.layout;
    let scenarios = if cfg.threads.is_empty() {
        let oracles: Vec<(String, Vec<i64>)> = cfg_module
            .oracles
            .iter()
            .map(|o| (o.name.clone(), o.domain.clone()))
            .collect();
        generate(&oracles, l.threads, l.stream_len, cfg.scenarios, cfg.seed)
    } else {
        let mut s: Streams = cfg.threads.iter().map(|t| t.0.clone()).collect();
        s.resize(l.threads as usize, BTreeMap::new());
        vec![s]
    };
    Ok(Prepared {
        subject,
        text: text.to_string(),
        tables,
        instrumented: ins.text,
        ptx,
        slots: ins.stream_slots,
        scenarios,
    })
}

/// Runs every scenario of `p` on `device`.
pub fn measure(p: &Prepared, cfg: &GpuConfig, device: &Device) -> Result<Vec<Logs>, GpuError> {
    let l = cfg.layout;
    let loaded = device.load(&p.ptx, cfg.ptxas_opt, l, p.slots)?;
    let mut slots = p.tables.oracles.clone();
    slots.resize(p.slots, String::new());
    p.scenarios
        .iter()
        .map(|s| {
            let flat = flatten(s, &slots, l.threads, l.stream_len);
            device.run(&loaded, &flat, Duration::from_secs(cfg.launch_timeout_secs))
        })
        .collect()
}

/// A kernel's id in a recording: the file's stem and the function.
pub fn kernel_id(file: &str, function: &str) -> String {
    let stem = Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(file);
    format!("{stem}.{function}")
}

/// The recording of measured kernels. Kernel files are named as given
/// (`relocate`: under `kernels/` of a record folder instead).
pub fn recording(
    dir: &Path,
    measured: &[(Prepared, Vec<Logs>)],
    cfg: &GpuConfig,
    device: &str,
    relocate: bool,
) -> (Recording, Vec<(String, String)>) {
    let variant = cfg.variant();
    let mut kernels = Vec::new();
    let mut results = Vec::new();
    let mut files = Vec::new();
    for (p, logs) in measured {
        let id = kernel_id(&p.subject.file, &p.subject.function);
        let base = Path::new(&p.subject.file)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("kernel")
            .to_string();
        let file = if relocate {
            let rel = format!("kernels/{base}");
            if !files.iter().any(|(f, _)| f == &rel) {
                files.push((rel.clone(), p.text.clone()));
            }
            rel
        } else {
            p.subject.file.clone()
        };
        let ptx_rel = format!("ptx/{id}.{}.ptx", variant.replace('/', "_"));
        // A runner that takes no PTX (the simulated device) leaves none.
        let has_ptx = !p.ptx.is_empty();
        if has_ptx {
            files.push((ptx_rel.clone(), p.ptx.clone()));
        }
        files.push((
            format!("ll/{id}.{}.ll", variant.replace('/', "_")),
            p.instrumented.clone(),
        ));
        let cfg_module = p.subject.cfg();
        kernels.push(KernelEntry {
            id: id.clone(),
            file,
            function: p.subject.function.clone(),
            labels: p.tables.labels.clone(),
            oracles: p.tables.oracles.clone(),
            domains: cfg_module
                .oracles
                .iter()
                .map(|o| (o.name.clone(), o.domain.clone()))
                .collect(),
            ptx: if has_ptx {
                BTreeMap::from([(variant.clone(), ptx_rel)])
            } else {
                BTreeMap::new()
            },
            scenarios: p
                .scenarios
                .iter()
                .map(|s| ScenarioEntry { threads: s.clone() })
                .collect(),
        });
        for (scen, l) in logs.iter().enumerate() {
            results.push(ResultLine {
                id: id.clone(),
                variant: variant.clone(),
                scen,
                logn: l.logn.clone(),
                events: l.events.clone(),
                s: Some(l.seconds),
            });
        }
    }
    let llc = cfg
        .tools
        .llc_bin
        .clone()
        .or_else(|| tools::find(None, &["llc-19", "llc"], "--llc-bin").ok())
        .map(|b| tools::version_line(&b));
    let manifest = Manifest {
        w: cfg.layout.threads,
        no_max: None,
        k: cfg.layout.stream_len,
        e: cfg.layout.log_entries,
        format: Some(FORMAT.to_string()),
        variants: BTreeMap::from([(
            variant,
            VariantInfo {
                pipeline: cfg.pipeline.as_deref().map(tools::pass_pipeline),
                llc,
                ptxas_opt: Some(cfg.ptxas_opt),
                device: Some(device.to_string()),
            },
        )]),
        kernels,
    };
    (
        Recording {
            dir: dir.to_path_buf(),
            manifest,
            results,
        },
        files,
    )
}

/// A live run's report: the device and the comparison.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LiveReport {
    /// The GPU and driver.
    pub device: String,
    /// The variant that ran.
    pub variant: String,
    /// Where the recording was written.
    pub recorded: Option<String>,
    /// The comparison with the model.
    pub replay: ReplayReport,
    /// The recording's manifest (kernels, labels, scenarios).
    #[serde(skip)]
    pub manifest: Manifest,
}

/// `convcheck gpu FILE` (and `fuzz --gpu`): prepares every file, opens the
/// GPU, measures, records when asked, and compares.
pub fn live(files: &[(String, String)], cfg: &GpuConfig) -> Result<LiveReport, GpuError> {
    // The driver first: without one there is nothing to measure.
    if !crate::device::driver_present() {
        return Err(GpuError::NoDevice(
            "the CUDA driver library (libcuda.so) is not installed on this machine".into(),
        ));
    }
    let prepared: Vec<Prepared> = files
        .iter()
        .map(|(f, t)| prepare(f, t, cfg))
        .collect::<Result<_, _>>()?;
    let device = Device::open(cfg.device)?;
    measure_and_compare(prepared, cfg, &device)
}

/// [`live`] on any [`Runner`] (the simulated device in tests).
pub fn live_on(
    files: &[(String, String)],
    cfg: &GpuConfig,
    runner: &dyn Runner,
) -> Result<LiveReport, GpuError> {
    let prepared: Vec<Prepared> = files
        .iter()
        .map(|(f, t)| prepare_with(f, t, cfg, runner.needs_ptx()))
        .collect::<Result<_, _>>()?;
    measure_and_compare(prepared, cfg, runner)
}

/// Runs every prepared kernel on `runner`, records (into `cfg.record`, or
/// a temporary folder) and compares with the model.
pub fn measure_and_compare(
    prepared: Vec<Prepared>,
    cfg: &GpuConfig,
    runner: &dyn Runner,
) -> Result<LiveReport, GpuError> {
    let mut measured = Vec::new();
    for p in prepared {
        let logs = runner.run(&p, cfg)?;
        measured.push((p, logs));
    }
    // The recording goes to --record's folder, or to a temporary one that
    // lives as long as the comparison needs the kernel files.
    let temp = match &cfg.record {
        Some(_) => None,
        None => Some(
            tempfile::tempdir()
                .map_err(|e| GpuError::Record(format!("a temporary folder: {e}")))?,
        ),
    };
    let dir: PathBuf = match (&cfg.record, &temp) {
        (Some(d), _) => d.clone(),
        (None, Some(t)) => t.path().to_path_buf(),
        (None, None) => PathBuf::from("."),
    };
    let name = runner.name();
    let (rec, extra) = recording(&dir, &measured, cfg, &name, true);
    Recording::write(&dir, &rec.manifest, &rec.results, &extra)?;
    let recorded = cfg.record.as_ref().map(|d| d.display().to_string());
    let rcfg = ReplayConfig {
        fuel: cfg.fuel,
        tools: cfg.tools.clone(),
        keep_scenarios: true,
        ..ReplayConfig::default()
    };
    let replay = replay(&rec, &rcfg);
    drop(temp);
    Ok(LiveReport {
        device: name,
        variant: cfg.variant(),
        recorded,
        replay,
        manifest: rec.manifest,
    })
}

/// The generator settings of `fuzz --gpu`: `convcheck fuzz`'s shape
/// (loops weighted up, small bodies) without what the hardware oracle does
/// not cover or the fixture left out: barriers, memory, `uniform`,
/// `invariant`, external convergent calls and `noconvergent` statements.
pub fn fuzz_config() -> convcheck_generators::Config {
    convcheck_generators::Config {
        loop_weight: 12,
        if_weight: 3,
        jump_weight: 2,
        max_statements: 10,
        max_block_len: 3,
        max_paths: 1024,
        iteration_bound: 1,
        barriers: false,
        data_barriers: false,
        memory: false,
        uniform: false,
        invariant: false,
        convergent_calls: false,
        noconvergent: false,
        ..convcheck_generators::Config::default()
    }
}

/// Program `i` of seed `seed` (`convcheck fuzz`'s numbering: SplitMix64's
/// increment spreads consecutive programs apart).
pub fn program_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// `count` generated kernels of `seed`, as `(file name, text)`.
pub fn generated(seed: u64, count: u64) -> Vec<(String, String)> {
    let config = fuzz_config();
    (0..count)
        .map(|i| {
            let s = program_seed(seed, i);
            let file = convcheck_generators::generate_seeded(&config, s);
            let text = format!(
                "// convcheck fuzz --gpu: program {i} (seed {seed})\n{}",
                convcheck_lang::syntax::print(&file)
            );
            (format!("gen-{i:04}.c"), text)
        })
        .collect()
}
