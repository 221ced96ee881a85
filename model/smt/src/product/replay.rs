//! From a model to a confirmed counterexample: the model is decoded into a
//! concrete scenario (group size, the two thread ids, each thread's oracle
//! values in evaluation order) and both programs are run on it by the
//! explicit interpreter (`convcheck_ir::exec::run_thread`), which decides
//! the failing property with the same comparisons as the explicit engine
//! (`checker/src/engine.rs`: observable events as strings, instances
//! matched by label and occurrence, converged-with by keys). The SMT
//! engine finds, the interpreter confirms (DESIGN.md 2.5); a model that
//! does not replay is a bug of the encoding, reported as such.

use super::symex::Run;
use super::{Counterexample, Globals, Property};
use convcheck_ir::convergence::relate_events;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::observe::{describe_difference, observable, refines, Observe};
use convcheck_ir::exec::{run_thread, Bounds, Stop, Trace};
use convcheck_ir::key::Rel;
use convcheck_ir::scenario::{ThreadValues, ValuesSource};
use convcheck_ir::{FuncId, Module};
use std::collections::BTreeMap;
use z3::ast::{Bool, BV};
use z3::Model;

/// A scenario read from a model.
pub(crate) struct Decoded {
    pub group: u32,
    pub tids: [u32; 2],
    pub values: [ThreadValues; 2],
}

fn value(model: &Model, v: &BV) -> Result<u64, String> {
    model
        .eval(v, true)
        .and_then(|x| x.as_u64())
        .ok_or_else(|| "internal: the model has no value for a bit-vector".to_string())
}

pub(crate) fn holds(model: &Model, b: &Bool) -> bool {
    model
        .eval(b, true)
        .and_then(|x| x.as_bool())
        .unwrap_or(false)
}

/// Reads the scenario of a model: every oracle value any of `runs` (one
/// pair of threads per program) reads.
pub(crate) fn decode(
    model: &Model,
    g: &Globals,
    runs: &[[Run; 2]],
    names: &[String],
) -> Result<Decoded, String> {
    let group = value(model, &g.n)?;
    let t0 = value(model, &g.tid[0])?;
    let t1 = value(model, &g.tid[1])?;
    let narrow = |x: u64| {
        u32::try_from(x).map_err(|_| format!("internal: the model's value {x} is not a u32"))
    };
    let mut values = [ThreadValues::default(), ThreadValues::default()];
    for (i, tv) in values.iter_mut().enumerate() {
        for (name, label) in names.iter().enumerate() {
            let mut count = 0;
            for per in runs {
                count = count.max(value(model, &per[i].counts[name])?);
                if per[i]
                    .invariant
                    .iter()
                    .any(|(n, guard)| *n == name && holds(model, guard))
                {
                    count = count.max(1);
                }
            }
            if count == 0 {
                continue;
            }
            let f = &g.streams[name][i];
            let mut list = Vec::new();
            for k in 0..count {
                let at = f
                    .apply(&[&BV::from_u64(k, g.w)])
                    .as_bv()
                    .ok_or("internal: stream sort")?;
                list.push(value(model, &at)? as i64);
            }
            tv.0.insert(label.clone(), list);
        }
        // Free memory locations, by the names the interpreter asks for.
        for per in runs {
            for (guard, space, bytes, addr, phase, v, gen) in &per[i].free_reads {
                if !holds(model, guard) {
                    continue;
                }
                let phase = match phase {
                    Some(p) => Some(value(model, p)? as u32),
                    None => None,
                };
                let gen = match gen {
                    Some(g) => value(model, g)? as u32,
                    None => 0,
                };
                // The interpreter names free memory per byte; a read of
                // several bytes (the uniformity oracle's, `symex::memory`)
                // gives each of its bytes.
                let (at, whole) = (value(model, addr)? as i64, value(model, v)?);
                for k in 0..*bytes {
                    let name = convcheck_ir::exec::memory::clobbered_location_name(
                        *space,
                        at.wrapping_add(i64::from(k)),
                        1,
                        phase,
                        gen,
                    );
                    tv.0.insert(name, vec![((whole >> (8 * k)) & 0xff) as i64]);
                }
            }
            // Function oracles' values, by argument list.
            for (guard, oracle, args, v) in &per[i].fn_reads {
                if !holds(model, guard) {
                    continue;
                }
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(value(model, a)? as i64);
                }
                let name = convcheck_ir::exec::memory::function_value_name(oracle, &vals);
                tv.0.insert(name, vec![value(model, v)? as i64]);
            }
        }
    }
    Ok(Decoded {
        group: narrow(group)?,
        tids: [narrow(t0)?, narrow(t1)?],
        values,
    })
}

/// Convergent instances by (label, occurrence): those whose convergence
/// property 2 compares (`Event::is_compared_op`).
fn matched(module: &Module, t: &Trace, allow: bool) -> BTreeMap<(String, usize), usize> {
    let how = Observe::behaviour(module, allow);
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for (i, e) in t.events.iter().enumerate() {
        if !how.compares(e) {
            continue;
        }
        let l = module.label(e.sid).to_string();
        let n = count.entry(l.clone()).or_insert(0);
        out.insert((l, *n), i);
        *n += 1;
    }
    out
}

fn run(
    program: &CfgProgram,
    entry: FuncId,
    tid: u32,
    group: u32,
    max_iters: u32,
    values: &ThreadValues,
) -> Result<Trace, String> {
    let bounds = Bounds {
        max_iters,
        fuel: 10_000_000,
        ..Bounds::default()
    };
    let mut src = ValuesSource(values);
    let (trace, res) = run_thread(program, entry, tid, group, bounds, &mut src);
    match res {
        Ok(()) => Ok(trace),
        Err(Stop::Cut(w) | Stop::OutOfBounds(w) | Stop::Ub(w)) => Err(w),
        Err(Stop::Need { .. }) => Err("a value source ran dry".into()),
    }
}

/// Why a model is not a counterexample.
#[derive(Debug)]
pub(crate) struct NoReplay {
    /// The runs differ only in events the query compares and single-thread
    /// behaviour does not (unused loads, plain barriers:
    /// `convcheck_ir::exec::observe`).
    pub hidden_only: bool,
    /// The target's run is one the reference makes on the same scenario
    /// by another choice of its own (`OracleClass::Choice`): not a
    /// counterexample, but the query does not search those choices, so
    /// another model may hide a real one (`Replay::chosen_otherwise`).
    pub chosen: bool,
    /// What happened.
    pub why: String,
}

impl NoReplay {
    fn stops(why: String) -> NoReplay {
        NoReplay {
            hidden_only: false,
            chosen: false,
            why,
        }
    }
}

/// The programs and bounds a replay runs.
pub(crate) struct Replay<'a> {
    pub reference: &'a CfgProgram,
    pub target: &'a CfgProgram,
    /// The entry function of the reference and of the target.
    pub entries: [FuncId; 2],
    pub max_iters: u32,
    pub target_iters: u32,
    pub allow: bool,
}

impl Replay<'_> {
    /// Whether the reference, run on `values` with its own choices
    /// (`OracleClass::Choice`, `freeze undef`) set otherwise
    /// (`observe::choice_settings`), shows the target's events `b`.
    fn chosen_otherwise(
        &self,
        tid: u32,
        group: u32,
        values: &ThreadValues,
        b: &[convcheck_ir::exec::observe::Obs],
        how: Observe,
    ) -> bool {
        let module = &self.reference.module;
        let choices = convcheck_ir::exec::observe::choice_names(module);
        if choices.is_empty() {
            return false;
        }
        let constants = convcheck_ir::exec::observe::choice_constants(module);
        convcheck_ir::exec::observe::choice_settings(values, &choices, b, &constants, 256)
            .iter()
            .any(|v| {
                run(
                    self.reference,
                    self.entries[0],
                    tid,
                    group,
                    self.max_iters,
                    v,
                )
                .is_ok_and(|t| refines(&observable(module, &t, how), b))
            })
    }

    /// Runs the scenario and names the property it breaks; `Err` if it
    /// breaks none (the model did not replay).
    pub fn confirm(&self, d: Decoded) -> Result<Counterexample, NoReplay> {
        let mut rt = Vec::new();
        let mut tt = Vec::new();
        for i in 0..2 {
            let (tid, v) = (d.tids[i], &d.values[i]);
            rt.push(
                run(
                    self.reference,
                    self.entries[0],
                    tid,
                    d.group,
                    self.max_iters,
                    v,
                )
                .map_err(|w| {
                    NoReplay::stops(format!("the reference run of tid {tid} stops: {w}"))
                })?,
            );
            tt.push(
                run(
                    self.target,
                    self.entries[1],
                    tid,
                    d.group,
                    self.target_iters,
                    v,
                )
                .map_err(|w| NoReplay::stops(format!("the target run of tid {tid} stops: {w}")))?,
            );
        }
        let (rm, tm) = (&self.reference.module, &self.target.module);
        let (how_r, how_t) = (
            Observe::behaviour(rm, self.allow),
            Observe::behaviour(tm, self.allow),
        );
        for i in 0..2 {
            let (a, b) = (observable(rm, &rt[i], how_r), observable(tm, &tt[i], how_t));
            if refines(&a, &b) {
                continue;
            }
            let tid = d.tids[i];
            if self.chosen_otherwise(tid, d.group, &d.values[i], &b, how_r) {
                return Err(NoReplay {
                    hidden_only: false,
                    chosen: true,
                    why: format!(
                        "the target's run of tid {tid} ({}) is one the reference makes by \
                         another choice of its own `freeze undef` values",
                        d.values[i].render()
                    ),
                });
            }
            return Ok(Counterexample {
                property: Property::SingleThreadBehaviour,
                group: d.group,
                tids: vec![tid],
                threads: vec![d.values[i].clone()],
                message: describe_difference(&a, &b, tid),
                op: None,
                reference: vec![rt[i].clone()],
                target: vec![tt[i].clone()],
            });
        }
        let rmatch: Vec<_> = rt.iter().map(|t| matched(rm, t, self.allow)).collect();
        let tmatch: Vec<_> = tt.iter().map(|t| matched(tm, t, self.allow)).collect();
        for (ka, &a) in &rmatch[0] {
            for (kb, &b) in rmatch[1].range((ka.0.clone(), 0)..(ka.0.clone(), usize::MAX)) {
                let (Some(&ta), Some(&tb)) = (tmatch[0].get(ka), tmatch[1].get(kb)) else {
                    continue;
                };
                let (ra, rb) = (&rt[0].events[a], &rt[1].events[b]);
                let r = relate_events(ra, rb);
                let t = relate_events(&tt[0].events[ta], &tt[1].events[tb]);
                let converged = match (&r, &t) {
                    (Rel::Converged, Rel::Apart) => true,
                    (Rel::Apart, Rel::Converged) => false,
                    _ => continue,
                };
                let what = |c: bool| if c { "converged" } else { "not converged" };
                return Ok(Counterexample {
                    property: Property::Convergence,
                    group: d.group,
                    tids: d.tids.to_vec(),
                    threads: d.values.to_vec(),
                    message: format!(
                        "`{}` (occurrence {} in tid {}, {} in tid {}) is {} in the reference but {} in the target",
                        ka.0,
                        ka.1 + 1,
                        d.tids[0],
                        kb.1 + 1,
                        d.tids[1],
                        what(converged),
                        what(!converged)
                    ),
                    op: Some(ra.sid),
                    reference: rt,
                    target: tt,
                });
            }
        }
        let all = Observe::everything();
        let hidden_only =
            (0..2).any(|i| !refines(&observable(rm, &rt[i], all), &observable(tm, &tt[i], all)));
        Err(NoReplay {
            hidden_only,
            chosen: false,
            why: format!(
                "both programs agree on the scenario (group {}, tids {:?}, values {} | {})",
                d.group,
                d.tids,
                d.values[0].render(),
                d.values[1].render()
            ),
        })
    }
}
