//! Tokens of the kernel language.
//!
//! The lexer turns source text into [`Token`]s with their [`Span`]s and
//! records every `// NAME` comment whose text is a single identifier: those
//! name statements (DESIGN.md 2.1), which the parser attaches after parsing.
//!
//! It knows C's comments, identifiers, integer literals (decimal, octal with a
//! leading `0`, hexadecimal with `0x`, optional `u` / `l` suffixes), string
//! literals (only meaningful inside `__attribute__((...))`) and punctuation,
//! longest match first. Literals that do not fit in an `i64`, unterminated
//! comments and strings, and characters outside the language are errors.

use crate::span::{Diagnostic, Pos, Span};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// An integer literal's value.
    Int(i64),
    /// A string literal's contents, escapes resolved.
    Str(String),
    /// Punctuation, spelled as in the source (`(`, `...`, `+=`).
    Punct(&'static str),
    /// The end of the input.
    Eof,
}

/// A token and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    /// What it is.
    pub tok: Tok,
    /// Where it stands.
    pub span: Span,
}

/// A line comment whose text is exactly one identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NameComment {
    /// The identifier.
    pub name: String,
    /// Where the `//` stands.
    pub pos: Pos,
}

/// The lexer's output.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lexed {
    /// The tokens, always ending with [`Tok::Eof`].
    pub tokens: Vec<Token>,
    /// The naming comments in source order (at most one per line).
    pub names: Vec<NameComment>,
}

/// Punctuation, longest first so that the first match is the longest.
const PUNCTS: &[&str] = &[
    "...", "<<=", ">>=", "::", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||", "++", "--", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", "(", ")", "{", "}", "[", "]", ";", ",", ":",
    "?", ".", "+", "-", "*", "/", "%", "!", "~", "&", "|", "^", "<", ">", "=",
];

/// Whether `s` is an identifier: `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

struct Lexer<'a> {
    file: &'a str,
    chars: Vec<char>,
    i: usize,
    pos: Pos,
}

impl<'a> Lexer<'a> {
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.get(self.i).copied()?;
        self.i += 1;
        if c == '\n' {
            self.pos.line = self.pos.line.saturating_add(1);
            self.pos.col = 1;
        } else {
            self.pos.col = self.pos.col.saturating_add(1);
        }
        Some(c)
    }

    fn error(&self, pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.file, pos, message)
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(k, c)| self.peek(k) == Some(c))
    }

    fn run(mut self) -> Result<Lexed, Diagnostic> {
        let mut out = Lexed::default();
        loop {
            let start = self.pos;
            let Some(c) = self.peek(0) else {
                out.tokens.push(Token {
                    tok: Tok::Eof,
                    span: Span::new(start, start),
                });
                return Ok(out);
            };
            if c.is_whitespace() {
                self.bump();
                continue;
            }
            if self.starts_with("//") {
                self.bump();
                self.bump();
                let mut text = String::new();
                while let Some(c) = self.peek(0) {
                    if c == '\n' {
                        break;
                    }
                    text.push(c);
                    self.bump();
                }
                let trimmed = text.trim();
                if is_identifier(trimmed) {
                    out.names.push(NameComment {
                        name: trimmed.to_string(),
                        pos: start,
                    });
                }
                continue;
            }
            if self.starts_with("/*") {
                self.bump();
                self.bump();
                loop {
                    if self.starts_with("*/") {
                        self.bump();
                        self.bump();
                        break;
                    }
                    if self.bump().is_none() {
                        return Err(self.error(start, "unterminated comment: expected `*/`"));
                    }
                }
                continue;
            }
            let tok = if c.is_ascii_alphabetic() || c == '_' {
                let mut s = String::new();
                while let Some(c) = self.peek(0) {
                    if !(c.is_ascii_alphanumeric() || c == '_') {
                        break;
                    }
                    s.push(c);
                    self.bump();
                }
                Tok::Ident(s)
            } else if c.is_ascii_digit() {
                Tok::Int(self.number(start)?)
            } else if c == '"' {
                Tok::Str(self.string(start)?)
            } else if let Some(p) = PUNCTS.iter().find(|p| self.starts_with(p)) {
                for _ in 0..p.chars().count() {
                    self.bump();
                }
                Tok::Punct(p)
            } else {
                return Err(self.error(
                    start,
                    format!("unexpected character `{}`", c.escape_debug()),
                ));
            };
            out.tokens.push(Token {
                tok,
                span: Span::new(start, self.pos),
            });
        }
    }

    /// An integer literal; the first character is a digit.
    fn number(&mut self, start: Pos) -> Result<i64, Diagnostic> {
        let mut text = String::new();
        while let Some(c) = self.peek(0) {
            if !(c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
            text.push(c);
            self.bump();
        }
        let (radix, digits_and_suffix) =
            if let Some(rest) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                (16, rest)
            } else if text.len() > 1 && text.starts_with('0') {
                (8, &text[1..])
            } else {
                (10, text.as_str())
            };
        // Octal literals take every decimal digit here, so that `09` is
        // reported as a bad digit rather than a bad suffix.
        let is_digit = |c: char| {
            if radix == 8 {
                c.is_ascii_digit()
            } else {
                c.is_digit(radix)
            }
        };
        let digits_end = digits_and_suffix
            .find(|c: char| !is_digit(c))
            .unwrap_or(digits_and_suffix.len());
        let (digits, suffix) = digits_and_suffix.split_at(digits_end);
        if radix == 16 && digits.is_empty() {
            return Err(self.error(
                start,
                format!("expected hexadecimal digits after `0x` in `{text}`"),
            ));
        }
        if radix == 8 {
            if let Some(bad) = digits.chars().find(|c| !c.is_digit(8)) {
                return Err(self.error(
                    start,
                    format!("invalid digit `{bad}` in octal literal `{text}`"),
                ));
            }
        }
        let suffix_ok =
            suffix.len() <= 3 && suffix.chars().all(|c| matches!(c, 'u' | 'U' | 'l' | 'L'));
        if !suffix_ok {
            return Err(self.error(
                start,
                format!("invalid suffix `{suffix}` on integer literal `{text}`"),
            ));
        }
        let mut value: i64 = 0;
        for c in digits.chars() {
            let d = i64::from(c.to_digit(radix).unwrap_or(0));
            value = match value
                .checked_mul(i64::from(radix))
                .and_then(|v| v.checked_add(d))
            {
                Some(v) => v,
                None => {
                    return Err(self.error(
                        start,
                        format!("integer literal `{text}` is too large: it does not fit in a 64-bit signed integer"),
                    ))
                }
            };
        }
        Ok(value)
    }

    /// A string literal; the first character is `"`.
    fn string(&mut self, start: Pos) -> Result<String, Diagnostic> {
        self.bump();
        let mut s = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => {
                    return Err(self.error(start, "unterminated string literal: expected `\"`"))
                }
                Some('"') => return Ok(s),
                Some('\\') => match self.bump() {
                    None | Some('\n') => {
                        return Err(self.error(start, "unterminated string literal: expected `\"`"))
                    }
                    Some(c) => s.push(c),
                },
                Some(c) => s.push(c),
            }
        }
    }
}

/// Splits `src` into tokens. `file` is only used in diagnostics.
pub(crate) fn lex(file: &str, src: &str) -> Result<Lexed, Diagnostic> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    Lexer {
        file,
        chars: src.chars().collect(),
        i: 0,
        pos: Pos { line: 1, col: 1 },
    }
    .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        lex("t", src)
            .map(|l| l.tokens.into_iter().map(|t| t.tok).collect())
            .unwrap_or_default()
    }

    #[test]
    fn punctuation_is_longest_match() {
        assert_eq!(
            toks("a...b<<=c"),
            vec![
                Tok::Ident("a".into()),
                Tok::Punct("..."),
                Tok::Ident("b".into()),
                Tok::Punct("<<="),
                Tok::Ident("c".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn literals() {
        assert_eq!(
            toks("0x1F 010 7ul 0"),
            vec![
                Tok::Int(31),
                Tok::Int(8),
                Tok::Int(7),
                Tok::Int(0),
                Tok::Eof
            ]
        );
        assert!(lex("t", "9223372036854775808").is_err());
        assert!(lex("t", "9223372036854775807").is_ok());
        assert!(lex("t", "12abc").is_err());
        assert!(lex("t", "09").is_err());
        assert!(lex("t", "0x").is_err());
    }

    #[test]
    fn name_comments() {
        let l = lex("t", "x; // A1\ny; // not a name\n/* B */ z; //   C  ").unwrap_or_default();
        let names: Vec<_> = l
            .names
            .iter()
            .map(|n| (n.name.as_str(), n.pos.line))
            .collect();
        assert_eq!(names, vec![("A1", 1), ("C", 3)]);
    }

    #[test]
    fn positions_count_characters() {
        let l = lex("t", "é\n").err().map(|d| d.pos);
        assert_eq!(l, Some(Pos { line: 1, col: 1 }));
        let l = lex("t", "/*é*/ x").unwrap_or_default();
        assert_eq!(l.tokens[0].span.start, Pos { line: 1, col: 7 });
    }
}
