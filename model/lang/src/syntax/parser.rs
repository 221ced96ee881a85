//! The parser of the kernel language (DESIGN.md 2.1).
//!
//! [`parse`] reads a file of function definitions and declarations written in
//! the C subset of seed 000 and returns its [`File`], or every error it
//! found (at most one per top-level item: after an error the parser skips to
//! the end of the item and goes on with the next one).
//!
//! Decisions worth knowing:
//! - Statements get their [`StmtId`] when their parsing starts, and calls and
//!   memory accesses get theirs when their node starts, from one counter per
//!   file: ids are a pre-order numbering in source order.
//! - A `// NAME` comment names the first statement (in pre-order) that starts
//!   on its line, looking through `label:`, `case V:`, `default:` and
//!   `[[clang::noconvergent]]` to the statement they wrap when that statement
//!   starts on the same line too. A name used twice in one function is an
//!   error.
//! - `...` as a statement is an observation point and its `;` is optional;
//!   `...` anywhere an expression is expected is the anonymous oracle.
//! - `[[attr]]` before a statement makes it `noconvergent` when the attribute
//!   text contains `noconvergent`; other attributes are dropped, and
//!   `[[attr]];` is an empty statement.
//! - A local declaration is a statement that starts with a type word
//!   (`int`, `auto`, `unsigned`, `const`, `uint32_t`, ... see `TYPE_WORDS`);
//!   after it, every identifier but the last is part of the type, so
//!   `const my_t x = 1;` works but `my_t x = 1;` does not.
//! - In a function header every identifier before the last one in front of
//!   `(` is part of the return type (`__global__ void`, `kernel void`).
//!   `__attribute__((...))` and `[[...]]` may stand around a declaration;
//!   their text decides its [`Convergence`] (`noconvergent` before
//!   `convergent`). On a definition they are accepted and ignored.
//! - `threadIdx.x` and `get_local_id(0)` are `tid`; `blockDim.x` and
//!   `get_local_size(0)` are `N`; `uniform(e)`, `invariant(e)` and
//!   `shared[e]` / `global[e]` / `local[e]` are special only when followed by
//!   `(` or `[`. `x++`, `++x` and `x += 1` are the same tree.
//! - `x op= v` for `/ % & | ^ << >>` is sugar: the IR's assignment
//!   operators are `=`, `+=`, `-=` and `*=` only, so on a variable it
//!   becomes `x = x op v`, and on memory (`shared[i] >>= v`) a store of `v`,
//!   as `shared[i] += v` is, since values in memory are not modelled.
//! - Nesting is limited in the units a reader counts, so that no input can
//!   exhaust the stack: a statement may be nested inside at most
//!   [`MAX_STMT_NESTING`] statements (a `{ }` block that is the body of a
//!   statement counts with that statement, so 128 nested `if (c) { ... }`
//!   are 128 levels), and an expression at most [`MAX_EXPR_NESTING`] levels
//!   deep (each operator, assignment, parenthesis, call, subscript,
//!   `uniform(...)` / `invariant(...)` and `?:` is a level; a statement's own
//!   expression is not). At both limits together the parser, the printer,
//!   the analysis and lowering need between 512 and 768 KiB of stack at the
//!   test profile's opt-level 1 (measured 2026-11-24), so they run on a 2
//!   MiB test thread
//!   (`model/lang/tests/syntax.rs::nesting_at_both_limits_runs_on_a_small_stack`).
//!
//! Why this file is long: it is one recursive-descent grammar (statements,
//! expressions, declarations) whose functions call each other; the lexer
//! and the printer already live apart.

use super::ast::{
    AssignOp, BinOp, CaseLabel, Convergence, Declaration, Expr, ExprKind, File, Function, Item,
    Param, Place, Space, Stmt, StmtId, StmtKind, UnOp,
};
use super::lexer::{lex, NameComment, Tok, Token};
use crate::span::{Diagnostic, Diagnostics, Pos, Span};
use std::collections::HashMap;

/// How many statements one statement may be nested inside. A `{ }` block
/// that is the body of a statement (`if`, `else`, a loop, `switch`, a label,
/// `case`, `[[...]]`, a function) counts with that statement; a block
/// standing alone counts as one; `else if` is an `if` nested in the `else`.
pub const MAX_STMT_NESTING: u32 = 128;

/// How many levels one expression may nest: each unary or binary operator,
/// assignment, parenthesis, call, subscript, `uniform(...)`,
/// `invariant(...)` and `?:` is a level, so `a + b + c` has two. The
/// expression of a statement (a condition, an initializer) starts at 0.
pub const MAX_EXPR_NESTING: u32 = 128;

/// At most this many diagnostics are reported for one file.
const MAX_DIAGNOSTICS: usize = 50;

/// Words that start a local declaration.
#[rustfmt::skip]
const TYPE_WORDS: &[&str] = &[
    "void", "bool", "_Bool", "char", "short", "int", "long", "float", "double", "half", "signed",
    "unsigned", "auto", "const", "volatile", "static", "register", "size_t", "ssize_t",
    "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
    "uint64_t", "uint", "uchar", "ushort", "ulong",
];

/// Words that can never be a name.
#[rustfmt::skip]
const RESERVED: &[&str] = &[
    "if", "else", "while", "do", "for", "switch", "case", "default", "goto", "break", "continue",
    "return", "true", "false", "__attribute__", "sizeof", "struct", "union", "enum", "typedef",
];

fn is_type_word(w: &str) -> bool {
    TYPE_WORDS.contains(&w)
}

fn is_reserved(w: &str) -> bool {
    RESERVED.contains(&w)
}

/// Parses the kernel file `src`; `file_name` is used in diagnostics.
///
/// Returns the syntax tree, or every error found (each as
/// `file:line:col: message`). Never panics, whatever the input.
pub fn parse(file_name: &str, src: &str) -> Result<File, Diagnostics> {
    let lexed = lex(file_name, src).map_err(Diagnostics::from)?;
    let mut p = Parser {
        file: file_name,
        toks: lexed.tokens,
        pos: 0,
        next_id: 0,
        stmt_depth: 0,
        expr_depth: 0,
        prev_end: Pos { line: 1, col: 1 },
        names: lexed.names.into_iter().map(|n| (n.pos.line, n)).collect(),
    };
    let mut items = Vec::new();
    let mut diags = Vec::new();
    while !p.at_eof() && diags.len() < MAX_DIAGNOSTICS {
        let start = p.pos;
        match p.item() {
            Ok(item) => items.push(item),
            Err(d) => {
                diags.push(d);
                p.recover(start);
            }
        }
    }
    if diags.is_empty() {
        Ok(File { items })
    } else {
        Err(Diagnostics(diags))
    }
}

struct Parser<'a> {
    file: &'a str,
    /// Never empty: the last token is `Eof`.
    toks: Vec<Token>,
    pos: usize,
    next_id: u32,
    /// Statements open around the current token.
    stmt_depth: u32,
    /// Expression levels open in the current statement's expression.
    expr_depth: u32,
    prev_end: Pos,
    /// Naming comments by line, removed once attached.
    names: HashMap<u32, NameComment>,
}

type PResult<T> = Result<T, Diagnostic>;

/// An assignment operator as written: one the IR has, or `x op= v` for a
/// binary operator the IR's assignments lack (see [`Parser::assignment`]).
#[derive(Clone, Copy)]
enum Compound {
    Op(AssignOp),
    Sugar(BinOp),
}

/// Describes a token for "found ..." in messages.
fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Int(v) => format!("`{v}`"),
        Tok::Str(s) => format!("string literal {s:?}"),
        Tok::Punct(p) => format!("`{p}`"),
        Tok::Eof => "end of file".to_string(),
    }
}

fn binop(t: &Tok) -> Option<(BinOp, u8)> {
    let Tok::Punct(p) = t else { return None };
    Some(match *p {
        "||" => (BinOp::Or, 1),
        "&&" => (BinOp::And, 2),
        "|" => (BinOp::BitOr, 3),
        "^" => (BinOp::BitXor, 4),
        "&" => (BinOp::BitAnd, 5),
        "==" => (BinOp::Eq, 6),
        "!=" => (BinOp::Ne, 6),
        "<" => (BinOp::Lt, 7),
        "<=" => (BinOp::Le, 7),
        ">" => (BinOp::Gt, 7),
        ">=" => (BinOp::Ge, 7),
        "<<" => (BinOp::Shl, 8),
        ">>" => (BinOp::Shr, 8),
        "+" => (BinOp::Add, 9),
        "-" => (BinOp::Sub, 9),
        "*" => (BinOp::Mul, 10),
        "/" => (BinOp::Div, 10),
        "%" => (BinOp::Rem, 10),
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    // ----- tokens -----

    fn tok_at(&self, k: usize) -> &Token {
        let i = (self.pos + k).min(self.toks.len().saturating_sub(1));
        // `toks` always ends with `Eof`, so `i` is in bounds; fall back to
        // the last token defensively.
        &self.toks[i]
    }

    fn peek(&self) -> &Tok {
        &self.tok_at(0).tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.tok_at(k).tok
    }

    fn peek_span(&self) -> Span {
        self.tok_at(0).span
    }

    fn at_eof(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }

    fn bump(&mut self) -> Token {
        let t = self.tok_at(0).clone();
        if !matches!(t.tok, Tok::Eof) {
            self.pos += 1;
            self.prev_end = t.span.end;
        }
        t
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_punct_at(&self, k: usize, p: &str) -> bool {
        matches!(self.peek_at(k), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn error_here(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.file, self.peek_span().start, message)
    }

    fn expected(&self, what: &str) -> Diagnostic {
        self.error_here(format!("expected {what}, found {}", describe(self.peek())))
    }

    fn expect_punct(&mut self, p: &str, context: &str) -> PResult<Span> {
        if self.is_punct(p) {
            Ok(self.bump().span)
        } else {
            Err(self.expected(&format!("`{p}` {context}")))
        }
    }

    fn new_id(&mut self) -> PResult<StmtId> {
        let id = self.next_id;
        self.next_id = id
            .checked_add(1)
            .ok_or_else(|| self.error_here("too many statements and operations in one file"))?;
        Ok(StmtId(id))
    }

    /// Opens one expression level (see [`MAX_EXPR_NESTING`]).
    fn enter(&mut self) -> PResult<()> {
        if self.expr_depth >= MAX_EXPR_NESTING {
            return Err(self.expr_too_deep());
        }
        self.expr_depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.expr_depth = self.expr_depth.saturating_sub(1);
    }

    #[cold]
    fn expr_too_deep(&self) -> Diagnostic {
        self.error_here(format!(
            "nesting too deep: this expression is nested {} levels deep, at most \
             {MAX_EXPR_NESTING} are allowed (each operator, assignment, parenthesis, \
             call and subscript is a level)",
            MAX_EXPR_NESTING + 1
        ))
    }

    #[cold]
    fn stmt_too_deep(&self) -> Diagnostic {
        self.error_here(format!(
            "nesting too deep: this statement is inside {} statements, at most \
             {MAX_STMT_NESTING} are allowed (each `if`, `else`, loop, `switch`, label, \
             `case` and block `{{ }}` around it counts; a block that is a statement's \
             body counts with the statement)",
            self.stmt_depth
        ))
    }

    /// After an error in the item that started at token `start`, skips to
    /// the end of that item: past its first `;`, or past the `}` matching its
    /// first `{`, or past a stray `}`.
    fn recover(&mut self, start: usize) {
        let mut i = start;
        let n = self.toks.len();
        let mut end = n.saturating_sub(1);
        while i < n {
            match &self.toks[i].tok {
                Tok::Punct(";") | Tok::Punct("}") => {
                    end = i + 1;
                    break;
                }
                Tok::Punct("{") => {
                    let mut depth = 0usize;
                    let mut j = i;
                    while j < n {
                        match &self.toks[j].tok {
                            Tok::Punct("{") => depth += 1,
                            Tok::Punct("}") => {
                                depth = depth.saturating_sub(1);
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    end = (j + 1).min(n.saturating_sub(1));
                    break;
                }
                Tok::Eof => {
                    end = i;
                    break;
                }
                _ => i += 1,
            }
        }
        // Always make progress.
        let end = end.max(start + 1);
        self.pos = end.min(n.saturating_sub(1));
        self.stmt_depth = 0;
        self.expr_depth = 0;
    }

    // ----- attributes -----

    fn at_std_attr(&self) -> bool {
        self.is_punct("[") && self.is_punct_at(1, "[")
    }

    /// `[[ ... ]]`; returns the text inside.
    fn std_attr(&mut self) -> PResult<String> {
        let open = self.peek_span().start;
        self.bump();
        self.bump();
        let mut text = String::new();
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::Eof => {
                    return Err(self.error_here(format!(
                        "expected `]]` to close the attribute at {}:{}, found end of file",
                        open.line, open.col
                    )))
                }
                Tok::Punct("[") | Tok::Punct("(") | Tok::Punct("{") => depth += 1,
                Tok::Punct("]") if depth == 0 => {
                    self.bump();
                    self.expect_punct("]", "to close the attribute")?;
                    return Ok(text);
                }
                Tok::Punct("]") | Tok::Punct(")") | Tok::Punct("}") => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            }
            let t = self.bump();
            push_token_text(&mut text, &t.tok);
        }
    }

    /// `__attribute__(( ... ))`; returns the text inside.
    fn gnu_attr(&mut self) -> PResult<String> {
        self.bump();
        self.expect_punct("(", "after `__attribute__`")?;
        let open = self.expect_punct("(", "after `__attribute__(`")?;
        let mut text = String::new();
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::Eof => {
                    return Err(self.error_here(format!(
                        "expected `))` to close the attribute at {}:{}, found end of file",
                        open.start.line, open.start.col
                    )))
                }
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") if depth == 0 => {
                    self.bump();
                    self.expect_punct(")", "to close `__attribute__((`")?;
                    return Ok(text);
                }
                Tok::Punct(")") => depth -= 1,
                _ => {}
            }
            let t = self.bump();
            push_token_text(&mut text, &t.tok);
        }
    }

    /// Whether the next tokens are a `[[...]]` that is not `noconvergent`
    /// and is directly followed by `}`: such an attribute attaches to
    /// nothing and is dropped. Consumes it if so.
    fn skip_dangling_attr(&mut self) -> PResult<bool> {
        if !self.at_std_attr() {
            return Ok(false);
        }
        let save = (self.pos, self.prev_end);
        let text = self.std_attr()?;
        if !text.contains("noconvergent") && self.is_punct("}") {
            return Ok(true);
        }
        (self.pos, self.prev_end) = save;
        Ok(false)
    }

    // ----- items -----

    fn item(&mut self) -> PResult<Item> {
        self.stmt_depth = 0;
        self.expr_depth = 0;
        let start = self.peek_span().start;
        let mut attrs = String::new();
        // Type words, `*`, and the name last.
        let mut words: Vec<(String, Span)> = Vec::new();
        loop {
            match self.peek().clone() {
                Tok::Ident(w) if w == "__attribute__" => {
                    attrs.push_str(&self.gnu_attr()?);
                    attrs.push(' ');
                }
                Tok::Punct("[") if self.is_punct_at(1, "[") => {
                    attrs.push_str(&self.std_attr()?);
                    attrs.push(' ');
                }
                Tok::Ident(w) => {
                    let span = self.bump().span;
                    words.push((w, span));
                }
                Tok::Punct("*") => {
                    let span = self.bump().span;
                    words.push(("*".to_string(), span));
                }
                Tok::Punct("(") if !words.is_empty() => break,
                _ if words.is_empty() => {
                    return Err(self.expected("a function definition or declaration"))
                }
                _ => return Err(self.expected("`(` after the function name")),
            }
        }
        let Some((name, name_span)) = words.pop() else {
            return Err(self.expected("a function definition or declaration"));
        };
        if name == "*" || is_reserved(&name) || is_type_word(&name) {
            return Err(Diagnostic::new(
                self.file,
                name_span.start,
                format!("expected a function name, found `{name}`"),
            ));
        }
        if words.is_empty() {
            return Err(Diagnostic::new(
                self.file,
                name_span.start,
                format!("expected a return type before the function name `{name}`"),
            ));
        }
        if let Some((w, span)) = words.iter().find(|(w, _)| is_reserved(w)) {
            return Err(Diagnostic::new(
                self.file,
                span.start,
                format!("expected a type, found `{w}`"),
            ));
        }
        let ret = join_words(words.iter().map(|(w, _)| w.as_str()));
        let params = self.params()?;
        while self.is_word("__attribute__") {
            attrs.push_str(&self.gnu_attr()?);
            attrs.push(' ');
        }
        let header = Span::new(start, self.prev_end);
        if self.is_punct(";") {
            self.bump();
            let convergence = if attrs.contains("noconvergent") {
                Convergence::NoConvergent
            } else if attrs.contains("convergent") {
                Convergence::Convergent
            } else {
                Convergence::Default
            };
            return Ok(Item::Declaration(Declaration {
                ret,
                name,
                params,
                convergence,
                span: Span::new(start, self.prev_end),
            }));
        }
        if !self.is_punct("{") {
            return Err(self.expected("`{` or `;` after the function header"));
        }
        let body = self.compound()?;
        let mut function = Function {
            ret,
            name,
            params,
            body,
            span: header,
        };
        self.attach_names(&mut function)?;
        Ok(Item::Function(function))
    }

    fn params(&mut self) -> PResult<Vec<Param>> {
        self.expect_punct("(", "after the function name")?;
        let mut params = Vec::new();
        if self.eat_punct(")") {
            return Ok(params);
        }
        if self.is_word("void") && self.is_punct_at(1, ")") {
            self.bump();
            self.bump();
            return Ok(params);
        }
        loop {
            let mut words: Vec<(String, Span)> = Vec::new();
            loop {
                match self.peek().clone() {
                    Tok::Ident(w) if !is_reserved(&w) => {
                        let span = self.bump().span;
                        words.push((w, span));
                    }
                    Tok::Punct("*") => {
                        let span = self.bump().span;
                        words.push(("*".to_string(), span));
                    }
                    _ => break,
                }
            }
            match words.pop() {
                Some((name, _)) if name != "*" && !is_type_word(&name) && !words.is_empty() => {
                    params.push(Param {
                        ty: join_words(words.iter().map(|(w, _)| w.as_str())),
                        name,
                    })
                }
                Some((_, span)) if words.is_empty() => {
                    return Err(Diagnostic::new(
                        self.file,
                        span.start,
                        "expected a parameter as `TYPE name`",
                    ))
                }
                Some(_) => return Err(self.expected("a parameter name")),
                None => return Err(self.expected("a parameter as `TYPE name`")),
            }
            if self.eat_punct(")") {
                return Ok(params);
            }
            self.expect_punct(",", "or `)` after a parameter")?;
        }
    }

    /// Attaches the `// NAME` comments to the statements of `f` and checks
    /// that no name is used twice.
    fn attach_names(&mut self, f: &mut Function) -> PResult<()> {
        let mut found: HashMap<StmtId, NameComment> = HashMap::new();
        let names = &mut self.names;
        f.body.walk(&mut |s| {
            if let Some(c) = names.remove(&s.span.start.line) {
                found.insert(taker(s).id, c);
            }
        });
        let mut firsts: HashMap<String, Pos> = HashMap::new();
        let mut dup: Option<Diagnostic> = None;
        let mut sorted: Vec<&NameComment> = found.values().collect();
        sorted.sort_by_key(|c| c.pos);
        for c in sorted {
            if let Some(first) = firsts.get(&c.name) {
                if dup.is_none() {
                    dup = Some(Diagnostic::new(
                        self.file,
                        c.pos,
                        format!(
                            "duplicate statement name `{}`; first at {}:{}",
                            c.name, first.line, first.col
                        ),
                    ));
                }
            } else {
                firsts.insert(c.name.clone(), c.pos);
            }
        }
        if let Some(d) = dup {
            return Err(d);
        }
        set_names(&mut f.body, &mut found);
        Ok(())
    }

    // ----- statements -----

    /// A statement nested in the `stmt_depth` statements open around it.
    fn stmt(&mut self) -> PResult<Stmt> {
        if self.stmt_depth > MAX_STMT_NESTING {
            return Err(self.stmt_too_deep());
        }
        self.stmt_depth += 1;
        let r = self.stmt_inner();
        self.stmt_depth -= 1;
        r
    }

    /// The body of a statement: a block here counts with its statement
    /// (see [`MAX_STMT_NESTING`]).
    fn body(&mut self) -> PResult<Stmt> {
        if self.is_punct("{") {
            self.compound()
        } else {
            self.stmt()
        }
    }

    /// Dispatches on the first token. Each kind of statement has its own
    /// function so that every stack frame stays small.
    fn stmt_inner(&mut self) -> PResult<Stmt> {
        if self.at_std_attr() {
            return self.attributed_stmt();
        }
        let word = match self.peek() {
            Tok::Punct("{") => return self.compound(),
            Tok::Punct(";") => return self.keyword_stmt(),
            Tok::Punct("...") => return self.observe_stmt(),
            Tok::Punct("}") | Tok::Eof => return Err(self.expected("a statement")),
            Tok::Ident(w) => w.as_str(),
            _ => return self.expr_stmt(),
        };
        match word {
            "if" => self.if_stmt(),
            "while" => self.while_stmt(),
            "do" => self.do_stmt(),
            "for" => self.for_stmt(),
            "switch" => self.switch_stmt(),
            "case" | "default" => self.case_stmt(),
            "goto" => self.goto_stmt(),
            "break" | "continue" | "return" => self.keyword_stmt(),
            "else" => Err(self.error_here("`else` without a matching `if`")),
            w if is_type_word(w) => self.local(),
            w if !is_reserved(w) && self.is_punct_at(1, ":") => self.label_stmt(),
            _ => self.expr_stmt(),
        }
    }

    /// `[[...]] stmt`: `noconvergent`, an empty statement `[[...]];`, or an
    /// attribute that is dropped.
    fn attributed_stmt(&mut self) -> PResult<Stmt> {
        while self.at_std_attr() {
            let start = self.peek_span().start;
            let text = self.std_attr()?;
            if text.contains("noconvergent") {
                let id = self.new_id()?;
                let body = self.body()?;
                return Ok(self.finish(id, start, StmtKind::NoConvergent(Box::new(body))));
            }
            if self.is_punct(";") {
                let id = self.new_id()?;
                self.bump();
                return Ok(self.finish(id, start, StmtKind::Empty));
            }
            // Any other attribute attaches to nothing and is dropped.
        }
        // Not at an attribute any more, so this does not come back here.
        self.stmt_inner()
    }

    fn observe_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        self.bump();
        self.eat_punct(";");
        Ok(self.finish(id, start, StmtKind::Observe))
    }

    /// `;`, `break;`, `continue;`, `return [e];`.
    fn keyword_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        let kind = match self.bump().tok {
            Tok::Ident(w) if w == "break" => {
                self.expect_punct(";", "after `break`")?;
                StmtKind::Break
            }
            Tok::Ident(w) if w == "continue" => {
                self.expect_punct(";", "after `continue`")?;
                StmtKind::Continue
            }
            Tok::Ident(w) if w == "return" => {
                let value = if self.is_punct(";") {
                    None
                } else {
                    Some(self.full_expr()?)
                };
                self.expect_punct(";", "after `return`")?;
                StmtKind::Return(value)
            }
            _ => StmtKind::Empty,
        };
        Ok(self.finish(id, start, kind))
    }

    fn if_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        self.bump();
        let cond = self.paren_expr("if")?;
        let then = Box::new(self.body()?);
        let els = if self.is_word("else") {
            self.bump();
            Some(Box::new(self.body()?))
        } else {
            None
        };
        Ok(self.finish(id, start, StmtKind::If { cond, then, els }))
    }

    fn while_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        self.bump();
        let cond = self.paren_expr("while")?;
        let body = Box::new(self.body()?);
        Ok(self.finish(id, start, StmtKind::While { cond, body }))
    }

    fn do_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        self.bump();
        let body = Box::new(self.body()?);
        if !self.is_word("while") {
            return Err(self.expected("`while` after the body of `do`"));
        }
        self.bump();
        let cond = self.paren_expr("while")?;
        self.expect_punct(";", "after `do ... while (...)`")?;
        Ok(self.finish(id, start, StmtKind::DoWhile { body, cond }))
    }

    fn switch_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        self.bump();
        let value = self.paren_expr("switch")?;
        let body = Box::new(self.body()?);
        Ok(self.finish(id, start, StmtKind::Switch { value, body }))
    }

    /// `case V: stmt` or `default: stmt`.
    fn case_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        let label = if self.is_word("default") {
            self.bump();
            self.expect_punct(":", "after `default`")?;
            CaseLabel::Default
        } else {
            self.bump();
            let negative = self.eat_punct("-");
            let value = match self.peek() {
                Tok::Int(v) => *v,
                _ => return Err(self.expected("an integer after `case`")),
            };
            self.bump();
            self.expect_punct(":", "after the `case` value")?;
            CaseLabel::Case(if negative { -value } else { value })
        };
        let body = Box::new(self.labelled_body()?);
        Ok(self.finish(id, start, StmtKind::Case { label, body }))
    }

    fn label_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        let label = match self.bump().tok {
            Tok::Ident(l) => l,
            _ => String::new(),
        };
        self.bump();
        let body = Box::new(self.labelled_body()?);
        Ok(self.finish(id, start, StmtKind::Label { label, body }))
    }

    fn goto_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        self.bump();
        let label = match self.peek() {
            Tok::Ident(l) if !is_reserved(l) && !is_type_word(l) => l.clone(),
            _ => return Err(self.expected("a label name after `goto`")),
        };
        self.bump();
        self.expect_punct(";", "after `goto` label")?;
        Ok(self.finish(id, start, StmtKind::Goto(label)))
    }

    fn finish(&self, id: StmtId, start: Pos, kind: StmtKind) -> Stmt {
        Stmt {
            id,
            name: None,
            kind,
            span: Span::new(start, self.prev_end.max(start)),
        }
    }

    /// `( expr )` after `if`, `while`, `switch`.
    fn paren_expr(&mut self, keyword: &str) -> PResult<Expr> {
        self.expect_punct("(", &format!("after `{keyword}`"))?;
        let e = self.full_expr()?;
        self.expect_punct(")", &format!("after the `{keyword}` condition"))?;
        Ok(e)
    }

    /// The statement after `label:`, `case V:` or `default:`; directly
    /// before `}` it is an empty statement.
    fn labelled_body(&mut self) -> PResult<Stmt> {
        while self.skip_dangling_attr()? {}
        if self.is_punct("}") {
            let id = self.new_id()?;
            let at = self.peek_span().start;
            return Ok(Stmt {
                id,
                name: None,
                kind: StmtKind::Empty,
                span: Span::new(at, at),
            });
        }
        self.body()
    }

    fn compound(&mut self) -> PResult<Stmt> {
        let id = self.new_id()?;
        let open = self.bump().span.start;
        let mut list = Vec::new();
        loop {
            if self.is_punct("}") {
                self.bump();
                break;
            }
            if self.at_eof() {
                return Err(self.expected(&format!(
                    "`}}` to close the `{{` at {}:{}",
                    open.line, open.col
                )));
            }
            if self.skip_dangling_attr()? {
                continue;
            }
            list.push(self.stmt()?);
        }
        Ok(self.finish(id, open, StmtKind::Compound(list)))
    }

    fn for_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        self.bump();
        self.expect_punct("(", "after `for`")?;
        if self.is_punct("...") && self.is_punct_at(1, ")") {
            let dots = self.bump().span;
            self.bump();
            let body = Box::new(self.body()?);
            return Ok(self.finish(
                id,
                start,
                StmtKind::For {
                    init: None,
                    cond: Some(Expr {
                        kind: ExprKind::Dots,
                        span: dots,
                    }),
                    step: None,
                    body,
                },
            ));
        }
        let init = if self.eat_punct(";") {
            None
        } else if matches!(self.peek(), Tok::Ident(w) if is_type_word(w)) {
            Some(Box::new(self.local()?))
        } else {
            Some(Box::new(self.expr_stmt()?))
        };
        let cond = if self.is_punct(";") {
            None
        } else {
            Some(self.full_expr()?)
        };
        self.expect_punct(";", "after the `for` condition")?;
        let step = if self.is_punct(")") {
            None
        } else {
            Some(self.full_expr()?)
        };
        self.expect_punct(")", "after the `for` clauses")?;
        let body = Box::new(self.body()?);
        Ok(self.finish(
            id,
            start,
            StmtKind::For {
                init,
                cond,
                step,
                body,
            },
        ))
    }

    /// `TYPE name [= e];`, the current token being a type word.
    fn local(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        let mut words: Vec<(String, Span)> = Vec::new();
        loop {
            match self.peek().clone() {
                Tok::Ident(w) if !is_reserved(&w) => {
                    let span = self.bump().span;
                    words.push((w, span));
                }
                Tok::Punct("*") => {
                    let span = self.bump().span;
                    words.push(("*".to_string(), span));
                }
                _ => break,
            }
        }
        let name = match words.pop() {
            Some((name, _)) if name != "*" && !is_type_word(&name) => name,
            _ => return Err(self.expected("a name in the declaration")),
        };
        let ty = join_words(words.iter().map(|(w, _)| w.as_str()));
        let init = if self.eat_punct("=") {
            Some(self.full_expr()?)
        } else {
            None
        };
        if init.is_none() && !self.is_punct(";") {
            return Err(self.expected("`=` or `;` after the declared name"));
        }
        self.expect_punct(";", "after the declaration")?;
        Ok(self.finish(id, start, StmtKind::Local { ty, name, init }))
    }

    fn expr_stmt(&mut self) -> PResult<Stmt> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        let e = self.full_expr()?;
        self.expect_punct(";", "after expression")?;
        Ok(self.finish(id, start, StmtKind::Expr(e)))
    }

    // ----- expressions -----

    /// The expression of a statement: level 0 (see [`MAX_EXPR_NESTING`]).
    fn full_expr(&mut self) -> PResult<Expr> {
        self.assign()
    }

    /// An expression nested in another one: one level deeper.
    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.assign();
        self.leave();
        r
    }

    fn assign(&mut self) -> PResult<Expr> {
        let lhs = self.cond()?;
        let op = match self.peek() {
            Tok::Punct("=") => Compound::Op(AssignOp::Set),
            Tok::Punct("+=") => Compound::Op(AssignOp::Add),
            Tok::Punct("-=") => Compound::Op(AssignOp::Sub),
            Tok::Punct("*=") => Compound::Op(AssignOp::Mul),
            Tok::Punct("/=") => Compound::Sugar(BinOp::Div),
            Tok::Punct("%=") => Compound::Sugar(BinOp::Rem),
            Tok::Punct("&=") => Compound::Sugar(BinOp::BitAnd),
            Tok::Punct("|=") => Compound::Sugar(BinOp::BitOr),
            Tok::Punct("^=") => Compound::Sugar(BinOp::BitXor),
            Tok::Punct("<<=") => Compound::Sugar(BinOp::Shl),
            Tok::Punct(">>=") => Compound::Sugar(BinOp::Shr),
            _ => return Ok(lhs),
        };
        self.bump();
        self.assignment(lhs, op)
    }

    /// `lhs op value`, the operator consumed. The IR has no `>>=` and the
    /// like, so `x >>= v` becomes `x = x >> v` (the place is a variable,
    /// read without side effects, so evaluating it twice changes nothing),
    /// and `shared[i] >>= v` a store of `v`, as `shared[i] += v` is: values
    /// in memory are not modelled, a store counts by its instance and
    /// address.
    fn assignment(&mut self, lhs: Expr, op: Compound) -> PResult<Expr> {
        let start = lhs.span.start;
        let lhs_span = lhs.span;
        let place = self.place(lhs)?;
        let value = Box::new(self.expr()?);
        let span = Span::new(start, value.span.end);
        let (op, value) = match (op, &place) {
            (Compound::Op(op), _) => (op, value),
            (Compound::Sugar(_), Place::Mem { .. }) => (AssignOp::Set, value),
            (Compound::Sugar(bin), Place::Var(v)) => {
                let old = Box::new(Expr {
                    kind: ExprKind::Name(v.clone()),
                    span: lhs_span,
                });
                let value = Box::new(Expr {
                    kind: ExprKind::Binary(bin, old, value),
                    span,
                });
                (AssignOp::Set, value)
            }
        };
        Ok(Expr {
            kind: ExprKind::Assign { place, op, value },
            span,
        })
    }

    fn place(&self, e: Expr) -> PResult<Place> {
        match e.kind {
            ExprKind::Name(n) => Ok(Place::Var(n)),
            ExprKind::Load { space, index, id } => Ok(Place::Mem { space, index, id }),
            _ => Err(Diagnostic::new(
                self.file,
                e.span.start,
                "expected an assignable place (a variable or `shared[...]`, `global[...]`, `local[...]`)",
            )),
        }
    }

    fn cond(&mut self) -> PResult<Expr> {
        let c = self.binary(1)?;
        if self.is_punct("?") {
            self.conditional(c)
        } else {
            Ok(c)
        }
    }

    /// `c ? a : b`, at the `?`.
    fn conditional(&mut self, c: Expr) -> PResult<Expr> {
        self.bump();
        let a = Box::new(self.expr()?);
        self.expect_punct(":", "in conditional expression")?;
        self.enter()?;
        let b = self.cond();
        self.leave();
        let b = Box::new(b?);
        let span = Span::new(c.span.start, b.span.end);
        Ok(Expr {
            kind: ExprKind::Cond(Box::new(c), a, b),
            span,
        })
    }

    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let lhs = self.unary()?;
        let levels = self.expr_depth;
        let result = self.binary_rest(lhs, min_prec);
        // Every operator added a level to the tree (see `binary_rest`).
        self.expr_depth = levels;
        result
    }

    /// The operators after `lhs` that bind at least as tightly as
    /// `min_prec`, left-associated.
    fn binary_rest(&mut self, mut lhs: Expr, min_prec: u8) -> PResult<Expr> {
        while let Some((op, prec)) = binop(self.peek()) {
            if prec < min_prec {
                break;
            }
            self.enter()?;
            self.bump();
            let rhs = Box::new(self.binary(prec + 1)?);
            let span = Span::new(lhs.span.start, rhs.span.end);
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), rhs),
                span,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        match self.peek() {
            Tok::Punct("!" | "-" | "~" | "++" | "--") => self.prefix(),
            _ => {
                let e = self.primary()?;
                if self.is_punct("++") || self.is_punct("--") {
                    let op_tok = self.bump();
                    let span = Span::new(e.span.start, op_tok.span.end);
                    return self.increment(e, &op_tok, span);
                }
                Ok(e)
            }
        }
    }

    /// A prefix operator and its operand.
    fn prefix(&mut self) -> PResult<Expr> {
        let start = self.peek_span().start;
        let op_tok = self.bump();
        self.enter()?;
        let e = self.unary();
        self.leave();
        let e = e?;
        let op = match op_tok.tok {
            Tok::Punct("!") => UnOp::Not,
            Tok::Punct("-") => UnOp::Neg,
            Tok::Punct("~") => UnOp::BitNot,
            _ => return self.increment(e, &op_tok, Span::new(start, self.prev_end)),
        };
        let span = Span::new(start, e.span.end);
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(e)),
            span,
        })
    }

    /// `place op= 1` for `++` / `--` written as `op_tok`.
    fn increment(&self, target: Expr, op_tok: &Token, span: Span) -> PResult<Expr> {
        let op = if op_tok.tok == Tok::Punct("++") {
            AssignOp::Add
        } else {
            AssignOp::Sub
        };
        let place = self.place(target)?;
        Ok(Expr {
            kind: ExprKind::Assign {
                place,
                op,
                value: Box::new(Expr {
                    kind: ExprKind::Int(1),
                    span: op_tok.span,
                }),
            },
            span,
        })
    }

    fn primary(&mut self) -> PResult<Expr> {
        let start = self.peek_span().start;
        let kind = match self.peek() {
            Tok::Int(v) => ExprKind::Int(*v),
            Tok::Punct("...") => ExprKind::Dots,
            Tok::Punct("(") => return self.paren(),
            Tok::Ident(w) => match w.as_str() {
                "true" => ExprKind::Bool(true),
                "false" => ExprKind::Bool(false),
                "tid" => ExprKind::Tid,
                "N" => ExprKind::GroupSize,
                _ => return self.word_expr(),
            },
            _ => return Err(self.expected("an expression")),
        };
        self.bump();
        Ok(self.leaf(start, kind))
    }

    /// An expression from `start` to the last token consumed.
    fn leaf(&self, start: Pos, kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::new(start, self.prev_end.max(start)),
        }
    }

    fn paren(&mut self) -> PResult<Expr> {
        let start = self.peek_span().start;
        self.bump();
        let e = self.expr()?;
        self.expect_punct(")", "to close `(`")?;
        Ok(self.leaf(start, e.kind))
    }

    /// An expression starting with an identifier other than `true`,
    /// `false`, `tid` and `N`.
    fn word_expr(&mut self) -> PResult<Expr> {
        let w = match self.peek() {
            Tok::Ident(w) => w.clone(),
            _ => return Err(self.expected("an expression")),
        };
        match w.as_str() {
            "threadIdx" | "blockDim" if self.is_punct_at(1, ".") => self.cuda_builtin(&w),
            "get_local_id" | "get_local_size"
                if self.is_punct_at(1, "(")
                    && self.peek_at(2) == &Tok::Int(0)
                    && self.is_punct_at(3, ")") =>
            {
                let start = self.peek_span().start;
                for _ in 0..4 {
                    self.bump();
                }
                let kind = if w == "get_local_id" {
                    ExprKind::Tid
                } else {
                    ExprKind::GroupSize
                };
                Ok(self.leaf(start, kind))
            }
            "uniform" | "invariant" if self.is_punct_at(1, "(") => self.marked(&w),
            "shared" | "global" | "local" if self.is_punct_at(1, "[") => self.load(&w),
            _ if is_reserved(&w) || is_type_word(&w) => Err(self.expected("an expression")),
            _ if self.is_punct_at(1, "(") => self.call(w),
            _ => {
                let start = self.peek_span().start;
                self.bump();
                Ok(self.leaf(start, ExprKind::Name(w)))
            }
        }
    }

    /// `threadIdx.x` or `blockDim.x`.
    fn cuda_builtin(&mut self, w: &str) -> PResult<Expr> {
        let start = self.peek_span().start;
        self.bump();
        self.bump();
        if !matches!(self.peek(), Tok::Ident(x) if x == "x") {
            return Err(self.expected(&format!("`x` after `{w}.` (only dimension x is modelled)")));
        }
        self.bump();
        let kind = if w == "threadIdx" {
            ExprKind::Tid
        } else {
            ExprKind::GroupSize
        };
        Ok(self.leaf(start, kind))
    }

    /// `uniform(e)` or `invariant(e)`.
    fn marked(&mut self, w: &str) -> PResult<Expr> {
        let start = self.peek_span().start;
        self.bump();
        self.bump();
        let e = Box::new(self.expr()?);
        self.expect_punct(")", &format!("after the argument of `{w}`"))?;
        let kind = if w == "uniform" {
            ExprKind::Uniform(e)
        } else {
            ExprKind::Invariant(e)
        };
        Ok(self.leaf(start, kind))
    }

    /// `shared[e]`, `global[e]` or `local[e]`.
    fn load(&mut self, w: &str) -> PResult<Expr> {
        let start = self.peek_span().start;
        let space = match w {
            "shared" => Space::Shared,
            "global" => Space::Global,
            _ => Space::Local,
        };
        let id = self.new_id()?;
        self.bump();
        self.bump();
        let index = Box::new(self.expr()?);
        self.expect_punct("]", &format!("after the index into `{w}`"))?;
        Ok(self.leaf(start, ExprKind::Load { space, index, id }))
    }

    /// `callee(args)`.
    fn call(&mut self, callee: String) -> PResult<Expr> {
        let start = self.peek_span().start;
        let id = self.new_id()?;
        self.bump();
        self.bump();
        let mut args = Vec::new();
        if !self.eat_punct(")") {
            loop {
                args.push(self.expr()?);
                if self.eat_punct(")") {
                    break;
                }
                self.expect_punct(",", "or `)` after a call argument")?;
            }
        }
        Ok(self.leaf(start, ExprKind::Call { callee, args, id }))
    }
}

/// Joins type words (and `*`) with single spaces.
fn join_words<'w>(words: impl Iterator<Item = &'w str>) -> String {
    words.collect::<Vec<_>>().join(" ")
}

fn push_token_text(text: &mut String, t: &Tok) {
    match t {
        Tok::Ident(s) | Tok::Str(s) => text.push_str(s),
        Tok::Int(v) => text.push_str(&v.to_string()),
        Tok::Punct(p) => text.push_str(p),
        Tok::Eof => {}
    }
    text.push(' ');
}

/// The statement a comment on `s`'s first line names: `s`, or for a label,
/// `case`, `default` or `[[clang::noconvergent]]` whose substatement starts
/// on the same line, what that substatement's line names.
fn taker(s: &Stmt) -> &Stmt {
    match &s.kind {
        StmtKind::Label { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::NoConvergent(body)
            if body.span.start.line == s.span.start.line =>
        {
            taker(body)
        }
        _ => s,
    }
}

fn set_names(s: &mut Stmt, found: &mut HashMap<StmtId, NameComment>) {
    if found.is_empty() {
        return;
    }
    if let Some(c) = found.remove(&s.id) {
        s.name = Some(c.name);
    }
    match &mut s.kind {
        StmtKind::Compound(list) => list.iter_mut().for_each(|c| set_names(c, found)),
        StmtKind::If { then, els, .. } => {
            set_names(then, found);
            if let Some(e) = els {
                set_names(e, found);
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Label { body, .. }
        | StmtKind::NoConvergent(body) => set_names(body, found),
        StmtKind::For { init, body, .. } => {
            if let Some(i) = init {
                set_names(i, found);
            }
            set_names(body, found);
        }
        StmtKind::Observe
        | StmtKind::Empty
        | StmtKind::Expr(_)
        | StmtKind::Local { .. }
        | StmtKind::Goto(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(_) => {}
    }
}
