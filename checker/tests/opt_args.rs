//! `--opt-arg`: the user's arguments reach opt after convcheck's own, in
//! `check --opt` (shown in the pipeline note and the reproduce lines) and
//! in `fuzz --opt` (its re-check lines carry them); an argument opt does
//! not know is opt's error, exit 2, never a verdict.

mod common;

use common::{convcheck, have};

const AMD: &str = "examples/llvm/lit/structurizecfg-amdgcn.ll";

#[test]
fn check_gives_opt_the_users_arguments() {
    let test = "check_gives_opt_the_users_arguments";
    if !have("opt-19", test) {
        return;
    }
    let (code, out, err) = convcheck(&[
        "check",
        AMD,
        "--opt",
        "structurizecfg",
        "--opt-arg=-mtriple=amdgcn--",
        "--opt-arg",
        "-structurizecfg-skip-uniform-regions",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "note: reproduce: opt-19 -passes=structurizecfg -S -mtriple=amdgcn-- \
             -structurizecfg-skip-uniform-regions {AMD} -opt-bisect-limit=1"
        )),
        "{out}"
    );
    let (code, out, err) = convcheck(&[
        "check",
        AMD,
        "--opt",
        "structurizecfg",
        "--opt-arg=-no-such-option",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("-no-such-option"), "{err}");
}

#[test]
fn fuzz_gives_opt_the_users_arguments() {
    let test = "fuzz_gives_opt_the_users_arguments";
    if !have("opt-19", test) || !have("clang-19", test) {
        return;
    }
    let (code, out, err) = convcheck(&[
        "fuzz",
        "--opt",
        "simplifycfg",
        "--opt-arg=-mtriple=amdgcn--",
        "--opt-arg=-simplifycfg-sink-common=false",
        "--count",
        "2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("programs: 2"), "{out}");
    let (code, out, err) = convcheck(&[
        "fuzz",
        "--opt",
        "simplifycfg",
        "--opt-arg=-no-such-option",
        "--count",
        "1",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("Unknown command line argument '-no-such-option'"),
        "{err}"
    );
}
