//! The kernel language's surface: tokens, parser and pretty-printer.
//!
//! [`parse()`] turns source text into an [`ast::File`] or a list of
//! diagnostics; [`print()`] turns a tree back into text that parses to the same
//! tree (up to spans).

pub mod ast;
mod lexer;
mod parser;
mod print;
mod renumber;

pub use parser::{parse, MAX_EXPR_NESTING, MAX_STMT_NESTING};
pub use print::{expr as print_expr, print};
pub use renumber::renumber;
