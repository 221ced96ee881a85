//! The module, its oracle and op tables, and its functions: the
//! line-level part of the reader in [`super`].
//!
//! Each item, block label, instruction and terminator is one statement;
//! when one is malformed, the error is reported and the reader resumes at
//! the next line. A block that lacks its terminator, or an instruction
//! before any label, is reported once and read on, so that one mistake
//! does not cascade into an error on every following line.

use super::lexer::Tok;
use super::names::Names;
use super::{find, PResult, Parser, Reported};
use crate::cfg::{Block, Cfg, Inst, InstKind, Term, TokenKind};
use crate::ops::{BarrierKind, CallKind, OpInfo, OpKind, OracleClass, OracleInfo, Space};
use crate::print::name as sigil_name;
use crate::span::Span;

/// The keywords that start an item.
const ITEMS: &[&str] = &["oracle", "op", "define"];

/// What the first token of a line in a function's body starts.
enum Line {
    End,
    Close,
    Label,
    Inst,
    Term,
    TopLevel,
    Other,
}

impl Parser<'_> {
    // The module and its tables.

    pub(super) fn file(&mut self) {
        let line = self.peek().pos.line;
        if self.eat_word("module") {
            match self.string("the module's name in quotes after 'module'") {
                Ok(n) => self.module.name = n,
                Err(Reported) => self.skip_line(line),
            }
            // The most threads of a group, where the module states it.
            if self.eat_word("max_group") {
                match self.number(
                    u64::from(u32::MAX),
                    "a group size after 'max_group'",
                    "a group size of at most 4294967295 after 'max_group'",
                ) {
                    Ok(n) => self.module.max_group = u32::try_from(n).ok(),
                    Err(Reported) => self.skip_line(line),
                }
            }
        } else {
            let _: PResult<()> =
                self.expected("'module' and the module's name at the start of the file");
            // Read on from the first item, or skip what is not one.
            if !matches!(&self.peek().tok, Tok::Word(w) if find(ITEMS, w).is_some()) {
                self.skip_line(line);
            }
        }
        while !self.stopped() {
            let line = self.peek().pos.line;
            let item = match &self.peek().tok {
                Tok::Eof => break,
                Tok::Word(w) => find(ITEMS, w),
                _ => None,
            };
            let r = match item {
                Some("oracle") => self.oracle_line(),
                Some("op") => self.op_line(),
                Some(_) => {
                    self.define();
                    Ok(())
                }
                None => self.expected("'oracle', 'op' or 'define' at the start of a line"),
            };
            if r.is_err() {
                self.skip_line(line);
            }
        }
    }

    fn oracle_line(&mut self) -> PResult<()> {
        self.bump();
        let (name, pos) = self.name('$', "an oracle name ($name) after 'oracle'")?;
        let id = self.module.oracles.len();
        if let Err(first) = self.oracles.define(name.clone(), pos, id) {
            self.duplicate("oracle name", sigil_name('$', &name), pos, first);
        }
        // The oracle takes its id even when the rest of the line is
        // broken, so that later ids and uses of its name stay right.
        self.module.oracles.push(OracleInfo {
            name,
            class: OracleClass::Varying,
            domain: Vec::new(),
            span: Span::default(),
        });
        let class = self.keyword(
            OracleClass::from_name,
            "an oracle class (varying, uniform, invariant or uniform_invariant)",
        )?;
        self.punct("[", "'[' before the oracle's domain")?;
        let mut domain = Vec::new();
        if !self.eat_punct("]") {
            loop {
                domain.push(self.int("an integer in the oracle's domain")?);
                if self.eat_punct("]") {
                    break;
                }
                self.punct(",", "',' or ']' after a value of the domain")?;
            }
        }
        let span = self.span()?;
        if let Some(o) = self.module.oracles.last_mut() {
            o.class = class;
            o.domain = domain;
            o.span = span;
        }
        Ok(())
    }

    fn op_line(&mut self) -> PResult<()> {
        self.bump();
        let (id, pos) = self.op_id("an op id (#0, #1, ...) after 'op'")?;
        let expect = self.module.ops.len();
        if id.0 as usize != expect {
            self.error(pos, format!("expected op #{expect}, found op #{}", id.0));
        }
        // As with oracles, the op takes its place even if the line is
        // broken.
        self.module.ops.push(OpInfo {
            label: String::new(),
            span: Span::default(),
            kind: OpKind::Stmt,
            func: usize::MAX,
            memory_none: false,
        });
        let kind = self.op_kind()?;
        let label = self.string("the op's label in quotes")?;
        self.word("in", "'in' and the op's function")?;
        let func = self.func_use("a function name (@name) after 'in'")?;
        let span = self.span()?;
        let memory_none = self.eat_word("memory");
        if memory_none {
            self.punct("(", "'(' after 'memory'")?;
            self.word("none", "'none' in 'memory(none)'")?;
            self.punct(")", "')' after 'memory(none'")?;
        }
        if let Some(op) = self.module.ops.last_mut() {
            *op = OpInfo {
                label,
                span,
                kind,
                func,
                memory_none,
            };
        }
        Ok(())
    }

    fn op_kind(&mut self) -> PResult<OpKind> {
        const KINDS: &[&str] = &["stmt", "observe", "token", "mem", "call"];
        let what = "an op kind (stmt, observe, token, mem or call)";
        Ok(match self.keyword(|w| find(KINDS, w), what)? {
            "stmt" => OpKind::Stmt,
            "observe" => OpKind::Observe,
            "token" => OpKind::Token,
            "mem" => {
                let space = self.space()?;
                let rw = |w: &str| find(&["read", "write"], w);
                let write = self.keyword(rw, "'read' or 'write'")? == "write";
                OpKind::Mem { space, write }
            }
            _ => OpKind::Call(self.call_kind()?),
        })
    }

    pub(super) fn space(&mut self) -> PResult<Space> {
        self.keyword(Space::from_name, "a memory space (shared, global or local)")
    }

    pub(super) fn call_kind(&mut self) -> PResult<CallKind> {
        const KINDS: &[&str] = &["real", "op", "plain", "oracle", "barrier", "fence"];
        let what = "a call kind (real, op, plain, oracle, barrier or fence)";
        let k = self.keyword(|w| find(KINDS, w), what)?;
        let oracle = "an oracle name ($name) after the call kind";
        Ok(match k {
            "real" => CallKind::Real(self.func_use("a function name (@name) after 'real'")?),
            "op" => CallKind::Op(self.oracle_use(oracle)?),
            "plain" => CallKind::Plain(self.oracle_use(oracle)?),
            "oracle" => CallKind::Oracle(self.oracle_use(oracle)?),
            "barrier" => {
                let what = "a barrier kind (plain, count, and or or)";
                let b = self.keyword(BarrierKind::from_name, what)?;
                let value = if matches!(self.peek().tok, Tok::Name('$', _)) {
                    Some(self.oracle_use(oracle)?)
                } else {
                    None
                };
                CallKind::Barrier(b, value)
            }
            _ => CallKind::Fence,
        })
    }

    // Functions.

    fn define(&mut self) {
        let line = self.bump().pos.line;
        let mut cfg = Cfg {
            name: String::new(),
            params: Vec::new(),
            param_oracles: Vec::new(),
            blocks: Vec::new(),
        };
        if self.header(&mut cfg).is_err() {
            self.skip_line(line);
        }
        self.body(&mut cfg);
        self.module.functions.push(cfg);
    }

    fn header(&mut self, cfg: &mut Cfg) -> PResult<()> {
        self.word("void", "'void' after 'define'")?;
        let (name, pos) = self.name('@', "a function name (@name) after 'define void'")?;
        let id = self.module.functions.len();
        if let Err(first) = self.funcs.define(name.clone(), pos, id) {
            self.duplicate("function name", sigil_name('@', &name), pos, first);
        }
        cfg.name = name;
        self.punct("(", "'(' after the function's name")?;
        if !self.eat_punct(")") {
            loop {
                let (p, pos) = self.name('%', "a parameter name (%name)")?;
                if self.eat_punct("=") {
                    let o = self.oracle_use("an oracle name ($name) after '='")?;
                    // Parameter oracles are a prefix of the parameters:
                    // `param_oracles[i]` belongs to `params[i]`.
                    if cfg.param_oracles.len() < cfg.params.len() {
                        self.error(
                            pos,
                            "expected the parameters with oracles before those without one",
                        );
                    }
                    cfg.param_oracles.push(o);
                }
                cfg.params.push(p);
                if self.eat_punct(")") {
                    break;
                }
                self.punct(",", "',' or ')' after a parameter")?;
            }
        }
        self.punct("{", "'{' to open the function's body")
    }

    fn line_kind(&mut self) -> Line {
        let colon = matches!(self.peek_at(1).tok, Tok::Punct(":"));
        match &self.peek().tok {
            Tok::Eof => Line::End,
            Tok::Punct("}") => Line::Close,
            Tok::Word(_) | Tok::Str(_) if colon => Line::Label,
            Tok::Name('#', _) => Line::Inst,
            Tok::Word(w) if find(&["br", "switch", "ret", "unreachable"], w).is_some() => {
                Line::Term
            }
            Tok::Word(w) if find(&["module", "oracle", "op", "define"], w).is_some() => {
                Line::TopLevel
            }
            _ => Line::Other,
        }
    }

    /// The blocks of a function, up to and including its `}`.
    fn body(&mut self, cfg: &mut Cfg) {
        let mut blocks = Names::default();
        // Whether the last block still lacks its terminator, and whether
        // it was opened without a label (an error already reported, so
        // its missing terminator is not reported too).
        let (mut open, mut stray) = (false, false);
        let close = format!("'}}' to close {}", sigil_name('@', &cfg.name));
        while !self.stopped() {
            let line = self.peek().pos.line;
            let kind = self.line_kind();
            let ends = matches!(kind, Line::Label | Line::Close | Line::End | Line::TopLevel);
            let unterminated = open && ends && !stray;
            if unterminated {
                let last = cfg.blocks.last().map_or("", |b| b.name.as_str());
                let what = format!(
                    "a terminator (br, switch or ret) to end block {}",
                    sigil_name('%', last)
                );
                let _: PResult<()> = self.expected(&what);
            }
            if ends {
                open = false;
            }
            let r = match kind {
                Line::End | Line::TopLevel => {
                    // One error at this token is enough.
                    if !unterminated {
                        let _: PResult<()> = self.expected(&close);
                    }
                    break;
                }
                Line::Close => {
                    self.bump();
                    break;
                }
                Line::Label => {
                    (open, stray) = (true, false);
                    self.label(cfg, &mut blocks)
                }
                Line::Inst | Line::Term => {
                    if !open {
                        // Report once, then read the rest into a block no
                        // name can reach.
                        let _: PResult<()> = self.expected("a block label (name:)");
                        cfg.blocks.push(Block {
                            name: String::new(),
                            insts: Vec::new(),
                            term: Term::Ret(None),
                            origin: None,
                        });
                        (open, stray) = (true, true);
                    }
                    if matches!(kind, Line::Inst) {
                        self.inst(&mut blocks).map(|i| {
                            if let Some(b) = cfg.blocks.last_mut() {
                                b.insts.push(i);
                            }
                        })
                    } else {
                        // The block is closed even if its terminator is
                        // broken, so the next label is not a second error.
                        open = false;
                        self.term(&mut blocks).map(|t| {
                            if let Some(b) = cfg.blocks.last_mut() {
                                b.term = t;
                            }
                        })
                    }
                }
                Line::Other => self.expected("a block label, an instruction, a terminator or '}'"),
            };
            if r.is_err() {
                self.skip_line(line);
            }
        }
        let (map, unknown) = blocks.resolve();
        let f = sigil_name('@', &cfg.name);
        for (n, pos) in unknown {
            let msg = format!("expected a block of {f}, found {}", sigil_name('%', &n));
            self.error(pos, msg);
        }
        let map = |b: usize| map.get(b).copied().unwrap_or(b);
        for block in &mut cfg.blocks {
            block.term.map_succs(map);
            for inst in &mut block.insts {
                if let InstKind::Phi { incoming, .. } = &mut inst.kind {
                    for (b, _) in incoming {
                        *b = map(*b);
                    }
                }
            }
        }
    }

    fn label(&mut self, cfg: &mut Cfg, blocks: &mut Names) -> PResult<()> {
        let t = self.bump();
        self.bump();
        let name = match t.tok {
            Tok::Word(w) | Tok::Str(w) => w,
            _ => String::new(),
        };
        if let Err(first) = blocks.define(name.clone(), t.pos, cfg.blocks.len()) {
            let what = format!("block name in {}", sigil_name('@', &cfg.name));
            self.duplicate(&what, sigil_name('%', &name), t.pos, first);
        }
        cfg.blocks.push(Block {
            name,
            insts: Vec::new(),
            term: Term::Ret(None),
            origin: None,
        });
        if self.eat_word("origin") {
            let origin = self.op_use("an op id (#N) after 'origin'")?;
            if let Some(b) = cfg.blocks.last_mut() {
                b.origin = Some(origin);
            }
        }
        Ok(())
    }

    fn inst(&mut self, blocks: &mut Names) -> PResult<Inst> {
        const KINDS: &[&str] = &["observe", "eval", "set", "phi", "token"];
        let sid = self.op_use("an op id")?;
        let what = "an instruction (observe, eval, set, phi or token) after the op id";
        let kind = match self.keyword(|w| find(KINDS, w), what)? {
            "observe" => InstKind::Observe,
            "eval" => InstKind::Eval(self.expr("an expression after 'eval'")?),
            "set" => {
                let (name, _) = self.name('%', "a local name (%name) after 'set'")?;
                let value = if self.eat_punct("=") {
                    Some(self.expr("an expression after '='")?)
                } else {
                    None
                };
                InstKind::SetLocal { name, value }
            }
            "phi" => {
                let (name, _) = self.name('%', "a local name (%name) after 'phi'")?;
                let mut incoming = Vec::new();
                while self.at_punct("[")
                    && !matches!(&self.peek_at(1).tok, Tok::Word(w) if w == "convergencectrl")
                {
                    self.bump();
                    let e = self.expr("an incoming value after '['")?;
                    self.punct(",", "',' after the incoming value")?;
                    let b = self.block_use(blocks, "a block name (%name) after ','")?;
                    self.punct("]", "']' after the incoming block")?;
                    incoming.push((b, e));
                }
                InstKind::Phi { name, incoming }
            }
            _ => {
                let (name, _) = self.name('%', "a token name (%name) after 'token'")?;
                self.punct("=", "'=' after the token's name")?;
                let kinds = |w: &str| match w {
                    "entry" => Some(TokenKind::Entry),
                    "loop" => Some(TokenKind::Loop),
                    "anchor" => Some(TokenKind::Anchor),
                    _ => None,
                };
                let kind = self.keyword(kinds, "a token kind (entry, loop or anchor)")?;
                InstKind::Token { kind, name }
            }
        };
        let mut token = None;
        if self.eat_punct("[") {
            self.word("convergencectrl", "'convergencectrl' after '['")?;
            let (t, _) = self.name('%', "a token name (%name) after 'convergencectrl'")?;
            self.punct("]", "']' after the token's name")?;
            token = Some(t);
        }
        Ok(Inst { kind, sid, token })
    }

    fn label_use(&mut self, blocks: &mut Names) -> PResult<usize> {
        self.word("label", "'label' and a block name")?;
        self.block_use(blocks, "a block name after 'label'")
    }

    fn term(&mut self, blocks: &mut Names) -> PResult<Term> {
        let kind = self.keyword(
            |w| find(&["br", "switch", "ret", "unreachable"], w),
            "a terminator",
        )?;
        Ok(match kind {
            "unreachable" => Term::Unreachable,
            "br" if self.at_word("label") => Term::Br(self.label_use(blocks)?),
            "br" => {
                let cond = self.expr("'label' or a condition after 'br'")?;
                self.punct(",", "',' after the condition")?;
                let then = self.label_use(blocks)?;
                self.punct(",", "',' after the first label")?;
                let els = self.label_use(blocks)?;
                Term::CondBr { cond, then, els }
            }
            "switch" => {
                let value = self.expr("a value after 'switch'")?;
                self.punct(",", "',' after the switch's value")?;
                let default = self.label_use(blocks)?;
                self.punct("[", "'[' before the switch's cases")?;
                let mut cases = Vec::new();
                while !self.eat_punct("]") {
                    let v = self.int("a case value or ']'")?;
                    self.punct(":", "':' after the case value")?;
                    cases.push((v, self.label_use(blocks)?));
                }
                Term::Switch {
                    value,
                    cases,
                    default,
                }
            }
            _ if self.eat_word("void") => Term::Ret(None),
            _ => Term::Ret(Some(self.expr("'void' or a value after 'ret'")?)),
        })
    }
}
