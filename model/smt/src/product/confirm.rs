//! From a model of the query to the product's answer: the model is
//! replayed (`replay`) and, where its runs differ only in events that
//! single-thread behaviour does not compare, searched again.
//!
//! **Why a second search.** The query compares every load and every plain
//! barrier as an event (the proof by matching pairs them); single-thread
//! behaviour leaves out loads of byte-addressed memory that are not
//! volatile (their values are compared wherever they go) and plain
//! barriers judged by the hazards they leave
//! (`convcheck_ir::exec::observe`). A target that forwards a load's value
//! has one event fewer, so *every* scenario violates the query, and the
//! solver's first model is as likely as not one in which the forwarded
//! value happens to equal the loaded one (all values 0): it replays as no
//! difference. A wrong forward (across a barrier, across a call that may
//! write the location) differs in another scenario, which the first model
//! does not show. So on such a model the query is asked again with
//! property 1 and 2 over the *visible* events alone (`query::visible`):
//! a model of that is a scenario in which the observed events differ, and
//! replays as a counterexample; none means none within the bounds, said
//! so in the answer.

use super::check::check_limited;
use super::replay::{self, NoReplay, Replay};
use super::symex::Run;
use super::{query, Counterexample, Globals, Step, QUICK_RLIMIT};
use crate::{Answer, Unknown};
use convcheck_ir::exec::cfg::CfgProgram;
use std::time::Instant;
use z3::ast::{Bool, BV};
use z3::Model;

/// The work the second search gets where the attempt has no bound of its
/// own: a few times the quick query's, so that a query too large to
/// decide does not take the time the rest of the check needs.
const RETRY_RLIMIT: u32 = 4 * QUICK_RLIMIT;

/// What a confirmation needs of its attempt.
pub(super) struct Ctx<'a> {
    pub q: &'a query::Query,
    pub g: &'a Globals,
    pub runs: &'a [[Run; 2]; 2],
    pub names: &'a [String],
    pub replay: Replay<'a>,
    /// The fixed group size, if any.
    pub group: Option<u32>,
    pub deadline: Instant,
    /// The attempt's work bound (0 for none).
    pub rlimit: u32,
    pub reference: &'a CfgProgram,
    pub target: &'a CfgProgram,
}

impl Ctx<'_> {
    /// A model of `violated` (with the scenario's assumptions) in the
    /// smallest group that has one, starting from `model`.
    fn smallest(&self, model: Model, violated: &Bool, rlimit: u32) -> Result<Model, Unknown> {
        let a = [
            self.q.ref_ok.clone(),
            self.q.tgt_ok.clone(),
            violated.clone(),
        ];
        self.smallest_of(model, &a, rlimit)
    }

    /// A model of the assumptions `asked` in the smallest group that has
    /// one, starting from `model`.
    fn smallest_of(&self, model: Model, asked: &[Bool], rlimit: u32) -> Result<Model, Unknown> {
        if self.group.is_some() {
            return Ok(model);
        }
        for bound in [2u64, 8, 64] {
            let small = self.g.n.bvule(BV::from_u64(bound, 64));
            let mut a = asked.to_vec();
            a.push(small);
            if let Some(m) = check_limited(self.q, &a, self.deadline, rlimit)? {
                return Ok(m);
            }
        }
        Ok(model)
    }

    /// Replays `model`: `Err` for a scenario that does not decode.
    fn replay(&self, model: &Model) -> Result<Result<Counterexample, NoReplay>, Unknown> {
        let decoded =
            replay::decode(model, self.g, self.runs, self.names).map_err(Unknown::incomplete)?;
        Ok(self.replay.confirm(decoded))
    }

    /// The answer for a model that replays as no difference at all.
    fn not_replayed(&self, model: &Model, e: NoReplay) -> Answer<super::Preserved, Counterexample> {
        let parts: Vec<bool> = self
            .q
            .parts
            .iter()
            .map(|p| replay::holds(model, p))
            .collect();
        Answer::Unknown(
            // Float arithmetic is uninterpreted in the query (`fbv`): its
            // counterexample may hold for no IEEE arithmetic.
            if convcheck_ir::float::in_module(&self.reference.module)
                || convcheck_ir::float::in_module(&self.target.module)
            {
                Unknown::incomplete(format!(
                    "floating point: the product treats float arithmetic as uninterpreted \
                     functions, and its counterexample does not hold in IEEE arithmetic ({})",
                    e.why
                ))
            } else {
                Unknown::incomplete(format!(
                    "internal: model did not replay: {} (the model's failing parts: \
                     single-thread {} / {}, convergence {})",
                    e.why, parts[0], parts[1], parts[2]
                ))
            },
        )
    }

    /// The answer for `model`, a model of the query's `violated`.
    pub fn confirm(&self, model: Model) -> Step {
        let model = self.smallest(model, &self.q.violated, self.rlimit);
        self.confirm_model(model)
    }

    fn confirm_model(&self, model: Result<Model, Unknown>) -> Step {
        let model = match model {
            Ok(m) => m,
            Err(e) => return Step::Done(Answer::Unknown(e)),
        };
        Step::Done(match self.replay(&model) {
            Err(e) => Answer::Unknown(e),
            Ok(Ok(c)) => Answer::Counterexample(c),
            Ok(Err(e)) if e.hidden_only => self.again(e),
            Ok(Err(e)) if e.chosen => chosen(e),
            Ok(Err(e)) => self.not_replayed(&model, e),
        })
    }

    /// The second search, after a model whose runs differ only in hidden
    /// events (`first`).
    fn again(&self, first: NoReplay) -> Answer<super::Preserved, Counterexample> {
        // Plain barriers are judged by the hazards they leave, which the
        // query does not encode: a scenario that differs in them alone is
        // for the explicit engine.
        let hidden = |more: &str| {
            Answer::Unknown(Unknown::unsupported(format!(
                "not modelled: the product compares every load, plain barrier and plain store, \
                 and the programs differ only in loads (whose values single-thread behaviour \
                 compares where they go), in plain barriers (judged by the hazards they leave) or \
                 in the widths, order or number of non-atomic stores (compared by the bytes each \
                 segment between synchronisation points leaves) ({}); {more}",
                first.why
            )))
        };
        let rlimit = if self.rlimit > 0 {
            self.rlimit
        } else {
            RETRY_RLIMIT
        };
        let visible = match query::visible(self.g, self.runs, self.q, self.deadline) {
            Ok(v) => v,
            Err(e) => {
                return hidden(&format!(
                    "searching again for observed events that differ: {e}"
                ))
            }
        };
        let a = [
            self.q.ref_ok.clone(),
            self.q.tgt_ok.clone(),
            visible.clone(),
        ];
        let model = match check_limited(self.q, &a, self.deadline, rlimit)
            .and_then(|m| m.map(|m| self.smallest(m, &visible, rlimit)).transpose())
        {
            Err(e) => {
                return hidden(&format!(
                    "searching again for observed events that differ: {e}"
                ))
            }
            Ok(None) => return hidden(NO_VISIBLE_DIFFERENCE),
            Ok(Some(m)) => m,
        };
        match self.replay(&model) {
            Err(e) => Answer::Unknown(e),
            Ok(Ok(c)) => Answer::Counterexample(c),
            Ok(Err(e)) if e.hidden_only => hidden(&format!(
                "internal: searched again, and that model too differs only in them ({})",
                e.why
            )),
            Ok(Err(e)) if e.chosen => chosen(e),
            Ok(Err(e)) => self.not_replayed(&model, e),
        }
    }
}

/// The end of the reason of a search whose models differed only in hidden
/// events and that, searched again for observed events that differ, found
/// none: a search run to its end, not one the product could not make.
pub const NO_VISIBLE_DIFFERENCE: &str =
    "searched again: no scenario within bounds in which the observed events differ";

/// The answer for a model whose difference the reference makes too, by
/// another choice of its own `freeze undef` values: no counterexample, and
/// no proof either, since the query asks whether the programs differ for
/// *some* reference choice, not for every one (a ∀∃ question the product
/// does not ask; the explicit engine searches the reference's choices).
fn chosen(e: super::replay::NoReplay) -> Answer<super::Preserved, Counterexample> {
    Answer::Unknown(Unknown::unsupported(format!(
        "not modelled: the product's scenario is no counterexample, as {}; the product does \
         not search the reference's choices for one that every choice differs in",
        e.why
    )))
}
