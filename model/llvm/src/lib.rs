//! LLVM IR in and out (DESIGN.md 2.9, "LLVM IR as input"): reads the text
//! that clang and opt print (LLVM 19 and newer) into an LLVM-level syntax
//! tree, maps that tree into convcheck's IR ([`to_ir`]), and writes
//! convcheck's IR as LLVM IR ([`mod@write`]).
//!
//! The tree keeps everything the mapping needs and loses nothing silently:
//!
//! - the module: `source_filename`, `target datalayout` and `triple`,
//!   identified types, global variables with their address spaces,
//!   functions (`declare` and `define`) with linkage, calling convention,
//!   parameters and attributes, attribute groups, and every other top-level
//!   entity as text ([`module`]);
//! - the instructions the mapping interprets (integer arithmetic,
//!   comparisons, casts, `phi`, `select`, `freeze`, memory accesses,
//!   `getelementptr`, calls with their operand bundles, branches,
//!   `switch`, `ret`, `unreachable`) field by field, and every other
//!   instruction as a [`inst::Generic`] that names its opcode, so the
//!   mapping can report the function as `inconclusive: uses <opcode>`
//!   ([`inst`]);
//! - types ([`types`]), operands and constants ([`value`]; constant
//!   expressions are kept as text and read on demand by
//!   [`value::ConstExpr::structure`]), attributes ([`attrs`]).
//!
//! Metadata, debug records and comments are skipped, never errors (metadata
//! definitions and attachments are kept as text); unknown attributes are
//! kept as strings. [`query`] holds the small API the mapping uses:
//! [`Module::function`], [`Function::is_convergent`],
//! [`inst::Call::is_convergent`], [`inst::Call::convergencectrl`],
//! iteration over blocks and instructions, successors of terminators.
//!
//! Errors ([`ParseError`]) carry file, line and column and say what was
//! expected; the parser never panics, runs in time linear in its input, and
//! bounds the nesting of types and constants by [`MAX_NESTING`]
//! ([`fuzzing::parse_never_panics`] is the fuzz oracle, and
//! [`fuzzing::map_never_panics`] the one of the mapping and the writer).
//!
//! Entry points: [`parse_module`], then [`to_ir::to_module`] (every defined
//! function mapped, or listed as skipped with the construct outside the
//! model), and [`write::module_text`] for the way back.
//!
//! Architecture invariant: this crate depends on `convcheck-ir` and no other
//! convcheck crate (never the kernel language), and does no I/O; running
//! clang or opt is the caller's business.
#![deny(unsafe_code)]

pub mod attrs;
pub mod error;
pub mod fuzzing;
pub mod inst;
mod lexer;
pub mod module;
mod parser;
pub mod query;
pub mod to_ir;
pub mod types;
pub mod value;
pub mod verify;
mod wellformed;
pub mod write;

pub use attrs::{AttrGroup, Attribute};
pub use error::{ErrorKind, ParseError, ParseErrors};
pub use fuzzing::{map_never_panics, parse_never_panics};
pub use inst::{Call, InstKind, Instruction};
pub use module::{Block, Function, GlobalVar, Module, Span};
pub use query::ConvergenceIntrinsic;
pub use types::Type;
pub use value::{Name, TypedValue, Value};

/// How deeply types, constant aggregates, constant expressions and metadata
/// may nest. Compiler output nests a few levels; the bound keeps the
/// recursive type parser's stack small on adversarial input (a thread with
/// the default 2 MiB stack parses this depth with room to spare in debug
/// builds). Deeper input is an [`ErrorKind::TooDeep`] error.
pub const MAX_NESTING: usize = 128;

/// Parses LLVM IR text. `file` is only used in error messages.
///
/// Returns the module, or every error found (see [`error`] for how the
/// parser continues after one).
pub fn parse_module(src: &str, file: &str) -> Result<Module, ParseErrors> {
    parser::parse(src, file)
}
