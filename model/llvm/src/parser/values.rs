//! Parsing of operands, constants and metadata operands.
//!
//! Covers LangRef "Constants" (simple constants, `undef`, `poison`,
//! `zeroinitializer`, aggregates, `c"..."`), "Constant Expressions" and the
//! address constants `blockaddress`, `dso_local_equivalent`, `no_cfi`
//! (kept generically), "Inline Assembler Expressions" as callees, and
//! "Metadata" operands and attachments, which are skipped structurally and
//! kept as text.
#![deny(unsafe_code)]

use super::body::UseKind;
use super::{PResult, Parser};
use crate::error::ErrorKind;
use crate::lexer::{Tok, Token};
use crate::types::Type;
use crate::value::{ConstExpr, Name, TypedValue, Value};

/// The smallest integer constant accepted: `-2^63`.
pub(crate) const INT_MIN: i128 = i64::MIN as i128;
/// The largest integer constant accepted: `2^64 - 1`.
pub(crate) const INT_MAX: i128 = u64::MAX as i128;

/// Words that start a value, so they end a parameter-attribute list.
pub(crate) fn is_value_word(w: &str) -> bool {
    matches!(
        w,
        "true"
            | "false"
            | "null"
            | "undef"
            | "poison"
            | "zeroinitializer"
            | "none"
            | "asm"
            | "blockaddress"
            | "dso_local_equivalent"
            | "no_cfi"
            | "ptrauth"
            | "splat"
    ) || super::inst::is_opcode(w)
}

impl Parser<'_> {
    pub(crate) fn parse_typed_value(&mut self) -> PResult<TypedValue> {
        let ty = self.parse_type()?;
        let value = self.parse_value(&ty)?;
        Ok(TypedValue { ty, value })
    }

    /// A value of type `ty` (the type only matters for `metadata`).
    pub(crate) fn parse_value(&mut self, ty: &Type) -> PResult<Value> {
        if matches!(ty, Type::Metadata) {
            return self.metadata_operand();
        }
        let t = self.peek();
        let v = match t.kind {
            Tok::Local => {
                self.bump();
                let n = self.name_of(t)?;
                self.use_local(n.clone(), t, UseKind::Value)?;
                Value::Local(n)
            }
            Tok::Global => {
                self.bump();
                let n = self.name_of(t)?;
                self.use_global(n.clone(), Self::span(t));
                Value::Global(n)
            }
            Tok::Int => {
                self.bump();
                Value::Int(self.int_of(t)?)
            }
            Tok::Float => {
                self.bump();
                Value::Float(self.text(t).to_string())
            }
            Tok::CStr => {
                self.bump();
                Value::Aggregate {
                    text: self.text(t).to_string(),
                    globals: Vec::new(),
                }
            }
            Tok::LBracket | Tok::LBrace | Tok::Less => {
                let from = self.pos;
                let globals = self.group_with_globals()?;
                Value::Aggregate {
                    text: self.text_from(from),
                    globals,
                }
            }
            Tok::Word => return self.word_value(t),
            _ => return Err(self.expected("a value")),
        };
        Ok(v)
    }

    fn word_value(&mut self, t: Token) -> PResult<Value> {
        let w = self.text(t);
        let simple = match w {
            "true" => Some(Value::Int(1)),
            "false" => Some(Value::Int(0)),
            "null" => Some(Value::Null),
            "undef" => Some(Value::Undef),
            "poison" => Some(Value::Poison),
            "zeroinitializer" => Some(Value::ZeroInitializer),
            "none" => Some(Value::None),
            _ => None,
        };
        if let Some(v) = simple {
            self.bump();
            return Ok(v);
        }
        let from = self.pos;
        self.bump();
        match w {
            "asm" => {
                while self.word().is_some() {
                    self.bump();
                }
                self.expect(Tok::Str, "the inline assembly string")?;
                self.expect(Tok::Comma, "',' after the inline assembly string")?;
                self.expect(Tok::Str, "the inline assembly constraints")?;
                Ok(Value::InlineAsm(self.text_from(from)))
            }
            "dso_local_equivalent" | "no_cfi" => {
                let g = self.expect(Tok::Global, &format!("a global after '{w}'"))?;
                let n = self.name_of(g)?;
                self.use_global(n.clone(), Self::span(g));
                Ok(Value::ConstExpr(ConstExpr::new(
                    w.to_string(),
                    self.text_from(from),
                    vec![n],
                )))
            }
            _ => {
                // A constant expression: the opcode, flag or predicate words
                // (and `inrange(a, b)`), then its parenthesised operands.
                loop {
                    if self.at(Tok::LParen) {
                        break;
                    }
                    if self.at_word("inrange") && self.peek_at(1).kind == Tok::LParen {
                        self.bump();
                        self.skip_group(None)?;
                    } else if self.word().is_some() && !self.peek().line_start {
                        self.bump();
                    } else {
                        let found = self.describe(t);
                        return Err(self.error_at(
                            t,
                            ErrorKind::Syntax,
                            format!("expected a value, found {found}"),
                        ));
                    }
                }
                let globals = self.group_with_globals()?;
                Ok(Value::ConstExpr(ConstExpr::new(
                    w.to_string(),
                    self.text_from(from),
                    globals,
                )))
            }
        }
    }

    /// Skips a bracketed constant, recording (and returning) the globals in it.
    fn group_with_globals(&mut self) -> PResult<Vec<Name>> {
        let mut found = Vec::new();
        self.skip_group(Some(&mut found))?;
        let mut names = Vec::with_capacity(found.len());
        for (n, at) in found {
            self.use_global(n.clone(), at);
            names.push(n);
        }
        Ok(names)
    }

    /// An integer literal token as a value in `-2^63 ..= 2^64-1`.
    pub(crate) fn int_of(&self, t: Token) -> PResult<i128> {
        let s = self.text(t);
        let parsed = if let Some(h) = s.strip_prefix("u0x") {
            u128::from_str_radix(h, 16)
                .ok()
                .and_then(|v| i128::try_from(v).ok())
        } else if let Some(h) = s.strip_prefix("s0x") {
            // LLVM reads s0x... as a two's-complement number as wide as
            // its digits.
            let bits = 4 * h.len() as u32;
            u128::from_str_radix(h, 16).ok().and_then(|v| {
                if bits == 0 || bits > 128 {
                    None
                } else if bits < 128 && v >> (bits - 1) == 1 {
                    i128::try_from(v).ok().map(|v| v - (1i128 << bits))
                } else {
                    i128::try_from(v).ok()
                }
            })
        } else {
            s.parse::<i128>().ok()
        };
        match parsed {
            Some(v) if (INT_MIN..=INT_MAX).contains(&v) => Ok(v),
            _ => {
                let shown: String = s.chars().take(40).collect();
                Err(self.error_at(
                    t,
                    ErrorKind::IntegerOutOfRange,
                    format!(
                        "integer constant '{shown}' is out of range: convcheck reads integers from -2^63 to 2^64-1"
                    ),
                ))
            }
        }
    }

    /// An integer literal, `true` or `false` (switch cases).
    pub(crate) fn int_literal(&mut self, what: &str) -> PResult<i128> {
        let t = self.peek();
        let v = match t.kind {
            Tok::Int => self.int_of(t)?,
            Tok::Word if self.text(t) == "true" => 1,
            Tok::Word if self.text(t) == "false" => 0,
            _ => return Err(self.expected(what)),
        };
        self.bump();
        Ok(v)
    }

    /// The operand of type `metadata`: metadata, or a typed value wrapped as
    /// metadata (`metadata i32 %x`).
    fn metadata_operand(&mut self) -> PResult<Value> {
        let from = self.pos;
        if self.at(Tok::Meta) || self.at(Tok::Exclaim) || self.at_word("distinct") {
            self.skip_metadata()?;
        } else {
            // `metadata i32 %x`; a second `metadata` here would recurse
            // without bound on `metadata metadata metadata ...`.
            let ty = self.parse_type()?;
            if matches!(ty, Type::Metadata) {
                return Err(self.expected("metadata or a typed value after 'metadata'"));
            }
            self.parse_value(&ty)?;
        }
        Ok(Value::Metadata(self.text_from(from)))
    }

    /// Skips one metadata value: `!N`, `!name`, `!{...}`, `!"..."`,
    /// `!DIThing(...)`, optionally after `distinct`.
    pub(crate) fn skip_metadata(&mut self) -> PResult<()> {
        self.eat_word("distinct");
        match self.peek().kind {
            Tok::Meta => {
                self.bump();
                if self.at(Tok::LParen) {
                    self.skip_group(None)?;
                }
                Ok(())
            }
            Tok::Exclaim => {
                self.bump();
                match self.peek().kind {
                    Tok::LBrace => self.skip_group(None),
                    Tok::Str => {
                        self.bump();
                        Ok(())
                    }
                    _ => Err(self.expected("'{' or a string after '!'")),
                }
            }
            _ => Err(self.expected("metadata")),
        }
    }

    /// Metadata attachments `, !name <metadata>` after an instruction.
    pub(crate) fn attachments(&mut self) -> PResult<Vec<crate::inst::MetadataAttachment>> {
        let mut out = Vec::new();
        while self.at(Tok::Comma) && self.peek_at(1).kind == Tok::Meta {
            self.bump();
            out.push(self.attachment()?);
        }
        Ok(out)
    }

    /// One `!name <metadata>` attachment.
    pub(crate) fn attachment(&mut self) -> PResult<crate::inst::MetadataAttachment> {
        let t = self.expect(Tok::Meta, "a metadata attachment '!name'")?;
        let name = self.text(t).get(1..).unwrap_or("").to_string();
        let from = self.pos;
        self.skip_metadata()?;
        Ok(crate::inst::MetadataAttachment {
            name,
            text: self.text_from(from),
        })
    }
}

/// A constant expression read: its opcode, its text, the globals in it and
/// its operands (read by [`super::constexpr`]).
trait Read {
    fn new(opcode: String, text: String, globals: Vec<Name>) -> Self;
}

impl Read for ConstExpr {
    fn new(opcode: String, text: String, globals: Vec<Name>) -> ConstExpr {
        let op = super::constexpr::parse(&text).map(Box::new);
        ConstExpr {
            opcode,
            text,
            globals,
            op,
        }
    }
}
