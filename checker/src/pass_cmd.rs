//! The external-pass adapter of `convcheck fuzz --pass-cmd 'CMD'`: hands
//! one program to a user's command and reads back what the command made of
//! it.
//!
//! The program goes to the command as a file in one of three exchange
//! formats ([`Exchange`]), chosen with `--exchange NAME`, where NAME is the
//! format or its file extension (default `kernel`): kernel-language text
//! (`kernel` or `c`, a `.c` file), the IR text form (`ir` or `cvir`, a
//! `.cvir` file: [`convcheck_ir::print::module_text`] and
//! [`convcheck_ir::parse::parse_module`]) or LLVM IR (`llvm` or `ll`, a `.ll`
//! file: [`convcheck_llvm::write::module_text`] and
//! [`convcheck_llvm::to_ir::to_module`]).
//! The command runs as `sh -c 'CMD FILE'` (FILE shell-quoted) and must print
//! the transformed program, in the same format, on standard output.
//!
//! What running it guarantees ([`run_command`]):
//!
//! - standard output and standard error are read concurrently, each by its
//!   own thread, so a command that writes megabytes to standard error never
//!   blocks on a full pipe (the last 2 KiB of it are kept for the message);
//! - the command runs in a process group of its own; when it exits, and on
//!   timeout, the whole group is killed (`killpg(SIGKILL)`), so children of
//!   `sh` never outlive the program they were given;
//! - the file lives in a temporary folder (`tempfile`) that is removed when
//!   the run ends, whatever happened;
//! - a command that exits non-zero, times out, prints something that is not
//!   UTF-8 or not a program of the format is a *command failure* with the
//!   reason, never a verdict.

use convcheck_ir::Module;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use wait_timeout::ChildExt;

/// How a program goes to an external command and comes back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Exchange {
    /// Kernel-language text (`.c`); compared at the source level.
    #[default]
    Kernel,
    /// The IR text form (`.cvir`); compared at the CFG level.
    Ir,
    /// LLVM IR (`.ll`); compared at the CFG level.
    Llvm,
}

impl Exchange {
    /// The file extension of the format, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Exchange::Kernel => "c",
            Exchange::Ir => "cvir",
            Exchange::Llvm => "ll",
        }
    }

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Exchange::Kernel => "kernel",
            Exchange::Ir => "ir",
            Exchange::Llvm => "llvm",
        }
    }

    /// The format of a file with extension `ext` (`c`, `cu`, `cl`, `cvir`,
    /// `ll`).
    pub fn from_extension(ext: &str) -> Option<Exchange> {
        match ext {
            "c" | "cu" | "cl" | "cpp" | "cc" | "h" => Some(Exchange::Kernel),
            "cvir" => Some(Exchange::Ir),
            "ll" => Some(Exchange::Llvm),
            _ => None,
        }
    }

    /// Writes a lowered module in this format (not for [`Exchange::Kernel`],
    /// whose text is the kernel's own).
    pub fn write_module(self, m: &Module) -> String {
        match self {
            Exchange::Kernel | Exchange::Ir => convcheck_ir::print::module_text(m),
            Exchange::Llvm => convcheck_llvm::write::module_text(m),
        }
    }

    /// Reads a module in this format (IR or LLVM IR); `name` names it in
    /// messages. A function the LLVM mapping skips is named in the error
    /// only when it is `entry`.
    pub fn read_module(self, name: &str, text: &str, entry: &str) -> Result<Module, String> {
        match self {
            Exchange::Kernel | Exchange::Ir => {
                convcheck_ir::parse::parse_module(name, text).map_err(|d| d.to_string())
            }
            Exchange::Llvm => {
                let m = convcheck_llvm::parse_module(text, name).map_err(|e| e.to_string())?;
                let mapped = convcheck_llvm::to_ir::to_module(&m, name);
                if let Some(u) = mapped.skipped.iter().find(|u| u.function == entry) {
                    return Err(format!("unsupported: {u}"));
                }
                Ok(mapped.module)
            }
        }
    }
}

/// Quotes `s` for a POSIX shell: unchanged when it is made only of
/// characters no shell treats specially, else in single quotes (a single
/// quote inside becomes `'\''`).
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=,@%+".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The most of standard output kept (larger output is a failure).
const MAX_STDOUT: usize = 64 << 20;
/// The tail of standard error kept for the failure message.
const STDERR_TAIL: usize = 2048;
/// How long the readers may take to see the end of the pipes once the
/// command's process group is gone.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// Reads `r` to its end on a thread of its own, keeping at most `keep`
/// bytes (the first ones when `head`, else the last ones) and draining the
/// rest; sends `(bytes, total)` when the pipe closes.
fn reader(
    mut r: impl Read + Send + 'static,
    keep: usize,
    head: bool,
) -> mpsc::Receiver<(Vec<u8>, usize)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut total = 0usize;
        let mut buf = [0u8; 8192];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    total += n;
                    if head {
                        let room = keep.saturating_sub(kept.len());
                        kept.extend_from_slice(&buf[..n.min(room)]);
                    } else {
                        kept.extend_from_slice(&buf[..n]);
                        if kept.len() > keep {
                            kept.drain(..kept.len() - keep);
                        }
                    }
                }
            }
        }
        let _ = tx.send((kept, total));
    });
    rx
}

/// Runs `sh -c 'CMD FILE'` where FILE holds `input` and ends in
/// `.extension`, within `timeout`; returns the command's standard output.
/// See the module documentation for what is guaranteed.
pub fn run_command(
    cmd: &str,
    input: &str,
    extension: &str,
    timeout: Duration,
) -> Result<String, String> {
    let dir = tempfile::Builder::new()
        .prefix("convcheck-pass-")
        .tempdir()
        .map_err(|e| format!("temporary folder: {e}"))?;
    let path = dir.path().join(format!("kernel.{extension}"));
    std::fs::write(&path, input).map_err(|e| format!("temporary file: {e}"))?;
    let line = format!("{cmd} {}", shell_quote(&path.to_string_lossy()));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&line)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run `{cmd}`: {e}"))?;
    let group = Pid::from_raw(child.id() as i32);
    let out = child.stdout.take().map(|o| reader(o, MAX_STDOUT + 1, true));
    let err = child.stderr.take().map(|e| reader(e, STDERR_TAIL, false));
    let status = child.wait_timeout(timeout);
    // Whatever happened, nothing the command started outlives it: the
    // group id stays reserved while any member lives, so this cannot hit
    // an unrelated process.
    let _ = killpg(group, Signal::SIGKILL);
    let status = match status {
        Ok(Some(s)) => s,
        Ok(None) => {
            let _ = child.wait();
            return Err(format!(
                "`{cmd}` did not finish within {} s (its process group was killed)",
                timeout.as_secs_f64()
            ));
        }
        Err(e) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("waiting for `{cmd}`: {e}"));
        }
    };
    let collect = |rx: Option<mpsc::Receiver<(Vec<u8>, usize)>>| {
        rx.and_then(|rx| rx.recv_timeout(DRAIN_GRACE).ok())
            .unwrap_or_default()
    };
    let (stdout, stdout_len) = collect(out);
    let (stderr, _) = collect(err);
    drop(dir);
    if !status.success() {
        let tail = String::from_utf8_lossy(&stderr);
        let tail = tail.trim();
        return Err(if tail.is_empty() {
            format!("`{cmd}` exited with {status}")
        } else {
            format!("`{cmd}` exited with {status}: {tail}")
        });
    }
    if stdout_len > MAX_STDOUT {
        return Err(format!(
            "`{cmd}` printed more than {} MiB",
            MAX_STDOUT >> 20
        ));
    }
    String::from_utf8(stdout).map_err(|_| format!("the output of `{cmd}` is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_round_trips_through_sh() {
        for s in [
            "plain",
            "a b",
            "it's",
            "",
            "$HOME",
            "a'b'c",
            "x=1,2 y=3",
            "--thread",
        ] {
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("printf %s {}", shell_quote(s)))
                .output()
                .expect("sh");
            assert_eq!(String::from_utf8_lossy(&out.stdout), s, "{s:?}");
        }
    }

    #[test]
    fn the_file_has_the_extension_and_its_folder_is_removed() {
        let out = run_command("echo", "x", "cvir", Duration::from_secs(10)).expect("echo");
        let path = out.trim();
        assert!(path.ends_with("kernel.cvir"), "{path}");
        assert!(!std::path::Path::new(path).exists(), "{path} still exists");
    }
}
