//! The checks the fuzz targets run, as library functions (regalloc2's
//! habit): each takes one input, panics with what it compared when a check
//! fails, and returns normally otherwise. `fuzz/` targets only call them,
//! and `tests/oracles.rs` runs each on a few hundred seeded inputs so
//! `cargo test` exercises them too.
//!
//! - [`parse_round_trip`]: any text parses without panicking; what parses
//!   prints back to text that parses to the same tree, and printing is
//!   stable; analysis, lowering and cycle computation of whatever parses do
//!   not panic.
//! - [`kernel_pipeline`]: a generated kernel round-trips, passes
//!   `Kernel::new`, follows the static termination rules, and its path
//!   enumeration completes at the source level; at the source level and on
//!   its lowered CFGs (with and without tokens) no thread has two instances
//!   with the same key (a thread is never converged with itself), and
//!   every compatible pair of paths gives an allowed relation
//!   (`check_assignment(&[p, q], &[])`: no class with two instances of one
//!   thread, convergence-before acyclic); the CFGs preserve each source
//!   path's single-thread behaviour (the same observable events for the
//!   same oracle values, DESIGN.md 2.7 item 1).
//! - [`cycle_info`]: `CycleInfo` agrees with its definition (top-level
//!   cycles are the maximal strongly connected regions with an internal
//!   edge of the reachable CFG, children those of the cycle without its
//!   header, entries the blocks with a reachable predecessor outside),
//!   for LLVM's hierarchy and every other one; a reducible CFG (by
//!   dominators) has exactly one hierarchy, whose cycles are the natural
//!   loops; an irreducible one has an irreducible cycle.
//! - [`cfg_keys`]: on a random IR module ([`crate::cfg_gen`], no kernel
//!   involved) of at most [`MAX_KEY_BLOCKS`] blocks, under every cycle
//!   hierarchy (at most 4), maximal convergence keys never converge a
//!   thread with itself and every pair of paths gives an allowed relation
//!   (DESIGN.md 2.3).
//! - [`keys_vs_relational`]: on the same modules, the key relation on
//!   block instances of pairs of paths is the unique solution of LLVM's
//!   relational definition, solved by z3 (`convcheck_smt`, DESIGN.md 2.5).
//!
//! Not checked here: anything needing the checker crate (transforms,
//! refinement), which has its own oracles.
//!
//! **Model bugs found.** Every bug these oracles found is fixed and has a
//! regression test in `tests/regressions.rs` with a comment on the bug;
//! no check is skipped.

use crate::analysis::check_termination;
use crate::cfg_gen::{dominators, is_reducible, reachable, sccs, CfgCase};
use convcheck_ir::convergence::check_assignment;
use convcheck_ir::cycles::{all_hierarchies, CycleInfo};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_thread, Bounds, Event, EventKind, Program};
use convcheck_ir::paths::{compatible, enumerate, Path, PathSet};
use convcheck_ir::print::module_text;
use convcheck_ir::scenario::ValuesSource;
use convcheck_ir::{BlockId, Cfg, FuncId, Module};
use convcheck_lang::exec::SourceProgram;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::File;
use convcheck_lang::syntax::{parse, print};
use std::collections::{BTreeSet, HashSet};

/// At most this many path pairs are checked per level (evenly spread).
const MAX_PAIRS: usize = 400;

/// [`cfg_keys`] only runs CFGs of at most this many blocks.
pub const MAX_KEY_BLOCKS: usize = 8;

/// At most this many source paths per thread are replayed on the CFGs.
const MAX_REPLAYS: usize = 64;

fn stripped(mut f: File) -> File {
    f.strip_spans();
    f
}

/// Parses arbitrary bytes (as lossy UTF-8); see the module documentation.
pub fn parse_round_trip(data: &[u8]) {
    let src = String::from_utf8_lossy(data);
    let Ok(file) = parse("fuzz.c", &src) else {
        return;
    };
    let text = print(&file);
    let again = match parse("printed.c", &text) {
        Ok(f) => f,
        Err(d) => panic!(
            "printed text does not parse:\n{d}\n--- input ---\n{src}\n--- printed ---\n{text}"
        ),
    };
    assert!(
        stripped(again.clone()) == stripped(file.clone()),
        "the round trip changed the tree\n--- input ---\n{src}\n--- printed ---\n{text}"
    );
    assert_eq!(
        print(&again),
        text,
        "printing is not stable\n--- input ---\n{src}"
    );
    if let Ok(kernel) = Kernel::new("fuzz.c", file) {
        for tokens in [false, true] {
            for cfg in &lower(&kernel, tokens).functions {
                let _ = CycleInfo::compute(cfg);
            }
        }
    }
}

/// Checks a generated kernel through the model's pipeline with
/// `Bounds::max_iters = max_iters` (the generator's
/// `Config::iteration_bound`); see the module documentation.
pub fn kernel_pipeline(file: &File, max_iters: u32) {
    let text = print(file);
    match parse("printed.c", &text) {
        Ok(again) => assert!(
            stripped(again) == stripped(file.clone()),
            "the round trip changed the tree\n{text}"
        ),
        Err(d) => panic!("printed text does not parse:\n{d}\n{text}"),
    }
    let kernel = match Kernel::new("generated.c", file.clone()) {
        Ok(k) => k,
        Err(d) => panic!("a generated kernel is rejected:\n{d}\n{text}"),
    };
    let entry = match kernel.entry(None) {
        Ok(e) => e,
        Err(e) => panic!("a generated kernel has no single entry: {e}\n{text}"),
    };
    if let Err(e) = check_termination(file, max_iters) {
        panic!("a generated kernel breaks a termination rule: {e}\n{text}");
    }
    let bounds = Bounds {
        max_iters,
        ..Bounds::default()
    };
    let source_program = match SourceProgram::new(&kernel) {
        Ok(p) => p,
        Err(e) => panic!("a generated kernel does not compile at the source level: {e}\n{text}"),
    };
    let module = &source_program.module;
    let source = [0, 1].map(|t| enumerate(&source_program, entry, t, 2, bounds));
    for s in &source {
        if let Some(why) = &s.incomplete {
            panic!("path enumeration of a generated kernel is incomplete: {why}\n{text}");
        }
    }
    relation_ok(module, &source, "source level", &text);
    for tokens in [false, true] {
        let level = if tokens { "CFG with tokens" } else { "CFG" };
        let program = CfgProgram::new(lower(&kernel, tokens));
        let cfg = [0, 1].map(|t| enumerate(&program, entry, t, 2, bounds));
        if cfg.iter().all(|s| s.incomplete.is_none()) {
            relation_ok(&program.module, &cfg, level, &text);
        }
        for set in &source {
            for p in set.paths.iter().take(MAX_REPLAYS) {
                replay(module, &program, entry, p, bounds.fuel, level, &text);
            }
        }
    }
}

/// The events a thread's behaviour consists of (DESIGN.md 2.7 item 1).
fn observable(events: &[Event]) -> Vec<(u32, &EventKind)> {
    events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Op { .. }
                    | EventKind::Call(_)
                    | EventKind::Barrier { .. }
                    | EventKind::Fence
                    | EventKind::Mem { .. }
            )
        })
        .map(|e| (e.sid.0, &e.kind))
        .collect()
}

/// Runs source path `p`'s oracle values on the CFG program and compares
/// the observable events.
fn replay(
    module: &Module,
    program: &dyn Program,
    entry: FuncId,
    p: &Path,
    fuel: u64,
    level: &str,
    text: &str,
) {
    let values = p.values(module);
    let bounds = Bounds {
        max_iters: u32::MAX,
        fuel,
        ..Bounds::default()
    };
    let mut src = ValuesSource(&values);
    let (trace, res) = run_thread(program, entry, p.tid, 2, bounds, &mut src);
    if let Err(e) = res {
        panic!(
            "{level}: thread {} with `{}` stops: {e:?}\n{text}",
            p.tid,
            values.render()
        );
    }
    let want = observable(&p.trace.events);
    let got = observable(&trace.events);
    assert!(
        want == got,
        "{level}: thread {} with `{}` does not behave as at the source level\n\
         source: {want:?}\ncfg:    {got:?}\n{text}",
        p.tid,
        values.render()
    );
}

/// No thread converged with itself; every compatible pair of paths of
/// threads 0 and 1 gives an allowed relation.
fn relation_ok(module: &Module, sets: &[PathSet; 2], level: &str, text: &str) {
    for set in sets {
        for p in &set.paths {
            distinct_keys(&p.trace.events, level, &|| {
                format!(
                    "thread {} with `{}`\n{text}",
                    p.tid,
                    p.values(module).render()
                )
            });
        }
    }
    let (a, b) = (&sets[0].paths, &sets[1].paths);
    let total = a.len() * b.len();
    let step = total.div_ceil(MAX_PAIRS).max(1);
    for k in (0..total).step_by(step) {
        let (p, q) = (&a[k / b.len()], &b[k % b.len()]);
        if !compatible(module, p, q) {
            continue;
        }
        if let Err(v) = check_assignment(&[&p.trace.events, &q.trace.events], &[]) {
            panic!(
                "{level}: the key relation of two paths is not allowed: {v:?}\n\
                 thread 0: {}\nthread 1: {}\n{text}",
                p.values(module).render(),
                q.values(module).render()
            );
        }
    }
}

/// Panics if two instances of one run have the same static id and key.
fn distinct_keys(events: &[Event], level: &str, what: &dyn Fn() -> String) {
    let mut seen = HashSet::new();
    for (i, e) in events.iter().enumerate() {
        if !seen.insert((e.sid, &e.key)) {
            panic!(
                "{level}: event {i} ({:?}, key {:?}) repeats an earlier key: a thread \
                 would be converged with itself\n{}",
                e.kind,
                e.key,
                what()
            );
        }
    }
}

/// Checks `CycleInfo` on `cfg` against its definition; see the module
/// documentation.
pub fn cycle_info(cfg: &Cfg) {
    let reach = reachable(cfg);
    let info = CycleInfo::compute(cfg);
    hierarchy_ok(cfg, &info, &reach);
    let all = all_hierarchies(cfg, 16);
    assert!(
        all.first() == Some(&info),
        "all_hierarchies does not start with LLVM's"
    );
    for (i, h) in all.iter().enumerate() {
        hierarchy_ok(cfg, h, &reach);
        assert!(
            !all[..i].contains(h),
            "all_hierarchies lists a hierarchy twice:\n{}",
            h.describe(cfg)
        );
    }
    if is_reducible(cfg) {
        assert!(
            info.is_reducible() && all.len() == 1,
            "a reducible CFG has an irreducible cycle or several hierarchies:\n{}",
            info.describe(cfg)
        );
        natural_loops_ok(cfg, &info, &reach);
    } else {
        assert!(
            !info.is_reducible(),
            "an irreducible CFG has only reducible cycles:\n{}",
            info.describe(cfg)
        );
    }
}

fn hierarchy_ok(cfg: &Cfg, info: &CycleInfo, reach: &BTreeSet<BlockId>) {
    let preds = cfg.preds();
    let show = || info.describe(cfg);
    let sets = |v: Vec<BTreeSet<BlockId>>| v.into_iter().collect::<BTreeSet<_>>();
    let top: Vec<BTreeSet<BlockId>> = info
        .cycles
        .iter()
        .filter(|c| c.parent.is_none())
        .map(|c| c.blocks.clone())
        .collect();
    assert!(
        sets(top) == sets(sccs(cfg, reach)),
        "top-level cycles are not the maximal strongly connected regions:\n{}",
        show()
    );
    for (i, c) in info.cycles.iter().enumerate() {
        assert!(
            c.blocks.is_subset(reach),
            "cycle {i} has unreachable blocks"
        );
        let entries: Vec<BlockId> = c
            .blocks
            .iter()
            .copied()
            .filter(|&b| {
                b == 0
                    || preds[b]
                        .iter()
                        .any(|p| reach.contains(p) && !c.blocks.contains(p))
            })
            .collect();
        assert!(
            c.entries == entries,
            "cycle {i}: entries {:?}, but the blocks with a reachable predecessor outside \
             are {entries:?}:\n{}",
            c.entries,
            show()
        );
        assert!(
            c.entries.contains(&c.header),
            "cycle {i}: header is no entry"
        );
        match c.parent {
            None => assert_eq!(c.depth, 1, "cycle {i}: depth"),
            Some(p) => {
                assert!(p < i, "cycle {i}: parent {p} comes after it");
                assert_eq!(c.depth, info.cycles[p].depth + 1, "cycle {i}: depth");
                assert!(
                    c.blocks.is_subset(&info.cycles[p].blocks),
                    "cycle {i}: not nested"
                );
            }
        }
        let children: Vec<BTreeSet<BlockId>> = info
            .cycles
            .iter()
            .filter(|d| d.parent == Some(i))
            .map(|d| d.blocks.clone())
            .collect();
        let mut inner = c.blocks.clone();
        inner.remove(&c.header);
        assert!(
            sets(children) == sets(sccs(cfg, &inner)),
            "the children of cycle {i} are not the regions of the cycle without its header:\n{}",
            show()
        );
    }
    for (b, list) in info.containing.iter().enumerate() {
        let want: BTreeSet<usize> = (0..info.cycles.len())
            .filter(|&c| info.cycles[c].blocks.contains(&b))
            .collect();
        let got: BTreeSet<usize> = list.iter().copied().collect();
        assert!(
            want == got && got.len() == list.len(),
            "containing[{b}] is wrong"
        );
        assert!(
            list.windows(2)
                .all(|w| info.cycles[w[0]].depth > info.cycles[w[1]].depth),
            "containing[{b}] is not innermost first"
        );
    }
}

/// In a reducible CFG the cycles are the natural loops: one per target of
/// a back edge (an edge to a dominator of its source), holding the header
/// and every block that reaches a back edge's source without passing the
/// header.
fn natural_loops_ok(cfg: &Cfg, info: &CycleInfo, reach: &BTreeSet<BlockId>) {
    let dom = dominators(cfg);
    let preds = cfg.preds();
    let mut headers = BTreeSet::new();
    for &u in reach {
        for h in cfg.blocks[u].term.succs() {
            if dom[u] & (1 << h) != 0 {
                headers.insert(h);
            }
        }
    }
    let got: BTreeSet<BlockId> = info.cycles.iter().map(|c| c.header).collect();
    assert!(
        got == headers && got.len() == info.cycles.len(),
        "cycle headers {got:?}, but back edges go to {headers:?}:\n{}",
        info.describe(cfg)
    );
    for c in &info.cycles {
        let h = c.header;
        let mut body = BTreeSet::from([h]);
        let mut stack: Vec<BlockId> = preds[h]
            .iter()
            .copied()
            .filter(|&u| reach.contains(&u) && dom[u] & (1 << h) != 0)
            .collect();
        while let Some(x) = stack.pop() {
            if body.insert(x) {
                stack.extend(preds[x].iter().copied().filter(|p| reach.contains(p)));
            }
        }
        assert!(
            body == c.blocks,
            "the cycle headed by {h} is not its natural loop {body:?}:\n{}",
            info.describe(cfg)
        );
    }
}

/// Checks maximal-convergence keys on a random CFG under each of its cycle
/// hierarchies (at most 4), with `max_iters` 1; see the module
/// documentation.
pub fn cfg_keys(case: &CfgCase) {
    let cfg = case.cfg();
    // Path enumeration bounds complete paths, not the runs cut at the
    // iteration bound, and on irreducible CFGs with nested cycles those
    // grow very fast (one CFG of 10 blocks took 142 s with `max_iters` 2),
    // so this oracle keeps to small CFGs and one repetition.
    if cfg.blocks.len() > MAX_KEY_BLOCKS {
        return;
    }
    let text = case.text();
    let bounds = Bounds {
        max_iters: 1,
        max_paths: 500,
        ..Bounds::default()
    };
    for cycles in all_hierarchies(cfg, 4) {
        let what = cycles.describe(cfg);
        let program = CfgProgram {
            module: case.module.clone(),
            cycles: vec![cycles],
        };
        let sets = [0, 1].map(|t| enumerate(&program, 0, t, 2, bounds));
        if sets.iter().any(|s| s.incomplete.is_some()) {
            continue;
        }
        relation_ok(&case.module, &sets, &format!("CFG under\n{what}\n"), &text);
    }
}

/// Keys against the relational definition (DESIGN.md 2.5): on a random
/// CFG, for pairs of paths of two threads, the maximal-convergence key
/// relation on block instances must be the unique solution of LLVM's
/// relational definition, solved by z3 (`convcheck_smt::cfg`). A
/// counterexample or an `unknown` from z3 is a failure, with the module
/// printed.
pub fn keys_vs_relational(case: &CfgCase) {
    if case.cfg().blocks.len() > MAX_KEY_BLOCKS {
        return;
    }
    let program = case.program();
    let bounds = Bounds {
        max_iters: 1,
        max_paths: 200,
        ..Bounds::default()
    };
    let sets = [0, 1].map(|t| enumerate(&program, 0, t, 2, bounds));
    if sets.iter().any(|s| s.incomplete.is_some()) {
        return;
    }
    let blocks = |evs: &[Event]| -> Vec<Event> {
        evs.iter()
            .filter(|e| matches!(e.kind, EventKind::Block(_)))
            .cloned()
            .collect()
    };
    for p in sets[0].paths.iter().take(6) {
        for q in sets[1].paths.iter().take(6) {
            let (a, b) = (blocks(&p.trace.events), blocks(&q.trace.events));
            let answer = convcheck_smt::cfg::agrees_with_keys(&program.cycles[0], &[&a, &b]);
            assert!(
                answer.is_proved(),
                "keys and the relational definition disagree ({answer:?}) on\n{}\npaths {:?} and {:?}",
                module_text(&case.module),
                p.decisions,
                q.decisions
            );
        }
    }
}
