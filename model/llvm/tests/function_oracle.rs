//! A `memory(none)` call's result is a function of its arguments within a
//! thread (`OracleClass::Function`, `to_ir/pure_calls.rs`): the
//! interpreter reads one free value per argument list, named `f(3)`, so
//! two calls with equal arguments (not the same SSA value, which the
//! mapping would forward as a copy) give one value and other arguments
//! another, whatever the order of the calls.
#![deny(unsafe_code)]

use std::collections::BTreeMap;

use convcheck_ir::exec::cfg::CfgProgram;
use convcheck_ir::exec::{run_scenario, EventKind};
use convcheck_ir::scenario::{Scenario, ThreadValues};
use convcheck_ir::OracleClass;
use convcheck_llvm::parse_module;

const MODULE: &str = "target triple = \"nvptx64-nvidia-cuda\"\n\
@o = addrspace(1) global [4 x i32] zeroinitializer\n\
declare i32 @f(i32) memory(none) nounwind willreturn\n\
define void @k(i32 %x, i32 %y) {\n\
entry:\n\
  %x2 = add i32 %x, 0\n\
  %b = call i32 @f(i32 %y)\n\
  %a = call i32 @f(i32 %x)\n\
  %c = call i32 @f(i32 %x2)\n\
  store i32 %a, ptr addrspace(1) @o\n\
  %p1 = getelementptr [4 x i32], ptr addrspace(1) @o, i32 0, i32 1\n\
  store i32 %b, ptr addrspace(1) %p1\n\
  %p2 = getelementptr [4 x i32], ptr addrspace(1) @o, i32 0, i32 2\n\
  store i32 %c, ptr addrspace(1) %p2\n\
  ret void\n\
}\n";

/// The values thread 0 stores, in order, given `x`, `y` and the values of
/// `f(x)` and `f(y)`.
fn stored(x: i64, y: i64, fx: i64, fy: i64) -> Vec<i64> {
    let parsed = parse_module(MODULE, "t.ll").unwrap_or_else(|e| panic!("{e}"));
    let mapped = convcheck_llvm::to_ir::to_module(&parsed, "t.ll");
    assert!(mapped.skipped.is_empty(), "{:?}", mapped.skipped);
    let m = mapped.module;
    let o = m.oracle("f").expect("the callee's oracle");
    assert_eq!(m.oracles[o].class, OracleClass::Function);
    let mut values: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    values.insert("x".into(), vec![x]);
    values.insert("y".into(), vec![y]);
    values.insert(format!("f({x})"), vec![fx]);
    values.insert(format!("f({y})"), vec![fy]);
    let s = Scenario {
        threads: vec![ThreadValues(values)],
    };
    let f = m.entry(Some("k")).expect("entry");
    let program = CfgProgram::new(m.clone());
    let traces =
        run_scenario(&program, f, &s, 2_000).unwrap_or_else(|(t, why)| panic!("{t}: {why}"));
    traces[0]
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Mem {
                write: true,
                value: Some(v),
                ..
            } => Some(*v),
            _ => None,
        })
        .collect()
}

#[test]
fn equal_arguments_give_one_value_and_other_arguments_another() {
    // `f(x)` twice (through `x` and `x + 0`) and `f(y)` between them.
    assert_eq!(stored(3, 4, 7, 9), vec![7, 9, 7]);
    // With `x == y` every call reads the one value of `f(3)`.
    assert_eq!(stored(3, 3, 7, 7), vec![7, 7, 7]);
}
