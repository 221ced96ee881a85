//! Small constructors for syntax trees.
//!
//! Generated trees carry id 0 and default spans everywhere;
//! [`crate::analysis::renumber`] gives ids in the parser's pre-order and
//! [`crate::analysis::respan`] the spans of the printed text.

use convcheck_lang::syntax::ast::{BinOp, Expr, ExprKind, Stmt, StmtId, StmtKind, UnOp};
use convcheck_lang::Span;

/// A statement without a name.
pub fn st(kind: StmtKind) -> Stmt {
    Stmt {
        id: StmtId(0),
        name: None,
        kind,
        span: Span::default(),
    }
}

/// A statement named `name` (printed as `// name`).
pub fn named(kind: StmtKind, name: String) -> Stmt {
    Stmt {
        name: Some(name),
        ..st(kind)
    }
}

/// An expression.
pub fn ex(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

/// A name (an oracle, a local or a parameter).
pub fn name(n: &str) -> Expr {
    ex(ExprKind::Name(n.to_string()))
}

/// An integer literal.
pub fn int(v: i64) -> Expr {
    ex(ExprKind::Int(v))
}

/// `tid`.
pub fn tid() -> Expr {
    ex(ExprKind::Tid)
}

/// `N`.
pub fn group() -> Expr {
    ex(ExprKind::GroupSize)
}

/// `a op b`.
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}

/// `!a`.
pub fn not(a: Expr) -> Expr {
    ex(ExprKind::Unary(UnOp::Not, Box::new(a)))
}

/// `callee(args)`.
pub fn call(callee: &str, args: Vec<Expr>) -> Expr {
    ex(ExprKind::Call {
        callee: callee.to_string(),
        args,
        id: StmtId(0),
    })
}

/// `{ list }`.
pub fn compound(list: Vec<Stmt>) -> Stmt {
    st(StmtKind::Compound(list))
}

/// `label: body`.
pub fn label(l: &str, body: Stmt) -> Stmt {
    st(StmtKind::Label {
        label: l.to_string(),
        body: Box::new(body),
    })
}

/// `if (cond) then`.
pub fn if_(cond: Expr, then: Stmt, els: Option<Stmt>) -> Stmt {
    st(StmtKind::If {
        cond,
        then: Box::new(then),
        els: els.map(Box::new),
    })
}
