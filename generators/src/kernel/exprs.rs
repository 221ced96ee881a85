//! Conditions, indices and operands of generated kernels.
//!
//! Conditions are drawn from atoms over the oracle classes the
//! configuration allows (DESIGN.md 2.1): varying oracles `c<n>` (also
//! written `c<n>()`, `!c<n>` and the anonymous `...`), uniform ones
//! `uniform(u<n>)`, invariant ones `invariant(k<n>)` / `invariant(tid < 1)`,
//! uniform-invariant ones `uniform(invariant(w<n>))` (when
//! `Config::uniform_invariant` is on), and conditions over `tid` alone,
//! which are always available. Each
//! oracle class has its own name prefix, so no name is ever used in two
//! classes (which `sema` rejects).
//!
//! Every condition comes with the number of outcomes a thread can see when
//! it evaluates it (2 per oracle read, 1 for `tid` alone), which the path
//! budget multiplies (see `kernel` module).
//!
//! A *guard* is a condition whose first evaluated atom reads a varying or
//! uniform oracle, so that every evaluation is a decision of path
//! enumeration. Loops and goto cycles are only ever controlled by guards:
//! that is what makes every generated loop stop within the iteration bound
//! instead of spinning without a decision (`Stop::OutOfBounds`).

use super::build::*;
use super::Gen;
use convcheck_lang::syntax::ast::{BinOp, Expr, ExprKind};

/// Which oracle classes an atom may read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Atom {
    Varying,
    Dots,
    Uniform,
    Invariant,
    Tid,
}

impl Gen<'_, '_, '_> {
    /// A fresh or reused oracle name with prefix `prefix`; `count` is the
    /// number of names of that prefix so far.
    fn oracle_name(&mut self, prefix: &str, which: usize) -> String {
        let count = self.oracles[which];
        if count > 0 && self.d.chance(30) {
            let k = self.d.below(count) + 1;
            return format!("{prefix}{k}");
        }
        self.oracles[which] += 1;
        format!("{prefix}{}", self.oracles[which])
    }

    fn atom(&mut self, kind: Atom) -> Expr {
        match kind {
            Atom::Varying => {
                let n = self.oracle_name("c", 0);
                match self.d.below(4) {
                    0 | 1 => name(&n),
                    2 => not(name(&n)),
                    _ => call(&n, Vec::new()),
                }
            }
            Atom::Dots => ex(ExprKind::Dots),
            Atom::Uniform => {
                let n = self.oracle_name("u", 1);
                ex(ExprKind::Uniform(Box::new(name(&n))))
            }
            Atom::Invariant => {
                if self.cfg.uniform_invariant && self.d.chance(50) {
                    let n = self.oracle_name("w", 4);
                    let w = ex(ExprKind::Invariant(Box::new(name(&n))));
                    ex(ExprKind::Uniform(Box::new(w)))
                } else if self.d.chance(25) {
                    let c = bin(BinOp::Lt, tid(), int(1));
                    ex(ExprKind::Invariant(Box::new(c)))
                } else {
                    let n = self.oracle_name("k", 2);
                    ex(ExprKind::Invariant(Box::new(name(&n))))
                }
            }
            Atom::Tid => self.tid_cond(),
        }
    }

    /// A condition over `tid` (and the helper's parameter) alone.
    pub(super) fn tid_cond(&mut self) -> Expr {
        if let Some(p) = self.f.param.clone() {
            if self.d.chance(30) {
                return bin(BinOp::Eq, name(&p), int(0));
            }
        }
        match self.d.below(4) {
            0 => bin(BinOp::Eq, tid(), int(0)),
            1 => bin(BinOp::Lt, tid(), int(1)),
            2 => bin(BinOp::Eq, bin(BinOp::Rem, tid(), int(2)), int(1)),
            _ => bin(BinOp::Eq, tid(), bin(BinOp::Sub, group(), int(1))),
        }
    }

    /// The atoms the configuration allows, deciding ones first.
    fn atoms(&self, deciding_only: bool) -> Vec<Atom> {
        let c = self.cfg;
        let mut v = Vec::new();
        if c.varying {
            v.push(Atom::Varying);
            v.push(Atom::Dots);
        }
        if c.uniform {
            v.push(Atom::Uniform);
        }
        if !deciding_only {
            if c.invariant {
                v.push(Atom::Invariant);
            }
            v.push(Atom::Tid);
        }
        v
    }

    fn outcomes(kind: Atom) -> f64 {
        match kind {
            Atom::Tid => 1.0,
            _ => 2.0,
        }
    }

    /// Any condition whose outcome count fits `budget`; returns it with its
    /// outcome count. Falls back to a `tid` condition (1 outcome).
    pub(super) fn cond(&mut self, budget: f64) -> (Expr, f64) {
        let atoms: Vec<Atom> = self
            .atoms(false)
            .into_iter()
            .filter(|&a| Self::outcomes(a) <= budget)
            .collect();
        // The `tid` atom is last; a zero byte picks the first allowed atom.
        let first = match atoms.len() {
            0 => Atom::Tid,
            n => atoms[self.d.below(n)],
        };
        let a = self.atom(first);
        let q = Self::outcomes(first);
        self.maybe_combine(a, q, budget, &atoms, None)
    }

    /// A guard (see the module documentation) fitting `budget`, or `None`
    /// when the configuration has no deciding oracle or the budget is below
    /// 2 outcomes. `exit` tells what the guard's truth does: end the
    /// repetition (`if (G) break;`) or go on with it (`while (G)`,
    /// `if (G) goto L;`). A second atom is joined so that the first one can
    /// always decide for the exit: with `||` when truth exits, with `&&`
    /// when it repeats (`c1 || tid < 1` would repeat forever in thread 0).
    pub(super) fn guard(&mut self, budget: f64, exit: bool) -> Option<(Expr, f64)> {
        let deciding = self.atoms(true);
        if deciding.is_empty() || budget < 2.0 {
            return None;
        }
        let first = deciding[self.d.below(deciding.len())];
        let a = self.atom(first);
        let others: Vec<Atom> = self
            .atoms(false)
            .into_iter()
            .filter(|&k| 2.0 * Self::outcomes(k) <= budget)
            .collect();
        let op = if exit { BinOp::Or } else { BinOp::And };
        Some(self.maybe_combine(a, 2.0, budget, &others, Some(op)))
    }

    /// `a && b` or `a || b` (`op` if given) with a second atom, sometimes;
    /// `a` stays the first evaluated operand.
    fn maybe_combine(
        &mut self,
        a: Expr,
        q: f64,
        budget: f64,
        atoms: &[Atom],
        op: Option<BinOp>,
    ) -> (Expr, f64) {
        let fits: Vec<Atom> = atoms
            .iter()
            .copied()
            .filter(|&k| q * Self::outcomes(k) <= budget)
            .collect();
        if fits.is_empty() || !self.d.chance(25) {
            return (a, q);
        }
        let k = fits[self.d.below(fits.len())];
        let b = self.atom(k);
        let op = op.unwrap_or(if self.d.chance(50) {
            BinOp::Or
        } else {
            BinOp::And
        });
        (bin(op, a, b), q * Self::outcomes(k))
    }

    /// An index into memory over `tid`, `N`, literals and the helper's
    /// parameter.
    pub(super) fn index(&mut self) -> Expr {
        if let Some(p) = self.f.param.clone() {
            if self.d.chance(30) {
                return name(&p);
            }
        }
        match self.d.below(7) {
            0 => tid(),
            1 => bin(BinOp::Add, tid(), int(1)),
            2 => bin(BinOp::Sub, bin(BinOp::Sub, group(), int(1)), tid()),
            3 => int(self.d.below(4) as i64),
            4 => bin(BinOp::Rem, bin(BinOp::Add, tid(), int(1)), group()),
            5 => bin(BinOp::Mul, int(2), tid()),
            _ => bin(BinOp::BitXor, tid(), int(1)),
        }
    }

    /// A value without oracle reads (stored values, barrier predicates,
    /// call arguments).
    pub(super) fn plain_value(&mut self) -> Expr {
        match self.d.below(4) {
            0 => tid(),
            1 => int(1),
            2 => bin(BinOp::Add, tid(), int(1)),
            _ => bin(BinOp::Sub, group(), int(1)),
        }
    }
}
