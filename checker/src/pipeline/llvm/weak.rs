//! A weak `cmpxchg` made strong (issue 21 item 1): the reference's
//! spurious failures are its own choice
//! ([`convcheck_llvm::to_ir::spurious`]).
//!
//! Every stage is compared with the check's one reference. For each
//! spurious-failure oracle the reference reads:
//!
//! - read by every stage module too (the weak `cmpxchg` kept): shared, as
//!   any oracle both sides read;
//! - read by no stage module (made strong in the first stage that changed
//!   it, or in the target file): the reference chooses "no spurious
//!   failure" ([`convcheck_llvm::to_ir::spurious::never_spurious`]), the
//!   one choice a strong exchange can match, and a note says so;
//! - read by some stage modules and not others: one reference cannot
//!   make both choices, so the stages without it are inconclusive, with
//!   the reason (no LLVM pass we know of makes a weak `cmpxchg` strong in
//!   the middle of a pipeline).

use super::super::{FunctionPlan, Target};
use crate::engine::Outcome;
use convcheck_ir::Module;
use convcheck_llvm::to_ir::spurious::{never_spurious, spurious_oracles};
use std::collections::BTreeSet;

/// The reference's spurious-failure oracles, by what the stages do with
/// them.
#[derive(Default)]
pub(super) struct Spurious {
    /// Read by no stage: the reference never fails spuriously.
    fixed: BTreeSet<String>,
    /// Read by some stages only.
    mixed: BTreeSet<String>,
}

impl Spurious {
    /// The oracles of `reference` by what `stages` read.
    pub(super) fn of<'a>(reference: &Module, stages: impl Iterator<Item = &'a Module>) -> Self {
        let mut fixed = spurious_oracles(reference);
        if fixed.is_empty() {
            return Spurious::default();
        }
        let mut kept = BTreeSet::new();
        let mut missed = BTreeSet::new();
        for m in stages {
            let read = spurious_oracles(m);
            for name in &fixed {
                if read.contains(name) {
                    kept.insert(name.clone());
                } else {
                    missed.insert(name.clone());
                }
            }
        }
        let mixed: BTreeSet<String> = kept.intersection(&missed).cloned().collect();
        fixed.retain(|n| !kept.contains(n));
        Spurious { fixed, mixed }
    }

    /// Makes the reference's choice in `m`, the reference's module.
    pub(super) fn fix(&self, m: &mut Module) {
        never_spurious(m, &self.fixed);
    }

    /// The stages of `functions` that lack an oracle other stages read:
    /// inconclusive, with the reason.
    pub(super) fn settle(&self, functions: &mut [FunctionPlan]) {
        if self.mixed.is_empty() {
            return;
        }
        for s in functions.iter_mut().flat_map(|f| f.stages.iter_mut()) {
            if !matches!(s.target, Target::Code(_)) {
                continue;
            }
            let read = spurious_oracles(&s.module);
            if let Some(name) = self.mixed.iter().find(|n| !read.contains(*n)) {
                s.target = Target::Decided(Outcome::Inconclusive(format!(
                    "a weak cmpxchg made strong after stages that keep it weak: the \
                     reference's `{name}` would be its own choice here (no spurious failure) \
                     and shared with the stages that keep it, which one reference cannot be"
                )));
            }
        }
    }

    /// The notes of the check.
    pub(super) fn notes(&self) -> Vec<String> {
        self.fixed
            .iter()
            .map(|name| {
                format!(
                    "a weak cmpxchg made strong: the reference's `{name}` is its own choice \
                     (LangRef: a weak cmpxchg may fail spuriously); compared under no spurious \
                     failure, the one choice a strong exchange can match"
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module whose `@f` does a `cmpxchg` (weak when `weak`) on `@lock`.
    fn module(weak: bool) -> Module {
        let w = if weak { "weak " } else { "" };
        let src = format!(
            "@lock = addrspace(1) global i32 0\n\
             define i32 @f(i32 %want, i32 %new) {{\n\
             entry:\n\
               %pair = cmpxchg {w}ptr addrspace(1) @lock, i32 %want, i32 %new monotonic monotonic\n\
               %ok = extractvalue {{ i32, i1 }} %pair, 1\n\
               %r = zext i1 %ok to i32\n\
               ret i32 %r\n\
             }}\n"
        );
        let m = convcheck_llvm::parse_module(&src, "t.ll").expect("parses");
        convcheck_llvm::to_ir::to_module(&m, "t.ll").module
    }

    #[test]
    fn the_reference_chooses_only_where_no_stage_keeps_the_weak_exchange() {
        let (weak, strong) = (module(true), module(false));
        let name = "cmpxchg @lock fails spuriously".to_string();
        // Kept weak everywhere: shared, nothing to choose.
        let s = Spurious::of(&weak, [&weak, &weak].into_iter());
        assert!(s.fixed.is_empty() && s.mixed.is_empty());
        assert!(s.notes().is_empty());
        // Made strong by every stage: the reference chooses.
        let s = Spurious::of(&weak, [&strong, &strong].into_iter());
        assert_eq!(s.fixed, BTreeSet::from([name.clone()]));
        assert!(s.mixed.is_empty());
        let mut m = weak.clone();
        s.fix(&mut m);
        assert!(spurious_oracles(&m).is_empty());
        assert_eq!(s.notes().len(), 1);
        // Made strong after a stage that keeps it weak: mixed.
        let s = Spurious::of(&weak, [&weak, &strong].into_iter());
        assert!(s.fixed.is_empty());
        assert_eq!(s.mixed, BTreeSet::from([name]));
        // A strong reference has nothing to choose, whatever the stages do.
        let s = Spurious::of(&strong, [&weak].into_iter());
        assert!(s.fixed.is_empty() && s.mixed.is_empty());
    }
}
