//! Deduplication of a fuzz run's violations: each violation gets a
//! [`Key`] (the pass blamed, the property broken, the *loop nest* and the
//! *shape* of its minimized program) and the violations with one pass,
//! property and loop nest are one distinct finding ([`distinct`]), listing
//! the shapes it was seen in.
//!
//! The shape ([`shape`]) is the minimized program's control structure
//! with everything else left out, one function after the other in file
//! order: `kernel{do(do() call)}` for seed 000's loop nest. It keeps the
//! statements that make the CFG (`if`, `if-else`, `while`, `do`, the kinds
//! of `for` — `for;;` without a condition, `for...` with the anonymous
//! oracle, `for-k` counted to a constant, `for-tid` counted to a bound over
//! `tid` — `switch`, `case`, labels, `goto`, `break`, `continue`,
//! `return`, `noconv`) and the operations that make convergence
//! observable (`op` for `...`, `call` for a statement with a call:
//! barriers, convergent calls, helper calls; `mem` for a statement that
//! reads or writes an array and calls nothing); it drops conditions,
//! names, values and plain assignments.
//!
//! The loop nest ([`loop_nest`]) keeps only the loops of the shape, each
//! kind written `loop`: `kernel{loop(loop)}`. The minimizer leaves one bug
//! in several shapes (SimplifyCFG's fold of seed 000's loop nest ends as
//! `do(do() call)`, `for;;(for;;(call if(break)) if(break))`, `while(for...()
//! op)`, ...), which share the nest, so the nest is the grouping key and
//! the shapes are listed. Two different bugs of one pass in one nest are
//! one distinct finding by this key: every distinct finding and its shapes
//! are read before a number of bugs is claimed (docs/src/findings.md,
//! section 14).
//!
//! Everything here is a function of the minimized programs and the order
//! of the run, so the table is the same for the same arguments.

use convcheck_lang::syntax::ast::{Expr, ExprKind, File, Stmt, StmtKind};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// What makes two violations one finding.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Key {
    /// The pass blamed: the class of the first stage that broke the
    /// property (`SimplifyCFGPass`), or the pass under test for `--pass`.
    pub pass: String,
    /// The property broken (`convergence`, `hazards`, ...).
    pub property: String,
    /// The minimized program's loop nest (module documentation).
    pub nest: String,
    /// The minimized program's shape (module documentation).
    pub shape: String,
}

/// One distinct finding: its pass, property and loop nest, the shapes it
/// was seen in, how many violations had it and which.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Distinct {
    /// The pass blamed.
    pub pass: String,
    /// The property broken.
    pub property: String,
    /// The minimized programs' loop nest.
    pub nest: String,
    /// The minimized programs' shapes, in the order first seen.
    pub shapes: Vec<String>,
    /// Violations with this key.
    pub count: usize,
    /// The first program (in the run's order) with it.
    pub first_program: u64,
    /// Every program with it, in the run's order.
    pub programs: Vec<u64>,
}

/// The distinct findings among `violations` (each a program index and its
/// key, in the run's order), in the order of their first program.
pub fn distinct<'a>(violations: impl IntoIterator<Item = (u64, &'a Key)>) -> Vec<Distinct> {
    let mut groups: BTreeMap<(&str, &str, &str), Distinct> = BTreeMap::new();
    for (program, key) in violations {
        let d = groups
            .entry((&key.pass, &key.property, &key.nest))
            .or_insert_with(|| Distinct {
                pass: key.pass.clone(),
                property: key.property.clone(),
                nest: key.nest.clone(),
                shapes: Vec::new(),
                count: 0,
                first_program: program,
                programs: Vec::new(),
            });
        if !d.shapes.contains(&key.shape) {
            d.shapes.push(key.shape.clone());
        }
        d.count += 1;
        d.first_program = d.first_program.min(program);
        d.programs.push(program);
    }
    let mut v: Vec<Distinct> = groups.into_values().collect();
    v.sort_by(|a, b| (a.first_program, &a.nest).cmp(&(b.first_program, &b.nest)));
    v
}

/// The table of distinct findings as text: one line per finding, then
/// its shapes.
pub fn table_text(d: &[Distinct], violations: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "distinct findings: {} (of {violations} violations; key: blamed pass, property, loop nest)",
        d.len()
    );
    for (n, f) in d.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}. {} / {} / nest `{}`: {} violation{} (first: program {}), {} shape{}",
            n + 1,
            f.pass,
            f.property,
            f.nest,
            f.count,
            if f.count == 1 { "" } else { "s" },
            f.first_program,
            f.shapes.len(),
            if f.shapes.len() == 1 { "" } else { "s" },
        );
        for s in &f.shapes {
            let _ = writeln!(out, "       `{s}`");
        }
    }
    out
}

/// The loop nest of a program (module documentation).
pub fn loop_nest(file: &File) -> String {
    let mut out = String::new();
    for f in file.functions() {
        if !out.is_empty() {
            out.push(' ');
        }
        let _ = write!(out, "{}{{{}}}", f.name, loops_of(&f.body).join(" "));
    }
    out
}

/// The loops directly in `s` (not inside another loop of `s`), each as
/// `loop(...)` with its own loops.
fn loops_of(s: &Stmt) -> Vec<String> {
    match &s.kind {
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. } => {
            vec![format!("loop({})", loops_of(body).join(" "))]
        }
        _ => s.children().into_iter().flat_map(loops_of).collect(),
    }
}

/// The shape of a program (module documentation).
pub fn shape(file: &File) -> String {
    let mut out = String::new();
    for f in file.functions() {
        if !out.is_empty() {
            out.push(' ');
        }
        let _ = write!(out, "{}{{", f.name);
        let mut words = Vec::new();
        stmt_shape(&f.body, &mut words);
        out.push_str(&words.join(" "));
        out.push('}');
    }
    out
}

fn has(e: &Expr, p: fn(&ExprKind) -> bool) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= p(&x.kind));
    found
}

fn is_call(k: &ExprKind) -> bool {
    matches!(k, ExprKind::Call { .. })
}

fn is_memory(k: &ExprKind) -> bool {
    matches!(
        k,
        ExprKind::Load { .. }
            | ExprKind::Assign {
                place: convcheck_lang::syntax::ast::Place::Mem { .. },
                ..
            }
    )
}

/// The words of an expression that stands as a statement (or initializes
/// a local): `call`, `mem` or nothing.
fn expr_word(e: &Expr, words: &mut Vec<String>) {
    if has(e, is_call) {
        words.push("call".into());
    } else if has(e, is_memory) {
        words.push("mem".into());
    }
}

/// A nested statement as `(words)`.
fn nested(s: &Stmt) -> String {
    let mut w = Vec::new();
    stmt_shape(s, &mut w);
    format!("({})", w.join(" "))
}

fn stmt_shape(s: &Stmt, words: &mut Vec<String>) {
    match &s.kind {
        StmtKind::Observe => words.push("op".into()),
        StmtKind::Empty => {}
        StmtKind::Expr(e) => expr_word(e, words),
        StmtKind::Local { init, .. } => {
            if let Some(e) = init {
                expr_word(e, words);
            }
        }
        StmtKind::Compound(list) => list.iter().for_each(|s| stmt_shape(s, words)),
        StmtKind::If { then, els, .. } => match els {
            Some(e) => words.push(format!("if{}else{}", nested(then), nested(e))),
            None => words.push(format!("if{}", nested(then))),
        },
        StmtKind::While { body, .. } => words.push(format!("while{}", nested(body))),
        StmtKind::DoWhile { body, .. } => words.push(format!("do{}", nested(body))),
        StmtKind::For {
            init, cond, body, ..
        } => {
            let kind = match (init, cond) {
                (_, None) => "for;;",
                (None, Some(c)) if c.kind == ExprKind::Dots => "for...",
                (Some(_), Some(c)) if has(c, |k| *k == ExprKind::Tid) => "for-tid",
                (Some(_), Some(_)) => "for-k",
                (None, Some(_)) => "for",
            };
            words.push(format!("{kind}{}", nested(body)));
        }
        StmtKind::Switch { body, .. } => words.push(format!("switch{}", nested(body))),
        StmtKind::Case { body, .. } => {
            words.push("case:".into());
            stmt_shape(body, words);
        }
        StmtKind::Label { body, .. } => {
            words.push("label:".into());
            stmt_shape(body, words);
        }
        StmtKind::Goto(_) => words.push("goto".into()),
        StmtKind::Break => words.push("break".into()),
        StmtKind::Continue => words.push("continue".into()),
        StmtKind::Return(_) => words.push("return".into()),
        StmtKind::NoConvergent(b) => words.push(format!("noconv{}", nested(b))),
    }
}
