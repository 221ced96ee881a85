//! SARIF 2.1.0 logs (OASIS Static Analysis Results Interchange Format),
//! for code-scanning front ends: one `error` result per violated stage at
//! the line and column of the failing operation, one `warning` result
//! (rule `inconclusive`) per inconclusive stage, also listed as a
//! notification of the invocation so that a code-scanning view never
//! shows an inconclusive check as clean. Errors of a command are SARIF logs
//! too ([`error_log`]): an unsuccessful invocation with an error
//! notification. `checker/tests/reports.rs` validates these logs against
//! the SARIF 2.1.0 schema.

use super::{FunctionReport, Invocation, Report};
use crate::engine::Outcome;
use serde::Serialize;
use std::fmt::Write;

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

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    short_description: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    default_configuration: Option<Configuration>,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Driver {
    name: &'static str,
    version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
struct ToolJson {
    driver: Driver,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InvocationJson {
    execution_successful: bool,
    exit_code: i32,
    tool_execution_notifications: Vec<Notification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    command_line: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<Vec<String>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<u32>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultJson {
    rule_id: &'static str,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
}

#[derive(Serialize)]
struct StageProperties {
    name: String,
    verdict: &'static str,
    reason: Option<String>,
}

#[derive(Serialize)]
struct FunctionProperties {
    function: String,
    verdict: &'static str,
    stages: Vec<StageProperties>,
    bounds: super::bounds::BoundsJson,
}

#[derive(Serialize)]
struct Properties {
    verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stages: Option<Vec<StageProperties>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bounds: Option<super::bounds::BoundsJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    functions: Option<Vec<FunctionProperties>>,
}

#[derive(Serialize)]
struct Run {
    tool: ToolJson,
    invocations: Vec<InvocationJson>,
    results: Vec<ResultJson>,
    properties: Properties,
}

#[derive(Serialize)]
struct Log {
    version: &'static str,
    #[serde(rename = "$schema")]
    schema: &'static str,
    runs: Vec<Run>,
}

/// The rules of convcheck's SARIF logs.
fn rules() -> Vec<Rule> {
    let rule = |id, text: &str| Rule {
        id,
        short_description: Text { text: text.into() },
        default_configuration: None,
    };
    vec![
        rule(
            "convergence",
            "A transform changed which threads execute a convergent operation together",
        ),
        rule(
            "single-thread-behaviour",
            "A transform changed a thread's observable events",
        ),
        rule(
            "hazards",
            "A transform introduced a race or barrier divergence",
        ),
        Rule {
            default_configuration: Some(Configuration { level: "warning" }),
            ..rule(
                "inconclusive",
                "The check ran out of a budget or met what the model does not cover, so the \
                 property is not established",
            )
        },
    ]
}

fn driver() -> ToolJson {
    ToolJson {
        driver: Driver {
            name: "convcheck",
            version: env!("CARGO_PKG_VERSION"),
            rules: rules(),
        },
    }
}

/// The SARIF invocation: the command line, the exit code, and a
/// notification per `notes` entry (level, text).
fn invocation(
    inv: &Invocation,
    successful: bool,
    exit_code: i32,
    notes: Vec<(&'static str, String)>,
) -> InvocationJson {
    InvocationJson {
        execution_successful: successful,
        exit_code,
        tool_execution_notifications: notes
            .into_iter()
            .map(|(level, text)| Notification {
                level,
                message: Text { text },
            })
            .collect(),
        command_line: inv.command_line.as_ref().map(|args| {
            args.iter()
                .map(|a| crate::pass_cmd::shell_quote(a))
                .collect::<Vec<_>>()
                .join(" ")
        }),
        arguments: inv
            .command_line
            .as_ref()
            .map(|args| args.get(1..).unwrap_or(&[]).to_vec()),
    }
}

fn location(file: &str, line: u32, column: Option<u32>) -> Location {
    Location {
        physical_location: PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: sarif_uri(file),
            },
            region: Region {
                start_line: line,
                start_column: column,
            },
        },
    }
}

fn stage_properties(fr: &FunctionReport) -> Vec<StageProperties> {
    fr.stages
        .iter()
        .map(|s| StageProperties {
            name: s.name.clone(),
            verdict: s.verdict().as_str(),
            reason: match &s.outcome {
                Outcome::Inconclusive(w) => Some(w.clone()),
                _ => None,
            },
        })
        .collect()
}

/// The SARIF log of a report; `exit_code` is what the process exits with.
pub fn render(report: &Report, inv: &Invocation, exit_code: i32) -> String {
    let mut results = Vec::new();
    let mut notes = Vec::new();
    for fr in &report.functions {
        for s in &fr.stages {
            match &s.outcome {
                Outcome::Violated(f) => {
                    let (file, line, column) = match &f.operation {
                        Some(at) => super::json::location(report, s, at),
                        None => (report.file.clone(), 1, 1),
                    };
                    results.push(ResultJson {
                        rule_id: f.property.id(),
                        level: "error",
                        message: Text {
                            text: format!("{}: {}", s.name, super::named_message(fr, s, f).0),
                        },
                        locations: vec![location(&file, line, Some(column))],
                    });
                }
                Outcome::Inconclusive(why) => {
                    let text = format!("{}: inconclusive: {why}", s.name);
                    results.push(ResultJson {
                        rule_id: "inconclusive",
                        level: "warning",
                        message: Text { text: text.clone() },
                        locations: vec![location(&report.file, 1, None)],
                    });
                    notes.push(("warning", text));
                }
                Outcome::Preserved { .. } => {}
            }
        }
    }
    let properties = match report.functions.as_slice() {
        [one] => Properties {
            verdict: report.verdict().as_str(),
            stages: Some(stage_properties(one)),
            bounds: Some(super::bounds::BoundsJson::of(one)),
            functions: None,
        },
        many => Properties {
            verdict: report.verdict().as_str(),
            stages: None,
            bounds: None,
            functions: Some(
                many.iter()
                    .map(|fr| FunctionProperties {
                        function: fr.function.clone(),
                        verdict: fr.verdict().as_str(),
                        stages: stage_properties(fr),
                        bounds: super::bounds::BoundsJson::of(fr),
                    })
                    .collect(),
            ),
        },
    };
    let log = Log {
        version: "2.1.0",
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        runs: vec![Run {
            tool: driver(),
            invocations: vec![invocation(inv, true, exit_code, notes)],
            results,
            properties,
        }],
    };
    to_line(&log)
}

/// An error as a SARIF log: an unsuccessful invocation with an error
/// notification and no result.
pub fn error_log(message: &str, inv: &Invocation, exit_code: i32) -> String {
    let log = Log {
        version: "2.1.0",
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        runs: vec![Run {
            tool: driver(),
            invocations: vec![invocation(
                inv,
                false,
                exit_code,
                vec![("error", message.to_string())],
            )],
            results: Vec::new(),
            properties: Properties {
                verdict: "error",
                stages: None,
                bounds: None,
                functions: None,
            },
        }],
    };
    to_line(&log)
}

/// A value as one line of JSON with sorted keys.
fn to_line<T: Serialize>(v: &T) -> String {
    let value = serde_json::to_value(v).unwrap_or(serde_json::Value::Null);
    format!("{value}\n")
}
