//! Where a check through LLVM IR starts: a `.ll` file, a C, CUDA or
//! OpenCL source through the clang front end (at the source level when the
//! kernel language reads it alike, else clang's own output), or a
//! kernel-language file lowered by convcheck.

use super::{Ref, StageModule};
use crate::config::{CheckJob, Reference};
use crate::engine::Allowance;
use crate::error::{Error, Result};
use crate::llvm::{frontend, is_ll, load_ll, read_ll, LlvmOptions, Loaded};
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
    fn ll(loaded: Loaded, notes: Vec<String>) -> Start {
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
    fn source(
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
pub(super) fn load_source(a: &CheckJob, o: &LlvmOptions, timeout: Duration) -> Result<Start> {
    if is_ll(&a.src) {
        return Ok(Start::ll(load_ll(&a.src)?, Vec::new()));
    }
    if let Some(fe) = o.frontend {
        return from_frontend(a, fe, o, timeout);
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

/// A C, CUDA or OpenCL source compiled by clang: at the source level when
/// the kernel language reads it alike, else clang's own output.
fn from_frontend(
    a: &CheckJob,
    fe: frontend::Frontend,
    o: &LlvmOptions,
    timeout: Duration,
) -> Result<Start> {
    let started = std::time::Instant::now();
    let (compiled, command) =
        frontend::compile(fe, &a.src, o.clang_bin.as_deref(), timeout).map_err(Error::tool)?;
    let clang_time = started.elapsed();
    let ll_name = format!("{}.ll", a.src);
    let unreadable =
        |e: String| Error::tool(format!("{command}: convcheck cannot read its output: {e}"));
    let mut loaded = read_ll(&ll_name, &compiled).map_err(unreadable)?;
    let mut notes = vec![format!("front end: {command}")];
    let (text, renames) = if a.src.ends_with(".cu") {
        frontend::source_names(&compiled, &loaded.defined)
    } else {
        (String::new(), Vec::new())
    };
    if !renames.is_empty() {
        let shown: Vec<String> = renames
            .iter()
            .map(|(m, s)| format!("@{m} is `{s}`"))
            .collect();
        notes.push(format!(
            "clang's output names functions as C++ does; checked under their source names: {}",
            shown.join(", ")
        ));
        loaded = read_ll(&ll_name, &text).map_err(unreadable)?;
    }
    let mut start = if a.reference == Reference::Cfg {
        Start::ll(loaded, notes)
    } else {
        match source_reference(&a.src, &loaded)? {
            Ok(k) => Start::source(k, loaded, ("clang -O0".into(), "clang -O0".into()), notes),
            Err(why) => {
                notes.push(why);
                Start::ll(loaded, notes)
            }
        }
    };
    start.clang = clang_time;
    Ok(start)
}

/// The kernel-language reading of the source `src` that clang compiled to
/// `loaded`, or why the reference must be clang's own output: the kernel
/// language does not read it, its calls are not clang's, or a parameter is
/// named `tid` or `N` (the kernel language reads them as the thread index
/// and the group size, clang's output as per-thread values, so the two
/// readings would disagree).
fn source_reference(src: &str, loaded: &Loaded) -> Result<std::result::Result<Kernel, String>> {
    let text = std::fs::read_to_string(src)
        .map_err(|e| Error::usage(format!("{src}: cannot read: {e}")))?;
    let reserved = loaded
        .mapped
        .module
        .functions
        .iter()
        .flat_map(|f| f.params.iter())
        .find(|p| *p == "tid" || *p == "N")
        .cloned();
    let kernel = match Kernel::parse(src, &text) {
        Ok(k) => k,
        Err(d) => {
            let first = d.to_string();
            let first = first.lines().next().unwrap_or("").to_string();
            return Ok(Err(format!(
                "the kernel language does not read {src} ({first}): the reference is clang's \
                 own output at the CFG level"
            )));
        }
    };
    let disagree = frontend::call_disagreements(&kernel.module(), &loaded.mapped.module);
    if !disagree.is_empty() {
        return Ok(Err(format!(
            "{}: the reference is clang's own output at the CFG level",
            disagree.join("; ")
        )));
    }
    if let Some(r) = reserved {
        return Ok(Err(format!(
            "a parameter is named `{r}`, which the kernel language reads as a builtin while \
             clang's output reads it as a per-thread value: the reference is clang's own output \
             at the CFG level"
        )));
    }
    Ok(Ok(kernel))
}
