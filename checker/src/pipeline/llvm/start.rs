//! Where a check through LLVM IR starts: a `.ll` file, a C, CUDA or
//! OpenCL source through the clang front end (at the source level when the
//! kernel language reads it alike, else clang's own output), or a
//! kernel-language file lowered by convcheck.

use super::{Ref, StageModule};
use crate::config::{CheckJob, Reference};
use crate::engine::Allowance;
use crate::error::{Error, Result};
use crate::llvm::{is_ll, load_ll_with, read_ll, LlvmOptions, Loaded};
use convcheck_lang::sema::Kernel;
use std::time::Duration;

/// A kernel-language file lowered by convcheck and written as LLVM IR.
pub(super) fn lowered_ll(kernel: &Kernel, tokens: bool) -> Result<Loaded> {
    let module = convcheck_lang::lower::lower(kernel, tokens);
    let text = convcheck_llvm::write::module_text(&module);
    read_ll(&kernel.file_name, &text).map_err(|e| {
        Error::internal(format!(
            "{}: the LLVM IR convcheck wrote does not read back: {e}",
            kernel.file_name
        ))
    })
}

/// Where a check through LLVM IR starts: its reference, the stages that
/// lead from it to LLVM IR (the lowering, clang's output), the module that
/// `opt` runs on, and notes about how it was made.
pub(super) struct Start {
    pub(super) reference: Ref,
    pub(super) stages: Vec<StageModule>,
    pub(super) last: Loaded,
    pub(super) notes: Vec<String>,
    /// Time spent in clang.
    pub(super) clang: Duration,
}

impl Start {
    /// A start whose reference is the LLVM module itself.
    pub(super) fn ll(loaded: Loaded, notes: Vec<String>) -> Start {
        Start {
            reference: Ref::Ll(Box::new(loaded.clone())),
            stages: Vec::new(),
            last: loaded,
            notes,
            clang: Duration::ZERO,
        }
    }

    /// A start at the source level of `kernel`, the lowering to `loaded`
    /// its first stage.
    pub(super) fn source(
        kernel: Kernel,
        loaded: Loaded,
        stage: (String, String),
        notes: Vec<String>,
    ) -> Start {
        let (name, level) = stage;
        let first = StageModule {
            name,
            loaded: loaded.clone(),
            notes: Vec::new(),
            level,
            only_if_changed: false,
            allow: Allowance::Exact,
            reproduce: None,
        };
        Start {
            reference: Ref::Source(Box::new(kernel)),
            stages: vec![first],
            last: loaded,
            notes,
            clang: Duration::ZERO,
        }
    }
}

/// Loads a source file as the check's starting point: a `.ll` file, a
/// source through the front end, or a kernel-language file lowered by
/// convcheck.
pub(super) fn load_source(a: &CheckJob, o: &LlvmOptions) -> Result<Start> {
    if is_ll(&a.src) {
        return Ok(Start::ll(
            load_ll_with(&a.src, &o.map_options())?,
            Vec::new(),
        ));
    }
    if o.frontend.is_some() {
        let started = std::time::Instant::now();
        let mut start = super::frontend::start(a, o)?;
        start.clang = started.elapsed();
        return Ok(start);
    }
    let kernel = crate::pipeline::kernel::load_kernel(&a.src)?;
    let mut loaded = lowered_ll(&kernel, a.tokens)?;
    let tokens = if a.tokens { " --tokens" } else { "" };
    loaded.file = format!("{}.ll", a.src);
    let notes = vec![format!(
        "input: convcheck lower {}{tokens} --emit ll > {}",
        a.src, loaded.file
    )];
    Ok(match a.reference {
        Reference::Source => Start::source(
            kernel,
            loaded,
            (format!("lower{tokens}"), format!("CFG{tokens}")),
            notes,
        ),
        Reference::Cfg => Start::ll(loaded, notes),
    })
}
