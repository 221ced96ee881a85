//! The scenario space of a check: which oracle values, group sizes and
//! thread indices are tried (DESIGN.md 2.2), decided from the value
//! domains of both programs (`convcheck_ir::scenario::domains`).
//!
//! **Values.** The facts of the reference and of every target are merged
//! by oracle name, so an oracle that only a target compares gets the
//! values that matter to it; each module then gets a table of values per
//! oracle id.
//!
//! **Group sizes and thread indices.** Unless the group is fixed
//! (`--threads N`), a verdict holds for every group size `N >= 2` and
//! every pair of distinct thread indices. The sizes tried are 2, the
//! values that matter for `N` (the constants it is compared with, and one
//! on each side), and `t + 1` for every index value `t` that matters (so
//! that `tid == t` is the last thread). In a group of size `N` the indices
//! tried are 0, 1, `N - 2`, `N - 1` and the values that matter for `tid`
//! below `N`; every pair of two of them is a pair of threads. When what
//! decides `tid` or `N` is not exactly known, every size up to
//! [`INEXACT_GROUPS_UP_TO`] is tried as well, with every index, and the
//! report names the larger groups as not tried and lists the inexact uses
//! among its bounds. With a fixed
//! group the size is `N`, and if what decides `tid` is not exactly known
//! and `N` is at most [`ALL_TIDS_UP_TO`], every index is tried. No size
//! above the reference's `max_group` (the most threads a group of its
//! target has; the smallest of the modules' where the reference states
//! none) is tried.

use convcheck_ir::scenario::domains::{Domains, Subject, ValueFacts};
use convcheck_ir::{FuncId, Module};

/// At most this many group sizes are tried; the rest are named in the
/// report.
pub const MAX_GROUPS: usize = 8;

/// At most this many thread indices per group size.
pub const MAX_TIDS: usize = 12;

/// With a fixed group of at most this size and an inexact analysis of
/// `tid`, every thread index is tried.
pub const ALL_TIDS_UP_TO: u32 = 16;

/// Without a fixed group, when what decides `tid` or `N` is not exactly
/// known, every group size up to this one is tried with every thread
/// index; larger groups are named in the report as not tried.
pub const INEXACT_GROUPS_UP_TO: u32 = 6;

/// The scenarios a check explores.
#[derive(Clone, Debug)]
pub struct Space {
    /// The merged domains.
    pub domains: Domains,
    /// Group sizes, ascending, each with its thread indices (ascending).
    pub groups: Vec<(u32, Vec<u32>)>,
    /// Whether the group size was fixed by the user.
    pub fixed: bool,
    /// What the caps left out (group sizes or indices), if anything.
    pub capped: Vec<String>,
}

impl Space {
    /// The space for a reference and its targets: values from the facts of
    /// every module's functions that its entry can call, counters followed to `max_iters`; `group` fixes the
    /// group size when non-zero.
    pub fn new(modules: &[(&Module, FuncId)], max_iters: u32, group: u32) -> Space {
        let mut facts = ValueFacts::default();
        for (m, entry) in modules {
            facts.merge(&ValueFacts::of_entry(m, *entry, max_iters));
        }
        let domains = facts.domains();
        let tids: Vec<i64> = domains.of(&Subject::Tid);
        let mut capped = Vec::new();
        let inexact = domains.inexact.contains_key(&Subject::Tid)
            || domains.inexact.contains_key(&Subject::Group);
        let mut sizes: Vec<u32> = if group > 0 {
            vec![group]
        } else {
            let mut s: Vec<u32> = domains
                .of(&Subject::Group)
                .into_iter()
                .filter_map(|n| u32::try_from(n).ok())
                .filter(|&n| n >= 2)
                .collect();
            s.push(2);
            // What decides `tid` or `N` is not exactly known (arithmetic
            // the analysis does not invert, such as `(tid + 1) % N` or
            // `tid % 2`): every group up to INEXACT_GROUPS_UP_TO is tried
            // too, with every thread index, so that "the last thread",
            // parity and neighbours meet (`tid == N - 1` with an even
            // `tid` needs N = 3; two even nonzero threads need N = 5).
            if inexact {
                s.extend(3..=INEXACT_GROUPS_UP_TO);
                capped.push(format!(
                    "group sizes above {INEXACT_GROUPS_UP_TO} with every thread index (`tid` or \
                     `N` is decided by arithmetic the analysis does not invert)"
                ));
            }
            for &t in &tids {
                if let Ok(t) = u32::try_from(t) {
                    if t >= 1 {
                        s.push(t.saturating_add(1).max(2));
                    }
                }
            }
            // No larger group than the reference's target has
            // (`Module::max_group`: 1024 threads on NVPTX and AMDGPU, or
            // the kernel's `amdgpu-flat-work-group-size`): the reference's
            // bound, not a smaller one a target states (review3 H6); a
            // reference that states none (the source level) takes the
            // smallest of the others'.
            let most = modules
                .first()
                .and_then(|(m, _)| m.max_group)
                .or_else(|| modules.iter().filter_map(|(m, _)| m.max_group).min());
            if let Some(most) = most {
                s.retain(|&n| n <= most.max(2));
            }
            s.sort_unstable();
            s.dedup();
            s
        };
        if sizes.len() > MAX_GROUPS {
            let rest: Vec<String> = sizes[MAX_GROUPS..].iter().map(u32::to_string).collect();
            capped.push(format!(
                "group sizes {} (the cap of {MAX_GROUPS})",
                rest.join(", ")
            ));
            sizes.truncate(MAX_GROUPS);
        }
        let tid_inexact = domains.inexact.contains_key(&Subject::Tid);
        let mut groups = Vec::new();
        for n in sizes {
            let every = if group > 0 {
                tid_inexact && n <= ALL_TIDS_UP_TO
            } else {
                inexact && n <= INEXACT_GROUPS_UP_TO
            };
            let mut ids: Vec<u32> = if every {
                (0..n).collect()
            } else {
                let mut v: Vec<u32> = vec![0, 1, n.saturating_sub(2), n - 1];
                v.extend(tids.iter().filter_map(|&t| u32::try_from(t).ok()));
                v.retain(|&t| t < n);
                v
            };
            ids.sort_unstable();
            ids.dedup();
            if ids.len() > MAX_TIDS {
                let rest: Vec<String> = ids[MAX_TIDS..].iter().map(u32::to_string).collect();
                capped.push(format!(
                    "thread indices {} with N={n} (the cap of {MAX_TIDS})",
                    rest.join(", ")
                ));
                ids.truncate(MAX_TIDS);
            }
            groups.push((n, ids));
        }
        Space {
            domains,
            groups,
            fixed: group > 0,
            capped,
        }
    }

    /// The values to try for each oracle of `module`, by oracle id.
    pub fn table(&self, module: &Module) -> Vec<Vec<i64>> {
        module
            .oracles
            .iter()
            .map(|o| self.domains.of(&Subject::Oracle(o.name.clone())))
            .collect()
    }

    /// Which oracles of `module` are loop bounds (compared with a counter).
    pub fn counters(&self, module: &Module) -> Vec<bool> {
        module
            .oracles
            .iter()
            .map(|o| {
                self.domains
                    .counters
                    .contains(&Subject::Oracle(o.name.clone()))
            })
            .collect()
    }

    /// The pairs of thread indices tried, over all group sizes.
    pub fn thread_pairs(&self) -> usize {
        self.groups
            .iter()
            .map(|(_, ids)| ids.len() * ids.len().saturating_sub(1) / 2)
            .sum()
    }
}
