//! Parsing of function bodies: basic blocks, local names and numbering.
//!
//! Covers LangRef "Functions" (a body is a list of basic blocks, each an
//! optional label, instructions, and a terminator) and the numbering rule of
//! "Identifiers": unnamed parameters, unnamed blocks (including an entry
//! block without a label) and unnamed non-void results take the next number
//! of one per-function counter, in order, and an explicitly numbered one
//! must be exactly that number. Debug records (`#dbg_value(...)`,
//! `#dbg_declare(...)`, ...) and in-body `uselistorder` directives are
//! skipped. At the end of a body every local use is checked against the
//! definitions: values against values, `label` operands against blocks.
#![deny(unsafe_code)]

use std::collections::HashMap;

use super::{PResult, Parser};
use crate::error::ErrorKind;
use crate::lexer::{Tok, Token};
use crate::module::{Block, Span};
use crate::value::Name;

/// What a local name was defined as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DefKind {
    Value,
    Block,
}

/// What a use of a local name requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UseKind {
    /// An operand: a parameter or an instruction result.
    Value,
    /// A `label` operand or a phi predecessor: a block.
    Label,
    /// A name inside a generic instruction: either.
    Any,
}

/// Per-function state: the numbering counter, definitions and uses.
#[derive(Default)]
pub(crate) struct FnState {
    /// Whether a body (or a parameter list) is being read; local uses
    /// outside one are errors.
    active: bool,
    next_num: u32,
    /// Whether a numbered definition skipped numbers (the body is then
    /// renumbered densely, as LLVM prints it).
    pub(crate) gaps: bool,
    defs: HashMap<Name, (DefKind, Span)>,
    uses: Vec<(Name, Span, UseKind)>,
}

impl Parser<'_> {
    /// Starts a new function's local namespace.
    pub(crate) fn begin_function(&mut self) {
        self.fs = FnState {
            active: true,
            ..FnState::default()
        };
    }

    /// Records a use of a local name, checked when the body ends.
    pub(crate) fn use_local(&mut self, name: Name, t: Token, kind: UseKind) -> PResult<()> {
        if !self.fs.active {
            return Err(self.error_at(
                t,
                ErrorKind::Syntax,
                format!("local value '%{name}' used outside a function body"),
            ));
        }
        self.fs.uses.push((name, Self::span(t), kind));
        Ok(())
    }

    /// Defines a local name: a written one (checked against the numbering
    /// and for redefinition) or, for `None`, the next number.
    pub(crate) fn define_local(
        &mut self,
        name: Option<Name>,
        t: Token,
        kind: DefKind,
        what: &str,
    ) -> PResult<Name> {
        let name = match name {
            None => {
                let n = Name::Numbered(self.fs.next_num);
                self.fs.next_num = self.fs.next_num.saturating_add(1);
                n
            }
            // LLVM 19 lets numbers skip ahead (`%0` then `%2`; the next
            // unnamed value is `%3`) but never go back.
            Some(Name::Numbered(n)) => {
                if n < self.fs.next_num {
                    return Err(self.error_at(
                        t,
                        ErrorKind::Numbering,
                        if what == "block" {
                            // LLVM's words for a block's number.
                            format!(
                                "label expected to be numbered '{}' or greater",
                                self.fs.next_num
                            )
                        } else {
                            format!(
                                "{what} expected to be numbered '%{}' or greater",
                                self.fs.next_num
                            )
                        },
                    ));
                }
                self.fs.gaps |= n > self.fs.next_num;
                self.fs.next_num = n.saturating_add(1);
                Name::Numbered(n)
            }
            Some(named) => named,
        };
        if let Some((_, prev)) = self.fs.defs.get(&name) {
            return Err(self.error_at(
                t,
                ErrorKind::Redefinition,
                format!(
                    "redefinition of '%{name}' (first defined on line {})",
                    prev.line
                ),
            ));
        }
        self.fs.defs.insert(name.clone(), (kind, Self::span(t)));
        Ok(name)
    }

    /// A block reference `%name` after `label` (or in a phi).
    pub(crate) fn label_ref(&mut self) -> PResult<Name> {
        let t = self.expect(Tok::Local, "a block name '%name'")?;
        let n = self.name_of(t)?;
        self.use_local(n.clone(), t, UseKind::Label)?;
        Ok(n)
    }

    /// `label %name`
    pub(crate) fn label_operand(&mut self) -> PResult<Name> {
        self.expect_word("label")?;
        self.label_ref()
    }

    /// The blocks of a body, after its `{`, up to and including its `}`.
    pub(crate) fn function_body(&mut self, open: Token) -> PResult<Vec<Block>> {
        let mut blocks = Vec::new();
        loop {
            self.skip_records()?;
            if self.at(Tok::RBrace) {
                if blocks.is_empty() {
                    return Err(self.error_at(
                        open,
                        ErrorKind::Syntax,
                        "function body requires at least one basic block".into(),
                    ));
                }
                self.bump();
                break;
            }
            if self.at(Tok::Eof) {
                return Err(self.expected("'}' at the end of the function body"));
            }
            blocks.push(self.block()?);
        }
        self.check_uses();
        Ok(blocks)
    }

    fn block(&mut self) -> PResult<Block> {
        let t = self.peek();
        let label = if t.kind == Tok::Label {
            self.bump();
            Some(self.name_of(t)?)
        } else {
            None
        };
        let name = self.define_local(label, t, DefKind::Block, "block")?;
        let mut instructions = Vec::new();
        loop {
            self.skip_records()?;
            let t = self.peek();
            match t.kind {
                Tok::RBrace | Tok::Eof => {
                    let found = self.describe(t);
                    return Err(self.error_at(
                        t,
                        ErrorKind::Syntax,
                        format!("expected an instruction, found {found} (block '%{name}' has no terminator)"),
                    ));
                }
                Tok::Label => {
                    let found = self.describe(t);
                    return Err(self.error_at(
                        t,
                        ErrorKind::Syntax,
                        format!("expected an instruction, found label {found} (block '%{name}' has no terminator)"),
                    ));
                }
                _ => {}
            }
            let inst = self.instruction()?;
            let done = inst.kind.is_terminator();
            instructions.push(inst);
            if done {
                break;
            }
        }
        Ok(Block {
            name,
            instructions,
            span: Self::span(t),
        })
    }

    /// Skips debug records and `uselistorder` directives.
    fn skip_records(&mut self) -> PResult<()> {
        loop {
            let t = self.peek();
            if t.kind == Tok::Hash {
                self.bump();
                if !self.at(Tok::LParen) {
                    return Err(self.expected(&format!("'(' after '{}'", self.text(t))));
                }
                self.skip_group(None)?;
            } else if t.kind == Tok::Word
                && matches!(self.text(t), "uselistorder" | "uselistorder_bb")
            {
                // A directive fills its line.
                self.bump();
                while !self.at(Tok::Eof) && !self.peek().line_start {
                    self.bump();
                }
            } else {
                return Ok(());
            }
        }
    }

    /// Checks every recorded local use against the definitions, collecting
    /// the errors, and closes the function's namespace.
    fn check_uses(&mut self) {
        let uses = std::mem::take(&mut self.fs.uses);
        for (name, at, kind) in uses {
            let problem = match (self.fs.defs.get(&name), kind) {
                (None, UseKind::Label) => Some(format!("use of undefined block '%{name}'")),
                (None, _) => Some(format!("use of undefined value '%{name}'")),
                (Some((DefKind::Block, _)), UseKind::Value) => Some(format!(
                    "'%{name}' is a basic block, but a value is expected here"
                )),
                (Some((DefKind::Value, _)), UseKind::Label) => Some(format!(
                    "'%{name}' is a value, but a basic block is expected here"
                )),
                _ => None,
            };
            if let Some(message) = problem {
                let e = self.error_span(at, ErrorKind::Undefined, message);
                self.push_error(e);
            }
        }
        self.fs.active = false;
    }

    /// Closes a function's namespace without checking (declarations, and
    /// bodies abandoned after an error).
    pub(crate) fn end_function(&mut self) {
        self.fs.active = false;
        self.fs.uses.clear();
    }
}
