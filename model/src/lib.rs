//! The formal model of convcheck.
//!
//! This crate holds everything that defines what convergence *is*, apart from
//! any command line: the kernel language and its parser ([`syntax`]), static
//! analysis of a kernel ([`sema`]: names, oracles, labels, implementation-defined
//! regions), scenarios and per-thread execution ([`exec`]), enumeration of
//! per-thread paths within bounds ([`paths`]), convergence keys and the
//! relation they induce ([`key`], [`convergence`]) and trace tables
//! ([`table`]); the CFG level ([`cfg`]: lowering, cycle hierarchy, tokens;
//! run by [`exec::cfg`]); races and barrier divergence ([`hazards`]); and
//! the relational model solved by z3 ([`smt`]), the second engine.
//!
//! The model follows DESIGN.md section 2 and seed 000 (Thread Convergence).

pub mod cfg;
pub mod convergence;
pub mod exec;
pub mod hazards;
pub mod key;
pub mod paths;
pub mod scenario;
pub mod sema;
pub mod smt;
pub mod span;
pub mod syntax;
pub mod table;

pub use span::{Diagnostic, Diagnostics, Pos, Span};
