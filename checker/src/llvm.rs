//! `convcheck check` on LLVM IR (DESIGN.md 2.9 and section 4; issue 11):
//! `.ll` files, real `opt` pipelines and the clang front end.
//!
//! - **Inputs.** A `.ll` file is read by `convcheck-llvm` and mapped to the
//!   IR; a function outside the model (floating point, vectors, indirect
//!   calls, ...) is checked as `inconclusive` with the construct named,
//!   never guessed. With `--frontend clang` a `.c`, `.cu` or `.cl` file is
//!   compiled by `clang-19 -O0 -Xclang -disable-O0-optnone -S -emit-llvm`
//!   first ([`frontend`]). A kernel-language file without `--frontend` is
//!   lowered by convcheck and written as LLVM IR, so `--opt` applies to it
//!   too.
//! - **Reference.** A `.ll` file's own CFG semantics (maximal convergence,
//!   or tokens where present), as LLVM's rules ask of a pass. With a
//!   kernel-language source and `--reference source` (the default), the
//!   source-level semantics of seed 000, and the lowering (convcheck's or
//!   clang's) is the first stage.
//! - **Targets.** `check A.ll B.ll` compares every function defined in both
//!   (as `alive-tv` does; `--function` for one). `--opt PIPELINE` runs
//!   `opt -passes=PIPELINE -print-changed=quiet -print-module-scope
//!   -opt-bisect-limit=-1` once ([`dumps`]): every pass that changed a
//!   function is a stage of that function's check, so the first violated
//!   stage names the pass that broke the property, with its
//!   `-opt-bisect-limit` number to reproduce it.
//! - **Static rules.** A stage whose function breaks a static rule of
//!   convergence-control tokens that the reference keeps is violated, with
//!   the rule in the words of LLVM's verifier (`convcheck_ir::tokens`); its
//!   dynamic semantics is not compared (LLVM gives invalid IR none).
//! - **Reports.** One function is reported exactly as a kernel check is
//!   (text, JSON, SARIF, exit codes); several are reported one after the
//!   other with a summary, their JSON under `"functions"`, and the exit
//!   code of the worst verdict (violated, then inconclusive).

pub mod dumps;
pub mod frontend;
pub mod tools;

use crate::check::{render_json, render_sarif, render_text, CheckReport, StageReport};
use crate::cli::{CheckArgs, ReportFormat};
use crate::config::{CheckConfig, Reference, Verdict};
use crate::engine::{
    compare_any_hierarchy, compare_stages, Allowance, Budget, Comparison, Coverage, Finding,
    Limits, Outcome as EngineOutcome, Progress, Property, Side,
};
use crate::{Outcome, EXIT_USAGE};
use convcheck_ir::cycles::HIERARCHY_CAP;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Bounds;
use convcheck_ir::Module;
use convcheck_lang::sema::Kernel;
use convcheck_llvm::to_ir::{to_module, Mapped};
use std::collections::HashMap;
use std::time::Duration;

pub use frontend::Frontend;

/// The LLVM options of `check` (the command line's `--opt`, `--opt-bin`,
/// `--frontend`, `--clang-bin`, `--tool-timeout`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlvmOptions {
    /// The `opt -passes=` pipeline to run, if any.
    pub opt: Option<String>,
    /// The `opt` binary (default: `opt-19`, else `opt` on the PATH).
    pub opt_bin: Option<String>,
    /// Compile the source with a front end first.
    pub frontend: Option<Frontend>,
    /// The clang binary (default: `clang-19`, else `clang`).
    pub clang_bin: Option<String>,
    /// Seconds each run of an external tool may take.
    pub tool_timeout: u64,
}

impl Default for LlvmOptions {
    fn default() -> LlvmOptions {
        LlvmOptions {
            opt: None,
            opt_bin: None,
            frontend: None,
            clang_bin: None,
            tool_timeout: 60,
        }
    }
}

/// Whether a file name is LLVM IR text.
pub fn is_ll(path: &str) -> bool {
    path.ends_with(".ll")
}

/// Whether `check` with these arguments goes through LLVM IR.
pub fn applies(a: &CheckArgs, o: &LlvmOptions) -> bool {
    is_ll(&a.src) || a.tgt.as_deref().is_some_and(is_ll) || o.opt.is_some() || o.frontend.is_some()
}

/// An LLVM module read and mapped to the IR.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The file name used in messages.
    pub file: String,
    /// The text.
    pub text: String,
    /// The mapped functions and the skipped ones.
    pub mapped: Mapped,
    /// Every function the module defines, in module order.
    pub defined: Vec<String>,
    /// Each defined function's text as written (to see which passes
    /// changed it).
    pub bodies: HashMap<String, String>,
    /// The static rules of tokens each function breaks, in LLVM's words.
    pub violations: Vec<convcheck_llvm::verify::Violation>,
}

impl Loaded {
    /// The mapped function `name`'s index in [`Mapped::module`].
    pub fn index(&self, name: &str) -> Option<usize> {
        self.mapped
            .module
            .functions
            .iter()
            .position(|f| f.name == name)
    }

    /// Why `name` was not mapped, if it was not.
    pub fn skipped(&self, name: &str) -> Option<String> {
        self.mapped
            .skipped
            .iter()
            .find(|u| u.function == name)
            .map(|u| u.to_string())
    }
}

/// Reads LLVM IR text. Errors name file, line and column, one per line.
pub fn read_ll(file: &str, text: &str) -> Result<Loaded, String> {
    let m = convcheck_llvm::parse_module(text, file).map_err(|e| e.to_string())?;
    let mapped = to_module(&m, file);
    let lines: Vec<&str> = text.lines().collect();
    let mut defined = Vec::new();
    let mut bodies = HashMap::new();
    for f in m.defined_functions() {
        let name = convcheck_llvm::to_ir::plain_name(&f.name);
        let first = f.span.line.saturating_sub(1) as usize;
        let last = f
            .blocks
            .iter()
            .flat_map(|b| b.instructions.iter())
            .map(|i| i.line() as usize)
            .max()
            .unwrap_or(first + 1);
        // The body without the `define` line (attributes a pass adds do not
        // change the CFG), comments, attribute groups and metadata numbers
        // (opt renumbers them).
        let body = lines
            .get((first + 1).min(last)..last.min(lines.len()).max(first))
            .map(|ls| {
                ls.iter()
                    .map(|l| normalized(l))
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        bodies.insert(name.clone(), body);
        defined.push(name);
    }
    let violations = convcheck_llvm::verify::convergence(&m);
    Ok(Loaded {
        file: file.to_string(),
        text: text.to_string(),
        mapped,
        defined,
        bodies,
        violations,
    })
}

/// A line of a function body without its comment, `#N` attribute group
/// references and `!N` metadata references, its words single-spaced.
fn normalized(line: &str) -> String {
    let mut in_string = false;
    let mut code = String::new();
    for c in line.chars() {
        if c == '"' {
            in_string = !in_string;
        }
        if c == ';' && !in_string {
            break;
        }
        code.push(c);
    }
    code.split_whitespace()
        .filter(|w| {
            let w = w.trim_end_matches(',');
            let numbered = |p: char| {
                w.strip_prefix(p)
                    .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
            };
            !numbered('#') && !numbered('!')
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads an `.ll` file; errors are usage errors (exit 2) naming file, line
/// and column.
pub fn load_ll(path: &str) -> Result<Loaded, Outcome> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Outcome::usage(format!("{path}: cannot read: {e}")))?;
    read_ll(path, &text).map_err(|e| Outcome {
        stdout: String::new(),
        stderr: format!("{e}\n"),
        code: EXIT_USAGE,
    })
}

/// A kernel-language file lowered by convcheck and written as LLVM IR.
fn lowered_ll(kernel: &Kernel, tokens: bool) -> Result<Loaded, Outcome> {
    let module = convcheck_lang::lower::lower(kernel, tokens);
    let text = convcheck_llvm::write::module_text(&module);
    read_ll(&kernel.file_name, &text).map_err(|e| {
        Outcome::usage(format!(
            "{}: the LLVM IR convcheck wrote does not read back: {e}",
            kernel.file_name
        ))
    })
}

/// The reference of a check.
enum Ref {
    /// An LLVM module's own CFG semantics.
    Ll(Box<Loaded>),
    /// A kernel's source-level semantics.
    Source(Box<Kernel>),
}

/// One target: a whole module after a step (a file, the lowering, a pass).
struct StageModule {
    name: String,
    loaded: Loaded,
    notes: Vec<String>,
    level: String,
    /// Whether the stage is kept for a function only when it changed it.
    only_if_changed: bool,
}

/// Loads a source file as the check's starting point: the reference and
/// the stages that lead from it to LLVM IR (the lowering, clang's output).
fn load_source(
    a: &CheckArgs,
    o: &LlvmOptions,
    timeout: Duration,
) -> Result<(Ref, Vec<StageModule>, Loaded, Vec<String>), Outcome> {
    let mut notes = Vec::new();
    if is_ll(&a.src) {
        let l = load_ll(&a.src)?;
        return Ok((Ref::Ll(Box::new(l.clone())), Vec::new(), l, notes));
    }
    if let Some(fe) = o.frontend {
        let (compiled, command) = frontend::compile(fe, &a.src, o.clang_bin.as_deref(), timeout)
            .map_err(Outcome::usage)?;
        let ll_name = format!("{}.ll", a.src);
        let loaded = read_ll(&ll_name, &compiled).map_err(|e| {
            Outcome::usage(format!("{command}: convcheck cannot read its output: {e}"))
        })?;
        notes.push(format!("front end: {command}"));
        if a.reference == Reference::Source {
            let src = std::fs::read_to_string(&a.src)
                .map_err(|e| Outcome::usage(format!("{}: cannot read: {e}", a.src)))?;
            // The kernel language reads `tid` and `N` as the thread index
            // and the group size, while a C parameter of that name is a
            // per-thread value of clang's output: the two readings would
            // disagree, so such a file is checked at the CFG level.
            let reserved = loaded
                .mapped
                .module
                .functions
                .iter()
                .flat_map(|f| f.params.iter())
                .find(|p| *p == "tid" || *p == "N")
                .cloned();
            match Kernel::parse(&a.src, &src) {
                Ok(_) if reserved.is_some() => notes.push(format!(
                    "a parameter is named `{}`, which the kernel language reads as a builtin \
                     while clang's output reads it as a per-thread value: the reference is \
                     clang's own output at the CFG level",
                    reserved.unwrap_or_default()
                )),
                Ok(k) => {
                    let stage = StageModule {
                        name: "clang -O0".into(),
                        loaded: loaded.clone(),
                        notes: Vec::new(),
                        level: "clang -O0".into(),
                        only_if_changed: false,
                    };
                    return Ok((Ref::Source(Box::new(k)), vec![stage], loaded, notes));
                }
                Err(d) => {
                    let first = d.to_string();
                    let first = first.lines().next().unwrap_or("").to_string();
                    notes.push(format!(
                        "the kernel language does not read {} ({first}): the reference is \
                         clang's own output at the CFG level",
                        a.src
                    ));
                }
            }
        }
        return Ok((Ref::Ll(Box::new(loaded.clone())), Vec::new(), loaded, notes));
    }
    let kernel = crate::load_kernel(&a.src)?;
    let mut loaded = lowered_ll(&kernel, a.tokens)?;
    let tokens = if a.tokens { " --tokens" } else { "" };
    loaded.file = format!("{}.ll", a.src);
    notes.push(format!(
        "input: convcheck lower {}{tokens} --emit ll > {}",
        a.src, loaded.file
    ));
    if a.reference == Reference::Source {
        let stage = StageModule {
            name: format!("lower{tokens}"),
            loaded: loaded.clone(),
            notes: Vec::new(),
            level: format!("CFG{tokens}"),
            only_if_changed: false,
        };
        Ok((Ref::Source(Box::new(kernel)), vec![stage], loaded, notes))
    } else {
        Ok((Ref::Ll(Box::new(loaded.clone())), Vec::new(), loaded, notes))
    }
}

/// Runs the pipeline on `input` and returns one stage per pass that
/// changed the module, and the command that reproduces the run.
fn opt_stages(
    input: &Loaded,
    pipeline: &str,
    o: &LlvmOptions,
    timeout: Duration,
) -> Result<(Vec<StageModule>, Loaded, String), Outcome> {
    let bin = match &o.opt_bin {
        Some(b) => b.clone(),
        None => tools::find(&["opt-19", "opt"], "for --opt").map_err(Outcome::usage)?,
    };
    let dir = tempfile::tempdir().map_err(|e| Outcome::usage(format!("temporary folder: {e}")))?;
    let in_path = dir.path().join("input.ll");
    let out_path = dir.path().join("output.ll");
    std::fs::write(&in_path, &input.text)
        .map_err(|e| Outcome::usage(format!("{}: {e}", in_path.display())))?;
    let args: Vec<String> = vec![
        format!("-passes={pipeline}"),
        "-print-changed=quiet".into(),
        "-print-module-scope".into(),
        "-opt-bisect-limit=-1".into(),
        "-S".into(),
        in_path.display().to_string(),
        "-o".into(),
        out_path.display().to_string(),
    ];
    let run = tools::run_keeping(&bin, &args, &out_path, timeout).map_err(Outcome::usage)?;
    let shown = format!(
        "{} -passes={} -S {}",
        tools::shell_word(&bin),
        tools::shell_word(pipeline),
        tools::shell_word(&input.file)
    );
    let mut stages = Vec::new();
    for d in dumps::split(&run.stderr) {
        let name = match d.bisect {
            Some(n) => format!("{} (opt-bisect {n})", d.pass),
            None => d.pass.clone(),
        };
        let file = format!("{} after {}", input.file, d.pass);
        let loaded = read_ll(&file, &d.text).map_err(|e| {
            Outcome::usage(format!(
                "{shown}: convcheck cannot read the module after {} (standard error line {}): {e}",
                d.pass, d.line
            ))
        })?;
        let notes = match d.bisect {
            Some(n) => vec![format!(
                "reproduce: {shown} -opt-bisect-limit={n} (and {} for the module before it)",
                n.saturating_sub(1)
            )],
            None => Vec::new(),
        };
        stages.push(StageModule {
            level: format!("after {}", dumps::pass_class(&d.pass)),
            name,
            loaded,
            notes,
            only_if_changed: true,
        });
    }
    if let Some(failure) = &run.failure {
        // opt's verifier aborts the pipeline on a module that a pass broke;
        // the modules printed before are still the pipeline's stages, and
        // the last one shows what the pass did. Without any, the failure
        // is the user's to see.
        let Some(last) = stages.last_mut() else {
            return Err(Outcome::usage(failure.clone()));
        };
        last.notes.push(format!(
            "opt stopped after this pass: {}",
            dumps::trailer(&run.stderr)
        ));
        let output = last.loaded.clone();
        return Ok((stages, output, shown));
    }
    let output = read_ll(&format!("{} after opt", input.file), &run.stdout)
        .map_err(|e| Outcome::usage(format!("{shown}: convcheck cannot read its output: {e}")))?;
    Ok((stages, output, shown))
}

/// One function's check, or why it could not be run.
struct FunctionCheck {
    report: CheckReport,
}

/// The `check` command on LLVM IR (see the module documentation).
pub fn check(a: &CheckArgs, o: &LlvmOptions, budget: &Budget, tty: bool) -> Outcome {
    match run(a, o, budget, tty) {
        Ok(o) => o,
        Err(o) => o,
    }
}

fn run(a: &CheckArgs, o: &LlvmOptions, budget: &Budget, tty: bool) -> Result<Outcome, Outcome> {
    if a.tgt.is_none() && o.opt.is_none() && a.passes.is_empty() && o.frontend.is_none() {
        return Err(Outcome::usage(format!(
            "nothing to check: give a target file (`check {} B.ll`) or a pipeline (`--opt \
             PIPELINE`)",
            a.src
        )));
    }
    if !a.passes.is_empty() {
        return Err(Outcome::usage(
            "--pass runs convcheck's own passes on kernel-language files; on LLVM IR use --opt \
             PIPELINE (a real opt pipeline)",
        ));
    }
    let timeout = Duration::from_secs(o.tool_timeout.max(1));
    let (reference, mut stages, mut last, mut notes) = load_source(a, o, timeout)?;
    if let Some(t) = &a.tgt {
        let loaded = if is_ll(t) {
            load_ll(t)?
        } else {
            lowered_ll(&crate::load_kernel(t)?, a.tokens)?
        };
        stages.push(StageModule {
            name: t.clone(),
            loaded: loaded.clone(),
            notes: Vec::new(),
            level: t.clone(),
            only_if_changed: false,
        });
        last = loaded;
    }
    let mut final_module = last.clone();
    if let Some(p) = &o.opt {
        let (passes, output, shown) = opt_stages(&last, p, o, timeout)?;
        notes.push(format!("pipeline: {shown}"));
        if passes.is_empty() {
            stages.push(StageModule {
                name: format!("opt -passes={p}"),
                loaded: output.clone(),
                notes: vec!["no pass changed the module".into()],
                level: "after opt".into(),
                only_if_changed: false,
            });
        }
        stages.extend(passes);
        final_module = output;
    }
    // The functions to check: defined in the reference and in the final
    // module (as alive-tv does), or the one named.
    let ref_names: Vec<String> = match &reference {
        Ref::Ll(l) => l.defined.clone(),
        Ref::Source(k) => k.functions.iter().map(|f| f.name.clone()).collect(),
    };
    let in_final = |n: &String| final_module.defined.contains(n);
    let names: Vec<String> = match &a.function {
        Some(f) => {
            if !ref_names.contains(f) {
                return Err(Outcome::usage(format!(
                    "--function {f}: {} defines no function @{f}",
                    a.src
                )));
            }
            if !in_final(f) {
                return Err(Outcome::usage(format!(
                    "--function {f}: @{f} is not defined in the target ({})",
                    final_module.file
                )));
            }
            vec![f.clone()]
        }
        None => ref_names.iter().filter(|n| in_final(n)).cloned().collect(),
    };
    let only_one: Vec<String> = ref_names
        .iter()
        .filter(|n| !in_final(n))
        .chain(
            final_module
                .defined
                .iter()
                .filter(|n| !ref_names.contains(n)),
        )
        .cloned()
        .collect();
    if names.is_empty() {
        return Err(Outcome::usage(format!(
            "no function is defined in both {} and {}",
            a.src, final_module.file
        )));
    }
    let config = a.config();
    let mut reports = Vec::new();
    let mut shown = false;
    let start = std::time::Instant::now();
    let mut last_shown = start;
    for name in &names {
        let mut progress = |p: &Progress| {
            if !tty {
                return;
            }
            let now = std::time::Instant::now();
            if now.duration_since(start).as_secs_f64() < 1.0
                || now.duration_since(last_shown).as_millis() < 200
            {
                return;
            }
            last_shown = now;
            shown = true;
            use std::io::Write as _;
            let _ = write!(
                std::io::stderr(),
                "\r\x1b[Kconvcheck check: @{name}: {} {}",
                p.phase,
                crate::engine::grouped(p.done)
            );
        };
        let mut fc = check_function(
            &a.src,
            name,
            &reference,
            &stages,
            &config,
            budget,
            &mut progress,
        )?;
        if reports.is_empty() {
            if let Some(s) = fc.report.stages.first_mut() {
                let mut n = notes.clone();
                n.append(&mut s.notes);
                s.notes = n;
            }
        }
        reports.push(fc);
    }
    if shown {
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
    Ok(render(a, &reports, &only_one))
}

fn worst(reports: &[FunctionCheck]) -> Verdict {
    let vs: Vec<Verdict> = reports.iter().map(|r| r.report.verdict()).collect();
    if vs.contains(&Verdict::Violated) {
        Verdict::Violated
    } else if vs.contains(&Verdict::Inconclusive) {
        Verdict::Inconclusive
    } else {
        Verdict::Preserved
    }
}

/// The text report of one function. A static-rule violation has no
/// scenario, tables or replay line: those lines of the kernel report are
/// left out.
fn text_of(report: &CheckReport) -> String {
    let text = render_text(report);
    let static_rule = report.first_broken().is_some_and(
        |(_, s)| matches!(&s.outcome, EngineOutcome::Violated(f) if f.tids.is_empty()),
    );
    if !static_rule {
        return text;
    }
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        if line.starts_with("  scenario (N=") {
            skipping = true;
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
        if skipping && line.starts_with("  replay") {
            skipping = false;
        }
    }
    out
}

fn render(a: &CheckArgs, reports: &[FunctionCheck], only_one: &[String]) -> Outcome {
    let verdict = worst(reports);
    let stdout = if let [one] = reports {
        let mut s = match a.format {
            ReportFormat::Text => text_of(&one.report),
            ReportFormat::Json => format!("{}\n", render_json(&one.report)),
            ReportFormat::Sarif => format!("{}\n", render_sarif(&one.report)),
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
                    s.push_str(&text_of(&r.report));
                    s.push('\n');
                }
                s.push_str(&format!("functions: {}\n", reports.len()));
                for r in reports {
                    let at = r
                        .report
                        .first_broken()
                        .map(|(i, st)| format!(" (first at stage {}: {})", i + 1, st.name))
                        .unwrap_or_default();
                    s.push_str(&format!(
                        "  @{}: {}{at}\n",
                        r.report.function,
                        r.report.verdict()
                    ));
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
                    "functions": reports.iter().map(|r| render_json(&r.report)).collect::<Vec<_>>(),
                    "not_compared": only_one,
                });
                format!("{v}\n")
            }
            ReportFormat::Sarif => {
                let mut all = render_sarif(&reports[0].report);
                let mut results = Vec::new();
                let mut props = Vec::new();
                for r in reports {
                    let s = render_sarif(&r.report);
                    if let Some(rs) = s["runs"][0]["results"].as_array() {
                        results.extend(rs.iter().cloned());
                    }
                    props.push(serde_json::json!({
                        "function": r.report.function,
                        "verdict": r.report.verdict().as_str(),
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

/// A stage's outcome before the comparison: a static-rule violation or an
/// unmapped function decide it without running anything.
enum Pre {
    Compare,
    Done(EngineOutcome),
}

/// The finding of a stage that breaks a static rule of tokens.
fn static_rule_finding(e: &convcheck_llvm::verify::Violation, file: &str) -> Box<Finding> {
    Box::new(Finding {
        property: Property::Convergence,
        threads: Vec::new(),
        tids: Vec::new(),
        group: 0,
        message: format!(
            "static rule of convergence control tokens broken: {} ({file}, line {})",
            e.message, e.line
        ),
        operation: None,
        reference: Vec::new(),
        target: Vec::new(),
    })
}

/// Checks function `name` against every stage that has it.
fn check_function(
    file: &str,
    name: &str,
    reference: &Ref,
    stages: &[StageModule],
    a: &CheckConfig,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
) -> Result<FunctionCheck, Outcome> {
    let bounds = Bounds {
        max_iters: a.max_iters,
        fuel: a.fuel,
        max_paths: a.max_paths,
        ..Bounds::default()
    };
    let limits = Limits {
        bounds,
        group: a.threads,
    };
    let empty = || CheckReport {
        file: file.to_string(),
        function: name.to_string(),
        reference: a.reference,
        bounds,
        threads: a.threads,
        stages: Vec::new(),
        reference_module: empty_module(),
        target_module: empty_module(),
        paths: 0,
        coverage: Coverage::default(),
        budget: *budget,
        target_file: None,
    };
    // The reference side.
    let (ref_program, ref_code, ref_entry, ref_body, ref_tokens_ok, reference_kind);
    match reference {
        Ref::Ll(l) => {
            let Some(i) = l.index(name) else {
                let why = l
                    .skipped(name)
                    .unwrap_or_else(|| format!("@{name} is not mapped"));
                let mut r = empty();
                r.reference = Reference::Cfg;
                r.stages.push(StageReport {
                    name: "read the reference".into(),
                    outcome: EngineOutcome::Inconclusive(why),
                    notes: Vec::new(),
                    target_level: "CFG".into(),
                });
                return Ok(FunctionCheck { report: r });
            };
            ref_program = Some(CfgProgram::new(l.mapped.module.clone()));
            ref_code = None;
            ref_entry = i;
            ref_body = l.bodies.get(name).cloned();
            ref_tokens_ok = !l.violations.iter().any(|v| v.function == name);
            if let Some(v) = l.violations.iter().find(|v| v.function == name) {
                let mut r = empty();
                r.reference = Reference::Cfg;
                r.stages.push(StageReport {
                    name: "read the reference".into(),
                    outcome: EngineOutcome::Inconclusive(format!(
                        "the reference breaks a static rule of convergence control tokens, so \
                         it has no semantics to compare with: {} ({}, line {})",
                        v.message, l.file, v.line
                    )),
                    notes: Vec::new(),
                    target_level: "CFG".into(),
                });
                return Ok(FunctionCheck { report: r });
            }
            reference_kind = Reference::Cfg;
        }
        Ref::Source(k) => {
            ref_entry = k.entry(Some(name)).map_err(Outcome::usage)?;
            ref_code = Some(crate::Code::new(k, None)?);
            ref_program = None;
            ref_body = None;
            ref_tokens_ok = true;
            reference_kind = Reference::Source;
        }
    }
    let reference_side = match (&ref_program, &ref_code) {
        (Some(p), _) => Side::cfg(p, ref_entry),
        (None, Some(c)) => Side {
            program: c.program(),
            cfg: None,
            entry: ref_entry,
        },
        (None, None) => return Err(Outcome::usage("no reference")),
    };
    // The stages that have this function (and changed it, for passes).
    let mut kept: Vec<(&StageModule, Pre, Option<String>)> = Vec::new();
    let mut programs: Vec<(CfgProgram, usize)> = Vec::new();
    let mut previous = ref_body.clone();
    for s in stages {
        if !s.loaded.defined.iter().any(|d| d == name) {
            continue;
        }
        let body = s.loaded.bodies.get(name).cloned();
        if s.only_if_changed && body == previous {
            continue;
        }
        previous = body;
        // A broken static rule decides the stage first (LLVM gives an
        // invalid module no semantics), even for a function outside the
        // model.
        let broken = s.loaded.violations.iter().find(|v| v.function == name);
        let pre = match (broken, s.loaded.index(name)) {
            (Some(e), _) if ref_tokens_ok => Pre::Done(EngineOutcome::Violated(
                static_rule_finding(e, &s.loaded.file),
            )),
            (_, None) => Pre::Done(EngineOutcome::Inconclusive(
                s.loaded
                    .skipped(name)
                    .unwrap_or_else(|| format!("@{name} is not mapped")),
            )),
            (_, Some(i)) => {
                programs.push((CfgProgram::new(s.loaded.mapped.module.clone()), i));
                Pre::Compare
            }
        };
        kept.push((s, pre, None));
    }
    if kept.is_empty() {
        // No step changed the function: compare the last module that has
        // it, so that the report still says what was checked.
        if let Some(s) = stages
            .iter()
            .rev()
            .find(|s| s.loaded.defined.iter().any(|d| d == name))
        {
            if let Some(i) = s.loaded.index(name) {
                programs.push((CfgProgram::new(s.loaded.mapped.module.clone()), i));
                let what = if s.only_if_changed {
                    format!("the pipeline (no pass changed @{name})")
                } else {
                    s.name.clone()
                };
                kept.push((s, Pre::Compare, Some(what)));
            }
        }
    }
    let sides: Vec<(Side, Allowance)> = programs
        .iter()
        .map(|(p, i)| {
            (
                Side {
                    program: p,
                    cfg: None,
                    entry: *i,
                },
                Allowance::Exact,
            )
        })
        .collect();
    let several = ref_program.as_ref().is_some_and(|p| {
        convcheck_ir::cycles::all_hierarchies(&p.module.functions[ref_entry], 2).len() > 1
    });
    let comparison = if sides.is_empty() {
        Comparison {
            outcomes: Vec::new(),
            coverage: Coverage::default(),
        }
    } else if several {
        let mut c = compare_stages(&reference_side, &sides[..1], limits, budget, progress);
        c.outcomes = sides
            .iter()
            .map(|(t, allow)| {
                compare_any_hierarchy(&reference_side, t, *allow, limits, HIERARCHY_CAP)
            })
            .collect();
        c
    } else {
        compare_stages(&reference_side, &sides, limits, budget, progress)
    };
    let mut outcomes = comparison.outcomes.into_iter();
    let mut report = empty();
    report.reference = reference_kind;
    report.reference_module = reference_side.module().clone();
    report.paths = comparison.coverage.paths;
    report.coverage = comparison.coverage;
    let mut modules: Vec<Module> = Vec::new();
    for (s, pre, renamed) in kept {
        let outcome = match pre {
            Pre::Done(o) => o,
            Pre::Compare => outcomes
                .next()
                .unwrap_or_else(|| EngineOutcome::Inconclusive("not compared".into())),
        };
        modules.push(s.loaded.mapped.module.clone());
        let notes = if renamed.is_some() {
            Vec::new()
        } else {
            s.notes.clone()
        };
        report.stages.push(StageReport {
            name: renamed.unwrap_or_else(|| s.name.clone()),
            outcome,
            notes,
            target_level: s.level.clone(),
        });
    }
    // The target tables are built from the module of the stage they show.
    let shown = report.first_broken().map(|(i, _)| i);
    if let Some(m) = shown.and_then(|i| modules.get(i)).or(modules.last()) {
        report.target_module = m.clone();
    }
    Ok(FunctionCheck { report })
}

fn empty_module() -> Module {
    Module {
        name: String::new(),
        ops: Vec::new(),
        oracles: Vec::new(),
        functions: Vec::new(),
    }
}
