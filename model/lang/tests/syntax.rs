//! Integration tests of the kernel language's parser and pretty-printer:
//! seed 000's examples parse as written, printing then parsing gives the same
//! tree (on the seeds and on random trees), and bad input gives a located
//! error, never a panic.

use convcheck_ir::{Diagnostics, Span};
use convcheck_lang::syntax::ast::{
    AssignOp, BinOp, CaseLabel, Convergence, Declaration, Expr, ExprKind, File, Function, Item,
    Param, Place, Space, Stmt, StmtId, StmtKind, UnOp,
};
use convcheck_lang::syntax::{parse, print};
use proptest::prelude::*;
use std::path::PathBuf;

// ---------------------------------------------------------------- helpers

fn seed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/seed")
}

/// Every `examples/seed/*.c`, sorted by file name.
fn seeds() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(seed_dir()).expect("examples/seed exists") {
        let path = entry.expect("readable directory entry").path();
        if path.extension().and_then(|e| e.to_str()) == Some("c") {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let src = std::fs::read_to_string(&path).expect("readable seed example");
            out.push((name, src));
        }
    }
    out.sort();
    out
}

fn seed(name: &str) -> File {
    let path = seed_dir().join(name);
    let src = std::fs::read_to_string(&path).expect("readable seed example");
    parse_ok(name, &src)
}

fn parse_ok(name: &str, src: &str) -> File {
    match parse(name, src) {
        Ok(f) => f,
        Err(d) => panic!("{name} does not parse:\n{d}\n--- source ---\n{src}"),
    }
}

fn parse_err(src: &str) -> Diagnostics {
    match parse("bad.c", src) {
        Ok(f) => panic!("expected an error, got {f:#?}\n--- source ---\n{src}"),
        Err(d) => d,
    }
}

fn stripped(mut f: File) -> File {
    f.strip_spans();
    f
}

fn all_stmts(f: &File) -> Vec<&Stmt> {
    let mut v = Vec::new();
    for func in f.functions() {
        func.body.walk(&mut |s| v.push(s));
    }
    v
}

fn named<'a>(f: &'a File, name: &str) -> &'a Stmt {
    let found: Vec<&Stmt> = all_stmts(f)
        .into_iter()
        .filter(|s| s.name.as_deref() == Some(name))
        .collect();
    assert_eq!(found.len(), 1, "exactly one statement named {name}");
    found[0]
}

fn function<'a>(f: &'a File, name: &str) -> &'a Function {
    f.functions()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

use convcheck_lang::syntax::renumber;

/// Checks that `parse(print(f))` is `f` up to spans, and that printing is
/// stable.
fn assert_round_trip(f: &File) {
    let text = print(f);
    let again = match parse("printed.c", &text) {
        Ok(g) => g,
        Err(d) => panic!("printed text does not parse:\n{d}\n--- printed ---\n{text}"),
    };
    assert_eq!(
        stripped(again.clone()),
        stripped(f.clone()),
        "round trip changed the tree\n--- printed ---\n{text}"
    );
    assert_eq!(print(&again), text, "printing is not stable");
}

// ------------------------------------------------------- seed examples

#[test]
fn every_seed_example_parses() {
    let all = seeds();
    assert_eq!(all.len(), 12, "one file per C++ code block of seed 000");
    for (name, src) in &all {
        let f = parse_ok(name, src);
        assert!(f.functions().count() >= 1, "{name} has a function");
        // Ids are the pre-order numbering, from 0, in one counter per file.
        let mut r = f.clone();
        renumber(&mut r);
        assert_eq!(r, f, "{name}: ids are not the pre-order numbering");
    }
}

#[test]
fn jump_into_loop_names() {
    let f = seed("jump-into-loop.c");
    assert!(matches!(named(&f, "L3").kind, StmtKind::If { .. }));
    assert_eq!(named(&f, "G1").kind, StmtKind::Goto("inside_loop".into()));
    assert_eq!(named(&f, "G2").kind, StmtKind::Goto("outside_loop".into()));
    assert_eq!(named(&f, "L2").kind, StmtKind::Observe);
    assert_eq!(named(&f, "L4").kind, StmtKind::Observe);
    let label = all_stmts(&f)
        .into_iter()
        .find(|s| matches!(&s.kind, StmtKind::Label { label, .. } if label == "inside_loop"))
        .expect("label inside_loop");
    assert_eq!(label.name, None);
    let StmtKind::Label { body, .. } = &label.kind else {
        unreachable!()
    };
    assert_eq!(body.name.as_deref(), Some("L2"));
    // Names and their positions.
    let a = named(&f, "A");
    assert_eq!((a.span.start.line, a.span.start.col), (2, 3));
    assert_eq!((a.span.end.line, a.span.end.col), (2, 6));
    let l3 = named(&f, "L3");
    assert_eq!((l3.span.start.line, l3.span.start.col), (10, 5));
    assert_eq!((l3.span.end.line, l3.span.end.col), (13, 6));
    let mut names: Vec<&str> = all_stmts(&f)
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["A", "B", "C", "D", "G1", "G2", "L1", "L2", "L3", "L4", "L5"]
    );
}

#[test]
fn goto_label_wraps_unnamed_observe() {
    let f = seed("goto.c");
    let label = all_stmts(&f)
        .into_iter()
        .find(|s| matches!(&s.kind, StmtKind::Label { label, .. } if label == "label_X"))
        .expect("label_X");
    assert_eq!(label.name, None);
    let StmtKind::Label { body, .. } = &label.kind else {
        unreachable!()
    };
    assert_eq!(body.kind, StmtKind::Observe);
    assert_eq!(body.name, None);
    assert_eq!(named(&f, "L3").kind, StmtKind::Observe);
    assert!(matches!(&named(&f, "L2").kind, StmtKind::Observe));
}

#[test]
fn duffs_device_case_inside_while() {
    let f = seed("duffs-device.c");
    let w = all_stmts(&f)
        .into_iter()
        .find(|s| matches!(s.kind, StmtKind::While { .. }))
        .expect("a while");
    let mut cases = Vec::new();
    w.walk(&mut |s| {
        if let StmtKind::Case { label, body } = &s.kind {
            cases.push((*label, body.name.clone()));
        }
    });
    assert_eq!(cases, vec![(CaseLabel::Case(2), Some("LC2".to_string()))]);
    assert_eq!(named(&f, "L").kind, StmtKind::Observe);
    // `// note the fall-through` names nothing.
    let mut names: Vec<&str> = all_stmts(&f)
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    names.sort();
    assert_eq!(names, ["A", "C1", "C2", "C3", "D", "L", "LC2"]);
}

#[test]
fn thread_masks_declaration() {
    let f = seed("thread-masks.c");
    let d: Vec<&Declaration> = f.declarations().collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].name, "crosslane_operation");
    assert_eq!(d[0].ret, "void");
    assert_eq!(d[0].convergence, Convergence::Convergent);
    assert_eq!(
        d[0].params,
        vec![Param {
            ty: "unsigned long".into(),
            name: "mask".into()
        }]
    );
    for n in ["B", "C"] {
        let StmtKind::Expr(e) = &named(&f, n).kind else {
            panic!("{n} is an expression statement")
        };
        assert!(
            matches!(&e.kind, ExprKind::Call { callee, args, .. } if callee == "bar" && args.len() == 1)
        );
    }
    let local = all_stmts(&f)
        .into_iter()
        .find(|s| matches!(s.kind, StmtKind::Local { .. }))
        .expect("auto mask");
    let StmtKind::Local { ty, name, init } = &local.kind else {
        unreachable!()
    };
    assert_eq!((ty.as_str(), name.as_str()), ("auto", "mask"));
    assert_eq!(init.as_ref().map(|e| &e.kind), Some(&ExprKind::Dots));
}

#[test]
fn switch_drops_fall_through_attribute() {
    let f = seed("switch.c");
    let sw = all_stmts(&f)
        .into_iter()
        .find(|s| matches!(s.kind, StmtKind::Switch { .. }))
        .expect("a switch");
    let StmtKind::Switch { body, .. } = &sw.kind else {
        unreachable!()
    };
    let StmtKind::Compound(list) = &body.kind else {
        panic!("switch body is a compound")
    };
    let labels: Vec<CaseLabel> = list
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Case { label, .. } => Some(*label),
            _ => None,
        })
        .collect();
    assert_eq!(
        labels,
        vec![CaseLabel::Case(1), CaseLabel::Case(2), CaseLabel::Case(3)]
    );
    assert_eq!(list.len(), 4, "case 1, break, case 2, case 3");
}

#[test]
fn other_seed_facts() {
    let f = seed("backwards-goto.c");
    assert!(matches!(named(&f, "L6").kind, StmtKind::If { .. }));
    assert_eq!(named(&f, "G3").kind, StmtKind::Goto("loop".into()));
    assert_eq!(named(&f, "L1").kind, StmtKind::Observe);

    let f = seed("divergent-exit-source.c");
    let for_ = all_stmts(&f)
        .into_iter()
        .find(|s| matches!(s.kind, StmtKind::For { .. }))
        .expect("a for");
    let StmtKind::For {
        init, cond, step, ..
    } = &for_.kind
    else {
        unreachable!()
    };
    assert!(init.is_none() && step.is_none());
    assert_eq!(cond.as_ref().map(|c| &c.kind), Some(&ExprKind::Dots));

    let f = seed("ambiguity-source.c");
    let lc = function(&f, "loop_continue");
    let mut fors = Vec::new();
    lc.body.walk(&mut |s| {
        if let StmtKind::For {
            init, cond, step, ..
        } = &s.kind
        {
            fors.push((init.is_none(), cond.is_none(), step.is_none()));
        }
    });
    assert_eq!(fors, vec![(true, true, true)]);
    let ln = function(&f, "loop_nest");
    let mut dos = 0;
    ln.body
        .walk(&mut |s| dos += usize::from(matches!(s.kind, StmtKind::DoWhile { .. })));
    assert_eq!(dos, 2);
    // The same names in two functions are fine.
    assert_eq!(
        all_stmts(&f)
            .iter()
            .filter(|s| s.name.as_deref() == Some("A"))
            .count(),
        2
    );

    let f = seed("sequential-branch.c");
    let iff = all_stmts(&f)
        .into_iter()
        .find(|s| matches!(s.kind, StmtKind::If { .. }))
        .expect("an if");
    assert_eq!(iff.name, None);
    assert_eq!(named(&f, "C").kind, StmtKind::Observe);

    let f = seed("crosslane-operation.c");
    assert_eq!(all_stmts(&f).iter().filter(|s| s.name.is_some()).count(), 0);
}

#[test]
fn seed_examples_round_trip() {
    for (name, src) in seeds() {
        let f = parse_ok(&name, &src);
        assert_round_trip(&f);
    }
}

// ------------------------------------------------------- names and forms

#[test]
fn name_attachment_rules() {
    let f = parse_ok(
        "n.c",
        "void f() { // BODY\n  x: ... // N1\n  case 1: // N2\n    ...\n  [[clang::noconvergent]] ... // N3\n  } // N4\n",
    );
    let body = &function(&f, "f").body;
    assert_eq!(body.name.as_deref(), Some("BODY"));
    assert_eq!(named(&f, "N1").kind, StmtKind::Observe);
    assert!(matches!(named(&f, "N2").kind, StmtKind::Case { .. }));
    assert_eq!(named(&f, "N3").kind, StmtKind::Observe);
    assert!(all_stmts(&f)
        .iter()
        .all(|s| s.name.as_deref() != Some("N4")));

    let f = parse_ok(
        "n.c",
        "void f() {\n  ...; ...; // TWO\n  /* X */ ... /* Y */ // Z\n}\n",
    );
    let StmtKind::Compound(list) = &function(&f, "f").body.kind else {
        panic!()
    };
    let names: Vec<Option<&str>> = list.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(names, vec![Some("TWO"), None, Some("Z")]);
}

#[test]
fn expression_forms() {
    let f = parse_ok(
        "e.c",
        "void f() {\n  x = threadIdx.x + blockDim.x * get_local_id(0) - get_local_size(0);\n  shared[tid] += global[N - 1]++;\n  y = uniform(c1) && invariant(tid < 2) || !... ? 0x10u : -5;\n  for (int i = 0; i < 3; i++) --local[i];\n  if (true) z = false;\n}\n",
    );
    let text = print(&f);
    assert!(text.contains("x = tid + N * tid - N;"), "{text}");
    assert!(
        text.contains("shared[tid] += global[N - 1] += 1;"),
        "{text}"
    );
    assert!(
        text.contains("y = uniform(c1) && invariant(tid < 2) || !... ? 16 : -5;"),
        "{text}"
    );
    assert!(text.contains("for (int i = 0; i < 3; i += 1)"), "{text}");
    assert!(text.contains("local[i] -= 1;"), "{text}");
    assert_round_trip(&f);
    let incr = all_stmts(&f)
        .into_iter()
        .find_map(|s| match &s.kind {
            StmtKind::For { step: Some(e), .. } => Some(e.kind.clone()),
            _ => None,
        })
        .expect("a for step");
    assert!(matches!(
        incr,
        ExprKind::Assign {
            place: Place::Var(_),
            op: AssignOp::Add,
            ..
        }
    ));
}

#[test]
fn attributes_on_items() {
    let f = parse_ok(
        "a.c",
        "__attribute__((noconvergent)) int g(int a, const float *p);\n[[clang::convergent]] void h(void);\nunsigned long k();\n__global__ void kern(int *out) { return; }\n",
    );
    let d: Vec<&Declaration> = f.declarations().collect();
    assert_eq!(d[0].convergence, Convergence::NoConvergent);
    assert_eq!(d[0].params[1].ty, "const float *");
    assert_eq!(d[1].convergence, Convergence::Convergent);
    assert!(d[1].params.is_empty());
    assert_eq!(d[2].convergence, Convergence::Default);
    assert_eq!(d[2].ret, "unsigned long");
    assert_eq!(function(&f, "kern").ret, "__global__ void");
    assert_round_trip(&f);
}

#[test]
fn deep_but_allowed_nesting() {
    let mut src = String::from("void f() {\n");
    for _ in 0..100 {
        src.push_str("if (c) ");
    }
    src.push_str("x = ");
    src.push_str(&"(".repeat(100));
    src.push('1');
    src.push_str(&")".repeat(100));
    src.push_str(";\n}\n");
    let f = parse_ok("deep.c", &src);
    assert_round_trip(&f);
}

#[test]
fn long_flat_programs_are_fine() {
    let mut src = String::from("void f() {\n");
    for i in 0..5000 {
        src.push_str(&format!("... // A{i}\n"));
    }
    src.push_str("}\n");
    let f = parse_ok("flat.c", &src);
    assert_eq!(all_stmts(&f).len(), 5001);
}

// ------------------------------------------------------------ bad input

fn assert_error(src: &str, line: u32, col: u32, fragment: &str) {
    let d = parse_err(src);
    let first = &d.0[0];
    assert!(
        first.message.contains(fragment) && (first.pos.line, first.pos.col) == (line, col),
        "expected {line}:{col}: ...{fragment}..., got {first}\n--- source ---\n{src}"
    );
    assert_eq!(first.file, "bad.c");
}

#[test]
fn bad_inputs_are_located() {
    assert_error(
        "void f() {\n  x = 1\n}\n",
        3,
        1,
        "expected `;` after expression, found `}`",
    );
    assert_error(
        "void f() {\n  if (c) {\n    ...\n}\n",
        5,
        1,
        "expected `}` to close the `{` at 1:10, found end of file",
    );
    assert_error(
        "void f() {\n}\n}\n",
        3,
        1,
        "expected a function definition or declaration, found `}`",
    );
    assert_error(
        "void f() {\n  goto ;\n}\n",
        2,
        8,
        "expected a label name after `goto`, found `;`",
    );
    assert_error(
        "void f() {\n  a + b = 3;\n}\n",
        2,
        3,
        "expected an assignable place",
    );
    assert_error(
        "void f() {\n  f() = 3;\n}\n",
        2,
        3,
        "expected an assignable place",
    );
    assert_error(
        "void f() {\n  tid++;\n}\n",
        2,
        3,
        "expected an assignable place",
    );
    assert_error(
        "void f() {\n  /* oops\n  ...\n}\n",
        2,
        3,
        "unterminated comment",
    );
    assert_error(
        "void f() {\n  x = 99999999999999999999;\n}\n",
        2,
        7,
        "too large",
    );
    assert_error(
        "void g() __attribute__((\"convergent));\n",
        1,
        25,
        "unterminated string",
    );
    assert_error(
        "void f() {\n  ... // A\n  if (c) ... // A\n}\n",
        3,
        14,
        "duplicate statement name `A`; first at 2:7",
    );
    assert_error(
        "void f() {\n  1 >>= 2;\n}\n",
        2,
        3,
        "expected an assignable place",
    );
    assert_error(
        "void f() {\n  else x;\n}\n",
        2,
        3,
        "`else` without a matching `if`",
    );
    assert_error(
        "void f() {\n  case x: ;\n}\n",
        2,
        8,
        "expected an integer after `case`",
    );
    assert_error(
        "void f() {\n  x = threadIdx.y;\n}\n",
        2,
        17,
        "expected `x` after `threadIdx.`",
    );
    assert_error(
        "void f() {\n  int = 3;\n}\n",
        2,
        7,
        "expected a name in the declaration",
    );
    assert_error(
        "f() {}\n",
        1,
        1,
        "expected a return type before the function name `f`",
    );
    assert_error(
        "void f(int) {}\n",
        1,
        8,
        "expected a parameter as `TYPE name`",
    );
    assert_error(
        "int x = 3;\n",
        1,
        7,
        "expected `(` after the function name, found `=`",
    );
    assert_error(
        "void f() {\n  x = 1 $ 2;\n}\n",
        2,
        9,
        "unexpected character `$`",
    );
    assert_error(
        "void f() {\n  do ... while (c)\n}\n",
        3,
        1,
        "expected `;` after `do ... while (...)`",
    );
}

#[test]
fn errors_are_collected_per_item_and_displayed() {
    let d = parse_err("void f() {\n  x = 1\n}\nvoid g() {\n  ...\n}\nvoid h() {\n  goto;\n}\n");
    assert_eq!(d.0.len(), 2, "{d}");
    assert_eq!(
        d.to_string(),
        "bad.c:3:1: expected `;` after expression, found `}`\nbad.c:8:7: expected a label name after `goto`, found `;`"
    );
}

#[test]
fn compound_assignments_without_an_ir_operator_are_sugar() {
    // The IR assigns with `=`, `+=`, `-=` and `*=` only: `x op= v` on a
    // variable is `x = x op v`, and on memory a store of `v`, as `+=` is.
    for (op, bin) in [
        ("/=", "/"),
        ("%=", "%"),
        ("&=", "&"),
        ("|=", "|"),
        ("^=", "^"),
        ("<<=", "<<"),
        (">>=", ">>"),
    ] {
        let sugar = parse_ok(
            op,
            &format!("void f(int x) {{ x {op} a + 1; shared[tid] {op} x; }}"),
        );
        let plain = parse_ok(
            bin,
            &format!("void f(int x) {{ x = x {bin} (a + 1); shared[tid] = x; }}"),
        );
        assert_eq!(stripped(sugar.clone()), stripped(plain), "{op}");
        assert_round_trip(&sugar);
    }
    // The four the IR has stay what they are.
    let f = parse_ok("ops.c", "void f(int x) { x *= 2; }");
    let StmtKind::Compound(list) = &function(&f, "f").body.kind else {
        unreachable!()
    };
    assert!(matches!(
        &list[0].kind,
        StmtKind::Expr(Expr {
            kind: ExprKind::Assign {
                op: AssignOp::Mul,
                ..
            },
            ..
        })
    ));
    // An assignment to something that is not a variable is still an error,
    // and so is one to an oracle.
    assert!(parse_err("void f() { (x + 1) >>= 2; }")
        .to_string()
        .contains("expected an assignable place"));
    let d = convcheck_lang::sema::Kernel::parse("o.c", "void f() { c >>= 1; }").unwrap_err();
    assert!(
        d.to_string()
            .contains("assignment to `c`, which is not a local"),
        "{d}"
    );
}

#[test]
fn a_name_on_a_statement_whose_value_is_a_call_names_the_call() {
    let src = "void k(int x) {
  unsigned m = ballot(x); // VOTE
  m = shuffle(m); // SHUF
  bar(m); // B
  int y = f(x) + g(x); // SUM
  int z = ballot(x);
}
";
    let k = convcheck_lang::sema::Kernel::parse("names.c", src).unwrap_or_else(|d| panic!("{d}"));
    let mut calls: Vec<(u32, &str)> = k
        .calls
        .keys()
        .map(|id| (k.nodes[id.0 as usize].span.start.line, k.label(*id)))
        .collect();
    calls.sort();
    assert_eq!(
        calls,
        [
            (2, "VOTE"),
            (3, "SHUF"),
            (4, "B"),
            // Several calls in one statement keep their callees' names.
            (5, "f"),
            (5, "g"),
            (6, "ballot"),
        ]
    );
}

#[test]
fn nesting_too_deep_is_an_error() {
    let cases = [
        format!("void f() {{ x = {}1; }}", "(".repeat(100_000)),
        format!("void f() {}", "{".repeat(100_000)),
        format!("void f() {{ x = {}1; }}", "!".repeat(100_000)),
        format!("void f() {{ x = {}1; }}", "- ".repeat(100_000)),
        format!("void f() {{ x = {}1; }}", "a ? b : ".repeat(100_000)),
        format!("void f() {{ x = {}1; }}", "a = ".repeat(100_000)),
        format!("void f() {{ x = 1{}; }}", " + a".repeat(100_000)),
        format!("void f() {{ {} ...; }}", "if (c) ".repeat(100_000)),
        format!("void f() {{ {} ...; }}", "if (c) {".repeat(100_000)),
        format!(
            "void f() {{ switch (v) {{ {} ...; }} }}",
            "case 1: ".repeat(100_000)
        ),
        format!(
            "void f() {{ {} ...; }}",
            "[[clang::noconvergent]] ".repeat(100_000)
        ),
        format!("void f() {{ x = f({}); }}", "g(".repeat(100_000)),
    ];
    for src in cases {
        let d = parse_err(&src);
        assert!(d.0[0].message.contains("nesting too deep"), "{}", d.0[0]);
    }
}

// ------------------------------------------------- nesting at the limits

use convcheck_lang::syntax::{MAX_EXPR_NESTING, MAX_STMT_NESTING};

/// Ways to nest statements: the text that opens one level (given its
/// index, for unique labels) and the text that closes it. A block that is
/// the body of a statement counts with it, so each of these is one level.
const STMT_SHAPES: &[(&str, &str, &str)] = &[
    ("braced if", "if (c) {", "}"),
    ("if", "if (c) ", ""),
    ("else if", "if (c) {} else ", ""),
    ("braced else", "if (c) {} else {", "}"),
    ("while", "while (c) {", "}"),
    ("for", "for (;c;) {", "}"),
    ("for (...)", "for (...) ", ""),
    ("do", "do {", "} while (c);"),
    ("block", "{", "}"),
    ("label", "L#: ", ""),
    ("noconvergent", "[[clang::noconvergent]] {", "}"),
];

/// A function whose innermost statement `inner` is nested in `levels`
/// statements of one shape.
fn nested_stmts(shape: (&str, &str), levels: u32, inner: &str) -> String {
    let (open, close) = shape;
    let mut src = String::from("void f(int x) {\n");
    for i in 0..levels {
        src.push_str(&open.replace('#', &i.to_string()));
        src.push('\n');
    }
    src.push_str(inner);
    src.push('\n');
    for _ in 0..levels {
        src.push_str(close);
        src.push('\n');
    }
    src.push_str("}\n");
    src
}

/// Ways to nest expressions, as the value of `x = ...` (the assignment is
/// the first level): a prefix repeated once per level and its suffix.
const EXPR_SHAPES: &[(&str, &str, &str)] = &[
    ("parentheses", "(", ")"),
    ("calls", "g(", ")"),
    ("subscripts", "shared[", "]"),
    ("uniform", "uniform(", ")"),
    ("negation", "!", ""),
    ("conditional", "c ? 2 : ", ""),
    ("assignment", "x = ", ""),
    ("addition", "", " + a"),
];

/// `x = E;` where `E` has `levels` levels of one shape below the
/// assignment's own.
fn nested_expr(shape: (&str, &str), levels: u32) -> String {
    let (open, close) = shape;
    let n = levels as usize;
    format!("x = {}1{};", open.repeat(n), close.repeat(n))
}

#[test]
fn the_nesting_limits_are_where_the_message_says() {
    // The exact boundary of each limit, in the units the message names: a
    // statement inside MAX_STMT_NESTING statements parses and one level
    // more is an error that says so; likewise for expressions.
    for &(what, open, close) in STMT_SHAPES {
        let ok = nested_stmts((open, close), MAX_STMT_NESTING, "...;");
        parse_ok(what, &ok);
        let bad = nested_stmts((open, close), MAX_STMT_NESTING + 1, "...;");
        let d = parse_err(&bad);
        assert_eq!(d.0.len(), 1, "{what}: {d}");
        let inner_line = MAX_STMT_NESTING + 3;
        assert_eq!(
            d.0[0].to_string(),
            format!(
                "bad.c:{inner_line}:1: nesting too deep: this statement is inside {} \
                 statements, at most {MAX_STMT_NESTING} are allowed (each `if`, `else`, \
                 loop, `switch`, label, `case` and block `{{ }}` around it counts; a \
                 block that is a statement's body counts with the statement)",
                MAX_STMT_NESTING + 1
            ),
            "{what}"
        );
    }
    // `case` needs its `switch`, which is a level of its own.
    let cases = |n: u32| {
        format!(
            "void f() {{ switch (v) {{\n{}...; }} }}",
            "case 1: ".repeat(n as usize)
        )
    };
    parse_ok("case", &cases(MAX_STMT_NESTING - 1));
    assert!(parse_err(&cases(MAX_STMT_NESTING))
        .to_string()
        .contains(&format!(
            "inside {} statements, at most {MAX_STMT_NESTING}",
            MAX_STMT_NESTING + 1
        )));
    for &(what, open, close) in EXPR_SHAPES {
        let src = |levels| format!("void f(int x) {{ {} }}", nested_expr((open, close), levels));
        parse_ok(what, &src(MAX_EXPR_NESTING - 1));
        let d = parse_err(&src(MAX_EXPR_NESTING));
        assert_eq!(d.0.len(), 1, "{what}: {d}");
        assert!(
            d.0[0].message.starts_with(&format!(
                "nesting too deep: this expression is nested {} levels deep, at most \
                 {MAX_EXPR_NESTING} are allowed (each operator, assignment, parenthesis, \
                 call and subscript is a level)",
                MAX_EXPR_NESTING + 1
            )),
            "{what}: {}",
            d.0[0]
        );
    }
    // A condition starts at level 0: MAX_EXPR_NESTING parentheses fit.
    let n = MAX_EXPR_NESTING as usize;
    let cond = |n: usize| {
        format!(
            "void f() {{ if ({}c{}) ...; }}",
            "(".repeat(n),
            ")".repeat(n)
        )
    };
    parse_ok("condition", &cond(n));
    parse_err(&cond(n + 1));
}

#[test]
fn nesting_at_both_limits_runs_on_a_small_stack() {
    // Test threads have 2 MiB of stack. Every way of nesting statements,
    // at the limit, around every way of nesting expressions, at the limit,
    // goes through the parser, the printer, the analysis, lowering (with
    // tokens) and the source-level compiler without overflowing it.
    let run = || {
        for &(swhat, open, close) in STMT_SHAPES {
            for &(ewhat, eopen, eclose) in EXPR_SHAPES {
                let inner = nested_expr((eopen, eclose), MAX_EXPR_NESTING - 1);
                let src = nested_stmts((open, close), MAX_STMT_NESTING, &inner);
                let what = format!("{swhat} around {ewhat}");
                let f = parse_ok(&what, &src);
                assert_round_trip(&f);
                let k = convcheck_lang::sema::Kernel::new(&what, f)
                    .unwrap_or_else(|d| panic!("{what}: {d}"));
                let _ = convcheck_lang::lower::lower(&k, true);
                let _ = convcheck_lang::lower::lower(&k, false);
                convcheck_lang::exec::SourceProgram::new(&k)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
            }
        }
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .expect("spawn")
        .join()
        .expect("no stack overflow at the nesting limits");
}

// ----------------------------------------------------- random trees

const VARS: &[&str] = &["a", "b", "cond", "x1", "value", "mask", "_t"];
const CALLEES: &[&str] = &[
    "f",
    "bar",
    "barrier",
    "__syncthreads",
    "crosslane_operation",
];
const LABELS: &[&str] = &["lbl", "inside_loop", "L", "out"];
const LOCAL_TYPES: &[&str] = &["int", "auto", "unsigned long", "const int", "bool", "int *"];
const PARAM_TYPES: &[&str] = &["int", "unsigned long", "const float *", "uint32_t"];
const RET_TYPES: &[&str] = &["void", "int", "__global__ void", "void *", "unsigned long"];
const FUNCS: &[&str] = &["foo", "bar", "kernel_main", "loop_nest"];

fn ex(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

fn st(kind: StmtKind, named: bool) -> Stmt {
    Stmt {
        id: StmtId(0),
        name: if named { Some(String::new()) } else { None },
        kind,
        span: Span::default(),
    }
}

fn name_of(pool: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(pool).prop_map(str::to_string)
}

fn arb_space() -> impl Strategy<Value = Space> {
    prop_oneof![Just(Space::Shared), Just(Space::Global), Just(Space::Local)]
}

fn arb_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (0..=i64::MAX).prop_map(ExprKind::Int),
        (0i64..20).prop_map(ExprKind::Int),
        any::<bool>().prop_map(ExprKind::Bool),
        name_of(VARS).prop_map(ExprKind::Name),
        Just(ExprKind::Tid),
        Just(ExprKind::GroupSize),
        Just(ExprKind::Dots),
    ]
    .prop_map(ex);
    leaf.prop_recursive(4, 24, 3, |inner| {
        let unop = prop_oneof![Just(UnOp::Not), Just(UnOp::Neg), Just(UnOp::BitNot)];
        let binop = prop::sample::select(BinOp::C.to_vec());
        let assign_op = prop_oneof![
            Just(AssignOp::Set),
            Just(AssignOp::Add),
            Just(AssignOp::Sub),
            Just(AssignOp::Mul)
        ];
        let place = prop_oneof![
            name_of(VARS).prop_map(Place::Var),
            (arb_space(), inner.clone()).prop_map(|(space, index)| Place::Mem {
                space,
                index: Box::new(index),
                id: StmtId(0)
            }),
        ];
        prop_oneof![
            inner.clone().prop_map(|a| ExprKind::Uniform(Box::new(a))),
            inner.clone().prop_map(|a| ExprKind::Invariant(Box::new(a))),
            (unop, inner.clone()).prop_map(|(op, a)| ExprKind::Unary(op, Box::new(a))),
            (binop, inner.clone(), inner.clone()).prop_map(|(op, a, b)| ExprKind::Binary(
                op,
                Box::new(a),
                Box::new(b)
            )),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(a, b, c)| ExprKind::Cond(
                Box::new(a),
                Box::new(b),
                Box::new(c)
            )),
            (name_of(CALLEES), prop::collection::vec(inner.clone(), 0..3)).prop_map(
                |(callee, args)| ExprKind::Call {
                    callee,
                    args,
                    id: StmtId(0)
                }
            ),
            (arb_space(), inner.clone()).prop_map(|(space, index)| ExprKind::Load {
                space,
                index: Box::new(index),
                id: StmtId(0)
            }),
            (place, assign_op, inner).prop_map(|(place, op, value)| ExprKind::Assign {
                place,
                op,
                value: Box::new(value)
            }),
        ]
        .prop_map(ex)
    })
}

fn named_flag() -> impl Strategy<Value = bool> {
    prop::bool::weighted(0.3)
}

/// A declaration or an expression statement: the statements a `for` init
/// can be.
fn arb_simple() -> impl Strategy<Value = Stmt> {
    let local = (
        name_of(LOCAL_TYPES),
        name_of(VARS),
        prop::option::of(arb_expr()),
    )
        .prop_map(|(ty, name, init)| StmtKind::Local { ty, name, init });
    let kind = prop_oneof![local, arb_expr().prop_map(StmtKind::Expr)];
    (kind, named_flag()).prop_map(|(k, n)| st(k, n))
}

fn arb_stmt() -> impl Strategy<Value = Stmt> {
    let leaf = prop_oneof![
        Just(StmtKind::Observe),
        Just(StmtKind::Empty),
        name_of(LABELS).prop_map(StmtKind::Goto),
        Just(StmtKind::Break),
        Just(StmtKind::Continue),
        prop::option::of(arb_expr()).prop_map(StmtKind::Return),
    ];
    let leaf = prop_oneof![
        (leaf, named_flag()).prop_map(|(k, n)| st(k, n)),
        arb_simple(),
    ];
    leaf.prop_recursive(5, 64, 5, |inner| {
        let b = |s: Stmt| Box::new(s);
        let case_label = prop_oneof![
            (i64::MIN + 1..=i64::MAX).prop_map(CaseLabel::Case),
            (-3i64..10).prop_map(CaseLabel::Case),
            Just(CaseLabel::Default),
        ];
        let kind = prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(StmtKind::Compound),
            (arb_expr(), inner.clone(), prop::option::of(inner.clone())).prop_map(
                move |(cond, then, els)| StmtKind::If {
                    cond,
                    then: b(then),
                    els: els.map(b)
                }
            ),
            (arb_expr(), inner.clone()).prop_map(move |(cond, body)| StmtKind::While {
                cond,
                body: b(body)
            }),
            (inner.clone(), arb_expr()).prop_map(move |(body, cond)| StmtKind::DoWhile {
                body: b(body),
                cond
            }),
            (
                prop::option::of(arb_simple()),
                prop::option::of(arb_expr()),
                prop::option::of(arb_expr()),
                inner.clone()
            )
                .prop_map(move |(init, cond, step, body)| StmtKind::For {
                    init: init.map(b),
                    cond,
                    step,
                    body: b(body)
                }),
            (arb_expr(), inner.clone()).prop_map(move |(value, body)| StmtKind::Switch {
                value,
                body: b(body)
            }),
            (case_label, inner.clone()).prop_map(move |(label, body)| StmtKind::Case {
                label,
                body: b(body)
            }),
            (name_of(LABELS), inner.clone()).prop_map(move |(label, body)| StmtKind::Label {
                label,
                body: b(body)
            }),
            inner.prop_map(move |body| StmtKind::NoConvergent(b(body))),
        ];
        (kind, named_flag()).prop_map(|(k, n)| st(k, n))
    })
}

fn arb_params() -> impl Strategy<Value = Vec<Param>> {
    prop::collection::vec(
        (name_of(PARAM_TYPES), name_of(VARS)).prop_map(|(ty, name)| Param { ty, name }),
        0..3,
    )
}

fn arb_item() -> impl Strategy<Value = Item> {
    let function = (
        name_of(RET_TYPES),
        name_of(FUNCS),
        arb_params(),
        prop::collection::vec(arb_stmt(), 0..8),
        named_flag(),
    )
        .prop_map(|(ret, name, params, body, n)| {
            Item::Function(Function {
                ret,
                name,
                params,
                body: st(StmtKind::Compound(body), n),
                span: Span::default(),
            })
        });
    let declaration = (
        name_of(RET_TYPES),
        name_of(CALLEES),
        arb_params(),
        prop_oneof![
            Just(Convergence::Default),
            Just(Convergence::Convergent),
            Just(Convergence::NoConvergent)
        ],
    )
        .prop_map(|(ret, name, params, convergence)| {
            Item::Declaration(Declaration {
                ret,
                name,
                params,
                convergence,
                span: Span::default(),
            })
        });
    prop_oneof![3 => function, 1 => declaration]
}

/// Whether `s` ends with an `if` without `else`, which would take an `else`
/// written after `s` (C's dangling else).
fn ends_with_open_if(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::If { els: None, .. } => true,
        StmtKind::If { els: Some(e), .. } => ends_with_open_if(e),
        StmtKind::While { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Label { body, .. }
        | StmtKind::NoConvergent(body) => ends_with_open_if(body),
        _ => false,
    }
}

/// Makes a generated tree one the parser can produce: braces where C's
/// dangling else would rebind, unique names, pre-order ids.
fn fix_stmt(s: &mut Stmt, names: &mut u32) {
    if s.name.is_some() {
        s.name = Some(format!("S{names}"));
        *names += 1;
    }
    match &mut s.kind {
        StmtKind::If { then, els, .. } => {
            if els.is_some() && ends_with_open_if(then) {
                let inner = std::mem::replace(&mut **then, st(StmtKind::Empty, false));
                **then = st(StmtKind::Compound(vec![inner]), false);
            }
            fix_stmt(then, names);
            if let Some(e) = els {
                fix_stmt(e, names);
            }
        }
        StmtKind::Compound(list) => list.iter_mut().for_each(|c| fix_stmt(c, names)),
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Label { body, .. }
        | StmtKind::NoConvergent(body) => fix_stmt(body, names),
        StmtKind::For { init, body, .. } => {
            if let Some(i) = init {
                fix_stmt(i, names);
            }
            fix_stmt(body, names);
        }
        _ => {}
    }
}

fn arb_file() -> impl Strategy<Value = File> {
    prop::collection::vec(arb_item(), 0..4).prop_map(|items| {
        let mut file = File { items };
        for item in &mut file.items {
            if let Item::Function(f) = item {
                let mut names = 0;
                fix_stmt(&mut f.body, &mut names);
            }
        }
        renumber(&mut file);
        file
    })
}

/// Applies byte edits (position, byte, operation) to `src`.
fn mutate(src: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = src.as_bytes().to_vec();
    for &(at, byte, op) in edits {
        let len = bytes.len();
        let at = if len == 0 { 0 } else { at % (len + 1) };
        match op % 3 {
            0 => bytes.insert(at, byte),
            1 if at < len => {
                bytes.remove(at);
            }
            _ if at < len => bytes[at] = byte,
            _ => bytes.push(byte),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Parses `src`; if it parses, its printed form must parse back to it.
fn parse_never_panics(src: &str) {
    if let Ok(f) = parse("fuzz.c", src) {
        assert_round_trip(&f);
    }
}

const SOUP: &[&str] = &[
    "if",
    "else",
    "while",
    "do",
    "for",
    "switch",
    "case",
    "default",
    "goto",
    "break",
    "continue",
    "return",
    "(",
    ")",
    "{",
    "}",
    "[[",
    "]]",
    "[",
    "]",
    ";",
    ":",
    ",",
    "...",
    "x",
    "c",
    "=",
    "+=",
    ">>=",
    "%=",
    "++",
    "-",
    "!",
    "?",
    "1",
    "0x",
    "99999999999999999999",
    "int",
    "auto",
    "shared",
    "uniform",
    "tid",
    "N",
    "threadIdx",
    ".",
    "f",
    "// A\n",
    "// B\n",
    "\n",
    "/*",
    "*/",
    "\"",
    "clang",
    "::",
    "noconvergent",
    "fallthrough",
    "__attribute__",
    "void",
    "lbl",
];

/// Statement-shaped fragments: random sequences of them often parse.
const FRAGMENTS: &[&str] = &[
    "if (c)",
    "if (uniform(c) && tid < 2)",
    "else",
    "while (x)",
    "do",
    "while (c);",
    "for (;;)",
    "for (...)",
    "for (int i = 0; i < N; i++)",
    "switch (v)",
    "{",
    "}",
    "{",
    "}",
    "...",
    "...;",
    "x = shared[tid];",
    "global[tid + 1] = f(x, ...);",
    "case 1:",
    "case -2:",
    "default:",
    "lbl:",
    "goto lbl;",
    "[[fallthrough]]",
    "[[fallthrough]];",
    "[[clang::noconvergent]]",
    "break;",
    "continue;",
    "return;",
    "return x ? 1 : 2;",
    "auto m = ...;",
    "barrier();",
    "// A\n",
    "// B\n",
    "// C\n",
    "\n",
    ";",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_trees_round_trip(file in arb_file()) {
        let text = print(&file);
        let parsed = parse("gen.c", &text);
        prop_assert!(parsed.is_ok(), "{}\n--- printed ---\n{}", parsed.err().map(|d| d.to_string()).unwrap_or_default(), text);
        let parsed = stripped(parsed.unwrap_or_default());
        prop_assert_eq!(parsed, file, "--- printed ---\n{}", text);
    }

    #[test]
    fn arbitrary_strings_do_not_panic(src in any::<String>()) {
        parse_never_panics(&src);
    }

    #[test]
    fn token_soup_does_not_panic(
        toks in prop::collection::vec(prop::sample::select(SOUP), 0..80),
        wrap in any::<bool>(),
    ) {
        let body = toks.join(" ");
        let src = if wrap { format!("void f() {{\n{body}\n}}\n") } else { body };
        parse_never_panics(&src);
    }

    #[test]
    fn statement_soup_does_not_panic(
        frags in prop::collection::vec(prop::sample::select(FRAGMENTS), 0..40),
    ) {
        let src = format!("void f() {{\n{}\n}}\n", frags.join(" "));
        parse_never_panics(&src);
    }

    #[test]
    fn mutated_seeds_do_not_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..8),
    ) {
        let all = seeds();
        let (_, src) = &all[which.index(all.len())];
        parse_never_panics(&mutate(src, &edits));
    }
}
