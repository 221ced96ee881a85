//! House rules for this crate's sources (STYLE.md 2 and 11): every `.rs`
//! file starts with a `//!` module doc, denies unsafe code, and stays under
//! 800 lines.
#![deny(unsafe_code)]

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_file_has_a_module_doc_denies_unsafe_and_is_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "examples"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10, "found only {files:?}");
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable file");
        let name = f.strip_prefix(root).unwrap_or(f).display().to_string();
        if !text.starts_with("//! ") {
            problems.push(format!("{name}: does not start with a //! module doc"));
        }
        if !text.contains("#![deny(unsafe_code)]") {
            problems.push(format!("{name}: has no #![deny(unsafe_code)]"));
        }
        let lines = text.lines().count();
        if lines > 800 {
            problems.push(format!("{name}: {lines} lines (split it before 800)"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
