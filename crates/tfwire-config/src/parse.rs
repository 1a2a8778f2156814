//! Reading a file with hcl-edit's parser, number literals beyond binary64's range included.
//!
//! hcl-edit reads a number literal as an `f64` and refuses one that does not fit (`1e400`,
//! a 400-digit integer): the parse fails at or after the literal. HCL reads literals as
//! 512-bit binary floats, so the real clients accept them and write their exact value. When a
//! parse fails and the text holds number tokens that read as infinite `f64`s, each such
//! token is replaced by a run of `0`s of the same length (a literal hcl-edit accepts; every
//! byte offset, line and column stays that of the original text) and the text parsed again.
//! A replaced token must come back as a number literal of the tree at exactly its byte range
//! (a `-` and blanks may precede it: hcl-edit reads `-1e400` as one literal); a token that
//! does not (it was in a string, a heredoc, a comment or an identifier) is restored and the
//! text parsed once more, at most [`MAX_PARSES`] parses in all. Each literal that was
//! replaced carries its original text in its decor prefix, after [`MARK`]; the parser
//! never writes a prefix that starts with it (a prefix it reads is blanks and comments), so
//! nothing a user wrote can pass for a replaced literal. [`literal_text`] gives a number
//! literal's text as written, whichever way it was read.

use crate::error::Error;
use core::ops::Range;
use hcl_edit::structure::Body;
use hcl_edit::visit_mut::VisitMut;
use hcl_edit::{Decorate, Formatted, Number, Span};

/// The first character of the decor prefix of a literal whose token was replaced: a NUL,
/// which a prefix the parser reads (blanks, then comments) never starts with.
const MARK: char = '\0';

/// The most parses of one file: the text as written, with every candidate replaced, with
/// only those that turned out to be literals replaced.
const MAX_PARSES: usize = 3;

/// Parses `text` (the file `file`) into a body, reading number literals beyond binary64's
/// range as HCL does.
///
/// # Errors
///
/// [`crate::ErrorKind::Syntax`] at the line, column and byte offset of the original text.
pub(crate) fn parse_body(file: &str, text: &str) -> Result<Body, Error> {
    let first = match hcl_edit::parser::parse_body(text) {
        Ok(body) => return Ok(body),
        Err(e) => e,
    };
    let mut replaced = huge_number_tokens(text);
    for _ in 1..MAX_PARSES {
        if replaced.is_empty() {
            break;
        }
        let mut body = hcl_edit::parser::parse_body(&replace(text, &replaced))
            .map_err(|e| Error::syntax(file, &e))?;
        let mut restore = Restore {
            text,
            replaced: &replaced,
            found: vec![false; replaced.len()],
        };
        restore.visit_body_mut(&mut body);
        if restore.found.iter().all(|&f| f) {
            return Ok(body);
        }
        let found = restore.found;
        replaced = replaced
            .into_iter()
            .zip(found)
            .filter_map(|(r, f)| f.then_some(r))
            .collect();
    }
    Err(Error::syntax(file, &first))
}

/// The text a number literal was written as (a leading `-` included), whether its token was
/// replaced or not; `None` for a literal built by code rather than read.
pub(crate) fn literal_text(n: &Formatted<Number>) -> Option<&str> {
    if let Some(original) = n.decor().prefix().and_then(|p| p.strip_prefix(MARK)) {
        return Some(original);
    }
    n.as_repr().map(|r| &**r)
}

/// The byte ranges of the tokens of `text` that read as number literals (`digits`, then
/// `.digits`, then an exponent) and as infinite `f64`s, in order. Digits within a word
/// (`a1e400`, `x-1e400`) start no token. Strings, heredocs and comments are not told apart:
/// a token found in one is dropped when the parse shows it is no literal.
fn huge_number_tokens(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let digits = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            let start = i;
            i = digits(i);
            if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                i = digits(i + 1);
            }
            if matches!(b.get(i), Some(b'e' | b'E')) {
                let mut j = i + 1;
                if matches!(b.get(j), Some(b'+' | b'-')) {
                    j += 1;
                }
                if b.get(j).is_some_and(u8::is_ascii_digit) {
                    i = digits(j);
                }
            }
            if text[start..i].parse::<f64>().is_ok_and(|f| f.is_infinite()) {
                out.push(start..i);
            }
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while b
                .get(i)
                .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c >= 0x80)
            {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// `text` with each range of `replaced` (ordered, disjoint) written as `0`s.
fn replace(text: &str, replaced: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in replaced {
        out.push_str(&text[at..r.start]);
        out.extend(core::iter::repeat_n('0', r.len()));
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Marks each literal whose token was replaced with its original text.
struct Restore<'a> {
    text: &'a str,
    replaced: &'a [Range<usize>],
    found: Vec<bool>,
}

impl VisitMut for Restore<'_> {
    fn visit_number_mut(&mut self, node: &mut Formatted<Number>) {
        let Some(span) = node.span() else {
            return;
        };
        let Ok(k) = self.replaced.binary_search_by_key(&span.end, |r| r.end) else {
            return;
        };
        let token = &self.replaced[k];
        // The literal is the token, or `-` and blanks before it.
        let sign = self.text.get(span.start..token.start).filter(|s| {
            s.is_empty()
                || s.strip_prefix('-')
                    .is_some_and(|rest| rest.bytes().all(|c| c == b' ' || c == b'\t'))
        });
        if sign.is_none() {
            return;
        }
        self.found[k] = true;
        let mut mark = String::with_capacity(1 + span.len());
        mark.push(MARK);
        mark.push_str(&self.text[span]);
        node.decor_mut().set_prefix(mark);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hcl_edit::expr::Expression;

    /// The text of each number literal of `text`, in order of the attributes.
    fn literals(text: &str) -> Vec<String> {
        struct Collect(Vec<String>);
        impl hcl_edit::visit::Visit for Collect {
            fn visit_number(&mut self, n: &Formatted<Number>) {
                self.0.push(literal_text(n).unwrap().to_owned());
            }
        }
        let body = parse_body("t.tf", text).unwrap();
        let mut c = Collect(Vec::new());
        hcl_edit::visit::Visit::visit_body(&mut c, &body);
        c.0
    }

    #[test]
    fn literals_beyond_binary64_keep_their_text() {
        assert_eq!(literals("a = 1e400\n"), ["1e400"]);
        assert_eq!(literals("a = -1e400\n"), ["-1e400"]);
        assert_eq!(literals("a = - 1.5E+400\n"), ["- 1.5E+400"]);
        assert_eq!(literals("a = 1e-400\n"), ["1e-400"]);
        let big = format!("1{}", "0".repeat(399));
        assert_eq!(literals(&format!("a = {big}\n")), [big]);
        assert_eq!(
            literals("a = [1e400, 2, \"${3e400}\"]\nb {\n  c = 1 + 4e999\n}\n"),
            ["1e400", "2", "3e400", "1", "4e999"]
        );
    }

    #[test]
    fn tokens_in_strings_heredocs_comments_and_names_are_left_alone() {
        let text = "# 1e400\n/* 2e400 */\na = \"3e400\" // 4e400\nb = <<EOT\n5e400\nEOT\nc = x-6e400\nd = 7e400\n";
        let body = parse_body("t.tf", text).unwrap();
        let attr = |name: &str| body.get_attribute(name).unwrap().value.clone();
        match attr("a") {
            Expression::String(s) => assert_eq!(s.value().as_str(), "3e400"),
            e => panic!("{e:?}"),
        }
        match attr("b") {
            Expression::HeredocTemplate(h) => {
                assert_eq!(h.template.to_string(), "5e400\n");
            }
            e => panic!("{e:?}"),
        }
        match attr("c") {
            Expression::Variable(v) => assert_eq!(v.as_str(), "x-6e400"),
            e => panic!("{e:?}"),
        }
        assert_eq!(literals(text), ["7e400"]);
    }

    #[test]
    fn a_user_literal_of_zeros_is_not_a_replaced_one() {
        assert_eq!(literals("a = 00000\nb = 1e400\n"), ["00000", "1e400"]);
    }

    #[test]
    fn errors_point_into_the_original_text() {
        // After replaced literals, an error's line, column and offset are those of the
        // text as written (the same as for literals of the same length that fit).
        let e = parse_body("t.tf", "a = 1e400\nb = 2e400 +\n").unwrap_err();
        let plain = hcl_edit::parser::parse_body("a = 00000\nb = 00000 +\n").unwrap_err();
        let at = e.location().unwrap();
        assert_eq!(at.line, 2);
        assert_eq!(
            (at.line, at.column, at.offset),
            (
                plain.location().line(),
                plain.location().column(),
                plain.location().offset()
            )
        );
        // Without a literal beyond binary64, the first parse's error.
        let e = parse_body("t.tf", "a = \"1e400\"\nb = }\n").unwrap_err();
        assert_eq!(e.location().unwrap().line, 2);
        // A token in a comment of a file with an error elsewhere: that error.
        let e = parse_body("t.tf", "# 1e400\na = 1 +\n").unwrap_err();
        let plain = hcl_edit::parser::parse_body("# 1e400\na = 1 +\n").unwrap_err();
        assert_eq!(e.location().unwrap().offset, plain.location().offset());
    }

    #[test]
    fn thousands_of_huge_literals_take_linear_time() {
        let mut text = String::from("a = [");
        for _ in 0..20_000 {
            text.push_str("1e400, ");
        }
        text.push_str("]\n");
        let start = std::time::Instant::now();
        assert_eq!(literals(&text).len(), 20_000);
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }
}
