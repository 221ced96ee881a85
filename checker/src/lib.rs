//! The convcheck library: the commands behind the `convcheck` binary.
//!
//! Each command is a function from its arguments (a plain struct with
//! `Default`) to a typed answer or an [`Error`]: `check` answers a
//! [`report::Report`] (the one pipeline, [`pipeline`]), the others an
//! [`Output`] (a document and its [`Status`]). The binary parses the
//! command line, calls the library, renders, prints and exits with the
//! code of DESIGN.md section 4; the library knows no command line and
//! writes to no terminal.

pub mod ambiguity;
pub mod bench;
pub mod config;
pub mod corpus;
pub mod demo;
pub mod engine;
pub mod engines;
pub mod error;
pub mod explore;
pub mod fuzz;
pub mod hazard_report;
pub mod llvm;
pub mod lower;
pub mod oracles;
pub mod pass_cmd;
pub mod pipeline;
pub mod process;
pub mod reduce;
pub mod report;
pub mod run;
pub mod run_llvm;
pub mod smt_run;
pub mod uniformity;

pub use error::{Error, ErrorKind};

/// What a command's answer means (DESIGN.md section 4); the binary turns
/// it into an exit code (0, 1, 3; 2 for an [`Error`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The property holds (proved or preserved), or there was nothing to
    /// report.
    Holds,
    /// A violation, an ambiguity, a finding.
    Found,
    /// A bound or budget was reached before an answer, or the input uses
    /// what the model does not cover.
    Inconclusive,
    /// Nothing could be examined (every external command failed): an error
    /// with an answer to print.
    Failed,
}

impl Status {
    /// The exit code of DESIGN.md section 4 (0 holds, 1 found, 2 failed,
    /// 3 inconclusive), for the documents that record it (a SARIF log's
    /// invocation) and for the binary, which exits with it.
    pub fn code(self) -> i32 {
        match self {
            Status::Holds => 0,
            Status::Found => 1,
            Status::Failed => 2,
            Status::Inconclusive => 3,
        }
    }
}

impl ErrorKind {
    /// The exit code of an error of this kind: 3 for a run stopped before
    /// an answer, 101 for a bug, 2 for everything else (bad input or
    /// usage).
    pub fn code(self) -> i32 {
        match self {
            ErrorKind::Inconclusive => 3,
            ErrorKind::Internal => 101,
            _ => 2,
        }
    }
}

/// A command's answer as a document: what it prints, what that means, and
/// a remark for the user beside it (standard error on the command line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The document (text, or one JSON object).
    pub text: String,
    /// What the answer means.
    pub status: Status,
    /// A remark beside the document (why a run stopped, what differs).
    pub remark: Option<String>,
}

impl Output {
    /// A document whose property holds.
    pub fn holds(text: String) -> Output {
        Output {
            text,
            status: Status::Holds,
            remark: None,
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
    ) -> Result<Code<'a>, Error> {
        Ok(match cfg {
            Some(p) => Code::Cfg(p),
            None => Code::Source(
                convcheck_lang::exec::SourceProgram::new(kernel)
                    .map_err(|e| Error::usage(format!("{}: {e}", kernel.file_name)))?,
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
/// failing passes are errors of kind [`ErrorKind::Pass`].
pub fn apply_passes(
    module: &convcheck_ir::Module,
    names: &[String],
) -> Result<Vec<(String, Vec<String>, convcheck_ir::Module)>, Error> {
    let mut out = Vec::new();
    let mut m = module.clone();
    for name in names {
        let pass = convcheck_transforms::lookup(name)
            .map_err(|e| Error::pass(format!("--pass {name}: {e}")))?;
        let notes = pass
            .run(&mut m)
            .map_err(|e| Error::pass(format!("pass {}: {e}", pass.name())))?;
        out.push((pass.name(), notes, m.clone()));
    }
    Ok(out)
}

/// Reads a kernel file and analyses it; errors name file, line and
/// column.
pub fn load_kernel(path: &str) -> Result<convcheck_lang::sema::Kernel, Error> {
    pipeline::kernel::load_kernel(path)
}

/// The `passes` command: every pass and variant, one line each.
pub fn passes() -> Output {
    let mut out = String::new();
    for p in convcheck_transforms::registry() {
        let safety = if p.safe { "safe  " } else { "UNSAFE" };
        out.push_str(&format!("{safety}  {:28} {}\n", p.name, p.summary));
        if !p.options.is_empty() {
            out.push_str(&format!("        {:28} options: {}\n", "", p.options));
        }
    }
    Output::holds(out)
}
