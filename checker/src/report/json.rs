//! The JSON report of a check (DESIGN.md section 4; its fields are listed
//! in docs/src/cli.md): serde types built from the [`Report`], printed as
//! one object with its keys in sorted order.
//!
//! One function's report is the object itself (`verdict`, `file`,
//! `function`, `bounds`, `stages`, `counterexample`, ...); several are
//! listed under `"functions"`, with the worst verdict and the functions
//! defined on one side only (`"not_compared"`).

use super::bounds::BoundsJson;
use super::{FunctionReport, Invocation, Report, Stage};
use crate::config::Reference;
use crate::engine::{At, Finding, Outcome, Property, Which};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The tool's name and version, as every JSON report carries them.
#[derive(Serialize)]
pub struct Tool {
    name: &'static str,
    version: &'static str,
}

impl Tool {
    /// convcheck, this version.
    pub fn this() -> Tool {
        Tool {
            name: "convcheck",
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// Where a counterexample's operation is.
#[derive(Serialize)]
struct OperationJson {
    label: String,
    file: String,
    line: u32,
    column: u32,
    op: u32,
    side: Which,
}

#[derive(Serialize)]
struct ThreadJson {
    tid: u32,
    values: BTreeMap<String, Vec<i64>>,
}

/// A violated stage's counterexample.
#[derive(Serialize)]
pub struct CounterexampleJson {
    stage: String,
    property: Property,
    message: String,
    /// The memory locations of `message`, named (`report::naming`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    places: Vec<super::naming::Place>,
    operation: Option<OperationJson>,
    group: u32,
    threads: Vec<ThreadJson>,
    reference_table: Value,
    target_table: Value,
    replay: Option<String>,
    replay_target: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    no_replay_target: Option<String>,
}

/// One stage.
#[derive(Serialize)]
struct StageJson {
    name: String,
    verdict: &'static str,
    notes: Vec<String>,
    engine: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    against: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scenarios: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cut_paths: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<ProofJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counterexample: Option<CounterexampleJson>,
    /// Why the simulation engine found no unbounded proof, where it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    simulation: Option<String>,
}

/// The proof of a stage proved for every iteration count.
#[derive(Serialize)]
struct ProofJson {
    kind: &'static str,
    /// Straight-line edges merged (a structural proof).
    #[serde(skip_serializing_if = "Option::is_none")]
    merged_edges: Option<usize>,
    /// Pairs of program points in the relation (a simulation proof).
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<usize>,
    /// Steps of the relation checked (a simulation proof).
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<usize>,
}

impl ProofJson {
    fn structure(merged: usize) -> ProofJson {
        ProofJson {
            kind: "structure",
            merged_edges: Some(merged),
            nodes: None,
            steps: None,
        }
    }
}

/// One function's check.
#[derive(Serialize)]
pub struct FunctionJson {
    verdict: &'static str,
    file: String,
    target_file: Option<String>,
    function: String,
    reference: Reference,
    threads: u32,
    bounds: BoundsJson,
    stages: Vec<StageJson>,
    counterexample: Option<CounterexampleJson>,
}

/// The report of a check of one function.
#[derive(Serialize)]
struct OneJson {
    tool: Tool,
    command_line: Option<Vec<String>>,
    #[serde(flatten)]
    function: FunctionJson,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    not_compared: Vec<String>,
}

/// The report of a check of several functions.
#[derive(Serialize)]
struct ManyJson {
    tool: Tool,
    command_line: Option<Vec<String>>,
    verdict: &'static str,
    file: String,
    functions: Vec<FunctionJson>,
    not_compared: Vec<String>,
}

/// Where operation `at` of a finding of `stage` is: the file, line and
/// column (1 when unknown) of its side's source.
pub fn location(report: &Report, stage: &Stage, at: &At) -> (String, u32, u32) {
    let (module, file) = match at.side {
        Which::Reference => (&stage.reference_module, report.file.clone()),
        Which::Target => (
            &stage.target_module,
            report
                .target_file
                .clone()
                .unwrap_or_else(|| report.file.clone()),
        ),
    };
    let col = module.op(at.op).map_or(1, |o| o.span.start.col.max(1));
    (file, at.line.max(1), col)
}

fn counterexample(
    report: &Report,
    fr: &FunctionReport,
    i: usize,
    f: &Finding,
) -> CounterexampleJson {
    let s = &fr.stages[i];
    let (reference_table, target_table) = match super::tables(s, f) {
        Ok((r, t)) => (r.to_json(), t.to_json()),
        Err(e) => (serde_json::json!({ "error": e }), Value::Null),
    };
    let target = report.replay.target(fr, i, f);
    let (message, places) = super::named_message(fr, s, f);
    CounterexampleJson {
        stage: s.name.clone(),
        property: f.property,
        message,
        places,
        operation: f.operation.as_ref().map(|a| {
            let (file, line, column) = location(report, s, a);
            OperationJson {
                label: a.label.clone(),
                file,
                line,
                column,
                op: a.op.0,
                side: a.side,
            }
        }),
        group: f.group,
        threads: f
            .tids
            .iter()
            .zip(&f.threads)
            .map(|(t, v)| ThreadJson {
                tid: *t,
                values: v.0.clone(),
            })
            .collect(),
        reference_table,
        target_table,
        replay: report.replay.reference(fr, s, f),
        no_replay_target: target.clone().err().flatten(),
        replay_target: target.ok(),
    }
}

/// One function's object.
pub fn function_json(report: &Report, fr: &FunctionReport) -> FunctionJson {
    let stages = fr
        .stages
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let explicit = matches!(s.method, super::Method::Explicit);
            let (scenarios, cut_paths) = match &s.outcome {
                Outcome::Preserved { pairs, cut } if explicit => (Some(*pairs), Some(*cut)),
                _ => (None, None),
            };
            StageJson {
                name: s.name.clone(),
                verdict: s.verdict().as_str(),
                notes: s.notes.clone(),
                engine: s.method.engine(),
                against: s.against.clone(),
                scenarios,
                cut_paths,
                reason: match &s.outcome {
                    Outcome::Inconclusive(w) => Some(w.clone()),
                    _ => None,
                },
                proof: match &s.method {
                    super::Method::Structure { merged } if s.proved() => {
                        Some(ProofJson::structure(*merged))
                    }
                    super::Method::Simulation { nodes, steps } if s.proved() => Some(ProofJson {
                        kind: "simulation",
                        merged_edges: None,
                        nodes: Some(*nodes),
                        steps: Some(*steps),
                    }),
                    super::Method::Product(p) => match p.proof {
                        convcheck_smt::product::Proof::Structure { merged } if s.proved() => {
                            Some(ProofJson::structure(merged))
                        }
                        _ => None,
                    },
                    _ => None,
                },
                counterexample: s.finding().map(|f| counterexample(report, fr, i, f)),
                simulation: s.simulation.clone(),
            }
        })
        .collect();
    let first = fr
        .first_broken()
        .and_then(|(i, s)| s.finding().map(|f| counterexample(report, fr, i, f)));
    FunctionJson {
        verdict: fr.verdict().as_str(),
        file: report.file.clone(),
        target_file: report.target_file.clone(),
        function: fr.function.clone(),
        reference: fr.reference,
        threads: fr.threads,
        bounds: BoundsJson::of(fr),
        stages,
        counterexample: first,
    }
}

/// The JSON value of a report.
pub fn value(report: &Report, inv: &Invocation) -> Value {
    let v = if let [one] = report.functions.as_slice() {
        serde_json::to_value(OneJson {
            tool: Tool::this(),
            command_line: inv.command_line.clone(),
            function: function_json(report, one),
            not_compared: report.not_compared.clone(),
        })
    } else {
        serde_json::to_value(ManyJson {
            tool: Tool::this(),
            command_line: inv.command_line.clone(),
            verdict: report.verdict().as_str(),
            file: report.file.clone(),
            functions: report
                .functions
                .iter()
                .map(|fr| function_json(report, fr))
                .collect(),
            not_compared: report.not_compared.clone(),
        })
    };
    v.unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }))
}

/// The JSON report, one line.
pub fn render(report: &Report, inv: &Invocation) -> String {
    format!("{}\n", value(report, inv))
}
