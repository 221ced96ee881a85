//! The simulation engine on two LLVM IR files, function by function
//! (issue 22): what it proves, and why it finds no relation where it does
//! not (the reason the checker's report leaves out, since the bounded
//! engines decide those stages).
//!
//! `cargo run --release -p convcheck-smt --example simulate -- IN.ll OUT.ll [FUNCTION...]`
//! (`SIM_TIMEOUT=S` for a timeout of `S` seconds instead of 10)

use convcheck_smt::simulation::{prove, SimAnswer, SimOptions};
use std::time::Instant;

fn load(path: &str) -> convcheck_ir::Module {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let m = convcheck_llvm::parse_module(&text, path).unwrap_or_else(|e| panic!("{path}: {e}"));
    convcheck_llvm::to_ir::to_module(&m, path).module
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: simulate IN.ll OUT.ll [FUNCTION...]");
        std::process::exit(2);
    }
    let (r, t) = (load(&args[1]), load(&args[2]));
    let names: Vec<String> = if args.len() > 3 {
        args[3..].to_vec()
    } else {
        r.functions.iter().map(|f| f.name.clone()).collect()
    };
    for name in names {
        let (Some(rf), Some(tf)) = (r.function(&name), t.function(&name)) else {
            println!("{name}: not in both");
            continue;
        };
        let start = Instant::now();
        // A budget of work too large to bind, so that the work is counted.
        // (`SIM_TIMEOUT`: seconds, instead of the default 10.)
        let timeout = std::env::var("SIM_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .map_or(
                SimOptions::default().timeout,
                std::time::Duration::from_secs,
            );
        let opts = SimOptions {
            work: 1 << 40,
            timeout,
            ..SimOptions::default()
        };
        let a = prove(&r, rf, &t, tf, &opts);
        let s = start.elapsed().as_secs_f64();
        match a {
            SimAnswer::Proved(c) => println!(
                "{name}: {s:.3} s: proved ({} nodes, {} steps, {} queries, {} saved, {} units of work)",
                c.nodes.len(),
                c.edges,
                c.queries,
                c.saved,
                c.work
            ),
            SimAnswer::NotFound(why) => println!("{name}: {s:.3} s: not found: {why}"),
            SimAnswer::Unknown(why) => println!("{name}: {s:.3} s: unknown: {why}"),
        }
    }
}
