//! The symbolic engine's block copies are the interpreter's
//! maximal-convergence keys (DESIGN.md 2.3, 2.5; `product::unroll`): on
//! random CFGs (reducible or not) under every cycle hierarchy, stepping the
//! copies along a run gives exactly the key the interpreter gives each
//! block instance, so "converged iff same copy" is "converged iff equal
//! keys".

use convcheck_ir::build::{cfg_from_successors, module_of};
use convcheck_ir::cycles::{all_hierarchies, CycleInfo};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread, Bounds, EventKind};
use convcheck_ir::scenario::{ThreadValues, ValuesSource};
use convcheck_smt::product::unroll::{key_atoms, step, unroll, Target};
use std::collections::{BTreeMap, HashMap};

/// SplitMix64: a small deterministic generator for the tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A random successor list: `n` blocks, each with 0 to 3 successors.
fn random_succs(rng: &mut Rng, n: usize) -> Vec<Vec<usize>> {
    (0..n)
        .map(|b| {
            let k = match rng.below(8) {
                0 => 0,
                1..=3 => 1,
                4..=6 => 2,
                _ => 3,
            };
            // The last block returns, so most runs end.
            if b + 1 == n {
                return Vec::new();
            }
            (0..k).map(|_| rng.below(n as u64) as usize).collect()
        })
        .collect()
}

/// One run's block instances: (block, interpreter key).
fn block_instances(
    program: &CfgProgram,
    values: &ThreadValues,
) -> Vec<(usize, Vec<convcheck_ir::key::Atom>)> {
    let bounds = Bounds {
        max_iters: 3,
        fuel: 200,
        ..Bounds::default()
    };
    let (trace, _) = run_thread(program, 0, 0, 2, bounds, &mut ValuesSource(values));
    trace
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Block(b) => Some((b as usize, e.key.0.clone())),
            _ => None,
        })
        .collect()
}

/// The copies of a run's blocks, stepped along it.
fn copies(ci: &CycleInfo, blocks: &[usize]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    for (i, &b) in blocks.iter().enumerate() {
        let from = if i == 0 {
            None
        } else {
            Some((blocks[i - 1], out[i - 1].as_slice()))
        };
        out.push(step(ci, from, b));
    }
    out
}

#[test]
fn copies_are_the_interpreters_keys_on_random_cfgs() {
    let mut rng = Rng(7);
    let mut instances = 0usize;
    let mut pairs = 0usize;
    for _ in 0..400 {
        let n = 2 + rng.below(6) as usize;
        let succs = random_succs(&mut rng, n);
        let module = module_of(cfg_from_successors(&succs));
        for ci in all_hierarchies(&module.functions[0], 8) {
            let program = CfgProgram {
                module: module.clone(),
                cycles: vec![ci.clone()],
            };
            let mut runs = Vec::new();
            for _ in 0..6 {
                let vals: Vec<i64> = (0..40).map(|_| rng.below(3) as i64).collect();
                let mut map = BTreeMap::new();
                map.insert("c".to_string(), vals);
                let inst = block_instances(&program, &ThreadValues(map));
                let blocks: Vec<usize> = inst.iter().map(|x| x.0).collect();
                let cs = copies(&ci, &blocks);
                for ((b, key), c) in inst.iter().zip(&cs) {
                    assert_eq!(
                        &key_atoms(&ci, &[], *b, c),
                        key,
                        "block {b} copy {c:?} of CFG {succs:?} under {}",
                        ci.describe(&module.functions[0])
                    );
                    instances += 1;
                }
                runs.push(inst.into_iter().zip(cs).collect::<Vec<_>>());
            }
            // Converged (equal keys) iff the same copy, across runs.
            for a in &runs {
                for b in &runs {
                    for ((ba, ka), ca) in a {
                        for ((bb, kb), cb) in b {
                            assert_eq!(ka == kb, ba == bb && ca == cb, "CFG {succs:?}");
                            pairs += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(
        instances > 5_000,
        "the test looked at {instances} instances"
    );
    assert!(pairs > 100_000, "the test compared {pairs} pairs");
}

/// Every copy a run within the bound reaches is a node of the unrolled
/// program, reached along an edge of it; and the DAG is in topological
/// order.
#[test]
fn runs_within_the_bound_stay_in_the_unrolled_program() {
    let mut rng = Rng(11);
    for _ in 0..300 {
        let n = 2 + rng.below(6) as usize;
        let succs = random_succs(&mut rng, n);
        let module = module_of(cfg_from_successors(&succs));
        let cfg = &module.functions[0];
        let ci = CycleInfo::compute(cfg);
        let un = unroll(cfg, &ci, 3, 100_000).expect("small CFGs unroll");
        let index: HashMap<(usize, Vec<u32>), usize> = un
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| ((node.block, node.counts.clone()), i))
            .collect();
        for (i, node) in un.nodes.iter().enumerate() {
            for (_, t) in &node.succs {
                if let Target::Node(m) = t {
                    assert!(*m > i);
                }
            }
        }
        let program = CfgProgram::new(module.clone());
        for _ in 0..6 {
            let vals: Vec<i64> = (0..40).map(|_| rng.below(3) as i64).collect();
            let mut map = BTreeMap::new();
            map.insert("c".to_string(), vals);
            let bounds = Bounds {
                max_iters: 3,
                fuel: 200,
                ..Bounds::default()
            };
            let (trace, res) = run_thread(
                &program,
                0,
                0,
                2,
                bounds,
                &mut ValuesSource(&ThreadValues(map)),
            );
            if res.is_err() {
                continue;
            }
            let blocks: Vec<usize> = trace
                .events
                .iter()
                .filter_map(|e| match e.kind {
                    EventKind::Block(b) => Some(b as usize),
                    _ => None,
                })
                .collect();
            let cs = copies(&ci, &blocks);
            let mut prev: Option<usize> = None;
            for (b, c) in blocks.iter().zip(cs) {
                let Some(&at) = index.get(&(*b, c.clone())) else {
                    panic!("copy ({b}, {c:?}) of CFG {succs:?} is not unrolled");
                };
                if let Some(p) = prev {
                    assert!(un.nodes[p].succs.iter().any(|s| s.1 == Target::Node(at)));
                }
                prev = Some(at);
            }
        }
    }
}
