//! Theorem 5, `unswitch`: unswitching a loop on a loop-invariant condition
//! preserves convergence (DESIGN.md 2.7, items 1 and 2) when the condition
//! is uniform or the loop holds no convergent operation, and not otherwise.
//!
//! Domain: the entry sets `u` from an oracle `U` (uniform: a kernel
//! argument; or invariant: one value per thread, possibly different) and
//! jumps to block 1; blocks 1-4 end in any terminator (`ret`, `br`, a
//! two-way branch; every CFG whose blocks are all reachable); one two-way
//! branch inside a cycle reads `u`, the others the varying `c`. Ops: an
//! observation point in every block, or only in blocks outside every cycle
//! (the loop holds no convergent operation). Every pair of threads, oracle
//! streams up to six values, loops up to three iterations.
//!
//! The transform is `loop-unswitch.unsafe`, which unswitches whatever the
//! convergence (the hypotheses are the theorem's, not the pass's). With
//! the hypotheses, no difference. Discharged by exhaustion.
//!
//! **Finding.** Uniformity alone is not enough under maximal convergence:
//! when the unswitched branch decides an exit, a block holding a
//! convergent operation on the way to that exit leaves the cycle in the
//! version that exits, and its instances of different iterations, apart in
//! the reference, converge. The theorem is proved with the extra
//! hypothesis that every convergent operation stays in as many cycles; the
//! test prints how often the hypothesis alone fails, and how often
//! `loop-unswitch` itself breaks convergence.
//!
//! The broken hypothesis: an invariant but divergent condition in a loop
//! with convergent operations; the check finds the difference.

use convcheck_ir::cycles::CycleInfo;
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{Expr, Module, OracleClass};
use convcheck_proofs::product::{check, Limits};
use convcheck_proofs::report::{pick, proved, witness};
use convcheck_proofs::shapes;
use std::time::Instant;

struct Case {
    module: Module,
    /// Uniform condition or no convergent operation in the loop.
    hypothesis: bool,
    text: String,
}

fn domain() -> Vec<Case> {
    domain_of(&[OracleClass::Uniform, OracleClass::Invariant], pick(5, 27))
}

/// The domain with the condition's oracle of each of `classes`, every
/// `step`-th CFG. A uniform-invariant oracle is read by the branch itself
/// (at every iteration, one value for the run), the others through `u`.
fn domain_of(classes: &[OracleClass], step: usize) -> Vec<Case> {
    let ts = shapes::terminators(5);
    let mut out = Vec::new();
    let mut k = 0usize;
    let mut succ = vec![vec![1usize]; 5];
    for a in &ts {
        for b in &ts {
            for c in &ts {
                for d in &ts {
                    k += 1;
                    if k % step != 0 {
                        continue;
                    }
                    succ[1] = a.clone();
                    succ[2] = b.clone();
                    succ[3] = c.clone();
                    succ[4] = d.clone();
                    if !shapes::all_reachable(&succ) {
                        continue;
                    }
                    let g = convcheck_ir::build::cfg_from_successors(&succ);
                    let ci = CycleInfo::compute(&g);
                    let in_cycle = |x: usize| !ci.containing[x].is_empty();
                    for br in (1..5).filter(|&x| succ[x].len() == 2 && in_cycle(x)) {
                        for loop_ops in [true, false] {
                            for &class in classes {
                                let ops: Vec<bool> =
                                    (0..5).map(|x| x == 0 || loop_ops || !in_cycle(x)).collect();
                                let mut m = shapes::with_ops(&succ, &ops);
                                let u = shapes::add_oracle(&mut m, "U", class);
                                if class == OracleClass::UniformInvariant {
                                    shapes::branch_on(&mut m, br, Expr::Oracle(u));
                                } else {
                                    m.functions[0].blocks[0]
                                        .insts
                                        .insert(0, shapes::set_local("u", Expr::Oracle(u)));
                                    shapes::branch_on(&mut m, br, Expr::Var("u".into()));
                                }
                                out.push(Case {
                                    module: m,
                                    hypothesis: class.is_uniform() || !loop_ops,
                                    text: format!(
                                        "CFG {succ:?}, block {br} branches on u = {} U, ops {}",
                                        class.name(),
                                        if loop_ops {
                                            "in every block"
                                        } else {
                                            "outside the loop"
                                        }
                                    ),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// For each convergent operation, the number of cycles around its block;
/// an operation in several blocks (cloned) gives several entries.
fn depths(m: &Module) -> std::collections::BTreeSet<(String, usize)> {
    let g = &m.functions[0];
    let ci = CycleInfo::compute(g);
    let mut out = std::collections::BTreeSet::new();
    for (b, block) in g.blocks.iter().enumerate() {
        for i in &block.insts {
            if convcheck_ir::tokens::is_convergent(i) {
                out.insert((m.label(i.sid).to_string(), ci.containing[b].len()));
            }
        }
    }
    out
}

fn transform(name: &str, m: &Module) -> Option<Module> {
    let mut out = m.clone();
    convcheck_transforms::lookup(name)
        .expect("a registry pass")
        .run(&mut out)
        .expect("the pass runs");
    (out.functions != m.functions).then_some(out)
}

#[test]
fn unswitch() {
    let start = Instant::now();
    let cases = domain();
    let (mut with_h, mut changed_h, mut pairs, mut without_h, mut broken) = (0, 0, 0, 0, 0);
    let (mut changed_safe, mut safe_broken, mut depth_changed) = (0, 0, 0);
    let mut finding = None;
    for c in &cases {
        let reference = CfgProgram::new(c.module.clone());
        let unsafe_t = transform("loop-unswitch.unsafe", &c.module);
        if let Some(t) = &unsafe_t {
            // The refinement the domain forced: unswitching must leave
            // every convergent operation in as many cycles as before (an
            // operation on the path to an exit that the unswitched branch
            // decides leaves the loop, and its instances of different
            // iterations converge).
            let keeps_depth = depths(t) == depths(&c.module);
            let v = check(&reference, &CfgProgram::new(t.clone()), Limits::default());
            if c.hypothesis && keeps_depth {
                with_h += 1;
                changed_h += 1;
                pairs += v.pairs;
                assert!(v.difference.is_none(), "{}: {:?}", c.text, v.difference);
            } else if c.hypothesis {
                depth_changed += 1;
                if let Some((d, s0, s1)) = &v.difference {
                    finding.get_or_insert(format!(
                        "{}: {d:?} (thread 0 {s0:?}, thread 1 {s1:?})",
                        c.text
                    ));
                }
            } else {
                without_h += 1;
                broken += usize::from(v.difference.is_some());
            }
        }
        if let Some(t) = transform("loop-unswitch", &c.module) {
            changed_safe += 1;
            let v = check(&reference, &CfgProgram::new(t), Limits::default());
            pairs += v.pairs;
            safe_broken += usize::from(v.difference.is_some());
        }
    }
    assert!(
        changed_h > 50 && changed_safe > 50,
        "{changed_h} {changed_safe}"
    );
    assert!(broken > 0);
    // loop-unswitch has refused rewrites that move a convergent operation
    // out of a cycle since this theorem found them: it keeps convergence
    // on the whole domain.
    assert_eq!(safe_broken, 0, "loop-unswitch breaks convergence");
    proved(
        "unswitch",
        &format!(
            "{} loops of CFGs of 5 blocks{} (condition u uniform or invariant, ops in the loop or not), every pair of threads, \
             streams up to 6 values, loops up to 3 iterations: the {with_h} unswitchings with a uniform condition or no convergent \
             operation in the loop, that leave every convergent operation in as many cycles, keep convergence; loop-unswitch keeps it \
             on all its {changed_safe} rewrites; {pairs} thread pairs; exhaustion; without the hypotheses {broken} of {without_h} break it; {:.1}s",
            cases.len(),
            pick(" (every 5th)", " (every 27th)"),
            start.elapsed().as_secs_f64()
        ),
    );
    witness(
        "unswitch",
        &format!(
            "finding: the issue's hypothesis alone is not enough: {depth_changed} unswitchings on a uniform condition move a convergent \
             operation out of a cycle (loop-unswitch refuses them since commit 407b956); first that breaks convergence: {}",
            finding.as_deref().unwrap_or("none")
        ),
    );
}

#[test]
fn unswitch_mutant_divergent_condition() {
    for c in domain() {
        if c.hypothesis {
            continue;
        }
        let Some(t) = transform("loop-unswitch.unsafe", &c.module) else {
            continue;
        };
        if let Some((d, s0, s1)) = check(
            &CfgProgram::new(c.module.clone()),
            &CfgProgram::new(t),
            Limits::default(),
        )
        .difference
        {
            witness(
                "unswitch",
                &format!("divergent condition with convergent operations in the loop: {}: {d:?} (thread 0 {s0:?}, thread 1 {s1:?})", c.text),
            );
            return;
        }
    }
    panic!("unswitching on a divergent condition must break convergence somewhere in the domain");
}

/// The theorem for a condition that reads a uniform-invariant oracle in
/// the loop (issue 20 class n, seed 001), every 54th CFG: every
/// unswitching that leaves each convergent operation in as many cycles
/// keeps convergence, and `loop-unswitch` unswitches such loops although
/// they hold convergent operations, keeping convergence on every rewrite.
#[test]
fn unswitch_on_uniform_invariant_oracles() {
    let start = Instant::now();
    let cases = domain_of(&[OracleClass::UniformInvariant], pick(5, 54));
    let (mut kept, mut safe, mut safe_with_ops, mut pairs) = (0, 0, 0, 0);
    for c in &cases {
        let reference = CfgProgram::new(c.module.clone());
        if let Some(t) = transform("loop-unswitch.unsafe", &c.module) {
            if depths(&t) == depths(&c.module) {
                let v = check(&reference, &CfgProgram::new(t), Limits::default());
                pairs += v.pairs;
                kept += 1;
                assert!(v.difference.is_none(), "{}: {:?}", c.text, v.difference);
            }
        }
        if let Some(t) = transform("loop-unswitch", &c.module) {
            safe += 1;
            safe_with_ops += usize::from(c.text.ends_with("in every block"));
            let v = check(&reference, &CfgProgram::new(t), Limits::default());
            pairs += v.pairs;
            assert!(v.difference.is_none(), "{}: {:?}", c.text, v.difference);
        }
    }
    assert!(
        kept > 20 && safe_with_ops > 10,
        "{kept} {safe} {safe_with_ops}"
    );
    proved(
        "unswitch (uniform-invariant)",
        &format!(
            "{} loops of CFGs of 5 blocks{} branching on a uniform-invariant oracle: the {kept} unswitchings that leave every \
             convergent operation in as many cycles keep convergence; loop-unswitch keeps it on all its {safe} rewrites ({safe_with_ops} \
             of loops with convergent operations); {pairs} thread pairs; exhaustion; {:.1}s",
            cases.len(),
            pick(" (every 5th)", " (every 54th)"),
            start.elapsed().as_secs_f64()
        ),
    );
}
