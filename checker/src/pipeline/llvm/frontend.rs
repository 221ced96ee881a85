//! The start of a check whose source clang compiles (`--frontend clang`,
//! DESIGN.md 2.9 "Reference"): clang's output, read with its ops at their
//! source lines, and the reference it is checked against.
//!
//! - **The source level**, when the kernel language reads the file and
//!   reads it alike (the same convergent operations, no parameter named
//!   `tid` or `N`): seed 000's semantics of the source, with clang's
//!   lowering, "clang -O0", as the first stage, so that a lowering that
//!   loses convergence (the find-tid loop's divergent exit, LLVM #180621)
//!   is found and blamed on clang.
//! - **clang's own output at the CFG level** otherwise, as LLVM's rules
//!   ask of a pass; the later stages are judged against it.
//!
//! Either way a note says which reference applied and why.

use super::start::Start;
use crate::config::{CheckJob, Reference};
use crate::error::{Error, Result};
use crate::llvm::{load_source, LlvmOptions, Loaded};
use crate::pass_cmd::shell_quote as q;
use convcheck_lang::sema::Kernel;

/// How one reading takes the calls of one callee: as convergent
/// operations (instances in the trace) or as values only.
fn call_readings(m: &convcheck_ir::Module) -> Vec<(String, bool)> {
    use convcheck_ir::{CallKind, OpKind};
    let mut out: Vec<(String, bool)> = Vec::new();
    for op in &m.ops {
        let OpKind::Call(kind) = op.kind else {
            continue;
        };
        let (oracle, event) = match kind {
            CallKind::Op(o) => (o, true),
            CallKind::Plain(o) | CallKind::Oracle(o) => (o, false),
            _ => continue,
        };
        if let Some(info) = m.oracles.get(oracle) {
            let entry = (info.name.clone(), event);
            if !out.contains(&entry) {
                out.push(entry);
            }
        }
    }
    out
}

/// The external functions whose calls the kernel language and clang's
/// output read differently: the kernel language takes a call outside a
/// condition as a convergent operation and one inside a condition as an
/// oracle, whatever the declaration says, while clang's output has a
/// convergent operation exactly where the callee is declared `convergent`
/// (`extern int lane(void);` called as `int me = lane();` is an operation
/// to the one and a value to the other). Each is described in words; an
/// empty list means the two readings see the same operations.
pub fn call_disagreements(
    kernel: &convcheck_ir::Module,
    clang: &convcheck_ir::Module,
) -> Vec<String> {
    let theirs = call_readings(clang);
    let mut out = Vec::new();
    for (name, event) in call_readings(kernel) {
        let Some((_, other)) = theirs.iter().find(|(n, e)| *n == name && *e != event) else {
            continue;
        };
        let what = |e: bool| {
            if e {
                "a convergent operation"
            } else {
                "a value (no convergent operation)"
            }
        };
        let line = format!(
            "the kernel language reads a call of `{name}` as {} and clang's output as {}",
            what(event),
            what(*other)
        );
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

/// The end of every note that falls back to clang's output.
const CFG_FALLBACK: &str = "the reference is clang's own output at the CFG level";

/// A C, CUDA, HIP or OpenCL source compiled by clang: at the source level
/// when the kernel language reads it alike, else clang's own output.
pub(super) fn start(a: &CheckJob, o: &LlvmOptions) -> Result<Start> {
    let (loaded, compiled) = load_source(&a.src, o)?;
    let mut notes = vec![format!("front end: {}", compiled.command)];
    if o.opt.is_some() {
        let mut lower = format!("convcheck lower {} --frontend clang", q(&a.src));
        for f in o.clang_flags() {
            lower.push(' ');
            lower.push_str(&q(&f));
        }
        notes.push(format!(
            "opt's input {}.ll is clang's output as convcheck reads it: {lower} --emit ll > {}.ll",
            a.src,
            q(&a.src)
        ));
    }
    if !compiled.renames.is_empty() {
        let shown: Vec<String> = compiled
            .renames
            .iter()
            .map(|(m, s)| format!("@{m} is `{s}`"))
            .collect();
        notes.push(format!(
            "clang's output names functions as C++ does; checked under their source names: {}",
            shown.join(", ")
        ));
    }
    if a.reference == Reference::Cfg {
        notes.push("reference: clang's own output at the CFG level (--reference cfg)".into());
        return Ok(Start::ll(loaded, notes));
    }
    match source_reference(&a.src, &loaded)? {
        Ok(k) => {
            // The kernel language reads an external function as an oracle
            // without effects (`c()`): clang's output is read alike, its
            // calls not observed for their effects (`calls_as_oracles`;
            // docs/src/semantics.md, "Calls that may have effects").
            let as_oracles = LlvmOptions {
                calls_as_oracles: true,
                ..o.clone()
            };
            let loaded = crate::llvm::read_ll_with(
                &format!("{}.ll", a.src),
                &compiled.text,
                &as_oracles.map_options(),
            )
            .map_err(|e| {
                Error::tool(format!(
                    "{}: convcheck cannot read its output: {e}",
                    compiled.command
                ))
            })?
            .at_source_lines(&a.src);
            notes.push(format!(
                "reference: the source level of {} (seed 000's semantics; the kernel language \
                 reads the file and its calls as clang does), so clang's lowering is checked \
                 too, as stage 1 (clang -O0)",
                a.src
            ));
            Ok(Start::source(
                k,
                loaded,
                ("clang -O0".into(), "clang -O0".into()),
                notes,
            ))
        }
        Err(why) => {
            notes.push(why);
            Ok(Start::ll(loaded, notes))
        }
    }
}

/// Whether a note says that the reference fell back to clang's output.
pub(super) fn is_fallback(note: &str) -> bool {
    note.contains(CFG_FALLBACK)
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
                "reference: the kernel language does not read {src} ({first}): {CFG_FALLBACK}"
            )));
        }
    };
    let disagree = call_disagreements(&kernel.module(), &loaded.mapped.module);
    if !disagree.is_empty() {
        return Ok(Err(format!(
            "reference: {}: {CFG_FALLBACK}",
            disagree.join("; ")
        )));
    }
    if let Some(r) = reserved {
        return Ok(Err(format!(
            "reference: a parameter is named `{r}`, which the kernel language reads as a builtin \
             while clang's output reads it as a per-thread value: {CFG_FALLBACK}"
        )));
    }
    Ok(Ok(kernel))
}
