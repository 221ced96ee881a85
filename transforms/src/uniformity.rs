//! A uniformity analysis on the CFG, in the spirit of LLVM's
//! UniformityAnalysis (ConvergenceAndUniformity, "Uniformity").
//!
//! Sources of divergence: `tid`, varying oracles, invariant oracles (one
//! value per thread, different across threads), loaded values, and the
//! values of convergent operations. Uniform: literals, `N`, uniform oracles,
//! kernel parameters and the results of data-carrying barriers.
//!
//! A local is divergent if it is assigned a divergent value, or assigned in
//! a block that is control-dependent on a divergent branch (a block reached
//! from the branch that does not post-dominate it: *sync dependence*), or
//! assigned inside a cycle that has a divergent exit and read outside
//! (*temporal divergence*: handled conservatively by making every local
//! assigned in such a cycle divergent). A branch is divergent if its
//! condition is. The analysis iterates to a fixed point.
//!
//! It is conservative: "uniform" is a proof, "divergent" may be spurious.

use convcheck_model::cfg::cycles::CycleInfo;
use convcheck_model::cfg::{BlockId, Cfg, InstKind, Term};
use convcheck_model::sema::{BarrierKind, CallKind, Kernel};
use convcheck_model::syntax::ast::{Expr, ExprKind, OracleClass, Place};
use std::collections::BTreeSet;

/// The result for one function.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Uniformity {
    /// Locals that may differ across threads.
    pub divergent_vars: BTreeSet<String>,
    /// Blocks whose terminator branches divergently.
    pub divergent_branches: BTreeSet<BlockId>,
}

impl Uniformity {
    /// Whether block `b` ends in a divergent branch.
    pub fn is_divergent_branch(&self, b: BlockId) -> bool {
        self.divergent_branches.contains(&b)
    }

    /// Whether `e` may evaluate to different values in different threads.
    pub fn is_divergent(&self, kernel: &Kernel, e: &Expr) -> bool {
        expr_divergent(kernel, e, &self.divergent_vars)
    }
}

fn expr_divergent(kernel: &Kernel, e: &Expr, vars: &BTreeSet<String>) -> bool {
    let mut div = false;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Tid | ExprKind::Dots | ExprKind::Load { .. } => div = true,
        ExprKind::Name(n) => {
            // A name is a local (divergent if the analysis says so) or an
            // oracle; a local that shares its name with a non-uniform
            // oracle of another function is taken as divergent, which is
            // conservative.
            let oracle_div = kernel
                .oracle_ids
                .get(n)
                .is_some_and(|&o| kernel.oracles[o].class != OracleClass::Uniform);
            if vars.contains(n) || oracle_div {
                div = true;
            }
        }
        ExprKind::Call { id, .. } => match kernel.calls.get(id) {
            Some(CallKind::Oracle(o)) => {
                if kernel.oracles[*o].class != OracleClass::Uniform {
                    div = true;
                }
            }
            Some(CallKind::Barrier(BarrierKind::Plain)) | Some(CallKind::Fence) => {}
            Some(CallKind::Barrier(_)) => {}
            _ => div = true,
        },
        _ => {}
    });
    div
}

/// Locals assigned by an expression.
fn assigned(e: &Expr, out: &mut BTreeSet<String>) {
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

/// Post-dominance: `pdom[b]` is the set of blocks that post-dominate `b`.
fn post_dominators(cfg: &Cfg) -> Vec<BTreeSet<BlockId>> {
    let n = cfg.blocks.len();
    let all: BTreeSet<BlockId> = (0..n).collect();
    let mut pdom: Vec<BTreeSet<BlockId>> = (0..n)
        .map(|b| {
            if cfg.blocks[b].term.succs().is_empty() {
                [b].into_iter().collect()
            } else {
                all.clone()
            }
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let succs = cfg.blocks[b].term.succs();
            if succs.is_empty() {
                continue;
            }
            let mut meet = all.clone();
            for s in succs {
                meet = meet.intersection(&pdom[s]).copied().collect();
            }
            meet.insert(b);
            if meet != pdom[b] {
                pdom[b] = meet;
                changed = true;
            }
        }
    }
    pdom
}

/// Blocks control-dependent on the branch at `b`: reachable from its
/// successors, before reaching a block that post-dominates `b`.
fn influence(cfg: &Cfg, pdom: &[BTreeSet<BlockId>], b: BlockId) -> BTreeSet<BlockId> {
    let mut out = BTreeSet::new();
    let mut work: Vec<BlockId> = cfg.blocks[b].term.succs();
    while let Some(x) = work.pop() {
        if pdom[b].contains(&x) || !out.insert(x) {
            continue;
        }
        work.extend(cfg.blocks[x].term.succs());
    }
    out
}

/// Analyses one function.
pub fn analyse(kernel: &Kernel, cfg: &Cfg) -> Uniformity {
    let pdom = post_dominators(cfg);
    let cycles = CycleInfo::compute(cfg);
    let mut u = Uniformity::default();
    // Parameters of a kernel entry are kernel arguments (uniform); those
    // of a function called from the file take whatever the caller passes.
    let called = kernel
        .calls
        .values()
        .any(|c| matches!(c, CallKind::Real(f) if kernel.functions[*f].name == cfg.name));
    if called {
        u.divergent_vars.extend(cfg.params.iter().cloned());
    }
    loop {
        let before = u.clone();
        // Branches.
        for (b, block) in cfg.blocks.iter().enumerate() {
            let cond = match &block.term {
                Term::CondBr { cond, .. } => Some(cond),
                Term::Switch { value, .. } => Some(value),
                _ => None,
            };
            if cond.is_some_and(|c| expr_divergent(kernel, c, &u.divergent_vars)) {
                u.divergent_branches.insert(b);
            }
        }
        // Blocks under divergent control.
        let mut divergent_blocks = BTreeSet::new();
        for &b in &u.divergent_branches {
            divergent_blocks.extend(influence(cfg, &pdom, b));
        }
        // Cycles with a divergent exit.
        let mut temporal = BTreeSet::new();
        for c in &cycles.cycles {
            let exits_divergently = c.blocks.iter().any(|&b| {
                u.divergent_branches.contains(&b)
                    && cfg.blocks[b]
                        .term
                        .succs()
                        .iter()
                        .any(|s| !c.blocks.contains(s))
            });
            if exits_divergently {
                temporal.extend(c.blocks.iter().copied());
            }
        }
        // Locals.
        for (b, block) in cfg.blocks.iter().enumerate() {
            let controlled = divergent_blocks.contains(&b) || temporal.contains(&b);
            for inst in &block.insts {
                match &inst.kind {
                    InstKind::SetLocal { name, value } => {
                        let div = value
                            .as_ref()
                            .is_some_and(|v| expr_divergent(kernel, v, &u.divergent_vars));
                        if div || controlled {
                            u.divergent_vars.insert(name.clone());
                        }
                        if let Some(v) = value {
                            let mut a = BTreeSet::new();
                            assigned(v, &mut a);
                            if controlled || expr_divergent(kernel, v, &u.divergent_vars) {
                                u.divergent_vars.extend(a);
                            }
                        }
                    }
                    InstKind::Eval(e) => {
                        let mut a = BTreeSet::new();
                        assigned(e, &mut a);
                        if controlled || expr_divergent(kernel, e, &u.divergent_vars) {
                            u.divergent_vars.extend(a);
                        }
                    }
                    _ => {}
                }
            }
        }
        if u == before {
            return u;
        }
    }
}
