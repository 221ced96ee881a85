//! The compiler transforms convcheck checks (DESIGN.md 2.7, section 3).
//!
//! Every pass rewrites a [`Module`] (the CFG level) behind one trait,
//! [`Pass`]. Each reference pass is documented with its LLVM counterpart and
//! the conditions under which LLVM applies it; *known-unsafe* variants
//! (suffix `.unsafe` and others) drop one of those conditions on purpose, so
//! that the checker can be shown to catch them.
//!
//! Pass names follow DESIGN.md section 4: `NAME`, `NAME.variant`, options in
//! angle brackets (`simplifycfg<keep-loops>`, `branch-dist<norm=1>`).
//! [`lookup`] parses a name into a pass; [`registry`] lists every pass with
//! one line and whether it is expected to be safe.
//!
//! Architecture invariant: this crate depends on `convcheck-ir` alone.
//! Passes never look at the program a module came from: everything they
//! read (oracle classes, call kinds, labels, lines, function names) is in
//! the [`Module`] itself, as a compiler pass sees only IR. A module built
//! by hand or by the LLVM reader is transformed exactly like one lowered
//! from the kernel language.
//!
//! Phis ([`convcheck_ir::InstKind::Phi`], made by the LLVM front end) are
//! kept correct by every pass: a pass that merges, bypasses or clones
//! blocks updates them, and a rewrite that cannot keep them correct is not
//! applied there (each pass's module doc says how and when). The only
//! refusal is of a malformed module, one with a phi after a non-phi
//! instruction of its block: the pass returns a [`PassError`] that names
//! the block, rather than risk bringing such a phi to life.

use convcheck_ir::Module;
use std::collections::BTreeMap;
use std::fmt;

pub mod branch_dist;
mod phis;
pub mod simplifycfg;
pub mod uniformity;
pub mod unswitch;

/// What a pass's contract allows it to remove from each thread's observable
/// behaviour (DESIGN.md 2.7, item 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contract {
    /// Nothing observable may change.
    Exact,
    /// Barriers without a data result may disappear (barrier removal).
    RemovesBarriers,
}

/// A pass failed to run (a bad option, an input it does not handle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassError(pub String);

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PassError {}

/// A transform on CFGs.
pub trait Pass {
    /// The name as the user writes it, options included.
    fn name(&self) -> String;
    /// Rewrites `module`; returns notes on what it did (one line each, for
    /// reports and dumps).
    fn run(&self, module: &mut Module) -> Result<Vec<String>, PassError>;
    /// What the pass may remove.
    fn contract(&self) -> Contract {
        Contract::Exact
    }
}

/// One registry entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassInfo {
    /// The base name (options go in angle brackets).
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// Whether it is expected to preserve convergence.
    pub safe: bool,
    /// Options it accepts, with their defaults.
    pub options: &'static str,
}

/// Every pass and variant.
pub fn registry() -> Vec<PassInfo> {
    let mut v = vec![
        PassInfo {
            name: "simplifycfg",
            summary: "SimplifyCFG to a fixed point: merge-block, forward-empty, hoist, sink (late run: keep-loops off)",
            safe: false,
            options: "keep-loops (off by default, as in LLVM's late SimplifyCFG)",
        },
        PassInfo {
            name: "simplifycfg.merge-block",
            summary: "merge a block into its single predecessor when that predecessor has one successor",
            safe: true,
            options: "",
        },
        PassInfo {
            name: "simplifycfg.forward-empty",
            summary: "remove empty blocks that only branch on; with keep-loops, loop headers are kept",
            safe: false,
            options: "keep-loops (off by default)",
        },
        PassInfo {
            name: "simplifycfg.hoist",
            summary: "hoist identical leading instructions of both successors; refuses convergent ones under a non-uniform branch",
            safe: true,
            options: "",
        },
        PassInfo {
            name: "simplifycfg.hoist.unsafe",
            summary: "hoist even convergent operations across a divergent branch",
            safe: false,
            options: "",
        },
        PassInfo {
            name: "simplifycfg.sink",
            summary: "sink identical trailing instructions into the common successor; refuses convergent ones under a non-uniform branch",
            safe: true,
            options: "",
        },
        PassInfo {
            name: "simplifycfg.sink.unsafe",
            summary: "sink even convergent operations across a divergent join",
            safe: false,
            options: "",
        },
        PassInfo {
            name: "loop-unswitch",
            summary: "unswitch loops on invariant conditions; refuses loops with convergent operations unless the condition is uniform and no operation leaves a cycle",
            safe: true,
            options: "",
        },
        PassInfo {
            name: "loop-unswitch.unsafe",
            summary: "unswitch on invariant conditions ignoring convergence",
            safe: false,
            options: "",
        },
    ];
    v.extend(extra_registry());
    v
}

/// Registry entries of passes defined in other modules of this crate
/// (kept apart so that each pass family owns its own list).
fn extra_registry() -> Vec<PassInfo> {
    branch_dist::registry()
}

/// Parses `NAME<opt,opt=v>` into the base name and its options.
pub fn parse_name(text: &str) -> Result<(String, BTreeMap<String, String>), PassError> {
    let text = text.trim();
    let (base, opts) = match text.find('<') {
        Some(i) => {
            if !text.ends_with('>') {
                return Err(PassError(format!(
                    "pass `{text}`: expected `>` at the end of the options"
                )));
            }
            (&text[..i], &text[i + 1..text.len() - 1])
        }
        None => (text, ""),
    };
    if base.is_empty() {
        return Err(PassError("expected a pass name".into()));
    }
    let mut map = BTreeMap::new();
    for o in opts
        .split([',', ';'])
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        let (k, v) = o.split_once('=').unwrap_or((o, "1"));
        map.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok((base.to_string(), map))
}

/// Reads a boolean option (`opt`, `opt=1`, `opt=true`, `opt=0`, `no-opt`).
pub fn flag(opts: &BTreeMap<String, String>, name: &str, default: bool) -> Result<bool, PassError> {
    if opts.contains_key(&format!("no-{name}")) {
        return Ok(false);
    }
    match opts.get(name).map(String::as_str) {
        None => Ok(default),
        Some("1" | "true" | "on") => Ok(true),
        Some("0" | "false" | "off") => Ok(false),
        Some(v) => Err(PassError(format!(
            "option `{name}`: expected 0 or 1, found `{v}`"
        ))),
    }
}

fn check_known(
    base: &str,
    opts: &BTreeMap<String, String>,
    known: &[&str],
) -> Result<(), PassError> {
    for k in opts.keys() {
        let k2 = k.strip_prefix("no-").unwrap_or(k);
        if !known.contains(&k2) {
            let list = if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            };
            return Err(PassError(format!(
                "pass `{base}` has no option `{k}` (options: {list})"
            )));
        }
    }
    Ok(())
}

/// Builds the pass named `text`.
pub fn lookup(text: &str) -> Result<Box<dyn Pass>, PassError> {
    let (base, opts) = parse_name(text)?;
    use simplifycfg::{SimplifyCfg, Step};
    let simplify =
        |step: Option<Step>, unsafe_: bool, known: &[&str]| -> Result<Box<dyn Pass>, PassError> {
            check_known(&base, &opts, known)?;
            Ok(Box::new(SimplifyCfg {
                step,
                keep_loops: flag(&opts, "keep-loops", false)?,
                ignore_convergence: unsafe_,
            }))
        };
    match base.as_str() {
        "simplifycfg" => simplify(None, false, &["keep-loops"]),
        "simplifycfg.merge-block" => simplify(Some(Step::MergeBlock), false, &[]),
        "simplifycfg.forward-empty" => simplify(Some(Step::ForwardEmpty), false, &["keep-loops"]),
        "simplifycfg.hoist" => simplify(Some(Step::Hoist), false, &[]),
        "simplifycfg.hoist.unsafe" => simplify(Some(Step::Hoist), true, &[]),
        "simplifycfg.sink" => simplify(Some(Step::Sink), false, &[]),
        "simplifycfg.sink.unsafe" => simplify(Some(Step::Sink), true, &[]),
        "loop-unswitch" | "loop-unswitch.unsafe" => {
            check_known(&base, &opts, &[])?;
            Ok(Box::new(unswitch::LoopUnswitch {
                ignore_convergence: base.ends_with(".unsafe"),
            }))
        }
        _ => {
            if let Some(p) = branch_dist::lookup(&base, &opts)? {
                return Ok(p);
            }
            let names: Vec<&str> = registry().iter().map(|p| p.name).collect();
            Err(PassError(format!(
                "unknown pass `{base}` (passes: {})",
                names.join(", ")
            )))
        }
    }
}
