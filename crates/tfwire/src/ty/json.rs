//! Type JSON: one parser (over any JSON pull source) and one printer.

use super::arena::{AttrTy, Ty};
use crate::error::{ErrorKind, Fail};
use bumpalo::Bump;
use core::fmt;
use tfwire_json::Safe;
use tfwire_json::scan;

/// Nesting depth allowed in type JSON parsed by [`crate::Type::from_json`].
pub(crate) const DEFAULT_MAX_DEPTH: usize = 512;

/// The deepest nesting any reader accepts, of values and of the types inside them (the
/// largest `Config::max_depth`): deeper values would risk the stack of the recursive
/// consumers (encoders, printers).
pub(crate) const MAX_DEPTH: usize = 1024;

/// Malformed type JSON: [`ErrorKind::InvalidType`] at byte `offset` of the text.
#[cold]
#[inline(never)]
fn terr<T>(offset: usize, message: impl Into<String>) -> Result<T, Box<Fail>> {
    Err(Fail::new(
        ErrorKind::InvalidType {
            message: message.into(),
            offset: None,
        },
        offset,
    ))
}

/// A scanner's fault (a malformed string, number or literal) as malformed type JSON.
#[cold]
fn scan_err(e: tfwire_json::Error) -> Box<Fail> {
    let (kind, at) = Box::<Fail>::from(e).into_parts();
    let what = match kind {
        ErrorKind::Syntax(m) => m,
        k => k.to_string(),
    };
    Fail::new(
        ErrorKind::InvalidType {
            message: format!("invalid JSON: {what}"),
            offset: None,
        },
        at,
    )
}

fn alloc<T>(bump: &Bump, v: T) -> Result<&T, Box<Fail>> {
    bump.try_alloc(v).map(|r| &*r).map_err(|_| Fail::arena(0))
}

fn push<T>(v: &mut bumpalo::collections::Vec<'_, T>, x: T) -> Result<(), Box<Fail>> {
    v.try_reserve(1).map_err(|_| Fail::arena(0))?;
    v.push(x);
    Ok(())
}

/// The start of a JSON value, as far as type JSON cares.
pub(crate) enum Start<'a> {
    Str(&'a str),
    Array,
    Object,
    /// Anything else, described for the error message (`number`, `bool`, `null`).
    Other(&'static str),
}

/// A JSON source the type parser pulls from. Only JSON text today: the simd-json path reads
/// the types of JSON dynamic values from the text too, so that both JSON readers report the
/// same errors at the same offsets (the tape has no nodes for closing brackets).
pub(crate) trait Pull<'a> {
    /// Reads the start of the next value (for arrays and objects, only the opening bracket).
    fn start(&mut self) -> Result<Start<'a>, Box<Fail>>;
    /// Inside an array: whether another element follows (`first` for the first call after
    /// the opening bracket). Consumes the separator or the closing bracket.
    fn array_next(&mut self, first: bool) -> Result<bool, Box<Fail>>;
    /// Inside an object: the next key and its offset (consuming the colon), or `None` at
    /// the closing brace.
    fn object_next(&mut self, first: bool) -> Result<Option<(&'a str, usize)>, Box<Fail>>;
    /// Skips one whole value (for error recovery this is never needed; used to report
    /// precise positions).
    fn offset(&self) -> usize;
}

/// Parses type JSON from text; anything but whitespace after the type is an error.
pub(crate) fn parse_text<'a>(
    bump: &'a Bump,
    text: &'a [u8],
    max_depth: usize,
) -> Result<Ty<'a>, Box<Fail>> {
    let mut src = Text {
        bump,
        buf: text,
        pos: 0,
    };
    let ty = parse(&mut src, bump, max_depth)?;
    let end = scan::skip_ws(text, src.pos);
    if end != text.len() {
        return terr(end, "extraneous data after type description");
    }
    Ok(ty)
}

/// Parses one type from `src`.
pub(crate) fn parse<'a>(
    src: &mut impl Pull<'a>,
    bump: &'a Bump,
    depth: usize,
) -> Result<Ty<'a>, Box<Fail>> {
    if depth == 0 {
        return terr(src.offset(), "type nested too deeply");
    }
    let at = src.offset();
    match src.start()? {
        Start::Str(name) => match name {
            "string" => Ok(Ty::String),
            "number" => Ok(Ty::Number),
            "bool" => Ok(Ty::Bool),
            "dynamic" => Ok(Ty::Dynamic),
            _ => terr(at, format!("invalid primitive type name {}", Safe(name))),
        },
        Start::Array => {
            if !src.array_next(true)? {
                return terr(at, "type array is empty: a type kind name is required");
            }
            let kat = src.offset();
            let kind = match src.start()? {
                Start::Str(k) => k,
                _ => return terr(kat, "invalid complex type kind name: a string is required"),
            };
            let ty = match kind {
                "list" | "set" | "map" => {
                    let end = src.offset();
                    if !src.array_next(false)? {
                        return terr(end, format!("missing element type for {kind}"));
                    }
                    let e = alloc(bump, parse(src, bump, depth - 1)?)?;
                    match kind {
                        "list" => Ty::List(e),
                        "set" => Ty::Set(e),
                        _ => Ty::Map(e),
                    }
                }
                "object" => return parse_object(src, bump, depth),
                "tuple" => {
                    let end = src.offset();
                    if !src.array_next(false)? {
                        return terr(end, "missing element types for tuple");
                    }
                    let tat = src.offset();
                    if !matches!(src.start()?, Start::Array) {
                        return terr(tat, "tuple element types must be an array");
                    }
                    let mut elems = bumpalo::collections::Vec::new_in(bump);
                    let mut first = true;
                    while src.array_next(first)? {
                        first = false;
                        let e = parse(src, bump, depth - 1)?;
                        push(&mut elems, e)?;
                    }
                    Ty::Tuple(elems.into_bump_slice())
                }
                "capsule" => return terr(kat, "capsule types cannot be sent over the wire"),
                _ => {
                    return terr(
                        kat,
                        format!("invalid complex type kind name {}", Safe(kind)),
                    );
                }
            };
            if src.array_next(false)? {
                return terr(src.offset(), format!("extraneous data after {kind} type"));
            }
            Ok(ty)
        }
        Start::Object => terr(at, "a type is a string or an array, found an object"),
        Start::Other(what) => terr(at, format!("a type is a string or an array, found {what}")),
    }
}

fn parse_object<'a>(
    src: &mut impl Pull<'a>,
    bump: &'a Bump,
    depth: usize,
) -> Result<Ty<'a>, Box<Fail>> {
    let end = src.offset();
    if !src.array_next(false)? {
        return terr(end, "missing attribute types for object");
    }
    let oat = src.offset();
    if !matches!(src.start()?, Start::Object) {
        return terr(oat, "object attribute types must be an object");
    }
    let mut attrs = bumpalo::collections::Vec::new_in(bump);
    let mut first = true;
    while let Some((name, kat)) = src.object_next(first)? {
        first = false;
        let ty = parse(src, bump, depth - 1)?;
        push(
            &mut attrs,
            (
                kat,
                AttrTy {
                    name,
                    ty,
                    optional: false,
                },
            ),
        )?;
    }
    attrs.sort_unstable_by(|a, b| a.1.name.cmp(b.1.name).then(a.0.cmp(&b.0)));
    for w in attrs.windows(2) {
        if w[0].1.name == w[1].1.name {
            return terr(
                w[1].0,
                format!("duplicate attribute {} in object type", Safe(w[1].1.name)),
            );
        }
    }
    let mut it = attrs.iter().map(|a| a.1);
    let attrs: &mut [AttrTy<'a>] = bump
        .try_alloc_slice_fill_with(attrs.len(), |_| it.next().expect("one per attribute"))
        .map_err(|_| Fail::arena(0))?;
    if src.array_next(false)? {
        let lat = src.offset();
        if !matches!(src.start()?, Start::Array) {
            return terr(lat, "optional attribute names must be an array of strings");
        }
        let mut first = true;
        while src.array_next(first)? {
            first = false;
            let nat = src.offset();
            let Start::Str(name) = src.start()? else {
                return terr(nat, "optional attribute names must be strings");
            };
            match attrs.binary_search_by(|a| a.name.cmp(name)) {
                Ok(i) => attrs[i].optional = true,
                Err(_) => {
                    return terr(
                        nat,
                        format!("optional attribute {} is not declared", Safe(name)),
                    );
                }
            }
        }
        if src.array_next(false)? {
            return terr(src.offset(), "extraneous data after object type");
        }
    }
    Ok(Ty::Object(attrs))
}

/// JSON text as a [`Pull`] source.
pub(crate) struct Text<'a> {
    pub(crate) bump: &'a Bump,
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
}

impl Text<'_> {
    fn syntax<T>(&self, at: usize, expected: &str) -> Result<T, Box<Fail>> {
        terr(
            at,
            format!(
                "invalid JSON: expected {expected}, found {}",
                scan::describe(self.buf, at)
            ),
        )
    }
}

impl<'a> Pull<'a> for Text<'a> {
    fn start(&mut self) -> Result<Start<'a>, Box<Fail>> {
        let i = scan::skip_ws(self.buf, self.pos);
        match self.buf.get(i) {
            Some(b'"') => {
                let (s, end) = scan::string(self.bump, self.buf, i).map_err(scan_err)?;
                self.pos = end;
                Ok(Start::Str(s))
            }
            Some(b'[') => {
                self.pos = i + 1;
                Ok(Start::Array)
            }
            Some(b'{') => {
                self.pos = i + 1;
                Ok(Start::Object)
            }
            Some(b'-' | b'0'..=b'9') => {
                self.pos = scan::number(self.buf, i).map_err(scan_err)?;
                Ok(Start::Other("a number"))
            }
            Some(b't') => {
                self.pos = scan::literal(self.buf, i, b"true").map_err(scan_err)?;
                Ok(Start::Other("a bool"))
            }
            Some(b'f') => {
                self.pos = scan::literal(self.buf, i, b"false").map_err(scan_err)?;
                Ok(Start::Other("a bool"))
            }
            Some(b'n') => {
                self.pos = scan::literal(self.buf, i, b"null").map_err(scan_err)?;
                Ok(Start::Other("null"))
            }
            _ => self.syntax(i, "a value"),
        }
    }

    fn array_next(&mut self, first: bool) -> Result<bool, Box<Fail>> {
        let i = scan::skip_ws(self.buf, self.pos);
        match self.buf.get(i) {
            Some(b']') => {
                self.pos = i + 1;
                Ok(false)
            }
            Some(b',') if !first => {
                self.pos = i + 1;
                Ok(true)
            }
            Some(_) if first => {
                self.pos = i;
                Ok(true)
            }
            _ => self.syntax(i, "',' or ']'"),
        }
    }

    fn object_next(&mut self, first: bool) -> Result<Option<(&'a str, usize)>, Box<Fail>> {
        let mut i = scan::skip_ws(self.buf, self.pos);
        match self.buf.get(i) {
            Some(b'}') => {
                self.pos = i + 1;
                return Ok(None);
            }
            Some(b',') if !first => i = scan::skip_ws(self.buf, i + 1),
            Some(b'"') if first => {}
            _ => return self.syntax(i, if first { "'\"' or '}'" } else { "',' or '}'" }),
        }
        if self.buf.get(i) != Some(&b'"') {
            return self.syntax(i, "an attribute name");
        }
        let (key, end) = scan::string(self.bump, self.buf, i).map_err(scan_err)?;
        let c = scan::skip_ws(self.buf, end);
        if self.buf.get(c) != Some(&b':') {
            return self.syntax(c, "':'");
        }
        self.pos = c + 1;
        Ok(Some((key, i)))
    }

    fn offset(&self) -> usize {
        scan::skip_ws(self.buf, self.pos)
    }
}

/// Writes `ty` as compact type JSON: attributes sorted, optional attributes (sorted) as a
/// third element of the object form, names escaped as Go's `encoding/json` does.
pub(crate) fn write_type(out: &mut (impl fmt::Write + ?Sized), ty: Ty<'_>) -> fmt::Result {
    match ty {
        Ty::Bool => out.write_str("\"bool\""),
        Ty::Number => out.write_str("\"number\""),
        Ty::String => out.write_str("\"string\""),
        Ty::Dynamic => out.write_str("\"dynamic\""),
        Ty::List(e) => {
            out.write_str("[\"list\",")?;
            write_type(out, *e)?;
            out.write_str("]")
        }
        Ty::Set(e) => {
            out.write_str("[\"set\",")?;
            write_type(out, *e)?;
            out.write_str("]")
        }
        Ty::Map(e) => {
            out.write_str("[\"map\",")?;
            write_type(out, *e)?;
            out.write_str("]")
        }
        Ty::Object(attrs) => {
            out.write_str("[\"object\",{")?;
            for (i, a) in attrs.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                tfwire_json::write_go_str(out, a.name)?;
                out.write_char(':')?;
                write_type(out, a.ty)?;
            }
            out.write_char('}')?;
            if attrs.iter().any(|a| a.optional) {
                out.write_str(",[")?;
                for (i, a) in attrs.iter().filter(|a| a.optional).enumerate() {
                    if i > 0 {
                        out.write_char(',')?;
                    }
                    tfwire_json::write_go_str(out, a.name)?;
                }
                out.write_char(']')?;
            }
            out.write_char(']')
        }
        Ty::Tuple(es) => {
            out.write_str("[\"tuple\",[")?;
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                write_type(out, *e)?;
            }
            out.write_str("]]")
        }
    }
}

impl fmt::Display for Ty<'_> {
    /// Writes the compact type JSON, as go-cty's `MarshalType` does.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(f, *self)
    }
}

#[cfg(test)]
mod tests {
    use crate::{ErrorKind, Type};

    #[test]
    fn round_trips() {
        for t in [
            r#""string""#,
            r#"["list",["set",["map","number"]]]"#,
            r#"["object",{"a":"bool","b":["tuple",["string","dynamic"]]}]"#,
            r#"["object",{"a":"bool","b":"string"},["b"]]"#,
            r#"["tuple",[]]"#,
            r#"["object",{}]"#,
            r#"["object",{"\u003c\u0026":"string"}]"#,
        ] {
            assert_eq!(Type::from_json(t).unwrap().to_json(), t);
        }
        let t = Type::from_json(
            " [ \"object\" , { \"b\" : \"string\" , \"a\" : [\"list\",\"bool\"] } ] ",
        )
        .unwrap();
        assert_eq!(
            t.to_json(),
            r#"["object",{"a":["list","bool"],"b":"string"}]"#
        );
    }

    #[test]
    fn errors_have_positions() {
        let cases = [
            (r#""strin""#, 0, "invalid primitive type name \"strin\""),
            (
                r#"["capsule","x"]"#,
                1,
                "capsule types cannot be sent over the wire",
            ),
            (
                r#"["lisp","string"]"#,
                1,
                "invalid complex type kind name \"lisp\"",
            ),
            (r#""string" x"#, 9, "extraneous data after type description"),
            (
                r#"["list","string","x"]"#,
                17,
                "extraneous data after list type",
            ),
            (r#"["list"]"#, 7, "missing element type for list"),
            (
                r#"[]"#,
                0,
                "type array is empty: a type kind name is required",
            ),
            (
                r#"["object",{"a":"string","a":"bool"}]"#,
                24,
                "duplicate attribute \"a\" in object type",
            ),
            (
                r#"["object",{"a":"string"},["b"]]"#,
                26,
                "optional attribute \"b\" is not declared",
            ),
            (
                r#"["object",["a"]]"#,
                10,
                "object attribute types must be an object",
            ),
            (
                r#"string"#,
                0,
                "invalid JSON: expected a value, found character 's'",
            ),
            (
                r#"["list","string""#,
                16,
                "invalid JSON: expected ',' or ']', found end of input",
            ),
            (
                r#"{"a":1}"#,
                0,
                "a type is a string or an array, found an object",
            ),
            (r#"7"#, 0, "a type is a string or an array, found a number"),
        ];
        for (text, offset, message) in cases {
            let e = Type::from_json(text).unwrap_err();
            let ErrorKind::InvalidType {
                message: m,
                offset: None,
            } = e.kind()
            else {
                panic!("{text}: {e:?}");
            };
            assert_eq!((e.offset(), m.as_str()), (offset, message), "{text}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!(
            "{}\"string\"{}",
            "[\"list\",".repeat(1_000_000),
            "]".repeat(1_000_000)
        );
        let e = Type::from_json(&deep).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::InvalidType { message, .. } if message == "type nested too deeply")
        );
    }
}
