//! Execution at the source level: flattening ([`compile`]) and the
//! source-level key rules ([`source`]). The machine itself, scenarios and
//! bounds are the IR's (`convcheck_ir::exec`).

pub mod compile;
pub mod source;

pub use source::SourceProgram;
