//! The text report of a check: a header, the bounds, one line per stage
//! with its notes, the counterexample of the first broken stage as two
//! trace tables side by side with the lines that replay them, and the
//! verdict. Several functions are reported one after the other with a
//! summary.

use super::tables::side_by_side;
use super::{bounds, grouped, FunctionReport, Method, Report, Stage};
use crate::config::Reference;
use crate::engine::Outcome;
use std::fmt::Write;

/// How a report names a reference semantics.
pub fn reference_name(r: Reference) -> &'static str {
    match r {
        Reference::Source => "source level",
        Reference::Cfg => "CFG level",
    }
}

/// The first line of a function's report: file, function, reference and
/// group.
pub fn header_line(file: &str, fr: &FunctionReport) -> String {
    let threads = if fr.threads == 0 {
        "every N >= 2".to_string()
    } else {
        format!("N={}", fr.threads)
    };
    format!(
        "convcheck check: {file} `{}`, reference: {}, threads: {threads}\n",
        fr.function,
        reference_name(fr.reference),
    )
}

/// What a stage's line says of its outcome.
fn stage_line(s: &Stage) -> String {
    match (&s.outcome, &s.method) {
        (Outcome::Preserved { .. }, _) if s.proved() => "proved (every iteration count)".into(),
        (Outcome::Preserved { .. }, Method::Product(p)) => {
            format!(
                "preserved (within max-iters={}, symbolic product)",
                p.max_iters
            )
        }
        (Outcome::Preserved { pairs, .. }, _) => format!(
            "preserved ({} scenario{})",
            grouped(*pairs as u64),
            if *pairs == 1 { "" } else { "s" }
        ),
        (Outcome::Violated(_), _) => "VIOLATED".to_string(),
        (Outcome::Inconclusive(why), _) => format!("inconclusive: {why}"),
    }
}

/// The counterexample section of stage `i`'s finding.
fn counterexample(out: &mut String, report: &Report, fr: &FunctionReport, i: usize) {
    let s = &fr.stages[i];
    let Some(f) = s.finding() else {
        return;
    };
    let _ = writeln!(out, "\ncounterexample (stage {}: {}):", i + 1, s.name);
    let at = f
        .operation
        .as_ref()
        .map(|a| format!(" at `{}` (line {})", a.label, a.line))
        .unwrap_or_default();
    let (message, _) = super::named_message(fr, s, f);
    let _ = writeln!(out, "  {}{at}: {message}", f.property.name());
    if f.tids.is_empty() {
        // A static rule broken: no scenario, tables or replay.
        return;
    }
    let _ = writeln!(out, "  scenario (N={}):", f.group);
    for (t, v) in f.tids.iter().zip(&f.threads) {
        let _ = writeln!(out, "    tid {t}: {}", v.render());
    }
    let reference = s
        .against
        .clone()
        .unwrap_or_else(|| reference_name(fr.reference).to_string());
    match super::tables(s, f) {
        Ok((r, t)) => out.push_str(&side_by_side(
            &format!("reference ({reference})"),
            &r.render(),
            &format!("target ({})", s.level),
            &t.render(),
        )),
        Err(e) => {
            let _ = writeln!(out, "  (tables unavailable: {e})");
        }
    }
    if let Some(r) = report.replay.reference(fr, s, f) {
        let _ = writeln!(out, "  replay: {r}");
    }
    match report.replay.target(fr, i, f) {
        Ok(t) => {
            let _ = writeln!(out, "  replay the target: {t}");
        }
        Err(Some(why)) => {
            let _ = writeln!(out, "  no replay of the target: {why}");
        }
        Err(None) => {}
    }
}

/// The text of one function's check.
pub fn function_text(report: &Report, fr: &FunctionReport) -> String {
    let mut out = header_line(&report.file, fr);
    let _ = writeln!(out, "bounds:");
    for line in bounds::lines(fr) {
        let _ = writeln!(out, "  {line}");
    }
    for (i, s) in fr.stages.iter().enumerate() {
        let against = s
            .against
            .as_ref()
            .map(|a| format!(" (against {a})"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "stage {}: {}{against}: {}",
            i + 1,
            s.name,
            stage_line(s)
        );
        for n in &s.notes {
            let _ = writeln!(out, "  note: {n}");
        }
        if let Some(why) = &s.simulation {
            let _ = writeln!(out, "  simulation: no unbounded proof: {why}");
        }
    }
    match fr.first_broken() {
        Some((i, s)) => {
            counterexample(&mut out, report, fr, i);
            let _ = writeln!(
                out,
                "\nverdict: {} (first at stage {}: {})",
                fr.verdict(),
                i + 1,
                s.name
            );
        }
        None => {
            let _ = writeln!(out, "\nverdict: {}", fr.verdict());
        }
    }
    out
}

/// The text report.
pub fn render(report: &Report) -> String {
    let not_compared = (!report.not_compared.is_empty()).then(|| {
        format!(
            "not compared (defined on one side only): {}\n",
            report
                .not_compared
                .iter()
                .map(|n| format!("@{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    if let [one] = report.functions.as_slice() {
        let mut s = function_text(report, one);
        s.push_str(not_compared.as_deref().unwrap_or(""));
        return s;
    }
    let mut s = String::new();
    for fr in &report.functions {
        s.push_str(&function_text(report, fr));
        s.push('\n');
    }
    let _ = writeln!(s, "functions: {}", report.functions.len());
    for fr in &report.functions {
        let at = fr
            .first_broken()
            .map(|(i, st)| format!(" (first at stage {}: {})", i + 1, st.name))
            .unwrap_or_default();
        let _ = writeln!(s, "  @{}: {}{at}", fr.function, fr.verdict());
    }
    s.push_str(not_compared.as_deref().unwrap_or(""));
    let _ = writeln!(s, "verdict: {}", report.verdict());
    s
}
