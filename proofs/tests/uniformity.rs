//! Theorem 8, `uniformity-stable` (the question of LLVM's uniformity RFC,
//! llvm/llvm-project PR #170628): if a transform preserves convergence (as
//! the two-thread comparison of `convcheck_proofs::product` decides it),
//! every value that the uniformity analysis (`convcheck_transforms::
//! uniformity`) marks uniform in the reference is uniform in the target:
//! wherever two threads evaluate it in converged instances (equal keys),
//! they get the same value.
//!
//! Domain: every CFG of four blocks with all blocks reachable, in which the
//! entry sets `x = 0` and every other block is either empty or *full*: it
//! writes `local[U2]` (`U2` a uniform oracle: the analysis marks it
//! uniform) and `local[x]` (uniform iff the analysis says `x` is), sets
//! `x = I` and holds an observation point; two-way branches read the
//! varying `c`, or the first one reads a uniform `u`. The values are
//! observed through the addresses of the `local` writes (local memory
//! never races, so the writes change nothing else). Every pass of the
//! registry (and `simplifycfg<keep-loops>`,
//! `simplifycfg.forward-empty<keep-loops>`), every pair of threads, oracle
//! streams up to four values, loops up to two iterations. The analysis's
//! claims are also checked on the reference itself.
//!
//! Discharged by exhaustion. The witness (the converse fails): a pass
//! that breaks convergence, in the domain, also breaks the uniformity of a
//! value the analysis marked uniform.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{EventKind, Trace};
use convcheck_ir::{Expr, InstKind, Module, OracleClass};
use convcheck_proofs::product::{admissible, behaviours, compare, Limits};
use convcheck_proofs::report::{pick, proved, witness};
use convcheck_proofs::shapes;
use std::collections::BTreeSet;
use std::time::Instant;

fn module(succ: &[Vec<usize>], full: &[bool], u_branch: bool) -> Module {
    let n = succ.len();
    let ops: Vec<bool> = (0..n).map(|i| i > 0 && full[i]).collect();
    let mut m = shapes::with_ops(succ, &ops);
    let u = shapes::add_oracle(&mut m, "u", OracleClass::Uniform);
    let u2 = shapes::add_oracle(&mut m, "U2", OracleClass::Uniform);
    m.functions[0].blocks[0]
        .insts
        .push(shapes::set_local("x", Expr::Const(0)));
    for i in 1..n {
        if !full[i] {
            continue;
        }
        let r = shapes::store_local(&mut m, &format!("r{i}"), Expr::Oracle(u2));
        let s = shapes::store_local(&mut m, &format!("s{i}"), Expr::Var("x".into()));
        let b = &mut m.functions[0].blocks[i].insts;
        b.insert(0, r);
        b.insert(1, s);
        b.insert(2, shapes::set_local("x", Expr::Const(i as i64)));
    }
    if u_branch {
        if let Some(b) = (0..n).find(|&b| succ[b].len() == 2) {
            shapes::branch_on(&mut m, b, Expr::Oracle(u));
        }
    }
    m
}

/// Labels of the writes whose address the analysis marks uniform.
fn uniform_stores(m: &Module) -> BTreeSet<String> {
    let g = &m.functions[0];
    let a = convcheck_transforms::uniformity::analyse(m, g);
    let mut out = BTreeSet::new();
    for b in &g.blocks {
        for i in &b.insts {
            if let InstKind::Eval(Expr::Store { op, index, .. }) = &i.kind {
                if !a.is_divergent(m, index) {
                    out.insert(m.label(*op).to_string());
                }
            }
        }
    }
    out
}

/// A write of `labels` at converged instances of two threads with
/// different addresses.
fn nonuniform(m: &Module, a: &Trace, b: &Trace, labels: &BTreeSet<String>) -> Option<String> {
    for x in &a.events {
        let EventKind::Mem { addr: ax, .. } = x.kind else {
            continue;
        };
        let l = m.label(x.sid);
        if !labels.contains(l) {
            continue;
        }
        for y in &b.events {
            if let EventKind::Mem { addr: by, .. } = y.kind {
                if m.label(y.sid) == l && x.key == y.key && ax != by {
                    return Some(format!("{l} converged with addresses {ax} and {by}"));
                }
            }
        }
    }
    None
}

fn passes() -> Vec<String> {
    let mut v: Vec<String> = convcheck_transforms::registry()
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    v.push("simplifycfg<keep-loops>".into());
    v.push("simplifycfg.forward-empty<keep-loops>".into());
    v
}

#[derive(Default)]
struct Tally {
    modules: usize,
    rewrites: usize,
    preserving: usize,
    pairs: usize,
    uniform_checked: usize,
    broken: usize,
    witness: Option<String>,
}

fn check_one(m: &Module, pass: &str, t: &mut Tally) {
    let mut out = m.clone();
    convcheck_transforms::lookup(pass)
        .expect("a registry pass")
        .run(&mut out)
        .expect("the pass runs");
    if out.functions == m.functions {
        return;
    }
    t.rewrites += 1;
    let labels = uniform_stores(m);
    let (r, g) = (CfgProgram::new(m.clone()), CfgProgram::new(out.clone()));
    // Two oracles are read in loops here (c and U2): streams of four
    // values and two iterations per loop keep the product small (with six
    // and three, a fifth of the domain took 144 s in the debug profile).
    let limits = Limits {
        max_iters: 1,
        max_stream: 4,
    };
    let (b0, b1) = (behaviours(&r, &g, 0, limits), behaviours(&r, &g, 1, limits));
    let mut preserved = true;
    let mut broke = None;
    for a in &b0.runs {
        for b in &b1.runs {
            if !admissible(a, b) {
                continue;
            }
            t.pairs += 1;
            // The analysis is right about the reference.
            if let Some(e) = nonuniform(m, &a.reference, &b.reference, &labels) {
                panic!("the analysis is wrong on the reference: {e}");
            }
            if compare(m, &out, a, b).is_some() {
                preserved = false;
            }
            if let Some(e) = nonuniform(&out, &a.target, &b.target, &labels) {
                broke.get_or_insert(format!(
                    "{e} (thread 0 {:?}, thread 1 {:?})",
                    a.streams, b.streams
                ));
            }
        }
    }
    if preserved {
        t.preserving += 1;
        t.uniform_checked += labels.len();
        if let Some(e) = broke {
            panic!("{pass} preserves convergence but breaks uniformity: {e}");
        }
    } else if let Some(e) = broke {
        t.broken += 1;
        t.witness.get_or_insert(format!(
            "{pass} on {:?}: {e}",
            m.functions[0]
                .blocks
                .iter()
                .map(|b| b.term.succs())
                .collect::<Vec<_>>()
        ));
    }
}

#[test]
fn uniformity_stable() {
    let start = Instant::now();
    let mut t = Tally::default();
    let passes = passes();
    for succ in shapes::all(4).into_iter().step_by(pick(2, 10)) {
        if !shapes::all_reachable(&succ) {
            continue;
        }
        for mask in 0..8usize {
            let full: Vec<bool> = (0..4)
                .map(|i| i == 0 || mask & (1 << (i - 1)) != 0)
                .collect();
            for u_branch in [false, true] {
                let m = module(&succ, &full, u_branch);
                t.modules += 1;
                for p in &passes {
                    check_one(&m, p, &mut t);
                }
            }
        }
    }
    assert!(
        t.preserving > 100 && t.uniform_checked > 100,
        "{} {}",
        t.preserving,
        t.uniform_checked
    );
    proved(
        "uniformity-stable",
        &format!(
            "{} modules over the 4-block CFGs{} ({} passes: {}): {} rewrites, {} preserving convergence, in which {} writes the \
             analysis marks uniform stay uniform; {} thread pairs, streams up to 4 values, loops up to 2 iterations; exhaustion; {:.1}s",
            t.modules,
            pick(" (every 2nd)", " (every 10th)"),
            passes.len(),
            passes.join(", "),
            t.rewrites,
            t.preserving,
            t.uniform_checked,
            t.pairs,
            start.elapsed().as_secs_f64()
        ),
    );
    let w = t
        .witness
        .clone()
        .expect("a convergence-breaking rewrite that breaks uniformity");
    witness(
        "uniformity-stable",
        &format!(
            "{} rewrites that break convergence also break uniformity; first: {w}",
            t.broken
        ),
    );
}
