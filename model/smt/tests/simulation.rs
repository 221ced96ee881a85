//! The simulation engine (`convcheck_smt::simulation`, issue 22) on the
//! seed's loops and the passes of the registry: what it proves, and the
//! transforms it must not prove (each of which the bounded product shows
//! violated).

use convcheck_ir::{FuncId, Module};
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_smt::simulation::{prove, SimAnswer, SimOptions};

fn lowered(src: &str, f: &str) -> (Module, FuncId) {
    let k = Kernel::parse("test.c", src).unwrap_or_else(|d| panic!("{d}"));
    let m = lower(&k, false);
    let id = m.function(f).expect("function exists");
    (m, id)
}

fn example(rel: &str) -> String {
    let path = format!("{}/../../examples/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).expect("example exists")
}

fn after(src: &str, f: &str, pass: &str) -> SimAnswer {
    let (m, id) = lowered(src, f);
    let mut t = m.clone();
    let p = convcheck_transforms::lookup(pass).unwrap_or_else(|e| panic!("{e:?}"));
    p.run(&mut t).unwrap_or_else(|e| panic!("{e:?}"));
    prove(&m, id, &t, id, &SimOptions::default())
}

fn show(a: &SimAnswer) -> String {
    match a {
        SimAnswer::Proved(c) => format!(
            "proved: {} nodes, {} steps, {} queries, sites {:?}\n{}",
            c.nodes.len(),
            c.edges,
            c.queries,
            c.sites,
            c.nodes
                .iter()
                .map(|n| format!(
                    "  {} / {}: {}",
                    n.reference,
                    n.target,
                    n.invariant.join(", ")
                ))
                .collect::<Vec<_>>()
                .join("\n")
        ),
        other => format!("{other:?}"),
    }
}

#[test]
fn seed_loops() {
    let src = example("seed/ambiguity-source.c");
    for (f, pass, want) in [
        ("loop_continue", "simplifycfg", true),
        ("loop_continue", "simplifycfg<keep-loops>", true),
        ("loop_nest", "simplifycfg<keep-loops>", true),
        ("loop_nest", "simplifycfg", false),
    ] {
        let a = after(&src, f, pass);
        eprintln!("{f} {pass}: {}", show(&a));
        assert_eq!(
            matches!(a, SimAnswer::Proved(_)),
            want,
            "{f} {pass}: {}",
            show(&a)
        );
    }
}
