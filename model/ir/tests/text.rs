//! Tests of the IR's text form: the reader ([`convcheck_ir::parse`])
//! against the printer ([`convcheck_ir::print`]), on text and modules
//! written by hand.
//!
//! - Hand-written text, as a user would write it, reads and prints back in
//!   the printer's canonical form.
//! - Chosen modules (every construct at once, edge values, the nesting
//!   limit, a large module) print and read back.
//! - Every class of error gives the expected `file:line:col: message`.
//!
//! Random modules and random input are tested in `text_random.rs`.

use convcheck_ir::parse::{parse_module, MAX_DEPTH, MAX_ERRORS};
use convcheck_ir::print::module_text;
use convcheck_ir::{
    AssignOp, BarrierKind, BinOp, Block, CallKind, Cfg, Expr, Inst, InstKind, Module, OpId, OpInfo,
    OpKind, OracleClass, OracleInfo, Pos, Space, Span, Term, TokenKind, UnOp,
};

// ---------------------------------------------------------------------------
// Helpers

/// Reads `text` and returns the errors, one `file:line:col: message` each.
fn errors(text: &str) -> Vec<String> {
    match parse_module("t.cir", text) {
        Ok(m) => panic!("expected errors, read a module:\n{}", module_text(&m)),
        Err(d) => d.0.iter().map(|d| d.to_string()).collect(),
    }
}

/// Checks that `text` gives exactly `expect`.
fn check_errors(text: &str, expect: &[&str]) {
    assert_eq!(errors(text), expect, "input:\n{text}");
}

/// Prints `m`, reads it back and checks both the module and the text.
fn round_trip(m: &Module) {
    let text = module_text(m);
    match parse_module("t.cir", &text) {
        Ok(back) => {
            assert_eq!(&back, m, "text:\n{text}");
            assert_eq!(module_text(&back), text);
        }
        Err(d) => panic!("{d}\ntext:\n{text}"),
    }
}

fn span(l1: u32, c1: u32, l2: u32, c2: u32) -> Span {
    Span::new(Pos { line: l1, col: c1 }, Pos { line: l2, col: c2 })
}

fn op(label: &str, kind: OpKind, func: usize) -> OpInfo {
    OpInfo {
        label: label.into(),
        span: span(1, 1, 1, 2),
        kind,
        func,
        memory_none: false,
    }
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

// ---------------------------------------------------------------------------
// Hand-written text

/// A module as a user would write it: comments, forward references to a
/// function and to blocks, a negative constant, a quoted name, parameters
/// with and without oracles, and none of the printer's comments.
const HAND: &str = r#"; A loop with a convergent call, written by hand.
module "hand.cir"

oracle $c varying [0, 1] at 3:10-3:11   ; the loop condition
oracle $n uniform [-1, 4] at 1:5-1:6
op #0 stmt "@1" in @k at 1:1-1:2
op #1 observe "A" in @k at 3:5-3:8
op #2 call real @helper "helper" in @k at 4:3-4:11
op #3 token "" in @k at 0:0-0:0
op #4 stmt "" in @helper at 0:0-0:0

define void @k(%x = $n) {
entry: origin #0
  #3 token %tok = entry
  br label %loop
loop:
  #0 phi %i [0, %entry] [(%i + 1), %loop]
  #1 observe [convergencectrl %tok]
  #2 eval call #2 real @helper @helper(%i)
  br ($c != 0), label %loop, label %exit
exit:
  ret void
}

define void @helper(%v) {
entry:
  #4 set %"a b" = (-5 * %v)
  ret %"a b"
}
"#;

/// What the printer writes for [`HAND`].
const HAND_PRINTED: &str = r#"module "hand.cir"
oracle $c varying [0, 1] at 3:10-3:11
oracle $n uniform [-1, 4] at 1:5-1:6
op #0 stmt "@1" in @k at 1:1-1:2
op #1 observe "A" in @k at 3:5-3:8
op #2 call real @helper "helper" in @k at 4:3-4:11
op #3 token "" in @k at 0:0-0:0
op #4 stmt "" in @helper at 0:0-0:0

define void @k(%x = $n) {
entry: origin #0  ; from line 1
  #3 token %tok = entry
  br label %loop

loop:
  #0 phi %i [0, %entry] [(%i + 1), %loop]  ; line 1
  #1 observe [convergencectrl %tok]  ; A (line 3)
  #2 eval call #2 real @helper @helper(%i)  ; helper (line 4)
  br ($c != 0), label %loop, label %exit

exit:
  ret void
}

define void @helper(%v) {
entry:
  #4 set %"a b" = (-5 * %v)
  ret %"a b"
}
"#;

#[test]
fn hand_written_module_reads_and_prints_back() {
    let m = parse_module("hand.cir", HAND).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(m.functions.len(), 2);
    let k = &m.functions[0];
    assert_eq!(k.params, ["x"]);
    assert_eq!(k.param_oracles, [1]);
    assert_eq!(k.blocks[0].term, Term::Br(1));
    let InstKind::Phi { incoming, .. } = &k.blocks[1].insts[0].kind else {
        panic!("expected a phi: {:?}", k.blocks[1].insts[0]);
    };
    assert_eq!(incoming[0], (0, Expr::Const(0)));
    assert_eq!(m.ops[2].kind, OpKind::Call(CallKind::Real(1)));
    let printed = module_text(&m);
    assert_eq!(printed, HAND_PRINTED);
    assert_eq!(parse_module("hand.cir", &printed), Ok(m));
}

#[test]
fn line_breaks_are_whitespace_and_crlf_reads() {
    let crlf = HAND.replace('\n', "\r\n");
    let m = parse_module("hand.cir", &crlf).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(module_text(&m), HAND_PRINTED);
    // Statements need not end their lines, and a `;` in a string is text.
    let text = "module \"a;b\" define void @f() { x: ret void } oracle $o invariant [] at 0:0-0:0";
    let m = parse_module("t.cir", text).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(m.name, "a;b");
    assert_eq!(m.oracles[0].class, OracleClass::Invariant);
}

#[test]
fn uses_may_come_before_definitions() {
    // An oracle used by an op line before its own line; the phi names a
    // block defined later; the token is used before its definition.
    let text = r#"module "m"
op #0 call oracle $late "late" in @f at 1:1-1:2
oracle $late invariant [7] at 1:1-1:2
define void @f() {
a:
  #0 observe [convergencectrl %t]
  br label %b
b:
  #0 phi %x [1, %a] [2, %b]
  #0 token %t = anchor
  ret $late
}
"#;
    let m = parse_module("t.cir", text).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(m.ops[0].kind, OpKind::Call(CallKind::Oracle(0)));
    assert_eq!(
        m.functions[0].blocks[1].term,
        Term::Ret(Some(Expr::Oracle(0)))
    );
    round_trip(&m);
}

#[test]
fn edge_values_round_trip() {
    let m = Module {
        name: "\"\\\u{1}\u{7f}é ;".into(),
        max_group: None,
        ops: vec![op("", OpKind::Stmt, 0)],
        oracles: vec![OracleInfo {
            name: String::new(),
            class: OracleClass::Uniform,
            domain: vec![i64::MIN, -1, 0, i64::MAX],
            span: span(u32::MAX, 0, 0, u32::MAX),
        }],
        functions: vec![
            Cfg {
                name: "0".into(),
                params: vec![],
                param_oracles: vec![],
                blocks: vec![],
            },
            Cfg {
                name: "br".into(),
                params: vec!["label".into(), "".into()],
                param_oracles: vec![0],
                blocks: vec![Block {
                    name: "ret".into(),
                    insts: vec![],
                    term: Term::Switch {
                        value: Expr::Const(i64::MIN),
                        cases: vec![(i64::MIN, 0), (-1, 0), (i64::MAX, 0)],
                        default: 0,
                    },
                    origin: Some(OpId(0)),
                }],
            },
        ],
    };
    round_trip(&m);
}

/// One module with every instruction kind, terminator, expression,
/// operator, call kind, memory space, barrier kind and token kind, so the
/// round trip covers them all whatever the random tests draw.
#[test]
fn every_construct_round_trips() {
    let mut ops = Vec::new();
    let mut next = |kind: OpKind| {
        ops.push(op("x", kind, 0));
        OpId(ops.len() as u32 - 1)
    };
    let mut exprs = vec![
        Expr::Const(-3),
        Expr::Tid,
        Expr::GroupSize,
        Expr::Var("v".into()),
        Expr::Oracle(1),
    ];
    for op in BinOp::ALL {
        exprs.push(Expr::binary(op, Expr::Var("a".into()), Expr::Const(-1)));
    }
    for op in [
        UnOp::Not,
        UnOp::Neg,
        UnOp::BitNot,
        UnOp::SExt(1),
        UnOp::SExt(32),
        UnOp::ZExt(8),
        UnOp::ZExt(63),
    ] {
        exprs.push(Expr::Unary(op, b(Expr::Const(-2))));
    }
    for op in [AssignOp::Set, AssignOp::Add, AssignOp::Sub, AssignOp::Mul] {
        exprs.push(Expr::Assign {
            var: "a b".into(),
            op,
            value: b(Expr::Const(4)),
        });
    }
    exprs.push(Expr::Select(
        b(Expr::Tid),
        b(Expr::Const(1)),
        b(Expr::Const(2)),
    ));
    let mut kinds = vec![
        CallKind::Real(1),
        CallKind::Op(0),
        CallKind::Plain(1),
        CallKind::Oracle(0),
        CallKind::Fence,
    ];
    for bk in [
        BarrierKind::Plain,
        BarrierKind::Count,
        BarrierKind::And,
        BarrierKind::Or,
    ] {
        kinds.push(CallKind::Barrier(bk, None));
        kinds.push(CallKind::Barrier(bk, Some(1)));
    }
    for kind in kinds {
        let op = next(OpKind::Call(kind));
        exprs.push(Expr::Call {
            op,
            kind,
            callee: "g".into(),
            args: vec![Expr::Tid, Expr::Const(-1)],
        });
    }
    for space in [Space::Shared, Space::Global, Space::Local] {
        let op = next(OpKind::Mem {
            space,
            write: false,
        });
        exprs.push(Expr::Load {
            op,
            space,
            index: b(Expr::Tid),
            value: Some(0),
            access: convcheck_ir::Access::ELEMENT,
        });
        exprs.push(Expr::Load {
            op,
            space,
            index: b(Expr::Tid),
            value: None,
            access: convcheck_ir::Access {
                bytes: 4,
                volatile: true,
                atomic: 0,
            },
        });
        let op = next(OpKind::Mem { space, write: true });
        exprs.push(Expr::Store {
            op,
            space,
            index: b(Expr::Tid),
            value: b(Expr::Load {
                op,
                space,
                index: b(Expr::Const(0)),
                value: None,
                access: convcheck_ir::Access::bytes(8),
            }),
            access: convcheck_ir::Access::bytes(2),
        });
    }
    let s = next(OpKind::Stmt);
    let t = next(OpKind::Token);
    let o = next(OpKind::Observe);
    let mut insts: Vec<Inst> = exprs
        .iter()
        .map(|e| Inst {
            kind: InstKind::Eval(e.clone()),
            sid: s,
            token: None,
        })
        .collect();
    insts.push(Inst {
        kind: InstKind::SetLocal {
            name: "x".into(),
            value: None,
        },
        sid: s,
        token: Some("t".into()),
    });
    insts.push(Inst {
        kind: InstKind::SetLocal {
            name: "x".into(),
            value: Some(Expr::Const(1)),
        },
        sid: s,
        token: None,
    });
    for kind in [TokenKind::Entry, TokenKind::Loop, TokenKind::Anchor] {
        insts.push(Inst {
            kind: InstKind::Token {
                kind,
                name: "t".into(),
            },
            sid: t,
            token: Some("p".into()),
        });
    }
    let phi = |incoming| Inst {
        kind: InstKind::Phi {
            name: "p".into(),
            incoming,
        },
        sid: s,
        token: Some("t".into()),
    };
    let block = |name: &str, insts, term| Block {
        name: name.into(),
        insts,
        term,
        origin: None,
    };
    let blocks = vec![
        block("entry", insts, Term::Br(1)),
        block(
            "if.then",
            vec![phi(vec![(0, Expr::Tid), (4, Expr::Const(-9))]), phi(vec![])],
            Term::CondBr {
                cond: Expr::Tid,
                then: 2,
                els: 3,
            },
        ),
        block(
            "a b",
            vec![Inst {
                kind: InstKind::Observe,
                sid: o,
                token: Some("t".into()),
            }],
            Term::Switch {
                value: Expr::Tid,
                cases: vec![(-1, 3), (2, 4)],
                default: 4,
            },
        ),
        block("3", vec![], Term::Ret(None)),
        block("", vec![], Term::Ret(Some(Expr::Const(-1)))),
    ];
    let m = Module {
        name: "all".into(),
        max_group: None,
        ops,
        oracles: vec![
            OracleInfo {
                name: "shared@14".into(),
                class: OracleClass::Varying,
                domain: vec![0, 1],
                span: span(1, 2, 3, 4),
            },
            OracleInfo {
                name: "n".into(),
                class: OracleClass::Invariant,
                domain: vec![],
                span: Span::default(),
            },
        ],
        functions: vec![
            Cfg {
                name: "k".into(),
                params: vec!["a".into(), "b".into()],
                param_oracles: vec![1],
                blocks,
            },
            Cfg {
                name: "g".into(),
                params: vec![],
                param_oracles: vec![],
                blocks: vec![block("entry", vec![], Term::Ret(None))],
            },
        ],
    };
    round_trip(&m);
}

#[test]
fn nesting_up_to_the_limit_reads_and_deeper_is_an_error() {
    // A chain of n `neg(` around a constant is n + 1 nested expressions.
    let nested = |n: usize| {
        let mut e = Expr::Const(1);
        for _ in 0..n {
            e = Expr::Unary(UnOp::Neg, b(e));
        }
        Module {
            name: "deep".into(),
            max_group: None,
            ops: vec![op("", OpKind::Stmt, 0)],
            oracles: vec![],
            functions: vec![Cfg {
                name: "f".into(),
                params: vec![],
                param_oracles: vec![],
                blocks: vec![Block {
                    name: "entry".into(),
                    insts: vec![],
                    term: Term::Ret(Some(e)),
                    origin: None,
                }],
            }],
        }
    };
    round_trip(&nested(MAX_DEPTH - 1));
    let text = module_text(&nested(MAX_DEPTH));
    // `  ret ` is 6 columns; the 257th expression starts after 256 `neg(`.
    let col = 7 + 4 * MAX_DEPTH;
    check_errors(
        &text,
        &[&format!(
            "t.cir:6:{col}: expected expressions nested at most 256 deep"
        )],
    );
}

#[test]
fn very_deep_input_is_an_error_not_a_stack_overflow() {
    for open in ["(", "not(", "load #0 shared[", "call #0 fence @f("] {
        let text = format!(
            "module \"m\"\nop #0 stmt \"\" in @f at 1:1-1:2\ndefine void @f() {{\nentry:\n  ret {}\n}}\n",
            open.repeat(200_000)
        );
        let errs = errors(&text);
        assert!(
            errs[0].ends_with("expected expressions nested at most 256 deep"),
            "{errs:?}"
        );
    }
}

#[test]
fn large_input_reads() {
    // 5000 functions of 3 blocks: about 60,000 lines. Reading takes a
    // fraction of a second; the reader is linear, so this is a smoke test
    // for anything accidentally quadratic (measured: 10x the input, ~10x
    // the time).
    let mut text = String::from("module \"big\"\nop #0 stmt \"\" in @f0 at 1:1-1:2\n");
    for f in 0..5000 {
        text.push_str(&format!(
            "define void @f{f}(%a = $o) {{\nentry:\n  #0 set %x = (%a + {f})\n  br (%x < 3), label %b, label %c\nb:\n  br label %c\nc:\n  ret call #0 real @f{} @g(%x)\n}}\n",
            (f + 1) % 5000
        ));
    }
    text.push_str("oracle $o varying [0] at 1:1-1:2\n");
    let m = parse_module("big.cir", &text).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(m.functions.len(), 5000);
    round_trip(&m);
}

// ---------------------------------------------------------------------------
// Errors, one class at a time

#[test]
fn error_expected_token() {
    check_errors(
        "module \"m\"\ndefine void @f() {\nentry:\n  br label (\n}\n",
        &["t.cir:4:12: expected a block name after 'label', found '('"],
    );
    check_errors(
        "module \"m\"\noracle $o sometimes [0] at 1:1-1:2\n",
        &["t.cir:2:11: expected an oracle class (varying, uniform, invariant or uniform_invariant), found 'sometimes'"],
    );
    check_errors(
        "module \"m\"\nop #0 stmt \"\" in @f at 1:1-1:2\ndefine void @f() {\nentry:\n  #0 eval (1 + 2\n  ret void\n}\n",
        &["t.cir:6:3: expected ')' to close the expression, found 'ret'"],
    );
}

#[test]
fn error_missing_module_line_and_eof() {
    check_errors(
        "oracle $o varying [0] at 1:1-1:2\n",
        &["t.cir:1:1: expected 'module' and the module's name at the start of the file, found 'oracle'"],
    );
    check_errors(
        "module \"m\"\ndefine void @f() {\nentry:\n  ret void\n",
        &["t.cir:5:1: expected '}' to close @f, found the end of the file"],
    );
    check_errors(
        "",
        &["t.cir:1:1: expected 'module' and the module's name at the start of the file, found the end of the file"],
    );
    // One error per position: a malformed first token, or a block cut
    // off by the end of the file, is reported once.
    check_errors(
        "\"m\nmodule \"m\"\n",
        &[
            "t.cir:1:1: expected '\"' to close the string before the end of the line",
            "t.cir:2:1: expected 'oracle', 'op' or 'define' at the start of a line, found 'module'",
        ],
    );
    check_errors(
        "module \"m\"\ndefine void @f() {\nentry:\n",
        &["t.cir:4:1: expected a terminator (br, switch or ret) to end block %entry, found the end of the file"],
    );
}

#[test]
fn error_ops_out_of_order() {
    check_errors(
        "module \"m\"\nop #0 stmt \"a\" in @f at 1:1-1:2\nop #2 stmt \"b\" in @f at 1:1-1:2\ndefine void @f() {\nentry:\n  ret void\n}\n",
        &["t.cir:3:4: expected op #1, found op #2"],
    );
}

#[test]
fn error_unknown_references_point_at_the_use() {
    let text = r#"module "m"
op #0 call real @g "g" in @f at 1:1-1:2
define void @f() {
entry:
  #0 eval call #0 oracle $nope @nope()
  #5 observe
  br label %missing
}
"#;
    check_errors(
        text,
        &[
            "t.cir:2:17: expected a function defined in the module, found @g",
            "t.cir:5:26: expected an oracle defined by an 'oracle' line, found $nope",
            "t.cir:6:3: expected an op of the table (which has 1), found #5",
            "t.cir:7:12: expected a block of @f, found %missing",
        ],
    );
}

#[test]
fn error_duplicate_names() {
    let text = r#"module "m"
oracle $o varying [0] at 1:1-1:2
oracle $o varying [0] at 1:1-1:2
define void @f() {
"a b":
  br label %"a b"
"a b":
  ret void
}
define void @f() {
x:
  ret void
}
"#;
    check_errors(
        text,
        &[
            "t.cir:3:8: expected a new oracle name, found $o (already defined at 2:8)",
            "t.cir:7:1: expected a new block name in @f, found %\"a b\" (already defined at 5:1)",
            "t.cir:10:13: expected a new function name, found @f (already defined at 4:13)",
        ],
    );
}

#[test]
fn error_lexical() {
    check_errors(
        "module \"m\n",
        &["t.cir:1:8: expected '\"' to close the string before the end of the line"],
    );
    check_errors(
        "module \"a\\qb\"\n",
        &["t.cir:1:10: expected an escape: '\\\"', '\\\\' or two hex digits below 80"],
    );
    check_errors(
        "module \"a\\c3\"\n",
        &["t.cir:1:10: expected an escape: '\\\"', '\\\\' or two hex digits below 80"],
    );
    check_errors(
        "module \"m\"\noracle ~ varying [0] at 1:1-1:2\n",
        &["t.cir:2:8: expected an oracle name ($name) after 'oracle', found '~'"],
    );
    check_errors(
        "module \"m\"\noracle $ varying [0] at 1:1-1:2\n",
        &["t.cir:2:8: expected a name after '$'"],
    );
}

#[test]
fn error_columns_count_characters() {
    // `é` is two bytes but one column.
    check_errors(
        "module \"é\" x\n",
        &["t.cir:1:12: expected 'oracle', 'op' or 'define' at the start of a line, found 'x'"],
    );
}

#[test]
fn error_numbers_out_of_range() {
    check_errors(
        "module \"m\"\nop #4294967296 stmt \"\" in @f at 1:1-1:2\n",
        &["t.cir:2:4: expected an op id (#0, #1, ...) after 'op', found '#4294967296'"],
    );
    check_errors(
        "module \"m\"\noracle $o varying [9223372036854775808, -9223372036854775809] at 4294967296:1-1:1\n",
        &[
            "t.cir:2:20: expected an integer from -9223372036854775808 to 9223372036854775807, found '9223372036854775808'",
        ],
    );
    check_errors(
        "module \"m\"\noracle $o varying [-9223372036854775808, -9223372036854775809] at 1:1-1:1\n",
        &[
            "t.cir:2:42: expected an integer from -9223372036854775808 to 9223372036854775807, found '-9223372036854775809'",
        ],
    );
    check_errors(
        "module \"m\"\noracle $o varying [] at 4294967296:1-1:1\n",
        &["t.cir:2:25: expected a line number from 0 to 4294967295, found '4294967296'"],
    );
}

#[test]
fn error_structure_of_functions() {
    // A parameter with an oracle after one without, an instruction
    // outside any block, a block without a terminator, an assignment to a
    // non-local. The block opened for the stray instruction on line 5 is
    // not reported again for lacking its terminator.
    let text = r#"module "m"
oracle $o varying [0] at 1:1-1:2
op #0 stmt "" in @f at 1:1-1:2
define void @f(%a, %b = $o) {
  #0 observe
a:
  #0 observe
b:
  #0 eval (1 = 2)
  ret void
  #0 observe
}
"#;
    check_errors(
        text,
        &[
            "t.cir:4:20: expected the parameters with oracles before those without one",
            "t.cir:5:3: expected a block label (name:), found '#0'",
            "t.cir:8:1: expected a terminator (br, switch or ret) to end block %a, found 'b'",
            "t.cir:9:12: expected a local (%name) before '='",
            "t.cir:11:3: expected a block label (name:), found '#0'",
        ],
    );
}

#[test]
fn errors_are_collected_across_lines() {
    let text = r#"module "m"
oracle $o varying [0 at 1:1-1:2
op #0 stmt "" in @f at 1:1-1:2
op #1 load "" in @f at 1:1-1:2
define void @f() {
entry:
  #0 eval (1 +)
  #0 set 5
  br label %entry,
}
"#;
    check_errors(
        text,
        &[
            "t.cir:2:22: expected ',' or ']' after a value of the domain, found 'at'",
            "t.cir:4:7: expected an op kind (stmt, observe, token, mem or call), found 'load'",
            "t.cir:7:15: expected an operand after '+', found ')'",
            "t.cir:8:10: expected a local name (%name) after 'set', found '5'",
            "t.cir:9:18: expected a block label, an instruction, a terminator or '}', found ','",
        ],
    );
}

#[test]
fn errors_stop_after_the_limit() {
    let text = format!("module \"m\"\n{}", "junk\n".repeat(3 * MAX_ERRORS));
    let errs = errors(&text);
    assert_eq!(errs.len(), MAX_ERRORS + 1);
    assert_eq!(
        errs[0],
        "t.cir:2:1: expected 'oracle', 'op' or 'define' at the start of a line, found 'junk'"
    );
    assert_eq!(
        errs[MAX_ERRORS],
        format!(
            "t.cir:{}:1: stopped after 50 errors; more were dropped",
            MAX_ERRORS + 2
        )
    );
}

/// A label with a line break is written quoted in the comment, so the
/// module reads back (it used to end the comment early).
#[test]
fn label_with_a_line_break_reads_back() {
    let m = Module {
        name: "m".into(),
        max_group: None,
        ops: vec![op("a\nb", OpKind::Observe, 0)],
        oracles: vec![],
        functions: vec![Cfg {
            name: "f".into(),
            params: vec![],
            param_oracles: vec![],
            blocks: vec![Block {
                name: "entry".into(),
                insts: vec![Inst {
                    kind: InstKind::Observe,
                    sid: OpId(0),
                    token: None,
                }],
                term: Term::Ret(None),
                origin: None,
            }],
        }],
    };
    let text = module_text(&m);
    assert!(text.contains("; \"a\\0ab\" (line 1)"), "{text}");
    assert_eq!(parse_module("t.cir", &text), Ok(m));
}

/// `unreachable` reads back, and a run that reaches it stops there with
/// undefined behaviour (DESIGN.md 2.7: it constrains nothing in the
/// reference and is a violation in a target whose reference is defined).
#[test]
fn unreachable_reads_back_and_stops_a_run() {
    use convcheck_ir::exec::{cfg::CfgProgram, run_thread, Bounds};
    use convcheck_ir::scenario::{ThreadValues, ValuesSource};
    let text = "module \"u\"\noracle $c varying [0, 1] at 1:1-1:2\nop #0 stmt \"k\" in @k at 1:1-1:2\n\ndefine void @k() {\nentry: origin #0\n  br $c, label %dead, label %live\n\ndead: origin #0\n  unreachable\n\nlive: origin #0\n  ret void\n}\n";
    let m = parse_module("u.cir", text).expect("reads");
    let printed = module_text(&m);
    assert!(
        printed.contains("dead: origin #0  ; from line 1\n  unreachable\n"),
        "{printed}"
    );
    assert_eq!(parse_module("u.cir", &printed).as_ref(), Ok(&m));
    let program = CfgProgram::new(m);
    for (c, reaches) in [(1, true), (0, false)] {
        let values = ThreadValues::parse(&format!("c={c}")).expect("values");
        let mut src = ValuesSource(&values);
        let (trace, res) = run_thread(&program, 0, 0, 2, Bounds::default(), &mut src);
        // Reaching `unreachable` is undefined behaviour: the run stops
        // there, complete, with the reason in `Trace::ub`.
        assert_eq!(res, Ok(()));
        match &trace.ub {
            Some(why) => assert!(reaches && why.contains("unreachable"), "{why}"),
            None => assert!(!reaches),
        }
    }
}

/// The most threads of a group (`Module::max_group`, set by the LLVM
/// mapping for NVPTX and AMDGPU) is written on the module line and read
/// back; a module without it has none.
#[test]
fn max_group_reads_back() {
    let with = parse_module("t.cir", "module \"m\" max_group 1024\n").expect("reads");
    assert_eq!(with.max_group, Some(1024));
    assert!(module_text(&with).starts_with("module \"m\" max_group 1024\n"));
    round_trip(&with);
    let without = parse_module("t.cir", "module \"m\"\n").expect("reads");
    assert_eq!(without.max_group, None);
    assert!(parse_module("t.cir", "module \"m\" max_group x\n").is_err());
}
