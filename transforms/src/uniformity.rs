//! A uniformity analysis on the IR, in the spirit of LLVM's
//! UniformityAnalysis (ConvergenceAndUniformity, "Uniformity").
//!
//! Sources of divergence, read from the module's own tables: `tid`, oracles
//! whose class is not uniform (varying ones, and invariant ones: one value
//! per thread, different across threads), loaded values, and the values of
//! calls that are not uniform (convergent operations, non-convergent
//! external calls, real calls). Uniform: literals, `N`, uniform and
//! uniform-invariant oracles (kernel parameters are read from uniform
//! oracles), and the results of
//! barriers and fences. An expression is divergent when any part of it is,
//! arguments of calls included (a data-carrying barrier with a divergent
//! predicate counts as divergent, conservatively).
//!
//! A local is divergent if it is assigned a divergent value, or assigned in
//! a block that is control-dependent on a divergent branch (a block reached
//! from the branch that does not post-dominate it: *sync dependence*), or
//! assigned inside a cycle that has a divergent exit and read outside
//! (*temporal divergence*: handled conservatively by making every local
//! assigned in such a cycle divergent). The parameters of a function that
//! the module calls are divergent (callers pass what they like); those of
//! a kernel entry are not. A branch is divergent if its condition is. The
//! analysis iterates to a fixed point.
//!
//! A phi (`InstKind::Phi`) assigns its local like any assignment, and is
//! also divergent at a *join*: when one of the predecessors it has a value
//! for ends in a divergent branch, or is itself under divergent control or
//! in a cycle with a divergent exit (threads that took different sides
//! meet at the phi with different values).
//!
//! Names are resolved in the IR: a local is [`Expr::Var`], every other
//! source of a value an [`Expr::Oracle`] or a call, so a local never takes
//! the class of an oracle that happens to share its name.
//!
//! It is conservative: "uniform" is a proof, "divergent" may be spurious.

use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::{BlockId, CallKind, Cfg, Expr, InstKind, Module, Term};
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

    /// Whether `e`, an operand of the analysed function of `module`, may
    /// evaluate to different values in different threads.
    pub fn is_divergent(&self, module: &Module, e: &Expr) -> bool {
        expr_divergent(module, e, &self.divergent_vars)
    }
}

/// Whether the oracle `o` of `module` may differ across threads. An id the
/// table does not have is taken as divergent.
fn oracle_divergent(module: &Module, o: usize) -> bool {
    module
        .oracles
        .get(o)
        .is_none_or(|info| !info.class.is_uniform())
}

fn expr_divergent(module: &Module, e: &Expr, vars: &BTreeSet<String>) -> bool {
    e.any(&mut |x| match x {
        Expr::Tid | Expr::Load { .. } => true,
        Expr::Var(n) => vars.contains(n),
        Expr::Oracle(o) => oracle_divergent(module, *o),
        Expr::Call { kind, .. } => match kind {
            CallKind::Oracle(o) => oracle_divergent(module, *o),
            // The results of barriers are the same in every participating
            // thread; fences have none.
            CallKind::Barrier(..) | CallKind::Fence => false,
            CallKind::Op(_) | CallKind::Plain(_) | CallKind::Real(_) => true,
        },
        _ => false,
    })
}

/// Locals assigned by an expression.
fn assigned(e: &Expr, out: &mut BTreeSet<String>) {
    e.walk(&mut |x| {
        if let Expr::Assign { var, .. } = x {
            out.insert(var.clone());
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

/// Whether some function of `module`, or `cfg` itself, calls the function
/// named like `cfg` (a real call).
fn is_called(module: &Module, cfg: &Cfg) -> bool {
    let calls_it = |f: &Cfg| {
        f.blocks.iter().any(|b| {
            b.exprs().into_iter().any(|e| {
                e.any(&mut |x| {
                    matches!(x, Expr::Call { kind: CallKind::Real(g), .. }
                        if module.functions.get(*g).is_some_and(|c| c.name == cfg.name))
                })
            })
        })
    };
    module.functions.iter().any(calls_it) || calls_it(cfg)
}

/// Analyses `cfg`, a function of `module` (possibly being rewritten: the
/// module gives the oracle table and the call graph).
pub fn analyse(module: &Module, cfg: &Cfg) -> Uniformity {
    let pdom = post_dominators(cfg);
    let cycles = CycleInfo::compute(cfg);
    let mut u = Uniformity::default();
    // Parameters of a kernel entry are kernel arguments (uniform); those
    // of a function called from the module take whatever the caller passes.
    if is_called(module, cfg) {
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
            if cond.is_some_and(|c| expr_divergent(module, c, &u.divergent_vars)) {
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
                            .is_some_and(|v| expr_divergent(module, v, &u.divergent_vars));
                        if div || controlled {
                            u.divergent_vars.insert(name.clone());
                        }
                        if let Some(v) = value {
                            let mut a = BTreeSet::new();
                            assigned(v, &mut a);
                            if controlled || expr_divergent(module, v, &u.divergent_vars) {
                                u.divergent_vars.extend(a);
                            }
                        }
                    }
                    InstKind::Phi { name, incoming } => {
                        let join = incoming.iter().any(|(p, _)| {
                            u.divergent_branches.contains(p)
                                || divergent_blocks.contains(p)
                                || temporal.contains(p)
                        });
                        let mut div = join || controlled;
                        for (_, v) in incoming {
                            let vdiv = expr_divergent(module, v, &u.divergent_vars);
                            div |= vdiv;
                            let mut a = BTreeSet::new();
                            assigned(v, &mut a);
                            if controlled || vdiv {
                                u.divergent_vars.extend(a);
                            }
                        }
                        if div {
                            u.divergent_vars.insert(name.clone());
                        }
                    }
                    InstKind::Eval(e) => {
                        let mut a = BTreeSet::new();
                        assigned(e, &mut a);
                        if controlled || expr_divergent(module, e, &u.divergent_vars) {
                            u.divergent_vars.extend(a);
                        }
                    }
                    InstKind::Observe | InstKind::Token { .. } => {}
                }
            }
        }
        if u == before {
            return u;
        }
    }
}
