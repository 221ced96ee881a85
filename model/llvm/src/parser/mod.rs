//! The recursive-descent parser: cursor, error handling and the module loop.
//!
//! The grammar is LLVM's (LangRef "Module Structure" and the sections each
//! submodule names); the parser reads a token vector from [`crate::lexer`]
//! front to back, looking at most a few tokens ahead, so its time is linear
//! in the input. Recursion happens only in types, constant aggregates and
//! constant expressions, and is bounded by [`crate::MAX_NESTING`]; text the
//! parser only skips (metadata, aggregates, generic operands) is matched with
//! an explicit bracket stack under the same bound.
//!
//! What it checks beyond the grammar, as LLVM's parser does: explicit
//! numbers follow the implicit numbering of unnamed values, blocks and
//! globals; every local name is defined once; every local use names a
//! defined value and every `label` operand a block of the same function;
//! every global use and every `#N` names something the module defines.
//! What it does not check: types of operands, dominance, and anything the
//! LLVM verifier checks after parsing.
//!
//! Submodules: [`toplevel`] (module entities), [`types`], [`values`]
//! (operands, constants, metadata), [`attrs`] (attribute lists), [`body`]
//! (blocks, numbering, local names), [`inst`] (instructions) and [`call`];
//! [`constexpr`] reads a constant expression's kept text again on demand.
#![deny(unsafe_code)]

mod attrs;
mod body;
mod call;
pub(crate) mod constexpr;
mod inst;
mod renumber;
mod toplevel;
mod types;
mod values;

use std::collections::HashMap;

use crate::error::{ErrorKind, ParseError, ParseErrors};
use crate::lexer::{lex, unescape, Tok, Token};
use crate::module::{Module, Span};
use crate::value::Name;

pub(crate) type PResult<T> = Result<T, ParseError>;

/// After this many errors the parser stops: the rest are usually echoes.
const MAX_ERRORS: usize = 100;

pub(crate) struct Parser<'a> {
    src: &'a str,
    file: &'a str,
    toks: Vec<Token>,
    pos: usize,
    errors: Vec<ParseError>,
    module: Module,
    /// Global names used, with where, checked at the end of the module.
    global_uses: Vec<(Name, Span)>,
    /// Global names defined, with where.
    global_defs: HashMap<Name, Span>,
    /// The next number for an unnamed global.
    next_global: u32,
    /// Attribute groups used, with where.
    group_uses: Vec<(u32, Span)>,
    /// The state of the function body being parsed.
    fs: body::FnState,
}

/// Parses a whole module; see [`crate::parse_module`].
pub(crate) fn parse(src: &str, file: &str) -> Result<Module, ParseErrors> {
    let toks = lex(src, file)?;
    let mut p = Parser {
        src,
        file,
        toks,
        pos: 0,
        errors: Vec::new(),
        module: Module {
            file: file.to_string(),
            ..Module::default()
        },
        global_uses: Vec::new(),
        global_defs: HashMap::new(),
        next_global: 0,
        group_uses: Vec::new(),
        fs: body::FnState::default(),
    };
    p.module_loop();
    p.check_module_names();
    if p.errors.is_empty() {
        Ok(p.module)
    } else {
        Err(ParseErrors::new(p.errors))
    }
}

impl<'a> Parser<'a> {
    // ----- cursor -----

    pub(crate) fn peek(&self) -> Token {
        self.peek_at(0)
    }

    pub(crate) fn peek_at(&self, n: usize) -> Token {
        // The vector always ends with Eof, so clamping returns Eof past it.
        let last = self.toks.len() - 1;
        self.toks[(self.pos + n).min(last)]
    }

    pub(crate) fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.kind != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn text(&self, t: Token) -> &'a str {
        self.src.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    pub(crate) fn span(t: Token) -> Span {
        Span {
            line: t.line,
            col: t.col,
        }
    }

    pub(crate) fn at(&self, kind: Tok) -> bool {
        self.peek().kind == kind
    }

    pub(crate) fn at_word(&self, w: &str) -> bool {
        let t = self.peek();
        t.kind == Tok::Word && self.text(t) == w
    }

    /// The current token's text if it is a word.
    pub(crate) fn word(&self) -> Option<&'a str> {
        let t = self.peek();
        (t.kind == Tok::Word).then(|| self.text(t))
    }

    pub(crate) fn eat(&mut self, kind: Tok) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_word(&mut self, w: &str) -> bool {
        if self.at_word(w) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, kind: Tok, what: &str) -> PResult<Token> {
        if self.at(kind) {
            Ok(self.bump())
        } else {
            Err(self.expected(what))
        }
    }

    pub(crate) fn expect_word(&mut self, w: &str) -> PResult<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{w}'")))
        }
    }

    // ----- errors -----

    pub(crate) fn error_at(&self, t: Token, kind: ErrorKind, message: String) -> ParseError {
        ParseError::new(self.file, t.line, t.col, kind, message)
    }

    pub(crate) fn error_span(&self, s: Span, kind: ErrorKind, message: String) -> ParseError {
        ParseError::new(self.file, s.line, s.col, kind, message)
    }

    /// `expected WHAT, found 'TOKEN'` at the current token.
    pub(crate) fn expected(&self, what: &str) -> ParseError {
        let t = self.peek();
        let found = self.describe(t);
        self.error_at(
            t,
            ErrorKind::Syntax,
            format!("expected {what}, found {found}"),
        )
    }

    /// How a token is named in messages: quoted and shortened.
    pub(crate) fn describe(&self, t: Token) -> String {
        if t.kind == Tok::Eof {
            return "end of file".into();
        }
        let text = self.text(t);
        let short: String = text.chars().take(40).collect();
        let dots = if short.len() < text.len() { "..." } else { "" };
        format!("'{}{dots}'", short.escape_debug())
    }

    pub(crate) fn too_deep(&self) -> ParseError {
        self.error_at(
            self.peek(),
            ErrorKind::TooDeep,
            format!(
                "types, constants or metadata nest more than {} levels deep",
                crate::MAX_NESTING
            ),
        )
    }

    pub(crate) fn push_error(&mut self, e: ParseError) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(e);
        }
    }

    // ----- names -----

    /// The name of a `%`, `@`, `$`, `!` token or of a label.
    pub(crate) fn name_of(&self, t: Token) -> PResult<Name> {
        let mut s = self.text(t);
        if t.kind == Tok::Label {
            s = s.strip_suffix(':').unwrap_or(s);
        } else {
            s = s.get(1..).unwrap_or("");
        }
        if let Some(q) = s.strip_prefix('"') {
            let inner = q.strip_suffix('"').unwrap_or(q);
            return Ok(Name::Named(unescape(inner)));
        }
        if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) {
            return s.parse::<u32>().map(Name::Numbered).map_err(|_| {
                self.error_at(
                    t,
                    ErrorKind::IntegerOutOfRange,
                    format!("number {s} is too large"),
                )
            });
        }
        Ok(Name::Named(s.to_string()))
    }

    /// The unescaped contents of a string token.
    pub(crate) fn string_of(&self, t: Token) -> String {
        let s = self.text(t);
        let s = s.strip_prefix('c').unwrap_or(s);
        let s = s.strip_prefix('"').unwrap_or(s);
        unescape(s.strip_suffix('"').unwrap_or(s))
    }

    pub(crate) fn expect_string(&mut self, what: &str) -> PResult<String> {
        let t = self.expect(Tok::Str, what)?;
        Ok(self.string_of(t))
    }

    /// An unsigned number that fits in `u64` (alignments, counts).
    pub(crate) fn expect_u64(&mut self, what: &str) -> PResult<u64> {
        let t = self.peek();
        if t.kind != Tok::Int {
            return Err(self.expected(what));
        }
        let s = self.text(t);
        let v = s.parse::<u64>().map_err(|_| {
            self.error_at(
                t,
                ErrorKind::IntegerOutOfRange,
                format!("expected {what}, found '{s}' (not an unsigned 64-bit number)"),
            )
        })?;
        self.bump();
        Ok(v)
    }

    pub(crate) fn expect_u32(&mut self, what: &str) -> PResult<u32> {
        let t = self.peek();
        let v = self.expect_u64(what)?;
        u32::try_from(v).map_err(|_| {
            self.error_at(
                t,
                ErrorKind::IntegerOutOfRange,
                format!("expected {what}, found '{v}' (larger than 2^32-1)"),
            )
        })
    }

    /// `(N)` after `addrspace`.
    pub(crate) fn addrspace_arg(&mut self) -> PResult<u32> {
        self.expect(Tok::LParen, "'(' after 'addrspace'")?;
        let n = self.expect_u32("an address space number")?;
        self.expect(Tok::RParen, "')' after the address space")?;
        Ok(n)
    }

    /// The source text from token `from` up to (not including) the current
    /// token: the raw slice of each line's tokens, lines joined by one
    /// space, so that comments and line breaks inside multi-line constructs
    /// (`invoke ... \n to label ...`) do not leak into the tree.
    pub(crate) fn text_from(&self, from: usize) -> String {
        let end = self.pos.min(self.toks.len() - 1);
        let mut out = String::new();
        let mut k = from;
        while k < end {
            let first = self.toks[k];
            let mut last = first;
            while k + 1 < end && !self.toks[k + 1].line_start {
                k += 1;
                last = self.toks[k];
            }
            k += 1;
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(
                self.src
                    .get(first.start as usize..last.end as usize)
                    .unwrap_or(""),
            );
        }
        out
    }

    // ----- bracket matching -----

    /// Skips one bracketed group starting at the current token (which must be
    /// an opener), recording the globals inside into `globals` when given.
    /// Depth is bounded by `MAX_NESTING`; brackets must match.
    pub(crate) fn skip_group(
        &mut self,
        mut globals: Option<&mut Vec<(Name, Span)>>,
    ) -> PResult<()> {
        let mut stack: Vec<Tok> = Vec::new();
        loop {
            let t = self.peek();
            match t.kind {
                Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::Less => {
                    if stack.len() >= crate::MAX_NESTING {
                        return Err(self.too_deep());
                    }
                    stack.push(closer(t.kind));
                }
                Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Greater => {
                    if stack.last() != Some(&t.kind) {
                        let want = stack
                            .last()
                            .map(|k| closer_text(*k))
                            .unwrap_or("an opening bracket");
                        return Err(self.expected(&format!("'{want}'")));
                    }
                    stack.pop();
                }
                Tok::Global => {
                    if let Some(g) = globals.as_deref_mut() {
                        g.push((self.name_of(t)?, Self::span(t)));
                    }
                }
                Tok::Eof => {
                    let want = stack.last().map(|k| closer_text(*k)).unwrap_or("a bracket");
                    return Err(self.expected(&format!("'{want}'")));
                }
                _ => {
                    if stack.is_empty() {
                        return Err(self.expected("'(', '[', '{' or '<'"));
                    }
                }
            }
            self.bump();
            if stack.is_empty() {
                return Ok(());
            }
        }
    }

    // ----- the module loop -----

    fn module_loop(&mut self) {
        while !self.at(Tok::Eof) {
            if self.errors.len() >= MAX_ERRORS {
                return;
            }
            let before = self.pos;
            if let Err(e) = self.toplevel_entity() {
                self.push_error(e);
                self.recover(before);
            }
        }
    }

    /// Skips to the next token after `before` (where the failed entity
    /// started) that starts a top-level entity on a new line. Starting from
    /// `before` rather than from where the error was found keeps an entity
    /// that the failed parse ran into from being skipped; the rescan is at
    /// most as long as the failed parse, so the total stays linear.
    fn recover(&mut self, before: usize) {
        self.pos = before;
        self.bump();
        while !self.at(Tok::Eof) {
            let t = self.peek();
            if t.line_start && self.starts_toplevel() {
                return;
            }
            self.bump();
        }
    }

    /// Whether the current token starts a top-level entity.
    pub(crate) fn starts_toplevel(&self) -> bool {
        let t = self.peek();
        match t.kind {
            Tok::Word => matches!(
                self.text(t),
                "define"
                    | "declare"
                    | "attributes"
                    | "target"
                    | "source_filename"
                    | "module"
                    | "uselistorder"
                    | "uselistorder_bb"
                    | "deplibs"
            ),
            // `%x =` starts a type definition only with `type` after it;
            // otherwise it is an instruction inside a body.
            Tok::Local => {
                let t2 = self.peek_at(2);
                self.peek_at(1).kind == Tok::Equal
                    && t2.kind == Tok::Word
                    && self.text(t2) == "type"
            }
            Tok::Global | Tok::Comdat | Tok::Meta | Tok::Summary => {
                self.peek_at(1).kind == Tok::Equal
            }
            _ => false,
        }
    }

    /// Records a use of a global name.
    pub(crate) fn use_global(&mut self, name: Name, at: Span) {
        self.global_uses.push((name, at));
    }

    /// Checks the module-wide names once everything is read.
    fn check_module_names(&mut self) {
        let uses = std::mem::take(&mut self.global_uses);
        for (name, at) in uses {
            // LLVM's parser declares an intrinsic that is called without a
            // declaration (its tests rely on it).
            let intrinsic = matches!(&name, Name::Named(n) if n.starts_with("llvm."));
            if !intrinsic && !self.global_defs.contains_key(&name) {
                let e = self.error_span(
                    at,
                    ErrorKind::Undefined,
                    format!("use of undefined global '@{name}'"),
                );
                self.push_error(e);
            }
        }
        // A group used but never defined is no error: LLVM's parser reads
        // it as no attributes (opt-19 accepts `declare void @g() #4` alone
        // and prints `declare void @g()`), and so does `resolve_attrs`.
        self.group_uses.clear();
    }

    /// Defines a global name (variable, function, alias, ifunc), checking
    /// redefinition and LLVM's numbering of unnamed globals (increasing,
    /// with gaps allowed, as LLVM 19 reads them).
    pub(crate) fn define_global(&mut self, name: &Name, t: Token) -> PResult<()> {
        // LLVM 19 lets numbers skip ahead (`@3` first is read as `@0`)
        // but never go back.
        if let Name::Numbered(n) = name {
            if *n < self.next_global {
                return Err(self.error_at(
                    t,
                    ErrorKind::Numbering,
                    format!(
                        "global expected to be numbered '@{}' or greater",
                        self.next_global
                    ),
                ));
            }
            self.next_global = n.saturating_add(1);
        }
        if let Some(prev) = self.global_defs.get(name) {
            return Err(self.error_at(
                t,
                ErrorKind::Redefinition,
                format!(
                    "redefinition of global '@{name}' (first defined on line {})",
                    prev.line
                ),
            ));
        }
        self.global_defs.insert(name.clone(), Self::span(t));
        Ok(())
    }
}

fn closer(open: Tok) -> Tok {
    match open {
        Tok::LParen => Tok::RParen,
        Tok::LBracket => Tok::RBracket,
        Tok::LBrace => Tok::RBrace,
        _ => Tok::Greater,
    }
}

fn closer_text(close: Tok) -> &'static str {
    match close {
        Tok::RParen => ")",
        Tok::RBracket => "]",
        Tok::RBrace => "}",
        _ => ">",
    }
}
