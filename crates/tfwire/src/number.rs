//! Exact numbers: integers and floats as they arrived, and decimal text kept verbatim.
//!
//! Terraform numbers are arbitrary-precision decimals. On the wire they are MessagePack
//! integers, floats, or decimal strings; in JSON, number literals. tfwire never rounds:
//! a float stays the binary64 (or binary32) it was, an integer its exact value, and a decimal
//! its text. Conversions ([`Number::to_f64`], [`Number::to_i64`]) and the canonical decimal
//! rendering (`Display`) are computed on demand.
//!
//! Comparisons follow go-cty: [`Number::cty_eq`] treats two integers as equal when their
//! exact values are, an integer and a non-integer as different, and two non-integers as equal
//! when they round to the same float64 (`rawNumberEqual`).

use crate::error::{Error, ErrorKind, Path};
use core::cmp::Ordering;
use core::fmt;

/// Decimal exponents (in scientific notation) beyond this magnitude are rejected as out of
/// range, so that no decimal
/// expands to more than ~100 000 digits when rendered. (go-cty's own limit is far larger,
/// but rendering such a number would take gigabytes.)
pub const MAX_DECIMAL_EXPONENT: i64 = 100_000;

/// The most zeros the plain text of a number may add to its significant digits
/// ([`Number::write_canonical`]): beyond, the number is written in scientific notation, so
/// that `"1e99999"` is written in 7 characters rather than 100 000. go-cty writes every
/// number in plain text; it reads the scientific form back as the same number. 1024 keeps
/// every number go-cty's conformance vectors write (up to `1e1000`, and the 1076
/// characters of the smallest float64) in go-cty's own form.
pub const MAX_PLAIN_ZEROS: i64 = 1024;

/// A number, exactly as it arrived.
#[derive(Clone, Copy, Debug)]
pub enum Number<'a> {
    /// A signed integer (MessagePack negative fixint or int8–int64 family, or any integer
    /// that fits `i64`).
    Int(i64),
    /// An unsigned integer (MessagePack positive fixint or uint8–uint64 family).
    Uint(u64),
    /// A MessagePack float64 (never NaN).
    F64(f64),
    /// A MessagePack float32 (never NaN).
    F32(f32),
    /// Decimal text, validated: `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`, kept
    /// verbatim (borrowed from the input where possible). Infinities are never decimals.
    Decimal(&'a str),
}

/// Why a text is not a number (the reason [`Number::parse`] turns into an [`Error`]; inside
/// the crate, a `Copy` value that costs nothing on paths that try a text and fall back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// Not number syntax.
    Invalid,
    /// The exponent is beyond [`MAX_DECIMAL_EXPONENT`].
    OutOfRange,
}

impl NumberError {
    /// The error kind for `text`.
    #[cold]
    pub(crate) fn kind(self, text: &str) -> ErrorKind {
        match self {
            NumberError::Invalid => ErrorKind::InvalidNumber(text.to_owned()),
            NumberError::OutOfRange => ErrorKind::NumberOutOfRange(text.to_owned()),
        }
    }

    /// The public error for `text`.
    #[cold]
    pub(crate) fn into_error(self, text: &str) -> Error {
        Error::new(self.kind(text), 0, Path::root())
    }
}

impl<'a> Number<'a> {
    /// Parses decimal text as go-cty's `ParseNumberVal` does (with base-10 `big.Float`
    /// syntax): an optional sign, digits with an optional point (`5.`, `.5`), an optional
    /// `e`/`E` exponent; `Inf`/`inf` with an optional sign are infinities. Not accepted: NaN,
    /// `Infinity`, hex, `_`, spaces, the empty string, and Go's binary exponent (`1p3`), which
    /// go-cty accepts but no Terraform number is written in.
    ///
    /// ```
    /// use tfwire::Number;
    /// assert_eq!(Number::parse("0012.50").unwrap().to_string(), "12.5");
    /// assert_eq!(Number::parse("-Inf").unwrap().to_string(), "-Inf");
    /// assert!(Number::parse("1_000").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidNumber`] for text that is not a number,
    /// [`ErrorKind::NumberOutOfRange`] for an exponent beyond [`MAX_DECIMAL_EXPONENT`]; at
    /// byte 0, the root path.
    pub fn parse(text: &'a str) -> Result<Number<'a>, Error> {
        Number::parse_inner(text).map_err(|e| e.into_error(text))
    }

    /// [`Number::parse`] of bytes, for the plain decimal text go-cty writes (an optional
    /// `-`, digits, at most one `.`): `None` for anything else, which the caller sends to
    /// [`Number::parse`] (that text needs no UTF-8 check first: it is ASCII).
    #[inline]
    pub(crate) fn parse_plain(b: &'a [u8]) -> Option<Number<'a>> {
        if !is_plain_decimal(b) {
            return None;
        }
        // SAFETY: `is_plain_decimal` accepts only an optional `-`, ASCII digits and at most
        // one `.` (its word test flags every other byte, 0x80 and above included, and the one
        // non-digit it lets through is checked to be `.`), and ASCII is valid UTF-8. The
        // `plain_decimal_check_is_exact` test checks `is_plain_decimal` and this function
        // against a byte-wise reference, with bytes 0xb0 and 0xff among its inputs at every
        // position. (`core::str::from_utf8` here cost about 110 instructions a 39-byte
        // decimal, 8 % of the decode of `numbers-1m`: benches/README.md; the safe
        // `text::utf8`, whose ASCII test passes every time, still 11.17 M instructions a
        // decode of `numbers-1m` against 10.57 M: callgrind, `profile`, at the merge.)
        Some(Number::Decimal(unsafe {
            core::str::from_utf8_unchecked(b)
        }))
    }

    /// [`Number::parse`] with the reason only.
    pub(crate) fn parse_inner(text: &'a str) -> Result<Number<'a>, NumberError> {
        let b = text.as_bytes();
        let body = match b.first() {
            Some(b'+' | b'-') => &b[1..],
            _ => b,
        };
        if body == b"Inf" || body == b"inf" {
            let inf = if b[0] == b'-' {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            return Ok(Number::F64(inf));
        }
        if !is_plain_decimal(b) {
            Dec::parse(text)?;
        }
        Ok(Number::Decimal(text))
    }

    /// Whether the number is an integer (infinities are not).
    pub fn is_integer(&self) -> bool {
        match *self {
            Number::Int(_) | Number::Uint(_) => true,
            Number::F64(f) => f.is_finite() && f.fract() == 0.0,
            Number::F32(f) => f.is_finite() && f.fract() == 0.0,
            Number::Decimal(t) => Dec::parse_valid(t).is_integer(),
        }
    }

    /// Whether the number is ±infinity.
    pub fn is_infinite(&self) -> bool {
        match *self {
            Number::F64(f) => f.is_infinite(),
            Number::F32(f) => f.is_infinite(),
            _ => false,
        }
    }

    /// The value as an `i64`, if it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        match *self {
            Number::Int(i) => Some(i),
            Number::Uint(u) => i64::try_from(u).ok(),
            Number::F64(f) => float_to_i64(f),
            Number::F32(f) => float_to_i64(f as f64),
            Number::Decimal(t) => Dec::parse_valid(t)
                .to_i128()
                .and_then(|v| i64::try_from(v).ok()),
        }
    }

    /// The value as a `u64`, if it is a non-negative integer in range.
    pub fn to_u64(&self) -> Option<u64> {
        match *self {
            Number::Int(i) => u64::try_from(i).ok(),
            Number::Uint(u) => Some(u),
            Number::F64(f) => float_to_u64(f),
            Number::F32(f) => float_to_u64(f as f64),
            Number::Decimal(t) => Dec::parse_valid(t)
                .to_i128()
                .and_then(|v| u64::try_from(v).ok()),
        }
    }

    /// The nearest `f64` (round half to even; ±infinity when out of range).
    pub fn to_f64(&self) -> f64 {
        match *self {
            Number::Int(i) => i as f64,
            Number::Uint(u) => u as f64,
            Number::F64(f) => f,
            Number::F32(f) => f as f64,
            Number::Decimal(t) => {
                let t = t.strip_prefix('+').unwrap_or(t);
                // Validated decimal syntax is a subset of what `f64::from_str` accepts.
                t.parse::<f64>().unwrap_or(f64::NAN)
            }
        }
    }

    /// The `f64` holding exactly this value, if there is one.
    pub fn to_f64_exact(&self) -> Option<f64> {
        let f = self.to_f64();
        if f.is_nan() {
            return None;
        }
        (Number::F64(f).cmp_exact(self) == Ordering::Equal).then_some(f)
    }

    /// Exact numeric comparison (−0 equals 0).
    pub fn cmp_exact(&self, other: &Number<'_>) -> Ordering {
        use Number::*;
        match (*self, *other) {
            (Int(a), Int(b)) => a.cmp(&b),
            (Uint(a), Uint(b)) => a.cmp(&b),
            (Int(a), Uint(b)) => (a as i128).cmp(&(b as i128)),
            (Uint(a), Int(b)) => (a as i128).cmp(&(b as i128)),
            // An integer against a float, exactly, without writing the float's expansion.
            (Int(a), F64(_) | F32(_)) => cmp_int_float(a.into(), other.as_float_unchecked()),
            (Uint(a), F64(_) | F32(_)) => cmp_int_float(a.into(), other.as_float_unchecked()),
            (F64(_) | F32(_), Int(b)) => {
                cmp_int_float(b.into(), self.as_float_unchecked()).reverse()
            }
            (F64(_) | F32(_), Uint(b)) => {
                cmp_int_float(b.into(), self.as_float_unchecked()).reverse()
            }
            // A float against a decimal: the decimal's nearest float `g` decides unless it is
            // the float itself (if x < g, x is below the decimal too: the decimal lies within
            // half a step of g, so above the float before g).
            (F64(_) | F32(_), Decimal(t)) | (Decimal(t), F64(_) | F32(_))
                if !self.is_infinite() && !other.is_infinite() =>
            {
                let (x, dec_first) = match self.as_float() {
                    Some(x) => (x, false),
                    None => (other.as_float_unchecked(), true),
                };
                let g = Number::Decimal(t).to_f64();
                // The float against the decimal.
                let c = if x < g {
                    Ordering::Less
                } else if x > g {
                    Ordering::Greater
                } else {
                    let mut ba = NumBuf::new();
                    let mut bb = NumBuf::new();
                    return self.dec(&mut ba).cmp(&other.dec(&mut bb));
                };
                if dec_first { c.reverse() } else { c }
            }
            (a, b) => {
                let (fa, fb) = (a.as_float(), b.as_float());
                if let (Some(x), Some(y)) = (fa, fb) {
                    return x.partial_cmp(&y).unwrap_or(Ordering::Equal);
                }
                // Infinities against decimals.
                if let Some(x) = fa.filter(|x| x.is_infinite()) {
                    return if x > 0.0 {
                        Ordering::Greater
                    } else {
                        Ordering::Less
                    };
                }
                if let Some(y) = fb.filter(|y| y.is_infinite()) {
                    return if y > 0.0 {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    };
                }
                let mut ba = NumBuf::new();
                let mut bb = NumBuf::new();
                a.dec(&mut ba).cmp(&b.dec(&mut bb))
            }
        }
    }

    /// go-cty's number equality: exact for two integers, never between an integer and a
    /// non-integer, and at float64 precision for two non-integers.
    pub fn cty_eq(&self, other: &Number<'_>) -> bool {
        match (self.is_integer(), other.is_integer()) {
            (true, true) => self.cmp_exact(other) == Ordering::Equal,
            (false, false) => self.to_f64() == other.to_f64(),
            _ => false,
        }
    }

    /// A total order consistent with [`Number::cty_eq`]: integers by exact value,
    /// non-integers by their float64, an integer before a non-integer that rounds to it.
    pub fn cty_cmp(&self, other: &Number<'_>) -> Ordering {
        let ka = self.cty_key();
        let kb = other.cty_key();
        ka.0.cmp_exact(&kb.0).then(kb.1.cmp(&ka.1))
    }

    fn cty_key(&self) -> (Number<'a>, bool) {
        if self.is_integer() {
            (*self, true)
        } else {
            (Number::F64(self.to_f64()), false)
        }
    }

    /// The float of an `F64` or `F32` (0 otherwise; only called on those).
    fn as_float_unchecked(&self) -> f64 {
        self.as_float().unwrap_or(0.0)
    }

    fn as_float(&self) -> Option<f64> {
        match *self {
            Number::F64(f) => Some(f),
            Number::F32(f) => Some(f as f64),
            _ => None,
        }
    }

    /// The normalized decimal view of a finite number; `buf` holds digits for integers and
    /// floats.
    fn dec<'s>(&'s self, buf: &'s mut NumBuf) -> Dec<'s> {
        match *self {
            Number::Decimal(t) => Dec::parse_valid(t),
            Number::Int(i) => {
                use fmt::Write;
                let _ = write!(buf, "{i}");
                Dec::parse_valid(buf.as_str())
            }
            Number::Uint(u) => {
                use fmt::Write;
                let _ = write!(buf, "{u}");
                Dec::parse_valid(buf.as_str())
            }
            Number::F64(f) => {
                use fmt::Write;
                let _ = write!(buf, "{f:.1074}");
                Dec::parse_valid(buf.as_str())
            }
            Number::F32(f) => {
                use fmt::Write;
                let _ = write!(buf, "{:.1074}", f as f64);
                Dec::parse_valid(buf.as_str())
            }
        }
    }

    /// Writes the canonical text: the exact value as a plain decimal with no exponent, no
    /// `+`, no leading zeros, no trailing fractional zeros; `0` for any zero; `+Inf`/`-Inf`.
    /// A number whose plain text would add more than [`MAX_PLAIN_ZEROS`] zeros to its
    /// significant digits is written in scientific notation instead (`1e99999`,
    /// `-2.5e-2000`): the text is never more than about 1 KiB longer than the digits that
    /// came in.
    pub fn write_canonical(&self, out: &mut impl fmt::Write) -> fmt::Result {
        match *self {
            Number::Int(i) => write!(out, "{i}"),
            Number::Uint(u) => write!(out, "{u}"),
            Number::F64(f) if f.is_infinite() => {
                out.write_str(if f > 0.0 { "+Inf" } else { "-Inf" })
            }
            Number::F32(f) if f.is_infinite() => {
                out.write_str(if f > 0.0 { "+Inf" } else { "-Inf" })
            }
            _ => {
                let mut buf = NumBuf::new();
                self.dec(&mut buf).write(out)
            }
        }
    }

    /// Writes the exact value in scientific notation, `[-]d[.ddd]e<exponent>` (`0` for
    /// zero): as short as the significant digits allow, where the canonical text of a large
    /// or tiny number runs to thousands of digits. go-cty parses it back to the same value.
    /// Infinities are written as by [`Number::write_canonical`].
    pub(crate) fn write_scientific(&self, out: &mut impl fmt::Write) -> fmt::Result {
        if self.is_infinite() {
            return self.write_canonical(out);
        }
        let mut buf = NumBuf::new();
        self.dec(&mut buf).write_scientific(out)
    }
}

/// How an encoder writes decimal text as MessagePack (go-cty 1.16's choice): an integer in
/// `i64` range as an integer, a non-integer that a float64 holds exactly as that float64,
/// anything else as its canonical text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum DecimalForm {
    Int(i64),
    F64(f64),
    Text,
}

/// The MessagePack form of decimal text `t` ([`DecimalForm`]), from one parse; `None` if `t`
/// is not a finite decimal of the accepted syntax and range. For [`DecimalForm::Text`],
/// `text` holds the canonical text afterwards (cleared first).
pub(crate) fn decimal_form(t: &str, text: &mut String) -> Option<DecimalForm> {
    let d = Dec::parse(t).ok()?;
    if d.is_integer() {
        if let Some(i) = d.to_i128().and_then(|v| i64::try_from(v).ok()) {
            return Some(DecimalForm::Int(i));
        }
    } else {
        let exact = match d.exact_f64() {
            Exact::Yes(f) => Some(f),
            Exact::No => None,
            // More significant digits than a `u128` holds: the general (slow) comparison.
            Exact::Unknown => Number::Decimal(t).to_f64_exact(),
        };
        if let Some(f) = exact {
            return Some(DecimalForm::F64(f));
        }
    }
    text.clear();
    d.write_canonical(t, text);
    Some(DecimalForm::Text)
}

/// Writes decimal text `t` canonically (see [`Number::write_canonical`]) from one parse;
/// with `keep_negative_zero`, a zero written with a sign stays `-0` (go-cty's JSON). `false`
/// if `t` is not a finite decimal of the accepted syntax and range (nothing written).
pub(crate) fn write_decimal(t: &str, keep_negative_zero: bool, out: &mut String) -> bool {
    let Ok(d) = Dec::parse(t) else {
        return false;
    };
    if keep_negative_zero && d.is_zero() && t.starts_with('-') {
        out.push_str("-0");
    } else {
        d.write_canonical(t, out);
    }
    true
}

/// Appends the decimal digits of `i` (what `write!(out, "{i}")` writes, without the
/// formatting machinery).
pub(crate) fn push_i64(out: &mut String, i: i64) {
    if i < 0 {
        out.push('-');
    }
    push_u64(out, i.unsigned_abs());
}

/// Appends the decimal digits of `u`.
pub(crate) fn push_u64(out: &mut String, mut u: u64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    out.push_str(core::str::from_utf8(&buf[at..]).unwrap_or("0"));
}

/// Exact comparison of an integer with a float (never NaN): compare with the float's
/// integer part, and on a tie with its fraction.
fn cmp_int_float(a: i128, f: f64) -> Ordering {
    // Beyond ±2^65 the float is beyond every i64 and u64 (and ±infinity lands here too).
    const LIMIT: f64 = 36_893_488_147_419_103_232.0;
    if f >= LIMIT {
        return Ordering::Less;
    }
    if f <= -LIMIT {
        return Ordering::Greater;
    }
    let t = f.trunc();
    a.cmp(&(t as i128)).then(if f > t {
        Ordering::Less
    } else if f < t {
        Ordering::Greater
    } else {
        Ordering::Equal
    })
}

fn float_to_i64(f: f64) -> Option<i64> {
    // -2^63 <= f < 2^63, integral.
    (f.fract() == 0.0 && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f))
        .then_some(f as i64)
}

fn float_to_u64(f: f64) -> Option<u64> {
    (f.fract() == 0.0 && (0.0..1.844_674_407_370_955_2e19).contains(&f)).then_some(f as u64)
}

impl fmt::Display for Number<'_> {
    /// The canonical text (see [`Number::write_canonical`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_canonical(f)
    }
}

impl PartialEq for Number<'_> {
    /// Exact numeric equality (a float64 0.1 is not the decimal 0.1).
    fn eq(&self, other: &Self) -> bool {
        self.cmp_exact(other) == Ordering::Equal
    }
}

impl PartialOrd for Number<'_> {
    /// Exact numeric order.
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp_exact(other))
    }
}

/// A stack buffer big enough for the exact expansion of any `f64` (at most 309 integer
/// digits, a point, 1074 fractional digits and a sign).
pub(crate) struct NumBuf {
    buf: [u8; 1400],
    len: usize,
}

impl NumBuf {
    pub(crate) fn new() -> NumBuf {
        NumBuf {
            buf: [0; 1400],
            len: 0,
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII produced by integer/float formatting is ever written.
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl fmt::Write for NumBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Whether `b` is an optional `-`, then ASCII digits with at most one `.` among them and at
/// least one digit, no longer than [`MAX_DECIMAL_EXPONENT`]: text that [`Dec::parse`]
/// accepts (without an exponent, the scientific exponent of such a number is within its
/// length of zero). Eight bytes at a time: go-cty writes numbers that neither an int64 nor
/// a float64 holds as such text, and the general parse took a quarter of the decode of a
/// payload of them. `false` sends the text to the general parse, which decides.
#[inline]
fn is_plain_decimal(b: &[u8]) -> bool {
    let body = match b {
        [b'-', rest @ ..] => rest,
        _ => b,
    };
    let n = body.len();
    if n > MAX_DECIMAL_EXPONENT as usize {
        return false;
    }
    // Whether a point was seen; `m` holds the non-digits of the bytes from `at`, in order.
    let mut point = false;
    let mut one = |m: u64, at: usize| -> bool {
        if m == 0 {
            return true;
        }
        let ok = !point && m & (m - 1) == 0 && body[at + m.trailing_zeros() as usize / 8] == b'.';
        point = true;
        ok
    };
    use tfwire_json::swar::{load, non_digits};
    let word = |at: usize| load(body, at);
    let mut i = 0;
    while i + 8 <= n {
        if !one(non_digits(word(i)), i) {
            return false;
        }
        i += 8;
    }
    if i < n {
        let rest = n - i;
        let ok = if n >= 8 {
            // The last eight bytes, of which the first `8 - rest` were seen above.
            one(non_digits(word(n - 8)) >> (8 * (8 - rest)), i)
        } else {
            let mut w = [b'0'; 8];
            w[..rest].copy_from_slice(&body[i..]);
            one(non_digits(u64::from_le_bytes(w)), i)
        };
        if !ok {
            return false;
        }
    }
    n > usize::from(point)
}

/// Whether a float64 holds a decimal exactly ([`Dec::exact_f64`]).
enum Exact {
    Yes(f64),
    No,
    /// Not decided by the fast check.
    Unknown,
}

/// A finite decimal in normalized form: the significant digits `a ++ b` (no leading or
/// trailing zeros; empty for zero) and the position of the decimal point counted from the
/// first significant digit.
#[derive(Clone, Copy, Debug)]
struct Dec<'s> {
    /// The text had no exponent, no `+` and an integer part (see [`Dec::canonical_is`]).
    plain: bool,
    neg: bool,
    a: &'s [u8],
    b: &'s [u8],
    point: i64,
}

impl<'s> Dec<'s> {
    /// Parses validated text (see [`Number::parse`]); panics never, but gives zero for text
    /// that is not valid (only ever called on validated text).
    fn parse_valid(text: &'s str) -> Dec<'s> {
        Dec::parse(text).unwrap_or(Dec {
            plain: false,
            neg: false,
            a: b"",
            b: b"",
            point: 0,
        })
    }

    fn parse(text: &'s str) -> Result<Dec<'s>, NumberError> {
        let s = text.as_bytes();
        let mut i = 0;
        let neg = match s.first() {
            Some(b'-') => {
                i = 1;
                true
            }
            Some(b'+') => {
                i = 1;
                false
            }
            _ => false,
        };
        let int_start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        let int = &s[int_start..i];
        let mut frac: &[u8] = b"";
        if i < s.len() && s[i] == b'.' {
            i += 1;
            let f = i;
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
            frac = &s[f..i];
        }
        if int.is_empty() && frac.is_empty() {
            return Err(NumberError::Invalid);
        }
        let mut exp: i64 = 0;
        let has_exp = i < s.len() && (s[i] == b'e' || s[i] == b'E');
        if has_exp {
            i += 1;
            let eneg = match s.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let e = i;
            while i < s.len() && s[i].is_ascii_digit() {
                // Saturate: anything this large is out of range anyway (unless the digits
                // are all zero, which the range check below allows).
                exp = exp.saturating_mul(10).saturating_add((s[i] - b'0') as i64);
                i += 1;
            }
            if i == e {
                return Err(NumberError::Invalid);
            }
            if eneg {
                exp = -exp;
            }
        }
        if i != s.len() {
            return Err(NumberError::Invalid);
        }
        // Strip leading zeros across the integer/fraction boundary.
        let mut a = int;
        let mut b = frac;
        let mut point = int.len() as i64;
        while let [b'0', rest @ ..] = a {
            a = rest;
            point -= 1;
        }
        if a.is_empty() {
            while let [b'0', rest @ ..] = b {
                b = rest;
                point -= 1;
            }
        }
        // Strip trailing zeros.
        if b.is_empty() {
            while let [rest @ .., b'0'] = a {
                a = rest;
            }
        } else {
            while let [rest @ .., b'0'] = b {
                b = rest;
            }
            if b.is_empty() {
                while let [rest @ .., b'0'] = a {
                    a = rest;
                }
            }
        }
        if a.is_empty() && b.is_empty() {
            return Ok(Dec {
                plain: false,
                neg: false,
                a,
                b,
                point: 0,
            });
        }
        let point = point.saturating_add(exp);
        // The exponent of the number in scientific notation (d.ddd × 10^adjusted).
        let adjusted = point.saturating_sub(1);
        if !(-MAX_DECIMAL_EXPONENT..=MAX_DECIMAL_EXPONENT).contains(&adjusted) {
            return Err(NumberError::OutOfRange);
        }
        // No exponent, no `+`, not starting with a point: see `canonical_is`.
        let plain = !has_exp && s.first() != Some(&b'+') && !int.is_empty();
        Ok(Dec {
            plain,
            neg,
            a,
            b,
            point,
        })
    }

    fn len(&self) -> usize {
        self.a.len() + self.b.len()
    }

    fn is_zero(&self) -> bool {
        self.len() == 0
    }

    fn digit(&self, i: usize) -> u8 {
        if i < self.a.len() {
            self.a[i]
        } else {
            self.b[i - self.a.len()]
        }
    }

    fn is_integer(&self) -> bool {
        self.point >= self.len() as i64
    }

    /// Writes the canonical text of this decimal, parsed from `t`: `t` itself when it is
    /// already canonical (what go-cty writes, so the common case is one copy).
    fn write_canonical(&self, t: &str, out: &mut String) {
        if self.canonical_is(t) {
            out.push_str(t);
        } else {
            let _ = self.write(out);
        }
    }

    /// Whether `t`, the text this decimal was parsed from, is its canonical text. Without an
    /// exponent, a `+` or a leading point, canonicalizing only deletes characters (leading
    /// and trailing zeros, a trailing point, the sign of a zero), so equal lengths mean
    /// equal texts.
    fn canonical_is(&self, t: &str) -> bool {
        self.plain && self.canonical_len() == t.len()
    }

    /// The length of the canonical text (see [`Dec::write`]).
    fn canonical_len(&self) -> usize {
        if self.is_zero() {
            return 1;
        }
        let n = self.len() as i64;
        let body = if self.point <= 0 {
            2 - self.point + n
        } else if self.point >= n {
            self.point
        } else {
            n + 1
        };
        usize::from(self.neg) + body as usize
    }

    /// Whether a float64 holds this non-integer exactly, and which: computed with integer
    /// arithmetic when its significant digits fit a `u128` (at most 38); [`Exact::Unknown`]
    /// for more digits (the caller then compares exactly, the slow way).
    ///
    /// The value is `D / 10^k` (`D` the digits as an integer, `k` the fractional digits):
    /// exact in binary only if `5^k` divides `D`, and then it is `q / 2^k` with `q = D / 5^k`,
    /// which a float64 holds when `q`'s odd part has at most 53 bits (`k` ≤ 55 keeps the
    /// binary exponent far from the subnormal limit).
    fn exact_f64(&self) -> Exact {
        let n = self.len();
        // A non-integer's last significant digit is not 0; unless it is 5, 5 does not divide
        // the digits, and no float holds the value (the usual case, decided here).
        if n == 0 || self.is_integer() || self.digit(n - 1) != b'5' {
            return Exact::No;
        }
        if n > 38 {
            return Exact::Unknown;
        }
        let k = n as i64 - self.point;
        // D < 10^38 < 5^55: no larger power of five divides it.
        if k > 55 {
            return Exact::No;
        }
        let mut d: u128 = 0;
        for &c in self.a.iter().chain(self.b) {
            d = d * 10 + u128::from(c - b'0');
        }
        let p = 5u128.pow(k as u32);
        if !d.is_multiple_of(p) {
            return Exact::No;
        }
        let q = d / p;
        let tz = q.trailing_zeros();
        let odd = q >> tz;
        if odd >= 1 << 53 {
            return Exact::No;
        }
        // Both factors are exact: odd < 2^53, and 2^(tz - k) is a power of two in range.
        let f = odd as f64 * 2f64.powi(tz as i32 - k as i32);
        Exact::Yes(if self.neg { -f } else { f })
    }

    fn to_i128(self) -> Option<i128> {
        if !self.is_integer() || self.point > 39 {
            return None;
        }
        let mut v: i128 = 0;
        for i in 0..self.point as usize {
            let d = if i < self.len() {
                (self.digit(i) - b'0') as i128
            } else {
                0
            };
            v = v.checked_mul(10)?.checked_add(d)?;
        }
        Some(if self.neg { -v } else { v })
    }

    fn cmp_magnitude(&self, other: &Dec<'_>) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        self.point.cmp(&other.point).then_with(|| {
            let n = self.len().min(other.len());
            for i in 0..n {
                let c = self.digit(i).cmp(&other.digit(i));
                if c != Ordering::Equal {
                    return c;
                }
            }
            self.len().cmp(&other.len())
        })
    }

    fn write_scientific(&self, out: &mut impl fmt::Write) -> fmt::Result {
        if self.is_zero() {
            return out.write_str("0");
        }
        if self.neg {
            out.write_char('-')?;
        }
        out.write_char(self.digit(0) as char)?;
        if self.len() > 1 {
            out.write_char('.')?;
            for i in 1..self.len() {
                out.write_char(self.digit(i) as char)?;
            }
        }
        write!(out, "e{}", self.point - 1)
    }

    fn write(&self, out: &mut impl fmt::Write) -> fmt::Result {
        fn ascii(s: &[u8]) -> &str {
            // Digits only: validated number text.
            core::str::from_utf8(s).unwrap_or("")
        }
        if self.is_zero() {
            return out.write_str("0");
        }
        let n = self.len() as i64;
        // The zeros the plain text adds to the significant digits.
        let padding = if self.point <= 0 {
            -self.point
        } else {
            (self.point - n).max(0)
        };
        if padding > MAX_PLAIN_ZEROS {
            return self.write_scientific(out);
        }
        if self.neg {
            out.write_char('-')?;
        }
        // The digits `from..to` of `a ++ b`, as (at most) two slices.
        let digits = |out: &mut dyn fmt::Write, from: usize, to: usize| -> fmt::Result {
            let al = self.a.len();
            if from < al {
                out.write_str(ascii(&self.a[from..to.min(al)]))?;
            }
            if to > al {
                out.write_str(ascii(&self.b[from.max(al) - al..to - al]))?;
            }
            Ok(())
        };
        if self.point <= 0 {
            out.write_str("0.")?;
            for _ in 0..-self.point {
                out.write_char('0')?;
            }
            digits(out, 0, n as usize)
        } else if self.point >= n {
            digits(out, 0, n as usize)?;
            for _ in 0..self.point - n {
                out.write_char('0')?;
            }
            Ok(())
        } else {
            digits(out, 0, self.point as usize)?;
            out.write_char('.')?;
            digits(out, self.point as usize, n as usize)
        }
    }
}

impl PartialEq for Dec<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Dec<'_> {}

impl PartialOrd for Dec<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dec<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        let sa = if self.is_zero() {
            0
        } else if self.neg {
            -1
        } else {
            1
        };
        let sb = if other.is_zero() {
            0
        } else if other.neg {
            -1
        } else {
            1
        };
        sa.cmp(&sb).then_with(|| {
            let m = self.cmp_magnitude(other);
            if sa < 0 { m.reverse() } else { m }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(n: Number<'_>) -> String {
        n.to_string()
    }

    #[test]
    fn decimal_text_is_normalized_exactly() {
        let cases = [
            ("12.5", "12.5"),
            ("12.50", "12.5"),
            ("0012", "12"),
            ("+5", "5"),
            ("-0", "0"),
            ("-0.000", "0"),
            ("0e999999999999", "0"),
            (".5", "0.5"),
            ("5.", "5"),
            ("1e3", "1000"),
            ("1E-2", "0.01"),
            ("-42.25", "-42.25"),
            ("1.5e3", "1500"),
            ("-25E-1", "-2.5"),
            ("0.00120", "0.0012"),
            ("100", "100"),
            (
                "123456789012345678901234567890.123456789",
                "123456789012345678901234567890.123456789",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(canon(Number::parse(text).unwrap()), want, "{text}");
        }
        assert_eq!(
            canon(Number::parse("1e400").unwrap()),
            format!("1{}", "0".repeat(400))
        );
        assert_eq!(
            canon(Number::parse("-1e-400").unwrap()),
            format!("-0.{}1", "0".repeat(399))
        );
    }

    #[test]
    fn rejected_texts() {
        for t in [
            "", "abc", " 5", "0x10", "1_000", "NaN", "Infinity", "1e", "1p3", "+", ".", "e5", "5 ",
            "--5", "1e+", "INF",
        ] {
            assert!(Number::parse(t).is_err(), "{t:?}");
        }
        assert_eq!(
            Number::parse_inner("1e100001"),
            Err(NumberError::OutOfRange).map(|()| Number::Int(0))
        );
        assert_eq!(
            Number::parse("1e100001").unwrap_err().to_string(),
            "(root): number out of range: \"1e100001\" (at byte 0)"
        );
        assert!(Number::parse("1e100000").is_ok());
    }

    #[test]
    fn scientific_text_is_exact() {
        let sci = |n: Number<'_>| {
            let mut s = String::new();
            n.write_scientific(&mut s).unwrap();
            s
        };
        for (text, want) in [
            ("0", "0"),
            ("-0.000", "0"),
            ("8e4210", "8e4210"),
            ("-123.450", "-1.2345e2"),
            ("0.00012", "1.2e-4"),
            ("7", "7e0"),
        ] {
            let n = Number::parse(text).unwrap();
            let got = sci(n);
            assert_eq!(got, want, "{text}");
            assert_eq!(Number::parse(&got).unwrap(), n, "{text} round trip");
        }
        assert_eq!(sci(Number::Int(-42)), "-4.2e1");
        assert_eq!(sci(Number::F64(0.5)), "5e-1");
        assert_eq!(sci(Number::F64(f64::INFINITY)), "+Inf");
    }

    #[test]
    fn infinities() {
        for (t, want) in [
            ("Inf", "+Inf"),
            ("inf", "+Inf"),
            ("+Inf", "+Inf"),
            ("-inf", "-Inf"),
        ] {
            assert_eq!(canon(Number::parse(t).unwrap()), want);
        }
    }

    #[test]
    fn floats_render_their_exact_expansion() {
        assert_eq!(
            canon(Number::F64(0.1)),
            "0.1000000000000000055511151231257827021181583404541015625"
        );
        assert_eq!(canon(Number::F32(0.1)), "0.100000001490116119384765625");
        assert_eq!(canon(Number::F64(-0.0)), "0");
        assert_eq!(
            canon(Number::F64(18446744073709551616.0)),
            "18446744073709551616"
        );
        assert_eq!(canon(Number::F64(12.0)), "12");
        let sub = canon(Number::F64(f64::from_bits(1)));
        assert!(sub.starts_with("0.000") && sub.ends_with("4940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359923797965646954457177309266567103559397963987747960107818781263007131903114045278458171678489821036887186360569987307230500063874091535649843873124733972731696151400317153853980741262385655911710266585566867681870395603106249319452715914924553293054565444011274801297099995419319894090804165633245247571478690147267801593552386115501348035264934720193790268107107491703332226844753335720832431936092382893458368060106011506169809753078342277318329247904982524730776375927247874656084778203734469699533647017972677717585125660551199131504891101451037862738167250955837389733598993664809941164205702637090279242767544565229087538682506419718265533447265625"));
        assert_eq!(canon(Number::Uint(u64::MAX)), "18446744073709551615");
        assert_eq!(canon(Number::Int(i64::MIN)), "-9223372036854775808");
    }

    #[test]
    fn exact_comparison_across_representations() {
        let n = |t| Number::parse(t).unwrap();
        assert_eq!(Number::Int(1), Number::F64(1.0));
        assert_eq!(Number::Uint(5), n("5.000"));
        assert_ne!(Number::F64(0.1), n("0.1"));
        assert_eq!(Number::F64(0.5), n("0.5"));
        assert_eq!(Number::F64(-0.0), Number::Int(0));
        assert!(n("-2") < n("-1.5"));
        assert!(n("1e400") > Number::F64(f64::MAX));
        assert!(n("1e400") < Number::F64(f64::INFINITY));
        assert!(Number::F64(f64::NEG_INFINITY) < n("-1e400"));
        assert!(Number::Uint(u64::MAX) > Number::Int(i64::MAX));
        assert_eq!(
            n("18446744073709551616"),
            Number::F64(18446744073709551616.0)
        );
    }

    #[test]
    fn cty_equality() {
        let n = |t| Number::parse(t).unwrap();
        assert!(Number::Int(1).cty_eq(&Number::F64(1.0)));
        assert!(Number::F64(0.1).cty_eq(&n("0.1")));
        assert!(Number::F64(0.5).cty_eq(&n("0.5")));
        assert!(!n("1").cty_eq(&n("1.0000000000000000000001")));
        assert!(!n("9007199254740993").cty_eq(&n("9007199254740992")));
        assert!(Number::F64(f64::INFINITY).cty_eq(&n("inf")));
        let mut v = [
            n("0.1"),
            Number::Int(1),
            Number::F64(0.1),
            n("1.0"),
            Number::F64(0.5),
        ];
        v.sort_by(|a, b| a.cty_cmp(b));
        for w in v.windows(2) {
            assert_eq!(w[0].cty_eq(&w[1]), w[0].cty_cmp(&w[1]) == Ordering::Equal);
        }
    }

    #[test]
    fn conversions() {
        let n = |t| Number::parse(t).unwrap();
        assert_eq!(n("1e3").to_i64(), Some(1000));
        assert_eq!(n("9223372036854775808").to_i64(), None);
        assert_eq!(n("9223372036854775808").to_u64(), Some(1 << 63));
        assert_eq!(n("1.5").to_i64(), None);
        assert_eq!(Number::F64(-(2f64.powi(63))).to_i64(), Some(i64::MIN));
        assert_eq!(Number::F64(2f64.powi(63)).to_i64(), None);
        assert_eq!(n(".5").to_f64(), 0.5);
        assert_eq!(n("5.").to_f64(), 5.0);
        assert_eq!(n("+2.5").to_f64(), 2.5);
        assert_eq!(n("0.5").to_f64_exact(), Some(0.5));
        assert_eq!(n("0.1").to_f64_exact(), None);
        assert!(n("1e2").is_integer() && !n("1.5").is_integer() && n("1.50e1").is_integer());
    }

    /// The eight-bytes-at-a-time check accepts exactly the plain decimals (an optional `-`,
    /// digits, at most one point, a digit somewhere), and `Dec::parse` accepts all of them:
    /// every text over a small alphabet up to five bytes, and one odd byte at every position
    /// of texts up to 40 bytes (both sides of each word boundary and the overlapping tail).
    #[test]
    fn plain_decimal_check_is_exact() {
        let reference = |b: &[u8]| {
            let body = b.strip_prefix(b"-").unwrap_or(b);
            body.iter().all(|c| c.is_ascii_digit() || *c == b'.')
                && body.iter().filter(|c| **c == b'.').count() <= 1
                && body.iter().any(u8::is_ascii_digit)
        };
        let check = |b: &[u8]| {
            let want = reference(b);
            assert_eq!(is_plain_decimal(b), want, "{b:02x?}");
            let plain = Number::parse_plain(b);
            assert_eq!(plain.is_some(), want, "{b:02x?}");
            if want {
                let t = core::str::from_utf8(b).unwrap();
                assert!(matches!(plain, Some(Number::Decimal(d)) if d == t), "{t}");
                assert!(Dec::parse(t).is_ok(), "{t}");
                assert!(matches!(Number::parse(t), Ok(Number::Decimal(_))), "{t}");
            }
        };
        let alphabet = [
            b'0', b'7', b'9', b'.', b'-', b'+', b'e', b'/', b':', 0xb0, 0xff,
        ];
        let mut texts: Vec<Vec<u8>> = vec![vec![]];
        // Under Miri (which runs this test for `Number::parse_plain`'s `unsafe`), shorter
        // texts: the interpreter is too slow for all of them.
        let (depth, longest) = if cfg!(miri) { (3, 17) } else { (5, 40) };
        for _ in 0..depth {
            let longer: Vec<Vec<u8>> = texts
                .iter()
                .filter(|t| t.len() == texts.last().map_or(0, Vec::len))
                .flat_map(|t| {
                    alphabet.iter().map(move |&c| {
                        let mut t = t.clone();
                        t.push(c);
                        t
                    })
                })
                .collect();
            texts.extend(longer);
        }
        for t in &texts {
            check(t);
        }
        for len in 1..=longest {
            for sign in [&b""[..], b"-"] {
                let mut t: Vec<u8> = sign.to_vec();
                t.extend((0..len).map(|i| b'0' + (i % 10) as u8));
                check(&t);
                for at in sign.len()..t.len() {
                    for odd in [b'.', b'/', b':', b'e', b' ', 0x80 | b'5'] {
                        let mut u = t.clone();
                        u[at] = odd;
                        check(&u);
                        // A second odd byte anywhere after it.
                        for at2 in at + 1..u.len() {
                            let mut v = u.clone();
                            v[at2] = b'.';
                            check(&v);
                        }
                    }
                }
            }
        }
    }

    /// The encoders' one-parse fast paths ([`decimal_form`], [`write_decimal`]) agree with
    /// the general functions they replace, on edge cases and on many generated decimals
    /// (exact binary fractions, near misses, long digit strings, non-canonical spellings).
    #[test]
    fn fast_decimal_paths_agree_with_the_general_ones() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "00",
            "5.",
            ".5",
            "-.5",
            "+5",
            "0.50",
            "1e2",
            "1.5e1",
            "-1.25",
            "0.1",
            "0.5",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "1e-5",
            "2.5e-3",
            "1e300",
            "123456789012345678901234567890.5",
            "0.000000000000000000000000000000000000000005",
            "4503599627370495.5",
            "9007199254740993.5",
            "1.00000000000000000000000000000000000005",
            "2933568871211445515.4324745483838182873",
            "8.673617379884035472059622406959533691406e-19",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for i in 0..4000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // An exact binary fraction m / 2^j, written in full.
            let j = (x % 70) as i32;
            let m = (x >> 11) % (1 << (x % 54));
            let f = m as f64 / 2f64.powi(j);
            texts.push(format!("{f:.80}").trim_end_matches('0').to_string());
            texts.push(format!("{f}"));
            texts.push(format!("-{}", x % 100_000_000_000));
            texts.push(format!(
                "{}.{:0>width$}5",
                x % 1000,
                i,
                width = (x % 30) as usize
            ));
            texts.push(format!("{}e{}", x % 100_000, (x % 41) as i64 - 20));
            texts.push(format!("{}{}", x, x.rotate_left(17)));
        }
        for t in &texts {
            let n = Number::parse(t).unwrap();
            let mut text = String::new();
            let want = if let Some(i) = n.to_i64() {
                DecimalForm::Int(i)
            } else if let Some(f) = n.to_f64_exact().filter(|_| !n.is_integer()) {
                DecimalForm::F64(f)
            } else {
                DecimalForm::Text
            };
            let got = decimal_form(t, &mut text).unwrap();
            assert_eq!(got, want, "{t}");
            if let DecimalForm::F64(f) = got {
                assert_eq!(f.to_bits(), n.to_f64().to_bits(), "{t}");
            }
            if got == DecimalForm::Text {
                assert_eq!(text, n.to_string(), "{t}");
            }
            let mut json = String::new();
            assert!(write_decimal(t, true, &mut json));
            let zero = n.cmp_exact(&Number::Int(0)).is_eq();
            let want_json = if t.starts_with('-') && zero {
                "-0".to_string()
            } else {
                n.to_string()
            };
            assert_eq!(json, want_json, "{t}");
        }
        // Exact comparisons of integers and decimals with floats, against the general path
        // (both sides written out in full).
        let slow = |a: &Number<'_>, b: &Number<'_>| {
            let mut ba = NumBuf::new();
            let mut bb = NumBuf::new();
            a.dec(&mut ba).cmp(&b.dec(&mut bb))
        };
        let floats = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            2.5,
            1e19,
            -1e19,
            9.223372036854776e18,
            -9.223372036854776e18,
            1.8446744073709552e19,
            3.7e19,
            -3.7e19,
            4503599627370497.0,
            0.1,
            1e-300,
            1e300,
            123456.75,
        ];
        let ints = [
            Number::Int(0),
            Number::Int(1),
            Number::Int(-1),
            Number::Int(2),
            Number::Int(i64::MAX),
            Number::Int(i64::MIN),
            Number::Uint(u64::MAX),
            Number::Uint(1 << 63),
            Number::Int(4503599627370497),
            Number::Int(123456),
            Number::Decimal("0.1"),
            Number::Decimal("0.5"),
            Number::Decimal("-0.5"),
            Number::Decimal("123456.75"),
            Number::Decimal("1e300"),
            Number::Decimal("1e-300"),
            Number::Decimal("0.1000000000000000055511151231257827021181583404541015625"),
            Number::Decimal("18446744073709551616"),
            Number::Decimal("-0"),
        ];
        for f in floats {
            for a in &ints {
                for x in [Number::F64(f), Number::F32(f as f32)] {
                    if x.is_infinite() {
                        assert_eq!(a.cmp_exact(&x), Ordering::Less);
                        continue;
                    }
                    assert_eq!(a.cmp_exact(&x), slow(a, &x), "{a:?} {x:?}");
                    assert_eq!(x.cmp_exact(a), slow(&x, a), "{x:?} {a:?}");
                }
            }
        }
        let mut push = String::new();
        for i in [0, 1, -1, 9, 10, i64::MIN, i64::MAX, 1234567890] {
            push.clear();
            push_i64(&mut push, i);
            assert_eq!(push, i.to_string());
        }
        push.clear();
        push_u64(&mut push, u64::MAX);
        assert_eq!(push, u64::MAX.to_string());
        assert!(decimal_form("1_0", &mut push).is_none() && !write_decimal("Inf", true, &mut push));
    }
}
