//! LLVM IR to convcheck's IR (DESIGN.md 2.9, "LLVM IR as input").
//!
//! [`to_module`] maps every function an LLVM module defines to a
//! [`convcheck_ir::Cfg`], or lists it in [`Mapped::skipped`] with the first
//! construct outside the model named ([`Unsupported`]): a function is
//! mapped faithfully or not at all, never approximately. The decisions are
//! written out in `docs/src/llvm.md`; in short:
//!
//! - **Values.** Integer SSA values (and pointers, which are integers: byte
//!   addresses) become locals named without the `%` sigil (`%7` is `7`);
//!   `phi` becomes [`InstKind::Phi`](convcheck_ir::InstKind::Phi). A value
//!   of type `iN` with `N < 64` is held as any 64-bit value whose low `N`
//!   bits are right; operations whose result depends on the high bits
//!   normalise their operands with `sextN` / `zextN` (`to_ir/values.rs`).
//! - **Calls** (`to_ir/calls.rs`, `to_ir/builtins.rs`): convergent calls are convergent
//!   operations labelled by the callee; barriers, fences, thread-id and
//!   group-size builtins are recognised by name (OpenCL's by demangled base
//!   name); other external calls are varying oracles; calls to defined
//!   functions are real calls; `convergencectrl` bundles and the three
//!   convergence intrinsics are tokens.
//! - **Parameters** are per-thread values: an `invariant` oracle named after
//!   the parameter, `uniform` when the parameter is `inreg`.
//! - **Memory** (`to_ir/memory.rs`): allocas used only by direct loads and stores
//!   are promoted to locals; other accesses are memory events in the space
//!   of their address space (3 shared, 5 and allocas local, others global),
//!   at an integer address (a distinct base per global plus the offset),
//!   and loads return a free value named after the location's base.
//! - **Labels and oracle names** come from callee, global and parameter
//!   names, never from positions, so a function before and after `opt`
//!   gets the same ones.
//!
//! The LLVM IR that [`crate::write`] prints carries a few conventions of
//! its own (labels and oracle names as string attributes, the oracle table
//! as named metadata; see `to_ir/conventions.rs`), which this reader honours, so
//! writing a module and reading it back gives the same CFG.
#![deny(unsafe_code)]

mod aggregates;
pub(crate) mod analyse;
mod asm;
mod atomics;
mod blocks;
mod bounds;
mod builtins;
mod call_reads;
mod calls;
mod capture;
mod constants;
mod conventions;
mod crosslane;
mod domains;
mod effects;
mod facts;
mod floats;
mod fresh;
mod func;
mod gep_flags;
mod groups;
mod intrinsics;
mod layout;
mod mem_intrinsics;
mod memory;
mod memory_version;
mod never_written;
mod poison;
mod pure_calls;
mod ranges;
pub mod spurious;
mod uninit;
mod values;
mod wide_mul;

use std::collections::{HashMap, HashSet};
use std::fmt;

use convcheck_ir::{Module, OpInfo, OracleClass, OracleId, OracleInfo, Pos, Span};

use crate::module::Module as LlvmModule;
use crate::value::Name;

pub use builtins::demangled_base;

/// Whether the reader takes a call to `name` for a plain barrier by its
/// name alone (so that the writer may keep the name).
pub(crate) fn builtins_classify_plain_barrier(name: &str) -> bool {
    matches!(
        builtins::classify(name, None),
        Some(builtins::Builtin::Barrier(convcheck_ir::BarrierKind::Plain))
    )
}

/// The result of [`to_module`]: the mapped functions, and those that could
/// not be mapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapped {
    /// The module of every function that was mapped.
    pub module: Module,
    /// The functions that were not mapped, in module order, each with the
    /// first construct outside the model.
    pub skipped: Vec<Unsupported>,
}

/// A function that was not mapped, and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Unsupported {
    /// The function's name, without `@`.
    pub function: String,
    /// The first construct outside the model: `floating point (fadd)`,
    /// `indirect call`, `intrinsic llvm.ctpop.i32`, ...
    pub construct: String,
    /// The line of the instruction (or definition) that uses it.
    pub line: u32,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "@{} (line {}): uses {}, which convcheck does not model",
            self.function, self.line, self.construct
        )
    }
}

/// Why one function cannot be mapped: the construct and its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unsup {
    pub construct: String,
    pub line: u32,
}

/// A mapping result inside a function.
pub(crate) type R<T> = Result<T, Unsup>;

/// `Err(Unsup)` for `construct` at `line`.
pub(crate) fn unsup<T>(construct: impl Into<String>, line: u32) -> R<T> {
    Err(Unsup {
        construct: construct.into(),
        line,
    })
}

/// A name as convcheck's IR spells it: without the sigil, numbers as their
/// digits.
pub fn plain_name(n: &Name) -> String {
    plain(n)
}

pub(crate) fn plain(n: &Name) -> String {
    match n {
        Name::Named(s) => s.clone(),
        Name::Numbered(k) => k.to_string(),
    }
}

/// A one-character span at a line and column of the input.
pub(crate) fn span_at(line: u32, col: u32) -> Span {
    Span::new(
        Pos { line, col },
        Pos {
            line,
            col: col.saturating_add(1),
        },
    )
}

/// The op and oracle tables being built for one module.
#[derive(Default)]
pub(crate) struct Tables {
    pub ops: Vec<OpInfo>,
    pub oracles: Vec<OracleInfo>,
    by_name: HashMap<String, OracleId>,
    /// Oracles whose class and domain the module states itself (the
    /// `!convcheck.oracles` table that [`crate::write`] prints).
    pub stated: HashMap<String, (OracleClass, Vec<i64>)>,
}

impl Tables {
    /// The oracle called `name` with class `class`, created on first use.
    /// A name already taken by an oracle of another class gets the class
    /// as a suffix (`c.invariant`), so two different sources of values never
    /// share an oracle. A class the module states itself wins.
    pub fn oracle(&mut self, name: &str, class: OracleClass, span: Span) -> OracleId {
        let (class, domain) = match self.stated.get(name) {
            Some((c, d)) => (*c, d.clone()),
            None => (class, vec![0, 1]),
        };
        let mut key = name.to_string();
        if let Some(&id) = self.by_name.get(&key) {
            if self.oracles[id].class == class {
                return id;
            }
            key = format!("{name}.{}", class.name());
            if let Some(&id) = self.by_name.get(&key) {
                return id;
            }
        }
        let id = self.oracles.len();
        self.oracles.push(OracleInfo {
            name: key.clone(),
            class,
            domain,
            span,
        });
        self.by_name.insert(key, id);
        id
    }

    /// Forgets the ops and oracles made after `mark` (the table lengths),
    /// when the function that made them turns out to be unsupported.
    pub fn rollback(&mut self, mark: (usize, usize)) {
        self.ops.truncate(mark.0);
        self.oracles.truncate(mark.1);
        self.by_name.retain(|_, id| *id < mark.1);
    }

    /// A new op.
    pub fn op(&mut self, info: OpInfo) -> convcheck_ir::OpId {
        let id = convcheck_ir::OpId(self.ops.len() as u32);
        self.ops.push(info);
        id
    }
}

/// How [`to_module_with`] maps a module. The default is what every check
/// of a transform uses ([`to_module`]); the uniformity oracle asks for
/// every value and for opaque calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapOptions {
    /// Every SSA value of integer or pointer type gets a local named after
    /// it, used or not: loads, builtins and pure calls whose value nothing
    /// uses, and the addresses (`getelementptr`, pointer casts, allocas
    /// kept in memory) that the default mapping folds into the accesses
    /// that use them. The oracle of a load is named after the loaded value
    /// (`%v`) rather than its location, so that each load can be given its
    /// own class. Default off.
    pub every_value: bool,
    /// Calls are opaque values: a call to a defined function, to an
    /// intrinsic outside the model, or to an external function is an
    /// oracle read named after its result (`%r`, a varying oracle that the
    /// caller may reclassify), never a real call and never a reason to skip
    /// the function; a call without a result is dropped, unless it is
    /// convergent (an event, as before) or a barrier, a fence or a token.
    /// Default off.
    pub opaque_calls: bool,
    /// `undef` and `poison` integer operands read the varying oracle
    /// [`UNDEF_ORACLE`] (a fresh value at every evaluation, so a caller can
    /// tell which values depend on one) instead of being 0. Default off.
    pub undef_oracle: bool,
    /// Poison is not tracked ([`poison`]): no shadows, no blocks split
    /// before branches, divisions, `noundef` arguments and assumes (the
    /// uniformity oracle, whose claims name LLVM's blocks and values, and
    /// which reads `undef` through [`Self::undef_oracle`]). Default off.
    pub unchecked_poison: bool,
    /// What the user states about the launch (`--block-dim`, `--grid-dim`,
    /// `--warp-size`): group sizes, group counts and the warp size become
    /// those constants instead of values within their ranges
    /// ([`groups`]). Default: nothing stated.
    pub gpu: GpuFacts,
    /// Calls to external functions are the kernel language's oracles and
    /// nothing more: no call is an observed event for its possible
    /// effects ([`effects`]). The source-level reference of a C file
    /// (seed 000's semantics, in which an external function such as
    /// `c()` is an oracle without effects) reads the file so, and every
    /// LLVM module checked against it must too. Default off.
    pub calls_as_oracles: bool,
}

pub use groups::GpuFacts;

/// The oracle `undef` and `poison` operands read under
/// [`MapOptions::undef_oracle`].
pub const UNDEF_ORACLE: &str = "undef";

/// Maps every function `m` defines (see the module documentation). `name`
/// names the resulting module in messages (usually the file name).
pub fn to_module(m: &LlvmModule, name: &str) -> Mapped {
    to_module_with(m, name, &MapOptions::default())
}

/// [`to_module`] with options (see [`MapOptions`]).
pub fn to_module_with(m: &LlvmModule, name: &str, opts: &MapOptions) -> Mapped {
    let stated = conventions::oracle_table(m);
    let layout = layout::Layout::new(m);
    let globals = memory::Globals::new(m, &layout);
    let defined: Vec<&crate::module::Function> = m.defined_functions().collect();
    let versioned =
        !opts.calls_as_oracles && !opts.opaque_calls && memory_version::needed(m, opts.every_value);
    let mut failed: HashMap<usize, Unsup> = HashMap::new();
    // Round one finds the functions that use something outside the model;
    // a caller of a skipped function is skipped too (its calls could not be
    // real calls). Round two maps the rest with their final ids; should it
    // find another failure (it should not), the rounds repeat without it.
    loop {
        let survivors: Vec<usize> = (0..defined.len())
            .filter(|i| !failed.contains_key(i))
            .collect();
        let ids: HashMap<&Name, usize> = survivors
            .iter()
            .enumerate()
            .map(|(new, &old)| (&defined[old].name, new))
            .collect();
        let skipped_names: HashSet<&Name> = failed.keys().map(|&i| &defined[i].name).collect();
        let ctx = func::Ctx {
            m,
            layout: &layout,
            globals: &globals,
            ids: &ids,
            skipped: &skipped_names,
            opts,
            versioned,
        };
        let mut tables = Tables {
            stated: stated.clone(),
            ..Tables::default()
        };
        let mut functions = Vec::new();
        let mut new_failures = Vec::new();
        for (fid, &i) in survivors.iter().enumerate() {
            let mark = (tables.ops.len(), tables.oracles.len());
            match func::map_function(&ctx, &mut tables, defined[i], fid) {
                Ok(cfg) => functions.push(cfg),
                Err(e) => {
                    tables.rollback(mark);
                    new_failures.push((i, e));
                }
            }
        }
        if new_failures.is_empty() {
            domains::widen(&mut tables, &functions);
            let module = Module {
                name: name.to_string(),
                max_group: groups::max_group(m),
                ops: tables.ops,
                oracles: tables.oracles,
                functions,
            };
            let mut skipped: Vec<(usize, Unsupported)> = failed
                .into_iter()
                .map(|(i, e)| {
                    (
                        i,
                        Unsupported {
                            function: plain(&defined[i].name),
                            construct: e.construct,
                            line: e.line,
                        },
                    )
                })
                .collect();
            skipped.sort_by_key(|(i, _)| *i);
            return Mapped {
                module,
                skipped: skipped.into_iter().map(|(_, u)| u).collect(),
            };
        }
        for (i, e) in new_failures {
            failed.insert(i, e);
        }
        propagate(&defined, &mut failed);
    }
}

/// Marks every caller of a failed function as failed, transitively, naming
/// the first call to a skipped function.
fn propagate(defined: &[&crate::module::Function], failed: &mut HashMap<usize, Unsup>) {
    let index: HashMap<&Name, usize> = defined
        .iter()
        .enumerate()
        .map(|(i, f)| (&f.name, i))
        .collect();
    // Who calls whom, with the line of each caller's first call.
    let mut callers: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, f) in defined.iter().enumerate() {
        let mut seen = HashSet::new();
        for (_, c) in f.calls() {
            if let Some(&g) = c.callee.as_global().and_then(|n| index.get(n)) {
                if seen.insert(g) {
                    callers.entry(g).or_default().push(i);
                }
            }
        }
    }
    let mut work: Vec<usize> = failed.keys().copied().collect();
    work.sort_unstable();
    while let Some(g) = work.pop() {
        for &i in callers.get(&g).map(Vec::as_slice).unwrap_or(&[]) {
            if failed.contains_key(&i) {
                continue;
            }
            let bad: HashSet<&Name> = failed.keys().map(|&k| &defined[k].name).collect();
            let first = defined[i].calls().find_map(|(inst, c)| {
                let callee = c.callee.as_global()?;
                bad.contains(callee).then(|| Unsup {
                    construct: format!("a call to @{callee}, which is not mapped"),
                    line: inst.line(),
                })
            });
            if let Some(e) = first {
                failed.insert(i, e);
                work.push(i);
            }
        }
    }
}
