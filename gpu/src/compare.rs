//! What the hardware did against what the model says, for one scenario.
//!
//! The hardware's log gives each thread its logged events `(label, instance
//! number, mask)`: threads that logged the same number executed that
//! operation together, one dynamic instance on the hardware. The model's
//! run ([`crate::model::ModelRun`]) gives each thread its logged events
//! with their column in the model's trace table: same column, converged.
//!
//! - **Single-thread behaviour**: each thread's sequence of labels must be
//!   the model's. The first position where they differ is reported; events
//!   after it are not paired (the k-th event of a thread is matched to the
//!   model's k-th only while the sequences agree).
//! - **Convergence**: every pair of matched events of two different threads
//!   at the same label is judged by both. *agree*: both converged or both
//!   apart; *merge*: the hardware executed together what the model keeps
//!   apart (threads communicated that the model says cannot); *split*: the
//!   hardware executed apart what the model joins. A pair with an event
//!   whose convergence the model leaves to the implementation (seed 000's
//!   goto cycles, irreducible loops; marked `*` in tables) is allowed
//!   either way: it is counted as *implementation-defined*, together or
//!   apart, never as a merge or a split. (The fixture's README counted
//!   such pairs with the table's one relation, every choice distinct; the
//!   `table_*` counts reproduce that.)
//!
//! Counting is by grouping, not by enumerating pairs: per label, pairs with
//! equal columns, equal numbers, and both.

use crate::model::{ModelEvent, ModelRun};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One logged event of the hardware.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HwEvent {
    /// Index into the kernel's label table.
    pub label: usize,
    /// The dynamic instance's number (the global counter's value).
    pub number: i64,
    /// The active mask when it was logged.
    pub mask: u32,
}

/// Pair counts (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PairCounts {
    /// Pairs of matched events of two threads at one label.
    pub pairs: u64,
    /// Pairs the hardware and the model judge alike (determined pairs).
    pub agree: u64,
    /// Executed together on the hardware, apart in the model.
    pub merges: u64,
    /// Executed apart on the hardware, together in the model.
    pub splits: u64,
    /// Pairs whose convergence is implementation-defined that the hardware
    /// executed together.
    pub open_together: u64,
    /// Pairs whose convergence is implementation-defined that the hardware
    /// executed apart.
    pub open_apart: u64,
}

impl PairCounts {
    /// Adds `o` to `self`.
    pub fn add(&mut self, o: &PairCounts) {
        self.pairs += o.pairs;
        self.agree += o.agree;
        self.merges += o.merges;
        self.splits += o.splits;
        self.open_together += o.open_together;
        self.open_apart += o.open_apart;
    }

    /// Whether the hardware and the model disagree on no determined pair.
    pub fn identical(&self) -> bool {
        self.merges == 0 && self.splits == 0
    }
}

/// The first difference in one thread's sequence of labels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ThreadDiff {
    /// The thread.
    pub tid: usize,
    /// Position of the first difference in its logged events.
    pub at: usize,
    /// The model's label there (`None`: the model's run ended).
    pub model: Option<String>,
    /// The hardware's label there (`None`: the hardware's log ended).
    pub hardware: Option<String>,
}

/// One scenario compared.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// Threads whose sequence of labels differs from the model's.
    pub behaviour: Vec<ThreadDiff>,
    /// Threads whose hardware log was cut (more events than the log holds);
    /// their events past the cut are not compared.
    pub cut: Vec<usize>,
    /// Pair counts.
    pub pairs: PairCounts,
    /// Model columns whose instances the hardware executed apart.
    pub split_columns: Vec<usize>,
    /// Model columns the hardware executed together with another column
    /// (determined convergence only).
    pub merged_columns: Vec<usize>,
    /// Hardware instance numbers that hold events of several model
    /// columns, with whether every such column is implementation-defined.
    pub merged_numbers: Vec<(i64, bool)>,
    /// Hardware instance numbers that hold only part of a model column.
    pub split_numbers: Vec<i64>,
}

impl Comparison {
    /// Whether single-thread behaviour was the model's.
    pub fn same_behaviour(&self) -> bool {
        self.behaviour.is_empty()
    }
}

/// A matched event: thread, model event, hardware number.
struct Matched<'a> {
    tid: usize,
    model: &'a ModelEvent,
    number: i64,
}

fn choose2(n: u64) -> u64 {
    n * n.saturating_sub(1) / 2
}

/// Pairs of distinct threads among `members` (thread ids).
fn cross_pairs(members: &[usize]) -> u64 {
    let mut per: HashMap<usize, u64> = HashMap::new();
    for &t in members {
        *per.entry(t).or_default() += 1;
    }
    choose2(members.len() as u64) - per.values().map(|&n| choose2(n)).sum::<u64>()
}

/// Compares one scenario: `hw[t]` is thread t's log (`logn[t]` events
/// logged, of which the log kept `hw[t].len()`), `labels` the kernel's
/// label table, `model` the model's run of the same scenario.
pub fn compare(
    labels: &[String],
    hw: &[Vec<HwEvent>],
    logn: &[u32],
    model: &ModelRun,
) -> Comparison {
    let mut out = Comparison::default();
    let mut matched: Vec<Matched> = Vec::new();
    let threads = hw.len().max(model.threads.len());
    for t in 0..threads {
        let h: &[HwEvent] = hw.get(t).map_or(&[], Vec::as_slice);
        let m: &[ModelEvent] = model.threads.get(t).map_or(&[], Vec::as_slice);
        let was_cut = logn.get(t).is_some_and(|&n| n as usize > h.len());
        if was_cut {
            out.cut.push(t);
        }
        let mut i = 0;
        while i < h.len() && i < m.len() && labels.get(h[i].label) == Some(&m[i].label) {
            matched.push(Matched {
                tid: t,
                model: &m[i],
                number: h[i].number,
            });
            i += 1;
        }
        let differs = if was_cut {
            // The hardware's log ends at the cut: only a difference before
            // it counts.
            i < h.len()
        } else {
            i < h.len() || i < m.len()
        };
        if differs {
            out.behaviour.push(ThreadDiff {
                tid: t,
                at: i,
                model: m.get(i).map(|e| e.label.clone()),
                hardware: h.get(i).map(|e| {
                    labels
                        .get(e.label)
                        .cloned()
                        .unwrap_or_else(|| format!("#{}", e.label))
                }),
            });
        }
    }
    // Group per label.
    let mut by_label: BTreeMap<&str, Vec<&Matched>> = BTreeMap::new();
    for m in &matched {
        by_label.entry(m.model.label.as_str()).or_default().push(m);
    }
    let mut split_cols = BTreeSet::new();
    let mut merged_cols = BTreeSet::new();
    let mut split_nums = BTreeSet::new();
    let mut merged_nums = BTreeMap::new();
    for evs in by_label.values() {
        let all: Vec<usize> = evs.iter().map(|m| m.tid).collect();
        let total = cross_pairs(&all);
        let mut by_col: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut by_num: HashMap<i64, Vec<&Matched>> = HashMap::new();
        let mut by_both: HashMap<(usize, i64), Vec<usize>> = HashMap::new();
        for m in evs {
            by_col.entry(m.model.column).or_default().push(m.tid);
            by_num.entry(m.number).or_default().push(m);
            by_both
                .entry((m.model.column, m.number))
                .or_default()
                .push(m.tid);
        }
        let same_col: u64 = by_col.values().map(|v| cross_pairs(v)).sum();
        let same_both: u64 = by_both.values().map(|v| cross_pairs(v)).sum();
        let mut same_num = 0;
        let mut open_together = 0;
        for (num, ms) in &by_num {
            let ts: Vec<usize> = ms.iter().map(|m| m.tid).collect();
            let n = cross_pairs(&ts);
            let closed: Vec<usize> = ms.iter().filter(|m| !m.model.open).map(|m| m.tid).collect();
            // Pairs with an implementation-defined event.
            let open_here = n - cross_pairs(&closed);
            same_num += n;
            open_together += open_here;
            let cols: BTreeSet<usize> = ms.iter().map(|m| m.model.column).collect();
            if cols.len() > 1 {
                let closed_cols: BTreeSet<usize> = ms
                    .iter()
                    .filter(|m| !m.model.open)
                    .map(|m| m.model.column)
                    .collect();
                merged_nums.insert(*num, closed_cols.len() <= 1);
                if closed_cols.len() > 1 {
                    merged_cols.extend(closed_cols);
                }
            }
        }
        for (col, _) in by_col.iter() {
            let nums: BTreeSet<i64> = evs
                .iter()
                .filter(|m| m.model.column == *col)
                .map(|m| m.number)
                .collect();
            if nums.len() > 1 {
                split_cols.insert(*col);
                split_nums.extend(nums);
            }
        }
        // Open events have columns of their own, so `same_col` and
        // `same_both` hold no pair with an open event.
        let together_table = same_num - same_both;
        let merges = together_table - open_together;
        let splits = same_col - same_both;
        // Pairs with an open event: those together, and the rest apart.
        let closed: Vec<usize> = evs
            .iter()
            .filter(|m| !m.model.open)
            .map(|m| m.tid)
            .collect();
        let open_pairs = total - cross_pairs(&closed);
        let open_apart = open_pairs - open_together;
        out.pairs.add(&PairCounts {
            pairs: total,
            agree: total - merges - splits - open_pairs,
            merges,
            splits,
            open_together,
            open_apart,
        });
    }
    out.split_columns = split_cols.into_iter().collect();
    out.merged_columns = merged_cols.into_iter().collect();
    out.split_numbers = split_nums.into_iter().collect();
    out.merged_numbers = merged_nums.into_iter().collect();
    out
}

/// A logged event of the fixture's form `[label, number, mask]` as an
/// [`HwEvent`] (the mask is a signed 32-bit integer there).
pub fn hw_event(e: &[i64; 3]) -> HwEvent {
    HwEvent {
        label: usize::try_from(e[0]).unwrap_or(usize::MAX),
        number: e[1],
        mask: e[2] as u32,
    }
}
