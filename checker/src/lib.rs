//! The convcheck library: the commands behind the `convcheck` binary.
//!
//! Each command is a function from parsed arguments to an [`Outcome`]: the
//! text or JSON it prints and the exit code of DESIGN.md section 4
//! (0 the property holds, 1 violation, 2 bad input or usage, 3
//! inconclusive). The binary only parses the command line, prints and
//! exits, so the commands are testable in-process.

pub mod ambiguity;
pub mod bench;
pub mod check;
pub mod cli;
pub mod demo;
pub mod engine;
pub mod fuzz;
pub mod hazard_report;
pub mod lower;
pub mod oracles;
pub mod run;
pub mod smt_run;

/// Exit code: the property holds (or there was nothing to check).
pub const EXIT_OK: i32 = 0;
/// Exit code: a violation or an ambiguity was found.
pub const EXIT_VIOLATION: i32 = 1;
/// Exit code: bad input or usage.
pub const EXIT_USAGE: i32 = 2;
/// Exit code: a bound or a timeout was reached before an answer.
pub const EXIT_INCONCLUSIVE: i32 = 3;

/// What a command prints and how the process exits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit code.
    pub code: i32,
}

impl Outcome {
    /// A successful outcome printing `stdout`.
    pub fn ok(stdout: String) -> Outcome {
        Outcome {
            stdout,
            stderr: String::new(),
            code: EXIT_OK,
        }
    }

    /// A usage or input error (exit code 2).
    pub fn usage(message: impl Into<String>) -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: format!("error: {}\n", message.into()),
            code: EXIT_USAGE,
        }
    }
}

/// Reads a kernel file and analyses it; errors are usage errors naming
/// file, line and column.
pub fn load_kernel(path: &str) -> Result<convcheck_model::sema::Kernel, Outcome> {
    let src = std::fs::read_to_string(path)
        .map_err(|e| Outcome::usage(format!("{path}: cannot read: {e}")))?;
    convcheck_model::sema::Kernel::parse(path, &src).map_err(|d| Outcome {
        stdout: String::new(),
        stderr: format!("{d}\n"),
        code: EXIT_USAGE,
    })
}

/// The `passes` command: every pass and variant, one line each.
pub fn passes() -> Outcome {
    let mut out = String::new();
    for p in convcheck_transforms::registry() {
        let safety = if p.safe { "safe  " } else { "UNSAFE" };
        out.push_str(&format!("{safety}  {:28} {}\n", p.name, p.summary));
        if !p.options.is_empty() {
            out.push_str(&format!("        {:28} options: {}\n", "", p.options));
        }
    }
    Outcome::ok(out)
}
