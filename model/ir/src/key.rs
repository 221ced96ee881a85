//! Convergence keys (DESIGN.md 2.3, 2.4).
//!
//! Every dynamic instance gets a key. Two instances of the same static
//! operation, executed by different threads, are *converged-with* each other
//! iff their keys are equal; equality is an equivalence, so the relation is
//! symmetric and transitive by construction.
//!
//! At the source level (seed 000, Sequential Execution and Iteration
//! Statement) the key of an execution of statement `S` is `S` plus the key of
//! the execution of its enclosing statement, where the body and condition of
//! an iteration statement are keyed by the iteration number. We write a key
//! as a sequence of [`Atom`]s from the outside in:
//!
//! - the key of the call instance that started the function invocation
//!   (empty for the kernel launch: all threads of a group are converged at
//!   launch, seed 000 "Function body", OpenCL case);
//! - one atom per *key scope* enclosing the instance: [`Atom::Iter`] for a
//!   reducible iteration statement (its iteration number), [`Atom::Choice`]
//!   for a member of an implementation-defined region (seed 000, Cycles,
//!   Jump Statements, The noconvergent Statement);
//! - [`Atom::Sid`]: the static statement or expression.
//!
//! A [`Atom::Choice`] is a *choice variable*: the implementation decides
//! whether two of them are equal, subject to the constraints of DESIGN.md 2.4
//! (checked in [`crate::convergence`]). Two keys are therefore converged iff
//! every determined atom is equal and every pair of choice atoms is chosen
//! equal; [`relate`] computes that formula.

use crate::ops::OpId;
use std::fmt;

/// One component of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// A static statement or expression: a call site in the invocation
    /// prefix, or the instance's own operation at the end.
    Sid(OpId),
    /// The iteration number (from 0) of the current execution of the
    /// reducible iteration statement `loop`.
    Iter {
        /// The iteration statement.
        loop_id: OpId,
        /// Its iteration number in this execution.
        n: u32,
    },
    /// A CFG block (CFG level): an instance of the block.
    Block(u32),
    /// An instruction's position in its block (CFG level).
    Inst(u32),
    /// A choice variable: the `seq`-th fresh choice made in this thread's
    /// run, for an execution of the implementation-defined member `scope`.
    /// Choice atoms of different threads are different variables.
    Choice {
        /// The member statement (or the loop whose condition it is).
        scope: OpId,
        /// The per-run sequence number of the choice.
        seq: u32,
    },
}

/// A convergence key: a sequence of atoms.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Key(pub Vec<Atom>);

impl Key {
    /// Whether the key contains a choice variable, that is whether the
    /// instance's convergence is implementation-defined.
    pub fn is_open(&self) -> bool {
        self.0.iter().any(|a| matches!(a, Atom::Choice { .. }))
    }

    /// The static operation the key belongs to (its last atom).
    pub fn sid(&self) -> Option<OpId> {
        match self.0.last() {
            Some(Atom::Sid(s)) => Some(*s),
            _ => None,
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ".")?;
            }
            match a {
                Atom::Sid(s) => write!(f, "s{}", s.0)?,
                Atom::Iter { loop_id, n } => write!(f, "i{}#{}", loop_id.0, n)?,
                Atom::Choice { scope, seq } => write!(f, "?{}#{}", scope.0, seq)?,
                Atom::Block(b) => write!(f, "b{b}")?,
                Atom::Inst(i) => write!(f, "@{i}")?,
            }
        }
        Ok(())
    }
}

/// How two instances of one static operation, in two different threads, are
/// related.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rel {
    /// Converged in every allowed relation.
    Converged,
    /// Converged in none.
    Apart,
    /// Converged iff each listed pair of choice variables (the first thread's
    /// choice `seq`, the second thread's) is chosen equal.
    Open(Vec<(u32, u32)>),
}

/// Relates the keys of two instances executed by two *different* threads.
pub fn relate(a: &Key, b: &Key) -> Rel {
    if a.0.len() != b.0.len() {
        return Rel::Apart;
    }
    let mut choices = Vec::new();
    for (x, y) in a.0.iter().zip(&b.0) {
        match (x, y) {
            (Atom::Choice { scope: s1, seq: q1 }, Atom::Choice { scope: s2, seq: q2 }) => {
                if s1 != s2 {
                    return Rel::Apart;
                }
                choices.push((*q1, *q2));
            }
            _ if x == y => {}
            _ => return Rel::Apart,
        }
    }
    if choices.is_empty() {
        Rel::Converged
    } else {
        Rel::Open(choices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(atoms: &[Atom]) -> Key {
        Key(atoms.to_vec())
    }

    #[test]
    fn determined_keys_compare_by_equality() {
        let a = k(&[
            Atom::Iter {
                loop_id: OpId(1),
                n: 0,
            },
            Atom::Sid(OpId(3)),
        ]);
        let b = k(&[
            Atom::Iter {
                loop_id: OpId(1),
                n: 1,
            },
            Atom::Sid(OpId(3)),
        ]);
        assert_eq!(relate(&a, &a.clone()), Rel::Converged);
        assert_eq!(relate(&a, &b), Rel::Apart);
    }

    #[test]
    fn a_determined_difference_beats_a_choice() {
        let a = k(&[
            Atom::Choice {
                scope: OpId(2),
                seq: 0,
            },
            Atom::Iter {
                loop_id: OpId(4),
                n: 0,
            },
            Atom::Sid(OpId(5)),
        ]);
        let b = k(&[
            Atom::Choice {
                scope: OpId(2),
                seq: 7,
            },
            Atom::Iter {
                loop_id: OpId(4),
                n: 1,
            },
            Atom::Sid(OpId(5)),
        ]);
        assert_eq!(relate(&a, &b), Rel::Apart);
        let c = k(&[
            Atom::Choice {
                scope: OpId(2),
                seq: 7,
            },
            Atom::Iter {
                loop_id: OpId(4),
                n: 0,
            },
            Atom::Sid(OpId(5)),
        ]);
        assert_eq!(relate(&a, &c), Rel::Open(vec![(0, 7)]));
        assert!(a.is_open());
    }
}
