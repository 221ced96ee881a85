//! The one runner of external processes (clang, opt, llc, a `--pass-cmd`
//! command) and the one shell-quoting function.
//!
//! A process runs in a process group of its own, with no standard input;
//! both its pipes are read at once on threads of their own (so a process
//! that fills one pipe while the other is read cannot block), keeping at
//! most a given number of bytes of each and draining the rest; when it
//! exits or its time budget runs out, its whole process group is killed,
//! so nothing it started outlives it.

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use wait_timeout::ChildExt;

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

/// The shell line of `program args...`, every word quoted as needed.
pub fn command_line(program: &str, args: &[String]) -> String {
    std::iter::once(program)
        .chain(args.iter().map(String::as_str))
        .map(shell_quote)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Which bytes of a pipe are kept.
#[derive(Clone, Copy, Debug)]
pub enum Keep {
    /// The first `n` bytes.
    Head(usize),
    /// The last `n` bytes.
    Tail(usize),
    /// The first `n` bytes, the stream written to an unnamed temporary
    /// file and read back once the process has ended, not read from a
    /// pipe while it runs: a process that writes in many small pieces
    /// (opt's unbuffered standard error: its dumps and `BISECT` lines, some
    /// 4,000 writes on seed 000 through `default<O2>`) then wakes no
    /// reader at each (docs/src/performance.md, "Seed 000 through
    /// `default<O2>`: where the time went").
    FileHead(usize),
}

/// A process to run.
#[derive(Clone, Debug)]
pub struct Spawn<'a> {
    /// The program.
    pub program: &'a str,
    /// Its arguments.
    pub args: &'a [String],
    /// How long it may run before its process group is killed.
    pub timeout: Duration,
    /// What of standard output is kept.
    pub stdout: Keep,
    /// What of standard error is kept.
    pub stderr: Keep,
}

/// A process that ran to its end.
#[derive(Debug)]
pub struct Finished {
    /// Its exit status.
    pub status: ExitStatus,
    /// What was kept of standard output.
    pub stdout: Vec<u8>,
    /// How many bytes it printed on standard output in all.
    pub stdout_len: usize,
    /// What was kept of standard error.
    pub stderr: Vec<u8>,
}

/// Why a process did not run to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It could not be started.
    Start(String),
    /// It ran out of its time budget (its process group was killed).
    Timeout,
    /// Waiting for it failed.
    Wait(String),
}

/// How long the readers may take to see the end of the pipes once the
/// process group is gone.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// Reads `r` to its end on a thread of its own, keeping what `keep` says
/// and draining the rest; sends `(bytes, total)` when the pipe closes.
fn reader(mut r: impl Read + Send + 'static, keep: Keep) -> mpsc::Receiver<(Vec<u8>, usize)> {
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
                    match keep {
                        Keep::Head(max) | Keep::FileHead(max) => {
                            let room = max.saturating_sub(kept.len());
                            kept.extend_from_slice(&buf[..n.min(room)]);
                        }
                        Keep::Tail(max) => {
                            kept.extend_from_slice(&buf[..n]);
                            if kept.len() > max {
                                kept.drain(..kept.len() - max);
                            }
                        }
                    }
                }
            }
        }
        let _ = tx.send((kept, total));
    });
    rx
}

/// Runs `s` (see the module documentation).
pub fn run(s: &Spawn) -> Result<Finished, Failure> {
    // A stream kept through a file: the file, and the process's end of it.
    let file = |keep: Keep| -> Result<Option<(std::fs::File, Stdio)>, Failure> {
        let Keep::FileHead(_) = keep else {
            return Ok(None);
        };
        let f = tempfile::tempfile().map_err(|e| Failure::Start(format!("temporary file: {e}")))?;
        let theirs = f
            .try_clone()
            .map_err(|e| Failure::Start(format!("temporary file: {e}")))?;
        Ok(Some((f, Stdio::from(theirs))))
    };
    let (out_file, err_file) = (file(s.stdout)?, file(s.stderr)?);
    let (out_file, out_io) = match out_file {
        Some((f, io)) => (Some(f), io),
        None => (None, Stdio::piped()),
    };
    let (err_file, err_io) = match err_file {
        Some((f, io)) => (Some(f), io),
        None => (None, Stdio::piped()),
    };
    let mut child = std::process::Command::new(s.program)
        .args(s.args)
        .stdin(Stdio::null())
        .stdout(out_io)
        .stderr(err_io)
        .process_group(0)
        .spawn()
        .map_err(|e| Failure::Start(e.to_string()))?;
    let group = Pid::from_raw(child.id() as i32);
    let out = child.stdout.take().map(|o| reader(o, s.stdout));
    let err = child.stderr.take().map(|e| reader(e, s.stderr));
    let status = child.wait_timeout(s.timeout);
    // Whatever happened, nothing the process started outlives it: the
    // group id stays reserved while any member lives, so this cannot hit
    // an unrelated process.
    let _ = killpg(group, Signal::SIGKILL);
    let status = match status {
        Ok(Some(st)) => st,
        Ok(None) => {
            let _ = child.wait();
            return Err(Failure::Timeout);
        }
        Err(e) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Failure::Wait(e.to_string()));
        }
    };
    let collect = |rx: Option<mpsc::Receiver<(Vec<u8>, usize)>>| {
        rx.and_then(|rx| rx.recv_timeout(DRAIN_GRACE).ok())
            .unwrap_or_default()
    };
    // A stream kept through a file is read back now that the process
    // group is gone (nothing writes to it any more).
    let read_back = |f: Option<std::fs::File>, keep: Keep| -> Result<_, Failure> {
        use std::io::{Seek, SeekFrom};
        let (Some(mut f), Keep::FileHead(max)) = (f, keep) else {
            return Ok(None);
        };
        let back = |e: std::io::Error| Failure::Wait(format!("reading its output back: {e}"));
        let total = f.seek(SeekFrom::End(0)).map_err(back)?;
        f.seek(SeekFrom::Start(0)).map_err(back)?;
        let mut kept = Vec::new();
        f.take(max as u64).read_to_end(&mut kept).map_err(back)?;
        Ok(Some((kept, usize::try_from(total).unwrap_or(usize::MAX))))
    };
    let (stdout, stdout_len) = match read_back(out_file, s.stdout)? {
        Some(r) => r,
        None => collect(out),
    };
    let (stderr, _) = match read_back(err_file, s.stderr)? {
        Some(r) => r,
        None => collect(err),
    };
    Ok(Finished {
        status,
        stdout,
        stdout_len,
        stderr,
    })
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
    fn a_process_past_its_time_is_killed_with_its_children() {
        let args = vec!["-c".to_string(), "sleep 30 & sleep 30".to_string()];
        let start = std::time::Instant::now();
        let r = run(&Spawn {
            program: "sh",
            args: &args,
            timeout: Duration::from_millis(300),
            stdout: Keep::Head(1024),
            stderr: Keep::Tail(1024),
        });
        assert_eq!(r.err(), Some(Failure::Timeout));
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_stream_kept_through_a_file_is_read_back_after_the_end() {
        // 300 small writes on standard error, as opt's unbuffered dumps
        // come: the first bytes kept, the whole length counted.
        let args = vec![
            "-c".to_string(),
            "i=0; while [ $i -lt 300 ]; do echo line$i >&2; i=$((i+1)); done; echo done"
                .to_string(),
        ];
        let r = run(&Spawn {
            program: "sh",
            args: &args,
            timeout: Duration::from_secs(20),
            stdout: Keep::FileHead(1024),
            stderr: Keep::FileHead(10),
        })
        .expect("runs");
        assert_eq!(String::from_utf8_lossy(&r.stdout), "done\n");
        assert_eq!(r.stdout_len, 5);
        assert_eq!(String::from_utf8_lossy(&r.stderr), "line0\nline");
    }

    #[test]
    fn both_pipes_are_read_at_once() {
        // 1 MiB on standard error before anything on standard output: a
        // runner that read standard output first would block.
        let args = vec![
            "-c".to_string(),
            "head -c 1048576 /dev/zero >&2; echo done".to_string(),
        ];
        let r = run(&Spawn {
            program: "sh",
            args: &args,
            timeout: Duration::from_secs(20),
            stdout: Keep::Head(1024),
            stderr: Keep::Tail(16),
        })
        .expect("runs");
        assert_eq!(String::from_utf8_lossy(&r.stdout), "done\n");
        assert_eq!(r.stderr.len(), 16);
    }
}
