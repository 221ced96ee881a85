//! The static rules of convergence control tokens on LLVM IR
//! (`convcheck_llvm::verify`) against LLVM's own verifier: one small
//! function per rule, written for convcheck after the cases of LLVM's
//! `test/Verifier/convergencectrl-invalid.ll` (same rules, our own
//! functions). Each case states the message convcheck gives first; when
//! `opt-19` is installed, `opt-19 -passes=verify` must reject the same
//! module with the same first message (and accept the valid one).
//!
//! The nesting of regions ("Convergence region is not well-nested.") has
//! cases of its own, rejected (`not_well_nested*`) and accepted
//! (`nested*`), each agreeing with `opt-19 -passes=verify`.
#![deny(unsafe_code)]

use std::process::Command;

struct Case {
    name: &'static str,
    ir: &'static str,
    /// convcheck's first message; `None` when it reports nothing.
    expected: Option<&'static str>,
}

const DECLARATIONS: &str = "
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
declare void @sync() convergent
declare void @plain()
";

/// Not a convergence intrinsic; LLVM's verifier refuses the declaration
/// itself ("Function returns a token but isn't an intrinsic") after the
/// function that uses it, so only that case declares it.
const MAKE_TOKEN: &str = "declare token @make_token()\n";

const CASES: &[Case] = &[
    Case {
        name: "anchor_with_bundle",
        ir: r#"define void @anchor_with_bundle() {
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor() [ "convergencectrl"(token %a) ]
  ret void
}"#,
        expected: Some("Entry or anchor intrinsic cannot have a convergencectrl token operand."),
    },
    Case {
        name: "loop_without_bundle",
        ir: r#"define void @loop_without_bundle() {
  %h = call token @llvm.experimental.convergence.loop()
  ret void
}"#,
        expected: Some("Loop intrinsic must have a convergencectrl token operand."),
    },
    Case {
        name: "foreign_token",
        ir: r#"define void @foreign_token() {
  %t = call token @make_token()
  call void @sync() [ "convergencectrl"(token %t) ]
  ret void
}"#,
        expected: Some("Convergence control tokens can only be produced by calls to the convergence control intrinsics."),
    },
    Case {
        name: "two_tokens",
        ir: r#"define void @two_tokens() {
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %a, token %b) ]
  ret void
}"#,
        expected: Some("The 'convergencectrl' bundle requires exactly one token use."),
    },
    Case {
        name: "two_bundles",
        ir: r#"define void @two_bundles() {
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %a), "convergencectrl"(token %b) ]
  ret void
}"#,
        expected: Some("The 'convergencectrl' bundle can occur at most once on a call"),
    },
    Case {
        name: "mixed_after",
        ir: r#"define void @mixed_after() {
  %a = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %a) ]
  call void @sync()
  ret void
}"#,
        expected: Some("Cannot mix controlled and uncontrolled convergence in the same function."),
    },
    Case {
        name: "mixed_before",
        ir: r#"define void @mixed_before() {
  call void @sync()
  %a = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %a) ]
  ret void
}"#,
        expected: Some("Cannot mix controlled and uncontrolled convergence in the same function."),
    },
    Case {
        name: "use_in_cycle",
        ir: r#"define void @use_in_cycle(i1 %c) {
entry:
  %a = call token @llvm.experimental.convergence.anchor()
  br label %body
body:
  call void @sync() [ "convergencectrl"(token %a) ]
  br i1 %c, label %body, label %exit
exit:
  ret void
}"#,
        expected: Some("Convergence token used by an instruction other than llvm.experimental.convergence.loop in a cycle that does not contain the token's definition."),
    },
    Case {
        name: "entry_after_op",
        ir: r#"define void @entry_after_op() convergent {
  call void @sync()
  %e = call token @llvm.experimental.convergence.entry()
  ret void
}"#,
        expected: Some("Entry intrinsic cannot be preceded by a convergent operation in the same basic block."),
    },
    Case {
        name: "entry_not_convergent",
        ir: r#"define void @entry_not_convergent() {
  %e = call token @llvm.experimental.convergence.entry()
  ret void
}"#,
        expected: Some("Entry intrinsic can occur only in a convergent function."),
    },
    Case {
        name: "loop_after_op",
        ir: r#"define void @loop_after_op(i1 %c) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br label %next
next:
  call void @sync() [ "convergencectrl"(token %e) ]
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  ret void
}"#,
        expected: Some("Loop intrinsic cannot be preceded by a convergent operation in the same basic block."),
    },
    Case {
        name: "entry_not_in_entry_block",
        ir: r#"define void @entry_not_in_entry_block() convergent {
first:
  br label %second
second:
  %e = call token @llvm.experimental.convergence.entry()
  ret void
}"#,
        expected: Some("Entry intrinsic can occur only in the entry block."),
    },
    Case {
        name: "two_hearts",
        ir: r#"define void @two_hearts(i1 %c) {
entry:
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor()
  br label %head
head:
  %h1 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %a) ]
  %h2 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %b) ]
  br i1 %c, label %head, label %exit
exit:
  ret void
}"#,
        expected: Some("Loop intrinsic cannot be preceded by a convergent operation in the same basic block."),
    },
    Case {
        name: "heart_not_in_header",
        ir: r#"define void @heart_not_in_header(i1 %c, i1 %d) {
entry:
  %a = call token @llvm.experimental.convergence.anchor()
  br label %head
head:
  br i1 %c, label %inner, label %head
inner:
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %a) ]
  br i1 %d, label %inner, label %head
}"#,
        expected: Some("Cycle heart must dominate all blocks in the cycle."),
    },
    Case {
        name: "token_on_plain_call",
        ir: r#"define void @token_on_plain_call() {
  %a = call token @llvm.experimental.convergence.anchor()
  call void @plain() [ "convergencectrl"(token %a) ]
  ret void
}"#,
        expected: Some("Convergence control token can only be used in a convergent call."),
    },
    Case {
        name: "not_well_nested",
        ir: r#"define void @not_well_nested() {
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %a) ]
  call void @sync() [ "convergencectrl"(token %b) ]
  ret void
}"#,
        expected: Some("Convergence region is not well-nested."),
    },
    Case {
        name: "not_well_nested_across_blocks",
        ir: r#"define void @not_well_nested_across_blocks() {
first:
  %a = call token @llvm.experimental.convergence.anchor()
  br label %second
second:
  %b = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %a) ]
  br label %third
third:
  call void @sync() [ "convergencectrl"(token %b) ]
  ret void
}"#,
        expected: Some("Convergence region is not well-nested."),
    },
    Case {
        name: "not_well_nested_at_join",
        ir: r#"define void @not_well_nested_at_join(i1 %c) {
entry:
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %left, label %right
left:
  call void @sync() [ "convergencectrl"(token %a) ]
  br label %join
right:
  br label %join
join:
  call void @sync() [ "convergencectrl"(token %b) ]
  ret void
}"#,
        expected: Some("Convergence region is not well-nested."),
    },
    Case {
        name: "not_well_nested_loop_after_exit",
        ir: r#"define void @not_well_nested_loop_after_exit(i1 %c) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br label %head
head:
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  br i1 %c, label %head, label %exit
exit:
  call void @sync() [ "convergencectrl"(token %e) ]
  call void @sync() [ "convergencectrl"(token %h) ]
  ret void
}"#,
        expected: Some("Convergence region is not well-nested."),
    },
    Case {
        name: "nested_inner_first",
        ir: r#"define void @nested_inner_first() {
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %b) ]
  call void @sync() [ "convergencectrl"(token %a) ]
  %c = call token @llvm.experimental.convergence.anchor()
  call void @sync() [ "convergencectrl"(token %c) ]
  call void @sync() [ "convergencectrl"(token %a) ]
  ret void
}"#,
        expected: None,
    },
    Case {
        name: "nested_on_separate_paths",
        ir: r#"define void @nested_on_separate_paths(i1 %c) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  %b = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %left, label %right
left:
  call void @sync() [ "convergencectrl"(token %e) ]
  ret void
right:
  call void @sync() [ "convergencectrl"(token %b) ]
  ret void
}"#,
        expected: None,
    },
    Case {
        name: "nested_loop_in_anchor",
        ir: r#"define void @nested_loop_in_anchor(i1 %c, i1 %d) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br label %outer
outer:
  %b = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %inner, label %latch
inner:
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %b) ]
  call void @sync() [ "convergencectrl"(token %h) ]
  br label %outer
latch:
  call void @sync() [ "convergencectrl"(token %b) ]
  br i1 %d, label %outer, label %exit
exit:
  call void @sync() [ "convergencectrl"(token %e) ]
  ret void
}"#,
        expected: None,
    },
    Case {
        name: "valid",
        ir: r#"define void @valid(i1 %c) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  br label %head
head:
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
  call void @sync() [ "convergencectrl"(token %h) ]
  br i1 %c, label %head, label %exit
exit:
  call void @sync() [ "convergencectrl"(token %e) ]
  ret void
}"#,
        expected: None,
    },];

fn module(c: &Case) -> String {
    let extra = if c.name == "foreign_token" {
        MAKE_TOKEN
    } else {
        ""
    };
    format!("{}\n{DECLARATIONS}{extra}", c.ir)
}

fn ours(c: &Case) -> Vec<convcheck_llvm::verify::Violation> {
    let text = module(c);
    let m = convcheck_llvm::parse_module(&text, c.name)
        .unwrap_or_else(|e| panic!("{}: the reader refuses the case: {e}", c.name));
    convcheck_llvm::verify::convergence(&m)
}

#[test]
fn convcheck_names_each_rule_as_llvm_does() {
    for c in CASES {
        let got = ours(c);
        assert_eq!(
            got.first().map(|v| v.message.as_str()),
            c.expected,
            "{}: {got:?}",
            c.name
        );
        for v in &got {
            assert_eq!(v.function, c.name);
            assert!(v.line >= 1, "{}: {v}", c.name);
        }
    }
}

#[test]
fn llvm_verifier_agrees() {
    let have = Command::new("opt-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        println!(
            "skipping llvm_verifier_agrees: opt-19 is not installed (apt-get install -y llvm-19)"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("convcheck-verifier-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut agreed = 0;
    for c in CASES {
        let path = dir.join(format!("{}.ll", c.name));
        std::fs::write(&path, module(c)).expect("write");
        let out = Command::new("opt-19")
            .args(["-passes=verify", "-disable-output"])
            .arg(&path)
            .output()
            .expect("opt-19 runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let llvm = stderr.lines().next().filter(|_| !out.status.success());
        assert_eq!(llvm, c.expected, "{}: opt-19 says {stderr}", c.name);
        agreed += 1;
    }
    assert_eq!(agreed, CASES.len());
}
