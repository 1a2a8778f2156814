//! The path syntax: [`Path::parse`].

use super::step::{Path, PathStep};
use crate::error::{Error, ErrorKind};
use std::borrow::Cow;

impl<'a> Path<'a> {
    /// Parses a path (see the [module documentation](crate::path)); names without escapes borrow
    /// from `text`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidPath`], at the byte offset in `text` where the syntax breaks.
    pub fn parse(text: &'a str) -> Result<Path<'a>, Error> {
        Parser { text, pos: 0 }.path()
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

fn starts_identifier(c: Option<u8>) -> bool {
    matches!(c, Some(c) if c.is_ascii_alphabetic() || c == b'_')
}

impl<'a> Parser<'a> {
    #[cold]
    fn err(&self, at: usize, reason: &'static str) -> Error {
        Error::new(
            ErrorKind::InvalidPath {
                text: self.text.to_owned(),
                reason,
            },
            at,
            Path::root(),
        )
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn path(mut self) -> Result<Path<'a>, Error> {
        let mut path = Path::root();
        if self.text == "." || self.text == "(root)" {
            return Ok(path);
        }
        if starts_identifier(self.peek()) {
            path.push(PathStep::Attr(Cow::Borrowed(self.ident())));
        }
        while let Some(c) = self.peek() {
            match c {
                b'.' => {
                    self.pos += 1;
                    if !starts_identifier(self.peek()) {
                        return Err(self.err(
                            self.pos,
                            "expected an attribute name after '.' (use [\"...\"] for other names)",
                        ));
                    }
                    path.push(PathStep::Attr(Cow::Borrowed(self.ident())));
                }
                b'[' => {
                    self.pos += 1;
                    let step = match self.peek() {
                        Some(b'"') => PathStep::Key(self.string()?),
                        Some(b'0'..=b'9') => PathStep::Index(self.number()?),
                        _ => {
                            return Err(
                                self.err(self.pos, "expected a number or a \"string\" after '['")
                            );
                        }
                    };
                    if self.peek() != Some(b']') {
                        return Err(self.err(self.pos, "expected ']'"));
                    }
                    self.pos += 1;
                    path.push(step);
                }
                _ => return Err(self.err(self.pos, "expected '.' or '['")),
            }
        }
        Ok(path)
    }

    fn ident(&mut self) -> &'a str {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    fn number(&mut self) -> Result<u64, Error> {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.text[start..self.pos]
            .parse()
            .map_err(|_| self.err(start, "index out of range"))
    }

    /// A JSON string starting at the opening quote.
    fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        let open = self.pos;
        let start = open + 1;
        let bytes = self.text.as_bytes();
        // Without escapes, the name borrows from the text.
        let Some(rel) = memchr::memchr2(b'"', b'\\', &bytes[start..]) else {
            return Err(self.err(open, "unterminated string"));
        };
        if bytes[start + rel] == b'"' {
            if let Some(c) = bytes[start..start + rel].iter().position(|&b| b < 0x20) {
                return Err(self.err(start + c, "control character in a string"));
            }
            self.pos = start + rel + 1;
            return Ok(Cow::Borrowed(&self.text[start..start + rel]));
        }
        let mut out = String::new();
        let mut chars = self.text[start..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos = start + i + 1;
                    return Ok(Cow::Owned(out));
                }
                '\\' => {
                    let esc_at = start + i;
                    let Some((_, e)) = chars.next() else { break };
                    out.push(match e {
                        '"' => '"',
                        '\\' => '\\',
                        '/' => '/',
                        'b' => '\u{8}',
                        'f' => '\u{c}',
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        'u' => self.unicode_escape(&mut chars, esc_at)?,
                        _ => return Err(self.err(esc_at, "invalid escape")),
                    });
                }
                c if (c as u32) < 0x20 => {
                    return Err(self.err(start + i, "control character in a string"));
                }
                c => out.push(c),
            }
        }
        Err(self.err(open, "unterminated string"))
    }

    /// The character of a `\u` escape (and of the low surrogate's escape after a high one).
    fn unicode_escape(
        &self,
        chars: &mut core::str::CharIndices<'_>,
        at: usize,
    ) -> Result<char, Error> {
        let hi = self.hex4(chars, at)?;
        let c = if (0xD800..0xDC00).contains(&hi) {
            let lo = match (chars.next(), chars.next()) {
                (Some((_, '\\')), Some((_, 'u'))) => self.hex4(chars, at)?,
                _ => return Err(self.err(at, "unpaired surrogate")),
            };
            char::decode_utf16([hi, lo]).next().and_then(|r| r.ok())
        } else {
            char::from_u32(u32::from(hi))
        };
        c.ok_or_else(|| self.err(at, "unpaired surrogate"))
    }

    fn hex4(&self, chars: &mut core::str::CharIndices<'_>, at: usize) -> Result<u16, Error> {
        let mut n = 0u16;
        for _ in 0..4 {
            let d = chars
                .next()
                .and_then(|(_, c)| c.to_digit(16))
                .ok_or_else(|| self.err(at, "expected four hex digits after \\u"))?;
            n = n * 16 + d as u16;
        }
        Ok(n)
    }
}
