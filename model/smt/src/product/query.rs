//! The checking query (DESIGN.md 2.5 use 2, 2.7) over the four symbolic
//! runs: threads 0 and 1, each running the reference and the target on
//! the same oracle streams.
//!
//! **Scenario.** Thread ids `t0 != t1`, both below the group size `N`;
//! `N >= 2` and below 2^32 (the interpreter's `u32`), or `N` fixed. Uniform
//! oracles (LLVM's UniformityAnalysis meaning): two reads of the reference
//! at the same *read site* (the copy, the instruction, the invocation and
//! the read's place in the instruction's expression) by both threads, that
//! is in one converged dynamic instance, return equal values. Only the
//! reference constrains the scenario: it is the program whose semantics
//! says which scenarios are legal.
//!
//! **Single-thread behaviour** (property 1). For thread `i`, a fresh
//! position `K_i` and, per program, a fresh *descriptor* of the event at
//! that position: `(g_e /\ pos_e = K_i) -> D = desc_e` for every event
//! `e` (exactly one event of a run has a given position, so this only names
//! it). The sequences differ iff the lengths differ or, below both
//! lengths, the descriptors (tag, values, predicate) differ at some
//! `K_i`: linear in the events, no pairs of events. Where a run is
//! compared as two projections (`symex`, `Exec::event`), the second's
//! positions start at [`Globals::second`], and both lengths count.
//!
//! **Convergence** (property 2). Instances are matched by (thread, label,
//! occurrence). When the observable sequences are equal (otherwise
//! property 1 already fails), the `n`-th instance of a label sits at the
//! same position in both programs, so matching by position is matching by
//! occurrence. With the descriptors also naming the event's site: at
//! positions `K_0`, `K_1` the reference has convergent operations of one
//! label and `(S_ref0 = S_ref1) != (S_tgt0 = S_tgt1)`. The satisfying
//! scenarios of `P1 \/ P2` are exactly those of property 1 or property 2.
//!
//! **Hazards** (property 3) follow from properties 1 and 2 unless barriers
//! may be removed ([`super::support`]).
//!
//! Each part is behind an assumption literal, so that one solver answers
//! the query, the vacuity check and the bound reports.

use super::symex::Run;
use super::Globals;
use crate::Unknown;
use std::time::Instant;
use z3::ast::{Bool, BV};
use z3::Solver;

/// The bits needed for values `0..=n`.
pub(crate) fn width_for(n: u64) -> u32 {
    (64 - n.leading_zeros()).max(1)
}

/// What one run's event at a chosen position is.
pub(crate) struct Desc {
    pub tag: BV,
    /// The values the event carries (an address, a convergent operation's
    /// arguments), padded with zeros to the longest list of any event (the
    /// tag fixes how many an event has).
    pub vals: Vec<BV>,
    /// Where each value is defined (`Ev::defined`; true where it cannot
    /// be poison).
    pub defs: Vec<Bool>,
    pub pred: Bool,
    pub label: BV,
    pub site: BV,
    pub convergent: Bool,
}

/// The encoded query: the solver with every definition asserted, and the
/// assumption literals that select a question.
pub(crate) struct Query {
    pub solver: Solver,
    /// z3's memory budget in MiB, for the message when it is reached
    /// (set by the caller; see `super::memory_watermark`).
    pub memory_mb: u64,
    /// The work budget its queries share with the rest of a search (set
    /// by the caller; `None`: each query's own bound alone).
    pub work: Option<super::check::WorkAccount>,
    /// The reference is neither cut nor stuck, in both threads.
    pub ref_ok: Bool,
    /// The reference is neither cut nor stuck and is defined under the
    /// scenario's end of memory (`symex::Run::reach`), in both threads
    /// (`ref_ok` fixes that end at `u64::MAX`).
    pub ref_defined: Bool,
    /// The reference is not cut, in both threads.
    pub ref_in_bounds: Bool,
    /// The target is neither cut nor stuck, in both threads.
    pub tgt_ok: Bool,
    /// Property 1 or property 2 fails.
    pub violated: Bool,
    /// The target is cut in some thread.
    pub tgt_cut: Bool,
    /// Some run is stuck.
    pub stuck: Bool,
    /// The target has undefined behaviour in some thread (asked with
    /// `ref_defined`).
    pub tgt_ub: Bool,
    /// The reference is cut in some thread.
    pub ref_cut: Bool,
    /// Property 1 fails for thread 0 / 1; property 2 fails.
    pub parts: [Bool; 3],
    /// The width of site numbers.
    pub site_w: u32,
    /// The width of tags.
    pub tag_w: u32,
    /// The most values any event carries.
    pub arity: usize,
}

fn or_all(terms: &[Bool]) -> Bool {
    match terms {
        [] => Bool::from_bool(false),
        [one] => one.clone(),
        _ => Bool::or(terms),
    }
}

fn and_all(terms: &[Bool]) -> Bool {
    match terms {
        [] => Bool::from_bool(true),
        [one] => one.clone(),
        _ => Bool::and(terms),
    }
}

/// Which positions of the events a comparison reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Positions {
    /// Every event's (`Ev::pos`): every load and barrier compared.
    All,
    /// The visible events' (`Ev::vpos`): what single-thread behaviour
    /// compares (`symex::event`).
    Visible,
}

/// The lengths of `run` (both projections) under `p`.
fn lengths(run: &Run, p: Positions) -> (&BV, Option<&BV>) {
    match p {
        Positions::All => (&run.len, run.len2.as_ref()),
        Positions::Visible => (&run.vlen, run.vlen2.as_ref()),
    }
}

/// Whether position `k` holds an event of `run`: below its length, or, in
/// the second projection ([`Globals::second`]), from its offset to its
/// end.
fn at_event(g: &Globals, k: &BV, run: &Run, p: Positions) -> Bool {
    let (len, len2) = lengths(run, p);
    match (g.second, len2) {
        (Some(off), Some(end)) => Bool::or(&[
            k.bvult(len),
            Bool::and(&[k.bvuge(BV::from_u64(off, g.w)), k.bvult(end)]),
        ]),
        _ => k.bvult(len),
    }
}

/// The time budget ran out while the query was built, with `n` `what`
/// (definitions or events) in the run being asserted.
fn ran_out(n: usize, what: &str) -> Unknown {
    Unknown::time(format!(
        "timeout: the time budget ran out while building the query ({n} {what})"
    ))
}

/// A literal `l` with `l -> f` asserted.
fn literal(solver: &Solver, name: &str, f: &Bool) -> Bool {
    let l = Bool::fresh_const(name);
    solver.assert(l.implies(f));
    l
}

/// Builds the query. `runs[p][i]` is program `p` (0 reference, 1 target)
/// run by thread `i`; `tags` and `sites` bound the numbers used. Stops
/// with a time [`Unknown`] at `deadline` (checked at every event: a large
/// unrolling asserts hundreds of thousands of them).
pub(crate) fn build(
    g: &Globals,
    runs: &[[Run; 2]; 2],
    group: Option<u32>,
    tags: usize,
    sites: [usize; 2],
    deadline: Instant,
) -> Result<Query, Unknown> {
    let solver = Solver::new_for_logic("QF_UFBV").unwrap_or_default();
    for per in runs {
        for run in per {
            for d in &run.defs {
                // z3 simplifies each assertion as it is asserted, which is
                // not bounded by the solver's timeout: a long run's
                // definitions are where the time goes before any check.
                if Instant::now() >= deadline {
                    return Err(ran_out(run.defs.len(), "definitions"));
                }
                solver.assert(d);
            }
        }
    }
    // The scenario.
    let [t0, t1] = &g.tid;
    let n = &g.n;
    solver.assert(t0.eq(t1).not());
    solver.assert(t0.bvult(n));
    solver.assert(t1.bvult(n));
    match group {
        Some(size) => solver.assert(n.eq(BV::from_u64(u64::from(size), 64))),
        None => {
            solver.assert(n.bvuge(BV::from_u64(2, 64)));
            solver.assert(n.bvule(BV::from_u64(g.max_group, 64)));
        }
    }
    // Uniform reads of the reference, pairwise by read site.
    for (s0, name0, g0, v0) in &runs[0][0].uniform {
        for (s1, name1, g1, v1) in &runs[0][1].uniform {
            if s0 == s1 && name0 == name1 {
                solver.assert(Bool::and(&[g0.clone(), g1.clone()]).implies(v0.eq(v1)));
            }
        }
    }
    let tag_w = width_for(tags as u64);
    let arity = runs
        .iter()
        .flat_map(|per| per.iter())
        .flat_map(|r| r.events.iter())
        .map(|e| e.vals.len())
        .max()
        .unwrap_or(0);
    let site_w = width_for(sites[0].max(sites[1]) as u64);
    let widths = Widths {
        tag_w,
        site_w,
        arity,
    };
    let (p1, p2) = compare(&solver, g, runs, widths, Positions::All, deadline)?;
    // Whether any of a run's conditions of one kind holds.
    let any = |cs: &[(Bool, String)]| or_all(&cs.iter().map(|c| c.0.clone()).collect::<Vec<_>>());
    let cut = |p: usize, i: usize| any(&runs[p][i].cut);
    let stuck = |p: usize, i: usize| any(&runs[p][i].stuck);
    let ub = |p: usize, i: usize| any(&runs[p][i].ub);
    // A scenario in which the reference has undefined behaviour constrains
    // nothing; the target's is asked about on its own (`tgt_ub`).
    let ref_in = and_all(&[cut(0, 0).not(), cut(0, 1).not()]);
    let ref_ok = and_all(&[
        ref_in.clone(),
        stuck(0, 0).not(),
        stuck(0, 1).not(),
        ub(0, 0).not(),
        ub(0, 1).not(),
    ]);
    let tgt_ok = and_all(&[
        cut(1, 0).not(),
        cut(1, 1).not(),
        stuck(1, 0).not(),
        stuck(1, 1).not(),
        ub(1, 0).not(),
        ub(1, 1).not(),
    ]);
    // The end of memory of pointers of unknown origin (`Run::reach`):
    // every run goes on as if it were `u64::MAX`. The reference is defined
    // under the scenario's end where each of its comparisons holds; the
    // target has undefined behaviour where one of its own fails. Every
    // other question fixes the end at `u64::MAX` (in `ref_ok`): a
    // difference of events, a cut or a stop with both programs defined
    // under some end is one under the largest, since a larger end only
    // makes more comparisons hold.
    let reach = |p: usize, i: usize| runs[p][i].reach.iter();
    let at_max: Vec<Bool> = (0..2)
        .flat_map(|p| (0..2).flat_map(move |i| reach(p, i)))
        .map(|(_, _, e)| e.eq(BV::from_i64(-1, 64)))
        .collect();
    let ref_reach: Vec<Bool> = (0..2)
        .flat_map(|i| reach(0, i))
        .map(|(g, x, e)| g.implies(x.bvule(e)))
        .collect();
    let tgt_over: Vec<Bool> = (0..2)
        .flat_map(|i| reach(1, i))
        .map(|(g, x, e)| Bool::and(&[g.clone(), x.bvule(e).not()]))
        .collect();
    // (Without such comparisons the formulas are the ones before, made in
    // the same order: z3's models, and so the counterexamples reported,
    // stay.)
    let ref_defined = (!at_max.is_empty()).then(|| and_all(&[ref_ok.clone(), and_all(&ref_reach)]));
    let ref_ok = if at_max.is_empty() {
        ref_ok
    } else {
        and_all(&[ref_ok, and_all(&at_max)])
    };
    let any_stuck = or_all(&[stuck(0, 0), stuck(0, 1), stuck(1, 0), stuck(1, 1)]);
    let ref_ok_lit = literal(&solver, "ref_ok", &ref_ok);
    Ok(Query {
        memory_mb: 0,
        work: None,
        ref_defined: match &ref_defined {
            None => ref_ok_lit.clone(),
            Some(d) => literal(&solver, "ref_defined", d),
        },
        ref_ok: ref_ok_lit,
        ref_in_bounds: literal(&solver, "ref_in", &ref_in),
        tgt_ok: literal(&solver, "tgt_ok", &tgt_ok),
        violated: literal(
            &solver,
            "violated",
            &Bool::or(&[p1[0].clone(), p1[1].clone(), p2.clone()]),
        ),
        tgt_cut: literal(&solver, "tgt_cut", &Bool::or(&[cut(1, 0), cut(1, 1)])),
        stuck: literal(&solver, "stuck", &any_stuck),
        tgt_ub: literal(
            &solver,
            "tgt_ub",
            &if tgt_over.is_empty() {
                Bool::or(&[ub(1, 0), ub(1, 1)])
            } else {
                or_all(&[ub(1, 0), ub(1, 1), or_all(&tgt_over)])
            },
        ),
        ref_cut: literal(&solver, "ref_cut", &Bool::or(&[cut(0, 0), cut(0, 1)])),
        parts: [p1[0].clone(), p1[1].clone(), p2],
        site_w,
        tag_w,
        arity,
        solver,
    })
}

/// The widths and arity of the descriptors.
#[derive(Clone, Copy)]
struct Widths {
    tag_w: u32,
    site_w: u32,
    arity: usize,
}

/// Properties 1 (per thread) and 2 over the events at positions `p`:
/// the descriptors' definitions go to `solver`.
fn compare(
    solver: &Solver,
    g: &Globals,
    runs: &[[Run; 2]; 2],
    widths: Widths,
    p: Positions,
    deadline: Instant,
) -> Result<(Vec<Bool>, Bool), Unknown> {
    let Widths {
        tag_w,
        site_w,
        arity,
    } = widths;
    let v = if p == Positions::Visible { "v" } else { "" };
    let k: [BV; 2] = [
        BV::fresh_const(&format!("{v}k0"), g.w),
        BV::fresh_const(&format!("{v}k1"), g.w),
    ];
    let mut desc: Vec<Vec<Desc>> = Vec::new();
    for (pi, per) in runs.iter().enumerate() {
        let mut ds = Vec::new();
        for (i, run) in per.iter().enumerate() {
            let d = Desc {
                tag: BV::fresh_const(&format!("{v}tag{pi}{i}"), tag_w),
                vals: (0..arity)
                    .map(|j| BV::fresh_const(&format!("{v}val{pi}{i}.{j}"), 64))
                    .collect(),
                defs: (0..arity)
                    .map(|j| Bool::fresh_const(&format!("{v}def{pi}{i}.{j}")))
                    .collect(),
                pred: Bool::fresh_const(&format!("{v}pred{pi}{i}")),
                label: BV::fresh_const(&format!("{v}label{pi}{i}"), tag_w),
                site: BV::fresh_const(&format!("{v}site{pi}{i}"), site_w),
                convergent: Bool::fresh_const(&format!("{v}conv{pi}{i}")),
            };
            for e in &run.events {
                if Instant::now() >= deadline {
                    return Err(ran_out(run.events.len(), "events"));
                }
                let pos = match p {
                    Positions::All => &e.pos,
                    Positions::Visible => match &e.vpos {
                        Some(vp) => vp,
                        None => continue,
                    },
                };
                let here = Bool::and(&[e.guard.clone(), pos.eq(&k[i])]);
                let mut is = vec![d.tag.eq(BV::from_u64(u64::from(e.tag), tag_w))];
                for (v, slot) in d.vals.iter().enumerate() {
                    is.push(
                        slot.eq(e
                            .vals
                            .get(v)
                            .cloned()
                            .unwrap_or_else(|| BV::from_u64(0, 64))),
                    );
                }
                for (v, slot) in d.defs.iter().enumerate() {
                    is.push(match e.defined_at(v) {
                        Some(b) => slot.eq(b),
                        None => slot.clone(),
                    });
                }
                is.extend([
                    d.pred
                        .eq(e.pred.clone().unwrap_or_else(|| Bool::from_bool(false))),
                    d.site.eq(BV::from_u64(u64::from(e.site), site_w)),
                    d.convergent.eq(Bool::from_bool(e.convergent)),
                ]);
                if e.convergent {
                    is.push(d.label.eq(BV::from_u64(u64::from(e.label), tag_w)));
                }
                solver.assert(here.implies(Bool::and(&is)));
            }
            ds.push(d);
        }
        desc.push(ds);
    }
    // Property 1, per thread: the lengths (of both projections, where
    // there are two) or the events at `K_i` differ.
    let mut p1 = Vec::new();
    for i in 0..2 {
        let (rr, rt) = (&runs[0][i], &runs[1][i]);
        let (dr, dt) = (&desc[0][i], &desc[1][i]);
        let mut diff = vec![dr.tag.eq(&dt.tag).not(), dr.pred.eq(&dt.pred).not()];
        // LangRef's refinement of an observed value: where the reference's
        // is poison the target's may be anything; elsewhere the target's
        // must be defined and equal.
        for (j, (a, b)) in dr.vals.iter().zip(&dt.vals).enumerate() {
            diff.push(Bool::and(&[
                dr.defs[j].clone(),
                Bool::or(&[dt.defs[j].not(), a.eq(b).not()]),
            ]));
        }
        let differs = Bool::or(&diff);
        let ((lr, lr2), (lt, lt2)) = (lengths(rr, p), lengths(rt, p));
        let mut alt = vec![lr.eq(lt).not()];
        if let (Some(a), Some(b)) = (lr2, lt2) {
            alt.push(a.eq(b).not());
        }
        alt.push(Bool::and(&[
            at_event(g, &k[i], rr, p),
            at_event(g, &k[i], rt, p),
            differs,
        ]));
        if p == Positions::Visible {
            alt.push(segments(g, rr, rt, i));
        }
        p1.push(Bool::or(&alt));
    }
    // Property 2.
    let mut within = Vec::new();
    for i in 0..2 {
        within.push(at_event(g, &k[i], &runs[0][i], p));
        within.push(at_event(g, &k[i], &runs[1][i], p));
    }
    let (r0, r1, g0, g1) = (&desc[0][0], &desc[0][1], &desc[1][0], &desc[1][1]);
    within.push(r0.convergent.clone());
    within.push(r1.convergent.clone());
    within.push(r0.label.eq(&r1.label));
    within.push(r0.site.eq(&r1.site).xor(g0.site.eq(&g1.site)));
    let p2 = Bool::and(&within);
    Ok((p1, p2))
}

/// Property 1 or 2 fails over the visible events alone (`symex::event`:
/// loads of byte-addressed memory that are not volatile and plain
/// barriers judged by hazards left out), as a literal of `q`'s solver:
/// what a search asks again when its model's runs differ only in hidden
/// events. Built on demand (its descriptors double the query's).
pub(crate) fn visible(
    g: &Globals,
    runs: &[[Run; 2]; 2],
    q: &Query,
    deadline: Instant,
) -> Result<Bool, Unknown> {
    let widths = Widths {
        tag_w: q.tag_w,
        site_w: q.site_w,
        arity: q.arity,
    };
    let (p1, p2) = compare(&q.solver, g, runs, widths, Positions::Visible, deadline)?;
    Ok(literal(
        &q.solver,
        "violated_visible",
        &Bool::or(&[p1[0].clone(), p1[1].clone(), p2]),
    ))
}

/// The last write of one run to a chosen byte in a chosen segment:
/// whether there is one, its byte, whether it is defined.
struct LastWrite {
    has: Bool,
    byte: BV,
    defined: Bool,
}

/// The last plain store of `run` (`Ev::seg`) to byte address `b` in
/// segment `k`: an if-then-else chain over the run's plain stores in the
/// order they were made (the events of one path are in that order; those
/// of different paths have exclusive guards).
fn last_write(run: &Run, k: &BV, b: &BV) -> LastWrite {
    let mut has = Bool::from_bool(false);
    let mut byte = BV::from_u64(0, 8);
    let mut defined = Bool::from_bool(true);
    for e in &run.events {
        let (Some((seg, width)), [addr, value, ..]) = (&e.seg, e.vals.as_slice()) else {
            continue;
        };
        let off = b.bvsub(addr);
        let hit = Bool::and(&[
            e.guard.clone(),
            seg.eq(k),
            off.bvult(BV::from_u64(u64::from(*width).min(8), 64)),
        ]);
        // The byte at `off` (below the width where `hit` holds): a case
        // split, cheaper for z3 than a shift by a variable.
        let w = (*width).clamp(1, 8);
        let mut here = value.extract(8 * w - 1, 8 * w - 8);
        for j in (0..w - 1).rev() {
            here = off
                .eq(BV::from_u64(u64::from(j), 64))
                .ite(&value.extract(8 * j + 7, 8 * j), &here);
        }
        let d = e
            .defined_at(1)
            .cloned()
            .unwrap_or_else(|| Bool::from_bool(true));
        byte = hit.ite(&here, &byte);
        defined = hit.ite(&d, &defined);
        has = Bool::or(&[hit, has]);
    }
    LastWrite { has, byte, defined }
}

/// The plain stores of the reference run `rr` and the target run `rt` of
/// thread `i` leave different bytes in some segment
/// (`convcheck_ir::exec::observe`'s canonical form: per segment, the last
/// value written to each byte, and the set of bytes written): for a fresh
/// segment `S_i` and byte address `B_i`, one run writes the byte there and
/// the other does not, or the reference's last value is defined and the
/// target's is poison or another. Linear in the stores.
fn segments(g: &Globals, rr: &Run, rt: &Run, i: usize) -> Bool {
    if !rr.events.iter().chain(&rt.events).any(|e| e.seg.is_some()) {
        return Bool::from_bool(false);
    }
    let k = BV::fresh_const(&format!("seg{i}"), g.w);
    let b = BV::fresh_const(&format!("byte{i}"), 64);
    let (r, t) = (last_write(rr, &k, &b), last_write(rt, &k, &b));
    Bool::or(&[
        r.has.xor(&t.has),
        Bool::and(&[
            r.has,
            t.has,
            r.defined,
            Bool::or(&[t.defined.not(), r.byte.eq(&t.byte).not()]),
        ]),
    ])
}
