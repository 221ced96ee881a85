//! The text form of the IR, and the DOT form of a function's CFG.
//!
//! The text form is the IR's own file format (`.cir`): [`crate::parse`]
//! reads back exactly what [`module_text`] writes, so tests and users can
//! write modules by hand and external passes can exchange them. It reads
//! like LLVM IR where it can:
//!
//! ```text
//! module "loop.c"
//! oracle $c varying [0, 1] at 3:10-3:11
//! op #0 stmt "@1" in @k at 1:1-1:2
//! op #1 observe "A" in @k at 3:5-3:8
//!
//! define void @k() {
//! entry: origin #0
//!   #1 observe [convergencectrl %tok.0]
//!   br ($c != 0), label %then, label %end
//! ...
//! }
//! ```
//!
//! - `module "NAME" [max_group N]`: the first line; `max_group` where the
//!   module states the most threads of a group ([`crate::Module::max_group`]).
//! - `oracle $NAME CLASS [DOMAIN] at SPAN`: the oracle table, in id order.
//! - `op #ID KIND "LABEL" in @FUNCTION at SPAN`: the op table, in id order;
//!   `KIND` is `stmt`, `observe`, `token`, `mem SPACE read|write`, or
//!   `call CALLKIND` with `CALLKIND` one of `real @f`, `op $o`, `plain $o`,
//!   `oracle $o`, `barrier KIND [$o]`, `fence`; a convergent operation that
//!   accesses no memory ([`crate::OpInfo::memory_none`]) ends its line
//!   with `memory(none)`.
//! - `define void @f(%p = $o, ...) { BLOCK... }`: a function; each
//!   parameter names the oracle that gives its value at a kernel launch.
//! - a block: `NAME:` with `origin #ID` when it has one, instructions, and
//!   a terminator: `br label %b`, `br COND, label %t, label %f`,
//!   `switch VALUE, label %default [ V: label %b ... ]`, `ret void`,
//!   `ret VALUE`, `unreachable`.
//! - an instruction starts with its op: `#ID observe`, `#ID eval EXPR`,
//!   `#ID set %x = EXPR`, `#ID set %x` (declared, no value), `#ID phi %x
//!   [EXPR, %pred] ...`, `#ID token %t = entry|loop|anchor`; any of them can
//!   end with `[convergencectrl %t]`.
//! - expressions: integers, `tid`, `N`, `%local`, `$oracle`, `(a OP b)` with
//!   C's operators and the unsigned `ult ule ugt uge udiv urem lshr`,
//!   `not(a)`, `neg(a)`, `bitnot(a)`, `sextN(a)` and `zextN(a)` (keep the low
//!   N bits, sign- or zero-extended), `(c ? a : b)`,
//!   `(%x = v)` and `(%x += v)`, `call #ID CALLKIND @name(args)`, `load #ID
//!   SPACE[index] -> $o`, `store #ID SPACE[index] = v`.
//!
//! Names that are not plain identifiers are quoted: `$"shared@14"`.
//! Everything after `;` on a line is a comment; the printer uses comments
//! to show labels and lines.
//!
//! The DOT form draws blocks as boxes; back edges (edges into the header of
//! a cycle that contains their source) are dashed and red, and the edges of
//! a conditional branch or switch are labelled with their arm.

use crate::cfg::{Cfg, Inst, InstKind, Module, Term};
use crate::cycles::CycleInfo;
use crate::expr::Expr;
use crate::ops::{CallKind, OpKind, OracleInfo};
use crate::span::Span;
use std::fmt::Write;

/// Whether `name` can be written without quotes after a sigil.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// `name` after a sigil, quoted when it is not a plain name.
pub fn name(sigil: char, name: &str) -> String {
    if is_plain_name(name) {
        format!("{sigil}{name}")
    } else {
        format!("{sigil}{}", quote(name))
    }
}

/// A string literal: `"` and `\` escaped, control characters as `\xx` hex.
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn span(s: Span) -> String {
    format!(
        "{}:{}-{}:{}",
        s.start.line, s.start.col, s.end.line, s.end.col
    )
}

fn oracle_ref(m: &Module, o: usize) -> String {
    match m.oracles.get(o) {
        Some(info) => name('$', &info.name),
        None => format!("$\"#{o}\""),
    }
}

fn func_ref(m: &Module, f: usize) -> String {
    match m.functions.get(f) {
        Some(c) => name('@', &c.name),
        None => format!("@\"#{f}\""),
    }
}

fn call_kind(m: &Module, k: CallKind) -> String {
    match k {
        CallKind::Real(f) => format!("real {}", func_ref(m, f)),
        CallKind::Op(o) => format!("op {}", oracle_ref(m, o)),
        CallKind::Plain(o) => format!("plain {}", oracle_ref(m, o)),
        CallKind::Oracle(o) => format!("oracle {}", oracle_ref(m, o)),
        CallKind::Barrier(b, None) => format!("barrier {}", b.name()),
        CallKind::Barrier(b, Some(o)) => format!("barrier {} {}", b.name(), oracle_ref(m, o)),
        CallKind::Fence => "fence".into(),
    }
}

/// One expression as text.
pub fn expr(m: &Module, e: &Expr) -> String {
    match e {
        Expr::Const(v) => v.to_string(),
        Expr::Tid => "tid".into(),
        Expr::GroupSize => "N".into(),
        Expr::Var(v) => name('%', v),
        Expr::Oracle(o) => oracle_ref(m, *o),
        Expr::Unary(op, a) => format!("{}({})", op.name(), expr(m, a)),
        Expr::Binary(op, a, b) => format!("({} {} {})", expr(m, a), op.symbol(), expr(m, b)),
        Expr::Select(c, a, b) => format!("({} ? {} : {})", expr(m, c), expr(m, a), expr(m, b)),
        Expr::Call {
            op,
            kind,
            callee,
            args,
        } => {
            let args: Vec<String> = args.iter().map(|a| expr(m, a)).collect();
            format!(
                "call #{} {} {}({})",
                op.0,
                call_kind(m, *kind),
                name('@', callee),
                args.join(", ")
            )
        }
        Expr::Load {
            op,
            space,
            index,
            value,
            access,
        } => {
            let v = value.map_or(String::new(), |o| format!(" -> {}", oracle_ref(m, o)));
            format!(
                "load #{}{} {}[{}]{v}",
                op.0,
                access_words(*access),
                space.name(),
                expr(m, index)
            )
        }
        Expr::Store {
            op,
            space,
            index,
            value,
            access,
        } => format!(
            "store #{}{} {}[{}] = {}",
            op.0,
            access_words(*access),
            space.name(),
            expr(m, index),
            expr(m, value)
        ),
        Expr::Assign { var, op, value } => {
            format!("({} {} {})", name('%', var), op.symbol(), expr(m, value))
        }
    }
}

/// ` bytes N` and ` volatile` for an access that is not an element.
fn access_words(a: crate::expr::Access) -> String {
    let mut out = String::new();
    if a.bytes > 0 {
        out.push_str(&format!(" bytes {}", a.bytes));
    }
    if a.volatile {
        out.push_str(" volatile");
    }
    if a.atomic != 0 {
        out.push_str(&format!(" atomic {}", a.atomic));
    }
    out
}

fn bundle(token: &Option<String>) -> String {
    match token {
        Some(t) => format!(" [convergencectrl {}]", name('%', t)),
        None => String::new(),
    }
}

/// One instruction as text (no indentation, no newline, no comment). Out
/// of its function, a phi names its predecessors by index (`%"#2"`).
pub fn inst(m: &Module, i: &Inst) -> String {
    let op = format!("#{}", i.sid.0);
    let body = match &i.kind {
        InstKind::Observe => format!("{op} observe"),
        InstKind::Eval(e) => format!("{op} eval {}", expr(m, e)),
        InstKind::SetLocal { name: n, value } => match value {
            Some(e) => format!("{op} set {} = {}", name('%', n), expr(m, e)),
            None => format!("{op} set {}", name('%', n)),
        },
        InstKind::Phi { name: n, incoming } => {
            let arms: Vec<String> = incoming
                .iter()
                .map(|(b, e)| format!("[{}, %\"#{b}\"]", expr(m, e)))
                .collect();
            format!("{op} phi {} {}", name('%', n), arms.join(" "))
        }
        InstKind::Token { kind, name: n } => {
            format!("{op} token {} = {}", name('%', n), kind.name())
        }
    };
    format!("{body}{}", bundle(&i.token))
}

/// One instruction of `cfg` as text: phis name their predecessors by block
/// name.
fn inst_in(m: &Module, cfg: &Cfg, i: &Inst) -> String {
    let InstKind::Phi { name: n, incoming } = &i.kind else {
        return inst(m, i);
    };
    let arms: Vec<String> = incoming
        .iter()
        .map(|(b, e)| format!("[{}, {}]", expr(m, e), block_ref(cfg, *b)))
        .collect();
    format!(
        "#{} phi {} {}{}",
        i.sid.0,
        name('%', n),
        arms.join(" "),
        bundle(&i.token)
    )
}

fn block_ref(cfg: &Cfg, b: usize) -> String {
    match cfg.blocks.get(b) {
        Some(block) => name('%', &block.name),
        None => format!("%\"#{b}\""),
    }
}

fn term(m: &Module, cfg: &Cfg, t: &Term) -> String {
    let label = |b: usize| format!("label {}", block_ref(cfg, b));
    match t {
        Term::Br(b) => format!("br {}", label(*b)),
        Term::CondBr { cond, then, els } => {
            format!("br {}, {}, {}", expr(m, cond), label(*then), label(*els))
        }
        Term::Switch {
            value,
            cases,
            default,
        } => {
            let cs: Vec<String> = cases
                .iter()
                .map(|(v, b)| format!("{v}: {}", label(*b)))
                .collect();
            format!(
                "switch {}, {} [ {} ]",
                expr(m, value),
                label(*default),
                cs.join(" ")
            )
        }
        Term::Ret(None) => "ret void".into(),
        Term::Ret(Some(e)) => format!("ret {}", expr(m, e)),
        Term::Unreachable => "unreachable".into(),
    }
}

/// A comment naming the convergent operations an instruction performs,
/// with their lines.
fn comment(m: &Module, i: &Inst) -> String {
    let mut ops = Vec::new();
    if matches!(i.kind, InstKind::Observe) {
        ops.push(i.sid);
    }
    let exprs: Vec<&Expr> = match &i.kind {
        InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => vec![e],
        InstKind::Phi { incoming, .. } => incoming.iter().map(|x| &x.1).collect(),
        _ => Vec::new(),
    };
    for e in exprs {
        ops.extend(e.ops());
    }
    let shown: Vec<String> = ops
        .iter()
        .filter_map(|o| {
            let info = m.op(*o)?;
            // A label with a control character (a line break) would end
            // the comment: write it quoted, as the op table does.
            let label = if info.label.chars().any(char::is_control) {
                quote(&info.label)
            } else {
                info.label.clone()
            };
            Some(format!("{label} (line {})", info.span.start.line))
        })
        .collect();
    if shown.is_empty() {
        match m.op(i.sid) {
            Some(info) if info.span.start.line > 0 => {
                format!("  ; line {}", info.span.start.line)
            }
            _ => String::new(),
        }
    } else {
        format!("  ; {}", shown.join(", "))
    }
}

/// The text form of one function.
pub fn cfg_text(m: &Module, cfg: &Cfg) -> String {
    let mut out = String::new();
    let params: Vec<String> = cfg
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| match cfg.param_oracles.get(i) {
            Some(o) => format!("{} = {}", name('%', p), oracle_ref(m, *o)),
            None => name('%', p),
        })
        .collect();
    let _ = writeln!(
        out,
        "define void {}({}) {{",
        name('@', &cfg.name),
        params.join(", ")
    );
    for (b, block) in cfg.blocks.iter().enumerate() {
        if b > 0 {
            out.push('\n');
        }
        let origin = block
            .origin
            .map(|s| format!(" origin #{}", s.0))
            .unwrap_or_default();
        let line = block
            .origin
            .map(|s| m.line(s))
            .filter(|l| *l > 0)
            .map(|l| format!("  ; from line {l}"))
            .unwrap_or_default();
        let _ = writeln!(out, "{}:{origin}{line}", name_label(&block.name));
        for i in &block.insts {
            let _ = writeln!(out, "  {}{}", inst_in(m, cfg, i), comment(m, i));
        }
        let _ = writeln!(out, "  {}", term(m, cfg, &block.term));
    }
    out.push_str("}\n");
    out
}

fn name_label(n: &str) -> String {
    if is_plain_name(n) {
        n.to_string()
    } else {
        quote(n)
    }
}

fn oracle_line(o: &OracleInfo) -> String {
    let domain: Vec<String> = o.domain.iter().map(|v| v.to_string()).collect();
    format!(
        "oracle {} {} [{}] at {}",
        name('$', &o.name),
        o.class.name(),
        domain.join(", "),
        span(o.span)
    )
}

fn op_kind(m: &Module, k: OpKind) -> String {
    match k {
        OpKind::Stmt => "stmt".into(),
        OpKind::Observe => "observe".into(),
        OpKind::Token => "token".into(),
        OpKind::Mem { space, write } => {
            format!(
                "mem {} {}",
                space.name(),
                if write { "write" } else { "read" }
            )
        }
        OpKind::Call(c) => format!("call {}", call_kind(m, c)),
    }
}

/// The text form of a module: its name, its oracle and op tables, and its
/// functions.
pub fn module_text(m: &Module) -> String {
    let mut out = String::new();
    let _ = write!(out, "module {}", quote(&m.name));
    if let Some(n) = m.max_group {
        let _ = write!(out, " max_group {n}");
    }
    out.push('\n');
    for o in &m.oracles {
        let _ = writeln!(out, "{}", oracle_line(o));
    }
    for (i, op) in m.ops.iter().enumerate() {
        let _ = writeln!(
            out,
            "op #{i} {} {} in {} at {}{}",
            op_kind(m, op.kind),
            quote(&op.label),
            func_ref(m, op.func),
            span(op.span),
            if op.memory_none { " memory(none)" } else { "" }
        );
    }
    for f in &m.functions {
        out.push('\n');
        out.push_str(&cfg_text(m, f));
    }
    out
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('<', "\\<")
        .replace('>', "\\>")
        .replace('{', "\\{")
        .replace('}', "\\}")
        .replace('|', "\\|")
}

/// The DOT form of one CFG: blocks as boxes, back edges dashed and red,
/// branch and switch arms labelled.
pub fn cfg_dot(m: &Module, cfg: &Cfg) -> String {
    let cycles = CycleInfo::compute(cfg);
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", dot_escape(&cfg.name));
    let _ = writeln!(out, "  node [shape=box, fontname=\"monospace\"];");
    for (b, block) in cfg.blocks.iter().enumerate() {
        let mut label = format!("{}:\\l", dot_escape(&block.name));
        for i in &block.insts {
            let _ = write!(label, "  {}\\l", dot_escape(&inst_in(m, cfg, i)));
        }
        let _ = writeln!(out, "  b{b} [label=\"{label}\"];");
    }
    for (b, block) in cfg.blocks.iter().enumerate() {
        let arms: Vec<(usize, Option<String>)> = match &block.term {
            Term::CondBr { then, els, .. } => {
                vec![(*then, Some("T".into())), (*els, Some("F".into()))]
            }
            Term::Switch { cases, default, .. } => {
                let mut v: Vec<(usize, Option<String>)> = cases
                    .iter()
                    .map(|(c, t)| (*t, Some(c.to_string())))
                    .collect();
                v.push((*default, Some("default".into())));
                v
            }
            t => t.succs().into_iter().map(|s| (s, None)).collect(),
        };
        for (s, arm) in arms {
            let back = cycles.containing[b]
                .iter()
                .any(|&c| cycles.cycles[c].header == s);
            let mut attrs = Vec::new();
            if back {
                attrs.push("style=dashed, color=red".to_string());
            }
            if let Some(a) = arm {
                attrs.push(format!("label=\"{}\"", dot_escape(&a)));
            }
            let attrs = if attrs.is_empty() {
                String::new()
            } else {
                format!(" [{}]", attrs.join(", "))
            };
            let _ = writeln!(out, "  b{b} -> b{s}{attrs};");
        }
    }
    out.push_str("}\n");
    out
}
