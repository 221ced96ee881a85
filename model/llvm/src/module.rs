//! The module-level syntax tree.
//!
//! Covers LangRef "Module Structure": `source_filename`, `target datalayout`
//! and `target triple` (kept as strings), identified struct types
//! `%T = type {...}` (parsed, and kept as text), "Global Variables" with
//! linkage, preemption, visibility, DLL storage, thread-local mode,
//! `unnamed_addr`, address space, `global`/`constant`, initializer and the
//! trailing `section`/`comdat`/`align`/... items, "Functions" (`declare` and
//! `define`) with linkage, "Calling Conventions", return and parameter
//! attributes, named or implicitly numbered parameters, inline function
//! attributes and group references, and the trailing items, "Attribute
//! Groups", top-level metadata definitions (kept as text, not interpreted),
//! and the remaining top-level entities (aliases, ifuncs, comdats, module
//! asm, use-list orders, summary entries), kept as text.
#![deny(unsafe_code)]

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::attrs::{AttrGroup, Attribute};
use crate::inst::{Instruction, MetadataAttachment};
use crate::types::Type;
use crate::value::{Name, Value};

/// A place in the source: 1-based line and byte column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    /// The line.
    pub line: u32,
    /// The byte column.
    pub col: u32,
}

/// A parsed module. (`PartialEq` is implemented in [`crate::query`] and
/// ignores the derived name index.)
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Module {
    /// The file name given to the parser (used in error messages).
    pub file: String,
    /// `source_filename = "..."`
    pub source_filename: Option<String>,
    /// `target datalayout = "..."`
    pub datalayout: Option<String>,
    /// `target triple = "..."`
    pub triple: Option<String>,
    /// Identified struct types, in order.
    pub types: Vec<TypeDef>,
    /// Global variables, in order.
    pub globals: Vec<GlobalVar>,
    /// Functions, declared or defined, in order.
    pub functions: Vec<Function>,
    /// Attribute groups by number.
    pub attr_groups: BTreeMap<u32, AttrGroup>,
    /// Top-level metadata definitions `!x = ...`, kept as text.
    pub metadata: Vec<MetadataDef>,
    /// Other top-level entities, kept as text.
    pub others: Vec<OtherEntity>,
    /// Function positions by name, for [`Module::function`].
    #[serde(skip)]
    pub(crate) fn_index: HashMap<Name, usize>,
}

/// `%T = type ...`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeDef {
    /// The type name.
    pub name: Name,
    /// The body, or `None` for `type opaque`.
    pub ty: Option<Type>,
    /// The body as written.
    pub text: String,
    /// The line of the definition.
    pub line: u32,
}

/// The linkage types of LangRef "Linkage Types".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)] // The variants are LLVM's keywords.
pub enum Linkage {
    Private,
    Internal,
    AvailableExternally,
    Linkonce,
    Weak,
    Common,
    Appending,
    ExternWeak,
    LinkonceOdr,
    WeakOdr,
    External,
}

impl Linkage {
    pub(crate) fn from_keyword(w: &str) -> Option<Linkage> {
        use Linkage::*;
        Some(match w {
            "private" => Private,
            "internal" => Internal,
            "available_externally" => AvailableExternally,
            "linkonce" => Linkonce,
            "weak" => Weak,
            "common" => Common,
            "appending" => Appending,
            "extern_weak" => ExternWeak,
            "linkonce_odr" => LinkonceOdr,
            "weak_odr" => WeakOdr,
            "external" => External,
            _ => return None,
        })
    }
}

/// The qualifiers that precede globals and functions, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Qualifiers {
    /// The linkage, if written (none means external).
    pub linkage: Option<Linkage>,
    /// `dso_local` or `dso_preemptable`.
    pub preemption: Option<String>,
    /// `default`, `hidden` or `protected`.
    pub visibility: Option<String>,
    /// `dllimport` or `dllexport`.
    pub dll_storage: Option<String>,
}

/// A calling convention keyword as written: `amdgpu_kernel`, `spir_func`,
/// `fastcc`, `cc 42`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CallingConv(pub String);

impl CallingConv {
    /// Whether this convention marks a GPU kernel entry point
    /// (`amdgpu_kernel`, `ptx_kernel`, `spir_kernel`).
    pub fn is_kernel(&self) -> bool {
        matches!(
            self.0.as_str(),
            "amdgpu_kernel" | "ptx_kernel" | "spir_kernel"
        )
    }
}

/// A global variable `@g = ... global T init`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GlobalVar {
    /// The name.
    pub name: Name,
    /// Linkage, preemption, visibility and DLL storage.
    pub qualifiers: Qualifiers,
    /// `thread_local` or `thread_local(model)`, as written.
    pub thread_local: Option<String>,
    /// `unnamed_addr` or `local_unnamed_addr`.
    pub unnamed_addr: Option<String>,
    /// The address space (0 unless written).
    pub addrspace: u32,
    /// Whether `externally_initialized` was written.
    pub externally_initialized: bool,
    /// `constant` (true) or `global` (false).
    pub is_constant: bool,
    /// The value type.
    pub ty: Type,
    /// The initializer; `None` for external declarations.
    pub initializer: Option<Value>,
    /// The alignment, if written.
    pub align: Option<u64>,
    /// The other trailing items (`section "x"`, `comdat`, `code_model "x"`,
    /// sanitizer flags), as written.
    pub extra: Vec<String>,
    /// Metadata attachments.
    pub metadata: Vec<MetadataAttachment>,
    /// Global attributes (`#N` and inline ones).
    pub attrs: Vec<Attribute>,
    /// Where the definition starts.
    pub span: Span,
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The type.
    pub ty: Type,
    /// Parameter attributes (`noundef`, `inreg`, `align 4`, ...).
    pub attrs: Vec<Attribute>,
    /// The name, or the number LLVM gives an unnamed parameter.
    pub name: Name,
    /// Where the parameter starts.
    pub span: Span,
}

/// A function, declared (`declare`) or defined (`define`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Function {
    /// The name.
    pub name: Name,
    /// Whether this is a definition (it has blocks).
    pub is_definition: bool,
    /// Linkage, preemption, visibility and DLL storage.
    pub qualifiers: Qualifiers,
    /// The calling convention, if written.
    pub calling_conv: Option<CallingConv>,
    /// Return attributes.
    pub ret_attrs: Vec<Attribute>,
    /// The return type.
    pub ret_ty: Type,
    /// The parameters.
    pub params: Vec<Param>,
    /// Whether the function takes variable arguments.
    pub varargs: bool,
    /// `unnamed_addr` or `local_unnamed_addr`.
    pub unnamed_addr: Option<String>,
    /// The program address space, if written.
    pub addrspace: Option<u32>,
    /// Function attributes, inline and group references `#N`.
    pub attrs: Vec<Attribute>,
    /// Other trailing items (`section`, `comdat`, `align`, `gc`, `prefix`,
    /// `prologue`, `personality`), as written.
    pub extra: Vec<String>,
    /// Metadata attachments (`!dbg !5`, `!kernel_arg_addr_space !6`).
    pub metadata: Vec<MetadataAttachment>,
    /// The basic blocks of a definition, entry first.
    pub blocks: Vec<Block>,
    /// Where `declare` or `define` is.
    pub span: Span,
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// The label, or the number LLVM gives an unnamed block.
    pub name: Name,
    /// The instructions; the last one is the terminator.
    pub instructions: Vec<Instruction>,
    /// Where the block starts (its label, or its first instruction).
    pub span: Span,
}

/// A top-level metadata definition, kept as text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetadataDef {
    /// The name without `!`: `0`, `llvm.module.flags`, `nvvm.annotations`.
    pub name: String,
    /// The definition after `=`, as written.
    pub text: String,
    /// The line of the definition.
    pub line: u32,
}

/// What kind of top-level entity an [`OtherEntity`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OtherKind {
    /// `@a = ... alias ...`
    Alias,
    /// `@i = ... ifunc ...`
    IFunc,
    /// `$c = comdat ...`
    Comdat,
    /// `module asm "..."`
    ModuleAsm,
    /// `uselistorder ...` / `uselistorder_bb ...`
    UseListOrder,
    /// `^N = ...` (module summary)
    Summary,
    /// `deplibs = [...]` (obsolete)
    DepLibs,
}

/// A top-level entity the mapping does not need, kept as text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtherEntity {
    /// What it is.
    pub kind: OtherKind,
    /// Its name (for aliases, ifuncs and comdats).
    pub name: Option<Name>,
    /// The whole entity as written.
    pub text: String,
    /// The line where it starts.
    pub line: u32,
}
