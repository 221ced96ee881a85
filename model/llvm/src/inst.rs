//! Instructions.
//!
//! Covers, from LangRef "Instruction Reference": the terminators `ret`,
//! `br` (both forms), `switch` (with its case table) and `unreachable`; the
//! binary operations `add sub mul sdiv udiv srem urem` and the bitwise ones
//! `shl lshr ashr and or xor` with their flags (`nuw nsw exact disjoint`);
//! `icmp` with every predicate (and flags such as `samesign`); the integer
//! and pointer conversions `trunc zext sext bitcast ptrtoint inttoptr
//! addrspacecast` (with `nneg`, `nuw`, `nsw`); `phi`, `select`, `freeze`;
//! the memory operations `alloca`, `load`, `store` (alignment, `volatile`,
//! `atomic` with `syncscope` and ordering) and `getelementptr` (with
//! `inbounds`, `nusw`, `nuw`, `inrange`); and `call` with its tail marker,
//! fast-math flags, calling convention, return and call-site attributes,
//! explicit function type, callee (direct, indirect or inline asm),
//! arguments with their attributes, and operand bundles such as
//! `[ "convergencectrl"(token %t) ]`.
//!
//! Every other instruction (floating-point arithmetic and casts, vector and
//! aggregate operations, `atomicrmw`, `cmpxchg`, `fence`, `invoke`,
//! `landingpad`, `resume`, `indirectbr`, `callbr`, the funclet pads,
//! `va_arg`, and opcodes newer than this parser) is a [`Generic`]
//! instruction that keeps its opcode, its operand text and the names it
//! mentions, so the mapping can report `inconclusive: uses <opcode>`.
//! Metadata attachments (`!dbg !5`, `!llvm.loop !7`) are kept by name with
//! their text, never interpreted.
#![deny(unsafe_code)]

use serde::{Deserialize, Serialize};

use crate::attrs::Attribute;
use crate::module::{CallingConv, Span};
use crate::types::Type;
use crate::value::{Name, TypedValue, Value};

/// One instruction in a basic block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instruction {
    /// The result name: written (`%x = ...`), or the number LLVM gives an
    /// unnamed non-void result. `None` for instructions without a result.
    pub result: Option<Name>,
    /// What the instruction is.
    pub kind: InstKind,
    /// Where it starts (its result name, or its opcode).
    pub span: Span,
    /// Metadata attachments `, !name !N`, in order.
    pub metadata: Vec<MetadataAttachment>,
}

/// A metadata attachment `!name <metadata>`, kept as text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetadataAttachment {
    /// The attachment kind without `!`: `dbg`, `llvm.loop`, `range`, ...
    pub name: String,
    /// The attached metadata as written: `!7`, `!{...}`.
    pub text: String,
}

/// The instruction forms the parser models, and the generic rest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum InstKind {
    /// `phi`
    Phi(Phi),
    /// `select`
    Select(Select),
    /// `icmp`
    ICmp(ICmp),
    /// An integer binary or bitwise operation.
    Binary(Binary),
    /// An integer or pointer conversion.
    Cast(Cast),
    /// `freeze`
    Freeze(TypedValue),
    /// `alloca`
    Alloca(Alloca),
    /// `load`
    Load(Load),
    /// `store`
    Store(Store),
    /// `getelementptr`
    GetElementPtr(GetElementPtr),
    /// `call`, `tail call`, `musttail call`, `notail call`.
    Call(Box<Call>),
    /// `br label %dest`
    Br(Name),
    /// `br i1 %cond, label %if_true, label %if_false`
    CondBr {
        /// The condition.
        cond: Value,
        /// The successor taken when the condition is true.
        if_true: Name,
        /// The successor taken when it is false.
        if_false: Name,
    },
    /// `switch`
    Switch(Switch),
    /// `ret void` (`None`) or `ret T v`.
    Ret(Option<TypedValue>),
    /// `unreachable`
    Unreachable,
    /// Any other instruction, kept generically.
    Generic(Generic),
}

/// `phi [flags] T [v, %bb], ...`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phi {
    /// Fast-math flags (floating-point phis only).
    pub flags: Vec<String>,
    /// The type of the result and of every incoming value.
    pub ty: Type,
    /// The incoming (value, predecessor block) pairs, in order.
    pub incoming: Vec<(Value, Name)>,
}

/// `select [flags] i1 c, T a, T b`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Select {
    /// Fast-math flags.
    pub flags: Vec<String>,
    /// The condition.
    pub cond: TypedValue,
    /// The value when the condition is true.
    pub if_true: TypedValue,
    /// The value when it is false.
    pub if_false: TypedValue,
}

/// The predicates of `icmp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)] // The variants are LLVM's keywords.
pub enum IntPredicate {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

impl IntPredicate {
    pub(crate) fn from_keyword(w: &str) -> Option<IntPredicate> {
        use IntPredicate::*;
        Some(match w {
            "eq" => Eq,
            "ne" => Ne,
            "ugt" => Ugt,
            "uge" => Uge,
            "ult" => Ult,
            "ule" => Ule,
            "sgt" => Sgt,
            "sge" => Sge,
            "slt" => Slt,
            "sle" => Sle,
            _ => return None,
        })
    }
}

/// `icmp [flags] pred T a, b`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ICmp {
    /// Flags such as `samesign`.
    pub flags: Vec<String>,
    /// The predicate.
    pub pred: IntPredicate,
    /// The operand type (an integer, a pointer, or a vector of them).
    pub ty: Type,
    /// The left operand.
    pub lhs: Value,
    /// The right operand.
    pub rhs: Value,
}

/// The integer binary and bitwise operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)] // The variants are LLVM's opcodes.
pub enum BinOp {
    Add,
    Sub,
    Mul,
    SDiv,
    UDiv,
    SRem,
    URem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

impl BinOp {
    pub(crate) fn from_opcode(w: &str) -> Option<BinOp> {
        use BinOp::*;
        Some(match w {
            "add" => Add,
            "sub" => Sub,
            "mul" => Mul,
            "sdiv" => SDiv,
            "udiv" => UDiv,
            "srem" => SRem,
            "urem" => URem,
            "shl" => Shl,
            "lshr" => LShr,
            "ashr" => AShr,
            "and" => And,
            "or" => Or,
            "xor" => Xor,
            _ => return None,
        })
    }
}

/// `op [flags] T a, b`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Binary {
    /// The operation.
    pub op: BinOp,
    /// `nuw`, `nsw`, `exact`, `disjoint`, or newer flags, as written.
    pub flags: Vec<String>,
    /// The operand and result type.
    pub ty: Type,
    /// The left operand.
    pub lhs: Value,
    /// The right operand.
    pub rhs: Value,
}

/// The integer and pointer conversions (floating-point ones are generic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)] // The variants are LLVM's opcodes.
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    BitCast,
    PtrToInt,
    IntToPtr,
    AddrSpaceCast,
}

impl CastOp {
    pub(crate) fn from_opcode(w: &str) -> Option<CastOp> {
        use CastOp::*;
        Some(match w {
            "trunc" => Trunc,
            "zext" => ZExt,
            "sext" => SExt,
            "bitcast" => BitCast,
            "ptrtoint" => PtrToInt,
            "inttoptr" => IntToPtr,
            "addrspacecast" => AddrSpaceCast,
            _ => return None,
        })
    }
}

/// `op [flags] T v to U`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cast {
    /// The conversion.
    pub op: CastOp,
    /// `nneg`, `nuw`, `nsw`, as written.
    pub flags: Vec<String>,
    /// The operand.
    pub value: TypedValue,
    /// The result type.
    pub to: Type,
}

/// `alloca [inalloca] T [, U n] [, align A] [, addrspace(S)]`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alloca {
    /// Whether `inalloca` was written.
    pub inalloca: bool,
    /// The allocated type.
    pub ty: Type,
    /// The element count, if written.
    pub count: Option<TypedValue>,
    /// The alignment, if written.
    pub align: Option<u64>,
    /// The address space of the result, if written (default 0).
    pub addrspace: Option<u32>,
}

/// The atomic orderings of LangRef "Atomic Memory Ordering Constraints".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)] // The variants are LLVM's keywords.
pub enum Ordering {
    Unordered,
    Monotonic,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Ordering {
    pub(crate) fn from_keyword(w: &str) -> Option<Ordering> {
        use Ordering::*;
        Some(match w {
            "unordered" => Unordered,
            "monotonic" => Monotonic,
            "acquire" => Acquire,
            "release" => Release,
            "acq_rel" => AcqRel,
            "seq_cst" => SeqCst,
            _ => return None,
        })
    }
}

/// The atomic part of a `load atomic` / `store atomic`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Atomic {
    /// The `syncscope("...")` argument, if written.
    pub syncscope: Option<String>,
    /// The ordering.
    pub ordering: Ordering,
}

/// `load [atomic] [volatile] T, ptr p [syncscope(..) ordering] [, align A]`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Load {
    /// Whether `volatile` was written.
    pub volatile: bool,
    /// The atomic ordering, for `load atomic`.
    pub atomic: Option<Atomic>,
    /// The loaded type.
    pub ty: Type,
    /// The address, whose type carries the address space.
    pub ptr: TypedValue,
    /// The alignment, if written.
    pub align: Option<u64>,
}

/// `store [atomic] [volatile] T v, ptr p [syncscope(..) ordering] [, align A]`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Store {
    /// Whether `volatile` was written.
    pub volatile: bool,
    /// The atomic ordering, for `store atomic`.
    pub atomic: Option<Atomic>,
    /// The stored value.
    pub value: TypedValue,
    /// The address, whose type carries the address space.
    pub ptr: TypedValue,
    /// The alignment, if written.
    pub align: Option<u64>,
}

/// `getelementptr [flags] T, ptr base {, U idx}`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GetElementPtr {
    /// `inbounds`, `nusw`, `nuw`, `inrange(a, b)`, as written.
    pub flags: Vec<String>,
    /// The source element type.
    pub source_ty: Type,
    /// The base address.
    pub base: TypedValue,
    /// The indices.
    pub indices: Vec<TypedValue>,
}

impl GetElementPtr {
    /// Whether `inbounds` was written.
    pub fn inbounds(&self) -> bool {
        self.flags.iter().any(|f| f == "inbounds")
    }
}

/// The tail-call marker before `call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TailKind {
    /// No marker.
    None,
    /// `tail`
    Tail,
    /// `musttail`
    MustTail,
    /// `notail`
    NoTail,
}

/// One call argument: `T [attrs] v`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arg {
    /// The type.
    pub ty: Type,
    /// Parameter attributes at the call site.
    pub attrs: Vec<Attribute>,
    /// The value.
    pub value: Value,
}

/// An operand bundle `"tag"(T v, ...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperandBundle {
    /// The tag, such as `convergencectrl` or `deopt`.
    pub tag: String,
    /// The inputs.
    pub inputs: Vec<TypedValue>,
}

/// A `call` instruction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    /// The tail-call marker.
    pub tail: TailKind,
    /// Fast-math flags.
    pub fast_math: Vec<String>,
    /// The calling convention, if written.
    pub calling_conv: Option<CallingConv>,
    /// Return attributes.
    pub ret_attrs: Vec<Attribute>,
    /// The `addrspace(N)` of the callee, if written.
    pub addrspace: Option<u32>,
    /// The return type.
    pub ret_ty: Type,
    /// The function type, when written in full (`call i32 (ptr, ...) @f`).
    pub fn_ty: Option<Type>,
    /// The callee: `Value::Global` for a direct call, a local or constant
    /// for an indirect one, `Value::InlineAsm` for inline assembly.
    pub callee: Value,
    /// The arguments.
    pub args: Vec<Arg>,
    /// Call-site function attributes, including group references `#N`.
    pub fn_attrs: Vec<Attribute>,
    /// Operand bundles.
    pub bundles: Vec<OperandBundle>,
}

/// An instruction the parser keeps generically.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Generic {
    /// The opcode as written (`fadd`, `invoke`, `atomicrmw`, ...).
    pub opcode: String,
    /// The text after the opcode up to the metadata attachments (joined
    /// with single spaces when it spans lines, comments dropped).
    pub operands: String,
    /// Local values it mentions, in order (blocks after `label` excluded).
    pub uses: Vec<Name>,
    /// Blocks it mentions after `label`, in order: the successors of a
    /// generic terminator.
    pub labels: Vec<Name>,
    /// Globals it mentions, in order.
    pub globals: Vec<Name>,
    /// Whether the opcode is a terminator (`invoke`, `resume`, `indirectbr`,
    /// `callbr`, `catchswitch`, `catchret`, `cleanupret`).
    pub terminator: bool,
}

/// `switch T v, label %default [ T c, label %dest ... ]`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Switch {
    /// The value switched on.
    pub value: TypedValue,
    /// The default destination.
    pub default: Name,
    /// The case table, in order.
    pub cases: Vec<SwitchCase>,
}

/// One `T c, label %dest` entry of a switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwitchCase {
    /// The case value.
    pub value: i128,
    /// The destination.
    pub dest: Name,
}
