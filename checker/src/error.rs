//! The library's errors: what went wrong, of which kind, with a real
//! `Display` (STYLE.md 8). The binary prints them (an input diagnostic as
//! it is, `file:line:col: message`; any other kind after `error: `) and
//! exits with code 2; the explorer maps each kind to an HTTP status without
//! reading the text.

use std::fmt;

/// What kind of error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input does not read: a located diagnostic
    /// (`file:line:col: message`), printed as it is.
    Input,
    /// The command was asked something it cannot do (flags that do not go
    /// together, a file that cannot be read, a function that does not
    /// exist).
    Usage,
    /// A pass of convcheck's own failed or is unknown.
    Pass,
    /// An external tool (clang, opt, llc, a `--pass-cmd` command) failed or
    /// printed what convcheck cannot read.
    Tool,
    /// Reading or writing a file or folder failed.
    Io,
    /// A run stopped before an answer (its fuel or a bound): not bad
    /// input, and not an answer either (exit 3).
    Inconclusive,
    /// A bug in convcheck: an invariant did not hold.
    Internal,
}

/// An error of the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// A located diagnostic of the input.
    pub fn input(message: impl fmt::Display) -> Error {
        Error::new(ErrorKind::Input, message.to_string())
    }

    /// A usage error.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Usage, message)
    }

    /// A pass's failure.
    pub fn pass(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Pass, message)
    }

    /// An external tool's failure.
    pub fn tool(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Tool, message)
    }

    /// A failed read or write.
    pub fn io(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Io, message)
    }

    /// A run that stopped before an answer.
    pub fn inconclusive(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Inconclusive, message)
    }

    /// A bug in convcheck.
    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Internal, message)
    }

    /// The kind.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, without any prefix.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The error with `context` before its message (`context: message`).
    pub fn context(self, context: impl fmt::Display) -> Error {
        Error {
            kind: self.kind,
            message: format!("{context}: {}", self.message),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<convcheck_ir::span::Diagnostic> for Error {
    fn from(d: convcheck_ir::span::Diagnostic) -> Error {
        Error::input(d)
    }
}

impl From<convcheck_ir::span::Diagnostics> for Error {
    fn from(d: convcheck_ir::span::Diagnostics) -> Error {
        Error::input(d)
    }
}

/// The library's results.
pub type Result<T> = std::result::Result<T, Error>;
