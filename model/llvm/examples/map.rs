//! Maps an LLVM IR file to convcheck's IR and prints it in the IR's text
//! form, followed by the functions that were skipped and why.
//!
//! `cargo run -p convcheck-llvm --example map -- FILE.ll`
#![deny(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: map FILE.ll");
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
    let mapped = convcheck_llvm::to_ir::to_module(&m, path);
    print!("{}", convcheck_ir::print::module_text(&mapped.module));
    for s in &mapped.skipped {
        println!("; skipped: {s}");
    }
    ExitCode::SUCCESS
}
