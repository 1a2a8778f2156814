//! The JSON token source over text, byte by byte: the fallback for documents simd-json
//! rejects (numbers beyond its range), and the reference the simd-json path is tested
//! against. It knows no element counts up front: containers end when it says so.

use super::fault::Fault;
use super::source::{JsonSource, Source, Tok};
use crate::error::ErrorKind;
use crate::ty::Ty;
use bumpalo::Bump;
use tfwire_json::scan;

pub(crate) struct TextSource<'a> {
    pub(crate) bump: &'a Bump,
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) last: usize,
    /// Open containers, innermost last: `true` for objects.
    pub(crate) open: Vec<bool>,
    /// The next string read is an object key (a colon follows it).
    pub(crate) key_next: bool,
}

impl<'a> TextSource<'a> {
    pub(crate) fn new(bump: &'a Bump, buf: &'a [u8]) -> TextSource<'a> {
        TextSource {
            bump,
            buf,
            pos: 0,
            last: 0,
            open: Vec::new(),
            key_next: false,
        }
    }

    fn syntax(&self, at: usize, expected: &str) -> Fault {
        let found = scan::describe(self.buf, at);
        let kind = if at >= self.buf.len() {
            ErrorKind::UnexpectedEof
        } else {
            ErrorKind::Syntax(format!("expected {expected}, found {found}"))
        };
        Fault::Fail(kind, at)
    }

    fn scan_fail(&self, e: tfwire_json::Error) -> Fault {
        let (kind, at) = Box::<crate::error::Fail>::from(e).into_parts();
        if at >= self.buf.len() {
            Fault::Fail(ErrorKind::UnexpectedEof, at)
        } else {
            Fault::Fail(kind, at)
        }
    }

    /// Reads a string at `i`, then (for a key) its colon.
    fn string(&mut self, i: usize) -> Result<&'a str, Fault> {
        let (s, end) = scan::string(self.bump, self.buf, i).map_err(|e| self.scan_fail(e))?;
        self.pos = end;
        if self.key_next {
            self.key_next = false;
            let c = scan::skip_ws(self.buf, end);
            if self.buf.get(c) != Some(&b':') {
                return Err(self.syntax(c, "':'"));
            }
            self.pos = c + 1;
        }
        Ok(s)
    }

    /// Skips the value starting at or after `self.pos`, balancing brackets (depth-counted, no
    /// recursion).
    fn skip(&mut self) -> Result<(), Fault> {
        let mut depth = 0usize;
        loop {
            let i = scan::skip_ws(self.buf, self.pos);
            match self.buf.get(i) {
                Some(b'{' | b'[') => {
                    depth += 1;
                    self.pos = i + 1;
                }
                Some(b'}' | b']') if depth > 0 => {
                    depth -= 1;
                    self.pos = i + 1;
                }
                Some(b',' | b':') if depth > 0 => self.pos = i + 1,
                Some(b'"') => {
                    let (_, end) =
                        scan::string(self.bump, self.buf, i).map_err(|e| self.scan_fail(e))?;
                    self.pos = end;
                }
                Some(b'-' | b'0'..=b'9') => {
                    self.pos = scan::number(self.buf, i).map_err(|e| self.scan_fail(e))?
                }
                Some(b't') => {
                    self.pos = scan::literal(self.buf, i, b"true").map_err(|e| self.scan_fail(e))?
                }
                Some(b'f') => {
                    self.pos =
                        scan::literal(self.buf, i, b"false").map_err(|e| self.scan_fail(e))?
                }
                Some(b'n') => {
                    self.pos = scan::literal(self.buf, i, b"null").map_err(|e| self.scan_fail(e))?
                }
                _ => return Err(self.syntax(i, "a value")),
            }
            if depth == 0 {
                return Ok(());
            }
        }
    }
}

impl<'a> Source<'a> for TextSource<'a> {
    const JSON: bool = true;
    type Json = Self;

    #[inline(always)]
    fn json(&mut self) -> Option<&mut Self> {
        Some(self)
    }

    fn next(&mut self) -> Result<Tok<'a>, Fault> {
        let i = scan::skip_ws(self.buf, self.pos);
        self.last = i;
        if self.key_next && self.buf.get(i) != Some(&b'"') {
            return Err(self.syntax(i, "a string (an object key)"));
        }
        match self.buf.get(i) {
            Some(b'"') => self.string(i).map(Tok::Str),
            Some(b'{') => {
                self.pos = i + 1;
                self.open.push(true);
                Ok(Tok::Map(u32::MAX))
            }
            Some(b'[') => {
                self.pos = i + 1;
                self.open.push(false);
                Ok(Tok::Array(u32::MAX))
            }
            Some(b'-' | b'0'..=b'9') => {
                let end = scan::number(self.buf, i).map_err(|e| self.scan_fail(e))?;
                self.pos = end;
                Ok(Tok::Num(
                    core::str::from_utf8(&self.buf[i..end]).unwrap_or(""),
                ))
            }
            Some(b't') => {
                self.pos = scan::literal(self.buf, i, b"true").map_err(|e| self.scan_fail(e))?;
                Ok(Tok::Bool(true))
            }
            Some(b'f') => {
                self.pos = scan::literal(self.buf, i, b"false").map_err(|e| self.scan_fail(e))?;
                Ok(Tok::Bool(false))
            }
            Some(b'n') => {
                self.pos = scan::literal(self.buf, i, b"null").map_err(|e| self.scan_fail(e))?;
                Ok(Tok::Null)
            }
            _ => Err(self.syntax(i, "a value")),
        }
    }

    fn offset(&self) -> usize {
        self.last
    }

    fn position(&self) -> usize {
        scan::skip_ws(self.buf, self.pos)
    }

    fn finish(&mut self) -> Result<(), Fault> {
        let i = scan::skip_ws(self.buf, self.pos);
        if i == self.buf.len() {
            Ok(())
        } else {
            Err(Fault::Fail(ErrorKind::TrailingBytes, i))
        }
    }
}

impl<'a> JsonSource<'a> for TextSource<'a> {
    fn at_end(&mut self, first: bool) -> Result<bool, Fault> {
        let is_object = *self.open.last().expect("inside a container");
        let close = if is_object { b'}' } else { b']' };
        let i = scan::skip_ws(self.buf, self.pos);
        match self.buf.get(i) {
            Some(&b) if b == close => {
                self.pos = i + 1;
                self.open.pop();
                Ok(true)
            }
            Some(b',') if !first => {
                self.pos = i + 1;
                self.key_next = is_object;
                Ok(false)
            }
            _ if first => {
                self.key_next = is_object;
                Ok(false)
            }
            _ => Err(self.syntax(
                i,
                if is_object {
                    "',' or '}'"
                } else {
                    "',' or ']'"
                },
            )),
        }
    }

    fn skip_value(&mut self) -> Result<(), Fault> {
        self.last = scan::skip_ws(self.buf, self.pos);
        self.skip()
    }

    fn json_dynamic(&mut self, bump: &'a Bump, depth: usize) -> Result<(Ty<'a>, usize), Fault> {
        let at = self.last;
        let (mut ty, mut value_at) = (None, None);
        let mut first = true;
        while !self.at_end(first)? {
            first = false;
            let kat = scan::skip_ws(self.buf, self.pos);
            let Tok::Str(key) = self.next()? else {
                unreachable!("keys are strings")
            };
            match key {
                "type" => {
                    let start = scan::skip_ws(self.buf, self.pos);
                    let mut text = crate::ty::json::Text {
                        bump,
                        buf: self.buf,
                        pos: start,
                    };
                    let t = crate::ty::json::parse(&mut text, bump, depth)
                        .map_err(|e| super::json_tape::type_fault(e, start))?;
                    self.pos = text.pos;
                    ty = Some(t);
                }
                "value" => {
                    value_at = Some(scan::skip_ws(self.buf, self.pos));
                    self.skip()?;
                }
                _ => {
                    return Err(Fault::Fail(
                        ErrorKind::InvalidDynamic(format!(
                            "unexpected key {key:?} (only \"type\" and \"value\")"
                        )),
                        kat,
                    ));
                }
            }
        }
        let end = self.pos;
        let Some(ty) = ty else {
            return Err(Fault::Fail(
                ErrorKind::InvalidDynamic("missing \"type\"".into()),
                at,
            ));
        };
        let Some(value_at) = value_at else {
            return Err(Fault::Fail(
                ErrorKind::InvalidDynamic("missing \"value\"".into()),
                at,
            ));
        };
        self.pos = value_at;
        Ok((ty, end))
    }

    /// A reader without a tape cannot look ahead: a plain dynamic value is refused.
    fn json_implied(&mut self, _bump: &'a Bump, _depth: usize) -> Result<(Ty<'a>, usize), Fault> {
        Err(Fault::Fail(
            ErrorKind::InvalidDynamic("a plain dynamic value is read from a tape only".into()),
            self.offset(),
        ))
    }

    fn seek(&mut self, mark: usize) {
        self.pos = mark;
    }
}
