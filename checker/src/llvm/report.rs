//! The reports of `check` on LLVM IR: one function as a kernel check
//! prints it (text, JSON, SARIF), several one after the other with a
//! summary, their JSON under `"functions"`, their SARIF results in one
//! run, and the exit code of the worst verdict.

use super::FunctionCheck;
use crate::check::{render_sarif, CheckReport};
use crate::cli::{CheckArgs, ReportFormat};
use crate::config::{Reference, Verdict};
use crate::engine::{Finding, Outcome as EngineOutcome};
use crate::pass_cmd::shell_quote as q;
use crate::render::{render_json_with, render_text_with, replay_on, KernelReplay, Replay, RunLine};
use crate::Outcome;

/// How the modules of a check on LLVM IR came to be, from the notes of its
/// first stage: the `opt` pipeline, and how the input of `opt` was made
/// when it is not a file of the user's (convcheck's lowering of a kernel,
/// clang's output).
#[derive(Clone, Debug, Default)]
pub(super) struct Origin {
    /// `opt-19 -passes=P -S INPUT`, as the `pipeline:` note gives it.
    pipeline: Option<String>,
    /// The clang command of `--frontend clang` (`... -o -`).
    front_end: Option<String>,
    /// Whether the reference is a kernel lowered by convcheck.
    lowered: bool,
}

impl Origin {
    fn of(reports: &[FunctionCheck]) -> Origin {
        let mut o = Origin::default();
        let notes = reports
            .first()
            .and_then(|r| r.report.stages.first())
            .map(|s| s.notes.as_slice())
            .unwrap_or_default();
        for n in notes {
            if let Some(p) = n.strip_prefix("pipeline: ") {
                o.pipeline = Some(p.to_string());
            } else if let Some(c) = n.strip_prefix("front end: ") {
                o.front_end = Some(c.to_string());
            } else if n.starts_with("input: convcheck lower ") {
                o.lowered = true;
            }
        }
        o
    }
}

/// The replay lines of a check on LLVM IR (docs/src/cli.md, replay lines):
/// `convcheck run` on the `.ll` file of each side; where a side is not a
/// file (clang's output, convcheck's lowering, a module after a pass of
/// `opt`), the commands that write it first, joined with `&&`.
struct LlvmReplay<'a> {
    a: &'a CheckArgs,
    origin: &'a Origin,
}

/// `command` writing `file` (through `to`: `-o` or `>`), followed by `&&`.
fn writes(command: &str, to: &str, file: &str) -> String {
    format!("{command} {to} {} && ", q(file))
}

impl LlvmReplay<'_> {
    /// The commands that write `SRC.ll` when the source is compiled by
    /// clang, or why they cannot be given.
    fn clang_output(&self) -> Result<Option<(String, String)>, String> {
        let Some(cmd) = &self.origin.front_end else {
            return Ok(None);
        };
        if cmd.contains("convcheck_cuda_prelude.h") {
            return Err(
                "clang's command includes the CUDA prelude that convcheck writes to a temporary \
                 folder, so it does not run as printed"
                    .into(),
            );
        }
        let file = format!("{}.ll", self.a.src);
        let base = cmd.strip_suffix(" -o -").unwrap_or(cmd);
        Ok(Some((writes(base, "-o", &file), file)))
    }

    /// The commands that write `opt`'s input, when it is not a file of the
    /// user's, and its name.
    fn opt_input(&self) -> Result<(String, String), String> {
        if let Some(t) = &self.a.tgt {
            if super::is_ll(t) {
                return Ok((String::new(), t.clone()));
            }
            return Err(format!(
                "opt ran on {t} as convcheck lowered it, which is not a file: give the target \
                 as LLVM IR (`convcheck lower {} --emit ll`)",
                q(t)
            ));
        }
        if super::is_ll(&self.a.src) {
            return Ok((String::new(), self.a.src.clone()));
        }
        if let Some(c) = self.clang_output()? {
            return Ok(c);
        }
        let file = format!("{}.ll", self.a.src);
        let tokens = if self.a.tokens { " --tokens" } else { "" };
        let lower = format!("convcheck lower {}{tokens} --emit ll", q(&self.a.src));
        Ok((writes(&lower, ">", &file), file))
    }

    /// The line that runs `file` (after `prefix`) on `f`'s scenario,
    /// keeping the values of the oracles `module` has.
    fn run_line(
        &self,
        prefix: &str,
        how: RunLine,
        report: &CheckReport,
        module: &convcheck_ir::Module,
        f: &Finding,
    ) -> String {
        format!("{prefix}{}", replay_on(&how, &report.function, module, f))
    }

    fn ll(file: &str) -> RunLine {
        RunLine {
            file: file.to_string(),
            flags: Vec::new(),
        }
    }

    fn kernel_cfg(&self, file: &str) -> RunLine {
        let mut flags = vec!["--level".to_string(), "cfg".to_string()];
        if self.a.tokens {
            flags.push("--tokens".into());
        }
        RunLine {
            file: file.to_string(),
            flags,
        }
    }
}

/// The `-opt-bisect-limit` command of an opt stage's `reproduce:` note and
/// its number.
fn reproduce(notes: &[String]) -> Option<(String, u64)> {
    notes.iter().find_map(|n| {
        let cmd = n.strip_prefix("reproduce: ")?;
        let cmd = cmd.split(" (and ").next()?;
        let n = cmd.rsplit("-opt-bisect-limit=").next()?.parse().ok()?;
        Some((cmd.to_string(), n))
    })
}

/// The file a replay writes the module after an opt stage to: the input's
/// name with the stage (`plain_kernels_O0.opt-bisect-501.ll`), in the
/// current folder.
fn stage_file(input: &str, stage: &str) -> String {
    let name = std::path::Path::new(input)
        .file_name()
        .map_or_else(|| input.to_string(), |n| n.to_string_lossy().into_owned());
    let stem = name.strip_suffix(".ll").unwrap_or(&name);
    format!("{stem}.{stage}.ll")
}

impl Replay for LlvmReplay<'_> {
    fn reference(&self, report: &CheckReport, f: &Finding) -> Option<String> {
        if f.tids.is_empty() {
            // A static rule broken: no scenario to replay.
            return None;
        }
        let m = &report.reference_module;
        if report.reference == Reference::Source || !super::is_ll(&report.file) {
            return match self.clang_output() {
                Ok(Some((prefix, file))) if report.reference == Reference::Cfg => {
                    Some(self.run_line(&prefix, Self::ll(&file), report, m, f))
                }
                Ok(_) => KernelReplay.reference(report, f),
                Err(_) => None,
            };
        }
        Some(self.run_line("", Self::ll(&report.file), report, m, f))
    }

    fn target(
        &self,
        report: &CheckReport,
        stage: usize,
        f: &Finding,
    ) -> Result<String, Option<String>> {
        report.stages.get(stage).ok_or(None)?;
        if f.tids.is_empty() {
            return Err(Some(
                "the stage breaks a static rule of convergence control tokens, which LLVM's \
                 verifier rejects: there is no run to replay"
                    .into(),
            ));
        }
        if report.first_broken().map(|(i, _)| i) != Some(stage) {
            return Err(Some(LATER_STAGE.into()));
        }
        self.target_on(report, stage, f, &report.target_module)
    }
}

impl LlvmReplay<'_> {
    /// The replay of stage `stage`'s run of `f`, whose target module is
    /// `m`.
    fn target_on(
        &self,
        report: &CheckReport,
        stage: usize,
        f: &Finding,
        m: &convcheck_ir::Module,
    ) -> Result<String, Option<String>> {
        let s = report.stages.get(stage).ok_or(None)?;
        if self.a.tgt.as_deref() == Some(s.name.as_str()) {
            let how = if super::is_ll(&s.name) {
                Self::ll(&s.name)
            } else {
                self.kernel_cfg(&s.name)
            };
            return Ok(self.run_line("", how, report, m, f));
        }
        if s.name.starts_with("lower") {
            return Ok(self.run_line("", self.kernel_cfg(&self.a.src), report, m, f));
        }
        if s.name == "clang -O0" {
            let (prefix, file) = self.clang_output().map_err(Some)?.ok_or(None)?;
            return Ok(self.run_line(&prefix, Self::ll(&file), report, m, f));
        }
        let (prefix, input) = self.opt_input().map_err(Some)?;
        let (cmd, file) = match (reproduce(&s.notes), &self.origin.pipeline) {
            (Some((cmd, n)), _) => (cmd, stage_file(&input, &format!("opt-bisect-{n}"))),
            (None, Some(p))
                if s.name.starts_with("the pipeline (") || s.name.starts_with("opt ") =>
            {
                (p.clone(), stage_file(&input, "opt"))
            }
            _ => {
                return Err(Some(format!(
                    "opt runs {} whatever -opt-bisect-limit says, so no command stops the \
                     pipeline just after it",
                    super::dumps::pass_class(&s.name)
                )))
            }
        };
        let prefix = format!("{prefix}{}", writes(&cmd, "-o", &file));
        Ok(self.run_line(&prefix, Self::ll(&file), report, m, f))
    }
}

fn worst(reports: &[FunctionCheck]) -> Verdict {
    let vs: Vec<Verdict> = reports.iter().map(FunctionCheck::verdict).collect();
    if vs.contains(&Verdict::Violated) {
        Verdict::Violated
    } else if vs.contains(&Verdict::Inconclusive) {
        Verdict::Inconclusive
    } else if !vs.is_empty() && vs.iter().all(|v| *v == Verdict::Proved) {
        Verdict::Proved
    } else {
        Verdict::Preserved
    }
}

/// The bound line of each stage the symbolic product decided preserved
/// (`super::product`), after a line that says what it covers.
fn product_lines(fc: &FunctionCheck) -> Vec<String> {
    let stages = &fc.report.stages;
    let mut out: Vec<String> = stages
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let p = fc.by_product.get(i)?.as_ref()?;
            Some(crate::symbolic::render::product_bound_line(i, &s.name, p))
        })
        .collect();
    if !out.is_empty() {
        let group = match fc.report.threads {
            0 => "every N >= 2 and every pair of distinct tids".to_string(),
            n => format!("the group N={n} and every pair of distinct tids"),
        };
        out.insert(
            0,
            format!(
                "symbolic product (two symbolic threads in one z3 query): {group}, every 64-bit value \
                 of every oracle and parameter; budgets: time {} s, {} block copies per program, \
                 solver memory {} MiB",
                fc.report.budget.timeout.map_or(0.0, |t| t.as_secs_f64()),
                crate::engine::grouped(crate::symbolic::MAX_COPIES as u64),
                crate::engine::grouped(fc.report.budget.solver_memory_mb)
            ),
        );
    }
    out
}

/// The text of one function's check with its proofs by structure and the
/// stages the symbolic product decided: each such stage says so, its bound
/// line is added to the bounds (which keep the explicit engine's lines only
/// when some stage needed that engine), and the verdict is `proved` when
/// every stage is.
fn text_with_proofs(fc: &FunctionCheck, replays: &dyn Replay) -> String {
    let text = text_of(&fc.report, replays);
    if fc.proved.iter().all(Option::is_none) && fc.by_product.iter().all(Option::is_none) {
        return text;
    }
    let stages = &fc.report.stages;
    let all = (0..stages.len()).all(|i| fc.is_proved(i));
    let mut proofs: Vec<String> = stages
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let proof = fc.proved.get(i)?.as_ref()?;
            Some(proof.line(i, &s.name))
        })
        .collect();
    proofs.extend(product_lines(fc));
    let mut out = String::new();
    let mut in_bounds = false;
    for line in text.lines() {
        if line == "bounds:" {
            in_bounds = true;
            out.push_str("bounds:\n");
            continue;
        }
        if in_bounds {
            if line.starts_with("  ") {
                if !all && fc.explicit_used {
                    out.push_str(line);
                    out.push('\n');
                }
                continue;
            }
            in_bounds = false;
            for p in &proofs {
                out.push_str(&format!("  {p}\n"));
            }
        }
        let head = |i: usize| format!("stage {}: {}: preserved", i + 1, stages[i].name);
        if let Some(i) = (0..stages.len()).find(|&i| fc.is_proved(i) && line.starts_with(&head(i)))
        {
            out.push_str(&format!(
                "stage {}: {}: proved (every iteration count)\n",
                i + 1,
                stages[i].name
            ));
            continue;
        }
        if let Some((i, p)) = (0..stages.len()).find_map(|i| {
            let p = fc.by_product.get(i)?.as_ref()?;
            line.starts_with(&head(i)).then_some((i, p))
        }) {
            out.push_str(&format!(
                "stage {}: {}: preserved (within max-iters={}, symbolic product)\n",
                i + 1,
                stages[i].name,
                p.max_iters
            ));
            continue;
        }
        if all && line == "verdict: preserved" {
            out.push_str("verdict: proved\n");
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The JSON of one function's check with its proofs by structure and the
/// stages the symbolic product decided: a proved stage has the verdict
/// `proved`, no scenario count, and its proof; a product stage has
/// `"engine": "smt"` and its bound; the function's verdict is `proved`
/// when every stage is.
fn json_proofs(fc: &FunctionCheck, v: &mut serde_json::Value) {
    if fc.proved.iter().all(Option::is_none) && fc.by_product.iter().all(Option::is_none) {
        return;
    }
    v["verdict"] = fc.verdict().as_str().into();
    let names: Vec<&String> = fc.report.stages.iter().map(|s| &s.name).collect();
    // The stages that need no bound, next to the bounds of the others.
    let unbounded: Vec<serde_json::Value> = names
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let proof = fc.proved.get(i)?.as_ref()?.json();
            let mut o = serde_json::json!({"stage": name, "proof": proof["kind"].clone()});
            if let (Some(o), Some(p)) = (o.as_object_mut(), proof.as_object()) {
                o.extend(
                    p.iter()
                        .filter(|(k, _)| *k != "kind")
                        .map(|(k, v)| (k.clone(), v.clone())),
                );
            }
            Some(o)
        })
        .collect();
    let symbolic: Vec<serde_json::Value> = names
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let p = fc.by_product.get(i)?.as_ref()?;
            Some(serde_json::json!({
                "stage": name,
                "max_iters": p.max_iters,
                "target_iters": p.target_iters + 1,
                "cut": p.cut,
                "bound": crate::symbolic::render::product_bound_line(i, name, p),
            }))
        })
        .collect();
    if let Some(b) = v.get_mut("bounds").and_then(|b| b.as_object_mut()) {
        if !unbounded.is_empty() {
            b.insert("unbounded".into(), unbounded.into());
        }
        if !symbolic.is_empty() {
            b.insert("symbolic".into(), symbolic.into());
        }
    }
    if let Some(stages) = v.get_mut("stages").and_then(|s| s.as_array_mut()) {
        for (i, s) in stages.iter_mut().enumerate() {
            let Some(o) = s.as_object_mut() else {
                continue;
            };
            if let Some(proof) = fc.proved.get(i).and_then(Option::as_ref) {
                o.insert("verdict".into(), "proved".into());
                o.remove("scenarios");
                o.remove("cut_paths");
                o.insert("proof".into(), proof.json());
            } else if fc.by_product.get(i).is_some_and(Option::is_some) {
                o.remove("scenarios");
                o.remove("cut_paths");
                o.insert("engine".into(), "smt".into());
            }
        }
    }
}

/// The SARIF of one function's check with its proofs by structure (the
/// run's and the stages' verdicts).
fn sarif_of(fc: &FunctionCheck) -> serde_json::Value {
    let mut v = render_sarif(&fc.report);
    if fc.proved.iter().any(Option::is_some) {
        let props = &mut v["runs"][0]["properties"];
        props["verdict"] = fc.verdict().as_str().into();
        if let Some(stages) = props["stages"].as_array_mut() {
            for (i, s) in stages.iter_mut().enumerate() {
                if fc.is_proved(i) {
                    s["verdict"] = "proved".into();
                }
            }
        }
    }
    v
}

/// The text report of one function. A static-rule violation has no
/// scenario, tables or replay line: those lines of the kernel report are
/// left out.
fn text_of(report: &CheckReport, replays: &dyn Replay) -> String {
    let text = render_text_with(report, replays);
    let static_rule = report.first_broken().is_some_and(
        |(_, s)| matches!(&s.outcome, EngineOutcome::Violated(f) if f.tids.is_empty()),
    );
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        if static_rule && line.contains("static rule of convergence control tokens broken") {
            // The rule and its line; no scenario, tables or replay.
            out.push_str(line);
            out.push('\n');
            skipping = true;
            continue;
        }
        if skipping {
            if line.is_empty() {
                skipping = false;
            } else {
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// No replay lines: the explorer's checks of LLVM IR, whose modules are
/// not files.
struct NoReplay;

impl Replay for NoReplay {
    fn reference(&self, _: &CheckReport, _: &Finding) -> Option<String> {
        None
    }

    fn target(&self, _: &CheckReport, _: usize, _: &Finding) -> Result<String, Option<String>> {
        Err(None)
    }
}

/// The JSON report of one function as the explorer answers it, without
/// replay lines (its modules are not files).
pub(super) fn json_of(report: &CheckReport) -> serde_json::Value {
    render_json_with(report, &NoReplay)
}

/// Why a violated stage after the first has no target table when its
/// module was not kept (a stage of the explorer's checks).
const LATER_STAGE: &str = "the report keeps the module of the first violated stage only";

/// The target table of stage `f`'s run on `module` (a violated stage after
/// the first: each module after a pass of `opt` is read anew, with op
/// numbers of its own, so its table is built from its own module).
fn stage_table(
    report: &CheckReport,
    module: &convcheck_ir::Module,
    f: &Finding,
) -> Option<serde_json::Value> {
    let view = CheckReport {
        file: report.file.clone(),
        function: report.function.clone(),
        reference: report.reference,
        bounds: report.bounds,
        threads: report.threads,
        stages: Vec::new(),
        reference_module: report.reference_module.clone(),
        target_module: module.clone(),
        paths: report.paths,
        coverage: report.coverage.clone(),
        budget: report.budget,
        target_file: report.target_file.clone(),
    };
    crate::render::tables(&view, f)
        .ok()
        .map(|(_, t)| t.to_json())
}

/// The JSON report of one function on the command line, with its replay
/// lines. A violated stage after the first gets its target table and its
/// replay from its own module.
fn json_with(fc: &FunctionCheck, replays: &LlvmReplay) -> serde_json::Value {
    let report = &fc.report;
    let mut v = render_json_with(report, replays);
    json_proofs(fc, &mut v);
    let first = report.first_broken().map(|(i, _)| i);
    if let Some(stages) = v.get_mut("stages").and_then(|s| s.as_array_mut()) {
        for (i, s) in stages.iter_mut().enumerate() {
            if Some(i) == first {
                continue;
            }
            let Some(c) = s.get_mut("counterexample").and_then(|c| c.as_object_mut()) else {
                continue;
            };
            let finding = match report.stages.get(i).map(|st| &st.outcome) {
                // A static rule broken: no run, no table.
                Some(EngineOutcome::Violated(f)) if f.tids.is_empty() => continue,
                Some(EngineOutcome::Violated(f)) => Some(f),
                _ => None,
            };
            let table = match (finding, fc.modules.get(i)) {
                (Some(f), Some(m)) => {
                    stage_table(report, m, f).map(|t| (t, replays.target_on(report, i, f, m).ok()))
                }
                _ => None,
            };
            match table {
                Some((t, replay)) => {
                    c.insert("target_table".into(), t);
                    c.insert("replay_target".into(), replay.into());
                }
                None => {
                    c.insert("target_table".into(), serde_json::Value::Null);
                    c.insert("target_table_unavailable".into(), LATER_STAGE.into());
                }
            }
        }
    }
    v
}

pub(super) fn render(a: &CheckArgs, reports: &[FunctionCheck], only_one: &[String]) -> Outcome {
    let verdict = worst(reports);
    let origin = Origin::of(reports);
    let replays = LlvmReplay { a, origin: &origin };
    let stdout = if let [one] = reports {
        let mut s = match a.format {
            ReportFormat::Text => text_with_proofs(one, &replays),
            ReportFormat::Json => format!("{}\n", json_with(one, &replays)),
            ReportFormat::Sarif => format!("{}\n", sarif_of(one)),
        };
        if a.format == ReportFormat::Text && !only_one.is_empty() {
            s.push_str(&format!(
                "not compared (defined on one side only): {}\n",
                only_one
                    .iter()
                    .map(|n| format!("@{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        s
    } else {
        match a.format {
            ReportFormat::Text => {
                let mut s = String::new();
                for r in reports {
                    s.push_str(&text_with_proofs(r, &replays));
                    s.push('\n');
                }
                s.push_str(&format!("functions: {}\n", reports.len()));
                for r in reports {
                    let at = r
                        .report
                        .first_broken()
                        .map(|(i, st)| format!(" (first at stage {}: {})", i + 1, st.name))
                        .unwrap_or_default();
                    s.push_str(&format!("  @{}: {}{at}\n", r.report.function, r.verdict()));
                }
                if !only_one.is_empty() {
                    s.push_str(&format!(
                        "not compared (defined on one side only): {}\n",
                        only_one
                            .iter()
                            .map(|n| format!("@{n}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                s.push_str(&format!("verdict: {verdict}\n"));
                s
            }
            ReportFormat::Json => {
                let v = serde_json::json!({
                    "verdict": verdict.as_str(),
                    "file": a.src,
                    "functions": reports.iter().map(|r| json_with(r, &replays)).collect::<Vec<_>>(),
                    "not_compared": only_one,
                });
                format!("{v}\n")
            }
            ReportFormat::Sarif => {
                let mut all = sarif_of(&reports[0]);
                let mut results = Vec::new();
                let mut props = Vec::new();
                for r in reports {
                    let s = sarif_of(r);
                    if let Some(rs) = s["runs"][0]["results"].as_array() {
                        results.extend(rs.iter().cloned());
                    }
                    props.push(serde_json::json!({
                        "function": r.report.function,
                        "verdict": r.verdict().as_str(),
                        "stages": s["runs"][0]["properties"]["stages"].clone(),
                    }));
                }
                all["runs"][0]["results"] = serde_json::Value::Array(results);
                all["runs"][0]["properties"]["verdict"] = verdict.as_str().into();
                all["runs"][0]["properties"]["functions"] = serde_json::Value::Array(props);
                format!("{all}\n")
            }
        }
    };
    Outcome {
        stdout,
        stderr: String::new(),
        code: verdict.exit_code(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduce_notes_give_the_command_and_the_number() {
        let notes = vec![
            "pipeline: opt-19 -passes=gvn -S a.ll".to_string(),
            "reproduce: opt-19 -passes='default<O2>' -S 'my file.ll' -opt-bisect-limit=97 (and 96 \
             for the module before it)"
                .to_string(),
        ];
        assert_eq!(
            reproduce(&notes),
            Some((
                "opt-19 -passes='default<O2>' -S 'my file.ll' -opt-bisect-limit=97".to_string(),
                97
            ))
        );
        assert_eq!(reproduce(&notes[..1]), None);
    }

    #[test]
    fn stage_files_are_named_after_the_input_in_the_current_folder() {
        assert_eq!(
            stage_file("model/llvm/tests/data/plain_kernels_O0.ll", "opt-bisect-2"),
            "plain_kernels_O0.opt-bisect-2.ll"
        );
        assert_eq!(stage_file("k.c.ll", "opt"), "k.c.opt.ll");
        assert_eq!(writes("a b", "-o", "x y.ll"), "a b -o 'x y.ll' && ");
    }
}
