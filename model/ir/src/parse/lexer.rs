//! Tokens of the IR's text form, produced on demand for the reader in
//! [`super`].
//!
//! A token is a bare word (a run of the characters [`is_plain_name`]
//! allows: keywords, numbers and block labels), a string literal, a name
//! after a sigil (`%x`, `$"shared@14"`, `@f`, `#3`) or punctuation, longest
//! match first. Whitespace separates tokens and `;` starts a comment that
//! runs to the end of the line; only `\n` ends a line. Strings use exactly
//! the escapes [`crate::print::quote`] writes (`\"`, `\\`, and two hex
//! digits for a character below U+0080) and end on their line.
//!
//! The lexer never fails: a character it does not know becomes
//! [`Tok::Unknown`] and a broken string or sigil becomes [`Tok::Bad`] with
//! its own message, so the parser reports either where it expected
//! something else. Every token is found in time linear in its length.
//!
//! [`is_plain_name`]: crate::print::is_plain_name

use crate::span::Pos;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// A run of plain-name characters: a keyword, a number or a label.
    Word(String),
    /// A string literal's contents, escapes resolved.
    Str(String),
    /// A sigil (`%`, `$`, `@`, `#`) and the name after it, unquoted.
    Name(char, String),
    /// Punctuation, spelled as in the source.
    Punct(&'static str),
    /// A character that starts no token.
    Unknown,
    /// A malformed string or sigil: what was expected, and where.
    Bad(String, Pos),
    /// The end of the input.
    Eof,
}

/// A token, where it starts, and the byte range of its text.
#[derive(Clone, Debug)]
pub(super) struct Token {
    /// What it is.
    pub tok: Tok,
    /// Its first character.
    pub pos: Pos,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past its last character.
    pub end: usize,
}

/// Punctuation, longest first so that the first match is the longest.
const PUNCTS: &[&str] = &[
    "->", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||", "+=", "-=", "*=", "(", ")", "[", "]",
    "{", "}", ",", ":", "?", "=", "<", ">", "+", "-", "*", "/", "%", "^", "&", "|",
];

/// Whether `c` may appear in a name written without quotes.
pub(super) fn is_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// The lexer: a cursor over the text.
pub(super) struct Lexer<'a> {
    src: &'a str,
    /// Byte offset of the next character.
    i: usize,
    /// Position of the next character.
    pos: Pos,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            i: 0,
            pos: Pos { line: 1, col: 1 },
        }
    }

    fn peek(&self) -> Option<char> {
        self.src[self.i..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        // Saturating: no input fits 2^32 lines in memory, but a panic on
        // overflow would still be wrong.
        if c == '\n' {
            self.pos.line = self.pos.line.saturating_add(1);
            self.pos.col = 1;
        } else {
            self.pos.col = self.pos.col.saturating_add(1);
        }
        Some(c)
    }

    fn skip_trivia(&mut self) {
        while let Some(c) = self.peek() {
            if c == ';' {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn plain_run(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(is_plain) {
            self.bump();
        }
        self.src[start..self.i].to_string()
    }

    /// A string literal; the cursor is on its opening quote.
    fn string(&mut self) -> Tok {
        let open = self.pos;
        self.bump();
        let mut out = String::new();
        let mut bad: Option<(String, Pos)> = None;
        loop {
            let at = self.pos;
            match self.peek() {
                None | Some('\n') => {
                    return Tok::Bad(
                        "expected '\"' to close the string before the end of the line".into(),
                        open,
                    )
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some('\\') => {
                    self.bump();
                    match self.escape() {
                        Some(c) => out.push(c),
                        None if bad.is_none() => {
                            bad = Some((
                                "expected an escape: '\\\"', '\\\\' or two hex digits below 80"
                                    .into(),
                                at,
                            ))
                        }
                        None => {}
                    }
                }
                Some(c) => {
                    self.bump();
                    out.push(c);
                }
            }
        }
        match bad {
            Some((msg, pos)) => Tok::Bad(msg, pos),
            None => Tok::Str(out),
        }
    }

    /// The character an escape stands for; the cursor is after the `\`.
    /// Consumes nothing that could end the string.
    fn escape(&mut self) -> Option<char> {
        match self.peek()? {
            c @ ('"' | '\\') => {
                self.bump();
                Some(c)
            }
            _ => {
                let mut v = 0u32;
                for _ in 0..2 {
                    let d = self.peek()?.to_digit(16)?;
                    self.bump();
                    v = v * 16 + d;
                }
                // Above 7f a byte would be half of a UTF-8 sequence; the
                // printer writes such characters as they are.
                char::from_u32(v).filter(|_| v < 0x80)
            }
        }
    }

    /// The next token; [`Tok::Eof`] forever at the end.
    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let (start, pos) = (self.i, self.pos);
        let tok = match self.peek() {
            None => Tok::Eof,
            Some('"') => self.string(),
            Some(c) if is_plain(c) => Tok::Word(self.plain_run()),
            Some(sigil @ ('%' | '$' | '@' | '#')) => {
                let rest = &self.src[self.i + 1..];
                match rest.chars().next() {
                    Some(c) if is_plain(c) => {
                        self.bump();
                        Tok::Name(sigil, self.plain_run())
                    }
                    Some('"') => {
                        self.bump();
                        match self.string() {
                            Tok::Str(s) => Tok::Name(sigil, s),
                            bad => bad,
                        }
                    }
                    _ if sigil == '%' => {
                        self.bump();
                        Tok::Punct("%")
                    }
                    _ => {
                        self.bump();
                        Tok::Bad(format!("expected a name after '{sigil}'"), pos)
                    }
                }
            }
            Some(_) => {
                let rest = &self.src[self.i..];
                match PUNCTS.iter().find(|p| rest.starts_with(**p)) {
                    Some(p) => {
                        for _ in 0..p.len() {
                            self.bump();
                        }
                        Tok::Punct(p)
                    }
                    None => {
                        self.bump();
                        Tok::Unknown
                    }
                }
            }
        };
        Token {
            tok,
            pos,
            start,
            end: self.i,
        }
    }
}
