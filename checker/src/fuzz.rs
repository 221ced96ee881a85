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

use crate::check::{render_text, run_check_on, CheckReport, Reference, StageReport};
use crate::cli::{Format, FuzzArgs};
use crate::config::{CheckConfig, Verdict};
use crate::engine::{
    check_pass_against_cfg, compare_any_hierarchy, compare_stages, Allowance, Budget, Limits,
    Outcome as EngineOutcome, Property, Side,
};
use crate::pass_cmd::{run_command, shell_quote, Exchange};
use crate::{Outcome, EXIT_INCONCLUSIVE, EXIT_OK, EXIT_USAGE, EXIT_VIOLATION};
pub use generator::{fuzz_config, generator_config, knob_values, set_knob, KNOBS};

mod generator;
mod opt;
mod through_llvm;
mod to_c;
use convcheck_generators::{generate_seeded, shrink_kernel};
use convcheck_ir::cycles::{all_hierarchies, HIERARCHY_CAP};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Bounds;
use convcheck_ir::Module;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::File;
use convcheck_lang::syntax::print;
use convcheck_transforms::{lookup, Pass};
use serde_json::json;
use std::fmt::Write;
use std::io::{IsTerminal, Write as _};
use std::time::{Duration, Instant};

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

enum Transform {
    Pass(Box<dyn Pass>),
    Command {
        cmd: String,
        timeout: Duration,
        exchange: Exchange,
    },
}

/// What checking one program gave.
enum Result1 {
    Preserved,
    Violated(Property),
    Inconclusive(String),
    CommandFailed(String),
}

impl Result1 {
    fn of(report: &CheckReport) -> Result1 {
        match report.verdict() {
            Verdict::Violated => Result1::Violated(
                report
                    .stages
                    .iter()
                    .find_map(|s| match &s.outcome {
                        EngineOutcome::Violated(f) => Some(f.property),
                        _ => None,
                    })
                    .unwrap_or(Property::Convergence),
            ),
            Verdict::Inconclusive => Result1::Inconclusive(
                report
                    .stages
                    .iter()
                    .find_map(|s| match &s.outcome {
                        EngineOutcome::Inconclusive(w) => Some(w.clone()),
                        _ => None,
                    })
                    .unwrap_or_default(),
            ),
            Verdict::Preserved | Verdict::Proved => Result1::Preserved,
        }
    }
}

/// One program's check, with its report when it was asked for.
struct Examined {
    result: Result1,
    report: Option<CheckReport>,
    /// What the external command was given and printed.
    exchanged: Option<(String, String)>,
}

impl Examined {
    fn just(result: Result1) -> Examined {
        Examined {
            result,
            report: None,
            exchanged: None,
        }
    }
}

fn limits(a: &FuzzArgs) -> Limits {
    Limits {
        bounds: bounds(a),
        group: GROUP,
    }
}

fn bounds(a: &FuzzArgs) -> Bounds {
    Bounds {
        max_iters: a.max_iters,
        max_paths: a.max_paths,
        fuel: CheckConfig::default().fuel,
        ..Bounds::default()
    }
}

fn check_config(a: &FuzzArgs, reference: Reference, passes: Vec<String>) -> CheckConfig {
    CheckConfig {
        passes,
        reference,
        threads: GROUP,
        max_iters: a.max_iters,
        max_paths: a.max_paths,
        ..CheckConfig::default()
    }
}

/// Checks the kernel `text`, named `name` (the file it is or will be
/// written to). With `full`, the result comes from a full check report
/// (the one written out); without, a built-in pass takes the engine's
/// quicker path (used while counting and minimizing).
fn examine(t: &Transform, text: &str, name: &str, a: &FuzzArgs, full: bool) -> Examined {
    let kernel = match Kernel::parse(name, text) {
        Ok(k) => k,
        Err(d) => {
            return Examined::just(Result1::Inconclusive(format!(
                "the kernel does not analyse: {d}"
            )))
        }
    };
    let entry = match kernel.entry(None) {
        Ok(e) => e,
        Err(e) => {
            return Examined::just(Result1::Inconclusive(format!(
                "no single kernel entry: {e}"
            )))
        }
    };
    match t {
        Transform::Pass(pass) if !full => {
            let module = lower(&kernel, false);
            Examined::just(
                match check_pass_against_cfg(&module, entry, pass.as_ref(), limits(a)) {
                    EngineOutcome::Preserved { .. } => Result1::Preserved,
                    EngineOutcome::Violated(f) => Result1::Violated(f.property),
                    EngineOutcome::Inconclusive(w) => Result1::Inconclusive(w),
                },
            )
        }
        Transform::Pass(pass) => {
            match run_check_on(
                name,
                kernel,
                None,
                &check_config(a, Reference::Cfg, vec![pass.name()]),
            ) {
                Ok(r) => Examined {
                    result: Result1::of(&r),
                    report: Some(r),
                    exchanged: None,
                },
                Err(o) => Examined::just(Result1::Inconclusive(o.stderr.trim().to_string())),
            }
        }
        Transform::Command {
            cmd,
            timeout,
            exchange,
        } => {
            let function = kernel.functions[entry].name.clone();
            let lowered = lower(&kernel, false);
            let input = match exchange {
                Exchange::Kernel => text.to_string(),
                x => x.write_module(&lowered),
            };
            let out_name = format!(
                "{}.out.{}",
                name.trim_end_matches(".c"),
                exchange.extension()
            );
            let output = match run_command(cmd, &input, exchange.extension(), *timeout) {
                Ok(o) => o,
                Err(e) => return Examined::just(Result1::CommandFailed(e)),
            };
            let report = match exchange {
                Exchange::Kernel => match Kernel::parse(&out_name, &output) {
                    Err(d) => Err(Result1::CommandFailed(format!("unreadable output: {d}"))),
                    Ok(target) => {
                        match run_check_on(
                            name,
                            kernel,
                            Some(target),
                            &check_config(a, Reference::Source, Vec::new()),
                        ) {
                            Ok(mut r) => {
                                r.target_file = Some(out_name);
                                Ok(r)
                            }
                            Err(o) => Err(Result1::CommandFailed(format!(
                                "the output: {}",
                                o.stderr.trim()
                            ))),
                        }
                    }
                },
                x => match x.read_module(&out_name, &output, &function) {
                    Err(e) if e.starts_with("unsupported") => {
                        Err(Result1::Inconclusive(format!("the output {e}")))
                    }
                    Err(e) => Err(Result1::CommandFailed(format!("unreadable output: {e}"))),
                    Ok(target) => module_report(name, &function, lowered, entry, target, a),
                },
            };
            match report {
                Ok(r) => Examined {
                    result: Result1::of(&r),
                    report: Some(r),
                    exchanged: Some((input, output)),
                },
                Err(result) => Examined {
                    result,
                    report: None,
                    exchanged: Some((input, output)),
                },
            }
        }
    }
}

/// The check report of an IR-level exchange: the lowered `reference`
/// against the command's `target`, as `check --reference cfg` would
/// compare them.
fn module_report(
    file: &str,
    function: &str,
    reference: Module,
    entry: convcheck_ir::FuncId,
    target: Module,
    a: &FuzzArgs,
) -> Result<CheckReport, Result1> {
    let tentry = target.function(function).ok_or_else(|| {
        Result1::CommandFailed(format!("the output has no function `{function}`"))
    })?;
    let rp = CfgProgram::new(reference.clone());
    let tp = CfgProgram::new(target.clone());
    let (rs, ts) = (Side::cfg(&rp, entry), Side::cfg(&tp, tentry));
    let budget = Budget::default();
    let mut c = compare_stages(
        &rs,
        &[(ts, Allowance::Exact)],
        limits(a),
        &budget,
        &mut |_| {},
    );
    // As `check`: an irreducible reference is compared under any of its
    // cycle hierarchies.
    if all_hierarchies(&rp.module.functions[entry], 2).len() > 1 {
        c.outcomes = vec![compare_any_hierarchy(
            &rs,
            &ts,
            Allowance::Exact,
            limits(a),
            HIERARCHY_CAP,
        )];
    }
    Ok(CheckReport {
        file: file.to_string(),
        function: function.to_string(),
        reference: Reference::Cfg,
        bounds: bounds(a),
        threads: GROUP,
        stages: vec![StageReport {
            name: "pass-cmd".into(),
            outcome: c.outcomes.swap_remove(0),
            notes: Vec::new(),
            target_level: "after the command".into(),
        }],
        reference_module: reference,
        target_module: target,
        paths: c.coverage.paths,
        coverage: c.coverage,
        budget,
        target_file: None,
    })
}

/// A program worth writing out: a violation (minimized), an inconclusive
/// program or a command failure.
struct Found {
    kind: &'static str,
    index: u64,
    seed: Option<u64>,
    /// The property broken, or why the program is inconclusive or failed.
    what: String,
    original_statements: usize,
    statements: usize,
    /// The kernel file's text (header comment included).
    text: String,
    name: String,
    report_text: String,
    report_json: serde_json::Value,
    exchanged: Option<(String, String)>,
    recheck: String,
}

fn statements(f: &File) -> usize {
    convcheck_generators::analysis::statement_count(f)
}

/// The command that re-checks the kernel written as `file`.
fn recheck(t: &Transform, file: &str, a: &FuzzArgs) -> String {
    let bounds = format!("--max-iters {} --max-paths {}", a.max_iters, a.max_paths);
    match t {
        Transform::Pass(p) => format!(
            "convcheck check {} --pass {} --reference cfg --threads {GROUP} {bounds}",
            shell_quote(file),
            shell_quote(&p.name())
        ),
        Transform::Command {
            cmd,
            timeout,
            exchange,
        } => format!(
            "convcheck fuzz --pass-cmd {} --exchange {} --cmd-timeout {} {bounds} --input {}",
            shell_quote(cmd),
            exchange.name(),
            timeout.as_secs(),
            shell_quote(file)
        ),
    }
}

/// Replaces the temporary file's path in a command's message by `FILE`,
/// so that reports do not depend on the temporary folder's random name.
fn stable(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(k) = rest.find("/convcheck-pass-") {
        // The path starts after the last space or quote before it (which
        // may be a character of several bytes, as in `‘/tmp/...’`).
        let start = rest[..k]
            .char_indices()
            .rev()
            .find(|&(_, c)| c.is_whitespace() || "'\"`‘“".contains(c))
            .map_or(0, |(s, c)| s + c.len_utf8());
        // Not the path of a kernel file: nothing more to replace.
        let Some(e) = rest[k..].find("/kernel.") else {
            break;
        };
        let end = k + e + "/kernel.".len();
        out.push_str(&rest[..start]);
        out.push_str("FILE.");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The `fuzz` command.
pub fn fuzz(a: &FuzzArgs) -> Outcome {
    if let Some(pipeline) = &a.opt {
        return opt::fuzz_opt(a, pipeline);
    }
    let transform = match (&a.pass, &a.pass_cmd) {
        (Some(p), None) => match lookup(p) {
            Ok(x) => Transform::Pass(x),
            Err(e) => return Outcome::usage(format!("--pass {p}: {e}")),
        },
        (None, Some(c)) => Transform::Command {
            cmd: c.clone(),
            timeout: Duration::from_secs(a.cmd_timeout),
            exchange: a.exchange,
        },
        _ => {
            return Outcome::usage(
                "give exactly one of --pass P, --pass-cmd 'CMD' and --opt PIPELINE",
            )
        }
    };
    if a.pass.is_some() && a.exchange != Exchange::Kernel {
        return Outcome::usage("--exchange applies to --pass-cmd only");
    }
    if a.cmd_timeout == 0 {
        return Outcome::usage("--cmd-timeout 0: give the command at least one second");
    }
    let (shard, shards) = match a.shard.as_deref() {
        None => (0, 1),
        Some(s) => match s
            .split_once('/')
            .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        {
            Some((i, n)) if n > 0 && i < n => (i, n),
            _ => return Outcome::usage(format!("--shard {s}: expected I/N with 0 <= I < N")),
        },
    };
    let inputs: Vec<(String, String)> = {
        let mut v = Vec::new();
        for path in &a.input {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    if let Err(d) = Kernel::parse(path, &text) {
                        return Outcome::usage(d.to_string());
                    }
                    v.push((path.clone(), text));
                }
                Err(e) => return Outcome::usage(format!("{path}: cannot read: {e}")),
            }
        }
        v
    };
    if inputs.is_empty() && a.count.is_none() && a.time.is_none() {
        return Outcome::usage("give --count N, --time SECS or --input FILE");
    }
    // A run that examines no program must not look like a clean one.
    if a.count == Some(0) {
        return Outcome::usage("--count 0: give at least one program to check");
    }
    if a.time == Some(0) {
        return Outcome::usage("--time 0: give at least one second");
    }
    if a.max_iters == 0 || a.max_paths == 0 {
        return Outcome::usage("--max-iters and --max-paths must be at least 1");
    }
    let config = match generator_config(a) {
        Ok(c) => c,
        Err(e) => return Outcome::usage(e),
    };
    if let Some(dir) = &a.out {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return Outcome::usage(format!("--out {dir}: {e}"));
        }
    }
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal() && a.format == Format::Text;
    let (mut programs, mut preserved, mut violations, mut inconclusive, mut failures) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut found: Vec<Found> = Vec::new();
    let mut i = shard;
    let mut k = 0usize;
    loop {
        if !inputs.is_empty() && k >= inputs.len() {
            break;
        }
        if inputs.is_empty()
            && (a.count.is_some_and(|n| programs >= n)
                || a.time
                    .is_some_and(|t| start.elapsed().as_secs_f64() >= t as f64))
        {
            break;
        }
        let (file, seed, original_text, index) = if let Some((path, text)) = inputs.get(k) {
            k += 1;
            (None, None, (path.clone(), text.clone()), k as u64 - 1)
        } else {
            let seed = program_seed(a.seed, i);
            let file = generate_seeded(&config, seed);
            let text = print(&file);
            (Some(file), Some(seed), (String::new(), text), i)
        };
        // The name a case is written under, so that the report's replay and
        // re-check lines name the file; with --out an input file is copied
        // there too, next to what the command printed.
        let name_for = |kind: &str| -> String {
            match &a.out {
                Some(dir) => format!("{dir}/{kind}-{index}.c"),
                None if !original_text.0.is_empty() => original_text.0.clone(),
                None => format!("{kind}-{index}.c"),
            }
        };
        let first = examine(
            &transform,
            &original_text.1,
            &name_for("violation"),
            a,
            false,
        );
        let (kind, what) = match &first.result {
            Result1::Preserved => {
                preserved += 1;
                ("", String::new())
            }
            Result1::Violated(p) => {
                violations += 1;
                ("violation", p.name().to_string())
            }
            Result1::Inconclusive(w) => {
                inconclusive += 1;
                ("inconclusive", stable(w))
            }
            Result1::CommandFailed(w) => {
                failures += 1;
                ("failure", stable(w))
            }
        };
        if !kind.is_empty() {
            let name = name_for(kind);
            // Minimize a generated violation while the same property breaks.
            let small = match (&first.result, &file) {
                (Result1::Violated(property), Some(f)) => Some(shrink_kernel(f, |g| {
                    matches!(examine(&transform, &print(g), &name, a, false).result,
                             Result1::Violated(ref p) if p == property)
                })),
                _ => file.clone(),
            };
            let text = match (&small, seed) {
                (Some(s), Some(seed)) => format!(
                    "// convcheck fuzz: program {index} (seed {seed}): {kind}; {} statements{}.\n{}",
                    statements(s),
                    if kind == "violation" {
                        format!(", minimized from {}", file.as_ref().map_or(0, statements))
                    } else {
                        String::new()
                    },
                    print(s)
                ),
                _ => original_text.1.clone(),
            };
            // The report is made on the very text that is written out; a
            // command that failed is not run again (it may have taken its
            // whole timeout).
            let full = if kind == "failure" {
                first
            } else {
                examine(&transform, &text, &name, a, true)
            };
            let re = recheck(&transform, &name, a);
            let (mut report_text, report_json) = match &full.report {
                Some(r) => (render_text(r), crate::render::render_json(r)),
                None => {
                    let why = match &full.result {
                        Result1::CommandFailed(w) => format!("command failure: {}", stable(w)),
                        Result1::Inconclusive(w) => format!("inconclusive: {}", stable(w)),
                        _ => "no report".into(),
                    };
                    (
                        format!("{why}\n"),
                        json!({"verdict": "error", "reason": why}),
                    )
                }
            };
            let _ = writeln!(report_text, "re-check: {re}");
            found.push(Found {
                kind,
                index,
                seed,
                what,
                original_statements: file.as_ref().map_or(0, statements),
                statements: small.as_ref().map_or(0, statements),
                text,
                name,
                report_text,
                report_json,
                exchanged: full.exchanged,
                recheck: re,
            });
            if a.stop_at_first && kind == "violation" {
                programs += 1;
                break;
            }
        }
        programs += 1;
        i += shards;
        if tty && programs % 50 == 0 {
            let secs = start.elapsed().as_secs_f64();
            let _ = write!(
                std::io::stderr(),
                "\r{programs} programs, {:.0}/s, {violations} violations, {inconclusive} inconclusive, {failures} command failures ",
                programs as f64 / secs.max(1e-9),
            );
        }
    }
    if tty {
        let _ = writeln!(std::io::stderr());
    }
    let secs = start.elapsed().as_secs_f64();
    if let Some(dir) = &a.out {
        if let Err(e) = write_cases(dir, &found, a.exchange) {
            return Outcome::usage(format!("--out {dir}: {e}"));
        }
    }
    // Never `preserved` for a run whose commands failed: with every
    // command failing nothing was examined (an error); with some, not
    // everything was (inconclusive).
    let verdict = if violations > 0 {
        "violated"
    } else if failures > 0 && failures == programs {
        "error"
    } else if inconclusive > 0 || failures > 0 {
        "inconclusive"
    } else {
        "preserved"
    };
    let code = match verdict {
        "violated" => EXIT_VIOLATION,
        "inconclusive" => EXIT_INCONCLUSIVE,
        "error" => EXIT_USAGE,
        _ => EXIT_OK,
    };
    let what = match &transform {
        Transform::Pass(p) => p.name(),
        Transform::Command { cmd, .. } => format!("command `{cmd}`"),
    };
    let first_of = |kind: &str| {
        found
            .iter()
            .find(|f| f.kind == kind)
            .map(|f| format!("program {}: {}", f.index, f.what))
    };
    let stdout = match a.format {
        Format::Json => {
            let case = |f: &Found| {
                json!({
                    "program": f.index,
                    "seed": f.seed.map(|s| s.to_string()),
                    "file": f.name,
                    "what": f.what,
                    "statements_before": f.original_statements,
                    "statements_after": f.statements,
                    "kernel": f.text,
                    "report": f.report_json,
                    "recheck": f.recheck,
                })
            };
            let v = json!({
                "tool": {"name": "convcheck", "version": env!("CARGO_PKG_VERSION")},
                "command_line": crate::render::command_line(),
                "verdict": verdict,
                "pass": what,
                "exchange": matches!(transform, Transform::Command { .. }).then(|| a.exchange.name()),
                "seed": a.seed.to_string(),
                "shard": format!("{shard}/{shards}"),
                "generator": knob_values(&config).into_iter().map(|(k, v)| (k.to_string(), serde_json::Value::String(v))).collect::<serde_json::Map<_, _>>(),
                "bounds": {"max_iters": a.max_iters, "max_paths": a.max_paths, "threads": GROUP},
                "programs": programs,
                "preserved": preserved,
                "inconclusive": inconclusive,
                "first_inconclusive": first_of("inconclusive"),
                "command_failures": failures,
                "first_command_failure": first_of("failure"),
                "violations": found.iter().filter(|f| f.kind == "violation").map(case).collect::<Vec<_>>(),
                "inconclusive_programs": found.iter().filter(|f| f.kind == "inconclusive").map(case).collect::<Vec<_>>(),
                "failed_programs": found.iter().filter(|f| f.kind == "failure").map(case).collect::<Vec<_>>(),
                "stages": [],
                "counterexample": found.iter().find(|f| f.kind == "violation").map(|f| f.report_json["counterexample"].clone()),
                "stats": {"seconds": secs, "programs_per_second": programs as f64 / secs.max(1e-9)},
            });
            format!("{v}\n")
        }
        Format::Text => {
            let mut out = String::new();
            let _ = writeln!(
                out,
                "convcheck fuzz: {what}, seed {}, shard {shard}/{shards}, max-iters {}",
                a.seed, a.max_iters
            );
            for f in found.iter().filter(|f| f.kind == "violation") {
                let _ = match f.seed {
                    Some(seed) => writeln!(
                        out,
                        "\nviolation in program {} (seed {seed}): {}; minimized from {} to {} statements \
                         (save it as {} for the replay lines below, or run with --out DIR):\n",
                        f.index, f.what, f.original_statements, f.statements, f.name
                    ),
                    None => writeln!(out, "\nviolation in {}: {}:\n", f.name, f.what),
                };
                out.push_str(&f.text);
                out.push('\n');
                out.push_str(&f.report_text);
            }
            let _ = writeln!(
                out,
                "\nprograms: {programs}, preserved: {preserved}, violations: {violations}, inconclusive: {inconclusive}, command failures: {failures}",
            );
            if let Some(w) = first_of("inconclusive") {
                let _ = writeln!(out, "first inconclusive: {w}");
            }
            if let Some(w) = first_of("failure") {
                let _ = writeln!(out, "first command failure: {w}");
            }
            let _ = writeln!(out, "verdict: {verdict}");
            let _ = writeln!(
                out,
                "time: {secs:.2} s, {:.1} programs/s",
                programs as f64 / secs.max(1e-9)
            );
            out
        }
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code,
    }
}

/// Writes every case: the kernel, its report (text and JSON, each with the
/// re-check command) and what an external command was given and printed.
fn write_cases(dir: &str, found: &[Found], exchange: Exchange) -> std::io::Result<()> {
    for f in found {
        let base = format!("{dir}/{}-{}", f.kind, f.index);
        if f.name.starts_with(dir) {
            std::fs::write(format!("{base}.c"), &f.text)?;
        }
        std::fs::write(format!("{base}.txt"), &f.report_text)?;
        let mut json = f.report_json.clone();
        json["recheck"] = json!(f.recheck);
        std::fs::write(format!("{base}.json"), format!("{json}\n"))?;
        if let Some((input, output)) = &f.exchanged {
            let ext = exchange.extension();
            if exchange != Exchange::Kernel {
                std::fs::write(format!("{base}.in.{ext}"), input)?;
            }
            std::fs::write(format!("{base}.out.{ext}"), output)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::stable;

    #[test]
    fn temporary_paths_are_replaced_whatever_surrounds_them() {
        for (message, expected) in [
            (
                "cat: /tmp/convcheck-pass-Ab12/kernel.c: No such file",
                "cat: FILE.c: No such file",
            ),
            (
                "sleep: invalid time interval ‘/tmp/convcheck-pass-x/kernel.c’",
                "sleep: invalid time interval ‘FILE.c’",
            ),
            (
                "\u{3000}/tmp/convcheck-pass-y/kernel.ll and '/t/convcheck-pass-z/kernel.cvir'",
                "\u{3000}FILE.ll and 'FILE.cvir'",
            ),
            ("no path here", "no path here"),
            ("/convcheck-pass-", "/convcheck-pass-"),
        ] {
            assert_eq!(stable(message), expected, "{message}");
        }
    }
}
