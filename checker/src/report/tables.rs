//! The trace tables of a counterexample (DESIGN.md 2.8): the reference's
//! and the target's, numbered alike, side by side in text.

use super::Stage;
use crate::engine::Finding;
use convcheck_ir::exec::{Event, Trace};
use convcheck_ir::table::{self, Table};
use std::fmt::Write;

/// The two tables of a finding of `stage`: its reference runs on the
/// module it was compared with, its target runs on the stage's module.
pub fn tables(stage: &Stage, f: &Finding) -> Result<(Table, Table), String> {
    let rows: Vec<String> = f.tids.iter().map(|t| format!("tid {t}")).collect();
    let runs = |ts: &[Trace]| -> Vec<Vec<Event>> { ts.iter().map(|t| t.events.clone()).collect() };
    let (r, t) = (runs(&f.reference), runs(&f.target));
    let rr: Vec<&[Event]> = r.iter().map(Vec::as_slice).collect();
    let tt: Vec<&[Event]> = t.iter().map(Vec::as_slice).collect();
    let reference = table::build(&stage.reference_module, rows.clone(), &rr)?;
    let mut target = table::build(&stage.target_module, rows, &tt)?;
    renumber(&reference, &mut target);
    Ok((reference, target))
}

/// Two renderings next to each other, or one after the other if wide.
pub(super) fn side_by_side(left_title: &str, left: &str, right_title: &str, right: &str) -> String {
    let l: Vec<&str> = std::iter::once(left_title).chain(left.lines()).collect();
    let r: Vec<&str> = std::iter::once(right_title).chain(right.lines()).collect();
    let w = l.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    let rw = r.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    if w + rw + 4 > 120 {
        for line in l.iter().chain(std::iter::once(&"")).chain(r.iter()) {
            let _ = writeln!(out, "  {line}");
        }
        return out;
    }
    for k in 0..l.len().max(r.len()) {
        let a = l.get(k).copied().unwrap_or("");
        let b = r.get(k).copied().unwrap_or("");
        let pad = w - a.chars().count();
        let _ = writeln!(out, "  {a}{}    {b}", " ".repeat(pad));
    }
    out
}

/// An instance as the check matches it: (row, label, its occurrence among
/// the row's instances of that label).
type Occurrence = (usize, String, usize);

/// Numbers the target table's instances as the reference table does: an
/// instance of thread `t` that is the `k`-th of its label in that thread
/// in both runs (the instances the check matches) gets the reference's
/// name; the others get the next numbers of their label. So `VOTE3` is the
/// same instance on both sides of a side-by-side report.
pub fn renumber(reference: &Table, target: &mut Table) {
    use std::collections::HashMap;
    // (row, label, occurrence in the row's run) -> name.
    let occurrences = |t: &Table| -> Vec<(Occurrence, (usize, usize))> {
        let mut out = Vec::new();
        for (r, row) in t.cells.iter().enumerate() {
            let mut cells: Vec<(usize, usize)> = row
                .iter()
                .enumerate()
                .filter_map(|(c, cell)| cell.as_ref().map(|x| (x.event, c)))
                .collect();
            cells.sort();
            let mut seen: HashMap<String, usize> = HashMap::new();
            for (_, c) in cells {
                let label = row[c].as_ref().map(|x| x.label.clone()).unwrap_or_default();
                let k = seen.entry(label.clone()).or_insert(0);
                *k += 1;
                out.push(((r, label, *k), (r, c)));
            }
        }
        out
    };
    let mut names: HashMap<(usize, String, usize), String> = HashMap::new();
    let mut next: HashMap<String, usize> = HashMap::new();
    for (key, (r, c)) in occurrences(reference) {
        if let Some(cell) = &reference.cells[r][c] {
            let n = cell.instance[cell.label.len()..]
                .trim_start_matches('.')
                .parse::<usize>()
                .unwrap_or(0);
            let m = next.entry(key.1.clone()).or_insert(0);
            *m = (*m).max(n);
            names.insert(key, cell.instance.clone());
        }
    }
    // Unmatched target instances in column order, so new numbers read left
    // to right; instances of one column share one number only if they
    // shared it before, which the renaming keeps as it is per cell.
    let occ = occurrences(target);
    let mut order: Vec<&(Occurrence, (usize, usize))> = occ.iter().collect();
    order.sort_by_key(|(_, (r, c))| (*c, *r));
    for (key, (r, c)) in order {
        let name = match names.get(key) {
            Some(n) => n.clone(),
            None => {
                let m = next.entry(key.1.clone()).or_insert(0);
                *m += 1;
                let sep = if key.1.ends_with(|ch: char| ch.is_ascii_digit()) {
                    "."
                } else {
                    ""
                };
                format!("{}{sep}{}", key.1, m)
            }
        };
        if let Some(cell) = target.cells[*r][*c].as_mut() {
            cell.instance = name;
        }
    }
}
