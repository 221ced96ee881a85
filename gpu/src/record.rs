//! Recorded hardware logs: the folder layout that `convcheck gpu --record`
//! writes and `--replay` reads (docs/src/hardware.md, "Recorded logs").
//!
//! The layout is the one of the first measurement on an H200
//! (`../shared/hw/h200-2026-11-27/README.md`), which convcheck reads as it
//! is, plus a few fields of its own that a reader of the fixture ignores:
//!
//! - `manifest.json.gz`: `{"W", "K", "E", "kernels": [...]}` (`NO_MAX` is
//!   kept when present); each kernel has `id`, `file` (relative to the
//!   folder), `function`, `labels` (an event's label index points here),
//!   `oracles` (the order of the value streams), `domains` and `scenarios`
//!   (`{"threads": [{oracle: [K values]}, ...]}`, one map per thread).
//!   convcheck adds `"format": "convcheck-gpu 1"` and `variants`: for each
//!   variant name, the `opt` pipeline its CFG went through (none: the
//!   lowered CFG), the back end and the ptxas level, so that a replay knows
//!   which CFG the hardware ran. The fixture has no `variants`; its names
//!   say it (`O0/...`: the lowered CFG, `O2/...`: after `opt -O2`,
//!   `nvcc-...`: nvcc's own CFG, compared at the source level only).
//! - `results/*.jsonl.gz` (or `.jsonl`): one JSON object a line, either
//!   `{"start": ID, "variant": V}` (a progress mark, skipped) or `{"id",
//!   "variant", "scen", "logn", "events"}` with, for each thread, its
//!   events `[label index, instance number, mask]` (mask as a signed
//!   32-bit integer) and `logn`, how many events it logged (more than
//!   `E` means the log overflowed and was cut).
//! - `kernels/`: the kernel files the manifest names.

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The format mark convcheck writes into the manifests it records.
pub const FORMAT: &str = "convcheck-gpu 1";

/// A recording's manifest.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    /// Threads per launch (one warp: 32).
    #[serde(rename = "W")]
    pub w: u32,
    /// The fixture's bound on oracles per kernel, kept when present.
    #[serde(rename = "NO_MAX", default, skip_serializing_if = "Option::is_none")]
    pub no_max: Option<u32>,
    /// Values per oracle stream (0 after them).
    #[serde(rename = "K")]
    pub k: u32,
    /// Log entries per thread.
    #[serde(rename = "E")]
    pub e: u32,
    /// `"convcheck-gpu 1"` in convcheck's own recordings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// What each variant ran (convcheck's recordings only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variants: BTreeMap<String, VariantInfo>,
    /// The kernels.
    pub kernels: Vec<KernelEntry>,
}

/// How one variant was built (convcheck's own recordings).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct VariantInfo {
    /// The `opt -passes=` pipeline the CFG went through before `llc`
    /// (none: the CFG as lowered or as given).
    #[serde(default)]
    pub pipeline: Option<String>,
    /// The `llc` command's binary and its version line.
    #[serde(default)]
    pub llc: Option<String>,
    /// The JIT (ptxas) optimization level.
    #[serde(default)]
    pub ptxas_opt: Option<u32>,
    /// The device the logs came from.
    #[serde(default)]
    pub device: Option<String>,
}

/// One kernel of a recording.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct KernelEntry {
    /// Its id in the result lines.
    pub id: String,
    /// The kernel file, relative to the recording's folder.
    pub file: String,
    /// The function that ran.
    pub function: String,
    /// Labels of the logged operations: an event's label index points here.
    pub labels: Vec<String>,
    /// Oracle names, in the order of the value streams.
    pub oracles: Vec<String>,
    /// The values each oracle's stream was drawn from.
    #[serde(default)]
    pub domains: BTreeMap<String, Vec<i64>>,
    /// The PTX files per variant, when recorded.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ptx: BTreeMap<String, String>,
    /// The scenarios.
    pub scenarios: Vec<ScenarioEntry>,
}

/// One scenario: the value streams of every thread.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ScenarioEntry {
    /// One map per thread, in `tid` order: oracle name to its stream.
    pub threads: Vec<BTreeMap<String, Vec<i64>>>,
}

/// One logged event: `[label index, instance number, mask]`.
pub type LoggedEvent = [i64; 3];

/// The logs of one launch.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ResultLine {
    /// The kernel's id.
    pub id: String,
    /// The variant (how it was compiled).
    pub variant: String,
    /// The scenario's index in the kernel's `scenarios`.
    pub scen: usize,
    /// Events each thread logged (more than the manifest's `E`: cut).
    pub logn: Vec<u32>,
    /// Each thread's events in order.
    pub events: Vec<Vec<LoggedEvent>>,
    /// Seconds the launch took, when recorded (not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub s: Option<f64>,
}

/// A line of a results file.
#[derive(Deserialize)]
#[serde(untagged)]
enum Line {
    Result(ResultLine),
    /// `{"start": ID, "variant": V}`: a progress mark of the fixture.
    Start {
        #[serde(rename = "start")]
        _start: serde::de::IgnoredAny,
    },
}

/// A recording read from a folder.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The folder.
    pub dir: PathBuf,
    /// The manifest.
    pub manifest: Manifest,
    /// Every result line, in file order (files by name).
    pub results: Vec<ResultLine>,
}

/// Why a recording cannot be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// The file (and line, when known).
    pub at: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for RecordError {}

fn err(at: impl Into<String>, message: impl Into<String>) -> RecordError {
    RecordError {
        at: at.into(),
        message: message.into(),
    }
}

/// Reads a file, gunzipping it when its name ends in `.gz`.
fn read_text(path: &Path) -> Result<String, RecordError> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| err(&shown, format!("cannot read: {e}")))?;
    let mut text = String::new();
    let res = if path.extension().is_some_and(|x| x == "gz") {
        GzDecoder::new(file).read_to_string(&mut text)
    } else {
        BufReader::new(file).read_to_string(&mut text)
    };
    res.map_err(|e| err(&shown, format!("cannot read: {e}")))?;
    Ok(text)
}

/// The manifest's path in `dir`: `manifest.json.gz`, else `manifest.json`.
fn manifest_path(dir: &Path) -> Option<PathBuf> {
    ["manifest.json.gz", "manifest.json"]
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

impl Recording {
    /// Reads the recording in `dir` (the fixture's layout or convcheck's).
    pub fn read(dir: &Path) -> Result<Recording, RecordError> {
        let shown = dir.display().to_string();
        let Some(mpath) = manifest_path(dir) else {
            return Err(err(
                &shown,
                "no manifest.json.gz or manifest.json: not a recording of hardware logs",
            ));
        };
        let text = read_text(&mpath)?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
            err(
                format!("{}:{}:{}", mpath.display(), e.line(), e.column()),
                format!("not a manifest: {e}"),
            )
        })?;
        let mut files: Vec<PathBuf> = match std::fs::read_dir(dir.join("results")) {
            Ok(rd) => rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    n.ends_with(".jsonl.gz") || n.ends_with(".jsonl")
                })
                .collect(),
            Err(e) => return Err(err(format!("{shown}/results"), format!("cannot read: {e}"))),
        };
        files.sort();
        let mut results = Vec::new();
        for f in &files {
            let text = read_text(f)?;
            for (n, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let at = || format!("{}:{}", f.display(), n + 1);
                match serde_json::from_str::<Line>(line) {
                    Ok(Line::Result(r)) => results.push(r),
                    Ok(Line::Start { .. }) => {}
                    Err(e) => return Err(err(at(), format!("not a result line: {e}"))),
                }
            }
        }
        let rec = Recording {
            dir: dir.to_path_buf(),
            manifest,
            results,
        };
        rec.validate()?;
        Ok(rec)
    }

    /// Checks that every result names a kernel, a scenario and labels that
    /// exist, and has one log per thread.
    fn validate(&self) -> Result<(), RecordError> {
        let m = &self.manifest;
        for r in &self.results {
            let at = || {
                format!(
                    "{}/results ({} {} {})",
                    self.dir.display(),
                    r.id,
                    r.variant,
                    r.scen
                )
            };
            let Some(k) = m.kernels.iter().find(|k| k.id == r.id) else {
                return Err(err(at(), "names a kernel the manifest does not have"));
            };
            if r.scen >= k.scenarios.len() {
                return Err(err(at(), "names a scenario the manifest does not have"));
            }
            if r.events.len() != r.logn.len() || r.events.len() != k.scenarios[r.scen].threads.len()
            {
                return Err(err(
                    at(),
                    format!(
                        "{} logs and {} counts for {} threads",
                        r.events.len(),
                        r.logn.len(),
                        k.scenarios[r.scen].threads.len()
                    ),
                ));
            }
            for log in &r.events {
                for ev in log {
                    if ev[0] < 0 || ev[0] as usize >= k.labels.len() {
                        return Err(err(at(), format!("label index {} out of range", ev[0])));
                    }
                }
            }
        }
        Ok(())
    }

    /// The kernel with this id.
    pub fn kernel(&self, id: &str) -> Option<&KernelEntry> {
        self.manifest.kernels.iter().find(|k| k.id == id)
    }

    /// The ids of the kernels of `file` (whose text is `text`): those
    /// whose file has the same name or the same text, and the function
    /// `function` when given.
    pub fn kernels_of(&self, file: &str, text: &str, function: Option<&str>) -> Vec<String> {
        let base = |f: &str| {
            Path::new(f)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        };
        self.manifest
            .kernels
            .iter()
            .filter(|k| function.is_none_or(|f| f == k.function))
            .filter(|k| {
                base(&k.file) == base(file)
                    || std::fs::read_to_string(self.dir.join(&k.file)).is_ok_and(|t| t == text)
            })
            .map(|k| k.id.clone())
            .collect()
    }

    /// Variant names in order of first appearance.
    pub fn variants(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.results {
            if !out.contains(&r.variant) {
                out.push(r.variant.clone());
            }
        }
        out
    }

    /// Writes the recording into `dir` (created if needed): the manifest,
    /// one results file, and the kernel files given as `(relative path,
    /// text)`.
    pub fn write(
        dir: &Path,
        manifest: &Manifest,
        results: &[ResultLine],
        files: &[(String, String)],
    ) -> Result<(), RecordError> {
        let shown = dir.display().to_string();
        let io = |e: std::io::Error| err(&shown, format!("cannot write: {e}"));
        std::fs::create_dir_all(dir.join("results")).map_err(io)?;
        for (rel, text) in files {
            let p = dir.join(rel);
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent).map_err(io)?;
            }
            std::fs::write(&p, text).map_err(io)?;
        }
        let gz = |path: PathBuf, text: &str| -> Result<(), RecordError> {
            let f = std::fs::File::create(&path).map_err(io)?;
            let mut enc = GzEncoder::new(f, Compression::default());
            enc.write_all(text.as_bytes()).map_err(io)?;
            enc.finish().map_err(io)?;
            Ok(())
        };
        let mtext = serde_json::to_string(manifest).map_err(|e| err(&shown, e.to_string()))?;
        gz(dir.join("manifest.json.gz"), &mtext)?;
        let mut lines = String::new();
        for r in results {
            lines.push_str(&serde_json::to_string(r).map_err(|e| err(&shown, e.to_string()))?);
            lines.push('\n');
        }
        gz(dir.join("results").join("hw_results_0.jsonl.gz"), &lines)?;
        Ok(())
    }
}
