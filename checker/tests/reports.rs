//! Reports a CI reads (DESIGN.md section 4, issue 12): vacuous runs are
//! usage errors, SARIF never shows an inconclusive check as clean and
//! writes URIs that are URIs, JSON reports carry the tool, the command
//! line, columns and a counterexample per violated stage, errors under
//! `--format json` are one JSON object, fuzz seeds survive JavaScript, and
//! `lower --emit svg` is one XML document.

use std::process::Command;

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

fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("convcheck-reports-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    dir
}

/// Three nested varying loops: millions of pairs of paths at the default
/// bounds.
const HEAVY: &str = "void kernel() {
  while (c1) {
    ...; // A
    while (c2) {
      ...; // B
      while (c3) {
        ...; // C
        if (c4) { ...; // D
        }
      }
    }
  }
}
";

#[test]
fn vacuous_runs_are_usage_errors() {
    for args in [
        &[
            "check",
            "examples/seed/ambiguity-source.c",
            "--function",
            "loop_nest",
            "--threads",
            "0",
        ][..],
        &[
            "check",
            "examples/seed/ambiguity-source.c",
            "--function",
            "loop_nest",
            "--threads",
            "1",
        ],
        &[
            "check",
            "examples/seed/ambiguity-source.c",
            "--function",
            "loop_nest",
            "--timeout",
            "0",
        ],
        &["fuzz", "--pass", "simplifycfg", "--count", "0"],
        &["fuzz", "--pass", "simplifycfg", "--time", "0"],
        &["fuzz", "--pass", "simplifycfg"],
        &[
            "fuzz",
            "--pass-cmd",
            "cat",
            "--count",
            "1",
            "--cmd-timeout",
            "0",
        ],
        &[
            "corpus",
            "examples/seed/ambiguity-source.c",
            "--threads",
            "0",
        ],
        &[
            "run",
            "examples/seed/ambiguity-source.c",
            "--function",
            "loop_nest",
            "--tids",
            "3,3",
        ],
    ] {
        let (code, out, err) = convcheck(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn a_check_with_a_two_second_budget_ends_within_seconds_as_inconclusive() {
    let dir = scratch("heavy");
    let file = dir.join("heavy.c");
    std::fs::write(&file, HEAVY).expect("write");
    let start = std::time::Instant::now();
    let (code, out, _) = convcheck(&[
        "check",
        &file.to_string_lossy(),
        "--pass",
        "simplifycfg",
        "--timeout",
        "2",
        // The simulation engine proves this kernel at once; a budget
        // that runs out is what this test is about.
        "--engine",
        "explicit",
        "--format",
        "sarif",
    ]);
    let took = start.elapsed().as_secs_f64();
    assert!(took < 10.0, "took {took} s");
    assert_eq!(code, 3, "{out}");
    // SARIF: a warning result for the inconclusive stage, and a
    // notification, so a code-scanning view does not show it clean.
    let v = json(&out);
    let run = &v["runs"][0];
    let results = run["results"].as_array().expect("results");
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "inconclusive" && r["level"] == "warning"),
        "{out}"
    );
    let notes = run["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .expect("notifications");
    assert!(!notes.is_empty(), "{out}");
    // The file's absolute path is a file:// URI.
    let uri = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        .as_str()
        .expect("uri");
    assert!(uri.starts_with("file:///"), "{uri}");
}

#[test]
fn sarif_uris_are_percent_encoded() {
    use convcheck::report::sarif::sarif_uri;
    assert_eq!(sarif_uri("examples/seed/a.c"), "examples/seed/a.c");
    assert_eq!(sarif_uri("my kernels/50%.c"), "my%20kernels/50%25.c");
    assert_eq!(sarif_uri("/tmp/a b#c.c"), "file:///tmp/a%20b%23c.c");
    assert_eq!(sarif_uri("k\u{e9}.c"), "k%C3%A9.c");
    // A violation in a file whose name needs encoding.
    let dir = scratch("uri");
    let file = dir.join("loop nest #1.c");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/seed/ambiguity-source.c"
        ),
        &file,
    )
    .expect("copy");
    let (code, out, _) = convcheck(&[
        "check",
        &file.to_string_lossy(),
        "--function",
        "loop_nest",
        "--pass",
        "simplifycfg",
        "--threads",
        "2",
        "--max-iters",
        "2",
        "--format",
        "sarif",
    ]);
    assert_eq!(code, 1, "{out}");
    let v = json(&out);
    let result = &v["runs"][0]["results"][0];
    let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        .as_str()
        .expect("uri");
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/loop%20nest%20%231.c"),
        "{uri}"
    );
    let region = &result["locations"][0]["physicalLocation"]["region"];
    assert!(
        region["startColumn"].as_u64().is_some_and(|c| c >= 1),
        "{region}"
    );
}

#[test]
fn json_reports_carry_tool_command_line_columns_and_every_violated_stage() {
    // Two unsafe passes in a row: both stages are violated.
    let args = [
        "check",
        "examples/corpus/hoist-divergent.c",
        "--pass",
        "simplifycfg.hoist.unsafe",
        "--pass",
        "loop-unswitch.unsafe",
        "--threads",
        "2",
        "--max-iters",
        "2",
        "--format",
        "json",
    ];
    let (code, out, _) = convcheck(&args);
    assert_eq!(code, 1, "{out}");
    let v = json(&out);
    assert_eq!(v["tool"]["name"], "convcheck");
    assert_eq!(v["tool"]["version"], env!("CARGO_PKG_VERSION"));
    let line: Vec<&str> = v["command_line"]
        .as_array()
        .expect("command line")
        .iter()
        .skip(1)
        .map(|a| a.as_str().expect("word"))
        .collect();
    assert_eq!(line, args);
    let violated: Vec<&serde_json::Value> = v["stages"]
        .as_array()
        .expect("stages")
        .iter()
        .filter(|s| s["verdict"] == "violated")
        .collect();
    assert_eq!(violated.len(), 2, "{out}");
    for s in &violated {
        let c = &s["counterexample"];
        assert_eq!(c["stage"], s["name"], "{s}");
        let op = &c["operation"];
        assert!(op["line"].as_u64().is_some_and(|l| l >= 1), "{op}");
        assert!(op["column"].as_u64().is_some_and(|l| l >= 1), "{op}");
        assert!(c["replay"].as_str().is_some(), "{c}");
    }
    assert_eq!(v["counterexample"], violated[0]["counterexample"]);
}

#[test]
fn errors_under_format_json_are_one_json_object() {
    let dir = scratch("bad");
    let bad = dir.join("bad.c");
    std::fs::write(&bad, "void kernel() {\n  while ( {\n}\n").expect("write");
    let bad_s = bad.to_string_lossy().into_owned();
    for args in [
        vec!["check", bad_s.as_str(), "--format", "json"],
        vec![
            "check",
            "examples/seed/ambiguity-source.c",
            "--no-such-flag",
            "--format",
            "json",
        ],
        vec!["check", "no/such/file.c", "--format=json"],
        vec!["run", bad_s.as_str(), "--format", "json"],
        vec![
            "fuzz",
            "--pass",
            "no-such-pass",
            "--count",
            "1",
            "--format",
            "json",
        ],
        vec!["corpus", bad_s.as_str(), "--format", "json"],
    ] {
        let (code, out, err) = convcheck(&args);
        assert_eq!(code, 2, "{args:?}");
        let v = json(&out);
        assert_eq!(v["verdict"], "error", "{args:?}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{out}");
        assert_eq!(v["exit_code"], 2);
        // The message is on standard error too.
        assert!(!err.is_empty());
    }
    // The position of a syntax error is in the object.
    let (_, out, _) = convcheck(&["check", &bad_s, "--format", "json"]);
    let e = json(&out)["error"].as_str().expect("error").to_string();
    assert!(e.contains("bad.c:2:"), "{e}");
    // SARIF: an unsuccessful invocation with an error notification.
    let (code, out, _) = convcheck(&["check", &bad_s, "--format", "sarif"]);
    assert_eq!(code, 2);
    let v = json(&out);
    let inv = &v["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert_eq!(inv["toolExecutionNotifications"][0]["level"], "error");
}

#[test]
fn fuzz_seeds_are_strings_javascript_reads_exactly() {
    let (_, out, _) = convcheck(&[
        "fuzz",
        "--pass",
        "loop-unswitch.unsafe",
        "--seed",
        "18446744073709551615",
        "--count",
        "30",
        "--format",
        "json",
    ]);
    let v = json(&out);
    assert_eq!(v["seed"], "18446744073709551615");
    let violations = v["violations"].as_array().expect("violations");
    assert!(!violations.is_empty(), "{out}");
    for f in violations {
        let seed = f["seed"].as_str().expect("a string seed");
        assert!(seed.parse::<u64>().is_ok(), "{seed}");
        assert!(f["report"]["counterexample"].is_object(), "{f}");
    }
    // Same seed, same output apart from timings.
    let (_, again, _) = convcheck(&[
        "fuzz",
        "--pass",
        "loop-unswitch.unsafe",
        "--seed",
        "18446744073709551615",
        "--count",
        "30",
        "--format",
        "json",
    ]);
    let mut a = v.clone();
    let mut b = json(&again);
    for x in [&mut a, &mut b] {
        x["stats"] = serde_json::Value::Null;
        x["command_line"] = serde_json::Value::Null;
    }
    assert_eq!(a, b);
}

#[test]
fn lower_emit_svg_of_two_functions_is_one_xml_document() {
    for args in [
        vec!["lower", "examples/seed/ambiguity-source.c", "--emit", "svg"],
        vec![
            "lower",
            "examples/seed/ambiguity-source.c",
            "--emit",
            "svg",
            "--pass",
            "simplifycfg",
        ],
        vec![
            "lower",
            "examples/seed/ambiguity-source.c",
            "--emit",
            "svg",
            "--function",
            "loop_nest",
        ],
    ] {
        let (code, out, err) = convcheck(&args);
        assert_eq!(code, 0, "{err}");
        let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let drawings = root
            .descendants()
            .filter(|n| n.tag_name().name() == "svg")
            .count();
        let expected = match args.len() {
            4 => 3,                        // the outer document and one drawing per function
            6 if args[4] == "--pass" => 5, // two functions, before and after
            _ => 1,
        };
        assert_eq!(drawings, expected, "{args:?}");
    }
}

/// The words of an SVG document's text elements, in order.
fn svg_words(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("one XML document");
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

#[test]
fn lower_emit_svg_labels_branch_and_switch_arms() {
    // A two-way branch's arms are T and F; a switch's arms are its case
    // values and `default`.
    let (code, out, err) = convcheck(&[
        "lower",
        "examples/seed/ambiguity-source.c",
        "--function",
        "loop_continue",
        "--emit",
        "svg",
    ]);
    assert_eq!(code, 0, "{err}");
    let words = svg_words(&out);
    let count = |w: &str| words.iter().filter(|x| *x == w).count();
    // loop_continue has two conditional branches (the loop's and the if's).
    assert_eq!((count("T"), count("F")), (2, 2), "{words:?}");
    let (code, out, err) = convcheck(&["lower", "examples/seed/switch.c", "--emit", "svg"]);
    assert_eq!(code, 0, "{err}");
    let words = svg_words(&out);
    for arm in ["1", "2", "3", "default"] {
        assert!(words.iter().any(|w| w == arm), "{arm}: {words:?}");
    }
}
