//! Running the real LLVM tools: `opt` (default `opt-19`, else `opt` on the
//! PATH, or the binary the user names) and `clang-19`, as processes with a
//! time budget, their output collected through temporary files (a pipe
//! could fill up and block the tool: `-print-changed` prints the whole
//! module after every pass that changed it).
//!
//! Nothing here interprets LLVM IR; the callers parse what the tools print.
//!
//! One exception to "what the tool printed": an opt run that steps through
//! its pipeline (`-print-changed`, quiet or not, with
//! `-opt-bisect-limit=-1`) is run with `-print-changed` (not quiet), and
//! every pass that invalidated its unit, after which opt prints no module,
//! gets the module `-opt-bisect-limit=N` gives, put into
//! [`ToolRun::stderr`] under an ordinary dump header
//! ([`super::dumps::complete`]), so that each pass that changed a function
//! is a stage of its own.

use crate::process::{Failure, Keep, Spawn};
use std::path::Path;
use std::time::Duration;

/// What a tool printed.
pub struct ToolRun {
    /// The exact command line, for reports and for replaying by hand.
    pub command: String,
    /// Its standard output (or its `-o` file when it writes one).
    pub stdout: String,
    /// Its standard error (for a stepping opt run, completed with the
    /// modules of the passes that invalidated their unit; see the module
    /// documentation).
    pub stderr: String,
    /// Why it failed (its exit status and first lines of standard error),
    /// when [`run`] was asked to keep the output of a failing run.
    pub failure: Option<String>,
}

/// Quotes one word for a POSIX shell when it needs quoting.
pub use crate::process::shell_quote as shell_word;

/// Whether `bin` can be started (it answers `--version`).
pub fn available(bin: &str) -> bool {
    let args = vec!["--version".to_string()];
    crate::process::run(&Spawn {
        program: bin,
        args: &args,
        timeout: Duration::from_secs(20),
        stdout: Keep::Head(4096),
        stderr: Keep::Tail(4096),
    })
    .is_ok_and(|f| f.status.success())
}

/// The first of `candidates` that is an executable file (a path, or a name
/// looked up on `PATH` as the system's `execvp` does), or an error naming
/// them all and saying how to get LLVM 19. Nothing is run: asking each
/// candidate for `--version` first cost a whole opt start-up per check
/// (18 ms of CPU, as much as a third of `opt -O2` on seed 000;
/// docs/src/performance.md, "Seed 000 through `default<O2>`: where the
/// time went"). A candidate that is there but does not run fails at its
/// own run, with its command and message.
pub fn find(candidates: &[&str], what: &str) -> Result<String, String> {
    for c in candidates {
        if executable_on_path(c) {
            return Ok((*c).to_string());
        }
    }
    Err(format!(
        "cannot run {} ({what}); install LLVM 19 (`apt-get install -y llvm-19 clang-19`) or name \
         the binary",
        candidates.join(" or ")
    ))
}

/// Runs `bin args...`, with `out` as the file the tool writes with `-o`
/// (read back as [`ToolRun::stdout`]), under `timeout`. A tool that fails
/// or runs out of time is an error with its command and standard error.
pub fn run(bin: &str, args: &[String], out: &Path, timeout: Duration) -> Result<ToolRun, String> {
    let r = run_keeping(bin, args, out, timeout)?;
    match r.failure {
        Some(f) => Err(f),
        None => Ok(r),
    }
}

/// Like [`run`], but a tool that exits with a failure still returns what
/// it printed, with [`ToolRun::failure`] set (opt prints the module after
/// each pass before its verifier aborts on a broken one).
pub fn run_keeping(
    bin: &str,
    args: &[String],
    out: &Path,
    timeout: Duration,
) -> Result<ToolRun, String> {
    if !stepping(args) {
        return run_once(bin, args, out, timeout);
    }
    let loud: Vec<String> = args
        .iter()
        .map(|a| {
            if a.starts_with("-print-changed") {
                "-print-changed".to_string()
            } else {
                a.clone()
            }
        })
        .collect();
    let mut r = run_once(bin, &loud, out, timeout)?;
    let gone = super::dumps::invalidated(&r.stderr);
    if gone.is_empty() {
        return Ok(r);
    }
    let dir =
        tempfile::tempdir().map_err(|e| format!("{}: no temporary folder: {e}", r.command))?;
    let mut fetched = Vec::new();
    for inv in gone {
        let module = fetch(bin, args, out, inv.bisect, dir.path(), timeout).map_err(|e| {
            format!(
                "{}: opt printed no module after {} (opt-bisect {}), which invalidated its \
                 unit, and fetching it failed: {e}",
                r.command, inv.pass, inv.bisect
            )
        })?;
        fetched.push((inv, module));
    }
    r.stderr = super::dumps::complete(&r.stderr, &fetched);
    Ok(r)
}

/// Whether `bin` names an executable file: itself when it has a `/`,
/// else in one of the folders of `PATH` (an empty entry is the current
/// folder).
fn executable_on_path(bin: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if bin.is_empty() {
        return false;
    }
    if bin.contains('/') {
        return runnable(Path::new(bin));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|d| {
        let d = if d.as_os_str().is_empty() {
            std::path::PathBuf::from(".")
        } else {
            d
        };
        runnable(&d.join(bin))
    })
}

/// Whether an opt run steps through its pipeline (see the module
/// documentation).
fn stepping(args: &[String]) -> bool {
    args.iter().any(|a| a.starts_with("-print-changed"))
        && args.iter().any(|a| a == "-opt-bisect-limit=-1")
}

/// The module after pass `n` of a stepping run: the same run without its
/// printing options, with `-opt-bisect-limit=n` and `-disable-verify` (a
/// pass may leave a broken module, which the caller reports), its output
/// in `dir`.
fn fetch(
    bin: &str,
    args: &[String],
    out: &Path,
    n: u64,
    dir: &Path,
    timeout: Duration,
) -> Result<String, String> {
    let path = dir.join(format!("bisect-{n}.ll"));
    let shown_out = out.display().to_string();
    let mut fetch_args: Vec<String> = Vec::new();
    for a in args {
        if a.starts_with("-print-changed") || a == "-print-module-scope" {
            continue;
        }
        if a == "-opt-bisect-limit=-1" {
            fetch_args.push(format!("-opt-bisect-limit={n}"));
        } else if *a == shown_out {
            fetch_args.push(path.display().to_string());
        } else {
            fetch_args.push(a.clone());
        }
    }
    fetch_args.push("-disable-verify".into());
    run_once(bin, &fetch_args, &path, timeout).and_then(|r| match r.failure {
        Some(f) => Err(f),
        None => Ok(r.stdout),
    })
}

fn run_once(bin: &str, args: &[String], out: &Path, timeout: Duration) -> Result<ToolRun, String> {
    let command = crate::process::command_line(bin, args);
    let done = crate::process::run(&Spawn {
        program: bin,
        args,
        timeout,
        stdout: Keep::Head(MAX_OUTPUT),
        // Through a file: opt's dumps come in thousands of small writes.
        stderr: Keep::FileHead(MAX_OUTPUT),
    })
    .map_err(|f| match f {
        Failure::Start(e) => format!("{command}: cannot start {bin}: {e}"),
        Failure::Timeout => format!(
            "{command}: ran out of its time budget ({} s)",
            timeout.as_secs()
        ),
        Failure::Wait(e) => format!("{command}: {e}"),
    })?;
    let stderr = String::from_utf8_lossy(&done.stderr).into_owned();
    let status = done.status;
    if !status.success() {
        // Without the modules opt printed (clang's messages are kept whole).
        let dumped = stderr.contains("*** IR ");
        let said: Vec<&str> = if dumped {
            super::dumps::messages(&stderr)
                .into_iter()
                .take(20)
                .collect()
        } else {
            stderr.lines().take(20).collect()
        };
        let failure = format!("{command} failed ({status}):\n{}", said.join("\n"));
        return Ok(ToolRun {
            command: command.clone(),
            stdout: std::fs::read_to_string(out).unwrap_or_default(),
            stderr,
            failure: Some(failure),
        });
    }
    let stdout = std::fs::read_to_string(out)
        .map_err(|e| format!("{command}: cannot read its output {}: {e}", out.display()))?;
    Ok(ToolRun {
        command,
        stdout,
        stderr,
        failure: None,
    })
}

/// The most of a tool's standard output and standard error kept: opt's
/// dumps of a whole pipeline (`-print-changed -print-module-scope`) are
/// read from standard error, and a few kilobytes of IR through `-O2` make
/// tens of megabytes of them.
const MAX_OUTPUT: usize = 1 << 30;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_is_found_on_path_without_being_run() {
        assert_eq!(
            find(&["convcheck-no-such-tool", "sh"], "for a test"),
            Ok("sh".to_string())
        );
        assert!(executable_on_path("/bin/sh"));
        // A file that is there but not executable, a folder, nothing.
        let plain = tempfile::NamedTempFile::new().expect("a temporary file");
        let path = plain.path().display().to_string();
        assert!(!executable_on_path(&path), "{path}");
        assert!(!executable_on_path("/bin"));
        assert!(!executable_on_path(""));
        let err = find(&["convcheck-no-such-tool"], "for a test").unwrap_err();
        assert!(err.contains("cannot run convcheck-no-such-tool"), "{err}");
    }
}
