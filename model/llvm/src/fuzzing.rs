//! The fuzzing oracle for the parser.
//!
//! [`parse_never_panics`] is what a cargo-fuzz target calls: it parses any
//! bytes (decoded lossily as UTF-8) and, when the parse succeeds, checks
//! that the tree keeps the invariants the mapping relies on
//! ([`check_tree`]); when it fails, that every error is located and printed
//! as `file:line:col: message`. It panics only on a parser bug: a panic
//! inside the parser, or a tree or an error that breaks those invariants,
//! and then says what it compared. The same function runs under
//! `cargo test` on random and mutated inputs (`tests/robustness.rs`).
#![deny(unsafe_code)]

use std::collections::HashSet;

use crate::attrs::Attribute;
use crate::inst::InstKind;
use crate::module::Module;
use crate::parse_module;

/// Parses `bytes` and checks the result; panics only on a parser bug.
pub fn parse_never_panics(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    match parse_module(&text, "fuzz.ll") {
        Ok(m) => check_tree(&m),
        Err(errors) => {
            for e in errors.errors() {
                let shown = e.to_string();
                let prefix = format!("fuzz.ll:{}:{}: ", e.line(), e.col());
                assert!(
                    e.line() >= 1 && e.col() >= 1,
                    "error without a location: {shown}"
                );
                assert!(
                    shown.starts_with(&prefix),
                    "error {shown:?} does not start with {prefix:?}"
                );
                assert!(!e.message().is_empty(), "empty error message at {prefix}");
            }
        }
    }
}

/// Checks the invariants of a parsed module, panicking with what it
/// compared: every defined function has blocks; every block ends with its
/// only terminator; block and result names are unique within a function;
/// every successor and phi predecessor is a block of the function; every
/// attribute group used is defined; every direct callee is a function or
/// global of the module.
pub fn check_tree(m: &Module) {
    let defined_globals: HashSet<_> = m
        .functions
        .iter()
        .map(|f| &f.name)
        .chain(m.globals.iter().map(|g| &g.name))
        .chain(m.others.iter().filter_map(|o| o.name.as_ref()))
        .collect();
    let check_groups = |attrs: &[Attribute], what: &str| {
        for a in attrs {
            if let Attribute::Group(id) = a {
                assert!(
                    m.attr_groups.contains_key(id),
                    "{what} uses attribute group #{id}, which is not defined"
                );
            }
        }
    };
    for f in &m.functions {
        check_groups(&f.attrs, &format!("function @{}", f.name));
        assert_eq!(
            f.is_definition,
            !f.blocks.is_empty(),
            "function @{}: is_definition vs blocks",
            f.name
        );
        let blocks: HashSet<_> = f.blocks.iter().map(|b| &b.name).collect();
        assert_eq!(
            blocks.len(),
            f.blocks.len(),
            "function @{}: duplicate block names",
            f.name
        );
        let mut results = HashSet::new();
        for p in &f.params {
            assert!(
                results.insert(&p.name),
                "function @{}: duplicate parameter %{}",
                f.name,
                p.name
            );
        }
        for b in &f.blocks {
            let n = b.instructions.len();
            assert!(n > 0, "function @{} block %{}: empty", f.name, b.name);
            for (i, inst) in b.instructions.iter().enumerate() {
                assert_eq!(
                    inst.is_terminator(),
                    i + 1 == n,
                    "function @{} block %{}: terminator position",
                    f.name,
                    b.name
                );
                if let Some(r) = &inst.result {
                    assert!(
                        results.insert(r),
                        "function @{}: result %{r} defined twice",
                        f.name
                    );
                    assert!(
                        !blocks.contains(r),
                        "function @{}: %{r} is both a block and a value",
                        f.name
                    );
                }
                for s in inst.successors() {
                    assert!(
                        blocks.contains(s),
                        "function @{}: successor %{s} is not a block",
                        f.name
                    );
                }
                if let InstKind::Phi(p) = &inst.kind {
                    for (_, pred) in &p.incoming {
                        assert!(
                            blocks.contains(pred),
                            "function @{}: phi predecessor %{pred} is not a block",
                            f.name
                        );
                    }
                }
                if let InstKind::Call(c) = &inst.kind {
                    check_groups(&c.fn_attrs, &format!("a call in @{}", f.name));
                    if let Some(g) = c.callee.as_global() {
                        assert!(
                            defined_globals.contains(g),
                            "function @{}: callee @{g} is not defined",
                            f.name
                        );
                    }
                }
            }
        }
    }
}
