//! The LLVM tools the hardware oracle runs as processes: `opt` (the user's
//! `--opt` pipeline, and `-O2` for the fixture's second copy) and `llc`
//! (the NVPTX back end). Each run has a time budget; a tool that fails,
//! times out or cannot be found is a [`GpuError::Tool`] with its command
//! line and what it printed.

use crate::GpuError;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// Which tools to run, and for how long.
#[derive(Clone, Debug)]
pub struct Tools {
    /// The `opt` binary (default: `opt-19`, else `opt`).
    pub opt_bin: Option<String>,
    /// The `llc` binary (default: `llc-19`, else `llc`).
    pub llc_bin: Option<String>,
    /// Seconds one tool run may take.
    pub timeout_secs: u64,
}

impl Default for Tools {
    fn default() -> Tools {
        Tools {
            opt_bin: None,
            llc_bin: None,
            timeout_secs: 60,
        }
    }
}

/// The first of `candidates` that runs `--version` (asked once per
/// process), or `given` when set.
pub fn find(given: Option<&str>, candidates: &[&str], flag: &str) -> Result<String, GpuError> {
    if let Some(g) = given {
        return Ok(g.to_string());
    }
    // Replays run opt once per kernel: ask each candidate once per process.
    static FOUND: std::sync::Mutex<Vec<(String, Option<String>)>> =
        std::sync::Mutex::new(Vec::new());
    let key = candidates.join(" ");
    if let Ok(found) = FOUND.lock() {
        if let Some((_, hit)) = found.iter().find(|(k, _)| *k == key) {
            return hit.clone().ok_or_else(|| missing(candidates, flag));
        }
    }
    let hit = probe(candidates);
    if let Ok(mut found) = FOUND.lock() {
        found.push((key, hit.clone()));
    }
    hit.ok_or_else(|| missing(candidates, flag))
}

fn missing(candidates: &[&str], flag: &str) -> GpuError {
    GpuError::Tool(format!(
        "none of {} is installed (give one with {flag})",
        candidates.join(", ")
    ))
}

/// The first candidate that runs `--version`.
fn probe(candidates: &[&str]) -> Option<String> {
    for c in candidates {
        let ok = Command::new(c)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Some(c.to_string());
        }
    }
    None
}

/// The first line of `BIN --version` that names a version (`LLVM version
/// 19.1.7`), for records.
pub fn version_line(bin: &str) -> String {
    Command::new(bin)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .find(|l| l.contains("version"))
                .map(|l| format!("{bin}: {}", l.trim()))
        })
        .unwrap_or_else(|| bin.to_string())
}

/// Runs `bin args...` with `input` on standard input; its standard output,
/// or an error with the command line and its messages.
pub fn run(bin: &str, args: &[String], input: &str, timeout: Duration) -> Result<String, GpuError> {
    let shown = format!("{bin} {}", args.join(" "));
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| GpuError::Tool(format!("{shown}: cannot run: {e}")))?;
    // Feed stdin and drain the pipes on threads so that a large module or
    // a chatty tool cannot block on a full pipe.
    let mut stdin = child.stdin.take();
    let text = input.to_string();
    let feeder = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(text.as_bytes());
        }
    });
    let mut out_pipe = child.stdout.take();
    let mut err_pipe = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = out_pipe.as_mut() {
            let _ = std::io::Read::read_to_string(p, &mut s);
        }
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = err_pipe.as_mut() {
            let _ = std::io::Read::read_to_string(p, &mut s);
        }
        s
    });
    let status = match child.wait_timeout(timeout) {
        Ok(Some(s)) => s,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(GpuError::Tool(format!(
                "{shown}: stopped after {} s",
                timeout.as_secs()
            )));
        }
        Err(e) => return Err(GpuError::Tool(format!("{shown}: {e}"))),
    };
    let _ = feeder.join();
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    if !status.success() {
        return Err(GpuError::Tool(format!(
            "{shown} failed ({status}):\n{}",
            err.trim_end()
        )));
    }
    Ok(out)
}

/// `opt -passes=PIPELINE -S` on `text`. `-O2`-style names (`O2`,
/// `-O2`) are given to opt as `default<O2>`.
pub fn opt(tools: &Tools, text: &str, pipeline: &str) -> Result<String, GpuError> {
    let bin = find(tools.opt_bin.as_deref(), &["opt-19", "opt"], "--opt-bin")?;
    let args = vec![
        format!("-passes={}", pass_pipeline(pipeline)),
        "-S".to_string(),
        "-".to_string(),
        "-o".to_string(),
        "-".to_string(),
    ];
    run(&bin, &args, text, Duration::from_secs(tools.timeout_secs))
}

/// The `-passes=` form of a pipeline: `O2` and `-O2` become `default<O2>`.
pub fn pass_pipeline(p: &str) -> String {
    let t = p.trim().trim_start_matches('-');
    match t {
        "O0" | "O1" | "O2" | "O3" | "Os" | "Oz" => format!("default<{t}>"),
        _ => p.trim().to_string(),
    }
}

/// The NVPTX target every module is compiled for.
pub const TRIPLE: &str = "nvptx64-nvidia-cuda";
/// The GPU architecture (the fixture's H200 is sm_90).
pub const CPU: &str = "sm_90";
/// The PTX version (8.0 is the first with sm_90 and what CUDA 12 reads).
pub const PTX_ATTR: &str = "+ptx80";

/// `llc` on instrumented LLVM IR at `-O{level}`: the PTX text.
pub fn llc(tools: &Tools, text: &str, level: u32) -> Result<String, GpuError> {
    let bin = find(tools.llc_bin.as_deref(), &["llc-19", "llc"], "--llc-bin")?;
    llc_with(&bin, text, level, Duration::from_secs(tools.timeout_secs))
}

/// [`llc`] with a given binary.
pub fn llc_with(bin: &str, text: &str, level: u32, timeout: Duration) -> Result<String, GpuError> {
    let args = vec![
        format!("-mtriple={TRIPLE}"),
        format!("-mcpu={CPU}"),
        format!("-mattr={PTX_ATTR}"),
        format!("-O{level}"),
        "-".to_string(),
        "-o".to_string(),
        "-".to_string(),
    ];
    run(bin, &args, text, timeout)
}
