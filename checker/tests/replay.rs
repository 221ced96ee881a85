//! Every replay line a report prints reproduces the printed table when it
//! is pasted into a shell (issue 12, item 5): the lines are run through
//! `sh -c` with the built binary first on `PATH`, and the tables compared.
//! Also: the two tables of a counterexample number matched instances
//! alike (item 8).

use std::path::Path;
use std::process::Command;

fn root() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/..")
}

fn convcheck(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_convcheck"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Runs `line` (a printed `convcheck ...` line) in a shell, as a user who
/// pastes it would; returns its standard output.
fn shell(line: &str) -> (i32, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_convcheck"))
        .parent()
        .expect("bin dir");
    let out = Command::new("sh")
        .arg("-c")
        .arg(line)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .current_dir(root())
        .output()
        .expect("sh");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn scratch_kernel(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("convcheck-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

/// Checks `args` (a violating `check`), then runs its replay lines and
/// compares each table with the report's, in JSON and in text.
fn replays_reproduce(args: &[&str]) {
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let (code, out) = convcheck(&json_args);
    assert_eq!(code, 1, "{args:?}: {out}");
    let v = json(&out);
    let stages = v["stages"].as_array().expect("stages");
    let mut replayed = 0;
    for s in stages.iter().filter(|s| s["verdict"] == "violated") {
        let c = &s["counterexample"];
        for (line, table) in [
            (&c["replay"], &c["reference_table"]),
            (&c["replay_target"], &c["target_table"]),
        ] {
            let Some(line) = line.as_str() else { continue };
            let (code, out) = shell(&format!("{line} --format json"));
            assert_eq!(code, 0, "{line}: {out}");
            let run = json(&out);
            assert_eq!(run["table"], table["table"], "{line}");
            assert_eq!(run["rows"], table["rows"], "{line}");
            replayed += 1;
        }
    }
    assert!(replayed >= 2, "{args:?}: {replayed} replays");
    // Text: the replay line pasted as printed gives the reference table
    // that the report prints on the left.
    let (_, text) = convcheck(args);
    let line = text
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("replay: "))
        .expect("a replay line");
    let (code, out) = shell(line);
    assert_eq!(code, 0, "{line}");
    let table: Vec<&str> = out.lines().filter(|l| l.starts_with(['+', '|'])).collect();
    assert!(!table.is_empty(), "{out}");
    for row in table {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("  {row}"))),
            "{row} not in\n{text}"
        );
    }
}

#[test]
fn replays_of_a_source_level_check_reproduce_both_tables() {
    replays_reproduce(&[
        "check",
        "examples/seed/ambiguity-source.c",
        "--function",
        "loop_nest",
        "--pass",
        "simplifycfg",
        "--threads",
        "2",
        "--max-iters",
        "2",
    ]);
}

#[test]
fn replays_of_a_cfg_reference_say_level_cfg() {
    let args = [
        "check",
        "examples/hazards/producer-consumer.c",
        "--reference",
        "cfg",
        "--pass",
        "branch-dist",
    ];
    replays_reproduce(&args);
    let (_, out) = convcheck(&args);
    let line = out
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("replay: "))
        .expect("replay");
    assert!(line.contains(" --level cfg"), "{line}");
}

#[test]
fn replays_keep_the_thread_indices_and_group_size() {
    let file = scratch_kernel(
        "tid3.c",
        "void kernel() {\n  while (c1) {\n    if (tid == 3) {\n      ballot(); // V\n    }\n    ...; // B\n  }\n}\n",
    );
    let args = ["check", file.as_str(), "--pass", "loop-unswitch.unsafe"];
    replays_reproduce(&args);
    let (_, out) = convcheck(&args);
    assert!(out.contains("--group 4 --tids 0,3"), "{out}");
}

#[test]
fn replays_quote_what_the_shell_would_split() {
    // A file name with a space and a quote, and values with spaces.
    let src = std::fs::read_to_string(format!("{}/examples/seed/ambiguity-source.c", root()))
        .expect("read");
    let file = scratch_kernel("it's a kernel.c", &src);
    replays_reproduce(&[
        "check",
        file.as_str(),
        "--function",
        "loop_nest",
        "--pass",
        "simplifycfg",
        "--threads",
        "2",
        "--max-iters",
        "2",
    ]);
}

#[test]
fn replays_printed_by_fuzz_reproduce_the_printed_tables() {
    let dir = std::env::temp_dir().join(format!("convcheck-replay-fuzz-{}", std::process::id()));
    let dir_s = dir.to_string_lossy().into_owned();
    let (code, out) = convcheck(&[
        "fuzz",
        "--pass",
        "loop-unswitch.unsafe",
        "--count",
        "40",
        "--out",
        &dir_s,
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    let v = json(&out);
    let violations = v["violations"].as_array().expect("violations");
    assert!(!violations.is_empty());
    for f in violations.iter().take(3) {
        let c = &f["report"]["counterexample"];
        for (line, table) in [
            (&c["replay"], &c["reference_table"]),
            (&c["replay_target"], &c["target_table"]),
        ] {
            let line = line.as_str().expect("a replay line");
            let (code, out) = shell(&format!("{line} --format json"));
            assert_eq!(code, 0, "{line}: {out}");
            assert_eq!(json(&out)["table"], table["table"], "{line}");
        }
        // The re-check command gives the same counterexample.
        let (code, out) = shell(&format!(
            "{} --format json",
            f["recheck"].as_str().expect("recheck")
        ));
        assert_eq!(code, 1, "{out}");
        assert_eq!(json(&out)["counterexample"], *c);
    }
}

#[test]
fn matched_instances_have_one_name_in_both_tables() {
    let (_, out) = convcheck(&[
        "check",
        "examples/seed/ambiguity-source.c",
        "--function",
        "loop_nest",
        "--pass",
        "simplifycfg",
        "--max-iters",
        "2",
        "--format",
        "json",
    ]);
    let c = &json(&out)["counterexample"];
    let names = |t: &serde_json::Value| -> Vec<Vec<String>> {
        t["instances"]
            .as_array()
            .expect("instances")
            .iter()
            .map(|row| {
                let mut r: Vec<String> = row
                    .as_array()
                    .expect("row")
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect();
                r.sort();
                r
            })
            .collect()
    };
    // Every thread has the same instances (by name) on both sides: the
    // pass moved them into other columns, it did not rename them.
    assert_eq!(names(&c["reference_table"]), names(&c["target_table"]));
}
