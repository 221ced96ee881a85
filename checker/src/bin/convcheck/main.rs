//! The `convcheck` command line: the only place that knows clap, exit
//! codes and terminals (DESIGN.md section 3). It parses the arguments into
//! the library's types, calls the library, renders its answer, prints it
//! and exits with the code of DESIGN.md section 4.

mod cli;
mod convert;
mod dispatch;
mod gpu;
mod progress;
mod reduce;
mod uniformity;

use std::io::Write;

fn main() {
    let out = dispatch::main_with_args(std::env::args_os());
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    std::process::exit(out.code);
}
