//! One program of `convcheck fuzz --opt` through the real tools: its C
//! text compiled by clang (`-O0 -Xclang -disable-O0-optnone`, the front
//! end of `check --frontend clang`, [`crate::llvm::frontend`]), the
//! result run through `opt -passes=PIPELINE -print-changed=quiet
//! -print-module-scope -opt-bisect-limit=-1`, and every function defined
//! in both compared as `check --reference cfg` compares it: clang's output
//! is the reference, each pass that changed the function a stage, and the
//! first violated stage names the pass. Time spent in clang and opt is
//! measured apart from convcheck's own (reading the modules, comparing).

use crate::engine::{
    compare_any_hierarchy, compare_stages, Allowance, Budget, Limits, Outcome as EngineOutcome,
    Property, Side,
};
use crate::llvm::{dumps, frontend, read_ll, tools, Loaded};
use convcheck_ir::cycles::{all_hierarchies, HIERARCHY_CAP};
use convcheck_ir::exec::cfg::CfgProgram;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The tools of a run.
pub struct Tools {
    /// The clang binary.
    pub clang: String,
    /// The opt binary.
    pub opt: String,
    /// The `-passes=` pipeline.
    pub pipeline: String,
    /// Seconds each run may take.
    pub timeout: Duration,
}

/// Where the time went.
#[derive(Clone, Copy, Debug, Default)]
pub struct Times {
    /// In clang.
    pub clang: Duration,
    /// In opt.
    pub opt: Duration,
    /// In convcheck's reading of the modules and comparing.
    pub check: Duration,
}

/// What one program gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict1 {
    /// Every function compared kept the properties.
    Preserved,
    /// The first violated function's property, the stage that broke it
    /// (as opt names the pass) and the function.
    Violated {
        property: Property,
        stage: String,
        function: String,
    },
    /// Why the program could not be decided (a construct outside the
    /// model, named; a bound).
    Inconclusive(String),
    /// clang or opt failed, or printed what convcheck cannot read: never a
    /// verdict.
    Failed(String),
}

impl Verdict1 {
    /// The pass class of a violation's stage (`SimplifyCFGPass`).
    pub fn pass_class(&self) -> Option<&str> {
        match self {
            Verdict1::Violated { stage, .. } => Some(dumps::pass_class(stage)),
            _ => None,
        }
    }
}

/// Removes temporary folders from a tool's message, so that reports do
/// not depend on their random names: `dir` (the run's folder) and the
/// folders the tool runners make (`.../.tmpXXXX/`).
pub fn scrub(message: &str, dir: &Path) -> String {
    let mut m = message.replace(&format!("{}/", dir.display()), "");
    let tmp = format!("{}/.tmp", std::env::temp_dir().display());
    while let Some(k) = m.find(&tmp) {
        let rest = &m[k + tmp.len()..];
        let end = rest.find('/').map_or(rest.len(), |e| e + 1);
        m.replace_range(k..k + tmp.len() + end, "");
    }
    m
}

/// Compiles and optimizes the C text `c_text` (written as `dir/kernel.c`)
/// and checks it.
pub fn examine(
    tools: &Tools,
    c_text: &str,
    dir: &Path,
    limits: Limits,
    times: &mut Times,
) -> Verdict1 {
    match run(tools, c_text, dir, limits, times) {
        Ok(v) => v,
        Err(e) => Verdict1::Failed(scrub(&e, dir)),
    }
}

fn run(
    tools: &Tools,
    c_text: &str,
    dir: &Path,
    limits: Limits,
    times: &mut Times,
) -> Result<Verdict1, String> {
    let c_path = dir.join("kernel.c");
    std::fs::write(&c_path, c_text).map_err(|e| format!("{}: {e}", c_path.display()))?;
    let t = Instant::now();
    let compiled = frontend::compile(
        frontend::Frontend::Clang,
        &c_path.display().to_string(),
        Some(&tools.clang),
        tools.timeout,
    );
    times.clang += t.elapsed();
    let (ll, _) = compiled?;
    let t = Instant::now();
    let reference = read_ll("kernel.ll", &ll)
        .map_err(|e| format!("convcheck cannot read clang's output: {e}"))?;
    times.check += t.elapsed();
    let in_path = dir.join("input.ll");
    let out_path: PathBuf = dir.join("output.ll");
    std::fs::write(&in_path, &ll).map_err(|e| format!("{}: {e}", in_path.display()))?;
    let args: Vec<String> = vec![
        format!("-passes={}", tools.pipeline),
        "-print-changed=quiet".into(),
        "-print-module-scope".into(),
        "-opt-bisect-limit=-1".into(),
        "-S".into(),
        in_path.display().to_string(),
        "-o".into(),
        out_path.display().to_string(),
    ];
    let t = Instant::now();
    let ran = tools::run(&tools.opt, &args, &out_path, tools.timeout);
    times.opt += t.elapsed();
    let ran = ran?;
    let t = Instant::now();
    let verdict = compare_all(&reference, &ran.stdout, &ran.stderr, limits);
    times.check += t.elapsed();
    verdict
}

/// A stage: a module after a pass (or after the whole pipeline).
struct Stage {
    name: String,
    loaded: Loaded,
    /// Kept for a function only when it changed it.
    only_if_changed: bool,
}

fn compare_all(
    reference: &Loaded,
    output: &str,
    stderr: &str,
    limits: Limits,
) -> Result<Verdict1, String> {
    let mut stages = Vec::new();
    for d in dumps::split(stderr) {
        let name = match d.bisect {
            Some(n) => format!("{} (opt-bisect {n})", d.pass),
            None => d.pass.clone(),
        };
        let loaded = read_ll(&format!("kernel.ll after {}", d.pass), &d.text).map_err(|e| {
            format!(
                "convcheck cannot read opt's module after {} (standard error line {}): {e}",
                d.pass, d.line
            )
        })?;
        stages.push(Stage {
            name,
            loaded,
            only_if_changed: true,
        });
    }
    let last = read_ll("kernel.ll after opt", output)
        .map_err(|e| format!("convcheck cannot read opt's output: {e}"))?;
    if stages.is_empty() {
        stages.push(Stage {
            name: "the pipeline (no pass changed the module)".into(),
            loaded: last.clone(),
            only_if_changed: false,
        });
    }
    let mut inconclusive: Option<String> = None;
    for name in reference
        .defined
        .iter()
        .filter(|n| last.defined.contains(n))
    {
        match check_function(reference, name, &stages, limits) {
            Verdict1::Preserved => {}
            Verdict1::Inconclusive(w) => {
                inconclusive.get_or_insert(w);
            }
            v => return Ok(v),
        }
    }
    Ok(inconclusive.map_or(Verdict1::Preserved, Verdict1::Inconclusive))
}

/// Function `name` against every stage that changed it, as `check`
/// compares it (`crate::llvm`'s `compare`): static rules of tokens first,
/// a function outside the model inconclusive with the construct named.
fn check_function(reference: &Loaded, name: &str, stages: &[Stage], limits: Limits) -> Verdict1 {
    let Some(ri) = reference.index(name) else {
        return Verdict1::Inconclusive(
            reference
                .skipped(name)
                .unwrap_or_else(|| format!("@{name} is not mapped")),
        );
    };
    if let Some(v) = reference.violations.iter().find(|v| v.function == name) {
        return Verdict1::Inconclusive(format!(
            "clang's output breaks a static rule of convergence control tokens: {}",
            v.message
        ));
    }
    let mut kept: Vec<&Stage> = Vec::new();
    let mut previous = reference.bodies.get(name).cloned();
    for s in stages {
        if !s.loaded.defined.iter().any(|d| d == name) {
            continue;
        }
        let body = s.loaded.bodies.get(name).cloned();
        if s.only_if_changed && body == previous {
            continue;
        }
        previous = body;
        kept.push(s);
    }
    if kept.is_empty() {
        match stages
            .iter()
            .rev()
            .find(|s| s.loaded.defined.iter().any(|d| d == name))
        {
            Some(s) => kept.push(s),
            None => return Verdict1::Preserved,
        }
    }
    // Decided without running: a broken static rule, an unmapped function.
    let mut decided: Vec<Option<EngineOutcome>> = Vec::new();
    let mut programs: Vec<(CfgProgram, usize)> = Vec::new();
    for s in &kept {
        if s.loaded.violations.iter().any(|v| v.function == name) {
            // Reported below as a violation of this stage (LLVM gives a
            // module that breaks a static rule no semantics to compare).
            decided.push(Some(EngineOutcome::Inconclusive("static rule".into())));
            continue;
        }
        match s.loaded.index(name) {
            Some(i) => {
                programs.push((CfgProgram::new(s.loaded.mapped.module.clone()), i));
                decided.push(None);
            }
            None => decided.push(Some(EngineOutcome::Inconclusive(
                s.loaded
                    .skipped(name)
                    .unwrap_or_else(|| format!("@{name} is not mapped")),
            ))),
        }
    }
    let rp = CfgProgram::new(reference.mapped.module.clone());
    let rs = Side::cfg(&rp, ri);
    let sides: Vec<(Side, Allowance)> = programs
        .iter()
        .map(|(p, i)| (Side::cfg(p, *i), Allowance::Exact))
        .collect();
    let budget = Budget::default();
    let outcomes: Vec<EngineOutcome> = if sides.is_empty() {
        Vec::new()
    } else if all_hierarchies(&rp.module.functions[ri], 2).len() > 1 {
        sides
            .iter()
            .map(|(t, allow)| compare_any_hierarchy(&rs, t, *allow, limits, HIERARCHY_CAP))
            .collect()
    } else {
        compare_stages(&rs, &sides, limits, &budget, &mut |_| {}).outcomes
    };
    let mut outcomes = outcomes.into_iter();
    let mut first_inconclusive = None;
    for (s, d) in kept.iter().zip(decided) {
        let static_rule = s.loaded.violations.iter().any(|v| v.function == name);
        let outcome = match d {
            Some(_) if static_rule => {
                return Verdict1::Violated {
                    property: Property::Convergence,
                    stage: s.name.clone(),
                    function: name.to_string(),
                }
            }
            Some(o) => o,
            None => outcomes
                .next()
                .unwrap_or_else(|| EngineOutcome::Inconclusive("not compared".into())),
        };
        match outcome {
            EngineOutcome::Violated(f) => {
                return Verdict1::Violated {
                    property: f.property,
                    stage: s.name.clone(),
                    function: name.to_string(),
                }
            }
            EngineOutcome::Inconclusive(w) => {
                first_inconclusive.get_or_insert(format!("@{name}, {}: {w}", s.name));
            }
            EngineOutcome::Preserved { .. } => {}
        }
    }
    first_inconclusive.map_or(Verdict1::Preserved, Verdict1::Inconclusive)
}

/// Runs `bin args` for a written case, keeping its output file.
pub fn run_for_case(
    bin: &str,
    args: &[String],
    out: &Path,
    timeout: Duration,
) -> Result<String, String> {
    tools::run(bin, args, out, timeout).map(|r| r.stdout)
}
