//! The CFG level: lowering, cycle hierarchy, maximal convergence and
//! tokens, checked against seed 000's tables, LLVM's documented examples,
//! an independent computation of natural loops and SCCs, and the
//! source-level semantics.

use convcheck_ir::convergence::relate_events;
use convcheck_ir::cycles::{all_hierarchies, CycleInfo};
use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, Bounds, Event, Program};
use convcheck_ir::key::Rel;
use convcheck_ir::paths::{compatible, enumerate};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::table;
use convcheck_ir::{tokens, Cfg, Inst, InstKind, TokenKind};
use convcheck_lang::exec::SourceProgram;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_lang::syntax::ast::StmtId;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// The program that runs a kernel: its CFG program, or at the source level
/// when there is none.
fn prog<'a>(source: &'a SourceProgram, cfg: Option<&'a CfgProgram>) -> &'a dyn Program {
    match cfg {
        Some(c) => c,
        None => source,
    }
}

fn kernel(rel: &str) -> Kernel {
    let path = format!("{}/../../examples/{rel}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("example exists");
    Kernel::parse(&path, &src).unwrap_or_else(|d| panic!("{d}"))
}

fn labels(
    k: &Kernel,
    program: Option<&CfgProgram>,
    function: &str,
    threads: &[&str],
) -> Vec<Vec<Option<String>>> {
    let entry = k.entry(Some(function)).expect("function");
    let scenario = Scenario {
        threads: threads
            .iter()
            .map(|t| ThreadValues::parse(t).expect("values"))
            .collect(),
    };
    let source = SourceProgram::new(k).expect("compiles");
    let traces = run_scenario(prog(&source, program), entry, &scenario, 10_000).expect("runs");
    let runs: Vec<&[Event]> = traces.iter().map(|t| t.events.as_slice()).collect();
    let rows = (0..runs.len()).map(|t| format!("tid {t}")).collect();
    table::build(&k.module(), rows, &runs)
        .expect("table")
        .labels()
}

fn grid(rows: &[&[&str]]) -> Vec<Vec<Option<String>>> {
    rows.iter()
        .map(|r| {
            r.iter()
                .map(|c| (!c.is_empty()).then(|| c.to_string()))
                .collect()
        })
        .collect()
}

/// Seed 000, "Divergent Loop Exits": without tokens the CFG merges the
/// exits at C (the seed's second table); with tokens placed from the source
/// loops it keeps the source-level table (the first).
#[test]
fn divergent_exit_tables_at_both_levels() {
    let k = kernel("seed/divergent-exit-source.c");
    let threads = ["for#1=1 cond=1", "for#1=1,1 cond=0,1"];
    let plain = CfgProgram::new(lower(&k, false));
    let tokens = CfgProgram::new(lower(&k, true));
    let source = labels(&k, None, "loop_continue", &threads);
    assert_eq!(
        source,
        grid(&[
            &["A", "B", "", "C", "", "D"],
            &["A", "B", "B", "", "C", "D"]
        ])
    );
    assert_eq!(
        labels(&k, Some(&plain), "loop_continue", &threads),
        grid(&[&["A", "B", "", "C", "D"], &["A", "B", "B", "C", "D"]])
    );
    assert_eq!(labels(&k, Some(&tokens), "loop_continue", &threads), source);
}

/// LLVM ConvergenceAndUniformity, the two-thread table over the natural
/// loop Entry, H, B, L (B1 and B2 not converged because of H4, H3 and H5
/// not converged, L3 and L5 not converged).
#[test]
fn llvm_natural_loop_table() {
    let k = kernel("llvm/natural-loop.c");
    let p = CfgProgram::new(lower(&k, false));
    let t = labels(
        &k,
        Some(&p),
        "natural_loop",
        &["c1=1,0 c2=1,0", "c1=0,1,1 c2=1,1,0"],
    );
    assert_eq!(
        t,
        grid(&[
            &["Entry", "H", "B", "L", "H", "", "L", "", "", "", "Exit"],
            &["Entry", "H", "", "L", "H", "B", "L", "H", "B", "L", "Exit"],
        ])
    );
}

/// The irreducible examples of seed 000 have an irreducible cycle; the
/// others have only reducible ones.
#[test]
fn seed_examples_irreducible_exactly_where_the_seed_says() {
    let irreducible = ["jump-into-loop", "duffs-device", "backwards-goto"];
    for entry in
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/seed")).expect("dir")
    {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        let k = kernel(&format!("seed/{name}.c"));
        let m = lower(&k, false);
        let reducible = m
            .functions
            .iter()
            .all(|c| CycleInfo::compute(c).is_reducible());
        assert_eq!(reducible, !irreducible.contains(&name.as_str()), "{name}");
        if irreducible.contains(&name.as_str()) {
            let c = &m.functions[0];
            assert!(
                all_hierarchies(c, 16).len() > 1,
                "{name}: several hierarchies"
            );
        }
    }
}

fn cfg_from_edges(n: usize, edges: &[(usize, usize)]) -> Cfg {
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        if !succ[a].contains(&b) {
            succ[a].push(b);
        }
    }
    convcheck_ir::build::cfg_from_successors(&succ)
}

/// CycleTerminology's first example: Entry->A, Entry->B, A->A, A->C,
/// B->B, B->C, C->A, C->B, C->Exit; with depth-first order A, C, B the
/// hierarchy is {A,B,C} (header A) > {B,C} (header C) > {B} (header B).
#[test]
fn cycle_terminology_example() {
    let (e, a, b, c, x) = (0, 1, 2, 3, 4);
    let g = cfg_from_edges(
        5,
        &[
            (e, a),
            (e, b),
            (a, a),
            (a, c),
            (b, b),
            (b, c),
            (c, a),
            (c, b),
            (c, x),
        ],
    );
    let order = [e, a, b, c, x].map(|n| match n {
        1 => 0,
        3 => 1,
        2 => 2,
        _ => 9,
    });
    let ci = CycleInfo::compute_with(&g, &mut |entries| {
        *entries.iter().min_by_key(|&&n| order[n]).expect("entry")
    });
    let shape: Vec<(usize, Vec<usize>, Vec<usize>)> = ci
        .cycles
        .iter()
        .map(|c| {
            (
                c.header,
                c.entries.clone(),
                c.blocks.iter().copied().collect(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        vec![
            (a, vec![a, b], vec![a, b, c]),
            (c, vec![b, c], vec![b, c]),
            (b, vec![b], vec![b])
        ]
    );
}

/// Independent reference: natural loops by dominators (a back edge is an
/// edge whose target dominates its source).
fn natural_loops(g: &Cfg) -> BTreeMap<usize, BTreeSet<usize>> {
    use petgraph::algo::dominators::simple_fast;
    use petgraph::graph::DiGraph;
    let mut pg = DiGraph::<(), ()>::new();
    let nodes: Vec<_> = (0..g.blocks.len()).map(|_| pg.add_node(())).collect();
    for (i, b) in g.blocks.iter().enumerate() {
        for s in b.term.succs() {
            pg.update_edge(nodes[i], nodes[s], ());
        }
    }
    let dom = simple_fast(&pg, nodes[0]);
    let reach: BTreeSet<usize> = g.reachable().into_iter().collect();
    let dominates = |a: usize, b: usize| {
        dom.dominators(nodes[b])
            .is_some_and(|mut it| it.any(|d| d == nodes[a]))
    };
    let preds = g.preds();
    let mut loops: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for &src in &reach {
        for h in g.blocks[src].term.succs() {
            if dominates(h, src) {
                let body = loops.entry(h).or_default();
                body.insert(h);
                let mut work = vec![src];
                while let Some(x) = work.pop() {
                    if body.insert(x) {
                        work.extend(preds[x].iter().copied().filter(|p| reach.contains(p)));
                    }
                }
            }
        }
    }
    loops
}

fn reducible_by_dominators(g: &Cfg) -> bool {
    // A CFG is reducible iff removing its back edges (target dominates
    // source) leaves it acyclic.
    let loops = natural_loops(g);
    let reach: BTreeSet<usize> = g.reachable().into_iter().collect();
    let back: BTreeSet<(usize, usize)> = reach
        .iter()
        .flat_map(|&s| g.blocks[s].term.succs().into_iter().map(move |t| (s, t)))
        .filter(|(s, t)| loops.get(t).is_some_and(|body| body.contains(s)))
        .collect();
    let mut g2 = petgraph::graph::DiGraph::<usize, ()>::new();
    let nodes: Vec<_> = (0..g.blocks.len()).map(|i| g2.add_node(i)).collect();
    for &s in &reach {
        for t in g.blocks[s].term.succs() {
            if !back.contains(&(s, t)) {
                g2.update_edge(nodes[s], nodes[t], ());
            }
        }
    }
    !petgraph::algo::is_cyclic_directed(&g2)
}

fn random_cfg() -> impl Strategy<Value = Cfg> {
    (2usize..8).prop_flat_map(|n| {
        proptest::collection::vec((0..n, 0..n), 1..(3 * n)).prop_map(move |mut edges| {
            // Keep every node reachable through a spine, and the entry out
            // of every cycle as LLVM requires.
            for i in 0..n - 1 {
                edges.push((i, i + 1));
            }
            edges.retain(|&(_, b)| b != 0);
            cfg_from_edges(n, &edges)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The hierarchy's definition, checked piece by piece on random CFGs,
    /// and against natural loops computed from dominators when the CFG is
    /// reducible.
    #[test]
    fn cycle_hierarchy_matches_definition(g in random_cfg()) {
        let ci = CycleInfo::compute(&g);
        let preds = g.preds();
        for c in &ci.cycles {
            // Entries are exactly the blocks with a predecessor outside.
            let entries: Vec<usize> = c.blocks.iter().copied()
                .filter(|&b| preds[b].iter().any(|p| !c.blocks.contains(p))).collect();
            prop_assert_eq!(&entries, &c.entries);
            prop_assert!(c.entries.contains(&c.header));
            // Strongly connected: every block reaches the header inside.
            for &b in &c.blocks {
                let mut seen = BTreeSet::new();
                let mut work = vec![b];
                while let Some(x) = work.pop() {
                    if seen.insert(x) {
                        work.extend(g.blocks[x].term.succs().into_iter().filter(|s| c.blocks.contains(s)));
                    }
                }
                prop_assert!(seen.contains(&c.header));
            }
            // Children lie inside and avoid the header.
            for d in ci.cycles.iter().filter(|d| d.parent.is_some_and(|p| ci.cycles[p] == *c)) {
                prop_assert!(d.blocks.is_subset(&c.blocks));
                prop_assert!(!d.blocks.contains(&c.header));
            }
        }
        if reducible_by_dominators(&g) {
            prop_assert!(ci.is_reducible());
            let mut by_header: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
            for c in &ci.cycles {
                by_header.entry(c.header).or_default().extend(c.blocks.iter().copied());
            }
            prop_assert_eq!(by_header, natural_loops(&g));
        } else {
            prop_assert!(!ci.is_reducible());
        }
    }
}

/// Lowering with tokens preserves the source-level convergence of every
/// example whose convergence is fully determined: over every pair of
/// per-thread paths, instances matched by (operation, occurrence) are
/// converged at the CFG level iff they are at the source level. Without
/// tokens, the divergent exit breaks this, as the seed says.
#[test]
fn token_lowering_preserves_source_convergence() {
    let determined = [
        "seed/sequential-branch.c",
        "seed/sequential-loop.c",
        "seed/iteration-statement.c",
        "seed/goto.c",
        "seed/switch.c",
        "seed/crosslane-operation.c",
        "seed/divergent-exit-source.c",
        "llvm/natural-loop.c",
    ];
    for name in determined {
        let k = kernel(name);
        assert!(preserved(&k, true), "{name}: tokens changed convergence");
    }
    assert!(!preserved(&kernel("seed/divergent-exit-source.c"), false));
    assert!(preserved(&kernel("llvm/natural-loop.c"), false));
}

/// Whether, on every pair of source paths, the CFG's relation on matched
/// convergent operations equals the source's.
fn preserved(k: &Kernel, tokens: bool) -> bool {
    let program = CfgProgram::new(lower(k, tokens));
    same_convergence(k, None, Some(&program))
}

/// Whether two semantics (`None` is the source level) relate matched
/// convergent operations the same way on every pair of source paths.
fn same_convergence(k: &Kernel, left: Option<&CfgProgram>, right: Option<&CfgProgram>) -> bool {
    let entry = k.entry(None).expect("entry");
    let bounds = Bounds {
        max_iters: 2,
        ..Bounds::default()
    };
    let source = SourceProgram::new(k).expect("compiles");
    let module = k.module();
    let set = enumerate(&source, entry, 0, 2, bounds);
    assert!(set.incomplete.is_none());
    let ops = |evs: &[Event]| -> Vec<Event> {
        evs.iter()
            .filter(|e| e.is_convergent_op())
            .cloned()
            .collect()
    };
    let run = |program: Option<&CfgProgram>, values: &ThreadValues| {
        let s = Scenario {
            threads: vec![values.clone()],
        };
        ops(&run_scenario(prog(&source, program), entry, &s, 100_000)
            .expect("run")
            .remove(0)
            .events)
    };
    let occurrences = |evs: &[Event]| -> BTreeMap<(StmtId, usize), usize> {
        let mut count: BTreeMap<StmtId, usize> = BTreeMap::new();
        let mut out = BTreeMap::new();
        for (i, e) in evs.iter().enumerate() {
            let n = count.entry(e.sid).or_insert(0);
            out.insert((e.sid, *n), i);
            *n += 1;
        }
        out
    };
    let lefts: Vec<Vec<Event>> = set
        .paths
        .iter()
        .map(|p| run(left, &p.values(&module)))
        .collect();
    let rights: Vec<Vec<Event>> = set
        .paths
        .iter()
        .map(|p| run(right, &p.values(&module)))
        .collect();
    for (i, p) in set.paths.iter().enumerate() {
        for (j, q) in set.paths.iter().enumerate().skip(i) {
            if !compatible(&module, p, q) {
                continue;
            }
            let (sp, sq) = (&lefts[i], &lefts[j]);
            let (cp, cq) = (&rights[i], &rights[j]);
            let (osp, osq, ocp, ocq) = (
                occurrences(sp),
                occurrences(sq),
                occurrences(cp),
                occurrences(cq),
            );
            assert_eq!(
                osp.keys().collect::<Vec<_>>(),
                ocp.keys().collect::<Vec<_>>(),
                "same operations"
            );
            for (ka, &a) in &osp {
                for (kb, &b) in &osq {
                    if ka.0 != kb.0 {
                        continue;
                    }
                    let src = relate_events(&sp[a], &sq[b]);
                    let tgt = relate_events(&cp[ocp[ka]], &cq[ocq[kb]]);
                    if (src == Rel::Converged) != (tgt == Rel::Converged) {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// LLVM's "Inferring Tokens" on reducible CFGs: the result passes the
/// static rules and gives the same convergence as maximal convergence.
#[test]
fn inferred_tokens_agree_with_maximal_convergence() {
    let reducible = [
        "seed/sequential-branch.c",
        "seed/sequential-loop.c",
        "seed/iteration-statement.c",
        "seed/goto.c",
        "seed/switch.c",
        "seed/divergent-exit-source.c",
        "seed/thread-masks.c",
        "llvm/natural-loop.c",
    ];
    for name in reducible {
        let k = kernel(name);
        let plain = lower(&k, false);
        let mut inferred = plain.clone();
        for c in inferred.functions.iter_mut() {
            *c = tokens::infer(c).expect("reducible");
            assert_eq!(tokens::verify(c), vec![], "{name}");
        }
        let a = CfgProgram::new(plain);
        let b = CfgProgram::new(inferred);
        assert!(same_convergence(&k, Some(&a), Some(&b)), "{name}");
    }
    let irreducible = kernel("seed/jump-into-loop.c");
    let m = lower(&irreducible, false);
    assert!(tokens::infer(&m.functions[0]).is_err());
}

/// Front-end token placement passes the static rules on every example.
#[test]
fn front_end_tokens_pass_the_static_rules() {
    for entry in
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/seed")).expect("dir")
    {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let k = kernel(&format!("seed/{name}"));
        for c in &lower(&k, true).functions {
            assert_eq!(tokens::verify(c), vec![], "{name}");
        }
    }
}

fn messages(c: &Cfg) -> Vec<&'static str> {
    tokens::verify(c).into_iter().map(|e| e.message).collect()
}

/// Each static rule is reported, with LLVM's message, on a CFG made to
/// break it.
#[test]
fn static_rule_violations_are_named() {
    let k = kernel("seed/ambiguity-source.c");
    let f = k.entry(Some("loop_nest")).expect("loop_nest");
    let good = lower(&k, true).functions[f].clone();
    assert!(messages(&good).is_empty());
    let find = |c: &Cfg, pred: &dyn Fn(&Inst) -> bool| -> (usize, usize) {
        for (b, block) in c.blocks.iter().enumerate() {
            for (i, inst) in block.insts.iter().enumerate() {
                if pred(inst) {
                    return (b, i);
                }
            }
        }
        panic!("instruction not found")
    };
    let is_loop = |i: &Inst| {
        matches!(
            i.kind,
            InstKind::Token {
                kind: TokenKind::Loop,
                ..
            }
        )
    };
    let is_b = |i: &Inst| matches!(i.kind, InstKind::Observe) && k.label(i.sid) == "B";

    // A loop intrinsic without its operand.
    let mut c = good.clone();
    let (b, i) = find(&c, &is_loop);
    c.blocks[b].insts[i].token = None;
    assert!(messages(&c).contains(&"Loop intrinsic must have a convergencectrl token operand."));

    // An operation in the inner loop controlled by `entry`: a use in a cycle
    // that does not contain the definition, by something other than `loop`.
    let mut c = good.clone();
    let (b, i) = find(&c, &is_b);
    c.blocks[b].insts[i].token = Some("entry".into());
    assert!(messages(&c).contains(
        &"Convergence token used by an instruction other than llvm.experimental.convergence.loop in a cycle that does not contain the token's definition."
    ));

    // Mixing controlled and uncontrolled operations.
    let mut c = good.clone();
    let (b, i) = find(&c, &is_b);
    c.blocks[b].insts[i].token = None;
    assert!(messages(&c)
        .contains(&"Cannot mix controlled and uncontrolled convergence in the same function."));

    // The entry intrinsic outside the entry block.
    let mut c = good.clone();
    let entry_tok = c.blocks[0].insts.remove(0);
    let last = c.blocks.len() - 1;
    c.blocks[last].insts.insert(0, entry_tok);
    let m = messages(&c);
    assert!(
        m.contains(&"Entry intrinsic can occur only in the entry block."),
        "{m:?}"
    );
    assert!(
        m.contains(&"Convergence control token must dominate all its uses."),
        "{m:?}"
    );

    // A heart that is not in its cycle's header.
    let mut c = good.clone();
    let (b, i) = find(&c, &is_loop);
    let heart = c.blocks[b].insts.remove(i);
    let later = c
        .blocks
        .iter()
        .position(|bl| bl.name == "do.cond")
        .expect("do.cond");
    c.blocks[later].insts.insert(0, heart);
    let m = messages(&c);
    assert!(
        m.contains(&"Cycle heart must dominate all blocks in the cycle.")
            || m.contains(&"Convergence control token must dominate all its uses."),
        "{m:?}"
    );
}
