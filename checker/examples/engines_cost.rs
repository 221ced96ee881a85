//! Measures the two symbolic engines on one LLVM function pair, apart from
//! the checker's pipeline (issue 22): the simulation proof and the bounded
//! product at a list of iteration bounds, wall time per call.
//!
//! `cargo run --release -p convcheck --example engines_cost -- REF.ll TGT.ll FUNCTION [MAX_ITERS...]`

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_smt::product::{compare_at, ProductOptions};
use convcheck_smt::simulation::{prove, SimAnswer, SimOptions};
use convcheck_smt::Answer;
use std::time::{Duration, Instant};

fn load(path: &str) -> convcheck_ir::Module {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let m = convcheck_llvm::parse_module(&text, path).unwrap_or_else(|e| panic!("{path}: {e}"));
    convcheck_llvm::to_ir::to_module(&m, path).module
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: engines_cost REF.ll TGT.ll FUNCTION [MAX_ITERS...]");
        std::process::exit(2);
    }
    let (r, t) = (load(&args[1]), load(&args[2]));
    let f = &args[3];
    let (Some(rf), Some(tf)) = (r.function(f), t.function(f)) else {
        eprintln!("no function {f} in both");
        std::process::exit(2);
    };
    let start = Instant::now();
    let sim = prove(&r, rf, &t, tf, &SimOptions::default());
    let what = match &sim {
        SimAnswer::Proved(c) => format!(
            "proved ({} nodes, {} steps, {} queries)",
            c.nodes.len(),
            c.edges,
            c.queries
        ),
        SimAnswer::NotFound(w) => format!("not found: {w}"),
        SimAnswer::Unknown(w) => format!("unknown: {w}"),
    };
    println!("simulation: {:.3} s: {what}", start.elapsed().as_secs_f64());
    let (rp, tp) = (CfgProgram::new(r), CfgProgram::new(t));
    for k in args[4..].iter().filter_map(|a| a.parse::<u32>().ok()) {
        let opts = ProductOptions {
            max_iters: k,
            timeout: Duration::from_secs(300),
            ..ProductOptions::default()
        };
        let start = Instant::now();
        let a = compare_at(&rp, &tp, [rf, tf], &opts);
        let what = match &a {
            Answer::Proved(p) => format!(
                "preserved ({:?}, copies {:?}, events {:?})",
                p.proof, p.copies, p.events
            ),
            Answer::Counterexample(c) => format!("violated ({:?})", c.property),
            Answer::Unknown(w) => format!("unknown: {w}"),
        };
        println!(
            "product max-iters {k}: {:.3} s: {what}",
            start.elapsed().as_secs_f64()
        );
    }
}
