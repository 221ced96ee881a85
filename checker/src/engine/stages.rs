//! The stream of scenarios of a check (DESIGN.md 2.2, 2.7): the reference
//! paths of every (group size, thread index), the target runs of each on
//! every stage, single-thread behaviour path by path, then pairs of paths
//! by group size and summed length, each compared by `relate`. See the
//! documentation of `crate::engine` for the order and the bounds.
//!
//! **Chunks of stages.** Where every stage is finished whatever the others
//! find (at most [`FINISH_OTHERS_UP_TO`] pairs), the target runs are made
//! a chunk of stages at a time ([`CHUNK_EVENTS`]), the chunk's stages are
//! decided on their own stream, and the runs dropped before the next
//! chunk's are made. Each stage meets the same pairs in the same order as
//! on one stream of every stage, so its outcome and its counterexample are
//! the same; the coverage counts the pairs as one stream would (the most
//! any chunk examined). A larger stream stays one chunk, as it stops at
//! the first counterexample of any stage; so does the quick search
//! ([`compare_stages_one_stream`]), whose short time budget would
//! otherwise go to the first chunk's stages.

use super::pairs::{Sites, Uniform};
use super::relate::{behaviour, has_open_key, matched, touches, Labels, Matched};
use super::{
    Allowance, Budget, Comparison, Coverage, Finding, Limits, Outcome, Progress, Side, Space,
};
use convcheck_ir::exec::observe::Observe;
use convcheck_ir::exec::Bounds;
use convcheck_ir::hazards::RunAccesses;
use convcheck_ir::paths::{explore, Exploration, Explore, Path};
use convcheck_ir::scenario::domains::Subject;
use convcheck_ir::scenario::ThreadValues;
use std::time::Instant;

mod params;
mod scenarios;
#[cfg(test)]
mod tests;

/// After the first counterexample, the other stages are finished when the
/// check has at most this many pairs of paths.
pub const FINISH_OTHERS_UP_TO: u64 = 1_000_000;

/// Thousands separators: `123,456`.
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// When the reference paths are incomplete (a bound that makes the check
/// inconclusive), the smallest this many pairs are still searched for a
/// counterexample (a violation found within the bounds is definite), and
/// the check then ends: searching every pair would take long and could
/// not make the verdict `preserved`.
pub const SEARCH_WHEN_INCOMPLETE: u64 = 20_000;

/// A pair of paths waiting in the pair queue: (summed length, set of the
/// first thread, set of the second, path of the first, position among
/// its partners in the second).
type PairNode = (usize, usize, usize, usize, usize);

/// The target runs of one reference path on one stage.
#[derive(Default)]
struct Runs {
    /// Target paths: the reference's values plus the target's own reads.
    paths: Vec<Path>,
    /// Whether some of them read values the reference path does not give.
    extended: bool,
    /// Matched convergent instances of each.
    matched: Vec<Matched>,
    /// Whether each touches memory or a barrier.
    touches: Vec<bool>,
    /// The shared and global accesses of each (for the race search).
    accesses: Vec<RunAccesses>,
    /// Whether each has a key with choice variables (`relate::settle`).
    open: Vec<bool>,
}

/// The reference paths of one (group size, thread index).
struct Set {
    group: u32,
    tid: u32,
    x: Exploration,
    /// Matched convergent instances of each path.
    matched: Vec<Matched>,
    /// The values each path reads.
    values: Vec<ThreadValues>,
    /// The uniform reads of each path.
    uniform: Vec<Uniform>,
    /// Whether each touches memory or a barrier.
    touches: Vec<bool>,
    /// The shared and global accesses of each (for the race search).
    accesses: Vec<RunAccesses>,
    /// Whether each has a key with choice variables (`relate::settle`).
    open: Vec<bool>,
}

/// How a stage stands while the check runs.
#[derive(Default)]
struct StageState {
    violated: Option<Box<Finding>>,
    problem: Option<String>,
    undecided: Option<String>,
}

/// The time budget of a comparison.
#[derive(Clone)]
struct Clock {
    deadline: Option<Instant>,
    /// The budget as the messages print it (`60 s`).
    text: String,
}

impl Clock {
    fn of(budget: &Budget) -> Clock {
        Clock {
            deadline: budget.timeout.map(|t| budget.start + t),
            text: budget
                .timeout
                .map(|t| format!("{} s", t.as_secs_f64()))
                .unwrap_or_default(),
        }
    }

    fn up(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Why the exploration must stop, if it must.
    fn stop(&self) -> Option<String> {
        self.up()
            .then(|| format!("time budget {} reached", self.text))
    }
}

/// What a comparison is asked: the reference, the stages, the bounds and
/// the budget, and the scenario space they give.
struct Search<'a> {
    reference: &'a Side<'a>,
    stages: &'a [(Side<'a>, Allowance)],
    limits: Limits,
    budget: &'a Budget,
    space: Space,
    clock: Clock,
    /// What property 1 observes of the reference's runs and of the target's
    /// under each stage's allowance (`relate::behaviour`: computed once
    /// per stage, as it walks the whole module).
    observe: Vec<(Observe, Observe)>,
}

/// The paths enumerated: every reference path per (group size, thread
/// index), and the target runs of each on every stage.
struct Enumerated {
    labels: Labels,
    sets: Vec<Set>,
    /// Matched reference instances under the allowance of each stage that
    /// has another allowance than the first stage (empty otherwise).
    rmatched: Vec<Vec<Vec<Matched>>>,
    /// `runs[stage][set][path]`: those of the stages being decided (see
    /// [`CHUNK_EVENTS`]); empty for the others.
    runs: Vec<Vec<Vec<Runs>>>,
    /// The label number of every op of each stage's module.
    tlabels: Vec<Vec<u32>>,
}

impl Enumerated {
    /// The matched instances of reference path `i` of set `set` under
    /// stage `stage`'s allowance.
    fn ref_matched(&self, stage: usize, set: usize, i: usize) -> &Matched {
        if self.rmatched[stage].is_empty() {
            &self.sets[set].matched[i]
        } else {
            &self.rmatched[stage][set][i]
        }
    }

    /// The index of the set of (group size `n`, thread `tid`).
    fn set_of(&self, n: u32, tid: u32) -> usize {
        self.sets
            .iter()
            .position(|s| s.group == n && s.tid == tid)
            .unwrap_or(0)
    }

    /// The length of reference path `i` of set `k`.
    fn len(&self, k: usize, i: usize) -> usize {
        self.sets[k].x.paths[i].trace.events.len()
    }
}

/// How the comparison stands: what it covered and each stage's state.
struct Tally {
    cov: Coverage,
    states: Vec<StageState>,
    events: usize,
    reference_problem: Option<String>,
    first_violation: Option<usize>,
    live: Vec<bool>,
    budget_hit: Option<String>,
}

/// The scenario's values: the reference path's, then the target's own.
fn scenario_values(p: &ThreadValues, t: &Path, target: &Side) -> ThreadValues {
    let mut v = p.clone();
    for (name, list) in t.values(target.module()).0 {
        let e = v.0.entry(name).or_default();
        if list.len() > e.len() {
            *e = list;
        }
    }
    v
}

/// After a first counterexample the other stages go on while the stream
/// is small (a deterministic rule: the result never depends on the
/// machine's speed), so that small checks report every stage.
fn finish_others(pairs_total: u64) -> bool {
    pairs_total <= FINISH_OTHERS_UP_TO
}

/// Compares every target (the stages of a pipeline) against `reference`
/// on one stream of scenarios (see the module documentation). `progress`
/// is told where the check is from time to time.
pub fn compare_stages(
    reference: &Side,
    stages: &[(Side, Allowance)],
    limits: Limits,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
) -> Comparison {
    compare_in_chunks(reference, stages, limits, budget, progress, CHUNK_EVENTS)
}

/// [`compare_stages`] on one stream of every stage, never in chunks: for
/// a search cut short by a time budget (the quick search,
/// `engines::search`), whose stages advance together through the smallest
/// pairs instead of the first chunk's taking the time.
pub fn compare_stages_one_stream(
    reference: &Side,
    stages: &[(Side, Allowance)],
    limits: Limits,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
) -> Comparison {
    compare_in_chunks(reference, stages, limits, budget, progress, usize::MAX)
}

/// [`compare_stages`] with chunks of at most `chunk_events` events of
/// target runs (0: a stage per chunk; `usize::MAX`: one chunk).
fn compare_in_chunks(
    reference: &Side,
    stages: &[(Side, Allowance)],
    limits: Limits,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
    chunk_events: usize,
) -> Comparison {
    let search = Search::new(reference, stages, limits, budget);
    let mut tally = Tally {
        cov: search.coverage(),
        states: stages.iter().map(|_| StageState::default()).collect(),
        events: 0,
        reference_problem: None,
        first_violation: None,
        live: stages.iter().map(|_| true).collect(),
        budget_hit: None,
    };
    let all_inconclusive = |cov: Coverage, why: String| Comparison {
        outcomes: stages
            .iter()
            .map(|_| Outcome::Inconclusive(why.clone()))
            .collect(),
        coverage: cov,
    };
    let mut e = match search.enumerate(&mut tally, progress) {
        Ok(e) => e,
        Err(why) => {
            tally.cov.budget = Some(why.clone());
            return all_inconclusive(tally.cov, why);
        }
    };
    let partners = search.partners(&e, &mut tally);
    // Where every stage is finished whatever the others find (a small
    // stream), the stages are decided a chunk at a time, each chunk's
    // target runs dropped before the next chunk's are made: the same pairs
    // in the same order per stage, so the same outcome and counterexample
    // for each, in a fraction of the memory (see [`CHUNK_EVENTS`]).
    let chunked = finish_others(tally.cov.pairs_total);
    let mut total_runs = TargetRunsDone {
        done: 0,
        total: (stages.len() * tally.cov.paths) as u64,
    };
    let mut chunk: Vec<usize> = Vec::new();
    let mut held = 0usize;
    for s in 0..stages.len() {
        e.runs[s] = match search.stage_runs(s, &e, &mut tally, &mut total_runs, progress) {
            Ok(r) => r,
            Err(why) => {
                tally.cov.budget = Some(why.clone());
                return all_inconclusive(tally.cov, why);
            }
        };
        held += e.runs[s]
            .iter()
            .flatten()
            .flat_map(|r| &r.paths)
            .map(|p| p.trace.events.len())
            .sum::<usize>();
        chunk.push(s);
        if s + 1 < stages.len() && !(chunked && held > chunk_events) {
            continue;
        }
        search.decide_chunk(&e, &chunk, &partners, &mut tally, progress);
        for &c in &chunk {
            e.runs[c] = Vec::new();
        }
        chunk.clear();
        held = 0;
        if tally.budget_hit.is_some() || !chunked && tally.first_violation.is_some() {
            break;
        }
    }
    tally.comparison()
}

/// The most events the target runs of one chunk of stages hold before the
/// chunk is decided and its runs dropped (where every stage is finished
/// whatever the others find, [`FINISH_OTHERS_UP_TO`]). A stage's runs are
/// never split: a chunk holds at least one stage. `reduce_float` under
/// `default<O2>` (18 stages, about 200,000 events of target runs each)
/// held 1.5 GB with all its stages' runs at once; with chunks of 100,000,
/// 500,000, 1 million and 2 million events its peak RSS was 228, 394, 621
/// and 975 MB, and its CPU time 16.6, 13.3, 14.2 and 14.8 s (load 8: each
/// chunk walks the pairs again, and recomputes the reference's hazards
/// for each). The same report in every setting (docs/src/performance.md).
pub const CHUNK_EVENTS: usize = 500_000;

/// The progress of the target runs across the chunks.
struct TargetRunsDone {
    done: u64,
    total: u64,
}

impl<'a> Search<'a> {
    fn new(
        reference: &'a Side<'a>,
        stages: &'a [(Side<'a>, Allowance)],
        limits: Limits,
        budget: &'a Budget,
    ) -> Search<'a> {
        let mut modules = vec![(reference.module(), reference.entry)];
        modules.extend(stages.iter().map(|s| (s.0.module(), s.0.entry)));
        Search {
            reference,
            stages,
            limits,
            budget,
            space: Space::new(&modules, limits.bounds.max_iters, limits.group),
            clock: Clock::of(budget),
            observe: stages
                .iter()
                .map(|(t, allow)| (behaviour(reference, *allow), behaviour(t, *allow)))
                .collect(),
        }
    }

    /// The coverage before anything ran: the groups, the values tried,
    /// the loop bounds and the inexact domains.
    fn coverage(&self) -> Coverage {
        let space = &self.space;
        let mut cov = Coverage {
            groups: space.groups.clone(),
            fixed_group: space.fixed,
            capped: space.capped.clone(),
            ..Coverage::default()
        };
        for (s, v) in &space.domains.values {
            let shown = match s {
                Subject::Oracle(_) => v.len() > 1,
                Subject::Tid | Subject::Group => false,
            };
            if shown {
                cov.domains.insert(s.name().to_string(), v.clone());
            }
        }
        for s in &space.domains.counters {
            if let Subject::Oracle(n) = s {
                cov.loop_bounds.insert(n.clone(), None);
            }
        }
        for (s, uses) in &space.domains.inexact {
            if let Subject::Oracle(n) = s {
                if self.reference_choice_only(n) {
                    // The reference's own choice, which no target reads:
                    // every target run is compared whatever the reference
                    // chooses, and one choice that matches is enough
                    // (`Search::chosen_otherwise`), so a value the domain
                    // misses can only hide a match (an alarm), never a
                    // difference.
                    continue;
                }
            }
            cov.inexact
                .insert(s.name().to_string(), uses.iter().cloned().collect());
        }
        cov
    }

    /// Whether oracle `name` is a reference's choice
    /// (`OracleClass::Choice`) that no stage's module reads.
    fn reference_choice_only(&self, name: &str) -> bool {
        let named = |m: &convcheck_ir::Module| m.oracles.iter().find(|o| o.name == name).cloned();
        named(self.reference.module()).is_some_and(|o| o.class == convcheck_ir::OracleClass::Choice)
            && self.stages.iter().all(|(t, _)| named(t.module()).is_none())
    }

    /// Enumerates the reference paths (the target runs are made a chunk of
    /// stages at a time, [`Search::stage_runs`]); `Err` with the budget
    /// reached when one ran out.
    fn enumerate(
        &self,
        tally: &mut Tally,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Enumerated, String> {
        let mut labels = Labels::default();
        let rlabels = labels.of_ops(self.reference);
        let tlabels: Vec<Vec<u32>> = self.stages.iter().map(|(t, _)| labels.of_ops(t)).collect();
        let sets = self.reference_paths(&rlabels, tally, progress)?;
        let rmatched = self.matched_per_allowance(&rlabels, &sets);
        Ok(Enumerated {
            labels,
            sets,
            rmatched,
            runs: self.stages.iter().map(|_| Vec::new()).collect(),
            tlabels,
        })
    }

    /// The reference paths, per group size and thread index. They may
    /// hold half the memory budget: the target runs of the paths kept need
    /// the rest, or a reference that fills the budget would leave no
    /// counterexample findable among its paths.
    fn reference_paths(
        &self,
        rlabels: &[u32],
        tally: &mut Tally,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Vec<Set>, String> {
        let rtable = self.space.table(self.reference.module());
        let rcounters = self.space.counters(self.reference.module());
        let mut sites = Sites::default();
        let mut sets: Vec<Set> = Vec::new();
        let mut param_cuts: Vec<String> = Vec::new();
        let total_sets: u64 = self.space.groups.iter().map(|g| g.1.len() as u64).sum();
        for (n, ids) in &self.space.groups {
            for &tid in ids {
                progress(&Progress {
                    phase: "reference paths",
                    done: sets.len() as u64,
                    total: total_sets,
                });
                let x =
                    self.reference_set((*n, tid), (&rtable, &rcounters), tally, &mut param_cuts);
                for p in &x.paths {
                    if let Some(ub) = &p.trace.ub {
                        tally.cov.reference_ub += 1;
                        tally
                            .cov
                            .reference_ub_first
                            .get_or_insert_with(|| format!("N={n}, tid {tid}: {ub}"));
                    }
                }
                sets.push(self.set_of(*n, tid, x, rlabels, &mut sites));
                if self.clock.up() {
                    return Err(format!(
                        "time budget {} reached while enumerating reference paths",
                        self.clock.text
                    ));
                }
            }
        }
        if !param_cuts.is_empty() {
            let shown: Vec<&str> = param_cuts.iter().take(8).map(String::as_str).collect();
            let more = param_cuts.len().saturating_sub(shown.len());
            tally.cov.capped.push(format!(
                "scenarios with the parameter values {}{} (a loop leaves max-iters={} whatever \
                 the other oracles)",
                shown.join("; "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                },
                self.limits.bounds.max_iters
            ));
        }
        Ok(sets)
    }

    /// The reference paths of thread `tid` in a group of `n`, counted into
    /// the coverage. A loop out of the bounds because of a parameter's
    /// value cuts the scenarios with that value (`params`).
    fn reference_set(
        &self,
        (n, tid): (u32, u32),
        (rtable, rcounters): (&[Vec<i64>], &[bool]),
        tally: &mut Tally,
        param_cuts: &mut Vec<String>,
    ) -> Exploration {
        let clock = self.clock.clone();
        let stop = move || clock.stop();
        let max_events = (self.budget.max_events / 2).saturating_sub(tally.events);
        let mut x = explore(
            self.reference.program,
            self.reference.entry,
            tid,
            n,
            &Explore {
                domains: rtable,
                counters: rcounters,
                given: None,
                bounds: self.limits.bounds,
                max_events,
                stop: &stop,
            },
        );
        let cov = &mut tally.cov;
        if params::out_whatever(&x) || (x.incomplete.is_none() && x.unexamined.is_some()) {
            let setting = params::Setting {
                space: &self.space,
                domains: rtable,
                counters: rcounters,
                bounds: self.limits.bounds,
                max_events,
                stop: &stop,
            };
            if let Some(sp) = params::split(
                self.reference.program,
                self.reference.entry,
                tid,
                n,
                &setting,
            ) {
                x = sp.x;
                cov.cut += sp.cut.len();
                if cov.cut_reason.is_none() {
                    cov.cut_reason = Some(format!(
                        "the parameter values {} (N={n}, tid {tid}: {})",
                        sp.cut[0], sp.why
                    ));
                }
                for c in sp.cut {
                    if !param_cuts.contains(&c) {
                        param_cuts.push(c);
                    }
                }
                for (name, v) in sp.values {
                    let e = cov.domains.entry(name).or_default();
                    e.extend(v);
                    e.sort_unstable();
                    e.dedup();
                }
            }
        }
        tally.events += x.events;
        cov.paths += x.paths.len();
        cov.cut += x.cut;
        if cov.cut_reason.is_none() {
            cov.cut_reason.clone_from(&x.cut_reason);
        }
        for (o, v) in &x.beyond {
            let name = self.reference.module().oracles[*o].name.clone();
            let e = cov.loop_bounds.entry(name).or_insert(None);
            *e = Some(e.map_or(*v, |w| w.min(*v)));
        }
        let why = x
            .incomplete
            .clone()
            .map(|w| format!("reference, N={n}: {w}"))
            .or_else(|| {
                x.unexamined
                    .clone()
                    .map(|w| format!("reference, N={n}, tid {tid}: {w}"))
            });
        if let Some(w) = why {
            tally.reference_problem.get_or_insert(w);
        }
        x
    }

    /// The set of an exploration: its paths with the values, matched
    /// instances (under the first stage's allowance), uniform reads and
    /// memory accesses of each.
    fn set_of(
        &self,
        group: u32,
        tid: u32,
        mut x: Exploration,
        rlabels: &[u32],
        sites: &mut Sites,
    ) -> Set {
        // A reference run with undefined behaviour constrains nothing.
        x.paths.retain(|p| p.trace.ub.is_none());
        let values = x
            .paths
            .iter()
            .map(|p| p.values(self.reference.module()))
            .collect();
        let matched = self
            .observe
            .first()
            .map(|&(how, _)| {
                x.paths
                    .iter()
                    .map(|p| matched(rlabels, &p.trace, how))
                    .collect()
            })
            .unwrap_or_default();
        let uniform = x.paths.iter().map(|p| sites.of(&p.trace)).collect();
        let touches = x.paths.iter().map(|p| touches(&p.trace)).collect();
        let accesses = x
            .paths
            .iter()
            .map(|p| RunAccesses::of(&p.trace.events))
            .collect();
        let open = x.paths.iter().map(|p| has_open_key(&p.trace)).collect();
        Set {
            group,
            tid,
            x,
            matched,
            values,
            uniform,
            touches,
            accesses,
            open,
        }
    }

    /// Matched instances depend on the allowance; stages with another one
    /// than the first stage get their own copy.
    fn matched_per_allowance(&self, rlabels: &[u32], sets: &[Set]) -> Vec<Vec<Vec<Matched>>> {
        self.stages
            .iter()
            .zip(&self.observe)
            .map(|((_, allow), &(how, _))| {
                if Some(allow) == self.stages.first().map(|s| &s.1) {
                    Vec::new()
                } else {
                    sets.iter()
                        .map(|set| {
                            set.x
                                .paths
                                .iter()
                                .map(|p| matched(rlabels, &p.trace, how))
                                .collect()
                        })
                        .collect()
                }
            })
            .collect()
    }

    /// The target runs of every reference path on stage `s`. A target
    /// may merge a loop nest into one cycle (the merged header then counts
    /// the iterations of both): it gets the product of the reference's
    /// bounds, roughly, before its runs are cut.
    fn stage_runs(
        &self,
        s: usize,
        e: &Enumerated,
        tally: &mut Tally,
        count: &mut TargetRunsDone,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Vec<Vec<Runs>>, String> {
        let bounds = Bounds {
            max_iters: (self.limits.bounds.max_iters.saturating_add(1))
                .saturating_mul(16)
                .saturating_sub(1),
            ..self.limits.bounds
        };
        let target = &self.stages[s].0;
        let table = self.space.table(target.module());
        let counters = self.space.counters(target.module());
        let mut per_set = Vec::new();
        for set in &e.sets {
            let mut per_path = Vec::new();
            for i in 0..set.x.paths.len() {
                if count.done % 256 == 0 {
                    progress(&Progress {
                        phase: "target runs",
                        done: count.done,
                        total: count.total,
                    });
                }
                count.done += 1;
                let explore_with = Explore {
                    domains: &table,
                    counters: &counters,
                    given: Some(&set.values[i]),
                    bounds,
                    max_events: 0,
                    stop: &|| None,
                };
                per_path.push(self.target_run(
                    (s, target),
                    set,
                    explore_with,
                    &e.tlabels[s],
                    tally,
                )?);
            }
            per_set.push(per_path);
        }
        if self.clock.up() {
            return Err(format!(
                "time budget {} reached while running the targets",
                self.clock.text
            ));
        }
        Ok(per_set)
    }

    /// The target runs of one reference path on stage `s`.
    fn target_run(
        &self,
        (s, target): (usize, &Side),
        set: &Set,
        explore_with: Explore,
        tlabels: &[u32],
        tally: &mut Tally,
    ) -> Result<Runs, String> {
        let clock = self.clock.clone();
        let stop = move || clock.stop();
        let x = explore(
            target.program,
            target.entry,
            set.tid,
            set.group,
            &Explore {
                max_events: self.budget.max_events.saturating_sub(tally.events),
                stop: &stop,
                ..explore_with
            },
        );
        tally.events += x.events;
        tally.cov.target_cut += x.cut;
        let problem = x
            .incomplete
            .clone()
            .or_else(|| x.unexamined.clone())
            .map(|w| format!("target, N={}, tid {}: {w}", set.group, set.tid));
        if let Some(w) = problem {
            if w.contains("budget") {
                return Err(w);
            }
            tally.states[s].problem.get_or_insert(w);
        }
        let extended = x.paths.iter().any(|p| !p.decisions.is_empty());
        let how = self.observe[s].1;
        let matched = x
            .paths
            .iter()
            .map(|p| matched(tlabels, &p.trace, how))
            .collect();
        let touches = x.paths.iter().map(|p| touches(&p.trace)).collect();
        let accesses = x
            .paths
            .iter()
            .map(|p| RunAccesses::of(&p.trace.events))
            .collect();
        let open = x.paths.iter().map(|p| has_open_key(&p.trace)).collect();
        Ok(Runs {
            paths: x.paths,
            extended,
            matched,
            touches,
            accesses,
            open,
        })
    }
}

/// Whether a loop over pairs goes on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Go,
    Stop,
}
