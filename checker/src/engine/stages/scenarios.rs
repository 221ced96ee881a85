//! The scenarios of a comparison once its paths are enumerated:
//! single-thread behaviour path by path, then pairs of paths per group size
//! by their summed length, each compared on every live stage for
//! convergence and hazards (`relate`); and the outcome of each stage.

use super::super::pairs::{agree, buckets, Buckets};
use super::super::relate::{
    convergence_differs, hazards_differ, observable, reference_hazards, Diff,
};
use super::super::{Comparison, Finding, Outcome, Progress, Property};
use super::{
    finish_others, grouped, scenario_values, Enumerated, Flow, PairNode, Search, Tally,
    SEARCH_WHEN_INCOMPLETE,
};
use convcheck_ir::exec::observe::{choice_settings, Obs};
use convcheck_ir::scenario::{uniform_conflict, whole_run_conflict};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The most runs of the reference on other choices one differing target
/// run gets (`Search::chosen_otherwise`) before it is reported.
const CHOICE_RUNS: usize = 256;

/// Each pair of reference sets (by index) with its partner paths.
pub(super) type Partners = HashMap<(usize, usize), Buckets>;

impl Search<'_> {
    /// Single-thread behaviour, shortest paths first.
    fn singles(&self, e: &Enumerated, tally: &mut Tally) {
        let mut singles: Vec<(usize, usize)> = Vec::new();
        for (k, set) in e.sets.iter().enumerate() {
            for i in 0..set.x.paths.len() {
                singles.push((k, i));
            }
        }
        singles.sort_by_key(|&(k, i)| (e.len(k, i), e.sets[k].group, k, i));
        for &(k, i) in &singles {
            let set = &e.sets[k];
            let p = &set.x.paths[i];
            for (s, (target, _)) in self.stages.iter().enumerate() {
                if !tally.live[s] {
                    continue;
                }
                let (rhow, thow) = self.observe[s];
                let a = observable(self.reference, &p.trace, rhow);
                for t in &e.runs[s][k][i].paths {
                    let b = observable(target, &t.trace, thow);
                    if !convcheck_ir::exec::observe::refines(&a, &b)
                        && !self.chosen_otherwise(e, (k, i), t, target, rhow, &b)
                    {
                        tally.states[s].violated = Some(Box::new(Finding {
                            property: Property::SingleThreadBehaviour,
                            threads: vec![scenario_values(&set.values[i], t, target)],
                            tids: vec![set.tid],
                            group: set.group,
                            message: convcheck_ir::exec::observe::describe_difference(
                                &a, &b, set.tid,
                            ),
                            operation: None,
                            reference: vec![p.trace.clone()],
                            target: vec![t.trace.clone()],
                        }));
                        tally.first_violation.get_or_insert(s);
                        tally.live[s] = false;
                        break;
                    }
                }
            }
            if tally.first_violation.is_some() && !tally.live.iter().any(|&l| l) {
                break;
            }
        }
    }

    /// Whether the target run `t` (made from reference path `i` of set
    /// `k`, whose events differ from it) has the events `b` of another
    /// reference path of the set that differs from the target run's
    /// scenario only in the reference's own choices
    /// (`OracleClass::Choice`, `freeze undef`): then the target run is a
    /// behaviour the reference allows, by choosing otherwise (Alive2's
    /// angelic reading of the source's nondeterminism). The other path
    /// must agree with the scenario on every value both read that is not
    /// a reference's choice; a value the scenario lacks is free (the run
    /// does not read it), so one scenario holds both runs. Asked only
    /// where events differ, so it costs nothing elsewhere. Not asked for
    /// pairs of threads (convergence, hazards): there a difference that
    /// only another choice explains stays reported (a false alarm, never a
    /// false `preserved`).
    fn chosen_otherwise(
        &self,
        e: &Enumerated,
        (k, i): (usize, usize),
        t: &convcheck_ir::paths::Path,
        target: &super::super::Side,
        rhow: convcheck_ir::exec::observe::Observe,
        b: &[Obs],
    ) -> bool {
        let module = self.reference.module();
        let choices = convcheck_ir::exec::observe::choice_names(module);
        if choices.is_empty() {
            return false;
        }
        let set = &e.sets[k];
        let scenario = scenario_values(&set.values[i], t, target);
        let agrees = |other: &convcheck_ir::scenario::ThreadValues| {
            other.0.iter().all(|(name, vals)| {
                choices.contains(name.as_str())
                    || scenario.0.get(name).is_none_or(|mine| {
                        let n = mine.len().min(vals.len());
                        mine[..n] == vals[..n]
                    })
            })
        };
        if (0..set.x.paths.len()).any(|j| {
            j != i
                && agrees(&set.values[j])
                && convcheck_ir::exec::observe::refines(
                    &observable(self.reference, &set.x.paths[j].trace, rhow),
                    b,
                )
        }) {
            return true;
        }
        // The domain analysis may not have tried the value the target
        // chose (a constant InstCombine stored): the reference is run
        // again on the scenario with its choices set to the values the
        // target's events show.
        let constants = convcheck_ir::exec::observe::choice_constants(module);
        let settings = choice_settings(&scenario, &choices, b, &constants, CHOICE_RUNS);
        if settings.is_empty() {
            return false;
        }
        let table = self.space.table(module);
        let counters = self.space.counters(module);
        settings.iter().any(|given| {
            let x = convcheck_ir::paths::explore(
                self.reference.program,
                self.reference.entry,
                set.tid,
                set.group,
                &convcheck_ir::paths::Explore {
                    domains: &table,
                    counters: &counters,
                    given: Some(given),
                    bounds: self.limits.bounds,
                    max_events: self.budget.max_events,
                    stop: &|| None,
                },
            );
            x.paths.iter().any(|r| {
                r.trace.ub.is_none()
                    && convcheck_ir::exec::observe::refines(
                        &observable(self.reference, &r.trace, rhow),
                        b,
                    )
            })
        })
    }

    /// Each pair of reference sets' partner paths (`pairs::buckets`),
    /// counted into the coverage's total of pairs.
    pub(super) fn partners(&self, e: &Enumerated, tally: &mut Tally) -> Partners {
        let mut partners: Partners = HashMap::new();
        for (n, ids) in &self.space.groups {
            for a in 0..ids.len() {
                for b in a + 1..ids.len() {
                    let (x, y) = (e.set_of(*n, ids[a]), e.set_of(*n, ids[b]));
                    let bk = buckets(&e.sets[x].uniform, &e.sets[y].uniform);
                    tally.cov.pairs_total += bk.pairs();
                    partners.insert((x, y), bk);
                }
            }
        }
        partners
    }

    /// Decides the stages of `chunk` (whose target runs `e` holds): single-
    /// thread behaviour, then the pairs, on one stream. The pairs examined
    /// and the scenarios are counted as on one stream of every stage: the
    /// most any chunk examined.
    pub(super) fn decide_chunk(
        &self,
        e: &Enumerated,
        chunk: &[usize],
        partners: &Partners,
        tally: &mut Tally,
        progress: &mut dyn FnMut(&Progress),
    ) {
        for (s, live) in tally.live.iter_mut().enumerate() {
            *live = chunk.contains(&s);
        }
        let before = (tally.cov.pairs_examined, tally.cov.scenarios);
        tally.cov.pairs_examined = 0;
        tally.cov.scenarios = 0;
        self.singles(e, tally);
        self.pairs(e, partners, tally, progress);
        tally.cov.pairs_examined = tally.cov.pairs_examined.max(before.0);
        tally.cov.scenarios = tally.cov.scenarios.max(before.1);
        tally.live.iter_mut().for_each(|l| *l = false);
    }

    /// Pairs of threads: per group size, every pair of its indices, pairs
    /// of paths by their summed length; each path only with the other
    /// thread's paths of its signature (`pairs::buckets`).
    fn pairs(
        &self,
        e: &Enumerated,
        partners: &Partners,
        tally: &mut Tally,
        progress: &mut dyn FnMut(&Progress),
    ) {
        if tally.first_violation.is_some() && !finish_others(tally.cov.pairs_total) {
            tally.live.iter_mut().for_each(|l| *l = false);
        }
        if !tally.live.iter().any(|&l| l) {
            return;
        }
        for (n, ids) in &self.space.groups {
            if self.pairs_of_group(*n, ids, partners, e, tally, progress) == Flow::Stop {
                break;
            }
        }
        if let Some(b) = &tally.budget_hit {
            tally.cov.budget = Some(b.clone());
        }
    }

    /// The pairs of paths of group size `n`, smallest summed length first.
    fn pairs_of_group(
        &self,
        n: u32,
        ids: &[u32],
        partners: &HashMap<(usize, usize), Buckets>,
        e: &Enumerated,
        tally: &mut Tally,
        progress: &mut dyn FnMut(&Progress),
    ) -> Flow {
        // (summed length, set a, set b, i, j), smallest first.
        let mut heap: BinaryHeap<Reverse<PairNode>> = BinaryHeap::new();
        for a in 0..ids.len() {
            for b in a + 1..ids.len() {
                let (x, y) = (e.set_of(n, ids[a]), e.set_of(n, ids[b]));
                let Some(bk) = partners.get(&(x, y)) else {
                    continue;
                };
                for i in 0..e.sets[x].x.paths.len() {
                    if let Some(&j) = bk.partners(i).first() {
                        heap.push(Reverse((e.len(x, i) + e.len(y, j), x, y, i, 0)));
                    }
                }
            }
        }
        while let Some(Reverse((_, x, y, i, k))) = heap.pop() {
            let list = partners.get(&(x, y)).map_or(&[][..], |bk| bk.partners(i));
            let Some(&j) = list.get(k) else {
                continue;
            };
            if let Some(&next) = list.get(k + 1) {
                heap.push(Reverse((e.len(x, i) + e.len(y, next), x, y, i, k + 1)));
            }
            tally.cov.pairs_examined += 1;
            if self.pair_budget_reached(tally, progress) {
                return Flow::Stop;
            }
            if !agree(&e.sets[x].uniform[i], &e.sets[y].uniform[j]) {
                continue;
            }
            tally.cov.scenarios += 1;
            if self.compare_pair(n, (x, i), (y, j), e, tally) == Flow::Stop {
                return Flow::Stop;
            }
            if !tally.live.iter().any(|&l| l) {
                return Flow::Stop;
            }
        }
        Flow::Go
    }

    /// Whether a budget ends the pairs now (time, pairs, or the search of
    /// an incomplete reference), recording which.
    fn pair_budget_reached(&self, tally: &mut Tally, progress: &mut dyn FnMut(&Progress)) -> bool {
        let cov = &tally.cov;
        if cov.pairs_examined % 4096 == 0 {
            progress(&Progress {
                phase: "pairs",
                done: cov.pairs_examined,
                total: cov.pairs_total,
            });
            if self.clock.up() {
                tally.budget_hit = Some(format!(
                    "time budget {} reached after {} of {} pairs",
                    self.clock.text,
                    grouped(cov.pairs_examined),
                    grouped(cov.pairs_total)
                ));
                return true;
            }
        }
        if tally.reference_problem.is_some() && cov.pairs_examined > SEARCH_WHEN_INCOMPLETE {
            // The verdict is already inconclusive (the reference paths are
            // not all the paths within the bounds): the smallest pairs were
            // searched for a counterexample, the rest would cost without
            // changing the answer.
            return true;
        }
        if cov.pairs_examined > self.budget.max_pairs {
            tally.budget_hit = Some(format!(
                "pair budget of {} pairs reached (of {})",
                grouped(self.budget.max_pairs),
                grouped(cov.pairs_total)
            ));
            return true;
        }
        false
    }

    /// Compares the scenario of reference paths `i` of set `x` and `j` of
    /// set `y` on every live stage: every pair of their target runs, for
    /// convergence and then hazards.
    fn compare_pair(
        &self,
        n: u32,
        (x, i): (usize, usize),
        (y, j): (usize, usize),
        e: &Enumerated,
        tally: &mut Tally,
    ) -> Flow {
        let (p, q) = (&e.sets[x].x.paths[i], &e.sets[y].x.paths[j]);
        let ref_touches = e.sets[x].touches[i] || e.sets[y].touches[j];
        // The reference's hazards, computed once for every stage and pair
        // of target runs of this scenario, where one needs them.
        let reference = std::cell::OnceCell::new();
        for (s, (target, _)) in self.stages.iter().enumerate() {
            if !tally.live[s] {
                continue;
            }
            let (rp, rq) = (&e.runs[s][x][i], &e.runs[s][y][j]);
            'runs: for (e0, tp) in rp.paths.iter().enumerate() {
                for (e1, tq) in rq.paths.iter().enumerate() {
                    if (rp.extended || rq.extended)
                        && (uniform_conflict(&tp.trace, &tq.trace).is_some()
                            || whole_run_conflict(&[&p.trace, &tp.trace], &[&q.trace, &tq.trace])
                                .is_some())
                    {
                        continue;
                    }
                    let finding = |property, message, operation| {
                        Box::new(Finding {
                            property,
                            threads: vec![
                                scenario_values(&e.sets[x].values[i], tp, target),
                                scenario_values(&e.sets[y].values[j], tq, target),
                            ],
                            tids: vec![p.tid, q.tid],
                            group: n,
                            message,
                            operation,
                            reference: vec![p.trace.clone(), q.trace.clone()],
                            target: vec![tp.trace.clone(), tq.trace.clone()],
                        })
                    };
                    let maps = [
                        e.ref_matched(s, x, i),
                        e.ref_matched(s, y, j),
                        &rp.matched[e0],
                        &rq.matched[e1],
                    ];
                    let state = &mut tally.states[s];
                    match convergence_differs(
                        self.reference,
                        &e.labels,
                        [(&p.trace, p.tid), (&q.trace, q.tid)],
                        [&tp.trace, &tq.trace],
                        maps,
                    ) {
                        Diff::Same => {}
                        Diff::Undecided(why) => {
                            state.undecided.get_or_insert(why);
                        }
                        Diff::Differs(message, op) => {
                            state.violated = Some(finding(Property::Convergence, message, op));
                        }
                    }
                    let hazards_matter = ref_touches || rp.touches[e0] || rq.touches[e1];
                    if state.violated.is_none() && hazards_matter {
                        let rh = reference.get_or_init(|| {
                            reference_hazards(
                                self.reference,
                                [&p.trace, &q.trace],
                                [&e.sets[x].accesses[i], &e.sets[y].accesses[j]],
                                [e.sets[x].open[i], e.sets[y].open[j]],
                            )
                        });
                        if let Some((property, message, op)) = hazards_differ(
                            target,
                            [p.tid, q.tid],
                            rh,
                            [&tp.trace, &tq.trace],
                            [&rp.accesses[e0], &rq.accesses[e1]],
                            [rp.open[e0], rq.open[e1]],
                        ) {
                            state.violated = Some(finding(property, message, op));
                        }
                    }
                    if state.violated.is_some() {
                        tally.first_violation.get_or_insert(s);
                        tally.live[s] = false;
                        if !finish_others(tally.cov.pairs_total) {
                            return Flow::Stop;
                        }
                        break 'runs;
                    }
                }
            }
        }
        Flow::Go
    }
}

impl Tally {
    /// Each stage's outcome and the coverage.
    pub(super) fn comparison(self) -> Comparison {
        let cov = self.cov;
        let examined = format!(
            "{} of {} pairs",
            grouped(cov.pairs_examined),
            grouped(cov.pairs_total)
        );
        let first_violation = self.first_violation;
        let budget_hit = self.budget_hit;
        let reference_problem = self.reference_problem;
        let ub = match (cov.reference_ub, &cov.reference_ub_first) {
            (0, _) => String::new(),
            (k, first) => format!(
                "; {} reference path{} had undefined behaviour{}",
                grouped(k),
                if k == 1 { "" } else { "s" },
                first
                    .as_ref()
                    .map(|f| format!(" (the first: {f})"))
                    .unwrap_or_default()
            ),
        };
        let outcomes = self
            .states
            .into_iter()
            .map(|st| {
                if let Some(f) = st.violated {
                    return Outcome::Violated(f);
                }
                if let Some(v) = first_violation.filter(|_| !finish_others(cov.pairs_total)) {
                    return Outcome::Inconclusive(format!(
                        "not finished: the check stops at its first counterexample (stage {}), \
                         found after {examined}",
                        v + 1
                    ));
                }
                if let Some(b) = &budget_hit {
                    return Outcome::Inconclusive(b.clone());
                }
                if let Some(w) = &reference_problem {
                    return Outcome::Inconclusive(w.clone());
                }
                if let Some(w) = st.problem.or(st.undecided) {
                    return Outcome::Inconclusive(w);
                }
                if cov.scenarios == 0 {
                    // A check that compared nothing proves nothing
                    // (DESIGN.md 2.7): say so rather than pass.
                    return Outcome::Inconclusive(format!(
                        "no scenario within the bounds: no two thread paths can run together \
                         (every pair disagrees on a uniform value, or has undefined behaviour in \
                         the reference, which constrains nothing), so nothing was compared{ub}"
                    ));
                }
                Outcome::Preserved {
                    pairs: cov.scenarios as usize,
                    cut: cov.cut,
                }
            })
            .collect();
        Comparison {
            outcomes,
            coverage: cov,
        }
    }
}
