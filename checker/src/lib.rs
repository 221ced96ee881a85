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
pub mod config;
pub mod corpus;
pub mod demo;
pub mod engine;
pub mod explore;
pub mod fuzz;
pub mod hazard_report;
pub mod llvm;
pub mod lower;
pub mod oracles;
pub mod pass_cmd;
pub mod render;
pub mod run;
pub mod run_llvm;
pub mod smt_run;
pub mod symbolic;
pub mod uniformity;

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

/// A kernel's code at one level: the source-level statements, or a CFG
/// program (lowered, possibly transformed).
pub enum Code<'a> {
    /// Seed 000's source-level semantics.
    Source(convcheck_lang::exec::SourceProgram),
    /// A CFG program: maximal convergence, or tokens where present.
    Cfg(&'a convcheck_ir::exec::cfg::CfgProgram),
}

impl<'a> Code<'a> {
    /// The kernel at the source level when `cfg` is `None`, else `cfg`.
    pub fn new(
        kernel: &convcheck_lang::sema::Kernel,
        cfg: Option<&'a convcheck_ir::exec::cfg::CfgProgram>,
    ) -> Result<Code<'a>, Outcome> {
        Ok(match cfg {
            Some(p) => Code::Cfg(p),
            None => Code::Source(
                convcheck_lang::exec::SourceProgram::new(kernel)
                    .map_err(|e| Outcome::usage(format!("{}: {e}", kernel.file_name)))?,
            ),
        })
    }

    /// The program to run.
    pub fn program(&self) -> &dyn convcheck_ir::exec::Program {
        match self {
            Code::Source(s) => s,
            Code::Cfg(c) => *c,
        }
    }

    /// The module whose op and oracle tables name the code's instances.
    pub fn module(&self) -> &convcheck_ir::Module {
        match self {
            Code::Source(s) => &s.module,
            Code::Cfg(c) => &c.module,
        }
    }
}

/// Runs the passes named `names` on `module` in order, returning the
/// module after each pass with the pass's name and notes. Unknown names and
/// failing passes are usage errors.
pub fn apply_passes(
    module: &convcheck_ir::Module,
    names: &[String],
) -> Result<Vec<(String, Vec<String>, convcheck_ir::Module)>, Outcome> {
    let mut out = Vec::new();
    let mut m = module.clone();
    for name in names {
        let pass = convcheck_transforms::lookup(name)
            .map_err(|e| Outcome::usage(format!("--pass {name}: {e}")))?;
        let notes = pass
            .run(&mut m)
            .map_err(|e| Outcome::usage(format!("pass {}: {e}", pass.name())))?;
        out.push((pass.name(), notes, m.clone()));
    }
    Ok(out)
}

/// Reads a kernel file and analyses it; errors are usage errors naming
/// file, line and column.
pub fn load_kernel(path: &str) -> Result<convcheck_lang::sema::Kernel, Outcome> {
    let src = std::fs::read_to_string(path)
        .map_err(|e| Outcome::usage(format!("{path}: cannot read: {e}")))?;
    convcheck_lang::sema::Kernel::parse(path, &src).map_err(|d| Outcome {
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
