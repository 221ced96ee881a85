//! The program shrinker and the shrinking of the three generator
//! interfaces (proptest, quickcheck, the shrinker's reductions).

use convcheck_generators::analysis::{is_valid, statement_count};
use convcheck_generators::shrink::reductions;
use convcheck_generators::*;
use convcheck_lang::syntax::ast::{File, StmtKind};
use convcheck_lang::syntax::print;
use proptest::test_runner::{Config as PtConfig, TestError, TestRunner};

/// The planted property: a barrier inside a loop.
fn barrier_in_loop(f: &File) -> bool {
    let mut found = false;
    for func in f.functions() {
        func.body.walk(&mut |s| {
            if s.is_loop() {
                s.walk(&mut |t| {
                    if let StmtKind::Expr(e) = &t.kind {
                        e.walk(&mut |x| {
                            if let convcheck_lang::syntax::ast::ExprKind::Call { callee, .. } =
                                &x.kind
                            {
                                found |= callee.starts_with("__syncthreads");
                            }
                        });
                    }
                });
            }
        });
    }
    found
}

#[test]
fn shrinks_a_planted_property_to_a_small_kernel() {
    let mut shrunk = 0;
    for seed in 0..200 {
        let f = generate_seeded(&Config::default(), seed);
        if !barrier_in_loop(&f) {
            continue;
        }
        let small = shrink_kernel(&f, |g| {
            assert!(is_valid(g, u32::MAX), "the predicate saw an invalid file");
            barrier_in_loop(g)
        });
        assert!(barrier_in_loop(&small));
        // `void kernel() { while (c) { __syncthreads(); } }`, or a `for (;;)`
        // with its guard, or a counted loop with its counter.
        assert!(
            statement_count(&small) <= 6,
            "seed {seed}: {} statements left:\n{}",
            statement_count(&small),
            print(&small)
        );
        shrunk += 1;
    }
    assert!(shrunk >= 10, "only {shrunk} kernels had the property");
}

#[test]
fn an_always_true_predicate_shrinks_to_the_empty_kernel() {
    for seed in 0..20 {
        let f = generate_seeded(&Config::default(), seed);
        let small = shrink_kernel(&f, |_| true);
        assert_eq!(print(&small), "void kernel() {\n}\n", "seed {seed}");
    }
}

#[test]
fn a_never_true_predicate_keeps_the_kernel() {
    let f = generate_seeded(&Config::default(), 3);
    assert!(shrink_kernel(&f, |_| false) == f);
}

#[test]
fn reductions_are_valid_and_smaller() {
    for seed in 0..30 {
        let f = generate_seeded(&Config::default(), seed);
        let n = print(&f).len();
        for r in reductions(f.clone()).take(50) {
            assert!(is_valid(&r, u32::MAX));
            assert!(
                print(&r).len() < n,
                "seed {seed}: a reduction is not smaller"
            );
        }
    }
}

#[test]
fn quickcheck_shrinks_to_valid_kernels() {
    use quickcheck::Arbitrary;
    let mut g = quickcheck::Gen::new(100);
    for _ in 0..20 {
        let k = QcKernel::arbitrary(&mut g);
        assert!(is_valid(&k.0, 2));
        for s in k.shrink().take(20) {
            assert!(is_valid(&s.0, u32::MAX));
        }
    }
    fn valid(k: QcKernel) -> bool {
        is_valid(&k.0, 2)
    }
    quickcheck::QuickCheck::new()
        .tests(50)
        .quickcheck(valid as fn(QcKernel) -> bool);
}

#[test]
fn proptest_shrinking_keeps_kernels_valid_and_makes_them_small() {
    // A property that fails on any kernel with a `while` loop: proptest
    // must report a minimal failing kernel, valid, with little else in it.
    // A fixed RNG keeps the test deterministic (proptest's default seed is
    // random per run, and greedy shrinking's end point depends on it).
    let config = PtConfig {
        cases: 512,
        failure_persistence: None,
        ..PtConfig::default()
    };
    let rng = proptest::test_runner::TestRng::deterministic_rng(
        proptest::test_runner::RngAlgorithm::ChaCha,
    );
    let mut runner = TestRunner::new_with_rng(config, rng);
    let result = runner.run(&strategies::kernel(Config::default()), |f| {
        assert!(is_valid(&f, 2), "proptest produced an invalid kernel");
        let has_while = constructs(&f).contains(&Construct::While);
        proptest::prop_assert!(!has_while);
        Ok(())
    });
    match result {
        Err(TestError::Fail(_, f)) => {
            assert!(constructs(&f).contains(&Construct::While));
            assert!(
                statement_count(&f) <= 8,
                "proptest's minimal case is large:\n{}",
                print(&f)
            );
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

proptest::proptest! {
    #![proptest_config(PtConfig { cases: 64, failure_persistence: None, ..PtConfig::default() })]

    #[test]
    fn swarm_strategy_kernels_are_valid((config, f) in strategies::swarm_kernel()) {
        proptest::prop_assert!(is_valid(&f, config.iteration_bound));
    }

    #[test]
    fn scenarios_fit_their_kernel((f, s) in strategies::kernel_and_scenario(Config::default(), 3)) {
        let k = convcheck_lang::sema::Kernel::new("g.c", f).unwrap();
        proptest::prop_assert_eq!(s.threads.len(), 3);
        proptest::prop_assert!(s.validate(&k.module()).is_ok());
    }
}
