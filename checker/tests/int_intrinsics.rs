//! The integer intrinsics (issue 21 item 1) against LLVM itself: for each
//! intrinsic and edge value (0, 1, the sign bit, all ones, a mixed
//! pattern), a kernel stores `intrinsic(x)` on the path where `x == C`;
//! `opt-19 -passes=gvn,instcombine` propagates `x == C` into that path and
//! constant-folds the call, so the target stores LLVM's own value. The
//! explicit engine and the z3 product must both find the pair preserved
//! (the model computes the value LLVM folded), and a target whose folded
//! constant is changed by one must be violated under both (the test can
//! fail). The `llvm.*.with.overflow` rows store both fields of the
//! `{ iN, i1 }` result (read by `extractvalue`), so the flag LLVM folded
//! is compared too.

mod common;

use common::{convcheck, have, temp};
use std::process::Command;

/// One case: the intrinsic's name, its type's width, the operands after
/// `x` (constants), and the value of `x`.
struct Case {
    name: &'static str,
    bits: u32,
    rest: Vec<i64>,
    x: i64,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let values32 = [0i64, 1, i64::from(i32::MIN), -1, 0x00f0_1230];
    let values64 = [0i64, 1, i64::MIN, -1, 0x0123_4567_89ab_cdef];
    for (bits, values) in [(32, &values32[..]), (64, &values64[..])] {
        for &x in values {
            for (name, rest) in [
                ("llvm.ctpop", vec![]),
                ("llvm.ctlz", vec![0]),
                ("llvm.cttz", vec![0]),
                ("llvm.ctlz", vec![1]),
                ("llvm.cttz", vec![1]),
                ("llvm.bswap", vec![]),
                ("llvm.bitreverse", vec![]),
                ("llvm.fshl", vec![0x5a5a_5a5a, 7]),
                ("llvm.fshr", vec![0x5a5a_5a5a, 35]),
                ("llvm.fshl", vec![-1, 0]),
                ("llvm.uadd.sat", vec![5]),
                ("llvm.usub.sat", vec![5]),
                ("llvm.sadd.sat", vec![-3]),
                ("llvm.ssub.sat", vec![3]),
                ("llvm.sadd.sat", vec![1]),
                ("llvm.ssub.sat", vec![-1]),
            ] {
                // `is_zero_poison` at 0 folds to poison: nothing to compare.
                if rest == [1] && x == 0 {
                    continue;
                }
                out.push(Case {
                    name,
                    bits,
                    rest,
                    x,
                });
            }
        }
    }
    // The overflow arithmetic (`{ iN, i1 }`, both fields stored): each at
    // one value of each width, chosen so that about half overflow.
    for (bits, x) in [(32, -1), (64, i64::MIN)] {
        for (name, y) in [
            ("llvm.sadd.with.overflow", 1),
            ("llvm.uadd.with.overflow", 1),
            ("llvm.ssub.with.overflow", 1),
            ("llvm.usub.with.overflow", 1),
            ("llvm.smul.with.overflow", 3),
            ("llvm.umul.with.overflow", 3),
        ] {
            out.push(Case {
                name,
                bits,
                rest: vec![y],
                x,
            });
        }
    }
    out.push(Case {
        name: "llvm.bswap",
        bits: 16,
        rest: vec![],
        x: 0x12f4,
    });
    out
}

fn function(i: usize, c: &Case) -> String {
    let t = format!("i{}", c.bits);
    let mut args = vec![format!("{t} %x")];
    for (k, v) in c.rest.iter().enumerate() {
        let ty = if c.name.starts_with("llvm.ct") && k == 0 {
            "i1".to_string()
        } else {
            t.clone()
        };
        args.push(format!("{ty} {v}"));
    }
    let (ret, result) = if c.name.ends_with(".with.overflow") {
        // The value where `@cI` stores it, the flag in `@flags`.
        (
            format!("{{ {t}, i1 }}"),
            format!(
                "%v = extractvalue {{ {t}, i1 }} %r, 0\n  %o = extractvalue {{ {t}, i1 }} %r, 1\n  \
                 %f = getelementptr [1024 x i8], ptr addrspace(1) @flags, i32 0, i32 %tid\n  \
                 store i1 %o, ptr addrspace(1) %f\n  store {t} %v, ptr addrspace(1) %p"
            ),
        )
    } else {
        (t.clone(), format!("store {t} %r, ptr addrspace(1) %p"))
    };
    format!(
        "define void @c{i}({t} %x) {{\nentry:\n  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  \
         %p = getelementptr [1024 x i64], ptr addrspace(1) @out, i32 0, i32 %tid\n  \
         %c = icmp eq {t} %x, {x}\n  br i1 %c, label %then, label %end\nthen:\n  \
         %r = call {ret} @{name}.{t}({args})\n  {result}\n  br label %end\n\
         end:\n  ret void\n}}\n",
        x = c.x,
        name = c.name,
        args = args.join(", "),
    )
}

fn declarations(cases: &[Case]) -> String {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = String::new();
    for c in cases {
        let t = format!("i{}", c.bits);
        let mut params = vec![t.clone()];
        for k in 0..c.rest.len() {
            params.push(if c.name.starts_with("llvm.ct") && k == 0 {
                "i1".into()
            } else {
                t.clone()
            });
        }
        let ret = if c.name.ends_with(".with.overflow") {
            format!("{{ {t}, i1 }}")
        } else {
            t.clone()
        };
        let d = format!("declare {ret} @{}.{t}({})\n", c.name, params.join(", "));
        if seen.insert(d.clone()) {
            out.push_str(&d);
        }
    }
    out
}

/// The folded store of `@cI` in opt's output: the stored constant's text
/// (of the value, not of a `with.overflow`'s flag, the `i1` store).
fn read(path: &str) -> String {
    std::fs::read_to_string(path).expect("a module the test wrote")
}

fn folded(text: &str, i: usize) -> Option<String> {
    let start = text.find(&format!("define void @c{i}("))?;
    let body = &text[start..start + text[start..].find("\n}")?];
    if body.contains("call i") && body.contains("@llvm.") && !body.contains("sreg") {
        return None;
    }
    let line = body
        .lines()
        .find(|l| l.trim_start().starts_with("store ") && !l.contains("store i1 "))?;
    let value = line.split_whitespace().nth(2)?;
    Some(value.trim_end_matches(',').to_string())
}

/// `text` with the definitions of every function but `@c{i}` left out:
/// each check reads a module of one kernel (a whole module of 150 made
/// each of the test's 360 runs parse and map 150 functions, 0.25 s where
/// one takes 0.03 s).
fn only(text: &str, i: usize) -> String {
    let keep = format!("define void @c{i}(");
    let mut out = String::new();
    let mut skip = false;
    for line in text.lines() {
        if line.starts_with("define ") {
            skip = !line.starts_with(&keep);
        }
        if !skip {
            out.push_str(line);
            out.push('\n');
        }
        if line == "}" {
            skip = false;
        }
    }
    out
}

fn verdict(src: &str, tgt: &str, i: usize, engine: &str) -> (i32, String) {
    let f = format!("c{i}");
    let one = |path: &str| {
        let name = std::path::Path::new(path)
            .file_name()
            .unwrap()
            .to_string_lossy();
        temp(&format!("{i}.{name}"), &only(&read(path), i))
    };
    let (src, tgt) = (one(src), one(tgt));
    let (code, out, err) = convcheck(&[
        "check",
        &src,
        &tgt,
        "--function",
        &f,
        "--engine",
        engine,
        "--threads",
        "2",
    ]);
    (code, format!("{out}{err}"))
}

#[test]
fn intrinsics_agree_with_llvm_constant_folding_under_both_engines() {
    let test = "intrinsics_agree_with_llvm_constant_folding_under_both_engines";
    if !have("opt-19", test) {
        return;
    }
    let cases = cases();
    let mut module = String::from(
        "target triple = \"nvptx64-nvidia-cuda\"\n@out = addrspace(1) global [1024 x i64] \
         zeroinitializer\n@flags = addrspace(1) global [1024 x i8] zeroinitializer\ndeclare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n",
    );
    module.push_str(&declarations(&cases));
    for (i, c) in cases.iter().enumerate() {
        module.push_str(&function(i, c));
    }
    let src = temp("intrinsics.src.ll", &module);
    let out = Command::new("opt-19")
        .args(["-passes=gvn,instcombine", "-S", &src])
        .output()
        .expect("opt-19 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let opt_text = String::from_utf8_lossy(&out.stdout).into_owned();
    let tgt = temp("intrinsics.tgt.ll", &opt_text);
    let mut wrong = Vec::new();
    let mut mutated = opt_text.clone();
    for (i, c) in cases.iter().enumerate() {
        let what = format!("{}.i{}({}, {:?})", c.name, c.bits, c.x, c.rest);
        let Some(k) = folded(&opt_text, i) else {
            panic!("opt-19 did not fold {what}:\n{opt_text}");
        };
        for engine in ["explicit", "smt"] {
            let (code, report) = verdict(&src, &tgt, i, engine);
            // The explicit engine alone answers inconclusive where the
            // intrinsic's bit tests make `x`'s domain inexact (issue 20
            // class m); never violated.
            let undecided =
                engine == "explicit" && code == 3 && report.contains("inexact domains of");
            if code != 0 && !undecided {
                wrong.push(format!(
                    "{what} (LLVM folds it to {k}) under {engine}:\n{report}"
                ));
            }
        }
        // The same target with the folded constant changed by one.
        let start = mutated.find(&format!("define void @c{i}(")).unwrap();
        let end = start + mutated[start..].find("\n}").unwrap();
        let body = mutated[start..end].to_string();
        let changed: i128 = k.parse::<i128>().unwrap() ^ 1;
        let body2 = body.replacen(
            &format!("store i{} {k},", c.bits),
            &format!("store i{} {changed},", c.bits),
            1,
        );
        assert_ne!(body, body2, "{what}: no store of {k} in {body}");
        mutated.replace_range(start..end, &body2);
    }
    let bad = temp("intrinsics.mutated.ll", &mutated);
    // Every fifth case's mutation, under both engines: each must be caught.
    for (i, c) in cases.iter().enumerate().step_by(5) {
        for engine in ["explicit", "smt"] {
            let (code, report) = verdict(&src, &bad, i, engine);
            if code != 1 {
                wrong.push(format!(
                    "{}.i{}({}) with LLVM's constant changed: expected violated under {engine}\n{report}",
                    c.name, c.bits, c.x
                ));
            }
        }
    }
    eprintln!("{} intrinsic values compared with opt-19", cases.len());
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
