//! The cases of `convcheck fuzz`: each as one JSON object (in the run's
//! JSON lists and in its `KIND-i.json` file), and the files `--out DIR`
//! writes for it.

use super::campaign::Found;
use serde::Serialize;
use std::collections::BTreeMap;

/// A case as JSON: the program, what it showed, its full report and the
/// command that checks it again.
#[derive(Serialize)]
pub(super) struct CaseJson<'a> {
    kind: &'a str,
    program: u64,
    /// The seed as a decimal string, so that JavaScript reads it exactly.
    seed: Option<String>,
    file: &'a str,
    what: &'a str,
    statements_before: usize,
    statements_after: usize,
    kernel: &'a str,
    /// The report's verdict (`error` when there is no report).
    verdict: &'a str,
    report: &'a serde_json::Value,
    recheck: &'a str,
    #[serde(flatten)]
    commands: BTreeMap<&'a str, &'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
}

impl<'a> CaseJson<'a> {
    /// The JSON of case `f`.
    pub(super) fn of(f: &'a Found) -> CaseJson<'a> {
        CaseJson {
            kind: f.kind,
            program: f.index,
            seed: f.seed.map(|s| s.to_string()),
            file: &f.file,
            what: &f.what,
            statements_before: f.statements_before,
            statements_after: f.statements_after,
            kernel: &f.text,
            verdict: f.report_json["verdict"].as_str().unwrap_or("error"),
            report: &f.report_json,
            recheck: &f.recheck,
            commands: f.commands.iter().map(|(k, v)| (*k, v.as_str())).collect(),
            notes: &f.notes,
        }
    }
}

/// Writes every case into `dir`: the program (when it is to be written
/// there), its report (text with the re-check command, and the case's
/// JSON) and what an external command was given and printed (`.in.EXT`
/// unless the command was given the kernel file itself, `.out.EXT`).
pub(super) fn write_cases(
    dir: &str,
    found: &[Found],
    exchange: Option<crate::pass_cmd::Exchange>,
) -> std::io::Result<()> {
    for f in found {
        let base = format!("{dir}/{}-{}", f.kind, f.index);
        if f.file.starts_with(dir) {
            std::fs::write(format!("{base}.c"), &f.text)?;
        }
        std::fs::write(format!("{base}.txt"), &f.report_text)?;
        let json = serde_json::to_value(CaseJson::of(f)).unwrap_or_default();
        std::fs::write(format!("{base}.json"), format!("{json}\n"))?;
        if let (Some((input, output)), Some(x)) = (&f.exchanged, exchange) {
            let ext = x.extension();
            if x != crate::pass_cmd::Exchange::Kernel {
                std::fs::write(format!("{base}.in.{ext}"), input)?;
            }
            std::fs::write(format!("{base}.out.{ext}"), output)?;
        }
    }
    Ok(())
}
