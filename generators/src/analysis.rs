//! Facts about kernel files that the generators, the shrinker and the tests
//! need: pre-order ids ([`renumber`]), the spans of the printed text
//! ([`respan`]), which constructs a file contains ([`constructs`]), its
//! size ([`statement_count`]) and the static termination rules every
//! generated kernel follows ([`check_termination`]).

use crate::config::Construct;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::*;
use convcheck_lang::syntax::{parse, print};
use convcheck_lang::Diagnostics;
use std::collections::{BTreeMap, BTreeSet};

pub use convcheck_lang::syntax::renumber;

/// The file as read back from its printed text: the same tree (the
/// printer's round-trip guarantee) with the spans, and so the default
/// labels and anonymous oracle names, a user sees.
pub fn respan(file: &File) -> Result<File, Diagnostics> {
    parse("generated.c", &print(file))
}

/// Number of statements in the file (every statement node, compound
/// statements included).
pub fn statement_count(file: &File) -> usize {
    let mut n = 0;
    for f in file.functions() {
        f.body.walk(&mut |_| n += 1);
    }
    n
}

const BARRIERS: &[&str] = &["__syncthreads", "barrier", "work_group_barrier"];
const DATA_BARRIERS: &[&str] = &[
    "__syncthreads_count",
    "__syncthreads_and",
    "__syncthreads_or",
];

/// Which constructs of [`Construct::ALL`] the file contains.
pub fn constructs(file: &File) -> BTreeSet<Construct> {
    let mut out = BTreeSet::new();
    let defined: BTreeSet<&str> = file.functions().map(|f| f.name.as_str()).collect();
    for f in file.functions() {
        let mut locals: BTreeSet<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
        f.body.walk(&mut |s| {
            if let StmtKind::Local { name, .. } = &s.kind {
                locals.insert(name);
            }
        });
        // Labels and gotos with the loops around them.
        let mut labels: BTreeMap<&str, (StmtId, Vec<StmtId>)> = BTreeMap::new();
        let mut gotos: Vec<(StmtId, &str, Vec<StmtId>)> = Vec::new();
        scan(&f.body, &mut Vec::new(), &mut labels, &mut gotos);
        for (gid, l, loops) in &gotos {
            if let Some((lid, lloops)) = labels.get(l) {
                out.insert(if lid < gid {
                    Construct::BackwardGoto
                } else {
                    Construct::ForwardGoto
                });
                if lloops.iter().any(|x| !loops.contains(x)) {
                    out.insert(Construct::JumpIntoLoop);
                }
            }
        }
        f.body.walk(&mut |s| {
            let c = match &s.kind {
                StmtKind::Observe => Some(Construct::Observe),
                StmtKind::If { els: Some(_), .. } => Some(Construct::Else),
                StmtKind::While { .. } => Some(Construct::While),
                StmtKind::DoWhile { .. } => Some(Construct::DoWhile),
                StmtKind::For { .. } => Some(Construct::For),
                StmtKind::Break => Some(Construct::Break),
                StmtKind::Continue => Some(Construct::Continue),
                StmtKind::Return(_) => Some(Construct::Return),
                StmtKind::Switch { .. } => Some(Construct::Switch),
                StmtKind::NoConvergent(_) => Some(Construct::NoConvergent),
                _ => None,
            };
            out.extend(c);
            if let StmtKind::Switch { body, .. } = &s.kind {
                if let StmtKind::Compound(list) = &body.kind {
                    if falls_through(list) {
                        out.insert(Construct::FallThrough);
                    }
                }
            }
            let (conds, others) = exprs_of(s);
            for e in &conds {
                cond_classes(e, &locals, &mut out);
            }
            let all = conds.iter().map(|e| (*e, true));
            for (e, in_cond) in all.chain(others.iter().map(|e| (*e, false))) {
                e.walk(&mut |x| match &x.kind {
                    ExprKind::Call { callee, .. } => {
                        let c = callee.as_str();
                        if BARRIERS.contains(&c) {
                            out.insert(Construct::Barrier);
                        } else if DATA_BARRIERS.contains(&c) {
                            out.insert(Construct::DataBarrier);
                        } else if defined.contains(c) {
                            out.insert(Construct::HelperCall);
                        } else if !in_cond && !c.starts_with("__threadfence") {
                            out.insert(Construct::ConvergentCall);
                        }
                    }
                    ExprKind::Load { space, .. } => {
                        out.insert(space_construct(*space));
                    }
                    ExprKind::Assign {
                        place: Place::Mem { space, .. },
                        ..
                    } => {
                        out.insert(space_construct(*space));
                    }
                    _ => {}
                });
            }
        });
    }
    out
}

fn space_construct(s: Space) -> Construct {
    match s {
        Space::Shared => Construct::Shared,
        Space::Global => Construct::Global,
        Space::Local => Construct::Local,
    }
}

/// Whether some `case` of a switch body is reached by falling through.
fn falls_through(list: &[Stmt]) -> bool {
    let mut seen_case = false;
    let mut prev: Option<&Stmt> = None;
    for s in list {
        if matches!(s.kind, StmtKind::Case { .. }) {
            if seen_case {
                let ends = prev.is_some_and(|p| {
                    matches!(
                        p.kind,
                        StmtKind::Break
                            | StmtKind::Continue
                            | StmtKind::Return(_)
                            | StmtKind::Goto(_)
                    )
                });
                if !ends {
                    return true;
                }
            }
            seen_case = true;
        }
        // The statement a `case` wraps is what ends its arm if nothing
        // follows it.
        prev = Some(match &s.kind {
            StmtKind::Case { body, .. } => body,
            _ => s,
        });
    }
    false
}

/// Oracle classes read by a condition.
fn cond_classes(e: &Expr, locals: &BTreeSet<&str>, out: &mut BTreeSet<Construct>) {
    match &e.kind {
        ExprKind::Uniform(_) => {
            out.insert(Construct::Uniform);
        }
        ExprKind::Invariant(_) => {
            out.insert(Construct::Invariant);
        }
        ExprKind::Name(n) if !locals.contains(n.as_str()) => {
            out.insert(Construct::Varying);
        }
        ExprKind::Dots | ExprKind::Call { .. } => {
            out.insert(Construct::Varying);
        }
        ExprKind::Unary(_, a) => cond_classes(a, locals, out),
        ExprKind::Binary(_, a, b) => {
            cond_classes(a, locals, out);
            cond_classes(b, locals, out);
        }
        ExprKind::Cond(a, b, c) => {
            cond_classes(a, locals, out);
            cond_classes(b, locals, out);
            cond_classes(c, locals, out);
        }
        _ => {}
    }
}

/// A statement's own expressions: conditions, and the rest.
fn exprs_of(s: &Stmt) -> (Vec<&Expr>, Vec<&Expr>) {
    match &s.kind {
        StmtKind::If { cond, .. }
        | StmtKind::While { cond, .. }
        | StmtKind::DoWhile { cond, .. } => (vec![cond], vec![]),
        StmtKind::Switch { value, .. } => (vec![value], vec![]),
        StmtKind::For { cond, step, .. } => (cond.iter().collect(), step.iter().collect()),
        StmtKind::Expr(e) => (vec![], vec![e]),
        StmtKind::Local { init, .. } => (vec![], init.iter().collect()),
        StmtKind::Return(e) => (vec![], e.iter().collect()),
        _ => (vec![], vec![]),
    }
}

type LabelMap<'a> = BTreeMap<&'a str, (StmtId, Vec<StmtId>)>;

/// Records labels and gotos with the ids of the loops around them.
fn scan<'a>(
    s: &'a Stmt,
    loops: &mut Vec<StmtId>,
    labels: &mut LabelMap<'a>,
    gotos: &mut Vec<(StmtId, &'a str, Vec<StmtId>)>,
) {
    match &s.kind {
        StmtKind::Label { label, .. } => {
            labels.insert(label, (s.id, loops.clone()));
        }
        StmtKind::Goto(l) => gotos.push((s.id, l, loops.clone())),
        _ => {}
    }
    let is_loop = s.is_loop();
    if is_loop {
        loops.push(s.id);
    }
    for c in s.children() {
        scan(c, loops, labels, gotos);
    }
    if is_loop {
        loops.pop();
    }
}

/// Checks the static rules that make a kernel's path enumeration stop
/// within any iteration bound without running out of bounds, and which
/// every generated kernel follows:
///
/// - a `while`, `do` or `for` condition is a guard ([`is_guard`]), or
///   the loop is `for (;;)` whose body starts with `if (guard) break;`,
///   or a counted loop
///   `for (i = 0; i < K; i += 1)` over a local `i` that nothing else
///   assigns, with `K <= max_trip` or `K` written `tid + K'` with
///   `K' <= max_trip` (finite in every group: a thread runs `tid + K'`
///   iterations);
/// - every backward `goto` is the whole `then` of an `if (guard)`;
/// - the file has no call cycle.
///
/// Returns the first rule broken.
pub fn check_termination(file: &File, max_trip: u32) -> Result<(), String> {
    let defined: BTreeSet<&str> = file.functions().map(|f| f.name.as_str()).collect();
    for f in file.functions() {
        let mut locals: BTreeSet<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
        let mut assigned: BTreeMap<&str, usize> = BTreeMap::new();
        f.body.walk(&mut |s| {
            if let StmtKind::Local { name, .. } = &s.kind {
                locals.insert(name);
            }
            for e in exprs_of(s).0.into_iter().chain(exprs_of(s).1) {
                e.walk(&mut |x| {
                    if let ExprKind::Assign {
                        place: Place::Var(v),
                        ..
                    } = &x.kind
                    {
                        *assigned.entry(v.as_str()).or_default() += 1;
                    }
                });
            }
        });
        let mut labels = LabelMap::new();
        let mut gotos = Vec::new();
        scan(&f.body, &mut Vec::new(), &mut labels, &mut gotos);
        let mut err = None;
        check_stmt(
            &f.body, None, &locals, &assigned, &labels, max_trip, &mut err,
        );
        if let Some(e) = err {
            return Err(format!("in `{}`: {e}", f.name));
        }
    }
    // Call cycles: a function may only call functions defined before it.
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for f in file.functions() {
        let mut bad = None;
        f.body.walk(&mut |s| {
            for e in exprs_of(s).0.into_iter().chain(exprs_of(s).1) {
                e.walk(&mut |x| {
                    if let ExprKind::Call { callee, .. } = &x.kind {
                        if defined.contains(callee.as_str()) && !seen.contains(callee.as_str()) {
                            bad = Some(callee.clone());
                        }
                    }
                });
            }
        });
        if let Some(c) = bad {
            return Err(format!("`{}` calls `{c}`, not defined before it", f.name));
        }
        seen.insert(&f.name);
    }
    Ok(())
}

/// Whether `e` is a guard: every evaluation reads a varying or uniform
/// oracle first, and those oracles alone can make it `exit_when` (true for
/// `if (e) break;`, false for `while (e)` and `if (e) goto L;` before
/// `L`), so the repetition it controls can always stop.
pub fn is_guard(e: &Expr, locals: &BTreeSet<&str>, exit_when: bool) -> bool {
    match &e.kind {
        ExprKind::Name(n) => !locals.contains(n.as_str()),
        ExprKind::Call { .. } | ExprKind::Dots => true,
        ExprKind::Uniform(a) => is_guard(a, locals, exit_when),
        ExprKind::Unary(UnOp::Not, a) => is_guard(a, locals, !exit_when),
        // `a && b` is false whenever `a` is, true only if both are.
        ExprKind::Binary(BinOp::And, a, b) => {
            is_guard(a, locals, exit_when) && (!exit_when || is_guard(b, locals, true))
        }
        ExprKind::Binary(BinOp::Or, a, b) => {
            is_guard(a, locals, exit_when) && (exit_when || is_guard(b, locals, false))
        }
        _ => false,
    }
}

#[allow(clippy::too_many_arguments)]
fn check_stmt<'a>(
    s: &'a Stmt,
    parent: Option<&'a Stmt>,
    locals: &BTreeSet<&str>,
    assigned: &BTreeMap<&str, usize>,
    labels: &LabelMap<'_>,
    max_trip: u32,
    err: &mut Option<String>,
) {
    if err.is_some() {
        return;
    }
    // Loop conditions and goto guards repeat when true; break guards exit.
    let guarded = |e: &Expr| is_guard(e, locals, false);
    let ok = match &s.kind {
        StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => guarded(cond),
        StmtKind::For {
            init,
            cond: Some(c),
            step,
            ..
        } => guarded(c) || counted(init.as_deref(), c, step.as_ref(), assigned, max_trip),
        StmtKind::For {
            cond: None, body, ..
        } => match &body.kind {
            StmtKind::Compound(list) => {
                let exit_guard = |s: &Stmt| {
                    let mut s = s;
                    while let StmtKind::Label { body, .. } = &s.kind {
                        s = body;
                    }
                    matches!(&s.kind, StmtKind::If { cond, then, els: None }
                        if is_guard(cond, locals, true) && matches!(then.kind, StmtKind::Break))
                };
                // The exit test first, or last in a body no `continue` of
                // this loop can cut short.
                list.first().is_some_and(exit_guard)
                    || (list.last().is_some_and(exit_guard) && !list.iter().any(continues_here))
            }
            _ => false,
        },
        StmtKind::Goto(l) => match labels.get(l.as_str()) {
            Some((lid, _)) if *lid < s.id => matches!(parent, Some(Stmt {
                kind: StmtKind::If { cond, then, els: None }, ..
            }) if guarded(cond) && then.id == s.id),
            _ => true,
        },
        _ => true,
    };
    if !ok {
        *err = Some(format!(
            "statement {} ({}) may repeat without a decision",
            s.id.0,
            kind_name(s)
        ));
        return;
    }
    for c in s.children() {
        check_stmt(c, Some(s), locals, assigned, labels, max_trip, err);
    }
}

/// `for (v = 0; v < K; v += 1)` with `K <= max_trip` (or `K` written
/// `tid + K'` with `K' <= max_trip`) and `v` assigned nowhere else.
fn counted(
    init: Option<&Stmt>,
    cond: &Expr,
    step: Option<&Expr>,
    assigned: &BTreeMap<&str, usize>,
    max_trip: u32,
) -> bool {
    let Some(Stmt {
        kind: StmtKind::Expr(init),
        ..
    }) = init
    else {
        return false;
    };
    let ExprKind::Assign {
        place: Place::Var(v),
        op: AssignOp::Set,
        value,
    } = &init.kind
    else {
        return false;
    };
    if value.kind != ExprKind::Int(0) {
        return false;
    }
    let small =
        |e: &Expr| matches!(e.kind, ExprKind::Int(k) if (0..=i64::from(max_trip)).contains(&k));
    // `tid + K` (`Config::tid_bounds`): finite in every group, one more
    // iteration per thread index.
    let tid_plus = |e: &Expr| {
        matches!(&e.kind, ExprKind::Binary(BinOp::Add, t, k)
        if t.kind == ExprKind::Tid && small(k))
    };
    let bound_ok = matches!(&cond.kind, ExprKind::Binary(BinOp::Lt, a, b)
        if a.kind == ExprKind::Name(v.clone()) && (small(b) || tid_plus(b)));
    let step_ok = matches!(step, Some(Expr { kind: ExprKind::Assign {
            place: Place::Var(w), op: AssignOp::Add, value }, .. })
        if w == v && value.kind == ExprKind::Int(1));
    bound_ok && step_ok && assigned.get(v.as_str()) == Some(&2)
}

fn kind_name(s: &Stmt) -> &'static str {
    match s.kind {
        StmtKind::While { .. } => "while",
        StmtKind::DoWhile { .. } => "do",
        StmtKind::For { .. } => "for",
        StmtKind::Goto(_) => "backward goto",
        _ => "statement",
    }
}

/// Whether the file is a kernel the generators could have made, as far as
/// the shrinker needs: it passes `Kernel::new`, has one entry, and follows
/// [`check_termination`].
pub fn is_valid(file: &File, max_trip: u32) -> bool {
    match Kernel::new("generated.c", file.clone()) {
        Ok(k) => k.entry(None).is_ok() && check_termination(file, max_trip).is_ok(),
        Err(_) => false,
    }
}

/// Whether a statement holds a `continue` of the loop around it (not of a
/// nested loop).
pub fn continues_here(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::While { .. } | StmtKind::DoWhile { .. } | StmtKind::For { .. } => false,
        _ => s.children().into_iter().any(continues_here),
    }
}
