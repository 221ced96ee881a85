//! The values path enumeration tries for each oracle (its `domain`).
//!
//! Values are integers, and a checker that tries only 0 and 1 misses a
//! branch on `v == 2` (DESIGN.md 2.2). An oracle of LLVM input gets 0 and
//! 1, plus, for every comparison of a value that comes straight from it
//! (through casts, `freeze`, phis, selects and promoted locals) with a
//! constant `c`, the values `c - 1`, `c` and `c + 1`, and for every
//! `switch` on such a value its case values and one value that is no case.
//! At most [`MAX_DOMAIN`] values are kept, the first found. Values that
//! reach a comparison through arithmetic (`x & 3`) are not followed; the
//! symbolic engine explores every value regardless. An oracle whose domain
//! the module states (`!convcheck.oracles`) keeps it.
#![deny(unsafe_code)]

use std::collections::{BTreeSet, HashMap, HashSet};

use convcheck_ir::{BinOp, CallKind, Cfg, Expr, InstKind, OracleId, Term, UnOp};

use super::Tables;

/// The most values one oracle's domain gets.
pub const MAX_DOMAIN: usize = 16;

/// Widens the domains of the oracles the functions compare with constants.
pub(crate) fn widen(t: &mut Tables, functions: &[Cfg]) {
    let mut found: HashMap<OracleId, Vec<i64>> = HashMap::new();
    for cfg in functions {
        let mut defs: HashMap<&str, Vec<&Expr>> = HashMap::new();
        for b in &cfg.blocks {
            for i in &b.insts {
                match &i.kind {
                    InstKind::SetLocal {
                        name,
                        value: Some(e),
                    } => defs.entry(name).or_default().push(e),
                    InstKind::Phi { name, incoming } => defs
                        .entry(name)
                        .or_default()
                        .extend(incoming.iter().map(|x| &x.1)),
                    _ => {}
                }
            }
        }
        let params: HashMap<&str, OracleId> = cfg
            .params
            .iter()
            .map(String::as_str)
            .zip(cfg.param_oracles.iter().copied())
            .collect();
        let src = Sources {
            defs: &defs,
            params: &params,
        };
        for b in &cfg.blocks {
            for e in b.exprs() {
                e.walk(&mut |x| {
                    let Expr::Binary(op, l, r) = x else { return };
                    if !is_comparison(*op) {
                        return;
                    }
                    let (side, c) = match (l.as_const(), r.as_const()) {
                        (None, Some(c)) => (l, c),
                        (Some(c), None) => (r, c),
                        _ => return,
                    };
                    for o in src.of(side) {
                        let vals = found.entry(o).or_default();
                        vals.extend(
                            [c.checked_sub(1), Some(c), c.checked_add(1)]
                                .into_iter()
                                .flatten(),
                        );
                    }
                });
            }
            if let Term::Switch { value, cases, .. } = &b.term {
                let values: BTreeSet<i64> = cases.iter().map(|c| c.0).collect();
                let other = (0..).find(|v| !values.contains(v)).unwrap_or(0);
                for o in src.of(value) {
                    let vals = found.entry(o).or_default();
                    vals.extend(values.iter().copied());
                    vals.push(other);
                }
            }
        }
    }
    for (o, vals) in found {
        let info = &mut t.oracles[o];
        if t.stated.contains_key(&info.name) {
            continue;
        }
        let mut dom: Vec<i64> = info.domain.clone();
        for v in vals {
            if dom.len() >= MAX_DOMAIN {
                break;
            }
            if !dom.contains(&v) {
                dom.push(v);
            }
        }
        dom.sort_unstable();
        info.domain = dom;
    }
}

fn is_comparison(op: BinOp) -> bool {
    use BinOp::*;
    matches!(op, Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe)
}

struct Sources<'a> {
    defs: &'a HashMap<&'a str, Vec<&'a Expr>>,
    params: &'a HashMap<&'a str, OracleId>,
}

impl Sources<'_> {
    /// The oracles a value comes straight from.
    fn of(&self, e: &Expr) -> Vec<OracleId> {
        let mut out = Vec::new();
        self.walk(e, &mut out, &mut HashSet::new(), 0);
        out
    }

    fn walk<'e>(
        &'e self,
        e: &'e Expr,
        out: &mut Vec<OracleId>,
        seen: &mut HashSet<&'e str>,
        depth: u32,
    ) {
        if depth > 64 {
            return;
        }
        match e {
            Expr::Oracle(o) => out.push(*o),
            Expr::Unary(UnOp::SExt(_) | UnOp::ZExt(_), x) => self.walk(x, out, seen, depth + 1),
            Expr::Select(_, a, b) => {
                self.walk(a, out, seen, depth + 1);
                self.walk(b, out, seen, depth + 1);
            }
            Expr::Var(n) => {
                if !seen.insert(n) {
                    return;
                }
                if let Some(o) = self.params.get(n.as_str()) {
                    out.push(*o);
                }
                for d in self.defs.get(n.as_str()).map(Vec::as_slice).unwrap_or(&[]) {
                    self.walk(d, out, seen, depth + 1);
                }
            }
            Expr::Load { value: Some(o), .. } => out.push(*o),
            Expr::Call { kind, .. } => match kind {
                CallKind::Op(o) | CallKind::Plain(o) | CallKind::Oracle(o) => out.push(*o),
                CallKind::Barrier(_, Some(o)) => out.push(*o),
                _ => {}
            },
            _ => {}
        }
    }
}
