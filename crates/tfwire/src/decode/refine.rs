//! Unknown values: MessagePack extensions, and the refinements of extension 12.
//!
//! The wire-format document decides where go-cty departs from it: every extension code is
//! an unknown value and its payload is ignored unless the code is 12 (go-cty 1.16 rejects
//! other codes with payloads longer than one byte), and unknown refinement keys are skipped
//! *with their values* (go-cty 1.16 reads the next key from the value's bytes). Everything the
//! document leaves open follows go-cty 1.16: the 1 KiB payload cap, `nullness: true` as a
//! known null, the collapse of refinements that pin a value down, how later bounds combine
//! with earlier ones. Where go-cty panics (inconsistent refinements, NaN bounds), tfwire
//! returns an error.

use super::config::Config;
use super::msgpack::convert;
use super::shape::Shape;
use super::source::Tok;
use crate::error::{ErrorKind, Limit};
use crate::number::Number;
use crate::value::{Refinements, Value};
use bumpalo::Bump;
use core::cmp::Ordering;
use tfwire_msgpack::Tokenizer;

/// Extension code of a refined unknown value.
pub(crate) const REFINED: i8 = 12;

/// The largest refinement payload go-cty accepts.
pub(crate) const MAX_PAYLOAD: usize = 1024;

/// What a refinement may apply to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    String,
    Number,
    List,
    Set,
    Map,
    Other,
}

fn bad(m: impl Into<String>) -> ErrorKind {
    ErrorKind::InvalidRefinement(m.into())
}

/// The unknown value an extension stands for, at a position of shape `shape`.
pub(crate) fn unknown<'a>(
    code: i8,
    payload: &'a [u8],
    shape: Shape<'a>,
    bump: &'a Bump,
    config: &Config,
) -> Result<Value<'a>, ErrorKind> {
    if code != REFINED || payload.len() <= 1 {
        return Ok(Value::Unknown(None));
    }
    if payload.len() > MAX_PAYLOAD {
        return Err(bad(format!(
            "payload of {} bytes exceeds the {MAX_PAYLOAD}-byte limit",
            payload.len()
        )));
    }
    let target = match shape {
        Shape::String => Target::String,
        Shape::Number => Target::Number,
        Shape::List(..) => Target::List,
        Shape::Set(..) => Target::Set,
        Shape::Map(..) => Target::Map,
        Shape::Bool | Shape::Object(_) | Shape::Tuple(_) => Target::Other,
        Shape::Dynamic => {
            // go-cty reads the map header, then ignores every refinement of an unknown of
            // unknown type.
            let mut t = Tokenizer::new(payload);
            return match t.next_token().map(|t| t.kind) {
                Ok(tfwire_msgpack::Kind::Map(_) | tfwire_msgpack::Kind::Nil) => {
                    Ok(Value::Unknown(None))
                }
                _ => Err(bad("payload is not a map")),
            };
        }
    };
    let mut b = Builder::default();
    let mut t = Tokenizer::new(payload);
    let n = match t.next_token().map(|t| t.kind) {
        Ok(tfwire_msgpack::Kind::Map(n)) => n,
        Ok(tfwire_msgpack::Kind::Nil) => return Ok(Value::Unknown(None)),
        _ => return Err(bad("payload is not a map")),
    };
    for _ in 0..n {
        let key = match read(&mut t)? {
            Tok::Int(i) => i,
            Tok::Uint(u) => u as i64,
            Tok::Null => 0,
            _ => return Err(bad("non-integer key in map")),
        };
        match key {
            1 => match read(&mut t)? {
                Tok::Bool(true) => b.null()?,
                Tok::Bool(false) => b.not_null()?,
                _ => return Err(bad("nullness refinement is not a bool")),
            },
            2 => {
                if target != Target::String {
                    return Err(bad("string prefix refinement for a non-string type"));
                }
                let p = match read(&mut t)? {
                    Tok::Str(s) => s,
                    Tok::Bin(raw) => core::str::from_utf8(raw)
                        .map_err(|_| bad("string prefix refinement is not valid UTF-8"))?,
                    Tok::Null => "",
                    _ => return Err(bad("string prefix refinement is not a string")),
                };
                let p = crate::nfc::nfc(bump, p).ok_or_else(arena_full(config))?;
                b.prefix(p)?;
            }
            3 | 4 => {
                if target != Target::Number {
                    return Err(bad("number bound refinement for a non-number type"));
                }
                let (bound, inclusive) = read_bound(&mut t)?;
                if key == 3 {
                    b.lower(bound, inclusive)?
                } else {
                    b.upper(bound, inclusive)?
                }
            }
            5 | 6 => {
                if !matches!(target, Target::List | Target::Set | Target::Map) {
                    return Err(bad("length bound refinement for a non-collection type"));
                }
                let len = match read(&mut t)? {
                    Tok::Int(i) => i,
                    Tok::Uint(u) => i64::try_from(u).map_err(|_| {
                        // go-cty reads an int: uint64 values past 2^63 wrap to negatives
                        // and fail (an upper bound) or vanish (a lower bound) by accident.
                        bad(format!(
                            "collection length bound {u} is out of range (at most {})",
                            i64::MAX
                        ))
                    })?,
                    Tok::Null => 0,
                    _ => return Err(bad("length bound refinement is not an integer")),
                };
                if key == 5 {
                    b.len_lower(len)?
                } else {
                    b.len_upper(len)?
                }
            }
            _ => {
                // Unknown refinement: skip its value (the document says to ignore it).
                t.skip_value()
                    .map_err(|_| bad("payload ends before the refinement map does"))?;
            }
        }
    }
    // Bytes after the map are ignored, as go-cty does.
    b.value(target, bump, config)
}

fn arena_full(config: &Config) -> impl FnOnce() -> ErrorKind + '_ {
    move || ErrorKind::LimitExceeded {
        limit: Limit::ArenaBytes,
        max: config.max_arena_bytes as u64,
    }
}

fn read<'a>(t: &mut Tokenizer<'a>) -> Result<Tok<'a>, ErrorKind> {
    let tok = t
        .next_token()
        .map_err(|_| bad("payload ends before the refinement map does"))?;
    let payload = t.payload(&tok);
    convert(&tok, payload).map_err(|_| bad("a string in the refinement is not valid UTF-8"))
}

fn read_bound<'a>(t: &mut Tokenizer<'a>) -> Result<(Number<'a>, bool), ErrorKind> {
    let shape = || bad("number bound refinement must be a [number, bool] array");
    if !matches!(read(t)?, Tok::Array(2)) {
        return Err(shape());
    }
    let n = super::leaf::number_from(read(t)?, false).map_err(|e| match e {
        super::fault::Fault::Kind(ErrorKind::InvalidNumber(s)) if s == "NaN" => {
            bad("number bound is NaN")
        }
        _ => shape(),
    })?;
    let Tok::Bool(inclusive) = read(t)? else {
        return Err(shape());
    };
    Ok((n, inclusive))
}

/// Accumulates refinements with go-cty's `RefinementBuilder` rules.
#[derive(Default)]
struct Builder<'a> {
    null: Option<bool>,
    prefix: &'a str,
    lower: Option<(Number<'a>, bool)>,
    upper: Option<(Number<'a>, bool)>,
    len_lower: i64,
    len_upper: Option<i64>,
}

impl<'a> Builder<'a> {
    fn null(&mut self) -> Result<(), ErrorKind> {
        if self.null == Some(false) {
            return Err(bad("refining a non-null value as null"));
        }
        self.null = Some(true);
        Ok(())
    }

    fn not_null(&mut self) -> Result<(), ErrorKind> {
        if self.null == Some(true) {
            return Err(bad("refining a null value as non-null"));
        }
        self.null = Some(false);
        Ok(())
    }

    fn prefix(&mut self, p: &'a str) -> Result<(), ErrorKind> {
        let common = p.len().min(self.prefix.len());
        if p.as_bytes()[..common] != self.prefix.as_bytes()[..common] {
            return Err(bad("string prefix is inconsistent with an earlier prefix"));
        }
        if p.len() > self.prefix.len() {
            self.prefix = p;
        }
        Ok(())
    }

    fn lower(&mut self, min: Number<'a>, inc: bool) -> Result<(), ErrorKind> {
        if let Some((wmin, winc)) = self.lower {
            let c = min.cmp_exact(&wmin);
            let tighter = if inc && !winc {
                c == Ordering::Greater
            } else {
                c != Ordering::Less
            };
            if !tighter {
                return Ok(());
            }
        }
        self.lower = Some((min, inc));
        self.check_bounds()
    }

    fn upper(&mut self, max: Number<'a>, inc: bool) -> Result<(), ErrorKind> {
        if let Some((wmax, winc)) = self.upper {
            let c = max.cmp_exact(&wmax);
            let tighter = if inc && !winc {
                c == Ordering::Less
            } else {
                c != Ordering::Greater
            };
            if !tighter {
                return Ok(());
            }
        }
        self.upper = Some((max, inc));
        self.check_bounds()
    }

    fn check_bounds(&self) -> Result<(), ErrorKind> {
        if let (Some((min, mi)), Some((max, ma))) = (self.lower, self.upper) {
            let c = min.cmp_exact(&max);
            let ok = if mi != ma {
                c == Ordering::Less
            } else {
                c != Ordering::Greater
            };
            if !ok {
                let (open, close) = (if mi { '[' } else { '(' }, if ma { ']' } else { ')' });
                return Err(bad(format!(
                    "number bounds {open}{min}, {max}{close} hold no number"
                )));
            }
        }
        Ok(())
    }

    fn len_lower(&mut self, n: i64) -> Result<(), ErrorKind> {
        if self.len_lower > n {
            return Ok(());
        }
        self.len_lower = n;
        self.check_lengths()
    }

    fn len_upper(&mut self, n: i64) -> Result<(), ErrorKind> {
        if matches!(self.len_upper, Some(max) if max < n) {
            return Ok(());
        }
        self.len_upper = Some(n);
        self.check_lengths()
    }

    fn check_lengths(&self) -> Result<(), ErrorKind> {
        match self.len_upper {
            Some(max) if max < self.len_lower => Err(bad(format!(
                "collection length upper bound {max} is less than lower bound {}",
                self.len_lower
            ))),
            _ => Ok(()),
        }
    }

    /// The value the refinements describe (go-cty's `NewValue`).
    fn value(
        self,
        target: Target,
        bump: &'a Bump,
        config: &Config,
    ) -> Result<Value<'a>, ErrorKind> {
        match self.null {
            Some(true) => return Ok(Value::Null),
            Some(false) => {
                if let (Some((min, true)), Some((max, true))) = (self.lower, self.upper)
                    && min.cty_eq(&max)
                {
                    return Ok(Value::Number(min));
                }
                if let Some(max) = self.len_upper
                    && max == self.len_lower
                {
                    match (target, max) {
                        (Target::List, 0) => return Ok(Value::List(&[])),
                        (Target::Set, 0) => return Ok(Value::Set(&[])),
                        (Target::Map, 0) => return Ok(Value::Map(&[])),
                        (Target::Set, 1) => {
                            let s = bump
                                .try_alloc_slice_copy(&[Value::Unknown(None)])
                                .map_err(|_| arena_full(config)())?;
                            return Ok(Value::Set(s));
                        }
                        (Target::List, n) => {
                            if n as u64 > config.max_collection_len as u64 {
                                return Err(ErrorKind::LimitExceeded {
                                    limit: Limit::CollectionLen,
                                    max: config.max_collection_len as u64,
                                });
                            }
                            let s = bump
                                .try_alloc_slice_fill_copy(n as usize, Value::Unknown(None))
                                .map_err(|_| arena_full(config)())?;
                            return Ok(Value::List(s));
                        }
                        _ => {}
                    }
                }
            }
            None => {}
        }
        let r = Refinements {
            not_null: self.null == Some(false),
            prefix: (!self.prefix.is_empty()).then_some(self.prefix),
            lower: self.lower,
            upper: self.upper,
            len_lower: (self.len_lower > 0).then_some(self.len_lower as u64),
            len_upper: self.len_upper.map(|n| n as u64),
        };
        if r.is_empty() {
            return Ok(Value::Unknown(None));
        }
        let r = bump.try_alloc(r).map_err(|_| arena_full(config)())?;
        Ok(Value::Unknown(Some(r)))
    }
}
