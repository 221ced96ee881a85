//! An unbounded proof by structure (DESIGN.md 2.7, "proved"; issue 10
//! item 3): the target is the reference up to block names, block order and
//! the merging of straight-line chains, so every thread runs the same
//! instructions in the same order on the same values, for every iteration
//! count, and the cycle hierarchy that keys its convergent operations is
//! the same.
//!
//! **The rule.** Both programs have the same op and oracle tables (so an
//! instruction names the same operation on both sides) and the same
//! functions reachable from the entry. Each reachable function is brought
//! to a canonical form: blocks unreachable from its entry dropped, and
//! every edge `A -> B` where `A` ends in an unconditional branch to `B`,
//! `B` is not the entry, `B != A`, `A` is `B`'s only predecessor and `B`
//! has no phi is contracted (`B`'s instructions and terminator appended to
//! `A`). The canonical forms must be isomorphic from the entry: paired
//! blocks have equal instructions (phi operands through the pairing) and
//! terminators equal but for their successors, which are paired in order.
//! Every cycle of both programs must be reducible.
//!
//! **Why it is sound.** Contracting such an edge changes no run: a thread
//! that reaches `A` goes on to `B` and nowhere else, and nothing else
//! reaches `B`. It changes no cycle's header either: if `B` lies on a
//! cycle its only predecessor `A` does too, so `B` is never entered from
//! outside a cycle containing it, and a cycle's header (its single entry,
//! the cycles being reducible) is never `B`; the cycles containing `A` and
//! `B` are the same. So the maximal-convergence key of an instance in `B`
//! (DESIGN.md 2.3: the node and the most recent header instance) is equal
//! between two threads iff the key of the instance of the contracted block
//! is. An isomorphism maps reducible cycles to cycles with corresponding
//! headers, so keys correspond, and equal instruction sequences give equal
//! events. Hazards follow from events and convergence (see `support`).
//!
//! **Where it does not apply.** Anything else: a removed empty block that
//! is a cycle header (what folds the seed's loop_nest into one cycle under
//! `simplifycfg`), a hoist, a duplicated or a reordered instruction, an
//! irreducible cycle (its header is a choice). The bounded search decides
//! those.

use super::support::reachable_functions;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{BlockId, Cfg, FuncId, Inst, InstKind, Term};
use std::collections::BTreeMap;

/// A function in canonical form: per kept block, its instructions and its
/// terminator; block 0 is the entry.
struct Canonical {
    blocks: Vec<(Vec<Inst>, Term)>,
    /// Straight-line edges contracted.
    merged: usize,
}

/// `Some(contracted edges)` when the rule proves `target` equivalent to
/// `reference` from `entry`, `None` when it does not apply.
pub(crate) fn same_up_to_straight_line(
    reference: &CfgProgram,
    target: &CfgProgram,
    entry: FuncId,
) -> Option<usize> {
    let (r, t) = (&reference.module, &target.module);
    if r.ops != t.ops || r.oracles != t.oracles {
        return None;
    }
    let funcs = reachable_functions(reference, entry).ok()?;
    if reachable_functions(target, entry).ok()? != funcs {
        return None;
    }
    let mut merged = 0;
    for f in funcs {
        let (rf, tf) = (r.functions.get(f)?, t.functions.get(f)?);
        if rf.params != tf.params || rf.param_oracles != tf.param_oracles {
            return None;
        }
        for p in [reference, target] {
            if p.cycles.get(f)?.cycles.iter().any(|c| !c.is_reducible()) {
                return None;
            }
        }
        let (a, b) = (canonical(rf), canonical(tf));
        if !isomorphic(&a, &b) {
            return None;
        }
        merged += a.merged + b.merged;
    }
    Some(merged)
}

fn canonical(cfg: &Cfg) -> Canonical {
    let reach = cfg.reachable();
    let mut preds: BTreeMap<BlockId, usize> = BTreeMap::new();
    for &b in &reach {
        for s in cfg.blocks[b].term.succs() {
            *preds.entry(s).or_default() += 1;
        }
    }
    // The head of the chain each block was contracted into.
    let mut head: BTreeMap<BlockId, BlockId> = reach.iter().map(|&b| (b, b)).collect();
    let mut body: BTreeMap<BlockId, (Vec<Inst>, Term)> = reach
        .iter()
        .map(|&b| (b, (cfg.blocks[b].insts.clone(), cfg.blocks[b].term.clone())))
        .collect();
    let mut merged = 0;
    for &a in &reach {
        if head[&a] != a {
            continue;
        }
        while let Some((_, Term::Br(next))) = body.get(&a) {
            let next = *next;
            let phi = cfg.blocks[next]
                .insts
                .iter()
                .any(|i| matches!(i.kind, InstKind::Phi { .. }));
            if next == 0
                || next == a
                || preds.get(&next) != Some(&1)
                || phi
                || head.get(&next) != Some(&next)
            {
                break;
            }
            let Some((insts, term)) = body.remove(&next) else {
                break;
            };
            if let Some((ai, at)) = body.get_mut(&a) {
                ai.extend(insts);
                *at = term;
            }
            for h in head.values_mut() {
                if *h == next {
                    *h = a;
                }
            }
            merged += 1;
        }
    }
    // Number the kept blocks, the entry first, and point successors and
    // phi operands at the numbers.
    let kept: Vec<BlockId> = body.keys().copied().collect();
    let number: BTreeMap<BlockId, usize> = kept.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let renumber = |b: BlockId| {
        head.get(&b)
            .and_then(|h| number.get(h))
            .copied()
            .unwrap_or(usize::MAX)
    };
    let blocks = kept
        .iter()
        .map(|b| {
            let (mut insts, mut term) = body[b].clone();
            for i in insts.iter_mut() {
                if let InstKind::Phi { incoming, .. } = &mut i.kind {
                    for (p, _) in incoming.iter_mut() {
                        *p = renumber(*p);
                    }
                }
            }
            // A successor is a head (only edges into heads remain).
            term.map_succs(|s| number.get(&s).copied().unwrap_or(usize::MAX));
            (insts, term)
        })
        .collect();
    Canonical { blocks, merged }
}

/// Whether `a` and `b` are the same graph from their entries, pairing
/// blocks by the order of successors.
fn isomorphic(a: &Canonical, b: &Canonical) -> bool {
    let mut to_b: BTreeMap<usize, usize> = BTreeMap::new();
    let mut to_a: BTreeMap<usize, usize> = BTreeMap::new();
    let mut work = vec![(0usize, 0usize)];
    to_b.insert(0, 0);
    to_a.insert(0, 0);
    let mut pending: Vec<(usize, usize)> = Vec::new();
    while let Some((x, y)) = work.pop() {
        let (Some((xi, xt)), Some((yi, yt))) = (a.blocks.get(x), b.blocks.get(y)) else {
            return false;
        };
        let (xs, ys) = (xt.succs(), yt.succs());
        if xs.len() != ys.len() || xi.len() != yi.len() {
            return false;
        }
        // Terminators equal but for successors.
        let mut xt0 = xt.clone();
        let mut yt0 = yt.clone();
        xt0.map_succs(|_| 0);
        yt0.map_succs(|_| 0);
        if xt0 != yt0 {
            return false;
        }
        for (&s, &u) in xs.iter().zip(&ys) {
            match (to_b.get(&s), to_a.get(&u)) {
                (None, None) => {
                    to_b.insert(s, u);
                    to_a.insert(u, s);
                    work.push((s, u));
                }
                (Some(&u2), Some(&s2)) if u2 == u && s2 == s => {}
                _ => return false,
            }
        }
        pending.push((x, y));
    }
    // Instructions, phi operands through the pairing (all blocks paired).
    pending.iter().all(|&(x, y)| {
        a.blocks[x]
            .0
            .iter()
            .zip(&b.blocks[y].0)
            .all(|(i, j)| match (&i.kind, &j.kind) {
                (
                    InstKind::Phi {
                        name: n1,
                        incoming: in1,
                    },
                    InstKind::Phi {
                        name: n2,
                        incoming: in2,
                    },
                ) => {
                    i.sid == j.sid
                        && i.token == j.token
                        && n1 == n2
                        && in1.len() == in2.len()
                        && in1
                            .iter()
                            .zip(in2)
                            .all(|((p, e), (q, f))| e == f && to_b.get(p) == Some(q))
                }
                _ => i == j,
            })
    })
}
