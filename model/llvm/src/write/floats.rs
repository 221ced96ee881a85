//! Floating-point operators of the model written as LLVM IR: the operands'
//! low bits bitcast to the format, LLVM's instruction or intrinsic, the
//! result's bits zero-extended to `i64` (`convcheck_ir::float`). LLVM's
//! NaN results may differ from the model's choice (the NaN operand
//! propagated, else the canonical NaN) in sign and payload, which LangRef
//! leaves nondeterministic.
#![deny(unsafe_code)]

use convcheck_ir::float::{FBin, FTy, FUn};

use super::body::Emitter;

impl Emitter<'_, '_> {
    /// `x`'s low bits as a value of `t`.
    fn float_of(&mut self, t: FTy, x: &str) -> String {
        let (a, f) = (self.tmp(), self.tmp());
        self.line(format!("{a} = trunc i64 {x} to i{}", t.bits()));
        self.line(format!("{f} = bitcast i{} {a} to {}", t.bits(), t.name()));
        f
    }

    /// A value of `t` as the model's `i64`.
    fn bits_of(&mut self, t: FTy, f: &str) -> String {
        let (a, r) = (self.tmp(), self.tmp());
        self.line(format!("{a} = bitcast {} {f} to i{}", t.name(), t.bits()));
        self.line(format!("{r} = zext i{} {a} to i64", t.bits()));
        r
    }

    fn intrinsic(&mut self, name: &str, t: FTy, args: &[String]) -> String {
        let ty = t.name();
        let params = vec![ty; args.len()].join(", ");
        let callee = self.w.builtin_decl(
            &format!("llvm.{name}.{}", short(t)),
            &format!("{ty}|{params}"),
            "nounwind willreturn memory(none)",
        );
        let r = self.tmp();
        let list: Vec<String> = args.iter().map(|a| format!("{ty} {a}")).collect();
        self.line(format!(
            "{r} = call {ty} {}({})",
            super::global(&callee),
            list.join(", ")
        ));
        r
    }

    pub(super) fn float_unary(&mut self, op: FUn, x: &str) -> String {
        match op {
            FUn::Bits(t) => {
                let r = self.tmp();
                self.line(format!("{r} = and i64 {x}, {}", t.mask() as i64));
                r
            }
            FUn::Neg(t) | FUn::Abs(t) | FUn::Sqrt(t) | FUn::Canon(t) => {
                let f = self.float_of(t, x);
                let r = match op {
                    FUn::Neg(_) => {
                        let r = self.tmp();
                        self.line(format!("{r} = fneg {} {f}", t.name()));
                        r
                    }
                    FUn::Abs(_) => self.intrinsic("fabs", t, &[f]),
                    FUn::Sqrt(_) => self.intrinsic("sqrt", t, &[f]),
                    _ => self.intrinsic("canonicalize", t, &[f]),
                };
                self.bits_of(t, &r)
            }
            FUn::ToSi(t, n) | FUn::ToUi(t, n) => {
                let f = self.float_of(t, x);
                let (i, r) = (self.tmp(), self.tmp());
                let (cv, ext) = match op {
                    FUn::ToSi(..) => ("fptosi", "sext"),
                    _ => ("fptoui", "zext"),
                };
                self.line(format!("{i} = {cv} {} {f} to i{n}", t.name()));
                if n >= 64 {
                    return i;
                }
                self.line(format!("{r} = {ext} i{n} {i} to i64"));
                r
            }
            FUn::FromSi(n, t) | FUn::FromUi(n, t) => {
                let (i, f) = (self.tmp(), self.tmp());
                let cv = if matches!(op, FUn::FromSi(..)) {
                    "sitofp"
                } else {
                    "uitofp"
                };
                let src = if n >= 64 {
                    x.to_string()
                } else {
                    self.line(format!("{i} = trunc i64 {x} to i{n}"));
                    i
                };
                self.line(format!("{f} = {cv} i{n} {src} to {}", t.name()));
                self.bits_of(t, &f)
            }
            FUn::Convert(a, b) => {
                let f = self.float_of(a, x);
                let r = self.tmp();
                let cv = if b.bits() > a.bits() {
                    "fpext"
                } else {
                    "fptrunc"
                };
                if a == b || a.bits() == b.bits() {
                    return self.bits_of(a, &f);
                }
                self.line(format!("{r} = {cv} {} {f} to {}", a.name(), b.name()));
                self.bits_of(b, &r)
            }
        }
    }

    pub(super) fn float_binary(&mut self, op: FBin, x: &str, y: &str) -> String {
        let (t, inst) = match op {
            FBin::Add(t) => (t, "fadd"),
            FBin::Sub(t) => (t, "fsub"),
            FBin::Mul(t) => (t, "fmul"),
            FBin::Div(t) => (t, "fdiv"),
            FBin::Rem(t) => (t, "frem"),
            FBin::MinNum(t) => (t, "minnum"),
            FBin::MaxNum(t) => (t, "maxnum"),
            FBin::Minimum(t) => (t, "minimum"),
            FBin::Maximum(t) => (t, "maximum"),
            FBin::CopySign(t) => (t, "copysign"),
            FBin::Cmp(p, t) => {
                let (a, b) = (self.float_of(t, x), self.float_of(t, y));
                let (c, r) = (self.tmp(), self.tmp());
                self.line(format!("{c} = fcmp {} {} {a}, {b}", p.name(), t.name()));
                self.line(format!("{r} = zext i1 {c} to i64"));
                return r;
            }
            FBin::Fma32 => {
                let t = FTy::Float;
                let a = self.float_of(t, x);
                let hi = self.tmp();
                self.line(format!("{hi} = lshr i64 {y}, 32"));
                let b = self.float_of(t, &hi);
                let c = self.float_of(t, y);
                let r = self.intrinsic("fma", t, &[a, b, c]);
                return self.bits_of(t, &r);
            }
        };
        let (a, b) = (self.float_of(t, x), self.float_of(t, y));
        let r = if inst.starts_with('f') {
            let r = self.tmp();
            self.line(format!("{r} = {inst} {} {a}, {b}", t.name()));
            r
        } else {
            self.intrinsic(inst, t, &[a, b])
        };
        self.bits_of(t, &r)
    }
}

/// The intrinsic suffix of a format.
fn short(t: FTy) -> &'static str {
    match t {
        FTy::Half => "f16",
        FTy::BFloat => "bf16",
        FTy::Float => "f32",
        FTy::Double => "f64",
    }
}
