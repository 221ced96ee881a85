//! The relational model in z3 (DESIGN.md 2.5) against the key engine
//! (DESIGN.md 2.3): LLVM's relational definition of maximal converged-with
//! has exactly one solution, the key relation, on every example and on
//! random CFGs; the source-level relational model classifies every pair of
//! instances as the keys do; a wrong key rule is caught; membership of a
//! relation in a set with choice variables.
//!
//! Examples run at the CFG level through a `CfgProgram` of their lowered
//! module and at the source level through a `SourceProgram`; random and
//! hand-written CFGs are IR modules of their own, with no kernel behind
//! them.

use convcheck_ir::convergence::{can_converge, can_stay_apart, relate_events};
use convcheck_ir::cycles::{all_hierarchies, Cycle, CycleInfo};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, Bounds, Event, EventKind};
use convcheck_ir::key::Rel;
use convcheck_ir::paths::{compatible, enumerate, Path};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::{Cfg, FuncId, Module};
use convcheck_lang::exec::SourceProgram;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_smt::{
    agrees_with_keys, agrees_with_keys_with, cfg_relation, is_member, maximal_convergence,
    maximal_convergence_with, source_relation, source_relation_with, Answer, Disagreement, Ix,
    NotMember, Options, PairRel, Reading, Target,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// The example kernel at `examples/{rel}`.
fn kernel(rel: &str) -> Kernel {
    let path = format!("{}/../../examples/{rel}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("example exists");
    Kernel::parse(&path, &src).unwrap_or_else(|d| panic!("{d}"))
}

/// Every example under examples/seed and examples/llvm, sorted.
fn examples() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["seed", "llvm"] {
        let full = format!("{}/../../examples/{dir}", env!("CARGO_MANIFEST_DIR"));
        for e in std::fs::read_dir(full).expect("examples dir") {
            let name = e.expect("entry").file_name().to_string_lossy().into_owned();
            if name.ends_with(".c") {
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    out.sort();
    out
}

fn bounds() -> Bounds {
    Bounds {
        max_iters: 2,
        ..Bounds::default()
    }
}

/// At most `cap` compatible pairs of paths (a path with itself included),
/// evenly spread over all of them, deterministically.
fn sample_pairs(module: &Module, paths: &[Path], cap: usize) -> Vec<(usize, usize)> {
    let mut all = Vec::new();
    for i in 0..paths.len() {
        for j in i..paths.len() {
            if compatible(module, &paths[i], &paths[j]) {
                all.push((i, j));
            }
        }
    }
    if all.len() <= cap {
        return all;
    }
    (0..cap).map(|n| all[n * all.len() / cap]).collect()
}

/// The block instances of the entry invocation (the events of the entry
/// function; no example calls its own entry).
fn entry_blocks(module: &Module, entry: FuncId, evs: &[Event]) -> Vec<Event> {
    evs.iter()
        .filter(|e| {
            matches!(e.kind, EventKind::Block(_))
                && module.op(e.sid).expect("an op of the module").func == entry
        })
        .cloned()
        .collect()
}

/// (a) On one example, for every function as the entry and every cycle
/// hierarchy of its CFG: the key relation is the unique solution of LLVM's
/// relational definition for up to 300 pairs of CFG paths; and for up to 40
/// pairs, the whole-program relation (calls and operations included) is
/// the key relation. Returns the number of pairs checked.
fn cfg_example_agrees(name: &str) -> usize {
    let k = kernel(name);
    let module = lower(&k, false);
    let mut checked = 0;
    for entry in 0..module.functions.len() {
        let hierarchies = all_hierarchies(&module.functions[entry], 16);
        for ci in &hierarchies {
            let mut program = CfgProgram::new(module.clone());
            program.cycles[entry] = ci.clone();
            let set = enumerate(&program, entry, 0, 2, bounds());
            assert!(set.incomplete.is_none(), "{name}: {:?}", set.incomplete);
            let blocks: Vec<Vec<Event>> = set
                .paths
                .iter()
                .map(|p| entry_blocks(&module, entry, &p.trace.events))
                .collect();
            for (i, j) in sample_pairs(&module, &set.paths, 300) {
                let r = agrees_with_keys(ci, &[&blocks[i], &blocks[j]]);
                assert_eq!(
                    r,
                    Answer::Proved(()),
                    "{name} `{}` under\n{}\npaths {:?} and {:?}",
                    module.functions[entry].name,
                    ci.describe(&module.functions[entry]),
                    set.paths[i].decisions,
                    set.paths[j].decisions
                );
                checked += 1;
            }
            for (i, j) in sample_pairs(&module, &set.paths, 40) {
                let runs: [&[Event]; 2] = [&set.paths[i].trace.events, &set.paths[j].trace.events];
                let Answer::Proved(rel) = cfg_relation(&program, &runs) else {
                    panic!("{name}: no unique whole-program relation");
                };
                for (&(a, b), &v) in &rel.converged {
                    let keys = runs[a.0][a.1].key == runs[b.0][b.1].key;
                    assert_eq!(v, keys, "{name}: t{}.{} t{}.{}", a.0, a.1, b.0, b.1);
                }
            }
        }
    }
    checked
}

/// The examples, in three groups of similar cost: every file under
/// examples/seed and examples/llvm is in exactly one.
const NESTED: &[&str] = &["seed/ambiguity-source.c"];
const LOOPS: &[&str] = &[
    "llvm/natural-loop.c",
    "seed/goto.c",
    "seed/iteration-statement.c",
    "seed/sequential-loop.c",
    "seed/divergent-exit-source.c",
];
const IRREDUCIBLE_AND_ACYCLIC: &[&str] = &[
    "seed/backwards-goto.c",
    "seed/duffs-device.c",
    "seed/jump-into-loop.c",
    "seed/crosslane-operation.c",
    "seed/sequential-branch.c",
    "seed/switch.c",
    "seed/thread-masks.c",
];

/// Examples whose fixed-count loops (3 and 8 iterations) run past these
/// tests' max-iters=2 on every path: the agreement of keys and relations
/// is checked on complete enumerations, so they are left out (the LLVM
/// tests and the corpus run them at their own bounds).
const BEYOND_BOUNDS: &[&str] = &[
    "llvm/find-tid.c",
    "llvm/lane-loop.c",
    "llvm/nested-find-tid.c",
    "llvm/plain-kernels.c",
];

#[test]
fn every_example_is_in_one_group() {
    let mut grouped: Vec<String> = [NESTED, LOOPS, IRREDUCIBLE_AND_ACYCLIC, BEYOND_BOUNDS]
        .concat()
        .iter()
        .map(|s| s.to_string())
        .collect();
    grouped.sort();
    assert_eq!(grouped, examples());
}

#[test]
fn cfg_keys_are_the_unique_maximal_relation_on_nested_loops() {
    // loop_continue, and loop_nest with its two nested cycles.
    let n: usize = NESTED.iter().map(|e| cfg_example_agrees(e)).sum();
    assert!(n > 300, "only {n} pairs");
}

#[test]
fn cfg_keys_are_the_unique_maximal_relation_on_loop_examples() {
    let n: usize = LOOPS.iter().map(|e| cfg_example_agrees(e)).sum();
    assert!(n > 200, "only {n} pairs");
}

#[test]
fn cfg_keys_are_the_unique_maximal_relation_on_irreducible_examples() {
    // Every hierarchy of the irreducible ones (jump-into-loop, Duff's
    // device, backwards goto), and the acyclic examples.
    let n: usize = IRREDUCIBLE_AND_ACYCLIC
        .iter()
        .map(|e| cfg_example_agrees(e))
        .sum();
    assert!(n > 300, "only {n} pairs");
}

// ---------------------------------------------------------------- random CFGs

/// A CFG from successor lists; blocks with two successors branch on `c`
/// (the shared constructor of `convcheck_ir::build`).
fn cfg_from_succs(succs: &[Vec<usize>]) -> Cfg {
    convcheck_ir::build::cfg_from_successors(succs)
}

/// A hand-built CFG `g` under the hierarchy `ci`, in a module of its own
/// whose tables say what its op and its oracle are.
fn program_of(g: &Cfg, ci: &CycleInfo) -> CfgProgram {
    CfgProgram {
        module: convcheck_ir::build::module_of(g.clone()),
        cycles: vec![ci.clone()],
    }
}

/// Random CFGs of `n` internal nodes and an exit: node `i` falls through
/// to `i + 1` (the last to the exit) and may branch to any node but the
/// entry, so every node reaches the exit and the entry is in no cycle.
fn random_succs() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (2usize..7).prop_flat_map(|n| {
        proptest::collection::vec(proptest::option::of(1..=n), n).prop_map(move |extra| {
            let mut succs: Vec<Vec<usize>> = extra
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let mut s = vec![i + 1];
                    if let Some(t) = x {
                        if *t != i + 1 {
                            s.push(*t);
                        }
                    }
                    s
                })
                .collect();
            succs.push(Vec::new());
            succs
        })
    })
}

/// The paths of a random CFG under a hierarchy.
fn random_paths(g: &Cfg, ci: &CycleInfo) -> Vec<Vec<Event>> {
    let program = program_of(g, ci);
    let b = Bounds {
        max_iters: 2,
        fuel: 5_000,
        max_depth: 4,
        max_paths: 300,
    };
    // Paths of at most 24 block instances keep every query small (the
    // general encoding with three threads grows with the cube of the
    // length).
    enumerate(&program, 0, 0, 2, b)
        .paths
        .into_iter()
        .map(|p| p.trace.events)
        .filter(|e| e.len() <= 24)
        .collect()
}

/// Deterministic runs (the failing cases proptest finds are kept in
/// smt.proptest-regressions), and a bound on shrinking.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_0025),
        max_shrink_time: 30_000,
        ..ProptestConfig::default()
    }
}

fn describe_cfg(succs: &[Vec<usize>]) -> String {
    succs
        .iter()
        .enumerate()
        .map(|(i, s)| format!("n{i}->{s:?}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn blocks_of(evs: &[Event]) -> Vec<u32> {
    evs.iter()
        .filter_map(|e| match e.kind {
            EventKind::Block(b) => Some(b),
            _ => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(config(500))]

    /// (b) On random CFGs, under a random valid hierarchy, for random pairs
    /// of paths, the key relation is the unique solution of the relational
    /// definition. `Unknown` fails too.
    #[test]
    fn random_cfgs_keys_are_the_unique_maximal_relation(
        succs in random_succs(),
        h in any::<usize>(),
        picks in proptest::collection::vec((any::<usize>(), any::<usize>()), 2),
    ) {
        let g = cfg_from_succs(&succs);
        let hs = all_hierarchies(&g, 8);
        let ci = &hs[h % hs.len()];
        let paths = random_paths(&g, ci);
        prop_assume!(!paths.is_empty());
        for (i, j) in picks {
            let (p, q) = (&paths[i % paths.len()], &paths[j % paths.len()]);
            let r = agrees_with_keys(ci, &[p, q]);
            prop_assert_eq!(
                &r, &Answer::Proved(()),
                "CFG {}\nhierarchy {}\npaths {:?} {:?}",
                describe_cfg(&succs), ci.describe(&g), blocks_of(p), blocks_of(q)
            );
        }
    }
}

proptest! {
    #![proptest_config(config(150))]

    /// The same with groups of three threads: LLVM's definition is stated
    /// over the whole group (convergence-before through a third thread,
    /// transitivity), and its unique solution is still the pairwise key
    /// relation.
    #[test]
    fn random_cfgs_three_threads(
        succs in random_succs(),
        h in any::<usize>(),
        pick in (any::<usize>(), any::<usize>(), any::<usize>()),
    ) {
        let g = cfg_from_succs(&succs);
        let hs = all_hierarchies(&g, 8);
        let ci = &hs[h % hs.len()];
        let paths = random_paths(&g, ci);
        prop_assume!(!paths.is_empty());
        let n = paths.len();
        let runs = [&paths[pick.0 % n][..], &paths[pick.1 % n][..], &paths[pick.2 % n][..]];
        let r = agrees_with_keys(ci, &runs);
        prop_assert_eq!(
            &r, &Answer::Proved(()),
            "CFG {}\nhierarchy {}\npaths {:?} {:?} {:?}",
            describe_cfg(&succs), ci.describe(&g),
            blocks_of(runs[0]), blocks_of(runs[1]), blocks_of(runs[2])
        );
    }
}

proptest! {
    #![proptest_config(config(150))]

    /// The two-thread encoding (a grid for convergence-before, no ranks)
    /// and the general one (explicit convergence-before from every header
    /// instance, ranks) find the same unique relation.
    #[test]
    fn two_thread_encoding_equals_the_general_one(
        succs in random_succs(),
        h in any::<usize>(),
        pick in (any::<usize>(), any::<usize>()),
    ) {
        let g = cfg_from_succs(&succs);
        let hs = all_hierarchies(&g, 8);
        let ci = &hs[h % hs.len()];
        let paths = random_paths(&g, ci);
        prop_assume!(!paths.is_empty());
        let n = paths.len();
        let runs = [&paths[pick.0 % n][..], &paths[pick.1 % n][..]];
        let general = Options { general: true, ..Options::default() };
        let a = maximal_convergence(ci, &runs);
        let b = maximal_convergence_with(ci, &runs, general);
        prop_assert!(a.is_proved());
        prop_assert_eq!(a, b, "CFG {}", describe_cfg(&succs));
    }
}

/// The finding behind [`Reading::Class`]: with three threads, the reading
/// of "without assuming X1 ~ X2" that only removes the pair itself admits
/// a second solution. CFG n0 -> n1 -> n2 -> {n3, n1}, n3 -> {n4, n1} (one
/// natural loop, header n1). Thread 2 leaves after two iterations, threads
/// 0 and 1 after three; the second solution converges thread 2's n3 of
/// iteration 1 with the n3 of iteration 2 of threads 0 and 1: each of the
/// two pairs is justified, without itself, by the other through the third
/// thread. Removing the whole class's edges into X2 restores uniqueness.
#[test]
fn three_threads_need_the_class_reading() {
    let succs = vec![vec![1], vec![2], vec![3, 1], vec![4, 1], vec![]];
    let g = cfg_from_succs(&succs);
    let ci = CycleInfo::compute(&g);
    let program = program_of(&g, &ci);
    // Decisions at n2 (1: on to n3, 0: back to n1) and n3 (1: exit).
    let scenario = Scenario {
        threads: ["c=1,0,0,1,1", "c=0,0,1,1", "c=1,0,1,1"]
            .iter()
            .map(|t| ThreadValues::parse(t).expect("values"))
            .collect(),
    };
    let traces = run_scenario(&program, 0, &scenario, 10_000).expect("runs");
    let runs: Vec<&[Event]> = traces.iter().map(|t| t.events.as_slice()).collect();
    assert_eq!(blocks_of(runs[0]), vec![0, 1, 2, 3, 1, 2, 1, 2, 3, 4]);
    assert_eq!(blocks_of(runs[1]), vec![0, 1, 2, 1, 2, 1, 2, 3, 4]);
    assert_eq!(blocks_of(runs[2]), vec![0, 1, 2, 3, 1, 2, 3, 4]);
    assert_eq!(agrees_with_keys(&ci, &runs), Answer::Proved(()));
    let pair = Options {
        reading: Reading::Pair,
        ..Options::default()
    };
    match agrees_with_keys_with(&ci, &runs, pair) {
        Answer::Counterexample(Disagreement::NotUnique { differs }) => {
            assert_eq!(
                differs,
                vec![((0, 8), (2, 6), false), ((1, 7), (2, 6), false)]
            );
        }
        other => panic!("{other:?}"),
    }
    // Each pair of threads alone has a unique solution under both.
    for (x, y) in [(0, 1), (0, 2), (1, 2)] {
        let two = [runs[x], runs[y]];
        assert_eq!(agrees_with_keys_with(&ci, &two, pair), Answer::Proved(()));
    }
}

// ------------------------------------------------------------- source level

/// The key engine's classification of a pair of instances of two threads.
fn key_class(runs: [&[Event]; 2], a: usize, b: usize) -> PairRel {
    match relate_events(&runs[0][a], &runs[1][b]) {
        Rel::Converged => PairRel::Converged,
        Rel::Apart => PairRel::Apart,
        Rel::Open(_) => match (can_converge(runs, a, b), can_stay_apart(runs, a, b)) {
            (true, true) => PairRel::Open,
            (true, false) => PairRel::Converged,
            _ => PairRel::Apart,
        },
    }
}

/// (c) On every example and function, for up to 30 pairs of source paths,
/// z3's classification of every pair of instances of one statement equals
/// the key engine's. Returns the count of each class.
fn source_example_agrees(name: &str) -> BTreeMap<PairRel, usize> {
    let k = kernel(name);
    let source = SourceProgram::new(&k).expect("compiles");
    let mut count = BTreeMap::new();
    for entry in 0..k.functions.len() {
        let set = enumerate(&source, entry, 0, 2, bounds());
        assert!(set.incomplete.is_none(), "{name}: {:?}", set.incomplete);
        for (i, j) in sample_pairs(&source.module, &set.paths, 30) {
            let (p, q) = (&set.paths[i], &set.paths[j]);
            let runs: [&[Event]; 2] = [&p.trace.events, &q.trace.events];
            let c = match source_relation(&k, &runs) {
                Answer::Proved(c) => c,
                other => panic!("{name}: {other:?}"),
            };
            // Every pair of instances of one statement is classified.
            let mut expected = 0;
            for a in runs[0] {
                expected += runs[1].iter().filter(|b| b.sid == a.sid).count();
            }
            assert_eq!(c.pairs.len(), expected, "{name}: some pairs unclassified");
            for (&(a, b), &rel) in &c.pairs {
                let keys = key_class(runs, a.1, b.1);
                assert_eq!(
                    rel,
                    keys,
                    "{name} `{}`: `{}` t0.{} / t1.{} on paths {:?} {:?} (keys {} / {})",
                    k.functions[entry].name,
                    k.label(runs[0][a.1].sid),
                    a.1,
                    b.1,
                    p.decisions,
                    q.decisions,
                    runs[0][a.1].key,
                    runs[1][b.1].key
                );
                *count.entry(rel).or_insert(0) += 1;
            }
        }
    }
    count
}

#[test]
fn source_relation_equals_keys_on_structured_examples() {
    let mut total: BTreeMap<PairRel, usize> = BTreeMap::new();
    for name in examples() {
        if ["jump-into", "duffs", "backwards"]
            .iter()
            .any(|s| name.contains(s))
            || BEYOND_BOUNDS.contains(&name.as_str())
        {
            continue;
        }
        for (r, n) in source_example_agrees(&name) {
            *total.entry(r).or_insert(0) += n;
        }
    }
    assert!(total[&PairRel::Converged] > 100 && total[&PairRel::Apart] > 100);
    assert!(!total.contains_key(&PairRel::Open));
}

/// The source level through the general encoding gives the same
/// classification as through the two-thread one.
#[test]
fn source_relation_general_encoding_agrees() {
    let general = Options {
        general: true,
        ..Options::default()
    };
    for name in [
        "seed/backwards-goto.c",
        "seed/iteration-statement.c",
        "seed/duffs-device.c",
    ] {
        let k = kernel(name);
        let source = SourceProgram::new(&k).expect("compiles");
        let set = enumerate(&source, 0, 0, 2, bounds());
        for (i, j) in sample_pairs(&source.module, &set.paths, 8) {
            let runs: [&[Event]; 2] = [&set.paths[i].trace.events, &set.paths[j].trace.events];
            let a = source_relation(&k, &runs).proved().expect("answer").pairs;
            let b = source_relation_with(&k, &runs, general)
                .proved()
                .expect("answer")
                .pairs;
            assert_eq!(a, b, "{name}");
        }
    }
}

#[test]
fn source_relation_equals_keys_on_implementation_defined_examples() {
    for name in [
        "seed/jump-into-loop.c",
        "seed/duffs-device.c",
        "seed/backwards-goto.c",
    ] {
        let count = source_example_agrees(name);
        assert!(
            count.get(&PairRel::Open).copied().unwrap_or(0) > 10,
            "{name}: {count:?}"
        );
        assert!(
            count.get(&PairRel::Converged).copied().unwrap_or(0) > 10,
            "{name}"
        );
    }
}

/// Three threads at the source level: every pair the keys determine is
/// determined the same way by z3 (open pairs may be narrowed by the third
/// thread, so only determined ones are compared).
#[test]
fn source_relation_three_threads() {
    for name in [
        "seed/iteration-statement.c",
        "seed/goto.c",
        "llvm/natural-loop.c",
        "seed/backwards-goto.c",
    ] {
        let k = kernel(name);
        let source = SourceProgram::new(&k).expect("compiles");
        let set = enumerate(&source, 0, 0, 3, bounds());
        let n = set.paths.len();
        for s in 0..8 {
            let ix = [s % n, (s * 5 + 1) % n, (s * 11 + 2) % n];
            let runs: Vec<&[Event]> = ix
                .iter()
                .map(|&i| set.paths[i].trace.events.as_slice())
                .collect();
            let Answer::Proved(c) = source_relation(&k, &runs) else {
                panic!("{name}: no answer");
            };
            for (&(a, b), &rel) in &c.pairs {
                match relate_events(&runs[a.0][a.1], &runs[b.0][b.1]) {
                    Rel::Converged => assert_eq!(rel, PairRel::Converged, "{name}"),
                    Rel::Apart => assert_eq!(rel, PairRel::Apart, "{name}"),
                    Rel::Open(_) => {}
                }
            }
        }
    }
}

// --------------------------------------------------- documented examples

/// LLVM ConvergenceAndUniformity's natural-loop table (notes 1.5), decided
/// by the relational definition alone: H1 ~ H2, B1 and B2 apart (H4 is not
/// convergence-before B1), H3 ~ H4, H3 and H5 apart, L1 ~ L2, L3 ~ L4, L3
/// and L5 apart.
#[test]
fn llvm_natural_loop_by_the_relational_definition() {
    let k = kernel("llvm/natural-loop.c");
    let program = CfgProgram::new(lower(&k, false));
    let scenario = Scenario {
        threads: ["c1=1,0 c2=1,0", "c1=0,1,1 c2=1,1,0"]
            .iter()
            .map(|t| ThreadValues::parse(t).expect("values"))
            .collect(),
    };
    let traces = run_scenario(&program, 0, &scenario, 10_000).expect("runs");
    let runs: Vec<&[Event]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let cfg = &program.module.functions[0];
    let name = |t: usize, i: usize| match runs[t][i].kind {
        EventKind::Block(b) => cfg.blocks[b as usize].name.clone(),
        _ => String::new(),
    };
    // The n-th (from 1) instance of the block named `b` in thread `t`.
    let nth = |t: usize, b: &str, n: usize| -> Ix {
        let i = (0..runs[t].len())
            .filter(|&i| name(t, i) == b)
            .nth(n - 1)
            .expect("instance exists");
        (t, i)
    };
    let Answer::Proved(rel) = maximal_convergence(&program.cycles[0], &runs) else {
        panic!("no unique relation");
    };
    let (h, b, l) = ("do.body", "if.then", "if.end");
    // Thread 1 (doc's numbering): H1 B1 L1 H3 L3; thread 2: H2 L2 H4 B2 L4 H5 B3 L5.
    assert_eq!(rel.get(nth(0, h, 1), nth(1, h, 1)), Some(true), "H1 ~ H2");
    assert_eq!(rel.get(nth(0, b, 1), nth(1, b, 1)), Some(false), "B1 / B2");
    assert_eq!(rel.get(nth(0, h, 2), nth(1, h, 2)), Some(true), "H3 ~ H4");
    assert_eq!(rel.get(nth(0, h, 2), nth(1, h, 3)), Some(false), "H3 / H5");
    assert_eq!(rel.get(nth(0, l, 1), nth(1, l, 1)), Some(true), "L1 ~ L2");
    assert_eq!(rel.get(nth(0, l, 2), nth(1, l, 2)), Some(true), "L3 ~ L4");
    assert_eq!(rel.get(nth(0, l, 2), nth(1, l, 3)), Some(false), "L3 / L5");
}

// ------------------------------------------------------ a wrong key rule

/// Drops cycle `c` (and renumbers) from a hierarchy.
fn drop_cycle(ci: &CycleInfo, c: usize) -> CycleInfo {
    let mut out = ci.clone();
    out.cycles.remove(c);
    for cy in out.cycles.iter_mut() {
        cy.parent = match cy.parent {
            Some(p) if p == c => None,
            Some(p) if p > c => Some(p - 1),
            p => p,
        };
    }
    for l in out.containing.iter_mut() {
        l.retain(|&x| x != c);
        for x in l.iter_mut() {
            if *x > c {
                *x -= 1;
            }
        }
    }
    out
}

/// (d) DESIGN.md 2.3: with a nested cycle left out of the hierarchy, a
/// thread gets two instances with one key; the relational definition
/// rejects the key relation (an unsat core names the clashing key facts),
/// while the real hierarchy agrees on the same scenario.
#[test]
fn a_hierarchy_without_its_nested_cycle_is_caught() {
    let k = kernel("seed/ambiguity-source.c");
    let entry = k.entry(Some("loop_nest")).expect("function");
    let module = lower(&k, false);
    let ci = CycleInfo::compute(&module.functions[entry]);
    let inner = (0..ci.cycles.len())
        .find(|&c| ci.cycles[c].depth == 2)
        .expect("a nested cycle");
    let wrong = drop_cycle(&ci, inner);
    let scenario = Scenario {
        threads: ["cond1=1,0 cond2=0", "cond1=0 cond2=0"]
            .iter()
            .map(|t| ThreadValues::parse(t).expect("values"))
            .collect(),
    };
    for (hierarchy, good) in [(&ci, true), (&wrong, false)] {
        let mut program = CfgProgram::new(module.clone());
        program.cycles[entry] = hierarchy.clone();
        let traces = run_scenario(&program, entry, &scenario, 10_000).expect("runs");
        let runs: Vec<&[Event]> = traces.iter().map(|t| t.events.as_slice()).collect();
        let r = agrees_with_keys(hierarchy, &runs);
        if good {
            assert_eq!(r, Answer::Proved(()));
        } else {
            // Keys built without the nested cycle, the definition with the
            // real hierarchy: the unsat core names a key fact "converged"
            // that the definition rejects: thread 0's second instance of
            // the inner header with thread 1's only one.
            let inner_header = ci.cycles[inner].header as u32;
            match agrees_with_keys(&ci, &runs) {
                Answer::Counterexample(Disagreement::KeysNotASolution { core }) => {
                    assert!(
                        core.iter().any(|c| c.2
                            && runs[0][c.0 .1].kind == EventKind::Block(inner_header)
                            && runs[0][..c.0 .1]
                                .iter()
                                .any(|e| e.kind == EventKind::Block(inner_header))),
                        "{core:?}"
                    );
                }
                other => panic!("the wrong key rule was not caught: {other:?}"),
            }
            // The inner header is in no cycle of the wrong hierarchy, so the
            // definition makes both of thread 0's instances converged with
            // thread 1's one: no relation satisfies it at all.
            assert_eq!(r, Answer::Counterexample(Disagreement::Vacuous));
            // The key rule, for its part, gives thread 0 two instances with
            // one key: the table refuses it.
            let rows = vec!["tid 0".to_string(), "tid 1".to_string()];
            let cell_runs: Vec<Vec<Event>> = runs
                .iter()
                .map(|r| {
                    r.iter()
                        .filter(|e| matches!(e.kind, EventKind::Block(_)))
                        .cloned()
                        .map(|mut e| {
                            e.kind = EventKind::Op { args: Vec::new() };
                            e
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[Event]> = cell_runs.iter().map(Vec::as_slice).collect();
            let err = convcheck_ir::table::build(&module, rows, &refs).expect_err("broken");
            assert!(err.contains("two instances"), "{err}");
        }
    }
}

/// (d) DESIGN.md 2.3: natural loops alone on an irreducible CFG. The cycle
/// {A, B} has two entries and no natural loop (neither dominates the
/// other), so natural loops leave A in no cycle and a thread that goes
/// round A -> B -> A gets two instances of A with one key. The relational
/// definition rejects it; LLVM's hierarchy (any header) agrees.
#[test]
fn natural_loops_alone_on_an_irreducible_cfg_are_caught() {
    // 0: entry -> A | B; 1 = A -> B | exit; 2 = B -> A | exit; 3 exit.
    let succs = vec![vec![1, 2], vec![2, 3], vec![1, 3], vec![]];
    let g = cfg_from_succs(&succs);
    let natural = CycleInfo {
        cycles: Vec::<Cycle>::new(),
        containing: vec![Vec::new(); 4],
    };
    let scenario = Scenario {
        threads: ["c=1,1,1,0", "c=1,0"]
            .iter()
            .map(|t| ThreadValues::parse(t).expect("values"))
            .collect(),
    };
    let run = |ci: &CycleInfo| -> Vec<Vec<Event>> {
        let program = program_of(&g, ci);
        run_scenario(&program, 0, &scenario, 10_000)
            .expect("runs")
            .into_iter()
            .map(|t| t.events)
            .collect()
    };
    let traces = run(&natural);
    let runs: Vec<&[Event]> = traces.iter().map(Vec::as_slice).collect();
    assert_eq!(blocks_of(runs[0]), vec![0, 1, 2, 1, 3]);
    // A is in no cycle, so the definition converges both of thread 0's
    // instances of A with thread 1's: no relation satisfies it.
    assert_eq!(
        agrees_with_keys(&natural, &runs),
        Answer::Counterexample(Disagreement::Vacuous)
    );
    // Keys from natural loops, definition from LLVM's hierarchy: the key
    // relation is not a solution.
    for ci in all_hierarchies(&g, 8) {
        assert!(matches!(
            agrees_with_keys(&ci, &runs),
            Answer::Counterexample(Disagreement::KeysNotASolution { .. })
        ));
    }
    let hs = all_hierarchies(&g, 8);
    assert_eq!(hs.len(), 2, "header A or header B");
    for ci in &hs {
        let traces = run(ci);
        let runs: Vec<&[Event]> = traces.iter().map(Vec::as_slice).collect();
        assert_eq!(agrees_with_keys(ci, &runs), Answer::Proved(()));
    }
}

// ------------------------------------------------------------- membership

/// The convergent-operation pairs of two runs that `f` keeps.
fn op_pairs(runs: &[&[Event]], f: impl Fn(Ix, Ix) -> bool) -> Vec<(Ix, Ix)> {
    let mut out = Vec::new();
    for (i, a) in runs[0].iter().enumerate() {
        for (j, b) in runs[1].iter().enumerate() {
            if a.is_convergent_op() && a.sid == b.sid && f((0, i), (1, j)) {
                out.push(((0, i), (1, j)));
            }
        }
    }
    out
}

/// (e) DESIGN.md 2.5, 2.7: membership on the backwards goto. The relation
/// with every choice apart is a member; so is one that merges the threads'
/// first executions of the goto cycle. The relation with everything apart
/// is not (A is determined converged); neither is one that merges two
/// instances in crossed order (convergence-before would have a cycle), nor
/// one that merges one instance with two of the other thread.
#[test]
fn membership_on_the_backwards_goto() {
    let k = kernel("seed/backwards-goto.c");
    let source = SourceProgram::new(&k).expect("compiles");
    let set = enumerate(&source, 0, 0, 2, bounds());
    let label = |e: &Event| k.label(e.sid).to_string();
    // Thread 0 goes round the goto cycle twice, thread 1 too, both from B.
    let twice = |p: &&Path| {
        !p.trace.events.iter().any(|e| label(e) == "G1")
            && p.trace.events.iter().filter(|e| label(e) == "L1").count() == 2
    };
    let p = set
        .paths
        .iter()
        .find(twice)
        .expect("a path round the cycle twice");
    let runs: [&[Event]; 2] = [&p.trace.events, &p.trace.events];
    let at = |t: usize, l: &str, n: usize| -> Ix {
        let i = (0..runs[t].len())
            .filter(|&i| label(&runs[t][i]) == l)
            .nth(n)
            .expect("instance");
        (t, i)
    };
    let determined = |a: Ix, b: Ix| relate_events(&runs[0][a.1], &runs[1][b.1]) == Rel::Converged;
    // Every choice apart: only the determined pairs converge.
    let all_choices_apart = Target {
        converged: op_pairs(&runs, determined),
    };
    assert!(all_choices_apart.converged.len() >= 3, "A, C, D");
    assert!(is_member(&k, &runs, &all_choices_apart).is_proved());
    // First executions of the cycle merged: L1, L2, L5 of round 1.
    let mut merged = all_choices_apart.clone();
    for l in ["L1", "L2", "L5"] {
        merged.converged.push((at(0, l, 0), at(1, l, 0)));
    }
    match is_member(&k, &runs, &merged) {
        Answer::Proved(rel) => {
            for &(a, b) in &merged.converged {
                assert_eq!(rel.get(a, b), Some(true));
            }
        }
        other => panic!("merging the first rounds is allowed: {other:?}"),
    }
    // Everything apart: A is converged in every allowed relation.
    match is_member(&k, &runs, &Target::default()) {
        Answer::Counterexample(NotMember::Conflict { core }) => {
            assert!(
                core.iter().any(|c| label(&runs[c.0 .0][c.0 .1]) == "A"),
                "{core:?}"
            );
        }
        other => panic!("all-apart is not a member: {other:?}"),
    }
    // Crossed: thread 0's second L1 with thread 1's first, and thread 0's
    // first L2 with thread 1's second.
    let mut crossed = all_choices_apart.clone();
    crossed.converged.push((at(0, "L1", 1), at(1, "L1", 0)));
    crossed.converged.push((at(0, "L2", 0), at(1, "L2", 1)));
    match is_member(&k, &runs, &crossed) {
        Answer::Counterexample(NotMember::Conflict { core }) => {
            let named: BTreeSet<String> = core
                .iter()
                .filter(|c| c.2)
                .map(|c| label(&runs[c.0 .0][c.0 .1]))
                .collect();
            assert!(named.contains("L1") && named.contains("L2"), "{core:?}");
        }
        other => panic!("a crossed merge is not a member: {other:?}"),
    }
    // One instance with two of the other thread.
    let mut doubled = all_choices_apart.clone();
    doubled.converged.push((at(0, "L1", 0), at(1, "L1", 0)));
    doubled.converged.push((at(0, "L1", 0), at(1, "L1", 1)));
    assert!(matches!(
        is_member(&k, &runs, &doubled),
        Answer::Counterexample(NotMember::Conflict { .. })
    ));
    // Not a pair of one operation.
    let bad = Target {
        converged: vec![(at(0, "A", 0), at(1, "B", 0))],
    };
    assert!(matches!(
        is_member(&k, &runs, &bad),
        Answer::Counterexample(NotMember::Invalid(_))
    ));
}

/// Membership where the source is determined: merging two instances whose
/// keys are determined apart (L1 in different iterations of the loop) is
/// not a member; the key relation is.
#[test]
fn membership_on_a_determined_loop() {
    let k = kernel("seed/iteration-statement.c");
    let source = SourceProgram::new(&k).expect("compiles");
    let set = enumerate(&source, 0, 0, 2, bounds());
    let label = |e: &Event| k.label(e.sid).to_string();
    let l1 = |p: &Path| p.trace.events.iter().filter(|e| label(e) == "L1").count();
    let p = set
        .paths
        .iter()
        .find(|p| l1(p) == 2)
        .expect("two iterations");
    let q = set
        .paths
        .iter()
        .find(|p| l1(p) == 1)
        .expect("one iteration");
    let runs: [&[Event]; 2] = [&p.trace.events, &q.trace.events];
    let keys = Target {
        converged: op_pairs(&runs, |a, b| runs[0][a.1].key == runs[1][b.1].key),
    };
    assert!(is_member(&k, &runs, &keys).is_proved());
    let second = (0..runs[0].len())
        .filter(|&i| label(&runs[0][i]) == "L1")
        .nth(1)
        .expect("second L1");
    let first = (0..runs[1].len())
        .find(|&i| label(&runs[1][i]) == "L1")
        .expect("L1");
    assert_eq!(
        relate_events(&runs[0][second], &runs[1][first]),
        Rel::Apart,
        "determined apart"
    );
    let mut wrong = keys.clone();
    wrong.converged.push(((0, second), (1, first)));
    match is_member(&k, &runs, &wrong) {
        Answer::Counterexample(NotMember::Conflict { core }) => {
            assert!(core.contains(&((0, second), (1, first), true)), "{core:?}");
        }
        other => panic!("{other:?}"),
    }
}

// ------------------------------------------------- outside the model

/// Inputs the engine does not model are `Unknown`, never an answer:
/// recursion (invocation boundaries are not in the trace) and tokens.
#[test]
fn outside_the_model_is_unknown() {
    let k =
        Kernel::parse("rec.c", "void f() { ... // A\n if (c) f(); ... // B\n}\n").expect("parses");
    let entry = k.entry(Some("f")).expect("f");
    let source = SourceProgram::new(&k).expect("compiles");
    let set = enumerate(
        &source,
        entry,
        0,
        2,
        Bounds {
            max_depth: 3,
            ..bounds()
        },
    );
    let deep = set
        .paths
        .iter()
        .find(|p| {
            p.trace
                .events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Call(_)))
        })
        .expect("a recursive path");
    let runs: [&[Event]; 2] = [&deep.trace.events, &deep.trace.events];
    assert!(matches!(source_relation(&k, &runs), Answer::Unknown(_)));
    let k = kernel("seed/divergent-exit-source.c");
    let program = CfgProgram::new(lower(&k, true));
    let set = enumerate(&program, 0, 0, 2, bounds());
    let p = &set.paths[0];
    let runs: [&[Event]; 2] = [&p.trace.events, &p.trace.events];
    assert!(matches!(cfg_relation(&program, &runs), Answer::Unknown(_)));
}
