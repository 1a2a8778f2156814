//! [`Path`]: a path into a value, in Terraform's syntax (`.ingress[2].cidr_blocks[0]`,
//! `.tags["env"]`).

use crate::error::{Error, ErrorKind, is_identifier};
use crate::json::{Json, write_json_str};
use core::fmt;
use std::borrow::Cow;

/// One step of a [`Path`].
#[derive(Clone, Debug, Eq, Hash)]
pub enum Step<'a> {
    /// An attribute: `.name`.
    Attr(Cow<'a, str>),
    /// A map key: `["key"]`.
    Key(Cow<'a, str>),
    /// A list, set or tuple element: `[2]`.
    Index(u64),
}

impl Step<'_> {
    /// The name or key, for [`Step::Attr`] and [`Step::Key`].
    pub fn name(&self) -> Option<&str> {
        match self {
            Step::Attr(s) | Step::Key(s) => Some(s),
            Step::Index(_) => None,
        }
    }

    /// The step with owned text.
    pub fn into_owned(self) -> Step<'static> {
        match self {
            Step::Attr(s) => Step::Attr(Cow::Owned(s.into_owned())),
            Step::Key(s) => Step::Key(Cow::Owned(s.into_owned())),
            Step::Index(i) => Step::Index(i),
        }
    }

    /// Selects this step's member or element of a JSON value (attributes and keys are
    /// both object members; an index is an array element).
    pub fn select<'j>(&self, v: Json<'j>) -> Option<Json<'j>> {
        match self {
            Step::Attr(s) | Step::Key(s) => v.get(s),
            Step::Index(i) => v.index(usize::try_from(*i).ok()?),
        }
    }
}

/// Attribute and key steps with the same text are equal: JSON does not tell a map from
/// an object, so `.tags.env` and `.tags["env"]` name the same value.
impl PartialEq for Step<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Step::Index(a), Step::Index(b)) => a == b,
            (Step::Attr(a) | Step::Key(a), Step::Attr(b) | Step::Key(b)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Display for Step<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Attr(s) if is_identifier(s) => write!(f, ".{s}"),
            Step::Attr(s) | Step::Key(s) => {
                f.write_str("[")?;
                write_json_str(f, s)?;
                f.write_str("]")
            }
            Step::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path into a value: attribute, key and index steps from the root.
///
/// The syntax is Terraform's: `.name` for an attribute (the first dot may be left out),
/// `["key"]` for a map key (a JSON string: `\"`, `\\` and the other JSON escapes work),
/// `[2]` for an element. The empty path (`""` or `"."`) is the root.
///
/// ```
/// use tfwire_plan::{Path, Step};
/// let p = Path::parse(r#".ingress[2].cidr_blocks[0]"#)?;
/// assert_eq!(p.steps().len(), 4);
/// assert_eq!(p.steps()[1], Step::Index(2));
/// assert_eq!(p.to_string(), ".ingress[2].cidr_blocks[0]");
///
/// let p = Path::parse(r#"tags["env name"]"#)?;
/// assert_eq!(p.to_string(), r#".tags["env name"]"#);
///
/// let err = Path::parse(".tags[env]").unwrap_err();
/// assert_eq!(err.to_string(), r#"invalid path ".tags[env]" at character 6: expected a number or a "string" after '['"#);
/// # Ok::<(), tfwire_plan::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path<'a> {
    steps: Vec<Step<'a>>,
}

impl<'a> Path<'a> {
    /// The empty path: the root value.
    pub fn root() -> Path<'a> {
        Path { steps: Vec::new() }
    }

    /// Parses Terraform path syntax; names without escapes borrow from `text`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidPath`], naming the character where the syntax breaks.
    pub fn parse(text: &'a str) -> Result<Path<'a>, Error> {
        Parser { text, pos: 0 }.path()
    }

    /// The steps from the root.
    pub fn steps(&self) -> &[Step<'a>] {
        &self.steps
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.steps.is_empty()
    }

    /// Appends a step.
    pub fn push(&mut self, step: Step<'a>) {
        self.steps.push(step);
    }

    /// Removes the last step.
    pub fn pop(&mut self) -> Option<Step<'a>> {
        self.steps.pop()
    }

    /// The path with owned text.
    pub fn into_owned(self) -> Path<'static> {
        Path {
            steps: self.steps.into_iter().map(Step::into_owned).collect(),
        }
    }

    /// Selects the value at this path inside `v`, if every step exists.
    pub fn select<'j>(&self, v: Json<'j>) -> Option<Json<'j>> {
        self.steps.iter().try_fold(v, |v, s| s.select(v))
    }
}

impl<'a> FromIterator<Step<'a>> for Path<'a> {
    fn from_iter<I: IntoIterator<Item = Step<'a>>>(iter: I) -> Path<'a> {
        Path {
            steps: iter.into_iter().collect(),
        }
    }
}

/// The root displays as `.`; other paths as their steps (`.a[0]["k"]`).
impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return f.write_str(".");
        }
        for s in &self.steps {
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    #[cold]
    fn err(&self, at: usize, msg: &str) -> Error {
        let chars = self.text[..at.min(self.text.len())].chars().count();
        Error::new(ErrorKind::InvalidPath(format!(
            "invalid path {} at character {chars}: {msg}",
            crate::json::Quoted(self.text)
        )))
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn path(mut self) -> Result<Path<'a>, Error> {
        let mut path = Path::root();
        if self.text == "." {
            return Ok(path);
        }
        if matches!(self.peek(), Some(c) if c.is_ascii_alphabetic() || c == b'_') {
            path.push(Step::Attr(Cow::Borrowed(self.ident())));
        }
        while let Some(c) = self.peek() {
            match c {
                b'.' => {
                    self.pos += 1;
                    if !matches!(self.peek(), Some(c) if c.is_ascii_alphabetic() || c == b'_') {
                        return Err(self.err(
                            self.pos,
                            "expected an attribute name after '.' (use [\"...\"] for other names)",
                        ));
                    }
                    path.push(Step::Attr(Cow::Borrowed(self.ident())));
                }
                b'[' => {
                    self.pos += 1;
                    let step = match self.peek() {
                        Some(b'"') => Step::Key(self.string()?),
                        Some(b'0'..=b'9') => Step::Index(self.number()?),
                        _ => {
                            return Err(
                                self.err(self.pos, "expected a number or a \"string\" after '['")
                            );
                        }
                    };
                    if self.peek() != Some(b']') {
                        return Err(self.err(self.pos, "expected ']'"));
                    }
                    self.pos += 1;
                    path.push(step);
                }
                _ => return Err(self.err(self.pos, "expected '.' or '['")),
            }
        }
        Ok(path)
    }

    fn ident(&mut self) -> &'a str {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    fn number(&mut self) -> Result<u64, Error> {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.text[start..self.pos]
            .parse()
            .map_err(|_| self.err(start, "index out of range"))
    }

    /// A JSON string starting at the opening quote.
    fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        let open = self.pos;
        self.pos += 1;
        let start = self.pos;
        let bytes = self.text.as_bytes();
        // Fast path: no escapes.
        let Some(rel) = memchr::memchr2(b'"', b'\\', &bytes[start..]) else {
            return Err(self.err(open, "unterminated string"));
        };
        if bytes[start + rel] == b'"' {
            self.pos = start + rel + 1;
            return Ok(Cow::Borrowed(&self.text[start..start + rel]));
        }
        let mut out = String::new();
        let mut chars = self.text[start..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos = start + i + 1;
                    return Ok(Cow::Owned(out));
                }
                '\\' => {
                    let esc_at = start + i;
                    let Some((_, e)) = chars.next() else { break };
                    match e {
                        '"' => out.push('"'),
                        '\\' => out.push('\\'),
                        '/' => out.push('/'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        'u' => {
                            let hi = self.hex4(&mut chars, esc_at)?;
                            let c = if (0xD800..0xDC00).contains(&hi) {
                                let lo = match (chars.next(), chars.next()) {
                                    (Some((_, '\\')), Some((_, 'u'))) => {
                                        self.hex4(&mut chars, esc_at)?
                                    }
                                    _ => return Err(self.err(esc_at, "unpaired surrogate")),
                                };
                                char::decode_utf16([hi, lo]).next().and_then(|r| r.ok())
                            } else {
                                char::from_u32(u32::from(hi))
                            };
                            out.push(c.ok_or_else(|| self.err(esc_at, "unpaired surrogate"))?);
                        }
                        _ => return Err(self.err(esc_at, "invalid escape")),
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.err(open, "unterminated string"))
    }

    fn hex4(&self, chars: &mut core::str::CharIndices<'_>, at: usize) -> Result<u16, Error> {
        let mut n = 0u16;
        for _ in 0..4 {
            let d = chars
                .next()
                .and_then(|(_, c)| c.to_digit(16))
                .ok_or_else(|| self.err(at, "expected four hex digits after \\u"))?;
            n = n * 16 + d as u16;
        }
        Ok(n)
    }
}
