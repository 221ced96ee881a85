//! `convcheck fuzz --opt PIPELINE`: generated kernels through clang and a
//! real `opt` pipeline, and back.
//!
//! Program `i` is generated as for `--pass` ([`super::program_seed`], the
//! generator configuration of [`super::generator_config`], which leaves
//! out `[[clang::noconvergent]]` for `--opt`), written as plain C
//! ([`super::to_c`]), compiled by clang at `-O0` (the front end of `check
//! --frontend clang`), run through `opt -passes=PIPELINE`, read back and
//! checked by the one check pipeline (`check FILE.c --frontend clang --opt
//! PIPELINE --reference cfg --engine explicit`): clang's output is the reference and
//! each pass that changed a function a stage, so the pipeline is what is
//! under test, as the pass is for `--pass` (the front end is not). A
//! violation names the first pass that broke the property with its
//! `-opt-bisect-limit` number, and is minimized while clang and opt still
//! give the same property broken by the same pass (`SimplifyCFGPass`).
//!
//! clang or opt failing (a crash, a rejected program, a time-out) or
//! printing what convcheck cannot read is a *tool failure*: counted, never
//! a verdict; a run with some is `inconclusive` (exit 3), one where every
//! program failed an `error` (exit 2). A function outside the model makes
//! its program inconclusive, with the construct named.
//!
//! With `--out DIR` every violation, inconclusive program and tool failure
//! `i` is written as `KIND-i.c` (the C program, minimized for a
//! violation), `KIND-i.ll` (clang's `-O0` output for it), `KIND-i.opt.ll`
//! (opt's output), and `KIND-i.txt` / `.json`: the report of `convcheck
//! check KIND-i.c --frontend clang --opt PIPELINE --reference cfg ...`
//! (which is run to make it, so the written command is known to reproduce
//! it) with the clang, opt and re-check command lines.
//!
//! Timings: wall time is split between clang, opt, convcheck's checking
//! (reading the modules, comparing) and the rest (generating, translating,
//! writing the cases, whose reports come from running the re-check
//! command); they appear only in the text summary's last line and under
//! `stats` in JSON, so the rest of the output is the same for the same
//! arguments.

use super::campaign::{Candidate, Examined, Found, Target};
use super::to_c::to_c;
use super::{statements, FuzzArgs, GROUP};
use crate::config::{CheckJob, Engine, Reference, Verdict};
use crate::engine::Outcome;
use crate::llvm::{dumps, frontend, tools, LlvmOptions};
use crate::pass_cmd::shell_quote;
use crate::pipeline::Settings;
use crate::report::Report;
use crate::{Error, ErrorKind};
use convcheck_lang::syntax::ast::File;
use convcheck_lang::syntax::print;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// The tools of a run.
pub(super) struct Tools {
    /// The clang binary.
    pub clang: String,
    /// The opt binary.
    pub opt: String,
    /// The `-passes=` pipeline.
    pub pipeline: String,
    /// Arguments for opt after convcheck's own (`--opt-arg`).
    pub opt_args: Vec<String>,
    /// Seconds each run may take.
    pub timeout: Duration,
}

/// Where the time went.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Times {
    /// In clang.
    pub clang: Duration,
    /// In opt.
    pub opt: Duration,
    /// In convcheck's reading of the modules and comparing.
    pub check: Duration,
}

/// The binary given with `flag`, or the first of `candidates` that runs.
pub(super) fn binary(
    given: &Option<String>,
    flag: &str,
    candidates: &[&str],
) -> Result<String, String> {
    match given {
        Some(b) if tools::available(b) => Ok(b.clone()),
        Some(b) => Err(format!(
            "{flag} {b}: cannot run `{b} --version`; name an LLVM 19 binary or leave {flag} out"
        )),
        None => tools::find(candidates, "for fuzz --opt"),
    }
}

/// Runs the pipeline once on an empty module, so that a pipeline opt
/// does not know is a usage error before any program.
pub(super) fn validate_pipeline(t: &Tools, dir: &Path) -> Result<(), String> {
    let input = dir.join("empty.ll");
    let output = dir.join("empty.opt.ll");
    std::fs::write(&input, "").map_err(|e| format!("{}: {e}", input.display()))?;
    let mut args = vec![format!("-passes={}", t.pipeline), "-S".into()];
    args.extend(t.opt_args.iter().cloned());
    args.extend([
        input.display().to_string(),
        "-o".into(),
        output.display().to_string(),
    ]);
    tools::run(&t.opt, &args, &output, t.timeout)
        .map(|_| ())
        .map_err(|e| format!("--opt {}: {}", t.pipeline, scrub(&e, dir).trim_end()))
}

/// Removes temporary folders from a tool's message, so that reports do
/// not depend on their random names: `dir` (the run's folder) and the
/// folders the tool runners make (`.../.tmpXXXX/`).
pub(super) fn scrub(message: &str, dir: &Path) -> String {
    let mut m = message.replace(&format!("{}/", dir.display()), "");
    let tmp = format!("{}/.tmp", std::env::temp_dir().display());
    while let Some(k) = m.find(&tmp) {
        let rest = &m[k + tmp.len()..];
        let end = rest.find('/').map_or(rest.len(), |e| e + 1);
        m.replace_range(k..k + tmp.len() + end, "");
    }
    m
}

/// The target of `fuzz --opt`.
pub(super) struct OptTarget<'a> {
    pub a: &'a FuzzArgs,
    pub tools: Tools,
    /// The run's scratch folder.
    pub dir: &'a Path,
    /// Where cases are written (`--out`, else the scratch folder).
    pub case_dir: &'a Path,
    /// Where the time went.
    pub times: Times,
}

impl OptTarget<'_> {
    /// The check of the C file `c_path`, as `check C --frontend clang --opt
    /// PIPELINE --reference cfg` runs it, with `engine`.
    fn job(&self, c_path: &str) -> (CheckJob, Settings) {
        let a = self.a;
        let job = CheckJob {
            src: c_path.to_string(),
            reference: Reference::Cfg,
            threads: GROUP,
            max_iters: a.max_iters,
            max_paths: a.max_paths,
            ..CheckJob::default()
        };
        let settings = Settings {
            llvm: LlvmOptions {
                opt: Some(self.tools.pipeline.clone()),
                opt_bin: Some(self.tools.opt.clone()),
                opt_args: self.tools.opt_args.clone(),
                frontend: Some(frontend::Frontend::Clang),
                clang_bin: Some(self.tools.clang.clone()),
                tool_timeout: self.tools.timeout.as_secs().max(1),
                ..LlvmOptions::default()
            },
            ..Settings::default()
        };
        (job, settings)
    }

    /// Compiles, optimizes and checks the C text (written as
    /// `dir/kernel.c`) with the explicit engine.
    fn run(&mut self, c_text: &str) -> Result<Report, Error> {
        let c_path = self.dir.join("kernel.c");
        std::fs::write(&c_path, c_text)
            .map_err(|e| Error::io(format!("{}: {e}", c_path.display())))?;
        let (job, mut settings) = self.job(&c_path.display().to_string());
        settings.engine = Engine::Explicit;
        let start = Instant::now();
        let plan = crate::pipeline::llvm::plan(&job, &settings);
        let (clang, opt) = plan.as_ref().map_or((Duration::ZERO, Duration::ZERO), |p| {
            (p.tool_times.clang, p.tool_times.opt)
        });
        let report = plan.map(|p| {
            crate::pipeline::run(p.search_only(), &job, &settings, &crate::pipeline::Silent)
        });
        self.times.clang += clang;
        self.times.opt += opt;
        // The checking time is what was not spent in the tools.
        self.times.check += start.elapsed().saturating_sub(clang + opt);
        report
    }
}

/// What a report of `fuzz --opt` says: the first violated function's
/// property, the stage that broke it and the pass class; else the first
/// inconclusive stage.
fn examined_of(report: &Report) -> Examined {
    if report.verdict() == Verdict::Violated {
        for fr in &report.functions {
            if let Some((_, s)) = fr.first_broken() {
                if let Some(f) = s.finding() {
                    return Examined::Violated {
                        property: f.property,
                        class: Some(dumps::pass_class(&s.name).to_string()),
                        what: format!(
                            "{} in @{}, first broken by {}",
                            f.property.name(),
                            fr.function,
                            s.name
                        ),
                    };
                }
            }
        }
    }
    for fr in &report.functions {
        for s in &fr.stages {
            if let Outcome::Inconclusive(w) = &s.outcome {
                return Examined::Inconclusive(one_line(&format!(
                    "@{}, {}: {w}",
                    fr.function, s.name
                )));
            }
        }
    }
    Examined::Preserved
}

/// A message on one line (for the C file's header comment and the
/// summary).
fn one_line(w: &str) -> String {
    w.lines().map(str::trim).collect::<Vec<_>>().join(" / ")
}

impl Target for OptTarget<'_> {
    fn examine(&mut self, _: &Candidate, file: &File) -> Examined {
        match self.run(&to_c(file)) {
            Ok(r) => examined_of(&r),
            Err(e) if matches!(e.kind(), ErrorKind::Tool | ErrorKind::Io | ErrorKind::Usage) => {
                Examined::Failed(one_line(&scrub(e.message(), self.dir)))
            }
            Err(e) => Examined::Inconclusive(one_line(&scrub(e.message(), self.dir))),
        }
    }

    fn case(&mut self, c: &Candidate, small: &File, first: &Examined) -> Found {
        let kind = first.kind().unwrap_or("preserved");
        let what = first.what();
        let pipeline = self.tools.pipeline.clone();
        let header = match (c.seed, &c.input) {
            (Some(s), _) => format!(
                "// convcheck fuzz --opt {}: program {} (seed {s}): {kind}: {what}; {} statements{}.\n",
                shell_quote(&pipeline),
                c.index,
                statements(small),
                if kind == "violation" {
                    format!(", minimized from {}", statements(&c.file))
                } else {
                    String::new()
                }
            ),
            (None, input) => format!(
                "// convcheck fuzz --opt {}: {}: {kind}: {what}.\n",
                shell_quote(&pipeline),
                input.as_ref().map(|(p, _)| p.as_str()).unwrap_or("")
            ),
        };
        let mut text = header;
        text.push_str(
            "// Plain C written from the kernel-language program below \
             (docs/src/fuzzing.md, `fuzz --opt`):\n",
        );
        for l in print(small).lines() {
            let _ = writeln!(text, "//   {l}");
        }
        text.push_str(&to_c(small));
        self.write_case(
            (kind, c.index, c.seed),
            text,
            what,
            (statements(&c.file), statements(small)),
        )
    }

    fn name(&self) -> String {
        format!("opt -passes={}", self.tools.pipeline)
    }
}

impl OptTarget<'_> {
    /// Writes case `index` (its C text) as `KIND-index.c` in the case
    /// folder, with clang's output, opt's output and the reports of the
    /// re-check command.
    fn write_case(
        &self,
        (kind, index, seed): (&'static str, u64, Option<u64>),
        text: String,
        what: String,
        (before, after): (usize, usize),
    ) -> Found {
        let (a, t) = (self.a, &self.tools);
        let base = format!("{}/{kind}-{index}", self.case_dir.display());
        let c_path = format!("{base}.c");
        let ll_path = format!("{base}.ll");
        let opt_path = format!("{base}.opt.ll");
        let shown = |s: &str| scrub(s, self.dir);
        let words = |bin: &str, args: &[String]| {
            std::iter::once(bin.to_string())
                .chain(args.iter().cloned())
                .map(|w| tools::shell_word(&w))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut clang_args = frontend::clang_args(&c_path, None);
        clang_args.extend(["-o".to_string(), ll_path.clone()]);
        let mut opt_args = vec![format!("-passes={}", t.pipeline), "-S".into()];
        opt_args.extend(t.opt_args.iter().cloned());
        opt_args.extend([ll_path.clone(), "-o".into(), opt_path.clone()]);
        let clang_command = shown(&words(&t.clang, &clang_args));
        let opt_command = shown(&words(&t.opt, &opt_args));
        let mut recheck = format!(
        "convcheck check {} --frontend clang --opt {} --reference cfg --threads {GROUP} --max-iters {} --max-paths {}",
        shell_quote(&shown(&c_path)),
        shell_quote(&t.pipeline),
        a.max_iters,
        a.max_paths
    );
        if let Some(b) = &a.opt_bin {
            let _ = write!(recheck, " --opt-bin {}", shell_quote(b));
        }
        if let Some(b) = &a.clang_bin {
            let _ = write!(recheck, " --clang-bin {}", shell_quote(b));
        }
        for o in &a.opt_args {
            let _ = write!(recheck, " {}", shell_quote(&format!("--opt-arg={o}")));
        }
        if a.tool_timeout != 60 {
            let _ = write!(recheck, " --tool-timeout {}", a.tool_timeout);
        }
        let mut notes = Vec::new();
        if let Err(e) = std::fs::write(&c_path, &text) {
            notes.push(format!("cannot write {c_path}: {e}"));
        }
        // The written files: clang's output and opt's, by the commands shown.
        if a.out.is_some() {
            let ran = run_for_case(&t.clang, &clang_args, Path::new(&ll_path), t.timeout)
                .and_then(|_| run_for_case(&t.opt, &opt_args, Path::new(&opt_path), t.timeout));
            if let Err(e) = ran {
                notes.push(format!("writing the LLVM IR: {}", shown(&e)));
            }
        }
        // The report is that of the re-check command itself.
        let job = CheckJob {
            src: c_path.clone(),
            reference: Reference::Cfg,
            threads: GROUP,
            max_iters: a.max_iters,
            max_paths: a.max_paths,
            ..CheckJob::default()
        };
        let settings = Settings {
            llvm: LlvmOptions {
                opt: Some(t.pipeline.clone()),
                opt_bin: a.opt_bin.clone(),
                opt_args: a.opt_args.clone(),
                frontend: Some(frontend::Frontend::Clang),
                clang_bin: a.clang_bin.clone(),
                tool_timeout: a.tool_timeout,
                ..LlvmOptions::default()
            },
            ..Settings::default()
        };
        let checked = crate::pipeline::check(&job, &settings, &crate::pipeline::Silent);
        let (verdict, mut report_text, report_json) = match &checked {
            Ok(r) => (
                r.verdict().as_str(),
                shown(&crate::report::text::render(r)),
                serde_json::from_str::<serde_json::Value>(&shown(&crate::report::json::render(
                    r,
                    &crate::report::Invocation::default(),
                )))
                .unwrap_or_default(),
            ),
            Err(e) => (
                "error",
                format!("error: {}\n", shown(&e.to_string())),
                json!({"verdict": "error", "reason": shown(&e.to_string())}),
            ),
        };
        let expected = match kind {
            "violation" => "violated",
            "inconclusive" => "inconclusive",
            _ => "error",
        };
        if verdict != expected {
            notes.push(format!(
                "the re-check command answers {verdict} where the fuzz run's check gave {kind}"
            ));
        }
        for n in &notes {
            let _ = writeln!(report_text, "note: {n}");
        }
        let _ = writeln!(report_text, "clang: {clang_command}");
        let _ = writeln!(report_text, "opt: {opt_command}");
        let _ = writeln!(report_text, "re-check: {recheck}");

        Found {
            kind,
            index,
            seed,
            what,
            statements_before: before,
            statements_after: after,
            text,
            file: shown(&c_path),
            report_text,
            report_json,
            recheck,
            commands: vec![
                ("clang_command", clang_command),
                ("opt_command", opt_command),
            ],
            notes,
            exchanged: None,
            key: None,
        }
    }
}

/// Runs `bin args` for a written case, keeping its output file.
fn run_for_case(
    bin: &str,
    args: &[String],
    out: &Path,
    timeout: Duration,
) -> Result<String, String> {
    tools::run(bin, args, out, timeout).map(|r| r.stdout)
}
