//! The pretty-printer of the kernel language.
//!
//! [`print()`] writes a [`File`] back as source text that [`super::parse`]
//! turns into the same tree (ids and statement names included, spans aside)
//! for every tree the parser can produce.
//!
//! Layout: two-space indentation (labels one level out, statements after a
//! `case` one level in), one statement per line, except that a
//! compound substatement opens on its parent's line (`if (c) {`,
//! `} else {`, `do {`, `void f() {`) and a `for` init stays inside its
//! header. A statement's name is printed as a `// NAME` comment at the end
//! of the line where it starts; when another statement already starts on
//! that line (a compound after `if (c)`, a `for` init), the named statement
//! is moved to a line of its own first, so that the comment names exactly
//! that statement when the text is parsed again. Bodies of `case`, `default`,
//! labels and `[[clang::noconvergent]]` always start on the next line.
//! Expressions get the parentheses C precedence needs and no others, so
//! the printed text of a parsed file never nests deeper than its source.

use super::ast::{
    AssignOp, BinOp, CaseLabel, Convergence, Declaration, Expr, ExprKind, File, Function, Item,
    Param, Place, Stmt, StmtKind, UnOp,
};

/// Prints `file` as kernel source text.
pub fn print(file: &File) -> String {
    let mut p = Printer::default();
    for (i, item) in file.items.iter().enumerate() {
        if i > 0 {
            p.out.push('\n');
        }
        match item {
            Item::Function(f) => p.function(f),
            Item::Declaration(d) => p.declaration(d),
        }
    }
    p.out
}

const INDENT: &str = "  ";

#[derive(Default)]
struct Printer {
    out: String,
    /// The line being written.
    line: String,
    /// The name comment for the line being written.
    comment: Option<String>,
    /// Whether a statement starts on the line being written.
    started: bool,
    indent: usize,
}

impl Printer {
    fn write(&mut self, s: &str) {
        if self.line.is_empty() {
            for _ in 0..self.indent {
                self.line.push_str(INDENT);
            }
        }
        self.line.push_str(s);
    }

    fn newline(&mut self) {
        let text = self.line.trim_end();
        if !text.is_empty() || self.comment.is_some() {
            self.out.push_str(text);
            if let Some(c) = self.comment.take() {
                if !text.is_empty() {
                    self.out.push(' ');
                }
                self.out.push_str("// ");
                self.out.push_str(&c);
            }
            self.out.push('\n');
        }
        self.line.clear();
        self.comment = None;
        self.started = false;
    }

    /// Marks the start of `s` on the current line, moving to a new line
    /// first if `s` is named and another statement already starts here.
    fn begin(&mut self, s: &Stmt) {
        if s.name.is_some() && self.started {
            self.newline();
        }
        self.started = true;
        if let Some(n) = &s.name {
            self.comment = Some(n.clone());
        }
    }

    fn function(&mut self, f: &Function) {
        self.write(&format!("{} {}({}) ", f.ret, f.name, params(&f.params)));
        self.stmt(&f.body);
        self.newline();
    }

    fn declaration(&mut self, d: &Declaration) {
        let attr = match d.convergence {
            Convergence::Default => "",
            Convergence::Convergent => " __attribute__((convergent))",
            Convergence::NoConvergent => " __attribute__((noconvergent))",
        };
        self.write(&format!(
            "{} {}({}){attr};",
            d.ret,
            d.name,
            params(&d.params)
        ));
        self.newline();
    }

    /// Prints `s` from the current position; leaves its last line open.
    fn stmt(&mut self, s: &Stmt) {
        self.begin(s);
        match &s.kind {
            StmtKind::Observe => self.write("...;"),
            StmtKind::Empty => self.write(";"),
            StmtKind::Expr(e) => {
                self.write(&stmt_expr(e));
                self.write(";");
            }
            StmtKind::Local { .. } => {
                self.write(&simple_stmt(s));
                self.write(";");
            }
            StmtKind::Compound(list) => {
                self.write("{");
                self.newline();
                self.indent += 1;
                // Statements after a `case` are indented like its body.
                let mut after_case = false;
                for c in list {
                    let is_case = matches!(c.kind, StmtKind::Case { .. });
                    after_case |= is_case;
                    let extra = usize::from(after_case && !is_case);
                    self.indent += extra;
                    self.stmt(c);
                    self.newline();
                    self.indent -= extra;
                }
                self.indent -= 1;
                self.write("}");
            }
            StmtKind::If { cond, then, els } => {
                self.write(&format!("if ({})", expr(cond)));
                self.sub(then);
                if let Some(e) = els {
                    if matches!(then.kind, StmtKind::Compound(_)) {
                        self.write(" else");
                    } else {
                        self.newline();
                        self.write("else");
                    }
                    if matches!(e.kind, StmtKind::If { .. }) {
                        self.write(" ");
                        self.stmt(e);
                    } else {
                        self.sub(e);
                    }
                }
            }
            StmtKind::While { cond, body } => {
                self.write(&format!("while ({})", expr(cond)));
                self.sub(body);
            }
            StmtKind::DoWhile { body, cond } => {
                self.write("do");
                self.sub(body);
                if matches!(body.kind, StmtKind::Compound(_)) {
                    self.write(" ");
                } else {
                    self.newline();
                }
                self.write(&format!("while ({});", expr(cond)));
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                if init.is_none()
                    && step.is_none()
                    && matches!(cond, Some(c) if c.kind == ExprKind::Dots)
                {
                    self.write("for (...)");
                } else {
                    self.write("for (");
                    if let Some(i) = init {
                        self.begin(i);
                        self.write(&simple_stmt(i));
                    }
                    self.write(";");
                    if let Some(c) = cond {
                        self.write(&format!(" {}", expr(c)));
                    }
                    self.write(";");
                    if let Some(st) = step {
                        self.write(&format!(" {}", expr(st)));
                    }
                    self.write(")");
                }
                self.sub(body);
            }
            StmtKind::Switch { value, body } => {
                self.write(&format!("switch ({})", expr(value)));
                self.sub(body);
            }
            StmtKind::Case { label, body } => {
                match label {
                    CaseLabel::Case(v) => self.write(&format!("case {v}:")),
                    CaseLabel::Default => self.write("default:"),
                }
                self.newline();
                self.indent += 1;
                self.stmt(body);
                self.indent -= 1;
            }
            StmtKind::Label { label, body } => {
                // Labels stand one level out, as in seed 000.
                let indent = self.indent;
                self.indent = indent.saturating_sub(1);
                self.write(&format!("{label}:"));
                self.indent = indent;
                self.newline();
                self.stmt(body);
            }
            StmtKind::NoConvergent(body) => {
                self.write("[[clang::noconvergent]]");
                self.newline();
                self.stmt(body);
            }
            StmtKind::Goto(l) => self.write(&format!("goto {l};")),
            StmtKind::Break => self.write("break;"),
            StmtKind::Continue => self.write("continue;"),
            StmtKind::Return(None) => self.write("return;"),
            StmtKind::Return(Some(e)) => self.write(&format!("return {};", expr(e))),
        }
    }

    /// The substatement of `if`, `else`, `while`, `do`, `for`, `switch`: a
    /// compound opens on the current line, anything else on the next one,
    /// indented.
    fn sub(&mut self, s: &Stmt) {
        if matches!(s.kind, StmtKind::Compound(_)) {
            self.write(" ");
            self.stmt(s);
        } else {
            self.newline();
            self.indent += 1;
            self.stmt(s);
            self.indent -= 1;
        }
    }
}

fn params(ps: &[Param]) -> String {
    ps.iter()
        .map(|p| format!("{} {}", p.ty, p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A declaration or expression statement without its `;` (also a `for`
/// init clause).
fn simple_stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Local { ty, name, init } => match init {
            Some(e) => format!("{ty} {name} = {}", expr(e)),
            None => format!("{ty} {name}"),
        },
        StmtKind::Expr(e) => stmt_expr(e),
        // Not produced by the parser in a `for` init.
        _ => String::new(),
    }
}

/// An expression at the start of a statement: one that would begin with
/// `...` is parenthesised, since `...` there is an observation point.
fn stmt_expr(e: &Expr) -> String {
    let s = expr(e);
    if s.starts_with("...") {
        format!("({s})")
    } else {
        s
    }
}

/// Binding strength of an expression's top operator; higher binds tighter.
fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Assign { .. } => 1,
        ExprKind::Cond(..) => 2,
        ExprKind::Binary(op, ..) => 2 + binop_prec(*op),
        ExprKind::Unary(..) => 13,
        _ => 14,
    }
}

fn binop_prec(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::BitOr => 3,
        BinOp::BitXor => 4,
        BinOp::BitAnd => 5,
        BinOp::Eq | BinOp::Ne => 6,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
        BinOp::ULt | BinOp::ULe | BinOp::UGt | BinOp::UGe => 7,
        BinOp::Shl | BinOp::Shr | BinOp::LShr => 8,
        BinOp::Add | BinOp::Sub => 9,
        BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::UDiv | BinOp::URem => 10,
        // Float operators come from LLVM IR, like the unsigned ones.
        BinOp::F(_) => 7,
    }
}

/// The operator's spelling: C's, which the IR shares. The IR's unsigned
/// operators (from LLVM IR) have no kernel-language syntax; the parser
/// never produces them, and they print in the IR's spelling (`ult`).
fn binop_str(op: BinOp) -> &'static str {
    op.symbol()
}

/// Prints one expression as kernel-language text.
pub fn expr(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e, 1);
    s
}

/// Writes `e`, parenthesised if it binds more loosely than `min`.
fn write_expr(out: &mut String, e: &Expr, min: u8) {
    if prec(e) < min {
        out.push('(');
        write_expr(out, e, 1);
        out.push(')');
        return;
    }
    match &e.kind {
        ExprKind::Int(v) => out.push_str(&v.to_string()),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Tid => out.push_str("tid"),
        ExprKind::GroupSize => out.push('N'),
        ExprKind::Dots => out.push_str("..."),
        ExprKind::Uniform(a) | ExprKind::Invariant(a) => {
            out.push_str(if matches!(e.kind, ExprKind::Uniform(_)) {
                "uniform("
            } else {
                "invariant("
            });
            write_expr(out, a, 1);
            out.push(')');
        }
        // Width operators come from LLVM IR and have no kernel-language
        // syntax; the parser never produces them.
        ExprKind::Unary(op @ (UnOp::SExt(_) | UnOp::ZExt(_) | UnOp::F(_)), a) => {
            out.push_str(&op.name());
            out.push('(');
            write_expr(out, a, 1);
            out.push(')');
        }
        ExprKind::Unary(op, a) => {
            out.push(match op {
                UnOp::Not => '!',
                UnOp::Neg => '-',
                _ => '~',
            });
            // `- -x`, not the decrement `--x`.
            if *op == UnOp::Neg && matches!(a.kind, ExprKind::Unary(UnOp::Neg, _)) {
                out.push(' ');
            }
            write_expr(out, a, 13);
        }
        ExprKind::Binary(op, a, b) => {
            let p = 2 + binop_prec(*op);
            write_expr(out, a, p);
            out.push(' ');
            out.push_str(binop_str(*op));
            out.push(' ');
            write_expr(out, b, p + 1);
        }
        ExprKind::Cond(c, a, b) => {
            write_expr(out, c, 3);
            out.push_str(" ? ");
            write_expr(out, a, 1);
            out.push_str(" : ");
            write_expr(out, b, 2);
        }
        ExprKind::Call { callee, args, .. } => {
            out.push_str(callee);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(out, a, 1);
            }
            out.push(')');
        }
        ExprKind::Load { space, index, .. } => {
            out.push_str(space.name());
            out.push('[');
            write_expr(out, index, 1);
            out.push(']');
        }
        ExprKind::Assign { place, op, value } => {
            match place {
                Place::Var(n) => out.push_str(n),
                Place::Mem { space, index, .. } => {
                    out.push_str(space.name());
                    out.push('[');
                    write_expr(out, index, 1);
                    out.push(']');
                }
            }
            out.push_str(match op {
                AssignOp::Set => " = ",
                AssignOp::Add => " += ",
                AssignOp::Sub => " -= ",
                AssignOp::Mul => " *= ",
            });
            write_expr(out, value, 1);
        }
    }
}
