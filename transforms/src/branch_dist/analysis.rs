//! Phases 1 and 2 of `branch-dist` and the regions Phase 3 decides on
//! (seed 002, "Algorithm"; the mapping to our CFG is in the parent
//! module's doc).
//!
//! - [`Classifier`] reads a block as the items it evaluates, in execution
//!   order: counted accesses (as [`Fact`]s) and barrier calls ([`Sync`]).
//! - [`regions`] computes the block flags (`head`, `tail`, `has_sync`),
//!   propagates them over successor edges to the least fixed point (OR or
//!   AND meet, stopping at blocks that hold a sync), and returns, for every
//!   barrier, the set of facts above and below it.
//! - [`touches`] summarises callees for `ignore-call-safety=0`.

use convcheck_ir::print;
use convcheck_ir::{
    BarrierKind, BlockId, CallKind, Cfg, Expr, InstKind, Module, OpId, Space, Term,
};
use std::collections::BTreeSet;

/// What one access is, for the analysis. `space` and `addr` are `None`
/// except in the precise-address variant, and for calls, which match
/// every address.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Fact {
    /// A write (else a read).
    pub(super) write: bool,
    /// The space (precise-address only).
    pub(super) space: Option<Space>,
    /// The folded index as text, the ops of its calls and accesses left
    /// out (precise-address only).
    pub(super) addr: Option<String>,
}

/// A set of access facts.
pub(super) type Set = BTreeSet<Fact>;

/// Where an item stands in its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Slot {
    /// Instruction `i` of the block.
    Inst(usize),
    /// The terminator.
    Term,
}

/// A barrier call in a block.
#[derive(Clone, Debug)]
pub(super) struct Sync {
    /// The call's op.
    pub(super) id: OpId,
    /// Which barrier.
    pub(super) kind: BarrierKind,
    /// Where it stands.
    pub(super) slot: Slot,
    /// The barrier call is its instruction's whole expression.
    pub(super) whole: bool,
}

/// What a block evaluates, one step at a time.
#[derive(Clone, Debug)]
enum Item {
    Access(Fact),
    Sync(Sync),
}

/// Phase 1: turns instructions into items. Call kinds come from the
/// operands themselves; the module is read only to print folded indices.
pub(super) struct Classifier {
    /// Facts carry space and folded index (precise-address).
    pub(super) precise: bool,
    /// Local accesses count.
    pub(super) count_local: bool,
    /// For each function: whether it (transitively) accesses counted
    /// memory; `None` when calls are ignored.
    pub(super) touches: Option<Vec<bool>>,
}

impl Classifier {
    fn access(&self, m: &Module, write: bool, space: Space, index: &Expr, out: &mut Vec<Item>) {
        if space == Space::Local && !self.count_local {
            return;
        }
        let fact = if self.precise {
            Fact {
                write,
                space: Some(space),
                addr: Some(print::expr(m, &erase_ops(&fold(index)))),
            }
        } else {
            Fact {
                write,
                space: None,
                addr: None,
            }
        };
        out.push(Item::Access(fact));
    }

    /// Items of `e` in evaluation order; `whole` is the op of the call that
    /// is the whole expression of an evaluation, if any.
    fn expr(&self, m: &Module, e: &Expr, slot: Slot, whole: Option<OpId>, out: &mut Vec<Item>) {
        match e {
            Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Var(_) | Expr::Oracle(_) => {}
            Expr::Unary(_, a) => self.expr(m, a, slot, None, out),
            Expr::Binary(_, a, b) => {
                self.expr(m, a, slot, None, out);
                self.expr(m, b, slot, None, out);
            }
            Expr::Select(c, a, b) => {
                self.expr(m, c, slot, None, out);
                self.expr(m, a, slot, None, out);
                self.expr(m, b, slot, None, out);
            }
            Expr::Load { space, index, .. } => {
                self.expr(m, index, slot, None, out);
                self.access(m, false, *space, index, out);
            }
            Expr::Store {
                space,
                index,
                value,
                ..
            } => {
                self.expr(m, value, slot, None, out);
                self.expr(m, index, slot, None, out);
                self.access(m, true, *space, index, out);
            }
            Expr::Assign { value, .. } => self.expr(m, value, slot, None, out),
            Expr::Call { op, kind, args, .. } => match kind {
                CallKind::Oracle(_) | CallKind::Fence => {}
                CallKind::Op(_) | CallKind::Plain(_) => {
                    for a in args {
                        self.expr(m, a, slot, None, out);
                    }
                }
                CallKind::Real(f) => {
                    for a in args {
                        self.expr(m, a, slot, None, out);
                    }
                    let touches = self
                        .touches
                        .as_ref()
                        .is_some_and(|t| t.get(*f).copied().unwrap_or(true));
                    if touches {
                        for write in [false, true] {
                            out.push(Item::Access(Fact {
                                write,
                                space: None,
                                addr: None,
                            }));
                        }
                    }
                }
                CallKind::Barrier(kind, _) => {
                    for a in args {
                        self.expr(m, a, slot, None, out);
                    }
                    out.push(Item::Sync(Sync {
                        id: *op,
                        kind: *kind,
                        slot,
                        whole: whole == Some(*op),
                    }));
                }
            },
        }
    }

    fn block(&self, m: &Module, cfg: &Cfg, b: BlockId) -> Vec<Item> {
        let mut out = Vec::new();
        let block = &cfg.blocks[b];
        for (i, inst) in block.insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Eval(e) => {
                    let whole = match e {
                        Expr::Call { op, .. } => Some(*op),
                        _ => None,
                    };
                    self.expr(m, e, Slot::Inst(i), whole, &mut out);
                }
                InstKind::SetLocal { value: Some(e), .. } => {
                    self.expr(m, e, Slot::Inst(i), None, &mut out)
                }
                // A phi evaluates the value of the edge taken; every value
                // is read as if evaluated, as for both arms of `?:`.
                InstKind::Phi { incoming, .. } => {
                    for (_, e) in incoming {
                        self.expr(m, e, Slot::Inst(i), None, &mut out);
                    }
                }
                InstKind::SetLocal { value: None, .. }
                | InstKind::Observe
                | InstKind::Token { .. } => {}
            }
        }
        match &block.term {
            Term::CondBr { cond: e, .. } | Term::Switch { value: e, .. } | Term::Ret(Some(e)) => {
                self.expr(m, e, Slot::Term, None, &mut out)
            }
            Term::Br(_) | Term::Ret(None) | Term::Unreachable => {}
        }
        out
    }
}

/// For each function of the module: whether it, or a function it calls,
/// accesses memory that counts.
pub(super) fn touches(module: &Module, count_local: bool) -> Vec<bool> {
    let n = module.functions.len();
    let mut direct = vec![false; n];
    let mut callees: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for (f, cfg) in module.functions.iter().enumerate() {
        for block in &cfg.blocks {
            for e in block.exprs() {
                e.walk(&mut |x| match x {
                    Expr::Load { space, .. } | Expr::Store { space, .. }
                        if *space != Space::Local || count_local =>
                    {
                        direct[f] = true;
                    }
                    Expr::Call {
                        kind: CallKind::Real(g),
                        ..
                    } => {
                        callees[f].insert(*g);
                    }
                    _ => {}
                });
            }
        }
    }
    let mut t = direct;
    loop {
        let mut changed = false;
        for f in 0..n {
            if !t[f]
                && callees[f]
                    .iter()
                    .any(|&g| t.get(g).copied().unwrap_or(true))
            {
                t[f] = true;
                changed = true;
            }
        }
        if !changed {
            return t;
        }
    }
}

/// Constant-folds an index expression with the model's own arithmetic (the
/// precise-address variant's notion of "the same address"): unary and
/// binary operators over constants, recursively; anything else is kept as
/// it is, operands unfolded.
fn fold(e: &Expr) -> Expr {
    match e {
        Expr::Unary(op, a) => match fold(a) {
            Expr::Const(v) => Expr::Const(convcheck_ir::expr::unary(*op, v)),
            a => Expr::Unary(*op, Box::new(a)),
        },
        Expr::Binary(op, a, b) => match (fold(a), fold(b)) {
            (Expr::Const(x), Expr::Const(y)) => Expr::Const(convcheck_ir::expr::binary(*op, x, y)),
            (a, b) => Expr::Binary(*op, Box::new(a), Box::new(b)),
        },
        _ => e.clone(),
    }
}

/// `e` with the ops of its calls and memory accesses, and the oracles that
/// give loaded values, set to one value: two accesses at the same place of
/// the program text compare by what they compute, not by which operation
/// they are.
fn erase_ops(e: &Expr) -> Expr {
    let go = |x: &Expr| Box::new(erase_ops(x));
    match e {
        Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Var(_) | Expr::Oracle(_) => e.clone(),
        Expr::Unary(op, a) => Expr::Unary(*op, go(a)),
        Expr::Binary(op, a, b) => Expr::Binary(*op, go(a), go(b)),
        Expr::Select(c, a, b) => Expr::Select(go(c), go(a), go(b)),
        Expr::Call {
            kind, callee, args, ..
        } => Expr::Call {
            op: OpId::default(),
            kind: *kind,
            callee: callee.clone(),
            args: args.iter().map(erase_ops).collect(),
        },
        Expr::Load { space, index, .. } => Expr::Load {
            op: OpId::default(),
            space: *space,
            index: go(index),
            value: None,
            access: convcheck_ir::Access::ELEMENT,
        },
        Expr::Store {
            space,
            index,
            value,
            ..
        } => Expr::Store {
            op: OpId::default(),
            space: *space,
            index: go(index),
            value: go(value),
            access: convcheck_ir::Access::ELEMENT,
        },
        Expr::Assign { var, op, value } => Expr::Assign {
            var: var.clone(),
            op: *op,
            value: go(value),
        },
    }
}

/// Two facts may touch the same location.
pub(super) fn may_alias(a: &Fact, b: &Fact) -> bool {
    let space = match (a.space, b.space) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    let addr = match (&a.addr, &b.addr) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    space && addr
}

/// Meets a list of sets: union (OR) or intersection (AND); nothing for an
/// empty list.
fn meet<'a>(mut sets: impl Iterator<Item = &'a Set>, and: bool) -> Set {
    let Some(first) = sets.next() else {
        return Set::new();
    };
    let mut acc = first.clone();
    for s in sets {
        if and {
            acc.retain(|f| s.contains(f));
        } else {
            acc.extend(s.iter().cloned());
        }
    }
    acc
}

fn facts(items: &[Item]) -> Set {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Access(f) => Some(f.clone()),
            Item::Sync(_) => None,
        })
        .collect()
}

/// One barrier and the facts that can execute above and below it.
pub(super) struct Region {
    /// Its block.
    pub(super) block: BlockId,
    /// The barrier.
    pub(super) sync: Sync,
    /// Facts before it, since the previous barrier.
    pub(super) above: Set,
    /// Facts after it, until the next barrier.
    pub(super) below: Set,
}

/// Phases 1 and 2 on one function, and the above/below sets of every
/// barrier: `and` selects the AND meet, `propagate` is false with
/// `disable-complex`.
pub(super) fn regions(
    c: &Classifier,
    m: &Module,
    cfg: &Cfg,
    and: bool,
    propagate: bool,
) -> Vec<Region> {
    let n = cfg.blocks.len();
    let items: Vec<Vec<Item>> = (0..n).map(|b| c.block(m, cfg, b)).collect();
    // Phase 1: block flags.
    let mut has_sync = vec![false; n];
    let mut head = vec![Set::new(); n];
    let mut tail = vec![Set::new(); n];
    for (b, list) in items.iter().enumerate() {
        let syncs: Vec<usize> = (0..list.len())
            .filter(|&i| matches!(list[i], Item::Sync(_)))
            .collect();
        has_sync[b] = !syncs.is_empty();
        let first = syncs.first().copied().unwrap_or(list.len());
        let last = syncs.last().map_or(0, |&l| l + 1);
        head[b] = facts(&list[..first]);
        tail[b] = facts(&list[last..]);
    }
    // Phase 2: propagation.
    let preds = cfg.preds();
    let succs: Vec<Vec<BlockId>> = cfg.blocks.iter().map(|b| b.term.succs()).collect();
    let mut above_in = vec![Set::new(); n];
    let mut below_out = vec![Set::new(); n];
    if propagate {
        let start = Set::new();
        loop {
            let mut changed = false;
            for b in 0..n {
                let outs: Vec<Set> = preds[b]
                    .iter()
                    .map(|&p| {
                        let mut s = tail[p].clone();
                        if !has_sync[p] {
                            s.extend(above_in[p].iter().cloned());
                        }
                        s
                    })
                    .collect();
                let entry = (b == 0).then_some(&start);
                let new = meet(outs.iter().chain(entry), and);
                if new != above_in[b] {
                    above_in[b] = new;
                    changed = true;
                }
                let ins: Vec<Set> = succs[b]
                    .iter()
                    .map(|&s| {
                        let mut x = head[s].clone();
                        if !has_sync[s] {
                            x.extend(below_out[s].iter().cloned());
                        }
                        x
                    })
                    .collect();
                let new = meet(ins.iter(), and);
                if new != below_out[b] {
                    below_out[b] = new;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    // Phase 3's view of each barrier: its own block between the
    // neighbouring syncs, plus the propagated sets at the block's ends.
    let mut out = Vec::new();
    for (b, list) in items.iter().enumerate() {
        let syncs: Vec<usize> = (0..list.len())
            .filter(|&i| matches!(list[i], Item::Sync(_)))
            .collect();
        for (j, &i) in syncs.iter().enumerate() {
            let Item::Sync(sync) = &list[i] else { continue };
            let from = if j == 0 { 0 } else { syncs[j - 1] + 1 };
            let mut above = facts(&list[from..i]);
            if j == 0 {
                above.extend(above_in[b].iter().cloned());
            }
            let to = syncs.get(j + 1).copied().unwrap_or(list.len());
            let mut below = facts(&list[i + 1..to]);
            if j + 1 == syncs.len() {
                below.extend(below_out[b].iter().cloned());
            }
            out.push(Region {
                block: b,
                sync: sync.clone(),
                above,
                below,
            });
        }
    }
    out
}
