//! Seed 000's bulleted claims as executable tests.
//!
//! Each example of seed 000 ships as `examples/seed/*.c`. For each, every
//! per-thread path within bounds is enumerated once, and every claim is
//! checked over every pair of paths (two threads of a group; the
//! two-thread reduction of DESIGN.md 2.2). A claim about
//! implementation-defined convergence is checked by asserting that the model
//! leaves it open: the instances' keys relate through choice variables, and
//! the constraints of DESIGN.md 2.4 allow both answers for some pair.

use convcheck_ir::convergence::{can_converge, can_stay_apart, relate_events};
use convcheck_ir::exec::{Bounds, Event};
use convcheck_ir::key::Rel;
use convcheck_ir::paths::{compatible, enumerate, Path};
use convcheck_lang::exec::SourceProgram;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::{StmtId, StmtKind};

struct Example {
    kernel: Kernel,
    module: convcheck_ir::Module,
    paths: Vec<Path>,
}

fn load(name: &str, function: Option<&str>) -> Example {
    let path = format!(
        "{}/../../examples/seed/{name}.c",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&path).expect("seed example exists");
    let kernel = Kernel::parse(&path, &src).unwrap_or_else(|d| panic!("{d}"));
    let entry = kernel.entry(function).expect("entry");
    let bounds = Bounds {
        max_iters: 2,
        ..Bounds::default()
    };
    let set = enumerate(&SourceProgram::new(&kernel).unwrap(), entry, 0, 2, bounds);
    assert!(set.incomplete.is_none(), "{name}: {:?}", set.incomplete);
    assert!(
        set.paths.len() > 1,
        "{name}: only {} path(s)",
        set.paths.len()
    );
    Example {
        module: kernel.module(),
        kernel,
        paths: set.paths,
    }
}

impl Example {
    /// Every pair of paths of two threads (a path with itself included).
    fn pairs(&self) -> Vec<(&Path, &Path)> {
        let mut out = Vec::new();
        for (i, p) in self.paths.iter().enumerate() {
            for q in &self.paths[i..] {
                if compatible(&self.module, p, q) {
                    out.push((p, q));
                }
            }
        }
        out
    }

    /// Indices of the events labelled `label` in a path.
    fn at(&self, p: &Path, label: &str) -> Vec<usize> {
        p.trace
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| self.kernel.label(e.sid) == label)
            .map(|(i, _)| i)
            .collect()
    }

    /// The label of the first statement of a kind (for unnamed ones).
    fn label_of(&self, pred: impl Fn(&StmtKind) -> bool) -> String {
        let mut found: Option<StmtId> = None;
        for f in self.kernel.file.functions() {
            f.body.walk(&mut |s| {
                if found.is_none() && pred(&s.kind) {
                    found = Some(s.id);
                }
            });
        }
        self.kernel
            .label(found.expect("statement exists"))
            .to_string()
    }

    fn check_label_exists(&self, label: &str) {
        assert!(
            self.paths.iter().any(|p| !self.at(p, label).is_empty()),
            "no path reaches `{label}`: the claim would be vacuous"
        );
    }

    /// Every pair of instances of `label` in two threads is converged.
    fn always_converged(&self, label: &str) {
        self.check_label_exists(label);
        let mut n = 0;
        for (p, q) in self.pairs() {
            for &i in &self.at(p, label) {
                for &j in &self.at(q, label) {
                    let r = relate_events(&p.trace.events[i], &q.trace.events[j]);
                    assert_eq!(
                        r,
                        Rel::Converged,
                        "`{label}`: {:?} vs {:?}",
                        p.decisions,
                        q.decisions
                    );
                    n += 1;
                }
            }
        }
        assert!(n > 0);
    }

    /// Instances of `label` are converged iff they are in the same
    /// iteration of the loop whose condition event is labelled `head`.
    fn converged_iff_same_iteration(&self, label: &str, head: &str) {
        self.check_label_exists(label);
        let iteration = |p: &Path, i: usize| self.at(p, head).iter().filter(|&&h| h < i).count();
        let mut seen = (false, false);
        for (p, q) in self.pairs() {
            for &i in &self.at(p, label) {
                for &j in &self.at(q, label) {
                    let r = relate_events(&p.trace.events[i], &q.trace.events[j]);
                    let same = iteration(p, i) == iteration(q, j);
                    let expect = if same { Rel::Converged } else { Rel::Apart };
                    assert_eq!(
                        r, expect,
                        "`{label}` {:?} vs {:?}",
                        p.decisions, q.decisions
                    );
                    if same {
                        seen.0 = true;
                    } else {
                        seen.1 = true;
                    }
                }
            }
        }
        assert!(seen.0 && seen.1, "`{label}`: both cases must occur");
    }

    /// "Threads converged at `from` are converged at `to` if they both reach
    /// it": for every pair of instances of `from` that are converged (or
    /// open), the next instances of `to` in each thread, before the next
    /// `from` or any of `stop`, relate exactly as the `from` instances do.
    fn follows(&self, from: &str, to: &str, stop: &[&str]) {
        self.check_label_exists(to);
        let next = |p: &Path, i: usize| -> Option<usize> {
            for (k, e) in p.trace.events.iter().enumerate().skip(i + 1) {
                let l = self.kernel.label(e.sid);
                if l == to {
                    return Some(k);
                }
                if l == from || stop.contains(&l) {
                    return None;
                }
            }
            None
        };
        let mut n = 0;
        for (p, q) in self.pairs() {
            for &i in &self.at(p, from) {
                for &j in &self.at(q, from) {
                    let r = relate_events(&p.trace.events[i], &q.trace.events[j]);
                    if r == Rel::Apart {
                        continue;
                    }
                    if let (Some(a), Some(b)) = (next(p, i), next(q, j)) {
                        let r2 = relate_events(&p.trace.events[a], &q.trace.events[b]);
                        assert_eq!(
                            r2, r,
                            "`{from}` -> `{to}`: {:?} vs {:?}",
                            p.decisions, q.decisions
                        );
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 0, "`{from}` -> `{to}` never exercised");
    }

    /// Convergence at `label` is implementation-defined: every pair of
    /// instances in two threads relates through choice variables, and for
    /// some pair both answers are allowed.
    fn open(&self, label: &str) {
        self.check_label_exists(label);
        let mut both = false;
        for (p, q) in self.pairs() {
            let runs: [&[Event]; 2] = [&p.trace.events, &q.trace.events];
            for &i in &self.at(p, label) {
                for &j in &self.at(q, label) {
                    let r = relate_events(&p.trace.events[i], &q.trace.events[j]);
                    assert!(
                        matches!(r, Rel::Open(_)),
                        "`{label}` should be open, is {r:?}"
                    );
                    if can_converge(runs, i, j) && can_stay_apart(runs, i, j) {
                        both = true;
                    }
                }
            }
        }
        assert!(both, "`{label}`: no pair where both answers are allowed");
    }
}

/// Seed 000, Sequential Execution, "Sequential execution at a branch".
#[test]
fn sequential_branch() {
    let ex = load("sequential-branch", None);
    // Threads converged at the start of foo() are converged at A1 and A2.
    ex.always_converged("A1");
    ex.always_converged("A2");
    // Those that take the branch are converged at B1 and B2; the others at C.
    ex.always_converged("B1");
    ex.always_converged("B2");
    ex.always_converged("C");
    ex.follows("B1", "B2", &[]);
    // All threads are converged at D after the if.
    ex.always_converged("D");
}

/// Seed 000, Sequential Execution, "Sequential execution in a loop".
#[test]
fn sequential_loop() {
    let ex = load("sequential-loop", None);
    let head = ex.label_of(|k| matches!(k, StmtKind::While { .. }));
    // Converged at the start of the while and again at C.
    ex.always_converged("A1");
    ex.always_converged("A2");
    ex.always_converged("C");
    // Inside the loop, the iteration rules decide.
    ex.converged_iff_same_iteration("L1", &head);
    ex.converged_iff_same_iteration("L2", &head);
}

/// Seed 000, Iteration Statement.
#[test]
fn iteration_statement() {
    let ex = load("iteration-statement", None);
    let head = ex.label_of(|k| matches!(k, StmtKind::While { .. }));
    // Converged at A1 and A2.
    ex.always_converged("A1");
    ex.always_converged("A2");
    // Threads with cond1 true run the body for the first time, converged at L1.
    ex.converged_iff_same_iteration("L1", &head);
    // Of those, threads with cond2 false are converged at L2, then with
    // cond3 false at L3.
    ex.follows("L1", "L2", &[&head]);
    ex.follows("L2", "L3", &[&head]);
    ex.converged_iff_same_iteration("L2", &head);
    ex.converged_iff_same_iteration("L3", &head);
    // Threads converged at the start of the body that did not exit are
    // converged at the end of the body and at the next evaluation of cond1.
    ex.follows("L1", &head, &["C"]);
    ex.converged_iff_same_iteration(&head, &head);
    // Threads converged at the start of the while are converged at C.
    ex.always_converged("C");
}

/// Seed 000, Iteration Statement, "Jump into loop".
#[test]
fn jump_into_loop() {
    let ex = load("jump-into-loop", None);
    let head = ex.label_of(|k| matches!(k, StmtKind::While { .. }));
    // Implementation-defined at the condition, L1, L2, L3 and L5.
    ex.open(&head);
    ex.open("L1");
    ex.open("L2");
    ex.open("L3");
    ex.open("L5");
    // Threads converged at L3 are converged at L4 and G2 if they enter
    // the branch (in every allowed relation: same choice formula).
    ex.follows("L3", "L4", &[]);
    ex.follows("L3", "G2", &[]);
    // Converged at C (threads from G1 and from B alike) and at D
    // (threads from G2 and from C alike).
    ex.always_converged("C");
    ex.always_converged("D");
    ex.always_converged("A");
}

/// Seed 000, Iteration Statement, "Duff's device".
#[test]
fn duffs_device() {
    let ex = load("duffs-device", None);
    let switch = ex.label_of(|k| matches!(k, StmtKind::Switch { .. }));
    // Converged at the start of the switch.
    ex.always_converged(&switch);
    // Implementation-defined at L and LC2.
    ex.open("L");
    ex.open("LC2");
    // Converged at C2 if they reach it, at C3 (jump to case 3), at D.
    ex.always_converged("C2");
    ex.always_converged("C3");
    ex.always_converged("D");
    ex.always_converged("C1");
}

/// Seed 000, Jump Statements, "Simple goto".
#[test]
fn simple_goto() {
    let ex = load("goto", None);
    let head = ex.label_of(|k| matches!(k, StmtKind::While { .. }));
    let goto = ex.label_of(|k| matches!(k, StmtKind::Goto(_)));
    // Converged at L1 -> converged at L2 if they reach it.
    ex.follows("L1", "L2", &[&goto]);
    // Converged at L2 -> converged at label_X; converged at the goto ->
    // converged at label_X.
    ex.follows("L2", "label_X", &[]);
    ex.follows(&goto, "label_X", &[]);
    // All threads converged at the start of the body are converged at
    // label_X, whichever way they came; then at L3.
    ex.converged_iff_same_iteration("label_X", &head);
    ex.follows("label_X", "L3", &[]);
    ex.converged_iff_same_iteration("L3", &head);
    ex.always_converged("B");
}

/// Seed 000, Jump Statements, "Simple switch".
#[test]
fn simple_switch() {
    let ex = load("switch", None);
    // Threads that jump to case 1 / 2 / 3 are converged at C1 / C2 / C3;
    // threads that fall through from case 2 are converged at C3 with those
    // that jump to case 3 directly.
    ex.always_converged("C1");
    ex.always_converged("C2");
    ex.always_converged("C3");
    ex.follows("C2", "C3", &[]);
    let fell_through = ex
        .paths
        .iter()
        .any(|p| !ex.at(p, "C2").is_empty() && !ex.at(p, "C3").is_empty());
    let jumped = ex
        .paths
        .iter()
        .any(|p| ex.at(p, "C2").is_empty() && !ex.at(p, "C3").is_empty());
    assert!(fell_through && jumped);
}

/// Seed 000, Jump Statements, "Backwards goto".
#[test]
fn backwards_goto() {
    let ex = load("backwards-goto", None);
    // Implementation-defined in the span of G3: L1, L2, L3, L5, L6.
    for l in ["L1", "L2", "L3", "L5", "L6", "G3"] {
        ex.open(l);
    }
    // Converged at L3 -> converged at L4 and G2 if they enter the branch.
    ex.follows("L3", "L4", &[]);
    ex.follows("L3", "G2", &[]);
    // Converged at C and at D.
    ex.always_converged("A");
    ex.always_converged("C");
    ex.always_converged("D");
}

/// Seed 000, Function body: threads converged at a convergent call are
/// converged at the start of the callee; distinct calls are never
/// converged (the explicit-mask example, read without masks).
#[test]
fn calls_key_the_callee() {
    let ex = load("thread-masks", None);
    ex.always_converged("B");
    ex.always_converged("C");
    let mut checked = 0;
    for (p, q) in ex.pairs() {
        for &i in &ex.at(p, "convergent_func") {
            for &j in &ex.at(q, "convergent_func") {
                let via = |path: &Path| {
                    if ex.at(path, "B").is_empty() {
                        "C"
                    } else {
                        "B"
                    }
                };
                let r = relate_events(&p.trace.events[i], &q.trace.events[j]);
                let expect = if via(p) == via(q) {
                    Rel::Converged
                } else {
                    Rel::Apart
                };
                assert_eq!(r, expect);
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

/// Seed 000's first example: converged at the crosslane operation iff both
/// threads take the branch.
#[test]
fn crosslane_operation() {
    let ex = load("crosslane-operation", None);
    ex.always_converged("crosslane_operation");
}

/// Seed 000, "Ambiguity in a Simplified CFG": the two loops differ.
#[test]
fn ambiguity_loops_differ_as_the_seed_says() {
    let cont = load("ambiguity-source", Some("loop_continue"));
    let nest = load("ambiguity-source", Some("loop_nest"));
    let head = cont.label_of(|k| matches!(k, StmtKind::For { .. }));
    // loop_continue: B and C converged iff same iteration of the for.
    cont.converged_iff_same_iteration("B", &head);
    cont.converged_iff_same_iteration("C", &head);
    // loop_nest: C is converged iff in the same iteration of the outer do;
    // B needs the same outer and inner iteration.
    let outer = nest.label_of(|k| matches!(k, StmtKind::DoWhile { .. }));
    nest.converged_iff_same_iteration("C", &outer);
    nest.always_converged("A");
    nest.always_converged("D");
}

/// Seed 000, The noconvergent Statement: convergence at the start of the
/// statement is implementation-defined, and inside it the usual rules
/// apply from there; a jump into it from outside is an error.
#[test]
fn noconvergent_statement() {
    let src = "void k() {\n  ... // A\n  [[clang::noconvergent]] {\n    ... // N\n    if (c) {\n      ... // M\n    }\n  }\n  ... // D\n}\n";
    let kernel = Kernel::parse("noconvergent.c", src).unwrap_or_else(|d| panic!("{d}"));
    let entry = kernel.entry(None).expect("entry");
    let set = enumerate(
        &SourceProgram::new(&kernel).unwrap(),
        entry,
        0,
        2,
        Bounds::default(),
    );
    let ex = Example {
        module: kernel.module(),
        kernel,
        paths: set.paths,
    };
    ex.always_converged("A");
    ex.open("N");
    // Threads converged at N (as the implementation chose) converge at M.
    ex.follows("N", "M", &[]);
    ex.always_converged("D");

    let bad = "void k() {\n  goto in;\n  [[clang::noconvergent]] {\n    in: ... // N\n  }\n}\n";
    let err = Kernel::parse("bad.c", bad).expect_err("jump into noconvergent");
    assert!(err.to_string().contains("bad.c:2:3:"), "{err}");
    assert!(err.to_string().contains("noconvergent"), "{err}");
}

/// Seed 000, Function body: threads converged at the start of a function
/// are converged when they leave it by the same or different `return`.
#[test]
fn return_statements_reconverge_after_the_call() {
    let src = "void f() {\n  if (c) {\n    ... // R1\n    return;\n  }\n  ... // R2\n  return;\n}\nvoid k() {\n  f(); // CALL\n  ... // AFTER\n}\n";
    let kernel = Kernel::parse("ret.c", src).unwrap_or_else(|d| panic!("{d}"));
    let entry = kernel.entry(Some("k")).expect("entry");
    let set = enumerate(
        &SourceProgram::new(&kernel).unwrap(),
        entry,
        0,
        2,
        Bounds::default(),
    );
    let ex = Example {
        module: kernel.module(),
        kernel,
        paths: set.paths,
    };
    ex.always_converged("CALL");
    ex.always_converged("R1");
    ex.always_converged("R2");
    ex.always_converged("AFTER");
}
