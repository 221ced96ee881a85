//! A seeded sweep: random functions with phis, loops and diamonds go
//! through every pass; afterwards phis match the edges and every run that
//! finished before behaves the same after.

use super::support::*;
use convcheck_ir::{BinOp, Block, Cfg, Expr, InstKind, Module, Space, Term};
use convcheck_transforms::lookup;

/// A small deterministic random source (xorshift), so the sweep below
/// needs no generator crate and is the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize].clone()
    }
}

/// A random function of 2 to 7 blocks over the locals `a` and `b`: each
/// block but the entry may start with phis (one value per predecessor),
/// then sets, shows, observation points and stores of `h` at a fixed
/// address (so hoist and sink find identical instructions), and ends in a
/// branch on `c`, `d` or a local, a jump or a return.
fn random_module(rng: &mut Rng) -> Module {
    let n = 2 + rng.below(6) as usize;
    let locals = ["a", "b"];
    let value = |rng: &mut Rng| -> Expr {
        match rng.below(3) {
            0 => k(rng.below(4) as i64),
            1 => var(rng.pick(&locals)),
            _ => bin(BinOp::Add, var(rng.pick(&locals)), k(1)),
        }
    };
    let mut blocks: Vec<Block> = (0..n)
        .map(|b| {
            let mut insts = Vec::new();
            for _ in 0..rng.below(4) {
                insts.push(match rng.below(4) {
                    0 => set(1, rng.pick(&locals), value(rng)),
                    1 => show(value(rng)),
                    2 => inst(5, InstKind::Observe),
                    _ => eval(3, store(3, Space::Global, k(9))),
                });
            }
            let target = |rng: &mut Rng| rng.below(n as u64) as usize;
            let term = match rng.below(5) {
                0 => Term::Ret(None),
                1 => Term::Br(target(rng)),
                2 => Term::CondBr {
                    cond: c(),
                    then: target(rng),
                    els: target(rng),
                },
                3 => Term::CondBr {
                    cond: d(),
                    then: target(rng),
                    els: target(rng),
                },
                _ => Term::CondBr {
                    cond: bin(BinOp::Lt, var(rng.pick(&locals)), k(3)),
                    then: target(rng),
                    els: target(rng),
                },
            };
            block(&format!("b{b}"), insts, term)
        })
        .collect();
    // Half the time the first four blocks form a diamond whose arms start
    // and end alike, for hoist and sink to find.
    if n >= 4 && rng.below(2) == 0 {
        blocks[0].term = Term::CondBr {
            cond: rng.pick(&[c(), d(), Expr::Oracle(2)]),
            then: 1,
            els: 2,
        };
        for arm in [1, 2] {
            let same = eval(3, store(3, Space::Global, k(9)));
            blocks[arm].insts.insert(0, same.clone());
            blocks[arm].insts.push(same);
            blocks[arm].term = Term::Br(3);
        }
    }
    let preds = Cfg {
        name: "k".into(),
        params: Vec::new(),
        param_oracles: Vec::new(),
        blocks: blocks.clone(),
    }
    .preds();
    for (b, block) in blocks.iter_mut().enumerate().skip(1) {
        if preds[b].is_empty() {
            continue;
        }
        let mut phis = Vec::new();
        for _ in 0..rng.below(3) {
            let incoming = preds[b].iter().map(|&p| (p, value(rng))).collect();
            phis.push(phi(1, rng.pick(&locals), incoming));
        }
        block.insts.splice(0..0, phis);
    }
    with_phis(blocks)
}

#[test]
fn random_functions_with_phis_keep_their_behaviour_under_every_pass() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut changed = std::collections::BTreeMap::<&str, usize>::new();
    for case in 0..400 {
        let m = random_module(&mut rng);
        // Runs that do not finish are left out; a pass may add blocks to a
        // run (a preheader), hence the larger budget after.
        let before: Vec<_> = SCENARIOS
            .iter()
            .map(|s| behaviour_within(&m, s, 500))
            .collect();
        for pass in PASSES {
            let mut after = m.clone();
            let notes = lookup(pass)
                .expect("pass")
                .run(&mut after)
                .unwrap_or_else(|e| panic!("case {case}, {pass}: {e}"));
            if !notes.is_empty() {
                *changed.entry(pass).or_default() += 1;
            }
            assert_phis_match_preds(&after);
            for (s, before) in SCENARIOS.iter().zip(&before) {
                let Some(before) = before else { continue };
                assert_eq!(
                    Some(before),
                    behaviour_within(&after, s, 2_000).as_ref(),
                    "case {case}, {pass}, `{s}`; notes {notes:?}\nbefore:\n{}\nafter:\n{}",
                    text(&m),
                    text(&after)
                );
            }
        }
    }
    // The sweep is not vacuous: every pass family rewrote some functions.
    for pass in [
        "simplifycfg",
        "simplifycfg.merge-block",
        "simplifycfg.forward-empty",
        "simplifycfg.hoist",
        "simplifycfg.sink",
        "loop-unswitch",
    ] {
        assert!(changed.get(pass).copied().unwrap_or(0) > 0, "{changed:?}");
    }
}
