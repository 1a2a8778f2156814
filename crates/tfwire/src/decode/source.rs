//! What the state machine reads: format-neutral tokens from a token source.

use super::fault::Fault;

/// One token, as the state machine sees it, whatever the format.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tok<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    F32(f32),
    F64(f64),
    /// A JSON number literal (RFC 8259 syntax), verbatim.
    Num(&'a str),
    /// A string, valid UTF-8 (not yet NFC-normalized).
    Str(&'a str),
    /// MessagePack binary.
    Bin(&'a [u8]),
    /// An array and its element count (from the byte-wise JSON reader, `u32::MAX`: unknown,
    /// see [`Source::at_end`]).
    Array(u32),
    /// A map or JSON object and its pair count.
    Map(u32),
    /// A MessagePack extension: type code and payload.
    Ext(i8, &'a [u8]),
}

impl Tok<'_> {
    /// What the input holds, for "found ..." in messages (JSON has no integers or floats,
    /// only numbers; no maps, only objects).
    pub(crate) fn name_in(&self, json: bool) -> &'static str {
        match self {
            Tok::Int(_) | Tok::Uint(_) | Tok::F32(_) | Tok::F64(_) | Tok::Num(_) if json => {
                "number"
            }
            Tok::Map(_) if json => "object",
            _ => self.name(),
        }
    }

    /// What the input holds, for "found ..." in messages.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Tok::Null => "null",
            Tok::Bool(_) => "bool",
            Tok::Int(_) | Tok::Uint(_) => "integer",
            Tok::F32(_) | Tok::F64(_) => "float",
            Tok::Num(_) => "number",
            Tok::Str(_) => "string",
            Tok::Bin(_) => "binary",
            Tok::Array(_) => "array",
            Tok::Map(_) => "map",
            Tok::Ext(..) => "extension (unknown value)",
        }
    }
}

/// The format-specific half of decoding: reading tokens. The state machine (the other half)
/// is shared by every source.
pub(crate) trait Source<'a> {
    /// Whether this is a JSON source (JSON's rules for objects, coercions and dynamic values
    /// apply) rather than MessagePack.
    const JSON: bool;

    /// The operations only JSON sources have: the source itself for JSON, [`NotJson`]
    /// (which has no values) for MessagePack.
    type Json: JsonSource<'a>;

    /// The JSON-only operations, for a JSON source (`None` for MessagePack, a constant the
    /// compiler folds).
    fn json(&mut self) -> Option<&mut Self::Json>;

    /// Reads the next token.
    fn next(&mut self) -> Result<Tok<'a>, Fault>;

    /// If the next token is the object key `name` (whose MessagePack encoding is `encoded`),
    /// consumes it and says so; otherwise consumes nothing. A fast path for the attribute
    /// the decoder expects next: a source that cannot check cheaply says `false`.
    #[inline]
    fn expect_key(&mut self, _encoded: &[u8], _name: &str) -> bool {
        false
    }

    /// Fast path for an expected string: if the next token is a valid UTF-8 string that is
    /// certainly in NFC already (see [`crate::nfc`]), consumes and returns it; otherwise
    /// consumes nothing (the general path then reads the token, normalizes it or reports what
    /// is wrong with it).
    #[inline]
    fn try_str(&mut self) -> Option<&'a str> {
        None
    }

    /// Fast path: if the next token is null (`Some(None)`) or a bool (`Some(Some(b))`),
    /// consumes it; otherwise consumes nothing.
    #[inline]
    fn try_bool(&mut self) -> Option<Option<bool>> {
        None
    }

    /// Fast path for an expected number: an integer or a (non-NaN) float, consumed and
    /// returned; otherwise nothing is consumed.
    #[inline]
    fn try_number(&mut self) -> Option<crate::Number<'a>> {
        None
    }

    /// Fast path for an expected container: if the next token is a map (`map` true) or an
    /// array (`map` false) header, consumes it and returns its count; otherwise consumes
    /// nothing (the general path then reads the token and reports what is wrong with it).
    #[inline]
    fn try_container(&mut self, _map: bool) -> Option<u32> {
        None
    }

    /// Fast path: if the next token is null, consumes it.
    #[inline]
    fn try_null(&mut self) -> bool {
        false
    }

    /// Where the token last returned by [`Source::next`] starts: its byte offset, or a
    /// position only [`Source::locate`] turns into one (the tape source hands out node
    /// indexes, whose offsets it computes only for errors). Errors the machine builds carry
    /// it until the decode returns, which locates it.
    fn offset(&self) -> usize;

    /// The byte offset of a position from [`Source::offset`] (the identity for sources
    /// whose positions are byte offsets).
    #[inline]
    fn locate(&self, at: usize) -> usize {
        at
    }

    /// Offset of the next byte to read (where a missing value would start).
    fn position(&self) -> usize;

    /// Checks that nothing follows the value.
    fn finish(&mut self) -> Result<(), Fault>;
}

/// What only a JSON source does: containers whose length the byte-wise reader learns at
/// their end, values skipped whole (lenient mode), and dynamic values, whose
/// `{"type": ..., "value": ...}` objects are read out of order.
pub(crate) trait JsonSource<'a> {
    /// Whether the container being read has ended (for containers whose count was
    /// `u32::MAX`, i.e. unknown in advance). Consumes the closing delimiter or the separator.
    fn at_end(&mut self, first: bool) -> Result<bool, Fault>;

    /// Skips the next whole value.
    fn skip_value(&mut self) -> Result<(), Fault>;

    /// Reads the `{"type": ..., "value": ...}` object of a dynamic value, whose opening token
    /// was just returned: parses the type (at most `depth` deep), positions the source at
    /// the value, and returns the type and a mark for [`JsonSource::seek`] to jump past the
    /// object once the value is read.
    fn json_dynamic(
        &mut self,
        bump: &'a bumpalo::Bump,
        depth: usize,
    ) -> Result<(crate::ty::Ty<'a>, usize), Fault>;

    /// With `Config::plain_dynamic`: the value whose first token was just returned is plain
    /// JSON at a dynamic position: returns the type it implies and a mark for
    /// [`JsonSource::seek`] past it, and positions the source at the value again.
    fn json_implied(
        &mut self,
        bump: &'a bumpalo::Bump,
        depth: usize,
    ) -> Result<(crate::ty::Ty<'a>, usize), Fault>;

    /// Moves to a mark returned by [`JsonSource::json_dynamic`] or
    /// [`JsonSource::json_implied`].
    fn seek(&mut self, mark: usize);
}

/// The [`Source::Json`] of MessagePack sources: a type without values, so its operations
/// can never be called (and need no body but the empty match).
pub(crate) enum NotJson {}

impl<'a> JsonSource<'a> for NotJson {
    fn at_end(&mut self, _first: bool) -> Result<bool, Fault> {
        match *self {}
    }

    fn skip_value(&mut self) -> Result<(), Fault> {
        match *self {}
    }

    fn json_dynamic(
        &mut self,
        _bump: &'a bumpalo::Bump,
        _depth: usize,
    ) -> Result<(crate::ty::Ty<'a>, usize), Fault> {
        match *self {}
    }

    fn json_implied(
        &mut self,
        _bump: &'a bumpalo::Bump,
        _depth: usize,
    ) -> Result<(crate::ty::Ty<'a>, usize), Fault> {
        match *self {}
    }

    fn seek(&mut self, _mark: usize) {
        match *self {}
    }
}
