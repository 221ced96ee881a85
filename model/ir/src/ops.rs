//! The op table and the oracle table: what every static operation of a
//! module is, and where per-thread values come from (DESIGN.md 2.1, 2.2).
//!
//! Every static operation that can produce a dynamic instance (a statement,
//! an observation point, a call, a memory access) has an [`OpId`]. Events,
//! keys, trace tables and hazard reports name operations by id and read
//! their label and location here, so none of them needs the program that
//! produced the module. A front end decides the numbering: the kernel
//! language numbers its statements and eventful expressions in pre-order
//! (so comparing ids compares source positions); the LLVM reader numbers
//! instructions in order.
//!
//! An *oracle* is a named source of per-thread values: a condition the model
//! does not compute, a kernel parameter, the result of a non-convergent
//! external call, a load. Oracles are named by what they are, never by
//! their position alone, and their [`OracleClass`] says how values relate
//! across threads.

use crate::span::Span;

/// A static operation: an index into [`crate::Module::ops`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct OpId(pub u32);

/// Index of a function in [`crate::Module::functions`].
pub type FuncId = usize;

/// Index of an oracle in [`crate::Module::oracles`].
pub type OracleId = usize;

/// The three memory spaces (DESIGN.md 2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    /// `shared[...]` (LLVM address space 3): one array per group.
    Shared,
    /// `global[...]` (address spaces 0 and 1): one array for every group.
    Global,
    /// `local[...]` (address space 5, `alloca`): private to each thread;
    /// never races.
    Local,
}

impl Space {
    /// The reserved array name.
    pub fn name(self) -> &'static str {
        match self {
            Space::Shared => "shared",
            Space::Global => "global",
            Space::Local => "local",
        }
    }

    /// The space called `name`.
    pub fn from_name(name: &str) -> Option<Space> {
        match name {
            "shared" => Some(Space::Shared),
            "global" => Some(Space::Global),
            "local" => Some(Space::Local),
            _ => None,
        }
    }
}

/// How an oracle's values relate across threads (DESIGN.md 2.1, 2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OracleClass {
    /// A fresh, possibly divergent value at every evaluation.
    Varying,
    /// The same in all threads at their k-th evaluation.
    Uniform,
    /// Never changes within a thread.
    Invariant,
    /// Uniform and invariant: one value for the whole run, the same in
    /// every thread (a kernel argument; `uniform(invariant(c))`).
    #[serde(rename = "uniform_invariant")]
    UniformInvariant,
    /// A function of the reading call's arguments within a thread: one
    /// value per argument list, whatever the order or number of reads (the
    /// result of a `memory(none)` call; DESIGN.md 2.9, "Values"). A read
    /// is a free value named `NAME(a,b)` after the oracle and the
    /// arguments' values, as a free memory location is named.
    Function,
    /// A value the program itself chooses, fresh at every evaluation as a
    /// varying one (`freeze undef`, `freeze poison`: LangRef's
    /// nondeterminism). In a reference it is the reference's choice: a
    /// target run refines the reference when *some* choice of these
    /// values matches it (Alive2's angelic reading of the source); in a
    /// target each value is the target's, so every one must match
    /// (docs/src/semantics.md, "A reference's choice").
    Choice,
}

impl OracleClass {
    /// The class's name in text forms.
    pub fn name(self) -> &'static str {
        match self {
            OracleClass::Varying => "varying",
            OracleClass::Uniform => "uniform",
            OracleClass::Invariant => "invariant",
            OracleClass::UniformInvariant => "uniform_invariant",
            OracleClass::Function => "function",
            OracleClass::Choice => "choice",
        }
    }

    /// Whether threads that read it in one converged dynamic instance see
    /// one value (`uniform` and `uniform_invariant`).
    pub fn is_uniform(self) -> bool {
        matches!(self, OracleClass::Uniform | OracleClass::UniformInvariant)
    }

    /// Whether a thread reads one value at every evaluation (`invariant`
    /// and `uniform_invariant`).
    pub fn is_invariant(self) -> bool {
        matches!(self, OracleClass::Invariant | OracleClass::UniformInvariant)
    }

    /// The class called `name`.
    pub fn from_name(name: &str) -> Option<OracleClass> {
        match name {
            "varying" => Some(OracleClass::Varying),
            "uniform" => Some(OracleClass::Uniform),
            "invariant" => Some(OracleClass::Invariant),
            "uniform_invariant" => Some(OracleClass::UniformInvariant),
            "function" => Some(OracleClass::Function),
            "choice" => Some(OracleClass::Choice),
            _ => None,
        }
    }
}

/// Barrier kinds (DESIGN.md 2.1, 2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BarrierKind {
    /// `__syncthreads()` / `barrier(...)`.
    Plain,
    /// `__syncthreads_count(p)`.
    Count,
    /// `__syncthreads_and(p)`.
    And,
    /// `__syncthreads_or(p)`.
    Or,
}

impl BarrierKind {
    /// The kind's name in text forms.
    pub fn name(self) -> &'static str {
        match self {
            BarrierKind::Plain => "plain",
            BarrierKind::Count => "count",
            BarrierKind::And => "and",
            BarrierKind::Or => "or",
        }
    }

    /// The kind called `name`.
    pub fn from_name(name: &str) -> Option<BarrierKind> {
        match name {
            "plain" => Some(BarrierKind::Plain),
            "count" => Some(BarrierKind::Count),
            "and" => Some(BarrierKind::And),
            "or" => Some(BarrierKind::Or),
            _ => None,
        }
    }
}

/// What a call does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallKind {
    /// A call to a function defined in the module.
    Real(FuncId),
    /// A convergent operation (an external convergent function). Its value,
    /// when used, is the oracle.
    Op(OracleId),
    /// A call to a non-convergent external function: not a convergent
    /// operation; its value, when used, is the oracle.
    Plain(OracleId),
    /// An oracle read written as a call (a condition such as `cond1()`): no
    /// instance, no argument evaluated.
    Oracle(OracleId),
    /// A barrier; a data-carrying one returns the oracle, when it has one.
    Barrier(BarrierKind, Option<OracleId>),
    /// A memory fence: orders, never synchronises.
    Fence,
}

impl CallKind {
    /// Whether instances of the call are convergent operations, shown in
    /// trace tables: convergent calls, real calls and barriers.
    pub fn is_convergent(self) -> bool {
        matches!(
            self,
            CallKind::Op(_) | CallKind::Real(_) | CallKind::Barrier(..)
        )
    }
}

/// What a static operation is, for events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// A statement that yields no convergent operation (a branch, a jump).
    Stmt,
    /// An observation point (`...` in the source).
    Observe,
    /// A call (see [`CallKind`]).
    Call(CallKind),
    /// A memory access.
    Mem {
        /// Which array.
        space: Space,
        /// Whether it writes.
        write: bool,
    },
    /// A convergence-control token intrinsic.
    Token,
}

/// Facts about one static operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// The label shown in trace tables (a `// NAME`, a callee's name,
    /// `shared@4`).
    pub label: String,
    /// Where it stands in the front end's input (line 0 when unknown).
    pub span: Span,
    /// What it is.
    pub kind: OpKind,
    /// The function it belongs to.
    pub func: FuncId,
    /// A convergent operation that accesses no memory (LLVM's
    /// `memory(none)` or `readnone` on the call or its callee): its order
    /// against memory accesses is not observable, its order against other
    /// convergent operations and its convergence are
    /// (`crate::exec::observe`). False for every other op.
    pub memory_none: bool,
}

impl OpInfo {
    /// Whether instances of the op are convergent operations, shown in
    /// trace tables: observation points, convergent calls, real calls and
    /// barriers.
    pub fn is_convergent(&self) -> bool {
        match self.kind {
            OpKind::Observe => true,
            OpKind::Call(c) => c.is_convergent(),
            _ => false,
        }
    }
}

/// An oracle: a named source of per-thread values.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OracleInfo {
    /// Its name as used in `--thread` (`cond1`, `n`, `shared[tid]`).
    pub name: String,
    /// How its values relate across threads.
    pub class: OracleClass,
    /// The values path enumeration tries, ascending.
    pub domain: Vec<i64>,
    /// Where it is first used.
    #[serde(skip)]
    pub span: Span,
}
