//! Runs a command line: parses it (clap), calls the library, renders the
//! answer in the format asked for, and decides the exit code.

use crate::cli::{Cli, Command};
use crate::progress::Spinner;
use clap::Parser;
use convcheck::config::Format;
use convcheck::pipeline::Settings;
use convcheck::report::{self, Invocation};
use convcheck::{Error, ErrorKind, Output, Status};
use std::ffi::OsString;

/// What the process prints and how it exits.
pub struct Printed {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit code.
    pub code: i32,
}

impl Printed {
    pub(crate) fn of(o: Output) -> Printed {
        Printed {
            stdout: o.text,
            stderr: o.remark.map(|r| format!("{r}\n")).unwrap_or_default(),
            code: o.status.code(),
        }
    }
}

/// The formats a command can answer in, for errors.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ErrorFormat {
    Text,
    Json,
    Sarif,
}

/// The format asked for by `--format F` (or `--format=F`) among `args`,
/// read without the parser, so that an argument the parser rejects is
/// still answered in that format.
fn requested_format(args: &[String]) -> ErrorFormat {
    let mut format = ErrorFormat::Text;
    for (k, a) in args.iter().enumerate() {
        let value = match a.strip_prefix("--format=") {
            Some(v) => Some(v),
            None if a == "--format" => args.get(k + 1).map(String::as_str),
            None => None,
        };
        match value {
            Some("json") => format = ErrorFormat::Json,
            Some("sarif") => format = ErrorFormat::Sarif,
            Some(_) => format = ErrorFormat::Text,
            None => {}
        }
    }
    format
}

/// The JSON object of an error.
#[derive(serde::Serialize)]
struct ErrorJson<'a> {
    tool: report::json::Tool,
    command_line: Option<&'a [String]>,
    verdict: &'static str,
    error: &'a str,
    exit_code: i32,
}

/// How an error is printed: an input diagnostic as it is, a stopped run
/// as `inconclusive: ...`, a bug as `internal error: ...`, anything else
/// after `error: `; with `--format json` or `sarif` also as one object on
/// standard output.
fn error(e: &Error, format: ErrorFormat, inv: &Invocation) -> Printed {
    let code = e.kind().code();
    let stderr = match e.kind() {
        ErrorKind::Input => format!("{e}\n"),
        ErrorKind::Inconclusive => format!("inconclusive: {e}\n"),
        ErrorKind::Internal => format!("internal error: {e}\n"),
        _ => format!("error: {e}\n"),
    };
    let text = e.message();
    let stdout = match (format, e.kind()) {
        (_, ErrorKind::Inconclusive) | (ErrorFormat::Text, _) => String::new(),
        (ErrorFormat::Json, _) => {
            let v = serde_json::to_value(ErrorJson {
                tool: report::json::Tool::this(),
                command_line: inv.command_line.as_deref(),
                verdict: "error",
                error: text,
                exit_code: code,
            })
            .unwrap_or_default();
            format!("{v}\n")
        }
        (ErrorFormat::Sarif, _) => report::sarif::error_log(text, inv, code),
    };
    Printed {
        stdout,
        stderr,
        code,
    }
}

/// Parses `args` (the first is the program name) and runs the command.
pub fn main_with_args<I, T>(args: I) -> Printed
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let inv = Invocation::of(words.clone());
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let text = e.render().to_string();
            return if e.use_stderr() {
                // Clap's own message on standard error; with --format json
                // or sarif, the same message as one object on standard
                // output too.
                let message = text.trim().strip_prefix("error: ").unwrap_or(text.trim());
                let mut p = error(&Error::usage(message), requested_format(&words), &inv);
                p.stderr = text;
                p
            } else {
                Printed {
                    stdout: text,
                    stderr: String::new(),
                    code: 0,
                }
            };
        }
    };
    match run(cli.command, &inv) {
        Ok(p) => p,
        Err(e) => error(&e, requested_format(&words), &inv),
    }
}

/// Runs one command.
fn run(command: Command, inv: &Invocation) -> Result<Printed, Error> {
    Ok(match command {
        Command::Demo => Printed::of(convcheck::demo::demo()?),
        Command::Run(a) => Printed::of(convcheck::run::run(&(&a).into())?),
        Command::Lower(a) => Printed::of(convcheck::lower::lower(&(&a).into())?),
        Command::Check(c) => {
            let (job, budget) = c.resolve().map_err(Error::usage)?;
            let settings = Settings {
                engine: c.engine.into(),
                budget,
                llvm: c.llvm.options(),
            };
            let spinner = Spinner::new("check");
            let report = convcheck::pipeline::check(&job, &settings, &spinner)?;
            drop(spinner);
            let status: Status = report.verdict().status();
            let stdout = match job.format {
                Format::Text => report::text::render(&report),
                Format::Json => report::json::render(&report, inv),
                Format::Sarif => report::sarif::render(&report, inv, status.code()),
            };
            Printed {
                stdout,
                stderr: String::new(),
                code: status.code(),
            }
        }
        Command::Passes => Printed::of(convcheck::passes()),
        Command::Ambiguity(a) => Printed::of(convcheck::ambiguity::ambiguity(&(&a).into())?),
        Command::Bench(a) => Printed::of(convcheck::bench::bench(&(&a).into())?),
        Command::Fuzz(a) if a.gpu => crate::gpu::fuzz_gpu(&a)?,
        Command::Fuzz(a) if a.uniformity => crate::uniformity::fuzz(&a)?,
        Command::Fuzz(a) => {
            let spinner = Spinner::new("fuzz");
            let out = convcheck::fuzz::fuzz(&(&a).into(), inv, &spinner)?;
            drop(spinner);
            Printed::of(out)
        }
        Command::Gpu(a) => crate::gpu::gpu(&a)?,
        Command::Reduce(a) => {
            crate::reduce::reduce(&a, inv.command_line.as_deref().unwrap_or(&[]))?
        }
        Command::Uniformity(a) => crate::uniformity::check(&a)?,
        Command::Corpus(a) => Printed::of(convcheck::corpus::corpus(&(&a).into(), inv)?),
        Command::Explore(a) => {
            let mut ready = |url: &str| {
                use std::io::Write as _;
                println!("convcheck explore: serving {url} (127.0.0.1 only; stop with Ctrl-C)");
                let _ = std::io::stdout().flush();
            };
            let tools = a.allow_tools.then(|| convcheck::explore::Tools {
                opt_bin: a.opt_bin.clone(),
                opt_args: a.opt_args.clone(),
                clang_bin: a.clang_bin.clone(),
                tool_timeout: a.tool_timeout,
            });
            convcheck::explore::explore(a.file.as_deref(), a.port, a.budget, tools, &mut ready)?;
            Printed {
                stdout: String::new(),
                stderr: String::new(),
                code: 0,
            }
        }
    })
}
