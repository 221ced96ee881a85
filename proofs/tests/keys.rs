//! Theorem: with a real cycle hierarchy, the key rule of maximal
//! convergence defines a valid converged-with relation (DESIGN.md 2.3):
//! no thread is ever converged with itself (two instances of one block in
//! one thread never share a key), and convergence-before stays a strict
//! partial order (no cycle through converged pairs).
//!
//! Discharged by bounded exhaustion: every CFG of four blocks in which each
//! block ends in `ret`, a jump or a two-way branch (2,401 CFGs, the entry
//! never targeted, as LLVM requires), every cycle hierarchy of each, every
//! path in which each cycle starts at most two iterations (at most 400
//! paths per CFG), and the pairs among the first 8 of those paths.
//!
//! And its converse, which shows the theorem is not vacuous: with a
//! hierarchy that leaves a nested cycle out, some CFG does converge a
//! thread with itself.
//!
//! The CFGs are IR modules built directly, with no kernel behind them: one
//! op (the function, the origin of every block) and one varying oracle `c`
//! on which every two-way branch branches.

use convcheck_ir::convergence::check_assignment;
use convcheck_ir::cycles::{all_hierarchies, CycleInfo};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{Bounds, Event, EventKind};
use convcheck_ir::paths::enumerate;
use convcheck_ir::{Cfg, Module};
use std::collections::HashSet;

/// Each block's terminator: `ret`, `br t`, or `br c, t, e` over targets
/// 1..=3 (the entry, block 0, is never a target).
fn shapes() -> Vec<Vec<usize>> {
    let mut v = vec![vec![]];
    for t in 1..=3 {
        v.push(vec![t]);
    }
    for a in 1..=3 {
        for b in a + 1..=3 {
            v.push(vec![a, b]);
        }
    }
    v
}

/// The CFG with these successor lists; two-way branches branch on `c`.
fn cfg(succ: &[Vec<usize>]) -> Cfg {
    convcheck_ir::build::cfg_from_successors(succ)
}

/// The block instances of a run.
fn blocks(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Block(_)))
        .cloned()
        .collect()
}

/// Checks one CFG under one hierarchy; returns the number of path pairs
/// checked, or a description of a violation.
fn check(g: &Cfg, h: &CycleInfo) -> Result<usize, String> {
    let program = CfgProgram {
        module: module(g),
        cycles: vec![h.clone()],
    };
    let bounds = Bounds {
        max_iters: 1,
        fuel: 200,
        max_paths: 400,
        ..Bounds::default()
    };
    let set = enumerate(&program, 0, 0, 2, bounds);
    let paths: Vec<Vec<Event>> = set.paths.iter().map(|p| blocks(&p.trace.events)).collect();
    for p in &paths {
        let mut seen = HashSet::new();
        for e in p {
            if !seen.insert(&e.key) {
                return Err(format!("a thread has two instances with key {}", e.key));
            }
        }
    }
    let mut pairs = 0;
    for (i, p) in paths.iter().take(8).enumerate() {
        for q in paths.iter().take(8).skip(i) {
            check_assignment(&[p, q], &[]).map_err(|v| format!("{v:?}"))?;
            pairs += 1;
        }
    }
    Ok(pairs)
}

/// The module of `g` alone, with the tables that say what its op `g` and its oracle `c`
/// are.
fn module(g: &Cfg) -> Module {
    convcheck_ir::build::module_of(g.clone())
}

#[test]
fn maximal_convergence_keys_are_well_formed_on_every_small_cfg() {
    let shapes = shapes();
    let (mut cfgs, mut hierarchies, mut pairs, mut with_cycle) = (0, 0, 0, 0);
    for a in &shapes {
        for b in &shapes {
            for c in &shapes {
                for d in &shapes {
                    let g = cfg(&[a.clone(), b.clone(), c.clone(), d.clone()]);
                    cfgs += 1;
                    let all = all_hierarchies(&g, 64);
                    if !all[0].cycles.is_empty() {
                        with_cycle += 1;
                    }
                    for h in &all {
                        hierarchies += 1;
                        match check(&g, h) {
                            Ok(n) => pairs += n,
                            Err(e) => panic!("{e}\nCFG {:?}\nhierarchy {h:?}", [a, b, c, d]),
                        }
                    }
                }
            }
        }
    }
    assert_eq!(cfgs, 2401);
    assert!(with_cycle > 1000, "the space has cycles: {with_cycle}");
    assert!(hierarchies > cfgs, "some CFGs have several hierarchies");
    println!(
        "{cfgs} CFGs ({with_cycle} with a cycle), {hierarchies} hierarchies, {pairs} path pairs"
    );
}

/// Leaving a nested cycle out of the hierarchy breaks the theorem: the
/// inner loop's block repeats with the same key.
#[test]
fn a_hierarchy_without_the_nested_cycle_breaks_it() {
    // 0 -> 1; 1 -> 2; 2 -> 2 | 3; 3 -> 1 | 4; 4 exits: an outer cycle
    // {1,2,3} headed by 1 with the inner self-loop {2}.
    let g = cfg(&[vec![1], vec![2], vec![2, 3], vec![1, 4], vec![]]);
    let mut h = CycleInfo::compute(&g);
    assert_eq!(h.cycles.len(), 2, "outer and inner cycle");
    assert!(check(&g, &h).is_ok());
    h.cycles.truncate(1);
    for list in h.containing.iter_mut() {
        list.retain(|&c| c == 0);
    }
    assert!(
        check(&g, &h).is_err(),
        "dropping the inner cycle must break the relation"
    );
}
