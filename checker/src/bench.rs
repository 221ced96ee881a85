//! `convcheck bench`: how fast the checker is, measured rather than
//! asserted (DESIGN.md section 5).
//!
//! It runs `check --pass simplifycfg` on every function of the kernels
//! under `examples/` (seed, llvm and corpus), once per `max-iters` from 1
//! to the given maximum, and reports for each bound the number of checks,
//! scenarios (thread pairs) and per-thread paths, the wall time, checks per
//! second and scenarios per second. Times depend on the machine; the
//! counts do not.
//!
//! With `--engine smt` it runs the same checks with the symbolic engine
//! ([`crate::pipeline`]) and reports, per bound, the verdicts (proved,
//! preserved, violated, inconclusive), the wall time and the slowest
//! check; then the growth with kernel size at `max-iters` 8 on two
//! families of generated kernels: `n` guarded observation points each
//! followed by a barrier, and a loop nest `n` deep with a barrier and a
//! ballot in the innermost body, each through the pass.

use crate::config::CheckConfig;
use crate::pipeline::{check_kernels, with_engine};

/// What `bench` is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchArgs {
    /// The examples folder (with seed/, llvm/ and corpus/).
    pub examples: String,
    /// The pass to check.
    pub pass: String,
    /// Measure max-iters from 1 to this.
    pub max_iters: u32,
    /// The engine to measure; `smt` also measures growth with kernel size.
    pub engine: crate::config::Engine,
}

impl Default for BenchArgs {
    fn default() -> BenchArgs {
        BenchArgs {
            examples: "examples".into(),
            pass: "simplifycfg".into(),
            max_iters: 3,
            engine: crate::config::Engine::Explicit,
        }
    }
}
use crate::config::Engine;
use crate::engine::Outcome as EngineOutcome;
use crate::{load_kernel, Error, Output};
use std::fmt::Write;
use std::time::Instant;

/// The `bench` command.
pub fn bench(a: &BenchArgs) -> Result<Output, Error> {
    let kernels = example_kernels(&a.examples)?;
    if a.engine == Engine::Smt {
        return Ok(bench_smt(a, &kernels));
    }
    Ok(bench_explicit(a, &kernels))
}

type Kernels = Vec<(String, convcheck_lang::sema::Kernel)>;

/// The kernels of `examples/{seed,llvm,corpus}/*.c`, in name order.
fn example_kernels(examples: &str) -> Result<Kernels, Error> {
    let mut files = Vec::new();
    for dir in ["seed", "llvm", "corpus"] {
        let path = format!("{examples}/{dir}");
        let Ok(entries) = std::fs::read_dir(&path) else {
            return Err(Error::usage(format!(
                "{path}: cannot read the example folder (give --examples DIR)"
            )));
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path().to_string_lossy().into_owned())
            .filter(|p| p.ends_with(".c"))
            .collect();
        names.sort();
        files.extend(names);
    }
    let mut kernels = Vec::new();
    for f in &files {
        kernels.push((f.clone(), load_kernel(f)?));
    }
    Ok(kernels)
}

fn bench_explicit(a: &BenchArgs, kernels: &Kernels) -> Output {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "convcheck bench: check --pass {} on {} kernel files\n",
        a.pass,
        kernels.len()
    );
    let _ = writeln!(
        out,
        "{:>9} {:>7} {:>10} {:>12} {:>10} {:>11} {:>14}",
        "max-iters", "checks", "paths", "scenarios", "seconds", "checks/s", "scenarios/s"
    );
    for max_iters in 1..=a.max_iters {
        let (mut checks, mut scenarios, mut paths) = (0usize, 0usize, 0usize);
        let start = Instant::now();
        for (name, k) in kernels {
            for f in &k.functions {
                let config = CheckConfig {
                    function: Some(f.name.clone()),
                    passes: vec![a.pass.clone()],
                    max_iters,
                    ..CheckConfig::default()
                };
                let settings = with_engine(Engine::Explicit);
                let Ok(report) = check_kernels(name, k.clone(), None, &config, &settings) else {
                    continue;
                };
                checks += 1;
                for fr in &report.functions {
                    for s in &fr.stages {
                        if let EngineOutcome::Preserved { pairs, .. } = s.outcome {
                            scenarios += pairs;
                        }
                    }
                    paths += fr.coverage.as_ref().map_or(0, |c| c.paths);
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let _ = writeln!(
            out,
            "{max_iters:>9} {checks:>7} {paths:>10} {scenarios:>12} {secs:>10.3} {:>11.1} {:>14.0}",
            checks as f64 / secs.max(1e-9),
            scenarios as f64 / secs.max(1e-9)
        );
    }
    Output::holds(out)
}

/// One symbolic check at the CFG reference: its verdict and seconds.
fn smt_check(
    name: &str,
    k: &convcheck_lang::sema::Kernel,
    function: &str,
    pass: &str,
    max_iters: u32,
) -> Option<(crate::config::Verdict, f64)> {
    let config = CheckConfig {
        function: Some(function.to_string()),
        passes: vec![pass.to_string()],
        reference: crate::config::Reference::Cfg,
        max_iters,
        ..CheckConfig::default()
    };
    let start = Instant::now();
    let r = check_kernels(name, k.clone(), None, &config, &with_engine(Engine::Smt)).ok()?;
    Some((r.verdict(), start.elapsed().as_secs_f64()))
}

fn bench_smt(a: &BenchArgs, kernels: &Kernels) -> Output {
    use crate::config::Verdict;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "convcheck bench --engine smt: check --reference cfg --pass {} on {} kernel files\n",
        a.pass,
        kernels.len()
    );
    let _ = writeln!(
        out,
        "{:>9} {:>7} {:>7} {:>9} {:>8} {:>12} {:>10} {:>10}  slowest",
        "max-iters",
        "checks",
        "proved",
        "preserved",
        "violated",
        "inconclusive",
        "seconds",
        "max s"
    );
    for max_iters in 1..=a.max_iters {
        let mut counts = [0usize; 4];
        let (mut total, mut worst, mut worst_name) = (0.0f64, 0.0f64, String::new());
        for (name, k) in kernels {
            for f in &k.functions {
                let Some((v, secs)) = smt_check(name, k, &f.name, &a.pass, max_iters) else {
                    continue;
                };
                counts[match v {
                    Verdict::Proved => 0,
                    Verdict::Preserved => 1,
                    Verdict::Violated => 2,
                    Verdict::Inconclusive => 3,
                }] += 1;
                total += secs;
                if secs > worst {
                    worst = secs;
                    worst_name = format!("{name} {}", f.name);
                }
            }
        }
        let checks: usize = counts.iter().sum();
        let _ = writeln!(
            out,
            "{max_iters:>9} {checks:>7} {:>7} {:>9} {:>8} {:>12} {total:>10.3} {worst:>10.3}  {worst_name}",
            counts[0], counts[1], counts[2], counts[3]
        );
    }
    let _ = writeln!(
        out,
        "\ngrowth with kernel size (max-iters 8, --pass {}):\n",
        a.pass
    );
    let _ = writeln!(
        out,
        "{:<28} {:>4} {:>13} {:>10}",
        "family", "n", "verdict", "seconds"
    );
    for n in [2usize, 4, 8, 16, 32] {
        for (family, src) in [
            ("guarded barriers", guarded(n)),
            ("loop nest", nest(n.min(8))),
        ] {
            if family == "loop nest" && n > 8 {
                continue;
            }
            let Ok(k) = convcheck_lang::sema::Kernel::parse("bench.c", &src) else {
                continue;
            };
            let n_shown = if family == "loop nest" { n.min(8) } else { n };
            match smt_check("bench.c", &k, "k", &a.pass, 8) {
                Some((v, secs)) => {
                    let _ = writeln!(
                        out,
                        "{family:<28} {n_shown:>4} {:>13} {secs:>10.3}",
                        v.as_str()
                    );
                }
                None => {
                    let _ = writeln!(out, "{family:<28} {n_shown:>4} {:>13}", "error");
                }
            }
        }
    }
    Output::holds(out)
}

/// `n` times `if (cI) { ... // PI } __syncthreads();`.
fn guarded(n: usize) -> String {
    let mut s = String::from("void k() {\n");
    for i in 0..n {
        let _ = writeln!(
            s,
            "  if (c{i}) {{\n    ... // P{i}\n  }}\n  __syncthreads();"
        );
    }
    s.push_str("}\n");
    s
}

/// A loop nest `n` deep (`while (cI)`), with a barrier and a ballot in the
/// innermost body and an observation point after each inner loop.
fn nest(n: usize) -> String {
    let mut s = String::from("void k() {\n");
    for i in 0..n {
        let _ = writeln!(s, "{}do {{", "  ".repeat(i + 1));
    }
    let _ = writeln!(
        s,
        "{}__syncthreads();\n{}ballot(x);",
        "  ".repeat(n + 1),
        "  ".repeat(n + 1)
    );
    for i in (0..n).rev() {
        let _ = writeln!(
            s,
            "{}}} while (c{i});\n{}... // E{i}",
            "  ".repeat(i + 1),
            "  ".repeat(i + 1)
        );
    }
    s.push_str("}\n");
    s
}
