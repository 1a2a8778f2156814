//! Primitive values from tokens: the per-format rules for strings, numbers and bools.
//!
//! MessagePack (go-cty's `cty/msgpack`): a string may be sent as binary; a number as any
//! integer, a float (not NaN), or its decimal text in a string or binary.
//!
//! JSON (go-cty's `cty/json`): a string may be sent as a number (its literal text) or a bool;
//! a number as a string holding its text; a bool as the string `"true"`, `"false"`, `"1"` or
//! `"0"` (cty's string-to-bool conversion).

use super::fault::Fault;
use super::source::{Source, Tok};
use crate::error::{ErrorKind, Expected};
use crate::number::Number;
use crate::value::Value;
use bumpalo::Bump;

/// "`expected` is required, found `tok`".
#[cold]
fn mismatch(expected: Expected, tok: Tok<'_>, json: bool) -> Fault {
    Fault::Kind(ErrorKind::Mismatch {
        expected,
        found: tok.name_in(json),
    })
}

#[inline]
pub(crate) fn string<'a, S: Source<'a>>(tok: Tok<'a>, bump: &'a Bump) -> Result<Value<'a>, Fault> {
    let s = match tok {
        Tok::Str(s) => s,
        Tok::Bin(b) if !S::JSON => {
            core::str::from_utf8(b).map_err(|_| Fault::Kind(ErrorKind::InvalidUtf8))?
        }
        Tok::Num(t) if S::JSON => return Ok(Value::String(t)),
        // A JSON integer's text is its decimal form (the JSON reader keeps "-0" as text).
        Tok::Int(_) | Tok::Uint(_) if S::JSON => {
            let text = match tok {
                Tok::Int(i) => bump.try_alloc_str(&i.to_string()),
                Tok::Uint(u) => bump.try_alloc_str(&u.to_string()),
                _ => unreachable!("matched above"),
            };
            return match text {
                Ok(t) => Ok(Value::String(t)),
                Err(_) => Err(Fault::ARENA),
            };
        }
        Tok::Bool(b) if S::JSON => return Ok(Value::String(if b { "true" } else { "false" })),
        _ => return Err(mismatch(Expected::String, tok, S::JSON)),
    };
    match crate::nfc::nfc(bump, s) {
        Some(s) => Ok(Value::String(s)),
        None => Err(Fault::ARENA),
    }
}

#[inline]
pub(crate) fn number<'a, S: Source<'a>>(tok: Tok<'a>) -> Result<Value<'a>, Fault> {
    number_from(tok, S::JSON).map(Value::Number)
}

/// A number from a token (`json`: the JSON rules apply).
pub(crate) fn number_from(tok: Tok<'_>, json: bool) -> Result<Number<'_>, Fault> {
    Ok(match tok {
        Tok::Int(i) => Number::Int(i),
        Tok::Uint(u) => Number::Uint(u),
        Tok::F64(f) if f.is_nan() => {
            return Err(Fault::Kind(ErrorKind::InvalidNumber("NaN".into())));
        }
        Tok::F32(f) if f.is_nan() => {
            return Err(Fault::Kind(ErrorKind::InvalidNumber("NaN".into())));
        }
        Tok::F64(f) => Number::F64(f),
        Tok::F32(f) => Number::F32(f),
        Tok::Num(t) => json_number(t)?,
        Tok::Str(s) => parse_text(s)?,
        Tok::Bin(b) if !json => parse_text(core::str::from_utf8(b).map_err(|_| {
            Fault::Kind(ErrorKind::InvalidNumber(
                String::from_utf8_lossy(b).into_owned(),
            ))
        })?)?,
        _ => return Err(mismatch(Expected::Number, tok, json)),
    })
}

fn parse_text(s: &str) -> Result<Number<'_>, Fault> {
    Number::parse_inner(s).map_err(|e| Fault::Kind(e.kind(s)))
}

/// A JSON number literal (its grammar already checked by the JSON reader): an integer that
/// fits 64 bits is kept as one, anything else as its decimal text (never through a float).
/// `-0` stays text: go-cty keeps the sign of a zero it reads (its JSON encoder writes it back
/// as `-0`, and its sets keep `-0` and `0` apart).
#[inline(always)]
pub(crate) fn json_number(t: &str) -> Result<Number<'_>, Fault> {
    use tfwire_json::swar::{any_zero_byte, load, load_short, splat, try_load};
    // Whether the literal has a point or an exponent, eight bytes at a time (`| 0x20` folds
    // `E` onto `e` and leaves the other bytes of the grammar apart from `e`).
    let b = t.as_bytes();
    let (mut point, mut exponent) = (0, 0);
    let mut i = 0;
    let mut look = |w: u64| {
        point |= any_zero_byte(w ^ splat(b'.'));
        exponent |= any_zero_byte((w | splat(0x20)) ^ splat(b'e'));
    };
    while let Some(w) = try_load(b, i) {
        look(w);
        i += 8;
    }
    if b.len() >= 8 {
        // The rest in the last eight bytes (looking at some twice changes nothing).
        look(load(b, b.len() - 8));
    } else {
        look(load_short(b, b'0'));
    }
    if exponent != 0 {
        return parse_text(t);
    }
    if point == 0 && t != "-0" {
        if let Ok(i) = t.parse::<i64>() {
            return Ok(Number::Int(i));
        }
        if let Ok(u) = t.parse::<u64>() {
            return Ok(Number::Uint(u));
        }
    }
    // Without an exponent, a literal's decimal exponent is within its length: shorter than
    // the limit, it is in range (and JSON grammar is decimal grammar), so nothing is left to
    // check.
    if t.len() < crate::number::MAX_DECIMAL_EXPONENT as usize {
        return Ok(Number::Decimal(t));
    }
    parse_text(t)
}

#[inline]
pub(crate) fn boolean<'a, S: Source<'a>>(tok: Tok<'a>) -> Result<Value<'a>, Fault> {
    match tok {
        Tok::Bool(b) => Ok(Value::Bool(b)),
        Tok::Str(s) if S::JSON => match s {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            _ => Err(Fault::Kind(ErrorKind::InvalidBool(s.to_owned()))),
        },
        _ => Err(mismatch(Expected::Bool, tok, S::JSON)),
    }
}
