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
//! guarantee are not seen (the union stays the same): a named limit. A
//! `cmpxchg`'s failure ordering is a kind of its own (`cmpxchg failure`):
//! an `acq_rel acquire` weakened to `acq_rel monotonic` loses `acquire`
//! on the failure path (review3 H13).
//!
//! **Scopes** (LangRef, "syncscope"; review2 G4). A guarantee holds only
//! among the threads of its `syncscope`: `singlethread` synchronises with
//! nothing else, AMDGPU's `wavefront` only within a wave, and a `-one-as`
//! scope only for one address space. A step whose accesses of a kind state
//! a guarantee only at a narrower scope than the reference's did narrowed
//! it, and is inconclusive as a weakened ordering is. Scopes are ordered
//! by level (`singlethread` < `wavefront` < `workgroup`/`block` <
//! `cluster` < `agent`/`device` < the system, no `syncscope`) and by
//! address spaces (`-one-as` < all); a scope covers another when it is at
//! least as wide in both. An unknown scope name is read as the narrowest:
//! it covers only itself, and every known scope covers it.

use convcheck_llvm::inst::Ordering;
use convcheck_llvm::{Function, InstKind, Instruction};
use std::collections::{BTreeMap, BTreeSet};

/// The kinds of atomic access, as LLVM's opcodes name them.
const KINDS: [&str; 6] = [
    "load atomic",
    "store atomic",
    "atomicrmw",
    "cmpxchg",
    "fence",
    // A `cmpxchg`'s failure ordering, its own kind (review3 H13: on
    // failure the access is a load with that ordering, and the union with
    // the success ordering hid an `acquire` weakened there).
    "cmpxchg failure",
];

/// Acquire semantics.
const ACQUIRE: u8 = 1;
/// Release semantics.
const RELEASE: u8 = 2;
/// Sequential consistency.
const SEQ_CST: u8 = 4;
/// Atomicity itself (every atomic access, `monotonic` ones too): only its
/// scope is compared (a `monotonic` access narrowed to `singlethread` is
/// atomic with respect to its own thread only).
const ATOMIC: u8 = 8;

/// The guarantees each kind of atomic access of one function states: a
/// kind (one of [`KINDS`]) to a bit set of [`ACQUIRE`], [`RELEASE`] and
/// [`SEQ_CST`]; kinds with no access, or only `monotonic` ones, are
/// absent or 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Orderings(BTreeMap<&'static str, BTreeSet<(u8, Scope)>>);

/// A `syncscope`: its level (wider is larger), whether it covers every
/// address space (not `-one-as`), and an unknown name kept verbatim.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Scope {
    level: u8,
    all_spaces: bool,
    unknown: Option<String>,
}

impl Scope {
    /// The scope of `syncscope(name)`; `None` is the system scope.
    fn of(name: Option<&str>) -> Scope {
        let name = name.unwrap_or("");
        let (base, all_spaces) = match name.strip_suffix("one-as") {
            Some(b) => (b.trim_end_matches('-'), false),
            None => (name, true),
        };
        let level = match base {
            "singlethread" => 0,
            "wavefront" => 1,
            "workgroup" | "block" => 2,
            "cluster" => 3,
            "agent" | "device" => 4,
            "" | "system" => 5,
            _ => {
                return Scope {
                    level: 0,
                    all_spaces: false,
                    unknown: Some(name.to_string()),
                }
            }
        };
        Scope {
            level,
            all_spaces,
            unknown: None,
        }
    }

    /// Whether a guarantee at `self` holds wherever one at `other` does.
    fn covers(&self, other: &Scope) -> bool {
        if self.unknown.is_some() {
            return self == other;
        }
        self.level >= other.level && (self.all_spaces || !other.all_spaces)
    }
}

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
        (ATOMIC, "atomicity"),
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

/// The kind of `i`, the guarantees its orderings state and its scope, if
/// it is an atomic access.
fn access(i: &Instruction) -> Option<(&'static str, u8, Scope)> {
    match &i.kind {
        InstKind::Load(l) => l.atomic.as_ref().map(|a| {
            (
                KINDS[0],
                ordering_bits(a.ordering),
                Scope::of(a.syncscope.as_deref()),
            )
        }),
        InstKind::Store(s) => s.atomic.as_ref().map(|a| {
            (
                KINDS[1],
                ordering_bits(a.ordering),
                Scope::of(a.syncscope.as_deref()),
            )
        }),
        InstKind::Generic(g) => {
            let kind = KINDS[2..5].iter().find(|k| **k == g.opcode)?;
            // The orderings are words of the operand text (a `cmpxchg` has
            // two: success and failure; the failure one is
            // [`failure`]'s).
            let words = g
                .operands
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter_map(guarantees);
            let bits = if *kind == "cmpxchg" {
                words.take(1).fold(0, |a, b| a | b)
            } else {
                words.fold(0, |a, b| a | b)
            };
            let scope = g
                .operands
                .split_once("syncscope(\"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(name, _)| name);
            Some((kind, bits, Scope::of(scope)))
        }
        _ => None,
    }
}

/// A `cmpxchg`'s failure ordering (its second ordering word), as the
/// access kind `cmpxchg failure`.
fn failure(i: &Instruction) -> Option<(&'static str, u8, Scope)> {
    let InstKind::Generic(g) = &i.kind else {
        return None;
    };
    if g.opcode != "cmpxchg" {
        return None;
    }
    let (_, _, scope) = access(i)?;
    let fail = g
        .operands
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter_map(guarantees)
        .nth(1)?;
    Some((KINDS[5], fail, scope))
}

impl Orderings {
    /// The guarantees `f`'s atomic accesses state.
    pub fn of(f: &Function) -> Orderings {
        let mut kinds = BTreeMap::new();
        for (kind, bits, scope) in f
            .blocks
            .iter()
            .flat_map(|b| b.instructions.iter())
            .flat_map(|i| access(i).into_iter().chain(failure(i)))
        {
            let set: &mut BTreeSet<(u8, Scope)> = kinds.entry(kind).or_default();
            set.insert((bits | ATOMIC, scope));
        }
        Orderings(kinds)
    }

    /// The guarantees of `kind` stated at any scope.
    fn union(&self, kind: &str) -> u8 {
        self.0
            .get(kind)
            .map_or(0, |s| s.iter().fold(0, |a, (b, _)| a | b))
            & !ATOMIC
    }

    /// A guarantee bit of `kind` the reference states at a scope no access
    /// of `self` covers, with that scope.
    fn narrowed(&self, reference: &Orderings, kind: &str) -> Option<(u8, String)> {
        let had = reference.0.get(kind)?;
        let has = self.0.get(kind);
        had.iter().find_map(|(bits, scope)| {
            [ACQUIRE, RELEASE, SEQ_CST, ATOMIC]
                .into_iter()
                .filter(|g| bits & g != 0)
                // Atomicity only where the step still has such accesses (a
                // deleted access changes the events instead).
                .filter(|g| *g != ATOMIC || has.is_some_and(|h| !h.is_empty()))
                .find(|g| {
                    !has.is_some_and(|h| h.iter().any(|(b, s)| b & g != 0 && s.covers(scope)))
                })
                .map(|g| {
                    (
                        g,
                        scope.unknown.clone().unwrap_or_else(|| scope_name(scope)),
                    )
                })
        })
    }

    /// Why `self` (a step's function) states weaker orderings than
    /// `reference`: the first kind whose guarantee it lacks, in words.
    pub fn weakened_from(&self, reference: &Orderings) -> Option<String> {
        let weakened = reference.0.keys().find_map(|kind| {
            let had = reference.union(kind);
            let has = self.union(kind);
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
        });
        weakened.or_else(|| {
            KINDS.iter().find_map(|kind| {
                let (g, scope) = self.narrowed(reference, kind)?;
                Some(format!(
                    "an atomic's synchronisation scope narrowed: the reference's `{kind}` \
                     accesses state {} at scope \"{scope}\" and this step's state it only at a \
                     narrower one (LangRef, \"syncscope\"); the model does not observe \
                     orderings or scopes, so it cannot judge this step (docs/src/llvm.md, \
                     \"Atomics\")",
                    names(g)
                ))
            })
        })
    }
}

/// The name of a known scope as LLVM writes it (`system` for none).
fn scope_name(s: &Scope) -> String {
    let base = match s.level {
        0 => "singlethread",
        1 => "wavefront",
        2 => "workgroup",
        3 => "cluster",
        4 => "agent",
        _ => "system",
    };
    if s.all_spaces {
        base.to_string()
    } else {
        format!("{base}-one-as")
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
        // The failure ordering alone weakened (review3 H13).
        let cas_acq = orderings("  %o = cmpxchg ptr @g, i32 0, i32 1 acq_rel acquire, align 4");
        let cas_fail = orderings("  %o = cmpxchg ptr @g, i32 0, i32 1 acq_rel monotonic, align 4");
        assert!(cas_fail.weakened_from(&cas_acq).is_some());
        assert!(cas_acq.weakened_from(&cas_fail).is_none());
        assert!(orderings("  fence release")
            .weakened_from(&orderings("  fence seq_cst"))
            .is_some());
        assert!(orderings("")
            .weakened_from(&orderings("  fence acquire"))
            .is_some());
    }

    #[test]
    fn narrowed_scopes() {
        let sys = orderings("  fence seq_cst\n  store atomic i32 1, ptr @g release, align 4");
        let single = orderings(
            "  fence syncscope(\"singlethread\") seq_cst\n  store atomic i32 1, ptr @g syncscope(\"singlethread\") release, align 4",
        );
        let wave = orderings(
            "  %o = atomicrmw add ptr @g, i32 1 syncscope(\"wavefront\") acq_rel, align 4",
        );
        let agent_one = orderings(
            "  %o = atomicrmw add ptr @g, i32 1 syncscope(\"agent-one-as\") acq_rel, align 4",
        );
        let agent =
            orderings("  %o = atomicrmw add ptr @g, i32 1 syncscope(\"agent\") acq_rel, align 4");
        let why = single.weakened_from(&sys).expect("narrowed");
        assert!(why.contains("scope narrowed"), "{why}");
        assert!(sys.weakened_from(&single).is_none());
        assert!(single.weakened_from(&single).is_none());
        assert!(wave.weakened_from(&agent).is_some());
        assert!(agent_one.weakened_from(&agent).is_some());
        assert!(agent.weakened_from(&agent_one).is_none());
        assert!(agent.weakened_from(&wave).is_none());
        // A monotonic access narrowed loses its atomicity for other threads.
        let m = orderings("  store atomic i32 1, ptr @g monotonic, align 4");
        let ms = orderings(
            "  store atomic i32 1, ptr @g syncscope(\"singlethread\") monotonic, align 4",
        );
        assert!(ms.weakened_from(&m).is_some());
        assert!(m.weakened_from(&ms).is_none());
    }
}
