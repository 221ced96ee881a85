//! Trace tables in the format of seed 000 (DESIGN.md 2.8).
//!
//! One row per thread, one column per convergence class of convergent
//! operations (observation points, convergent calls, real calls, barriers).
//! Instances in one column are converged; a thread with no instance in a
//! column has an empty cell. Columns are ordered consistently with
//! convergence-before: a topological order of the classes under
//! sequenced-before, ties broken by source order of the operation, then by
//! the lowest thread, which reproduces the column order of seed 000's
//! tables.
//!
//! An instance whose convergence is implementation-defined (its key holds a
//! choice variable) is never merged with another: it gets a column of its
//! own and the marker `*`, explained by a legend. The table then shows one
//! allowed relation (all choices distinct), flagged as such.
//!
//! Cells are numbered like the seed's: the label, then the instance number
//! counted per label over the table in column order (`B1`, `B2`, ...);
//! labels ending in a digit get a dot (`L1.2`).

use crate::exec::Event;
use crate::ops::OpId;
use crate::Module;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

/// One cell of a table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    /// The operation's label.
    pub label: String,
    /// The numbered instance name (`B3`).
    pub instance: String,
    /// Index of the event in its thread's run.
    pub event: usize,
    /// Whether its convergence is implementation-defined.
    pub open: bool,
}

/// A trace table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    /// Row titles (`tid 0`).
    pub rows: Vec<String>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<Option<Cell>>>,
}

/// Builds the table of a group's runs. `runs[i]` is the run of the thread
/// titled `rows[i]`. Fails only if the key relation breaks an invariant
/// of the model (a thread converged with itself, or a cycle in
/// convergence-before), which would be a bug in the model.
pub fn build(module: &Module, rows: Vec<String>, runs: &[&[Event]]) -> Result<Table, String> {
    // Classes: determined keys group by equality; open instances stand alone.
    let mut class_of_key: HashMap<&crate::key::Key, usize> = HashMap::new();
    let mut members: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut sid_of: Vec<OpId> = Vec::new();
    let mut seq: Vec<Vec<usize>> = Vec::new();
    for (t, run) in runs.iter().enumerate() {
        let mut row = Vec::new();
        for (i, e) in run.iter().enumerate() {
            if !e.is_convergent_op() {
                continue;
            }
            let c = if e.key.is_open() {
                members.push(Vec::new());
                sid_of.push(e.sid);
                members.len() - 1
            } else {
                *class_of_key.entry(&e.key).or_insert_with(|| {
                    members.push(Vec::new());
                    sid_of.push(e.sid);
                    members.len() - 1
                })
            };
            if members[c].iter().any(|(u, _)| *u == t) {
                return Err(format!(
                    "model invariant broken: thread {t} has two instances of `{}` with one key",
                    module.label(e.sid)
                ));
            }
            members[c].push((t, i));
            row.push(c);
        }
        seq.push(row);
    }
    let n = members.len();
    let mut succ: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    let mut indeg = vec![0usize; n];
    for row in &seq {
        for w in row.windows(2) {
            if succ[w[0]].insert(w[1]) {
                indeg[w[1]] += 1;
            }
        }
    }
    let rank = |c: usize| (sid_of[c], members[c][0].0, c);
    let mut ready: BTreeSet<(OpId, usize, usize)> =
        (0..n).filter(|&c| indeg[c] == 0).map(rank).collect();
    let mut order = Vec::new();
    while let Some(first) = ready.iter().next().copied() {
        ready.remove(&first);
        let c = first.2;
        order.push(c);
        for &d in &succ[c] {
            indeg[d] -= 1;
            if indeg[d] == 0 {
                ready.insert(rank(d));
            }
        }
    }
    if order.len() < n {
        return Err("model invariant broken: convergence-before has a cycle".into());
    }
    let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; n]; runs.len()];
    let mut counter: HashMap<String, usize> = HashMap::new();
    for (col, &c) in order.iter().enumerate() {
        let mut ms = members[c].clone();
        ms.sort();
        for (t, i) in ms {
            let e = &runs[t][i];
            let label = module.label(e.sid).to_string();
            let k = counter.entry(label.clone()).or_insert(0);
            *k += 1;
            let sep = if label.ends_with(|ch: char| ch.is_ascii_digit()) {
                "."
            } else {
                ""
            };
            cells[t][col] = Some(Cell {
                instance: format!("{label}{sep}{k}"),
                label,
                event: i,
                open: e.key.is_open(),
            });
        }
    }
    Ok(Table { rows, cells })
}

impl Table {
    /// Number of columns.
    pub fn width(&self) -> usize {
        self.cells.first().map_or(0, Vec::len)
    }

    /// Whether some cell is implementation-defined.
    pub fn has_open(&self) -> bool {
        self.cells.iter().flatten().flatten().any(|c| c.open)
    }

    /// The labels only: `labels()[row][col]`, `None` for empty cells.
    pub fn labels(&self) -> Vec<Vec<Option<String>>> {
        self.cells
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| c.as_ref().map(|c| c.label.clone()))
                    .collect()
            })
            .collect()
    }

    /// Renders the table as in seed 000 (a reStructuredText grid), with
    /// a legend when some instance is implementation-defined.
    pub fn render(&self) -> String {
        let w = self.width();
        let text = |c: &Option<Cell>| match c {
            Some(c) if c.open => format!("{}*", c.instance),
            Some(c) => c.instance.clone(),
            None => String::new(),
        };
        let head_w = self.rows.iter().map(String::len).max().unwrap_or(0);
        let mut col_w: Vec<usize> = (0..w).map(|c| (c + 1).to_string().len()).collect();
        for row in &self.cells {
            for (c, cell) in row.iter().enumerate() {
                col_w[c] = col_w[c].max(text(cell).len());
            }
        }
        let rule = {
            let mut s = format!("+{}+", "-".repeat(head_w + 2));
            for cw in &col_w {
                let _ = write!(s, "{}+", "-".repeat(cw + 2));
            }
            s
        };
        let mut out = String::new();
        let _ = writeln!(out, "{rule}");
        let mut header = format!("| {:head_w$} |", "");
        for (c, cw) in col_w.iter().enumerate() {
            let _ = write!(header, " {:<cw$} |", c + 1);
        }
        let _ = writeln!(out, "{header}\n{rule}");
        for (r, row) in self.cells.iter().enumerate() {
            let mut line = format!("| {:head_w$} |", self.rows[r]);
            for (c, cell) in row.iter().enumerate() {
                let cw = col_w[c];
                let _ = write!(line, " {:cw$} |", text(cell));
            }
            let _ = writeln!(out, "{line}\n{rule}");
        }
        if self.has_open() {
            out.push_str(
                "* implementation-defined convergence (seed 000: goto cycle, loop entered from\n  \
                 outside, or noconvergent statement): the instance may or may not be converged\n  \
                 with other instances of its operation; the table shows it apart.\n",
            );
        }
        out
    }

    /// The JSON form of DESIGN.md section 4: `table` is one array per
    /// thread with one label or `null` per column.
    pub fn to_json(&self) -> serde_json::Value {
        let open: Vec<usize> = (0..self.width())
            .filter(|&c| {
                self.cells
                    .iter()
                    .any(|r| r[c].as_ref().is_some_and(|x| x.open))
            })
            .collect();
        let instances: Vec<Vec<Option<String>>> = self
            .cells
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| c.as_ref().map(|c| c.instance.clone()))
                    .collect()
            })
            .collect();
        serde_json::json!({
            "rows": self.rows,
            "table": self.labels(),
            "instances": instances,
            "implementation_defined_columns": open,
        })
    }
}
