//! The replay lines of `check` on LLVM IR (issue 11) reproduce the tables
//! the report prints: each printed line runs through `sh -c`, with the
//! built binary first on `PATH`, and the table it prints is compared with
//! the report's. For a `.ll` pair the lines are `convcheck run A.ll` and
//! `convcheck run B.ll`; for a stage of `opt` the line first writes the
//! module after that pass with real `opt-19 -opt-bisect-limit=N` (and,
//! before that, the module opt read when it was not a file: convcheck's
//! lowering of a kernel, clang's output). Tests that need `opt-19` or
//! `clang-19` print why they skip when the tools are absent.

mod common;
use common::{have, root};
use std::path::{Path, PathBuf};
use std::process::Command;

fn convcheck_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_convcheck"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Runs `line` in a shell in `dir`, as a user who pastes it would.
fn shell_in(dir: &Path, line: &str) -> (i32, String, String) {
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
        .current_dir(dir)
        .output()
        .expect("sh");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// A fresh folder with copies of `files` (paths from the repository
/// root, copied under their file names).
fn scratch_dir(name: &str, files: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "convcheck-replay-llvm-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    for f in files {
        let to = dir.join(Path::new(f).file_name().expect("file name"));
        std::fs::copy(root().join(f), to).expect("copy");
    }
    dir
}

/// Checks `args` in `dir` (a violating check), then runs the replay lines
/// of the first violated stage there and compares each table with the
/// report's, in JSON, and the printed text lines likewise. Returns the
/// JSON report.
fn replays_reproduce(dir: &Path, args: &[&str]) -> serde_json::Value {
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let (code, out) = convcheck_in(dir, &json_args);
    assert_eq!(code, 1, "{args:?}: {out}");
    let v = json(&out);
    let c = &v["counterexample"];
    for (line, table) in [
        (&c["replay"], &c["reference_table"]),
        (&c["replay_target"], &c["target_table"]),
    ] {
        let line = line
            .as_str()
            .unwrap_or_else(|| panic!("a replay line: {c}"));
        let (code, out, err) = shell_in(dir, &format!("{line} --format json"));
        assert_eq!(code, 0, "{line}: {out}{err}");
        let run = json(&out);
        assert_eq!(run["table"], table["table"], "{line}");
        assert_eq!(run["rows"], table["rows"], "{line}");
    }
    // Text: both printed lines, pasted as printed, give the tables the
    // report prints (rows of the grids).
    let (_, text) = convcheck_in(dir, args);
    for prefix in ["replay: ", "replay the target: "] {
        let line = text
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in\n{text}"));
        let (code, out, err) = shell_in(dir, line);
        assert_eq!(code, 0, "{line}: {err}");
        let rows: Vec<&str> = out.lines().filter(|l| l.starts_with('|')).collect();
        assert!(!rows.is_empty(), "{out}");
        for row in rows {
            assert!(text.contains(row), "{row} not in\n{text}");
        }
    }
    v
}

const O0: &str = "model/llvm/tests/data/plain_kernels_O0.ll";
const O2: &str = "model/llvm/tests/data/plain_kernels_O2.ll";

#[test]
fn replays_of_a_pair_of_ll_files_run_each_file() {
    // opt-19 -O2 folds loop_nest's outer loop header into the inner loop:
    // C is no longer converged (docs/src/llvm.md, findings).
    let args = [
        "check",
        O0,
        O2,
        "--function",
        "loop_nest",
        "--max-iters",
        "2",
    ];
    let v = replays_reproduce(&root(), &args);
    let c = &v["counterexample"];
    let replay = c["replay"].as_str().expect("replay");
    assert!(
        replay.starts_with(&format!(
            "convcheck run {O0} --function loop_nest --group 2"
        )),
        "{replay}"
    );
    let target = c["replay_target"].as_str().expect("replay_target");
    assert!(
        target.starts_with(&format!("convcheck run {O2} ")),
        "{target}"
    );
    // The two tables differ (that is the violation), and so do the runs.
    assert_ne!(c["reference_table"]["table"], c["target_table"]["table"]);
}

#[test]
fn replays_of_an_opt_stage_write_the_module_after_the_pass() {
    if !have(
        "opt-19",
        "replays_of_an_opt_stage_write_the_module_after_the_pass",
    ) {
        return;
    }
    let dir = scratch_dir("opt", &[O0]);
    let args = [
        "check",
        "plain_kernels_O0.ll",
        "--opt",
        "simplifycfg<no-keep-loops>",
        "--function",
        "loop_nest",
        "--max-iters",
        "2",
    ];
    let v = replays_reproduce(&dir, &args);
    let target = v["counterexample"]["replay_target"]
        .as_str()
        .expect("replay_target");
    assert!(
        target.starts_with(
            "opt-19 -passes='simplifycfg<no-keep-loops>' -S plain_kernels_O0.ll \
             -opt-bisect-limit=2 -o plain_kernels_O0.opt-bisect-2.ll && convcheck run \
             plain_kernels_O0.opt-bisect-2.ll --function loop_nest "
        ),
        "{target}"
    );
    // The file the line wrote is the module opt printed after the pass:
    // checked against the input, it is the same violation.
    let (code, out) = convcheck_in(
        &dir,
        &[
            "check",
            "plain_kernels_O0.ll",
            "plain_kernels_O0.opt-bisect-2.ll",
            "--function",
            "loop_nest",
            "--max-iters",
            "2",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 1, "{out}");
    let again = json(&out);
    assert_eq!(
        again["counterexample"]["target_table"],
        v["counterexample"]["target_table"]
    );
}

#[test]
fn later_violated_stages_of_opt_replay_their_own_target() {
    if !have(
        "opt-19",
        "later_violated_stages_of_opt_replay_their_own_target",
    ) {
        return;
    }
    // At -O2, SimplifyCFG breaks loop_nest and LoopUnroll, later, is
    // violated too; each stage keeps its own module, so each replays.
    let dir = scratch_dir("o2", &[O0]);
    let args = [
        "check",
        "plain_kernels_O0.ll",
        "--opt",
        "default<O2>",
        "--function",
        "loop_nest",
        "--max-iters",
        "2",
    ];
    let v = replays_reproduce(&dir, &args);
    let violated: Vec<&serde_json::Value> = v["stages"]
        .as_array()
        .expect("stages")
        .iter()
        .filter(|s| s["verdict"] == "violated")
        .collect();
    assert!(violated.len() >= 2, "{v}");
    assert_eq!(violated[0]["counterexample"], v["counterexample"]);
    for later in &violated[1..] {
        let c = &later["counterexample"];
        assert!(c["target_table"].is_object(), "{c}");
        for (line, table) in [
            ("replay", "reference_table"),
            ("replay_target", "target_table"),
        ] {
            let line = c[line].as_str().expect("replay line");
            let (code, out, err) = shell_in(&dir, &format!("{line} --format json"));
            assert_eq!(code, 0, "{line}: {err}");
            assert_eq!(json(&out)["table"], c[table]["table"], "{line}");
        }
    }
    let (_, text) = convcheck_in(&dir, &args);
    assert!(!text.contains("  no replay of the target"), "{text}");
}

#[test]
fn replays_of_a_kernel_through_opt_lower_it_first() {
    if !have("opt-19", "replays_of_a_kernel_through_opt_lower_it_first") {
        return;
    }
    let dir = scratch_dir("kernel", &["examples/seed/ambiguity-source.c"]);
    let args = [
        "check",
        "ambiguity-source.c",
        "--opt",
        "simplifycfg<no-keep-loops>",
        "--function",
        "loop_nest",
        "--max-iters",
        "2",
    ];
    let v = replays_reproduce(&dir, &args);
    let c = &v["counterexample"];
    // The reference is the kernel's source level; the target is written
    // by convcheck lower, then opt.
    assert!(
        c["replay"]
            .as_str()
            .is_some_and(|l| l.starts_with("convcheck run ambiguity-source.c --function")),
        "{c}"
    );
    assert!(
        c["replay_target"].as_str().is_some_and(|l| l.starts_with(
            "convcheck lower ambiguity-source.c --emit ll > ambiguity-source.c.ll && opt-19 "
        )),
        "{c}"
    );
}

#[test]
fn replays_of_clang_output_compile_it_first() {
    let test = "replays_of_clang_output_compile_it_first";
    if !have("opt-19", test) || !have("clang-19", test) {
        return;
    }
    let dir = scratch_dir("clang", &["examples/llvm/plain-kernels.c"]);
    let args = [
        "check",
        "plain-kernels.c",
        "--frontend",
        "clang",
        "--reference",
        "cfg",
        "--opt",
        "simplifycfg<no-keep-loops>",
        "--function",
        "loop_nest",
        "--max-iters",
        "2",
    ];
    let v = replays_reproduce(&dir, &args);
    let replay = v["counterexample"]["replay"].as_str().expect("replay");
    // The run is of clang's output as the check read it: `run` compiles
    // the source itself with the same front-end flags.
    assert!(
        replay.starts_with("convcheck run plain-kernels.c --function loop_nest --frontend clang "),
        "{replay}"
    );
    let target = v["counterexample"]["replay_target"]
        .as_str()
        .expect("replay_target");
    assert!(
        target.starts_with(
            "convcheck lower plain-kernels.c --frontend clang --emit ll > plain-kernels.c.ll && \
             opt-19 "
        ),
        "{target}"
    );
}

#[test]
fn every_function_of_a_pair_has_its_own_replays() {
    // Without --function, every function defined in both files is checked;
    // each violated one has replay lines naming it.
    let (code, out) = convcheck_in(
        &root(),
        &["check", O0, O2, "--max-iters", "2", "--format", "json"],
    );
    assert_eq!(code, 1, "{out}");
    let v = json(&out);
    let mut replayed = 0;
    for f in v["functions"].as_array().expect("functions") {
        if f["verdict"] != "violated" {
            assert!(f["counterexample"].is_null(), "{f}");
            continue;
        }
        let c = &f["counterexample"];
        let name = f["function"].as_str().expect("function");
        for (line, table) in [
            (&c["replay"], &c["reference_table"]),
            (&c["replay_target"], &c["target_table"]),
        ] {
            let line = line.as_str().expect("a replay line");
            assert!(line.contains(&format!(" --function {name} ")), "{line}");
            let (code, out, err) = shell_in(&root(), &format!("{line} --format json"));
            assert_eq!(code, 0, "{line}: {err}");
            assert_eq!(json(&out)["table"], table["table"], "{line}");
            replayed += 1;
        }
    }
    assert!(replayed >= 2, "{replayed}");
}
