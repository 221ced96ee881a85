//! Helpers shared by the integration tests: the data folder, a compact
//! summary printer for golden files, and a finder for the LLVM tools.
#![deny(unsafe_code)]
#![allow(dead_code)] // Each test binary uses a different subset.

pub mod ir;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use convcheck_llvm::value::sext;
use convcheck_llvm::{InstKind, Module, Value};

/// `tests/data`.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

/// The `.ll` files of `tests/data`, sorted.
pub fn data_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    v.sort();
    v
}

/// Parses a file of `tests/data`, panicking with every error.
pub fn parse_data(name: &str) -> Module {
    let path = data_dir().join(name);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    convcheck_llvm::parse_module(&src, name).unwrap_or_else(|e| panic!("{e}"))
}

/// A compact, deterministic description of a module: globals, then per
/// function its header facts, one line per block (`%name: ops -> succs`),
/// and one line per call. Generic instructions are marked `*`. With
/// `lines`, calls show their source line.
pub fn summary(m: &Module, lines: bool) -> String {
    let mut s = String::new();
    for g in &m.globals {
        // Integer literals as LLVM holds them, so that opt's reprint of
        // `i64 18446744073709551615` (as -1) compares equal.
        let init = match &g.initializer {
            None => "-".to_string(),
            Some(Value::Int(v)) => g.ty.int_width().map_or(*v, |w| sext(*v, w)).to_string(),
            Some(v) => short(&v.to_string()),
        };
        let _ = writeln!(
            s,
            "global @{} addrspace({}) {} = {}",
            g.name, g.addrspace, g.ty, init
        );
    }
    for f in &m.functions {
        let kw = if f.is_definition { "define" } else { "declare" };
        let mut flags = Vec::new();
        if f.is_convergent(m) {
            flags.push("convergent");
        }
        if m.is_kernel(f) {
            flags.push("kernel");
        }
        let mut params: Vec<String> = f
            .params
            .iter()
            .map(|p| format!("{} %{}", p.ty, p.name))
            .collect();
        if f.varargs {
            params.push("...".into());
        }
        let _ = writeln!(
            s,
            "{kw} {} @{}({}) [{}]",
            f.ret_ty,
            f.name,
            params.join(", "),
            flags.join(" ")
        );
        for b in &f.blocks {
            let ops: Vec<String> = b
                .instructions
                .iter()
                .map(|i| {
                    let star = if matches!(i.kind, InstKind::Generic(_)) {
                        "*"
                    } else {
                        ""
                    };
                    match &i.result {
                        Some(r) => format!("%{r}={star}{}", i.opcode()),
                        None => format!("{star}{}", i.opcode()),
                    }
                })
                .collect();
            let succ: Vec<String> = b.successors().iter().map(|n| format!("%{n}")).collect();
            let _ = writeln!(s, "  %{}: {} -> {}", b.name, ops.join(" "), succ.join(" "));
        }
        for (i, c) in f.calls() {
            let at = if lines {
                format!("line {}: ", i.line())
            } else {
                String::new()
            };
            let conv = if c.is_convergent(m) {
                " convergent"
            } else {
                ""
            };
            let ctrl = c
                .convergencectrl()
                .map(|v| format!(" ctrl={v}"))
                .unwrap_or_default();
            let _ = writeln!(s, "  {at}call {}{conv}{ctrl}", short(&c.callee.to_string()));
        }
    }
    s
}

fn short(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}

/// The path of an LLVM tool such as `opt-19`, if it runs.
pub fn tool(name: &str) -> Option<PathBuf> {
    let candidates = [
        PathBuf::from(name),
        Path::new("/usr/lib/llvm-19/bin").join(name.trim_end_matches("-19")),
    ];
    candidates.into_iter().find(|p| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// A fresh scratch directory under the target directory.
pub fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
