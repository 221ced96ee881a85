//! Theorem 6, `hoist-sink`: hoisting identical convergent operations out
//! of the two sides of a branch, or sinking them into the join, preserves
//! convergence (DESIGN.md 2.7, items 1 and 2) iff the branch is uniform.
//!
//! Domain: the entry sets `u` from a uniform oracle and jumps to block 1,
//! which branches on `u` (uniform) or on the varying `c` (divergent) to
//! two sides that join in block 4 (an observation point `j`), which
//! returns or loops back to block 1 on `c`. Each side holds any sequence
//! of up to two calls of external convergent functions from {`a`, `b`, a
//! side-specific `x`} (calls with equal names are identical instructions). Every pair of
//! threads, oracle streams up to six values, loops up to three iterations.
//!
//! The transforms are `simplifycfg.hoist.unsafe` and
//! `simplifycfg.sink.unsafe`, which move convergent operations whatever
//! the branch: on every module they rewrite, the check finds no
//! difference when the branch is uniform and finds one when it is
//! divergent (both directions of the "iff"). The safe passes
//! `simplifycfg.hoist` and `simplifycfg.sink` keep convergence on the
//! whole domain. Discharged by exhaustion; the divergent rewrites are the
//! broken hypothesis, each one a failing instance.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::{Expr, Module, OracleClass, Term};
use convcheck_proofs::product::{check, Limits};
use convcheck_proofs::report::{proved_everywhere as proved, witness};
use convcheck_proofs::shapes;
use std::time::Instant;

fn arms() -> Vec<Vec<&'static str>> {
    let alphabet = ["a", "b", "x"];
    let mut v: Vec<Vec<&str>> = vec![vec![]];
    for x in alphabet {
        v.push(vec![x]);
        for y in alphabet {
            v.push(vec![x, y]);
        }
    }
    v
}

fn module(then: &[&str], els: &[&str], uniform: bool, looped: bool) -> Module {
    let succ = if looped {
        vec![vec![1], vec![2, 3], vec![4], vec![4], vec![1, 5], vec![]]
    } else {
        vec![vec![1], vec![2, 3], vec![4], vec![4], vec![]]
    };
    let mut m = shapes::with_ops(
        &succ,
        &[false, false, false, false, true, false][..succ.len()],
    );
    m.ops[1].label = "j".into();
    let u = shapes::add_oracle(&mut m, "U", OracleClass::Uniform);
    m.functions[0].blocks[0]
        .insts
        .push(shapes::set_local("u", Expr::Oracle(u)));
    if uniform {
        shapes::branch_on(&mut m, 1, Expr::Var("u".into()));
    }
    for (b, side) in [(2usize, then), (3, els)] {
        for l in side {
            let label = if *l == "x" {
                format!("x{b}")
            } else {
                l.to_string()
            };
            let inst = shapes::convergent_call(&mut m, &label);
            m.functions[0].blocks[b].insts.push(inst);
        }
    }
    debug_assert!(matches!(m.functions[0].blocks[1].term, Term::CondBr { .. }));
    m
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
fn hoist_sink() {
    let start = Instant::now();
    let (mut modules, mut uniform_moved, mut divergent_moved, mut safe_moved, mut pairs) =
        (0, 0, 0, 0, 0);
    let mut example = None;
    for then in arms() {
        for els in arms() {
            for uniform in [true, false] {
                for looped in [false, true] {
                    let m = module(&then, &els, uniform, looped);
                    modules += 1;
                    let reference = CfgProgram::new(m.clone());
                    for pass in ["simplifycfg.hoist.unsafe", "simplifycfg.sink.unsafe"] {
                        let Some(t) = transform(pass, &m) else {
                            continue;
                        };
                        let v = check(&reference, &CfgProgram::new(t), Limits::default());
                        pairs += v.pairs;
                        assert!(v.pairs > 0);
                        if uniform {
                            uniform_moved += 1;
                            assert!(
                                v.difference.is_none(),
                                "{pass} {then:?} {els:?} uniform looped={looped}: {:?}",
                                v.difference
                            );
                        } else {
                            divergent_moved += 1;
                            let Some((d, s0, s1)) = v.difference else {
                                panic!("{pass} {then:?} {els:?} divergent looped={looped}: no difference found");
                            };
                            example.get_or_insert(format!(
                                "{pass} with sides {then:?} / {els:?} on the varying c{}: {d:?} (thread 0 {s0:?}, thread 1 {s1:?})",
                                if looped { " in a loop" } else { "" }
                            ));
                        }
                    }
                    for pass in ["simplifycfg.hoist", "simplifycfg.sink"] {
                        if let Some(t) = transform(pass, &m) {
                            safe_moved += 1;
                            let v = check(&reference, &CfgProgram::new(t), Limits::default());
                            pairs += v.pairs;
                            assert!(
                                v.difference.is_none(),
                                "{pass} {then:?} {els:?}: {:?}",
                                v.difference
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(
        uniform_moved > 20 && divergent_moved > 20 && safe_moved > 20,
        "{uniform_moved} {divergent_moved} {safe_moved}"
    );
    proved(
        "hoist-sink",
        &format!(
            "{modules} diamonds (sides of up to two ops from a, b, x; branch uniform or divergent; with and without an enclosing loop), \
             every pair of threads, streams up to 6 values, loops up to 3 iterations: the {uniform_moved} unsafe hoists/sinks across a \
             uniform branch keep convergence and all {divergent_moved} across a divergent one break it; the safe passes keep it \
             ({safe_moved} rewrites); {pairs} thread pairs; exhaustion; {:.1}s",
            start.elapsed().as_secs_f64()
        ),
    );
    witness(
        "hoist-sink",
        &format!("divergent branch: {}", example.unwrap_or_default()),
    );
}
