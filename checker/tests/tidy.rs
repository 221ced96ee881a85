//! Repository rules that no compiler checks, as tests (rust-analyzer's
//! "tidy" tests; STYLE.md).
//!
//! - Every Rust module of the workspace crates starts with a `//!` module
//!   doc saying what the module is (STYLE.md, item 2).
//! - Every example of seed 000 in `examples/seed/` is documented in the
//!   book, in `docs/src/model.md` or `docs/src/language.md`, so that the
//!   book's map from the specification to the code stays complete.

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
    for krate in ["model", "checker", "transforms", "generators", "proofs"] {
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
