//! One scenario's run with thread ids and a group size of the user's
//! choice (DESIGN.md 2.2: thread ids are part of the scenario, so
//! `if (tid == 2)` can be explored with threads 2 and 5 of a group of 8).
//!
//! `convcheck run` numbers its threads 0 to n-1 in a group of n
//! ([`crate::run::run_report_at`]); this is the same run with each thread's
//! `tid` and the group size `N` given. With the default ids and size it
//! gives exactly `run`'s report (`checker/tests/explore.rs` compares the
//! two), including the note on cycle hierarchies at the CFG level.

use crate::run::RunReport;
use crate::Error;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread, Bounds, Stop};
use convcheck_ir::hazards::hazards;
use convcheck_ir::ops::FuncId;
use convcheck_ir::scenario::{Scenario, ThreadValues, ValuesSource};
use convcheck_ir::table;
use convcheck_lang::sema::Kernel;

/// Which threads of which group run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Each thread's `tid`, in row order; distinct and below `size`.
    pub tids: Vec<u32>,
    /// The group size `N`.
    pub size: u32,
}

impl Group {
    /// Threads 0 to n-1 of a group of n, as `convcheck run` has them.
    pub fn first(n: u32) -> Group {
        Group {
            tids: (0..n).collect(),
            size: n,
        }
    }
}

/// Runs `threads[i]` as thread `group.tids[i]` on `entry` of `kernel`, at
/// the source level, or on `program` when given (then under every cycle
/// hierarchy, at most [`convcheck_ir::cycles::HIERARCHY_CAP`], as `run` does).
pub fn run_in_group(
    kernel: &Kernel,
    program: Option<&CfgProgram>,
    entry: FuncId,
    threads: &[ThreadValues],
    group: &Group,
    fuel: u64,
) -> Result<RunReport, Error> {
    run_in_group_of(Some(kernel), program, entry, threads, group, fuel)
}

/// [`run_in_group`] on a CFG program without a kernel (LLVM IR read into
/// the IR): the CFG level only.
pub fn run_cfg_in_group(
    program: &CfgProgram,
    entry: FuncId,
    threads: &[ThreadValues],
    group: &Group,
    fuel: u64,
) -> Result<RunReport, Error> {
    run_in_group_of(None, Some(program), entry, threads, group, fuel)
}

fn run_in_group_of(
    kernel: Option<&Kernel>,
    program: Option<&CfgProgram>,
    entry: FuncId,
    threads: &[ThreadValues],
    group: &Group,
    fuel: u64,
) -> Result<RunReport, Error> {
    let mut report = run_once(kernel, program, entry, threads, group, fuel)?;
    if let Some(p) = program {
        let labels = report.table.labels();
        report.hierarchy = Some(crate::run::hierarchy_note(p, entry, &labels, &mut |alt| {
            run_once(kernel, Some(alt), entry, threads, group, fuel)
        })?);
    }
    Ok(report)
}

fn run_once(
    kernel: Option<&Kernel>,
    program: Option<&CfgProgram>,
    entry: FuncId,
    threads: &[ThreadValues],
    group: &Group,
    fuel: u64,
) -> Result<RunReport, Error> {
    let code = match (kernel, program) {
        (_, Some(p)) => crate::Code::Cfg(p),
        (Some(k), None) => crate::Code::new(k, None)?,
        (None, None) => return Err(Error::internal("no program to run")),
    };
    let module = code.module();
    let scenario = Scenario {
        threads: threads.to_vec(),
    };
    scenario.validate(module).map_err(Error::usage)?;
    // As `run_scenario`: no iteration bound, the values decide how long
    // loops run; fuel bounds the run.
    let bounds = Bounds {
        max_iters: u32::MAX,
        fuel,
        ..Bounds::default()
    };
    let inconclusive = |tid: u32, why: String| Error::inconclusive(format!("thread {tid}: {why}"));
    let mut traces = Vec::new();
    for (values, &tid) in threads.iter().zip(&group.tids) {
        let mut src = ValuesSource(values);
        let (trace, res) = run_thread(code.program(), entry, tid, group.size, bounds, &mut src);
        match res {
            Ok(()) => traces.push(trace),
            Err(Stop::Cut(why)) | Err(Stop::OutOfBounds(why)) => {
                return Err(inconclusive(tid, why))
            }
            Err(Stop::Need { .. }) => {
                return Err(inconclusive(tid, "internal: a value source ran dry".into()))
            }
        }
    }
    let values = traces
        .iter()
        .map(|tr| {
            let mut v = ThreadValues::default();
            for &(o, _, x) in &tr.reads {
                v.0.entry(module.oracles[o].name.clone())
                    .or_default()
                    .push(x);
            }
            v
        })
        .collect();
    let rows = group.tids.iter().map(|t| format!("tid {t}")).collect();
    let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let table = table::build(module, rows, &runs).map_err(Error::internal)?;
    let hazards = hazards(module, &runs);
    Ok(RunReport {
        values,
        table,
        hierarchy: None,
        hazards,
    })
}
