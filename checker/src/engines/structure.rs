//! An unbounded proof for a function `opt` left alone (or only merged
//! straight-line blocks of): the structural rule of the symbolic engine
//! (`convcheck_smt::product::by_structure`, DESIGN.md 2.7 "proved") applied
//! to the function as each file maps it.
//!
//! The rule compares two programs with the same op and oracle tables. Two
//! LLVM files do not have them: ops are numbered over the whole module and
//! carry the line of their instruction, and the oracle table holds every
//! function's oracles with domains computed from the whole module. So each
//! side is first brought to a canonical module of the function and the
//! functions it calls: functions, ops and oracles renumbered in the order
//! a walk meets them (the function's blocks in depth-first preorder from
//! the entry, successors in order, instructions and their expressions in
//! order), ops keeping their label and kind but no location, oracles their
//! name and class but no domain, blocks no origin. That renumbering is a
//! bijection of each side's identifiers, and what it drops is not
//! semantics: locations are for messages, domains are the values the
//! bounded search tries, and a block's origin names its block events,
//! which are neither observable nor convergent. The engine matches the two
//! sides by labels and oracle names, which are kept. Two programs the rule
//! proves equal after renumbering therefore run the same observable events
//! and the same convergent instances, related alike, in every scenario and
//! for every iteration count.
//!
//! The walk visits a straight-line chain `A -> B` (the only edge out of
//! `A`, the only one into `B`) as `A` then `B`, so a target that merged
//! the chain into one block is numbered like the reference, which the rule
//! accepts. Two sides whose canonical modules are equal are one program
//! and are proved whatever their cycles: the rule itself refuses an
//! irreducible cycle (its header is a choice, and an isomorphism need not
//! make it alike), but the choice is made from the module alone, block
//! order included, so equal modules make it alike (`nontrivial-unswitch.ll`'s
//! `test_no_unswitch_unstructured_cfg`, which opt leaves alone). Anything
//! else the rule does not accept (a different CFG, an irreducible cycle in
//! two different modules or with calls of defined functions, renamed
//! values, recursion) is left to the bounded check.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{
    CallKind, Expr, FuncId, InstKind, Module, OpId, OpInfo, OpKind, OracleId, OracleInfo, Span,
    Term,
};
use std::collections::HashMap;

/// `Some(straight-line edges merged)` when the structural rule proves the
/// function `tentry` of `target` equivalent to `rentry` of `reference` for
/// every iteration count, `None` when it does not apply.
pub fn proved(
    reference: &Module,
    rentry: FuncId,
    target: &Module,
    tentry: FuncId,
) -> Option<usize> {
    proved_with(
        reference,
        rentry,
        target,
        tentry,
        convcheck_smt::product::canonicalize,
    )
}

/// [`proved`] with `canon` for the second attempt, up to what
/// canonicalization passes do (`convcheck_smt::product::canonicalize`;
/// the tests pass its unsound mutant to see it caught): when the rule does
/// not relate the two canonical modules as they are, it is applied to
/// their canonical forms (inverted branch conditions oriented one way,
/// empty blocks that head no cycle bypassed, locals renamed in walk
/// order), numbered again in walk order.
pub fn proved_with(
    reference: &Module,
    rentry: FuncId,
    target: &Module,
    tentry: FuncId,
    canon: fn(&Module) -> Option<Module>,
) -> Option<usize> {
    let r = without_aligned_tokens(canonical(reference, rentry)?)?;
    let t = without_aligned_tokens(canonical(target, tentry)?)?;
    // Two equal canonical modules are one program, whatever their cycles:
    // what the rule leaves out for its isomorphism (an irreducible cycle,
    // whose header is a choice) is made the same way on both sides, as it
    // is made from the module alone (block order included).
    // (Only without calls of defined functions: the rule leaves recursion
    // to the bounded check, which says where its call depth cuts runs.)
    convcheck_smt::product::by_structure(&r, &t, 0)
        .or_else(|| (r.module == t.module && !calls_defined(&r.module)).then_some(0))
        .or_else(|| {
            let r = CfgProgram::new(canonical(&canon(&r.module)?, 0)?);
            let t = CfgProgram::new(canonical(&canon(&t.module)?, 0)?);
            convcheck_smt::product::by_structure(&r, &t, 0)
        })
}

/// Whether a function of `m` calls a function `m` defines.
fn calls_defined(m: &Module) -> bool {
    let mut any = false;
    for f in &m.functions {
        for b in &f.blocks {
            for e in b.exprs() {
                e.walk(&mut |x| {
                    any |= matches!(
                        x,
                        Expr::Call {
                            kind: CallKind::Real(_),
                            ..
                        }
                    )
                });
            }
        }
    }
    any
}

/// The canonical module `m` with its convergence-control tokens erased
/// where they are aligned with the cycle hierarchy
/// (`convcheck_smt::product::tokens::erase_aligned`, the product's own
/// rule: such tokens key operations as maximal convergence does), and
/// numbered again; `m` as it is otherwise. Erased per function and its
/// callees, not per file: ADCE's `baz` (`ADCE/convergence.ll`, opt-22
/// deletes its aligned `entry` and `loop` tokens) is proved although
/// `bar` in the same file has an anchor.
fn without_aligned_tokens(m: Module) -> Option<CfgProgram> {
    let p = CfgProgram::new(m);
    match convcheck_smt::product::tokens::erase_aligned(&p) {
        Some(erased) => Some(CfgProgram::new(canonical(&erased.module, 0)?)),
        None => Some(p),
    }
}

/// New identifiers in the order they are met.
#[derive(Default)]
struct Numbering {
    funcs: HashMap<FuncId, FuncId>,
    func_order: Vec<FuncId>,
    ops: HashMap<OpId, OpId>,
    op_table: Vec<OpInfo>,
    oracles: HashMap<OracleId, OracleId>,
    oracle_table: Vec<OracleInfo>,
}

impl Numbering {
    fn func(&mut self, f: FuncId) -> FuncId {
        if let Some(&g) = self.funcs.get(&f) {
            return g;
        }
        let g = self.func_order.len();
        self.funcs.insert(f, g);
        self.func_order.push(f);
        g
    }

    fn oracle(&mut self, m: &Module, o: OracleId) -> Option<OracleId> {
        if let Some(&p) = self.oracles.get(&o) {
            return Some(p);
        }
        let info = m.oracles.get(o)?;
        let p = self.oracle_table.len();
        self.oracles.insert(o, p);
        self.oracle_table.push(OracleInfo {
            name: info.name.clone(),
            class: info.class,
            domain: Vec::new(),
            span: Span::default(),
        });
        Some(p)
    }

    fn call_kind(&mut self, m: &Module, k: CallKind) -> Option<CallKind> {
        Some(match k {
            CallKind::Real(f) => CallKind::Real(self.func(f)),
            CallKind::Op(o) => CallKind::Op(self.oracle(m, o)?),
            CallKind::Plain(o) => CallKind::Plain(self.oracle(m, o)?),
            CallKind::Oracle(o) => CallKind::Oracle(self.oracle(m, o)?),
            CallKind::Barrier(b, o) => CallKind::Barrier(
                b,
                match o {
                    Some(o) => Some(self.oracle(m, o)?),
                    None => None,
                },
            ),
            CallKind::Fence => CallKind::Fence,
        })
    }

    fn op(&mut self, m: &Module, id: OpId) -> Option<OpId> {
        if let Some(&p) = self.ops.get(&id) {
            return Some(p);
        }
        let info = m.ops.get(id.0 as usize)?;
        let p = OpId(u32::try_from(self.op_table.len()).ok()?);
        self.ops.insert(id, p);
        // The slot is taken before the kind is renumbered (which may meet
        // new oracles and functions, never new ops).
        let kind = match info.kind {
            OpKind::Call(c) => OpKind::Call(self.call_kind(m, c)?),
            other => other,
        };
        let func = self.func(info.func);
        self.op_table.push(OpInfo {
            label: info.label.clone(),
            span: Span::default(),
            kind,
            func,
            memory_none: info.memory_none,
        });
        Some(p)
    }

    fn expr(&mut self, m: &Module, e: &mut Expr) -> Option<()> {
        match e {
            Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Var(_) => {}
            Expr::Oracle(o) => *o = self.oracle(m, *o)?,
            Expr::Unary(_, a) => self.expr(m, a)?,
            Expr::Binary(_, a, b) => {
                self.expr(m, a)?;
                self.expr(m, b)?;
            }
            Expr::Select(a, b, c) => {
                self.expr(m, a)?;
                self.expr(m, b)?;
                self.expr(m, c)?;
            }
            Expr::Call { op, kind, args, .. } => {
                *op = self.op(m, *op)?;
                *kind = self.call_kind(m, *kind)?;
                for a in args.iter_mut() {
                    self.expr(m, a)?;
                }
            }
            Expr::Load {
                op, index, value, ..
            } => {
                *op = self.op(m, *op)?;
                self.expr(m, index)?;
                if let Some(v) = value {
                    *v = self.oracle(m, *v)?;
                }
            }
            Expr::Store {
                op, index, value, ..
            } => {
                *op = self.op(m, *op)?;
                self.expr(m, index)?;
                self.expr(m, value)?;
            }
            Expr::Assign { value, .. } => self.expr(m, value)?,
        }
        Some(())
    }
}

/// Blocks reachable from the entry in depth-first preorder, successors in
/// order.
fn preorder(cfg: &convcheck_ir::Cfg) -> Vec<usize> {
    let mut seen = vec![false; cfg.blocks.len()];
    let mut order = Vec::new();
    let mut stack = vec![0usize];
    while let Some(b) = stack.pop() {
        if b >= cfg.blocks.len() || seen[b] {
            continue;
        }
        seen[b] = true;
        order.push(b);
        for s in cfg.blocks[b].term.succs().into_iter().rev() {
            if !seen.get(s).copied().unwrap_or(true) {
                stack.push(s);
            }
        }
    }
    order
}

/// The canonical module of function `entry` of `m` and the functions it
/// calls (see the module documentation); `None` when an identifier does
/// not resolve.
fn canonical(m: &Module, entry: FuncId) -> Option<Module> {
    let mut n = Numbering::default();
    n.func(entry);
    let mut functions = Vec::new();
    let mut next = 0;
    while next < n.func_order.len() {
        let f = n.func_order[next];
        next += 1;
        let mut cfg = m.functions.get(f)?.clone();
        cfg.remove_unreachable();
        for o in cfg.param_oracles.iter_mut() {
            *o = n.oracle(m, *o)?;
        }
        for b in preorder(&cfg) {
            let block = &mut cfg.blocks[b];
            block.origin = None;
            for inst in block.insts.iter_mut() {
                inst.sid = n.op(m, inst.sid)?;
                match &mut inst.kind {
                    InstKind::Observe | InstKind::Token { .. } => {}
                    InstKind::Eval(e) => n.expr(m, e)?,
                    InstKind::SetLocal { value, .. } => {
                        if let Some(e) = value {
                            n.expr(m, e)?;
                        }
                    }
                    InstKind::Phi { incoming, .. } => {
                        for (_, e) in incoming.iter_mut() {
                            n.expr(m, e)?;
                        }
                    }
                }
            }
            match &mut block.term {
                Term::CondBr { cond: e, .. } | Term::Switch { value: e, .. } => n.expr(m, e)?,
                Term::Ret(Some(e)) => n.expr(m, e)?,
                Term::Br(_) | Term::Ret(None) | Term::Unreachable => {}
            }
        }
        functions.push(cfg);
    }
    Some(Module {
        name: String::new(),
        max_group: None,
        ops: n.op_table,
        oracles: n.oracle_table,
        functions,
    })
}
