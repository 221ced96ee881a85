//! Renumbering of a syntax tree's ids in pre-order (source order), the
//! way the parser numbers them: for trees built or rewritten by hand
//! (generators, shrinking, tests) that must look parsed.

use super::ast::*;

/// Renumbers every statement, call and memory access in pre-order (source
/// order), the way the parser numbers them.
pub fn renumber(file: &mut File) {
    let mut n = 0u32;
    for item in &mut file.items {
        if let Item::Function(f) = item {
            renumber_stmt(&mut f.body, &mut n);
        }
    }
}

fn next(n: &mut u32) -> StmtId {
    let id = StmtId(*n);
    *n += 1;
    id
}

fn renumber_stmt(s: &mut Stmt, n: &mut u32) {
    s.id = next(n);
    match &mut s.kind {
        StmtKind::Observe
        | StmtKind::Empty
        | StmtKind::Goto(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(None) => {}
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => renumber_expr(e, n),
        StmtKind::Local { init, .. } => {
            if let Some(e) = init {
                renumber_expr(e, n)
            }
        }
        StmtKind::Compound(list) => list.iter_mut().for_each(|c| renumber_stmt(c, n)),
        StmtKind::If { cond, then, els } => {
            renumber_expr(cond, n);
            renumber_stmt(then, n);
            if let Some(e) = els {
                renumber_stmt(e, n);
            }
        }
        StmtKind::While { cond, body } => {
            renumber_expr(cond, n);
            renumber_stmt(body, n);
        }
        StmtKind::DoWhile { body, cond } => {
            renumber_stmt(body, n);
            renumber_expr(cond, n);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                renumber_stmt(i, n);
            }
            if let Some(c) = cond {
                renumber_expr(c, n);
            }
            if let Some(s) = step {
                renumber_expr(s, n);
            }
            renumber_stmt(body, n);
        }
        StmtKind::Switch { value, body } => {
            renumber_expr(value, n);
            renumber_stmt(body, n);
        }
        StmtKind::Case { body, .. }
        | StmtKind::Label { body, .. }
        | StmtKind::NoConvergent(body) => renumber_stmt(body, n),
    }
}

fn renumber_expr(e: &mut Expr, n: &mut u32) {
    match &mut e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Name(_)
        | ExprKind::Tid
        | ExprKind::GroupSize
        | ExprKind::Dots => {}
        ExprKind::Uniform(a) | ExprKind::Invariant(a) | ExprKind::Unary(_, a) => {
            renumber_expr(a, n)
        }
        ExprKind::Binary(_, a, b) => {
            renumber_expr(a, n);
            renumber_expr(b, n);
        }
        ExprKind::Cond(a, b, c) => {
            renumber_expr(a, n);
            renumber_expr(b, n);
            renumber_expr(c, n);
        }
        ExprKind::Call { args, id, .. } => {
            *id = next(n);
            args.iter_mut().for_each(|a| renumber_expr(a, n));
        }
        ExprKind::Load { index, id, .. } => {
            *id = next(n);
            renumber_expr(index, n);
        }
        ExprKind::Assign { place, value, .. } => {
            if let Place::Mem { index, id, .. } = place {
                *id = next(n);
                renumber_expr(index, n);
            }
            renumber_expr(value, n);
        }
    }
}
