//! Checks the explorer runs as `convcheck check` runs them on files: two
//! files (`check SRC TGT`, `target_source` in the request) and LLVM IR
//! through the user's `opt` (`check A.ll --opt PIPELINE`, `opt` in the
//! request, only when the server was started with `--allow-tools`).
//!
//! The request's texts are written to a temporary folder of their own,
//! removed when the check ends, under the base names of the request's file
//! names; the report's paths name the files as the request did (the folder
//! is taken out of every string of the answer). `opt`'s binary and
//! arguments are the server's ([`crate::explore::Tools`]); a request names
//! only the pipeline, passed to `opt` as one `-passes=` argument with no
//! shell in between.

use super::{invalid, ApiError, CheckRequest};
use crate::config::{CheckJob, Format, Reference};
use crate::engine::Budget;
use crate::explore::Tools;
use crate::pipeline::{Settings, Silent};
use crate::report::Invocation;
use serde_json::Value;

/// The longest pipeline a request may name.
pub const MAX_PIPELINE: usize = 2000;

/// What a request without `--allow-tools` gets for `opt`.
pub const TOOLS_OFF: &str = "the explorer runs opt only when it was started with `convcheck \
explore --allow-tools` (the binary and its arguments are fixed there: --opt-bin, --opt-arg)";

/// Whether the request is one for this module.
pub fn applies(r: &CheckRequest) -> bool {
    r.opt.is_some() || r.target_source.is_some()
}

/// The base name of a request's file name (no folder can be named).
pub(super) fn base(name: &str, fallback: &str) -> String {
    let b = name.rsplit(['/', '\\']).next().unwrap_or("").trim();
    if b.is_empty() || b == "." || b == ".." {
        fallback.to_string()
    } else {
        b.to_string()
    }
}

/// Every string in `v` with `from` replaced by `to`.
fn replace_strings(v: &mut Value, from: &str, to: &str) {
    match v {
        Value::String(s) if s.contains(from) => *s = s.replace(from, to),
        Value::Array(items) => items.iter_mut().for_each(|x| replace_strings(x, from, to)),
        Value::Object(m) => m.values_mut().for_each(|x| replace_strings(x, from, to)),
        _ => {}
    }
}

/// Every string in `v` without the server's temporary folders
/// ([`super::clang::scrub`]).
pub(super) fn scrub_strings(v: &mut Value) {
    match v {
        Value::String(s) => *s = super::clang::scrub(s),
        Value::Array(items) => items.iter_mut().for_each(scrub_strings),
        Value::Object(m) => m.values_mut().for_each(scrub_strings),
        _ => {}
    }
}

/// Runs the check of `r` on files, as `convcheck check` would; with
/// `frontend`, the source is compiled by the server's clang first (`check
/// FILE --frontend clang`).
pub fn check(
    r: &CheckRequest,
    file: &str,
    job_base: &CheckJob,
    budget: Budget,
    tools: Option<&Tools>,
    frontend: bool,
) -> Result<Value, ApiError> {
    let llvm = file.ends_with(".ll");
    if let Some(p) = &r.opt {
        if tools.is_none() {
            return Err(invalid("opt", TOOLS_OFF));
        }
        if !llvm && !frontend {
            return Err(invalid(
                "opt",
                "opt runs on LLVM IR: set \"language\": \"llvm\"",
            ));
        }
        if r.target_source.is_some() {
            return Err(invalid(
                "opt",
                "give a pipeline or a target file, not both (as `check` takes --opt or TGT)",
            ));
        }
        if p.trim().is_empty() || p.len() > MAX_PIPELINE {
            return Err(invalid(
                "opt",
                format!("expected an `opt -passes=` pipeline of 1 to {MAX_PIPELINE} characters"),
            ));
        }
    }
    if !r.passes.is_empty() && r.target_source.is_some() {
        return Err(invalid(
            "passes",
            "a check of two files compares them as they are: give no passes",
        ));
    }
    let dir = tempfile::Builder::new()
        .prefix("convcheck-explore-")
        .tempdir()
        .map_err(|e| ApiError::new(500, "io", format!("a temporary folder: {e}")))?;
    let folder = format!("{}/", dir.path().display());
    let src_name = base(file, if llvm { "input.ll" } else { "input.c" });
    let src_path = dir.path().join(&src_name);
    std::fs::write(&src_path, &r.source)
        .map_err(|e| ApiError::new(500, "io", format!("{}: {e}", src_path.display())))?;
    let tgt_path = match &r.target_source {
        Some(text) => {
            let fallback = if llvm { "target.ll" } else { "target.c" };
            let mut name = base(r.target_file.as_deref().unwrap_or(fallback), fallback);
            if name == src_name {
                name = format!("target-{name}");
            }
            let p = dir.path().join(&name);
            std::fs::write(&p, text)
                .map_err(|e| ApiError::new(500, "io", format!("{}: {e}", p.display())))?;
            Some(p.display().to_string())
        }
        None => None,
    };
    let stated = super::launch::read(r, frontend, true)?;
    let job = CheckJob {
        threads: super::launch::threads(job_base.threads, &stated.gpu)?,
        src: src_path.display().to_string(),
        tgt: tgt_path,
        format: Format::Json,
        reference: if llvm && !frontend {
            Reference::Cfg
        } else {
            job_base.reference
        },
        ..job_base.clone()
    };
    let mut settings = Settings {
        budget,
        ..Settings::default()
    };
    if let (Some(p), Some(t)) = (&r.opt, tools) {
        settings.llvm.opt = Some(p.clone());
        settings.llvm.opt_bin = t.opt_bin.clone();
        settings.llvm.opt_args = t.opt_args.clone();
        settings.llvm.tool_timeout = t.tool_timeout;
    }
    if frontend {
        let (bin, timeout) = super::clang::clang_bin(tools)?;
        settings.llvm.frontend = Some(crate::llvm::frontend::Frontend::Clang);
        settings.llvm.clang_bin = Some(bin);
        settings.llvm.tool_timeout = timeout;
        settings.llvm.clang_args = stated.clang_args;
        settings.llvm.target = stated.target;
    }
    settings.llvm.gpu = stated.gpu;
    let report = crate::pipeline::check(&job, &settings, &Silent).map_err(|e| {
        // A tool's failure (opt refusing a pipeline) is the request's.
        let mut a = super::from_error(e.clone());
        a.message = super::clang::scrub(&a.message.replace(&folder, ""));
        if tools.is_some() && e.kind() == crate::ErrorKind::Tool {
            a = ApiError::new(
                422,
                "tool",
                super::clang::scrub(&e.message().replace(&folder, "")),
            );
        }
        a
    })?;
    let mut v = crate::report::json::value(&report, &Invocation::default());
    replace_strings(&mut v, &folder, "");
    scrub_strings(&mut v);
    Ok(v)
}
