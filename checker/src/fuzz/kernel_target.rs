//! The targets of `fuzz --pass P` and `fuzz --pass-cmd CMD`: each program
//! is a kernel, checked against a built-in pass (the CFG as reference: the
//! pass is what is under test, not the lowering) or against what an
//! external command printed for it (`crate::pass_cmd`, in the exchange
//! format of `--exchange`).

use super::campaign::{Candidate, Examined, Found, Target};
use super::{statements, FuzzArgs, GROUP};
use crate::config::{CheckConfig, CheckJob, Engine, Reference, Verdict};
use crate::engine::{check_pass_against_cfg, Allowance, Limits, Outcome};
use crate::pass_cmd::{run_command, shell_quote, Exchange};
use crate::pipeline::{
    search_kernels, with_engine, Code, Entry, FunctionPlan, Plan, Policy, StagePlan,
    Target as Stage,
};
use crate::report::{Invocation, Replay, Report};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Bounds;
use convcheck_ir::Module;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::File;
use convcheck_lang::syntax::print;
use convcheck_transforms::Pass;
use serde_json::json;
use std::fmt::Write;
use std::rc::Rc;
use std::time::Duration;

/// What the programs go through.
pub(super) enum Transform {
    /// A built-in pass.
    Pass(Box<dyn Pass>),
    /// An external command.
    Command {
        cmd: String,
        timeout: Duration,
        exchange: Exchange,
    },
}

/// A kernel-level target.
pub(super) struct KernelTarget<'a> {
    pub transform: Transform,
    pub a: &'a FuzzArgs,
    /// What the external command was given and printed on the last
    /// examination (a failed command is not run again for its case).
    last_exchanged: Option<(String, String)>,
}

/// One program's check, with its report when it was asked for.
struct Full {
    result: Examined,
    report: Option<Report>,
    exchanged: Option<(String, String)>,
}

impl Full {
    fn just(result: Examined) -> Full {
        Full {
            result,
            report: None,
            exchanged: None,
        }
    }
}

fn limits(a: &FuzzArgs) -> Limits {
    Limits {
        bounds: Bounds {
            max_iters: a.max_iters,
            max_paths: a.max_paths,
            fuel: CheckConfig::default().fuel,
            ..Bounds::default()
        },
        group: GROUP,
    }
}

fn check_config(a: &FuzzArgs, reference: Reference, passes: Vec<String>) -> CheckConfig {
    CheckConfig {
        passes,
        reference,
        threads: GROUP,
        max_iters: a.max_iters,
        max_paths: a.max_paths,
        ..CheckConfig::default()
    }
}

/// What a report says of one program.
fn examined_of(report: &Report) -> Examined {
    let stages = || report.functions.iter().flat_map(|f| f.stages.iter());
    match report.verdict() {
        Verdict::Violated => {
            let property = stages()
                .find_map(|s| s.finding().map(|f| f.property))
                .unwrap_or(crate::engine::Property::Convergence);
            violated(property)
        }
        Verdict::Inconclusive => Examined::Inconclusive(stable(
            &stages()
                .find_map(|s| match &s.outcome {
                    Outcome::Inconclusive(w) => Some(w.clone()),
                    _ => None,
                })
                .unwrap_or_default(),
        )),
        Verdict::Preserved | Verdict::Proved => Examined::Preserved,
    }
}

fn violated(property: crate::engine::Property) -> Examined {
    Examined::Violated {
        property,
        class: None,
        what: property.name().to_string(),
    }
}

impl<'a> KernelTarget<'a> {
    pub(super) fn new(transform: Transform, a: &'a FuzzArgs) -> KernelTarget<'a> {
        KernelTarget {
            transform,
            a,
            last_exchanged: None,
        }
    }

    /// The name a case is written under, so that the report's replay and
    /// re-check lines name the file; with `--out` an input file is copied
    /// there too, next to what the command printed.
    fn name_for(&self, c: &Candidate, kind: &str) -> String {
        match (&self.a.out, &c.input) {
            (Some(dir), _) => format!("{dir}/{kind}-{}.c", c.index),
            (None, Some((path, _))) => path.clone(),
            (None, None) => format!("{kind}-{}.c", c.index),
        }
    }

    /// Checks the kernel `text`, named `name` (the file it is or will be
    /// written to). With `full`, the result comes from a full check report
    /// (the one written out); without, a built-in pass takes the engine's
    /// quicker path (used while counting and minimizing).
    fn examine_text(&self, text: &str, name: &str, full: bool) -> Full {
        let kernel = match Kernel::parse(name, text) {
            Ok(k) => k,
            Err(d) => {
                return Full::just(Examined::Inconclusive(stable(&format!(
                    "the kernel does not analyse: {d}"
                ))))
            }
        };
        let entry = match kernel.entry(None) {
            Ok(e) => e,
            Err(e) => {
                return Full::just(Examined::Inconclusive(stable(&format!(
                    "no single kernel entry: {e}"
                ))))
            }
        };
        let a = self.a;
        match &self.transform {
            Transform::Pass(pass) if !full => {
                let module = lower(&kernel, false);
                Full::just(
                    match check_pass_against_cfg(&module, entry, pass.as_ref(), limits(a)) {
                        Outcome::Preserved { .. } => Examined::Preserved,
                        Outcome::Violated(f) => violated(f.property),
                        Outcome::Inconclusive(w) => Examined::Inconclusive(stable(&w)),
                    },
                )
            }
            Transform::Pass(pass) => {
                let config = check_config(a, Reference::Cfg, vec![pass.name()]);
                let settings = with_engine(Engine::Explicit);
                match search_kernels(name, kernel, None, &config, &settings) {
                    Ok(r) => Full {
                        result: examined_of(&r),
                        report: Some(r),
                        exchanged: None,
                    },
                    Err(e) => Full::just(Examined::Inconclusive(stable(&e.to_string()))),
                }
            }
            Transform::Command {
                cmd,
                timeout,
                exchange,
            } => self.through_command(kernel, entry, text, name, (cmd, *timeout, *exchange)),
        }
    }

    /// The kernel through the external command, and the check of what it
    /// printed.
    fn through_command(
        &self,
        kernel: Kernel,
        entry: convcheck_ir::FuncId,
        text: &str,
        name: &str,
        (cmd, timeout, exchange): (&str, Duration, Exchange),
    ) -> Full {
        let a = self.a;
        let function = kernel.functions[entry].name.clone();
        let lowered = lower(&kernel, false);
        let input = match exchange {
            Exchange::Kernel => text.to_string(),
            x => x.write_module(&lowered),
        };
        let out_name = format!(
            "{}.out.{}",
            name.trim_end_matches(".c"),
            exchange.extension()
        );
        let output = match run_command(cmd, &input, exchange.extension(), timeout) {
            Ok(o) => o,
            Err(e) => return Full::just(Examined::Failed(stable(&e))),
        };
        let report = match exchange {
            Exchange::Kernel => match Kernel::parse(&out_name, &output) {
                Err(d) => Err(Examined::Failed(stable(&format!("unreadable output: {d}")))),
                Ok(target) => {
                    let config = check_config(a, Reference::Source, Vec::new());
                    let settings = with_engine(Engine::Explicit);
                    match search_kernels(name, kernel, Some(target), &config, &settings) {
                        Ok(mut r) => {
                            r.target_file = Some(out_name.clone());
                            r.replay = Replay::Kernel {
                                file: name.to_string(),
                                target_file: Some(out_name),
                            };
                            Ok(r)
                        }
                        Err(e) => Err(Examined::Failed(stable(&format!("the output: {e}")))),
                    }
                }
            },
            x => match x.read_module(&out_name, &output, &function) {
                Err(e) if e.starts_with("unsupported") => {
                    Err(Examined::Inconclusive(stable(&format!("the output {e}"))))
                }
                Err(e) => Err(Examined::Failed(stable(&format!("unreadable output: {e}")))),
                Ok(target) => module_report(name, &function, lowered, entry, target, a),
            },
        };
        match report {
            Ok(r) => Full {
                result: examined_of(&r),
                report: Some(r),
                exchanged: Some((input, output)),
            },
            Err(result) => Full {
                result,
                report: None,
                exchanged: Some((input, output)),
            },
        }
    }

    /// The command that re-checks the kernel written as `file`.
    fn recheck(&self, file: &str) -> String {
        let a = self.a;
        let bounds = format!("--max-iters {} --max-paths {}", a.max_iters, a.max_paths);
        match &self.transform {
            Transform::Pass(p) => format!(
                "convcheck check {} --pass {} --reference cfg --threads {GROUP} {bounds}",
                shell_quote(file),
                shell_quote(&p.name())
            ),
            Transform::Command {
                cmd,
                timeout,
                exchange,
            } => format!(
                "convcheck fuzz --pass-cmd {} --exchange {} --cmd-timeout {} {bounds} --input {}",
                shell_quote(cmd),
                exchange.name(),
                timeout.as_secs(),
                shell_quote(file)
            ),
        }
    }

    /// The program's text as checked: a generated program printed, an
    /// input as written.
    fn text_of(c: &Candidate, file: &File) -> String {
        match &c.input {
            Some((_, text)) if c.seed.is_none() => text.clone(),
            _ => print(file),
        }
    }
}

impl Target for KernelTarget<'_> {
    fn examine(&mut self, c: &Candidate, file: &File) -> Examined {
        let name = self.name_for(c, "violation");
        let full = self.examine_text(&Self::text_of(c, file), &name, false);
        self.last_exchanged = full.exchanged;
        full.result
    }

    fn case(&mut self, c: &Candidate, small: &File, first: &Examined) -> Found {
        let kind = first.kind().unwrap_or("preserved");
        let name = self.name_for(c, kind);
        let text = match c.seed {
            Some(seed) => format!(
                "// convcheck fuzz: program {} (seed {seed}): {kind}; {} statements{}.\n{}",
                c.index,
                statements(small),
                if kind == "violation" {
                    format!(", minimized from {}", statements(&c.file))
                } else {
                    String::new()
                },
                print(small)
            ),
            None => Self::text_of(c, &c.file),
        };
        // The report is made on the very text that is written out; a
        // command that failed is not run again (it may have taken its
        // whole timeout).
        let full = if kind == "failure" {
            Full {
                result: first.clone(),
                report: None,
                exchanged: self.last_exchanged.take(),
            }
        } else {
            self.examine_text(&text, &name, true)
        };
        let recheck = self.recheck(&name);
        let (mut report_text, report_json) = match &full.report {
            Some(r) => (
                crate::report::text::render(r),
                crate::report::json::value(r, &Invocation::default()),
            ),
            None => {
                let why = match &full.result {
                    Examined::Failed(w) => format!("command failure: {w}"),
                    Examined::Inconclusive(w) => format!("inconclusive: {w}"),
                    _ => "no report".into(),
                };
                (
                    format!("{why}\n"),
                    json!({"verdict": "error", "reason": why}),
                )
            }
        };
        let _ = writeln!(report_text, "re-check: {recheck}");
        let generated = c.seed.is_some();
        Found {
            kind,
            index: c.index,
            seed: c.seed,
            what: first.what(),
            statements_before: if generated { statements(&c.file) } else { 0 },
            statements_after: if generated { statements(small) } else { 0 },
            text,
            file: name,
            report_text,
            report_json,
            recheck,
            commands: Vec::new(),
            notes: Vec::new(),
            exchanged: full.exchanged,
            key: None,
        }
    }

    fn name(&self) -> String {
        match &self.transform {
            Transform::Pass(p) => p.name(),
            Transform::Command { cmd, .. } => format!("command `{cmd}`"),
        }
    }
}

/// The check report of an IR-level exchange: the lowered `reference`
/// against the command's `target`, as `check --reference cfg` would
/// compare them (the explicit engine; an irreducible reference under any of
/// its cycle hierarchies).
fn module_report(
    file: &str,
    function: &str,
    reference: Module,
    entry: convcheck_ir::FuncId,
    target: Module,
    a: &FuzzArgs,
) -> Result<Report, Examined> {
    let tentry = target
        .function(function)
        .ok_or_else(|| Examined::Failed(format!("the output has no function `{function}`")))?;
    let config = check_config(a, Reference::Cfg, Vec::new());
    let job = CheckJob::of(file, &config);
    let stage = StagePlan {
        name: "pass-cmd".into(),
        notes: Vec::new(),
        level: "after the command".into(),
        target: Stage::Code(Entry {
            code: Rc::new(Code::Cfg(CfgProgram::new(target.clone()))),
            func: tentry,
        }),
        allow: Allowance::Exact,
        reproduce: None,
        module: target,
        ceiling: None,
        interprocedural: None,
    };
    let plan = Plan {
        file: file.to_string(),
        target_file: None,
        functions: vec![FunctionPlan {
            name: function.to_string(),
            reference_kind: Reference::Cfg,
            reference: Ok(Entry {
                code: Rc::new(Code::Cfg(CfgProgram::new(reference))),
                func: entry,
            }),
            stages: vec![stage],
            stand_in: None,
            decided: Vec::new(),
            target_stand_in: None,
        }],
        not_compared: Vec::new(),
        replay: Replay::Kernel {
            file: file.to_string(),
            target_file: None,
        },
        notes: Vec::new(),
        policy: Policy::Batch {
            prove: false,
            search_only: true,
        },
        tool_times: Default::default(),
    };
    let settings = with_engine(Engine::Explicit);
    Ok(crate::pipeline::run(
        plan,
        &job,
        &settings,
        &crate::pipeline::Silent,
    ))
}

/// Replaces the temporary file's path in a command's message by `FILE`,
/// so that reports do not depend on the temporary folder's random name.
pub(super) fn stable(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(k) = rest.find("/convcheck-pass-") {
        // The path starts after the last space or quote before it (which
        // may be a character of several bytes, as in `‘/tmp/...’`).
        let start = rest[..k]
            .char_indices()
            .rev()
            .find(|&(_, c)| c.is_whitespace() || "'\"`‘“".contains(c))
            .map_or(0, |(s, c)| s + c.len_utf8());
        // Not the path of a kernel file: nothing more to replace.
        let Some(e) = rest[k..].find("/kernel.") else {
            break;
        };
        let end = k + e + "/kernel.".len();
        out.push_str(&rest[..start]);
        out.push_str("FILE.");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::stable;

    #[test]
    fn temporary_paths_are_replaced_whatever_surrounds_them() {
        for (message, expected) in [
            (
                "cat: /tmp/convcheck-pass-Ab12/kernel.c: No such file",
                "cat: FILE.c: No such file",
            ),
            (
                "sleep: invalid time interval ‘/tmp/convcheck-pass-x/kernel.c’",
                "sleep: invalid time interval ‘FILE.c’",
            ),
            (
                "\u{3000}/tmp/convcheck-pass-y/kernel.ll and '/t/convcheck-pass-z/kernel.cvir'",
                "\u{3000}FILE.ll and 'FILE.cvir'",
            ),
            ("no path here", "no path here"),
            ("/convcheck-pass-", "/convcheck-pass-"),
        ] {
            assert_eq!(stable(message), expected, "{message}");
        }
    }
}
