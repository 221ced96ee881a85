//! `convcheck lower`: a kernel's CFG as text, DOT, or its cycle hierarchy.

use crate::cli::{Emit, LowerArgs};
use crate::{load_kernel, Outcome, EXIT_VIOLATION};
use convcheck_model::cfg::cycles::CycleInfo;
use convcheck_model::cfg::lower::lower as lower_kernel;
use convcheck_model::cfg::print::{cfg_dot, cfg_text};
use convcheck_model::cfg::tokens::{infer, verify};

/// The `lower` command.
pub fn lower(a: &LowerArgs) -> Outcome {
    let kernel = match load_kernel(&a.file) {
        Ok(k) => k,
        Err(o) => return o,
    };
    let only = match &a.function {
        Some(name) => match kernel.entry(Some(name)) {
            Ok(f) => Some(f),
            Err(e) => return Outcome::usage(e),
        },
        None => None,
    };
    let mut module = lower_kernel(&kernel, a.tokens);
    if a.infer_tokens {
        for cfg in module.functions.iter_mut() {
            match infer(&kernel, cfg) {
                Ok(c) => *cfg = c,
                Err(e) => return Outcome::usage(e),
            }
        }
    }
    let mut parts = Vec::new();
    let mut problems = Vec::new();
    for (f, cfg) in module.functions.iter().enumerate() {
        if only.is_some_and(|o| o != f) {
            continue;
        }
        if a.verify {
            problems.extend(verify(&kernel, cfg).iter().map(|e| e.to_string()));
        }
        parts.push(match a.emit {
            Emit::Cfg => cfg_text(&kernel, cfg),
            Emit::Dot => cfg_dot(&kernel, cfg),
            Emit::Svg => match svg(&cfg_dot(&kernel, cfg)) {
                Ok(s) => s,
                Err(e) => return Outcome::usage(format!("drawing {}: {e}", cfg.name)),
            },
            Emit::Cycles => {
                let ci = CycleInfo::compute(cfg);
                let body = ci.describe(cfg);
                format!(
                    "{}:\n{}\n",
                    cfg.name,
                    if body.is_empty() {
                        "  no cycle".into()
                    } else {
                        body
                    }
                )
            }
        });
    }
    let mut out = Outcome::ok(parts.join("\n"));
    if a.verify {
        if problems.is_empty() {
            out.stderr = "token rules: no violation\n".into();
        } else {
            out.stderr = problems
                .iter()
                .map(|p| format!("token rule violated: {p}\n"))
                .collect();
            out.code = EXIT_VIOLATION;
        }
    }
    out
}

/// Draws a DOT graph as SVG with layout-rs (no system graphviz needed).
pub fn svg(dot: &str) -> Result<String, String> {
    use layout::backends::svg::SVGWriter;
    use layout::gv::{DotParser, GraphBuilder};
    let mut parser = DotParser::new(dot);
    let graph = parser.process()?;
    let mut builder = GraphBuilder::new();
    builder.visit_graph(&graph);
    let mut visual = builder.get();
    let mut writer = SVGWriter::new();
    visual.do_it(false, false, false, &mut writer);
    Ok(writer.finalize())
}
