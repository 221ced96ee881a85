//! `convcheck reduce`: a violating LLVM IR file made small while it still
//! shows the same violation, with LLVM's own reducer (`llvm-reduce`) and
//! convcheck as its interestingness test.
//!
//! The check of the original file fixes a [`Signature`]: the function, the
//! pass of `opt` blamed for the violation (without its `opt-bisect`
//! number, which changes as the module shrinks) and the property broken.
//! `llvm-reduce` then tries its delta passes; each candidate is kept only
//! when the same check on it (same pipeline, `opt`, bounds and budgets)
//! is violated with the same signature. The test is a two-line shell
//! script that runs convcheck itself (the command the binary hands in, in
//! [`ReduceArgs::test_command`]) with `--interesting SIGNATURE --candidate
//! FILE`, in which mode the binary answers by its exit status alone
//! ([`interesting`]).
//!
//! `llvm-reduce` replaces operands with `undef` and `poison`; a branch on
//! either is undefined behaviour in LLVM IR, and a reduction that drifts
//! into it keeps a "violation" of a program that has none. So a candidate
//! that names `undef` or `poison` where the original did not is not
//! interesting unless [`ReduceArgs::allow_undef`] is set; nor is one that
//! loads or stores through a null pointer (`llvm-reduce`'s opcode and
//! zero-operand passes write `store volatile i32 0, ptr null` for a call),
//! which is undefined behaviour too (docs/src/llvm.md, "Reducing a
//! violation").

use crate::config::CheckJob;
use crate::config::Verdict;
use crate::engine::Property;
use crate::error::{Error, Result};
use crate::pipeline::{self, Progress, Settings};
use crate::process::{self, Keep, Spawn};
use crate::report::Report;
use crate::Output;
use std::path::Path;
use std::time::{Duration, Instant};

/// What `reduce` does besides the check it repeats.
#[derive(Clone, Debug)]
pub struct ReduceArgs {
    /// Where the reduced file goes (default: `FILE.reduced.ll` beside the
    /// input); its folder is made when missing.
    pub out: Option<String>,
    /// The `llvm-reduce` binary (default: the one of `opt`'s version, then
    /// `llvm-reduce-19`, then `llvm-reduce`).
    pub reduce_bin: Option<String>,
    /// The command that runs convcheck's interestingness test: the
    /// program and the words of this `reduce` command, to which the test
    /// adds `--interesting SIGNATURE --candidate FILE`.
    pub test_command: Vec<String>,
    /// Keep candidates that name `undef` or `poison` when the original
    /// does not.
    pub allow_undef: bool,
    /// How long `llvm-reduce` may run in all.
    pub timeout: Duration,
}

impl Default for ReduceArgs {
    fn default() -> ReduceArgs {
        ReduceArgs {
            out: None,
            reduce_bin: None,
            test_command: Vec::new(),
            allow_undef: false,
            timeout: Duration::from_secs(1800),
        }
    }
}

/// What makes two violations the same: the function, the blamed pass and
/// the property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The violated function.
    pub function: String,
    /// The first violated stage's pass, without its `opt-bisect` number.
    pub pass: String,
    /// The property it breaks.
    pub property: Property,
}

impl Signature {
    /// The signature of the first violated stage of `report`.
    pub fn of(report: &Report) -> Option<Signature> {
        report.functions.iter().find_map(|f| {
            f.stages.iter().find_map(|s| {
                s.finding().map(|finding| Signature {
                    function: f.function.clone(),
                    pass: pass_of(&s.name).to_string(),
                    property: finding.property,
                })
            })
        })
    }

    /// The signature as one word for the test's command line
    /// (`function|pass|property`).
    pub fn encode(&self) -> String {
        let property = match self.property {
            Property::Convergence => "convergence",
            Property::SingleThreadBehaviour => "single-thread",
            Property::Hazards => "hazards",
        };
        format!("{}|{}|{property}", self.function, self.pass)
    }

    /// The signature written by [`Signature::encode`].
    pub fn decode(s: &str) -> Result<Signature> {
        let bad = || {
            Error::usage(format!(
                "--interesting: expected FUNCTION|PASS|PROPERTY (property convergence, \
                 single-thread or hazards), found '{s}'"
            ))
        };
        let mut parts = s.rsplitn(3, '|');
        let (Some(property), Some(pass), Some(function)) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let property = match property {
            "convergence" => Property::Convergence,
            "single-thread" => Property::SingleThreadBehaviour,
            "hazards" => Property::Hazards,
            _ => return Err(bad()),
        };
        Ok(Signature {
            function: function.to_string(),
            pass: pass.to_string(),
            property,
        })
    }

    /// Whether `report` shows this violation.
    pub fn shown_by(&self, report: &Report) -> bool {
        Signature::of(report).as_ref() == Some(self)
    }
}

/// A stage's pass without its `opt-bisect` number.
fn pass_of(stage: &str) -> &str {
    match stage.find(" (opt-bisect ") {
        Some(i) => &stage[..i],
        None => stage,
    }
}

/// Whether `text` names `undef` or `poison` as a word.
fn names_undef(text: &str) -> bool {
    text.split(|c: char| {
        !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '%' || c == '@')
    })
    .any(|w| w == "undef" || w == "poison")
}

/// Whether `text` loads or stores through a null pointer (of any address
/// space): a `load`, `store`, `atomicrmw` or `cmpxchg` whose pointer
/// operand is `null`.
fn derefs_null(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.split(';').next().unwrap_or("").trim();
        let op = l.split_once("= ").map_or(l, |(_, r)| r);
        let memory = [
            "load ",
            "load volatile ",
            "store ",
            "atomicrmw ",
            "cmpxchg ",
        ]
        .iter()
        .any(|k| op.starts_with(k));
        memory
            && op.split(", ").any(|operand| {
                let w: Vec<&str> = operand.split_whitespace().collect();
                // `ptr null`, `ptr addrspace(3) null` (after the operand's
                // type; `store ptr null, ...` stores a null, which is fine).
                w.last() == Some(&"null")
                    && w.len() >= 2
                    && (w[w.len() - 2] == "ptr" || w[w.len() - 2].starts_with("addrspace("))
                    && !(op.starts_with("store ") && operand == op.split(", ").next().unwrap_or(""))
            })
    })
}

/// The interestingness test: whether the check of `candidate` (with the
/// settings of `job`) shows the violation `sig`. Errors of the check
/// (a candidate that `opt` or convcheck refuses) are "not interesting".
pub fn interesting(
    job: &CheckJob,
    settings: &Settings,
    sig: &Signature,
    candidate: &str,
    allow_undef: bool,
) -> bool {
    let Ok(text) = std::fs::read_to_string(candidate) else {
        return false;
    };
    let original = std::fs::read_to_string(&job.src).unwrap_or_default();
    if !allow_undef && names_undef(&text) && !names_undef(&original) {
        return false;
    }
    if derefs_null(&text) && !derefs_null(&original) {
        return false;
    }
    let job = CheckJob {
        src: candidate.to_string(),
        ..job.clone()
    };
    let settings = Settings {
        budget: crate::engine::Budget {
            start: Instant::now(),
            ..settings.budget
        },
        ..settings.clone()
    };
    match pipeline::check(&job, &settings, &pipeline::Silent) {
        Ok(report) => sig.shown_by(&report),
        Err(_) => false,
    }
}

/// The `llvm-reduce` to run: the one named, else the one of `opt`'s
/// version (`opt-22` -> `llvm-reduce-22`), else `llvm-reduce-19`, else
/// `llvm-reduce`.
fn reducer(args: &ReduceArgs, settings: &Settings) -> Result<String> {
    if let Some(b) = &args.reduce_bin {
        return Ok(b.clone());
    }
    let mut candidates: Vec<String> = Vec::new();
    if let Some(v) = settings
        .llvm
        .opt_bin
        .as_deref()
        .and_then(|b| b.rsplit_once("opt-"))
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit()))
    {
        candidates.push(format!("llvm-reduce-{v}"));
    }
    candidates.push("llvm-reduce-19".into());
    candidates.push("llvm-reduce".into());
    let names: Vec<&str> = candidates.iter().map(String::as_str).collect();
    crate::llvm::tools::find(&names, "the LLVM IR reducer").map_err(Error::tool)
}

/// Reduces the violating file of `job` (see the module documentation).
pub fn reduce(
    job: &CheckJob,
    settings: &Settings,
    args: &ReduceArgs,
    progress: &dyn Progress,
) -> Result<Output> {
    if !crate::llvm::is_ll(&job.src) || job.tgt.is_some() {
        return Err(Error::usage(
            "reduce takes one LLVM IR file (.ll) and the check that shows its violation \
             (--opt PIPELINE); hint: compile a source with `clang -S -emit-llvm` first",
        ));
    }
    if args.test_command.is_empty() {
        return Err(Error::internal(
            "reduce: no command for the interestingness test",
        ));
    }
    progress.report("reduce: the check of the original file");
    let started = Instant::now();
    let original = pipeline::check(job, settings, progress)?;
    let Some(sig) = Signature::of(&original) else {
        return Err(Error::usage(format!(
            "{}: nothing to reduce: the check says {}, and reduce needs a violation",
            job.src,
            verdict_word(original.verdict())
        )));
    };
    let bin = reducer(args, settings)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| format!("{}.reduced.ll", job.src.trim_end_matches(".ll")));
    progress.report(&format!("reduce: {bin} (each candidate checked again)"));
    let reduced = run_reducer(&bin, job, args, &sig)?;
    let text = with_header(&reduced, settings, &sig);
    if let Some(dir) = Path::new(&out)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(format!("{}: {e}", dir.display())))?;
    }
    std::fs::write(&out, &text).map_err(|e| Error::io(format!("{out}: {e}")))?;
    // The reducer's answer, as written, is checked once more here.
    let again = CheckJob {
        src: out.clone(),
        ..job.clone()
    };
    let fresh = Settings {
        budget: crate::engine::Budget {
            start: Instant::now(),
            ..settings.budget
        },
        ..settings.clone()
    };
    let report = pipeline::check(&again, &fresh, progress)?;
    if !sig.shown_by(&report) {
        return Err(Error::inconclusive(format!(
            "{out}: {bin}'s result does not show the violation again ({}); the interestingness \
             test is not deterministic under these budgets: raise --timeout",
            sig.encode()
        )));
    }
    let before = count_lines(&std::fs::read_to_string(&job.src).unwrap_or_default());
    let after = count_lines(&reduced);
    let mut summary = format!(
        "reduced {} ({} lines of IR) to {out} ({} lines) in {:.1} s with {bin}\n\
         the violation kept: @{} {} at {}\n\n",
        job.src,
        before,
        after,
        started.elapsed().as_secs_f64(),
        sig.function,
        sig.property.name(),
        sig.pass,
    );
    summary.push_str(&crate::report::text::render(&report));
    Ok(Output {
        text: summary,
        status: crate::Status::Found,
        remark: None,
    })
}

/// Runs `bin` (llvm-reduce) on `job`'s file with convcheck as the
/// interestingness test for `sig`; the reduced text.
fn run_reducer(bin: &str, job: &CheckJob, args: &ReduceArgs, sig: &Signature) -> Result<String> {
    let dir = tempfile::tempdir().map_err(|e| Error::io(format!("no temporary folder: {e}")))?;
    let script = dir.path().join("interesting.sh");
    let mut words = args.test_command.clone();
    words.extend(["--interesting".to_string(), sig.encode()]);
    if args.allow_undef {
        words.push("--allow-undef".into());
    }
    let test = format!(
        "#!/bin/sh\n# convcheck's interestingness test for llvm-reduce.\nexec {} --candidate \"$1\" >/dev/null 2>&1\n",
        process::command_line(&words[0], &words[1..])
    );
    write_script(&script, &test)?;
    let raw = dir.path().join("reduced.ll");
    let reduce_args = vec![
        format!("--test={}", script.display()),
        "-o".to_string(),
        raw.display().to_string(),
        job.src.clone(),
    ];
    let ran = process::run(&Spawn {
        program: bin,
        args: &reduce_args,
        timeout: args.timeout,
        stdout: Keep::Tail(8192),
        stderr: Keep::Tail(8192),
    })
    .map_err(|f| {
        Error::tool(format!(
            "{}: {f:?}",
            process::command_line(bin, &reduce_args)
        ))
    })?;
    if !ran.status.success() {
        return Err(Error::tool(format!(
            "{} failed ({}): {}",
            process::command_line(bin, &reduce_args),
            ran.status,
            String::from_utf8_lossy(&ran.stderr).trim()
        )));
    }
    std::fs::read_to_string(&raw)
        .map_err(|e| Error::tool(format!("{bin} wrote no {}: {e}", raw.display())))
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Violated => "violated",
        Verdict::Inconclusive => "inconclusive",
        Verdict::Proved => "proved",
        Verdict::Preserved => "preserved",
    }
}

/// Lines of IR that are not blank or comments.
fn count_lines(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(';'))
        .count()
}

/// The reduced module with the header lines of `examples/llvm-findings/`.
fn with_header(ir: &str, settings: &Settings, sig: &Signature) -> String {
    let mut h = String::new();
    if let Some(p) = &settings.llvm.opt {
        h.push_str(&format!("; PIPELINE: {p}\n"));
    }
    h.push_str(&format!(
        "; OPT: {}\n",
        settings.llvm.opt_bin.as_deref().unwrap_or("opt-19")
    ));
    h.push_str(&format!(
        "; convcheck reduce: @{} keeps its violation ({}) at {}\n",
        sig.function,
        sig.encode().rsplit('|').next().unwrap_or(""),
        sig.pass
    ));
    let body: String = ir
        .lines()
        .filter(|l| !l.starts_with("; ModuleID"))
        .map(|l| format!("{l}\n"))
        .collect();
    h + &body
}

#[cfg(unix)]
fn write_script(path: &Path, text: &str) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).map_err(|e| Error::io(format!("{}: {e}", path.display())))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| Error::io(format!("{}: {e}", path.display())))
}

#[cfg(not(unix))]
fn write_script(path: &Path, _: &str) -> Result<()> {
    Err(Error::usage(format!(
        "{}: reduce needs a POSIX shell for llvm-reduce's test",
        path.display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_round_trip_and_ignore_bisect_numbers() {
        let s = Signature {
            function: "loop|nest".into(),
            pass: pass_of("SimplifyCFGPass (opt-bisect 17)").into(),
            property: Property::Convergence,
        };
        assert_eq!(s.pass, "SimplifyCFGPass");
        assert_eq!(Signature::decode(&s.encode()).unwrap(), s);
        assert!(Signature::decode("f|p|nonsense").is_err());
        assert!(Signature::decode("f").is_err());
    }

    #[test]
    fn null_dereferences_are_found() {
        assert!(derefs_null("  store volatile i32 0, ptr null, align 4"));
        assert!(derefs_null("  %v = load i32, ptr null, align 4"));
        assert!(derefs_null("  %v = load i32, ptr addrspace(3) null"));
        assert!(derefs_null("  %o = atomicrmw add ptr null, i32 1 seq_cst"));
        assert!(!derefs_null("  store ptr null, ptr %p, align 8"));
        assert!(!derefs_null("  call void @f(i32 0, ptr null)"));
        assert!(!derefs_null("  %v = load i32, ptr %p ; not ptr null"));
    }

    #[test]
    fn undef_is_found_as_a_word() {
        assert!(names_undef("  br i1 undef, label %a, label %b"));
        assert!(names_undef("%x = add i32 poison, 1"));
        assert!(!names_undef("%undefined = add i32 %poisoned, 1"));
        assert!(!names_undef("call void @undef_helper()"));
    }
}
