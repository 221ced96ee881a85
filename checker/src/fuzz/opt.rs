//! `convcheck fuzz --opt PIPELINE`: generated kernels through clang and a
//! real `opt` pipeline, and back.
//!
//! Program `i` is generated as for `--pass` ([`super::program_seed`], the
//! generator configuration of [`super::generator_config`], which leaves
//! out `[[clang::noconvergent]]` for `--opt`), written as plain C
//! ([`super::to_c`]), compiled by clang at `-O0` (the front end of `check
//! --frontend clang`), run through `opt -passes=PIPELINE`, read back and
//! checked ([`super::through_llvm`]): clang's output is the reference and
//! each pass that changed a function a stage, so the pipeline is what is
//! under test, as the pass is for `--pass` (the front end is not). A
//! violation names the first pass that broke the property with its
//! `-opt-bisect-limit` number, and is minimized while clang and opt still
//! give the same property broken by the same pass (`SimplifyCFGPass`).
//!
//! clang or opt failing (a crash, a rejected program, a time-out) or
//! printing what convcheck cannot read is a *tool failure*: counted, never
//! a verdict; a run with some is `inconclusive` (exit 3), one where every
//! program failed an `error` (exit 2). A function outside the model makes
//! its program inconclusive, with the construct named.
//!
//! With `--out DIR` every violation, inconclusive program and tool failure
//! `i` is written as `KIND-i.c` (the C program, minimized for a
//! violation), `KIND-i.ll` (clang's `-O0` output for it), `KIND-i.opt.ll`
//! (opt's output), and `KIND-i.txt` / `.json`: the report of `convcheck
//! check KIND-i.c --frontend clang --opt PIPELINE --reference cfg ...`
//! (which is run to make it, so the written command is known to reproduce
//! it) with the clang, opt and re-check command lines.
//!
//! Timings: wall time is split between clang, opt, convcheck's checking
//! (reading the modules, comparing) and the rest (generating, translating,
//! writing the cases, whose reports come from running the re-check
//! command); they appear only in the text summary's last line and under
//! `stats` in JSON, so the rest of the output is the same for the same
//! arguments.

use super::through_llvm::{examine, run_for_case, scrub, Times, Tools, Verdict1};
use super::to_c::to_c;
use super::FuzzArgs;
use super::{generator_config, knob_values, program_seed, statements, GROUP};
use crate::config::Reference;
use crate::config::{CheckJob, Format};
use crate::engine::Limits;
use crate::llvm::{frontend, tools, LlvmOptions};
use crate::pass_cmd::{shell_quote, Exchange};
use crate::pipeline::Settings;
use crate::{Error, Output, Status};
use convcheck_generators::{generate_seeded, shrink_kernel};
use convcheck_ir::exec::Bounds;
use convcheck_lang::syntax::ast::File;
use convcheck_lang::syntax::{parse, print};
use serde_json::json;
use std::fmt::Write;

use std::path::Path;
use std::time::{Duration, Instant};

/// A case written out.
struct Found {
    kind: &'static str,
    index: u64,
    seed: Option<u64>,
    /// The property and pass, or why the program is inconclusive or failed.
    what: String,
    statements_before: usize,
    statements_after: usize,
    /// The C file's text.
    text: String,
    file: String,
    report_text: String,
    report_json: serde_json::Value,
    clang_command: String,
    opt_command: String,
    recheck: String,
}

fn limits(a: &FuzzArgs) -> Limits {
    Limits {
        bounds: Bounds {
            max_iters: a.max_iters,
            max_paths: a.max_paths,
            fuel: crate::config::CheckConfig::default().fuel,
            ..Bounds::default()
        },
        group: GROUP,
    }
}

/// The binary given with `flag`, or the first of `candidates` that runs.
fn binary(given: &Option<String>, flag: &str, candidates: &[&str]) -> Result<String, String> {
    match given {
        Some(b) if tools::available(b) => Ok(b.clone()),
        Some(b) => Err(format!(
            "{flag} {b}: cannot run `{b} --version`; name an LLVM 19 binary or leave {flag} out"
        )),
        None => tools::find(candidates, "for fuzz --opt"),
    }
}

/// Runs the pipeline once on an empty module, so that a pipeline opt
/// does not know is a usage error before any program.
fn validate_pipeline(t: &Tools, dir: &Path) -> Result<(), String> {
    let input = dir.join("empty.ll");
    let output = dir.join("empty.opt.ll");
    std::fs::write(&input, "").map_err(|e| format!("{}: {e}", input.display()))?;
    let args = vec![
        format!("-passes={}", t.pipeline),
        "-S".into(),
        input.display().to_string(),
        "-o".into(),
        output.display().to_string(),
    ];
    tools::run(&t.opt, &args, &output, t.timeout)
        .map(|_| ())
        .map_err(|e| format!("--opt {}: {}", t.pipeline, scrub(&e, dir).trim_end()))
}

/// The `fuzz --opt` command.
pub(super) fn fuzz_opt(
    a: &FuzzArgs,
    pipeline: &str,
    inv: &crate::report::Invocation,
    progress: &dyn crate::pipeline::Progress,
) -> Result<Output, Error> {
    if a.pass.is_some() || a.pass_cmd.is_some() {
        return Err(Error::usage(
            "give one of --pass P, --pass-cmd 'CMD' and --opt PIPELINE",
        ));
    }
    if a.exchange != Exchange::Kernel {
        return Err(Error::usage("--exchange applies to --pass-cmd only"));
    }
    if a.tool_timeout == 0 {
        return Err(Error::usage(
            "--tool-timeout 0: give clang and opt at least one second",
        ));
    }
    let (shard, shards) = match a.shard.as_deref() {
        None => (0, 1),
        Some(s) => match s
            .split_once('/')
            .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        {
            Some((i, n)) if n > 0 && i < n => (i, n),
            _ => {
                return Err(Error::usage(format!(
                    "--shard {s}: expected I/N with 0 <= I < N"
                )))
            }
        },
    };
    let mut inputs: Vec<(String, File)> = Vec::new();
    for path in &a.input {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return Err(Error::usage(format!("{path}: cannot read: {e}"))),
        };
        if let Err(d) = convcheck_lang::sema::Kernel::parse(path, &text) {
            return Err(Error::usage(d.to_string()));
        }
        match parse(path, &text) {
            Ok(f) => inputs.push((path.clone(), f)),
            Err(d) => return Err(Error::usage(d.to_string())),
        }
    }
    if inputs.is_empty() && a.count.is_none() && a.time.is_none() {
        return Err(Error::usage("give --count N, --time SECS or --input FILE"));
    }
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
    let config = match generator_config(a) {
        Ok(c) => c,
        Err(e) => return Err(Error::usage(e)),
    };
    let tools = match (
        binary(&a.clang_bin, "--clang-bin", &["clang-19", "clang"]),
        binary(&a.opt_bin, "--opt-bin", &["opt-19", "opt"]),
    ) {
        (Ok(clang), Ok(opt)) => Tools {
            clang,
            opt,
            pipeline: pipeline.to_string(),
            timeout: Duration::from_secs(a.tool_timeout),
        },
        (Err(e), _) | (_, Err(e)) => return Err(Error::usage(e)),
    };
    let scratch = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => return Err(Error::usage(format!("temporary folder: {e}"))),
    };
    let dir = scratch.path();
    if let Err(e) = validate_pipeline(&tools, dir) {
        return Err(Error::usage(e));
    }
    let out_dir = a.out.as_deref();
    if let Some(d) = out_dir {
        if let Err(e) = std::fs::create_dir_all(d) {
            return Err(Error::usage(format!("--out {d}: {e}")));
        }
    }
    let start = Instant::now();
    let mut times = Times::default();
    let (mut programs, mut preserved, mut violations, mut inconclusive, mut failures) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut found: Vec<Found> = Vec::new();
    let (mut i, mut k) = (shard, 0usize);
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
        let (file, seed, index) = match inputs.get(k) {
            Some((_, f)) => {
                k += 1;
                (f.clone(), None, k as u64 - 1)
            }
            None => {
                let seed = program_seed(a.seed, i);
                (generate_seeded(&config, seed), Some(seed), i)
            }
        };
        let first = examine(&tools, &to_c(&file), dir, limits(a), &mut times);
        let kind = match &first {
            Verdict1::Preserved => {
                preserved += 1;
                ""
            }
            Verdict1::Violated { .. } => {
                violations += 1;
                "violation"
            }
            Verdict1::Inconclusive(_) => {
                inconclusive += 1;
                "inconclusive"
            }
            Verdict1::Failed(_) => {
                failures += 1;
                "failure"
            }
        };
        if !kind.is_empty() {
            // Minimize a generated violation while clang and opt still give
            // the same property broken by the same pass.
            let small = match (&first, seed) {
                (Verdict1::Violated { property, .. }, Some(_)) => {
                    let class = first.pass_class().map(str::to_string);
                    shrink_kernel(&file, |g| {
                        match examine(&tools, &to_c(g), dir, limits(a), &mut times) {
                            v @ Verdict1::Violated { property: p, .. } => {
                                p == *property && v.pass_class().map(str::to_string) == class
                            }
                            _ => false,
                        }
                    })
                }
                _ => file.clone(),
            };
            let what = match &first {
                Verdict1::Violated {
                    property,
                    stage,
                    function,
                } => format!(
                    "{} in @{function}, first broken by {stage}",
                    property.name()
                ),
                // One line, for the C file's header comment and the summary.
                Verdict1::Inconclusive(w) | Verdict1::Failed(w) => {
                    w.lines().map(str::trim).collect::<Vec<_>>().join(" / ")
                }
                Verdict1::Preserved => String::new(),
            };
            let header = match seed {
                Some(s) => format!(
                    "// convcheck fuzz --opt {}: program {index} (seed {s}): {kind}: {what}; {} statements{}.\n",
                    shell_quote(pipeline),
                    statements(&small),
                    if kind == "violation" {
                        format!(", minimized from {}", statements(&file))
                    } else {
                        String::new()
                    }
                ),
                None => format!(
                    "// convcheck fuzz --opt {}: {}: {kind}: {what}.\n",
                    shell_quote(pipeline),
                    inputs[k - 1].0
                ),
            };
            let mut text = header;
            text.push_str(
                "// Plain C written from the kernel-language program below \
                 (docs/src/fuzzing.md, `fuzz --opt`):\n",
            );
            for l in print(&small).lines() {
                let _ = writeln!(text, "//   {l}");
            }
            text.push_str(&to_c(&small));
            let case_dir = out_dir.map_or(dir, Path::new);
            let f = write_case(
                a,
                &tools,
                case_dir,
                dir,
                (kind, index, seed),
                text,
                what,
                (statements(&file), statements(&small)),
            );
            found.push(f);
            if a.stop_at_first && kind == "violation" {
                programs += 1;
                break;
            }
        }
        programs += 1;
        i += shards;
        if programs % 10 == 0 {
            let secs = start.elapsed().as_secs_f64();
            progress.report(&format!(
                "{programs} programs, {:.1}/s, {violations} violations, {inconclusive} inconclusive, {failures} tool failures",
                programs as f64 / secs.max(1e-9),
            ));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    Ok(summary(
        a,
        pipeline,
        (shard, shards),
        &config,
        [programs, preserved, violations, inconclusive, failures],
        &found,
        (secs, times),
        inv,
    ))
}

/// Writes case `index` (its C text) as `KIND-index.c` in `case_dir`, with
/// clang's output, opt's output and the reports of the re-check command.
#[allow(clippy::too_many_arguments)]
fn write_case(
    a: &FuzzArgs,
    t: &Tools,
    case_dir: &Path,
    scratch: &Path,
    (kind, index, seed): (&'static str, u64, Option<u64>),
    text: String,
    what: String,
    (before, after): (usize, usize),
) -> Found {
    let base = format!("{}/{kind}-{index}", case_dir.display());
    let c_path = format!("{base}.c");
    let ll_path = format!("{base}.ll");
    let opt_path = format!("{base}.opt.ll");
    let shown = |s: &str| scrub(s, scratch);
    let words = |bin: &str, args: &[String]| {
        std::iter::once(bin.to_string())
            .chain(args.iter().cloned())
            .map(|w| tools::shell_word(&w))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut clang_args = frontend::clang_args(&c_path, None);
    clang_args.extend(["-o".to_string(), ll_path.clone()]);
    let opt_args = vec![
        format!("-passes={}", t.pipeline),
        "-S".into(),
        ll_path.clone(),
        "-o".into(),
        opt_path.clone(),
    ];
    let clang_command = shown(&words(&t.clang, &clang_args));
    let opt_command = shown(&words(&t.opt, &opt_args));
    let mut recheck = format!(
        "convcheck check {} --frontend clang --opt {} --reference cfg --threads {GROUP} --max-iters {} --max-paths {}",
        shell_quote(&shown(&c_path)),
        shell_quote(&t.pipeline),
        a.max_iters,
        a.max_paths
    );
    if let Some(b) = &a.opt_bin {
        let _ = write!(recheck, " --opt-bin {}", shell_quote(b));
    }
    if let Some(b) = &a.clang_bin {
        let _ = write!(recheck, " --clang-bin {}", shell_quote(b));
    }
    if a.tool_timeout != 60 {
        let _ = write!(recheck, " --tool-timeout {}", a.tool_timeout);
    }
    let mut notes = Vec::new();
    if let Err(e) = std::fs::write(&c_path, &text) {
        notes.push(format!("cannot write {c_path}: {e}"));
    }
    // The written files: clang's output and opt's, by the commands shown.
    if a.out.is_some() {
        let ran = run_for_case(&t.clang, &clang_args, Path::new(&ll_path), t.timeout)
            .and_then(|_| run_for_case(&t.opt, &opt_args, Path::new(&opt_path), t.timeout));
        if let Err(e) = ran {
            notes.push(format!("writing the LLVM IR: {}", shown(&e)));
        }
    }
    // The report is that of the re-check command itself.
    let job = CheckJob {
        src: c_path.clone(),
        reference: Reference::Cfg,
        threads: GROUP,
        max_iters: a.max_iters,
        max_paths: a.max_paths,
        ..CheckJob::default()
    };
    let settings = Settings {
        llvm: LlvmOptions {
            opt: Some(t.pipeline.clone()),
            opt_bin: a.opt_bin.clone(),
            frontend: Some(frontend::Frontend::Clang),
            clang_bin: a.clang_bin.clone(),
            tool_timeout: a.tool_timeout,
            ..LlvmOptions::default()
        },
        ..Settings::default()
    };
    let checked = crate::pipeline::check(&job, &settings, &crate::pipeline::Silent);
    let (verdict, mut report_text, mut report_json) = match &checked {
        Ok(r) => (
            r.verdict().as_str(),
            shown(&crate::report::text::render(r)),
            serde_json::from_str::<serde_json::Value>(&shown(&crate::report::json::render(
                r,
                &crate::report::Invocation::default(),
            )))
            .unwrap_or_default(),
        ),
        Err(e) => (
            "error",
            format!("error: {}\n", shown(&e.to_string())),
            json!({"verdict": "error", "reason": shown(&e.to_string())}),
        ),
    };
    let expected = match kind {
        "violation" => "violated",
        "inconclusive" => "inconclusive",
        _ => "error",
    };
    if verdict != expected {
        notes.push(format!(
            "the re-check command answers {verdict} where the fuzz run's check gave {kind}"
        ));
    }
    for n in &notes {
        let _ = writeln!(report_text, "note: {n}");
    }
    let _ = writeln!(report_text, "clang: {clang_command}");
    let _ = writeln!(report_text, "opt: {opt_command}");
    let _ = writeln!(report_text, "re-check: {recheck}");
    report_json["clang_command"] = json!(clang_command);
    report_json["opt_command"] = json!(opt_command);
    report_json["recheck"] = json!(recheck);
    report_json["notes"] = json!(notes);
    if a.out.is_some() {
        let _ = std::fs::write(format!("{base}.txt"), &report_text);
        let _ = std::fs::write(format!("{base}.json"), format!("{report_json}\n"));
    }
    Found {
        kind,
        index,
        seed,
        what,
        statements_before: before,
        statements_after: after,
        text,
        file: shown(&c_path),
        report_text,
        report_json,
        clang_command,
        opt_command,
        recheck,
    }
}

/// The run's output: the cases, the counts, the verdict and the timings.
fn summary(
    a: &FuzzArgs,
    pipeline: &str,
    (shard, shards): (u64, u64),
    config: &convcheck_generators::Config,
    [programs, preserved, violations, inconclusive, failures]: [u64; 5],
    found: &[Found],
    (secs, times): (f64, Times),
    inv: &crate::report::Invocation,
) -> Output {
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
        "violated" => Status::Found,
        "inconclusive" => Status::Inconclusive,
        "error" => Status::Failed,
        _ => Status::Holds,
    };
    let first_of = |kind: &str| {
        found
            .iter()
            .find(|f| f.kind == kind)
            .map(|f| format!("program {}: {}", f.index, f.what))
    };
    let (clang, opt, check) = (
        times.clang.as_secs_f64(),
        times.opt.as_secs_f64(),
        times.check.as_secs_f64(),
    );
    let other = (secs - clang - opt - check).max(0.0);
    let share = |x: f64| 100.0 * x / secs.max(1e-9);
    let rate = programs as f64 / secs.max(1e-9);
    let stdout = match a.format {
        Format::Json => {
            let case = |f: &Found| {
                json!({
                    "program": f.index,
                    "seed": f.seed.map(|s| s.to_string()),
                    "file": f.file,
                    "what": f.what,
                    "statements_before": f.statements_before,
                    "statements_after": f.statements_after,
                    "kernel": f.text,
                    "report": f.report_json,
                    "clang_command": f.clang_command,
                    "opt_command": f.opt_command,
                    "recheck": f.recheck,
                })
            };
            let of = |kind: &str| {
                found
                    .iter()
                    .filter(|f| f.kind == kind)
                    .map(case)
                    .collect::<Vec<_>>()
            };
            let v = json!({
                "tool": {"name": "convcheck", "version": env!("CARGO_PKG_VERSION")},
                "command_line": inv.command_line,
                "verdict": verdict,
                "pass": format!("opt -passes={pipeline}"),
                "pipeline": pipeline,
                "seed": a.seed.to_string(),
                "shard": format!("{shard}/{shards}"),
                "generator": knob_values(config).into_iter().map(|(k, v)| (k.to_string(), serde_json::Value::String(v))).collect::<serde_json::Map<_, _>>(),
                "bounds": {"max_iters": a.max_iters, "max_paths": a.max_paths, "threads": GROUP},
                "programs": programs,
                "preserved": preserved,
                "inconclusive": inconclusive,
                "first_inconclusive": first_of("inconclusive"),
                "tool_failures": failures,
                "first_tool_failure": first_of("failure"),
                "violations": of("violation"),
                "inconclusive_programs": of("inconclusive"),
                "failed_programs": of("failure"),
                "stats": {
                    "seconds": secs,
                    "programs_per_second": rate,
                    "clang_seconds": clang,
                    "opt_seconds": opt,
                    "checking_seconds": check,
                    "other_seconds": other,
                },
            });
            format!("{v}\n")
        }
        Format::Text | Format::Sarif => {
            let mut out = String::new();
            let _ = writeln!(
                out,
                "convcheck fuzz: opt -passes={}, seed {}, shard {shard}/{shards}, max-iters {}",
                shell_quote(pipeline),
                a.seed,
                a.max_iters
            );
            for f in found.iter().filter(|f| f.kind == "violation") {
                let _ = match f.seed {
                    Some(seed) => writeln!(
                        out,
                        "\nviolation in program {} (seed {seed}): {}; minimized from {} to {} statements{}:\n",
                        f.index,
                        f.what,
                        f.statements_before,
                        f.statements_after,
                        if a.out.is_some() {
                            format!(" ({})", f.file)
                        } else {
                            format!(
                                " (save it as {} for the commands below, or run with --out DIR)",
                                f.file
                            )
                        }
                    ),
                    None => writeln!(out, "\nviolation in {}: {}:\n", f.file, f.what),
                };
                out.push_str(&f.text);
                out.push('\n');
                out.push_str(&f.report_text);
            }
            let _ = writeln!(
                out,
                "\nprograms: {programs}, preserved: {preserved}, violations: {violations}, inconclusive: {inconclusive}, tool failures: {failures}",
            );
            if let Some(w) = first_of("inconclusive") {
                let _ = writeln!(out, "first inconclusive: {w}");
            }
            if let Some(w) = first_of("failure") {
                let _ = writeln!(out, "first tool failure: {w}");
            }
            let _ = writeln!(out, "verdict: {verdict}");
            let _ = writeln!(
                out,
                "time: {secs:.2} s, {rate:.1} programs/s; clang {clang:.2} s ({:.0}%), opt {opt:.2} s ({:.0}%), checking {check:.2} s ({:.0}%), other {other:.2} s ({:.0}%)",
                share(clang),
                share(opt),
                share(check),
                share(other)
            );
            out
        }
    };
    Output {
        text: stdout,
        status: code,
        remark: None,
    }
}
