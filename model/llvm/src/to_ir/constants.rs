//! The bytes of a constant global's initializer (DESIGN.md 2.6: constant
//! memory returns its initializer), little-endian, laid out as
//! [`super::layout`] lays out its type.
//!
//! The initializer is kept as text by the reader (`Value::Aggregate`); this
//! module reads the constants kernels use for lookup tables: integers,
//! `true`/`false`, `null`, `zeroinitializer`, `c"..."` strings, arrays and
//! structs of those, nested, and the address of a global (`ptr @g`, its
//! base). `undef` and `poison` bytes are `None` (no value: a load of them
//! reads a free value). Floats are their bit patterns
//! ([`super::floats::literal`]). Anything else (constant expressions
//! inside an aggregate, vectors) is `None` for the whole initializer, so a
//! load from it is a free value, never a wrong constant.
#![deny(unsafe_code)]

use convcheck_ir::{Expr, OracleClass};

use super::func::{value_type, FnMapper};
use super::layout::Layout;
use super::memory::GlobalInfo;
use super::values::{sext, zext, Norm};
use super::{unsup, R};
use crate::inst::CastOp;
use crate::types::Type;
use crate::value::Value;

/// One byte of an initializer: `None` where the initializer is `undef` or
/// `poison`.
pub(crate) type Byte = Option<u8>;

/// The most bytes a table may have for its loads to be read from it.
pub(crate) const MAX_TABLE_BYTES: u64 = 1 << 16;

/// The bytes of `value`, an initializer of type `ty`; `None` when some part
/// is not understood. `base` gives a global's address.
pub(crate) fn bytes(
    layout: &Layout,
    ty: &Type,
    value: &Value,
    base: &dyn Fn(&str) -> Option<i64>,
) -> Option<Vec<Byte>> {
    let (size, _) = layout.size_align(ty, 0).ok()?;
    if size > MAX_TABLE_BYTES {
        return None;
    }
    let mut out = vec![Some(0u8); size as usize];
    let c = match value {
        Value::Aggregate { text, .. } => Const::parse(text)?,
        Value::Int(i) => Const::Int(*i),
        Value::Float(f) => Const::Float(f.clone()),
        Value::Null | Value::ZeroInitializer => Const::Zero,
        Value::Undef | Value::Poison => Const::Undef,
        Value::Global(g) => Const::Global(g.to_string()),
        _ => return None,
    };
    write(layout, ty, &c, &mut out, 0, base, 0)?;
    Some(out)
}

/// A constant as written.
#[derive(Debug)]
enum Const {
    Int(i128),
    /// A floating-point literal, as written.
    Float(String),
    Zero,
    Undef,
    Str(Vec<u8>),
    Global(String),
    /// Elements, each with its type's text skipped.
    List(Vec<Const>),
}

fn write(
    layout: &Layout,
    ty: &Type,
    c: &Const,
    out: &mut [Byte],
    at: usize,
    base: &dyn Fn(&str) -> Option<i64>,
    depth: usize,
) -> Option<()> {
    if depth > 64 {
        return None;
    }
    let (size, _) = layout.size_align(ty, 0).ok()?;
    let size = size as usize;
    let slot = out.get_mut(at..at + size)?;
    match c {
        Const::Zero => slot.iter_mut().for_each(|b| *b = Some(0)),
        Const::Undef => slot.iter_mut().for_each(|b| *b = None),
        Const::Int(v) => {
            if !matches!(ty, Type::Int(_)) {
                return None;
            }
            for (i, b) in slot.iter_mut().enumerate() {
                *b = Some(((*v as u128) >> (8 * i.min(15))) as u8);
            }
        }
        Const::Float(text) => {
            let Type::Float(k) = layout.resolve(ty) else {
                return None;
            };
            let v = super::floats::literal(*k, text)?;
            for (i, b) in slot.iter_mut().enumerate() {
                *b = Some((v >> (8 * i.min(7))) as u8);
            }
        }
        Const::Global(g) => {
            if !matches!(ty, Type::Ptr { .. }) {
                return None;
            }
            let v = base(g)?;
            for (i, b) in slot.iter_mut().enumerate() {
                *b = Some(((v as u64) >> (8 * i.min(7))) as u8);
            }
        }
        Const::Str(bytes) => {
            let Type::Array { elem, .. } = layout.resolve(ty) else {
                return None;
            };
            if **elem != Type::Int(8) || bytes.len() != size {
                return None;
            }
            for (b, v) in slot.iter_mut().zip(bytes) {
                *b = Some(*v);
            }
        }
        Const::List(items) => match layout.resolve(ty).clone() {
            Type::Array { len, elem } => {
                if items.len() as u64 != len {
                    return None;
                }
                let (esize, _) = layout.size_align(&elem, 0).ok()?;
                for (k, item) in items.iter().enumerate() {
                    write(
                        layout,
                        &elem,
                        item,
                        out,
                        at + k * esize as usize,
                        base,
                        depth + 1,
                    )?;
                }
            }
            s @ Type::Struct { .. } => {
                let Type::Struct { fields, .. } = &s else {
                    return None;
                };
                if items.len() != fields.len() {
                    return None;
                }
                for (k, item) in items.iter().enumerate() {
                    let (off, fty) = layout.field(&s, k as i64, 0).ok()?;
                    write(layout, &fty, item, out, at + off as usize, base, depth + 1)?;
                }
            }
            _ => return None,
        },
    }
    Some(())
}

impl Const {
    /// Reads a constant's text (`[i32 1, i32 2]`, `{ i8 1, [2 x i16] zeroinitializer }`,
    /// `c"ab\00"`).
    fn parse(text: &str) -> Option<Const> {
        let toks = tokens(text)?;
        let mut p = Parser { toks, at: 0 };
        let c = p.value(0)?;
        (p.at == p.toks.len()).then_some(c)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Str(Vec<u8>),
    Punct(char),
}

fn tokens(text: &str) -> Option<Vec<Tok>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'c' && b.get(i + 1) == Some(&b'"') {
            i += 2;
            let mut s = Vec::new();
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                    s.push(u8::from_str_radix(hex, 16).ok()?);
                    i += 3;
                } else {
                    s.push(b[i]);
                    i += 1;
                }
            }
            i += 1;
            out.push(Tok::Str(s));
        } else if b"[]{}<>(),".contains(&c) {
            out.push(Tok::Punct(c as char));
            i += 1;
        } else {
            let start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && !b"[]{}<>(),".contains(&b[i]) {
                i += 1;
            }
            out.push(Tok::Word(text[start..i].to_string()));
        }
    }
    Some(out)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Skips one type: `i32`, `ptr`, `ptr addrspace(3)`, `[4 x i8]`,
    /// `{ i32, i8 }`, `<{ i8 }>`, `%struct.S`.
    fn skip_type(&mut self) -> Option<()> {
        match self.peek()?.clone() {
            Tok::Word(w) if w == "ptr" => {
                self.at += 1;
                if self.peek() == Some(&Tok::Word("addrspace".into())) {
                    self.at += 1;
                    self.skip_group('(', ')')?;
                }
            }
            Tok::Word(w)
                if w.starts_with('i')
                    || w.starts_with('%')
                    || matches!(w.as_str(), "half" | "bfloat" | "float" | "double") =>
            {
                self.at += 1
            }
            Tok::Punct('[') => self.skip_group('[', ']')?,
            Tok::Punct('{') => self.skip_group('{', '}')?,
            Tok::Punct('<') => self.skip_group('<', '>')?,
            _ => return None,
        }
        Some(())
    }

    fn skip_group(&mut self, open: char, close: char) -> Option<()> {
        let mut depth = 0usize;
        loop {
            let t = self.peek()?.clone();
            self.at += 1;
            if t == Tok::Punct(open) {
                depth += 1;
            } else if t == Tok::Punct(close) {
                depth -= 1;
                if depth == 0 {
                    return Some(());
                }
            }
        }
    }

    fn value(&mut self, depth: usize) -> Option<Const> {
        if depth > 64 {
            return None;
        }
        let t = self.peek()?.clone();
        Some(match t {
            Tok::Str(s) => {
                self.at += 1;
                Const::Str(s)
            }
            Tok::Punct('[') => {
                self.at += 1;
                self.list(']', depth)?
            }
            Tok::Punct('{') => {
                self.at += 1;
                self.list('}', depth)?
            }
            Tok::Punct('<') => {
                self.at += 1;
                if !self.eat('{') {
                    return None;
                }
                let c = self.list('}', depth)?;
                self.eat('>').then_some(c)?
            }
            Tok::Word(w) => {
                self.at += 1;
                match w.as_str() {
                    "true" => Const::Int(1),
                    "false" => Const::Int(0),
                    "null" | "zeroinitializer" => Const::Zero,
                    "undef" | "poison" => Const::Undef,
                    _ if w.starts_with('@') => Const::Global(w[1..].trim_matches('"').to_string()),
                    _ => match w.parse::<i128>() {
                        Ok(v) => Const::Int(v),
                        // A float literal: decimal with a `.` or an
                        // exponent, or LLVM's hexadecimal forms.
                        Err(_)
                            if w.contains(['.', 'e'])
                                || w.trim_start_matches('-').starts_with("0x") =>
                        {
                            Const::Float(w)
                        }
                        Err(_) => return None,
                    },
                }
            }
            _ => return None,
        })
    }

    /// Elements `TYPE VALUE, ...` up to `close`.
    fn list(&mut self, close: char, depth: usize) -> Option<Const> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Some(Const::List(items));
        }
        loop {
            self.skip_type()?;
            items.push(self.value(depth + 1)?);
            if self.eat(close) {
                return Some(Const::List(items));
            }
            if !self.eat(',') {
                return None;
            }
        }
    }
}

impl FnMapper<'_> {
    /// An integer constant expression (`ptrtoint`, `add`, casts of them).
    pub(super) fn const_int(
        &mut self,
        c: &crate::value::ConstExpr,
        w: u32,
        line: u32,
        depth: u32,
    ) -> R<Expr> {
        use crate::value::ConstOp;
        if depth > 16 {
            return unsup("a constant expression nested too deeply", line);
        }
        let Some(op) = c.structure() else {
            return unsup(format!("the constant expression '{}'", c.opcode), line);
        };
        let _ = w;
        match op {
            ConstOp::Cast {
                op: CastOp::PtrToInt,
                value,
                ..
            } => Ok(self.ptr_lin(&value.value, line, depth + 1)?.expr()),
            ConstOp::Cast {
                op: op @ (CastOp::Trunc | CastOp::ZExt | CastOp::SExt | CastOp::BitCast),
                value,
                ..
            } => {
                let n = value_type(&value.ty, "a constant cast", line)?;
                let inner = match &value.value {
                    Value::ConstExpr(ce) => self.const_int(ce, n, line, depth + 1)?,
                    v => self.value(v, &value.ty, line)?,
                };
                Ok(match op {
                    CastOp::ZExt => zext(inner, n, Norm::default()),
                    CastOp::SExt => sext(inner, n, Norm::default()),
                    _ => inner,
                })
            }
            ConstOp::Binary { op, lhs, .. } if !matches!(lhs.ty, Type::Int(_)) => {
                unsup(format!("the constant expression '{}'", op.keyword()), line)
            }
            ConstOp::Binary { op, lhs, rhs } => {
                let n = value_type(&lhs.ty, "a constant", line)?;
                let e = self.binary(op, &lhs.ty, &lhs.value, &rhs.value, n, line)?;
                Ok(e)
            }
            _ => unsup(format!("the constant expression '{}'", c.opcode), line),
        }
    }
}

impl FnMapper<'_> {
    /// The value a load of `size` bytes at `addr` reads from the constant
    /// `g`: the initializer's bytes at each offset a load of that width
    /// may start at (a chain of selects), and for an address outside it,
    /// an unaligned one, or bytes the initializer leaves `undef`, a free
    /// value (the varying oracle `NAME[?]`). Of a table it cannot read
    /// (`g.table` is `None`), a read at a known offset `k` is the value
    /// `NAME[k]:SIZE`, one for the whole run (uniform and invariant: the
    /// constant's bytes there), so reads of two elements are two values;
    /// at an address it cannot tell, `None`: the caller reads memory.
    pub(super) fn table_read(
        &mut self,
        g: &GlobalInfo,
        name: &str,
        addr: Expr,
        size: u64,
        span: convcheck_ir::Span,
    ) -> Option<Expr> {
        let Some(table) = &g.table else {
            let Expr::Const(a) = addr else {
                return None;
            };
            let k = a.wrapping_sub(g.base);
            // The initializer's hash: another initializer, another value
            // (review3 H11; empty for a name that is no constant global).
            let tag = super::call_reads::constants_tag(self.ctx.m, Some(&[name.to_string()]));
            let o = self.t.oracle(
                &format!("{name}[{k}]:{size}{tag}"),
                OracleClass::UniformInvariant,
                span,
            );
            return Some(Expr::Oracle(o));
        };
        let other = Expr::Oracle(
            self.t
                .oracle(&format!("{name}[?]"), OracleClass::Varying, span),
        );
        let size = size.clamp(1, 8) as usize;
        let at = |k: usize| -> Option<i64> {
            let bytes = table.get(k..k + size)?;
            let mut v: u64 = 0;
            for (i, b) in bytes.iter().enumerate() {
                v |= u64::from((*b)?) << (8 * i);
            }
            Some(v as i64)
        };
        if let Expr::Const(a) = addr {
            let k = a.wrapping_sub(g.base);
            return Some(
                usize::try_from(k)
                    .ok()
                    .and_then(at)
                    .map_or(other, Expr::Const),
            );
        }
        let mut e = other;
        let mut k = table.len().saturating_sub(size) / size * size;
        loop {
            if let Some(v) = at(k) {
                let here = super::values::bin(
                    convcheck_ir::BinOp::Eq,
                    addr.clone(),
                    Expr::Const(g.base.wrapping_add(k as i64)),
                );
                e = Expr::Select(Box::new(here), Box::new(Expr::Const(v)), Box::new(e));
            }
            if k < size {
                break;
            }
            k -= size;
        }
        Some(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_parse_to_elements() {
        assert!(matches!(Const::parse("[i32 1, i32 -2]"), Some(Const::List(v)) if v.len() == 2));
        assert!(matches!(
            Const::parse("{ i8 1, [2 x i16] zeroinitializer, ptr @g }"),
            Some(Const::List(v)) if v.len() == 3
        ));
        assert!(matches!(Const::parse("c\"ab\\00\""), Some(Const::Str(s)) if s == b"ab\0"));
        assert!(
            matches!(Const::parse("[float 1.0, float 0x3FB99999A0000000]"), Some(Const::List(v)) if v.len() == 2)
        );
        assert!(Const::parse("[i32 1, i32 ptrtoint (ptr @g to i32)]").is_none());
    }
}
