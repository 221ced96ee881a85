//! Parsing of `call` (LangRef "'call' Instruction").
//!
//! `[tail|musttail|notail] call [fast-math flags] [cconv] [ret attrs]
//! [addrspace(N)] <ty>|<fnty> <callee>(<args>) [fn attrs] [operand bundles]`.
//! The callee is any value: a global for a direct call, a local or a
//! constant expression for an indirect one, or inline assembly. Operand
//! bundles such as `[ "convergencectrl"(token %t) ]` keep their typed
//! inputs.
#![deny(unsafe_code)]

use super::attrs::AttrCtx;
use super::inst::FAST_MATH;
use super::{PResult, Parser};
use crate::inst::{Arg, Call, OperandBundle, TailKind};
use crate::lexer::Tok;
use crate::types::Type;

impl Parser<'_> {
    /// The rest of a call after the `call` keyword.
    pub(crate) fn call(&mut self, tail: TailKind) -> PResult<Call> {
        let mut fast_math = Vec::new();
        while let Some(w) = self.word() {
            if !FAST_MATH.contains(&w) {
                break;
            }
            fast_math.push(w.to_string());
            self.bump();
        }
        let calling_conv = self.calling_conv()?;
        let ret_attrs = self.parse_attrs(AttrCtx::Ret)?;
        let addrspace = if self.eat_word("addrspace") {
            Some(self.addrspace_arg()?)
        } else {
            None
        };
        let ty = self.parse_type()?;
        let (ret_ty, fn_ty) = match &ty {
            Type::Function { ret, .. } => ((**ret).clone(), Some(ty)),
            _ => (ty, None),
        };
        let callee = self.parse_value(&Type::Ptr {
            addrspace: addrspace.unwrap_or(0),
        })?;
        self.expect(Tok::LParen, "'(' to start the call arguments")?;
        let mut args = Vec::new();
        if !self.eat(Tok::RParen) {
            loop {
                // `musttail` calls of varargs functions forward `...`.
                if self.eat(Tok::Ellipsis) {
                    self.expect(Tok::RParen, "')' after '...'")?;
                    break;
                }
                let ty = self.parse_type()?;
                let attrs = self.parse_attrs(AttrCtx::Param)?;
                let value = self.parse_value(&ty)?;
                args.push(Arg { ty, attrs, value });
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma, "',' or ')' in the call arguments")?;
            }
        }
        let fn_attrs = self.parse_attrs(AttrCtx::Fn)?;
        let mut bundles = Vec::new();
        if self.at(Tok::LBracket) && !self.peek().line_start {
            self.bump();
            loop {
                let tag = self.expect_string("an operand bundle tag string")?;
                self.expect(Tok::LParen, "'(' after the operand bundle tag")?;
                let mut inputs = Vec::new();
                if !self.eat(Tok::RParen) {
                    loop {
                        inputs.push(self.parse_typed_value()?);
                        if self.eat(Tok::RParen) {
                            break;
                        }
                        self.expect(Tok::Comma, "',' or ')' in the operand bundle")?;
                    }
                }
                bundles.push(OperandBundle { tag, inputs });
                if self.eat(Tok::RBracket) {
                    break;
                }
                self.expect(Tok::Comma, "',' or ']' after an operand bundle")?;
            }
        }
        Ok(Call {
            tail,
            fast_math,
            calling_conv,
            ret_attrs,
            addrspace,
            ret_ty,
            fn_ty,
            callee,
            args,
            fn_attrs,
            bundles,
        })
    }
}
