//! SimplifyCFG-style CFG rewrites (LLVM `SimplifyCFGPass`).
//!
//! - **merge-block** (LLVM `MergeBlockIntoPredecessor`): a block whose only
//!   predecessor ends in an unconditional branch to it is appended to that
//!   predecessor. LLVM does this in every SimplifyCFG run. A block that
//!   defines a `loop` token (a heart) is left alone, since the heart must
//!   stay first in its block.
//! - **forward-empty** (LLVM `TryToSimplifyUncondBranchFromEmptyBlock`): a
//!   block with no instructions that only branches on is removed and its
//!   predecessors branch straight to its successor. With `keep-loops` (LLVM
//!   `SimplifyCFGOptions::NeedCanonicalLoop`, on in the early runs of the
//!   -O2 pipeline) a block is kept when it or its successor is a loop
//!   header; the late run (`keep-loops` off) folds loop headers too, which
//!   is how seed 000's `loop_nest` becomes `loop_continue`'s CFG.
//! - **hoist** (LLVM `hoistCommonCodeFromSuccessors`): identical leading
//!   instructions of both successors of a two-way branch (each with that
//!   branch as its only predecessor) move into the branching block.
//! - **sink** (LLVM `sinkCommonCodeFromPredecessors`): identical trailing
//!   instructions of the two predecessors of a block (each ending in an
//!   unconditional branch to it) move into it.
//!
//! The entry block is also entered when the function starts, so no step
//! treats it as having a single predecessor: it is never merged into a
//! predecessor, bypassed, hoisted from or sunk into (LLVM IR forbids
//! branches to the entry block; modules built by hand may have them).
//!
//! Hoisting or sinking a convergent operation across a divergent branch
//! changes which threads execute it together (LLVM ConvergentOperations:
//! "hoisting or sinking convergent operations is generally forbidden",
//! allowed across uniform branches). The safe steps refuse it using
//! [`crate::uniformity`]; the `.unsafe` variants do it anyway. Hoisting and
//! sinking only move evaluations that read no oracle (a parameter counts as
//! one: at a kernel launch its value comes from its oracle), make no real
//! call and assign no local (a condition is evaluated at the end of its
//! block, after a hoisted instruction, so one that could change it must not
//! move).
//!
//! Two instructions are *identical* when they do the same thing with the
//! same operands (their ops aside: each copy keeps its own provenance), use
//! the same token, and their operations carry the same labels.
//!
//! **Phis are kept correct** (LLVM's rules for each rewrite), and a rewrite
//! that cannot keep them correct is not applied there. A module is refused
//! (a [`PassError`] that names the block) only when a phi does not stand
//! at the start of its block: such a phi does nothing, and moving the
//! instructions before it away would bring it to life.
//!
//! - merge-block turns the merged block's phis (one incoming value each,
//!   from the predecessor) into assignments, and renames the merged block
//!   to its predecessor in the phis of its successors. It leaves the block
//!   alone when a phi reads the local of an earlier phi of the block (phis
//!   read their operands together; assignments one after the other).
//! - forward-empty gives the successor's phis the empty block's value for
//!   each of its predecessors, and leaves the block alone when one of them
//!   already branches to the successor with a different value (LLVM's
//!   `CanPropagatePredecessorsForPHIs`).
//! - hoist never moves a phi (only evaluations move), and its blocks keep
//!   their edges.
//! - sink inserts after the join block's phis. It does not sink when the
//!   moved instruction reads a local that one of those phis sets, nor when
//!   a phi's operand reads an oracle or has a call, memory access or
//!   assignment of its own (whose order against the moved instruction
//!   would change).
//!
//! `simplifycfg` runs the four safe steps to a fixed point, `keep-loops`
//! off by default as in LLVM's late run.

use crate::phis;
use crate::uniformity::{self, Uniformity};
use crate::{Pass, PassError};
use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::tokens::is_convergent;
use convcheck_ir::{BlockId, CallKind, Cfg, Expr, Inst, InstKind, Module, Term, TokenKind};
use std::collections::BTreeSet;

/// One rewrite of SimplifyCFG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Merge a block into its single predecessor.
    MergeBlock,
    /// Remove empty forwarding blocks.
    ForwardEmpty,
    /// Hoist identical leading instructions into the branch block.
    Hoist,
    /// Sink identical trailing instructions into the join block.
    Sink,
}

/// SimplifyCFG: one step or (with `step: None`) all to a fixed point.
#[derive(Clone, Debug)]
pub struct SimplifyCfg {
    /// The step, or `None` for the whole pipeline.
    pub step: Option<Step>,
    /// Keep loop headers (LLVM's `keep-loops`).
    pub keep_loops: bool,
    /// Move convergent operations across divergent branches (the known-unsafe
    /// variants).
    pub ignore_convergence: bool,
}

impl Pass for SimplifyCfg {
    fn name(&self) -> String {
        let base = match self.step {
            None => "simplifycfg",
            Some(Step::MergeBlock) => "simplifycfg.merge-block",
            Some(Step::ForwardEmpty) => "simplifycfg.forward-empty",
            Some(Step::Hoist) => "simplifycfg.hoist",
            Some(Step::Sink) => "simplifycfg.sink",
        };
        let mut name = base.to_string();
        if self.ignore_convergence {
            name.push_str(".unsafe");
        }
        if self.keep_loops {
            name.push_str("<keep-loops>");
        }
        name
    }

    fn run(&self, module: &mut Module) -> Result<Vec<String>, PassError> {
        phis::check(&self.name(), module)?;
        let mut notes = Vec::new();
        let steps: &[Step] = match self.step {
            Some(ref s) => std::slice::from_ref(s),
            None => &[
                Step::MergeBlock,
                Step::ForwardEmpty,
                Step::Hoist,
                Step::Sink,
            ],
        };
        for f in 0..module.functions.len() {
            // The function is rewritten apart from the module, which the
            // steps read for its tables and its call graph.
            let mut cfg = module.functions[f].clone();
            // Every step removes a block or an instruction, so this ends.
            loop {
                let mut changed = false;
                for &s in steps {
                    while let Some(note) = self.apply(module, &mut cfg, s) {
                        notes.push(format!("@{}: {note}", cfg.name));
                        changed = true;
                    }
                }
                if !changed || self.step.is_some() {
                    break;
                }
            }
            module.functions[f] = cfg;
        }
        Ok(notes)
    }
}

/// Whether an instruction can be moved across a branch condition: it is an
/// evaluation that reads no oracle (a parameter counts as one: at a kernel
/// launch its value is read from its oracle), makes no real call and
/// assigns no local.
fn movable(cfg: &Cfg, inst: &Inst) -> bool {
    let InstKind::Eval(e) = &inst.kind else {
        return false;
    };
    !e.any(&mut |x| match x {
        Expr::Oracle(_) | Expr::Assign { .. } => true,
        Expr::Var(n) => cfg.params.contains(n),
        Expr::Call { kind, .. } => matches!(kind, CallKind::Oracle(_) | CallKind::Real(_)),
        _ => false,
    })
}

/// Two operands are the same expression, the ops of their calls and
/// memory accesses aside.
fn same_expr(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Const(x), Expr::Const(y)) => x == y,
        (Expr::Tid, Expr::Tid) | (Expr::GroupSize, Expr::GroupSize) => true,
        (Expr::Var(x), Expr::Var(y)) => x == y,
        (Expr::Oracle(x), Expr::Oracle(y)) => x == y,
        (Expr::Unary(o, x), Expr::Unary(p, y)) => o == p && same_expr(x, y),
        (Expr::Binary(o, x1, x2), Expr::Binary(p, y1, y2)) => {
            o == p && same_expr(x1, y1) && same_expr(x2, y2)
        }
        (Expr::Select(x1, x2, x3), Expr::Select(y1, y2, y3)) => {
            same_expr(x1, y1) && same_expr(x2, y2) && same_expr(x3, y3)
        }
        (
            Expr::Call {
                kind: k1,
                callee: c1,
                args: a1,
                ..
            },
            Expr::Call {
                kind: k2,
                callee: c2,
                args: a2,
                ..
            },
        ) => {
            k1 == k2
                && c1 == c2
                && a1.len() == a2.len()
                && a1.iter().zip(a2).all(|(x, y)| same_expr(x, y))
        }
        (
            Expr::Load {
                space: s1,
                index: i1,
                value: v1,
                ..
            },
            Expr::Load {
                space: s2,
                index: i2,
                value: v2,
                ..
            },
        ) => s1 == s2 && v1 == v2 && same_expr(i1, i2),
        (
            Expr::Store {
                space: s1,
                index: i1,
                value: v1,
                ..
            },
            Expr::Store {
                space: s2,
                index: i2,
                value: v2,
                ..
            },
        ) => s1 == s2 && same_expr(i1, i2) && same_expr(v1, v2),
        (
            Expr::Assign {
                var: x,
                op: o,
                value: v,
            },
            Expr::Assign {
                var: y,
                op: p,
                value: w,
            },
        ) => x == y && o == p && same_expr(v, w),
        _ => false,
    }
}

/// Two instructions do the same thing (SimplifyCFG's `isIdenticalTo`),
/// and their operations are the same observable operations: equal labels.
/// Two calls to `__syncthreads()` named `O4` and `O7` are identical to
/// LLVM but not to a reader of the trace; merging them renames an
/// operation (found by `convcheck fuzz --pass simplifycfg --seed 1`, see
/// `examples/corpus/regress-hoist-labels.c`).
fn identical(module: &Module, a: &Inst, b: &Inst) -> bool {
    let same_kind = match (&a.kind, &b.kind) {
        (InstKind::Observe, InstKind::Observe) => true,
        (InstKind::Eval(x), InstKind::Eval(y)) => same_expr(x, y),
        (InstKind::SetLocal { name: n, value: x }, InstKind::SetLocal { name: m, value: y }) => {
            n == m
                && match (x, y) {
                    (Some(x), Some(y)) => same_expr(x, y),
                    (None, None) => true,
                    _ => false,
                }
        }
        (
            InstKind::Phi {
                name: n,
                incoming: x,
            },
            InstKind::Phi {
                name: m,
                incoming: y,
            },
        ) => {
            n == m
                && x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((p, e), (q, f))| p == q && same_expr(e, f))
        }
        (InstKind::Token { kind: k, name: n }, InstKind::Token { kind: l, name: m }) => {
            k == l && n == m
        }
        _ => false,
    };
    same_kind && a.token == b.token && op_labels(module, a) == op_labels(module, b)
}

/// The labels of the operations an instruction performs: the observation
/// point, or the calls (oracle reads written as calls included) and memory
/// accesses of its operands, in order.
fn op_labels(module: &Module, inst: &Inst) -> Vec<String> {
    let mut out = Vec::new();
    let mut walk = |e: &Expr| {
        e.walk(&mut |x| match x {
            Expr::Call { op, .. } | Expr::Load { op, .. } | Expr::Store { op, .. } => {
                out.push(module.label(*op).to_string())
            }
            _ => {}
        })
    };
    match &inst.kind {
        InstKind::Observe => out.push(module.label(inst.sid).to_string()),
        InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => walk(e),
        InstKind::Phi { incoming, .. } => incoming.iter().for_each(|(_, e)| walk(e)),
        InstKind::SetLocal { value: None, .. } | InstKind::Token { .. } => {}
    }
    out
}

fn is_heart(inst: &Inst) -> bool {
    matches!(
        inst.kind,
        InstKind::Token {
            kind: TokenKind::Loop,
            ..
        }
    )
}

impl SimplifyCfg {
    /// Applies `step` once somewhere in `cfg`, a function of `module`;
    /// returns a note, or `None` if it applies nowhere.
    fn apply(&self, module: &Module, cfg: &mut Cfg, step: Step) -> Option<String> {
        match step {
            Step::MergeBlock => merge_block(cfg),
            Step::ForwardEmpty => forward_empty(cfg, self.keep_loops),
            Step::Hoist => {
                let u = uniformity::analyse(module, cfg);
                self.hoist(module, cfg, &u)
            }
            Step::Sink => {
                let u = uniformity::analyse(module, cfg);
                self.sink(module, cfg, &u)
            }
        }
    }

    fn hoist(&self, module: &Module, cfg: &mut Cfg, u: &Uniformity) -> Option<String> {
        let preds = cfg.preds();
        for b in 0..cfg.blocks.len() {
            let Term::CondBr { then, els, .. } = cfg.blocks[b].term else {
                continue;
            };
            // The entry block is also entered when the function starts, so
            // it never counts as having `b` as its only predecessor.
            if then == els
                || then == b
                || els == b
                || then == 0
                || els == 0
                || preds[then] != [b]
                || preds[els] != [b]
            {
                continue;
            }
            let (Some(x), Some(y)) = (
                cfg.blocks[then].insts.first(),
                cfg.blocks[els].insts.first(),
            ) else {
                continue;
            };
            if !identical(module, x, y) || !movable(cfg, x) {
                continue;
            }
            if is_convergent(x) && u.is_divergent_branch(b) && !self.ignore_convergence {
                continue;
            }
            let moved = cfg.blocks[then].insts.remove(0);
            cfg.blocks[els].insts.remove(0);
            let text = convcheck_ir::print::inst(module, &moved);
            cfg.blocks[b].insts.push(moved);
            return Some(format!(
                "hoisted `{text}` from %{} and %{} into %{}",
                cfg.blocks[then].name, cfg.blocks[els].name, cfg.blocks[b].name
            ));
        }
        None
    }

    fn sink(&self, module: &Module, cfg: &mut Cfg, u: &Uniformity) -> Option<String> {
        let preds = cfg.preds();
        for s in 0..cfg.blocks.len() {
            let [p1, p2] = preds[s][..] else { continue };
            // The entry block is also entered when the function starts.
            if s == 0 || p1 == s || p2 == s {
                continue;
            }
            if cfg.blocks[p1].term != Term::Br(s) || cfg.blocks[p2].term != Term::Br(s) {
                continue;
            }
            let (Some(x), Some(y)) = (cfg.blocks[p1].insts.last(), cfg.blocks[p2].insts.last())
            else {
                continue;
            };
            if !identical(module, x, y) || !movable(cfg, x) {
                continue;
            }
            if is_convergent(x) && !self.ignore_convergence && divergent_join(cfg, u, s) {
                continue;
            }
            if !phis::can_sink_past(&cfg.blocks[s], x) {
                continue;
            }
            let moved = cfg.blocks[p1].insts.pop()?;
            cfg.blocks[p2].insts.pop();
            let text = convcheck_ir::print::inst(module, &moved);
            let at = cfg.blocks[s]
                .insts
                .iter()
                .take_while(|i| matches!(i.kind, InstKind::Phi { .. } | InstKind::Token { .. }))
                .count();
            cfg.blocks[s].insts.insert(at, moved);
            return Some(format!(
                "sank `{text}` from %{} and %{} into %{}",
                cfg.blocks[p1].name, cfg.blocks[p2].name, cfg.blocks[s].name
            ));
        }
        None
    }
}

/// Whether threads can reach join block `s` from a divergent branch along
/// different paths: some block that can reach `s` without passing through
/// it, and that `s` does not dominate, ends in a divergent branch.
fn divergent_join(cfg: &Cfg, u: &Uniformity, s: BlockId) -> bool {
    let preds = cfg.preds();
    let mut seen = BTreeSet::new();
    let mut work = preds[s].clone();
    while let Some(x) = work.pop() {
        if x == s || !seen.insert(x) {
            continue;
        }
        if u.is_divergent_branch(x) {
            return true;
        }
        work.extend(preds[x].iter().copied());
    }
    false
}

fn merge_block(cfg: &mut Cfg) -> Option<String> {
    let preds = cfg.preds();
    for b in 1..cfg.blocks.len() {
        let [p] = preds[b][..] else { continue };
        if p == b || cfg.blocks[p].term != Term::Br(b) || cfg.blocks[b].insts.iter().any(is_heart) {
            continue;
        }
        let Some(assignments) = phis::single_entry_as_assignments(&cfg.blocks[b], p) else {
            continue;
        };
        let mut moved = std::mem::take(&mut cfg.blocks[b].insts);
        let n = assignments.len();
        moved.splice(..n, assignments);
        let term = cfg.blocks[b].term.clone();
        cfg.blocks[p].insts.extend(moved);
        cfg.blocks[p].term = term;
        // The successors of `b` are now entered from `p`.
        for s in cfg.blocks[p].term.succs() {
            phis::rename_pred(&mut cfg.blocks[s], b, p);
        }
        // `b` is now unreachable.
        let (pn, bn) = (cfg.blocks[p].name.clone(), cfg.blocks[b].name.clone());
        cfg.remove_unreachable();
        return Some(format!("merged %{bn} into %{pn}"));
    }
    None
}

fn forward_empty(cfg: &mut Cfg, keep_loops: bool) -> Option<String> {
    let cycles = CycleInfo::compute(cfg);
    let preds = cfg.preds();
    for b in 1..cfg.blocks.len() {
        let Term::Br(s) = cfg.blocks[b].term else {
            continue;
        };
        if s == b || !cfg.blocks[b].insts.is_empty() {
            continue;
        }
        if keep_loops && (cycles.is_header(b) || cycles.is_header(s)) {
            continue;
        }
        if !phis::can_forward(cfg, &preds[b], b, s) {
            continue;
        }
        phis::forward(cfg, &preds[b], b, s);
        for block in cfg.blocks.iter_mut() {
            block.term.map_succs(|t| if t == b { s } else { t });
        }
        let (bn, sn) = (cfg.blocks[b].name.clone(), cfg.blocks[s].name.clone());
        cfg.remove_unreachable();
        return Some(format!("forwarded empty %{bn} to %{sn}"));
    }
    None
}
