//! `convcheck run --engine smt`: the trace table with converged-with
//! computed by the relational model in z3 instead of keys (DESIGN.md 2.5).
//!
//! The scenario is run as usual (the runs are the candidate execution);
//! then [`convcheck_smt`] solves for converged-with:
//!
//! - at the source level, seed 000's rules written relationally
//!   ([`convcheck_smt::source`]), in the allowed relation where every
//!   implementation-defined choice is made apart, which is what a trace
//!   table shows (DESIGN.md 2.8, [`convcheck_ir::table`]); instances in
//!   an implementation-defined region are marked as the key table marks
//!   them;
//! - at the CFG level, LLVM's relational definition of maximal
//!   converged-with ([`convcheck_smt::cfg`]) under the hierarchy LLVM
//!   picks. Convergence-control tokens are not modelled: `--tokens` with
//!   `--engine smt` is inconclusive.
//!
//! Either way the relation must be the unique solution; the classes it
//! induces on convergent operations become the table's columns, ordered by
//! the same rule as the key engine's table ([`table::build`] is reused with
//! one synthetic key per class), so both engines print the same table when
//! they agree. The cycle-hierarchy note of the CFG level is the key
//! engine's.

use crate::run::RunReport;
use crate::Error;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, Event};
use convcheck_ir::key::{Atom, Key};
use convcheck_ir::scenario::Scenario;
use convcheck_ir::table::{self, Table};
use convcheck_lang::sema::Kernel;
use convcheck_smt::{self as smt, Answer, Relation};

/// Why the SMT engine gave no table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SmtError {
    /// z3 could not tell, or the input is outside the model.
    Unknown(smt::Unknown),
    /// The relational model found no unique relation, or one that breaks
    /// an invariant of tables: a disagreement between the engines.
    Model(String),
}

/// The trace table of a group's runs (`runs[i]` titled `rows[i]`), with
/// converged-with computed by z3: at the source level when `program` is
/// `None`, else at the CFG level of `program`.
pub fn smt_table(
    kernel: &Kernel,
    program: Option<&CfgProgram>,
    rows: Vec<String>,
    runs: &[&[Event]],
) -> Result<Table, SmtError> {
    let (rel, open): (Relation, Vec<Vec<bool>>) = match program {
        None => match smt::source_table_relation(kernel, runs) {
            Answer::Proved(x) => x,
            Answer::Counterexample(c) => return Err(SmtError::Model(c.to_string())),
            Answer::Unknown(w) => return Err(SmtError::Unknown(w)),
        },
        Some(p) => match smt::cfg_relation(p, runs) {
            Answer::Proved(r) => (r, runs.iter().map(|r| vec![false; r.len()]).collect()),
            Answer::Counterexample(c) => return Err(SmtError::Model(c.to_string())),
            Answer::Unknown(w) => return Err(SmtError::Unknown(w)),
        },
    };
    // Classes of convergent operations: union-find over (thread, event).
    let offsets: Vec<usize> = runs
        .iter()
        .scan(0, |acc, r| {
            let o = *acc;
            *acc += r.len();
            Some(o)
        })
        .collect();
    let total: usize = runs.iter().map(|r| r.len()).sum();
    let mut parent: Vec<usize> = (0..total).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        let mut y = x;
        while p[y] != r {
            let n = p[y];
            p[y] = r;
            y = n;
        }
        r
    }
    for &(a, b) in &rel.converged_pairs() {
        let (ea, eb) = (&runs[a.0][a.1], &runs[b.0][b.1]);
        if !ea.is_convergent_op() || !eb.is_convergent_op() {
            continue;
        }
        if open[a.0][a.1] || open[b.0][b.1] {
            return Err(SmtError::Model(format!(
                "`{}`: an implementation-defined instance is converged although every choice \
                 was made apart",
                kernel.module().label(ea.sid)
            )));
        }
        let (x, y) = (
            find(&mut parent, offsets[a.0] + a.1),
            find(&mut parent, offsets[b.0] + b.1),
        );
        if x != y {
            parent[x.max(y)] = x.min(y);
        }
    }
    // One synthetic key per class; implementation-defined instances get a
    // choice atom of their own, as their keys have.
    let mut seq = 0u32;
    let synthetic: Vec<Vec<Event>> = runs
        .iter()
        .enumerate()
        .map(|(t, r)| {
            r.iter()
                .enumerate()
                .map(|(i, e)| {
                    let mut e = e.clone();
                    e.key = if open[t][i] {
                        seq += 1;
                        Key(vec![Atom::Choice { scope: e.sid, seq }, Atom::Sid(e.sid)])
                    } else {
                        let c = find(&mut parent, offsets[t] + i);
                        Key(vec![Atom::Inst(c as u32), Atom::Sid(e.sid)])
                    };
                    e
                })
                .collect()
        })
        .collect();
    let refs: Vec<&[Event]> = synthetic.iter().map(Vec::as_slice).collect();
    table::build(&kernel.module(), rows, &refs).map_err(SmtError::Model)
}

/// Replaces the key engine's table of `report` by the SMT engine's, for the
/// same scenario (`args` is `(function, scenario, fuel)`).
pub fn smt_report(
    kernel: &Kernel,
    program: Option<&CfgProgram>,
    args: (Option<&str>, &Scenario, u64),
    mut report: RunReport,
) -> Result<RunReport, Error> {
    let (function, scenario, fuel) = args;
    let entry = kernel.entry(function).map_err(Error::usage)?;
    let code = crate::Code::new(kernel, program)?;
    let traces = run_scenario(code.program(), entry, scenario, fuel)
        .map_err(|(t, why)| Error::inconclusive(format!("thread {t}: {why}")))?;
    let rows = (0..traces.len()).map(|t| format!("tid {t}")).collect();
    let runs: Vec<&[Event]> = traces.iter().map(|t| t.events.as_slice()).collect();
    match smt_table(kernel, program, rows, &runs) {
        Ok(t) => {
            report.table = t;
            Ok(report)
        }
        Err(SmtError::Unknown(w)) => Err(Error::inconclusive(format!(
            "the SMT engine could not decide: {w}"
        ))),
        Err(SmtError::Model(m)) => Err(Error::internal(format!(
            "the SMT engine disagrees with the model: {m}"
        ))),
    }
}
