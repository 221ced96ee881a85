//! The random functions of the uniformity campaign
//! (`convcheck_generators::uniform_fn`): deterministic, valid by
//! construction (every operand defined where it is used, phis with one
//! entry per predecessor), and so is every shrinking step. Validity is
//! checked here by rules written from LLVM's verifier, independently of
//! the generator's own bookkeeping; `checker/tests/uniformity.rs` runs
//! generated functions through real `opt`.

use convcheck_generators::uniform_fn::{
    generate_seeded, module_text, Exit, Operand, UniformFn, UniformFnConfig,
};
use std::collections::{BTreeMap, BTreeSet};

/// Why `f` is not a valid function, if it is not: a branch to a missing
/// block, a phi whose entries are not its block's predecessors, an
/// operand that is neither a constant, an argument, the thread index, a
/// value of its own block defined before it, nor (for a phi entry) a value
/// whose block dominates the predecessor.
fn invalid(f: &UniformFn) -> Option<String> {
    let n = f.blocks.len();
    let mut preds: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for (b, block) in f.blocks.iter().enumerate() {
        let succs: Vec<usize> = match &block.exit {
            Exit::Ret => vec![],
            Exit::Br(t) => vec![*t],
            Exit::CondBr(_, a, c) => vec![*a, *c],
            Exit::Switch(_, cases, d) => cases.iter().map(|c| c.1).chain([*d]).collect(),
        };
        let distinct: BTreeSet<usize> = succs.iter().copied().collect();
        if distinct.len() != succs.len() {
            return Some(format!("bb{b} branches twice to one block"));
        }
        for s in succs {
            if s >= n {
                return Some(format!("bb{b} branches to missing bb{s}"));
            }
            preds[s].insert(b);
        }
    }
    // Dominators of the blocks reachable from bb0 (iterative).
    let all: BTreeSet<usize> = (0..n).collect();
    let mut dom: Vec<BTreeSet<usize>> = vec![all.clone(); n];
    dom[0] = [0].into();
    loop {
        let mut changed = false;
        for b in 1..n {
            let mut d = all.clone();
            for p in &preds[b] {
                d = d.intersection(&dom[*p]).copied().collect();
            }
            d.insert(b);
            if d != dom[b] {
                dom[b] = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut home: BTreeMap<u32, usize> = BTreeMap::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for id in block
            .phis
            .iter()
            .map(|p| p.id)
            .chain(block.defs.iter().map(|d| d.id))
        {
            if home.insert(id, b).is_some() {
                return Some(format!("%v{id} is defined twice"));
            }
        }
    }
    for (b, block) in f.blocks.iter().enumerate() {
        for p in &block.phis {
            let keys: BTreeSet<usize> = p.incoming.keys().copied().collect();
            if keys != preds[b] {
                return Some(format!(
                    "phi %v{} of bb{b} has entries {keys:?}, predecessors {:?}",
                    p.id, preds[b]
                ));
            }
            for (from, v) in &p.incoming {
                if let Operand::Value(id) = v {
                    let ok = home.get(id).is_some_and(|h| dom[*from].contains(h));
                    if !ok {
                        return Some(format!("phi %v{} reads %v{id} along bb{from}", p.id));
                    }
                }
            }
        }
        let mut seen: BTreeSet<u32> = block.phis.iter().map(|p| p.id).collect();
        for d in &block.defs {
            for a in &d.args {
                if let Operand::Value(id) = a {
                    if !seen.contains(id) {
                        return Some(format!("%v{} reads %v{id} before it", d.id));
                    }
                }
            }
            seen.insert(d.id);
        }
    }
    None
}

#[test]
fn the_same_seed_gives_the_same_function() {
    let c = UniformFnConfig::default();
    for seed in 0..50 {
        let a = generate_seeded("f", &c, seed);
        let b = generate_seeded("f", &c, seed);
        assert_eq!(a.function_text(), b.function_text());
    }
}

#[test]
fn generated_functions_and_every_shrinking_step_are_valid() {
    let c = UniformFnConfig::default();
    let mut steps = 0;
    let mut with_cycle = 0;
    for seed in 0..300 {
        let f = generate_seeded("f", &c, seed);
        if let Some(why) = invalid(&f) {
            panic!("seed {seed}: {why}\n{}", f.function_text());
        }
        let text = f.function_text();
        if text.contains("%bb0")
            && f.blocks.iter().enumerate().any(|(b, bl)| {
                matches!(&bl.exit, Exit::Br(t) if *t <= b)
                    || matches!(&bl.exit, Exit::CondBr(_, x, y) if *x <= b || *y <= b)
            })
        {
            with_cycle += 1;
        }
        for g in f.candidates() {
            steps += 1;
            if let Some(why) = invalid(&g) {
                panic!(
                    "seed {seed}, a shrinking step: {why}\n{}\nfrom\n{}",
                    g.function_text(),
                    f.function_text()
                );
            }
            assert!(
                g.size() <= f.size(),
                "a shrinking step grows the function (seed {seed})"
            );
        }
    }
    assert!(steps > 1000, "only {steps} shrinking steps tried");
    assert!(
        with_cycle > 50,
        "only {with_cycle} functions with a back edge"
    );
}

#[test]
fn a_module_reads_back_and_names_every_function() {
    let c = UniformFnConfig::default();
    let fs: Vec<UniformFn> = (0..20)
        .map(|k| generate_seeded(&format!("f{k}"), &c, k))
        .collect();
    let text = module_text(&fs);
    assert!(text.starts_with("target triple = \"amdgcn-amd-amdhsa\""));
    let m = convcheck_llvm_free_read(&text);
    assert_eq!(m, 20);
}

/// Counts the `define`s of a module text (the generators crate does not
/// depend on the LLVM reader; the checker's tests read it).
fn convcheck_llvm_free_read(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with("define amdgpu_kernel void @f"))
        .count()
}
