//! Located parse errors.
//!
//! Every error names the file, the 1-based line and the 1-based byte column
//! of the token it is about (the same columns LLVM's own diagnostics use),
//! and says what was expected: `input.ll:12:7: expected a type, found 'foo'`.
//! The parser collects one error per top-level entity it could not read and
//! then resynchronises at the next `define`, `declare`, global or attribute
//! group, so one bad function does not hide the errors of the others; the
//! lexer stops at its first error, because nothing after an unterminated
//! string can be tokenized reliably.
#![deny(unsafe_code)]

use std::fmt;

use serde::{Deserialize, Serialize};

/// What kind of problem a [`ParseError`] reports, for callers that react to
/// some kinds differently (a depth limit is a resource limit, not bad input).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text does not follow LLVM's assembly grammar.
    Syntax,
    /// Types, constants or metadata nest deeper than [`crate::MAX_NESTING`].
    TooDeep,
    /// An integer constant lies outside `-2^63 ..= 2^64-1`, or a count or a
    /// width is too large for its field.
    IntegerOutOfRange,
    /// An explicitly numbered value, block or global is not the next number
    /// in LLVM's implicit numbering (`%3` where `%2` was due).
    Numbering,
    /// A local value, block, global or attribute group is used but never
    /// defined.
    Undefined,
    /// A name is defined twice.
    Redefinition,
    /// The input is larger than the parser's 4 GiB limit.
    TooLarge,
}

/// One located error: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseError {
    file: String,
    line: u32,
    col: u32,
    message: String,
    kind: ErrorKind,
}

impl ParseError {
    pub(crate) fn new(file: &str, line: u32, col: u32, kind: ErrorKind, message: String) -> Self {
        ParseError {
            file: file.to_string(),
            line,
            col,
            message,
            kind,
        }
    }

    /// The file name given to the parser.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The 1-based line of the offending token.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The 1-based byte column of the offending token.
    pub fn col(&self) -> u32 {
        self.col
    }

    /// What went wrong, usually `expected X, found 'Y'`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The kind of problem.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// All the errors found in one input, in source order; never empty.
///
/// It is `Serialize` but not `Deserialize`, so that no list can be built
/// empty from outside.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParseErrors {
    errors: Vec<ParseError>,
}

impl ParseErrors {
    /// Wraps a non-empty list, sorted by position so that the output does
    /// not depend on the order the checks ran in.
    pub(crate) fn new(mut errors: Vec<ParseError>) -> Self {
        debug_assert!(!errors.is_empty());
        errors.sort_by_key(|e| (e.line, e.col));
        ParseErrors { errors }
    }

    /// The first error in source order.
    pub fn first(&self) -> &ParseError {
        // The list is private and only `new` (always given at least one
        // error) and `From<ParseError>` build it, so it is never empty.
        &self.errors[0]
    }

    /// Every error, in source order.
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }
}

impl fmt::Display for ParseErrors {
    /// One error per line, each as `file:line:col: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseErrors {}

impl From<ParseError> for ParseErrors {
    fn from(e: ParseError) -> Self {
        ParseErrors::new(vec![e])
    }
}
