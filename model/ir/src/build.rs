//! Small modules from successor lists: the shape tests, proofs and
//! generators use when only the graph matters.
//!
//! [`cfg_from_successors`] makes one function `g` whose block `i` has the
//! successors `succ[i]`: none is `ret`, one is `br`, two are a conditional
//! branch on the varying oracle `c`, more are a `switch` on `c` whose cases
//! 0, 1, ... go to all but the last successor (the default). Every block's
//! origin is the function's one op, `g`. [`module_of`] wraps such a
//! function in a module whose tables say what that op and that oracle are.

use crate::cfg::{Block, Cfg, Module, Term};
use crate::expr::Expr;
use crate::ops::{OpId, OpInfo, OpKind, OracleClass, OracleId, OracleInfo};
use crate::span::Span;

/// The op of a function built here: the function itself, the origin of
/// every block.
pub const G: OpId = OpId(0);

/// The oracle every branch of a function built here reads.
pub const C: OracleId = 0;

/// A function `g` with the given successor lists.
pub fn cfg_from_successors(succ: &[Vec<usize>]) -> Cfg {
    let cond = Expr::Oracle(C);
    let blocks = succ
        .iter()
        .enumerate()
        .map(|(i, s)| Block {
            name: format!("n{i}"),
            insts: Vec::new(),
            term: match s.as_slice() {
                [] => Term::Ret(None),
                [a] => Term::Br(*a),
                [a, b] => Term::CondBr {
                    cond: cond.clone(),
                    then: *a,
                    els: *b,
                },
                many => Term::Switch {
                    value: cond.clone(),
                    cases: many[..many.len() - 1]
                        .iter()
                        .enumerate()
                        .map(|(v, &t)| (v as i64, t))
                        .collect(),
                    default: many[many.len() - 1],
                },
            },
            origin: Some(G),
        })
        .collect();
    Cfg {
        name: "g".into(),
        params: Vec::new(),
        param_oracles: Vec::new(),
        blocks,
    }
}

/// `cfg` (a function built by [`cfg_from_successors`]) in a module of its
/// own: op [`G`] is the statement `g`, oracle [`C`] is the varying `c`
/// whose domain covers every case of every switch.
pub fn module_of(cfg: Cfg) -> Module {
    let widest = cfg
        .blocks
        .iter()
        .map(|b| b.term.succs().len())
        .max()
        .unwrap_or(0)
        .max(2);
    Module {
        name: "g".into(),
        max_group: None,
        ops: vec![OpInfo {
            label: "g".into(),
            span: Span::default(),
            kind: OpKind::Stmt,
            func: 0,
            memory_none: false,
        }],
        oracles: vec![OracleInfo {
            name: "c".into(),
            class: OracleClass::Varying,
            domain: (0..widest as i64).collect(),
            span: Span::default(),
        }],
        functions: vec![cfg],
    }
}
