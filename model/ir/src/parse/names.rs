//! Names and their resolution for the reader in [`super`].
//!
//! Every name space of the text form (oracles, functions, the blocks of one
//! function) lets a name be used before the line that defines it. The
//! reader gives each name a *provisional* id when it first sees it, used
//! or defined, builds the module with provisional ids, and once the name
//! space is complete maps them to the ids of the definitions ([`remap`]
//! for oracles and functions; blocks are remapped at the end of their
//! function). A name used but never defined is reported at its first use.

use crate::cfg::{InstKind, Module, Term};
use crate::expr::Expr;
use crate::ops::{CallKind, OpKind};
use crate::span::Pos;
use std::collections::HashMap;

/// One name space (oracles, functions, or the blocks of one function).
/// A name gets a provisional id when first seen, used or defined; once
/// the file is read, [`Names::resolve`] maps provisional ids to the ids of
/// the definitions.
#[derive(Default)]
pub(super) struct Names {
    ids: HashMap<String, usize>,
    slots: Vec<Slot>,
}

struct Slot {
    name: String,
    /// The final id and where the definition stands.
    def: Option<(usize, Pos)>,
    first_use: Option<Pos>,
}

impl Names {
    fn slot(&mut self, name: String) -> usize {
        if let Some(&i) = self.ids.get(&name) {
            return i;
        }
        let i = self.slots.len();
        self.slots.push(Slot {
            name: name.clone(),
            def: None,
            first_use: None,
        });
        self.ids.insert(name, i);
        i
    }

    /// The provisional id of a use of `name` at `pos`.
    pub(super) fn use_at(&mut self, name: String, pos: Pos) -> usize {
        let i = self.slot(name);
        self.slots[i].first_use.get_or_insert(pos);
        i
    }

    /// Defines `name` as `id`; the position of the first definition if it
    /// already has one.
    pub(super) fn define(&mut self, name: String, pos: Pos, id: usize) -> Result<(), Pos> {
        let i = self.slot(name);
        match self.slots[i].def {
            Some((_, first)) => Err(first),
            None => {
                self.slots[i].def = Some((id, pos));
                Ok(())
            }
        }
    }

    /// The final id of every provisional one (0 for a name never defined),
    /// and the names used but never defined, with their first use.
    pub(super) fn resolve(&self) -> (Vec<usize>, Vec<(String, Pos)>) {
        let mut map = Vec::with_capacity(self.slots.len());
        let mut unknown = Vec::new();
        for s in &self.slots {
            match (s.def, s.first_use) {
                (Some((id, _)), _) => map.push(id),
                (None, use_pos) => {
                    map.push(0);
                    if let Some(pos) = use_pos {
                        unknown.push((s.name.clone(), pos));
                    }
                }
            }
        }
        (map, unknown)
    }
}

/// Rewrites the provisional oracle and function ids of `m` to final ones.
pub(super) fn remap(m: &mut Module, oracles: &[usize], funcs: &[usize]) {
    let ids = Ids { oracles, funcs };
    for op in &mut m.ops {
        op.func = ids.func(op.func);
        if let OpKind::Call(k) = &mut op.kind {
            ids.call(k);
        }
    }
    for cfg in &mut m.functions {
        for o in &mut cfg.param_oracles {
            *o = ids.oracle(*o);
        }
        for b in &mut cfg.blocks {
            for i in &mut b.insts {
                match &mut i.kind {
                    InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => ids.expr(e),
                    InstKind::Phi { incoming, .. } => {
                        incoming.iter_mut().for_each(|(_, e)| ids.expr(e))
                    }
                    _ => {}
                }
            }
            match &mut b.term {
                Term::CondBr { cond: e, .. }
                | Term::Switch { value: e, .. }
                | Term::Ret(Some(e)) => ids.expr(e),
                _ => {}
            }
        }
    }
}

/// The maps from provisional to final ids.
struct Ids<'a> {
    oracles: &'a [usize],
    funcs: &'a [usize],
}

impl Ids<'_> {
    fn oracle(&self, o: usize) -> usize {
        self.oracles.get(o).copied().unwrap_or(o)
    }

    fn func(&self, f: usize) -> usize {
        self.funcs.get(f).copied().unwrap_or(f)
    }

    fn call(&self, k: &mut CallKind) {
        match k {
            CallKind::Real(f) => *f = self.func(*f),
            CallKind::Op(o) | CallKind::Plain(o) | CallKind::Oracle(o) => *o = self.oracle(*o),
            CallKind::Barrier(_, Some(o)) => *o = self.oracle(*o),
            CallKind::Barrier(_, None) | CallKind::Fence => {}
        }
    }

    /// Recursion is bounded by [`MAX_DEPTH`]: the reader built `e`.
    fn expr(&self, e: &mut Expr) {
        match e {
            Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Var(_) => {}
            Expr::Oracle(o) => *o = self.oracle(*o),
            Expr::Unary(_, a) => self.expr(a),
            Expr::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            Expr::Select(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            Expr::Call { kind, args, .. } => {
                self.call(kind);
                args.iter_mut().for_each(|a| self.expr(a));
            }
            Expr::Load { index, value, .. } => {
                self.expr(index);
                if let Some(o) = value {
                    *o = self.oracle(*o);
                }
            }
            Expr::Store { index, value, .. } => {
                self.expr(index);
                self.expr(value);
            }
            Expr::Assign { value, .. } => self.expr(value),
        }
    }
}
