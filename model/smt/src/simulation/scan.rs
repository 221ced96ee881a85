//! What the simulation reads off a function before it looks for a
//! relation: whether it models the function at all (`unsupported`), and
//! which parts of memory the two functions use (plain memory, byte loads,
//! stores, clobbers, stores that can race), which decide how `exec`
//! evaluates loads and stores and which conditions a step must meet.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{BarrierKind, CallKind, Expr, FuncId, InstKind};

/// Calls `visit` on every subexpression of function `f` of `p`.
pub(super) fn for_each_expr(p: &CfgProgram, f: FuncId, visit: &mut dyn FnMut(&Expr)) {
    if let Some(cfg) = p.module.functions.get(f) {
        for b in &cfg.blocks {
            for e in b.exprs() {
                e.walk(&mut |x| visit(x));
            }
        }
    }
}

/// Whether function `f` of `p` neither accesses memory atomically nor
/// passes a barrier: then every load of shared or global memory reads
/// what the thread stored there, or else its location's free value of the
/// one barrier phase (DESIGN.md 2.6), a function of the address and the
/// width.
pub(super) fn plain_memory(p: &CfgProgram, f: FuncId) -> bool {
    let mut plain = true;
    for_each_expr(p, f, &mut |e| match e {
        // An external call's event leaves nothing in memory.
        // A clobber, where `exec` takes it, changes nothing (no value is
        // loaded).
        Expr::Store { access, .. }
            if access.atomic != 0 && !access.is_call_event() && !access.is_clobber() =>
        {
            plain = false
        }
        Expr::Load { access, .. } if access.atomic != 0 => plain = false,
        Expr::Call {
            kind: CallKind::Barrier(..),
            ..
        } => plain = false,
        _ => {}
    });
    plain
}

/// Whether function `f` of `p` reads a value from memory (a load of bytes
/// whose value is used: what a clobber, `Access::CLOBBER_OBJECT`,
/// changes). A load that is a whole instruction of its own is evaluated
/// for nothing (`exec`: its value unused), so it does not count.
pub(super) fn byte_loads(p: &CfgProgram, f: FuncId) -> bool {
    let mut all = 0usize;
    for_each_expr(p, f, &mut |e| {
        if matches!(e, Expr::Load { access, .. } if access.bytes > 0) {
            all += 1;
        }
    });
    let mut unused = 0usize;
    if let Some(cfg) = p.module.functions.get(f) {
        for b in &cfg.blocks {
            for i in &b.insts {
                if matches!(&i.kind, InstKind::Eval(Expr::Load { access, .. }) if access.bytes > 0)
                {
                    unused += 1;
                }
            }
        }
    }
    all > unused
}

/// Whether function `f` of `p` has a clobber (what an external call that
/// may write memory leaves, `Access::CLOBBER_OBJECT`).
pub(super) fn clobbers(p: &CfgProgram, f: FuncId) -> bool {
    let mut any = false;
    for_each_expr(p, f, &mut |e| {
        if let Expr::Store { access, .. } = e {
            any |= access.is_clobber();
        }
    });
    any
}

/// Whether function `f` of `p` writes shared or global memory with a store
/// that can race (`convcheck_ir::hazards`: a clobber is no event, a
/// call's event is an atomic at its callee's pseudo-object; private
/// memory never races). A call's event is left out: it is an effect of
/// the call, not an access of memory (DESIGN.md 2.6 and 2.7), and only a
/// load computed from an integer equal to the pseudo-object's address
/// could meet it. Counting it would put the hazard condition on every
/// function that calls an external function, and costs
/// `nontrivial-unswitch.ll`'s `test7a` its proof (measured: 44 of 48
/// proved instead of 47 at load 9, `test7a` among the lost).
pub(super) fn racing_stores(p: &CfgProgram, f: FuncId) -> bool {
    let mut any = false;
    for_each_expr(p, f, &mut |e| {
        if let Expr::Store { access, space, .. } = e {
            any |= *space != convcheck_ir::Space::Local
                && !access.is_clobber()
                && !access.is_call_event();
        }
    });
    any
}

/// Whether function `f` of `p` stores bytes to memory.
pub(super) fn stores(p: &CfgProgram, f: FuncId) -> bool {
    let mut any = false;
    for_each_expr(p, f, &mut |e| {
        // (A clobber writes nothing the simulation reads: `exec` refuses
        // it where a value is loaded, and skips it elsewhere.)
        if let Expr::Store { access, .. } = e {
            any |= access.bytes > 0 && !access.is_clobber();
        }
    });
    any
}

/// Why no relation is sought for function `f` of `p`, if none is.
pub(super) fn unsupported(
    p: &CfgProgram,
    f: FuncId,
    allow_barrier_removal: bool,
) -> Option<String> {
    let cfg = p.module.functions.get(f)?;
    let ci = p.cycles.get(f)?;
    if !ci.is_reducible() {
        return Some("an irreducible cycle (its header is a choice)".into());
    }
    // A load whose value is unused is no event of its own here, so a
    // load moved across a barrier (a race: hazard-freedom) would go
    // unseen: functions with both are left to the bounded engines
    // (`examples/soundness/llvm/loads-src.ll`, `late_peek`).
    let (mut barrier, mut load) = (false, false);
    for b in &cfg.blocks {
        for e in b.exprs() {
            e.walk(&mut |x| match x {
                Expr::Call {
                    kind: CallKind::Barrier(..),
                    ..
                } => barrier = true,
                Expr::Load { .. } => load = true,
                _ => {}
            });
        }
    }
    if barrier && load {
        return Some(
            "loads and barriers in one function (a load moved across a barrier may race, which \
             the simulation does not check)"
                .into(),
        );
    }
    for b in &cfg.blocks {
        for i in &b.insts {
            if matches!(i.kind, InstKind::Token { .. }) || i.token.is_some() {
                return Some(
                    "convergence control tokens that are not aligned with the cycles (anchors, or hearts outside headers)"
                        .into(),
                );
            }
        }
        let mut why = None;
        for e in b.exprs() {
            e.walk(&mut |x| {
                if let Expr::Call { kind, .. } = x {
                    match kind {
                        CallKind::Real(_) => {
                            why.get_or_insert("calls of functions defined in the module");
                        }
                        CallKind::Barrier(BarrierKind::Plain, _) if allow_barrier_removal => {
                            why.get_or_insert("plain barriers that the transform may remove");
                        }
                        _ => {}
                    }
                }
            });
        }
        if let Some(w) = why {
            return Some(w.into());
        }
    }
    None
}
