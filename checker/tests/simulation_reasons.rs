//! Why the simulation engine found no unbounded proof is in the report
//! (issue 22 item 2): the JSON stage's `simulation` and the text's
//! `simulation: no unbounded proof: ...` line name a refusal (a construct
//! the simulation does not model), a search that found no relation, a
//! bound or a budget; a stage the simulation proved has neither.

mod common;
use common::convcheck;

const LL: &str = "examples/soundness/llvm/loads-src.ll";
const LL_TARGET: &str = "examples/soundness/llvm/loads-tgt.ll";

/// Each function's stages as (function, verdict, simulation reason), of
/// a report of several functions or of one.
fn stages(v: &serde_json::Value) -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    let one = [v.clone()];
    let functions = v["functions"].as_array().map_or(&one[..], |f| &f[..]);
    for f in functions {
        for s in f["stages"].as_array().into_iter().flatten() {
            out.push((
                f["function"].as_str().unwrap_or_default().to_string(),
                s["verdict"].as_str().unwrap_or_default().to_string(),
                s["simulation"].as_str().map(str::to_string),
            ));
        }
    }
    out
}

#[test]
fn the_simulations_failure_is_reported_per_stage() {
    let (_, out, err) = convcheck(&["check", LL, LL_TARGET, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let s = stages(&v);
    let reason = |f: &str| {
        s.iter()
            .find(|(name, _, _)| name == f)
            .unwrap_or_else(|| panic!("no stage of {f}: {s:?}"))
            .clone()
    };
    // Proved by the simulation: no reason.
    let (_, verdict, why) = reason("dead_load");
    assert_eq!((verdict.as_str(), why), ("proved", None), "{s:?}");
    // Loads and a barrier in one function: refused, with the construct.
    let (_, verdict, why) = reason("late_read");
    assert_eq!(verdict, "violated");
    let why = why.unwrap_or_default();
    assert!(
        why.starts_with("refused: reference: loads and barriers in one function"),
        "{why}"
    );
    // A search that found a difference: no relation, with where.
    let (_, verdict, why) = reason("read_own_write");
    assert_eq!(verdict, "violated");
    let why = why.unwrap_or_default();
    assert!(why.starts_with("no relation: "), "{why}");
    assert!(why.contains("(reference at "), "{why}");
}

#[test]
fn the_text_report_names_the_simulations_failure() {
    let (_, out, _) = convcheck(&["check", LL, LL_TARGET, "--function", "late_read"]);
    assert!(
        out.contains(
            "\n  simulation: no unbounded proof: refused: reference: loads and barriers in one \
             function"
        ),
        "{out}"
    );
    let (_, out, _) = convcheck(&["check", LL, LL_TARGET, "--function", "dead_load"]);
    assert!(!out.contains("simulation: no unbounded proof"), "{out}");
}

/// Under a pipeline, a stage that is the stage before it up to names,
/// block order and merged chains (TailCallElim only adds `tail` markers),
/// where that stage was not proved, is not simulated again, and says so;
/// the other stages name the construct the simulation refuses (the
/// kernel's tokens in a cycle). About 6 s (opt-19's `default<O2>`, 27
/// stages).
#[test]
fn a_pipeline_names_each_stages_reason_and_skips_repeats() {
    if !common::have(
        "opt-19",
        "a_pipeline_names_each_stages_reason_and_skips_repeats",
    ) {
        return;
    }
    let (_, out, err) = convcheck(&[
        "check",
        "examples/llvm/nested-find-tid.c",
        "--tokens",
        "--opt",
        "default<O2>",
        "--reference",
        "cfg",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let s = stages(&v);
    let stage_list = v["stages"].as_array().cloned().unwrap_or_default();
    let of = |prefix: &str| {
        stage_list
            .iter()
            .find(|st| st["name"].as_str().is_some_and(|n| n.starts_with(prefix)))
            .map(|st| st["simulation"].as_str().unwrap_or_default().to_string())
            .unwrap_or_else(|| panic!("no stage {prefix}: {s:?}"))
    };
    assert!(
        of("TailCallElimPass").starts_with("skipped: the stage before it up to names"),
        "{s:?}"
    );
    assert!(
        of("EarlyCSEPass").starts_with("refused: reference: convergence control tokens"),
        "{s:?}"
    );
    // The first stage is proved by structure: no simulation reason.
    assert_eq!(s.first().map(|x| x.2.clone()), Some(None), "{s:?}");
}

/// A function's only stage may take the function's whole share of the
/// simulation's work (20 million units of z3's work, not one stage's 10
/// million): LLVM's `test6` of `nontrivial-unswitch.ll` under nontrivial
/// unswitching takes about 11.5 million (`CONVCHECK_PROGRESS_LOG=1` prints
/// it), so with one stage's budget it was inconclusive (the explicit engine
/// and the product cannot decide loops bounded by loaded values).
#[test]
fn a_functions_only_stage_takes_the_functions_share() {
    let (code, out, err) = convcheck(&[
        "check",
        "checker/tests/pairs/test6.ll",
        "checker/tests/pairs/test6_unswitched.ll",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(v["verdict"], "proved", "{out}");
    assert_eq!(v["stages"][0]["proof"]["kind"], "simulation", "{out}");
}
