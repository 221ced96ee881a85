//! `convcheck fuzz`: random kernels through a pass, every violation
//! minimized and written out as a replayable kernel.
//!
//! Program `i` of a run is generated from the seed `mix(seed, i)` with the
//! default generator configuration (`convcheck-generators`), lowered, and
//! checked against the pass with the CFG as reference (the pass is what is
//! under test, not the lowering) within `--max-iters` (1, the generator's
//! iteration bound) and `--max-paths` (2,000 per thread; past it a program
//! is inconclusive, counted and named). A shard `I/N` takes
//! the programs with `i % N == I`, so shards never repeat work. A violation
//! is minimized twice: the program (statements removed, compounds
//! unwrapped, conditions simplified while the same property still breaks)
//! and then the scenario (the engine reports the shortest pair of paths).
//!
//! `--pass-cmd 'CMD'` checks an external transform instead: CMD is run
//! through `sh -c` with the kernel file's path appended; it must print the
//! transformed kernel (kernel-language text) on standard output. A command
//! that fails, times out or prints something unreadable is counted and
//! reported under `command_failures`, never as a verdict.
//!
//! Determinism: the same seed, count, shard and pass give the same output,
//! byte for byte; timings appear only under `stats` in JSON (and in the
//! text summary's last line).

use crate::check::{render_text, run_check_on, Reference};
use crate::cli::FuzzArgs;
use crate::config::CheckConfig;
use crate::engine::{
    check_pass_against_cfg, compare_any_hierarchy, Allowance, Limits, Outcome as EngineOutcome,
    Property, Side,
};
use crate::Code;
use crate::{Outcome, EXIT_INCONCLUSIVE, EXIT_OK, EXIT_USAGE, EXIT_VIOLATION};
use convcheck_generators::{generate_seeded, shrink_kernel, Config};
use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::exec::Bounds;
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

enum Transform {
    Pass(Box<dyn Pass>),
    Command { cmd: String, timeout: Duration },
}

enum Result1 {
    Preserved,
    Violated(Property),
    Inconclusive(String),
    CommandFailed(String),
}

fn limits(a: &FuzzArgs) -> Limits {
    Limits {
        bounds: Bounds {
            max_iters: a.max_iters,
            max_paths: a.max_paths,
            ..Bounds::default()
        },
        group: 2,
    }
}

/// Checks one program; `name` is its file name in reports.
fn check_one(t: &Transform, file: &File, name: &str, a: &FuzzArgs) -> Result1 {
    let Ok(kernel) = Kernel::new(name, file.clone()) else {
        return Result1::Inconclusive("the generated kernel does not analyse".into());
    };
    let Ok(entry) = kernel.entry(None) else {
        return Result1::Inconclusive("no single kernel entry".into());
    };
    match t {
        Transform::Pass(pass) => {
            let module = convcheck_lang::lower::lower(&kernel, false);
            match check_pass_against_cfg(&module, entry, pass.as_ref(), limits(a)) {
                EngineOutcome::Preserved { .. } => Result1::Preserved,
                EngineOutcome::Violated(f) => Result1::Violated(f.property),
                EngineOutcome::Inconclusive(w) => Result1::Inconclusive(w),
            }
        }
        Transform::Command { cmd, timeout } => match run_command(cmd, &print(file), *timeout) {
            Err(e) => Result1::CommandFailed(e),
            Ok(text) => match Kernel::parse(&format!("{name} (after the command)"), &text) {
                Err(d) => Result1::CommandFailed(format!("unreadable output: {d}")),
                Ok(target_kernel) => {
                    let Ok(tentry) = target_kernel.entry(Some(&kernel.functions[entry].name))
                    else {
                        return Result1::CommandFailed("the output lost the kernel entry".into());
                    };
                    let (code_r, code_t) =
                        match (Code::new(&kernel, None), Code::new(&target_kernel, None)) {
                            (Ok(r), Ok(t)) => (r, t),
                            _ => {
                                return Result1::Inconclusive(
                                    "a kernel does not compile to source-level code".into(),
                                )
                            }
                        };
                    let reference = Side {
                        program: code_r.program(),
                        cfg: None,
                        entry,
                    };
                    let target = Side {
                        program: code_t.program(),
                        cfg: None,
                        entry: tentry,
                    };
                    match compare_any_hierarchy(
                        &reference,
                        &target,
                        Allowance::Exact,
                        limits(a),
                        HIERARCHY_CAP,
                    ) {
                        EngineOutcome::Preserved { .. } => Result1::Preserved,
                        EngineOutcome::Violated(f) => Result1::Violated(f.property),
                        EngineOutcome::Inconclusive(w) => Result1::Inconclusive(w),
                    }
                }
            },
        },
    }
}

/// Runs `sh -c 'CMD FILE'` on a temporary copy of the kernel, with a
/// timeout; returns its standard output.
fn run_command(cmd: &str, kernel_text: &str, timeout: Duration) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("convcheck-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("temporary folder: {e}"))?;
    let path = dir.join("kernel.c");
    std::fs::write(&path, kernel_text).map_err(|e| format!("temporary file: {e}"))?;
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{cmd} '{}'", path.display()))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{cmd}`: {e}"))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let out = child.wait_with_output().map_err(|e| e.to_string())?;
                if !status.success() {
                    let err = String::from_utf8_lossy(&out.stderr);
                    return Err(format!("`{cmd}` exited with {status}: {}", err.trim()));
                }
                return String::from_utf8(out.stdout).map_err(|_| "the output is not UTF-8".into());
            }
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "`{cmd}` did not finish within {} s",
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// A violation, minimized.
struct Found {
    index: u64,
    seed: u64,
    property: Property,
    original_statements: usize,
    kernel: File,
    report_text: String,
    report_json: serde_json::Value,
}

fn statements(f: &File) -> usize {
    convcheck_generators::analysis::statement_count(f)
}

/// The `fuzz` command.
pub fn fuzz(a: &FuzzArgs) -> Outcome {
    let transform = match (&a.pass, &a.pass_cmd) {
        (Some(p), None) => match lookup(p) {
            Ok(x) => Transform::Pass(x),
            Err(e) => return Outcome::usage(format!("--pass {p}: {e}")),
        },
        (None, Some(c)) => Transform::Command {
            cmd: c.clone(),
            timeout: Duration::from_secs(a.cmd_timeout),
        },
        _ => return Outcome::usage("give exactly one of --pass P and --pass-cmd 'CMD'"),
    };
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
    if a.count.is_none() && a.time.is_none() {
        return Outcome::usage("give --count N or --time SECS");
    }
    // A run that examines no program must not look like a clean one.
    if a.count == Some(0) {
        return Outcome::usage("--count 0: give at least one program to check");
    }
    if a.time == Some(0) {
        return Outcome::usage("--time 0: give at least one second");
    }
    if let Some(dir) = &a.out {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return Outcome::usage(format!("--out {dir}: {e}"));
        }
    }
    let config = fuzz_config();
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let (mut programs, mut preserved, mut inconclusive, mut failures) = (0u64, 0u64, 0u64, 0u64);
    let mut found: Vec<Found> = Vec::new();
    let mut first_inconclusive: Option<String> = None;
    let mut first_failure: Option<String> = None;
    let mut i = shard;
    loop {
        if a.count.is_some_and(|n| programs >= n)
            || a.time
                .is_some_and(|t| start.elapsed().as_secs_f64() >= t as f64)
        {
            break;
        }
        let seed = program_seed(a.seed, i);
        let file = generate_seeded(&config, seed);
        // The name of the file a violation is written to, so that the
        // report's replay line names it.
        let name = match &a.out {
            Some(dir) => format!("{dir}/violation-{i}.c"),
            None => format!("violation-{i}.c"),
        };
        match check_one(&transform, &file, &name, a) {
            Result1::Preserved => preserved += 1,
            Result1::Inconclusive(w) => {
                inconclusive += 1;
                first_inconclusive.get_or_insert(format!("program {i}: {w}"));
            }
            Result1::CommandFailed(w) => {
                failures += 1;
                first_failure.get_or_insert(format!("program {i}: {w}"));
            }
            Result1::Violated(property) => {
                let small = shrink_kernel(
                    &file,
                    |f| matches!(check_one(&transform, f, &name, a), Result1::Violated(ref p) if *p == property),
                );
                let (text, json) = report(&transform, &small, &name, a);
                found.push(Found {
                    index: i,
                    seed,
                    property,
                    original_statements: statements(&file),
                    kernel: small,
                    report_text: text,
                    report_json: json,
                });
                if a.stop_at_first {
                    programs += 1;
                    break;
                }
            }
        }
        programs += 1;
        i += shards;
        if tty && a.format == crate::cli::Format::Text && programs % 50 == 0 {
            let secs = start.elapsed().as_secs_f64();
            let _ = write!(
                std::io::stderr(),
                "\r{programs} programs, {:.0}/s, {} violations, {inconclusive} inconclusive ",
                programs as f64 / secs.max(1e-9),
                found.len()
            );
        }
    }
    if tty && a.format == crate::cli::Format::Text {
        let _ = writeln!(std::io::stderr());
    }
    let secs = start.elapsed().as_secs_f64();
    // Files for each violation.
    if let Some(dir) = &a.out {
        for f in &found {
            let base = format!("{dir}/violation-{}", f.index);
            let header = format!(
                "// convcheck fuzz: program {} (seed {}), {} violated; minimized from {} to {} statements.\n",
                f.index,
                f.seed,
                f.property.name(),
                f.original_statements,
                statements(&f.kernel)
            );
            let _ = std::fs::write(format!("{base}.c"), format!("{header}{}", print(&f.kernel)));
            let _ = std::fs::write(format!("{base}.txt"), &f.report_text);
        }
    }
    let verdict = if !found.is_empty() {
        "violated"
    } else if inconclusive > 0 {
        "inconclusive"
    } else {
        "preserved"
    };
    let what = match (&a.pass, &a.pass_cmd) {
        (Some(p), _) => p.clone(),
        (_, Some(c)) => format!("command `{c}`"),
        _ => String::new(),
    };
    let stdout = match a.format {
        crate::cli::Format::Json => {
            let v = json!({
                "verdict": verdict,
                "pass": what,
                "seed": a.seed,
                "shard": format!("{shard}/{shards}"),
                "programs": programs,
                "preserved": preserved,
                "inconclusive": inconclusive,
                "first_inconclusive": first_inconclusive,
                "command_failures": failures,
                "first_command_failure": first_failure,
                "violations": found.iter().map(|f| json!({
                    "program": f.index,
                    "seed": f.seed,
                    "property": f.property,
                    "statements_before": f.original_statements,
                    "statements_after": statements(&f.kernel),
                    "kernel": print(&f.kernel),
                    "report": f.report_json,
                })).collect::<Vec<_>>(),
                "stages": [],
                "counterexample": found.first().map(|f| f.report_json["counterexample"].clone()),
                "stats": {"seconds": secs, "programs_per_second": programs as f64 / secs.max(1e-9)},
            });
            format!("{v}\n")
        }
        crate::cli::Format::Text => {
            let mut out = String::new();
            let _ = writeln!(
                out,
                "convcheck fuzz: {what}, seed {}, shard {shard}/{shards}, max-iters {}",
                a.seed, a.max_iters
            );
            for f in &found {
                let _ = writeln!(
                    out,
                    "\nviolation in program {} (seed {}): {}; minimized from {} to {} statements:\n",
                    f.index,
                    f.seed,
                    f.property.name(),
                    f.original_statements,
                    statements(&f.kernel)
                );
                out.push_str(&print(&f.kernel));
                out.push('\n');
                out.push_str(&f.report_text);
            }
            let _ = writeln!(
                out,
                "\nprograms: {programs}, preserved: {preserved}, violations: {}, inconclusive: {inconclusive}, command failures: {failures}",
                found.len()
            );
            if let Some(w) = &first_inconclusive {
                let _ = writeln!(out, "first inconclusive: {w}");
            }
            if let Some(w) = &first_failure {
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
    let code = match verdict {
        "violated" => EXIT_VIOLATION,
        "inconclusive" => EXIT_INCONCLUSIVE,
        _ if failures > 0 && preserved == 0 => EXIT_USAGE,
        _ => EXIT_OK,
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code,
    }
}

/// The generator configuration of `convcheck fuzz`: the generator's
/// defaults with loops weighted up and small bodies, since loop structure
/// is where CFG passes change convergence (seed 000's loop_nest /
/// loop_continue), and nested loops that decide their exits need the path
/// budget.
pub fn fuzz_config() -> Config {
    Config {
        loop_weight: 12,
        if_weight: 3,
        jump_weight: 2,
        max_statements: 10,
        max_block_len: 3,
        max_paths: 1024,
        // With one iteration in the generator's path estimate, loops that
        // decide their exit fit inside each other within the budget.
        iteration_bound: 1,
        ..Config::default()
    }
}

/// The full check report of a (minimized) violating program.
fn report(t: &Transform, file: &File, name: &str, a: &FuzzArgs) -> (String, serde_json::Value) {
    let Transform::Pass(pass) = t else {
        return (String::new(), json!(null));
    };
    let Ok(kernel) = Kernel::new(name, file.clone()) else {
        return (String::new(), json!(null));
    };
    let config = CheckConfig {
        passes: vec![pass.name()],
        reference: Reference::Cfg,
        max_iters: a.max_iters,
        max_paths: a.max_paths,
        ..CheckConfig::default()
    };
    match run_check_on(name, kernel, None, &config) {
        Ok(r) => (render_text(&r), crate::check::render_json(&r)),
        Err(o) => (o.stderr, json!(null)),
    }
}
