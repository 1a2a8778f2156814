//! go-cty value literals, as the transcribed round-trip tests write them
//! (`cty.ListVal([]cty.Value{cty.StringVal("a")})`,
//! `cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("foo-").NewValue()`, ...),
//! read into the value go-cty builds, and written in the canonical form.
//!
//! A small closed grammar: the `cty` constructors and refinement builder methods the tests
//! use, `convert.Convert` of a string, `strings.Repeat`, `+` on strings, Go string, integer
//! and float literals, and the two variables of `roundtrip_test.go` (`bigNumberVal`,
//! `awkwardFractionVal`). go-cty's construction rules are applied: a list's element type is
//! its first non-dynamic element's, refinements collapse as `RefinementBuilder.NewValue` does,
//! and `StringPrefix` trims the prefix to a safe one (approximated: the literals only hold
//! ASCII letters, `-` and emoji, for which the last character is the last grapheme cluster).

use tfwire::{Number, Type};

/// A go-cty value.
#[derive(Clone, Debug)]
pub enum GoVal {
    Null(Type),
    Unknown(Type, Refine),
    Bool(bool),
    /// Canonical number text.
    Number(String),
    String(String),
    List(Type, Vec<GoVal>),
    Set(Type, Vec<GoVal>),
    Map(Type, Vec<(String, GoVal)>),
    Tuple(Vec<GoVal>),
    Object(Vec<(String, GoVal)>),
}

/// The refinements of an unknown value (go-cty's `RefinementBuilder` state).
#[derive(Clone, Debug, Default)]
pub struct Refine {
    pub null: Option<bool>,
    pub prefix: String,
    pub lower: Option<(String, bool)>,
    pub upper: Option<(String, bool)>,
    pub len_lower: u64,
    pub len_upper: Option<u64>,
}

impl GoVal {
    /// The value's type.
    pub fn ty(&self) -> Type {
        match self {
            GoVal::Null(t) | GoVal::Unknown(t, _) => t.clone(),
            GoVal::Bool(_) => Type::Bool,
            GoVal::Number(_) => Type::Number,
            GoVal::String(_) => Type::String,
            GoVal::List(e, _) => Type::list(e.clone()),
            GoVal::Set(e, _) => Type::set(e.clone()),
            GoVal::Map(e, _) => Type::map(e.clone()),
            GoVal::Tuple(xs) => Type::tuple(xs.iter().map(GoVal::ty)),
            GoVal::Object(es) => Type::object(es.iter().map(|(k, x)| (k.clone(), x.ty(), false))),
        }
    }

    /// Whether JSON can hold the value (no unknowns, no infinities).
    pub fn json_safe(&self) -> bool {
        match self {
            GoVal::Unknown(..) => false,
            GoVal::Number(n) => !n.ends_with("Inf"),
            GoVal::List(_, xs) | GoVal::Set(_, xs) | GoVal::Tuple(xs) => {
                xs.iter().all(GoVal::json_safe)
            }
            GoVal::Map(_, es) | GoVal::Object(es) => es.iter().all(|(_, x)| x.json_safe()),
            _ => true,
        }
    }

    /// The canonical form of the value at a position of type `schema`.
    pub fn canonical(&self, schema: &Type) -> String {
        let q = |s: &str| serde_json::to_string(s).unwrap();
        if *schema == Type::Dynamic && self.ty() != Type::Dynamic {
            let ty = self.ty();
            return format!("[\"dynamic\",{},{}]", ty.to_json(), self.canonical(&ty));
        }
        let elem = |i: usize| -> Type {
            match schema {
                Type::List(e) | Type::Set(e) | Type::Map(e) => (**e).clone(),
                Type::Tuple(es) => es[i].clone(),
                _ => Type::Dynamic,
            }
        };
        let seq = |tag: &str, xs: &[GoVal]| {
            let items: Vec<String> = xs
                .iter()
                .enumerate()
                .map(|(i, x)| x.canonical(&elem(i)))
                .collect();
            format!("[\"{tag}\",[{}]]", items.join(","))
        };
        match self {
            GoVal::Null(_) => "[\"null\"]".into(),
            GoVal::Unknown(_, r) => {
                let mut keys = Vec::new();
                if r.len_lower > 0 {
                    keys.push(format!("\"len_lower\":{}", r.len_lower));
                }
                if let Some(n) = r.len_upper {
                    keys.push(format!("\"len_upper\":{n}"));
                }
                if let Some((n, inc)) = &r.lower {
                    keys.push(format!("\"lower\":[{},{inc}]", q(n)));
                }
                if r.null == Some(false) {
                    keys.push("\"nullness\":false".into());
                }
                if !r.prefix.is_empty() {
                    keys.push(format!("\"prefix\":{}", q(&r.prefix)));
                }
                if let Some((n, inc)) = &r.upper {
                    keys.push(format!("\"upper\":[{},{inc}]", q(n)));
                }
                if keys.is_empty() {
                    "[\"unknown\"]".into()
                } else {
                    format!("[\"unknown\",{{{}}}]", keys.join(","))
                }
            }
            GoVal::Bool(b) => format!("[\"bool\",{b}]"),
            GoVal::Number(n) => format!("[\"number\",{}]", q(n)),
            GoVal::String(s) => format!("[\"string\",{}]", q(s)),
            GoVal::List(_, xs) => seq("list", xs),
            GoVal::Set(_, xs) => seq("set", xs),
            GoVal::Tuple(xs) => seq("tuple", xs),
            GoVal::Map(_, es) | GoVal::Object(es) => {
                let tag = if matches!(self, GoVal::Map(..)) {
                    "map"
                } else {
                    "object"
                };
                let items: Vec<String> = es
                    .iter()
                    .map(|(k, x)| {
                        let t = match schema {
                            Type::Object(o) => o.get(k).map_or(Type::Dynamic, |a| a.ty.clone()),
                            _ => elem(0),
                        };
                        format!("{}:{}", q(k), x.canonical(&t))
                    })
                    .collect();
                format!("[\"{tag}\",{{{}}}]", items.join(","))
            }
        }
    }
}

/// Reads a go-cty value literal.
pub fn parse_value(text: &str) -> Result<GoVal, String> {
    let mut p = Parser {
        toks: lex(text)?,
        pos: 0,
    };
    let v = p.value()?;
    match p.peek() {
        None => Ok(v),
        Some(t) => Err(format!("unexpected {t:?} after the value")),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Num(String),
    Punct(char),
}

fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut it = text.chars().peekable();
    while let Some(&c) = it.peek() {
        if c.is_whitespace() {
            it.next();
        } else if c.is_ascii_alphabetic() || c == '_' || c == '.' {
            // Names may be qualified (`cty.StringVal`); a method starts with its dot.
            let mut s = String::from(c);
            it.next();
            while let Some(&c) = it
                .peek()
                .filter(|c| c.is_ascii_alphanumeric() || **c == '_' || **c == '.')
            {
                s.push(c);
                it.next();
            }
            out.push(Tok::Ident(s));
        } else if c.is_ascii_digit() || c == '-' {
            let mut s = String::new();
            while let Some(&c) = it
                .peek()
                .filter(|c| c.is_ascii_alphanumeric() || matches!(**c, '.' | '-' | '+'))
            {
                s.push(c);
                it.next();
            }
            out.push(Tok::Num(s));
        } else if c == '"' {
            it.next();
            let mut s = String::new();
            loop {
                match it.next().ok_or("unterminated string")? {
                    '"' => break,
                    '\\' => match it.next().ok_or("unterminated escape")? {
                        'n' => s.push('\n'),
                        't' => s.push('\t'),
                        'r' => s.push('\r'),
                        '"' => s.push('"'),
                        '\\' => s.push('\\'),
                        'u' => {
                            let h: String = (0..4).filter_map(|_| it.next()).collect();
                            let c = u32::from_str_radix(&h, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or("bad \\u escape")?;
                            s.push(c);
                        }
                        e => return Err(format!("unsupported escape \\{e}")),
                    },
                    c => s.push(c),
                }
            }
            out.push(Tok::Str(s));
        } else if "(){}[],:+".contains(c) {
            out.push(Tok::Punct(c));
            it.next();
        } else {
            return Err(format!("unexpected character {c:?}"));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

/// A value or an unknown value being refined (`.Refine()` ... `.NewValue()`).
enum Building {
    Value(GoVal),
    Builder(Type, Refine),
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn next(&mut self) -> Result<Tok, String> {
        let t = self.toks.get(self.pos).cloned().ok_or("unexpected end")?;
        self.pos += 1;
        Ok(t)
    }

    fn punct(&mut self, c: char) -> Result<(), String> {
        match self.next()? {
            Tok::Punct(p) if p == c => Ok(()),
            t => Err(format!("expected {c:?}, found {t:?}")),
        }
    }

    fn ident(&mut self) -> Result<String, String> {
        match self.next()? {
            Tok::Ident(s) => Ok(s),
            t => Err(format!("expected a name, found {t:?}")),
        }
    }

    /// Whether the next token is the punctuation `c` (consumed if so).
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// `{ item, item, }` with `item` parsed by `f`.
    fn braced<T>(
        &mut self,
        mut f: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        self.punct('{')?;
        let mut out = Vec::new();
        while !self.eat('}') {
            out.push(f(self)?);
            if !self.eat(',') {
                self.punct('}')?;
                break;
            }
        }
        Ok(out)
    }

    /// `[]cty.Value` / `[]cty.Type` / `map[string]cty.Value` / `map[string]cty.Type`.
    fn composite_literal_type(&mut self, want: &str) -> Result<(), String> {
        if self.eat('[') {
            self.punct(']')?;
        } else {
            match self.ident()?.as_str() {
                "map" => {}
                t => return Err(format!("expected a composite literal, found {t}")),
            }
            self.punct('[')?;
            self.ident()?;
            self.punct(']')?;
        }
        let t = self.ident()?;
        (t == want)
            .then_some(())
            .ok_or(format!("expected {want}, found {t}"))
    }

    fn ty(&mut self) -> Result<Type, String> {
        let name = self.ident()?;
        Ok(match name.as_str() {
            "cty.String" => Type::String,
            "cty.Number" => Type::Number,
            "cty.Bool" => Type::Bool,
            "cty.DynamicPseudoType" => Type::Dynamic,
            "cty.EmptyTuple" => Type::tuple([]),
            "cty.EmptyObject" => Type::object::<String>([]),
            "cty.List" | "cty.Set" | "cty.Map" => {
                self.punct('(')?;
                let e = self.ty()?;
                self.punct(')')?;
                match name.as_str() {
                    "cty.List" => Type::list(e),
                    "cty.Set" => Type::set(e),
                    _ => Type::map(e),
                }
            }
            "cty.Tuple" => {
                self.punct('(')?;
                self.composite_literal_type("cty.Type")?;
                let es = self.braced(|p| p.ty())?;
                self.punct(')')?;
                Type::tuple(es)
            }
            "cty.Object" => {
                self.punct('(')?;
                self.composite_literal_type("cty.Type")?;
                let attrs = self.braced(|p| {
                    let Tok::Str(k) = p.next()? else {
                        return Err("expected an attribute name".into());
                    };
                    p.punct(':')?;
                    Ok((k, p.ty()?, false))
                })?;
                self.punct(')')?;
                Type::object(attrs)
            }
            t => return Err(format!("unsupported type {t}")),
        })
    }

    fn string(&mut self) -> Result<String, String> {
        let mut s = self.string_term()?;
        while self.eat('+') {
            s.push_str(&self.string_term()?);
        }
        Ok(s)
    }

    fn string_term(&mut self) -> Result<String, String> {
        match self.next()? {
            Tok::Str(s) => Ok(s),
            Tok::Ident(f) if f == "strings.Repeat" => {
                self.punct('(')?;
                let s = self.string()?;
                self.punct(',')?;
                let n: usize = self.integer()?.try_into().map_err(|_| "bad count")?;
                self.punct(')')?;
                Ok(s.repeat(n))
            }
            t => Err(format!("expected a string, found {t:?}")),
        }
    }

    fn integer(&mut self) -> Result<i64, String> {
        match self.next()? {
            Tok::Num(n) => n.parse().map_err(|_| format!("bad integer {n}")),
            t => Err(format!("expected an integer, found {t:?}")),
        }
    }

    fn boolean(&mut self) -> Result<bool, String> {
        match self.ident()?.as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            t => Err(format!("expected a bool, found {t}")),
        }
    }

    fn value(&mut self) -> Result<GoVal, String> {
        let mut b = Building::Value(self.primary()?);
        while let Some(Tok::Ident(m)) = self.peek().cloned() {
            let Some(method) = m.strip_prefix('.').map(str::to_owned) else {
                break;
            };
            self.pos += 1;
            self.punct('(')?;
            b = self.method(b, &method)?;
            self.punct(')')?;
        }
        match b {
            Building::Value(v) => Ok(v),
            Building::Builder(..) => Err("a refinement without .NewValue()".into()),
        }
    }

    fn method(&mut self, b: Building, m: &str) -> Result<Building, String> {
        let (ty, mut r) = match (b, m) {
            (Building::Value(GoVal::Unknown(t, r)), "Refine") => {
                return Ok(Building::Builder(t, r));
            }
            (Building::Value(GoVal::Unknown(t, mut r)), "RefineNotNull") => {
                r.null = Some(false);
                return Ok(Building::Value(new_value(t, r)));
            }
            (Building::Builder(t, r), "NewValue") => return Ok(Building::Value(new_value(t, r))),
            (Building::Builder(t, r), _) => (t, r),
            (_, m) => return Err(format!("unsupported method .{m} here")),
        };
        match m {
            "NotNull" => r.null = Some(false),
            "StringPrefix" => r.prefix = safe_known_prefix(&self.string()?),
            "StringPrefixFull" => r.prefix = self.string()?,
            "NumberRangeLowerBound" | "NumberRangeUpperBound" => {
                let n = self.number_of(m)?;
                self.punct(',')?;
                let inc = self.boolean()?;
                if m == "NumberRangeLowerBound" {
                    r.lower = Some((n, inc));
                } else {
                    r.upper = Some((n, inc));
                }
            }
            "NumberRangeInclusive" => {
                r.lower = Some((self.number_of(m)?, true));
                self.punct(',')?;
                r.upper = Some((self.number_of(m)?, true));
            }
            "CollectionLengthLowerBound" => r.len_lower = self.integer()? as u64,
            "CollectionLengthUpperBound" => r.len_upper = Some(self.integer()? as u64),
            m => return Err(format!("unsupported refinement .{m}")),
        }
        Ok(Building::Builder(ty, r))
    }

    fn number_of(&mut self, m: &str) -> Result<String, String> {
        match self.value()? {
            GoVal::Number(n) => Ok(n),
            v => Err(format!("{m} takes a number, found {v:?}")),
        }
    }

    fn args_values(&mut self) -> Result<Vec<GoVal>, String> {
        self.composite_literal_type("cty.Value")?;
        self.braced(|p| p.value())
    }

    fn primary(&mut self) -> Result<GoVal, String> {
        let name = match self.next()? {
            Tok::Str(s) => return Ok(GoVal::String(s)),
            Tok::Ident(n) => n,
            t => return Err(format!("expected a value, found {t:?}")),
        };
        let num = |t: &str| -> Result<GoVal, String> {
            let n = Number::parse(t).map_err(|_| format!("bad number {t}"))?;
            Ok(GoVal::Number(n.to_string()))
        };
        let simple = match name.as_str() {
            "cty.DynamicVal" => Some(GoVal::Unknown(Type::Dynamic, Refine::default())),
            "cty.True" => Some(GoVal::Bool(true)),
            "cty.False" => Some(GoVal::Bool(false)),
            "cty.Zero" => Some(GoVal::Number("0".into())),
            "cty.PositiveInfinity" => Some(GoVal::Number("+Inf".into())),
            "cty.NegativeInfinity" => Some(GoVal::Number("-Inf".into())),
            "cty.EmptyTupleVal" => Some(GoVal::Tuple(Vec::new())),
            "cty.EmptyObjectVal" => Some(GoVal::Object(Vec::new())),
            // The variables of go-cty's roundtrip_test.go.
            "bigNumberVal" => Some(num(&"9".repeat(100))?),
            "awkwardFractionVal" => Some(num("0.8")?),
            _ => None,
        };
        if let Some(v) = simple {
            return Ok(v);
        }
        self.punct('(')?;
        let v = match name.as_str() {
            "cty.StringVal" => GoVal::String(nfc(&self.string()?)),
            "cty.NullVal" => GoVal::Null(self.ty()?),
            "cty.UnknownVal" => GoVal::Unknown(self.ty()?, Refine::default()),
            "cty.NumberIntVal" => GoVal::Number(self.integer()?.to_string()),
            "cty.NumberFloatVal" => match self.next()? {
                Tok::Num(t) => {
                    let f: f64 = t.parse().map_err(|_| format!("bad float {t}"))?;
                    GoVal::Number(Number::F64(f).to_string())
                }
                t => return Err(format!("expected a float, found {t:?}")),
            },
            "cty.MustParseNumberVal" => num(&self.string()?)?,
            "cty.ListVal" | "cty.SetVal" => {
                let xs = self.args_values()?;
                let e = xs
                    .iter()
                    .map(GoVal::ty)
                    .find(|t| *t != Type::Dynamic)
                    .unwrap_or(Type::Dynamic);
                // Elements of unknown type become nulls and unknowns of the element type.
                let xs = xs.into_iter().map(|x| retype(x, &e)).collect();
                if name == "cty.ListVal" {
                    GoVal::List(e, xs)
                } else {
                    GoVal::Set(e, xs)
                }
            }
            "cty.TupleVal" => GoVal::Tuple(self.args_values()?),
            "cty.MapVal" | "cty.ObjectVal" => {
                self.composite_literal_type("cty.Value")?;
                let mut es = self.braced(|p| {
                    let Tok::Str(k) = p.next()? else {
                        return Err("expected a key".into());
                    };
                    p.punct(':')?;
                    Ok((nfc(&k), p.value()?))
                })?;
                es.sort_by(|a, b| a.0.cmp(&b.0));
                if name == "cty.MapVal" {
                    let e = es
                        .iter()
                        .map(|(_, x)| x.ty())
                        .find(|t| *t != Type::Dynamic)
                        .unwrap_or(Type::Dynamic);
                    let es = es.into_iter().map(|(k, x)| (k, retype(x, &e))).collect();
                    GoVal::Map(e, es)
                } else {
                    GoVal::Object(es)
                }
            }
            "cty.ListValEmpty" => GoVal::List(self.ty()?, Vec::new()),
            "cty.SetValEmpty" => GoVal::Set(self.ty()?, Vec::new()),
            "cty.MapValEmpty" => GoVal::Map(self.ty()?, Vec::new()),
            "convert.Convert" => {
                let GoVal::String(s) = self.value()? else {
                    return Err("convert.Convert of a non-string".into());
                };
                self.punct(',')?;
                match self.ty()? {
                    Type::Number => num(&s)?,
                    Type::Bool => GoVal::Bool(s.parse().map_err(|_| format!("not a bool: {s}"))?),
                    Type::String => GoVal::String(s),
                    t => return Err(format!("unsupported conversion to {t}")),
                }
            }
            f => return Err(format!("unsupported constructor {f}")),
        };
        self.punct(')')?;
        Ok(v)
    }
}

/// A null or unknown of unknown type, as an element of a collection of `e`.
fn retype(x: GoVal, e: &Type) -> GoVal {
    match x {
        GoVal::Null(Type::Dynamic) => GoVal::Null(e.clone()),
        GoVal::Unknown(Type::Dynamic, r) => GoVal::Unknown(e.clone(), r),
        x => x,
    }
}

fn nfc(s: &str) -> String {
    unicode_normalization::UnicodeNormalization::nfc(s).collect()
}

/// go-cty's `RefinementBuilder.NewValue`: refinements that pin the value down give the
/// known value (only for a value refined as not null).
fn new_value(ty: Type, r: Refine) -> GoVal {
    if ty == Type::Dynamic {
        return GoVal::Unknown(ty, Refine::default());
    }
    match r.null {
        Some(true) => return GoVal::Null(ty),
        Some(false) => {
            if let (Some((min, true)), Some((max, true))) = (&r.lower, &r.upper)
                && Number::parse(min).ok() == Number::parse(max).ok()
            {
                return GoVal::Number(min.clone());
            }
            if r.len_upper == Some(r.len_lower) {
                let n = r.len_lower as usize;
                let unknown = |e: &Type| GoVal::Unknown(e.clone(), Refine::default());
                match (&ty, n) {
                    (Type::List(e), n) => return GoVal::List((**e).clone(), vec![unknown(e); n]),
                    (Type::Set(e), 0) => return GoVal::Set((**e).clone(), vec![]),
                    (Type::Set(e), 1) => return GoVal::Set((**e).clone(), vec![unknown(e)]),
                    (Type::Map(e), 0) => return GoVal::Map((**e).clone(), vec![]),
                    _ => {}
                }
            }
        }
        None => {}
    }
    GoVal::Unknown(ty, r)
}

/// go-cty's `ctystrings.SafeKnownPrefix`, for the prefixes the transcribed tests use (ASCII
/// and emoji, NFC): drop the last character unless it is one of the delimiters go-cty keeps.
fn safe_known_prefix(p: &str) -> String {
    const KEEP: &str = "-_:;/\\,.(){}[]|?!~ \t@#$%^&*+\"'";
    match p.chars().next_back() {
        Some(c) if KEEP.contains(c) => p.to_owned(),
        Some(c) => p[..p.len() - c.len_utf8()].to_owned(),
        None => String::new(),
    }
}
