//! The parser and the mapping never panic and always return: random bytes, random token
//! soups, and random mutations (deletions, insertions, duplications,
//! truncations) of the valid modules in `tests/data` all go through the
//! fuzz oracle [`parse_never_panics`], which also checks the invariants of
//! every tree it accepts and the location of every error; the mutated
//! modules that still parse also go through [`map_never_panics`] (the
//! mapping into convcheck's IR, the written LLVM IR read back). Pathological
//! inputs (deep nesting, megabyte-long lines, thousands of errors) must
//! return too; there are no timing assertions, only that they finish.
#![deny(unsafe_code)]

mod common;

use convcheck_llvm::{map_never_panics, parse_module, parse_never_panics, ErrorKind};
use proptest::prelude::*;

/// Fragments that drive the parser into its deeper states.
const FRAGMENTS: &[&str] = &[
    "define",
    "declare",
    "void",
    "i32",
    "i1",
    "ptr",
    "addrspace(3)",
    "@f",
    "@g",
    "%x",
    "%0",
    "%1",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ",",
    "=",
    "\n",
    " ",
    "add",
    "nsw",
    "call",
    "br",
    "label",
    "%b",
    "b:",
    "1:",
    "ret",
    "switch",
    "phi",
    "icmp",
    "eq",
    "load",
    "store",
    "alloca",
    "align",
    "4",
    "-1",
    "#0",
    "attributes",
    "convergent",
    "\"s\"",
    "!0",
    "!dbg",
    "!{",
    "#dbg_value(",
    "token",
    "[ \"convergencectrl\"(token %t) ]",
    "x",
    "...",
    "global",
    "getelementptr",
    "inbounds",
    "to",
    "zext",
    "invoke",
    "unwind",
    "landingpad",
    "cleanup",
    "; c\n",
    "c\"a\"",
    "0x1",
    "1.5",
    "type",
    "%T",
    "opaque",
    "tail",
    "select",
    "freeze",
    "true",
    "null",
    "undef",
    "poison",
    "zeroinitializer",
    "metadata",
    "distinct",
    "atomic",
    "volatile",
    "seq_cst",
    "syncscope(\"x\")",
    "unreachable",
    "fadd",
    "18446744073709551616",
];

/// The number of cases: `default`, or `PROPTEST_CASES` for a longer run
/// (`PROPTEST_CASES=100000 cargo test --release -p convcheck-llvm --test integration robustness::`).
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The data files' texts, read once.
fn data_sources() -> &'static [String] {
    static SOURCES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SOURCES.get_or_init(|| {
        common::data_files()
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("readable"))
            .collect()
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, bytes: Vec<u8> },
    InsertFragment { at: usize, which: usize },
    Duplicate { at: usize, len: usize, to: usize },
    Truncate { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (any::<usize>(), any::<usize>())
            .prop_map(|(at, which)| Mutation::InsertFragment { at, which }),
        (any::<usize>(), 1usize..200, any::<usize>())
            .prop_map(|(at, len, to)| Mutation::Duplicate { at, len, to }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
    ]
}

fn apply(mut bytes: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    for m in muts {
        let n = bytes.len();
        match m {
            Mutation::Delete { at, len } if n > 0 => {
                let a = at % n;
                let b = (a + len).min(n);
                bytes.drain(a..b);
            }
            Mutation::Insert { at, bytes: ins } => {
                let a = at % (n + 1);
                bytes.splice(a..a, ins.iter().copied());
            }
            Mutation::InsertFragment { at, which } => {
                let a = at % (n + 1);
                let frag = FRAGMENTS[which % FRAGMENTS.len()].as_bytes();
                bytes.splice(a..a, frag.iter().copied());
            }
            Mutation::Duplicate { at, len, to } if n > 0 => {
                let a = at % n;
                let piece: Vec<u8> = bytes[a..(a + len).min(n)].to_vec();
                let t = to % (n + 1);
                bytes.splice(t..t, piece);
            }
            Mutation::Truncate { at } => bytes.truncate(at % (n + 1)),
            _ => {}
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        parse_never_panics(&bytes);
    }

    #[test]
    fn random_token_soup(picks in prop::collection::vec(any::<usize>(), 0..400)) {
        let text: String = picks.iter().map(|p| FRAGMENTS[p % FRAGMENTS.len()]).collect::<Vec<_>>().join(" ");
        parse_never_panics(text.as_bytes());
    }

    #[test]
    fn token_soup_inside_a_body(picks in prop::collection::vec(any::<usize>(), 0..200)) {
        let body: String = picks.iter().map(|p| FRAGMENTS[p % FRAGMENTS.len()]).collect::<Vec<_>>().join(" ");
        let text = format!("declare void @g()\ndefine void @f(i32 %x) {{\nb:\n{body}\n  ret void\n}}\n");
        parse_never_panics(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn mutated_valid_modules(file in any::<usize>(), muts in prop::collection::vec(mutation(), 1..6)) {
        let sources = data_sources();
        let src = &sources[file % sources.len()];
        parse_never_panics(&apply(src.clone().into_bytes(), &muts));
    }

    /// The mapping and the writer on mutated modules: most mutations leave
    /// a module that still parses, with a construct changed here and there.
    #[test]
    fn mapping_mutated_modules(file in any::<usize>(), muts in prop::collection::vec(mutation(), 1..4)) {
        let sources = data_sources();
        let src = &sources[file % sources.len()];
        map_never_panics(&apply(src.clone().into_bytes(), &muts));
    }
}

#[test]
fn every_data_file_passes_the_oracle_unchanged() {
    for src in data_sources() {
        parse_never_panics(src.as_bytes());
        map_never_panics(src.as_bytes());
        assert!(parse_module(src, "x.ll").is_ok());
    }
}

/// The mapping on token soups inside a function body that parse: the
/// instructions they make are random, the oracle must still hold.
#[test]
fn mapping_random_bodies() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut mapped = 0;
    for _ in 0..3000 {
        let mut body = String::new();
        for _ in 0..12 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            body.push_str(FRAGMENTS[(state % FRAGMENTS.len() as u64) as usize]);
            body.push(' ');
        }
        let text =
            format!("declare void @g()\ndefine void @f(i32 %x) {{\nb:\n{body}\n  ret void\n}}\n");
        if parse_module(&text, "r.ll").is_ok() {
            mapped += 1;
        }
        map_never_panics(text.as_bytes());
    }
    println!("{mapped} of 3000 random bodies parsed and were mapped");
}

#[test]
fn pathological_inputs_return() {
    let mb = 1 << 20;
    let deep_type = format!(
        "@g = external global {}i8{}\n",
        "[1 x ".repeat(mb / 5),
        "]".repeat(mb / 5)
    );
    let deep_const = format!("@g = global [1 x i8] {}\n", "[".repeat(mb));
    let deep_expr = format!("@g = global ptr getelementptr {}\n", "(".repeat(mb));
    let deep_meta = format!("!0 = !{{{}\n", "!{".repeat(mb / 2));
    let deep_attach = format!(
        "define void @f() {{\n  ret void, !x !{{{}\n}}\n",
        "!{".repeat(mb / 2)
    );
    let deep_metadata_type = format!(
        "define void @f() {{\n  call void @g(metadata {}i32 0)\n  ret void\n}}\n",
        "metadata ".repeat(mb / 9)
    );
    let deep_generic = format!("define void @f() {{\n  fadd {}\n}}\n", "<".repeat(mb));
    let long_flags = format!(
        "define void @f() {{\n  %x = add {} i32 0, 0\n  ret void\n}}\n",
        "nsw ".repeat(mb / 4)
    );
    let long_body = format!(
        "define void @f() {{\n{}  ret void\n}}\n",
        "  call void @f()\n".repeat(mb / 16)
    );
    let many_errors = "declare void oops\n".repeat(mb / 18);
    let unclosed_body = format!(
        "define void @f() {{\n{}",
        "  %x = add i32 0, 0\n".repeat(mb / 20)
    );
    let many_blocks = format!(
        "define void @f() {{\n{}  ret void\n}}\n",
        (0..20_000)
            .map(|k| format!("b{k}:\n  br label %b{}\n", k + 1))
            .collect::<String>()
    );
    for (name, src) in [
        ("deep_type", deep_type),
        ("deep_const", deep_const),
        ("deep_expr", deep_expr),
        ("deep_meta", deep_meta),
        ("deep_attach", deep_attach),
        ("deep_generic", deep_generic),
        ("metadata_chain", deep_metadata_type),
        ("long_flags", long_flags),
        ("long_body", long_body),
        ("many_errors", many_errors),
        ("unclosed_body", unclosed_body),
        ("many_blocks", many_blocks),
    ] {
        parse_never_panics(src.as_bytes());
        let result = parse_module(&src, "p.ll");
        if name.starts_with("deep_") && name != "deep_meta" {
            let e = result.as_ref().expect_err(name);
            assert_eq!(
                e.first().kind(),
                ErrorKind::TooDeep,
                "{name}: {}",
                e.first()
            );
        }
        if name == "many_errors" {
            assert_eq!(
                result.as_ref().expect_err(name).errors().len(),
                100,
                "errors are capped"
            );
        }
    }
}

#[test]
fn deep_nesting_on_a_small_stack() {
    // The depth bound must keep the parser well inside a test thread's
    // default 2 MiB stack: a debug build needs 384 to 512 KiB for 127
    // levels (see parser/types.rs), so 640 KiB leaves a margin and still
    // catches a regression that doubles the frame size.
    let src = format!(
        "@g = external global {}i8{}\n",
        "{ ".repeat(127),
        " }".repeat(127)
    );
    let handle = std::thread::Builder::new()
        .stack_size(640 * 1024)
        .spawn(move || parse_module(&src, "s.ll").map(|m| m.globals.len()))
        .expect("spawn");
    assert_eq!(
        handle
            .join()
            .expect("no stack overflow")
            .expect("127 levels parse"),
        1
    );
}
