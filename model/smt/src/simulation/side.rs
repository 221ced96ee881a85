//! One program of a simulation proof, prepared once: its cut points, the
//! cycles containing each block, where each block's phis end, which locals
//! are live at each instruction, and which locals can hold a pending load
//! (DESIGN.md 2.7 property 1: a load whose value nothing uses is not
//! observable, so the engine must know when a loaded value is used).
//!
//! **Cut points** are the headers of the cycles of the program's hierarchy
//! (LLVM's CycleInfo). Every closed path of the CFG passes through the
//! header of the smallest cycle containing it (`product::unroll`), so a
//! symbolic run that stops on entering a header follows finitely many
//! acyclic paths.
//!
//! **Liveness** is the usual backward data flow over locals, with LLVM's
//! phi rule: a phi's operand for the edge `P -> B` is read at the end of
//! `P`, and the phi's local is defined on entry to `B`. A local read before
//! any assignment reads 0 (the interpreter's rule), so a live local at the
//! entry that is not a parameter starts at 0.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{BlockId, Cfg, Expr, FuncId, InstKind, Module, Term};
use std::collections::{BTreeMap, BTreeSet};

/// A program point: about to run instruction `inst` of `block` (the
/// block's phis already done when `inst` is at or past them; `inst` equal
/// to the number of instructions is the terminator).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    /// The block.
    pub block: BlockId,
    /// The instruction.
    pub inst: usize,
}

/// One program prepared for the simulation.
pub(crate) struct Side<'a> {
    pub module: &'a Module,
    pub cfg: &'a Cfg,
    /// Per block, the cycles containing it, outermost first.
    pub chains: Vec<Vec<usize>>,
    /// Per block, whether it heads a cycle (a cut point).
    pub header: Vec<bool>,
    /// Per block, the index of its first instruction that is not a phi.
    pub first: Vec<usize>,
    /// Per block and instruction index (the terminator included), the
    /// locals live before it.
    pub live: Vec<Vec<BTreeSet<String>>>,
    /// Locals that an assignment can give a pending load, each with the
    /// oracle (name index) of its loads when they all read one (in SSA
    /// form, a local's one definition).
    pub load_locals: BTreeMap<String, Option<usize>>,
    /// Per oracle of the module, the index of its name in the shared list.
    pub name_of: Vec<usize>,
}

/// The locals an expression reads (every `Var`, and the target of a
/// compound assignment).
fn reads(e: &Expr, out: &mut BTreeSet<String>) {
    e.walk(&mut |x| match x {
        Expr::Var(n) => {
            out.insert(n.clone());
        }
        Expr::Assign { var, op, .. } if *op != convcheck_ir::AssignOp::Set => {
            out.insert(var.clone());
        }
        _ => {}
    });
}

/// The locals an expression assigns (`Assign` nodes).
fn assigns(e: &Expr, out: &mut BTreeSet<String>) {
    e.walk(&mut |x| {
        if let Expr::Assign { var, .. } = x {
            out.insert(var.clone());
        }
    });
}

impl<'a> Side<'a> {
    /// Prepares function `f` of `program`; `names` is the sorted list of
    /// oracle names of both programs.
    pub fn new(program: &'a CfgProgram, f: FuncId, names: &[String]) -> Result<Side<'a>, String> {
        let module = &program.module;
        let cfg = module
            .functions
            .get(f)
            .ok_or_else(|| format!("internal: no function {f}"))?;
        let ci = program
            .cycles
            .get(f)
            .ok_or_else(|| format!("internal: no cycle hierarchy for function {f}"))?;
        let n = cfg.blocks.len();
        if n == 0 {
            return Err(format!("function `{}` has no blocks", cfg.name));
        }
        let chains: Vec<Vec<usize>> = (0..n)
            .map(|b| crate::product::unroll::chain(ci, b))
            .collect();
        let header: Vec<bool> = (0..n).map(|b| ci.is_header(b)).collect();
        let first: Vec<usize> = cfg
            .blocks
            .iter()
            .map(|b| {
                b.insts
                    .iter()
                    .take_while(|i| matches!(i.kind, InstKind::Phi { .. }))
                    .count()
            })
            .collect();
        let name_of: Vec<usize> = module
            .oracles
            .iter()
            .map(|o| names.binary_search(&o.name).unwrap_or(0))
            .collect();
        // Per local that an assignment can give a pending load, the
        // oracles (by name) those loads read.
        let mut loads: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        let mut note = |name: &str, e: &Expr| {
            e.walk(&mut |x| {
                if let Expr::Load { value: Some(o), .. } = x {
                    loads
                        .entry(name.to_string())
                        .or_default()
                        .insert(name_of.get(*o).copied().unwrap_or(0));
                }
            })
        };
        for block in &cfg.blocks {
            for inst in &block.insts {
                match &inst.kind {
                    InstKind::SetLocal {
                        name,
                        value: Some(e),
                    } => note(name, e),
                    InstKind::Phi { name, incoming } => {
                        for (_, e) in incoming {
                            note(name, e);
                        }
                    }
                    _ => {}
                }
                for e in inst_exprs(&inst.kind) {
                    e.walk(&mut |x| {
                        if let Expr::Assign { var, value, .. } = x {
                            note(var, value);
                        }
                    });
                }
            }
        }
        let load_locals: BTreeMap<String, Option<usize>> = loads
            .into_iter()
            .map(|(x, os)| {
                let one = (os.len() == 1).then(|| os.into_iter().next()).flatten();
                (x, one)
            })
            .collect();
        let mut side = Side {
            module,
            cfg,
            chains,
            header,
            first,
            live: Vec::new(),
            load_locals,
            name_of,
        };
        side.live = side.liveness();
        Ok(side)
    }

    /// The block's name, for messages and certificates.
    pub fn block_name(&self, b: BlockId) -> &str {
        self.cfg.blocks.get(b).map_or("?", |x| x.name.as_str())
    }

    /// A location as `block:inst` (the block's name alone at its start).
    pub fn describe(&self, l: Loc) -> String {
        if l.inst == self.first.get(l.block).copied().unwrap_or(0) {
            self.block_name(l.block).to_string()
        } else {
            format!("{}:{}", self.block_name(l.block), l.inst)
        }
    }

    /// The locals live at `l`.
    pub fn live_at(&self, l: Loc) -> &BTreeSet<String> {
        &self.live[l.block][l.inst.min(self.live[l.block].len() - 1)]
    }

    /// The entry location.
    pub fn entry(&self) -> Loc {
        Loc {
            block: 0,
            inst: self.first[0],
        }
    }

    fn liveness(&self) -> Vec<Vec<BTreeSet<String>>> {
        let cfg = self.cfg;
        let n = cfg.blocks.len();
        // Per instruction: (reads, defines).
        let per_inst = |b: BlockId| -> Vec<(BTreeSet<String>, BTreeSet<String>)> {
            let block = &cfg.blocks[b];
            let mut out = Vec::new();
            for inst in &block.insts {
                let mut r = BTreeSet::new();
                let mut d = BTreeSet::new();
                match &inst.kind {
                    InstKind::Phi { name, .. } => {
                        // Operands are read on the edges; the local is
                        // defined on entry.
                        d.insert(name.clone());
                    }
                    InstKind::SetLocal { name, value } => {
                        if let Some(e) = value {
                            reads(e, &mut r);
                            assigns(e, &mut d);
                        }
                        d.insert(name.clone());
                    }
                    InstKind::Eval(e) => {
                        reads(e, &mut r);
                        assigns(e, &mut d);
                    }
                    InstKind::Observe | InstKind::Token { .. } => {}
                }
                out.push((r, d));
            }
            let mut r = BTreeSet::new();
            match &block.term {
                Term::CondBr { cond: e, .. }
                | Term::Switch { value: e, .. }
                | Term::Ret(Some(e)) => reads(e, &mut r),
                _ => {}
            }
            out.push((r, BTreeSet::new()));
            out
        };
        let infos: Vec<_> = (0..n).map(per_inst).collect();
        let mut live: Vec<Vec<BTreeSet<String>>> = (0..n)
            .map(|b| vec![BTreeSet::new(); cfg.blocks[b].insts.len() + 1])
            .collect();
        // Phi reads per edge (pred, succ).
        let phi_reads = |p: BlockId, s: BlockId| -> BTreeSet<String> {
            let mut r = BTreeSet::new();
            if let Some(block) = cfg.blocks.get(s) {
                for inst in &block.insts {
                    if let InstKind::Phi { incoming, .. } = &inst.kind {
                        for (q, e) in incoming {
                            if *q == p {
                                reads(e, &mut r);
                            }
                        }
                    }
                }
            }
            r
        };
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..n).rev() {
                let block = &cfg.blocks[b];
                let mut out: BTreeSet<String> = BTreeSet::new();
                for s in block.term.succs() {
                    if s >= n {
                        continue;
                    }
                    let after_phis = &live[s][self.first[s]];
                    let mut phidefs = BTreeSet::new();
                    for inst in &cfg.blocks[s].insts[..self.first[s]] {
                        if let InstKind::Phi { name, .. } = &inst.kind {
                            phidefs.insert(name.clone());
                        }
                    }
                    out.extend(after_phis.difference(&phidefs).cloned());
                    out.extend(phi_reads(b, s));
                }
                let len = block.insts.len();
                let mut cur = out;
                for i in (0..=len).rev() {
                    let (r, d) = &infos[b][i];
                    if i < len && matches!(block.insts[i].kind, InstKind::Phi { .. }) {
                        // Before the phis: what is live after them, less
                        // the phis' locals (handled on the edges).
                        let mut v: BTreeSet<String> = cur.clone();
                        v.remove(match &block.insts[i].kind {
                            InstKind::Phi { name, .. } => name.as_str(),
                            _ => "",
                        });
                        cur = v;
                    } else {
                        let mut v: BTreeSet<String> = cur.difference(d).cloned().collect();
                        v.extend(r.iter().cloned());
                        cur = v;
                    }
                    if live[b][i] != cur {
                        live[b][i] = cur.clone();
                        changed = true;
                    }
                }
            }
        }
        live
    }
}

/// The oracles function `f` of `m` reads (its parameters', its
/// expressions').
pub(crate) fn used_oracles(m: &Module, f: FuncId) -> BTreeSet<convcheck_ir::OracleId> {
    let mut out = BTreeSet::new();
    let Some(cfg) = m.functions.get(f) else {
        return out;
    };
    out.extend(cfg.param_oracles.iter().copied());
    for b in &cfg.blocks {
        for e in b.exprs() {
            e.walk(&mut |x| match x {
                Expr::Oracle(o) | Expr::Load { value: Some(o), .. } => {
                    out.insert(*o);
                }
                Expr::Call {
                    kind:
                        convcheck_ir::CallKind::Op(o)
                        | convcheck_ir::CallKind::Plain(o)
                        | convcheck_ir::CallKind::Oracle(o)
                        | convcheck_ir::CallKind::Barrier(_, Some(o)),
                    ..
                } => {
                    out.insert(*o);
                }
                _ => {}
            });
        }
    }
    out
}

/// The operand expressions of an instruction.
pub(crate) fn inst_exprs(k: &InstKind) -> Vec<&Expr> {
    match k {
        InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => vec![e],
        InstKind::Phi { incoming, .. } => incoming.iter().map(|x| &x.1).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use convcheck_ir::build::cfg_from_successors;
    use convcheck_ir::{Inst, OpId};

    #[test]
    fn a_local_read_in_the_loop_is_live_at_its_header() {
        // 0 -> 1, 1 -> 1 | 2; block 1 reads and sets x.
        let mut cfg = cfg_from_successors(&[vec![1], vec![1, 2], vec![]]);
        cfg.blocks[1].insts.push(Inst {
            kind: InstKind::SetLocal {
                name: "x".into(),
                value: Some(Expr::binary(
                    convcheck_ir::BinOp::Add,
                    Expr::Var("x".into()),
                    Expr::Const(1),
                )),
            },
            sid: OpId(0),
            token: None,
        });
        let m = convcheck_ir::build::module_of(cfg);
        let p = CfgProgram::new(m);
        let s = Side::new(&p, 0, &["c".to_string()]).expect("prepares");
        assert!(s.header[1]);
        assert!(s.live_at(Loc { block: 1, inst: 0 }).contains("x"));
        assert!(s.live_at(Loc { block: 0, inst: 0 }).contains("x"));
        assert!(!s.live_at(Loc { block: 2, inst: 0 }).contains("x"));
    }
}
