//! The summary pre-pass ([`Parser::parse_summary`](crate::Parser::parse_summary)): one
//! validating pass over a plan's bytes that finds the values a [`Summary`](crate::Summary)
//! never reads (`before`, `after`, `after_unknown`, `*_sensitive` of resource changes,
//! `planned_values`, `prior_state`, `configuration`, ...) and overwrites each with `null`
//! padded with spaces, so that simd-json builds one tape node for each instead of one per
//! value inside. Every other byte keeps its offset, so errors of the rest keep theirs.
//!
//! The pass validates the whole document as strictly as the parser does (grammar, string
//! escapes, control characters, UTF-8); anything it does not accept, or is unsure of
//! (a `\u` escape of a surrogate, a long number), makes it blank nothing, and the document
//! is parsed as it stands: a rejected document is rejected exactly as by
//! [`Parser::parse`](crate::Parser::parse). Its memory is a stack of one byte per nesting
//! level and eight bytes per blanked value.

/// Top-level plan members no summary reads (blanked when at least 4 bytes long).
const TOP: &[&[u8]] = &[
    b"planned_values",
    b"prior_state",
    b"configuration",
    b"proposed_unknown",
    b"relevant_attributes",
    b"variables",
    b"checks",
    b"provider_schemas",
];

/// Members of a resource change's `change` no summary reads.
const CHANGE: &[&[u8]] = &[
    b"before",
    b"after",
    b"after_unknown",
    b"before_sensitive",
    b"after_sensitive",
    b"before_identity",
    b"after_identity",
];

/// Members of an output change no summary reads (its `*_sensitive` are read).
const OUTPUT: &[&[u8]] = &[b"before", b"after", b"after_unknown"];

/// What the pass does with a value, by where it is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Validate only.
    Skip,
    /// Overwrite with `null` (after validating).
    Blank,
    /// The document: an object whose members are looked at.
    Root,
    /// `resource_changes` / `resource_drift`: a list of resource changes.
    Changes,
    /// One resource change object.
    Change,
    /// A resource change's `change` object.
    ChangeBody,
    /// `output_changes`: an object of output changes.
    Outputs,
    /// One output change object (its members are those of a change).
    Output,
}

/// Blanks the summary-irrelevant values of the plan in `input`, or nothing when the
/// document is not valid JSON of the expected shape (then the parser reports it as usual).
/// Returns how many values were blanked.
pub(crate) fn blank_for_summary(input: &mut [u8]) -> usize {
    if core::str::from_utf8(input).is_err() {
        return 0;
    }
    let mut spans = Vec::new();
    let mut scan = Scan {
        b: input,
        i: 0,
        stack: Vec::new(),
        spans: &mut spans,
    };
    if scan.document().is_none() {
        return 0;
    }
    for &(from, to) in &spans {
        let v = &mut input[from as usize..to as usize];
        v.fill(b' ');
        v[..4].copy_from_slice(b"null");
    }
    spans.len()
}

struct Scan<'b, 's> {
    b: &'b [u8],
    i: usize,
    /// Open containers: the role of each member (objects) or element (arrays), and
    /// whether it is an object.
    stack: Vec<(Role, bool)>,
    spans: &'s mut Vec<(u32, u32)>,
}

/// Bytes that end a run of plain string bytes: `"`, `\`, controls, and non-ASCII (checked
/// separately by the UTF-8 pass, but a run stops there too for simplicity).
fn special(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let quote = zero(w ^ (ONES * u64::from(b'"')));
    let backslash = zero(w ^ (ONES * u64::from(b'\\')));
    let control = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    (quote | backslash | control) != 0
}

impl Scan<'_, '_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// A string starting at its opening quote; returns its raw contents' span.
    fn string(&mut self) -> Option<(usize, usize)> {
        let from = self.i + 1;
        let mut i = from;
        loop {
            while let Some(chunk) = self.b.get(i..i + 8) {
                let w = u64::from_le_bytes(chunk.try_into().ok()?);
                if special(w) {
                    break;
                }
                i += 8;
            }
            match *self.b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return Some((from, i));
                }
                b'\\' => {
                    match *self.b.get(i + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                        b'u' => {
                            let hex = self.b.get(i + 2..i + 6)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            // Surrogates (pairs or lone): left to the parser.
                            if matches!(hex[0], b'd' | b'D')
                                && matches!(hex[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
                            {
                                return None;
                            }
                            i += 6;
                        }
                        _ => return None,
                    }
                }
                c if c < 0x20 => return None,
                _ => i += 1,
            }
        }
    }

    /// A number, by JSON's grammar (the parser takes every such number: those beyond
    /// `f64` are hidden from simd-json first).
    fn number(&mut self) -> Option<()> {
        let b = self.b;
        let start = self.i;
        let mut i = start;
        let digits = |i: &mut usize| {
            let s = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i > s
        };
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        if b.get(i) == Some(&b'0') {
            i += 1;
        } else if !digits(&mut i) {
            return None;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !digits(&mut i) {
                return None;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !digits(&mut i) {
                return None;
            }
        }
        self.i = i;
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.b.get(self.i..self.i + word.len())? != word {
            return None;
        }
        self.i += word.len();
        Some(())
    }

    /// The role of a member of an object of role `parent`, from its raw key.
    fn member_role(parent: Role, key: &[u8]) -> Role {
        match parent {
            Role::Root => match key {
                b"resource_changes" | b"resource_drift" => Role::Changes,
                b"output_changes" => Role::Outputs,
                k if TOP.contains(&k) => Role::Blank,
                _ => Role::Skip,
            },
            Role::Change if key == b"change" => Role::ChangeBody,
            Role::ChangeBody if CHANGE.contains(&key) => Role::Blank,
            Role::Outputs => Role::Output,
            Role::Output if OUTPUT.contains(&key) => Role::Blank,
            Role::Blank => Role::Blank,
            _ => Role::Skip,
        }
    }

    /// The whole document: one value of role `Root`, then only whitespace.
    fn document(&mut self) -> Option<()> {
        self.ws();
        if self.peek()? != b'{' {
            return None;
        }
        self.value(Role::Root)?;
        self.ws();
        (self.i == self.b.len()).then_some(())
    }

    /// One value (with everything inside it), iteratively.
    fn value(&mut self, role: Role) -> Option<()> {
        let base = self.stack.len();
        // (role of the value being read, where a blanked value starts)
        let mut role = role;
        let mut blank_from: Option<(usize, usize)> = None;
        loop {
            self.ws();
            let start = self.i;
            if role == Role::Blank && blank_from.is_none() {
                blank_from = Some((start, self.stack.len()));
            }
            // Read one value or open a container.
            match self.peek()? {
                b'"' => {
                    self.string()?;
                }
                b'{' | b'[' => {
                    let object = self.peek()? == b'{';
                    self.i += 1;
                    let element = match (role, object) {
                        (Role::Changes, false) => Role::Change,
                        (Role::Blank, _) => Role::Blank,
                        _ => Role::Skip,
                    };
                    self.stack
                        .push((if object { role } else { element }, object));
                    self.ws();
                    let close = if object { b'}' } else { b']' };
                    if self.peek()? == close {
                        self.i += 1;
                        self.stack.pop();
                    } else if object {
                        role = self.key()?;
                        continue;
                    } else {
                        role = element;
                        continue;
                    }
                }
                b't' => {
                    self.literal(b"true")?;
                }
                b'f' => {
                    self.literal(b"false")?;
                }
                b'n' => {
                    self.literal(b"null")?;
                }
                b'-' | b'0'..=b'9' => {
                    self.number()?;
                }
                _ => return None,
            }
            // After a value: close containers or move on to the next member.
            loop {
                if let Some((from, depth)) = blank_from
                    && self.stack.len() == depth
                {
                    if self.i - from >= 4 {
                        self.spans.push((from as u32, self.i as u32));
                    }
                    blank_from = None;
                }
                if self.stack.len() == base {
                    return Some(());
                }
                self.ws();
                let &(parent, object) = self.stack.last()?;
                match self.peek()? {
                    b',' => {
                        self.i += 1;
                        self.ws();
                        role = if object { self.key()? } else { parent };
                        break;
                    }
                    b'}' if object => {
                        self.i += 1;
                        self.stack.pop();
                    }
                    b']' if !object => {
                        self.i += 1;
                        self.stack.pop();
                    }
                    _ => return None,
                }
            }
        }
    }

    /// A member's key and its `:`; returns the member's role.
    fn key(&mut self) -> Option<Role> {
        if self.peek()? != b'"' {
            return None;
        }
        let (from, to) = self.string()?;
        self.ws();
        if self.peek()? != b':' {
            return None;
        }
        self.i += 1;
        let parent = self.stack.last()?.0;
        Some(Self::member_role(parent, &self.b[from..to]))
    }
}

#[cfg(test)]
mod tests {
    use super::blank_for_summary;

    fn blank(text: &str) -> (String, usize) {
        let mut b = text.as_bytes().to_vec();
        let n = blank_for_summary(&mut b);
        (String::from_utf8(b).unwrap(), n)
    }

    #[test]
    fn blanks_values_and_keeps_offsets() {
        let text = r#"{"resource_changes":[{"address":"a.b","change":{"actions":["create"],"before":{"x":[1,2,"]"]},"after":true,"replace_paths":[["x"]]}}],"output_changes":{"o":{"after":"long","after_sensitive":true}},"planned_values":{"root_module":{}}}"#;
        let (out, n) = blank(text);
        let mut expected = text.to_string();
        for value in [
            r#"{"x":[1,2,"]"]}"#,
            "true",
            r#""long""#,
            r#"{"root_module":{}}"#,
        ] {
            let at = expected.find(&format!(":{value}")).unwrap() + 1;
            let null = format!("null{}", " ".repeat(value.len() - 4));
            expected.replace_range(at..at + value.len(), &null);
        }
        assert_eq!((out, n), (expected, 4));
    }

    #[test]
    fn invalid_or_unsure_documents_are_left_alone() {
        for text in [
            r#"{"resource_changes":[{"change":{"before":{"x":tru}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":"\q"}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":"\ud800"}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":[1}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":01}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":1}}}]} x"#,
            "{\"resource_changes\":[{\"change\":{\"before\":\"a\u{1}b\"}}]}",
            r#"{"resource_changes":[{"change":{"before":{"x":1,}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x" 1}}}]}"#,
        ] {
            assert_eq!(blank(text), (text.to_string(), 0), "{text}");
        }
    }
}
