//! `convcheck run FILE.ll` (issue 11) through the real binary.
//!
//! Two independent paths to one table: a kernel run at the CFG level by
//! the kernel language's lowering (`run K.c --level cfg`), and the same
//! kernel written as LLVM IR (`lower K.c --emit ll`), read back by the
//! LLVM front end and run (`run K.ll`). Every function of the seed and
//! hazard examples, with and without tokens, on the default scenario and
//! on a scenario with chosen thread indices, gives the same table, values
//! and hazards both ways. Also: bad input (exit 2, located), a function
//! outside the model (exit 3, the construct named), the flags that make no
//! sense on LLVM IR, and oracle names set with `--thread`.

mod common;
use common::{convcheck, root};
use std::path::PathBuf;

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn scratch(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("convcheck-run-llvm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.to_string_lossy().into_owned()
}

/// The functions a module written by `lower --emit ll` defines.
fn defined(ll: &str) -> Vec<String> {
    ll.lines()
        .filter_map(|l| l.strip_prefix("define "))
        .filter_map(|l| {
            let at = l.find('@')?;
            let rest = &l[at + 1..];
            let name = if let Some(q) = rest.strip_prefix('"') {
                q.split('"').next()?.to_string()
            } else {
                rest.split('(').next()?.to_string()
            };
            Some(name)
        })
        .collect()
}

/// `text` with every `line N` as `line ?`.
fn no_lines(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(k) = rest.find("line ") {
        out.push_str(&rest[..k + 5]);
        rest = rest[k + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('?');
    }
    out.push_str(rest);
    out
}

/// `v` without the `line` and `col` of hazards (lines of the kernel on one
/// side, of the LLVM IR on the other), also in messages.
fn unlocated(v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::String(s) => serde_json::Value::String(no_lines(s)),
        serde_json::Value::Object(m) => m
            .iter()
            .filter(|(k, _)| *k != "line" && *k != "col")
            .map(|(k, x)| (k.clone(), unlocated(x)))
            .collect(),
        serde_json::Value::Array(a) => a.iter().map(unlocated).collect(),
        x => x.clone(),
    }
}

/// The fields of two runs that must agree (everything but the file name,
/// the hierarchy note, whose block names are the writer's, and where the
/// hazards are in each file).
fn same_run(kernel: &serde_json::Value, ll: &serde_json::Value, what: &str) {
    let (k, l) = (unlocated(&kernel["hazards"]), unlocated(&ll["hazards"]));
    assert_eq!(k, l, "{what}: hazards differ");
    for field in [
        "function",
        "level",
        "rows",
        "table",
        "instances",
        "implementation_defined_columns",
        "threads",
        "group",
    ] {
        assert_eq!(kernel[field], ll[field], "{what}: `{field}` differs");
    }
}

#[test]
fn a_lowered_kernel_runs_the_same_as_llvm_ir() {
    let (mut compared, mut stopped) = (0, 0);
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["examples/seed", "examples/hazards"] {
        let mut here: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("examples")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        here.sort();
        files.extend(here);
    }
    assert!(files.len() >= 10, "{files:?}");
    for file in &files {
        let rel = file
            .strip_prefix(root())
            .expect("under the root")
            .to_string_lossy()
            .into_owned();
        for tokens in [false, true] {
            let mut lower = vec!["lower", rel.as_str(), "--emit", "ll"];
            if tokens {
                lower.push("--tokens");
            }
            let (code, ll, err) = convcheck(&lower);
            assert_eq!(code, 0, "{lower:?}: {err}");
            let stem = file.file_stem().expect("stem").to_string_lossy();
            let ll_file = scratch(&format!("{stem}.{tokens}.ll"), &ll);
            for function in defined(&ll) {
                let scenarios: [&[&str]; 2] = [&[], &["--tids", "1,3", "--group", "4"]];
                for extra in scenarios {
                    let mut k = vec![
                        "run",
                        rel.as_str(),
                        "--function",
                        function.as_str(),
                        "--level",
                        "cfg",
                        "--format",
                        "json",
                    ];
                    if tokens {
                        k.push("--tokens");
                    }
                    k.extend(extra);
                    let (kc, kout, kerr) = convcheck(&k);
                    let mut l = vec![
                        "run",
                        ll_file.as_str(),
                        "--function",
                        function.as_str(),
                        "--format",
                        "json",
                    ];
                    l.extend(extra);
                    let (lc, lout, lerr) = convcheck(&l);
                    assert_eq!(kc, lc, "{k:?}: {kerr}\n{l:?}: {lerr}");
                    if kc != 0 {
                        // Both stop (fuel, depth): the same reason.
                        assert_eq!(kerr, lerr, "{k:?} / {l:?}");
                        stopped += 1;
                        continue;
                    }
                    same_run(&json(&kout), &json(&lout), &format!("{k:?} / {l:?}"));
                    compared += 1;
                }
            }
        }
    }
    println!(
        "{compared} runs compared over {} example files ({stopped} stopped alike)",
        files.len()
    );
    assert!(compared >= 100, "only {compared} runs compared");
}

#[test]
fn text_output_is_a_cfg_level_run() {
    let (code, out, err) = convcheck(&["run", "examples/llvm/find-tid-tokens.ll"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "examples/llvm/find-tid-tokens.ll `find_tid` (CFG level, convergence-control tokens)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("hazards: no race, no barrier divergence"),
        "{out}"
    );
    // Each thread's op() is in the iteration of its own tid: apart.
    let (code, out, _) = convcheck(&[
        "run",
        "examples/llvm/find-tid-tokens.ll",
        "--thread",
        "tid=0",
        "--thread",
        "tid=1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["level"], "cfg-tokens");
    assert_eq!(v["table"], serde_json::json!([["op", null], [null, "op"]]));
    // The same output twice.
    let again = convcheck(&[
        "run",
        "examples/llvm/find-tid-tokens.ll",
        "--thread",
        "tid=0",
        "--thread",
        "tid=1",
        "--format",
        "json",
    ]);
    assert_eq!(again.1, out);
}

#[test]
fn oracles_are_named_after_callees_parameters_and_globals() {
    let file = scratch(
        "oracles.ll",
        "@buf = global i32 0\n\
         define void @k(i32 %n) {\n\
         entry:\n\
           %c = call i32 @c()\n\
           %x = load i32, ptr @buf\n\
           %a = icmp eq i32 %c, 1\n\
           %b = icmp sgt i32 %n, %x\n\
           %both = and i1 %a, %b\n\
           br i1 %both, label %then, label %done\n\
         then:\n\
           call void @op() convergent\n\
           br label %done\n\
         done:\n\
           ret void\n\
         }\n\
         declare i32 @c()\n\
         declare void @op() convergent\n",
    );
    // `@c` states no memory attributes, so it may write `@buf`: the load
    // after it reads the location's value after the first such call
    // (`~1`, docs/src/semantics.md, "What a call may write").
    let (code, out, err) = convcheck(&[
        "run",
        &file,
        "--thread",
        "c=1 n=5 @buf[0]:1@0~1=2",
        "--thread",
        "c=1 n=1 @buf[0]:1@0~1=2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["table"], serde_json::json!([["op"], [null]]), "{out}");
    assert_eq!(
        v["threads"][0]["values"],
        // Free memory is named per byte: the run lists every byte it read
        // (those not given read 0).
        serde_json::json!({"@buf[0]:1@0~1": [2], "@buf[1]:1@0~1": [0], "@buf[2]:1@0~1": [0],
            "@buf[3]:1@0~1": [0], "c": [1], "n": [5]})
    );
    // A name that is no oracle is a usage error that lists the oracles.
    let (code, _, err) = convcheck(&["run", &file, "--thread", "d=1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`d` is not an oracle") && err.contains("@buf"),
        "{err}"
    );
}

#[test]
fn bad_input_is_located_and_exits_2() {
    let file = scratch(
        "bad.ll",
        "define void @f() {\nentry:\n  br label %x, 7\n}\n",
    );
    let (code, out, err) = convcheck(&["run", &file]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.starts_with(&format!("{file}:3:")), "{err}");
    let (code, _, err) = convcheck(&["run", "no/such/file.ll"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.ll: cannot read"), "{err}");
    // A function that breaks a static rule of tokens has no semantics.
    let broken = scratch(
        "broken.ll",
        "define void @f() convergent {\nentry:\n  call void @op()\n  %t = call token @llvm.experimental.convergence.entry()\n  ret void\n}\n\
         declare void @op() convergent\ndeclare token @llvm.experimental.convergence.entry() convergent\n",
    );
    let (code, _, err) = convcheck(&["run", &broken]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with(&format!("{broken}:4: @f breaks a static rule")),
        "{err}"
    );
}

#[test]
fn a_function_outside_the_model_is_inconclusive_and_named() {
    let file = scratch(
        "float.ll",
        "define void @f(float %x) {\nentry:\n  %y = fadd fast float %x, 1.0\n  ret void\n}\n",
    );
    let (code, out, err) = convcheck(&["run", &file]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.starts_with("inconclusive: ") && err.contains("@f") && err.contains("floating point"),
        "{err}"
    );
    let (code, _, err) = convcheck(&[
        "run",
        "model/llvm/tests/data/generic.ll",
        "--function",
        "indirect_branch",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("indirectbr"), "{err}");
}

#[test]
fn flags_without_meaning_on_llvm_ir_are_usage_errors() {
    let ll = "examples/llvm/find-tid-tokens.ll";
    for (flags, says) in [
        (&["--level", "source"][..], "no source level"),
        (&["--level=source"][..], "no source level"),
        (&["--tokens"][..], "has the tokens it is written with"),
        (&["--engine", "smt"][..], "--engine smt"),
        (&["--function", "nope"][..], "no function @nope"),
    ] {
        let mut args = vec!["run", ll];
        args.extend(flags);
        let (code, out, err) = convcheck(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // --level cfg is what LLVM IR runs at anyway.
    let (a, b) = (
        convcheck(&["run", ll]),
        convcheck(&["run", ll, "--level", "cfg"]),
    );
    assert_eq!(a, b);
}
