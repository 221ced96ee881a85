//! `convcheck reduce`: the command-line glue of `convcheck::reduce` (a
//! violating LLVM IR file reduced by `llvm-reduce` with convcheck as the
//! interestingness test). The test runs this binary again with the same
//! words and `--interesting SIGNATURE --candidate FILE`; in that mode the
//! exit status alone answers: 0 interesting, 1 not.

use crate::cli::CheckCommand;
use crate::dispatch::Printed;
use convcheck::reduce::{self, ReduceArgs, Signature};
use convcheck::Error;
use std::time::Duration;

/// Arguments of `convcheck reduce`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReduceCommand {
    /// The check that shows the violation (FILE.ll, --opt PIPELINE,
    /// --opt-bin, --function, bounds and budgets, as for `check`).
    #[command(flatten)]
    pub check: CheckCommand,
    /// Where the reduced file goes (default: FILE.reduced.ll).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
    /// The `llvm-reduce` binary (default: the one of --opt-bin's version,
    /// then `llvm-reduce-19`, then `llvm-reduce`).
    #[arg(long, value_name = "PATH")]
    pub reduce_bin: Option<String>,
    /// Keep candidates that name `undef` or `poison` when the original
    /// does not (off: a branch on either is undefined behaviour).
    #[arg(long)]
    pub allow_undef: bool,
    /// Seconds `llvm-reduce` may take in all.
    #[arg(long, default_value_t = 1800)]
    pub reduce_timeout: u64,
    /// The interestingness test's mode: the signature to keep.
    #[arg(long, hide = true, requires = "candidate")]
    pub interesting: Option<String>,
    /// The interestingness test's mode: the candidate file.
    #[arg(long, hide = true, requires = "interesting")]
    pub candidate: Option<String>,
}

/// Runs `convcheck reduce` (`words`: the command line, the program first).
pub fn reduce(a: &ReduceCommand, words: &[String]) -> Result<Printed, Error> {
    let (job, budget) = a.check.resolve().map_err(Error::usage)?;
    let settings = convcheck::pipeline::Settings {
        engine: a.check.engine.into(),
        budget,
        llvm: a.check.llvm.options(),
    };
    if let (Some(sig), Some(candidate)) = (&a.interesting, &a.candidate) {
        let sig = Signature::decode(sig)?;
        let yes = reduce::interesting(&job, &settings, &sig, candidate, a.allow_undef);
        return Ok(Printed {
            stdout: String::new(),
            stderr: String::new(),
            code: if yes { 0 } else { 1 },
        });
    }
    let exe = std::env::current_exe()
        .map_err(|e| Error::io(format!("cannot find the convcheck binary: {e}")))?;
    let at = words.iter().position(|w| w == "reduce").unwrap_or(0);
    let mut test_command = vec![exe.display().to_string(), "reduce".to_string()];
    test_command.extend(words.iter().skip(at + 1).cloned());
    let args = ReduceArgs {
        out: a.output.clone(),
        reduce_bin: a.reduce_bin.clone(),
        test_command,
        allow_undef: a.allow_undef,
        timeout: Duration::from_secs(a.reduce_timeout.max(1)),
    };
    let spinner = crate::progress::Spinner::new("reduce");
    let out = reduce::reduce(&job, &settings, &args, &spinner)?;
    drop(spinner);
    Ok(Printed::of(out))
}
