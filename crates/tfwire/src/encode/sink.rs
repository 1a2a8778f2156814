//! The output side of an encoder ([`Sink`]) and the checks both sinks share.

use crate::error::ErrorKind;
use crate::number::Number;
use crate::program::AttrNode;
use crate::ty::Ty;
use crate::value::Refinements;

/// What an unknown value's refinements may apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    String,
    Number,
    /// A list, set or map.
    Collection,
    /// A bool, object or tuple: nullness only.
    Other,
    /// An unknown of unknown type: no refinements.
    Dynamic,
}

/// The output side of an encoder: the walker has checked the value, the sink writes it.
pub(crate) trait Sink {
    /// Bytes written so far (by this encode).
    fn len(&self) -> usize;
    fn null(&mut self);
    fn unknown(&mut self, r: Option<&Refinements<'_>>, target: Target) -> Result<(), ErrorKind>;
    fn bool(&mut self, b: bool);
    fn number(&mut self, n: Number<'_>) -> Result<(), ErrorKind>;
    fn string(&mut self, s: &str) -> Result<(), ErrorKind>;
    /// Writes `s` if it is in NFC (`Ok(true)`); `Ok(false)`, nothing written, if it is not.
    /// A sink that reads the string's bytes anyway may check both in one pass.
    #[inline]
    fn nfc_string(&mut self, s: &str) -> Result<bool, ErrorKind> {
        if !crate::nfc::is_nfc(s) {
            return Ok(false);
        }
        self.string(s).map(|()| true)
    }
    fn begin_seq(&mut self, len: usize) -> Result<(), ErrorKind>;
    fn seq_elem(&mut self, i: usize);
    fn end_seq(&mut self);
    fn begin_map(&mut self, len: usize) -> Result<(), ErrorKind>;
    fn map_key(&mut self, i: usize, key: &str) -> Result<(), ErrorKind>;
    /// The name of a compiled program's object attribute, whose MessagePack and JSON
    /// encodings were computed at compile time.
    fn attr_key(&mut self, i: usize, attr: &AttrNode) -> Result<(), ErrorKind>;
    /// Writes a compiled attribute's name and its string value `s` at once if the sink has
    /// a fast path for `s` that needs no check (a short ASCII string): `true` when written,
    /// `false` (nothing written) when the caller takes the general path.
    #[inline(always)]
    fn attr_short_string(&mut self, _attr: &AttrNode, _s: &str) -> bool {
        false
    }
    /// The same for a map entry whose value is the string `s`: `true` when the key and the
    /// value were written (both need no check), `false` when nothing was.
    #[inline(always)]
    fn entry_short_string(&mut self, _key: &str, _s: &str) -> bool {
        false
    }
    fn end_map(&mut self);
    /// A value of concrete type `ty` at a `dynamic` position starts.
    fn begin_dynamic(&mut self, ty: Ty<'_>) -> Result<(), ErrorKind>;
    fn end_dynamic(&mut self, ty: Ty<'_>);
}

#[cold]
pub(crate) fn unencodable(message: String) -> ErrorKind {
    ErrorKind::Unencodable(message)
}

/// Checks a number for writing: never NaN; decimal text valid.
pub(crate) fn check_number(n: Number<'_>) -> Result<(), ErrorKind> {
    match n {
        Number::F64(f) if f.is_nan() => Err(ErrorKind::InvalidNumber("NaN".into())),
        Number::F32(f) if f.is_nan() => Err(ErrorKind::InvalidNumber("NaN".into())),
        Number::Decimal(t) => match Number::parse(t) {
            Ok(Number::Decimal(_)) => Ok(()),
            _ => Err(ErrorKind::InvalidNumber(t.to_owned())),
        },
        _ => Ok(()),
    }
}
