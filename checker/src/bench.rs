//! `convcheck bench`: how fast the checker is, measured rather than
//! asserted (DESIGN.md section 5).
//!
//! It runs `check --pass simplifycfg` on every function of the kernels
//! under `examples/` (seed, llvm and corpus), once per `max-iters` from 1
//! to the given maximum, and reports for each bound the number of checks,
//! scenarios (thread pairs) and per-thread paths, the wall time, checks per
//! second and scenarios per second. Times depend on the machine; the
//! counts do not.

use crate::check::{run_check_on, CheckConfig};
use crate::cli::BenchArgs;
use crate::engine::Outcome as EngineOutcome;
use crate::{load_kernel, Outcome};
use std::fmt::Write;
use std::time::Instant;

/// The `bench` command.
pub fn bench(a: &BenchArgs) -> Outcome {
    let mut files = Vec::new();
    for dir in ["seed", "llvm", "corpus"] {
        let path = format!("{}/{dir}", a.examples);
        let Ok(entries) = std::fs::read_dir(&path) else {
            return Outcome::usage(format!(
                "{path}: cannot read the example folder (give --examples DIR)"
            ));
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
        match load_kernel(f) {
            Ok(k) => kernels.push((f.clone(), k)),
            Err(o) => return o,
        }
    }
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
        for (name, k) in &kernels {
            for f in &k.functions {
                let config = CheckConfig {
                    function: Some(f.name.clone()),
                    passes: vec![a.pass.clone()],
                    max_iters,
                    ..CheckConfig::default()
                };
                let Ok(report) = run_check_on(name, k.clone(), None, &config) else {
                    continue;
                };
                checks += 1;
                for s in &report.stages {
                    if let EngineOutcome::Preserved { pairs, .. } = s.outcome {
                        scenarios += pairs;
                    }
                }
                paths += report.paths;
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
    Outcome::ok(out)
}
