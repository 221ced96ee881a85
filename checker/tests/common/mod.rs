//! Helpers shared by the tests that run the `convcheck` binary and real
//! LLVM tools. Each test binary uses part of them, hence the `dead_code`
//! allowance.
#![allow(dead_code)]

pub mod llvm_files;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (examples are named relative to it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Runs the binary from the repository root: exit code, stdout, stderr.
pub fn convcheck(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_convcheck"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether `tool` runs; prints why the caller skips when it does not.
pub fn have(tool: &str, test: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!(
            "skipping {test}: `{tool}` is not installed (apt-get install -y llvm-19 clang-19)"
        );
    }
    ok
}

/// Writes `text` to `name` in this test binary's temporary folder.
pub fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "convcheck-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.to_string_lossy().into_owned()
}

/// `examples/gpu/reduce-int.cu` lowered by clang (`convcheck lower`) and
/// run through `opt-19 -passes=sroa`, written to `{prefix}.sroa.ll`, and
/// the same module with the block's partial sum (`add nsw`) made a `sub`,
/// written to `{prefix}.sum.ll`: the SROA output's text, its path, and the
/// wrong sum's path. Needs clang-19 and opt-19.
pub fn reduce_int_after_sroa(prefix: &str) -> (String, String, String) {
    let (code, ll, err) = convcheck(&[
        "lower",
        "examples/gpu/reduce-int.cu",
        "--frontend",
        "clang",
        "--emit",
        "ll",
    ]);
    assert_eq!(code, 0, "{err}");
    let src = temp(&format!("{prefix}.ll"), &ll);
    let out = Command::new("opt-19")
        .args(["-passes=sroa", "-S", &src])
        .output()
        .expect("opt-19 runs");
    let sroa = String::from_utf8_lossy(&out.stdout).into_owned();
    let reference = temp(&format!("{prefix}.sroa.ll"), &sroa);
    // The sum `sdata[tid] + sdata[tid + s]` made a difference.
    let add = sroa
        .lines()
        .find(|l| l.contains("= add nsw i32 %"))
        .expect("the partial sum");
    let wrong_sum = temp(
        &format!("{prefix}.sum.ll"),
        &sroa.replacen(add, &add.replacen("add nsw", "sub", 1), 1),
    );
    (sroa, reference, wrong_sum)
}

/// What one run of the binary printed and how it exited.
pub struct Out {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs the binary with `args` (the first is the program name, as in
/// `std::env::args`, and is skipped) from the repository root.
pub fn main_with_args<I, T>(args: I) -> Out
where
    I: IntoIterator<Item = T>,
    T: AsRef<str>,
{
    let words: Vec<String> = args.into_iter().map(|a| a.as_ref().to_string()).collect();
    let refs: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
    let (code, stdout, stderr) = convcheck(&refs);
    Out {
        code,
        stdout,
        stderr,
    }
}

/// Splits a command line as a POSIX shell would for the lines convcheck
/// writes (replay lines, `# RUN:` lines): words, single quotes grouping.
pub fn shell_words(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for ch in line.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}
