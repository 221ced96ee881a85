//! The batch policy ([`Policy::Batch`](super::super::Policy::Batch)):
//! the structural proof, the simulation (against the stage before it
//! when that one is proved, then against the reference), the quick
//! explicit search, the product first under `smt`, the explicit engine on
//! one stream for what is open, and the product after it under `auto`
//! (the module documentation of [`super`]).

use super::{
    limits, stage_of, unbounded, Decided, Decider, CHAINED_NOTE, FOUND_NOTE, LAST, QUICK_NOTE,
};
use crate::config::Engine as EngineChoice;
use crate::engine::{Allowance, Budget, Coverage, Outcome, DEFAULT_TIMEOUT};
use crate::engines::search::QUICK;
use crate::engines::{Answer, Engine, Explicit, Query, Structure};
use crate::pipeline::{Entry, Target};
use crate::report::{FunctionReport, Method};
use std::time::{Duration, Instant};

impl Decider<'_> {
    /// The structural proof, the product first under `smt`, the explicit
    /// engine on one stream for what is open, and the product after it
    /// under `auto` (see the module documentation).
    pub(super) fn batch(&self, fr: &mut FunctionReport, prove: bool, search_only: bool) {
        let mut b = Batch {
            decided: self.f.stages.iter().map(|_| None).collect(),
            simulation: vec![None; self.f.stages.len()],
            notes: vec![Vec::new(); self.f.stages.len()],
            product: self.product_applies(),
            search_only,
        };
        // The last stage's function when it was proved for every iteration
        // count (a later stage proved against it is proved against the
        // reference: the two proofs compose).
        let mut last: Option<&Entry> = None;
        // The stages that are the stage before them up to names, order and
        // merged straight-line chains (the structural rule): they take its
        // verdict, whatever it is, instead of being decided again.
        // `linked[j]`: the stage whose verdict stage `j` takes, the one
        // before it or an earlier open stage (`twin`).
        let mut linked: Vec<Option<usize>> = vec![None; self.f.stages.len()];
        let mut before: Option<&Entry> = None;
        for (j, s) in self.f.stages.iter().enumerate() {
            // A stage that is the stage before it up to names, order and
            // merged chains, where that stage found no unbounded proof:
            // its simulation against the reference would explore the same
            // relation again, and it takes that stage's verdict below.
            let repeat = match (&s.target, before) {
                (Target::Code(t), Some(p))
                    if prove && last.is_none() && self.reference.code.cfg().is_some() =>
                {
                    self.same_as(p, t)
                }
                _ => false,
            };
            // A stage that is an earlier open stage, not the one before it,
            // up to names, order and merged chains (`default<O2>` runs
            // LoopSimplify, LCSSA, InstCombine and SimplifyCFG again and
            // again, each undoing what the other did: `early_exit`'s stages
            // 18 to 30 are three functions of stages 15 to 17): the same
            // behaviours, so the same verdict, and its simulation would
            // explore the same relation again.
            let twin = match &s.target {
                Target::Code(t)
                    if prove
                        && !repeat
                        && last.is_none()
                        && s.allow == Allowance::Exact
                        && self.reference.code.cfg().is_some() =>
                {
                    self.twin(j, t, &b.decided, &linked)
                }
                _ => None,
            };
            b.decided[j] = match &s.target {
                Target::Decided(o) => Some(self.static_stage(o)),
                Target::Code(_) if repeat || twin.is_some() => None,
                Target::Code(t) if prove => self
                    .searched_first(t, s.allow, before, last, b.product)
                    .or_else(|| last.and_then(|l| self.chained(l, t, s.allow)))
                    .or_else(|| self.proved(t, s.allow)),
                Target::Code(_) => None,
            };
            if repeat {
                self.misses.borrow_mut().push((
                    "the reference",
                    "skipped: the stage before it up to names, block order and merged chains \
                     found none"
                        .into(),
                ));
            }
            if let Some(i) = twin {
                self.misses.borrow_mut().push((
                    "the reference",
                    format!(
                        "skipped: stage {} up to names, block order and merged chains found none",
                        i + 1
                    ),
                ));
            }
            b.simulation[j] =
                self.take_misses(b.decided[j].as_ref().is_some_and(|d| unbounded(&d.method)));
            if let Some(i) = twin {
                linked[j] = Some(i);
                b.decided[j] = Some(
                    self.static_stage(&Outcome::Inconclusive(format!("stage {} decides", i + 1))),
                );
            }
            if let (None, Target::Code(t), Some(p)) = (&b.decided[j], &s.target, before) {
                if prove && s.allow == Allowance::Exact && self.same_as(p, t) {
                    linked[j] = Some(j - 1);
                    b.decided[j] = Some(self.static_stage(&Outcome::Inconclusive(
                        "the stage before it decides".into(),
                    )));
                }
            }
            last = match (&s.target, &b.decided[j]) {
                (Target::Code(t), Some(d)) if unbounded(&d.method) => Some(t),
                _ => None,
            };
            before = match &s.target {
                Target::Code(t) => Some(t),
                Target::Decided(_) => None,
            };
        }
        if b.product && self.auto() {
            self.quick_first(&mut b);
        }
        if b.product && self.engine == EngineChoice::Smt {
            self.product_first(&mut b);
        }
        self.explicit_batch(&mut b, fr);
        for j in 1..self.f.stages.len() {
            if let Some(i) = linked[j] {
                let note = if i + 1 == j {
                    LINKED_NOTE.to_string()
                } else {
                    twin_note(i)
                };
                b.decided[j] = b.decided[i].as_ref().map(|d| Decided {
                    outcome: d.outcome.clone(),
                    method: d.method.clone(),
                    against: d.against,
                    reference: d.reference.clone(),
                    notes: vec![note],
                });
            }
        }
        for (j, s) in self.f.stages.iter().enumerate() {
            let mut d = b.decided[j].take().unwrap_or_else(|| Decided {
                outcome: Outcome::Inconclusive("not compared".into()),
                ..self.static_stage(&Outcome::Preserved { pairs: 0, cut: 0 })
            });
            let mut n = std::mem::take(&mut b.notes[j]);
            n.append(&mut d.notes);
            d.notes = n;
            let mut stage = stage_of(s, d, b.simulation[j].take());
            // A counterexample taken from another stage holds that stage's
            // runs: its tables name that module's operations (the same
            // events, since the two are one program up to the structural
            // rule, but not the same operation numbers once empty blocks
            // are bypassed).
            let mut root = j;
            while let Some(i) = linked[root] {
                root = i;
            }
            if root != j && matches!(stage.outcome, Outcome::Violated(_)) {
                stage.target_module = self.f.stages[root].module.clone();
            }
            fr.stages.push(stage);
        }
    }

    /// Whether the product may decide stages: it needs a CFG reference
    /// with one cycle hierarchy, and an engine other than `explicit`.
    fn product_applies(&self) -> bool {
        let r = self.reference;
        let several = r.code.cfg().is_some_and(|p| {
            convcheck_ir::cycles::all_hierarchies(&p.module.functions[r.func], 2).len() > 1
        });
        r.code.cfg().is_some() && !several && self.engine != EngineChoice::Explicit
    }

    /// The query of stage `j`, when it compares code.
    fn query(&self, j: usize, deadline: Instant) -> Option<Query<'_>> {
        let s = &self.f.stages[j];
        match &s.target {
            Target::Code(t) => Some(Query {
                reference: self.reference,
                target: t,
                allow: s.allow,
                deadline,
            }),
            Target::Decided(_) => None,
        }
    }

    /// A proof of `target` against `last`, the stage before it, itself
    /// proved against the reference for every iteration count: by the
    /// structural rule (the pass changed nothing the proof depends on), or
    /// by a simulation relation between the two stages (a shorter distance
    /// than from the reference). The two proofs compose: each says that
    /// every thread's observable events are equal wherever the program it
    /// is compared with does not reach undefined behaviour, and that two
    /// threads' matched instances are converged in one iff in the other;
    /// both are transitive. Only for stages that may remove nothing (a
    /// removal is allowed against the reference, not against a stage).
    fn chained(&self, last: &Entry, target: &Entry, allow: Allowance) -> Option<Decided> {
        if allow != Allowance::Exact {
            return None;
        }
        let q = Query {
            reference: last,
            target,
            allow,
            deadline: self.deadline,
        };
        let (outcome, method) = match Structure.decide(&q) {
            Answer::Decided(o, m) => (o, m),
            Answer::Unknown(_) => {
                let d = self.simulated(last, target, allow, LAST)?;
                (d.outcome, d.method)
            }
        };
        Some(Decided {
            outcome,
            method,
            against: Some(LAST),
            reference: last.code.module().clone(),
            notes: vec![CHAINED_NOTE.into()],
        })
    }

    /// Whether `target` is `before` up to names, order and merged
    /// straight-line chains (the structural rule): the same behaviours
    /// for every scenario and iteration count, so the same verdict against
    /// the reference, bounded or not.
    fn same_as(&self, before: &Entry, target: &Entry) -> bool {
        let q = Query {
            reference: before,
            target,
            allow: Allowance::Exact,
            deadline: self.deadline,
        };
        matches!(Structure.decide(&q), Answer::Decided(..))
    }

    /// The first open stage before stage `j`, other than the one just
    /// before it, that `target` is up to names, order and merged
    /// straight-line chains (the structural rule): an engine decides that
    /// one, and stage `j` takes its verdict. Only stages of the same
    /// allowance that no proof decided and that take no other stage's
    /// verdict are candidates.
    fn twin(
        &self,
        j: usize,
        target: &Entry,
        decided: &[Option<Decided>],
        linked: &[Option<usize>],
    ) -> Option<usize> {
        let allow = self.f.stages[j].allow;
        (0..j.saturating_sub(1)).find(|&i| {
            let s = &self.f.stages[i];
            match &s.target {
                Target::Code(t) => {
                    s.allow == allow
                        && decided[i].is_none()
                        && linked[i].is_none()
                        && self.same_as(t, target)
                }
                Target::Decided(_) => false,
            }
        })
    }

    /// The structural proof of a stage, if it applies.
    fn proved(&self, target: &Entry, allow: Allowance) -> Option<Decided> {
        let q = Query {
            reference: self.reference,
            target,
            allow,
            deadline: self.deadline,
        };
        match Structure.decide(&q) {
            Answer::Decided(outcome, method) => Some(Decided {
                outcome,
                method,
                against: None,
                reference: self.reference.code.module().clone(),
                notes: Vec::new(),
            }),
            Answer::Unknown(_) => self.simulated(self.reference, target, allow, "the reference"),
        }
    }

    /// Under `auto`, where the reference has one cycle hierarchy (the
    /// quick search compares under that one; an irreducible reference is
    /// the full enumeration's, under each of its hierarchies): the quick
    /// explicit search (max-iters 1, at most 100 ms per stage) on the open
    /// stages together, on one stream of scenarios (the reference's paths
    /// enumerated once, not once per stage: `early_exit` under
    /// `default<O2>`, 27 stages, 2.3 s before, 1.2 s after;
    /// docs/src/performance.md), before the full enumeration spends its
    /// share of the budget: a counterexample it finds decides the stage
    /// (seed 000's `loop_nest` through `default<O2>`: the late
    /// SimplifyCFG's violation in 0.2 s, where the enumeration at
    /// max-iters 8 ran 30 s before the product found it). Finding nothing
    /// decides nothing.
    fn quick_first(&self, b: &mut Batch) {
        let open: Vec<usize> = (0..self.f.stages.len())
            .filter(|&j| b.decided[j].is_none())
            .filter(|&j| matches!(self.f.stages[j].target, Target::Code(_)))
            .collect();
        if open.is_empty() {
            return;
        }
        self.progress
            .report(&format!("@{}: quick explicit search", self.f.name));
        let targets: Vec<(crate::engine::Side, Allowance)> = open
            .iter()
            .filter_map(|&j| match &self.f.stages[j].target {
                Target::Code(t) => Some((t.side(), self.f.stages[j].allow)),
                Target::Decided(_) => None,
            })
            .collect();
        let found = crate::engines::search::explicit_search_stages(
            &self.reference.side(),
            &targets,
            self.config,
            self.budget,
            self.deadline,
            &QUICK,
        );
        for (&j, o) in open.iter().zip(found) {
            if let Some(outcome) = o {
                b.decided[j] = Some(Decided {
                    outcome,
                    method: Method::QuickSearch,
                    against: None,
                    reference: self.reference.code.module().clone(),
                    notes: vec![QUICK_NOTE.into()],
                });
            }
        }
    }

    /// Under `smt`: the product on every open stage first; what it does
    /// not model is left to the explicit engine, with a note.
    fn product_first(&self, b: &mut Batch) {
        let module = self.reference.code.module();
        for j in 0..self.f.stages.len() {
            if b.decided[j].is_some() {
                continue;
            }
            let Some(q) = self.query(j, self.deadline) else {
                continue;
            };
            self.progress
                .report(&format!("@{}: symbolic product", self.f.name));
            b.decided[j] = match self.product().decide(&q) {
                Answer::Decided(outcome, method) => Some(Decided {
                    notes: if matches!(outcome, Outcome::Violated(_)) {
                        vec![FOUND_NOTE.to_string()]
                    } else {
                        Vec::new()
                    },
                    outcome,
                    method,
                    against: None,
                    reference: module.clone(),
                }),
                Answer::Unknown(why) if why.is_budget() => {
                    Some(self.static_stage(&Outcome::Inconclusive(why.why)))
                }
                Answer::Unknown(why) => {
                    b.notes[j].push(format!("{why}: decided by the explicit engine"));
                    None
                }
            };
        }
    }

    /// The explicit engine on every stage still open, on one stream of
    /// scenarios; under `auto` (with half the time left) the product
    /// decides what it leaves inconclusive and searches where it left
    /// values untried.
    fn explicit_batch(&self, b: &mut Batch, fr: &mut FunctionReport) {
        let open: Vec<usize> = (0..self.f.stages.len())
            .filter(|&j| b.decided[j].is_none())
            .collect();
        let targets: Vec<(&Entry, Allowance)> = open
            .iter()
            .filter_map(|&j| match &self.f.stages[j].target {
                Target::Code(t) => Some((t, self.f.stages[j].allow)),
                Target::Decided(_) => None,
            })
            .collect();
        if targets.is_empty() {
            return;
        }
        let after = b.product && self.auto();
        let budget = if after {
            explicit_share(self.budget, self.deadline)
        } else {
            *self.budget
        };
        let name = &self.f.name;
        let report = |p: &crate::engine::Progress| {
            self.progress.report(&format!(
                "@{name}: {} {}",
                p.phase,
                crate::engine::grouped(p.done)
            ))
        };
        let explicit = Explicit {
            limits: limits(self.job),
            budget,
            progress: &report,
        };
        let c = explicit.batch(self.reference, &targets);
        let gap = gaps(&c.coverage);
        let inexact = inexact(&c.coverage);
        fr.coverage = Some(c.coverage);
        // Stages preserved with values or group sizes left untried: the
        // product searches them for a counterexample after this loop.
        let mut untried = Vec::new();
        for (&j, o) in open.iter().zip(c.outcomes) {
            let Some(q) = self.query(j, self.deadline) else {
                continue;
            };
            let mut notes = std::mem::take(&mut b.notes[j]);
            let (outcome, method) = match o {
                o @ Outcome::Preserved { .. } if after && gap.is_some() => {
                    untried.push(j);
                    (o, Method::Explicit)
                }
                // No product after it (`--engine explicit`, or a stage the
                // product does not take): a stage preserved with inexact
                // domains is not decided (issue 20 class m).
                Outcome::Preserved { .. } if !after && !b.search_only && inexact.is_some() => (
                    Outcome::Inconclusive(inexact.clone().unwrap_or_default()),
                    Method::Explicit,
                ),
                o if after => self.after_explicit(o, &q, &mut notes),
                o => (o, Method::Explicit),
            };
            b.decided[j] = Some(Decided {
                outcome,
                method,
                against: None,
                reference: self.reference.code.module().clone(),
                notes,
            });
        }
        if let Some(gap) = gap {
            self.search_untried(b, &untried, &gap, inexact.as_deref());
        }
    }

    /// Under `auto`, the product's counterexample search ([`hunt_work`]
    /// units of z3's work in all, within a tenth of the time budget) on
    /// the stages the explicit engine preserved while
    /// leaving values or group sizes untried (`gap`): on the last of them
    /// first, the pipeline's output so far; only where that one is
    /// violated, on the earlier ones in order until the first violated
    /// one, which takes the blame. A pipeline of 18 stages searched stage
    /// by stage spent its whole budget here (`examples/gpu`, `default<O2>`:
    /// 15 s of 15, 56 s of 60) and found nothing; unsearched ones say so.
    fn search_untried(&self, b: &mut Batch, untried: &[usize], gap: &str, inexact: Option<&str>) {
        let Some((&last, earlier)) = untried.split_last() else {
            return;
        };
        let mut searched = vec![last];
        let mut last_cut = None;
        match self.search_one(b, last, gap, inexact) {
            Hunt::Found => {
                for &j in earlier {
                    searched.push(j);
                    if self.search_one(b, j, gap, inexact) == Hunt::Found {
                        break;
                    }
                }
            }
            Hunt::NoneFound => {}
            Hunt::Cut(why) => last_cut = Some(why),
        }
        for &j in untried {
            if searched.contains(&j) {
                continue;
            }
            let Some(d) = b.decided[j].as_mut() else {
                continue;
            };
            match &last_cut {
                Some(why) => d.notes.push(format!(
                    "{CUT_NOTE} ({gap}) on the last stage did not finish ({why}); this stage \
                     was not searched"
                )),
                None => d.notes.push(format!("{NOT_SEARCHED_NOTE} ({gap})")),
            }
        }
    }

    /// The product's counterexample search on stage `j` (preserved by the
    /// explicit engine with `gap` left untried): all its z3 queries within
    /// one budget of z3's work, [`hunt_work`] of the time budget (2 million
    /// units at the default 60 s), a count that stops the search the same
    /// way on every run; the time, a tenth of the budget (at least 6 s)
    /// times the [`load_factor`], is a safety net under load
    /// (docs/src/performance.md, "The search of untried values: a budget of
    /// work"). A violation decides the stage; a search
    /// cut short (work, time, memory, size) or a construct the product does
    /// not model leaves the explicit engine's verdict with a note naming
    /// why: a cut search is never reported as one that found nothing.
    fn search_one(&self, b: &mut Batch, j: usize, gap: &str, inexact: Option<&str>) -> Hunt {
        let timeout = self.budget.timeout.unwrap_or(DEFAULT_TIMEOUT);
        // The time is a safety net: at least a tenth of the default
        // budget, so that under a short `--timeout` on a loaded machine
        // the work budget, not the time, still ends the search.
        // On a machine shared with other work the net stretches with the
        // ratio of this check's wall clock to its CPU time, so that the
        // count of work, not the machine's load, ends the search.
        let net = timeout.max(DEFAULT_TIMEOUT) / HUNT_TIME_SHARE;
        let short = self
            .deadline
            .min(Instant::now() + net * load_factor(self.budget.start));
        let Some(q) = self.query(j, short) else {
            return Hunt::NoneFound;
        };
        self.progress
            .report(&format!("@{}: symbolic product", self.f.name));
        let work = convcheck_smt::product::WorkAccount::new(hunt_work(timeout));
        let answer = self.product().hunt(&q, &work);
        self.progress.report(&format!(
            "@{}: the symbolic product's search: {} units of z3's work of {}",
            self.f.name,
            crate::engine::grouped(work.spent()),
            crate::engine::grouped(work.total())
        ));
        let hunt = match answer {
            Answer::Decided(v @ Outcome::Violated(_), m) => {
                if let Some(d) = b.decided[j].as_mut() {
                    d.outcome = v;
                    d.method = m;
                    d.notes.push(format!(
                        "the explicit engine found none ({gap}): {FOUND_NOTE}"
                    ));
                }
                return Hunt::Found;
            }
            Answer::Unknown(w) if w.why.contains(convcheck_smt::product::NO_COUNTEREXAMPLE) => {
                Hunt::NoneFound
            }
            // Not modelled (an anchor, a choice): with inexact domains,
            // inconclusive (review3 H15); else, or where no observed
            // difference was found, the explicit verdict stands, noted.
            Answer::Unknown(w) if w.limit == crate::engines::Limit::Unsupported => {
                let why = w.why.strip_prefix("smt: ").unwrap_or(&w.why);
                let searched = w
                    .why
                    .contains(convcheck_smt::product::NO_VISIBLE_DIFFERENCE);
                let d = b.decided[j].as_mut();
                match (d, inexact.filter(|_| !searched)) {
                    (Some(d), Some(inexact)) => {
                        d.outcome =
                            Outcome::Inconclusive(format!("{inexact}; {NOT_MODELLED_NOTE}: {why}"))
                    }
                    (Some(d), None) => d.notes.push(format!(
                        "the symbolic product cannot search what the explicit engine left \
                         untried ({gap}): {why}"
                    )),
                    (None, _) => {}
                }
                return if searched {
                    Hunt::NoneFound
                } else {
                    Hunt::Cut(why.to_string())
                };
            }
            Answer::Unknown(w) => {
                Hunt::Cut(w.why.strip_prefix("smt: ").unwrap_or(&w.why).to_string())
            }
            Answer::Decided(_, _) => Hunt::NoneFound,
        };
        if let (Hunt::Cut(why), Some(d)) = (&hunt, b.decided[j].as_mut()) {
            d.notes
                .push(format!("{CUT_NOTE} ({gap}) did not finish ({why})"));
        }
        hunt
    }

    /// Under `auto`, the product after the explicit engine on a stage it
    /// left inconclusive; what the product cannot decide leaves the
    /// explicit verdict as it is.
    fn after_explicit(&self, o: Outcome, q: &Query, notes: &mut Vec<String>) -> (Outcome, Method) {
        let Outcome::Inconclusive(why) = &o else {
            return (o, Method::Explicit);
        };
        self.progress
            .report(&format!("@{}: symbolic product", self.f.name));
        match self.product().decide(q) {
            Answer::Decided(p @ Outcome::Preserved { .. }, m) => {
                notes.push(format!("{why}: decided by the symbolic product"));
                (p, m)
            }
            Answer::Decided(v, m) => {
                notes.push(format!("{why}: {FOUND_NOTE}"));
                (v, m)
            }
            Answer::Unknown(w) => (
                Outcome::Inconclusive(format!(
                    "{why}; the symbolic product: {}",
                    w.why.strip_prefix("smt: ").unwrap_or(&w.why)
                )),
                Method::Explicit,
            ),
        }
    }
}

/// The note of a stage the explicit engine preserved with values left
/// untried, which the product's counterexample search skipped because it
/// searched the last such stage and found nothing there.
pub const NOT_SEARCHED_NOTE: &str = "values the explicit engine left untried were searched by \
the symbolic product on the last stage of the pipeline only, where it found no counterexample \
(a violation that a later pass undoes would go unseen)";

/// Why a stage preserved with inexact domains is inconclusive: the product
/// could not search them (review3 H15).
pub const NOT_MODELLED_NOTE: &str = "the symbolic product could not search the values the \
explicit engine left untried";

/// The start of the note of a stage whose search of untried values by the
/// product was cut short (time, memory, size): its verdict is the explicit
/// engine's, on the values that engine tried.
pub const CUT_NOTE: &str = "the verdict is the explicit engine's on the values it tried: the \
symbolic product's search of what it left untried";

/// The note of a stage that takes the verdict of stage `i` (0-based), an
/// earlier stage than the one before it (`Decider::twin`).
fn twin_note(i: usize) -> String {
    format!(
        "stage {} up to names, block order and merged straight-line chains, inverted branch \
         conditions and bypassed empty blocks that head no cycle (the structural rule, every \
         iteration count): its verdict against the reference, within the same bounds, is this \
         stage's",
        i + 1
    )
}

/// The note of a stage that is the stage before it up to names, order,
/// merged straight-line chains and what `convcheck_smt::product::
/// canonicalize` undoes, and takes its verdict.
pub const LINKED_NOTE: &str = "the stage before it up to names, block order and merged \
straight-line chains, inverted branch conditions and bypassed empty blocks that head no cycle \
(the structural rule, every iteration count): its verdict against the reference, within the \
same bounds, is this stage's";

/// The work the product's search of untried values may do, in units of
/// z3's resource counter, per minute of the check's time budget
/// (`--timeout`): all its z3 queries share [`hunt_work`] of the budget. A
/// count, so that the search stops the same way on every machine and
/// under any load; scaled with the budget the user gives, so that a
/// longer `--timeout` searches further. What it was set from
/// (docs/src/performance.md, "The search of untried values: a budget of
/// work"): every counterexample of `examples/semantics` and of the
/// red-team pairs that this search finds takes at most 0.62 million
/// units, the one of `examples/launch/block-folded.ll` 1.17 million
/// (1 million missed it); on the kernels of `examples/gpu` the searches that finish take
/// 0.6 to 13 million units, most do not finish in 15 s (4 to 11 million
/// units), and z3 does about 2 million units per second of CPU there.
pub const HUNT_WORK_PER_MINUTE: u64 = 2_000_000;

/// The share of the time budget the search of untried values may take
/// (one `HUNT_TIME_SHARE`th, of the default budget at least, times the
/// [`load_factor`]): a safety net under load, and for the encoding, which
/// the work budget does not count.
pub const HUNT_TIME_SHARE: u32 = 10;

/// The most the search's time net stretches under load
/// ([`load_factor`]).
pub const LOAD_FACTOR_MAX: u32 = 8;

/// How many times longer than the CPU time it has used this process's
/// wall clock has run since `start` (the check's start): about 1 on an idle
/// machine, about the load divided by the cores on a busy one; at least 1
/// and at most [`LOAD_FACTOR_MAX`]. The CPU time counts this process and
/// the children it has waited for (`opt`), whose time the check's wall
/// clock includes. Where the CPU time cannot be read, 1.
pub fn load_factor(start: Instant) -> u32 {
    use nix::sys::resource::{getrusage, UsageWho};
    let cpu = |who| {
        getrusage(who).map_or(Duration::ZERO, |u| {
            let t = |v: nix::sys::time::TimeVal| {
                Duration::from_micros(
                    u64::try_from(v.tv_sec()).unwrap_or(0) * 1_000_000
                        + u64::try_from(v.tv_usec()).unwrap_or(0),
                )
            };
            t(u.user_time()) + t(u.system_time())
        })
    };
    let used = cpu(UsageWho::RUSAGE_SELF) + cpu(UsageWho::RUSAGE_CHILDREN);
    let wall = start.elapsed();
    if used < Duration::from_millis(50) {
        return 1;
    }
    let ratio = wall.as_secs_f64() / used.as_secs_f64();
    // A ratio in [1, LOAD_FACTOR_MAX]: the cast cannot truncate.
    ratio.clamp(1.0, f64::from(LOAD_FACTOR_MAX)).ceil() as u32
}

/// [`HUNT_WORK_PER_MINUTE`] for a time budget of `timeout` (at least one
/// unit: a budget of none would bound nothing).
pub fn hunt_work(timeout: Duration) -> u64 {
    let units = u128::from(HUNT_WORK_PER_MINUTE) * timeout.as_millis() / 60_000;
    u64::try_from(units).unwrap_or(u64::MAX).max(1)
}

/// How the product's search of untried values on one stage ended.
#[derive(Debug, PartialEq)]
enum Hunt {
    /// A counterexample, which now decides the stage.
    Found,
    /// The search ran to its end within the bounds and found none.
    NoneFound,
    /// The search stopped before its end, for this reason.
    Cut(String),
}

/// The stages of a batch as they are decided.
struct Batch {
    decided: Vec<Option<Decided>>,
    /// Why the simulation found no proof of each stage, where it ran.
    simulation: Vec<Option<String>>,
    /// Notes on how each stage was decided, before the others.
    notes: Vec<Vec<String>>,
    /// Whether the product may decide stages.
    product: bool,
    /// Whether the check only looks for counterexamples (`Policy::Batch`).
    search_only: bool,
}

/// What the explicit engine's coverage left untried, if anything.
pub(super) fn gaps(c: &Coverage) -> Option<String> {
    let mut g: Vec<String> = Vec::new();
    if !c.inexact.is_empty() {
        g.push(format!(
            "inexact domains of {}",
            c.inexact.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    if !c.capped.is_empty() {
        g.push("group sizes or indices capped".into());
    }
    (!g.is_empty()).then(|| g.join("; "))
}

/// Why a stage the explicit engine alone preserved is not decided when
/// the value domains of its oracles are inexact (issue 20 class m: the
/// values tried may miss one that matters), naming them; `None` when they
/// are exact. The thread index and the group size (`tid`, `N`) are left
/// out: where what decides them is inexact, every group size up to
/// `engine::space::INEXACT_GROUPS_UP_TO` is tried with every index (every
/// index of a fixed group up to `ALL_TIDS_UP_TO`), and the larger groups
/// are a bound the report names, as `max-iters` is.
pub(super) fn inexact(c: &Coverage) -> Option<String> {
    let names: Vec<&str> = c
        .inexact
        .keys()
        .map(String::as_str)
        .filter(|n| !matches!(*n, "tid" | "N"))
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            "inexact domains of {}: the explicit engine found no difference among the values \
             its domain analysis tried, and a value that matters may be missing (the symbolic \
             product, under the default engine or `--engine smt`, tries every value)",
            names.join(", ")
        )
    })
}

/// Under `auto`, the explicit engine's share: half of the time left (whole
/// seconds where that still leaves it a quarter), so that the product can
/// still decide what it leaves inconclusive.
fn explicit_share(budget: &Budget, deadline: Instant) -> Budget {
    let left = deadline.saturating_duration_since(Instant::now());
    let elapsed = budget.start.elapsed();
    let exact = elapsed + left / 2;
    let whole = Duration::from_secs(exact.as_secs());
    let half = if whole > elapsed + left / 4 {
        whole
    } else {
        exact
    };
    Budget {
        timeout: Some(half),
        ..*budget
    }
}
