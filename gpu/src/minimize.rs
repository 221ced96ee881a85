//! Minimizing a generated kernel whose device behaviour differs from the
//! model (`convcheck fuzz --gpu`, issue 24 item 2).
//!
//! The difference of a kernel ([`Difference`]) is the first of its model
//! levels (in report order) that differs, and the kind found there, in
//! order of severity: single-thread *behaviour*, then a *merge* (the device
//! ran together what the model keeps apart), then a *split*. The kernel is
//! shrunk with the generator's own shrinker
//! ([`convcheck_generators::shrink_kernel`]: every candidate is a valid
//! kernel read back from its text) while that kind persists at that level:
//! each candidate is prepared, run on the same [`Runner`] with the same
//! scenario seed, and compared with the model again. Every such
//! run-and-compare is one *device run* (one launch per scenario); the
//! number of device runs per kernel is bounded by
//! [`MinimizeConfig::max_runs`], and a minimization the budget cut is
//! reported as cut (its kernel is the smallest found so far, not a
//! minimum). A candidate that cannot be prepared, run or compared counts
//! as a run and is rejected.
//!
//! Only kernel-language files are minimized (the shrinker works on the
//! kernel language's syntax tree); an LLVM IR file is reported as not
//! minimized, with the reason.

use crate::replay::{KernelResult, ReplayReport};
use crate::runner::Runner;
use crate::session::{live_on, GpuConfig};
use crate::GpuError;
use convcheck_generators::analysis::statement_count;
use convcheck_lang::syntax::{parse, print};
use serde::Serialize;
use std::path::Path;

/// How a kernel is minimized.
#[derive(Clone, Debug)]
pub struct MinimizeConfig {
    /// Device runs (one kernel's scenarios run and compared) one kernel's
    /// minimization may use; 0 turns minimization off.
    pub max_runs: usize,
}

impl Default for MinimizeConfig {
    fn default() -> MinimizeConfig {
        MinimizeConfig { max_runs: 64 }
    }
}

/// The kind of a difference, most severe first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffKind {
    /// Some thread's sequence of logged operations is not the model's.
    Behaviour,
    /// The device ran together what the model keeps apart.
    Merge,
    /// The device ran apart what the model joins.
    Split,
}

impl DiffKind {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            DiffKind::Behaviour => "single-thread behaviour",
            DiffKind::Merge => "merge",
            DiffKind::Split => "split",
        }
    }
}

/// What a minimization keeps: this kind at this model level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The kind.
    pub kind: DiffKind,
    /// The model level's name ([`crate::model::Level::name`]).
    pub level: String,
}

/// The kinds one kernel result shows (compared scenarios only).
fn kinds(k: &KernelResult) -> Vec<DiffKind> {
    let mut out = Vec::new();
    if k.same_behaviour < k.scenarios {
        out.push(DiffKind::Behaviour);
    }
    if k.pairs.merges > 0 {
        out.push(DiffKind::Merge);
    }
    if k.pairs.splits > 0 {
        out.push(DiffKind::Split);
    }
    out
}

/// The difference of kernel `id` in `rep` (see the module documentation),
/// or `None` when it is identical at every level compared.
pub fn difference_of(rep: &ReplayReport, id: &str) -> Option<Difference> {
    rep.kernels.iter().filter(|k| k.id == id).find_map(|k| {
        kinds(k).first().map(|&kind| Difference {
            kind,
            level: k.level.clone(),
        })
    })
}

/// Whether kernel `id` of `rep` still shows `d`.
pub fn shows(rep: &ReplayReport, id: &str, d: &Difference) -> bool {
    rep.kernels
        .iter()
        .any(|k| k.id == id && k.level == d.level && kinds(k).contains(&d.kind))
}

/// One minimized kernel.
#[derive(Clone, Debug, Serialize)]
pub struct Minimized {
    /// The kernel's id in the campaign's recording.
    pub id: String,
    /// The original file's name.
    pub file: String,
    /// The difference kept.
    pub difference: Difference,
    /// Statements of the original kernel.
    pub statements_before: usize,
    /// Statements of the minimized kernel.
    pub statements_after: usize,
    /// Device runs used.
    pub runs: usize,
    /// The budget ([`MinimizeConfig::max_runs`]).
    pub budget: usize,
    /// Whether the budget cut the minimization short.
    pub budget_cut: bool,
    /// The minimized kernel's text.
    pub text: String,
    /// Where it was written, if it was.
    pub written: Option<String>,
}

/// Minimizes `text` (kernel file `file`) while it shows `target` on
/// `runner` (see the module documentation). The candidates' comparisons
/// use temporary folders; `cfg.record` is ignored.
pub fn minimize(
    file: &str,
    text: &str,
    cfg: &GpuConfig,
    runner: &dyn Runner,
    target: &Difference,
    mcfg: &MinimizeConfig,
) -> Result<Minimized, GpuError> {
    if file.ends_with(".ll") {
        return Err(GpuError::Unsupported(format!(
            "{file}: LLVM IR is not minimized (the shrinker works on kernel files)"
        )));
    }
    let ast = parse(file, text).map_err(|d| GpuError::Input(d.to_string()))?;
    let cfg = GpuConfig {
        record: None,
        ..cfg.clone()
    };
    let mut runs = 0usize;
    let mut cut = false;
    let best = convcheck_generators::shrink_kernel(&ast, |candidate| {
        if runs >= mcfg.max_runs {
            cut = true;
            return false;
        }
        runs += 1;
        let t = print(candidate);
        match live_on(&[(file.to_string(), t)], &cfg, runner) {
            Ok(r) => r
                .replay
                .kernels
                .first()
                .is_some_and(|k| shows(&r.replay, &k.id.clone(), target)),
            Err(_) => false,
        }
    });
    let id = crate::session::kernel_id(
        file,
        &crate::model::Subject::from_text(file, text, cfg.function.as_deref())?.function,
    );
    let name = Path::new(file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(file)
        .to_string();
    Ok(Minimized {
        id,
        file: name.clone(),
        difference: target.clone(),
        statements_before: statement_count(&ast),
        statements_after: statement_count(&best),
        runs,
        budget: mcfg.max_runs,
        budget_cut: cut,
        text: format!(
            "// minimized from {name} by convcheck fuzz --gpu: {} kept at the {} level \
             ({runs} device runs{})\n{}",
            target.kind.name(),
            target.level,
            if cut { ", cut by the budget" } else { "" },
            print(&best)
        ),
        written: None,
    })
}

/// A kernel that could not be minimized, with the reason.
#[derive(Clone, Debug, Serialize)]
pub struct NotMinimized {
    /// The kernel's id.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// What minimizing a campaign's differing kernels gave.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Minimization {
    /// Kernels minimized, in the report's order.
    pub minimized: Vec<Minimized>,
    /// Kernels that differ but could not be minimized.
    pub failed: Vec<NotMinimized>,
}

/// Minimizes every kernel of `files` whose comparison in `rep` differs
/// (identical kernels are not touched). With `cfg.record`, each minimized
/// kernel is written beside its original, as `kernels/STEM.min.c` in the
/// record folder.
pub fn minimize_differing(
    files: &[(String, String)],
    rep: &ReplayReport,
    cfg: &GpuConfig,
    runner: &dyn Runner,
    mcfg: &MinimizeConfig,
) -> Minimization {
    let mut out = Minimization::default();
    if mcfg.max_runs == 0 {
        return out;
    }
    let mut ids: Vec<&str> = Vec::new();
    for k in &rep.kernels {
        if !ids.contains(&k.id.as_str()) {
            ids.push(&k.id);
        }
    }
    for id in ids {
        let Some(target) = difference_of(rep, id) else {
            continue;
        };
        let Some(k) = rep.kernels.iter().find(|k| k.id == id) else {
            continue;
        };
        let base = Path::new(&k.file).file_name().and_then(|n| n.to_str());
        let Some((file, text)) = files
            .iter()
            .find(|(f, _)| Path::new(f).file_name().and_then(|n| n.to_str()) == base)
        else {
            continue;
        };
        let kcfg = GpuConfig {
            function: Some(k.function.clone()),
            ..cfg.clone()
        };
        match minimize(file, text, &kcfg, runner, &target, mcfg) {
            Ok(mut m) => {
                if let Some(dir) = &cfg.record {
                    let stem = Path::new(file)
                        .file_stem()
                        .and_then(|s| s.to_str())
                        .unwrap_or("kernel");
                    let path = dir.join("kernels").join(format!("{stem}.min.c"));
                    match std::fs::write(&path, &m.text) {
                        Ok(()) => m.written = Some(path.display().to_string()),
                        Err(e) => out.failed.push(NotMinimized {
                            id: id.to_string(),
                            reason: format!("{}: cannot write: {e}", path.display()),
                        }),
                    }
                }
                out.minimized.push(m);
            }
            Err(e) => out.failed.push(NotMinimized {
                id: id.to_string(),
                reason: e.to_string(),
            }),
        }
    }
    out
}
