//! Random IR functions and scenarios: the construction rules of `cfg_gen`
//! and `scenario`, and a random module run end to end with no kernel at
//! all (only `convcheck-ir`: `CfgProgram`, `paths`, `table`).

use arbitrary::{Arbitrary, Unstructured};
use convcheck_generators::cfg_gen::*;
use convcheck_generators::draw::seed_bytes;
use convcheck_generators::scenario::scenario;
use convcheck_generators::*;
use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, Bounds, Event};
use convcheck_ir::paths::{compatible, enumerate};
use convcheck_ir::print::module_text;
use convcheck_ir::{table, CallKind, Expr, InstKind, OpKind, Term};
use convcheck_lang::sema::Kernel;

fn case(config: &CfgConfig, seed: u64) -> CfgCase {
    generate_cfg(config, &mut Unstructured::new(&seed_bytes(seed, 512)))
}

#[test]
fn cfgs_follow_their_configuration() {
    let mut irreducible = 0;
    let mut cyclic = 0;
    for seed in 0..500 {
        let c = case(&CfgConfig::default(), seed);
        let n = c.cfg().blocks.len();
        assert_eq!(
            reachable(c.cfg()).len(),
            n,
            "seed {seed}: unreachable block"
        );
        let info = CycleInfo::compute(c.cfg());
        cyclic += usize::from(!info.cycles.is_empty());
        irreducible += usize::from(!is_reducible(c.cfg()));
        assert_eq!(is_reducible(c.cfg()), info.is_reducible(), "seed {seed}");
        let r = case(
            &CfgConfig {
                irreducible: false,
                ..CfgConfig::default()
            },
            seed,
        );
        assert!(is_reducible(r.cfg()), "seed {seed}: irreducible");
        assert!(CycleInfo::compute(r.cfg()).is_reducible());
    }
    assert!(
        cyclic > 200 && irreducible > 15,
        "{cyclic} cyclic, {irreducible} irreducible"
    );
    let mut some_unreachable = false;
    for seed in 0..200 {
        let c = case(
            &CfgConfig {
                unreachable: true,
                ..CfgConfig::default()
            },
            seed,
        );
        some_unreachable |= reachable(c.cfg()).len() < c.cfg().blocks.len();
    }
    assert!(some_unreachable);
}

#[test]
fn cfgs_run_within_the_bounds() {
    let bounds = Bounds {
        max_iters: 2,
        max_paths: 1_000,
        ..Bounds::default()
    };
    let mut complete = 0;
    for seed in 0..100 {
        let c = case(&CfgConfig::default(), seed);
        let program = c.program();
        let set = enumerate(&program, 0, 0, 2, bounds);
        // Every cycle decides on every turn, so nothing runs out of bounds
        // whatever its oracles; only the path limit may be reached.
        if let Some(why) = &set.incomplete {
            assert!(why.contains("max-paths"), "seed {seed}: {why}");
        } else {
            complete += 1;
        }
    }
    assert!(complete > 70, "{complete}");
}

/// The capability the IR seam is for: a random function is generated as a
/// self-describing module, and the IR alone runs it, enumerates its paths
/// and builds trace tables of its convergent operations, with no kernel
/// anywhere (this file names `Kernel` only for kernel scenarios below).
#[test]
fn random_ir_functions_run_without_a_kernel() {
    let bounds = Bounds {
        max_iters: 1,
        max_paths: 200,
        ..Bounds::default()
    };
    let (mut tables, mut calls, mut observes, mut columns) = (0, 0, 0, 0);
    let mut scenarios = 0;
    for seed in 0..150 {
        let c = case(&CfgConfig::default(), seed);
        let m = &c.module;
        let text = module_text(m);
        // The module describes everything its function uses.
        assert_eq!(m.functions.len(), 1);
        assert_eq!(m.entry(None), Ok(0), "{text}");
        for b in &c.cfg().blocks {
            let origin = b.origin.expect("every block has an origin");
            assert_eq!(m.label(origin), b.name, "{text}");
            for i in &b.insts {
                let op = m.op(i.sid).expect("every instruction's op is in the table");
                match &i.kind {
                    InstKind::Observe => {
                        observes += 1;
                        assert_eq!(op.kind, OpKind::Observe, "{text}");
                        assert!(op.label.starts_with('O'), "{text}");
                    }
                    InstKind::Eval(Expr::Call {
                        op: call,
                        kind: CallKind::Op(o),
                        callee,
                        args,
                    }) => {
                        calls += 1;
                        assert_eq!(*call, i.sid);
                        assert_eq!(op.kind, OpKind::Call(CallKind::Op(*o)), "{text}");
                        assert_eq!(m.oracles[*o].name, *callee, "{text}");
                        assert!(args.is_empty());
                    }
                    other => panic!("seed {seed}: unexpected instruction {other:?}\n{text}"),
                }
            }
            match &b.term {
                Term::CondBr {
                    cond: Expr::Oracle(o),
                    ..
                } => assert_eq!(m.oracles[*o].domain, vec![0, 1], "{text}"),
                Term::Switch {
                    value: Expr::Oracle(o),
                    ..
                } => assert_eq!(m.oracles[*o].domain, vec![0, 1, 2], "{text}"),
                Term::Br(_) | Term::Ret(None) => {}
                t => panic!("seed {seed}: unexpected terminator {t:?}\n{text}"),
            }
        }
        // Run it: paths of two threads, and the trace table of each
        // compatible pair.
        let program = CfgProgram::new(m.clone());
        let sets = [0, 1].map(|t| enumerate(&program, 0, t, 2, bounds));
        if sets.iter().any(|s| s.incomplete.is_some()) {
            continue;
        }
        for p in sets[0].paths.iter().take(4) {
            for q in sets[1].paths.iter().take(4) {
                if !compatible(m, p, q) {
                    continue;
                }
                let runs: Vec<&[Event]> = vec![&p.trace.events, &q.trace.events];
                let t = table::build(m, vec!["tid 0".into(), "tid 1".into()], &runs)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
                let ops = |e: &[Event]| e.iter().filter(|e| e.is_convergent_op()).count();
                let cells: usize = t.cells.iter().flatten().flatten().count();
                assert_eq!(cells, ops(runs[0]) + ops(runs[1]), "seed {seed}\n{text}");
                tables += 1;
                columns += t.width();
            }
        }
        // And a random scenario of its oracles. Values past a thread's
        // list are 0, which keeps some cycles turning for ever; such a run
        // stops on its fuel. The fuel is small because a header's key grows
        // by one atom per turn, so a run's cost is quadratic in its length
        // (10,000 steps made this test take 25 s instead of 1 s).
        let s = scenario(m, 3, 3, &mut Unstructured::new(&seed_bytes(seed, 256)));
        s.validate(m).unwrap();
        if let Ok(traces) = run_scenario(&program, 0, &s, 1_000) {
            assert_eq!(traces.len(), 3);
            scenarios += 1;
        }
    }
    assert!(
        tables > 300 && calls > 20 && observes > 50 && columns > tables && scenarios > 50,
        "{tables} tables ({columns} columns), {calls} calls, {observes} observation points, \
         {scenarios} scenarios run to the end"
    );
}

#[test]
fn same_seed_same_module_byte_for_byte() {
    for config in [
        CfgConfig::default(),
        CfgConfig {
            irreducible: false,
            unreachable: true,
            max_observations_per_block: 2,
            ..CfgConfig::default()
        },
    ] {
        for seed in [0, 1, 42, 1 << 40, u64::MAX] {
            let a = case(&config, seed);
            let b = case(&config, seed);
            assert_eq!(a, b);
            assert_eq!(module_text(&a.module), module_text(&b.module));
        }
        assert_ne!(case(&config, 1).text(), case(&config, 2).text());
    }
    // Through `arbitrary` too, whose `Debug` is the module's text.
    for seed in 0..20 {
        let bytes = seed_bytes(seed, 600);
        let a = ArbCfg::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        let b = ArbCfg::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        let debug = format!("{a:?}");
        let (first, rest) = debug.split_once('\n').unwrap();
        assert!(first.starts_with("; CfgConfig"), "{debug}");
        assert_eq!(rest, module_text(&a.case.module));
    }
}

#[test]
fn zero_input_gives_the_smallest_module() {
    let c = generate_cfg(&CfgConfig::default(), &mut Unstructured::new(&[]));
    assert_eq!(
        c.text(),
        "module \"random-cfg\"\nop #0 stmt \"entry\" in @kernel at 0:0-0:0\n\n\
         define void @kernel() {\nentry: origin #0\n  ret void\n}\n"
    );
}

#[test]
fn scenarios_validate_and_use_domains() {
    for seed in 0..200 {
        let f = generate_seeded(&Config::default(), seed);
        let k = Kernel::new("g.c", f).unwrap();
        let m = k.module();
        let s = scenario(&m, 4, 5, &mut Unstructured::new(&seed_bytes(seed, 1024)));
        assert_eq!(s.threads.len(), 4);
        s.validate(&m).unwrap();
        for t in &s.threads {
            for (name, vals) in &t.0 {
                let o = &k.oracles[k.oracle_ids[name]];
                assert!(vals.iter().all(|v| o.domain.contains(v)));
            }
        }
    }
}
