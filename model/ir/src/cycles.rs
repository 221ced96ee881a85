//! The cycle hierarchy of a CFG, as LLVM's CycleInfo defines it
//! (CycleTerminology; DESIGN.md 2.3).
//!
//! - The top-level cycles are the maximal strongly connected regions of the
//!   reachable CFG that have an internal edge (a self-loop counts).
//! - A cycle's *entries* are its blocks with a predecessor outside it (the
//!   function's entry block counts as entered from outside). A cycle with
//!   one entry is reducible.
//! - Its *header* is one of its entries. LLVM picks the entry that its
//!   depth-first search from the function entry reaches first; that search
//!   visits a block's successors last to first (GenericCycleImpl.h).
//!   [`CycleInfo::compute`] does the same, and
//!   [`CycleInfo::compute_with`] lets the caller pick, to enumerate every
//!   hierarchy of an irreducible CFG ([`all_hierarchies`]).
//! - The children of a cycle are the maximal strongly connected regions with
//!   an internal edge of the cycle's blocks with its header removed,
//!   recursively.
//!
//! With such a hierarchy the key rule of maximal convergence agrees with
//! LLVM's relational definition; with natural loops alone on an irreducible
//! CFG it does not (DESIGN.md 2.3).

use crate::cfg::{BlockId, Cfg};
use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use std::collections::BTreeSet;

/// One cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The chosen header, one of `entries`.
    pub header: BlockId,
    /// Blocks with a predecessor outside the cycle, ascending.
    pub entries: Vec<BlockId>,
    /// The blocks of the cycle, children's included.
    pub blocks: BTreeSet<BlockId>,
    /// The enclosing cycle.
    pub parent: Option<usize>,
    /// Nesting depth, 1 for top-level cycles.
    pub depth: usize,
}

impl Cycle {
    /// Whether the cycle has a single entry.
    pub fn is_reducible(&self) -> bool {
        self.entries.len() == 1
    }
}

/// The cycle hierarchy of one CFG.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CycleInfo {
    /// Cycles, parents before children.
    pub cycles: Vec<Cycle>,
    /// For every block, the cycles containing it, innermost first.
    pub containing: Vec<Vec<usize>>,
}

/// Pre-order numbers of LLVM's depth-first search from the entry, which
/// visits successors last to first; `usize::MAX` for unreachable blocks.
pub fn dfs_preorder(cfg: &Cfg) -> Vec<usize> {
    let mut num = vec![usize::MAX; cfg.blocks.len()];
    let mut next = 0;
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if b >= num.len() || num[b] != usize::MAX {
            continue;
        }
        num[b] = next;
        next += 1;
        // Pushed first to last, so the last successor is popped first.
        for s in cfg.blocks[b].term.succs() {
            stack.push(s);
        }
    }
    num
}

impl CycleInfo {
    /// LLVM's hierarchy: headers are the entries the depth-first search
    /// reaches first.
    pub fn compute(cfg: &Cfg) -> CycleInfo {
        let pre = dfs_preorder(cfg);
        CycleInfo::compute_with(cfg, &mut |entries| {
            entries
                .iter()
                .copied()
                .min_by_key(|&e| pre[e])
                .unwrap_or(entries[0])
        })
    }

    /// The hierarchy obtained by choosing each cycle's header with
    /// `choose` (given the cycle's entries, ascending).
    pub fn compute_with(cfg: &Cfg, choose: &mut dyn FnMut(&[BlockId]) -> BlockId) -> CycleInfo {
        let preds = cfg.preds();
        let reach: BTreeSet<BlockId> = cfg.reachable().into_iter().collect();
        let reach_all = reach.clone();
        let mut info = CycleInfo {
            cycles: Vec::new(),
            containing: vec![Vec::new(); cfg.blocks.len()],
        };
        // Work list of (region, parent cycle).
        let mut work: Vec<(BTreeSet<BlockId>, Option<usize>)> = vec![(reach_all.clone(), None)];
        let reach = reach_all;
        while let Some((region, parent)) = work.pop() {
            for scc in sccs(cfg, &region) {
                let mut entries: Vec<BlockId> = scc
                    .iter()
                    .copied()
                    .filter(|&b| {
                        b == 0
                            || preds[b]
                                .iter()
                                .any(|p| reach.contains(p) && !scc.contains(p))
                    })
                    .collect();
                entries.sort_unstable();
                if entries.is_empty() {
                    // Unreachable from outside: cannot happen for reachable
                    // blocks, but stay total.
                    entries.push(*scc.iter().next().unwrap_or(&0));
                }
                let header = choose(&entries);
                let depth = parent.map_or(1, |p| info.cycles[p].depth + 1);
                let id = info.cycles.len();
                info.cycles.push(Cycle {
                    header,
                    entries,
                    blocks: scc.clone(),
                    parent,
                    depth,
                });
                let mut inner = scc;
                inner.remove(&header);
                work.push((inner, Some(id)));
            }
        }
        // Containing lists, innermost first: deeper cycles first.
        let mut order: Vec<usize> = (0..info.cycles.len()).collect();
        order.sort_by_key(|&c| std::cmp::Reverse(info.cycles[c].depth));
        for c in order {
            for &b in &info.cycles[c].blocks {
                info.containing[b].push(c);
            }
        }
        info
    }

    /// Whether block `b` is the header of some cycle.
    pub fn is_header(&self, b: BlockId) -> bool {
        self.cycles.iter().any(|c| c.header == b)
    }

    /// Whether every cycle is reducible.
    pub fn is_reducible(&self) -> bool {
        self.cycles.iter().all(Cycle::is_reducible)
    }

    /// A one-line description: `header{blocks}` per cycle, nested.
    pub fn describe(&self, cfg: &Cfg) -> String {
        let mut parts = Vec::new();
        for c in &self.cycles {
            let blocks: Vec<&str> = c
                .blocks
                .iter()
                .map(|&b| cfg.blocks[b].name.as_str())
                .collect();
            parts.push(format!(
                "{}cycle header {} {{{}}}{}",
                "  ".repeat(c.depth - 1),
                cfg.blocks[c.header].name,
                blocks.join(", "),
                if c.is_reducible() {
                    ""
                } else {
                    " (irreducible)"
                }
            ));
        }
        parts.join("\n")
    }
}

/// The strongly connected regions of the subgraph on `region` that have an
/// internal edge, each as a set, in a deterministic order.
fn sccs(cfg: &Cfg, region: &BTreeSet<BlockId>) -> Vec<BTreeSet<BlockId>> {
    let nodes: Vec<BlockId> = region.iter().copied().collect();
    let mut g = DiGraph::<BlockId, ()>::new();
    let idx: Vec<_> = nodes.iter().map(|&b| g.add_node(b)).collect();
    let pos = |b: BlockId| nodes.binary_search(&b).ok();
    for (i, &b) in nodes.iter().enumerate() {
        for s in cfg.blocks[b].term.succs() {
            if let Some(j) = pos(s) {
                g.update_edge(idx[i], idx[j], ());
            }
        }
    }
    let mut out: Vec<BTreeSet<BlockId>> = tarjan_scc(&g)
        .into_iter()
        .map(|c| c.into_iter().map(|n| g[n]).collect::<BTreeSet<_>>())
        .filter(|c| c.len() > 1 || c.iter().any(|&b| cfg.blocks[b].term.succs().contains(&b)))
        .collect();
    out.sort();
    out
}

/// How many cycle hierarchies of one irreducible CFG the tools enumerate.
/// An irreducible CFG with more gets a report that names the cap: `run`
/// says it compared "the first 16", and a check whose target refines none
/// of them is inconclusive rather than violated.
pub const HIERARCHY_CAP: usize = 16;

/// Every cycle hierarchy of a CFG (every choice of header among the entries
/// of every irreducible cycle, recursively), LLVM's first, at most `limit`.
pub fn all_hierarchies(cfg: &Cfg, limit: usize) -> Vec<CycleInfo> {
    let first = CycleInfo::compute(cfg);
    let mut out = vec![first.clone()];
    // Choices are explored as sequences of entry indices, one per cycle in
    // the order compute_with asks for them.
    let mut stack: Vec<Vec<usize>> = vec![Vec::new()];
    let mut seen = vec![first];
    while let Some(prefix) = stack.pop() {
        if out.len() >= limit {
            break;
        }
        let mut asked = 0;
        let mut arity = Vec::new();
        let info = CycleInfo::compute_with(cfg, &mut |entries| {
            let k = prefix.get(asked).copied().unwrap_or(0);
            asked += 1;
            arity.push(entries.len());
            entries[k.min(entries.len() - 1)]
        });
        if !seen.contains(&info) {
            seen.push(info.clone());
            out.push(info);
        }
        // Branch on the first choice point past the prefix.
        if let Some(&n) = arity.get(prefix.len()) {
            for k in (0..n).rev() {
                let mut p = prefix.clone();
                p.push(k);
                stack.push(p);
            }
        }
    }
    out
}
