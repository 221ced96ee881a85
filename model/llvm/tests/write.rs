//! The writer on IR modules written by hand in the IR's text form, for what
//! the example kernels do not reach: lazy operators and selects with
//! effects, phis (with effects, at the entry), assignments, every unary and
//! binary operator, division by zero, parameters that are set, an entry
//! block with predecessors, names that collide, data-carrying barriers,
//! fences, tokens. Each module is written, read back and compared (same
//! CFG, same tables and events); with `opt-19`, the text must verify.
#![deny(unsafe_code)]

mod common;

use std::process::Command;

use common::ir::{assert_same, assert_same_behaviour};
use convcheck_ir::Module;
use convcheck_llvm::{parse_module, write::module_text};

/// The mapping without poison checks: the writer keeps locals in allocas,
/// whose loads the default mapping reads as undefined before a store and
/// guards with blocks of undefined behaviour (`to_ir::poison`), which a
/// round trip of the writer is not about. External calls are read as
/// oracles (`calls_as_oracles`): the writer prints a call's effect event
/// as the atomic store it is, which would read back as a store beside the
/// call's own event.
fn to_module(m: &convcheck_llvm::Module, name: &str) -> convcheck_llvm::to_ir::Mapped {
    let opts = convcheck_llvm::to_ir::MapOptions {
        unchecked_poison: true,
        calls_as_oracles: true,
        ..Default::default()
    };
    convcheck_llvm::to_ir::to_module_with(m, name, &opts)
}

fn ir(text: &str) -> Module {
    convcheck_ir::parse::parse_module("t.cir", text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// Writes, reads back, compares (the CFG too when `same_cfg`); verifies
/// with opt-19 when installed. Returns the written text.
fn round_trip_with(m: &Module, what: &str, same_cfg: bool) -> String {
    let text = module_text(m);
    let parsed = parse_module(&text, what).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    let back = to_module(&parsed, what);
    assert!(
        back.skipped.is_empty(),
        "{what}: {:?}\n{text}",
        back.skipped
    );
    if same_cfg {
        assert_same(m, &back.module, what);
    } else {
        assert_same_behaviour(m, &back.module, what);
    }
    if let Some(opt) = common::tool("opt-19") {
        let dir = common::scratch(&format!("write_{what}"));
        let path = dir.join("t.ll");
        std::fs::write(&path, &text).expect("scratch");
        let out = Command::new(opt)
            .args(["-passes=verify", "-disable-output"])
            .arg(&path)
            .output()
            .expect("opt-19 runs");
        assert!(
            out.status.success(),
            "{what}: opt-19 rejects:\n{}\n{text}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    text
}

fn round_trip(m: &Module, what: &str) -> String {
    round_trip_with(m, what, true)
}

const HEADER: &str = r#"module "t"
oracle $c varying [0, 1, 2] at 1:1-1:2
oracle $v varying [0, 1] at 1:1-1:2
oracle $p uniform [0, 1] at 1:1-1:2
oracle $f varying [0, 1] at 1:1-1:2
oracle $cnt uniform [0, 1] at 1:1-1:2
"#;

#[test]
fn lazy_operators_with_effects_get_blocks() {
    let m = ir(&format!(
        r#"{HEADER}op #0 stmt "s" in @k at 1:1-1:2
op #1 observe "A" in @k at 2:1-2:2
op #2 mem shared read "ld" in @k at 3:1-3:2
op #3 call op $f "f" in @k at 4:1-4:2
op #4 observe "B" in @k at 5:1-5:2

define void @k() {{
entry: origin #0
  #1 observe
  #0 set %x = ($c && load #2 shared[tid] -> $v)
  #0 set %y = ($c || call #3 op $f @f())
  #0 set %z = ($c ? load #2 shared[(tid + 1)] -> $v : (call #3 op $f @f() + 1))
  #0 eval ($c ? load #2 shared[2] -> $v : 0)
  br ((%x + %y) + %z), label %then, label %end

then: origin #0
  #4 observe
  br label %end

end: origin #0
  ret void
}}
"#
    ));
    // The CFG gains blocks; what runs is the same.
    let text = round_trip_with(&m, "lazy", false);
    assert!(text.contains("entry.lazy"), "{text}");
}

#[test]
fn every_operator_and_division_by_zero() {
    let ops = [
        "|", "^", "&", "==", "!=", "<", "<=", ">", ">=", "<<", ">>", "+", "-", "*", "/", "%",
        "ult", "ule", "ugt", "uge", "udiv", "urem", "lshr",
    ];
    let mut body = String::new();
    for (i, op) in ops.iter().enumerate() {
        body.push_str(&format!("  #0 set %r{i} = ($c {op} ($v - 1))\n"));
    }
    body.push_str("  #0 set %n = (not($c) + neg($v))\n");
    body.push_str("  #0 set %b = (bitnot($c) + sext3($v))\n");
    body.push_str("  #0 set %z = (zext2((%n + %b)) + (-9223372036854775808 / -1))\n");
    body.push_str("  #0 set %q = (-9223372036854775808 % -1)\n");
    let mut sum = String::from("0");
    for i in 0..ops.len() {
        sum = format!("({sum} + %r{i})");
    }
    body.push_str(&format!(
        "  #0 set %all = ((({sum} + %n) + %b) + (%z + %q))\n  #0 eval (%all += 3)\n  #0 eval (%all *= 5)\n  #0 set %all = ((%all -= 1) + (%all = 2))\n"
    ));
    let m = ir(&format!(
        r#"{HEADER}op #0 stmt "s" in @k at 1:1-1:2
op #1 call barrier count $cnt "votes" in @k at 2:1-2:2
op #2 observe "A" in @k at 3:1-3:2

define void @k() {{
entry: origin #0
{body}  #0 set %w = call #1 barrier count $cnt @__syncthreads_count(%all)
  switch %w, label %end [ 0: label %a 1: label %a 7: label %end ]

a: origin #0
  #2 observe
  br label %end

end: origin #0
  ret void
}}
"#
    ));
    round_trip(&m, "operators");
}

#[test]
fn phis_parameters_and_an_entry_with_predecessors() {
    let m = ir(&format!(
        r#"{HEADER}op #0 stmt "s" in @k at 1:1-1:2
op #1 observe "H" in @k at 2:1-2:2
op #2 call real @g "G" in @k at 3:1-3:2
op #3 observe "X" in @g at 4:1-4:2
op #4 mem global write "st" in @k at 5:1-5:2
op #5 call fence "fence" in @k at 6:1-6:2
op #6 mem local read "ld" in @k at 7:1-7:2

define void @k(%p = $p) {{
entry: origin #0
  #1 observe
  #0 set %p = (%p + 1)
  #4 eval store #4 global[%p] = %p
  #5 eval call #5 fence @__threadfence()
  br ($c < 2), label %head, label %exit

head: origin #0
  #0 phi %i [0, %entry] [(%i + 1), %latch] [(%i + load #6 local[%i] -> $v), %loop]
  #0 phi %j [%p, %entry] [%i, %latch] [(%j + 2), %loop]
  br $c, label %loop, label %latch

loop: origin #0
  #0 eval call #2 real @g @g(%j)
  br $v, label %head, label %entry

latch: origin #0
  br (%i < 3), label %head, label %exit

exit: origin #0
  ret (%p + 7)
}}

define void @g(%a = $p, %b = $v) {{
entry: origin #3
  #3 observe
  ret void
}}
"#
    ));
    // An incoming value with an effect (the load) is computed on an edge
    // block of its own: the CFG gains `loop.to.head`, what runs is the same.
    let text = round_trip_with(&m, "phis_effects", false);
    assert!(text.contains("loop.to.head:"), "{text}");
    // Without it, the CFG is the same, apart from `convcheck.entry`, which
    // the reader keeps here because it holds the copy of the parameter that
    // is set (and which the comparison leaves out).
    let text = convcheck_ir::print::module_text(&m).replace("load #6 local[%i] -> $v", "%j");
    let text = round_trip(&ir(&text), "phis");
    assert!(text.contains("convcheck.entry:"), "{text}");
}

#[test]
fn tokens_and_colliding_names() {
    let m = ir(&format!(
        r#"{HEADER}op #0 stmt "s" in @k at 1:1-1:2
op #1 token "t" in @k at 2:1-2:2
op #2 observe "k" in @k at 3:1-3:2
op #3 call op $f "entry" in @k at 4:1-4:2
op #4 call barrier plain "B" in @k at 5:1-5:2
op #5 observe "@weird \"label\"" in @k at 6:1-6:2

define void @k() {{
entry: origin #0
  #1 token %entry = entry
  #2 observe [convergencectrl %entry]
  br label %loop

loop: origin #0
  #1 token %loop = loop [convergencectrl %entry]
  #0 set %v0 = call #3 op $f @f() [convergencectrl %loop]
  #4 eval call #4 barrier plain @__syncthreads() [convergencectrl %loop]
  br ($c + %v0), label %loop, label %end

end: origin #0
  #5 observe [convergencectrl %entry]
  ret void
}}
"#
    ));
    round_trip(&m, "tokens");
}
