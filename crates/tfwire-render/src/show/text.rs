//! Text helpers with OpenTofu's exact behaviour: colour markup, Go's `%q` quoting, HCL
//! identifiers, word wrapping, and reading the JSON at the start of a string.

/// Expands colour markup (`[red]`, `[bold]`, `[reset]`, ...) as OpenTofu's colorizer does:
/// into ANSI escapes (and a final reset) when colouring, into nothing otherwise. Bracketed
/// words that are not colour names stay as they are.
pub(crate) fn color(s: &str, on: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut colored = false;
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'[' {
            let mut j = i + 1;
            while j < bytes.len()
                && (bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'_' | b'-'))
            {
                j += 1;
            }
            if j > i + 1 && j < bytes.len() && bytes[j] == b']' {
                out.push_str(&s[last..i]);
                match code(&s[i + 1..j]) {
                    Some(c) => {
                        colored = true;
                        if on {
                            out.push_str("\x1b[");
                            out.push_str(c);
                            out.push('m');
                        }
                    }
                    None => out.push_str(&s[i..=j]),
                }
                i = j + 1;
                last = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&s[last..]);
    if colored && on {
        out.push_str("\x1b[0m");
    }
    out
}

/// The ANSI code of a colour name (the names of OpenTofu's colorizer).
fn code(name: &str) -> Option<&'static str> {
    Some(match name {
        "default" => "39",
        "_default_" => "49",
        "black" => "30",
        "red" => "31",
        "green" => "32",
        "yellow" => "33",
        "blue" => "34",
        "magenta" => "35",
        "cyan" => "36",
        "light_gray" => "37",
        "dark_gray" => "90",
        "light_red" => "91",
        "light_green" => "92",
        "light_yellow" => "93",
        "light_blue" => "94",
        "light_magenta" => "95",
        "light_cyan" => "96",
        "white" => "97",
        "_black_" => "40",
        "_red_" => "41",
        "_green_" => "42",
        "_yellow_" => "43",
        "_blue_" => "44",
        "_magenta_" => "45",
        "_cyan_" => "46",
        "_light_gray_" => "47",
        "_dark_gray_" => "100",
        "_light_red_" => "101",
        "_light_green_" => "102",
        "_light_yellow_" => "103",
        "_light_blue_" => "104",
        "_light_magenta_" => "105",
        "_light_cyan_" => "106",
        "_white_" => "107",
        "bold" => "1",
        "dim" => "2",
        "underline" => "4",
        "blink_slow" => "5",
        "blink_fast" => "6",
        "invert" => "7",
        "hidden" => "8",
        "reset" => "0",
        "reset_bold" => "21",
        _ => return None,
    })
}

/// `s` quoted as Go's `%q` quotes it: printable characters (as the clients' Go counts them,
/// see [`tfwire_json::escape::write_go_quoted`]) as they are, `"` and `\` escaped,
/// control and other non-printing characters as `\n`, `\x00`, `\u200b`, `\U0001fae9`, ...
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    // Writing to a String cannot fail.
    let _ = tfwire_json::escape::write_go_quoted(&mut out, s);
    out
}

/// An attribute name as written in a diff: bare when an identifier, quoted otherwise.
pub(crate) fn attribute_name(s: &str) -> std::borrow::Cow<'_, str> {
    if crate::escape::is_identifier(s) {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(quote(s))
    }
}

/// Wraps `s` to lines of at most `width - 1` columns as OpenTofu's word wrapping does,
/// leaving lines that start with a space as they are.
pub(crate) fn word_wrap(s: &str, width: usize) -> String {
    if width <= 1 {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.starts_with(' ') {
            out.push_str(line);
        } else {
            out.push_str(&wrap_line(line, width - 1));
        }
    }
    out
}

/// Greedy wrapping at spaces (a port of the behaviour of `go-wordwrap`'s `WrapString`;
/// `s` has no newlines).
fn wrap_line(s: &str, lim: usize) -> String {
    let mut out = String::with_capacity(s.len());
    let mut current = 0usize;
    let (mut word, mut space) = (String::new(), String::new());
    let (mut word_len, mut space_len) = (0usize, 0usize);
    for ch in s.chars() {
        if ch.is_whitespace() && ch != '\u{a0}' {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                out.push_str(&space);
                out.push_str(&word);
                space.clear();
                word.clear();
                space_len = 0;
                word_len = 0;
            }
            space.push(ch);
            space_len += 1;
        } else {
            word.push(ch);
            word_len += 1;
            if current + word_len + space_len > lim && word_len < lim {
                out.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }
    if word.is_empty() {
        if current + space_len <= lim {
            out.push_str(&space);
        }
    } else {
        out.push_str(&space);
        out.push_str(&word);
    }
    out
}

/// The length of the JSON value at the start of `s` (an object or array; trailing text
/// is ignored, as Go's streaming decoder ignores it), or `None` if it does not start with
/// a complete, valid one.
pub(crate) fn json_prefix(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !matches!(b.first(), Some(b'{' | b'[')) {
        return None;
    }
    let mut p = Scan { b, i: 0, depth: 0 };
    p.value().then_some(p.i)
}

struct Scan<'s> {
    b: &'s [u8],
    i: usize,
    depth: usize,
}

impl Scan<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn lit(&mut self, word: &[u8]) -> bool {
        if self.b[self.i..].starts_with(word) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> bool {
        self.ws();
        match self.b.get(self.i) {
            Some(b'{') => self.container(b'}', true),
            Some(b'[') => self.container(b']', false),
            Some(b'"') => self.string(),
            Some(b't') => self.lit(b"true"),
            Some(b'f') => self.lit(b"false"),
            Some(b'n') => self.lit(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => false,
        }
    }

    fn container(&mut self, close: u8, object: bool) -> bool {
        // The tape parser below accepts 1024 levels; deeper text is not drawn as JSON.
        self.depth += 1;
        if self.depth > 1000 {
            return false;
        }
        self.i += 1;
        self.ws();
        if self.eat(close) {
            self.depth -= 1;
            return true;
        }
        loop {
            if object {
                self.ws();
                if !(self.b.get(self.i) == Some(&b'"') && self.string()) {
                    return false;
                }
                self.ws();
                if !self.eat(b':') {
                    return false;
                }
            }
            if !self.value() {
                return false;
            }
            self.ws();
            if self.eat(b',') {
                continue;
            }
            if self.eat(close) {
                self.depth -= 1;
                return true;
            }
            return false;
        }
    }

    fn string(&mut self) -> bool {
        self.i += 1;
        while let Some(&c) = self.b.get(self.i) {
            self.i += 1;
            match c {
                b'"' => return true,
                b'\\' => match self.b.get(self.i) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.i += 1,
                    Some(b'u') => {
                        let hex = self.b.get(self.i + 1..self.i + 5);
                        if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                            return false;
                        }
                        self.i += 5;
                    }
                    _ => return false,
                },
                0..=0x1f => return false,
                _ => {}
            }
        }
        false
    }

    fn number(&mut self) -> bool {
        self.eat(b'-');
        let digits = |s: &mut Self| {
            let start = s.i;
            while s.b.get(s.i).is_some_and(u8::is_ascii_digit) {
                s.i += 1;
            }
            s.i - start
        };
        if self.eat(b'0') {
        } else if digits(self) == 0 {
            return false;
        }
        if self.eat(b'.') && digits(self) == 0 {
            return false;
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if digits(self) == 0 {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        assert_eq!(
            quote("a\"b\\c\n\t\u{1}\u{7f}é\u{a0}\u{202e}"),
            r#""a\"b\\c\n\t\x01\x7fé\u00a0\u202e""#
        );
        // Printable as Go 1.26 (Unicode 15.0) counts: an emoji of Unicode 16, an unassigned
        // code point, a noncharacter and a private use character are escaped; Unicode
        // 15.0's own characters (U+1FAE8, U+1E030, an ideograph of CJK extension H) are not.
        assert_eq!(
            quote("\u{1FAE9}\u{378}\u{FFFF}\u{E000}\u{1FAE8}\u{1E030}\u{31350}\u{1C90}"),
            "\"\\U0001fae9\\u0378\\uffff\\ue000\u{1FAE8}\u{1E030}\u{31350}\u{1C90}\""
        );
    }

    #[test]
    fn colour_markup() {
        assert_eq!(
            color("[bold]x[reset] [nope] [RED]", false),
            "x [nope] [RED]"
        );
        assert_eq!(color("[red]x", true), "\x1b[31mx\x1b[0m");
    }

    #[test]
    fn json_prefixes() {
        assert_eq!(json_prefix("[1, 2] tail"), Some(6));
        assert_eq!(json_prefix("{\"a\": [true, null, -1.5e3]}"), Some(27));
        assert_eq!(json_prefix("{not json"), None);
        assert_eq!(json_prefix("[1,]"), None);
    }

    #[test]
    fn wraps() {
        assert_eq!(word_wrap("aaa bbb ccc", 8), "aaa bbb\nccc");
    }
}
