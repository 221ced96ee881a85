//! Reports of a check: text (trace tables side by side, the replay line),
//! JSON and SARIF 2.1.0 (DESIGN.md 2.8, section 4). Renderers read a
//! [`CheckReport`] and nothing else.

use crate::check::CheckReport;
use crate::config::Reference;
use crate::engine::{grouped, Finding, Outcome as EngineOutcome};
use convcheck_ir::exec::{Event, Trace};
use convcheck_ir::table::{self, Table};
use serde_json::json;
use std::fmt::Write;

/// Builds the two tables of a finding.
pub(crate) fn tables(report: &CheckReport, f: &Finding) -> Result<(Table, Table), String> {
    let rows: Vec<String> = f.tids.iter().map(|t| format!("tid {t}")).collect();
    let runs = |ts: &[Trace]| -> Vec<Vec<Event>> { ts.iter().map(|t| t.events.clone()).collect() };
    let (r, t) = (runs(&f.reference), runs(&f.target));
    let rr: Vec<&[Event]> = r.iter().map(Vec::as_slice).collect();
    let tt: Vec<&[Event]> = t.iter().map(Vec::as_slice).collect();
    let reference = table::build(&report.reference_module, rows.clone(), &rr)?;
    let mut target = table::build(&report.target_module, rows, &tt)?;
    renumber(&reference, &mut target);
    Ok((reference, target))
}

/// Two renderings next to each other, or one after the other if wide.
fn side_by_side(left_title: &str, left: &str, right_title: &str, right: &str) -> String {
    let l: Vec<&str> = std::iter::once(left_title).chain(left.lines()).collect();
    let r: Vec<&str> = std::iter::once(right_title).chain(right.lines()).collect();
    let w = l.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    let rw = r.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    if w + rw + 4 > 120 {
        for line in l.iter().chain(std::iter::once(&"")).chain(r.iter()) {
            let _ = writeln!(out, "  {line}");
        }
        return out;
    }
    for k in 0..l.len().max(r.len()) {
        let a = l.get(k).copied().unwrap_or("");
        let b = r.get(k).copied().unwrap_or("");
        let pad = w - a.chars().count();
        let _ = writeln!(out, "  {a}{}    {b}", " ".repeat(pad));
    }
    out
}

thread_local! {
    static COMMAND_LINE: std::cell::RefCell<Option<Vec<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Records the command line of the command being run on this thread
/// (`cli::main_with_args` calls it), for the `"command_line"` of JSON
/// reports and the invocation of SARIF ones.
/// The program is recorded by its file name (`convcheck`), so that a
/// report does not depend on where the binary was built.
pub fn set_command_line(mut args: Vec<String>) {
    if let Some(program) = args.first_mut() {
        if let Some(name) = std::path::Path::new(program.as_str()).file_name() {
            *program = name.to_string_lossy().into_owned();
        }
    }
    COMMAND_LINE.with(|c| *c.borrow_mut() = Some(args));
}

/// The command line recorded by [`set_command_line`] on this thread.
pub fn command_line() -> Option<Vec<String>> {
    COMMAND_LINE.with(|c| c.borrow().clone())
}

/// How a side of a check is run again by `convcheck run`: the file, and
/// the flags that give its level and pipeline.
pub(crate) struct RunLine {
    /// The file `run` reads.
    pub file: String,
    /// The flags after `--function F`.
    pub flags: Vec<String>,
}

/// How the counterexamples of a report are replayed: the lines that print
/// the reference table and the target table of a violated stage. A
/// kernel's check replays with `convcheck run` on the kernel
/// ([`KernelReplay`]); a check on LLVM IR with `run` on `.ll` files, made
/// first where a stage's module is not a file (`crate::llvm::report`).
pub(crate) trait Replay {
    /// The line that prints `f`'s reference table, if there is one.
    fn reference(&self, report: &CheckReport, f: &Finding) -> Option<String>;
    /// The line that prints the target table of stage `stage`'s finding
    /// `f`, or why there is none (`None`: nothing to say).
    fn target(
        &self,
        report: &CheckReport,
        stage: usize,
        f: &Finding,
    ) -> Result<String, Option<String>>;
}

/// The replay lines of a kernel's check (docs/src/cli.md, replay lines).
pub(crate) struct KernelReplay;

impl Replay for KernelReplay {
    fn reference(&self, report: &CheckReport, f: &Finding) -> Option<String> {
        Some(replay(report, f))
    }

    fn target(
        &self,
        report: &CheckReport,
        stage: usize,
        f: &Finding,
    ) -> Result<String, Option<String>> {
        replay_target(report, stage, f).ok_or(None)
    }
}

/// The `convcheck run` line that replays a finding on `how`'s program
/// (whose module is `module`): the group size and the finding's thread
/// indices (`--group`, `--tids`), and one `--thread` per thread with the
/// values it reads (only the oracles the module has). Every word is
/// shell-quoted, so the line pastes into a shell as it is.
pub(crate) fn replay_on(
    how: &RunLine,
    function: &str,
    module: &convcheck_ir::Module,
    f: &Finding,
) -> String {
    use crate::pass_cmd::shell_quote as q;
    let mut s = format!("convcheck run {} --function {}", q(&how.file), q(function));
    for flag in &how.flags {
        let _ = write!(s, " {}", q(flag));
    }
    let tids: Vec<String> = f.tids.iter().map(u32::to_string).collect();
    let _ = write!(s, " --group {} --tids {}", f.group, tids.join(","));
    for v in &f.threads {
        let mut v = v.clone();
        v.0.retain(|name, _| module.oracle(name).is_some());
        let _ = write!(s, " --thread {}", q(&v.render()));
    }
    s
}

/// Whether `module` has convergence-control tokens.
fn has_tokens(module: &convcheck_ir::Module) -> bool {
    module
        .ops
        .iter()
        .any(|o| o.kind == convcheck_ir::ops::OpKind::Token)
}

fn replay(report: &CheckReport, f: &Finding) -> String {
    let mut flags = Vec::new();
    if report.reference == Reference::Cfg {
        flags.push("--level".to_string());
        flags.push("cfg".to_string());
        if has_tokens(&report.reference_module) {
            flags.push("--tokens".to_string());
        }
    }
    let how = RunLine {
        file: report.file.clone(),
        flags,
    };
    replay_on(&how, &report.function, &report.reference_module, f)
}

/// The `convcheck run` line that replays the target of stage `stage`, when
/// `run` can build it: the target file at the source level, or the
/// (target) kernel lowered and run through the pipeline's passes up to
/// that stage. A target that came from elsewhere (an external command's
/// IR) has none.
fn replay_target(report: &CheckReport, stage: usize, f: &Finding) -> Option<String> {
    let name = report.stages.get(stage)?.name.as_str();
    if name == "pass-cmd" {
        return None;
    }
    let file = report
        .target_file
        .clone()
        .unwrap_or_else(|| report.file.clone());
    let mut flags = Vec::new();
    if name != "target file" {
        flags.push("--level".to_string());
        flags.push("cfg".to_string());
        if has_tokens(&report.target_module) || name == "lower --tokens" {
            flags.push("--tokens".to_string());
        }
        for s in &report.stages[..=stage] {
            if !s.name.starts_with("lower") && s.name != "target file" {
                flags.push("--pass".to_string());
                flags.push(s.name.clone());
            }
        }
    }
    let how = RunLine { file, flags };
    Some(replay_on(&how, &report.function, &report.target_module, f))
}

/// An instance as the check matches it: (row, label, its occurrence among
/// the row's instances of that label).
type Occurrence = (usize, String, usize);

/// Numbers the target table's instances as the reference table does: an
/// instance of thread `t` that is the `k`-th of its label in that thread
/// in both runs (the instances the check matches) gets the reference's
/// name; the others get the next numbers of their label. So `VOTE3` is the
/// same instance on both sides of a side-by-side report.
pub(crate) fn renumber(reference: &Table, target: &mut Table) {
    use std::collections::HashMap;
    // (row, label, occurrence in the row's run) -> name.
    let occurrences = |t: &Table| -> Vec<(Occurrence, (usize, usize))> {
        let mut out = Vec::new();
        for (r, row) in t.cells.iter().enumerate() {
            let mut cells: Vec<(usize, usize)> = row
                .iter()
                .enumerate()
                .filter_map(|(c, cell)| cell.as_ref().map(|x| (x.event, c)))
                .collect();
            cells.sort();
            let mut seen: HashMap<String, usize> = HashMap::new();
            for (_, c) in cells {
                let label = row[c].as_ref().map(|x| x.label.clone()).unwrap_or_default();
                let k = seen.entry(label.clone()).or_insert(0);
                *k += 1;
                out.push(((r, label, *k), (r, c)));
            }
        }
        out
    };
    let mut names: HashMap<(usize, String, usize), String> = HashMap::new();
    let mut next: HashMap<String, usize> = HashMap::new();
    for (key, (r, c)) in occurrences(reference) {
        if let Some(cell) = &reference.cells[r][c] {
            let n = cell.instance[cell.label.len()..]
                .trim_start_matches('.')
                .parse::<usize>()
                .unwrap_or(0);
            let m = next.entry(key.1.clone()).or_insert(0);
            *m = (*m).max(n);
            names.insert(key, cell.instance.clone());
        }
    }
    // Unmatched target instances in column order, so new numbers read left
    // to right; instances of one column share one number only if they
    // shared it before, which the renaming keeps as it is per cell.
    let occ = occurrences(target);
    let mut order: Vec<&(Occurrence, (usize, usize))> = occ.iter().collect();
    order.sort_by_key(|(_, (r, c))| (*c, *r));
    for (key, (r, c)) in order {
        let name = match names.get(key) {
            Some(n) => n.clone(),
            None => {
                let m = next.entry(key.1.clone()).or_insert(0);
                *m += 1;
                let sep = if key.1.ends_with(|ch: char| ch.is_ascii_digit()) {
                    "."
                } else {
                    ""
                };
                format!("{}{sep}{}", key.1, m)
            }
        };
        if let Some(cell) = target.cells[*r][*c].as_mut() {
            cell.instance = name;
        }
    }
}

/// The bounds of a check and what they cut, one line each.
pub fn bounds_lines(report: &CheckReport) -> Vec<String> {
    let c = &report.coverage;
    let b = &report.bounds;
    let mut out = Vec::new();
    out.push(match &c.cut_reason {
        Some(why) if c.cut > 0 => format!(
            "max-iters={}: cut {} reference run{} (outside the bounds; first: {why})",
            b.max_iters,
            grouped(c.cut as u64),
            if c.cut == 1 { "" } else { "s" }
        ),
        _ => format!("max-iters={}: cut nothing", b.max_iters),
    });
    if c.target_cut > 0 {
        out.push(format!(
            "target iterations ({} per loop): cut {} target run{}",
            (b.max_iters + 1) * 16 - 1,
            grouped(c.target_cut as u64),
            if c.target_cut == 1 { "" } else { "s" }
        ));
    }
    let groups: Vec<String> = c
        .groups
        .iter()
        .map(|(n, ids)| {
            let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
            format!("N={n} (tid {})", ids.join(", "))
        })
        .collect();
    out.push(format!(
        "{}: {}",
        if c.fixed_group {
            "group (fixed)"
        } else {
            "groups (every N >= 2 and pair of tids, by the values that matter)"
        },
        groups.join("; ")
    ));
    for capped in &c.capped {
        out.push(format!("not tried: {capped}"));
    }
    if !c.domains.is_empty() {
        let d: Vec<String> = c
            .domains
            .iter()
            .map(|(name, v)| {
                let v: Vec<String> = v.iter().map(i64::to_string).collect();
                format!("{name} in {{{}}}", v.join(", "))
            })
            .collect();
        out.push(format!("values: {}", d.join("; ")));
    }
    for (name, beyond) in &c.loop_bounds {
        out.push(match beyond {
            Some(v) => format!(
                "loop bound `{name}`: values from {v} need more than max-iters={} iterations and are not examined",
                b.max_iters
            ),
            None => format!(
                "loop bound `{name}`: values up to the iteration bound (max-iters={})",
                b.max_iters
            ),
        });
    }
    for (name, uses) in &c.inexact {
        out.push(format!(
            "inexact domain of `{name}` (a value that matters may be missing): {}",
            uses.join("; ")
        ));
    }
    out.push(format!(
        "paths: {} reference path{} (max-paths={} per group size and tid); fuel={}",
        grouped(c.paths as u64),
        if c.paths == 1 { "" } else { "s" },
        b.max_paths,
        b.fuel
    ));
    let budget = &report.budget;
    out.push(format!(
        "budgets: time {}, {} pairs, {} stored events; {} of {} pairs examined{}",
        budget
            .timeout
            .map_or("none".to_string(), |t| format!("{} s", t.as_secs_f64())),
        grouped(budget.max_pairs),
        grouped(budget.max_events as u64),
        grouped(c.pairs_examined),
        grouped(c.pairs_total),
        c.budget
            .as_ref()
            .map(|w| format!(" ({w})"))
            .unwrap_or_default()
    ));
    out
}

/// The `"bounds"` object of the JSON and SARIF reports.
pub fn bounds_json(report: &CheckReport) -> serde_json::Value {
    let b = &report.bounds;
    let c = &report.coverage;
    let budget = &report.budget;
    json!({
        "max_iters": b.max_iters,
        "fuel": b.fuel,
        "max_depth": b.max_depth,
        "max_paths": b.max_paths,
        "cut": {"max_iters": c.cut, "target_iterations": c.target_cut, "first": c.cut_reason},
        "group_fixed": c.fixed_group,
        "groups": c.groups.iter().map(|(n, ids)| json!({"n": n, "tids": ids})).collect::<Vec<_>>(),
        "not_tried": c.capped,
        "domains": c.domains,
        "loop_bounds": c.loop_bounds,
        "inexact": c.inexact,
        "paths": c.paths,
        "pairs": {"total": c.pairs_total, "examined": c.pairs_examined, "scenarios": c.scenarios},
        "budgets": {
            "timeout_secs": budget.timeout.map(|t| t.as_secs_f64()),
            "max_pairs": budget.max_pairs,
            "max_events": budget.max_events,
            "reached": c.budget,
        },
    })
}

/// How a report names its reference semantics.
fn reference_name(r: Reference) -> &'static str {
    match r {
        Reference::Source => "source level",
        Reference::Cfg => "CFG level",
    }
}

/// The first line of a text report: file, function, reference and group.
pub fn header_line(report: &CheckReport) -> String {
    let reference = reference_name(report.reference);
    let threads = if report.threads == 0 {
        "every N >= 2".to_string()
    } else {
        format!("N={}", report.threads)
    };
    format!(
        "convcheck check: {} `{}`, reference: {reference}, threads: {threads}\n",
        report.file, report.function,
    )
}

/// The text report.
pub fn render_text(report: &CheckReport) -> String {
    render_text_with(report, &KernelReplay)
}

/// The text report, with the replay lines of `replays`.
pub(crate) fn render_text_with(report: &CheckReport, replays: &dyn Replay) -> String {
    let mut out = String::new();
    out.push_str(&header_line(report));
    let reference = reference_name(report.reference);
    let _ = writeln!(out, "bounds:");
    for line in bounds_lines(report) {
        let _ = writeln!(out, "  {line}");
    }
    for (i, s) in report.stages.iter().enumerate() {
        let line = match &s.outcome {
            EngineOutcome::Preserved { pairs, .. } => format!(
                "preserved ({} scenario{})",
                grouped(*pairs as u64),
                if *pairs == 1 { "" } else { "s" }
            ),
            EngineOutcome::Violated(_) => "VIOLATED".to_string(),
            EngineOutcome::Inconclusive(why) => format!("inconclusive: {why}"),
        };
        let _ = writeln!(out, "stage {}: {}: {line}", i + 1, s.name);
        for n in &s.notes {
            let _ = writeln!(out, "  note: {n}");
        }
    }
    if let Some((i, s)) = report.first_broken() {
        if let EngineOutcome::Violated(f) = &s.outcome {
            let _ = writeln!(out, "\ncounterexample (stage {}: {}):", i + 1, s.name);
            let prop = f.property.name();
            let at = f
                .operation
                .as_ref()
                .map(|a| format!(" at `{}` (line {})", a.label, a.line))
                .unwrap_or_default();
            let _ = writeln!(out, "  {prop}{at}: {}", f.message);
            let _ = writeln!(out, "  scenario (N={}):", f.group);
            for (t, v) in f.tids.iter().zip(&f.threads) {
                let _ = writeln!(out, "    tid {t}: {}", v.render());
            }
            match tables(report, f) {
                Ok((r, t)) => out.push_str(&side_by_side(
                    &format!("reference ({reference})"),
                    &r.render(),
                    &format!("target ({})", s.target_level),
                    &t.render(),
                )),
                Err(e) => {
                    let _ = writeln!(out, "  (tables unavailable: {e})");
                }
            }
            if let Some(r) = replays.reference(report, f) {
                let _ = writeln!(out, "  replay: {r}");
            }
            match replays.target(report, i, f) {
                Ok(t) => {
                    let _ = writeln!(out, "  replay the target: {t}");
                }
                Err(Some(why)) => {
                    let _ = writeln!(out, "  no replay of the target: {why}");
                }
                Err(None) => {}
            }
        }
        let _ = writeln!(
            out,
            "\nverdict: {} (first at stage {}: {})",
            report.verdict(),
            i + 1,
            s.name
        );
    } else {
        let _ = writeln!(out, "\nverdict: preserved");
    }
    out
}

/// Where an operation of a finding is: the file, line and column (1 when
/// unknown) of its side's source.
fn location(report: &CheckReport, at: &crate::engine::At) -> (String, u32, u32) {
    let (module, file) = match at.side {
        crate::engine::Which::Reference => (&report.reference_module, report.file.clone()),
        crate::engine::Which::Target => (
            &report.target_module,
            report
                .target_file
                .clone()
                .unwrap_or_else(|| report.file.clone()),
        ),
    };
    let col = module.op(at.op).map_or(1, |o| o.span.start.col.max(1));
    (file, at.line.max(1), col)
}

fn finding_json(
    report: &CheckReport,
    stage: usize,
    f: &Finding,
    replays: &dyn Replay,
) -> serde_json::Value {
    let (rt, tt) = match tables(report, f) {
        Ok((r, t)) => (r.to_json(), t.to_json()),
        Err(e) => (json!({ "error": e }), json!(null)),
    };
    json!({
        "stage": report.stages[stage].name,
        "property": f.property,
        "message": f.message,
        "operation": f.operation.as_ref().map(|a| {
            let (file, line, column) = location(report, a);
            json!({"label": a.label, "file": file, "line": line, "column": column, "op": a.op.0, "side": a.side})
        }),
        "group": f.group,
        "threads": f.tids.iter().zip(&f.threads).map(|(t, v)| json!({"tid": t, "values": v.0})).collect::<Vec<_>>(),
        "reference_table": rt,
        "target_table": tt,
        "replay": replays.reference(report, f),
        "replay_target": replays.target(report, stage, f).ok(),
    })
}

/// The tool's name and version, as every JSON report carries them.
pub fn tool_json() -> serde_json::Value {
    json!({"name": "convcheck", "version": env!("CARGO_PKG_VERSION")})
}

/// The JSON report (DESIGN.md section 4).
pub fn render_json(report: &CheckReport) -> serde_json::Value {
    render_json_with(report, &KernelReplay)
}

/// The JSON report, with the replay lines of `replays`.
pub(crate) fn render_json_with(report: &CheckReport, replays: &dyn Replay) -> serde_json::Value {
    let stages: Vec<serde_json::Value> = report
        .stages
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (verdict, extra) = match &s.outcome {
                EngineOutcome::Preserved { pairs, cut } => {
                    ("preserved", json!({"scenarios": pairs, "cut_paths": cut}))
                }
                EngineOutcome::Violated(f) => (
                    "violated",
                    json!({"counterexample": finding_json(report, i, f, replays)}),
                ),
                EngineOutcome::Inconclusive(w) => ("inconclusive", json!({"reason": w})),
            };
            let mut v = json!({"name": s.name, "verdict": verdict, "notes": s.notes});
            if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
                for (k, x) in e {
                    o.insert(k.clone(), x.clone());
                }
            }
            v
        })
        .collect();
    let counterexample = report.first_broken().and_then(|(i, s)| match &s.outcome {
        EngineOutcome::Violated(f) => Some(finding_json(report, i, f, replays)),
        _ => None,
    });
    json!({
        "tool": tool_json(),
        "command_line": command_line(),
        "verdict": report.verdict().as_str(),
        "file": report.file,
        "target_file": report.target_file,
        "function": report.function,
        "reference": match report.reference { Reference::Source => "source", Reference::Cfg => "cfg" },
        "threads": report.threads,
        "bounds": bounds_json(report),
        "stages": stages,
        "counterexample": counterexample,
    })
}

/// A path as a SARIF `uri` (RFC 3986): an absolute path becomes a
/// `file://` URI, a relative one a relative reference; every byte outside
/// the unreserved characters and `/` is percent-encoded.
pub fn sarif_uri(path: &str) -> String {
    let mut enc = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            enc.push(b as char);
        } else {
            let _ = write!(enc, "%{b:02X}");
        }
    }
    if path.starts_with('/') {
        format!("file://{enc}")
    } else {
        enc
    }
}

/// The rules of SARIF reports.
fn sarif_rules() -> serde_json::Value {
    json!([
        {"id": "convergence", "shortDescription": {"text": "A transform changed which threads execute a convergent operation together"}},
        {"id": "single-thread-behaviour", "shortDescription": {"text": "A transform changed a thread's observable events"}},
        {"id": "hazards", "shortDescription": {"text": "A transform introduced a race or barrier divergence"}},
        {"id": "inconclusive", "shortDescription": {"text": "The check ran out of a budget or met what the model does not cover, so the property is not established"}, "defaultConfiguration": {"level": "warning"}}
    ])
}

/// The SARIF invocation: the command line, the exit code, and a
/// notification per `notes` entry (level, text).
fn sarif_invocation(
    successful: bool,
    exit_code: i32,
    notes: &[(&str, String)],
) -> serde_json::Value {
    let mut inv = json!({
        "executionSuccessful": successful,
        "exitCode": exit_code,
        "toolExecutionNotifications": notes.iter().map(|(level, text)| json!({
            "level": level,
            "message": {"text": text},
        })).collect::<Vec<_>>(),
    });
    if let Some(args) = command_line() {
        let line: Vec<String> = args
            .iter()
            .map(|a| crate::pass_cmd::shell_quote(a))
            .collect();
        inv["commandLine"] = json!(line.join(" "));
        inv["arguments"] = json!(args.get(1..).unwrap_or(&[]));
    }
    inv
}

/// The SARIF 2.1.0 report: one `error` result per violated stage, at the
/// line and column of the failing operation, and one `warning` result
/// (rule `inconclusive`) per inconclusive stage, also listed as a
/// notification of the invocation, so that a code-scanning view never
/// shows an inconclusive check as clean.
pub fn render_sarif(report: &CheckReport) -> serde_json::Value {
    let mut results = Vec::new();
    let mut notes = Vec::new();
    for s in &report.stages {
        match &s.outcome {
            EngineOutcome::Violated(f) => {
                let (file, line, column) = match &f.operation {
                    Some(at) => location(report, at),
                    None => (report.file.clone(), 1, 1),
                };
                results.push(json!({
                    "ruleId": f.property.id(),
                    "level": "error",
                    "message": {"text": format!("{}: {}", s.name, f.message)},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": {"uri": sarif_uri(&file)},
                        "region": {"startLine": line, "startColumn": column}
                    }}],
                }));
            }
            EngineOutcome::Inconclusive(why) => {
                let text = format!("{}: inconclusive: {why}", s.name);
                results.push(json!({
                    "ruleId": "inconclusive",
                    "level": "warning",
                    "message": {"text": text},
                    "locations": [{"physicalLocation": {
                        "artifactLocation": {"uri": sarif_uri(&report.file)},
                        "region": {"startLine": 1}
                    }}],
                }));
                notes.push(("warning", text));
            }
            EngineOutcome::Preserved { .. } => {}
        }
    }
    let invocation = sarif_invocation(true, report.verdict().exit_code(), &notes);
    json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "convcheck",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": sarif_rules(),
            }},
            "invocations": [invocation],
            "results": results,
            "properties": {
                "verdict": report.verdict().as_str(),
                "stages": report.stages.iter().map(|s| json!({
                    "name": s.name,
                    "verdict": match &s.outcome {
                        EngineOutcome::Preserved { .. } => "preserved",
                        EngineOutcome::Violated(_) => "violated",
                        EngineOutcome::Inconclusive(_) => "inconclusive",
                    },
                    "reason": match &s.outcome {
                        EngineOutcome::Inconclusive(w) => Some(w.clone()),
                        _ => None,
                    },
                })).collect::<Vec<_>>(),
                "bounds": bounds_json(report),
            },
        }]
    })
}

/// The formats a command can answer in, for errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorFormat {
    /// Text on standard error.
    Text,
    /// One JSON object on standard output.
    Json,
    /// A SARIF log on standard output.
    Sarif,
}

/// The format asked for by `--format F` (or `--format=F`) among `args`,
/// read without the parser, so that an argument the parser rejects is
/// still answered in that format.
pub fn requested_format(args: &[String]) -> ErrorFormat {
    let mut format = ErrorFormat::Text;
    for (k, a) in args.iter().enumerate() {
        let value = match a.strip_prefix("--format=") {
            Some(v) => Some(v),
            None if a == "--format" => args.get(k + 1).map(String::as_str),
            None => None,
        };
        match value {
            Some("json") => format = ErrorFormat::Json,
            Some("sarif") => format = ErrorFormat::Sarif,
            Some(_) => format = ErrorFormat::Text,
            None => {}
        }
    }
    format
}

/// An error (`message`, the text that would go to standard error) as the
/// one object a machine-readable format prints on standard output:
/// `{"verdict": "error", "error": ..., "exit_code": 2}` in JSON, a SARIF log
/// with an unsuccessful invocation and an error notification in SARIF.
pub fn error_object(format: ErrorFormat, message: &str, exit_code: i32) -> Option<String> {
    let text = message.trim();
    let text = text.strip_prefix("error: ").unwrap_or(text);
    match format {
        ErrorFormat::Text => None,
        ErrorFormat::Json => Some(format!(
            "{}\n",
            json!({
                "tool": tool_json(),
                "command_line": command_line(),
                "verdict": "error",
                "error": text,
                "exit_code": exit_code,
            })
        )),
        ErrorFormat::Sarif => Some(format!(
            "{}\n",
            json!({
                "version": "2.1.0",
                "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
                "runs": [{
                    "tool": {"driver": {
                        "name": "convcheck",
                        "version": env!("CARGO_PKG_VERSION"),
                        "rules": sarif_rules(),
                    }},
                    "invocations": [sarif_invocation(false, exit_code, &[("error", text.to_string())])],
                    "results": [],
                    "properties": {"verdict": "error"},
                }]
            })
        )),
    }
}
