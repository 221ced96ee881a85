//! Theorem 4, `simplifycfg`: SimplifyCFG's merge-block, and forward-empty
//! with keep-loops, preserve maximal convergence (DESIGN.md 2.7, items 1
//! and 2: every thread's observable events, and converged-with on matched
//! convergent operations); forward-empty without keep-loops does not.
//!
//! Domain: every CFG of four blocks (the entry never a target) with an
//! observation point in the entry and in every block of every choice of
//! the other blocks (each non-entry block holds one or is empty: the
//! empty ones are what forward-empty removes), and a fixed sample of CFGs
//! of five blocks. Every pair of threads, every value stream of the
//! branch oracle up to six values, every loop execution up to three
//! iterations (`convcheck_proofs::product`).
//!
//! Discharged by exhaustion over that domain with the interpreter's keys
//! (the reference is the input CFG's own semantics, LLVM's hierarchy).
//!
//! The mutant (the broken hypothesis): forward-empty with keep-loops off
//! folds an empty loop header into its predecessor, which is seed 000's
//! loop_nest becoming loop_continue: the domain holds such a CFG, and the
//! check finds the difference.

use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::Module;
use convcheck_proofs::product::{check, Limits};
use convcheck_proofs::report::{pick, proved, witness};
use convcheck_proofs::shapes;
use std::time::Instant;

/// The modules of the domain: every layout of ops over `succ`.
fn layouts(succ: &[Vec<usize>]) -> Vec<Module> {
    let n = succ.len();
    (0..1usize << (n - 1))
        .map(|mask| {
            let ops: Vec<bool> = (0..n)
                .map(|i| i == 0 || mask & (1 << (i - 1)) != 0)
                .collect();
            shapes::with_ops(succ, &ops)
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    modules: usize,
    changed: usize,
    pairs: usize,
    first_violation: Option<String>,
}

fn run_pass(name: &str, cfgs: &[Vec<Vec<usize>>], stop_at_violation: bool) -> Tally {
    let pass = convcheck_transforms::lookup(name).expect("a registry pass");
    let mut t = Tally::default();
    for succ in cfgs {
        if !shapes::all_reachable(succ) {
            continue;
        }
        for m in layouts(succ) {
            t.modules += 1;
            let mut out = m.clone();
            pass.run(&mut out).expect("the pass runs");
            if out.functions == m.functions {
                continue;
            }
            t.changed += 1;
            // The mutant's witness is sought among reducible CFGs: the
            // loop nest, not an irreducible region (whose reference
            // semantics is a set of relations).
            if stop_at_violation && !CycleInfo::compute(&m.functions[0]).is_reducible() {
                continue;
            }
            let v = check(
                &CfgProgram::new(m.clone()),
                &CfgProgram::new(out.clone()),
                Limits::default(),
            );
            t.pairs += v.pairs;
            if let Some((d, s0, s1)) = v.difference {
                let text = format!(
                    "{name} on CFG {succ:?} with ops {:?}: {d:?} (thread 0 values {s0:?}, thread 1 values {s1:?})",
                    m.ops.iter().skip(1).map(|o| o.label.as_str()).collect::<Vec<_>>()
                );
                if stop_at_violation {
                    t.first_violation = Some(text);
                    return t;
                }
                panic!("{text}");
            }
        }
    }
    t
}

fn domain() -> Vec<Vec<Vec<usize>>> {
    let mut v: Vec<_> = shapes::all(4).into_iter().step_by(pick(1, 3)).collect();
    v.extend(shapes::sample(5, pick(1_500, 150), 4));
    v
}

#[test]
fn simplifycfg() {
    let start = Instant::now();
    let cfgs = domain();
    let mut lines = Vec::new();
    for name in [
        "simplifycfg.merge-block",
        "simplifycfg.forward-empty<keep-loops>",
    ] {
        let t = run_pass(name, &cfgs, false);
        assert!(t.changed > 100, "{name} rewrote only {} modules", t.changed);
        lines.push(format!(
            "{name}: {} modules, {} rewritten, {} thread pairs",
            t.modules, t.changed, t.pairs
        ));
    }
    proved(
        "simplifycfg",
        &format!(
            "every 4-block CFG{} and {} sampled 5-block CFGs, ops in the entry and any subset of the other blocks, \
             every pair of threads, oracle streams up to 6 values, loops up to 3 iterations ({}); exhaustion; {:.1}s",
            pick("", " (every 3rd)"),
            pick(1_500, 150),
            lines.join("; "),
            start.elapsed().as_secs_f64()
        ),
    );
}

#[test]
fn simplifycfg_mutant_keep_loops_ignored() {
    // The search stops at the first violation, so it runs over the full
    // domain under every profile.
    let mut cfgs = shapes::all(4);
    cfgs.extend(shapes::sample(5, 1_500, 4));
    let t = run_pass("simplifycfg.forward-empty", &cfgs, true);
    let v = t
        .first_violation
        .expect("forward-empty without keep-loops must break convergence somewhere in the domain");
    witness("simplifycfg", &format!("keep-loops ignored: {v}"));
}
