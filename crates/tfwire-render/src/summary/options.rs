//! [`Options`] of the summary formats, and the [`Error`] of the Markdown budget.

use core::fmt;

/// How the summary formats write: colour (table, tree), and the Markdown's byte budget and
/// filter words. The default: no colour, no budget, no filter words.
///
/// ```
/// let mut options = tfwire_render::summary::Options::default();
/// options.max_bytes = Some(65536);
/// assert!(!options.color);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Colour the actions of the table and the tree with ANSI escapes.
    pub color: bool,
    /// Markdown: shrink the summary to at most this many bytes (GitHub comments stop at
    /// 65536 characters): first collapse the details, then list destructive changes by
    /// address and as many of the others as fit, then group the changes by resource type
    /// and leave out groups (saying how many). The headline and the counts are always kept.
    pub max_bytes: Option<usize>,
    /// Markdown: the filters that narrowed the summary, in the words of whoever applied
    /// them (the CLI writes its flags, `--action delete --module module.net`), for the line
    /// `_Filtered with …: N of M resource changes._` that a
    /// [filtered](tfwire_plan::Summary::filtered) summary gets.
    pub filters: String,
}

/// Why [`write_markdown`](super::write_markdown) wrote nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// [`Options::max_bytes`] (`max`) is too small for even the headline and the counts,
    /// which take `need` bytes.
    Budget {
        /// The budget given.
        max: usize,
        /// The bytes of the smallest summary (the headline and the counts).
        need: usize,
    },
    /// The output refused the text ([`fmt::Error`]).
    Write,
}

impl From<fmt::Error> for Error {
    fn from(_: fmt::Error) -> Error {
        Error::Write
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Budget { max, need } => write!(
                f,
                "a budget of {max} bytes is too small: even the totals of this plan take {need} bytes"
            ),
            Error::Write => f.write_str("the output refused the text"),
        }
    }
}

impl std::error::Error for Error {}
