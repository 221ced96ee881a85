//! Parsing of instructions (LangRef "Instruction Reference").
//!
//! The modelled forms (see [`crate::inst`]) are read field by field; `call`
//! is in [`super::call`]. Any other opcode, including words this parser has
//! never heard of, becomes a [`Generic`] instruction whose operands run to
//! the end of the statement: the first token, outside brackets, that starts
//! a line and starts a statement (a result `%x =`, a label, a debug record,
//! an opcode, or the closing `}`), or a `, !name` metadata attachment. That
//! rule keeps the continuation lines LLVM prints for `invoke` (`to label
//! ... unwind label ...`) and `landingpad` (`cleanup`, `catch ...`) inside
//! their instruction.
#![deny(unsafe_code)]

use super::body::{DefKind, UseKind};
use super::types::is_type_word;
use super::{PResult, Parser};
use crate::error::ErrorKind;
use crate::inst::{
    Alloca, Atomic, BinOp, Binary, Cast, CastOp, Generic, GetElementPtr, ICmp, InstKind,
    Instruction, IntPredicate, Load, Ordering, Phi, Select, Store, Switch, SwitchCase, TailKind,
};
use crate::lexer::Tok;

/// Every opcode of LLVM 19 and the call markers: the words that start an
/// instruction (used to find where a generic instruction ends).
const OPCODES: &[&str] = &[
    "ret",
    "br",
    "switch",
    "indirectbr",
    "invoke",
    "resume",
    "unreachable",
    "cleanupret",
    "catchret",
    "catchswitch",
    "callbr",
    "fneg",
    "add",
    "fadd",
    "sub",
    "fsub",
    "mul",
    "fmul",
    "udiv",
    "sdiv",
    "fdiv",
    "urem",
    "srem",
    "frem",
    "shl",
    "lshr",
    "ashr",
    "and",
    "or",
    "xor",
    "extractelement",
    "insertelement",
    "shufflevector",
    "extractvalue",
    "insertvalue",
    "alloca",
    "load",
    "store",
    "fence",
    "cmpxchg",
    "atomicrmw",
    "getelementptr",
    "trunc",
    "zext",
    "sext",
    "fptrunc",
    "fpext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "ptrtoint",
    "ptrtoaddr",
    "inttoptr",
    "bitcast",
    "addrspacecast",
    "icmp",
    "fcmp",
    "phi",
    "select",
    "freeze",
    "call",
    "tail",
    "musttail",
    "notail",
    "va_arg",
    "landingpad",
    "catchpad",
    "cleanuppad",
];

/// Generic opcodes that always produce a value, so an unnamed one takes a
/// number.
const VALUE_OPCODES: &[&str] = &[
    "fneg",
    "fadd",
    "fsub",
    "fmul",
    "fdiv",
    "frem",
    "extractelement",
    "insertelement",
    "shufflevector",
    "extractvalue",
    "insertvalue",
    "cmpxchg",
    "atomicrmw",
    "fptrunc",
    "fpext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "ptrtoaddr",
    "fcmp",
    "va_arg",
    "landingpad",
    "catchpad",
    "cleanuppad",
    "catchswitch",
];

/// Generic opcodes that end a block.
const TERMINATORS: &[&str] = &[
    "invoke",
    "resume",
    "indirectbr",
    "callbr",
    "catchswitch",
    "catchret",
    "cleanupret",
];

/// The integer flags of LLVM 19 and 20.
const KNOWN_FLAGS: &[&str] = &["nuw", "nsw", "exact", "disjoint", "nneg", "samesign"];

/// Fast-math flags (LangRef "Fast-Math Flags").
pub(crate) const FAST_MATH: &[&str] = &[
    "fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc",
];

/// Whether a word is an LLVM opcode or call marker.
pub(crate) fn is_opcode(w: &str) -> bool {
    OPCODES.contains(&w)
}

impl Parser<'_> {
    /// One instruction, with its result name and metadata attachments.
    pub(crate) fn instruction(&mut self) -> PResult<Instruction> {
        let start = self.peek();
        let written = if start.kind == Tok::Local && self.peek_at(1).kind == Tok::Equal {
            self.bump();
            self.bump();
            Some(self.name_of(start)?)
        } else {
            None
        };
        let Some(w) = self.word() else {
            return Err(self.expected("an instruction opcode"));
        };
        self.bump();
        let kind = match w {
            "phi" => InstKind::Phi(self.phi()?),
            "select" => InstKind::Select(self.select()?),
            "icmp" => InstKind::ICmp(self.icmp()?),
            "freeze" => InstKind::Freeze(self.parse_typed_value()?),
            "alloca" => InstKind::Alloca(self.alloca()?),
            "load" => InstKind::Load(self.load()?),
            "store" => InstKind::Store(self.store()?),
            "getelementptr" => InstKind::GetElementPtr(self.gep()?),
            "br" => self.br()?,
            "switch" => InstKind::Switch(self.switch()?),
            "ret" => {
                if self.eat_word("void") {
                    InstKind::Ret(None)
                } else {
                    InstKind::Ret(Some(self.parse_typed_value()?))
                }
            }
            "unreachable" => InstKind::Unreachable,
            "call" => InstKind::Call(Box::new(self.call(TailKind::None)?)),
            "tail" | "musttail" | "notail" if self.at_word("call") => {
                self.bump();
                let tail = match w {
                    "tail" => TailKind::Tail,
                    "musttail" => TailKind::MustTail,
                    _ => TailKind::NoTail,
                };
                InstKind::Call(Box::new(self.call(tail)?))
            }
            _ => {
                if let Some(op) = BinOp::from_opcode(w) {
                    InstKind::Binary(self.binary(op)?)
                } else if let Some(op) = CastOp::from_opcode(w) {
                    InstKind::Cast(self.cast(op)?)
                } else {
                    InstKind::Generic(self.generic(w)?)
                }
            }
        };
        let produces = match &kind {
            InstKind::Phi(_)
            | InstKind::Select(_)
            | InstKind::ICmp(_)
            | InstKind::Binary(_)
            | InstKind::Cast(_)
            | InstKind::Freeze(_)
            | InstKind::Alloca(_)
            | InstKind::Load(_)
            | InstKind::GetElementPtr(_) => true,
            InstKind::Call(c) => !c.ret_ty.is_void(),
            InstKind::Generic(g) => written.is_some() || generic_produces(g),
            _ => false,
        };
        let result = if produces {
            Some(self.define_local(written, start, DefKind::Value, "instruction")?)
        } else if written.is_some() {
            return Err(self.error_at(
                start,
                ErrorKind::Syntax,
                format!("instructions returning void cannot have a name ('{w}')"),
            ));
        } else {
            None
        };
        let metadata = self.attachments()?;
        Ok(Instruction {
            result,
            kind,
            span: Self::span(start),
            metadata,
        })
    }

    /// Words before a type (flags such as `nuw`, fast-math flags). A word
    /// this parser does not know is still taken as a flag (LLVM adds flags
    /// over time) when a type or another word follows it; otherwise it is
    /// left for the type parser to reject, which gives the better message
    /// for `add foo %a, 1`.
    fn flags(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(w) = self.word() {
            if is_type_word(w) || is_opcode(w) || self.peek().line_start {
                break;
            }
            let known = KNOWN_FLAGS.contains(&w) || FAST_MATH.contains(&w);
            let next = self.peek_at(1);
            let type_follows = !next.line_start
                && matches!(
                    next.kind,
                    Tok::Word | Tok::Less | Tok::LBracket | Tok::LBrace
                );
            if !(known || type_follows) {
                break;
            }
            out.push(w.to_string());
            self.bump();
        }
        out
    }

    fn phi(&mut self) -> PResult<Phi> {
        let flags = self.flags();
        let ty = self.parse_type()?;
        let mut incoming = Vec::new();
        loop {
            self.expect(Tok::LBracket, "'[' before a phi entry")?;
            let v = self.parse_value(&ty)?;
            self.expect(Tok::Comma, "',' between a phi value and its block")?;
            let bb = self.label_ref()?;
            self.expect(Tok::RBracket, "']' after a phi entry")?;
            incoming.push((v, bb));
            if self.at(Tok::Comma) && self.peek_at(1).kind == Tok::LBracket {
                self.bump();
            } else {
                return Ok(Phi {
                    flags,
                    ty,
                    incoming,
                });
            }
        }
    }

    fn select(&mut self) -> PResult<Select> {
        let flags = self.flags();
        let cond = self.parse_typed_value()?;
        self.expect(Tok::Comma, "',' after the select condition")?;
        let if_true = self.parse_typed_value()?;
        self.expect(Tok::Comma, "',' between the select values")?;
        let if_false = self.parse_typed_value()?;
        Ok(Select {
            flags,
            cond,
            if_true,
            if_false,
        })
    }

    fn icmp(&mut self) -> PResult<ICmp> {
        let mut flags = Vec::new();
        let pred = loop {
            let Some(w) = self.word() else {
                return Err(self.expected(
                    "an icmp predicate (eq, ne, ugt, uge, ult, ule, sgt, sge, slt, sle)",
                ));
            };
            if let Some(p) = IntPredicate::from_keyword(w) {
                self.bump();
                break p;
            }
            if is_type_word(w) {
                return Err(self.expected(
                    "an icmp predicate (eq, ne, ugt, uge, ult, ule, sgt, sge, slt, sle)",
                ));
            }
            flags.push(w.to_string());
            self.bump();
        };
        let ty = self.parse_type()?;
        let lhs = self.parse_value(&ty)?;
        self.expect(Tok::Comma, "',' between the icmp operands")?;
        let rhs = self.parse_value(&ty)?;
        Ok(ICmp {
            flags,
            pred,
            ty,
            lhs,
            rhs,
        })
    }

    fn binary(&mut self, op: BinOp) -> PResult<Binary> {
        let flags = self.flags();
        let ty = self.parse_type()?;
        let lhs = self.parse_value(&ty)?;
        self.expect(Tok::Comma, "',' between the operands")?;
        let rhs = self.parse_value(&ty)?;
        Ok(Binary {
            op,
            flags,
            ty,
            lhs,
            rhs,
        })
    }

    fn cast(&mut self, op: CastOp) -> PResult<Cast> {
        let flags = self.flags();
        let value = self.parse_typed_value()?;
        self.expect_word("to")?;
        let to = self.parse_type()?;
        Ok(Cast {
            op,
            flags,
            value,
            to,
        })
    }

    fn alloca(&mut self) -> PResult<Alloca> {
        let inalloca = self.eat_word("inalloca");
        let ty = self.parse_type()?;
        let mut a = Alloca {
            inalloca,
            ty,
            count: None,
            align: None,
            addrspace: None,
        };
        while self.at(Tok::Comma) && self.peek_at(1).kind != Tok::Meta {
            self.bump();
            if self.eat_word("align") {
                a.align = Some(self.expect_u64("an alignment")?);
            } else if self.eat_word("addrspace") {
                a.addrspace = Some(self.addrspace_arg()?);
            } else if a.count.is_none() && a.align.is_none() && a.addrspace.is_none() {
                a.count = Some(self.parse_typed_value()?);
            } else {
                return Err(self.expected("'align' or 'addrspace'"));
            }
        }
        Ok(a)
    }

    /// `[syncscope("s")] ordering` of an atomic access.
    fn atomic_ordering(&mut self) -> PResult<Atomic> {
        let syncscope = if self.eat_word("syncscope") {
            self.expect(Tok::LParen, "'(' after 'syncscope'")?;
            let s = self.expect_string("a synchronization scope string")?;
            self.expect(Tok::RParen, "')' after the synchronization scope")?;
            Some(s)
        } else {
            None
        };
        let ordering = self.word().and_then(Ordering::from_keyword);
        let Some(ordering) = ordering else {
            return Err(self.expected(
                "an atomic ordering (unordered, monotonic, acquire, release, acq_rel, seq_cst)",
            ));
        };
        self.bump();
        Ok(Atomic {
            syncscope,
            ordering,
        })
    }

    /// `, align N` after a load or store (metadata attachments are left).
    fn access_align(&mut self) -> PResult<Option<u64>> {
        let mut align = None;
        while self.at(Tok::Comma) && self.peek_at(1).kind != Tok::Meta {
            self.bump();
            self.expect_word("align")?;
            align = Some(self.expect_u64("an alignment")?);
        }
        Ok(align)
    }

    fn load(&mut self) -> PResult<Load> {
        let is_atomic = self.eat_word("atomic");
        let volatile = self.eat_word("volatile");
        let ty = self.parse_type()?;
        self.expect(Tok::Comma, "',' after the loaded type")?;
        let ptr = self.parse_typed_value()?;
        let atomic = if is_atomic {
            Some(self.atomic_ordering()?)
        } else {
            None
        };
        let align = self.access_align()?;
        Ok(Load {
            volatile,
            atomic,
            ty,
            ptr,
            align,
        })
    }

    fn store(&mut self) -> PResult<Store> {
        let is_atomic = self.eat_word("atomic");
        let volatile = self.eat_word("volatile");
        let value = self.parse_typed_value()?;
        self.expect(Tok::Comma, "',' after the stored value")?;
        let ptr = self.parse_typed_value()?;
        let atomic = if is_atomic {
            Some(self.atomic_ordering()?)
        } else {
            None
        };
        let align = self.access_align()?;
        Ok(Store {
            volatile,
            atomic,
            value,
            ptr,
            align,
        })
    }

    fn gep(&mut self) -> PResult<GetElementPtr> {
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
        let source_ty = self.parse_type()?;
        self.expect(Tok::Comma, "',' after the source element type")?;
        let base = self.parse_typed_value()?;
        let mut indices = Vec::new();
        while self.at(Tok::Comma) && self.peek_at(1).kind != Tok::Meta {
            self.bump();
            // The per-index `inrange` of LLVM 18 and older.
            if self.at_word("inrange") && self.peek_at(1).kind != Tok::LParen {
                self.bump();
            }
            indices.push(self.parse_typed_value()?);
        }
        Ok(GetElementPtr {
            flags,
            source_ty,
            base,
            indices,
        })
    }

    fn br(&mut self) -> PResult<InstKind> {
        if self.at_word("label") {
            return Ok(InstKind::Br(self.label_operand()?));
        }
        let ty = self.parse_type()?;
        let cond = self.parse_value(&ty)?;
        self.expect(Tok::Comma, "',' after the branch condition")?;
        let if_true = self.label_operand()?;
        self.expect(Tok::Comma, "',' between the branch targets")?;
        let if_false = self.label_operand()?;
        Ok(InstKind::CondBr {
            cond,
            if_true,
            if_false,
        })
    }

    fn switch(&mut self) -> PResult<Switch> {
        let value = self.parse_typed_value()?;
        self.expect(Tok::Comma, "',' after the switch value")?;
        let default = self.label_operand()?;
        self.expect(Tok::LBracket, "'[' to start the switch case table")?;
        let mut cases = Vec::new();
        while !self.eat(Tok::RBracket) {
            self.parse_type()?;
            let v = self.int_literal("an integer case value")?;
            self.expect(Tok::Comma, "',' after the case value")?;
            let dest = self.label_operand()?;
            cases.push(SwitchCase { value: v, dest });
        }
        Ok(Switch {
            value,
            default,
            cases,
        })
    }

    /// The operands of an instruction kept generically, up to the end of its
    /// statement (see the module documentation).
    fn generic(&mut self, opcode: &str) -> PResult<Generic> {
        let from = self.pos;
        let mut g = Generic {
            opcode: opcode.to_string(),
            operands: String::new(),
            uses: Vec::new(),
            labels: Vec::new(),
            globals: Vec::new(),
            terminator: TERMINATORS.contains(&opcode),
        };
        let mut stack: Vec<Tok> = Vec::new();
        let mut after_label = false;
        loop {
            let t = self.peek();
            if t.kind == Tok::Eof {
                break;
            }
            if stack.is_empty() {
                let ends = match t.kind {
                    Tok::RBrace => true,
                    Tok::Comma => self.peek_at(1).kind == Tok::Meta,
                    _ => t.line_start && self.starts_statement(),
                };
                if ends {
                    break;
                }
            }
            match t.kind {
                Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::Less => {
                    if stack.len() >= crate::MAX_NESTING {
                        return Err(self.too_deep());
                    }
                    stack.push(t.kind);
                }
                Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::Greater => {
                    let open = match t.kind {
                        Tok::RParen => Tok::LParen,
                        Tok::RBracket => Tok::LBracket,
                        Tok::RBrace => Tok::LBrace,
                        _ => Tok::Less,
                    };
                    if stack.pop() != Some(open) {
                        let found = self.describe(t);
                        return Err(self.error_at(
                            t,
                            ErrorKind::Syntax,
                            format!("unbalanced {found} in the operands of '{opcode}'"),
                        ));
                    }
                }
                // A named struct type (`extractvalue %struct.P %p, 1`):
                // a `%name` followed by the value it types is a type, not
                // a use of a value (review3 H12; type and value names are
                // apart in LLVM IR).
                Tok::Local if !after_label && self.names_a_type() => {}
                Tok::Local => {
                    let n = self.name_of(t)?;
                    if after_label {
                        self.use_local(n.clone(), t, UseKind::Label)?;
                        g.labels.push(n);
                    } else {
                        self.use_local(n.clone(), t, UseKind::Any)?;
                        g.uses.push(n);
                    }
                }
                Tok::Global => {
                    let n = self.name_of(t)?;
                    self.use_global(n.clone(), Self::span(t));
                    g.globals.push(n);
                }
                _ => {}
            }
            after_label = t.kind == Tok::Word && self.text(t) == "label";
            self.bump();
        }
        if !stack.is_empty() {
            return Err(self.expected(&format!("a closing bracket in the operands of '{opcode}'")));
        }
        g.operands = self.text_from(from);
        Ok(g)
    }

    /// Whether the `%name` at the current token is a type: the start of
    /// a value (a name, a constant, a constant aggregate or expression)
    /// follows it on its line. A value is followed by `,`, a bracket, an
    /// ordering (`cmpxchg ... i32 %b acq_rel monotonic`) or the end.
    fn names_a_type(&self) -> bool {
        let next = self.peek_at(1);
        !next.line_start
            && match next.kind {
                Tok::Local | Tok::Global | Tok::Int | Tok::Float | Tok::LBrace | Tok::CStr => true,
                Tok::Word => {
                    let w = self.text(next);
                    matches!(
                        w,
                        "undef" | "poison" | "zeroinitializer" | "null" | "true" | "false"
                    ) || (is_opcode(w) && !matches!(w, "call" | "tail" | "musttail" | "notail"))
                }
                _ => false,
            }
    }

    /// Whether the current token starts a statement inside a body.
    fn starts_statement(&self) -> bool {
        let t = self.peek();
        match t.kind {
            Tok::Local => self.peek_at(1).kind == Tok::Equal,
            Tok::Label | Tok::Hash | Tok::RBrace => true,
            Tok::Word => {
                is_opcode(self.text(t))
                    || matches!(self.text(t), "uselistorder" | "uselistorder_bb")
            }
            _ => false,
        }
    }
}

/// Whether an unnamed generic instruction produces a value (and so takes a
/// number). `invoke` and `callbr` do unless they return `void`, which is the
/// first type keyword in their operands after the calling convention and
/// return attributes; LLVM's numbering check catches a wrong guess at the
/// next explicitly numbered value.
fn generic_produces(g: &Generic) -> bool {
    if VALUE_OPCODES.contains(&g.opcode.as_str()) {
        return true;
    }
    if matches!(g.opcode.as_str(), "invoke" | "callbr") {
        return g
            .operands
            .split_whitespace()
            .find(|w| is_type_word(w))
            .is_some_and(|w| w != "void");
    }
    false
}
