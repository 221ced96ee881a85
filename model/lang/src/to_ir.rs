//! Kernel-language expressions as IR operands, and a kernel's op and oracle
//! tables.
//!
//! Analysis ([`crate::sema`]) has already decided what every name and call
//! means; this module writes those decisions into the expression itself, so
//! that the IR never looks a name up: a parameter or declared local of the
//! function is [`Expr::Var`], any other name (and `...` used as a value) is
//! [`Expr::Oracle`], `uniform(e)` and `invariant(e)` become `e` (their
//! meaning lives in the oracles' classes), a load names the oracle that
//! gives its value, and a call carries its [`convcheck_ir::CallKind`].
//!
//! The op table of a kernel is its node table: op ids are statement ids, so
//! the source level and every CFG derived from it name instances alike.

use crate::sema::{FuncId, Kernel};
use crate::syntax::ast::{self, ExprKind, Place};
use convcheck_ir::{CallKind, Expr, OpInfo};

/// The IR form of `e`, an expression of function `f`.
pub fn expr(k: &Kernel, f: FuncId, e: &ast::Expr) -> Expr {
    let go = |x: &ast::Expr| Box::new(expr(k, f, x));
    match &e.kind {
        ExprKind::Int(v) => Expr::Const(*v),
        ExprKind::Bool(b) => Expr::Const(i64::from(*b)),
        ExprKind::Tid => Expr::Tid,
        ExprKind::GroupSize => Expr::GroupSize,
        ExprKind::Name(n) => {
            if k.functions.get(f).is_some_and(|fi| fi.locals.contains(n)) {
                Expr::Var(n.clone())
            } else {
                match k.oracle_ids.get(n) {
                    Some(&o) => Expr::Oracle(o),
                    None => Expr::Const(0),
                }
            }
        }
        ExprKind::Dots => match k.dots.get(&e.span.start) {
            Some(&o) => Expr::Oracle(o),
            None => Expr::Const(0),
        },
        ExprKind::Uniform(a) | ExprKind::Invariant(a) => expr(k, f, a),
        ExprKind::Unary(op, a) => Expr::Unary(*op, go(a)),
        ExprKind::Binary(op, a, b) => Expr::Binary(*op, go(a), go(b)),
        ExprKind::Cond(c, a, b) => Expr::Select(go(c), go(a), go(b)),
        ExprKind::Load { space, index, id } => Expr::Load {
            op: *id,
            space: *space,
            index: go(index),
            value: k.load_oracles.get(id).copied(),
            access: convcheck_ir::Access::ELEMENT,
        },
        ExprKind::Assign { place, op, value } => match place {
            Place::Var(v) => Expr::Assign {
                var: v.clone(),
                op: *op,
                value: go(value),
            },
            Place::Mem { space, index, id } => Expr::Store {
                op: *id,
                space: *space,
                index: go(index),
                // `shared[i] += v` is a store of a value the model does not
                // track: its instance and its address are what count.
                value: go(value),
                access: convcheck_ir::Access::ELEMENT,
            },
        },
        ExprKind::Call { callee, args, id } => match k.calls.get(id) {
            // A call analysis did not resolve has no meaning: it reads 0.
            None => Expr::Const(0),
            Some(kind) => {
                let mut args: Vec<Expr> = args.iter().map(|a| expr(k, f, a)).collect();
                if matches!(kind, CallKind::Op(_)) {
                    args.extend(cuda_default_args(callee, args.len()));
                }
                Expr::Call {
                    op: *id,
                    kind: *kind,
                    callee: callee.clone(),
                    args,
                }
            }
        },
    }
}

/// The arguments CUDA's headers give a warp operation when the call leaves
/// them out (`__syncwarp()` is `__syncwarp(0xffffffff)`, `__shfl_sync(m,
/// v, l)` is `__shfl_sync(m, v, l, 32)`): a convergent operation's
/// arguments are observed (DESIGN.md 2.7), so the kernel language's reading
/// of a `.cu` file must pass what clang passes.
fn cuda_default_args(callee: &str, given: usize) -> Vec<Expr> {
    let defaults: &[(usize, i64)] = match callee {
        "__syncwarp" => &[(0, 0xffff_ffff)],
        "__shfl_sync" | "__shfl_up_sync" | "__shfl_down_sync" | "__shfl_xor_sync" => &[(3, 32)],
        _ => &[],
    };
    defaults
        .iter()
        .filter(|(at, _)| *at >= given)
        .map(|(_, v)| Expr::Const(*v))
        .collect()
}

/// The op table of a kernel: one op per statement and eventful expression.
pub fn ops(k: &Kernel) -> Vec<OpInfo> {
    k.nodes
        .iter()
        .map(|n| OpInfo {
            label: n.label.clone(),
            span: n.span,
            kind: n.kind,
            func: n.func,
            memory_none: false,
        })
        .collect()
}
