//! The hazard model (DESIGN.md 2.6) on the hazard corpus
//! `examples/hazards/*.c`: for each example and explicit scenario, the
//! expected races (threads, address, both lines) and barrier divergences,
//! and the values data-carrying barriers return. Every scenario is run at
//! the source level and on the lowered CFG, and both levels must give the
//! same report (lowering preserves hazards).

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::run_scenario;
use convcheck_ir::hazards::{hazards, racing_addresses, DivergenceKind, HazardReport};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_lang::exec::SourceProgram;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::{BarrierKind, Kernel};
use convcheck_lang::syntax::ast::Space;
use std::collections::BTreeSet;

fn source(name: &str) -> (String, String) {
    let path = format!(
        "{}/../../examples/hazards/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (path, src)
}

fn scenario(threads: &[&str]) -> Scenario {
    Scenario {
        threads: threads
            .iter()
            .map(|t| ThreadValues::parse(t).expect("values"))
            .collect(),
    }
}

/// The report of `src` under `threads`, at the source level; panics if the
/// CFG level disagrees.
fn report_src(path: &str, src: &str, threads: &[&str]) -> HazardReport {
    let k = Kernel::parse(path, src).unwrap_or_else(|d| panic!("{d}"));
    let entry = k.entry(None).expect("one kernel");
    let sc = scenario(threads);
    let traces = run_scenario(&SourceProgram::new(&k).unwrap(), entry, &sc, 10_000).expect("runs");
    let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let at_source = hazards(&k.module(), &runs);
    let program = CfgProgram::new(lower(&k, false));
    let traces = run_scenario(&program, entry, &sc, 10_000).expect("runs");
    let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let at_cfg = hazards(&k.module(), &runs);
    assert_eq!(
        at_source, at_cfg,
        "{path}: the source level and the CFG level disagree on hazards"
    );
    at_source
}

fn report(name: &str, threads: &[&str]) -> HazardReport {
    let (path, src) = source(name);
    report_src(&path, &src, threads)
}

/// The example with line `line` (from 1) blanked out.
fn without_lines(name: &str, lines: &[usize]) -> (String, String) {
    let (path, src) = source(name);
    let out: Vec<&str> = src
        .lines()
        .enumerate()
        .map(|(i, l)| if lines.contains(&(i + 1)) { "" } else { l })
        .collect();
    (path, out.join("\n"))
}

fn blank(n: usize) -> Vec<&'static str> {
    vec![""; n]
}

fn assert_clean(r: &HazardReport, what: &str) {
    assert!(
        r.races.is_empty(),
        "{what}: unexpected races {:#?}",
        r.races
    );
    assert!(
        r.divergence.is_empty(),
        "{what}: unexpected barrier divergence {:#?}",
        r.divergence
    );
}

/// (lower thread, higher thread, address).
type Racing = BTreeSet<(usize, usize, i64)>;

/// (line of the first access, line of the second).
type Lines = BTreeSet<(u32, u32)>;

/// The racing (thread, thread, address) triples on `shared`, and every
/// race's pair of lines.
fn shared_races(r: &HazardReport) -> (Racing, Lines) {
    let addrs = racing_addresses(r)
        .into_iter()
        .map(|(t, u, s, a)| {
            assert_eq!(s, Space::Shared);
            (t, u, a)
        })
        .collect();
    let lines = r
        .races
        .iter()
        .map(|x| (x.first.site.line, x.second.site.line))
        .collect();
    (addrs, lines)
}

#[test]
fn producer_consumer_with_a_barrier_is_hazard_free() {
    for n in [2, 3, 4] {
        let r = report("producer-consumer.c", &blank(n));
        assert_clean(&r, "producer-consumer.c");
        assert_eq!(r.barriers, vec![1; n]);
    }
}

#[test]
fn producer_consumer_without_a_barrier_races_on_each_neighbour_slot() {
    let r = report("producer-consumer-race.c", &blank(4));
    assert!(r.divergence.is_empty());
    let (addrs, lines) = shared_races(&r);
    // Thread t reads shared[(t+1)%4], which thread (t+1)%4 writes.
    let want: BTreeSet<(usize, usize, i64)> = [(0, 1, 1), (1, 2, 2), (2, 3, 3), (0, 3, 0)].into();
    assert_eq!(addrs, want);
    // Write on line 6, read on line 7, in either order of the threads.
    assert_eq!(lines, [(6, 7), (7, 6)].into());
    for race in &r.races {
        assert_eq!(race.phase, 0);
        assert_ne!(race.first.write, race.second.write, "{race}");
    }
    let text = r.races[0].to_string();
    assert_eq!(
        text,
        "race on shared[0] in phase 0: thread 0 writes at `shared[tid]` (line 6) and thread 3 reads at `shared[(tid + 1) % N]` (line 7)"
    );
}

#[test]
fn neighbour_exchange_needs_its_barrier() {
    let r = report("neighbour-exchange.c", &blank(3));
    assert_clean(&r, "neighbour-exchange.c");
    // Without the barrier (line 11): thread t's write of shared[t] (line
    // 10) races with thread t+1's read of it (line 12).
    let (path, src) = without_lines("neighbour-exchange.c", &[11]);
    let r = report_src(&path, &src, &blank(3));
    let (addrs, lines) = shared_races(&r);
    assert_eq!(addrs, [(0, 1, 0), (1, 2, 1)].into());
    assert_eq!(lines, [(10, 12)].into());
}

#[test]
fn barriers_in_a_uniform_loop_separate_every_phase() {
    let r = report("loop-barriers.c", &blank(3));
    assert_clean(&r, "loop-barriers.c");
    assert_eq!(r.barriers, vec![4; 3]);
    // Without B2 (line 10), the next iteration's write races with this
    // iteration's read (write-after-read across the back edge).
    let (path, src) = without_lines("loop-barriers.c", &[10]);
    let r = report_src(&path, &src, &blank(3));
    assert!(r.divergence.is_empty());
    assert!(!r.races.is_empty());
    assert!(r.races.iter().all(|x| x.phase == 1), "{:#?}", r.races);
    // Without B1 (line 8), the read races with the neighbour's write in the
    // same iteration.
    let (path, src) = without_lines("loop-barriers.c", &[8]);
    let r = report_src(&path, &src, &blank(3));
    assert!(r.races.iter().any(|x| x.phase == 0));
}

#[test]
fn a_thread_leaving_a_barrier_loop_early_is_barrier_divergence() {
    let r = report("loop-divergent-trips.c", &["more=1,0", "more=1,1,0"]);
    assert!(r.races.is_empty());
    assert_eq!(r.divergence.len(), 1, "{:#?}", r.divergence);
    let d = &r.divergence[0];
    assert_eq!(d.kind, DivergenceKind::Left);
    assert_eq!((d.thread, d.other, d.position), (0, 1, 1));
    assert_eq!(d.at, None);
    assert_eq!(d.other_at.as_ref().map(|s| s.line), Some(8));
    assert_eq!(
        d.to_string(),
        "barrier divergence: thread 0 leaves after 1 barrier(s) while thread 1 waits at `B` (line 8)"
    );
    // Equal trip counts: no divergence.
    let r = report("loop-divergent-trips.c", &["more=1,1,0", "more=1,1,0"]);
    assert_clean(&r, "equal trips");
}

#[test]
fn a_barrier_under_a_divergent_branch_is_barrier_divergence() {
    let r = report("divergent-branch.c", &blank(3));
    assert!(r.races.is_empty());
    let got: Vec<(usize, usize, DivergenceKind)> = r
        .divergence
        .iter()
        .map(|d| (d.thread, d.other, d.kind))
        .collect();
    assert_eq!(
        got,
        vec![(1, 0, DivergenceKind::Left), (2, 0, DivergenceKind::Left)]
    );
    // A group of one thread cannot diverge.
    assert_clean(&report("divergent-branch.c", &blank(1)), "one thread");
}

#[test]
fn a_barrier_under_a_uniform_branch_is_fine() {
    for go in ["go=1", "go=0"] {
        let r = report("uniform-branch.c", &[go, go, go]);
        assert_clean(&r, go);
    }
    // Without the barrier (line 7), taking the branch races.
    let (path, src) = without_lines("uniform-branch.c", &[7]);
    let r = report_src(&path, &src, &["go=1", "go=1"]);
    assert!(!r.races.is_empty());
}

#[test]
fn skipping_an_extra_barrier_is_reported_as_skipped() {
    let r = report("skipped-barrier.c", &blank(3));
    let got: Vec<(usize, DivergenceKind, Option<u32>, Option<u32>)> = r
        .divergence
        .iter()
        .map(|d| {
            let line = |s: &Option<convcheck_ir::hazards::Site>| s.as_ref().map(|s| s.line);
            (d.thread, d.kind, line(&d.at), line(&d.other_at))
        })
        .collect();
    // Threads 1 and 2 wait at B (line 8) while thread 0 waits at A (line 6).
    assert_eq!(
        got,
        vec![
            (1, DivergenceKind::Skipped, Some(8), Some(6)),
            (2, DivergenceKind::Skipped, Some(8), Some(6)),
        ]
    );
    assert_eq!(
        r.divergence[0].to_string(),
        "barrier divergence: thread 1 skips `A` (line 6), where thread 0 waits, and waits at `B` (line 8) (barrier #0)"
    );
}

#[test]
fn barriers_on_both_sides_of_a_divergent_branch_are_different_barriers() {
    let r = report("different-barriers.c", &blank(2));
    assert_eq!(r.divergence.len(), 1);
    let d = &r.divergence[0];
    assert_eq!(
        (d.thread, d.other, d.kind),
        (1, 0, DivergenceKind::Different)
    );
    assert_eq!(d.at.as_ref().map(|s| s.label.as_str()), Some("B"));
    assert_eq!(d.other_at.as_ref().map(|s| s.label.as_str()), Some("A"));
}

#[test]
fn one_barrier_in_different_iterations_is_not_converged() {
    let r = report("not-converged.c", &blank(2));
    assert_eq!(r.divergence.len(), 1, "{:#?}", r.divergence);
    let d = &r.divergence[0];
    assert_eq!(d.kind, DivergenceKind::NotConverged);
    assert_eq!((d.thread, d.other, d.position), (1, 0, 0));
    assert_eq!(r.barriers, vec![1, 1]);
}

#[test]
fn returning_early_leaves_the_others_waiting() {
    let r = report("early-return.c", &blank(2));
    let d = &r.divergence[..];
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].thread, d[0].kind), (1, DivergenceKind::Left));
}

#[test]
fn register_only_code_local_memory_and_calls_are_hazard_free() {
    for name in [
        "register-only.c",
        "local-only.c",
        "calls.c",
        "barrier-in-callee.c",
        "two-barriers.c",
    ] {
        assert_clean(&report(name, &blank(3)), name);
    }
}

#[test]
fn removing_barriers_exposes_the_races_they_protect() {
    // The write in the callee races with the read once B is gone.
    let (path, src) = without_lines("calls.c", &[13]);
    let r = report_src(&path, &src, &blank(2));
    assert_eq!(shared_races(&r).1, [(8, 14), (14, 8)].into());
    // Either barrier of two-barriers.c alone is enough; none is not.
    for gone in [&[8][..], &[9][..]] {
        let (path, src) = without_lines("two-barriers.c", gone);
        assert_clean(&report_src(&path, &src, &blank(3)), "one barrier left");
    }
    let (path, src) = without_lines("two-barriers.c", &[8, 9]);
    let r = report_src(&path, &src, &blank(3));
    assert!(r.races.iter().all(|x| x.first.write && x.second.write));
    assert_eq!(shared_races(&r).0, [(0, 1, 1), (1, 2, 2), (0, 2, 0)].into());
    // Local memory never races, barrier or not.
    let (path, src) = without_lines("local-only.c", &[8]);
    assert_clean(&report_src(&path, &src, &blank(3)), "local only");
}

#[test]
fn a_fence_does_not_separate_phases() {
    let r = report("fence.c", &blank(2));
    assert!(r.divergence.is_empty());
    assert_eq!(r.barriers, vec![0, 0]);
    let (addrs, lines) = shared_races(&r);
    assert_eq!(addrs, [(0, 1, 0), (0, 1, 1)].into());
    assert_eq!(lines, [(6, 8), (8, 6)].into());
}

#[test]
fn global_memory_races_like_shared_memory() {
    let r = report("global-memory.c", &blank(3));
    assert!(r.divergence.is_empty());
    let got: BTreeSet<(usize, usize, Space, i64)> = racing_addresses(&r);
    // Only the writes of global[N] (N = 3) race, pairwise.
    let want: BTreeSet<(usize, usize, Space, i64)> = [
        (0, 1, Space::Global, 3),
        (0, 2, Space::Global, 3),
        (1, 2, Space::Global, 3),
    ]
    .into();
    assert_eq!(got, want);
    assert!(r
        .races
        .iter()
        .all(|x| x.first.site.line == 9 && x.second.site.line == 9));
}

#[test]
fn data_carrying_barriers_return_the_group_value() {
    let r = report("data-barriers.c", &blank(4));
    assert_clean(&r, "data-barriers.c");
    let got: Vec<(BarrierKind, Vec<i64>, i64, bool)> = r
        .values
        .iter()
        .map(|v| (v.kind, v.predicates.clone(), v.result, v.complete))
        .collect();
    assert_eq!(
        got,
        vec![
            (BarrierKind::Count, vec![0, 1, 0, 1], 2, true),
            (BarrierKind::And, vec![1, 1, 1, 1], 1, true),
            (BarrierKind::Or, vec![0, 1, 0, 0], 1, true),
        ]
    );
    for t in 0..4 {
        let seen: Vec<(usize, i64)> = r.observed(t).iter().map(|o| (o.0, o.2)).collect();
        assert_eq!(seen, vec![(0, 2), (1, 1), (2, 1)]);
    }
    // In a group of two, `votes` counts thread 1 only and `any` is 1.
    let r = report("data-barriers.c", &blank(2));
    let results: Vec<i64> = r.values.iter().map(|v| v.result).collect();
    assert_eq!(results, vec![1, 1, 1]);
}

#[test]
fn data_carrying_barrier_values_follow_the_participants() {
    // Only thread 0 reaches the count barrier: it is its only participant,
    // and the instance is marked incomplete.
    let src = "void kernel() {\n  if (tid == 0) {\n    int c = __syncthreads_count(1);\n  }\n}\n";
    let r = report_src("inline.c", src, &blank(3));
    assert_eq!(r.divergence.len(), 2);
    assert_eq!(r.values.len(), 1);
    let v = &r.values[0];
    assert_eq!(
        (v.participants.clone(), v.result, v.complete),
        (vec![0], 1, false)
    );
}

#[test]
fn races_after_a_barrier_divergence_are_not_reported() {
    // The threads part at the first barrier; what follows is undefined, so
    // the later accesses are not compared.
    let src =
        "void kernel() {\n  if (tid == 0) {\n    __syncthreads();\n  }\n  shared[0] = tid;\n}\n";
    let r = report_src("inline.c", src, &blank(2));
    assert_eq!(r.divergence.len(), 1);
    // Phase 0 of thread 1 (its whole run) and phase 0 of thread 0 (before
    // its barrier) are compared; thread 0 writes after its barrier, in
    // phase 1, so there is no race to report.
    assert!(r.races.is_empty(), "{:#?}", r.races);
    // With both writes before the divergence, they race.
    let src =
        "void kernel() {\n  shared[0] = tid;\n  if (tid == 0) {\n    __syncthreads();\n  }\n}\n";
    let r = report_src("inline.c", src, &blank(2));
    assert_eq!(r.races.len(), 1);
}

#[test]
fn reports_are_deterministic() {
    let a = report("producer-consumer-race.c", &blank(5));
    let b = report("producer-consumer-race.c", &blank(5));
    assert_eq!(a, b);
    let mut sorted = a.races.clone();
    sorted.sort();
    assert_eq!(sorted, a.races);
}

#[test]
fn a_barrier_in_a_goto_cycle_is_implementation_defined_at_the_source_level() {
    // Seed 000: convergence in the span of a backwards goto is
    // implementation-defined, so the barrier may not synchronise the two
    // threads' iterations. (At the CFG level the goto cycle is a natural
    // loop and maximal convergence decides it: converged.)
    let src = "void kernel() {\n  int i = 0;\nL:\n  __syncthreads(); // B\n  i++;\n  if (i < 2) goto L;\n}\n";
    let k = Kernel::parse("goto.c", src).unwrap_or_else(|d| panic!("{d}"));
    let entry = k.entry(None).expect("entry");
    let sc = scenario(&blank(2));
    let traces = run_scenario(&SourceProgram::new(&k).unwrap(), entry, &sc, 10_000).expect("runs");
    let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let r = hazards(&k.module(), &runs);
    assert_eq!(r.divergence.len(), 1, "{:#?}", r.divergence);
    assert_eq!(r.divergence[0].kind, DivergenceKind::ImplementationDefined);
    assert_eq!(r.divergence[0].position, 0);
    let program = CfgProgram::new(lower(&k, false));
    let traces = run_scenario(&program, entry, &sc, 10_000).expect("runs");
    let runs: Vec<&[_]> = traces.iter().map(|t| t.events.as_slice()).collect();
    assert!(hazards(&k.module(), &runs).is_hazard_free());
}

#[test]
fn running_a_barrier_once_more_is_reported_as_repeated() {
    let r = report("repeated-barrier.c", &["more=1,0", "more=1,1,0"]);
    assert_eq!(r.divergence.len(), 1);
    let d = &r.divergence[0];
    assert_eq!((d.thread, d.other, d.position), (1, 0, 1));
    assert_eq!(d.kind, DivergenceKind::Repeated);
    assert_eq!(
        d.to_string(),
        "barrier divergence: thread 1 repeats `A` (line 8) while thread 0 waits at `B` (line 10) (barrier #1)"
    );
}
