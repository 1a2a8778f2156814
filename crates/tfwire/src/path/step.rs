//! The path types: [`Path`] and its [`PathStep`]s.

use core::fmt;
use core::hash::{Hash, Hasher};
use std::borrow::Cow;
use tfwire_json::write_safe_str;

/// One step of a [`Path`].
///
/// Names borrow where they can (a parsed path's names without escapes borrow from the
/// text; a walk's from the document) and are owned where they must
/// ([`PathStep::into_owned`]: an [`Error`](crate::Error)'s path is `'static`).
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
/// documentation](crate::path)).
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
/// documentation](crate::path) for the syntax and the rule for attribute and key steps).
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
