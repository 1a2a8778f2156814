//! The MessagePack token source over a complete input.

use super::source::{Source, Stop, Tok};
use crate::error::ErrorKind;
use tfwire_msgpack::{ErrorKind as MpErrorKind, Kind, Token, Tokenizer};

/// Converts a tokenizer token into a machine token; `bytes` holds the token's payload at
/// `payload_at` (its absolute offset).
#[inline]
pub(crate) fn convert<'a>(t: &Token, payload: &'a [u8]) -> Result<Tok<'a>, ErrorKind> {
    Ok(match t.kind {
        Kind::Nil => Tok::Null,
        Kind::Bool(b) => Tok::Bool(b),
        Kind::Uint(u) => Tok::Uint(u),
        Kind::Int(i) => Tok::Int(i),
        Kind::F32(f) => Tok::F32(f),
        Kind::F64(f) => Tok::F64(f),
        Kind::Str(_) => Tok::Str(utf8(payload)?),
        Kind::Bin(_) => Tok::Bin(payload),
        Kind::Array(n) => Tok::Array(n),
        Kind::Map(n) => Tok::Map(n),
        Kind::Ext(code, _) => Tok::Ext(code, payload),
    })
}

/// Validates UTF-8, with an ASCII fast path.
#[inline]
pub(crate) fn utf8(b: &[u8]) -> Result<&str, ErrorKind> {
    crate::text::utf8(b).ok_or(ErrorKind::InvalidUtf8)
}

/// Maps a tokenizer error to an error kind, for an input known to be complete.
#[inline]
pub(crate) fn complete_input_error(e: tfwire_msgpack::Error) -> (ErrorKind, usize) {
    match e.kind {
        MpErrorKind::Incomplete { .. } => (ErrorKind::UnexpectedEof, e.offset),
        MpErrorKind::ReservedMarker => (ErrorKind::InvalidMarker(0xc1), e.offset),
        _ => (
            ErrorKind::Syntax("unexpected tokenizer error".into()),
            e.offset,
        ),
    }
}

/// Reads tokens from a complete MessagePack input.
pub(crate) struct Complete<'a> {
    tokens: Tokenizer<'a>,
    last: usize,
}

impl<'a> Complete<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Complete<'a> {
        Complete {
            tokens: Tokenizer::new(input),
            last: 0,
        }
    }
}

impl<'a> Source<'a> for Complete<'a> {
    const JSON: bool = false;

    #[inline]
    fn next(&mut self) -> Result<Tok<'a>, Stop> {
        self.last = self.tokens.offset();
        let t = self.tokens.next_token().map_err(|e| {
            let (k, at) = complete_input_error(e);
            Stop::Fail(k, at)
        })?;
        let payload = self.tokens.payload(&t);
        convert(&t, payload).map_err(|k| Stop::Fail(k, t.span.start))
    }

    #[inline]
    fn offset(&self) -> usize {
        self.last
    }

    #[inline]
    fn position(&self) -> usize {
        self.tokens.offset()
    }

    fn finish(&mut self) -> Result<(), Stop> {
        if self.tokens.is_empty() {
            Ok(())
        } else {
            Err(Stop::Fail(ErrorKind::TrailingBytes, self.tokens.offset()))
        }
    }
}
