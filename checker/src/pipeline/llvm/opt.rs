//! The stages of an `opt` pipeline: opt run once with
//! `-print-changed=quiet -print-module-scope -opt-bisect-limit=-1`, every
//! module it prints after a pass read back as a stage
//! ([`crate::llvm::dumps`]), with the command that reproduces it.

use super::StageModule;
use crate::engine::Allowance;
use crate::error::{Error, Result};
use crate::llvm::{dumps, read_ll_with, tools, LlvmOptions, Loaded};
use crate::report::Reproduce;
use std::time::Duration;

/// The `-passes=` pipeline of `--opt P`: opt's levels written as clang
/// and the legacy `opt -O2` write them (`O2`, `-O2`) are `default<O2>`,
/// which is what `-passes=` calls them; anything else is opt's to read.
pub fn pipeline(p: &str) -> String {
    let level = p.strip_prefix('-').unwrap_or(p);
    if matches!(level, "O0" | "O1" | "O2" | "O3" | "Os" | "Oz") {
        format!("default<{level}>")
    } else {
        p.to_string()
    }
}

/// Runs the pipeline on `input` and returns one stage per pass that
/// changed the module, the module opt printed, the command that
/// reproduces the run, and, when opt stopped before the end of the
/// pipeline after printing some modules, its message.
pub(super) fn opt_stages(
    input: &Loaded,
    pipeline: &str,
    o: &LlvmOptions,
    timeout: Duration,
) -> Result<(Vec<StageModule>, Loaded, String, Option<String>)> {
    let bin = match &o.opt_bin {
        Some(b) => b.clone(),
        None => tools::find(&["opt-19", "opt"], "for --opt").map_err(Error::tool)?,
    };
    let dir = tempfile::tempdir().map_err(|e| Error::io(format!("temporary folder: {e}")))?;
    let in_path = dir.path().join("input.ll");
    let out_path = dir.path().join("output.ll");
    std::fs::write(&in_path, &input.text)
        .map_err(|e| Error::io(format!("{}: {e}", in_path.display())))?;
    let mut args: Vec<String> = vec![
        format!("-passes={pipeline}"),
        "-print-changed=quiet".into(),
        "-print-module-scope".into(),
        "-opt-bisect-limit=-1".into(),
        "-S".into(),
    ];
    // The user's `--opt-arg`s after convcheck's flags, before the input.
    args.extend(o.opt_args.iter().cloned());
    args.extend([
        in_path.display().to_string(),
        "-o".into(),
        out_path.display().to_string(),
    ]);
    let run = tools::run_keeping(&bin, &args, &out_path, timeout).map_err(Error::tool)?;
    let user: String = o
        .opt_args
        .iter()
        .map(|a| format!(" {}", tools::shell_word(a)))
        .collect();
    let shown = format!(
        "{} -passes={} -S{user} {}",
        tools::shell_word(&bin),
        tools::shell_word(pipeline),
        tools::shell_word(&input.file)
    );
    // A module read with source positions keeps them in every dump.
    let at_source = |l: Loaded| match &input.source {
        Some(src) => l.at_source_lines(src),
        None => l,
    };
    let mut stages = Vec::new();
    for d in dumps::split(&run.stderr) {
        let name = match d.bisect {
            Some(n) => format!("{} (opt-bisect {n})", d.pass),
            None => d.pass.clone(),
        };
        let file = format!("{} after {}", input.file, d.pass);
        let loaded = at_source(read_ll_with(&file, &d.text, &o.map_options()).map_err(|e| {
            Error::tool(format!(
                "{shown}: convcheck cannot read the module after {} (standard error line {}): {e}",
                d.pass, d.line
            ))
        })?);
        let notes = match d.bisect {
            Some(n) => vec![format!(
                "reproduce: {shown} -opt-bisect-limit={n} (and {} for the module before it)",
                n.saturating_sub(1)
            )],
            None => Vec::new(),
        };
        let reproduce = d.bisect.map(|bisect| Reproduce {
            command: format!("{shown} -opt-bisect-limit={bisect}"),
            bisect,
        });
        stages.push(StageModule {
            level: format!("after {}", dumps::pass_class(&d.pass)),
            name,
            loaded,
            notes,
            only_if_changed: true,
            allow: Allowance::Exact,
            reproduce,
        });
    }
    if let Some(failure) = &run.failure {
        // opt's verifier aborts the pipeline on a module that a pass broke;
        // the modules printed before are still the pipeline's stages, and
        // the last one shows what the pass did. Without any, the failure
        // is the user's to see.
        let Some(last) = stages.last_mut() else {
            return Err(Error::tool(failure.clone()));
        };
        let why = dumps::trailer(&run.stderr);
        last.notes
            .push(format!("opt stopped after this pass: {why}"));
        let output = last.loaded.clone();
        return Ok((stages, output, shown, Some(why)));
    }
    let output = at_source(
        read_ll_with(
            &format!("{} after opt", input.file),
            &run.stdout,
            &o.map_options(),
        )
        .map_err(|e| Error::tool(format!("{shown}: convcheck cannot read its output: {e}")))?,
    );
    Ok((stages, output, shown, None))
}
