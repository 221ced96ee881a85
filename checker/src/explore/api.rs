//! The explorer's JSON API: what each endpoint reads, what it answers, and
//! its errors (docs/src/explorer.md, "The API", is the reference).
//!
//! Every request carries the kernel itself (`source`, with an optional
//! `file` name for messages) and its `language`: `"kernel"` (the default)
//! is the kernel language; `"llvm"` is LLVM IR, read by `convcheck-llvm`
//! and mapped to the IR as `convcheck check A.ll` reads it
//! ([`crate::llvm::parse_ll`]). LLVM IR has no source level: it is run at
//! the CFG level, drawn as read and after the passes, and checked with its
//! own CFG semantics as the reference against convcheck's own passes
//! ([`crate::llvm::check_builtin_passes`]). Under `explore --allow-tools`
//! a check may run the server's `opt` ([`files`]), and `"cuda"`, `"hip"`,
//! `"opencl"`, `"clang-c"` and `"clang"` sources are compiled by the
//! server's clang and then read as LLVM IR is ([`clang`]); without it no
//! external tool is run. Unknown fields are errors, so a misspelt option
//! is named rather than ignored.
//!
//! Answers reuse the command line's objects: `/api/run` answers the object
//! of `run --format json` ([`crate::run::run_json`]) and `/api/check` the
//! object of `check --format json` ([`crate::check::render_json`]).
//! Errors are `{"error": {"kind", "message", ...}}` with a 4xx status
//! (5xx only for a bug or the time budget); a kernel or LLVM IR that does
//! not parse answers 422 with every diagnostic's line and column.
//!
//! Inputs are capped (the `MAX_*` constants) so that a request that
//! overruns its time budget, and cannot be interrupted, still ends; the
//! caps bound it loosely (a check's paths grow exponentially with
//! `max_iters`), so the slot rules of [`super::http`] keep such a run from
//! blocking the page.

use super::graph;
use super::group::{run_cfg_in_group, run_in_group, Group};
use crate::config::{CheckConfig, CheckJob, Reference};
use crate::engine::Budget;
use crate::pipeline::Settings;
use crate::report::Invocation;
use crate::{Error, ErrorKind};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::print::cfg_text;
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::Module;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Duration;

mod clang;
use clang::language;
mod files;
mod initial;
mod launch;
mod llvm;
pub use initial::{initial, passes, CUDA_FIND_TID, LLVM_FIND_TID_TOKENS, LLVM_PLAIN_KERNELS};
use llvm::*;

/// Threads a run may list.
pub const MAX_RUN_THREADS: usize = 16;
/// Largest group size `N` of a run.
pub const MAX_GROUP: u32 = 1024;
/// Largest `threads` (group size) of a check: pairs grow with its square.
pub const MAX_CHECK_THREADS: u32 = 8;
/// Largest `max_iters` of a check: paths grow exponentially with it.
pub const MAX_ITERS: u32 = 8;
/// Largest `fuel` (instructions per thread).
pub const MAX_FUEL: u64 = 1_000_000;
/// Largest `max_paths` of a check (the command line's default).
pub const MAX_PATHS: usize = 20_000;
/// Passes in a pipeline.
pub const MAX_PASSES: usize = 16;

/// The computing endpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /api/run`.
    Run,
    /// `POST /api/lower`.
    Lower,
    /// `POST /api/check`.
    Check,
}

/// An error answer: an HTTP status and a JSON body naming what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx for the request, 5xx for the server).
    pub status: u16,
    /// A stable word: `bad_json`, `bad_request`, `parse`, `usage`,
    /// `limit`, `unsupported_language`, `inconclusive`, `too_large`,
    /// `busy`, `budget`, `internal`, ...
    pub kind: &'static str,
    /// What was wrong, in a sentence.
    pub message: String,
    /// The request field at fault, when one is.
    pub field: Option<String>,
    /// For `parse`: every diagnostic, `{"line", "col", "message"}`; for
    /// `bad_json`: the position in the body.
    pub extra: Option<(&'static str, Value)>,
}

impl ApiError {
    /// An error with a status, a kind and a message.
    pub fn new(status: u16, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            kind,
            message: message.into(),
            field: None,
            extra: None,
        }
    }

    fn field(mut self, f: impl Into<String>) -> ApiError {
        self.field = Some(f.into());
        self
    }

    /// The JSON body.
    pub fn to_json(&self) -> Value {
        let mut e = json!({"kind": self.kind, "message": self.message});
        if let Some(f) = &self.field {
            e["field"] = json!(f);
        }
        if let Some((k, v)) = &self.extra {
            e[*k] = v.clone();
        }
        json!({ "error": e })
    }
}

fn invalid(field: impl Into<String>, message: impl Into<String>) -> ApiError {
    ApiError::new(422, "bad_request", message).field(field)
}

fn limit(field: &str, what: impl std::fmt::Display, max: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        422,
        "limit",
        format!("`{field}` is {what}; the explorer allows at most {max}"),
    )
    .field(field)
}

/// An error of the library as an answer, by its kind: bad input, usage
/// and pass errors and inconclusive runs are the request's (422), anything
/// else is the server's (500).
fn from_error(e: Error) -> ApiError {
    let message = e.message().to_string();
    match e.kind() {
        ErrorKind::Input | ErrorKind::Usage | ErrorKind::Pass => {
            ApiError::new(422, "usage", message)
        }
        ErrorKind::Inconclusive => ApiError::new(422, "inconclusive", message),
        ErrorKind::Tool | ErrorKind::Io | ErrorKind::Internal => {
            ApiError::new(500, "internal", message)
        }
    }
}

/// Reads a request body as `T`.
fn parse_body<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        let (kind, what) = match e.classify() {
            serde_json::error::Category::Data => (
                "bad_request",
                "the request does not have the expected fields",
            ),
            _ => ("bad_json", "the request body is not valid JSON"),
        };
        let mut err = ApiError::new(400, kind, format!("{what}: {e}"));
        err.extra = Some(("at", json!({"line": e.line(), "column": e.column()})));
        err
    })
}

/// The language of a request's `source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    /// The kernel language.
    Kernel,
    /// LLVM IR text.
    Llvm,
    /// A source the server's clang compiles ([`clang`]).
    Clang(crate::llvm::frontend::Language),
}

/// Parses and analyses the kernel; a failure carries every diagnostic.
fn parse_kernel(file: &str, source: &str) -> Result<Kernel, ApiError> {
    Kernel::parse(file, source).map_err(|d| {
        let list: Vec<Value> =
            d.0.iter()
                .map(|x| json!({"line": x.pos.line, "col": x.pos.col, "message": x.message}))
                .collect();
        let mut e = ApiError::new(422, "parse", d.to_string()).field("source");
        e.extra = Some(("diagnostics", json!(list)));
        e
    })
}

/// Checks pass names (each must be in the registry) and their number.
fn check_passes(passes: &[String]) -> Result<(), ApiError> {
    if passes.len() > MAX_PASSES {
        return Err(limit(
            "passes",
            format!("{} passes long", passes.len()),
            MAX_PASSES,
        ));
    }
    for (i, p) in passes.iter().enumerate() {
        convcheck_transforms::lookup(p)
            .map_err(|e| invalid(format!("passes[{i}]"), format!("pass `{p}`: {e}")))?;
    }
    Ok(())
}

fn capped<T: PartialOrd + std::fmt::Display + Copy>(
    field: &str,
    value: Option<T>,
    default: T,
    max: T,
) -> Result<T, ApiError> {
    let v = value.unwrap_or(default);
    if v > max {
        return Err(limit(field, v, max));
    }
    Ok(v)
}

/// The semantics a run uses.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Seed 000's source-level convergence.
    #[default]
    Source,
    /// The lowered CFG (after the passes): maximal convergence, or tokens.
    Cfg,
}

/// The reference of a check.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ReferenceField {
    /// The kernel's source-level semantics.
    #[default]
    Source,
    /// The lowered CFG's own semantics.
    Cfg,
}

/// One thread of a run's scenario.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreadSpec {
    /// Its `tid` (default: the smallest id no other thread has).
    pub tid: Option<u32>,
    /// Its oracle values: `{"cond1": [1, 0]}` or the `--thread` text
    /// `"cond1=1,0 cond2=0"`.
    #[serde(default)]
    pub values: Value,
}

/// `POST /api/run`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// `"kernel"` (default) or `"llvm"`.
    pub language: Option<String>,
    /// The file name used in messages (default `input.c`).
    pub file: Option<String>,
    /// The kernel's text.
    pub source: String,
    /// The kernel entry (default: the only function no other calls).
    pub function: Option<String>,
    /// `"source"` (default for the kernel language) or `"cfg"` (the only
    /// level of LLVM IR).
    pub level: Option<Level>,
    /// `--clang-arg` (repeatable) for a clang source ([`launch`]).
    #[serde(default)]
    pub clang_args: Vec<String>,
    /// `--target`: `nvptx64`, `amdgcn` or `spirv64`.
    pub target: Option<String>,
    /// At the CFG level, lower with tokens placed from the source.
    #[serde(default)]
    pub tokens: bool,
    /// Passes to run on the lowered module (CFG level only).
    #[serde(default)]
    pub passes: Vec<String>,
    /// The scenario's threads, in row order (default: the default
    /// scenario of `group` threads, or 2).
    pub threads: Option<Vec<ThreadSpec>>,
    /// The group size `N` (default: one more than the largest `tid`).
    pub group: Option<u32>,
    /// Instructions one thread may execute (default 100000).
    pub fuel: Option<u64>,
}

/// `POST /api/lower`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LowerRequest {
    /// `"kernel"` (default) or `"llvm"`.
    pub language: Option<String>,
    /// The file name used in messages (default `input.c`).
    pub file: Option<String>,
    /// The kernel's text.
    pub source: String,
    /// The function to draw (default: the kernel entry, else the first).
    pub function: Option<String>,
    /// Lower with tokens placed from the source.
    #[serde(default)]
    pub tokens: bool,
    /// The pipeline; the answer has one stage per pass after `lower`.
    #[serde(default)]
    pub passes: Vec<String>,
    /// `--clang-arg` (repeatable) for a clang source ([`launch`]).
    #[serde(default)]
    pub clang_args: Vec<String>,
    /// `--target`: `nvptx64`, `amdgcn` or `spirv64`.
    pub target: Option<String>,
}

/// `POST /api/check`: the fields of `convcheck check`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// `"kernel"` (default) or `"llvm"`.
    pub language: Option<String>,
    /// The file name used in the report and its replay line (default
    /// `input.c`).
    pub file: Option<String>,
    /// The kernel's text.
    pub source: String,
    /// The kernel entry.
    pub function: Option<String>,
    /// The pipeline.
    #[serde(default)]
    pub passes: Vec<String>,
    /// `"source"` (default for the kernel language) or `"cfg"` (the only
    /// reference of LLVM IR).
    pub reference: Option<ReferenceField>,
    /// Lower with tokens placed from the source.
    #[serde(default)]
    pub tokens: bool,
    /// Largest iteration number of a loop execution (default 3).
    pub max_iters: Option<u32>,
    /// The group size when fixed; 0 or left out (the default): every
    /// group size `N >= 2`, as `check` without `--threads`.
    pub threads: Option<u32>,
    /// Instructions one thread may execute (default 100000).
    pub fuel: Option<u64>,
    /// Paths per thread before the check is inconclusive (default 20000).
    pub max_paths: Option<usize>,
    /// An `opt -passes=` pipeline run by the server's `opt` on LLVM IR
    /// (only under `explore --allow-tools`).
    pub opt: Option<String>,
    /// A second file's text: the check compares the two as `check SRC
    /// TGT` does.
    pub target_source: Option<String>,
    /// The second file's name (default `target.ll` or `target.c`).
    pub target_file: Option<String>,
    /// `--clang-arg` (repeatable) for a clang source ([`launch`]).
    #[serde(default)]
    pub clang_args: Vec<String>,
    /// `--target`: `nvptx64`, `amdgcn` or `spirv64`.
    pub target: Option<String>,
    /// `--block-dim X[,Y[,Z]]`.
    pub block_dim: Option<String>,
    /// `--grid-dim X[,Y[,Z]]`.
    pub grid_dim: Option<String>,
    /// `--warp-size W`.
    pub warp_size: Option<u32>,
}

/// Answers one request body.
///
/// A check gets `time` as its engine budget: when it runs out the answer is
/// an `inconclusive` report naming the time budget, not an error.
/// `tools` are the external tools the server allows a check to run.
pub fn answer(
    endpoint: Endpoint,
    body: &[u8],
    time: Duration,
    tools: Option<&super::Tools>,
) -> Result<Value, ApiError> {
    match endpoint {
        Endpoint::Run => run(parse_body(body)?, tools),
        Endpoint::Lower => lower_answer(parse_body(body)?, tools),
        Endpoint::Check => check(parse_body(body)?, time, tools),
    }
}

fn file_name(f: &Option<String>, lang: Lang) -> String {
    let lang = match lang {
        Lang::Clang(l) => return clang::file_name(f.as_deref(), l),
        other => other,
    };
    f.clone()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| {
            match lang {
                Lang::Kernel => "input.c",
                Lang::Llvm => "input.ll",
                Lang::Clang(_) => unreachable!("named above"),
            }
            .to_string()
        })
}

/// A thread's values from JSON: an object of integer lists (a single
/// integer or a boolean stands for a one-element list) or `--thread` text.
fn thread_values(field: &str, v: &Value) -> Result<ThreadValues, ApiError> {
    match v {
        Value::Null => Ok(ThreadValues::default()),
        Value::String(s) => ThreadValues::parse(s).map_err(|e| invalid(field, e)),
        Value::Object(map) => {
            let mut out = BTreeMap::new();
            for (name, list) in map {
                let one = |x: &Value| match x {
                    Value::Bool(b) => Some(i64::from(*b)),
                    x => x.as_i64(),
                };
                let values = match list {
                    Value::Array(xs) => xs.iter().map(one).collect::<Option<Vec<i64>>>(),
                    x => one(x).map(|v| vec![v]),
                };
                let Some(values) = values else {
                    return Err(invalid(
                        format!("{field}.{name}"),
                        format!("`{name}`: expected a list of integers, found {list}"),
                    ));
                };
                out.insert(name.clone(), values);
            }
            Ok(ThreadValues(out))
        }
        other => Err(invalid(
            field,
            format!("expected an object of integer lists or `name=v0,v1` text, found {other}"),
        )),
    }
}

/// The scenario's values and group from the request.
fn scenario(r: &RunRequest, module: &Module) -> Result<(Vec<ThreadValues>, Group), ApiError> {
    let Some(specs) = &r.threads else {
        let n = r.group.unwrap_or(2);
        if n == 0 || n as usize > MAX_RUN_THREADS {
            return Err(invalid(
                "group",
                format!(
                    "the default scenario runs every thread of the group: give a group of 1 to {MAX_RUN_THREADS}, or list the threads"
                ),
            ));
        }
        let s = Scenario::default_for(module, n);
        return Ok((s.threads, Group::first(n)));
    };
    if specs.is_empty() {
        return Err(invalid(
            "threads",
            "give at least one thread, or leave `threads` out for the default scenario",
        ));
    }
    if specs.len() > MAX_RUN_THREADS {
        return Err(limit(
            "threads",
            format!("{} threads long", specs.len()),
            MAX_RUN_THREADS,
        ));
    }
    let mut values = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        values.push(thread_values(&format!("threads[{i}].values"), &s.values)?);
    }
    let mut tids: Vec<Option<u32>> = specs.iter().map(|s| s.tid).collect();
    let mut used: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
    for (i, t) in tids.iter().enumerate() {
        if let Some(t) = t {
            if !used.insert(*t) {
                return Err(invalid(
                    format!("threads[{i}].tid"),
                    format!("tid {t} is given to two threads"),
                ));
            }
        }
    }
    let mut next = 0;
    for t in tids.iter_mut().filter(|t| t.is_none()) {
        while used.contains(&next) {
            next += 1;
        }
        used.insert(next);
        *t = Some(next);
    }
    let tids: Vec<u32> = tids.into_iter().flatten().collect();
    let largest = tids.iter().copied().max().unwrap_or(0);
    let size = match r.group {
        Some(n) if n <= largest => {
            return Err(invalid(
                "group",
                format!(
                    "a group of {n} has tids 0 to {}, but tid {largest} is given",
                    n.saturating_sub(1)
                ),
            ))
        }
        Some(n) => n,
        None => largest + 1,
    };
    if size > MAX_GROUP {
        return Err(limit("group", size, MAX_GROUP));
    }
    Ok((values, Group { tids, size }))
}

/// Names threads by their `tid` rather than their row in the hazards of a
/// run whose threads are not 0 to n-1.
fn retid_hazards(h: &mut Value, tids: &[u32]) {
    let map = |v: &mut Value| {
        if let Some(t) = v.as_u64().and_then(|i| tids.get(i as usize)) {
            *v = json!(t);
        }
    };
    for race in h["races"].as_array_mut().into_iter().flatten() {
        for t in race["threads"].as_array_mut().into_iter().flatten() {
            map(t);
        }
        for a in race["accesses"].as_array_mut().into_iter().flatten() {
            map(&mut a["thread"]);
        }
    }
    for d in h["barrier_divergence"].as_array_mut().into_iter().flatten() {
        map(&mut d["thread"]);
        map(&mut d["other"]);
    }
    for b in h["barrier_values"].as_array_mut().into_iter().flatten() {
        for t in b["participants"].as_array_mut().into_iter().flatten() {
            map(t);
        }
    }
}

fn run(r: RunRequest, tools: Option<&super::Tools>) -> Result<Value, ApiError> {
    let lang = language(&r.language, &r.file)?;
    let file = file_name(&r.file, lang);
    let clang = launch::clang_flags(&r.clang_args, r.target.as_deref(), lang)?;
    match lang {
        Lang::Llvm => return run_llvm(r, file),
        Lang::Clang(_) => return clang::run_clang(r, file, tools, &clang),
        Lang::Kernel => {}
    }
    let level = r.level.unwrap_or_default();
    let kernel = parse_kernel(&file, &r.source)?;
    let entry = kernel
        .entry(r.function.as_deref())
        .map_err(|e| ApiError::new(422, "usage", e).field("function"))?;
    if !r.passes.is_empty() && level == Level::Source {
        return Err(invalid(
            "passes",
            "passes transform the CFG: use them with \"level\": \"cfg\"",
        ));
    }
    check_passes(&r.passes)?;
    let fuel = capped("fuel", r.fuel, 100_000, MAX_FUEL)?;
    let (values, group) = scenario(&r, &kernel.module())?;
    let program = match level {
        Level::Source => None,
        Level::Cfg => {
            let lowered = lower(&kernel, r.tokens);
            let stages = crate::apply_passes(&lowered, &r.passes).map_err(from_error)?;
            let module = stages.last().map_or(lowered, |s| s.2.clone());
            Some(CfgProgram::new(module))
        }
    };
    let report = run_in_group(&kernel, program.as_ref(), entry, &values, &group, fuel)
        .map_err(from_error)?;
    let level = match (level, r.tokens) {
        (Level::Source, _) => "source",
        (Level::Cfg, false) => "cfg",
        (Level::Cfg, true) => "cfg-tokens",
    };
    let function = &kernel.functions[entry].name;
    let obj = crate::run::run_json(&report, &file, function, level, &r.passes);
    Ok(in_group(obj, &group))
}

/// A run's object with each thread's `tid` (when the threads are not 0 to
/// n-1) and the group size.
fn in_group(mut obj: Value, group: &Group) -> Value {
    if group.tids != Group::first(group.tids.len() as u32).tids {
        for (t, thread) in obj["threads"]
            .as_array_mut()
            .into_iter()
            .flatten()
            .enumerate()
        {
            thread["tid"] = json!(group.tids[t]);
        }
        retid_hazards(&mut obj["hazards"], &group.tids);
    }
    obj["group"] = json!(group.size);
    obj
}

/// The stages of `/api/lower`: function `entry` of each module, with the
/// notes about it.
fn stages_json(stages: &[(String, Vec<String>, Module)], entry: usize, name: &str) -> Vec<Value> {
    let own = format!("@{name}:");
    stages
        .iter()
        .map(|(stage, notes, m)| {
            let cfg = &m.functions[entry];
            let notes: Vec<&String> = notes
                .iter()
                .filter(|n| n.starts_with(&own) || !n.starts_with('@'))
                .collect();
            json!({
                "name": stage,
                "notes": notes,
                "text": cfg_text(m, cfg),
                "svg": graph::svg(m, cfg),
                "blocks": graph::blocks(m, cfg),
            })
        })
        .collect()
}

/// The module's oracles and operations, as `/api/lower` lists them.
fn tables_json(module: &Module) -> (Value, Value) {
    (
        json!(module
            .oracles
            .iter()
            .map(|o| json!({"name": o.name, "class": o.class}))
            .collect::<Vec<_>>()),
        json!(module
            .ops
            .iter()
            .enumerate()
            .map(|(i, o)| json!({
                "id": i,
                "label": o.label,
                "line": o.span.start.line,
                "col": o.span.start.col,
                "function": module.functions.get(o.func).map(|f| f.name.as_str()),
            }))
            .collect::<Vec<_>>()),
    )
}

fn lower_answer(r: LowerRequest, tools: Option<&super::Tools>) -> Result<Value, ApiError> {
    let lang = language(&r.language, &r.file)?;
    let file = file_name(&r.file, lang);
    let clang = launch::clang_flags(&r.clang_args, r.target.as_deref(), lang)?;
    match lang {
        Lang::Llvm => return lower_llvm(r, file),
        Lang::Clang(_) => return clang::lower_clang(r, file, tools, &clang),
        Lang::Kernel => {}
    }
    let kernel = parse_kernel(&file, &r.source)?;
    let default = kernel.entry(None).ok();
    let entry = match &r.function {
        Some(_) => kernel
            .entry(r.function.as_deref())
            .map_err(|e| ApiError::new(422, "usage", e).field("function"))?,
        None => default.unwrap_or(0),
    };
    check_passes(&r.passes)?;
    let lowered = lower(&kernel, r.tokens);
    let name = kernel.functions[entry].name.clone();
    let first = if r.tokens { "lower --tokens" } else { "lower" };
    let mut stages = vec![(first.to_string(), Vec::new(), lowered.clone())];
    stages.extend(crate::apply_passes(&lowered, &r.passes).map_err(from_error)?);
    let (oracles, ops) = tables_json(&lowered);
    Ok(json!({
        "file": file,
        "function": name,
        "default_function": default.map(|f| kernel.functions[f].name.clone()),
        "functions": kernel.functions.iter().map(|f| json!({"name": f.name, "line": f.span.start.line})).collect::<Vec<_>>(),
        "oracles": oracles,
        "ops": ops,
        "stages": stages_json(&stages, entry, &name),
    }))
}

fn check(r: CheckRequest, time: Duration, tools: Option<&super::Tools>) -> Result<Value, ApiError> {
    let lang = language(&r.language, &r.file)?;
    let file = file_name(&r.file, lang);
    let defaults = CheckConfig::default();
    let mut config = CheckConfig {
        function: r.function.clone(),
        passes: r.passes.clone(),
        tokens: r.tokens,
        reference: match r.reference {
            None | Some(ReferenceField::Source) => Reference::Source,
            Some(ReferenceField::Cfg) => Reference::Cfg,
        },
        threads: capped("threads", r.threads, defaults.threads, MAX_CHECK_THREADS)?,
        max_iters: capped("max_iters", r.max_iters, defaults.max_iters, MAX_ITERS)?,
        fuel: capped("fuel", r.fuel, defaults.fuel, MAX_FUEL)?,
        max_paths: capped("max_paths", r.max_paths, defaults.max_paths, MAX_PATHS)?,
    };
    let budget = Budget {
        timeout: Some(time),
        ..Budget::default()
    };
    if let Lang::Clang(_) = lang {
        return clang::check_clang(&r, &file, config, budget, tools);
    }
    launch::read(&r, false, lang == Lang::Llvm && files::applies(&r))?;
    if lang == Lang::Llvm {
        if r.reference == Some(ReferenceField::Source) {
            return Err(invalid("reference", LLVM_NO_SOURCE));
        }
        if r.tokens {
            return Err(invalid("tokens", LLVM_TOKENS));
        }
        let loaded = parse_llvm(&file, &r.source)?;
        if files::applies(&r) {
            if let Some(t) = &r.target_source {
                parse_llvm(r.target_file.as_deref().unwrap_or("target.ll"), t)?;
            }
            config.function = Some(llvm_entry(&loaded, r.function.as_deref())?);
            config.reference = Reference::Cfg;
            return files::check(
                &r,
                &file,
                &CheckJob::of(&file, &config),
                budget,
                tools,
                false,
            );
        }
        config.function = Some(llvm_entry(&loaded, r.function.as_deref())?);
        config.reference = Reference::Cfg;
        check_passes(&r.passes)?;
        if r.passes.is_empty() {
            return Err(invalid(
                "passes",
                "nothing to check: the reference of LLVM IR is its own CFG; give at least one pass",
            ));
        }
        let function = config.function.clone().unwrap_or_default();
        // The modules are not files: the plan has no replay lines.
        let plan = crate::pipeline::llvm::plan_builtin_passes(&loaded, &function, &r.passes)
            .map_err(from_error)?;
        let job = CheckJob::of(&file, &config);
        let settings = Settings {
            budget,
            ..Settings::default()
        };
        let report = crate::pipeline::run(plan, &job, &settings, &crate::pipeline::Silent);
        return Ok(crate::report::json::value(&report, &Invocation::default()));
    }
    let kernel = parse_kernel(&file, &r.source)?;
    kernel
        .entry(r.function.as_deref())
        .map_err(|e| ApiError::new(422, "usage", e).field("function"))?;
    if files::applies(&r) {
        if let Some(t) = &r.target_source {
            parse_kernel(r.target_file.as_deref().unwrap_or("target.c"), t)?;
        }
        return files::check(
            &r,
            &file,
            &CheckJob::of(&file, &config),
            budget,
            tools,
            false,
        );
    }
    check_passes(&r.passes)?;
    if config.reference == Reference::Cfg && r.passes.is_empty() {
        return Err(invalid(
            "passes",
            "nothing to check: with \"reference\": \"cfg\" give at least one pass",
        ));
    }
    let job = CheckJob::of(&file, &config);
    let settings = Settings {
        engine: crate::config::Engine::Explicit,
        budget,
        ..Settings::default()
    };
    let plan = crate::pipeline::kernel::plan_kernels(&file, kernel, None, &job, settings.engine)
        .map_err(from_error)?;
    let report = crate::pipeline::run(plan, &job, &settings, &crate::pipeline::Silent);
    Ok(crate::report::json::value(&report, &Invocation::default()))
}
