//! `convcheck gpu` and `convcheck fuzz --gpu`: the command-line glue of the
//! hardware oracle (crate `convcheck-gpu`, docs/src/hardware.md), in the
//! binary: it parses arguments into the library's configs, calls it,
//! renders and picks the exit code: 1 when the hardware merged what the model
//! separates, 0 otherwise, 3 without a GPU (unless `--replay`) or when
//! something could not be compared, 2 for bad input.

use crate::cli::{Format, FuzzArgs};
use crate::dispatch::Printed;
use convcheck::Error;

const EXIT_OK: i32 = 0;
const EXIT_VIOLATION: i32 = 1;
const EXIT_USAGE: i32 = 2;
const EXIT_INCONCLUSIVE: i32 = 3;
use convcheck_gpu::device::Device;
use convcheck_gpu::minimize::{minimize_differing, MinimizeConfig};
use convcheck_gpu::record::{Manifest, Recording};
use convcheck_gpu::replay::{replay, ReplayConfig, ReplayReport};
use convcheck_gpu::runner::{Runner, SimulatedDevice};
use convcheck_gpu::session::{generated, live, live_on, GpuConfig};
use convcheck_gpu::tools::Tools;
use convcheck_gpu::{render, GpuError};
use convcheck_ir::scenario::ThreadValues;
use std::path::PathBuf;

/// Arguments of `convcheck gpu`.
#[derive(clap::Args, Debug, Clone)]
pub struct GpuArgs {
    /// A kernel file or LLVM IR (`.ll`); with `--replay`, only this file's
    /// kernels are replayed (all when it is left out).
    pub file: Option<String>,
    /// The function to run.
    #[arg(long)]
    pub function: Option<String>,
    /// Run `opt -passes=PIPELINE` before `llc` (`O2` means `default<O2>`).
    #[arg(long, value_name = "PIPELINE")]
    pub opt: Option<String>,
    /// The `opt` binary (default: `opt-19`, else `opt`).
    #[arg(long, value_name = "PATH")]
    pub opt_bin: Option<String>,
    /// The `llc` binary (default: `llc-19`, else `llc`).
    #[arg(long, value_name = "PATH")]
    pub llc_bin: Option<String>,
    /// `llc`'s optimization level (default: 0, or 2 with `--opt`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=3))]
    pub llc_opt: Option<u32>,
    /// The ptxas level of the driver's PTX JIT.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=4))]
    pub ptxas_opt: u32,
    /// Scenarios to draw (one launch of one warp each).
    #[arg(long, default_value_t = 4)]
    pub scenarios: usize,
    /// The scenarios' seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One thread's oracle values (repeat, in `tid` order): one scenario
    /// with these instead of drawn ones; threads past them read 0.
    #[arg(long = "thread")]
    pub threads: Vec<String>,
    /// Write the logs, kernels, instrumented IR and PTX into DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "replay")]
    pub record: Option<String>,
    /// Compare recorded logs (convcheck's or the fixture's format) with the
    /// model instead of running a GPU.
    #[arg(long, value_name = "DIR")]
    pub replay: Option<String>,
    /// Trace tables of at most this many differing scenarios per kernel.
    #[arg(long, default_value_t = 2)]
    pub tables: usize,
    /// List every kernel of a replay (default: only with a FILE).
    #[arg(long)]
    pub kernels: bool,
    /// Instructions one model thread may execute.
    #[arg(long, default_value_t = convcheck_gpu::model::DEFAULT_FUEL)]
    pub fuel: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

fn error(e: &GpuError) -> Printed {
    let code = match e {
        GpuError::Input(_) | GpuError::Record(_) => EXIT_USAGE,
        _ => EXIT_INCONCLUSIVE,
    };
    Printed {
        stdout: String::new(),
        stderr: format!("error: {e}\n"),
        code,
    }
}

/// The exit code of a comparison: 1 with a merge, else 3 when something
/// was not compared, else 0.
fn code_of(rep: &ReplayReport) -> i32 {
    if rep.summary.iter().any(|r| r.pairs.merges > 0) {
        EXIT_VIOLATION
    } else if rep.summary.iter().any(|r| r.not_compared > 0) || rep.kernels.is_empty() {
        EXIT_INCONCLUSIVE
    } else {
        EXIT_OK
    }
}

/// Renders a comparison: with `detail`, every kernel with its tables.
fn render(
    rep: &ReplayReport,
    m: Option<&Manifest>,
    a: &GpuArgs,
    head: String,
) -> Result<Printed, Error> {
    let code = code_of(rep);
    let stdout = match a.format {
        Format::Json => match serde_json::to_string(rep) {
            Ok(s) => format!("{s}\n"),
            Err(e) => return Err(Error::internal(e.to_string())),
        },
        Format::Text => {
            let mut out = head;
            out.push_str(&render::replay_text(rep, a.kernels && a.file.is_none()));
            if a.file.is_some() {
                out.push('\n');
                for k in &rep.kernels {
                    let labels = m
                        .and_then(|m| m.kernels.iter().find(|e| e.id == k.id))
                        .map(|e| e.labels.clone())
                        .unwrap_or_default();
                    out.push_str(&render::kernel_text(k, &labels, a.tables));
                }
            }
            if rep.kernels.is_empty() {
                out.push_str("no kernel was compared\n");
            }
            out
        }
    };
    Ok(Printed {
        stdout,
        stderr: String::new(),
        code,
    })
}

/// `convcheck gpu`.
pub fn gpu(a: &GpuArgs) -> Result<Printed, Error> {
    let tools = Tools {
        opt_bin: a.opt_bin.clone(),
        llc_bin: a.llc_bin.clone(),
        ..Tools::default()
    };
    if let Some(dir) = &a.replay {
        let rec =
            Recording::read(std::path::Path::new(dir)).map_err(|e| Error::usage(e.to_string()))?;
        let only = match &a.file {
            None => Vec::new(),
            Some(f) => {
                let text = std::fs::read_to_string(f)
                    .map_err(|e| Error::usage(format!("{f}: cannot read: {e}")))?;
                let ids = rec.kernels_of(f, &text, a.function.as_deref());
                if ids.is_empty() {
                    return Err(Error::usage(format!(
                        "{f}: no kernel of {dir} has this file's name or text{}",
                        a.function
                            .as_deref()
                            .map_or(String::new(), |func| format!(" and the function {func}"))
                    )));
                }
                ids
            }
        };
        let cfg = ReplayConfig {
            fuel: a.fuel,
            tools,
            only,
            keep_scenarios: a.file.is_some(),
            jobs: jobs(),
            ..ReplayConfig::default()
        };
        let rep = replay(&rec, &cfg);
        return render(&rep, Some(&rec.manifest), a, String::new());
    }
    let Some(file) = &a.file else {
        return Err(Error::usage("gpu: give a kernel file, or --replay DIR"));
    };
    let text = std::fs::read_to_string(file)
        .map_err(|e| Error::usage(format!("{file}: cannot read: {e}")))?;
    let mut threads = Vec::new();
    for (t, s) in a.threads.iter().enumerate() {
        match ThreadValues::parse(s) {
            Ok(v) => threads.push(v),
            Err(e) => return Err(Error::usage(format!("--thread {t}: {e}"))),
        }
    }
    let cfg = GpuConfig {
        function: a.function.clone(),
        pipeline: a.opt.clone(),
        llc_opt: a.llc_opt,
        ptxas_opt: a.ptxas_opt,
        scenarios: a.scenarios,
        seed: a.seed,
        threads,
        tools,
        fuel: a.fuel,
        record: a.record.as_ref().map(PathBuf::from),
        ..GpuConfig::default()
    };
    match live(&[(file.clone(), text)], &cfg) {
        Ok(r) => {
            let head = format!(
                "{} on {}{}\n",
                r.variant,
                r.device,
                r.recorded
                    .as_deref()
                    .map_or(String::new(), |d| format!(", recorded in {d}"))
            );
            render(&r.replay, Some(&r.manifest), a, head)
        }
        Err(e) => Ok(error(&e)),
    }
}

/// `convcheck fuzz --gpu`: generated kernels on the GPU, or with
/// `--replay DIR` the summary of a recorded campaign.
pub fn fuzz_gpu(a: &FuzzArgs) -> Result<Printed, Error> {
    let args = GpuArgs {
        file: None,
        function: None,
        opt: a.opt.clone(),
        opt_bin: a.opt_bin.clone(),
        llc_bin: None,
        llc_opt: None,
        ptxas_opt: 3,
        scenarios: 4,
        seed: a.seed,
        threads: Vec::new(),
        record: a.out.clone(),
        replay: a.gpu_replay.clone(),
        tables: 0,
        kernels: false,
        fuel: convcheck_gpu::model::DEFAULT_FUEL,
        format: a.format,
    };
    if args.replay.is_some() {
        return gpu(&args);
    }
    let files = generated(a.seed, a.count.unwrap_or(20));
    let cfg = GpuConfig {
        pipeline: a.opt.clone(),
        seed: a.seed,
        tools: Tools {
            opt_bin: a.opt_bin.clone(),
            ..Tools::default()
        },
        record: a.out.as_ref().map(PathBuf::from),
        ..GpuConfig::default()
    };
    let mcfg = MinimizeConfig {
        max_runs: a.min_runs,
    };
    let device;
    let runner: &dyn Runner = if a.simulated_device {
        &SimulatedDevice
    } else {
        // Without a driver: exit 3, "no CUDA driver", before any work.
        match Device::open(cfg.device) {
            Ok(d) => {
                device = d;
                &device
            }
            Err(e) => return Ok(error(&e)),
        }
    };
    let r = match live_on(&files, &cfg, runner) {
        Ok(r) => r,
        Err(e) => return Ok(error(&e)),
    };
    let min = minimize_differing(&files, &r.replay, &cfg, runner, &mcfg);
    let mut printed = render(
        &r.replay,
        Some(&r.manifest),
        &args,
        format!("{} on {}\n", r.variant, r.device),
    )?;
    match a.format {
        Format::Text => printed.stdout.push_str(&render::minimized_table(&min)),
        Format::Json => {
            let both = serde_json::json!({ "replay": &r.replay, "minimization": &min });
            printed.stdout = format!("{both}\n");
        }
    }
    Ok(printed)
}
