//! A Rust tokenizer just precise enough to read paths: it skips comments (keeping their text),
//! string, byte-string, raw-string and character literals and lifetimes, and yields
//! identifiers, `::` and single punctuation characters with their line numbers.

/// What a [`Token`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or keyword (`r#type` yields `type`).
    Ident,
    /// `::`.
    PathSep,
    /// A number literal, its text kept.
    Number,
    /// Any other character (`{`, `;`, `#`, `$`, ...).
    Punct,
}

/// One token of a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: Kind,
    /// Its text (one character for [`Kind::Punct`]).
    pub text: &'a str,
    /// Its line, from 1.
    pub line: usize,
}

impl Token<'_> {
    /// Whether this is the punctuation character `c`.
    pub fn is(&self, c: &str) -> bool {
        self.kind != Kind::Number && self.text == c
    }
}

/// A comment: its first line and its text, markers included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment<'a> {
    /// The line it starts on, from 1.
    pub line: usize,
    /// Its text, `//` or `/*` included.
    pub text: &'a str,
}

/// The tokens and comments of a source file.
#[derive(Debug, Default)]
pub struct Lexed<'a> {
    /// The tokens, in order.
    pub tokens: Vec<Token<'a>>,
    /// The comments, in order.
    pub comments: Vec<Comment<'a>>,
}

/// Splits `src` into tokens and comments.
pub fn lex(src: &str) -> Lexed<'_> {
    let b = src.as_bytes();
    let mut out = Lexed::default();
    let mut i = 0;
    let mut line = 1;
    let ident_start = |c: u8| c == b'_' || c.is_ascii_alphabetic() || c >= 0x80;
    let ident_char = |c: u8| c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied().unwrap_or(0);
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && next == b'/' {
            let end = src[i..].find('\n').map_or(b.len(), |n| i + n);
            out.comments.push(Comment {
                line,
                text: &src[i..end],
            });
            i = end;
        } else if c == b'/' && next == b'*' {
            let (start, first) = (i, line);
            let mut depth = 0usize;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(b[i] == b'\n');
                    i += 1;
                }
            }
            out.comments.push(Comment {
                line: first,
                text: &src[start..i],
            });
        } else if let Some(end) = raw_string(b, i) {
            line += b[i..end].iter().filter(|&&c| c == b'\n').count();
            i = end;
        } else if c == b'"' || ((c == b'b' || c == b'c') && next == b'"') {
            i += if c == b'"' { 1 } else { 2 };
            while i < b.len() && b[i] != b'"' {
                line += usize::from(b[i] == b'\n');
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == b'\'' || (c == b'b' && next == b'\'') {
            let q = if c == b'\'' { i } else { i + 1 };
            if b.get(q + 1) == Some(&b'\\') {
                // An escaped character literal.
                let mut j = q + 3;
                while j < b.len() && b[j] != b'\'' {
                    j += 1;
                }
                i = j + 1;
            } else {
                let width = src[q + 1..].chars().next().map_or(1, char::len_utf8);
                if b.get(q + 1 + width) == Some(&b'\'') {
                    i = q + 2 + width;
                } else {
                    // A lifetime or a label.
                    i = q + 1;
                    while i < b.len() && ident_char(b[i]) {
                        i += 1;
                    }
                }
            }
        } else if c == b'r' && next == b'#' && b.get(i + 2).is_some_and(|&c| ident_start(c)) {
            let start = i + 2;
            i = start;
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            out.tokens.push(Token {
                kind: Kind::Ident,
                text: &src[start..i],
                line,
            });
        } else if ident_start(c) || c.is_ascii_digit() {
            let start = i;
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            let kind = if ident_start(c) {
                Kind::Ident
            } else {
                Kind::Number
            };
            out.tokens.push(Token {
                kind,
                text: &src[start..i],
                line,
            });
        } else if c == b':' && next == b':' {
            out.tokens.push(Token {
                kind: Kind::PathSep,
                text: "::",
                line,
            });
            i += 2;
        } else {
            let width = src[i..].chars().next().map_or(1, char::len_utf8);
            out.tokens.push(Token {
                kind: Kind::Punct,
                text: &src[i..i + width],
                line,
            });
            i += width;
        }
    }
    out
}

/// The end of the raw string literal (`r"…"`, `r#"…"#`, `br…`, `cr…`) starting at `i`, if one
/// starts there.
fn raw_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(b[j], b'b' | b'c') {
        j += 1;
    }
    if b.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
    j += hashes;
    if b.get(j) != Some(&b'"') {
        return None;
    }
    j += 1;
    while j < b.len() {
        if b[j] == b'"'
            && b[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == b'#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(b.len())
}

/// The tokens of a file split into those outside `#[cfg(test)]` items and those inside.
#[derive(Debug, Default)]
pub struct Split<'a> {
    /// The tokens outside `#[cfg(test)]` items.
    pub code: Vec<Token<'a>>,
    /// The tokens of `#[cfg(test)]` items, attributes included.
    pub test: Vec<Token<'a>>,
    /// The line ranges (first, last, inclusive) of the `#[cfg(test)]` items.
    pub test_lines: Vec<(usize, usize)>,
}

/// Splits `tokens` into code and `#[cfg(test)]` items (`#[cfg(test)]` or `#[cfg(all(test,
/// …))]` on an item, a statement, a field or an arm; `#![cfg(test)]` makes the whole file test
/// code).
pub fn split_tests<'a>(tokens: &[Token<'a>]) -> Split<'a> {
    let mut out = Split::default();
    if tokens.len() > 2
        && tokens[0].is("#")
        && tokens[1].is("!")
        && test_attribute(tokens, 1).is_some()
    {
        out.test = tokens.to_vec();
        out.test_lines
            .push((1, tokens.last().map_or(1, |t| t.line)));
        return out;
    }
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].is("#")
            && let Some(mut j) = test_attribute(tokens, i)
        {
            while j < tokens.len()
                && tokens[j].is("#")
                && tokens.get(j + 1).is_some_and(|t| t.is("["))
            {
                j = close(tokens, j + 1) + 1;
            }
            let end = item_end(tokens, j);
            out.test.extend_from_slice(&tokens[i..end]);
            let last = tokens[..end].last().map_or(tokens[i].line, |t| t.line);
            out.test_lines.push((tokens[i].line, last));
            i = end;
            continue;
        }
        out.code.push(tokens[i]);
        i += 1;
    }
    out
}

/// If a `#[cfg(test)]` attribute (or `#[cfg(all(test, …))]`) starts at `i` (at `#`, or at
/// `!` for an inner attribute), the index just after it.
fn test_attribute(t: &[Token<'_>], i: usize) -> Option<usize> {
    let open = if t.get(i + 1).is_some_and(|t| t.is("[")) {
        i + 1
    } else {
        return None;
    };
    if !(t.get(open + 1).is_some_and(|t| t.is("cfg")) && t.get(open + 2).is_some_and(|t| t.is("(")))
    {
        return None;
    }
    let end = close(t, open + 2);
    let pred = &t[open + 3..end];
    let test = match pred {
        [one] => one.is("test"),
        [all, paren, rest @ ..] if all.is("all") && paren.is("(") => {
            let mut depth = 0;
            rest.iter().any(|tok| {
                if tok.is("(") {
                    depth += 1;
                } else if tok.is(")") {
                    depth -= 1;
                }
                depth == 0 && tok.is("test")
            })
        }
        _ => false,
    };
    let attr_end = close(t, open);
    test.then_some(attr_end + 1)
}

/// The index of the bracket closing the one opened at `open`.
pub fn close(t: &[Token<'_>], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, tok) in t.iter().enumerate().skip(open) {
        if tok.is("(") || tok.is("[") || tok.is("{") {
            depth += 1;
        } else if tok.is(")") || tok.is("]") || tok.is("}") {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    t.len().saturating_sub(1)
}

/// The index just past the item, statement, field or arm starting at `start`.
fn item_end(t: &[Token<'_>], start: usize) -> usize {
    #[derive(PartialEq)]
    enum Shape {
        Braced,
        Semi,
        Other,
    }
    let mut shape = Shape::Other;
    let mut k = start;
    while k < t.len() {
        match t[k].text {
            "pub" => {
                k += 1;
                if t.get(k).is_some_and(|t| t.is("(")) {
                    k = close(t, k) + 1;
                }
            }
            "unsafe" | "async" | "extern" | "default" => k += 1,
            "const"
                if t.get(k + 1)
                    .is_some_and(|t| matches!(t.text, "fn" | "unsafe" | "async")) =>
            {
                k += 1
            }
            "fn" | "mod" | "impl" | "struct" | "enum" | "trait" | "union" | "macro_rules" => {
                shape = Shape::Braced;
                break;
            }
            "let" | "const" | "static" | "use" | "type" => {
                shape = Shape::Semi;
                break;
            }
            _ => break,
        }
    }
    let mut depth = 0usize;
    for (j, tok) in t.iter().enumerate().skip(start) {
        if tok.kind != Kind::Punct {
            continue;
        }
        match tok.text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                if depth == 0 {
                    return j;
                }
                depth -= 1;
                if depth == 0 && tok.text == "}" && shape != Shape::Semi {
                    return j + 1;
                }
            }
            ";" if depth == 0 => return j + 1,
            "," if depth == 0 && shape == Shape::Other => return j + 1,
            _ => {}
        }
    }
    t.len()
}
