//! What the symbolic engine models, decided before anything is encoded: an
//! input outside it gets `Unknown` with the construct named, never a
//! verdict (DESIGN.md 2.7, "inconclusive").
//!
//! - **Tokens** (convergence-control intrinsics and controlled operations)
//!   are modelled in the shapes [`super::tokens`] lists (no anchors, hearts
//!   in the headers of reducible cycles with their parents in the
//!   enclosing header); others are refused with the construct named.
//! - **Recursion** cannot be inlined.
//! - **Hazards.** The query compares every plain barrier and every load
//!   as an event, which is stronger than single-thread behaviour: when every
//!   thread's events (plain barriers and accesses included) and the
//!   convergence of every matched pair are the same in both programs, so
//!   are each thread's barrier sequence, the phases of its accesses and the
//!   predicates of data-carrying barriers, from which races, barrier
//!   divergence and barrier results are computed (DESIGN.md 2.6;
//!   `convcheck_ir::hazards`). A model that differs only in plain barriers
//!   (or unused loads) is therefore no counterexample: the comparison is
//!   `Unknown` and the explicit engine judges the hazards.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{CallKind, Expr, FuncId};

/// The functions reachable from `entry` through real calls, or the first
/// recursive call found.
pub(crate) fn reachable_functions(
    program: &CfgProgram,
    entry: FuncId,
) -> Result<Vec<FuncId>, String> {
    let module = &program.module;
    let callees = |f: FuncId| -> Vec<FuncId> {
        let mut out = Vec::new();
        if let Some(cfg) = module.functions.get(f) {
            for b in &cfg.blocks {
                for e in b.exprs() {
                    e.walk(&mut |x| {
                        if let Expr::Call {
                            kind: CallKind::Real(g),
                            ..
                        } = x
                        {
                            if !out.contains(g) {
                                out.push(*g);
                            }
                        }
                    });
                }
            }
        }
        out
    };
    let mut order = Vec::new();
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; module.functions.len()];
    fn visit(
        f: FuncId,
        state: &mut [u8],
        order: &mut Vec<FuncId>,
        callees: &dyn Fn(FuncId) -> Vec<FuncId>,
        names: &dyn Fn(FuncId) -> String,
    ) -> Result<(), String> {
        match state.get(f) {
            None => {
                return Err(format!(
                    "a call of function {f}, which the module does not have"
                ))
            }
            Some(1) => {
                return Err(format!(
                    "recursive calls (of `{}`) are not modelled",
                    names(f)
                ))
            }
            Some(2) => return Ok(()),
            _ => {}
        }
        state[f] = 1;
        for g in callees(f) {
            visit(g, state, order, callees, names)?;
        }
        state[f] = 2;
        order.push(f);
        Ok(())
    }
    let names = |f: FuncId| {
        module
            .functions
            .get(f)
            .map_or("?".to_string(), |c| c.name.clone())
    };
    visit(entry, &mut state, &mut order, &callees, &names)?;
    Ok(order)
}

/// Why the engine cannot decide a comparison involving `program`, if it
/// cannot.
pub(crate) fn unsupported(program: &CfgProgram, entry: FuncId, side: &str) -> Option<String> {
    let module = &program.module;
    let funcs = match reachable_functions(program, entry) {
        Ok(f) => f,
        Err(e) => return Some(format!("{side}: {e}")),
    };
    for f in funcs {
        let cfg = &module.functions[f];
        if let Some(ci) = program.cycles.get(f) {
            if let Err(e) = super::tokens::TokenPlan::new(cfg, ci) {
                return Some(format!("{side}: {e}"));
            }
        }
    }
    None
}

/// Whether `p` has the event of a call that accesses only inaccessible
/// memory (`Access::EXTERNAL_CALL_INACCESSIBLE`), which the second
/// projection alone compares.
pub(crate) fn inaccessible_calls(p: &CfgProgram) -> bool {
    p.module.functions.iter().any(|f| {
        f.blocks.iter().any(|b| {
            b.exprs().iter().any(|e| {
                e.any(&mut |x| {
                    matches!(x, convcheck_ir::Expr::Store { access, .. }
                        if access.atomic == convcheck_ir::Access::EXTERNAL_CALL_INACCESSIBLE)
                })
            })
        })
    })
}
