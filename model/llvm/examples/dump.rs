//! Prints a summary of how an LLVM IR file parses: per function, the number
//! of blocks and instructions, the generic (uninterpreted) opcodes, and the
//! convergent calls with their convergence tokens; or the errors.
//!
//! `cargo run --example dump -- FILE.ll`
#![deny(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: dump FILE.ll");
        return ExitCode::from(2);
    };
    let src = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let m = match convcheck_llvm::parse_module(&src, path) {
        Ok(m) => m,
        Err(errors) => {
            eprintln!("{errors}");
            return ExitCode::from(2);
        }
    };
    for f in m.defined_functions() {
        let insts = f.instructions().count();
        let generic: Vec<&str> = f.generic_instructions().map(|i| i.opcode()).collect();
        println!(
            "@{}: {} blocks, {} instructions, convergent={}, kernel={}, generic={:?}",
            f.name,
            f.blocks.len(),
            insts,
            f.is_convergent(&m),
            m.is_kernel(f),
            generic
        );
        for (i, c) in f.calls() {
            if c.is_convergent(&m) {
                let tok = c
                    .convergencectrl()
                    .map(|v| v.to_string())
                    .unwrap_or_default();
                println!("  line {}: convergent call {} {}", i.line(), c.callee, tok);
            }
        }
    }
    ExitCode::SUCCESS
}
