//! LLVM IR as convcheck reads it (DESIGN.md 2.9): a `.ll` file read by
//! `convcheck-llvm` and mapped to the IR ([`Loaded`]), with what a check
//! needs besides the mapped module (each function's body as written, to
//! see which passes changed it; the static rules of tokens it breaks),
//! the options of the LLVM tools ([`LlvmOptions`]), the clang front end
//! ([`frontend`], and [`load_source`], which reads its output with source
//! positions from [`debug`] and kernels under their source [`names`]), the
//! dumps of an `opt` pipeline ([`dumps`]) and the process runner of
//! external tools ([`tools`]). The check itself is the pipeline's
//! ([`crate::pipeline::llvm`]).

pub mod debug;
pub mod dumps;
pub mod frontend;
pub mod launch;
pub mod names;
pub mod orderings;
pub mod tools;

use crate::config::CheckJob;
use crate::error::{Error, Result};
use convcheck_llvm::to_ir::{to_module_with, GpuFacts, MapOptions, Mapped};
use std::collections::{BTreeSet, HashMap};

pub use frontend::{Frontend, GpuTarget};

/// The LLVM options of `check` (the command line's `--opt`, `--opt-bin`,
/// `--opt-arg`, `--frontend`, `--clang-bin`, `--clang-arg`, `--target`,
/// `--tool-timeout`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlvmOptions {
    /// The `opt -passes=` pipeline to run, if any.
    pub opt: Option<String>,
    /// The `opt` binary (default: `opt-19`, else `opt` on the PATH).
    pub opt_bin: Option<String>,
    /// Arguments given to `opt` after convcheck's own, before the input
    /// (`-mtriple=amdgcn--`, cl::opts such as
    /// `-structurizecfg-skip-uniform-regions`).
    pub opt_args: Vec<String>,
    /// Compile the source with a front end first.
    pub frontend: Option<Frontend>,
    /// The clang binary (default: `clang-19`, else `clang`).
    pub clang_bin: Option<String>,
    /// Arguments given to clang after convcheck's own, before the source
    /// (`-DN=4`, `-I dir`, `--cuda-gpu-arch=sm_80`, `-g0`).
    pub clang_args: Vec<String>,
    /// The GPU target clang compiles for (default: the language's).
    pub target: Option<GpuTarget>,
    /// Seconds each run of an external tool may take.
    pub tool_timeout: u64,
    /// What the user states about the launch (`--block-dim`, `--grid-dim`,
    /// `--warp-size`).
    pub gpu: GpuFacts,
    /// Read calls to external functions as the kernel language's oracles
    /// ([`MapOptions::calls_as_oracles`]): set by a check whose reference
    /// is the source level of a C file.
    pub calls_as_oracles: bool,
}

impl Default for LlvmOptions {
    fn default() -> LlvmOptions {
        LlvmOptions {
            opt: None,
            opt_bin: None,
            opt_args: Vec::new(),
            frontend: None,
            clang_bin: None,
            clang_args: Vec::new(),
            target: None,
            tool_timeout: 60,
            gpu: GpuFacts::default(),
            calls_as_oracles: false,
        }
    }
}

impl LlvmOptions {
    /// How the mapper reads modules under these options.
    pub fn map_options(&self) -> MapOptions {
        MapOptions {
            gpu: self.gpu,
            calls_as_oracles: self.calls_as_oracles,
            ..MapOptions::default()
        }
    }

    /// How clang compiles a source under these options.
    pub fn clang(&self) -> frontend::ClangOptions {
        frontend::ClangOptions {
            bin: self.clang_bin.clone(),
            target: self.target,
            args: self.clang_args.clone(),
        }
    }

    /// The time each run of a tool may take.
    pub fn timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.tool_timeout.max(1))
    }

    /// The convcheck flags that give clang these options again
    /// (`--target T`, `--clang-bin B`, `--clang-arg A`...), for replay
    /// lines.
    pub fn clang_flags(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(t) = self.target {
            out.extend(["--target".to_string(), t.name().to_string()]);
        }
        if let Some(b) = &self.clang_bin {
            out.extend(["--clang-bin".to_string(), b.clone()]);
        }
        for a in &self.clang_args {
            out.push(format!("--clang-arg={a}"));
        }
        out
    }
}

/// Whether a file name is LLVM IR text.
pub fn is_ll(path: &str) -> bool {
    path.ends_with(".ll")
}

/// Whether `check` with these arguments goes through LLVM IR.
pub fn applies(a: &CheckJob, o: &LlvmOptions) -> bool {
    is_ll(&a.src) || a.tgt.as_deref().is_some_and(is_ll) || o.opt.is_some() || o.frontend.is_some()
}

/// An LLVM module read and mapped to the IR.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The file name used in messages.
    pub file: String,
    /// The text.
    pub text: String,
    /// The mapped functions and the skipped ones.
    pub mapped: Mapped,
    /// Every function the module defines, in module order.
    pub defined: Vec<String>,
    /// Each defined function's stage key: its text as written together
    /// with what its meaning depends on outside its body (to see which
    /// passes changed it, [`stage_keys`]).
    pub bodies: HashMap<String, String>,
    /// The static rules of tokens each function breaks, in LLVM's words.
    pub violations: Vec<convcheck_llvm::verify::Violation>,
    /// The line of each defined function's `define`.
    pub lines: HashMap<String, u32>,
    /// The atomic orderings each defined function states.
    pub orderings: HashMap<String, orderings::Orderings>,
    /// The source file whose positions the ops carry (clang's output read
    /// with its debug information, [`debug`]); `None`: the ops carry their
    /// lines in `text`.
    pub source: Option<String>,
    /// The functions that are GPU kernels (entry points of a launch:
    /// `ptx_kernel`, `amdgpu_kernel`, `spir_kernel`, or CUDA's
    /// `nvvm.annotations`).
    pub kernels: Vec<String>,
    /// The functions of local linkage (`internal`, `private`) whose every
    /// use is a direct call (review2 G6): their callers constrain their
    /// arguments, which a check of the function alone leaves free.
    pub callers_only: Vec<String>,
}

impl Loaded {
    /// The mapped function `name`'s index in [`Mapped::module`].
    pub fn index(&self, name: &str) -> Option<usize> {
        self.mapped
            .module
            .functions
            .iter()
            .position(|f| f.name == name)
    }

    /// The same module with its ops at their positions in `source`, the
    /// file clang compiled to `text` with line tables.
    pub fn at_source_lines(mut self, source: &str) -> Loaded {
        let lines = debug::SourceLines::of(&self.text, source);
        lines.apply(&mut self.mapped.module);
        self.source = Some(source.to_string());
        self
    }

    /// Why `name` was not mapped, if it was not.
    pub fn skipped(&self, name: &str) -> Option<String> {
        self.mapped
            .skipped
            .iter()
            .find(|u| u.function == name)
            .map(|u| u.to_string())
    }
}

/// Reads LLVM IR text. Errors name file, line and column, one per line.
pub fn read_ll(file: &str, text: &str) -> std::result::Result<Loaded, String> {
    read_ll_with(file, text, &MapOptions::default())
}

/// [`read_ll`] mapped with `opts` (the launch the user states).
pub fn read_ll_with(
    file: &str,
    text: &str,
    opts: &MapOptions,
) -> std::result::Result<Loaded, String> {
    parse_ll_with(file, text, opts).map_err(|e| e.to_string())
}

/// [`read_ll`] with the parse errors as a list, each with its line and
/// column (the explorer marks them in its editor).
pub fn parse_ll(
    file: &str,
    text: &str,
) -> std::result::Result<Loaded, convcheck_llvm::ParseErrors> {
    parse_ll_with(file, text, &MapOptions::default())
}

fn parse_ll_with(
    file: &str,
    text: &str,
    opts: &MapOptions,
) -> std::result::Result<Loaded, convcheck_llvm::ParseErrors> {
    let m = convcheck_llvm::parse_module(text, file)?;
    let mapped = to_module_with(&m, file, opts);
    let lines: Vec<&str> = text.lines().collect();
    let mut defined = Vec::new();
    let mut bodies = HashMap::new();
    let mut function_lines = HashMap::new();
    let mut kernels = Vec::new();
    let mut function_orderings = HashMap::new();
    for f in m.defined_functions() {
        let name = convcheck_llvm::to_ir::plain_name(&f.name);
        function_orderings.insert(name.clone(), orderings::Orderings::of(f));
        if m.is_kernel(f) {
            kernels.push(name.clone());
        }
        function_lines.insert(name.clone(), f.span.line);
        let first = f.span.line.saturating_sub(1) as usize;
        let last = f
            .blocks
            .iter()
            .flat_map(|b| b.instructions.iter())
            .map(|i| i.line() as usize)
            .max()
            .unwrap_or(first + 1);
        // The body without the `define` line (attributes a pass adds do not
        // change the CFG), comments, attribute groups and metadata numbers
        // (opt renumbers them).
        let body = lines
            .get((first + 1).min(last)..last.min(lines.len()).max(first))
            .map(|ls| {
                ls.iter()
                    .map(|l| normalized(l))
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        bodies.insert(name.clone(), body);
        defined.push(name);
    }
    let bodies = stage_keys(&lines, &bodies, &m);
    let callers_only = callers_only(&lines, &m);
    let violations = convcheck_llvm::verify::convergence(&m);
    Ok(Loaded {
        file: file.to_string(),
        text: text.to_string(),
        mapped,
        defined,
        bodies,
        violations,
        lines: function_lines,
        orderings: function_orderings,
        source: None,
        kernels,
        callers_only,
    })
}

/// The stage key of each function (review2 G5): its body, then what its
/// meaning depends on outside it, attribute groups `#N` replaced by their
/// contents (opt renumbers them, and prints inline attributes as groups):
/// the line declaring each global it names (a
/// callee's `declare` or `define` line, a global variable's line with its
/// initializer; not `llvm.*` intrinsics, whose attributes LLVM fixes and
/// opt prints whether or not the input wrote them), and the keys of the
/// defined functions it names, transitively. Header lines are compared as
/// sorted words (opt orders attributes its own way). A pass that changes
/// only attributes, an initializer or a declaration changes the key, so
/// it is a stage of its own and is blamed for what it did.
fn stage_keys(
    lines: &[&str],
    bodies: &HashMap<String, String>,
    m: &convcheck_llvm::Module,
) -> HashMap<String, String> {
    let mut groups: HashMap<String, String> = HashMap::new();
    let mut headers: HashMap<String, String> = HashMap::new();
    for l in lines {
        let t = l.trim_start();
        if let Some(rest) = t.strip_prefix("attributes ") {
            if let Some((g, body)) = rest.split_once('=') {
                let body = body.trim().trim_start_matches('{').trim_end_matches('}');
                groups.insert(
                    g.trim().to_string(),
                    body.split_whitespace().collect::<Vec<_>>().join(" "),
                );
            }
        } else if t.starts_with("declare ") || t.starts_with("define ") || t.starts_with('@') {
            if let Some(n) = global_names(t).into_iter().next() {
                headers.insert(n, t.to_string());
            }
        }
    }
    let resolved = |l: &str| -> String {
        let words: Vec<String> = l
            .split_whitespace()
            .map(|w| {
                let bare = w.trim_end_matches(',');
                match groups.get(bare) {
                    Some(g) => g.clone(),
                    None => w.to_string(),
                }
            })
            .collect();
        normalized(&words.join(" "))
    };
    let header = |l: &str| -> String {
        let r = legacy_memory(&resolved(l));
        let mut words: Vec<&str> = r
            .split_whitespace()
            // Braces, and the words no rule of the model reads, which
            // attribute inference adds (GlobalOpt the address qualifiers,
            // InferFunctionAttrs `mustprogress` on declarations).
            .filter(|w| !IGNORED_IN_KEYS.contains(w))
            .collect();
        words.sort_unstable();
        words.join(" ")
    };
    let mut keys = HashMap::new();
    for f in m.defined_functions() {
        let name = convcheck_llvm::to_ir::plain_name(&f.name);
        let mut key = String::new();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut todo = vec![name.clone()];
        while let Some(n) = todo.pop() {
            if !seen.insert(n.clone()) {
                continue;
            }
            if n.starts_with("llvm.") {
                continue;
            }
            // Not the function's own `define` line: what attribute
            // inference adds there (`nofree`, `memory(...)`) does not change
            // its body's meaning (it matters to its callers, whose keys
            // hold it).
            if let Some(h) = headers.get(&n).filter(|_| n != name) {
                key.push_str(&header(h));
                key.push('\n');
            }
            if bodies.contains_key(&n) {
                // The body, call-site attribute groups resolved.
                let first = m
                    .defined_functions()
                    .find(|g| convcheck_llvm::to_ir::plain_name(&g.name) == n)
                    .map(|g| g.span.line as usize);
                if let Some(first) = first {
                    for l in lines.iter().skip(first) {
                        if l.trim_start().starts_with('}') {
                            break;
                        }
                        todo.extend(global_names(l));
                        let line = resolved(l);
                        if !line.is_empty() {
                            key.push_str(&line);
                            key.push('\n');
                        }
                    }
                }
            }
        }
        keys.insert(name, key);
    }
    keys
}

/// `line` with the memory attributes of before LLVM 16 (`readnone`,
/// `readonly`, `writeonly`, `argmemonly`, `inaccessiblememonly`,
/// `inaccessiblemem_or_argmemonly`) written as the `memory(...)` that opt
/// prints for them, so that a hand-written declaration and opt's printing
/// of it give one stage key. A line that already has `memory(` is left
/// as it is.
fn legacy_memory(line: &str) -> String {
    const LEGACY: [&str; 6] = [
        "readnone",
        "readonly",
        "writeonly",
        "argmemonly",
        "inaccessiblememonly",
        "inaccessiblemem_or_argmemonly",
    ];
    let words: Vec<&str> = line.split_whitespace().collect();
    if line.contains("memory(") || !words.iter().any(|w| LEGACY.contains(w)) {
        return line.to_string();
    }
    let has = |w: &str| words.contains(&w);
    let access = if has("readnone") {
        "none"
    } else if has("readonly") {
        "read"
    } else if has("writeonly") {
        "write"
    } else {
        "readwrite"
    };
    let memory = if access == "none" {
        "memory(none)".to_string()
    } else if has("inaccessiblemem_or_argmemonly") {
        format!("memory(argmem: {access}, inaccessiblemem: {access})")
    } else if has("argmemonly") {
        format!("memory(argmem: {access})")
    } else if has("inaccessiblememonly") {
        format!("memory(inaccessiblemem: {access})")
    } else {
        format!("memory({access})")
    };
    let mut out: Vec<&str> = words.into_iter().filter(|w| !LEGACY.contains(w)).collect();
    out.push(&memory);
    out.join(" ")
}

/// Words of a header line left out of a stage key: what no rule of the
/// model reads (checked by `grep` of `model/` and `checker/src` when
/// written), braces of attribute groups.
const IGNORED_IN_KEYS: [&str; 10] = [
    "{",
    "}",
    "local_unnamed_addr",
    "unnamed_addr",
    "dso_local",
    "mustprogress",
    "nofree",
    "nosync",
    "nocallback",
    "norecurse",
];

/// The defined functions of local linkage whose every mention in the
/// module (but their own `define` line) is the callee of a direct call.
fn callers_only(lines: &[&str], m: &convcheck_llvm::Module) -> Vec<String> {
    use convcheck_llvm::module::Linkage;
    let mut mentions: HashMap<String, usize> = HashMap::new();
    for l in lines {
        let t = l.trim_start();
        if t.starts_with("define ") || t.starts_with(';') {
            continue;
        }
        for n in global_names(l) {
            *mentions.entry(n).or_insert(0) += 1;
        }
    }
    let mut calls: HashMap<String, usize> = HashMap::new();
    for g in m.defined_functions() {
        for (_, c) in g.calls() {
            if let Some(n) = c.callee.as_global() {
                *calls
                    .entry(convcheck_llvm::to_ir::plain_name(n))
                    .or_insert(0) += 1;
            }
        }
    }
    m.defined_functions()
        .filter(|f| {
            matches!(
                f.qualifiers.linkage,
                Some(Linkage::Internal | Linkage::Private)
            )
        })
        .map(|f| convcheck_llvm::to_ir::plain_name(&f.name))
        .filter(|n| mentions.get(n).copied().unwrap_or(0) == calls.get(n).copied().unwrap_or(0))
        .collect()
}

/// The global names (`@name`, `@"name"`) a line of text mentions, in order
/// (without the `@`; quoted names without their quotes).
fn global_names(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find('@') {
        let after = &rest[i + 1..];
        let (n, len) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(e) => (q[..e].to_string(), e + 2),
                None => break,
            }
        } else {
            let e = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || "._$-".contains(c)))
                .unwrap_or(after.len());
            (after[..e].to_string(), e)
        };
        if !n.is_empty() {
            out.push(n);
        }
        rest = &after[len.min(after.len())..];
    }
    out
}

/// A line of a function body without its comment, `#N` attribute group
/// references and `!N` metadata references, its words single-spaced.
fn normalized(line: &str) -> String {
    let mut in_string = false;
    let mut code = String::new();
    for c in line.chars() {
        if c == '"' {
            in_string = !in_string;
        }
        if c == ';' && !in_string {
            break;
        }
        code.push(c);
    }
    code.split_whitespace()
        .filter(|w| {
            let w = w.trim_end_matches(',');
            let numbered = |p: char| {
                w.strip_prefix(p)
                    .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
            };
            !numbered('#') && !numbered('!')
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads an `.ll` file; errors name file, line and column.
pub fn load_ll(path: &str) -> Result<Loaded> {
    load_ll_with(path, &MapOptions::default())
}

/// [`load_ll`] mapped with `opts` (the launch the user states).
pub fn load_ll_with(path: &str, opts: &MapOptions) -> Result<Loaded> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::usage(format!("{path}: cannot read: {e}")))?;
    read_ll_with(path, &text, opts).map_err(Error::input)
}

/// Compiles `path` with clang as `o` says and reads the output
/// (`PATH.ll` in messages) with its ops at their source positions.
pub fn load_source(path: &str, o: &LlvmOptions) -> Result<(Loaded, frontend::Compiled)> {
    let compiled = frontend::compile_with(path, &o.clang(), o.timeout()).map_err(Error::tool)?;
    let loaded = read_ll_with(&format!("{path}.ll"), &compiled.text, &o.map_options())
        .map_err(|e| {
            Error::tool(format!(
                "{}: convcheck cannot read its output: {e}",
                compiled.command
            ))
        })?
        .at_source_lines(path);
    Ok((loaded, compiled))
}
