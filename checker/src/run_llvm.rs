//! `convcheck run FILE.ll`: one function of LLVM IR, one scenario, its
//! trace table (issue 11).
//!
//! The file is read as `check A.ll B.ll` reads it ([`crate::llvm::load_ll`]:
//! the LLVM front end, `convcheck-llvm`, mapping the module to the IR) and
//! the function runs on its own CFG semantics: maximal convergence, or
//! convergence-control tokens when the function has them. The output is a
//! CFG-level kernel run's ([`crate::run::render_run`]).
//!
//! - LLVM IR has no source level: an explicit `--level source` is a usage
//!   error (exit 2), and so are `--tokens` (the module has the tokens it
//!   is written with) and `--engine smt` (the relational model reads a
//!   kernel's static analysis).
//! - IR that does not parse, or that breaks a static rule of tokens (LLVM's
//!   verifier rejects it), is reported at its line (exit 2).
//! - A function outside the model is inconclusive (exit 3) with the
//!   construct named, as `check` reports it.
//! - Oracles are named by the mapping (docs/src/llvm.md): a call `@c()` of
//!   an external function is the varying oracle `c`, a parameter `%n` the
//!   oracle `n`, a load from `@buf` the oracle `@buf`; `--thread 'c=1,0
//!   n=3'` sets them.
//! - With `--frontend clang` the file is a source (`.c`, `.cu`, `.hip`,
//!   `.cl`) and the run is of clang's output, as `check --frontend clang`
//!   reads it (kernels under their source names, [`crate::llvm::names`]).
//! - `--function` takes a plain or a mangled name.

use crate::explore::group::{run_cfg_in_group, Group};
use crate::llvm::Loaded;
use crate::run::{group_of, render_run, Shown};
use crate::run::{Level, Relation as Engine, RunArgs};
use crate::{Error, Output};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::InstKind;

/// The function of `l` to run: `--function F` when the module defines it,
/// else the module's only function, or the only one no other calls.
pub(crate) fn entry_name(l: &Loaded, name: Option<&str>) -> Result<String, String> {
    let names = || l.defined.join(", ");
    if let Some(n) = name {
        let n = n.strip_prefix('@').unwrap_or(n);
        return match crate::llvm::names::resolve(&l.defined, n) {
            Ok((found, _)) => Ok(found),
            Err(e) => Err(format!(
                "{}: --function {n}: the module {e} (functions: {})",
                l.file,
                if l.defined.is_empty() {
                    "none".to_string()
                } else {
                    names()
                }
            )),
        };
    }
    match l.defined.as_slice() {
        [] => Err(format!("{}: the module defines no function", l.file)),
        [one] => Ok(one.clone()),
        _ => {
            let m = &l.mapped.module;
            match m.entry(None) {
                Ok(f) if l.mapped.skipped.is_empty() => Ok(m.functions[f].name.clone()),
                _ => Err(format!(
                    "{}: several functions; choose one with --function (functions: {})",
                    l.file,
                    names()
                )),
            }
        }
    }
}

/// Whether function `entry` of `module` has convergence-control tokens.
fn has_tokens(module: &convcheck_ir::Module, entry: usize) -> bool {
    module.functions[entry]
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter())
        .any(|i| matches!(i.kind, InstKind::Token { .. }))
}

/// `convcheck run FILE.ll` (see the module documentation).
pub fn run(a: &RunArgs) -> Result<Output, Error> {
    if a.level == Some(Level::Source) {
        return Err(Error::usage(format!(
            "--level source: {} is LLVM IR, which has no source level; it runs at the CFG \
             level, its own semantics (maximal convergence, or tokens where the function has \
             them): leave --level out or give --level cfg",
            a.file
        )));
    }
    if a.tokens {
        return Err(Error::usage(format!(
            "--tokens places tokens when a kernel is lowered; {} is LLVM IR, which has the \
             tokens it is written with (llvm.experimental.convergence.*), and runs with them: \
             leave --tokens out",
            a.file
        )));
    }
    if a.engine == Engine::Smt {
        return Err(Error::usage(format!(
            "--engine smt reads a kernel's static analysis and does not run LLVM IR ({}): \
             leave --engine out",
            a.file
        )));
    }
    let loaded = if a.llvm.frontend.is_some() {
        crate::llvm::load_source(&a.file, &a.llvm)?.0
    } else {
        crate::llvm::load_ll_with(&a.file, &a.llvm.map_options())?
    };
    let name = entry_name(&loaded, a.function.as_deref()).map_err(Error::usage)?;
    if let Some(v) = loaded.violations.iter().find(|v| v.function == name) {
        return Err(Error::input(format!(
            "{}:{}: @{name} breaks a static rule of convergence control tokens, so LLVM gives \
             it no semantics: {}",
            loaded.file, v.line, v.message
        )));
    }
    let Some(entry) = loaded.index(&name) else {
        let why = loaded
            .skipped(&name)
            .unwrap_or_else(|| format!("@{name} is not mapped"));
        return Err(Error::inconclusive(format!("{}: {why}", loaded.file)));
    };
    let module = &loaded.mapped.module;
    let threads = if a.threads.is_empty() {
        Scenario::default_for(module, a.tids.len().max(2) as u32).threads
    } else {
        let mut threads = Vec::new();
        for (t, text) in a.threads.iter().enumerate() {
            threads.push(
                ThreadValues::parse(text)
                    .map_err(|e| Error::usage(format!("--thread {t}: {e}")))?,
            );
        }
        threads
    };
    let group = group_of(a, threads.len()).map_err(Error::usage)?;
    if a.llvm.gpu.block.is_some() {
        // A stated block is the group: a run in another group would read
        // the block's shape for a group it is not.
        let stated = crate::llvm::launch::group_size(0, &a.llvm.gpu).map_err(Error::usage)?;
        let size = group.as_ref().map_or(threads.len() as u32, |g| g.size);
        if size != stated {
            return Err(Error::usage(format!(
                "--block-dim states a group of {stated} threads; give --group {stated}"
            )));
        }
    }
    let stages = crate::apply_passes(module, &a.passes)?;
    let after = stages
        .last()
        .map_or_else(|| module.clone(), |s| s.2.clone());
    let level = if has_tokens(&after, entry) {
        "cfg-tokens"
    } else {
        "cfg"
    };
    let program = CfgProgram::new(after);
    let run_group = group
        .clone()
        .unwrap_or_else(|| Group::first(threads.len() as u32));
    let report = run_cfg_in_group(&program, entry, &threads, &run_group, a.fuel)?;
    let shown = Shown {
        file: &a.file,
        function: &name,
        level,
        passes: &a.passes,
        group: group.as_ref(),
    };
    Ok(render_run(&report, &shown, a.format))
}
