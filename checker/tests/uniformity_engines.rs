//! Two engines on one question: on random functions of the uniformity
//! campaign, with every value claimed uniform (a printout of `ALL VALUES
//! UNIFORM`, so that nothing is excused), the symbolic query must report
//! as divergent every value the interpreter shows divergent on a grid of
//! concrete scenarios (thread pairs of a group of four, argument values 0
//! to 2), at the same iteration bound. The interpreter runs the IR by its
//! keys alone (`run_thread_recording`), the query is z3 over the unrolled
//! copies: a value the query calls uniform while a concrete run refutes it
//! would be a missed finding. (The other direction, a finding that does
//! not replay, is ruled out by construction: findings are replayed before
//! they are reported.) No LLVM tool is needed.

use convcheck::uniformity::{check_with_printout, UniformityConfig};
use convcheck_generators::uniform_fn::{generate_seeded, module_text, UniformFnConfig};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread_recording, Bounds, Stop};
use convcheck_ir::scenario::{ThreadValues, ValuesSource};
use convcheck_ir::InstKind;
use convcheck_llvm::to_ir::{to_module_with, MapOptions};
use std::collections::BTreeSet;
use std::time::Duration;

const MAX_ITERS: u32 = 2;

/// The values (by name) and branches (`%block`) the interpreter shows
/// divergent on the grid.
fn concrete_divergence(text: &str) -> BTreeSet<String> {
    let llvm = convcheck_llvm::parse_module(text, "f.ll").expect("generated text reads");
    let opts = MapOptions {
        every_value: true,
        opaque_calls: true,
        undef_oracle: true,
        unchecked_poison: true,
        ..Default::default()
    };
    let mapped = to_module_with(&llvm, "f.ll", &opts);
    assert!(mapped.skipped.is_empty(), "{:?}", mapped.skipped);
    let program = CfgProgram::new(mapped.module.clone());
    let cfg = &program.module.functions[0];
    let mut out = BTreeSet::new();
    let bounds = Bounds {
        max_iters: MAX_ITERS,
        fuel: 100_000,
        ..Bounds::default()
    };
    for a0 in 0..3i64 {
        for a1 in 0..3i64 {
            let mut v = ThreadValues::default();
            v.0.insert("a0".into(), vec![a0]);
            v.0.insert("a1".into(), vec![a1]);
            for (t0, t1) in [(0u32, 1u32), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
                let mut traces = Vec::new();
                for t in [t0, t1] {
                    let mut src = ValuesSource(&v);
                    let (trace, res) = run_thread_recording(&program, 0, t, 4, bounds, &mut src);
                    match res {
                        Ok(()) | Err(Stop::Cut(_)) => {}
                        Err(Stop::OutOfBounds(w)) if w.contains("max-iters=") => {}
                        Err(e) => panic!("tid {t}: {e:?}\n{text}"),
                    }
                    traces.push(trace);
                }
                for x in &traces[0].values {
                    for y in &traces[1].values {
                        if x.key != y.key || (x.block, x.inst) != (y.block, y.inst) {
                            continue;
                        }
                        // Generated values are i32, conditions 0 or 1.
                        if (x.value as i32) == (y.value as i32) {
                            continue;
                        }
                        let block = &cfg.blocks[x.block as usize];
                        match &x.name {
                            Some(n) => {
                                // The thread index itself is excused below.
                                if matches!(block.insts.get(x.inst as usize).map(|i| &i.kind),
                                    Some(InstKind::SetLocal { name, .. }) if name == "tid")
                                {
                                    continue;
                                }
                                out.insert(format!("%{n}"));
                            }
                            None => {
                                out.insert(format!("%{}", block.name));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn the_query_misses_no_divergence_that_concrete_runs_show() {
    let gen = UniformFnConfig::default();
    let config = UniformityConfig {
        max_iters: MAX_ITERS,
        timeout: Duration::from_secs(600),
        imprecision: false,
        unreached: false,
        rlimit: 50_000_000,
        ..UniformityConfig::default()
    };
    let mut compared = 0;
    let mut divergent = 0;
    for seed in 0..40u64 {
        let f = generate_seeded("f", &gen, seed);
        let text = module_text(std::slice::from_ref(&f));
        let printout = "UniformityInfo for function 'f':\nALL VALUES UNIFORM\n";
        let r = check_with_printout("f.ll", &text, printout, &config).expect("reads");
        let report = &r.functions[0];
        assert!(
            report.unknown.is_empty(),
            "seed {seed}: undecided {:?}",
            report.unknown
        );
        let found: BTreeSet<String> = report
            .findings
            .iter()
            .map(|x| match x.value.split_once(" in ") {
                // A branch: `br in %bb3` -> `%bb3`.
                Some((_, block)) => block.to_string(),
                None => x.value.clone(),
            })
            .collect();
        let concrete = concrete_divergence(&text);
        let missed: Vec<&String> = concrete.difference(&found).collect();
        assert!(
            missed.is_empty(),
            "seed {seed}: the interpreter shows {missed:?} divergent, the query does not \
             (it found {found:?})\n{text}\n{}",
            r.text()
        );
        compared += 1;
        divergent += concrete.len();
    }
    assert_eq!(compared, 40);
    assert!(
        divergent > 40,
        "the grid shows only {divergent} divergences"
    );
}
