//! The fuzzing oracles for the parser, the mapping and the writer.
//!
//! [`parse_never_panics`] is what a cargo-fuzz target calls: it parses any
//! bytes (decoded lossily as UTF-8) and, when the parse succeeds, checks
//! that the tree keeps the invariants the mapping relies on
//! ([`check_tree`]); when it fails, that every error is located and printed
//! as `file:line:col: message`. It panics only on a parser bug: a panic
//! inside the parser, or a tree or an error that breaks those invariants,
//! and then says what it compared. The same function runs under
//! `cargo test` on random and mutated inputs (`tests/robustness.rs`).
//!
//! [`map_never_panics`] goes on from a module that parses: it maps it into
//! convcheck's IR ([`crate::to_ir::to_module`]), checks that every defined
//! function is mapped or skipped and that the result is a well-formed IR
//! module ([`check_mapped`]), that the IR's text form reads it back, and
//! that writing it as LLVM IR ([`crate::write::module_text`]) and reading
//! that again skips nothing and gives the same CFG ([`cfg_shape`]).
#![deny(unsafe_code)]

use std::collections::HashSet;

use convcheck_ir::{Expr, InstKind as IrInst, Module as IrModule, Term};

use crate::attrs::Attribute;
use crate::inst::InstKind;
use crate::module::Module;
use crate::parse_module;
use crate::value::Name;

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
/// every successor and phi predecessor is a block of the function; an
/// attribute group used but not defined resolves to nothing; every direct
/// callee is a function or global of the module.
pub fn check_tree(m: &Module) {
    let defined_globals: HashSet<_> = m
        .functions
        .iter()
        .map(|f| &f.name)
        .chain(m.globals.iter().map(|g| &g.name))
        .chain(m.others.iter().filter_map(|o| o.name.as_ref()))
        .collect();
    // An attribute group used but not defined is allowed (LLVM reads it as
    // no attributes); resolving it must give nothing.
    let check_groups = |attrs: &[Attribute], what: &str| {
        for a in attrs {
            if let Attribute::Group(id) = a {
                if !m.attr_groups.contains_key(id) {
                    let got = m.resolve_attrs(std::slice::from_ref(a)).count();
                    assert_eq!(
                        got, 0,
                        "{what}: undefined group #{id} resolves to attributes"
                    );
                }
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
                        // An intrinsic may be called undeclared (LLVM's
                        // parser declares it).
                        let intrinsic = matches!(g, Name::Named(n) if n.starts_with("llvm."));
                        assert!(
                            intrinsic || defined_globals.contains(g),
                            "function @{}: callee @{g} is not defined",
                            f.name
                        );
                    }
                }
            }
        }
    }
}

/// Parses `bytes`; when they parse, maps, checks, writes and reads back the
/// module (see the module documentation). Panics only on a bug, saying what
/// it compared.
pub fn map_never_panics(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let Ok(m) = parse_module(&text, "fuzz.ll") else {
        return;
    };
    let mapped = crate::to_ir::to_module(&m, "fuzz.ll");
    check_mapped(&m, &mapped);
    // The static rules of tokens name only functions the module defines.
    for v in crate::verify::convergence(&m) {
        assert!(
            m.function(&v.function).is_some_and(|f| f.is_definition)
                || v.function.parse::<u32>().is_ok(),
            "a token rule names @{}, which the module does not define: {v}",
            v.function
        );
    }
    let cir = convcheck_ir::print::module_text(&mapped.module);
    match convcheck_ir::parse::parse_module("fuzz.cir", &cir) {
        Ok(back) => assert!(
            back == mapped.module,
            "the IR text form does not read the mapped module back:\n{cir}"
        ),
        Err(e) => panic!("the IR text form of the mapped module does not parse: {e:?}\n{cir}"),
    }
    // The writer's round trip is compared without the poison checks: the
    // written module keeps locals in allocas, whose loads the mapper may
    // read as undefined before a store, which adds blocks of undefined
    // behaviour of its own (to_ir::poison). External calls are read as
    // oracles: the writer prints a call's effect event as the atomic store
    // it is, which would read back as a store beside the call's own event.
    let plain = crate::to_ir::MapOptions {
        unchecked_poison: true,
        calls_as_oracles: true,
        ..Default::default()
    };
    let mapped = crate::to_ir::to_module_with(&m, "fuzz.ll", &plain);
    let written = crate::write::module_text(&mapped.module);
    let reread = match parse_module(&written, "written.ll") {
        Ok(r) => r,
        Err(e) => panic!("the written module does not parse: {e}\n{written}"),
    };
    let back = crate::to_ir::to_module_with(&reread, "written.ll", &plain);
    assert!(
        back.skipped.is_empty(),
        "the written module skips {:?}\n{written}",
        back.skipped
    );
    assert_eq!(
        cfg_shape(&mapped.module),
        cfg_shape(&back.module),
        "writing and reading back changed the CFG:\n{written}"
    );
}

/// Checks a mapping: every defined function is mapped or skipped, exactly
/// once, in module order; every op, oracle, function and block an IR
/// module refers to exists; every block has an origin; every function has
/// one oracle per parameter.
pub fn check_mapped(m: &Module, mapped: &crate::to_ir::Mapped) {
    let ir = &mapped.module;
    let defined: Vec<String> = m
        .defined_functions()
        .map(|f| crate::to_ir::plain_name(&f.name))
        .collect();
    let mut seen: Vec<&str> = ir.functions.iter().map(|f| f.name.as_str()).collect();
    seen.extend(mapped.skipped.iter().map(|s| s.function.as_str()));
    let mut want: Vec<&str> = defined.iter().map(String::as_str).collect();
    seen.sort_unstable();
    want.sort_unstable();
    assert_eq!(seen, want, "mapped and skipped functions vs defined ones");
    for s in &mapped.skipped {
        assert!(!s.construct.is_empty(), "a skip without a construct: {s:?}");
    }
    let op_ok = |id: convcheck_ir::OpId| (id.0 as usize) < ir.ops.len();
    for (fid, f) in ir.functions.iter().enumerate() {
        let n = f.blocks.len();
        assert!(n > 0, "@{}: no blocks", f.name);
        assert_eq!(
            f.params.len(),
            f.param_oracles.len(),
            "@{}: parameters vs their oracles",
            f.name
        );
        assert!(
            f.param_oracles.iter().all(|&o| o < ir.oracles.len()),
            "@{}: a parameter oracle out of range",
            f.name
        );
        for b in &f.blocks {
            let origin = b
                .origin
                .unwrap_or_else(|| panic!("@{} %{}: no origin", f.name, b.name));
            assert!(
                op_ok(origin),
                "@{} %{}: origin out of range",
                f.name,
                b.name
            );
            assert!(
                b.term.succs().iter().all(|&s| s < n),
                "@{} %{}: a successor out of range",
                f.name,
                b.name
            );
            for i in &b.insts {
                assert!(op_ok(i.sid), "@{} %{}: an op out of range", f.name, b.name);
                assert_eq!(
                    ir.ops[i.sid.0 as usize].func, fid,
                    "@{}: an op of another function",
                    f.name
                );
                if let IrInst::Phi { incoming, .. } = &i.kind {
                    assert!(
                        incoming.iter().all(|(p, _)| *p < n),
                        "@{}: a phi predecessor out of range",
                        f.name
                    );
                }
            }
            for e in b.exprs() {
                e.walk(&mut |x| match x {
                    Expr::Oracle(o) => {
                        assert!(*o < ir.oracles.len(), "@{}: oracle out of range", f.name)
                    }
                    Expr::Call { op, kind, .. } => {
                        assert!(op_ok(*op), "@{}: a call's op out of range", f.name);
                        if let convcheck_ir::CallKind::Real(g) = kind {
                            assert!(
                                *g < ir.functions.len(),
                                "@{}: a callee out of range",
                                f.name
                            );
                        }
                    }
                    Expr::Load { op, value, .. } => {
                        assert!(op_ok(*op), "@{}: a load's op out of range", f.name);
                        assert!(
                            value.is_none_or(|o| o < ir.oracles.len()),
                            "@{}: a load's oracle",
                            f.name
                        );
                    }
                    Expr::Store { op, .. } => {
                        assert!(op_ok(*op), "@{}: a store's op out of range", f.name)
                    }
                    _ => {}
                });
            }
        }
    }
}

/// A CFG's shape as text: per function and block, its name, terminator,
/// successors, the labels of its convergent operations and its token
/// intrinsics. A leading `convcheck.entry` block (which the writer adds
/// and the reader keeps when it holds copies of parameters) is left out.
pub fn cfg_shape(m: &IrModule) -> Vec<String> {
    let mut out = Vec::new();
    for f in &m.functions {
        let skip = usize::from(
            f.blocks
                .first()
                .is_some_and(|b| b.name == "convcheck.entry"),
        );
        out.push(format!("@{}({})", f.name, f.params.len()));
        for b in f.blocks.iter().skip(skip) {
            let mut ops = Vec::new();
            for i in &b.insts {
                match &i.kind {
                    IrInst::Observe => ops.push(m.label(i.sid).to_string()),
                    IrInst::Token { kind, .. } => ops.push(format!("token {}", kind.name())),
                    _ => {}
                }
                let exprs: Vec<&Expr> = match &i.kind {
                    IrInst::Eval(e) | IrInst::SetLocal { value: Some(e), .. } => vec![e],
                    IrInst::Phi { incoming, .. } => incoming.iter().map(|x| &x.1).collect(),
                    _ => Vec::new(),
                };
                for e in exprs {
                    e.walk(&mut |x| {
                        if let Expr::Call { op, kind, .. } = x {
                            if kind.is_convergent() {
                                ops.push(m.label(*op).to_string());
                            }
                        }
                    });
                }
            }
            let term = match &b.term {
                Term::Br(_) => "br",
                Term::CondBr { .. } => "condbr",
                Term::Switch { .. } => "switch",
                Term::Ret(_) => "ret",
                Term::Unreachable => "unreachable",
            };
            let mut succs: Vec<usize> = Vec::new();
            match &b.term {
                Term::Switch { cases, default, .. } => {
                    let mut values = Vec::new();
                    for (v, d) in cases {
                        if !values.contains(v) {
                            values.push(*v);
                            succs.push(*d);
                        }
                    }
                    succs.push(*default);
                }
                t => succs = t.succs(),
            }
            let succs: Vec<String> = succs
                .iter()
                .map(|s| (s - skip.min(*s)).to_string())
                .collect();
            out.push(format!(
                "  {}: {term} -> {} [{}]",
                b.name,
                succs.join(" "),
                ops.join(", ")
            ));
        }
    }
    out
}
