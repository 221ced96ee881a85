//! The converged-with relation over the runs of a group, and the
//! constraints on implementation-defined choices (DESIGN.md 2.3, 2.4).
//!
//! Determined instances are converged iff their keys are equal
//! ([`crate::key::relate`]). Where keys contain choice variables, a
//! semantics denotes a *set* of relations: one for every assignment of the
//! choices (which choice variables of different threads are equal) such that
//!
//! 1. each convergence class holds at most one instance per thread,
//! 2. convergence-before stays a strict partial order (seed 000,
//!    Convergence: the transitive closure of sequenced-before and the two
//!    rules through converged-with has no cycle), and
//! 3. instances from distinct calls of a function are never converged (this
//!    holds by construction: the call instance's key is a prefix of every
//!    key in the callee).
//!
//! [`check_assignment`] decides whether one assignment meets 1 and 2 and
//! returns its classes; [`can_converge`] and [`can_stay_apart`] ask whether
//! a given pair of instances is converged in some allowed relation, which is
//! what "implementation-defined" means for a test.

use crate::exec::Event;
use crate::key::{relate, Rel};
use std::collections::{BTreeSet, HashMap};

/// A choice variable: (thread index in the group, per-run sequence number).
pub type ChoiceVar = (usize, u32);

/// Why an assignment of choices is not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A class holds two instances of one thread.
    SelfConverged {
        /// The thread.
        thread: usize,
        /// The two event indices in that thread's run.
        events: (usize, usize),
    },
    /// Convergence-before has a cycle through these classes.
    Cycle(Vec<usize>),
}

/// Classes of an allowed relation: `class[t][i]` is the class of event `i`
/// of thread `t`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classes {
    /// Class of every event of every thread.
    pub class: Vec<Vec<usize>>,
    /// Number of classes.
    pub count: usize,
}

struct Uf(Vec<usize>);

impl Uf {
    fn find(&mut self, x: usize) -> usize {
        let mut r = x;
        while self.0[r] != r {
            r = self.0[r];
        }
        let mut y = x;
        while self.0[y] != r {
            let n = self.0[y];
            self.0[y] = r;
            y = n;
        }
        r
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
    }
}

/// Relates instance `a` of one thread and `b` of another.
pub fn relate_events(a: &Event, b: &Event) -> Rel {
    if a.sid != b.sid {
        return Rel::Apart;
    }
    relate(&a.key, &b.key)
}

/// Checks one assignment of choice equalities (`equal` lists pairs of
/// choice variables chosen equal; all others are distinct) against
/// constraints 1 and 2, and returns the classes of the relation.
pub fn check_assignment(
    runs: &[&[Event]],
    equal: &[(ChoiceVar, ChoiceVar)],
) -> Result<Classes, Violation> {
    // Union-find over choice variables.
    let mut ids: HashMap<ChoiceVar, usize> = HashMap::new();
    for (a, b) in equal {
        for v in [a, b] {
            let n = ids.len();
            ids.entry(*v).or_insert(n);
        }
    }
    let mut cuf = Uf((0..ids.len()).collect());
    for (a, b) in equal {
        cuf.union(ids[a], ids[b]);
    }
    // Union-find over events.
    let offsets: Vec<usize> = runs
        .iter()
        .scan(0, |acc, r| {
            let o = *acc;
            *acc += r.len();
            Some(o)
        })
        .collect();
    let total: usize = runs.iter().map(|r| r.len()).sum();
    let mut uf = Uf((0..total).collect());
    // Group events by static id to compare only instances of one operation.
    let mut by_sid: HashMap<_, Vec<(usize, usize)>> = HashMap::new();
    for (t, r) in runs.iter().enumerate() {
        for (i, e) in r.iter().enumerate() {
            by_sid.entry(e.sid).or_default().push((t, i));
        }
    }
    for list in by_sid.values() {
        for x in 0..list.len() {
            for y in x + 1..list.len() {
                let (t1, i1) = list[x];
                let (t2, i2) = list[y];
                if t1 == t2 {
                    continue;
                }
                let converged = match relate(&runs[t1][i1].key, &runs[t2][i2].key) {
                    Rel::Converged => true,
                    Rel::Apart => false,
                    Rel::Open(pairs) => pairs.iter().all(|&(q1, q2)| {
                        match (ids.get(&(t1, q1)), ids.get(&(t2, q2))) {
                            (Some(&a), Some(&b)) => cuf.find(a) == cuf.find(b),
                            _ => false,
                        }
                    }),
                };
                if converged {
                    uf.union(offsets[t1] + i1, offsets[t2] + i2);
                }
            }
        }
    }
    // Number the classes and check one instance per thread per class.
    let mut number: HashMap<usize, usize> = HashMap::new();
    let mut class = Vec::new();
    let mut owner: HashMap<(usize, usize), usize> = HashMap::new();
    for (t, r) in runs.iter().enumerate() {
        let mut row = Vec::new();
        for i in 0..r.len() {
            let root = uf.find(offsets[t] + i);
            let n = number.len();
            let c = *number.entry(root).or_insert(n);
            if let Some(prev) = owner.insert((c, t), i) {
                return Err(Violation::SelfConverged {
                    thread: t,
                    events: (prev, i),
                });
            }
            row.push(c);
        }
        class.push(row);
    }
    let count = number.len();
    // Convergence-before on classes: sequenced-before edges between
    // consecutive events of each thread, which generate it (seed 000).
    let mut succ: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); count];
    let mut indeg = vec![0usize; count];
    for row in &class {
        for w in row.windows(2) {
            if succ[w[0]].insert(w[1]) {
                indeg[w[1]] += 1;
            }
        }
    }
    let mut ready: Vec<usize> = (0..count).filter(|&c| indeg[c] == 0).collect();
    let mut seen = 0;
    while let Some(c) = ready.pop() {
        seen += 1;
        for &d in &succ[c] {
            indeg[d] -= 1;
            if indeg[d] == 0 {
                ready.push(d);
            }
        }
    }
    if seen < count {
        let cyc: Vec<usize> = (0..count).filter(|&c| indeg[c] > 0).collect();
        return Err(Violation::Cycle(cyc));
    }
    Ok(Classes { class, count })
}

/// Whether instance `a` (event index in thread 0) and `b` (in thread 1) of
/// a two-thread group are converged in some allowed relation.
pub fn can_converge(runs: [&[Event]; 2], a: usize, b: usize) -> bool {
    let (Some(ea), Some(eb)) = (runs[0].get(a), runs[1].get(b)) else {
        return false;
    };
    match relate_events(ea, eb) {
        Rel::Converged => check_assignment(&runs, &[]).is_ok(),
        Rel::Apart => false,
        Rel::Open(pairs) => {
            let eq: Vec<(ChoiceVar, ChoiceVar)> =
                pairs.iter().map(|&(x, y)| ((0, x), (1, y))).collect();
            check_assignment(&runs, &eq).is_ok()
        }
    }
}

/// Whether instance `a` of thread 0 and `b` of thread 1 are apart in some
/// allowed relation.
pub fn can_stay_apart(runs: [&[Event]; 2], a: usize, b: usize) -> bool {
    let (Some(ea), Some(eb)) = (runs[0].get(a), runs[1].get(b)) else {
        return false;
    };
    match relate_events(ea, eb) {
        Rel::Converged => false,
        Rel::Apart | Rel::Open(_) => check_assignment(&runs, &[]).is_ok(),
    }
}
