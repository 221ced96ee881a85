//! LLVM types as the syntax tree keeps them.
//!
//! Covers the LangRef "Type System": the void type, integer types `iN`,
//! opaque pointers `ptr` and `ptr addrspace(N)` (the typed pointers
//! `T*` / `T addrspace(N)*` of LLVM 16 and older are read as `ptr`, since
//! opaque pointers lose nothing the mapping uses), floating-point types,
//! `label`, `token`, `metadata`, `x86_amx`/`x86_mmx`, arrays, fixed and
//! scalable vectors, literal and packed structs, named (identified) structs
//! by name, function types, and target extension types `target(...)` (kept
//! as text). [`std::fmt::Display`] prints each in LLVM's own syntax.
#![deny(unsafe_code)]

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::value::Name;

/// The floating-point types of LangRef "Floating-Point Types".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FloatKind {
    /// `half`
    Half,
    /// `bfloat`
    BFloat,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `x86_fp80`
    X86Fp80,
    /// `fp128`
    Fp128,
    /// `ppc_fp128`
    PpcFp128,
}

impl FloatKind {
    /// The keyword LLVM writes for this type.
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::Half => "half",
            FloatKind::BFloat => "bfloat",
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::X86Fp80 => "x86_fp80",
            FloatKind::Fp128 => "fp128",
            FloatKind::PpcFp128 => "ppc_fp128",
        }
    }

    pub(crate) fn from_keyword(w: &str) -> Option<FloatKind> {
        Some(match w {
            "half" => FloatKind::Half,
            "bfloat" => FloatKind::BFloat,
            "float" => FloatKind::Float,
            "double" => FloatKind::Double,
            "x86_fp80" => FloatKind::X86Fp80,
            "fp128" => FloatKind::Fp128,
            "ppc_fp128" => FloatKind::PpcFp128,
            _ => return None,
        })
    }
}

/// An LLVM type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Type {
    /// `void`
    Void,
    /// `iN`, with `1 <= N < 2^23`.
    Int(u32),
    /// `ptr` (address space 0) or `ptr addrspace(N)`.
    Ptr {
        /// The address space.
        addrspace: u32,
    },
    /// A floating-point type.
    Float(FloatKind),
    /// `label`
    Label,
    /// `token`
    Token,
    /// `metadata`
    Metadata,
    /// `x86_amx`
    X86Amx,
    /// `x86_mmx`
    X86Mmx,
    /// `[N x T]`
    Array {
        /// The element count.
        len: u64,
        /// The element type.
        elem: Box<Type>,
    },
    /// `<N x T>` or `<vscale x N x T>`.
    Vector {
        /// Whether the vector is scalable.
        scalable: bool,
        /// The (minimum) element count.
        len: u64,
        /// The element type.
        elem: Box<Type>,
    },
    /// `{ T, ... }` or the packed `<{ T, ... }>`.
    Struct {
        /// Whether the struct is packed.
        packed: bool,
        /// The field types.
        fields: Vec<Type>,
    },
    /// A named (identified) struct type `%T`; its body is in
    /// [`crate::Module::types`].
    Named(Name),
    /// `R (P, ...)`: a function type, as written before a callee.
    Function {
        /// The return type.
        ret: Box<Type>,
        /// The parameter types.
        params: Vec<Type>,
        /// Whether the function takes variable arguments (`...`).
        varargs: bool,
    },
    /// A target extension type `target("name", ...)`, kept as written.
    TargetExt(String),
}

impl Type {
    /// The bit width of an integer type.
    pub fn int_width(&self) -> Option<u32> {
        match self {
            Type::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// The address space of a pointer type.
    pub fn addrspace(&self) -> Option<u32> {
        match self {
            Type::Ptr { addrspace } => Some(*addrspace),
            _ => None,
        }
    }

    /// Whether this is `void`.
    pub fn is_void(&self) -> bool {
        matches!(self, Type::Void)
    }

    /// Whether this is a floating-point type, or a vector of one.
    pub fn is_float(&self) -> bool {
        match self {
            Type::Float(_) => true,
            Type::Vector { elem, .. } => elem.is_float(),
            _ => false,
        }
    }
}

fn list(f: &mut fmt::Formatter<'_>, items: &[Type]) -> fmt::Result {
    for (i, t) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{t}")?;
    }
    Ok(())
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Void => f.write_str("void"),
            Type::Int(n) => write!(f, "i{n}"),
            Type::Ptr { addrspace: 0 } => f.write_str("ptr"),
            Type::Ptr { addrspace } => write!(f, "ptr addrspace({addrspace})"),
            Type::Float(k) => f.write_str(k.keyword()),
            Type::Label => f.write_str("label"),
            Type::Token => f.write_str("token"),
            Type::Metadata => f.write_str("metadata"),
            Type::X86Amx => f.write_str("x86_amx"),
            Type::X86Mmx => f.write_str("x86_mmx"),
            Type::Array { len, elem } => write!(f, "[{len} x {elem}]"),
            Type::Vector {
                scalable: false,
                len,
                elem,
            } => write!(f, "<{len} x {elem}>"),
            Type::Vector {
                scalable: true,
                len,
                elem,
            } => write!(f, "<vscale x {len} x {elem}>"),
            Type::Struct { packed, fields } => {
                let (open, close) = if *packed { ("<{", "}>") } else { ("{", "}") };
                if fields.is_empty() {
                    return write!(f, "{open}{close}");
                }
                write!(f, "{open} ")?;
                list(f, fields)?;
                write!(f, " {close}")
            }
            Type::Named(n) => write!(f, "%{n}"),
            Type::Function {
                ret,
                params,
                varargs,
            } => {
                write!(f, "{ret} (")?;
                list(f, params)?;
                if *varargs {
                    f.write_str(if params.is_empty() { "..." } else { ", ..." })?;
                }
                f.write_str(")")
            }
            Type::TargetExt(text) => f.write_str(text),
        }
    }
}
