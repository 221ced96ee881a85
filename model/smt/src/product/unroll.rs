//! Unrolling a CFG along its cycle hierarchy (DESIGN.md 2.3, 2.5): block
//! copies whose static key *is* the maximal-convergence key.
//!
//! **The copy of a block instance.** Let `C1 ⊃ C2 ⊃ ... ⊃ Cd` be the cycles
//! containing block `X` (outermost first, in the chosen hierarchy, LLVM's
//! CycleInfo) and `h1 .. hd` their headers. The copy of an instance of `X`
//! is `(X, c1 .. cd)` where `cj` is the number of instances of `hj` since
//! the most recent instance of any `hk`, `k < j` (since the invocation
//! started for `j = 1`); `cj = 0` means the thread has not been through
//! `hj` since then (possible when a cycle is entered at an entry other than
//! its header). Iteration `n` of a cycle (from 0, as the interpreter counts
//! them) is its header's copy with count `n + 1`.
//!
//! **Copies are keys.** The interpreter keys an instance of `X` by the key
//! of the most recent instance of a header of a cycle containing `X`,
//! strictly before it, plus `X` (`exec/cfg.rs`). Unfolding that rule, the
//! key is the chain `h1^c1 h2^c2 .. hd^cd X` (without the final `X` when
//! `X = hd` is a header: its own instance ends the chain): a header
//! instance of level `m` extends the chain of the latest header instance of
//! a level `<= m`, so instances of deeper headers drop out of the chain and
//! each level counts the consecutive instances of its header. Since the
//! headers of one chain are distinct blocks, the chain and the copy
//! determine each other: **two instances (of one invocation) are converged
//! iff they are instances of the same copy.** [`key_atoms`] writes the
//! chain out, and `tests/product_keys.rs` checks that it is exactly the
//! interpreter's key on random CFGs.
//!
//! **Transitions.** From copy `(A, cA)` along an edge to `B`: the counts of
//! the cycles containing both `A` and `B` (a common outermost prefix of the
//! two chains) carry over; the cycles containing `B` but not `A` are being
//! entered and start at 0 (leaving a cycle and coming back passes through
//! the header of an enclosing cycle, which resets them anyway); if `B` is a
//! header (necessarily of its innermost cycle) its count grows by one.
//!
//! **Acyclic.** Every closed path of the CFG passes through the header of
//! the smallest cycle containing it, whose count then grows while the
//! counts of the enclosing cycles stay, so the copies form a DAG; the bound
//! `max_iters` (a header count above `max_iters + 1`) makes it finite.
//! Reaching a copy past the bound is a *cut* edge: the run is outside the
//! bounds, never silently dropped.

use super::tokens::{Env, TokenPlan};
use crate::{Limit, Unknown};
use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::key::Atom;
use convcheck_ir::{BlockId, Cfg};
use std::collections::HashMap;

/// The cycles containing `b`, outermost first.
pub fn chain(ci: &CycleInfo, b: BlockId) -> Vec<usize> {
    let mut v = ci.containing.get(b).cloned().unwrap_or_default();
    v.reverse();
    v
}

/// The counts of the copy reached from `from` (a block and its counts, or
/// `None` at the start of an invocation) along an edge to `to`, unbounded.
pub fn step(ci: &CycleInfo, from: Option<(BlockId, &[u32])>, to: BlockId) -> Vec<u32> {
    let to_chain = chain(ci, to);
    let mut counts = vec![0u32; to_chain.len()];
    if let Some((a, ca)) = from {
        let a_chain = chain(ci, a);
        for (j, c) in to_chain.iter().enumerate() {
            match a_chain.get(j) {
                Some(x) if x == c => counts[j] = ca.get(j).copied().unwrap_or(0),
                _ => break,
            }
        }
    }
    if let (Some(&inner), Some(last)) = (to_chain.last(), counts.last_mut()) {
        if ci.cycles[inner].header == to {
            *last += 1;
        }
    }
    counts
}

/// The interpreter's key of an instance of copy `(b, counts)` of an
/// invocation whose key is `prefix` (see the module documentation).
pub fn key_atoms(ci: &CycleInfo, prefix: &[Atom], b: BlockId, counts: &[u32]) -> Vec<Atom> {
    let mut key = prefix.to_vec();
    let ch = chain(ci, b);
    for (j, &c) in ch.iter().enumerate() {
        let h = ci.cycles[c].header;
        for _ in 0..counts.get(j).copied().unwrap_or(0) {
            key.push(Atom::Block(h as u32));
        }
    }
    let is_own_header = ch.last().is_some_and(|&c| ci.cycles[c].header == b);
    if !is_own_header {
        key.push(Atom::Block(b as u32));
    }
    key
}

/// Where an edge of a copy leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Another copy (an index into [`Unrolled::nodes`]).
    Node(usize),
    /// A copy past the bound: the header starts iteration `iteration`
    /// (from 0), more than the bound allows.
    Cut {
        /// The header.
        header: BlockId,
        /// The iteration it would start.
        iteration: u32,
    },
    /// A block the CFG does not have.
    Missing(BlockId),
}

/// One copy of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The block.
    pub block: BlockId,
    /// The count of every cycle containing it, outermost first.
    pub counts: Vec<u32>,
    /// The instances of the tokens live on entry to the block
    /// ([`TokenPlan`]; empty without tokens).
    pub live: Vec<u32>,
    /// The maximal-convergence copy: equal for copies of one block with
    /// equal counts (copies that differ only in their token instances).
    pub mc: u32,
    /// Per instruction, the token instance controlling it (`None` for an
    /// uncontrolled instruction or a token definition); empty when the
    /// function has no tokens.
    pub controlled: Vec<Option<u32>>,
    /// One edge per distinct successor block, in the order of the
    /// terminator's successors.
    pub succs: Vec<(BlockId, Target)>,
}

/// A function unrolled to a bound: its copies in topological order, the
/// entry copy first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrolled {
    /// The copies.
    pub nodes: Vec<Node>,
    /// Whether some edge is cut by the bound.
    pub has_cut: bool,
}

/// Distinct successors of a block, in order.
pub fn distinct_succs(cfg: &Cfg, b: BlockId) -> Vec<BlockId> {
    let mut out: Vec<BlockId> = Vec::new();
    for s in cfg.blocks[b].term.succs() {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// Unrolls `cfg` under hierarchy `ci`, with at most `max_iters + 1`
/// instances of each header per iteration of its parent (iterations 0 to
/// `max_iters`, as the interpreter's bound), and at most `max_nodes`
/// copies.
pub fn unroll(
    cfg: &Cfg,
    ci: &CycleInfo,
    max_iters: u32,
    max_nodes: usize,
) -> Result<Unrolled, Unknown> {
    if cfg.blocks.is_empty() {
        return Err(Unknown::unsupported(format!(
            "function `{}` has no blocks",
            cfg.name
        )));
    }
    let mut plan = TokenPlan::new(cfg, ci).map_err(Unknown::unsupported)?;
    let mut index: HashMap<(BlockId, Vec<u32>, Vec<u32>), usize> = HashMap::new();
    let mut mcs: HashMap<(BlockId, Vec<u32>), u32> = HashMap::new();
    let mut mc_of = |b: BlockId, c: &[u32]| -> u32 {
        let next = mcs.len() as u32;
        *mcs.entry((b, c.to_vec())).or_insert(next)
    };
    let mut nodes: Vec<Node> = Vec::new();
    let limit = max_iters.saturating_add(1);
    let start = step(ci, None, 0);
    if start.iter().any(|&c| c > limit) {
        // Only possible with a bound below 0 iterations, which u32 forbids.
        return Err(Unknown::incomplete(
            "internal: the entry copy is past the bound",
        ));
    }
    let start_live = plan
        .as_ref()
        .map(|p| p.live(0, &Env::new()))
        .unwrap_or_default();
    index.insert((0, start.clone(), start_live.clone()), 0);
    nodes.push(Node {
        block: 0,
        mc: mc_of(0, &start),
        counts: start,
        live: start_live,
        controlled: Vec::new(),
        succs: Vec::new(),
    });
    let mut work = vec![0usize];
    let mut has_cut = false;
    while let Some(n) = work.pop() {
        let (b, counts) = (nodes[n].block, nodes[n].counts.clone());
        let env = match plan.as_mut() {
            Some(p) => {
                let (controlled, env) = p
                    .run_block(cfg, ci, b, &counts, &nodes[n].live)
                    .map_err(Unknown::unsupported)?;
                nodes[n].controlled = controlled;
                env
            }
            // Without tokens nothing is controlled: `controlled` stays empty.
            None => Env::new(),
        };
        let mut succs = Vec::new();
        for s in distinct_succs(cfg, b) {
            if s >= cfg.blocks.len() {
                succs.push((s, Target::Missing(s)));
                continue;
            }
            let c = step(ci, Some((b, &counts)), s);
            if c.last().is_some_and(|&x| x > limit) {
                has_cut = true;
                succs.push((
                    s,
                    Target::Cut {
                        header: s,
                        iteration: c.last().copied().unwrap_or(1) - 1,
                    },
                ));
                continue;
            }
            let live = plan.as_ref().map(|p| p.live(s, &env)).unwrap_or_default();
            let key = (s, c, live);
            let m = match index.get(&key) {
                Some(&m) => m,
                None => {
                    if nodes.len() >= max_nodes {
                        return Err(Unknown::new(
                            Limit::Size,
                            format!(
                                "unrolling `{}` to max-iters={max_iters} makes more than {max_nodes} block copies",
                                cfg.name
                            ),
                        ));
                    }
                    let m = nodes.len();
                    nodes.push(Node {
                        block: key.0,
                        mc: mc_of(key.0, &key.1),
                        counts: key.1.clone(),
                        live: key.2.clone(),
                        controlled: Vec::new(),
                        succs: Vec::new(),
                    });
                    index.insert(key, m);
                    work.push(m);
                    m
                }
            };
            succs.push((s, Target::Node(m)));
        }
        nodes[n].succs = succs;
    }
    Ok(topological(nodes, has_cut))
}

/// Reorders the copies topologically (depth-first post-order, reversed),
/// which keeps the entry first; edges are renumbered.
fn topological(nodes: Vec<Node>, has_cut: bool) -> Unrolled {
    let n = nodes.len();
    let mut state = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    // Iterative DFS: (node, next successor to visit).
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    state[0] = 1;
    while let Some(top) = stack.last_mut() {
        let (v, i) = *top;
        let next = nodes[v].succs.get(i).map(|s| s.1.clone());
        match next {
            Some(t) => {
                top.1 += 1;
                if let Target::Node(m) = t {
                    if state[m] == 0 {
                        state[m] = 1;
                        stack.push((m, 0));
                    }
                }
            }
            None => {
                state[v] = 2;
                post.push(v);
                stack.pop();
            }
        }
    }
    post.reverse();
    let mut new_index = vec![usize::MAX; n];
    for (i, &v) in post.iter().enumerate() {
        new_index[v] = i;
    }
    let mut old: Vec<Option<Node>> = nodes.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(post.len());
    for &v in &post {
        let mut node = old[v].take().unwrap_or_else(|| Node {
            block: 0,
            counts: Vec::new(),
            live: Vec::new(),
            mc: 0,
            controlled: Vec::new(),
            succs: Vec::new(),
        });
        for s in &mut node.succs {
            if let Target::Node(m) = &mut s.1 {
                *m = new_index[*m];
            }
        }
        out.push(node);
    }
    Unrolled {
        nodes: out,
        has_cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use convcheck_ir::build::cfg_from_successors;

    #[test]
    fn a_self_loop_unrolls_to_its_bound() {
        let cfg = cfg_from_successors(&[vec![1], vec![1, 2], vec![]]);
        let ci = CycleInfo::compute(&cfg);
        let u = unroll(&cfg, &ci, 2, 1000).expect("unrolls");
        // The entry, three copies of the loop (iterations 0 to 2) and one
        // of the exit, which is in no cycle: every run reconverges there.
        assert_eq!(u.nodes.len(), 5);
        assert!(u.has_cut);
        for (i, n) in u.nodes.iter().enumerate() {
            for (_, t) in &n.succs {
                if let Target::Node(m) = t {
                    assert!(*m > i, "edges go forward in topological order");
                }
            }
        }
    }
}
