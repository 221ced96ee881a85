//! Text and DOT forms of a CFG.
//!
//! The text form reads like LLVM IR: a `define` per function, labelled
//! blocks, one instruction per line, terminators `br`, `switch` and `ret`,
//! convergence-control tokens as `call token @llvm.experimental.convergence.*`
//! and `convergencectrl` operand bundles. Conditions and operands stay in
//! kernel-language syntax. Comments give each block's provenance and each
//! operation's label and line.
//!
//! The DOT form draws blocks as boxes; back edges (edges into the header of
//! a cycle that contains their source) are dashed and red.

use super::cycles::CycleInfo;
use super::{Cfg, Inst, InstKind, Module, Term};
use crate::sema::Kernel;
use crate::syntax::print_expr;
use std::fmt::Write;

fn bundle(token: &Option<String>) -> String {
    match token {
        Some(t) => format!(" [ \"convergencectrl\"(token {t}) ]"),
        None => String::new(),
    }
}

/// One instruction as text (no indentation, no newline).
pub fn inst(kernel: &Kernel, i: &Inst) -> String {
    let line = kernel.node(i.sid).span.start.line;
    match &i.kind {
        InstKind::Observe => format!(
            "call void @observe(){} ; {} (line {line})",
            bundle(&i.token),
            kernel.label(i.sid)
        ),
        InstKind::Eval(e) => format!("eval {}{} ; line {line}", print_expr(e), bundle(&i.token)),
        InstKind::SetLocal { name, value } => {
            let v = value.as_ref().map_or("0".to_string(), print_expr);
            format!("%{name} = {v}{} ; line {line}", bundle(&i.token))
        }
        InstKind::Token { kind, name } => format!(
            "{name} = call token @llvm.experimental.convergence.{}(){}",
            kind.name(),
            bundle(&i.token)
        ),
    }
}

fn term(cfg: &Cfg, t: &Term) -> String {
    let name = |b: usize| format!("label %{}", cfg.blocks[b].name);
    match t {
        Term::Br(b) => format!("br {}", name(*b)),
        Term::CondBr { cond, then, els } => {
            format!(
                "br i1 ({}), {}, {}",
                print_expr(cond),
                name(*then),
                name(*els)
            )
        }
        Term::Switch {
            value,
            cases,
            default,
        } => {
            let cs: Vec<String> = cases
                .iter()
                .map(|(v, b)| format!("{v}, {}", name(*b)))
                .collect();
            format!(
                "switch ({}), {} [ {} ]",
                print_expr(value),
                name(*default),
                cs.join("  ")
            )
        }
        Term::Ret(None) => "ret void".into(),
        Term::Ret(Some(e)) => format!("ret ({})", print_expr(e)),
    }
}

/// The text form of one CFG.
pub fn cfg_text(kernel: &Kernel, cfg: &Cfg) -> String {
    let mut out = String::new();
    let params: Vec<String> = cfg.params.iter().map(|p| format!("i64 %{p}")).collect();
    let _ = writeln!(out, "define void @{}({}) {{", cfg.name, params.join(", "));
    for (b, block) in cfg.blocks.iter().enumerate() {
        if b > 0 {
            out.push('\n');
        }
        let origin = block
            .origin
            .map(|s| format!("  ; from line {}", kernel.node(s).span.start.line))
            .unwrap_or_default();
        let _ = writeln!(out, "{}:{origin}", block.name);
        for i in &block.insts {
            let _ = writeln!(out, "  {}", inst(kernel, i));
        }
        let _ = writeln!(out, "  {}", term(cfg, &block.term));
    }
    out.push_str("}\n");
    out
}

/// The text form of a module.
pub fn module_text(kernel: &Kernel, m: &Module) -> String {
    m.functions
        .iter()
        .map(|c| cfg_text(kernel, c))
        .collect::<Vec<_>>()
        .join("\n")
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('<', "\\<")
        .replace('>', "\\>")
}

/// The DOT form of one CFG; back edges are dashed and red.
pub fn cfg_dot(kernel: &Kernel, cfg: &Cfg) -> String {
    let cycles = CycleInfo::compute(cfg);
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", dot_escape(&cfg.name));
    let _ = writeln!(out, "  node [shape=box, fontname=\"monospace\"];");
    for (b, block) in cfg.blocks.iter().enumerate() {
        let mut label = format!("{}:\\l", dot_escape(&block.name));
        for i in &block.insts {
            let _ = write!(label, "  {}\\l", dot_escape(&inst(kernel, i)));
        }
        let _ = writeln!(out, "  b{b} [label=\"{label}\"];");
    }
    for (b, block) in cfg.blocks.iter().enumerate() {
        for s in block.term.succs() {
            let back = cycles.containing[b]
                .iter()
                .any(|&c| cycles.cycles[c].header == s);
            let style = if back {
                " [style=dashed, color=red]"
            } else {
                ""
            };
            let _ = writeln!(out, "  b{b} -> b{s}{style};");
        }
    }
    out.push_str("}\n");
    out
}
