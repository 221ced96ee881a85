//! Error messages: each bad input yields exactly the listed
//! `file:line:col: message` lines (all errors, in source order), with the
//! expected [`ErrorKind`] for the first.
#![deny(unsafe_code)]

use convcheck_llvm::{parse_module, ErrorKind};

fn errors(src: &str) -> (Vec<String>, ErrorKind) {
    match parse_module(src, "input.ll") {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => (
            e.errors().iter().map(|e| e.to_string()).collect(),
            e.first().kind(),
        ),
    }
}

fn check(src: &str, want: &[&str], kind: ErrorKind) {
    let (got, k) = errors(src);
    assert_eq!(got, want, "for input:\n{src}");
    assert_eq!(k, kind, "for input:\n{src}");
}

#[test]
fn expected_a_type() {
    check(
        "define void @f(i32 %a) {\n  %x = add foo %a, 1\n  ret void\n}\n",
        &["input.ll:2:12: expected a type, found 'foo'"],
        ErrorKind::Syntax,
    );
}

#[test]
fn structured_fields_and_display() {
    let e = parse_module("@g = global i32 %x\n", "dir/in.ll").unwrap_err();
    let first = e.first();
    assert_eq!(
        (first.file(), first.line(), first.col()),
        ("dir/in.ll", 1, 17)
    );
    assert_eq!(
        first.message(),
        "local value '%x' used outside a function body"
    );
    assert_eq!(
        first.to_string(),
        format!(
            "{}:{}:{}: {}",
            first.file(),
            first.line(),
            first.col(),
            first.message()
        )
    );
    assert_eq!(e.to_string(), first.to_string());
}

#[test]
fn names_and_numbering() {
    // Numbers may skip ahead but not go back (LLVM 19's messages).
    check(
        "define void @f() {\n  %3 = add i32 0, 0\n  %2 = add i32 0, 0\n  ret void\n}\n",
        &["input.ll:3:3: instruction expected to be numbered '%4' or greater"],
        ErrorKind::Numbering,
    );
    check(
        "define void @f(i32 %3, i32 %1) {\n  ret void\n}\n",
        &["input.ll:1:24: argument expected to be numbered '%4' or greater"],
        ErrorKind::Numbering,
    );
    check(
        "define void @f() {\n  %5 = add i32 0, 0\n  br label %3\n3:\n  ret void\n}\n",
        &["input.ll:4:1: label expected to be numbered '6' or greater"],
        ErrorKind::Numbering,
    );
    check(
        "define void @f() {\n  %0 = add i32 0, 0\n  ret void\n}\n",
        &["input.ll:2:3: instruction expected to be numbered '%1' or greater"],
        ErrorKind::Numbering,
    );
    check(
        "@1 = global i32 0\n@0 = global i32 0\n",
        &["input.ll:2:1: global expected to be numbered '@2' or greater"],
        ErrorKind::Numbering,
    );
    check(
        "define void @f(i32 %a) {\n  %x = add i32 %a, %y\n  %x = add i32 %a, 1\n  br label %x\n}\n",
        &["input.ll:3:3: redefinition of '%x' (first defined on line 2)"],
        ErrorKind::Redefinition,
    );
    check(
        "define void @f(i32 %a) {\nentry:\n  %x = add i32 %a, %y\n  br label %nowhere\n}\n",
        &[
            "input.ll:3:20: use of undefined value '%y'",
            "input.ll:4:12: use of undefined block '%nowhere'",
        ],
        ErrorKind::Undefined,
    );
    check(
        "define void @f(i32 %a) {\nentry:\n  %x = add i32 %a, 1\n  br label %x\n}\n",
        &["input.ll:4:12: '%x' is a value, but a basic block is expected here"],
        ErrorKind::Undefined,
    );
    check(
        "define void @f() {\n  call void @g()\n  ret void\n}\n",
        &["input.ll:2:13: use of undefined global '@g'"],
        ErrorKind::Undefined,
    );
    check(
        "declare void @g()\ndeclare void @g()\n",
        &["input.ll:2:14: redefinition of global '@g' (first defined on line 1)"],
        ErrorKind::Redefinition,
    );
}

#[test]
fn block_structure() {
    check(
        "define void @f() {\n  %x = add i32 0, 0\n}\n",
        &["input.ll:3:1: expected an instruction, found '}' (block '%0' has no terminator)"],
        ErrorKind::Syntax,
    );
    check(
        "define void @f() {\n  br label %b\nb:\n  %x = add i32 0, 0\nc:\n  ret void\n}\n",
        &["input.ll:5:1: expected an instruction, found label 'c:' (block '%b' has no terminator)"],
        ErrorKind::Syntax,
    );
    check(
        "define void @f() {\n}\n",
        &["input.ll:1:18: function body requires at least one basic block"],
        ErrorKind::Syntax,
    );
    check(
        "define void @f(ptr %p) {\n  %x = store i32 0, ptr %p\n  ret void\n}\n",
        &["input.ll:2:3: instructions returning void cannot have a name ('store')"],
        ErrorKind::Syntax,
    );
    check(
        "define void @f() {\n  ret void\n",
        &["input.ll:3:1: expected '}' at the end of the function body, found end of file"],
        ErrorKind::Syntax,
    );
}

#[test]
fn limits() {
    check(
        "define void @f() {\n  %x = add i64 18446744073709551616, 0\n  ret void\n}\n",
        &["input.ll:2:16: integer constant '18446744073709551616' is out of range: convcheck reads integers from -2^63 to 2^64-1"],
        ErrorKind::IntegerOutOfRange,
    );
    check(
        "define void @f() {\n  %x = add i64 -9223372036854775809, 0\n  ret void\n}\n",
        &["input.ll:2:16: integer constant '-9223372036854775809' is out of range: convcheck reads integers from -2^63 to 2^64-1"],
        ErrorKind::IntegerOutOfRange,
    );
    let deep = format!(
        "@g = external global {}i8{}\n",
        "[1 x ".repeat(200),
        "]".repeat(200)
    );
    let (got, kind) = errors(&deep);
    assert_eq!(kind, ErrorKind::TooDeep);
    assert_eq!(
        got,
        ["input.ll:1:662: types, constants or metadata nest more than 128 levels deep"]
    );
    let deep = format!("@g = global [1 x i8] {}\n", "[".repeat(100_000));
    assert_eq!(errors(&deep).1, ErrorKind::TooDeep);
    check(
        "@g = external global i0\n",
        &["input.ll:1:22: integer type 'i0' has a width outside 1..=8388607"],
        ErrorKind::IntegerOutOfRange,
    );
}

#[test]
fn lexical_errors() {
    check(
        "source_filename = \"abc\n",
        &["input.ll:1:19: unterminated string"],
        ErrorKind::Syntax,
    );
    check(
        "define void @f() {\n  ret void ?\n}\n",
        &["input.ll:2:12: unexpected character '?'"],
        ErrorKind::Syntax,
    );
}

#[test]
fn every_bad_entity_is_reported_and_the_good_ones_still_checked() {
    let src = "define void @a() {\n  %x = add bogus\n  ret void\n}\n\
               define void @b() {\n  ret void\n}\n\
               @g = global i32 zork\n\
               define void @c() {\n  call void @missing()\n  ret void\n}\n\
               attributes #0 = { nounwind\n";
    check(
        src,
        &[
            "input.ll:2:12: expected a type, found 'bogus'",
            "input.ll:8:17: expected a value, found 'zork'",
            "input.ll:10:13: use of undefined global '@missing'",
            "input.ll:14:1: expected an attribute or '}' to end the attribute group, found end of file",
        ],
        ErrorKind::Syntax,
    );
}

#[test]
fn top_level_garbage() {
    check("hello world\n", &["input.ll:1:1: expected a top-level entity (define, declare, a global, attributes, metadata, ...), found 'hello'"], ErrorKind::Syntax);
    check(
        "target foo = \"x\"\n",
        &["input.ll:1:8: expected 'datalayout' or 'triple' after 'target', found 'foo'"],
        ErrorKind::Syntax,
    );
}

/// LLVM's parser reads an attribute group that is used but never defined
/// as no attributes (opt-19 accepts `declare void @g() #4` and prints
/// `declare void @g()`; LLVM's own JumpThreading tests use `#0` without
/// defining it): accepted, and the function is not `convergent`.
#[test]
fn undefined_attribute_group_is_no_attributes() {
    let m = parse_module(
        "define void @f() #0 {\n  call void @g() #7\n  ret void\n}\ndeclare void @g() #4\n",
        "input.ll",
    )
    .expect("LLVM accepts an undefined attribute group");
    let f = m.function("f").expect("f");
    assert!(!f.is_convergent(&m));
    let g = m.function("g").expect("g");
    assert!(!g.is_convergent(&m));
    assert!(m.attr_group(0).is_none() && m.attr_group(4).is_none());
}

/// LLVM 19 reads numbered values, blocks, arguments and globals that skip
/// numbers (increasing): opt-19 accepts each of these and renumbers them
/// densely when it prints. (LLVM's JumpThreading test of merged
/// convergence intrinsics writes `%0` then `%2`.)
#[test]
fn numbers_may_skip_ahead() {
    for src in [
        "define void @f(i32 %0, i32 %5) {\n  ret void\n}\n",
        "define void @f() {\n  br label %3\n3:\n  ret void\n}\n",
        "define void @f() {\n  %2 = add i32 0, 0\n  ret void\n}\n",
        "define void @f() {\nentry:\n  %0 = add i32 0, 0\n  %2 = add i32 %0, 1\n  br label %7\n7:\n  %8 = add i32 %2, 1\n  ret void\n}\n",
        "@3 = global i32 0\n@7 = global i32 1\n",
    ] {
        let m = parse_module(src, "input.ll")
            .unwrap_or_else(|e| panic!("LLVM 19 accepts this:\n{src}\n{e}"));
        convcheck_llvm::fuzzing::check_tree(&m);
    }
}
