//! Text rendering of the hardware oracle's reports (JSON is their serde
//! form).

use crate::replay::{ReplayReport, SummaryRow};
use std::fmt::Write;

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// `12345` as `12,345`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The summary table of a replay, in the fixture README's shape.
pub fn summary_table(rows: &[SummaryRow]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "| hardware | model | agree | hardware merges what the model separates | hardware splits what the model joins | implementation-defined (together / apart) | kernels identical | single-thread identical | not compared |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let p = &r.pairs;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} / {} | {} / {} | {} / {} scenarios | {} |",
            r.variant,
            r.level,
            pct(p.agree, p.pairs - p.open_together - p.open_apart),
            thousands(p.merges),
            thousands(p.splits),
            thousands(p.open_together),
            thousands(p.open_apart),
            r.kernels_identical,
            r.kernels,
            r.same_behaviour,
            r.scenarios,
            r.not_compared
        );
    }
    out
}

/// A replay's text report: the summary table.
pub fn replay_text(rep: &ReplayReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "replay of {}", rep.dir);
    out.push_str(&summary_table(&rep.summary));
    out
}
