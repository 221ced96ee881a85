//! Type sizes, for the byte offsets of `getelementptr` (LangRef "Data
//! Layout").
//!
//! Integers take their store size rounded up to a power of two (`i1` and
//! `i8` one byte, `i24` four) and are aligned to it, up to eight bytes
//! (the allocation size; a load or store accesses the store size,
//! `ceil(bits / 8)` bytes, [`Layout::store_size`]);
//! pointers take the size the module's `target datalayout` gives their
//! address space (`p3:32:32` makes LDS pointers four bytes), eight bytes
//! when it says nothing (a module without a datalayout takes its triple's
//! default: amdgcn's has 32-bit LDS and private pointers);
//! floating-point types their IEEE size. Arrays are `len` elements;
//! structs lay their fields out in order, each aligned to its own
//! alignment (packed structs without padding), and their size is
//! rounded up to their alignment. Vectors, scalable and opaque types have
//! no size here: an address computed through one makes the function
//! unsupported. These are the rules of every LLVM target convcheck reads
//! (x86-64, NVPTX, AMDGPU, SPIR-V) for the types kernels use.
#![deny(unsafe_code)]

use std::collections::HashMap;

use super::{unsup, R};
use crate::module::Module;
use crate::types::{FloatKind, Type};
use crate::value::Name;

/// The module's pointer sizes and named struct types.
pub(crate) struct Layout {
    ptr_bytes: HashMap<u32, u64>,
    named: HashMap<Name, Option<Type>>,
}

/// The pointer sizes of the datalayout LLVM gives a module of `triple`
/// that states none (opt adds it to its output): amdgcn's (opt-19's and
/// opt-22's agree on them), whose LDS (3) and private (5) pointers are 32
/// bits, so that a hand-written amdgcn module and opt's output of it lay
/// their pointers out alike (review3 H16). Other targets' defaults have
/// 64-bit pointers throughout, as a module without a datalayout has here.
fn default_layout(triple: &str) -> Option<&'static str> {
    triple
        .starts_with("amdgcn")
        .then_some("e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32")
}

/// How deeply struct and array types may nest when sizing them (named
/// structs can refer to each other).
const MAX_DEPTH: usize = 64;

impl Layout {
    pub fn new(m: &Module) -> Layout {
        let mut ptr_bytes = HashMap::new();
        let written = m.datalayout.as_deref();
        let default = m.triple.as_deref().and_then(default_layout);
        for spec in written.or(default).unwrap_or("").split('-') {
            let Some(rest) = spec.strip_prefix('p') else {
                continue;
            };
            let mut parts = rest.split(':');
            let space = parts.next().unwrap_or("");
            let space: u32 = if space.is_empty() {
                0
            } else {
                match space.parse() {
                    Ok(s) => s,
                    Err(_) => continue,
                }
            };
            if let Some(Ok(bits)) = parts.next().map(str::parse::<u64>) {
                if bits > 0 && bits % 8 == 0 && bits <= 1024 {
                    ptr_bytes.insert(space, bits / 8);
                }
            }
        }
        let named = m
            .types
            .iter()
            .map(|t| (t.name.clone(), t.ty.clone()))
            .collect();
        Layout { ptr_bytes, named }
    }

    /// The size in bytes of a pointer of address space `addrspace` (8 when
    /// the datalayout says nothing).
    pub fn pointer_bytes(&self, addrspace: u32) -> u64 {
        *self.ptr_bytes.get(&addrspace).unwrap_or(&8)
    }

    /// The size in bytes of a value of `ty` in memory (its allocation size)
    /// and its alignment.
    pub fn size_align(&self, ty: &Type, line: u32) -> R<(u64, u64)> {
        self.size_align_at(ty, line, 0)
    }

    /// The number of bytes a load or store of `ty` accesses (LangRef
    /// "load": its *store size*): `ceil(bits / 8)` for an integer (`i24`
    /// three bytes, while its allocation size is four), the allocation
    /// size of any other type.
    pub fn store_size(&self, ty: &Type, line: u32) -> R<u64> {
        match self.resolve(ty) {
            Type::Int(n) => Ok(u64::from(n.div_ceil(8)).max(1)),
            _ => Ok(self.size_align(ty, line)?.0),
        }
    }

    fn size_align_at(&self, ty: &Type, line: u32, depth: usize) -> R<(u64, u64)> {
        if depth > MAX_DEPTH {
            return unsup("a type nested too deeply to lay out", line);
        }
        Ok(match ty {
            Type::Int(n) => {
                let bytes = u64::from(n.div_ceil(8)).max(1).next_power_of_two();
                (bytes, bytes.min(8))
            }
            Type::Ptr { addrspace } => {
                let b = *self.ptr_bytes.get(addrspace).unwrap_or(&8);
                (b, b)
            }
            Type::Float(k) => match k {
                FloatKind::Half | FloatKind::BFloat => (2, 2),
                FloatKind::Float => (4, 4),
                FloatKind::Double => (8, 8),
                FloatKind::X86Fp80 | FloatKind::Fp128 | FloatKind::PpcFp128 => (16, 16),
            },
            Type::Array { len, elem } => {
                let (s, a) = self.size_align_at(elem, line, depth + 1)?;
                match s.checked_mul(*len) {
                    Some(total) => (total, a),
                    None => return unsup(format!("an array type too large ({ty})"), line),
                }
            }
            Type::Struct { packed, fields } => {
                let mut off = 0u64;
                let mut align = 1u64;
                for f in fields {
                    let (s, a) = self.size_align_at(f, line, depth + 1)?;
                    let a = if *packed { 1 } else { a };
                    off = off.next_multiple_of(a);
                    off = match off.checked_add(s) {
                        Some(o) => o,
                        None => return unsup(format!("a struct type too large ({ty})"), line),
                    };
                    align = align.max(a);
                }
                (off.next_multiple_of(align), align)
            }
            Type::Named(n) => match self.named.get(n) {
                Some(Some(t)) => return self.size_align_at(t, line, depth + 1),
                _ => return unsup(format!("an opaque type (%{n})"), line),
            },
            Type::Vector { .. } => return unsup(format!("vectors ({ty})"), line),
            _ => return unsup(format!("a type without a size ({ty})"), line),
        })
    }

    /// The byte offset of field `k` of a struct type, and the field's type.
    pub fn field(&self, ty: &Type, k: i64, line: u32) -> R<(u64, Type)> {
        let (packed, fields) = match ty {
            Type::Struct { packed, fields } => (*packed, fields),
            Type::Named(n) => match self.named.get(n) {
                Some(Some(t)) => return self.field(t, k, line),
                _ => return unsup(format!("an opaque type (%{n})"), line),
            },
            _ => return unsup(format!("a field index into {ty}"), line),
        };
        let Some(want) = usize::try_from(k).ok().filter(|&k| k < fields.len()) else {
            return unsup(format!("field {k} of {ty}, which does not exist"), line);
        };
        let mut off = 0u64;
        for (i, f) in fields.iter().enumerate() {
            let (s, a) = self.size_align(f, line)?;
            let a = if packed { 1 } else { a };
            off = off.next_multiple_of(a);
            if i == want {
                return Ok((off, f.clone()));
            }
            off = off.saturating_add(s);
        }
        unsup(format!("field {k} of {ty}"), line)
    }

    /// Whether `ty` is a named struct type (to look through it).
    pub fn resolve<'a>(&'a self, ty: &'a Type) -> &'a Type {
        let mut t = ty;
        for _ in 0..MAX_DEPTH {
            match t {
                Type::Named(n) => match self.named.get(n) {
                    Some(Some(inner)) => t = inner,
                    _ => return t,
                },
                _ => return t,
            }
        }
        t
    }
}

/// The largest object of an address space of 32-bit pointers whose base
/// lies within the low 32 bits (`narrow_object_base`'s spacing).
const NARROW_OBJECT: u64 = 1 << 16;

/// Whether an object of `size` bytes (`None`: unknown) in address space
/// `addrspace` has a base within the low 32 bits
/// (`convcheck_ir::exec::memory::narrow_object_base`): where pointers of
/// that space are 32 bits wide and it fits in the spacing (review3 H16),
/// so that its address as a value (a `ptrtoint`, a stored pointer) is the
/// address. An object larger than 64 KiB in such a space keeps a 64-bit
/// base (`super::memory::base_of`): its address as a value is its offset
/// (a gap).
pub(crate) fn narrow(layout: &Layout, addrspace: u32, size: Option<u64>) -> bool {
    layout.pointer_bytes(addrspace) <= 4 && size.is_none_or(|s| s <= NARROW_OBJECT)
}

/// The base of the object named `name`, narrow or not ([`narrow`]).
pub(crate) fn base_in(name: &str, narrow: bool) -> i64 {
    if narrow {
        convcheck_ir::exec::memory::narrow_object_base(name)
    } else {
        super::memory::base_of(name)
    }
}
