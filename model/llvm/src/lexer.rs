//! The tokenizer for LLVM assembly text.
//!
//! It follows the token classes of LLVM's `LLLexer` (LangRef, "Identifiers"
//! and "Comments"): local names `%x`, `%"quoted"`, `%0`; global names `@f`,
//! `@"q"`, `@0`; comdat names `$c`; metadata names `!dbg`, `!0` and a bare
//! `!` before `!{...}` or `!"..."`; attribute group ids `#0`; debug-record
//! keywords `#dbg_value`; summary ids `^0`; labels `name:`, `"quoted":` and
//! `12:`; keywords (every bare word, including types such as `i32`);
//! integers (decimal, and LLVM's `s0x`/`u0x` hexadecimal integers);
//! floating-point literals (decimal with a `.`, and the hexadecimal
//! `0x...`, `0xK...`, `0xL...`, `0xM...`, `0xH...`, `0xR...` forms);
//! strings `"..."` and `c"..."`; punctuation (including the `|` of
//! metadata flags); and `;` comments, which are dropped.
//!
//! Tokens keep byte offsets into the source, their line and byte column, and
//! whether they are the first token on their line: the parser uses that to
//! find where an instruction it does not model ends. Every step advances
//! through the input once, so lexing is linear in its length.
#![deny(unsafe_code)]

use crate::error::{ErrorKind, ParseError};

/// The class of a token; its text is the source slice `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// End of input (always the last token).
    Eof,
    /// A bare word: a keyword, a type such as `i32`, a flag, an attribute.
    Word,
    /// `%name`, `%"name"` or `%N`.
    Local,
    /// `@name`, `@"name"` or `@N`.
    Global,
    /// `$name` (comdats).
    Comdat,
    /// `!name` or `!N`.
    Meta,
    /// A `!` not followed by a name (`!{`, `!"`).
    Exclaim,
    /// `#N`.
    AttrGroup,
    /// `#word`, as in the debug records `#dbg_value(...)`.
    Hash,
    /// `^N` (module summary entries).
    Summary,
    /// `name:`, `"name":` or `N:` (the text includes the colon).
    Label,
    /// An integer literal.
    Int,
    /// A floating-point literal.
    Float,
    /// `"..."` (the text includes the quotes).
    Str,
    /// `c"..."`.
    CStr,
    Equal,
    Comma,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Less,
    Greater,
    Star,
    Colon,
    /// `|` (in metadata flags such as `DIFlagPrototyped | DIFlagPublic`).
    Pipe,
    /// `...`
    Ellipsis,
}

/// One token with its place in the source.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub col: u32,
    /// Whether no other token precedes this one on its line.
    pub line_start: bool,
}

/// Splits `src` into tokens, ending with one [`Tok::Eof`].
pub(crate) fn lex(src: &str, file: &str) -> Result<Vec<Token>, ParseError> {
    // Offsets are stored as u32 to keep tokens small; 4 GiB of IR text is
    // far beyond anything convcheck is meant to read.
    if src.len() >= u32::MAX as usize {
        return Err(ParseError::new(
            file,
            1,
            1,
            ErrorKind::TooLarge,
            format!(
                "input of {} bytes is larger than the 4 GiB limit",
                src.len()
            ),
        ));
    }
    let mut lx = Lexer {
        b: src.as_bytes(),
        i: 0,
        line: 1,
        line_begin: 0,
        fresh_line: true,
        file,
        // Compiler output averages about one token per five bytes.
        toks: Vec::with_capacity(src.len() / 5 + 1),
    };
    lx.run()?;
    Ok(lx.toks)
}

struct Lexer<'a> {
    b: &'a [u8],
    i: usize,
    line: u32,
    line_begin: usize,
    fresh_line: bool,
    file: &'a str,
    toks: Vec<Token>,
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

/// Characters of a keyword (LLVM keywords never contain `-`).
fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'$' | b'.' | b'_')
}

impl Lexer<'_> {
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    fn col_of(&self, i: usize) -> u32 {
        (i - self.line_begin + 1) as u32
    }

    fn error(&self, at: usize, message: String) -> ParseError {
        ParseError::new(
            self.file,
            self.line,
            self.col_of(at),
            ErrorKind::Syntax,
            message,
        )
    }

    fn push(&mut self, kind: Tok, start: usize, line: u32, col: u32) {
        self.toks.push(Token {
            kind,
            start: start as u32,
            end: self.i as u32,
            line,
            col,
            line_start: self.fresh_line,
        });
        self.fresh_line = false;
    }

    fn run(&mut self) -> Result<(), ParseError> {
        loop {
            self.skip_blank();
            let start = self.i;
            // Taken before the token, which may be a string spanning lines.
            let (line, col) = (self.line, self.col_of(start));
            if start >= self.b.len() {
                self.push(Tok::Eof, start, line, col);
                return Ok(());
            }
            let kind = self.token(start)?;
            self.push(kind, start, line, col);
        }
    }

    fn skip_blank(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_begin = self.i;
                    self.fresh_line = true;
                }
                b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => self.i += 1,
                b';' => {
                    while self.i < self.b.len() && self.b[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                _ => return,
            }
        }
    }

    fn token(&mut self, start: usize) -> Result<Tok, ParseError> {
        let c = self.b[start];
        self.i = start + 1;
        let kind = match c {
            b'%' => self.sigil_name(start, '%').map(|()| Tok::Local)?,
            b'@' => self.sigil_name(start, '@').map(|()| Tok::Global)?,
            b'$' => self.sigil_name(start, '$').map(|()| Tok::Comdat)?,
            b'!' => {
                if is_name_char(self.at(self.i)) || self.at(self.i) == b'\\' {
                    while is_name_char(self.at(self.i)) || self.at(self.i) == b'\\' {
                        self.i += 1;
                    }
                    Tok::Meta
                } else {
                    Tok::Exclaim
                }
            }
            b'#' => {
                if self.at(self.i).is_ascii_digit() {
                    self.skip_digits();
                    Tok::AttrGroup
                } else if self.at(self.i).is_ascii_alphabetic() || self.at(self.i) == b'_' {
                    while is_word_char(self.at(self.i)) {
                        self.i += 1;
                    }
                    Tok::Hash
                } else {
                    return Err(self.error(
                        start,
                        "expected an attribute group number or a record name after '#'".into(),
                    ));
                }
            }
            b'^' => {
                if !self.at(self.i).is_ascii_digit() {
                    return Err(
                        self.error(start, "expected a summary entry number after '^'".into())
                    );
                }
                self.skip_digits();
                Tok::Summary
            }
            b'"' => {
                self.string(start)?;
                if self.at(self.i) == b':' {
                    self.i += 1;
                    Tok::Label
                } else {
                    Tok::Str
                }
            }
            b'0'..=b'9' | b'-' | b'+' => self.number(start)?,
            b'.' if self.at(start + 1) == b'.' && self.at(start + 2) == b'.' => {
                self.i = start + 3;
                Tok::Ellipsis
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'.' => self.word(start)?,
            b'=' => Tok::Equal,
            b',' => Tok::Comma,
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b'<' => Tok::Less,
            b'>' => Tok::Greater,
            b'*' => Tok::Star,
            b':' => Tok::Colon,
            b'|' => Tok::Pipe,
            _ => {
                let shown = match std::str::from_utf8(&self.b[start..]) {
                    Ok(s) => s.chars().next().map(|c| c.to_string()).unwrap_or_default(),
                    Err(_) => format!("\\x{c:02x}"),
                };
                return Err(self.error(
                    start,
                    format!("unexpected character '{}'", shown.escape_debug()),
                ));
            }
        };
        Ok(kind)
    }

    fn skip_digits(&mut self) {
        while self.at(self.i).is_ascii_digit() {
            self.i += 1;
        }
    }

    /// Lexes the name after `%`, `@` or `$`.
    fn sigil_name(&mut self, start: usize, sigil: char) -> Result<(), ParseError> {
        let c = self.at(self.i);
        if c == b'"' {
            self.string(self.i)?;
        } else if c.is_ascii_digit() {
            self.skip_digits();
        } else if is_name_start(c) {
            while is_name_char(self.at(self.i)) {
                self.i += 1;
            }
        } else {
            return Err(self.error(start, format!("expected a name after '{sigil}'")));
        }
        Ok(())
    }

    /// Lexes a string whose opening quote is at `open`; LLVM strings have no
    /// escaped quote (a quote is written `\22`), so the next quote ends it.
    fn string(&mut self, open: usize) -> Result<(), ParseError> {
        let (line, col) = (self.line, self.col_of(open));
        let mut j = open + 1;
        loop {
            match self.b.get(j) {
                None => {
                    return Err(ParseError::new(
                        self.file,
                        line,
                        col,
                        ErrorKind::Syntax,
                        "unterminated string".into(),
                    ))
                }
                Some(b'"') => break,
                Some(b'\n') => {
                    // Strings may span lines; keep line numbers right.
                    self.line += 1;
                    self.line_begin = j + 1;
                }
                Some(_) => {}
            }
            j += 1;
        }
        self.i = j + 1;
        Ok(())
    }

    fn word(&mut self, start: usize) -> Result<Tok, ParseError> {
        let mut j = start;
        while is_word_char(self.at(j)) {
            j += 1;
        }
        // `c"..."` is a constant string.
        if j == start + 1 && self.b[start] == b'c' && self.at(j) == b'"' {
            self.string(j)?;
            return Ok(Tok::CStr);
        }
        // Labels may contain `-`, keywords may not.
        let mut k = j;
        while is_name_char(self.at(k)) {
            k += 1;
        }
        if self.at(k) == b':' {
            self.i = k + 1;
            return Ok(Tok::Label);
        }
        self.i = j;
        // LLVM's hexadecimal integers: s0x... (signed) and u0x... (unsigned).
        let w = &self.b[start..j];
        if w.len() > 3
            && (w.starts_with(b"s0x") || w.starts_with(b"u0x"))
            && w[3..].iter().all(|c| c.is_ascii_hexdigit())
        {
            return Ok(Tok::Int);
        }
        Ok(Tok::Word)
    }

    fn number(&mut self, start: usize) -> Result<Tok, ParseError> {
        let mut j = start;
        let signed = matches!(self.b[start], b'-' | b'+');
        if signed {
            j += 1;
            if !self.at(j).is_ascii_digit() {
                return Err(self.error(
                    start,
                    format!("expected a digit after '{}'", self.b[start] as char),
                ));
            }
        }
        // Hexadecimal floating point: 0x, 0xK, 0xL, 0xM, 0xH, 0xR.
        if !signed && self.at(j) == b'0' && self.at(j + 1) == b'x' {
            let mut k = j + 2;
            if matches!(self.at(k), b'K' | b'L' | b'M' | b'H' | b'R') {
                k += 1;
            }
            let digits = k;
            while self.at(k).is_ascii_hexdigit() {
                k += 1;
            }
            if k == digits {
                return Err(self.error(start, "expected hexadecimal digits after '0x'".into()));
            }
            self.i = k;
            return Ok(Tok::Float);
        }
        while self.at(j).is_ascii_digit() {
            j += 1;
        }
        // A label such as `12:` (or LLVM's rare `1abc:`).
        if !signed {
            let mut k = j;
            while is_name_char(self.at(k)) {
                k += 1;
            }
            if self.at(k) == b':' {
                self.i = k + 1;
                return Ok(Tok::Label);
            }
        }
        if self.at(j) == b'.' {
            j += 1;
            while self.at(j).is_ascii_digit() {
                j += 1;
            }
            if matches!(self.at(j), b'e' | b'E') {
                let mut k = j + 1;
                if matches!(self.at(k), b'-' | b'+') {
                    k += 1;
                }
                if self.at(k).is_ascii_digit() {
                    while self.at(k).is_ascii_digit() {
                        k += 1;
                    }
                    j = k;
                }
            }
            self.i = j;
            return Ok(Tok::Float);
        }
        self.i = j;
        Ok(Tok::Int)
    }
}

/// Decodes LLVM's string escapes: `\XX` (two hex digits) and `\\`.
/// Invalid escapes are kept as written, as LLVM does.
pub(crate) fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    if !b.contains(&b'\\') {
        return s.to_string();
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            let hex = |c: Option<&u8>| c.and_then(|c| (*c as char).to_digit(16));
            if let (Some(h), Some(l)) = (hex(b.get(i + 1)), hex(b.get(i + 2))) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok> {
        lex(src, "t.ll").unwrap().iter().map(|t| t.kind).collect()
    }

    #[test]
    fn classes() {
        use Tok::*;
        assert_eq!(
            kinds("%x = add nsw i32 %0, -1 ; c\n@g #0 #dbg_value !dbg !0 !{ $c ^3 ..."),
            vec![
                Local, Equal, Word, Word, Word, Local, Comma, Int, Global, AttrGroup, Hash, Meta,
                Meta, Exclaim, LBrace, Comdat, Summary, Ellipsis, Eof
            ]
        );
        assert_eq!(
            kinds("entry: 12: .lr.ph: \"a b\": for-x:"),
            vec![Label; 5].into_iter().chain([Eof]).collect::<Vec<_>>()
        );
        assert_eq!(
            kinds("1.5e+00 0x3FF0 0xK4000 c\"a\\00\" u0xFF"),
            vec![Float, Float, Float, CStr, Int, Eof]
        );
    }

    #[test]
    fn positions_and_line_starts() {
        let t = lex("a b\n  c", "t.ll").unwrap();
        assert_eq!((t[0].line, t[0].col, t[0].line_start), (1, 1, true));
        assert_eq!((t[1].line, t[1].col, t[1].line_start), (1, 3, false));
        assert_eq!((t[2].line, t[2].col, t[2].line_start), (2, 3, true));
    }

    #[test]
    fn errors() {
        let e = lex("  \"abc", "f.ll").unwrap_err();
        assert_eq!(e.to_string(), "f.ll:1:3: unterminated string");
        let e = lex("x\n %", "f.ll").unwrap_err();
        assert_eq!(e.to_string(), "f.ll:2:2: expected a name after '%'");
        let e = lex("x ?", "f.ll").unwrap_err();
        assert_eq!(e.to_string(), "f.ll:1:3: unexpected character '?'");
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape("a\\22b\\\\c\\zz"), "a\"b\\c\\zz");
    }
}
