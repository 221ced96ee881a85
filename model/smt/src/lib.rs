//! The relational model in z3 (DESIGN.md 2.5): a second, independent
//! engine that states convergence as axioms over a finite candidate
//! execution and solves for converged-with, instead of computing keys.
//!
//! The candidate execution is the group's runs: each thread's dynamic
//! instances in sequenced-before order, with their static ids. The engine
//! never reads a `Key`; keys appear only in
//! [`agrees_with_keys`], whose purpose is to compare the two engines.
//!
//! - [`cfg`](mod@cfg): LLVM's *maximal converged-with*, the relational definition of
//!   ConvergenceAndUniformity ("Maximal Convergence"; notes 1.3-1.4): for a
//!   cycle hierarchy, `X1 ~ X2` iff `X` is in no cycle or, for every cycle
//!   containing `X` with header `H`, every `H1` strictly before `X1` is
//!   convergence-before `X2` and every `H2` strictly before `X2` is
//!   convergence-before `X1`, computed without assuming `X1 ~ X2`.
//!   [`maximal_convergence`] finds the relation and checks that it is the
//!   only one; [`agrees_with_keys`] checks that the key rule of DESIGN.md
//!   2.3 yields exactly it.
//! - [`source`]: seed 000's source-level convergence written the same way:
//!   the "cycles" are the reducible iteration statements and their headers
//!   the starts of iterations; implementation-defined regions (DESIGN.md
//!   2.4) are free choices bounded by the axioms. [`source_relation`] tells
//!   for every pair of instances whether it is converged in every allowed
//!   relation, in none, or open; [`is_member`] decides whether a given
//!   relation is one the source allows.
//! - The shared encoding (convergence-before as an explicit relation,
//!   acyclicity by integer ranks or, with two threads, by forbidding
//!   crossed pairs; the clause "without assuming `X1 ~ X2`", whose reading
//!   matters from three threads on, see [`Reading`]) is documented in the
//!   private module `encode`.
//!
//! Every answer is three-valued ([`Answer`]): every query runs with a
//! timeout ([`Options`], 10 s by default) and z3's `unknown` is reported as
//! [`Answer::Unknown`] with z3's reason, never as a pass. Before proving
//! anything from the axioms the engine checks that they are satisfiable, so
//! that no proof is vacuous.

pub mod cfg;
mod encode;
mod events;
pub mod product;
pub mod simulation;
pub mod source;
mod unknown;

pub use cfg::{
    agrees_with_keys, agrees_with_keys_with, cfg_relation, cfg_relation_with, maximal_convergence,
    maximal_convergence_with, Disagreement, NotUnique,
};
pub use source::{
    is_member, is_member_with, source_relation, source_relation_with, source_table_relation,
    Classification, NotMember, Target,
};
pub use unknown::{Limit, Unknown};

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The default timeout of one query, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u32 = 10_000;

/// How to read "without assuming `X1 ~ X2`" in the maximal-convergence
/// clause (LLVM ConvergenceAndUniformity, "Maximal Convergence").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reading {
    /// Convergence-before is computed without any converged-with edge of
    /// `X2` (and of `X1`) when `X1 ~ X2` holds: with transitivity, each
    /// such edge `Y ~ X2` puts `X2` in `X1`'s class, which is assuming
    /// `X1 ~ X2`. With two threads the only such edge is `X1 ~ X2` itself,
    /// so this is the same as [`Reading::Pair`].
    #[default]
    Class,
    /// Convergence-before is computed from the relation minus the one pair
    /// `X1 ~ X2`. With three threads or more this admits solutions in
    /// which two pairs of one class justify each other through the third
    /// thread (see the module documentation of [`cfg`](mod@cfg)).
    Pair,
}

/// Options of each z3 query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// z3's `timeout` parameter, in milliseconds.
    pub timeout_ms: u32,
    /// The reading of the maximal-convergence clause.
    pub reading: Reading,
    /// Use the general encoding even for two threads (to cross-check the
    /// two-thread encoding against it).
    pub general: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            timeout_ms: DEFAULT_TIMEOUT_MS,
            reading: Reading::Class,
            general: false,
        }
    }
}

/// A three-valued answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<T, C = String> {
    /// The property holds (or the object asked for exists and is what is
    /// returned).
    Proved(T),
    /// It does not, with the evidence.
    Counterexample(C),
    /// z3 could not tell (timeout, resource limit, incompleteness), or the
    /// input is outside what the engine models; never a pass.
    Unknown(Unknown),
}

impl<T, C> Answer<T, C> {
    /// Whether the answer is [`Answer::Proved`].
    pub fn is_proved(&self) -> bool {
        matches!(self, Answer::Proved(_))
    }

    /// The proved value, if any.
    pub fn proved(self) -> Option<T> {
        match self {
            Answer::Proved(t) => Some(t),
            _ => None,
        }
    }
}

/// A dynamic instance: (thread index in the group, index of the event in
/// that thread's run).
pub type Ix = (usize, usize);

/// A converged-with relation: the value of every pair of instances of one
/// static operation in two different threads. Keys are ordered pairs
/// `(a, b)` with `a < b`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Relation {
    /// Every pair the relation decides.
    pub converged: BTreeMap<(Ix, Ix), bool>,
}

impl Relation {
    /// Whether `a` and `b` are converged (`None` if the pair is not one of
    /// the relation's: different operations, or the same thread).
    pub fn get(&self, a: Ix, b: Ix) -> Option<bool> {
        let k = if a <= b { (a, b) } else { (b, a) };
        self.converged.get(&k).copied()
    }

    /// The converged pairs.
    pub fn converged_pairs(&self) -> BTreeSet<(Ix, Ix)> {
        self.converged
            .iter()
            .filter(|(_, v)| **v)
            .map(|(k, _)| *k)
            .collect()
    }

    /// The pairs where `self` and `other` differ, with `self`'s value.
    pub fn differences(&self, other: &Relation) -> Vec<(Ix, Ix, bool)> {
        self.converged
            .iter()
            .filter(|(k, v)| other.converged.get(k) != Some(v))
            .map(|(&(a, b), &v)| (a, b, v))
            .collect()
    }
}

/// How a pair of instances relates over all allowed relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PairRel {
    /// Converged in every allowed relation.
    Converged,
    /// Converged in none.
    Apart,
    /// Converged in some and apart in others (implementation-defined).
    Open,
}

impl fmt::Display for PairRel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PairRel::Converged => "converged",
            PairRel::Apart => "apart",
            PairRel::Open => "open",
        })
    }
}

/// Formats pairs as `t0.3~t1.4` (converged) or `t0.3/t1.4` (apart).
pub fn describe_pairs(pairs: &[(Ix, Ix, bool)]) -> String {
    pairs
        .iter()
        .map(|&(a, b, v)| {
            format!(
                "t{}.{}{}t{}.{}",
                a.0,
                a.1,
                if v { "~" } else { "/" },
                b.0,
                b.1
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}
