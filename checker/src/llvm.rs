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

mod compare;
pub mod dumps;
pub mod frontend;
mod product;
mod report;
mod structure;
pub mod tools;

use crate::check::CheckReport;
use crate::cli::CheckArgs;
use crate::config::Reference;
use crate::engine::{Budget, Outcome as EngineOutcome, Progress};
use crate::{Outcome, EXIT_USAGE};
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
    /// Which engine decides the stages (`check --engine`; see
    /// `llvm/product.rs`).
    pub engine: crate::symbolic::Engine,
}

impl Default for LlvmOptions {
    fn default() -> LlvmOptions {
        LlvmOptions {
            opt: None,
            opt_bin: None,
            frontend: None,
            clang_bin: None,
            tool_timeout: 60,
            engine: crate::symbolic::Engine::Auto,
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
    /// The line of each defined function's `define`.
    pub lines: HashMap<String, u32>,
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
    parse_ll(file, text).map_err(|e| e.to_string())
}

/// [`read_ll`] with the parse errors as a list, each with its line and
/// column (the explorer marks them in its editor).
pub fn parse_ll(file: &str, text: &str) -> Result<Loaded, convcheck_llvm::ParseErrors> {
    let m = convcheck_llvm::parse_module(text, file)?;
    let mapped = to_module(&m, file);
    let lines: Vec<&str> = text.lines().collect();
    let mut defined = Vec::new();
    let mut bodies = HashMap::new();
    let mut function_lines = HashMap::new();
    for f in m.defined_functions() {
        let name = convcheck_llvm::to_ir::plain_name(&f.name);
        function_lines.insert(name.clone(), f.span.line);
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
        lines: function_lines,
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
    /// What the stage may change (barriers, for a pass whose contract
    /// removes them).
    allow: crate::engine::Allowance,
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
        let unreadable =
            |e: String| Outcome::usage(format!("{command}: convcheck cannot read its output: {e}"));
        let mut loaded = read_ll(&ll_name, &compiled).map_err(unreadable)?;
        notes.push(format!("front end: {command}"));
        let (text, renames) = if a.src.ends_with(".cu") {
            frontend::source_names(&compiled, &loaded.defined)
        } else {
            (String::new(), Vec::new())
        };
        if !renames.is_empty() {
            let shown: Vec<String> = renames
                .iter()
                .map(|(m, s)| format!("@{m} is `{s}`"))
                .collect();
            notes.push(format!(
                "clang's output names functions as C++ does; checked under their source names: {}",
                shown.join(", ")
            ));
            loaded = read_ll(&ll_name, &text).map_err(unreadable)?;
        }
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
            let parsed = Kernel::parse(&a.src, &src);
            let disagree = match &parsed {
                Ok(k) => frontend::call_disagreements(&k.module(), &loaded.mapped.module),
                Err(_) => Vec::new(),
            };
            match parsed {
                Ok(_) if !disagree.is_empty() => notes.push(format!(
                    "{}: the reference is clang's own output at the CFG level",
                    disagree.join("; ")
                )),
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
                        allow: crate::engine::Allowance::Exact,
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
            allow: crate::engine::Allowance::Exact,
        };
        Ok((Ref::Source(Box::new(kernel)), vec![stage], loaded, notes))
    } else {
        Ok((Ref::Ll(Box::new(loaded.clone())), Vec::new(), loaded, notes))
    }
}

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
            allow: crate::engine::Allowance::Exact,
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
    /// Per stage, how it was proved for every iteration count, if it was
    /// ([`structure`]).
    proved: Vec<Option<structure::Unbounded>>,
    /// Per stage, the product's proof when the symbolic product decided it
    /// preserved ([`product`]).
    by_product: Vec<Option<convcheck_smt::product::Preserved>>,
    /// Whether some stage was compared by the explicit engine (whose
    /// bounds the report then lists).
    explicit_used: bool,
    /// Per stage, the target module its runs are of (empty when the
    /// stages were not compared), for the tables of a violated stage
    /// after the first.
    modules: Vec<convcheck_ir::Module>,
}

impl FunctionCheck {
    fn new(report: CheckReport) -> FunctionCheck {
        let proved = vec![None; report.stages.len()];
        let by_product = vec![None; report.stages.len()];
        FunctionCheck {
            report,
            proved,
            by_product,
            explicit_used: true,
            modules: Vec::new(),
        }
    }

    /// Whether stage `i` was proved for every iteration count.
    fn is_proved(&self, i: usize) -> bool {
        self.proved.get(i).is_some_and(Option::is_some)
    }

    /// The verdict: the explicit rule, and `proved` when every stage is.
    fn verdict(&self) -> crate::config::Verdict {
        use crate::config::Verdict;
        match self.report.verdict() {
            Verdict::Preserved
                if !self.report.stages.is_empty()
                    && (0..self.report.stages.len()).all(|i| self.is_proved(i)) =>
            {
                Verdict::Proved
            }
            v => v,
        }
    }
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
            allow: crate::engine::Allowance::Exact,
        });
        last = loaded;
    }
    if stages.is_empty() && o.opt.is_none() {
        // `check F.c --frontend clang` whose reference fell back to clang's
        // own output: there is nothing to compare that output with.
        let why: Vec<String> = notes
            .iter()
            .filter(|n| n.contains("the reference is clang's own output"))
            .cloned()
            .collect();
        let why = if why.is_empty() {
            "the reference is clang's own output at the CFG level".to_string()
        } else {
            why.join("; ")
        };
        return Err(Outcome::usage(format!(
            "nothing to check: {why}; with no pipeline (`--opt PIPELINE`) or target file there \
             is nothing to compare it with"
        )));
    }
    let mut final_module = last.clone();
    if let Some(p) = &o.opt {
        let p = &pipeline(p);
        let (passes, output, shown) = opt_stages(&last, p, o, timeout)?;
        notes.push(format!("pipeline: {shown}"));
        if passes.is_empty() {
            stages.push(StageModule {
                name: format!("opt -passes={p}"),
                loaded: output.clone(),
                notes: vec!["no pass changed the module".into()],
                level: "after opt".into(),
                only_if_changed: false,
                allow: crate::engine::Allowance::Exact,
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
    // The functions of a file share `--timeout`: each gets the time left
    // divided by the functions still to check, so that one slow function
    // leaves the others a share (what a fast one leaves goes to the rest).
    let deadline = budget.timeout.map(|t| budget.start + t);
    for (k, name) in names.iter().enumerate() {
        let own = match deadline {
            Some(d) if names.len() > 1 => {
                let now = std::time::Instant::now();
                let share = d.saturating_duration_since(now) / (names.len() - k) as u32;
                Budget {
                    start: now,
                    timeout: Some(crate::engine::whole_seconds_up(share)),
                    ..*budget
                }
            }
            _ => *budget,
        };
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
        let mut fc = compare::check_function(
            &a.src,
            name,
            &reference,
            &stages,
            &config,
            (&own, o.engine, tty),
            true,
            &mut progress,
        )?;
        if own.timeout != budget.timeout {
            // The report lists the check's budget; a function stopped by its
            // share says which share it had.
            fc.report.budget = *budget;
            let timed_out = |s: &crate::check::StageReport| matches!(&s.outcome, EngineOutcome::Inconclusive(w) if w.contains("time budget"));
            if let Some(s) = fc.report.stages.iter_mut().find(|s| timed_out(s)) {
                s.notes.push(format!(
                    "this function's share of the time budget: {} s of {} s (the functions of a \
                     file share --timeout)",
                    own.timeout.map_or(0.0, |t| t.as_secs_f64()),
                    budget.timeout.map_or(0.0, |t| t.as_secs_f64())
                ));
            }
        }
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
    Ok(report::render(a, &reports, &only_one))
}

/// Checks function `config.function` of LLVM IR already read against
/// convcheck's own passes (`config.passes`, run on the mapped module), with
/// the module's own CFG semantics as the reference: the explorer's check of
/// LLVM IR, which runs no external tool. The function is compared as
/// `check A.ll B.ll` compares it (a function outside the model is
/// `inconclusive` with the construct named); each pass is a stage, and a
/// pass whose contract removes barriers may remove them, as in a kernel's
/// check.
pub fn check_builtin_passes(
    loaded: &Loaded,
    config: &crate::config::CheckConfig,
    budget: &Budget,
) -> Result<CheckReport, Outcome> {
    let Some(name) = config.function.clone() else {
        return Err(Outcome::usage("give the function to check"));
    };
    let mut stages = Vec::new();
    let mut allow = crate::engine::Allowance::Exact;
    let own = format!("@{name}:");
    let applied = crate::apply_passes(&loaded.mapped.module, &config.passes)?;
    for ((pass, notes, module), given) in applied.into_iter().zip(&config.passes) {
        let p = convcheck_transforms::lookup(given)
            .map_err(|e| Outcome::usage(format!("--pass {given}: {e}")))?;
        if p.contract() == convcheck_transforms::Contract::RemovesBarriers {
            allow = crate::engine::Allowance::Barriers;
        }
        let mut after = loaded.clone();
        after.file = format!("{} after {pass}", loaded.file);
        after.text = String::new();
        after.mapped.module = module;
        after.bodies = HashMap::new();
        after.violations = Vec::new();
        stages.push(StageModule {
            level: format!("after {pass}"),
            name: pass,
            loaded: after,
            notes: notes
                .into_iter()
                .filter(|n| n.starts_with(&own) || !n.starts_with('@'))
                .collect(),
            only_if_changed: false,
            allow,
        });
    }
    let reference = Ref::Ll(Box::new(loaded.clone()));
    let fc = compare::check_function(
        &loaded.file,
        &name,
        &reference,
        &stages,
        config,
        (budget, crate::symbolic::Engine::Auto, false),
        false,
        &mut |_| {},
    )?;
    Ok(fc.report)
}

/// The JSON object of one function's check on LLVM IR, as `check
/// --format json` prints it (without replay lines that would not run).
pub fn report_json(report: &CheckReport) -> serde_json::Value {
    report::json_of(report)
}
