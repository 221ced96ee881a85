//! The uniform-invariant oracle class (issue 20 class n) as LLVM IR: the
//! writer declares its read like an invariant oracle's (`memory(none)`,
//! not convergent, so LLVM may hoist or merge the reads, which one value
//! per run allows) and states the class in the oracle table; the reader
//! takes the class back from the table, also after a trip through
//! `opt-19 -S` when it is installed.
#![deny(unsafe_code)]

mod common;

use std::process::Command;

use convcheck_ir::{Module, OracleClass};
use convcheck_llvm::{parse_module, write::module_text};

fn corpus() -> String {
    let path = format!(
        "{}/../../examples/corpus/unswitch-uniform-invariant.c",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).expect("example exists")
}

fn read_back(text: &str) -> Module {
    let parsed = parse_module(text, "t.ll").unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mapped = convcheck_llvm::to_ir::to_module(&parsed, "t.ll");
    assert!(mapped.skipped.is_empty(), "{:?}", mapped.skipped);
    mapped.module
}

fn class_of(m: &Module, name: &str) -> OracleClass {
    let o = m.oracle(name).unwrap_or_else(|| panic!("no oracle {name}"));
    m.oracles[o].class
}

#[test]
fn the_class_survives_the_writer_the_reader_and_opt() {
    let k = convcheck_lang::sema::Kernel::parse("k.c", &corpus()).unwrap_or_else(|d| panic!("{d}"));
    let m = convcheck_lang::lower::lower(&k, false);
    assert_eq!(class_of(&m, "sel"), OracleClass::UniformInvariant);
    let text = module_text(&m);
    assert!(
        text.contains(r#"!{!"sel", !"uniform_invariant", !"0,1"}"#),
        "{text}"
    );
    let decl = text
        .lines()
        .find(|l| l.starts_with("declare i64 @oracle.sel()"))
        .expect("the oracle's declaration");
    let group = decl.rsplit('#').next().expect("an attribute group");
    let attrs = text
        .lines()
        .find(|l| l.starts_with(&format!("attributes #{group} =")))
        .expect("the attribute group");
    assert!(attrs.contains("memory(none)"), "{attrs}");
    assert!(!attrs.contains("convergent"), "{attrs}");
    assert_eq!(
        class_of(&read_back(&text), "sel"),
        OracleClass::UniformInvariant
    );
    let Some(opt) = common::tool("opt-19") else {
        eprintln!("skipped the trip through opt-19: not installed");
        return;
    };
    let dir = common::scratch("uniform_invariant");
    let path = dir.join("t.ll");
    std::fs::write(&path, &text).expect("scratch");
    let out = Command::new(opt)
        .args(["-passes=verify", "-S"])
        .arg(&path)
        .output()
        .expect("opt-19 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        class_of(&read_back(&after), "sel"),
        OracleClass::UniformInvariant
    );
}
