//! Keeping phis correct while passes rewrite edges (LLVM's `PHINode`
//! bookkeeping in `BasicBlockUtils` and `Local.cpp`).
//!
//! A phi ([`InstKind::Phi`]) gives its local the value of the edge its
//! block was entered by; the phis at the start of a block read their
//! operands together, then set their locals, and the interpreter runs only
//! that leading run of phis. So every pass that changes edges must say,
//! for every phi, which value each new edge brings:
//!
//! - [`check`]: the precondition of the passes that move or merge
//!   instructions: every phi stands in the leading run of its block (a phi
//!   after another instruction does nothing, and would start doing
//!   something if the instructions before it moved away).
//! - [`single_entry_as_assignments`]: a block with one predecessor `p`
//!   (merged into `p`) turns its phis into assignments of their values for
//!   `p`, when doing them one after the other gives what doing them
//!   together gives.
//! - [`rename_pred`]: a block's phis are now entered from `to` instead of
//!   `from`.
//! - [`can_forward`] and [`forward`]: an empty block `b` that branches to
//!   `s` is bypassed; `s`'s phis get `b`'s value for each predecessor of
//!   `b` (unless one already brings a different value; LLVM's
//!   `CanPropagatePredecessorsForPHIs`).
//! - [`can_sink_past`]: an instruction can move to just after a block's
//!   phis without changing what it reads or the order of what they do.
//! - [`to_preheader`]: a loop header's values from outside the loop now
//!   come through a new preheader.
//! - [`clone_loop`]: a cloned loop's phis name the cloned blocks, and the
//!   exits' phis get a value for every edge from a clone.
//! - [`prune`]: drops incoming values of edges that no longer exist.

use crate::PassError;
use convcheck_ir::{Block, BlockId, Cfg, Expr, Inst, InstKind, Module};

/// The number of phis at the start of `block`.
pub(crate) fn leading(block: &Block) -> usize {
    block
        .insts
        .iter()
        .take_while(|i| matches!(i.kind, InstKind::Phi { .. }))
        .count()
}

/// Refuses a module with a phi after a non-phi instruction of its block.
pub(crate) fn check(pass: &str, module: &Module) -> Result<(), PassError> {
    for cfg in &module.functions {
        for block in &cfg.blocks {
            let n = leading(block);
            if let Some(i) = block.insts[n..]
                .iter()
                .position(|i| matches!(i.kind, InstKind::Phi { .. }))
            {
                return Err(PassError(format!(
                    "{pass}: @{}, block %{}: the phi at instruction {} follows a non-phi instruction; phis must stand at the start of their block",
                    cfg.name,
                    block.name,
                    n + i
                )));
            }
        }
    }
    Ok(())
}

/// Whether `e` reads or assigns local `name`.
fn mentions(e: &Expr, name: &str) -> bool {
    e.any(&mut |x| match x {
        Expr::Var(v) | Expr::Assign { var: v, .. } => v == name,
        _ => false,
    })
}

/// The leading phis of `block`, entered only from `p`, as assignments of
/// their values for `p` (same op, same token), or `None` when a phi has no
/// value for `p` or when an operand mentions the local of an earlier phi
/// (which the assignments would already have changed).
pub(crate) fn single_entry_as_assignments(block: &Block, p: BlockId) -> Option<Vec<Inst>> {
    let mut out: Vec<Inst> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for inst in &block.insts[..leading(block)] {
        let InstKind::Phi { name, incoming } = &inst.kind else {
            break;
        };
        let (_, value) = incoming.iter().find(|(q, _)| *q == p)?;
        if names.iter().any(|n| mentions(value, n)) {
            return None;
        }
        names.push(name);
        out.push(Inst {
            kind: InstKind::SetLocal {
                name: name.clone(),
                value: Some(value.clone()),
            },
            sid: inst.sid,
            token: inst.token.clone(),
        });
    }
    Some(out)
}

/// The leading phis of `block` name `to` where they named `from`.
pub(crate) fn rename_pred(block: &mut Block, from: BlockId, to: BlockId) {
    let n = leading(block);
    for inst in &mut block.insts[..n] {
        if let InstKind::Phi { incoming, .. } = &mut inst.kind {
            for (q, _) in incoming.iter_mut() {
                if *q == from {
                    *q = to;
                }
            }
        }
    }
}

/// Whether the empty block `b` (predecessors `preds_b`, successor `s`) can
/// be bypassed: every predecessor of `b` that already enters `s` directly
/// brings the same value as `b` to every phi of `s`.
pub(crate) fn can_forward(cfg: &Cfg, preds_b: &[BlockId], b: BlockId, s: BlockId) -> bool {
    let preds_s = cfg.preds();
    let block = &cfg.blocks[s];
    block.insts[..leading(block)].iter().all(|inst| {
        let InstKind::Phi { incoming, .. } = &inst.kind else {
            return true;
        };
        let Some((_, v)) = incoming.iter().find(|(q, _)| *q == b) else {
            return true;
        };
        preds_b.iter().all(|q| {
            !preds_s[s].contains(q)
                || incoming
                    .iter()
                    .find(|(r, _)| r == q)
                    .is_some_and(|(_, w)| w == v)
        })
    })
}

/// Bypasses the empty block `b` in the phis of `s`: each predecessor of `b`
/// brings `b`'s value (an empty block changes nothing between its
/// predecessor's end and its own). Call [`can_forward`] first.
pub(crate) fn forward(cfg: &mut Cfg, preds_b: &[BlockId], b: BlockId, s: BlockId) {
    let preds_s = cfg.preds()[s].clone();
    let block = &mut cfg.blocks[s];
    let n = leading(block);
    for inst in &mut block.insts[..n] {
        let InstKind::Phi { incoming, .. } = &mut inst.kind else {
            continue;
        };
        let Some(at) = incoming.iter().position(|(q, _)| *q == b) else {
            continue;
        };
        let (_, v) = incoming.remove(at);
        for &q in preds_b {
            if preds_s.contains(&q) && incoming.iter().any(|(r, _)| *r == q) {
                // Already there with the same value (`can_forward`).
                continue;
            }
            incoming.retain(|(r, _)| *r != q);
            incoming.push((q, v.clone()));
        }
    }
}

/// Whether `inst` can move from the end of the predecessors of `block` to
/// just after its leading phis: it reads no local a phi sets, and no phi
/// operand has an operation, an oracle read or an assignment whose order
/// against `inst` would change.
pub(crate) fn can_sink_past(block: &Block, inst: &Inst) -> bool {
    block.insts[..leading(block)].iter().all(|phi| {
        let InstKind::Phi { name, incoming } = &phi.kind else {
            return true;
        };
        let read_by_inst = match &inst.kind {
            InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => mentions(e, name),
            _ => false,
        };
        let busy = incoming.iter().any(|(_, e)| {
            e.any(&mut |x| {
                matches!(
                    x,
                    Expr::Oracle(_)
                        | Expr::Call { .. }
                        | Expr::Load { .. }
                        | Expr::Store { .. }
                        | Expr::Assign { .. }
                )
            })
        });
        !read_by_inst && !busy
    })
}

/// The outside predecessors `outside` of `header` now branch to the empty
/// block `pre`, which branches to `header`. Each phi of `header` takes one
/// value from `pre`: the outside value when they all agree (the empty
/// preheader changes nothing), else its own local, which a phi of the same
/// local in `pre` sets from the outside values. Phis read their operands
/// together, so the header's phis still see the values from before `pre`.
pub(crate) fn to_preheader(cfg: &mut Cfg, header: BlockId, pre: BlockId, outside: &[BlockId]) {
    let n = leading(&cfg.blocks[header]);
    let mut pre_phis = Vec::new();
    for inst in &mut cfg.blocks[header].insts[..n] {
        let InstKind::Phi { name, incoming } = &mut inst.kind else {
            continue;
        };
        let (out, stay): (Vec<_>, Vec<_>) = std::mem::take(incoming)
            .into_iter()
            .partition(|(q, _)| outside.contains(q));
        *incoming = stay;
        let Some((_, first)) = out.first() else {
            continue;
        };
        if out.iter().all(|(_, v)| v == first) {
            incoming.push((pre, first.clone()));
        } else {
            incoming.push((pre, Expr::Var(name.clone())));
            pre_phis.push(Inst {
                kind: InstKind::Phi {
                    name: name.clone(),
                    incoming: out,
                },
                sid: inst.sid,
                token: inst.token.clone(),
            });
        }
    }
    let block = &mut cfg.blocks[pre];
    block.insts.splice(0..0, pre_phis);
}

/// The blocks of a loop were cloned (`map`: original to clone, terminators
/// already mapped): the clones' phis name the cloned predecessors, and
/// every block outside the loop and its clone gives the edge from a clone
/// the value of the edge from its original.
pub(crate) fn clone_loop(cfg: &mut Cfg, map: &std::collections::BTreeMap<BlockId, BlockId>) {
    let clones: Vec<BlockId> = map.values().copied().collect();
    for (b, block) in cfg.blocks.iter_mut().enumerate() {
        let is_clone = clones.contains(&b);
        if !is_clone && map.contains_key(&b) {
            continue;
        }
        let n = leading(block);
        for inst in &mut block.insts[..n] {
            let InstKind::Phi { incoming, .. } = &mut inst.kind else {
                continue;
            };
            if is_clone {
                for (q, _) in incoming.iter_mut() {
                    if let Some(c) = map.get(q) {
                        *q = *c;
                    }
                }
            } else {
                let extra: Vec<(BlockId, Expr)> = incoming
                    .iter()
                    .filter_map(|(q, v)| map.get(q).map(|c| (*c, v.clone())))
                    .collect();
                incoming.extend(extra);
            }
        }
    }
}

/// Drops, from every leading phi, the values of edges that no longer
/// exist.
pub(crate) fn prune(cfg: &mut Cfg) {
    let preds = cfg.preds();
    for (b, block) in cfg.blocks.iter_mut().enumerate() {
        let n = leading(block);
        for inst in &mut block.insts[..n] {
            if let InstKind::Phi { incoming, .. } = &mut inst.kind {
                incoming.retain(|(q, _)| preds[b].contains(q));
            }
        }
    }
}
