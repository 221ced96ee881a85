//! The structure of a constant expression, read on demand.
//!
//! The module parser keeps constant expressions as text
//! ([`crate::value::ConstExpr`]); the mapping into convcheck's IR needs the
//! operands of the few that compute addresses and integers (LangRef
//! "Constant Expressions": `getelementptr`, the casts, and the binary
//! operators LLVM 19 still has as constants). This reads one expression's
//! text again with the module parser's lexer and type parser; nested
//! constant expressions stay text in the result, to be read the same way
//! when the caller gets to them.
#![deny(unsafe_code)]

use super::{body, Parser};
use crate::inst::{BinOp, CastOp};
use crate::lexer::{lex, Tok};
use crate::module::Module;
use crate::value::{ConstOp, TypedValue};

/// Reads the text of a constant expression; `None` when it is not one of
/// the forms [`ConstOp`] names or does not parse.
pub(crate) fn parse(text: &str) -> Option<ConstOp> {
    let toks = lex(text, "<constant>").ok()?;
    let mut p = Parser {
        src: text,
        file: "<constant>",
        toks,
        pos: 0,
        errors: Vec::new(),
        module: Module::default(),
        global_uses: Vec::new(),
        global_defs: Default::default(),
        next_global: 0,
        group_uses: Vec::new(),
        fs: body::FnState::default(),
    };
    let op = p.const_op().ok()?;
    p.at(Tok::Eof).then_some(op)
}

impl Parser<'_> {
    fn const_op(&mut self) -> super::PResult<ConstOp> {
        let Some(opcode) = self.word() else {
            return Err(self.expected("a constant expression"));
        };
        self.bump();
        if opcode == "getelementptr" {
            let mut flags = Vec::new();
            loop {
                if self.at_word("inrange") && self.peek_at(1).kind == Tok::LParen {
                    let from = self.pos;
                    self.bump();
                    self.skip_group(None)?;
                    flags.push(self.text_from(from));
                } else if let Some(w @ ("inbounds" | "nusw" | "nuw")) = self.word() {
                    flags.push(w.to_string());
                    self.bump();
                } else {
                    break;
                }
            }
            self.expect(Tok::LParen, "'('")?;
            let source_ty = self.parse_type()?;
            self.expect(Tok::Comma, "','")?;
            let base = self.parse_typed_value()?;
            let mut indices = Vec::new();
            while self.eat(Tok::Comma) {
                if self.at_word("inrange") && self.peek_at(1).kind != Tok::LParen {
                    self.bump();
                }
                indices.push(self.parse_typed_value()?);
            }
            self.expect(Tok::RParen, "')'")?;
            return Ok(ConstOp::Gep {
                flags,
                source_ty,
                base,
                indices,
            });
        }
        if let Some(op) = CastOp::from_opcode(opcode) {
            while self
                .word()
                .is_some_and(|w| matches!(w, "nneg" | "nuw" | "nsw"))
            {
                self.bump();
            }
            self.expect(Tok::LParen, "'('")?;
            let value = self.parse_typed_value()?;
            self.expect_word("to")?;
            let to = self.parse_type()?;
            self.expect(Tok::RParen, "')'")?;
            return Ok(ConstOp::Cast { op, value, to });
        }
        if let Some(op) = BinOp::from_opcode(opcode) {
            while self
                .word()
                .is_some_and(|w| matches!(w, "nuw" | "nsw" | "exact" | "disjoint"))
            {
                self.bump();
            }
            self.expect(Tok::LParen, "'('")?;
            let lhs: TypedValue = self.parse_typed_value()?;
            self.expect(Tok::Comma, "','")?;
            let rhs = self.parse_typed_value()?;
            self.expect(Tok::RParen, "')'")?;
            return Ok(ConstOp::Binary { op, lhs, rhs });
        }
        Err(self.expected("a getelementptr, cast or binary constant expression"))
    }
}
