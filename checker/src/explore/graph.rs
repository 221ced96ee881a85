//! CFG pictures for the explorer: one function of a module as SVG, drawn
//! in-process by layout-rs (as `lower --emit svg`), with every block's
//! group element tagged `class="cc-block" data-block="INDEX"` so that the
//! page can highlight it and find it when a table cell is clicked.
//!
//! The picture is built with layout-rs's graph API rather than from the DOT
//! text because its DOT reader drops node attributes; the drawing is the
//! same as `cfg_dot`'s: blocks as boxes, back edges (edges to a header of a
//! cycle containing the source, LLVM's CycleInfo) dashed and red, branch
//! arms labelled `T`/`F` and switch arms by their case values. A box lists
//! the block's name, its instructions with the labels of the convergent
//! operations they perform, and its branch condition.

use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::print::{expr, inst};
use convcheck_ir::{Cfg, InstKind, Module, Term};
use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::render::get_shape_size;
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
use layout::topo::layout::VisualGraph;

/// Longest line in a box, in characters; longer ones end with `…`.
const MAX_LINE: usize = 44;

/// One block as the page needs it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BlockInfo {
    /// Its index in the function (the `data-block` of its picture).
    pub index: usize,
    /// Its name.
    pub name: String,
    /// The ops of the instances it produces (convergent operations,
    /// calls, memory accesses), in order.
    pub ops: Vec<u32>,
    /// Their labels, as trace tables print them.
    pub labels: Vec<String>,
    /// The line of the statement that created it, when known.
    pub line: Option<u32>,
}

/// The ops an instruction produces instances of.
fn inst_ops(i: &convcheck_ir::Inst) -> Vec<convcheck_ir::ops::OpId> {
    match &i.kind {
        InstKind::Observe => vec![i.sid],
        InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => e.ops(),
        InstKind::Phi { incoming, .. } => incoming.iter().flat_map(|(_, e)| e.ops()).collect(),
        _ => Vec::new(),
    }
}

/// The blocks of `cfg` with their ops and labels.
pub fn blocks(m: &Module, cfg: &Cfg) -> Vec<BlockInfo> {
    cfg.blocks
        .iter()
        .enumerate()
        .map(|(index, b)| {
            let ops: Vec<_> = b.insts.iter().flat_map(inst_ops).collect();
            BlockInfo {
                index,
                name: b.name.clone(),
                labels: ops.iter().map(|o| m.label(*o).to_string()).collect(),
                ops: ops.iter().map(|o| o.0).collect(),
                line: b
                    .origin
                    .and_then(|o| m.op(o))
                    .map(|info| info.span.start.line)
                    .filter(|&l| l > 0),
            }
        })
        .collect()
}

fn clip(s: &str) -> String {
    let s: String = s.chars().filter(|c| !c.is_control()).collect();
    if s.chars().count() <= MAX_LINE {
        s
    } else {
        let mut t: String = s.chars().take(MAX_LINE - 1).collect();
        t.push('…');
        t
    }
}

/// The text of a block's box.
fn box_text(m: &Module, cfg: &Cfg, b: usize) -> String {
    let block = &cfg.blocks[b];
    let mut lines = vec![clip(&format!("{}:", block.name))];
    for i in &block.insts {
        // The op id prefix (`#13 `) means nothing to a reader of the
        // picture; the labels after `;` say which operations it performs.
        let text = inst(m, i);
        let text = text.split_once(' ').map_or(text.as_str(), |(_, rest)| rest);
        let labels: Vec<String> = inst_ops(i)
            .iter()
            .map(|o| m.label(*o).to_string())
            .collect();
        let line = if labels.is_empty() {
            text.to_string()
        } else {
            format!("{text} ; {}", labels.join(", "))
        };
        lines.push(clip(&line));
    }
    match &block.term {
        Term::CondBr { cond, .. } => lines.push(clip(&format!("br {}", expr(m, cond)))),
        Term::Switch { value, .. } => lines.push(clip(&format!("switch {}", expr(m, value)))),
        Term::Ret(_) => lines.push("ret".into()),
        // `br` shows as its edge; a terminator added to the IR later shows
        // as its successors until it is drawn here.
        _ => {}
    }
    lines.join("\n")
}

/// The SVG picture of `cfg`.
pub fn svg(m: &Module, cfg: &Cfg) -> String {
    let cycles = CycleInfo::compute(cfg);
    let dir = Orientation::TopToBottom;
    let mut vg = VisualGraph::new(dir);
    let font = 14;
    let handles: Vec<_> = (0..cfg.blocks.len())
        .map(|b| {
            let shape = ShapeKind::new_box(&box_text(m, cfg, b));
            // As layout-rs's DOT builder: shapes of a top-down graph are
            // sized in the flipped orientation.
            let size = get_shape_size(dir.flip(), &shape, font, false);
            let look = StyleAttr::new(Color::fast("black"), 1, Some(Color::fast("white")), 0, font);
            vg.add_node(Element::create_with_properties(
                shape,
                look,
                dir.flip(),
                size,
                format!("class=\"cc-block\" data-block=\"{b}\""),
            ))
        })
        .collect();
    for (b, block) in cfg.blocks.iter().enumerate() {
        let arms: Vec<(usize, String)> = match &block.term {
            Term::CondBr { then, els, .. } => vec![(*then, "T".into()), (*els, "F".into())],
            Term::Switch { cases, default, .. } => cases
                .iter()
                .map(|(c, t)| (*t, c.to_string()))
                .chain(std::iter::once((*default, "default".to_string())))
                .collect(),
            t => t.succs().into_iter().map(|s| (s, String::new())).collect(),
        };
        for (s, label) in arms {
            if s >= handles.len() {
                continue;
            }
            let back = cycles.containing[b]
                .iter()
                .any(|&c| cycles.cycles[c].header == s);
            let (color, style) = if back {
                ("red", LineStyleKind::Dashed)
            } else {
                ("black", LineStyleKind::Normal)
            };
            let look = StyleAttr::new(Color::fast(color), 1, None, 0, font);
            let arrow = Arrow::new(
                LineEndKind::None,
                LineEndKind::Arrow,
                style,
                &label,
                &look,
                &None,
                &None,
            );
            vg.add_edge(arrow, handles[b], handles[s]);
        }
    }
    let mut writer = SVGWriter::new();
    vg.do_it(false, false, false, &mut writer);
    writer.finalize()
}
