//! LLVM's own test files that convcheck's tests read but this repository
//! does not hold (they are LLVM's work): where to find them, and the
//! manifest that names each one with its LLVM commit, size and SHA-256.
//!
//! A [`Source`] says which environment variable names the folder, where
//! the shared folder beside the repository would hold it, and which
//! manifest lists the files. A test calls [`Source::files`]: `Err` with
//! the reason to print when the folder is absent (the test skips), a
//! panic when the folder is there but a file is missing or differs from
//! the manifest (the test fails: those are not the files it was written
//! for).

use super::root;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One set of LLVM's files.
pub struct Source {
    /// The environment variable naming the folder
    /// (`CONVCHECK_LLVM_CONVERGENT_TESTS`).
    pub env: &'static str,
    /// The folder's place relative to the repository root when the
    /// variable is unset (`../shared/llvm-tests/Transforms`).
    pub shared: &'static str,
    /// The manifest, relative to the repository root: a TSV with a header
    /// naming at least `file`, `bytes` and `sha256`, optionally
    /// `llvm_path`.
    pub manifest: &'static str,
    /// The LLVM folder the data folder stands for, as a prefix of
    /// `llvm_path` (`llvm/test/Transforms/`): a file missing under its
    /// manifest name is looked for under `llvm_path` less this prefix, so
    /// that a checkout's own folder can be named.
    pub llvm_root: &'static str,
    /// What the files are, for messages.
    pub what: &'static str,
}

/// One row of a manifest.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The file's name in the data folder (its path below it).
    pub file: String,
    /// Its path in LLVM's repository, when the manifest says.
    pub llvm_path: Option<String>,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its SHA-256, in hex.
    pub sha256: String,
}

impl Source {
    /// The folder of the files, or why there is none.
    pub fn dir(&self) -> Result<PathBuf, String> {
        if let Some(d) = std::env::var_os(self.env) {
            let d = PathBuf::from(d);
            return if d.is_dir() {
                Ok(d)
            } else {
                Err(format!("{}={} is no folder", self.env, d.display()))
            };
        }
        let d = root().join(self.shared);
        if d.is_dir() {
            Ok(d)
        } else {
            Err(format!(
                "{} are not here (set {}, or put them in {}; {} says which files and commits)",
                self.what,
                self.env,
                d.display(),
                self.manifest
            ))
        }
    }

    /// The manifest's rows, in its order.
    pub fn manifest(&self) -> Vec<Entry> {
        let text = std::fs::read_to_string(root().join(self.manifest))
            .unwrap_or_else(|e| panic!("{}: {e}", self.manifest));
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
        let col = |name: &str| header.iter().position(|h| *h == name);
        let (file, bytes, sum) = match (col("file"), col("bytes"), col("sha256")) {
            (Some(f), Some(b), Some(s)) => (f, b, s),
            _ => panic!("{}: the header names no file, bytes, sha256", self.manifest),
        };
        let path = col("llvm_path");
        lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let c: Vec<&str> = l.split('\t').collect();
                assert_eq!(c.len(), header.len(), "{}: row {l:?}", self.manifest);
                Entry {
                    file: c[file].to_string(),
                    llvm_path: path.map(|p| c[p].to_string()),
                    bytes: c[bytes]
                        .parse()
                        .unwrap_or_else(|_| panic!("{}: bytes of {l:?}", self.manifest)),
                    sha256: c[sum].to_string(),
                }
            })
            .collect()
    }

    /// Where `entry` is in `dir`: under its manifest name, else under its
    /// path in LLVM below [`Source::llvm_root`].
    pub fn locate(&self, dir: &Path, entry: &Entry) -> PathBuf {
        let by_name = dir.join(&entry.file);
        if by_name.exists() {
            return by_name;
        }
        match entry
            .llvm_path
            .as_deref()
            .and_then(|p| p.strip_prefix(self.llvm_root))
        {
            Some(rel) if dir.join(rel).exists() => dir.join(rel),
            _ => by_name,
        }
    }

    /// The folder and every file of the manifest in it, checked (size and
    /// SHA-256); `Err` with the reason to print when there is no folder.
    /// Panics, naming each, when files are missing or differ.
    pub fn files(&self) -> Result<(PathBuf, Vec<(Entry, PathBuf)>), String> {
        let dir = self.dir()?;
        let mut found = Vec::new();
        let mut bad = Vec::new();
        for e in self.manifest() {
            let p = self.locate(&dir, &e);
            let len = std::fs::metadata(&p).map(|m| m.len()).ok();
            match len {
                None => bad.push(format!("{}: missing", p.display())),
                Some(len) if (len, sha256(&p)) != (e.bytes, e.sha256.clone()) => bad.push(format!(
                    "{}: not the file of the manifest (size, SHA-256)",
                    p.display()
                )),
                Some(_) => found.push((e, p)),
            }
        }
        assert!(
            bad.is_empty(),
            "{} in {} differ from {}:\n{}",
            self.what,
            dir.display(),
            self.manifest,
            bad.join("\n")
        );
        Ok((dir, found))
    }
}

/// The SHA-256 of a file, in hex (`sha256sum`'s; empty when it fails).
pub fn sha256(path: &Path) -> String {
    let out = Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum runs");
    let s = String::from_utf8_lossy(&out.stdout);
    s.split_whitespace().next().unwrap_or_default().to_string()
}

/// LLVM's tests of convergent operations (`llvm/test/Transforms/...`,
/// examples/llvm-project-tests/).
pub const CONVERGENT_TESTS: Source = Source {
    env: "CONVCHECK_LLVM_CONVERGENT_TESTS",
    shared: "../shared/llvm-tests/Transforms",
    manifest: "examples/llvm-project-tests/manifest.tsv",
    llvm_root: "llvm/test/Transforms/",
    what: "LLVM's convergent tests",
};

/// LLVM's UniformityAnalysis tests
/// (`llvm/test/Analysis/UniformityAnalysis/...`, examples/uniformity-tests/).
pub const UA_TESTS: Source = Source {
    env: "CONVCHECK_LLVM_UA_TESTS",
    shared: "../shared/llvm-tests/UniformityAnalysis",
    manifest: "examples/uniformity-tests/manifest.tsv",
    llvm_root: "llvm/test/Analysis/UniformityAnalysis/",
    what: "LLVM's UniformityAnalysis tests",
};
