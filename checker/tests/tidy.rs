//! Repository rules that no compiler checks, as tests (rust-analyzer's
//! "tidy" tests; STYLE.md).
//!
//! - Every Rust module of the workspace crates starts with a `//!` module
//!   doc saying what the module is (STYLE.md, item 2).
//! - Every example of seed 000 in `examples/seed/` is documented in the
//!   book, in `docs/src/model.md` or `docs/src/language.md`, so that the
//!   book's map from the specification to the code stays complete.
//! - The layering of DESIGN.md section 3: `convcheck-ir` names no front
//!   end; `transforms` and the LLVM front end (`model/llvm`) never name the
//!   kernel language; the model crates do no file, process or environment
//!   I/O and print nothing; no source file passes 800 lines unless its top
//!   says why.
//! - Each crate's integration tests are one binary: every file of its
//!   `tests/` is a module of `tests/integration.rs`.

use std::path::{Path, PathBuf};

/// The repository root (this crate lives in `checker/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

/// Every `.rs` file under `dir`, skipping `target` directories, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Path relative to the repository root, with `/` separators.
fn relative(p: &Path) -> String {
    let r = root();
    p.strip_prefix(&r)
        .unwrap_or(p)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn every_module_starts_with_a_module_doc() {
    let r = root();
    let mut files = Vec::new();
    for krate in [
        "model",
        "checker",
        "transforms",
        "generators",
        "proofs",
        "gpu",
    ] {
        rust_files(&r.join(krate), &mut files);
    }
    assert!(
        files.len() > 10,
        "found only {} Rust files under {}: is the walk broken?",
        files.len(),
        r.display()
    );
    let mut offenders = Vec::new();
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                offenders.push(format!("{} (unreadable: {e})", relative(f)));
                continue;
            }
        };
        let first = text.lines().next().unwrap_or("");
        if !first.starts_with("//!") {
            offenders.push(relative(f));
        }
    }
    assert!(
        offenders.is_empty(),
        "these files do not start with a `//!` module doc (STYLE.md, item 2):\n  {}",
        offenders.join("\n  ")
    );
}

#[test]
fn every_seed_example_is_documented_in_the_book() {
    let r = root();
    let mut book = String::new();
    for chapter in ["docs/src/model.md", "docs/src/language.md"] {
        let path = r.join(chapter);
        match std::fs::read_to_string(&path) {
            Ok(t) => book.push_str(&t),
            Err(e) => panic!("cannot read {chapter}: {e}"),
        }
    }
    let dir = r.join("examples/seed");
    let mut examples: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    examples.sort();
    assert!(!examples.is_empty(), "no examples in examples/seed");
    let missing: Vec<String> = examples
        .iter()
        .map(|n| format!("examples/seed/{n}"))
        .filter(|p| !book.contains(p.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "these seed examples are mentioned in neither docs/src/model.md nor docs/src/language.md:\n  {}",
        missing.join("\n  ")
    );
}

/// The crates whose integration tests are one binary (their
/// `tests/integration.rs` names each file of `tests/` as a module).
const ONE_TEST_BINARY: [&str; 9] = [
    "checker",
    "model/llvm",
    "model/smt",
    "model/lang",
    "model/ir",
    "generators",
    "gpu",
    "transforms",
    "proofs",
];

/// The test files of `tests/` that `integration.rs` does not name as a
/// module: with `autotests = false` cargo builds only `integration.rs`, so
/// a new file that is not listed there would never run.
fn unlisted_test_files(tests: &Path) -> Vec<String> {
    let listing = std::fs::read_to_string(tests.join("integration.rs")).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}",
            tests.join("integration.rs").display()
        )
    });
    // A file `X.rs`, or a folder `X/` with a `main.rs` (a test of several
    // files), is the module `X`.
    let mut files: Vec<(String, String)> = std::fs::read_dir(tests)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", tests.display()))
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.ends_with(".rs") && n != "integration.rs" {
                Some((n.trim_end_matches(".rs").to_string(), n))
            } else if e.path().join("main.rs").is_file() {
                Some((n.clone(), format!("{n}/main.rs")))
            } else {
                None
            }
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .filter(|(module, file)| !listing.contains(&format!("#[path = \"{file}\"]\nmod {module};")))
        .map(|(_, file)| file)
        .collect()
}

#[test]
fn every_test_file_runs_in_its_crates_one_test_binary() {
    let r = root();
    let mut missing = Vec::new();
    for krate in ONE_TEST_BINARY {
        let manifest = std::fs::read_to_string(r.join(krate).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("cannot read {krate}/Cargo.toml: {e}"));
        assert!(
            manifest.contains("autotests = false")
                && manifest.contains("path = \"tests/integration.rs\""),
            "{krate}/Cargo.toml: expected `autotests = false` and one [[test]] at tests/integration.rs"
        );
        for n in unlisted_test_files(&r.join(krate).join("tests")) {
            missing.push(format!("{krate}/tests/{n}"));
        }
    }
    assert!(
        missing.is_empty(),
        "these test files are not modules of their crate's tests/integration.rs, so they never run \
         (add `#[path = \"FILE.rs\"]\\nmod FILE;` there):\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn the_listing_check_catches_a_file_left_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("integration.rs"),
        "#[path = \"a.rs\"]\nmod a;\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("a.rs"), "").unwrap();
    std::fs::write(dir.path().join("b.rs"), "").unwrap();
    std::fs::create_dir(dir.path().join("c")).unwrap();
    std::fs::write(dir.path().join("c/main.rs"), "").unwrap();
    assert_eq!(
        unlisted_test_files(dir.path()),
        vec!["b.rs".to_string(), "c/main.rs".to_string()]
    );
}

/// The `.rs` files of `dirs` (relative to the root), with their text.
fn sources(dirs: &[&str]) -> Vec<(String, String)> {
    let r = root();
    let mut files = Vec::new();
    for d in dirs {
        rust_files(&r.join(d), &mut files);
    }
    files
        .iter()
        .map(|f| (relative(f), std::fs::read_to_string(f).unwrap_or_default()))
        .collect()
}

/// Lines of `files` (skipping comments) that contain one of `needles`.
fn lines_naming(files: &[(String, String)], needles: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in files {
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if needles.iter().any(|n| code.contains(n)) {
                out.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    out
}

/// The dependency names of a crate's `[dependencies]` table.
fn dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(manifest)).unwrap_or_default();
    let mut deps = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            inside = l == "[dependencies]";
            continue;
        }
        if inside {
            if let Some((name, _)) = l.split_once('=') {
                deps.push(name.trim().to_string());
            }
        }
    }
    deps
}

/// The layering rule: which crates' sources may not name which crates.
fn layering_offences(
    files: &[(String, String)],
    manifest: &str,
    forbidden: &[&str],
) -> Vec<String> {
    let mut out: Vec<String> = dependencies(manifest)
        .into_iter()
        .filter(|d| forbidden.iter().any(|f| f.replace('_', "-") == *d))
        .map(|d| format!("{manifest}: depends on {d}"))
        .collect();
    let needles: Vec<String> = forbidden.iter().map(|f| format!("{f}::")).collect();
    let refs: Vec<&str> = needles.iter().map(String::as_str).collect();
    out.extend(lines_naming(files, &refs));
    out
}

#[test]
fn the_ir_names_no_front_end() {
    let ir = sources(&["model/ir/src"]);
    assert!(ir.len() > 5, "found only {} IR files", ir.len());
    let bad = layering_offences(
        &ir,
        "model/ir/Cargo.toml",
        &[
            "convcheck_lang",
            "convcheck_llvm",
            "convcheck_smt",
            "convcheck_transforms",
        ],
    );
    assert!(
        bad.is_empty(),
        "convcheck-ir must not know any front end:\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn transforms_and_the_llvm_front_end_never_name_the_kernel_language() {
    let transforms = sources(&["transforms/src"]);
    assert!(
        transforms.len() > 3,
        "found only {} transforms files",
        transforms.len()
    );
    let mut bad = layering_offences(&transforms, "transforms/Cargo.toml", &["convcheck_lang"]);
    let llvm = sources(&["model/llvm/src"]);
    bad.extend(layering_offences(
        &llvm,
        "model/llvm/Cargo.toml",
        &["convcheck_lang"],
    ));
    assert!(
        bad.is_empty(),
        "passes and the LLVM front end see only the IR:\n  {}",
        bad.join("\n  ")
    );
}

/// The check above must be able to fail: a file that imports the kernel
/// language is caught (shown on a copy in memory, so nothing is edited).
#[test]
fn the_layering_check_catches_an_import_of_the_kernel_language() {
    let mut transforms = sources(&["transforms/src"]);
    transforms.push((
        "transforms/src/offender.rs".into(),
        "//! A pass that reads the syntax tree.\nuse convcheck_lang::sema::Kernel;\n".into(),
    ));
    let bad = layering_offences(&transforms, "transforms/Cargo.toml", &["convcheck_lang"]);
    assert_eq!(
        bad,
        vec!["transforms/src/offender.rs:2: use convcheck_lang::sema::Kernel;".to_string()]
    );
}

#[test]
fn the_model_does_no_io() {
    let model = sources(&[
        "model/ir/src",
        "model/lang/src",
        "model/smt/src",
        "model/llvm/src",
    ]);
    let bad = lines_naming(
        &model,
        &[
            "std::fs",
            "std::io",
            "std::env",
            "std::process",
            "println!",
            "eprintln!",
        ],
    );
    assert!(
        bad.is_empty(),
        "the model crates do no I/O:\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn no_file_passes_800_lines_without_a_reason() {
    // Library and binary sources; test files hold tables of cases and are
    // read case by case.
    let all = sources(&[
        "model/ir/src",
        "model/lang/src",
        "model/smt/src",
        "model/llvm/src",
        "checker/src",
        "transforms/src",
        "generators/src",
        "gpu/src",
    ]);
    let long: Vec<String> = all
        .iter()
        .filter(|(_, text)| text.lines().count() > 800)
        .filter(|(_, text)| {
            !text
                .lines()
                .take_while(|l| l.starts_with("//!"))
                .any(|l| l.contains("Why this file is long"))
        })
        .map(|(name, text)| format!("{name} ({} lines)", text.lines().count()))
        .collect();
    assert!(
        long.is_empty(),
        "split these files, or say at their top (\"Why this file is long: ...\") why not:\n  {}",
        long.join("\n  ")
    );
}

/// What a library file of the checker must not name: the command line's
/// parser, the terminal, the process's exit (the binary alone knows them:
/// DESIGN.md section 3).
const TERMINAL: &[&str] = &[
    "clap",
    "std::io::stderr",
    "std::io::stdout",
    "eprintln!",
    "println!",
    "eprint!(",
    "print!(",
    "is_terminal",
    "process::exit",
    "indicatif",
];

/// The checker's library sources: everything under `checker/src` but the
/// binary (`checker/src/bin/`).
fn checker_library() -> Vec<(String, String)> {
    sources(&["checker/src"])
        .into_iter()
        .filter(|(name, _)| !name.starts_with("checker/src/bin/"))
        .collect()
}

#[test]
fn the_library_knows_no_clap_and_writes_to_no_terminal() {
    let lib = checker_library();
    assert!(lib.len() > 30, "found only {} library files", lib.len());
    let bad = lines_naming(&lib, TERMINAL);
    assert!(
        bad.is_empty(),
        "only the binary (checker/src/bin/convcheck/) knows clap, terminals and exit codes:\n  {}",
        bad.join("\n  ")
    );
    // And the binary does use them (the needles are not stale).
    let bin = sources(&["checker/src/bin"]);
    assert!(!lines_naming(&bin, &["clap"]).is_empty());
    assert!(!lines_naming(&bin, &["indicatif"]).is_empty());
}

/// The check above must be able to fail: a library file that writes to
/// standard error or names clap is caught (on a copy in memory).
#[test]
fn the_terminal_check_catches_a_library_that_writes_to_stderr() {
    let mut lib = checker_library();
    lib.push((
        "checker/src/offender.rs".into(),
        "//! Reports progress itself.\nfn f() {\n    eprintln!(\"working\");\n}\nuse clap::Parser;\n"
            .into(),
    ));
    let bad = lines_naming(&lib, TERMINAL);
    assert_eq!(
        bad,
        vec![
            "checker/src/offender.rs:3: eprintln!(\"working\");".to_string(),
            "checker/src/offender.rs:5: use clap::Parser;".to_string(),
        ]
    );
}

#[test]
fn the_library_has_no_import_circle_through_the_command_line() {
    // The command line is the binary's: no library file names its modules.
    let lib = checker_library();
    let bad = lines_naming(&lib, &["crate::cli", "convcheck::cli", "main_with_args"]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_hardware_oracle_keeps_unsafe_in_one_module_and_prints_nothing() {
    // DESIGN.md section 3: the one module that launches kernels may allow
    // `unsafe_code`; no library file writes to a terminal.
    let files = sources(&["gpu/src"]);
    assert!(files.len() >= 5, "the walk found {} files", files.len());
    let unsafe_allowed: Vec<&str> = files
        .iter()
        .filter(|(_, t)| t.contains("allow(unsafe_code)"))
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(unsafe_allowed, vec!["gpu/src/device.rs"]);
    let printing = lines_naming(
        &files,
        &[
            "println!",
            "eprintln!",
            "print!(",
            "eprint!(",
            "std::io::stdout",
            "std::io::stderr",
        ],
    );
    assert!(
        printing.is_empty(),
        "convcheck-gpu prints:\n  {}",
        printing.join("\n  ")
    );
}

#[test]
fn the_llvm_syntax_tree_imports_nothing_from_its_parser() {
    // The tree (values, instructions, modules, types, attributes) is data
    // the parser builds; it never calls back into the parser.
    let tree: Vec<(String, String)> = sources(&["model/llvm/src"])
        .into_iter()
        .filter(|(name, _)| {
            ["value.rs", "inst.rs", "module.rs", "types.rs", "attrs.rs"]
                .iter()
                .any(|f| name.ends_with(&format!("model/llvm/src/{f}")))
        })
        .collect();
    assert_eq!(
        tree.len(),
        5,
        "{:?}",
        tree.iter().map(|t| &t.0).collect::<Vec<_>>()
    );
    let bad = lines_naming(&tree, &["crate::parser", "super::parser", "parser::"]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
