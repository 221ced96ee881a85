//! The convcheck IR: the seam every front end, pass and engine meets at
//! (DESIGN.md 3).
//!
//! A [`Module`] stands on its own: functions of basic blocks whose
//! instructions carry their own operands ([`expr::Expr`]), an op table that
//! says what every static operation is ([`ops`]), and an oracle table that
//! says where per-thread values come from. Front ends (the kernel language
//! in `convcheck-lang`, LLVM IR in `convcheck-llvm`) build modules;
//! transforms rewrite them; the engines run them.
//!
//! What is here:
//! - the IR itself ([`cfg`], [`ops`], [`expr`]) and its text form
//!   ([`print`] writes it, [`parse`] reads it back);
//! - the cycle hierarchy of LLVM's CycleInfo ([`cycles`]) and the static
//!   rules of convergence-control tokens ([`tokens`]);
//! - per-thread execution ([`exec`]) with maximal-convergence and token
//!   keys ([`key`]), scenarios ([`scenario`]) and the enumeration of
//!   per-thread paths within bounds ([`paths`]);
//! - what the keys mean: converged-with and choice-variable constraints
//!   ([`convergence`]), trace tables ([`table`]), races and barrier
//!   divergence ([`hazards`]);
//! - located diagnostics ([`span`]).
//!
//! Nothing here knows any front end's syntax.

pub mod build;
pub mod cfg;
pub mod convergence;
pub mod cycles;
pub mod exec;
pub mod expr;
pub mod float;
pub mod hazards;
pub mod key;
pub mod ops;
pub mod parse;
pub mod paths;
pub mod print;
pub mod scenario;
pub mod span;
pub mod table;
pub mod tokens;

pub use cfg::{Block, BlockId, Cfg, Inst, InstKind, Module, Term, TokenKind};
pub use expr::{Access, AssignOp, BinOp, Expr, UnOp};
pub use ops::{
    BarrierKind, CallKind, FuncId, OpId, OpInfo, OpKind, OracleClass, OracleId, OracleInfo, Space,
};
pub use span::{Diagnostic, Diagnostics, Pos, Span};
