//! Reading the canonical form back into a value.

use crate::error::{Error, ErrorKind, Fail, Limit, PathStep, Step};
use crate::number::Number;
use crate::ty::json as tyjson;
use crate::value::{Dynamic, Refinements, Value};
use bumpalo::Bump;
use tfwire_json::Safe;
use tfwire_json::scan;

/// Parses the canonical text of a value (as [`to_string`](super::to_string) writes it, with
/// any JSON whitespace) into `arena`.
///
/// The result follows the value model's rules whatever order the text lists things in: map
/// entries and object attributes are sorted, strings and map keys NFC-normalized. Set
/// elements keep the order of the text. `["unknown",{}]` is a plain unknown.
/// Equal set elements merge into one, the first kept (`["set",[["number","1"],
/// ["number","1.0"]]]` is a set of one number), as go-cty's sets and the decoders do. What
/// the canonical form can say but a [`Value`] cannot hold is an error: `["string_hex", ...]`
/// (bytes that are not UTF-8) and a `nullness: true` refinement (that value is `["null"]`).
/// The value is not checked against a type: the encoders do that.
///
/// ```
/// use tfwire::{Program, Type};
/// let arena = bumpalo::Bump::new();
/// let v = tfwire::canonical::parse(br#"["map",{"b":["number","1.5"],"a":["null"]}]"#, &arena)?;
/// assert_eq!(tfwire::canonical::to_string(&v), r#"["map",{"a":["null"],"b":["number","1.5"]}]"#);
/// let program = Program::compile(&Type::from_json(r#"["map","number"]"#)?);
/// assert_eq!(tfwire::encode_msgpack(&program, &v)?, b"\x82\xa1a\xc0\xa1b\xcb\x3f\xf8\0\0\0\0\0\0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse<'a>(text: &'a [u8], arena: &'a Bump) -> Result<Value<'a>, Error> {
    let mut p = Parser {
        buf: text,
        pos: 0,
        bump: arena,
    };
    let r = p.value(0).and_then(|v| {
        let end = scan::skip_ws(text, p.pos);
        if end == text.len() {
            Ok(v)
        } else {
            Err(Fail::new(ErrorKind::TrailingBytes, end))
        }
    });
    r.map_err(|f| (*f).into_error())
}

/// Canonical forms nested deeper than this are refused (the parser recurses).
const MAX_DEPTH: usize = crate::decode::Config::MAX_DEPTH;

#[cold]
fn entry_step(is_map: bool, k: &str) -> PathStep<'static> {
    if is_map {
        PathStep::Key(k.to_owned().into())
    } else {
        PathStep::Attr(k.to_owned().into())
    }
}

struct Parser<'a> {
    buf: &'a [u8],
    pos: usize,
    bump: &'a Bump,
}

impl<'a> Parser<'a> {
    #[cold]
    #[inline(never)]
    fn invalid(&self, at: usize, m: impl Into<String>) -> Box<Fail> {
        Fail::new(ErrorKind::InvalidCanonical(m.into()), at)
    }

    #[cold]
    #[inline(never)]
    fn syntax(&self, at: usize, expected: &str) -> Box<Fail> {
        Fail::new(
            ErrorKind::Syntax(format!(
                "expected {expected}, found {}",
                scan::describe(self.buf, at)
            )),
            at,
        )
    }

    fn arena_full(&self) -> Box<Fail> {
        let max = self.bump.allocation_limit().unwrap_or(usize::MAX) as u64;
        Fail::new(
            ErrorKind::LimitExceeded {
                limit: Limit::ArenaBytes,
                max,
            },
            self.pos,
        )
    }

    /// Skips whitespace; the offset of the next token.
    fn ws(&mut self) -> usize {
        self.pos = scan::skip_ws(self.buf, self.pos);
        self.pos
    }

    fn punct(&mut self, c: u8) -> Step<()> {
        let at = self.ws();
        if self.buf.get(at) == Some(&c) {
            self.pos = at + 1;
            Ok(())
        } else {
            Err(self.syntax(at, &format!("'{}'", c as char)))
        }
    }

    /// `,` or the closing bracket `close`: whether another item follows.
    fn more(&mut self, close: u8) -> Step<bool> {
        let at = self.ws();
        match self.buf.get(at) {
            Some(b',') => {
                self.pos = at + 1;
                Ok(true)
            }
            Some(&c) if c == close => {
                self.pos = at + 1;
                Ok(false)
            }
            _ => Err(self.syntax(at, &format!("',' or '{}'", close as char))),
        }
    }

    /// Whether the next token is the closing bracket `close` (consumed if so).
    fn close(&mut self, close: u8) -> bool {
        let at = self.ws();
        if self.buf.get(at) == Some(&close) {
            self.pos = at + 1;
            true
        } else {
            false
        }
    }

    fn string(&mut self) -> Step<&'a str> {
        let at = self.ws();
        if self.buf.get(at) != Some(&b'"') {
            return Err(self.syntax(at, "a string"));
        }
        let (s, end) = scan::string(self.bump, self.buf, at)?;
        self.pos = end;
        Ok(s)
    }

    fn nfc(&self, s: &'a str) -> Step<&'a str> {
        crate::nfc::nfc(self.bump, s).ok_or_else(|| self.arena_full())
    }

    fn boolean(&mut self) -> Step<bool> {
        let at = self.ws();
        let (word, b): (&[u8], bool) = match self.buf.get(at) {
            Some(b't') => (b"true", true),
            Some(b'f') => (b"false", false),
            _ => return Err(self.syntax(at, "true or false")),
        };
        self.pos =
            scan::literal(self.buf, at, word).map_err(|_| self.syntax(at, "true or false"))?;
        Ok(b)
    }

    fn number_text(&mut self) -> Step<Number<'a>> {
        let at = self.ws();
        let t = self.string()?;
        match Number::parse(t) {
            Ok(n) => Ok(n),
            Err(_) => Err(self.invalid(at, format!("{} is not a number", Safe(t)))),
        }
    }

    fn length(&mut self) -> Step<u64> {
        let at = self.ws();
        let end = scan::number(self.buf, at).map_err(|_| self.syntax(at, "a length"))?;
        self.pos = end;
        core::str::from_utf8(&self.buf[at..end])
            .ok()
            .and_then(|t| t.parse::<u64>().ok())
            .ok_or_else(|| self.invalid(at, "a length is a non-negative integer"))
    }

    fn value(&mut self, depth: usize) -> Step<Value<'a>> {
        if depth > MAX_DEPTH {
            return Err(self.too_deep());
        }
        let (tag, tag_at) = self.tag()?;
        match tag {
            "list" | "set" | "tuple" => self.seq(tag, depth),
            "map" => self.entries(true, depth),
            "object" => self.entries(false, depth),
            "dynamic" => self.dynamic(depth),
            _ => self.scalar(tag, tag_at),
        }
    }

    /// `[` and the tag.
    fn tag(&mut self) -> Step<(&'a str, usize)> {
        self.punct(b'[')?;
        let at = self.ws();
        Ok((self.string()?, at))
    }

    /// The rest of a value that holds no other value.
    #[inline(never)]
    fn scalar(&mut self, tag: &str, tag_at: usize) -> Step<Value<'a>> {
        let v = match tag {
            "null" => Value::Null,
            "unknown" => {
                if self.close(b']') {
                    return Ok(Value::Unknown(None));
                }
                self.punct(b',')?;
                let r = self.refinements()?;
                if r.is_empty() {
                    Value::Unknown(None)
                } else {
                    let r = self.bump.try_alloc(r).map_err(|_| self.arena_full())?;
                    Value::Unknown(Some(r))
                }
            }
            "bool" => {
                self.punct(b',')?;
                Value::Bool(self.boolean()?)
            }
            "number" => {
                self.punct(b',')?;
                Value::Number(self.number_text()?)
            }
            "string" => {
                self.punct(b',')?;
                let s = self.string()?;
                Value::String(self.nfc(s)?)
            }
            "string_hex" => {
                return Err(self.invalid(
                    tag_at,
                    "a string that is not UTF-8 (string_hex) cannot be a value",
                ));
            }
            other => return Err(self.unknown_tag(tag_at, other)),
        };
        self.punct(b']')?;
        Ok(v)
    }

    // `value` recurses through `seq`, `entries` and `dynamic`; they are kept apart and errors
    // are built in cold functions, so that the frames stay small and `MAX_DEPTH` levels fit
    // in a thread's stack.

    /// `[value, ...]` of a list, set or tuple.
    #[inline(never)]
    fn seq(&mut self, tag: &str, depth: usize) -> Step<Value<'a>> {
        self.punct(b',')?;
        self.punct(b'[')?;
        let mut xs = Vec::new();
        if !self.close(b']') {
            loop {
                let i = xs.len() as u64;
                let x = self
                    .value(depth + 1)
                    .map_err(|f| f.step(PathStep::Index(i)))?;
                xs.push(x);
                if !self.more(b']')? {
                    break;
                }
            }
        }
        if tag == "set" {
            // A set holds each value once: equal elements merge, the first kept (as go-cty's
            // `SetVal` and the decoders do).
            let keep = crate::decode::collection::dedup_set(&mut xs, 0, &mut Vec::new());
            xs.truncate(keep);
        }
        let xs = self
            .bump
            .try_alloc_slice_copy(&xs)
            .map_err(|_| self.arena_full())?;
        self.punct(b']')?;
        Ok(match tag {
            "list" => Value::List(xs),
            "set" => Value::Set(xs),
            _ => Value::Tuple(xs),
        })
    }

    /// `{key: value, ...}` of a map or object, sorted.
    #[inline(never)]
    fn entries(&mut self, is_map: bool, depth: usize) -> Step<Value<'a>> {
        self.punct(b',')?;
        self.punct(b'{')?;
        let mut es: Vec<(&'a str, Value<'a>, usize)> = Vec::new();
        if !self.close(b'}') {
            loop {
                let at = self.ws();
                let k = self.string()?;
                let k = if is_map { self.nfc(k)? } else { k };
                self.punct(b':')?;
                let x = self
                    .value(depth + 1)
                    .map_err(|f| f.step(entry_step(is_map, k)))?;
                es.push((k, x, at));
                if !self.more(b'}')? {
                    break;
                }
            }
        }
        es.sort_by(|a, b| a.0.cmp(b.0).then(a.2.cmp(&b.2)));
        if let Some(w) = es.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(self.duplicate(w[1].2, is_map, w[1].0));
        }
        let mut it = es.iter().map(|&(k, x, _)| (k, x));
        let es = self
            .bump
            .try_alloc_slice_fill_with(es.len(), |_| it.next().unwrap_or(("", Value::Null)))
            .map_err(|_| self.arena_full())?;
        self.punct(b']')?;
        Ok(if is_map {
            Value::Map(es)
        } else {
            Value::Object(es)
        })
    }

    /// `TYPE, value` of a dynamic value.
    #[inline(never)]
    fn dynamic(&mut self, depth: usize) -> Step<Value<'a>> {
        self.punct(b',')?;
        let ty_at = self.ws();
        let mut src = tyjson::Text {
            bump: self.bump,
            buf: self.buf,
            pos: ty_at,
        };
        // The type JSON is text of the input: the fault's offset is the offending byte.
        let ty = tyjson::parse(&mut src, self.bump, MAX_DEPTH)
            .map_err(|e| if e.is_arena() { self.arena_full() } else { e })?;
        self.pos = src.pos;
        self.punct(b',')?;
        let value = self.value(depth + 1)?;
        let d = self
            .bump
            .try_alloc(Dynamic { ty, value })
            .map_err(|_| self.arena_full())?;
        self.punct(b']')?;
        Ok(Value::Dynamic(d))
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) -> Box<Fail> {
        let at = self.ws();
        self.invalid(at, format!("nested more than {MAX_DEPTH} levels deep"))
    }

    #[cold]
    #[inline(never)]
    fn unknown_tag(&self, at: usize, tag: &str) -> Box<Fail> {
        self.invalid(at, format!("unknown tag {}", Safe(tag)))
    }

    #[cold]
    #[inline(never)]
    fn duplicate(&self, at: usize, is_map: bool, k: &str) -> Box<Fail> {
        let what = if is_map { "map key" } else { "attribute" };
        self.invalid(at, format!("duplicate {what} {}", Safe(k)))
    }

    /// `{"nullness": false, "prefix": S, "lower": [N, B], "upper": [N, B], "len_lower": L,
    /// "len_upper": L}`, any subset.
    fn refinements(&mut self) -> Step<Refinements<'a>> {
        let mut r = Refinements::default();
        self.punct(b'{')?;
        if self.close(b'}') {
            return Ok(r);
        }
        loop {
            let at = self.ws();
            let key = self.string()?;
            self.punct(b':')?;
            match key {
                "nullness" => {
                    let v_at = self.ws();
                    if self.boolean()? {
                        return Err(self.invalid(
                            v_at,
                            "an unknown refined as null is a null: write [\"null\"]",
                        ));
                    }
                    r.not_null = true;
                }
                "prefix" => {
                    let s = self.string()?;
                    r.prefix = Some(self.nfc(s)?);
                }
                "lower" | "upper" => {
                    self.punct(b'[')?;
                    let n = self.number_text()?;
                    self.punct(b',')?;
                    let inclusive = self.boolean()?;
                    self.punct(b']')?;
                    if key == "lower" {
                        r.lower = Some((n, inclusive));
                    } else {
                        r.upper = Some((n, inclusive));
                    }
                }
                "len_lower" => r.len_lower = Some(self.length()?),
                "len_upper" => r.len_upper = Some(self.length()?),
                other => {
                    return Err(self.invalid(at, format!("unknown refinement {}", Safe(other))));
                }
            }
            if !self.more(b'}')? {
                return Ok(r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::to_string;

    fn round(text: &str) -> String {
        let bump = Bump::new();
        to_string(&parse(text.as_bytes(), &bump).unwrap())
    }

    fn error(text: &str) -> String {
        let bump = Bump::new();
        parse(text.as_bytes(), &bump).unwrap_err().to_string()
    }

    #[test]
    fn canonical_text_reads_back_as_itself() {
        for t in [
            r#"["null"]"#,
            r#"["unknown"]"#,
            r#"["unknown",{"len_lower":1,"len_upper":5,"nullness":false}]"#,
            r#"["unknown",{"lower":["-Inf",true],"prefix":"a\"b","upper":["2.5",false]}]"#,
            r#"["bool",true]"#,
            r#"["number","-12.5"]"#,
            r#"["number","+Inf"]"#,
            r#"["string","\u0000é\n"]"#,
            r#"["list",[]]"#,
            r#"["set",[["number","1"],["string","a"]]]"#,
            r#"["tuple",[["null"],["bool",false]]]"#,
            r#"["map",{"":["null"],"a":["string","b"]}]"#,
            r#"["object",{"a":["dynamic",["list","string"],["list",[["string","x"]]]]}]"#,
            r#"["dynamic",["object",{"a":"number"},["a"]],["null"]]"#,
        ] {
            assert_eq!(round(t), t);
        }
    }

    #[test]
    fn rules_of_the_value_model_are_applied() {
        assert_eq!(
            round(r#" [ "object" , { "b" : ["null"] , "a" : [ "bool" , true ] } ] "#),
            r#"["object",{"a":["bool",true],"b":["null"]}]"#
        );
        assert_eq!(
            round(r#"["map",{"e\u0301":["string","e\u0301"]}]"#),
            "[\"map\",{\"é\":[\"string\",\"é\"]}]"
        );
        assert_eq!(round(r#"["unknown",{}]"#), r#"["unknown"]"#);
        assert_eq!(round(r#"["number","1e3"]"#), r#"["number","1000"]"#);
    }

    #[test]
    fn errors_name_the_place() {
        assert_eq!(
            error(r#"["list",[["null"],["nul"]]]"#),
            r#"[1]: invalid canonical form: unknown tag "nul" (at byte 19)"#
        );
        assert_eq!(
            error(r#"["object",{"a":["number","x"]}]"#),
            r#".a: invalid canonical form: "x" is not a number (at byte 25)"#
        );
        assert_eq!(
            error(r#"["map",{"a":["null"],"a":["null"]}]"#),
            r#"(root): invalid canonical form: duplicate map key "a" (at byte 21)"#
        );
        assert_eq!(
            error(r#"["string_hex","ff"]"#),
            "(root): invalid canonical form: a string that is not UTF-8 (string_hex) cannot be a \
             value (at byte 1)"
        );
        assert_eq!(
            error(r#"["unknown",{"nullness":true}]"#),
            "(root): invalid canonical form: an unknown refined as null is a null: write \
             [\"null\"] (at byte 23)"
        );
        assert_eq!(
            error(r#"["dynamic",["lst","string"],["null"]]"#),
            "(root): invalid type: invalid complex type kind name \"lst\" (at byte 12)"
        );
        assert_eq!(
            error(r#"["bool",true] x"#),
            "(root): unexpected bytes after the end of the value (at byte 14)"
        );
        assert_eq!(
            error(r#"["bool" true]"#),
            "(root): invalid JSON: expected ',', found character 't' (at byte 8)"
        );
        // The parser recurses: give it the stack a debug build needs for 1024 levels.
        let deep = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(|| {
                let deep = |n| format!("{}[\"null\"]{}", "[\"list\",[".repeat(n), "]]".repeat(n));
                let bump = Bump::new();
                assert!(parse(deep(1024).as_bytes(), &bump).is_ok());
                error(&deep(1025))
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(
            deep,
            format!(
                "{}: invalid canonical form: nested more than 1024 levels deep (at byte {})",
                "[0]".repeat(1025),
                9 * 1025
            )
        );
    }
}
