//! `convcheck corpus`: the expectation runner as a command, for users'
//! own corpora (text, JSON, SARIF), and every function of a kernel file
//! in one call.

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

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("convcheck-corpus-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

#[test]
fn the_example_expectations_pass() {
    let (code, out, err) = convcheck(&["corpus", "examples/corpus/expectations.toml"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.lines().all(|l| !l.starts_with("FAIL")), "{out}");
    assert!(out.contains(" 0 not"), "{out}");
    let (code, out, _) = convcheck(&[
        "corpus",
        "examples/corpus/expectations.toml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["verdict"], "passed");
    let cases = v["cases"].as_array().expect("cases");
    assert!(cases.len() >= 28, "{}", cases.len());
    assert!(cases.iter().all(|c| c["ok"] == true));
    assert!(cases
        .iter()
        .any(|c| c["verdict"] == "violated" && c["report"]["counterexample"].is_object()));
    let (code, out, _) = convcheck(&[
        "corpus",
        "examples/corpus/expectations.toml",
        "--format",
        "sarif",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["runs"][0]["results"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_wrong_expectation_fails_with_exit_1_and_a_sarif_result() {
    let dir = scratch("wrong");
    let toml = dir.join("mine.toml");
    let kernel = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/seed/ambiguity-source.c"
    );
    std::fs::copy(kernel, dir.join("k.c")).expect("copy");
    std::fs::write(
        &toml,
        "threads = 2\nmax_iters = 2\n\n[[case]]\nkernel = \"k.c\"\nfunction = \"loop_nest\"\npasses = [\"simplifycfg\"]\nreference = \"cfg\"\nverdict = \"preserved\"\n\n[[case]]\nkernel = \"k.c\"\nfunction = \"loop_continue\"\npasses = [\"simplifycfg\"]\nreference = \"cfg\"\nverdict = \"preserved\"\n",
    )
    .expect("write");
    let toml_s = toml.to_string_lossy().into_owned();
    let (code, out, _) = convcheck(&["corpus", &toml_s]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL") && out.contains("expected preserved, got violated"),
        "{out}"
    );
    let (code, out, _) = convcheck(&["corpus", &toml_s, "--format", "sarif"]);
    assert_eq!(code, 1);
    let v = json(&out);
    let results = v["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{out}");
    assert_eq!(results[0]["ruleId"], "expectation");
}

#[test]
fn bad_corpus_files_are_usage_errors() {
    let dir = scratch("bad");
    let toml = dir.join("bad.toml");
    for (text, what) in [
        (
            "[[case]]\nkernel = \"nope.c\"\nverdict = \"preserved\"\n",
            "cannot read",
        ),
        (
            "[[case]]\nkernel = \"x.c\"\nverdict = \"fine\"\n",
            "is not one of",
        ),
        (
            "[[case]]\nkernel = \"x.c\"\nverdikt = \"preserved\"\n",
            "unknown field",
        ),
        ("[[case]\n", "bad.toml"),
    ] {
        std::fs::write(&toml, text).expect("write");
        let (code, out, err) = convcheck(&["corpus", &toml.to_string_lossy(), "--format", "json"]);
        assert_eq!(code, 2, "{text}");
        assert!(err.contains(what), "{text}: {err}");
        assert_eq!(json(&out)["verdict"], "error");
    }
}

#[test]
fn every_function_of_a_kernel_file_in_one_call() {
    let (code, out, _) = convcheck(&[
        "corpus",
        "examples/seed/ambiguity-source.c",
        "--pass",
        "simplifycfg",
        "--reference",
        "cfg",
        "--threads",
        "2",
        "--max-iters",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    let v = json(&out);
    let verdicts: Vec<(String, String)> = v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            (
                c["function"].as_str().unwrap_or("").to_string(),
                c["verdict"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("loop_continue".to_string(), "preserved".to_string()),
            ("loop_nest".to_string(), "violated".to_string())
        ]
    );
    // With a safe pipeline, every function is preserved: exit 0.
    let (code, out, _) = convcheck(&[
        "corpus",
        "examples/seed/ambiguity-source.c",
        "--pass",
        "simplifycfg<keep-loops>",
        "--reference",
        "cfg",
        "--threads",
        "2",
        "--max-iters",
        "2",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 functions: 2 preserved"), "{out}");
}

/// `--jobs` checks cases at once and reports them in the file's order:
/// the same text as one after the other, byte for byte.
#[test]
fn cases_checked_at_once_report_in_the_files_order() {
    let file = "examples/launch/expectations.toml";
    let (code1, one, _) = convcheck(&["corpus", file]);
    let (code3, three, err) = convcheck(&["corpus", file, "--jobs", "3"]);
    assert_eq!((code1, code3), (0, 0), "{three}{err}");
    assert!(
        one.contains("7 cases and 0 tables: 7 as expected, 0 not"),
        "{one}"
    );
    assert_eq!(one, three);
}

/// `--opt-bin` runs every LLVM case of a file through the given opt (a
/// user's own build): here a wrapper around opt-19 that leaves a mark, so
/// the test sees that it ran; a binary that does not exist is a usage
/// error naming it.
#[test]
fn opt_bin_runs_the_file_through_another_opt() {
    let test = "opt_bin_runs_the_file_through_another_opt";
    let opt = std::process::Command::new("opt-19")
        .arg("--version")
        .output();
    if !opt.is_ok_and(|o| o.status.success()) {
        println!("skipping {test}: `opt-19` is not installed (apt-get install -y llvm-19)");
        return;
    }
    let dir = scratch("opt-bin");
    let mark = dir.join("ran");
    let _ = std::fs::remove_file(&mark);
    let wrapper = dir.join("my-opt");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec opt-19 \"$@\"\n",
            mark.display()
        ),
    )
    .expect("wrapper");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let file = dir.join("e.toml");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/llvm");
    std::fs::write(
        &file,
        format!(
            "root = \"{root}\"\n[[case]]\nkernel = \"chr-vote.ll\"\nfunction = \"chr_vote\"\n\
             opt = \"require<profile-summary>,function(chr)\"\nverdict = \"violated\"\n"
        ),
    )
    .expect("expectations");
    let file = file.to_string_lossy().into_owned();
    let wrapper = wrapper.to_string_lossy().into_owned();
    let (code, out, err) = convcheck(&["corpus", &file, "--opt-bin", &wrapper]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("chr_vote") && out.contains(" 0 not"), "{out}");
    let ran = std::fs::read_to_string(&mark).expect("the wrapper ran");
    assert!(
        ran.contains("-passes=require<profile-summary>,function(chr)"),
        "{ran}"
    );
    // Without the flag the wrapper is not run.
    std::fs::remove_file(&mark).expect("mark");
    let (code, out, err) = convcheck(&["corpus", &file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!mark.exists());
    let (code, out, err) = convcheck(&["corpus", &file, "--opt-bin", "/nonexistent/opt"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("/nonexistent/opt"), "{err}");
}
