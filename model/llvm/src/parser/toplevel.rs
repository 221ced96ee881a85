//! Parsing of top-level entities (LangRef "Module Structure").
//!
//! `source_filename`, `target datalayout`/`triple`, identified types,
//! global variables, `declare`/`define` headers (the bodies are in
//! [`super::body`]), attribute groups, and metadata definitions, which are
//! skipped up to the next top-level entity and kept as text so that no
//! metadata syntax, however new, is an error. Aliases, ifuncs, comdats,
//! `module asm`, `uselistorder` and summary entries are kept as text.
#![deny(unsafe_code)]

use super::attrs::AttrCtx;
use super::body::DefKind;
use super::{PResult, Parser};
use crate::attrs::AttrGroup;
use crate::error::ErrorKind;
use crate::lexer::Tok;
use crate::module::{
    Function, GlobalVar, Linkage, MetadataDef, OtherEntity, OtherKind, Param, TypeDef,
};
use crate::value::Name;

impl Parser<'_> {
    pub(crate) fn toplevel_entity(&mut self) -> PResult<()> {
        let t = self.peek();
        let followed_by_eq = self.peek_at(1).kind == Tok::Equal;
        match t.kind {
            Tok::Word => match self.text(t) {
                "source_filename" => {
                    self.bump();
                    self.expect(Tok::Equal, "'=' after 'source_filename'")?;
                    self.module.source_filename =
                        Some(self.expect_string("the source file name string")?);
                    Ok(())
                }
                "target" => {
                    self.bump();
                    let which = self.word();
                    if !matches!(which, Some("datalayout" | "triple")) {
                        return Err(self.expected("'datalayout' or 'triple' after 'target'"));
                    }
                    self.bump();
                    self.expect(Tok::Equal, "'='")?;
                    let s = Some(self.expect_string("a string")?);
                    if which == Some("datalayout") {
                        self.module.datalayout = s;
                    } else {
                        self.module.triple = s;
                    }
                    Ok(())
                }
                "define" => self.function(true),
                "declare" => self.function(false),
                "attributes" => self.attr_group(),
                "module" => {
                    let from = self.pos;
                    self.bump();
                    self.expect_word("asm")?;
                    self.expect(Tok::Str, "the module asm string")?;
                    self.push_other(OtherKind::ModuleAsm, None, from, t.line);
                    Ok(())
                }
                "uselistorder" | "uselistorder_bb" => {
                    self.other_to_next_entity(OtherKind::UseListOrder, None)
                }
                "deplibs" => self.other_to_next_entity(OtherKind::DepLibs, None),
                _ => Err(self.expected(
                    "a top-level entity (define, declare, a global, attributes, metadata, ...)",
                )),
            },
            Tok::Global if followed_by_eq => self.global(),
            Tok::Local if followed_by_eq => self.type_def(),
            Tok::Comdat if followed_by_eq => {
                let n = self.name_of(t)?;
                self.other_to_next_entity(OtherKind::Comdat, Some(n))
            }
            Tok::Summary if followed_by_eq => self.other_to_next_entity(OtherKind::Summary, None),
            Tok::Meta if followed_by_eq => {
                self.bump();
                self.bump();
                let from = self.pos;
                self.skip_to_next_entity();
                let name = self.text(t).get(1..).unwrap_or("").to_string();
                let text = self.text_from(from);
                self.module.metadata.push(MetadataDef {
                    name,
                    text,
                    line: t.line,
                });
                Ok(())
            }
            _ => Err(self.expected(
                "a top-level entity (define, declare, a global, attributes, metadata, ...)",
            )),
        }
    }

    /// Advances to the next token that starts a top-level entity on its own
    /// line, recording the globals passed over.
    fn skip_to_next_entity(&mut self) {
        while !self.at(Tok::Eof) {
            let t = self.peek();
            if t.line_start && self.starts_toplevel() {
                return;
            }
            self.bump();
        }
    }

    /// Keeps an entity the mapping does not need as text: from token `from`
    /// (inclusive) to the next top-level entity, recording the globals it
    /// mentions as uses.
    fn other_to_next_entity(&mut self, kind: OtherKind, name: Option<Name>) -> PResult<()> {
        let from = self.pos;
        self.other_from(kind, name, from)
    }

    fn other_from(&mut self, kind: OtherKind, name: Option<Name>, from: usize) -> PResult<()> {
        let line = self.toks.get(from).map_or(0, |t| t.line);
        if self.pos == from {
            self.bump();
        }
        while !self.at(Tok::Eof) {
            let u = self.peek();
            if u.line_start && self.starts_toplevel() {
                break;
            }
            if u.kind == Tok::Global && kind != OtherKind::Summary {
                let n = self.name_of(u)?;
                self.use_global(n, Self::span(u));
            }
            self.bump();
        }
        self.push_other(kind, name, from, line);
        Ok(())
    }

    fn push_other(&mut self, kind: OtherKind, name: Option<Name>, from: usize, line: u32) {
        let text = self.text_from(from);
        self.module.others.push(OtherEntity {
            kind,
            name,
            text,
            line,
        });
    }

    fn type_def(&mut self) -> PResult<()> {
        let t = self.bump();
        let name = self.name_of(t)?;
        self.bump();
        self.expect_word("type")?;
        let from = self.pos;
        let ty = if self.eat_word("opaque") {
            None
        } else {
            Some(self.parse_type()?)
        };
        let text = self.text_from(from);
        self.module.types.push(TypeDef {
            name,
            ty,
            text,
            line: t.line,
        });
        Ok(())
    }

    fn global(&mut self) -> PResult<()> {
        let start = self.pos;
        let t = self.bump();
        let name = self.name_of(t)?;
        self.bump();
        let qualifiers = self.qualifiers();
        let thread_local = if self.at_word("thread_local") {
            let f = self.pos;
            self.bump();
            if self.at(Tok::LParen) {
                self.skip_group(None)?;
            }
            Some(self.text_from(f))
        } else {
            None
        };
        let unnamed_addr = match self.word() {
            Some(w @ ("unnamed_addr" | "local_unnamed_addr")) => {
                self.bump();
                Some(w.to_string())
            }
            _ => None,
        };
        let addrspace = if self.eat_word("addrspace") {
            self.addrspace_arg()?
        } else {
            0
        };
        let externally_initialized = self.eat_word("externally_initialized");
        let is_constant = match self.word() {
            Some("global") => false,
            Some("constant") => true,
            Some(w @ ("alias" | "ifunc")) => {
                let kind = if w == "alias" {
                    OtherKind::Alias
                } else {
                    OtherKind::IFunc
                };
                self.define_global(&name, t)?;
                return self.other_from(kind, Some(name), start);
            }
            _ => return Err(self.expected("'global', 'constant', 'alias' or 'ifunc'")),
        };
        self.bump();
        self.define_global(&name, t)?;
        let ty = self.parse_type()?;
        // LLVM reads an initializer unless the linkage is written and is one
        // that declares (external, extern_weak).
        let declares = matches!(
            qualifiers.linkage,
            Some(Linkage::External | Linkage::ExternWeak)
        );
        let initializer = if declares {
            None
        } else {
            Some(self.parse_value(&ty)?)
        };
        let mut g = GlobalVar {
            name,
            qualifiers,
            thread_local,
            unnamed_addr,
            addrspace,
            externally_initialized,
            is_constant,
            ty,
            initializer,
            align: None,
            extra: Vec::new(),
            metadata: Vec::new(),
            attrs: Vec::new(),
            span: Self::span(t),
        };
        while self.eat(Tok::Comma) {
            if self.at(Tok::Meta) {
                g.metadata.push(self.attachment()?);
                continue;
            }
            let f = self.pos;
            match self.word() {
                Some("align") => {
                    self.bump();
                    g.align = Some(self.expect_u64("an alignment")?);
                    continue;
                }
                Some("section" | "partition" | "code_model") => {
                    self.bump();
                    self.expect(Tok::Str, "a string")?;
                }
                Some("comdat") => {
                    self.bump();
                    if self.at(Tok::LParen) {
                        self.skip_group(None)?;
                    }
                }
                Some(_) => {
                    self.bump();
                }
                None => return Err(self.expected("a global variable property or metadata")),
            }
            g.extra.push(self.text_from(f));
        }
        g.attrs = self.parse_attrs(AttrCtx::Fn)?;
        self.module.globals.push(g);
        Ok(())
    }

    fn function(&mut self, is_definition: bool) -> PResult<()> {
        self.begin_function();
        let r = self.function_inner(is_definition);
        self.end_function();
        r
    }

    fn function_inner(&mut self, is_definition: bool) -> PResult<()> {
        let kw = self.bump();
        // `declare !dbg !36 void @f()`: a declaration's attachments come
        // right after the keyword.
        let mut early_metadata = Vec::new();
        while self.at(Tok::Meta) && self.peek_at(1).kind != Tok::Equal {
            early_metadata.push(self.attachment()?);
        }
        let qualifiers = self.qualifiers();
        let calling_conv = self.calling_conv()?;
        let ret_attrs = self.parse_attrs(AttrCtx::Ret)?;
        let ret_ty = self.parse_type()?;
        let nt = self.expect(Tok::Global, "a function name '@name'")?;
        let name = self.name_of(nt)?;
        self.define_global(&name, nt)?;
        self.expect(Tok::LParen, "'(' to start the parameter list")?;
        let mut params = Vec::new();
        let mut varargs = false;
        if !self.eat(Tok::RParen) {
            loop {
                if self.eat(Tok::Ellipsis) {
                    varargs = true;
                    self.expect(Tok::RParen, "')' after '...'")?;
                    break;
                }
                let pt = self.peek();
                let ty = self.parse_type()?;
                let attrs = self.parse_attrs(AttrCtx::Param)?;
                let written = if self.at(Tok::Local) {
                    let n = self.bump();
                    Some(self.name_of(n)?)
                } else {
                    None
                };
                let name = self.define_local(written, pt, DefKind::Value, "argument")?;
                params.push(Param {
                    ty,
                    attrs,
                    name,
                    span: Self::span(pt),
                });
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma, "',' or ')' in the parameter list")?;
            }
        }
        let mut f = Function {
            name,
            is_definition,
            qualifiers,
            calling_conv,
            ret_attrs,
            ret_ty,
            params,
            varargs,
            unnamed_addr: None,
            addrspace: None,
            attrs: Vec::new(),
            extra: Vec::new(),
            metadata: early_metadata,
            blocks: Vec::new(),
            span: Self::span(kw),
        };
        self.fn_trailer(&mut f)?;
        if is_definition {
            let open = self.expect(Tok::LBrace, "'{' to start the function body")?;
            f.blocks = self.function_body(open)?;
            if self.fs.gaps {
                super::renumber::dense(&mut f);
            }
        }
        let index = self.module.functions.len();
        self.module.fn_index.insert(f.name.clone(), index);
        self.module.functions.push(f);
        Ok(())
    }

    /// Everything between a header's `)` and its body (or line end).
    fn fn_trailer(&mut self, f: &mut Function) -> PResult<()> {
        loop {
            let t = self.peek();
            if t.line_start && !f.is_definition {
                return Ok(());
            }
            let from = self.pos;
            match (t.kind, self.word()) {
                (Tok::LBrace, _) | (Tok::Eof, _) => return Ok(()),
                (_, Some(w @ ("unnamed_addr" | "local_unnamed_addr"))) => {
                    self.bump();
                    f.unnamed_addr = Some(w.to_string());
                }
                (_, Some("addrspace")) => {
                    self.bump();
                    f.addrspace = Some(self.addrspace_arg()?);
                }
                (_, Some("section" | "partition" | "gc")) => {
                    self.bump();
                    self.expect(Tok::Str, "a string")?;
                    f.extra.push(self.text_from(from));
                }
                (_, Some("comdat")) => {
                    self.bump();
                    if self.at(Tok::LParen) {
                        self.skip_group(None)?;
                    }
                    f.extra.push(self.text_from(from));
                }
                (_, Some("align")) => {
                    self.bump();
                    self.expect_u64("an alignment")?;
                    f.extra.push(self.text_from(from));
                }
                (_, Some("prefix" | "prologue" | "personality")) => {
                    self.bump();
                    self.parse_typed_value()?;
                    f.extra.push(self.text_from(from));
                }
                (Tok::Meta, _) if self.peek_at(1).kind != Tok::Equal => {
                    let a = self.attachment()?;
                    f.metadata.push(a);
                }
                _ => {
                    let attrs = self.parse_attrs(AttrCtx::Fn)?;
                    if attrs.is_empty() {
                        if f.is_definition {
                            return Err(self.expected("'{' to start the function body"));
                        }
                        return Err(
                            self.expected("a function attribute or the end of the declaration")
                        );
                    }
                    f.attrs.extend(attrs);
                }
            }
        }
    }

    fn attr_group(&mut self) -> PResult<()> {
        let kw = self.bump();
        let t = self.expect(Tok::AttrGroup, "an attribute group '#N'")?;
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
        self.expect(Tok::Equal, "'=' after the attribute group number")?;
        self.expect(Tok::LBrace, "'{' to start the attribute group")?;
        let attrs = self.parse_attrs(AttrCtx::Group)?;
        self.expect(
            Tok::RBrace,
            "an attribute or '}' to end the attribute group",
        )?;
        if let Some(prev) = self.module.attr_groups.get(&id) {
            return Err(self.error_at(
                t,
                ErrorKind::Redefinition,
                format!(
                    "redefinition of attribute group #{id} (first defined on line {})",
                    prev.line
                ),
            ));
        }
        self.module.attr_groups.insert(
            id,
            AttrGroup {
                id,
                attrs,
                line: kw.line,
            },
        );
        Ok(())
    }
}
