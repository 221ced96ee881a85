//! The syntax tree of the kernel language (DESIGN.md 2.1).
//!
//! The language is the C subset in which seed 000 writes its examples:
//! functions, compound statements, `if`, `while`, `do`, `for`, `switch` with
//! `case` / `default`, labels, `goto`, `break`, `continue`, `return`, the
//! observation point `...`, calls, declarations of locals, assignments,
//! memory accesses through the reserved arrays `shared`, `global` and `local`,
//! barriers, and the attribute `[[clang::noconvergent]]`.
//!
//! Every statement carries a [`StmtId`] (its pre-order number in the file,
//! so ids follow source order) and a [`Span`]. Calls and memory accesses
//! inside expressions carry an [`ExprId`] from the same numbering, so that
//! every static operation of a kernel has one id. Spans are positions only:
//! [`File::strip_spans`] resets them so that two trees can be compared for
//! structure alone (the pretty-print round trip).

use crate::span::Span;
pub use convcheck_ir::{AssignOp, BinOp, OracleClass, Space, UnOp};

/// The number of a statement or of an eventful expression (call, memory
/// access) in pre-order over the file. Ids follow source order, which is the
/// order seed 000 uses to define backwards jumps. A kernel's ids are the op
/// ids of the IR module it lowers to.
pub use convcheck_ir::OpId as StmtId;

/// The id of an eventful expression; it shares the numbering of [`StmtId`].
pub type ExprId = StmtId;

/// A parsed kernel file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct File {
    /// Top-level items in source order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A function with a body.
    Function(Function),
    /// A function declaration without a body (an external operation).
    Declaration(Declaration),
}

/// A function attribute that matters to the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Convergence {
    /// No attribute: functions are convergent by default, as in CUDA and HIP.
    #[default]
    Default,
    /// `__attribute__((convergent))` or `__attribute__(("convergent"))`.
    Convergent,
    /// `__attribute__((noconvergent))` or `[[clang::noconvergent]]`: calls are
    /// not convergent operations.
    NoConvergent,
}

/// A declaration `TYPE name(PARAMS) ATTRS;` of a function defined elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The return type as written (`void`, `unsigned long`, ...).
    pub ret: String,
    /// The function's name.
    pub name: String,
    /// Parameters as written.
    pub params: Vec<Param>,
    /// What the attributes say about convergence.
    pub convergence: Convergence,
    /// Where the declaration stands.
    pub span: Span,
}

/// A function definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The return type as written.
    pub ret: String,
    /// The function's name.
    pub name: String,
    /// Parameters as written.
    pub params: Vec<Param>,
    /// The body, always a [`StmtKind::Compound`].
    pub body: Stmt,
    /// Where the function's header stands.
    pub span: Span,
}

/// One parameter `TYPE name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The type as written (`unsigned long`).
    pub ty: String,
    /// The parameter's name.
    pub name: String,
}

/// A statement with its id, its name and its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// Pre-order number in the file.
    pub id: StmtId,
    /// The `// NAME` comment that names this statement, if any. It is the
    /// label shown in trace tables.
    pub name: Option<String>,
    /// What the statement is.
    pub kind: StmtKind,
    /// Where it stands.
    pub span: Span,
}

/// A `case` label's value, or `default`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CaseLabel {
    /// `case V:`
    Case(i64),
    /// `default:`
    Default,
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `...` used as a statement: an observation point, that is a convergent
    /// operation that does nothing but lets us observe convergence. The
    /// trailing `;` is optional, as in seed 000.
    Observe,
    /// `;` or an attribute alone such as `[[fallthrough]];`.
    Empty,
    /// An expression statement: a call, an assignment, a store.
    Expr(Expr),
    /// A declaration of a local `TYPE name = init;`.
    Local {
        /// The type as written (`auto`, `int`).
        ty: String,
        /// The local's name.
        name: String,
        /// The initial value, if any.
        init: Option<Expr>,
    },
    /// `{ ... }`.
    Compound(Vec<Stmt>),
    /// `if (cond) then else els`.
    If {
        /// The condition.
        cond: Expr,
        /// The `then` substatement.
        then: Box<Stmt>,
        /// The `else` substatement, if any.
        els: Option<Box<Stmt>>,
    },
    /// `while (cond) body`.
    While {
        /// The condition.
        cond: Expr,
        /// The body.
        body: Box<Stmt>,
    },
    /// `do body while (cond);`.
    DoWhile {
        /// The body.
        body: Box<Stmt>,
        /// The condition.
        cond: Expr,
    },
    /// `for (init; cond; step) body`; a missing condition is `true`.
    /// `for (...)` is written with `init` and `step` empty and `cond` the
    /// anonymous oracle `...`.
    For {
        /// The init clause: a declaration or an expression statement.
        init: Option<Box<Stmt>>,
        /// The condition.
        cond: Option<Expr>,
        /// The step expression.
        step: Option<Expr>,
        /// The body.
        body: Box<Stmt>,
    },
    /// `switch (value) body`.
    Switch {
        /// The scrutinee.
        value: Expr,
        /// The body, where `case` labels stand.
        body: Box<Stmt>,
    },
    /// `case V: stmt` or `default: stmt`.
    Case {
        /// The value or `default`.
        label: CaseLabel,
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `label: stmt`.
    Label {
        /// The label's name.
        label: String,
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `goto label;`.
    Goto(String),
    /// `break;`.
    Break,
    /// `continue;`.
    Continue,
    /// `return;` or `return e;`.
    Return(Option<Expr>),
    /// `[[clang::noconvergent]] stmt`: convergence at the start of the
    /// statement is implementation-defined (seed 000, The noconvergent
    /// Statement).
    NoConvergent(Box<Stmt>),
}

/// The place an assignment writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A local variable or parameter.
    Var(String),
    /// `space[index]`: a store; its [`ExprId`] identifies the access.
    Mem {
        /// Which array.
        space: Space,
        /// The index.
        index: Box<Expr>,
        /// The access's id.
        id: ExprId,
    },
}

/// An expression with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it stands.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer literal; `true` and `false` are 1 and 0.
    Int(i64),
    /// `true` or `false` as written.
    Bool(bool),
    /// A name: a local, a parameter, or else an oracle.
    Name(String),
    /// `tid` (also `threadIdx.x`, `get_local_id(0)`): the thread's index.
    Tid,
    /// `N` (also `blockDim.x`, `get_local_size(0)`): the group size.
    GroupSize,
    /// `...` where a value is expected: an anonymous varying oracle.
    Dots,
    /// `uniform(e)`: the oracles in `e` are uniform.
    Uniform(Box<Expr>),
    /// `invariant(e)`: the oracles in `e` are invariant.
    Invariant(Box<Expr>),
    /// `op e`.
    Unary(UnOp, Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `f(args)`: an oracle in a condition, a convergent operation or a real
    /// call elsewhere (see `sema`).
    Call {
        /// The callee's name.
        callee: String,
        /// The arguments.
        args: Vec<Expr>,
        /// The call's id.
        id: ExprId,
    },
    /// `space[index]` read.
    Load {
        /// Which array.
        space: Space,
        /// The index.
        index: Box<Expr>,
        /// The access's id.
        id: ExprId,
    },
    /// `place op value`, also `x++` / `++x` (as `x += 1`).
    Assign {
        /// What is written.
        place: Place,
        /// How.
        op: AssignOp,
        /// The value.
        value: Box<Expr>,
    },
}

impl Stmt {
    /// Calls `f` on this statement and every statement inside it, pre-order.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Stmt)) {
        f(self);
        for child in self.children() {
            child.walk(f);
        }
    }

    /// The direct substatements, in source order.
    pub fn children(&self) -> Vec<&Stmt> {
        match &self.kind {
            StmtKind::Compound(list) => list.iter().collect(),
            StmtKind::If { then, els, .. } => {
                let mut v = vec![&**then];
                if let Some(e) = els {
                    v.push(&**e);
                }
                v
            }
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::Switch { body, .. }
            | StmtKind::Case { body, .. }
            | StmtKind::Label { body, .. }
            | StmtKind::NoConvergent(body) => vec![&**body],
            StmtKind::For { init, body, .. } => {
                let mut v = Vec::new();
                if let Some(i) = init {
                    v.push(&**i);
                }
                v.push(&**body);
                v
            }
            StmtKind::Observe
            | StmtKind::Empty
            | StmtKind::Expr(_)
            | StmtKind::Local { .. }
            | StmtKind::Goto(_)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return(_) => Vec::new(),
        }
    }

    /// Whether the statement is an iteration statement.
    pub fn is_loop(&self) -> bool {
        matches!(
            self.kind,
            StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. }
        )
    }
}

impl File {
    /// The function definitions in source order.
    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.items.iter().filter_map(|i| match i {
            Item::Function(f) => Some(f),
            Item::Declaration(_) => None,
        })
    }

    /// The declarations in source order.
    pub fn declarations(&self) -> impl Iterator<Item = &Declaration> {
        self.items.iter().filter_map(|i| match i {
            Item::Declaration(d) => Some(d),
            Item::Function(_) => None,
        })
    }

    /// Resets every span, so that trees can be compared for structure only.
    pub fn strip_spans(&mut self) {
        for item in &mut self.items {
            match item {
                Item::Function(f) => {
                    f.span = Span::default();
                    strip_stmt(&mut f.body);
                }
                Item::Declaration(d) => d.span = Span::default(),
            }
        }
    }
}

fn strip_stmt(s: &mut Stmt) {
    s.span = Span::default();
    match &mut s.kind {
        StmtKind::Observe
        | StmtKind::Empty
        | StmtKind::Goto(_)
        | StmtKind::Break
        | StmtKind::Continue => {}
        StmtKind::Expr(e) => strip_expr(e),
        StmtKind::Return(e) => {
            if let Some(e) = e {
                strip_expr(e)
            }
        }
        StmtKind::Local { init, .. } => {
            if let Some(e) = init {
                strip_expr(e)
            }
        }
        StmtKind::Compound(list) => list.iter_mut().for_each(strip_stmt),
        StmtKind::If { cond, then, els } => {
            strip_expr(cond);
            strip_stmt(then);
            if let Some(e) = els {
                strip_stmt(e)
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            strip_expr(cond);
            strip_stmt(body);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                strip_stmt(i)
            }
            if let Some(c) = cond {
                strip_expr(c)
            }
            if let Some(s) = step {
                strip_expr(s)
            }
            strip_stmt(body);
        }
        StmtKind::Switch { value, body } => {
            strip_expr(value);
            strip_stmt(body);
        }
        StmtKind::Case { body, .. }
        | StmtKind::Label { body, .. }
        | StmtKind::NoConvergent(body) => strip_stmt(body),
    }
}

fn strip_expr(e: &mut Expr) {
    e.span = Span::default();
    match &mut e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Name(_)
        | ExprKind::Tid
        | ExprKind::GroupSize
        | ExprKind::Dots => {}
        ExprKind::Uniform(a) | ExprKind::Invariant(a) | ExprKind::Unary(_, a) => strip_expr(a),
        ExprKind::Binary(_, a, b) => {
            strip_expr(a);
            strip_expr(b);
        }
        ExprKind::Cond(a, b, c) => {
            strip_expr(a);
            strip_expr(b);
            strip_expr(c);
        }
        ExprKind::Call { args, .. } => args.iter_mut().for_each(strip_expr),
        ExprKind::Load { index, .. } => strip_expr(index),
        ExprKind::Assign { place, value, .. } => {
            if let Place::Mem { index, .. } = place {
                strip_expr(index);
            }
            strip_expr(value);
        }
    }
}

impl Expr {
    /// Calls `f` on this expression and every subexpression, pre-order.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Name(_)
            | ExprKind::Tid
            | ExprKind::GroupSize
            | ExprKind::Dots => {}
            ExprKind::Uniform(a) | ExprKind::Invariant(a) | ExprKind::Unary(_, a) => a.walk(f),
            ExprKind::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Cond(a, b, c) => {
                a.walk(f);
                b.walk(f);
                c.walk(f);
            }
            ExprKind::Call { args, .. } => args.iter().for_each(|a| a.walk(f)),
            ExprKind::Load { index, .. } => index.walk(f),
            ExprKind::Assign { place, value, .. } => {
                if let Place::Mem { index, .. } = place {
                    index.walk(f);
                }
                value.walk(f);
            }
        }
    }
}
