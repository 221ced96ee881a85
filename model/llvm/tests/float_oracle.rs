//! An independent oracle for the model's floating-point arithmetic
//! (`convcheck_ir::float`): LLVM's own constant folder. A module of a few
//! hundred float instructions and intrinsic calls on constant operands
//! (random values mixed with zeros of both signs, infinities, NaNs,
//! denormals, the largest finite values and values whose products round)
//! is folded by `opt-19 -passes=instsimplify`; every stored result of the
//! original, as convcheck maps and folds it, must equal the constant LLVM
//! stores. A NaN result of an arithmetic operation compares only as a NaN:
//! LangRef lets its sign and payload be any of several (the canonical NaN,
//! an operand's payload, quieted or not), and LLVM's folder and the model
//! choose differently (`convcheck_ir::float` documents and tests the
//! model's choice); `fneg` and `copysign` change only the sign bit, NaNs
//! included, and compare exactly.
#![deny(unsafe_code)]

mod common;

use std::collections::HashMap;
use std::process::Command;

use convcheck_ir::{Expr, InstKind};
use convcheck_llvm::to_ir::to_module;

/// A deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// A value of `bits` width: a special one a third of the time, else
/// random bits or a small random number.
fn value(r: &mut Rng, double: bool) -> f64 {
    let special = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        0.1,
        1.0 + 2f64.powi(-12),
        3.0,
        f64::from(f32::MAX),
        f64::from(f32::MIN_POSITIVE),
        1.4e-45,
        2.5,
        -7.5,
    ];
    match r.next() % 3 {
        0 => special[(r.next() % special.len() as u64) as usize],
        1 if double => f64::from_bits(r.next()),
        1 => f64::from(f32::from_bits(r.next() as u32)),
        _ => (r.next() % 2000) as f64 / 8.0 - 125.0,
    }
}

/// LLVM's text for a constant of `ty` (a double's bits in hex).
fn lit(v: f64, ty: &str) -> String {
    let v = if ty == "float" {
        f64::from(v as f32)
    } else {
        v
    };
    format!("0x{:016X}", v.to_bits())
}

/// The value of a constant expression the mapping left (`fma`'s operand
/// packing).
fn eval(e: &Expr, env: &HashMap<String, i64>) -> Option<i64> {
    Some(match e {
        Expr::Const(c) => *c,
        Expr::Var(v) => *env.get(v)?,
        Expr::Unary(op, a) => convcheck_ir::expr::unary(*op, eval(a, env)?),
        Expr::Binary(op, a, b) => convcheck_ir::expr::binary(*op, eval(a, env)?, eval(b, env)?),
        _ => return None,
    })
}

/// The stored values of `@f`, in order.
fn stored(src: &str, what: &str) -> Vec<Option<i64>> {
    let m = convcheck_llvm::parse_module(src, what).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mapped = to_module(&m, what);
    assert!(mapped.skipped.is_empty(), "{what}: {:?}", mapped.skipped);
    let f = &mapped.module.functions[mapped.module.function("f").expect("@f")];
    let mut out = Vec::new();
    let mut env = HashMap::new();
    for b in &f.blocks {
        for i in &b.insts {
            match &i.kind {
                InstKind::SetLocal {
                    name,
                    value: Some(e),
                } => {
                    if let Some(v) = eval(e, &env) {
                        env.insert(name.clone(), v);
                    }
                }
                InstKind::Eval(Expr::Store { value, .. }) => out.push(eval(value, &env)),
                _ => {}
            }
        }
    }
    out
}

#[test]
fn float_arithmetic_agrees_with_llvms_constant_folder() {
    let Some(opt) = common::tool("opt-19") else {
        println!("skipping float_arithmetic_agrees_with_llvms_constant_folder: opt-19 is not installed (apt-get install -y llvm-19)");
        return;
    };
    let mut r = Rng(2026);
    // Per store: the format of a float result, and whether it is exact
    // for NaNs too (`fneg`, `copysign`).
    let mut meta: Vec<(Option<convcheck_ir::float::FTy>, bool)> = Vec::new();
    let mut globals = String::new();
    let mut body = String::new();
    let mut n = 0;
    let mut store = |body: &mut String, ty: &str, v: &str| {
        globals.push_str(&format!("@o{n} = global {ty} zeroinitializer\n"));
        body.push_str(&format!("  store {ty} {v}, ptr @o{n}\n"));
        n += 1;
    };
    for k in 0..400 {
        let double = k % 4 == 3;
        let ty = if double { "double" } else { "float" };
        let (a, b, c) = (
            value(&mut r, double),
            value(&mut r, double),
            value(&mut r, double),
        );
        let (x, y, z) = (lit(a, ty), lit(b, ty), lit(c, ty));
        let t = format!("%t{k}");
        let inst = match k % 13 {
            0 => format!("{t} = fadd {ty} {x}, {y}"),
            1 => format!("{t} = fsub {ty} {x}, {y}"),
            2 => format!("{t} = fmul {ty} {x}, {y}"),
            3 => format!("{t} = fdiv {ty} {x}, {y}"),
            4 => format!("{t} = frem {ty} {x}, {y}"),
            5 => format!("{t} = fneg {ty} {x}"),
            6 if !double => {
                format!("{t} = call float @llvm.fma.f32(float {x}, float {y}, float {z})")
            }
            6 => format!("{t} = call double @llvm.sqrt.f64(double {x})"),
            7 => format!(
                "{t} = call {ty} @llvm.minnum.{}({ty} {x}, {ty} {y})",
                if double { "f64" } else { "f32" }
            ),
            8 => format!(
                "{t} = call {ty} @llvm.copysign.{}({ty} {x}, {ty} {y})",
                if double { "f64" } else { "f32" }
            ),
            9 if !double => format!("{t} = fpext float {x} to double"),
            9 => format!("{t} = fptrunc double {x} to float"),
            10 => {
                let i = (r.next() % 100_000) as i64 - 50_000;
                format!("{t} = sitofp i32 {i} to {ty}")
            }
            11 => {
                // In range (an out-of-range conversion is poison).
                let v = ((r.next() % 4000) as f64 - 2000.0) / 7.0;
                format!("{t} = fptosi {ty} {} to i32", lit(v, ty))
            }
            _ => {
                let p = convcheck_ir::float::FPred::ALL[(r.next() % 16) as usize].name();
                let cmp = format!("%c{k} = fcmp {p} {ty} {x}, {y}");
                format!("{cmp}\n  {t} = zext i1 %c{k} to i32")
            }
        };
        body.push_str(&format!("  {inst}\n"));
        let rty = if inst.contains(" to i32") {
            "i32"
        } else if inst.contains("fpext") {
            "double"
        } else if inst.contains("fptrunc") {
            "float"
        } else {
            ty
        };
        store(&mut body, rty, &t);
        let fty = match rty {
            "float" => Some(convcheck_ir::float::FTy::Float),
            "double" => Some(convcheck_ir::float::FTy::Double),
            _ => None,
        };
        meta.push((fty, matches!(k % 13, 5 | 8)));
    }
    // Half: arithmetic and conversions.
    for k in 0..40 {
        let (a, b) = (value(&mut r, false), value(&mut r, false));
        let t = format!("%h{k}");
        let ha = format!("%ha{k}");
        body.push_str(&format!(
            "  {ha} = fptrunc float {} to half\n",
            lit(a, "float")
        ));
        let inst = match k % 3 {
            0 => format!("{t} = fadd half {ha}, 0xH3C00"),
            1 => format!("{t} = fmul half {ha}, {ha}"),
            _ => format!("{t} = fdiv half {ha}, 0xH4200"),
        };
        body.push_str(&format!("  {inst}\n"));
        let _ = b;
        store(&mut body, "half", &t);
        meta.push((Some(convcheck_ir::float::FTy::Half), false));
    }
    // llvm.minimum / llvm.maximum (IEEE 754-2019), zeros of both signs
    // among the values.
    for k in 0..40 {
        let double = k % 2 == 1;
        let (ty, sfx) = if double {
            ("double", "f64")
        } else {
            ("float", "f32")
        };
        let (a, b) = (value(&mut r, double), value(&mut r, double));
        let which = if k % 4 < 2 { "minimum" } else { "maximum" };
        let t = format!("%m{k}");
        body.push_str(&format!(
            "  {t} = call {ty} @llvm.{which}.{sfx}({ty} {}, {ty} {})\n",
            lit(a, ty),
            lit(b, ty)
        ));
        store(&mut body, ty, &t);
        let fty = if double {
            convcheck_ir::float::FTy::Double
        } else {
            convcheck_ir::float::FTy::Float
        };
        meta.push((Some(fty), false));
    }
    let src = format!(
        "{globals}\ndeclare float @llvm.fma.f32(float, float, float)\n\
         declare double @llvm.sqrt.f64(double)\n\
         declare float @llvm.minnum.f32(float, float)\n\
         declare double @llvm.minnum.f64(double, double)\n\
         declare float @llvm.copysign.f32(float, float)\n\
         declare double @llvm.copysign.f64(double, double)\n\
         declare float @llvm.minimum.f32(float, float)\n\
         declare double @llvm.maximum.f64(double, double)\n\
         declare float @llvm.maximum.f32(float, float)\n\
         declare double @llvm.minimum.f64(double, double)\n\
         define void @f() {{\n{body}  ret void\n}}\n"
    );
    let dir = common::scratch("float_oracle");
    let input = dir.join("floats.ll");
    std::fs::write(&input, &src).expect("write the module");
    let out = Command::new(&opt)
        .args(["-S", "-passes=instsimplify"])
        .arg(&input)
        .output()
        .expect("run opt");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let folded = String::from_utf8(out.stdout).expect("utf-8");
    let ours = stored(&src, "floats.ll");
    let llvm = stored(&folded, "folded.ll");
    assert_eq!(ours.len(), llvm.len());
    let lines: Vec<&str> = src.lines().filter(|l| l.contains(" = ")).collect();
    let mut compared = 0;
    for (k, (a, b)) in ours.iter().zip(&llvm).enumerate() {
        let (Some(a), Some(b)) = (a, b) else {
            panic!("store {k} is not a constant: ours {a:?}, LLVM's {b:?}");
        };
        if let (Some(t), false) = meta[k] {
            if t.is_nan(*b as u64) {
                assert!(
                    t.is_nan(*a as u64),
                    "store {k}: ours {a:#x} is not a NaN, LLVM's {b:#x} is"
                );
                compared += 1;
                continue;
            }
        }
        assert_eq!(
            a,
            b,
            "store {k}: ours {a:#x}, LLVM's {b:#x} (near {:?})",
            lines.get(k)
        );
        compared += 1;
    }
    assert!(compared >= 480, "{compared}");
    println!("{compared} float results agree with opt-19's constant folder");
}
