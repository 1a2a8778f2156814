//! Text for terminals: every character of standard output and standard error that a person
//! may read goes through here, so no byte sequence taken from a document can move the
//! cursor, set a window title, plant a hyperlink (OSC 8), fake a line or a table row, or
//! reorder the text around it.
//!
//! One rule, JSON's: the characters of [`tfwire_plan::is_unsafe_char`] (C0 controls, DEL,
//! C1 controls U+0080–U+009F, the bidirectional controls U+061C, U+200E, U+200F,
//! U+202A–U+202E, U+2066–U+2069, and the line and paragraph separators U+2028, U+2029)
//! are written as a JSON string writes them: `\n`, `\r`,
//! `\t`, and `\u` with four lower-case hex digits for the others (`\u001b` for ESC,
//! `\u009b` for the 8-bit CSI, `\u202e` for RIGHT-TO-LEFT OVERRIDE). So an address shows
//! in a table as it shows inside the JSON string of `--format json`, and as Terraform
//! quotes instance keys. Everything else is written as it is.
//!
//! Three entry points:
//! - [`Inline`]: a document's text placed in a line (an address, a reason, a version):
//!   everything escaped, newlines too;
//! - [`quote`]: a string in double quotes (`resource "TYPE" "NAME"`, error messages), a
//!   JSON string literal;
//! - [`terminal`]: the last pass over a whole output text before it is written; it keeps
//!   the line breaks and the colours the CLI itself adds, and escapes anything else that
//!   slipped through (library error messages quote documents with their own escaping,
//!   which leaves C1 and bidirectional controls raw).
//!
//! Markdown (`plan summary --format markdown`, for pull request comments) has its own
//! injection rules, and two more entry points: every string from a document is written as
//! a code span ([`md_code`]) in Markdown, or as an HTML-escaped `<code>` element
//! ([`html_code`]) inside the summary's HTML. Inside code nothing is a link, an
//! autolink (`https://…`, `www.…`), an image, an emphasis, a mention (`@user`), a
//! reference (`#1`) or HTML; the code span's fence is longer than any run of backticks
//! in the text, so the text cannot close it; `|` is written `\|`, so it cannot end a
//! table cell; and the unsafe characters are escaped as for a terminal, so no line break
//! ends a table row or an HTML block.
//!
//! Columns (a summary table's addresses, the `=` of a diff's attributes, a state's flat
//! attributes) are padded here too, by [`Padded`], never by a format width (which Rust
//! limits to 65,535 and which panics above it). A column is at most [`ALIGN_MAX`] (128)
//! wide: a name longer than that is written unpadded and the others align without it, so
//! one long name cannot add its length to every line.

use std::borrow::Cow;
use std::fmt;
use tfwire_plan::is_unsafe_char;

/// A document's text shown inline: every unsafe character escaped (see the module
/// documentation), line breaks included, so the text stays on its line.
pub struct Inline<'a>(pub &'a str);

impl fmt::Display for Inline<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // tfwire's one human escape rule. Padding (`{:<20}`) is not applied: widths are
        // computed on the escaped text.
        tfwire_json::write_safe_inline(f, self.0)
    }
}

/// The widest a column is padded: 128 characters (bytes where OpenTofu measures bytes).
/// Names up to this width align as OpenTofu aligns them; a longer name is written
/// unpadded, and the column is as wide as the longest of the others (see
/// [`column_width`]). It bounds the padding a line can carry, so output stays within a
/// fixed multiple of the input whatever one name's length.
pub const ALIGN_MAX: usize = 128;

/// The width of a column whose entries measure `lens`: the longest that is at most
/// [`ALIGN_MAX`], 0 when there is none.
pub fn column_width(lens: impl IntoIterator<Item = usize>) -> usize {
    lens.into_iter()
        .filter(|&n| n <= ALIGN_MAX)
        .max()
        .unwrap_or(0)
}

/// `n` spaces, written in chunks (no format width, so any `n`).
pub struct Spaces(pub usize);

impl fmt::Display for Spaces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CHUNK: &str = "                                                                ";
        let mut left = self.0;
        while left > 0 {
            let n = left.min(CHUNK.len());
            f.write_str(&CHUNK[..n])?;
            left -= n;
        }
        Ok(())
    }
}

/// A column entry: the text, then spaces up to the column's width. The one padding
/// helper of the CLI (format widths such as `{:width$}` panic above 65,535).
pub struct Padded<'a> {
    text: &'a str,
    fill: usize,
}

impl<'a> Padded<'a> {
    /// `text` padded to `width` columns, the text measuring `len` (its length in the unit
    /// the column counts: characters, or bytes as OpenTofu counts them).
    pub fn new(text: &'a str, len: usize, width: usize) -> Self {
        Padded {
            text,
            fill: width.saturating_sub(len),
        }
    }

    /// `text` padded to `width` characters.
    pub fn chars(text: &'a str, width: usize) -> Self {
        Padded::new(text, text.chars().count(), width)
    }
}

impl fmt::Display for Padded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)?;
        Spaces(self.fill).fmt(f)
    }
}

/// The deepest nesting a human rendering draws: 32 levels (of module steps in a tree
/// summary, of values in `plan show` and `state show`). What lies deeper is not indented
/// again: a tree joins the remaining module steps on one line after a marker
/// (`(N more levels on one line)`), a value is drawn as a marker (`# (nested deeper than
/// 32 levels, not shown)`). Indentation alone would otherwise make output grow with the
/// square of the nesting (a 10,000-step module path of 180 KB drew 200 MB); with it, a
/// line is indented by at most about 140 bytes, and the output is at most about 70 bytes
/// per input byte (one-digit list elements 32 levels deep, two input bytes each).
pub const DEPTH_MAX: usize = 32;

/// [`Inline`] as a string; borrowed when nothing needed escaping.
pub fn inline(s: &str) -> Cow<'_, str> {
    if s.chars().any(is_unsafe_char) {
        Cow::Owned(Inline(s).to_string())
    } else {
        Cow::Borrowed(s)
    }
}

/// `s` in double quotes, as a JSON string literal: `"` and `\` escaped besides the unsafe
/// characters. Used wherever the CLI prints a quoted name (`{:?}` would escape with Rust's
/// `\u{1b}`, a second style).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    // Writing to a String cannot fail.
    let _ = tfwire_json::write_safe_str(&mut out, s);
    out
}

/// The length of the colour sequence (SGR: `ESC [`, digits and `;`, `m`) at the start of
/// `s`, the only escape sequence [`terminal`] lets through, and only when colouring: the
/// CLI writes them itself ([`paint`](crate::paint), the plan renderer's colours); an SGR sequence
/// cannot move the cursor, set a title or start a link. Document text never reaches
/// this pass raw (it is [`Inline`] or [`quote`]d where it is placed).
fn sgr_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\x1b[")?;
    let digits = body
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    (digits <= 16 && body.as_bytes().get(digits) == Some(&b'm')).then_some(2 + digits + 1)
}

/// The two control characters the last pass leaves as they are: the line feed, and the tab,
/// which OpenTofu writes raw inside heredoc strings and which only moves the cursor forward
/// on its line (it cannot hide, overwrite or reorder text). Document text placed in a line
/// ([`Inline`], [`quote`]) has both escaped.
fn kept(c: char) -> bool {
    c == '\n' || c == '\t'
}

/// The last pass over a text for a terminal: every unsafe character but the line feed and the tab
/// escaped; with `color`, the colour sequences (SGR, `ESC [ digits m`) kept. The text's parts
/// that come from a document are already [`Inline`] or [`quote`]d, so this pass changes
/// nothing in them; it catches whatever did not go through those (a library's message).
pub fn terminal(text: &str, color: bool) -> Cow<'_, str> {
    if !text.chars().any(|c| !kept(c) && is_unsafe_char(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some((i, c)) = rest
        .char_indices()
        .find(|&(_, c)| !kept(c) && is_unsafe_char(c))
    {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if color && let Some(n) = sgr_len(rest) {
            out.push_str(&rest[..n]);
            rest = &rest[n..];
            continue;
        }
        // Writing to a String cannot fail.
        let _ = tfwire_json::write_safe_inline(&mut out, c.encode_utf8(&mut [0; 4]));
        rest = &rest[c.len_utf8()..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// A document's text as a Markdown code span, safe in a table cell: unsafe characters
/// escaped as for a terminal ([`Inline`]), `|` written `\|` (GFM unescapes it in a cell,
/// even inside code), a fence of one backtick more than the longest run in the text, and
/// a space inside the fence when the text begins or ends with a backtick or a space (the
/// one CommonMark strips).
pub fn md_code(s: &str) -> String {
    let text = inline(s).replace('|', "\\|");
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.is_empty() || text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A document's text inside the summary's raw HTML (`<summary>`): a `<code>` element (in
/// which GitHub makes no mention or reference), the text escaped as for a terminal, then
/// `&`, `<`, `>` and `"` as entities.
pub fn html_code(s: &str) -> String {
    format!("<code>{}</code>", html(&inline(s)))
}

/// Whether `s` is written bare as a name (an attribute or a map key in a diff or a tree),
/// rather than quoted: an HCL identifier, as OpenTofu's and Terraform's renderers decide with
/// `hclsyntax.ValidIdentifier`. HCL's scanner reads `(ID_Start | '_') (ID_Continue | '-')*`
/// with tables generated from Unicode 9.0.0, so a letter added to Unicode later (Georgian
/// Mtavruli `Ა`, U+1C90, from Unicode 11) keeps a name quoted, and so do the zero-width
/// joiner and non-joiner (identifier characters only since Unicode 15.1). The tables
/// are tfwire-json's, generated from HCL itself by `e2e/unicodetables/gen.sh`. No
/// unsafe character (see the module documentation) is ever part of an identifier.
///
/// ```
/// use tfwire_render::escape::is_identifier;
/// assert!(is_identifier("aws_instance"));
/// assert!(is_identifier("a-b"));
/// assert!(is_identifier("名前"));
/// assert!(!is_identifier("kubernetes.io/role"));
/// assert!(!is_identifier("\u{1C90}"));
/// ```
pub fn is_identifier(s: &str) -> bool {
    tfwire_json::escape::is_hcl_identifier(s)
}

/// The CLI's own text in HTML: `&`, `<`, `>` and `"` as entities.
pub fn html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one identifier rule of the CLI (diffs, trees): HCL's.
    #[test]
    fn names_are_bare_when_hcl_identifiers() {
        for (name, bare) in [
            ("id", true),
            ("_", true),
            ("_1", true),
            ("a-b", true),
            ("a_b-9", true),
            ("aws_instance", true),
            ("Ünïcødé", true),
            ("名前", true),
            // A combining accent continues an identifier (ID_Continue, not alphabetic).
            ("e\u{301}", true),
            // MIDDLE DOT is Other_ID_Continue.
            ("a\u{B7}b", true),
            // ID_Start but not XID_Start (GREEK YPOGEGRAMMENI): HCL takes it.
            ("\u{37A}", true),
            ("x\u{FF9E}", true),
            // Letters of Unicode versions after HCL's 9.0.0: Georgian Mtavruli (11.0),
            // Latin capital old Polish O (14.0), an ideograph of CJK extension G (13.0).
            ("\u{1C90}", false),
            ("a\u{1C90}", false),
            ("\u{A7C0}", false),
            ("\u{30000}", false),
            // Unicode 9.0's own: Adlam (9.0), a CJK extension E ideograph (8.0).
            ("\u{1E900}", true),
            ("\u{2B820}", true),
            ("", false),
            ("-a", false),
            ("1a", false),
            ("a.b", false),
            ("a b", false),
            ("a/b", false),
            ("a:b", false),
            ("a\"b", false),
            ("kubernetes.io/role", false),
            // SUPERSCRIPT TWO is numeric, not ID_Continue.
            ("a\u{B2}", false),
            // A combining mark cannot start one.
            ("\u{301}e", false),
            ("\u{345}a", false),
            // VERTICAL TILDE is a modifier letter but Pattern_Syntax.
            ("\u{2E2F}", false),
            ("a\u{200D}b", false),
            ("a\u{200C}b", false),
            ("a\u{1b}b", false),
            ("a\u{7f}", false),
            ("a\u{9b}", false),
            ("a\u{202e}b", false),
            ("a\u{2066}", false),
            ("a\u{2028}", false),
            ("a\u{200f}", false),
        ] {
            assert_eq!(is_identifier(name), bare, "{name:?}");
        }
    }

    #[test]
    fn one_style() {
        let hostile = "a\u{1b}]0;PWNED\u{7}b\r\n\t\u{7f}\u{9b}2J\u{202e}\u{2066}\u{61c}\u{200f}é";
        let want = "a\\u001b]0;PWNED\\u0007b\\r\\n\\t\\u007f\\u009b2J\\u202e\\u2066\\u061c\\u200fé";
        assert_eq!(inline(hostile), want);
        assert_eq!(Inline(hostile).to_string(), want);
        assert_eq!(quote(hostile), format!("\"{want}\""));
        assert_eq!(quote("a\"b\\"), r#""a\"b\\""#);
        assert!(matches!(
            inline("aws_instance.web[\"é\"]"),
            Cow::Borrowed(_)
        ));
        // The last pass keeps line feeds and tabs, and colours only when colouring.
        assert_eq!(
            terminal(hostile, false),
            want.replace("\\n", "\n").replace("\\t", "\t")
        );
        let painted = "\x1b[32m+\x1b[0m x = \x1b[2J\n";
        assert_eq!(terminal(painted, true), "\x1b[32m+\x1b[0m x = \\u001b[2J\n");
        assert_eq!(
            terminal(painted, false),
            "\\u001b[32m+\\u001b[0m x = \\u001b[2J\n"
        );
        // Every character of the unsafe classes, and nothing printable, is escaped.
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let shown = terminal(&c.to_string(), false).into_owned();
            let raw = shown == c.to_string();
            let unsafe_class = (c as u32) < 0x20 && c != '\n' && c != '\t'
                || (0x7f..=0x9f).contains(&(c as u32))
                || matches!(
                    c as u32,
                    0x61c | 0x200e | 0x200f | 0x2028 | 0x2029 | 0x202a..=0x202e | 0x2066..=0x2069
                );
            assert_eq!(raw, !unsafe_class, "{:x}", c as u32);
        }
    }

    /// Padding takes any width (a format width panics above 65,535), and a column
    /// ignores entries wider than [`ALIGN_MAX`].
    #[test]
    fn padding() {
        assert_eq!(Padded::chars("ab", 4).to_string(), "ab  ");
        assert_eq!(Padded::chars("abcd", 2).to_string(), "abcd");
        assert_eq!(Padded::chars("é", 2).to_string(), "é ");
        assert_eq!(Padded::new("é", 2, 3).to_string(), "é ");
        let wide = Padded::chars("", 100_000).to_string();
        assert_eq!(wide.len(), 100_000);
        assert!(wide.bytes().all(|b| b == b' '));
        assert_eq!(Spaces(0).to_string(), "");
        assert_eq!(Spaces(65).to_string(), " ".repeat(65));
        assert_eq!(column_width([3, 7, 5]), 7);
        assert_eq!(column_width([3, ALIGN_MAX, 5]), ALIGN_MAX);
        assert_eq!(column_width([3, ALIGN_MAX + 1, 70_000]), 3);
        assert_eq!(column_width([]), 0);
    }

    #[test]
    fn markdown() {
        assert_eq!(md_code("aws_instance.web"), "`aws_instance.web`");
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("`a``"), "``` `a`` ```");
        assert_eq!(md_code("a|b\\|c"), "`a\\|b\\\\|c`");
        assert_eq!(md_code("x\n| y"), "`x\\n\\| y`");
        assert_eq!(md_code(""), "`  `");
        assert_eq!(
            html_code("</summary><h1>\"&"),
            "<code>&lt;/summary&gt;&lt;h1&gt;&quot;&amp;</code>"
        );
    }
}
