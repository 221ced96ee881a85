//! The reader of the IR's text form: [`parse_module`] reads back exactly
//! what [`crate::print::module_text`] writes, so that printing a
//! well-formed module and reading the text gives the same module.
//!
//! The grammar, in brief (the format itself is described in
//! [`crate::print`]); line breaks are whitespace, `;` starts a comment:
//!
//! ```text
//! file   := 'module' STRING item*
//! item   := 'oracle' $NAME CLASS '[' (INT (',' INT)*)? ']' SPAN
//!         | 'op' #ID OPKIND STRING 'in' @NAME SPAN
//!         | 'define' 'void' @NAME '(' (param (',' param)*)? ')' '{' block* '}'
//! param  := %NAME ('=' $NAME)?
//! SPAN   := 'at' NUM ':' NUM '-' NUM ':' NUM
//! block  := (WORD | STRING) ':' ('origin' #ID)? inst* term
//! inst   := #ID ('observe' | 'eval' e | 'set' %NAME ('=' e)?
//!              | 'phi' %NAME ('[' e ',' %BLOCK ']')* | 'token' %NAME '=' KIND)
//!           ('[' 'convergencectrl' %NAME ']')?
//! term   := 'br' 'label' %B | 'br' e ',' 'label' %B ',' 'label' %B
//!         | 'switch' e ',' 'label' %B '[' (INT ':' 'label' %B)* ']'
//!         | 'ret' 'void' | 'ret' e
//! e      := INT | 'tid' | 'N' | %NAME | $NAME | ('not'|'neg'|'bitnot') '(' e ')'
//!         | '(' e BINOP e ')' | '(' e '?' e ':' e ')' | '(' %NAME ASSIGNOP e ')'
//!         | 'call' #ID CALLKIND @NAME '(' (e (',' e)*)? ')'
//!         | 'load' #ID SPACE '[' e ']' ('->' $NAME)? | 'store' #ID SPACE '[' e ']' '=' e
//! ```
//!
//! Names resolve once the whole file is read, so a function, a block or an
//! oracle may be used before the line that defines it. A block's label is
//! a bare name or a string; uses name it with `%`. Beyond the syntax, the
//! reader checks what reading back needs: the n-th `oracle` line is oracle
//! n and `op` lines number themselves 0, 1, 2, ... in order; names are
//! unique among the oracles, among the functions and among the blocks of a
//! function; every name and op id used is defined; parameters with oracles
//! come before those without (`param_oracles[i]` belongs to `params[i]`).
//! It does not check that op kinds match their uses, that phis name real
//! predecessors, or the rules of tokens (token names are not resolved;
//! [`crate::tokens`] checks them).
//!
//! Errors: every error is a [`Diagnostic`] with the file, the 1-based line
//! and column (in characters) and a message saying what was expected. After
//! an error the reader skips the rest of the line the statement started on
//! and goes on, so one run reports the errors of many lines; it stops
//! after [`MAX_ERRORS`] and says that more were dropped. Expressions nest
//! at most [`MAX_DEPTH`] deep, so no input can exhaust the stack, and the
//! reader's time and memory are linear in the input. It never panics.
//!
//! The code: tokens in `parse/lexer.rs`; items, blocks, instructions and
//! terminators in `parse/items.rs`; expressions in `parse/expr.rs`; the
//! resolution of names used before their definition in `parse/names.rs`.

mod expr;
mod items;
mod lexer;
mod names;

use self::lexer::{Lexer, Tok, Token};
use self::names::{remap, Names};
use crate::cfg::Module;
use crate::ops::OpId;
use crate::print::name as sigil_name;
use crate::span::{Diagnostic, Diagnostics, Pos, Span};
use std::collections::VecDeque;

/// How deep expressions may nest; deeper input is an error rather than a
/// stack overflow. The printer writes one level per operator and has no
/// such limit, so a module with deeper expressions prints but does not read
/// back.
pub const MAX_DEPTH: usize = 256;

/// How many errors the reader reports before it stops.
pub const MAX_ERRORS: usize = 50;

/// Parses a module in the text form that [`crate::print::module_text`]
/// writes. Errors name the file, line and column.
pub fn parse_module(file_name: &str, text: &str) -> Result<Module, Diagnostics> {
    let mut p = Parser::new(file_name, text);
    p.file();
    p.finish()
}

/// Reads arbitrary bytes as text (invalid UTF-8 replaced) and parses them,
/// ignoring the result: the body of a fuzz target, which fails only if the
/// reader panics or overflows its stack.
pub fn parse_never_panics(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let _ = parse_module("<fuzz>", &text);
}

/// An error was reported (or the lexer's message was); the caller recovers.
struct Reported;

type PResult<T> = Result<T, Reported>;

struct Parser<'a> {
    file: &'a str,
    src: &'a str,
    lexer: Lexer<'a>,
    /// Tokens read but not consumed (at most two).
    ahead: VecDeque<Token>,
    diags: Vec<Diagnostic>,
    /// Where the first error past [`MAX_ERRORS`] stood.
    dropped: Option<Pos>,
    module: Module,
    oracles: Names,
    funcs: Names,
    /// Op ids used before the table had them, checked at the end.
    late_ops: Vec<(u32, Pos)>,
    depth: usize,
}

/// The digits of `w` as a number: `None` if `w` is not all digits,
/// `Some(None)` if it does not fit.
fn digits(w: &str) -> Option<Option<u64>> {
    w.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| w.parse().ok())
}

fn find(words: &'static [&'static str], w: &str) -> Option<&'static str> {
    words.iter().copied().find(|k| *k == w)
}

fn at(p: Pos) -> String {
    format!("{}:{}", p.line, p.col)
}

impl<'a> Parser<'a> {
    fn new(file: &'a str, src: &'a str) -> Parser<'a> {
        Parser {
            file,
            src,
            lexer: Lexer::new(src),
            ahead: VecDeque::new(),
            diags: Vec::new(),
            dropped: None,
            module: Module {
                name: String::new(),
                max_group: None,
                ops: Vec::new(),
                oracles: Vec::new(),
                functions: Vec::new(),
            },
            oracles: Names::default(),
            funcs: Names::default(),
            late_ops: Vec::new(),
            depth: 0,
        }
    }

    // Tokens.

    fn peek_at(&mut self, k: usize) -> &Token {
        while self.ahead.len() <= k {
            let t = self.lexer.next_token();
            self.ahead.push_back(t);
        }
        &self.ahead[k]
    }

    fn peek(&mut self) -> &Token {
        self.peek_at(0)
    }

    fn bump(&mut self) -> Token {
        match self.ahead.pop_front() {
            Some(t) => t,
            None => self.lexer.next_token(),
        }
    }

    fn at_word(&mut self, w: &str) -> bool {
        matches!(&self.peek().tok, Tok::Word(x) if x == w)
    }

    fn at_punct(&mut self, p: &str) -> bool {
        matches!(&self.peek().tok, Tok::Punct(x) if *x == p)
    }

    fn eat_word(&mut self, w: &str) -> bool {
        let yes = self.at_word(w);
        if yes {
            self.bump();
        }
        yes
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        let yes = self.at_punct(p);
        if yes {
            self.bump();
        }
        yes
    }

    // Errors.

    fn error(&mut self, pos: Pos, msg: impl Into<String>) {
        if self.diags.len() >= MAX_ERRORS {
            self.dropped.get_or_insert(pos);
        } else {
            self.diags.push(Diagnostic::new(self.file, pos, msg));
        }
    }

    fn stopped(&self) -> bool {
        self.dropped.is_some()
    }

    /// Reports that `what` was expected at the next token (or the lexer's
    /// own message, if the token is malformed).
    fn expected<T>(&mut self, what: &str) -> PResult<T> {
        let t = self.peek().clone();
        match t.tok {
            Tok::Bad(msg, pos) => self.error(pos, msg),
            Tok::Eof => self.error(t.pos, format!("expected {what}, found the end of the file")),
            _ => {
                let found = self.found(t.start, t.end);
                self.error(t.pos, format!("expected {what}, found {found}"));
            }
        }
        Err(Reported)
    }

    /// The text between two byte offsets, quoted and shortened.
    fn found(&self, start: usize, end: usize) -> String {
        let text = &self.src[start..end];
        let short: String = text.chars().take(32).collect();
        let dots = if short.len() < text.len() { "..." } else { "" };
        format!("'{short}{dots}'")
    }

    /// Skips the rest of line `line`: recovery after an error in a
    /// statement that started there.
    fn skip_line(&mut self, line: u32) {
        while !matches!(self.peek().tok, Tok::Eof) && self.peek().pos.line <= line {
            self.bump();
        }
    }

    // Terminals.

    fn word(&mut self, w: &str, what: &str) -> PResult<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            self.expected(what)
        }
    }

    fn punct(&mut self, p: &str, what: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.expected(what)
        }
    }

    /// A word that `f` accepts, as `f` maps it.
    fn keyword<T>(&mut self, f: impl Fn(&str) -> Option<T>, what: &str) -> PResult<T> {
        if let Tok::Word(w) = &self.peek().tok {
            if let Some(v) = f(w) {
                self.bump();
                return Ok(v);
            }
        }
        self.expected(what)
    }

    fn name(&mut self, sigil: char, what: &str) -> PResult<(String, Pos)> {
        let t = self.peek();
        if let Tok::Name(s, n) = &t.tok {
            if *s == sigil {
                let r = (n.clone(), t.pos);
                self.bump();
                return Ok(r);
            }
        }
        self.expected(what)
    }

    fn string(&mut self, what: &str) -> PResult<String> {
        if let Tok::Str(s) = &self.peek().tok {
            let s = s.clone();
            self.bump();
            return Ok(s);
        }
        self.expected(what)
    }

    /// A decimal number up to `max`; `range` says what was expected when
    /// the digits do not fit.
    fn number(&mut self, max: u64, what: &str, range: &str) -> PResult<u64> {
        let value = match &self.peek().tok {
            Tok::Word(w) => digits(w),
            _ => None,
        };
        match value {
            Some(Some(v)) if v <= max => {
                self.bump();
                Ok(v)
            }
            Some(_) => self.expected(range),
            None => self.expected(what),
        }
    }

    fn int(&mut self, what: &str) -> PResult<i64> {
        const RANGE: &str = "an integer from -9223372036854775808 to 9223372036854775807";
        if !self.at_punct("-") {
            return Ok(self.number(i64::MAX as u64, what, RANGE)? as i64);
        }
        let minus = self.peek().clone();
        let digits = match &self.peek_at(1).tok {
            Tok::Word(w) => digits(w),
            _ => None,
        };
        match digits {
            Some(Some(v)) if v <= 1 << 63 => {
                self.bump();
                self.bump();
                // `v as i64` wraps 2^63 to i64::MIN, whose negation is
                // itself.
                Ok(0i64.wrapping_sub(v as i64))
            }
            Some(_) => {
                let end = self.peek_at(1).end;
                let found = self.found(minus.start, end);
                self.error(minus.pos, format!("expected {RANGE}, found {found}"));
                Err(Reported)
            }
            None => self.expected(what),
        }
    }

    fn u32(&mut self, what: &str) -> PResult<u32> {
        let range = format!("{what} from 0 to {}", u32::MAX);
        Ok(self.number(u32::MAX.into(), what, &range)? as u32)
    }

    fn span(&mut self) -> PResult<Span> {
        self.word("at", "'at' and a span (line:col-line:col)")?;
        let start = self.pos_pair()?;
        self.punct("-", "'-' between the start and the end of the span")?;
        let end = self.pos_pair()?;
        Ok(Span { start, end })
    }

    fn pos_pair(&mut self) -> PResult<Pos> {
        let line = self.u32("a line number")?;
        self.punct(":", "':' between a line and a column")?;
        let col = self.u32("a column number")?;
        Ok(Pos { line, col })
    }

    fn op_id(&mut self, what: &str) -> PResult<(OpId, Pos)> {
        let t = self.peek();
        if let Tok::Name('#', n) = &t.tok {
            if let Some(Some(v)) = digits(n) {
                if let Ok(v) = u32::try_from(v) {
                    let pos = t.pos;
                    self.bump();
                    return Ok((OpId(v), pos));
                }
            }
        }
        self.expected(what)
    }

    /// An op id used by a block, an instruction or an expression.
    fn op_use(&mut self, what: &str) -> PResult<OpId> {
        let (id, pos) = self.op_id(what)?;
        if id.0 as usize >= self.module.ops.len() {
            self.late_ops.push((id.0, pos));
        }
        Ok(id)
    }

    fn oracle_use(&mut self, what: &str) -> PResult<usize> {
        let (n, pos) = self.name('$', what)?;
        Ok(self.oracles.use_at(n, pos))
    }

    fn func_use(&mut self, what: &str) -> PResult<usize> {
        let (n, pos) = self.name('@', what)?;
        Ok(self.funcs.use_at(n, pos))
    }

    fn block_use(&mut self, blocks: &mut Names, what: &str) -> PResult<usize> {
        let (n, pos) = self.name('%', what)?;
        Ok(blocks.use_at(n, pos))
    }

    fn duplicate(&mut self, what: &str, shown: String, pos: Pos, first: Pos) {
        let first = at(first);
        self.error(
            pos,
            format!("expected a new {what}, found {shown} (already defined at {first})"),
        );
    }

    // The end.

    fn finish(mut self) -> Result<Module, Diagnostics> {
        let (oracles, unknown) = self.oracles.resolve();
        for (n, pos) in unknown {
            let msg = format!(
                "expected an oracle defined by an 'oracle' line, found {}",
                sigil_name('$', &n)
            );
            self.error(pos, msg);
        }
        let (funcs, unknown) = self.funcs.resolve();
        for (n, pos) in unknown {
            let msg = format!(
                "expected a function defined in the module, found {}",
                sigil_name('@', &n)
            );
            self.error(pos, msg);
        }
        let n = self.module.ops.len();
        let mut seen = std::collections::HashSet::new();
        for (id, pos) in std::mem::take(&mut self.late_ops) {
            // Like an unknown name, an unknown op is reported at its first
            // use only.
            if id as usize >= n && seen.insert(id) {
                let msg = format!("expected an op of the table (which has {n}), found #{id}");
                self.error(pos, msg);
            }
        }
        remap(&mut self.module, &oracles, &funcs);
        let mut diags = self.diags;
        // Uses are resolved at the end; put their errors in file order.
        diags.sort_by_key(|d| d.pos);
        if let Some(pos) = self.dropped {
            let msg = format!("stopped after {MAX_ERRORS} errors; more were dropped");
            diags.push(Diagnostic::new(self.file, pos, msg));
        }
        if diags.is_empty() {
            Ok(self.module)
        } else {
            Err(Diagnostics(diags))
        }
    }
}
