//! Loop unswitching (LLVM `SimpleLoopUnswitch`).
//!
//! A two-way branch inside a reducible loop whose condition is
//! *loop-invariant* (it reads only oracles of class `invariant` or
//! `uniform_invariant`, `N`, `tid`, constants and locals that the loop
//! never assigns, a phi of the loop counting as an assignment) is hoisted
//! out of the loop:
//!
//! - **trivial** unswitching, when the branch is the loop header's
//!   terminator, the header has no instructions and one successor leaves
//!   the loop: the exit test moves in front of the loop and the loop keeps
//!   only the edge that stays inside;
//! - **non-trivial** unswitching otherwise: the loop is cloned, the
//!   original keeps only the `then` edge of the branch, the clone only the
//!   `else` edge, and the preheader branches on the condition to one or the
//!   other.
//!
//! LLVM does not unswitch non-trivially a loop that contains convergent
//! operations (`SimpleLoopUnswitch` checks `hasConvergentOps` /
//! `isSafeToClone`), because the threads that took different versions no
//! longer execute the same static operations together. `loop-unswitch`
//! unswitches such a loop only when the condition is uniform **and** every
//! convergent operation stays in as many cycles as before: a uniform
//! condition alone is not enough, since unswitching an exit branch of a
//! loop with an inner cycle can move an operation out of a cycle, after
//! which its instances from different iterations converge (found by the
//! `unswitch` theorem in `proofs/tests/unswitch.rs`, 8 of 1,215 rewrites of
//! random five-block CFGs). `loop-unswitch.unsafe` ignores convergence. Loops with
//! convergence-control tokens are never unswitched, nor loops headed by
//! the function's entry block (there is no preheader to decide in).
//!
//! **Phis are kept correct**: the header's values from outside the loop
//! move to the new preheader (as one value when they agree, else as a phi
//! of the same local in the preheader, which the header then reads); the
//! cloned loop's phis name the cloned blocks; an exit block's phis get,
//! for every edge from a cloned block, the value of the original edge; the
//! values of edges the rewrite removes are dropped. A trivially unswitched
//! header holds no instruction, so no phi; an exit's value from it now
//! comes from the preheader, where the exit test moved. A module with a
//! phi after a non-phi instruction of its block is refused with a
//! [`PassError`] that names the block.

use crate::phis;
use crate::uniformity;
use crate::{Pass, PassError};
use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::tokens::is_convergent;
use convcheck_ir::{Block, BlockId, CallKind, Cfg, Expr, InstKind, Module, Term};
use std::collections::{BTreeMap, BTreeSet};

/// `loop-unswitch` and `loop-unswitch.unsafe`.
#[derive(Clone, Debug)]
pub struct LoopUnswitch {
    /// Unswitch loops with convergent operations on divergent conditions.
    pub ignore_convergence: bool,
}

impl Pass for LoopUnswitch {
    fn name(&self) -> String {
        if self.ignore_convergence {
            "loop-unswitch.unsafe".into()
        } else {
            "loop-unswitch".into()
        }
    }

    fn run(&self, module: &mut Module) -> Result<Vec<String>, PassError> {
        phis::check(&self.name(), module)?;
        let mut notes = Vec::new();
        for f in 0..module.functions.len() {
            // The function is rewritten apart from the module, which the
            // uniformity analysis reads for its tables and call graph.
            let mut cfg = module.functions[f].clone();
            // Each unswitch removes one invariant branch from a loop copy;
            // bound the rounds so that nothing can run away.
            let mut rounds = 0;
            while let Some(n) = self.once(module, &mut cfg) {
                notes.push(format!("@{}: {n}", cfg.name));
                rounds += 1;
                if rounds == 8 {
                    notes.push(format!(
                        "@{}: stopped after 8 unswitchings (the pass's limit)",
                        cfg.name
                    ));
                    break;
                }
            }
            module.functions[f] = cfg;
        }
        Ok(notes)
    }
}

/// Locals assigned anywhere in `blocks`.
fn assigned_in(cfg: &Cfg, blocks: &BTreeSet<BlockId>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for &b in blocks {
        for inst in &cfg.blocks[b].insts {
            match &inst.kind {
                InstKind::SetLocal { name, value } => {
                    out.insert(name.clone());
                    if let Some(v) = value {
                        collect_assigns(v, &mut out);
                    }
                }
                InstKind::Phi { name, incoming } => {
                    out.insert(name.clone());
                    for (_, v) in incoming {
                        collect_assigns(v, &mut out);
                    }
                }
                InstKind::Eval(e) => collect_assigns(e, &mut out),
                InstKind::Observe | InstKind::Token { .. } => {}
            }
        }
    }
    out
}

fn collect_assigns(e: &Expr, out: &mut BTreeSet<String>) {
    e.walk(&mut |x| {
        if let Expr::Assign { var, .. } = x {
            out.insert(var.clone());
        }
    });
}

/// Whether `e` has the same value at every evaluation inside the loop: it
/// reads only constants, `tid`, `N`, invariant and uniform-invariant
/// oracles and locals the loop never assigns (parameters included: they
/// are set once, on entry).
fn loop_invariant(module: &Module, e: &Expr, assigned: &BTreeSet<String>) -> bool {
    let invariant = |o: usize| {
        module
            .oracles
            .get(o)
            .is_some_and(|info| info.class.is_invariant())
    };
    !e.any(&mut |x| match x {
        Expr::Const(_)
        | Expr::Tid
        | Expr::GroupSize
        | Expr::Unary(..)
        | Expr::Binary(..)
        | Expr::Select(..) => false,
        Expr::Var(n) => assigned.contains(n),
        Expr::Oracle(o) => !invariant(*o),
        Expr::Call {
            kind: CallKind::Oracle(o),
            ..
        } => !invariant(*o),
        Expr::Call { .. } | Expr::Load { .. } | Expr::Store { .. } | Expr::Assign { .. } => true,
    })
}

impl LoopUnswitch {
    fn once(&self, module: &Module, cfg: &mut Cfg) -> Option<String> {
        let cycles = CycleInfo::compute(cfg);
        let u = uniformity::analyse(module, cfg);
        for c in cycles
            .cycles
            .iter()
            .filter(|c| c.is_reducible() && c.header != 0)
        {
            let blocks = &c.blocks;
            let has_tokens = blocks.iter().any(|&b| {
                cfg.blocks[b]
                    .insts
                    .iter()
                    .any(|i| i.token.is_some() || matches!(i.kind, InstKind::Token { .. }))
            });
            if has_tokens {
                continue;
            }
            let convergent = blocks
                .iter()
                .any(|&b| cfg.blocks[b].insts.iter().any(is_convergent));
            let assigned = assigned_in(cfg, blocks);
            for &b in blocks {
                let Term::CondBr { cond, then, els } = &cfg.blocks[b].term else {
                    continue;
                };
                if then == els || !loop_invariant(module, cond, &assigned) {
                    continue;
                }
                if convergent && u.is_divergent(module, cond) && !self.ignore_convergence {
                    continue;
                }
                let (cond, then, els) = (cond.clone(), *then, *els);
                let header = c.header;
                if convergent && !self.ignore_convergence {
                    // A uniform condition is not enough: the rewrite must
                    // also leave every convergent operation in as many
                    // cycles as before (module doc).
                    let mut trial = cfg.clone();
                    let note = unswitch(&mut trial, blocks, header, b, cond, then, els);
                    if convergent_depths(&trial) != convergent_depths(cfg) {
                        continue;
                    }
                    *cfg = trial;
                    return Some(note);
                }
                return Some(unswitch(cfg, blocks, header, b, cond, then, els));
            }
        }
        None
    }
}

/// For every convergent operation, the numbers of cycles its copies lie
/// in.
fn convergent_depths(cfg: &Cfg) -> BTreeMap<convcheck_ir::OpId, BTreeSet<usize>> {
    let cycles = CycleInfo::compute(cfg);
    let mut out: BTreeMap<_, BTreeSet<usize>> = BTreeMap::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        for inst in block.insts.iter().filter(|i| is_convergent(i)) {
            out.entry(inst.sid)
                .or_default()
                .insert(cycles.containing[b].len());
        }
    }
    out
}

/// Rewrites the loop `blocks` (header `header`) so that the branch at `b`
/// is decided before the loop.
fn unswitch(
    cfg: &mut Cfg,
    blocks: &BTreeSet<BlockId>,
    header: BlockId,
    b: BlockId,
    cond: Expr,
    then: BlockId,
    els: BlockId,
) -> String {
    let preds = cfg.preds();
    let outside: Vec<BlockId> = preds[header]
        .iter()
        .copied()
        .filter(|p| !blocks.contains(p))
        .collect();
    // A fresh preheader that every outside predecessor enters through.
    let pre = cfg.blocks.len();
    cfg.blocks.push(Block {
        name: format!("{}.us.pre", cfg.blocks[header].name),
        insts: Vec::new(),
        term: Term::Br(header),
        origin: cfg.blocks[b].origin,
    });
    for &p in &outside {
        cfg.blocks[p]
            .term
            .map_succs(|t| if t == header { pre } else { t });
    }
    phis::to_preheader(cfg, header, pre, &outside);
    let trivial = b == header
        && cfg.blocks[header].insts.is_empty()
        && (!blocks.contains(&then) || !blocks.contains(&els));
    let name = cfg.blocks[b].name.clone();
    if trivial {
        // The exit test runs once, before the loop.
        let inside = if blocks.contains(&then) { then } else { els };
        cfg.blocks[pre].term = if blocks.contains(&then) {
            Term::CondBr {
                cond,
                then: header,
                els,
            }
        } else {
            Term::CondBr {
                cond,
                then,
                els: header,
            }
        };
        cfg.blocks[b].term = Term::Br(inside);
        let exit = if inside == then { els } else { then };
        phis::rename_pred(&mut cfg.blocks[exit], header, pre);
        return format!(
            "trivially unswitched the loop at %{} on the branch in %{name}",
            cfg.blocks[header].name
        );
    }
    // Clone the loop for the `else` side.
    let mut map: BTreeMap<BlockId, BlockId> = BTreeMap::new();
    for &x in blocks {
        map.insert(x, cfg.blocks.len());
        let mut copy = cfg.blocks[x].clone();
        copy.name = format!("{}.us", copy.name);
        cfg.blocks.push(copy);
    }
    for &x in blocks {
        let y = map[&x];
        cfg.blocks[y].term.map_succs(|t| *map.get(&t).unwrap_or(&t));
    }
    phis::clone_loop(cfg, &map);
    cfg.blocks[b].term = Term::Br(then);
    let be = map[&b];
    cfg.blocks[be].term = Term::Br(*map.get(&els).unwrap_or(&els));
    cfg.blocks[pre].term = Term::CondBr {
        cond,
        then: header,
        els: map[&header],
    };
    phis::prune(cfg);
    cfg.remove_unreachable();
    format!("unswitched the loop at its header on the branch in %{name} (cloned the loop)")
}
