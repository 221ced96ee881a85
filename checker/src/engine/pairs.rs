//! Which pairs of reference paths can be two threads of one scenario
//! (DESIGN.md 2.2): wherever both read a uniform oracle in one converged
//! dynamic instance (equal read sites), they read the same value.
//!
//! Read sites are numbered ([`Sites`]) so that two runs compare their
//! uniform reads by merging two sorted lists ([`agree`]). Sites that every
//! path of both threads reads (a kernel parameter, read at the launch, or
//! a uniform condition before any branch) give each path a *signature*:
//! paths with different signatures never agree, so [`buckets`] pairs each
//! path only with the other thread's paths of its signature, and a kernel
//! with parameters costs the pairs that can be scenarios, not the product
//! of the two path sets.

use convcheck_ir::exec::{ReadSite, Trace};
use std::collections::HashMap;

/// A run's uniform reads by site number: (site, oracle, value), sorted.
pub(super) type Uniform = Vec<(u32, usize, i64)>;

/// Numbers read sites, so that runs compare their uniform reads by
/// merging two sorted lists.
#[derive(Default)]
pub(super) struct Sites(HashMap<ReadSite, u32>);

impl Sites {
    pub(super) fn of(&mut self, t: &Trace) -> Uniform {
        let mut out: Uniform = t
            .uniform
            .iter()
            .filter_map(|(i, site)| {
                let &(o, _, v) = t.reads.get(*i)?;
                let n = self.0.len() as u32;
                let id = *self.0.entry(site.clone()).or_insert(n);
                Some((id, o, v))
            })
            .collect();
        out.sort_unstable();
        out
    }
}

/// Whether two runs agree on every uniform oracle they read at the same
/// site (DESIGN.md 2.2): they can be two threads of one scenario.
pub(super) fn agree(a: &Uniform, b: &Uniform) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if a[i].1 == b[j].1 && a[i].2 != b[j].2 {
                    return false;
                }
                i += 1;
                j += 1;
            }
        }
    }
    true
}

/// The paths of the second thread that may pair with each path of the
/// first: paths with equal signatures (see the module documentation).
pub(super) struct Buckets {
    /// The bucket of each path of the first thread.
    pub(super) of: Vec<usize>,
    /// The paths of the second thread in each bucket, ascending.
    pub(super) lists: Vec<Vec<usize>>,
}

impl Buckets {
    /// The paths of the second thread that path `i` of the first may pair
    /// with.
    pub(super) fn partners(&self, i: usize) -> &[usize] {
        self.of
            .get(i)
            .and_then(|&b| self.lists.get(b))
            .map_or(&[], Vec::as_slice)
    }

    /// How many pairs the buckets hold.
    pub(super) fn pairs(&self) -> u64 {
        (0..self.of.len())
            .map(|i| self.partners(i).len() as u64)
            .sum()
    }
}

/// Groups the paths of two threads by their signatures: the values they
/// read at the uniform read sites that every one of them reads with one
/// oracle.
pub(super) fn buckets(a: &[Uniform], b: &[Uniform]) -> Buckets {
    // Per site: how many paths read it, and with which oracle (None once
    // two oracles were seen).
    let mut seen: HashMap<u32, (usize, Option<usize>)> = HashMap::new();
    for u in a.iter().chain(b) {
        for &(site, o, _) in u {
            let e = seen.entry(site).or_insert((0, Some(o)));
            e.0 += 1;
            if e.1 != Some(o) {
                e.1 = None;
            }
        }
    }
    let all = a.len() + b.len();
    let common = |site: u32| {
        seen.get(&site)
            .is_some_and(|&(n, o)| n == all && o.is_some())
    };
    let signature = |u: &Uniform| -> Vec<i64> {
        u.iter()
            .filter(|(site, ..)| common(*site))
            .map(|&(_, _, v)| v)
            .collect()
    };
    let mut index: HashMap<Vec<i64>, usize> = HashMap::new();
    let mut lists: Vec<Vec<usize>> = Vec::new();
    for (j, u) in b.iter().enumerate() {
        let n = index.len();
        let k = *index.entry(signature(u)).or_insert(n);
        if k == lists.len() {
            lists.push(Vec::new());
        }
        lists[k].push(j);
    }
    let empty = lists.len();
    lists.push(Vec::new());
    let of = a
        .iter()
        .map(|u| index.get(&signature(u)).copied().unwrap_or(empty))
        .collect();
    Buckets { of, lists }
}
