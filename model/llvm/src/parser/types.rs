//! Parsing of types (LangRef "Type System").
//!
//! Reads every type [`crate::Type`] represents, the suffixes LLVM's own
//! `parseType` accepts (a parameter list making a function type, and the
//! legacy typed-pointer `*` / `addrspace(N)*`), and bounds nesting by
//! [`crate::MAX_NESTING`] with a dedicated error.
#![deny(unsafe_code)]

use super::{PResult, Parser};
use crate::error::ErrorKind;
use crate::lexer::Tok;
use crate::types::{FloatKind, Type};

/// The largest integer width LLVM accepts (`IntegerType::MAX_INT_BITS`).
const MAX_INT_BITS: u32 = (1 << 23) - 1;

/// Whether a word is a type keyword (so it ends an attribute list).
pub(crate) fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "void"
            | "ptr"
            | "label"
            | "token"
            | "metadata"
            | "x86_amx"
            | "x86_mmx"
            | "target"
            | "opaque"
    ) || FloatKind::from_keyword(w).is_some()
        || int_width(w).is_some()
}

/// The width of `iN`, without checking its range.
fn int_width(w: &str) -> Option<&str> {
    let digits = w.strip_prefix('i')?;
    (!digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())).then_some(digits)
}

impl Parser<'_> {
    pub(crate) fn parse_type(&mut self) -> PResult<Type> {
        self.parse_type_at(0)
    }

    // The recursion goes parse_type_at -> one small helper per aggregate
    // kind -> parse_type_at. Keeping each frame small matters in debug
    // builds: 127 nested structs took between 768 KiB and 1 MiB of stack
    // when everything was one function, and between 384 and 512 KiB after
    // this split; release builds need under 128 KiB (measured with
    // tests/robustness.rs, deep_nesting_on_a_small_stack).
    pub(crate) fn parse_type_at(&mut self, depth: usize) -> PResult<Type> {
        if depth >= crate::MAX_NESTING {
            return Err(self.too_deep());
        }
        let t = self.peek();
        let ty = match t.kind {
            Tok::Word => self.keyword_type()?,
            Tok::LBrace => self.struct_type(false, depth)?,
            Tok::Less if self.peek_at(1).kind == Tok::LBrace => self.struct_type(true, depth)?,
            Tok::Less => self.vector_type(depth)?,
            Tok::LBracket => self.array_type(depth)?,
            Tok::Local => {
                self.bump();
                Type::Named(self.name_of(t)?)
            }
            _ => return Err(self.expected("a type")),
        };
        self.type_suffixes(ty, depth)
    }

    #[inline(never)]
    fn struct_type(&mut self, packed: bool, depth: usize) -> PResult<Type> {
        if packed {
            self.bump();
        }
        self.bump();
        let fields = self.type_list(Tok::RBrace, depth)?;
        if packed {
            self.expect(Tok::Greater, "'>' after a packed struct")?;
        }
        Ok(Type::Struct { packed, fields })
    }

    #[inline(never)]
    fn vector_type(&mut self, depth: usize) -> PResult<Type> {
        self.bump();
        let scalable = self.eat_word("vscale");
        if scalable {
            self.expect_word("x")?;
        }
        let len = self.expect_u64("a vector length")?;
        self.expect_word("x")?;
        let elem = Box::new(self.parse_type_at(depth + 1)?);
        self.expect(Tok::Greater, "'>' after a vector type")?;
        Ok(Type::Vector {
            scalable,
            len,
            elem,
        })
    }

    #[inline(never)]
    fn array_type(&mut self, depth: usize) -> PResult<Type> {
        self.bump();
        let len = self.expect_u64("an array length")?;
        self.expect_word("x")?;
        let elem = Box::new(self.parse_type_at(depth + 1)?);
        self.expect(Tok::RBracket, "']' after an array type")?;
        Ok(Type::Array { len, elem })
    }

    #[inline(never)]
    fn type_suffixes(&mut self, mut ty: Type, depth: usize) -> PResult<Type> {
        // Suffixes, as in LLVM's parseType: a function type's parameter
        // list, and the typed pointers of LLVM 16 and older.
        loop {
            match self.peek().kind {
                Tok::LParen => {
                    self.bump();
                    let (params, varargs) = self.fn_type_params(depth)?;
                    ty = Type::Function {
                        ret: Box::new(ty),
                        params,
                        varargs,
                    };
                }
                Tok::Star => {
                    self.bump();
                    ty = Type::Ptr { addrspace: 0 };
                }
                Tok::Word
                    if self.at_word("addrspace")
                        && self.peek_at(1).kind == Tok::LParen
                        && self.peek_at(3).kind == Tok::RParen
                        && self.peek_at(4).kind == Tok::Star =>
                {
                    self.bump();
                    let addrspace = self.addrspace_arg()?;
                    self.bump();
                    ty = Type::Ptr { addrspace };
                }
                _ => return Ok(ty),
            }
        }
    }

    #[inline(never)]
    fn keyword_type(&mut self) -> PResult<Type> {
        let t = self.peek();
        let w = self.text(t);
        let ty = match w {
            "void" => Type::Void,
            "label" => Type::Label,
            "token" => Type::Token,
            "metadata" => Type::Metadata,
            "x86_amx" => Type::X86Amx,
            "x86_mmx" => Type::X86Mmx,
            "ptr" => {
                self.bump();
                let addrspace = if self.at_word("addrspace") && self.peek_at(1).kind == Tok::LParen
                {
                    self.bump();
                    self.addrspace_arg()?
                } else {
                    0
                };
                return Ok(Type::Ptr { addrspace });
            }
            "target" => {
                let from = self.pos;
                self.bump();
                if !self.at(Tok::LParen) {
                    return Err(self.expected("'(' after 'target'"));
                }
                self.skip_group(None)?;
                return Ok(Type::TargetExt(self.text_from(from)));
            }
            _ => {
                if let Some(k) = FloatKind::from_keyword(w) {
                    Type::Float(k)
                } else if let Some(digits) = int_width(w) {
                    match digits.parse::<u32>() {
                        Ok(n) if (1..=MAX_INT_BITS).contains(&n) => Type::Int(n),
                        _ => {
                            return Err(self.error_at(
                                t,
                                ErrorKind::IntegerOutOfRange,
                                format!(
                                    "integer type '{w}' has a width outside 1..={MAX_INT_BITS}"
                                ),
                            ))
                        }
                    }
                } else {
                    return Err(self.expected("a type"));
                }
            }
        };
        self.bump();
        Ok(ty)
    }

    /// `T, T, ... CLOSE` after the opener (possibly empty).
    #[inline(never)]
    fn type_list(&mut self, close: Tok, depth: usize) -> PResult<Vec<Type>> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.parse_type_at(depth + 1)?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(Tok::Comma, "',' or the end of the type list")?;
        }
    }

    /// `(T, T, ...)` of a function type, after the `(`.
    fn fn_type_params(&mut self, depth: usize) -> PResult<(Vec<Type>, bool)> {
        let mut params = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok((params, false));
        }
        loop {
            if self.eat(Tok::Ellipsis) {
                self.expect(Tok::RParen, "')' after '...'")?;
                return Ok((params, true));
            }
            params.push(self.parse_type_at(depth + 1)?);
            if self.eat(Tok::RParen) {
                return Ok((params, false));
            }
            self.expect(Tok::Comma, "',' or ')' in a function type")?;
        }
    }
}
