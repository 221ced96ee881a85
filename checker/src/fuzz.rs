//! `convcheck fuzz`: random kernels through a pass, every violation
//! minimized and written out with its full report and the command that
//! re-checks it.
//!
//! Program `i` of a run is generated from the seed `mix(seed, i)` with the
//! fuzz generator configuration ([`fuzz_config`], changed by `--gen
//! KEY=VALUE` and `--gen-config FILE.toml`, see [`set_knob`]), lowered, and
//! checked against the pass with the CFG as reference (the pass is what is
//! under test, not the lowering), in a group of 2 threads, within
//! `--max-iters` (1, the generator's iteration bound) and `--max-paths`
//! (2,000 per thread; past it a program is inconclusive, counted and
//! named). A shard `I/N` takes the programs with `i % N == I`, so shards
//! never repeat work. A violation is minimized twice: the program
//! (statements removed, compounds unwrapped, conditions simplified while
//! the same property still breaks) and then the scenario (the engine
//! reports the shortest pair of paths). `--input FILE` checks the given
//! kernel files instead, as they are.
//!
//! `--pass-cmd 'CMD'` checks an external transform instead
//! ([`crate::pass_cmd`]): the program goes to the command in the exchange
//! format of `--exchange` (kernel text, the IR text form, LLVM IR) and
//! comes back in the same format. A command that fails, times out or
//! prints something unreadable is counted under `command_failures`, never
//! as a verdict, and a run with command failures never says `preserved`:
//! it is `inconclusive` (exit 3), or an `error` (exit 2) when every
//! command failed.
//!
//! `--opt PIPELINE` checks a real `opt` pipeline instead (module `opt`).
//!
//! Every kind of target runs in the one loop of [`campaign`]: the targets
//! differ in how they examine a program and write its case
//! ([`kernel_target`], [`opt`]), not in how programs are drawn, counted,
//! minimized, written and summed up.
//!
//! With `--out DIR`, every violation, inconclusive program and command
//! failure `i` is written as `KIND-i.c` (the kernel that was checked),
//! `KIND-i.txt` and `KIND-i.json` (its full report and the exact command
//! that re-checks it), and for `--pass-cmd` what the command was given and
//! printed (`KIND-i.in.EXT`, `KIND-i.out.EXT`).
//!
//! Determinism: the same arguments give the same output, byte for byte;
//! timings appear only under `stats` in JSON (and in the text summary's
//! last line). Seeds are written as decimal strings in JSON, so that
//! JavaScript reads them exactly.

use crate::config::Format;
use crate::pass_cmd::Exchange;
use crate::pipeline::Progress;
use crate::report::Invocation;
use crate::{Error, Output, Status};
use campaign::{Campaign, Found};
use cases::{write_cases, CaseJson};
pub use generator::{fuzz_config, generator_config, knob_values, set_knob, KNOBS};
use kernel_target::{KernelTarget, Transform};
use opt::{OptTarget, Tools};

mod args;
mod campaign;
mod cases;
pub mod dedup;
mod generator;
mod kernel_target;
mod opt;
mod to_c;

pub use args::FuzzArgs;
use convcheck_lang::syntax::ast::File;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

/// The seed of program `i`.
pub fn program_seed(seed: u64, i: u64) -> u64 {
    // SplitMix64's increment spreads consecutive programs apart.
    seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The group size of every fuzz check: the two-thread reduction decides
/// convergence and hazards for any group size (DESIGN.md 2.2) when the
/// kernel does not branch on `tid` or `N`, which generated kernels only do
/// as `tid < 1`.
const GROUP: u32 = 2;

fn statements(f: &File) -> usize {
    convcheck_generators::analysis::statement_count(f)
}

/// The `fuzz` command.
pub fn fuzz(a: &FuzzArgs, inv: &Invocation, progress: &dyn Progress) -> Result<Output, Error> {
    let is_opt = a.opt.is_some();
    let chosen = [a.pass.is_some(), a.pass_cmd.is_some(), is_opt]
        .iter()
        .filter(|&&x| x)
        .count();
    if chosen != 1 {
        return Err(Error::usage(
            "give exactly one of --pass P, --pass-cmd 'CMD' and --opt PIPELINE",
        ));
    }
    if a.pass_cmd.is_none() && a.exchange != Exchange::Kernel {
        return Err(Error::usage("--exchange applies to --pass-cmd only"));
    }
    if a.cmd_timeout == 0 {
        return Err(Error::usage(
            "--cmd-timeout 0: give the command at least one second",
        ));
    }
    if is_opt && a.tool_timeout == 0 {
        return Err(Error::usage(
            "--tool-timeout 0: give clang and opt at least one second",
        ));
    }
    let shard = shard_of(a)?;
    let inputs = inputs_of(a)?;
    if inputs.is_empty() && a.count.is_none() && a.time.is_none() {
        return Err(Error::usage("give --count N, --time SECS or --input FILE"));
    }
    // A run that examines no program must not look like a clean one.
    if a.count == Some(0) {
        return Err(Error::usage(
            "--count 0: give at least one program to check",
        ));
    }
    if a.time == Some(0) {
        return Err(Error::usage("--time 0: give at least one second"));
    }
    if a.max_iters == 0 || a.max_paths == 0 {
        return Err(Error::usage(
            "--max-iters and --max-paths must be at least 1",
        ));
    }
    let config = generator_config(a).map_err(Error::usage)?;
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).map_err(|e| Error::usage(format!("--out {dir}: {e}")))?;
    }
    let (campaign, summary) = if let Some(pipeline) = &a.opt {
        run_opt(a, pipeline, &config, &inputs, shard, progress)?
    } else {
        run_kernel(a, &config, &inputs, shard, progress)?
    };
    if let Some(dir) = &a.out {
        let exchange = a.pass_cmd.as_ref().map(|_| a.exchange);
        write_cases(dir, &campaign.found, exchange)
            .map_err(|e| Error::io(format!("--out {dir}: {e}")))?;
    }
    Ok(render(a, &config, &campaign, &summary, inv))
}

/// What the summary says of the target: its name, what its failures are
/// called, and what JSON and text add.
struct Summary {
    /// `simplifycfg`, ``command `CMD` ``, `opt -passes=P`.
    name: String,
    /// The name in the header line.
    heading: String,
    /// `command` or `tool`.
    failure: &'static str,
    /// Fields of the JSON object besides the common ones.
    fields: serde_json::Map<String, serde_json::Value>,
    /// Fields of `stats` besides the seconds and the rate.
    stats: BTreeMap<&'static str, f64>,
    /// The end of the time line.
    time_detail: String,
    /// What a violation's header says of where the kernel is.
    save: SaveHint,
    /// The table of distinct findings (`--opt`), printed after the verdict.
    distinct: Option<String>,
}

/// What a violation's header says of where its program is.
enum SaveHint {
    /// Kernel targets: save it for the replay lines below.
    Replay,
    /// `--opt`: its file with `--out`, else save it for the commands below.
    Commands,
}

/// The shard `I/N` of `--shard`.
fn shard_of(a: &FuzzArgs) -> Result<(u64, u64), Error> {
    match a.shard.as_deref() {
        None => Ok((0, 1)),
        Some(s) => match s
            .split_once('/')
            .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        {
            Some((i, n)) if n > 0 && i < n => Ok((i, n)),
            _ => Err(Error::usage(format!(
                "--shard {s}: expected I/N with 0 <= I < N"
            ))),
        },
    }
}

/// The `--input` files: path, text and syntax tree, each analysed first.
fn inputs_of(a: &FuzzArgs) -> Result<Vec<(String, String, File)>, Error> {
    let mut v = Vec::new();
    for path in &a.input {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::usage(format!("{path}: cannot read: {e}")))?;
        if let Err(d) = convcheck_lang::sema::Kernel::parse(path, &text) {
            return Err(Error::usage(d.to_string()));
        }
        let file =
            convcheck_lang::syntax::parse(path, &text).map_err(|d| Error::usage(d.to_string()))?;
        v.push((path.clone(), text, file));
    }
    Ok(v)
}

/// A run of a built-in pass or an external command.
fn run_kernel(
    a: &FuzzArgs,
    config: &convcheck_generators::Config,
    inputs: &[(String, String, File)],
    shard: (u64, u64),
    progress: &dyn Progress,
) -> Result<(Campaign, Summary), Error> {
    let transform = match (&a.pass, &a.pass_cmd) {
        (Some(p), _) => Transform::Pass(
            convcheck_transforms::lookup(p).map_err(|e| Error::pass(format!("--pass {p}: {e}")))?,
        ),
        (None, Some(c)) => Transform::Command {
            cmd: c.clone(),
            timeout: Duration::from_secs(a.cmd_timeout),
            exchange: a.exchange,
        },
        (None, None) => return Err(Error::usage("give --pass P or --pass-cmd 'CMD'")),
    };
    let name = match &transform {
        Transform::Pass(p) => p.name(),
        Transform::Command { cmd, .. } => format!("command `{cmd}`"),
    };
    let mut fields = serde_json::Map::new();
    fields.insert(
        "exchange".into(),
        match &transform {
            Transform::Command { exchange, .. } => exchange.name().into(),
            Transform::Pass(_) => serde_json::Value::Null,
        },
    );
    let mut target = KernelTarget::new(transform, a);
    let campaign = campaign::run(&mut target, a, config, inputs, shard, progress);
    fields.insert("stages".into(), serde_json::Value::Array(Vec::new()));
    fields.insert(
        "counterexample".into(),
        campaign
            .found
            .iter()
            .find(|f| f.kind == "violation")
            .map_or(serde_json::Value::Null, |f| {
                f.report_json["counterexample"].clone()
            }),
    );
    let summary = Summary {
        heading: name.clone(),
        name,
        failure: "command",
        fields,
        stats: BTreeMap::new(),
        time_detail: String::new(),
        save: SaveHint::Replay,
        distinct: None,
    };
    Ok((campaign, summary))
}

/// A run of a real `opt` pipeline through clang.
fn run_opt(
    a: &FuzzArgs,
    pipeline: &str,
    config: &convcheck_generators::Config,
    inputs: &[(String, String, File)],
    shard: (u64, u64),
    progress: &dyn Progress,
) -> Result<(Campaign, Summary), Error> {
    let tools = match (
        opt::binary(&a.clang_bin, "--clang-bin", &["clang-19", "clang"]),
        opt::binary(&a.opt_bin, "--opt-bin", &["opt-19", "opt"]),
    ) {
        (Ok(clang), Ok(opt)) => Tools {
            clang,
            opt,
            pipeline: pipeline.to_string(),
            opt_args: a.opt_args.clone(),
            timeout: Duration::from_secs(a.tool_timeout),
        },
        (Err(e), _) | (_, Err(e)) => return Err(Error::usage(e)),
    };
    let scratch = tempfile::tempdir().map_err(|e| Error::io(format!("temporary folder: {e}")))?;
    let dir = scratch.path();
    opt::validate_pipeline(&tools, dir).map_err(Error::usage)?;
    let case_dir = a.out.as_deref().map_or(dir, std::path::Path::new);
    let mut target = OptTarget {
        a,
        tools,
        dir,
        case_dir,
        times: Default::default(),
    };
    let campaign = campaign::run(&mut target, a, config, inputs, shard, progress);
    let times = target.times;
    let (clang, opt, check) = (
        times.clang.as_secs_f64(),
        times.opt.as_secs_f64(),
        times.check.as_secs_f64(),
    );
    let secs = campaign.secs;
    let other = (secs - clang - opt - check).max(0.0);
    let share = |x: f64| 100.0 * x / secs.max(1e-9);
    let mut fields = serde_json::Map::new();
    fields.insert("pipeline".into(), pipeline.into());
    let distinct = dedup::distinct(
        campaign
            .found
            .iter()
            .filter_map(|f| f.key.as_ref().map(|k| (f.index, k))),
    );
    fields.insert(
        "distinct_findings".into(),
        serde_json::to_value(&distinct).unwrap_or_default(),
    );
    let table = (campaign.counts.violations > 0)
        .then(|| dedup::table_text(&distinct, campaign.counts.violations as usize));
    let summary = Summary {
        name: format!("opt -passes={pipeline}"),
        heading: format!("opt -passes={}", crate::pass_cmd::shell_quote(pipeline)),
        failure: "tool",
        fields,
        stats: BTreeMap::from([
            ("clang_seconds", clang),
            ("opt_seconds", opt),
            ("checking_seconds", check),
            ("other_seconds", other),
        ]),
        time_detail: format!(
            "; clang {clang:.2} s ({:.0}%), opt {opt:.2} s ({:.0}%), checking {check:.2} s ({:.0}%), other {other:.2} s ({:.0}%)",
            share(clang),
            share(opt),
            share(check),
            share(other)
        ),
        save: SaveHint::Commands,
        distinct: table,
    };
    Ok((campaign, summary))
}

/// The run's JSON object.
#[derive(Serialize)]
struct RunJson<'a> {
    tool: crate::report::json::Tool,
    command_line: Option<&'a [String]>,
    verdict: &'static str,
    pass: &'a str,
    seed: String,
    shard: String,
    generator: BTreeMap<&'static str, String>,
    bounds: BoundsJson,
    programs: u64,
    preserved: u64,
    inconclusive: u64,
    first_inconclusive: Option<String>,
    violations: Vec<CaseJson<'a>>,
    inconclusive_programs: Vec<CaseJson<'a>>,
    failed_programs: Vec<CaseJson<'a>>,
    /// `command_failures` / `tool_failures` and the first of them, and
    /// what the target adds.
    #[serde(flatten)]
    fields: serde_json::Map<String, serde_json::Value>,
    stats: BTreeMap<&'static str, f64>,
}

#[derive(Serialize)]
struct BoundsJson {
    max_iters: u32,
    max_paths: usize,
    threads: u32,
}

/// The run's output: the cases, the counts, the verdict and the timings.
fn render(
    a: &FuzzArgs,
    config: &convcheck_generators::Config,
    c: &Campaign,
    s: &Summary,
    inv: &Invocation,
) -> Output {
    let n = c.counts;
    let verdict = n.verdict();
    let status = match verdict {
        "violated" => Status::Found,
        "inconclusive" => Status::Inconclusive,
        "error" => Status::Failed,
        _ => Status::Holds,
    };
    let first_of = |kind: &str| {
        c.found
            .iter()
            .find(|f| f.kind == kind)
            .map(|f| format!("program {}: {}", f.index, f.what))
    };
    let rate = n.programs as f64 / c.secs.max(1e-9);
    let (shard, shards) = c.shard;
    let text = match a.format {
        Format::Json => {
            let of = |kind: &str| {
                c.found
                    .iter()
                    .filter(|f| f.kind == kind)
                    .map(CaseJson::of)
                    .collect::<Vec<_>>()
            };
            let mut fields = s.fields.clone();
            fields.insert(format!("{}_failures", s.failure), n.failures.into());
            fields.insert(
                format!("first_{}_failure", s.failure),
                first_of("failure").into(),
            );
            let mut stats = s.stats.clone();
            stats.insert("seconds", c.secs);
            stats.insert("programs_per_second", rate);
            let v = RunJson {
                tool: crate::report::json::Tool::this(),
                command_line: inv.command_line.as_deref(),
                verdict,
                pass: &s.name,
                seed: a.seed.to_string(),
                shard: format!("{shard}/{shards}"),
                generator: knob_values(config).into_iter().collect(),
                bounds: BoundsJson {
                    max_iters: a.max_iters,
                    max_paths: a.max_paths,
                    threads: GROUP,
                },
                programs: n.programs,
                preserved: n.preserved,
                inconclusive: n.inconclusive,
                first_inconclusive: first_of("inconclusive"),
                violations: of("violation"),
                inconclusive_programs: of("inconclusive"),
                failed_programs: of("failure"),
                fields,
                stats,
            };
            format!(
                "{}\n",
                serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
            )
        }
        Format::Text | Format::Sarif => {
            let mut out = String::new();
            let _ = writeln!(
                out,
                "convcheck fuzz: {}, seed {}, shard {shard}/{shards}, max-iters {}",
                s.heading, a.seed, a.max_iters
            );
            for f in c.found.iter().filter(|f| f.kind == "violation") {
                violation_text(&mut out, f, s, a.out.is_some());
            }
            let _ = writeln!(
                out,
                "\nprograms: {}, preserved: {}, violations: {}, inconclusive: {}, {} failures: {}",
                n.programs, n.preserved, n.violations, n.inconclusive, s.failure, n.failures
            );
            if let Some(w) = first_of("inconclusive") {
                let _ = writeln!(out, "first inconclusive: {w}");
            }
            if let Some(w) = first_of("failure") {
                let _ = writeln!(out, "first {} failure: {w}", s.failure);
            }
            let _ = writeln!(out, "verdict: {verdict}");
            if let Some(t) = &s.distinct {
                out.push_str(t);
            }
            let _ = writeln!(
                out,
                "time: {:.2} s, {rate:.1} programs/s{}",
                c.secs, s.time_detail
            );
            out
        }
    };
    Output {
        text,
        status,
        remark: None,
    }
}

/// A violation in the text summary: where it is, the program, its report.
fn violation_text(out: &mut String, f: &Found, s: &Summary, written: bool) {
    let _ = match (f.seed, &s.save) {
        (Some(seed), SaveHint::Replay) => writeln!(
            out,
            "\nviolation in program {} (seed {seed}): {}; minimized from {} to {} statements \
             (save it as {} for the replay lines below, or run with --out DIR):\n",
            f.index, f.what, f.statements_before, f.statements_after, f.file
        ),
        (Some(seed), SaveHint::Commands) => writeln!(
            out,
            "\nviolation in program {} (seed {seed}): {}; minimized from {} to {} statements{}:\n",
            f.index,
            f.what,
            f.statements_before,
            f.statements_after,
            if written {
                format!(" ({})", f.file)
            } else {
                format!(
                    " (save it as {} for the commands below, or run with --out DIR)",
                    f.file
                )
            }
        ),
        (None, _) => writeln!(out, "\nviolation in {}: {}:\n", f.file, f.what),
    };
    out.push_str(&f.text);
    out.push('\n');
    out.push_str(&f.report_text);
}
