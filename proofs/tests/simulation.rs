//! Theorem 9, `simulation`: proofs by simulation relation
//! (`convcheck_smt::simulation`, issue 22) are sound, and each condition
//! of the re-check is needed.
//!
//! **Soundness.** Wherever `simulation::prove` answers proved, the
//! explicit two-thread comparison of `convcheck_proofs::product` finds no
//! change of single-thread behaviour or of convergence, with every loop
//! execution up to ten iterations (the simulation unrolls nothing; its
//! proofs hold for every iteration count), and the bounded symbolic
//! product (`product::compare`, max-iters 2) finds no counterexample: the
//! engines agree.
//!
//! Domain: the references of theorem 7 (every seventh four-block CFG with
//! all blocks reachable and an observation point in the entry and in every
//! subset of the other blocks, sampled five-block CFGs, seed 000's loop
//! nest, two hoisting diamonds). Targets: the renamings, splits and arm
//! swaps of theorem 7, every arm swap *with its condition inverted*
//! (InstCombine's `icmp ne` to `icmp eq` with swapped successors, which
//! the structural rule cannot prove), and the rewrites of the SimplifyCFG
//! family, the hoists and sinks (safe and unsafe) and loop unswitching
//! (safe and unsafe).
//!
//! **Mutants.** A relation is a proof only if the re-check's conditions
//! all hold (`simulation::Conditions`). For each condition, a mutant of
//! the re-check without it accepts a relation for a target that the
//! explicit comparison (or, for progress, the interpreter) shows wrong,
//! while the real re-check refuses it: convergence (the loop nest folded
//! by forward-empty), events (a convergent operation renamed), carried
//! invariants (arms swapped under a false invariant), progress (a target
//! that spins where the reference goes on), and the launch pair (the
//! empty relation). Used loads: no mutant yet (FIXME in its test: the
//! case written for it, a branch on a load replaced by a branch on an
//! oracle, is accepted by the real re-check too; the test checks that
//! the explicit comparison agrees). Non-vacuity is implied by closure
//! from the launch pair for every pair the relation reaches; the test
//! shows the mutant without it still refuses a contradictory pair, and
//! that without carried invariants as well it accepts anything.

use convcheck_ir::build::{cfg_from_successors, module_of, C};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread, Bounds, Stop};
use convcheck_ir::scenario::ValuesSource;
use convcheck_ir::{
    Block, BlockId, Expr, InstKind, Module, OpKind, OracleClass, Space, Term, UnOp,
};
use convcheck_proofs::product::{check, Limits};
use convcheck_proofs::report::{pick, proved, witness};
use convcheck_proofs::shapes;
use convcheck_smt::product::{by_structure, compare, ProductOptions};
use convcheck_smt::simulation::{
    check_relation, check_relation_with, find_relation, prove_programs, Atom, Conditions, Loc,
    RelNode, SimAnswer, SimOptions,
};
use convcheck_smt::Answer;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Loop executions up to ten iterations, streams up to ten values.
const LIMITS: Limits = Limits {
    max_iters: 9,
    max_stream: 10,
};

fn sim() -> SimOptions {
    SimOptions {
        timeout: Duration::from_secs(10),
        ..SimOptions::default()
    }
}

/// `m` with its non-entry blocks renamed and reordered by `perm`.
fn permute(m: &Module, perm: &[usize]) -> Module {
    let mut out = m.clone();
    let f = &m.functions[0];
    let mut blocks: Vec<Option<Block>> = vec![None; f.blocks.len()];
    for (i, b) in f.blocks.iter().enumerate() {
        let mut b = b.clone();
        b.term.map_succs(|s| perm[s]);
        b.name = format!("r{}", perm[i]);
        blocks[perm[i]] = Some(b);
    }
    out.functions[0].blocks = blocks
        .into_iter()
        .map(|b| b.expect("a bijection"))
        .collect();
    out
}

/// `m` with block `b` split into an empty block and a new last block.
fn split(m: &Module, b: usize) -> Module {
    let mut out = m.clone();
    let f = &mut out.functions[0];
    let n = f.blocks.len();
    let mut tail = f.blocks[b].clone();
    tail.name = format!("{}.split", tail.name);
    f.blocks[b].insts.clear();
    f.blocks[b].term = Term::Br(n);
    f.blocks.push(tail);
    out
}

/// `m` with the arms of block `b`'s two-way branch swapped, and with its
/// condition inverted too when `invert` (the same program).
fn swap_arms(m: &Module, b: BlockId, invert: bool) -> Option<Module> {
    let mut out = m.clone();
    match &mut out.functions[0].blocks[b].term {
        Term::CondBr { then, els, cond } if then != els => {
            std::mem::swap(then, els);
            if invert {
                *cond = Expr::Unary(UnOp::Not, Box::new(cond.clone()));
            }
        }
        _ => return None,
    }
    Some(out)
}

fn references() -> Vec<(String, Module)> {
    let mut cfgs: Vec<Vec<Vec<usize>>> =
        vec![vec![vec![2, 4], vec![3, 4], vec![], vec![1, 2], vec![3]]];
    cfgs.extend(shapes::all(4).into_iter().step_by(pick(7, 97)));
    cfgs.extend(shapes::sample(5, pick(20, 4), 4));
    let mut v = Vec::new();
    for succ in cfgs {
        if !shapes::all_reachable(&succ) {
            continue;
        }
        let n = succ.len();
        for mask in (0..1usize << (n - 1)).step_by(pick(1, 3)) {
            let ops: Vec<bool> = (0..n)
                .map(|i| i == 0 || mask & (1 << (i - 1)) != 0)
                .collect();
            v.push((
                format!("{succ:?} ops {ops:?}"),
                shapes::with_ops(&succ, &ops),
            ));
        }
    }
    for m in shapes::diamonds() {
        v.push(("diamond".into(), m));
    }
    v
}

const PASSES: [&str; 11] = [
    "simplifycfg.merge-block",
    "simplifycfg",
    "simplifycfg<keep-loops>",
    "simplifycfg.forward-empty<keep-loops>",
    "simplifycfg.forward-empty",
    "simplifycfg.hoist",
    "simplifycfg.hoist.unsafe",
    "simplifycfg.sink",
    "simplifycfg.sink.unsafe",
    "loop-unswitch",
    "loop-unswitch.unsafe",
];

/// The targets of one reference, with how each was made.
fn targets(m: &Module) -> Vec<(String, Module)> {
    let n = m.functions[0].blocks.len();
    let mut out = Vec::new();
    let mut push = |how: String, target: Module| {
        if target.functions != m.functions {
            out.push((how, target));
        }
    };
    let mut rev: Vec<usize> = vec![0];
    rev.extend((1..n).rev());
    push("renaming".into(), permute(m, &rev));
    for b in 0..n {
        if let Some(t) = swap_arms(m, b, true) {
            push("inverted condition".into(), t);
        }
        if let Some(t) = swap_arms(m, b, false) {
            push("arm swap".into(), t);
        }
    }
    push("split".into(), split(m, 0));
    push("split".into(), split(m, n - 1));
    for pass in PASSES {
        let mut t = m.clone();
        if convcheck_transforms::lookup(pass)
            .expect("a registry pass")
            .run(&mut t)
            .is_ok()
        {
            push(pass.to_string(), t);
        }
    }
    out
}

#[test]
fn simulation_sound_and_agrees_with_the_bounded_engines() {
    let start = Instant::now();
    let (mut pairs, mut by_sim, mut beyond_structure, mut cyclic) = (0, 0, 0, 0);
    // A budget that ran out is no verdict (and no unsoundness): counted
    // and named.
    let mut unknown: Vec<String> = Vec::new();
    let mut kinds: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let product_opts = ProductOptions {
        max_iters: 2,
        timeout: Duration::from_secs(60),
        ..ProductOptions::default()
    };
    for (what, m) in references() {
        let rp = CfgProgram::new(m.clone());
        for (how, t) in targets(&m) {
            pairs += 1;
            let tp = CfgProgram::new(t.clone());
            let answer = prove_programs(&rp, 0, &tp, 0, &sim());
            // Irreducible references are refused by the engine (not
            // modelled); the shares of each kind are over the others.
            let reducible = rp.cycles[0].is_reducible();
            let mut entry = (0, 0);
            let entry = if reducible {
                kinds.entry(how.clone()).or_default()
            } else {
                &mut entry
            };
            entry.0 += 1;
            let c = match answer {
                SimAnswer::Proved(c) => c,
                SimAnswer::NotFound(_) => continue,
                SimAnswer::Unknown(why) => {
                    unknown.push(format!("{how} of {what}: {why}"));
                    continue;
                }
            };
            entry.1 += 1;
            by_sim += 1;
            beyond_structure += usize::from(by_structure(&rp, &tp, 0).is_none());
            cyclic += usize::from(!rp.cycles[0].cycles.is_empty());
            // The certificate is re-checked by the public entry too.
            assert!(
                check_relation(&rp, 0, &tp, 0, &c.relation, &sim()).is_ok(),
                "{how} of {what}: the certificate does not re-check"
            );
            let v = check(&rp, &tp, LIMITS);
            if let Some((d, s0, s1)) = v.difference {
                panic!(
                    "FINDING: the simulation proves {how} of {what} but the explicit comparison finds \
                     {d:?} (thread 0 {s0:?}, thread 1 {s1:?})"
                );
            }
            if let Answer::Counterexample(cx) = compare(&rp, &tp, 0, &product_opts) {
                panic!(
                    "FINDING: the simulation proves {how} of {what} but the product finds {:?}",
                    cx.property
                );
            }
        }
    }
    assert!(by_sim > 0 && beyond_structure > 0 && cyclic > 0);
    // FIXME(issue 22): a few wrong targets (arms swapped without the
    // condition inverted) make the search run out of its 10 s budget
    // instead of answering not found; at most one pair in fifty.
    assert!(unknown.len() * 50 <= pairs, "{unknown:#?}");
    // What the simulation is for: it proves the inverted conditions the
    // structural rule cannot.
    let inverted = kinds.get("inverted condition").copied().unwrap_or_default();
    assert!(inverted.1 * 10 >= inverted.0 * 9, "{kinds:?}");
    proved(
        "simulation",
        &format!(
            "{pairs} reference/target pairs; proved {by_sim} ({beyond_structure} the structural rule \
             does not prove, {cyclic} with cycles), each with no difference in the explicit \
             comparison (ten iterations per loop execution) nor a counterexample of the product \
             (max-iters 2); {} unknown (budget); proved of each kind, reducible references: {} \
             ({:.1} s)",
            unknown.len(),
            kinds
                .iter()
                .map(|(k, (n, p))| format!("{k} {p}/{n}"))
                .collect::<Vec<_>>()
                .join(", "),
            start.elapsed().as_secs_f64()
        ),
    );
}

/// A module of one function with the given blocks' instructions and
/// terminators, an op per observation label.
struct Builder {
    m: Module,
}

impl Builder {
    fn new(succ: &[Vec<usize>]) -> Builder {
        Builder {
            m: module_of(cfg_from_successors(succ)),
        }
    }

    fn observe(&mut self, b: usize, label: &str) -> &mut Self {
        let sid = shapes::add_op(&mut self.m, label, OpKind::Observe);
        self.m.functions[0].blocks[b]
            .insts
            .push(shapes::observe(sid));
        self
    }

    fn term(&mut self, b: usize, t: Term) -> &mut Self {
        self.m.functions[0].blocks[b].term = t;
        self
    }

    fn inst(&mut self, b: usize, i: convcheck_ir::Inst) -> &mut Self {
        self.m.functions[0].blocks[b].insts.push(i);
        self
    }

    fn done(&self) -> Module {
        self.m.clone()
    }
}

fn loc(block: usize, inst: usize) -> Loc {
    Loc { block, inst }
}

fn node(init: bool, r: Loc, t: Loc, atoms: Vec<Atom>) -> RelNode {
    RelNode {
        init,
        loc: [r, t],
        atoms,
        silent: Default::default(),
        long: false,
        accesses: false,
    }
}

/// The re-check without one condition.
fn without(f: impl FnOnce(&mut Conditions)) -> Conditions {
    let mut c = Conditions::default();
    f(&mut c);
    c
}

/// Asserts that the real re-check refuses `rel`, the mutant `on` accepts
/// it, and returns what the explicit comparison finds.
fn caught(
    name: &str,
    r: &Module,
    t: &Module,
    rel: &[RelNode],
    on: Conditions,
) -> convcheck_proofs::product::Difference {
    let (rp, tp) = (CfgProgram::new(r.clone()), CfgProgram::new(t.clone()));
    let real = check_relation(&rp, 0, &tp, 0, rel, &sim());
    assert!(real.is_err(), "{name}: the re-check accepts the relation");
    let mutant = check_relation_with(&rp, 0, &tp, 0, rel, &sim(), on);
    assert!(
        mutant.is_ok(),
        "{name}: the mutant refuses the relation: {mutant:?}"
    );
    let v = check(&rp, &tp, LIMITS);
    let (d, _, _) = v
        .difference
        .unwrap_or_else(|| panic!("{name}: the explicit comparison finds no difference"));
    witness(
        "simulation",
        &format!(
            "without the {name} condition the re-check accepts a wrong target ({}); \
             the explicit comparison finds {d:?}",
            real.err().unwrap_or_default()
        ),
    );
    d
}

#[test]
fn mutant_without_convergence() {
    // The loop nest 0->2|4, 1->3|4, 3->1|2, 4->3 with ops in 0 and 1, its
    // empty header 4 forwarded (forward-empty without keep-loops): every
    // event stays, convergence changes.
    let r = shapes::with_ops(
        &[vec![2, 4], vec![3, 4], vec![], vec![1, 2], vec![3]],
        &[true, true, false, false, false],
    );
    let mut t = r.clone();
    convcheck_transforms::lookup("simplifycfg.forward-empty")
        .expect("pass")
        .run(&mut t)
        .expect("runs");
    let (rp, tp) = (CfgProgram::new(r.clone()), CfgProgram::new(t.clone()));
    let rel = find_relation(&rp, 0, &tp, 0, &sim()).expect("a relation for the events");
    let d = caught(
        "convergence",
        &r,
        &t,
        &rel,
        without(|c| c.convergence = false),
    );
    assert!(
        matches!(d, convcheck_proofs::product::Difference::Convergence { .. }),
        "{d:?}"
    );
}

/// `A` then a branch on `c` to `B` or `C`: the relation of the program
/// with itself.
fn branchy() -> (Module, Vec<RelNode>) {
    let mut b = Builder::new(&[vec![1, 2], vec![], vec![]]);
    b.observe(0, "A").observe(1, "B").observe(2, "C");
    let m = b.done();
    let p = CfgProgram::new(m.clone());
    let rel = find_relation(&p, 0, &p, 0, &sim()).expect("the identity has a relation");
    assert!(check_relation(&p, 0, &p, 0, &rel, &sim()).is_ok());
    (m, rel)
}

#[test]
fn mutant_without_events() {
    // The relation of the program with itself, for a target whose `B` is
    // renamed `X`.
    let (r, rel) = branchy();
    let mut t = r.clone();
    t.ops[2].label = "X".into();
    caught("events", &r, &t, &rel, without(|c| c.events = false));
}

#[test]
fn mutant_without_launch() {
    let (r, _) = branchy();
    let mut t = r.clone();
    t.ops[2].label = "X".into();
    caught("launch", &r, &t, &[], without(|c| c.launch = false));
}

#[test]
fn mutant_without_used_loads() {
    // `v = shared[0]` then a branch on `v` (the load is used, observable)
    // against the same load with the branch on the oracle `c` (unused, not
    // observable).
    let make = |on_load: bool| {
        let mut b = Builder::new(&[vec![1, 2], vec![], vec![]]);
        let o = shapes::add_oracle(&mut b.m, "shared[0]", OracleClass::Varying);
        let op = shapes::add_op(
            &mut b.m,
            "load shared",
            OpKind::Mem {
                space: Space::Shared,
                write: false,
            },
        );
        let load = convcheck_ir::Inst {
            kind: InstKind::SetLocal {
                name: "v".into(),
                value: Some(Expr::Load {
                    op,
                    space: Space::Shared,
                    index: Box::new(Expr::Const(0)),
                    value: Some(o),
                    access: convcheck_ir::Access::ELEMENT,
                }),
            },
            sid: op,
            token: None,
        };
        b.inst(0, load);
        let cond = if on_load {
            Expr::Var("v".into())
        } else {
            Expr::Oracle(C)
        };
        b.term(
            0,
            Term::CondBr {
                cond,
                then: 1,
                els: 2,
            },
        );
        b.done()
    };
    let (r, t) = (make(true), make(false));
    // The pairs: the launch, both after the load, both returned.
    let rel = vec![
        node(true, loc(0, 0), loc(0, 0), Vec::new()),
        node(false, loc(0, 1), loc(0, 1), Vec::new()),
    ];
    // FIXME(issue 22): no mutant shows the used-loads condition needed
    // yet: the real re-check accepts this relation. What is checked is
    // that it is right to: the explicit comparison finds no difference.
    let (rp, tp) = (CfgProgram::new(r.clone()), CfgProgram::new(t.clone()));
    if check_relation(&rp, 0, &tp, 0, &rel, &sim()).is_ok() {
        let v = check(&rp, &tp, LIMITS);
        assert!(
            v.difference.is_none(),
            "the re-check accepts a target the explicit comparison shows wrong: {:?}",
            v.difference
        );
    } else {
        caught("used loads", &r, &t, &rel, without(|c| c.used = false));
    }
}

#[test]
fn mutant_without_invariants() {
    // `x = c; A; if (x) B else C` against the arms swapped (wrong), under
    // the false invariant `ref x != 0, tgt x = 0` after `A`, which pairs
    // `B` with `B`.
    let make = |swap: bool| {
        let mut b = Builder::new(&[vec![1, 2], vec![], vec![]]);
        b.inst(0, shapes::set_local("x", Expr::Oracle(C)))
            .observe(0, "A")
            .observe(1, "B")
            .observe(2, "C");
        let (then, els) = if swap { (2, 1) } else { (1, 2) };
        b.term(
            0,
            Term::CondBr {
                cond: Expr::Var("x".into()),
                then,
                els,
            },
        );
        b.done()
    };
    let (r, t) = (make(false), make(true));
    let rel = vec![
        node(true, loc(0, 0), loc(0, 0), Vec::new()),
        node(
            false,
            loc(0, 2),
            loc(0, 2),
            vec![
                Atom::VarZero(0, "x".into(), false),
                Atom::VarZero(1, "x".into(), true),
            ],
        ),
        node(false, loc(1, 1), loc(1, 1), Vec::new()),
        node(false, loc(2, 1), loc(2, 1), Vec::new()),
    ];
    caught(
        "carried invariants",
        &r,
        &t,
        &rel,
        without(|c| c.invariants = false),
    );
    // Non-vacuity: a contradictory invariant at the pair after `A` is
    // refused by closure from the launch pair even without the vacuity
    // condition; without carried invariants as well it accepts anything.
    let contradictory = vec![
        node(true, loc(0, 0), loc(0, 0), Vec::new()),
        node(
            false,
            loc(0, 2),
            loc(0, 2),
            vec![
                Atom::VarZero(0, "x".into(), false),
                Atom::VarZero(0, "x".into(), true),
            ],
        ),
    ];
    let (rp, tp) = (CfgProgram::new(r.clone()), CfgProgram::new(t.clone()));
    assert!(check_relation_with(
        &rp,
        0,
        &tp,
        0,
        &contradictory,
        &sim(),
        without(|c| c.vacuity = false)
    )
    .is_err());
    assert!(check_relation_with(
        &rp,
        0,
        &tp,
        0,
        &contradictory,
        &sim(),
        without(|c| {
            c.vacuity = false;
            c.invariants = false;
        })
    )
    .is_ok());
    assert!(check_relation(&rp, 0, &tp, 0, &contradictory, &sim()).is_err());
}

#[test]
fn mutant_without_progress() {
    // `A; B` against `A` then a loop that never ends: each step the target
    // goes round its loop while the reference waits at `B`.
    let mut b = Builder::new(&[vec![1], vec![]]);
    b.observe(0, "A").observe(1, "B");
    let r = b.done();
    let mut b = Builder::new(&[vec![1], vec![1]]);
    b.observe(0, "A");
    let t = b.done();
    let rel = vec![
        node(true, loc(0, 0), loc(0, 0), Vec::new()),
        node(false, loc(0, 1), loc(0, 1), Vec::new()),
        node(false, loc(0, 1), loc(1, 0), Vec::new()),
    ];
    let (rp, tp) = (CfgProgram::new(r.clone()), CfgProgram::new(t.clone()));
    let real = check_relation(&rp, 0, &tp, 0, &rel, &sim());
    assert!(
        real.is_err(),
        "the re-check accepts a target that never ends"
    );
    let mutant = check_relation_with(
        &rp,
        0,
        &tp,
        0,
        &rel,
        &sim(),
        without(|c| c.progress = false),
    );
    assert!(mutant.is_ok(), "{mutant:?}");
    // Bounded comparisons cut the target's run; the interpreter shows the
    // difference: the reference ends after `A`, `B`, the target never
    // ends (fuel exhausted).
    let bounds = Bounds {
        max_iters: u32::MAX,
        fuel: 10_000,
        ..Bounds::default()
    };
    let values = convcheck_ir::scenario::ThreadValues::default();
    let (rt, rr) = run_thread(&rp, 0, 0, 2, bounds, &mut ValuesSource(&values));
    let (_, tr) = run_thread(&tp, 0, 0, 2, bounds, &mut ValuesSource(&values));
    assert!(rr.is_ok() && rt.events.iter().any(|e| rp.module.label(e.sid) == "B"));
    assert!(
        matches!(tr, Err(Stop::OutOfBounds(_))),
        "the target ends: {tr:?}"
    );
    witness(
        "simulation",
        &format!(
            "without the progress condition the re-check accepts a target that never ends where the \
             reference runs `A`, `B` and returns ({})",
            real.err().unwrap_or_default()
        ),
    );
}
