//! Parsing of attribute lists, calling conventions and linkage qualifiers.
//!
//! Covers LangRef "Parameter Attributes", "Function Attributes", "Attribute
//! Groups", "Calling Conventions", "Linkage Types", "Runtime Preemption
//! Specifiers", "Visibility Styles" and "DLL Storage Classes". Attribute
//! keywords are not checked against a list: an unknown word is kept as a
//! flag, and an argument in parentheses is kept as text, so attributes of
//! newer LLVM versions read. What ends a list depends on where it is
//! ([`AttrCtx`]).
#![deny(unsafe_code)]

use super::types::is_type_word;
use super::values::is_value_word;
use super::{PResult, Parser};
use crate::attrs::Attribute;
use crate::error::ErrorKind;
use crate::lexer::Tok;
use crate::module::{CallingConv, Linkage, Qualifiers};

/// Where an attribute list is, which decides what ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttrCtx {
    /// Before a return type: ends at a type or `addrspace`.
    Ret,
    /// After a parameter or argument type: ends at a name, a value or
    /// punctuation.
    Param,
    /// After a function header or a call's arguments: ends at the end of
    /// the line, at the header's trailing keywords, or at punctuation.
    Fn,
    /// Inside `attributes #N = { ... }`: ends at `}`.
    Group,
}

/// Keywords that follow a function header's attributes but are not
/// attributes themselves.
fn is_fn_trailing_word(w: &str) -> bool {
    matches!(
        w,
        "unnamed_addr"
            | "local_unnamed_addr"
            | "addrspace"
            | "section"
            | "partition"
            | "comdat"
            | "align"
            | "gc"
            | "prefix"
            | "prologue"
            | "personality"
    )
}

/// Whether a word is a calling convention keyword. The list is LLVM's; the
/// target prefixes keep conventions added later (`amdgpu_cs_chain`, ...)
/// out of the return attributes.
fn is_cc_word(w: &str) -> bool {
    if is_type_word(w) {
        return false;
    }
    matches!(
        w,
        "ccc"
            | "fastcc"
            | "coldcc"
            | "tailcc"
            | "swiftcc"
            | "swifttailcc"
            | "webkit_jscc"
            | "anyregcc"
            | "preserve_mostcc"
            | "preserve_allcc"
            | "preserve_nonecc"
            | "ghccc"
            | "cxx_fast_tlscc"
            | "cfguard_checkcc"
            | "intel_ocl_bicc"
            | "win64cc"
            | "hhvmcc"
            | "hhvm_ccc"
            | "graalcc"
            | "ptx_kernel"
            | "ptx_device"
            | "spir_kernel"
            | "spir_func"
            | "msp430_intrcc"
            | "avr_intrcc"
            | "avr_signalcc"
    ) || ["amdgpu_", "x86_", "arm_", "aarch64_", "riscv_", "m68k_"]
        .iter()
        .any(|p| w.starts_with(p))
}

impl Parser<'_> {
    /// Linkage, preemption, visibility and DLL storage, in any order.
    pub(crate) fn qualifiers(&mut self) -> Qualifiers {
        let mut q = Qualifiers::default();
        while let Some(w) = self.word() {
            if let Some(l) = Linkage::from_keyword(w) {
                q.linkage = Some(l);
            } else if matches!(w, "dso_local" | "dso_preemptable") {
                q.preemption = Some(w.to_string());
            } else if matches!(w, "default" | "hidden" | "protected") {
                q.visibility = Some(w.to_string());
            } else if matches!(w, "dllimport" | "dllexport") {
                q.dll_storage = Some(w.to_string());
            } else {
                break;
            }
            self.bump();
        }
        q
    }

    /// An optional calling convention: a keyword or `cc N`.
    pub(crate) fn calling_conv(&mut self) -> PResult<Option<CallingConv>> {
        let Some(w) = self.word() else {
            return Ok(None);
        };
        if w == "cc" && self.peek_at(1).kind == Tok::Int {
            self.bump();
            let n = self.expect_u32("a calling convention number")?;
            return Ok(Some(CallingConv(format!("cc {n}"))));
        }
        if is_cc_word(w) {
            self.bump();
            return Ok(Some(CallingConv(w.to_string())));
        }
        Ok(None)
    }

    pub(crate) fn parse_attrs(&mut self, ctx: AttrCtx) -> PResult<Vec<Attribute>> {
        let mut out = Vec::new();
        while let Some(a) = self.attr(ctx)? {
            out.push(a);
        }
        Ok(out)
    }

    fn attr(&mut self, ctx: AttrCtx) -> PResult<Option<Attribute>> {
        let t = self.peek();
        // Call-site and declaration attributes are printed on the line of
        // their call or declaration; a word on the next line starts the
        // next instruction or entity.
        if ctx == AttrCtx::Fn && t.line_start {
            return Ok(None);
        }
        match t.kind {
            Tok::AttrGroup if ctx != AttrCtx::Group => {
                self.bump();
                let id = self
                    .text(t)
                    .get(1..)
                    .unwrap_or("")
                    .parse::<u32>()
                    .map_err(|_| {
                        self.error_at(
                            t,
                            ErrorKind::IntegerOutOfRange,
                            "attribute group number is too large".into(),
                        )
                    })?;
                self.group_uses.push((id, Self::span(t)));
                Ok(Some(Attribute::Group(id)))
            }
            Tok::Str => {
                self.bump();
                let key = self.string_of(t);
                let value = if self.eat(Tok::Equal) {
                    Some(self.expect_string("a string attribute value")?)
                } else {
                    None
                };
                Ok(Some(Attribute::Str { key, value }))
            }
            Tok::Word => {
                let w = self.text(t);
                let stop = match ctx {
                    AttrCtx::Ret => is_type_word(w) || w == "addrspace",
                    AttrCtx::Param => is_type_word(w) || is_value_word(w),
                    AttrCtx::Fn => is_fn_trailing_word(w),
                    AttrCtx::Group => false,
                };
                if stop {
                    return Ok(None);
                }
                self.bump();
                let name = w.to_string();
                let next = self.peek();
                if w == "align" && next.kind == Tok::Int {
                    self.bump();
                    return Ok(Some(Attribute::Valued {
                        name,
                        value: self.text(next).to_string(),
                    }));
                }
                if next.kind == Tok::LParen {
                    let from = self.pos;
                    self.skip_group(None)?;
                    let text = self.text_from(from);
                    let inner = text
                        .strip_prefix('(')
                        .and_then(|s| s.strip_suffix(')'))
                        .unwrap_or(&text);
                    return Ok(Some(Attribute::Valued {
                        name,
                        value: inner.trim().to_string(),
                    }));
                }
                if ctx == AttrCtx::Group && next.kind == Tok::Equal {
                    self.bump();
                    let v = self.peek();
                    if !matches!(v.kind, Tok::Int | Tok::Word | Tok::Str) {
                        return Err(self.expected(&format!("a value for attribute '{w}'")));
                    }
                    self.bump();
                    let value = if v.kind == Tok::Str {
                        self.string_of(v)
                    } else {
                        self.text(v).to_string()
                    };
                    return Ok(Some(Attribute::Valued { name, value }));
                }
                Ok(Some(Attribute::Flag(name)))
            }
            _ => Ok(None),
        }
    }
}
