//! A measurement prototype, not a decoder: a typed pass over simd-json's stage-1 structural
//! indexes (the byte offset of every `{ } [ ] : ,`, every string's opening quote and every
//! other scalar's first byte), reading values of a compiled program straight from the
//! input's bytes, with no tape.
//!
//! It exists to measure the design in which tfwire would run its own second stage instead
//! of walking simd-json's tape ([`Decoder::decode_json_structural`] says what it costs and
//! what it leaves out). It is reached only through that hidden entry point, used by the
//! benchmarks; [`Decoder::decode_json`] does not use it.
//!
//! What it checks, where it reads: the order of structurals (`{` key `:` value `,` ... `}`),
//! the bytes between two structurals (white space only after a string, a number or a
//! literal), every number's grammar and every literal's spelling. Strings lie in the input
//! as written: a string whose 64-byte blocks hold no backslash, no control character and no
//! byte from `0xCC` on is borrowed as it stands (no escape to undo, nothing for NFC to do);
//! any other is read by the byte-wise scanner (escapes, control characters) and put in NFC.
//! What it leaves to stage 1 and trusts: UTF-8, and that a quote inside a string is escaped
//! (stage 1 tracks the quotes). The program subset is the tape walk's (no `dynamic`, no
//! tuple, attributes in the program's order); anything else gives up (`None`).
//!
//! [`Decoder::decode_json_structural`]: super::Decoder::decode_json_structural
//! [`Decoder::decode_json`]: super::Decoder::decode_json

use super::collection;
use super::config::Config;
use super::json_tape::CleanBlocks;
use super::leaf;
use crate::program::{AttrNode, Node, NodeId, Program};
use crate::value::Value;
use bumpalo::Bump;

/// Gave up: the prototype does not read this document.
pub(crate) struct GiveUp;

/// One pass over a document's structural indexes.
pub(crate) struct Pass<'a, 's> {
    pub(crate) program: &'a Program,
    pub(crate) bump: &'a Bump,
    /// The document, as text (its UTF-8 checked once before the pass).
    pub(crate) text: &'a str,
    pub(crate) input: &'a [u8],
    pub(crate) idx: &'s [u32],
    pub(crate) clean: &'s CleanBlocks,
    pub(crate) config: &'s Config,
    /// Elements of the lists open, innermost last (a list's length is known at its end).
    pub(crate) stack: &'s mut Vec<Value<'a>>,
    /// Entries of the maps open, innermost last.
    pub(crate) pairs: &'s mut Vec<(&'a str, Value<'a>)>,
    pub(crate) scratch: &'s mut Vec<u32>,
}

/// Whether `body`, the bytes of a string as written, holds a backslash or a control
/// character (eight bytes at a time).
#[inline]
fn needs_unescape(body: &[u8]) -> bool {
    use tfwire_json::swar::{any_byte_below, any_zero_byte, load_short, splat, try_load};
    let look = |w: u64| any_byte_below(w, 0x20) | any_zero_byte(w ^ splat(b'\\')) != 0;
    let mut i = 0;
    while let Some(w) = try_load(body, i) {
        if look(w) {
            return true;
        }
        i += 8;
    }
    look(load_short(&body[i..], b' '))
}

/// The index of the first byte from `j` on that is not a digit, or `end`.
#[inline(always)]
fn digit_run(b: &[u8], mut j: usize, end: usize) -> usize {
    use tfwire_json::swar::{non_digits, try_load};
    while j < end {
        let Some(w) = try_load(b, j) else {
            while j < end && b[j].is_ascii_digit() {
                j += 1;
            }
            return j;
        };
        let nd = non_digits(w);
        if nd != 0 {
            return (j + nd.trailing_zeros() as usize / 8).min(end);
        }
        j += 8;
    }
    end
}

#[inline(always)]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

impl<'a> Pass<'a, '_> {
    /// The value of the whole document.
    pub(crate) fn root(&mut self) -> Result<Value<'a>, GiveUp> {
        let (v, next) = self.value(self.program.root(), 0, 0)?;
        // Nothing after the value (simd-json may close the index with the input's length).
        match self.idx.get(next) {
            None => Ok(v),
            Some(&n) if n as usize >= self.input.len() && next + 1 == self.idx.len() => Ok(v),
            Some(_) => Err(GiveUp),
        }
    }

    /// The byte at structural `p`.
    #[inline(always)]
    fn at(&self, p: usize) -> Result<(usize, u8), GiveUp> {
        let &i = self.idx.get(p).ok_or(GiveUp)?;
        let i = i as usize;
        Ok((i, *self.input.get(i).ok_or(GiveUp)?))
    }

    /// After the `len`th member of a collection, at structural `*q`: `true` at the
    /// collection's `close`, `false` (and `*q` past it) at a comma; gives up on anything
    /// else or past the length limit.
    #[inline(always)]
    fn member_ends(&self, len: usize, q: &mut usize, close: u8) -> Result<bool, GiveUp> {
        if len > self.config.max_collection_len {
            return Err(GiveUp);
        }
        match self.at(*q)?.1 {
            b',' => {
                *q += 1;
                Ok(false)
            }
            b if b == close => Ok(true),
            _ => Err(GiveUp),
        }
    }

    /// The end of the scalar at byte `i` (structural `p`): the byte after its last
    /// non-space byte before the next structural.
    #[inline(always)]
    fn scalar_end(&self, p: usize) -> usize {
        let mut end = self
            .idx
            .get(p + 1)
            .map_or(self.input.len(), |&n| n as usize)
            .min(self.input.len());
        while end > 0 && is_ws(self.input[end - 1]) {
            end -= 1;
        }
        end
    }

    /// The bytes of the string at structural `p` (its opening quote at byte `i`) as
    /// written, between its quotes.
    #[inline(always)]
    fn raw(&self, p: usize, i: usize) -> Result<(usize, usize), GiveUp> {
        let end = self.scalar_end(p);
        if end < i + 2 || self.input[end - 1] != b'"' {
            return Err(GiveUp);
        }
        Ok((i + 1, end - 1))
    }

    /// The string at structural `p` (its opening quote at byte `i`), in NFC.
    #[inline(always)]
    fn string(&self, p: usize, i: usize) -> Result<&'a str, GiveUp> {
        let (from, to) = self.raw(p, i)?;
        let body = &self.input[from..to];
        if self.clean.surely_plain(body) {
            // No escape, no control character, nothing from 0xCC on: in NFC as written.
            return self.text.get(from..to).ok_or(GiveUp);
        }
        if !needs_unescape(body) {
            let s = self.text.get(from..to).ok_or(GiveUp)?;
            return if crate::nfc::surely_nfc(s) {
                Ok(s)
            } else {
                crate::nfc::nfc(self.bump, s).ok_or(GiveUp)
            };
        }
        let (s, after) = tfwire_json::scan::string(self.bump, self.input, i).map_err(|_| GiveUp)?;
        if after != to + 1 {
            return Err(GiveUp);
        }
        crate::nfc::nfc(self.bump, s).ok_or(GiveUp)
    }

    /// The key at structural `p` (byte `i`) as compared with attribute names: its bytes as
    /// written where they are plain, else its text in NFC.
    #[inline(always)]
    fn key(&self, p: usize, i: usize) -> Result<&'a [u8], GiveUp> {
        let (from, to) = self.raw(p, i)?;
        let body = &self.input[from..to];
        if self.clean.surely_plain(body) {
            return Ok(body);
        }
        Ok(self.string(p, i)?.as_bytes())
    }

    /// The number at structural `p` (byte `i`), read as [`leaf::json_number`] reads its
    /// text: integers of up to 18 digits computed while the grammar is checked, decimals
    /// without an exponent kept as text, anything else through `json_number`.
    #[inline(always)]
    fn number(&self, p: usize, i: usize) -> Result<crate::Number<'a>, GiveUp> {
        let b = self.input;
        let end = self.scalar_end(p);
        let mut j = i;
        let neg = b[j] == b'-';
        j += usize::from(neg);
        let digits = j;
        match b.get(j) {
            Some(b'0') => j += 1,
            Some(b'1'..=b'9') => j = digit_run(b, j + 1, end),
            _ => return Err(GiveUp),
        }
        let int_digits = j - digits;
        if j == end {
            let v = b[digits..j].iter().fold(0u64, |v, &d| {
                v.wrapping_mul(10).wrapping_add(u64::from(d - b'0'))
            });
            // Up to 18 digits fit an `i64` (a negative zero is text).
            if int_digits <= 18 && !(neg && v == 0) {
                let v = v as i64;
                return Ok(crate::Number::Int(if neg { -v } else { v }));
            }
            let t = self.text.get(i..end).ok_or(GiveUp)?;
            return leaf::json_number(t).map_err(|_| GiveUp);
        }
        let mut exponent = false;
        if b[j] == b'.' {
            j += 1;
            let f = j;
            j = digit_run(b, j, end);
            if j == f {
                return Err(GiveUp);
            }
        }
        if j < end && (b[j] | 0x20) == b'e' {
            exponent = true;
            j += 1;
            if j < end && matches!(b[j], b'+' | b'-') {
                j += 1;
            }
            let f = j;
            while j < end && b[j].is_ascii_digit() {
                j += 1;
            }
            if j == f {
                return Err(GiveUp);
            }
        }
        if j != end {
            return Err(GiveUp);
        }
        let t = self.text.get(i..end).ok_or(GiveUp)?;
        if !exponent && t.len() < crate::number::MAX_DECIMAL_EXPONENT as usize {
            return Ok(crate::Number::Decimal(t));
        }
        leaf::json_number(t).map_err(|_| GiveUp)
    }

    /// A literal `word` at structural `p` (byte `i`).
    #[inline(always)]
    fn literal(&self, p: usize, i: usize, word: &[u8]) -> Result<(), GiveUp> {
        if self.input.get(i..i + word.len()) == Some(word) && self.scalar_end(p) == i + word.len() {
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    #[inline(always)]
    fn open(&self, depth: usize) -> Result<(), GiveUp> {
        if depth >= self.config.max_depth {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// The value of program node `id` at structural `p`, and the structural after it.
    fn value(&mut self, id: NodeId, p: usize, depth: usize) -> Result<(Value<'a>, usize), GiveUp> {
        let (i, b) = self.at(p)?;
        let node = self.program.node(id);
        let v = match (node, b) {
            (Node::Group { .. }, b'n') => return Err(GiveUp),
            (_, b'n') => {
                self.literal(p, i, b"null")?;
                Value::Null
            }
            (Node::String, b'"') => Value::String(self.string(p, i)?),
            (Node::Bool, b't') => {
                self.literal(p, i, b"true")?;
                Value::Bool(true)
            }
            (Node::Bool, b'f') => {
                self.literal(p, i, b"false")?;
                Value::Bool(false)
            }
            (Node::Number, b'-' | b'0'..=b'9') => Value::Number(self.number(p, i)?),
            (Node::Object { start, len }, b'{') => {
                return self.object(self.program.attrs_of(start, len), p, depth);
            }
            (Node::Group { object }, b'{') => return self.value(object, p, depth),
            (
                Node::List {
                    elem,
                    dynamic: false,
                    block,
                },
                b'[',
            ) => {
                let (s, next) = self.elements(elem, p, depth)?;
                self.check_block(block, s.len())?;
                return Ok((Value::List(s), next));
            }
            (
                Node::Set {
                    elem,
                    dynamic: false,
                    block,
                },
                b'[',
            ) => {
                let (s, next) = self.elements(elem, p, depth)?;
                let n = collection::dedup_set(s, 0, self.scratch);
                self.check_block(block, n)?;
                return Ok((Value::Set(&s[..n]), next));
            }
            (
                Node::Map {
                    elem,
                    dynamic: false,
                },
                b'{',
            ) => return self.map(elem, p, depth),
            _ => return Err(GiveUp),
        };
        Ok((v, p + 1))
    }

    #[inline(always)]
    fn check_block(&self, block: u32, n: usize) -> Result<(), GiveUp> {
        match self.program.block(block) {
            Some(b) if (n as u64) < b.min || (b.max != 0 && n as u64 > b.max) => Err(GiveUp),
            _ => Ok(()),
        }
    }

    /// The elements of the array opening at structural `p`, and the structural after its
    /// `]`.
    fn elements(
        &mut self,
        elem: NodeId,
        p: usize,
        depth: usize,
    ) -> Result<(&'a mut [Value<'a>], usize), GiveUp> {
        self.open(depth)?;
        let mut q = p + 1;
        if self.at(q)?.1 == b']' {
            return Ok((&mut [], q + 1));
        }
        let base = self.stack.len();
        let scalars = match self.program.node(elem) {
            Node::String => Some(true),
            Node::Number => Some(false),
            _ => None,
        };
        loop {
            let (i, b) = self.at(q)?;
            let v = match (scalars, b) {
                (_, b'n') => {
                    self.literal(q, i, b"null")?;
                    q += 1;
                    Value::Null
                }
                (Some(true), b'"') => {
                    let s = self.string(q, i)?;
                    q += 1;
                    Value::String(s)
                }
                (Some(false), b'-' | b'0'..=b'9') => {
                    let n = self.number(q, i)?;
                    q += 1;
                    Value::Number(n)
                }
                _ => {
                    let (v, next) = self.value(elem, q, depth + 1)?;
                    q = next;
                    v
                }
            };
            self.stack.push(v);
            if self.member_ends(self.stack.len() - base, &mut q, b']')? {
                break;
            }
        }
        let out = take(self.bump, self.stack, base)?;
        Ok((out, q + 1))
    }

    /// The object opening at structural `p`, of attributes `attrs` (keys in the program's
    /// order, as go-cty writes them), and the structural after its `}`.
    fn object(
        &mut self,
        attrs: &'a [AttrNode],
        p: usize,
        depth: usize,
    ) -> Result<(Value<'a>, usize), GiveUp> {
        self.open(depth)?;
        let slots = self
            .bump
            .try_alloc_slice_fill_with(attrs.len(), |i| (&*attrs[i].name, Value::Null))
            .map_err(|_| GiveUp)?;
        let mut q = p + 1;
        let (_, b) = self.at(q)?;
        if b == b'}' {
            return Ok((Value::Object(slots), q + 1));
        }
        let mut a = 0;
        loop {
            let (i, b) = self.at(q)?;
            if b != b'"' {
                return Err(GiveUp);
            }
            let key = self.key(q, i)?;
            while a < attrs.len() && !crate::text::eq_short(attrs[a].name.as_bytes(), key) {
                a += 1;
            }
            if a == attrs.len() || self.at(q + 1)?.1 != b':' {
                return Err(GiveUp);
            }
            let (v, next) = self.value(attrs[a].node, q + 2, depth + 1)?;
            slots[a].1 = v;
            a += 1;
            q = next;
            match self.at(q)?.1 {
                b',' => q += 1,
                b'}' => break,
                _ => return Err(GiveUp),
            }
        }
        Ok((Value::Object(slots), q + 1))
    }

    /// The map opening at structural `p`: keys in NFC, sorted, the last of equal keys kept.
    fn map(&mut self, elem: NodeId, p: usize, depth: usize) -> Result<(Value<'a>, usize), GiveUp> {
        self.open(depth)?;
        let mut q = p + 1;
        if self.at(q)?.1 == b'}' {
            return Ok((Value::Map(&[]), q + 1));
        }
        let strings = matches!(self.program.node(elem), Node::String);
        let base = self.pairs.len();
        loop {
            let (i, b) = self.at(q)?;
            if b != b'"' || self.at(q + 1)?.1 != b':' {
                return Err(GiveUp);
            }
            let key = self.string(q, i)?;
            let (vi, vb) = self.at(q + 2)?;
            let v = if strings && vb == b'"' {
                q += 3;
                Value::String(self.string(q - 1, vi)?)
            } else {
                let (v, next) = self.value(elem, q + 2, depth + 1)?;
                q = next;
                v
            };
            self.pairs.push((key, v));
            if self.member_ends(self.pairs.len() - base, &mut q, b'}')? {
                break;
            }
        }
        let out = take(self.bump, self.pairs, base)?;
        if out.windows(2).all(|w| collection::key_lt(w[0].0, w[1].0)) {
            return Ok((Value::Map(out), q + 1));
        }
        let m = collection::sorted_map(self.bump, out, self.scratch).ok_or(GiveUp)?;
        Ok((Value::Map(m), q + 1))
    }
}

/// The members a collection pushed on `stack` from `base` on, moved into the arena.
fn take<'b, T: Copy>(
    bump: &'b Bump,
    stack: &mut Vec<T>,
    base: usize,
) -> Result<&'b mut [T], GiveUp> {
    let out = bump
        .try_alloc_slice_copy(&stack[base..])
        .map_err(|_| GiveUp)?;
    stack.truncate(base);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::{Config, Decoder, Program, Type};

    /// Where the prototype reads a document, its value is the decoder's; where it gives up
    /// (a document it does not cover, or a wrong one), it says so.
    #[test]
    fn the_prototype_reads_what_the_decoder_reads() {
        let ty = r#"["object",{"a":"number","b":["list","string"],"c":["map","number"],"d":"bool","e":["set","number"]}]"#;
        let program = Program::compile(&Type::from_json(ty).unwrap());
        let mut d = Decoder::new(Config::default());
        for doc in [
            r#"{"a":1,"b":["x","y"],"c":{"k":2.50},"d":true,"e":[1,1,2]}"#,
            r#" { "a" : -0 , "b" : [ "e\u0301" , "\n\"q\"" , null ] , "c" : { "z" : 1e3 , "a" : -12 } } "#,
            r#"{"a":-9223372036854775808,"b":[],"c":{},"e":[]}"#,
            r#"{"a":18446744073709551615,"d":false}"#,
            r#"{"a":-18446744073709551616,"b":["日本語テキスト ünïcödé"]}"#,
            r#"{"a":123456789012345678901234567890.5,"c":{"b":1,"a":2}}"#,
            r#"{"a":0.000001,"b":null,"c":null,"d":null,"e":null}"#,
            "null",
        ] {
            let (a1, a2) = (bumpalo::Bump::new(), bumpalo::Bump::new());
            let expected = d.decode_json(&program, doc.as_bytes(), &a1).unwrap();
            let got = d.decode_json_structural(&program, doc.as_bytes(), &a2);
            assert_eq!(got, Some(expected), "{doc}");
        }
        for doc in [
            r#"{"a":01}"#,
            r#"{"a":1,}"#,
            r#"{"b":["x"],"a":1}"#,
            r#"{"a":1}x"#,
            r#"{"a":"1"}"#,
            r#"{"a":1.}"#,
            r#"{"z":1}"#,
            "nul",
        ] {
            let a = bumpalo::Bump::new();
            assert_eq!(
                d.decode_json_structural(&program, doc.as_bytes(), &a),
                None,
                "{doc}"
            );
        }
    }
}
