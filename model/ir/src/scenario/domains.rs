//! Value domains (DESIGN.md 2.2): the integers worth trying for every
//! oracle, for the thread index and for the group size.
//!
//! Values are 64-bit integers, so a checker cannot try them all; it tries
//! one value from every class of values that no expression of the program
//! can tell apart. [`ValueFacts::of`] reads a module's expressions and
//! collects, for every *subject* (an oracle by name, `tid`, `N`):
//!
//! - **cuts** from comparisons with constants. An expression that is an
//!   invertible function of one subject, `a*x + b` with `a` odd (`x + 3`,
//!   `5 - x`, `-x`, `~x`, `3*x` under wrapping arithmetic; `x ^ c` is not
//!   covered), compared (`==`, `!=`, `<`, `<=`, `>`, `>=`, and their
//!   unsigned forms), switched on, or used as a truth value (compared with
//!   0) against a constant `c` has the solution `x0` of `a*x + b == c`.
//!   Equality needs `x0` and one other value; an ordering also needs the
//!   values on both sides of `x0` (cuts at `x0` and `x0 + 1`) and, where
//!   the wrapping of `a*x + b` breaks monotonicity, the wrap point. An
//!   ordering of `a*x + b` with `|a| > 1` is not covered.
//! - **links** between subjects compared with each other (`v < w`,
//!   `tid == N - 1`, and every pair of `shared` or `global` indices, which
//!   the two threads' accesses compare for races). Linked subjects share
//!   their points of interest (shifted by the offsets), so that the two
//!   threads or the two oracles can be made less, equal and greater.
//! - **locals** flow-insensitively: a local's value is any value assigned
//!   to it anywhere in its function (declarations, assignments, phis,
//!   arguments of calls for parameters, returned values for call results).
//!   A local assigned from itself (`i = i + 1`) is a counter: it is
//!   followed for `max_iters + 1` rounds, which gives its values in the
//!   first `max_iters + 1` iterations of a loop; an oracle compared with it
//!   (a loop bound `i < n`) is marked `counter`: its domain reaches the
//!   iteration bound and no further.
//! - **inexact** uses: a subject that reaches a comparison, a switch, a
//!   truth value or an index through anything else (`v % 4`, `v & 2`,
//!   `v * 2`, `v + w`, a division, a shift, a local whose values are not
//!   known, an ordering of `3*v`) is noted with the expression, and the
//!   check lists it among its bounds: the domain tried may miss a value
//!   that matters. So is every oracle that reaches an *observed* value (a
//!   value stored to shared or global memory, an argument of a convergent
//!   operation), in any way: the two programs' observed values are
//!   compared for every value of their inputs, and the analysis cannot
//!   tell which values separate them (`x` against `y`, `x` against `-x`,
//!   `ctpop(x)` against the count of x's low half). The thread index and
//!   the group size count there only through arithmetic the analysis does
//!   not invert (`tid + c` is exact: every index of a group tried is
//!   tried).
//!
//! [`ValueFacts::domains`] turns facts into values: with only equalities,
//! every point and one value that is none of them; with orderings, one
//! value of every interval between cuts (0 or 1 when the interval holds
//! them, else the end nearest 0). The truth value of a condition `c` gives
//! `{0, 1}`; `v == 2` gives `{0, 2}`; `v < 2 || v == 5` gives
//! `{1, 2, 4, 5, 6}`. `sextN`/`zextN` (`N < 64`, how LLVM IR's `iN` values
//! are read) are followed as the value itself, and noted. Where a subject
//! is read through views that disagree, it also gets every point moved by
//! `2^N` for each view narrower than the widest (a value equal to the point
//! in its low bits only) and, when ordered and read through two views or
//! more, cuts where each view wraps (`2^(N-1)`, `-2^(N-1)`, `0` and `2^N`
//! of the viewed value): `trunc i32 %x to i8` against 3 beside `%x`
//! against 3 tries 259, and `add i32 %x, 1` beside `%x` tries 2147483647.
//! A single view changes nothing (a C `int` that the kernel language reads
//! as a 64-bit value and clang as an `i32`); an oracle compared through a
//! narrow view and also at full width (an `i64` truncated on one side only,
//! issue 20 class m) is noted as inexact, so that the check lists it and
//! the default engine sends the stage to the symbolic product.

use crate::cfg::Module;

/// The prefix of the blocks of undefined behaviour that the LLVM mapping's
/// tests of fresh objects branch to (an access through a pointer of
/// unknown origin lands in none of the function's sealed allocas;
/// `convcheck-llvm`'s `to_ir/fresh.rs`). The analysis leaves the condition
/// of a branch to one out: its values (addresses inside an alloca) are
/// never those of a defined run of the reference, and reading it would
/// make every pointer's domain inexact.
pub const FRESH_BLOCK: &str = "ub.fresh-objects";
use crate::ops::FuncId;
use std::collections::{BTreeMap, BTreeSet};

/// What a domain is the domain of.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Subject {
    /// An oracle, by name (names match oracles across modules).
    Oracle(String),
    /// The thread index.
    Tid,
    /// The group size.
    Group,
}

impl Subject {
    /// The subject's name in reports (`cond1`, `tid`, `N`).
    pub fn name(&self) -> &str {
        match self {
            Subject::Oracle(n) => n,
            Subject::Tid => "tid",
            Subject::Group => "N",
        }
    }
}

/// What the program's expressions say about one subject.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Values compared for equality (solutions of `a*x + b == c`).
    pub points: BTreeSet<i64>,
    /// Cuts of orderings: a cut at `t` separates `t - 1` from `t`.
    pub cuts: BTreeSet<i64>,
    /// Whether an ordering involves the subject.
    pub ordered: bool,
    /// Whether the subject is compared with a loop counter.
    pub counter: bool,
    /// Uses the analysis does not cover, as expression texts.
    pub inexact: BTreeSet<String>,
    /// Narrow views of the subject: `(n, a, b)` when `sextn` / `zextn`
    /// (`n < 64`) reads `a*x + b`, as LLVM IR's `iN` values are read. Two
    /// values equal in their low `n` bits compare equal there, and the
    /// view wraps where the 64-bit value does not: [`ValueFacts::domains`]
    /// adds the points `p ± 2^n` and the view's wrap points.
    pub narrow: BTreeSet<(u32, i64, i64)>,
    /// Whether the subject is compared at its full 64 bits somewhere (not
    /// through a narrow view). With a narrow view too (an `i64` compared in
    /// one program and truncated to `i32` in the other, issue 20 class m)
    /// the domain is inexact: [`ValueFacts::domains`] says so, so that the
    /// check lists it and the default engine sends the stage to the
    /// symbolic product.
    pub full: bool,
}

/// A comparison between two subjects: `a1*x + b1` against `a2*y + b2`
/// (`a1`, `a2` are 1 or -1), and whether it orders them.
pub type Link = (Subject, i64, i64, Subject, i64, i64, bool);

/// Facts about every subject of one or more modules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValueFacts {
    /// Facts per subject.
    pub subjects: BTreeMap<Subject, Facts>,
    /// Comparisons between subjects.
    pub links: BTreeSet<Link>,
    /// The subjects whose address `s + c` (one subject, no multiple) is
    /// compared with the end of memory of objects of unknown origin
    /// ([`crate::exec::UNKNOWN_END`]). That comparison is between two
    /// runs' reaches (the reference's and the target's), which no value of
    /// one subject changes; with two subjects or more their order matters
    /// and is not tried: [`ValueFacts::domains`] names them inexact.
    pub end_bases: BTreeSet<Subject>,
}

/// The values to try, per subject.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Domains {
    /// Values per subject, ascending; a subject without an entry has the
    /// single value 0.
    pub values: BTreeMap<Subject, Vec<i64>>,
    /// Subjects whose values stop at the iteration bound (compared with a
    /// loop counter).
    pub counters: BTreeSet<Subject>,
    /// Subjects whose domain may miss a value that matters, with the uses
    /// the analysis does not cover.
    pub inexact: BTreeMap<Subject, BTreeSet<String>>,
}

impl Domains {
    /// The values of `s` (at least one).
    pub fn of(&self, s: &Subject) -> Vec<i64> {
        if matches!(s, Subject::Oracle(n) if n == crate::exec::UNKNOWN_END) {
            // Not enumerated: the reference reads the largest end (every
            // access inside), the target its reference's reach
            // (`crate::exec::UNKNOWN_END`).
            return vec![-1];
        }
        self.values.get(s).cloned().unwrap_or_else(|| vec![0])
    }
}

mod absval;
mod analysis;

use analysis::Analysis;

impl ValueFacts {
    /// The facts of `module`, with counters followed for `max_iters + 1`
    /// iterations.
    pub fn of(module: &Module, max_iters: u32) -> ValueFacts {
        ValueFacts::analyse(Analysis::new(module, max_iters))
    }

    /// The facts of the functions `entry` can call (itself included), with
    /// counters followed for `max_iters + 1` iterations.
    pub fn of_entry(module: &Module, entry: FuncId, max_iters: u32) -> ValueFacts {
        let mut a = Analysis::new(module, max_iters);
        a.only = Some(analysis::reachable(module, entry));
        ValueFacts::analyse(a)
    }

    fn analyse(mut a: Analysis) -> ValueFacts {
        a.run();
        // The group has at least two threads, and thread indices are
        // non-negative.
        let group = a.facts.subjects.entry(Subject::Group).or_default();
        group.cuts.insert(2);
        group.points.insert(2);
        a.facts
            .subjects
            .entry(Subject::Tid)
            .or_default()
            .cuts
            .insert(0);
        a.facts
    }

    /// Adds the facts of another module (the other side of a comparison:
    /// oracles are matched by name).
    pub fn merge(&mut self, other: &ValueFacts) {
        for (s, f) in &other.subjects {
            let mine = self.subjects.entry(s.clone()).or_default();
            mine.points.extend(f.points.iter().copied());
            mine.cuts.extend(f.cuts.iter().copied());
            mine.ordered |= f.ordered;
            mine.counter |= f.counter;
            mine.inexact.extend(f.inexact.iter().cloned());
            mine.narrow.extend(f.narrow.iter().copied());
            mine.full |= f.full;
        }
        self.links.extend(other.links.iter().cloned());
        self.end_bases.extend(other.end_bases.iter().cloned());
    }

    /// The values to try for every subject.
    pub fn domains(&self) -> Domains {
        let mut facts = self.subjects.clone();
        if self.end_bases.len() >= 2 {
            for s in &self.end_bases {
                facts.entry(s.clone()).or_default().inexact.insert(
                    "an address compared with the end of memory of objects of unknown origin \
                     beside another object's (their order is not tried)"
                        .to_string(),
                );
            }
        }
        // Linked subjects share their points of interest, shifted through
        // the comparison, so that both sides can be less, equal and
        // greater. One round of sharing: points of `y` become points of `x`.
        let before = facts.clone();
        for (x, a1, b1, y, a2, b2, ordered) in &self.links {
            for (s, (p, q), (other, (ao, bo))) in [
                (x, (*a1, *b1), (y, (*a2, *b2))),
                (y, (*a2, *b2), (x, (*a1, *b1))),
            ] {
                let mut values: BTreeSet<i64> = before
                    .get(other)
                    .map(|f| {
                        f.points
                            .iter()
                            .copied()
                            .chain(f.cuts.iter().copied())
                            .collect()
                    })
                    .unwrap_or_default();
                values.insert(0);
                let f = facts.entry(s.clone()).or_default();
                for v in values {
                    // p*s + q == ao*v + bo
                    let target = ao.wrapping_mul(v).wrapping_add(bo);
                    let x0 = p.wrapping_mul(target.wrapping_sub(q));
                    f.points.insert(x0);
                    if *ordered {
                        f.cuts.insert(x0);
                        f.cuts.insert(x0.wrapping_add(1));
                    }
                }
                f.ordered |= *ordered;
                if let Some(o) = before.get(other) {
                    if o.counter {
                        f.counter = true;
                    }
                }
            }
        }
        // Narrow views: a value equal to a point in its low `n` bits only,
        // and the values where the view wraps (signed and unsigned).
        // Only where views disagree: a single view (how clang reads a C
        // `int` the kernel language reads as a 64-bit value) changes
        // nothing by itself.
        for f in facts.values_mut() {
            if f.ordered && f.narrow.len() >= 2 {
                for &(n, a, b) in &f.narrow {
                    let step = 1i64.wrapping_shl(n);
                    let half = 1i64.wrapping_shl(n.saturating_sub(1));
                    let inv = absval::inverse(a);
                    for edge in [half, half.wrapping_neg(), 0, step] {
                        let x = inv.wrapping_mul(edge.wrapping_sub(b));
                        f.cuts.insert(x);
                        f.cuts.insert(x.wrapping_add(1));
                    }
                }
            }
            // Every width below the widest view: points (and cuts) moved by
            // 2^n, values the narrower view cannot tell from them.
            let widths: BTreeSet<u32> = f.narrow.iter().map(|&(n, ..)| n).collect();
            let widest = widths.last().copied();
            let (points, cuts) = (f.points.clone(), f.cuts.clone());
            for n in widths.into_iter().filter(|&n| Some(n) != widest) {
                let step = 1i64.wrapping_shl(n);
                for p in &points {
                    f.points.insert(p.wrapping_add(step));
                    f.points.insert(p.wrapping_sub(step));
                }
                if f.ordered {
                    for c in &cuts {
                        f.cuts.insert(c.wrapping_add(step));
                        f.cuts.insert(c.wrapping_sub(step));
                    }
                }
            }
        }
        let mut out = Domains::default();
        for (s, f) in &facts {
            let mut values = if f.ordered {
                let mut cuts = f.cuts.clone();
                for &p in &f.points {
                    cuts.insert(p);
                    cuts.insert(p.wrapping_add(1));
                }
                representatives(&cuts)
            } else {
                let mut v: BTreeSet<i64> = f.points.clone();
                if !v.is_empty() {
                    let other = (0..).find(|x| !v.contains(x)).unwrap_or(0);
                    v.insert(other);
                }
                v.into_iter().collect()
            };
            match s {
                Subject::Tid => values.retain(|&v| v >= 0),
                Subject::Group => values.retain(|&v| v >= 2),
                Subject::Oracle(_) => {}
            }
            if values.is_empty() {
                values.push(if *s == Subject::Group { 2 } else { 0 });
            }
            if f.counter {
                out.counters.insert(s.clone());
            }
            let mut inexact = f.inexact.clone();
            if f.full && matches!(s, Subject::Oracle(_)) {
                // (Thread indices and group sizes have ranges far below
                // 2^31.) Compared at 64 bits and through a narrower view: values
                // equal in their low bits only are not all tried (a single
                // view adds no points, see the module documentation).
                for &(n, ..) in &f.narrow {
                    inexact.insert(format!(
                        "compared at 64 bits and through a {n}-bit view (values equal in their low \
                         {n} bits only are not all tried)"
                    ));
                }
            }
            if !inexact.is_empty() {
                out.inexact.insert(s.clone(), inexact);
            }
            out.values.insert(s.clone(), values);
        }
        out
    }
}

/// One value of every interval between consecutive cuts.
fn representatives(cuts: &BTreeSet<i64>) -> Vec<i64> {
    let mut bounds: Vec<i64> = cuts.iter().copied().filter(|&c| c != i64::MIN).collect();
    bounds.sort_unstable();
    let mut out = Vec::new();
    let mut lo = i64::MIN;
    for c in bounds.iter().copied().chain(std::iter::once(i64::MAX)) {
        // The interval [lo, hi].
        let hi = if c == i64::MAX && bounds.last() != Some(&i64::MAX) {
            i64::MAX
        } else {
            c - 1
        };
        if lo <= hi {
            out.push(if lo <= 0 && 0 <= hi {
                0
            } else if lo <= 1 && 1 <= hi {
                1
            } else if hi < 0 {
                hi
            } else {
                lo
            });
        }
        if c == i64::MAX {
            if bounds.last() == Some(&i64::MAX) {
                out.push(i64::MAX);
            }
            break;
        }
        lo = c;
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::absval::inverse;
    use super::*;

    #[test]
    fn inverse_is_an_inverse() {
        for a in [1i64, 3, 5, -1, -3, 12345679, i64::MAX] {
            assert_eq!(a.wrapping_mul(inverse(a)), 1, "{a}");
        }
    }

    #[test]
    fn representatives_cover_every_interval() {
        let cuts: BTreeSet<i64> = [2, 3].into_iter().collect();
        assert_eq!(representatives(&cuts), vec![0, 2, 3]);
        let cuts: BTreeSet<i64> = [-5, -4, 7].into_iter().collect();
        assert_eq!(representatives(&cuts), vec![-6, -5, 0, 7]);
        assert_eq!(representatives(&BTreeSet::new()), vec![0]);
        let cuts: BTreeSet<i64> = [i64::MAX].into_iter().collect();
        assert_eq!(representatives(&cuts), vec![0, i64::MAX]);
    }
}
