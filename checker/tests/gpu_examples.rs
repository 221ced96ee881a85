//! The realistic GPU kernels of `examples/gpu` (CUDA, HIP, OpenCL C)
//! through clang-19 and the risky opt-19 pipelines, as
//! `examples/gpu/expectations.toml` expects: the find-tid loop of LLVM
//! #180621 violated at clang's own lowering, its control and the kernels
//! the model reads preserved (among them the ballot/popc compaction, the
//! wave vote, the early-exit loop with `__ffs`, the histogram with
//! `atomicAdd` and the grid-stride loop with `gridDim`), and the kernels
//! whose floats the model does not read yet inconclusive (each with its
//! reason). Also the corpus's LLVM cases themselves: a case that expects
//! the wrong verdict must fail.

mod common;

use common::{convcheck, have, reduce_int_after_sroa, root, temp};

#[test]
fn gpu_examples_meet_their_expectations() {
    let test = "gpu_examples_meet_their_expectations";
    if !have("clang-19", test) || !have("opt-19", test) {
        return;
    }
    let (code, out, err) = convcheck(&["corpus", "examples/gpu/expectations.toml", "--jobs", "2"]);
    let out = format!("{out}{err}");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" 0 not"), "{out}");
    // Every inconclusive case says why (floats, or the time budget).
    for line in out.lines().filter(|l| l.contains(": inconclusive")) {
        assert!(
            line.contains("which convcheck does not model") || line.contains("time budget"),
            "{line}"
        );
    }
    // The find-tid loop is blamed on clang's lowering; its control holds.
    assert!(
        out.contains(
            "ok   examples/gpu/find-tid.cu `find_tid` [opt default<O2>] reference source: \
             violated at clang -O0"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "ok   examples/gpu/find-tid.cu `find_tid_control` [opt default<O2>] reference \
             source: preserved"
        ),
        "{out}"
    );
    // cmpxchg (atomicCAS) is read: the CAS loop gets a verdict.
    assert!(
        out.contains(
            "ok   examples/gpu/atomics.cu `cas_max` [opt default<O2>] reference cfg: preserved"
        ),
        "{out}"
    );
}

/// A counterexample of single-thread behaviour on a real clang kernel names
/// the first differing store by its object and element (issue 21 item 5):
/// `reduce-int.cu` after SROA, with the block's partial sum computed
/// wrongly (the shared array `sdata`, a mangled local static) or the
/// block's result not stored (through the pointer parameter `out`).
#[test]
fn counterexamples_name_objects_and_elements() {
    let test = "counterexamples_name_objects_and_elements";
    if !have("clang-19", test) || !have("opt-19", test) {
        return;
    }
    // The sum `sdata[tid] + sdata[tid + s]` made a difference.
    let (sroa, reference, wrong_sum) = reduce_int_after_sroa("reduce-int");
    // The block's result stored as 0.
    let result = sroa
        .lines()
        .rfind(|l| l.trim_start().starts_with("store i32 %"))
        .expect("the result's store");
    let value = result.split_whitespace().nth(2).expect("its value");
    let no_result = temp(
        "reduce-int.result.ll",
        &sroa.replacen(result, &result.replacen(value, "0,", 1), 1),
    );
    for (target, name, object) in [
        (&wrong_sum, "store sdata[", "@_ZZ10reduce_intPKiPiiE5sdata"),
        (&no_result, "store %out[0]", "%out"),
    ] {
        // One block (`--grid-dim 1`): the result goes to `out[0]`. The
        // product finds both in under a second; under the default policy
        // the explicit engine's one scenario (free memory values read as
        // 0 and 1) was once taken as the answer when the product's share
        // of the budget ran out under load (FIXME(issue 22): that cut is
        // not listed in the bounds).
        let (code, json, err) = convcheck(&[
            "check",
            &reference,
            target,
            "--function",
            "reduce_int",
            "--engine",
            "smt",
            "--threads",
            "2",
            "--grid-dim",
            "1",
            "--format",
            "json",
        ]);
        assert_eq!(code, 1, "{json}{err}");
        // The text report prints the same message (`report::named_message`).
        let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let c = v["stages"]
            .as_array()
            .and_then(|s| s.iter().find_map(|s| s.get("counterexample")))
            .unwrap_or_else(|| panic!("no counterexample:\n{json}"));
        let message = c["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("event "), "{json}");
        assert!(message.contains(name), "{message}");
        assert!(!message.contains("global["), "{message}");
        assert_eq!(c["places"][0]["object"], object, "{json}");
    }
}

/// The float block reduction (issue 21 item 2) gets a verdict under every
/// pipeline after `sroa` (default<O2> runs out of time: floats.toml): floats are in the model, exact in the explicit engine and
/// uninterpreted functions in the product (`examples/gpu/floats.toml`).
#[test]
fn the_float_reduction_is_preserved_under_the_risky_passes() {
    let test = "the_float_reduction_is_preserved_under_the_risky_passes";
    if !have("clang-19", test) || !have("opt-19", test) {
        return;
    }
    let (code, out, err) = convcheck(&["corpus", "examples/gpu/floats.toml", "--jobs", "2"]);
    let out = format!("{out}{err}");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("7 cases and 0 tables: 7 as expected, 0 not"),
        "{out}"
    );
}

#[test]
fn an_llvm_case_with_the_wrong_expectation_fails() {
    let test = "an_llvm_case_with_the_wrong_expectation_fails";
    if !have("clang-19", test) || !have("opt-19", test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wrong.toml");
    let gpu = root().join("examples/gpu");
    std::fs::write(
        &file,
        format!(
            "root = {:?}\nthreads = 4\n\n[[case]]\nkernel = \"find-tid.cu\"\nfunction = \
             \"find_tid\"\nfrontend = \"clang\"\nopt = \"sroa\"\nverdict = \"preserved\"\n\n\
             [[case]]\nkernel = \"find-tid.cu\"\nfunction = \"_Z16find_tid_controlPi\"\n\
             frontend = \"clang\"\nopt = \"sroa\"\nverdict = \"preserved\"\n",
            gpu.display().to_string()
        ),
    )
    .unwrap();
    let (code, out, err) = convcheck(&["corpus", file.to_str().unwrap()]);
    let out = format!("{out}{err}");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL") && out.contains("expected preserved, got violated"),
        "{out}"
    );
    // The second case names the kernel by its mangled name.
    assert!(
        out.contains("`find_tid_control` [opt sroa] reference source: preserved"),
        "{out}"
    );
    assert!(
        out.contains("2 cases and 0 tables: 1 as expected, 1 not"),
        "{out}"
    );
}

#[test]
fn ll_pairs_and_opt_pipelines_are_corpus_cases() {
    let test = "ll_pairs_and_opt_pipelines_are_corpus_cases";
    if !have("opt-19", test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pairs.toml");
    let data = root().join("model/llvm/tests/data");
    std::fs::write(
        &file,
        format!(
            "root = {:?}\nthreads = 2\nmax_iters = 2\n\n\
             [[case]]\nkernel = \"plain_kernels_O0.ll\"\ntarget = \"plain_kernels_O2.ll\"\n\
             function = \"loop_continue\"\nverdict = \"preserved\"\n\n\
             [[case]]\nkernel = \"plain_kernels_O0.ll\"\nopt = \"simplifycfg<no-keep-loops>\"\n\
             function = \"loop_nest\"\nverdict = \"violated\"\nstage = \"SimplifyCFGPass\"\n",
            data.display().to_string()
        ),
    )
    .unwrap();
    let (code, out, err) = convcheck(&["corpus", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("`loop_continue` [target plain_kernels_O2.ll] reference cfg: proved"),
        "{out}"
    );
    assert!(
        out.contains(
            "`loop_nest` [opt simplifycfg<no-keep-loops>] reference cfg: violated at \
             SimplifyCFGPass on loop_nest (opt-bisect 2)"
        ),
        "{out}"
    );
    let (code, out, _) = convcheck(&["corpus", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "passed", "{v}");
    let c = &v["cases"][1];
    assert_eq!(c["opt"], "simplifycfg<no-keep-loops>", "{c}");
    assert_eq!(c["report"]["verdict"], "violated", "{c}");
    assert_eq!(
        c["stage"], "SimplifyCFGPass on loop_nest (opt-bisect 2)",
        "{c}"
    );
}

/// A pipeline opt does not finish is never preserved: `-passes=sroa,licm`
/// runs SROA, then opt-19 refuses a bare `licm` ("LICM requires
/// MemorySSA"); the corpus's LICM cases were preserved on SROA alone that
/// way until they were written `loop-mssa(licm)`. The check ends with an
/// inconclusive stage saying so.
#[test]
fn a_pipeline_opt_does_not_finish_is_inconclusive() {
    let test = "a_pipeline_opt_does_not_finish_is_inconclusive";
    if !have("clang-19", test) || !have("opt-19", test) {
        return;
    }
    let args = [
        "check",
        "examples/gpu/reduce-int.cu",
        "--frontend",
        "clang",
        "--function",
        "reduce_int",
        "--threads",
        "4",
        "--timeout",
        "30",
        "--opt",
    ];
    let (code, out, err) = convcheck(&[&args[..], &["sroa,licm"]].concat());
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("stage 1: SROAPass on reduce_int (opt-bisect 1): preserved"),
        "{out}"
    );
    assert!(
        out.contains(
            "stage 2: the rest of the pipeline: inconclusive: opt stopped before the end of the \
             pipeline (LLVM ERROR: LICM requires MemorySSA (loop-mssa))"
        ),
        "{out}"
    );
    // Written as opt wants it, LICM runs and is checked.
    let (code, out, err) = convcheck(&[&args[..], &["sroa,loop-mssa(licm)"]].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("LICMPass on loop"), "{out}");
    assert!(!out.contains("the rest of the pipeline"), "{out}");
}

/// opt-22 reads `llvm.nvvm.barrier0` as LLVM 21's
/// `llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)`: the same block barrier,
/// so clang-19's block reduction through opt-22 is preserved. Until
/// 2026-11-28 the new name was read as a convergent call, not a barrier,
/// and every stage was a false alarm. (About 2 s.)
#[test]
fn nvptx_barriers_as_opt_22_names_them_are_barriers() {
    let test = "nvptx_barriers_as_opt_22_names_them_are_barriers";
    if !have("clang-19", test) || !have("opt-22", test) {
        return;
    }
    // The premise: opt-22 renames the barrier (else this checks nothing new).
    let module = temp(
        "barrier0.ll",
        "declare void @llvm.nvvm.barrier0()\ndefine void @f() {\n  call void @llvm.nvvm.barrier0()\n  ret void\n}\n",
    );
    let renamed = std::process::Command::new("opt-22")
        .args(["-S", module.as_str()])
        .output()
        .expect("opt-22 runs");
    let text = String::from_utf8_lossy(&renamed.stdout);
    assert!(
        text.contains("@llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)"),
        "{text}"
    );
    let (code, out, err) = convcheck(&[
        "check",
        "examples/gpu/reduce-int.cu",
        "--frontend",
        "clang",
        "--opt",
        "sroa,simplifycfg",
        "--opt-bin",
        "opt-22",
        "--function",
        "reduce_int",
        "--threads",
        "4",
        "--max-iters",
        "4",
    ]);
    let out = format!("{out}{err}");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("verdict: preserved"), "{out}");
}
