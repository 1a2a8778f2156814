//! [`Path`]: where a value sits inside a larger one, in Terraform's syntax
//! (`.ingress[2].cidr_blocks[0]`, `.tags["env"]`): the one path type of the workspace.
//!
//! Decode and encode errors carry one ([`Error::path`]), [`Value::at`](crate::Value::at),
//! [`TypedJson::at`](crate::TypedJson::at) and [`lookup`](crate::lookup()) follow one,
//! and tfwire-plan re-exports it for its documents, filters and diffs.
//!
//! # One rule for `.a.b` and `.a["b"]`
//!
//! A [`PathStep::Attr`] (`.name`) is an object attribute, a [`PathStep::Key`] (`["key"]`) a
//! map key: the spellings OpenTofu uses for go-cty's `GetAttrStep` and `IndexStep` with a
//! string key, and what a decoder that knows the type records. Selecting, comparing and
//! hashing treat the two alike: **a name step selects an object's attribute or a map's key
//! of that name, whichever the value has**, and `.tags.env == .tags["env"]`. The value
//! decides, not the spelling, because a person writing a path often cannot tell a map from
//! an object (a `show -json` document cannot either: both are JSON objects), and a value
//! never has both at one place. The variant only decides how the step prints.
//!
//! # Printing and parsing
//!
//! A path prints as its steps from the root: `.name` for an attribute whose name is an
//! identifier (`[A-Za-z_][A-Za-z0-9_-]*`), `["name"]` for any other attribute (as for a map
//! key; OpenTofu would print `.with space`, which does not read back), `[2]` for an element.
//! Names are JSON strings, with the characters that could break a line or a terminal
//! escaped ([`write_safe_str`]). The root prints as `(root)`, its one spelling: a message
//! `path: what went wrong` stays readable when the path is empty.
//!
//! [`Path::parse`] reads what a path prints, and also: the root as the empty string or
//! `.`, and a first attribute without its dot (`tags["env"]`).

use crate::error::{Error, ErrorKind};
use core::fmt;
use core::hash::{Hash, Hasher};
use std::borrow::Cow;
use tfwire_json::write_safe_str;

/// One step of a [`Path`].
///
/// Names borrow where they can (a parsed path's names without escapes borrow from the
/// text; a walk's from the document) and are owned where they must
/// ([`PathStep::into_owned`]: an [`Error`]'s path is `'static`).
#[derive(Clone, Debug)]
pub enum PathStep<'a> {
    /// An object attribute: `.name`.
    Attr(Cow<'a, str>),
    /// A map key: `["key"]`.
    Key(Cow<'a, str>),
    /// A list, set or tuple element, or a block in a list/set nesting: `[2]`.
    Index(u64),
}

impl<'a> PathStep<'a> {
    /// An attribute step.
    pub fn attr(name: impl Into<Cow<'a, str>>) -> PathStep<'a> {
        PathStep::Attr(name.into())
    }

    /// A map key step.
    pub fn key(key: impl Into<Cow<'a, str>>) -> PathStep<'a> {
        PathStep::Key(key.into())
    }

    /// The name or key, for [`PathStep::Attr`] and [`PathStep::Key`].
    pub fn name(&self) -> Option<&str> {
        match self {
            PathStep::Attr(s) | PathStep::Key(s) => Some(s),
            PathStep::Index(_) => None,
        }
    }

    /// The step with owned text.
    pub fn into_owned(self) -> PathStep<'static> {
        match self {
            PathStep::Attr(s) => PathStep::Attr(Cow::Owned(s.into_owned())),
            PathStep::Key(s) => PathStep::Key(Cow::Owned(s.into_owned())),
            PathStep::Index(i) => PathStep::Index(i),
        }
    }
}

/// Attribute and key steps with the same name are equal (see the [module
/// documentation](self)).
impl PartialEq for PathStep<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (PathStep::Index(a), PathStep::Index(b)) => a == b,
            (PathStep::Attr(a) | PathStep::Key(a), PathStep::Attr(b) | PathStep::Key(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for PathStep<'_> {}

/// Hashes as [`PartialEq`] compares: an attribute and a key of one name hash alike.
impl Hash for PathStep<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            PathStep::Attr(s) | PathStep::Key(s) => {
                state.write_u8(0);
                s.hash(state);
            }
            PathStep::Index(i) => {
                state.write_u8(1);
                i.hash(state);
            }
        }
    }
}

impl fmt::Display for PathStep<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathStep::Attr(name) if is_identifier(name) => write!(f, ".{name}"),
            PathStep::Attr(name) | PathStep::Key(name) => {
                f.write_str("[")?;
                write_safe_str(f, name)?;
                f.write_str("]")
            }
            PathStep::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// Whether `s` prints as `.s` in a path: `[A-Za-z_][A-Za-z0-9_-]*`.
pub fn is_identifier(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_')
        && bytes.all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
}

/// A path into a value: attribute, key and index steps from the root (see the [module
/// documentation](self) for the syntax and the rule for attribute and key steps).
///
/// ```
/// use tfwire::{Path, PathStep};
/// let p = Path::parse(".ingress[2].cidr_blocks[0]")?;
/// assert_eq!(p.steps().len(), 4);
/// assert_eq!(p.steps()[1], PathStep::Index(2));
/// assert_eq!(p.to_string(), ".ingress[2].cidr_blocks[0]");
///
/// // The first dot may be left out; a key may be spelled as an attribute.
/// assert_eq!(Path::parse(r#"tags["env"]"#)?, Path::parse(".tags.env")?);
/// assert_eq!(Path::parse(r#".tags["env name"]"#)?.to_string(), r#".tags["env name"]"#);
/// assert_eq!(Path::root().to_string(), "(root)");
///
/// let err = Path::parse(".tags[env]").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"(root): invalid path ".tags[env]": expected a number or a "string" after '[' (at byte 6)"#,
/// );
/// # Ok::<(), tfwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path<'a> {
    steps: Vec<PathStep<'a>>,
}

impl<'a> Path<'a> {
    /// The empty path: the root value.
    pub const fn root() -> Path<'a> {
        Path { steps: Vec::new() }
    }

    /// Parses a path (see the [module documentation](self)); names without escapes borrow
    /// from `text`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidPath`], at the byte offset in `text` where the syntax breaks.
    pub fn parse(text: &'a str) -> Result<Path<'a>, Error> {
        Parser { text, pos: 0 }.path()
    }

    /// The steps from the root.
    pub fn steps(&self) -> &[PathStep<'a>] {
        &self.steps
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.steps.is_empty()
    }

    /// Appends a step.
    pub fn push(&mut self, step: PathStep<'a>) {
        self.steps.push(step);
    }

    /// Removes the last step.
    pub fn pop(&mut self) -> Option<PathStep<'a>> {
        self.steps.pop()
    }

    /// The path with owned text.
    pub fn into_owned(self) -> Path<'static> {
        Path {
            steps: self.steps.into_iter().map(PathStep::into_owned).collect(),
        }
    }
}

impl<'a> From<Vec<PathStep<'a>>> for Path<'a> {
    fn from(steps: Vec<PathStep<'a>>) -> Path<'a> {
        Path { steps }
    }
}

impl<'a> FromIterator<PathStep<'a>> for Path<'a> {
    fn from_iter<I: IntoIterator<Item = PathStep<'a>>>(iter: I) -> Path<'a> {
        Path {
            steps: iter.into_iter().collect(),
        }
    }
}

/// The root displays as `(root)`; other paths as their steps (`.a[0]["k"]`).
impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return f.write_str("(root)");
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

fn starts_identifier(c: Option<u8>) -> bool {
    matches!(c, Some(c) if c.is_ascii_alphabetic() || c == b'_')
}

impl<'a> Parser<'a> {
    #[cold]
    fn err(&self, at: usize, reason: &'static str) -> Error {
        Error::new(
            ErrorKind::InvalidPath {
                text: self.text.to_owned(),
                reason,
            },
            at,
            Path::root(),
        )
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn path(mut self) -> Result<Path<'a>, Error> {
        let mut path = Path::root();
        if self.text == "." || self.text == "(root)" {
            return Ok(path);
        }
        if starts_identifier(self.peek()) {
            path.push(PathStep::Attr(Cow::Borrowed(self.ident())));
        }
        while let Some(c) = self.peek() {
            match c {
                b'.' => {
                    self.pos += 1;
                    if !starts_identifier(self.peek()) {
                        return Err(self.err(
                            self.pos,
                            "expected an attribute name after '.' (use [\"...\"] for other names)",
                        ));
                    }
                    path.push(PathStep::Attr(Cow::Borrowed(self.ident())));
                }
                b'[' => {
                    self.pos += 1;
                    let step = match self.peek() {
                        Some(b'"') => PathStep::Key(self.string()?),
                        Some(b'0'..=b'9') => PathStep::Index(self.number()?),
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
        let start = open + 1;
        let bytes = self.text.as_bytes();
        // Without escapes, the name borrows from the text.
        let Some(rel) = memchr::memchr2(b'"', b'\\', &bytes[start..]) else {
            return Err(self.err(open, "unterminated string"));
        };
        if bytes[start + rel] == b'"' {
            if let Some(c) = bytes[start..start + rel].iter().position(|&b| b < 0x20) {
                return Err(self.err(start + c, "control character in a string"));
            }
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
                    out.push(match e {
                        '"' => '"',
                        '\\' => '\\',
                        '/' => '/',
                        'b' => '\u{8}',
                        'f' => '\u{c}',
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        'u' => self.unicode_escape(&mut chars, esc_at)?,
                        _ => return Err(self.err(esc_at, "invalid escape")),
                    });
                }
                c if (c as u32) < 0x20 => {
                    return Err(self.err(start + i, "control character in a string"));
                }
                c => out.push(c),
            }
        }
        Err(self.err(open, "unterminated string"))
    }

    /// The character of a `\u` escape (and of the low surrogate's escape after a high one).
    fn unicode_escape(
        &self,
        chars: &mut core::str::CharIndices<'_>,
        at: usize,
    ) -> Result<char, Error> {
        let hi = self.hex4(chars, at)?;
        let c = if (0xD800..0xDC00).contains(&hi) {
            let lo = match (chars.next(), chars.next()) {
                (Some((_, '\\')), Some((_, 'u'))) => self.hex4(chars, at)?,
                _ => return Err(self.err(at, "unpaired surrogate")),
            };
            char::decode_utf16([hi, lo]).next().and_then(|r| r.ok())
        } else {
            char::from_u32(u32::from(hi))
        };
        c.ok_or_else(|| self.err(at, "unpaired surrogate"))
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
