//! The `convcheck` command line: parses arguments, runs the command,
//! prints its output and exits with its code (DESIGN.md section 4).

mod cli;
mod convert;

use std::io::Write;

fn main() {
    let out = cli::main_with_args(std::env::args_os());
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    std::process::exit(out.code);
}
