//! The kernel language of convcheck: a front end of the IR.
//!
//! This crate holds the C subset shaped like seed 000's examples: its parser
//! and printer ([`syntax`]), static analysis of a kernel ([`sema`]: names,
//! oracles, labels, implementation-defined regions), its source-level
//! semantics ([`exec`]: statements keyed by iteration vectors and choice
//! variables, seed 000) and its lowering to the IR ([`lower`]: clang-style
//! CFGs with provenance, optionally with convergence-control tokens).
//!
//! Everything that runs, relates, tables or checks lives in `convcheck-ir`;
//! this crate only says what a kernel means.

pub mod exec;
pub mod lower;
pub mod sema;
pub mod syntax;
pub mod to_ir;

pub use convcheck_ir::span;
pub use convcheck_ir::{Diagnostic, Diagnostics, Pos, Span};
