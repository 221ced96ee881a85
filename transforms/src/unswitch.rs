//! Loop unswitching (LLVM `SimpleLoopUnswitch`).
//!
//! A two-way branch inside a natural loop whose condition is
//! *loop-invariant* (it reads only `invariant(...)` oracles, `N`, `tid`,
//! literals and locals that the loop never assigns) is hoisted out of the
//! loop:
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
//! longer execute the same static operations together; it is only correct
//! when the condition is uniform. `loop-unswitch` refuses exactly then;
//! `loop-unswitch.unsafe` ignores convergence. Loops with
//! convergence-control tokens are never unswitched.

use crate::uniformity;
use crate::{Pass, PassError};
use convcheck_model::cfg::cycles::CycleInfo;
use convcheck_model::cfg::tokens::is_convergent;
use convcheck_model::cfg::{Block, BlockId, Cfg, InstKind, Module, Term};
use convcheck_model::sema::{CallKind, Kernel};
use convcheck_model::syntax::ast::{Expr, ExprKind, OracleClass, Place};
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

    fn run(&self, kernel: &Kernel, module: &mut Module) -> Result<Vec<String>, PassError> {
        let mut notes = Vec::new();
        for cfg in module.functions.iter_mut() {
            // Each unswitch removes one invariant branch from a loop copy;
            // bound the rounds so that nothing can run away.
            let mut rounds = 0;
            while let Some(n) = self.once(kernel, cfg) {
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
                InstKind::Eval(e) => collect_assigns(e, &mut out),
                _ => {}
            }
        }
    }
    out
}

fn collect_assigns(e: &Expr, out: &mut BTreeSet<String>) {
    e.walk(&mut |x| {
        if let ExprKind::Assign {
            place: Place::Var(v),
            ..
        } = &x.kind
        {
            out.insert(v.clone());
        }
    });
}

/// Whether `e` has the same value at every evaluation inside the loop.
fn loop_invariant(kernel: &Kernel, e: &Expr, assigned: &BTreeSet<String>) -> bool {
    let mut ok = true;
    fn walk(kernel: &Kernel, e: &Expr, assigned: &BTreeSet<String>, ok: &mut bool) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Tid | ExprKind::GroupSize => {}
            ExprKind::Invariant(a) | ExprKind::Uniform(a) | ExprKind::Unary(_, a) => {
                walk(kernel, a, assigned, ok)
            }
            ExprKind::Binary(_, a, b) => {
                walk(kernel, a, assigned, ok);
                walk(kernel, b, assigned, ok);
            }
            ExprKind::Cond(a, b, c) => {
                walk(kernel, a, assigned, ok);
                walk(kernel, b, assigned, ok);
                walk(kernel, c, assigned, ok);
            }
            ExprKind::Name(n) => match kernel.oracle_ids.get(n) {
                Some(&o) if kernel.oracles[o].class == OracleClass::Invariant => {}
                // A kernel parameter is read once per thread.
                Some(_)
                    if kernel.functions.iter().any(|f| f.params.contains(n))
                        && !assigned.contains(n) => {}
                Some(_) => *ok = false,
                None => {
                    if assigned.contains(n) {
                        *ok = false;
                    }
                }
            },
            ExprKind::Call { id, .. } => match kernel.calls.get(id) {
                Some(CallKind::Oracle(o)) if kernel.oracles[*o].class == OracleClass::Invariant => {
                }
                _ => *ok = false,
            },
            _ => *ok = false,
        }
    }
    walk(kernel, e, assigned, &mut ok);
    ok
}

impl LoopUnswitch {
    fn once(&self, kernel: &Kernel, cfg: &mut Cfg) -> Option<String> {
        let cycles = CycleInfo::compute(cfg);
        let u = uniformity::analyse(kernel, cfg);
        for c in cycles.cycles.iter().filter(|c| c.is_reducible()) {
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
                .any(|&b| cfg.blocks[b].insts.iter().any(|i| is_convergent(kernel, i)));
            let assigned = assigned_in(cfg, blocks);
            for &b in blocks {
                let Term::CondBr { cond, then, els } = &cfg.blocks[b].term else {
                    continue;
                };
                if then == els || !loop_invariant(kernel, cond, &assigned) {
                    continue;
                }
                if convergent && u.is_divergent(kernel, cond) && !self.ignore_convergence {
                    continue;
                }
                let (cond, then, els) = (cond.clone(), *then, *els);
                let header = c.header;
                return Some(unswitch(cfg, blocks, header, b, cond, then, els));
            }
        }
        None
    }
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
    cfg.blocks[b].term = Term::Br(then);
    let be = map[&b];
    cfg.blocks[be].term = Term::Br(*map.get(&els).unwrap_or(&els));
    cfg.blocks[pre].term = Term::CondBr {
        cond,
        then: header,
        els: map[&header],
    };
    cfg.remove_unreachable();
    format!("unswitched the loop at its header on the branch in %{name} (cloned the loop)")
}
