//! Chunks of stages decide each stage as one stream of every stage does.

use super::super::{Allowance, Budget, Limits, Outcome, Side};
use super::compare_in_chunks;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::Bounds;
use convcheck_lang::lower::lower;

/// Seed 000's functions, each against a pipeline of four stages (itself,
/// SimplifyCFG without kept loops, which folds `loop_nest`'s loops into
/// one, itself again, then the fold again), decided on one stream, a stage
/// per chunk, and in chunks of a few events: the same outcome per stage,
/// counterexamples included, and the same coverage. A chunk that skipped a
/// stage, decided one against another stage's runs, or counted the pairs
/// per chunk would differ.
#[test]
fn chunks_decide_each_stage_as_one_stream() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/seed/ambiguity-source.c"
    );
    let kernel = crate::load_kernel(path).expect("the seed");
    let plain = CfgProgram::new(lower(&kernel, false));
    let mut folded = lower(&kernel, false);
    convcheck_transforms::lookup("simplifycfg<no-keep-loops>")
        .expect("the pass")
        .run(&mut folded)
        .expect("it runs");
    let folded = CfgProgram::new(folded);
    let limits = Limits {
        bounds: Bounds {
            max_iters: 2,
            ..Bounds::default()
        },
        group: 2,
    };
    let budget = Budget::default();
    let mut violated = 0;
    for entry in 0..plain.module.functions.len() {
        let r = Side::cfg(&plain, entry);
        let stages = [
            (Side::cfg(&plain, entry), Allowance::Exact),
            (Side::cfg(&folded, entry), Allowance::Exact),
            (Side::cfg(&plain, entry), Allowance::Exact),
            (Side::cfg(&folded, entry), Allowance::Exact),
        ];
        let run = |chunk| {
            let c = compare_in_chunks(&r, &stages, limits, &budget, &mut |_| {}, chunk);
            (format!("{:?}", c.outcomes), format!("{:?}", c.coverage), c)
        };
        let (one, one_cov, c) = run(usize::MAX);
        for chunk in [0, 40] {
            let (o, cov, _) = run(chunk);
            assert_eq!(o, one, "function {entry}, chunks of {chunk} events");
            assert_eq!(cov, one_cov, "function {entry}, chunks of {chunk} events");
        }
        assert!(c.coverage.pairs_total > 0, "function {entry}");
        violated += c
            .outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Violated(_)))
            .count();
    }
    // `loop_nest` folded, at stages 2 and 4.
    assert_eq!(violated, 2);
}
