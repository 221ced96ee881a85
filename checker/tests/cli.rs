//! The command line as users see it: the real binary, its output and its
//! exit codes (DESIGN.md section 4).

use convcheck::corpus::TableCase;
use convcheck::demo::table;
use std::process::Command;

/// The corpus table `name` (`examples/corpus/tables.toml`).
fn case(name: &str) -> TableCase {
    table(name).unwrap_or_else(|e| panic!("{e}"))
}

/// The `--thread` arguments of a corpus table.
fn thread_args(c: &TableCase) -> Vec<&str> {
    c.threads
        .iter()
        .flat_map(|t| ["--thread", t.as_str()])
        .collect()
}

fn convcheck(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_convcheck"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_kernel(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("convcheck-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write kernel");
    path.to_string_lossy().into_owned()
}

fn json_table(stdout: &str) -> Vec<Vec<Option<String>>> {
    let v: serde_json::Value = serde_json::from_str(stdout).expect("one JSON object");
    serde_json::from_value(v["table"].clone()).expect("table is rows of labels or null")
}

fn check_seed_table(name: &str) {
    let c = case(name);
    let file = format!("examples/{}", c.kernel);
    let mut args = vec!["run", &file, "--function", &c.function, "--format", "json"];
    args.extend(thread_args(&c));
    let (code, stdout, stderr) = convcheck(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json_table(&stdout), c.expected(), "{name}");
}

#[test]
fn run_reproduces_the_three_tables_of_seed_000() {
    check_seed_table("seed-loop-continue");
    check_seed_table("seed-loop-nest");
    check_seed_table("seed-divergent-exit");
}

#[test]
fn the_two_loops_give_different_tables_on_one_scenario() {
    let amb = "examples/seed/ambiguity-source.c";
    let c = case("seed-loop-nest");
    let mut tables = Vec::new();
    for f in ["loop_continue", "loop_nest"] {
        let mut args = vec!["run", amb, "--function", f, "--format", "json"];
        args.extend(thread_args(&c));
        let (code, stdout, _) = convcheck(&args);
        assert_eq!(code, 0);
        tables.push(json_table(&stdout));
    }
    assert_ne!(tables[0], tables[1]);
}

#[test]
fn text_table_is_in_the_seed_format() {
    let c = case("seed-loop-nest");
    let mut args = vec![
        "run",
        "examples/seed/ambiguity-source.c",
        "--function",
        "loop_nest",
    ];
    args.extend(thread_args(&c));
    let (code, stdout, _) = convcheck(&args);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("| tid 0 | A1 | B1 | B3 | C1 |    |    | D1 |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| tid 1 | A2 | B2 |    | C2 | B4 | C3 | D2 |"),
        "{stdout}"
    );
}

#[test]
fn implementation_defined_instances_are_marked() {
    let (code, stdout, _) = convcheck(&["run", "examples/seed/backwards-goto.c"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("L1.1*"), "{stdout}");
    assert!(stdout.contains("implementation-defined"), "{stdout}");
    let (_, json, _) = convcheck(&["run", "examples/seed/backwards-goto.c", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert!(!v["implementation_defined_columns"]
        .as_array()
        .expect("array")
        .is_empty());
}

#[test]
fn default_scenario_runs_every_seed_example() {
    for entry in
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/seed")).expect("dir")
    {
        let path = entry.expect("entry").path();
        let p = path.to_string_lossy().into_owned();
        let (code, stdout, stderr) = convcheck(&["run", &p]);
        if p.ends_with("ambiguity-source.c") {
            assert_eq!(code, 2, "two kernels need --function");
            assert!(stderr.contains("--function"), "{stderr}");
            continue;
        }
        assert_eq!(code, 0, "{p}: {stderr}");
        assert!(stdout.contains("| tid 1 |"), "{p}: {stdout}");
    }
}

#[test]
fn demo_matches_the_seed() {
    let (code, stdout, stderr) = convcheck(&["demo"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.matches("= the table printed in seed 000").count(),
        5,
        "{stdout}"
    );
}

#[test]
fn bad_input_is_exit_2_with_a_position() {
    let missing = convcheck(&["run", "/nonexistent/kernel.c"]);
    assert_eq!(missing.0, 2);
    assert!(missing.2.contains("/nonexistent/kernel.c"), "{}", missing.2);

    let syntax = temp_kernel("syntax.c", "void k() {\n  ... // A\n  if (c) {\n}\n");
    let (code, _, stderr) = convcheck(&["run", &syntax]);
    assert_eq!(code, 2);
    assert!(stderr.contains("syntax.c:"), "{stderr}");
    assert!(stderr.contains("expected"), "{stderr}");

    let label = temp_kernel("label.c", "void k() {\n  goto nowhere;\n}\n");
    let (code, _, stderr) = convcheck(&["run", &label]);
    assert_eq!(code, 2);
    assert!(stderr.contains("label.c:2:3:"), "{stderr}");

    let ok = "examples/seed/sequential-branch.c";
    let (code, _, stderr) = convcheck(&["run", ok, "--thread", "cond=x"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("integer"), "{stderr}");
    let (code, _, stderr) = convcheck(&["run", ok, "--thread", "nosuch=1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not an oracle"), "{stderr}");
    let (code, _, _) = convcheck(&["run", ok, "--format", "yaml"]);
    assert_eq!(code, 2);
    let (code, _, stderr) = convcheck(&["run", ok, "--function", "nosuch"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("nosuch"), "{stderr}");
}

#[test]
fn running_out_of_fuel_is_inconclusive() {
    let spin = temp_kernel(
        "spin.c",
        "void k() {\n  while (1) {\n    ... // A\n  }\n}\n",
    );
    let (code, _, stderr) = convcheck(&["run", &spin, "--fuel", "1000"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("fuel"), "{stderr}");
}

#[test]
fn lower_emits_cfg_dot_svg_and_cycles() {
    let f = "examples/seed/divergent-exit-source.c";
    let (code, cfg, _) = convcheck(&["lower", f]);
    assert_eq!(code, 0);
    for block in [
        "entry:",
        "for.cond:",
        "for.body:",
        "if.then:",
        "for.inc:",
        "for.end:",
    ] {
        assert!(cfg.contains(block), "{cfg}");
    }
    assert!(cfg.contains("observe  ; C (line 6)"), "{cfg}");
    let (code, dot, _) = convcheck(&["lower", f, "--emit", "dot"]);
    assert_eq!(code, 0);
    assert!(
        dot.contains("style=dashed, color=red"),
        "back edge marked: {dot}"
    );
    let (code, svg, _) = convcheck(&["lower", f, "--emit", "svg"]);
    assert_eq!(code, 0);
    assert!(svg.contains("<svg") && svg.contains("for.cond"), "{svg}");
    let (code, cycles, _) =
        convcheck(&["lower", "examples/seed/duffs-device.c", "--emit", "cycles"]);
    assert_eq!(code, 0);
    assert!(cycles.contains("(irreducible)"), "{cycles}");
}

#[test]
fn lower_with_tokens_and_verification() {
    let f = "examples/seed/ambiguity-source.c";
    let (code, text, stderr) = convcheck(&["lower", f, "--tokens", "--verify"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.contains("= loop [convergencectrl %entry]"), "{text}");
    assert!(stderr.contains("no violation"));
    let (code, text, _) = convcheck(&["lower", f, "--infer-tokens", "--verify"]);
    assert_eq!(code, 0);
    assert!(text.contains("%heart."), "{text}");
    // The module text reads back as the same module.
    let m = convcheck_ir::parse::parse_module("lowered.cir", &text).expect("reads back");
    assert_eq!(convcheck_ir::print::module_text(&m), text);
    let (code, _, stderr) = convcheck(&["lower", "examples/seed/duffs-device.c", "--infer-tokens"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("irreducible"), "{stderr}");
}

#[test]
fn run_at_the_cfg_level_shows_the_seed_second_table() {
    let f = "examples/seed/divergent-exit-source.c";
    let second = case("seed-divergent-exit-cfg");
    let mut args = vec!["run", f, "--level", "cfg", "--format", "json"];
    args.extend(thread_args(&second));
    let (code, stdout, stderr) = convcheck(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json_table(&stdout), second.expected(), "{stdout}");
    args.push("--tokens");
    let (code, stdout, _) = convcheck(&args);
    assert_eq!(code, 0);
    assert_eq!(
        json_table(&stdout),
        case("seed-divergent-exit").expected(),
        "{stdout}"
    );
    // Irreducible CFG: the hierarchy is reported, with whether the table
    // depends on it.
    let (code, stdout, _) = convcheck(&["run", "examples/seed/jump-into-loop.c", "--level", "cfg"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("cycle hierarchies"), "{stdout}");
}

/// Whether the report's line for `stage` (`stage 2: simplifycfg`, with or
/// without the engine's note in parentheses) contains `what`.
fn stage_says(text: &str, stage: &str, what: &str) -> bool {
    text.lines().any(|l| {
        l.strip_prefix(stage)
            .is_some_and(|rest| rest.starts_with(':') || rest.starts_with(" ("))
            && l.contains(what)
    })
}

#[test]
fn check_reports_verdicts_with_exit_codes() {
    let amb = "examples/seed/ambiguity-source.c";
    let (code, text, _) = convcheck(&[
        "check",
        amb,
        "--function",
        "loop_nest",
        "--pass",
        "simplifycfg",
        "--max-iters",
        "2",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(
        stage_says(&text, "stage 2: simplifycfg", "VIOLATED"),
        "{text}"
    );
    // The first stage is decided against the source level.
    assert!(
        stage_says(&text, "stage 1: lower", "source level"),
        "{text}"
    );
    assert!(text.contains("replay: convcheck run"), "{text}");
    let (code, _, _) = convcheck(&[
        "check",
        amb,
        "--function",
        "loop_continue",
        "--pass",
        "simplifycfg",
        "--max-iters",
        "2",
    ]);
    assert_eq!(code, 0);
    let (code, _, _) = convcheck(&[
        "check",
        amb,
        "--function",
        "loop_nest",
        "--pass",
        "simplifycfg",
        "--tokens",
        "--max-iters",
        "2",
    ]);
    assert_eq!(code, 0);
    // Lowering without tokens is itself a violation for the divergent exit.
    let exit = "examples/seed/divergent-exit-source.c";
    let (code, text, _) = convcheck(&["check", exit, "--max-iters", "2"]);
    assert_eq!(code, 1, "{text}");
    assert!(stage_says(&text, "stage 1: lower", "VIOLATED"), "{text}");
    let (code, _, _) = convcheck(&["check", exit, "--tokens", "--max-iters", "2"]);
    assert_eq!(code, 0);
    // A bound that no scenario fits in is raised (doubled, up to 32) and
    // the check says so; past 32 it is inconclusive, never a pass.
    let fixed = temp_kernel(
        "fixed.c",
        "void k() {\n  for (int i = 0; i < 9; i++) {\n    ... // A\n  }\n}\n",
    );
    let explicit = |file: &str| {
        convcheck(&[
            "check",
            file,
            "--pass",
            "simplifycfg",
            "--max-iters",
            "2",
            "--engine",
            "explicit",
        ])
    };
    let (code, text, _) = explicit(&fixed);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("max-iters raised from 2 to 16: at 2 every run of the reference left"),
        "{text}"
    );
    let far = temp_kernel(
        "far.c",
        "void k() {\n  for (int i = 0; i < 40; i++) {\n    ... // A\n  }\n}\n",
    );
    let (code, text, _) = explicit(&far);
    assert_eq!(code, 3, "{text}");
    assert!(
        text.contains("max-iters raised up to 32 did not bring"),
        "{text}"
    );
    assert!(!text.contains("preserved"), "{text}");
    // The product's structural rule needs no bound: every stage keeps the
    // loop's structure, so the check is proved for all nine iterations.
    let (code, text, _) =
        convcheck(&["check", &fixed, "--pass", "simplifycfg", "--max-iters", "2"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("verdict: proved"), "{text}");
    // Bad pass names are usage errors.
    let (code, _, stderr) =
        convcheck(&["check", amb, "--function", "loop_nest", "--pass", "nosuch"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown pass"), "{stderr}");
    let (code, _, stderr) = convcheck(&[
        "check",
        amb,
        "--function",
        "loop_nest",
        "--pass",
        "simplifycfg<bogus>",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no option"), "{stderr}");
}

#[test]
fn check_json_and_sarif() {
    let amb = "examples/seed/ambiguity-source.c";
    let base = [
        "check",
        amb,
        "--function",
        "loop_nest",
        "--pass",
        "simplifycfg",
        "--max-iters",
        "2",
    ];
    let mut args = base.to_vec();
    args.extend(["--format", "json"]);
    let (code, json, _) = convcheck(&args);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["verdict"], "violated");
    // The lowering keeps every operation in its loops: proved by
    // structure against the source level's token CFG.
    assert_eq!(v["stages"][0]["verdict"], "proved");
    assert_eq!(v["stages"][1]["verdict"], "violated");
    assert_eq!(v["counterexample"]["stage"], "simplifycfg");
    assert_eq!(v["counterexample"]["property"], "convergence");
    assert!(v["counterexample"]["reference_table"]["table"].is_array());
    // Same input, same bytes.
    assert_eq!(convcheck(&args).1, json);
    let mut args = base.to_vec();
    args.extend(["--format", "sarif"]);
    let (code, sarif, _) = convcheck(&args);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&sarif).expect("sarif");
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "convergence");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        21
    );
}

#[test]
fn check_compares_two_files() {
    let nest = temp_kernel(
        "nest.c",
        "void k() {\n  ... // A\n  do {\n    do {\n      ... // B\n    } while (cond1);\n    ... // C\n  } while (cond2);\n  ... // D\n}\n",
    );
    let cont = temp_kernel(
        "cont.c",
        "void k() {\n  ... // A\n  for (;;) {\n    ... // B\n    if (cond1)\n      continue;\n    ... // C\n    if (cond2)\n      continue;\n    break;\n  }\n  ... // D\n}\n",
    );
    let (code, text, _) = convcheck(&["check", &nest, &cont, "--max-iters", "2"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        stage_says(&text, "stage 1: target file", "VIOLATED"),
        "{text}"
    );
    let (code, text, _) = convcheck(&["check", &nest, &nest, "--max-iters", "2"]);
    assert_eq!(code, 0, "{text}");
}

#[test]
fn ambiguity_and_passes() {
    let amb = "examples/seed/ambiguity-source.c";
    let (code, text, _) = convcheck(&[
        "ambiguity",
        amb,
        "--pass",
        "simplifycfg",
        "--max-iters",
        "2",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("AMBIGUITY"), "{text}");
    assert!(
        text.contains("loop_continue:") && text.contains("loop_nest:"),
        "{text}"
    );
    let (code, text, _) = convcheck(&[
        "ambiguity",
        amb,
        "--pass",
        "simplifycfg<keep-loops>",
        "--max-iters",
        "2",
    ]);
    assert_eq!(code, 0, "{text}");
    let (code, text, _) = convcheck(&["passes"]);
    assert_eq!(code, 0);
    for p in [
        "simplifycfg.hoist.unsafe",
        "loop-unswitch",
        "branch-dist.batch",
    ] {
        assert!(text.contains(p), "{text}");
    }
}

#[test]
fn fuzz_finds_the_loop_header_fold_and_is_deterministic() {
    // Seed 1 hits SimplifyCFG folding an empty loop header into a nested
    // cycle at program 247 (docs/src/fuzzing.md).
    let (code, text, _) = convcheck(&[
        "fuzz",
        "--pass",
        "simplifycfg",
        "--seed",
        "1",
        "--count",
        "260",
        "--stop-at-first",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("violation in program 247"), "{text}");
    assert!(text.contains("forwarded empty %for.cond"), "{text}");
    // A safe pass is never flagged (10,000 programs in the release
    // measurement of docs/src/fuzzing.md; 1,000 here).
    let (code, text, _) = convcheck(&[
        "fuzz",
        "--pass",
        "simplifycfg.merge-block",
        "--seed",
        "1",
        "--count",
        "1000",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("programs: 1000, preserved: 1000, violations: 0, inconclusive: 0"),
        "{text}"
    );
    // Same seed, same bytes (JSON has timings only under "stats").
    let args = [
        "fuzz",
        "--pass",
        "simplifycfg.merge-block",
        "--seed",
        "7",
        "--count",
        "15",
        "--format",
        "json",
    ];
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).expect("json");
        v["stats"] = serde_json::Value::Null;
        v
    };
    let (code, a, _) = convcheck(&args);
    assert_eq!(code, 0, "{a}");
    let (_, b, _) = convcheck(&args);
    assert_eq!(strip(&a), strip(&b));
    assert_eq!(strip(&a)["verdict"], "preserved");
    assert_eq!(strip(&a)["programs"], 15);
}

#[test]
fn fuzz_external_commands_and_bad_usage() {
    // `cat` is the identity transform: every program is preserved.
    let (code, text, _) = convcheck(&["fuzz", "--pass-cmd", "cat", "--seed", "3", "--count", "5"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("preserved: 5"), "{text}");
    // A failing command is counted, never a verdict.
    let (code, text, _) =
        convcheck(&["fuzz", "--pass-cmd", "false", "--seed", "3", "--count", "3"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("command failures: 3"), "{text}");
    let (code, _, stderr) = convcheck(&[
        "fuzz",
        "--pass",
        "simplifycfg",
        "--count",
        "1",
        "--shard",
        "2/2",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("I/N"), "{stderr}");
    let (code, _, _) = convcheck(&["fuzz", "--pass", "simplifycfg"]);
    assert_eq!(code, 2);
}

/// `lower --pass` shows the module after each pass: branch-dist removes the
/// barrier of a kernel whose threads share nothing, and the result reads
/// back as IR text.
#[test]
fn lower_shows_the_module_after_each_pass() {
    let f = "examples/hazards/register-only.c";
    let (code, text, stderr) = convcheck(&["lower", f, "--pass", "branch-dist"]);
    assert_eq!(code, 0, "{stderr}");
    let (before, after) = text.split_once("; after branch-dist").expect("two stages");
    assert!(before.starts_with("; after lower"), "{text}");
    assert!(
        before.contains("barrier plain @__syncthreads()"),
        "{before}"
    );
    let body = after.split("define").nth(1).expect("a function");
    assert!(!body.contains("barrier"), "the barrier is gone: {after}");
    let m = convcheck_ir::parse::parse_module("after.cir", after).expect("reads back");
    assert!(m.functions[0]
        .blocks
        .iter()
        .all(|b| !b.exprs().iter().any(|e| e.any(&mut |x| matches!(
            x,
            convcheck_ir::Expr::Call {
                kind: convcheck_ir::CallKind::Barrier(..),
                ..
            }
        )))));
}

/// `run --pass` runs the transformed CFG: after simplifycfg the seed's
/// loop nest has one loop, and its table converges C1 with B4's loop
/// iteration instead of keeping the source's columns.
#[test]
fn run_shows_the_table_after_a_pass() {
    let f = "examples/seed/ambiguity-source.c";
    let args = [
        "run",
        f,
        "--function",
        "loop_nest",
        "--level",
        "cfg",
        "--thread",
        "cond1=0 cond2=0",
        "--thread",
        "cond1=1,0,0 cond2=1,0",
    ];
    let (code, before, _) = convcheck(&args);
    assert_eq!(code, 0);
    let mut with_pass = args.to_vec();
    with_pass.extend(["--pass", "simplifycfg"]);
    let (code, after, stderr) = convcheck(&with_pass);
    assert_eq!(code, 0, "{stderr}");
    assert!(after.contains("after simplifycfg"), "{after}");
    assert!(
        after.contains("cycle header do.body1 {do.body1, do.end1}"),
        "{after}"
    );
    assert!(
        after.contains("| tid 1 | A2 | B2 | B3 |    | C2 | B4 | C3 | D2 |"),
        "{after}"
    );
    assert_ne!(before, after, "the pass changed the table");
    let (code, _, stderr) = convcheck(&["run", f, "--pass", "simplifycfg"]);
    assert_eq!(code, 2, "--pass needs --level cfg");
    assert!(stderr.contains("--level cfg"), "{stderr}");
}
