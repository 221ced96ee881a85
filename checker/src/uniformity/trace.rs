//! A uniformity finding's scenario as a trace table of block instances,
//! and the class of the finding read from it.
//!
//! **Table.** One row per thread, one column per convergence class of
//! block instances (equal maximal-convergence keys: the interpreter's
//! `EventKind::Block` events), so two cells in one column are converged
//! instances; the cell of the definition's block instance carries the
//! value the thread got there. Columns follow both threads' order (a merge
//! of the two sequences along their shared columns, which convergence-
//! before keeps in the same order in both).
//!
//! **Class.** Where the two threads' paths split before the converged
//! instance of the definition (the last converged block instance whose
//! successors differ: the divergent branch), and how they reach it:
//!
//! - `phi-join`: a phi reached from different predecessors after a
//!   divergent branch (llvm/llvm-project#137277's shape);
//! - `phi-join-at-cycle-exit`: the same where the divergent branch is in a
//!   cycle that does not contain the phi and both threads come to the phi
//!   straight from that cycle, by different exits or iterations (#216100
//!   / PR #216296's shape); `phi-join-after-cycle-exit` when one of them
//!   comes through blocks outside the cycle;
//! - `phi-temporal-at-cycle-exit`, `value-…`, `branch-…`: reached from the
//!   same predecessor, with an operand from non-converged executions in a
//!   cycle both left (temporal divergence), or any other value;
//! - `…-input`: no divergent branch before it (the threads' inputs differ);
//! - an `irreducible-` prefix when the branch or the definition is in an
//!   irreducible cycle.

use super::model::Kind;
use super::report::{BlockTable, TableRow};
use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::exec::{DefValue, EventKind, Trace};
use convcheck_ir::key::Atom;
use convcheck_ir::Cfg;
use std::collections::HashMap;

/// A thread's block instances: (key, block).
fn blocks(t: &Trace) -> Vec<(&[Atom], usize)> {
    t.events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Block(b) => Some((e.key.0.as_slice(), b as usize)),
            _ => None,
        })
        .collect()
}

/// The key of the block instance a definition executes in (its key
/// without the instruction's position), when it is not controlled by a
/// token.
fn block_key(d: &DefValue) -> &[Atom] {
    &d.key[..d.key.len().saturating_sub(1)]
}

/// The table of a finding (see the module documentation).
pub fn table(
    cfg: &Cfg,
    traces: &[Trace; 2],
    tids: [u32; 2],
    defs: &[DefValue; 2],
    shown: &dyn Fn(i64) -> String,
) -> BlockTable {
    let seqs = [blocks(&traces[0]), blocks(&traces[1])];
    // Column of each key, in merge order.
    let mut columns: Vec<&[Atom]> = Vec::new();
    let pos_in: Vec<HashMap<&[Atom], usize>> = seqs
        .iter()
        .map(|s| s.iter().enumerate().map(|(i, (k, _))| (*k, i)).collect())
        .collect();
    let (mut i, mut j) = (0, 0);
    while i < seqs[0].len() || j < seqs[1].len() {
        let a = seqs[0].get(i).map(|x| x.0);
        let b = seqs[1].get(j).map(|x| x.0);
        match (a, b) {
            (Some(a), Some(b)) if a == b => {
                columns.push(a);
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) => {
                // Thread 1 must catch up when thread 0's instance is one it
                // reaches later.
                if pos_in[1].get(a).is_some_and(|&p| p > j) {
                    columns.push(b);
                    j += 1;
                } else {
                    columns.push(a);
                    i += 1;
                }
            }
            (Some(a), None) => {
                columns.push(a);
                i += 1;
            }
            (None, Some(b)) => {
                columns.push(b);
                j += 1;
            }
            (None, None) => break,
        }
    }
    let index: HashMap<&[Atom], usize> = columns.iter().enumerate().map(|(c, k)| (*k, c)).collect();
    let mut rows = Vec::new();
    for t in 0..2 {
        let mut cells: Vec<Option<String>> = vec![None; columns.len()];
        for (k, b) in &seqs[t] {
            let mut cell = cfg.blocks[*b].name.clone();
            if *k == block_key(&defs[t]) {
                cell.push_str(&format!(" [{}]", shown(defs[t].value)));
            }
            if let Some(&c) = index.get(k) {
                cells[c] = Some(cell);
            }
        }
        rows.push(TableRow {
            thread: format!("tid {}", tids[t]),
            cells,
        });
    }
    BlockTable { rows }
}

/// The class of a finding (see the module documentation).
pub fn classify(ci: &CycleInfo, kind: Kind, traces: &[Trace; 2], defs: &[DefValue; 2]) -> String {
    let seqs = [blocks(&traces[0]), blocks(&traces[1])];
    let at: Vec<Option<usize>> = (0..2)
        .map(|t| seqs[t].iter().position(|(k, _)| *k == block_key(&defs[t])))
        .collect();
    let def_block = defs[0].block as usize;
    let (Some(ia), Some(ib)) = (at[0], at[1]) else {
        return format!("{}-controlled", kind.name());
    };
    let pred = |t: usize, i: usize| i.checked_sub(1).map(|p| seqs[t][p].1);
    let preds_differ = pred(0, ia) != pred(1, ib);
    // The divergent branch: the last converged instance whose successors
    // differ.
    let mut split = None;
    'outer: for x in (0..ia).rev() {
        for y in 0..ib {
            if seqs[1][y].0 == seqs[0][x].0 && seqs[0][x + 1].0 != seqs[1][y + 1].0 {
                split = Some(seqs[0][x].1);
                break 'outer;
            }
        }
    }
    let irreducible = |b: usize| {
        ci.containing
            .get(b)
            .is_some_and(|cs| cs.iter().any(|&c| !ci.cycles[c].is_reducible()))
    };
    let Some(d) = split else {
        let irr = if irreducible(def_block) {
            "irreducible-"
        } else {
            ""
        };
        return format!("{irr}{}-input", kind.name());
    };
    // The cycles around the branch that the definition is outside of:
    // the threads left them on the way (possibly in different iterations).
    let left: Vec<usize> = ci
        .containing
        .get(d)
        .map(|cs| {
            cs.iter()
                .copied()
                .filter(|&c| !ci.cycles[c].blocks.contains(&def_block))
                .collect()
        })
        .unwrap_or_default();
    let exits = !left.is_empty();
    // Directly at an exit: both threads come to the definition's block
    // from inside a cycle they left.
    let direct = [(0, ia), (1, ib)].iter().all(|&(t, i)| {
        pred(t, i).is_some_and(|p| left.iter().any(|&c| ci.cycles[c].blocks.contains(&p)))
    });
    let irr = if irreducible(d) || irreducible(def_block) {
        "irreducible-"
    } else {
        ""
    };
    let mech = match (kind, preds_differ) {
        (Kind::Phi, true) => "join",
        (Kind::Phi, false) if exits => "temporal",
        (Kind::Phi, false) => "same-edge",
        (_, _) if exits => "temporal",
        (_, _) => "after-branch",
    };
    let place = match (exits, direct) {
        (false, _) => "",
        (true, true) => "-at-cycle-exit",
        (true, false) => "-after-cycle-exit",
    };
    format!("{irr}{}-{mech}{place}", kind.name())
}
