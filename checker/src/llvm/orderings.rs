//! The atomic orderings a function states, per kind of atomic access, so
//! that a step that weakens one is not judged by a model that cannot see
//! it (issue 21, orderings; docs/src/llvm.md, "Atomics").
//!
//! The model gives an atomic's result a free value and synchronises
//! threads only at barriers, so an `acquire` or `release` weakened to
//! `monotonic` changes no event, value or hazard the engines compare:
//! LLVM's message passing broken that way was *proved*. Until the model
//! has happens-before within a barrier phase, such a step is
//! inconclusive, with the reason.
//!
//! What counts as weakened: for each kind of access (`load atomic`,
//! `store atomic`, `atomicrmw`, `cmpxchg`, `fence`), the union of the
//! ordering guarantees the function's accesses of that kind state
//! (acquire, release, sequentially consistent; `monotonic` and
//! `unordered` state none). A step whose function lacks a guarantee the
//! reference's function has for that kind weakened an ordering (or
//! deleted the only access that had it). Duplicating, moving, merging or
//! strengthening accesses keeps every guarantee, so the passes LLVM runs
//! on real code (unrolling, LICM, SimplifyCFG) are not affected. Two
//! accesses of one kind of which one is weakened while another keeps the
//! guarantee are not seen (the union stays the same): a named limit.

use convcheck_llvm::inst::Ordering;
use convcheck_llvm::{Function, InstKind, Instruction};
use std::collections::BTreeMap;

/// The kinds of atomic access, as LLVM's opcodes name them.
const KINDS: [&str; 5] = [
    "load atomic",
    "store atomic",
    "atomicrmw",
    "cmpxchg",
    "fence",
];

/// Acquire semantics.
const ACQUIRE: u8 = 1;
/// Release semantics.
const RELEASE: u8 = 2;
/// Sequential consistency.
const SEQ_CST: u8 = 4;

/// The guarantees each kind of atomic access of one function states: a
/// kind (one of [`KINDS`]) to a bit set of [`ACQUIRE`], [`RELEASE`] and
/// [`SEQ_CST`]; kinds with no access, or only `monotonic` ones, are
/// absent or 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Orderings(BTreeMap<&'static str, u8>);

/// The guarantees of one ordering keyword; `None` for a word that is not
/// one.
fn guarantees(word: &str) -> Option<u8> {
    Some(match word {
        "unordered" | "monotonic" => 0,
        "acquire" => ACQUIRE,
        "release" => RELEASE,
        "acq_rel" => ACQUIRE | RELEASE,
        "seq_cst" => ACQUIRE | RELEASE | SEQ_CST,
        _ => return None,
    })
}

/// The names of the guarantees in `bits`.
fn names(bits: u8) -> String {
    [
        (ACQUIRE, "acquire"),
        (RELEASE, "release"),
        (SEQ_CST, "seq_cst"),
    ]
    .iter()
    .filter(|(b, _)| bits & b != 0)
    .map(|(_, n)| *n)
    .collect::<Vec<_>>()
    .join(", ")
}

/// The guarantees of `o`.
fn ordering_bits(o: Ordering) -> u8 {
    match o {
        Ordering::Unordered | Ordering::Monotonic => 0,
        Ordering::Acquire => ACQUIRE,
        Ordering::Release => RELEASE,
        Ordering::AcqRel => ACQUIRE | RELEASE,
        Ordering::SeqCst => ACQUIRE | RELEASE | SEQ_CST,
    }
}

/// The kind of `i` and the guarantees its orderings state, if it is an
/// atomic access.
fn access(i: &Instruction) -> Option<(&'static str, u8)> {
    match &i.kind {
        InstKind::Load(l) => l
            .atomic
            .as_ref()
            .map(|a| (KINDS[0], ordering_bits(a.ordering))),
        InstKind::Store(s) => s
            .atomic
            .as_ref()
            .map(|a| (KINDS[1], ordering_bits(a.ordering))),
        InstKind::Generic(g) => {
            let kind = KINDS[2..].iter().find(|k| **k == g.opcode)?;
            // The orderings are words of the operand text (a `cmpxchg` has
            // two: success and failure).
            let bits = g
                .operands
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter_map(guarantees)
                .fold(0, |a, b| a | b);
            Some((kind, bits))
        }
        _ => None,
    }
}

impl Orderings {
    /// The guarantees `f`'s atomic accesses state.
    pub fn of(f: &Function) -> Orderings {
        let mut kinds = BTreeMap::new();
        for (kind, bits) in f
            .blocks
            .iter()
            .flat_map(|b| b.instructions.iter())
            .filter_map(access)
        {
            *kinds.entry(kind).or_insert(0) |= bits;
        }
        Orderings(kinds)
    }

    /// Why `self` (a step's function) states weaker orderings than
    /// `reference`: the first kind whose guarantee it lacks, in words.
    pub fn weakened_from(&self, reference: &Orderings) -> Option<String> {
        reference.0.iter().find_map(|(kind, &had)| {
            let has = self.0.get(kind).copied().unwrap_or(0);
            let lost = had & !has;
            (lost != 0).then(|| {
                format!(
                    "an atomic ordering weakened: the reference's `{kind}` accesses state \
                     {} and this step's do not (`{}`); the model does not observe orderings \
                     (an atomic's result is a free value, threads synchronise only at \
                     barriers), so it cannot judge this step (docs/src/llvm.md, \"Atomics\")",
                    names(lost),
                    if has == 0 {
                        "monotonic or none".to_string()
                    } else {
                        names(has)
                    }
                )
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orderings(body: &str) -> Orderings {
        let text = format!(
            "@g = global i32 0\ndefine void @f(ptr %p) {{\nentry:\n{body}\n  ret void\n}}\n"
        );
        let m = convcheck_llvm::parse_module(&text, "t.ll").expect("parses");
        let f = m.defined_functions().next().expect("one function");
        Orderings::of(f)
    }

    #[test]
    fn weakening_and_strengthening() {
        let mp = orderings(
            "  store atomic i32 1, ptr @g release, align 4\n  %v = load atomic i32, ptr @g acquire, align 4",
        );
        let relaxed = orderings(
            "  store atomic i32 1, ptr @g monotonic, align 4\n  %v = load atomic i32, ptr @g monotonic, align 4",
        );
        let strong = orderings(
            "  store atomic i32 1, ptr @g seq_cst, align 4\n  %v = load atomic i32, ptr @g seq_cst, align 4\n  %w = load atomic i32, ptr @g seq_cst, align 4",
        );
        assert!(relaxed.weakened_from(&mp).is_some());
        assert!(mp.weakened_from(&relaxed).is_none());
        assert!(strong.weakened_from(&mp).is_none());
        assert!(mp.weakened_from(&strong).is_some());
        assert!(mp.weakened_from(&mp).is_none());
        let rmw = orderings("  %o = atomicrmw add ptr @g, i32 1 acq_rel, align 4");
        let rmw_relaxed = orderings("  %o = atomicrmw add ptr @g, i32 1 monotonic, align 4");
        assert!(rmw_relaxed.weakened_from(&rmw).is_some());
        let cas = orderings("  %o = cmpxchg ptr @g, i32 0, i32 1 seq_cst seq_cst, align 4");
        let cas_weak = orderings("  %o = cmpxchg ptr @g, i32 0, i32 1 acquire monotonic, align 4");
        assert!(cas_weak.weakened_from(&cas).is_some());
        assert!(orderings("  fence release")
            .weakened_from(&orderings("  fence seq_cst"))
            .is_some());
        assert!(orderings("")
            .weakened_from(&orderings("  fence acquire"))
            .is_some());
    }
}
