//! Theorem 3, `branch-dist`: which of seed 002's removal conditions are
//! sound, over its four flags and a two-thread hazard model.
//!
//! **The model (z3).** One barrier between two phases, *above* and
//! *below*. In each phase each of two distinct threads may read one
//! address and may write one address of shared memory (one access of each
//! kind is all a hazard needs). The pass's flags over-approximate what the
//! threads do: a thread that reads above makes `ra` true, and so on
//! (`rd[t][above] => ra`, ...), and the reference has no race (no
//! conflict within a phase). A *cross-barrier hazard* is what removing
//! the barrier creates: an access of one thread above and an access of the
//! other thread below to the same address, at least one a write (the
//! accesses of one phase were already in one phase). A condition
//! `c(ra, wa, rb, wb)` is sound iff `flags /\ c /\ hazard` is unsat.
//! Before each query the hypotheses are checked satisfiable (`flags /\ c`,
//! and `flags /\ hazard`), and an `unknown` answer fails the test.
//!
//! Conditions 1 (`!ra && !wa`) and 2 (`!rb && !wb`) are sound, and so is
//! the fixed variant's third condition (`!wa && !wb`, no write on either
//! side); conditions 3 (`!ra && !wb`) and 4 (`!wa && !rb`) are not: z3's
//! model is decoded into a kernel, the documented pass `branch-dist`
//! removes its barrier, and the interpreter's hazard model
//! (`convcheck_ir::hazards`) finds a race that the reference does not
//! have.
//!
//! **The passes (exhaustion).** Every kernel made of one barrier between
//! two phases, each phase any subset of {read, write} x {`shared[tid]`,
//! `shared[1 - tid]`} (256 kernels), run by two threads: `branch-dist.fixed`
//! never turns a hazard-free kernel into one with a race; `branch-dist`
//! does.
//!
//! The mutant: condition 1 weakened to `!ra` (a write above is forgotten)
//! is reported unsound.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread, Bounds, OracleSource, Stop};
use convcheck_ir::hazards::hazards;
use convcheck_ir::Module;
use convcheck_proofs::report::{proved_everywhere as proved, witness};
use std::time::Instant;
use z3::ast::{Bool, Int};
use z3::{Params, SatResult, Solver};

/// The flags of one barrier, as z3 terms.
struct Flags {
    ra: Bool,
    wa: Bool,
    rb: Bool,
    wb: Bool,
}

/// A removal condition over the flags.
type Condition = fn(&Flags) -> Bool;

fn c1(f: &Flags) -> Bool {
    Bool::and(&[f.ra.not(), f.wa.not()])
}
fn c2(f: &Flags) -> Bool {
    Bool::and(&[f.rb.not(), f.wb.not()])
}
fn c3(f: &Flags) -> Bool {
    Bool::and(&[f.ra.not(), f.wb.not()])
}
fn c4(f: &Flags) -> Bool {
    Bool::and(&[f.wa.not(), f.rb.not()])
}
fn fixed3(f: &Flags) -> Bool {
    Bool::and(&[f.wa.not(), f.wb.not()])
}
fn mutant1(f: &Flags) -> Bool {
    f.ra.not()
}

/// The two-thread model: accesses, flags, the hypotheses and the hazard.
struct Model2 {
    flags: Flags,
    /// `rd[t][p]`, `wr[t][p]`: thread `t` reads / writes in phase `p`
    /// (0 above, 1 below); `ar`, `aw` the addresses.
    rd: Vec<Vec<Bool>>,
    wr: Vec<Vec<Bool>>,
    ar: Vec<Vec<Int>>,
    aw: Vec<Vec<Int>>,
}

impl Model2 {
    fn new() -> Model2 {
        let grid = |name: &str| -> Vec<Vec<Bool>> {
            (0..2)
                .map(|t| {
                    (0..2)
                        .map(|p| Bool::new_const(format!("{name}_{t}_{p}")))
                        .collect()
                })
                .collect()
        };
        let ints = |name: &str| -> Vec<Vec<Int>> {
            (0..2)
                .map(|t| {
                    (0..2)
                        .map(|p| Int::new_const(format!("{name}_{t}_{p}")))
                        .collect()
                })
                .collect()
        };
        Model2 {
            flags: Flags {
                ra: Bool::new_const("ra"),
                wa: Bool::new_const("wa"),
                rb: Bool::new_const("rb"),
                wb: Bool::new_const("wb"),
            },
            rd: grid("rd"),
            wr: grid("wr"),
            ar: ints("ar"),
            aw: ints("aw"),
        }
    }

    /// The flags over-approximate the accesses, addresses are small, and
    /// the reference has no race.
    fn hypotheses(&self) -> Bool {
        let f = &self.flags;
        let mut v = vec![self.phase_safe()];
        for t in 0..2 {
            v.push(self.rd[t][0].implies(&f.ra));
            v.push(self.wr[t][0].implies(&f.wa));
            v.push(self.rd[t][1].implies(&f.rb));
            v.push(self.wr[t][1].implies(&f.wb));
            for p in 0..2 {
                for a in [&self.ar[t][p], &self.aw[t][p]] {
                    v.push(a.ge(Int::from_i64(0)));
                    v.push(a.lt(Int::from_i64(4)));
                }
            }
        }
        Bool::and(&v)
    }

    /// The reference is hazard-free: within each phase the two threads'
    /// accesses do not conflict (DESIGN.md 2.7 item 3 asks to preserve
    /// hazard-freedom).
    fn phase_safe(&self) -> Bool {
        let mut v = Vec::new();
        for p in 0..2 {
            for t in 0..2 {
                let u = 1 - t;
                v.push(
                    Bool::and(&[
                        self.wr[t][p].clone(),
                        self.rd[u][p].clone(),
                        self.aw[t][p].eq(&self.ar[u][p]),
                    ])
                    .not(),
                );
                v.push(
                    Bool::and(&[
                        self.wr[t][p].clone(),
                        self.wr[u][p].clone(),
                        self.aw[t][p].eq(&self.aw[u][p]),
                    ])
                    .not(),
                );
            }
        }
        Bool::and(&v)
    }

    /// An access of thread `t` above and one of the other thread below
    /// conflict.
    fn hazard(&self) -> Bool {
        let mut v = Vec::new();
        for t in 0..2 {
            let u = 1 - t;
            // write above, read below; read above, write below; write, write.
            v.push(Bool::and(&[
                self.wr[t][0].clone(),
                self.rd[u][1].clone(),
                self.aw[t][0].eq(&self.ar[u][1]),
            ]));
            v.push(Bool::and(&[
                self.rd[t][0].clone(),
                self.wr[u][1].clone(),
                self.ar[t][0].eq(&self.aw[u][1]),
            ]));
            v.push(Bool::and(&[
                self.wr[t][0].clone(),
                self.wr[u][1].clone(),
                self.aw[t][0].eq(&self.aw[u][1]),
            ]));
        }
        Bool::or(&v)
    }
}

fn solver() -> Solver {
    let s = Solver::new();
    let mut p = Params::new();
    p.set_u32("timeout", 10_000);
    s.set_params(&p);
    s
}

fn sat(terms: &[Bool]) -> SatResult {
    let s = solver();
    for t in terms {
        s.assert(t);
    }
    s.check()
}

/// Sound: `Ok(())`; unsound: the kernel text of z3's witness.
fn decide(c: Condition) -> Result<(), String> {
    let m = Model2::new();
    let cond = c(&m.flags);
    // The hypotheses are satisfiable, with the condition and with a hazard.
    assert_eq!(sat(&[m.hypotheses(), cond.clone()]), SatResult::Sat);
    assert_eq!(sat(&[m.hypotheses(), m.hazard()]), SatResult::Sat);
    let s = solver();
    s.assert(m.hypotheses());
    s.assert(&cond);
    s.assert(m.hazard());
    match s.check() {
        SatResult::Unsat => Ok(()),
        SatResult::Unknown => panic!("z3 answered unknown: {:?}", s.get_reason_unknown()),
        SatResult::Sat => {
            let model = s.get_model().expect("a model");
            let b = |x: &Bool| {
                model
                    .eval(x, true)
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false)
            };
            let i = |x: &Int| model.eval(x, true).and_then(|v| v.as_i64()).unwrap_or(0);
            let mut phases = [String::new(), String::new()];
            for (p, text) in phases.iter_mut().enumerate() {
                for t in 0..2 {
                    if b(&m.rd[t][p]) {
                        text.push_str(&format!(
                            "  if (tid == {t}) {{ x = shared[{}]; }}\n",
                            i(&m.ar[t][p])
                        ));
                    }
                    if b(&m.wr[t][p]) {
                        text.push_str(&format!(
                            "  if (tid == {t}) {{ shared[{}] = 1; }}\n",
                            i(&m.aw[t][p])
                        ));
                    }
                }
            }
            Err(format!(
                "void k() {{\n  int x = 0;\n{}  __syncthreads();\n{}}}\n",
                phases[0], phases[1]
            ))
        }
    }
}

struct NoOracles;

impl OracleSource for NoOracles {
    fn value(&mut self, module: &Module, oracle: usize, _k: u32) -> Result<i64, Stop> {
        Ok(module.oracles[oracle].domain.first().copied().unwrap_or(0))
    }
}

/// Races of `module` run by threads 0 and 1 (none of these kernels reads
/// an oracle).
fn races(module: &Module) -> usize {
    let p = CfgProgram::new(module.clone());
    let traces: Vec<_> = (0..2)
        .map(|t| {
            let (trace, res) = run_thread(&p, 0, t, 2, Bounds::default(), &mut NoOracles);
            res.expect("the kernel runs");
            trace
        })
        .collect();
    let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let report = hazards(module, &runs);
    assert!(
        report.divergence.is_empty(),
        "no barrier divergence in these kernels"
    );
    report.races.len()
}

fn lower(src: &str) -> Module {
    let k =
        convcheck_lang::sema::Kernel::parse("k.c", src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    convcheck_lang::lower::lower(&k, false)
}

/// Runs `pass` on `src`; returns (reference races, target races, barriers
/// removed).
fn replay(pass: &str, src: &str) -> (usize, usize, bool) {
    let m = lower(src);
    let mut out = m.clone();
    convcheck_transforms::lookup(pass)
        .expect("a registry pass")
        .run(&mut out)
        .expect("the pass runs");
    (races(&m), races(&out), out.functions != m.functions)
}

/// The 256 kernels of the exhaustive part.
fn kernels() -> Vec<String> {
    let items = [
        "  x = shared[tid];\n",
        "  shared[tid] = 1;\n",
        "  x = shared[1 - tid];\n",
        "  shared[1 - tid] = 1;\n",
    ];
    let phase = |mask: usize| -> String {
        (0..4)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| items[i])
            .collect()
    };
    let mut v = Vec::new();
    for a in 0..16 {
        for b in 0..16 {
            v.push(format!(
                "void k() {{\n  int x = 0;\n{}  __syncthreads();\n{}}}\n",
                phase(a),
                phase(b)
            ));
        }
    }
    v
}

#[test]
fn branch_dist() {
    let start = Instant::now();
    for (name, c) in [
        ("1 (!ra && !wa)", c1 as Condition),
        ("2 (!rb && !wb)", c2),
        ("fixed (!wa && !wb)", fixed3),
    ] {
        if let Err(k) = decide(c) {
            panic!("condition {name} is unsound:\n{k}");
        }
    }
    let mut replayed = Vec::new();
    for (name, c) in [("3 (!ra && !wb)", c3 as Condition), ("4 (!wa && !rb)", c4)] {
        let k = decide(c).expect_err("z3 finds a hazard");
        let (before, after, removed) = replay("branch-dist", &k);
        assert!(
            removed && before == 0 && after > 0,
            "replay of condition {name}:\n{k}\nraces {before} -> {after}"
        );
        replayed.push(format!("condition {name}: {}", k.replace('\n', " ")));
    }
    // The passes over the 256 kernels.
    let (mut safe, mut removed_fixed, mut broken) = (0, 0, 0);
    for k in kernels() {
        let (before, after, removed) = replay("branch-dist.fixed", &k);
        if before == 0 {
            safe += 1;
            assert_eq!(after, 0, "branch-dist.fixed adds a race to\n{k}");
            removed_fixed += usize::from(removed);
        }
        let (before, after, _) = replay("branch-dist", &k);
        if before == 0 && after > 0 {
            broken += 1;
        }
    }
    assert!(removed_fixed > 10 && broken > 0, "{removed_fixed} {broken}");
    proved(
        "branch-dist",
        &format!(
            "the two-thread hazard model over all values of seed 002's four flags (z3: conditions 1, 2 and the fixed variant's !wa && !wb unsat with a hazard, \
             hypotheses satisfiable); and by exhaustion the 256 kernels of one barrier between two phases of shared[tid] / shared[1 - tid] accesses, \
             2 threads: branch-dist.fixed keeps all {safe} hazard-free ones hazard-free (removing {removed_fixed} barriers), \
             branch-dist adds a race to {broken}; {:.1}s",
            start.elapsed().as_secs_f64()
        ),
    );
    witness(
        "branch-dist",
        &format!("z3's witnesses, replayed through branch-dist and the hazard model (no race before, a race after): {}", replayed.join("; ")),
    );
}

#[test]
fn branch_dist_mutant_condition_weakened() {
    let k = decide(mutant1).expect_err("a weakened condition 1 must be unsound");
    witness(
        "branch-dist",
        &format!(
            "mutant: condition 1 weakened to !ra is unsound, z3's hazard: {}",
            k.replace('\n', " ")
        ),
    );
}
