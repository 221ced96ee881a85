//! What canonicalization passes do, undone before the structural rule
//! (issue 22; DESIGN.md 2.7 "proved"): each function of a module is
//! rewritten into a form that runs the same events with the same
//! convergence, so that two programs whose forms the rule relates are
//! related too. Three rewrites, each sound on its own (the rule's proof is
//! then `a ≡ canon(a) ≅ canon(b) ≡ b`):
//!
//! 1. **Inverted branch conditions** ([`invert_conditions`]). A block that
//!    sets a local `x = (a P b)` with `P` one of `==`, `>=`, `>`, unsigned
//!    `>=`, unsigned `>` and ends in `br x, T, F`, where that is the only
//!    definition of `x`, the branch its only use and `x` no parameter, is
//!    rewritten to `x = (a !P b)` (`!=`, `<`, `<=`, unsigned `<`, `<=`)
//!    and `br x, F, T`. In the model's arithmetic (`convcheck_ir::expr::
//!    binary`) each pair is an exact negation on every pair of values, so
//!    the new `x` is nonzero exactly when the old one was zero and every
//!    run takes the same edge; `x` is read nowhere else. The CFG's edges
//!    are the same, so its cycles are. InstCombine's `icmp ne` to `icmp
//!    eq` with swapped successors (`%c.not`) is undone so.
//! 2. **Empty blocks on edges** ([`bypass_empty`]). A block `E` that is
//!    not the entry, has no instruction and ends in `br S` (`S != E`) and
//!    is *not the header of any cycle* is bypassed: every edge `P -> E`
//!    becomes `P -> S`, and a phi of `S` reading `v` from `E` reads `v`
//!    from each such `P` (refused where `S`'s phis already have an entry
//!    for `P`). `E` has no event, and values at the end of `E` are those
//!    at the end of `P`, so every thread runs the same events on the same
//!    values. For convergence the rewrite must also keep every remaining
//!    instance's key (DESIGN.md 2.3: the node and the most recent instance
//!    of the header of the innermost cycle containing it): so the cycle
//!    nest of the result, every cycle's header, members and parent, must
//!    be the original's with the bypassed blocks removed from the members,
//!    every cycle reducible, and the function must have no
//!    convergence-control token left (tokens aligned with the cycles are
//!    erased before, as the product does); otherwise the function is
//!    refused. A run of the result is then the original run with the
//!    instances of bypassed blocks left out, header instances included, so
//!    keys correspond. LoopSimplify's preheaders and dedicated exits,
//!    SimplifyCFG's forwarding of empty blocks that are not headers. A
//!    header is never bypassed: that is what makes the seed's violating
//!    `loop_nest` fold (opt-bisect 188 to 189, SimplifyCFG removes the
//!    outer loop's empty header) look different.
//! 3. **Locals renamed in walk order** ([`rename_locals`]): parameters
//!    `p0`, `p1`, ..., then every other local `l0`, `l1`, ... in the order
//!    a walk meets it (blocks in depth-first preorder from the entry,
//!    successors in order, instructions and their expressions in order). A
//!    bijection of the function's local names, which name nothing outside
//!    it: it changes no run.
//!
//! What is *not* done: a phi with one incoming value is not replaced by
//! that value (LCSSA): its uses would have to read the operand instead,
//! which is sound only where the operand is not set again between the
//! phi and the use, a data-flow fact the rule does not establish.

use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::{BinOp, BlockId, Cfg, Expr, InstKind, Module, Term};
use std::collections::{BTreeMap, BTreeSet};

/// `m` with every function in canonical form (see the module
/// documentation); `None` where a function keeps a convergence-control
/// token or a side condition of the bypass fails.
pub fn canonicalize(m: &Module) -> Option<Module> {
    canonicalize_with(m, true)
}

/// [`canonicalize`]; `headers_only` false is the unsound mutant of
/// [`bypass_empty`].
pub(crate) fn canonicalize_with(m: &Module, headers_only: bool) -> Option<Module> {
    let mut out = m.clone();
    for f in out.functions.iter_mut() {
        *f = canonical_cfg(f, headers_only)?;
    }
    Some(out)
}

/// One function in canonical form.
fn canonical_cfg(cfg: &Cfg, headers_only: bool) -> Option<Cfg> {
    let tokens = cfg.blocks.iter().any(|b| {
        b.insts
            .iter()
            .any(|i| i.token.is_some() || matches!(i.kind, InstKind::Token { .. }))
    });
    if tokens {
        return None;
    }
    let mut c = cfg.clone();
    c.remove_unreachable();
    invert_conditions(&mut c);
    let mut c = bypass_empty(&c, headers_only)?;
    rename_locals(&mut c);
    Some(c)
}

/// The negation of a comparison that is rewritten (`==` to `!=`, ...).
fn negated(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Eq => BinOp::Ne,
        BinOp::Ge => BinOp::Lt,
        BinOp::Gt => BinOp::Le,
        BinOp::UGe => BinOp::ULt,
        BinOp::UGt => BinOp::ULe,
        _ => return None,
    })
}

/// How often each local is read (`Var`) and set (`SetLocal`, `Phi`,
/// `Assign`) in `cfg`.
fn uses_and_defs(cfg: &Cfg) -> (BTreeMap<String, usize>, BTreeMap<String, usize>) {
    let (mut uses, mut defs): (BTreeMap<String, usize>, BTreeMap<String, usize>) =
        Default::default();
    for b in &cfg.blocks {
        for i in &b.insts {
            match &i.kind {
                InstKind::SetLocal { name, .. } | InstKind::Phi { name, .. } => {
                    *defs.entry(name.clone()).or_default() += 1;
                }
                _ => {}
            }
        }
        for e in b.exprs() {
            e.walk(&mut |x| match x {
                Expr::Var(v) => *uses.entry(v.clone()).or_default() += 1,
                Expr::Assign { var, .. } => *defs.entry(var.clone()).or_default() += 1,
                _ => {}
            });
        }
    }
    (uses, defs)
}

/// Rewrite 1: conditions set in their block, read only by its branch, put
/// in the orientation `!=`, `<`, `<=`, unsigned `<`, `<=`.
pub(crate) fn invert_conditions(cfg: &mut Cfg) {
    let (uses, defs) = uses_and_defs(cfg);
    for b in cfg.blocks.iter_mut() {
        let Term::CondBr {
            cond: Expr::Var(x),
            then,
            els,
        } = &mut b.term
        else {
            continue;
        };
        if cfg.params.contains(x) || uses.get(x) != Some(&1) || defs.get(x) != Some(&1) {
            continue;
        }
        let def = b.insts.iter_mut().find_map(|i| match &mut i.kind {
            InstKind::SetLocal {
                name,
                value: Some(Expr::Binary(op, ..)),
            } if name == x => Some(op),
            _ => None,
        });
        if let Some(op) = def {
            if let Some(n) = negated(*op) {
                *op = n;
                std::mem::swap(then, els);
            }
        }
    }
}

/// A cycle as the bypass compares it: header, members, the parent's
/// header.
type Nest = BTreeSet<(BlockId, Vec<BlockId>, Option<BlockId>)>;

fn nest(info: &CycleInfo, left_out: &BTreeSet<BlockId>) -> Nest {
    info.cycles
        .iter()
        .map(|c| {
            (
                c.header,
                c.blocks
                    .iter()
                    .copied()
                    .filter(|b| !left_out.contains(b))
                    .collect(),
                c.parent.map(|p| info.cycles[p].header),
            )
        })
        .collect()
}

/// Rewrite 2: empty blocks that head no cycle bypassed (see the module
/// documentation); `None` when the result's cycle nest is not the
/// original's without them or a cycle is irreducible. `headers_only`
/// false is the unsound mutant the tests must catch: headers bypassed
/// too, and the cycle nest not compared.
pub(crate) fn bypass_empty(cfg: &Cfg, headers_only: bool) -> Option<Cfg> {
    let before = CycleInfo::compute(cfg);
    if !before.is_reducible() {
        return None;
    }
    let mut c = cfg.clone();
    let mut bypassed: BTreeSet<BlockId> = BTreeSet::new();
    for e in 1..c.blocks.len() {
        let Term::Br(s) = c.blocks[e].term else {
            continue;
        };
        if s == e || !c.blocks[e].insts.is_empty() || (headers_only && before.is_header(e)) {
            continue;
        }
        let preds: Vec<BlockId> = c.preds()[e]
            .iter()
            .copied()
            .filter(|p| !bypassed.contains(p))
            .collect();
        if preds.is_empty() {
            continue;
        }
        // The phis of `S` read from each `P` what they read from `E`.
        let clash = c.blocks[s].insts.iter().any(|i| match &i.kind {
            InstKind::Phi { incoming, .. } => incoming.iter().any(|(p, _)| preds.contains(p)),
            _ => false,
        });
        if clash {
            continue;
        }
        for i in c.blocks[s].insts.iter_mut() {
            if let InstKind::Phi { incoming, .. } = &mut i.kind {
                let mut out = Vec::new();
                for (p, v) in incoming.drain(..) {
                    if p == e {
                        out.extend(preds.iter().map(|&q| (q, v.clone())));
                    } else {
                        out.push((p, v));
                    }
                }
                *incoming = out;
            }
        }
        for &p in &preds {
            c.blocks[p].term.map_succs(|x| if x == e { s } else { x });
        }
        bypassed.insert(e);
    }
    if bypassed.is_empty() || !headers_only {
        c.remove_unreachable();
        return Some(c);
    }
    let after = CycleInfo::compute(&c);
    if !after.is_reducible() || nest(&before, &bypassed) != nest(&after, &BTreeSet::new()) {
        return None;
    }
    c.remove_unreachable();
    Some(c)
}

/// Rewrite 3: parameters `p0`, ..., other locals `l0`, ... in walk order.
pub(crate) fn rename_locals(cfg: &mut Cfg) {
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for (k, p) in cfg.params.iter_mut().enumerate() {
        let new = format!("p{k}");
        names.insert(std::mem::replace(p, new.clone()), new);
    }
    let mut next = 0usize;
    let mut name = |n: &mut String| {
        let new = names
            .entry(n.clone())
            .or_insert_with(|| {
                next += 1;
                format!("l{}", next - 1)
            })
            .clone();
        *n = new;
    };
    for b in cfg.reachable() {
        let block = &mut cfg.blocks[b];
        for i in block.insts.iter_mut() {
            match &mut i.kind {
                InstKind::Observe | InstKind::Token { .. } => {}
                InstKind::Eval(e) => rename_expr(e, &mut name),
                InstKind::SetLocal { name: n, value } => {
                    if let Some(e) = value {
                        rename_expr(e, &mut name);
                    }
                    name(n);
                }
                InstKind::Phi { name: n, incoming } => {
                    for (_, e) in incoming.iter_mut() {
                        rename_expr(e, &mut name);
                    }
                    name(n);
                }
            }
        }
        match &mut block.term {
            Term::CondBr { cond: e, .. } | Term::Switch { value: e, .. } | Term::Ret(Some(e)) => {
                rename_expr(e, &mut name)
            }
            Term::Br(_) | Term::Ret(None) | Term::Unreachable => {}
        }
    }
}

fn rename_expr(e: &mut Expr, name: &mut dyn FnMut(&mut String)) {
    match e {
        Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Oracle(_) => {}
        Expr::Var(v) => name(v),
        Expr::Unary(_, a) => rename_expr(a, name),
        Expr::Binary(_, a, b) => {
            rename_expr(a, name);
            rename_expr(b, name);
        }
        Expr::Select(a, b, c) => {
            rename_expr(a, name);
            rename_expr(b, name);
            rename_expr(c, name);
        }
        Expr::Call { args, .. } => args.iter_mut().for_each(|a| rename_expr(a, name)),
        Expr::Load { index, .. } => rename_expr(index, name),
        Expr::Store { index, value, .. } => {
            rename_expr(index, name);
            rename_expr(value, name);
        }
        Expr::Assign { var, value, .. } => {
            rename_expr(value, name);
            name(var);
        }
    }
}
