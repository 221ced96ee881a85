//! `convcheck lower`: a kernel's IR module as text (the IR's own format,
//! which reads back), LLVM IR (`--emit ll`), DOT, SVG, or its cycle hierarchy; with `--pass`, the
//! module after each pass of a pipeline.
//!
//! With `--frontend clang` the file is a source that clang compiles
//! (`.c`, `.cu`, `.hip`, `.cl`): `--emit ll` prints clang's output exactly
//! as `check --frontend clang` reads it and hands it to `opt` (kernels
//! under their source names), which is what replay lines of such checks
//! start from; the other forms show the module convcheck maps it to.

/// What `lower` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Emit {
    /// The readable text form (LLVM-IR style).
    #[default]
    Cfg,
    /// Graphviz DOT.
    Dot,
    /// SVG, drawn in-process from the DOT form (layout-rs).
    Svg,
    /// The cycle hierarchy of each function.
    Cycles,
    /// LLVM IR that `opt -passes=verify` accepts and that reads back to
    /// the same CFG (docs/src/llvm.md).
    Ll,
}

/// What `lower` is asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LowerArgs {
    /// The kernel file.
    pub file: String,
    /// Only this function (default: all).
    pub function: Option<String>,
    /// Place convergence-control tokens from the source structure.
    pub tokens: bool,
    /// Place tokens on the lowered CFG by LLVM's "Inferring Tokens"
    /// procedure instead (reducible CFGs only).
    pub infer_tokens: bool,
    /// Check the static rules of convergence-control tokens and report
    /// every violation.
    pub verify: bool,
    /// What to print.
    pub emit: Emit,
    /// Passes to run on the lowered module, in order.
    pub passes: Vec<String>,
    /// For a source compiled by clang (`--frontend clang`): the front end
    /// and its options.
    pub llvm: crate::llvm::LlvmOptions,
}
use crate::{load_kernel, Error, Output, Status};
use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::print::{cfg_dot, cfg_text, module_text};
use convcheck_ir::tokens::{infer, verify};
use convcheck_lang::lower::lower as lower_kernel;

/// `lower --frontend clang`: clang's output as convcheck reads it.
fn lower_source(a: &LowerArgs) -> Result<Output, Error> {
    if a.tokens || a.infer_tokens {
        return Err(Error::usage(
            "--tokens and --infer-tokens place tokens when convcheck lowers a kernel; with \
             --frontend clang, clang lowers it",
        ));
    }
    let (loaded, compiled) = crate::llvm::load_source(&a.file, &a.llvm)?;
    if a.emit == Emit::Ll && a.passes.is_empty() {
        return Ok(Output::holds(compiled.text));
    }
    let only = match &a.function {
        Some(name) => {
            let (f, _) = crate::llvm::names::resolve(&loaded.defined, name)
                .map_err(|e| Error::usage(format!("--function {name}: {}: {e}", a.file)))?;
            match loaded.index(&f) {
                Some(i) => Some(i),
                None => {
                    let why = loaded.skipped(&f).unwrap_or_default();
                    return Err(Error::inconclusive(format!("{}: {why}", loaded.file)));
                }
            }
        }
        None => None,
    };
    render(a, loaded.mapped.module, only)
}

/// The `lower` command.
pub fn lower(a: &LowerArgs) -> Result<Output, Error> {
    if a.llvm.frontend.is_some() {
        return lower_source(a);
    }
    let kernel = load_kernel(&a.file)?;
    let only = match &a.function {
        Some(name) => match kernel.entry(Some(name)) {
            Ok(f) => Some(f),
            Err(e) => return Err(Error::usage(e)),
        },
        None => None,
    };
    let mut module = lower_kernel(&kernel, a.tokens);
    if a.infer_tokens {
        for cfg in module.functions.iter_mut() {
            match infer(cfg) {
                Ok(c) => *cfg = c,
                Err(e) => return Err(Error::usage(e)),
            }
        }
    }
    render(a, module, only)
}

/// The module and what the passes make of it, in the form asked for.
fn render(
    a: &LowerArgs,
    module: convcheck_ir::Module,
    only: Option<usize>,
) -> Result<Output, Error> {
    let mut stages = vec![("lower".to_string(), Vec::new(), module.clone())];
    stages.extend(crate::apply_passes(&module, &a.passes)?);
    let mut parts = Vec::new();
    let mut drawings: Vec<(String, String)> = Vec::new();
    let mut problems = Vec::new();
    let staged = stages.len() > 1;
    for (stage, notes, module) in &stages {
        let mut part = String::new();
        if staged && !matches!(a.emit, Emit::Svg | Emit::Dot) {
            part.push_str(&format!("; after {stage}\n"));
            // With --function, notes about the other functions of the
            // file are not about what is shown.
            let own = only.map(|f| format!("@{}:", module.functions[f].name));
            for n in notes {
                if own
                    .as_ref()
                    .is_none_or(|o| n.starts_with(o.as_str()) || !n.starts_with('@'))
                {
                    part.push_str(&format!("; {n}\n"));
                }
            }
        }
        if a.emit == Emit::Ll {
            // The whole module: a function's real calls need their callees.
            part.push_str(&convcheck_llvm::write::module_text(module));
            parts.push(part);
            continue;
        }
        if a.emit == Emit::Cfg && only.is_none() {
            part.push_str(&module_text(module));
            parts.push(part);
            continue;
        }
        for (f, cfg) in module.functions.iter().enumerate() {
            if only.is_some_and(|o| o != f) {
                continue;
            }
            part.push_str(&match a.emit {
                Emit::Cfg | Emit::Ll => cfg_text(module, cfg),
                Emit::Dot => cfg_dot(module, cfg),
                Emit::Svg => match svg(&cfg_dot(module, cfg)) {
                    // Drawings are gathered into one document below.
                    Ok(s) => {
                        let title = if staged {
                            format!("@{} after {stage}", cfg.name)
                        } else {
                            format!("@{}", cfg.name)
                        };
                        drawings.push((title, s));
                        String::new()
                    }
                    Err(e) => return Err(Error::usage(format!("drawing {}: {e}", cfg.name))),
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
        parts.push(part);
    }
    if a.verify {
        for (stage, _, module) in &stages {
            for (f, cfg) in module.functions.iter().enumerate() {
                if only.is_none_or(|o| o == f) {
                    let after = if staged {
                        format!(" (after {stage})")
                    } else {
                        String::new()
                    };
                    problems.extend(verify(cfg).iter().map(|e| format!("{e}{after}")));
                }
            }
        }
    }
    if a.emit == Emit::Svg {
        parts = vec![stack_svgs(&drawings)];
    }
    let mut out = Output::holds(parts.join("\n"));
    if a.verify {
        if problems.is_empty() {
            out.remark = Some("token rules: no violation".into());
        } else {
            out.remark = Some(
                problems
                    .iter()
                    .map(|p| format!("token rule violated: {p}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
            out.status = Status::Found;
        }
    }
    Ok(out)
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

/// One SVG document from several drawings (one per function and stage):
/// a single drawing as it is; several stacked top to bottom, each under
/// its title, as nested `<svg>` elements of one outer document (two
/// concatenated documents are not XML).
pub fn stack_svgs(drawings: &[(String, String)]) -> String {
    if let [(_, one)] = drawings {
        return one.clone();
    }
    // The size layout-rs writes on its root element.
    fn size(svg: &str) -> (f64, f64) {
        let attr = |name: &str| -> f64 {
            let key = format!("{name}=\"");
            svg.find(&key)
                .and_then(|k| {
                    let rest = &svg[k + key.len()..];
                    rest[..rest.find('"')?].parse().ok()
                })
                .unwrap_or(0.0)
        };
        (attr("width"), attr("height"))
    }
    const TITLE: f64 = 24.0;
    let mut body = String::new();
    let (mut width, mut y) = (0.0f64, 0.0f64);
    for (title, svg) in drawings {
        let inner = svg.find("<svg").map_or(svg.as_str(), |k| &svg[k..]);
        let (w, h) = size(inner);
        let escaped = title
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        body.push_str(&format!(
            "<text x=\"8\" y=\"{}\" font-family=\"monospace\" font-size=\"14\">{escaped}</text>\n",
            y + 17.0
        ));
        body.push_str(&inner.replacen("<svg", &format!("<svg x=\"0\" y=\"{}\"", y + TITLE), 1));
        body.push('\n');
        width = width.max(w);
        y += TITLE + h;
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<svg width=\"{width}\" height=\"{y}\" viewBox=\"0 0 {width} {y}\" xmlns=\"http://www.w3.org/2000/svg\">\n{body}</svg>\n"
    )
}
