//! Running an expectations file's cases: a kernel-language case through
//! convcheck's passes (one check per function), an LLVM case through the
//! one check pipeline with `check`'s LLVM options (one report, one result
//! per function), each judged against its expected verdict and stage; and
//! its tables under the key engine.

use super::{normalize, Case, Engine, Expectations, VERDICTS};
use crate::config::{CheckConfig, CheckJob, Reference, DEFAULT_MAX_ITERS};
use crate::engine::Outcome;
use crate::llvm::{Frontend, GpuTarget, LlvmOptions};
use crate::report::{FunctionReport, Report};
use crate::Error;

/// One case's outcome for one function.
pub(super) struct CaseResult {
    /// The file checked, as named from the working folder.
    pub kernel: String,
    /// The function.
    pub function: String,
    /// The case.
    pub case: Case,
    /// The reference the check used (`source`, or `cfg` when it fell back
    /// to clang's own output).
    pub reference: &'static str,
    /// The verdict the check gave.
    pub verdict: String,
    /// The first stage not preserved.
    pub stage: Option<String>,
    /// Whether the verdict (and stage) are those expected; without an
    /// expectation, whether the function is neither violated nor
    /// inconclusive.
    pub ok: bool,
    /// Why not, or what broke it.
    pub detail: String,
    /// The check's JSON report (JSON and SARIF output only).
    pub report: Option<serde_json::Value>,
}

/// A table's outcome at one level: its name, the level, whether it was
/// reproduced, and how it differed.
pub(super) type TableResult = (String, String, bool, String);

/// Runs the cases of one expectations file.
pub(super) struct Runner<'a> {
    /// The expectations file as given (for messages).
    pub name: &'a str,
    /// The folder its kernels are named relative to.
    pub root: &'a std::path::Path,
    /// The file.
    pub file: &'a Expectations,
    /// Whether each result keeps its check's JSON report.
    pub keep_reports: bool,
    /// The external tools every LLVM case runs.
    pub tools: Tools,
}

/// The opt and clang binaries of an expectations file's LLVM cases: the
/// machine's, given on `corpus`'s command line (`--opt-bin`,
/// `--clang-bin`, `--tool-timeout`), never by the file, so that one file
/// runs through any LLVM build.
#[derive(Clone, Debug, Default)]
pub(super) struct Tools {
    /// The `opt` binary (`None`: `check`'s default).
    pub opt_bin: Option<String>,
    /// The clang binary (`None`: `check`'s default).
    pub clang_bin: Option<String>,
    /// Seconds each run may take (0: `check`'s default).
    pub tool_timeout: u64,
}

impl Runner<'_> {
    /// `k` as named from the working folder.
    fn path_of(&self, k: &str) -> String {
        if self.root.as_os_str().is_empty() {
            k.to_string()
        } else {
            normalize(&self.root.join(k))
        }
    }

    /// A usage error about case `c`.
    fn bad(&self, c: &Case, what: String) -> Error {
        Error::usage(format!("{}: case {}: {what}", self.name, c.kernel))
    }

    /// The case's reference semantics.
    fn reference(&self, c: &Case) -> Result<Reference, Error> {
        match c.reference.as_deref() {
            None | Some("source") => Ok(Reference::Source),
            Some("cfg") => Ok(Reference::Cfg),
            Some(r) => Err(self.bad(c, format!("reference `{r}` is not source or cfg"))),
        }
    }

    /// The case's group size and iteration bound.
    fn bounds(&self, c: &Case) -> (u32, u32) {
        (
            c.threads.or(self.file.threads).unwrap_or(0),
            c.max_iters
                .or(self.file.max_iters)
                .unwrap_or(DEFAULT_MAX_ITERS),
        )
    }

    /// Every function's result of case `c`.
    pub(super) fn case(&self, c: &Case) -> Result<Vec<CaseResult>, Error> {
        if !c.verdict.is_empty() && !VERDICTS.contains(&c.verdict.as_str()) {
            return Err(self.bad(
                c,
                format!(
                    "verdict `{}` is not one of {}",
                    c.verdict,
                    VERDICTS.join(", ")
                ),
            ));
        }
        if c.is_llvm() {
            self.llvm_case(c)
        } else {
            self.kernel_case(c)
        }
    }

    /// A kernel-language case: each function checked on its own.
    fn kernel_case(&self, c: &Case) -> Result<Vec<CaseResult>, Error> {
        let path = self.path_of(&c.kernel);
        let kernel = crate::load_kernel(&path)?;
        let target = match &c.target {
            Some(t) => Some(crate::load_kernel(&self.path_of(t))?),
            None => None,
        };
        let functions: Vec<Option<String>> = match c.function.as_deref() {
            Some("*") => kernel
                .functions
                .iter()
                .map(|f| Some(f.name.clone()))
                .collect(),
            other => vec![other.map(str::to_string)],
        };
        let reference = self.reference(c)?;
        let (threads, max_iters) = self.bounds(c);
        let mut out = Vec::new();
        for function in functions {
            let config = CheckConfig {
                function,
                passes: c.passes.clone(),
                tokens: c.tokens,
                reference,
                threads,
                max_iters,
                ..CheckConfig::default()
            };
            let settings = crate::pipeline::with_engine(crate::config::Engine::Explicit);
            let report = crate::pipeline::check_kernels(
                &path,
                kernel.clone(),
                target.clone(),
                &config,
                &settings,
            )?;
            out.push(self.judge(c, &path, &report, &report.functions[0]));
        }
        Ok(out)
    }

    /// The LLVM options of an LLVM case.
    fn llvm_options(&self, c: &Case) -> Result<LlvmOptions, Error> {
        let frontend = match c.frontend.as_deref() {
            None => None,
            Some("clang") => Some(Frontend::Clang),
            Some(f) => return Err(self.bad(c, format!("frontend `{f}` is not clang"))),
        };
        let target = match c.gpu.as_deref() {
            None => None,
            Some(g) => Some(GpuTarget::from_name(g).ok_or_else(|| {
                self.bad(
                    c,
                    format!("gpu `{g}` is not one of nvptx64, amdgcn, spirv64"),
                )
            })?),
        };
        let dims = |d: &Option<String>, key: &str| match d.as_deref() {
            None => Ok(None),
            Some(d) => crate::llvm::launch::parse_dims(d)
                .map(Some)
                .map_err(|e| self.bad(c, format!("{key} {e}"))),
        };
        let warp = match c.warp_size {
            None => None,
            Some(w) => Some(
                crate::llvm::launch::parse_warp(&w.to_string())
                    .map_err(|e| self.bad(c, format!("warp_size {e}")))?,
            ),
        };
        let gpu = convcheck_llvm::to_ir::GpuFacts {
            block: dims(&c.block_dim, "block_dim")?,
            grid: dims(&c.grid_dim, "grid_dim")?,
            warp,
        };
        let defaults = LlvmOptions::default();
        Ok(LlvmOptions {
            gpu,
            opt: c.opt.clone(),
            opt_bin: self.tools.opt_bin.clone(),
            opt_args: c.opt_args.clone(),
            frontend,
            clang_bin: self.tools.clang_bin.clone(),
            clang_args: c.clang_args.clone(),
            target,
            tool_timeout: match self.tools.tool_timeout {
                0 => defaults.tool_timeout,
                t => t,
            },
            ..defaults
        })
    }

    /// An LLVM case: one check of the file (and target) through the
    /// pipeline, one result per function it checked.
    fn llvm_case(&self, c: &Case) -> Result<Vec<CaseResult>, Error> {
        if c.tokens || !c.passes.is_empty() {
            return Err(self.bad(
                c,
                "`passes` and `tokens` are convcheck's own; an LLVM case takes `opt` (a real \
                 opt pipeline)"
                    .into(),
            ));
        }
        let path = self.path_of(&c.kernel);
        let (mut threads, max_iters) = self.bounds(c);
        let llvm = self.llvm_options(c)?;
        if llvm.gpu.block.is_some() {
            threads = crate::llvm::launch::group_size(c.threads.unwrap_or(0), &llvm.gpu)
                .map_err(|e| self.bad(c, e))?;
        }
        let job = CheckJob {
            src: path.clone(),
            tgt: c.target.as_deref().map(|t| self.path_of(t)),
            function: c.function.clone().filter(|f| f != "*"),
            reference: self.reference(c)?,
            threads,
            max_iters,
            ..CheckJob::default()
        };
        let mut settings = crate::pipeline::Settings {
            llvm,
            ..crate::pipeline::Settings::default()
        };
        if let Some(t) = c.timeout.or(self.file.timeout).filter(|t| *t > 0) {
            settings.budget.timeout = Some(std::time::Duration::from_secs(t));
        }
        let report = crate::pipeline::check(&job, &settings, &crate::pipeline::Silent)?;
        Ok(report
            .functions
            .iter()
            .map(|fr| self.judge(c, &path, &report, fr))
            .collect())
    }

    /// The result of function `fr` of `report` against case `c`.
    fn judge(&self, c: &Case, path: &str, report: &Report, fr: &FunctionReport) -> CaseResult {
        let verdict = fr.verdict().as_str().to_string();
        let broken = fr
            .stages
            .iter()
            .find(|s| !matches!(s.outcome, Outcome::Preserved { .. }))
            .map(|s| s.name.clone());
        let nothing = fr.stages.is_empty();
        let (ok, detail) = if nothing {
            (
                false,
                "nothing to check: with reference cfg give at least one pass".to_string(),
            )
        } else if c.verdict.is_empty() {
            (
                verdict != "violated" && verdict != "inconclusive",
                String::new(),
            )
        } else if !verdict_matches(&c.verdict, &verdict) {
            (false, format!("expected {}, got {verdict}", c.verdict))
        } else if !stage_matches(c.stage.as_deref(), broken.as_deref()) {
            (
                false,
                format!(
                    "expected stage {}, got {}",
                    c.stage.as_deref().unwrap_or("-"),
                    broken.as_deref().unwrap_or("none")
                ),
            )
        } else {
            (true, String::new())
        };
        let why = fr.first_broken().and_then(|(_, s)| match &s.outcome {
            Outcome::Inconclusive(w) => Some(w.clone()),
            Outcome::Violated(f) => Some(f.message.clone()),
            _ => None,
        });
        let detail = match (detail.is_empty(), why) {
            (true, Some(w)) if c.verdict.is_empty() => w,
            // Why an LLVM case is inconclusive (an unmodelled intrinsic).
            (true, Some(w)) if c.is_llvm() && verdict == "inconclusive" => w,
            (false, Some(w)) => format!("{detail}: {w}"),
            (_, _) => detail,
        };
        CaseResult {
            kernel: path.to_string(),
            function: fr.function.clone(),
            case: c.clone(),
            reference: match fr.reference {
                Reference::Source => "source",
                Reference::Cfg => "cfg",
            },
            verdict,
            stage: broken,
            ok,
            detail,
            report: self.keep_reports.then(|| report_json(report, fr)),
        }
    }

    /// Every table at each of its levels, under the key engine.
    pub(super) fn tables(&self) -> Result<Vec<TableResult>, Error> {
        let mut out = Vec::new();
        for t in &self.file.table {
            let kernel = crate::load_kernel(&self.path_of(&t.kernel))?;
            for &level in &t.levels {
                let (ok, detail) = match t.compute(&kernel, level, Engine::Keys) {
                    Ok(got) if got == t.expected() => (true, String::new()),
                    Ok(got) => (false, format!("expected {:?}, got {got:?}", t.rows)),
                    Err(e) => (false, e.to_string()),
                };
                out.push((t.name.clone(), level.name().to_string(), ok, detail));
            }
        }
        Ok(out)
    }
}

/// The JSON report of one function: the whole report when it has only
/// that function, else the function's own object.
fn report_json(report: &Report, fr: &FunctionReport) -> serde_json::Value {
    use crate::report::json;
    if report.functions.len() == 1 {
        return json::value(report, &crate::report::Invocation::default());
    }
    serde_json::to_value(json::function_json(report, fr))
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }))
}

/// Whether verdict `got` is the `expected` one; a proof meets the
/// expectation `preserved` (it is the stronger answer).
fn verdict_matches(expected: &str, got: &str) -> bool {
    expected == got || (expected == "preserved" && got == "proved")
}

/// Whether the first stage that broke, `got`, is the one expected: the
/// same name, or, for an opt stage (`SimplifyCFGPass on f (opt-bisect
/// 9)`), the pass's name before ` on `.
fn stage_matches(expected: Option<&str>, got: Option<&str>) -> bool {
    match (expected, got) {
        (None, _) => true,
        (Some(e), Some(g)) => g == e || g.strip_prefix(e).is_some_and(|r| r.starts_with(" on ")),
        (Some(_), None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::stage_matches;

    #[test]
    fn opt_stages_match_by_pass_name() {
        assert!(stage_matches(None, Some("simplifycfg")));
        assert!(stage_matches(Some("simplifycfg"), Some("simplifycfg")));
        assert!(stage_matches(
            Some("SimplifyCFGPass"),
            Some("SimplifyCFGPass on f (opt-bisect 9)")
        ));
        assert!(!stage_matches(
            Some("SimplifyCFG"),
            Some("SimplifyCFGPass on f (opt-bisect 9)")
        ));
        assert!(!stage_matches(Some("clang -O0"), None));
    }
}
