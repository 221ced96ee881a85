//! Times the product's counterexample search (`hunt_at`) on two LLVM IR
//! files: `cargo run --release -p convcheck-smt --example hunt -- IN.ll OUT.ll FUNCTION GROUP MAX_ITERS SECS WORK`
//! (GROUP 0 for every group size; WORK units of z3's resource counter for
//! the whole search, 0 for no bound) prints the answer, the seconds it took
//! and the units it spent.

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_smt::product::{hunt_at, ProductOptions, WorkAccount};
use convcheck_smt::Answer;
use std::time::{Duration, Instant};

fn load(path: &str) -> convcheck_ir::Module {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let m = convcheck_llvm::parse_module(&text, path).unwrap_or_else(|e| panic!("{path}: {e}"));
    convcheck_llvm::to_ir::to_module(&m, path).module
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, a, b, name, group, iters, secs, work] = &args[..] else {
        eprintln!("usage: hunt IN.ll OUT.ll FUNCTION GROUP MAX_ITERS SECS WORK");
        std::process::exit(2);
    };
    let (r, t) = (load(a), load(b));
    let (Some(rf), Some(tf)) = (r.function(name), t.function(name)) else {
        eprintln!("{name}: not in both");
        std::process::exit(2);
    };
    let group: u32 = group.parse().expect("a number");
    let opts = ProductOptions {
        max_iters: iters.parse().expect("a number"),
        group: (group > 0).then_some(group),
        timeout: Duration::from_secs(secs.parse().expect("a number")),
        ..ProductOptions::default()
    };
    let start = Instant::now();
    let account = WorkAccount::new(work.parse().expect("a number"));
    let ans = hunt_at(
        &CfgProgram::new(r),
        &CfgProgram::new(t),
        [rf, tf],
        &opts,
        &account,
    );
    let s = start.elapsed().as_secs_f64();
    let u = account.spent();
    match ans {
        Answer::Proved(_) => println!("{s:.3} s, {u} units: proved"),
        Answer::Counterexample(c) => println!("{s:.3} s, {u} units: violated: {}", c.message),
        Answer::Unknown(w) => println!("{s:.3} s, {u} units: unknown: {w}"),
    }
}
