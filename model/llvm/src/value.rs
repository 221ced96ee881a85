//! Names, operands and constants.
//!
//! Covers LangRef "Identifiers" (named and numbered local and global names,
//! with LLVM's implicit numbering of unnamed values and blocks made
//! explicit), "Simple Constants" (integers, `true`/`false`, floating-point
//! literals, `null`, `none`), "Undefined Values" and "Poison Values",
//! `zeroinitializer`, "Complex Constants" (arrays, vectors, structs and
//! `c"..."` strings, kept as text with the globals they mention), "Constant
//! Expressions" and `blockaddress` / `dso_local_equivalent` / `no_cfi`
//! (kept generically: opcode, text, globals mentioned), metadata operands
//! (kept as text) and inline assembly callees (kept as text).
//!
//! Integer constants are read into `i128` and must lie in
//! `-2^63 ..= 2^64-1`: every signed and unsigned 64-bit value, which is what
//! convcheck's 64-bit value model can use. Wider literals are reported as
//! errors with their location rather than wrapped. A literal is kept as
//! written (`i64 18446744073709551615` stays 2^64-1); [`sext`], [`zext`]
//! and [`TypedValue::const_sext`] give the value LLVM holds for the type.
#![deny(unsafe_code)]

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::types::Type;

/// A local or global name without its sigil: `%x` is `Named("x")`, `%7`
/// and every unnamed value or block that LLVM numbers implicitly is
/// `Numbered(7)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Name {
    /// A name written as an identifier or a quoted string (unescaped).
    Named(String),
    /// A numbered (unnamed) value, block or global.
    Numbered(u32),
}

impl Name {
    /// The name as a string, if it is not numbered.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Name::Named(s) => Some(s),
            Name::Numbered(_) => None,
        }
    }

    /// Whether this is the name `s`.
    pub fn is(&self, s: &str) -> bool {
        self.as_str() == Some(s)
    }
}

fn needs_quotes(s: &str) -> bool {
    let b = s.as_bytes();
    let first_ok = b
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'-' | b'$' | b'.' | b'_'));
    !(first_ok
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_')))
}

impl fmt::Display for Name {
    /// Prints the name as LLVM would after the sigil: quoted and escaped when
    /// it is not a plain identifier.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Name::Numbered(n) => write!(f, "{n}"),
            Name::Named(s) if !needs_quotes(s) => f.write_str(s),
            Name::Named(s) => {
                f.write_str("\"")?;
                for c in s.chars() {
                    if c == '"' || c == '\\' || c.is_control() {
                        let mut buf = [0u8; 4];
                        for b in c.encode_utf8(&mut buf).bytes() {
                            write!(f, "\\{b:02X}")?;
                        }
                    } else {
                        write!(f, "{c}")?;
                    }
                }
                f.write_str("\"")
            }
        }
    }
}

/// A constant expression or other constant with operands, kept generically.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConstExpr {
    /// The keyword: `getelementptr`, `addrspacecast`, `blockaddress`, ...
    pub opcode: String,
    /// The whole expression as written (whitespace-normalised when it spans
    /// lines).
    pub text: String,
    /// The globals mentioned anywhere inside, in order of appearance.
    pub globals: Vec<Name>,
    /// Its operands, read by the parser: `None` for the expressions
    /// [`ConstOp`] does not cover (`blockaddress`, `icmp`, `select`, ...).
    pub op: Option<Box<ConstOp>>,
}

/// The structure of a constant expression, as [`ConstExpr::structure`]
/// reads it: the forms that compute addresses and integers. Operands that
/// are themselves constant expressions stay [`Value::ConstExpr`], to be read
/// the same way.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConstOp {
    /// `getelementptr [flags] (T, ptr base, idx...)`
    Gep {
        /// `inbounds`, `nusw`, `nuw`, `inrange(a, b)`, as written.
        flags: Vec<String>,
        /// The source element type.
        source_ty: Type,
        /// The base address.
        base: TypedValue,
        /// The indices.
        indices: Vec<TypedValue>,
    },
    /// `addrspacecast (ptr addrspace(3) @g to ptr)` and the other casts.
    Cast {
        /// The conversion.
        op: crate::inst::CastOp,
        /// The operand.
        value: TypedValue,
        /// The result type.
        to: Type,
    },
    /// `add (i64 a, i64 b)` and the other binary operators.
    Binary {
        /// The operation.
        op: crate::inst::BinOp,
        /// The left operand.
        lhs: TypedValue,
        /// The right operand.
        rhs: TypedValue,
    },
}

impl ConstExpr {
    /// The expression's operands: `None` for the expressions [`ConstOp`]
    /// does not cover (`blockaddress`, `icmp`, `select`, ...).
    pub fn structure(&self) -> Option<ConstOp> {
        self.op.as_deref().cloned()
    }
}

/// An operand or constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Value {
    /// A local value, parameter or (after `label`) block: `%x`, `%3`.
    Local(Name),
    /// A global variable or function: `@g`.
    Global(Name),
    /// An integer literal; `true` is 1 and `false` is 0.
    Int(i128),
    /// A floating-point literal, as written.
    Float(String),
    /// `null`
    Null,
    /// `undef`
    Undef,
    /// `poison`
    Poison,
    /// `zeroinitializer`
    ZeroInitializer,
    /// `none` (the token constant).
    None,
    /// An array, vector, struct or `c"..."` constant, as written, with the
    /// globals it mentions.
    Aggregate {
        /// The constant as written.
        text: String,
        /// The globals mentioned inside, in order of appearance.
        globals: Vec<Name>,
    },
    /// A constant expression.
    ConstExpr(ConstExpr),
    /// A metadata operand (`metadata !0`, `metadata !DIExpression()`), as
    /// written.
    Metadata(String),
    /// An inline assembly callee `asm sideeffect "..." , "..."`, as written.
    InlineAsm(String),
}

impl Value {
    /// The local name, if this is a local value.
    pub fn as_local(&self) -> Option<&Name> {
        match self {
            Value::Local(n) => Some(n),
            _ => None,
        }
    }

    /// The global name, if this is a global.
    pub fn as_global(&self) -> Option<&Name> {
        match self {
            Value::Global(n) => Some(n),
            _ => None,
        }
    }

    /// The integer, if this is an integer literal.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Value::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// Every global this value mentions, including inside constant
    /// expressions and aggregates.
    pub fn globals(&self) -> Vec<&Name> {
        match self {
            Value::Global(n) => vec![n],
            Value::Aggregate { globals, .. } => globals.iter().collect(),
            Value::ConstExpr(c) => c.globals.iter().collect(),
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Local(n) => write!(f, "%{n}"),
            Value::Global(n) => write!(f, "@{n}"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Float(t) | Value::Metadata(t) | Value::InlineAsm(t) => f.write_str(t),
            Value::Null => f.write_str("null"),
            Value::Undef => f.write_str("undef"),
            Value::Poison => f.write_str("poison"),
            Value::ZeroInitializer => f.write_str("zeroinitializer"),
            Value::None => f.write_str("none"),
            Value::Aggregate { text, .. } => f.write_str(text),
            Value::ConstExpr(c) => f.write_str(&c.text),
        }
    }
}

/// `v` truncated to `width` bits and sign-extended: the value LLVM's
/// `ConstantInt::getSExtValue` gives (`i8 255` is -1, `i1 true` is -1).
/// Widths of 128 bits and more leave `v` unchanged.
pub fn sext(v: i128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return v;
    }
    let shift = 128 - width;
    (v << shift) >> shift
}

/// `v` truncated to `width` bits, read as unsigned: LLVM's
/// `ConstantInt::getZExtValue` (`i8 -1` is 255, `i1 true` is 1). Widths of
/// 128 bits and more leave `v` unchanged.
pub fn zext(v: i128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return v;
    }
    v & ((1i128 << width) - 1)
}

/// An operand with its type, as most operands are written: `i32 %x`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TypedValue {
    /// The type.
    pub ty: Type,
    /// The value.
    pub value: Value,
}

impl TypedValue {
    /// The integer constant as LLVM holds it for this type, sign-extended
    /// (see [`sext`]); `None` unless this is an integer literal of an
    /// integer type. [`Value::Int`] keeps the literal as written, so
    /// `i64 18446744073709551615` and `i64 -1` differ there but not here.
    pub fn const_sext(&self) -> Option<i128> {
        Some(sext(self.value.as_int()?, self.ty.int_width()?))
    }
}

impl fmt::Display for TypedValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.ty, self.value)
    }
}
