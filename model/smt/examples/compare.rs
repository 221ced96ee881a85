//! Times one comparison of the symbolic engine:
//! `cargo run --release -p convcheck-smt --example compare -- FILE FUNCTION PASS MAX_ITERS`
//! prints the answer and the seconds it took (the pass is looked up in
//! the transform registry; `none` compares the lowered function with
//! itself).

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_lang::lower::lower;
use convcheck_lang::sema::Kernel;
use convcheck_smt::product::{compare, ProductOptions};
use convcheck_smt::Answer;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, function, pass, iters] = &args[..] else {
        eprintln!("usage: compare FILE FUNCTION PASS MAX_ITERS");
        std::process::exit(2);
    };
    let src = std::fs::read_to_string(file).expect("readable file");
    let k = Kernel::parse(file, &src).unwrap_or_else(|d| panic!("{d}"));
    let m = lower(&k, false);
    let id = m.function(function).expect("function exists");
    let mut t = m.clone();
    if pass != "none" {
        convcheck_transforms::lookup(pass)
            .expect("pass")
            .run(&mut t)
            .expect("pass runs");
    }
    let opts = ProductOptions {
        max_iters: iters.parse().expect("a number"),
        timeout: Duration::from_secs(300),
        ..ProductOptions::default()
    };
    let start = Instant::now();
    let a = compare(&CfgProgram::new(m), &CfgProgram::new(t), id, &opts);
    let secs = start.elapsed().as_secs_f64();
    match a {
        Answer::Proved(p) => println!("preserved {p:?}"),
        Answer::Counterexample(c) => {
            println!("violated: {} (N={}, tids {:?})", c.message, c.group, c.tids)
        }
        Answer::Unknown(w) => println!("unknown: {w}"),
    }
    println!("{secs:.3} s");
}
