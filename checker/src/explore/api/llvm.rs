//! The explorer's API on LLVM IR (`"language": "llvm"`): reading a module
//! with the checker's LLVM front end (`crate::llvm`), picking a function,
//! and answering `run` and `lower` at the CFG level (also for clang's
//! output, [`super::clang`]). Nothing external runs here.

use super::*;

/// The answer to `"tokens": true` on LLVM IR.
pub(super) const LLVM_TOKENS: &str = "`tokens` places tokens when the kernel language is lowered; LLVM IR has the tokens it is written with (llvm.experimental.convergence.*), and its CFG semantics uses them where present: leave `tokens` out";

/// The answer to the source level on LLVM IR.
pub(super) const LLVM_NO_SOURCE: &str = "LLVM IR has no source level: it runs and is checked at the CFG level, its own semantics (maximal convergence, or tokens where present)";

/// Reads LLVM IR; a failure carries every parse error's line and column,
/// as [`parse_kernel`]'s do.
pub(super) fn parse_llvm(file: &str, source: &str) -> Result<crate::llvm::Loaded, ApiError> {
    crate::llvm::parse_ll(file, source).map_err(|errors| {
        let list: Vec<Value> = errors
            .errors()
            .iter()
            .map(|x| json!({"line": x.line(), "col": x.col(), "message": x.message()}))
            .collect();
        let mut e = ApiError::new(422, "parse", errors.to_string()).field("source");
        e.extra = Some(("diagnostics", json!(list)));
        e
    })
}

/// The function of LLVM IR a request is about: `name` if the module
/// defines it, else the module's only function, or the only one no other
/// calls when every function is mapped.
pub(super) fn llvm_entry(l: &crate::llvm::Loaded, name: Option<&str>) -> Result<String, ApiError> {
    let names = || l.defined.join(", ");
    let usage = |m: String| ApiError::new(422, "usage", m).field("function");
    if let Some(n) = name {
        if l.defined.iter().any(|d| d == n) {
            return Ok(n.to_string());
        }
        return Err(usage(format!(
            "{}: no function named `{n}` (functions: {})",
            l.file,
            names()
        )));
    }
    match l.defined.as_slice() {
        [] => Err(usage(format!("{}: defines no function", l.file))),
        [one] => Ok(one.clone()),
        _ => {
            let m = &l.mapped.module;
            match m.entry(None) {
                Ok(f) if l.mapped.skipped.is_empty() => Ok(m.functions[f].name.clone()),
                _ => Err(usage(format!(
                    "{}: several kernels; choose one with `function` (functions: {})",
                    l.file,
                    names()
                ))),
            }
        }
    }
}

/// The index of `name` in the mapped module, or the answer naming the
/// construct outside the model that kept it out.
pub(super) fn llvm_mapped(l: &crate::llvm::Loaded, name: &str) -> Result<usize, ApiError> {
    l.index(name).ok_or_else(|| {
        let u = l.mapped.skipped.iter().find(|u| u.function == name);
        let message = u.map_or_else(|| format!("@{name} is not mapped"), |u| u.to_string());
        let mut e = ApiError::new(422, "unsupported", message).field("function");
        e.extra = u.map(|u| ("unsupported", json!(u)));
        e
    })
}

/// `POST /api/run` on LLVM IR: the CFG level, after the passes.
pub(super) fn run_llvm(r: RunRequest, file: String) -> Result<Value, ApiError> {
    if r.level == Some(Level::Source) {
        return Err(invalid("level", LLVM_NO_SOURCE));
    }
    if r.tokens {
        return Err(invalid("tokens", LLVM_TOKENS));
    }
    let loaded = parse_llvm(&file, &r.source)?;
    run_loaded(&r, file, &loaded)
}

/// A run of `loaded` (LLVM IR as read, or clang's output) at the CFG
/// level, after the passes; the answer names `file`.
pub(super) fn run_loaded(
    r: &RunRequest,
    file: String,
    loaded: &crate::llvm::Loaded,
) -> Result<Value, ApiError> {
    let name = llvm_entry(loaded, r.function.as_deref())?;
    let entry = llvm_mapped(loaded, &name)?;
    check_passes(&r.passes)?;
    let fuel = capped("fuel", r.fuel, 100_000, MAX_FUEL)?;
    let (values, group) = scenario(r, &loaded.mapped.module)?;
    let stages = crate::apply_passes(&loaded.mapped.module, &r.passes).map_err(from_error)?;
    let module = stages
        .last()
        .map_or_else(|| loaded.mapped.module.clone(), |s| s.2.clone());
    let program = CfgProgram::new(module);
    let report = run_cfg_in_group(&program, entry, &values, &group, fuel).map_err(from_error)?;
    let obj = crate::run::run_json(&report, &file, &name, "cfg", &r.passes);
    Ok(in_group(obj, &group))
}

/// `POST /api/lower` on LLVM IR: the module as read (the first stage,
/// named by the file), then one stage per pass. A function outside the
/// model has no stages, and `unsupported` names the construct.
pub(super) fn lower_llvm(r: LowerRequest, file: String) -> Result<Value, ApiError> {
    if r.tokens {
        return Err(invalid("tokens", LLVM_TOKENS));
    }
    let loaded = parse_llvm(&file, &r.source)?;
    let first = file.clone();
    lower_loaded(&r, file, &loaded, &first)
}

/// `/api/lower`'s answer for `loaded` (LLVM IR as read, or clang's
/// output): the module as read, as the stage named `first`, then one
/// stage per pass.
pub(super) fn lower_loaded(
    r: &LowerRequest,
    file: String,
    loaded: &crate::llvm::Loaded,
    first: &str,
) -> Result<Value, ApiError> {
    let default = llvm_entry(loaded, None).ok();
    let name = match (&r.function, &default) {
        (Some(f), _) => llvm_entry(loaded, Some(f))?,
        (None, Some(d)) => d.clone(),
        (None, None) => loaded.defined.first().cloned().ok_or_else(|| {
            ApiError::new(422, "usage", format!("{file}: defines no function")).field("function")
        })?,
    };
    check_passes(&r.passes)?;
    let module = &loaded.mapped.module;
    let (oracles, ops) = tables_json(module);
    let skipped = |n: &str| loaded.mapped.skipped.iter().find(|u| u.function == n);
    let mut answer = json!({
        "file": file,
        "function": name,
        "default_function": default,
        "functions": loaded.defined.iter().map(|n| json!({
            "name": n,
            "line": loaded.lines.get(n).copied().unwrap_or(0),
            "unsupported": skipped(n).map(|u| u.to_string()),
        })).collect::<Vec<_>>(),
        "oracles": oracles,
        "ops": ops,
        "stages": [],
    });
    match loaded.index(&name) {
        Some(entry) => {
            let mut stages = vec![(first.to_string(), Vec::new(), module.clone())];
            stages.extend(crate::apply_passes(module, &r.passes).map_err(from_error)?);
            answer["stages"] = json!(stages_json(&stages, entry, &name));
        }
        None => {
            let u = skipped(&name);
            answer["unsupported"] = json!({
                "message": u.map_or_else(|| format!("@{name} is not mapped"), |u| u.to_string()),
                "construct": u.map(|u| u.construct.clone()),
                "line": u.map(|u| u.line),
            });
        }
    }
    Ok(answer)
}
