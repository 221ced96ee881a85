//! Program shrinking: make a kernel smaller while a predicate holds
//! (DESIGN.md 2.8: counterexamples from a generator are minimized).
//!
//! A *reduction* is one edit of the tree: remove a function, delete
//! a statement, replace a statement by the statements of one of its
//! substatements (unwrap an `if`, a loop, a `switch`, a label, a `case`,
//! `[[clang::noconvergent]]`), drop an `else`, or replace a condition
//! `a && b` / `a || b` / `!a` by one of its operands. [`reductions`] lists
//! the one-step reductions of a file that are still *valid*: they pass
//! `Kernel::new`, have one entry, and, when the original follows the
//! static termination rules of [`check_termination`], follow them too (so
//! shrinking never makes a loop spin without a decision). Every reduction
//! is returned as read back from its printed text, so a predicate sees
//! exactly what a user would.
//!
//! [`shrink_kernel`] is greedy: it tries the reductions in order (big
//! edits first: helpers, then statements in pre-order) and keeps the first
//! one for which the predicate still holds, then goes on from the same
//! position, until a whole pass keeps nothing.

use crate::analysis::{check_termination, is_valid, renumber, respan};
use convcheck_lang::syntax::ast::*;

/// One edit; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edit {
    /// Remove function item `n`.
    Function,
    Delete,
    /// Replace a statement by the statements of its substatement `0` or
    /// `1` (then / else).
    Unwrap(u8),
    DropElse,
    /// Replace a condition by its operand `0` or `1`.
    Cond(u8),
}

const EDITS: [Edit; 7] = [
    Edit::Function,
    Edit::Delete,
    Edit::Unwrap(0),
    Edit::Unwrap(1),
    Edit::DropElse,
    Edit::Cond(0),
    Edit::Cond(1),
];

/// Counts the statements that stand in a compound statement (the sites
/// edits apply to).
fn sites(file: &File) -> usize {
    let mut n = 0;
    for f in file.functions() {
        f.body.walk(&mut |s| {
            if let StmtKind::Compound(list) = &s.kind {
                n += list.len();
            }
        });
    }
    n
}

fn children_mut(s: &mut Stmt) -> Vec<&mut Stmt> {
    match &mut s.kind {
        StmtKind::Compound(list) => list.iter_mut().collect(),
        StmtKind::If { then, els, .. } => {
            let mut v = vec![&mut **then];
            if let Some(e) = els {
                v.push(&mut **e);
            }
            v
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Label { body, .. }
        | StmtKind::NoConvergent(body)
        | StmtKind::For { body, .. } => vec![&mut **body],
        _ => Vec::new(),
    }
}

/// The statements a statement stands for when spliced into a block.
fn as_list(s: Stmt) -> Vec<Stmt> {
    match s.kind {
        StmtKind::Compound(list) => list,
        _ => vec![s],
    }
}

/// The statements that replace `s` when unwrapping its part `which`.
fn unwrap(s: &Stmt, which: u8) -> Option<Vec<Stmt>> {
    let part = |b: &Stmt| Some(as_list(b.clone()));
    match (&s.kind, which) {
        (StmtKind::If { then, .. }, 0) => part(then),
        (StmtKind::If { els: Some(e), .. }, 1) => part(e),
        (
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::Label { body, .. }
            | StmtKind::Case { body, .. }
            | StmtKind::NoConvergent(body),
            0,
        ) => part(body),
        (StmtKind::Switch { body, .. }, 0) => Some(
            as_list((**body).clone())
                .into_iter()
                .map(|c| match c.kind {
                    StmtKind::Case { body, .. } => *body,
                    _ => c,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// `e` with its operand `which` in place of itself, if it has one.
fn simpler(e: &Expr, which: u8) -> Option<Expr> {
    match (&e.kind, which) {
        (ExprKind::Binary(BinOp::And | BinOp::Or, a, _), 0) => Some((**a).clone()),
        (ExprKind::Binary(BinOp::And | BinOp::Or, _, b), 1) => Some((**b).clone()),
        (ExprKind::Unary(UnOp::Not, a), 0) => Some((**a).clone()),
        _ => None,
    }
}

fn apply(list: &mut Vec<Stmt>, i: usize, edit: Edit) -> bool {
    match edit {
        Edit::Function => false,
        Edit::Delete => {
            list.remove(i);
            true
        }
        Edit::Unwrap(w) => match unwrap(&list[i], w) {
            Some(stmts) => {
                list.splice(i..=i, stmts);
                true
            }
            None => false,
        },
        Edit::DropElse => match &mut list[i].kind {
            StmtKind::If { els, .. } if els.is_some() => {
                *els = None;
                true
            }
            _ => false,
        },
        Edit::Cond(w) => {
            let cond = match &mut list[i].kind {
                StmtKind::If { cond, .. }
                | StmtKind::While { cond, .. }
                | StmtKind::DoWhile { cond, .. }
                | StmtKind::For {
                    cond: Some(cond), ..
                } => cond,
                _ => return false,
            };
            match simpler(cond, w) {
                Some(e) => {
                    *cond = e;
                    true
                }
                None => false,
            }
        }
    }
}

/// Applies `edit` at statement site `target`; `Some(applied)` once the
/// site is reached.
fn visit(s: &mut Stmt, site: &mut usize, target: usize, edit: Edit) -> Option<bool> {
    if let StmtKind::Compound(list) = &mut s.kind {
        for i in 0..list.len() {
            if *site == target {
                return Some(apply(list, i, edit));
            }
            *site += 1;
            if let Some(r) = visit(&mut list[i], site, target, edit) {
                return Some(r);
            }
        }
        return None;
    }
    for c in children_mut(s) {
        if let Some(r) = visit(c, site, target, edit) {
            return Some(r);
        }
    }
    None
}

/// The file after `edit` at `site` (an item index for
/// [`Edit::Function`]), renumbered, or `None` if the edit does not apply.
fn edited(file: &File, edit: Edit, site: usize) -> Option<File> {
    let mut f = file.clone();
    if edit == Edit::Function {
        // Removing the entry itself is allowed: a helper then becomes the
        // entry, which is how a property inside a helper sheds its caller.
        if site >= f.items.len() || f.functions().count() < 2 {
            return None;
        }
        f.items.remove(site);
    } else {
        let mut n = 0;
        let mut done = None;
        for item in &mut f.items {
            if let Item::Function(func) = item {
                done = visit(&mut func.body, &mut n, site, edit);
                if done.is_some() {
                    break;
                }
            }
        }
        if done != Some(true) {
            return None;
        }
    }
    renumber(&mut f);
    Some(f)
}

/// The number of (edit, site) pairs to try for `file`.
fn edit_count(file: &File) -> usize {
    EDITS.len() * sites(file).max(file.items.len())
}

/// The `k`-th (edit, site) pair, edits major: all deletions before all
/// unwraps, and so on.
fn nth_edit(file: &File, k: usize) -> (Edit, usize) {
    let per = sites(file).max(file.items.len());
    (EDITS[k / per], k % per)
}

/// Everything [`shrink_kernel`] needs to decide validity.
struct Checker {
    termination: bool,
}

impl Checker {
    fn new(original: &File) -> Checker {
        Checker {
            termination: check_termination(original, u32::MAX).is_ok(),
        }
    }

    /// The edited file as read back from its text, if it is valid.
    fn check(&self, f: File) -> Option<File> {
        let f = respan(&f).ok()?;
        let valid = if self.termination {
            is_valid(&f, u32::MAX)
        } else {
            convcheck_lang::sema::Kernel::new("generated.c", f.clone())
                .is_ok_and(|k| k.entry(None).is_ok())
        };
        valid.then_some(f)
    }
}

/// The valid one-step reductions of `file`, biggest edits first (see the
/// module documentation), lazily.
pub fn reductions(file: File) -> impl Iterator<Item = File> {
    let checker = Checker::new(&file);
    (0..edit_count(&file)).filter_map(move |k| {
        let (edit, site) = nth_edit(&file, k);
        edited(&file, edit, site).and_then(|f| checker.check(f))
    })
}

/// Greedily shrinks `file` while `still_fails` holds and the result stays
/// valid; returns the smallest file found (`file` itself if no reduction
/// keeps the predicate).
///
/// `still_fails` is called only on valid files read back from their text.
pub fn shrink_kernel(file: &File, mut still_fails: impl FnMut(&File) -> bool) -> File {
    let checker = Checker::new(file);
    let mut best = file.clone();
    loop {
        let mut improved = false;
        let mut k = 0;
        while k < edit_count(&best) {
            let (edit, site) = nth_edit(&best, k);
            if let Some(f) = edited(&best, edit, site).and_then(|f| checker.check(f)) {
                if still_fails(&f) {
                    best = f;
                    improved = true;
                    // The same position now holds the next statement.
                    continue;
                }
            }
            k += 1;
        }
        if !improved {
            return best;
        }
    }
}
