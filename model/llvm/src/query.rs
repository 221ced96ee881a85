//! The query API the mapping into convcheck's IR uses.
//!
//! Finding functions and globals by name; resolving attribute lists through
//! attribute groups, so that "is function F convergent?" and "is this call
//! site convergent?" count `convergent` written inline, at the call site,
//! on the callee, or in any `#N` group (LangRef "Function Attributes":
//! `convergent`; "Attribute Groups"); kernel entry points by calling
//! convention or by `!nvvm.annotations` (what clang-19 emits for CUDA);
//! the convergence-control token of a call (`"convergencectrl"` operand
//! bundle) and the three `llvm.experimental.convergence.*` intrinsics
//! (LangRef "Convergence Control Intrinsics"); and iteration over blocks
//! and instructions with result names, source lines and the successors of
//! terminators.
#![deny(unsafe_code)]

use serde::{Deserialize, Serialize};

use crate::attrs::{AttrGroup, Attribute};
use crate::inst::{BinOp, Call, CastOp, InstKind, Instruction, OperandBundle};
use crate::module::{Block, Function, GlobalVar, Module};
use crate::value::{Name, Value};

impl PartialEq for Module {
    /// Compares the trees; the name index is derived data and ignored.
    fn eq(&self, other: &Self) -> bool {
        self.file == other.file
            && self.source_filename == other.source_filename
            && self.datalayout == other.datalayout
            && self.triple == other.triple
            && self.types == other.types
            && self.globals == other.globals
            && self.functions == other.functions
            && self.attr_groups == other.attr_groups
            && self.metadata == other.metadata
            && self.others == other.others
    }
}

impl Module {
    /// The function (declared or defined) named `@name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.function_by_name(&Name::Named(name.to_string()))
    }

    /// The function with this name (named or numbered).
    pub fn function_by_name(&self, name: &Name) -> Option<&Function> {
        if let Some(f) = self.fn_index.get(name).and_then(|&i| self.functions.get(i)) {
            if &f.name == name {
                return Some(f);
            }
        }
        // A deserialized module has no index.
        self.functions.iter().find(|f| &f.name == name)
    }

    /// The functions that have a body, in order.
    pub fn defined_functions(&self) -> impl Iterator<Item = &Function> {
        self.functions.iter().filter(|f| f.is_definition)
    }

    /// The global variable named `@name`.
    pub fn global(&self, name: &str) -> Option<&GlobalVar> {
        self.globals.iter().find(|g| g.name.is(name))
    }

    /// The attribute group `#id`.
    pub fn attr_group(&self, id: u32) -> Option<&AttrGroup> {
        self.attr_groups.get(&id)
    }

    /// The attributes of a list with every group reference `#N` replaced by
    /// the group's attributes.
    pub fn resolve_attrs<'a>(
        &'a self,
        attrs: &'a [Attribute],
    ) -> impl Iterator<Item = &'a Attribute> + 'a {
        attrs.iter().flat_map(move |a| {
            let items: &'a [Attribute] = match a {
                Attribute::Group(id) => self.attr_groups.get(id).map_or(&[][..], |g| &g.attrs[..]),
                _ => std::slice::from_ref(a),
            };
            items.iter()
        })
    }

    /// Whether the keyword attribute `name` is in the list, directly or
    /// through a group.
    pub fn has_attr(&self, attrs: &[Attribute], name: &str) -> bool {
        self.resolve_attrs(attrs).any(|a| a.is(name))
    }

    /// Whether `f` is a GPU kernel entry point: its calling convention is a
    /// kernel one (`amdgpu_kernel`, `ptx_kernel`, `spir_kernel`), or an
    /// `!nvvm.annotations` entry `!{ptr @f, !"kernel", i32 1}` names it.
    pub fn is_kernel(&self, f: &Function) -> bool {
        if f.calling_conv.as_ref().is_some_and(|cc| cc.is_kernel()) {
            return true;
        }
        let Some(list) = self.metadata.iter().find(|m| m.name == "nvvm.annotations") else {
            return false;
        };
        let target = format!("@{}", f.name);
        metadata_refs(&list.text).any(|id| {
            self.metadata.iter().filter(|m| m.name == id).any(|m| {
                let inner = m
                    .text
                    .trim()
                    .trim_start_matches('!')
                    .trim_start_matches('{')
                    .trim_end_matches('}');
                let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
                parts.len() >= 3
                    && parts[0].split_whitespace().last() == Some(target.as_str())
                    && parts[1] == "!\"kernel\""
                    && parts[2] == "i32 1"
            })
        })
    }
}

/// The `!N` references in a metadata tuple's text.
fn metadata_refs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '!' | '.' | '_' | '-' | '$')))
        .filter_map(|w| w.strip_prefix('!'))
        .filter(|w| !w.is_empty())
}

impl Function {
    /// Whether the function carries `convergent`, inline or through a group.
    pub fn is_convergent(&self, m: &Module) -> bool {
        m.has_attr(&self.attrs, "convergent")
    }

    /// Whether the function carries the keyword attribute `name`.
    pub fn has_attr(&self, m: &Module, name: &str) -> bool {
        m.has_attr(&self.attrs, name)
    }

    /// The basic blocks, entry first.
    pub fn blocks(&self) -> std::slice::Iter<'_, Block> {
        self.blocks.iter()
    }

    /// The entry block of a definition.
    pub fn entry(&self) -> Option<&Block> {
        self.blocks.first()
    }

    /// The block with this label or number.
    pub fn block(&self, name: &Name) -> Option<&Block> {
        self.blocks.iter().find(|b| &b.name == name)
    }

    /// Every instruction with its block, in order.
    pub fn instructions(&self) -> impl Iterator<Item = (&Block, &Instruction)> {
        self.blocks
            .iter()
            .flat_map(|b| b.instructions.iter().map(move |i| (b, i)))
    }

    /// Every call, in order.
    pub fn calls(&self) -> impl Iterator<Item = (&Instruction, &Call)> {
        self.instructions()
            .filter_map(|(_, i)| i.as_call().map(|c| (i, c)))
    }

    /// The instructions kept generically (what the mapping cannot
    /// interpret), in order.
    pub fn generic_instructions(&self) -> impl Iterator<Item = &Instruction> {
        self.instructions()
            .map(|(_, i)| i)
            .filter(|i| matches!(i.kind, InstKind::Generic(_)))
    }
}

impl Block {
    /// The terminator (the last instruction).
    pub fn terminator(&self) -> Option<&Instruction> {
        self.instructions.last().filter(|i| i.is_terminator())
    }

    /// The successor blocks, in the terminator's operand order (duplicates
    /// kept, as in LLVM's successor list).
    pub fn successors(&self) -> Vec<&Name> {
        self.terminator()
            .map(Instruction::successors)
            .unwrap_or_default()
    }
}

impl Instruction {
    /// The result name (written or implicitly numbered).
    pub fn result(&self) -> Option<&Name> {
        self.result.as_ref()
    }

    /// The source line where the instruction starts.
    pub fn line(&self) -> u32 {
        self.span.line
    }

    /// The opcode as LLVM writes it (`add`, `call`, `br`, or a generic
    /// instruction's own opcode).
    pub fn opcode(&self) -> &str {
        self.kind.opcode()
    }

    /// Whether this instruction ends a block.
    pub fn is_terminator(&self) -> bool {
        self.kind.is_terminator()
    }

    /// The successor blocks of a terminator (empty otherwise).
    pub fn successors(&self) -> Vec<&Name> {
        self.kind.successors()
    }

    /// The call, if this is one.
    pub fn as_call(&self) -> Option<&Call> {
        match &self.kind {
            InstKind::Call(c) => Some(c),
            _ => None,
        }
    }

    /// The metadata attachment `!name`, if present.
    pub fn attachment(&self, name: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.text.as_str())
    }
}

impl InstKind {
    /// The opcode as LLVM writes it.
    pub fn opcode(&self) -> &str {
        match self {
            InstKind::Phi(_) => "phi",
            InstKind::Select(_) => "select",
            InstKind::ICmp(_) => "icmp",
            InstKind::Binary(b) => b.op.keyword(),
            InstKind::Cast(c) => c.op.keyword(),
            InstKind::Freeze(_) => "freeze",
            InstKind::Alloca(_) => "alloca",
            InstKind::Load(_) => "load",
            InstKind::Store(_) => "store",
            InstKind::GetElementPtr(_) => "getelementptr",
            InstKind::Call(_) => "call",
            InstKind::Br(_) | InstKind::CondBr { .. } => "br",
            InstKind::Switch(_) => "switch",
            InstKind::Ret(_) => "ret",
            InstKind::Unreachable => "unreachable",
            InstKind::Generic(g) => &g.opcode,
        }
    }

    /// Whether this kind ends a block.
    pub fn is_terminator(&self) -> bool {
        match self {
            InstKind::Br(_)
            | InstKind::CondBr { .. }
            | InstKind::Switch(_)
            | InstKind::Ret(_)
            | InstKind::Unreachable => true,
            InstKind::Generic(g) => g.terminator,
            _ => false,
        }
    }

    /// The successor blocks of a terminator, in operand order: `br` its
    /// target(s) (true first), `switch` its default then its cases, a
    /// generic terminator the blocks it names after `label`.
    pub fn successors(&self) -> Vec<&Name> {
        match self {
            InstKind::Br(d) => vec![d],
            InstKind::CondBr {
                if_true, if_false, ..
            } => vec![if_true, if_false],
            InstKind::Switch(s) => std::iter::once(&s.default)
                .chain(s.cases.iter().map(|c| &c.dest))
                .collect(),
            InstKind::Generic(g) if g.terminator => g.labels.iter().collect(),
            _ => Vec::new(),
        }
    }
}

impl BinOp {
    /// The opcode keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::SDiv => "sdiv",
            BinOp::UDiv => "udiv",
            BinOp::SRem => "srem",
            BinOp::URem => "urem",
            BinOp::Shl => "shl",
            BinOp::LShr => "lshr",
            BinOp::AShr => "ashr",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
        }
    }
}

impl CastOp {
    /// The opcode keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            CastOp::Trunc => "trunc",
            CastOp::ZExt => "zext",
            CastOp::SExt => "sext",
            CastOp::BitCast => "bitcast",
            CastOp::PtrToInt => "ptrtoint",
            CastOp::IntToPtr => "inttoptr",
            CastOp::AddrSpaceCast => "addrspacecast",
        }
    }
}

/// The three convergence-control intrinsics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConvergenceIntrinsic {
    /// `llvm.experimental.convergence.entry`
    Entry,
    /// `llvm.experimental.convergence.loop`
    Loop,
    /// `llvm.experimental.convergence.anchor`
    Anchor,
}

impl Call {
    /// The callee's name for a direct call to a named function.
    pub fn callee_name(&self) -> Option<&str> {
        self.callee.as_global().and_then(Name::as_str)
    }

    /// Whether the callee is not a global (a value, a constant expression,
    /// or inline assembly).
    pub fn is_indirect(&self) -> bool {
        !matches!(self.callee, Value::Global(_))
    }

    /// Whether the call is convergent: `convergent` at the call site (inline
    /// or through a group), or on the directly called function (inline or
    /// through a group). An indirect call is convergent only through its
    /// call-site attributes.
    pub fn is_convergent(&self, m: &Module) -> bool {
        if m.has_attr(&self.fn_attrs, "convergent") {
            return true;
        }
        self.callee
            .as_global()
            .and_then(|n| m.function_by_name(n))
            .is_some_and(|f| f.is_convergent(m))
    }

    /// Whether the call reads and writes no memory: `readnone` or a
    /// `memory(...)` whose every access kind is `none` (`memory(none)`,
    /// `memory(argmem: none)`), at the call site or on the directly called
    /// function (inline or through a group). Such a call is a pure value
    /// (LangRef "Function Attributes": `memory`): LLVM may delete it when
    /// its value is unused.
    pub fn is_readnone(&self, m: &Module) -> bool {
        let none = |attrs: &[Attribute]| {
            m.resolve_attrs(attrs).any(|a| match a {
                Attribute::Flag(n) => n == "readnone",
                Attribute::Valued { name, value } if name == "memory" => value
                    .split(',')
                    .all(|part| part.rsplit(':').next().map(str::trim) == Some("none")),
                _ => false,
            })
        };
        none(&self.fn_attrs)
            || self
                .callee
                .as_global()
                .and_then(|n| m.function_by_name(n))
                .is_some_and(|f| none(&f.attrs))
    }

    /// Whether the call is `willreturn`, at the call site or on the
    /// directly called function (inline or through a group). LangRef
    /// "Function Attributes": without it a call may not return (loop
    /// forever), whatever its `memory` says, so LLVM neither deletes nor
    /// moves it as a pure value (review3 H14).
    pub fn will_return(&self, m: &Module) -> bool {
        m.has_attr(&self.fn_attrs, "willreturn")
            || self
                .callee
                .as_global()
                .and_then(|n| m.function_by_name(n))
                .is_some_and(|f| m.has_attr(&f.attrs, "willreturn"))
    }

    /// Whether the call writes no memory and has no other effect LLVM
    /// must keep: `readnone`, `readonly`, or a `memory(...)` whose every
    /// access kind is `none` or `read` (`memory(read)`, `memory(argmem:
    /// read)`, `memory(read, inaccessiblemem: none)`), at the call site or
    /// on the directly called function (LangRef "Function Attributes":
    /// the call's effects are within both). `memory(inaccessiblemem:
    /// write)`, `memory(errnomem: write)` and a call without any of these
    /// attributes may have effects.
    pub fn is_writenone(&self, m: &Module) -> bool {
        let no_write = |attrs: &[Attribute]| {
            m.resolve_attrs(attrs).any(|a| match a {
                Attribute::Flag(n) => n == "readnone" || n == "readonly",
                Attribute::Valued { name, value } if name == "memory" => {
                    value.split(',').all(|part| {
                        matches!(
                            part.rsplit(':').next().map(str::trim),
                            Some("none" | "read")
                        )
                    })
                }
                _ => false,
            })
        };
        no_write(&self.fn_attrs)
            || self
                .callee
                .as_global()
                .and_then(|n| m.function_by_name(n))
                .is_some_and(|f| no_write(&f.attrs))
    }

    /// The operand bundle with this tag.
    pub fn bundle(&self, tag: &str) -> Option<&OperandBundle> {
        self.bundles.iter().find(|b| b.tag == tag)
    }

    /// The token of the `"convergencectrl"` operand bundle, if any.
    pub fn convergencectrl(&self) -> Option<&Value> {
        self.bundle("convergencectrl")
            .and_then(|b| b.inputs.first())
            .map(|tv| &tv.value)
    }

    /// Which convergence-control intrinsic this call is, if any.
    pub fn convergence_intrinsic(&self) -> Option<ConvergenceIntrinsic> {
        match self.callee_name()? {
            "llvm.experimental.convergence.entry" => Some(ConvergenceIntrinsic::Entry),
            "llvm.experimental.convergence.loop" => Some(ConvergenceIntrinsic::Loop),
            "llvm.experimental.convergence.anchor" => Some(ConvergenceIntrinsic::Anchor),
            _ => None,
        }
    }
}
