//! convcheck's IR written as LLVM IR (DESIGN.md 2.1: "our CFGs can be
//! handed to `opt-19`").
//!
//! [`module_text`] prints a [`convcheck_ir::Module`] as LLVM IR that
//! `opt -passes=verify` accepts and that [`crate::to_ir::to_module`] reads
//! back to the same CFG: the same blocks (names and order), the same
//! successors, the same convergent operations by label in the same order,
//! the same oracles; expressions may change form (`(a < b)` becomes an
//! `icmp` whose `i1` is widened back with `zext`). What LLVM has no word
//! for follows a convention, documented in `docs/src/llvm.md`:
//!
//! - every value is an `i64`; `tid` is `call i64 @convcheck.tid()` and `N`
//!   is `call i64 @convcheck.group_size()` (both `memory(none)`);
//! - a read of oracle `NAME` is `call i64 @"oracle.NAME"()`, a
//!   non-convergent external function (`memory(none)` when the oracle is
//!   invariant), and the oracle table (class and domain of every oracle)
//!   is the named metadata `!convcheck.oracles`;
//! - an observation point labelled `L` is `call void @L()`, declared
//!   `convergent` with the string attribute `"convcheck.observe"`; a
//!   convergent operation is a call to its callee declared `convergent`
//!   (with `memory(none)` at the call site when the op accesses no
//!   memory, `convcheck_ir::OpInfo::memory_none`);
//!   a call to a non-convergent external function a call to one declared
//!   without it (both declared `i64 (...)`, and called as `void` where the
//!   IR does not take the value, so that the reader reads no oracle
//!   there); a real call a call to the defined function (every defined
//!   function is `convergent`, as the model says);
//! - a label or an oracle name that differs from what the reader would
//!   take from the callee's name is the call-site string attribute
//!   `"convcheck.label"` / `"convcheck.oracle"`, a parameter's oracle the
//!   parameter attribute `"convcheck.oracle"`, and a memory access's label
//!   and oracle the attachments `!convcheck.label` / `!convcheck.oracle`;
//! - barriers are `llvm.nvvm.barrier0` (or the plain barrier the IR names,
//!   when the reader knows it), data-carrying barriers
//!   `@__syncthreads_count` / `_and` / `_or` taking and returning `i64`,
//!   fences `@__threadfence`;
//! - memory is three arrays of `i64`, `@convcheck.shared` (address space
//!   3), `@convcheck.global` (1) and `@convcheck.local` (5), whose base the
//!   reader takes as 0, so an access to `shared[i]` is a `getelementptr i64`
//!   of `i` into `@convcheck.shared`;
//! - tokens are the real intrinsics with `"convergencectrl"` bundles on the
//!   convergent calls of the instruction that uses them;
//! - locals live in `alloca`s (so that a local set in several blocks needs
//!   no SSA construction); a parameter that is never set is used directly;
//!   an IR phi is an LLVM phi of values computed at the end of each
//!   predecessor, stored to the phi's local;
//! - when the IR's entry block has predecessors (LLVM's entry may have
//!   none), a first block `convcheck.entry` holds the allocas and branches
//!   to it; the reader drops it again when nothing else is in it (it stays
//!   when it copies a parameter that the IR sets).
//!
//! Limits, each keeping the semantics but not the shape: an `&&`, `||` or
//! `?:` whose skipped side reads an oracle, calls or touches memory is
//! written with branches (extra blocks named `BLOCK.lazyN`), and a phi's
//! incoming value with such an effect, in a block with several successors,
//! is computed on an edge block of its own (`PRED.to.SUCC`). A local read
//! before it is set is 0 in the IR but undefined in LLVM (allocas start
//! undefined); the kernel language always sets a local before reading it.
//! A module that itself defines a function named `convcheck.tid`,
//! `convcheck.group_size` or `oracle.NAME` gets renamed helpers, which
//! read back as external calls.
#![deny(unsafe_code)]

mod body;
mod expr;
mod floats;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use convcheck_ir::Module;

use crate::to_ir::demangled_base;
use crate::value::Name;

/// Writes `m` as LLVM IR text (see the module documentation).
pub fn module_text(m: &Module) -> String {
    let mut w = Writer {
        m,
        decls: Vec::new(),
        declared: HashMap::new(),
        groups: Vec::new(),
        group_ix: HashMap::new(),
        metadata: Vec::new(),
        uses_space: [false; 3],
        defined: m.functions.iter().map(|f| f.name.clone()).collect(),
    };
    let mut bodies = String::new();
    for f in &m.functions {
        bodies.push_str(&body::function(&mut w, f));
        bodies.push('\n');
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; convcheck IR written as LLVM IR (convcheck-llvm, write::module_text)"
    );
    let _ = writeln!(out, "source_filename = {}\n", llvm_string(&m.name));
    for (i, (space, aspace)) in [("shared", 3), ("global", 1), ("local", 5)]
        .iter()
        .enumerate()
    {
        if w.uses_space[i] {
            let _ = writeln!(
                out,
                "@convcheck.{space} = external addrspace({aspace}) global [0 x i64]"
            );
        }
    }
    if w.uses_space.iter().any(|u| *u) {
        out.push('\n');
    }
    out.push_str(&bodies);
    for d in &w.decls {
        let _ = writeln!(out, "{d}");
    }
    if !w.decls.is_empty() {
        out.push('\n');
    }
    for (i, g) in w.groups.iter().enumerate() {
        let _ = writeln!(out, "attributes #{i} = {{ {g} }}");
    }
    if !w.groups.is_empty() {
        out.push('\n');
    }
    // The oracle table, then the strings the attachments name.
    let first = w.metadata.len();
    let refs: Vec<String> = (0..m.oracles.len())
        .map(|i| format!("!{}", first + i))
        .collect();
    let _ = writeln!(out, "!convcheck.oracles = !{{{}}}", refs.join(", "));
    for (i, s) in w.metadata.iter().enumerate() {
        let _ = writeln!(out, "!{i} = !{{!{}}}", llvm_string(s));
    }
    for (i, o) in m.oracles.iter().enumerate() {
        let dom: Vec<String> = o.domain.iter().map(i64::to_string).collect();
        let _ = writeln!(
            out,
            "!{} = !{{!{}, !{}, !{}}}",
            first + i,
            llvm_string(&o.name),
            llvm_string(o.class.name()),
            llvm_string(&dom.join(","))
        );
    }
    out
}

/// What a declared function is for, so that one name never serves two.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    Observe,
    Convergent,
    Plain,
    Oracle,
    Builtin,
}

/// The module-wide state of the writer.
pub(crate) struct Writer<'m> {
    m: &'m Module,
    decls: Vec<String>,
    declared: HashMap<String, Role>,
    groups: Vec<String>,
    group_ix: HashMap<String, usize>,
    metadata: Vec<String>,
    /// Whether `@convcheck.shared`, `.global`, `.local` are used.
    uses_space: [bool; 3],
    defined: HashSet<String>,
}

impl Writer<'_> {
    /// The number of the attribute group with exactly these attributes.
    fn group(&mut self, attrs: &str) -> usize {
        if let Some(&i) = self.group_ix.get(attrs) {
            return i;
        }
        self.groups.push(attrs.to_string());
        self.group_ix
            .insert(attrs.to_string(), self.groups.len() - 1);
        self.groups.len() - 1
    }

    /// A metadata node `!{!"s"}`, as its reference.
    fn md(&mut self, s: &str) -> String {
        let i = match self.metadata.iter().position(|x| x == s) {
            Some(i) => i,
            None => {
                self.metadata.push(s.to_string());
                self.metadata.len() - 1
            }
        };
        format!("!{i}")
    }

    /// The name under which a function for `role` called (preferably)
    /// `want` is declared, declaring it on first use with `decl`, a
    /// function of the final name returning the declaration line.
    fn declare(&mut self, want: &str, role: Role, decl: impl Fn(&str) -> String) -> String {
        let mut name = want.to_string();
        let mut k = 0;
        loop {
            let taken_by_definition = self.defined.contains(&name);
            match self.declared.get(&name) {
                Some(r) if *r == role && !taken_by_definition => return name,
                None if !taken_by_definition => break,
                _ => {
                    k += 1;
                    name = format!("{want}.convcheck{k}");
                }
            }
        }
        self.declared.insert(name.clone(), role);
        let line = decl(&global(&name));
        self.decls.push(line);
        name
    }

    fn oracle_decl(&mut self, o: usize) -> String {
        let info = &self.m.oracles[o];
        let invariant = info.class.is_invariant();
        let attrs = if invariant {
            "nounwind willreturn memory(none)"
        } else {
            "nounwind"
        };
        let g = self.group(attrs);
        let want = format!("oracle.{}", info.name);
        self.declare(&want, Role::Oracle, |n| format!("declare i64 {n}() #{g}"))
    }

    fn builtin_decl(&mut self, name: &str, sig: &str, attrs: &str) -> String {
        let g = self.group(attrs);
        let (ret, params) = sig.split_once('|').unwrap_or((sig, ""));
        self.declare(name, Role::Builtin, |n| {
            format!("declare {ret} {n}({params}) #{g}")
        })
    }
}

/// How the reader names a callee by default: its demangled base name.
fn shown(name: &str) -> &str {
    demangled_base(name).unwrap_or(name)
}

/// `@name`, quoted when needed.
fn global(name: &str) -> String {
    format!("@{}", Name::Named(name.to_string()))
}

/// `%name`, quoted when needed.
fn local(name: &str) -> String {
    format!("%{}", Name::Named(name.to_string()))
}

/// A string literal in LLVM's syntax: `"` and `\` and non-printable bytes
/// as `\XX`.
fn llvm_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        if b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b) {
            let _ = write!(out, "\\{b:02X}");
        } else {
            out.push(b as char);
        }
    }
    out.push('"');
    out
}
