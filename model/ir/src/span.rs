//! Source positions and the diagnostics that point at them.
//!
//! Every error on user input names the file, the line and the column
//! (1-based, columns counted in characters) and says what was expected, as
//! `file:line:col: message`. The CLI prints it and exits with code 2.

use std::fmt;

/// A line and column, both counted from 1. Columns count characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub col: u32,
}

/// A range of source text: `start` inclusive, `end` exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// The first character.
    pub start: Pos,
    /// Just past the last character.
    pub end: Pos,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: Pos, end: Pos) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The line the span starts on.
    pub fn line(self) -> u32 {
        self.start.line
    }
}

/// An error in user input: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file name as given by the user (`<input>` when there is none).
    pub file: String,
    /// Where the problem is.
    pub pos: Pos,
    /// What is wrong, phrased as what was expected where possible.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at `pos` in `file`.
    pub fn new(file: &str, pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            pos,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.pos.line, self.pos.col, self.message
        )
    }
}

impl std::error::Error for Diagnostic {}

/// Several diagnostics, all collected rather than stopping at the first.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics(vec![d])
    }
}
