//! Text rendering of the hardware oracle's reports (their JSON is the serde
//! form of the same types): the summary table of the fixture's README, one
//! line per kernel, and for a scenario that differs the model's trace table
//! and the hardware's, each with a row of marks.
//!
//! The hardware's table has one column per dynamic instance the hardware
//! logged (one instance number), in the order the numbers were taken,
//! which is the order the instances ran. Marks: under a model column, `S`
//! when the hardware split it (its instances got several numbers) and `M`
//! when the hardware ran it together with another column; under a hardware
//! column, `M` when it holds instances of several model columns (a merge),
//! `m` when those are implementation-defined (allowed), `S` when it holds
//! part of a model column.

use crate::compare::{Comparison, HwEvent};
use crate::model::ModelRun;
use crate::replay::{KernelResult, ReplayReport, SummaryRow};
use std::collections::{BTreeMap, HashMap};
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

/// The summary table of a replay, in the fixture README's shape, with the
/// implementation-defined pairs and single-thread behaviour beside it.
/// `agree` is over pairs whose convergence the model determines.
pub fn summary_table(rows: &[SummaryRow]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| hardware | model | agree | hardware merges what the model separates | hardware \
         splits what the model joins | implementation-defined pairs (together / apart) | \
         kernels identical | single-thread identical | not compared |"
    );
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

/// One line for a kernel under a variant and level.
pub fn kernel_line(k: &KernelResult) -> String {
    let verdict = if !k.errors.is_empty() {
        "not compared".to_string()
    } else if k.identical() {
        "identical".to_string()
    } else {
        let mut what = Vec::new();
        if k.same_behaviour < k.scenarios {
            what.push("single-thread behaviour differs");
        }
        if k.pairs.merges > 0 {
            what.push("merged");
        }
        if k.pairs.splits > 0 {
            what.push("split");
        }
        if k.cut > 0 {
            what.push("log cut");
        }
        what.join(", ")
    };
    let p = &k.pairs;
    let mut line = format!(
        "{} ({} `{}`) {} vs {}: {verdict}; {} scenarios, pairs: {} agree, {} merged, {} split",
        k.id, k.file, k.function, k.variant, k.level, k.scenarios, p.agree, p.merges, p.splits
    );
    if p.open_together + p.open_apart > 0 {
        let _ = write!(
            line,
            ", {} implementation-defined ({} together)",
            p.open_together + p.open_apart,
            p.open_together
        );
    }
    for e in &k.errors {
        let _ = write!(line, "\n  {e}");
    }
    line
}

/// A grid in seed 000's format with a last row of marks.
fn grid(rows: &[String], cells: &[Vec<String>], marks: (&str, &[String])) -> String {
    let w = cells.iter().map(Vec::len).max().unwrap_or(0);
    let mut titles: Vec<&str> = rows.iter().map(String::as_str).collect();
    titles.push(marks.0);
    let head_w = titles.iter().map(|t| t.len()).max().unwrap_or(0);
    let mut col_w: Vec<usize> = (0..w).map(|c| (c + 1).to_string().len()).collect();
    for row in cells.iter().chain(std::iter::once(&marks.1.to_vec())) {
        for (c, t) in row.iter().enumerate().take(w) {
            col_w[c] = col_w[c].max(t.len());
        }
    }
    let rule = {
        let mut s = format!("+{}+", "-".repeat(head_w + 2));
        for cw in &col_w {
            let _ = write!(s, "{}+", "-".repeat(cw + 2));
        }
        s
    };
    let line = |title: &str, row: &[String]| {
        let mut l = format!("| {title:head_w$} |");
        for (c, cw) in col_w.iter().enumerate() {
            let t = row.get(c).map_or("", String::as_str);
            let _ = write!(l, " {t:cw$} |");
        }
        l
    };
    let mut out = format!("{rule}\n");
    let header: Vec<String> = (1..=w).map(|c| c.to_string()).collect();
    let _ = writeln!(out, "{}\n{rule}", line("", &header));
    for (r, row) in cells.iter().enumerate() {
        let _ = writeln!(out, "{}\n{rule}", line(&rows[r], row));
    }
    let _ = writeln!(out, "{}\n{rule}", line(marks.0, marks.1));
    out
}

/// The model's table with marks under the columns the hardware split (`S`)
/// or merged (`M`).
pub fn model_table(run: &ModelRun, c: &Comparison) -> String {
    let cells: Vec<Vec<String>> = run
        .table
        .cells
        .iter()
        .map(|r| {
            r.iter()
                .map(|cell| match cell {
                    Some(x) if x.open => format!("{}*", x.instance),
                    Some(x) => x.instance.clone(),
                    None => String::new(),
                })
                .collect()
        })
        .collect();
    let marks: Vec<String> = (0..run.table.width())
        .map(|col| {
            let mut m = String::new();
            if c.merged_columns.contains(&col) {
                m.push('M');
            }
            if c.split_columns.contains(&col) {
                m.push('S');
            }
            m
        })
        .collect();
    grid(&run.table.rows, &cells, ("hardware", &marks))
}

/// The hardware's table (see the module documentation).
pub fn hardware_table(labels: &[String], hw: &[Vec<HwEvent>], c: &Comparison) -> String {
    let mut numbers: Vec<i64> = hw.iter().flatten().map(|e| e.number).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let col: HashMap<i64, usize> = numbers.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    // Instance names: the label, then its count over the columns.
    let mut label_of: BTreeMap<usize, usize> = BTreeMap::new();
    for e in hw.iter().flatten() {
        label_of.insert(col[&e.number], e.label);
    }
    let mut count: HashMap<usize, usize> = HashMap::new();
    let names: Vec<String> = (0..numbers.len())
        .map(|i| {
            let l = label_of.get(&i).copied().unwrap_or(usize::MAX);
            let k = count.entry(l).or_default();
            *k += 1;
            let name = labels.get(l).cloned().unwrap_or_else(|| format!("#{l}"));
            let sep = if name.ends_with(|ch: char| ch.is_ascii_digit()) {
                "."
            } else {
                ""
            };
            format!("{name}{sep}{k}")
        })
        .collect();
    let cells: Vec<Vec<String>> = hw
        .iter()
        .map(|log| {
            let mut row = vec![String::new(); numbers.len()];
            for e in log {
                row[col[&e.number]] = names[col[&e.number]].clone();
            }
            row
        })
        .collect();
    let marks: Vec<String> = numbers
        .iter()
        .map(|n| {
            let mut m = String::new();
            if let Some((_, only_open)) = c.merged_numbers.iter().find(|(x, _)| x == n) {
                m.push(if *only_open { 'm' } else { 'M' });
            }
            if c.split_numbers.contains(n) {
                m.push('S');
            }
            m
        })
        .collect();
    let rows: Vec<String> = (0..hw.len()).map(|t| format!("tid {t}")).collect();
    grid(&rows, &cells, ("model", &marks))
}

/// A kernel's line, then for each scenario that differs (at most
/// `max_tables`, those with a merge first) both tables and the
/// differences of single-thread behaviour.
pub fn kernel_text(k: &KernelResult, labels: &[String], max_tables: usize) -> String {
    let mut out = kernel_line(k);
    out.push('\n');
    if max_tables == 0 {
        return out;
    }
    // Scenarios with a merge first: they are the findings.
    let mut order: Vec<&crate::replay::ScenarioResult> = k.details.iter().collect();
    order.sort_by_key(|s| {
        let merged = s.comparison.as_ref().is_some_and(|c| c.pairs.merges > 0);
        (!merged, s.scen)
    });
    let mut shown = 0;
    for s in order {
        let (Some(c), Some((run, hw))) = (&s.comparison, &s.detail) else {
            continue;
        };
        if c.same_behaviour() && c.pairs.identical() && c.cut.is_empty() {
            continue;
        }
        if shown >= max_tables {
            let _ = writeln!(
                out,
                "  (more scenarios differ; tables of the first {max_tables} shown)"
            );
            break;
        }
        shown += 1;
        let _ = writeln!(
            out,
            "  scenario {}: {} merged, {} split",
            s.scen, c.pairs.merges, c.pairs.splits
        );
        for d in &c.behaviour {
            let _ = writeln!(
                out,
                "  tid {}: single-thread behaviour differs at event {}: model {}, hardware {}",
                d.tid,
                d.at,
                d.model.as_deref().unwrap_or("(end)"),
                d.hardware.as_deref().unwrap_or("(end)")
            );
        }
        if !c.cut.is_empty() {
            let _ = writeln!(
                out,
                "  logs cut (more events than the log holds): threads {:?}",
                c.cut
            );
        }
        let _ = writeln!(out, "  the model ({}):", k.level);
        out.push_str(&model_table(run, c));
        let _ = writeln!(out, "  the hardware ({}):", k.variant);
        out.push_str(&hardware_table(labels, hw, c));
    }
    out
}

/// A replay's text report: the summary table, then (with `kernels`) one
/// line per kernel, variant and level.
pub fn replay_text(rep: &ReplayReport, kernels: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "hardware logs in {} against the model", rep.dir);
    out.push_str(&summary_table(&rep.summary));
    if kernels {
        out.push('\n');
        for k in &rep.kernels {
            out.push_str(&kernel_line(k));
            out.push('\n');
        }
    }
    out
}

/// The table of minimized kernels of `fuzz --gpu` (empty when no kernel
/// differed), then the kernels that differ but were not minimized.
pub fn minimized_table(m: &crate::minimize::Minimization) -> String {
    let mut out = String::new();
    if m.minimized.is_empty() && m.failed.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "\nminimized kernels (difference kept while shrinking):"
    );
    let _ = writeln!(
        out,
        "| kernel | difference | model level | statements | device runs | written to |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for k in &m.minimized {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} -> {} | {} of {}{} | {} |",
            k.file,
            k.difference.kind.name(),
            k.difference.level,
            k.statements_before,
            k.statements_after,
            k.runs,
            k.budget,
            if k.budget_cut {
                " (budget cut: not minimal)"
            } else {
                ""
            },
            k.written.as_deref().unwrap_or("not written (no --out)")
        );
    }
    for f in &m.failed {
        let _ = writeln!(out, "not minimized: {}: {}", f.id, f.reason);
    }
    out
}
