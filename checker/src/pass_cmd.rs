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

use crate::process::{Failure, Keep, Spawn};
use convcheck_ir::Module;
use std::time::Duration;

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

pub use crate::process::shell_quote;

/// The most of standard output kept (larger output is a failure).
const MAX_STDOUT: usize = 64 << 20;
/// The tail of standard error kept for the failure message.
const STDERR_TAIL: usize = 2048;
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
    let args = vec!["-c".to_string(), line];
    let run = crate::process::run(&Spawn {
        program: "sh",
        args: &args,
        timeout,
        stdout: Keep::Head(MAX_STDOUT + 1),
        stderr: Keep::Tail(STDERR_TAIL),
    });
    drop(dir);
    let done = match run {
        Ok(d) => d,
        Err(Failure::Start(e)) => return Err(format!("cannot run `{cmd}`: {e}")),
        Err(Failure::Timeout) => {
            return Err(format!(
                "`{cmd}` did not finish within {} s (its process group was killed)",
                timeout.as_secs_f64()
            ))
        }
        Err(Failure::Wait(e)) => return Err(format!("waiting for `{cmd}`: {e}")),
    };
    if !done.status.success() {
        let tail = String::from_utf8_lossy(&done.stderr);
        let tail = tail.trim();
        return Err(if tail.is_empty() {
            format!("`{cmd}` exited with {}", done.status)
        } else {
            format!("`{cmd}` exited with {}: {tail}", done.status)
        });
    }
    if done.stdout_len > MAX_STDOUT {
        return Err(format!(
            "`{cmd}` printed more than {} MiB",
            MAX_STDOUT >> 20
        ));
    }
    String::from_utf8(done.stdout).map_err(|_| format!("the output of `{cmd}` is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_has_the_extension_and_its_folder_is_removed() {
        let out = run_command("echo", "x", "cvir", Duration::from_secs(10)).expect("echo");
        let path = out.trim();
        assert!(path.ends_with("kernel.cvir"), "{path}");
        assert!(!std::path::Path::new(path).exists(), "{path} still exists");
    }
}
