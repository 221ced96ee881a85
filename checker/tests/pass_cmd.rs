//! `convcheck fuzz --pass-cmd`: an external transform run as a process
//! (checker/src/pass_cmd.rs), as a CI user runs it: no false violations
//! from a pass that changes nothing, no deadlock on a chatty command, no
//! process or temporary folder left behind, never `preserved` when the
//! commands failed, every written case with its report and the command
//! that re-checks it, and the three exchange formats.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_convcheck"))
        .parent()
        .expect("bin dir")
        .to_path_buf()
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("convcheck-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    dir
}

/// Runs the binary with `TMPDIR` set to `tmp` (so that its temporary
/// folders can be counted); returns (exit code, stdout, stderr).
fn convcheck_in(tmp: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_convcheck"))
        .args(args)
        .env("TMPDIR", tmp)
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

#[test]
fn a_comment_adding_no_op_gives_no_violation_in_300_programs() {
    let tmp = scratch("comment");
    // Before oracles were named by what they are, this gave 32 violations
    // in 100 programs: the comment shifted every line-named oracle.
    let (code, out, err) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass-cmd",
            "sed '1i // a comment the pass adds'",
            "--count",
            "300",
            "--format",
            "json",
        ],
    );
    let v = json(&out);
    assert_eq!(v["programs"], 300, "{err}");
    assert_eq!(v["violations"].as_array().map(Vec::len), Some(0), "{out}");
    assert_eq!(v["command_failures"], 0, "{out}");
    // The generator's implementation-defined constructs (noconvergent,
    // goto cycles, jumps into loops) make some programs inconclusive.
    assert!(code == 0 || code == 3, "{code}");
    // Without them every program is preserved.
    let (code, out, _) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass-cmd",
            "sed '1i // a comment the pass adds'",
            "--count",
            "300",
            "--gen",
            "noconvergent=false",
            "--gen",
            "backward_gotos=false",
            "--gen",
            "jumps_into_loops=false",
            "--format",
            "json",
        ],
    );
    let v = json(&out);
    assert_eq!((code, v["preserved"].as_u64()), (0, Some(300)), "{out}");
    // Every temporary folder of the 600 runs is gone.
    let left: Vec<_> = std::fs::read_dir(&tmp).expect("tmp").collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_command_flooding_standard_error_does_not_time_out() {
    let tmp = scratch("flood");
    // 1 MB on standard error, far past a pipe's 64 KiB, before the output.
    let (code, out, _) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass-cmd",
            "head -c 1000000 /dev/zero | tr '\\0' x >&2; cat",
            "--count",
            "20",
            "--cmd-timeout",
            "5",
            "--gen",
            "noconvergent=false",
            "--gen",
            "backward_gotos=false",
            "--gen",
            "jumps_into_loops=false",
            "--format",
            "json",
        ],
    );
    let v = json(&out);
    assert_eq!(v["command_failures"], 0, "{out}");
    assert_eq!((code, v["verdict"].as_str()), (0, Some("preserved")));
}

#[test]
fn a_command_that_always_fails_is_an_error_never_preserved() {
    let tmp = scratch("fails");
    let (code, out, _) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass-cmd",
            "false",
            "--count",
            "10",
            "--format",
            "json",
        ],
    );
    let v = json(&out);
    assert_eq!(code, 2);
    assert_eq!(v["verdict"], "error");
    assert_eq!(v["command_failures"], 10);
    let (code, out, _) = convcheck_in(&tmp, &["fuzz", "--pass-cmd", "exit 3;", "--count", "3"]);
    assert_eq!(code, 2);
    assert!(out.contains("verdict: error"), "{out}");
    assert!(!out.contains("preserved: 3"), "{out}");
    // Failing on some programs only: not everything was examined.
    let (code, out, _) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass-cmd",
            "sh -c 'grep -q while \"$1\" && exit 1; cat \"$1\"' pass",
            "--count",
            "40",
            "--gen",
            "noconvergent=false",
            "--gen",
            "backward_gotos=false",
            "--gen",
            "jumps_into_loops=false",
            "--format",
            "json",
        ],
    );
    let v = json(&out);
    let failures = v["command_failures"].as_u64().expect("count");
    assert!(failures > 0 && failures < 40, "{out}");
    assert_eq!((code, v["verdict"].as_str()), (3, Some("inconclusive")));
}

#[test]
fn a_timeout_kills_the_whole_process_group() {
    let tmp = scratch("group");
    let marker = tmp.join("survivor");
    // The command starts a child that would write the marker after 3 s,
    // and itself never ends within its 1 s.
    let cmd = format!(
        "sh -c '(sleep 3; touch {}) & sleep 60' pass",
        marker.display()
    );
    let start = std::time::Instant::now();
    let (code, out, _) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass-cmd",
            &cmd,
            "--count",
            "1",
            "--cmd-timeout",
            "1",
            "--format",
            "json",
        ],
    );
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    let v = json(&out);
    assert_eq!(code, 2, "{out}");
    assert!(
        v["first_command_failure"]
            .as_str()
            .is_some_and(|w| w.contains("did not finish within 1 s")),
        "{out}"
    );
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert!(
        !marker.exists(),
        "a child of the command outlived the timeout"
    );
}

#[test]
fn every_written_case_has_its_report_and_a_recheck_command_that_works() {
    let tmp = scratch("written");
    let out_dir = tmp.join("out");
    let out_s = out_dir.to_string_lossy().into_owned();
    // An external "pass" that deletes the first observation point breaks
    // single-thread behaviour.
    let (code, out, _) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass-cmd",
            "awk '/\\.\\.\\./ && !done { done = 1; next } { print }'",
            "--count",
            "40",
            "--out",
            &out_s,
            "--format",
            "json",
        ],
    );
    let v = json(&out);
    let cases: Vec<&serde_json::Value> = ["violations", "inconclusive_programs", "failed_programs"]
        .iter()
        .flat_map(|k| v[k].as_array().into_iter().flatten())
        .collect();
    assert!(code == 1, "{out}");
    assert!(!cases.is_empty());
    for c in &cases {
        let file = c["file"].as_str().expect("file");
        let base = file.trim_end_matches(".c");
        let text = std::fs::read_to_string(format!("{base}.txt")).expect("txt");
        assert!(text.len() > 40, "{base}.txt: {text}");
        let recheck = c["recheck"].as_str().expect("recheck");
        assert!(text.contains(recheck), "{text}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{base}.json")).expect("json"))
                .expect("report JSON");
        assert!(!report.is_null());
        assert!(report["verdict"].is_string(), "{report}");
    }
    // The re-check command of the first violation, pasted into a shell,
    // gives the violation again.
    let first = &v["violations"][0];
    let recheck = first["recheck"].as_str().expect("recheck");
    assert!(
        recheck.starts_with("convcheck fuzz --pass-cmd "),
        "{recheck}"
    );
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{recheck} --format json"))
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin_dir().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("TMPDIR", &tmp)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("sh");
    let again = json(&String::from_utf8_lossy(&status.stdout));
    assert_eq!(status.status.code(), Some(1), "{again}");
    assert_eq!(
        again["violations"][0]["report"]["counterexample"],
        first["report"]["counterexample"]
    );
}

#[test]
fn the_three_exchange_formats_round_trip_an_identity_command() {
    let tmp = scratch("exchange");
    for (format, comment) in [
        ("kernel", "//"),
        ("ir", ";"),
        ("llvm", ";"),
        ("cvir", ";"),
        ("ll", ";"),
    ] {
        let cmd = format!("sed '1i {comment} added by the pass'");
        let (code, out, err) = convcheck_in(
            &tmp,
            &[
                "fuzz",
                "--pass-cmd",
                &cmd,
                "--exchange",
                format,
                "--count",
                "60",
                "--gen",
                "noconvergent=false",
                "--gen",
                "backward_gotos=false",
                "--gen",
                "jumps_into_loops=false",
                "--format",
                "json",
            ],
        );
        let v = json(&out);
        assert_eq!(
            (code, v["preserved"].as_u64()),
            (0, Some(60)),
            "{format}: {out} {err}"
        );
    }
    // The file the command gets has the format's extension.
    let (_, out, _) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass-cmd",
            "sh -c 'case \"$1\" in *.ll) cat \"$1\";; *) exit 1;; esac' pass",
            "--exchange",
            "llvm",
            "--count",
            "3",
            "--format",
            "json",
        ],
    );
    assert_eq!(json(&out)["command_failures"], 0, "{out}");
}

#[test]
fn generator_settings_come_from_flags_or_a_file() {
    let tmp = scratch("knobs");
    let config = tmp.join("gen.toml");
    std::fs::write(&config, "loop_weight = 0\nnoconvergent = false\n").expect("write");
    let config_s = config.to_string_lossy().into_owned();
    let (code, out, err) = convcheck_in(
        &tmp,
        &[
            "fuzz",
            "--pass",
            "simplifycfg",
            "--count",
            "50",
            "--gen-config",
            &config_s,
            "--gen",
            "switches=false",
            "--format",
            "json",
        ],
    );
    let v = json(&out);
    assert!(code == 0 || code == 1, "{err}");
    assert_eq!(v["generator"]["loop_weight"], "0");
    assert_eq!(v["generator"]["noconvergent"], "false");
    assert_eq!(v["generator"]["switches"], "false");
    for (bad, what) in [
        ("colour=3", "unknown generator setting `colour`"),
        ("loop_weight=many", "loop_weight=many"),
        ("loop_weight", "expected KEY=VALUE"),
    ] {
        let (code, _, err) = convcheck_in(
            &tmp,
            &[
                "fuzz",
                "--pass",
                "simplifycfg",
                "--count",
                "1",
                "--gen",
                bad,
            ],
        );
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains(what), "{bad}: {err}");
    }
}
