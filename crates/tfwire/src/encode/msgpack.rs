//! The MessagePack writer: go-cty's `msgpack.Marshal` choices over `tfwire_msgpack::write`.

use super::sink::{Sink, Target, check_number, unencodable};
use super::{prefix, put};
use crate::error::ErrorKind;
use crate::number::{DecimalForm, Number, decimal_form};
use crate::program::AttrNode;
use crate::ty::Ty;
use crate::value::Refinements;
use core::fmt::Write as _;
use tfwire_msgpack::write;

/// Extension code of a refined unknown value.
const REFINED: i8 = 12;

/// The largest refinement payload go-cty's decoder accepts.
const MAX_REFINEMENTS: usize = 1024;

pub(crate) struct Msgpack<'o> {
    out: &'o mut Vec<u8>,
    start: usize,
    /// Refinement entries being assembled.
    scratch: Vec<u8>,
    /// Type JSON and decimal text being assembled.
    text: String,
}

impl<'o> Msgpack<'o> {
    pub(crate) fn new(out: &'o mut Vec<u8>) -> Msgpack<'o> {
        let start = out.len();
        Msgpack {
            out,
            start,
            scratch: Vec::new(),
            text: String::new(),
        }
    }
}

impl Msgpack<'_> {
    /// Writes the entries of `r` to `scratch` in go-cty's order (nullness, lower bound,
    /// upper bound, prefix, length bounds) and returns their number. With `scientific`,
    /// number bounds that would go out as decimal text use scientific notation.
    fn refinements_to_scratch(
        &mut self,
        r: &Refinements<'_>,
        scientific: bool,
    ) -> Result<u32, ErrorKind> {
        let s = &mut self.scratch;
        s.clear();
        let mut n = 0;
        if r.not_null {
            s.extend_from_slice(&[0x01, 0xc2]);
            n += 1;
        }
        for (key, bound) in [(0x03, r.lower), (0x04, r.upper)] {
            if let Some((b, inclusive)) = bound {
                s.extend_from_slice(&[key, 0x92]);
                if scientific && is_decimal_text(b) {
                    self.text.clear();
                    let _ = b.write_scientific(&mut self.text);
                    str_to(s, &self.text)?;
                } else {
                    number_to(s, b, &mut self.text)?;
                }
                write::bool(s, inclusive);
                n += 1;
            }
        }
        if let Some(p) = r.prefix.filter(|p| !p.is_empty()) {
            s.push(0x02);
            str_to(s, &prefix::truncate(p))?;
            n += 1;
        }
        if let Some(min) = r.len_lower.filter(|&m| m > 0) {
            s.push(0x05);
            write::uint(s, min);
            n += 1;
        }
        // go-cty's "no upper bound" is the largest int; a bound that large says nothing.
        if let Some(max) = r.len_upper.filter(|&m| m < i64::MAX as u64) {
            s.push(0x06);
            write::uint(s, max);
            n += 1;
        }
        Ok(n)
    }
}

/// Whether [`number_to`] writes `n` as decimal text (not as an int or a float).
fn is_decimal_text(n: Number<'_>) -> bool {
    match n {
        Number::Uint(u) => i64::try_from(u).is_err(),
        Number::Decimal(_) => {
            n.to_i64().is_none() && (n.is_integer() || n.to_f64_exact().is_none())
        }
        Number::Int(_) | Number::F64(_) | Number::F32(_) => false,
    }
}

/// `len` as a MessagePack length, or an error for 2^32 and more.
fn len32(len: usize, what: &str) -> Result<u32, ErrorKind> {
    u32::try_from(len).map_err(|_| {
        unencodable(format!(
            "{what} of length {len} is too long for MessagePack (at most 2^32 - 1)"
        ))
    })
}

/// Writes a string: inline for a fixstr (the commonest string: header and bytes with one
/// reservation), out of line for the others.
#[inline(always)]
fn str_to(out: &mut Vec<u8>, s: &str) -> Result<(), ErrorKind> {
    let b = s.as_bytes();
    if b.len() < 32 {
        put::fixstr(out, b);
        return Ok(());
    }
    long_str_to(out, b)
}

#[inline(never)]
fn long_str_to(out: &mut Vec<u8>, b: &[u8]) -> Result<(), ErrorKind> {
    if b.len() <= 255 {
        // `str8`, the commonest header here, written inline (`write::str_len`'s dispatch
        // took about a fifth of this function).
        out.reserve(2 + b.len());
        out.extend_from_slice(&[0xd9, b.len() as u8]);
    } else {
        out.reserve(5 + b.len());
        write::str_len(out, len32(b.len(), "a string")?);
    }
    out.extend_from_slice(b);
    Ok(())
}

/// Writes a number as go-cty 1.16 does, except that floats stay floats (see the module docs
/// of `encode`). `text` is scratch for decimal text.
pub(crate) fn number_to(
    out: &mut Vec<u8>,
    n: Number<'_>,
    text: &mut String,
) -> Result<(), ErrorKind> {
    // Only floats need a check here (NaN); decimal text is checked by its one parse.
    if matches!(n, Number::F64(_) | Number::F32(_)) {
        check_number(n)?;
    }
    match n {
        Number::Int(i) => write::int(out, i),
        Number::Uint(u) => match i64::try_from(u) {
            Ok(i) => write::int(out, i),
            Err(_) => {
                text.clear();
                let _ = write!(text, "{u}");
                str_to(out, text)?;
            }
        },
        Number::F64(f) => write::f64(out, f),
        Number::F32(f) => write::f64(out, f as f64),
        // One parse decides the form and checks the text.
        Number::Decimal(t) => match decimal_form(t, text) {
            Some(DecimalForm::Int(i)) => write::int(out, i),
            Some(DecimalForm::F64(f)) => write::f64(out, f),
            Some(DecimalForm::Text) => str_to(out, text)?,
            None => return Err(ErrorKind::InvalidNumber(t.to_owned())),
        },
    }
    Ok(())
}

impl Sink for Msgpack<'_> {
    fn len(&self) -> usize {
        self.out.len() - self.start
    }

    fn null(&mut self) {
        write::nil(self.out);
    }

    fn unknown(&mut self, r: Option<&Refinements<'_>>, target: Target) -> Result<(), ErrorKind> {
        let Some(r) = r else {
            self.out.extend_from_slice(&[0xd4, 0, 0]);
            return Ok(());
        };
        check_refinements(r, target)?;
        let mut n = self.refinements_to_scratch(r, false)?;
        if 1 + self.scratch.len() > MAX_REFINEMENTS && (r.lower.is_some() || r.upper.is_some()) {
            // A bound go-cty would write as thousands of digits (sent as `"8e4210"`, a few
            // bytes) goes out in scientific notation, which go-cty's decoder reads as the
            // same number; go-cty's encoder writes bytes its own decoder refuses.
            n = self.refinements_to_scratch(r, true)?;
        }
        if n == 0 {
            self.out.extend_from_slice(&[0xd4, 0, 0]);
            return Ok(());
        }
        let payload = 1 + self.scratch.len();
        if payload > MAX_REFINEMENTS {
            return Err(unencodable(format!(
                "the refinements take {payload} bytes, more than the {MAX_REFINEMENTS} go-cty \
                 accepts"
            )));
        }
        write::ext_header(self.out, REFINED, payload as u32);
        write::map_len(self.out, n);
        self.out.extend_from_slice(&self.scratch);
        Ok(())
    }

    fn bool(&mut self, b: bool) {
        write::bool(self.out, b);
    }

    fn number(&mut self, n: Number<'_>) -> Result<(), ErrorKind> {
        number_to(self.out, n, &mut self.text)
    }

    #[inline]
    fn string(&mut self, s: &str) -> Result<(), ErrorKind> {
        str_to(self.out, s)
    }

    /// Short ASCII strings (most) are found in NFC with a few word loads
    /// ([`crate::nfc::is_nfc`]), the others with one pass of the quick check.
    #[inline(always)]
    fn nfc_string(&mut self, s: &str) -> Result<bool, ErrorKind> {
        if !crate::nfc::is_nfc(s) {
            return Ok(false);
        }
        str_to(self.out, s).map(|()| true)
    }

    fn begin_seq(&mut self, len: usize) -> Result<(), ErrorKind> {
        write::array_len(self.out, len32(len, "a list, set or tuple")?);
        Ok(())
    }

    fn seq_elem(&mut self, _: usize) {}

    fn end_seq(&mut self) {}

    fn begin_map(&mut self, len: usize) -> Result<(), ErrorKind> {
        write::map_len(self.out, len32(len, "a map or object")?);
        Ok(())
    }

    #[inline(always)]
    fn map_key(&mut self, _: usize, key: &str) -> Result<(), ErrorKind> {
        str_to(self.out, key)
    }

    #[inline(always)]
    fn attr_key(&mut self, _: usize, attr: &AttrNode) -> Result<(), ErrorKind> {
        put::bytes(self.out, &attr.key);
        Ok(())
    }

    /// A short ASCII string (hence in NFC) goes out with its attribute's key in one write.
    #[inline(always)]
    fn attr_short_string(&mut self, attr: &AttrNode, s: &str) -> bool {
        let b = s.as_bytes();
        if b.len() < 32 && crate::text::is_ascii(b) {
            put::key_fixstr(self.out, &attr.key, b);
            return true;
        }
        false
    }

    /// A short ASCII key and a short ASCII string (hence in NFC) go out in one write.
    #[inline(always)]
    fn entry_short_string(&mut self, key: &str, s: &str) -> bool {
        let (k, b) = (key.as_bytes(), s.as_bytes());
        if k.len() < 32 && b.len() < 32 && crate::text::is_ascii(k) && crate::text::is_ascii(b) {
            put::fixstr_pair(self.out, k, b);
            return true;
        }
        false
    }

    fn end_map(&mut self) {}

    fn begin_dynamic(&mut self, ty: Ty<'_>) -> Result<(), ErrorKind> {
        // `[type JSON as binary, value]`.
        self.text.clear();
        let _ = write!(self.text, "{ty}");
        self.out.push(0x92);
        write::bin_len(self.out, len32(self.text.len(), "a type")?);
        self.out.extend_from_slice(self.text.as_bytes());
        Ok(())
    }

    fn end_dynamic(&mut self, _: Ty<'_>) {}
}

/// Checks that refinements fit the type and are consistent (as go-cty's decoder requires).
fn check_refinements(r: &Refinements<'_>, target: Target) -> Result<(), ErrorKind> {
    let bad = |m: &str| Err(unencodable(format!("refinements: {m}")));
    if target == Target::Dynamic && !r.is_empty() {
        return bad("an unknown value of unknown type has none (go-cty ignores them)");
    }
    if r.prefix.is_some() && target != Target::String {
        return bad("a string prefix refines only a string");
    }
    if let Some(p) = r.prefix
        && !crate::nfc::is_nfc(p)
    {
        return bad("the string prefix is not in Unicode normalization form C");
    }
    if (r.lower.is_some() || r.upper.is_some()) && target != Target::Number {
        return bad("number bounds refine only a number");
    }
    if (r.len_lower.is_some() || r.len_upper.is_some()) && target != Target::Collection {
        return bad("length bounds refine only a list, set or map");
    }
    for (n, _) in r.lower.iter().chain(r.upper.iter()) {
        check_number(*n)?;
    }
    if let (Some((min, min_inc)), Some((max, max_inc))) = (r.lower, r.upper) {
        let c = min.cmp_exact(&max);
        let ok = if min_inc != max_inc {
            c.is_lt()
        } else {
            c.is_le()
        };
        if !ok {
            return bad(&format!(
                "the number lower bound {min} is greater than the upper bound {max}"
            ));
        }
    }
    if let (Some(min), Some(max)) = (r.len_lower, r.len_upper)
        && min > max
    {
        return bad(&format!(
            "the length lower bound {min} is greater than the upper bound {max}"
        ));
    }
    if r.len_lower.is_some_and(|m| m > i64::MAX as u64) {
        return bad("the length lower bound is beyond the largest length go-cty can hold");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The inline fixstr path and the out-of-line path write exactly the string's header
    /// and bytes after what the buffer held, at every length around the fixstr limit, with
    /// and without spare capacity.
    #[test]
    fn short_strings_are_written_exactly() {
        for len in 0..=40 {
            let s: String = (0..len).map(|i| char::from(b'A' + i as u8)).collect();
            for (prefix, capacity) in [(0, 0), (3, 3), (5, 100)] {
                let mut out = Vec::with_capacity(capacity);
                out.extend(core::iter::repeat_n(0xee, prefix));
                super::str_to(&mut out, &s).unwrap();
                let mut want = vec![0xee; prefix];
                tfwire_msgpack::write::str(&mut want, &s);
                assert_eq!(out, want, "{len} {prefix}");
            }
        }
    }
}
