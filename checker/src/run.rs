//! `convcheck run`: one kernel, one scenario, its trace table.

use crate::cli::{Format, RunArgs};
use crate::{load_kernel, Outcome, EXIT_INCONCLUSIVE};
use convcheck_model::exec::run_scenario;
use convcheck_model::scenario::{Scenario, ThreadValues};
use convcheck_model::sema::Kernel;
use convcheck_model::table::{self, Table};
use std::fmt::Write;

/// A scenario's run: the values each thread read and the table.
pub struct RunReport {
    /// The values each thread actually read, in `tid` order.
    pub values: Vec<ThreadValues>,
    /// The trace table.
    pub table: Table,
}

/// Runs `scenario` on `function` of `kernel` and builds its table.
/// Errors are (exit code, message).
pub fn run_report(
    kernel: &Kernel,
    function: Option<&str>,
    scenario: &Scenario,
    fuel: u64,
) -> Result<RunReport, Outcome> {
    let entry = kernel.entry(function).map_err(Outcome::usage)?;
    scenario.validate(kernel).map_err(Outcome::usage)?;
    let traces = run_scenario(kernel, entry, scenario, fuel).map_err(|(t, why)| Outcome {
        stdout: String::new(),
        stderr: format!("inconclusive: thread {t}: {why}\n"),
        code: EXIT_INCONCLUSIVE,
    })?;
    let values = traces
        .iter()
        .map(|tr| {
            let mut v = ThreadValues::default();
            for &(o, _, x) in &tr.reads {
                v.0.entry(kernel.oracles[o].name.clone())
                    .or_default()
                    .push(x);
            }
            v
        })
        .collect();
    let rows = (0..traces.len()).map(|t| format!("tid {t}")).collect();
    let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let table = table::build(kernel, rows, &runs).map_err(|e| Outcome {
        stdout: String::new(),
        stderr: format!("internal error: {e}\n"),
        code: 101,
    })?;
    Ok(RunReport { values, table })
}

/// The `run` command.
pub fn run(a: &RunArgs) -> Outcome {
    let kernel = match load_kernel(&a.file) {
        Ok(k) => k,
        Err(o) => return o,
    };
    let scenario = if a.threads.is_empty() {
        Scenario::default_for(&kernel, 2)
    } else {
        let mut threads = Vec::new();
        for (t, text) in a.threads.iter().enumerate() {
            match ThreadValues::parse(text) {
                Ok(v) => threads.push(v),
                Err(e) => return Outcome::usage(format!("--thread {t}: {e}")),
            }
        }
        Scenario { threads }
    };
    let report = match run_report(&kernel, a.function.as_deref(), &scenario, a.fuel) {
        Ok(r) => r,
        Err(o) => return o,
    };
    let function = match kernel.entry(a.function.as_deref()) {
        Ok(f) => kernel.functions[f].name.clone(),
        Err(e) => return Outcome::usage(e),
    };
    match a.format {
        Format::Json => {
            let mut obj = report.table.to_json();
            obj["file"] = serde_json::json!(a.file);
            obj["function"] = serde_json::json!(function);
            obj["level"] = serde_json::json!("source");
            obj["threads"] = serde_json::json!(report
                .values
                .iter()
                .enumerate()
                .map(|(t, v)| serde_json::json!({"tid": t, "values": v.0}))
                .collect::<Vec<_>>());
            Outcome::ok(format!("{obj}\n"))
        }
        Format::Text => {
            let mut out = String::new();
            let _ = writeln!(out, "{} `{}` (source level)", a.file, function);
            for (t, v) in report.values.iter().enumerate() {
                let _ = writeln!(out, "  tid {t}: {}", v.render());
            }
            out.push_str(&report.table.render());
            Outcome::ok(out)
        }
    }
}
