//! Transforms of real opt-19 that LLVM's own issues report as breaking
//! convergent operations (docs/src/findings.md
//! sections 9 to 13): SimplifyCFG threading into a loop past its header,
//! a new entry edge into a convergent block, CHR cloning a convergent
//! call, blocks merged across convergence-control intrinsics, and the
//! find-tid loop in CUDA. Each test looks at what opt-19 really did (its
//! output or its CycleInfo, independently of convcheck) and then at what
//! `convcheck check` says of it. Tests print why they skip when `opt-19`
//! or `clang-19` is absent.

mod common;
use common::{convcheck, have, root};
use std::process::Command;

/// Runs opt-19 from the repository root with standard input closed.
fn opt(args: &[&str]) -> (i32, String, String) {
    let out = Command::new("opt-19")
        .args(args)
        .current_dir(root())
        .output()
        .expect("opt-19 runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `opt-19 -passes=PIPELINE -S FILE`'s output, which must succeed.
fn opt_output(file: &str, pipeline: &str) -> String {
    let (code, out, err) = opt(&[&format!("-passes={pipeline}"), "-S", file]);
    assert_eq!(code, 0, "opt-19 -passes={pipeline} {file}: {err}");
    out
}

/// LLVM's CycleInfo of every function of `text` (`print<cycles>`).
fn cycles(text: &str, name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("convcheck-llvm-musts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    let (code, _, err) = opt(&[
        "-passes=print<cycles>",
        "-disable-output",
        &p.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{err}");
    err
}

/// The text of function `f` in a module's text.
fn function<'a>(text: &'a str, f: &str) -> &'a str {
    let start = text
        .find(&format!("@{f}("))
        .and_then(|i| text[..i].rfind("define "))
        .unwrap_or_else(|| panic!("@{f} not defined in\n{text}"));
    let end = text[start..]
        .find("\n}")
        .map_or(text.len(), |e| start + e + 2);
    &text[start..end]
}

/// A violated check blames `stage` first and shows a counterexample with
/// both threads' rows in both tables.
fn assert_blamed(code: i32, out: &str, err: &str, stage: &str) {
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(&format!("verdict: violated (first at stage {stage})")),
        "{stage} not blamed:\n{out}"
    );
    assert!(
        out.contains(&format!("counterexample (stage {stage}):")),
        "{out}"
    );
}

fn assert_two_thread_tables(out: &str) {
    let rows = |tid: &str| out.lines().filter(|l| l.contains(tid)).count();
    // One row per thread in the reference's table and in the target's,
    // side by side on one line.
    assert!(out.contains("scenario (N=2):"), "{out}");
    assert!(rows("| tid 0 |") >= 1 && rows("| tid 1 |") >= 1, "{out}");
    assert!(
        out.lines().any(|l| l.matches("| tid 0 |").count() == 2),
        "{out}"
    );
}

const INTO_LOOP: &str = "examples/llvm/simplifycfg-thread-into-loop.ll";

#[test]
fn simplifycfg_threading_past_a_loop_header_is_blamed() {
    if !have(
        "opt-19",
        "simplifycfg_threading_past_a_loop_header_is_blamed",
    ) {
        return;
    }
    // What opt-19 does: the loop, one entry before, has two after, and
    // LLVM makes `header` (which the threaded threads skip) its header.
    let input = std::fs::read_to_string(root().join(INTO_LOOP)).expect("example");
    let before = cycles(&input, "before.ll");
    assert!(before.contains("depth=1: entries(header) "), "{before}");
    let after = opt_output(INTO_LOOP, "simplifycfg<no-keep-loops>");
    let c = cycles(&after, "after.ll");
    let mut blocks = c.split("CycleInfo for function: ");
    let (_, f, mirrored) = (blocks.next(), blocks.next(), blocks.next());
    assert!(
        f.is_some_and(|f| f.starts_with("bypass_header\n") && f.contains("entries(header latch)")),
        "{c}"
    );
    assert!(
        mirrored
            .is_some_and(|f| f.starts_with("bypass_header_mirrored\n")
                && f.contains("entries(latch header)")),
        "{c}"
    );
    let (code, out, err) = convcheck(&[
        "check",
        INTO_LOOP,
        "--opt",
        "simplifycfg<no-keep-loops>",
        "--function",
        "bypass_header",
    ]);
    assert_blamed(
        code,
        &out,
        &err,
        "1: SimplifyCFGPass on bypass_header (opt-bisect 1)",
    );
    assert!(
        out.contains("`sync` (occurrence 1 in tid 0, 1 in tid 1) is converged in the reference but not converged in the target"),
        "{out}"
    );
    assert_two_thread_tables(&out);
    // The mirrored loop is threaded the same way, but the new entry
    // becomes the header and nothing changes.
    let (code, out, err) = convcheck(&[
        "check",
        INTO_LOOP,
        "--opt",
        "simplifycfg<no-keep-loops>",
        "--function",
        "bypass_header_mirrored",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("stage 1: SimplifyCFGPass on bypass_header_mirrored"),
        "{out}"
    );
    // opt-19's SimplifyCFG threads through the header with the loops
    // kept too (the guard for that, llvm/llvm-project PR #151142, came
    // later), so -O2's first SimplifyCFG run is the one blamed.
    let (code, out, err) = convcheck(&[
        "check",
        INTO_LOOP,
        "--opt",
        "default<O2>",
        "--function",
        "bypass_header",
    ]);
    assert_blamed(
        code,
        &out,
        &err,
        "1: SimplifyCFGPass on bypass_header (opt-bisect 5)",
    );
}

const EDGE: &str = "examples/llvm/entry-edge-convergent.ll";
const EDGE_BAD: &str = "examples/llvm/entry-edge-convergent-bad.ll";

#[test]
fn a_new_entry_edge_into_a_convergent_block_matters_only_into_a_cycle() {
    if !have(
        "opt-19",
        "a_new_entry_edge_into_a_convergent_block_matters_only_into_a_cycle",
    ) {
        return;
    }
    // Acyclic: jump-threading gives the block of sync() an edge straight
    // from `entry`, past the merge block; convcheck accepts it, as LLVM's
    // maximal convergence does.
    let jt = opt_output(EDGE, "jump-threading");
    let guard = function(&jt, "guard");
    assert!(!guard.contains("\nm:"), "the merge block is gone:\n{guard}");
    assert!(guard.contains("label %s"), "{guard}");
    assert!(guard.contains("call void @sync()"), "{guard}");
    let (code, out, err) = convcheck(&[
        "check",
        EDGE,
        "--opt",
        "jump-threading",
        "--function",
        "guard",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(
            "stage 1: JumpThreadingPass on guard (opt-bisect 1): proved (every iteration count)"
        ),
        "{out}"
    );
    // In a loop: jump-threading refuses (the loop header), and its output
    // is accepted; SimplifyCFG threads into the cycle and is blamed.
    let flag = function(&jt, "flag_loop");
    assert!(
        flag.contains("%p = phi i1 [ true, %a ], [ false, %b ], [ %q, %latch ]"),
        "{flag}"
    );
    let (code, out, err) = convcheck(&[
        "check",
        EDGE,
        "--opt",
        "jump-threading",
        "--function",
        "flag_loop",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("the pipeline (no pass changed @flag_loop)"),
        "{out}"
    );
    let sc = opt_output(EDGE, "simplifycfg<no-keep-loops>");
    let c = cycles(&sc, "edge-after.ll");
    assert!(c.contains("entries(s latch)"), "{c}");
    let (code, out, err) = convcheck(&[
        "check",
        EDGE,
        "--opt",
        "simplifycfg<no-keep-loops>",
        "--function",
        "flag_loop",
    ]);
    assert_blamed(
        code,
        &out,
        &err,
        "1: SimplifyCFGPass on flag_loop (opt-bisect 2)",
    );
    assert!(
        out.contains("is not converged in the reference but converged in the target"),
        "{out}"
    );
    assert_two_thread_tables(&out);
}

#[test]
fn jump_threading_into_the_loop_written_by_hand_is_caught() {
    // No opt needed: the transform opt-19's JumpThreading refuses,
    // written as it would make it.
    let (code, out, err) = convcheck(&["check", EDGE, EDGE_BAD, "--function", "flag_loop"]);
    assert_blamed(code, &out, &err, &format!("1: {EDGE_BAD}"));
    assert!(out.contains("convergence at `sync`"), "{out}");
    assert_two_thread_tables(&out);
}

const CHR: &str = "examples/llvm/chr-vote.ll";

#[test]
fn chr_cloning_a_convergent_call_is_blamed() {
    if !have("opt-19", "chr_cloning_a_convergent_call_is_blamed") {
        return;
    }
    let pipeline = "require<profile-summary>,function(chr)";
    let after = opt_output(CHR, pipeline);
    let f = function(&after, "chr_vote");
    assert_eq!(
        f.matches("call i32 @vote(").count(),
        2,
        "CHR cloned vote():\n{f}"
    );
    let (code, out, err) = convcheck(&["check", CHR, "--opt", pipeline]);
    assert_blamed(
        code,
        &out,
        &err,
        "1: ControlHeightReductionPass on chr_vote (opt-bisect 1)",
    );
    assert!(
        out.contains("`vote` (occurrence 1 in tid 0, 1 in tid 1) is converged in the reference but not converged in the target"),
        "{out}"
    );
    assert_two_thread_tables(&out);
}

const TOKENS: &str = "examples/llvm/token-merge.ll";
const LOOP_RULE: &str = "static rule of convergence control tokens broken: Loop intrinsic cannot \
                         be preceded by a convergent operation in the same basic block.";

#[test]
fn blocks_merged_across_loop_intrinsics_break_a_static_rule() {
    if !have(
        "opt-19",
        "blocks_merged_across_loop_intrinsics_break_a_static_rule",
    ) {
        return;
    }
    let (code, _, err) = opt(&["-passes=verify", "-disable-output", TOKENS]);
    assert_eq!(code, 0, "the input is valid: {err}");
    for (pipeline, f, pass) in [
        ("jump-threading", "nested_heart", "JumpThreadingPass"),
        ("simplifycfg", "degenerate_loop", "SimplifyCFGPass"),
    ] {
        // opt-19 itself rejects its own output, naming no pass.
        let (code, _, err) = opt(&[
            &format!("-passes={pipeline}"),
            "-S",
            TOKENS,
            "-o",
            "/dev/null",
        ]);
        assert_ne!(code, 0, "{pipeline}");
        assert!(err.contains("Loop intrinsic cannot be preceded"), "{err}");
        let (code, out, err) = convcheck(&["check", TOKENS, "--opt", pipeline, "--function", f]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(
            out.contains(&format!(
                "verdict: violated (first at stage 1: {pass} on {f} (opt-bisect "
            )),
            "{pipeline}: {out}"
        );
        assert!(out.contains(LOOP_RULE), "{out}");
    }
}

const LANES: &str = "examples/llvm/lane-loop.cu";

#[test]
fn cuda_find_tid_loop_is_flagged_against_the_source() {
    if !have(
        "clang-19",
        "cuda_find_tid_loop_is_flagged_against_the_source",
    ) || !have("opt-19", "cuda_find_tid_loop_is_flagged_against_the_source")
    {
        return;
    }
    // What clang-19 and opt-19 do, without convcheck: -O0 keeps the loop,
    // -O2 deletes it (no cycle is left in either kernel).
    let dir = std::env::temp_dir().join(format!("convcheck-llvm-musts-cu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let prelude = dir.join("prelude.h");
    std::fs::write(&prelude, convcheck::llvm::frontend::CUDA_PRELUDE).expect("prelude");
    let ll = dir.join("lanes.ll");
    let mut args = convcheck::llvm::frontend::clang_args(LANES, Some(&prelude.to_string_lossy()));
    args.extend(["-o".to_string(), ll.to_string_lossy().into_owned()]);
    let clang = Command::new("clang-19")
        .args(&args)
        .current_dir(root())
        .output()
        .expect("clang-19 runs");
    assert!(
        clang.status.success(),
        "{}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let o0 = std::fs::read_to_string(&ll).expect("clang's output");
    assert_eq!(cycles(&o0, "lanes-O0.ll").matches("depth=1").count(), 2);
    let o2 = opt_output(&ll.to_string_lossy(), "default<O2>");
    assert!(!cycles(&o2, "lanes-O2.ll").contains("depth="), "{o2}");
    for (f, op) in [
        ("lane_sync", "__syncwarp"),
        ("lane_ballot", "__ballot_sync"),
    ] {
        // Against the kernel language's reading of the file: clang's
        // lowering already moves the operation out of the loop.
        // `--opt O2`, as the issue writes it, is `default<O2>`.
        let (code, out, err) = convcheck(&[
            "check",
            LANES,
            "--frontend",
            "clang",
            "--opt",
            "O2",
            "--function",
            f,
        ]);
        assert_blamed(code, &out, &err, "1: clang -O0");
        assert!(out.contains("-passes='default<O2>'"), "{out}");
        assert!(out.contains("reference: source level"), "{out}");
        assert!(
            out.contains(&format!("`{op}` (occurrence 1 in tid 0, 1 in tid 1) is not converged in the reference but converged in the target")),
            "{out}"
        );
        assert!(out.contains("@_Z"), "the renaming is said: {out}");
        assert_two_thread_tables(&out);
        // Against clang's own output, -O2 (which deletes the loop) keeps
        // what clang's CFG means.
        let (code, out, err) = convcheck(&[
            "check",
            LANES,
            "--frontend",
            "clang",
            "--opt",
            "default<O2>",
            "--function",
            f,
            "--reference",
            "cfg",
        ]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("IndVarSimplifyPass"), "{out}");
    }
}

#[test]
fn plain_c_lane_loop_is_flagged_and_readings_that_disagree_fall_back() {
    if !have(
        "clang-19",
        "plain_c_lane_loop_is_flagged_and_readings_that_disagree_fall_back",
    ) || !have(
        "opt-19",
        "plain_c_lane_loop_is_flagged_and_readings_that_disagree_fall_back",
    ) {
        return;
    }
    let c = "examples/llvm/lane-loop.c";
    let (code, out, err) = convcheck(&["check", c, "--frontend", "clang", "--opt", "default<O2>"]);
    assert_blamed(code, &out, &err, "1: clang -O0");
    assert!(
        out.contains("`op` (occurrence 1 in tid 0, 1 in tid 1) is not converged in the reference but converged in the target"),
        "{out}"
    );
    // lane() declared plainly: the kernel language still reads the call
    // as a convergent operation, clang's output as a value. The check
    // says so and takes clang's output as the reference (once, the
    // disagreement was reported as a change of single-thread behaviour).
    let text = std::fs::read_to_string(root().join(c)).expect("example");
    let plain = text.replace(
        "extern int lane(void) __attribute__((convergent));",
        "extern int lane(void);",
    );
    assert_ne!(plain, text);
    let dir = std::env::temp_dir().join(format!("convcheck-llvm-musts-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join("lane-plain.c");
    std::fs::write(&p, plain).expect("write");
    let p = p.to_string_lossy().into_owned();
    let (code, out, err) = convcheck(&["check", &p, "--frontend", "clang", "--opt", "default<O2>"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("reference: CFG level"), "{out}");
    assert!(
        out.contains(
            "note: reference: the kernel language reads a call of `lane` as a convergent \
             operation and \
             clang's output as a value (no convergent operation): the reference is clang's own \
             output at the CFG level"
        ),
        "{out}"
    );
    assert!(!out.contains("single-thread behaviour"), "{out}");
}

#[test]
fn clang_output_as_its_own_reference_needs_something_to_compare() {
    if !have(
        "clang-19",
        "clang_output_as_its_own_reference_needs_something_to_compare",
    ) {
        return;
    }
    // Once "preserved" after comparing nothing (0 pairs examined).
    for args in [
        &["check", "examples/llvm/find-tid.c", "--frontend", "clang"][..],
        &["check", LANES, "--frontend", "clang", "--reference", "cfg"][..],
    ] {
        let (code, out, err) = convcheck(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.starts_with("error: nothing to check: "), "{err}");
        assert!(err.contains("--opt PIPELINE"), "{err}");
    }
}

/// A function outside the model (a float parameter) with tokens.
const FLOAT_TOKENS: &str = r#"declare i1 @any(i1) convergent
declare token @llvm.experimental.convergence.entry() convergent
declare token @llvm.experimental.convergence.loop() convergent

define i1 @f(float %x) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  %b = fcmp fast ogt float %x, 0.0
  br label %head
head:
  %l = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  br i1 %b, label %body, label %done
body:
  %a = call i1 @any(i1 %b) [ "convergencectrl"(token %l) ]
  br label %done
done:
  %r = phi i1 [ %b, %head ], [ %a, %body ]
  ret i1 %r
}
"#;

#[test]
fn a_static_rule_broken_outside_the_model_is_still_violated() {
    let dir = std::env::temp_dir().join(format!("convcheck-llvm-musts-f-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("float-tokens.ll");
    let bad = dir.join("float-tokens-bad.ll");
    std::fs::write(&good, FLOAT_TOKENS).expect("write");
    let broken = FLOAT_TOKENS.replace(r#"loop() [ "convergencectrl"(token %e) ]"#, "loop()");
    assert_ne!(broken, FLOAT_TOKENS);
    std::fs::write(&bad, broken).expect("write");
    let (good, bad) = (good.to_string_lossy(), bad.to_string_lossy());
    if have(
        "opt-19",
        "a_static_rule_broken_outside_the_model_is_still_violated (opt-19's verdicts)",
    ) {
        assert_eq!(opt(&["-passes=verify", "-disable-output", &good]).0, 0);
        let (code, _, err) = opt(&["-passes=verify", "-disable-output", &bad]);
        assert_ne!(code, 0);
        assert!(
            err.contains("Loop intrinsic must have a convergencectrl token operand."),
            "{err}"
        );
    }
    // The reference cannot be run (floating point), but the target breaks
    // a rule it keeps: violated, not inconclusive.
    let (code, out, err) = convcheck(&["check", &good, &bad]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("uses floating point"), "{out}");
    assert!(
        out.contains("static rule of convergence control tokens broken: Loop intrinsic must have a convergencectrl token operand."),
        "{out}"
    );
    // The same module on both sides is only inconclusive.
    let (code, out, err) = convcheck(&["check", &good, &good]);
    assert_eq!(code, 3, "{out}{err}");
}

#[test]
fn optimisation_levels_are_default_pipelines() {
    use convcheck::pipeline::llvm::pipeline;
    for (given, meant) in [
        ("O2", "default<O2>"),
        ("-O3", "default<O3>"),
        ("Os", "default<Os>"),
        ("default<O1>", "default<O1>"),
        ("O4", "O4"),
        ("simplifycfg", "simplifycfg"),
    ] {
        assert_eq!(pipeline(given), meant);
    }
}
