//! Theorem 7, second half, `engine`: the symbolic product engine
//! (`convcheck_smt::product::compare`) and the explicit two-thread
//! comparison of `convcheck_proofs::product` agree on every
//! reference/target pair of a domain of small CFGs and passes.
//!
//! Agreement: (a) when the explicit comparison finds a difference, the
//! symbolic engine answers with a counterexample; (b) every counterexample
//! of the symbolic engine is genuine: its replayed runs show a difference
//! to the explicit comparison; (c) it never answers `unknown` (a failure,
//! as every SMT unknown in this crate). A symbolic `proved` where the
//! explicit comparison finds nothing is agreement.
//!
//! Domain: the rewrites of `simplifycfg.forward-empty` (with and without
//! keep-loops) and `simplifycfg.merge-block` of a sample of four-block
//! CFGs with ops (as in theorem 4), and of the unsafe hoist and sink of
//! the diamonds of theorem 6, both engines at three iterations per loop.
//!
//! The first half (the rule behind `proved` verdicts is sound for
//! iteration counts beyond the unrolling) is `tests/engine_rule.rs`.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::Module;
use convcheck_proofs::product::{self, check, Limits};
use convcheck_proofs::report::{pick, proved, witness};
use convcheck_proofs::shapes;
use convcheck_smt::product::{compare, ProductOptions};
use convcheck_smt::Answer;
use std::time::{Duration, Instant};

fn modules() -> Vec<Module> {
    // The loop nest theorem 4's mutant finds (an empty inner header that
    // forward-empty without keep-loops folds) comes first.
    let mut v = vec![shapes::with_ops(
        &[vec![2, 4], vec![3, 4], vec![], vec![1, 2], vec![3]],
        &[true, true, false, false, false],
    )];
    let mut cfgs: Vec<_> = shapes::all(4).into_iter().step_by(pick(3, 11)).collect();
    cfgs.extend(shapes::sample(5, pick(300, 60), 4));
    for succ in cfgs {
        if !shapes::all_reachable(&succ) {
            continue;
        }
        let n = succ.len();
        for mask in 0..1usize << (n - 1) {
            let ops: Vec<bool> = (0..n)
                .map(|i| i == 0 || mask & (1 << (i - 1)) != 0)
                .collect();
            v.push(shapes::with_ops(&succ, &ops));
        }
    }
    v
}

#[test]
fn engine() {
    let start = Instant::now();
    let opts = ProductOptions {
        max_iters: 2,
        timeout: Duration::from_secs(20),
        ..ProductOptions::default()
    };
    let limits = Limits {
        max_iters: 2,
        max_stream: 6,
    };
    let (mut pairs, mut both_violated, mut both_preserved, mut only_symbolic, mut no_run) =
        (0, 0, 0, 0, 0);
    let mut example = None;
    for m in modules() {
        for pass in [
            "simplifycfg.forward-empty",
            "simplifycfg.forward-empty<keep-loops>",
            "simplifycfg.merge-block",
        ] {
            let mut out = m.clone();
            convcheck_transforms::lookup(pass)
                .expect("a pass")
                .run(&mut out)
                .expect("runs");
            if out.functions == m.functions {
                continue;
            }
            let (r, t) = (CfgProgram::new(m.clone()), CfgProgram::new(out.clone()));
            // A reference with no run within the bounds (a cycle without
            // exit) has nothing to compare: both engines say so, the
            // symbolic one as unknown.
            if product::runs(&r, 0, limits).0.is_empty() {
                no_run += 1;
                continue;
            }
            pairs += 1;
            let explicit = check(&r, &t, limits).difference;
            match compare(&r, &t, 0, &opts) {
                Answer::Proved(_) => {
                    assert!(
                        explicit.is_none(),
                        "{pass}: symbolic proved, explicit found {explicit:?}"
                    );
                    both_preserved += 1;
                }
                Answer::Counterexample(c) => {
                    // The symbolic counterexample is genuine for the
                    // explicit comparison.
                    let b: Vec<product::Behaviour> = (0..c.reference.len().min(c.target.len()))
                        .map(|i| product::Behaviour {
                            streams: Default::default(),
                            reference: c.reference[i].clone(),
                            target: c.target[i].clone(),
                        })
                        .collect();
                    let genuine = match b.as_slice() {
                        [a] => product::compare(&m, &out, a, a).is_some(),
                        [a, x, ..] => product::compare(&m, &out, a, x).is_some(),
                        [] => false,
                    };
                    assert!(
                        genuine,
                        "{pass}: symbolic counterexample not confirmed: {}",
                        c.message
                    );
                    if explicit.is_some() {
                        both_violated += 1;
                        example.get_or_insert(format!("{pass}: {}", c.message));
                    } else {
                        only_symbolic += 1;
                    }
                }
                Answer::Unknown(why) => {
                    panic!("{pass}: the symbolic engine answered unknown: {why}")
                }
            }
        }
    }
    assert!(
        both_violated > 0 && both_preserved > 0,
        "{pairs} {both_preserved} {both_violated} {only_symbolic} {no_run}"
    );
    proved(
        "engine",
        &format!(
            "{pairs} rewrites by forward-empty (with and without keep-loops) and merge-block of {} modules over 4-block CFGs and sampled 5-block CFGs \
             with ops: the engines agree ({both_preserved} preserved by both, {both_violated} violated by both, {only_symbolic} \
             counterexamples only the symbolic engine found within its bounds, each confirmed by the explicit comparison); \
             loops up to 3 iterations ({no_run} rewrites of references without a run in bounds skipped); z3 and exhaustion; {:.1}s",
            modules().len(),
            start.elapsed().as_secs_f64()
        ),
    );
    witness(
        "engine",
        &format!("both engines reject {}", example.unwrap_or_default()),
    );
}
