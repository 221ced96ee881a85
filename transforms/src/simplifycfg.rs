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
//! Hoisting or sinking a convergent operation across a divergent branch
//! changes which threads execute it together (LLVM ConvergentOperations:
//! "hoisting or sinking convergent operations is generally forbidden",
//! allowed across uniform branches). The safe steps refuse it using
//! [`crate::uniformity`]; the `.unsafe` variants do it anyway. Hoisting and
//! sinking only move instructions that read no oracle and assign no local
//! (a condition is evaluated at the end of its block, after a hoisted
//! instruction, so one that could change it must not move).
//!
//! `simplifycfg` runs the four safe steps to a fixed point, `keep-loops`
//! off by default as in LLVM's late run.

use crate::uniformity::{self, Uniformity};
use crate::{Pass, PassError};
use convcheck_model::cfg::cycles::CycleInfo;
use convcheck_model::cfg::print::inst as inst_text;
use convcheck_model::cfg::tokens::is_convergent;
use convcheck_model::cfg::{BlockId, Cfg, Inst, InstKind, Module, Term, TokenKind};
use convcheck_model::sema::{CallKind, Kernel};
use convcheck_model::syntax::ast::{Expr, ExprKind, Place};
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

    fn run(&self, kernel: &Kernel, module: &mut Module) -> Result<Vec<String>, PassError> {
        let mut notes = Vec::new();
        for cfg in module.functions.iter_mut() {
            let steps: &[Step] = match self.step {
                Some(ref s) => std::slice::from_ref(s),
                None => &[
                    Step::MergeBlock,
                    Step::ForwardEmpty,
                    Step::Hoist,
                    Step::Sink,
                ],
            };
            // Every step removes a block or an instruction, so this ends.
            loop {
                let mut changed = false;
                for &s in steps {
                    while let Some(note) = self.apply(kernel, cfg, s) {
                        notes.push(format!("@{}: {note}", cfg.name));
                        changed = true;
                    }
                }
                if !changed || self.step.is_some() {
                    break;
                }
            }
        }
        Ok(notes)
    }
}

/// Whether an instruction can be moved across a branch condition: it reads
/// no oracle and assigns no local, and is not a token.
fn movable(kernel: &Kernel, inst: &Inst) -> bool {
    let InstKind::Eval(e) = &inst.kind else {
        return false;
    };
    pure_operands(kernel, e)
}

fn pure_operands(kernel: &Kernel, e: &Expr) -> bool {
    let mut ok = true;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Dots => ok = false,
        ExprKind::Name(n) if kernel.oracle_ids.contains_key(n) => ok = false,
        ExprKind::Assign {
            place: Place::Var(_),
            ..
        } => ok = false,
        ExprKind::Call { id, .. } => {
            if matches!(
                kernel.calls.get(id),
                Some(CallKind::Oracle(_)) | Some(CallKind::Real(_))
            ) {
                ok = false;
            }
        }
        _ => {}
    });
    ok
}

/// Two instructions do the same thing (SimplifyCFG's `isIdenticalTo`),
/// and their operations are the same observable operations: equal labels.
/// Two calls to `__syncthreads()` named `O4` and `O7` are identical to
/// LLVM but not to a reader of the trace; merging them renames an
/// operation (found by `convcheck fuzz --pass simplifycfg --seed 1`, see
/// `examples/corpus/regress-hoist-labels.c`).
fn identical(kernel: &Kernel, a: &Inst, b: &Inst) -> bool {
    strip_comment(&inst_text(kernel, a)) == strip_comment(&inst_text(kernel, b))
        && a.token == b.token
        && op_labels(kernel, a) == op_labels(kernel, b)
}

/// The labels of the operations an instruction performs.
fn op_labels(kernel: &Kernel, inst: &Inst) -> Vec<String> {
    let mut out = Vec::new();
    match &inst.kind {
        InstKind::Observe => out.push(kernel.label(inst.sid).to_string()),
        InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => e.walk(&mut |x| {
            if let Some(id) = convcheck_model::sema::expr_id(x) {
                out.push(kernel.label(id).to_string());
            }
        }),
        InstKind::SetLocal { value: None, .. } | InstKind::Token { .. } => {}
    }
    out
}

fn strip_comment(s: &str) -> &str {
    s.split(" ; ").next().unwrap_or(s)
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
    /// Applies `step` once somewhere in `cfg`; returns a note, or `None` if
    /// it applies nowhere.
    fn apply(&self, kernel: &Kernel, cfg: &mut Cfg, step: Step) -> Option<String> {
        match step {
            Step::MergeBlock => merge_block(cfg),
            Step::ForwardEmpty => forward_empty(cfg, self.keep_loops),
            Step::Hoist => {
                let u = uniformity::analyse(kernel, cfg);
                self.hoist(kernel, cfg, &u)
            }
            Step::Sink => {
                let u = uniformity::analyse(kernel, cfg);
                self.sink(kernel, cfg, &u)
            }
        }
    }

    fn hoist(&self, kernel: &Kernel, cfg: &mut Cfg, u: &Uniformity) -> Option<String> {
        let preds = cfg.preds();
        for b in 0..cfg.blocks.len() {
            let Term::CondBr { then, els, .. } = cfg.blocks[b].term else {
                continue;
            };
            if then == els || then == b || els == b || preds[then] != [b] || preds[els] != [b] {
                continue;
            }
            let (Some(x), Some(y)) = (
                cfg.blocks[then].insts.first(),
                cfg.blocks[els].insts.first(),
            ) else {
                continue;
            };
            if !identical(kernel, x, y) || !movable(kernel, x) {
                continue;
            }
            if is_convergent(kernel, x) && u.is_divergent_branch(b) && !self.ignore_convergence {
                continue;
            }
            let moved = cfg.blocks[then].insts.remove(0);
            cfg.blocks[els].insts.remove(0);
            let text = strip_comment(&inst_text(kernel, &moved)).to_string();
            cfg.blocks[b].insts.push(moved);
            return Some(format!(
                "hoisted `{text}` from %{} and %{} into %{}",
                cfg.blocks[then].name, cfg.blocks[els].name, cfg.blocks[b].name
            ));
        }
        None
    }

    fn sink(&self, kernel: &Kernel, cfg: &mut Cfg, u: &Uniformity) -> Option<String> {
        let preds = cfg.preds();
        for s in 0..cfg.blocks.len() {
            let [p1, p2] = preds[s][..] else { continue };
            if p1 == s || p2 == s {
                continue;
            }
            if cfg.blocks[p1].term != Term::Br(s) || cfg.blocks[p2].term != Term::Br(s) {
                continue;
            }
            let (Some(x), Some(y)) = (cfg.blocks[p1].insts.last(), cfg.blocks[p2].insts.last())
            else {
                continue;
            };
            if !identical(kernel, x, y) || !movable(kernel, x) {
                continue;
            }
            if is_convergent(kernel, x) && !self.ignore_convergence && divergent_join(cfg, u, s) {
                continue;
            }
            let moved = cfg.blocks[p1].insts.pop()?;
            cfg.blocks[p2].insts.pop();
            let text = strip_comment(&inst_text(kernel, &moved)).to_string();
            let at = cfg.blocks[s]
                .insts
                .iter()
                .take_while(|i| matches!(i.kind, InstKind::Token { .. }))
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
        let moved = std::mem::take(&mut cfg.blocks[b].insts);
        let term = cfg.blocks[b].term.clone();
        cfg.blocks[p].insts.extend(moved);
        cfg.blocks[p].term = term;
        // `b` is now unreachable.
        let (pn, bn) = (cfg.blocks[p].name.clone(), cfg.blocks[b].name.clone());
        cfg.remove_unreachable();
        return Some(format!("merged %{bn} into %{pn}"));
    }
    None
}

fn forward_empty(cfg: &mut Cfg, keep_loops: bool) -> Option<String> {
    let cycles = CycleInfo::compute(cfg);
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
        for block in cfg.blocks.iter_mut() {
            block.term.map_succs(|t| if t == b { s } else { t });
        }
        let (bn, sn) = (cfg.blocks[b].name.clone(), cfg.blocks[s].name.clone());
        cfg.remove_unreachable();
        return Some(format!("forwarded empty %{bn} to %{sn}"));
    }
    None
}
