//! The uniformity campaign (`convcheck fuzz --uniformity`): random AMDGPU
//! functions (random CFGs with irreducible cycles,
//! `convcheck_generators::uniform_fn`, and a share of generated kernels
//! lowered to LLVM IR and promoted to SSA by `opt -passes=sroa`) checked in
//! batches (one opt run per batch), every finding counted by class, and the
//! first findings of each class minimized to the smallest function that
//! still shows a finding of that class.
//!
//! Determinism: function `i` of a run comes from the run's seed and `i`
//! alone, so the findings and classes of a seed are the same on every
//! machine; only the statistics (time) differ.

use super::report::Report;
use super::{check_text, UniformityConfig};
use crate::Error;
use convcheck_generators::uniform_fn::{generate_seeded, module_text, UniformFn, UniformFnConfig};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The work (z3 resource units) one query of a campaign may do. Measured
/// on seed 3's first 300 functions: every query of a function without
/// products of unknowns decides within it.
pub const CAMPAIGN_RLIMIT: u32 = 3_000_000;

/// What a campaign runs.
#[derive(Clone, Debug)]
pub struct CampaignConfig {
    /// The run's seed.
    pub seed: u64,
    /// The first function's number: a campaign that stopped early resumes
    /// here (rounded down to a whole batch, so batch numbers and shards
    /// stay those of the whole run).
    pub from: u64,
    /// Functions to examine: those numbered `from` up to `count`.
    pub count: u64,
    /// Stop after this long, whatever the count.
    pub time: Option<Duration>,
    /// Functions per opt run.
    pub batch: usize,
    /// How each batch is checked (opt, bounds; its `timeout` is per batch).
    pub check: UniformityConfig,
    /// The random functions.
    pub generator: UniformFnConfig,
    /// Percent of the functions that are generated kernels (lowered,
    /// written as LLVM IR for amdgcn, promoted by `opt -passes=sroa`)
    /// rather than random CFGs.
    pub kernel_percent: u8,
    /// Minimized reproducers kept per class.
    pub minimize_per_class: usize,
    /// `(i, n)`: only functions whose batch number is `i` modulo `n`.
    pub shard: Option<(u64, u64)>,
}

/// A `--shard I/N` as `(I, N)`, `0 <= I < N` (else a usage error).
pub fn parse_shard(s: &str) -> Result<(u64, u64), Error> {
    match s
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
    {
        Some((i, n)) if n > 0 && i < n => Ok((i, n)),
        _ => Err(Error::usage(format!(
            "--shard {s}: expected I/N with 0 <= I < N"
        ))),
    }
}

impl Default for CampaignConfig {
    fn default() -> CampaignConfig {
        CampaignConfig {
            seed: 1,
            from: 0,
            count: 1000,
            time: None,
            batch: 100,
            check: UniformityConfig {
                max_iters: 2,
                // A campaign counts findings: no imprecision, no telling
                // unreached values from uniform ones (half the queries).
                imprecision: false,
                unreached: false,
                // Work, not time, bounds each query (deterministic
                // answers); the time budget is a safety net.
                rlimit: CAMPAIGN_RLIMIT,
                timeout: Duration::from_secs(3600),
                ..UniformityConfig::default()
            },
            generator: UniformFnConfig::default(),
            kernel_percent: 5,
            minimize_per_class: 1,
            shard: None,
        }
    }
}

/// One class of findings.
#[derive(Clone, Debug, Serialize)]
pub struct ClassReport {
    /// Its name (`phi-join`, ...).
    pub class: String,
    /// Findings of the class.
    pub findings: u64,
    /// Functions with at least one finding of the class.
    pub functions: u64,
    /// The first function that showed it.
    pub first: String,
    /// The first few functions that showed it (`@f123 of batch-100.ll`).
    pub examples: Vec<String>,
    /// What the upstream reports say of this shape.
    pub upstream: &'static str,
    /// Minimized reproducers: LLVM IR text, each with the report on it.
    pub reproducers: Vec<Reproducer>,
}

/// A minimized function and what the oracle says of it.
#[derive(Clone, Debug, Serialize)]
pub struct Reproducer {
    /// The function it came from.
    pub from: String,
    /// Instructions before and after minimizing (phis, values, branch
    /// targets, blocks).
    pub size: [usize; 2],
    /// The module.
    pub text: String,
    /// The report on it.
    pub report: String,
}

/// What a campaign found.
#[derive(Clone, Debug, Serialize)]
pub struct CampaignReport {
    /// The seed.
    pub seed: u64,
    /// The opt command of the first batch (with its temporary file).
    pub command: String,
    /// Functions generated and examined.
    pub functions: u64,
    /// Functions the model examined completely (every value decided).
    pub complete: u64,
    /// Functions not examined at all (a construct outside the model), or
    /// batches opt rejected, counted in functions.
    pub not_examined: u64,
    /// Values and branches LLVM calls uniform that the model examined.
    pub claims: u64,
    /// Values whose query was undecided (time, memory).
    pub undecided: u64,
    /// Imprecision: values LLVM calls divergent that the model shows
    /// uniform within the bounds.
    pub imprecise: u64,
    /// Findings over all functions.
    pub findings: u64,
    /// Functions with a finding.
    pub functions_with_findings: u64,
    /// Per class, most findings first.
    pub classes: Vec<ClassReport>,
    /// Errors of whole batches (opt failed), first few.
    pub errors: Vec<String>,
    /// Timings (the only machine-dependent part).
    pub stats: Stats,
}

/// Timings.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Wall-clock seconds of the whole campaign.
    pub seconds: f64,
    /// Seconds spent minimizing.
    pub minimize_seconds: f64,
    /// Functions per second, minimizing excluded.
    pub functions_per_second: f64,
}

/// What the upstream reports say of a class.
pub fn upstream(class: &str) -> &'static str {
    let base = class.trim_start_matches("irreducible-");
    match base {
        "phi-join" => {
            "llvm/llvm-project#137277: a phi at the join of a divergent branch whose arms are \
             longer than one block is called uniform (the early stop of the join search); \
             opt-22 agrees with the model on these"
        }
        "consequence" => {
            "not a shape of its own: a value LLVM calls uniform because it trusted an operand \
             that is itself a finding"
        }
        "phi-join-at-cycle-exit" => {
            "llvm/llvm-project#216100 / PR #216296: a cycle-exit phi whose incoming values \
             arrive from a divergent exit and another exit is called uniform; opt-22 still \
             does"
        }
        "phi-join-after-cycle-exit" => {
            "no upstream report of its own: paths that leave a cycle by different exits and \
             join further on (here at an enclosing cycle's header) through arms of more than \
             one block; opt-22 agrees with the model on the reproducers, so the fix of \
             #137277's join search covers it"
        }
        "phi-temporal-at-cycle-exit"
        | "value-temporal-at-cycle-exit"
        | "branch-temporal-at-cycle-exit" => {
            "temporal divergence (LLVM's documented notion; #206435 is the opposite direction, \
             a value wrongly called divergent, which the oracle counts as imprecision)"
        }
        _ => "no upstream report of this shape known to convcheck",
    }
}

/// The seed of function `i` of a run.
fn function_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i)
}

/// Whether function `i` is a generated kernel.
fn is_kernel(config: &CampaignConfig, i: u64) -> bool {
    (function_seed(config.seed, i) % 100) < u64::from(config.kernel_percent)
}

/// Time the minimization of a campaign may take after the examination,
/// whatever `--time` left (a run stopped by `--time` still minimizes): the
/// classes' first functions in the order found, each to the smallest
/// function reached when the time runs out.
pub const MINIMIZE_TIME: Duration = Duration::from_secs(600);

/// One module of a batch: its file name, text, and the random functions it
/// holds (`None` for a generated kernel).
type BatchText = (String, String, Option<Vec<UniformFn>>);

/// What a campaign gathers while it examines batches.
struct Tally {
    report: CampaignReport,
    classes: BTreeMap<String, ClassReport>,
    /// The random functions kept for minimizing, per class.
    to_minimize: Vec<(String, UniformFn)>,
}

/// Runs a campaign (see the module documentation).
pub fn campaign(config: &CampaignConfig) -> Result<CampaignReport, Error> {
    let start = Instant::now();
    let bin = super::opt_binary(&config.check)?;
    let check = UniformityConfig {
        opt_bin: Some(bin.clone()),
        triple: Some(super::DEFAULT_TRIPLE.into()),
        ..config.check.clone()
    };
    let mut tally = Tally {
        report: empty_report(config.seed),
        classes: BTreeMap::new(),
        to_minimize: Vec::new(),
    };
    let batch = config.batch.max(1) as u64;
    let mut batch_no = config.from / batch;
    let mut i = batch_no * batch;
    let out_of_time = || config.time.is_some_and(|t| start.elapsed() >= t);
    while i < config.count && !out_of_time() {
        let end = (i + batch).min(config.count);
        let mine = config
            .shard
            .is_none_or(|(k, n)| n == 0 || batch_no % n == k);
        batch_no += 1;
        if mine {
            tally.report.functions += end - i;
            for (name, text, functions) in batch_texts(config, i, end, &bin, check.timeout) {
                examine(
                    config,
                    &check,
                    &name,
                    &text,
                    functions.as_deref(),
                    &mut tally,
                );
            }
        }
        i = end;
    }
    let examined_at = start.elapsed();
    let Tally {
        mut report,
        mut classes,
        to_minimize,
    } = tally;
    // Minimization has a budget of its own: a run stopped by `--time`
    // still minimizes the first function of each class.
    let deadline = Instant::now() + MINIMIZE_TIME;
    for (class, u) in to_minimize {
        if Instant::now() >= deadline {
            break;
        }
        if let Some(r) = minimize(&u, &class, &check, deadline) {
            if let Some(c) = classes.get_mut(&class) {
                c.reproducers.push(r);
            }
        }
    }
    let mut list: Vec<ClassReport> = classes.into_values().collect();
    list.sort_by(|a, b| b.findings.cmp(&a.findings).then(a.class.cmp(&b.class)));
    report.classes = list;
    let total = start.elapsed();
    report.stats = Stats {
        seconds: total.as_secs_f64(),
        minimize_seconds: (total - examined_at).as_secs_f64(),
        functions_per_second: report.functions as f64 / examined_at.as_secs_f64().max(1e-9),
    };
    Ok(report)
}

/// A report with nothing counted yet.
fn empty_report(seed: u64) -> CampaignReport {
    CampaignReport {
        seed,
        command: String::new(),
        functions: 0,
        complete: 0,
        not_examined: 0,
        claims: 0,
        undecided: 0,
        imprecise: 0,
        findings: 0,
        functions_with_findings: 0,
        classes: Vec::new(),
        errors: Vec::new(),
        stats: Stats {
            seconds: 0.0,
            minimize_seconds: 0.0,
            functions_per_second: 0.0,
        },
    }
}

/// The modules of functions `i..end`: one of the random functions, and
/// one per generated kernel.
fn batch_texts(
    config: &CampaignConfig,
    i: u64,
    end: u64,
    bin: &str,
    timeout: Duration,
) -> Vec<BatchText> {
    let mut randoms: Vec<UniformFn> = Vec::new();
    let mut kernels: Vec<(u64, String)> = Vec::new();
    for k in i..end {
        if is_kernel(config, k) {
            if let Some(text) = kernel_text(config.seed, k, bin, timeout) {
                kernels.push((k, text));
            }
        } else {
            randoms.push(generate_seeded(
                &format!("f{k}"),
                &config.generator,
                function_seed(config.seed, k),
            ));
        }
    }
    let mut texts: Vec<BatchText> = Vec::new();
    if !randoms.is_empty() {
        texts.push((
            format!("batch-{i}.ll"),
            module_text(&randoms),
            Some(randoms),
        ));
    }
    for (k, text) in kernels {
        texts.push((format!("kernel-{k}.ll"), text, None));
    }
    texts
}

/// Checks one module and counts what it shows.
fn examine(
    config: &CampaignConfig,
    check: &UniformityConfig,
    name: &str,
    text: &str,
    functions: Option<&[UniformFn]>,
    tally: &mut Tally,
) {
    let report = &mut tally.report;
    let r = match check_text(name, text, check) {
        Ok(r) => r,
        Err(e) => {
            report.not_examined += functions.map_or(1, <[UniformFn]>::len) as u64;
            if report.errors.len() < 5 {
                report.errors.push(e.to_string());
            }
            return;
        }
    };
    if report.command.is_empty() {
        report.command = r.command.clone();
    }
    for f in &r.functions {
        if f.reason.is_some() && f.values + f.branches == 0 {
            report.not_examined += 1;
        } else if !f.incomplete() {
            report.complete += 1;
        }
        report.claims += (f.model_uniform + f.findings.len()) as u64;
        report.undecided += f.unknown.len() as u64;
        report.imprecise += f.imprecise.len() as u64;
        report.findings += f.findings.len() as u64;
        if !f.findings.is_empty() {
            report.functions_with_findings += 1;
        }
        let mut seen_here: Vec<&str> = Vec::new();
        for x in &f.findings {
            let c = tally
                .classes
                .entry(x.class.clone())
                .or_insert_with(|| ClassReport {
                    class: x.class.clone(),
                    findings: 0,
                    functions: 0,
                    first: format!("@{} of {name} (seed {})", f.name, config.seed),
                    examples: Vec::new(),
                    upstream: upstream(&x.class),
                    reproducers: Vec::new(),
                });
            c.findings += 1;
            if seen_here.contains(&x.class.as_str()) {
                continue;
            }
            seen_here.push(&x.class);
            c.functions += 1;
            if c.examples.len() < 8 {
                c.examples.push(format!("@{} of {name}", f.name));
            }
            let kept = tally
                .to_minimize
                .iter()
                .filter(|(k, _)| *k == x.class)
                .count();
            if kept < config.minimize_per_class {
                if let Some(u) = functions.and_then(|fs| fs.iter().find(|u| u.name == f.name)) {
                    tally.to_minimize.push((x.class.clone(), u.clone()));
                }
            }
        }
    }
}

/// Generated kernel `k` as LLVM IR for amdgcn, after `opt -passes=sroa`
/// (its variables in registers, as clang -O1 leaves them). `None` when a
/// step fails (the kernel is then not counted as examined).
fn kernel_text(seed: u64, k: u64, bin: &str, timeout: Duration) -> Option<String> {
    let config = convcheck_generators::Config::default();
    let file = convcheck_generators::generate_seeded(&config, function_seed(seed, k));
    let kernel = convcheck_lang::sema::Kernel::new(&format!("kernel-{k}.c"), file).ok()?;
    let module = convcheck_lang::lower::lower(&kernel, false);
    let ll = convcheck_llvm::write::module_text(&module);
    // An AMDGPU kernel: its arguments uniform, its target divergent.
    let ll = format!("target triple = \"amdgcn-amd-amdhsa\"\n{ll}")
        .replace("define void @kernel(", "define amdgpu_kernel void @kernel(");
    let dir = tempfile::tempdir().ok()?;
    let input = dir.path().join("kernel.ll");
    let output = dir.path().join("kernel.sroa.ll");
    std::fs::write(&input, ll).ok()?;
    let args = vec![
        "-passes=sroa".to_string(),
        "-S".into(),
        input.display().to_string(),
        "-o".into(),
        output.display().to_string(),
    ];
    crate::llvm::tools::run(bin, &args, &output, timeout)
        .ok()
        .map(|r| r.stdout)
}

/// Whether function `u` alone still shows a finding of `class` (one whose
/// runs end within the bounds, when `complete`).
fn shows(u: &UniformFn, class: &str, check: &UniformityConfig, complete: bool) -> Option<Report> {
    let text = module_text(std::slice::from_ref(u));
    let r = check_text("reproducer.ll", &text, check).ok()?;
    r.functions
        .iter()
        .flat_map(|f| f.findings.iter())
        .any(|x| x.class == class && (!complete || !x.cut))
        .then_some(r)
}

/// Shrinks `u` greedily while it shows a finding of `class`
/// ([`UniformFn::candidates`], first improvement, until none applies).
fn minimize(
    u: &UniformFn,
    class: &str,
    check: &UniformityConfig,
    deadline: Instant,
) -> Option<Reproducer> {
    let mut best = u.clone();
    best.name = "reproducer".into();
    // A finding whose runs end within the bounds stays one (a reproducer
    // that loops forever is correct but harder to read).
    let complete = shows(&best, class, check, true).is_some();
    let mut report = shows(&best, class, check, complete)?;
    let before = best.size();
    loop {
        let mut improved = false;
        if Instant::now() >= deadline {
            // Out of minimization time: the smallest function so far.
            break;
        }
        for c in best.candidates() {
            if c.size() >= best.size() && c.blocks.len() >= best.blocks.len() {
                // Same size: only a constant for a value; still simpler.
                if c == best {
                    continue;
                }
            }
            if let Some(r) = shows(&c, class, check, complete) {
                best = c;
                report = r;
                improved = true;
                break;
            }
        }
        if !improved {
            break;
        }
    }
    // The reproducer's report in full (imprecision and unreached values
    // too), as `convcheck uniformity` prints it.
    let text = module_text(std::slice::from_ref(&best));
    let full = UniformityConfig {
        imprecision: true,
        unreached: true,
        ..check.clone()
    };
    if let Ok(r) = check_text("reproducer.ll", &text, &full) {
        report = r;
    }
    Some(Reproducer {
        from: u.name.clone(),
        size: [before, best.size()],
        text,
        report: report.text(),
    })
}

impl CampaignReport {
    /// The report as text.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "uniformity campaign, seed {}", self.seed);
        let _ = writeln!(out, "LLVM's claims: {}", self.command);
        let _ = writeln!(
            out,
            "{} functions: {} examined completely, {} not examined; {} uniform claims examined, {} \
             undecided, {} imprecise",
            self.functions, self.complete, self.not_examined, self.claims, self.undecided, self.imprecise
        );
        let _ = writeln!(
            out,
            "{} findings in {} functions, {} classes",
            self.findings,
            self.functions_with_findings,
            self.classes.len()
        );
        for c in &self.classes {
            let _ = writeln!(
                out,
                "\nclass {}: {} findings in {} functions (first: {})",
                c.class, c.findings, c.functions, c.first
            );
            let _ = writeln!(out, "  upstream: {}", c.upstream);
            for r in &c.reproducers {
                let _ = writeln!(
                    out,
                    "  minimized {} from {} to {} instructions:",
                    r.from, r.size[0], r.size[1]
                );
                for l in r.text.lines() {
                    let _ = writeln!(out, "    {l}");
                }
            }
        }
        for e in &self.errors {
            let _ = writeln!(out, "\nbatch error: {e}");
        }
        let _ = writeln!(
            out,
            "\ntime: {:.1} s ({:.1} functions/s; minimizing {:.1} s)",
            self.stats.seconds, self.stats.functions_per_second, self.stats.minimize_seconds
        );
        out
    }
}
