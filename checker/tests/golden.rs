//! Golden outputs of the command line (wasm-tools' style): every file in
//! `tests/golden/` starts with a `# RUN: convcheck ARGS...` line, then the
//! exit code (`# EXIT: N`) and, after `# STDOUT:`, what the command prints
//! on standard output, byte for byte. The command runs from the repository
//! root.
//!
//! After a deliberate change of output, `CONVCHECK_BLESS=1 cargo test -p
//! convcheck --test integration golden::` rewrites the files instead of failing; review
//! the diff before committing it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

struct Case {
    path: PathBuf,
    args: Vec<String>,
    exit: i32,
    stdout: String,
}

fn read(path: &Path) -> Case {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.split_inclusive('\n');
    let run = lines.next().unwrap_or("");
    let Some(cmd) = run.trim_end().strip_prefix("# RUN: convcheck ") else {
        panic!(
            "{}: the first line must be `# RUN: convcheck ...`",
            path.display()
        );
    };
    let exit_line = lines.next().unwrap_or("");
    let exit = exit_line
        .trim_end()
        .strip_prefix("# EXIT: ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}: the second line must be `# EXIT: N`", path.display()));
    let marker = lines.next().unwrap_or("");
    assert_eq!(
        marker.trim_end(),
        "# STDOUT:",
        "{}: the third line must be `# STDOUT:`",
        path.display()
    );
    Case {
        path: path.to_path_buf(),
        args: common::shell_words(cmd),
        exit,
        stdout: lines.collect(),
    }
}

#[test]
fn command_line_outputs_match_their_golden_files() {
    let dir = root().join("checker/tests/golden");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "only {} golden files", files.len());
    let bless = std::env::var_os("CONVCHECK_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for f in &files {
        let case = read(f);
        let out = Command::new(env!("CARGO_BIN_EXE_convcheck"))
            .args(&case.args)
            .current_dir(root())
            .output()
            .expect("the binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let exit = out.status.code().unwrap_or(-1);
        if stdout == case.stdout && exit == case.exit {
            continue;
        }
        if bless {
            let text = format!(
                "# RUN: convcheck {}\n# EXIT: {exit}\n# STDOUT:\n{stdout}",
                case.args
                    .iter()
                    .map(|a| if a.contains(' ') || a.is_empty() {
                        format!("'{a}'")
                    } else {
                        a.clone()
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            std::fs::write(&case.path, text).expect("bless writes");
            continue;
        }
        failures.push(format!(
            "{}: exit {exit} (expected {}), stdout:\n{stdout}\n--- expected:\n{}",
            case.path.display(),
            case.exit,
            case.stdout
        ));
    }
    assert!(
        failures.is_empty(),
        "{} golden file(s) differ (CONVCHECK_BLESS=1 rewrites them):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn run_lines_split_like_a_shell() {
    assert_eq!(
        common::shell_words("run f.c --thread 'c=1,0 d=0' --level cfg"),
        ["run", "f.c", "--thread", "c=1,0 d=0", "--level", "cfg"]
    );
    assert_eq!(common::shell_words("a '' b"), ["a", "", "b"]);
}
