//! Errors for humans: the offending line of a text input with a caret under the column.

/// At most this many characters of a line are shown (minified plans are one line).
const WINDOW: usize = 100;

/// The line and column (both from 1; the column counts characters) of byte `offset`.
pub(crate) fn line_column(text: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let start = text[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + text[..start].iter().filter(|&&b| b == b'\n').count();
    let column = 1 + String::from_utf8_lossy(&text[start..offset])
        .chars()
        .count();
    (line, column)
}

/// Renders the place of byte `offset` of `text` as the Rust compiler does:
///
/// ```text
///   --> plan.json:3:14
///    |
///  3 |   "actions": "create"
///    |              ^
/// ```
///
/// A long line is cut to a window around the column, with `…` where it was cut.
pub(crate) fn snippet(name: &str, text: &[u8], offset: usize) -> String {
    let offset = offset.min(text.len());
    let (line, column) = line_column(text, offset);
    let start = text[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = text[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |i| offset + i);
    // Only the bytes around the column are decoded (a minified plan is one line of any
    // length): at most 4 bytes a character on either side of it.
    let mut lo = start.max(offset.saturating_sub(4 * WINDOW));
    while lo < offset && text[lo] & 0xc0 == 0x80 {
        lo += 1;
    }
    let mut hi = end.min(offset.saturating_add(4 * WINDOW));
    while hi < end && text[hi] & 0xc0 == 0x80 {
        hi += 1;
    }
    let cut_before = lo > start;
    let cut_after = hi < end;
    let chars: Vec<char> = String::from_utf8_lossy(&text[lo..hi])
        .trim_end_matches(['\r', ' '])
        .chars()
        // Controls and bidirectional controls shown as spaces: the line stays one line,
        // in order, and the caret stays under its column.
        .map(|c| {
            if tfwire_plan::is_unsafe_char(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    // 0-based character index of the caret within `chars`.
    let col = String::from_utf8_lossy(&text[lo..offset]).chars().count();
    let (from, to) = if chars.len() <= WINDOW && !cut_before && !cut_after {
        (0, chars.len())
    } else {
        let from = col
            .saturating_sub(WINDOW / 2)
            .min(chars.len().saturating_sub(WINDOW));
        (from, (from + WINDOW).min(chars.len()))
    };
    let mut shown = String::new();
    let ellipsis_before = from > 0 || cut_before;
    if ellipsis_before {
        shown.push('…');
    }
    shown.extend(&chars[from..to]);
    if to < chars.len() || cut_after {
        shown.push('…');
    }
    let caret_at = col - from + usize::from(ellipsis_before);
    let num = line.to_string();
    let pad = " ".repeat(num.len());
    format!(
        "{pad}--> {name}:{line}:{column}\n{pad} |\n{num} | {shown}\n{pad} | {}^",
        " ".repeat(caret_at)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets() {
        let text = b"{\n  \"a\": 1,\n  \"b\" 2\n}\n";
        assert_eq!(
            snippet("x.json", text, 18),
            " --> x.json:3:7\n  |\n3 |   \"b\" 2\n  |       ^"
        );
        assert_eq!(line_column(text, 0), (1, 1));
        // A long line is cut around the column.
        let long = format!("[{}x]", "1,".repeat(200));
        let s = snippet("-", long.as_bytes(), 401);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], " --> -:1:402");
        assert!(lines[2].starts_with("1 | …") && lines[2].ends_with(']'));
        let caret = lines[3].chars().position(|c| c == '^');
        assert_eq!(caret, lines[2].chars().position(|c| c == 'x'));
        // Multi-byte characters count as one column.
        assert_eq!(line_column("é\"x".as_bytes(), 3), (1, 3));
    }
}
