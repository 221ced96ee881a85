//! A weak `cmpxchg`'s spurious failures as a choice of the reference
//! (LangRef: a weak `cmpxchg` "is allowed to fail spuriously"; issue 21
//! item 1).
//!
//! [`super::atomics`] maps a weak `cmpxchg`'s success flag to
//! `loaded == compare` and not a varying oracle named `LABEL fails
//! spuriously` ([`SPURIOUS`]). Where the reference and the target both
//! have that oracle (the weak `cmpxchg` kept), the scenario gives both the
//! same spurious failures, which proves what it proves (each target
//! behaviour is the reference's under the same choices). Where the
//! reference has it and the target does not (the `cmpxchg` made strong,
//! which LangRef allows: the strong exchange's behaviours are among the
//! weak one's), the oracle is a source-only nondeterminism: the
//! reference may choose "no spurious failure", and a strong exchange
//! behaves exactly as the weak one under that choice. [`never_spurious`]
//! makes that choice in the reference's module (its reads of the oracle
//! become 0) so that the two are compared under it.
//!
//! That choice is the only one that can match a strong exchange: where
//! the loaded value equals the compared one, the strong exchange stores
//! the new value and says so, while a weak one that failed spuriously
//! stores nothing; where they differ, both fail whatever the oracle says.
//! (The model does not keep an atomic's value in memory; it is the
//! success flag and what follows from it that differ.) The converse, a
//! strong `cmpxchg` made weak, fails where the reference does not and
//! stays a violation.
#![deny(unsafe_code)]

use std::collections::BTreeSet;

use convcheck_ir::{Expr, InstKind, Module, OracleClass, OracleId, Term};

/// The end of the name of a weak `cmpxchg`'s spurious-failure oracle
/// (`cmpxchg @lock fails spuriously`).
pub const SPURIOUS: &str = " fails spuriously";

/// Whether `name` (an oracle's, with the class suffix the mapper adds to
/// a name taken by another class) is a spurious-failure oracle's.
fn is_spurious(name: &str) -> bool {
    name.ends_with(SPURIOUS) || name.ends_with(&format!("{SPURIOUS}.varying"))
}

/// The names of the spurious-failure oracles of the weak `cmpxchg`s that
/// `m` reads.
pub fn spurious_oracles(m: &Module) -> BTreeSet<String> {
    let ids = read_oracles(m);
    m.oracles
        .iter()
        .enumerate()
        .filter(|(id, o)| {
            o.class == OracleClass::Varying && is_spurious(&o.name) && ids.contains(id)
        })
        .map(|(_, o)| o.name.clone())
        .collect()
}

/// Makes every weak `cmpxchg` of `m` whose spurious-failure oracle is
/// named in `names` never fail spuriously (its reads of the oracle read
/// 0, "no spurious failure"; see the module documentation). Returns how
/// many reads were replaced.
pub fn never_spurious(m: &mut Module, names: &BTreeSet<String>) -> usize {
    let ids: BTreeSet<OracleId> = m
        .oracles
        .iter()
        .enumerate()
        .filter(|(_, o)| o.class == OracleClass::Varying && names.contains(&o.name))
        .map(|(id, _)| id)
        .collect();
    let mut replaced = 0;
    if ids.is_empty() {
        return 0;
    }
    for f in &mut m.functions {
        for b in &mut f.blocks {
            for inst in &mut b.insts {
                match &mut inst.kind {
                    InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => {
                        replaced += replace(e, &ids);
                    }
                    InstKind::Phi { incoming, .. } => {
                        for (_, e) in incoming {
                            replaced += replace(e, &ids);
                        }
                    }
                    InstKind::SetLocal { value: None, .. }
                    | InstKind::Observe
                    | InstKind::Token { .. } => {}
                }
            }
            match &mut b.term {
                Term::CondBr { cond: e, .. } | Term::Switch { value: e, .. } => {
                    replaced += replace(e, &ids);
                }
                Term::Ret(Some(e)) => replaced += replace(e, &ids),
                Term::Br(_) | Term::Ret(None) | Term::Unreachable => {}
            }
        }
    }
    replaced
}

/// Replaces every read of an oracle of `ids` in `e` by 0; how many.
fn replace(e: &mut Expr, ids: &BTreeSet<OracleId>) -> usize {
    match e {
        Expr::Oracle(o) if ids.contains(o) => {
            *e = Expr::Const(0);
            1
        }
        Expr::Const(_) | Expr::Tid | Expr::GroupSize | Expr::Var(_) | Expr::Oracle(_) => 0,
        Expr::Unary(_, a) => replace(a, ids),
        Expr::Binary(_, a, b) => replace(a, ids) + replace(b, ids),
        Expr::Select(a, b, c) => replace(a, ids) + replace(b, ids) + replace(c, ids),
        Expr::Call { args, .. } => args.iter_mut().map(|a| replace(a, ids)).sum(),
        Expr::Load { index, .. } => replace(index, ids),
        Expr::Store { index, value, .. } => replace(index, ids) + replace(value, ids),
        Expr::Assign { value, .. } => replace(value, ids),
    }
}

/// The oracles `m` reads anywhere.
fn read_oracles(m: &Module) -> BTreeSet<OracleId> {
    let mut ids = BTreeSet::new();
    let mut note = |e: &Expr| {
        e.walk(&mut |x| {
            if let Expr::Oracle(o) = x {
                ids.insert(*o);
            }
        })
    };
    for f in &m.functions {
        for b in &f.blocks {
            for inst in &b.insts {
                match &inst.kind {
                    InstKind::Eval(e) | InstKind::SetLocal { value: Some(e), .. } => note(e),
                    InstKind::Phi { incoming, .. } => incoming.iter().for_each(|(_, e)| note(e)),
                    _ => {}
                }
            }
            match &b.term {
                Term::CondBr { cond: e, .. } | Term::Switch { value: e, .. } => note(e),
                Term::Ret(Some(e)) => note(e),
                _ => {}
            }
        }
    }
    ids
}
