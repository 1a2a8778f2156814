//! The summary pre-pass of plan documents (tfwire-plan's `Parser::parse_summary` and
//! `Parser::parse_change`): one validating pass over a plan's bytes that finds the values a
//! summary never reads, then compacts the input in place without them, so that simd-json
//! sees (and builds a tape for) a skeleton of the plan only: addresses, actions, reasons.
//!
//! It reads the text with this crate's scanner ([`crate::scan::string_end`], the number
//! grammar [`crate::scan::number_end`]) and accepts exactly what the tape parser accepts:
//! the differential fuzz target `skeleton` (and its seeds, replayed by `cargo test -p
//! tfwire-fuzzing`) checks that whatever one accepts the other accepts, with the same
//! values where the pass keeps them.
//!
//! - The members `before`, `after`, `after_unknown`, `*_sensitive` and `*_identity` of a
//!   resource change's `change` object, and `before`, `after` and `after_unknown` of an
//!   output change, are **removed** (key, value and the comma before them): the model reads
//!   an absent member as it reads `null`, and these take any value, so nothing a summary
//!   reads changes. The first member of an object is blanked instead (key kept, value
//!   `null`): an object's offset in errors is that of its first key.
//! - The top-level members no summary reads (`planned_values`, `prior_state`,
//!   `configuration`, ...) keep their key (which tells a plan from a state) and have their
//!   value **replaced by `null`**.
//!
//! The pass validates the whole document as strictly as the parser does (grammar, string
//! escapes and surrogate pairs, control characters, UTF-8); anything it does not accept makes
//! it change nothing, and the document is parsed as it stands: a rejected document is
//! rejected exactly as by a full parse.
//! The values it drops are validated as JSON but not read, so a plan whose skipped member
//! holds the wrong kind of value (`"planned_values": 5`, which the full model rejects) is
//! summarised all the same: a value of 4 bytes or fewer cannot be overwritten by `null` and
//! stays as written, and the model of a compacted tape does not read the members the pass
//! sets aside ([`sets_aside`]).
//!
//! For one change (`Parser::parse_change`, `plan show ADDRESS`), the pass keeps the values of the resource changes (and drift entries) whose
//! `address` or `previous_address` is the address asked for, those of the output change
//! `NAME` for `output.NAME`, and `provider_schemas` (a redacted plan's schemas, which the
//! renderer reads); everything else goes as for a summary. A resource change's values are
//! cut while its object is read and put back (its cuts forgotten) when, at its end, one of
//! its addresses turned out to match: the members may come in any order. Keys and addresses
//! are compared unescaped (`"addr\u0065ss"` is `address`), as the model reads them.
//!
//! The compacted text keeps a [`Shifts`] map (one entry per removed run, 8 bytes) that takes
//! an offset in it back to the original text, so errors report offsets of the input as given.
//! Its memory besides: a stack of a few bytes per nesting level and 8 bytes per removed run
//! (adjacent runs merge: about two per resource change).

use crate::scan;
use crate::shape::JsonShape;

/// Whether the top-level member `key` is one the pre-pass sets aside (its value becomes
/// `null`, or stays as written when it is 4 bytes or shorter and cannot hold `null`): the
/// model of a skeleton does not read these, so a short value is not read either.
/// `provider_schemas` is left out: `plan show ADDRESS` keeps it for the renderer, and the
/// model takes it as any value (a summary's `null` included).
pub fn sets_aside(key: &str) -> bool {
    key != "provider_schemas" && TOP.contains(&key.as_bytes())
}

/// Top-level plan members no summary reads (their values become `null`).
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

/// Members of a resource change's `change` no summary reads (removed).
const CHANGE: &[&[u8]] = &[
    b"before",
    b"after",
    b"after_unknown",
    b"before_sensitive",
    b"after_sensitive",
    b"before_identity",
    b"after_identity",
];

/// Members of an output change no summary reads (removed; its `*_sensitive` are read).
const OUTPUT: &[&[u8]] = &[b"before", b"after", b"after_unknown"];

/// What the pass does with a value, by where it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// Validate only.
    Skip,
    /// Replace with `null` (after validating); the member's key stays.
    Blank,
    /// Remove the whole member (after validating): key, value and one comma.
    Drop,
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
    /// The `address` or `previous_address` of a resource change (compared with the address
    /// whose values are kept).
    Address,
}

/// Where the bytes of a compacted text came from: for each run removed, the offset in the
/// compacted text where it was and the bytes removed up to there (both absolute, counting
/// a byte-order mark the text starts with).
#[derive(Clone, Debug, Default)]
pub struct Shifts(Vec<(u32, u32)>);

impl Shifts {
    /// The offset in the original text of offset `at` of the compacted text (offsets at a
    /// removed run, and the end, map to the first byte after it).
    pub fn original(&self, at: usize) -> usize {
        let i = self.0.partition_point(|&(c, _)| c as usize <= at);
        at + i.checked_sub(1).map_or(0, |i| self.0[i].1 as usize)
    }

    /// The offset in the compacted text of offset `at` of the original (for an offset in
    /// a removed run, where the run was).
    pub fn compacted(&self, at: usize) -> usize {
        // The runs' original ends (`c + removed`) increase.
        let i = self
            .0
            .partition_point(|&(c, removed)| (c + removed) as usize <= at);
        let shift = i.checked_sub(1).map_or(0, |i| self.0[i].1 as usize);
        let next = self.0.get(i).map_or(usize::MAX, |&(c, _)| c as usize);
        (at - shift).min(next)
    }
}

/// Compacts the plan in `input[start..]` to its summary skeleton (see the module docs) and
/// returns the map back to the original offsets, with the shape of the kept text (whether
/// a number it kept may be beyond `f64`'s range, by [`crate::json_shape`]'s rule: the
/// parser then needs no second pass over it); or changes nothing and returns `None`
/// when the document is not valid JSON of the expected shape, nests deeper than
/// `max_depth` or has more than `max_nodes` nodes as [`crate::check_json_shape`] counts
/// them (then the parser checks and reports it as usual). A document accepted here passes
/// that shape check: the parser need not run it. The vector is shrunk to the skeleton plus
/// `spare` bytes of capacity, so the memory of the dropped text is given back before the
/// tape is built. With `keep`, the values of the changes at that address stay (see the
/// module docs).
pub fn compact_for_summary(
    input: &mut Vec<u8>,
    start: usize,
    spare: usize,
    limits: (usize, usize),
    keep: Option<&str>,
) -> Option<(Shifts, JsonShape)> {
    let (max_depth, max_nodes) = limits;
    let text = &input[start..];
    core::str::from_utf8(text).ok()?;
    let mut scan = Scan {
        b: text,
        i: 0,
        max_depth,
        nodes: 0,
        stack: Vec::new(),
        pending: None,
        member_from: 0,
        cuts: Vec::new(),
        nulls: Vec::new(),
        wide: false,
        wide_pending: false,
        wide_aside: false,
        keep: keep.map(str::as_bytes),
        keep_output: keep
            .and_then(|a| a.strip_prefix("output."))
            .map(str::as_bytes),
    };
    scan.document()?;
    if scan.nodes > max_nodes {
        return None;
    }
    let Scan {
        cuts,
        nulls,
        nodes,
        wide,
        ..
    } = scan;
    let body = &mut input[start..];
    for at in nulls {
        body[at as usize..at as usize + 4].copy_from_slice(b"null");
    }
    let mut shifts = Vec::with_capacity(cuts.len());
    let (mut w, mut r, mut removed) = (0usize, 0usize, 0usize);
    for (from, to) in cuts {
        let (from, to) = (from as usize, to as usize);
        body.copy_within(r..from, w);
        w += from - r;
        removed += to - from;
        r = to;
        shifts.push(((start + w) as u32, removed as u32));
    }
    let end = body.len();
    body.copy_within(r..end, w);
    w += end - r;
    input.truncate(start + w);
    input.shrink_to(start + w + spare);
    let shape = JsonShape {
        nodes,
        wide_numbers: wide,
    };
    Some((Shifts(shifts), shape))
}

/// One open array or object.
#[derive(Clone, Copy)]
struct Frame {
    /// For an object, its own role (its members' roles follow from it and their keys);
    /// for an array, its elements' role.
    role: Role,
    object: bool,
    /// A member of this object has been read: a member removed now takes the comma
    /// before it (the first member is never removed, only blanked).
    kept: bool,
    /// For a resource change: the number of cuts and nulls when it opened (its own are
    /// those after), and whether one of its addresses is the one whose values are kept.
    marks: (u32, u32),
    matched: bool,
    /// For a resource change: whether an `address` key was read. While one address's values
    /// are kept, a change without one keeps its values: the model spells its address from
    /// its other members (keeping a change that turns out not to match costs memory, never
    /// a wrong answer).
    named: bool,
}

struct Scan<'b> {
    b: &'b [u8],
    i: usize,
    /// The most open containers allowed (the parser's limit).
    max_depth: usize,
    /// Brackets, commas, colons and strings, as the shape check counts them.
    nodes: usize,
    stack: Vec<Frame>,
    /// The value being removed or blanked: where its removal starts, the depth of its
    /// container, and which.
    pending: Option<(usize, usize, Role)>,
    /// Where the removal of the member whose key was just read starts (its comma).
    member_from: usize,
    /// Runs to remove, in order, adjacent runs merged.
    cuts: Vec<(u32, u32)>,
    /// Values (at least 4 bytes long) whose first 4 bytes become `null` (the rest is cut).
    nulls: Vec<u32>,
    /// Whether a number kept (not inside a value removed or blanked) has an exponent or
    /// more than 308 digits in a row: it may then be beyond `f64`'s range (the rule of
    /// [`JsonShape::wide_numbers`]).
    wide: bool,
    /// The same, for a number in the value being removed or blanked (`pending`): it counts
    /// if that value stays as written (a blanked value of 4 bytes or less).
    wide_pending: bool,
    /// The same, for a number in a value set aside inside the resource change being read:
    /// it counts if that change's values are kept after all.
    wide_aside: bool,
    /// The address whose resource changes keep their values, if any.
    keep: Option<&'b [u8]>,
    /// The output whose change keeps its values (`NAME` of a kept `output.NAME`).
    keep_output: Option<&'b [u8]>,
}

impl Scan<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn cut(&mut self, from: usize, to: usize) {
        let (from, to) = (from as u32, to as u32);
        match self.cuts.last_mut() {
            Some(last) if last.1 == from => last.1 = to,
            _ => self.cuts.push((from, to)),
        }
    }
    /// A string starting at its opening quote; returns its raw contents' span and whether
    /// they hold an escape.
    fn string(&mut self) -> Option<(usize, usize, bool)> {
        self.nodes += 1;
        let (end, escaped) = scan::string_end(self.b, self.i).ok()?;
        let from = self.i + 1;
        self.i = end;
        Some((from, end - 1, escaped))
    }

    /// A number, by the workspace's one number grammar (the parser takes every such number:
    /// those beyond `f64` are set aside before simd-json runs).
    fn number(&mut self) -> Option<()> {
        let start = self.i;
        let end = scan::number_end(self.b, start).ok()?;
        let kept = self.pending.is_none();
        let counts = if kept { !self.wide } else { !self.wide_pending };
        if counts {
            // An exponent, or more than 308 digits in a row (the shape pass's rule).
            let text = &self.b[start..end];
            let wide = text.iter().any(|&c| c == b'e' || c == b'E')
                || text
                    .split(|c| !c.is_ascii_digit())
                    .any(|run| run.len() > 308);
            if kept {
                self.wide = wide;
            } else {
                self.wide_pending = wide;
            }
        }
        self.i = end;
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.b.get(self.i..self.i + word.len())? != word {
            return None;
        }
        self.i += word.len();
        Some(())
    }

    /// The role of a member of an object of role `parent`, from its key (`key` as the model
    /// reads it: unescaped when the raw key has an escape, else as written).
    fn member_role(&self, parent: Role, key: &[u8]) -> Role {
        match parent {
            Role::Root => match key {
                b"resource_changes" | b"resource_drift" => Role::Changes,
                b"output_changes" => Role::Outputs,
                b"provider_schemas" if self.keep.is_some() => Role::Skip,
                k if TOP.contains(&k) => Role::Blank,
                _ => Role::Skip,
            },
            Role::Change if key == b"change" => Role::ChangeBody,
            Role::Change
                if self.keep.is_some() && matches!(key, b"address" | b"previous_address") =>
            {
                Role::Address
            }
            Role::ChangeBody if CHANGE.contains(&key) => Role::Drop,
            Role::Outputs => match self.keep_output {
                Some(name) if key == name => Role::Skip,
                _ => Role::Output,
            },
            Role::Output if OUTPUT.contains(&key) => Role::Drop,
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
        let mut role = role;
        loop {
            self.ws();
            let start = self.i;
            if matches!(role, Role::Blank | Role::Drop) && self.pending.is_none() {
                let from = if role == Role::Drop {
                    self.member_from
                } else {
                    start
                };
                self.pending = Some((from, self.stack.len(), role));
            }
            // Read one value or open a container.
            match self.peek()? {
                b'"' => {
                    let (from, to, _) = self.string()?;
                    if role == Role::Address
                        && let Some(keep) = self.keep
                        && scan::unescape_eq(&self.b[from..to], keep)
                        && let Some(frame) = self.stack.last_mut()
                    {
                        frame.matched = true;
                    }
                }
                b'{' | b'[' => {
                    let object = self.peek()? == b'{';
                    self.i += 1;
                    self.nodes += 1;
                    if self.stack.len() == self.max_depth {
                        return None;
                    }
                    let element = match (role, object) {
                        (Role::Changes, false) => Role::Change,
                        _ => Role::Skip,
                    };
                    if object && role == Role::Change {
                        self.wide_aside = false;
                    }
                    self.stack.push(Frame {
                        role: if object { role } else { element },
                        object,
                        kept: false,
                        marks: (self.cuts.len() as u32, self.nulls.len() as u32),
                        matched: false,
                        named: false,
                    });
                    self.ws();
                    let close = if object { b'}' } else { b']' };
                    if self.peek()? == close {
                        self.i += 1;
                        self.nodes += 1;
                        self.stack.pop();
                    } else if object {
                        role = self.key(0)?;
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
                if let Some((from, depth, what)) = self.pending
                    && self.stack.len() == depth
                {
                    self.pending = None;
                    let wide = core::mem::take(&mut self.wide_pending);
                    if what == Role::Drop {
                        self.cut(from, self.i);
                        self.wide_aside |= wide;
                    } else if self.i - from > 4 {
                        self.nulls.push(from as u32);
                        self.cut(from + 4, self.i);
                        self.wide_aside |= wide;
                    } else {
                        // Short enough to stay as written.
                        self.wide |= wide;
                    }
                }
                if self.stack.len() == base {
                    return Some(());
                }
                self.ws();
                let frame = *self.stack.last()?;
                match self.peek()? {
                    b',' => {
                        let comma = self.i;
                        self.i += 1;
                        self.nodes += 1;
                        self.ws();
                        role = if frame.object {
                            self.key(comma)?
                        } else {
                            frame.role
                        };
                        break;
                    }
                    b'}' if frame.object => {
                        self.i += 1;
                        self.nodes += 1;
                        self.stack.pop();
                        let unsure =
                            frame.role == Role::Change && self.keep.is_some() && !frame.named;
                        if frame.matched || unsure {
                            // A resource change at the address kept (or one whose address
                            // could not be read here): its values stay.
                            self.cuts.truncate(frame.marks.0 as usize);
                            self.nulls.truncate(frame.marks.1 as usize);
                            self.wide |= self.wide_aside;
                        }
                    }
                    b']' if !frame.object => {
                        self.i += 1;
                        self.nodes += 1;
                        self.stack.pop();
                    }
                    _ => return None,
                }
            }
        }
    }

    /// A member's key and its `:`, after the comma at `comma` (any value for the first
    /// member); returns the member's role.
    fn key(&mut self, comma: usize) -> Option<Role> {
        if self.peek()? != b'"' {
            return None;
        }
        let (from, to, escaped) = self.string()?;
        self.ws();
        if self.peek()? != b':' {
            return None;
        }
        self.i += 1;
        self.nodes += 1;
        let frame = *self.stack.last()?;
        let raw = &self.b[from..to];
        // A key with an escape is compared as the model reads it (unescaped; keys are
        // short). The pass has validated it: it unescapes.
        let unescaped;
        let key = if escaped {
            unescaped = unescape(raw)?;
            &unescaped[..]
        } else {
            raw
        };
        let role = self.member_role(frame.role, key);
        let named = key == b"address";
        let frame = self.stack.last_mut()?;
        frame.named |= named;
        let role = match role {
            // The removal takes the comma before the member.
            Role::Drop if frame.kept => {
                self.member_from = comma;
                Role::Drop
            }
            // An object's first member keeps its key (its value becomes `null`): the
            // object's offset, in errors, is the offset of its first key.
            Role::Drop => Role::Blank,
            role => role,
        };
        frame.kept = true;
        Some(role)
    }
}

/// The unescaped bytes of the raw contents of a string [`scan::string_end`] accepted.
fn unescape(raw: &[u8]) -> Option<Vec<u8>> {
    let text = core::str::from_utf8(raw).ok()?;
    let bump = bumpalo::Bump::new();
    let quoted = bump.alloc_str(&format!("\"{text}\""));
    let (s, _) = scan::string(&bump, quoted.as_bytes(), 0).ok()?;
    Some(s.as_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::compact_for_summary;

    /// The compacted text and the number of removed runs; checks that every byte of the
    /// compacted text maps back to the same byte of the original (or to a `null` written
    /// over a value's first bytes).
    fn compact(text: &str) -> (String, usize) {
        let mut b = text.as_bytes().to_vec();
        let Some((shifts, _)) = compact_for_summary(&mut b, 0, 0, (64, 1 << 20), None) else {
            assert_eq!(b, text.as_bytes());
            return (text.to_string(), 0);
        };
        for (at, &c) in b.iter().enumerate() {
            let o = shifts.original(at);
            let in_null = (at.saturating_sub(3)..=at).any(|j| b.get(j..j + 4) == Some(b"null"));
            assert!(
                text.as_bytes()[o] == c || in_null,
                "byte {at} of {:?} maps to byte {o} of {text:?}",
                String::from_utf8_lossy(&b)
            );
        }
        assert_eq!(shifts.original(b.len()), text.len());
        for at in 0..=b.len() {
            assert_eq!(shifts.compacted(shifts.original(at)), at);
        }
        (String::from_utf8(b).unwrap(), shifts.0.len())
    }

    #[test]
    fn removes_and_blanks_values_and_maps_offsets_back() {
        let text = r#"{"resource_changes":[{"address":"a.b","change":{"actions":["create"],"before":{"x":[1,2,"]"]},"after":true,"replace_paths":[["x"]]}}],"output_changes":{"o":{"after":"long","after_sensitive":true}},"planned_values":{"root_module":{}}}"#;
        let expected = r#"{"resource_changes":[{"address":"a.b","change":{"actions":["create"],"replace_paths":[["x"]]}}],"output_changes":{"o":{"after":null,"after_sensitive":true}},"planned_values":null}"#;
        assert_eq!(compact(text), (expected.to_string(), 3));
        // A first member keeps its key (its value blanked when 4 bytes or more); removed
        // members in a row merge into one run.
        let text = r#"{"resource_changes":[{"change":{"before":12345 , "after":{},"after_unknown":{"a":true},"actions":[]}},{"change":{"after":2}}],"prior_state":[]}"#;
        let expected = r#"{"resource_changes":[{"change":{"before":null ,"actions":[]}},{"change":{"after":2}}],"prior_state":[]}"#;
        assert_eq!(compact(text), (expected.to_string(), 2));
        let text = "{ \"output_changes\" : { \"o\" : { \"x\" : 1 ,\n \"before\" : [ ] } } }";
        assert_eq!(
            compact(text).0,
            "{ \"output_changes\" : { \"o\" : { \"x\" : 1  } } }"
        );
    }

    #[test]
    fn the_kept_text_says_whether_a_number_may_be_wide() {
        let wide_keeping = |text: &str, keep: Option<&str>| {
            let mut b = text.as_bytes().to_vec();
            let (_, shape) = compact_for_summary(&mut b, 0, 0, (64, 1 << 20), keep).unwrap();
            // The same answer as the shape pass over the kept text.
            let again = crate::json_shape(&b, 64, 1 << 20).unwrap();
            assert_eq!(shape.wide_numbers, again.wide_numbers, "{text}");
            shape.wide_numbers
        };
        let wide = |text: &str| wide_keeping(text, None);
        let long = "9".repeat(309);
        assert!(!wide(r#"{"format_version":"1.2","x":[1,-2.5,0]}"#));
        assert!(wide(r#"{"format_version":"1.2","x":[1,-2.5e3,0]}"#));
        assert!(wide(&format!(r#"{{"x":{long}}}"#)));
        assert!(!wide(&format!(r#"{{"x":{}}}"#, &long[1..])));
        // Numbers in values cut out or blanked do not count.
        assert!(!wide(
            r#"{"resource_changes":[{"change":{"actions":[],"after":{"n":1e400}}}],"prior_state":{"n":-1E+999}}"#
        ));
        assert!(wide(
            r#"{"resource_changes":[{"change":{"actions":[],"after":{"n":1e400}},"index":1e400}]}"#
        ));
        // A blanked value short enough to stay as written counts; a longer one does not.
        assert!(wide(r#"{"format_version":"1.2","prior_state":1E-2}"#));
        assert!(!wide(r#"{"format_version":"1.2","prior_state":1E-20}"#));
        assert!(wide(
            r#"{"output_changes":{"s":{"after":1E-2,"before":"s"}},"planned_values":{}}"#
        ));
        // A kept address's values count, whether its address comes before or after them;
        // another change's do not.
        let one = r#"{"address":"a","change":{"actions":[],"after":[1e400]}}"#;
        let late = r#"{"change":{"actions":[],"after":[1e400]},"address":"a"}"#;
        let other = r#"{"address":"b","change":{"actions":[],"after":[1e400]}}"#;
        for (changes, keep, expected) in [
            (format!("{one},{other}"), "a", true),
            (format!("{other},{late}"), "a", true),
            (format!("{one},{other}"), "c", false),
            (format!("{other},{one}"), "b", true),
            (format!("{late},{other}"), "c", false),
        ] {
            let text = format!(r#"{{"resource_changes":[{changes}]}}"#);
            assert_eq!(
                wide_keeping(&text, Some(keep)),
                expected,
                "{text} keeping {keep}"
            );
        }
    }

    #[test]
    fn one_address_keeps_its_values_whatever_the_member_order_or_escapes() {
        let keep = |text: &str, address: &str| {
            let mut b = text.as_bytes().to_vec();
            compact_for_summary(&mut b, 0, 0, (64, 1 << 20), Some(address)).unwrap();
            String::from_utf8(b).unwrap()
        };
        let text = r#"{"resource_changes":[{"change":{"actions":[],"after":{"a":1},"before":2},"address":"m[\"k\u003c\"].x"},{"address":"y","change":{"actions":[],"after":3}}],"output_changes":{"o\u0041":{"after":1,"before":2}},"provider_schemas":{"p":{}}}"#;
        let second = r#"{"address":"y","change":{"actions":[]}}"#;
        let kept = keep(text, "m[\"k<\"].x");
        assert!(
            kept.contains(r#""after":{"a":1},"before":2},"address""#),
            "{kept}"
        );
        assert!(kept.contains(second), "{kept}");
        // (A first member shorter than `null` stays as it is.)
        assert!(kept.contains(r#""o\u0041":{"after":1}"#), "{kept}");
        assert!(kept.contains(r#""provider_schemas":{"p":{}}"#), "{kept}");
        let kept = keep(text, "output.oA");
        assert!(
            kept.contains(r#""o\u0041":{"after":1,"before":2}"#),
            "{kept}"
        );
        assert!(!kept.contains(r#""a":1"#), "{kept}");
        // A previous address counts; an absent one keeps nothing.
        let moved = r#"{"resource_changes":[{"address":"new","previous_address":"old","change":{"actions":[],"after":1}}]}"#;
        assert_eq!(keep(moved, "old"), moved);
        assert!(!keep(moved, "nope").contains(r#""after":1"#));
    }

    #[test]
    fn invalid_or_unsure_documents_are_left_alone() {
        for text in [
            r#"{"resource_changes":[{"change":{"before":{"x":tru}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":"\q"}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":"\ud800"}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":"\udc00\ud800"}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":[1}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":01}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x":1}}}]} x"#,
            "{\"resource_changes\":[{\"change\":{\"before\":\"a\u{1}b\"}}]}",
            r#"{"resource_changes":[{"change":{"before":{"x":1,}}}]}"#,
            r#"{"resource_changes":[{"change":{"before":{"x" 1}}}]}"#,
        ] {
            assert_eq!(compact(text), (text.to_string(), 0), "{text}");
        }
    }
}
