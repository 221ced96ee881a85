//! Floating-point instructions, intrinsics and constants (docs/src/llvm.md,
//! "Floating point"; the arithmetic itself is `convcheck_ir::float`).
//!
//! A float is its bit pattern ([`super::values`]' width rule with the
//! format's width). The reader keeps `fadd`, `fcmp`, `fptosi`, ... as
//! generic instructions with their operand text; this module reads that
//! text and builds the exact operation. Fast-math flags:
//! - `contract` on an `fadd`/`fsub` whose operand is an `fmul` that also
//!   has it: the pair is evaluated fused, as `llvm.fma` (LangRef lets the
//!   optimizer fuse it; the model takes the fused value in both programs,
//!   so a target that fuses agrees, and a target that drops the flags and
//!   keeps the two roundings is reported). `llvm.fmuladd` is fused too.
//! - `reassoc`, `arcp`, `afn`, `nnan`, `ninf`, `nsz`, `fast`: the values
//!   they allow are not modelled, so the function is outside the model
//!   (inconclusive, named), never compared as exact.
#![deny(unsafe_code)]

use convcheck_ir::float::{FBin, FPred, FTy, FUn};
use convcheck_ir::{BinOp as IrBin, Expr, Inst, InstKind, OracleInfo, UnOp};

use super::func::FnMapper;
use super::{unsup, R};
use crate::inst::{Call, Generic, InstKind as K, Instruction};
use crate::lexer::{lex, Tok};
use crate::types::{FloatKind, Type};
use crate::value::{Name, Value};

/// The opcodes this module maps.
pub(crate) const OPCODES: [&str; 13] = [
    "fneg", "fadd", "fsub", "fmul", "fdiv", "frem", "fcmp", "fptrunc", "fpext", "fptoui", "fptosi",
    "uitofp", "sitofp",
];

/// The format of a type, if it is one the model computes on.
pub(crate) fn fty(ty: &Type) -> Option<FTy> {
    match ty {
        Type::Float(FloatKind::Half) => Some(FTy::Half),
        Type::Float(FloatKind::BFloat) => Some(FTy::BFloat),
        Type::Float(FloatKind::Float) => Some(FTy::Float),
        Type::Float(FloatKind::Double) => Some(FTy::Double),
        _ => None,
    }
}

/// The bits of a floating-point literal as LLVM writes it for `kind`:
/// decimal (`1.0`, `-2.5e+00`), `0x` followed by 16 hex digits (a double's
/// bits, also for `float` and `half`, whose value it must be), `0xH` (half
/// bits), `0xR` (bfloat bits). A NaN keeps its sign and payload (a
/// `float` NaN written as a double's bits has its payload in the double's
/// top fraction bits, as LLVM's `APFloat` widens it).
pub(crate) fn literal(kind: FloatKind, text: &str) -> Option<u64> {
    let t = fty(&Type::Float(kind))?;
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let bits = if let Some(h) = body.strip_prefix("0xH") {
        (t == FTy::Half).then(|| u64::from_str_radix(h, 16).ok())??
    } else if let Some(h) = body.strip_prefix("0xR") {
        (t == FTy::BFloat).then(|| u64::from_str_radix(h, 16).ok())??
    } else if let Some(h) = body.strip_prefix("0x") {
        if h.starts_with(['K', 'L', 'M']) {
            return None;
        }
        let d = u64::from_str_radix(h, 16).ok()?;
        if FTy::Double.is_nan(d) {
            convcheck_ir::float::convert_nan(FTy::Double, t, d)
        } else {
            t.round(f64::from_bits(d))
        }
    } else {
        t.round(body.parse::<f64>().ok()?)
    };
    Some(if neg { bits ^ t.sign_bit() } else { bits })
}

/// The values path enumeration tries for a free float of `t`.
pub(crate) fn domain(t: FTy) -> Vec<i64> {
    convcheck_ir::float::interesting(t)
}

/// One token of an operand text.
struct Word<'a> {
    kind: Tok,
    text: &'a str,
}

/// The operand text of a generic instruction, read word by word.
struct Operands<'a> {
    words: Vec<Word<'a>>,
    at: usize,
    /// The locals the text mentions, in order.
    locals: std::slice::Iter<'a, Name>,
}

impl<'a> Operands<'a> {
    fn new(g: &'a Generic) -> Option<Operands<'a>> {
        let toks = lex(&g.operands, "").ok()?;
        let words = toks
            .iter()
            .filter(|t| t.kind != Tok::Eof)
            .map(|t| Word {
                kind: t.kind,
                text: &g.operands[t.start as usize..t.end as usize],
            })
            .collect();
        Some(Operands {
            words,
            at: 0,
            locals: g.uses.iter(),
        })
    }

    fn peek(&self) -> Option<&Word<'a>> {
        self.words.get(self.at)
    }

    fn word(&mut self) -> Option<&'a str> {
        let w = self.words.get(self.at)?;
        (w.kind == Tok::Word).then(|| {
            self.at += 1;
            w.text
        })
    }

    /// Flags before the type: fast-math flags, `nneg`.
    fn flags(&mut self) -> Vec<&'a str> {
        let mut out = Vec::new();
        while let Some(w) = self.peek() {
            if w.kind == Tok::Word
                && matches!(
                    w.text,
                    "fast"
                        | "nnan"
                        | "ninf"
                        | "nsz"
                        | "arcp"
                        | "contract"
                        | "afn"
                        | "reassoc"
                        | "nneg"
                )
            {
                out.push(w.text);
                self.at += 1;
            } else {
                break;
            }
        }
        out
    }

    fn ty(&mut self) -> Option<Type> {
        let w = self.word()?;
        if let Some(k) = FloatKind::from_keyword(w) {
            return Some(Type::Float(k));
        }
        let n: u32 = w.strip_prefix('i')?.parse().ok()?;
        Some(Type::Int(n))
    }

    fn comma(&mut self) -> Option<()> {
        (self.peek()?.kind == Tok::Comma).then(|| self.at += 1)
    }

    fn value(&mut self) -> Option<Value> {
        let w = self.peek()?;
        let v = match w.kind {
            Tok::Local => Value::Local(self.locals.next()?.clone()),
            Tok::Float => Value::Float(w.text.to_string()),
            Tok::Int => Value::Int(w.text.parse().ok()?),
            Tok::Word => match w.text {
                "undef" => Value::Undef,
                "poison" => Value::Poison,
                "zeroinitializer" => Value::ZeroInitializer,
                "true" => Value::Int(1),
                "false" => Value::Int(0),
                _ => return None,
            },
            _ => return None,
        };
        self.at += 1;
        Some(v)
    }

    fn done(&self) -> bool {
        self.at == self.words.len()
    }
}

/// Rejects the fast-math flags whose values the model does not compute.
fn check_flags(flags: &[&str], line: u32) -> R<()> {
    match flags.iter().find(|f| !matches!(**f, "contract" | "nneg")) {
        Some(f) => unsup(
            format!("floating point with the fast-math flag '{f}' (the values it allows are not modelled)"),
            line,
        ),
        None => Ok(()),
    }
}

/// `fma(a, b, c)` of `float`: `Fma32(a, (b << 32) | c)`.
fn fma32(a: Expr, b: Expr, c: Expr) -> Expr {
    let hi = Expr::binary(IrBin::Shl, b, Expr::Const(32));
    let lo = Expr::Unary(UnOp::ZExt(32), Box::new(c));
    Expr::binary(IrBin::F(FBin::Fma32), a, Expr::binary(IrBin::BitOr, hi, lo))
}

fn un(op: FUn, a: Expr) -> Expr {
    match a {
        Expr::Const(c) => Expr::Const(convcheck_ir::expr::unary(UnOp::F(op), c)),
        a => Expr::Unary(UnOp::F(op), Box::new(a)),
    }
}

fn bin(op: FBin, a: Expr, b: Expr) -> Expr {
    super::values::bin(IrBin::F(op), a, b)
}

impl<'a> FnMapper<'a> {
    /// A float operand of format `t`.
    pub(crate) fn fvalue(&mut self, v: &Value, t: FTy, ty: &Type, line: u32) -> R<Expr> {
        let e = self.value(v, ty, line)?;
        Ok(match (v, &e) {
            // A parameter enters the model as a float, its bits kept.
            (Value::Local(n), Expr::Var(_)) if self.f.params.iter().any(|p| &p.name == n) => {
                un(FUn::Bits(t), e)
            }
            _ => e,
        })
    }

    /// A float constant of type `ty`.
    pub(crate) fn float_const(&self, text: &str, ty: &Type, line: u32) -> R<Expr> {
        match ty {
            Type::Float(k) => match literal(*k, text) {
                Some(b) => Ok(Expr::Const(b as i64)),
                None => unsup(format!("the {} constant {text}", k.keyword()), line),
            },
            _ => unsup(
                format!("the floating-point constant {text} of type {ty}"),
                line,
            ),
        }
    }

    /// The `fmul` with `contract` that defines `v`, if any: its operands.
    fn contracted_mul(&self, v: &Value) -> Option<(Value, Value, Type)> {
        let d = self.defs.get(v.as_local()?)?;
        let K::Generic(g) = &d.kind else { return None };
        if g.opcode != "fmul" {
            return None;
        }
        let mut o = Operands::new(g)?;
        let flags = o.flags();
        if !flags.contains(&"contract") {
            return None;
        }
        let ty = o.ty()?;
        let a = o.value()?;
        o.comma()?;
        let b = o.value()?;
        Some((a, b, ty))
    }

    /// Maps a floating-point instruction; `false` if `g` is not one.
    pub(crate) fn float_inst(
        &mut self,
        inst: &Instruction,
        g: &Generic,
        out: &mut Vec<Inst>,
    ) -> R<bool> {
        if !OPCODES.contains(&g.opcode.as_str()) {
            return Ok(false);
        }
        let line = inst.line();
        let op = g.opcode.as_str();
        let bad = || {
            unsup(
                format!(
                    "floating point ('{op}' {})",
                    super::func::short(&g.operands)
                ),
                line,
            )
        };
        let Some(mut o) = Operands::new(g) else {
            return bad();
        };
        let flags = o.flags();
        check_flags(&flags, line)?;
        let pred = if op == "fcmp" {
            match o.word().and_then(FPred::from_name) {
                Some(p) => Some(p),
                None => return bad(),
            }
        } else {
            None
        };
        let Some(ty) = o.ty() else { return bad() };
        if matches!(ty, Type::Float(_)) && fty(&ty).is_none() {
            return unsup(format!("floating point ('{op}' of type {ty})"), line);
        }
        let Some(a) = o.value() else { return bad() };
        let e = match op {
            "fneg" => {
                let Some(t) = fty(&ty) else { return bad() };
                let x = self.fvalue(&a, t, &ty, line)?;
                un(FUn::Neg(t), x)
            }
            "fptrunc" | "fpext" | "fptoui" | "fptosi" | "uitofp" | "sitofp" => {
                if o.word() != Some("to") {
                    return bad();
                }
                let Some(to) = o.ty() else { return bad() };
                let width = |t: &Type| match t {
                    Type::Int(n) if *n <= 64 => Some(*n as u8),
                    _ => None,
                };
                match (op, fty(&ty), fty(&to), width(&ty), width(&to)) {
                    ("fptrunc" | "fpext", Some(f), Some(t), _, _) => {
                        let x = self.fvalue(&a, f, &ty, line)?;
                        un(FUn::Convert(f, t), x)
                    }
                    ("fptosi" | "fptoui", Some(f), None, _, Some(n)) if f != FTy::BFloat => {
                        let x = self.fvalue(&a, f, &ty, line)?;
                        let u = if op == "fptosi" {
                            FUn::ToSi(f, n)
                        } else {
                            FUn::ToUi(f, n)
                        };
                        un(u, x)
                    }
                    ("sitofp" | "uitofp", None, Some(t), Some(n), _) if t != FTy::BFloat => {
                        let x = self.value(&a, &ty, line)?;
                        let u = if op == "sitofp" {
                            FUn::FromSi(n, t)
                        } else {
                            FUn::FromUi(n, t)
                        };
                        un(u, x)
                    }
                    _ => return bad(),
                }
            }
            _ => {
                let Some(t) = fty(&ty) else { return bad() };
                if o.comma().is_none() {
                    return bad();
                }
                let Some(b) = o.value() else { return bad() };
                if let Some(p) = pred {
                    let x = self.fvalue(&a, t, &ty, line)?;
                    let y = self.fvalue(&b, t, &ty, line)?;
                    bin(FBin::Cmp(p, t), x, y)
                } else {
                    self.arith(op, &flags, t, &ty, &a, &b, line)?
                }
            }
        };
        if !o.done() {
            return bad();
        }
        self.set(inst, op, e, out)?;
        Ok(true)
    }

    /// `fadd`, `fsub`, `fmul`, `fdiv`, `frem` of `a` and `b`.
    #[allow(clippy::too_many_arguments)]
    fn arith(
        &mut self,
        op: &str,
        flags: &[&str],
        t: FTy,
        ty: &Type,
        a: &Value,
        b: &Value,
        line: u32,
    ) -> R<Expr> {
        // A contracted `fmul` feeding a contracted `fadd`/`fsub`: fused.
        if flags.contains(&"contract") && matches!(op, "fadd" | "fsub") {
            let mul = |s: &Self, v: &Value| s.contracted_mul(v).filter(|m| m.2 == *ty);
            let fused = match (mul(self, a), mul(self, b)) {
                (Some(m), _) => Some((m, b.clone(), false)),
                (None, Some(m)) if op == "fadd" => Some((m, a.clone(), false)),
                (None, Some(m)) => Some((m, a.clone(), true)),
                _ => None,
            };
            if let Some(((x, y, _), c, negate_product)) = fused {
                if t != FTy::Float {
                    return unsup(
                        format!("the contraction of a {} multiply-add", t.name()),
                        line,
                    );
                }
                let x = self.fvalue(&x, t, ty, line)?;
                let x = if negate_product {
                    un(FUn::Neg(t), x)
                } else {
                    x
                };
                let y = self.fvalue(&y, t, ty, line)?;
                let c = self.fvalue(&c, t, ty, line)?;
                let c = if op == "fsub" && !negate_product {
                    un(FUn::Neg(t), c)
                } else {
                    c
                };
                return Ok(fma32(x, y, c));
            }
        }
        let x = self.fvalue(a, t, ty, line)?;
        let y = self.fvalue(b, t, ty, line)?;
        let f = match op {
            "fadd" => FBin::Add(t),
            "fsub" => FBin::Sub(t),
            "fmul" => FBin::Mul(t),
            "fdiv" => FBin::Div(t),
            _ => FBin::Rem(t),
        };
        Ok(bin(f, x, y))
    }

    /// Maps a call to a floating-point intrinsic; `false` if `c` calls
    /// something else.
    pub(crate) fn float_call(
        &mut self,
        inst: &Instruction,
        c: &Call,
        out: &mut Vec<Inst>,
    ) -> R<bool> {
        let Some(callee) = c.callee.as_global() else {
            return Ok(false);
        };
        if self
            .ctx
            .m
            .function_by_name(callee)
            .is_some_and(|f| f.is_definition)
        {
            return Ok(false);
        }
        let name = super::plain(callee);
        let base = name.rsplit_once('.').map_or(name.as_str(), |(b, _)| b);
        let nvvm = |n: &str| -> Option<(&'static str, FTy)> {
            Some(match n {
                "llvm.nvvm.fabs.f" | "llvm.nvvm.fabs.ftz.f" => ("fabs", FTy::Float),
                "llvm.nvvm.fabs.d" => ("fabs", FTy::Double),
                "llvm.nvvm.sqrt.rn.f" | "llvm.nvvm.sqrt.f" => ("sqrt", FTy::Float),
                "llvm.nvvm.sqrt.rn.d" => ("sqrt", FTy::Double),
                "llvm.nvvm.fma.rn.f" => ("fma", FTy::Float),
                "llvm.nvvm.add.rn.f" => ("fadd", FTy::Float),
                "llvm.nvvm.add.rn.d" => ("fadd", FTy::Double),
                "llvm.nvvm.mul.rn.f" => ("fmul", FTy::Float),
                "llvm.nvvm.mul.rn.d" => ("fmul", FTy::Double),
                "llvm.nvvm.div.rn.f" => ("fdiv", FTy::Float),
                "llvm.nvvm.div.rn.d" => ("fdiv", FTy::Double),
                "llvm.nvvm.fmin.f" => ("minnum", FTy::Float),
                "llvm.nvvm.fmax.f" => ("maxnum", FTy::Float),
                "llvm.nvvm.fmin.d" => ("minnum", FTy::Double),
                "llvm.nvvm.fmax.d" => ("maxnum", FTy::Double),
                _ => return None,
            })
        };
        let (what, t) = match nvvm(&name) {
            Some(x) => x,
            None => {
                let what = match base {
                    "llvm.fabs" => "fabs",
                    "llvm.sqrt" => "sqrt",
                    "llvm.fma" => "fma",
                    "llvm.fmuladd" => "fma",
                    "llvm.minnum" => "minnum",
                    "llvm.maxnum" => "maxnum",
                    "llvm.minimum" => "minimum",
                    "llvm.maximum" => "maximum",
                    "llvm.copysign" => "copysign",
                    "llvm.canonicalize" => "canonicalize",
                    _ => return Ok(false),
                };
                let Some(t) = fty(&c.ret_ty) else {
                    return Ok(false);
                };
                (what, t)
            }
        };
        let line = inst.line();
        check_flags(
            &c.fast_math.iter().map(String::as_str).collect::<Vec<_>>(),
            line,
        )?;
        if inst.result.is_none() || !self.used(inst) {
            return Ok(true);
        }
        let ty = c.ret_ty.clone();
        let mut args = Vec::new();
        for a in &c.args {
            if a.ty != ty {
                return unsup(format!("the intrinsic @{name} on {}", a.ty), line);
            }
            args.push(self.fvalue(&a.value, t, &ty, line)?);
        }
        let arity = match what {
            "fabs" | "sqrt" | "canonicalize" => 1,
            "fma" => 3,
            _ => 2,
        };
        if args.len() != arity {
            return unsup(
                format!("the intrinsic @{name} with {} operands", args.len()),
                line,
            );
        }
        let mut it = args.into_iter();
        let mut next = || it.next().expect("the arity was checked");
        let e = match what {
            "fabs" => un(FUn::Abs(t), next()),
            "sqrt" => un(FUn::Sqrt(t), next()),
            "canonicalize" => un(FUn::Canon(t), next()),
            "fma" if t == FTy::Float => {
                let (a, b, c) = (next(), next(), next());
                fma32(a, b, c)
            }
            "fma" => return unsup(format!("a fused multiply-add of {}", t.name()), line),
            "fadd" => bin(FBin::Add(t), next(), next()),
            "fmul" => bin(FBin::Mul(t), next(), next()),
            "fdiv" => bin(FBin::Div(t), next(), next()),
            "minnum" => bin(FBin::MinNum(t), next(), next()),
            "maxnum" => bin(FBin::MaxNum(t), next(), next()),
            "minimum" => bin(FBin::Minimum(t), next(), next()),
            "maximum" => bin(FBin::Maximum(t), next(), next()),
            _ => bin(FBin::CopySign(t), next(), next()),
        };
        self.set(inst, what, e, out)?;
        Ok(true)
    }

    /// After a load of a float: its value, every bit kept (LangRef: a
    /// load of a NaN keeps its payload), marked as a float, and the free
    /// values it reads taking float values.
    pub(crate) fn float_load(&mut self, inst: &Instruction, ty: &Type, out: &mut [Inst]) {
        let Some(t) = fty(ty) else { return };
        let Some(r) = inst.result.as_ref().map(super::plain) else {
            return;
        };
        let Some(last) = out.last_mut() else { return };
        let InstKind::SetLocal {
            name,
            value: Some(e),
        } = &mut last.kind
        else {
            return;
        };
        if *name != r {
            return;
        }
        let mut oracles = Vec::new();
        e.walk(&mut |x| match x {
            Expr::Load { value: Some(o), .. } | Expr::Oracle(o) => oracles.push(*o),
            _ => {}
        });
        for o in oracles {
            self.float_domain(o, t);
        }
        let inner = std::mem::replace(e, Expr::Const(0));
        *e = un(FUn::Bits(t), inner);
    }

    /// A free float of format `t` read from oracle `o` (an atomic's
    /// result, [`super::atomics`]): the float values path enumeration
    /// tries, its bits kept, as a float load's value.
    pub(crate) fn free_float(&mut self, o: convcheck_ir::OracleId, t: FTy) -> Expr {
        self.float_domain(o, t);
        un(FUn::Bits(t), Expr::Oracle(o))
    }

    /// A free value of float format `t` takes float values.
    pub(crate) fn float_domain(&mut self, o: convcheck_ir::OracleId, t: FTy) {
        let info: &mut OracleInfo = &mut self.t.oracles[o];
        if !self.t.stated.contains_key(&info.name) {
            info.domain = domain(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_in_every_form_llvm_prints() {
        let f = FloatKind::Float;
        assert_eq!(literal(f, "1.0"), Some(0x3f80_0000));
        assert_eq!(literal(f, "1.000000e+00"), Some(0x3f80_0000));
        assert_eq!(literal(f, "-0.0"), Some(0x8000_0000));
        // A float written as the double of its value.
        assert_eq!(literal(f, "0x3FB99999A0000000"), Some(0x3dcc_cccd));
        assert_eq!(literal(f, "0x7FF8000000000000"), Some(0x7fc0_0000));
        // NaN payloads and signs are kept: a float's payload is the top of
        // the double's fraction.
        assert_eq!(literal(f, "0x7FF0000020000000"), Some(0x7f80_0001));
        assert_eq!(literal(f, "0xFFF8000000000000"), Some(0xffc0_0000));
        assert_eq!(literal(FloatKind::Half, "0xH7C01"), Some(0x7c01));
        assert_eq!(literal(f, "0xFFF0000000000000"), Some(0xff80_0000));
        assert_eq!(
            literal(FloatKind::Double, "0x3FF0000000000000"),
            Some(1f64.to_bits())
        );
        assert_eq!(literal(FloatKind::Half, "0xH3C00"), Some(0x3c00));
        assert_eq!(literal(FloatKind::BFloat, "0xR3F80"), Some(0x3f80));
        assert_eq!(literal(FloatKind::Half, "0xR3F80"), None);
        assert_eq!(literal(FloatKind::X86Fp80, "0xK3FFF8000000000000000"), None);
    }
}
