//! Expressions: the recursive part of the reader in [`super`].
//!
//! Every compound expression the printer writes is either a prefix form
//! (`not(a)`, `call ...`, `load ...`, `store ...`) or parenthesised
//! (`(a + b)`, `(c ? a : b)`, `(%x = v)`), so no precedence is needed: an
//! infix operator only ever follows the first operand inside parentheses.
//! Nesting is limited to [`MAX_DEPTH`] levels.

use super::lexer::Tok;
use super::{PResult, Parser, Reported, MAX_DEPTH};
use crate::expr::{AssignOp, BinOp, Expr, UnOp};

impl Parser<'_> {
    // Expressions.

    /// An expression; `what` says what was expected if none starts here.
    pub(super) fn expr(&mut self, what: &str) -> PResult<Expr> {
        if self.depth >= MAX_DEPTH {
            let pos = self.peek().pos;
            let msg = format!("expected expressions nested at most {MAX_DEPTH} deep");
            self.error(pos, msg);
            return Err(Reported);
        }
        self.depth += 1;
        let e = self.expr_at_depth(what);
        self.depth -= 1;
        e
    }

    fn expr_at_depth(&mut self, what: &str) -> PResult<Expr> {
        let tok = self.peek().tok.clone();
        let word = match &tok {
            Tok::Name('%', n) => {
                self.bump();
                return Ok(Expr::Var(n.clone()));
            }
            Tok::Name('$', _) => return Ok(Expr::Oracle(self.oracle_use(what)?)),
            Tok::Punct("-") => return Ok(Expr::Const(self.int(what)?)),
            Tok::Punct("(") => {
                self.bump();
                return self.compound();
            }
            Tok::Word(w) => w.as_str(),
            _ => return self.expected(what),
        };
        if word.starts_with(|c: char| c.is_ascii_digit()) {
            return Ok(Expr::Const(self.int(what)?));
        }
        let unary = UnOp::from_name(word);
        if let Some(op) = unary {
            self.bump();
            self.punct("(", &format!("'(' after '{word}'"))?;
            let a = self.expr("an expression")?;
            self.punct(")", &format!("')' to close '{word}('"))?;
            return Ok(Expr::Unary(op, Box::new(a)));
        }
        match word {
            "tid" | "N" => {
                self.bump();
                Ok(if word == "tid" {
                    Expr::Tid
                } else {
                    Expr::GroupSize
                })
            }
            "call" => {
                self.bump();
                let op = self.op_use("an op id (#N) after 'call'")?;
                let kind = self.call_kind()?;
                let (callee, _) = self.name('@', "the callee's name (@name)")?;
                self.punct("(", "'(' before the call's arguments")?;
                let mut args = Vec::new();
                if !self.eat_punct(")") {
                    loop {
                        args.push(self.expr("an argument")?);
                        if self.eat_punct(")") {
                            break;
                        }
                        self.punct(",", "',' or ')' after an argument")?;
                    }
                }
                Ok(Expr::Call {
                    op,
                    kind,
                    callee,
                    args,
                })
            }
            "load" | "store" => {
                self.bump();
                let op = self.op_use(&format!("an op id (#N) after '{word}'"))?;
                let mut access = crate::expr::Access::ELEMENT;
                if self.eat_word("bytes") {
                    access.bytes =
                        self.number(8, "a width in bytes (1 to 8) after 'bytes'", "1 to 8")? as u32;
                    if access.bytes == 0 {
                        return self.expected("a width in bytes (1 to 8) after 'bytes'");
                    }
                }
                if self.eat_word("volatile") {
                    access.volatile = true;
                }
                if self.eat_word("atomic") {
                    access.atomic = self.number(
                        255,
                        "an atomic operation (1 to 255) after 'atomic'",
                        "1 to 255",
                    )? as u8;
                    if access.atomic == 0 {
                        return self.expected("an atomic operation (1 to 255) after 'atomic'");
                    }
                }
                let space = self.space()?;
                self.punct("[", "'[' after the memory space")?;
                let index = Box::new(self.expr("an index")?);
                self.punct("]", "']' after the index")?;
                if word == "store" {
                    self.punct("=", "'=' after the store's index")?;
                    let value = Box::new(self.expr("the stored value after '='")?);
                    return Ok(Expr::Store {
                        op,
                        space,
                        index,
                        value,
                        access,
                    });
                }
                let mut value = None;
                if self.eat_punct("->") {
                    value = Some(self.oracle_use("an oracle name ($name) after '->'")?);
                }
                Ok(Expr::Load {
                    op,
                    space,
                    index,
                    value,
                    access,
                })
            }
            _ => self.expected(what),
        }
    }

    /// The rest of `(a OP b)`, `(c ? a : b)` or `(%x OP= v)`.
    fn compound(&mut self) -> PResult<Expr> {
        let lhs_pos = self.peek().pos;
        let lhs = self.expr("an expression after '('")?;
        let op: &str = match &self.peek().tok {
            Tok::Punct(p) => p,
            Tok::Word(w) => w.as_str(),
            _ => "",
        };
        let op = op.to_string();
        let op = op.as_str();
        let assign = match op {
            "=" => Some(AssignOp::Set),
            "+=" => Some(AssignOp::Add),
            "-=" => Some(AssignOp::Sub),
            "*=" => Some(AssignOp::Mul),
            _ => None,
        };
        let e = if op == "?" {
            self.bump();
            let a = self.expr("a value after '?'")?;
            self.punct(":", "':' after the select's first value")?;
            let b = self.expr("a value after ':'")?;
            Expr::Select(Box::new(lhs), Box::new(a), Box::new(b))
        } else if let Some(aop) = assign {
            let Expr::Var(var) = lhs else {
                self.error(lhs_pos, format!("expected a local (%name) before '{op}'"));
                return Err(Reported);
            };
            self.bump();
            let value = self.expr(&format!("a value after '{op}'"))?;
            Expr::Assign {
                var,
                op: aop,
                value: Box::new(value),
            }
        } else if let Some(bop) = BinOp::ALL.iter().find(|b| b.symbol() == op) {
            self.bump();
            let rhs = self.expr(&format!("an operand after '{op}'"))?;
            Expr::binary(*bop, lhs, rhs)
        } else {
            return self.expected("an operator, '?' or an assignment after the operand");
        };
        self.punct(")", "')' to close the expression")?;
        Ok(e)
    }
}
